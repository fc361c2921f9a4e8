/* What the workload rules count in a benchmark's options, shared with
 * the unit tests. */
#ifndef PD_RULES_WORKLOAD_H
#define PD_RULES_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include "pathdoctor/model.h"

/* A fio size as written ("1M", "1m", "1024k", "1MiB", "1048576",
 * "1048576B"; the read size of "1M,4k", the low end of "1M-4M"), in
 * bytes; fio's k, m and g are powers of 1024 (kb_base=1024, its
 * default).  -1 when it is not a size. */
int64_t pd_wl_size(const char *s);
/* rw (fio rw=, spdk_nvme_perf -w) reads only: read or randread. */
bool pd_wl_reads_only(const char *rw);
/* Processes one fio job record of w stands for: numjobs when the
 * record reports a group, else 1 (fio prints each clone).  A record
 * reports a group with group_reporting, or when w holds fewer records
 * of that job than numjobs: fio's JSON leaves flag options such as
 * group_reporting out of its options (fio 3.33). */
int pd_wl_processes(const struct pd_workload *w, const struct pd_wl_job *j);
/* Reads one job record keeps in flight: processes x iodepth, iodepth 1
 * for the synchronous engines (sync, psync, vsync, pvsync, pvsync2),
 * which ignore it, and 1 when unset (fio's default). */
int pd_wl_in_flight(const struct pd_workload *w, const struct pd_wl_job *j);

#endif

/* A workload output as one line of text, shared by the Markdown and
 * terminal renderers (src/report/workloads.c). */
#ifndef PD_WORKLOADS_H
#define PD_WORKLOADS_H

#include <stddef.h>

struct pd_workload;

/* "fio, 4 jobs: read 6.30 GB/s, write 0 B/s; 2 errors" */
void pd_workload_line(char *buf, size_t n, const struct pd_workload *w);

#endif

/* One line per workload output (fio, iperf3, spdk_nvme_perf): what the
 * benchmark itself measured, from its total. */
#include <stdio.h>
#include <string.h>
#include "finalize/cardlink.h"
#include "pathdoctor/model.h"
#include "report/workloads.h"

/* Appends ", NAME RATE" when the rate is known (>= 0). */
static void
rate(char *buf, size_t n, const char *name, double v)
{
	size_t used = strlen(buf);
	char r[32];

	if (v < 0 || used >= n)
		return;
	pd_fmt_bytes(r, sizeof(r), v, true);
	snprintf(buf + used, n - used, "%s%s %s",
	    buf[used - 1] == ':' ? " " : ", ", name, r);
}

void
pd_workload_line(char *buf, size_t n, const struct pd_workload *w)
{
	const struct pd_wl_job *t = w->total;
	size_t used;

	snprintf(buf, n, "%s, %u job%s:", w->tool, w->n_jobs,
	    w->n_jobs == 1 ? "" : "s");
	if (t) {
		rate(buf, n, "read", t->rd.bytes_per_s);
		rate(buf, n, "write", t->wr.bytes_per_s);
		rate(buf, n, "sent", t->net.sent_bytes_per_s);
		rate(buf, n, "received", t->net.recv_bytes_per_s);
	}
	used = strlen(buf);
	if (buf[used - 1] == ':' && used < n)
		snprintf(buf + used, n - used, " no throughput reported");
	used = strlen(buf);
	if (w->n_errors && used < n)
		snprintf(buf + used, n - used, "; %u error%s", w->n_errors,
		    w->n_errors == 1 ? "" : "s");
}

/* "spdk-perf": SPDK's spdk_nvme_perf (examples/nvme/perf before SPDK
 * 20.x) text output:
 *
 *   Initializing NVMe Controllers
 *   ...
 *   starting I/O failed: -12                 (the request pool ran dry)
 *                                                   Latency(us)
 *   Device Information                : IOPS   MiB/s  Average  min  max
 *   PCIE (0000:86:00.0) NSID 1 from core 0:  N  N  N  N  N
 *   Total                             :  N  N  N  N  N
 *
 * Reference: SPDK app/spdk_nvme_perf/perf.c (print_performance; "MB/s"
 * before "MiB/s", both computed in units of 2^20 bytes).  The output does
 * not name the workload: the command line, when the member holds it
 * ("perf -q 128 -o 524288 -w randrw ..."), gives -w, -q and -o; the
 * numbers go to the write side for a write-only -w, else the read side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define TABLE "Device Information"
#define INIT "Initializing NVMe Controllers"
#define FAILED "starting I/O failed"

static int
bid_spdk_perf(const struct pd_member *m)
{
	const unsigned char *p = m->head, *end = p + m->head_len;
	char line[256];
	int bid = 0, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	while (pd_text_next_line(&p, end, line, sizeof(line))) {
		if (pd_starts_with(line, TABLE) && strstr(line, "IOPS"))
			bid = 128;
		else if (pd_starts_with(line, INIT))
			bid = bid > 96 ? bid : 96;
		else if (pd_starts_with(line, "Attached to NVMe") ||
		    pd_starts_with(line, "Associating ") ||
		    pd_starts_with(line, FAILED))
			extra += extra < 24 ? 8 : 0;
	}
	return bid ? bid + extra : 0;
}

struct sp_state {
	struct pd_workload *w;
	struct pd_arena *a;
	const char *member;
	const char *rw, *bs;
	int qd;
	bool table;
};

/* "perf -q 128 -o 524288 -w randrw ...": the option's word, or NULL */
static const char *
opt(struct pd_arena *a, const char *s, const char *flag)
{
	const char *v = strstr(s, flag);

	if (!v)
		return NULL;
	v = pd_skip_space(v + strlen(flag));
	return pd_arena_strndup(a, v, strcspn(v, " \t'"));
}

/* "NAME: IOPS MiB/s average min max" */
static void
row(struct sp_state *st, const char *s, size_t len, uint32_t line)
{
	const char *c = strrchr(s, ':');
	double v[5];
	char *e;
	unsigned n = 0;
	bool total = pd_starts_with(s, "Total");

	if (!c)
		return;
	for (const char *p = c + 1; n < 5; p = e) {
		v[n] = strtod(p, &e);
		if (e == p)
			break;
		n++;
	}
	if (n < 5)
		return;
	const char *ne = c;

	while (ne > s && ne[-1] == ' ')
		ne--;
	struct pd_wl_job *j = total ? pd_wl_job_new(st->a, "total") :
	    pd_workload_job(st->w, st->a, pd_arena_strndup(st->a, s,
	    (size_t)(ne - s)));
	bool wr = st->rw && strstr(st->rw, "write") && !strstr(st->rw, "rw");
	struct pd_wl_side *d = wr ? &j->wr : &j->rd;

	d->iops = v[0];
	d->bytes_per_s = v[1] * 1048576.0;
	d->lat_mean_us = v[2];
	j->rw = st->rw;
	j->bs = st->bs;
	j->iodepth = st->qd;
	j->ioengine = "spdk";
	pd_evidence_set(&j->ev, st->a, st->member, line, s, len);
	if (total)
		st->w->total = j;
}

static void
spdk_line(struct sp_state *st, const char *s, size_t len, uint32_t line)
{
	if (pd_starts_with(s, FAILED)) {
		if (st->w->n_errors++ == 0)
			pd_evidence_set(&st->w->first_error, st->a,
			    st->member, line, s, len);
	} else if (pd_starts_with(s, TABLE)) {
		st->table = true;
	} else if (st->table) {
		row(st, s, len, line);
	} else if (strstr(s, "perf") && strstr(s, " -w ")) {
		st->rw = opt(st->a, s, " -w ");
		st->bs = opt(st->a, s, " -o ");
		st->qd = st->rw && opt(st->a, s, " -q ") ?
		    atoi(opt(st->a, s, " -q ")) : -1;
	}
}

static enum pd_status
parse_spdk_perf(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct sp_state *st = pd_arena_alloc(d->arena, sizeof(*st));
	const char *line;
	size_t len;

	st->a = d->arena;
	st->member = m->path;
	st->qd = -1;
	st->w = pd_host_workload(h, d->arena, m->path, "spdk_nvme_perf");
	while (pd_input_getline(in, &line, &len))
		spdk_line(st, line, len, in->line_no);
	if (!st->w->total)
		pd_workload_sum(st->w, d->arena);
	if (!st->table)
		pd_diag_note(d, PD_WARN, "spdk-perf.no-results", 0, "no \""
		    TABLE "\" table: the run did not finish");
	return st->table ? PD_OK : PD_WARN;
}

static const char *const hints[] = { "spdk", "nvme_perf", NULL };

const struct pd_format pd_format_spdk_perf = {
	.name = "spdk-perf",
	.summary = "spdk_nvme_perf's output: per namespace and total IOPS, "
	    "MiB/s, latency; its \"starting I/O failed\" lines",
	.command = "spdk_nvme_perf -q N -o SIZE -w RW -t SECONDS -r TRID",
	.hints = hints,
	.gives = PD_HAVE_WORKLOAD,
	.collect = "spdk_nvme_perf output (pathdoctor-collect --during runs any of them)",
	.bid = bid_spdk_perf,
	.parse = parse_spdk_perf,
};

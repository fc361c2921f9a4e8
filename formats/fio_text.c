/* "fio": fio's normal (text) output, the observed I/O of each job:
 *
 *   job: (g=0): rw=randread, bs=(R) 4096B-4096B, ..., ioengine=libaio, iodepth=4
 *   fio-3.25
 *   job: (groupid=0, jobs=1): err= 0: pid=21485: Fri Oct  6 05:28:47 2017
 *     read: IOPS=3070, BW=11.0MiB/s (12.6MB/s)(3598MiB/300002msec)
 *       clat (usec): min=286, max=18819, avg=1295.46, stdev=502.84
 *       clat percentiles (usec):
 *        |  1.00th=[  367],  5.00th=[  465], ..., 50.00th=[ 1303], ...
 *   Run status group 0 (all jobs):
 *      READ: bw=11.0MiB/s (12.6MB/s), ..., io=3598MiB (3773MB), run=...msec
 *
 * Reference: fio's HOWTO "Normal output" and stat.c show_ddir_status
 * (fio 3.x; before 3.0, "read : io=3598.0MB, bw=12278KB/s, iops=3070,
 * runt=300002msec" and "READ: io=..., aggrb=12278KB/s, ...", where KB
 * meant KiB).  Numbers are as printed: fio rounds them to about three
 * significant digits.  A member that holds fio's JSON belongs to
 * fio-json, which skips the text around it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define GROUP_TAG ": (groupid="
#define HEAD_TAG ": (g="

/* A job's options from its "NAME: (g=N): rw=..." line, until its
 * results name it; fio prints at most one such line per job section. */
#define MAX_HEADS 64

struct head {
	const char *name, *rw, *bs, *ioengine;
	int iodepth;
};

struct fio_state {
	struct pd_workload *w;
	struct pd_arena *a;
	const char *member;
	struct head heads[MAX_HEADS];
	unsigned n_heads;
	struct pd_wl_job *job;
	struct pd_wl_side *side;	/* of the last read:/write: line */
	double pct_scale;		/* of the open percentile block */
	struct pd_wl_job *total;	/* from the Run status lines */
};

/* "NAME: (groupid=" with a non-empty name, or "NAME: (g=". */
static const char *
tagged(const char *s, const char *tag)
{
	const char *t = strstr(s, tag);

	return t && t > s && s[0] != ' ' ? t : NULL;
}

/* One pass over the head's lines (fio's progress lines make many). */
static int
bid_fio(const struct pd_member *m)
{
	const unsigned char *p = m->head, *end = p + m->head_len;
	char line[512];
	int bid = 0, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	while (pd_text_next_line(&p, end, line, sizeof(line))) {
		if (line[0] == '{')
			return 0;	/* fio's JSON: fio-json's */
		if (tagged(line, GROUP_TAG) && strstr(line, ", jobs=") &&
		    strstr(line, "): err="))
			bid = 128;
		else if (tagged(line, HEAD_TAG) && strstr(line, "): rw="))
			bid = bid > 80 ? bid : 80;
		else if ((pd_starts_with(line, "fio-") && line[4] >= '0' &&
		    line[4] <= '9') || pd_starts_with(line, "Starting ") ||
		    pd_starts_with(line, "Run status group "))
			extra += extra < 24 ? 8 : 0;
	}
	return bid ? bid + extra : 0;
}

/* "11.0MiB/s", "382KiB/s", "12278KB/s" (fio 2: KB is KiB), "1.5GiB/s";
 * *end after the unit.  -1 when not a rate or size. */
static double
size_at(const char *s, const char **end)
{
	static const struct { const char *u; double f; } units[] = {
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
		{ "KB", 1024.0 }, { "MB", 1048576.0 }, { "GB", 1073741824.0 },
		{ "B", 1 },
	};
	char *e;
	double v = strtod(s, &e);

	if (e == s || v < 0)
		return -1;
	for (size_t i = 0; i < PD_ARRAY_SIZE(units); i++)
		if (pd_starts_with(e, units[i].u)) {
			*end = e + strlen(units[i].u);
			return v * units[i].f;
		}
	*end = e;
	return v;	/* bare bytes */
}

/* The value after "key=" in s (to the next ',' or space), or NULL. */
static const char *
value(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? p + strlen(key) : NULL;
}

static double
rate_of(const char *s, const char *key)
{
	const char *v = value(s, key), *end;

	return v ? size_at(v, &end) : -1;
}

/* "IOPS=3070", "IOPS=18.6k", "iops=3070" */
static double
iops_of(const char *s)
{
	const char *v = value(s, "IOPS=");
	char *e;
	double n;

	if (!v)
		v = value(s, "iops=");
	if (!v)
		return -1;
	n = strtod(v, &e);
	if (e == v)
		return -1;
	return *e == 'k' ? n * 1e3 : *e == 'M' ? n * 1e6 : n;
}

static double
ms_of(const char *s)
{
	char *e;
	double v = strtod(s, &e);

	if (e == s)
		return -1;
	return pd_starts_with(e, "usec") ? v / 1e3 : pd_starts_with(e, "msec") ?
	    v : pd_starts_with(e, "sec") ? v * 1e3 : -1;
}

/* "  read: IOPS=..., BW=...(3598MiB/300002msec)" (fio 3) or
 * "  read : io=3598.0MB, bw=12278KB/s, iops=3070, runt=300002msec". */
static void
side_line(struct fio_state *st, const char *s, struct pd_wl_side *d)
{
	const char *p = strrchr(s, '('), *end;
	double ms = -1;

	d->iops = iops_of(s);
	d->bytes_per_s = rate_of(s, "BW=");
	if (d->bytes_per_s < 0)
		d->bytes_per_s = rate_of(s, "bw=");
	if (p && strchr(p, '/') && d->bytes_per_s >= 0 && value(s, "BW=")) {
		d->bytes = (int64_t)size_at(p + 1, &end);
		if (*end == '/')
			ms = ms_of(end + 1);
	} else if (value(s, "io=")) {
		d->bytes = (int64_t)size_at(value(s, "io="), &end);
		if (value(s, "runt="))
			ms = ms_of(pd_skip_space(value(s, "runt=")));
	}
	if (ms >= 0 && ms / 1e3 > st->job->seconds)
		st->job->seconds = ms / 1e3;
	st->side = d;
}

static double
unit_scale(const char *s)
{
	return strstr(s, "(nsec)") ? 1e-3 : strstr(s, "(usec)") ? 1 :
	    strstr(s, "(msec)") ? 1e3 : -1;
}

/* "     |  1.00th=[  367],  5.00th=[  465], 10.00th=[ 1172]," */
static void
pct_line(struct fio_state *st, const char *s)
{
	static const struct { const char *key; size_t off; } want[] = {
		{ " 50.00th=[", offsetof(struct pd_wl_side, lat_p50_us) },
		{ " 99.00th=[", offsetof(struct pd_wl_side, lat_p99_us) },
		{ " 99.90th=[", offsetof(struct pd_wl_side, lat_p999_us) },
	};

	for (size_t i = 0; i < PD_ARRAY_SIZE(want); i++) {
		const char *v = value(s, want[i].key);
		char *e;
		double n;

		if (!v)
			continue;
		n = strtod(v, &e);
		if (e != v && *pd_skip_space(e) == ']')
			*(double *)(void *)((char *)st->side + want[i].off) =
			    n * st->pct_scale;
	}
}

static struct head *
find_head(struct fio_state *st, const char *name, size_t n)
{
	for (unsigned i = 0; i < st->n_heads; i++)
		if (strlen(st->heads[i].name) == n &&
		    memcmp(st->heads[i].name, name, n) == 0)
			return &st->heads[i];
	return NULL;
}

/* The block size of the job's direction from "(R) 4096B-4096B, (W)
 * 4096B-4096B, (T) 4096B-4096B" (fio 3) or "4K-4K/4K-4K/4K-4K" (fio 2,
 * read/write/trim): "4096B", or the range when it is one. */
static const char *
block_size(struct pd_arena *a, const char *v, const char *rw)
{
	bool wr = rw && strstr(rw, "write") && !strstr(rw, "rw");
	const char *p = v, *dash;
	size_t n;

	if (pd_starts_with(v, "(R) ")) {
		p = wr ? strstr(v, "(W) ") : v;
		p = p ? p + 4 : v + 4;
		n = strcspn(p, ",");
	} else {
		for (int k = wr ? 1 : 0; k > 0 && strchr(p, '/'); k--)
			p = strchr(p, '/') + 1;
		n = strcspn(p, "/,");
	}
	dash = memchr(p, '-', n);
	if (dash && (size_t)(dash - p) * 2 + 1 == n &&
	    memcmp(p, dash + 1, (size_t)(dash - p)) == 0)
		n = (size_t)(dash - p);	/* "4096B-4096B": one size */
	return pd_arena_strndup(a, p, n);
}

/* "NAME: (g=0): rw=read, bs=(R) 4096B-4096B, ..., ioengine=libaio,
 * iodepth=4". */
static void
head_line(struct fio_state *st, const char *s, const char *tag)
{
	struct head *h;
	const char *v;

	if (st->n_heads == MAX_HEADS || find_head(st, s, (size_t)(tag - s)))
		return;
	h = &st->heads[st->n_heads++];
	h->name = pd_arena_strndup(st->a, s, (size_t)(tag - s));
	h->iodepth = -1;
	if ((v = value(s, "): rw=")))
		h->rw = pd_arena_strndup(st->a, v, strcspn(v, ", "));
	if ((v = value(s, ", bs=")))
		h->bs = block_size(st->a, v, h->rw);
	if ((v = value(s, ", ioengine=")))
		h->ioengine = pd_arena_strndup(st->a, v, strcspn(v, ", "));
	if ((v = value(s, ", iodepth=")))
		h->iodepth = atoi(v);
}

/* "NAME: (groupid=0, jobs=1): err= 0: pid=..." opens a job. */
static void
job_line(struct fio_state *st, const char *s, size_t len, uint32_t line,
    const char *tag)
{
	const struct head *h = find_head(st, s, (size_t)(tag - s));
	struct pd_wl_job *j = pd_workload_job(st->w, st->a,
	    pd_arena_strndup(st->a, s, (size_t)(tag - s)));
	const char *v;

	j->groupid = atoi(tag + strlen(GROUP_TAG));
	if ((v = value(s, ", jobs="))) {
		j->numjobs = atoi(v);
		j->group_reporting = j->numjobs > 1;
	}
	if (h) {
		j->rw = h->rw;
		j->bs = h->bs;
		j->ioengine = h->ioengine;
		j->iodepth = h->iodepth;
	}
	pd_evidence_set(&j->ev, st->a, st->member, line, s, len);
	if ((v = value(s, "): err=")) && atoi(v) != 0 &&
	    st->w->n_errors++ == 0)
		st->w->first_error = j->ev;
	st->job = j;
	st->side = NULL;
}

/* "   READ: bw=11.0MiB/s (12.6MB/s), ..., io=3598MiB (3773MB), ..."
 * (fio 2: "aggrb="): one group's total, summed over the groups. */
static void
status_line(struct fio_state *st, const char *s, size_t len, uint32_t line,
    bool rd)
{
	struct pd_wl_side *d;
	const char *end, *v;
	double bw = rate_of(s, "bw=");

	if (!st->total) {
		st->total = pd_wl_job_new(st->a, "total");
		pd_evidence_set(&st->total->ev, st->a, st->member, line, s,
		    len);
	}
	d = rd ? &st->total->rd : &st->total->wr;
	/* "run=300002-300002msec" (fio 2: "maxt=300002msec") */
	if ((v = value(s, "run=")) && (v = strchr(v, '-')))
		v++;
	else
		v = value(s, "maxt=");
	if (v && ms_of(v) / 1e3 > st->total->seconds)
		st->total->seconds = ms_of(v) / 1e3;
	if (bw < 0)
		bw = rate_of(s, "aggrb=");
	if (bw >= 0)
		d->bytes_per_s = (d->bytes_per_s > 0 ? d->bytes_per_s : 0) + bw;
	if ((v = value(s, "io=")) && size_at(v, &end) >= 0)
		d->bytes = (d->bytes > 0 ? d->bytes : 0) +
		    (int64_t)size_at(v, &end);
}

static void
fio_line(struct fio_state *st, const char *s, size_t len, uint32_t line)
{
	const char *t = pd_skip_space(s), *tag;

	if ((tag = tagged(s, GROUP_TAG))) {
		job_line(st, s, len, line, tag);
	} else if ((tag = tagged(s, HEAD_TAG))) {
		head_line(st, s, tag);
	} else if (pd_starts_with(s, "fio-") && !st->w->version) {
		st->w->version = pd_arena_strndup(st->a, s, len);
	} else if (pd_starts_with(t, "READ:") || pd_starts_with(t, "WRITE:")) {
		status_line(st, t, len - (size_t)(t - s), line, t[0] == 'R');
	} else if (pd_starts_with(s, "fio: ") && strstr(s, "err")) {
		/* fio: pid=N, err=5/file:io_u.c:1747, func=io_u error, ... */
		if (st->w->n_errors++ == 0)
			pd_evidence_set(&st->w->first_error, st->a,
			    st->member, line, s, len);
	} else if (!st->job) {
		return;
	} else if (pd_starts_with(t, "read:") || pd_starts_with(t, "read :")) {
		side_line(st, t, &st->job->rd);
	} else if (pd_starts_with(t, "write:") ||
	    pd_starts_with(t, "write :")) {
		side_line(st, t, &st->job->wr);
	} else if (pd_starts_with(t, "trim") || pd_starts_with(t, "sync") ||
	    pd_starts_with(t, "fsync")) {
		st->side = NULL;	/* their latencies are not ours */
	} else if (st->side && pd_starts_with(t, "clat percentiles")) {
		st->pct_scale = unit_scale(t);
	} else if (st->side && pd_starts_with(t, "clat (")) {
		double sc = unit_scale(t), avg = rate_of(t, "avg=");

		if (sc > 0 && avg >= 0)
			st->side->lat_mean_us = avg * sc;
	} else if (st->side && t[0] == '|' && st->pct_scale > 0) {
		pct_line(st, t);
	} else if (t[0] != '|') {
		st->pct_scale = -1;
	}
}

/* fio prints only the directions that moved data: one it left out
 * moved nothing. */
static void
no_io_is_zero(struct pd_wl_job *j)
{
	struct pd_wl_side *sides[] = { &j->rd, &j->wr };

	if (j->rd.bytes < 0 && j->wr.bytes < 0)
		return;
	for (size_t i = 0; i < PD_ARRAY_SIZE(sides); i++)
		if (sides[i]->bytes < 0) {
			sides[i]->bytes = 0;
			sides[i]->bytes_per_s = sides[i]->iops = 0;
		}
}

/* fio's group line has no IOPS, latency or options; with one job they
 * are that job's. */
static void
one_job_total(struct pd_wl_job *t, const struct pd_wl_job *j)
{
	const struct pd_wl_side *from[] = { &j->rd, &j->wr };
	struct pd_wl_side *to[] = { &t->rd, &t->wr };

	for (size_t i = 0; i < PD_ARRAY_SIZE(to); i++) {
		to[i]->iops = from[i]->iops;
		to[i]->lat_mean_us = from[i]->lat_mean_us;
		to[i]->lat_p50_us = from[i]->lat_p50_us;
		to[i]->lat_p99_us = from[i]->lat_p99_us;
		to[i]->lat_p999_us = from[i]->lat_p999_us;
	}
	t->groupid = j->groupid;
	t->group_reporting = j->group_reporting;
	t->rw = j->rw;
	t->bs = j->bs;
	t->ioengine = j->ioengine;
	t->iodepth = j->iodepth;
	t->numjobs = j->numjobs;
}

static enum pd_status
parse_fio(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct fio_state *st = pd_arena_alloc(d->arena, sizeof(*st));
	const char *line;
	size_t len;

	st->a = d->arena;
	st->member = m->path;
	st->pct_scale = -1;
	st->w = pd_host_workload(h, d->arena, m->path, "fio");
	while (pd_input_getline(in, &line, &len))
		fio_line(st, line, len, in->line_no);
	/* The Run status lines are fio's own total; without them (fio
	 * killed, or a cut output) sum the jobs. */
	for (struct pd_wl_job *j = st->w->jobs; j; j = j->next)
		no_io_is_zero(j);
	if (st->total) {
		st->w->total = st->total;
		no_io_is_zero(st->total);
		if (st->w->n_jobs == 1)
			one_job_total(st->total, st->w->jobs);
	} else {
		pd_workload_sum(st->w, d->arena);
	}
	if (!st->w->n_jobs)
		pd_diag_note(d, PD_WARN, "fio.no-results", 0, "no job results "
		    "(\"NAME: (groupid=N, jobs=N): err=\" lines): fio did "
		    "not finish");
	return st->w->n_jobs ? PD_OK : PD_WARN;
}

static const char *const hints[] = { "fio", NULL };

const struct pd_format pd_format_fio = {
	.name = "fio",
	.summary = "fio's normal output: per job read/write bandwidth, IOPS, "
	    "completion latency, and the group totals",
	.command = "fio JOBFILE",
	.hints = hints,
	.gives = PD_HAVE_WORKLOAD,
	.collect = "fio --output-format=json output",
	.bid = bid_fio,
	.parse = parse_fio,
};

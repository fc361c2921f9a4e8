#define _GNU_SOURCE	/* memmem */
/* "fio-json": fio --output-format=json (or json+), the observed I/O of
 * each job:
 *
 *   {
 *     "fio version" : "fio-3.1",
 *     "global options" : { "rw" : "randread", "bs" : "1M", ... },
 *     "jobs" : [ { "jobname" : "test", "groupid" : 0, "error" : 0,
 *                  "job options" : { ... },
 *                  "read" : { "io_bytes" : N, "bw_bytes" : N, "bw" : KiB/s,
 *                             "iops" : X, "runtime" : ms,
 *                             "clat_ns" : { "mean" : X, "percentile" :
 *                                           { "50.000000" : N, ... } } },
 *                  "write" : { ... }, ... } ],
 *     "disk_util" : [ ... ]
 *   }
 *
 * Reference: fio's HOWTO "JSON output" and stat.c show_thread_status_json
 * (bw_bytes since fio 3.2; clat_ns since 3.0, clat in usec before it;
 * json+ adds "bins" under clat_ns, which this reader does not need).  The
 * whole member is parsed with jansson, so it is capped at FIO_JSON_MAX.
 * fio prints text before the JSON (the "job: (g=0): rw=..." lines, when
 * stdout and stderr share a file) and after it (--output-format=json,
 * normal): both are skipped. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

/* A json+ output of a few jobs with every latency bin is some hundred
 * KiB; 16 MiB leaves room for hundreds of jobs and refuses what would
 * take jansson's tree far beyond it. */
#define FIO_JSON_MAX (16u << 20)

#define KEY "\"fio version\""

/* The offset of the first line that opens the JSON object, or -1. */
static long
json_start(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (j < n && p[j] == '{')
			return (long)j;
		while (i < n && p[i] != '\n')
			i++;
		i++;
	}
	return -1;
}

static int
bid_fio_json(const struct pd_member *m)
{
	const unsigned char *p = m->head;
	long s = json_start(p, m->head_len);
	size_t i;

	if (s < 0 || memchr(p, '\0', m->head_len))
		return 0;
	/* The version key comes first in every fio since 2.x. */
	for (i = (size_t)s + 1; i < m->head_len && (p[i] == ' ' ||
	    p[i] == '\t' || p[i] == '\n' || p[i] == '\r'); i++)
		;
	if (m->head_len - i < strlen(KEY) || memcmp(p + i, KEY, strlen(KEY)))
		return 0;
	return 8 * (int)strlen(KEY) + 8;	/* the key and the brace */
}

static const char *
opt(json_t *job_opts, json_t *global, const char *key, struct pd_arena *a)
{
	json_t *v = json_object_get(job_opts, key);

	if (!json_is_string(v))
		v = json_object_get(global, key);
	return json_is_string(v) ? pd_arena_strdup(a, json_string_value(v)) :
	    NULL;
}

static int
opt_int(json_t *job_opts, json_t *global, const char *key)
{
	const char *s;
	json_t *v = json_object_get(job_opts, key);
	char *end;
	long n;

	if (!json_is_string(v))
		v = json_object_get(global, key);
	if (!json_is_string(v))
		return -1;
	s = json_string_value(v);
	n = strtol(s, &end, 10);
	return end == s || *end || n < 0 || n > 1000000 ? -1 : (int)n;
}

/* A number of the object, or -1 when absent or negative. */
static double
num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) && json_number_value(v) >= 0 ?
	    json_number_value(v) : -1;
}

/* Completion latency in microseconds: clat_ns (fio 3.0 on) or clat
 * (usec, before it); the percentiles are keyed "99.900000". */
static void
latency(json_t *side, struct pd_wl_side *s)
{
	json_t *c = json_object_get(side, "clat_ns"), *pct;
	double scale = 1e-3;

	if (!json_is_object(c)) {
		c = json_object_get(side, "clat");
		scale = 1;
	}
	if (!json_is_object(c) || num(c, "mean") < 0)
		return;
	s->lat_mean_us = num(c, "mean") * scale;
	pct = json_object_get(c, "percentile");
	if (num(pct, "50.000000") >= 0)
		s->lat_p50_us = num(pct, "50.000000") * scale;
	if (num(pct, "99.000000") >= 0)
		s->lat_p99_us = num(pct, "99.000000") * scale;
	if (num(pct, "99.900000") >= 0)
		s->lat_p999_us = num(pct, "99.900000") * scale;
}

/* One direction; returns its runtime in ms (-1 unknown). */
static double
side(json_t *o, struct pd_wl_side *s)
{
	double bw;

	if (!json_is_object(o))
		return -1;
	if (num(o, "io_bytes") >= 0)
		s->bytes = (int64_t)num(o, "io_bytes");
	else if (num(o, "io_kbytes") >= 0)	/* before fio 2.99 */
		s->bytes = (int64_t)num(o, "io_kbytes") * 1024;
	bw = num(o, "bw_bytes");
	s->bytes_per_s = bw >= 0 ? bw : num(o, "bw") >= 0 ?
	    num(o, "bw") * 1024 : -1;
	s->iops = num(o, "iops");
	if (s->bytes != 0)	/* a side with no I/O has no latency, not 0 */
		latency(o, s);
	return num(o, "runtime");
}

static unsigned
count_devices(const char *f)
{
	unsigned n = 1;

	/* fio splits filename at ':' unless escaped as "\:" */
	for (const char *p = f; *p; p++)
		if (*p == ':' && (p == f || p[-1] != '\\'))
			n++;
	return n;
}

/* The line of the i-th "jobname" key from base, for the evidence. */
static void
job_evidence(struct pd_wl_job *j, struct pd_arena *a, const char *member,
    const char *buf, size_t len, unsigned i)
{
	const char *p = buf, *end = buf + len, *hit = NULL;
	uint32_t line = 1;

	for (unsigned k = 0; k <= i; k++) {
		hit = memmem(p, (size_t)(end - p), "\"jobname\"", 9);
		if (!hit)
			return;
		p = hit + 9;
	}
	for (const char *q = buf; q < hit; q++)
		line += *q == '\n';
	const char *ls = hit, *le = memchr(hit, '\n', (size_t)(end - hit));

	while (ls > buf && ls[-1] != '\n')
		ls--;
	ls = pd_skip_space(ls);
	pd_evidence_set(&j->ev, a, member, line, ls,
	    (size_t)((le ? le : end) - ls));
}

static struct pd_wl_job *
job(struct pd_workload *w, struct pd_arena *a, json_t *o, json_t *global)
{
	json_t *name = json_object_get(o, "jobname");
	json_t *jo = json_object_get(o, "job options");
	struct pd_wl_job *j = pd_workload_job(w, a, json_is_string(name) ?
	    pd_arena_strdup(a, json_string_value(name)) : "?");
	double rt, wt;

	if (json_is_integer(json_object_get(o, "groupid")))
		j->groupid = (int)json_integer_value(json_object_get(o,
		    "groupid"));
	/* a flag option: present with an empty value */
	j->group_reporting = json_object_get(jo, "group_reporting") ||
	    json_object_get(global, "group_reporting");
	rt = side(json_object_get(o, "read"), &j->rd);
	wt = side(json_object_get(o, "write"), &j->wr);
	j->seconds = rt > wt ? rt / 1000 : wt >= 0 ? wt / 1000 : -1;
	j->rw = opt(jo, global, "rw", a);
	if (!j->rw)
		j->rw = opt(jo, global, "readwrite", a);
	j->bs = opt(jo, global, "bs", a);
	if (!j->bs)
		j->bs = opt(jo, global, "blocksize", a);
	j->ioengine = opt(jo, global, "ioengine", a);
	j->filename = opt(jo, global, "filename", a);
	if (j->filename)
		j->n_devices = (int)count_devices(j->filename);
	j->iodepth = opt_int(jo, global, "iodepth");
	j->numjobs = opt_int(jo, global, "numjobs");
	return j;
}

static enum pd_status
parse_fio_json(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	unsigned char *buf = NULL;
	size_t len = 0;
	json_error_t err;
	json_t *root, *jobs, *v;
	long s;

	if (pd_input_slurp(in, FIO_JSON_MAX, &buf, &len) != 0) {
		pd_diag_note(d, PD_FAILED, "fio-json.too-large", 0, "not read: "
		    "%s (fio JSON is read whole, up to %u MiB)", in->errmsg,
		    FIO_JSON_MAX >> 20);
		return PD_FAILED;
	}
	s = json_start(buf, len);
	/* One JSON value; whatever follows it (normal output) is not ours. */
	root = s < 0 ? NULL : json_loadb((const char *)buf + s, len -
	    (size_t)s, JSON_DISABLE_EOF_CHECK, &err);
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs)) {
		pd_diag_note(d, PD_FAILED, "fio-json.bad", root ? 0 :
		    (uint32_t)err.line, "not fio JSON: %s", root ?
		    "no \"jobs\" array" : err.text);
		json_decref(root);
		free(buf);
		return PD_FAILED;
	}
	struct pd_workload *w = pd_host_workload(h, a, m->path, "fio");
	size_t i;

	v = json_object_get(root, "fio version");
	w->version = json_is_string(v) ? pd_arena_strdup(a,
	    json_string_value(v)) : NULL;
	json_array_foreach(jobs, i, v) {
		struct pd_wl_job *j = job(w, a, v, json_object_get(root,
		    "global options"));

		job_evidence(j, a, m->path, (const char *)buf, len,
		    (unsigned)i);
		/* fio's "error" is the job's errno: 0 when it ran clean */
		if (json_integer_value(json_object_get(v, "error")) != 0 &&
		    w->n_errors++ == 0)
			w->first_error = j->ev;
	}
	json_decref(root);
	free(buf);
	pd_workload_sum(w, a);
	return PD_OK;
}

static const char *const hints[] = { "fio", NULL };

const struct pd_format pd_format_fio_json = {
	.name = "fio-json",
	.summary = "fio's JSON (json or json+): per job read/write bytes, "
	    "bandwidth, IOPS, completion latency and the options that matter",
	.command = "fio --output-format=json JOBFILE",
	.hints = hints,
	.gives = PD_HAVE_WORKLOAD,
	.collect = "the benchmark's output: fio --output-format=json",
	.bid = bid_fio_json,
	.parse = parse_fio_json,
};

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
#include <stdlib.h>
#include <string.h>
#include "decode/wl_json.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

extern const struct pd_format pd_format_fio_json;

/* A json+ output of a few jobs with every latency bin is some hundred
 * KiB; 16 MiB leaves room for hundreds of jobs and refuses what would
 * take jansson's tree far beyond it. */
#define FIO_JSON_MAX (16u << 20)

#define KEY "\"fio version\""

static int
bid_fio_json(const struct pd_member *m)
{
	const unsigned char *p = m->head;
	long s = pd_text_json_start(p, m->head_len);
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
	if (!json_is_object(c) || pd_wl_json_num(c, "mean") < 0)
		return;
	s->lat_mean_us = pd_wl_json_num(c, "mean") * scale;
	pct = json_object_get(c, "percentile");
	if (pd_wl_json_num(pct, "50.000000") >= 0)
		s->lat_p50_us = pd_wl_json_num(pct, "50.000000") * scale;
	if (pd_wl_json_num(pct, "99.000000") >= 0)
		s->lat_p99_us = pd_wl_json_num(pct, "99.000000") * scale;
	if (pd_wl_json_num(pct, "99.900000") >= 0)
		s->lat_p999_us = pd_wl_json_num(pct, "99.900000") * scale;
}

/* One direction; returns its runtime in ms (-1 unknown). */
static double
side(json_t *o, struct pd_wl_side *s)
{
	double bw;

	if (!json_is_object(o))
		return -1;
	if (pd_wl_json_num(o, "io_bytes") >= 0)
		s->bytes = (int64_t)pd_wl_json_num(o, "io_bytes");
	else if (pd_wl_json_num(o, "io_kbytes") >= 0)	/* before fio 2.99 */
		s->bytes = (int64_t)pd_wl_json_num(o, "io_kbytes") * 1024;
	bw = pd_wl_json_num(o, "bw_bytes");
	s->bytes_per_s = bw >= 0 ? bw : pd_wl_json_num(o, "bw") >= 0 ?
	    pd_wl_json_num(o, "bw") * 1024 : -1;
	s->iops = pd_wl_json_num(o, "iops");
	if (s->bytes != 0)	/* a side with no I/O has no latency, not 0 */
		latency(o, s);
	return pd_wl_json_num(o, "runtime");
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
	struct pd_wl_json js;
	json_t *jobs, *v;
	size_t i;

	if (!pd_wl_json_load(&js, &pd_format_fio_json, in, FIO_JSON_MAX, d)) {
		pd_wl_json_release(&js);
		return PD_FAILED;
	}
	jobs = json_object_get(js.root, "jobs");
	if (!json_is_array(jobs)) {
		pd_diag_note(d, PD_FAILED, "fio-json.bad", 0, "not fio JSON: "
		    "no \"jobs\" array");
		pd_wl_json_release(&js);
		return PD_FAILED;
	}
	struct pd_workload *w = pd_host_workload(h, a, m->path, "fio");

	v = json_object_get(js.root, "fio version");
	w->version = json_is_string(v) ? pd_arena_strdup(a,
	    json_string_value(v)) : NULL;
	json_array_foreach(jobs, i, v) {
		struct pd_wl_job *j = job(w, a, v, json_object_get(js.root,
		    "global options"));

		pd_wl_json_evidence(&js, &j->ev, a, m->path, "\"jobname\"",
		    (unsigned)i);
		/* fio's "error" is the job's errno: 0 when it ran clean */
		if (json_integer_value(json_object_get(v, "error")) != 0 &&
		    w->n_errors++ == 0)
			w->first_error = j->ev;
	}
	pd_wl_json_release(&js);
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
	.collect = "fio --output-format=json output",
	.bid = bid_fio_json,
	.parse = parse_fio_json,
};

/* Workload rules: what the user's own benchmark (fio, spdk_nvme_perf)
 * was asked to do, against what the path needs.
 *
 * workload.reads-in-flight: 1 MiB reads with far more outstanding than
 * the path needs.  In flight is counted over the whole run: fio's
 * iodepth per process times its processes, summed over the 1 MiB read
 * jobs (a job with several files still keeps iodepth in total);
 * spdk_nvme_perf's -q per namespace and core, times its result rows
 * (one per namespace and core).
 *
 * workload.fio-shared-devices: one fio job over several devices.  fio
 * hands a job's I/O to its files in turn (file_service_type=roundrobin,
 * the default), so every device gets the same share and the slowest
 * one paces the rest: N devices deliver N x the slowest.
 *
 * workload.spdk-request-pool: spdk_nvme_perf's "starting I/O failed:
 * -12" is ENOMEM from the submission: the queue pair had no free
 * request.  spdk_nvme_perf sizes that pool from -q and -o itself
 * (io_queue_requests, raised to what it estimates -q needs) and has no
 * option to enlarge it, so the fix is a smaller -q. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"
#include "rules/workload.h"

#define MIB (1 << 20)
/* Measured on GB10 (NVMe/TCP over a dual-port 200G ConnectX-7, 1 MiB
 * reads over four namespaces): the kernel initiator read best with
 * about 40 reads in flight in total and 3 to 5 % slower from 160 up. */
#define KERNEL_BEST 40
#define KERNEL_FROM 160
#define KERNEL_LO 30		/* +3 %, tenths */
#define KERNEL_HI 50		/* +5 % */
#define KERNEL_CONF_LO 50	/* at 160 in flight */
#define KERNEL_CONF_HI 75	/* from twice that: far past the knee */
/* SPDK on the same host read best near 20 in flight.  What it loses
 * beyond was not published: it fires at the kernel's ratio (4x its
 * best), from 0 to the kernel's +5 %. */
#define SPDK_BEST 20
#define SPDK_FROM (4 * SPDK_BEST)
#define SPDK_LO 0
#define SPDK_HI KERNEL_HI
/* On the same host spdk_nvme_perf -q above 8 with 1 MiB reads ran its
 * request pool dry ("starting I/O failed: -12"). */
#define POOL_Q 8
/* fio-shared-devices: the slowest device taken at no less than half
 * the others' pace, as when its path shares a PCIe link or port that
 * the others have alone (GB10: one Gen5 x4 link 14.8 GB/s, two 28.9);
 * a larger spread is a fault of that device, which any per-device run
 * shows at once. */
#define PACE_RATIO 2.0
/* Nothing in fio's total says the devices differ at all: a bounded
 * guess, below every rule that sees its cause. */
#define SHARED_CONF 20

/* ---- counting (rules/workload.h) ---- */

int64_t
pd_wl_size(const char *s)
{
	char *e;
	unsigned long long v;
	int64_t mult = 1;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	v = strtoull(s, &e, 10);
	switch (tolower((unsigned char)*e)) {
	case 'k': mult = 1 << 10; e++; break;
	case 'm': mult = 1 << 20; e++; break;
	case 'g': mult = 1 << 30; e++; break;
	default: break;
	}
	if (mult > 1 && (*e == 'i' || *e == 'I'))	/* "KiB", "MiB" */
		e++;
	if (*e == 'b' || *e == 'B')
		e++;
	/* the read size of "1M,4k"; the low end of "1M-4M" */
	if (*e && !strchr(",-:/ \t", *e))
		return -1;
	if (v > (unsigned long long)(INT64_MAX / mult))
		return -1;
	return (int64_t)v * mult;
}

bool
pd_wl_reads_only(const char *rw)
{
	size_t n;

	if (!rw)
		return false;
	n = strcspn(rw, ":");	/* fio's "randread:8" */
	return (n == 4 && strncmp(rw, "read", 4) == 0) ||
	    (n == 8 && strncmp(rw, "randread", 8) == 0);
}

int
pd_wl_processes(const struct pd_workload *w, const struct pd_wl_job *j)
{
	int clones = 0;

	if (j->numjobs <= 1)
		return 1;
	if (j->group_reporting)
		return j->numjobs;
	for (const struct pd_wl_job *k = w->jobs; k; k = k->next)
		clones += k->groupid == j->groupid && k->name && j->name &&
		    strcmp(k->name, j->name) == 0;
	return clones >= j->numjobs || clones == 0 ? 1 : j->numjobs / clones;
}

static bool
sync_engine(const char *e)
{
	static const char *const sync[] = { "sync", "psync", "vsync",
		"pvsync", "pvsync2", NULL };

	for (unsigned i = 0; e && sync[i]; i++)
		if (strcmp(e, sync[i]) == 0)
			return true;
	return false;
}

static int
depth_of(const struct pd_wl_job *j)
{
	return j->iodepth > 0 && !sync_engine(j->ioengine) ? j->iodepth : 1;
}

int
pd_wl_in_flight(const struct pd_workload *w, const struct pd_wl_job *j)
{
	return pd_wl_processes(w, j) * depth_of(j);
}

static bool
big_reads(const char *rw, const char *bs)
{
	return pd_wl_reads_only(rw) && pd_wl_size(bs) >= MIB;
}

static bool
is_tool(const struct pd_workload *w, const char *tool)
{
	return w->tool && strcmp(w->tool, tool) == 0;
}

/* ---- spdk_nvme_perf's options ---- */

/* What an spdk_nvme_perf run was asked: from its own output, else from
 * the collector's --during command when this output is that run's. */
struct perf_run {
	int q;			/* -q; -1 unknown */
	const char *rw, *bs;	/* -w, -o */
	const char *cmd;	/* the --during command, or NULL */
	unsigned rows;		/* result rows: one per namespace and core */
};

/* The word after one of flags in a command line, or NULL. */
static const char *
cmd_word(struct pd_arena *a, const char *cmd, const char *const *flags)
{
	for (; cmd && *flags; flags++) {
		const char *v = strstr(cmd, *flags);

		if (!v)
			continue;
		v += strlen(*flags);
		v += strspn(v, " ");
		return pd_arena_strndup(a, v, strcspn(v, " \t'\""));
	}
	return NULL;
}

static const char *const Q_FLAGS[] = { " -q ", " --io-depth ",
	" --io-depth=", NULL };
static const char *const O_FLAGS[] = { " -o ", " --io-size ",
	" --io-size=", NULL };
static const char *const W_FLAGS[] = { " -w ", " --io-pattern ",
	" --io-pattern=", NULL };

static bool
run_output(const struct pd_workload_run *r, const char *member)
{
	const char *paths[2] = { r->stdout_path, r->stderr_path };
	size_t m = strlen(member);

	for (unsigned i = 0; i < 2; i++) {
		size_t n = paths[i] ? strlen(paths[i]) : 0;

		if (n && n <= m && strcmp(member + m - n, paths[i]) == 0 &&
		    (n == m || member[m - n - 1] == '/'))
			return true;
	}
	return false;
}

static void
perf_view(struct pd_arena *a, const struct pd_host *h,
    const struct pd_workload *w, struct perf_run *r)
{
	const struct pd_wl_job *j = w->jobs ? w->jobs : w->total;
	const struct pd_workload_run *run = h->workload_run;

	r->q = j ? j->iodepth : -1;
	r->rw = j ? j->rw : NULL;
	r->bs = j ? j->bs : NULL;
	r->rows = w->n_jobs;
	r->cmd = NULL;
	if (!run || !run->command || !strstr(run->command, "perf") ||
	    !run_output(run, w->member))
		return;
	r->cmd = run->command;
	if (r->q < 0 && cmd_word(a, r->cmd, Q_FLAGS))
		r->q = atoi(cmd_word(a, r->cmd, Q_FLAGS));
	if (!r->rw)
		r->rw = cmd_word(a, r->cmd, W_FLAGS);
	if (!r->bs)
		r->bs = cmd_word(a, r->cmd, O_FLAGS);
}

/* The command with its -q set to q, or a template when unknown. */
static const char *
with_q(struct pd_arena *a, const struct perf_run *r, int q)
{
	const char *at = r->cmd ? strstr(r->cmd, " -q ") : NULL;

	if (!at)
		return pd_arena_printf(a, "spdk_nvme_perf -q %d -o %s -w %s "
		    "... (the other options as before)", q,
		    r->bs ? r->bs : "SIZE", r->rw ? r->rw : "PATTERN");
	const char *rest = at + 4;

	rest += strspn(rest, " ");
	rest += strspn(rest, "0123456789");
	return pd_arena_printf(a, "%.*s -q %d%s", (int)(at - r->cmd),
	    r->cmd, q, rest);
}

/* ---- workload.reads-in-flight ---- */

/* The 1 MiB read jobs of one fio output, counted. */
struct tally {
	const struct pd_wl_job *first;
	int total, procs;
	int depth;		/* the jobs' iodepth; -1 when they differ */
	unsigned jobs;
	bool spdk;		/* every one through SPDK's fio plugin */
};

static void
fio_tally(const struct pd_workload *w, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	t->spdk = true;
	for (const struct pd_wl_job *j = w->jobs; j; j = j->next) {
		int d = depth_of(j);

		if (!big_reads(j->rw, j->bs))
			continue;
		if (!t->first)
			t->depth = d;
		else if (t->depth != d)
			t->depth = -1;
		t->first = t->first ? t->first : j;
		t->total += pd_wl_in_flight(w, j);
		t->procs += pd_wl_processes(w, j);
		t->jobs++;
		t->spdk &= j->ioengine && strncmp(j->ioengine, "spdk", 4) == 0;
	}
}

/* Gain, lever, confidence and risk: the kernel's measured loss, or
 * SPDK's range when the reads go through SPDK. */
static void
in_flight_gain(struct pd_findings *out, struct pd_finding *f, bool spdk,
    int total)
{
	f->lever.kind = PD_LEVER_EFFICIENCY;
	f->lever.label = pd_arena_printf(out->arena, "about %d reads in flight "
	    "instead of %d", spdk ? SPDK_BEST : KERNEL_BEST, total);
	f->risk = PD_RISK_LOW;
	f->risk_note = "fewer reads in flight can underfill a path with more "
	    "latency than this one (a longer or congested network): compare "
	    "the throughput before and after";
	if (spdk) {
		f->gain_lo = SPDK_LO;
		f->gain_hi = SPDK_HI;
		f->lever.share_lo = SPDK_LO / 1000.0;	/* tenths of % */
		f->lever.share_hi = SPDK_HI / 1000.0;
		f->gain_basis = "measured in a comparable case: GB10 reading "
		    "NVMe/TCP over ConnectX-7, SPDK read best near 20 reads in "
		    "flight in total; its loss beyond was not published, so the "
		    "range runs from 0 to the kernel initiator's loss at four "
		    "times its best (3 to 5 %)";
		f->confidence = 40;
		f->confidence_note = "SPDK's loss with too many reads in flight "
		    "was not measured; the kernel initiator's bounds it";
		return;
	}
	f->gain_lo = KERNEL_LO;
	f->gain_hi = KERNEL_HI;
	f->lever.share_lo = KERNEL_LO / 1000.0;	/* 0.03 */
	f->lever.share_hi = KERNEL_HI / 1000.0;	/* 0.05 */
	f->gain_basis = "measured in a comparable case: GB10 reading NVMe/TCP "
	    "over ConnectX-7 with 1 MiB reads, the kernel initiator read best "
	    "near 40 reads in flight in total across the namespaces and 3 to "
	    "5 % slower from 160 up";
	f->confidence = total >= 2 * KERNEL_FROM ? KERNEL_CONF_HI :
	    KERNEL_CONF_LO + (KERNEL_CONF_HI - KERNEL_CONF_LO) *
	    (total - KERNEL_FROM) / KERNEL_FROM;
	f->confidence_note = pd_arena_printf(out->arena, "measured on one "
	    "path: the best count follows the path's latency and the target; "
	    "run %d, %d and %d in flight to find this path's", KERNEL_BEST / 2,
	    KERNEL_BEST, KERNEL_BEST * 2);
}

static void
fio_in_flight(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_workload *w)
{
	struct tally t;

	fio_tally(w, &t);
	if (!t.first || t.total < (t.spdk ? SPDK_FROM : KERNEL_FROM))
		return;
	int best = t.spdk ? SPDK_BEST : KERNEL_BEST;
	int depth = (best + t.procs / 2) / t.procs;
	struct pd_finding *f = pd_finding_new(out, self, h, w->member);

	depth = depth < 1 ? 1 : depth;
	pd_finding_summary(out, f, "fio keeps %d reads of 1 MiB in flight in "
	    "total (%d process%s%s, %u job%s): %s read best near %d in flight "
	    "in a comparable case%s.", t.total, t.procs, t.procs > 1 ? "es" :
	    "", t.depth > 0 ? pd_arena_printf(out->arena, " x iodepth %d",
	    t.depth) : ", iodepth differing", t.jobs, t.jobs > 1 ? "s" : "",
	    t.spdk ? "SPDK" : "the kernel NVMe/TCP initiator", best, t.spdk ?
	    "" : ", and 3 to 5 % slower from 160 up");
	in_flight_gain(out, f, t.spdk, t.total);
	pd_finding_fix(out, f, "# in the job file, in each 1 MiB read job "
	    "(or in [global]):");
	pd_finding_fix(out, f, "iodepth=%d", depth);
	pd_finding_fix(out, f, "# %d process%s x %d = %d reads in flight in "
	    "total%s", t.procs, t.procs > 1 ? "es" : "", depth,
	    t.procs * depth, t.procs * depth > best ? "; fewer processes "
	    "(numjobs) bring it nearer the best" : "");
	f->verify = pd_arena_printf(out->arena, "Run the job at iodepth=%d "
	    "and as it was, for the same time: the read bandwidth at %d is not "
	    "lower.", depth, depth);
	for (const struct pd_wl_job *j = w->jobs; j; j = j->next)
		if (big_reads(j->rw, j->bs))
			pd_finding_evidence(f, &j->ev);
}

static void
perf_in_flight(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_workload *w)
{
	struct perf_run r;

	perf_view(out->arena, h, w, &r);
	unsigned rows = r.rows ? r.rows : 1;
	int total = r.q * (int)rows;

	if (r.q <= 0 || !big_reads(r.rw, r.bs) || total < SPDK_FROM)
		return;
	int q = (SPDK_BEST + (int)rows / 2) / (int)rows;
	struct pd_finding *f = pd_finding_new(out, self, h, w->member);

	q = q < 1 ? 1 : q > POOL_Q ? POOL_Q : q;
	pd_finding_summary(out, f, "spdk_nvme_perf keeps %s%d reads of 1 MiB "
	    "in flight in total (-q %d x %u result row%s, one per namespace "
	    "and core): SPDK read best near %d in flight in a comparable "
	    "case.", r.rows ? "" : "at least ", total, r.q, r.rows,
	    r.rows == 1 ? "" : "s", SPDK_BEST);
	in_flight_gain(out, f, true, total);
	pd_finding_fix(out, f, "%s", with_q(out->arena, &r, q));
	pd_finding_fix(out, f, "# -q %d x %u = %u in flight%s", q, rows,
	    q * rows, q == POOL_Q ? "; -q stays at most 8 with 1 MiB reads "
	    "(see workload.spdk-request-pool)" : "");
	f->verify = pd_arena_printf(out->arena, "Run at -q %d and at -q %d: "
	    "the Total row's MiB/s at -q %d is not lower.", q, r.q, q);
	if (w->jobs)
		pd_finding_evidence(f, &w->jobs->ev);
	if (w->total)
		pd_finding_evidence(f, &w->total->ev);
}

static void
check_in_flight(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_workload *w = h->workloads; w; w = w->next)
		if (is_tool(w, "fio"))
			fio_in_flight(self, h, out, w);
		else if (is_tool(w, "spdk_nvme_perf"))
			perf_in_flight(self, h, out, w);
}

/* ---- workload.fio-shared-devices ---- */

/* True when s[0..n) is a plain word (a path, a size, an engine), so
 * that a fix never echoes shell syntax from the bundle. */
static bool
plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("/._-+,", s[i]))
			return false;
	return n > 0;
}

static bool
plain_or_null(const char *s)
{
	return !s || plain(s, strlen(s));
}

/* fio's filename= list, split at ':' ("\:" is an escaped colon);
 * false unless every entry is plain. */
static bool
devices(const char *list, const char **dev, size_t *len, unsigned max,
    unsigned *n)
{
	const char *p = list;

	*n = 0;
	while (*n < max) {
		const char *e = p;

		while (*e && !(*e == ':' && (e == p || e[-1] != '\\')))
			e++;
		if (!plain(p, (size_t)(e - p)))
			return false;
		dev[*n] = p;
		len[(*n)++] = (size_t)(e - p);
		if (!*e)
			return true;
		p = e + 1;
	}
	return false;
}

/* s with the job-file line "key=val" (printf's "\n" after it)
 * appended; s itself when val is NULL. */
static char *
job_line(struct pd_arena *a, char *s, const char *key, const char *val)
{
	return val ? pd_arena_printf(a, "%s%s=%s\\n", s, key, val) : s;
}

/* The fix: the job as one section per device, its iodepth divided so
 * that the run keeps as many reads in flight as before. */
static void
shared_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_wl_job *j)
{
	struct pd_arena *a = out->arena;
	const char *dev[16];
	size_t len[16];
	unsigned n;

	if (!devices(j->filename, dev, len, 16, &n) || !plain_or_null(j->rw) ||
	    !plain_or_null(j->bs) || !plain_or_null(j->ioengine)) {
		pd_finding_fix(out, f, "# one job section per device, each "
		    "with one filename= and the job's other options");
		return;
	}
	int depth = (j->iodepth + (int)n / 2) / (int)n;
	char *s = pd_arena_strdup(a, "[global]\\n");

	depth = depth < 1 ? 1 : depth;
	s = job_line(a, s, "rw", j->rw);
	s = job_line(a, s, "bs", j->bs);
	s = job_line(a, s, "ioengine", j->ioengine);
	s = job_line(a, s, "iodepth", j->iodepth > 0 ?
	    pd_arena_printf(a, "%d", depth) : NULL);
	s = job_line(a, s, "numjobs", j->numjobs > 1 ?
	    pd_arena_printf(a, "%d", j->numjobs) : NULL);
	s = pd_arena_printf(a, "%s%s# and the other options of the job as "
	    "before\\n", s, j->group_reporting ? "group_reporting\\n" : "");
	for (unsigned i = 0; i < n; i++) {
		const char *base = dev[i] + len[i];

		while (base > dev[i] && base[-1] != '/')
			base--;
		s = pd_arena_printf(a, "%s[%.*s]\\nfilename=%.*s\\n", s,
		    (int)(len[i] - (size_t)(base - dev[i])), base, (int)len[i],
		    dev[i]);
	}
	pd_finding_fix(out, f, "printf '%s' > per-device.fio", s);
	pd_finding_fix(out, f, "fio per-device.fio");
	if (j->iodepth > 0)
		pd_finding_fix(out, f, "# iodepth %d on each of the %u devices "
		    "keeps about the in-flight total of the shared job "
		    "(iodepth %d)", depth, n, j->iodepth);
}

static void
shared_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const char *member, const struct pd_wl_job *j)
{
	int n = j->n_devices;
	struct pd_finding *f = pd_finding_new(out, self, h,
	    pd_arena_printf(out->arena, "%s [%s]", member, j->name));

	pd_finding_summary(out, f, "fio job %s spreads its I/O over %d devices "
	    "(filename=%s): fio hands a job's I/O to its files in turn, so "
	    "each device gets the same share and the slowest one paces all "
	    "%d.", j->name, n, j->filename, n);
	f->gain_lo = 0;
	f->gain_hi = (int)(1000.0 * (n - 1) * (PACE_RATIO - 1) / n + 0.5);
	f->gain_basis = pd_arena_printf(out->arena, "model: %d devices fed "
	    "equally deliver %d x the slowest; one job each, the sum of their "
	    "own paces; 0 when they keep one pace, at most +%d %% with the "
	    "slowest at half the others' pace, as when its path shares a link "
	    "or port the others have alone (GB10 with ConnectX-7: one Gen5 x4 "
	    "link 14.8 GB/s, both 28.9); a larger spread is a fault of that "
	    "device, which any per-device run shows; fio's total alone cannot "
	    "tell which", n, n, f->gain_hi / 10);
	f->confidence = SHARED_CONF;
	f->confidence_note = "the devices' own paces are not in the bundle: "
	    "run one job per device, or iostat -x 1 during the shared run "
	    "(rkB/s and r_await per device), to measure them";
	f->risk = PD_RISK_LOW;
	f->risk_note = "none for the devices; the run reports one result per "
	    "device (group_reporting sums them)";
	shared_fix(out, f, j);
	f->verify = "The per-device jobs' bandwidths sum to at least the "
	    "shared job's, and one that lags names the slow device.";
	pd_finding_evidence(f, &j->ev);
	/* Lever: none.  The gain is the faster devices' lost pace, which
	 * the bundle does not show; a share on the ladder would be made
	 * up. */
}

static void
check_shared(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_workload *w = h->workloads; w; w = w->next) {
		if (!is_tool(w, "fio"))
			continue;
		for (const struct pd_wl_job *j = w->jobs; j; j = j->next) {
			const struct pd_wl_job *k = w->jobs;

			if (j->n_devices < 2 || !j->filename)
				continue;
			/* fio prints each clone of a job: one finding */
			while (k != j && !(strcmp(k->name, j->name) == 0 &&
			    k->filename && strcmp(k->filename, j->filename) == 0))
				k = k->next;
			if (k == j)
				shared_finding(self, h, out, w->member, j);
		}
	}
}

/* ---- workload.spdk-request-pool ---- */

static bool
enomem(const struct pd_workload *w)
{
	return w->n_errors && w->first_error.text &&
	    strstr(w->first_error.text, "-12");
}

static void
pool_gain(struct pd_finding *f, bool seen)
{
	f->gain_lo = 0;
	f->gain_hi = KERNEL_HI;
	f->gain_basis = "no published gain: a failed submission leaves fewer "
	    "reads in flight than -q asks, so the run measures the request "
	    "pool, not the path; bounded by what too many reads in flight "
	    "cost on the same host (3 to 5 %, kernel initiator); measured in "
	    "a comparable case: GB10 over ConnectX-7, -q above 8 with 1 MiB "
	    "reads ran the pool dry";
	f->confidence = seen ? 80 : 45;
	f->confidence_note = seen ? "what the failures cost in throughput is "
	    "not measured" : "no \"starting I/O failed: -12\" line in this "
	    "output (spdk_nvme_perf prints them on standard error): judged "
	    "from -q and -o alone";
	f->risk = PD_RISK_LOW;
	f->risk_note = "fewer reads per queue pair; with one namespace on one "
	    "core the path may need more: add namespaces or cores (-c) "
	    "instead of depth";
	/* Lever: none.  The same run's workload.reads-in-flight carries
	 * the efficiency lever of lowering -q; a second one would count
	 * the same fix twice. */
}

static void
check_pool(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_workload *w = h->workloads; w; w = w->next) {
		struct perf_run r;

		if (!is_tool(w, "spdk_nvme_perf"))
			continue;
		perf_view(out->arena, h, w, &r);
		bool seen = enomem(w);
		bool deep = r.q > POOL_Q && big_reads(r.rw, r.bs);

		if (!seen && !deep)
			continue;
		struct pd_finding *f = pd_finding_new(out, self, h, w->member);

		pd_finding_summary(out, f, "spdk_nvme_perf %s%s.", seen ?
		    pd_arena_printf(out->arena, "failed to start %u I/O%s with "
		    "-12 (ENOMEM: the queue pair had no free request)",
		    w->n_errors, w->n_errors > 1 ? "s" : "") :
		    pd_arena_printf(out->arena, "ran with -q %d", r.q),
		    deep ? pd_arena_printf(out->arena, "%s on 1 MiB %s: above "
		    "8 such reads per queue pair ran its request pool dry in a "
		    "comparable case", seen ? pd_arena_printf(out->arena,
		    " at -q %d", r.q) : "", r.rw) : "");
		pool_gain(f, seen);
		pd_finding_fix(out, f, "%s", with_q(out->arena, &r, POOL_Q));
		pd_finding_fix(out, f, "# spdk_nvme_perf sizes each queue "
		    "pair's request pool from -q and -o itself and has no "
		    "option to enlarge it (bdev_nvme_set_options "
		    "--io-queue-requests is the bdev layer's, for SPDK "
		    "applications, not for spdk_nvme_perf)");
		f->verify = "The output, standard error included (2>&1), has "
		    "no \"starting I/O failed\" line.";
		pd_finding_evidence(f, &w->first_error);
		if (w->jobs)
			pd_finding_evidence(f, &w->jobs->ev);
	}
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const in_flight_links[] = {
	/* iodepth, numjobs */
	"https://fio.readthedocs.io/en/latest/fio_doc.html",
	/* spdk_nvme_perf: "Running Benchmarks with Perf Tool" */
	"https://spdk.io/doc/nvme.html#nvme_perf",
	NULL,
};
static const char *const shared_links[] = {
	/* filename, file_service_type */
	"https://fio.readthedocs.io/en/latest/fio_doc.html",
	NULL,
};
static const char *const pool_links[] = {
	"https://spdk.io/doc/nvme.html#nvme_perf",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "workload.reads-in-flight",
		.title = "Far more 1 MiB reads in flight than the path needs",
		.doc = "1 MiB reads (fio rw=read or randread with bs of 1M or "
		    "more, spdk_nvme_perf -w read or randread with -o 1048576 "
		    "or more), counted in flight over the whole run: fio's "
		    "iodepth (1 for the synchronous engines) times the "
		    "processes each job record stands for (numjobs when it "
		    "reports a group: group_reporting, or fewer records of the "
		    "job than numjobs; fio prints each clone otherwise), summed "
		    "over the jobs; spdk_nvme_perf's -q times its result rows "
		    "(one per namespace and core).  A job with several files "
		    "keeps iodepth in total.  Measured on GB10 reading NVMe/TCP "
		    "over ConnectX-7: the kernel initiator read best near 40 in "
		    "flight in total and 3 to 5 % slower from 160 up; SPDK "
		    "best near 20.  Fires from 160 for the kernel (gain +3 to "
		    "+5 %, confidence 50 rising to 75 at 320) and from 80 for "
		    "SPDK (spdk_nvme_perf, or fio's spdk plugins; gain 0 to "
		    "+5 %, confidence 40: SPDK's loss was not published).  Fix: "
		    "iodepth for about 40 in flight in total (fio), -q for "
		    "about 20 and at most 8 (spdk_nvme_perf).  The options come "
		    "from the output, else from the collector's --during "
		    "command.",
		.links = in_flight_links,
		.needs = PD_HAVE_WORKLOAD,
		.check = check_in_flight,
	},
	{
		.id = "workload.fio-shared-devices",
		.title = "One fio job spread over several devices",
		.doc = "A fio job whose filename= lists several devices "
		    "(':'-separated) hands its I/O to them in turn "
		    "(file_service_type=roundrobin, the default): each device "
		    "gets the same share, so the slowest paces all of them and "
		    "N devices deliver N x the slowest.  One job per device "
		    "lets each run at its own pace.  Gain 0 (the devices keep "
		    "one pace) to (N-1)/N x 100 % (the slowest at half the "
		    "others' pace; a larger spread is a device fault that any "
		    "per-device run shows); fio's total cannot tell which, so "
		    "confidence 20 and no lever on the ladder.  Measure it "
		    "with one job per device, or iostat -x during the run.  "
		    "Fix: one job section per device with the same options, "
		    "iodepth divided among them, group_reporting kept.",
		.links = shared_links,
		.needs = PD_HAVE_WORKLOAD,
		.check = check_shared,
	},
	{
		.id = "workload.spdk-request-pool",
		.title = "spdk_nvme_perf runs its request pool dry",
		.doc = "spdk_nvme_perf's \"starting I/O failed: -12\" is "
		    "ENOMEM from the submission: the queue pair had no free "
		    "request.  spdk_nvme_perf sizes that pool from -q and -o "
		    "itself and has no option to enlarge it.  On GB10 over "
		    "ConnectX-7, -q above 8 with 1 MiB reads ran it dry.  "
		    "Fires on the -12 lines (confidence 80) or on -q above 8 "
		    "with 1 MiB reads (from the output, else the collector's "
		    "--during command; confidence 45, as the lines go to "
		    "standard error).  Gain 0 to +5 %: not published; the "
		    "failures leave fewer reads in flight than -q asks, and "
		    "too many in flight cost the kernel initiator 3 to 5 % on "
		    "the same host.  No lever: workload.reads-in-flight "
		    "carries lowering -q on the ladder.  Fix: -q 8.",
		.links = pool_links,
		.needs = PD_HAVE_WORKLOAD,
		.check = check_pool,
	},
};

const struct pd_rule_group pd_rules_workload = {
	.name = "workload",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

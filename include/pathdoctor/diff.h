/* pathdoctor diff: two bundles of the same hosts, before and after a
 * fix, compared by meaning.  Both are read and reported as usual (rules
 * and ladders run on each); src/diff/ then pairs their hosts, sorts the
 * findings into resolved, persisting and new, lists what changed on each
 * host (settings, links, offloads, rates, profile shares, payload
 * sizes), and judges the throughput AFTER realised against what BEFORE's
 * ladder predicted for the fixes that were made.  Renderers only format
 * what struct pd_diff holds. */
#ifndef PD_DIFF_H
#define PD_DIFF_H

#include <stdbool.h>
#include <stdio.h>
#include "model.h"

struct pd_report;
struct pd_finding;
struct pd_ladder;

/* How a BEFORE host was paired with an AFTER one, in the order tried. */
enum pd_diff_match {
	PD_MATCH_NAME,		/* the same host name */
	PD_MATCH_HARDWARE,	/* card serial numbers, PCI addresses */
	PD_MATCH_POSITION,	/* the n-th host left on each side */
	PD_MATCH_ONLY_BEFORE,	/* no AFTER host matched */
	PD_MATCH_ONLY_AFTER,
};

/* A setting or measurement that differs, by meaning ("what" names the
 * kind: "cmdline", "maxpayload", "offload", ...); before or after NULL
 * when the bundle on that side does not have it. */
struct pd_diff_change {
	struct pd_diff_change *next;
	const char *what, *subject;
	const char *before, *after;
	struct pd_evidence ev_before, ev_after;
};

enum pd_diff_state { PD_DIFF_RESOLVED, PD_DIFF_PERSISTING, PD_DIFF_NEW };

struct pd_diff_finding {
	struct pd_diff_finding *next;
	enum pd_diff_state state;
	const struct pd_finding *before, *after;	/* NULL: not there */
	const char *why;	/* resolved: what changed; persisting: why
				 * it still holds; NULL when nothing says */
	const char *reason;	/* persisting: why it holds, without the
				 * changes that bear on it */
	const char *unverified;	/* resolved: AFTER could not evaluate the
				 * rule (what it lacked); new: BEFORE
				 * could not; NULL */
};

enum pd_diff_verdict {
	PD_VERDICT_NONE,	/* not judged: say why */
	PD_VERDICT_WITHIN,
	PD_VERDICT_BELOW,
	PD_VERDICT_ABOVE,
};

/* A resolved finding BEFORE's ladder had a step for: what that step
 * predicted (relative to the step before it) and what AFTER shows. */
struct pd_diff_realised {
	struct pd_diff_realised *next;
	const struct pd_finding *finding;	/* BEFORE's */
	unsigned step;
	int pred_lo, pred_hi;		/* tenths of a percent, the step's */
	bool judged;			/* realised and verdict known */
	int realised;			/* tenths of a percent, the total */
	enum pd_diff_verdict verdict;	/* of the fixes made together */
	unsigned n_together;		/* ladder fixes made at once */
};

/* Two captures of one interface, before and after. */
struct pd_diff_capture {
	struct pd_diff_capture *next;
	const char *ifname;
	const struct pd_capture *before, *after;
};

struct pd_diff_host {
	struct pd_diff_host *next;
	const struct pd_host *before, *after;	/* NULL: only the other */
	enum pd_diff_match matched_by;
	const char *match_how;		/* "host name gx10" */
	const struct pd_ladder *ladder_before, *ladder_after;

	struct pd_diff_change *changes;
	unsigned n_changes;
	struct pd_diff_finding *findings;	/* resolved, persisting, new */
	unsigned n_resolved, n_persisting, n_new;
	struct pd_diff_capture *captures;
	const char *not_compared;	/* what the bounds left out; NULL */

	/* throughput: the ladders' observed, BEFORE's source first */
	bool tp_known;
	double tp_before, tp_after;	/* bytes/s */
	const char *tp_source;		/* "fio", or "fio -> NIC counters" */
	const char *tp_why;		/* why not judged, or why the sources
					 * differ; NULL */
	int tp_change;			/* tenths of a percent */

	/* the prediction after the ladder fixes made, and its verdict */
	struct pd_diff_realised *realised;
	unsigned n_ladder_fixes, n_ladder_made;
	bool pred_known;
	double pred_lo, pred_exp, pred_hi;	/* bytes/s */
	const char *pred_steps;		/* "steps 1-2", "step 2 alone" */
	const char *pred_binds;		/* what binds then, per the model */
	enum pd_diff_verdict verdict;
	const char *verdict_why;	/* "the next bottleneck was ..." */
	bool regression;
	const char *regression_why;
	const char *summary;		/* the verdict paragraph */
};

struct pd_diff {
	const struct pd_report *before, *after;
	struct pd_arena *arena;
	struct pd_diff_host *hosts;
	unsigned n_hosts;
	bool regression;		/* any host's */
	const char *summary;		/* the paragraph that opens it */
};

/* Run-to-run noise of a benchmark, as a fraction: the published GB10
 * case measured the same setting twice (the climb and the table) up to
 * 6.8 % apart (SPDK strict/128 21.3 and 22.8 GB/s; kernel 6.3 and 6.2,
 * lazy/128 24.4 and 25.1, SPDK 24.7 and 26.2).  A realised throughput
 * within this much of the predicted range is "within"; a fall by more
 * is a regression. */
#define PD_DIFF_NOISE 0.07

/* Compares two built reports; everything in a (the AFTER model's
 * arena, or any that outlives the diff). */
void pd_diff_build(struct pd_diff *d, const struct pd_report *before,
    const struct pd_report *after, struct pd_arena *a);

/* Pairs the hosts of two models (exposed for the unit tests). */
struct pd_diff_host *pd_diff_match_hosts(const struct pd_model *before,
    const struct pd_model *after, struct pd_arena *a);
/* Realised r against the range [lo, hi] with PD_DIFF_NOISE either side
 * (exposed for the unit tests). */
enum pd_diff_verdict pd_diff_judge(double r, double lo, double hi);
const char *pd_diff_verdict_name(enum pd_diff_verdict v);
/* "26.91-29.60 GB/s"; a network benchmark's also in Gbit/s. */
const char *pd_diff_range(struct pd_arena *a, const struct pd_diff_host *dh,
    double lo, double hi);
/* "6.20 GB/s"; "219.99 MB/s (1.76 Gbit/s)" for a network benchmark. */
const char *pd_diff_rate(struct pd_arena *a, const struct pd_diff_host *dh,
    double v);
const char *pd_diff_match_name(enum pd_diff_match m);
const char *pd_diff_state_name(enum pd_diff_state s);

struct pd_diff_renderer {
	const char *name;		/* "md", "json", "term" */
	int (*render)(const struct pd_diff *d, FILE *out);
};

extern const struct pd_diff_renderer *const pd_diff_renderers[];
const struct pd_diff_renderer *pd_diff_renderer_find(const char *name);

#endif

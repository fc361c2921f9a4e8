/* Many bundles in one call (-f jsonl, README "Fleet"): each analysed in
 * a worker process of its own, at most jobs at once, each giving one
 * JSON line:
 *
 *   {"pathdoctor_jsonl":1,"bundle":"PATH AS GIVEN","sha256":"HEX",
 *    "bytes":N,"exit":E,"report":{...}}
 *
 * with "error":"TEXT" in place of "report" for a bundle that cannot be
 * analysed (formats/jsonl.schema.json). */
#ifndef PD_FLEET_BATCH_H
#define PD_FLEET_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "pathdoctor/finding.h"

struct pd_limits;
struct pd_rule_filter;

#define PD_JSONL_VERSION 1	/* the line's "pathdoctor_jsonl" */
#define PD_BATCH_JOBS_MAX 1024	/* -j at most */

struct pd_batch_opts {
	const struct pd_limits *lim;	/* the caps, each bundle's own */
	const struct pd_rule_filter *rules;	/* --only/--skip; NULL: all */
	int min_level;			/* enum pd_level; -1: every finding */
	enum pd_level fail_on;		/* PD_LEVEL_OFF: never exit 1 */
	bool redact;			/* a map per bundle, in its worker */
	const char *redact_map;		/* with one bundle only; NULL */
	unsigned jobs;			/* workers at once; 0: the CPUs */
	bool status;			/* "N of M bundles" on a terminal */
};

/* Analyses bundles[0..n) ("-": stdin, at most once; a second "-" gets
 * an error line) and calls line_cb with each line (len bytes, the
 * newline included, not NUL-terminated) in the order given, as soon as
 * it and every line before it are done.  A bundle that fails, and a
 * worker that crashed ("analysis ended by signal N"), give a line of
 * their own; the run goes on.  --filter's expression, when set
 * (pd_filter_set), is the one every worker uses.  At most 4 * jobs
 * bundles are started and not yet handed over, so the lines held stay
 * bounded however slow one bundle is.  Returns the worst exit status of
 * the lines (3, then 4, then 1, then 0: see pd_batch_worse), or 3 at
 * once when line_cb returns non-zero (the workers are stopped). */
int pd_batch_run(const struct pd_batch_opts *o, char *const *bundles,
    size_t n, int (*line_cb)(const char *line, size_t len, void *ctx),
    void *ctx);

/* The worse of two exit statuses: 3 (a bundle not analysed: the set is
 * incomplete) over 4 (a bundle of nothing pathdoctor reads: no findings
 * could come from it) over 1 (findings at --fail-on) over 0. */
int pd_batch_worse(int a, int b);

/* One bundle analysed here and its line written to out (line.c, the
 * worker's half); returns the line's exit.  When the hash is known
 * before the analysis (a file, a directory), a line "sha256 HEX BYTES"
 * goes first, for the parent only: a worker that crashes still gets
 * its hash into the error line. */
#define PD_BATCH_HASH_HEAD "sha256"
int pd_batch_line(const struct pd_batch_opts *o, const char *bundle,
    FILE *out);

#endif

/* The report: ranked findings, rules not evaluated, members, hosts;
 * built once by pd_report_build (the rules run there), then handed const
 * to one renderer.  Renderers only format what the report and the
 * finalized model hold: every number and list they print is computed
 * before them, so md, json and term cannot disagree. */
#ifndef PD_REPORT_H
#define PD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

struct pd_model;
struct pd_arena;
struct pd_findings;
struct pd_coverage;
struct pd_rule;
struct pd_host;
struct pd_ladder;
struct pd_ladder_gap;

struct pd_collect_gap;

#define PD_NEEDS_MAX 32		/* one per enum pd_have bit */

/* A rule that did not run on a host: the inputs it lacks, each with
 * the text that asks for it, and the collector's gaps that explain
 * why they are missing. */
struct pd_not_evaluated {
	struct pd_not_evaluated *next;
	const struct pd_rule *rule;
	const struct pd_host *host;
	unsigned missing;		/* enum pd_have bits */
	const char *const *needs;	/* [n_needs], shared by the entries
					 * that lack the same inputs */
	unsigned n_needs;
	const struct pd_collect_gap **gaps;	/* of host->gaps, in order */
	unsigned n_gaps;
	const char *inapplicable;	/* why the rule cannot apply to this
					 * host (a virtual machine); NULL */
};

/* A member no interface could be given (struct pd_unused), with the
 * rules that would have used what it holds. */
struct pd_unused_view {
	struct pd_unused_view *next;
	const struct pd_host *host;
	const struct pd_unused *u;
	const char *rules;		/* "nic.idle-pf, nic.lro-off"; "" */
};

struct pd_rule_filter;

struct pd_report {
	const char *bundle;
	const struct pd_model *model;
	const struct pd_findings *findings;
	const struct pd_coverage *coverage;
	const struct pd_not_evaluated *not_evaluated;
	const struct pd_not_evaluated *not_applicable;	/* inapplicable set */
	const struct pd_ladder *ladders;	/* in host order; NULL: none */
	const struct pd_ladder_gap *ladder_gaps;	/* hosts without one */
	const struct pd_unused_view *unused;	/* members not attributed */
	unsigned n_not_evaluated;
	unsigned n_members_noted;	/* members whose worst status is not OK */
	/* "none of the 12 members is a format pathdoctor reads: ..." when
	 * no member was identified; NULL otherwise */
	const char *nothing_read;
	bool color;			/* renderers with .colour only */
	unsigned width;			/* term: columns to lay out for (0: 80) */
	bool brief;			/* --brief: the verdict, the summary
					 * table and the ladder only */
	unsigned n_hidden;		/* findings below --min-level, left
					 * out of every output */
	const char *min_level;		/* --min-level's level ("medium");
					 * NULL: every finding shown */
};

/* Runs the rules and fills r with what every renderer shows. */
void pd_report_build(struct pd_report *r, const char *bundle,
    const struct pd_model *m, const struct pd_coverage *cov,
    struct pd_findings *fs, const struct pd_rule_filter *filter);
/* The same, then (--min-level) removes from fs the findings below
 * min_level, an enum pd_level, once the ladders have seen them all and
 * set their gains; r->n_hidden counts them.  min_level < 0: none. */
void pd_report_build_min(struct pd_report *r, const char *bundle,
    const struct pd_model *m, const struct pd_coverage *cov,
    struct pd_findings *fs, const struct pd_rule_filter *filter,
    int min_level);

struct pd_renderer {
	const char *name;		/* "md", "json", "term" */
	bool colour;			/* may colour a terminal */
	int (*render)(const struct pd_report *r, FILE *out);
};

extern const struct pd_renderer *const pd_renderers[];	/* NULL-ended */
const struct pd_renderer *pd_renderer_find(const char *name);

/* Shared by renderers: "11.3" for 113 tenths. */
void pd_fmt_tenths(char *buf, size_t n, int tenths);
/* "+8.6 to +11.3 %" */
void pd_fmt_gain(char *buf, size_t n, int lo, int hi);
/* "gx10-before.tgz" for "uploads/2025/gx10-before.tgz", "y" for "x/y/",
 * "stdin" for "-": a report names the bundle, not where it lay on the
 * analyst's disk. */
const char *pd_base_name(struct pd_arena *a, const char *path);
struct pd_capture;
/* "4141 packets, 2915 TCP segments, ... super-packets": a capture's
 * counts in one sentence, as every renderer prints them. */
const char *pd_capture_line(struct pd_arena *a, const struct pd_capture *c);
/* "N of M packets matched" (--filter): NULL without --filter.  The
 * expression itself is printed beside it, escaped by the renderer. */
const char *pd_capture_filter_counts(struct pd_arena *a,
    const struct pd_capture *c);
/* b follows a with the same host, missing inputs and gaps: renderers
 * print such a run of rules as one line. */
bool pd_same_needs(const struct pd_not_evaluated *a,
    const struct pd_not_evaluated *b);

#endif

/* The report: ranked findings, rules not evaluated, members, hosts;
 * built once, then handed const to one renderer. */
#ifndef PD_REPORT_H
#define PD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

struct pd_model;
struct pd_findings;
struct pd_coverage;
struct pd_rule;
struct pd_host;

struct pd_not_evaluated {
	struct pd_not_evaluated *next;
	const struct pd_rule *rule;
	const struct pd_host *host;
	unsigned missing;		/* enum pd_have bits */
};

struct pd_report {
	const char *bundle;
	const struct pd_model *model;
	const struct pd_findings *findings;
	const struct pd_coverage *coverage;
	const struct pd_not_evaluated *not_evaluated;
	bool color;			/* terminal renderer only */
};

struct pd_renderer {
	const char *name;		/* "md", "json", "term" */
	int (*render)(const struct pd_report *r, FILE *out);
};

extern const struct pd_renderer pd_render_md, pd_render_json,
    pd_render_term;

/* Runs the rules in pd_rule_groups[] over every host. filter(rule)
 * returning false skips a rule silently (--only/--skip). */
struct pd_not_evaluated *pd_engine_run(const struct pd_model *m,
    struct pd_findings *out, bool (*filter)(const struct pd_rule *));

/* Shared by renderers: "11.3" for 113 tenths. */
void pd_fmt_tenths(char *buf, size_t n, int tenths);
/* "+8.6 to +11.3 %" */
void pd_fmt_gain(char *buf, size_t n, int lo, int hi);

#endif

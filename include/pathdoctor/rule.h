/* Rules: one const descriptor each, grouped by domain in src/rules/.
 *
 * A rule reads a const host and emits zero or more findings.  Its needs
 * (enum pd_have bits) must all be present or the engine lists it as
 * "not evaluated" with what the bundle lacks.  A rule with no check
 * function yet is always listed that way.
 */
#ifndef PD_RULE_H
#define PD_RULE_H

#include <stdbool.h>
#include <stddef.h>

struct pd_host;
struct pd_findings;

struct pd_rule {
	const char *id;		/* "pcie.mps-below-capability": stable */
	const char *title;	/* one line */
	const char *doc;	/* why it matters, where the numbers come from */
	unsigned needs;		/* enum pd_have bits */
	bool physical;		/* about hardware of the host's own: not
				 * applicable to a virtual machine */
	const char *const *links;	/* documentation it rests on: URLs,
					 * NULL-ended; NULL: none */
	const char *sysctls;	/* the sysctls it reads, fnmatch patterns
				 * separated by spaces (pathdoctor diff
				 * lists their changes); NULL: none */
	void (*check)(const struct pd_rule *self, const struct pd_host *h,
	    struct pd_findings *out);
};

struct pd_rule_group {
	const char *name;
	const struct pd_rule *rules;
	size_t n_rules;
};

extern const struct pd_rule_group *const pd_rule_groups[];	/* NULL-ended */

const struct pd_rule *pd_rule_find(const char *id);

struct pd_model;
struct pd_not_evaluated;

/* --only/--skip: keep(rule, ctx) false skips a rule silently. */
struct pd_rule_filter {
	bool (*keep)(const struct pd_rule *r, const void *ctx);
	const void *ctx;
};

/* Runs the rules in pd_rule_groups[] over every host (filter may be
 * NULL) and lists those not evaluated, with their needs and gaps. */
struct pd_not_evaluated *pd_engine_run(const struct pd_model *m,
    struct pd_findings *out, const struct pd_rule_filter *filter);

#endif

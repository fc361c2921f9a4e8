/* The report-building step: the rules run, the ladders compose their
 * gains, then the counts every renderer prints are taken once. */
#include <string.h>
#include "bundle/bundle.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/format.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

/* The rules that need an input the member's format gives. */
static const char *
rules_using(struct pd_arena *a, const char *format)
{
	const struct pd_format *f = pd_format_find(format);
	const char *s = "";

	for (const struct pd_rule_group *const *g = pd_rule_groups; f && *g;
	    g++)
		for (size_t i = 0; i < (*g)->n_rules; i++)
			if ((*g)->rules[i].needs & f->gives)
				s = pd_arena_printf(a, "%s%s%s", s, *s ? ", " : "",
				    (*g)->rules[i].id);
	return s;
}

static const struct pd_unused_view *
unused_views(const struct pd_model *m)
{
	struct pd_unused_view *head = NULL, **tail = &head;
	struct pd_arena *a = pd_model_arena(m);

	for (const struct pd_host *h = m->hosts; h; h = h->next)
		for (const struct pd_unused *u = h->unused; u; u = u->next) {
			*tail = pd_arena_alloc(a, sizeof(**tail));
			(*tail)->host = h;
			(*tail)->u = u;
			(*tail)->rules = rules_using(a, u->format);
			tail = &(*tail)->next;
		}
	return head;
}

#define NOTHING_NAMES 5	/* member names quoted when nothing is read */

/* Every member unknown: said in every output, and main's exit code. */
static const char *
nothing_read(const struct pd_coverage *cov, struct pd_arena *a)
{
	const char *names = "";
	unsigned k = 0;

	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next) {
		if (strcmp(mr->format, "unknown") != 0)
			return NULL;
		if (k++ < NOTHING_NAMES)
			names = pd_arena_printf(a, "%s%s%s", names, *names ?
			    ", " : "", mr->path);
	}
	return pd_arena_printf(a, "none of the %u member%s is a format "
	    "pathdoctor reads (%s%s); pathdoctor --list-formats lists them, "
	    "and pathdoctor-collect gathers them", cov->n_members,
	    cov->n_members == 1 ? "" : "s", names, k > NOTHING_NAMES ?
	    ", ..." : "");
}

/* Rules that cannot apply to a host are not "not evaluated": that list
 * keeps what the user could add. */
static void
split_inapplicable(struct pd_report *r, struct pd_not_evaluated *all)
{
	struct pd_not_evaluated *ne = NULL, **te = &ne, *na = NULL, **ta = &na;

	while (all) {
		struct pd_not_evaluated *n = all;

		all = n->next;
		n->next = NULL;
		if (n->inapplicable) {
			*ta = n;
			ta = &n->next;
		} else {
			*te = n;
			te = &n->next;
		}
	}
	r->not_evaluated = ne;
	r->not_applicable = na;
}

/* --min-level: the findings below it leave the list, in rank order;
 * their level is read after the ladders set their gains. */
static void
hide_below(struct pd_report *r, struct pd_findings *fs, int min_level)
{
	size_t k = 0;

	if (min_level < 0)
		return;
	r->min_level = pd_level_name((enum pd_level)min_level);
	for (size_t i = 0; i < fs->n; i++)
		if ((int)pd_finding_level(fs->v[i]) >= min_level)
			fs->v[k++] = fs->v[i];
	r->n_hidden = (unsigned)(fs->n - k);
	fs->n = k;
}

void
pd_report_build(struct pd_report *r, const char *bundle,
    const struct pd_model *m, const struct pd_coverage *cov,
    struct pd_findings *fs, const struct pd_rule_filter *filter)
{
	pd_report_build_min(r, bundle, m, cov, fs, filter, -1);
}

void
pd_report_build_min(struct pd_report *r, const char *bundle,
    const struct pd_model *m, const struct pd_coverage *cov,
    struct pd_findings *fs, const struct pd_rule_filter *filter,
    int min_level)
{
	*r = (struct pd_report){ .bundle = bundle, .model = m,
		.findings = fs, .coverage = cov };
	split_inapplicable(r, pd_engine_run(m, fs, filter));
	struct pd_ladder_gap *gaps = NULL;

	r->ladders = pd_ladders_build(m, fs, &gaps);
	r->ladder_gaps = gaps;
	hide_below(r, fs, min_level);
	r->unused = unused_views(m);
	r->nothing_read = cov->n_members ? nothing_read(cov, pd_model_arena(m)) :
	    NULL;
	for (const struct pd_not_evaluated *n = r->not_evaluated; n;
	    n = n->next)
		r->n_not_evaluated++;
	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next)
		r->n_members_noted += mr->diag.worst != PD_OK;
	r->n_members_noted += cov->n_folded_noted;
}

/* Runs every rule over every host; rules whose inputs are missing are
 * listed as not evaluated, with what the bundle would need and the
 * collector's gaps that explain the absence. */
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

/* The request texts of the inputs a rule lacks, made once a run for each
 * set of missing inputs: a bundle of thousands of hosts lists every rule
 * it could not evaluate on each of them, and the sets are few. */
#define NEED_SETS 64

struct need_cache {
	const char *text[32];		/* by bit number */
	struct {
		unsigned missing;
		const char **needs;
		unsigned n;
	} set[NEED_SETS];
	unsigned n_sets;
};

static const char *
need_text(struct need_cache *c, struct pd_arena *a, unsigned i)
{
	char buf[PD_NEED_TEXT_MAX];

	if (!c->text[i])
		c->text[i] = pd_arena_strdup(a, pd_need_text(1u << i, buf));
	return c->text[i];
}

/* The request text of every missing input, lowest bit first. */
static void
needs_of(struct pd_not_evaluated *ne, struct pd_arena *a,
    struct need_cache *c)
{
	const char **v;
	unsigned n = 0;

	for (unsigned k = 0; k < c->n_sets; k++)
		if (c->set[k].missing == ne->missing) {
			ne->needs = c->set[k].needs;
			ne->n_needs = c->set[k].n;
			return;
		}
	v = pd_arena_alloc(a, PD_NEEDS_MAX * sizeof(*v));
	for (unsigned i = 0; i < 32 && (1u << i) <= ne->missing; i++)
		if ((ne->missing >> i & 1) && n < PD_NEEDS_MAX)
			v[n++] = need_text(c, a, i);
	ne->needs = v;
	ne->n_needs = n;
	if (c->n_sets < NEED_SETS) {
		c->set[c->n_sets].missing = ne->missing;
		c->set[c->n_sets].needs = v;
		c->set[c->n_sets++].n = n;
	}
}

static void
gaps_of(struct pd_not_evaluated *ne, struct pd_arena *a)
{
	unsigned n = 0;

	for (const struct pd_collect_gap *g = ne->host->gaps; g; g = g->next)
		n += pd_need_from_format(ne->missing, g->format);
	if (!n)
		return;
	ne->gaps = pd_arena_alloc(a, n * sizeof(*ne->gaps));
	for (const struct pd_collect_gap *g = ne->host->gaps; g; g = g->next)
		if (pd_need_from_format(ne->missing, g->format))
			ne->gaps[ne->n_gaps++] = g;
}

static struct pd_not_evaluated *
not_evaluated(const struct pd_rule *r, const struct pd_host *h,
    unsigned missing, struct pd_arena *a, struct need_cache *cache)
{
	struct pd_not_evaluated *ne = pd_arena_alloc(a, sizeof(*ne));

	ne->rule = r;
	ne->host = h;
	ne->missing = missing ? missing : r->needs;
	needs_of(ne, a, cache);
	gaps_of(ne, a);
	return ne;
}

struct pd_not_evaluated *
pd_engine_run(const struct pd_model *m, struct pd_findings *out,
    const struct pd_rule_filter *filter)
{
	struct pd_not_evaluated *head = NULL, **tail = &head;
	struct need_cache cache = { .n_sets = 0 };

	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		for (const struct pd_rule_group *const *g = pd_rule_groups;
		    *g; g++) {
			for (size_t i = 0; i < (*g)->n_rules; i++) {
				const struct pd_rule *r = &(*g)->rules[i];
				unsigned missing = r->needs & ~h->have;

				if (filter && !filter->keep(r, filter->ctx))
					continue;
				if (!missing && r->check) {
					r->check(r, h, out);
					continue;
				}
				*tail = not_evaluated(r, h, missing,
				    pd_model_arena(m), &cache);
				/* nothing the user adds makes it apply */
				if (r->physical && h->guest_why)
					(*tail)->inapplicable = h->guest_why;
				tail = &(*tail)->next;
			}
		}
	}
	pd_findings_rank(out);
	return head;
}

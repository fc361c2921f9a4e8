/* One report's findings, rules not evaluated or not applicable, ladders
 * and ladder gaps, indexed by host: one sorted array, so a diff of two
 * fleets' bundles looks each host's items up in log time instead of
 * walking every list per host. */
#include <stdint.h>
#include <stdlib.h>
#include "diff/diff.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/report.h"

static int
cmp_item(const void *x, const void *y)
{
	const struct pd_diff_item *a = x, *b = y;

	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static size_t
count(const struct pd_report *r)
{
	size_t n = r->findings->n;

	for (const struct pd_not_evaluated *e = r->not_evaluated; e; e = e->next)
		n++;
	for (const struct pd_not_evaluated *e = r->not_applicable; e;
	    e = e->next)
		n++;
	for (const struct pd_ladder *l = r->ladders; l; l = l->next)
		n++;
	for (const struct pd_ladder_gap *g = r->ladder_gaps; g; g = g->next)
		n++;
	return n;
}

static void
add(struct pd_diff_index *x, const void *host, enum pd_diff_kind k,
    const void *item)
{
	x->v[x->n] = (struct pd_diff_item){ (uintptr_t)host, k, x->n, item };
	x->n++;
}

void
pd_diff_index_build(struct pd_diff_index *x, const struct pd_report *r,
    struct pd_arena *a)
{
	x->r = r;
	x->n = 0;
	x->v = pd_arena_alloc(a, (count(r) + 1) * sizeof(*x->v));
	for (size_t i = 0; i < r->findings->n; i++)
		add(x, r->findings->v[i]->host, PD_DIFF_FINDING, r->findings->v[i]);
	for (const struct pd_not_evaluated *e = r->not_evaluated; e; e = e->next)
		add(x, e->host, PD_DIFF_NOT_EVALUATED, e);
	for (const struct pd_not_evaluated *e = r->not_applicable; e;
	    e = e->next)
		add(x, e->host, PD_DIFF_NOT_APPLICABLE, e);
	for (const struct pd_ladder *l = r->ladders; l; l = l->next)
		add(x, l->host, PD_DIFF_LADDER, l);
	for (const struct pd_ladder_gap *g = r->ladder_gaps; g; g = g->next)
		add(x, g->host, PD_DIFF_LADDER_GAP, g);
	qsort(x->v, x->n, sizeof(*x->v), cmp_item);
}

size_t
pd_diff_index_find(const struct pd_diff_index *x, const struct pd_host *h,
    enum pd_diff_kind k, const struct pd_diff_item **first)
{
	size_t lo = 0, hi = x->n;
	const struct pd_diff_item key = { (uintptr_t)h, k, 0, NULL };

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cmp_item(&x->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;

	while (end < x->n && x->v[end].host == key.host && x->v[end].kind == k)
		end++;
	*first = &x->v[lo];
	return end - lo;
}

/* Changes in what the host spent its time on and what it sent: the
 * profile's top symbols per core type, and the payload sizes of the
 * captures of each interface. */
#include <math.h>
#include <string.h>
#include "diff/diff.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"

#define TOP_COMPARED 5		/* top symbols by self share, each side */

/* The same event, else the first profile of the other side. */
static const struct pd_profile *
partner(const struct pd_profile *p, const struct pd_host *a)
{
	for (const struct pd_profile *q = a->profiles; q; q = q->next)
		if (q->samples && p->event && q->event &&
		    strcmp(p->event, q->event) == 0)
			return q;
	return a->profiles && a->profiles->samples ? a->profiles : NULL;
}

static int
group_of(const struct pd_profile *p, const char *name)
{
	for (unsigned g = 0; g < p->n_groups; g++)
		if (strcmp(p->groups[g].name, name) == 0)
			return (int)g;
	return -1;
}

static double
busy(const struct pd_profile *p, unsigned g)
{
	return p->groups[g].total - p->groups[g].idle;
}

/* Self share of a symbol in a group's busy samples; 0 when absent. */
static double
share_of(const struct pd_profile *p, unsigned g, const char *name)
{
	double b = busy(p, g);

	if (b <= 0 || !p->sym_group_self)
		return 0;
	for (unsigned i = 0; i < p->n_syms; i++)
		if (p->syms[i].name && strcmp(p->syms[i].name, name) == 0)
			return pd_prof_sym_group(p, false, i, g) / b;
	return 0;
}

/* Busy samples of a group, from its share of the profile's periods. */
static double
busy_samples(const struct pd_profile *p, unsigned g)
{
	return p->period > 0 ? p->samples * busy(p, g) / p->period : 0;
}

/* A share moved when it moved by more than sampling noise: 3 standard
 * errors of the larger share, sqrt(p(1-p)/n) on each side's busy
 * samples, and at least one percentage point (perf's own rounding and
 * the period's spread weigh samples unequally). */
static bool
moved(double sb, double sa, double nb, double na)
{
	double p = sb > sa ? sb : sa;
	double se = 0;

	if (nb > 0)
		se += p * (1 - p) / nb;
	if (na > 0)
		se += p * (1 - p) / na;
	double bar = 3 * sqrt(se);

	return fabs(sa - sb) > (bar > 0.01 ? bar : 0.01);
}

static void
symbol(struct pd_changes *c, const struct pd_profile *p,
    const struct pd_profile *q, unsigned g, int h, const char *name)
{
	double sb = share_of(p, g, name), sa = share_of(q, (unsigned)h, name);

	if (!moved(sb, sa, busy_samples(p, g), busy_samples(q, (unsigned)h)))
		return;
	pd_change_add(c, "profile", pd_arena_printf(c->a, "%s: %s (%s, self "
	    "share of busy samples)", p->groups[g].name, name, p->event ?
	    p->event : "event unknown"), pd_arena_printf(c->a, "%.1f %%",
	    100 * sb), pd_arena_printf(c->a, "%.1f %%", 100 * sa), &p->ev,
	    &q->ev);
}

static bool
listed(const struct pd_profile *p, unsigned g, unsigned upto,
    const char *name)
{
	for (unsigned k = 0; k < upto; k++)
		if (strcmp(p->syms[p->top[g][0][k]].name, name) == 0)
			return true;
	return false;
}

static void
groups(struct pd_changes *c, const struct pd_profile *p,
    const struct pd_profile *q)
{
	for (unsigned g = 0; g < p->n_groups; g++) {
		int h = group_of(q, p->groups[g].name);

		if (h < 0)
			continue;
		unsigned np = p->n_top[g][0] < TOP_COMPARED ? p->n_top[g][0] :
		    TOP_COMPARED;
		unsigned nq = q->n_top[h][0] < TOP_COMPARED ? q->n_top[h][0] :
		    TOP_COMPARED;

		for (unsigned k = 0; k < np; k++)
			symbol(c, p, q, g, h, p->syms[p->top[g][0][k]].name);
		for (unsigned k = 0; k < nq; k++) {
			const char *name = q->syms[q->top[h][0][k]].name;

			if (!listed(p, g, np, name))
				symbol(c, p, q, g, h, name);
		}
	}
}

void
pd_changes_profile(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	const struct pd_profile *p, *q;

	for (p = b->profiles; p && !p->samples; p = p->next)
		;
	for (q = a->profiles; q && !q->samples; q = q->next)
		;
	if (p && q)
		groups(c, p, partner(p, a));
	else if (p || q)
		pd_change_add(c, "profile", "(profile)", p ? p->member : NULL,
		    q ? q->member : NULL, p ? &p->ev : NULL, q ? &q->ev : NULL);
}

/* The commonest payload size of data segments (above 0 bytes). */
static const struct pd_size_count *
top_data(const struct pd_capture *cap)
{
	for (unsigned i = 0; i < cap->sizes.n; i++)
		if (cap->sizes.top[i].bytes)
			return &cap->sizes.top[i];
	return NULL;
}

static const char *
top_size(struct pd_arena *a, const struct pd_capture *cap)
{
	const struct pd_size_count *t = top_data(cap);

	if (!t)
		return "no TCP payload";
	return pd_arena_printf(a, "data segments mostly %u B (%llu), %llu "
	    "above the MSS", t->bytes, (unsigned long long)t->count,
	    (unsigned long long)cap->super_segs);
}

/* A virtual interface's capture and a physical one's on one host: the
 * same flow before and after the host segments it (tcp.gso-mismatch).
 * Their commonest data sizes match once the guest's packets fit. */
static const char *
sides_match(struct pd_arena *a, const struct pd_host *h, const char *vif,
    const char *pif)
{
	const struct pd_capture *v = NULL, *p = NULL;

	for (const struct pd_capture *c = h->captures; c; c = c->next) {
		if (c->ifname && strcmp(c->ifname, vif) == 0)
			v = c;
		if (c->ifname && strcmp(c->ifname, pif) == 0)
			p = c;
	}
	const struct pd_size_count *tv = v ? top_data(v) : NULL;
	const struct pd_size_count *tp = p ? top_data(p) : NULL;

	if (!tv || !tp)
		return NULL;
	if (tv->bytes == tp->bytes)
		return pd_arena_printf(a, "match: both mostly %u B", tv->bytes);
	return pd_arena_printf(a, "differ: %s mostly %u B, %s %u B", vif,
	    tv->bytes, pif, tp->bytes);
}

static void
virtual_vs_physical(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	for (const struct pd_capture *v = b->captures; v; v = v->next) {
		if (v->side != PD_SIDE_VIRTUAL || !v->ifname)
			continue;
		for (const struct pd_capture *p = b->captures; p; p = p->next)
			if (p->side == PD_SIDE_PHYSICAL && p->ifname)
				pd_change_add(c, "capture-sides", pd_arena_printf(
				    c->a, "%s vs %s", v->ifname, p->ifname),
				    sides_match(c->a, b, v->ifname, p->ifname),
				    sides_match(c->a, a, v->ifname, p->ifname),
				    &v->ev, &p->ev);
	}
}

/* Captures compared per host: a host's captures are a few interfaces;
 * past this many on a side the rest are not paired, and that is said. */
#define CAPTURES_PAIRED 64

void
pd_changes_captures(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	struct pd_diff_capture **tail = &c->dh->captures;
	unsigned n = 0;

	for (const struct pd_capture *x = b->captures; x; x = x->next) {
		const struct pd_capture *y = a->captures;

		if (++n > CAPTURES_PAIRED) {
			pd_change_skipped(c, pd_arena_printf(c->a, "captures past "
			    "the first %d of BEFORE", CAPTURES_PAIRED));
			break;
		}
		while (y && !(x->ifname && y->ifname &&
		    strcmp(x->ifname, y->ifname) == 0))
			y = y->next;
		if (!y)
			continue;
		struct pd_diff_capture *dc = pd_arena_alloc(c->a, sizeof(*dc));

		dc->ifname = x->ifname;
		dc->before = x;
		dc->after = y;
		*tail = dc;
		tail = &dc->next;
		pd_change_add(c, "capture", x->ifname, top_size(c->a, x),
		    top_size(c->a, y), &x->ev, &y->ev);
	}
	if (n <= CAPTURES_PAIRED)
		virtual_vs_physical(c, b, a);
}

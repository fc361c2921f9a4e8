/* Realised against predicted: the throughput each side's ladder
 * observed, what BEFORE's ladder predicted once the fixes AFTER no
 * longer needs were made, and the verdict on it. */
#include <math.h>
#include <string.h>
#include "base/gain.h"
#include "diff/diff.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

enum pd_diff_verdict
pd_diff_judge(double r, double lo, double hi)
{
	if (r < lo * (1 - PD_DIFF_NOISE))
		return PD_VERDICT_BELOW;
	if (r > hi * (1 + PD_DIFF_NOISE))
		return PD_VERDICT_ABOVE;
	return PD_VERDICT_WITHIN;
}

const char *
pd_diff_verdict_name(enum pd_diff_verdict v)
{
	static const char *const names[] = { "not judged", "within", "below",
		"above" };

	return names[v];
}

/* A network benchmark's rates read in bits as well. */
static bool
in_bits(const struct pd_diff_host *dh)
{
	const struct pd_ladder *l = dh->ladder_before;

	return l && strcmp(l->observed_source, "iperf3") == 0;
}

const char *
pd_diff_rate(struct pd_arena *a, const struct pd_diff_host *dh, double v)
{
	const char *s = pd_rate_str(a, v);

	return in_bits(dh) ? pd_arena_printf(a, "%s (%.2f Gbit/s)", s,
	    v * 8 / 1e9) : s;
}

const char *
pd_diff_range(struct pd_arena *a, const struct pd_diff_host *dh, double lo,
    double hi)
{
	const char *l = pd_rate_str(a, lo), *h = pd_rate_str(a, hi);

	if (strcmp(l, h) == 0)
		return pd_diff_rate(a, dh, lo);
	const char *ul = strchr(l, ' '), *uh = strchr(h, ' ');
	const char *s = ul && uh && strcmp(ul, uh) == 0 ?
	    pd_arena_printf(a, "%.*s-%s", (int)(ul - l), l, h) :
	    pd_arena_printf(a, "%s-%s", l, h);

	return in_bits(dh) ? pd_arena_printf(a, "%s (%.2f-%.2f Gbit/s)", s,
	    lo * 8 / 1e9, hi * 8 / 1e9) : s;
}

static const struct pd_ladder *
ladder_of(const struct pd_diff_index *x, const struct pd_host *h)
{
	const struct pd_diff_item *it;

	return h && pd_diff_index_find(x, h, PD_DIFF_LADDER, &it) ? it->item :
	    NULL;
}

/* Why a side has no throughput to compare. */
static const char *
no_ladder(struct pd_arena *a, const struct pd_diff_index *x,
    const struct pd_host *h, const char *side)
{
	const struct pd_diff_item *it;

	if (!h)
		return pd_arena_printf(a, "the host is not in %s", side);
	if (pd_diff_index_find(x, h, PD_DIFF_LADDER_GAP, &it)) {
		const struct pd_ladder_gap *g = it->item;

		return pd_arena_printf(a, "%s has no path to model: %s", side,
		    g->needs);
	}
	return pd_arena_printf(a, "%s shows no NIC of the host's own and no "
	    "benchmark output", side);
}

static void
throughput(struct pd_diff_host *dh, const struct pd_diff_index *rb,
    const struct pd_diff_index *ra, struct pd_arena *a)
{
	const struct pd_ladder *lb = dh->ladder_before, *la = dh->ladder_after;

	if (!lb && !la && dh->before && dh->before->guest_why) {
		dh->tp_why = pd_arena_printf(a, "%s; its traffic counts on the "
		    "host that carries it", dh->before->guest_why);
		return;
	}
	if (!lb || !la || lb->observed <= 0 || la->observed <= 0) {
		dh->tp_why = !lb ? no_ladder(a, rb, dh->before, "BEFORE") :
		    no_ladder(a, ra, dh->after, "AFTER");
		return;
	}
	dh->tp_known = true;
	dh->tp_before = lb->observed;
	dh->tp_after = la->observed;
	dh->tp_change = pd_gain_tenths(la->observed / lb->observed);
	if (strcmp(lb->observed_source, la->observed_source) == 0) {
		dh->tp_source = lb->observed_source;
		return;
	}
	dh->tp_source = pd_arena_printf(a, "%s -> %s", lb->observed_source,
	    la->observed_source);
	dh->tp_why = pd_arena_printf(a, "the sources differ: BEFORE's is %s "
	    "(%s), AFTER's %s (%s), the first each bundle has of benchmark "
	    "output, NIC counters, captures; compared as they are",
	    lb->observed_source, lb->observed_what, la->observed_source,
	    la->observed_what);
}

/* The fixes BEFORE's ladder had a step for that AFTER no longer needs. */
static unsigned
made_fixes(struct pd_diff_host *dh, const struct pd_finding **made,
    struct pd_arena *a)
{
	struct pd_diff_realised **tail = &dh->realised;
	unsigned n = 0;

	dh->n_ladder_fixes = dh->ladder_before ? dh->ladder_before->n_steps : 0;
	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next) {
		const struct pd_finding *f = df->before;

		if (df->state != PD_DIFF_RESOLVED || df->unverified ||
		    !f->ladder_step || n >= PD_LADDER_STEPS)
			continue;
		made[n++] = f;
		*tail = pd_arena_alloc(a, sizeof(**tail));
		(*tail)->finding = f;
		(*tail)->step = f->ladder_step;
		(*tail)->pred_lo = f->gain_lo;
		(*tail)->pred_hi = f->gain_hi;
		tail = &(*tail)->next;
	}
	dh->n_ladder_made = n;
	return n;
}

static const char *
steps_text(struct pd_arena *a, const struct pd_finding **made, unsigned n,
    const struct pd_ladder_prediction *p)
{
	if (p->from_steps)
		return p->last_step == 1 ? "step 1" : pd_arena_printf(a,
		    "steps 1-%u", p->last_step);
	const char *s = "";

	for (unsigned i = 0; i < n; i++)
		s = pd_arena_printf(a, "%s%s%u", s, i ? (i + 1 == n ? " and " :
		    ", ") : "", made[i]->ladder_step);
	return pd_arena_printf(a, "step%s %s alone (the model evaluated with "
	    "only %s made)", n == 1 ? "" : "s", s, n == 1 ? "that fix" :
	    "those fixes");
}

/* What held the throughput below the prediction: AFTER's bottleneck,
 * and its new findings. */
static const char *
below_why(struct pd_diff_host *dh, struct pd_arena *a)
{
	const char *s = dh->ladder_after ? pd_arena_printf(a, "the next "
	    "bottleneck was %s", dh->ladder_after->bottleneck) : "the next "
	    "bottleneck is not known (AFTER has no ladder)";

	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next)
		if (df->state == PD_DIFF_NEW)
			s = pd_arena_printf(a, "%s; new in AFTER: %s on %s", s,
			    df->after->rule->id, df->after->subject);
	return s;
}

static void
predict(struct pd_diff_host *dh, struct pd_arena *a)
{
	const struct pd_finding *made[PD_LADDER_STEPS];
	unsigned n = made_fixes(dh, made, a);
	struct pd_ladder_prediction p;

	if (!n || !pd_ladder_predict(dh->ladder_before, made, n, &p))
		return;
	dh->pred_known = true;
	dh->pred_lo = p.lo;
	dh->pred_exp = p.expected;
	dh->pred_hi = isfinite(p.hi) ? p.hi : p.expected;
	dh->pred_steps = steps_text(a, made, n, &p);
	dh->pred_binds = p.binds;
	if (!dh->tp_known)
		return;
	dh->verdict = pd_diff_judge(dh->tp_after, dh->pred_lo, dh->pred_hi);
	if (dh->verdict == PD_VERDICT_BELOW)
		dh->verdict_why = below_why(dh, a);
	else if (dh->verdict == PD_VERDICT_ABOVE)
		dh->verdict_why = pd_arena_printf(a, "above the prediction's high "
		    "end by more than the %.0f %% noise: the model was "
		    "conservative, or more changed than these fixes (see the "
		    "changes)", 100 * PD_DIFF_NOISE);
	for (struct pd_diff_realised *r = dh->realised; r; r = r->next) {
		r->judged = true;
		r->realised = dh->tp_change;
		r->verdict = dh->verdict;
		r->n_together = n;
	}
}

static void
regression(struct pd_diff_host *dh, struct pd_arena *a)
{
	const char *s = NULL;

	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next)
		if (df->state == PD_DIFF_NEW)
			s = pd_arena_printf(a, "%s%snew finding %s on %s", s ? s : "",
			    s ? "; " : "", df->after->rule->id, df->after->subject);
	if (dh->tp_known && dh->tp_after < dh->tp_before * (1 - PD_DIFF_NOISE))
		s = pd_arena_printf(a, "%s%sthroughput fell %s -> %s, more than "
		    "the %.0f %% noise", s ? s : "", s ? "; " : "",
		    pd_diff_rate(a, dh, dh->tp_before),
		    pd_diff_rate(a, dh, dh->tp_after), 100 * PD_DIFF_NOISE);
	dh->regression = s != NULL;
	dh->regression_why = s;
}

void
pd_diff_realised(struct pd_diff_host *dh, const struct pd_diff_index *rb,
    const struct pd_diff_index *ra, struct pd_arena *a)
{
	dh->ladder_before = ladder_of(rb, dh->before);
	dh->ladder_after = ladder_of(ra, dh->after);
	throughput(dh, rb, ra, a);
	if (dh->ladder_before)
		predict(dh, a);
	regression(dh, a);
}

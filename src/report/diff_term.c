/* pathdoctor diff for a terminal: the verdict, then per host the
 * throughput, the findings by state and the changes, as plain lines. */
#include <string.h>
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diff.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/chart.h"
#include "report/escape.h"
#include "report/wrap.h"

#define T(s) pd_term_text(a, (s))

/* The columns to lay out for: --width, the terminal's, else 80. */
static unsigned width = PD_WIDTH_DEFAULT;

/* indent spaces, then text wrapped under itself from column at, or under
 * indent + 2 where what precedes it is more than half the line. */
static void
line(FILE *out, unsigned indent, unsigned at, const char *text)
{
	fprintf(out, "%*s", (int)indent, "");
	pd_wrap_text(out, width, indent, at <= width / 2 ? at : indent + 2,
	    text);
}

static void
finding(FILE *out, struct pd_arena *a, const struct pd_diff_finding *df)
{
	const struct pd_finding *f = df->before ? df->before : df->after;
	char gb[64], ga[64];

	line(out, 2, 13, pd_arena_printf(a, "%-10s %s on %s",
	    pd_diff_state_name(df->state), f->rule->id, T(f->subject)));
	if (df->before)
		pd_fmt_gain(gb, sizeof(gb), df->before->gain_lo,
		    df->before->gain_hi);
	if (df->after)
		pd_fmt_gain(ga, sizeof(ga), df->after->gain_lo,
		    df->after->gain_hi);
	fprintf(out, "             gain: %s%s%s\n", df->before ? gb : "",
	    df->before && df->after ? " -> " : "", df->after ? ga : "");
	if (df->unverified)
		line(out, 13, 27, pd_arena_printf(a, "not verified: %s",
		    T(df->unverified)));
	if (df->why)
		line(out, 13, 13 + 2 + (df->state == PD_DIFF_PERSISTING ? 3 :
		    7), pd_arena_printf(a, "%s: %s", df->state ==
		    PD_DIFF_PERSISTING ? "why" : "changed", T(df->why)));
	for (int side = 0; side < 2; side++) {
		const struct pd_finding *g = side ? df->after : df->before;

		for (unsigned k = 0; g && k < g->n_ev; k++)
			line(out, 13, 20, pd_arena_printf(a, "%s %s:%u: %s",
			    side ? "after " : "before", T(g->ev[k].member),
			    g->ev[k].line, T(g->ev[k].text)));
	}
}

/* The throughput both sides, the prediction, a regression. */
static void
throughput(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	fprintf(out, "\n");
	if (dh->tp_known)
		line(out, 2, 4, pd_arena_printf(a, "throughput (%s): %s -> %s "
		    "(%+.1f %%)", T(dh->tp_source), pd_diff_rate(a, dh,
		    dh->tp_before), pd_diff_rate(a, dh, dh->tp_after),
		    dh->tp_change / 10.0));
	else
		line(out, 2, 4, pd_arena_printf(a, "throughput not compared: "
		    "%s", T(dh->tp_why)));
	if (dh->pred_known)
		line(out, 2, 4, pd_arena_printf(a, "predicted after %s: %s "
		    "(expected %s): %s", T(dh->pred_steps), pd_diff_range(a, dh,
		    dh->pred_lo, dh->pred_hi), pd_diff_rate(a, dh,
		    dh->pred_exp), dh->tp_known ?
		    pd_diff_verdict_name(dh->verdict) : "not judged"));
	if (dh->regression)
		line(out, 2, 14, pd_arena_printf(a, "regression: %s",
		    T(dh->regression_why)));
}

static void
host(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	const struct pd_host *h = dh->after ? dh->after : dh->before;

	fprintf(out, "\n");
	line(out, 0, 5, pd_arena_printf(a, "Host %s (matched by %s)",
	    T(h->name), T(dh->match_how)));
	if (!dh->before || !dh->after)
		return;
	throughput(out, a, dh);
	fprintf(out, "\n  findings: %u resolved, %u persisting, %u new\n",
	    dh->n_resolved, dh->n_persisting, dh->n_new);
	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next)
		finding(out, a, df);
	fprintf(out, "\n  changes: %u\n", dh->n_changes);
	for (const struct pd_diff_change *c = dh->changes; c; c = c->next)
		line(out, 2, 15, pd_arena_printf(a, "%-12s %s: %s -> %s",
		    c->what, T(c->subject), c->before ? T(c->before) :
		    "(absent)", c->after ? T(c->after) : "(absent)"));
	if (dh->not_compared)
		line(out, 2, 4, pd_arena_printf(a, "not compared (past "
		    "pathdoctor's bounds): %s", T(dh->not_compared)));
	for (const struct pd_diff_capture *c = dh->captures; c; c = c->next) {
		fprintf(out, "\n");
		line(out, 2, 4, pd_arena_printf(a, "payload sizes on %s, "
		    "before and after:", T(c->ifname)));
		if (c->before->filter)
			line(out, 2, 4, pd_arena_printf(a, "filter '%s': "
			    "BEFORE %s; AFTER %s", T(c->before->filter),
			    pd_capture_filter_counts(a, c->before),
			    pd_capture_filter_counts(a, c->after)));
		const char *chart = pd_chart_data_pair(a, "BEFORE",
		    c->before->sizes.top, c->before->sizes.n, "AFTER",
		    c->after->sizes.top, c->after->sizes.n, 8);

		for (const char *p = chart; *p;) {
			size_t n = strcspn(p, "\n");

			fprintf(out, "  %s\n", T(pd_arena_strndup(a, p, n)));
			p += n + (p[n] == '\n');
		}
	}
}

static int
render(const struct pd_diff *d, FILE *out)
{
	struct pd_arena *a = d->arena;

	width = d->after->width ? d->after->width : PD_WIDTH_DEFAULT;
	fprintf(out, "pathdoctor diff\n");
	line(out, 2, 9, pd_arena_printf(a, "BEFORE %s", T(d->before->bundle)));
	line(out, 2, 9, pd_arena_printf(a, "AFTER  %s", T(d->after->bundle)));
	fprintf(out, "\n");
	line(out, 0, 0, T(d->summary));
	for (const struct pd_diff_host *dh = d->hosts; dh; dh = dh->next)
		host(out, a, dh);
	return ferror(out) ? -1 : 0;
}

const struct pd_diff_renderer pd_diff_render_term = { "term", render };

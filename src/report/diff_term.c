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

#define T(s) pd_term_text(a, (s))

static void
finding(FILE *out, struct pd_arena *a, const struct pd_diff_finding *df)
{
	const struct pd_finding *f = df->before ? df->before : df->after;
	char gb[64], ga[64];

	fprintf(out, "  %-10s %s on %s\n", pd_diff_state_name(df->state),
	    f->rule->id, T(f->subject));
	if (df->before)
		pd_fmt_gain(gb, sizeof(gb), df->before->gain_lo,
		    df->before->gain_hi);
	if (df->after)
		pd_fmt_gain(ga, sizeof(ga), df->after->gain_lo,
		    df->after->gain_hi);
	fprintf(out, "             gain: %s%s%s\n", df->before ? gb : "",
	    df->before && df->after ? " -> " : "", df->after ? ga : "");
	if (df->unverified)
		fprintf(out, "             not verified: %s\n", T(df->unverified));
	if (df->why)
		fprintf(out, "             %s: %s\n", df->state ==
		    PD_DIFF_PERSISTING ? "why" : "changed", T(df->why));
	for (int side = 0; side < 2; side++) {
		const struct pd_finding *g = side ? df->after : df->before;

		for (unsigned k = 0; g && k < g->n_ev; k++)
			fprintf(out, "             %s %s:%u: %s\n", side ? "after " :
			    "before", T(g->ev[k].member), g->ev[k].line,
			    T(g->ev[k].text));
	}
}

static void
host(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	const struct pd_host *h = dh->after ? dh->after : dh->before;

	fprintf(out, "\nHost %s (matched by %s)\n", T(h->name),
	    T(dh->match_how));
	if (!dh->before || !dh->after)
		return;
	if (dh->tp_known)
		fprintf(out, "\n  throughput (%s): %s -> %s (%+.1f %%)\n",
		    T(dh->tp_source), pd_diff_rate(a, dh, dh->tp_before),
		    pd_diff_rate(a, dh, dh->tp_after), dh->tp_change / 10.0);
	else
		fprintf(out, "\n  throughput not compared: %s\n", T(dh->tp_why));
	if (dh->pred_known)
		fprintf(out, "  predicted after %s: %s (expected %s): %s\n",
		    T(dh->pred_steps), pd_diff_range(a, dh, dh->pred_lo,
		    dh->pred_hi), pd_diff_rate(a, dh, dh->pred_exp),
		    dh->tp_known ? pd_diff_verdict_name(dh->verdict) :
		    "not judged");
	if (dh->regression)
		fprintf(out, "  regression: %s\n", T(dh->regression_why));
	fprintf(out, "\n  findings: %u resolved, %u persisting, %u new\n",
	    dh->n_resolved, dh->n_persisting, dh->n_new);
	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next)
		finding(out, a, df);
	fprintf(out, "\n  changes: %u\n", dh->n_changes);
	for (const struct pd_diff_change *c = dh->changes; c; c = c->next)
		fprintf(out, "  %-12s %s: %s -> %s\n", c->what, T(c->subject),
		    c->before ? T(c->before) : "(absent)", c->after ?
		    T(c->after) : "(absent)");
	if (dh->not_compared)
		fprintf(out, "  not compared (past pathdoctor's bounds): %s\n",
		    T(dh->not_compared));
	for (const struct pd_diff_capture *c = dh->captures; c; c = c->next) {
		fprintf(out, "\n  payload sizes on %s, before and after:\n",
		    T(c->ifname));
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

	fprintf(out, "pathdoctor diff\n  BEFORE %s\n  AFTER  %s\n\n%s\n",
	    T(d->before->bundle), T(d->after->bundle), T(d->summary));
	for (const struct pd_diff_host *dh = d->hosts; dh; dh = dh->next)
		host(out, a, dh);
	return ferror(out) ? -1 : 0;
}

const struct pd_diff_renderer pd_diff_render_term = { "term", render };

/* pathdoctor diff as Markdown: the verdict first, then per host the
 * throughput against the prediction, the findings resolved, persisting
 * and new with their evidence from both sides, what changed, and the
 * payload sizes of each captured interface before and after. */
#include <string.h>
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diff.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/chart.h"
#include "report/escape.h"

#define M(s) pd_md_text(a, (s))

static const char *
gain(struct pd_arena *a, const struct pd_finding *f)
{
	char g[64];

	pd_fmt_gain(g, sizeof(g), f->gain_lo, f->gain_hi);
	return pd_arena_strdup(a, g);
}

static void
fenced(FILE *out, struct pd_arena *a, const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(out, "%s\n", pd_md_fenced(a, pd_arena_strndup(a, p, n)));
		p += n + (p[n] == '\n');
	}
}

static void
evidence(FILE *out, struct pd_arena *a, const char *side,
    const struct pd_finding *f)
{
	if (!f || !f->n_ev)
		return;
	fprintf(out, "\n  Evidence, %s:\n\n  ```\n", side);
	for (unsigned k = 0; k < f->n_ev; k++)
		fprintf(out, "  %s\n", pd_md_fenced(a, pd_arena_printf(a,
		    "%s:%u: %s", f->ev[k].member, f->ev[k].line,
		    f->ev[k].text ? f->ev[k].text : "")));
	fprintf(out, "  ```\n");
}

static void
finding(FILE *out, struct pd_arena *a, const struct pd_diff_finding *df)
{
	const struct pd_finding *f = df->before ? df->before : df->after;

	fprintf(out, "- `%s` on %s: %s\n", f->rule->id, M(f->subject),
	    M(f->summary));
	if (df->before && df->after)
		fprintf(out, "  - Gain: BEFORE %s, AFTER %s\n", gain(a, df->before),
		    gain(a, df->after));
	else
		fprintf(out, "  - Gain %s: %s\n", df->before ? "BEFORE predicted" :
		    "expected", gain(a, f));
	if (df->unverified)
		fprintf(out, "  - Not verified: %s\n", M(df->unverified));
	if (df->why)
		fprintf(out, "  - %s: %s\n", df->state == PD_DIFF_PERSISTING ?
		    "Why it persists" : "What changed", M(df->why));
	evidence(out, a, "BEFORE", df->before);
	evidence(out, a, "AFTER", df->after);
}

static void
findings(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	static const char *const titles[] = { "Resolved", "Persisting", "New" };
	const unsigned counts[] = { dh->n_resolved, dh->n_persisting,
		dh->n_new };

	fprintf(out, "\n### Findings\n");
	for (int s = 0; s < 3; s++) {
		fprintf(out, "\n**%s (%u)**\n\n", titles[s], counts[s]);
		if (!counts[s])
			fprintf(out, "None.\n");
		for (const struct pd_diff_finding *df = dh->findings; df;
		    df = df->next)
			if ((int)df->state == s)
				finding(out, a, df);
	}
}

static void
throughput(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	fprintf(out, "\n### Throughput\n\n");
	if (!dh->tp_known) {
		fprintf(out, "Not compared: %s.\n", M(dh->tp_why));
	} else {
		fprintf(out, "| | BEFORE | AFTER | change |\n|---|---:|---:|---:|\n"
		    "| observed (%s) | %s | %s | %+.1f %% |\n", M(dh->tp_source),
		    pd_diff_rate(a, dh, dh->tp_before),
		    pd_diff_rate(a, dh, dh->tp_after), dh->tp_change / 10.0);
		if (dh->tp_why)
			fprintf(out, "\nNote: %s.\n", M(dh->tp_why));
	}
	if (!dh->pred_known) {
		fprintf(out, "\n%s.\n", !dh->ladder_before ? "BEFORE has no "
		    "ladder for this host, so nothing was predicted" :
		    dh->n_ladder_fixes ? "No fix on BEFORE's ladder was made" :
		    "BEFORE's ladder had no fix to make");
		return;
	}
	fprintf(out, "\nBEFORE's ladder predicted %s (expected %s) after "
	    "%s, %s binding then%s%s%s.\n", pd_diff_range(a, dh, dh->pred_lo,
	    dh->pred_hi), pd_diff_rate(a, dh, dh->pred_exp),
	    M(dh->pred_steps), M(dh->pred_binds), dh->tp_known ? "; realised: "
	    : "", dh->tp_known ? pd_diff_verdict_name(dh->verdict) : "",
	    dh->verdict_why ? pd_arena_printf(a, " (%s)", M(dh->verdict_why)) :
	    "");
	fprintf(out, "Within means inside the range widened by %.0f %% either "
	    "side, the run-to-run noise the published GB10 case measured.\n\n"
	    "| fix | ladder step | predicted for its step | realised | "
	    "verdict |\n|---|---:|---:|---:|---|\n", 100 * PD_DIFF_NOISE);
	for (const struct pd_diff_realised *r = dh->realised; r; r = r->next) {
		char p[64];

		pd_fmt_gain(p, sizeof(p), r->pred_lo, r->pred_hi);
		fprintf(out, "| `%s` on %s | %u | %s | %s | %s |\n",
		    r->finding->rule->id, M(r->finding->subject), r->step, p,
		    r->judged ? pd_arena_printf(a, "%+.1f %%%s", r->realised /
		    10.0, r->n_together > 1 ? pd_arena_printf(a, " (%u fixes "
		    "together)", r->n_together) : "") : "not measured",
		    r->judged ? pd_diff_verdict_name(r->verdict) : "not judged");
	}
}

static void
changes(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	fprintf(out, "\n### What changed (%u)\n\n", dh->n_changes);
	if (!dh->changes) {
		fprintf(out, "Nothing pathdoctor compares.\n");
		return;
	}
	fprintf(out, "| what | subject | BEFORE | AFTER |\n|---|---|---|---|\n");
	for (const struct pd_diff_change *c = dh->changes; c; c = c->next)
		fprintf(out, "| %s | %s | %s | %s |\n", M(c->what), M(c->subject),
		    c->before ? M(c->before) : "(absent)", c->after ?
		    M(c->after) : "(absent)");
}

static void
captures(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	for (const struct pd_diff_capture *c = dh->captures; c; c = c->next) {
		fprintf(out, "\n**Payload sizes on %s**, BEFORE (%s) and AFTER "
		    "(%s):\n\n", M(c->ifname), M(c->before->member),
		    M(c->after->member));
		if (c->before->filter)
			fprintf(out, "Filter %s: BEFORE %s; AFTER %s.\n\n",
			    pd_md_code(a, c->before->filter),
			    pd_capture_filter_counts(a, c->before),
			    pd_capture_filter_counts(a, c->after));
		fprintf(out, "```\n");
		fenced(out, a, pd_chart_data_pair(a, "BEFORE", c->before->sizes.top,
		    c->before->sizes.n, "AFTER", c->after->sizes.top,
		    c->after->sizes.n, 8));
		fprintf(out, "```\n");
	}
}

static void
host(FILE *out, struct pd_arena *a, const struct pd_diff_host *dh)
{
	const struct pd_host *h = dh->after ? dh->after : dh->before;

	fprintf(out, "\n## Host %s\n\nMatched by %s.\n", M(h->name),
	    M(dh->match_how));
	if (!dh->before || !dh->after)
		return;
	if (dh->regression)
		fprintf(out, "\n**Regression:** %s.\n", M(dh->regression_why));
	throughput(out, a, dh);
	findings(out, a, dh);
	changes(out, a, dh);
	if (dh->not_compared)
		fprintf(out, "\nNot compared (past pathdoctor's bounds): %s.\n",
		    M(dh->not_compared));
	captures(out, a, dh);
}

static int
render(const struct pd_diff *d, FILE *out)
{
	struct pd_arena *a = d->arena;

	fprintf(out, "# pathdoctor diff\n\nBEFORE: %s\nAFTER: %s\n\n"
	    "**Verdict.** %s\n", pd_md_code(a, d->before->bundle),
	    pd_md_code(a, d->after->bundle), M(d->summary));
	for (const struct pd_report *r = d->before; r;
	    r = r == d->before ? d->after : NULL)
		if (r->nothing_read)
			fprintf(out, "\n%s: %s.\n", r == d->before ? "BEFORE" :
			    "AFTER", M(r->nothing_read));
	for (const struct pd_diff_host *dh = d->hosts; dh; dh = dh->next)
		host(out, a, dh);
	return ferror(out) ? -1 : 0;
}

const struct pd_diff_renderer pd_diff_render_md = { "md", render };

/* pathdoctor diff, built once: hosts paired, then per pair the changes
 * (every change kind in order), the findings sorted, the throughput
 * judged, and the verdict paragraph that opens the report. */
#include <string.h>
#include "diff/diff.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/escape.h"

const char *
pd_diff_match_name(enum pd_diff_match m)
{
	static const char *const names[] = { "host name", "hardware",
		"position", "before only", "after only" };

	return names[m];
}

const char *
pd_diff_state_name(enum pd_diff_state s)
{
	static const char *const names[] = { "resolved", "persisting", "new" };

	return names[s];
}

static const char *
host_name(const struct pd_diff_host *dh)
{
	const struct pd_host *h = dh->after ? dh->after : dh->before;

	return h->name ? h->name : "(unnamed)";
}

/* "reads", "writes" for a storage benchmark; else "throughput". */
static const char *
what_moves(const struct pd_diff_host *dh)
{
	const struct pd_ladder *l = dh->ladder_before;
	const char *s = l ? l->observed_source : "";
	bool storage = strcmp(s, "fio") == 0 || strcmp(s, "spdk_nvme_perf") == 0;

	if (!storage)
		return "throughput";
	return l->dir == PD_LADDER_RECEIVE ? "reads" : "writes";
}

static const char *
gain_text(struct pd_arena *a, const struct pd_finding *f)
{
	char g[64];

	pd_fmt_gain(g, sizeof(g), f->gain_lo, f->gain_hi);
	return pd_arena_strdup(a, g);
}

/* What is left to fix: persisting and new findings with their gains. */
static const char *
remaining(struct pd_arena *a, const struct pd_diff_host *dh)
{
	const char *s = NULL;

	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next) {
		const struct pd_finding *f = df->after;

		if (!f)
			continue;
		s = pd_arena_printf(a, "%s%s%s on %s (%s%s%s)", s ? s : "",
		    s ? "; " : "", f->rule->id, f->subject, gain_text(a, f),
		    df->state == PD_DIFF_NEW ? ", new" : ", persisting",
		    df->reason && df->before->lever.kind != PD_LEVER_NONE ?
		    pd_arena_printf(a, ": %s", df->reason) : "");
	}
	return s ? s : "nothing pathdoctor found";
}

static const char *
applied(struct pd_arena *a, const struct pd_diff_host *dh)
{
	unsigned made = 0, all = 0, unverified = 0;
	const char *names = NULL;

	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next) {
		if (!df->before)
			continue;
		all++;
		unverified += df->state == PD_DIFF_RESOLVED && df->unverified;
		if (df->state == PD_DIFF_RESOLVED && !df->unverified) {
			made++;
			names = pd_arena_printf(a, "%s%s%s", names ? names : "",
			    names ? ", " : "", df->before->rule->id);
		}
	}
	if (!all)
		return "no finding in BEFORE";
	return pd_arena_printf(a, "%u of %u fix%s applied%s%s%s%s", made, all,
	    all == 1 ? "" : "es", names ? " (" : "", names ? names : "",
	    names ? ")" : "", unverified ? pd_arena_printf(a, ", %u gone but "
	    "not verified (AFTER cannot show them)", unverified) : "");
}

static const char *
judged(struct pd_arena *a, const struct pd_diff_host *dh)
{
	if (!dh->pred_known)
		return "";
	const char *range = pd_diff_range(a, dh, dh->pred_lo, dh->pred_hi);

	if (!dh->tp_known)
		return pd_arena_printf(a, ", predicted %s after %s (not judged: "
		    "%s)", range, dh->pred_steps, dh->tp_why);
	return pd_arena_printf(a, ", predicted %s after %s: %s%s%s", range,
	    dh->pred_steps, pd_diff_verdict_name(dh->verdict),
	    dh->verdict_why ? ": " : "", dh->verdict_why ? dh->verdict_why :
	    "");
}

static void
summary(struct pd_diff_host *dh, struct pd_arena *a)
{
	if (!dh->before || !dh->after) {
		dh->summary = pd_arena_printf(a, "%s: %s.", host_name(dh),
		    dh->match_how);
		return;
	}
	const char *tp = dh->tp_known ? pd_arena_printf(a, "; %s %s -> %s "
	    "(%+.1f %%)", what_moves(dh), pd_diff_rate(a, dh, dh->tp_before),
	    pd_diff_rate(a, dh, dh->tp_after), dh->tp_change / 10.0) :
	    pd_arena_printf(a, "; throughput not compared (%s)", dh->tp_why ?
	    dh->tp_why : "no ladder on either side");

	dh->summary = pd_arena_printf(a, "%s: %s%s%s; remaining: %s.%s",
	    host_name(dh), applied(a, dh), tp, judged(a, dh), remaining(a, dh),
	    dh->regression ? pd_arena_printf(a, " Regression: %s.",
	    dh->regression_why) : "");
}

/* The hosts' paragraphs, one after the other, in one pass (a fleet's
 * thousands of hosts must not be appended one by one). */
static const char *
joined(struct pd_arena *a, const struct pd_diff_host *hosts)
{
	size_t len = 0;

	for (const struct pd_diff_host *dh = hosts; dh; dh = dh->next)
		len += strlen(dh->summary) + 1;
	if (!len)
		return "Neither bundle has a host pathdoctor read.";
	char *s = pd_arena_alloc(a, len), *p = s;

	for (const struct pd_diff_host *dh = hosts; dh; dh = dh->next) {
		size_t n = strlen(dh->summary);

		if (p != s)
			*p++ = ' ';
		memcpy(p, dh->summary, n);
		p += n;
	}
	*p = '\0';
	return s;
}

void
pd_diff_build(struct pd_diff *d, const struct pd_report *rb,
    const struct pd_report *ra, struct pd_arena *a)
{
	struct pd_diff_index xb, xa;

	*d = (struct pd_diff){ .before = rb, .after = ra, .arena = a };
	d->hosts = pd_diff_match_hosts(rb->model, ra->model, a);
	pd_diff_index_build(&xb, rb, a);
	pd_diff_index_build(&xa, ra, a);
	for (struct pd_diff_host *dh = d->hosts; dh; dh = dh->next) {
		d->n_hosts++;
		if (dh->before && dh->after) {
			struct pd_changes c = { a, dh, &dh->changes };

			for (unsigned k = 0; k < pd_n_change_kinds; k++)
				pd_change_kinds[k].find(&c, dh->before, dh->after);
		}
		pd_diff_findings(dh, &xb, &xa, a);
		pd_diff_realised(dh, &xb, &xa, a);
		summary(dh, a);
		d->regression = d->regression || dh->regression;
	}
	d->summary = joined(a, d->hosts);
}

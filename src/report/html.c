/* HTML report: one self-contained page to attach to a ticket or open
 * from disk.  No script and no request of any kind (the page's own
 * Content-Security-Policy forbids them), so it reads the same offline,
 * in a mail client's sandbox and on paper. */
#include <string.h>
#include "base/version.h"
#include "bundle/bundle.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/escape.h"
#include "report/html.h"
#include "report/ladder_rows.h"

static void
head(struct pd_html *h, const char *name)
{
	fprintf(h->out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\""
	    "default-src 'none'; style-src 'unsafe-inline'\">\n"
	    "<meta name=\"generator\" content=\"pathdoctor %s\">\n"
	    "<title>pathdoctor: %s</title>\n<style>\n%s</style>\n</head>\n",
	    PD_VERSION, H(name), pd_html_css);
}

static const char *
plural(unsigned n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void
masthead(struct pd_html *h, const char *name)
{
	const struct pd_report *r = h->r;
	unsigned nh = r->model->n_hosts;

	fprintf(h->out, "<header class=\"masthead\">\n<p class=\"kicker\">"
	    "pathdoctor report</p>\n<h1>%s</h1>\n<p class=\"meta\">", H(name));
	fprintf(h->out, "<span>%zu %s</span>", r->findings->n,
	    plural((unsigned)r->findings->n, "finding", "findings"));
	fprintf(h->out, "<span>%u %s not evaluated</span>", r->n_not_evaluated,
	    plural(r->n_not_evaluated, "rule", "rules"));
	fprintf(h->out, "<span>%u %s</span>", r->coverage->n_members,
	    plural(r->coverage->n_members, "member", "members"));
	fprintf(h->out, "<span>%u %s:", nh, plural(nh, "host", "hosts"));
	for (const struct pd_host *ho = r->model->hosts; ho; ho = ho->next)
		fprintf(h->out, "%s %s", ho == r->model->hosts ? "" : ",",
		    H(ho->name));
	fprintf(h->out, "</span></p>\n</header>\n");
}

/* Links within the page to the sections it has. */
static void
contents(struct pd_html *h)
{
	const struct pd_report *r = h->r;
	bool full = !r->brief && !r->nothing_read;

	fprintf(h->out, "<nav class=\"contents\">");
	if (r->findings->n)
		fprintf(h->out, "<a href=\"#summary\">Findings</a>");
	if (r->ladders || r->ladder_gaps)
		fprintf(h->out, "<a href=\"#ladder\">Path ceiling</a>");
	if (full && r->findings->n)
		fprintf(h->out, "<a href=\"#findings\">Details</a>");
	if (!r->brief && r->not_evaluated)
		fprintf(h->out, "<a href=\"#not-evaluated\">Not evaluated</a>");
	if (!r->brief)
		fprintf(h->out, "<a href=\"#members\">Members</a><a href=\""
		    "#hosts\">Hosts</a>");
	fprintf(h->out, "</nav>\n");
}

static const char *
level_class(const struct pd_finding *f)
{
	return pd_level_name(pd_finding_level(f));
}

static void
summary_table(struct pd_html *h)
{
	const struct pd_findings *fs = h->r->findings;
	bool hosts = h->r->model->n_hosts > 1;

	fprintf(h->out, "<section id=\"summary\">\n<h2>Findings</h2>\n"
	    "<table class=\"summary\">\n<thead><tr><th>#</th><th>level</th>"
	    "<th>rule</th>%s<th>subject</th><th class=\"num\">expected gain"
	    "</th><th class=\"num\">confidence</th><th>risk</th>"
	    "<th class=\"num\">ladder step</th></tr></thead>\n<tbody>\n",
	    hosts ? "<th>host</th>" : "");
	for (size_t i = 0; i < fs->n; i++) {
		const struct pd_finding *f = fs->v[i];
		char gain[64];

		pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
		fprintf(h->out, "<tr><td>%zu</td><td><span class=\"badge "
		    "level-%s\">%s</span></td><td><a href=\"#finding-%zu\">"
		    "<code>%s</code></a></td>", i + 1, level_class(f),
		    level_class(f), i + 1, H(f->rule->id));
		if (hosts)
			fprintf(h->out, "<td>%s</td>", H(f->host->name));
		fprintf(h->out, "<td>%s</td><td class=\"num\">%s</td><td "
		    "class=\"num\">%d %%</td><td>%s</td><td class=\"num\">",
		    H(f->subject), gain, f->confidence, pd_risk_name(f->risk));
		if (f->ladder_step)
			fprintf(h->out, "%u", f->ladder_step);
		else
			fprintf(h->out, "&ndash;");
		fprintf(h->out, "</td></tr>\n");
	}
	fprintf(h->out, "</tbody>\n</table>\n");
	if (h->r->n_hidden)
		fprintf(h->out, "<p class=\"hidden-note\">%u %s below "
		    "--min-level %s hidden.</p>\n", h->r->n_hidden,
		    plural(h->r->n_hidden, "finding", "findings"),
		    plural(h->r->n_hidden, "is", "are"));
	fprintf(h->out, "</section>\n");
}

/* The verdict is one paragraph today; a blank line would start another. */
static void
verdict(struct pd_html *h, const char *v)
{
	while (v && *v) {
		const char *end = strstr(v, "\n\n");
		size_t n = end ? (size_t)(end - v) : strlen(v);

		fprintf(h->out, "<p class=\"verdict\">%s</p>\n",
		    H(pd_arena_strndup(h->a, v, n)));
		v += n;
		v += strspn(v, "\n");
	}
}

static void
figure(struct pd_html *h, const char *label, const char *value,
    const char *note)
{
	fprintf(h->out, "<div class=\"figure\"><span class=\"label\">%s"
	    "</span><span class=\"value\">%s</span><span class=\"note\">%s"
	    "</span></div>\n", label, value, note);
}

/* Three numbers a reader looks for first: now, after the fixes, the
 * hardware's. */
static void
key_figures(struct pd_html *h, const struct pd_ladder *l)
{
	double share = l->ceiling > 0 ? 100 * l->observed / l->ceiling : 0;

	fprintf(h->out, "<div class=\"figures\">\n");
	figure(h, "observed", pd_rate_str(h->a, l->observed), H(pd_arena_printf(
	    h->a, "%s; %.0f %% of the ceiling", l->observed_source, share)));
	if (l->n_steps) {
		const struct pd_ladder_step *s = &l->steps[l->n_steps - 1];

		figure(h, pd_arena_printf(h->a, "after %u %s", l->n_steps,
		    plural(l->n_steps, "fix", "fixes")), pd_rate_str(h->a,
		    s->expected), pd_arena_printf(h->a, "%s .. %s",
		    pd_rate_str(h->a, s->lo), pd_rate_str(h->a, s->hi)));
	} else {
		figure(h, "after fixes", "&ndash;", "no fix on this path is "
		    "left");
	}
	figure(h, "hardware ceiling", pd_rate_str(h->a, l->ceiling),
	    H(l->ceiling_stage));
	fprintf(h->out, "</div>\n");
}

/* pd_ladder_rows: the observed row, then one per stage, then the fixes
 * and the ceiling; the stage that binds now is marked. */
static void
ladder_table(struct pd_html *h, const struct pd_ladder *l)
{
	struct pd_ladder_row rows[PD_LADDER_ROWS];
	unsigned n = pd_ladder_rows(l, h->a, rows);

	fprintf(h->out, "<details class=\"ladder-table\">\n<summary>Every "
	    "stage and fix with its "
	    "arithmetic</summary>\n<table>\n<colgroup><col "
	    "class=\"what\"><col class=\"rate\"><col class=\"binds\"><col>"
	    "</colgroup>\n<thead><tr><th>stage or fix</th><th>throughput now "
	    "/ after</th><th>bottleneck</th><th>basis</th></tr></thead>\n"
	    "<tbody>\n");
	for (unsigned i = 0; i < n; i++) {
		bool binds = i >= 1 && i <= l->n_stages &&
		    l->stages[i - 1].binds;

		fprintf(h->out, "<tr%s><td>%s</td><td>%s</td><td>%s</td><td "
		    "class=\"basis\">%s</td></tr>\n", binds ?
		    " class=\"binds\"" : "", H(rows[i].what), H(rows[i].rate),
		    H(rows[i].binds), H(rows[i].basis));
	}
	fprintf(h->out, "</tbody>\n</table>\n</details>\n");
}

static void
ladders(struct pd_html *h)
{
	const struct pd_report *r = h->r;

	if (!r->ladders && !r->ladder_gaps)
		return;
	fprintf(h->out, "<section id=\"ladder\">\n");
	for (const struct pd_ladder *l = r->ladders; l; l = l->next) {
		fprintf(h->out, "<div class=\"ladder\">\n<h2>Path ceiling: %s, "
		    "%s</h2>\n", H(l->host->name), pd_ladder_dir_name(l->dir));
		key_figures(h, l);
		verdict(h, l->verdict);
		fprintf(h->out, "<p class=\"binds-now\"><span "
		    "class=\"label\">binds now</span> "
		    "%s</p>\n", H(l->bottleneck));
		pd_html_ladder_svg(h, l);
		ladder_table(h, l);
		fprintf(h->out, "</div>\n");
	}
	for (const struct pd_ladder_gap *g = r->ladder_gaps; g; g = g->next)
		fprintf(h->out, "<p class=\"gap\">No path-ceiling ladder for "
		    "%s: needs %s.</p>\n", H(g->host->name), H(g->needs));
	fprintf(h->out, "</section>\n");
}

static void
fact(struct pd_html *h, const char *dt, const char *dd)
{
	fprintf(h->out, "<dt>%s</dt><dd>%s</dd>\n", dt, dd);
}

static void
card_facts(struct pd_html *h, const struct pd_finding *f)
{
	char gain[64];

	pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
	fprintf(h->out, "<dl class=\"facts\">\n");
	fact(h, "expected gain", pd_arena_printf(h->a, "<strong>%s</strong> "
	    "(%s)", gain, level_class(f)));
	fact(h, "confidence", pd_arena_printf(h->a, "%d %%%s%s", f->confidence,
	    f->confidence_note ? ": " : "", H(f->confidence_note)));
	fact(h, "risk", pd_arena_printf(h->a, "%s%s%s", pd_risk_name(f->risk),
	    f->risk_note ? ": " : "", H(f->risk_note)));
	fact(h, "ladder step", f->ladder_step ? pd_arena_printf(h->a,
	    "%u on %s's path", f->ladder_step, H(f->host->name)) :
	    "off the ladder: its own gain");
	fprintf(h->out, "</dl>\n");
	if (f->gain_basis)
		fprintf(h->out, "<p class=\"basis\"><span class=\"label\">basis"
		    "</span> %s</p>\n", H(f->gain_basis));
}

static void
card_fix(struct pd_html *h, const struct pd_finding *f)
{
	if (f->n_fix) {
		fprintf(h->out, "<h4 class=\"sub\">Fix</h4>\n<pre "
		    "class=\"fix\"><code>");
		for (unsigned k = 0; k < f->n_fix; k++)
			fprintf(h->out, "%s\n", H(f->fix[k]));
		fprintf(h->out, "</code></pre>\n");
	}
	if (f->verify) {
		/* the sentence, then the commands (finding.h) */
		size_t n = strcspn(f->verify, "\n");

		fprintf(h->out, "<h4 class=\"sub\">Verify</h4>\n<p>%s</p>\n",
		    H(pd_arena_strndup(h->a, f->verify, n)));
		if (f->verify[n])
			fprintf(h->out, "<pre class=\"verify\"><code>%s</code>"
			    "</pre>\n", H(f->verify + n + 1));
	}
}

static void
card_evidence(struct pd_html *h, const struct pd_finding *f)
{
	if (!f->n_ev)
		return;
	fprintf(h->out, "<details class=\"evidence\">\n<summary>Evidence (%u "
	    "%s)</summary>\n<pre>", f->n_ev, plural(f->n_ev, "line",
	    "lines"));
	for (unsigned k = 0; k < f->n_ev; k++)
		fprintf(h->out, "<span class=\"src\">%s:%u</span> %s\n",
		    H(f->ev[k].member), f->ev[k].line, H(f->ev[k].text));
	fprintf(h->out, "</pre>\n</details>\n");
}

/* Only web links: the rule table is ours, but a javascript: or file:
 * URL has no place in a page meant to be opened anywhere. */
static void
card_links(struct pd_html *h, const struct pd_finding *f)
{
	const char *const *l = f->rule->links;

	if (!l || !*l)
		return;
	fprintf(h->out, "<p class=\"links\"><span class=\"label\">"
	    "documentation</span>");
	for (; *l; l++)
		if (strncmp(*l, "https://", 8) == 0 ||
		    strncmp(*l, "http://", 7) == 0)
			fprintf(h->out, " <a href=\"%s\">%s</a>", H(*l), H(*l));
	fprintf(h->out, "</p>\n");
}

static void
card(struct pd_html *h, size_t i, const struct pd_finding *f)
{
	fprintf(h->out, "<article class=\"finding level-%s\" "
	    "id=\"finding-%zu\">\n<header>\n<span "
	    "class=\"rank\">%zu</span>\n<span class=\"badge "
	    "level-%s\">%s</span>\n<h3><code class=\"rule\">%s</code> %s</h3>"
	    "\n", level_class(f), i + 1, i + 1, level_class(f), level_class(f),
	    H(f->rule->id), H(f->rule->title));
	fprintf(h->out, "<p class=\"where\"><span class=\"label\">host</span> "
	    "%s <span class=\"label\">subject</span> <code>%s</code></p>\n"
	    "</header>\n", H(f->host->name), H(f->subject));
	fprintf(h->out, "<p class=\"summary\">%s</p>\n", H(f->summary));
	pd_html_chart(h, f->chart);
	card_facts(h, f);
	card_fix(h, f);
	card_evidence(h, f);
	card_links(h, f);
	fprintf(h->out, "</article>\n");
}

static void
findings(struct pd_html *h)
{
	const struct pd_findings *fs = h->r->findings;

	if (!fs->n)
		return;
	fprintf(h->out, "<section id=\"findings\">\n<h2>Findings in detail"
	    "</h2>\n");
	for (size_t i = 0; i < fs->n; i++)
		card(h, i, fs->v[i]);
	fprintf(h->out, "</section>\n");
}

static void
body(struct pd_html *h)
{
	const struct pd_report *r = h->r;

	if (r->nothing_read) {
		fprintf(h->out, "<section id=\"summary\">\n<p "
		    "class=\"nothing\"><strong>Nothing read:</strong> "
		    "%s.</p>\n</section>\n",
		    H(r->nothing_read));
	} else if (r->findings->n == 0) {
		fprintf(h->out, "<section id=\"summary\">\n<p "
		    "class=\"none\">No findings.</p>\n");
		if (r->n_hidden)
			fprintf(h->out, "<p class=\"hidden-note\">%u %s below "
			    "--min-level %s hidden.</p>\n", r->n_hidden,
			    plural(r->n_hidden, "finding", "findings"),
			    plural(r->n_hidden, "is", "are"));
		fprintf(h->out, "</section>\n");
		ladders(h);
	} else {
		summary_table(h);
		ladders(h);
		if (!r->brief)
			findings(h);
	}
	if (r->brief)
		return;
	pd_html_not_evaluated(h);
	pd_html_members(h);
	pd_html_hosts(h);
}

static int
render_html(const struct pd_report *r, FILE *out)
{
	struct pd_html h = { .out = out, .a = pd_model_arena(r->model),
		.r = r };
	const char *name = pd_base_name(h.a, r->bundle ? r->bundle : "-");

	head(&h, name);
	fprintf(out, "<body>\n<main>\n");
	masthead(&h, name);
	contents(&h);
	body(&h);
	fprintf(out, "<footer>pathdoctor %s</footer>\n</main>\n</body>\n"
	    "</html>\n", PD_VERSION);
	return ferror(out) ? -1 : 0;
}

const struct pd_renderer pd_render_html = { .name = "html",
	.render = render_html };

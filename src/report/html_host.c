/* The HTML report after the findings: rules not evaluated or not
 * applicable, members not used, the members (collapsed to what needs a
 * look), and each host with its cards, captures and profiles. */
#include <string.h>
#include "bundle/bundle.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/cards.h"
#include "report/escape.h"
#include "report/html.h"
#include "report/workloads.h"

static void
needs(struct pd_html *h, const struct pd_not_evaluated *ne)
{
	fprintf(h->out, ": needs ");
	for (unsigned k = 0; k < ne->n_needs; k++)
		fprintf(h->out, "%s%s", k ? "; " : "", H(ne->needs[k]));
	if (ne->n_gaps) {
		fprintf(h->out, "\n<ul class=\"gaps\">\n");
		for (unsigned k = 0; k < ne->n_gaps; k++)
			fprintf(h->out, "<li>the collector could not gather "
			    "<code>%s</code>: %s</li>\n", H(ne->gaps[k]->path),
			    H(ne->gaps[k]->reason));
		fprintf(h->out, "</ul>");
	}
}

/* A run of rules with the same needs is one item, as in the text
 * outputs. */
static void
not_evaluated(struct pd_html *h)
{
	const struct pd_report *r = h->r;

	if (!r->not_evaluated)
		return;
	fprintf(h->out, "<section id=\"not-evaluated\">\n<h2>Not evaluated"
	    "</h2>\n<ul class=\"rules\">\n");
	for (const struct pd_not_evaluated *ne = r->not_evaluated; ne;
	    ne = ne->next) {
		const struct pd_not_evaluated *first = ne;

		fprintf(h->out, "<li><code>%s</code>", H(ne->rule->id));
		while (pd_same_needs(ne, ne->next)) {
			ne = ne->next;
			fprintf(h->out, ", <code>%s</code>", H(ne->rule->id));
		}
		if (r->model->n_hosts > 1)
			fprintf(h->out, " on %s", H(ne->host->name));
		needs(h, first);
		fprintf(h->out, "</li>\n");
	}
	fprintf(h->out, "</ul>\n</section>\n");
}

static void
not_applicable(struct pd_html *h)
{
	const struct pd_host *host = NULL;

	for (const struct pd_not_evaluated *n = h->r->not_applicable; n;
	    n = n->next) {
		if (n->host != host)
			fprintf(h->out, "%s<li>on %s (%s): ", host ? "</li>\n" :
			    "<section id=\"not-applicable\">\n<h2>Not "
			    "applicable</h2>\n<ul "
			    "class=\"rules\">\n", H(n->host->name),
			    H(n->inapplicable));
		else
			fprintf(h->out, ", ");
		fprintf(h->out, "<code>%s</code>", H(n->rule->id));
		host = n->host;
	}
	if (host)
		fprintf(h->out, "</li>\n</ul>\n</section>\n");
}

static void
unused(struct pd_html *h)
{
	const struct pd_report *r = h->r;

	if (!r->unused)
		return;
	fprintf(h->out, "<section id=\"unused\">\n<h2>Members not used</h2>\n"
	    "<ul class=\"rules\">\n");
	for (const struct pd_unused_view *v = r->unused; v; v = v->next) {
		fprintf(h->out, "<li><code>%s</code> (%s", H(v->u->member),
		    H(v->u->format));
		if (r->model->n_hosts > 1)
			fprintf(h->out, ", host %s", H(v->host->name));
		fprintf(h->out, "): %s", H(v->u->reason));
		if (*v->rules)
			fprintf(h->out, ". Rules that would use it: %s",
			    H(v->rules));
		fprintf(h->out, "</li>\n");
	}
	fprintf(h->out, "</ul>\n</section>\n");
}

void
pd_html_not_evaluated(struct pd_html *h)
{
	not_evaluated(h);
	not_applicable(h);
	unused(h);
}

static bool
needs_a_look(const struct pd_member_result *mr)
{
	return mr->diag.worst != PD_OK || strcmp(mr->format, "unknown") == 0;
}

static void
member_row(struct pd_html *h, const struct pd_member_result *mr)
{
	fprintf(h->out, "<tr><td><code>%s</code></td><td>%s</td><td>%s</td>"
	    "<td>", H(mr->path), H(mr->format), pd_status_name(mr->diag.worst));
	for (const struct pd_note *n = mr->diag.notes; n; n = n->next) {
		fprintf(h->out, "%s", n != mr->diag.notes ? "<br>" : "");
		if (n->line)
			fprintf(h->out, "line %u: ", n->line);
		fprintf(h->out, "%s", H(n->msg));
	}
	fprintf(h->out, "</td></tr>\n");
}

/* Most members read cleanly: one line says so, and only those with
 * notes or of no format pathdoctor reads are listed. */
void
pd_html_members(struct pd_html *h)
{
	const struct pd_coverage *cov = h->r->coverage;
	unsigned total = cov->n_members, noted = h->r->n_members_noted;
	unsigned unknown = 0, listed = 0;

	/* of no format and without notes: neither ok nor with notes */
	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next) {
		unknown += strcmp(mr->format, "unknown") == 0 &&
		    mr->diag.worst == PD_OK;
		listed += needs_a_look(mr);
	}
	fprintf(h->out, "<section id=\"members\">\n<h2>Members</h2>\n<p>%u "
	    "member%s read: %u ok, %u with notes", total, total == 1 ? "" : "s",
	    total - noted - unknown, noted);
	if (unknown)
		fprintf(h->out, ", %u of no format pathdoctor reads", unknown);
	fprintf(h->out, ".</p>\n");
	if (listed) {
		fprintf(h->out, "<details class=\"members\">\n<summary>%u "
		    "member%s to look at</summary>\n<table>\n<thead><tr><th>"
		    "member</th><th>format</th><th>status</th><th>notes</th>"
		    "</tr></thead>\n<tbody>\n", listed, listed == 1 ? "" : "s");
		for (const struct pd_member_result *mr = cov->members; mr;
		    mr = mr->next)
			if (needs_a_look(mr))
				member_row(h, mr);
		fprintf(h->out, "</tbody>\n</table>\n</details>\n");
	}
	for (const struct pd_note *n = cov->bundle.notes; n; n = n->next)
		fprintf(h->out, "<p class=\"note\">Bundle: %s</p>\n",
		    H(n->msg));
	fprintf(h->out, "</section>\n");
}

static void
host_cpus(struct pd_html *h, const struct pd_host *ho)
{
	fprintf(h->out, "<dt>CPUs</dt><dd>%u", ho->n_cpus);
	for (const struct pd_cpu_type *t = ho->cpu_types; t; t = t->next)
		fprintf(h->out, "%s%s &times;%u", t == ho->cpu_types ? " (" :
		    ", ", H(t->name), t->count);
	fprintf(h->out, "%s</dd>\n", ho->cpu_types ? ")" : "");
}

static void
host_workloads(struct pd_html *h, const struct pd_host *ho)
{
	const struct pd_workload_run *w = ho->workload_run;

	if (w)
		fprintf(h->out, "<dt>workload run</dt><dd><code>%s</code> (%s)"
		    "</dd>\n", H(w->command), w->stopped ? pd_arena_printf(h->a,
		    "stopped by --timeout after %u s", w->seconds) :
		    pd_arena_printf(h->a, "exit %d after %u s", w->exit,
		    w->seconds));
	for (const struct pd_workload *wl = ho->workloads; wl; wl = wl->next) {
		char line[256];

		pd_workload_line(line, sizeof(line), wl);
		fprintf(h->out, "<dt>workload</dt><dd>%s <span class=\"src\">%s"
		    "</span></dd>\n", H(line), H(wl->member));
	}
}

static void
host_facts(struct pd_html *h, const struct pd_host *ho)
{
	fprintf(h->out, "<dl class=\"facts\">\n<dt>architecture</dt><dd>%s%s%s"
	    "</dd>\n", pd_arch_name(ho->arch), ho->kernel_release ?
	    ", kernel " : "", H(ho->kernel_release));
	if (ho->n_cpus)
		host_cpus(h, ho);
	fprintf(h->out, "<dt>IOMMU DMA mode</dt><dd>%s <span class=\"muted\">"
	    "(%s)</span></dd>\n", pd_iommu_mode_name(ho->iommu.mode),
	    ho->iommu.reason ? H(ho->iommu.reason) : "unknown");
	if (ho->cmdline)
		fprintf(h->out, "<dt>kernel command line</dt><dd><code>%s"
		    "</code></dd>\n", H(ho->cmdline));
	fprintf(h->out, "<dt>PCI devices</dt><dd>%u</dd>\n<dt>network "
	    "interfaces</dt><dd>%u</dd>\n", ho->n_pcidevs, ho->n_netdevs);
	if (ho->collector)
		fprintf(h->out, "<dt>collected by</dt><dd>%s; %u item%s it "
		    "could not gather (manifest)</dd>\n", H(ho->collector),
		    ho->n_gaps,
		    ho->n_gaps == 1 ? "" : "s");
	host_workloads(h, ho);
	for (const struct pd_netdev *nd = ho->netdevs; nd; nd = nd->next) {
		const struct pd_kstat_rate *k = &nd->kstat_rate;

		if (k->known)
			fprintf(h->out, "<dt>kernel counters</dt><dd><code>%s"
			    "</code>: receive %.1f MB/s, send %.1f MB/s over "
			    "%.0f s</dd>\n", H(nd->name), k->rx_per_s / 1e6,
			    k->tx_per_s / 1e6, k->seconds);
	}
	for (const struct pd_model_note *n = ho->notes; n; n = n->next)
		fprintf(h->out, "<dt>note</dt><dd>%s</dd>\n", H(n->msg));
	fprintf(h->out, "</dl>\n");
}

static void
card_row(struct pd_html *h, const struct pd_pcidev *pf)
{
	struct pd_card_row r;

	pd_card_row(pf, &r);
	fprintf(h->out, "<tr><td><code>%s</code></td><td>%s</td><td>%s</td>",
	    H(r.pf), H(r.netdev), H(r.link));
	fprintf(h->out, "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s"
	    "</td></tr>\n", H(r.ceiling), H(r.port), H(r.rx), H(r.lro),
	    H(r.pause));
}

static void
cards(struct pd_html *h, const struct pd_host *ho)
{
	for (const struct pd_card *c = ho->cards; c; c = c->next) {
		fprintf(h->out, "<h4>Card: %s", c->desc ? H(c->desc) : "?");
		if (c->has_dsn)	/* through the escape, which redacts it */
			fprintf(h->out, " <span class=\"muted\">(serial "
			    "%s)</span>", H(pd_arena_printf(h->a, "%016llx",
			    (unsigned long long)c->dsn)));
		fprintf(h->out, "</h4>\n<table class=\"cards\">\n<thead><tr>"
		    "<th>PF</th><th>netdev</th><th>root port, "
		    "link</th><th>link "
		    "ceiling</th><th>port</th><th>receive</th><th>LRO</th><th>"
		    "pause</th></tr></thead>\n<tbody>\n");
		for (unsigned i = 0; i < c->n_pfs; i++)
			card_row(h, c->pfs[i]);
		fprintf(h->out, "</tbody>\n</table>\n");
	}
}

static void
capture(struct pd_html *h, const struct pd_capture *c)
{
	static const char *const sides[] = { "side unknown", "virtual",
		"physical" };

	fprintf(h->out, "<div class=\"capture-block\">\n<h4>Capture: %s "
	    "<span class=\"muted\">%s; %s%s%s%s</span></h4>\n", H(c->ifname),
	    H(c->member), sides[c->side], c->side_why ? ": " : "",
	    H(c->side_why), c->truncated ? "; cut short" : "");
	if (c->filter)
		fprintf(h->out, "<p class=\"filter\">Filter <code>%s</code>: "
		    "%s; every figure below counts only those.</p>\n",
		    H(c->filter), pd_capture_filter_counts(h->a, c));
	fprintf(h->out, "<p class=\"stats\">%s</p>\n", pd_capture_line(h->a,
	    c));
	fprintf(h->out, "<figure class=\"capture\">\n");
	pd_html_sizes_svg(h, pd_arena_printf(h->a, "%s: all TCP segments",
	    c->ifname), c->sizes.top, c->sizes.n, 12);
	fprintf(h->out, "<figcaption>The 12 commonest payload sizes, largest "
	    "first%s</figcaption>\n</figure>\n</div>\n", c->sizes.other ?
	    pd_arena_printf(h->a, "; %llu segments of other sizes",
	    (unsigned long long)c->sizes.other) : "");
}

static double
share(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

static void
profile(struct pd_html *h, const struct pd_profile *p)
{
	fprintf(h->out, "<div class=\"profile\">\n<h4>Profile: %s <span class="
	    "\"muted\">%s, %s, %llu samples%s%s; symbols: %s</span></h4>\n",
	    H(p->member), H(p->reader), p->event ? H(p->event) :
	    "event unknown", (unsigned long long)p->samples, p->lost ?
	    pd_arena_printf(h->a, ", %llu lost", (unsigned long long)p->lost) :
	    "", p->has_callchain ? ", call chains" : "", p->symbols ?
	    H(p->symbols) : "none");
	fprintf(h->out, "<ul class=\"groups\">\n");
	for (unsigned g = 0; g < p->n_groups; g++)
		fprintf(h->out, "<li><strong>%s</strong>: %s%.1f %% of "
		    "samples, %.1f %% of them "
		    "idle</li>\n", H(p->groups[g].name),
		    p->has_cpu ? pd_arena_printf(h->a, "%u CPUs seen, ",
		    p->groups[g].n_cpus) : "", share(p->groups[g].total,
		    p->period), share(p->groups[g].idle, p->groups[g].total));
	fprintf(h->out, "</ul>\n");
	pd_html_profile_svg(h, p);
	fprintf(h->out, "</div>\n");
}

void
pd_html_hosts(struct pd_html *h)
{
	fprintf(h->out, "<section id=\"hosts\">\n<h2>Hosts</h2>\n");
	for (const struct pd_host *ho = h->r->model->hosts; ho; ho = ho->next) {
		fprintf(h->out, "<div class=\"host\">\n<h3>%s</h3>\n",
		    H(ho->name));
		host_facts(h, ho);
		cards(h, ho);
		if (ho->captures)
			fprintf(h->out, "<div class=\"captures\">\n");
		for (const struct pd_capture *c = ho->captures; c; c = c->next)
			capture(h, c);
		if (ho->captures)
			fprintf(h->out, "</div>\n");
		for (const struct pd_profile *p = ho->profiles; p; p = p->next)
			profile(h, p);
		fprintf(h->out, "</div>\n");
	}
	fprintf(h->out, "</section>\n");
}

/* Markdown report: pastes cleanly into forum posts and tickets. */
#include <string.h>
#include "bundle/bundle.h"
#include "decode/capture.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/cards.h"
#include "report/chart.h"
#include "report/escape.h"
#include "report/ladder_rows.h"
#include "report/workloads.h"

/* Bundle-derived text outside code, where the arena a is in scope:
 * table cells, list items, headings, paragraphs (escape.h). */
#define M(s) pd_md_text(a, (s))

static void
cell(FILE *out, struct pd_arena *a, const char *s)
{
	fputs(M(s), out);
}

/* A line in a ``` block: it must not close the block early. */
static void
fenced_line(FILE *out, struct pd_arena *a, const char *s)
{
	fprintf(out, "%s\n", pd_md_fenced(a, s));
}

static void
finding(FILE *out, const struct pd_report *r, size_t i,
    const struct pd_finding *f)
{
	struct pd_arena *a = pd_model_arena(r->model);
	char gain[64];

	pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
	fprintf(out, "\n## %zu. `%s` on %s\n\n", i + 1, f->rule->id,
	    M(f->subject));
	fprintf(out, "**%s**", M(f->rule->title));
	if (r->model->n_hosts > 1)
		fprintf(out, " (host %s)", M(f->host->name));
	fprintf(out, "\n\n%s\n\n", M(f->summary));
	const char *chart = pd_chart_draw(a, f->chart);

	if (chart) {
		fprintf(out, "```\n");
		for (const char *p = chart; *p;) {
			size_t n = strcspn(p, "\n");
			char line[512];

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			fenced_line(out, a, line);
			p += n + (p[n] == '\n');
		}
		fprintf(out, "```\n\n");
	}
	fprintf(out, "- **Expected gain:** %s (%s). Basis: %s\n", gain,
	    pd_level_name(pd_finding_level(f)), M(f->gain_basis));
	if (f->ladder_step)
		fprintf(out, "- **Ladder step:** %u on %s's path\n",
		    f->ladder_step, M(f->host->name));
	fprintf(out, "- **Confidence:** %d %%%s%s\n", f->confidence,
	    f->confidence_note ? ": " : "", M(f->confidence_note));
	fprintf(out, "- **Risk:** %s: %s\n", pd_risk_name(f->risk),
	    M(f->risk_note));
	if (f->n_fix) {
		fprintf(out, "\n**Fix**\n\n```sh\n");
		for (unsigned k = 0; k < f->n_fix; k++)
			fenced_line(out, a, f->fix[k]);
		fprintf(out, "```\n");
	}
	if (f->verify)
		fprintf(out, "\n**Verify:** %s\n", pd_md_code(a, f->verify));
	if (f->n_ev) {
		fprintf(out, "\n**Evidence**\n\n```\n");
		for (unsigned k = 0; k < f->n_ev; k++) {
			char line[1024];

			snprintf(line, sizeof(line), "%s:%u: %s",
			    f->ev[k].member, f->ev[k].line, f->ev[k].text);
			fenced_line(out, a, line);
		}
		fprintf(out, "```\n");
	}
}

static void
cards(FILE *out, const struct pd_host *h, struct pd_arena *a)
{
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		fprintf(out, "\n**Card: %s**", c->desc ? M(c->desc) : "?");
		if (c->has_dsn)
			fprintf(out, " (serial %s)", M(pd_arena_printf(a,
			    "%016llx", (unsigned long long)c->dsn)));
		fprintf(out, "\n\n| PF | netdev | root port, link | link "
		    "ceiling | port | receive | LRO | pause |\n"
		    "|---|---|---|---|---|---|---|---|\n");
		for (unsigned i = 0; i < c->n_pfs; i++) {
			struct pd_card_row r;

			pd_card_row(c->pfs[i], &r);
			fprintf(out, "| %s | %s", M(r.pf), M(r.netdev));
			fprintf(out, " | %s | %s | %s | %s | %s | %s |\n",
			    M(r.link), r.ceiling, r.port, r.rx, r.lro, r.pause);
		}
	}
}

static void
captures(FILE *out, const struct pd_host *h, struct pd_arena *a)
{
	static const char *const sides[] = { "side unknown", "virtual",
		"physical" };

	for (const struct pd_capture *c = h->captures; c; c = c->next) {
		fprintf(out, "\n**Capture: %s** (%s", M(c->ifname),
		    M(c->member));
		fprintf(out, "; %s%s%s%s)\n\n", sides[c->side],
		    c->side_why ? ": " : "", M(c->side_why),
		    c->truncated ? "; cut short" : "");
		fprintf(out, "%llu packets, %llu TCP segments, %llu payload "
		    "bytes in %.3f s; %llu retransmitted, %llu lost before "
		    "the capture point (IP ID gaps), %llu stall%s over "
		    "200 ms (%.3f s in all), %llu super-packets\n\n```\n",
		    (unsigned long long)c->packets,
		    (unsigned long long)c->tcp_segments,
		    (unsigned long long)c->tcp_payload_bytes, c->duration,
		    (unsigned long long)c->retrans_segs,
		    (unsigned long long)c->unseen_segs,
		    (unsigned long long)c->n_stall_events,
		    c->n_stall_events == 1 ? "" : "s", c->stall_time,
		    (unsigned long long)c->super_segs);
		fprintf(out, "%s\n```\n", pd_chart_sizes(a, "all TCP segments",
		    c->sizes.top, c->sizes.n, NULL, NULL, 0, 8));
	}
}

#define MD_SYMBOLS 12

static double
share(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

#define MD_DSOS 8

/* Where names are missing, the self shares summed per DSO still say
 * where the time goes. */
static void
by_dso(FILE *out, const struct pd_profile *p, struct pd_arena *a)
{
	double other = 0;

	fprintf(out, "\nBy DSO (some addresses have no name):\n\n"
	    "| DSO | self |\n|---|---:|\n");
	for (unsigned k = 0; k < p->n_dsos; k++) {
		if (k >= MD_DSOS) {
			other += p->dsos[k].self;
			continue;
		}
		fprintf(out, "| ");
		cell(out, a, p->dsos[k].name);
		fprintf(out, " | %.2f %% |\n", share(p->dsos[k].self,
		    p->period));
	}
	if (other > 0)
		fprintf(out, "| others | %.2f %% |\n", share(other, p->period));
}

#define MD_TOP 6

/* "- Cortex-X925, busy samples, by self share: a 57.0 %, b 20.0 %; by
 * inclusive share: ..." */
static void
top_of_type(FILE *out, const struct pd_profile *p, unsigned g,
    struct pd_arena *a)
{
	double busy = p->groups[g].total - p->groups[g].idle;

	fprintf(out, "\n- %s, busy samples, by self share: ",
	    M(p->groups[g].name));
	for (int incl = 0; incl <= (p->has_callchain ? 1 : 0); incl++) {
		const double *w = incl ? p->sym_group_incl : p->sym_group_self;

		const unsigned *top = p->top[g][incl];
		unsigned n = p->n_top[g][incl] < MD_TOP ? p->n_top[g][incl] :
		    MD_TOP;

		if (incl)
			fprintf(out, "; by inclusive share: ");
		for (unsigned i = 0; i < n; i++) {
			cell(out, a, p->syms[top[i]].name);
			fprintf(out, " %.1f %%%s", share(w[top[i] *
			    PD_PROF_GROUPS + g], busy), i + 1 < n ? ", " : "");
		}
	}
	fprintf(out, "\n");
}

/* Top symbols by self share; per core type, the share of that type's
 * busy (not idle) samples. */
static void
profiles(FILE *out, const struct pd_host *h)
{
	struct pd_arena *a = h->model->arena;

	for (const struct pd_profile *p = h->profiles; p; p = p->next) {
		fprintf(out, "\n**Profile: %s** (%s, %s, %llu samples%s%s; "
		    "symbols: %s)\n\n", M(p->member),
		    p->reader, p->event ? M(p->event) : "event unknown",
		    (unsigned long long)p->samples,
		    p->lost ? pd_arena_printf(h->model->arena, ", %llu lost",
		    (unsigned long long)p->lost) : "",
		    p->has_callchain ? ", call chains" : "",
		    p->symbols ? M(p->symbols) : "none");
		for (unsigned g = 0; g < p->n_groups; g++)
			fprintf(out, "- %s: %s%.1f %% of samples, "
			    "%.1f %% of them idle\n", M(p->groups[g].name),
			    p->has_cpu ? pd_arena_printf(h->model->arena,
			    "%u CPUs seen, ", p->groups[g].n_cpus) : "",
			    share(p->groups[g].total,
			    p->period), share(p->groups[g].idle,
			    p->groups[g].total));
		fprintf(out, "\n| symbol | DSO | self | inclusive |");
		for (unsigned g = 0; g < p->n_groups; g++)
			fprintf(out, " %s, busy |", M(p->groups[g].name));
		fprintf(out, "\n|---|---|---:|---:|");
		for (unsigned g = 0; g < p->n_groups; g++)
			fprintf(out, "---:|");
		fprintf(out, "\n");
		for (unsigned i = 0; i < p->n_syms && i < MD_SYMBOLS; i++) {
			const struct pd_prof_sym *s = &p->syms[i];

			fprintf(out, "| %s | %s", M(s->name), M(s->dso));
			fprintf(out, " | %.2f %% | ", share(s->self, p->period));
			if (p->has_callchain)
				fprintf(out, "%.2f %% |", share(s->inclusive,
				    p->period));
			else
				fprintf(out, "- |");
			for (unsigned g = 0; g < p->n_groups; g++) {
				const struct pd_prof_group *pg = &p->groups[g];

				fprintf(out, " %.2f %% |", s->idle ? 0 :
				    share(p->sym_group_self[i * PD_PROF_GROUPS +
				    g], pg->total - pg->idle));
			}
			fprintf(out, "\n");
		}
		if (p->n_groups > 1)
			for (unsigned g = 0; g < p->n_groups; g++)
				top_of_type(out, p, g, a);
		if (p->symbols_missing || p->kernel_unnamed)
			by_dso(out, p, a);
	}
}

static void
hosts(FILE *out, const struct pd_model *m)
{
	struct pd_arena *a = pd_model_arena(m);

	fprintf(out, "\n## Hosts\n");
	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		fprintf(out, "\n### %s\n\n", M(h->name));
		fprintf(out, "- Architecture: %s", pd_arch_name(h->arch));
		if (h->kernel_release)
			fprintf(out, ", kernel %s", M(h->kernel_release));
		fprintf(out, "\n");
		if (h->n_cpus) {
			fprintf(out, "- CPUs: %u", h->n_cpus);
			for (const struct pd_cpu_type *t = h->cpu_types; t;
			    t = t->next)
				fprintf(out, "%s%s x%u", t == h->cpu_types ?
				    " (" : ", ", M(t->name), t->count);
			fprintf(out, "%s\n", h->cpu_types ? ")" : "");
		}
		fprintf(out, "- IOMMU DMA mode: %s (%s)\n",
		    pd_iommu_mode_name(h->iommu.mode),
		    h->iommu.reason ? M(h->iommu.reason) : "unknown");
		if (h->cmdline)
			fprintf(out, "- Kernel command line: %s\n",
			    pd_md_code(a, h->cmdline));
		fprintf(out, "- PCI devices: %u; network interfaces: %u\n",
		    h->n_pcidevs, h->n_netdevs);
		if (h->collector)
			fprintf(out, "- Collected by %s; %u item%s it could "
			    "not gather (manifest)\n", M(h->collector), h->n_gaps,
			    h->n_gaps == 1 ? "" : "s");
		if (h->workload_run) {
			const struct pd_workload_run *w = h->workload_run;

			fprintf(out, "- Workload the collector ran: %s",
			    M(w->command));
			if (w->stopped)
				fprintf(out, " (stopped by --timeout after %u s)\n",
				    w->seconds);
			else
				fprintf(out, " (exit %d after %u s)\n", w->exit,
				    w->seconds);
		}
		for (const struct pd_netdev *nd = h->netdevs; nd;
		    nd = nd->next) {
			const struct pd_kstat_rate *k = &nd->kstat_rate;

			if (k->known)
				fprintf(out, "- %s kernel counters: receive "
				    "%.1f MB/s, send %.1f MB/s over %.0f s\n",
				    M(nd->name), k->rx_per_s / 1e6,
				    k->tx_per_s / 1e6, k->seconds);
		}
		for (const struct pd_workload *w = h->workloads; w;
		    w = w->next) {
			char line[256];

			pd_workload_line(line, sizeof(line), w);
			fprintf(out, "- Workload (%s): %s\n", M(w->member),
			    M(line));
		}
		for (const struct pd_model_note *n = h->notes; n; n = n->next) {
			fprintf(out, "- Note: %s\n", M(n->msg));
		}
		cards(out, h, a);
		captures(out, h, pd_model_arena(m));
		profiles(out, h);
	}
}

static void
members(FILE *out, const struct pd_coverage *cov, struct pd_arena *a)
{
	fprintf(out, "\n## Members\n\n| member | format | status | notes |\n"
	    "|---|---|---|---|\n");
	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next) {
		fprintf(out, "| %s | %s | %s | ", M(mr->path), mr->format,
		    pd_status_name(mr->diag.worst));
		for (const struct pd_note *n = mr->diag.notes; n; n = n->next) {
			if (n != mr->diag.notes)
				fprintf(out, "; ");
			if (n->line)
				fprintf(out, "line %u: ", n->line);
			cell(out, a, n->msg);
		}
		fprintf(out, " |\n");
	}
	for (const struct pd_note *n = cov->bundle.notes; n; n = n->next) {
		fprintf(out, "\nBundle: %s\n", M(n->msg));
	}
}

/* The verdict first, then the ladder as a table. */
static void
ladders(FILE *out, const struct pd_report *r)
{
	struct pd_ladder_row rows[PD_LADDER_ROWS];
	struct pd_arena *a = pd_model_arena(r->model);

	for (const struct pd_ladder *l = r->ladders; l; l = l->next) {
		unsigned n = pd_ladder_rows(l, a, rows);

		fprintf(out, "\n## Path ceiling: %s, %s\n\n",
		    M(l->host->name), pd_ladder_dir_name(l->dir));
		fprintf(out, "%s\n\n| stage or fix | throughput now / after | "
		    "bottleneck | basis |\n|---|---|---|---|\n", M(l->verdict));
		for (unsigned i = 0; i < n; i++)
			fprintf(out, "| %s | %s | %s | %s |\n", M(rows[i].what),
			    rows[i].rate, M(rows[i].binds), M(rows[i].basis));
	}
	for (const struct pd_ladder_gap *g = r->ladder_gaps; g; g = g->next)
		fprintf(out, "\nNo path-ceiling ladder for %s: needs %s.\n",
		    M(g->host->name), M(g->needs));
}

/* One line per host: the rules that cannot apply to it, and why. */
static void
not_applicable(FILE *out, const struct pd_report *r)
{
	const struct pd_host *h = NULL;
	struct pd_arena *a = pd_model_arena(r->model);

	for (const struct pd_not_evaluated *n = r->not_applicable; n;
	    n = n->next) {
		if (n->host != h) {
			fprintf(out, "%s- on %s (%s): ", h ? "\n" :
			    "\n## Not applicable\n\n", M(n->host->name),
			    M(n->inapplicable));
			h = n->host;
		} else {
			fprintf(out, ", ");
		}
		fprintf(out, "`%s`", n->rule->id);
	}
	if (h)
		fprintf(out, "\n");
}

static void
unused(FILE *out, const struct pd_report *r)
{
	struct pd_arena *a = pd_model_arena(r->model);

	if (!r->unused)
		return;
	fprintf(out, "\n## Members not used\n\n");
	for (const struct pd_unused_view *v = r->unused; v; v = v->next) {
		fprintf(out, "- %s (%s", pd_md_code(a, v->u->member),
		    v->u->format);
		if (r->model->n_hosts > 1)
			fprintf(out, ", host %s", M(v->host->name));
		fprintf(out, "): %s", M(v->u->reason));
		fprintf(out, "%s%s\n", *v->rules ? ". Rules that would use it: " :
		    "", v->rules);
	}
}

static int
render_md(const struct pd_report *r, FILE *out)
{
	const struct pd_findings *fs = r->findings;
	struct pd_arena *a = pd_model_arena(r->model);

	fprintf(out, "# pathdoctor report: %s\n\n", M(r->bundle));
	if (r->nothing_read) {
		fprintf(out, "**Nothing read:** %s.\n", M(r->nothing_read));
	} else if (fs->n == 0) {
		fprintf(out, "No findings.\n");
		ladders(out, r);
	} else {
		fprintf(out, "| # | rule | subject | expected gain | confidence "
		    "| risk |\n|---|---|---|---|---|---|\n");
		for (size_t i = 0; i < fs->n; i++) {
			const struct pd_finding *f = fs->v[i];
			char gain[64];

			pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
			fprintf(out, "| %zu | `%s` | ", i + 1, f->rule->id);
			if (r->model->n_hosts > 1)
				fprintf(out, "%s: ", M(f->host->name));
			cell(out, a, f->subject);
			fprintf(out, " | %s | %d %% | %s |\n", gain,
			    f->confidence, pd_risk_name(f->risk));
		}
		ladders(out, r);
		for (size_t i = 0; i < fs->n; i++)
			finding(out, r, i, fs->v[i]);
	}
	if (r->not_evaluated) {
		fprintf(out, "\n## Not evaluated\n\n");
		for (const struct pd_not_evaluated *ne = r->not_evaluated; ne;
		    ne = ne->next) {
			fprintf(out, "- `%s`", ne->rule->id);
			while (pd_same_needs(ne, ne->next)) {
				ne = ne->next;
				fprintf(out, ", `%s`", ne->rule->id);
			}
			if (r->model->n_hosts > 1)
				fprintf(out, " on %s", M(ne->host->name));
			fprintf(out, ": needs");
			for (unsigned k = 0; k < ne->n_needs; k++)
				fprintf(out, "%s %s", k ? ";" : "",
				    M(ne->needs[k]));
			fprintf(out, "\n");
			for (unsigned k = 0; k < ne->n_gaps; k++)
				fprintf(out, "  - the collector could not "
				    "gather %s: %s\n",
				    pd_md_code(a, ne->gaps[k]->path),
				    M(ne->gaps[k]->reason));
		}
	}
	not_applicable(out, r);
	unused(out, r);
	members(out, r->coverage, a);
	hosts(out, r->model);
	return ferror(out) ? -1 : 0;
}

const struct pd_renderer pd_render_md = { .name = "md", .render = render_md };

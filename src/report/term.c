/* Terminal report: compact, coloured on a TTY unless NO_COLOR is set. */
#include <string.h>
#include "bundle/bundle.h"
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

struct style {
	const char *bold, *dim, *red, *yellow, *green, *off;
};

static const struct style plain = { "", "", "", "", "", "" };
static const struct style ansi = { "\033[1m", "\033[2m", "\033[31m",
	"\033[33m", "\033[32m", "\033[0m" };

/* Bundle-derived text, where the arena a is in scope (escape.h). */
#define T(s) pd_term_text(a, (s))

static const char *
level_colour(const struct style *s, enum pd_level l)
{
	return l == PD_LEVEL_HIGH ? s->red : l == PD_LEVEL_MEDIUM ? s->yellow :
	    s->green;
}

static void
header(FILE *out, const struct pd_report *r, const struct style *s)
{
	const struct pd_findings *fs = r->findings;
	unsigned n_ne = r->n_not_evaluated, n_warn = r->n_members_noted;
	struct pd_arena *a = pd_model_arena(r->model);

	fprintf(out, "%spathdoctor%s %s: %zu finding%s, %u rule%s not "
	    "evaluated, %u member%s (%u with notes)\n\n", s->bold, s->off,
	    T(r->bundle), fs->n, fs->n == 1 ? "" : "s", n_ne, n_ne == 1 ? "" : "s",
	    r->coverage->n_members, r->coverage->n_members == 1 ? "" : "s",
	    n_warn);
}

static void
finding(FILE *out, const struct pd_report *r, const struct style *s,
    size_t i, const struct pd_finding *f)
{
	enum pd_level l = pd_finding_level(f);
	struct pd_arena *a = pd_model_arena(r->model);
	char gain[64];

	pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
	fprintf(out, "%2zu %s%-6s%s %s%s%s  %s", i + 1,
	    level_colour(s, l), pd_level_name(l), s->off, s->bold,
	    f->rule->id, s->off, T(f->subject));
	if (r->model->n_hosts > 1)
		fprintf(out, " [%s]", T(f->host->name));
	fprintf(out, "\n   %s\n", T(f->summary));
	const char *chart = pd_chart_draw(a, f->chart);

	for (const char *p = chart; p && *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(out, "   %s%s%s\n", s->dim,
		    T(pd_arena_strndup(a, p, n)), s->off);
		p += n + (p[n] == '\n');
	}
	fprintf(out, "   %sgain%s %s  %sconfidence%s %d %%  %srisk%s "
	    "%s", s->dim, s->off, gain, s->dim, s->off,
	    f->confidence, s->dim, s->off, pd_risk_name(f->risk));
	if (f->ladder_step)
		fprintf(out, "  %sladder step%s %u", s->dim, s->off,
		    f->ladder_step);
	fprintf(out, "\n");
	for (unsigned k = 0; k < f->n_fix; k++)
		fprintf(out, "   %s$%s %s\n", s->dim, s->off, T(f->fix[k]));
	for (unsigned k = 0; k < f->n_ev; k++)
		fprintf(out, "   %s%s:%u%s %s\n", s->dim,
		    T(f->ev[k].member), f->ev[k].line, s->off,
		    T(f->ev[k].text));
	fprintf(out, "\n");
}

static void
not_evaluated(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_arena *a = pd_model_arena(r->model);

	for (const struct pd_not_evaluated *n = r->not_evaluated; n;
	    n = n->next) {
		fprintf(out, "%snot evaluated%s %s", s->dim, s->off,
		    n->rule->id);
		while (pd_same_needs(n, n->next)) {
			n = n->next;
			fprintf(out, ", %s", n->rule->id);
		}
		if (r->model->n_hosts > 1)
			fprintf(out, " [%s]", T(n->host->name));
		for (unsigned k = 0; k < n->n_needs; k++)
			fprintf(out, "%s %s", k ? ";" : ": needs",
			    T(n->needs[k]));
		for (unsigned k = 0; k < n->n_gaps; k++)
			fprintf(out, "; the collector could not gather %s: %s",
			    T(n->gaps[k]->path), T(n->gaps[k]->reason));
		fprintf(out, "\n");
	}
}

static void
notes(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_arena *a = pd_model_arena(r->model);

	for (const struct pd_member_result *m = r->coverage->members; m;
	    m = m->next)
		for (const struct pd_note *n = m->diag.notes; n; n = n->next)
			fprintf(out, "%s%s%s %s: %s\n", n->level == PD_WARN ?
			    s->yellow : s->red, pd_status_name(n->level),
			    s->off, T(m->path), T(n->msg));
	for (const struct pd_note *n = r->coverage->bundle.notes; n;
	    n = n->next)
		fprintf(out, "%sbundle%s %s\n", s->red, s->off, T(n->msg));
}

static void
cards(FILE *out, const struct pd_host *h, const struct style *s)
{
	struct pd_arena *a = h->model->arena;

	for (const struct pd_card *c = h->cards; c; c = c->next) {
		fprintf(out, "  %scard%s %s\n", s->bold, s->off,
		    c->desc ? T(c->desc) : "?");
		fprintf(out, "    %-12s %-10s %-20s %-18s %-9s %-16s "
		    "%-4s %s\n", "PF", "netdev", "root port, link",
		    "ceiling", "port", "receive", "LRO", "pause");
		for (unsigned i = 0; i < c->n_pfs; i++) {
			struct pd_card_row w;

			pd_card_row(c->pfs[i], &w);
			fprintf(out, "    %-12s %-10s %-20s %-18s %-9s "
			    "%-16s %-4s %s\n", T(w.pf), T(w.netdev), T(w.link),
			    w.ceiling, w.port, w.rx, w.lro, w.pause);
		}
	}
}

static void
host(FILE *out, const struct pd_host *h, const struct style *s)
{
	struct pd_arena *a = h->model->arena;

	fprintf(out, "%shost%s %s: %s, iommu %s, %u PCI devices, %u "
	    "interfaces\n", s->dim, s->off, T(h->name),
	    pd_arch_name(h->arch), pd_iommu_mode_name(h->iommu.mode),
	    h->n_pcidevs, h->n_netdevs);
	for (const struct pd_model_note *n = h->notes; n; n = n->next)
		fprintf(out, "  %snote%s %s\n", s->yellow, s->off, T(n->msg));
	for (const struct pd_capture *c = h->captures; c; c = c->next)
		fprintf(out, "  %scapture%s %s: %llu TCP segments, %llu "
		    "retransmitted, top payload %u B x %llu\n", s->bold,
		    s->off, T(c->ifname),
		    (unsigned long long)c->tcp_segments,
		    (unsigned long long)c->retrans_segs,
		    c->sizes.n ? c->sizes.top[0].bytes : 0,
		    (unsigned long long)(c->sizes.n ?
		    c->sizes.top[0].count : 0));
	for (const struct pd_profile *p = h->profiles; p; p = p->next)
		fprintf(out, "  %sprofile%s %s: %llu samples, hottest "
		    "%s %.1f %%\n", s->bold, s->off, T(p->member),
		    (unsigned long long)p->samples, p->n_syms ?
		    T(p->syms[0].name) : "-", p->n_syms && p->period > 0 ?
		    100 * p->syms[0].self / p->period : 0.0);
	if (h->workload_run) {
		const struct pd_workload_run *w = h->workload_run;

		fprintf(out, "  %sworkload run%s %s (", s->bold, s->off,
		    T(w->command));
		if (w->stopped)
			fprintf(out, "stopped by --timeout after %u s)\n",
			    w->seconds);
		else
			fprintf(out, "exit %d after %u s)\n", w->exit,
			    w->seconds);
	}
	for (const struct pd_workload *w = h->workloads; w; w = w->next) {
		char line[256];

		pd_workload_line(line, sizeof(line), w);
		fprintf(out, "  %sworkload%s %s: %s\n", s->bold, s->off,
		    T(w->member), T(line));
	}
	cards(out, h, s);
}

/* The verdict, then one line per stage or fix. */
static void
ladders(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_ladder_row rows[PD_LADDER_ROWS];
	struct pd_arena *a = pd_model_arena(r->model);

	for (const struct pd_ladder *l = r->ladders; l; l = l->next) {
		unsigned n = pd_ladder_rows(l, a, rows);

		fprintf(out, "%spath ceiling%s %s, %s\n   %s\n",
		    s->bold, s->off, T(l->host->name),
		    pd_ladder_dir_name(l->dir), T(l->verdict));
		for (unsigned i = 0; i < n; i++)
			fprintf(out, "   %-44s %s%s%s%s%s\n", T(rows[i].what),
			    rows[i].rate, *rows[i].binds ? "  " : "", s->dim,
			    T(rows[i].binds), s->off);
		fprintf(out, "\n");
	}
	for (const struct pd_ladder_gap *g = r->ladder_gaps; g; g = g->next)
		fprintf(out, "%sno path ceiling%s %s: needs %s\n\n", s->bold,
		    s->off, T(g->host->name), T(g->needs));
}

static int
render_term(const struct pd_report *r, FILE *out)
{
	const struct style *s = r->color ? &ansi : &plain;
	struct pd_arena *a = pd_model_arena(r->model);

	header(out, r, s);
	if (r->nothing_read)
		fprintf(out, "%snothing read%s: %s\n\n", s->red, s->off,
		    T(r->nothing_read));
	ladders(out, r, s);
	for (size_t i = 0; i < r->findings->n; i++)
		finding(out, r, s, i, r->findings->v[i]);
	not_evaluated(out, r, s);
	for (const struct pd_not_evaluated *n = r->not_applicable; n;
	    n = n->next)
		fprintf(out, "%snot applicable%s %s on %s: %s\n", s->bold,
		    s->off, n->rule->id, T(n->host->name), T(n->inapplicable));
	for (const struct pd_unused_view *v = r->unused; v; v = v->next)
		fprintf(out, "%snot used%s %s (%s): %s%s%s\n", s->bold, s->off,
		    T(v->u->member), v->u->format, T(v->u->reason), *v->rules ?
		    "; rules that would use it: " : "", v->rules);
	notes(out, r, s);
	for (const struct pd_host *h = r->model->hosts; h; h = h->next)
		host(out, h, s);
	return ferror(out) ? -1 : 0;
}

const struct pd_renderer pd_render_term = { .name = "term", .colour = true,
	.render = render_term };

/* Terminal report: compact, laid out for the terminal's width
 * (report/wrap.h), coloured when main says so (a terminal, NO_COLOR unset,
 * TERM set and not dumb). */
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
#include "report/wrap.h"

struct style {
	const char *bold, *dim, *red, *yellow, *green, *off;
};

static const struct style plain = { "", "", "", "", "", "" };
static const struct style ansi = { "\033[1m", "\033[2m", "\033[31m",
	"\033[33m", "\033[32m", "\033[0m" };

/* Bundle-derived text, where the arena a is in scope (escape.h). */
#define T(s) pd_term_text(a, (s))

static unsigned
width_of(const struct pd_report *r)
{
	return r->width ? r->width : PD_WIDTH_DEFAULT;
}

/* The hanging indent for text that starts at column col after a label:
 * col itself, unless the label takes more than half the line. */
static unsigned
hang(unsigned width, unsigned col, unsigned base)
{
	return col <= width / 2 ? col : base;
}

/* "LABEL TEXT", LABEL styled, after indent spaces; TEXT wrapped under
 * itself. */
static void
labelled(FILE *out, unsigned width, unsigned indent, const char *style,
    const char *off, const char *label, const char *text)
{
	unsigned col = indent + pd_cols(label) + 1;

	fprintf(out, "%*s%s%s%s ", (int)indent, "", style, label, off);
	pd_wrap_text(out, width, col, hang(width, col, indent + 2), text);
}

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

	labelled(out, width_of(r), 0, s->bold, s->off, "pathdoctor",
	    pd_arena_printf(a, "%s: %zu finding%s, %u rule%s not evaluated, "
	    "%u member%s (%u with notes)", T(r->bundle), fs->n, fs->n == 1 ?
	    "" : "s", n_ne, n_ne == 1 ? "" : "s", r->coverage->n_members,
	    r->coverage->n_members == 1 ? "" : "s", n_warn));
	fprintf(out, "\n");
}

/* "NN LEVEL  RULE  SUBJECT [HOST]", the subject wrapped under itself. */
static void
finding_head(FILE *out, const struct pd_report *r, const struct style *s,
    size_t i, const struct pd_finding *f)
{
	enum pd_level l = pd_finding_level(f);
	struct pd_arena *a = pd_model_arena(r->model);
	unsigned w = width_of(r);
	const char *subject = T(f->subject);
	unsigned col;

	if (r->model->n_hosts > 1)
		subject = pd_arena_printf(a, "%s [%s]", subject,
		    T(f->host->name));
	fprintf(out, "%2zu %s%-6s%s %s%s%s  ", i + 1, level_colour(s, l),
	    pd_level_name(l), s->off, s->bold, f->rule->id, s->off);
	col = 3 + 7 + pd_cols(f->rule->id) + 2;
	pd_wrap_text(out, w, col, hang(w, col, 5), subject);
}

/* Drawn to its own width, not reflowed: indented less where the usual
 * three spaces would push it past the line. */
static void
finding_chart(FILE *out, struct pd_arena *a, const struct style *s,
    const struct pd_finding *f, unsigned width)
{
	const char *chart = pd_chart_draw(a, f->chart);
	unsigned widest = 0, indent = 3;

	for (const char *p = chart; p && *p;) {
		size_t n = strcspn(p, "\n");
		unsigned k = pd_ncols(p, n);

		widest = k > widest ? k : widest;
		p += n + (p[n] == '\n');
	}
	if (widest + indent > width)
		indent = width > widest ? width - widest : 0;
	for (const char *p = chart; p && *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(out, "%*s%s%s%s\n", (int)indent, "", s->dim,
		    T(pd_arena_strndup(a, p, n)), s->off);
		p += n + (p[n] == '\n');
	}
}

static void
finding(FILE *out, const struct pd_report *r, const struct style *s,
    size_t i, const struct pd_finding *f)
{
	struct pd_arena *a = pd_model_arena(r->model);
	unsigned w = width_of(r);
	char gain[64];

	finding_head(out, r, s, i, f);
	fprintf(out, "   ");
	pd_wrap_text(out, w, 3, 3, T(f->summary));
	finding_chart(out, a, s, f, w);
	pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
	fprintf(out, "   %sgain%s %s  %sconfidence%s %d %%  %srisk%s "
	    "%s", s->dim, s->off, gain, s->dim, s->off,
	    f->confidence, s->dim, s->off, pd_risk_name(f->risk));
	if (f->ladder_step)
		fprintf(out, "  %sladder step%s %u", s->dim, s->off,
		    f->ladder_step);
	fprintf(out, "\n");
	for (unsigned k = 0; k < f->n_fix; k++) {
		fprintf(out, "   %s$%s ", s->dim, s->off);
		pd_wrap_code(out, w, 5, 5, T(f->fix[k]));
	}
	for (unsigned k = 0; k < f->n_ev; k++)
		labelled(out, w, 3, s->dim, s->off, pd_arena_printf(a,
		    "%s:%u", T(f->ev[k].member), f->ev[k].line),
		    T(f->ev[k].text));
	fprintf(out, "\n");
}

/* "RULE, RULE [HOST]: needs ...; the collector could not gather ..." */
static const char *
needs_text(struct pd_arena *a, const struct pd_report *r,
    const struct pd_not_evaluated **np)
{
	const struct pd_not_evaluated *n = *np;
	const char *t = n->rule->id;

	while (pd_same_needs(n, n->next)) {
		n = n->next;
		t = pd_arena_printf(a, "%s, %s", t, n->rule->id);
	}
	if (r->model->n_hosts > 1)
		t = pd_arena_printf(a, "%s [%s]", t, T(n->host->name));
	for (unsigned k = 0; k < n->n_needs; k++)
		t = pd_arena_printf(a, "%s%s %s", t, k ? ";" : ": needs",
		    T(n->needs[k]));
	for (unsigned k = 0; k < n->n_gaps; k++)
		t = pd_arena_printf(a, "%s; the collector could not gather "
		    "%s: %s", t, T(n->gaps[k]->path), T(n->gaps[k]->reason));
	*np = n;
	return t;
}

static void
not_evaluated(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_arena *a = pd_model_arena(r->model);

	for (const struct pd_not_evaluated *n = r->not_evaluated; n;
	    n = n->next)
		labelled(out, width_of(r), 0, s->dim, s->off, "not evaluated",
		    needs_text(a, r, &n));
}

static void
notes(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_arena *a = pd_model_arena(r->model);
	unsigned w = width_of(r);

	for (const struct pd_member_result *m = r->coverage->members; m;
	    m = m->next)
		for (const struct pd_note *n = m->diag.notes; n; n = n->next)
			labelled(out, w, 0, n->level == PD_WARN ? s->yellow :
			    s->red, s->off, pd_status_name(n->level),
			    pd_arena_printf(a, "%s: %s", T(m->path),
			    T(n->msg)));
	for (const struct pd_note *n = r->coverage->bundle.notes; n;
	    n = n->next)
		labelled(out, w, 0, s->red, s->off, "bundle", T(n->msg));
}

static void
cards(FILE *out, const struct pd_host *h, const struct style *s,
    unsigned width)
{
	static const char *const head[] = { "PF", "netdev", "root port, link",
		"ceiling", "port", "receive", "LRO", "pause" };
	struct pd_arena *a = h->model->arena;

	for (const struct pd_card *c = h->cards; c; c = c->next) {
		struct pd_table t;

		labelled(out, width, 2, s->bold, s->off, "card",
		    c->desc ? T(c->desc) : "?");
		pd_table_init(&t, a, 8, c->n_pfs + 1, 4);
		/* addresses, names and short values stay whole */
		t.keep[0] = t.keep[1] = t.keep[4] = t.keep[6] = true;
		pd_table_row(&t, head);
		for (unsigned i = 0; i < c->n_pfs; i++) {
			struct pd_card_row w;

			pd_card_row(c->pfs[i], &w);
			const char *row[] = { T(w.pf), T(w.netdev), T(w.link),
				pd_arena_strdup(a, w.ceiling),
				pd_arena_strdup(a, w.port),
				pd_arena_strdup(a, w.rx),
				pd_arena_strdup(a, w.lro),
				pd_arena_strdup(a, w.pause) };

			pd_table_row(&t, row);
		}
		pd_table_print(&t, out, width);
	}
}

static void
host_parts(FILE *out, const struct pd_host *h, const struct style *s,
    unsigned w)
{
	struct pd_arena *a = h->model->arena;

	for (const struct pd_capture *c = h->captures; c; c = c->next) {
		labelled(out, w, 2, s->bold, s->off, "capture",
		    pd_arena_printf(a, "%s: %llu TCP segments, %llu "
		    "retransmitted, top payload %u B x %llu", T(c->ifname),
		    (unsigned long long)c->tcp_segments,
		    (unsigned long long)c->retrans_segs,
		    c->sizes.n ? c->sizes.top[0].bytes : 0,
		    (unsigned long long)(c->sizes.n ?
		    c->sizes.top[0].count : 0)));
		if (c->filter)
			labelled(out, w, 2, s->bold, s->off, "filter",
			    pd_arena_printf(a, "'%s': %s; the figures count "
			    "only those", T(c->filter),
			    pd_capture_filter_counts(a, c)));
	}
	for (const struct pd_profile *p = h->profiles; p; p = p->next)
		labelled(out, w, 2, s->bold, s->off, "profile",
		    pd_arena_printf(a, "%s: %llu samples, hottest %s %.1f %%",
		    T(p->member), (unsigned long long)p->samples, p->n_syms ?
		    T(p->syms[0].name) : "-", p->n_syms && p->period > 0 ?
		    100 * p->syms[0].self / p->period : 0.0));
	if (h->workload_run) {
		const struct pd_workload_run *wr = h->workload_run;

		labelled(out, w, 2, s->bold, s->off, "workload run",
		    wr->stopped ? pd_arena_printf(a, "%s (stopped by "
		    "--timeout after %u s)", T(wr->command), wr->seconds) :
		    pd_arena_printf(a, "%s (exit %d after %u s)",
		    T(wr->command), wr->exit, wr->seconds));
	}
	for (const struct pd_workload *wl = h->workloads; wl; wl = wl->next) {
		char line[256];

		pd_workload_line(line, sizeof(line), wl);
		labelled(out, w, 2, s->bold, s->off, "workload",
		    pd_arena_printf(a, "%s: %s", T(wl->member), T(line)));
	}
}

static void
host(FILE *out, const struct pd_host *h, const struct style *s,
    unsigned w)
{
	struct pd_arena *a = h->model->arena;

	labelled(out, w, 0, s->dim, s->off, "host", pd_arena_printf(a,
	    "%s: %s, iommu %s, %u PCI devices, %u interfaces", T(h->name),
	    pd_arch_name(h->arch), pd_iommu_mode_name(h->iommu.mode),
	    h->n_pcidevs, h->n_netdevs));
	for (const struct pd_model_note *n = h->notes; n; n = n->next)
		labelled(out, w, 2, s->yellow, s->off, "note", T(n->msg));
	host_parts(out, h, s, w);
	cards(out, h, s, w);
}

/* The verdict, then one row per stage or fix: what, rate, what binds. */
static void
ladders(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_ladder_row rows[PD_LADDER_ROWS];
	struct pd_arena *a = pd_model_arena(r->model);
	unsigned w = width_of(r);

	for (const struct pd_ladder *l = r->ladders; l; l = l->next) {
		unsigned n = pd_ladder_rows(l, a, rows);
		struct pd_table t;

		labelled(out, w, 0, s->bold, s->off, "path ceiling",
		    pd_arena_printf(a, "%s, %s", T(l->host->name),
		    pd_ladder_dir_name(l->dir)));
		fprintf(out, "   ");
		pd_wrap_text(out, w, 3, 3, T(l->verdict));
		pd_table_init(&t, a, 3, n, 3);
		t.keep[1] = true;
		t.style[2] = s->dim;
		t.off = s->off;
		for (unsigned i = 0; i < n; i++) {
			const char *row[] = { T(rows[i].what), rows[i].rate,
				T(rows[i].binds) };

			pd_table_row(&t, row);
		}
		pd_table_print(&t, out, w);
		fprintf(out, "\n");
	}
	for (const struct pd_ladder_gap *g = r->ladder_gaps; g; g = g->next) {
		labelled(out, w, 0, s->bold, s->off, "no path ceiling",
		    pd_arena_printf(a, "%s: needs %s", T(g->host->name),
		    T(g->needs)));
		fprintf(out, "\n");
	}
}

static void
unused(FILE *out, const struct pd_report *r, const struct style *s)
{
	struct pd_arena *a = pd_model_arena(r->model);
	unsigned w = width_of(r);

	for (const struct pd_not_evaluated *n = r->not_applicable; n;
	    n = n->next)
		labelled(out, w, 0, s->bold, s->off, "not applicable",
		    pd_arena_printf(a, "%s on %s: %s", n->rule->id,
		    T(n->host->name), T(n->inapplicable)));
	for (const struct pd_unused_view *v = r->unused; v; v = v->next)
		labelled(out, w, 0, s->bold, s->off, "not used",
		    pd_arena_printf(a, "%s (%s): %s%s%s", T(v->u->member),
		    v->u->format, T(v->u->reason), *v->rules ?
		    "; rules that would use it: " : "", v->rules));
}

static int
render_term(const struct pd_report *r, FILE *out)
{
	const struct style *s = r->color ? &ansi : &plain;
	struct pd_arena *a = pd_model_arena(r->model);

	header(out, r, s);
	if (r->nothing_read) {
		labelled(out, width_of(r), 0, s->red, s->off, "nothing read:",
		    T(r->nothing_read));
		fprintf(out, "\n");
	}
	ladders(out, r, s);
	for (size_t i = 0; i < r->findings->n; i++)
		finding(out, r, s, i, r->findings->v[i]);
	not_evaluated(out, r, s);
	unused(out, r, s);
	notes(out, r, s);
	for (const struct pd_host *h = r->model->hosts; h; h = h->next)
		host(out, h, s, width_of(r));
	return ferror(out) ? -1 : 0;
}

const struct pd_renderer pd_render_term = { .name = "term", .colour = true,
	.render = render_term };

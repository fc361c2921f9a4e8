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
#include "report/md_wrap.h"
#include "report/workloads.h"

/* Bundle-derived text outside code, where the arena a is in scope:
 * table cells, list items, headings, paragraphs (escape.h). */
#define M(s) pd_md_text(a, (s))

static void
cell(FILE *out, struct pd_arena *a, const char *s)
{
	fputs(M(s), out);
}

/* A code span in a table cell: GitHub and Discourse split the row at
 * every | first, code span or not, and read \| as a |. */
static const char *
cell_code(struct pd_arena *a, const char *s)
{
	const char *c = pd_md_code(a, s);
	char *out = pd_arena_alloc(a, 2 * strlen(c) + 1), *o = out;

	for (; *c; c++) {
		if (*c == '|')
			*o++ = '\\';
		*o++ = *c;
	}
	*o = '\0';
	return out;
}

/* A line in a ``` block: it must not close the block early. */
static void
fenced_line(FILE *out, struct pd_arena *a, const char *s)
{
	fprintf(out, "%s\n", pd_md_fenced(a, s));
}

/* Lines of a ```sh block, each cut to the width (md_wrap.h). */
static void
sh_lines(FILE *out, struct pd_arena *a, const char *const *lines,
    unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		const char *w = pd_md_wrap_sh(a, lines[k], PD_MD_WIDTH);

		for (const char *p = w; *p;) {
			size_t len = strcspn(p, "\n");

			fenced_line(out, a, pd_arena_strndup(a, p, len));
			p += len + (p[len] == '\n');
		}
	}
}

/* The sentence of f->verify as prose, its commands as a block
 * (finding.h). */
static void
verify(FILE *out, struct pd_arena *a, const char *v)
{
	const char *cmds[PD_MAX_FIX * 2];
	unsigned n = 0;
	size_t len = strcspn(v, "\n");

	fprintf(out, "\n**Verify:** %s\n", M(pd_arena_strndup(a, v, len)));
	for (const char *p = v + len; *p == '\n' && n < PD_ARRAY_SIZE(cmds);) {
		p++;
		len = strcspn(p, "\n");
		if (len)
			cmds[n++] = pd_arena_strndup(a, p, len);
		p += len;
	}
	if (!n)
		return;
	fprintf(out, "\n```sh\n");
	sh_lines(out, a, cmds, n);
	fprintf(out, "```\n");
}

static bool
same_ev(const struct pd_evidence *x, const struct pd_evidence *y)
{
	return x->line == y->line && strcmp(x->member, y->member) == 0 &&
	    strcmp(x->text ? x->text : "", y->text ? y->text : "") == 0;
}

/* The number of the finding that already showed evidence k of finding
 * i (k of i itself: i + 1), 0 when none did. */
static size_t
shown_in(const struct pd_findings *fs, size_t i, unsigned k)
{
	const struct pd_evidence *e = &fs->v[i]->ev[k];

	for (size_t j = 0; j <= i; j++)
		for (unsigned m = 0; m < (j < i ? fs->v[j]->n_ev : k); m++)
			if (same_ev(&fs->v[j]->ev[m], e))
				return j + 1;
	return 0;
}

static void
evidence(FILE *out, const struct pd_report *r, size_t i, struct pd_arena *a)
{
	const struct pd_finding *f = r->findings->v[i];

	/* collapsed: a forum post shows the finding, a click the lines
	 * (GitHub, GitLab and Discourse render <details>) */
	fprintf(out, "\n<details><summary>Evidence (%u line%s)</summary>\n\n"
	    "```\n", f->n_ev, f->n_ev == 1 ? "" : "s");
	for (unsigned k = 0; k < f->n_ev; k++) {
		const struct pd_evidence *e = &f->ev[k];
		size_t j = shown_in(r->findings, i, k);

		if (j == i + 1)
			continue;
		fenced_line(out, a, j ? pd_arena_printf(a, "%s:%u, shown in "
		    "finding %zu", e->member, e->line, j) : pd_arena_printf(a,
		    "%s:%u: %s", e->member, e->line, e->text ? e->text : ""));
	}
	fprintf(out, "```\n\n</details>\n");
}

/* A link's destination: the bytes that would end or break it as %XX. */
static const char *
link_dest(struct pd_arena *a, const char *url)
{
	char *out = pd_arena_alloc(a, 3 * strlen(url) + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)url; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || strchr("()<>\\`", *p))
			o += sprintf(o, "%%%02X", *p);
		else
			*o++ = (char)*p;
	*o = '\0';
	return out;
}

/* "docs.kernel.org: kernel-parameters" for a page's URL: the site and
 * the page, shorter than the URL and without a scheme to autolink. */
static const char *
link_label(struct pd_arena *a, const char *url)
{
	const char *host = strstr(url, "://");

	host = host ? host + 3 : url;
	size_t hl = strcspn(host, "/?#");
	const char *path = host + hl, *end = path + strcspn(path, "?#");
	const char *page = end;

	while (page > path && page[-1] == '/')
		page--;
	end = page;
	while (page > path && page[-1] != '/')
		page--;
	size_t pl = (size_t)(end - page);

	if (pl > 5 && strncmp(end - 5, ".html", 5) == 0)
		pl -= 5;
	else if (pl > 4 && strncmp(end - 4, ".htm", 4) == 0)
		pl -= 4;
	return pl ? pd_arena_printf(a, "%.*s: %.*s", (int)hl, host, (int)pl,
	    page) : pd_arena_strndup(a, host, hl);
}

static void
docs(FILE *out, struct pd_arena *a, const struct pd_rule *rule)
{
	if (!rule->links || !rule->links[0])
		return;
	fprintf(out, "\n**Docs:** ");
	for (const char *const *l = rule->links; *l; l++)
		fprintf(out, "%s[%s](%s)", l == rule->links ? "" : ", ",
		    M(link_label(a, *l)), link_dest(a, *l));
	fprintf(out, "\n");
}

static void
chart(FILE *out, struct pd_arena *a, const struct pd_chart *c)
{
	const char *text = pd_chart_draw(a, c);

	if (!text)
		return;
	fprintf(out, "```\n");
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		fenced_line(out, a, pd_arena_strndup(a, p, n));
		p += n + (p[n] == '\n');
	}
	fprintf(out, "```\n\n");
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
	chart(out, a, f->chart);
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
		sh_lines(out, a, f->fix, f->n_fix);
		fprintf(out, "```\n");
	}
	if (f->verify)
		verify(out, a, f->verify);
	if (f->n_ev)
		evidence(out, r, i, a);
	docs(out, a, f->rule);
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
		if (c->filter)
			fprintf(out, "Filter %s: %s; every figure below "
			    "counts only those.\n\n", pd_md_code(a,
			    c->filter), pd_capture_filter_counts(a, c));
		fprintf(out, "%s\n\n```\n", pd_capture_line(a, c));
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
		const unsigned *top = p->top[g][incl];
		unsigned n = p->n_top[g][incl] < MD_TOP ? p->n_top[g][incl] :
		    MD_TOP;

		if (incl)
			fprintf(out, "; by inclusive share: ");
		for (unsigned i = 0; i < n; i++) {
			cell(out, a, p->syms[top[i]].name);
			fprintf(out, " %.1f %%%s", share(pd_prof_sym_group(p,
			    incl, top[i], g), busy), i + 1 < n ? ", " : "");
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
				    share(pd_prof_sym_group(p, false, i, g),
				    pg->total - pg->idle));
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
		/* the host's facts, cards, captures and profiles: detail a
		 * reader opens, collapsed */
		if (h != m->hosts)
			fprintf(out, "\n</details>\n");
		/* an HTML block: its text is HTML, not Markdown */
		fprintf(out, "\n<details><summary>%s: %s%s%s</summary>\n\n"
		    "### %s\n\n", pd_html_text(a, h->name),
		    pd_arch_name(h->arch), h->kernel_release ? ", kernel " : "",
		    h->kernel_release ? pd_html_text(a, h->kernel_release) : "",
		    M(h->name));
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
	if (m->hosts)
		fprintf(out, "\n</details>\n");
}

/* Listed in full: a member with notes, or of no format read. */
static bool
member_listed(const struct pd_member_result *mr)
{
	return mr->diag.worst != PD_OK || strcmp(mr->format, "unknown") == 0 ||
	    strcmp(mr->format, "skipped") == 0;
}

/* "35 members read: 34 ok, 1 with notes", then only the members that
 * are not simply ok. */
static void
members(FILE *out, const struct pd_report *r, struct pd_arena *a)
{
	const struct pd_coverage *cov = r->coverage;
	unsigned noted = r->n_members_noted, unread = 0, listed = 0;

	unread = cov->n_folded - cov->n_folded_noted;
	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next) {
		listed += member_listed(mr);
		unread += mr->diag.worst == PD_OK && member_listed(mr);
	}
	fprintf(out, "\n## Members\n\n%u member%s read: %u ok", cov->n_members,
	    cov->n_members == 1 ? "" : "s", cov->n_members - noted - unread);
	if (noted)
		fprintf(out, ", %u with notes", noted);
	if (unread)
		fprintf(out, ", %u of no format pathdoctor reads", unread);
	fprintf(out, ".%s\n", cov->n_folded ? pd_arena_printf(a, " %u of no "
	    "format pathdoctor reads are counted, not listed.", cov->n_folded) :
	    "");
	if (listed)
		fprintf(out, "\n| member | format | status | notes |\n"
		    "|---|---|---|---|\n");
	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next) {
		if (!member_listed(mr))
			continue;
		fprintf(out, "| %s | %s | %s | ", cell_code(a, mr->path),
		    mr->format, pd_status_name(mr->diag.worst));
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
		fprintf(out, "%s\n\n| # | stage or fix | throughput now / "
		    "after | bottleneck |\n|---:|---|---|---|\n", M(l->verdict));
		for (unsigned i = 0; i < n; i++)
			fprintf(out, "| %u | %s | %s | %s |\n", i + 1,
			    M(rows[i].what), rows[i].rate, M(rows[i].binds));
		/* the arithmetic of every row, one click away: the table
		 * stays a screen tall in a forum post */
		fprintf(out, "\n<details><summary>The basis of each row"
		    "</summary>\n\n");
		for (unsigned i = 0; i < n; i++)
			fprintf(out, "%u. **%s**: %s\n", i + 1, M(rows[i].what),
			    M(rows[i].basis));
		fprintf(out, "\n</details>\n");
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

/* | # | rule | subject | expected gain | confidence | risk | fix | */
static void
summary(FILE *out, const struct pd_report *r, struct pd_arena *a)
{
	const struct pd_findings *fs = r->findings;

	fprintf(out, "| # | rule | subject | expected gain | confidence "
	    "| risk | fix |\n|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < fs->n; i++) {
		const struct pd_finding *f = fs->v[i];
		const char *cmd = pd_md_first_command(a, f->fix, f->n_fix);
		char gain[64];

		pd_fmt_gain(gain, sizeof(gain), f->gain_lo, f->gain_hi);
		fprintf(out, "| %zu | `%s` | ", i + 1, f->rule->id);
		if (r->model->n_hosts > 1)
			fprintf(out, "%s: ", M(f->host->name));
		cell(out, a, f->subject);
		fprintf(out, " | %s | %d %% | %s | %s |\n", gain,
		    f->confidence, pd_risk_name(f->risk),
		    cmd ? cell_code(a, cmd) : "-");
	}
}

static void
not_evaluated(FILE *out, const struct pd_report *r, struct pd_arena *a)
{
	if (!r->not_evaluated)
		return;
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
			fprintf(out, "%s %s", k ? ";" : "", M(ne->needs[k]));
		fprintf(out, "\n");
		for (unsigned k = 0; k < ne->n_gaps; k++)
			fprintf(out, "  - the collector could not gather "
			    "%s: %s\n", pd_md_code(a, ne->gaps[k]->path),
			    M(ne->gaps[k]->reason));
	}
}

/* With --brief, the summary table and the ladders only. */
static int
render_md(const struct pd_report *r, FILE *out)
{
	const struct pd_findings *fs = r->findings;
	struct pd_arena *a = pd_model_arena(r->model);

	fprintf(out, "# pathdoctor report: %s\n\n",
	    M(pd_base_name(a, r->bundle)));
	if (r->nothing_read)
		fprintf(out, "**Nothing read:** %s.\n", M(r->nothing_read));
	else if (fs->n == 0)
		fprintf(out, "No findings.\n");
	else
		summary(out, r, a);
	if (r->n_hidden)
		fprintf(out, "\n%u finding%s below the level asked for "
		    "(--min-level) %s not shown.\n", r->n_hidden,
		    r->n_hidden == 1 ? "" : "s",
		    r->n_hidden == 1 ? "is" : "are");
	if (!r->nothing_read)
		ladders(out, r);
	if (r->brief)
		return ferror(out) ? -1 : 0;
	for (size_t i = 0; !r->nothing_read && i < fs->n; i++)
		finding(out, r, i, fs->v[i]);
	not_evaluated(out, r, a);
	not_applicable(out, r);
	unused(out, r);
	members(out, r, a);
	hosts(out, r->model);
	return ferror(out) ? -1 : 0;
}

const struct pd_renderer pd_render_md = { .name = "md", .render = render_md };

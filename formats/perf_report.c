/* "perf-report": the text of perf report --stdio (and lines copied from
 * perf top or the TUI, which look the same): per event, a section
 *
 *   # Samples: 47K of event 'cpu-clock:pppH'
 *   # Children      Self  Command  Shared Object  Symbol     (or Overhead)
 *       12.34%     1.23%  fio      [kernel.kallsyms]  [k] symbol
 *
 * with any --sort of comm, dso, cpu and sym; call-graph lines under an
 * entry and "[...]" elisions are skipped.  The shares are already
 * computed: each line adds its self share (Overhead or Self) as a period
 * of share x 10^4 and its Children share as the symbol's inclusive one,
 * of a whole of 100 %.  A CPU column puts the line on that CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/text.h"

#define SCALE 1e4
#define TOKENS 16

struct line {
	double pct[2];
	unsigned n_pct;
	const char *tok[TOKENS];	/* between the shares and the marker */
	size_t tok_len[TOKENS];
	unsigned n_tok;
	bool kernel;
	const char *sym;
};

/* "[  +-]  12.34%  [ 1.23%]  tokens...  [k] symbol"; false otherwise. */
static bool
data_line(const char *s, struct line *l)
{
	memset(l, 0, sizeof(*l));
	s = pd_skip_space(s);
	if (*s == '+' || *s == '-')
		s = pd_skip_space(s + 1);
	while (l->n_pct < 2) {
		char *end;
		double v = strtod(s, &end);

		if (end == s || *end != '%' || !(end[1] == ' ' ||
		    end[1] == '\t'))
			break;
		l->pct[l->n_pct++] = v;
		s = pd_skip_space(end + 1);
	}
	if (!l->n_pct)
		return false;
	for (;;) {
		size_t n = strcspn(s, " \t");

		if (!n)
			return false;
		if (n == 3 && s[0] == '[' && s[2] == ']' &&
		    strchr("k.gHuv", s[1])) {
			l->kernel = s[1] == 'k' || s[1] == 'g';
			l->sym = pd_skip_space(s + 3);
			return *l->sym != '\0';
		}
		if (l->n_tok < TOKENS) {
			l->tok[l->n_tok] = s;
			l->tok_len[l->n_tok++] = n;
		}
		s = pd_skip_space(s + n);
	}
}

struct report {
	const struct pd_member *m;
	struct pd_host *h;
	struct pd_diag *d;
	struct pd_profile *p;
	uint64_t stated;		/* "# Samples: 47K": about 47000 */
	bool children, cpu_col, dso_col;
	unsigned sections;
};

static void
end(struct report *r)
{
	pd_profile_end(r->p, r->d);
	if (r->stated)
		r->p->samples = r->stated;
}

static void
start(struct report *r, const char *event, uint64_t stated)
{
	if (r->p)
		end(r);
	r->stated = stated;
	r->p = pd_host_profile(r->h, r->d->arena, r->m->path, "perf report");
	r->p->event = event ? pd_arena_strdup(r->d->arena, event) : NULL;
	r->p->ev = (struct pd_evidence){ r->m->path, 0, "perf report" };
	pd_prof_report_total(r->p->raw, 100 * SCALE);
	r->sections++;
}

static void
columns(struct report *r, const char *line)
{
	r->children = strstr(line, "Children") != NULL;
	r->cpu_col = strstr(line, " CPU ") != NULL;
	r->dso_col = strstr(line, "Shared Object") != NULL;
}

static void
add(struct report *r, const struct line *l)
{
	char dso[256] = "[unknown]", sym[512];
	int cpu = -1;
	unsigned dso_tok = l->n_tok;

	/* the DSO is the last token before the marker when there is one
	 * (the only one in perf top's lines) */
	if (l->n_tok && (r->dso_col || !r->cpu_col))
		dso_tok = l->n_tok - 1;
	for (unsigned i = 0; i < l->n_tok; i++) {
		uint64_t c;
		const char *e;

		if (r->cpu_col && i != dso_tok &&
		    pd_parse_u64(l->tok[i], 10, &c, &e) &&
		    e == l->tok[i] + l->tok_len[i] && c < PD_MAX_CPUS)
			cpu = (int)c;
	}
	if (dso_tok < l->n_tok)
		snprintf(dso, sizeof(dso), "%.*s", (int)l->tok_len[dso_tok],
		    l->tok[dso_tok]);
	snprintf(sym, sizeof(sym), "%s", l->sym);
	for (size_t n = strlen(sym); n > 0 && (sym[n - 1] == ' ' ||
	    sym[n - 1] == '\r'); n--)
		sym[n - 1] = '\0';
	if (strcmp(dso, "[kernel]") == 0)
		snprintf(dso, sizeof(dso), "[kernel.kallsyms]");
	struct pd_prof_frame f = { dso, sym, l->kernel };
	bool two = l->n_pct == 2;

	pd_prof_report_line(r->p->raw, cpu, (two ? l->pct[1] : l->pct[0]) *
	    SCALE, two ? l->pct[0] * SCALE : -1, &f);
	if (two)
		r->p->has_callchain = true;
	if (cpu >= 0)
		r->p->has_cpu = true;
}

static int
bid_perf_report(const struct pd_member *m)
{
	char line[512];
	int score = 0, lines = 0;
	struct line l;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	for (unsigned i = 0; i < 64 && pd_text_head_line(m->head, m->head_len,
	    i, line, sizeof(line)); i++) {
		const char *s = pd_skip_space(line);

		if (pd_starts_with(s, "# Samples: ") && strstr(s, " of event "))
			score += 32;
		else if (pd_starts_with(s, "# Baseline"))
			score += 24;	/* perf diff: named, not read */
		else if (pd_starts_with(s, "# Overhead") ||
		    pd_starts_with(s, "# Children"))
			score += 24;
		else if (lines < 3 && data_line(line, &l))
			score += 16, lines++;
	}
	return lines ? score : 0;
}

static enum pd_status
parse_perf_report(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct report r = { .m = m, .h = h, .d = d };
	const char *line;
	size_t len;
	struct line l;
	uint64_t bad = 0;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);
		const char *ev;

		/* perf diff: Baseline is one recording's share, Delta the
		 * other's difference from it; neither is a profile of one
		 * run, and its lines look like a report's */
		if (pd_starts_with(s, "# Baseline")) {
			pd_diag_note(d, PD_WARN, "perf-report.diff", 0, "perf "
			    "diff output (Baseline and Delta of two "
			    "recordings): not used as a profile; give perf "
			    "report --stdio of one recording");
			if (r.p)
				end(&r);	/* what came before it */
			return PD_WARN;
		}
		if (pd_starts_with(s, "# Samples: ") &&
		    (ev = strstr(s, " of event '")) != NULL) {
			const char *e;
			uint64_t n = 0;

			if (pd_parse_u64(s + strlen("# Samples: "), 10, &n,
			    &e))
				n *= *e == 'K' ? 1000 : *e == 'M' ? 1000000 : 1;
			ev += strlen(" of event '");
			start(&r, pd_arena_strndup(d->arena, ev,
			    strcspn(ev, "'")), n);
		} else if (pd_starts_with(s, "# Overhead") ||
		    pd_starts_with(s, "# Children")) {
			columns(&r, s);
		} else if (*s == '#' || *s == '|' || *s == '\0' ||
		    pd_starts_with(s, "---") || pd_starts_with(s, "[...]") ||
		    (*s == '-' && !data_line(line, &l))) {
			continue;
		} else if (data_line(line, &l)) {
			if (!r.p)
				start(&r, NULL, 0);
			add(&r, &l);
		} else if (strstr(s, "--") || strchr(s, '|') ||
		    line[0] == ' ' || line[0] == '\t') {
			continue;	/* call-graph lines */
		} else {
			bad++;
		}
	}
	if (!r.p) {
		pd_diag_note(d, PD_FAILED, "perf-report.no-lines", 0, "no "
		    "'NN.NN%%  ...  [k] symbol' lines");
		return PD_FAILED;
	}
	end(&r);
	if (bad)
		pd_diag_note(d, PD_WARN, "perf-report.bad-line", 0, "%llu lines "
		    "were neither a report line nor a call-graph line",
		    (unsigned long long)bad);
	return bad ? PD_WARN : PD_OK;
}

static const char *const hints[] = { "perf-report", "perf_report",
	"perf-top", NULL };

const struct pd_format pd_format_perf_report = {
	.name = "perf-report",
	.summary = "perf report --stdio text (with or without Children, any "
	    "--sort of comm, dso, cpu, sym; perf top lines too)",
	.command = "perf report --stdio --no-children --sort dso,sym",
	.hints = hints,
	.gives = PD_HAVE_PROFILE,
	.collect = "perf report --stdio output",
	.bid = bid_perf_report,
	.parse = parse_perf_report,
};

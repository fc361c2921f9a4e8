/* "perf-script": the text of perf script, with or without call chains
 * (-g), in the default layout and common -F variants, old and new perf:
 *
 *   comm PID[/TID] [CPU] TIME: [PERIOD] EVENT:[  ADDR SYM+OFF (DSO)]
 *   <TAB>ADDR SYM+OFF (DSO)          one line per frame, leaf first
 *
 * preceded by perf's "# ========" header block (host name, os release,
 * arch) when it was asked for.  Samples are already named, so they go
 * into the profile by name; each event (a stream may interleave cycles
 * and instructions) becomes its own profile. */
#include <stddef.h>
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

#define EVENTS_MAX 8
#define TEXT_MAX 65536		/* bytes of frame names per sample */

struct event {
	char name[64];
	struct pd_profile *p;
};

struct script {
	const struct pd_member *m;
	struct pd_host *h;
	struct pd_diag *d;
	struct event ev[EVENTS_MAX];
	unsigned n_ev;
	struct pd_profile *cur;
	int cpu;
	double period;
	struct pd_prof_frame fr[PD_PROF_CHAIN];
	char *text;			/* this sample's frame strings */
	size_t text_len;
	unsigned n_fr;
	const char *hostname, *os_release, *arch;
	uint64_t bad;
	bool chains, cpus;
};

static bool
is_hex(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Where -F leaves the DSO out: kernel addresses are those of the upper
 * half, as on x86_64 and arm64. */
static const char *
dso_of_addr(const char *s, size_t n)
{
	return n == 16 && s[0] >= '8' ? "[kernel.kallsyms]" : "[unknown]";
}

/* "ADDR SYM+OFF (DSO)", or "ADDR SYM" (-F without dso): the parts;
 * false when the text is not a frame. */
static bool
frame(const char *s, const char **sym, size_t *sym_len, const char **dso,
    size_t *dso_len)
{
	s = pd_skip_space(s);
	size_t n = strcspn(s, " \t");
	const char *end = s + strlen(s);

	while (end > s && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	if (!is_hex(s, n) || end <= s + n)
		return false;
	const char *open = end - 1;

	while (end[-1] == ')' && open > s + n && *open != '(')
		open--;
	if (end[-1] != ')' || *open != '(') {
		*dso = dso_of_addr(s, n);	/* no DSO column */
		*dso_len = strlen(*dso);
		open = end;
	} else {
		*dso = open + 1;
		*dso_len = (size_t)(end - 1 - *dso);
	}
	*sym = pd_skip_space(s + n);
	const char *se = open;

	while (se > *sym && se[-1] == ' ')
		se--;
	/* strip "+0x1e" */
	for (const char *p = se; p > *sym; p--)
		if (p[-1] == '+' && se - p > 2 && p[0] == '0' && p[1] == 'x') {
			se = p - 1;
			break;
		}
	*sym_len = se > *sym ? (size_t)(se - *sym) : 0;
	return true;
}

static bool
pid_like(const char *p, size_t n)
{
	size_t d = 0;

	while (d < n && p[d] >= '0' && p[d] <= '9')
		d++;
	if (d && d < n && p[d] == '/')
		for (d++; d < n && p[d] >= '0' && p[d] <= '9'; d++)
			;
	return d && d == n;
}

/* A header without the time column (FlameGraph's "comm pid event:",
 * -F comm,pid,event): the event is the first NAME: token after a pid
 * and maybe a [CPU].  Returns where the event starts (as if after a
 * timestamp), NULL when the line is no such header. */
static const char *
untimed(const char *line, int *cpu)
{
	const char *p = pd_skip_space(line);
	bool pid = false, first = true;

	while (*p) {
		size_t n = strcspn(p, " \t");
		uint64_t c;

		if (!first && n > 1 && p[n - 1] == ':' && pid &&
		    ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' &&
		    p[0] <= 'Z')))
			return p;
		if (!first && pid_like(p, n))
			pid = true;
		else if (pid && n > 2 && p[0] == '[' && p[n - 1] == ']' &&
		    pd_parse_u64(p + 1, 10, &c, NULL) && c < PD_MAX_CPUS)
			*cpu = (int)c;
		else if (!first)
			pid = false;
		first = false;
		p = pd_skip_space(p + n);
	}
	return NULL;
}

/* The header of a sample: "... [CPU] TIME: [PERIOD] EVENT:" and maybe a
 * frame after it.  Finds the timestamp token, then what follows. */
static bool
header(const char *line, int *cpu_out, double *period_out, char *event,
    size_t evcap, const char **rest)
{
	const char *p = pd_skip_space(line), *ts = NULL;
	int cpu_v = -1, *cpu = &cpu_v;
	double period_v, *period = &period_v;

	/* -F layouts right-align the command, so leading blanks are fine;
	 * the sample's CPU and period change only when this is a header
	 * (a frame line must not reset them before the sample is flushed) */
	if (*p == '#' || !*p)
		return false;
	while (*p) {
		p = pd_skip_space(p);
		size_t n = strcspn(p, " \t");

		if (n > 2 && p[0] == '[' && p[n - 1] == ']') {
			uint64_t c;

			if (pd_parse_u64(p + 1, 10, &c, NULL) && c < PD_MAX_CPUS)
				*cpu = (int)c;
		} else if (n > 3 && p[n - 1] == ':' && strchr(p, '.') &&
		    strchr(p, '.') < p + n && p[0] >= '0' && p[0] <= '9') {
			ts = p + n;
			break;
		}
		p += n;
	}
	if (!ts && !(ts = untimed(line, cpu)))
		return false;
	p = pd_skip_space(ts);
	*period = 1;
	size_t n = strcspn(p, " \t");
	uint64_t v;
	const char *e;

	if (n && pd_parse_u64(p, 10, &v, &e) && e == p + n) {
		*period = (double)v;
		p = pd_skip_space(p + n);
		n = strcspn(p, " \t");
	}
	if (!n || p[n - 1] != ':')
		return false;
	snprintf(event, evcap, "%.*s", (int)(n - 1), p);
	*rest = pd_skip_space(p + n);
	*cpu_out = cpu_v;
	*period_out = period_v;
	return true;
}

static bool
kernel_dso(const char *dso, size_t n)
{
	const char *base = dso;

	for (size_t i = 0; i < n; i++)
		if (dso[i] == '/')
			base = dso + i + 1;
	n -= (size_t)(base - dso);
	return (n >= 7 && strncmp(base, "[kernel", 7) == 0) ||
	    (n == 7 && strncmp(base, "vmlinux", 7) == 0) ||
	    (n > 3 && strncmp(base + n - 3, ".ko", 3) == 0) ||
	    (n == 8 && strncmp(base, "[kernel]", 8) == 0);
}

static void
add_frame(struct script *s, const char *sym, size_t sl, const char *dso,
    size_t dl)
{
	if (s->n_fr == PD_PROF_CHAIN)
		return;
	const char *base = dso;

	for (size_t i = 0; i < dl; i++)
		if (dso[i] == '/')
			base = dso + i + 1;
	size_t bl = dl - (size_t)(base - dso);

	if (s->text_len + bl + sl + 2 > TEXT_MAX)
		return;		/* names past 64 KiB: the chain stops here */
	char *buf = s->text + s->text_len;

	memcpy(buf, base, bl);
	buf[bl] = '\0';
	memcpy(buf + bl + 1, sym, sl);
	buf[bl + 1 + sl] = '\0';
	s->text_len += bl + sl + 2;
	s->fr[s->n_fr++] = (struct pd_prof_frame){ buf, buf + bl + 1,
	    kernel_dso(dso, dl) };
}

static void
flush(struct script *s)
{
	s->chains |= s->n_fr > 1;
	s->cpus |= s->cpu >= 0;
	if (s->cur && s->n_fr)
		pd_prof_sample_named(s->cur->raw, s->cpu, s->period, s->fr,
		    s->n_fr);
	s->n_fr = 0;
	s->text_len = 0;
}

static struct pd_profile *
profile_for(struct script *s, const char *event)
{
	for (unsigned i = 0; i < s->n_ev; i++)
		if (strcmp(s->ev[i].name, event) == 0)
			return s->ev[i].p;
	if (s->n_ev == EVENTS_MAX)
		return NULL;
	struct event *e = &s->ev[s->n_ev++];

	snprintf(e->name, sizeof(e->name), "%s", event);
	e->p = pd_host_profile(s->h, s->d->arena, s->m->path, "perf script");
	e->p->event = pd_arena_strdup(s->d->arena, event);
	e->p->ev = (struct pd_evidence){ s->m->path, 0, "perf script" };
	return e->p;
}

/* "# hostname : x" lines of perf's header block. */
static void
header_block(struct script *s, const char *line)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "# hostname : ", offsetof(struct script, hostname) },
		{ "# os release : ", offsetof(struct script, os_release) },
		{ "# arch : ", offsetof(struct script, arch) },
	};

	for (size_t i = 0; i < PD_ARRAY_SIZE(keys); i++)
		if (pd_starts_with(line, keys[i].key))
			*(const char **)((char *)s + keys[i].off) =
			    pd_arena_strdup(s->d->arena, line +
			    strlen(keys[i].key));
}

static int
bid_perf_script(const struct pd_member *m)
{
	char line[512], event[64];
	int score = 0, frames = 0;
	bool head = false;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	for (unsigned i = 0; i < 64 && pd_text_head_line(m->head, m->head_len,
	    i, line, sizeof(line)); i++) {
		const char *sym, *dso, *rest;
		size_t sl, dl;
		int cpu;
		double period;

		if (pd_starts_with(line, "# captured on:"))
			score += 16;
		else if (header(line, &cpu, &period, event, sizeof(event),
		    &rest)) {
			if (!head)
				score += 48;
			head = true;
			if (*rest && frame(rest, &sym, &sl, &dso, &dl) &&
			    frames < 3)
				score += 8, frames++;
		} else if ((line[0] == ' ' || line[0] == '\t') &&
		    frame(line, &sym, &sl, &dso, &dl) && frames < 3) {
			score += 8;
			frames++;
		}
	}
	return head ? score : 0;
}

static enum pd_status
parse_perf_script(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct script s = { .m = m, .h = h, .d = d, .cpu = -1,
		.text = pd_xmalloc(TEXT_MAX) };
	const char *line, *rest, *sym, *dso;
	size_t len, sl, dl;
	char event[64];
	int cpu;
	double period;

	while (pd_input_getline(in, &line, &len)) {
		if (line[0] == '#') {
			header_block(&s, line);
			continue;
		}
		if (header(line, &cpu, &period, event, sizeof(event),
		    &rest)) {
			flush(&s);	/* the previous sample, with its CPU */
			s.cpu = cpu;
			s.period = period;
			s.cur = profile_for(&s, event);
			if (*rest && frame(rest, &sym, &sl, &dso, &dl))
				add_frame(&s, sym, sl, dso, dl);
		} else if ((line[0] == ' ' || line[0] == '\t') &&
		    frame(line, &sym, &sl, &dso, &dl)) {
			add_frame(&s, sym, sl, dso, dl);
		} else if (*pd_skip_space(line)) {
			s.bad++;
		} else {
			flush(&s);
		}
	}
	flush(&s);
	free(s.text);
	if (!s.n_ev) {
		pd_diag_note(d, PD_FAILED, "perf-script.no-samples", 0, "no "
		    "sample header lines (comm pid [cpu] time: event:)");
		return PD_FAILED;
	}
	for (unsigned i = 0; i < s.n_ev; i++) {
		struct pd_profile *p = s.ev[i].p;

		p->hostname = s.hostname;
		p->os_release = s.os_release;
		p->arch = s.arch;
		p->has_callchain = s.chains;
		p->has_cpu = s.cpus;
		pd_profile_end(p, d);
	}
	if (s.bad)
		pd_diag_note(d, PD_WARN, "perf-script.bad-line", 0, "%llu lines "
		    "were neither a sample header nor a frame",
		    (unsigned long long)s.bad);
	return s.bad ? PD_WARN : PD_OK;
}

static const char *const hints[] = { "perf-script", "perf.script",
	"perf_script", NULL };

const struct pd_format pd_format_perf_script = {
	.name = "perf-script",
	.summary = "perf script text (with or without -g, -F variants): "
	    "samples named by symbol and DSO, per event",
	.command = "perf script -i perf.data",
	.hints = hints,
	.gives = PD_HAVE_PROFILE,
	.collect = "perf script",
	.bid = bid_perf_script,
	.parse = parse_perf_script,
};

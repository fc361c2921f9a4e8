/* "softnet-stat": /proc/net/softnet_stat, one line per online CPU of
 * 32-bit counters printed as 8 hex digits (net/core/net-procfs.c,
 * softnet_seq_show):
 *
 *   1 processed      packets taken from the backlog or polled by NAPI
 *   2 dropped        packets dropped: the backlog held netdev_max_backlog
 *   3 time_squeeze   net_rx_action passes that ran out of netdev_budget
 *                    or netdev_budget_usecs with work left
 *   4-8              zeros (were fastroute counters)
 *   9 cpu_collision  (zero on current kernels)
 *  10 received_rps   from 2.6.36 (RPS)
 *  11 flow_limit_count  from 3.11
 *  12 backlog length, 13 the CPU number  from 5.10
 *
 * Older kernels print 9 columns, later ones may add more after the
 * 13th; those are ignored.  Offline CPUs have no line, so a line's
 * position is its CPU number only without the CPU column.
 * pathdoctor-collect writes it twice some seconds apart as
 * softnet_stat@UNIX-SECONDS.txt with a "# date:" first line; a
 * sosreport's copy has no time, so it gives since-boot totals and no
 * rates.  The host keeps the first and last snapshot by time. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define COLS_MIN 9
#define COLS_MAX 16	/* parsed; a line with more is not this format */
#define COL_CPU 12	/* 0-based: the CPU number, 5.10 on */

/* Splits a line of 8-digit hex columns; the count, 0 when it is not
 * such a line. */
static unsigned
columns(const char *s, uint32_t *v)
{
	unsigned n = 0;

	s = pd_skip_space(s);
	while (*s) {
		uint64_t x;
		const char *e;

		/* eight hex digits a column, as the kernel's %08x prints
		 * them (no 0x, which strtoull would take) */
		if (n == COLS_MAX || !pd_parse_u64(s, 16, &x, &e) ||
		    e - s != 8 || s[1] == 'x' || s[1] == 'X' ||
		    (*e && *e != ' ' && *e != '\t'))
			return 0;
		v[n++] = (uint32_t)x;
		s = pd_skip_space(e);
	}
	return n >= COLS_MIN ? n : 0;
}

static int
bid_softnet(const struct pd_member *m)
{
	char line[512];
	uint32_t v[COLS_MAX];
	int bits = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	for (unsigned i = 0; i < 3; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		unsigned n = columns(line, v);

		if (!n)
			return 0;
		/* nine or more fixed-width hex columns, the 4th to 8th zero */
		for (unsigned c = 3; c < 8; c++)
			if (v[c])
				return 0;
		bits += i == 0 ? 48 : 8;
	}
	return bits;
}

static void
keep(struct pd_softnet *sn, const struct pd_softnet_snap *s)
{
	if (sn->n == 0) {
		sn->snap[0] = sn->snap[1] = *s;
		sn->n = 1;
		return;
	}
	sn->n = 2;
	if (s->time >= 0 && (sn->snap[0].time < 0 ||
	    s->time < sn->snap[0].time))
		sn->snap[0] = *s;
	if (s->time >= sn->snap[1].time)
		sn->snap[1] = *s;
}

static enum pd_status
parse_softnet(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_softnet_snap s = { .time = -1, .member = m->path };
	const char *line;
	size_t len;
	unsigned pos = 0, bad = 0;
	int64_t ms;

	/* a scratch table bounded by PD_MAX_CPUS; the arena keeps n_cpu */
	struct pd_softnet_cpu *tab = pd_xmalloc(PD_MAX_CPUS * sizeof(*tab));

	memset(tab, 0, PD_MAX_CPUS * sizeof(*tab));
	while (pd_input_getline(in, &line, &len)) {
		const char *t = pd_skip_space(line);
		uint32_t v[COLS_MAX];
		unsigned n, cpu;

		if (pd_starts_with(t, "# date:")) {
			if (pd_parse_unix_time(pd_skip_space(t + 7), &ms, NULL))
				s.time = ms / 1000;
			continue;
		}
		if (*t == '#' || !*t)
			continue;
		if (!(n = columns(t, v))) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "softnet-stat.bad-line",
				    in->line_no, "not 9 or more 8-digit hex "
				    "columns: '%.80s'", t);
			continue;
		}
		cpu = n > COL_CPU ? v[COL_CPU] : pos;
		pos++;
		if (cpu >= PD_MAX_CPUS) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "softnet-stat.cpu",
				    in->line_no, "CPU %u is beyond the %u "
				    "pathdoctor keeps", cpu, PD_MAX_CPUS);
			continue;
		}
		struct pd_softnet_cpu *c = &tab[cpu];

		if (c->seen) {
			pd_diag_note(d, PD_WARN, "softnet-stat.cpu-twice",
			    in->line_no, "CPU %u has a second line: "
			    "the first kept", cpu);
			continue;
		}
		c->seen = true;
		c->processed = v[0];
		c->dropped = v[1];
		c->time_squeeze = v[2];
		pd_evidence_set(&c->ev, a, m->path, in->line_no, line, len);
		if (cpu + 1 > s.n_cpu)
			s.n_cpu = cpu + 1;
	}
	if (s.time < 0 && pd_time_from_path(m->hint_path, &ms))
		s.time = ms / 1000;
	if (!s.n_cpu) {
		free(tab);
		pd_diag_note(d, PD_WARN, "softnet-stat.empty", 0,
		    "no CPU lines");
		return PD_WARN;
	}
	s.cpu = pd_arena_alloc(a, s.n_cpu * sizeof(*s.cpu));
	memcpy(s.cpu, tab, s.n_cpu * sizeof(*s.cpu));
	free(tab);
	keep(&h->softnet, &s);
	return PD_OK;
}

static const char *const hints[] = { "softnet_stat", "softnet-stat", NULL };

const struct pd_format pd_format_softnet_stat = {
	.name = "softnet-stat",
	.summary = "per-CPU receive backlog counters (/proc/net/softnet_stat): "
	    "processed, dropped, time_squeeze; two timed ones give rates",
	.command = "cat /proc/net/softnet_stat, twice some seconds apart",
	.hints = hints,
	.gives = PD_HAVE_SOFTNET,
	.collect = "/proc/net/softnet_stat twice some seconds apart, with "
	    "their times (pathdoctor-collect)",
	.bid = bid_softnet,
	.parse = parse_softnet,
};

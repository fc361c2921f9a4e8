/* "interrupts": /proc/interrupts (kernel/irq/proc.c, show_interrupts
 * and arch_show_interrupts).  A header of the online CPUs' columns,
 * "           CPU0       CPU1       CPU4", then one row per IRQ:
 *
 *   NNN:  COUNT...  CHIP  [HWIRQ[-TYPE] [Edge|Level]]  NAME[, NAME...]
 *
 * x86 "IR-PCI-MSI 524288-edge      enp0s25" (since 4.x; 3.x printed
 * "IR-PCI-MSI-edge      eth0-TxRx-0", chip and type in one word), per-
 * device MSI domains "IR-PCI-MSIX-0000:02:00.0   1-edge   enp2s0-TxRx-0"
 * (6.2 on) and arm64 GICv3 "ITS-PCI-MSIX-0000:01:00.0  3 Edge
 * mlx5_comp3@pci:0000:01:00.0" or "ITS-MSI 524291 Edge  ...".  Rows
 * named by a word (NMI, LOC, ERR, MIS, IPI0 ...) are the architecture's
 * own and not kept; ERR and MIS have one count only.  A row may have
 * no name (a vector with no handler).  Each row's PCI address is taken
 * from the name's "@pci:BDF" (mlx5) or the chip's "-BDF" suffix.
 *
 * pathdoctor-collect writes it twice some seconds apart as
 * interrupts/interrupts@UNIX-SECONDS.txt with a "# date:" first line;
 * the host keeps the first and last snapshot by time, so counts give
 * rates.  Rows are kept up to PD_IRQ_ROWS, columns up to PD_MAX_CPUS. */
#include <stdlib.h>
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

/* The header's CPU numbers into col (NULL: only count them); the
 * number of columns, 0 when the line is not a header. */
static unsigned
header(const char *s, uint16_t *col)
{
	unsigned n = 0;

	s = pd_skip_space(s);
	while (*s) {
		uint64_t cpu;
		const char *e;

		if (strncmp(s, "CPU", 3) != 0 || !pd_parse_u64(s + 3, 10, &cpu,
		    &e) || cpu >= PD_MAX_CPUS || (*e && *e != ' ' &&
		    *e != '\t') || n == PD_MAX_CPUS)
			return 0;
		if (col)
			col[n] = (uint16_t)cpu;
		n++;
		s = pd_skip_space(e);
	}
	return n;
}

/* "  24:" or "NMI:": the label's end; *num the IRQ when numeric. */
static const char *
label(const char *s, bool *numeric, uint64_t *num)
{
	const char *e;

	s = pd_skip_space(s);
	if (pd_parse_u64(s, 10, num, &e) && *e == ':') {
		*numeric = true;
		return e + 1;
	}
	for (e = s; (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9') ||
	    (*e >= 'a' && *e <= 'z') || *e == '_'; e++)
		;
	*numeric = false;
	return e > s && *e == ':' && e - s <= 16 ? e + 1 : NULL;
}

static int
bid_interrupts(const struct pd_member *m)
{
	char line[1024];
	int bits = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	/* a wide host's header is longer than the line: its first 1023
	 * bytes must still be CPU columns (the cut one may be partial) */
	char *cut = strrchr(line, ' ');

	if (strlen(line) == sizeof(line) - 1 && cut)
		*cut = '\0';
	if (!header(line, NULL))
		return 0;
	bits = 40;
	for (unsigned i = 1; i < 4; i++) {
		bool numeric;
		uint64_t num;
		const char *r;

		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		if (!(r = label(line, &numeric, &num)))
			return 0;
		r = pd_skip_space(r);
		if (*r < '0' || *r > '9')
			return 0;
		bits += 8;
	}
	return bits > 40 ? bits : 0;
}

static bool
is_number(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

static size_t
word(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	return n;
}

/* The PCI address a row names: "...@pci:0000:01:00.0" in the name, or
 * a chip "IR-PCI-MSIX-0000:02:00.0". */
static void
row_bdf(struct pd_irq_row *r)
{
	const char *p = r->name ? strstr(r->name, "@pci:") : NULL;
	unsigned d, b, dv, f;

	if (p && pd_bdf_parse(p + 5, &d, &b, &dv, &f)) {
		pd_bdf_format(r->bdf, d, b, dv, f);
		return;
	}
	p = r->chip ? strrchr(r->chip, '-') : NULL;
	/* "-0000:02:00.0": the dash before the domain; strrchr finds the
	 * last dash, which is that one (a bdf has none) */
	if (p && strlen(p + 1) >= 7 && pd_bdf_parse(p + 1, &d, &b, &dv, &f) ==
	    strlen(p + 1))
		pd_bdf_format(r->bdf, d, b, dv, f);
}

/* Chip, hwirq and name after the counts. */
static void
row_tail(struct pd_arena *a, const char *s, struct pd_irq_row *r)
{
	size_t n;

	s = pd_skip_space(s);
	if (!*s)
		return;
	n = word(s);
	r->chip = pd_arena_strndup(a, s, n);
	s = pd_skip_space(s + n);
	n = word(s);
	/* "524288-edge", "25 Level", "3 Edge": a number first */
	if (n && s[0] >= '0' && s[0] <= '9') {
		const char *h = s;
		const char *t = pd_skip_space(s + n);
		size_t k = word(t);

		if (is_number(s, n) && ((k == 4 && strncmp(t, "Edge", 4) == 0) ||
		    (k == 5 && strncmp(t, "Level", 5) == 0)))
			n = (size_t)(t + k - s);
		r->hwirq = pd_arena_strndup(a, h, n);
		s = pd_skip_space(s + n);
	}
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n)
		r->name = pd_arena_strndup(a, s, n);
}

static void
keep(struct pd_interrupts *irq, const struct pd_irq_snap *s)
{
	if (irq->n == 0) {
		irq->snap[0] = irq->snap[1] = *s;
		irq->n = 1;
		return;
	}
	irq->n = 2;
	if (s->time >= 0 && (irq->snap[0].time < 0 ||
	    s->time < irq->snap[0].time))
		irq->snap[0] = *s;
	if (s->time >= irq->snap[1].time)
		irq->snap[1] = *s;
}

struct parse_state {
	struct pd_irq_snap s;
	struct pd_irq_row *tab;		/* scratch, PD_IRQ_ROWS */
	unsigned bad;
};

static void
parse_row(const struct pd_member *m, struct pd_input *in,
    struct pd_diag *d, struct parse_state *ps, const char *line, size_t len)
{
	struct pd_arena *a = d->arena;
	bool numeric;
	uint64_t num;
	const char *r = label(line, &numeric, &num);

	if (!r) {
		if (ps->bad++ < 3)
			pd_diag_note(d, PD_WARN, "interrupts.bad-line",
			    in->line_no, "not an interrupt row: '%.80s'", line);
		return;
	}
	if (!numeric)
		return;		/* NMI, LOC, ERR, ...: not a device's */
	if (ps->s.n_rows == PD_IRQ_ROWS || num > UINT32_MAX) {
		if (ps->bad++ < 3)
			pd_diag_note(d, PD_WARN, "interrupts.rows",
			    in->line_no, "more than %u interrupt rows, or an "
			    "IRQ number out of range: the rest not read",
			    PD_IRQ_ROWS);
		return;
	}
	struct pd_irq_row *row = &ps->tab[ps->s.n_rows];

	memset(row, 0, sizeof(*row));
	row->irq = (unsigned)num;
	row->count = pd_arena_alloc(a, ps->s.n_col * sizeof(uint64_t));
	for (unsigned c = 0; c < ps->s.n_col; c++) {
		const char *e;
		uint64_t v;

		r = pd_skip_space(r);
		if (!pd_parse_u64(r, 10, &v, &e) || (*e && *e != ' ' &&
		    *e != '\t'))
			break;
		row->count[c] = v;
		row->total += v;
		r = e;
	}
	row_tail(a, r, row);
	row_bdf(row);
	pd_evidence_set(&row->ev, a, m->path, in->line_no, line, len);
	ps->s.n_rows++;
}

static enum pd_status
parse_interrupts(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct parse_state ps = { .s = { .time = -1, .member = m->path } };
	const char *line;
	size_t len;
	int64_t ms;

	while (pd_input_getline(in, &line, &len)) {
		const char *t = pd_skip_space(line);

		if (pd_starts_with(t, "# date:")) {
			if (pd_parse_unix_time(pd_skip_space(t + 7), &ms, NULL))
				ps.s.time = ms / 1000;
			continue;
		}
		if (*t == '#' || !*t)
			continue;
		if (!ps.s.col_cpu) {
			unsigned n = header(t, NULL);

			if (!n) {
				pd_diag_note(d, PD_WARN, "interrupts.header",
				    in->line_no, "no CPU header line");
				break;
			}
			ps.s.n_col = n;
			ps.s.col_cpu = pd_arena_alloc(a, n * sizeof(uint16_t));
			header(t, ps.s.col_cpu);
			ps.tab = pd_xmalloc(PD_IRQ_ROWS * sizeof(*ps.tab));
			continue;
		}
		parse_row(m, in, d, &ps, line, len);
	}
	if (ps.s.time < 0 && pd_time_from_path(m->hint_path, &ms))
		ps.s.time = ms / 1000;
	if (!ps.s.n_rows) {
		free(ps.tab);
		pd_diag_note(d, PD_WARN, "interrupts.empty", 0,
		    "no numbered interrupt rows");
		return PD_WARN;
	}
	ps.s.rows = pd_arena_alloc(a, ps.s.n_rows * sizeof(*ps.s.rows));
	memcpy(ps.s.rows, ps.tab, ps.s.n_rows * sizeof(*ps.s.rows));
	free(ps.tab);
	keep(&h->irqs, &ps.s);
	return PD_OK;
}

static const char *const hints[] = { "interrupts", NULL };

const struct pd_format pd_format_interrupts = {
	.name = "interrupts",
	.summary = "interrupt counts per CPU (/proc/interrupts): which CPUs "
	    "take each NIC queue's interrupts; two timed ones give rates",
	.command = "cat /proc/interrupts, twice some seconds apart",
	.hints = hints,
	.gives = PD_HAVE_IRQ,
	.collect = "/proc/interrupts twice some seconds apart, with their "
	    "times, and the IRQs' affinity (pathdoctor-collect)",
	.bid = bid_interrupts,
	.parse = parse_interrupts,
};

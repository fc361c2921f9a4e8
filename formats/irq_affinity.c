/* "irq-affinity": which CPUs each IRQ may run on (/proc/irq/N/
 * smp_affinity_list, "0-3,8") and where the interrupt controller last
 * put it (effective_affinity_list, 4.15 on; one CPU on x86 and GICv3),
 * or the same as hex masks (smp_affinity, effective_affinity:
 * "00000000,0000000f", 32-bit groups, most significant first).
 *
 * Two forms, through the same path patterns (src/base/sysval.h):
 * pathdoctor-collect's listing, grep -H . over every IRQ's
 * smp_affinity_list and effective_affinity_list, one
 * "/proc/irq/N/FILE:VALUE" line each; or a sosreport's one-value files
 * at proc/irq/N/FILE under its root, which bid only on their path and a
 * value of the file's grammar.  The _list file wins over the mask of
 * the same IRQ when both are read. */
#include <string.h>
#include "base/sysval.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

enum which { SMP_LIST, EFF_LIST, SMP_MASK, EFF_MASK, N_WHICH };

/* Each also as "proc/irq/N/HANDLER/../FILE", the form of `grep -H .
 * /proc/irq/N/NAME/../smp_affinity_list` that picks IRQs by handler
 * name (the first star is the IRQ either way). */
static const char *const patterns[2 * N_WHICH] = {
	"proc/irq/*/smp_affinity_list",
	"proc/irq/*/effective_affinity_list",
	"proc/irq/*/smp_affinity",
	"proc/irq/*/effective_affinity",
	"proc/irq/*/*/../smp_affinity_list",
	"proc/irq/*/*/../effective_affinity_list",
	"proc/irq/*/*/../smp_affinity",
	"proc/irq/*/*/../effective_affinity",
};

/* The file a path names and its IRQ number; -1 when none. */
static int
which_file(const char *path, size_t len, unsigned *irq)
{
	struct pd_span c[PD_SYSVAL_CAPS];
	uint64_t n;

	for (int w = 0; w < 2 * N_WHICH; w++)
		if (pd_sysval_match(path, len, patterns[w], c) &&
		    pd_span_u64(c[0], &n) && n < PD_IRQ_NUM_MAX) {
			*irq = (unsigned)n;
			return w % N_WHICH;
		}
	return -1;
}

static bool
value_ok(int w, const char *v, size_t n, uint64_t *bits, unsigned *set)
{
	unsigned k;

	if (!set)
		set = &k;
	return w == SMP_LIST || w == EFF_LIST ?
	    pd_cpulist_parse(v, n, bits, PD_MAX_CPUS, set) :
	    pd_cpumask_parse(v, n, bits, PD_MAX_CPUS, set);
}

static int
bid_irq_affinity(const struct pd_member *m)
{
	uint64_t scratch[PD_CPUMASK_WORDS];
	char line[1024];
	struct pd_span p, v;
	unsigned irq;
	int w, bits = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	/* a sosreport's one-value file */
	w = which_file(m->hint_path, strlen(m->hint_path), &irq);
	if (w >= 0 && pd_sysval_one_line(m, line, sizeof(line)))
		return value_ok(w, line, strlen(line), scratch, NULL) ? 32 : 0;
	for (unsigned i = 0; i < 4; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		if (!pd_sysval_split_known(line, patterns, 2 * N_WHICH, &p,
		    &v) || (w = which_file(p.p, p.n, &irq)) < 0)
			return 0;
		bits += i == 0 ? 40 : 8;
	}
	return bits;
}

static struct pd_irq_aff *
aff_of(struct pd_host *h, struct pd_arena *a, unsigned irq)
{
	struct pd_interrupts *x = &h->irqs;

	if (!x->aff_of)
		x->aff_of = pd_arena_alloc(a, PD_IRQ_NUM_MAX *
		    sizeof(*x->aff_of));
	if (!x->aff_of[irq]) {
		struct pd_irq_aff *f = pd_arena_alloc(a, sizeof(*f)), **pp;

		f->irq = irq;
		for (pp = &x->aff; *pp; pp = &(*pp)->next)
			;
		*pp = f;
		x->aff_of[irq] = f;
		x->n_aff++;
	}
	return x->aff_of[irq];
}

/* Records one value; false when it does not fit the file's grammar. */
static bool
record(struct pd_host *h, struct pd_arena *a, int w, unsigned irq,
    const char *v, size_t n, const struct pd_evidence *ev)
{
	uint64_t bits[PD_CPUMASK_WORDS];
	unsigned set;

	memset(bits, 0, sizeof(bits));
	if (!value_ok(w, v, n, bits, &set))
		return false;
	struct pd_irq_aff *f = aff_of(h, a, irq);
	bool eff = w == EFF_LIST || w == EFF_MASK;
	uint64_t **dst = eff ? &f->eff : &f->smp;
	struct pd_evidence *dev = eff ? &f->ev_eff : &f->ev_smp;

	/* the _list form wins over a mask read before or after it */
	if (*dst && (w == SMP_MASK || w == EFF_MASK) && dev->text &&
	    strstr(dev->text, "_affinity_list"))
		return true;
	if (!*dst)
		*dst = pd_arena_alloc(a, sizeof(bits));
	memcpy(*dst, bits, sizeof(bits));
	*(eff ? &f->n_eff : &f->n_smp) = set;
	*dev = *ev;
	return true;
}

static enum pd_status
parse_irq_affinity(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_evidence ev;
	const char *line;
	size_t len;
	unsigned irq, bad = 0, ok = 0;
	int w = which_file(m->hint_path, strlen(m->hint_path), &irq);
	bool one = w >= 0;

	while (pd_input_getline(in, &line, &len)) {
		struct pd_span p = { 0 }, v;
		const char *t = pd_skip_space(line);

		if (*t == '#' || (!*t && !one))
			continue;
		if (one) {
			v = (struct pd_span){ t, strlen(t) };
			while (v.n && (v.p[v.n - 1] == '\r' ||
			    v.p[v.n - 1] == ' '))
				v.n--;
		} else if (!pd_sysval_split_known(t, patterns, 2 * N_WHICH,
		    &p, &v) || (w = which_file(p.p, p.n, &irq)) < 0) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "irq-affinity.bad-line",
				    in->line_no, "not /proc/irq/N/FILE:VALUE: "
				    "'%.80s'", t);
			continue;
		}
		pd_evidence_set(&ev, a, m->path, in->line_no, line, len);
		if (one)	/* the text names the file */
			ev.text = pd_arena_printf(a, "%s:%s", m->hint_path,
			    ev.text ? ev.text : "");
		if (!record(h, a, w, irq, v.p, v.n, &ev)) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "irq-affinity.value",
				    in->line_no, "IRQ %u: '%.40s' is not a CPU "
				    "list or mask of CPUs below %u", irq, t,
				    PD_MAX_CPUS);
			continue;
		}
		ok++;
		if (one)
			break;
	}
	if (!ok) {
		pd_diag_note(d, PD_WARN, "irq-affinity.empty", 0,
		    "no IRQ affinity values");
		return PD_WARN;
	}
	return PD_OK;
}

static const char *const hints[] = { "irq", "affinity", NULL };

const struct pd_format pd_format_irq_affinity = {
	.name = "irq-affinity",
	.summary = "the CPUs each IRQ may and does run on (/proc/irq/N/"
	    "smp_affinity_list, effective_affinity_list, their masks)",
	.command = "grep -H . /proc/irq/[0-9]*/smp_affinity_list "
	    "/proc/irq/[0-9]*/effective_affinity_list",
	.hints = hints,
	.gives = PD_HAVE_IRQ,
	.collect = "grep -H . /proc/irq/[0-9]*/smp_affinity_list "
	    "/proc/irq/[0-9]*/effective_affinity_list (pathdoctor-collect)",
	.bid = bid_irq_affinity,
	.parse = parse_irq_affinity,
};

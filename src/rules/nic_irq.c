/* nic.irq-affinity: where a NIC's queue interrupts are handled.  The
 * CPU that takes a queue's interrupt runs its NAPI poll in softirq
 * context (the receive path up to the socket), so a queue handled on a
 * slow core, far from the device's memory, or on the same CPU as every
 * other queue, runs that work slower or all in one place.
 *
 * Which CPUs take each queue, best evidence first: counts that moved
 * between two timed /proc/interrupts snapshots (a CPU with 10 % or more
 * of the queue's new interrupts), effective_affinity_list (where the
 * controller routes it now), smp_affinity_list (where it may go), and
 * the since-boot counts of one snapshot.  A queue is an interrupt row
 * of the card's PCI function (mlx5 "mlx5_comp3@pci:BDF", a per-device
 * MSI chip "IR-PCI-MSIX-BDF") or of its interface ("eth0-TxRx-3",
 * "ice-eth0-TxRx-3", "i40e-eth0-TxRx-3"), not its control vectors
 * (mlx5_async, Mailbox, -config). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/gain.h"
#include "base/sysval.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/rule.h"

#define MAX_QUEUES 256		/* queues judged per card */
#define TAKE_SHARE 0.10		/* a CPU with 10 % of a queue's new
				 * interrupts takes it */
#define SLOW_SHARE 0.25		/* a quarter of the card's queue
				 * interrupts on slow or remote CPUs */
#define SLOW_FREQ 0.85		/* a CPU whose cpuinfo_max_freq is below
				 * 85 % of the fastest one's is slow */
/* Measured in the published GB10 case: the last step, 26.5 -> 28.1
 * GB/s, combined LRO, 40 reads in flight and the interrupts on the
 * X925 cores; the authors measured the interrupt part under 1 %. */
#define PIN_GAIN_HI 0.01
#define BUSY_SAT 0.90		/* a CPU this busy paces what it runs */

static const char irq_doc[] =
    "The CPU that takes a receive queue's interrupt runs that queue's "
    "NAPI poll in softirq context: the driver's receive path, GRO and "
    "the protocol stack up to the socket.  On a heterogeneous CPU a slow "
    "core runs it slower (GB10: Cortex-A725 against Cortex-X925), on a "
    "remote NUMA node every packet's memory crosses the interconnect, "
    "and one CPU taking every queue does all of it alone.  Which CPUs "
    "take each queue of a card (rows of /proc/interrupts naming its PCI "
    "function, mlx5_compN@pci:BDF or an MSI chip with the BDF, or its "
    "interface, IF-TxRx-N, ice-IF-TxRx-N; control vectors left out): "
    "the CPUs with 10 % or more of its interrupts between two timed "
    "/proc/interrupts snapshots (confidence 70), else "
    "effective_affinity_list (55), else smp_affinity_list (45), else "
    "the since-boot counts of one snapshot (35).  Slow cores: a core "
    "type ranked below the host's best by name (Cortex-X and Neoverse "
    "over Cortex-A7xx over A5xx), else a cpuinfo_max_freq below 85 % of "
    "the fastest CPU's (x86 hybrids).  Remote: the CPU's node (lscpu) "
    "differs from the device's numa_node (lspci -vv) on a host of two "
    "nodes or more.  Fires when a quarter or more of the queues' "
    "interrupts (weighted by their counts) are taken only by slow or "
    "only by remote CPUs, or when every queue with interrupts goes to "
    "one CPU.  Gain 0 to +1 %: the published GB10 case measured the "
    "interrupts on the X925 cores at under 1 % (its last step, 26.5 -> "
    "28.1 GB/s, combined LRO, 40 reads in flight and the interrupts).  "
    "Where one CPU takes every queue and the profile shows it 90 % busy "
    "or more, up to the Amdahl bound 1/(1-s) of its core type's share s "
    "of busy samples in net_rx_action and below.  A small efficiency "
    "step on the ladder of the host's busiest card.  Fix: the queue "
    "IRQs spread over the fast, local CPUs through "
    "/proc/irq/N/smp_affinity_list, irqbalance stopped or told "
    "IRQBALANCE_BANNED_CPULIST.  Risk: pinned interrupts no longer "
    "follow CPU load.";

static const char *const irq_links[] = {
	"https://docs.kernel.org/core-api/irq/irq-affinity.html",
	"https://docs.kernel.org/networking/scaling.html",
	"https://docs.kernel.org/filesystems/proc.html",
	NULL,
};

enum src { SRC_MOVED, SRC_EFFECTIVE, SRC_AFFINITY, SRC_BOOT };

static const char *const src_name[] = {
	"interrupt counts between the two /proc/interrupts snapshots",
	"effective_affinity_list", "smp_affinity_list",
	"since-boot interrupt counts (one /proc/interrupts snapshot)",
};
static const int src_conf[] = { 70, 55, 45, 35 };

struct queue {
	const struct pd_irq_row *row, *first;	/* last and first snapshot */
	const struct pd_netdev *nd;
	uint64_t cpus[PD_CPUMASK_WORDS];	/* the CPUs that take it */
	double weight;				/* its new interrupts, or 1 */
};

struct view {
	const struct pd_host *h;
	struct queue q[MAX_QUEUES];
	unsigned n;
	enum src src;
	bool slow[PD_MAX_CPUS], remote[PD_MAX_CPUS];
	const char *slow_why;		/* how slow cores were told */
	bool any_slow, any_remote;
	int node;			/* the device's NUMA node; -1 */
};

static bool
bit(const uint64_t *b, unsigned i)
{
	return (b[i / 64] >> (i % 64)) & 1u;
}

static void
set(uint64_t *b, unsigned i)
{
	b[i / 64] |= 1ull << (i % 64);
}

/* A control vector, not a queue. */
static bool
control(const char *name)
{
	static const char *const words[] = { "async", "Mailbox", "config",
		"ctrl", "-misc", "_cmd", "pages", NULL };

	for (const char *const *w = words; *w; w++)
		if (strstr(name, *w))
			return true;
	return false;
}

/* "eth0-TxRx-3", "ice-eth0-TxRx-3", "eth0-rx-0": the interface's name
 * as a whole dash-separated part. */
static bool
names_if(const char *name, const char *ifname)
{
	size_t n = strlen(ifname);

	for (const char *p = name; (p = strstr(p, ifname)); p++)
		if ((p == name || p[-1] == '-') && p[n] == '-')
			return true;
	return false;
}

static bool
row_of(const struct pd_irq_row *r, const struct pd_netdev *nd)
{
	if (!r->name || control(r->name))
		return false;
	if (nd->pci && r->bdf[0] && strcmp(r->bdf, nd->pci->bdf) == 0)
		return true;
	return names_if(r->name, nd->name);
}

static const struct pd_irq_row *
find_row(const struct pd_irq_snap *s, unsigned irq)
{
	for (unsigned i = 0; i < s->n_rows; i++)
		if (s->rows[i].irq == irq)
			return &s->rows[i];
	return NULL;
}

static bool
timed(const struct pd_interrupts *x)
{
	return x->n == 2 && x->snap[0].time >= 0 &&
	    x->snap[1].time > x->snap[0].time;
}

/* The CPUs of one queue by counts: new ones (first != NULL), or since
 * boot; the weight is its count. */
static uint64_t
moved(const struct pd_irq_snap *s, const struct pd_irq_snap *s0,
    const struct queue *q, unsigned c)
{
	uint64_t v = q->row->count[c], v0 = 0;

	/* the same column in the first snapshot, if its CPU is */
	if (q->first && c < s0->n_col && s0->col_cpu[c] == s->col_cpu[c])
		v0 = q->first->count[c];
	return v >= v0 ? v - v0 : 0;
}

/* The CPUs of one queue by counts: new ones (first != NULL), or since
 * boot; the weight is its count. */
static void
by_counts(const struct pd_irq_snap *s, const struct pd_irq_snap *s0,
    struct queue *q)
{
	double total = 0;

	for (unsigned c = 0; c < s->n_col; c++)
		total += (double)moved(s, s0, q, c);
	for (unsigned c = 0; c < s->n_col; c++)
		if (total > 0 && (double)moved(s, s0, q, c) >= TAKE_SHARE *
		    total)
			set(q->cpus, s->col_cpu[c]);
	q->weight = total;
}

static void
take_cpus(struct view *v)
{
	const struct pd_interrupts *x = &v->h->irqs;
	const struct pd_irq_snap *s = &x->snap[x->n - 1], *s0 = &x->snap[0];
	bool moved = false, eff = true, aff = true;

	if (timed(x))
		for (unsigned i = 0; i < v->n; i++) {
			v->q[i].first = find_row(s0, v->q[i].row->irq);
			moved = moved || (v->q[i].first && v->q[i].row->total >
			    v->q[i].first->total);
		}
	for (unsigned i = 0; i < v->n; i++) {
		const struct pd_irq_aff *f = x->aff_of &&
		    v->q[i].row->irq < PD_IRQ_NUM_MAX ?
		    x->aff_of[v->q[i].row->irq] : NULL;

		eff = eff && f && f->eff && f->n_eff;
		aff = aff && f && f->smp && f->n_smp;
	}
	v->src = moved ? SRC_MOVED : eff ? SRC_EFFECTIVE : aff ?
	    SRC_AFFINITY : SRC_BOOT;
	for (unsigned i = 0; i < v->n; i++) {
		struct queue *q = &v->q[i];
		const struct pd_irq_aff *f = x->aff_of && q->row->irq <
		    PD_IRQ_NUM_MAX ? x->aff_of[q->row->irq] : NULL;

		memset(q->cpus, 0, sizeof(q->cpus));
		q->weight = 1;
		if (v->src == SRC_MOVED || v->src == SRC_BOOT)
			by_counts(s, s0, q);
		else
			memcpy(q->cpus, v->src == SRC_EFFECTIVE ? f->eff :
			    f->smp, sizeof(q->cpus));
	}
}

/* Performance rank of a core type by name: Arm's X and Neoverse
 * cores over the A7xx middle cores over the A5xx/A3xx little ones;
 * 0 when the name says nothing. */
static int
type_rank(const char *t)
{
	if (!t)
		return 0;
	if (strstr(t, "Cortex-X") || strstr(t, "Neoverse"))
		return 3;
	if (strstr(t, "Cortex-A7"))
		return 2;
	if (strstr(t, "Cortex-A5") || strstr(t, "Cortex-A3"))
		return 1;
	return 0;
}

/* Slow cores: a core type ranked below the host's best, else a
 * cpuinfo_max_freq below 85 % of the fastest CPU's. */
static void
find_slow(struct view *v)
{
	const struct pd_host *h = v->h;
	int best = 0;

	for (unsigned c = 0; h->cpu_type_of && c < h->n_cpus &&
	    c < PD_MAX_CPUS; c++)
		if (type_rank(h->cpu_type_of[c]) > best)
			best = type_rank(h->cpu_type_of[c]);
	for (unsigned c = 0; best && c < h->n_cpus && c < PD_MAX_CPUS; c++) {
		int r = type_rank(h->cpu_type_of[c]);

		v->slow[c] = r && r < best;
		v->any_slow = v->any_slow || v->slow[c];
	}
	if (v->any_slow) {
		v->slow_why = "by core type";
		return;
	}
	/* each CPU's cpuinfo_max_freq: a policy's for the CPUs it covers
	 * (affected_cpus), else the CPU's own directory's */
	int64_t *max = pd_xmalloc(PD_MAX_CPUS * sizeof(*max)), top = 0;

	memset(max, 0, PD_MAX_CPUS * sizeof(*max));
	for (const struct pd_cpufreq *f = h->freq.list; f; f = f->next)
		for (unsigned c = 0; c < PD_MAX_CPUS && f->cpuinfo_max > 0;
		    c++)
			if (f->cpus ? bit(f->cpus, c) : f->num == c) {
				max[c] = f->cpuinfo_max;
				top = max[c] > top ? max[c] : top;
			}
	for (unsigned c = 0; c < PD_MAX_CPUS; c++)
		if (max[c] > 0 && max[c] < SLOW_FREQ * (double)top) {
			v->slow[c] = true;
			v->any_slow = true;
		}
	free(max);
	v->slow_why = "by cpuinfo_max_freq (below 85 % of the fastest CPU's)";
}

static void
find_remote(struct view *v, const struct pd_pcidev *d)
{
	const struct pd_host *h = v->h;

	v->node = d ? d->numa_node : -1;
	if (h->n_numa_nodes < 2 || v->node < 0 || !h->numa_of_cpu)
		return;
	for (unsigned c = 0; c < PD_MAX_CPUS; c++) {
		v->remote[c] = h->numa_of_cpu[c] >= 0 &&
		    h->numa_of_cpu[c] != v->node;
		v->any_remote = v->any_remote || v->remote[c];
	}
}

/* Share of the queues' weight whose every taking CPU is flagged. */
static double
share_on(const struct view *v, const bool *flag)
{
	double on = 0, all = 0;

	for (unsigned i = 0; i < v->n; i++) {
		bool every = false;

		for (unsigned c = 0; c < PD_MAX_CPUS; c++) {
			if (!bit(v->q[i].cpus, c))
				continue;
			if (!flag[c]) {
				every = false;
				break;
			}
			every = true;
		}
		all += v->q[i].weight;
		on += every ? v->q[i].weight : 0;
	}
	return all > 0 ? on / all : 0;
}

/* The one CPU every queue is taken by, or -1. */
static int
one_cpu(const struct view *v)
{
	int cpu = -1;
	unsigned with = 0;

	for (unsigned i = 0; i < v->n; i++) {
		if (v->q[i].weight <= 0)
			continue;
		for (unsigned c = 0; c < PD_MAX_CPUS; c++) {
			if (!bit(v->q[i].cpus, c))
				continue;
			if (cpu >= 0 && (int)c != cpu)
				return -1;
			cpu = (int)c;
		}
		with++;
	}
	return with >= 2 ? cpu : -1;
}

static unsigned
gather(struct view *v, const struct pd_card *c)
{
	const struct pd_interrupts *x = &v->h->irqs;
	const struct pd_irq_snap *s = &x->snap[x->n - 1];

	for (unsigned k = 0; k < c->n_pfs; k++) {
		const struct pd_netdev *nd = c->pfs[k]->netdev;

		for (unsigned i = 0; nd && i < s->n_rows && v->n < MAX_QUEUES;
		    i++)
			if (row_of(&s->rows[i], nd))
				v->q[v->n++] = (struct queue){ .row =
				    &s->rows[i], .nd = nd };
	}
	return v->n;
}

/* The profile that says how busy a CPU is: cycles, else cpu-clock,
 * else the first with samples and CPU numbers. */
static const struct pd_profile *
profile_of(const struct pd_host *h)
{
	const struct pd_profile *best = NULL;

	for (const struct pd_profile *p = h->profiles; p; p = p->next) {
		if (!p->samples || !p->cpu_total || !p->n_cpu_slots)
			continue;
		if (!best || (p->event && strstr(p->event, "cycles") &&
		    !(best->event && strstr(best->event, "cycles"))))
			best = p;
	}
	return best;
}

/* The receive softirq's share of the busy samples of cpu's core type
 * (the profile has per-symbol periods per core type, not per CPU):
 * net_rx_action and what it calls with call chains, else the NAPI
 * and softirq entry points' own samples. */
static double
rx_share(const struct pd_host *h, const struct pd_profile *p, unsigned cpu)
{
	static const char *const names[] = { "net_rx_action", "__napi_poll",
		"handle_softirqs", "__do_softirq", NULL };
	unsigned g = 0;
	double best = 0, busy;

	for (unsigned k = 0; h->cpu_type_of && cpu < PD_MAX_CPUS &&
	    k < p->n_groups; k++)
		if (h->cpu_type_of[cpu] && strcmp(p->groups[k].name,
		    h->cpu_type_of[cpu]) == 0)
			g = k;
	busy = p->groups[g].total - p->groups[g].idle;
	if (busy <= 0)
		return 0;
	for (unsigned i = 0; i < p->n_syms; i++)
		for (const char *const *n = names; *n; n++) {
			if (strcmp(p->syms[i].name, *n) != 0)
				continue;
			double v = pd_prof_sym_group(p, p->has_callchain &&
			    p->sym_group_incl, i, g);

			if (v / busy > best)
				best = v / busy;
		}
	return best > 0.9 ? 0.9 : best;
}

static double
cpu_busy(const struct pd_profile *p, unsigned cpu)
{
	if (cpu >= p->n_cpu_slots || p->cpu_total[cpu] <= 0)
		return -1;
	return (p->cpu_total[cpu] - p->cpu_idle[cpu]) / p->cpu_total[cpu];
}

static const char *
cpus_text(struct pd_arena *a, const uint64_t *b)
{
	char s[128];

	pd_cpulist_format(b, PD_MAX_CPUS, s, sizeof(s));
	return pd_arena_strdup(a, s[0] ? s : "none");
}

/* The CPUs to spread the queues over: neither slow nor remote. */
static void
targets(const struct view *v, uint64_t *t, unsigned *n)
{
	const struct pd_irq_snap *s = &v->h->irqs.snap[v->h->irqs.n - 1];
	unsigned cpus = v->h->n_cpus;

	/* the CPUs the host has: cpuinfo's or lscpu's count, else the
	 * interrupts header's highest column */
	for (unsigned c = 0; c < s->n_col; c++)
		if (s->col_cpu[c] + 1u > cpus)
			cpus = s->col_cpu[c] + 1u;
	memset(t, 0, PD_CPUMASK_WORDS * sizeof(uint64_t));
	*n = 0;
	for (unsigned c = 0; c < cpus && c < PD_MAX_CPUS; c++)
		if (!v->slow[c] && !v->remote[c]) {
			set(t, c);
			(*n)++;
		}
}

static const char *
netdevs_text(struct pd_arena *a, const struct view *v)
{
	const char *s = "";
	const struct pd_netdev *last = NULL;

	for (unsigned i = 0; i < v->n; i++)
		if (v->q[i].nd != last) {
			last = v->q[i].nd;
			s = pd_arena_printf(a, "%s%s%s", s, *s ? ", " : "",
			    last->name);
		}
	return s;
}

/* What names the card's queue rows: their PCI addresses, else the
 * interfaces' names. */
static const char *
grep_pattern(struct pd_arena *a, const struct view *v)
{
	const char *s = "", *last = "";

	for (unsigned i = 0; i < v->n; i++) {
		const char *k = v->q[i].row->bdf[0] ? v->q[i].row->bdf :
		    v->q[i].nd->name;

		if (strcmp(k, last) == 0)
			continue;
		s = pd_arena_printf(a, "%s%s%s", s, *s ? "|" : "", k);
		last = k;
	}
	return s;
}

static void
fix_lines(struct pd_findings *out, struct pd_finding *f,
    const struct view *v, const uint64_t *t, unsigned nt)
{
	struct pd_arena *a = out->arena;
	const char *irqs = "", *cpus = "";
	uint64_t bad[PD_CPUMASK_WORDS] = { 0 };

	for (unsigned c = 0; c < PD_MAX_CPUS; c++) {
		if (bit(t, c))
			cpus = pd_arena_printf(a, "%s%s%u", cpus, *cpus ? " " :
			    "", c);
		if ((v->slow[c] || v->remote[c]) && c < v->h->n_cpus)
			set(bad, c);
	}
	for (unsigned i = 0; i < v->n; i++)
		irqs = pd_arena_printf(a, "%s%s%u", irqs, i ? " " : "",
		    v->q[i].row->irq);
	pd_finding_fix(out, f, "# irqbalance would move them back: stop it, "
	    "or keep it and ban the CPUs (below)");
	pd_finding_fix(out, f, "sudo systemctl stop irqbalance");
	pd_finding_fix(out, f, "cpus='%s'; n=0; for irq in %s; do c=$(echo "
	    "$cpus | cut -d' ' -f$((n %% %u + 1))); echo $c | sudo tee "
	    "/proc/irq/$irq/smp_affinity_list; n=$((n + 1)); done", cpus, irqs,
	    nt);
	if (v->any_slow || v->any_remote)
		pd_finding_fix(out, f, "# persist: IRQBALANCE_BANNED_CPULIST=%s "
		    "in /etc/default/irqbalance (or /etc/sysconfig/irqbalance; "
		    "irqbalance 1.8 on), then sudo systemctl restart irqbalance",
		    cpus_text(a, bad));
	else
		pd_finding_fix(out, f, "# persist: run the loop from a boot "
		    "service after the driver loads, with irqbalance off");
}

/* A row's evidence with only its non-zero columns, named by CPU: a
 * wide host's row is mostly zeros, and the name comes last. */
static struct pd_evidence
row_ev(struct pd_arena *a, const struct pd_irq_snap *s,
    const struct pd_irq_row *r)
{
	struct pd_evidence ev = r->ev;
	const char *t = "";
	unsigned shown = 0, zero = 0;

	for (unsigned c = 0; c < s->n_col; c++) {
		if (!r->count[c] || shown == 8) {
			zero += !r->count[c];
			continue;
		}
		t = pd_arena_printf(a, "%s%sCPU%u %" PRIu64, t, shown ? ", " :
		    "", s->col_cpu[c], r->count[c]);
		shown++;
	}
	ev.text = pd_arena_printf(a, "%u: %s%s; %s %s %s", r->irq, t,
	    zero ? pd_arena_printf(a, " (%u CPUs 0)", zero) : "",
	    r->chip ? r->chip : "", r->hwirq ? r->hwirq : "",
	    r->name ? r->name : "");
	return ev;
}

/* Whether every CPU taking q is flagged (flag NULL: any queue). */
static bool
flagged(const struct queue *q, const bool *flag)
{
	bool any = false;

	for (unsigned c = 0; flag && c < PD_MAX_CPUS; c++)
		if (bit(q->cpus, c)) {
			if (!flag[c])
				return false;
			any = true;
		}
	return !flag || any;
}

/* The first queues the finding is about: their rows (the first
 * snapshot's too when counts moved), then their affinity lines. */
static void
evidence(struct pd_arena *a, struct pd_finding *f, const struct view *v,
    const bool *flag)
{
	const struct pd_interrupts *x = &v->h->irqs;
	struct pd_evidence ev;
	unsigned pick[3], n = 0;

	for (unsigned i = 0; i < v->n && n < 3; i++)
		if (flagged(&v->q[i], flag))
			pick[n++] = i;
	if (n && v->src == SRC_MOVED && v->q[pick[0]].first) {
		ev = row_ev(a, &x->snap[0], v->q[pick[0]].first);
		pd_finding_evidence(f, &ev);
	}
	for (unsigned k = 0; k < n; k++) {
		ev = row_ev(a, &x->snap[x->n - 1], v->q[pick[k]].row);
		pd_finding_evidence(f, &ev);
	}
	for (unsigned k = 0; k < n && k < 2; k++) {
		unsigned i = pick[k];
		const struct pd_irq_aff *af = x->aff_of && v->q[i].row->irq <
		    PD_IRQ_NUM_MAX ? x->aff_of[v->q[i].row->irq] : NULL;

		if (af && af->eff && f->n_ev < PD_MAX_EVIDENCE)
			pd_finding_evidence(f, &af->ev_eff);
		if (af && af->smp && f->n_ev < PD_MAX_EVIDENCE)
			pd_finding_evidence(f, &af->ev_smp);
	}
}

/* The gain where one CPU takes every queue: that CPU's share of the
 * receive softirq, if the profile shows it saturated; else the
 * pinning case's under 1 %. */
static double
one_cpu_share(struct pd_arena *a, const struct view *v, int cpu,
    const char **basis)
{
	const struct pd_profile *p = profile_of(v->h);
	double b = p ? cpu_busy(p, (unsigned)cpu) : -1;
	double s = p ? rx_share(v->h, p, (unsigned)cpu) : 0;

	if (b >= BUSY_SAT && s > PIN_GAIN_HI) {
		*basis = pd_arena_printf(a, "model: CPU %d is %.0f %% busy in "
		    "the profile and paces the receive path; moving its "
		    "receive softirq work (%.0f %% of its core type's busy "
		    "samples in net_rx_action and below) to other CPUs "
		    "speeds it up by at most 1/(1-%.2f) (Amdahl); the "
		    "profile has no per-CPU symbol shares, so the core "
		    "type's share stands for the CPU's", cpu, 100 * b, 100 * s,
		    s);
		return s;
	}
	*basis = pd_arena_printf(a, "measured in a comparable case: GB10, "
	    "interrupts moved to the Cortex-X925 cores gave under 1 %% (the "
	    "last step 26.5 -> 28.1 GB/s combined LRO, reads in flight and "
	    "the interrupts); more only where CPU %d is saturated, which %s",
	    cpu, !p ? "needs a perf record -a profile to tell" : b < 0 ?
	    "the profile cannot tell (no samples on it)" :
	    pd_arena_printf(a, "it is not (%.0f %% busy)", 100 * b));
	return PIN_GAIN_HI;
}

/* "Cortex-A725 cores" when the slow CPUs are of one named type. */
static const char *
slow_name(struct pd_arena *a, const struct view *v)
{
	const char *t = NULL;

	for (unsigned c = 0; c < PD_MAX_CPUS && v->h->cpu_type_of; c++) {
		if (!v->slow[c])
			continue;
		if (!v->h->cpu_type_of[c] || (t && strcmp(t,
		    v->h->cpu_type_of[c]) != 0))
			return "slower cores";
		t = v->h->cpu_type_of[c];
	}
	return t ? pd_arena_printf(a, "%s cores", t) : "slower cores";
}

/* What the finding says happened, and its share and basis. */
static const char *
describe(struct pd_arena *a, const struct view *v, int one, double slow,
    double remote, double *share, const char **basis)
{
	uint64_t taken[PD_CPUMASK_WORDS] = { 0 }, sl[PD_CPUMASK_WORDS] = { 0 };
	const char *devs = netdevs_text(a, v);

	for (unsigned i = 0; i < v->n; i++)
		for (unsigned w = 0; w < PD_CPUMASK_WORDS; w++)
			taken[w] |= v->q[i].cpus[w];
	for (unsigned k = 0; k < PD_MAX_CPUS; k++)
		if (v->slow[k])
			set(sl, k);
	*share = PIN_GAIN_HI;
	if (one >= 0) {
		*share = one_cpu_share(a, v, one, basis);
		return pd_arena_printf(a, "All %u queue interrupts of %s are "
		    "taken by CPU %d alone", v->n, devs, one);
	}
	if (slow >= SLOW_SHARE) {
		*basis = "measured in a comparable case: GB10 with ConnectX-7, "
		    "the published last step 26.5 -> 28.1 GB/s combined LRO, "
		    "40 reads in flight and the interrupts on the Cortex-X925 "
		    "cores; the authors measured the interrupt part under 1 %";
		return pd_arena_printf(a, "%.0f %% of the %u queue interrupts "
		    "of %s are taken only by %s (CPUs %s, slower %s; taking "
		    "CPUs %s)", 100 * slow, v->n, devs, slow_name(a, v),
		    cpus_text(a, sl), v->slow_why, cpus_text(a, taken));
	}
	*basis = "the GB10 pinning case's under 1 % taken for a remote node "
	    "too (no measurement of the remote-node case in the published "
	    "cases)";
	return pd_arena_printf(a, "%.0f %% of the %u queue interrupts of %s "
	    "are taken by CPUs of another NUMA node than the device's (node "
	    "%d; taking CPUs %s)", 100 * remote, v->n, devs, v->node,
	    cpus_text(a, taken));
}

static void
judge(const struct pd_rule *self, struct view *v, struct pd_findings *out)
{
	struct pd_arena *a = out->arena;
	double slow = v->any_slow ? share_on(v, v->slow) : 0;
	double remote = v->any_remote ? share_on(v, v->remote) : 0;
	int one = one_cpu(v);
	uint64_t t[PD_CPUMASK_WORDS];
	unsigned nt;
	const char *basis, *what;
	double share;

	if (one < 0 && slow < SLOW_SHARE && remote < SLOW_SHARE)
		return;
	targets(v, t, &nt);
	if (!nt || (one >= 0 && nt < 2))
		return;		/* nowhere better to put them */
	struct pd_finding *f = pd_finding_new(out, self, v->h,
	    netdevs_text(a, v));

	what = describe(a, v, one, slow, remote, &share, &basis);
	pd_finding_summary(out, f, "%s, judged from %s; CPUs %s would take "
	    "them better.", what, src_name[v->src], cpus_text(a, t));
	f->gain_lo = 0;
	f->gain_hi = pd_gain_tenths(1 / (1 - share));
	f->gain_basis = basis;
	f->confidence = src_conf[v->src];
	f->confidence_note = v->src == SRC_MOVED ? NULL : pd_arena_printf(a,
	    "where the interrupts ran is read from %s; two timed "
	    "/proc/interrupts snapshots show where they do run",
	    src_name[v->src]);
	f->risk = PD_RISK_LOW;
	f->risk_note = "pinned interrupts no longer follow a CPU going "
	    "offline or busy; irqbalance, when kept, must not move them back";
	f->lever = (struct pd_lever){ .kind = PD_LEVER_EFFICIENCY,
		.netdev = v->q[0].nd, .share_lo = 0, .share_hi = share,
		.label = pd_arena_printf(a, "the queue interrupts of %s on "
		    "CPUs %s", f->subject, cpus_text(a, t)) };
	fix_lines(out, f, v, t, nt);
	f->verify = pd_arena_printf(a, "The queues' interrupt counts now "
	    "rise on CPUs %s only (compare two readings some seconds "
	    "apart).\ngrep -E '%s' /proc/interrupts", cpus_text(a, t),
	    grep_pattern(a, v));
	evidence(a, f, v, one >= 0 ? NULL : slow >= SLOW_SHARE ? v->slow :
	    v->remote);
}

static void
pd_check_irq_affinity(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	/* 140 KB: on the heap, bounded by MAX_QUEUES and PD_MAX_CPUS */
	struct view *v = pd_xmalloc(sizeof(*v));

	for (const struct pd_card *c = h->cards; c; c = c->next) {
		memset(v, 0, sizeof(*v));
		v->h = h;
		if (!gather(v, c))
			continue;
		take_cpus(v);
		find_slow(v);
		find_remote(v, c->pfs[0]);
		judge(self, v, out);
	}
	free(v);
}

static const struct pd_rule rules[] = {
	{
		.id = "nic.irq-affinity",
		.title = "NIC queue interrupts on slow cores, a remote NUMA "
		    "node, or all on one CPU",
		.doc = irq_doc,
		.physical = true,
		.links = irq_links,
		.needs = PD_HAVE_IRQ | PD_HAVE_NETDEV_PCI,
		.check = pd_check_irq_affinity,
	},
};

const struct pd_rule_group pd_rules_nic_irq = {
	.name = "nic",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

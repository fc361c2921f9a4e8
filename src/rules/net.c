/* Network stack rules: the per-CPU receive backlog (softnet) dropping
 * packets or running out of its budget.
 *
 * Between two timed /proc/net/softnet_stat snapshots, per CPU:
 *  - dropped moves: enqueue_to_backlog() found the CPU's input queue
 *    holding net.core.netdev_max_backlog packets (default 1000) and
 *    freed the packet.  No drop there is benign: the packet had been
 *    received whole, and TCP gets it back only by retransmission, so
 *    any drop per second is a finding;
 *  - time_squeeze moves: net_rx_action() stopped with work left
 *    because the pass used net.core.netdev_budget packets (default
 *    300) or net.core.netdev_budget_usecs (default 2000 us); the rest
 *    waits for the next softirq or ksoftirqd.  Squeezes drop nothing by
 *    themselves, and a burst squeezes now and then, so the threshold is
 *    100 per second on one CPU: each squeezed pass spent its whole
 *    budget, so 100 a second is 200 ms of every second (20 % of the
 *    CPU) in receive processing with work still queued when the time
 *    budget binds, or 30,000 packets a second arriving faster than a
 *    pass handles when the packet budget does.
 * The counters are 32 bits wide: a difference is taken modulo 2^32
 * (one wrap between snapshots some seconds apart).
 *
 * Gain: a dropped share p of the packets processed (softnet processed
 * over the same CPUs) comes back as retransmissions, so removing the
 * drops returns at most 1/(1-p) - 1 of the packet rate in re-sent
 * data; the congestion window TCP gives up after a loss can cost more
 * and is not counted.  Off the ladder. */
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"

#define SQUEEZE_PER_S 100.0	/* per CPU: 20 % of it at a 2 ms budget */
#define ONE_CPU_SHARE 0.5	/* one CPU with half the drops or squeezes */

struct cpu_rate {
	unsigned cpu;
	double processed, dropped, squeeze;	/* per second */
	const struct pd_evidence *ev_first, *ev_last;
};

static double
per_s(uint32_t a, uint32_t b, double secs)
{
	return (double)(uint32_t)(b - a) / secs;
}

/* The worst CPU by drops, then by squeezes; the totals over every CPU
 * in both snapshots. */
struct softnet_view {
	double secs;
	unsigned n_cpus;
	double processed, dropped, squeeze;
	struct cpu_rate worst_drop, worst_squeeze;
	unsigned n_dropping, n_squeezing;
};

static bool
view(const struct pd_host *h, struct softnet_view *v)
{
	const struct pd_softnet_snap *a = &h->softnet.snap[0],
	    *b = &h->softnet.snap[1];

	memset(v, 0, sizeof(*v));
	if (h->softnet.n != 2 || a->time < 0 || b->time <= a->time)
		return false;
	v->secs = (double)(b->time - a->time);
	for (unsigned c = 0; c < a->n_cpu && c < b->n_cpu; c++) {
		const struct pd_softnet_cpu *x = &a->cpu[c], *y = &b->cpu[c];

		if (!x->seen || !y->seen)
			continue;
		struct cpu_rate r = {
			.cpu = c,
			.processed = per_s(x->processed, y->processed, v->secs),
			.dropped = per_s(x->dropped, y->dropped, v->secs),
			.squeeze = per_s(x->time_squeeze, y->time_squeeze,
			    v->secs),
			.ev_first = &x->ev, .ev_last = &y->ev,
		};

		v->n_cpus++;
		v->processed += r.processed;
		v->dropped += r.dropped;
		v->squeeze += r.squeeze;
		if (r.dropped > 0)
			v->n_dropping++;
		if (r.squeeze >= SQUEEZE_PER_S)
			v->n_squeezing++;
		if (r.dropped > v->worst_drop.dropped)
			v->worst_drop = r;
		if (r.squeeze > v->worst_squeeze.squeeze)
			v->worst_squeeze = r;
	}
	return v->n_cpus > 0;
}

static long
sysctl_or(const struct pd_host *h, const char *key, long dflt, bool *known)
{
	long v;

	*known = pd_host_sysctl_int(h, key, &v) && v > 0;
	return *known ? v : dflt;
}

static void
check_softnet(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	struct softnet_view v;

	if (!view(h, &v))
		return;
	bool drops = v.n_dropping > 0, squeeze = v.n_squeezing > 0;

	if (!drops && !squeeze)
		return;
	struct pd_arena *ar = out->arena;
	struct pd_finding *f = pd_finding_new(out, self, h, "softnet");
	const struct cpu_rate *w = drops ? &v.worst_drop : &v.worst_squeeze;
	double share = drops ? w->dropped / v.dropped :
	    w->squeeze / v.squeeze;
	bool one_cpu = v.n_cpus >= 2 && share >= ONE_CPU_SHARE;
	double p = v.processed + v.dropped > 0 ?
	    v.dropped / (v.processed + v.dropped) : 0;
	bool k_backlog, k_budget, k_usecs;
	long backlog = sysctl_or(h, "net.core.netdev_max_backlog", 1000,
	    &k_backlog);
	long budget = sysctl_or(h, "net.core.netdev_budget", 300, &k_budget);
	long usecs = sysctl_or(h, "net.core.netdev_budget_usecs", 2000,
	    &k_usecs);

	pd_finding_summary(out, f, "The kernel's per-CPU receive backlog "
	    "%s over %.0f s: %s%s%s; CPU %u has %.0f %% of the %s%s.",
	    drops && squeeze ? "drops packets and runs out of budget" :
	    drops ? "drops packets" : "runs out of budget",
	    v.secs,
	    drops ? pd_arena_printf(ar, "%.0f packets/s dropped on %u CPU%s "
	    "(%.3f %% of the %.0f packets/s processed; netdev_max_backlog "
	    "%ld%s)", v.dropped, v.n_dropping, v.n_dropping == 1 ? "" : "s",
	    100 * p, v.processed, backlog, k_backlog ? "" : ", the default")
	    : "",
	    drops && squeeze ? "; " : "",
	    squeeze ? pd_arena_printf(ar, "%.0f budget squeezes/s, %u CPU%s "
	    "at %.0f/s or more (netdev_budget %ld, netdev_budget_usecs "
	    "%ld%s)", v.squeeze, v.n_squeezing, v.n_squeezing == 1 ? "" :
	    "s", SQUEEZE_PER_S, budget, usecs, k_budget && k_usecs ? "" :
	    ", defaults where not read") : "",
	    w->cpu, 100 * share, drops ? "drops" : "squeezes",
	    one_cpu ? ": one CPU does the receive work for all" : "");
	f->gain_lo = 0;
	f->gain_hi = drops && p < 0.5 ? pd_gain_tenths(1 / (1 - p)) :
	    drops ? 1000 : 0;
	if (drops && f->gain_hi == 0)
		f->gain_hi = 1;	/* under 0.05 %: still above none */
	f->gain_basis = drops ? pd_arena_printf(ar, "model: the dropped share "
	    "of the packets (%.0f dropped of %.0f/s reaching the backlog, "
	    "%.3f %%) is re-sent by TCP; removing the drops returns at most "
	    "1/(1-p) - 1 of the packet rate; the window TCP gives up after each "
	    "loss can cost more and is not counted; 0 when the drops are of "
	    "traffic not on the slow path", v.dropped, v.processed +
	    v.dropped, 100 * p) : "model: squeezes drop nothing by themselves: "
	    "the packets wait for the next softirq pass or ksoftirqd, which "
	    "adds latency and risks drops in the NIC's rings; no throughput "
	    "gain is claimed";
	f->confidence = drops ? 70 : 40;
	f->confidence_note = drops ? "the drops are counted per CPU, not per "
	    "flow: not every one need be of the workload's traffic" :
	    "the squeezes cost latency, whose size the counters do not give";
	f->risk = PD_RISK_LOW;
	f->risk_note = "a longer backlog holds more packets per CPU (memory "
	    "and queueing delay under overload); a larger budget lets receive "
	    "processing hold a CPU longer before other work runs; RPS moves "
	    "work to other CPUs at the cost of an inter-processor interrupt "
	    "per batch";
	if (drops)
		pd_finding_fix(out, f, "sudo sysctl -w "
		    "net.core.netdev_max_backlog=%ld", backlog * 2);
	if (squeeze) {
		pd_finding_fix(out, f, "sudo sysctl -w net.core.netdev_budget=%ld",
		    budget * 2);
		pd_finding_fix(out, f, "sudo sysctl -w "
		    "net.core.netdev_budget_usecs=%ld", usecs * 2);
	}
	if (one_cpu) {
		pd_finding_fix(out, f, "# CPU %u does the work: spread it with "
		    "more receive queues (ethtool -L IF combined N) or RPS "
		    "(echo MASK > /sys/class/net/IF/queues/rx-0/rps_cpus)",
		    w->cpu);
	}
	pd_finding_fix(out, f, "# persist: the same keys in "
	    "/etc/sysctl.d/90-softnet.conf");
	f->verify = "The dropped and time_squeeze columns stop moving under "
	    "the same load (the second and third, per CPU line).\n"
	    "cat /proc/net/softnet_stat; sleep 10; cat /proc/net/softnet_stat";
	pd_finding_evidence(f, w->ev_first);
	pd_finding_evidence(f, w->ev_last);
	const struct pd_kv *kv = pd_host_sysctl(h, drops ?
	    "net.core.netdev_max_backlog" : "net.core.netdev_budget");

	if (kv)
		pd_finding_evidence(f, &kv->ev);
}

static const char *const softnet_links[] = {
	/* RPS, RFS, the backlog and flow limit */
	"https://docs.kernel.org/networking/scaling.html",
	/* netdev_max_backlog, netdev_budget, netdev_budget_usecs */
	"https://docs.kernel.org/admin-guide/sysctl/net.html",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "net.softnet",
		.title = "The per-CPU receive backlog drops packets or runs "
		    "out of budget",
		.doc = "Packets a NIC hands to the kernel wait in a per-CPU "
		    "backlog, at most net.core.netdev_max_backlog of them "
		    "(default 1000); one arriving at a full backlog is "
		    "dropped and counted in the second column of "
		    "/proc/net/softnet_stat.  The receive softirq handles "
		    "them in passes of at most net.core.netdev_budget packets "
		    "(300) and net.core.netdev_budget_usecs (2000 us); a pass "
		    "that stops with work left counts a time_squeeze (third "
		    "column) and leaves the rest to the next pass or "
		    "ksoftirqd.  Fires when, between two timed snapshots, any "
		    "CPU drops (no backlog drop is benign: the packet had "
		    "arrived whole and comes back only as a retransmission), "
		    "or one CPU squeezes 100 times a second or more (each "
		    "squeezed pass used its whole budget: 100 a second is "
		    "20 % of the CPU at the 2 ms budget, or 30,000 packets a "
		    "second beyond the 300-packet one).  One CPU with half "
		    "the drops or squeezes or more does the receive work for "
		    "all: more queues or RPS spread it.  Gain: the dropped "
		    "share p of the packets reaching the backlog (softnet "
		    "processed plus dropped) is re-sent, so 0 to 1/(1-p) - 1; "
		    "the congestion window lost after each drop can cost more "
		    "and is not counted; squeezes alone claim no gain.  Off "
		    "the ladder.  Confidence 70 with drops, 40 with squeezes "
		    "only.  Since-boot totals (one snapshot, a sosreport's) "
		    "never fire it.",
		.sysctls = "net.core.netdev_max_backlog net.core.netdev_budget "
		    "net.core.netdev_budget_usecs",
		.links = softnet_links,
		.needs = PD_HAVE_SOFTNET,
		.check = check_softnet,
	},
};

const struct pd_rule_group pd_rules_net = {
	.name = "net",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

/* Builds a host's path: the busiest card and its PFs, the fixes the
 * rules found on it, the observed throughput, and what binds now. */
#include <math.h>
#include <string.h>
#include "finalize/cardlink.h"
#include "ladder/path.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"

#define IDLE_SHARE 0.01		/* a PF below 1 % of the busiest is idle */
#define HW_CLOSE 0.80		/* observed from 80 % of a ceiling: binds */
#define CPU_BUSY 0.50		/* cores at least half busy */
#define CPU_FIRE 0.05		/* invalidation share that can bind */

static double
card_rate(const struct pd_card *c)
{
	double sum = 0;

	for (unsigned i = 0; i < c->n_pfs; i++) {
		const struct pd_pf_path *p = &c->pfs[i]->path;

		if (p->rx_known && p->rx_is_rate)
			sum += p->rx;
		if (p->nd && p->nd->kstat_rate.known)
			sum += p->nd->kstat_rate.rx_per_s +
			    p->nd->kstat_rate.tx_per_s;
	}
	return sum;
}

/* The card that carries most, else the first with a joined netdev
 * (with a workload output, the path is the NIC's). */
static const struct pd_card *
busiest_card(const struct pd_host *h)
{
	const struct pd_card *best = NULL;
	double most = -1;

	for (const struct pd_card *c = h->cards; c; c = c->next) {
		bool joined = false;

		for (unsigned i = 0; i < c->n_pfs; i++)
			joined = joined || c->pfs[i]->netdev;
		if (joined && card_rate(c) > most) {
			most = card_rate(c);
			best = c;
		}
	}
	return best;
}

static void
view_pfs(struct path *p)
{
	double busiest = 0;
	bool rates = false;

	for (unsigned i = 0; i < p->card->n_pfs; i++) {
		p->pf[p->n_pf] = p->card->pfs[i]->path;
		if (p->pf[p->n_pf].rx_known && p->pf[p->n_pf].rx_is_rate) {
			rates = true;
			if (p->pf[p->n_pf].rx > busiest)
				busiest = p->pf[p->n_pf].rx;
		}
		p->n_pf++;
	}
	for (unsigned i = 0; i < p->n_pf; i++)
		p->active[i] = p->pf[i].nd && (!rates || (p->pf[i].rx_is_rate &&
		    p->pf[i].rx >= IDLE_SHARE * busiest));
}

static bool
spdk_name(const char *s)
{
	return s && (strncmp(s, "spdk_", 5) == 0 || strstr(s, "spdk") ||
	    strncmp(s, "nvme_tcp_qpair_process_completions", 34) == 0);
}

/* SPDK polls its queues from user space: its cores are always busy. */
static bool
polling(const struct pd_host *h)
{
	for (const struct pd_workload *w = h->workloads; w; w = w->next)
		if (strcmp(w->tool, "spdk_nvme_perf") == 0)
			return true;
	for (const struct pd_profile *pr = h->profiles; pr; pr = pr->next) {
		for (unsigned i = 0; i < pr->n_dsos; i++)
			if (spdk_name(pr->dsos[i].name))
				return true;
		for (unsigned i = 0; i < pr->n_syms && i < 64; i++)
			if (!pr->syms[i].kernel && spdk_name(pr->syms[i].name))
				return true;
	}
	return false;
}

static bool
on_path(const struct path *p, const struct pd_lever *lv)
{
	if (lv->card)
		return lv->card == p->card;
	if (lv->netdev)
		for (unsigned i = 0; i < p->n_pf; i++)
			if (p->pf[i].nd == lv->netdev)
				return true;
	return !lv->netdev && (lv->kind == PD_LEVER_IOMMU_LAZY ||
	    lv->kind == PD_LEVER_EFFICIENCY || lv->kind == PD_LEVER_CPU_FREQ);
}

static void
collect_fixes(struct path *p, struct pd_findings *fs)
{
	for (size_t i = 0; i < fs->n && p->n_fix < PD_LADDER_STEPS; i++) {
		struct pd_finding *f = fs->v[i];

		if (f->host != p->h || f->lever.kind == PD_LEVER_NONE ||
		    !on_path(p, &f->lever))
			continue;
		if (f->lever.kind == PD_LEVER_IOMMU_LAZY) {
			if (p->iommu)
				continue;	/* one per host: the first */
			p->iommu = &f->lever;
		}
		p->fix[p->n_fix++] = (struct path_fix){ f, &f->lever };
	}
}

static const struct pd_lever *
has_kind(const struct path *p, enum pd_lever_kind k)
{
	for (unsigned i = 0; i < p->n_fix; i++)
		if (p->fix[i].lv->kind == k)
			return p->fix[i].lv;
	return NULL;
}

static const char *
rate(struct pd_arena *a, double gbs)
{
	return pd_rate_str(a, gbs * 1e9);
}

/* What binds now, and how the evidence says so. */
void
pd_path_decide(struct path *p)
{
	p->binds = BIND_HW;	/* provisional: eval reads a_meas = 1 */
	p->a_meas = 1;
	struct outcome hw = pd_path_eval(p, 0, -1, EST_EXP, EST_EXP);
	double close = p->observed / hw.hw_ideal;
	const struct pd_lever *io = p->iommu;

	if (isfinite(hw.hw_ideal) && close >= HW_CLOSE) {
		p->a_meas = close > 1 ? 1 : close;
		p->binds_how = pd_arena_printf(p->a, "the observed %s is %.0f "
		    "%% of what %s carries%s", rate(p->a, p->observed),
		    100 * close,
		    hw.binds, close > 1 ? " (above it: the ceiling is taken "
		    "as reached)" : "");
		return;
	}
	if (io && !p->polling && io->busy >= CPU_BUSY &&
	    io->f_self >= CPU_FIRE) {
		p->binds = BIND_CPU;
		p->binds_how = pd_arena_printf(p->a, "the observed %s is %.0f "
		    "%% of the %s the hardware carries now while %s "
		    "are %.0f %% busy, %.0f %% of it in strict IOMMU "
		    "invalidation", rate(p->a, p->observed), 100 * close,
		    rate(p->a, hw.hw_ideal), pd_prof_group_cores(p->a,
		    io->cores, true),
		    100 * io->busy, 100 * io->f_self);
		return;
	}
	const struct pd_lever *gso = has_kind(p, PD_LEVER_SW_GSO);

	if (gso) {
		p->binds = BIND_SWGSO;
		p->binds_how = pd_arena_printf(p->a, "%s, and the observed %s "
		    "is %.0f %% of the %s the hardware carries", gso->capture ?
		    "the captures show the host segmenting the guest's GSO "
		    "packets in software" : "ip -d link shows the guest side "
		    "allowing larger GSO packets than the physical NIC, so the "
		    "host segments them in software (not confirmed by "
		    "captures)", rate(p->a, p->observed), 100 * close,
		    rate(p->a, hw.hw_ideal));
		return;
	}
	p->binds = BIND_UNKNOWN;
	p->binds_how = pd_arena_printf(p->a, "the observed %s is only %.0f %% "
	    "of the %s the hardware carries, and nothing in the bundle shows "
	    "what else binds%s", rate(p->a, p->observed), isfinite(close) ?
	    100 * close : 0, isfinite(hw.hw_ideal) ? rate(p->a, hw.hw_ideal) :
	    "unknown ceiling",
	    p->polling ? " (a polling initiator is always busy, so its busy "
	    "share says nothing)" : " (add a perf record -a -g profile taken "
	    "under the load)");
}

/* A lifted frequency cap widens only a CPU that binds the path.  Where
 * the hardware or software segmentation binds, it stays a step that
 * gains nothing; where the evidence shows nothing binding, the fix
 * leaves the ladder and keeps its own gain, at the rule's lower
 * confidence for a path not known to be CPU-bound. */
static void
keep_cpu_freq(struct path *p)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->n_fix; i++) {
		struct pd_finding *f = p->fix[i].f;

		if (f->lever.kind == PD_LEVER_CPU_FREQ &&
		    p->binds == BIND_UNKNOWN) {
			f->lever.kind = PD_LEVER_NONE;
			f->confidence = f->confidence > 30 ? 30 : f->confidence;
			f->confidence_note = "nothing in the bundle shows what "
			    "binds this host's main path (the CPU or something "
			    "else), so the fix may gain nothing there";
			continue;
		}
		p->fix[n++] = p->fix[i];
	}
	p->n_fix = n;
}

/* A NIC of the host's own: a card that is not a virtual machine's
 * emulated device (a guest's path belongs to its host). */
static bool
own_nic(const struct pd_host *h)
{
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		const char *drv = c->pfs[0]->driver;

		if ((!drv || strcmp(drv, "virtio-pci") != 0) &&
		    (!c->desc || !strstr(c->desc, "Virtio")))
			return true;
	}
	return false;
}

bool
pd_path_build(struct path *p, const struct pd_host *h,
    struct pd_findings *fs, const char **needs)
{
	memset(p, 0, sizeof(*p));
	p->h = h;
	p->a = fs->arena;
	p->card = busiest_card(h);
	*needs = NULL;
	if (!p->card) {
		if (own_nic(h) || h->workloads)
			*needs = "the NIC's interface joined to its PCI function "
			    "(ethtool -i IF for its bus-info, or ip -d link, with "
			    "lspci -vv)";
		return false;
	}
	view_pfs(p);
	if (!pd_path_observed(p)) {
		*needs = "an observed throughput: the benchmark's output "
		    "(fio, iperf3, spdk_nvme_perf), two ethtool -S snapshots "
		    "some seconds apart under load, or a capture through the "
		    "NIC";
		return false;
	}
	p->strict = h->iommu.mode == PD_IOMMU_STRICT;
	p->polling = polling(h);
	collect_fixes(p, fs);
	pd_path_decide(p);
	keep_cpu_freq(p);
	return true;
}

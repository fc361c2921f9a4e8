/* The path model and its evaluation: what a set of fixes leaves the
 * path able to carry, and what binds it then.
 *
 * The path carries min(CPU, software segmentation, hardware x a), where
 * hardware is the card's capacity with I/O shared equally by the PFs in
 * use (pd_card_capacity: links at their MaxPayload, ports at their MTU),
 * less strict-mode translation, and a is the share of that ceiling real
 * transfers reach.  Every constant below has its measurement next to it
 * (NVIDIA GB10, ConnectX-7 on two Gen5 x4 links, NVMe/TCP 1 MiB reads;
 * Proxmox guest behind an RTL8125). */
#include <math.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "ladder/path.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"

/* Realised share of the binding hardware ceiling once nothing else
 * binds, LRO on and reads in flight tuned: GB10 kernel initiator 28.1
 * of 29.9 GB/s (0.94), SPDK 28.9 (0.97), one link 14.8 of 14.95 (0.99),
 * lazy/128 25.1 and 26.2 of 26.9 (0.93, 0.97); the Proxmox host 2.14 of
 * the 2.354 Gbit/s 2.5GbE goodput (0.91). */
static const double a_ref[EST_N] = { 0.90, 0.95, 0.99 };
/* Strict invalidation evicts IOTLB entries, so DMA after an unmap waits
 * for table walks; the work grows with the TLPs per byte.  SPDK (not
 * CPU-bound) on GB10: strict/128 22.8 vs lazy/128 26.2 GB/s, 13 % less
 * at MaxPayload 128, taken as 13 % x 128/MPS (3.3 % at 512, measured
 * 1.7 %: 28.4 vs 28.9). */
#define STRICT_XLATE_LOSS 0.13
/* Above this invalidation share, queue contention is at work: GB10 at
 * f = 0.57 gained 3.9x against the 2.3x Amdahl bound and rose to the
 * links' ceiling, so the CPU no longer bound the reads at all. */
#define CONTENTION_SHARE 0.30

double
pd_strict_xlate_loss(int mps)
{
	return mps > 0 ? STRICT_XLATE_LOSS * 128 / mps : STRICT_XLATE_LOSS;
}

static double
share(const struct pd_lever *lv, enum est e)
{
	return e == EST_LO ? lv->share_lo : e == EST_HI ? lv->share_hi :
	    (lv->share_lo + lv->share_hi) / 2;
}

static bool
applied(unsigned mask, unsigned i)
{
	return (mask >> i) & 1u;
}

static bool
is_which(int which, unsigned i)
{
	return which == (int)i || which == EVAL_ALL;
}

static enum est
est_of(int which, unsigned i, enum est e_fix)
{
	return is_which(which, i) ? e_fix : EST_EXP;
}

/* Efficiency losses left in the path: each unmade fix keeps its
 * expected loss; the fix evaluated at e returns 1/(1-share(e)). */
static double
efficiency(const struct path *p, unsigned mask, int which, enum est e_fix)
{
	double eff = 1;

	for (unsigned i = 0; i < p->n_fix; i++) {
		const struct pd_lever *lv = p->fix[i].lv;

		if (lv->kind != PD_LEVER_EFFICIENCY)
			continue;
		if (!applied(mask, i))
			eff *= 1 - share(lv, EST_EXP);
		else if (is_which(which, i))
			eff *= (1 - share(lv, EST_EXP)) / (1 - share(lv, e_fix));
	}
	return eff;
}

static bool
on_link(const struct pd_pcidev *d, const struct pd_pcidev *pf)
{
	return d && d->domain == pf->domain && d->bus == pf->bus &&
	    d->dev == pf->dev;
}

/* The completion size of PF k's link on a transmit path, where the
 * device reads what it sends from memory: the root complex answers
 * each read request of at most MaxReadReq bytes with completions of at
 * most MaxPayload; mps elsewhere (received data is posted writes). */
static int
completions(const struct path *p, unsigned mask, unsigned k, int mps)
{
	int mrrs = p->pf[k].pf->mrrs;

	if (p->dir != PD_LADDER_TRANSMIT || mrrs <= 0)
		return mps;
	for (unsigned i = 0; i < p->n_fix; i++) {
		const struct pd_lever *lv = p->fix[i].lv;

		if (applied(mask, i) && lv->kind == PD_LEVER_MRRS &&
		    lv->mrrs_to > mrrs && (lv->card == p->card ||
		    on_link(lv->dev, p->pf[k].pf)))
			mrrs = lv->mrrs_to;
	}
	return mrrs < mps ? mrrs : mps;
}

/* Each PF's link as the fixes in mask leave it. */
static void
links(const struct path *p, unsigned mask, int *mps, int *mts, int *width)
{
	for (unsigned k = 0; k < p->n_pf; k++) {
		mps[k] = p->pf[k].mps;
		mts[k] = p->pf[k].mts;
		width[k] = p->pf[k].width;
	}
	for (unsigned i = 0; i < p->n_fix; i++) {
		const struct pd_lever *lv = p->fix[i].lv;

		if (!applied(mask, i))
			continue;
		for (unsigned k = 0; k < p->n_pf; k++) {
			const struct pd_pcidev *pf = p->pf[k].pf;

			if (lv->kind == PD_LEVER_MPS && lv->mps_to > mps[k] &&
			    (lv->card == p->card || on_link(lv->dev, pf)))
				mps[k] = lv->mps_to;
			if (lv->kind == PD_LEVER_LINK_TRAIN &&
			    on_link(lv->dev, pf)) {
				mts[k] = lv->mts_to > mts[k] ? lv->mts_to : mts[k];
				width[k] = lv->width_to > width[k] ?
				    lv->width_to : width[k];
			}
		}
	}
}

static bool
kind_applied(const struct path *p, unsigned mask, enum pd_lever_kind k,
    int *idx)
{
	for (unsigned i = 0; i < p->n_fix; i++)
		if (p->fix[i].lv->kind == k && applied(mask, i)) {
			if (idx)
				*idx = (int)i;
			return true;
		}
	return false;
}

static const char *
hw_name(const struct path *p, const struct pd_cap_bind *b,
    const struct pd_pf_path *ports, const int *mps, const int *rrq,
    const int *mts, const int *width, unsigned n_links, bool xlate)
{
	char ln[32];
	const struct pd_pf_path *pf = &p->pf[b->pf];
	const char *s;
	int mbps = pf->nd ? pf->nd->speed_mbps : 0;

	/* a port-speed fix: goodput is linear in the speed at one MTU */
	if (b->port && ports[b->pf].port_gbs > pf->port_gbs && pf->nd)
		mbps = (int)(ports[b->pf].port_gbs / pf->port_gbs * mbps + 0.5);
	if (b->port)
		return pd_arena_printf(p->a, "the port of %s (%d Mb/s, MTU %d)%s",
		    pf->nd ? pf->nd->name : pf->pf->bdf, mbps,
		    pf->nd && pf->nd->mtu > 0 ?
		    pf->nd->mtu : 1500, b->on_it < b->active ?
		    pd_arena_printf(p->a, ", which carries %u of the %u PFs "
		    "in use", b->on_it, b->active) : "");
	pd_link_name(ln, sizeof(ln), mts[b->pf], width[b->pf]);
	const char *rq = rrq[b->pf] ? pd_arena_printf(p->a, ", MaxReadReq %d",
	    rrq[b->pf]) : "";

	if (b->on_it * n_links == b->active)
		s = pd_arena_printf(p->a, "the PCIe link%s (%s%s, MaxPayload "
		    "%d%s)", n_links > 1 ? "s" : "", n_links > 1 ?
		    pd_arena_printf(p->a, "%u x ", n_links) : "", ln,
		    mps[b->pf], rq);
	else
		s = pd_arena_printf(p->a, "the PCIe link of %s (%s, MaxPayload "
		    "%d%s), which carries %u of the %u PFs in use",
		    pf->root ? pf->root->bdf : pf->pf->bdf, ln, mps[b->pf], rq,
		    b->on_it, b->active);
	return xlate ? pd_arena_printf(p->a, "%s, less strict-mode IOMMU "
	    "translation", s) : s;
}

static unsigned
count_links(const struct path *p, const bool *act)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->n_pf; i++) {
		bool seen = false;

		for (unsigned k = 0; k < i && !seen; k++)
			seen = act[k] && pd_same_link(&p->pf[i], &p->pf[k]);
		n += act[i] && !seen;
	}
	return n;
}

/* The PFs the applied PD_LEVER_PFS fixes add, as bits of p->pf. */
static unsigned
pfs_added(const struct path *p, unsigned mask)
{
	unsigned bits = 0;

	for (unsigned i = 0; i < p->n_fix; i++)
		if (p->fix[i].lv->kind == PD_LEVER_PFS && applied(mask, i))
			bits |= p->fix[i].lv->pf_mask;
	return bits;
}

/* Each PF's port goodput as the port-speed fixes in mask leave it: a
 * port's PFs (one function number) share its speed. */
static void
ports(const struct path *p, unsigned mask, struct pd_pf_path *pf)
{
	for (unsigned k = 0; k < p->n_pf; k++)
		pf[k] = p->pf[k];
	for (unsigned i = 0; i < p->n_fix; i++) {
		const struct pd_lever *lv = p->fix[i].lv;
		int j = -1;

		if (!applied(mask, i) || lv->kind != PD_LEVER_PORT_SPEED)
			continue;
		for (unsigned k = 0; k < p->n_pf && j < 0; k++)
			if (p->pf[k].nd == lv->netdev)
				j = (int)k;
		for (unsigned k = 0; j >= 0 && k < p->n_pf; k++) {
			double g = pd_port_goodput_gbs(lv->speed_to,
			    lv->netdev->mtu);

			if (pf[k].pf->fn == p->pf[j].pf->fn &&
			    g > pf[k].port_gbs)
				pf[k].port_gbs = g;
		}
	}
}

/* The hardware ceiling in GB/s with the fixes in mask, and its name. */
static double
hardware(const struct path *p, unsigned mask, const char **name)
{
	int mps[PD_CARD_MAX_PFS], mts[PD_CARD_MAX_PFS], width[PD_CARD_MAX_PFS];
	double link[PD_CARD_MAX_PFS];
	bool act[PD_CARD_MAX_PFS];
	struct pd_pf_path pf[PD_CARD_MAX_PFS];
	int rrq[PD_CARD_MAX_PFS] = { 0 };	/* MaxReadReq where it binds */
	bool all = kind_applied(p, mask, PD_LEVER_ALL_PFS, NULL);
	unsigned added = pfs_added(p, mask);
	int min_mps = 4096;
	struct pd_cap_bind b;

	links(p, mask, mps, mts, width);
	ports(p, mask, pf);
	for (unsigned k = 0; k < p->n_pf; k++) {
		int cpl = completions(p, mask, k, mps[k]);

		link[k] = pd_pcie_payload_gbs(mts[k], width[k], cpl);
		if (cpl < mps[k])
			rrq[k] = cpl;
		act[k] = p->active[k] || ((all || (added >> k & 1u)) &&
		    p->pf[k].nd);
		if (act[k] && mps[k] < min_mps)
			min_mps = mps[k];
	}
	double hw = pd_card_capacity(pf, link, act, p->n_pf, &b);
	bool xlate = p->strict && !kind_applied(p, mask, PD_LEVER_IOMMU_LAZY,
	    NULL);

	if (b.pf < 0 || !isfinite(hw)) {
		*name = "nothing known";
		return INFINITY;
	}
	if (xlate)
		hw *= 1 - pd_strict_xlate_loss(min_mps);
	*name = hw_name(p, &b, pf, mps, rrq, mts, width, count_links(p, act),
	    xlate);

	return hw;
}

/* Realised share of the hardware ceiling with every efficiency loss
 * removed: measured on this host when the hardware binds now. */
static double
attainment(const struct path *p, enum est e)
{
	if (p->binds != BIND_HW)
		return a_ref[e];
	double a = p->a_meas / efficiency(p, 0, -1, EST_EXP);

	if (e == EST_LO && a > a_ref[EST_LO])
		a = a_ref[EST_LO];
	if (e == EST_HI && a < a_ref[EST_HI])
		a = a_ref[EST_HI];
	return a > 1 ? 1 : a;
}

/* A lifted frequency cap scales what the binding CPU carries by up to
 * the ratio of the frequencies (share_hi = ratio - 1, a CPU-bound path
 * whose work scales with the clock); share_lo where memory stalls do
 * not scale. */
static double
freq(const struct path *p, unsigned mask, int which, enum est e_fix)
{
	int i;

	if (!kind_applied(p, mask, PD_LEVER_CPU_FREQ, &i))
		return 1;
	return 1 + share(p->fix[i].lv, est_of(which, (unsigned)i, e_fix));
}

/* The CPU's ceiling: the observed throughput while it binds; after the
 * IOMMU fix at least the Amdahl bound of the invalidation share, and
 * no longer a ceiling once contention was at work; a lifted frequency
 * cap scales it. */
static double
cpu(const struct path *p, unsigned mask, int which, enum est e_fix)
{
	int i;

	if (p->binds != BIND_CPU)
		return INFINITY;
	double f = freq(p, mask, which, e_fix);

	if (!kind_applied(p, mask, PD_LEVER_IOMMU_LAZY, &i))
		return p->observed * f;
	const struct pd_lever *lv = p->fix[i].lv;
	enum est e = est_of(which, (unsigned)i, e_fix);

	if (e == EST_LO)
		return p->observed * pd_amdahl(lv->f_self) * f;
	if (e == EST_EXP && lv->f_self < CONTENTION_SHARE)
		return p->observed * pd_amdahl(lv->f_incl) * f;
	return INFINITY;
}

/* Software segmentation's ceiling: the observed throughput while it
 * binds; after the fix, the measured +21 to +23 % where expected. */
static double
swgso(const struct path *p, unsigned mask, int which, enum est e_fix)
{
	int i;

	if (p->binds != BIND_SWGSO)
		return INFINITY;
	if (!kind_applied(p, mask, PD_LEVER_SW_GSO, &i))
		return p->observed;
	if (est_of(which, (unsigned)i, e_fix) != EST_EXP)
		return INFINITY;
	return p->observed * (1 + share(p->fix[i].lv, EST_EXP));
}

struct outcome
pd_path_eval(const struct path *p, unsigned mask, int which, enum est e_fix,
    enum est e_hw)
{
	const char *hname;
	double hw = hardware(p, mask, &hname);
	double real = hw * attainment(p, e_hw) *
	    efficiency(p, mask, which, e_fix);
	double c = cpu(p, mask, which, e_fix);
	double g = swgso(p, mask, which, e_fix);
	double u = p->binds == BIND_UNKNOWN && e_hw != EST_HI ?
	    p->observed : INFINITY;
	struct outcome o = { .gbs = real > hw ? hw : real, .binds = hname,
		.hw_ideal = hw, .hw_binds = hname, .by_hw = true };

	if (c < o.gbs) {
		o.gbs = c;
		o.by_hw = false;
		o.binds = c > p->observed ? "the CPU (at the Amdahl bound of "
		    "what is left)" : pd_arena_printf(p->a, "the CPU (%s "
		    "busy in strict IOMMU invalidation)", p->iommu &&
		    p->iommu->cores ? pd_prof_group_cores(p->a,
		    p->iommu->cores, false) : "the cores");
	}
	if (g < o.gbs) {
		o.gbs = g;
		o.by_hw = false;
		o.binds = g > p->observed ? "the host's transmit path (as "
		    "measured after the same fix)" : "the host's CPU "
		    "segmenting the guest's GSO packets in software";
	}
	if (u < o.gbs) {
		o.gbs = u;
		o.by_hw = false;
		o.binds = "something the bundle does not show (the target, "
		    "the network or the application)";
	}
	return o;
}

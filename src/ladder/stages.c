/* The stages of a path with what each carries as the host is now, and
 * the arithmetic behind each ceiling in words. */
#include <math.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "ladder/path.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"

static void
add(struct pd_ladder *l, const char *stage, const char *subject,
    double gbs, bool binds, const char *basis)
{
	if (l->n_stages == PD_LADDER_STAGES)
		return;
	l->stages[l->n_stages++] = (struct pd_ladder_stage){ stage, subject,
		gbs * 1e9, binds, basis };
}

static void
ports(const struct path *p, struct pd_ladder *l)
{
	for (unsigned i = 0; i < p->n_pf; i++) {
		const struct pd_pf_path *f = &p->pf[i];
		bool first = true;

		for (unsigned k = 0; k < i; k++)
			first = first && p->pf[k].pf->fn != f->pf->fn;
		if (!first || !f->nd || f->port_gbs <= 0)
			continue;
		int mtu = f->nd->mtu > 0 ? f->nd->mtu : 1500;

		add(l, "port", f->nd->name, f->port_gbs, false,
		    pd_arena_printf(p->a, "Ethernet goodput at MTU %d: %d "
		    "payload bytes in every %d on the wire of %d Mb/s", mtu,
		    mtu - 52, mtu + 38, f->nd->speed_mbps));
	}
}

static void
pcie_links(const struct path *p, struct pd_ladder *l)
{
	for (unsigned i = 0; i < p->n_pf; i++) {
		const struct pd_pf_path *f = &p->pf[i];
		bool first = true;
		char ln[32];

		for (unsigned k = 0; k < i; k++)
			first = first && !pd_same_link(&p->pf[k], f);
		if (!first || f->mts <= 0 || f->width <= 0)
			continue;
		pd_link_name(ln, sizeof(ln), f->mts, f->width);
		/* sending, the device reads memory: completions of at most
		 * MaxReadReq bytes where that is below MaxPayload */
		int c = p->dir == PD_LADDER_TRANSMIT && f->pf->mrrs > 0 &&
		    f->pf->mrrs < f->mps ? f->pf->mrrs : f->mps;

		add(l, "pcie-link", pd_arena_printf(p->a, "%s (%s)", f->root ?
		    f->root->bdf : f->pf->bdf, ln),
		    pd_pcie_payload_gbs(f->mts, f->width, c), false,
		    pd_arena_printf(p->a, "%s raw %.2f GB/s x TLP payload "
		    "efficiency %d/(%d+20) = %.1f %% at %s x 99 %% "
		    "(completions, flow control, link maintenance) x 99.6 %% "
		    "(Ethernet, TCP and NVMe/TCP headers with LRO)", ln,
		    pd_pcie_raw_gbs(f->mts, f->width), c, c,
		    100 * pd_pcie_tlp_eff(c), c < f->mps ?
		    pd_arena_printf(p->a, "MaxReadReq %d (read completions, "
		    "MaxPayload %d)", c, f->mps) : pd_arena_printf(p->a,
		    "MaxPayload %d", f->mps)));
	}
}

static void
spread(const struct path *p, struct pd_ladder *l, double hw)
{
	char used[256] = "";
	unsigned n = 0, have = 0;

	for (unsigned i = 0; i < p->n_pf; i++) {
		size_t len = strlen(used);

		have += p->pf[i].nd != NULL;
		if (!p->active[i])
			continue;
		n++;
		snprintf(used + len, sizeof(used) - len, "%s%s", len ? ", " : "",
		    p->pf[i].nd->name);
	}
	if (p->n_pf < 2)
		return;
	add(l, "pf-spread", pd_arena_printf(p->a, "%u of %u PFs in use (%s)",
	    n, have, used), hw, false, pd_arena_printf(p->a, "I/O shared "
	    "equally by the PFs in use: the card delivers at most the ceiling "
	    "of each link or port x PFs in use / PFs in use on it"));
}

void
pd_path_stages(const struct path *p, struct pd_ladder *l)
{
	struct outcome now = pd_path_eval(p, 0, -1, EST_EXP, EST_EXP);
	double hw = now.hw_ideal;

	ports(p, l);
	pcie_links(p, l);
	if (p->strict) {
		int mps = 4096;

		for (unsigned i = 0; i < p->n_pf; i++)
			if (p->active[i] && p->pf[i].mps < mps)
				mps = p->pf[i].mps;
		double loss = pd_strict_xlate_loss(mps);

		spread(p, l, hw / (1 - loss));
		add(l, "iommu-translation", "strict mode", hw, false,
		    pd_arena_printf(p->a, "strict invalidation evicts IOTLB "
		    "entries, so DMA after each unmap waits for table walks, "
		    "more of them the more TLPs per byte: 13 %% x 128/%d = "
		    "%.1f %% less, measured on GB10 with SPDK (not CPU-bound): "
		    "strict/128 22.8 against lazy/128 26.2 GB/s", mps,
		    100 * loss));
	} else {
		spread(p, l, hw);
	}
	if (p->binds == BIND_CPU)
		add(l, "cpu", pd_prof_group_cores(p->a, p->iommu->cores, false),
		    p->observed, true, p->binds_how);
	if (p->binds == BIND_SWGSO)
		add(l, "virtual-path", "guest -> tap -> bridge -> physical NIC",
		    p->observed, true, p->binds_how);
	if (p->binds == BIND_HW) {
		/* the hardware stage the observed throughput is close to */
		for (unsigned i = l->n_stages; i-- > 0;)
			if (fabs(l->stages[i].ceiling - hw * 1e9) < 1e6) {
				l->stages[i].binds = true;
				break;
			}
	}
}

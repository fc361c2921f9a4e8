/* One NIC function's path: link, ceiling, port goodput, receive rate. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"

double
pd_port_goodput_gbs(int speed_mbps, int mtu)
{
	if (speed_mbps <= 0)
		return 0;
	return pd_eth_goodput_gbits(speed_mbps / 1000.0, mtu > 0 ? mtu :
	    1500) / 8.0;
}

void
pd_pf_path(const struct pd_pcidev *pf, struct pd_pf_path *p)
{
	bool live = !pf->lnk_down && pf->lnksta_mts > 0 && pf->lnksta_width > 0;

	*p = (struct pd_pf_path){ .pf = pf, .nd = pf->netdev,
		.root = pf->root_port };
	p->mts = live ? pf->lnksta_mts : pf->lnkcap_mts;
	p->width = live ? pf->lnksta_width : pf->lnkcap_width;
	p->mps = pf->mps > 0 ? pf->mps : 128;
	p->ceiling_gbs = pd_pcie_ceiling_gbs(p->mts, p->width, p->mps);
	p->tx_rate = -1;
	if (!p->nd)
		return;
	const struct pd_ctr_value *tx = &p->nd->ctr[PD_CTR_TX_BYTES];

	if (tx->known && tx->is_rate)
		p->tx_rate = tx->per_s;
	else if (p->nd->kstat_rate.known)
		p->tx_rate = p->nd->kstat_rate.tx_per_s;
	p->port_gbs = pd_port_goodput_gbs(p->nd->speed_mbps, p->nd->mtu);
	const struct pd_ctr_value *v = &p->nd->ctr[PD_CTR_RX_BYTES];

	if (v->known) {
		p->rx_known = true;
		p->rx_is_rate = v->is_rate;
		p->rx = v->is_rate ? v->per_s : (double)v->total;
	}
}

bool
pd_same_link(const struct pd_pf_path *a, const struct pd_pf_path *b)
{
	if (a->root || b->root)
		return a->root == b->root;
	return a->pf->domain == b->pf->domain && a->pf->bus == b->pf->bus;
}

/* Socket-direct cards keep the port in the function number. */
static bool
same_port(const struct pd_pf_path *a, const struct pd_pf_path *b)
{
	return a->pf->fn == b->pf->fn;
}

double
pd_card_capacity(const struct pd_pf_path *p, const double *link_gbs,
    const bool *active, unsigned n, struct pd_cap_bind *bind)
{
	struct pd_cap_bind b = { .pf = -1 };
	double cap = INFINITY;

	for (unsigned i = 0; i < n; i++)
		b.active += active[i];
	for (unsigned i = 0; i < n && b.active; i++) {
		unsigned on_link = 0, on_port = 0;

		if (!active[i])
			continue;
		for (unsigned k = 0; k < n; k++) {
			on_link += active[k] && pd_same_link(&p[i], &p[k]);
			on_port += active[k] && same_port(&p[i], &p[k]);
		}
		double l = link_gbs[i] * b.active / on_link;
		double pc = p[i].port_gbs > 0 ? p[i].port_gbs * b.active /
		    on_port : INFINITY;

		if (l > 0 && l < cap) {
			cap = l;
			b.pf = (int)i, b.port = false, b.on_it = on_link;
		}
		if (pc < cap) {
			cap = pc;
			b.pf = (int)i, b.port = true, b.on_it = on_port;
		}
	}
	if (bind)
		*bind = b;
	return b.pf < 0 ? 0 : cap;
}

void
pd_link_name(char *buf, size_t n, int mts, int width)
{
	int gen = pd_pcie_gen(mts);

	if (gen && width > 0)
		snprintf(buf, n, "Gen%d x%d", gen, width);
	else
		snprintf(buf, n, "unknown");
}

void
pd_fmt_bytes(char *buf, size_t n, double v, bool per_s)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB",
		"PB" };
	int u = 0;

	while (v >= 1000 && u < 5) {
		v /= 1000;
		u++;
	}
	snprintf(buf, n, u ? "%.2f %s%s" : "%.0f %s%s", v, units[u],
	    per_s ? "/s" : "");
}

const char *
pd_tri_onoff(enum pd_tri t)
{
	return t == PD_YES ? "on" : t == PD_NO ? "off" : "?";
}

const char *
pd_rate_str(struct pd_arena *a, double bytes_per_s)
{
	char buf[32];

	pd_fmt_bytes(buf, sizeof(buf), bytes_per_s, true);
	return pd_arena_strdup(a, buf);
}

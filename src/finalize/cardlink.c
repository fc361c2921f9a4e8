/* One NIC function's path: link, ceiling, port goodput, receive rate. */
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"

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
	if (!p->nd)
		return;
	p->port_gbs = pd_port_goodput_gbs(p->nd->speed_mbps, p->nd->mtu);
	const struct pd_ctr_value *v = &p->nd->ctr[PD_CTR_RX_BYTES];

	if (v->known) {
		p->rx_known = true;
		p->rx_is_rate = v->is_rate;
		p->rx = v->is_rate ? v->per_s : (double)v->total;
	}
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

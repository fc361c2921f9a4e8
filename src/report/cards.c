/* One row of the per-card table as text, from the PF's path that
 * finalize computed. */
#include <stdio.h>
#include <string.h>
#include "finalize/cardlink.h"
#include "pathdoctor/model.h"
#include "report/cards.h"

void
pd_card_row(const struct pd_pcidev *pf, struct pd_card_row *r)
{
	struct pd_pf_path p = pf->path;
	char link[24];

	memset(r, 0, sizeof(*r));
	snprintf(r->pf, sizeof(r->pf), "%s", pf->bdf);
	snprintf(r->netdev, sizeof(r->netdev), "%s", p.nd ? p.nd->name : "-");
	pd_link_name(link, sizeof(link), p.mts, p.width);
	snprintf(r->link, sizeof(r->link), "%s %s",
	    p.root ? p.root->bdf : "?", link);
	if (p.ceiling_gbs > 0)
		snprintf(r->ceiling, sizeof(r->ceiling), "%.1f GB/s (MPS %d)",
		    p.ceiling_gbs, p.mps);
	else
		snprintf(r->ceiling, sizeof(r->ceiling), "?");
	if (p.nd && p.nd->speed_mbps > 0)
		snprintf(r->port, sizeof(r->port), "%g Gb/s",
		    p.nd->speed_mbps / 1000.0);
	else
		snprintf(r->port, sizeof(r->port), p.nd &&
		    p.nd->speed_mbps == 0 ? "down" : "?");
	if (p.rx_known) {
		pd_fmt_bytes(r->rx, sizeof(r->rx), p.rx, p.rx_is_rate);
		if (!p.rx_is_rate)
			strncat(r->rx, " total", sizeof(r->rx) - strlen(r->rx) - 1);
	} else {
		snprintf(r->rx, sizeof(r->rx), "?");
	}
	const struct pd_feature *lro = p.nd ? pd_netdev_feature(p.nd,
	    "large-receive-offload") : NULL;

	snprintf(r->lro, sizeof(r->lro), "%s", lro ? pd_tri_onoff(lro->on) :
	    "?");
	snprintf(r->pause, sizeof(r->pause), "rx %s, tx %s",
	    p.nd ? pd_tri_onoff(p.nd->pause_rx) : "?",
	    p.nd ? pd_tri_onoff(p.nd->pause_tx) : "?");
}

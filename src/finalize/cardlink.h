/* What the model says about one NIC function's path: its PCIe link and
 * ceiling, its port and that port's goodput, its receive rate.  Shared
 * by the NIC and PCIe rules and by the per-card report table. */
#ifndef PD_CARDLINK_H
#define PD_CARDLINK_H

#include <stdbool.h>
#include <stddef.h>
#include "pathdoctor/model.h"

struct pd_pf_path {
	const struct pd_pcidev *pf;
	const struct pd_netdev *nd;	/* NULL when no netdev joined */
	const struct pd_pcidev *root;	/* root port, NULL if unknown */
	int mts, width, mps;		/* the link as trained, current MPS */
	double ceiling_gbs;		/* payload ceiling of that link */
	double port_gbs;		/* TCP goodput of the port; 0 unknown */
	bool rx_known, rx_is_rate;
	double rx;			/* bytes/s, or since-boot bytes */
};

void pd_pf_path(const struct pd_pcidev *pf, struct pd_pf_path *out);
/* TCP payload goodput in GB/s of a port at speed_mbps and mtu (1500
 * when mtu <= 0). */
double pd_port_goodput_gbs(int speed_mbps, int mtu);
/* "Gen5 x4" */
void pd_link_name(char *buf, size_t n, int mts, int width);
/* "3.15 GB/s", "138 B/s", "91.2 TB" (rate or total) */
void pd_fmt_bytes(char *buf, size_t n, double v, bool per_s);

/* One row of the per-card table, as text for the renderers. */
struct pd_card_row {
	char pf[16], netdev[24], link[48], ceiling[48], port[24], rx[48];
	char lro[8], pause[24];
};

void pd_card_row(const struct pd_pcidev *pf, struct pd_card_row *r);
const char *pd_tri_onoff(enum pd_tri t);	/* "on", "off", "?" */

#endif

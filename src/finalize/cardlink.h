/* What the model says about one NIC function's path: its PCIe link and
 * ceiling, its port and that port's goodput, its receive rate.  Shared
 * by the NIC and PCIe rules and by the per-card report table. */
#ifndef PD_CARDLINK_H
#define PD_CARDLINK_H

#include <stdbool.h>
#include <stddef.h>
#include "pathdoctor/model.h"

/* pf->path, once the joins and counters are done. */
void pd_pf_path(const struct pd_pcidev *pf, struct pd_pf_path *out);
/* TCP payload goodput in GB/s of a port at speed_mbps and mtu (1500
 * when mtu <= 0). */
double pd_port_goodput_gbs(int speed_mbps, int mtu);
/* "Gen5 x4" */
void pd_link_name(char *buf, size_t n, int mts, int width);
/* "3.15 GB/s", "138 B/s", "91.2 TB" (rate or total) */
void pd_fmt_bytes(char *buf, size_t n, double v, bool per_s);
const char *pd_tri_onoff(enum pd_tri t);	/* "on", "off", "?" */

#endif

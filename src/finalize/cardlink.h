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
/* What binds a card's capacity: the link of PF pf, or its port. */
struct pd_cap_bind {
	int pf;			/* -1: nothing (no active PF) */
	bool port;
	unsigned on_it, active;	/* active PFs on that link or port, in all */
};

/* GB/s the card delivers with I/O shared equally by the active PFs:
 * min over every active PF's link (link_gbs[i], the payload ceiling of
 * PF i's link) and port (p[i].port_gbs when known) of its ceiling x
 * active PFs / active PFs on it.  NVMe/TCP multipath and similar
 * spread I/O that way.  bind may be NULL. */
double pd_card_capacity(const struct pd_pf_path *p, const double *link_gbs,
    const bool *active, unsigned n, struct pd_cap_bind *bind);
/* Links are told apart by root port, else by the PF's bus. */
bool pd_same_link(const struct pd_pf_path *a, const struct pd_pf_path *b);
/* "Gen5 x4" */
void pd_link_name(char *buf, size_t n, int mts, int width);
/* "3.15 GB/s", "138 B/s", "91.2 TB" (rate or total) */
void pd_fmt_bytes(char *buf, size_t n, double v, bool per_s);
const char *pd_tri_onoff(enum pd_tri t);
struct pd_arena;
/* pd_fmt_bytes of a rate, copied into the arena */
const char *pd_rate_str(struct pd_arena *a, double bytes_per_s);	/* "on", "off", "?" */

#endif

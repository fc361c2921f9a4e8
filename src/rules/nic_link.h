/* The target link mode of nic.link-below-capability (src/rules/
 * nic_link.c, its own rule group), shared with the unit tests. */
#ifndef PD_RULES_NIC_LINK_H
#define PD_RULES_NIC_LINK_H

#include <stdbool.h>
#include "pathdoctor/model.h"

/* What the best mode both ends can run was read from. */
enum pd_link_basis {
	PD_LINK_PARTNER,	/* ours supported, the partner's advertised */
	PD_LINK_ADVERTISED,	/* ours supported and advertised */
	PD_LINK_SUPPORTED,	/* ours supported only */
};

struct pd_link_target {
	int speed_mbps;
	bool full;
	enum pd_link_basis basis;
};

/* The fastest mode in our supported list that the partner advertises
 * too (full duplex before half at one speed), else the fastest we
 * support and advertise, else the fastest we support; false when our
 * supported list has no mode. */
bool pd_link_target(const struct pd_link_settings *ls,
    struct pd_link_target *t);


#endif

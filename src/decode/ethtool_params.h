/* The two-block outputs of ethtool -g (ring sizes) and ethtool -l
 * (channel counts), read once for both readers:
 *
 *   Ring parameters for eth0:          Channel parameters for eth0:
 *   Pre-set maximums:                  Pre-set maximums:
 *   RX:		4096                    RX:		n/a
 *   ...                                ...
 *   Current hardware settings:         Current hardware settings:
 *   RX:		256                     Combined:	8
 *
 * What the two share: the header that names the interface; the block
 * lines, which ethtool 6.15 lost (then the first of each label is the
 * maximum and the second the current setting); values that are numbers,
 * on/off or n/a; and the ways ethtool says it could not read them: the
 * ioctl path's "Cannot get device ring settings: REASON" (before its
 * header when stderr and stdout went to one file; in ethtool before
 * 5.14 "Cannot get device channel parameters" with the reason on the
 * next line as ": REASON"), and the netlink path's "netlink error:
 * REASON" with no header at all, so only the path can name the
 * interface.  Several outputs may follow each other in one member.
 */
#ifndef PD_ETHTOOL_PARAMS_H
#define PD_ETHTOOL_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include "pathdoctor/format.h"
#include "pathdoctor/status.h"

struct pd_diag;
struct pd_evidence;
struct pd_host;
struct pd_input;
struct pd_netdev;

#define PD_EP_LABELS_MAX 32

enum pd_ep_kind { PD_EPV_NUMBER, PD_EPV_NA, PD_EPV_ON, PD_EPV_OFF,
	PD_EPV_OTHER };

/* A value as printed: "4096" (0 to UINT32_MAX), "n/a", "on", "off", or
 * anything else ("unknown(3)" from TCP data split). */
struct pd_ep_value {
	enum pd_ep_kind kind;
	int64_t num;
};

/* One command: how its output looks and where its results go. */
struct pd_eparams {
	const struct pd_format *format;	/* note ids, names from paths */
	const char *header;		/* "Ring parameters for " */
	const char *error;		/* "Cannot get device ring settings" */
	const char *what;		/* "ring parameters", for notes */
	const char *const *labels;	/* NULL-ended, PD_EP_LABELS_MAX */
	struct pd_evidence *(*ev)(struct pd_netdev *nd);
	const char **(*reason)(struct pd_netdev *nd);
	/* Stores labels[label] of a block (0 the pre-set maximums, 1 the
	 * current settings); false when the value does not fit the field. */
	bool (*store)(struct pd_netdev *nd, int block, unsigned label,
	    const struct pd_ep_value *v);
};

/* A lone "netlink error:" names no command: it counts only with a path
 * that names one (the sniffer's hint), which brings it to PD_BID_MIN. */
#define PD_EP_BID_NETLINK (PD_BID_MIN - PD_BID_PATH_HINT)

int pd_eparams_bid(const struct pd_eparams *k, const struct pd_member *m);
enum pd_status pd_eparams_parse(const struct pd_eparams *k,
    const struct pd_member *m, struct pd_input *in, struct pd_host *h,
    struct pd_diag *d);

#endif

/* "ethtool-l": ethtool -l IF, channel (queue) counts: the pre-set
 * maximums and the current hardware settings of RX, TX, Other and
 * Combined.
 *
 * Reference: ethtool.c dump_channels (the ioctl path: 0 where the driver
 * has none) and netlink/channels.c (ethtool 5.8 on: "n/a" where the
 * kernel sent nothing, which it does for a maximum of 0).  What -g and
 * -l share, and the ways ethtool says it could not read them, is in
 * src/decode/ethtool_params.c. */
#include "decode/ethtool_params.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"

extern const struct pd_format pd_format_ethtool_channels;

static const char *const labels[] = { "RX", "TX", "Other", "Combined",
	NULL };

static bool
store_channel(struct pd_netdev *nd, int block, unsigned label,
    const struct pd_ep_value *v)
{
	struct pd_channels *c = block ? &nd->channels_cur : &nd->channels_max;
	int64_t *num[] = { &c->rx, &c->tx, &c->other, &c->combined };

	*num[label] = v->num;	/* -1 with n/a */
	return v->kind == PD_EPV_NUMBER || v->kind == PD_EPV_NA;
}

static struct pd_evidence *
ev_channels(struct pd_netdev *nd)
{
	return &nd->ev_channels;
}

static const char **
channels_error(struct pd_netdev *nd)
{
	return &nd->channels_error;
}

static const struct pd_eparams channels = {
	.format = &pd_format_ethtool_channels,
	.header = "Channel parameters for ",
	.error = "Cannot get device channel parameters",
	.what = "channel counts",
	.labels = labels,
	.ev = ev_channels,
	.reason = channels_error,
	.store = store_channel,
};

static int
bid_ethtool_channels(const struct pd_member *m)
{
	return pd_eparams_bid(&channels, m);
}

static enum pd_status
parse_ethtool_channels(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	return pd_eparams_parse(&channels, m, in, h, d);
}

static const char *const hints[] = { "ethtool_-l_", "ethtool-l", NULL };

static const char *const name_prefixes[] = {
	"ethtool_-l_", "ethtool-l_", "ethtool-l-", NULL,
};

const struct pd_format pd_format_ethtool_channels = {
	.name = "ethtool-l",
	.summary = "channel (queue) counts: pre-set maximums and current "
	    "RX, TX, Other, Combined",
	.command = "ethtool -l IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_CHANNELS,
	.collect = "ethtool -l IF output",
	.bid = bid_ethtool_channels,
	.parse = parse_ethtool_channels,
};

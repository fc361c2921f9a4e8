/* "ethtool-g": ethtool -g IF, ring sizes: the pre-set maximums and the
 * current hardware settings, for the ring-size checks.
 *
 * Reference: ethtool.c dump_ring (the ioctl path: numbers, 0 where the
 * driver has no such ring) and netlink/rings.c (ethtool 5.8 on: "n/a"
 * where the kernel sent nothing, and in the current block "RX Buf Len"
 * (5.17), "CQE Size" (5.18), "TX Push" (5.19), "TCP data split" (6.1),
 * "RX Push" (6.3), "TX push buff len" in both blocks (6.4) and "HDS
 * thresh" in both (6.15)).  What -g and -l share, and the ways ethtool
 * says it could not read them, is in src/decode/ethtool_params.c. */
#include "decode/ethtool_params.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"

extern const struct pd_format pd_format_ethtool_rings;

/* The numbers first (in the order of struct pd_rings), then on/off. */
static const char *const labels[] = {
	"RX", "RX Mini", "RX Jumbo", "TX", "RX Buf Len", "CQE Size",
	"TX push buff len", "HDS thresh",
	"TX Push", "RX Push", "TCP data split", NULL,
};

#define N_NUMBERS 8

static bool
store_ring(struct pd_netdev *nd, int block, unsigned label,
    const struct pd_ep_value *v)
{
	struct pd_rings *r = block ? &nd->rings_cur : &nd->rings_max;
	int64_t *num[N_NUMBERS] = { &r->rx, &r->rx_mini, &r->rx_jumbo,
		&r->tx, &r->rx_buf_len, &r->cqe_size, &r->tx_push_buf_len,
		&r->hds_thresh };
	enum pd_tri *tri[] = { &nd->tx_push, &nd->rx_push,
		&nd->tcp_data_split };

	if (label < N_NUMBERS) {
		*num[label] = v->num;	/* -1 with n/a */
		return v->kind == PD_EPV_NUMBER || v->kind == PD_EPV_NA;
	}
	*tri[label - N_NUMBERS] = v->kind == PD_EPV_ON ? PD_YES :
	    v->kind == PD_EPV_OFF ? PD_NO : PD_UNKNOWN;
	if (v->kind == PD_EPV_OTHER)	/* TCP data split's "unknown(3)" */
		return label == N_NUMBERS + 2;
	return v->kind != PD_EPV_NUMBER;
}

static struct pd_evidence *
ev_rings(struct pd_netdev *nd)
{
	return &nd->ev_rings;
}

static const char **
rings_error(struct pd_netdev *nd)
{
	return &nd->rings_error;
}

static const struct pd_eparams rings = {
	.format = &pd_format_ethtool_rings,
	.header = "Ring parameters for ",
	.error = "Cannot get device ring settings",
	.what = "ring parameters",
	.labels = labels,
	.ev = ev_rings,
	.reason = rings_error,
	.store = store_ring,
};

static int
bid_ethtool_rings(const struct pd_member *m)
{
	return pd_eparams_bid(&rings, m);
}

static enum pd_status
parse_ethtool_rings(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	return pd_eparams_parse(&rings, m, in, h, d);
}

static const char *const hints[] = { "ethtool_-g_", "ethtool-g", NULL };

static const char *const name_prefixes[] = {
	"ethtool_-g_", "ethtool-g_", "ethtool-g-", NULL,
};

const struct pd_format pd_format_ethtool_rings = {
	.name = "ethtool-g",
	.summary = "ring sizes: pre-set maximums and current RX, TX, "
	    "RX Jumbo, ...",
	.command = "ethtool -g IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_RINGS,
	.collect = "ethtool -g IF output",
	.bid = bid_ethtool_rings,
	.parse = parse_ethtool_rings,
};

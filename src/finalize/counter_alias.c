/* Per-driver counter names -> canonical meanings (the ethtool
 * driver_list idea).  A driver with rows here uses only its rows; any
 * other driver, or none known, uses the generic rows (driver NULL),
 * whose names are specific enough to mean the same everywhere.  A name
 * with "%u" matches one number there (per queue or per ring). */
#include <limits.h>
#include <string.h>
#include "finalize/counters.h"
#include "pathdoctor/status.h"

/* One row of a table: what the counter means (enum pd_ctr, or enum
 * pd_drop in the drop table) and, in the drop table, its tier. */
struct alias {
	const char *driver;
	const char *name;
	int what;
	int tier;
};

static const struct alias aliases[] = {
	/* mlx5: rx_bytes counts the function's vport, *_phy the port */
	{ "mlx5_core", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "mlx5_core", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "mlx5_core", "rx_bytes_phy", PD_CTR_RX_BYTES_PORT, 0 },
	{ "mlx5_core", "rx_out_of_buffer", PD_CTR_RX_DROPS, 0 },
	{ "mlx5_core", "rx_discards_phy", PD_CTR_RX_DROPS, 0 },
	{ "mlx5_core", "rx_pause_ctrl_phy", PD_CTR_PAUSE_RX, 0 },
	{ "mlx5_core", "tx_pause_ctrl_phy", PD_CTR_PAUSE_TX, 0 },
	/* i40e: plain names count the VSI, port.* the port */
	{ "i40e", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "i40e", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "i40e", "port.rx_bytes", PD_CTR_RX_BYTES_PORT, 0 },
	{ "i40e", "port.rx_dropped", PD_CTR_RX_DROPS, 0 },
	{ "i40e", "rx_dropped", PD_CTR_RX_DROPS, 0 },
	{ "i40e", "port.link_xoff_rx", PD_CTR_PAUSE_RX, 0 },
	{ "i40e", "port.link_xoff_tx", PD_CTR_PAUSE_TX, 0 },
	/* ice: ".nic" suffixes count the port */
	{ "ice", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "ice", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "ice", "rx_bytes.nic", PD_CTR_RX_BYTES_PORT, 0 },
	{ "ice", "rx_dropped", PD_CTR_RX_DROPS, 0 },
	{ "ice", "link_xoff_rx.nic", PD_CTR_PAUSE_RX, 0 },
	{ "ice", "link_xoff_tx.nic", PD_CTR_PAUSE_TX, 0 },
	/* ixgbe, igb, igc: one function per port */
	{ "ixgbe", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "ixgbe", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "ixgbe", "rx_missed_errors", PD_CTR_RX_DROPS, 0 },
	{ "ixgbe", "rx_no_buffer_count", PD_CTR_RX_DROPS, 0 },
	{ "ixgbe", "rx_flow_control_xoff", PD_CTR_PAUSE_RX, 0 },
	{ "ixgbe", "tx_flow_control_xoff", PD_CTR_PAUSE_TX, 0 },
	{ "igb", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "igb", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "igb", "rx_missed_errors", PD_CTR_RX_DROPS, 0 },
	{ "igb", "rx_no_buffer_count", PD_CTR_RX_DROPS, 0 },
	{ "igb", "rx_flow_control_xoff", PD_CTR_PAUSE_RX, 0 },
	{ "igb", "tx_flow_control_xoff", PD_CTR_PAUSE_TX, 0 },
	{ "igc", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "igc", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "igc", "rx_missed_errors", PD_CTR_RX_DROPS, 0 },
	{ "igc", "rx_no_buffer_count", PD_CTR_RX_DROPS, 0 },
	{ "igc", "rx_flow_control_xoff", PD_CTR_PAUSE_RX, 0 },
	{ "igc", "tx_flow_control_xoff", PD_CTR_PAUSE_TX, 0 },
	/* bnxt_en: per ring "[N]: name" */
	{ "bnxt_en", "[%u]: rx_ucast_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnxt_en", "[%u]: rx_mcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnxt_en", "[%u]: rx_bcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnxt_en", "[%u]: tx_ucast_bytes", PD_CTR_TX_BYTES, 0 },
	{ "bnxt_en", "[%u]: tx_mcast_bytes", PD_CTR_TX_BYTES, 0 },
	{ "bnxt_en", "[%u]: tx_bcast_bytes", PD_CTR_TX_BYTES, 0 },
	{ "bnxt_en", "rx_bytes", PD_CTR_RX_BYTES_PORT, 0 },
	{ "bnxt_en", "[%u]: rx_discards", PD_CTR_RX_DROPS, 0 },
	{ "bnxt_en", "rx_pause_frames", PD_CTR_PAUSE_RX, 0 },
	{ "bnxt_en", "tx_pause_frames", PD_CTR_PAUSE_TX, 0 },
	/* r8169: hardware counters on newer chips (RTL8125) */
	{ "r8169", "rx_octets", PD_CTR_RX_BYTES, 0 },
	{ "r8169", "tx_octets", PD_CTR_TX_BYTES, 0 },
	{ "r8169", "rx_missed", PD_CTR_RX_DROPS, 0 },
	{ "r8169", "rx_pause_on", PD_CTR_PAUSE_RX, 0 },
	{ "r8169", "tx_pause_on", PD_CTR_PAUSE_TX, 0 },
	/* virtio_net: totals on newer kernels, else per queue */
	{ "virtio_net", "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "virtio_net", "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "virtio_net", "tx_bytes", PD_CTR_TX_BYTES, 0 },
	{ "virtio_net", "tx_queue_%u_bytes", PD_CTR_TX_BYTES, 0 },
	{ "virtio_net", "rx_drops", PD_CTR_RX_DROPS, 0 },
	{ "virtio_net", "rx_queue_%u_drops", PD_CTR_RX_DROPS, 0 },
	/* any driver */
	{ NULL, "rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_ucast_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_mcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_bcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_discards", PD_CTR_RX_DROPS, 0 },
	{ NULL, "rx_bytes_phy", PD_CTR_RX_BYTES_PORT, 0 },
	{ NULL, "port.rx_bytes", PD_CTR_RX_BYTES_PORT, 0 },
	{ NULL, "rx_bytes.nic", PD_CTR_RX_BYTES_PORT, 0 },
	{ NULL, "rx_out_of_buffer", PD_CTR_RX_DROPS, 0 },
	{ NULL, "rx_discards_phy", PD_CTR_RX_DROPS, 0 },
	{ NULL, "rx_missed_errors", PD_CTR_RX_DROPS, 0 },
	{ NULL, "rx_no_buffer_count", PD_CTR_RX_DROPS, 0 },
	{ NULL, "rx_pause_ctrl_phy", PD_CTR_PAUSE_RX, 0 },
	{ NULL, "tx_pause_ctrl_phy", PD_CTR_PAUSE_TX, 0 },
	{ NULL, "rx_flow_control_xoff", PD_CTR_PAUSE_RX, 0 },
	{ NULL, "tx_flow_control_xoff", PD_CTR_PAUSE_TX, 0 },
	{ NULL, "port.link_xoff_rx", PD_CTR_PAUSE_RX, 0 },
	{ NULL, "port.link_xoff_tx", PD_CTR_PAUSE_TX, 0 },
};

/* "rx_queue_%u_bytes" against "rx_queue_12_bytes"; sets *numbered and,
 * when q is not NULL, *q to the number (saturated at UINT_MAX). */
static bool
name_number(const char *pat, const char *name, bool *numbered, unsigned *q)
{
	const char *u = strstr(pat, "%u");
	unsigned long long v = 0;

	*numbered = u != NULL;
	if (!u)
		return strcmp(pat, name) == 0;
	size_t pre = (size_t)(u - pat);

	if (strncmp(pat, name, pre) != 0)
		return false;
	const char *p = name + pre;

	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		if (v <= UINT_MAX)
			v = v * 10 + (unsigned long long)(*p - '0');
		p++;
	}
	if (q)
		*q = v > UINT_MAX ? UINT_MAX : (unsigned)v;
	return strcmp(p, u + 2) == 0;
}

/* The row of table t that names the counter: the driver's own rows when
 * it has any, else the generic ones (driver NULL); *q gets the number a
 * "%u" matched when q is not NULL. */
static const struct alias *
lookup(const struct alias *t, size_t n, const char *driver, const char *name,
    bool *numbered, unsigned *q)
{
	bool own = false;

	for (size_t i = 0; driver && i < n && !own; i++)
		own = t[i].driver && strcmp(t[i].driver, driver) == 0;
	for (size_t i = 0; i < n; i++) {
		if (own ? !t[i].driver || strcmp(t[i].driver, driver) != 0 :
		    t[i].driver != NULL)
			continue;
		if (name_number(t[i].name, name, numbered, q))
			return &t[i];
	}
	return NULL;
}

bool
pd_counter_alias(const char *driver, const char *name, enum pd_ctr *ctr,
    int *tier)
{
	bool numbered;
	const struct alias *al = lookup(aliases, PD_ARRAY_SIZE(aliases),
	    driver, name, &numbered, NULL);

	if (!al)
		return false;
	*ctr = (enum pd_ctr)al->what;
	/* bnxt prints only per-ring counts: they are its total */
	*tier = numbered && name[0] != '[' ? 1 : 0;
	return true;
}

const char *
pd_ctr_name(enum pd_ctr c)
{
	static const char *const names[] = {
		[PD_CTR_RX_BYTES] = "rx bytes (function)",
		[PD_CTR_RX_BYTES_PORT] = "rx bytes (port)",
		[PD_CTR_RX_DROPS] = "rx drops (no buffer)",
		[PD_CTR_PAUSE_RX] = "pause frames received",
		[PD_CTR_PAUSE_TX] = "pause frames sent",
		[PD_CTR_TX_BYTES] = "tx bytes (function)",
	};
	return c < PD_CTR_COUNT ? names[c] : "?";
}

/* Drop and error classes (enum pd_drop).  tier: 0 the counter to use, 1
 * only where the driver prints no tier-0 one, 2 per-queue parts summed
 * where it prints no total.  Names from the drivers' ethtool string
 * tables (mlx5 en_stats.c and counters.rst, i40e/ice/ixgbe/igb/igc
 * *_ethtool.c, bnxt_ethtool.c, r8169_main.c, virtio_net.c). */
static const struct alias drop_aliases[] = {
	/* mlx5: the _phy counters are the port's */
	{ "mlx5_core", "rx_packets_phy", PD_DROP_RX_PACKETS, 0 },
	{ "mlx5_core", "rx_packets", PD_DROP_RX_PACKETS, 1 },
	{ "mlx5_core", "rx_out_of_buffer", PD_DROP_NO_BUFFER, 0 },
	{ "mlx5_core", "rx_discards_phy", PD_DROP_PORT, 0 },
	{ "mlx5_core", "rx_crc_errors_phy", PD_DROP_CRC, 0 },
	{ "mlx5_core", "rx_in_range_len_errors_phy", PD_DROP_LENGTH, 0 },
	{ "mlx5_core", "rx_out_of_range_len_phy", PD_DROP_LENGTH, 0 },
	{ "mlx5_core", "rx_oversize_pkts_phy", PD_DROP_LENGTH, 0 },
	{ "mlx5_core", "rx_undersize_pkts_phy", PD_DROP_LENGTH, 0 },
	/* i40e: port.* the port, plain names the VSI */
	{ "i40e", "rx_packets", PD_DROP_RX_PACKETS, 0 },
	{ "i40e", "rx_dropped", PD_DROP_NO_BUFFER, 0 },
	{ "i40e", "port.rx_dropped", PD_DROP_PORT, 0 },
	{ "i40e", "port.rx_crc_errors", PD_DROP_CRC, 0 },
	{ "i40e", "rx_crc_errors", PD_DROP_CRC, 1 },
	{ "i40e", "port.rx_length_errors", PD_DROP_LENGTH, 0 },
	{ "i40e", "port.rx_undersize", PD_DROP_LENGTH, 0 },
	{ "i40e", "port.rx_oversize", PD_DROP_LENGTH, 0 },
	{ "i40e", "port.rx_fragments", PD_DROP_LENGTH, 0 },
	{ "i40e", "port.rx_jabber", PD_DROP_LENGTH, 0 },
	{ "i40e", "rx_length_errors", PD_DROP_LENGTH, 1 },
	/* ice: ".nic" the port (older drivers "port." like i40e) */
	{ "ice", "rx_packets", PD_DROP_RX_PACKETS, 0 },
	{ "ice", "rx_dropped", PD_DROP_NO_BUFFER, 0 },
	{ "ice", "rx_dropped.nic", PD_DROP_PORT, 0 },
	{ "ice", "port.rx_dropped", PD_DROP_PORT, 1 },
	{ "ice", "rx_crc_errors.nic", PD_DROP_CRC, 0 },
	{ "ice", "port.rx_crc_errors", PD_DROP_CRC, 1 },
	{ "ice", "rx_length_errors.nic", PD_DROP_LENGTH, 0 },
	{ "ice", "rx_undersize.nic", PD_DROP_LENGTH, 0 },
	{ "ice", "rx_oversize.nic", PD_DROP_LENGTH, 0 },
	{ "ice", "rx_fragments.nic", PD_DROP_LENGTH, 0 },
	{ "ice", "rx_jabber.nic", PD_DROP_LENGTH, 0 },
	/* ixgbe, igb, igc: rx_length_errors is long + short */
#define INTEL_1FN(drv)							\
	{ drv, "rx_packets", PD_DROP_RX_PACKETS, 0 },			\
	{ drv, "rx_no_buffer_count", PD_DROP_NO_BUFFER, 0 },		\
	{ drv, "rx_missed_errors", PD_DROP_MISSED, 0 },			\
	{ drv, "rx_crc_errors", PD_DROP_CRC, 0 },			\
	{ drv, "rx_align_errors", PD_DROP_CRC, 0 },			\
	{ drv, "rx_length_errors", PD_DROP_LENGTH, 0 },			\
	{ drv, "rx_long_length_errors", PD_DROP_LENGTH, 1 },		\
	{ drv, "rx_short_length_errors", PD_DROP_LENGTH, 1 }
	INTEL_1FN("ixgbe"), INTEL_1FN("igb"), INTEL_1FN("igc"),
#undef INTEL_1FN
	/* bnxt_en: port frames, per-ring discards */
	{ "bnxt_en", "rx_good_frames", PD_DROP_RX_PACKETS, 0 },
	{ "bnxt_en", "[%u]: rx_ucast_packets", PD_DROP_RX_PACKETS, 2 },
	{ "bnxt_en", "[%u]: rx_mcast_packets", PD_DROP_RX_PACKETS, 2 },
	{ "bnxt_en", "[%u]: rx_bcast_packets", PD_DROP_RX_PACKETS, 2 },
	{ "bnxt_en", "rx_total_discard_pkts", PD_DROP_NO_BUFFER, 0 },
	{ "bnxt_en", "[%u]: rx_discards", PD_DROP_NO_BUFFER, 2 },
	{ "bnxt_en", "rx_stat_discard", PD_DROP_PORT, 0 },
	{ "bnxt_en", "rx_fcs_err_frames", PD_DROP_CRC, 0 },
	{ "bnxt_en", "rx_align_err_frames", PD_DROP_CRC, 0 },
	{ "bnxt_en", "rx_ovrsz_frames", PD_DROP_LENGTH, 0 },
	{ "bnxt_en", "rx_jbr_frames", PD_DROP_LENGTH, 0 },
	{ "bnxt_en", "rx_undrsz_frames", PD_DROP_LENGTH, 0 },
	{ "bnxt_en", "rx_runt_frames", PD_DROP_LENGTH, 0 },
	/* r8169 */
	{ "r8169", "rx_packets", PD_DROP_RX_PACKETS, 0 },
	{ "r8169", "rx_missed", PD_DROP_MISSED, 0 },
	{ "r8169", "align_errors", PD_DROP_CRC, 0 },
	/* virtio_net: totals on newer kernels, else per queue */
	{ "virtio_net", "rx_packets", PD_DROP_RX_PACKETS, 0 },
	{ "virtio_net", "rx_queue_%u_packets", PD_DROP_RX_PACKETS, 2 },
	{ "virtio_net", "rx_drops", PD_DROP_NO_BUFFER, 0 },
	{ "virtio_net", "rx_queue_%u_drops", PD_DROP_NO_BUFFER, 2 },
	/* any other driver: names that mean the same everywhere */
	{ NULL, "rx_packets_phy", PD_DROP_RX_PACKETS, 0 },
	{ NULL, "rx_packets", PD_DROP_RX_PACKETS, 1 },
	{ NULL, "rx_out_of_buffer", PD_DROP_NO_BUFFER, 0 },
	{ NULL, "rx_no_buffer_count", PD_DROP_NO_BUFFER, 0 },
	{ NULL, "rx_missed_errors", PD_DROP_MISSED, 0 },
	{ NULL, "rx_discards_phy", PD_DROP_PORT, 0 },
	{ NULL, "rx_crc_errors_phy", PD_DROP_CRC, 0 },
	{ NULL, "rx_crc_errors", PD_DROP_CRC, 1 },
};

bool
pd_drop_alias(const char *driver, const char *name, enum pd_drop *cls,
    int *tier)
{
	bool numbered;
	const struct alias *al = lookup(drop_aliases,
	    PD_ARRAY_SIZE(drop_aliases), driver, name, &numbered, NULL);

	if (!al)
		return false;
	*cls = (enum pd_drop)al->what;
	*tier = al->tier;
	return true;
}

const char *
pd_drop_name(enum pd_drop c)
{
	static const char *const names[] = {
		[PD_DROP_RX_PACKETS] = "rx packets",
		[PD_DROP_NO_BUFFER] = "out of buffer",
		[PD_DROP_MISSED] = "missed",
		[PD_DROP_PORT] = "port discards",
		[PD_DROP_CRC] = "CRC/FCS errors",
		[PD_DROP_LENGTH] = "length errors",
	};
	return c < PD_DROP_COUNT ? names[c] : "?";
}

/* Per-queue receive byte counters: the driver's rows, else the generic
 * ones (names no driver uses for anything else).  bnxt prints three per
 * ring (unicast, multicast, broadcast), which are summed; bnx2x one per
 * queue ("[0]: rx_bytes"), be2net "rxq0: rx_bytes" (both as in the
 * outputs of isc-projects/ethq issues #6 and #7). */
static const struct alias rxq_aliases[] = {
	{ "mlx5_core", "rx%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "ice", "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "ice", "rx-queue-%u.rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "ice", "rx-%u.bytes", PD_CTR_RX_BYTES, 0 },
	{ "i40e", "rx-%u.bytes", PD_CTR_RX_BYTES, 0 },
	{ "iavf", "rx-%u.bytes", PD_CTR_RX_BYTES, 0 },
	{ "ixgbe", "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "igb", "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "igc", "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnxt_en", "[%u]: rx_ucast_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnxt_en", "[%u]: rx_mcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnxt_en", "[%u]: rx_bcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ "virtio_net", "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ "ena", "queue_%u_rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "bnx2x", "[%u]: rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ "be2net", "rxq%u: rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "rx_queue_%u_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "rx-%u.bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "queue_%u_rx_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_ucast_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_mcast_bytes", PD_CTR_RX_BYTES, 0 },
	{ NULL, "[%u]: rx_bcast_bytes", PD_CTR_RX_BYTES, 0 },
};

bool
pd_rxq_alias(const char *driver, const char *name, unsigned *queue)
{
	bool numbered;

	return lookup(rxq_aliases, PD_ARRAY_SIZE(rxq_aliases), driver, name,
	    &numbered, queue) != NULL;
}

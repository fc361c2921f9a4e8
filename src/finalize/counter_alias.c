/* Per-driver counter names -> canonical meanings (the ethtool
 * driver_list idea).  A driver with rows here uses only its rows; any
 * other driver, or none known, uses the generic rows (driver NULL),
 * whose names are specific enough to mean the same everywhere.  A name
 * with "%u" matches one number there (per queue or per ring). */
#include <string.h>
#include "finalize/counters.h"
#include "pathdoctor/status.h"

struct alias {
	const char *driver;
	const char *name;
	enum pd_ctr ctr;
};

static const struct alias aliases[] = {
	/* mlx5: rx_bytes counts the function's vport, *_phy the port */
	{ "mlx5_core", "rx_bytes", PD_CTR_RX_BYTES },
	{ "mlx5_core", "tx_bytes", PD_CTR_TX_BYTES },
	{ "mlx5_core", "rx_bytes_phy", PD_CTR_RX_BYTES_PORT },
	{ "mlx5_core", "rx_out_of_buffer", PD_CTR_RX_DROPS },
	{ "mlx5_core", "rx_discards_phy", PD_CTR_RX_DROPS },
	{ "mlx5_core", "rx_pause_ctrl_phy", PD_CTR_PAUSE_RX },
	{ "mlx5_core", "tx_pause_ctrl_phy", PD_CTR_PAUSE_TX },
	/* i40e: plain names count the VSI, port.* the port */
	{ "i40e", "rx_bytes", PD_CTR_RX_BYTES },
	{ "i40e", "tx_bytes", PD_CTR_TX_BYTES },
	{ "i40e", "port.rx_bytes", PD_CTR_RX_BYTES_PORT },
	{ "i40e", "port.rx_dropped", PD_CTR_RX_DROPS },
	{ "i40e", "rx_dropped", PD_CTR_RX_DROPS },
	{ "i40e", "port.link_xoff_rx", PD_CTR_PAUSE_RX },
	{ "i40e", "port.link_xoff_tx", PD_CTR_PAUSE_TX },
	/* ice: ".nic" suffixes count the port */
	{ "ice", "rx_bytes", PD_CTR_RX_BYTES },
	{ "ice", "tx_bytes", PD_CTR_TX_BYTES },
	{ "ice", "rx_bytes.nic", PD_CTR_RX_BYTES_PORT },
	{ "ice", "rx_dropped", PD_CTR_RX_DROPS },
	{ "ice", "link_xoff_rx.nic", PD_CTR_PAUSE_RX },
	{ "ice", "link_xoff_tx.nic", PD_CTR_PAUSE_TX },
	/* ixgbe, igb, igc: one function per port */
	{ "ixgbe", "rx_bytes", PD_CTR_RX_BYTES },
	{ "ixgbe", "tx_bytes", PD_CTR_TX_BYTES },
	{ "ixgbe", "rx_missed_errors", PD_CTR_RX_DROPS },
	{ "ixgbe", "rx_no_buffer_count", PD_CTR_RX_DROPS },
	{ "ixgbe", "rx_flow_control_xoff", PD_CTR_PAUSE_RX },
	{ "ixgbe", "tx_flow_control_xoff", PD_CTR_PAUSE_TX },
	{ "igb", "rx_bytes", PD_CTR_RX_BYTES },
	{ "igb", "tx_bytes", PD_CTR_TX_BYTES },
	{ "igb", "rx_missed_errors", PD_CTR_RX_DROPS },
	{ "igb", "rx_no_buffer_count", PD_CTR_RX_DROPS },
	{ "igb", "rx_flow_control_xoff", PD_CTR_PAUSE_RX },
	{ "igb", "tx_flow_control_xoff", PD_CTR_PAUSE_TX },
	{ "igc", "rx_bytes", PD_CTR_RX_BYTES },
	{ "igc", "tx_bytes", PD_CTR_TX_BYTES },
	{ "igc", "rx_missed_errors", PD_CTR_RX_DROPS },
	{ "igc", "rx_no_buffer_count", PD_CTR_RX_DROPS },
	{ "igc", "rx_flow_control_xoff", PD_CTR_PAUSE_RX },
	{ "igc", "tx_flow_control_xoff", PD_CTR_PAUSE_TX },
	/* bnxt_en: per ring "[N]: name" */
	{ "bnxt_en", "[%u]: rx_ucast_bytes", PD_CTR_RX_BYTES },
	{ "bnxt_en", "[%u]: rx_mcast_bytes", PD_CTR_RX_BYTES },
	{ "bnxt_en", "[%u]: rx_bcast_bytes", PD_CTR_RX_BYTES },
	{ "bnxt_en", "[%u]: tx_ucast_bytes", PD_CTR_TX_BYTES },
	{ "bnxt_en", "[%u]: tx_mcast_bytes", PD_CTR_TX_BYTES },
	{ "bnxt_en", "[%u]: tx_bcast_bytes", PD_CTR_TX_BYTES },
	{ "bnxt_en", "rx_bytes", PD_CTR_RX_BYTES_PORT },
	{ "bnxt_en", "[%u]: rx_discards", PD_CTR_RX_DROPS },
	{ "bnxt_en", "rx_pause_frames", PD_CTR_PAUSE_RX },
	{ "bnxt_en", "tx_pause_frames", PD_CTR_PAUSE_TX },
	/* r8169: hardware counters on newer chips (RTL8125) */
	{ "r8169", "rx_octets", PD_CTR_RX_BYTES },
	{ "r8169", "tx_octets", PD_CTR_TX_BYTES },
	{ "r8169", "rx_missed", PD_CTR_RX_DROPS },
	{ "r8169", "rx_pause_on", PD_CTR_PAUSE_RX },
	{ "r8169", "tx_pause_on", PD_CTR_PAUSE_TX },
	/* virtio_net: totals on newer kernels, else per queue */
	{ "virtio_net", "rx_bytes", PD_CTR_RX_BYTES },
	{ "virtio_net", "rx_queue_%u_bytes", PD_CTR_RX_BYTES },
	{ "virtio_net", "tx_bytes", PD_CTR_TX_BYTES },
	{ "virtio_net", "tx_queue_%u_bytes", PD_CTR_TX_BYTES },
	{ "virtio_net", "rx_drops", PD_CTR_RX_DROPS },
	{ "virtio_net", "rx_queue_%u_drops", PD_CTR_RX_DROPS },
	/* any driver */
	{ NULL, "rx_bytes", PD_CTR_RX_BYTES },
	{ NULL, "rx_queue_%u_bytes", PD_CTR_RX_BYTES },
	{ NULL, "[%u]: rx_ucast_bytes", PD_CTR_RX_BYTES },
	{ NULL, "[%u]: rx_mcast_bytes", PD_CTR_RX_BYTES },
	{ NULL, "[%u]: rx_bcast_bytes", PD_CTR_RX_BYTES },
	{ NULL, "[%u]: rx_discards", PD_CTR_RX_DROPS },
	{ NULL, "rx_bytes_phy", PD_CTR_RX_BYTES_PORT },
	{ NULL, "port.rx_bytes", PD_CTR_RX_BYTES_PORT },
	{ NULL, "rx_bytes.nic", PD_CTR_RX_BYTES_PORT },
	{ NULL, "rx_out_of_buffer", PD_CTR_RX_DROPS },
	{ NULL, "rx_discards_phy", PD_CTR_RX_DROPS },
	{ NULL, "rx_missed_errors", PD_CTR_RX_DROPS },
	{ NULL, "rx_no_buffer_count", PD_CTR_RX_DROPS },
	{ NULL, "rx_pause_ctrl_phy", PD_CTR_PAUSE_RX },
	{ NULL, "tx_pause_ctrl_phy", PD_CTR_PAUSE_TX },
	{ NULL, "rx_flow_control_xoff", PD_CTR_PAUSE_RX },
	{ NULL, "tx_flow_control_xoff", PD_CTR_PAUSE_TX },
	{ NULL, "port.link_xoff_rx", PD_CTR_PAUSE_RX },
	{ NULL, "port.link_xoff_tx", PD_CTR_PAUSE_TX },
};

/* "rx_queue_%u_bytes" against "rx_queue_12_bytes"; sets *numbered. */
static bool
name_matches(const char *pat, const char *name, bool *numbered)
{
	const char *u = strstr(pat, "%u");

	*numbered = u != NULL;
	if (!u)
		return strcmp(pat, name) == 0;
	size_t pre = (size_t)(u - pat);

	if (strncmp(pat, name, pre) != 0)
		return false;
	const char *p = name + pre;

	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return strcmp(p, u + 2) == 0;
}

static bool
driver_has_rows(const char *driver)
{
	for (size_t i = 0; driver && i < PD_ARRAY_SIZE(aliases); i++)
		if (aliases[i].driver && strcmp(aliases[i].driver, driver) == 0)
			return true;
	return false;
}

bool
pd_counter_alias(const char *driver, const char *name, enum pd_ctr *ctr,
    int *tier)
{
	bool own = driver_has_rows(driver), numbered;

	for (size_t i = 0; i < PD_ARRAY_SIZE(aliases); i++) {
		const struct alias *al = &aliases[i];

		if (own ? !al->driver || strcmp(al->driver, driver) != 0 :
		    al->driver != NULL)
			continue;
		if (name_matches(al->name, name, &numbered)) {
			*ctr = al->ctr;
			/* bnxt prints only per-ring counts: they are its total */
			*tier = numbered && name[0] != '[' ? 1 : 0;
			return true;
		}
	}
	return false;
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

/* The shared arithmetic behind every expected gain.
 *
 * PCIe: Gen1/Gen2 use 8b/10b, Gen3 and later 128b/130b (Gen6 and later
 * FLIT mode, taken as 242/256).  Every TLP carries about 20 bytes of
 * header and framing, so a stream of MaxPayload-sized writes moves
 * MPS/(MPS+20) of the link as payload; completions, flow control and
 * link maintenance take about 1 % more.  Ethernet: each TCP segment at
 * MTU m carries m-52 payload bytes (IPv4 + TCP with timestamps) in
 * m+38 wire bytes (header, FCS, preamble, inter-frame gap).
 */
#ifndef PD_GAIN_H
#define PD_GAIN_H

#define PD_TLP_OVERHEAD 20		/* bytes per TLP */
#define PD_LINK_OVERHEAD 0.01		/* completions, DLLPs, SKPs */
/* Ethernet, IP, TCP and NVMe/TCP PDU headers in what crosses the link
 * with LRO on (one header per coalesced 64 KiB): about 0.4 % */
#define PD_HEADER_SHARE 0.004

/* Raw link rate in GB/s after line encoding; 0 for an unknown rate. */
double pd_pcie_raw_gbs(int mts, int width);
/* Payload efficiency of MaxPayload-sized TLPs: mps / (mps + 20). */
double pd_pcie_tlp_eff(int mps);
/* Payload ceiling in GB/s: raw x TLP efficiency x (1 - 1 %). */
double pd_pcie_ceiling_gbs(int mts, int width, int mps);
/* NVMe or TCP payload ceiling in GB/s: the above x (1 - 0.4 %);
 * Gen5 x4 at MaxPayload 512: 14.95 GB/s. */
double pd_pcie_payload_gbs(int mts, int width, int mps);
/* TCP payload goodput in Gbit/s of an Ethernet link at MTU mtu. */
double pd_eth_goodput_gbits(double link_gbits, int mtu);
/* Speed-up bound when a fraction f of busy time disappears. */
double pd_amdahl(double f);
/* (ratio - 1) in tenths of a percent, rounded: 1.113 -> 113. */
int pd_gain_tenths(double ratio);
/* "8GT/s" style name of a transfer rate in MT/s; "unknown" for 0. */
const char *pd_pcie_speed_name(int mts);
/* PCIe generation of a rate (1..7), 0 when unknown. */
int pd_pcie_gen(int mts);

#endif

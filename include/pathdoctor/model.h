/* The host model: what the readers learned about each host in a bundle.
 *
 * Ownership: everything reachable from a struct pd_model is owned by its
 * arena and freed only by pd_model_free(); readers and rules never call
 * free() on model data.  Lists by key are in key order once
 * pd_model_finalize has run (pd_model_sort: readers add in any order,
 * found through hash indexes), so iteration (and so every output) is
 * deterministic and the work stays n log n however many records a
 * bundle holds.  Zero means unknown
 * for every field unless its comment says otherwise.
 */
#ifndef PD_MODEL_H
#define PD_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct pd_arena;
struct pd_job;

enum pd_tri { PD_UNKNOWN = 0, PD_NO, PD_YES };

enum pd_arch { PD_ARCH_UNKNOWN = 0, PD_ARCH_X86_64, PD_ARCH_ARM64,
	PD_ARCH_OTHER };

/* What a host has, for rules' preconditions (set by pd_model_finalize). */
enum pd_have {
	PD_HAVE_PCI = 1u << 0,		/* lspci -vv devices */
	PD_HAVE_PCIE_LINK = 1u << 1,	/* at least one readable Express cap */
	PD_HAVE_PCI_TOPOLOGY = 1u << 2,	/* lspci -tv, or bridge bus ranges */
	PD_HAVE_CMDLINE = 1u << 3,
	PD_HAVE_ARCH = 1u << 4,		/* uname, cpuinfo or lscpu */
	PD_HAVE_PROFILE = 1u << 5,	/* a CPU profile (perf) */
	PD_HAVE_PORT_SPEED = 1u << 6,	/* NIC port speeds (ethtool) */
	PD_HAVE_NIC_STATS = 1u << 7,	/* ethtool -S of a netdev */
	PD_HAVE_NIC_FEATURES = 1u << 8,	/* ethtool -k */
	PD_HAVE_SYSCTL = 1u << 9,	/* sysctl -a or sysctl net */
	PD_HAVE_NETDEV_PCI = 1u << 10,	/* a netdev joined to its PCI device */
	PD_HAVE_CAPTURE = 1u << 11,	/* a packet capture with TCP */
	PD_HAVE_PAUSE = 1u << 12,	/* ethtool -a of a netdev */
	PD_HAVE_IPLINK = 1u << 13,	/* ip -d link */
	PD_HAVE_RINGS = 1u << 14,	/* ethtool -g of a netdev */
	PD_HAVE_CHANNELS = 1u << 15,	/* ethtool -l of a netdev */
	PD_HAVE_WORKLOAD = 1u << 16,	/* a benchmark's own output (fio, ...) */
	PD_HAVE_SOFTNET = 1u << 17,	/* two timed /proc/net/softnet_stat */
	PD_HAVE_TCP_COUNTERS = 1u << 18, /* two timed TCP counter snapshots */
	PD_HAVE_NVME = 1u << 19,	/* nvme list-subsys: fabric paths */
	PD_HAVE_IPADDR = 1u << 20,	/* ip addr: the host's addresses */
	PD_HAVE_IRQ = 1u << 21,		/* NIC queue interrupts with their
					 * affinity or counts */
	PD_HAVE_CPUFREQ = 1u << 22,	/* cpufreq or powercap values */
	PD_HAVE_RXQ = 1u << 23,		/* per-queue rx bytes, two timed snapshots */
	PD_HAVE_LINK_MODES = 1u << 24,	/* ethtool IF link mode lists */
};

struct pd_evidence {
	const char *member;	/* bundle path; NULL = no evidence */
	uint32_t line;		/* 1-based line in a text member */
	const char *text;	/* the line as read, trimmed */
};

struct pd_kv {
	struct pd_kv *next;
	const char *key;
	const char *val;	/* NULL for a bare flag such as "quiet" */
	struct pd_evidence ev;
};

enum pd_port_type {
	PD_PORT_UNKNOWN = 0,
	PD_PORT_ENDPOINT,
	PD_PORT_LEGACY_ENDPOINT,
	PD_PORT_RCIEP,		/* root complex integrated: no link */
	PD_PORT_RC_EC,		/* root complex event collector */
	PD_PORT_ROOT,
	PD_PORT_UPSTREAM,
	PD_PORT_DOWNSTREAM,
	PD_PORT_PCIE_TO_PCI,
	PD_PORT_PCI_TO_PCIE,
};

/* One function's path as finalize sees it: its PCIe link and ceiling,
 * its port and that port's goodput, its receive rate.  Shared by the
 * NIC and PCIe rules and the per-card tables of every renderer. */
struct pd_pf_path {
	const struct pd_pcidev *pf;
	const struct pd_netdev *nd;	/* NULL when no netdev joined */
	const struct pd_pcidev *root;	/* root port, NULL if unknown */
	int mts, width, mps;		/* the link as trained, current MPS */
	double ceiling_gbs;		/* payload ceiling of that link */
	double port_gbs;		/* TCP goodput of the port; 0 unknown */
	bool rx_known, rx_is_rate;
	double rx;			/* bytes/s, or since-boot bytes */
	double tx_rate;			/* bytes/s sent; -1 unknown */
};

struct pd_pcidev {
	struct pd_pcidev *next;		/* sorted by bdf */
	char bdf[16];			/* "0000:01:00.0" */
	unsigned domain, bus, dev, fn;
	const char *member;		/* where the device block was read */
	const char *class_name;		/* "Ethernet controller" */
	int class_code;			/* -1 unknown (needs lspci -nn) */
	int vendor_id, device_id;	/* -1 unknown (needs lspci -nn) */
	const char *desc;		/* "Mellanox Technologies MT2910 ..." */
	const char *driver, *modules;
	int numa_node, iommu_group;	/* -1 unknown */
	enum pd_tri caps_readable;	/* PD_NO: "<access denied>" */
	bool is_vf;
	bool is_bridge;
	int bus_primary, bus_secondary, bus_subordinate;	/* -1 unknown */
	bool has_express;
	enum pd_port_type port;
	int mps_cap, mps, mrrs;		/* bytes */
	int lnkcap_mts, lnkcap_width;	/* MT/s (2500 ... 128000), lanes */
	int lnksta_mts, lnksta_width;	/* 0 with lnk_down: link is down */
	bool lnk_down;
	const char *lnksta_mark;	/* "downgraded", "ok", ... or NULL */
	bool has_dsn;
	uint64_t dsn;
	int sriov_total, sriov_num, sriov_offset, sriov_stride; /* -1 */
	struct pd_evidence ev_header, ev_devcap, ev_devctl, ev_lnkcap,
	    ev_lnksta, ev_dsn;

	/* topology, filled by pd_model_finalize */
	struct pd_pcidev *parent;	/* the bridge above, NULL at the top */
	const char *parent_source;	/* "lspci-tv", "bus ranges" */
	struct pd_pcidev *root_port;	/* the root port above, if any */
	/* the first device below it, in bdf order, with an Express link
	 * capability: the far end of a port's link */
	struct pd_pcidev *link_child;
	struct pd_netdev *netdev;	/* joined on ethtool -i bus-info */
	struct pd_pf_path path;		/* derived by finalize */
};

/* Canonical counter meanings (src/finalize/counter_alias.c maps driver names). */
enum pd_ctr {
	PD_CTR_RX_BYTES = 0,	/* bytes received by this function */
	PD_CTR_RX_BYTES_PORT,	/* bytes received by the physical port */
	PD_CTR_RX_DROPS,	/* dropped by the NIC for lack of buffers */
	PD_CTR_PAUSE_RX,	/* pause frames received */
	PD_CTR_PAUSE_TX,	/* pause frames sent */
	PD_CTR_TX_BYTES,	/* bytes sent by this function */
	PD_CTR_COUNT,
};

struct pd_counter {
	struct pd_counter *next;	/* sorted by name */
	const char *name;		/* as printed ("[0]: rx_discards") */
	uint64_t value;
	uint32_t line;
	const char *text;		/* the line, for evidence */
};

/* One ethtool -S dump. */
struct pd_snapshot {
	struct pd_snapshot *next;	/* sorted by time, then member */
	const char *member;
	int64_t time_ms;		/* unix time in ms; -1 unknown */
	struct pd_counter *counters;
	unsigned n_counters;
};

/* A canonical counter over the snapshots: a rate where two or more
 * snapshots have known times, else the since-boot total. */
struct pd_ctr_value {
	bool known;
	bool is_rate;			/* per_s valid; else only total */
	double per_s;
	uint64_t total;			/* the last snapshot's value */
	unsigned n_names;		/* driver counters summed into it */
	struct pd_evidence ev_first, ev_last;
};

/* NIC receive drops and errors by class, and per-queue receive rates
 * (ethtool -S names through src/finalize/counter_alias.c; derived by
 * finalize from the snapshots like enum pd_ctr).  PD_DROP_RX_PACKETS is
 * the denominator: the packets the port or function received. */
enum pd_drop {
	PD_DROP_RX_PACKETS = 0,	/* packets received (port, else function) */
	PD_DROP_NO_BUFFER,	/* no host buffer posted: out of buffer, no
				 * descriptors, ring drops */
	PD_DROP_MISSED,		/* the NIC's FIFO overflowed: missed */
	PD_DROP_PORT,		/* discarded in the port's buffer */
	PD_DROP_CRC,		/* CRC/FCS and symbol errors on the wire */
	PD_DROP_LENGTH,		/* length, undersize, oversize, jabber */
	PD_DROP_COUNT,
};

/* Receive queues kept per netdev: queue numbers at or above it are left
 * out (and counted).  mlx5 opens up to 256 channels per function on
 * common hosts; ice, i40e and bnxt stay below that too. */
#define PD_RXQ_MAX 512

/* Each receive queue's bytes per second between the first and the last
 * ethtool -S snapshot with times (rxN_bytes, rx-N.bytes, rx_queue_N_bytes,
 * bnxt "[N]: rx_*cast_bytes" summed per ring, ...). */
struct pd_rxq {
	unsigned n;			/* slots: highest queue number + 1 */
	double *per_s;			/* [n]; -1: no counter in both */
	unsigned n_counted;		/* queues with a rate */
	unsigned n_beyond;		/* counters of queues >= PD_RXQ_MAX */
	double seconds;			/* between the two snapshots */
	double total_per_s;		/* sum over the queues */
	unsigned busiest;		/* queue number with the most bytes */
	struct pd_evidence ev_first, ev_last;	/* the busiest queue's lines */
};

struct pd_feature {
	struct pd_feature *next;	/* sorted by name */
	const char *name;		/* "large-receive-offload" */
	enum pd_tri on;
	bool fixed;
	enum pd_tri requested;		/* "[requested on]" */
	struct pd_evidence ev;
};

/* Kernel counters of an interface (netdev-stats: /sys/class/net/IF/
 * statistics), first and last snapshot by time. */
struct pd_kstat {
	int64_t time;			/* unix seconds; -1 unknown */
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets, rx_dropped;
	const char *member;
};

/* The kernel counters' rates between the first and last snapshot. */
struct pd_kstat_rate {
	bool known;			/* two snapshots, the last one later */
	double rx_per_s, tx_per_s;	/* bytes per second */
	double seconds;
};

/* One block of ethtool -g: the pre-set maximums or the current hardware
 * settings.  -1 is unknown: "n/a" (netlink ethtool: the driver has no
 * such ring), or not printed by that ethtool.  The ioctl path of older
 * ethtool prints 0 where netlink prints n/a; the values are as printed. */
struct pd_rings {
	int64_t rx, rx_mini, rx_jumbo, tx;
	int64_t rx_buf_len, cqe_size;		/* current settings only */
	int64_t tx_push_buf_len, hds_thresh;	/* ethtool 6.4 / 6.15 on */
};

/* One block of ethtool -l, the same way ("n/a" is -1, ioctl prints 0). */
struct pd_channels {
	int64_t rx, tx, other, combined;
};

/* Ethernet link modes (plain ethtool IF): what the port supports and
 * advertises and what its link partner advertises, each mode read as
 * its speed (the leading number of "25000baseCR/Full") and duplex, the
 * names kept for evidence, and the autonegotiation flags. */
#define PD_LINK_MODES_MAX 24	/* distinct speed/duplex pairs per list */

struct pd_link_mode {
	int speed_mbps;
	bool full;		/* "/Full", or no duplex ("10000baseR_FEC") */
};

struct pd_link_modes {
	bool read;		/* the list's line was in the output */
	bool not_reported;	/* "Not reported" */
	struct pd_link_mode m[PD_LINK_MODES_MAX];	/* distinct, as read */
	unsigned n;
	unsigned n_names;	/* mode names read, duplicates included */
	struct pd_evidence ev;	/* first line; text: every name, joined */
};

struct pd_link_settings {
	struct pd_link_modes supported, advertised, partner;
	enum pd_tri an_supported;	/* Supports auto-negotiation */
	enum pd_tri an_advertised;	/* Advertised auto-negotiation */
	enum pd_tri an_partner;		/* Link partner advertised a.-n. */
	enum pd_tri autoneg;		/* Auto-negotiation: on/off */
	enum pd_tri full_duplex;	/* Duplex: Full (yes), Half (no) */
	struct pd_evidence ev_autoneg, ev_duplex;
};

/* The fastest mode of l (full duplex over half at one speed); NULL when
 * l has none. */
static inline const struct pd_link_mode *
pd_link_modes_best(const struct pd_link_modes *l)
{
	const struct pd_link_mode *b = NULL;

	for (unsigned i = 0; i < l->n; i++)
		if (!b || l->m[i].speed_mbps > b->speed_mbps ||
		    (l->m[i].speed_mbps == b->speed_mbps && l->m[i].full &&
		    !b->full))
			b = &l->m[i];
	return b;
}

struct pd_netdev {
	struct pd_netdev *next;		/* sorted by name */
	bool unnamed;			/* "(BUS)": ethtool -i of an interface
					 * no member names; finalize merges it
					 * into the netdev at that bus-info */
	bool guessed;			/* named only after a member's neutral
					 * path ("m03"): finalize drops it as a
					 * phantom where the host's outputs
					 * name their interfaces */
	struct pd_kstat kstat[2];	/* first, last (n_kstat of them) */
	unsigned n_kstat;
	struct pd_kstat_rate kstat_rate;	/* derived by finalize */
	const char *name;
	/* ethtool -i */
	const char *driver, *driver_version, *firmware;
	const char *bus_info;		/* "0000:01:00.0" when PCI */
	struct pd_evidence ev_driver;
	/* ethtool */
	int speed_mbps;			/* -1 unknown, 0 "Unknown!" */
	const char *duplex;
	enum pd_tri link;
	struct pd_evidence ev_speed;
	struct pd_link_settings ls;	/* ethtool: link modes */
	/* ethtool -a; pause_error is ethtool's reason when it could not
	 * read them ("Operation not supported": veth, bridges, many
	 * virtual NICs), the three then stay unknown */
	enum pd_tri pause_autoneg, pause_rx, pause_tx;
	const char *pause_error;
	struct pd_evidence ev_pause;
	/* ethtool -g; *_error is ethtool's reason when it could not read
	 * them ("Operation not supported": the driver does not say) */
	struct pd_rings rings_max, rings_cur;
	enum pd_tri tx_push, rx_push, tcp_data_split;
	const char *rings_error;
	struct pd_evidence ev_rings;
	/* ethtool -l */
	struct pd_channels channels_max, channels_cur;
	const char *channels_error;
	struct pd_evidence ev_channels;
	/* ethtool -k */
	struct pd_feature *features;
	/* ethtool -S */
	struct pd_snapshot *snaps;
	unsigned n_snaps;
	/* ip -d link */
	int ifindex, mtu;		/* -1 unknown */
	const char *flags, *state, *master, *kind, *tun_type, *link_parent;
	long gso_max_size, gso_max_segs, gso_ipv4_max_size, gro_max_size;
	long tso_max_size, tso_max_segs;	/* -1 unknown */
	int n_txq, n_rxq;		/* -1 unknown */
	struct pd_evidence ev_iplink, ev_gso;
	/* derived by pd_model_finalize */
	struct pd_pcidev *pci;
	struct pd_ctr_value ctr[PD_CTR_COUNT];
	struct pd_ctr_value drop[PD_DROP_COUNT];
	struct pd_rxq *rxq;		/* NULL: no per-queue rate */
};

/* The PFs of one adapter: same Device Serial Number, else the same
 * vendor/device on functions of one device. */
#define PD_CARD_MAX_PFS 16

struct pd_card {
	struct pd_card *next;		/* sorted by first PF */
	const char *desc;
	bool has_dsn;
	uint64_t dsn;
	struct pd_pcidev *pfs[PD_CARD_MAX_PFS];	/* sorted by bdf */
	unsigned n_pfs;
};

/* Captures: one per interface of a capture file. */
#define PD_CAPTURE_SIZES 64	/* exact payload sizes kept, by count */
#define PD_FLOW_SIZES 16	/* exact sizes kept per flow direction */
#define PD_CAPTURE_FLOWS 16	/* flows kept per capture, by bytes */
#define PD_CAPTURE_STALLS 5	/* longest gaps before a retransmission */
#define PD_SIZE_BUCKETS 18	/* 0, 1-63, 64-127, ..., >= 65536 */

struct pd_size_count {
	uint32_t bytes;
	uint64_t count;
};

struct pd_size_hist {
	struct pd_size_count top[PD_CAPTURE_SIZES];	/* count desc */
	unsigned n;
	uint64_t other;				/* counts not in top */
	uint64_t buckets[PD_SIZE_BUCKETS];
};

struct pd_flow_key {
	uint8_t family;
	uint8_t a[16], b[16];	/* a:pa is the lower end */
	uint16_t pa, pb;
};

struct pd_flow_dir {
	uint64_t bytes, segs, retrans_segs, retrans_bytes, dup_segs;
	uint64_t super_segs;	/* payload above the MSS: TSO/GSO/GRO */
	uint32_t max_payload;
	uint16_t mss;		/* from the SYN, 0 unknown */
	struct pd_size_count sizes[PD_FLOW_SIZES];
	unsigned n_sizes;
	unsigned last_size;	/* the entry counted last, tried first */
	uint64_t sizes_other;
};

struct pd_flow {
	struct pd_flow_key key;
	struct pd_flow_dir dir[2];	/* [0] a -> b, [1] b -> a */
	double first_ts, last_ts;
};

struct pd_stall {
	double ts, gap;		/* seconds: when, and silence before it */
};

enum pd_side { PD_SIDE_UNKNOWN = 0, PD_SIDE_VIRTUAL, PD_SIDE_PHYSICAL };

struct pd_capture {
	struct pd_capture *next;	/* sorted by member, then interface */
	const char *member, *ifname;
	int linktype;
	uint32_t snaplen;
	uint64_t packets, tcp_segments, tcp_payload_bytes;
	uint64_t retrans_segs, retrans_bytes, dup_segs, keepalives;
	uint64_t window_probes, super_segs, undecoded;
	/* segments below the highest sequence that came soon after it
	 * (tshark's out_of_order), not among the retransmissions */
	uint64_t ooo_segs;
	/* undecoded frames by why (enum pd_undecoded, decode/packet.h), and
	 * the last protocol number each reason stopped at */
#define PD_CAPTURE_WHY 8
	uint64_t undecoded_by[PD_CAPTURE_WHY];
	uint16_t undecoded_what[PD_CAPTURE_WHY];
	/* segments the sender sent that never reached the capture point,
	 * from gaps in IP IDs that otherwise count up one per segment */
	uint64_t unseen_segs;
	double first_ts, last_ts;
	bool truncated;
	/* --filter: the expression and the packets read before it; packets
	 * and every figure above count only those it matched */
	const char *filter;
	uint64_t packets_read;
	struct pd_size_hist sizes;
	struct pd_flow flows[PD_CAPTURE_FLOWS];	/* bytes desc */
	unsigned n_flows;
	uint64_t flows_seen, flows_evicted;
	struct pd_stall stalls[PD_CAPTURE_STALLS];	/* gap desc */
	unsigned n_stalls;
	uint64_t n_stall_events;
	double stall_time;
	struct pd_evidence ev;
	/* derived by pd_model_finalize */
	double duration;		/* seconds, last_ts - first_ts */
	struct pd_netdev *netdev;
	enum pd_side side;
	const char *side_why;
};

/* Notes the model itself raises (a counter that went backwards). */
struct pd_model_note {
	struct pd_model_note *next;
	const char *msg;
	struct pd_evidence ev;
};

/* An edge read from lspci -tv: device bdf sits below bridge parent. */
struct pd_pci_edge {
	struct pd_pci_edge *next;	/* sorted by bdf */
	char bdf[16];
	char parent[16];		/* "" directly on a root bus */
	int secondary, subordinate;	/* when the device is a bridge; -1 */
	struct pd_evidence ev;
};

enum pd_iommu_mode {
	PD_IOMMU_UNKNOWN = 0,
	PD_IOMMU_STRICT,	/* unmap waits for the IOTLB invalidation */
	PD_IOMMU_LAZY,		/* invalidations batched (flush queue) */
	PD_IOMMU_PASSTHROUGH,	/* identity mapping for DMA, no invalidation */
	PD_IOMMU_OFF,
};

struct pd_iommu {
	enum pd_iommu_mode mode;
	const char *reason;	/* why: parameter or architecture default */
	struct pd_evidence ev;	/* the cmdline token, when one decided */
};

#define PD_MAX_CPUS 4096

struct pd_cpu_type {
	struct pd_cpu_type *next;	/* sorted by name */
	const char *name;		/* "Cortex-X925", "Intel(R) Xeon(R) ..." */
	unsigned count;
};

struct pd_profile;

/* What pathdoctor-collect could not gather (its manifest): a skipped
 * output, or a command that failed. */
struct pd_collect_gap {
	struct pd_collect_gap *next;	/* in manifest order */
	const char *format, *path, *reason;
};

/* The run of the user's benchmark the collector made with the snapshots
 * (pathdoctor-collect --during), from its manifest line. */
struct pd_workload_run {
	const char *command;		/* as given, escapes undone */
	const char *stdout_path;	/* members, relative to the manifest's */
	const char *stderr_path;	/* directory: "workload/stdout.txt" */
	unsigned seconds;		/* how long it ran */
	int exit;			/* its exit status; -1 when stopped */
	bool stopped;			/* --timeout ended it */
};

/* A function symbol, from kallsyms or an ELF symbol table; 32 bytes,
 * so that the 122 k text symbols of a /proc/kallsyms fill two huge
 * pages, not three. */
struct pd_sym {
	uint64_t addr, size;		/* size 0: up to the next symbol */
	const char *name;
	uint32_t module;		/* kallsyms' "[mlx5_core]": index + 1
					 * in the host's kmods; 0 none */
	uint32_t bind;			/* 0 local, 1 global, 2 weak */
};

/* An ELF file of the bundle (perf archive's build-id cache, a vmlinux):
 * what names a profile's addresses inside it. */
struct pd_elf_seg {
	uint64_t offset, vaddr, memsz;	/* PT_LOAD */
};

#define PD_ELF_SEGS 16

struct pd_elf {
	struct pd_elf *next;
	const char *member;
	char build_id[41];		/* hex; "" when none */
	struct pd_elf_seg segs[PD_ELF_SEGS];
	unsigned n_segs;
	struct pd_sym *syms;		/* functions, by address */
	unsigned n_syms;
	struct pd_sym *plt;		/* perf's NAME@plt stubs, by address */
	unsigned n_plt;
	bool from_symtab;		/* .symtab (else .dynsym) */
	uint64_t text_addr;		/* _text or _stext: a vmlinux's base */
	bool debug_only;		/* separate debug file: no code, and
					 * segment offsets not the binary's */
};

/* Observed throughput, from the workload's own output (fio, iperf3,
 * spdk_nvme_perf).  Unknown is -1 in every number of these records
 * (0 is a measured zero: a read-only job's write side), NULL in every
 * string.
 *
 * The workload's throughput, for the path ladder: a storage job's
 * rd.bytes_per_s is what the host received (an NVMe/TCP or iSCSI
 * initiator's reads arrive on its NIC) and wr.bytes_per_s what it sent;
 * a network test's net.recv_bytes_per_s is what arrived at the receiving
 * end and net.sent_bytes_per_s what left the sending end.  Take them
 * from struct pd_workload's total when it has one (every job together),
 * else from its only job. */
struct pd_wl_side {
	int64_t bytes;			/* fio io_bytes */
	double bytes_per_s;		/* fio's bw is KiB/s: stored x 1024 */
	double iops;
	/* completion latency (fio clat), microseconds */
	double lat_mean_us, lat_p50_us, lat_p99_us, lat_p999_us;
};

struct pd_wl_net {
	int64_t sent_bytes, recv_bytes;
	double sent_bytes_per_s, recv_bytes_per_s;
	int64_t retransmits;
	int streams;
	const char *role;		/* "client" or "server": this end */
	enum pd_tri reverse;		/* -R: the server sent */
};

struct pd_wl_job {
	struct pd_wl_job *next;		/* in output order */
	const char *name;		/* fio jobname; "total" for a total */
	int groupid;			/* fio group; -1 */
	bool group_reporting;		/* one record for a group's jobs */
	struct pd_wl_side rd, wr;
	struct pd_wl_net net;
	/* Options that matter, job options over global ones, as written */
	const char *rw, *bs, *ioengine;
	const char *filename;		/* whole ':'-separated list */
	int n_devices;			/* entries in filename; -1 without */
	int iodepth, numjobs;		/* -1 when not given */
	double seconds;			/* run time */
	struct pd_evidence ev;		/* the job's first line */
};

struct pd_workload {
	struct pd_workload *next;	/* sorted by member */
	const char *member;
	const char *tool;		/* "fio", "iperf3", "spdk_nvme_perf" */
	const char *version;		/* "fio-3.25"; NULL */
	struct pd_wl_job *jobs;
	unsigned n_jobs;
	/* Every job together (bytes, rates and IOPS summed; latency -1
	 * unless one job), or the output's own total line; NULL when the
	 * output has neither. */
	struct pd_wl_job *total;
	unsigned n_errors;		/* error lines, or jobs with err != 0 */
	struct pd_evidence first_error;
};

/* A member identified but not attributable (an ethtool -S dump that
 * names no interface, in a file whose path names none either): the
 * report lists it with the rules that would have used it. */
struct pd_unused {
	struct pd_unused *next;		/* in walk order */
	const char *member, *format, *reason;
};

/* /proc/net/softnet_stat: one snapshot's per-CPU counters, indexed by
 * CPU number (the line's position, or its CPU column on 5.10 and
 * later); the kernel prints them as 32-bit values.  Only CPUs with a
 * line have seen set. */
struct pd_softnet_cpu {
	bool seen;
	uint32_t processed, dropped, time_squeeze;
	struct pd_evidence ev;
};

struct pd_softnet_snap {
	int64_t time;			/* unix seconds; -1 unknown */
	const char *member;
	struct pd_softnet_cpu *cpu;	/* [n_cpu]; NULL: no snapshot */
	unsigned n_cpu;			/* highest CPU number + 1 */
};

/* First and last snapshot by time (n of them, 0 to 2). */
struct pd_softnet {
	struct pd_softnet_snap snap[2];
	unsigned n;
};
/* Interrupts and CPU frequency: /proc/interrupts snapshots, each IRQ's
 * affinity (/proc/irq/N/smp_affinity_list, effective_affinity_list, or
 * their hex masks), cpufreq policies, powercap zones and thermal zones.
 * Counts are per CPU column of one snapshot: col_cpu maps a column to
 * its CPU number (the header names them; offline CPUs have none). */
#define PD_IRQ_ROWS 8192		/* interrupt rows kept per snapshot */
#define PD_IRQ_NUM_MAX 65536		/* IRQ numbers with an affinity */
#define PD_CPUMASK_WORDS (PD_MAX_CPUS / 64)

struct pd_irq_row {
	unsigned irq;
	const char *chip;		/* "IR-PCI-MSI", "ITS-MSI", "GICv3";
					 * NULL for a row with no columns */
	const char *hwirq;		/* "524288-edge", "0-edge"; NULL */
	const char *name;		/* "mlx5_comp3@pci:0000:01:00.0" */
	char bdf[16];			/* from "@pci:BDF" or the chip's
					 * "-0000:02:00.0"; "" none */
	uint64_t *count;		/* [n_col of its snapshot] */
	uint64_t total;
	struct pd_evidence ev;
};

struct pd_irq_snap {
	int64_t time;			/* unix seconds; -1 unknown */
	const char *member;
	unsigned n_col;
	uint16_t *col_cpu;		/* [n_col]: CPU number of a column */
	struct pd_irq_row *rows;	/* [n_rows], in file order */
	unsigned n_rows;
};

/* One IRQ's affinity: CPU bitmaps of PD_CPUMASK_WORDS words each. */
struct pd_irq_aff {
	struct pd_irq_aff *next;	/* in the order first read */
	unsigned irq;
	uint64_t *smp, *eff;		/* NULL: not read */
	unsigned n_smp, n_eff;		/* CPUs set */
	struct pd_evidence ev_smp, ev_eff;
};

struct pd_interrupts {
	struct pd_irq_snap snap[2];	/* first, last by time (n of them) */
	unsigned n;
	struct pd_irq_aff *aff;
	unsigned n_aff;
	struct pd_irq_aff **aff_of;	/* [PD_IRQ_NUM_MAX]; NULL: none */
};

/* A cpufreq policy (/sys/devices/system/cpu/cpufreq/policyN) or a
 * CPU's own directory (cpuN/cpufreq); frequencies in kHz, -1 unknown. */
struct pd_cpufreq {
	struct pd_cpufreq *next;	/* in the order first read */
	bool policy;			/* policyN, else cpuN */
	unsigned num;
	int64_t scaling_max, scaling_min, cpuinfo_max, cur;
	const char *governor, *driver;	/* NULL unknown */
	uint64_t *cpus;			/* affected_cpus or related_cpus */
	struct pd_evidence ev_smax, ev_cmax, ev_cur, ev_gov;
};

#define PD_POWERCAP_CONSTRAINTS 4

struct pd_powercap_constraint {
	const char *name;		/* "long_term", "short_term" */
	int64_t limit_uw, max_uw;	/* -1 unknown; max 0: none given */
	struct pd_evidence ev_limit, ev_max;
};

/* A powercap zone (/sys/class/powercap/ZONE) or a thermal zone. */
struct pd_powercap {
	struct pd_powercap *next;	/* in the order first read */
	const char *zone;		/* "intel-rapl:0", "thermal_zone3" */
	bool thermal;
	const char *name;		/* powercap name, thermal type */
	int enabled;			/* -1 unknown */
	int64_t temp_mc;		/* thermal: millidegrees; INT64_MIN */
	struct pd_powercap_constraint c[PD_POWERCAP_CONSTRAINTS];
	struct pd_evidence ev_name, ev_temp;
};

struct pd_cpufreq_set {
	struct pd_cpufreq *list;
	unsigned n;
	struct pd_cpufreq **of;		/* [2 * PD_MAX_CPUS]: cpuN, policyN */
	struct pd_powercap *zones;
	unsigned n_zones;
	/* intel_pstate's max_perf_pct (a cap on every CPU, in % of its
	 * maximum performance); 0 unknown (the kernel keeps it above 0) */
	int max_perf_pct;
	struct pd_evidence ev_max_perf;
};

/* The host's TCP counters (/proc/net/snmp, nstat -az): since-boot
 * totals of one snapshot; a host keeps its first and last by time. */
struct pd_tcpstat {
	int64_t time;			/* unix seconds; -1 unknown */
	bool has_out, has_retrans;
	uint64_t out_segs, retrans_segs;	/* OutSegs, RetransSegs */
	const char *member;
	struct pd_evidence ev_out, ev_retrans;	/* one line for snmp */
};

/* Keeps k as the host's first or last TCP counter snapshot by time. */
struct pd_host;
void pd_host_tcpstat_keep(struct pd_host *h, const struct pd_tcpstat *k);

/* NVMe over Fabrics multipath: the subsystems `nvme list-subsys` shows
 * (text or -o json), each with its controllers (the paths), the I/O
 * policy native multipath uses to choose among them (list-subsys 2.x,
 * or the subsystem's sysfs iopolicy file), and the host's interface
 * addresses (`ip addr`) that tie each path to the netdev it leaves
 * from.  Lists are in insertion order, bounded by the readers. */
#define PD_NVME_MAX_SUBSYS 256
#define PD_NVME_MAX_PATHS 64		/* per subsystem */
#define PD_IPADDR_MAX 1024

/* How finalize tied a path to its netdev, best first. */
enum pd_nvme_join {
	PD_NVME_JOIN_NONE = 0,
	PD_NVME_JOIN_IFACE,		/* host_iface= names it */
	PD_NVME_JOIN_ADDR,		/* host_traddr/src_addr is its address */
	PD_NVME_JOIN_SUBNET,		/* traddr lies in its prefix */
};

struct pd_nvme_path {
	struct pd_nvme_path *next;	/* in output order */
	const char *ctrl;		/* "nvme0" */
	const char *transport;		/* "tcp", "rdma", "fc", "pcie", "loop" */
	const char *traddr, *trsvcid;	/* the target's address and port */
	const char *host_traddr, *src_addr, *host_iface;	/* NULL: none */
	const char *state;		/* "live", "connecting", ...; NULL */
	const char *ana;		/* "optimized", "non-optimized", ... */
	struct pd_evidence ev;
	/* derived by finalize */
	const struct pd_netdev *nd;
	enum pd_nvme_join join;
	const char *join_what;		/* the address or prefix matched */
};

struct pd_nvme_subsys {
	struct pd_nvme_subsys *next;	/* in the order first seen */
	const char *name;		/* "nvme-subsys0" */
	const char *nqn, *hostnqn;
	/* "numa", "round-robin", "queue-depth"; NULL unknown.  The sysfs
	 * file wins over list-subsys (it is what the kernel uses). */
	const char *iopolicy;
	bool iopolicy_sysfs;
	struct pd_evidence ev, ev_iopolicy;
	struct pd_nvme_path *paths;
	unsigned n_paths;
};

/* One address of `ip addr`: IPv4 or IPv6 with its prefix length. */
struct pd_ipaddr {
	struct pd_ipaddr *next;		/* in output order */
	const char *ifname;		/* "nic2" ("bond1.57", "@" part cut) */
	uint8_t family;			/* 4 or 6 */
	uint8_t addr[16];		/* network order; IPv4 in the first 4 */
	unsigned prefix;		/* 0..32 or 0..128 */
	const char *text;		/* "10.0.1.2/24" as printed */
	struct pd_evidence ev;
};

/* The subsystem of that name, created when new (NULL at the bound). */
struct pd_host;
struct pd_nvme_subsys *pd_host_nvme_subsys(struct pd_host *h,
    struct pd_arena *a, const char *name);
/* A path of s by controller name, created when new (NULL at the bound);
 * a path listed again (text and JSON of one host) is the same one. */
struct pd_nvme_path *pd_nvme_subsys_path(struct pd_nvme_subsys *s,
    struct pd_arena *a, const char *ctrl);
/* How finalize joined a path to its netdev ("host_iface", "host
 * address", "subnet"); NULL when it did not. */
const char *pd_nvme_join_name(enum pd_nvme_join j);
/* A new address at the end of the host's list (NULL at the bound). */
struct pd_ipaddr *pd_host_ipaddr(struct pd_host *h, struct pd_arena *a);
/* Parses an address ("10.0.0.1", "fe80::1", "fe80::1%nic2"): family 4
 * or 6, 0 when it is neither. */
unsigned pd_ip_parse(const char *s, size_t n, uint8_t out[16]);
/* True when a and b (same family) agree in their first prefix bits. */
bool pd_ip_in_prefix(const uint8_t *a, const uint8_t *b, unsigned family,
    unsigned prefix);

struct pd_host_private;
struct pd_model_private;

struct pd_host {
	struct pd_host *next;		/* sorted by key */
	struct pd_host_private *priv;	/* the model's indexes (src/model) */
	const struct pd_model *model;	/* the bundle's other hosts */
	const char *key;		/* bundle path prefix ("" at the top) */
	const char *name;		/* display name, set by finalize */
	unsigned have;			/* enum pd_have bits */
	unsigned n_members;

	enum pd_arch arch;
	const char *arch_name;		/* "aarch64" as printed */
	struct pd_evidence ev_arch;
	const char *nodename, *kernel_release;
	unsigned n_cpus;
	struct pd_cpu_type *cpu_types;

	const char *cmdline;		/* the whole line */
	struct pd_evidence ev_cmdline;
	struct pd_kv *cmdline_kv;	/* tokens in order */
	struct pd_iommu iommu;		/* derived by finalize */

	struct pd_pcidev *pcidevs;
	unsigned n_pcidevs;
	struct pd_pci_edge *pci_edges;

	struct pd_netdev *netdevs;
	unsigned n_netdevs;
	struct pd_kv *sysctl;		/* sorted by key, last value wins */
	struct pd_card *cards;		/* derived */
	struct pd_capture *captures;
	struct pd_profile *profiles;	/* sorted by member */
	struct pd_workload *workloads;	/* sorted by member */
	struct pd_sym *ksyms;		/* kallsyms, sorted by address */
	unsigned n_ksyms, cap_ksyms;
	const char **kmods;		/* the module names ksyms name */
	unsigned n_kmods, cap_kmods;
	const char *ksyms_member;
	struct pd_job *jobs;		/* readers' work under way (job.h) */
	struct pd_elf *elfs;
	const char *collector;		/* manifest: "pathdoctor-collect 0.1.0" */
	struct pd_collect_gap *gaps;
	unsigned n_gaps;		/* derived: gaps listed */
	const struct pd_workload_run *workload_run;	/* manifest */
	const char **cpu_type_of;	/* [PD_MAX_CPUS]: type of each CPU */
	/* NUMA: lscpu's "NUMA node(s):" (0 unknown) and each CPU's node
	 * from its "NUMA nodeN CPU(s):" lines ([PD_MAX_CPUS], -1 for a CPU
	 * no line names; NULL without them) */
	unsigned n_numa_nodes;
	struct pd_evidence ev_numa;
	int16_t *numa_of_cpu;
	struct pd_model_note *notes;	/* derived, in order */
	struct pd_unused *unused;	/* members it could not attribute */
	const char *guest_why;		/* derived: a virtual machine, and
					 * why ("virtio_net NICs only") */
	struct pd_softnet softnet;	/* /proc/net/softnet_stat */
	struct pd_tcpstat tcpstat[2];	/* first, last (n_tcpstat of them) */
	unsigned n_tcpstat;
	struct pd_nvme_subsys *nvme;	/* nvme list-subsys, iopolicy */
	unsigned n_nvme;
	struct pd_ipaddr *ipaddrs;	/* ip addr */
	unsigned n_ipaddrs;
	struct pd_interrupts irqs;	/* /proc/interrupts, IRQ affinity */
	struct pd_cpufreq_set freq;	/* cpufreq, powercap, thermal */
};

struct pd_model {
	struct pd_arena *arena;
	struct pd_host *hosts;
	unsigned n_hosts;
	struct pd_model_private *priv;	/* the model's indexes (src/model) */
};

/* Lists sorted on insertion (only short ones: each insertion walks the
 * list, so a list a bundle can make long is sorted by pd_model_sort
 * instead), with one idiom: PD_SORTED_SEEK moves pp (the address of the
 * head or of a node's next) to where key belongs in a list sorted by
 * strcmp on field; PD_SORTED_AT then tells whether *pp already holds
 * key.  Insert a new node at *pp. */
#define PD_SORTED_SEEK(pp, field, key)                                 \
	while (*(pp) && strcmp((*(pp))->field, (key)) < 0)             \
		(pp) = &(*(pp))->next
#define PD_SORTED_AT(pp, field, key)                                   \
	(*(pp) && strcmp((*(pp))->field, (key)) == 0)

struct pd_model *pd_model_new(void);
void pd_model_free(struct pd_model *m);
struct pd_arena *pd_model_arena(const struct pd_model *m);
struct pd_host *pd_model_host(struct pd_model *m, const char *key);
/* Puts every list by key in key order (pd_model_finalize runs it
 * first); records with equal keys keep the order they were added in. */
void pd_model_sort(struct pd_model *m);

/* Lookup-or-create by bdf (pd_model_sort orders the list). */
struct pd_pcidev *pd_host_pcidev(struct pd_host *h, struct pd_arena *a,
    unsigned domain, unsigned bus, unsigned dev, unsigned fn, bool *created);
const struct pd_pcidev *pd_host_find_pcidev(const struct pd_host *h,
    const char *bdf);
struct pd_pci_edge *pd_host_pci_edge(struct pd_host *h, struct pd_arena *a,
    const char *bdf);
void pd_host_cpu_type(struct pd_host *h, struct pd_arena *a,
    const char *name);
/* The type of CPU number cpu (cpuinfo's "processor"; lscpu in order). */
void pd_host_cpu_index_type(struct pd_host *h, struct pd_arena *a,
    unsigned cpu, const char *name);
/* Appends a cmdline token (kept in order). */
void pd_host_cmdline_add(struct pd_host *h, struct pd_arena *a,
    const char *key, const char *val, const struct pd_evidence *ev);
/* Last value of a cmdline key (kernel semantics: the last one wins);
 * *present tells a bare flag from absence. */
const struct pd_kv *pd_host_cmdline_last(const struct pd_host *h,
    const char *key);
/* True when any pci= token lists the option (pci=a,b,c). */
const struct pd_kv *pd_host_cmdline_pci_opt(const struct pd_host *h,
    const char *opt);

/* Lookup-or-create by interface name (pd_model_sort orders the list). */
struct pd_netdev *pd_host_netdev(struct pd_host *h, struct pd_arena *a,
    const char *name);
/* The netdev a neutral member path names ("m03"), marked guessed when
 * new; pd_host_netdev of the same name clears the mark. */
struct pd_netdev *pd_host_netdev_guessed(struct pd_host *h,
    struct pd_arena *a, const char *name);
/* Records a member of format that no interface could be given; reason
 * says what to name it. */
void pd_host_unused(struct pd_host *h, struct pd_arena *a,
    const char *member, const char *format, const char *reason);
const struct pd_netdev *pd_host_find_netdev(const struct pd_host *h,
    const char *name);
/* Takes *pp (the netdevs list's head or a node's next) out of the host,
 * and out of its lookups. */
void pd_host_drop_netdev(struct pd_host *h, struct pd_netdev **pp);
struct pd_snapshot *pd_netdev_snapshot(struct pd_netdev *nd,
    struct pd_arena *a, const char *member, int64_t time_ms);
const struct pd_feature *pd_netdev_feature(const struct pd_netdev *nd,
    const char *name);
/* The counter of that name in one ethtool -S snapshot; NULL when none. */
const struct pd_counter *pd_snapshot_counter(const struct pd_snapshot *s,
    const char *name);
/* The first and last ethtool -S snapshots with times; false unless the
 * last is later than the first (no rate otherwise). */
bool pd_netdev_timed_pair(const struct pd_netdev *nd,
    const struct pd_snapshot **first, const struct pd_snapshot **last);

/* ethtool -g and -l as the renderers list them: block 0 the ring
 * maximums, 1 the current rings, 2 the channel maximums, 3 the current
 * channels; each a row of numbers (-1 unknown) with their names ("rx",
 * "rx_mini", ...), the current rings also with their on/off flags. */
#define PD_QUEUE_BLOCKS 4

struct pd_queue_block {
	const char *what;		/* "rings" or "channels" */
	bool current;			/* else the pre-set maximums */
	const struct pd_evidence *ev;	/* NULL: no such output */
	const char *error;		/* ethtool's reason: no values */
	const char *const *names, *const *flag_names;
	int64_t v[8];
	enum pd_tri flag[3];
	unsigned n, n_flags;
};

void pd_netdev_queue_block(const struct pd_netdev *nd, unsigned b,
    struct pd_queue_block *q);

/* Sets a sysctl (keys with '/' are normalised to dots). */
void pd_host_sysctl_set(struct pd_host *h, struct pd_arena *a,
    const char *key, const char *val, const struct pd_evidence *ev);
const struct pd_kv *pd_host_sysctl(const struct pd_host *h, const char *key);
/* A sysctl as an integer; false when absent or not a number. */
bool pd_host_sysctl_int(const struct pd_host *h, const char *key,
    long *out);
/* A new capture in the host's list (kept sorted). */
struct pd_capture *pd_host_capture(struct pd_host *h, struct pd_arena *a,
    const char *member, const char *ifname);
/* A new workload output in the host's list (kept sorted by member). */
struct pd_workload *pd_host_workload(struct pd_host *h, struct pd_arena *a,
    const char *member, const char *tool);
/* A job on its own (a total an output prints), every number unknown
 * (-1); pd_workload_job puts a new one at the end of w's jobs. */
struct pd_wl_job *pd_wl_job_new(struct pd_arena *a, const char *name);
struct pd_wl_job *pd_workload_job(struct pd_workload *w, struct pd_arena *a,
    const char *name);
/* w's total from its jobs (see struct pd_workload). */
void pd_workload_sum(struct pd_workload *w, struct pd_arena *a);
void pd_host_note(struct pd_host *h, struct pd_arena *a,
    const struct pd_evidence *ev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void pd_evidence_set(struct pd_evidence *ev, struct pd_arena *a,
    const char *member, uint32_t line, const char *text, size_t len);
void pd_bdf_format(char out[16], unsigned domain, unsigned bus,
    unsigned dev, unsigned fn);
/* Parses "[DDDD:]BB:DD.F"; returns chars consumed, 0 when not a bdf. */
size_t pd_bdf_parse(const char *s, unsigned *domain, unsigned *bus,
    unsigned *dev, unsigned *fn);


const char *pd_arch_name(enum pd_arch a);
const char *pd_iommu_mode_name(enum pd_iommu_mode m);
const char *pd_port_type_name(enum pd_port_type t);

#endif

/* A host's inputs (enum pd_have bits): one table saying what each input
 * is and when the model holds it, and the text that asks for it, made
 * from the descriptors of the formats that give it. */
#include <stdio.h>
#include <string.h>
#include "finalize/finalize.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"

static bool
has_pci(const struct pd_host *h)
{
	return h->pcidevs != NULL;
}

static bool
has_pcie_link(const struct pd_host *h)
{
	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->has_express && d->caps_readable == PD_YES)
			return true;
	return false;
}

static bool
has_topology(const struct pd_host *h)
{
	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->parent)
			return true;
	return h->pci_edges != NULL;
}

static bool
has_cmdline(const struct pd_host *h)
{
	return h->cmdline != NULL;
}

static bool
has_arch(const struct pd_host *h)
{
	return h->arch != PD_ARCH_UNKNOWN;
}

static bool
has_profile(const struct pd_host *h)
{
	for (const struct pd_profile *p = h->profiles; p; p = p->next)
		if (p->samples)
			return true;
	return false;
}

/* NIC inputs: one interface with that command's output is enough. */
static bool
nd_port_speed(const struct pd_netdev *nd)
{
	return nd->pci && nd->speed_mbps > 0;
}

static bool
nd_stats(const struct pd_netdev *nd)
{
	return nd->n_snaps > 0;
}

static bool
nd_features(const struct pd_netdev *nd)
{
	return nd->features != NULL;
}

static bool
nd_pci(const struct pd_netdev *nd)
{
	return nd->pci != NULL;
}

static bool
nd_pause(const struct pd_netdev *nd)
{
	return nd->ev_pause.member != NULL;
}

/* the link mode lists of ethtool IF: our supported modes at least */
static bool
nd_link_modes(const struct pd_netdev *nd)
{
	return nd->ls.supported.read && nd->speed_mbps > 0;
}

/* ethtool said why it could not read them: that is no input */
static bool
nd_rings(const struct pd_netdev *nd)
{
	return nd->ev_rings.member != NULL && nd->rings_error == NULL;
}

static bool
nd_channels(const struct pd_netdev *nd)
{
	return nd->ev_channels.member != NULL && nd->channels_error == NULL;
}

/* per-queue receive rates: two timed ethtool -S snapshots whose driver
 * prints per-queue byte counters */
static bool
nd_rxq(const struct pd_netdev *nd)
{
	return nd->rxq != NULL;
}

static bool
nd_iplink(const struct pd_netdev *nd)
{
	return nd->ifindex >= 0;
}

static bool
has_sysctl(const struct pd_host *h)
{
	return h->sysctl != NULL;
}

static bool
has_workload(const struct pd_host *h)
{
	return h->workloads != NULL;
}

/* rates need two snapshots with times, the last one later */
static bool
has_softnet(const struct pd_host *h)
{
	return h->softnet.n == 2 && h->softnet.snap[0].time >= 0 &&
	    h->softnet.snap[1].time > h->softnet.snap[0].time;
}

static bool
has_capture(const struct pd_host *h)
{
	for (const struct pd_capture *c = h->captures; c; c = c->next)
		if (c->tcp_segments)
			return true;
	return false;
}

/* Two snapshots of OutSegs and RetransSegs with times, the last later:
 * since-boot totals alone give no rate. */
static bool
has_tcp_counters(const struct pd_host *h)
{
	const struct pd_tcpstat *a = &h->tcpstat[0], *b = &h->tcpstat[1];

	return h->n_tcpstat == 2 && a->time >= 0 && b->time > a->time &&
	    a->has_out && a->has_retrans && b->has_out && b->has_retrans;
}

/* a subsystem with at least one path */
static bool
has_nvme(const struct pd_host *h)
{
	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next)
		if (s->n_paths)
			return true;
	return false;
}

static bool
has_ipaddr(const struct pd_host *h)
{
	return h->ipaddrs != NULL;
}

/* /proc/interrupts read: its rows name the queues and their counts
 * say where they ran (since boot with one snapshot); the affinity
 * files refine it but cannot name a queue alone */
static bool
has_irq(const struct pd_host *h)
{
	return h->irqs.n > 0;
}

static bool
has_cpufreq(const struct pd_host *h)
{
	return h->freq.list != NULL || h->freq.zones != NULL ||
	    h->freq.max_perf_pct > 0;
}

/* name: the input in --dump-model ("pcie-link").  what: the input,
 * before the formats' collect texts ("PCI devices: lspci -vv output").
 * text: the whole request, for inputs that joins derive from several
 * formats, whose collect texts would not say it.  The host holds the
 * input when present(host) is true, or nd_present for any netdev. */
#define HOST(b, n, w, t, f) { .bit = b, .name = n, .what = w, .text = t, \
	.present = f }
#define NETDEV(b, n, w, t, f) { .bit = b, .name = n, .what = w, .text = t, \
	.nd_present = f }

static const struct input {
	unsigned bit;
	const char *name, *what, *text;
	bool (*present)(const struct pd_host *h);
	bool (*nd_present)(const struct pd_netdev *nd);
} inputs[] = {
	HOST(PD_HAVE_PCI, "pci", "PCI devices", NULL, has_pci),
	HOST(PD_HAVE_PCIE_LINK, "pcie-link", NULL, "readable PCIe "
	    "capabilities: lspci -vv run as root (a virtual machine's "
	    "emulated devices have none)", has_pcie_link),
	HOST(PD_HAVE_PCI_TOPOLOGY, "pci-topology", "the PCI tree", NULL,
	    has_topology),
	HOST(PD_HAVE_CMDLINE, "cmdline", "the kernel command line", NULL,
	    has_cmdline),
	HOST(PD_HAVE_ARCH, "arch", "the architecture", NULL, has_arch),
	HOST(PD_HAVE_PROFILE, "profile", "a CPU profile", NULL, has_profile),
	NETDEV(PD_HAVE_PORT_SPEED, "port-speed", "NIC port speeds", NULL,
	    nd_port_speed),
	NETDEV(PD_HAVE_NIC_STATS, "nic-stats", "NIC counters", NULL, nd_stats),
	NETDEV(PD_HAVE_NIC_FEATURES, "nic-features", "NIC offloads", NULL,
	    nd_features),
	HOST(PD_HAVE_SYSCTL, "sysctl", "kernel settings", NULL, has_sysctl),
	HOST(PD_HAVE_CAPTURE, "capture", "packet captures", NULL, has_capture),
	HOST(PD_HAVE_WORKLOAD, "workload", "the workload's own output", NULL,
	    has_workload),
	HOST(PD_HAVE_SOFTNET, "softnet", "per-CPU receive backlog counters",
	    NULL, has_softnet),
	HOST(PD_HAVE_TCP_COUNTERS, "tcp-counters", "TCP counters twice, "
	    "some seconds apart, with times", NULL, has_tcp_counters),
	HOST(PD_HAVE_NVME, "nvme", "NVMe subsystems and their paths", NULL,
	    has_nvme),
	HOST(PD_HAVE_IPADDR, "ip-addr", "the host's interface addresses", NULL,
	    has_ipaddr),
	NETDEV(PD_HAVE_RXQ, "rx-queues", NULL, "per-queue receive counters "
	    "twice, some seconds apart, with times: ethtool -S IF "
	    "(ethtool-S/IF@UNIX-SECONDS.txt) of a driver that prints them "
	    "(mlx5 rxN_bytes, ice/ixgbe/igb/virtio_net rx_queue_N_bytes, i40e "
	    "rx-N.bytes, bnxt_en per ring, ena queue_N_rx_bytes)", nd_rxq),
	HOST(PD_HAVE_IRQ, "irq", NULL, "the NIC queues' interrupts: "
	    "/proc/interrupts twice some seconds apart, with their times, "
	    "and each IRQ's smp_affinity_list and effective_affinity_list "
	    "(pathdoctor-collect)", has_irq),
	HOST(PD_HAVE_CPUFREQ, "cpufreq", "CPU frequency and power limits",
	    NULL, has_cpufreq),
	NETDEV(PD_HAVE_PAUSE, "pause", "pause settings", NULL, nd_pause),
	NETDEV(PD_HAVE_IPLINK, "ip-link", "interfaces", NULL, nd_iplink),
	NETDEV(PD_HAVE_LINK_MODES, "link-modes", "Ethernet link modes",
	    NULL, nd_link_modes),
	NETDEV(PD_HAVE_RINGS, "rings", "NIC ring sizes", NULL, nd_rings),
	NETDEV(PD_HAVE_CHANNELS, "channels", "NIC channel counts", NULL,
	    nd_channels),
	NETDEV(PD_HAVE_NETDEV_PCI, "netdev-pci", NULL, "which PCI function "
	    "each interface is: ethtool -i IF (bus-info) or ip -d link, with "
	    "lspci -vv", nd_pci),
};

unsigned
pd_host_inputs(const struct pd_host *h)
{
	unsigned have = 0;

	for (size_t i = 0; i < PD_ARRAY_SIZE(inputs); i++) {
		bool present = inputs[i].present && inputs[i].present(h);

		for (const struct pd_netdev *nd = h->netdevs;
		    !present && inputs[i].nd_present && nd; nd = nd->next)
			present = inputs[i].nd_present(nd);
		if (present)
			have |= inputs[i].bit;
	}
	return have;
}

/* "what: a, b or c" from the collect texts of the formats that give
 * bit, each once, in registry order. */
static void
compose(char *buf, size_t n, const char *what, unsigned bit)
{
	const char *seen[16];
	size_t n_seen = 0;

	for (const struct pd_format *const *f = pd_formats; *f; f++) {
		bool dup = false;

		if (!((*f)->gives & bit) || !(*f)->collect)
			continue;
		for (size_t i = 0; i < n_seen; i++)
			dup |= strcmp(seen[i], (*f)->collect) == 0;
		if (!dup && n_seen < PD_ARRAY_SIZE(seen))
			seen[n_seen++] = (*f)->collect;
	}
	size_t used = (size_t)snprintf(buf, n, "%s:", what);

	for (size_t i = 0; i < n_seen && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
		    i == 0 ? " " : i + 1 == n_seen ? " or " : ", ", seen[i]);
}

const char *
pd_need_text(unsigned bit, char buf[PD_NEED_TEXT_MAX])
{
	for (size_t i = 0; i < PD_ARRAY_SIZE(inputs); i++) {
		if (inputs[i].bit != bit)
			continue;
		if (inputs[i].text)
			return inputs[i].text;
		compose(buf, PD_NEED_TEXT_MAX, inputs[i].what, bit);
		return buf;
	}
	return "unknown input";
}

bool
pd_need_from_format(unsigned bits, const char *format)
{
	const struct pd_format *f = pd_format_find(format);

	return f && (f->gives & bits);
}

const char *
pd_input_name(unsigned bit)
{
	for (size_t i = 0; i < PD_ARRAY_SIZE(inputs); i++)
		if (inputs[i].bit == bit)
			return inputs[i].name;
	return "unknown";
}

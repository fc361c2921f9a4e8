/* The one list of rule groups, and the text for each input a rule needs. */
#include <stdio.h>
#include <string.h>
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"

extern const struct pd_rule_group pd_rules_pcie;
extern const struct pd_rule_group pd_rules_iommu;
extern const struct pd_rule_group pd_rules_nic;
extern const struct pd_rule_group pd_rules_tcp;

const struct pd_rule_group *const pd_rule_groups[] = {
	&pd_rules_iommu,
	&pd_rules_pcie,
	&pd_rules_nic,
	&pd_rules_tcp,
	NULL,
};

const struct pd_rule *
pd_rule_find(const char *id)
{
	for (const struct pd_rule_group *const *g = pd_rule_groups; *g; g++)
		for (size_t i = 0; i < (*g)->n_rules; i++)
			if (strcmp((*g)->rules[i].id, id) == 0)
				return &(*g)->rules[i];
	return NULL;
}

/* What each input bit needs, and the formats that give it (for the
 * collector's gaps). */
static const struct {
	unsigned bit;
	const char *text, *formats;
} needs[] = {
	{ PD_HAVE_PCI, "PCI devices: lspci -vv output", " lspci-vv " },
	{ PD_HAVE_PCIE_LINK, "readable PCIe capabilities: lspci -vv run as "
	    "root (a virtual machine's emulated devices have none)",
	    " lspci-vv " },
	{ PD_HAVE_PCI_TOPOLOGY, "the PCI tree: lspci -tv output",
	    " lspci-tv " },
	{ PD_HAVE_CMDLINE, "the kernel command line: /proc/cmdline",
	    " cmdline " },
	{ PD_HAVE_ARCH, "the architecture: uname -a, /proc/cpuinfo or lscpu",
	    " uname cpuinfo lscpu " },
	{ PD_HAVE_PROFILE, "a CPU profile: perf record -a -g (perf.data with "
	    "/proc/kallsyms), perf script or perf report --stdio output",
	    " perf.data kallsyms perf-script perf-report " },
	{ PD_HAVE_PORT_SPEED, "NIC port speeds: ethtool IF output",
	    " ethtool " },
	{ PD_HAVE_NIC_STATS, "NIC counters: ethtool -S IF, twice some seconds "
	    "apart (ethtool-S/IF@UNIX-SECONDS.txt)", " ethtool-S " },
	{ PD_HAVE_NIC_FEATURES, "NIC offloads: ethtool -k IF output",
	    " ethtool-k " },
	{ PD_HAVE_SYSCTL, "kernel settings: sysctl -a or sysctl net",
	    " sysctl " },
	{ PD_HAVE_CAPTURE, "packet captures: tcpdump -i IF -s 128 -w IF.pcap "
	    "on the interfaces in question, at the same time",
	    " pcap pcapng " },
	{ PD_HAVE_PAUSE, "pause settings: ethtool -a IF output",
	    " ethtool-a " },
	{ PD_HAVE_IPLINK, "interfaces: ip -d link show", " ip-link " },
	{ PD_HAVE_NETDEV_PCI, "which PCI function each interface is: ethtool "
	    "-i IF (bus-info) or ip -d link, with lspci -vv",
	    " ethtool-i ip-link lspci-vv " },
};

bool
pd_need_from_format(unsigned bits, const char *format)
{
	char key[72];

	snprintf(key, sizeof(key), " %s ", format);
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if ((bits & needs[i].bit) && strstr(needs[i].formats, key))
			return true;
	return false;
}

const char *
pd_need_text(unsigned bit)
{
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (needs[i].bit == bit)
			return needs[i].text;
	return "unknown input";
}

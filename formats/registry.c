/* The one list of input formats, and the lookup by name.  Order matters only for equal bids
 * (first wins): cheap, specific bidders first, the fallback last. */
#include <stddef.h>
#include <string.h>
#include "pathdoctor/format.h"

extern const struct pd_format pd_format_archive;
extern const struct pd_format pd_format_bridge_link;
extern const struct pd_format pd_format_cmdline;
extern const struct pd_format pd_format_cpuinfo;
extern const struct pd_format pd_format_elf;
extern const struct pd_format pd_format_ethtool_channels;
extern const struct pd_format pd_format_ethtool_features;
extern const struct pd_format pd_format_ethtool_info;
extern const struct pd_format pd_format_ethtool_pause;
extern const struct pd_format pd_format_ethtool_rings;
extern const struct pd_format pd_format_ethtool_settings;
extern const struct pd_format pd_format_ethtool_stats;
extern const struct pd_format pd_format_fio;
extern const struct pd_format pd_format_fio_json;
extern const struct pd_format pd_format_iperf3;
extern const struct pd_format pd_format_iperf3_json;
extern const struct pd_format pd_format_ip_addr;
extern const struct pd_format pd_format_ip_addr_json;
extern const struct pd_format pd_format_ip_link;
extern const struct pd_format pd_format_kallsyms;
extern const struct pd_format pd_format_lscpu;
extern const struct pd_format pd_format_manifest;
extern const struct pd_format pd_format_netdev_stats;
extern const struct pd_format pd_format_nstat;
extern const struct pd_format pd_format_nvme_iopolicy;
extern const struct pd_format pd_format_nvme_subsys;
extern const struct pd_format pd_format_nvme_subsys_json;
extern const struct pd_format pd_format_proc_net_snmp;
extern const struct pd_format pd_format_lspci_tv;
extern const struct pd_format pd_format_lspci_vv;
extern const struct pd_format pd_format_pcap;
extern const struct pd_format pd_format_pcapng;
extern const struct pd_format pd_format_perf_data;
extern const struct pd_format pd_format_perf_report;
extern const struct pd_format pd_format_perf_script;
extern const struct pd_format pd_format_softnet_stat;
extern const struct pd_format pd_format_interrupts;
extern const struct pd_format pd_format_irq_affinity;
extern const struct pd_format pd_format_cpufreq;
extern const struct pd_format pd_format_spdk_perf;
extern const struct pd_format pd_format_sysctl;
extern const struct pd_format pd_format_uname;
extern const struct pd_format pd_format_unknown;

const struct pd_format *const pd_formats[] = {
	&pd_format_archive,
	&pd_format_pcap,
	&pd_format_pcapng,
	&pd_format_perf_data,
	&pd_format_elf,
	&pd_format_perf_script,
	&pd_format_perf_report,
	&pd_format_lspci_tv,
	&pd_format_lspci_vv,
	&pd_format_cmdline,
	&pd_format_uname,
	&pd_format_cpuinfo,
	&pd_format_lscpu,
	&pd_format_ethtool_stats,
	&pd_format_ethtool_info,
	&pd_format_ethtool_features,
	&pd_format_ethtool_pause,
	&pd_format_ethtool_rings,
	&pd_format_ethtool_channels,
	&pd_format_ethtool_settings,
	&pd_format_ip_link,
	&pd_format_ip_addr,
	&pd_format_bridge_link,
	&pd_format_sysctl,
	&pd_format_kallsyms,
	&pd_format_netdev_stats,
	&pd_format_softnet_stat,
	&pd_format_interrupts,
	&pd_format_irq_affinity,
	&pd_format_cpufreq,
	&pd_format_proc_net_snmp,
	&pd_format_nstat,
	&pd_format_nvme_subsys,
	&pd_format_nvme_iopolicy,
	&pd_format_fio_json,
	&pd_format_nvme_subsys_json,
	&pd_format_ip_addr_json,
	&pd_format_fio,
	&pd_format_iperf3_json,
	&pd_format_iperf3,
	&pd_format_spdk_perf,
	&pd_format_manifest,
	&pd_format_unknown,
	NULL,
};

const struct pd_format *
pd_format_find(const char *name)
{
	for (const struct pd_format *const *f = pd_formats; *f; f++)
		if (strcmp((*f)->name, name) == 0)
			return *f;
	return NULL;
}

/* See pcaplib.h. */
#define _DEFAULT_SOURCE	/* libpcap's headers use u_int, u_char */
#include <stdio.h>
#include "base/dynlib.h"
#include "decode/pcaplib.h"

struct pd_pcap_api pd_pcap;

static const struct pd_dynsym pcap_syms[] = {
	PD_DYNSYM(pd_pcap, pcap_fopen_offline_with_tstamp_precision),
	PD_DYNSYM(pd_pcap, pcap_open_dead), PD_DYNSYM(pd_pcap, pcap_close),
	PD_DYNSYM(pd_pcap, pcap_next_ex), PD_DYNSYM(pd_pcap, pcap_geterr),
	PD_DYNSYM(pd_pcap, pcap_datalink), PD_DYNSYM(pd_pcap, pcap_snapshot),
	PD_DYNSYM(pd_pcap, pcap_is_swapped),
	PD_DYNSYM(pd_pcap, pcap_major_version),
	PD_DYNSYM(pd_pcap, pcap_minor_version),
	PD_DYNSYM(pd_pcap, pcap_datalink_val_to_name),
	PD_DYNSYM(pd_pcap, pcap_compile), PD_DYNSYM(pd_pcap, pcap_freecode),
	PD_DYNSYM(pd_pcap, pcap_offline_filter),
	{ NULL, NULL, 0 }
};

static struct pd_dynlib libpcap = {
	.what = "pcap support (pcap captures, --filter)",
	.sonames = (const char *const[]){ PD_SONAME_PCAP, "libpcap.so",
	    NULL },
	.syms = pcap_syms,
};

bool
pd_pcap_load(char *err, size_t n)
{
	if (pd_dynlib_load(&libpcap))
		return true;
	if (n)
		snprintf(err, n, "%s", libpcap.err);
	return false;
}

const char *
pd_pcap_linktype_name(int linktype)
{
	return pd_dynlib_load(&libpcap) ?
	    pd_pcap.pcap_datalink_val_to_name(linktype) : NULL;
}

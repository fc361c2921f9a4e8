/* libpcap, loaded when a capture or --filter first needs it rather
 * than at every start (src/base/dynlib.h): it brings D-Bus, systemd's
 * library and libgcrypt, six libraries relocated before main, which a
 * bundle without a pcap capture never uses.  Its includers define
 * _DEFAULT_SOURCE before any header: libpcap's use u_int and u_char. */
#ifndef PD_DECODE_PCAPLIB_H
#define PD_DECODE_PCAPLIB_H

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pd_pcap_api {
	pcap_t *(*pcap_fopen_offline_with_tstamp_precision)(FILE *, u_int,
	    char *);
	pcap_t *(*pcap_open_dead)(int, int);
	void (*pcap_close)(pcap_t *);
	int (*pcap_next_ex)(pcap_t *, struct pcap_pkthdr **,
	    const u_char **);
	char *(*pcap_geterr)(pcap_t *);
	int (*pcap_datalink)(pcap_t *);
	int (*pcap_snapshot)(pcap_t *);
	int (*pcap_is_swapped)(pcap_t *);
	int (*pcap_major_version)(pcap_t *);
	int (*pcap_minor_version)(pcap_t *);
	const char *(*pcap_datalink_val_to_name)(int);
	int (*pcap_compile)(pcap_t *, struct bpf_program *, const char *, int,
	    bpf_u_int32);
	void (*pcap_freecode)(struct bpf_program *);
	int (*pcap_offline_filter)(const struct bpf_program *,
	    const struct pcap_pkthdr *, const u_char *);
};

/* Filled by pd_pcap_load; not to be called before it returned true. */
extern struct pd_pcap_api pd_pcap;

/* Loads libpcap once; false, with err saying why, when it cannot. */
bool pd_pcap_load(char *err, size_t n);

/* The name of a link type (libpcap's), or NULL without libpcap. */
const char *pd_pcap_linktype_name(int linktype);

#endif

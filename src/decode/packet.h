/* One captured frame decoded down to TCP: L2 (Ethernet with VLAN/QinQ,
 * PPPoE, MPLS, Linux cooked v1/v2, raw IP, BSD loopback), IPv4/IPv6
 * (options, AH, extension headers, the Jumbo option of BIG TCP),
 * tunnels (GRE with ERSPAN II/III, IP in IP, VXLAN, Geneve, MPLS over
 * UDP) nested up to PD_PKT_DEPTH deep, TCP with options.
 * The payload length comes from the IP lengths, so frames cut by the
 * snap length still count in full; TSO/GSO super-packets (IPv4 total
 * length 0, IPv6 jumbo or payload length 0) take their length from the
 * frame's original length. */
#ifndef PD_PACKET_H
#define PD_PACKET_H

#include <stdbool.h>
#include <stdint.h>

#define PD_PKT_DEPTH 4	/* tunnels inside tunnels decoded */

enum pd_linktype {
	PD_LINK_NULL = 0, PD_LINK_ETHERNET = 1, PD_LINK_RAW_12 = 12,
	PD_LINK_RAW_14 = 14, PD_LINK_RAW = 101, PD_LINK_SLL = 113,
	PD_LINK_IPV4 = 228, PD_LINK_IPV6 = 229, PD_LINK_SLL2 = 276,
};

#define PD_TCP_FIN 0x01
#define PD_TCP_SYN 0x02
#define PD_TCP_RST 0x04
#define PD_TCP_ACK 0x10

/* Why a frame was not analysed as TCP (none: decoded, or a protocol
 * that is not TCP, such as UDP, ICMP or ARP). */
enum pd_undecoded {
	PD_UNDEC_NONE, PD_UNDEC_FRAGMENT, PD_UNDEC_ESP, PD_UNDEC_ETHERTYPE,
	PD_UNDEC_TUNNEL, PD_UNDEC_DEPTH, PD_UNDEC_SHORT, PD_UNDEC_N
};

struct pd_pkt {
	uint8_t family;		/* 4 or 6; 0: not IP */
	uint8_t proto;		/* IP protocol; 6 is TCP */
	uint8_t src[16], dst[16];	/* IPv4 in the first 4 bytes */
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t win;
	uint16_t mss;		/* a SYN's MSS option, 0 when absent */
	uint32_t payload;	/* TCP payload bytes, from IP lengths */
	uint16_t ip_id;
	uint32_t tcp_hash;	/* of the TCP header and captured payload */
	bool length_from_frame;	/* IPv4 total length 0 or IPv6 jumbo: TSO */
	uint8_t undecoded;	/* enum pd_undecoded, when false is returned */
	uint16_t what;		/* the ethertype or protocol not decoded */
};

/* What a pd_undecoded reason says, for notes. */
const char *pd_undecoded_why(int reason);

/* Decodes a frame; true when it is a TCP segment (out filled). */
bool pd_pkt_decode(int linktype, const uint8_t *p, uint32_t caplen,
    uint32_t len, struct pd_pkt *out);
/* True for link types pd_pkt_decode understands. */
bool pd_linktype_known(int linktype);

#endif

/* Frame -> TCP segment decoding, every read through pd_cursor. */
#include <string.h>
#include "decode/packet.h"
#include "pathdoctor/cursor.h"

#define PD_PKT_DEPTH_S "4"	/* PD_PKT_DEPTH, for the note */

#define ETH_IPV4 0x0800
#define ETH_IPV6 0x86dd
#define ETH_TEB 0x6558		/* transparent Ethernet bridging (GRE, Geneve) */
#define ETH_PPPOE 0x8864	/* PPPoE session stage */
#define ETH_MPLS 0x8847
#define ETH_MPLS_MC 0x8848
#define ETH_ERSPAN2 0x88be
#define ETH_ERSPAN3 0x22eb
#define ETH_WCCP 0x883e
#define VXLAN_PORT 4789
#define GENEVE_PORT 6081
#define MPLS_UDP_PORT 6635
#define MPLS_LABELS 8		/* labels read before giving up */

static bool l3(struct pd_cursor *c, uint16_t ethertype, uint32_t frame_left,
    int depth, struct pd_pkt *o);
static bool ethernet(struct pd_cursor *c, uint32_t frame_left, int depth,
    struct pd_pkt *o);

const char *
pd_undecoded_why(int reason)
{
	switch (reason) {
	case PD_UNDEC_FRAGMENT:
		return "IP fragments (not reassembled)";
	case PD_UNDEC_ESP:
		return "ESP (encrypted)";
	case PD_UNDEC_ETHERTYPE:
		return "an ethertype or protocol not decoded";
	case PD_UNDEC_TUNNEL:
		return "a tunnel header not decoded";
	case PD_UNDEC_DEPTH:
		return "tunnels nested deeper than " PD_PKT_DEPTH_S;
	case PD_UNDEC_SHORT:
		return "headers cut short or malformed";
	default:
		return "not decoded";
	}
}

/* Marks why a frame stops here; false, for the callers to return. */
static bool
undecoded(struct pd_pkt *o, int reason, uint16_t what)
{
	o->undecoded = (uint8_t)reason;
	o->what = what;
	return false;
}

/* A tunnel's inner packet replaces what the outer headers filled in. */
static bool
inner(struct pd_pkt *o, int depth)
{
	if (depth + 1 > PD_PKT_DEPTH)
		return undecoded(o, PD_UNDEC_DEPTH, 0);
	memset(o, 0, sizeof(*o));
	return true;
}

bool
pd_linktype_known(int lt)
{
	switch (lt) {
	case PD_LINK_NULL: case PD_LINK_ETHERNET: case PD_LINK_RAW_12:
	case PD_LINK_RAW_14: case PD_LINK_RAW: case PD_LINK_SLL:
	case PD_LINK_IPV4: case PD_LINK_IPV6: case PD_LINK_SLL2:
		return true;
	default:
		return false;
	}
}

static bool
ethernet(struct pd_cursor *c, uint32_t frame_left, int depth,
    struct pd_pkt *o)
{
	size_t start = c->pos;
	const uint8_t *h = pd_cursor_bytes(c, 14);

	if (!h)
		return false;
	uint16_t type = pd_be16_at(h + 12);

	/* 802.1Q, 802.1ad and the old QinQ tags: TCI, then the next type */
	for (int tags = 0; tags < 4 && (type == 0x8100 || type == 0x88a8 ||
	    type == 0x9100); tags++) {
		const uint8_t *t = pd_cursor_bytes(c, 4);

		if (!t)
			return false;
		type = pd_be16_at(t + 2);
	}
	size_t hdr = c->pos - start;

	return l3(c, type, frame_left > hdr ? frame_left - (uint32_t)hdr : 0,
	    depth, o);
}

/* FNV-1a style over the segment as captured, TCP header on: two
 * copies of one IP packet hash the same; a retransmission differs in
 * its checksum, ACK, window or timestamps almost always.  The first
 * HASH_BYTES are enough (the header and the start of the data), and
 * keep a 64 KB super-packet from costing 64 KB of hashing.  Two lanes
 * of eight bytes, and the last bytes as one word that overlaps the one
 * before, keep the chain of multiplies short: a byte at a time was a
 * third of all capture time, one lane still a sixth.  Only equality
 * within one run matters, so the host's byte order is fine. */
#define HASH_BYTES 256
#define FNV_PRIME 1099511628211ull

static uint32_t
segment_hash(const struct pd_cursor *c, size_t start, uint32_t ip_payload)
{
	uint32_t n = ip_payload < HASH_BYTES ? ip_payload : HASH_BYTES;
	size_t end = start >= c->len ? start : c->len - start < n ? c->len :
	    start + n;
	size_t len = end - start, i = 0;
	const uint8_t *s = c->p + start;
	uint64_t h1 = 14695981039346656037ull, h2 = h1 ^ len, w1, w2;

	for (; len - i >= 16; i += 16) {
		memcpy(&w1, s + i, 8);
		memcpy(&w2, s + i + 8, 8);
		h1 = (h1 ^ w1) * FNV_PRIME;
		h2 = (h2 ^ w2) * FNV_PRIME;
	}
	if (len - i >= 8) {
		memcpy(&w1, s + i, 8);
		h1 = (h1 ^ w1) * FNV_PRIME;
		i += 8;
	}
	if (i < len) {
		w2 = 0;
		if (len >= 8)
			memcpy(&w2, s + len - 8, 8);
		else
			memcpy(&w2, s, len);
		h2 = (h2 ^ w2) * FNV_PRIME;
	}
	h1 ^= h2 * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h1 ^ h1 >> 32);
}

/* The MSS option, walking the options only as far as the capture has
 * them. */
static void
mss_option(struct pd_cursor *c, size_t opt_end, struct pd_pkt *o)
{
	while (c->pos < opt_end && pd_cursor_left(c) > 0) {
		uint8_t kind = pd_cursor_u8(c);

		if (kind == 0)
			break;
		if (kind == 1)
			continue;
		uint8_t l = pd_cursor_u8(c);

		if (!pd_cursor_ok(c) || l < 2)
			break;
		if (kind == 2 && l == 4)
			o->mss = pd_cursor_be16(c);
		else
			pd_cursor_skip(c, l - 2u);
	}
}

static bool
tcp(struct pd_cursor *c, uint32_t ip_payload, struct pd_pkt *o)
{
	size_t start = c->pos;

	o->tcp_hash = segment_hash(c, start, ip_payload);
	const uint8_t *h = pd_cursor_bytes(c, 20);

	if (!h)
		return false;
	o->sport = pd_be16_at(h);
	o->dport = pd_be16_at(h + 2);
	o->seq = pd_be32_at(h + 4);
	o->ack = pd_be32_at(h + 8);
	o->flags = h[13];
	o->win = pd_be16_at(h + 14);
	uint32_t hlen = (uint32_t)(h[12] >> 4) * 4;

	if (hlen < 20 || hlen > ip_payload)
		return false;
	o->payload = ip_payload - hlen;
	/* MSS is an option of SYNs only (RFC 9293, 3.7.1): the options of
	 * every other segment (timestamps, SACK) are not walked */
	if (o->flags & PD_TCP_SYN)
		mss_option(c, start + hlen, o);
	return true;
}

/* MPLS: labels up to the bottom of the stack, then IP by its version
 * nibble (a pseudowire's control word or Ethernet is not guessed). */
static bool
mpls(struct pd_cursor *c, uint32_t left, int depth, struct pd_pkt *o)
{
	for (int i = 0; i < MPLS_LABELS; i++) {
		uint32_t label = pd_cursor_be32(c);

		if (!pd_cursor_ok(c) || left < 4)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		left -= 4;
		if (!(label & 0x100))
			continue;
		if (pd_cursor_left(c) < 1)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		uint8_t v = c->p[c->pos] >> 4;

		if (v == 4 || v == 6)
			return l3(c, v == 4 ? ETH_IPV4 : ETH_IPV6, left, depth, o);
		return undecoded(o, PD_UNDEC_TUNNEL, ETH_MPLS);
	}
	return undecoded(o, PD_UNDEC_TUNNEL, ETH_MPLS);
}

/* The payload of a tunnel, by the ethertype its header names. */
static bool
tunnel_payload(struct pd_cursor *c, uint16_t type, uint32_t left, int depth,
    struct pd_pkt *o)
{
	if (!inner(o, depth))
		return false;
	if (type == ETH_TEB)
		return ethernet(c, left, depth + 1, o);
	return l3(c, type, left, depth + 1, o);
}

static bool
udp(struct pd_cursor *c, uint32_t ip_payload, int depth, struct pd_pkt *o)
{
	pd_cursor_skip(c, 2);
	uint16_t dport = pd_cursor_be16(c);

	pd_cursor_skip(c, 4);
	if (!pd_cursor_ok(c) || ip_payload < 8)
		return false;	/* UDP is not TCP: nothing undecoded */
	uint32_t left = ip_payload - 8;

	if (dport == VXLAN_PORT) {
		pd_cursor_skip(c, 8);
		if (!pd_cursor_ok(c) || left < 8)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		return tunnel_payload(c, ETH_TEB, left - 8, depth, o);
	}
	if (dport == GENEVE_PORT) {
		uint8_t vopt = pd_cursor_u8(c);

		pd_cursor_skip(c, 1);
		uint16_t type = pd_cursor_be16(c);
		uint32_t hlen = 8 + (uint32_t)(vopt & 0x3f) * 4;

		pd_cursor_skip(c, hlen - 4);
		if (!pd_cursor_ok(c) || left < hlen || (vopt >> 6) != 0)
			return undecoded(o, PD_UNDEC_TUNNEL, GENEVE_PORT);
		return tunnel_payload(c, type, left - hlen, depth, o);
	}
	if (dport == MPLS_UDP_PORT)
		return inner(o, depth) && mpls(c, left, depth + 1, o);
	return false;
}

/* ERSPAN type II (8 bytes) and III (12, and 8 more with the O flag)
 * headers before the mirrored frame; type III's frame type 0 is
 * Ethernet, 2 an IP packet. */
static bool
erspan(struct pd_cursor *c, uint16_t type, uint32_t left, int depth,
    struct pd_pkt *o)
{
	uint32_t hlen = type == ETH_ERSPAN2 ? 8 : 12;
	const uint8_t *h = pd_cursor_bytes(c, hlen);

	if (!h || left < hlen)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	left -= hlen;
	if (type == ETH_ERSPAN2)
		return tunnel_payload(c, ETH_TEB, left, depth, o);
	unsigned ft = (h[10] >> 2) & 0x1f;

	if (h[11] & 1) {	/* platform-specific subheader */
		pd_cursor_skip(c, 8);
		if (!pd_cursor_ok(c) || left < 8)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		left -= 8;
	}
	if (ft == 0)
		return tunnel_payload(c, ETH_TEB, left, depth, o);
	if (ft == 2 && pd_cursor_left(c) >= 1)
		return tunnel_payload(c, c->p[c->pos] >> 4 == 6 ? ETH_IPV6 :
		    ETH_IPV4, left, depth, o);
	return undecoded(o, PD_UNDEC_TUNNEL, type);
}

/* GRE version 0: checksum, key and sequence words as the flags say;
 * without a sequence number, 0x88be is ERSPAN type I (no header). */
static bool
gre(struct pd_cursor *c, uint32_t left, int depth, struct pd_pkt *o)
{
	uint16_t flags = pd_cursor_be16(c), type = pd_cursor_be16(c);
	uint32_t hlen = 4 + ((flags & 0x8000) ? 4 : 0) +
	    ((flags & 0x2000) ? 4 : 0) + ((flags & 0x1000) ? 4 : 0);

	pd_cursor_skip(c, hlen - 4);
	if (!pd_cursor_ok(c) || left < hlen)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	if ((flags & 7) != 0)	/* version 1 is PPTP's PPP */
		return undecoded(o, PD_UNDEC_TUNNEL, type);
	left -= hlen;
	if (type == ETH_ERSPAN2 && !(flags & 0x1000))
		return tunnel_payload(c, ETH_TEB, left, depth, o);
	if (type == ETH_ERSPAN2 || type == ETH_ERSPAN3)
		return erspan(c, type, left, depth, o);
	if (type == ETH_MPLS || type == ETH_MPLS_MC)
		return inner(o, depth) && mpls(c, left, depth + 1, o);
	if (type == ETH_WCCP) {	/* a redirect header, then IPv4 */
		pd_cursor_skip(c, 4);
		if (!pd_cursor_ok(c) || left < 4)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		return tunnel_payload(c, ETH_IPV4, left - 4, depth, o);
	}
	return tunnel_payload(c, type, left, depth, o);
}

/* Authentication Header: no encryption, so what it carries is read. */
static bool
ah(struct pd_cursor *c, uint32_t *left, uint8_t *proto)
{
	uint8_t next = pd_cursor_u8(c), hl = pd_cursor_u8(c);
	uint32_t len = ((uint32_t)hl + 2) * 4;

	pd_cursor_skip(c, len - 2);
	if (!pd_cursor_ok(c) || *left < len)
		return false;
	*left -= len;
	*proto = next;
	return true;
}

/* What an IP packet carries, after its headers: left bytes of it. */
static bool
ip_payload(struct pd_cursor *c, uint8_t proto, uint32_t left, int depth,
    struct pd_pkt *o)
{
	o->proto = proto;
	switch (proto) {
	case 6:
		return tcp(c, left, o) || undecoded(o, PD_UNDEC_SHORT, 0);
	case 17:
		return udp(c, left, depth, o);
	case 47:
		return gre(c, left, depth, o);
	case 4:
		return tunnel_payload(c, ETH_IPV4, left, depth, o);
	case 41:
		return tunnel_payload(c, ETH_IPV6, left, depth, o);
	case 50:
		return undecoded(o, PD_UNDEC_ESP, 0);
	case 51:
		/* one AH; a second one would be no real packet */
		return ah(c, &left, &proto) && proto != 51 ? ip_payload(c,
		    proto, left, depth, o) : undecoded(o, PD_UNDEC_SHORT, 0);
	default:
		return false;	/* ICMP and the like: not TCP */
	}
}

static bool
ipv4(struct pd_cursor *c, uint32_t frame_left, int depth, struct pd_pkt *o)
{
	const uint8_t *h = pd_cursor_bytes(c, 20);

	if (!h)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	uint8_t vihl = h[0];
	uint16_t total = pd_be16_at(h + 2), frag = pd_be16_at(h + 6);
	uint32_t ihl = (uint32_t)(vihl & 0x0f) * 4;

	o->ip_id = pd_be16_at(h + 4);
	o->proto = h[9];
	if ((vihl >> 4) != 4 || ihl < 20)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	pd_cursor_skip(c, ihl - 20);
	o->family = 4;
	memcpy(o->src, h + 12, 4);
	memcpy(o->dst, h + 16, 4);
	/* a fragment, first or later, holds part of a segment: counted as
	 * a fragment, not reassembled */
	if (frag & 0x3fff)
		return undecoded(o, PD_UNDEC_FRAGMENT, 0);
	if (total == 0) {	/* TSO: the frame's length is the packet's */
		o->length_from_frame = true;
		if (frame_left < ihl)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		return o->proto == 6 && tcp(c, frame_left - ihl, o);
	}
	if (total < ihl)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	/* a frame shorter on the wire than its IP length claims holds only
	 * what it holds (tshark does the same) */
	if (frame_left >= ihl && total > frame_left)
		total = (uint16_t)frame_left;
	return ip_payload(c, o->proto, total - ihl, depth, o);
}

static bool
ipv6(struct pd_cursor *c, uint32_t frame_left, int depth, struct pd_pkt *o)
{
	uint8_t v = pd_cursor_u8(c);

	pd_cursor_skip(c, 3);
	uint32_t plen = pd_cursor_be16(c);
	uint8_t next = pd_cursor_u8(c);

	pd_cursor_skip(c, 1);
	const uint8_t *src = pd_cursor_bytes(c, 16), *dst = pd_cursor_bytes(c, 16);

	if (!pd_cursor_ok(c) || (v >> 4) != 6)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	o->family = 6;
	memcpy(o->src, src, 16);
	memcpy(o->dst, dst, 16);
	uint32_t used = 0, jumbo = 0;

	for (int i = 0; i < 8; i++) {
		if (next != 0 && next != 43 && next != 44 && next != 60 &&
		    next != 51)
			break;
		size_t start = c->pos;
		uint8_t nh = pd_cursor_u8(c), hl = pd_cursor_u8(c);
		uint32_t len = next == 44 ? 8 : next == 51 ?
		    ((uint32_t)hl + 2) * 4 : ((uint32_t)hl + 1) * 8;

		if (next == 44) {
			uint16_t off = pd_cursor_be16(c);

			if (off & 0xfff9)	/* offset or more to come */
				return undecoded(o, PD_UNDEC_FRAGMENT, 0);
		}
		if (next == 0) {	/* hop-by-hop: look for Jumbo */
			while (c->pos < start + len && pd_cursor_ok(c)) {
				uint8_t t = pd_cursor_u8(c);

				if (t == 0)
					continue;
				uint8_t ol = pd_cursor_u8(c);

				if (t == 0xc2 && ol == 4)
					jumbo = pd_cursor_be32(c);
				else
					pd_cursor_skip(c, ol);
			}
		}
		if (!pd_cursor_ok(c) || c->pos > start + len)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		pd_cursor_skip(c, start + len - c->pos);
		used += len;
		next = nh;
	}
	o->proto = next;
	if (plen == 0) {
		o->length_from_frame = true;
		plen = jumbo ? jumbo : frame_left > 40 ? frame_left - 40 : 0;
	}
	if (frame_left > 40 && plen > frame_left - 40)
		plen = frame_left - 40;
	if (plen < used)
		return undecoded(o, PD_UNDEC_SHORT, 0);
	return ip_payload(c, next, plen - used, depth, o);
}

static bool
l3(struct pd_cursor *c, uint16_t ethertype, uint32_t frame_left, int depth,
    struct pd_pkt *o)
{
	if (ethertype == ETH_IPV4)
		return ipv4(c, frame_left, depth, o);
	if (ethertype == ETH_IPV6)
		return ipv6(c, frame_left, depth, o);
	if (ethertype == ETH_MPLS || ethertype == ETH_MPLS_MC)
		return mpls(c, frame_left, depth, o);
	if (ethertype == ETH_PPPOE) {
		/* version/type, code, session, length, then PPP's protocol;
		 * the session's length bounds the IP packet, as in tshark */
		pd_cursor_skip(c, 4);
		uint16_t plen = pd_cursor_be16(c), ppp = pd_cursor_be16(c);

		if (!pd_cursor_ok(c) || frame_left < 8 || plen < 2)
			return undecoded(o, PD_UNDEC_SHORT, 0);
		uint32_t left = frame_left - 8 < plen - 2u ? frame_left - 8 :
		    plen - 2u;

		if (ppp == 0x0021 || ppp == 0x0057)
			return l3(c, ppp == 0x0021 ? ETH_IPV4 : ETH_IPV6, left,
			    depth, o);
		return false;	/* LCP, IPCP and the like: no data */
	}
	if (ethertype == 0x0806 || ethertype == 0x8863 || ethertype < 0x0600)
		return false;	/* ARP, PPPoE discovery, 802.3 lengths: no IP */
	return undecoded(o, PD_UNDEC_ETHERTYPE, ethertype);
}

bool
pd_pkt_decode(int lt, const uint8_t *p, uint32_t caplen, uint32_t len,
    struct pd_pkt *o)
{
	struct pd_cursor c;
	uint16_t type;

	memset(o, 0, sizeof(*o));
	pd_cursor_init(&c, p, caplen, false);
	switch (lt) {
	case PD_LINK_ETHERNET:
		return ethernet(&c, len, 0, o);
	case PD_LINK_SLL:
		pd_cursor_skip(&c, 14);
		type = pd_cursor_be16(&c);
		return pd_cursor_ok(&c) && l3(&c, type, len > 16 ? len - 16 : 0,
		    0, o);
	case PD_LINK_SLL2:
		type = pd_cursor_be16(&c);
		pd_cursor_skip(&c, 18);
		return pd_cursor_ok(&c) && l3(&c, type, len > 20 ? len - 20 : 0,
		    0, o);
	case PD_LINK_NULL: {
		const uint8_t *af = pd_cursor_bytes(&c, 4);

		if (!af)
			return false;
		/* AF_INET is 2 everywhere; AF_INET6 is 10, 24, 28 or 30 */
		uint32_t v = af[0] | af[1] | af[2] | af[3];

		return l3(&c, v == 2 ? ETH_IPV4 : ETH_IPV6, len > 4 ? len - 4 :
		    0, 0, o);
	}
	case PD_LINK_RAW: case PD_LINK_RAW_12: case PD_LINK_RAW_14:
		if (caplen < 1)
			return false;
		return l3(&c, (p[0] >> 4) == 6 ? ETH_IPV6 : ETH_IPV4, len, 0, o);
	case PD_LINK_IPV4:
		return ipv4(&c, len, 0, o);
	case PD_LINK_IPV6:
		return ipv6(&c, len, 0, o);
	default:
		return false;
	}
}

/* Frame -> TCP segment decoding, every read through pd_cursor. */
#include <string.h>
#include "decode/packet.h"
#include "pathdoctor/cursor.h"

#define ETH_IPV4 0x0800
#define ETH_IPV6 0x86dd
#define VXLAN_PORT 4789

static bool l3(struct pd_cursor *c, uint16_t ethertype, uint32_t frame_left,
    int depth, struct pd_pkt *o);

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

	pd_cursor_skip(c, 12);
	uint16_t type = pd_cursor_be16(c);

	for (int tags = 0; tags < 4 && (type == 0x8100 || type == 0x88a8 ||
	    type == 0x9100); tags++) {
		pd_cursor_skip(c, 2);
		type = pd_cursor_be16(c);
	}
	if (!pd_cursor_ok(c))
		return false;
	size_t hdr = c->pos - start;

	return l3(c, type, frame_left > hdr ? frame_left - (uint32_t)hdr : 0,
	    depth, o);
}

static bool
tcp(struct pd_cursor *c, uint32_t ip_payload, struct pd_pkt *o)
{
	size_t start = c->pos;

	o->sport = pd_cursor_be16(c);
	o->dport = pd_cursor_be16(c);
	o->seq = pd_cursor_be32(c);
	o->ack = pd_cursor_be32(c);
	uint8_t off = pd_cursor_u8(c);

	o->flags = pd_cursor_u8(c);
	o->win = pd_cursor_be16(c);
	pd_cursor_skip(c, 4);	/* checksum, urgent pointer */
	if (!pd_cursor_ok(c))
		return false;
	uint32_t hlen = (uint32_t)(off >> 4) * 4;

	if (hlen < 20 || hlen > ip_payload)
		return false;
	o->payload = ip_payload - hlen;
	/* options, only as far as the capture has them */
	size_t opt_end = start + hlen;

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
	return true;
}

static bool
udp_vxlan(struct pd_cursor *c, uint32_t ip_payload, int depth,
    struct pd_pkt *o)
{
	pd_cursor_skip(c, 2);
	uint16_t dport = pd_cursor_be16(c);

	pd_cursor_skip(c, 4);
	if (!pd_cursor_ok(c) || dport != VXLAN_PORT || depth > 0 ||
	    ip_payload < 16)
		return false;
	pd_cursor_skip(c, 8);	/* VXLAN header */
	memset(o, 0, sizeof(*o));
	return pd_cursor_ok(c) && ethernet(c, ip_payload - 16, depth + 1, o);
}

static bool
ipv4(struct pd_cursor *c, uint32_t frame_left, int depth, struct pd_pkt *o)
{
	uint8_t vihl = pd_cursor_u8(c);

	pd_cursor_skip(c, 1);
	uint16_t total = pd_cursor_be16(c);

	o->ip_id = pd_cursor_be16(c);
	uint16_t frag = pd_cursor_be16(c);

	pd_cursor_skip(c, 1);
	o->proto = pd_cursor_u8(c);
	pd_cursor_skip(c, 2);
	const uint8_t *src = pd_cursor_bytes(c, 4), *dst = pd_cursor_bytes(c, 4);
	uint32_t ihl = (uint32_t)(vihl & 0x0f) * 4;

	if (!pd_cursor_ok(c) || (vihl >> 4) != 4 || ihl < 20)
		return false;
	pd_cursor_skip(c, ihl - 20);
	o->family = 4;
	memcpy(o->src, src, 4);
	memcpy(o->dst, dst, 4);
	if (total == 0) {	/* TSO: the frame's length is the packet's */
		o->length_from_frame = true;
		if (frame_left < ihl)
			return false;
		return o->proto == 6 && (frag & 0x1fff) == 0 &&
		    tcp(c, frame_left - ihl, o);
	}
	if (total < ihl || (frag & 0x1fff) != 0)
		return false;	/* later fragments carry no TCP header */
	/* a frame shorter on the wire than its IP length claims holds only
	 * what it holds (tshark does the same) */
	if (frame_left >= ihl && total > frame_left)
		total = (uint16_t)frame_left;
	if (o->proto == 6)
		return tcp(c, total - ihl, o);
	if (o->proto == 17)
		return udp_vxlan(c, total - ihl, depth, o);
	return false;
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
		return false;
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

			if (off & 0xfff8)
				return false;	/* not the first fragment */
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
			return false;
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
		return false;
	if (next == 6)
		return tcp(c, plen - used, o);
	if (next == 17)
		return udp_vxlan(c, plen - used, depth, o);
	return false;
}

static bool
l3(struct pd_cursor *c, uint16_t ethertype, uint32_t frame_left, int depth,
    struct pd_pkt *o)
{
	if (ethertype == ETH_IPV4)
		return ipv4(c, frame_left, depth, o);
	if (ethertype == ETH_IPV6)
		return ipv6(c, frame_left, depth, o);
	return false;
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

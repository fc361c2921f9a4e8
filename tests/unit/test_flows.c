/* The flow table's grouping of segments: each segment counted in its
 * flow and direction as its canonical key (pd_flow_key_of) says, also
 * where the packet before it was of another flow that looks alike (the
 * same ports the other way, the same host at both ends, an IPv6 address
 * beginning with an IPv4 one's bytes). */
#include <string.h>
#include "helpers.h"
#include "decode/capture.h"
#include "decode/packet.h"

struct end {
	int family;
	uint8_t addr[16];
	uint16_t port;
};

/* An Ethernet frame of a TCP segment of payload bytes from s to d
 * (both of one family), headers only, as a snap length would cut it. */
static uint32_t
put_frame(uint8_t *f, size_t cap, const struct end *s, const struct end *d,
    uint16_t payload, uint32_t seq)
{
	size_t ip = s->family == 4 ? 20 : 40, tcp = 14 + ip;

	assert_true(tcp + 20 <= cap);
	memset(f, 0, tcp + 20);
	if (s->family == 4) {
		uint16_t total = (uint16_t)(20 + 20 + payload);

		f[12] = 0x08;
		f[14] = 0x45;
		f[16] = (uint8_t)(total >> 8);
		f[17] = (uint8_t)total;
		f[22] = 64;
		f[23] = 6;
		memcpy(f + 26, s->addr, 4);
		memcpy(f + 30, d->addr, 4);
	} else {
		uint16_t plen = (uint16_t)(20 + payload);

		f[12] = 0x86;
		f[13] = 0xdd;
		f[14] = 0x60;
		f[18] = (uint8_t)(plen >> 8);
		f[19] = (uint8_t)plen;
		f[20] = 6;
		f[21] = 64;
		memcpy(f + 22, s->addr, 16);
		memcpy(f + 38, d->addr, 16);
	}
	f[tcp] = (uint8_t)(s->port >> 8);
	f[tcp + 1] = (uint8_t)s->port;
	f[tcp + 2] = (uint8_t)(d->port >> 8);
	f[tcp + 3] = (uint8_t)d->port;
	for (int i = 0; i < 4; i++)
		f[tcp + 4 + i] = (uint8_t)(seq >> (24 - 8 * i));
	f[tcp + 12] = 0x50;
	f[tcp + 13] = PD_TCP_ACK;
	f[tcp + 14] = 0x20;
	return (uint32_t)(tcp + 20);
}

/* What the capture must count: segments and their payload bytes per
 * canonical key and way (each segment's payload is another size). */
struct expect {
	struct pd_flow_key key;
	uint64_t segs[2], bytes[2];
};

static void
expect_segment(struct expect *e, unsigned *n, const uint8_t *frame,
    uint32_t caplen, uint32_t len, uint16_t payload)
{
	struct pd_pkt p;
	struct pd_flow_key k;
	int dir;
	unsigned i = 0;

	assert_true(pd_pkt_decode(PD_LINK_ETHERNET, frame, caplen, len, &p));
	pd_flow_key_of(&p, &k, &dir);
	while (i < *n && !pd_flow_key_eq(&e[i].key, &k))
		i++;
	if (i == *n) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].key = k;
		(*n)++;
	}
	e[i].segs[dir]++;
	e[i].bytes[dir] += payload;
}

static void
test_flows_of_look_alike_segments(void **state)
{
	/* ends that differ from each other in one way only */
	static const struct end ends[] = {
		{ 4, { 10, 0, 0, 1 }, 5201 },
		{ 4, { 10, 0, 0, 2 }, 40000 },
		{ 4, { 10, 0, 0, 1 }, 40000 },	/* the host of [0] */
		{ 6, { 10, 0, 0, 1 }, 5201 },	/* [0]'s bytes, IPv6 */
		{ 6, { 10, 0, 0, 2 }, 40000 },
		{ 6, { 10, 0, 0, 1, [15] = 1 }, 5201 },
		{ 4, { 10, 0, 0, 2 }, 40001 },	/* [1]'s host, next port */
		{ 4, { 10, 0, 0, 1 }, 5202 },	/* [0]'s host, next port */
	};
	/* pairs of ends in turn, each way; the last is a host talking to
	 * itself on one port, both ways the same */
	static const unsigned pairs[][2] = {
		{ 0, 1 }, { 1, 0 }, { 1, 0 }, { 0, 2 }, { 2, 0 }, { 3, 4 },
		{ 0, 1 }, { 4, 3 }, { 5, 4 }, { 4, 5 }, { 3, 4 }, { 2, 1 },
		{ 1, 2 }, { 0, 0 }, { 0, 0 }, { 5, 4 }, { 1, 0 }, { 2, 0 },
		{ 0, 1 }, { 0, 6 }, { 6, 0 }, { 1, 0 }, { 0, 6 }, { 0, 1 },
		{ 1, 7 }, { 7, 1 }, { 1, 0 }, { 1, 7 },
	};
	struct expect want[16];
	unsigned n_want = 0;
	struct pd_capture cap;
	struct pd_capture_state *st;
	uint8_t f[128];

	(void)state;
	memset(&cap, 0, sizeof(cap));
	st = pd_capture_begin(&cap);
	for (unsigned r = 0; r < 3; r++)
		for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			const struct end *s = &ends[pairs[i][0]];
			const struct end *d = &ends[pairs[i][1]];
			uint16_t payload = (uint16_t)(100 + i);
			uint32_t caplen = put_frame(f, sizeof(f), s, d,
			    payload, 1000u * (r + 1));

			expect_segment(want, &n_want, f, caplen,
			    caplen + payload, payload);
			pd_capture_packet(st, 1.0 + r + i * 0.001,
			    PD_LINK_ETHERNET, f, caplen, caplen + payload);
		}
	pd_capture_end(st);
	assert_int_equal(cap.flows_seen, n_want);
	assert_int_equal(cap.n_flows, n_want);
	for (unsigned i = 0; i < n_want; i++) {
		unsigned j = 0;

		while (j < cap.n_flows &&
		    !pd_flow_key_eq(&cap.flows[j].key, &want[i].key))
			j++;
		assert_true(j < cap.n_flows);
		assert_int_equal(cap.flows[j].dir[0].segs, want[i].segs[0]);
		assert_int_equal(cap.flows[j].dir[1].segs, want[i].segs[1]);
		assert_int_equal(cap.flows[j].dir[0].bytes, want[i].bytes[0]);
		assert_int_equal(cap.flows[j].dir[1].bytes, want[i].bytes[1]);
	}
}

int
test_group_flows(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flows_of_look_alike_segments),
	};

	return cmocka_run_group_tests_name("flows", tests, NULL, NULL);
}

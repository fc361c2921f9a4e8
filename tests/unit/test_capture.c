/* Captures: pcap and pcapng readers, TCP analysis, and the rules that
 * use them, on the corpus and the samples. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "base/gain.h"
#include "decode/capture.h"
#include "decode/packet.h"
#include "pathdoctor/rule.h"
#include "report/chart.h"

static const struct pd_capture *
only_capture(const struct parsed *p)
{
	const struct pd_capture *c = p->m->hosts ? p->m->hosts->captures : NULL;

	if (!c)
		fail_msg("no capture");
	return c;
}

static uint64_t
size_count(const struct pd_size_hist *h, uint32_t bytes)
{
	for (unsigned i = 0; i < h->n; i++)
		if (h->top[i].bytes == bytes)
			return h->top[i].count;
	return 0;
}

static void
test_corpus_captures(void **state)
{
	static const char *const dirs[] = { "pcap", "pcap-generated" };
	char cmd[600], line[512];

	(void)state;
	REQUIRE_CORPUS();
	for (size_t k = 0; k < 2; k++) {
		snprintf(cmd, sizeof(cmd), "ls %s/%s | grep -v README",
		    corpus_dir(), dirs[k]);
		FILE *ls = popen(cmd, "r");
		unsigned n = 0;

		while (fgets(line, sizeof(line), ls)) {
			char rel[600];
			struct parsed p;

			line[strcspn(line, "\n")] = 0;
			snprintf(rel, sizeof(rel), "%s/%s", dirs[k], line);
			parsed_corpus(&p, rel);
			const char *want = strstr(line, ".pcapng") ? "pcapng" :
			    "pcap";

			if (strcmp(p.cov.members->format, want) != 0 ||
			    p.cov.members->diag.worst < PD_WARN ||
			    only_capture(&p)->tcp_segments == 0)
				fail_msg("%s: format %s status %s", rel,
				    p.cov.members->format,
				    pd_status_name(p.cov.members->diag.worst));
			parsed_free(&p);
			n++;
		}
		pclose(ls);
		assert_true(n > 0);
	}
}

static void
test_histograms_match_tshark(void **state)
{
	struct parsed p;
	const struct pd_capture *c;

	(void)state;
	REQUIRE_CORPUS();
	/* the tcp.len counts the capture's README gives */
	parsed_corpus(&p, "pcap-generated/gsogen-before-tap100i0-65160B.pcap");
	c = only_capture(&p);
	assert_int_equal(c->packets, 16000);
	assert_int_equal(size_count(&c->sizes, 0), 11139);
	assert_int_equal(size_count(&c->sizes, 65160), 3478);
	assert_int_equal(size_count(&c->sizes, 752), 923);
	assert_int_equal(c->sizes.top[0].bytes, 0);
	parsed_free(&p);
	parsed_corpus(&p, "pcap-generated/gsogen-before-enp3s0-1448B-swgso.pcap");
	c = only_capture(&p);
	assert_int_equal(size_count(&c->sizes, 1448), 9672);
	assert_int_equal(size_count(&c->sizes, 0), 6215);
	assert_int_equal(size_count(&c->sizes, 752), 90);
	parsed_free(&p);
}

static void
test_retransmissions_and_duplicates(void **state)
{
	struct parsed p;
	const struct pd_capture *c;

	(void)state;
	REQUIRE_CORPUS();
	/* tshark: 514 retransmissions (fast ones included) and 16 out of
	 * order, each with a new IP ID, 11 within a millisecond of the
	 * segment they repeat */
	parsed_corpus(&p, "pcap-generated/gsogen-loss1pct-enp3s0-retrans.pcap");
	c = only_capture(&p);
	assert_int_equal(c->retrans_segs, 514);
	assert_int_equal(c->ooo_segs, 16);
	assert_int_equal(c->dup_segs, 0);
	parsed_free(&p);
	/* tshark: 56 retransmissions, 52 out of order */
	parsed_corpus(&p, "pcap/zeek-http-206-zerowindow-retrans-ooo.pcap");
	c = only_capture(&p);
	assert_int_equal(c->retrans_segs, 56);
	assert_int_equal(c->ooo_segs, 52);
	parsed_free(&p);
	/* tshark 4.0: 187 retransmissions, 8 of them spurious (already
	 * acknowledged, 35 us after the highest sequence moved on, within
	 * the 44 us handshake), none out of order */
	parsed_read(&p, "samples/bundles/gx10-before/pcap/nic2.pcap");
	c = only_capture(&p);
	assert_int_equal(c->retrans_segs, 187);
	assert_int_equal(c->ooo_segs, 0);
	parsed_free(&p);
	/* tshark flags 470 "retransmissions" and 15 out-of-order segments
	 * that are the capture hardware's duplicates (same IP ID, under a
	 * millisecond to 6 ms apart, 13 copies stamped before the first) */
	parsed_corpus(&p, "pcap/tcptrace-hardware-dups-not-retrans.pcap");
	c = only_capture(&p);
	assert_int_equal(c->dup_segs, 485);
	assert_int_equal(c->retrans_segs, 0);
	parsed_free(&p);
	/* every segment captured twice in the same microsecond */
	parsed_corpus(&p, "pcap/zeek-ssh-fast-retransmits-dupacks.pcap");
	c = only_capture(&p);
	assert_int_equal(c->retrans_segs, 0);
	assert_int_equal(c->dup_segs, 166);
	parsed_free(&p);
	parsed_corpus(&p, "pcap/tcpdump-ssh-session-with-retransmission.pcap");
	assert_int_equal(only_capture(&p)->retrans_segs, 1);
	parsed_free(&p);
}

/* The same sequence and IP ID within a millisecond is no copy when the
 * bytes differ: a SYN and then a FIN (tshark: 1 retransmission) */
static void
test_duplicate_needs_same_bytes(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, "tests/data-capture/zeek-tcp-syn-then-fin-same-ip-id.pcap");
	assert_int_equal(only_capture(&p)->retrans_segs, 1);
	assert_int_equal(only_capture(&p)->dup_segs, 0);
	parsed_free(&p);
}

static void
test_super_packets(void **state)
{
	static const struct { const char *file; uint32_t bytes; } cases[] = {
		{ "pcap/tcpdump-bigtcp-ipv4-80000B-iplen0.pcap", 80000 },
		{ "pcap/tcpdump-bigtcp-ipv6-hbh-jumbo-80000B.pcap", 80000 },
		{ "pcap/tcpdump-tso-iplen0-2030B.pcap", 1976 },
		{ "pcap/tcpdump-gso-vxlan-encap-ipv4.pcap", 6990 },
	};
	(void)state;
	REQUIRE_CORPUS();
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++) {
		struct parsed p;

		parsed_corpus(&p, cases[i].file);
		const struct pd_capture *c = only_capture(&p);

		assert_int_equal(c->tcp_segments, 1);
		assert_int_equal(c->sizes.top[0].bytes, cases[i].bytes);
		parsed_free(&p);
	}
}

static void
test_pcapng_and_gzip(void **state)
{
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	parsed_corpus(&p, "pcap/zeek-kerberos-smb-tso-3278B.pcapng");
	assert_string_equal(p.cov.members->format, "pcapng");
	assert_int_equal(only_capture(&p)->packets, 314);
	assert_int_equal(only_capture(&p)->sizes.top[0].bytes, 0);
	parsed_free(&p);
	parsed_corpus(&p, "pcap/tcptrace-dsack-bulk-transfer.pcap.gz");
	assert_string_equal(p.cov.members->format, "pcap");
	assert_int_equal(only_capture(&p)->packets, 15712);
	assert_int_equal(size_count(&only_capture(&p)->sizes, 1448), 11592);
	parsed_free(&p);
}

static void
test_truncated_and_bounded(void **state)
{
	size_t len;
	unsigned char *buf = slurp("samples/bundles/gx10-before/pcap/nic2.pcap",
	    &len);
	struct parsed p;

	(void)state;
	assert_non_null(buf);
	parsed_read_memory(&p, buf, len / 2 + 7, "nic2.pcap");
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.cov.members->format, "pcap");
	assert_string_equal(p.cov.members->diag.notes->id, "pcap.truncated");
	assert_true(only_capture(&p)->truncated);
	assert_true(only_capture(&p)->packets > 2000);
	parsed_free(&p);
	free(buf);

	/* 20000 flows: the table evicts, memory stays bounded */
	struct pd_capture cap;
	struct pd_capture_state *st;
	uint8_t f[54] = { 0 };

	memset(&cap, 0, sizeof(cap));
	st = pd_capture_begin(&cap);
	f[12] = 0x08;
	f[14] = 0x45;
	f[17] = 40;
	f[23] = 6;
	for (unsigned i = 0; i < 20000; i++) {
		f[26] = 10;
		f[29] = (uint8_t)i;
		f[28] = (uint8_t)(i >> 8);
		f[30] = 10;
		f[33] = 1;
		f[34] = (uint8_t)(i >> 8);
		f[35] = (uint8_t)i;
		f[37] = 80;
		f[46] = 0x50;
		f[47] = PD_TCP_SYN;
		pd_capture_packet(st, i * 0.001, PD_LINK_ETHERNET, f, sizeof(f),
		    sizeof(f));
	}
	pd_capture_end(st);
	assert_int_equal(cap.flows_seen, 20000);
	assert_true(cap.flows_evicted > 0);
	assert_true(cap.n_flows <= PD_CAPTURE_FLOWS);
	assert_int_equal(cap.tcp_segments, 20000);
}

/* A data segment 10.0.0.2:4420 -> 10.0.0.1:80 as a 54-byte snap length
 * keeps it (Ethernet, IPv4, TCP headers): payload bytes at seq, IPv4 ID
 * id; a TSO super-packet (tso) has IPv4 total length 0.  On the wire the
 * frame has FRAME_LEN(payload) bytes. */
#define SNAP 54
#define FRAME_LEN(payload) (SNAP + (uint32_t)(payload))

struct seg {
	double ts;
	uint16_t id;
	uint32_t seq, payload;
	bool tso;
};

static void
put_segment(uint8_t f[SNAP], const struct seg *s)
{
	uint16_t total = s->tso ? 0 : (uint16_t)(20 + 20 + s->payload);

	memset(f, 0, SNAP);
	f[12] = 0x08;
	f[14] = 0x45;
	f[16] = (uint8_t)(total >> 8);
	f[17] = (uint8_t)total;
	f[18] = (uint8_t)(s->id >> 8);
	f[19] = (uint8_t)s->id;
	f[22] = 64;	/* TTL */
	f[23] = 6;
	f[26] = 10; f[29] = 2; f[30] = 10; f[33] = 1;
	f[34] = 4420 >> 8; f[35] = 4420 & 0xff; f[37] = 80;
	f[38] = (uint8_t)(s->seq >> 24); f[39] = (uint8_t)(s->seq >> 16);
	f[40] = (uint8_t)(s->seq >> 8); f[41] = (uint8_t)s->seq;
	f[46] = 0x50;
	f[47] = PD_TCP_ACK;
	f[48] = 0x20;	/* window 8192 */
}

/* One 1448-byte data segment, straight into the analysis. */
static void
data_segment(struct pd_capture_state *st, double ts, uint16_t id,
    uint32_t seq)
{
	const struct seg s = { ts, id, seq, 1448, false };
	uint8_t f[SNAP];

	put_segment(f, &s);
	pd_capture_packet(st, ts, PD_LINK_ETHERNET, f, SNAP,
	    FRAME_LEN(s.payload));
}

static void
put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Reads the segments as a pcap file (microseconds, Ethernet, snap
 * length SNAP) as tcpdump -s 54 writes it, member h/pcap/eth0.pcap. */
static void
parsed_segments(struct parsed *parsed, const struct seg *s, size_t n)
{
	unsigned char *b = malloc(24 + n * (16 + SNAP)), *p = b + 24;

	put_le32(b, 0xa1b2c3d4);
	put_le32(b + 4, 2 | 4u << 16);	/* version 2.4 */
	put_le32(b + 8, 0);
	put_le32(b + 12, 0);
	put_le32(b + 16, SNAP);
	put_le32(b + 20, PD_LINK_ETHERNET);
	for (size_t i = 0; i < n; i++, p += 16 + SNAP) {
		uint32_t sec = (uint32_t)s[i].ts;

		put_le32(p, sec);
		put_le32(p + 4, (uint32_t)((s[i].ts - sec) * 1e6 + 0.5));
		put_le32(p + 8, SNAP);
		put_le32(p + 12, FRAME_LEN(s[i].payload));
		put_segment(p + 16, &s[i]);
	}
	parsed_read_memory(parsed, b, (size_t)(p - b), "h/pcap/eth0.pcap");
	free(b);
}

static void
test_ip_id_gaps(void **state)
{
	struct pd_capture cap;
	struct pd_capture_state *st;
	uint32_t seq = 1000;
	uint16_t id = 100;
	double t = 1;

	(void)state;
	/* IDs one per segment; then 0.3 s of nothing and 9 IDs missing:
	 * segments lost before the capture point, an RTO-like stall even
	 * though no sequence range comes twice */
	memset(&cap, 0, sizeof(cap));
	st = pd_capture_begin(&cap);
	for (int i = 0; i < 40; i++, seq += 1448, t += 0.001)
		data_segment(st, t, id++, seq);
	id += 9;
	t += 0.3;
	for (int i = 0; i < 5; i++, seq += 1448, t += 0.001)
		data_segment(st, t, id++, seq);
	/* one more lost: a short gap is counted but is no stall */
	id++;
	data_segment(st, t, id++, seq);
	pd_capture_end(st);
	assert_int_equal(cap.retrans_segs, 0);
	assert_int_equal(cap.unseen_segs, 10);
	assert_int_equal(cap.n_stall_events, 1);
	assert_true(cap.stalls[0].gap > 0.299 && cap.stalls[0].gap < 0.302);

	/* IDs from a global counter (steps of 7): no trust, no guess */
	memset(&cap, 0, sizeof(cap));
	st = pd_capture_begin(&cap);
	seq = 1000;
	t = 1;
	for (int i = 0; i < 40; i++, seq += 1448, t += 0.001)
		data_segment(st, t, (uint16_t)(i * 7 + 1), seq);
	data_segment(st, t + 0.3, 999, seq);
	pd_capture_end(st);
	assert_int_equal(cap.unseen_segs, 0);
	assert_int_equal(cap.n_stall_events, 0);
}

/* A retransmission that overlaps what was sent only in part, and a TSO
 * super-packet, written as a pcap (tshark 4.0 reads the same: tcp.len
 * 1448 x 4 and 5000, tcp.analysis.retransmission on the third and
 * fourth segments). */
static void
test_partial_overlap_and_tso(void **state)
{
	static const struct seg segs[] = {
		{ 1.000, 100, 1000, 1448, false },
		{ 1.001, 101, 2448, 1448, false },	/* sent up to 3896 */
		{ 1.020, 102, 3000, 1448, false },	/* 896 B again, 552 new */
		{ 1.030, 103, 1000, 1448, false },	/* all 1448 B again */
		{ 1.040, 104, 4448, 5000, true },	/* IPv4 total length 0 */
	};
	struct parsed p;

	(void)state;
	parsed_segments(&p, segs, PD_ARRAY_SIZE(segs));
	const struct pd_capture *c = only_capture(&p);

	assert_int_equal(c->tcp_segments, 5);
	assert_int_equal(c->retrans_segs, 2);
	assert_int_equal(c->retrans_bytes, 896 + 1448);
	assert_int_equal(c->dup_segs, 0);
	assert_int_equal(c->unseen_segs, 0);
	/* the super-packet's payload: the frame's length less its headers */
	assert_int_equal(size_count(&c->sizes, 5000), 1);
	assert_int_equal(size_count(&c->sizes, 1448), 4);
	assert_int_equal(c->tcp_payload_bytes, 4 * 1448 + 5000);
	assert_int_equal(c->super_segs, 1);
	assert_int_equal(c->n_flows, 1);
	assert_int_equal(c->flows[0].dir[1].retrans_segs, 2);
	assert_int_equal(c->flows[0].dir[1].retrans_bytes, 896 + 1448);
	assert_int_equal(c->flows[0].dir[1].max_payload, 5000);
	parsed_free(&p);
}

/* Capture duplicates by IP ID: a copy of a packet stamped before it
 * (capture hardware with two clocks) is one; a segment sent again within
 * a millisecond with a new IP ID is a retransmission, not a copy. */
static void
test_captured_twice_by_ip_id(void **state)
{
	static const struct seg segs[] = {
		{ 1.0000, 100, 1000, 1448, false },
		{ 1.0010, 101, 2448, 1448, false },
		{ 1.0000, 100, 1000, 1448, false },	/* copy, stamped earlier */
		{ 1.0200, 102, 2448, 1448, false },	/* sent again */
		{ 1.0202, 103, 2448, 1448, false },	/* and again, 0.2 ms on */
		{ 1.0203, 103, 2448, 1448, false },	/* a copy of that */
	};
	struct parsed p;

	(void)state;
	parsed_segments(&p, segs, PD_ARRAY_SIZE(segs));
	const struct pd_capture *c = only_capture(&p);

	assert_int_equal(c->dup_segs, 2);
	assert_int_equal(c->retrans_segs, 2);
	assert_int_equal(c->retrans_bytes, 2 * 1448);
	parsed_free(&p);
}

static void
test_decoder_link_types(void **state)
{
	/* QinQ-tagged Ethernet, IPv4, TCP with 100 payload bytes */
	struct pd_pkt pk;

	(void)state;
	/* layout: dst src 88a8 tci 8100 tci 0800 */
	uint8_t fr[12 + 4 + 4 + 2 + 20 + 20] = { 0 };

	fr[12] = 0x88; fr[13] = 0xa8; fr[16] = 0x81; fr[17] = 0x00;
	fr[20] = 0x08; fr[21] = 0x00;
	uint8_t *ip = fr + 22;

	ip[0] = 0x45; ip[2] = 0; ip[3] = 140; ip[9] = 6;
	ip[12] = 10; ip[15] = 1; ip[16] = 10; ip[19] = 2;
	ip[20 + 1] = 80; ip[20 + 3] = 99; ip[20 + 12] = 0x50;
	assert_true(pd_pkt_decode(PD_LINK_ETHERNET, fr, sizeof(fr), 162, &pk));
	assert_int_equal(pk.payload, 100);
	assert_int_equal(pk.sport, 80);
	/* cut by the snap length: the IP length still counts */
	assert_true(pd_pkt_decode(PD_LINK_ETHERNET, fr, 42 + 20, 162, &pk));
	assert_int_equal(pk.payload, 100);
	assert_false(pd_pkt_decode(PD_LINK_ETHERNET, fr, 30, 162, &pk));
	assert_false(pd_pkt_decode(147, fr, sizeof(fr), 162, &pk));
}

/* Bucket 0 holds empty segments, 1 up to 63 bytes, and each after it
 * a doubling (64-127, 128-255, ...), the last all above. */
static void
test_size_buckets(void **state)
{
	(void)state;
	for (uint64_t x = 0; x <= UINT32_MAX; x = x < 70000 ? x + 1 :
	    x * 3 / 2 + 1) {
		uint32_t bytes = (uint32_t)x;
		unsigned b = 1;

		for (uint32_t v = bytes >> 6; v && b < PD_SIZE_BUCKETS - 1;
		    v >>= 1)
			b++;
		assert_int_equal(pd_size_bucket(bytes), bytes ? b : 0);
	}
	assert_int_equal(pd_size_bucket(63), 1);
	assert_int_equal(pd_size_bucket(64), 2);
	assert_int_equal(pd_size_bucket(127), 2);
	assert_int_equal(pd_size_bucket(128), 3);
	assert_int_equal(pd_size_bucket(UINT32_MAX), PD_SIZE_BUCKETS - 1);
}

/* The MSS option is read from SYNs, where RFC 9293 allows it, after
 * NOPs and timestamps, and only as far as the capture holds it; the
 * options of other segments are not walked. */
static void
test_decoder_mss(void **state)
{
	struct pd_pkt pk;
	/* IPv4 (20) and TCP with 12 bytes of options: NOP NOP MSS 1460,
	 * then NOP NOP and a 2-byte end */
	uint8_t ip[20 + 32] = { 0x45, 0, 0, 52, [9] = 6, [12] = 10, [15] = 1,
	    [16] = 10, [19] = 2 };
	uint8_t *t = ip + 20;

	(void)state;
	t[1] = 80; t[3] = 99; t[12] = 0x80;	/* 32 bytes of header */
	memcpy(t + 20, (const uint8_t[]){ 1, 1, 2, 4, 0x05, 0xb4, 1, 1, 1, 1,
	    1, 0 }, 12);
	t[13] = PD_TCP_SYN;
	assert_true(pd_pkt_decode(PD_LINK_IPV4, ip, sizeof(ip), 52, &pk));
	assert_int_equal(pk.mss, 1460);
	assert_int_equal(pk.payload, 0);
	t[13] = PD_TCP_SYN | 0x10;		/* SYN-ACK */
	assert_true(pd_pkt_decode(PD_LINK_IPV4, ip, sizeof(ip), 52, &pk));
	assert_int_equal(pk.mss, 1460);
	t[13] = 0x10;				/* an ACK carrying one */
	assert_true(pd_pkt_decode(PD_LINK_IPV4, ip, sizeof(ip), 52, &pk));
	assert_int_equal(pk.mss, 0);
	/* the capture ends inside the option: decoded, MSS unknown */
	t[13] = PD_TCP_SYN;
	assert_true(pd_pkt_decode(PD_LINK_IPV4, ip, 20 + 20 + 3, 52, &pk));
	assert_int_equal(pk.mss, 0);
	/* a TCP header cut short is not decoded */
	assert_false(pd_pkt_decode(PD_LINK_IPV4, ip, 20 + 19, 52, &pk));
	assert_false(pd_pkt_decode(PD_LINK_IPV4, ip, 19, 52, &pk));
}

static void
test_gso_rule(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_analysed(&p, "samples/pve-gso-before.tgz");
	f = find_finding(&p, "tcp.gso-mismatch", "tap100i0 -> enp3s0");
	assert_non_null(f);
	assert_int_equal(f->confidence, 80);
	assert_int_equal(f->gain_lo, 210);
	assert_int_equal(f->gain_hi, 230);
	assert_non_null(f->chart);
	assert_int_equal(f->chart->a[0].bytes, 65160);
	assert_non_null(strstr(pd_chart_draw(p.m->arena, f->chart),
	    "65160 B"));
	assert_non_null(strstr(f->fix[1], "ens18 gso_max_size 63000 "
	    "gso_ipv4_max_size 63000"));
	for (const struct pd_capture *c = p.m->hosts->next->captures; c;
	    c = c->next)
		assert_int_not_equal(c->side, PD_SIDE_UNKNOWN);
	parsed_free(&p);

	parsed_analysed(&p, "samples/pve-gso-after.tgz");
	assert_int_equal(p.fs.n, 0);
	parsed_free(&p);

	/* ip -d link alone predicts it, with less confidence */
	size_t len;
	unsigned char *t = slurp("samples/bundles/pve-gso-before/pve/"
	    "ip-link.txt", &len);
	const char *names[] = { "pve/ip-link.txt" };

	t = realloc(t, len + 1);
	t[len] = 0;
	const char *texts[] = { (const char *)t };

	parsed_members(&p, names, texts, 1);
	parsed_analyse(&p);
	f = find_finding(&p, "tcp.gso-mismatch", NULL);
	assert_non_null(f);
	assert_int_equal(f->confidence, 40);
	assert_non_null(strstr(f->fix[1], "GUEST-IF-OF-VM100-NET0"));
	parsed_free(&p);
	free(t);
}

static void
test_pause_rule(void **state)
{
	struct parsed p;

	(void)state;
	parsed_analysed(&p, "samples/gx10-before.tgz");
	const struct pd_finding *f = find_finding(&p,
	    "nic.pause-off-retransmits", "nic2");

	assert_non_null(f);
	assert_int_equal(f->confidence, 75);
	assert_int_equal(f->gain_lo, 0);

	/* The sample comes from real traffic, so its numbers vary with the
	 * run that made it; the gain must be the stalled share's bound. */
	const struct pd_capture *c = p.m->hosts->captures;

	while (c && strcmp(c->ifname, "nic2") != 0)
		c = c->next;
	assert_non_null(c);
	assert_true(c->retrans_segs > 0 && c->n_stalls > 0);
	assert_true(c->stalls[0].gap >= PD_STALL_MIN);
	double share = c->stall_time / (c->last_ts - c->first_ts);

	assert_int_equal(f->gain_hi, pd_gain_tenths(1 / (1 - share)));
	assert_non_null(strstr(f->fix[0], "ethtool -A nic2 rx on tx on"));
	assert_null(find_finding(&p, "nic.pause-off-retransmits", "nic4"));
	parsed_free(&p);
}

/* libpcap's own test files that it rejects (tests/data-capture), and a
 * file of three interfaces, one without packets */
static void
test_pcapng_checked_like_libpcap(void **state)
{
	struct parsed p;
	const struct pd_capture *c;

	(void)state;
	/* libpcap: "unsupported pcapng savefile version 0.1"; tshark too */
	parsed_read(&p, "tests/data-capture/pcapng-invalid-vers-1.pcapng");
	assert_int_equal(p.cov.members->diag.worst, PD_FAILED);
	assert_true(has_note(p.cov.members, "pcapng.version"));
	assert_null(p.m->hosts ? p.m->hosts->captures : NULL);
	parsed_free(&p);
	/* libpcap: "block total length in header and trailer don't
	 * match"; tshark: "Not enough data to handle option" */
	parsed_read(&p, "tests/data-capture/shb-option-too-long.pcapng");
	assert_true(has_note(p.cov.members, "pcapng.bad-block"));
	assert_int_equal(p.cov.members->diag.worst, PD_WARN);
	parsed_free(&p);
	/* tshark: 4 frames on interface 0, 1 on interface 1, none on 2 */
	parsed_read(&p, "tests/data-capture/pcapng-test100-three-interfaces.pcapng");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	unsigned n = 0;
	uint64_t want[] = { 4, 1, 0 }, got[3] = { 9, 9, 9 };

	for (c = p.m->hosts->captures; c; c = c->next, n++)
		if (n < 3)
			got[n] = c->packets;
	assert_int_equal(n, 3);
	assert_memory_equal(got, want, sizeof(want));
	parsed_free(&p);
}

static const struct pd_member_result *
note_text(const struct parsed *p, const char *id, const char *text)
{
	const struct pd_member_result *r = p->cov.members;

	for (const struct pd_note *n = r->diag.notes; n; n = n->next)
		if (strcmp(n->id, id) == 0 && strstr(n->msg, text))
			return r;
	fail_msg("no note %s with '%s'", id, text);
	return NULL;
}

/* Tunnels and encapsulations of other projects' test suites
 * (tests/data-capture); tshark's figures from tests/golden/tshark too */
static void
test_encapsulations(void **state)
{
	static const struct {
		const char *file;
		uint64_t segs, bytes;
	} cases[] = {
		{ "zeek-pppoe-over-qinq.pcap", 86, 34520 },
		{ "zeek-mixed-vlan-mpls.pcap", 47, 12979 },
		{ "zeek-gre-sample.pcap", 22, 2623 },
		{ "tcpdump-geneve.pcap", 33, 4396 },
		{ "tcpdump-wccp-redirect-gre.pcap", 1, 188 },
	};
	char path[256];

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++) {
		struct parsed p;

		snprintf(path, sizeof(path), "tests/data-capture/%s",
		    cases[i].file);
		parsed_read(&p, path);
		const struct pd_capture *c = only_capture(&p);

		if (c->tcp_segments != cases[i].segs ||
		    c->tcp_payload_bytes != cases[i].bytes)
			fail_msg("%s: %llu segments, %llu bytes", cases[i].file,
			    (unsigned long long)c->tcp_segments,
			    (unsigned long long)c->tcp_payload_bytes);
		assert_false(has_note(p.cov.members, "capture.not-decoded"));
		parsed_free(&p);
	}
}

static void
test_not_decoded_noted(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, "tests/data-capture/zeek-ip6-esp.pcap");
	note_text(&p, "capture.not-decoded",
	    "120 packets not decoded: ESP (encrypted)");
	assert_int_equal(only_capture(&p)->tcp_segments, 0);
	parsed_free(&p);
	/* tshark reassembles 3 segments of 69 bytes from 6 frames; the 4
	 * fragments are counted as such, the 2 whole segments as TCP */
	parsed_read(&p, "tests/data-capture/zeek-ipv4-fragmented-4.pcap");
	note_text(&p, "capture.not-decoded",
	    "4 packets not decoded: IP fragments (not reassembled)");
	assert_int_equal(only_capture(&p)->tcp_segments, 2);
	parsed_free(&p);
}

/* A classic pcap whose header declares snaplen and holds one 54-byte
 * TCP packet (twice when two). */
static size_t
odd_pcap(unsigned char *b, uint32_t snaplen, int n)
{
	static const unsigned char hdr[24] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0,
		4, 0 };
	size_t o = 24;

	memcpy(b, hdr, 24);
	b[16] = (unsigned char)snaplen;
	b[17] = (unsigned char)(snaplen >> 8);
	b[18] = (unsigned char)(snaplen >> 16);
	b[19] = (unsigned char)(snaplen >> 24);
	b[20] = 1;	/* Ethernet */
	for (int k = 0; k < n; k++) {
		memset(b + o, 0, 16 + 54);
		b[o] = 1;
		b[o + 8] = b[o + 12] = 54;
		b[o + 16 + 12] = 0x08;
		b[o + 16 + 14] = 0x45;
		b[o + 16 + 17] = 40;
		b[o + 16 + 22] = 64;
		b[o + 16 + 23] = 6;
		b[o + 16 + 46] = 0x50;
		o += 16 + 54;
	}
	return o;
}

/* Snap lengths libpcap replaces or records it cuts are said, not
 * silently read. */
static void
test_snaplen_notes(void **state)
{
	unsigned char b[256];
	struct parsed p;
	static const struct { uint32_t snaplen; const char *id; } cases[] = {
		{ 0, "pcap.snaplen" }, { 1u << 31, "pcap.snaplen" },
		{ 20, "pcap.caplen" },
	};

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++) {
		size_t n = odd_pcap(b, cases[i].snaplen, 2);

		parsed_read_memory(&p, b, n, "pcap/eth0.pcap");
		assert_true(has_note(p.cov.members, cases[i].id));
		parsed_free(&p);
	}
	size_t n = odd_pcap(b, 65535, 2);

	parsed_read_memory(&p, b, n, "pcap/eth0.pcap");
	assert_false(has_note(p.cov.members, "pcap.snaplen"));
	assert_false(has_note(p.cov.members, "pcap.caplen"));
	assert_int_equal(p.m->hosts->captures->packets, 2);
	parsed_free(&p);
}

int
test_group_capture(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snaplen_notes),
		cmocka_unit_test(test_corpus_captures),
		cmocka_unit_test(test_histograms_match_tshark),
		cmocka_unit_test(test_retransmissions_and_duplicates),
		cmocka_unit_test(test_super_packets),
		cmocka_unit_test(test_pcapng_and_gzip),
		cmocka_unit_test(test_truncated_and_bounded),
		cmocka_unit_test(test_ip_id_gaps),
		cmocka_unit_test(test_partial_overlap_and_tso),
		cmocka_unit_test(test_captured_twice_by_ip_id),
		cmocka_unit_test(test_decoder_link_types),
		cmocka_unit_test(test_decoder_mss),
		cmocka_unit_test(test_size_buckets),
		cmocka_unit_test(test_gso_rule),
		cmocka_unit_test(test_pause_rule),
		cmocka_unit_test(test_pcapng_checked_like_libpcap),
		cmocka_unit_test(test_encapsulations),
		cmocka_unit_test(test_duplicate_needs_same_bytes),
		cmocka_unit_test(test_not_decoded_noted),
	};
	return cmocka_run_group_tests_name("capture", tests, NULL, NULL);
}

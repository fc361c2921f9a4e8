/* "pcap": a classic libpcap capture (tcpdump -w), microsecond or
 * nanosecond, either byte order, read by libpcap from a FILE * over the
 * member, so it streams from the archive and is never held whole.  The
 * interface is named by the path (pcap/IF.pcap, IF@TIME.pcap). */
#define _DEFAULT_SOURCE	/* libpcap's headers use u_int, u_char */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>
#include "decode/capture.h"
#include "decode/filter.h"
#include "decode/packet.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"

extern const struct pd_format pd_format_pcap;

static int
bid_pcap(const struct pd_member *m)
{
	static const uint8_t magics[][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },
	};
	if (m->head_len < 24)
		return 0;
	for (size_t i = 0; i < PD_ARRAY_SIZE(magics); i++) {
		if (memcmp(m->head, magics[i], 4) != 0)
			continue;
		bool le = i % 2 == 1;
		unsigned major = le ? m->head[4] | m->head[5] << 8 :
		    m->head[4] << 8 | m->head[5];

		return major == 2 ? 48 : 32;
	}
	return 0;
}

/* The snap length as the file header declares it: libpcap replaces 0
 * and values past its own maximum, so the member would say nothing. */
#define SNAPLEN_SANE (1u << 18)	/* libpcap's MAXIMUM_SNAPLEN, 262144 */

static uint32_t
field(const uint8_t *b, bool le)
{
	return le ? (uint32_t)b[0] | (uint32_t)b[1] << 8 |
	    (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 :
	    (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[0] << 24;
}

/* Records longer than the declared snap length, among those whole in
 * the member's head: libpcap cuts them to the snap length without a
 * word, so only the raw record headers show it. */
static uint64_t
over_snaplen(const struct pd_member *m, uint32_t declared)
{
	bool le = m->head[0] == 0xd4 || m->head[0] == 0x4d;
	uint64_t over = 0;
	size_t o = 24;

	if (declared == 0 || declared > SNAPLEN_SANE)
		return 0;
	while (o <= m->head_len && m->head_len - o >= 16) {
		uint32_t caplen = field(m->head + o + 8, le);

		over += caplen > declared;
		if (caplen > m->head_len - o - 16)
			break;
		o += 16 + caplen;
	}
	return over;
}

static void
snaplen_notes(struct pd_diag *d, uint32_t declared, uint32_t used,
    uint64_t over)
{
	if (declared == 0 || declared > SNAPLEN_SANE)
		pd_diag_note(d, PD_WARN, "pcap.snaplen", 0, "the header declares "
		    "a snap length of %u bytes; it was read as %u", declared,
		    used);
	if (over)
		pd_diag_note(d, PD_WARN, "pcap.caplen", 0, "%llu packet%s at "
		    "the start carry more bytes than the header's snap length "
		    "(%u), which libpcap cuts them to: the file was written by "
		    "something other than libpcap, or edited",
		    (unsigned long long)over, over == 1 ? "" : "s", declared);
}

static void
describe(struct pd_capture *cap, const struct pd_member *m,
    struct pd_diag *d, int lt)
{
	const char *name = pcap_datalink_val_to_name(lt);

	cap->ev = (struct pd_evidence){ .member = m->path, .text =
	    pd_arena_printf(d->arena, "link type %s, snap length %u",
	    name ? name : "?", cap->snaplen) };
	if (!pd_linktype_known(lt))
		pd_diag_note(d, PD_WARN, "pcap.linktype", 0, "link type %d (%s) "
		    "is not decoded: packets are counted, not analysed", lt,
		    name ? name : "?");
}

/* Every record through the analysis (those --filter matches); PD_WARN
 * when libpcap stops on a cut record. */
static enum pd_status
read_packets(pcap_t *p, struct pd_capture *cap, const struct pd_filter *flt,
    struct pd_diag *d)
{
	struct pd_capture_state *st = pd_capture_begin(cap);
	struct pcap_pkthdr *hdr;
	const u_char *data;
	enum pd_status rc = PD_OK;
	int r;

	while ((r = pcap_next_ex(p, &hdr, &data)) == 1) {
		cap->packets_read++;
		if (pd_filter_match(flt, data, hdr->caplen, hdr->len))
			pd_capture_packet(st, hdr->ts.tv_sec +
			    hdr->ts.tv_usec / 1e9, cap->linktype, data,
			    hdr->caplen, hdr->len);
	}
	if (r == PCAP_ERROR) {
		cap->truncated = true;
		pd_diag_note(d, PD_WARN, "pcap.truncated", 0, "capture cut "
		    "short after %llu packets (%s); the part before was "
		    "analysed", (unsigned long long)cap->packets_read,
		    pcap_geterr(p));
		rc = PD_WARN;
	}
	pd_capture_end(st);
	pd_capture_notes(cap, d);
	return rc;
}

/* One cleanup path: the compiled filter and the handle (which closes
 * the stream) go whatever the outcome. */
static enum pd_status
parse_pcap(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct pd_filter flt = { 0 };
	enum pd_status rc = PD_FAILED;
	FILE *f = pd_input_fopen(in);
	pcap_t *p = NULL;

	if (!f) {
		pd_diag_note(d, PD_FAILED, "pcap.open", 0, "cannot open a "
		    "stream over the member");
		goto out;
	}
	p = pcap_fopen_offline_with_tstamp_precision(f,
	    PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		fclose(f);
		pd_diag_note(d, PD_FAILED, "pcap.open", 0, "not a readable "
		    "capture: %s", errbuf);
		goto out;
	}
	int lt = pcap_datalink(p);
	uint32_t snaplen = (uint32_t)pcap_snapshot(p);

	if (!pd_filter_open(&flt, lt, snaplen, errbuf, sizeof(errbuf))) {
		pd_filter_skip_note(m, d, lt, NULL, errbuf);
		rc = PD_WARN;
		goto out;
	}
	struct pd_capture *cap = pd_host_capture(h, d->arena, m->path,
	    pd_capture_ifname(m, d, &pd_format_pcap));

	cap->linktype = lt;
	cap->snaplen = snaplen;
	cap->filter = pd_filter_expr();
	describe(cap, m, d, lt);
	uint32_t declared = field(m->head + 16, m->head[0] == 0xd4 ||
	    m->head[0] == 0x4d);

	snaplen_notes(d, declared, cap->snaplen, over_snaplen(m, declared));
	rc = read_packets(p, cap, &flt, d);
out:
	pd_filter_close(&flt);
	if (p)
		pcap_close(p);		/* closes f */
	return rc;
}

static const char *const hints[] = { ".pcap", ".cap", "tcpdump", NULL };

const struct pd_format pd_format_pcap = {
	.name = "pcap",
	.summary = "packet capture: TCP payload sizes per interface and flow, "
	    "retransmissions, stalls, throughput",
	.command = "tcpdump -i IF -s 128 -w IF.pcap",
	.hints = hints,
	.gives = PD_HAVE_CAPTURE,
	.collect = "tcpdump -i IF -s 128 -w IF.pcap on the interfaces in "
	    "question, at the same time",
	.bid = bid_pcap,
	.parse = parse_pcap,
};

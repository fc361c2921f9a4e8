/* "pcap": a classic libpcap capture (tcpdump -w), microsecond or
 * nanosecond, either byte order.  libpcap reads the file header (so its
 * checks, link-type mapping and snap-length rules are its own); the
 * records are then walked in place in the buffer the member is read
 * into (pd_window) with libpcap's sf-pcap.c semantics, so nothing is
 * copied per packet and the capture streams from the archive, never
 * held whole.  The few link types whose records libpcap rewrites on reading
 * (byte-swapped pseudo-headers, USB lengths) go through libpcap itself.
 * The interface is named by the path (pcap/IF.pcap, IF@TIME.pcap). */
#define _DEFAULT_SOURCE	/* libpcap's headers use u_int, u_char */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "decode/capture.h"
#include "decode/filter.h"
#include "decode/packet.h"
#include "decode/pcaplib.h"
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
	const char *name = pd_pcap_linktype_name(lt);

	cap->ev = (struct pd_evidence){ .member = m->path, .text =
	    pd_arena_printf(d->arena, "link type %s, snap length %u",
	    name ? name : "?", cap->snaplen) };
	if (!pd_linktype_known(lt))
		pd_diag_note(d, PD_WARN, "pcap.linktype", 0, "link type %d (%s) "
		    "is not decoded: packets are counted, not analysed", lt,
		    name ? name : "?");
}

/* The note of a capture libpcap would stop reading, with its words. */
static enum pd_status
cut_note(struct pd_capture *cap, struct pd_diag *d, const char *why)
{
	cap->truncated = true;
	pd_diag_note(d, PD_WARN, "pcap.truncated", 0, "capture cut short after "
	    "%llu packets (%s); the part before was analysed",
	    (unsigned long long)cap->packets_read, why);
	return PD_WARN;
}

/* Every record through the analysis (those --filter matches); PD_WARN
 * when libpcap stops on a cut record.  The path for what the walker
 * leaves to libpcap. */
static enum pd_status
read_packets(pcap_t *p, struct pd_capture *cap, const struct pd_filter *flt,
    struct pd_diag *d)
{
	struct pd_capture_state *st = pd_capture_begin(cap);
	struct pcap_pkthdr *hdr;
	const u_char *data;
	enum pd_status rc = PD_OK;
	int r;

	while ((r = pd_pcap.pcap_next_ex(p, &hdr, &data)) == 1) {
		cap->packets_read++;
		if (pd_filter_match(flt, data, hdr->caplen, hdr->len))
			pd_capture_packet(st, hdr->ts.tv_sec +
			    hdr->ts.tv_usec / 1e9, cap->linktype, data,
			    hdr->caplen, hdr->len);
	}
	if (r == PCAP_ERROR)
		rc = cut_note(cap, d, pd_pcap.pcap_geterr(p));
	pd_capture_end(st);
	pd_capture_notes(cap, d);
	return rc;
}

/* What the record walk keeps of libpcap's reading state (sf-pcap.c):
 * the file header as libpcap took it, and how records are laid out. */
struct sf {
	int dlt;
	uint32_t snap;		/* pcap_snapshot(): 0 or oversized replaced */
	uint32_t max_caplen;	/* libpcap's max_snaplen_for_dlt() */
	bool swapped;		/* written in the other byte order */
	bool scale_up;		/* microseconds, handed out as nanoseconds */
	enum { NOT_SWAPPED, SWAPPED, MAYBE_SWAPPED } lengths;
	bool need_bytes;	/* the decoder or the filter reads them */
};

#define RECORD_HDR 16u

/* The classic magics the walker takes (the patched-header variant and
 * anything else go to libpcap whole). */
static bool
classic(const struct pd_member *m)
{
	static const uint8_t magics[][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },
	};

	if (m->head_len < 24)
		return false;
	for (size_t i = 0; i < PD_ARRAY_SIZE(magics); i++)
		if (memcmp(m->head, magics[i], 4) == 0)
			return true;
	return false;
}

/* libpcap's max_snaplen_for_dlt(): a record longer is an error. */
static uint32_t
max_caplen(int dlt)
{
	switch (dlt) {
	case DLT_DBUS:
		return 128u << 20;
	case DLT_EBHSCR:
		return 8u << 20;
	case DLT_USBPCAP:
		return 1u << 20;
	default:
		return SNAPLEN_SANE;
	}
}

/* Link types whose records libpcap changes as it reads them
 * (pcap_post_process: pseudo-headers byte-swapped, USB lengths fixed):
 * those are read by libpcap, so that they stay the same. */
static bool
rewritten(int dlt, bool swapped)
{
	if (dlt == DLT_USB_LINUX_MMAPPED)
		return true;
	if (!swapped)
		return false;
	switch (dlt) {
	case DLT_PFLOG: case DLT_LINUX_SLL: case DLT_LINUX_SLL2:
	case DLT_USB_LINUX: case DLT_NFLOG:
		return true;
	default:
		return false;
	}
}

static void
sf_init(struct sf *sf, pcap_t *p, const struct pd_member *m, bool filtered)
{
	int major = pd_pcap.pcap_major_version(p);
	int minor = pd_pcap.pcap_minor_version(p);

	sf->dlt = pd_pcap.pcap_datalink(p);
	sf->snap = (uint32_t)pd_pcap.pcap_snapshot(p);
	sf->max_caplen = max_caplen(sf->dlt);
	sf->swapped = pd_pcap.pcap_is_swapped(p) == 1;
	sf->scale_up = !(m->head[2] == 0x3c || m->head[1] == 0x3c);
	/* caplen and len traded places at 2.3; some 2.3 writers did not */
	sf->lengths = NOT_SWAPPED;
	if ((major == 2 && minor < 3) || major == 543)
		sf->lengths = SWAPPED;
	else if (major == 2 && minor == 3)
		sf->lengths = MAYBE_SWAPPED;
	/* an undecoded link type without a filter: only the lengths count,
	 * so a record is never held whole (DBUS allows 128 MiB) */
	sf->need_bytes = pd_linktype_known(sf->dlt) || filtered;
}

static uint32_t
rd32(const uint8_t *b, bool swapped)
{
	uint32_t v;

	memcpy(&v, b, 4);
	return swapped ? __builtin_bswap32(v) : v;
}

/* libpcap's words for the read that failed, as sf-pcap.c puts them. */
static void
read_error(char *err, const struct pd_input *in, uint64_t want, uint64_t got,
    const char *what)
{
	if (in->failed)
		snprintf(err, PCAP_ERRBUF_SIZE, "error reading dump file: %s",
		    strerror(errno));
	else
		snprintf(err, PCAP_ERRBUF_SIZE, "truncated dump file; tried to "
		    "read %llu %s bytes, only got %llu",
		    (unsigned long long)want, what, (unsigned long long)got);
}

/* The record's bytes as libpcap hands them out: the record must be
 * whole, and past the snap length it is cut to it.  NULL with
 * libpcap's message when the member ends (or fails) inside it. */
static const uint8_t *
body(struct pd_window *w, const struct sf *sf, uint32_t *caplen, char *err)
{
	uint32_t n = *caplen;
	const uint8_t *data = pd_window_at(w);
	uint64_t got = 0;

	if (!sf->need_bytes) {
		/* not read by anyone: passed over, never held */
		if (!pd_window_skip(w, n, &got))
			goto cut;
	} else if (pd_window_left(w) >= n || pd_window_fill(w, n)) {
		data = pd_window_at(w);
		w->pos += n;
	} else {
		got = pd_window_left(w);
		goto cut;
	}
	if (n > sf->snap)
		*caplen = sf->snap;
	return data;
cut:
	/* libpcap reads the snap length first, then the rest */
	if (n > sf->snap && got < sf->snap)
		read_error(err, w->in, sf->snap, got, "captured");
	else
		read_error(err, w->in, n, got, "captured");
	return NULL;
}

/* One record header: false with libpcap's message when it is cut, or
 * its captured length is past what libpcap accepts for the link type. */
static bool
record(struct pd_window *w, const struct sf *sf, double *ts, uint32_t *caplen,
    uint32_t *len, char *err)
{
	if (pd_window_left(w) < RECORD_HDR &&
	    !pd_window_fill(w, RECORD_HDR)) {
		if (pd_window_left(w) || w->in->failed)
			read_error(err, w->in, RECORD_HDR, pd_window_left(w),
			    "header");
		return false;
	}
	const uint8_t *h = pd_window_at(w);
	int32_t sec = (int32_t)rd32(h, sf->swapped);
	int32_t frac = (int32_t)rd32(h + 4, sf->swapped);
	uint32_t c = rd32(h + 8, sf->swapped), l = rd32(h + 12, sf->swapped);

	w->pos += RECORD_HDR;
	if (sf->lengths == SWAPPED || (sf->lengths == MAYBE_SWAPPED && c > l)) {
		uint32_t t = c;

		c = l;
		l = t;
	}
	/* as tv_sec + tv_usec / 1e9 with PCAP_TSTAMP_PRECISION_NANO */
	*ts = (double)(time_t)sec + (double)(sf->scale_up ? (long)frac *
	    1000 : (long)frac) / 1e9;
	*caplen = c;
	*len = l;
	if (c <= sf->max_caplen)
		return true;
	if (c > sf->snap)
		snprintf(err, PCAP_ERRBUF_SIZE, "invalid packet capture length "
		    "%u, bigger than snaplen of %d", c, (int)sf->snap);
	else
		snprintf(err, PCAP_ERRBUF_SIZE, "invalid packet capture length "
		    "%u, bigger than maximum of %u", c, sf->max_caplen);
	return false;
}

/* Every record after the 24-byte file header, walked in place. */
static enum pd_status
walk_records(struct pd_input *in, const struct sf *sf, struct pd_capture *cap,
    const struct pd_filter *flt, struct pd_diag *d)
{
	struct pd_capture_state *st = pd_capture_begin(cap);
	char err[PCAP_ERRBUF_SIZE] = "";
	enum pd_status rc = PD_OK;
	struct pd_window w;
	uint64_t skipped;
	uint32_t caplen, len;
	double ts;

	/* reads of the size of the FILE buffer libpcap read through (glibc
	 * gives a cookie stream BUFSIZ), so that a stream that fails stops
	 * where it stopped before: the bytes of a failed read are lost */
	pd_window_open(&w, in, sf->need_bytes ? sf->max_caplen : RECORD_HDR,
	    BUFSIZ);
	if (!pd_window_skip(&w, 24, &skipped))
		snprintf(err, sizeof(err), "the file header went missing");
	while (!err[0] && record(&w, sf, &ts, &caplen, &len, err)) {
		const uint8_t *data = body(&w, sf, &caplen, err);

		if (!data)
			break;
		cap->packets_read++;
		if (pd_filter_match(flt, data, caplen, len))
			pd_capture_packet(st, ts, sf->dlt, data, caplen, len);
	}
	if (err[0])
		rc = cut_note(cap, d, err);
	pd_window_close(&w);
	pd_capture_end(st);
	pd_capture_notes(cap, d);
	return rc;
}

/* libpcap over f (NULL: it could not be made); NULL with the note when
 * libpcap refuses it.  libpcap owns f once it opens it. */
static pcap_t *
open_file(FILE *f, struct pd_diag *d)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p;

	if (!f) {
		pd_diag_note(d, PD_FAILED, "pcap.open", 0, "cannot open a "
		    "stream over the member");
		return NULL;
	}
	p = pd_pcap.pcap_fopen_offline_with_tstamp_precision(f,
	    PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		fclose(f);
		pd_diag_note(d, PD_FAILED, "pcap.open", 0, "not a readable "
		    "capture: %s", errbuf);
	}
	return p;
}

/* libpcap over the whole member (FILE * over the input), for what the
 * walker leaves to it. */
static pcap_t *
open_stream(struct pd_input *in, struct pd_diag *d)
{
	return open_file(pd_input_fopen(in), d);
}

/* libpcap over the file header alone (the member's first 24 bytes), so
 * that it checks and maps it as when it reads the whole file. */
static pcap_t *
open_header(const struct pd_member *m, struct pd_diag *d)
{
	return open_file(fmemopen((void *)m->head, 24, "r"), d);
}

/* One cleanup path: the compiled filter and the handle (which closes
 * its stream) go whatever the outcome. */
static enum pd_status
parse_pcap(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct pd_filter flt = { 0 };
	enum pd_status rc = PD_FAILED;
	bool walk = classic(m);
	pcap_t *p = NULL;
	struct sf sf;

	if (!pd_pcap_load(errbuf, sizeof(errbuf))) {
		pd_diag_note(d, PD_FAILED, "pcap.libpcap", 0, "%s; the capture "
		    "was not read", errbuf);
		goto out;
	}
	p = walk ? open_header(m, d) : open_stream(in, d);
	if (!p)
		goto out;
	if (walk && rewritten(pd_pcap.pcap_datalink(p),
	    pd_pcap.pcap_is_swapped(p) == 1)) {
		pd_pcap.pcap_close(p);
		walk = false;
		if (!(p = open_stream(in, d)))
			goto out;
	}
	int lt = pd_pcap.pcap_datalink(p);
	uint32_t snaplen = (uint32_t)pd_pcap.pcap_snapshot(p);

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
	if (walk) {
		sf_init(&sf, p, m, flt.prog != NULL);
		rc = walk_records(in, &sf, cap, &flt, d);
	} else {
		rc = read_packets(p, cap, &flt, d);
	}
out:
	pd_filter_close(&flt);
	if (p)
		pd_pcap.pcap_close(p);		/* closes its stream */
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

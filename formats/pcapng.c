/* "pcapng": a pcapng capture (dumpcap, Wireshark), walked block by
 * block with a bounds-checked cursor because libpcap does not tell which
 * interface a packet of a multi-interface file came from.  Blocks are
 * handed out in place from large reads of the member (pd_window), never
 * copied.  Section headers in either byte order; interface description
 * blocks give the link type, snap length, if_name and if_tsresol;
 * enhanced, simple and obsolete packet blocks carry the packets;
 * everything else is skipped.  Each interface becomes one capture named
 * by its if_name (else the path). */
#include <stdlib.h>
#include <string.h>
#include "decode/capture.h"
#include "decode/filter.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/cursor.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"

#define BLOCK_MAX (16u << 20)
#define IFACES_MAX 64

enum { SHB = 0x0a0d0d0a, IDB = 1, PB = 2, SPB = 3, EPB = 6 };

struct iface {
	int linktype;
	uint32_t snaplen;
	double tsresol;
	struct pd_capture *cap;		/* NULL: skipped (--filter) */
	struct pd_capture_state *st;
	struct pd_filter flt;
};

struct walk {
	const struct pd_member *m;
	struct pd_host *h;
	struct pd_diag *d;
	struct iface ifs[IFACES_MAX];
	unsigned n_ifs;
	bool le;
};


extern const struct pd_format pd_format_pcapng;

static double
pow10i(unsigned e)
{
	double v = 1;

	while (e-- > 0)
		v *= 10;
	return v;
}

static int
bid_pcapng(const struct pd_member *m)
{
	const uint8_t *p = m->head;

	if (m->head_len < 28 || memcmp(p, "\x0a\x0d\x0d\x0a", 4) != 0)
		return 0;
	if (memcmp(p + 8, "\x1a\x2b\x3c\x4d", 4) == 0 ||
	    memcmp(p + 8, "\x4d\x3c\x2b\x1a", 4) == 0)
		return 64;
	return 0;
}

static void
close_ifaces(struct walk *w)
{
	for (unsigned i = 0; i < w->n_ifs; i++) {
		if (w->ifs[i].st) {
			pd_capture_end(w->ifs[i].st);
			pd_capture_notes(w->ifs[i].cap, w->d);
		}
		pd_filter_close(&w->ifs[i].flt);
	}
	w->n_ifs = 0;
}

/* True when the options from the cursor on end inside the block, as
 * libpcap and Wireshark require: an option that runs past its block
 * makes them reject the file. */
static bool
options_fit(struct pd_cursor c)
{
	while (pd_cursor_left(&c) >= 4) {
		uint16_t code = pd_cursor_u16(&c), len = pd_cursor_u16(&c);

		if (!pd_cursor_bytes(&c, len))
			return false;
		pd_cursor_skip(&c, (4 - len % 4) % 4);
		if (code == 0)
			break;
	}
	return true;
}

static void
bad_option(struct walk *w, const char *block)
{
	pd_diag_note(w->d, PD_WARN, "pcapng.bad-option", 0, "an option of "
	    "the %s runs past its block (libpcap and tshark reject the "
	    "file); the options after it were ignored", block);
}

static void
idb(struct walk *w, struct pd_cursor *c)
{
	struct iface *f;
	char name[64] = "", errbuf[256];

	if (w->n_ifs == IFACES_MAX) {
		pd_diag_note(w->d, PD_WARN, "pcapng.too-many-interfaces", 0,
		    "more than %d interfaces; the rest are ignored", IFACES_MAX);
		return;
	}
	f = &w->ifs[w->n_ifs];
	memset(f, 0, sizeof(*f));
	f->linktype = pd_cursor_u16(c);
	pd_cursor_skip(c, 2);
	f->snaplen = pd_cursor_u32(c);
	f->tsresol = 1e-6;
	if (!options_fit(*c))
		bad_option(w, "interface description");
	while (pd_cursor_left(c) >= 4) {
		uint16_t code = pd_cursor_u16(c), len = pd_cursor_u16(c);
		const uint8_t *v = pd_cursor_bytes(c, len);

		pd_cursor_skip(c, (4 - len % 4) % 4);
		if (!v || code == 0)
			break;
		if (code == 2 && len > 0)	/* if_name */
			snprintf(name, sizeof(name), "%.*s", (int)len, v);
		if (code == 9 && len >= 1)	/* if_tsresol */
			f->tsresol = v[0] & 0x80 ? 1.0 / (double)(1ull <<
			    (v[0] & 0x3f)) : 1.0 / pow10i(v[0] & 0x7f);
	}
	if (!name[0])
		snprintf(name, sizeof(name), "%s", pd_capture_ifname(w->m,
		    w->d, &pd_format_pcapng));
	w->n_ifs++;	/* its state comes with its first packet */
	if (!pd_filter_open(&f->flt, f->linktype, f->snaplen, errbuf,
	    sizeof(errbuf))) {
		pd_filter_skip_note(w->m, w->d, f->linktype, name, errbuf);
		return;
	}
	f->cap = pd_host_capture(w->h, w->d->arena, w->m->path, name);
	f->cap->linktype = f->linktype;
	f->cap->snaplen = f->snaplen;
	f->cap->filter = pd_filter_expr();
	f->cap->ev = (struct pd_evidence){ .member = w->m->path, .text =
	    pd_arena_printf(w->d->arena, "interface %u '%s', link type %d",
	    w->n_ifs - 1, name, f->linktype) };
}

static void
deliver(struct iface *f, uint64_t ts, const uint8_t *data, uint32_t caplen,
    uint32_t len)
{
	if (!f->cap)
		return;		/* skipped: --filter cannot apply */
	f->cap->packets_read++;
	if (!pd_filter_match(&f->flt, data, caplen, len))
		return;
	if (!f->st)
		f->st = pd_capture_begin(f->cap);
	pd_capture_packet(f->st, (double)ts * f->tsresol, f->linktype, data,
	    caplen, len);
}

static void
packet(struct walk *w, struct pd_cursor *c, uint32_t type)
{
	uint32_t iface = 0, caplen, len;
	uint64_t ts = 0;

	if (type == EPB) {
		iface = pd_cursor_u32(c);
		ts = (uint64_t)pd_cursor_u32(c) << 32;
		ts |= pd_cursor_u32(c);
		caplen = pd_cursor_u32(c);
		len = pd_cursor_u32(c);
	} else if (type == PB) {
		iface = pd_cursor_u16(c);
		pd_cursor_skip(c, 2);
		ts = (uint64_t)pd_cursor_u32(c) << 32;
		ts |= pd_cursor_u32(c);
		caplen = pd_cursor_u32(c);
		len = pd_cursor_u32(c);
	} else {
		len = pd_cursor_u32(c);
		caplen = len;
		if (w->n_ifs && w->ifs[0].snaplen && caplen > w->ifs[0].snaplen)
			caplen = w->ifs[0].snaplen;
		if (caplen > pd_cursor_left(c))
			caplen = (uint32_t)pd_cursor_left(c);
	}
	const uint8_t *data = pd_cursor_bytes(c, caplen);

	if (!data || iface >= w->n_ifs) {
		pd_diag_note(w->d, PD_WARN, "pcapng.bad-packet", 0, "a packet "
		    "block with %s was skipped", data ? "an unknown interface" :
		    "a length past its block");
		return;
	}
	deliver(&w->ifs[iface], ts, data, caplen, len);
}

static uint32_t
ld32(const uint8_t *p, bool le)
{
	return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] <<
	    16 | (uint32_t)p[3] << 24 : (uint32_t)p[3] | (uint32_t)p[2] << 8 |
	    (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

/* The common block, an enhanced packet block of a known interface, whole
 * in the window and right in every length, read straight off it; any
 * other block, or one with something wrong, is left to the general walk
 * (false), which says what.  len is the block's length when true. */
static bool
epb_fast(struct walk *w, const uint8_t *b, size_t left, uint32_t *used)
{
	if (left < 32 || ld32(b, w->le) != EPB)
		return false;
	uint32_t len = ld32(b + 4, w->le), iface = ld32(b + 8, w->le);

	if (len < 32 || len % 4 || len > BLOCK_MAX || len > left ||
	    ld32(b + len - 4, w->le) != len || iface >= w->n_ifs)
		return false;
	uint32_t caplen = ld32(b + 20, w->le);

	if (caplen > len - 32)
		return false;
	*used = len;
	deliver(&w->ifs[iface], (uint64_t)ld32(b + 12, w->le) << 32 |
	    ld32(b + 16, w->le), b + 28, caplen, ld32(b + 24, w->le));
	return true;
}

/* The section header's version and options, checked as libpcap does:
 * 1.0 (and 1.2, which some writers put) is read, anything else is a
 * format this reader does not know. */
static bool
shb(struct walk *w, struct pd_cursor *c)
{
	uint16_t major = pd_cursor_u16(c), minor = pd_cursor_u16(c);

	pd_cursor_skip(c, 8);	/* section length */
	if (!pd_cursor_ok(c) || major != 1 || (minor != 0 && minor != 2)) {
		pd_diag_note(w->d, PD_FAILED, "pcapng.version", 0, "section "
		    "header version %u.%u is not pcapng 1.0 (libpcap and "
		    "tshark reject it); the section was not read", major,
		    minor);
		return false;
	}
	if (!options_fit(*c))
		bad_option(w, "section header");
	return true;
}

/* The block at the window's cursor, whole in the window: its type, its
 * length and where its body starts (after the byte-order magic for a
 * section header, whose magic decides the order).  0 at the end of the
 * member (a cut header is no note, as before); -1 for a length no
 * block can have; 1 with the block. */
static int
block_at(struct walk *w, struct pd_window *win, uint32_t *type,
    uint32_t *len, size_t *body)
{
	struct pd_cursor c;

	if (!pd_window_fill(win, 8))
		return 0;
	const uint8_t *hdr = pd_window_at(win);

	*body = 8;
	pd_cursor_init(&c, hdr, 8, w->le);
	*type = pd_cursor_u32(&c);
	*len = pd_cursor_u32(&c);
	if (memcmp(hdr, "\x0a\x0d\x0d\x0a", 4) == 0) {
		if (!pd_window_fill(win, 12))
			return 0;
		hdr = pd_window_at(win);
		w->le = memcmp(hdr + 8, "\x4d\x3c\x2b\x1a", 4) == 0;
		pd_cursor_init(&c, hdr + 4, 4, w->le);
		*len = pd_cursor_u32(&c);
		*type = SHB;
		*body = 12;
		close_ifaces(w);
		if (*len < 28 || *len % 4 || *len > BLOCK_MAX)
			return -1;
	} else if (*len < 12 || *len % 4 || *len > BLOCK_MAX) {
		return -1;
	}
	return 1;
}

/* Blocks walked in place in the window (none copied); each one must be
 * whole, and end with its own length, or the walk stops there. */
static enum pd_status
parse_pcapng(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct walk *w = pd_xmalloc(sizeof(*w));
	enum pd_status rc = PD_OK;
	uint64_t blocks = 0;
	struct pd_window win;
	uint32_t type, len;
	size_t off;
	int got;

	memset(w, 0, sizeof(*w));
	w->m = m;
	w->h = h;
	w->d = d;
	w->le = true;
	/* reads of pd_input's block size, as the blocks were read before */
	pd_window_open(&win, in, BLOCK_MAX, PD_INPUT_BLOCK);
	for (;;) {
		struct pd_cursor c;

		if (epb_fast(w, pd_window_at(&win), pd_window_left(&win),
		    &len)) {
			win.pos += len;
			blocks++;
			continue;
		}
		if ((got = block_at(w, &win, &type, &len, &off)) == 0)
			break;

		if (got < 0) {
			pd_diag_note(d, PD_WARN, "pcapng.bad-block", 0, "block "
			    "%llu has length %u; the rest of the file was "
			    "skipped", (unsigned long long)blocks, len);
			rc = PD_WARN;
			break;
		}
		if (!pd_window_fill(&win, len)) {
			pd_diag_note(d, PD_WARN, "pcapng.truncated", 0, "capture "
			    "cut short in block %llu; the part before was "
			    "analysed", (unsigned long long)blocks);
			rc = PD_WARN;
			break;
		}
		const uint8_t *blk = pd_window_at(&win);

		win.pos += len;
		blocks++;
		/* the trailer repeats the length: libpcap stops where not */
		pd_cursor_init(&c, blk + len - 4, 4, w->le);
		if (pd_cursor_u32(&c) != len) {
			pd_diag_note(d, PD_WARN, "pcapng.bad-block", 0, "block "
			    "%llu ends with a length other than its header's "
			    "(libpcap rejects the file there); the rest of the "
			    "file was skipped", (unsigned long long)blocks);
			rc = PD_WARN;
			break;
		}
		/* the body, minus the trailer */
		pd_cursor_init(&c, blk + off, len - off - 4, w->le);
		if (type == SHB && !shb(w, &c)) {
			rc = PD_FAILED;
			break;
		}
		if (type == IDB)
			idb(w, &c);
		else if (type == EPB || type == SPB || type == PB)
			packet(w, &c, type);
	}
	for (unsigned i = 0; i < w->n_ifs; i++)
		if (w->ifs[i].cap)
			w->ifs[i].cap->truncated = rc != PD_OK;
	close_ifaces(w);
	pd_window_close(&win);
	free(w);
	return rc;
}

static const char *const hints[] = { ".pcapng", NULL };

const struct pd_format pd_format_pcapng = {
	.name = "pcapng",
	.summary = "pcapng capture, several interfaces per file, named by "
	    "their description blocks",
	.command = "dumpcap -i IF -w IF.pcapng (or tcpdump)",
	.hints = hints,
	.gives = PD_HAVE_CAPTURE,
	.collect = "tcpdump -i IF -s 128 -w IF.pcap on the interfaces in "
	    "question, at the same time",
	.bid = bid_pcapng,
	.parse = parse_pcapng,
};

/* The ISA-L inflate back end (src/base/inflate.h), built when
 * pkg-config finds libisal: the same members as zlib's, faster. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <isa-l/igzip_lib.h>
#include "pathdoctor/arena.h"
#include "inflate.h"

struct iinf {
	struct inflate_state st;
	/* isal_inflate's own header reader forgets the flags when a header
	 * spans two calls (2.30 keeps them in a local), so the header is
	 * read here with a record that lives as long as the member */
	struct isal_gzip_header gzh;
	bool hdr_done;
	unsigned hdr_seen;		/* the member's first bytes, to 4 */
	unsigned char hdr[4];
};

static void
i_reset(void *p)
{
	struct iinf *s = p;

	isal_inflate_reset(&s->st);
	s->st.crc_flag = ISAL_GZIP_NO_HDR_VER;	/* the trailer checked */
	memset(&s->gzh, 0, sizeof(s->gzh));
	isal_gzip_header_init(&s->gzh);
	s->hdr_done = false;
	s->hdr_seen = 0;
}

static void *
i_new(void)
{
	struct iinf *s = pd_xmalloc(sizeof(*s));

	memset(s, 0, sizeof(*s));
	isal_inflate_init(&s->st);
	i_reset(s);
	return s;
}

static void
i_free(void *p)
{
	free(p);
}

/* zlib judges the magic once it has byte 1 and the method and flags
 * once it has byte 3, and refuses the flags gzip reserves, which ISA-L
 * ignores: the same here, for the same notes on a cut or odd header. */
static bool
bad_start(struct iinf *s, const struct pd_inflate_io *io)
{
	for (size_t i = 0; s->hdr_seen < 4 && i < io->avail_in; i++) {
		s->hdr[s->hdr_seen++] = io->next_in[i];
		if (s->hdr_seen == 2 && (s->hdr[0] != 0x1f || s->hdr[1] != 0x8b))
			return true;
		if (s->hdr_seen == 4 && (s->hdr[2] != 8 || (s->hdr[3] & 0xe0)))
			return true;
	}
	return false;
}

static enum pd_inflate_rc
i_class(const struct iinf *s, int rc)
{
	switch (rc) {
	case ISAL_DECOMP_OK:
	case ISAL_END_INPUT:
		return s->st.block_state == ISAL_BLOCK_FINISH ?
		    PD_INFLATE_END : PD_INFLATE_OK;
	case ISAL_INVALID_WRAPPER:
	case ISAL_UNSUPPORTED_METHOD:
		return PD_INFLATE_BAD_HEADER;
	case ISAL_INCORRECT_CHECKSUM:
		/* the header's own CRC16 fails before the header is done */
		return s->hdr_done ? PD_INFLATE_BAD_CHECK :
		    PD_INFLATE_BAD_HEADER;
	default:
		return PD_INFLATE_BAD_DATA;
	}
}

/* The member's header, over as many calls as its bytes take; true once
 * it was read whole. */
static bool
read_header(struct iinf *s, int *rc)
{
	*rc = isal_read_gzip_header(&s->st, &s->gzh);
	if (*rc == ISAL_DECOMP_OK)
		s->hdr_done = true;
	return s->hdr_done;
}

static enum pd_inflate_rc
i_run(void *p, struct pd_inflate_io *io)
{
	struct iinf *s = p;
	int rc = ISAL_DECOMP_OK;

	if (!s->hdr_done && bad_start(s, io))
		return PD_INFLATE_BAD_HEADER;
	s->st.next_in = (uint8_t *)io->next_in;
	s->st.avail_in = (uint32_t)io->avail_in;
	s->st.next_out = io->next_out;
	s->st.avail_out = (uint32_t)io->avail_out;
	if (s->hdr_done || read_header(s, &rc))
		rc = isal_inflate(&s->st);
	io->next_in = s->st.next_in;
	io->avail_in = s->st.avail_in;
	io->next_out = s->st.next_out;
	io->avail_out = s->st.avail_out;
	return i_class(s, rc);
}

/* ISA-L reads ahead into a 64-bit bit buffer and does not give those
 * bytes back at the end of a member (2.30; later versions do): they
 * belong to what follows, the next member of cat a.gz b.gz.  The low
 * bits are the oldest; a partial byte is the member's own padding.  Its
 * header buffer is empty by then: reading the trailer emptied it. */
static size_t
i_held(void *p, unsigned char *out, size_t max)
{
	struct iinf *s = p;
	int bits = s->st.read_in_length > 0 ? s->st.read_in_length : 0;
	uint64_t v = s->st.read_in >> (bits % 8);
	size_t n = 0;

	for (int i = 0; i < bits / 8 && n < max; i++, v >>= 8)
		out[n++] = (unsigned char)v;
	return n;
}

const struct pd_inflate_ops pd_inflate_isal = {
	.name = "ISA-L", .new = i_new, .free = i_free, .reset = i_reset,
	.run = i_run, .held = i_held,
};

/* zstd unwrapping with libzstd's streaming decoder under a window bound.
 * A frame's header declares the window its decoder must hold (up to
 * 2 GiB with --long=31, 3.75 TiB in the format), declared, not earned;
 * each frame's header is read here before the frame is decoded, and one
 * asking for more than PD_ZSTD_WINDOW_MAX is refused with a note saying
 * how much it asked for.  Concatenated frames (zstd -T, cat a.zst b.zst)
 * and skippable frames (pzstd's, a seek table) are read through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/input.h"

#define IN_BUF (128u << 10)
#define MAX_HEADER 18		/* magic, descriptor, window, ids, size */

struct pd_unzstd {
	struct pd_source inner;
	ZSTD_DCtx *dctx;
	ZSTD_inBuffer in;
	unsigned char buf[IN_BUF];
	uint64_t in_total, out_total;
	bool inner_eof, boundary, ended, failed;
	char err[200];
};

bool
pd_is_zstd(const void *p, size_t n)
{
	const unsigned char *b = p;

	if (n < 4)
		return false;
	/* 0xFD2FB528 little-endian, or a skippable frame 0x184D2A5? */
	return (b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) ||
	    ((b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d &&
	    b[3] == 0x18);
}

struct pd_unzstd *
pd_unzstd_new(struct pd_source inner)
{
	struct pd_unzstd *z = pd_xmalloc(sizeof(*z));

	memset(z, 0, sizeof(*z));
	z->inner = inner;
	z->in.src = z->buf;
	z->boundary = true;
	z->dctx = ZSTD_createDCtx();
	/* the decoder's own check too, for a frame whose header this file
	 * did not see whole before it (one behind a skippable frame) */
	if (!z->dctx || ZSTD_isError(ZSTD_DCtx_setParameter(z->dctx,
	    ZSTD_d_windowLogMax, PD_ZSTD_WINDOW_LOG_MAX))) {
		z->failed = true;
		snprintf(z->err, sizeof(z->err), "zstd initialisation failed");
	}
	return z;
}

void
pd_unzstd_free(struct pd_unzstd *z)
{
	if (!z)
		return;
	ZSTD_freeDCtx(z->dctx);
	free(z);
}

static void
read_failed(struct pd_unzstd *z)
{
	z->failed = true;
	snprintf(z->err, sizeof(z->err), "%s",
	    z->inner.err ? z->inner.err(z->inner.ctx) : "read error");
}

/* Tops the input up to at least want bytes unread (or to the end): the
 * unread rest moves to the front first. */
static bool
top_up(struct pd_unzstd *z, size_t want)
{
	size_t left = z->in.size - z->in.pos;

	if (left >= want || z->inner_eof)
		return true;
	memmove(z->buf, z->buf + z->in.pos, left);
	z->in.pos = 0;
	z->in.size = left;
	while (z->in.size < want && !z->inner_eof) {
		ssize_t r = z->inner.read(z->inner.ctx, z->buf + z->in.size,
		    sizeof(z->buf) - z->in.size);

		if (r < 0) {
			read_failed(z);
			return false;
		}
		z->inner_eof = r == 0;
		z->in_total += (uint64_t)r;
		z->in.size += (size_t)r;
	}
	return true;
}

static void
corrupt(struct pd_unzstd *z, size_t rc)
{
	z->failed = true;
	if (ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge)
		snprintf(z->err, sizeof(z->err), "zstd frame needs a window "
		    "over the %llu MiB bound to decompress; not read",
		    (unsigned long long)(PD_ZSTD_WINDOW_MAX >> 20));
	else
		snprintf(z->err, sizeof(z->err), "zstd data corrupt after %llu "
		    "bytes out: %s", (unsigned long long)z->out_total,
		    ZSTD_getErrorName(rc));
}

/* The window a frame header (RFC 8878, 3.1.1.1) asks for, from the n
 * bytes at p: 1 with *window set (0 for a skippable frame), 0 when the
 * header is longer than n, -1 when p holds no frame magic.  Read here
 * because libzstd's own header parser is not in its stable interface. */
static int
frame_window(const unsigned char *p, size_t n, uint64_t *window)
{
	static const unsigned did_len[4] = { 0, 1, 2, 4 };
	static const unsigned fcs_len[4] = { 1, 2, 4, 8 };

	*window = 0;
	if (n < 4)
		return 0;
	if (pd_is_zstd(p, 4) && p[0] != 0x28)
		return 1;		/* skippable: nothing decoded */
	if (!pd_is_zstd(p, 4))
		return -1;
	if (n < 6)
		return 0;
	unsigned fhd = p[4];

	if (!(fhd & 0x20)) {		/* a window descriptor */
		uint64_t base = 1ull << (10 + (p[5] >> 3));

		*window = base + (base >> 3) * (p[5] & 7u);
		return 1;
	}
	/* single segment: the window is the content's size */
	size_t at = 5 + did_len[fhd & 3], len = fcs_len[fhd >> 6];

	if (n < at + len)
		return 0;
	for (size_t i = len; i-- > 0;)
		*window = *window << 8 | p[at + i];
	if (len == 2)
		*window += 256;
	return 1;
}

/* Between frames: the end of the stream, or the next frame's header,
 * whose window is checked against the bound.  False when nothing more is
 * to be decoded (ended or failed). */
static bool
frame_start(struct pd_unzstd *z)
{
	uint64_t window;

	if (!top_up(z, MAX_HEADER))
		return false;
	size_t avail = z->in.size - z->in.pos;

	if (avail == 0) {
		z->ended = true;
		return false;
	}
	int rc = frame_window(z->buf + z->in.pos, avail, &window);

	if (rc < 0) {
		z->failed = true;
		snprintf(z->err, sizeof(z->err), "zstd data corrupt after %llu "
		    "bytes out: no frame where the next was to begin",
		    (unsigned long long)z->out_total);
		return false;
	}
	if (rc == 0) {
		z->failed = true;
		snprintf(z->err, sizeof(z->err), "zstd stream truncated after "
		    "%llu bytes out (in a frame header)",
		    (unsigned long long)z->out_total);
		return false;
	}
	if (window > PD_ZSTD_WINDOW_MAX) {
		z->failed = true;
		snprintf(z->err, sizeof(z->err), "zstd frame needs a %llu MiB "
		    "window to decompress, over the %llu MiB bound; not read",
		    (unsigned long long)(window >> 20),
		    (unsigned long long)(PD_ZSTD_WINDOW_MAX >> 20));
		return false;
	}
	z->boundary = false;
	return true;
}

static ssize_t
zstd_read(void *ctx, void *buf, size_t n)
{
	struct pd_unzstd *z = ctx;
	ZSTD_outBuffer out = { buf, n, 0 };

	if (z->failed)
		return -1;
	while (out.pos < out.size && !z->ended) {
		if (z->boundary && !frame_start(z))
			break;
		if (z->in.pos == z->in.size && !top_up(z, 1))
			break;
		size_t was_in = z->in.pos, was_out = out.pos;
		size_t rc = ZSTD_decompressStream(z->dctx, &out, &z->in);

		z->out_total += out.pos - was_out;
		if (ZSTD_isError(rc)) {
			corrupt(z, rc);
			break;
		}
		if (rc == 0) {
			z->boundary = true;	/* a frame done, flushed */
		} else if (z->in.pos == was_in && out.pos == was_out &&
		    z->inner_eof) {
			z->failed = true;
			snprintf(z->err, sizeof(z->err), "zstd stream truncated "
			    "after %llu bytes out",
			    (unsigned long long)z->out_total);
			break;
		}
	}
	return out.pos > 0 || !z->failed ? (ssize_t)out.pos : -1;
}

static const char *
zstd_err(void *ctx)
{
	struct pd_unzstd *z = ctx;

	return z->err[0] ? z->err : "zstd read error";
}

struct pd_source
pd_unzstd_source(struct pd_unzstd *z)
{
	return (struct pd_source){ .read = zstd_read, .err = zstd_err,
		.ctx = z };
}

uint64_t
pd_unzstd_in(const struct pd_unzstd *z)
{
	return z->in_total - (z->in.size - z->in.pos);
}

/* Member-level and whole-bundle gzip unwrapping (capture.pcap.gz, the
 * .tgz): the framing of a gzip file, over the inflate back end the build
 * chose (src/base/inflate.h: ISA-L when found, zlib otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/input.h"
#include "inflate.h"

#define IN_SIZE 65536

enum gz_fail { GZ_OK, GZ_READ, GZ_TRUNCATED, GZ_STALLED };

struct pd_gunzip {
	struct pd_source inner;
	const struct pd_inflate_ops *ops;
	void *st;			/* the back end's; NULL if it failed */
	struct pd_inflate_io io;
	/* room before the input for what a back end held at a member's
	 * end, put back in front of the next member */
	unsigned char buf[PD_INFLATE_HELD_MAX + IN_SIZE];
	uint64_t in_total, out_total;	/* across concatenated members */
	uint64_t member_out;
	bool inner_eof, member_end, failed;
	char err[160];
};

bool
pd_is_gzip(const void *p, size_t n)
{
	const unsigned char *b = p;

	return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

struct pd_gunzip *
pd_gunzip_new_ops(struct pd_source inner, const struct pd_inflate_ops *ops)
{
	struct pd_gunzip *g = pd_xmalloc(sizeof(*g));

	memset(g, 0, sizeof(*g));
	g->inner = inner;
	g->ops = ops;
	g->st = ops->new();
	if (!g->st) {
		g->failed = true;
		snprintf(g->err, sizeof(g->err), "%s initialisation failed",
		    ops->name);
	}
	return g;
}

struct pd_gunzip *
pd_gunzip_new(struct pd_source inner)
{
#ifdef PD_HAVE_ISAL
	return pd_gunzip_new_ops(inner, &pd_inflate_isal);
#else
	return pd_gunzip_new_ops(inner, &pd_inflate_zlib);
#endif
}

void
pd_gunzip_free(struct pd_gunzip *g)
{
	if (!g)
		return;
	if (g->st)
		g->ops->free(g->st);
	free(g);
}

static bool
refill(struct pd_gunzip *g)
{
	if (g->io.avail_in > 0 || g->inner_eof)
		return true;
	unsigned char *in = g->buf + PD_INFLATE_HELD_MAX;
	ssize_t r = g->inner.read(g->inner.ctx, in, IN_SIZE);

	if (r < 0) {
		snprintf(g->err, sizeof(g->err), "%s",
		    g->inner.err ? g->inner.err(g->inner.ctx) : "read error");
		return false;
	}
	if (r == 0)
		g->inner_eof = true;
	g->in_total += (uint64_t)r;
	g->io.next_in = in;
	g->io.avail_in = (size_t)r;
	return true;
}

/* Puts what the back end held at the member's end back before the
 * input left.  There is always room: a read leaves PD_INFLATE_HELD_MAX
 * free in front, and a member takes more bytes than a back end holds
 * at its end, so the room never shrinks below that; false if it did. */
static bool
unhold(struct pd_gunzip *g)
{
	unsigned char held[PD_INFLATE_HELD_MAX];
	size_t k = g->ops->held(g->st, held, sizeof(held));
	size_t room = (size_t)(g->io.next_in - g->buf);

	if (k > room)
		return false;
	memcpy(g->buf + room - k, held, k);
	g->io.next_in = g->buf + room - k;
	g->io.avail_in += k;
	return true;
}

/* After a member: 1 when another starts (cat a.gz b.gz), 0 at the end
 * (input over, or trailing garbage, which is ignored), -1 on a read
 * error. */
static int
next_member(struct pd_gunzip *g)
{
	if (!refill(g))
		return -1;
	if (g->io.avail_in == 0 || g->io.next_in[0] != 0x1f)
		return 0;
	g->ops->reset(g->st);
	g->member_end = false;
	g->member_out = 0;
	return 1;
}

/* Inflates into io's output until something came out, the stream
 * ended, or it failed: GZ_OK, or the failure (then *rc the back end's
 * verdict when it gave one). */
static enum gz_fail
step(struct pd_gunzip *g, size_t n, enum pd_inflate_rc *rc)
{
	*rc = PD_INFLATE_OK;
	while (g->io.avail_out == n) {
		if (g->member_end) {
			int k = next_member(g);

			if (k <= 0)
				return k < 0 ? GZ_READ : GZ_OK;
		}
		if (!refill(g))
			return GZ_READ;
		size_t in0 = g->io.avail_in;

		*rc = g->ops->run(g->st, &g->io);
		if (*rc == PD_INFLATE_END) {
			g->member_end = true;
			if (!unhold(g)) {
				*rc = PD_INFLATE_FAILED;
				return GZ_OK;
			}
		} else if (*rc != PD_INFLATE_OK) {
			return GZ_OK;
		} else if (g->io.avail_out == n && g->io.avail_in == in0) {
			/* nothing taken, nothing made: out of input, or a
			 * back end that will not go on */
			if (in0 == 0 && g->inner_eof)
				return GZ_TRUNCATED;
			if (in0 > 0)
				return GZ_STALLED;
		}
	}
	return GZ_OK;
}

static const char *
verdict(enum pd_inflate_rc rc)
{
	switch (rc) {
	case PD_INFLATE_BAD_HEADER:
		return "gzip data corrupt: a member's header is not gzip's";
	case PD_INFLATE_BAD_CHECK:
		return "gzip data corrupt: CRC or length in a member's trailer "
		    "does not match";
	case PD_INFLATE_FAILED:
		return "gzip decoder failed";
	default:
		return "gzip data corrupt: invalid deflate data";
	}
}

static ssize_t
gz_read(void *ctx, void *buf, size_t n)
{
	struct pd_gunzip *g = ctx;
	enum pd_inflate_rc rc;

	if (g->failed)
		return -1;
	if (n > (1u << 30))
		n = 1u << 30;
	g->io.next_out = buf;
	g->io.avail_out = n;
	enum gz_fail f = step(g, n, &rc);
	size_t got = n - g->io.avail_out;

	g->out_total += got;
	g->member_out += got;
	if (f == GZ_TRUNCATED)
		snprintf(g->err, sizeof(g->err),
		    "gzip stream truncated after %lu bytes out",
		    (unsigned long)g->member_out);
	else if (f == GZ_STALLED || (f == GZ_OK && rc != PD_INFLATE_OK &&
	    rc != PD_INFLATE_END))
		snprintf(g->err, sizeof(g->err), "%s", verdict(rc));
	else if (f == GZ_OK)
		return (ssize_t)got;
	g->failed = true;
	return got > 0 ? (ssize_t)got : -1;
}

uint64_t
pd_gunzip_in(const struct pd_gunzip *g)
{
	return g->in_total - g->io.avail_in;
}

uint64_t
pd_gunzip_out(const struct pd_gunzip *g)
{
	return g->out_total;
}

static const char *
gz_err(void *ctx)
{
	struct pd_gunzip *g = ctx;

	return g->err[0] ? g->err : "gzip read error";
}

struct pd_source
pd_gunzip_source(struct pd_gunzip *g)
{
	return (struct pd_source){ .read = gz_read, .err = gz_err, .ctx = g };
}

/* Decompression of perf record -z's records (see perf_zstd.h): one
 * zstd decompression stream for the file, as perf keeps one for its
 * session, into a buffer that carries a cut record over to the next
 * compressed record. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "decode/perf_zstd.h"
#include "pathdoctor/arena.h"

#define BUF_SIZE (1u << 20)	/* > the largest record, 64 KiB */

struct pd_perf_unz {
	ZSTD_DStream *ds;
	bool le;
	unsigned char *buf;
	size_t used;			/* bytes in buf not handed over */
	uint64_t total;
};

struct pd_perf_unz *
pd_perf_unz_new(bool le)
{
	struct pd_perf_unz *z = pd_xmalloc(sizeof(*z));

	memset(z, 0, sizeof(*z));
	z->le = le;
	z->buf = pd_xmalloc(BUF_SIZE);
	z->ds = ZSTD_createDStream();
	if (!z->ds || ZSTD_isError(ZSTD_initDStream(z->ds))) {
		pd_perf_unz_free(z);
		return NULL;
	}
	return z;
}

void
pd_perf_unz_free(struct pd_perf_unz *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->buf);
	free(z);
}

static unsigned
u16_at(const struct pd_perf_unz *z, const unsigned char *p)
{
	return z->le ? (unsigned)p[0] | (unsigned)p[1] << 8 :
	    (unsigned)p[0] << 8 | p[1];
}

static uint32_t
u32_at(const struct pd_perf_unz *z, const unsigned char *p)
{
	return z->le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 :
	    (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* Hands over the whole records at the start of buf, keeps the rest;
 * false on a record size below its header. */
static bool
drain(struct pd_perf_unz *z, pd_perf_unz_fn *fn, void *ctx)
{
	size_t off = 0;

	while (z->used - off >= 8) {
		const unsigned char *h = z->buf + off;
		unsigned size = u16_at(z, h + 6);

		if (size < 8)
			return false;
		if (size > z->used - off)
			break;
		fn(ctx, u32_at(z, h), (uint16_t)u16_at(z, h + 4), h + 8,
		    size - 8u);
		off += size;
	}
	memmove(z->buf, z->buf + off, z->used - off);
	z->used -= off;
	return true;
}

bool
pd_perf_unz_feed(struct pd_perf_unz *z, const unsigned char *src,
    size_t n, pd_perf_unz_fn *fn, void *ctx, const char **why)
{
	ZSTD_inBuffer in = { src, n, 0 };

	/* a record is at most 64 KiB, so after drain() the buffer has room
	 * and each pass makes progress until zstd has nothing left */
	for (;;) {
		ZSTD_outBuffer out = { z->buf, BUF_SIZE, z->used };
		size_t in_before = in.pos;
		size_t rc = ZSTD_decompressStream(z->ds, &out, &in);

		if (ZSTD_isError(rc)) {
			*why = ZSTD_getErrorName(rc);
			return false;
		}
		bool full = out.pos == out.size;
		size_t produced = out.pos - z->used;

		z->total += produced;
		z->used = out.pos;
		if (z->total > PD_PERF_UNZ_MAX) {
			*why = "more than 16 GiB decompressed";
			return false;
		}
		if (!drain(z, fn, ctx)) {
			*why = "a decompressed record's size is below 8";
			return false;
		}
		if (in.pos == in.size && !full)
			return true;	/* all input read, all output out */
		if (in.pos == in_before && !produced) {
			*why = "the zstd stream makes no progress";
			return false;
		}
	}
}

uint64_t
pd_perf_unz_total(const struct pd_perf_unz *z)
{
	return z->total;
}

size_t
pd_perf_unz_pending(const struct pd_perf_unz *z)
{
	return z->used;
}

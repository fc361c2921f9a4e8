/* xz unwrapping with liblzma under a memory bound.  libarchive's own xz
 * filter lets a stream's header ask for up to 1 GiB (a dictionary size
 * declared, not earned), so a bundle's or a member's xz comes through
 * here instead, and a stream asking for more than the bound is refused
 * with a note saying how much it asked for. */
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/input.h"

struct pd_unxz {
	struct pd_source inner;
	lzma_stream zs;
	unsigned char in[65536];
	uint64_t in_total;
	bool inner_eof, ended, failed;
	char err[200];
};

bool
pd_is_xz(const void *p, size_t n)
{
	static const unsigned char magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

	return n >= sizeof(magic) && memcmp(p, magic, sizeof(magic)) == 0;
}

struct pd_unxz *
pd_unxz_new(struct pd_source inner)
{
	struct pd_unxz *x = pd_xmalloc(sizeof(*x));
	lzma_stream init = LZMA_STREAM_INIT;

	memset(x, 0, sizeof(*x));
	x->inner = inner;
	x->zs = init;
	/* concatenated: xz -T and cat a.xz b.xz make several streams */
	if (lzma_stream_decoder(&x->zs, PD_XZ_MEMLIMIT, LZMA_CONCATENATED) !=
	    LZMA_OK) {
		x->failed = true;
		snprintf(x->err, sizeof(x->err), "xz initialisation failed");
	}
	return x;
}

void
pd_unxz_free(struct pd_unxz *x)
{
	if (!x)
		return;
	lzma_end(&x->zs);
	free(x);
}

static bool
refill(struct pd_unxz *x)
{
	if (x->zs.avail_in > 0 || x->inner_eof)
		return true;
	ssize_t r = x->inner.read(x->inner.ctx, x->in, sizeof(x->in));

	if (r < 0) {
		x->failed = true;
		snprintf(x->err, sizeof(x->err), "%s",
		    x->inner.err ? x->inner.err(x->inner.ctx) : "read error");
		return false;
	}
	if (r == 0)
		x->inner_eof = true;
	x->in_total += (uint64_t)r;
	x->zs.next_in = x->in;
	x->zs.avail_in = (size_t)r;
	return true;
}

static void
failed(struct pd_unxz *x, lzma_ret rc)
{
	x->failed = true;
	if (rc == LZMA_MEMLIMIT_ERROR)
		snprintf(x->err, sizeof(x->err), "xz stream needs %llu MiB to "
		    "decompress (its dictionary), over the %llu MiB bound; "
		    "not read", (unsigned long long)(lzma_memusage(&x->zs) >>
		    20), (unsigned long long)(PD_XZ_MEMLIMIT >> 20));
	else if (rc == LZMA_BUF_ERROR)
		snprintf(x->err, sizeof(x->err), "xz stream truncated after "
		    "%llu bytes out", (unsigned long long)x->zs.total_out);
	else
		snprintf(x->err, sizeof(x->err), "xz data corrupt (liblzma "
		    "error %d)", (int)rc);
}

static ssize_t
xz_read(void *ctx, void *buf, size_t n)
{
	struct pd_unxz *x = ctx;

	if (x->failed)
		return -1;
	if (x->ended)
		return 0;
	x->zs.next_out = buf;
	x->zs.avail_out = n;
	while (x->zs.avail_out == n) {
		if (!refill(x))
			return -1;
		lzma_ret rc = lzma_code(&x->zs, x->inner_eof ? LZMA_FINISH :
		    LZMA_RUN);

		if (rc == LZMA_STREAM_END) {
			x->ended = true;
			break;
		}
		if (rc != LZMA_OK) {
			failed(x, rc);
			break;
		}
	}
	size_t got = n - x->zs.avail_out;

	return got > 0 || !x->failed ? (ssize_t)got : -1;
}

static const char *
xz_err(void *ctx)
{
	struct pd_unxz *x = ctx;

	return x->err[0] ? x->err : "xz read error";
}

struct pd_source
pd_unxz_source(struct pd_unxz *x)
{
	return (struct pd_source){ .read = xz_read, .err = xz_err, .ctx = x };
}

uint64_t
pd_unxz_in(const struct pd_unxz *x)
{
	return x->in_total - x->zs.avail_in;
}

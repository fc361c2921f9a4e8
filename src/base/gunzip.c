/* Member-level gzip unwrapping with zlib (capture.pcap.gz, lspci.txt.gz). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/input.h"

struct pd_gunzip {
	struct pd_source inner;
	z_stream zs;
	unsigned char in[65536];
	uint64_t in_total, out_total;	/* across concatenated members */
	bool inner_eof, stream_end, failed;
	char err[160];
};

bool
pd_is_gzip(const void *p, size_t n)
{
	const unsigned char *b = p;

	return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

struct pd_gunzip *
pd_gunzip_new(struct pd_source inner)
{
	struct pd_gunzip *g = pd_xmalloc(sizeof(*g));

	memset(g, 0, sizeof(*g));
	g->inner = inner;
	if (inflateInit2(&g->zs, 15 + 32) != Z_OK) {	/* gzip or zlib */
		g->failed = true;
		snprintf(g->err, sizeof(g->err), "zlib initialisation failed");
	}
	return g;
}

void
pd_gunzip_free(struct pd_gunzip *g)
{
	if (!g)
		return;
	inflateEnd(&g->zs);
	free(g);
}

static bool
refill(struct pd_gunzip *g)
{
	if (g->zs.avail_in > 0 || g->inner_eof)
		return true;
	ssize_t r = g->inner.read(g->inner.ctx, g->in, sizeof(g->in));

	if (r < 0) {
		g->failed = true;
		snprintf(g->err, sizeof(g->err), "%s",
		    g->inner.err ? g->inner.err(g->inner.ctx) : "read error");
		return false;
	}
	if (r == 0)
		g->inner_eof = true;
	g->in_total += (uint64_t)r;
	g->zs.next_in = g->in;
	g->zs.avail_in = (uInt)r;
	return true;
}

static ssize_t
gz_read(void *ctx, void *buf, size_t n)
{
	struct pd_gunzip *g = ctx;

	if (g->failed)
		return -1;
	if (n > (1u << 30))
		n = 1u << 30;
	g->zs.next_out = buf;
	g->zs.avail_out = (uInt)n;
	while (g->zs.avail_out == n) {
		if (g->stream_end) {
			/* Another gzip member may follow (cat a.gz b.gz). */
			if (!refill(g))
				return -1;
			if (g->zs.avail_in == 0 && g->inner_eof)
				return 0;
			if (g->zs.next_in[0] != 0x1f) {
				return 0;	/* trailing garbage: ignored */
			}
			inflateReset(&g->zs);
			g->stream_end = false;
		}
		if (!refill(g))
			return -1;
		if (g->zs.avail_in == 0 && g->inner_eof) {
			g->failed = true;
			snprintf(g->err, sizeof(g->err),
			    "gzip stream truncated after %lu bytes out",
			    (unsigned long)g->zs.total_out);
			g->out_total += n - g->zs.avail_out;
			return n - g->zs.avail_out > 0 ?
			    (ssize_t)(n - g->zs.avail_out) : -1;
		}
		int rc = inflate(&g->zs, Z_NO_FLUSH);

		if (rc == Z_STREAM_END) {
			g->stream_end = true;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			g->failed = true;
			snprintf(g->err, sizeof(g->err), "gzip data corrupt: %s",
			    g->zs.msg ? g->zs.msg : "inflate error");
			g->out_total += n - g->zs.avail_out;
			return n - g->zs.avail_out > 0 ?
			    (ssize_t)(n - g->zs.avail_out) : -1;
		}
	}
	g->out_total += n - g->zs.avail_out;
	return (ssize_t)(n - g->zs.avail_out);
}

uint64_t
pd_gunzip_in(const struct pd_gunzip *g)
{
	return g->in_total - g->zs.avail_in;
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

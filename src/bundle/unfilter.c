/* libarchive's filters on a second handle, its raw format handing out
 * the decompressed stream in blocks that are copied to the reader's
 * buffer (the walker's handle takes them from the readahead's ring). */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/unfilter.h"
#include "pathdoctor/arena.h"

struct pd_unfilter {
	struct pd_source inner;
	struct archive *a;
	bool opened, ended, failed;
	const unsigned char *p;		/* libarchive's block, not yet copied */
	size_t left;
	unsigned char in[65536];
	char err[256];
};

struct pd_unfilter *
pd_unfilter_new(struct pd_source inner)
{
	struct pd_unfilter *u = pd_xmalloc(sizeof(*u));

	memset(u, 0, sizeof(*u));
	u->inner = inner;
	return u;
}

void
pd_unfilter_free(struct pd_unfilter *u)
{
	if (!u)
		return;
	if (u->a)
		archive_read_free(u->a);
	free(u);
}

static la_ssize_t
inner_read(struct archive *a, void *ctx, const void **out)
{
	struct pd_unfilter *u = ctx;
	ssize_t r = u->inner.read(u->inner.ctx, u->in, sizeof(u->in));

	if (r < 0) {
		archive_set_error(a, EIO, "%s", u->inner.err ?
		    u->inner.err(u->inner.ctx) : "read error");
		return -1;
	}
	*out = u->in;
	return r;
}

static void
failed(struct pd_unfilter *u)
{
	const char *e = archive_error_string(u->a);

	u->failed = true;
	snprintf(u->err, sizeof(u->err), "%s", e ? e : "decompression failed");
}

static bool
open_filters(struct pd_unfilter *u)
{
	struct archive_entry *e;

	u->opened = true;
	u->a = archive_read_new();
	if (!u->a) {
		u->failed = true;
		snprintf(u->err, sizeof(u->err), "libarchive: out of memory");
		return false;
	}
	archive_read_support_filter_all(u->a);
	/* empty: a compressed stream of nothing is an empty bundle, as the
	 * walker's handle would have said */
	archive_read_support_format_empty(u->a);
	archive_read_support_format_raw(u->a);
	if (archive_read_open(u->a, u, NULL, inner_read, NULL) != ARCHIVE_OK) {
		failed(u);
		return false;
	}
	int rc = archive_read_next_header(u->a, &e);

	if (rc == ARCHIVE_EOF)
		u->ended = true;
	else if (rc < ARCHIVE_WARN)
		failed(u);
	return !u->failed;
}

static ssize_t
unfilter_read(void *ctx, void *buf, size_t n)
{
	struct pd_unfilter *u = ctx;
	size_t got = 0;

	if (u->failed || (!u->opened && !open_filters(u)))
		return -1;
	while (got < n && !u->ended) {
		if (u->left == 0) {
			const void *p;
			size_t len;
			la_int64_t off;
			int rc = archive_read_data_block(u->a, &p, &len, &off);

			if (rc == ARCHIVE_EOF) {
				u->ended = true;
				break;
			}
			if (rc < ARCHIVE_WARN) {
				failed(u);
				break;
			}
			u->p = p;
			u->left = len;
			continue;
		}
		size_t k = n - got < u->left ? n - got : u->left;

		memcpy((unsigned char *)buf + got, u->p, k);
		u->p += k;
		u->left -= k;
		got += k;
	}
	return got > 0 || !u->failed ? (ssize_t)got : -1;
}

static const char *
unfilter_err(void *ctx)
{
	struct pd_unfilter *u = ctx;

	return u->err[0] ? u->err : "decompression failed";
}

struct pd_source
pd_unfilter_source(struct pd_unfilter *u)
{
	return (struct pd_source){ .read = unfilter_read, .err = unfilter_err,
		.ctx = u };
}

uint64_t
pd_unfilter_in(const struct pd_unfilter *u)
{
	la_int64_t n = u->a ? archive_filter_bytes(u->a, -1) : 0;

	return n > 0 ? (uint64_t)n : 0;
}

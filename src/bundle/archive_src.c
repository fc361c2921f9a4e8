/* See archive_src.h. */
#include <archive.h>
#include <errno.h>
#include <string.h>
#include "bundle/archive_src.h"

/* The next block when the last is used up: 1, 0 at the end, -1 on an
 * error (archive_error_string says it). */
static int
next_block(struct pd_archive_src *s)
{
	const void *p;

	if (s->block_at != s->out_at || s->left)
		return 1;
	int r = archive_read_data_block(s->a, &p, &s->left, &s->block_at);

	s->block = p;
	if (r == ARCHIVE_EOF) {
		s->left = 0;
		return 0;
	}
	return r < ARCHIVE_OK ? -1 : 1;
}

static ssize_t
archive_src_read(void *ctx, void *buf, size_t n)
{
	struct pd_archive_src *s = ctx;
	unsigned char *dest = buf;
	size_t done = 0;

	while (done < n) {
		int r = next_block(s);

		if (r <= 0)
			return r < 0 ? -1 : (ssize_t)done;
		if (s->block_at < s->out_at) {
			archive_set_error(s->a, EINVAL,
			    "Encountered out-of-order sparse blocks");
			return -1;
		}
		/* a hole before the block reads as zeros */
		size_t hole = s->block_at - s->out_at > (int64_t)(n - done) ?
		    n - done : (size_t)(s->block_at - s->out_at);

		memset(dest + done, 0, hole);
		done += hole;
		s->out_at += (int64_t)hole;
		size_t k = s->left < n - done ? s->left : n - done;

		if (k) {
			memcpy(dest + done, s->block, k);
			done += k;
			s->block += k;
			s->left -= k;
			s->out_at += (int64_t)k;
			s->block_at += (int64_t)k;
		}
	}
	return (ssize_t)done;
}

static ssize_t
archive_src_view(void *ctx, size_t n, const unsigned char **p)
{
	struct pd_archive_src *s = ctx;
	int r = next_block(s);

	if (r < 0)
		return -1;
	if (r == 0)
		return 0;
	if (s->block_at != s->out_at || s->left < n)
		return PD_INPUT_NO_VIEW;
	*p = s->block;
	s->block += n;
	s->left -= n;
	s->out_at += (int64_t)n;
	s->block_at += (int64_t)n;
	return (ssize_t)n;
}

static const char *
archive_src_err(void *ctx)
{
	const struct pd_archive_src *s = ctx;
	const char *e = archive_error_string(s->a);

	return e ? e : "archive read error";
}

struct pd_source
pd_archive_source(struct pd_archive_src *s, struct archive *a)
{
	memset(s, 0, sizeof(*s));
	s->a = a;
	return (struct pd_source){ archive_src_read, archive_src_err, s,
	    archive_src_view, NULL };
}

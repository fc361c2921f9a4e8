/* pd_window over a source that hands its reads out in place (a view)
 * against the same source without one: the same records, the same
 * skips, the same bytes left where a read fails or the member ends,
 * for blocks of every size around the window's read size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/input.h"

/* A member handed out in blocks of `block` bytes, as an archive's
 * blocks are: a read copies across them, a view only within one.  A
 * read or view reaching byte fail_at fails, and loses its bytes. */
struct blocks {
	const unsigned char *p;
	size_t len, pos, block, fail_at;
	unsigned views, copies;
};

static size_t
in_block(const struct blocks *b)
{
	return b->block - b->pos % b->block;
}

static ssize_t
blocks_read(void *ctx, void *buf, size_t n)
{
	struct blocks *b = ctx;
	size_t k = b->len - b->pos < n ? b->len - b->pos : n;

	if (b->fail_at < b->len && b->pos + k > b->fail_at)
		return -1;
	memcpy(buf, b->p + b->pos, k);
	b->pos += k;
	b->copies++;
	return (ssize_t)k;
}

static ssize_t
blocks_view(void *ctx, size_t n, const unsigned char **p)
{
	struct blocks *b = ctx;

	if (b->pos == b->len)
		return 0;
	if (in_block(b) < n || b->len - b->pos < n)
		return PD_INPUT_NO_VIEW;
	if (b->fail_at < b->len && b->pos + n > b->fail_at)
		return -1;
	*p = b->p + b->pos;
	b->pos += n;
	b->views++;
	return (ssize_t)n;
}

static const char *
blocks_err(void *ctx)
{
	(void)ctx;
	return "the block failed";
}

static unsigned
sum(const unsigned char *p, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Records of a 2-byte length and that many bytes; every third one is
 * passed over with pd_window_skip.  What was walked, as text: each
 * record's length and a hash of its bytes, then how it ended. */
static void
walk(struct blocks *b, bool view, size_t read_size, char *out, size_t cap)
{
	struct pd_input in;
	struct pd_window w;
	size_t at = 0;
	unsigned k = 0;
	uint64_t skipped;

	pd_input_init(&in, (struct pd_source){ blocks_read, blocks_err, b,
	    view ? blocks_view : NULL, NULL }, NULL, 0, 4096, NULL);
	pd_window_open(&w, &in, 70000, read_size);
	for (;; k++) {
		if (!pd_window_fill(&w, 2))
			break;
		const unsigned char *h = pd_window_at(&w);
		size_t n = (size_t)(h[0] | h[1] << 8);

		w.pos += 2;
		if (k % 3 == 2) {
			if (!pd_window_skip(&w, n, &skipped))
				break;
			at += (size_t)snprintf(out + at, cap - at, "s%zu ", n);
			continue;
		}
		if (!pd_window_fill(&w, n))
			break;
		at += (size_t)snprintf(out + at, cap - at, "%zu:%x ", n,
		    sum(pd_window_at(&w), n));
		w.pos += n;
	}
	snprintf(out + at, cap - at, "| left %zu%s", pd_window_left(&w),
	    in.failed ? " failed" : "");
	pd_window_close(&w);
	pd_input_release(&in);
}

static void
test_views_give_what_reads_give(void **state)
{
	(void)state;
	enum { LEN = 300000 };
	unsigned char *data = malloc(LEN);
	size_t at = 0;
	unsigned seed = 7;

	/* lengths from 0 to over the read size, and a few long ones */
	while (at + 2 < LEN) {
		seed = seed * 1103515245u + 12345u;
		size_t n = seed % 97 == 0 ? 20000 + seed % 9000 : seed % 300;

		if (at + 2 + n > LEN)
			n = LEN - at - 2;
		data[at] = (unsigned char)n;
		data[at + 1] = (unsigned char)(n >> 8);
		for (size_t i = 0; i < n; i++)
			data[at + 2 + i] = (unsigned char)(at + i);
		at += 2 + n;
	}
	static const size_t reads[] = { 64, 8192, 65536 };
	static const size_t block_sizes[] = { 1, 7, 64, 100, 8192, 8193,
	    65536, 1 << 20 };
	static const size_t fails[] = { LEN, 5000, 123457, LEN - 3 };
	char *a = malloc(1 << 20), *b = malloc(1 << 20);
	unsigned views = 0;

	for (size_t r = 0; r < sizeof(reads) / sizeof(*reads); r++)
		for (size_t k = 0; k < sizeof(block_sizes) / sizeof(*block_sizes);
		    k++)
			for (size_t f = 0; f < sizeof(fails) / sizeof(*fails);
			    f++) {
				struct blocks x = { data, at, 0,
					block_sizes[k], fails[f], 0, 0 };
				struct blocks y = x;

				walk(&x, false, reads[r], a, 1 << 20);
				walk(&y, true, reads[r], b, 1 << 20);
				if (strcmp(a, b) != 0)
					fail_msg("read %zu, blocks of %zu, "
					    "failing at %zu: %.80s... != "
					    "%.80s...", reads[r], block_sizes[k],
					    fails[f], a, b);
				assert_int_equal(x.pos, y.pos);
				views += y.views;
				/* reads under 4 KiB go through pd_input's
				 * block, never viewed */
				if (reads[r] == 8192 && block_sizes[k] >= 65536 &&
				    fails[f] == LEN)
					assert_true(y.views > 0);
				if (reads[r] == 64)
					assert_int_equal(y.views, 0);
			}
	/* the walk was in place: with large blocks few reads were copies */
	assert_true(views > 100);
	free(a);
	free(b);
	free(data);
}

int
test_group_window(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_views_give_what_reads_give),
	};

	return cmocka_run_group_tests_name("window", tests, NULL, NULL);
}

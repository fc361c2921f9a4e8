/* pd_input line reading, head replay, gunzip, unzstd, and the text
 * helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "helpers.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/input.h"
#include "pathdoctor/text.h"

static void
test_lines_with_head_replay(void **state)
{
	const char *text = "first\r\nsecond\n\nlast without newline";
	struct pd_memsrc ms;
	struct pd_input in;
	const char *line;
	size_t len;
	size_t head = 9;	/* the head ends inside "second" */

	(void)state;
	pd_input_init(&in, pd_memsrc(&ms, text + head, strlen(text) - head),
	    (const unsigned char *)text, head, 64, NULL);
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_string_equal(line, "first");	/* CR dropped */
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_string_equal(line, "second");
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_int_equal(len, 0);
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_string_equal(line, "last without newline");
	assert_int_equal(in.line_no, 4);
	assert_int_equal(pd_input_getline(&in, &line, &len), 0);
	assert_int_equal(in.consumed, strlen(text));
	pd_input_release(&in);
}

/* Records taken in place while the block holds them, read (copied)
 * where one crosses its end, the bytes and the count the same as by
 * pd_input_read alone. */
static void
test_take_in_place_and_across_blocks(void **state)
{
	size_t total = PD_INPUT_BLOCK * 3 + 100;
	unsigned char *data = malloc(total), rec[64];
	struct pd_memsrc ms;
	struct pd_input in;
	size_t pos = 0, in_place = 0, copied = 0;

	(void)state;
	for (size_t i = 0; i < total; i++)
		data[i] = (unsigned char)(i * 7 + i / 251);
	pd_input_init(&in, pd_memsrc(&ms, data + 10, total - 10), data, 10, 64,
	    NULL);
	/* nothing in the block yet (the head is replayed by reads) */
	assert_null(pd_input_take(&in, 1));
	while (pos < total) {
		size_t n = 1 + pos % 61;

		if (n > total - pos)
			n = total - pos;
		const unsigned char *p = pd_input_take(&in, n);

		if (p) {
			in_place++;
		} else {
			size_t got = 0;

			while (got < n) {
				ssize_t k = pd_input_read(&in, rec + got,
				    n - got);

				assert_true(k > 0);
				got += (size_t)k;
			}
			p = rec;
			copied++;
		}
		assert_memory_equal(p, data + pos, n);
		pos += n;
		assert_int_equal(in.consumed, pos);
	}
	assert_null(pd_input_take(&in, 1));
	assert_int_equal(pd_input_read(&in, rec, 1), 0);
	assert_true(in_place > copied * 10);
	assert_true(copied >= 3);
	pd_input_release(&in);
	free(data);
}

/* Lines of 0 to 96 bytes, some ending in CR, over three blocks: the
 * same lines whether in a block or across the end of one. */
static void
test_lines_across_blocks(void **state)
{
	size_t cap = PD_INPUT_BLOCK * 3, n = 0, lines = 0;
	char *text = malloc(cap);
	struct pd_memsrc ms;
	struct pd_input in;
	const char *line;
	size_t len;

	(void)state;
	while (n + 100 < cap) {
		size_t k = lines % 97;

		for (size_t i = 0; i < k; i++)
			text[n++] = (char)('a' + (lines + i) % 26);
		if (lines % 5 == 0)
			text[n++] = '\r';
		text[n++] = '\n';
		lines++;
	}
	pd_input_init(&in, pd_memsrc(&ms, text, n), NULL, 0, 200, NULL);
	for (size_t l = 0; l < lines; l++) {
		assert_int_equal(pd_input_getline(&in, &line, &len), 1);
		assert_int_equal(len, l % 97);
		assert_int_equal(line[len], '\0');
		for (size_t i = 0; i < len; i++)
			assert_int_equal(line[i], 'a' + (l + i) % 26);
	}
	assert_int_equal(pd_input_getline(&in, &line, &len), 0);
	assert_int_equal(in.line_no, lines);
	assert_int_equal(in.consumed, n);
	pd_input_release(&in);
	free(text);
}

static void
test_long_line_is_skipped_and_noted(void **state)
{
	struct pd_arena *a = pd_arena_new();
	struct pd_diag d;
	char text[300];
	struct pd_memsrc ms;
	struct pd_input in;
	const char *line;
	size_t len;

	(void)state;
	memset(text, 'y', sizeof(text));
	memcpy(text, "ok\n", 3);
	text[250] = '\n';
	memcpy(text + 251, "after\n", 6);
	pd_diag_init(&d, a, "m");
	pd_input_init(&in, pd_memsrc(&ms, text, 257), NULL, 0, 100, &d);
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_string_equal(line, "ok");
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_string_equal(line, "after");
	assert_int_equal(in.line_no, 3);
	assert_non_null(d.notes);
	assert_string_equal(d.notes->id, "input.line-too-long");
	assert_int_equal(d.notes->line, 2);
	pd_input_release(&in);
	pd_arena_free(a);
}

static void
test_slurp_cap(void **state)
{
	static char big[200000];
	struct pd_memsrc ms;
	struct pd_input in;
	unsigned char *buf;
	size_t len;

	(void)state;
	memset(big, 'z', sizeof(big));
	pd_input_init(&in, pd_memsrc(&ms, big, sizeof(big)), NULL, 0, 64, NULL);
	assert_int_equal(pd_input_slurp(&in, sizeof(big), &buf, &len), 0);
	assert_int_equal(len, sizeof(big));
	free(buf);
	pd_input_init(&in, pd_memsrc(&ms, big, sizeof(big)), NULL, 0, 64, NULL);
	assert_int_equal(pd_input_slurp(&in, 1000, &buf, &len), -1);
	assert_non_null(strstr(in.errmsg, "spool cap"));
}

static size_t
gz(const char *s, unsigned char *out, size_t cap)
{
	z_stream zs = { 0 };

	deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (Bytef *)s;
	zs.avail_in = (uInt)strlen(s);
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	deflate(&zs, Z_FINISH);
	deflateEnd(&zs);
	return zs.total_out;
}

static void
test_gunzip_concatenated_and_truncated(void **state)
{
	unsigned char buf[512], out[256];
	size_t n = gz("hello ", buf, sizeof(buf));
	struct pd_memsrc ms;

	(void)state;
	n += gz("world\n", buf + n, sizeof(buf) - n);
	struct pd_gunzip *g = pd_gunzip_new(pd_memsrc(&ms, buf, n));
	struct pd_source s = pd_gunzip_source(g);
	size_t got = 0;
	ssize_t r;

	while ((r = s.read(s.ctx, out + got, sizeof(out) - got)) > 0)
		got += (size_t)r;
	assert_int_equal(r, 0);
	assert_int_equal(got, 12);
	assert_memory_equal(out, "hello world\n", 12);
	pd_gunzip_free(g);

	g = pd_gunzip_new(pd_memsrc(&ms, buf, 10));	/* cut short */
	s = pd_gunzip_source(g);
	while ((r = s.read(s.ctx, out, sizeof(out))) > 0)
		;
	assert_int_equal(r, -1);
	assert_non_null(strstr(s.err(s.ctx), "truncated"));
	pd_gunzip_free(g);
}

/* A zstd frame of n bytes at src, with its content size (and so a single
 * segment) or without it (and so a window descriptor at byte 5). */
static size_t
zst(const void *src, size_t n, bool sized, unsigned char *dst, size_t cap)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t r;

	ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, sized);
	if (!sized) {
		/* streamed, so that the size is not known up front */
		ZSTD_inBuffer in = { src, n, 0 };
		ZSTD_outBuffer out = { dst, cap, 0 };

		r = ZSTD_compressStream2(c, &out, &in, ZSTD_e_end);
		r = ZSTD_isError(r) || r != 0 ? 0 : out.pos;
	} else {
		r = ZSTD_compress2(c, dst, cap, src, n);
	}
	ZSTD_freeCCtx(c);
	assert_false(ZSTD_isError(r));
	assert_true(r > 0);
	return r;
}

/* Everything s gives into out (cap bytes); *rc the last read's return. */
static size_t
drain_src(struct pd_source s, unsigned char *out, size_t cap, ssize_t *rc)
{
	size_t got = 0;

	while ((*rc = s.read(s.ctx, out + got, cap - got)) > 0)
		got += (size_t)*rc;
	return got;
}

static void
test_unzstd_frames_cut_and_window(void **state)
{
	size_t text_len = 0, cap = 1u << 20;
	char *text = malloc(cap);
	unsigned char *buf = malloc(cap), *out = malloc(cap);
	static const unsigned char skip[] = { 0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0,
		0, 'a', 'b', 'c' };
	struct pd_memsrc ms;
	ssize_t rc;

	(void)state;
	for (unsigned i = 0; text_len < 300000; i++)
		text_len += (size_t)snprintf(text + text_len, cap - text_len,
		    "line %u of a member %u\n", i, i * 2654435761u);
	/* a skippable frame, a sized frame, another skippable, a streamed */
	size_t n = sizeof(skip), a_len = 1000;

	memcpy(buf, skip, sizeof(skip));
	n += zst(text, a_len, true, buf + n, cap - n);
	memcpy(buf + n, skip, sizeof(skip));
	n += sizeof(skip);
	size_t b_at = n;

	n += zst(text + a_len, text_len - a_len, false, buf + n, cap - n);
	assert_true(pd_is_zstd(buf, n));
	struct pd_unzstd *z = pd_unzstd_new(pd_memsrc(&ms, buf, n));
	size_t got = drain_src(pd_unzstd_source(z), out, cap, &rc);

	assert_int_equal(rc, 0);
	assert_int_equal(got, text_len);
	assert_memory_equal(out, text, text_len);
	assert_int_equal(pd_unzstd_in(z), n);
	pd_unzstd_free(z);

	/* cut in the second frame: the first and part of the second, then
	 * the error */
	z = pd_unzstd_new(pd_memsrc(&ms, buf, b_at + (n - b_at) / 2));
	got = drain_src(pd_unzstd_source(z), out, cap, &rc);
	assert_int_equal(rc, -1);
	assert_true(got > a_len && got < text_len);
	assert_memory_equal(out, text, got);
	assert_non_null(strstr(pd_unzstd_source(z).err(z),
	    "zstd stream truncated"));
	pd_unzstd_free(z);

	/* the second frame's window descriptor asking for 2 GiB */
	assert_int_equal(buf[b_at + 4] & 0x20, 0);
	buf[b_at + 5] = (31 - 10) << 3;
	z = pd_unzstd_new(pd_memsrc(&ms, buf, n));
	got = drain_src(pd_unzstd_source(z), out, cap, &rc);
	assert_int_equal(rc, -1);
	assert_int_equal(got, a_len);
	assert_non_null(strstr(pd_unzstd_source(z).err(z),
	    "needs a 2048 MiB window"));
	pd_unzstd_free(z);
	free(text);
	free(buf);
	free(out);
}

static void
test_text_helpers(void **state)
{
	uint64_t v;
	unsigned dom, bus, dev, fn;

	(void)state;
	assert_true(pd_parse_size("64M", &v));
	assert_int_equal(v, 64u << 20);
	assert_true(pd_parse_size("1GiB", &v));
	assert_int_equal(v, 1u << 30);
	assert_true(pd_parse_size("4096", &v));
	assert_false(pd_parse_size("12Q", &v));
	assert_false(pd_parse_size("lots", &v));
	assert_false(pd_parse_size("99999999999999999999T", &v));
	assert_int_equal(pd_bdf_parse("0002:01:00.1 x", &dom, &bus, &dev, &fn),
	    12);
	assert_int_equal(dom, 2);
	assert_int_equal(fn, 1);
	assert_int_equal(pd_bdf_parse("b1:00.2", &dom, &bus, &dev, &fn), 7);
	assert_int_equal(bus, 0xb1);
	assert_int_equal(pd_bdf_parse("00: b5 13", &dom, &bus, &dev, &fn), 0);
	assert_int_equal(pd_bdf_parse("00:20.0", &dom, &bus, &dev, &fn), 0);
	assert_true(pd_list_has("on,sm_on", "sm_on", 5));
	assert_false(pd_list_has("on,sm_on", "sm", 2));
	assert_false(pd_list_has(NULL, "x", 1));
	assert_false(pd_text_plausible((const unsigned char *)"a\0b", 3));
	assert_true(pd_text_plausible((const unsigned char *)"a\tb\n", 4));
	assert_true(pd_text_plausible((const unsigned char *)"", 0));
	/* every byte value, at the 1 % line: 99 letters and one of it
	 * pass, 98 and one do not (NUL never) */
	for (int b = 0; b < 256; b++) {
		unsigned char t[100];
		bool stray = b < 0x20 && b != '\n' && b != '\r' &&
		    b != '\t' && b != '\f';

		memset(t, 'x', sizeof(t));
		t[50] = (unsigned char)b;
		assert_int_equal(pd_text_plausible(t, 100), b != 0);
		assert_int_equal(pd_text_plausible(t, 99), b != 0 && !stray);
	}
}

/* A source over a buffer that can hand it out whole (as a directory's
 * mapped file does), having handed out had bytes. */
struct whole_src {
	const unsigned char *p;
	size_t len, pos;
	unsigned calls;
};

static ssize_t
whole_read(void *ctx, void *buf, size_t n)
{
	struct whole_src *w = ctx;

	if (n > w->len - w->pos)
		n = w->len - w->pos;
	memcpy(buf, w->p + w->pos, n);
	w->pos += n;
	return (ssize_t)n;
}

static ssize_t
whole_whole(void *ctx, size_t had, size_t max, const unsigned char **p)
{
	struct whole_src *w = ctx;

	w->calls++;
	if (w->pos != had || w->len > max)
		return PD_INPUT_NO_VIEW;
	w->pos = w->len;
	*p = w->p;
	return (ssize_t)w->len;
}

static void
whole_input(struct pd_input *in, struct whole_src *w, unsigned char *head,
    size_t head_len, const char *text)
{
	*w = (struct whole_src){ (const unsigned char *)text, strlen(text), 0,
		0 };
	whole_read(w, head, head_len);
	pd_input_init(in, (struct pd_source){ whole_read, NULL, w, NULL,
	    whole_whole }, head, head_len, 64, NULL);
}

static void
test_whole_member_in_place(void **state)
{
	const char *text = "0123456789abcdefghij";
	unsigned char head[4];
	struct whole_src w;
	struct pd_input in;
	const unsigned char *p;
	const char *line;
	size_t len;

	(void)state;
	/* at the start: the whole member from its first byte, the head
	 * included, and the input at its end */
	whole_input(&in, &w, head, sizeof(head), text);
	assert_int_equal(pd_input_whole(&in, 64, &p), 20);
	assert_memory_equal(p, text, 20);
	assert_true(in.eof);
	assert_int_equal(in.consumed, 20);
	assert_int_equal(pd_input_getline(&in, &line, &len), 0);
	pd_input_release(&in);

	/* larger than max: nothing read, the reads go on from the start */
	whole_input(&in, &w, head, sizeof(head), text);
	assert_int_equal(pd_input_whole(&in, 19, &p), PD_INPUT_NO_VIEW);
	assert_int_equal(pd_input_getline(&in, &line, &len), 1);
	assert_string_equal(line, text);
	pd_input_release(&in);

	/* once anything was read, never: the source is not asked */
	whole_input(&in, &w, head, sizeof(head), text);
	char two[2];

	assert_int_equal(pd_input_read(&in, two, 2), 2);
	w.calls = 0;
	assert_int_equal(pd_input_whole(&in, 64, &p), PD_INPUT_NO_VIEW);
	assert_int_equal(w.calls, 0);
	pd_input_release(&in);

	/* drain passes a member over where it lies, without its reads */
	whole_input(&in, &w, head, sizeof(head), text);
	pd_input_drain(&in);
	assert_int_equal(w.calls, 1);
	assert_true(in.eof);
	pd_input_release(&in);
}

int
test_group_input(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_with_head_replay),
		cmocka_unit_test(test_take_in_place_and_across_blocks),
		cmocka_unit_test(test_lines_across_blocks),
		cmocka_unit_test(test_long_line_is_skipped_and_noted),
		cmocka_unit_test(test_slurp_cap),
		cmocka_unit_test(test_gunzip_concatenated_and_truncated),
		cmocka_unit_test(test_unzstd_frames_cut_and_window),
		cmocka_unit_test(test_text_helpers),
		cmocka_unit_test(test_whole_member_in_place),
	};
	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}

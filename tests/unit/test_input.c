/* pd_input line reading, head replay, gunzip, and the text helpers. */
#include <string.h>
#include <zlib.h>
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
}

int
test_group_input(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_with_head_replay),
		cmocka_unit_test(test_long_line_is_skipped_and_noted),
		cmocka_unit_test(test_slurp_cap),
		cmocka_unit_test(test_gunzip_concatenated_and_truncated),
		cmocka_unit_test(test_text_helpers),
	};
	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}

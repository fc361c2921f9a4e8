/* pd_gunzip over both inflate back ends: the same bytes, the same end
 * (eof or the same error text) on the same streams, whichever the build
 * picked.  Without ISA-L only zlib runs, against the data itself. */
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "helpers.h"
#include "base/inflate.h"
#include "pathdoctor/input.h"

/* A source giving at most chunk bytes a read, so that member ends and
 * headers fall at every offset of gunzip's input buffer. */
struct chunksrc {
	const unsigned char *p;
	size_t len, pos, chunk;
};

static ssize_t
chunk_read(void *ctx, void *buf, size_t n)
{
	struct chunksrc *c = ctx;
	size_t k = c->len - c->pos;

	if (k > n)
		k = n;
	if (k > c->chunk)
		k = c->chunk;
	memcpy(buf, c->p + c->pos, k);
	c->pos += k;
	return (ssize_t)k;
}

static const char *
chunk_err(void *ctx)
{
	(void)ctx;
	return "chunk read error";
}

struct result {
	unsigned char *out;
	size_t len;
	ssize_t last;		/* 0: eof, -1: error */
	char err[160];
	uint64_t in;		/* pd_gunzip_in at the end */
};

/* Decodes all of p through ops, reading readsz bytes at a time. */
static void
decode(const struct pd_inflate_ops *ops, const unsigned char *p,
    size_t len, size_t chunk, size_t readsz, struct result *r)
{
	struct chunksrc c = { p, len, 0, chunk };
	struct pd_source in = { chunk_read, chunk_err, &c, NULL, NULL };
	struct pd_gunzip *g = pd_gunzip_new_ops(in, ops);
	struct pd_source s = pd_gunzip_source(g);
	size_t cap = 1 << 16;
	ssize_t k;

	memset(r, 0, sizeof(*r));
	r->out = malloc(cap);
	for (;;) {
		if (cap - r->len < readsz) {
			cap = 2 * cap + readsz;
			r->out = realloc(r->out, cap);
		}
		k = s.read(s.ctx, r->out + r->len, readsz);
		if (k <= 0)
			break;
		r->len += (size_t)k;
	}
	r->last = k;
	if (k < 0)
		snprintf(r->err, sizeof(r->err), "%s", s.err(s.ctx));
	r->in = pd_gunzip_in(g);
	pd_gunzip_free(g);
}

#ifdef PD_HAVE_ISAL
/* At a cut ISA-L stops before the last group of literals its table
 * lookup could not decode whole (it packs up to three): at most two
 * bytes short of zlib, which decodes symbol by symbol. */
#define CUT_SLACK 2

/* The same bytes and end, but for what each decoder makes of a stream
 * that is not whole: on a cut, ISA-L's bytes a prefix of zlib's, just
 * short; on invalid deflate data, the bytes before the failure (zlib
 * refuses an incomplete Huffman code up front, ISA-L decodes on until a
 * symbol fails), only the same words. */
static bool
agree(const struct result *z, const struct result *i)
{
	const char *cut = "gzip stream truncated after ";
	size_t n = strlen(cut);

	if (i->last != z->last)
		return false;
	if (strncmp(z->err, cut, n) == 0)
		return strncmp(i->err, cut, n) == 0 && i->len <= z->len &&
		    z->len - i->len <= CUT_SLACK &&
		    memcmp(i->out, z->out, i->len) == 0;
	if (strcmp(z->err, "gzip data corrupt: invalid deflate data") == 0)
		return strcmp(i->err, z->err) == 0;
	return i->len == z->len && memcmp(i->out, z->out, z->len) == 0 &&
	    strcmp(i->err, z->err) == 0 && (z->last != 0 || i->in == z->in);
}

#endif

/* Decodes with zlib (and ISA-L when built), checks they agree and
 * returns zlib's result for the caller's own checks. */
static void
both(const unsigned char *p, size_t len, size_t chunk, size_t readsz,
    struct result *z)
{
	decode(&pd_inflate_zlib, p, len, chunk, readsz, z);
#ifdef PD_HAVE_ISAL
	struct result i;
	bool ok;

	decode(&pd_inflate_isal, p, len, chunk, readsz, &i);
	ok = agree(z, &i);
	if (!ok)
		print_error("zlib and ISA-L differ on %zu bytes (chunk %zu, "
		    "read %zu): out %zu/%zu, end %zd/%zd '%s'/'%s', in "
		    "%lu/%lu\n", len, chunk, readsz, z->len, i.len, z->last,
		    i.last, z->err, i.err, (unsigned long)z->in,
		    (unsigned long)i.in);
	free(i.out);
	if (!ok) {
		free(z->out);
		fail();
	}
#endif
}

/* Text-like data, compressible but not trivially: words from a small
 * vocabulary picked by an LCG. */
static unsigned char *
gen(size_t n, uint32_t seed)
{
	static const char *w[] = { "rx_packets ", "0x1f8b ", "nic2 ", "\n",
		"tx_dropped: ", "12345 ", "eth", "\t", "queue_7 " };
	unsigned char *p = malloc(n + 1);
	size_t i = 0;

	while (i < n) {
		seed = seed * 1103515245u + 12345u;
		const char *s = w[(seed >> 16) % 9];

		if ((seed >> 8) % 7 == 0) {	/* some incompressible bytes */
			p[i++] = (unsigned char)(seed >> 24);
			continue;
		}
		for (; *s && i < n; s++)
			p[i++] = (unsigned char)*s;
	}
	return p;
}

/* One gzip member of data at a level, with an extra field of xlen bytes
 * (to move what follows by a byte at a time) and a name and comment when
 * named; appended to *out. */
static void
member(const unsigned char *data, size_t n, int level, size_t xlen,
    bool named, unsigned char **out, size_t *outlen)
{
	z_stream zs = { 0 };
	gz_header h = { 0 };
	unsigned char extra[300];
	size_t cap = n + n / 8 + 1024 + xlen;

	assert_true(xlen <= sizeof(extra));
	memset(extra, 'x', sizeof(extra));
	assert_int_equal(deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	if (xlen > 0 || named) {
		h.extra = xlen ? extra : NULL;
		h.extra_len = (uInt)xlen;
		h.name = named ? (Bytef *)"capture.pcap" : NULL;
		h.comment = named ? (Bytef *)"from a test" : NULL;
		h.hcrc = named;
		deflateSetHeader(&zs, &h);
	}
	*out = realloc(*out, *outlen + cap);
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)n;
	zs.next_out = *out + *outlen;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*outlen += zs.total_out;
	deflateEnd(&zs);
}

static void
expect_data(const struct result *r, const unsigned char *data, size_t n)
{
	assert_int_equal(r->last, 0);
	assert_int_equal(r->len, n);
	assert_memory_equal(r->out, data, n);
}

static void
test_sizes_and_levels(void **state)
{
	static const size_t sizes[] = { 0, 1, 100, 32768, 70001, 400000 };
	static const int levels[] = { 0, 1, 6, 9 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *d = gen(sizes[i], (uint32_t)i);

		for (size_t l = 0; l < 4; l++) {
			unsigned char *gz = NULL;
			size_t n = 0;
			struct result r;

			member(d, sizes[i], levels[l], 0, l == 2, &gz, &n);
			both(gz, n, 65536, 65536, &r);
			expect_data(&r, d, sizes[i]);
			assert_int_equal(r.in, n);
			free(r.out);
			both(gz, n, 7, 1000, &r);	/* small reads both ways */
			expect_data(&r, d, sizes[i]);
			free(r.out);
			both(gz, n, 65536, 1 << 20, &r);
			expect_data(&r, d, sizes[i]);
			free(r.out);
			free(gz);
		}
		free(d);
	}
}

/* Two members, then an empty one, then a third: the end of the first
 * moved over every offset of a 64-byte read and over the edge of
 * gunzip's own 64 KiB buffer. */
static void
test_concatenated_at_every_offset(void **state)
{
	unsigned char *a = gen(3000, 1), *b = gen(70000, 2);
	unsigned char *big = gen(65000, 3);

	(void)state;
	for (size_t e = 0; e < 140; e++) {
		unsigned char *gz = NULL, *want = malloc(3000 + 70000 + 65000);
		size_t n = 0, wn = 0;
		struct result r;
		bool edge = e >= 70;	/* a stored first member near 64 KiB */

		if (edge) {
			member(big, 65000, 0, e - 70 + 200, false, &gz, &n);
			memcpy(want, big, 65000);
			wn = 65000;
		} else {
			member(a, 3000, 6, e, e % 2, &gz, &n);
			memcpy(want, a, 3000);
			wn = 3000;
		}
		member(b, 0, 6, 0, false, &gz, &n);
		member(b, 70000, 1, 0, true, &gz, &n);
		memcpy(want + wn, b, 70000);
		wn += 70000;
		both(gz, n, edge ? 65536 : 64, 65536, &r);
		expect_data(&r, want, wn);
		assert_int_equal(r.in, n);
		free(r.out);
		if (e % 10 == 0) {	/* a byte a read: slow, so a few */
			both(gz, n, 1, 4096, &r);
			expect_data(&r, want, wn);
			free(r.out);
		}
		free(gz);
		free(want);
	}
	free(a);
	free(b);
	free(big);
}

static void
test_trailing_garbage(void **state)
{
	static const struct {
		const char *tail;
		size_t len;
		ssize_t last;
		const char *err;
	} cases[] = {
		{ "garbage\n", 8, 0, "" },
		{ "\0\0\0\0\0\0\0\0", 8, 0, "" },
		{ "\x1f", 1, -1, "gzip stream truncated after 0 bytes out" },
		{ "\x1f\x8b", 2, -1, "gzip stream truncated after 0 bytes out" },
		{ "\x1f\x00zz", 4, -1, "gzip data corrupt: a member's header "
		    "is not gzip's" },
		{ "\x1f\x8b\x07\x00", 4, -1, "gzip data corrupt: a member's "
		    "header is not gzip's" },
		{ "\x1f\x8b\x08\x20", 4, -1, "gzip data corrupt: a member's "
		    "header is not gzip's" },
		{ "\x1f\x8b\x08\x00\x00", 5, -1, "gzip stream truncated after "
		    "0 bytes out" },
	};
	unsigned char *d = gen(5000, 4);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char *gz = NULL;
		size_t n = 0;
		struct result r;

		member(d, 5000, 6, 0, false, &gz, &n);
		size_t head = n;

		gz = realloc(gz, n + cases[i].len);
		memcpy(gz + n, cases[i].tail, cases[i].len);
		n += cases[i].len;
		for (size_t chunk = 1; chunk <= 65536; chunk *= 16) {
			both(gz, n, chunk, 65536, &r);
			assert_int_equal(r.len, 5000);
			assert_memory_equal(r.out, d, 5000);
			assert_int_equal(r.last, cases[i].last);
			assert_string_equal(r.err, cases[i].err);
			if (cases[i].last == 0)
				assert_int_equal(r.in, head);
			free(r.out);
		}
		free(gz);
	}
	free(d);
}

/* Cut anywhere: everything before the cut, then the same error. */
static void
test_truncated_at_many_offsets(void **state)
{
	unsigned char *d = gen(200000, 5), *gz = NULL;
	size_t n = 0, first;

	(void)state;
	member(d, 2000, 6, 0, true, &gz, &n);
	first = n;
	member(d, 200000, 6, 0, false, &gz, &n);
	member(d, 30000, 0, 0, false, &gz, &n);
	for (size_t cut = 0; cut < n; cut += cut < first + 200 ? 1 : 331) {
		struct result r;

		both(gz, cut, cut % 16 ? 65536 : 13, 65536, &r);
		if (cut == first) {
			expect_data(&r, d, 2000);
		} else {
			assert_int_equal(r.last, -1);
			assert_non_null(strstr(r.err, "truncated after"));
		}
		free(r.out);
	}
	free(gz);
	free(d);
}

/* A byte changed anywhere: both fail, or both not, with the same
 * bytes before it and the same words. */
static void
test_corrupt_bytes(void **state)
{
	unsigned char *d = gen(8000, 6), *gz = NULL;
	size_t n = 0;

	(void)state;
	member(d, 8000, 6, 0, true, &gz, &n);
	for (size_t at = 0; at < n; at++) {
		unsigned char *bad = malloc(n);
		struct result r;

		memcpy(bad, gz, n);
		bad[at] ^= at % 2 ? 0x55 : 0x80;
		both(bad, n, at % 8 ? 65536 : 9, 65536, &r);
		if (at >= n - 8) {	/* the trailer: CRC, then length */
			assert_int_equal(r.last, -1);
			assert_string_equal(r.err, "gzip data corrupt: CRC or "
			    "length in a member's trailer does not match");
		}
		free(r.out);
		free(bad);
	}
	free(gz);
	free(d);
}

/* The sample bundles and every gzip'd member in them (perf.data.gz):
 * the bytes the reports are made of, the same from both back ends. */
static void
test_sample_streams(void **state)
{
	glob_t gl;
	size_t members = 0;

	(void)state;
	assert_int_equal(glob("samples/*.tgz", 0, NULL, &gl), 0);
	for (size_t f = 0; f < gl.gl_pathc; f++) {
		size_t n;
		unsigned char *gz = slurp(gl.gl_pathv[f], &n);
		struct result tar, r;

		assert_non_null(gz);
		both(gz, n, 65536, 1 << 20, &tar);
		assert_int_equal(tar.last, 0);
		for (size_t at = 0; at + 3 <= tar.len; at += 512) {
			if (memcmp(tar.out + at, "\x1f\x8b\x08", 3) != 0)
				continue;
			both(tar.out + at, tar.len - at, 65536, 1 << 20, &r);
			assert_int_equal(r.last, 0);
			members++;
			free(r.out);
		}
		free(tar.out);
		free(gz);
	}
	globfree(&gl);
	assert_true(members > 0);
}

int
test_group_gunzip(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_levels),
		cmocka_unit_test(test_concatenated_at_every_offset),
		cmocka_unit_test(test_trailing_garbage),
		cmocka_unit_test(test_truncated_at_many_offsets),
		cmocka_unit_test(test_corrupt_bytes),
		cmocka_unit_test(test_sample_streams),
	};

	return cmocka_run_group_tests_name("gunzip", tests, NULL, NULL);
}

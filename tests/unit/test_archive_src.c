/* src/bundle/archive_src.c against libarchive's own archive_read_data:
 * every member of tar and zip archives made here, and of GNU tar's two
 * sparse formats (holes before, between and after the data), whole and
 * cut at many points, read in pieces of several sizes through the
 * source (its reads, and views wherever it can give one) and through
 * archive_read_data: the same bytes, the same ends, the same errors at
 * the same places.
 *
 * tests/unit/data/sparse-gnu.tar.gz and sparse-pax.tar.gz: a file of
 * 500000 bytes, holes but for 100000..150000 and 400000..420000 (byte i
 * is i * 7 + i / 251, mod 256), archived by GNU tar 1.34
 * (tar --sparse --format=gnu, and --format=posix: PAX sparse 1.0),
 * gzip -9n. */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "helpers.h"
#include "bundle/archive_src.h"
#include "pathdoctor/input.h"

#define OUT_MAX (8u << 20)

struct made {
	unsigned char *p;
	size_t len, cap;
};

static la_ssize_t
made_write(struct archive *a, void *ctx, const void *buf, size_t n)
{
	struct made *m = ctx;

	(void)a;
	if (m->len + n > m->cap) {
		m->cap = (m->len + n) * 2;
		m->p = realloc(m->p, m->cap);
	}
	memcpy(m->p + m->len, buf, n);
	m->len += n;
	return (la_ssize_t)n;
}

static void
add(struct archive *a, const char *name, size_t size, bool sparse)
{
	struct archive_entry *e = archive_entry_new();
	unsigned char *data = malloc(size ? size : 1);

	for (size_t i = 0; i < size; i++)
		data[i] = (unsigned char)(i * 7 + i / 251);
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, (la_int64_t)size);
	if (sparse) {
		/* data at 100k..150k and 400k..420k of 500k: holes before,
		 * between and after */
		archive_entry_sparse_add_entry(e, 100000, 50000);
		archive_entry_sparse_add_entry(e, 400000, 20000);
	}
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	if (sparse) {
		assert_true(archive_write_data(a, data + 100000, 50000) > 0);
		assert_true(archive_write_data(a, data + 400000, 20000) > 0);
	} else if (size) {
		assert_true(archive_write_data(a, data, size) > 0);
	}
	archive_entry_free(e);
	free(data);
}

/* format: ARCHIVE_FORMAT_TAR_PAX_RESTRICTED or _ZIP */
static struct made
make_archive(int format)
{
	struct made m = { NULL, 0, 0 };
	struct archive *a = archive_write_new();

	assert_int_equal(archive_write_set_format(a, format), ARCHIVE_OK);
	archive_write_set_bytes_per_block(a, 0);
	assert_int_equal(archive_write_open(a, &m, NULL, made_write, NULL),
	    ARCHIVE_OK);
	add(a, "a/plain.bin", 300000, false);
	add(a, "a/empty", 0, false);
	if (format != ARCHIVE_FORMAT_ZIP)
		add(a, "a/sparse.bin", 500000, true);
	add(a, "a/small.txt", 700, false);
	archive_write_close(a);
	archive_write_free(a);
	return m;
}

/* Every member read in pieces of `piece` bytes, as text: per read its
 * return (and a hash of its bytes), per member its end. */
static void
walk(const unsigned char *p, size_t len, size_t piece, bool ours,
    char *out, size_t cap)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	unsigned char *buf = malloc(piece);
	size_t at = 0;

	archive_read_support_format_all(a);
	archive_read_support_filter_all(a);
	if (archive_read_open_memory(a, p, len) != ARCHIVE_OK) {
		snprintf(out, cap, "no archive");
		goto done;
	}
	for (int k = 0; k < 20 &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK; k++) {
		struct pd_archive_src s;
		struct pd_source src = pd_archive_source(&s, a);
		unsigned reads = 0;

		for (;;) {
			const unsigned char *v = NULL;
			ssize_t r;

			if (!ours) {
				r = archive_read_data(a, buf, piece);
				r = r < 0 ? -1 : r;
			} else if (reads++ % 2 == 0 && (r = src.view(src.ctx,
			    piece, &v)) != PD_INPUT_NO_VIEW) {
				if (r > 0)
					memcpy(buf, v, (size_t)r);
			} else {
				r = src.read(src.ctx, buf, piece);
			}
			unsigned h = 2166136261u;

			for (ssize_t i = 0; i < r; i++)
				h = (h ^ buf[i]) * 16777619u;
			if (at + 40 < cap)
				at += (size_t)snprintf(out + at, cap - at,
				    "%zd:%x ", r, h);
			if (r <= 0)
				break;
		}
		if (at + 4 < cap)
			at += (size_t)snprintf(out + at, cap - at, "| ");
	}
	snprintf(out + at, cap - at, "end");
done:
	archive_read_free(a);
	free(buf);
}

static void
test_archive_src_reads_as_libarchive(void **state)
{
	(void)state;
	static const int formats[] = { ARCHIVE_FORMAT_TAR_PAX_RESTRICTED,
	    ARCHIVE_FORMAT_ZIP };
	static const size_t pieces[] = { 1000, 8192, 65536 };
	char *mine = malloc(OUT_MAX), *theirs = malloc(OUT_MAX);

	for (size_t f = 0; f < 4; f++) {
		struct made m = { NULL, 0, 0 };

		if (f < 2)
			m = make_archive(formats[f]);
		else
			m.p = slurp(f == 2 ? "tests/unit/data/sparse-gnu.tar.gz" :
			    "tests/unit/data/sparse-pax.tar.gz", &m.len);
		assert_non_null(m.p);

		for (unsigned cut = 0; cut <= 40; cut++) {
			size_t len = cut == 40 ? m.len : m.len * cut / 40;

			for (size_t i = 0; i < 3; i++) {
				walk(m.p, len, pieces[i], false, theirs,
				    OUT_MAX);
				walk(m.p, len, pieces[i], true, mine, OUT_MAX);
				if (strcmp(mine, theirs) != 0)
					fail_msg("archive %zu, cut %u/40, pieces "
					    "of %zu:\n  ours   %.300s\n  "
					    "theirs %.300s", f, cut, pieces[i],
					    mine, theirs);
			}
		}
		free(m.p);
	}
	free(mine);
	free(theirs);
}

int
test_group_archive_src(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_archive_src_reads_as_libarchive),
	};

	return cmocka_run_group_tests_name("archive_src", tests, NULL, NULL);
}

/* A large plain bundle file (src/bundle/readahead.c) read through the
 * ring, threaded or not, gives libarchive exactly the file's bytes; the
 * files it is not for are left to libarchive's own reads; a file that
 * shrinks while it is read ends where it now ends.  And the SIGBUS
 * watch of a mapped directory member (src/bundle/mapped.c): a file cut
 * shorter under its mapping is said, with exit status 3, not a crash. */
#define _DEFAULT_SOURCE		/* mkstemp, ftruncate */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "helpers.h"
#include "bundle/mapped.h"
#include "bundle/readahead.h"

#define MIB (1u << 20)

/* Byte i of the files made here (the first four are a pcap's magic). */
static unsigned char
byte_at(size_t i)
{
	static const unsigned char magic[4] = { 0xd4, 0xc3, 0xb2, 0xa1 };

	return i < 4 ? magic[i] : (unsigned char)(i * 13 + i / 4093);
}

/* A file of len such bytes (gzip's magic first when gz); its path in
 * path (of 64 bytes). */
static void
make_file(char *path, size_t len, bool gz)
{
	unsigned char *p = malloc(len);

	snprintf(path, 64, "/tmp/pd-plain-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	for (size_t i = 0; i < len; i++)
		p[i] = byte_at(i);
	if (gz) {
		p[0] = 0x1f;
		p[1] = 0x8b;
	}
	assert_int_equal(write(fd, p, len), (ssize_t)len);
	close(fd);
	free(p);
}

static struct archive *
raw_archive(void)
{
	struct archive *a = archive_read_new();

	archive_read_support_format_raw(a);
	archive_read_support_filter_none(a);
	return a;
}

/* Reads the lone member in blocks; its bytes checked against byte_at,
 * the count of them returned.  At block number cut_at (if not 0) the
 * file is cut to cut_to bytes first. */
static size_t
read_checked(struct archive *a, const char *path, unsigned cut_at,
    size_t cut_to)
{
	struct archive_entry *e;
	const void *buf;
	size_t n;
	la_int64_t off;
	size_t total = 0;
	unsigned blocks = 0;

	assert_int_equal(archive_read_next_header(a, &e), ARCHIVE_OK);
	for (;;) {
		if (cut_at && ++blocks == cut_at)
			assert_int_equal(truncate(path, (off_t)cut_to), 0);
		int r = archive_read_data_block(a, &buf, &n, &off);

		if (r == ARCHIVE_EOF)
			break;
		assert_int_equal(r, ARCHIVE_OK);
		assert_int_equal((size_t)off, total);
		for (size_t i = 0; i < n; i++)
			if (((const unsigned char *)buf)[i] != byte_at(total + i))
				fail_msg("byte %zu differs", total + i);
		total += n;
	}
	return total;
}

/* Opens path through the readahead, threaded or not. */
static struct pd_readahead *
opened(struct archive *a, const char *path, bool threaded)
{
	struct pd_readahead *r = NULL;
	char err[256];

	assert_true(pd_readahead_wanted(path));
	assert_int_equal(pd_readahead_open(a, path, threaded, &r, err,
	    sizeof(err)), 0);
	return r;
}

static void
test_plain_reads_the_file(void **state)
{
	(void)state;
	static const size_t lens[] = { 8 * MIB, 8 * MIB + 1, 9 * MIB + 4095,
	    9 * MIB + 4096, 13 * MIB + 123 };
	char path[64];

	for (unsigned t = 0; t < 2; t++)
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			struct archive *a = raw_archive();

			make_file(path, lens[i], false);
			struct pd_readahead *r = opened(a, path, t);

			assert_int_equal(read_checked(a, path, 0, 0), lens[i]);
			archive_read_free(a);
			pd_readahead_close(r);
			unlink(path);
		}
}

static void
test_plain_leaves_others(void **state)
{
	(void)state;
	char path[64];

	make_file(path, 8 * MIB - 1, false);	/* too small to be worth it */
	assert_false(pd_readahead_wanted(path));
	unlink(path);
	assert_false(pd_readahead_wanted("/nonexistent/x.pcap"));
	make_file(path, 9 * MIB, true);		/* compressed: decoded there */
	assert_true(pd_readahead_wanted(path));
	unlink(path);
	/* a perf.data: its samples have a thread of their own already */
	make_file(path, 9 * MIB, false);
	FILE *f = fopen(path, "r+");

	assert_non_null(f);
	assert_int_equal(fwrite("PERFILE2", 1, 8, f), 8);
	fclose(f);
	assert_false(pd_readahead_wanted(path));
	unlink(path);
}

static void
test_plain_file_shrinks(void **state)
{
	(void)state;
	/* cut before the third block is asked for: on one thread two
	 * blocks (1 MiB each) were handed out and the rest ends at the new
	 * end, whether that is on a page boundary or not.  (Threaded, the
	 * ring's reads race with the cut, as any reader's of a file being
	 * cut would: what they give past the new end is the kernel's.) */
	static const size_t cuts[] = { 3 * MIB + 100, 3 * MIB, 2 * MIB + 1 };
	char path[64];

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct archive *a = raw_archive();

		make_file(path, 10 * MIB, false);
		struct pd_readahead *r = opened(a, path, false);

		assert_int_equal(read_checked(a, path, 3, cuts[i]), cuts[i]);
		archive_read_free(a);
		pd_readahead_close(r);
		unlink(path);
	}
}

/* A file mapped, watched, then cut shorter under the mapping: the touch
 * of a page past the new end is said, with the file's name, exit 3. */
static void
test_mapped_cut_is_said(void **state)
{
	(void)state;
	char path[64], said[1024] = "";
	int fds[2];

	make_file(path, 64 * 1024, false);
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction old;
		FILE *f = fopen(path, "r");
		const unsigned char *p = f ? mmap(NULL, 64 * 1024, PROT_READ,
		    MAP_PRIVATE, fileno(f), 0) : MAP_FAILED;

		dup2(fds[1], STDERR_FILENO);
		if (p == MAP_FAILED)
			_exit(10);
		pd_mapped_watch(path, &old);
		if (truncate(path, 100) != 0)
			_exit(10);
		/* the pages past the new end are gone */
		volatile unsigned char c = p[64 * 1024 - 1];

		(void)c;
		_exit(11);
	}
	close(fds[1]);
	ssize_t k = read(fds[0], said, sizeof(said) - 1);
	int status;

	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	unlink(path);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_true(k > 0);
	said[k] = '\0';
	assert_non_null(strstr(said, "became shorter while it was read"));
	assert_non_null(strstr(said, path));
}

int
test_group_mapped(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_reads_the_file),
		cmocka_unit_test(test_plain_leaves_others),
		cmocka_unit_test(test_plain_file_shrinks),
		cmocka_unit_test(test_mapped_cut_is_said),
	};

	return cmocka_run_group_tests_name("plain and mapped files", tests,
	    NULL, NULL);
}

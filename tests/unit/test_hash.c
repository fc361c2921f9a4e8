/* The content hash of -f jsonl (src/fleet/hash.c): a file's, and a
 * directory's as the contract spells it: files in byte order of their
 * relative paths (so "a.txt" before "a/x", though the walker reads the
 * directory "a" first), links and fifos left out. */
#define _DEFAULT_SOURCE	/* mkdtemp, symlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "helpers.h"
#include "fleet/hash.h"

static char dir[64];

static void
put(const char *rel, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_non_null(f = fopen(p, "w"));
	fputs(text, f);
	fclose(f);
}

static int
make_dir(void **state)
{
	char p[128];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/pd-hash-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(p, sizeof(p), "%s/a", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/e", dir);
	mkdir(p, 0755);			/* empty: nothing of it hashed */
	put("b", "hi");
	put("a.txt", "x");
	put("a/x", "");
	snprintf(p, sizeof(p), "%s/l", dir);
	if (symlink("b", p) != 0)
		return -1;
	snprintf(p, sizeof(p), "%s/f", dir);
	return mkfifo(p, 0600);
}

static int
remove_dir(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_dir_and_file(void **state)
{
	struct pd_digest d;
	char err[256];

	(void)state;
	assert_int_equal(pd_hash_path(dir, 100, &d, err, sizeof(err)), 0);
	/* "a.txt\0" "1\0" "x" "a/x\0" "0\0" "b\0" "2\0" "hi" */
	assert_string_equal(d.hex, "b1b5fce7ee9fa34c1cef6bfd89c9568c586ea857"
	    "5eff9f343f88c0878c7767a1");
	assert_int_equal(d.bytes, 3);
	char p[128];

	snprintf(p, sizeof(p), "%s/b", dir);
	assert_int_equal(pd_hash_path(p, 100, &d, err, sizeof(err)), 0);
	assert_string_equal(d.hex, "8f434346648f6b96df89dda901c5176b10a6d839"
	    "61dd3c1ac88b59b2dc327aa4");	/* sha256sum of "hi" */
	assert_int_equal(d.bytes, 2);
}

static void
test_empty_and_capped(void **state)
{
	struct pd_digest d;
	char err[256] = "", p[128];

	(void)state;
	snprintf(p, sizeof(p), "%s/e", dir);
	assert_int_equal(pd_hash_path(p, 100, &d, err, sizeof(err)), 0);
	assert_string_equal(d.hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4"
	    "649b934ca495991b7852b855");	/* of nothing */
	assert_int_equal(d.bytes, 0);
	assert_int_equal(pd_hash_path(dir, 2, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 2 files"));
	snprintf(p, sizeof(p), "%s/none", dir);
	assert_int_equal(pd_hash_path(p, 2, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

int
test_group_hash(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_and_file),
		cmocka_unit_test(test_empty_and_capped),
	};

	return cmocka_run_group_tests_name("hash", tests, make_dir,
	    remove_dir);
}

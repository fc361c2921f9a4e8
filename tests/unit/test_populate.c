/* The thread that faults fresh pages in ahead of their use
 * (src/base/populate.c): what a page holds is never changed, also
 * while the asking thread writes to it, every page asked for ends up
 * resident, and nothing is done until allowed. */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, mincore */
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"
#include "base/populate.h"

#define LEN ((size_t)8 << 20)

static unsigned char *
fresh(void)
{
	void *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

/* Waits for the thread to be done, 60 s at most: a bound for a stuck
 * thread, not a measure of its speed. */
static void
wait_done(void)
{
	struct timespec nap = { 0, 1000000 };

	for (int i = 0; i < 60000 && pd_populate_pending(); i++)
		nanosleep(&nap, NULL);
	assert_false(pd_populate_pending());
}

static size_t
resident_pages(const unsigned char *p)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = LEN / page, in = 0;
	unsigned char vec[LEN / 4096];

	assert_true(n <= sizeof(vec));
	assert_int_equal(mincore((void *)p, LEN, vec), 0);
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	return in;
}

/* Every 4 KiB written with its own number while the thread faults the
 * same range in: each page must hold what was written there. */
static void
test_populate_keeps_what_is_written(void **state)
{
	(void)state;
	unsigned char *p = fresh();

	p[0] = 0xa5;
	pd_populate_allow(true);
	pd_populate_ask(p, LEN);
	for (size_t off = 0; off < LEN; off += 4096)
		p[off + 7] = (unsigned char)(off >> 12);
	wait_done();
	pd_populate_allow(false);
	assert_int_equal(p[0], 0xa5);
	for (size_t off = 0; off < LEN; off += 4096) {
		assert_int_equal(p[off + 7], (unsigned char)(off >> 12));
		assert_int_equal(p[off + 8], 0);
	}
	munmap(p, LEN);
}

/* A range asked for and never written is resident after, and zero. */
static void
test_populate_faults_pages_in(void **state)
{
	(void)state;
	unsigned char *p = fresh();
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	assert_int_equal(resident_pages(p), 0);
	pd_populate_allow(true);
	pd_populate_ask(p, LEN);
	wait_done();
	pd_populate_allow(false);
	if (!pd_populate_works()) {
		munmap(p, LEN);
		printf("# skipped: the kernel has no MADV_POPULATE_WRITE "
		    "(before Linux 5.14)\n");
		skip();
	}
	assert_int_equal(resident_pages(p), LEN / page);
	for (size_t off = 0; off < LEN; off += 4093)
		assert_int_equal(p[off], 0);
	munmap(p, LEN);
}

/* Not allowed (--one-thread), with the thread started by the tests
 * before: a range asked for stays as it was. */
static void
test_populate_off_does_nothing(void **state)
{
	(void)state;
	unsigned char *p = fresh();

	pd_populate_allow(false);
	pd_populate_ask(p, LEN);
	wait_done();
	assert_int_equal(resident_pages(p), 0);
	munmap(p, LEN);
}

int
test_group_populate(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_populate_keeps_what_is_written),
		cmocka_unit_test(test_populate_faults_pages_in),
		cmocka_unit_test(test_populate_off_does_nothing),
	};

	return cmocka_run_group_tests_name("populate", tests, NULL, NULL);
}

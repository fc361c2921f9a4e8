/* Profiles of several events, and the odd inputs of the perf readers,
 * on real files of other projects' test suites (tests/data-profile,
 * origins in tests/data/SOURCES.md): the shares perf report prints for
 * each event. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/profile.h"

/* The profile of event ev in what p read. */
static const struct pd_profile *
event(const struct parsed *p, const char *ev)
{
	for (const struct pd_profile *pr = p->m->hosts->profiles; pr;
	    pr = pr->next)
		if (pr->event && strcmp(pr->event, ev) == 0)
			return pr;
	fail_msg("no profile of event %s", ev);
	return NULL;
}

static unsigned
n_profiles(const struct parsed *p)
{
	unsigned n = 0;

	for (const struct pd_profile *pr = p->m->hosts->profiles; pr;
	    pr = pr->next)
		n++;
	return n;
}

/* sym's self share of pr as perf prints it (two decimals). */
static void
share_is(const struct pd_profile *pr, const char *sym, double printed)
{
	for (unsigned i = 0; i < pr->n_syms; i++)
		if (strcmp(pr->syms[i].name, sym) == 0) {
			double mine = 100 * pr->syms[i].self / pr->period;

			if (fabs(mine - printed) > 0.005)
				fail_msg("%s %s: %.4f %%, perf report %.2f %%",
				    pr->event, sym, mine, printed);
			return;
		}
	fail_msg("%s: no symbol %s", pr->event, sym);
}

static void
read_data(struct parsed *p, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/data-profile/%s", file);
	parsed_read(p, path);
	assert_int_equal(p->rc, 0);
}

/* One profile per event; the figures are perf report 6.1's
 * (--stdio --no-children --sort sym). */
static void
test_events_apart(void **state)
{
	struct parsed p;

	(void)state;
	read_data(&p, "perf-data/quipper-armv7-3.4-six-events.perf.data.gz");
	assert_int_equal(n_profiles(&p), 6);
	assert_string_equal(p.m->hosts->profiles->event, "cycles");
	assert_int_equal(event(&p, "cycles")->samples, 669);
	share_is(event(&p, "cycles"), "0x00000000803a0cbc", 5.47);
	share_is(event(&p, "instructions"), "0x000000008007e780", 4.09);
	share_is(event(&p, "cache-misses"), "0x00000000803a0cbc", 6.70);
	share_is(event(&p, "branch-misses"), "0x00000000803a0cbc", 3.30);
	parsed_free(&p);
	read_data(&p, "perf-data/quipper-hw_and_sw-3.4.perf.data.gz");
	assert_int_equal(n_profiles(&p), 2);
	share_is(event(&p, "cycles"), "0xffffffff810197b4", 19.81);
	share_is(event(&p, "cpu-clock"), "0xffffffff8136a45d", 97.04);
	parsed_free(&p);
	/* perf record --group: leader and member, each its own */
	read_data(&p, "perf-data/quipper-group_desc-4.14.perf.data");
	assert_int_equal(n_profiles(&p), 2);
	share_is(event(&p, "cache-references"), "0x000000000001a5f7", 68.35);
	share_is(event(&p, "branch-misses"), "0x000000000001b6f0", 75.22);
	parsed_free(&p);
}

static void
no_notes(const struct parsed *p, const char *file)
{
	if (p->cov.members->diag.notes)
		fail_msg("%s: %s: %s", file, p->cov.members->diag.notes->id,
		    p->cov.members->diag.notes->msg);
}

/* perf record -z, from linux-perf-data's fixtures: COMPRESSED in pipe
 * mode (perf report 6.1: 91.25 % and 8.47 %), COMPRESSED2 in file and
 * pipe mode (perf 6.1 cannot read them), records cut across batches. */
static void
test_compressed(void **state)
{
	static const char *const files[] = {
		"perf-data/linux-perf-data-sleep.compressed.pipe.data",
		"perf-data/linux-perf-data-sleep.compressed2.data",
		"perf-data/linux-perf-data-fibo.compressed2.pipe.data.gz",
	};
	static const uint64_t samples[] = { 8, 7, 547 };
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(files); i++) {
		read_data(&p, files[i]);
		no_notes(&p, files[i]);
		assert_int_equal(p.m->hosts->profiles->samples, samples[i]);
		if (i == 0) {
			share_is(p.m->hosts->profiles, "0xffffb849d9afe594",
			    91.25);
			share_is(p.m->hosts->profiles, "0xffffb849dabe0314",
			    8.47);
		}
		parsed_free(&p);
	}
}

/* A batch whose zstd bytes are damaged: the records before it count,
 * a note says where reading stopped. */
static void
test_compressed_damaged(void **state)
{
	size_t len;
	unsigned char *b = slurp("tests/data-profile/perf-data/"
	    "linux-perf-data-sleep.compressed.pipe.data", &len);
	struct parsed p;
	bool noted = false;

	(void)state;
	/* its one batch is the record at byte 13224, 386 bytes long */
	assert_true(len > 13224 + 386);
	memset(b + 13224 + 8 + 40, 0xa5, 300);
	parsed_read_memory(&p, b, len, "perf.data");
	for (const struct pd_note *n = p.cov.members->diag.notes; n;
	    n = n->next)
		noted |= strcmp(n->id, "perf.compressed") == 0 ||
		    strcmp(n->id, "perf.record-size") == 0;
	assert_true(noted);
	assert_true(!p.m->hosts->profiles ||
	    p.m->hosts->profiles->samples <= 8);
	parsed_free(&p);
	free(b);
}

/* FlameGraph's perf script sample without time or CPU columns: its
 * own collapsed result says func_a 112 and func_b 116 of 228. */
static void
test_script_untimed(void **state)
{
	struct parsed p;

	(void)state;
	read_data(&p, "perf-script/flamegraph-funcab-pid-01-untimed.txt");
	assert_string_equal(p.cov.members->format, "perf-script");
	no_notes(&p, "flamegraph-funcab-pid-01-untimed.txt");
	const struct pd_profile *pr = p.m->hosts->profiles;

	assert_string_equal(pr->event, "cpu-clock");
	assert_int_equal(pr->samples, 228);
	share_is(pr, "func_b", 100.0 * 116 / 228);
	share_is(pr, "func_a", 100.0 * 112 / 228);
	parsed_free(&p);
}

/* perf diff's text is no profile: named, not read as perf report. */
static void
test_perf_diff(void **state)
{
	struct parsed p;

	(void)state;
	read_data(&p, "perf-diff/quipper-callgraph-3.4-vs-3.8.txt");
	assert_string_equal(p.cov.members->format, "perf-report");
	assert_true(has_note(p.cov.members, "perf-report.diff"));
	assert_null(p.m->hosts->profiles);
	parsed_free(&p);
}

/* The first perf.data format: named unsupported.  No such file was
 * found in public test suites; this is a real file's header with the
 * first format's magic. */
static void
test_perf_v1(void **state)
{
	size_t len;
	unsigned char *b = slurp("tests/data-profile/perf-data/"
	    "quipper-group_desc-4.14.perf.data", &len);
	struct parsed p;

	(void)state;
	memcpy(b, "PERFFILE", 8);
	parsed_read_memory(&p, b, len, "perf.data");
	assert_string_equal(p.cov.members->format, "perf.data");
	assert_true(has_note(p.cov.members, "perf.v1"));
	parsed_free(&p);
	free(b);
}

int
test_group_profile_events(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_apart),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_damaged),
		cmocka_unit_test(test_script_untimed),
		cmocka_unit_test(test_perf_diff),
		cmocka_unit_test(test_perf_v1),
	};

	return cmocka_run_group_tests_name("profile-events", tests, NULL,
	    NULL);
}

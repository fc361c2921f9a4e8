/* Profiles of several events, and the odd inputs of the perf readers,
 * on real files of other projects' test suites (tests/data-profile,
 * origins in tests/data/SOURCES.md): the shares perf report prints for
 * each event. */
#include <math.h>
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

int
test_group_profile_events(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_apart),
	};

	return cmocka_run_group_tests_name("profile-events", tests, NULL,
	    NULL);
}

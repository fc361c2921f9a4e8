/* pathdoctor diff: host pairing (name, hardware, position, one side
 * only) and the verdict's thresholds. */
#include <string.h>
#include "helpers.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diff.h"

static struct pd_host *
host(struct pd_model *m, const char *key, const char *name)
{
	struct pd_host *h = pd_model_host(m, key);

	h->name = name;
	return h;
}

static void
card(struct pd_model *m, struct pd_host *h, uint64_t dsn)
{
	struct pd_card *c = pd_arena_alloc(pd_model_arena(m), sizeof(*c));

	c->has_dsn = true;
	c->dsn = dsn;
	c->next = h->cards;
	h->cards = c;
}

static void
devices(struct pd_model *m, struct pd_host *h, unsigned bus, unsigned n)
{
	bool created;

	for (unsigned i = 0; i < n; i++)
		pd_host_pcidev(h, pd_model_arena(m), 0, bus, i, 0, &created);
}

static const struct pd_diff_host *
find(const struct pd_diff_host *dh, const char *before)
{
	for (; dh; dh = dh->next)
		if (dh->before && strcmp(dh->before->name, before) == 0)
			return dh;
	return NULL;
}

static void
test_match_by_name_and_hardware(void **state)
{
	struct pd_model *b = pd_model_new(), *a = pd_model_new();
	struct pd_arena *ar = pd_model_arena(a);

	(void)state;
	host(b, "h1", "alpha");
	host(a, "x1", "alpha");
	/* renamed between the bundles: the card's serial still pairs it */
	card(b, host(b, "h2", "old-name"), 0x3c1a9f0003ab5e2cull);
	card(a, host(a, "x2", "new-name"), 0x3c1a9f0003ab5e2cull);
	/* no serial: 4 of 5 devices at the same addresses */
	devices(b, host(b, "h3", "bravo"), 3, 5);
	devices(a, host(a, "x3", "charlie"), 3, 4);
	pd_model_sort(b);
	pd_model_sort(a);
	const struct pd_diff_host *d = pd_diff_match_hosts(b, a, ar);

	assert_int_equal(find(d, "alpha")->matched_by, PD_MATCH_NAME);
	assert_string_equal(find(d, "alpha")->after->name, "alpha");
	assert_int_equal(find(d, "old-name")->matched_by, PD_MATCH_HARDWARE);
	assert_string_equal(find(d, "old-name")->after->name, "new-name");
	assert_non_null(strstr(find(d, "old-name")->match_how,
	    "3c1a9f0003ab5e2c"));
	assert_int_equal(find(d, "bravo")->matched_by, PD_MATCH_HARDWARE);
	assert_string_equal(find(d, "bravo")->after->name, "charlie");
	assert_non_null(strstr(find(d, "bravo")->match_how, "80 %"));
	pd_model_free(b);
	pd_model_free(a);
}

static void
test_match_position_and_lone(void **state)
{
	struct pd_model *b = pd_model_new(), *a = pd_model_new();
	struct pd_arena *ar = pd_model_arena(a);
	unsigned n = 0, before_only = 0, after_only = 0;

	(void)state;
	/* one device in common of four: not enough to be the same host */
	devices(b, host(b, "h1", "one"), 1, 4);
	devices(a, host(a, "x1", "uno"), 1, 1);
	devices(a, host(a, "x1b", "dos"), 9, 4);
	/* two hosts of one name on a side: the name pairs neither */
	host(b, "h2", "twin");
	host(b, "h3", "twin");
	host(a, "x2", "twin");
	pd_model_sort(b);
	pd_model_sort(a);
	for (const struct pd_diff_host *d = pd_diff_match_hosts(b, a, ar); d;
	    d = d->next) {
		n++;
		before_only += d->matched_by == PD_MATCH_ONLY_BEFORE;
		after_only += d->matched_by == PD_MATCH_ONLY_AFTER;
		if (d->before && d->after)
			assert_int_equal(d->matched_by, PD_MATCH_POSITION);
	}
	/* 3 before, 3 after: all three pair by position */
	assert_int_equal(n, 3);
	assert_int_equal(before_only, 0);
	assert_int_equal(after_only, 0);
	host(b, "h4", "extra");
	pd_model_sort(b);
	before_only = 0;
	for (const struct pd_diff_host *d = pd_diff_match_hosts(b, a, ar); d;
	    d = d->next)
		before_only += d->matched_by == PD_MATCH_ONLY_BEFORE;
	assert_int_equal(before_only, 1);
	pd_model_free(b);
	pd_model_free(a);
}

/* 7 % either side of the predicted range (PD_DIFF_NOISE's basis). */
static void
test_verdict_thresholds(void **state)
{
	(void)state;
	assert_int_equal(pd_diff_judge(28.1, 26.91, 29.6), PD_VERDICT_WITHIN);
	assert_int_equal(pd_diff_judge(14.8, 26.91, 29.6), PD_VERDICT_BELOW);
	assert_int_equal(pd_diff_judge(26.91 * 0.94, 26.91, 29.6),
	    PD_VERDICT_WITHIN);
	assert_int_equal(pd_diff_judge(26.91 * 0.92, 26.91, 29.6),
	    PD_VERDICT_BELOW);
	assert_int_equal(pd_diff_judge(29.6 * 1.06, 26.91, 29.6),
	    PD_VERDICT_WITHIN);
	assert_int_equal(pd_diff_judge(29.6 * 1.08, 26.91, 29.6),
	    PD_VERDICT_ABOVE);
	/* a fix the model says gains nothing while the CPU binds */
	assert_int_equal(pd_diff_judge(6.2, 6.2, 6.2), PD_VERDICT_WITHIN);
	assert_int_equal(pd_diff_judge(7.0, 6.2, 6.2), PD_VERDICT_ABOVE);
	assert_string_equal(pd_diff_verdict_name(PD_VERDICT_BELOW), "below");
}

int
test_group_diff(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_by_name_and_hardware),
		cmocka_unit_test(test_match_position_and_lone),
		cmocka_unit_test(test_verdict_thresholds),
	};
	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}

/* Third-party outputs as they reach us (tests/data, origins in
 * tests/data/SOURCES.md): each is read as what it is, or named for what
 * it is not. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"

static const struct pd_netdev *
find_netdev(const struct parsed *p, const char *name)
{
	for (const struct pd_netdev *nd = p->m->hosts->netdevs; nd;
	    nd = nd->next)
		if (strcmp(nd->name, name) == 0)
			return nd;
	return NULL;
}

/* A veth in a sosreport: the error before the header, and nothing else.
 * Pause is unknown with ethtool's reason; no rule reads it as "off". */
static void
test_pause_not_supported(void **state)
{
	struct parsed p;

	(void)state;
	parsed_analysed(&p, "tests/data/ethtool-a/ethtool_-a_veth0d284c32");
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.cov.members->format, "ethtool-a");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	const struct pd_netdev *nd = find_netdev(&p, "veth0d284c32");

	assert_non_null(nd);
	assert_string_equal(nd->pause_error, "Operation not supported");
	assert_int_equal(nd->pause_rx, PD_UNKNOWN);
	assert_int_equal(nd->pause_tx, PD_UNKNOWN);
	assert_int_equal(nd->ev_pause.line, 2);	/* the header */
	assert_int_equal(count_findings(&p, "nic.pause-off-retransmits"), 0);
	parsed_free(&p);
}

int
test_group_uploads(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pause_not_supported),
	};
	return cmocka_run_group_tests_name("uploads", tests, NULL, NULL);
}

/* --filter: the expression checked and compiled per link type, and the
 * readers analysing only the packets it matches. */
#define _DEFAULT_SOURCE	/* libpcap's headers use u_int, u_char */
#include <string.h>
#include "helpers.h"
#include "decode/filter.h"
#include "decode/pcaplib.h"

static const char nic2[] = "samples/bundles/gx10-before/pcap/nic2.pcap";
static const char three[] =
    "tests/data-capture/pcapng-test100-three-interfaces.pcapng";

/* Every function of the table resolves (dynlib fills all or none), and
 * they are libpcap's. */
static void
test_libpcap_table(void **state)
{
	char err[512] = "";
	pcap_t *p;

	(void)state;
	assert_true(pd_pcap_load(err, sizeof(err)));
	assert_string_equal(pd_pcap_linktype_name(DLT_EN10MB), "EN10MB");
	p = pd_pcap.pcap_open_dead(DLT_RAW, 96);
	assert_non_null(p);
	assert_int_equal(pd_pcap.pcap_datalink(p), DLT_RAW);
	assert_int_equal(pd_pcap.pcap_snapshot(p), 96);
	pd_pcap.pcap_close(p);
}

static void
test_expression_checked(void **state)
{
	char err[512] = "";

	(void)state;
	assert_false(pd_filter_set("tcp port 44x20", err, sizeof(err)));
	assert_non_null(strstr(err, "44x20"));
	assert_null(pd_filter_expr());
	assert_false(pd_filter_set("host", err, sizeof(err)));
	assert_non_null(strstr(err, "syntax error"));
	assert_true(pd_filter_set("tcp port 4420", err, sizeof(err)));
	assert_string_equal(pd_filter_expr(), "tcp port 4420");
	assert_true(pd_filter_set(NULL, err, sizeof(err)));
	assert_null(pd_filter_expr());
}

static void
test_per_link_type(void **state)
{
	struct pd_filter f;
	char err[512] = "";

	(void)state;
	assert_true(pd_filter_open(&f, DLT_RAW, 96, err, sizeof(err)));
	assert_null(f.prog);		/* no filter: nothing compiled */
	assert_true(pd_filter_match(&f, (const uint8_t *)"", 0, 0));
	assert_true(pd_filter_set("ether host 00:11:22:33:44:55", err,
	    sizeof(err)));
	assert_true(pd_filter_open(&f, DLT_EN10MB, 0, err, sizeof(err)));
	assert_non_null(f.prog);
	pd_filter_close(&f);
	assert_null(f.prog);
	assert_false(pd_filter_open(&f, DLT_RAW, 96, err, sizeof(err)));
	assert_null(f.prog);
	assert_true(err[0] != '\0');
	pd_filter_set(NULL, err, sizeof(err));
}

static void
test_pcap_filtered(void **state)
{
	char err[512];
	struct parsed p;
	uint64_t all;

	(void)state;
	parsed_read(&p, nic2);
	all = p.m->hosts->captures->packets;
	assert_null(p.m->hosts->captures->filter);
	parsed_free(&p);
	assert_true(pd_filter_set("tcp src port 4420", err, sizeof(err)));
	parsed_read(&p, nic2);
	const struct pd_capture *c = p.m->hosts->captures;

	assert_string_equal(c->filter, "tcp src port 4420");
	assert_int_equal(c->packets_read, all);
	assert_true(c->packets > 0 && c->packets < all);
	assert_int_equal(c->tcp_segments, c->packets);
	/* target -> host only */
	for (unsigned i = 0; i < c->n_flows; i++)
		assert_int_equal(c->flows[i].key.pa == 4420 ?
		    c->flows[i].dir[1].segs : c->flows[i].dir[0].segs, 0);
	parsed_free(&p);
	pd_filter_set(NULL, err, sizeof(err));
}

static void
test_pcapng_interface_skipped(void **state)
{
	char err[512];
	struct parsed p;
	unsigned n = 0;

	(void)state;
	assert_true(pd_filter_set("ether broadcast", err, sizeof(err)));
	parsed_read(&p, three);
	assert_true(has_note(p.cov.members, "capture.filter"));
	/* null1, of link type NULL, left out */
	for (const struct pd_capture *c = p.m->hosts->captures; c;
	    c = c->next) {
		assert_int_equal(c->linktype, DLT_EN10MB);
		assert_true(c->packets <= c->packets_read);
		n++;
	}
	assert_int_equal(n, 2);
	parsed_free(&p);
	pd_filter_set(NULL, err, sizeof(err));
}

int
test_group_filter(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libpcap_table),
		cmocka_unit_test(test_expression_checked),
		cmocka_unit_test(test_per_link_type),
		cmocka_unit_test(test_pcap_filtered),
		cmocka_unit_test(test_pcapng_interface_skipped),
	};
	return cmocka_run_group_tests_name("filter", tests, NULL, NULL);
}

/* Plain ethtool IF link modes (real outputs in tests/data/ethtool), the
 * nic.link-below-capability thresholds, and pcie.mrrs-low on the GX10
 * samples with MaxReadReq on both sides of 512. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "base/gain.h"
#include "pathdoctor/rule.h"
#include "rules/nic_link.h"

static const struct pd_netdev *
nd_of(const struct parsed *p, const char *name)
{
	const struct pd_netdev *nd = pd_host_find_netdev(p->m->hosts, name);

	assert_non_null(nd);
	return nd;
}

static bool
has(const struct pd_link_modes *l, int speed, bool full)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].speed_mbps == speed && l->m[i].full == full)
			return true;
	return false;
}

static void
test_real_outputs(void **state)
{
	struct parsed p;
	const struct pd_netdev *nd;

	(void)state;
	/* the RTL8125 at 1000 with the partner's list on three lines */
	parsed_read(&p, "tests/data/ethtool/r8125-1000-partner-2500.txt");
	nd = nd_of(&p, "eth5");
	assert_int_equal(nd->speed_mbps, 1000);
	assert_int_equal(nd->ls.supported.n, 6);
	assert_int_equal(nd->ls.supported.n_names, 6);
	assert_true(has(&nd->ls.supported, 10, false));
	assert_true(has(&nd->ls.supported, 2500, true));
	assert_false(has(&nd->ls.advertised, 2500, true));
	assert_true(has(&nd->ls.partner, 2500, true));
	assert_int_equal(nd->ls.partner.ev.line, 16);
	assert_non_null(strstr(nd->ls.partner.ev.text, "1000baseT/Full "
	    "2500baseT/Full"));
	assert_int_equal(nd->ls.autoneg, PD_YES);
	assert_int_equal(nd->ls.an_partner, PD_YES);
	assert_int_equal(nd->ls.full_duplex, PD_YES);
	assert_true(p.m->hosts->have & PD_HAVE_LINK_MODES);
	parsed_free(&p);

	/* igb, link down: Unknown! speed and duplex, Not reported */
	parsed_read(&p, "tests/data/ethtool/igb-link-down.txt");
	nd = nd_of(&p, "eno99");
	assert_int_equal(nd->speed_mbps, 0);
	assert_int_equal(nd->link, PD_NO);
	assert_int_equal(nd->ls.full_duplex, PD_UNKNOWN);
	assert_true(nd->ls.advertised.read);
	assert_true(nd->ls.advertised.not_reported);
	assert_int_equal(nd->ls.advertised.n, 0);
	assert_false(nd->ls.partner.read);
	/* "drv probe link" continues the message level, not a list */
	assert_int_equal(nd->ls.supported.n, 5);
	assert_false(p.m->hosts->have & PD_HAVE_LINK_MODES);
	parsed_free(&p);

	/* spaces, one after the colon; autoneg off on an i40e */
	parsed_read(&p, "tests/data/ethtool/insights-eth1-spaces.txt");
	nd = nd_of(&p, "eth1");
	assert_int_equal(nd->ls.supported.n, 5);
	assert_int_equal(nd->ls.advertised.n, 5);
	parsed_free(&p);
	parsed_read(&p, "tests/data/ethtool/i40e-10g-module-25g-nic.txt");
	nd = nd_of(&p, "eth0");
	assert_int_equal(nd->ls.autoneg, PD_NO);
	assert_true(has(&nd->ls.supported, 25000, true));
	assert_int_equal(nd->ls.supported.n, 3);	/* 1000, 10000, 25000 */
	assert_int_equal(nd->ls.supported.n_names, 8);
	parsed_free(&p);
}

static void
test_mode_names(void **state)
{
	struct parsed p;
	const struct pd_netdev *nd;

	(void)state;
	parsed_text(&p, "ethtool/x.txt", "Settings for x0:\n"
	    "\tSupported link modes:   100000baseCR4/Full 200000baseCR4/Full\n"
	    "\t                        200000baseCR2/Full 400000baseCR4/Full\n"
	    "\t                        10000baseR_FEC 1000baseT/Half bogus\n"
	    "\t                        baseT/Full 0baseT/Full\n"
	    "\tLink partner advertised link modes:  Not reported\n"
	    "\tSpeed: 400000Mb/s\n\tDuplex: Half\n");
	nd = nd_of(&p, "x0");
	/* 200000baseCR4 and CR2 are one speed; three tokens are no mode */
	assert_int_equal(nd->ls.supported.n, 5);
	assert_int_equal(nd->ls.supported.n_names, 6);
	assert_true(has(&nd->ls.supported, 400000, true));
	assert_true(has(&nd->ls.supported, 10000, true));
	assert_true(has(&nd->ls.supported, 1000, false));
	assert_true(nd->ls.partner.not_reported);
	assert_int_equal(nd->ls.full_duplex, PD_NO);
	assert_int_equal(pd_link_modes_best(&nd->ls.supported)->speed_mbps,
	    400000);
	parsed_free(&p);
}

static struct pd_link_settings
settings(const int *sup, unsigned ns, const int *adv, unsigned na,
    const int *lp, unsigned nl)
{
	struct pd_link_settings ls;

	memset(&ls, 0, sizeof(ls));
	for (unsigned i = 0; i < ns; i++)
		ls.supported.m[ls.supported.n++] = (struct pd_link_mode){
			sup[i], true };
	for (unsigned i = 0; i < na; i++)
		ls.advertised.m[ls.advertised.n++] = (struct pd_link_mode){
			adv[i], true };
	for (unsigned i = 0; i < nl; i++)
		ls.partner.m[ls.partner.n++] = (struct pd_link_mode){
			lp[i], true };
	return ls;
}

static void
test_target(void **state)
{
	static const int sup[] = { 1000, 2500, 10000 }, adv[] = { 1000, 2500 },
	    lp[] = { 100, 1000 }, lp2[] = { 10000, 25000 };
	struct pd_link_settings ls;
	struct pd_link_target t;

	(void)state;
	ls = settings(sup, 3, adv, 2, lp, 2);
	assert_true(pd_link_target(&ls, &t));
	assert_int_equal(t.speed_mbps, 1000);
	assert_int_equal(t.basis, PD_LINK_PARTNER);
	/* the partner's list wins over our advertised one */
	ls = settings(sup, 3, adv, 2, lp2, 2);
	assert_true(pd_link_target(&ls, &t));
	assert_int_equal(t.speed_mbps, 10000);
	ls = settings(sup, 3, adv, 2, NULL, 0);
	assert_true(pd_link_target(&ls, &t));
	assert_int_equal(t.speed_mbps, 2500);
	assert_int_equal(t.basis, PD_LINK_ADVERTISED);
	ls = settings(sup, 3, NULL, 0, NULL, 0);
	assert_true(pd_link_target(&ls, &t));
	assert_int_equal(t.speed_mbps, 10000);
	assert_int_equal(t.basis, PD_LINK_SUPPORTED);
	ls = settings(NULL, 0, adv, 2, lp, 2);
	assert_false(pd_link_target(&ls, &t));
}

/* The rule on one ethtool output whose Speed, Duplex and partner list
 * the test sets. */
static void
run_rule(struct parsed *p, const char *speed, const char *duplex,
    const char *partner, const char *autoneg)
{
	char text[1024];

	snprintf(text, sizeof(text), "Settings for t0:\n"
	    "\tSupported link modes:   10baseT/Half 10baseT/Full\n"
	    "\t                        100baseT/Half 100baseT/Full\n"
	    "\t                        1000baseT/Full\n"
	    "\t                        2500baseT/Full\n"
	    "\tAdvertised link modes:  10baseT/Half 10baseT/Full\n"
	    "\t                        100baseT/Half 100baseT/Full\n"
	    "\t                        1000baseT/Full\n"
	    "\t                        2500baseT/Full\n"
	    "%s\tSpeed: %s\n\tDuplex: %s\n\tAuto-negotiation: %s\n"
	    "\tLink detected: yes\n", partner, speed, duplex, autoneg);
	parsed_text(p, "ethtool/t0.txt", text);
	parsed_analyse(p);
}

static void
test_thresholds(void **state)
{
	static const char lp25[] = "\tLink partner advertised link modes:  "
	    "1000baseT/Full\n\t                                     "
	    "2500baseT/Full\n";
	static const char lp1[] = "\tLink partner advertised link modes:  "
	    "100baseT/Full 1000baseT/Full\n";
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* at the best common mode: quiet, both sides of the partner */
	run_rule(&p, "2500Mb/s", "Full", lp25, "on");
	assert_int_equal(count_findings(&p, "nic.link-below-capability"), 0);
	parsed_free(&p);
	run_rule(&p, "1000Mb/s", "Full", lp1, "on");
	assert_int_equal(count_findings(&p, "nic.link-below-capability"), 0);
	parsed_free(&p);
	/* one step below: fires, from both lists at 75 */
	run_rule(&p, "1000Mb/s", "Full", lp25, "on");
	f = find_finding(&p, "nic.link-below-capability", "t0");
	assert_non_null(f);
	assert_int_equal(f->confidence, 75);
	assert_int_equal(f->gain_hi, 1500);	/* 2500/1000 */
	assert_int_equal(f->lever.kind, PD_LEVER_PORT_SPEED);
	assert_int_equal(f->lever.speed_to, 2500);
	assert_non_null(strstr(f->fix[f->n_fix - 1], "ethtool -r t0"));
	parsed_free(&p);
	/* no partner list: our advertised modes at 45, said */
	run_rule(&p, "1000Mb/s", "Full", "", "on");
	f = find_finding(&p, "nic.link-below-capability", "t0");
	assert_non_null(f);
	assert_int_equal(f->confidence, 45);
	assert_non_null(f->confidence_note);
	parsed_free(&p);
	/* autonegotiation off: the fix turns it on */
	run_rule(&p, "1000Mb/s", "Full", lp25, "off");
	f = find_finding(&p, "nic.link-below-capability", "t0");
	assert_non_null(f);
	assert_non_null(strstr(f->fix[0], "autoneg on"));
	parsed_free(&p);
	/* half duplex at the best speed: off the ladder, 2.7 to 100 % */
	run_rule(&p, "2500Mb/s", "Half", lp25, "on");
	f = find_finding(&p, "nic.link-below-capability", "t0");
	assert_non_null(f);
	assert_int_equal(f->gain_lo, 27);
	assert_int_equal(f->gain_hi, 1000);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	parsed_free(&p);
	/* link down or unknown speed: skipped */
	run_rule(&p, "Unknown!", "Unknown! (255)", lp25, "on");
	assert_int_equal(count_findings(&p, "nic.link-below-capability"), 0);
	parsed_free(&p);
}

static void
test_real_rule(void **state)
{
	struct parsed p;

	(void)state;
	parsed_analysed(&p, "tests/data");
	assert_non_null(find_finding(&p, "nic.link-below-capability", "eth5"));
	assert_non_null(find_finding(&p, "nic.link-below-capability", "eno1"));
	/* 1000 with the partner at 1000; 10G with a 10G module; link down */
	assert_null(find_finding(&p, "nic.link-below-capability", "eth2"));
	assert_null(find_finding(&p, "nic.link-below-capability", "eth0"));
	assert_null(find_finding(&p, "nic.link-below-capability", "eno99"));
	assert_null(find_finding(&p, "nic.link-below-capability", "eth1"));
	parsed_free(&p);
}

static char *
text_of(const char *path)
{
	size_t len;
	unsigned char *t = slurp(path, &len);

	assert_non_null(t);
	t = realloc(t, len + 1);
	t[len] = '\0';
	return (char *)t;
}

/* gx10-after with the PFs of port 0 (nic2 on one link, nic5 on the
 * other) at 100000 Mb/s: one finding for the port, one ladder lever. */
static void
test_one_port(void **state)
{
	static const char *const nics[] = { "nic2", "nic4", "nic5", "nic6" };
	const char *names[9];
	char *texts[9], buf[9][64];
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	names[0] = "h/lspci-vv.txt";
	texts[0] = text_of("samples/bundles/gx10-after/lspci-vv.txt");
	for (int i = 0; i < 4; i++) {
		char path[128];

		snprintf(buf[2 * i + 1], sizeof(buf[0]), "h/ethtool-i/%s.txt",
		    nics[i]);
		snprintf(buf[2 * i + 2], sizeof(buf[0]), "h/ethtool/%s.txt",
		    nics[i]);
		names[2 * i + 1] = buf[2 * i + 1];
		names[2 * i + 2] = buf[2 * i + 2];
		snprintf(path, sizeof(path),
		    "samples/bundles/gx10-after/ethtool-i/%s.txt", nics[i]);
		texts[2 * i + 1] = text_of(path);
		snprintf(path, sizeof(path),
		    "samples/bundles/gx10-after/ethtool/%s.txt", nics[i]);
		texts[2 * i + 2] = text_of(path);
		if (i == 0 || i == 2)
			memcpy(strstr(texts[2 * i + 2], "200000Mb/s"),
			    "100000", 6);
	}
	parsed_members(&p, names, (const char *const *)texts, 9);
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "nic.link-below-capability"), 1);
	f = find_finding(&p, "nic.link-below-capability", "nic2");
	assert_non_null(f);
	assert_string_equal(f->subject, "nic2, nic5");
	assert_int_equal(f->confidence, 45);	/* no partner list */
	assert_int_equal(f->lever.speed_to, 200000);
	/* no ip link: MTU 1500, 11.77 GB/s at 100G; the Gen5 x4 link behind
	 * each PF carries 14.95 of the 23.54 at 200G: +27.0 % at most */
	assert_int_equal(f->gain_hi, pd_gain_tenths(pd_pcie_payload_gbs(32000,
	    4, 512) / (100 * 1448.0 / 1538 / 8)));
	assert_int_equal(f->gain_hi, 270);
	parsed_free(&p);
	for (int i = 0; i < 9; i++)
		free(texts[i]);
}

/* The gx10-mrrs-write sample's lspci with MaxReadReq 128 replaced. */
static void
mrrs_bundle(struct parsed *p, const char *dir, const char *mrrs)
{
	char path[256];
	size_t len;
	unsigned char *t;
	const char *names[] = { "h/lspci-vv.txt", "h/ethtool-S/nic2@1.txt",
		"h/ethtool-S/nic2@11.txt", "h/ethtool-i/nic2.txt",
		"h/ethtool/nic2.txt" };
	const char *files[] = { "lspci-vv.txt", "ethtool-S/nic2@1764000000.txt",
		"ethtool-S/nic2@1764000010.txt", "ethtool-i/nic2.txt",
		"ethtool/nic2.txt" };
	char *texts[5];

	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "samples/bundles/%s/%s", dir,
		    files[i]);
		t = slurp(path, &len);
		assert_non_null(t);
		texts[i] = realloc(t, len + 1);
		texts[i][len] = '\0';
	}
	for (char *s = texts[0]; (s = strstr(s, "MaxReadReq 128 ")); s++)
		memcpy(s + 11, mrrs, 3);
	parsed_members(p, names, (const char *const *)texts, 5);
	parsed_analyse(p);
	for (int i = 0; i < 5; i++)
		free(texts[i]);
}

static void
test_mrrs(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	mrrs_bundle(&p, "gx10-mrrs-write", "128");
	f = find_finding(&p, "pcie.mrrs-low", "0000:01:00.0");
	assert_non_null(f);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 113);	/* 128 -> 512 completions */
	assert_int_equal(f->confidence, 60);
	assert_int_equal(f->lever.kind, PD_LEVER_MRRS);
	assert_non_null(strstr(f->fix[1], "CAP_EXP+8.w=2000:7000"));
	parsed_free(&p);
	mrrs_bundle(&p, "gx10-mrrs-write", "256");
	f = find_finding(&p, "pcie.mrrs-low", "0000:01:00.0");
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 38);	/* 256 -> 512: 96.2/92.8 */
	parsed_free(&p);
	/* 512 is the threshold: quiet */
	mrrs_bundle(&p, "gx10-mrrs-write", "512");
	assert_int_equal(count_findings(&p, "pcie.mrrs-low"), 0);
	parsed_free(&p);
	/* the NIC receives: info, gain 0, off the ladder */
	mrrs_bundle(&p, "gx10-mrrs-read", "128");
	f = find_finding(&p, "pcie.mrrs-low", "0000:01:00.0");
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 0);
	assert_int_equal(pd_finding_level(f), PD_LEVEL_INFO);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_non_null(strstr(f->summary, "posted writes"));
	parsed_free(&p);
}

static void
test_mrrs_corpus(void **state)
{
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	/* a VF at MaxReadReq 128 and integrated devices without a link */
	parsed_corpus(&p, "lspci-vv/connectx7-pf-and-vf-mps512-downgraded.txt");
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "pcie.mrrs-low"), 0);
	parsed_free(&p);
	parsed_corpus(&p, "lspci-vv/x86-cometlake-laptop-i219-nvme.txt");
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "pcie.mrrs-low"), 0);
	parsed_free(&p);
}

int
test_group_link(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_outputs),
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_real_rule),
		cmocka_unit_test(test_one_port),
		cmocka_unit_test(test_mrrs),
		cmocka_unit_test(test_mrrs_corpus),
	};
	return cmocka_run_group_tests_name("link", tests, NULL, NULL);
}

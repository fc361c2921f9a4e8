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

static const struct pd_pcidev *
pcidev(const struct parsed *p, const char *bdf)
{
	const struct pd_pcidev *d = pd_host_find_pcidev(p->m->hosts, bdf);

	if (!d)
		fail_msg("no device %s", bdf);
	return d;
}

/* What sits at column 0 before the first device is not a device and not
 * a wrapped line: the command line of a mail, a shell prompt, lspci's
 * own warning that a sosreport keeps first. */
static void
test_lspci_first_line_not_a_device(void **state)
{
	static const struct { const char *path, *bdf, *note; unsigned n; }
	w[] = {
		{ "piix4-2002/lspci-vv/command-line-first-vvxxx.txt",
		    "0000:00:04.1", NULL, 1 },
		{ "t440-2013/lspci-vv/prompt-first.txt", "0000:00:02.0",
		    NULL, 1 },
		{ "rabbitmq-vm/lspci-vv/lspci_-nnvv", "0000:00:03.0",
		    "lspci-vv.tool-message", 21 },
	};
	char path[256];
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		snprintf(path, sizeof(path), "tests/data-uploads/%s",
		    w[i].path);
		parsed_read(&p, path);
		assert_int_equal(p.rc, 0);
		assert_string_equal(p.cov.members->format, "lspci-vv");
		assert_int_equal(p.m->hosts->n_pcidevs, w[i].n);
		assert_non_null(pcidev(&p, w[i].bdf)->class_name);
		assert_false(has_note(p.cov.members, "lspci-vv.stray-line"));
		assert_false(has_note(p.cov.members, "lspci-vv.wrapped-lines"));
		if (w[i].note)
			assert_true(has_note(p.cov.members, w[i].note));
		else
			assert_int_equal(p.cov.members->diag.worst, PD_OK);
		parsed_free(&p);
	}
}

/* pciutils' own test input, lspci -vvxxxx: 240 lines of extended
 * configuration space ("100:" to "ff0:") are a hex dump, not 240 wrapped
 * lines; the device reads as before. */
static void
test_lspci_hexdump_4k(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p,
	    "tests/data-uploads/pciutils-82576/lspci-vv/cap-pcie-2");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	const struct pd_pcidev *d = pcidev(&p, "0000:01:00.0");

	assert_int_equal(d->port, PD_PORT_ENDPOINT);
	assert_int_equal(d->mps_cap, 512);
	assert_int_equal(d->mps, 256);
	assert_int_equal(d->lnksta_width, 4);
	assert_true(d->has_dsn);
	assert_int_equal(d->sriov_total, 8);
	parsed_free(&p);
}

/* lspci -v: the Express capability is named ("Express Root Port",
 * without -vv's "(v2)") but no DevCap/LnkSta line follows: the link
 * fields are unknown, not zero, and the note says what to run; the
 * mid-file libkmod warning is no wrapped line. */
static void
test_lspci_one_v(void **state)
{
	struct parsed p;

	(void)state;
	parsed_analysed(&p, "tests/data-uploads/rk3568-2022/lspci-vv/"
	    "one-v-libkmod-midfile.txt");
	assert_int_equal(p.m->hosts->n_pcidevs, 9);
	assert_true(has_note(p.cov.members, "lspci-vv.no-details"));
	assert_true(has_note(p.cov.members, "lspci-vv.tool-message"));
	assert_false(has_note(p.cov.members, "lspci-vv.wrapped-lines"));
	const struct pd_pcidev *rp = pcidev(&p, "0000:00:00.0");

	assert_true(rp->has_express);
	assert_int_equal(rp->port, PD_PORT_ROOT);
	assert_int_equal(rp->caps_readable, PD_NO);
	assert_int_equal(pcidev(&p, "0000:01:00.0")->port, PD_PORT_UPSTREAM);
	assert_int_equal(pcidev(&p, "0000:04:00.0")->port, PD_PORT_ENDPOINT);
	assert_true(pcidev(&p, "0000:04:00.0")->has_dsn);
	assert_int_equal(count_findings(&p, "pcie.link-degraded"), 0);
	assert_int_equal(count_findings(&p, "pcie.mps-below-capability"), 0);
	parsed_free(&p);
}

/* /proc/cpuinfo of other kernels and architectures: the CPU count, one
 * type per CPU, and the architecture with its line. */
static void
test_cpuinfo_old_layouts(void **state)
{
	static const struct { const char *dir, *type, *arch; unsigned n; }
	w[] = {
		{ "rpi-b-armv6", "ARMv6-compatible processor rev 7 (v6l)",
		    "arm", 1 },
		{ "imx6-bonanza-armv7", "ARMv7 Processor rev 10 (v7l)", "arm",
		    2 },
		{ "power8-rhel73", "POWER8E (raw)", "powerpc", 16 },
		{ "s390x-zec12", "IBM 2827", "s390", 4 },
	};
	char path[256];
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		snprintf(path, sizeof(path), "tests/data-uploads/%s/cpuinfo/"
		    "cpuinfo", w[i].dir);
		parsed_read(&p, path);
		assert_string_equal(p.cov.members->format, "cpuinfo");
		assert_int_equal(p.cov.members->diag.worst, PD_OK);
		const struct pd_host *h = p.m->hosts;

		assert_int_equal(h->n_cpus, w[i].n);
		assert_int_equal(h->arch, PD_ARCH_OTHER);
		assert_string_equal(h->arch_name, w[i].arch);
		assert_non_null(h->ev_arch.member);
		assert_non_null(h->cpu_types);
		assert_string_equal(h->cpu_types->name, w[i].type);
		assert_int_equal(h->cpu_types->count, w[i].n);
		assert_null(h->cpu_types->next);
		parsed_free(&p);
	}
}

#define SOS "tests/data-uploads/openstack-sos/sos_commands/networking/"

/* bridge -s -s -d link show looks like ip link's header but lists only
 * bridge ports: its own format, and no interface comes from it. */
static void
test_bridge_link_adds_no_netdevs(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, SOS "bridge_-s_-s_-d_link_show");
	assert_string_equal(p.cov.members->format, "bridge-link");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	assert_int_equal(p.m->hosts->n_netdevs, 0);
	parsed_free(&p);
}

/* An OpenStack node's sosreport: the root namespace has 24 interfaces;
 * the namespaces' ip address show and ethtool outputs (fip-, qrouter-,
 * snat-) are identified but add none, and the bundle says why. */
static void
test_other_netns_not_counted(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, "tests/data-uploads/openstack-sos");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.m->hosts->n_netdevs, 24);
	assert_null(find_netdev(&p, "qr-3a70b31c-3f"));
	assert_null(find_netdev(&p, "fg-c8dcce74-c4"));
	assert_non_null(find_netdev(&p, "br-ens3"));
	assert_string_equal(find_netdev(&p, "ens3")->state, "UP");
	/* ip address show: ip link's blocks and their addresses */
	assert_string_equal(member_result(&p, "_ip_address_show")->format,
	    "ip-addr");
	bool noted = false;

	for (const struct pd_note *n = p.cov.bundle.notes; n; n = n->next)
		if (strcmp(n->id, "bundle.other-netns") == 0) {
			noted = true;
			assert_non_null(strstr(n->msg, "4 members"));
		}
	assert_true(noted);
	parsed_free(&p);
}

/* The file names sos gives a namespace's outputs (sos 3: in networking/,
 * sos 4: in networking/namespaces/NS/), from its networking plugin. */
static void
test_netns_paths(void **state)
{
	static const struct { const char *path, *ns; } w[] = {
		{ SOS "ip_netns_exec_qrouter-984c22fd-64b3-4fa1-8ddd-"
		    "87090f401ce5_ip_address_show",
		    "qrouter-984c22fd-64b3-4fa1-8ddd-87090f401ce5" },
		{ "sosreport-h/sos_commands/networking/namespaces/cni-1f2e/"
		    "ip_netns_exec_cni-1f2e_ip_-d_address_show", "cni-1f2e" },
		{ "sos_commands/networking/ip_netns_exec_ns_a_sysctl_-a",
		    "ns_a" },
		{ "sos_commands/networking/ip_netns_exec_fip-3298_ethtool_-S_"
		    "fg-c8dcce74-c4", "fip-3298" },
		{ SOS "ip_-s_-d_link", NULL },
		{ SOS "bridge_-s_-s_-d_link_show", NULL },
	};
	char ns[64];

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		bool is = pd_path_netns(w[i].path, ns, sizeof(ns));

		if (is != (w[i].ns != NULL) || (is && strcmp(ns, w[i].ns)))
			fail_msg("%s: %s", w[i].path, is ? ns : "not a netns");
	}
}

int
test_group_uploads(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pause_not_supported),
		cmocka_unit_test(test_lspci_first_line_not_a_device),
		cmocka_unit_test(test_lspci_hexdump_4k),
		cmocka_unit_test(test_lspci_one_v),
		cmocka_unit_test(test_cpuinfo_old_layouts),
		cmocka_unit_test(test_bridge_link_adds_no_netdevs),
		cmocka_unit_test(test_other_netns_not_counted),
		cmocka_unit_test(test_netns_paths),
	};
	return cmocka_run_group_tests_name("uploads", tests, NULL, NULL);
}

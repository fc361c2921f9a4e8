/* Interface readers, the counter alias table, rates, and the NIC rules. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "base/ifpath.h"
#include "finalize/counters.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/format.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

static void
test_ifpath(void **state)
{
	struct pd_arena *a = pd_arena_new();
	int64_t ms;

	(void)state;
	const struct pd_format *stats = pd_format_find("ethtool-S");
	const struct pd_format *settings = pd_format_find("ethtool");
	const struct pd_format *info = pd_format_find("ethtool-i");

	assert_string_equal(pd_ifname_from_path(a,
	    "h/ethtool-S/nic2@1764000000.txt", stats), "nic2");
	assert_string_equal(pd_ifname_from_path(a,
	    "sos/sos_commands/networking/ethtool_-S_bond0.123", stats),
	    "bond0.123");
	assert_string_equal(pd_ifname_from_path(a,
	    "sos_commands/networking/ethtool_eth0", settings), "eth0");
	/* the prefixes are the format's own: ethtool -i's stays for -S */
	assert_string_equal(pd_ifname_from_path(a,
	    "sos_commands/networking/ethtool_-i_eth0", stats), "ethtool_-i_eth0");
	assert_string_equal(pd_ifname_from_path(a, "ethtool-i/enp1s0.out",
	    info), "enp1s0");
	assert_null(pd_ifname_from_path(a, "h/ethtool-S.txt", stats));
	assert_false(pd_ifname_valid("mlx5-xdp-kernel5.15-nonzero"));
	assert_true(pd_ifname_valid("bond0.123"));
	assert_true(pd_time_from_path("x/nic2@1764000010.txt", &ms));
	assert_int_equal(ms, 1764000010000LL);
	assert_true(pd_time_from_path("nic2@1764000010.250", &ms));
	assert_int_equal(ms, 1764000010250LL);
	assert_false(pd_time_from_path("x/nic2.txt", &ms));
	assert_false(pd_time_from_path("x/user@host.txt", &ms));
	pd_arena_free(a);
}

static void
test_counter_delta_and_alias(void **state)
{
	uint64_t d;
	enum pd_ctr c;
	int tier;

	(void)state;
	assert_true(pd_counter_delta(10, 25, &d));
	assert_int_equal(d, 15);
	/* a 32-bit counter wrapped: 4294967000 -> 100 */
	assert_true(pd_counter_delta(4294967000ull, 100, &d));
	assert_int_equal(d, 396);
	/* a 64-bit counter went back: a reset, not a wrap */
	assert_false(pd_counter_delta(91234567890123ull, 5000, &d));
	assert_false(pd_counter_delta(1000, 999, &d));

	assert_true(pd_counter_alias("mlx5_core", "rx_bytes_phy", &c, &tier));
	assert_int_equal(c, PD_CTR_RX_BYTES_PORT);
	assert_true(pd_counter_alias("mlx5_core", "rx_out_of_buffer", &c,
	    &tier));
	assert_int_equal(c, PD_CTR_RX_DROPS);
	assert_false(pd_counter_alias("mlx5_core", "rx0_bytes", &c, &tier));
	assert_true(pd_counter_alias("bnxt_en", "[3]: rx_ucast_bytes", &c,
	    &tier));
	assert_int_equal(c, PD_CTR_RX_BYTES);
	assert_int_equal(tier, 0);	/* bnxt has no total: rings are it */
	assert_true(pd_counter_alias("virtio_net", "rx_queue_12_bytes", &c,
	    &tier));
	assert_int_equal(tier, 1);
	assert_false(pd_counter_alias("virtio_net", "rx_queue_x_bytes", &c,
	    &tier));
	assert_true(pd_counter_alias("i40e", "port.link_xoff_rx", &c, &tier));
	assert_int_equal(c, PD_CTR_PAUSE_RX);
	/* no driver known: the generic rows */
	assert_true(pd_counter_alias(NULL, "rx_discards_phy", &c, &tier));
	assert_int_equal(c, PD_CTR_RX_DROPS);
	assert_true(pd_counter_alias("e1000e", "rx_bytes", &c, &tier));
	assert_string_equal(pd_ctr_name(PD_CTR_PAUSE_TX), "pause frames sent");
}

static const struct pd_netdev *
netdev(const struct parsed *p, const char *name)
{
	const struct pd_netdev *nd = pd_host_find_netdev(p->m->hosts, name);

	if (!nd)
		fail_msg("no netdev %s", name);
	return nd;
}

static void
test_rates_reset_and_queues(void **state)
{
	const char *names[] = { "h/ethtool-S/eth0@100.txt",
		"h/ethtool-S/eth0@110.txt", "h/ethtool-S/eth0@120.txt",
		"h/ethtool-S/eth0@130.txt", "h/ethtool-i/eth0.txt",
		"h/ethtool-S/vnet0.txt" };
	const char *texts[] = {
		"NIC statistics:\n     rx_bytes: 1000\n     rx_missed_errors: 7\n",
		"NIC statistics:\n     rx_bytes: 51000\n     rx_missed_errors: 7\n",
		/* the driver was reloaded between 110 and 120 */
		"NIC statistics:\n     rx_bytes: 400\n     rx_missed_errors: 0\n",
		"NIC statistics:\n     rx_bytes: 20400\n     rx_missed_errors: 3\n",
		"driver: ixgbe\nversion: 5.1\nbus-info: 0000:03:00.0\n",
		"NIC statistics:\n     rx_queue_0_bytes: 100\n"
		    "     rx_queue_1_bytes: 23\n     tx_queue_0_bytes: 5\n",
	};
	struct parsed p;

	(void)state;
	parsed_members(&p, names, texts, 6);
	const struct pd_netdev *nd = netdev(&p, "eth0");
	const struct pd_ctr_value *rx = &nd->ctr[PD_CTR_RX_BYTES];

	assert_int_equal(nd->n_snaps, 4);
	assert_true(rx->is_rate);
	/* (50000 + 20000) bytes over the 20 s that had no reset */
	assert_true(rx->per_s > 3499.9 && rx->per_s < 3500.1);
	assert_int_equal(rx->total, 20400);
	assert_string_equal(nd->ctr[PD_CTR_RX_DROPS].ev_last.text,
	    "rx_missed_errors: 3");
	assert_non_null(p.m->hosts->notes);
	assert_non_null(strstr(p.m->hosts->notes->msg, "went backwards"));
	/* per-queue counters sum when there is no total */
	const struct pd_ctr_value *v = &netdev(&p, "vnet0")->ctr[PD_CTR_RX_BYTES];

	assert_false(v->is_rate);
	assert_int_equal(v->total, 123);
	assert_int_equal(v->n_names, 2);
	parsed_free(&p);
}

static void
test_corpus_readers(void **state)
{
	static const char *const dirs[] = { "ethtool-S", "ethtool-a",
		"ethtool-i", "ethtool-k", "ip-link", "sysctl" };
	char cmd[600], line[512];
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	for (size_t k = 0; k < PD_ARRAY_SIZE(dirs); k++) {
		snprintf(cmd, sizeof(cmd), "ls %s/%s", corpus_dir(), dirs[k]);
		FILE *ls = popen(cmd, "r");
		unsigned n = 0;

		while (fgets(line, sizeof(line), ls)) {
			char rel[600];

			line[strcspn(line, "\n")] = 0;
			snprintf(rel, sizeof(rel), "%s/%s", dirs[k], line);
			parsed_corpus(&p, rel);
			if (strcmp(p.cov.members->format, dirs[k]) != 0 ||
			    p.cov.members->diag.worst < PD_WARN)
				fail_msg("%s: format %s status %s", rel,
				    p.cov.members->format,
				    pd_status_name(p.cov.members->diag.worst));
			parsed_free(&p);
			n++;
		}
		pclose(ls);
		assert_true(n > 0);
	}
	parsed_corpus(&p, "ethtool-S/bnxt_en-sfp-10g-sr-perring.txt");
	assert_true(p.m->hosts->netdevs->ctr[PD_CTR_RX_BYTES].n_names > 3);
	parsed_free(&p);
	parsed_corpus(&p, "ethtool-S/virtio_net-hwstats-totals-truncated-"
	    "names.txt");
	assert_string_equal(p.cov.members->diag.notes->next->id,
	    "ethtool-S.duplicate-names");
	parsed_free(&p);
	parsed_corpus(&p, "ethtool-a/igb-enp3s0-rx-on-tx-off-short.txt");
	assert_int_equal(netdev(&p, "enp3s0")->pause_rx, PD_YES);
	assert_int_equal(netdev(&p, "enp3s0")->pause_tx, PD_NO);
	parsed_free(&p);
	parsed_corpus(&p, "ethtool-i/ice-e810.txt");
	assert_string_equal(p.m->hosts->netdevs->bus_info, "0000:63:00.0");
	parsed_free(&p);
	parsed_corpus(&p, "ethtool-k/insights-bond0-indented.txt");
	const struct pd_feature *f = pd_netdev_feature(netdev(&p, "bond0"),
	    "tx-checksum-ipv4");

	assert_non_null(f);
	assert_true(f->fixed);
	assert_int_equal(f->on, PD_NO);
	parsed_free(&p);
	parsed_corpus(&p, "ip-link/insights-ip-d-s-link-bond-ovs-vxlan-"
	    "gso65513.txt");
	assert_int_equal(netdev(&p, "eth0_1")->gso_max_size, 65513);
	assert_string_equal(netdev(&p, "eth0_1")->master, "bond0");
	assert_string_equal(netdev(&p, "br-int")->kind, "openvswitch");
	parsed_free(&p);
	parsed_corpus(&p, "sysctl/rhcos-el8-hyperv-vm-sysctl-a-full.txt");
	long v;

	assert_true(pd_host_sysctl_int(p.m->hosts, "net.ipv4.ip_forward", &v));
	assert_int_equal(v, 1);
	assert_string_equal(pd_host_sysctl(p.m->hosts,
	    "net.ipv4.tcp_rmem")->val, "4096\t87380\t6291456");
	parsed_free(&p);
}

static void
test_gx10_nic_findings(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_read(&p, "samples/gx10-before.tgz");
	parsed_analyse(&p);
	f = find_finding(&p, "nic.idle-pf", "nic5 (0002:01:00.0)");
	assert_non_null(f);
	assert_non_null(strstr(f->summary, "ARP flux"));
	assert_int_equal(f->gain_hi, 333);	/* 27.0 / 20.25 GB/s */
	assert_int_equal(f->gain_lo, 0);	/* 6.3 GB/s: links not the limit */
	assert_int_equal(f->confidence, 85);
	assert_non_null(strstr(f->fix[0], "arp_ignore=1"));
	f = find_finding(&p, "nic.lro-off", NULL);
	assert_non_null(f);
	assert_string_equal(f->subject, "nic2, nic4, nic6");
	assert_int_equal(f->gain_hi, 20);
	f = find_finding(&p, "pcie.mps-below-capability", "0000:01:00.0");
	assert_int_equal(f->confidence, 80);	/* 2 x 200G behind 13.5 GB/s */
	assert_int_equal(f->gain_hi, 113);
	const struct pd_card *c = p.m->hosts->cards;

	assert_non_null(c);
	assert_null(c->next);
	assert_int_equal(c->n_pfs, 4);
	assert_string_equal(c->pfs[2]->netdev->name, "nic5");
	assert_string_equal(c->pfs[2]->root_port->bdf, "0002:00:00.0");
	parsed_free(&p);

	parsed_read(&p, "samples/gx10-after.tgz");
	parsed_analyse(&p);
	assert_int_equal(p.fs.n, 0);
	parsed_free(&p);
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
not_iommu(const struct pd_rule *r, const void *ctx)
{
	(void)ctx;
	return strncmp(r->id, "iommu.", 6) != 0;
}

static void
test_sosreport_layout_agrees(void **state)
{
	struct parsed flat, sos;
	char *k1[32], *k2[32];

	(void)state;
	parsed_read(&flat, "samples/gx10-before.tgz");
	parsed_read(&sos, "samples/sosreport-gx10-20251124.tgz");
	/* the sosreport holds no profile: compare every other rule */
	const struct pd_rule_filter filter = { not_iommu, NULL };

	pd_engine_run(flat.m, &flat.fs, &filter);
	parsed_analyse(&sos);
	assert_int_equal(flat.fs.n, sos.fs.n);
	for (size_t i = 0; i < flat.fs.n; i++) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s %s", flat.fs.v[i]->rule->id,
		    flat.fs.v[i]->subject);
		k1[i] = strdup(buf);
		snprintf(buf, sizeof(buf), "%s %s", sos.fs.v[i]->rule->id,
		    sos.fs.v[i]->subject);
		k2[i] = strdup(buf);
	}
	qsort(k1, flat.fs.n, sizeof(char *), cmp_key);
	qsort(k2, sos.fs.n, sizeof(char *), cmp_key);
	for (size_t i = 0; i < flat.fs.n; i++) {
		assert_string_equal(k1[i], k2[i]);
		free(k1[i]);
		free(k2[i]);
	}
	/* one snapshot per interface: totals, and a lower confidence */
	assert_int_equal(find_finding(&sos, "nic.idle-pf", NULL)->confidence,
	    50);
	for (const struct pd_member_result *r = sos.cov.members; r; r = r->next)
		if (strstr(r->path, "sos_commands/") && !strstr(r->path, "_lo"))
			assert_string_not_equal(r->format, "unknown");
	assert_string_equal(member_result(&sos, "ethtool_-S_lo")->diag.notes->id,
	    "member.empty");
	parsed_free(&flat);
	parsed_free(&sos);
}

/* A 25 GbE dual-port card on Gen3 x8: the link outruns the ports, so
 * more MaxPayload gains nothing and the finding says so. */
static void
test_port_bound_link(void **state)
{
	const char *names[] = { "h/lspci-vv.txt", "h/ethtool-i/p0.txt",
		"h/ethtool-i/p1.txt", "h/ethtool/p0.txt", "h/ethtool/p1.txt" };
	const char *texts[] = {
	    "00:01.0 PCI bridge: Intel Corporation Root Port (prog-if 00 "
	    "[Normal decode])\n\tBus: primary=00, secondary=01, subordinate=01\n"
	    "\tCapabilities: [40] Express (v2) Root Port (Slot+), MSI 00\n"
	    "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0\n"
	    "\t\t\tMaxPayload 128 bytes, MaxReadReq 512 bytes\n"
	    "\t\tLnkCap:\tPort #1, Speed 8GT/s, Width x8, ASPM L1\n"
	    "\t\tLnkSta:\tSpeed 8GT/s, Width x8\n\n"
	    "01:00.0 Ethernet controller: Mellanox Technologies MT27710 Family "
	    "[ConnectX-4 Lx]\n\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
	    "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0\n"
	    "\t\t\tMaxPayload 128 bytes, MaxReadReq 512 bytes\n"
	    "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x8, ASPM not supported\n"
	    "\t\tLnkSta:\tSpeed 8GT/s, Width x8\n\n"
	    "01:00.1 Ethernet controller: Mellanox Technologies MT27710 Family "
	    "[ConnectX-4 Lx]\n\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
	    "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0\n"
	    "\t\t\tMaxPayload 128 bytes, MaxReadReq 512 bytes\n"
	    "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x8, ASPM not supported\n"
	    "\t\tLnkSta:\tSpeed 8GT/s, Width x8\n",
	    "driver: mlx5_core\nbus-info: 0000:01:00.0\n",
	    "driver: mlx5_core\nbus-info: 0000:01:00.1\n",
	    "Settings for p0:\n\tSpeed: 25000Mb/s\n\tLink detected: yes\n",
	    "Settings for p1:\n\tSpeed: 25000Mb/s\n\tLink detected: yes\n" };
	struct parsed p;

	(void)state;
	parsed_members(&p, names, texts, 5);
	parsed_analyse(&p);
	const struct pd_finding *f = find_finding(&p,
	    "pcie.mps-below-capability", "0000:01:00.0");

	assert_non_null(f);
	assert_int_equal(f->gain_hi, 0);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->confidence, 80);
	assert_non_null(strstr(f->summary, "gains nothing"));
	assert_int_equal(pd_finding_level(f), PD_LEVEL_INFO);
	parsed_free(&p);
}

/* A two-port ConnectX-7 by hand: PF p0 (0000:01:00.0) and PF p1
 * (0002:01:00.0), one Device Serial Number, each alone behind its own
 * Gen5 x4 root port at MaxPayload 128 (a payload ceiling of about
 * 13.5 GB/s per link), no port speeds known.  Two ethtool -S snapshots
 * 10 s apart: p0 receives rx0 bytes/s; p1 receives 1 kB/s while its port
 * counter moves port1 bytes/s; sysctl lines as given. */
static void
two_link_card(struct parsed *p, double rx0, double port1, const char *sysctl)
{
	static const char port_fmt[] =
	    "%s:00:00.0 PCI bridge: NVIDIA Corporation Device 22ce (prog-if 00 "
	    "[Normal decode])\n\tBus: primary=00, secondary=01, subordinate=01\n"
	    "\tCapabilities: [70] Express (v2) Root Port (Slot-), MSI 00\n"
	    "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0\n"
	    "\t\t\tMaxPayload 128 bytes, MaxReadReq 512 bytes\n"
	    "\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x4, ASPM L1\n"
	    "\t\tLnkSta:\tSpeed 32GT/s, Width x4\n\n"
	    "%s:01:00.0 Ethernet controller: Mellanox Technologies MT2910 "
	    "Family [ConnectX-7]\n"
	    "\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
	    "\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0\n"
	    "\t\t\tMaxPayload 128 bytes, MaxReadReq 512 bytes\n"
	    "\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported\n"
	    "\t\tLnkSta:\tSpeed 32GT/s, Width x4 (downgraded)\n"
	    "\tCapabilities: [500 v1] Device Serial Number "
	    "3c-1a-9f-00-03-ab-5e-2c\n\n";
	static const char snap_fmt[] = "NIC statistics:\n     rx_bytes: %.0f\n"
	    "     rx_bytes_phy: %.0f\n";
	char lspci[4096], snaps[4][128];
	const double base = 1e12;
	int n = snprintf(lspci, sizeof(lspci), port_fmt, "0000", "0000");

	snprintf(lspci + n, sizeof(lspci) - n, port_fmt, "0002", "0002");
	snprintf(snaps[0], sizeof(snaps[0]), snap_fmt, base, base);
	snprintf(snaps[1], sizeof(snaps[1]), snap_fmt, base + 10 * rx0,
	    base + 10 * rx0);
	snprintf(snaps[2], sizeof(snaps[2]), snap_fmt, base, base);
	snprintf(snaps[3], sizeof(snaps[3]), snap_fmt, base + 10e3,
	    base + 10 * port1);
	const char *names[] = { "h/lspci-vv.txt", "h/ethtool-i/p0.txt",
		"h/ethtool-i/p1.txt", "h/ethtool-S/p0@100.txt",
		"h/ethtool-S/p0@110.txt", "h/ethtool-S/p1@100.txt",
		"h/ethtool-S/p1@110.txt", "h/sysctl.txt" };
	const char *texts[] = { lspci,
		"driver: mlx5_core\nbus-info: 0000:01:00.0\n",
		"driver: mlx5_core\nbus-info: 0002:01:00.0\n",
		snaps[0], snaps[1], snaps[2], snaps[3], sysctl };

	parsed_members(p, names, texts, PD_ARRAY_SIZE(names));
	parsed_analyse(p);
}

/* ARP flux needs both: the idle PF's port counter climbing, and
 * arp_ignore 0 (net.ipv4.conf.all and the interface, the larger wins). */
static void
test_idle_pf_arp_flux(void **state)
{
	static const struct {
		double port1;
		const char *sysctl, *says;
		bool flux;
	} cases[] = {
		{ 5e9, "net.ipv4.conf.all.arp_ignore = 0\n", "ARP flux", true },
		{ 5e9, "net.ipv4.conf.all.arp_ignore = 1\n",
		    "although arp_ignore = 1", false },
		{ 5e9, "net.ipv4.conf.all.arp_ignore = 0\n"
		    "net.ipv4.conf.p1.arp_ignore = 2\n",
		    "although arp_ignore = 2", false },
		/* the port idle too: nothing reaches it at all */
		{ 0, "net.ipv4.conf.all.arp_ignore = 0\n",
		    "nothing connects through it", false },
	};
	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++) {
		struct parsed p;

		two_link_card(&p, 5e9, cases[i].port1, cases[i].sysctl);
		const struct pd_finding *f = find_finding(&p, "nic.idle-pf",
		    "p1 (0002:01:00.0)");

		if (!f)
			fail_msg("case %zu: no nic.idle-pf finding", i);
		if (!strstr(f->summary, cases[i].says) ||
		    (strstr(f->summary, "ARP flux") != NULL) != cases[i].flux)
			fail_msg("case %zu: %s", i, f->summary);
		/* the sysctl fix only with ARP flux */
		assert_int_equal(f->n_fix, cases[i].flux ? 4 : 1);
		assert_int_equal(strstr(f->fix[0], "arp_ignore=1") != NULL,
		    cases[i].flux);
		parsed_free(&p);
	}
}

/* The idle PF's gain, exactly: both links double one link's capacity
 * (+100 %); the low end is 95 % of that when the busy link already
 * carries 80 % or more of what it can, else 0. */
static void
test_idle_pf_gain_near_the_limit(void **state)
{
	static const struct { double rx0; int lo; } cases[] = {
		{ 12e9, 950 },	/* 12 of 13.5 GB/s: near the limit */
		{ 10e9, 0 },	/* 10 of 13.5 GB/s: below 80 % of it */
	};
	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++) {
		struct parsed p;

		two_link_card(&p, cases[i].rx0, 0,
		    "net.ipv4.conf.all.arp_ignore = 1\n");
		const struct pd_finding *f = find_finding(&p, "nic.idle-pf",
		    "p1 (0002:01:00.0)");

		assert_non_null(f);
		assert_int_equal(f->gain_hi, 1000);
		assert_int_equal(f->gain_lo, cases[i].lo);
		assert_int_equal(f->confidence, 85);
		assert_non_null(strstr(f->gain_basis, "at most 13.5 GB/s now and "
		    "27.0 GB/s through every PF"));
		parsed_free(&p);
	}
}

int
test_group_nic(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifpath),
		cmocka_unit_test(test_counter_delta_and_alias),
		cmocka_unit_test(test_rates_reset_and_queues),
		cmocka_unit_test(test_corpus_readers),
		cmocka_unit_test(test_gx10_nic_findings),
		cmocka_unit_test(test_sosreport_layout_agrees),
		cmocka_unit_test(test_port_bound_link),
		cmocka_unit_test(test_idle_pf_arp_flux),
		cmocka_unit_test(test_idle_pf_gain_near_the_limit),
	};
	return cmocka_run_group_tests_name("nic", tests, NULL, NULL);
}

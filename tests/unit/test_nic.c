/* Interface readers, the counter alias table, rates, and the NIC rules. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "base/ifpath.h"
#include "finalize/counters.h"
#include "finalize/finalize.h"
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
	parsed_analysed(&p, "samples/gx10-before.tgz");
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

	parsed_analysed(&p, "samples/gx10-after.tgz");
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
	return strncmp(r->id, "iommu.", 6) != 0 &&
	    strncmp(r->id, "workload.", 9) != 0 &&
	    strcmp(r->id, "nic.drops-by-rate") != 0;
}

static void
test_sosreport_layout_agrees(void **state)
{
	struct parsed flat, sos;
	char *k1[32], *k2[32];

	(void)state;
	parsed_read(&flat, "samples/gx10-before.tgz");
	parsed_read(&sos, "samples/sosreport-gx10-20251124.tgz");
	/* the sosreport holds no profile, no benchmark output and one
	 * ethtool -S snapshot (no drop rates): compare every other rule */
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

/* ethtool -g and -l (tests/data, origins in tests/data/SOURCES.md).
 * One sample read alone: its interface, and the note it should carry
 * (none: status ok). */
static const struct pd_netdev *
read_sample(struct parsed *p, const char *dir, const char *file,
    const char *ifname, const char *note)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/data/%s/%s", dir, file);
	parsed_read(p, path);
	assert_int_equal(p->rc, 0);
	assert_string_equal(p->cov.members->format, dir);
	if (note && !has_note(p->cov.members, note))
		fail_msg("%s: no note %s", path, note);
	if (!note && p->cov.members->diag.worst != PD_OK)
		fail_msg("%s: status %s (%s)", path,
		    pd_status_name(p->cov.members->diag.worst),
		    p->cov.members->diag.notes->msg);
	return netdev(p, ifname);
}

static void
test_ring_samples(void **state)
{
	static const struct {
		const char *file, *ifname, *note, *error;
		int64_t max_rx, max_jumbo, max_tx, cur_rx, cur_jumbo, cur_tx;
		enum pd_tri tx_push, rx_push;
	} w[] = {
		{ "ixgbe-ioctl.txt", "eth2", NULL, NULL,
		    4096, 0, 4096, 4096, 0, 512, PD_UNKNOWN, PD_UNKNOWN },
		{ "netxen_nic-ioctl-jumbo.txt", "eth4", NULL, NULL,
		    8192, 1024, 1024, 4096, 1024, 1024, PD_UNKNOWN, PD_UNKNOWN },
		{ "r8152-netlink-6.2.txt", "enp9s0u2u1u2", NULL, NULL,
		    4096, -1, -1, 100, -1, -1, PD_NO, PD_UNKNOWN },
		{ "e1000e-netlink-6.4plus.txt", "enp3s0f0", NULL, NULL,
		    4096, -1, 4096, 256, -1, 256, PD_NO, PD_NO },
		{ "atlantic-netlink-6.15-noheaders.txt", "eth0",
		    "ethtool-g.no-blocks", NULL,
		    8184, -1, 8184, 2048, -1, 4096, PD_NO, PD_NO },
		{ "bond-vlan-ioctl-enodev-stderr-first.txt", "bond0.102@bond0",
		    "ethtool-g.error", "No such device",
		    -1, -1, -1, -1, -1, -1, PD_UNKNOWN, PD_UNKNOWN },
		{ "ethtool_-g_lo", "lo", "ethtool-g.unsupported",
		    "Operation not supported",
		    -1, -1, -1, -1, -1, -1, PD_UNKNOWN, PD_UNKNOWN },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		const struct pd_netdev *nd = read_sample(&p, "ethtool-g",
		    w[i].file, w[i].ifname, w[i].note);

		assert_int_equal(nd->rings_max.rx, w[i].max_rx);
		assert_int_equal(nd->rings_max.rx_jumbo, w[i].max_jumbo);
		assert_int_equal(nd->rings_max.tx, w[i].max_tx);
		assert_int_equal(nd->rings_cur.rx, w[i].cur_rx);
		assert_int_equal(nd->rings_cur.rx_jumbo, w[i].cur_jumbo);
		assert_int_equal(nd->rings_cur.tx, w[i].cur_tx);
		assert_int_equal(nd->tx_push, w[i].tx_push);
		assert_int_equal(nd->rx_push, w[i].rx_push);
		/* n/a everywhere else in these samples */
		assert_int_equal(nd->rings_cur.rx_buf_len, -1);
		assert_int_equal(nd->rings_max.hds_thresh, -1);
		assert_int_equal(nd->tcp_data_split, PD_UNKNOWN);
		assert_non_null(nd->ev_rings.member);
		if (w[i].error)
			assert_string_equal(nd->rings_error, w[i].error);
		else
			assert_null(nd->rings_error);
		assert_int_equal(!!(p.m->hosts->have & PD_HAVE_RINGS),
		    w[i].error == NULL);
		parsed_free(&p);
	}
	/* the header is the evidence; the error line came first */
	read_sample(&p, "ethtool-g", w[5].file, w[5].ifname, w[5].note);
	assert_int_equal(netdev(&p, w[5].ifname)->ev_rings.line, 2);
	parsed_free(&p);
}

static void
test_channel_samples(void **state)
{
	static const struct {
		const char *file, *ifname, *note, *error;
		int64_t max[4], cur[4];	/* rx, tx, other, combined */
	} w[] = {
		{ "virtio_net-ioctl.txt", "ens3", NULL, NULL,
		    { 0, 0, 0, 1 }, { 0, 0, 0, 1 } },
		{ "ixgbe-netlink.txt", "eno1", NULL, NULL,
		    { -1, -1, 1, 63 }, { -1, -1, 1, 8 } },
		{ "rx-tx-combined-netlink.txt", "ens10f0", NULL, NULL,
		    { 64, 64, -1, 64 }, { 0, 0, -1, 64 } },
		{ "other-combined-netlink-spaces.txt", "ens3f0", NULL, NULL,
		    { -1, -1, 1, 64 }, { -1, -1, 1, 1 } },
		{ "vpn0-netlink-6.15-noheaders.txt", "vpn0",
		    "ethtool-l.no-blocks", NULL,
		    { -1, -1, -1, 1 }, { -1, -1, -1, 0 } },
		{ "veth-bridge-veth-netlink.txt", "v1",
		    "ethtool-l.unnamed-error", NULL,
		    { 2, 2, -1, -1 }, { 1, 1, -1, -1 } },
		{ "netxen_nic-ioctl-unsupported-pre5.14.txt", "eth4",
		    "ethtool-l.unsupported", "Operation not supported",
		    { -1, -1, -1, -1 }, { -1, -1, -1, -1 } },
		{ "ethtool_-l_lo", "lo", "ethtool-l.unsupported",
		    "Operation not supported",
		    { -1, -1, -1, -1 }, { -1, -1, -1, -1 } },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		const struct pd_netdev *nd = read_sample(&p, "ethtool-l",
		    w[i].file, w[i].ifname, w[i].note);
		const struct pd_channels *c[2] = { &nd->channels_max,
			&nd->channels_cur };

		for (int b = 0; b < 2; b++) {
			const int64_t *want = b ? w[i].cur : w[i].max;

			assert_int_equal(c[b]->rx, want[0]);
			assert_int_equal(c[b]->tx, want[1]);
			assert_int_equal(c[b]->other, want[2]);
			assert_int_equal(c[b]->combined, want[3]);
		}
		if (w[i].error)
			assert_string_equal(nd->channels_error, w[i].error);
		else
			assert_null(nd->channels_error);
		assert_int_equal(!!(p.m->hosts->have & PD_HAVE_CHANNELS),
		    w[i].error == NULL);
		parsed_free(&p);
	}
	/* several interfaces in one member: v0, then br0's error, then v1 */
	read_sample(&p, "ethtool-l", w[5].file, "v0", w[5].note);
	assert_int_equal(netdev(&p, "v0")->channels_cur.rx, 1);
	assert_null(pd_host_find_netdev(p.m->hosts, "br0"));
	assert_int_equal(p.m->hosts->n_netdevs, 2);
	parsed_free(&p);
}

/* Several outputs in one member, as a loop over interfaces writes them
 * to one file: three real samples one after the other, the first with
 * its error before its header. */
static void
test_ring_outputs_concatenated(void **state)
{
	static const char *const files[] = {
		"tests/data/ethtool-g/bond-vlan-ioctl-enodev-stderr-first.txt",
		"tests/data/ethtool-g/ixgbe-ioctl.txt",
		"tests/data/ethtool-g/e1000e-netlink-6.4plus.txt" };
	char text[2048] = "";
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(files); i++) {
		size_t len;
		unsigned char *b = slurp(files[i], &len);

		assert_non_null(b);
		assert_true(strlen(text) + len < sizeof(text));
		strncat(text, (const char *)b, len);
		free(b);
	}
	parsed_text(&p, "h/ethtool-g/all.txt", text);
	assert_string_equal(p.cov.members->format, "ethtool-g");
	assert_int_equal(p.m->hosts->n_netdevs, 3);
	assert_string_equal(netdev(&p, "bond0.102@bond0")->rings_error,
	    "No such device");
	assert_null(netdev(&p, "eth2")->rings_error);
	assert_int_equal(netdev(&p, "eth2")->rings_cur.tx, 512);
	assert_int_equal(netdev(&p, "enp3s0f0")->rings_cur.rx, 256);
	assert_int_equal(netdev(&p, "enp3s0f0")->rx_push, PD_NO);
	assert_null(pd_host_find_netdev(p.m->hosts, "all"));
	parsed_free(&p);
}

/* Error shapes no captured sample shows, written from ethtool's own
 * strings (ethtool.c do_gring and do_gchannels, netlink/nlsock.c): the
 * terminal's order (header first), the one-line channel error of
 * ethtool 5.14 on, and a missing device's two netlink errors. */
static void
test_ring_channel_errors(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "h/ethtool-g/lo.txt", "Ring parameters for lo:\n"
	    "Cannot get device ring settings: Operation not supported\n");
	assert_string_equal(netdev(&p, "lo")->rings_error,
	    "Operation not supported");
	assert_int_equal(netdev(&p, "lo")->ev_rings.line, 1);
	assert_int_equal(p.cov.members->diag.notes->line, 2);
	assert_string_equal(p.cov.members->diag.notes->id,
	    "ethtool-g.unsupported");
	parsed_free(&p);

	parsed_text(&p, "sosreport-h/sos_commands/networking/ethtool_-l_br0",
	    "Cannot get device channel parameters: Operation not supported\n"
	    "Channel parameters for br0:\n");
	assert_string_equal(netdev(&p, "br0")->channels_error,
	    "Operation not supported");
	parsed_free(&p);

	parsed_text(&p, "sosreport-h/sos_commands/networking/ethtool_-g_eno9",
	    "netlink error: no device matches name (offset 24)\n"
	    "netlink error: No such device\n");
	assert_string_equal(p.cov.members->format, "ethtool-g");
	assert_string_equal(netdev(&p, "eno9")->rings_error, "No such device");
	assert_string_equal(p.cov.members->diag.notes->id, "ethtool-g.error");
	parsed_free(&p);
	/* with no path that names the command it is nobody's */
	parsed_text(&p, "notes/errors.txt",
	    "netlink error: Operation not supported\n");
	assert_string_equal(p.cov.members->format, "unknown");
	parsed_free(&p);
	parsed_text(&p, "h/ethtool-g/ethtool-g.txt",
	    "netlink error: Operation not supported\n");
	assert_true(has_note(p.cov.members, "ethtool-g.no-ifname"));
	assert_int_equal(p.m->hosts->n_netdevs, 0);
	parsed_free(&p);
}

static void
test_ring_channel_bad_lines(void **state)
{
	struct parsed p;
	struct pd_diag d;

	(void)state;
	parsed_text(&p, "h/ethtool-g/x0.txt", "Ring parameters for x0:\n"
	    "Pre-set maximums:\nRX:\t\tlots\nTX:\t\t99999999999\n"
	    "Current hardware settings:\nRX:\t\t512\nTX Push:\t1\n"
	    "TCP data split:\tunknown(3)\n\n");
	const struct pd_netdev *nd = netdev(&p, "x0");
	unsigned bad = 0;

	for (const struct pd_note *n = p.cov.members->diag.notes; n;
	    n = n->next)
		bad += strcmp(n->id, "ethtool-g.bad-value") == 0;
	assert_int_equal(bad, 3);	/* "unknown(3)" is ethtool's own */
	assert_int_equal(nd->rings_max.rx, -1);
	assert_int_equal(nd->rings_max.tx, -1);
	assert_int_equal(nd->rings_cur.rx, 512);
	assert_int_equal(nd->tx_push, PD_UNKNOWN);
	parsed_free(&p);

	parsed_text(&p, "h/ethtool-l/c0.txt", "Channel parameters for c0:\n"
	    "Current hardware settings:\nCombined:\t4\nCombined:\t5\n");
	assert_true(has_note(p.cov.members, "ethtool-l.bad-line"));
	assert_int_equal(netdev(&p, "c0")->channels_cur.combined, 4);
	parsed_free(&p);

	parsed_text(&p, "h/ethtool-g/e0.txt", "Ring parameters for e0:\n");
	assert_true(has_note(p.cov.members, "ethtool-g.empty"));
	parsed_free(&p);

	/* a member cannot add interfaces without end */
	size_t cap = 5000 * 40, used = 0;
	char *many = malloc(cap);

	assert_non_null(many);
	for (unsigned i = 0; i < 5000; i++)
		used += (size_t)snprintf(many + used, cap - used,
		    "Channel parameters for q%u:\nRX:\t1\n", i);
	parsed_text(&p, "h/ethtool-l/q.txt", many);
	assert_int_equal(p.m->hosts->n_netdevs, 4096);
	assert_true(has_note(p.cov.members, "ethtool-l.too-many"));
	parsed_free(&p);
	free(many);

	/* forced (as fuzz_format does): no header, nothing read */
	struct pd_model *m = pd_model_new();

	pd_diag_init(&d, pd_model_arena(m), "x.txt");
	pd_member_parse_as(m, pd_format_find("ethtool-g"), "x.txt", "RX: 5\n",
	    6, &d);
	assert_string_equal(d.notes->id, "ethtool-g.no-header");
	assert_null(m->hosts->netdevs);
	pd_model_free(m);

	char buf[PD_NEED_TEXT_MAX];

	assert_string_equal(pd_need_text(PD_HAVE_RINGS, buf),
	    "NIC ring sizes: ethtool -g IF output");
	assert_string_equal(pd_need_text(PD_HAVE_CHANNELS, buf),
	    "NIC channel counts: ethtool -l IF output");
}

/* A guest VM is not asked for lspci -vv: the PCIe and NIC rules cannot
 * apply to its virtio NIC, and say so once; its host is told what to
 * add as before. */
static void
test_guest_not_applicable(void **state)
{
	struct parsed p;
	struct pd_report r;
	unsigned guest_na = 0;

	(void)state;
	parsed_read(&p, "samples/pve-gso-before.tgz");
	const struct pd_host *g = p.m->hosts, *pve = g->next;

	assert_string_equal(g->name, "guest");
	assert_non_null(g->guest_why);
	assert_non_null(strstr(g->guest_why, "virtio_net"));
	assert_null(pve->guest_why);
	pd_report_build(&r, "pve", p.m, &p.cov, &p.fs, NULL);
	for (const struct pd_not_evaluated *n = r.not_evaluated; n;
	    n = n->next)
		assert_false(n->host == g && n->rule->physical);
	for (const struct pd_not_evaluated *n = r.not_applicable; n;
	    n = n->next) {
		assert_ptr_equal(n->host, g);
		guest_na++;
	}
	assert_int_equal(guest_na, 11);	/* with nvme.paths-per-pf */
	parsed_free(&p);
}

/* nic.ring-size on the samples: rx_out_of_buffer climbs by 41230 in
 * 10 s on nic2 (4123/s) while rx_packets climbs by 7898877 (789888/s)
 * and its ring is 1024 of 8192: the drops are 0.522 % of the packets,
 * a bound of +0.5 %.  The idle twin has the same rings and counters
 * that stand still: nothing. */
static void
test_ring_size_fires(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_analysed(&p, "samples/gx10-rings-drops.tgz");
	assert_int_equal(count_findings(&p, "nic.ring-size"), 1);
	f = find_finding(&p, "nic.ring-size", "nic2");
	assert_non_null(f);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 5);
	assert_int_equal(f->confidence, 60);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_non_null(strstr(f->summary, "4123 received packets/s"));
	assert_non_null(strstr(f->summary, "rx_out_of_buffer"));
	assert_non_null(strstr(f->summary, "1024 entries of a pre-set "
	    "maximum 8192"));
	assert_non_null(strstr(f->summary, "0.522 %"));
	assert_string_equal(f->fix[0], "sudo ethtool -G nic2 rx 8192");
	assert_non_null(strstr(f->fix[1], "ethtool.ring-rx 8192"));
	assert_non_null(strstr(f->fix[1], "RxBufferSize=8192"));
	assert_non_null(strstr(f->fix[1], "udev"));
	assert_string_equal(f->ev[2].text, "rx_out_of_buffer: 41242");
	parsed_free(&p);

	parsed_analysed(&p, "samples/gx10-rings-idle.tgz");
	assert_true(p.m->hosts->have & PD_HAVE_RINGS);
	assert_int_equal(netdev(&p, "nic2")->rings_cur.rx, 1024);
	assert_int_equal(netdev(&p, "nic2")->rings_max.rx, 8192);
	assert_int_equal(count_findings(&p, "nic.ring-size"), 0);
	parsed_free(&p);
}

/* Drops that move but a ring already at its maximum, and since-boot
 * drops with no second snapshot: neither fires. */
static void
test_ring_size_quiet(void **state)
{
	static const char *const names[] = { "h/ethtool-g/eth0.txt",
		"h/ethtool-S/eth0@1764000000.txt",
		"h/ethtool-S/eth0@1764000010.txt", "h/ethtool-i/eth0.txt" };
	const char *texts[] = {
		"Ring parameters for eth0:\nPre-set maximums:\nRX:\t4096\n"
		"TX:\t4096\nCurrent hardware settings:\nRX:\t4096\nTX:\t512\n",
		"NIC statistics:\n     rx_packets: 1000\n"
		"     rx_missed_errors: 10\n",
		"NIC statistics:\n     rx_packets: 1001000\n"
		"     rx_missed_errors: 5010\n",
		"driver: ixgbe\nbus-info: 0000:05:00.0\n" };
	struct parsed p;

	(void)state;
	parsed_members(&p, names, texts, 4);
	parsed_analyse(&p);
	assert_true(netdev(&p, "eth0")->ctr[PD_CTR_RX_DROPS].is_rate);
	assert_int_equal(count_findings(&p, "nic.ring-size"), 0);
	parsed_free(&p);
	/* below the maximum: 500 drops/s of 100000 packets/s, +0.5 % */
	texts[0] = "Ring parameters for eth0:\nPre-set maximums:\nRX:\t4096\n"
	    "TX:\t4096\nCurrent hardware settings:\nRX:\t512\nTX:\t512\n";
	parsed_members(&p, names, texts, 4);
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "nic.ring-size"), 1);
	assert_int_equal(find_finding(&p, "nic.ring-size", "eth0")->gain_hi,
	    5);
	parsed_free(&p);
	/* one snapshot: since-boot drops only */
	parsed_members(&p, names, texts, 2);
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "nic.ring-size"), 0);
	parsed_free(&p);
}

/* nic.tso-off on the guest of the Proxmox samples: fires with TSO off,
 * not with it on; standalone, 0 to +1.7 % (1.73 -> 1.76 Gbit/s). */
static void
test_tso_off_guest(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_analysed(&p, "samples/pve-tso-off.tgz");
	assert_int_equal(count_findings(&p, "nic.tso-off"), 1);
	f = find_finding(&p, "nic.tso-off", "ens18");
	assert_non_null(f);
	assert_string_equal(f->host->name, "guest");
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 17);
	assert_int_equal(f->confidence, 60);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_string_equal(f->fix[1], "sudo ethtool -K ens18 tso on gso on");
	assert_null(strstr(f->gain_basis, "tcp.gso-mismatch"));
	assert_int_equal(count_findings(&p, "tcp.gso-mismatch"), 0);
	parsed_free(&p);
	parsed_analysed(&p, "samples/pve-tso-on.tgz");
	assert_int_equal(count_findings(&p, "nic.tso-off"), 0);
	parsed_free(&p);
}

/* The guest at gso_max_size 65536 behind enp3s0 at 64000 with TSO off:
 * both rules fire, and the TSO finding says the GSO fix is the larger
 * and stays off the ladder. */
static void
test_tso_off_with_gso_mismatch(void **state)
{
	static const char *const files[] = {
		"samples/bundles/pve-gso-before/pve/ip-link.txt",
		"samples/bundles/pve-gso-before/pve/uname.txt",
		"samples/bundles/pve-gso-before/guest/ip-link.txt",
		"samples/bundles/pve-gso-before/guest/uname.txt",
		"samples/bundles/pve-gso-before/guest/ethtool-i/ens18.txt",
		"samples/bundles/pve-tso-off/guest/ethtool-k/ens18.txt" };
	const char *names[PD_ARRAY_SIZE(files)];
	const char *texts[PD_ARRAY_SIZE(files)];
	unsigned char *b[PD_ARRAY_SIZE(files)];
	struct parsed p;
	const struct pd_finding *f;
	size_t len;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(files); i++) {
		b[i] = slurp(files[i], &len);
		assert_non_null(b[i]);
		names[i] = strstr(files[i], "/pve/") ? strstr(files[i], "pve/") :
		    strstr(files[i], "guest/");
		texts[i] = (const char *)b[i];
	}
	parsed_members(&p, names, texts, PD_ARRAY_SIZE(files));
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "tcp.gso-mismatch"), 1);
	f = find_finding(&p, "nic.tso-off", "ens18");
	assert_non_null(f);
	assert_non_null(strstr(f->gain_basis, "tcp.gso-mismatch"));
	assert_non_null(strstr(f->gain_basis, "is the larger (+21 to +23 %"));
	assert_non_null(strstr(f->gain_basis, "64000 bytes"));
	assert_non_null(strstr(f->gain_basis, "stays off it"));
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	parsed_free(&p);
	for (size_t i = 0; i < PD_ARRAY_SIZE(files); i++)
		free(b[i]);
}

/* A host of its own with TSO off: fires only when a capture on the NIC
 * shows a bulk flow leaving in MSS-sized segments while GRO is on. */
static void
test_tso_off_sender_capture(void **state)
{
	static const char *const names[] = { "h/ethtool-k/eth0.txt",
		"h/ethtool-i/eth0.txt" };
	const char *texts[] = { "Features for eth0:\n"
		"tcp-segmentation-offload: off\n"
		"generic-segmentation-offload: on\n"
		"generic-receive-offload: on\n",
		"driver: ixgbe\nbus-info: 0000:05:00.0\n" };
	const struct pd_rule *r = pd_rule_find("nic.tso-off");
	struct parsed p;

	(void)state;
	assert_non_null(r);
	for (int variant = 0; variant < 4; variant++) {
		texts[0] = variant == 3 ? "Features for eth0:\n"
		    "tcp-segmentation-offload: off\n"
		    "generic-receive-offload: off\n" : "Features for eth0:\n"
		    "tcp-segmentation-offload: off\n"
		    "generic-segmentation-offload: on\n"
		    "generic-receive-offload: on\n";
		parsed_members(&p, names, texts, 2);
		struct pd_host *h = p.m->hosts;
		struct pd_netdev *nd = (struct pd_netdev *)netdev(&p, "eth0");

		/* no capture: ethtool -k alone does not fire off a guest */
		r->check(r, h, &p.fs);
		assert_int_equal(count_findings(&p, "nic.tso-off"), 0);
		struct pd_capture *c = pd_host_capture(h, pd_model_arena(p.m),
		    "h/pcap/eth0.pcap", "eth0");
		struct pd_flow_dir *d = &c->flows[0].dir[0];

		c->netdev = nd;
		c->n_flows = 1;
		d->segs = variant == 2 ? 999 : 5000;
		d->bytes = d->segs * 1448;
		d->mss = 1448;
		d->max_payload = 1448;
		d->super_segs = variant == 1 ? 3 : 0;
		c->flows[0].dir[1].segs = 2500;
		r->check(r, h, &p.fs);
		/* 1: super-packets leave; 2: under 1000 segments; 3: GRO off,
		 * so the flow may be received */
		assert_int_equal(count_findings(&p, "nic.tso-off"),
		    variant == 0);
		if (variant == 0) {
			const struct pd_finding *f = find_finding(&p,
			    "nic.tso-off", "eth0");

			assert_int_equal(f->confidence, 50);
			assert_int_equal(f->gain_hi, 17);
			assert_non_null(strstr(f->summary, "5000 segments of at "
			    "most the MSS (1448 bytes)"));
			assert_null(strstr(f->fix[0], "guest"));
		}
		parsed_free(&p);
	}
}

int
test_group_nic(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifpath),
		cmocka_unit_test(test_guest_not_applicable),
		cmocka_unit_test(test_counter_delta_and_alias),
		cmocka_unit_test(test_rates_reset_and_queues),
		cmocka_unit_test(test_corpus_readers),
		cmocka_unit_test(test_gx10_nic_findings),
		cmocka_unit_test(test_sosreport_layout_agrees),
		cmocka_unit_test(test_port_bound_link),
		cmocka_unit_test(test_idle_pf_arp_flux),
		cmocka_unit_test(test_idle_pf_gain_near_the_limit),
		cmocka_unit_test(test_ring_samples),
		cmocka_unit_test(test_channel_samples),
		cmocka_unit_test(test_ring_outputs_concatenated),
		cmocka_unit_test(test_ring_channel_errors),
		cmocka_unit_test(test_ring_channel_bad_lines),
		cmocka_unit_test(test_ring_size_fires),
		cmocka_unit_test(test_ring_size_quiet),
		cmocka_unit_test(test_tso_off_guest),
		cmocka_unit_test(test_tso_off_with_gso_mismatch),
		cmocka_unit_test(test_tso_off_sender_capture),
	};
	return cmocka_run_group_tests_name("nic", tests, NULL, NULL);
}

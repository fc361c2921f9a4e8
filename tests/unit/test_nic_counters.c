/* ethtool -S per-queue and drop counters: the alias tables on the
 * drivers' names and on real outputs, the rates between snapshots, and
 * the thresholds of nic.rx-queue-imbalance and nic.drops-by-rate on
 * both sides. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "helpers.h"
#include "finalize/counters.h"
#include "pathdoctor/rule.h"
#include "rules/nic_counters.h"

static void
rxq_is(const char *drv, const char *name, unsigned want)
{
	unsigned q = 12345;

	if (!pd_rxq_alias(drv, name, &q))
		fail_msg("%s: '%s' is not a queue counter", drv ? drv : "-",
		    name);
	assert_int_equal(q, want);
}

static void
test_rxq_aliases(void **state)
{
	unsigned q;

	(void)state;
	rxq_is("mlx5_core", "rx0_bytes", 0);
	rxq_is("mlx5_core", "rx19_bytes", 19);
	rxq_is("ice", "rx_queue_7_bytes", 7);
	rxq_is("ice", "rx-queue-3.rx_bytes", 3);
	rxq_is("i40e", "rx-12.bytes", 12);
	rxq_is("ixgbe", "rx_queue_63_bytes", 63);
	rxq_is("igb", "rx_queue_1_bytes", 1);
	rxq_is("igc", "rx_queue_3_bytes", 3);
	rxq_is("bnxt_en", "[2]: rx_ucast_bytes", 2);
	rxq_is("bnxt_en", "[2]: rx_mcast_bytes", 2);
	rxq_is("bnxt_en", "[2]: rx_bcast_bytes", 2);
	rxq_is("virtio_net", "rx_queue_0_bytes", 0);
	rxq_is("ena", "queue_5_rx_bytes", 5);
	rxq_is("bnx2x", "[1]: rx_bytes", 1);
	rxq_is("be2net", "rxq0: rx_bytes", 0);
	/* any other driver, or none known: the unambiguous names */
	rxq_is(NULL, "rx_queue_4_bytes", 4);
	rxq_is("some_nic", "rx-2.bytes", 2);
	rxq_is(NULL, "queue_9_rx_bytes", 9);
	/* a number past any bound saturates instead of wrapping */
	rxq_is(NULL, "rx_queue_99999999999999_bytes", 4294967295u);
	/* not receive queue bytes */
	assert_false(pd_rxq_alias("mlx5_core", "rx_bytes", &q));
	assert_false(pd_rxq_alias("mlx5_core", "tx0_bytes", &q));
	assert_false(pd_rxq_alias("mlx5_core", "rx0_xsk_bytes", &q));
	assert_false(pd_rxq_alias("mlx5_core", "rx0_packets", &q));
	assert_false(pd_rxq_alias("mlx5_core", "ptp_rq0_bytes", &q));
	assert_false(pd_rxq_alias("ice", "tx_queue_0_bytes", &q));
	assert_false(pd_rxq_alias("ena", "queue_0_tx_bytes", &q));
	assert_false(pd_rxq_alias("bnxt_en", "[0]: tx_ucast_bytes", &q));
	assert_false(pd_rxq_alias(NULL, "rx_queue__bytes", &q));
	/* a driver with rows uses only its own: mlx5 has no rx_queue_N */
	assert_false(pd_rxq_alias("mlx5_core", "rx_queue_0_bytes", &q));
	/* mlx5's name is not generic */
	assert_false(pd_rxq_alias(NULL, "rx0_bytes", &q));
}

static void
drop_is(const char *drv, const char *name, enum pd_drop want, int tier)
{
	enum pd_drop c;
	int t;

	if (!pd_drop_alias(drv, name, &c, &t))
		fail_msg("%s: '%s' has no class", drv ? drv : "-", name);
	assert_int_equal(c, want);
	assert_int_equal(t, tier);
}

static void
test_drop_aliases(void **state)
{
	enum pd_drop c;
	int t;

	(void)state;
	drop_is("mlx5_core", "rx_packets_phy", PD_DROP_RX_PACKETS, 0);
	drop_is("mlx5_core", "rx_packets", PD_DROP_RX_PACKETS, 1);
	drop_is("mlx5_core", "rx_out_of_buffer", PD_DROP_NO_BUFFER, 0);
	drop_is("mlx5_core", "rx_discards_phy", PD_DROP_PORT, 0);
	drop_is("mlx5_core", "rx_crc_errors_phy", PD_DROP_CRC, 0);
	drop_is("mlx5_core", "rx_out_of_range_len_phy", PD_DROP_LENGTH, 0);
	drop_is("i40e", "rx_dropped", PD_DROP_NO_BUFFER, 0);
	drop_is("i40e", "port.rx_dropped", PD_DROP_PORT, 0);
	drop_is("i40e", "port.rx_crc_errors", PD_DROP_CRC, 0);
	drop_is("i40e", "rx_crc_errors", PD_DROP_CRC, 1);
	drop_is("ice", "rx_dropped.nic", PD_DROP_PORT, 0);
	drop_is("ice", "rx_crc_errors.nic", PD_DROP_CRC, 0);
	drop_is("ice", "rx_jabber.nic", PD_DROP_LENGTH, 0);
	drop_is("ixgbe", "rx_missed_errors", PD_DROP_MISSED, 0);
	drop_is("ixgbe", "rx_no_buffer_count", PD_DROP_NO_BUFFER, 0);
	drop_is("igb", "rx_length_errors", PD_DROP_LENGTH, 0);
	drop_is("igb", "rx_long_length_errors", PD_DROP_LENGTH, 1);
	drop_is("igc", "rx_align_errors", PD_DROP_CRC, 0);
	drop_is("bnxt_en", "rx_total_discard_pkts", PD_DROP_NO_BUFFER, 0);
	drop_is("bnxt_en", "[3]: rx_discards", PD_DROP_NO_BUFFER, 2);
	drop_is("bnxt_en", "rx_fcs_err_frames", PD_DROP_CRC, 0);
	drop_is("bnxt_en", "[0]: rx_ucast_packets", PD_DROP_RX_PACKETS, 2);
	drop_is("r8169", "rx_missed", PD_DROP_MISSED, 0);
	drop_is("virtio_net", "rx_queue_1_drops", PD_DROP_NO_BUFFER, 2);
	drop_is(NULL, "rx_crc_errors", PD_DROP_CRC, 1);
	drop_is(NULL, "rx_discards_phy", PD_DROP_PORT, 0);
	/* not drops: checksum errors are the stack's business, rx_errors a
	 * sum of the classes */
	assert_false(pd_drop_alias("i40e", "rx_errors", &c, &t));
	assert_false(pd_drop_alias("mlx5_core", "rx_csum_none", &c, &t));
	assert_false(pd_drop_alias(NULL, "rx_errors", &c, &t));
	assert_string_equal(pd_drop_name(PD_DROP_CRC), "CRC/FCS errors");
	assert_string_equal(pd_drop_name(PD_DROP_COUNT), "?");
}

/* A real output read as one snapshot of eth0 with its driver named. */
static void
corpus_with_driver(struct parsed *p, const char *rel, const char *driver)
{
	char path[1024], info[128];
	size_t len;
	unsigned char *buf;

	snprintf(path, sizeof(path), "%s/%s", corpus_dir(), rel);
	buf = slurp(path, &len);
	assert_non_null(buf);
	buf = realloc(buf, len + 1);
	buf[len] = '\0';
	snprintf(info, sizeof(info), "driver: %s\nbus-info: 0000:81:00.0\n",
	    driver);
	const char *names[] = { "ethtool-i/eth0.txt", "ethtool-S/eth0.txt" };
	const char *texts[] = { info, (const char *)buf };

	parsed_members(p, names, texts, 2);
	free(buf);
}

static const struct pd_netdev *
eth0(const struct parsed *p)
{
	const struct pd_netdev *nd = pd_host_find_netdev(p->m->hosts, "eth0");

	assert_non_null(nd);
	return nd;
}

/* The classes on real outputs (one snapshot each: totals, no rates). */
static void
test_drop_classes_corpus(void **state)
{
	struct parsed p;
	const struct pd_netdev *nd;

	(void)state;
	if (!corpus_dir()) {
		assert_false(corpus_required());
		skip();
	}
	corpus_with_driver(&p, "ethtool-S/i40e-int-tp-1g.txt", "i40e");
	nd = eth0(&p);
	assert_int_equal(nd->drop[PD_DROP_CRC].total, 201);
	assert_int_equal(nd->drop[PD_DROP_CRC].n_names, 1);
	assert_true(nd->drop[PD_DROP_PORT].known);
	assert_false(nd->drop[PD_DROP_CRC].is_rate);
	assert_null(nd->rxq);
	parsed_free(&p);

	corpus_with_driver(&p, "ethtool-S/igb-enp3s0-nat-box-full-rx_missed.txt",
	    "igb");
	nd = eth0(&p);
	assert_int_equal(nd->drop[PD_DROP_MISSED].total, 270844);
	assert_int_equal(nd->drop[PD_DROP_LENGTH].total, 6);
	assert_int_equal(nd->drop[PD_DROP_LENGTH].n_names, 1);
	parsed_free(&p);

	/* bnxt_en: the port's discard total, not the per-ring parts */
	corpus_with_driver(&p, "ethtool-S/bnxt_en-sfp-10g-sr-perring.txt",
	    "bnxt_en");
	nd = eth0(&p);
	assert_int_equal(nd->drop[PD_DROP_NO_BUFFER].total, 13);
	assert_int_equal(nd->drop[PD_DROP_NO_BUFFER].n_names, 1);
	assert_int_equal(nd->drop[PD_DROP_RX_PACKETS].total, 3400498238u);
	assert_int_equal(nd->drop[PD_DROP_PORT].total, 14);
	parsed_free(&p);

	corpus_with_driver(&p, "ethtool-S/mlx5-xdp-kernel6.5-nonzero.txt",
	    "mlx5_core");
	nd = eth0(&p);
	assert_int_equal(nd->drop[PD_DROP_NO_BUFFER].total, 534918379);
	assert_int_equal(nd->drop[PD_DROP_PORT].total, 441063206498ull);
	parsed_free(&p);
}

/* virtio_net with per-queue names only (a sosreport's file from
 * hotsos): the classes come from the queues, tier 2. */
static void
test_virtio_queues_only(void **state)
{
	size_t len;
	unsigned char *buf = slurp("tests/data/ethtool-S/ethtool_-S_ens5",
	    &len);
	struct parsed p;

	(void)state;
	assert_non_null(buf);
	buf = realloc(buf, len + 1);
	buf[len] = '\0';
	const char *names[] = { "ethtool-i/ens5.txt", "ethtool_-S_ens5" };
	const char *texts[] = { "driver: virtio_net\nbus-info: 0000:00:05.0\n",
		(const char *)buf };

	parsed_members(&p, names, texts, 2);
	const struct pd_netdev *nd = pd_host_find_netdev(p.m->hosts, "ens5");

	assert_non_null(nd);
	assert_int_equal(nd->drop[PD_DROP_RX_PACKETS].total, 37612);
	assert_int_equal(nd->drop[PD_DROP_NO_BUFFER].total, 0);
	assert_true(nd->drop[PD_DROP_NO_BUFFER].known);
	assert_false(nd->drop[PD_DROP_CRC].known);
	assert_int_equal(nd->ctr[PD_CTR_RX_BYTES].total, 3187919);
	/* one snapshot: no per-queue rate */
	assert_null(nd->rxq);
	assert_false(p.m->hosts->have & PD_HAVE_RXQ);
	parsed_free(&p);
	free(buf);
}

/* Per-queue rates need two timed snapshots: the same real output twice,
 * the second with every queue's bytes grown by its number x 1000. */
static void
test_rxq_rates_corpus(void **state)
{
	char path[1024];
	size_t len;
	unsigned char *buf;
	struct parsed p;

	(void)state;
	if (!corpus_dir()) {
		assert_false(corpus_required());
		skip();
	}
	snprintf(path, sizeof(path), "%s/ethtool-S/%s", corpus_dir(),
	    "i40e-sfp-10g-sr-perqueue.txt");
	buf = slurp(path, &len);
	assert_non_null(buf);
	buf = realloc(buf, len + 1);
	buf[len] = '\0';

	char *second = malloc(len * 2 + 64), *o = second;
	const char *s = (const char *)buf;

	o += sprintf(o, "# date: 1764000010\n");
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t l = nl ? (size_t)(nl - s + 1) : strlen(s);
		unsigned qn;
		unsigned long long v;

		if (sscanf(s, " rx-%u.bytes: %llu", &qn, &v) == 2)
			o += sprintf(o, "     rx-%u.bytes: %llu\n", qn,
			    v + 1000ull * qn);
		else {
			memcpy(o, s, l);
			o += l;
		}
		s += l;
	}
	*o = '\0';
	char *first = malloc(len + 32);

	sprintf(first, "# date: 1764000000\n%s", (const char *)buf);
	const char *names[] = { "ethtool-i/eth0.txt",
		"ethtool-S/eth0@1764000000.txt", "ethtool-S/eth0@1764000010.txt" };
	const char *texts[] = { "driver: i40e\nbus-info: 0000:81:00.0\n",
		first, second };

	parsed_members(&p, names, texts, 3);
	const struct pd_netdev *nd = eth0(&p);

	assert_non_null(nd->rxq);
	assert_true(nd->rxq->n_counted >= 16);
	assert_int_equal(nd->rxq->n, nd->rxq->n_counted);
	assert_int_equal(nd->rxq->busiest, nd->rxq->n - 1);
	assert_true(fabs(nd->rxq->per_s[3] - 300.0) < 1e-9);
	assert_true(fabs(nd->rxq->seconds - 10.0) < 1e-9);
	assert_true(p.m->hosts->have & PD_HAVE_RXQ);
	assert_non_null(strstr(nd->rxq->ev_last.text, "bytes"));
	parsed_free(&p);
	free(first);
	free(second);
	free(buf);
}

static void
test_rxq_thresholds(void **state)
{
	(void)state;
	/* 2x an even share fires, just below does not */
	assert_true(pd_rxq_fires(2.0, 1e9));
	assert_false(pd_rxq_fires(1.99, 1e9));
	/* 100 MB/s on the netdev, just below does not */
	assert_true(pd_rxq_fires(3.0, 100e6));
	assert_false(pd_rxq_fires(3.0, 99e6));
	/* the loss: 0 at even, the reference 2.4 % at the reference's 3.2x,
	 * at most twice it, at most 1-1/r */
	double ref = 1 - 28.9 / 29.6;

	assert_true(pd_rxq_loss(1.0) == 0);
	assert_true(fabs(pd_rxq_loss(3.2) - ref) < 1e-12);
	assert_true(fabs(pd_rxq_loss(3.0) - ref * 2 / 2.2) < 1e-12);
	assert_true(fabs(pd_rxq_loss(100) - 2 * ref) < 1e-12);
	assert_true(pd_rxq_loss(1.001) <= 1 - 1 / 1.001);
}

static void
test_rxq_samples(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* queue 7 of nic2 at 3x an even share of 20 configured channels */
	parsed_analysed(&p, "samples/gx10-rxq-imbalance.tgz");
	assert_int_equal(count_findings(&p, "nic.rx-queue-imbalance"), 1);
	f = find_finding(&p, "nic.rx-queue-imbalance", "nic2");
	assert_non_null(f);
	assert_non_null(strstr(f->summary, "Receive queue 7 of nic2"));
	assert_non_null(strstr(f->summary, "3.0x an even share over 20 "
	    "configured channels"));
	assert_int_equal(f->lever.kind, PD_LEVER_EFFICIENCY);
	assert_ptr_equal(f->lever.netdev,
	    pd_host_find_netdev(p.m->hosts, "nic2"));
	/* 2.36 % x (3-1)/(3.2-1) x the quarter of the card nic2 carries */
	assert_true(fabs(f->lever.share_hi - pd_rxq_loss(3.0) * 0.25) < 0.001);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 5);
	assert_int_equal(f->confidence, 50);
	parsed_free(&p);

	/* within 12 % of even: quiet */
	parsed_analysed(&p, "samples/gx10-rxq-even.tgz");
	assert_true(p.m->hosts->have & PD_HAVE_RXQ);
	assert_int_equal(count_findings(&p, "nic.rx-queue-imbalance"), 0);
	parsed_free(&p);
}

static void
test_drop_thresholds(void **state)
{
	(void)state;
	/* buffer classes: 10 per million of the packets received */
	assert_true(pd_drop_fires(PD_DROP_NO_BUFFER, 10, 10, 1e6));
	assert_false(pd_drop_fires(PD_DROP_NO_BUFFER, 9.9, 10, 1e6));
	assert_true(pd_drop_fires(PD_DROP_PORT, 10, 10, 1e6));
	assert_false(pd_drop_fires(PD_DROP_MISSED, 9.9, 10, 1e6));
	/* wire classes: 1 per million */
	assert_true(pd_drop_fires(PD_DROP_CRC, 1, 10, 1e6));
	assert_false(pd_drop_fires(PD_DROP_CRC, 0.99, 10, 1e6));
	assert_true(pd_drop_fires(PD_DROP_LENGTH, 2, 10, 1e6));
	/* at least 10 between the snapshots, whatever the share */
	assert_false(pd_drop_fires(PD_DROP_CRC, 0.9, 10, 1000));
	assert_true(pd_drop_fires(PD_DROP_CRC, 1.0, 10, 1000));
	/* no packet rate: 1 per second */
	assert_true(pd_drop_fires(PD_DROP_NO_BUFFER, 1.0, 10, 0));
	assert_false(pd_drop_fires(PD_DROP_NO_BUFFER, 0.99, 20, 0));
	/* the denominator is no drop */
	assert_false(pd_drop_fires(PD_DROP_RX_PACKETS, 1e6, 10, 1e6));
}

static void
test_drop_samples(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* nic4: 1200 out-of-buffer drops/s and 40 CRC errors/s on port 1,
	 * whose counter nic6 prints alike: reported once */
	parsed_analysed(&p, "samples/gx10-crc-errors.tgz");
	assert_int_equal(count_findings(&p, "nic.drops-by-rate"), 2);
	f = find_finding(&p, "nic.drops-by-rate", "nic4: CRC");
	assert_non_null(f);
	assert_non_null(strstr(f->summary, "40.0 frames with CRC/FCS errors "
	    "per second"));
	assert_non_null(strstr(f->summary, "25.3 per million"));
	assert_non_null(strstr(f->summary, "nic6, on the same port"));
	assert_int_equal(f->confidence, 70);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_null(find_finding(&p, "nic.drops-by-rate", "nic6"));
	f = find_finding(&p, "nic.drops-by-rate", "nic4: out of buffer");
	assert_non_null(f);
	/* 1200 of 1583838 packets/s: 1/(1-0.000758) */
	assert_int_equal(f->gain_hi, 1);
	assert_non_null(strstr(f->verify, "grep -w rx_out_of_buffer"));
	parsed_free(&p);

	/* the idle host: rings below maximum, counters still */
	parsed_analysed(&p, "samples/gx10-rings-idle.tgz");
	assert_int_equal(count_findings(&p, "nic.drops-by-rate"), 0);
	parsed_free(&p);
}

/* One snapshot's since-boot totals never fire, however large. */
static void
test_drops_one_snapshot(void **state)
{
	struct parsed p;
	const char *names[] = { "ethtool-i/eth0.txt", "ethtool-S/eth0.txt" };
	const char *texts[] = { "driver: ixgbe\nbus-info: 0000:03:00.0\n",
		"# date: 1764000000\nNIC statistics:\n"
		"     rx_packets: 1000\n     rx_crc_errors: 900\n"
		"     rx_missed_errors: 500\n" };

	(void)state;
	parsed_members(&p, names, texts, 2);
	parsed_analyse(&p);
	assert_int_equal(eth0(&p)->drop[PD_DROP_CRC].total, 900);
	assert_false(eth0(&p)->drop[PD_DROP_CRC].is_rate);
	assert_int_equal(count_findings(&p, "nic.drops-by-rate"), 0);
	parsed_free(&p);
}

static void
test_rule_docs(void **state)
{
	const struct pd_rule *r = pd_rule_find("nic.rx-queue-imbalance");

	(void)state;
	assert_non_null(r);
	assert_int_equal(r->needs, PD_HAVE_RXQ);
	assert_non_null(strstr(r->doc, "2x an even share"));
	assert_non_null(strstr(r->doc, "up to 512 queues"));
	r = pd_rule_find("nic.drops-by-rate");
	assert_non_null(r);
	assert_int_equal(r->needs, PD_HAVE_NIC_STATS);
	assert_non_null(strstr(r->doc, "10 per million"));
	assert_non_null(strstr(r->doc, "since-boot totals never fire"));
}

int
test_group_nic_counters(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rxq_aliases),
		cmocka_unit_test(test_drop_aliases),
		cmocka_unit_test(test_drop_classes_corpus),
		cmocka_unit_test(test_virtio_queues_only),
		cmocka_unit_test(test_rxq_rates_corpus),
		cmocka_unit_test(test_rxq_thresholds),
		cmocka_unit_test(test_rxq_samples),
		cmocka_unit_test(test_drop_thresholds),
		cmocka_unit_test(test_drop_samples),
		cmocka_unit_test(test_drops_one_snapshot),
		cmocka_unit_test(test_rule_docs),
	};
	return cmocka_run_group_tests_name("nic-counters", tests, NULL, NULL);
}

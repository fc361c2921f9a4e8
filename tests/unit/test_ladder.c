/* The ladder's arithmetic and ordering on paths shaped like the
 * published cases (DESIGN §1): GB10 with a ConnectX-7 on two Gen5 x4
 * links, kernel and SPDK initiators at strict/128, one half of the card
 * in use, and a Proxmox guest behind a 2.5GbE port. */
#include <math.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "helpers.h"
#include "ladder/path.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/rule.h"

static const struct pd_rule rule_iommu = { .id = "iommu.strict-invalidation" };
static const struct pd_rule rule_mps = { .id = "pcie.mps-below-capability" };
static const struct pd_rule rule_pfs = { .id = "nic.idle-pf" };
static const struct pd_rule rule_gso = { .id = "tcp.gso-mismatch" };
static const struct pd_rule rule_lro = { .id = "nic.lro-off" };
static const struct pd_rule rule_depth = { .id = "workload.reads-in-flight" };

struct fixture {
	struct pd_arena *a;
	struct pd_host h;
	struct pd_card card;
	struct pd_pcidev dev[4], root[2];
	struct pd_netdev nd[4];
	struct pd_finding f[6];
	struct path p;
	struct pd_ladder l;
};

/* Four PFs, two per Gen5 x4 link (domains 0 and 2), functions 0 and 1
 * the two 200G ports at MTU 9000; MaxPayload mps. */
static void
gx10(struct fixture *x, int mps, double observed)
{
	memset(x, 0, sizeof(*x));
	x->a = pd_arena_new();
	x->p.a = x->a;
	x->p.h = &x->h;
	x->h.name = "host";
	x->p.card = &x->card;
	for (unsigned i = 0; i < 4; i++) {
		struct pd_pcidev *d = &x->dev[i];

		d->domain = i < 2 ? 0 : 2;
		d->fn = i % 2;
		d->bus = 1;
		x->nd[i].name = "nic";
		x->nd[i].speed_mbps = 200000;
		x->nd[i].mtu = 9000;
		x->p.pf[i] = (struct pd_pf_path){ .pf = d, .nd = &x->nd[i],
			.root = &x->root[i / 2], .mts = 32000, .width = 4,
			.mps = mps, .port_gbs = pd_port_goodput_gbs(200000,
			9000) };
		x->p.active[i] = true;
		x->card.pfs[i] = d;
	}
	x->root[0].domain = 0;
	x->root[1].domain = 2;
	x->card.n_pfs = x->p.n_pf = 4;
	x->p.observed = observed;
	x->p.source = "test";
	x->p.what = "test";
}

static void
add_fix(struct fixture *x, const struct pd_rule *r, struct pd_lever lv)
{
	struct pd_finding *f = &x->f[x->p.n_fix];

	f->rule = r;
	f->host = &x->h;
	f->subject = r->id;
	f->lever = lv;
	x->p.fix[x->p.n_fix] = (struct path_fix){ f, &f->lever };
	if (lv.kind == PD_LEVER_IOMMU_LAZY)
		x->p.iommu = &f->lever;
	x->p.n_fix++;
}

static void
strict_fixes(struct fixture *x, double f_self)
{
	x->p.strict = true;
	add_fix(x, &rule_iommu, (struct pd_lever){ .kind = PD_LEVER_IOMMU_LAZY,
		.cores = "Cortex-X925", .f_self = f_self, .f_incl = f_self,
		.busy = 0.93 });
	add_fix(x, &rule_mps, (struct pd_lever){ .kind = PD_LEVER_MPS,
		.card = &x->card, .mps_to = 512 });
}

/* published lies in [lo, hi], expected within 15 % of it, hi/lo <= 2 */
static void
assert_step(const struct pd_ladder_step *s, const char *rule, double pub)
{
	assert_string_equal(s->finding->rule->id, rule);
	assert_true(s->lo <= pub * 1e9 && pub * 1e9 <= s->hi);
	assert_true(s->expected >= 0.85 * pub * 1e9 &&
	    s->expected <= 1.15 * pub * 1e9);
	assert_true(s->hi <= 2 * s->lo);
}

static void
done(struct fixture *x)
{
	pd_arena_free(x->a);
}

static void
test_ceilings(void **state)
{
	struct fixture x;

	(void)state;
	/* DESIGN §4: Gen5 x4 at 512 carries ~14.95 GB/s of NVMe payload */
	assert_true(fabs(pd_pcie_payload_gbs(32000, 4, 512) - 14.95) < 0.01);
	gx10(&x, 128, 20);
	struct outcome o = pd_path_eval(&x.p, 0, -1, EST_EXP, EST_EXP);

	/* lazy at 128: two links x 13.43 GB/s */
	assert_true(fabs(o.hw_ideal - 26.87) < 0.02);
	assert_non_null(strstr(o.hw_binds, "2 x Gen5 x4, MaxPayload 128"));
	/* one half idle: one link carries both PFs in use */
	x.p.active[2] = x.p.active[3] = false;
	o = pd_path_eval(&x.p, 0, -1, EST_EXP, EST_EXP);
	assert_true(fabs(o.hw_ideal - 13.43) < 0.02);
	/* the two PFs of one port, one on each link: the port binds */
	x.p.active[1] = false;
	x.p.active[2] = true;
	o = pd_path_eval(&x.p, 0, -1, EST_EXP, EST_EXP);
	assert_true(fabs(o.hw_ideal - pd_port_goodput_gbs(200000, 9000)) <
	    0.01);
	assert_non_null(strstr(o.hw_binds, "the port of"));
	/* strict translation: 13 % at 128, a quarter of that at 512 */
	assert_true(fabs(pd_strict_xlate_loss(128) - 0.13) < 1e-9);
	assert_true(fabs(pd_strict_xlate_loss(512) - 0.0325) < 1e-9);
	done(&x);
}

/* Kernel initiator, strict/128, CPU-bound: IOMMU first (lazy/128
 * 25.1 GB/s), MaxPayload second (lazy/512 28.1), ceiling 29.9. */
static void
test_kernel_order(void **state)
{
	struct fixture x;

	(void)state;
	gx10(&x, 128, 6.2);
	strict_fixes(&x, 0.57);
	pd_path_decide(&x.p);
	assert_int_equal(x.p.binds, BIND_CPU);
	pd_ladder_climb(&x.p, &x.l);
	assert_int_equal(x.l.n_steps, 2);
	assert_step(&x.l.steps[0], "iommu.strict-invalidation", 25.1);
	assert_step(&x.l.steps[1], "pcie.mps-below-capability", 28.1);
	assert_int_equal(x.f[0].ladder_step, 1);
	/* the gain comes from the step: 6.2 -> at least the Amdahl bound */
	assert_true(x.f[0].gain_lo >= pd_gain_tenths(2.3) &&
	    x.f[0].gain_lo <= pd_gain_tenths(2.4));
	struct outcome all = pd_path_eval(&x.p, 3, -1, EST_EXP, EST_EXP);

	assert_true(fabs(all.hw_ideal - 29.9) < 0.299);
	done(&x);
}

/* The published climb of the kernel initiator, LRO off and 256 reads in
 * flight: 6.3 -> 24.4 (iommu.strict=0) -> 26.5 (pci=pcie_bus_perf) ->
 * 28.1 GB/s once LRO and the reads in flight were tuned too. */
static void
test_kernel_climb(void **state)
{
	struct fixture x;

	(void)state;
	gx10(&x, 128, 6.3);
	strict_fixes(&x, 0.57);
	add_fix(&x, &rule_depth, (struct pd_lever){
		.kind = PD_LEVER_EFFICIENCY, .share_lo = 0.03, .share_hi = 0.05 });
	add_fix(&x, &rule_lro, (struct pd_lever){ .kind = PD_LEVER_EFFICIENCY,
		.share_lo = 0, .share_hi = 0.02 });
	pd_path_decide(&x.p);
	pd_ladder_climb(&x.p, &x.l);
	assert_int_equal(x.l.n_steps, 4);
	assert_step(&x.l.steps[0], "iommu.strict-invalidation", 24.4);
	assert_step(&x.l.steps[1], "pcie.mps-below-capability", 26.5);
	/* the published third step made both of the last two at once */
	assert_string_equal(x.l.steps[2].finding->rule->id,
	    "workload.reads-in-flight");
	assert_string_equal(x.l.steps[3].finding->rule->id, "nic.lro-off");
	assert_true(x.l.steps[2].lo <= 28.1e9 && 28.1e9 <= x.l.steps[3].hi);
	assert_true(fabs(x.l.steps[3].expected - 28.1e9) <= 0.15 * 28.1e9);
	/* steps never go down and never pass the links' 29.9 GB/s */
	for (unsigned i = 1; i < x.l.n_steps; i++)
		assert_true(x.l.steps[i].expected >= x.l.steps[i - 1].expected);
	assert_true(x.l.steps[3].hi <= 29.9e9);
	done(&x);
}

/* SPDK, strict/128, polling and close to the links: MaxPayload first
 * (strict/512 28.4), IOMMU second (lazy/512 28.9). */
static void
test_spdk_order(void **state)
{
	struct fixture x;

	(void)state;
	gx10(&x, 128, 22.8);
	strict_fixes(&x, 0.06);
	x.p.polling = true;
	pd_path_decide(&x.p);
	assert_int_equal(x.p.binds, BIND_HW);
	pd_ladder_climb(&x.p, &x.l);
	assert_int_equal(x.l.n_steps, 2);
	assert_step(&x.l.steps[0], "pcie.mps-below-capability", 28.4);
	assert_step(&x.l.steps[1], "iommu.strict-invalidation", 28.9);
	/* the same MaxPayload fix gains less after the IOMMU one: lazy/128
	 * 26.2 -> lazy/512 28.9 is +10 %, strict 22.8 -> 28.4 is +25 % */
	assert_true(x.f[1].gain_hi > 150);
	done(&x);
}

/* Lazy/512 with only the PFs of one half in use: 14.8 -> about 28.9. */
static void
test_one_half(void **state)
{
	struct fixture x;

	(void)state;
	gx10(&x, 512, 14.8);
	x.p.active[2] = x.p.active[3] = false;
	add_fix(&x, &rule_pfs, (struct pd_lever){ .kind = PD_LEVER_ALL_PFS,
		.card = &x.card });
	pd_path_decide(&x.p);
	assert_int_equal(x.p.binds, BIND_HW);
	pd_ladder_climb(&x.p, &x.l);
	assert_int_equal(x.l.n_steps, 1);
	assert_step(&x.l.steps[0], "nic.idle-pf", 28.9);
	done(&x);
}

/* Proxmox: 1.76 Gbit/s through a 2.5GbE port at MTU 1500, the host
 * segmenting in software; the fix lands in (1.76, 2.354], holding 2.13. */
static void
test_proxmox(void **state)
{
	struct fixture x;

	(void)state;
	gx10(&x, 256, 1.76 / 8);
	x.p.n_pf = 1;
	x.p.pf[0].mts = 5000;
	x.p.pf[0].width = 1;
	x.nd[0].speed_mbps = 2500;
	x.nd[0].mtu = 1500;
	x.p.pf[0].port_gbs = pd_port_goodput_gbs(2500, 1500);
	add_fix(&x, &rule_gso, (struct pd_lever){ .kind = PD_LEVER_SW_GSO,
		.netdev = &x.nd[0], .share_lo = 0.21, .share_hi = 0.23 });
	pd_path_decide(&x.p);
	assert_int_equal(x.p.binds, BIND_SWGSO);
	pd_ladder_climb(&x.p, &x.l);
	assert_int_equal(x.l.n_steps, 1);
	const struct pd_ladder_step *s = &x.l.steps[0];

	assert_step(s, "tcp.gso-mismatch", 2.13 / 8);
	assert_true(s->lo > 1.76e9 / 8 && s->hi <= 2.354e9 / 8);
	done(&x);
}

/* A 100G NIC on a Gen4 x8 slot trained at x4: the link binds at 7.3
 * GB/s; trained at x8 the port's 11.8 GB/s binds instead. */
static void
test_link_training(void **state)
{
	struct fixture x;
	static const struct pd_rule rule_link = { .id = "pcie.link-degraded" };

	(void)state;
	gx10(&x, 256, 7.0);
	x.p.n_pf = 1;
	x.p.pf[0].mts = 16000;
	x.p.pf[0].width = 4;
	x.p.pf[0].port_gbs = pd_port_goodput_gbs(100000, 1500);
	add_fix(&x, &rule_link, (struct pd_lever){ .kind = PD_LEVER_LINK_TRAIN,
		.dev = &x.dev[0], .mts_to = 16000, .width_to = 8 });
	pd_path_decide(&x.p);
	assert_int_equal(x.p.binds, BIND_HW);
	pd_ladder_climb(&x.p, &x.l);
	assert_int_equal(x.l.n_steps, 1);
	const struct pd_ladder_step *s = &x.l.steps[0];

	assert_non_null(strstr(s->bottleneck_after, "the port of"));
	assert_true(s->hi <= x.p.pf[0].port_gbs * 1e9 + 1);
	assert_true(s->expected > 10.5e9 && s->lo > 7.0e9);
	done(&x);
}

int
test_group_ladder(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ceilings),
		cmocka_unit_test(test_kernel_order),
		cmocka_unit_test(test_kernel_climb),
		cmocka_unit_test(test_spdk_order),
		cmocka_unit_test(test_one_half),
		cmocka_unit_test(test_proxmox),
		cmocka_unit_test(test_link_training),
	};
	return cmocka_run_group_tests_name("ladder", tests, NULL, NULL);
}

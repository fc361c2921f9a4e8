/* The PCIe rules on the samples and on the corpus's known cases. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

static void
analyse_corpus(struct parsed *p, const char *rel)
{
	parsed_corpus(p, rel);
	parsed_analyse(p);
}

static void
test_gx10_before(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, "samples/gx10-before.tgz");
	assert_int_equal(p.rc, 0);
	struct pd_not_evaluated *ne = pd_engine_run(p.m, &p.fs, NULL);

	/* one finding for the card: its two links take one fix */
	assert_int_equal(count_findings(&p, "pcie.mps-below-capability"), 1);
	const struct pd_finding *f = find_finding(&p,
	    "pcie.mps-below-capability", "0000:01:00.0");

	assert_non_null(f);
	assert_non_null(strstr(f->subject, "0000:01:00.1"));
	assert_int_equal(f->gain_hi, 113);
	assert_int_equal(f->gain_lo, 86);
	assert_int_equal(f->confidence, 80);	/* ports known: link-bound */
	assert_int_equal(f->risk, PD_RISK_MEDIUM);
	assert_non_null(strstr(f->summary, "13.5 GB/s instead of 15.0 GB/s"));
	assert_non_null(strstr(f->summary, "their 2 root ports"));
	assert_non_null(strstr(f->subject, "0002:01:00.0"));
	assert_int_equal(f->lever.kind, PD_LEVER_MPS);
	assert_int_equal(f->lever.mps_to, 512);
	/* x4 under an x4 root port is not degraded, whatever lspci marks */
	assert_int_equal(count_findings(&p, "pcie.link-degraded"), 0);
	assert_null(find_finding(&p, "pcie.mps-below-capability", "0004:"));
	/* with its profile every rule is evaluated but the workload ones
	 * (the sample holds no benchmark output), nic.ring-size (nor
	 * ethtool -g), net.softnet (nor softnet snapshots),
	 * tcp.retrans-rate (nor /proc/net/snmp), nic.irq-affinity (nor
	 * /proc/interrupts) and cpu.frequency-capped (nor cpufreq) */
	for (; ne; ne = ne->next) {
		if (strcmp(ne->rule->id, "nic.ring-size") == 0) {
			assert_int_equal(ne->missing, PD_HAVE_RINGS);
			continue;
		}
		if (strcmp(ne->rule->id, "tcp.retrans-rate") == 0) {
			assert_int_equal(ne->missing, PD_HAVE_TCP_COUNTERS);
			continue;
		}
		if (ne->missing == PD_HAVE_SOFTNET ||
		    (ne->missing & ~(PD_HAVE_IRQ | PD_HAVE_CPUFREQ)) == 0)
			continue;
		/* nor nvme list-subsys and ip addr */
		if (ne->missing & (PD_HAVE_NVME | PD_HAVE_IPADDR))
			continue;
		assert_int_equal(ne->missing, PD_HAVE_WORKLOAD);
		assert_non_null(strstr(ne->rule->id, "workload."));
	}
	assert_int_equal(count_findings(&p, "iommu.strict-invalidation"), 1);
	const struct pd_host *h = p.m->hosts;

	assert_string_equal(h->name, "gx10");
	assert_int_equal(h->iommu.mode, PD_IOMMU_STRICT);
	assert_non_null(strstr(h->iommu.reason, "arm64 default"));
	parsed_free(&p);
}

static void
test_gx10_after(void **state)
{
	struct parsed p;

	(void)state;
	parsed_analysed(&p, "samples/gx10-after.tgz");
	assert_int_equal(p.fs.n, 0);
	assert_int_equal(p.m->hosts->iommu.mode, PD_IOMMU_LAZY);
	parsed_free(&p);
}

static void
test_pve_two_hosts(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, "samples/pve-two-hosts.tgz");
	struct pd_not_evaluated *ne = pd_engine_run(p.m, &p.fs, NULL);
	const struct pd_host *guest = p.m->hosts, *pve = guest->next;

	assert_int_equal(p.m->n_hosts, 2);
	assert_string_equal(guest->name, "guest");
	assert_string_equal(pve->name, "pve");
	assert_int_equal(pve->iommu.mode, PD_IOMMU_PASSTHROUGH);
	assert_int_equal(pve->n_cpus, 4);
	assert_int_equal(p.fs.n, 1);
	const struct pd_finding *f = p.fs.v[0];

	assert_ptr_equal(f->host, pve);
	assert_string_equal(f->subject, "0000:01:00.0, 0000:01:00.1");
	assert_int_equal(f->gain_hi, 1000);
	assert_int_equal(f->confidence, 60);
	/* the guest's emulated devices have no PCIe capability */
	unsigned guest_pcie = 0;

	for (; ne; ne = ne->next)
		if (ne->host == guest && (ne->missing & PD_HAVE_PCIE_LINK))
			guest_pcie++;
	assert_int_equal(guest_pcie, 3);
	parsed_free(&p);
}

static void
test_corpus_known_cases(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	REQUIRE_CORPUS();
	/* ConnectX-4 Lx: MaxPayload 128 under DevCap 512, no topology */
	analyse_corpus(&p, "lspci-vv/connectx4lx-hpe-mps128-cap512-"
	    "MAILWRAPPED.txt");
	f = find_finding(&p, "pcie.mps-below-capability", "0000:0b:00.0");
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 113);
	assert_int_equal(f->confidence, 40);
	parsed_free(&p);

	/* ConnectX-7 PF at 16GT/s x8 of 32GT/s x16; its VF is no subject */
	analyse_corpus(&p, "lspci-vv/connectx7-pf-and-vf-mps512-downgraded.txt");
	f = find_finding(&p, "pcie.link-degraded", "0000:b1:00.1");
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 3000);
	assert_null(find_finding(&p, "pcie.link-degraded", "b1:00.2"));
	assert_int_equal(count_findings(&p, "pcie.mps-below-capability"), 0);
	parsed_free(&p);

	/* Armada NVMe: DevCap 128, so MaxPayload 128 is right */
	analyse_corpus(&p, "lspci-vv/arm64-armada3720-nvme-mps128-cap128-"
	    "spaces.txt");
	assert_int_equal(count_findings(&p, "pcie.mps-below-capability"), 0);
	parsed_free(&p);

	/* N1SDP: root port 1024, PLX switch 256, everything at 128 */
	analyse_corpus(&p, "lspci-vv/arm64-neoverse-n1sdp-plx-switch-"
	    "mps128.txt");
	f = find_finding(&p, "pcie.mps-below-capability", "0000:01:00.0");
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 72);	/* 128 -> 256 */
	assert_int_equal(f->confidence, 60);
	assert_null(find_finding(&p, "pcie.mps-below-capability",
	    "0000:00:00.0"));	/* root ports are not subjects */
	parsed_free(&p);

	/* Xeon E5 v3: endpoints at 128 below root ports that support only
	 * 128 are right; the parent caps them */
	analyse_corpus(&p, "lspci-vv/x86-xeon-e5v3-i210-ti-bridges-mps128-"
	    "spaces.txt");
	assert_null(find_finding(&p, "pcie.mps-below-capability",
	    "0000:02:00.0"));
	parsed_free(&p);

	/* Dell: BCM5720 x1 of x2, one finding for both functions */
	analyse_corpus(&p, "lspci-vv/dell-xeon-e5v4-bcm5720-tesla-gpu.txt");
	f = find_finding(&p, "pcie.link-degraded", "0000:01:00.0");
	assert_non_null(f);
	assert_non_null(strstr(f->subject, "0000:01:00.1"));
	assert_int_equal(f->gain_hi, 1000);
	parsed_free(&p);

	/* ICH10: an idle GPU's slow link gets low confidence */
	analyse_corpus(&p, "lspci-vv/x86-ich10-gtx1650-rtl8111-downgraded.txt");
	f = find_finding(&p, "pcie.link-degraded", "0000:01:00.0");
	assert_non_null(f);
	assert_int_equal(f->confidence, 25);
	parsed_free(&p);
}

static void
test_fix_depends_on_cmdline(void **state)
{
	size_t len;
	unsigned char *lspci = slurp("samples/bundles/gx10-before/lspci-vv.txt",
	    &len);
	const char *names[] = { "h/lspci-vv.txt", "h/cmdline" };
	const char *cmdlines[] = { "root=/dev/sda pci=pcie_bus_perf",
		"root=/dev/sda pci=realloc,pcie_bus_peer2peer" };
	const char *want[] = { "firmware", "replace it" };

	(void)state;
	assert_non_null(lspci);
	lspci = realloc(lspci, len + 1);
	lspci[len] = 0;
	for (int i = 0; i < 2; i++) {
		const char *texts[] = { (const char *)lspci, cmdlines[i] };
		struct parsed p;

		parsed_members(&p, names, texts, 2);
		parsed_analyse(&p);
		const struct pd_finding *f = find_finding(&p,
		    "pcie.mps-below-capability", NULL);

		assert_non_null(f);
		assert_non_null(strstr(f->fix[0], want[i]));
		parsed_free(&p);
	}
	free(lspci);
}

static void
test_ranking_is_total(void **state)
{
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	analyse_corpus(&p, "lspci-vv/arm64-neoverse-n1sdp-plx-switch-"
	    "mps128.txt");
	for (size_t i = 1; i < p.fs.n; i++) {
		const struct pd_finding *a = p.fs.v[i - 1], *b = p.fs.v[i];

		assert_true(a->score >= b->score);
		if (a->score == b->score && a->risk == b->risk &&
		    strcmp(a->rule->id, b->rule->id) == 0)
			assert_true(strcmp(a->subject, b->subject) < 0);
	}
	parsed_free(&p);
}

static void
test_rule_table(void **state)
{
	(void)state;
	for (const struct pd_rule_group *const *g = pd_rule_groups; *g; g++)
		for (size_t i = 0; i < (*g)->n_rules; i++) {
			const struct pd_rule *r = &(*g)->rules[i];

			assert_ptr_equal(pd_rule_find(r->id), r);
			assert_true(strncmp(r->id, (*g)->name,
			    strlen((*g)->name)) == 0);
			assert_non_null(r->doc);
			assert_true(r->needs != 0);
			/* every rule names its documentation, as https URLs */
			assert_non_null(r->links);
			assert_non_null(r->links[0]);
			for (const char *const *l = r->links; *l; l++)
				assert_true(strncmp(*l, "https://", 8) == 0);
		}
	assert_null(pd_rule_find("no.such-rule"));
}

/* --min-level: the findings below it leave the list after the ladder
 * has set every gain (the same ladder as without the option), the rest
 * keep their rank, and n_hidden counts the others. */
static void
test_min_level(void **state)
{
	struct parsed all, some;
	struct pd_report ra, rs;
	size_t k = 0;

	(void)state;
	parsed_read(&all, "samples/gx10-before.tgz");
	parsed_read(&some, "samples/gx10-before.tgz");
	pd_report_build(&ra, "all", all.m, &all.cov, &all.fs, NULL);
	pd_report_build_min(&rs, "some", some.m, &some.cov, &some.fs, NULL,
	    PD_LEVEL_MEDIUM);
	assert_null(ra.min_level);
	assert_int_equal(ra.n_hidden, 0);
	assert_string_equal(rs.min_level, "medium");
	assert_true(rs.n_hidden > 0);
	assert_int_equal(rs.findings->n + rs.n_hidden, ra.findings->n);
	for (size_t i = 0; i < ra.findings->n; i++) {
		const struct pd_finding *f = ra.findings->v[i];

		if (pd_finding_level(f) < PD_LEVEL_MEDIUM)
			continue;
		assert_true(k < rs.findings->n);
		const struct pd_finding *g = rs.findings->v[k++];

		assert_string_equal(g->rule->id, f->rule->id);
		assert_string_equal(g->subject, f->subject);
		assert_int_equal(g->gain_lo, f->gain_lo);
		assert_int_equal(g->gain_hi, f->gain_hi);
		assert_int_equal(g->ladder_step, f->ladder_step);
	}
	assert_int_equal(k, rs.findings->n);
	parsed_free(&all);
	parsed_free(&some);
}

int
test_group_rules(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gx10_before),
		cmocka_unit_test(test_gx10_after),
		cmocka_unit_test(test_pve_two_hosts),
		cmocka_unit_test(test_corpus_known_cases),
		cmocka_unit_test(test_fix_depends_on_cmdline),
		cmocka_unit_test(test_ranking_is_total),
		cmocka_unit_test(test_rule_table),
		cmocka_unit_test(test_min_level),
	};
	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}

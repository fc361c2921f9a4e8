/* lspci -vv and lspci -tv readers on the shared corpus and edge cases. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"

static const struct pd_pcidev *
dev(const struct parsed *p, const char *bdf)
{
	const struct pd_pcidev *d = pd_host_find_pcidev(p->m->hosts, bdf);

	if (!d)
		fail_msg("no device %s", bdf);
	return d;
}

static void
test_connectx7_pf_and_vf(void **state)
{
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	parsed_corpus(&p, "lspci-vv/connectx7-pf-and-vf-mps512-downgraded.txt");
	const struct pd_pcidev *pf = dev(&p, "0000:b1:00.1");

	assert_string_equal(pf->class_name, "Ethernet controller");
	assert_int_equal(pf->port, PD_PORT_ENDPOINT);
	assert_int_equal(pf->mps_cap, 512);
	assert_int_equal(pf->mps, 512);
	assert_int_equal(pf->mrrs, 4096);
	assert_int_equal(pf->lnkcap_mts, 32000);
	assert_int_equal(pf->lnkcap_width, 16);
	assert_int_equal(pf->lnksta_mts, 16000);
	assert_int_equal(pf->lnksta_width, 8);
	assert_string_equal(pf->lnksta_mark, "downgraded");
	assert_int_equal(pf->numa_node, 1);
	assert_int_equal(pf->iommu_group, 12);
	assert_string_equal(pf->driver, "mlx5_core");
	assert_int_equal(pf->sriov_total, 8);
	assert_int_equal(pf->sriov_offset, 9);
	assert_false(pf->is_vf);
	const struct pd_pcidev *vf = dev(&p, "0000:b1:00.2");

	assert_true(vf->is_vf);
	assert_true(vf->lnk_down);
	parsed_free(&p);
}

static void
test_old_format_and_bridges(void **state)
{
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	parsed_corpus(&p, "lspci-vv/arm64-neoverse-n1sdp-plx-switch-mps128.txt");
	const struct pd_pcidev *rp = dev(&p, "0000:00:00.0");

	assert_int_equal(rp->port, PD_PORT_ROOT);
	assert_int_equal(rp->mps_cap, 1024);
	assert_int_equal(rp->mps, 128);	/* "Report errors:" DevCtl era */
	assert_int_equal(rp->lnksta_mts, 5000);	/* one-line LnkSta */
	assert_int_equal(rp->lnksta_width, 16);
	assert_null(rp->lnksta_mark);
	assert_true(rp->is_bridge);
	assert_int_equal(rp->bus_secondary, 1);
	assert_int_equal(rp->bus_subordinate, 0x19);
	assert_true(rp->has_dsn);
	const struct pd_pcidev *sw = dev(&p, "0000:01:00.0");

	assert_ptr_equal(sw->parent, rp);	/* from bus ranges */
	assert_string_equal(sw->parent_source, "bus ranges");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	parsed_free(&p);
}

static void
test_nn_ids_and_wrapped_mail(void **state)
{
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	parsed_corpus(&p, "lspci-vv/x86-cometlake-titanridge-vvnn.txt");
	const struct pd_pcidev *hb = dev(&p, "0000:00:00.0");

	assert_int_equal(hb->class_code, 0x0600);
	assert_int_equal(hb->vendor_id, 0x8086);
	assert_int_equal(hb->device_id, 0x9b53);
	assert_string_equal(hb->class_name, "Host bridge");
	assert_null(strstr(hb->desc, "[8086"));
	parsed_free(&p);

	parsed_corpus(&p, "lspci-vv/connectx4lx-hpe-mps128-cap512-MAILWRAPPED.txt");
	const struct pd_pcidev *cx = dev(&p, "0000:0b:00.0");

	assert_int_equal(cx->mps, 128);
	assert_int_equal(cx->mps_cap, 512);
	assert_int_equal(cx->lnksta_mts, 8000);
	assert_int_equal(cx->lnksta_width, 8);
	assert_int_equal(p.cov.members->diag.worst, PD_WARN);
	assert_string_equal(p.cov.members->diag.notes->id,
	    "lspci-vv.wrapped-lines");
	parsed_free(&p);
}

static void
test_access_denied_is_unknown(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "lspci-vv.txt",
	    "01:00.0 Ethernet controller: Mellanox Technologies MT2910 Family "
	    "[ConnectX-7]\n\tSubsystem: Mellanox Technologies Device 0026\n"
	    "\tControl: I/O- Mem+ BusMaster+\n"
	    "\tCapabilities: <access denied>\n"
	    "\tKernel driver in use: mlx5_core\n\n"
	    "01:00.1 Ethernet controller: Mellanox Technologies MT2910 Family "
	    "[ConnectX-7]\n\tCapabilities: <access denied>\n");
	const struct pd_pcidev *d = dev(&p, "0000:01:00.0");

	assert_int_equal(d->caps_readable, PD_NO);
	assert_int_equal(d->mps, 0);	/* unknown, not 0 bytes */
	assert_false(p.m->hosts->have & PD_HAVE_PCIE_LINK);
	assert_int_equal(p.cov.members->diag.n_notes, 1);	/* noted once */
	parsed_analyse(&p);
	assert_int_equal(p.fs.n, 0);
	parsed_free(&p);
}

static void
test_tree_nested_switches(void **state)
{
	struct parsed p;
	const struct pd_pci_edge *e;

	(void)state;
	REQUIRE_CORPUS();
	parsed_corpus(&p, "lspci-tv/amd-raphael-workstation-tv-switches.txt");
	static const char *const want[][2] = {
		{ "0000:00:01.1", "" }, { "0000:01:00.0", "0000:00:01.1" },
		{ "0000:02:00.0", "0000:01:00.0" },
		{ "0000:03:00.3", "0000:02:00.0" },
		{ "0000:07:01.0", "0000:06:00.0" },
		{ "0000:08:00.1", "0000:07:01.0" },
		{ "0000:09:00.1", "0000:07:02.0" },
		{ "0000:0b:00.0", "0000:07:03.0" },
		{ "0000:0e:00.6", "0000:00:08.1" },
		{ "0000:00:18.7", "" },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		for (e = p.m->hosts->pci_edges; e; e = e->next)
			if (strcmp(e->bdf, want[i][0]) == 0)
				break;
		if (!e)
			fail_msg("no tree entry for %s", want[i][0]);
		assert_string_equal(e->parent, want[i][1]);
	}
	for (e = p.m->hosts->pci_edges; e; e = e->next)
		if (strcmp(e->bdf, "0000:00:02.2") == 0)
			break;
	assert_non_null(e);
	assert_int_equal(e->secondary, 6);
	assert_int_equal(e->subordinate, 0x0b);
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	parsed_free(&p);
}

static void
test_tree_domains_and_degenerate(void **state)
{
	struct parsed p;

	(void)state;
	parsed_read(&p, "samples/bundles/gx10-before/lspci-tv.txt");
	assert_int_equal(p.rc, 0);
	const struct pd_pci_edge *e = p.m->hosts->pci_edges;
	unsigned n = 0;

	for (; e; e = e->next, n++)
		if (strcmp(e->bdf, "0002:01:00.1") == 0)
			assert_string_equal(e->parent, "0002:00:00.0");
	assert_int_equal(n, 8);	/* 3 root ports, 5 endpoints */
	parsed_free(&p);

	parsed_text(&p, "lspci-tv", "-[0000:00]-\n");
	assert_string_equal(p.cov.members->format, "lspci-tv");
	assert_null(p.m->hosts->pci_edges);
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	parsed_free(&p);
}

/* Every corpus file of the formats this reader set knows parses with no
 * failure note, and is identified as its directory says. */
static void
test_corpus_parses_clean(void **state)
{
	static const char *const dirs[] = { "lspci-vv", "lspci-tv",
		"cmdline" };
	char cmd[600], line[512];

	(void)state;
	REQUIRE_CORPUS();
	for (size_t k = 0; k < 3; k++) {
		snprintf(cmd, sizeof(cmd), "ls %s/%s", corpus_dir(), dirs[k]);
		FILE *ls = popen(cmd, "r");
		unsigned n = 0;

		assert_non_null(ls);
		while (fgets(line, sizeof(line), ls)) {
			char path[1024];
			struct parsed p;

			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path), "%s/%s/%s", corpus_dir(),
			    dirs[k], line);
			parsed_read(&p, path);
			if (p.rc != 0 || strcmp(p.cov.members->format,
			    dirs[k]) != 0 || p.cov.members->diag.worst < PD_WARN)
				fail_msg("%s: rc %d format %s status %s", path,
				    p.rc, p.rc ? "-" : p.cov.members->format,
				    p.rc ? "-" :
				    pd_status_name(p.cov.members->diag.worst));
			parsed_free(&p);
			n++;
		}
		pclose(ls);
		assert_true(n > 0);
	}
}

int
test_group_lspci(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connectx7_pf_and_vf),
		cmocka_unit_test(test_old_format_and_bridges),
		cmocka_unit_test(test_nn_ids_and_wrapped_mail),
		cmocka_unit_test(test_access_denied_is_unknown),
		cmocka_unit_test(test_tree_nested_switches),
		cmocka_unit_test(test_tree_domains_and_degenerate),
		cmocka_unit_test(test_corpus_parses_clean),
	};
	return cmocka_run_group_tests_name("lspci", tests, NULL, NULL);
}

/* cmdline, uname, cpuinfo, lscpu readers and the IOMMU mode they imply. */
#include <string.h>
#include "helpers.h"

static const char *
param(const struct pd_host *h, const char *key)
{
	const struct pd_kv *kv = pd_host_cmdline_last(h, key);

	return kv ? (kv->val ? kv->val : "(flag)") : NULL;
}

static void
test_tokens(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro "
	    "quiet console=tty0 console=ttyS0,115200 "
	    "dyndbg=\"file foo.c +p\" \"acpi_osi=Windows 2020\" "
	    "iommu-strict=1 pci=pcie_bus_perf,realloc -- single\n");
	const struct pd_host *h = p.m->hosts;

	assert_non_null(h);
	assert_string_equal(param(h, "root"), "/dev/sda1");
	assert_string_equal(param(h, "quiet"), "(flag)");
	assert_string_equal(param(h, "console"), "ttyS0,115200");
	assert_string_equal(param(h, "dyndbg"), "file foo.c +p");
	assert_string_equal(param(h, "acpi_osi"), "Windows 2020");
	assert_string_equal(param(h, "iommu_strict"), "1"); /* '-' == '_' */
	assert_null(param(h, "single"));	/* after "--": init's */
	assert_non_null(pd_host_cmdline_pci_opt(h, "pcie_bus_perf"));
	assert_non_null(pd_host_cmdline_pci_opt(h, "realloc"));
	assert_null(pd_host_cmdline_pci_opt(h, "pcie_bus_safe"));
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	parsed_free(&p);
}

static void
test_repeated_keys_and_dmesg(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "dmesg-cmdline", "Kernel command line: root=/dev/vda "
	    "iommu.strict=1 pci=noaer iommu.strict=0 pci=pcie_bus_perf\n");
	const struct pd_host *h = p.m->hosts;

	assert_string_equal(p.cov.members->format, "cmdline");
	assert_string_equal(param(h, "iommu.strict"), "0");	/* last wins */
	assert_non_null(pd_host_cmdline_pci_opt(h, "noaer"));	/* all pci= */
	assert_non_null(pd_host_cmdline_pci_opt(h, "pcie_bus_perf"));
	assert_int_equal(h->iommu.mode, PD_IOMMU_LAZY);
	parsed_free(&p);
}

struct iommu_case {
	const char *cmdline, *uname;
	enum pd_iommu_mode mode;
};

static void
test_iommu_modes(void **state)
{
	static const char *const arm = "Linux gx10 6.11.0 #16-Ubuntu SMP "
	    "aarch64 aarch64 aarch64 GNU/Linux\n";
	static const char *const x86 = "Linux box 6.1.0-13-amd64 #1 SMP "
	    "PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29) x86_64 GNU/Linux\n";
	static const struct iommu_case cases[] = {
		{ "root=/dev/sda ro", arm, PD_IOMMU_STRICT },
		{ "root=/dev/sda ro iommu.strict=0", arm, PD_IOMMU_LAZY },
		{ "root=/dev/sda iommu.strict=1", x86, PD_IOMMU_STRICT },
		{ "root=/dev/sda ro", x86, PD_IOMMU_LAZY },
		{ "root=/dev/sda iommu.passthrough=1", arm,
		    PD_IOMMU_PASSTHROUGH },
		{ "root=/dev/sda iommu.passthrough=0", arm, PD_IOMMU_STRICT },
		{ "root=/dev/sda iommu=pt intel_iommu=on", x86,
		    PD_IOMMU_PASSTHROUGH },
		{ "root=/dev/sda intel_iommu=off", x86, PD_IOMMU_OFF },
		{ "root=/dev/sda amd_iommu=off", x86, PD_IOMMU_OFF },
		{ "root=/dev/sda intel_iommu=on,strict", x86, PD_IOMMU_STRICT },
		{ "root=/dev/sda amd_iommu=fullflush", x86, PD_IOMMU_STRICT },
		{ "root=/dev/sda ro", NULL, PD_IOMMU_UNKNOWN },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *names[] = { "h/cmdline", "h/uname" };
		const char *texts[] = { cases[i].cmdline, cases[i].uname };
		struct parsed p;

		parsed_members(&p, names, texts, cases[i].uname ? 2 : 1);
		if (p.m->hosts->iommu.mode != cases[i].mode)
			fail_msg("'%s': mode %s, want %s", cases[i].cmdline,
			    pd_iommu_mode_name(p.m->hosts->iommu.mode),
			    pd_iommu_mode_name(cases[i].mode));
		assert_non_null(p.m->hosts->iommu.reason);
		parsed_free(&p);
	}
}

static void
test_corpus_cmdlines(void **state)
{
	struct { const char *file; enum pd_arch arch; enum pd_iommu_mode mode;
		const char *pci; } cases[] = {
		{ "arm64-ampere-mtjade-iommu-strict0.txt", PD_ARCH_UNKNOWN,
		    PD_IOMMU_LAZY, NULL },
		{ "arm64-lx2160a-pcie_bus_perf-smmu.txt", PD_ARCH_UNKNOWN,
		    PD_IOMMU_UNKNOWN, "pcie_bus_perf" },
		{ "arm64-synquacer-fedora30.txt", PD_ARCH_ARM64,
		    PD_IOMMU_STRICT, NULL },
		{ "x86-hp-dl388g8-intel_iommu-on.txt", PD_ARCH_X86_64,
		    PD_IOMMU_LAZY, NULL },
		{ "x86-rhel7-grub2-crashkernel.txt", PD_ARCH_X86_64,
		    PD_IOMMU_LAZY, NULL },
	};
	char path[512];

	(void)state;
	REQUIRE_CORPUS();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parsed p;

		snprintf(path, sizeof(path), "%s/cmdline/%s", corpus_dir(),
		    cases[i].file);
		parsed_read(&p, path);
		assert_int_equal(p.rc, 0);
		assert_string_equal(p.cov.members->format, "cmdline");
		assert_int_equal(p.cov.members->diag.worst, PD_OK);
		const struct pd_host *h = p.m->hosts;

		if (h->arch != cases[i].arch || h->iommu.mode != cases[i].mode)
			fail_msg("%s: arch %s iommu %s", cases[i].file,
			    pd_arch_name(h->arch),
			    pd_iommu_mode_name(h->iommu.mode));
		if (cases[i].pci)
			assert_non_null(pd_host_cmdline_pci_opt(h,
			    cases[i].pci));
		parsed_free(&p);
	}
}

static void
test_uname_cpuinfo_lscpu(void **state)
{
	const char *names[] = { "h/cpuinfo", "h/lscpu" };
	const char *texts[] = {
	    "processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd\n"
	    "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n"
	    "CPU part\t: 0xd85\nCPU revision\t: 1\n\n"
	    "processor\t: 1\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\n"
	    "CPU architecture: 8\nCPU part\t: 0xd87\n\n"
	    "processor\t: 2\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
	    "CPU part\t: 0xd87\n",
	    "Architecture:   x86_64\nCPU(s):   64\n" };
	struct parsed p;

	(void)state;
	parsed_members(&p, names, texts, 1);
	const struct pd_host *h = p.m->hosts;

	assert_int_equal(h->arch, PD_ARCH_ARM64);
	assert_int_equal(h->n_cpus, 3);
	assert_non_null(h->cpu_types);
	assert_string_equal(h->cpu_types->name, "Cortex-A725");
	assert_int_equal(h->cpu_types->count, 2);
	assert_string_equal(h->cpu_types->next->name, "Cortex-X925");
	parsed_free(&p);

	/* lscpu's core-type blocks */
	const char *n2[] = { "h/lscpu.txt" };
	size_t len;
	unsigned char *gx = slurp("samples/bundles/gx10-before/lscpu.txt", &len);

	assert_non_null(gx);
	gx = realloc(gx, len + 1);
	gx[len] = 0;
	const char *t2[] = { (const char *)gx };

	parsed_members(&p, n2, t2, 1);
	h = p.m->hosts;
	assert_int_equal(h->arch, PD_ARCH_ARM64);
	assert_int_equal(h->n_cpus, 20);
	assert_string_equal(h->cpu_types->name, "Cortex-A725");
	assert_int_equal(h->cpu_types->count, 10);
	assert_int_equal(h->cpu_types->next->count, 10);
	parsed_free(&p);
	free(gx);

	const char *n3[] = { "h/uname" };
	const char *t3[] = { "Linux db1 5.14.0-362.el9.x86_64 #1 SMP "
	    "PREEMPT_DYNAMIC Wed Oct 4 2023 x86_64 x86_64 x86_64 GNU/Linux\n" };
	parsed_members(&p, n3, t3, 1);
	h = p.m->hosts;
	assert_int_equal(h->arch, PD_ARCH_X86_64);
	assert_string_equal(h->nodename, "db1");
	assert_string_equal(h->kernel_release, "5.14.0-362.el9.x86_64");
	assert_string_equal(h->name, "db1");
	parsed_free(&p);
}

int
test_group_cmdline(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_repeated_keys_and_dmesg),
		cmocka_unit_test(test_iommu_modes),
		cmocka_unit_test(test_corpus_cmdlines),
		cmocka_unit_test(test_uname_cpuinfo_lscpu),
	};
	return cmocka_run_group_tests_name("cmdline-and-host", tests, NULL,
	    NULL);
}

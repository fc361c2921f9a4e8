/* /proc/interrupts, IRQ affinity and cpufreq/powercap readers on real
 * outputs, and the thresholds of nic.irq-affinity and
 * cpu.frequency-capped on both sides. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/format.h"
#include "pathdoctor/rule.h"

static const struct pd_irq_row *
row(const struct parsed *p, unsigned snap, unsigned irq)
{
	const struct pd_irq_snap *s = &p->m->hosts->irqs.snap[snap];

	for (unsigned i = 0; i < s->n_rows; i++)
		if (s->rows[i].irq == irq)
			return &s->rows[i];
	fail_msg("no IRQ %u", irq);
	return NULL;
}

static void
test_interrupts_real(void **state)
{
	struct parsed p;
	const struct pd_irq_row *r;

	(void)state;
	parsed_read(&p, "tests/data/interrupts/hotsos-openstack-2cpu-virtio.txt");
	assert_int_equal(p.m->hosts->irqs.n, 1);
	assert_int_equal(p.m->hosts->irqs.snap[0].n_col, 2);
	/* the named rows (NMI ... PIW, ERR, MIS) are not kept */
	assert_int_equal(p.m->hosts->irqs.snap[0].n_rows, 38);
	r = row(&p, 0, 25);
	assert_string_equal(r->chip, "PCI-MSI");
	assert_string_equal(r->hwirq, "49153-edge");
	assert_string_equal(r->name, "virtio0-input.0");
	assert_int_equal(r->count[0], 24376036);
	assert_int_equal(r->count[1], 13487);
	assert_string_equal(row(&p, 0, 10)->name,
	    "virtio10, ehci_hcd:usb1, uhci_hcd:usb2");
	assert_true(p.m->hosts->have & PD_HAVE_IRQ);
	parsed_free(&p);

	parsed_read(&p, "tests/data/interrupts/insights-8cpu-ir-pci-msi.txt");
	assert_int_equal(p.m->hosts->irqs.snap[0].n_col, 8);
	assert_null(row(&p, 0, 30)->name);	/* a vector with no name */
	assert_string_equal(row(&p, 0, 30)->hwirq, "524288-edge");
	assert_string_equal(row(&p, 0, 29)->name, "enp0s25");
	assert_int_equal(row(&p, 0, 29)->count[7], 56791);
	parsed_free(&p);

	/* 2.6/3.x: chip and type in one word, no hwirq */
	parsed_read(&p, "tests/data/interrupts/insights-1cpu-old-layout.txt");
	assert_string_equal(row(&p, 0, 0)->chip, "IO-APIC-edge");
	assert_null(row(&p, 0, 0)->hwirq);
	assert_string_equal(row(&p, 0, 0)->name, "timer");
	parsed_free(&p);
}

static void
test_interrupts_layouts(void **state)
{
	struct parsed p;
	char *text = malloc(64 * 1024);
	size_t n = 0;

	(void)state;
	/* a per-device MSI chip names the function; mlx5 names it */
	parsed_text(&p, "interrupts",
	    "            CPU0       CPU1\n"
	    "123:          0          1 IR-PCI-MSIX-0000:02:00.0   0-edge"
	    "      enp2s0\n"
	    "124:          0          7 IR-PCI-MSIX-0000:02:00.0   1-edge"
	    "      enp2s0-TxRx-0\n"
	    " 60:          5          0    ITS-MSI 524289 Edge      "
	    "mlx5_comp0@pci:0000:01:00.0\n");
	assert_string_equal(row(&p, 0, 124)->bdf, "0000:02:00.0");
	assert_string_equal(row(&p, 0, 124)->hwirq, "1-edge");
	assert_string_equal(row(&p, 0, 60)->bdf, "0000:01:00.0");
	assert_string_equal(row(&p, 0, 60)->hwirq, "524289 Edge");
	assert_string_equal(row(&p, 0, 60)->chip, "ITS-MSI");
	parsed_free(&p);

	/* a wide host with CPUs 1 and 3 offline: columns named by CPU */
	n += (size_t)sprintf(text + n, "# date: 1764000000\n     ");
	for (unsigned c = 0; c < 600; c++)
		if (c != 1 && c != 3)
			n += (size_t)sprintf(text + n, " CPU%u", c);
	n += (size_t)sprintf(text + n, "\n 77:");
	for (unsigned c = 0; c < 598; c++)
		n += (size_t)sprintf(text + n, " %u", c == 2 ? 999 : 0);
	sprintf(text + n, " IR-PCI-MSI 1-edge eth0-TxRx-0\n");
	parsed_text(&p, "interrupts/interrupts@1764000099.txt", text);
	assert_int_equal(p.m->hosts->irqs.snap[0].n_col, 598);
	assert_int_equal(p.m->hosts->irqs.snap[0].col_cpu[1], 2);
	assert_int_equal(p.m->hosts->irqs.snap[0].col_cpu[597], 599);
	/* the third column is CPU 4's */
	assert_int_equal(p.m->hosts->irqs.snap[0].col_cpu[2], 4);
	assert_int_equal(row(&p, 0, 77)->count[1], 0);
	assert_int_equal(row(&p, 0, 77)->count[2], 999);
	/* the # date: line wins over the path's time */
	assert_int_equal(p.m->hosts->irqs.snap[0].time, 1764000000);
	parsed_free(&p);
	free(text);
}

static void
test_interrupts_bids(void **state)
{
	const struct pd_format *f = pd_format_find("interrupts");
	static const char *const no[] = {
		"CPU0 CPU1\nhello world\n",
		"           CPU0\n",			/* no row */
		"  0:  45  IO-APIC-edge timer\n",	/* no header */
		"           CPUx\n  0: 1 a b\n",
	};
	struct pd_member m = { .path = "x", .hint_path = "x", .size = -1 };

	(void)state;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		m.head = (const unsigned char *)no[i];
		m.head_len = strlen(no[i]);
		assert_int_equal(f->bid(&m), 0);
	}
	m.head = (const unsigned char *)"           CPU0\n  0:  45  x y\n";
	m.head_len = strlen((const char *)m.head);
	assert_true(f->bid(&m) >= PD_BID_MIN);
}

static void
test_affinity(void **state)
{
	struct parsed p;
	const struct pd_interrupts *x;
	static const char *const names[] = {
		"sosreport-h/proc/irq/24/smp_affinity_list",
		"sosreport-h/proc/irq/24/effective_affinity_list",
		"sosreport-h/proc/irq/25/smp_affinity",
		"sosreport-h/proc/irq/26/smp_affinity_list",
	};
	static const char *const texts[] = { "0-3\n", "2\n",
		"00000000,00000010\n", "not-a-list\n" };

	(void)state;
	parsed_read(&p, "tests/data/irq-affinity/idpf-grep-dotdot.txt");
	x = &p.m->hosts->irqs;
	assert_int_equal(x->n_aff, 5);
	assert_int_equal(x->aff_of[67]->n_smp, 112);
	assert_true(x->aff_of[67]->smp[1] & (1ull << (112 - 64)));
	assert_int_equal(x->aff_of[72]->n_smp, 1);
	/* no interrupt rows: the queues cannot be named */
	assert_false(p.m->hosts->have & PD_HAVE_IRQ);
	parsed_free(&p);

	parsed_read(&p, "tests/data/irq-affinity/mpi3mr-effective-and-smp.txt");
	x = &p.m->hosts->irqs;
	assert_int_equal(x->n_aff, 4);
	assert_true(x->aff_of[121]->eff[0] & (1ull << 44));
	assert_true(x->aff_of[121]->smp[0] & (1ull << 44));
	parsed_free(&p);

	/* a sosreport's one-value files, masks and lists */
	parsed_members(&p, names, texts, 4);
	x = &p.m->hosts->irqs;
	assert_non_null(x->aff_of);
	assert_int_equal(x->aff_of[24]->n_smp, 4);
	assert_int_equal(x->aff_of[24]->n_eff, 1);
	assert_true(x->aff_of[24]->eff[0] & (1ull << 2));
	assert_true(x->aff_of[25]->smp[0] & (1ull << 4));
	assert_null(x->aff_of[26]);	/* not of the file's grammar */
	parsed_free(&p);
}

static void
test_cpufreq_real(void **state)
{
	struct parsed p;
	static const char *const names[] = {
		"sos/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq",
		"sos/sys/devices/system/cpu/cpufreq/policy4/cpuinfo_max_freq",
		"sos/sys/devices/system/cpu/cpufreq/policy4/scaling_governor",
		"sos/sys/class/thermal/thermal_zone2/temp",
	};
	static const char *const texts[] = { "940800\n", "2438400\n",
		"schedutil\n", "45000\n" };

	(void)state;
	parsed_read(&p, "tests/data/cpufreq/lkml-rapl-constraints.txt");
	const struct pd_powercap *z = p.m->hosts->freq.zones;

	assert_non_null(z);
	assert_string_equal(z->zone, "intel-rapl:0");
	assert_int_equal(z->c[0].limit_uw, 6000000);
	assert_int_equal(z->c[0].max_uw, 6000000);
	assert_string_equal(z->c[1].name, "short_term");
	assert_int_equal(z->c[1].max_uw, 0);
	assert_null(z->next);
	parsed_analyse(&p);
	/* a limit at its maximum, and one with no maximum: no cap */
	assert_int_equal(count_findings(&p, "cpu.frequency-capped"), 0);
	parsed_free(&p);

	parsed_members(&p, names, texts, 4);
	const struct pd_cpufreq *f = p.m->hosts->freq.list;

	assert_non_null(f);
	assert_true(f->policy);
	assert_int_equal(f->num, 4);
	assert_int_equal(f->scaling_max, 940800);
	assert_int_equal(f->cpuinfo_max, 2438400);
	assert_string_equal(f->governor, "schedutil");
	assert_int_equal(p.m->hosts->freq.zones->temp_mc, 45000);
	parsed_analyse(&p);
	/* no profile: standalone, the lowest confidence, off the ladder */
	const struct pd_finding *fd = find_finding(&p, "cpu.frequency-capped",
	    "CPUs 4");

	assert_non_null(fd);
	assert_int_equal(fd->confidence, 25);
	assert_int_equal(fd->lever.kind, PD_LEVER_NONE);
	assert_int_equal(fd->gain_hi, 1592);	/* 2438400 / 940800 */
	parsed_free(&p);
}

/* One policy's listing with scaling_max_freq smax of 3900000. */
static size_t
freq_count(const char *smax, const char *gov, const char *drv)
{
	struct parsed p;
	char text[1024];
	size_t n;

	snprintf(text, sizeof(text),
	    "/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq:3900000\n"
	    "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq:%s\n"
	    "/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq:1378000\n"
	    "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor:%s\n"
	    "/sys/devices/system/cpu/cpufreq/policy0/scaling_driver:%s\n",
	    smax, gov, drv);
	parsed_text(&p, "cpufreq.txt", text);
	parsed_analyse(&p);
	n = count_findings(&p, "cpu.frequency-capped");
	parsed_free(&p);
	return n;
}

static void
test_freq_thresholds(void **state)
{
	struct parsed p;
	const struct pd_finding *f;
	static const char *const names[] = { "powercap.txt" };
	static const char *const texts[] = {
		"/sys/class/powercap/intel-rapl:0/name:package-0\n"
		"/sys/class/powercap/intel-rapl:0/enabled:1\n"
		"/sys/class/powercap/intel-rapl:0/constraint_0_name:long_term\n"
		"/sys/class/powercap/intel-rapl:0/constraint_0_power_limit_uw:"
		"20000000\n"
		"/sys/class/powercap/intel-rapl:0/constraint_0_max_power_uw:"
		"60000000\n" };

	(void)state;
	/* 95 % of 3.9 GHz is 3.705 GHz: at it no cap, just below a cap */
	assert_int_equal(freq_count("3705000", "schedutil", "cppc_cpufreq"), 0);
	assert_int_equal(freq_count("3704000", "schedutil", "cppc_cpufreq"), 1);
	/* powersave needs a busy profile; none here */
	assert_int_equal(freq_count("3900000", "powersave", "cppc_cpufreq"), 0);
	assert_int_equal(freq_count("3900000", "powersave", "intel_pstate"), 0);
	/* intel_pstate's max_perf_pct: 50 caps (x2), 95 does not */
	parsed_text(&p, "cpufreq.txt",
	    "/sys/devices/system/cpu/intel_pstate/max_perf_pct:50\n");
	parsed_analyse(&p);
	f = find_finding(&p, "cpu.frequency-capped", "intel_pstate");
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 1000);
	parsed_free(&p);
	parsed_text(&p, "cpufreq.txt",
	    "/sys/devices/system/cpu/intel_pstate/max_perf_pct:95\n");
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "cpu.frequency-capped"), 0);
	parsed_free(&p);
	/* a 20 W limit of 60 W: the cube root of 3 */
	parsed_members(&p, names, texts, 1);
	parsed_analyse(&p);
	f = find_finding(&p, "cpu.frequency-capped", "intel-rapl:0");

	assert_non_null(f);
	assert_int_equal(f->gain_hi, 442);
	assert_non_null(strstr(f->gain_basis, "20 W"));
	parsed_free(&p);
}

/* The generic powersave governor holds scaling_min_freq: a cap only on
 * a busy host.  The gx10-freq-capped bundle's profile shows the X925
 * cores busy; its listing is rewritten with every policy at full
 * scaling_max_freq and powersave (then schedutil, then intel_pstate's
 * own powersave) on CPUs 0-9. */
static void
freq_powersave_case(const char *governor, const char *driver,
    size_t *n_found, int *gain_hi)
{
	static const char *const files[] = { "uname.txt", "lscpu.txt",
		"cpuinfo.txt", "kallsyms.txt", "perf.data.gz", "cmdline.txt" };
	struct tar_entry e[8];
	unsigned char *data[8], *tar;
	char list[8192];
	size_t n = 0, len, used = 0;
	struct parsed p;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256];

		snprintf(path, sizeof(path), "samples/bundles/gx10-freq-capped/%s",
		    files[i]);
		data[n] = slurp(path, &len);
		assert_non_null(data[n]);
		e[n] = (struct tar_entry){ .path = files[i], .data = data[n],
			.len = len };
		n++;
	}
	for (unsigned c = 0; c < 20; c++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
		    "/sys/devices/system/cpu/cpufreq/policy%u/cpuinfo_max_freq:"
		    "3900000\n/sys/devices/system/cpu/cpufreq/policy%u/"
		    "scaling_max_freq:3900000\n/sys/devices/system/cpu/cpufreq/"
		    "policy%u/scaling_min_freq:1378000\n/sys/devices/system/cpu/"
		    "cpufreq/policy%u/scaling_governor:%s\n/sys/devices/system/"
		    "cpu/cpufreq/policy%u/scaling_driver:%s\n/sys/devices/"
		    "system/cpu/cpufreq/policy%u/affected_cpus:%u\n", c, c, c, c,
		    c < 10 ? governor : "schedutil", c, driver, c, c);
	e[n++] = (struct tar_entry){ .path = "cpufreq.txt", .data = list };
	tar = make_tar(e, n, 0, &len);
	parsed_read_memory(&p, tar, len, "powersave.tar");
	parsed_analyse(&p);
	*n_found = count_findings(&p, "cpu.frequency-capped");
	const struct pd_finding *f = find_finding(&p, "cpu.frequency-capped",
	    "CPUs 0-9");
	*gain_hi = f ? f->gain_hi : -1;
	parsed_free(&p);
	free(tar);
	for (size_t i = 0; i + 1 < n; i++)
		free(data[i]);
}

static void
test_freq_powersave_busy(void **state)
{
	size_t found;
	int hi;

	(void)state;
	/* held at 1.378 of 3.9 GHz on busy cores: x2.83, +183 % at most */
	freq_powersave_case("powersave", "cppc_cpufreq", &found, &hi);
	assert_int_equal(found, 1);
	assert_int_equal(hi, 1830);
	freq_powersave_case("schedutil", "cppc_cpufreq", &found, &hi);
	assert_int_equal(found, 0);
	/* intel_pstate's powersave is its dynamic mode, no cap */
	freq_powersave_case("powersave", "intel_pstate", &found, &hi);
	assert_int_equal(found, 0);
}

static void
test_freq_samples(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_analysed(&p, "samples/gx10-freq-capped.tgz");
	f = find_finding(&p, "cpu.frequency-capped", "CPUs 0-9");
	assert_non_null(f);
	/* the profile shows the X925 cores busy: on the ladder */
	assert_int_equal(f->lever.kind, PD_LEVER_CPU_FREQ);
	assert_int_equal(f->confidence, 60);
	parsed_free(&p);
	parsed_analysed(&p, "samples/gx10-irq-x925.tgz");
	assert_int_equal(count_findings(&p, "cpu.frequency-capped"), 0);
	assert_true(p.m->hosts->have & PD_HAVE_CPUFREQ);
	parsed_free(&p);
}

static void
test_irq_samples(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_analysed(&p, "samples/gx10-irq-a725.tgz");
	f = find_finding(&p, "nic.irq-affinity", "nic2");
	assert_non_null(f);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 10);	/* under 1 % */
	assert_int_equal(f->confidence, 70);	/* counts that moved */
	assert_int_equal(f->lever.kind, PD_LEVER_EFFICIENCY);
	assert_non_null(strstr(f->summary, "Cortex-A725"));
	assert_non_null(strstr(f->summary, "50 %"));
	parsed_free(&p);
	parsed_analysed(&p, "samples/gx10-irq-x925.tgz");
	assert_int_equal(count_findings(&p, "nic.irq-affinity"), 0);
	parsed_free(&p);
}

/* The GX10 host's PCI and CPU outputs with one PF (nic2) and an
 * interrupts text whose 20 queues sit on cpu_of[i], moving by 1000 a
 * queue between two snapshots (one snapshot with timed false).  cpu
 * replaces lscpu.txt and drops cpuinfo.txt when not NULL; extra is one
 * more member (cpufreq.txt) when not NULL. */
static size_t
irq_host(const int *cpu_of, bool timed, const char *cpu, const char *extra,
    const struct pd_finding **out, struct parsed *p)
{
	static const char *const files[] = { "lspci-vv.txt",
		"ethtool-i/nic2.txt", "lscpu.txt", "cpuinfo.txt" };
	const char *names[8], *texts[8];
	char *snap[2];
	size_t nm = 0;

	for (size_t i = 0; i < (cpu ? 2u : 4u); i++) {
		char path[256];
		size_t len;

		snprintf(path, sizeof(path), "samples/bundles/gx10-irq-x925/%s",
		    files[i]);
		names[nm] = files[i];
		texts[nm++] = (const char *)slurp(path, &len);
		assert_non_null(texts[nm - 1]);
	}
	if (cpu) {
		names[nm] = "lscpu.txt";
		texts[nm++] = strdup(cpu);
	}
	if (extra) {
		names[nm] = "cpufreq.txt";
		texts[nm++] = strdup(extra);
	}
	for (int s = 0; s < (timed ? 2 : 1); s++) {
		size_t n = 0;

		snap[s] = malloc(16384);
		n += (size_t)sprintf(snap[s] + n, "# date: %d\n    ",
		    1764000000 + 10 * s);
		for (unsigned c = 0; c < 20; c++)
			n += (size_t)sprintf(snap[s] + n, " CPU%u", c);
		for (unsigned q = 0; q < 20; q++) {
			n += (size_t)sprintf(snap[s] + n, "\n%u:", 141 + q);
			for (int c = 0; c < 20; c++)
				n += (size_t)sprintf(snap[s] + n, " %d",
				    c == cpu_of[q] ? 5000 + 1000 * s : 0);
			n += (size_t)sprintf(snap[s] + n, " ITS-MSI %u Edge "
			    "mlx5_comp%u@pci:0000:01:00.0", 524289 + q, q);
		}
		snap[s][n++] = '\n';
		snap[s][n] = '\0';
		names[nm] = s ? "interrupts/interrupts@1764000010.txt" :
		    "interrupts/interrupts@1764000000.txt";
		texts[nm++] = snap[s];
	}
	parsed_members(p, names, texts, nm);
	parsed_analyse(p);
	for (size_t i = 0; i < nm; i++)
		free((void *)texts[i]);
	*out = find_finding(p, "nic.irq-affinity", NULL);
	return count_findings(p, "nic.irq-affinity");
}

static size_t
irq_case(const int *cpu_of, bool timed, const struct pd_finding **out,
    struct parsed *p)
{
	return irq_host(cpu_of, timed, NULL, NULL, out, p);
}

/* An x86 hybrid names no core types: the policies' cpuinfo_max_freq
 * tells its slow cores; and a two-node host's remote CPUs. */
static void
test_irq_hybrid_and_numa(void **state)
{
	struct parsed p;
	const struct pd_finding *f;
	int cpu_of[20];
	static const char lscpu1[] = "Architecture: x86_64\n"
	    "CPU(s): 20\nNUMA node(s): 1\nNUMA node0 CPU(s): 0-19\n";
	static const char lscpu2[] = "Architecture: aarch64\n"
	    "CPU(s): 20\nNUMA node(s): 2\n"
	    "NUMA node0 CPU(s): 0-4,10-14\nNUMA node1 CPU(s): 5-9,15-19\n";
	static const char freq[] =
	    "/sys/devices/system/cpu/cpufreq/policy0/affected_cpus:"
	    "0 1 2 3 4 5 6 7 8 9\n"
	    "/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq:5000000\n"
	    "/sys/devices/system/cpu/cpufreq/policy10/affected_cpus:"
	    "10 11 12 13 14 15 16 17 18 19\n"
	    "/sys/devices/system/cpu/cpufreq/policy10/cpuinfo_max_freq:"
	    "3800000\n";

	(void)state;
	for (int q = 0; q < 20; q++)
		cpu_of[q] = q < 8 ? 10 + q : q % 10;
	assert_int_equal(irq_host(cpu_of, true, lscpu1, freq, &f, &p), 1);
	assert_non_null(strstr(f->summary, "cpuinfo_max_freq"));
	assert_non_null(strstr(f->summary, "40 %"));
	parsed_free(&p);
	/* 5 of 20 on node 1's CPUs 5-9, the device on node 0 */
	for (int q = 0; q < 20; q++)
		cpu_of[q] = q < 5 ? 5 + q : q % 5;
	assert_int_equal(irq_host(cpu_of, true, lscpu2, NULL, &f, &p), 1);
	assert_non_null(strstr(f->summary, "NUMA node"));
	assert_non_null(strstr(f->summary, "25 %"));
	parsed_free(&p);
	/* 4 of 20: below a quarter */
	cpu_of[4] = 4;
	assert_int_equal(irq_host(cpu_of, true, lscpu2, NULL, &f, &p), 0);
	parsed_free(&p);
}

static void
test_irq_thresholds(void **state)
{
	struct parsed p;
	const struct pd_finding *f;
	int cpu_of[20];

	(void)state;
	/* 5 of 20 queues on the A725 cores (10-19): a quarter, fires */
	for (int q = 0; q < 20; q++)
		cpu_of[q] = q < 5 ? 10 + q : q % 10;
	assert_int_equal(irq_case(cpu_of, true, &f, &p), 1);
	assert_non_null(strstr(f->summary, "25 %"));
	parsed_free(&p);
	/* 4 of 20: below it */
	cpu_of[4] = 4;
	assert_int_equal(irq_case(cpu_of, true, &f, &p), 0);
	parsed_free(&p);
	/* every queue on CPU 3 (a fast core): all on one CPU */
	for (int q = 0; q < 20; q++)
		cpu_of[q] = 3;
	assert_int_equal(irq_case(cpu_of, true, &f, &p), 1);
	assert_non_null(strstr(f->summary, "CPU 3 alone"));
	/* no profile in this bundle: the pinning case's 1 % */
	assert_int_equal(f->gain_hi, 10);
	assert_non_null(strstr(f->gain_basis, "perf record"));
	parsed_free(&p);
	/* one snapshot: since-boot counts, lower confidence */
	for (int q = 0; q < 20; q++)
		cpu_of[q] = 10 + q % 10;
	assert_int_equal(irq_case(cpu_of, false, &f, &p), 1);
	assert_int_equal(f->confidence, 35);
	assert_non_null(f->confidence_note);
	parsed_free(&p);
}

int
test_group_irqcpu(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interrupts_real),
		cmocka_unit_test(test_interrupts_layouts),
		cmocka_unit_test(test_interrupts_bids),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_cpufreq_real),
		cmocka_unit_test(test_freq_thresholds),
		cmocka_unit_test(test_freq_samples),
		cmocka_unit_test(test_freq_powersave_busy),
		cmocka_unit_test(test_irq_samples),
		cmocka_unit_test(test_irq_thresholds),
		cmocka_unit_test(test_irq_hybrid_and_numa),
	};

	return cmocka_run_group_tests_name("irqcpu", tests, NULL, NULL);
}

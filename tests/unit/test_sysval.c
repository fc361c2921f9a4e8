/* Listing lines, path patterns, one-value files and CPU lists. */
#include <string.h>
#include "base/sysval.h"
#include "helpers.h"
#include "pathdoctor/format.h"

static void
test_split(void **state)
{
	struct pd_span p, v;

	(void)state;
	assert_true(pd_sysval_split("/proc/irq/24/smp_affinity_list:0-3\r",
	    &p, &v));
	assert_int_equal(p.n, strlen("/proc/irq/24/smp_affinity_list"));
	assert_int_equal(v.n, 3);
	assert_memory_equal(v.p, "0-3", 3);
	/* a value with a colon keeps it */
	assert_true(pd_sysval_split("/sys/x/name:a:b", &p, &v));
	assert_memory_equal(v.p, "a:b", 3);
	/* an empty value is a value */
	assert_true(pd_sysval_split("/sys/x/y:", &p, &v));
	assert_int_equal(v.n, 0);
	assert_false(pd_sysval_split("sys/x:1", &p, &v));
	assert_false(pd_sysval_split("/sys/a b:1", &p, &v));
	assert_false(pd_sysval_split("/:1", &p, &v));
	assert_false(pd_sysval_split("/sys/x", &p, &v));
}

static void
test_match(void **state)
{
	struct pd_span c[PD_SYSVAL_CAPS];
	const char *pat = "sys/class/nvme-subsystem/*/iopolicy";
	const char *ok[] = {
		"/sys/class/nvme-subsystem/nvme-subsys0/iopolicy",
		"sys/class/nvme-subsystem/nvme-subsys0/iopolicy",
		"sosreport-h-2025/sys/class/nvme-subsystem/nvme-subsys0/iopolicy",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_true(pd_sysval_match(ok[i], strlen(ok[i]), pat, c));
		assert_int_equal(c[0].n, strlen("nvme-subsys0"));
		assert_memory_equal(c[0].p, "nvme-subsys0", c[0].n);
	}
	assert_false(pd_sysval_match("xsys/class/nvme-subsystem/a/iopolicy",
	    36, pat, c));
	assert_false(pd_sysval_match("/sys/class/nvme-subsystem/a/b/iopolicy",
	    38, pat, c));
	assert_false(pd_sysval_match("/sys/class/nvme-subsystem//iopolicy",
	    35, pat, c));
	/* a star inside a component captures the rest of it */
	const char *f = "/sys/devices/system/cpu/cpu12/cpufreq/scaling_max_freq";
	assert_true(pd_sysval_match(f, strlen(f),
	    "sys/devices/system/cpu/cpu*/cpufreq/*", c));
	assert_memory_equal(c[0].p, "12", 2);
	assert_int_equal(c[1].n, strlen("scaling_max_freq"));
	/* NULL caps allowed */
	assert_true(pd_sysval_match(f, strlen(f), "cpufreq/*", NULL));
}

static void
member(struct pd_member *m, const char *text, int64_t size)
{
	memset(m, 0, sizeof(*m));
	m->path = m->hint_path = "x";
	m->head = (const unsigned char *)text;
	m->head_len = strlen(text);
	m->size = size;
}

static void
test_one_line(void **state)
{
	struct pd_member m;
	char out[16];

	(void)state;
	member(&m, "round-robin\n", 12);
	assert_true(pd_sysval_one_line(&m, out, sizeof(out)));
	assert_string_equal(out, "round-robin");
	member(&m, "numa", -1);
	assert_true(pd_sysval_one_line(&m, out, sizeof(out)));
	member(&m, "a\nb\n", 4);
	assert_false(pd_sysval_one_line(&m, out, sizeof(out)));
	member(&m, "\n", 1);
	assert_false(pd_sysval_one_line(&m, out, sizeof(out)));
	member(&m, "0123456789abcdefX\n", 18);
	assert_false(pd_sysval_one_line(&m, out, sizeof(out)));
	/* a head shorter than the member: more than the head holds */
	member(&m, "numa\n", 100000);
	assert_false(pd_sysval_one_line(&m, out, sizeof(out)));
}

static void
test_cpulist(void **state)
{
	uint64_t b[2];
	unsigned n;

	(void)state;
	assert_true(pd_cpulist_parse("0-3,8,10-11\n", 12, b, 128, &n));
	assert_int_equal(n, 7);
	assert_int_equal(b[0], 0xd0full);
	assert_true(pd_cpulist_parse("", 0, b, 128, &n));
	assert_int_equal(n, 0);
	assert_true(pd_cpulist_parse("127", 3, b, 128, &n));
	assert_int_equal(b[1], 1ull << 63);
	assert_true(pd_cpulist_parse("1,1,0-1", 7, b, 128, &n));
	assert_int_equal(n, 2);
	assert_false(pd_cpulist_parse("128", 3, b, 128, &n));
	assert_false(pd_cpulist_parse("3-1", 3, b, 128, &n));
	assert_false(pd_cpulist_parse("1,,2", 4, b, 128, &n));
	assert_false(pd_cpulist_parse("a", 1, b, 128, &n));
	assert_false(pd_cpulist_parse("99999999999", 11, b, 128, &n));
	assert_true(pd_cpumask_parse("00000000,0000000f", 17, b, 128, &n));
	assert_int_equal(n, 4);
	assert_int_equal(b[0], 0xfull);
	assert_true(pd_cpumask_parse("1,00000000", 10, b, 128, &n));
	assert_int_equal(b[0], 1ull << 32);
	const char *wide = "1,00000000,00000000,00000000,00000000";
	assert_false(pd_cpumask_parse(wide, strlen(wide), b, 128, &n));
	assert_false(pd_cpumask_parse("g", 1, b, 128, &n));
	assert_false(pd_cpumask_parse("", 0, b, 128, &n));
}

int
test_group_sysval(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_one_line),
		cmocka_unit_test(test_cpulist),
	};
	return cmocka_run_group_tests_name("sysval", tests, NULL, NULL);
}

/* The workload rules: what they count in a benchmark's options, and
 * what they conclude on tests/data-wlrules (one host a case). */
#include <string.h>
#include "helpers.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/rule.h"
#include "rules/workload.h"

static void
test_size(void **state)
{
	static const struct {
		const char *s;
		long long want;
	} cases[] = {
		{ "1M", 1048576 }, { "1m", 1048576 }, { "1024k", 1048576 },
		{ "1048576", 1048576 }, { "1048576B", 1048576 },
		{ "1MiB", 1048576 }, { "1024KiB", 1048576 }, { "4k", 4096 },
		{ "4096B", 4096 }, { "2g", 2147483648LL },
		{ "1M,4k", 1048576 },		/* the read size */
		{ "1M-4M", 1048576 },		/* the low end */
		{ "", -1 }, { "M", -1 }, { "1x", -1 },
		{ "1048576 -w", 1048576 },	/* a command line's word */
		{ "99999999999999999999k", -1 },
	};

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++)
		if (pd_wl_size(cases[i].s) != cases[i].want)
			fail_msg("pd_wl_size(\"%s\") = %lld, want %lld",
			    cases[i].s, (long long)pd_wl_size(cases[i].s),
			    cases[i].want);
	assert_int_equal(pd_wl_size(NULL), -1);
	assert_true(pd_wl_reads_only("read"));
	assert_true(pd_wl_reads_only("randread"));
	assert_true(pd_wl_reads_only("randread:8"));
	assert_false(pd_wl_reads_only("randrw"));
	assert_false(pd_wl_reads_only("readwrite"));
	assert_false(pd_wl_reads_only("write"));
	assert_false(pd_wl_reads_only(NULL));
}

/* A workload of n records of one job, as fio prints them. */
static struct pd_workload *
records(struct pd_arena *a, unsigned n, int numjobs, int iodepth,
    const char *engine, bool group_reporting)
{
	struct pd_workload *w = pd_arena_alloc(a, sizeof(*w));

	for (unsigned i = 0; i < n; i++) {
		struct pd_wl_job *j = pd_workload_job(w, a, "reads");

		j->groupid = 0;
		j->numjobs = numjobs;
		j->iodepth = iodepth;
		j->ioengine = engine;
		j->group_reporting = group_reporting;
	}
	return w;
}

static void
test_in_flight(void **state)
{
	struct pd_arena *a = pd_arena_new();
	struct pd_workload *w;

	(void)state;
	/* fio's JSON for numjobs=4 with group_reporting: one record, and
	 * no group_reporting among its options */
	w = records(a, 1, 4, 64, "libaio", false);
	assert_int_equal(pd_wl_processes(w, w->jobs), 4);
	assert_int_equal(pd_wl_in_flight(w, w->jobs), 256);
	/* without group_reporting: a record per clone */
	w = records(a, 4, 4, 64, "libaio", false);
	assert_int_equal(pd_wl_processes(w, w->jobs), 1);
	assert_int_equal(pd_wl_in_flight(w, w->jobs->next), 64);
	/* the text reader's jobs=4 */
	w = records(a, 1, 4, 10, "libaio", true);
	assert_int_equal(pd_wl_in_flight(w, w->jobs), 40);
	/* synchronous engines ignore iodepth; fio's default is 1 */
	w = records(a, 1, 1, 32, "psync", false);
	assert_int_equal(pd_wl_in_flight(w, w->jobs), 1);
	w = records(a, 1, -1, -1, NULL, false);
	assert_int_equal(pd_wl_in_flight(w, w->jobs), 1);
	pd_arena_free(a);
}

static bool
has_fix(const struct pd_finding *f, const char *text)
{
	for (unsigned i = 0; i < f->n_fix; i++)
		if (strstr(f->fix[i], text))
			return true;
	return false;
}

static void
test_bundle(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_analysed(&p, "tests/data-wlrules");
	assert_int_equal(p.rc, 0);
	assert_int_equal(count_findings(&p, "workload.reads-in-flight"), 2);
	assert_int_equal(count_findings(&p, "workload.fio-shared-devices"), 1);
	assert_int_equal(count_findings(&p, "workload.spdk-request-pool"), 2);
	/* 4 x iodepth 64 through the kernel: 256 in flight */
	f = find_finding(&p, "workload.reads-in-flight", "fio-deep/");
	assert_non_null(f);
	assert_non_null(strstr(f->summary, "256 reads"));
	assert_int_equal(f->gain_lo, 30);
	assert_int_equal(f->gain_hi, 50);
	assert_int_equal(f->confidence, 65);	/* 50 + 25 x 96/160 */
	assert_int_equal(f->lever.kind, PD_LEVER_EFFICIENCY);
	assert_float_equal(f->lever.share_lo, 0.03, 1e-9);
	assert_float_equal(f->lever.share_hi, 0.05, 1e-9);
	assert_true(has_fix(f, "iodepth=10"));
	assert_int_equal(f->ev[0].line, 18);
	/* -q 32 on 4 namespaces, from the --during command */
	f = find_finding(&p, "workload.reads-in-flight", "spdk-during/");
	assert_non_null(f);
	assert_non_null(strstr(f->summary, "128 reads"));
	assert_true(has_fix(f, "spdk_nvme_perf -q 5 -o 1048576 -w randread"));
	assert_int_equal(f->gain_lo, 0);
	f = find_finding(&p, "workload.spdk-request-pool", "spdk-during/");
	assert_non_null(f);
	assert_int_equal(f->confidence, 45);	/* no -12 line read */
	assert_true(has_fix(f, "spdk_nvme_perf -q 8 -o 1048576"));
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	f = find_finding(&p, "workload.spdk-request-pool", "spdk-errors/");
	assert_non_null(f);
	assert_int_equal(f->confidence, 80);
	assert_non_null(strstr(f->summary, "6 I/Os with -12"));
	assert_int_equal(f->ev[0].line, 5);
	/* four devices, two clones of one job: one finding */
	f = find_finding(&p, "workload.fio-shared-devices", "fio-shared/");
	assert_non_null(f);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 750);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_true(has_fix(f, "[nvme4n1]\\nfilename=/dev/nvme4n1"));
	assert_true(has_fix(f, "iodepth=4\\nnumjobs=2"));
	/* 4 x iodepth 10 (text output), -q 4 x 4: nothing */
	for (size_t i = 0; i < p.fs.n; i++) {
		assert_null(strstr(p.fs.v[i]->subject, "fio-tuned/"));
		assert_null(strstr(p.fs.v[i]->subject, "spdk-shallow/"));
	}
	parsed_free(&p);
}

/* spdk_nvme_perf's own echo of its command, one namespace: 32 in flight
 * is no finding, but -q 32 on 1 MiB reads is. */
static void
test_pool_from_member(void **state)
{
	static const char text[] =
	    "# spdk_nvme_perf -q 32 -o 1M -w read -t 10 -r 'trtype:TCP "
	    "adrfam:IPv4 traddr:10.0.0.1 trsvcid:4420'\n"
	    "Initializing NVMe Controllers\n"
	    "starting I/O failed: -12\n"
	    "Device Information                     :       IOPS      MiB/s"
	    "    Average        min        max\n"
	    "TCP (addr:10.0.0.1 subnqn:nqn.2016-06.io.spdk:cnode1) NSID 1 from "
	    "core 0:    2900.10    2900.10   11033.20    1500.00   30000.00\n"
	    "Total                                  :    2900.10    2900.10"
	    "   11033.20    1500.00   30000.00\n";
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_text(&p, "spdk_nvme_perf.txt", text);
	parsed_analyse(&p);
	assert_int_equal(count_findings(&p, "workload.reads-in-flight"), 0);
	f = find_finding(&p, "workload.spdk-request-pool", NULL);
	assert_non_null(f);
	assert_int_equal(f->confidence, 80);
	assert_non_null(strstr(f->summary, "at -q 32 on 1 MiB read"));
	assert_true(has_fix(f, "spdk_nvme_perf -q 8 -o 1M -w read ..."));
	parsed_free(&p);
}

/* A filename= entry with shell syntax is never echoed into a command. */
static void
test_shared_hostile(void **state)
{
	static const char text[] =
	    "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n"
	    "      \"jobname\" : \"r\",\n      \"groupid\" : 0,\n"
	    "      \"error\" : 0,\n      \"job options\" : {\n"
	    "        \"rw\" : \"read\",\n        \"bs\" : \"1M\",\n"
	    "        \"filename\" : \"/dev/a:/dev/b';reboot;'\"\n      },\n"
	    "      \"read\" : { \"io_bytes\" : 1, \"bw_bytes\" : 1, \"iops\" : 1,"
	    " \"runtime\" : 1 }\n    }\n  ]\n}\n";
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	parsed_text(&p, "fio.json", text);
	parsed_analyse(&p);
	f = find_finding(&p, "workload.fio-shared-devices", NULL);
	assert_non_null(f);
	assert_false(has_fix(f, "reboot"));
	assert_true(has_fix(f, "one job section per device"));
	parsed_free(&p);
}

int
test_group_wlrules(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_in_flight),
		cmocka_unit_test(test_bundle),
		cmocka_unit_test(test_pool_from_member),
		cmocka_unit_test(test_shared_hostile),
	};
	return cmocka_run_group_tests_name("wlrules", tests, NULL, NULL);
}

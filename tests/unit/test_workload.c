/* Workload readers: fio JSON (samples in tests/data-workload, origins in
 * tests/data/SOURCES.md), and the bounds and quirks samples lack. */
#include <string.h>
#include "helpers.h"

/* The only workload of a one-member model, read as format fmt with
 * status ok. */
static const struct pd_workload *
only_workload(const struct parsed *p, const char *fmt)
{
	assert_int_equal(p->rc, 0);
	assert_non_null(p->cov.members);
	assert_string_equal(p->cov.members->format, fmt);
	if (p->cov.members->diag.worst != PD_OK)
		fail_msg("%s: %s", p->cov.members->path,
		    p->cov.members->diag.notes->msg);
	assert_non_null(p->m->hosts->workloads);
	assert_null(p->m->hosts->workloads->next);
	assert_true(p->m->hosts->have & PD_HAVE_WORKLOAD);
	return p->m->hosts->workloads;
}

static void
test_fio_json_gvisor(void **state)
{
	struct parsed p;
	const struct pd_workload *w;
	const struct pd_wl_job *j;

	(void)state;
	parsed_read(&p, "tests/data-workload/fio-json/"
	    "gvisor-fio-3.1-write.json");
	w = only_workload(&p, "fio-json");
	assert_string_equal(w->version, "fio-3.1");
	assert_int_equal(w->n_jobs, 1);
	assert_int_equal(w->n_errors, 0);
	j = w->jobs;
	assert_string_equal(j->name, "test");
	assert_int_equal(j->groupid, 0);
	/* fio 3.1 has no bw_bytes: bw is KiB/s */
	assert_int_equal(j->wr.bytes, 1073741824);
	assert_float_equal(j->wr.bytes_per_s, 1753471.0 * 1024, 0.5);
	assert_float_equal(j->wr.iops, 438367.892977, 1e-6);
	assert_float_equal(j->wr.lat_mean_us, 2.076404373, 1e-9);
	assert_float_equal(j->wr.lat_p50_us, 1.816, 1e-9);
	assert_float_equal(j->wr.lat_p99_us, 6.176, 1e-9);
	assert_float_equal(j->wr.lat_p999_us, 11.328, 1e-9);
	assert_float_equal(j->seconds, 0.598, 1e-9);
	/* the read side moved nothing: zero bytes, unknown latency */
	assert_int_equal(j->rd.bytes, 0);
	assert_float_equal(j->rd.bytes_per_s, 0, 0);
	assert_float_equal(j->rd.lat_mean_us, -1, 0);
	assert_string_equal(j->rw, "write");
	assert_string_equal(j->bs, "4096");
	assert_string_equal(j->ioengine, "sync");
	assert_string_equal(j->filename, "/disk/file.dat");
	assert_int_equal(j->n_devices, 1);
	assert_int_equal(j->iodepth, 4);
	assert_int_equal(j->numjobs, -1);
	assert_int_equal(j->ev.line, 8);
	assert_non_null(w->total);
	assert_float_equal(w->total->wr.bytes_per_s, j->wr.bytes_per_s, 0);
	assert_float_equal(w->total->wr.lat_p99_us, 6.176, 1e-9);
	parsed_free(&p);
}

/* Text before and after the JSON (stderr in the same file, then
 * json,normal), global options under job options, a ':' list of
 * devices, json+ bins, a failed job, and the total of two jobs. */
static const char two_jobs[] =
    "a: (g=0): rw=randread, bs=(R) 1024KiB-1024KiB, ioengine=libaio\n"
    "fio-3.36\n"
    "Starting 2 processes\n"
    "{\n"
    "  \"fio version\" : \"fio-3.36\",\n"
    "  \"global options\" : { \"rw\" : \"randread\", \"bs\" : \"1M\",\n"
    "    \"iodepth\" : \"32\", \"ioengine\" : \"libaio\",\n"
    "    \"group_reporting\" : \"\" },\n"
    "  \"jobs\" : [\n"
    "    { \"jobname\" : \"a\", \"groupid\" : 0, \"error\" : 0,\n"
    "      \"job options\" : { \"filename\" : "
    "\"/dev/nvme1n1:/dev/nvme2n1:/dev/nvme3n1\", \"iodepth\" : \"8\",\n"
    "                         \"numjobs\" : \"4\" },\n"
    "      \"read\" : { \"io_bytes\" : 2097152, \"bw_bytes\" : 1048576,\n"
    "        \"bw\" : 1024, \"iops\" : 1.0, \"runtime\" : 2000,\n"
    "        \"clat_ns\" : { \"mean\" : 1500.0, \"percentile\" : {\n"
    "          \"50.000000\" : 1000, \"99.000000\" : 3000 },\n"
    "          \"bins\" : { \"1000\" : 1, \"3000\" : 1 } } },\n"
    "      \"write\" : { \"io_bytes\" : 0, \"bw_bytes\" : 0, \"bw\" : 0,\n"
    "        \"iops\" : 0.0, \"runtime\" : 0 } },\n"
    "    { \"jobname\" : \"b\", \"groupid\" : 1, \"error\" : 5,\n"
    "      \"read\" : { \"io_bytes\" : 1048576, \"bw_bytes\" : 524288,\n"
    "        \"bw\" : 512, \"iops\" : 0.5, \"runtime\" : 2000 },\n"
    "      \"write\" : { \"io_bytes\" : 0, \"bw_bytes\" : 0, \"bw\" : 0,\n"
    "        \"iops\" : 0.0, \"runtime\" : 0 } }\n"
    "  ]\n"
    "}\n"
    "a: (groupid=0, jobs=4): err= 0: pid=1: Mon Jan  1 00:00:00 2024\n";

static void
test_fio_json_jobs_and_total(void **state)
{
	struct parsed p;
	const struct pd_workload *w;
	const struct pd_wl_job *a, *b, *t;

	(void)state;
	parsed_text(&p, "fio.json", two_jobs);
	w = only_workload(&p, "fio-json");
	assert_int_equal(w->n_jobs, 2);
	a = w->jobs;
	b = a->next;
	assert_string_equal(a->filename,
	    "/dev/nvme1n1:/dev/nvme2n1:/dev/nvme3n1");
	assert_int_equal(a->n_devices, 3);
	assert_int_equal(a->iodepth, 8);	/* job options win */
	assert_int_equal(a->numjobs, 4);
	assert_string_equal(a->bs, "1M");
	assert_true(a->group_reporting);
	assert_float_equal(a->rd.bytes_per_s, 1048576, 0);
	assert_float_equal(a->rd.lat_mean_us, 1.5, 1e-12);
	assert_float_equal(a->rd.lat_p50_us, 1.0, 1e-12);
	assert_float_equal(a->rd.lat_p99_us, 3.0, 1e-12);
	assert_float_equal(a->rd.lat_p999_us, -1, 0);
	assert_int_equal(a->ev.line, 10);
	assert_int_equal(b->iodepth, 32);	/* from the global options */
	assert_int_equal(b->n_devices, -1);
	assert_int_equal(b->ev.line, 20);
	assert_int_equal(w->n_errors, 1);
	assert_int_equal(w->first_error.line, 20);
	t = w->total;
	assert_non_null(t);
	assert_int_equal(t->rd.bytes, 3145728);
	assert_float_equal(t->rd.bytes_per_s, 1572864, 0);
	assert_float_equal(t->rd.iops, 1.5, 1e-12);
	assert_float_equal(t->rd.lat_mean_us, -1, 0);	/* two jobs */
	assert_float_equal(t->seconds, 2.0, 0);
	parsed_free(&p);
}

static void
test_fio_json_bad_and_too_large(void **state)
{
	static const char head[] = "{\n  \"fio version\" : \"fio-3.36\",\n";
	struct parsed p;
	size_t n = (16u << 20) + 4096;
	char *big;

	(void)state;
	parsed_text(&p, "fio.json", "{\n  \"fio version\" : \"fio-3.36\",\n"
	    "  \"jobs\" : [ { \"jobname\" : \n");
	assert_string_equal(p.cov.members->format, "fio-json");
	assert_true(has_note(p.cov.members, "fio-json.bad"));
	assert_null(p.m->hosts->workloads);
	parsed_free(&p);
	big = malloc(n);
	assert_non_null(big);
	memset(big, ' ', n);
	memcpy(big, head, strlen(head));
	parsed_read_memory(&p, big, n, "fio.json");
	assert_string_equal(p.cov.members->format, "fio-json");
	assert_true(has_note(p.cov.members, "fio-json.too-large"));
	assert_null(p.m->hosts->workloads);
	parsed_free(&p);
	free(big);
}

int
test_group_workload(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_json_gvisor),
		cmocka_unit_test(test_fio_json_jobs_and_total),
		cmocka_unit_test(test_fio_json_bad_and_too_large),
	};
	return cmocka_run_group_tests_name("workload", tests, NULL, NULL);
}

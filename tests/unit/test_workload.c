/* Workload readers: fio and iperf3 (JSON and text), spdk_nvme_perf (samples in tests/data-workload, origins in
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

static void
test_fio_text_samples(void **state)
{
	static const struct {
		const char *file, *version, *rw, *bs, *ioengine;
		int iodepth, line;
		bool rd;
		int64_t bytes;
		double bps, iops, mean, p50, p99, p999, seconds;
	} w[] = {
		/* fio 3.1: read: line, clat in usec, "issued rwt:" */
		{ "fio-3.1-read-libaio.txt", "fio-3.1", "read", "4096B",
		    "libaio", 4, 6, true, 3598LL << 20, 11.0 * 1048576, 3070,
		    1295.46, 1303, 3392, 6915, 300.002 },
		/* fio 3.25: write: with "; 0 zone resets", clat in nsec, then
		 * fsync percentiles that are not the completion latency */
		{ "fio-3.25-write-fdatasync.txt", "fio-3.25", "write", "4096B",
		    "sync", 1, 5, false, 22LL << 20, 18.8 * 1048576, 4801,
		    13.46214, 12.608, 23.168, 38.656, 1.173 },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		char path[128];
		const struct pd_workload *wl;
		const struct pd_wl_job *j;
		const struct pd_wl_side *s, *other;

		snprintf(path, sizeof(path), "tests/data-workload/fio/%s",
		    w[i].file);
		parsed_read(&p, path);
		wl = only_workload(&p, "fio");
		assert_string_equal(wl->version, w[i].version);
		assert_int_equal(wl->n_jobs, 1);
		assert_int_equal(wl->n_errors, 0);
		j = wl->jobs;
		assert_string_equal(j->rw, w[i].rw);
		assert_string_equal(j->bs, w[i].bs);
		assert_string_equal(j->ioengine, w[i].ioengine);
		assert_int_equal(j->iodepth, w[i].iodepth);
		assert_int_equal(j->numjobs, 1);
		assert_int_equal(j->ev.line, w[i].line);
		s = w[i].rd ? &j->rd : &j->wr;
		other = w[i].rd ? &j->wr : &j->rd;
		assert_int_equal(s->bytes, w[i].bytes);
		assert_float_equal(s->bytes_per_s, w[i].bps, 1);
		assert_float_equal(s->iops, w[i].iops, 1e-9);
		assert_float_equal(s->lat_mean_us, w[i].mean, 1e-9);
		assert_float_equal(s->lat_p50_us, w[i].p50, 1e-9);
		assert_float_equal(s->lat_p99_us, w[i].p99, 1e-9);
		assert_float_equal(s->lat_p999_us, w[i].p999, 1e-9);
		assert_float_equal(j->seconds, w[i].seconds, 1e-9);
		/* fio leaves out a direction that moved nothing */
		assert_int_equal(other->bytes, 0);
		assert_float_equal(other->lat_mean_us, -1, 0);
		/* the Run status line is the total */
		assert_non_null(wl->total);
		assert_int_equal(wl->total->ev.line, w[i].rd ? 29 : 34);
		assert_float_equal((w[i].rd ? &wl->total->rd :
		    &wl->total->wr)->bytes_per_s, w[i].bps, 1);
		assert_float_equal(wl->total->seconds, w[i].seconds, 1e-9);
		parsed_free(&p);
	}
}

/* fio 2 (modelled on fio 2.0.15's layout: "read : io=..., bw=...KB/s,
 * iops=170 , runt=..."; KB is KiB, "aggrb="), two groups, a failed job
 * with fio's error line. */
static const char fio2[] =
    "a: (g=0): rw=randrw, bs=4K-4K/64K-64K/4K-4K, ioengine=libaio, "
    "iodepth=64\n"
    "b: (g=1): rw=write, bs=4K-4K/64K-64K/4K-4K, ioengine=libaio, "
    "iodepth=8\n"
    "fio-2.0.15\n"
    "Starting 2 processes\n"
    "fio: pid=7, err=5/file:io_u.c:1747, func=io_u error, "
    "error=Input/output error\n"
    "a: (groupid=0, jobs=1): err= 0: pid=6: Thu May  9 16:33:14 2013\n"
    "  read : io=1024KB, bw=512KB/s, iops=128 , runt=  2000msec\n"
    "    clat (usec): min=22 , max=1805.8K, avg=250.50, stdev=2.1\n"
    "    clat percentiles (msec):\n"
    "     |  1.00th=[    1],  5.00th=[    1], 10.00th=[    2],\n"
    "     | 50.00th=[    3], 99.00th=[   12], 99.50th=[   13],\n"
    "     | 99.90th=[   20]\n"
    "  write: io=2048KB, bw=1024KB/s, iops=16 , runt=  2000msec\n"
    "b: (groupid=1, jobs=1): err= 5 (file:io_u.c:1747, func=io_u error, "
    "error=Input/output error): pid=7: Thu May  9 16:33:14 2013\n"
    "  write: io=64KB, bw=64KB/s, iops=1 , runt=  1000msec\n"
    "Run status group 0 (all jobs):\n"
    "   READ: io=1024KB, aggrb=512KB/s, minb=512KB/s, maxb=512KB/s, "
    "mint=2000msec, maxt=2000msec\n"
    "  WRITE: io=2048KB, aggrb=1024KB/s, minb=1024KB/s, maxb=1024KB/s, "
    "mint=2000msec, maxt=2000msec\n"
    "Run status group 1 (all jobs):\n"
    "  WRITE: io=64KB, aggrb=64KB/s, minb=64KB/s, maxb=64KB/s, "
    "mint=1000msec, maxt=1000msec\n";

static void
test_fio_text_v2_groups_errors(void **state)
{
	struct parsed p;
	const struct pd_workload *w;
	const struct pd_wl_job *a, *b, *t;

	(void)state;
	parsed_text(&p, "fio.txt", fio2);
	w = only_workload(&p, "fio");
	assert_int_equal(w->n_jobs, 2);
	a = w->jobs;
	b = a->next;
	assert_string_equal(a->bs, "4K");	/* the read size of randrw */
	assert_string_equal(b->bs, "64K");	/* write-only: the write size */
	assert_int_equal(a->iodepth, 64);
	assert_int_equal(a->rd.bytes, 1024 * 1024);
	assert_float_equal(a->rd.bytes_per_s, 512 * 1024, 0);
	assert_float_equal(a->rd.iops, 128, 0);
	assert_float_equal(a->rd.lat_mean_us, 250.5, 1e-9);
	assert_float_equal(a->rd.lat_p50_us, 3000, 1e-9);	/* msec */
	assert_float_equal(a->rd.lat_p99_us, 12000, 1e-9);
	assert_float_equal(a->rd.lat_p999_us, 20000, 1e-9);
	assert_float_equal(a->wr.bytes_per_s, 1024 * 1024, 0);
	assert_float_equal(a->wr.lat_mean_us, -1, 0);
	assert_float_equal(a->seconds, 2, 1e-9);
	assert_int_equal(b->groupid, 1);
	/* fio's error line, then the job that failed */
	assert_int_equal(w->n_errors, 2);
	assert_int_equal(w->first_error.line, 5);
	t = w->total;
	assert_int_equal(t->wr.bytes, (2048 + 64) * 1024);
	assert_float_equal(t->wr.bytes_per_s, (1024 + 64) * 1024, 0);
	assert_float_equal(t->rd.bytes_per_s, 512 * 1024, 0);
	assert_float_equal(t->seconds, 2, 1e-9);
	parsed_free(&p);
}

/* fio's JSON with its normal output around it is fio-json's; the
 * normal output alone without results is noted. */
static void
test_fio_text_vs_json(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "fio.txt", two_jobs);
	assert_string_equal(p.cov.members->format, "fio-json");
	parsed_free(&p);
	parsed_text(&p, "fio.txt", "a: (g=0): rw=read, bs=(R) 1M-1M, "
	    "ioengine=libaio, iodepth=8\nfio-3.36\nStarting 1 process\n");
	assert_string_equal(p.cov.members->format, "fio");
	assert_true(has_note(p.cov.members, "fio.no-results"));
	assert_null(p.m->hosts->workloads->jobs);
	parsed_free(&p);
}

static void
test_iperf3_json_client(void **state)
{
	struct parsed p;
	const struct pd_workload *w;
	const struct pd_wl_net *n;

	(void)state;
	parsed_read(&p, "tests/data-workload/iperf3-json/"
	    "iperf-3.9-client-tcp-10s.json");
	w = only_workload(&p, "iperf3-json");
	assert_string_equal(w->tool, "iperf3");
	assert_string_equal(w->version, "iperf 3.9");
	assert_int_equal(w->n_jobs, 1);
	assert_int_equal(w->n_errors, 0);
	assert_string_equal(w->jobs->name, "client to 168.1.194.92 TCP");
	n = &w->jobs->net;
	assert_string_equal(n->role, "client");
	assert_int_equal(n->reverse, PD_NO);
	assert_int_equal(n->streams, 1);
	assert_int_equal(n->sent_bytes, 2271477760LL);
	assert_float_equal(n->sent_bytes_per_s, 1817182208.0 / 8, 1e-6);
	assert_int_equal(n->retransmits, 810);
	assert_int_equal(n->recv_bytes, 2271145728LL);
	assert_float_equal(n->recv_bytes_per_s, 1818600060.4759827 / 8, 1e-3);
	assert_float_equal(w->jobs->seconds, 10, 1e-9);
	assert_int_equal(w->jobs->ev.line, 385);
	assert_int_equal(w->jobs->rd.bytes, -1);	/* no storage side */
	assert_non_null(w->total);
	assert_float_equal(w->total->net.recv_bytes_per_s,
	    n->recv_bytes_per_s, 0);
	parsed_free(&p);
}

/* A server's end of a reverse test (the layout of iperf3's server
 * output: "accepted_connection", no retransmits on the receiving side
 * unless it sent), then a client that could not connect. */
static void
test_iperf3_json_server_and_error(void **state)
{
	static const char server[] =
	    "{\n\t\"start\":\t{\n"
	    "\t\t\"version\":\t\"iperf 3.16\",\n"
	    "\t\t\"accepted_connection\":\t{ \"host\": \"10.0.0.2\", "
	    "\"port\": 40000 },\n"
	    "\t\t\"test_start\":\t{ \"protocol\": \"TCP\", "
	    "\"num_streams\": 4, \"duration\": 30, \"reverse\": 1 }\n"
	    "\t},\n\t\"intervals\":\t[],\n"
	    "\t\"end\":\t{ \"streams\": [{}, {}, {}, {}],\n"
	    "\t\t\"sum_sent\":\t{ \"seconds\": 30.0, \"bytes\": 8000000000, "
	    "\"bits_per_second\": 2133333333.3, \"retransmits\": 12 },\n"
	    "\t\t\"sum_received\":\t{ \"seconds\": 30.04, "
	    "\"bytes\": 7990000000, \"bits_per_second\": 2127829560.6 }\n"
	    "\t}\n}\n";
	static const char failed[] =
	    "{\n\t\"start\":\t{\n\t\t\"connected\":\t[],\n"
	    "\t\t\"version\":\t\"iperf 3.9\",\n"
	    "\t\t\"connecting_to\":\t{ \"host\": \"10.0.0.1\", "
	    "\"port\": 5201 }\n\t},\n\t\"intervals\":\t[],\n"
	    "\t\"end\":\t{},\n"
	    "\t\"error\":\t\"unable to connect to server: Connection "
	    "refused\"\n}\n";
	struct parsed p;
	const struct pd_workload *w;

	(void)state;
	parsed_text(&p, "iperf3-server.json", server);
	w = only_workload(&p, "iperf3-json");
	assert_string_equal(w->jobs->net.role, "server");
	assert_int_equal(w->jobs->net.reverse, PD_YES);
	assert_int_equal(w->jobs->net.streams, 4);
	assert_float_equal(w->jobs->net.sent_bytes_per_s,
	    2133333333.3 / 8, 1e-3);
	assert_int_equal(w->jobs->net.retransmits, 12);
	assert_float_equal(w->jobs->seconds, 30.04, 1e-9);
	assert_int_equal(w->jobs->ev.line, 10);
	parsed_free(&p);
	parsed_text(&p, "iperf3.json", failed);
	w = only_workload(&p, "iperf3-json");
	assert_int_equal(w->n_errors, 1);
	assert_int_equal(w->first_error.line, 9);
	assert_int_equal(w->jobs->net.sent_bytes, -1);
	assert_int_equal(w->jobs->net.streams, -1);
	parsed_free(&p);
	parsed_text(&p, "iperf3.json", "{\n\t\"start\":\t{ \"version\": "
	    "\"iperf 3.9\",\n");
	assert_string_equal(p.cov.members->format, "iperf3-json");
	assert_true(has_note(p.cov.members, "iperf3-json.bad"));
	parsed_free(&p);
}

static void
test_iperf3_text_samples(void **state)
{
	static const struct {
		const char *file;
		int64_t sent, recv, retr;
		double sent_bps, recv_bps, seconds;
		int line;
	} w[] = {
		/* iperf 3.5: interval lines, then the report */
		{ "client-3.5-tcp.txt", 106LL << 20, 106LL << 20, 0,
		    88.1e6 / 8, 87.6e6 / 8, 10.12, 14 },
		/* iperf 3.0: "Bandwidth", and "0.00-10.00sec" unspaced */
		{ "client-3.0-bandwidth.txt", (int64_t)(9.45 * 1073741824.0),
		    (int64_t)(9.43 * 1073741824.0), 0, 8114e6 / 8, 8103e6 / 8,
		    10.0, 3 },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < PD_ARRAY_SIZE(w); i++) {
		char path[128];
		const struct pd_workload *wl;
		const struct pd_wl_net *n;

		snprintf(path, sizeof(path), "tests/data-workload/iperf3/%s",
		    w[i].file);
		parsed_read(&p, path);
		wl = only_workload(&p, "iperf3");
		assert_int_equal(wl->n_jobs, 1);
		n = &wl->jobs->net;
		assert_int_equal(n->sent_bytes, w[i].sent);
		assert_int_equal(n->recv_bytes, w[i].recv);
		assert_int_equal(n->retransmits, w[i].retr);
		assert_float_equal(n->sent_bytes_per_s, w[i].sent_bps, 1e-3);
		assert_float_equal(n->recv_bytes_per_s, w[i].recv_bps, 1e-3);
		assert_float_equal(wl->jobs->seconds, w[i].seconds, 1e-9);
		assert_int_equal(wl->jobs->ev.line, w[i].line);
		/* the output was cut before the connection lines */
		assert_null(n->role);
		assert_int_equal(n->streams, -1);
		parsed_free(&p);
	}
}

/* A whole client output (iperf3's layout) of a reverse test with two
 * streams: the [SUM] lines are the test's, not a stream's. */
static void
test_iperf3_text_sum_reverse(void **state)
{
	static const char text[] =
	    "Connecting to host 10.0.0.1, port 5201\n"
	    "Reverse mode, remote host 10.0.0.1 is sending\n"
	    "[  5] local 10.0.0.2 port 40000 connected to 10.0.0.1 port 5201\n"
	    "[  7] local 10.0.0.2 port 40002 connected to 10.0.0.1 port 5201\n"
	    "[ ID] Interval           Transfer     Bitrate\n"
	    "[  5]   0.00-1.00   sec   100 MBytes   839 Mbits/sec\n"
	    "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
	    "[ ID] Interval           Transfer     Bitrate         Retr\n"
	    "[  5]   0.00-10.00  sec  1.00 GBytes   859 Mbits/sec    3   sender\n"
	    "[  5]   0.00-10.00  sec  1.00 GBytes   858 Mbits/sec        receiver\n"
	    "[  7]   0.00-10.00  sec  1.50 GBytes  1.29 Gbits/sec    4   sender\n"
	    "[  7]   0.00-10.00  sec  1.50 GBytes  1.28 Gbits/sec        receiver\n"
	    "[SUM]   0.00-10.00  sec  2.50 GBytes  2.15 Gbits/sec    7   sender\n"
	    "[SUM]   0.00-10.00  sec  2.50 GBytes  2.14 Gbits/sec        receiver\n"
	    "\n"
	    "iperf Done.\n"
	    "iperf3: error - the server is busy running a test. try again "
	    "later\n";
	struct parsed p;
	const struct pd_wl_net *n;
	const struct pd_workload *w;

	(void)state;
	parsed_text(&p, "iperf3.txt", text);
	w = only_workload(&p, "iperf3");
	n = &w->jobs->net;
	assert_string_equal(n->role, "client");
	assert_int_equal(n->reverse, PD_YES);
	assert_int_equal(n->streams, 2);
	assert_int_equal(n->sent_bytes, (int64_t)(2.5 * 1073741824.0));
	assert_float_equal(n->sent_bytes_per_s, 2.15e9 / 8, 1e-3);
	assert_float_equal(n->recv_bytes_per_s, 2.14e9 / 8, 1e-3);
	assert_int_equal(n->retransmits, 7);
	assert_int_equal(w->jobs->ev.line, 14);
	assert_int_equal(w->n_errors, 1);
	assert_int_equal(w->first_error.line, 17);
	parsed_free(&p);
}

static void
test_spdk_perf_sample(void **state)
{
	struct parsed p;
	const struct pd_workload *w;

	(void)state;
	parsed_read(&p, "tests/data-workload/spdk-perf/"
	    "nvmf-rdma-4cores-v18.txt");
	w = only_workload(&p, "spdk-perf");
	assert_string_equal(w->tool, "spdk_nvme_perf");
	assert_int_equal(w->n_jobs, 4);
	assert_string_equal(w->jobs->name,
	    "SPDK bdev Controller (SPDK00000000000001  ) from core 3");
	assert_float_equal(w->jobs->rd.iops, 115626.12, 1e-6);
	assert_float_equal(w->jobs->rd.bytes_per_s, 451.66 * 1048576, 1e-3);
	assert_float_equal(w->jobs->rd.lat_mean_us, 1106.87, 1e-9);
	assert_non_null(w->total);
	assert_float_equal(w->total->rd.iops, 462490.85, 1e-6);
	assert_float_equal(w->total->rd.bytes_per_s, 1806.60 * 1048576, 1e-3);
	assert_float_equal(w->total->rd.lat_mean_us, 1106.91, 1e-9);
	assert_int_equal(w->total->ev.line, 7);
	assert_int_equal(w->n_errors, 0);
	parsed_free(&p);
}

/* The command line names the workload; "starting I/O failed: -12"
 * lines (the request pool ran dry) are counted, the first kept. */
static void
test_spdk_perf_errors_and_options(void **state)
{
	static const char text[] =
	    "# spdk_nvme_perf -q 32 -o 1048576 -w write -t 10 -r 'trtype:TCP "
	    "adrfam:IPv4 traddr:10.0.0.1 trsvcid:4420'\n"
	    "Initializing NVMe Controllers\n"
	    "Attached to NVMe over Fabrics controller at 10.0.0.1:4420: "
	    "nqn.2016-06.io.spdk:cnode1\n"
	    "starting I/O failed: -12\n"
	    "starting I/O failed: -12\n"
	    "========================================================\n"
	    "                                                        "
	    "                             Latency(us)\n"
	    "Device Information                                            "
	    "         :       IOPS      MiB/s    Average        min        max\n"
	    "TCP (addr:10.0.0.1 subnqn:nqn.2016-06.io.spdk:cnode1) NSID 1 from "
	    "core 0:    2900.10    2900.10   11033.20    1500.00   30000.00\n"
	    "========================================================\n"
	    "Total                                                         "
	    "         :    2900.10    2900.10   11033.20    1500.00   30000.00\n";
	struct parsed p;
	const struct pd_workload *w;

	(void)state;
	parsed_text(&p, "spdk_nvme_perf.txt", text);
	w = only_workload(&p, "spdk-perf");
	assert_int_equal(w->n_jobs, 1);
	assert_int_equal(w->n_errors, 2);
	assert_int_equal(w->first_error.line, 4);
	assert_string_equal(w->jobs->rw, "write");
	assert_string_equal(w->jobs->bs, "1048576");
	assert_int_equal(w->jobs->iodepth, 32);
	/* a write-only workload: the numbers are the write side's */
	assert_float_equal(w->jobs->wr.bytes_per_s, 2900.10 * 1048576, 1e-3);
	assert_float_equal(w->jobs->rd.bytes_per_s, -1, 0);
	assert_float_equal(w->total->wr.iops, 2900.10, 1e-9);
	parsed_free(&p);
	parsed_text(&p, "spdk_nvme_perf.txt", "Initializing NVMe "
	    "Controllers\nstarting I/O failed: -12\n");
	assert_string_equal(p.cov.members->format, "spdk-perf");
	assert_true(has_note(p.cov.members, "spdk-perf.no-results"));
	assert_int_equal(p.m->hosts->workloads->n_errors, 1);
	parsed_free(&p);
}

int
test_group_workload(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_json_gvisor),
		cmocka_unit_test(test_fio_json_jobs_and_total),
		cmocka_unit_test(test_fio_json_bad_and_too_large),
		cmocka_unit_test(test_fio_text_samples),
		cmocka_unit_test(test_fio_text_v2_groups_errors),
		cmocka_unit_test(test_fio_text_vs_json),
		cmocka_unit_test(test_iperf3_json_client),
		cmocka_unit_test(test_iperf3_json_server_and_error),
		cmocka_unit_test(test_iperf3_text_samples),
		cmocka_unit_test(test_iperf3_text_sum_reverse),
		cmocka_unit_test(test_spdk_perf_sample),
		cmocka_unit_test(test_spdk_perf_errors_and_options),
	};
	return cmocka_run_group_tests_name("workload", tests, NULL, NULL);
}

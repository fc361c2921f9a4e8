/* The bundle walker: layouts, nesting, links, caps and broken input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "helpers.h"

static const char *const CMDLINE = "BOOT_IMAGE=/vmlinuz root=/dev/sda ro\n";
static const char *const UNAME = "Linux gx10 6.11.0 #1 SMP aarch64 GNU/Linux\n";

static char *
sample_lspci(size_t *len)
{
	char *t = (char *)slurp("samples/bundles/gx10-before/lspci-vv.txt",
	    len);

	assert_non_null(t);
	return t;
}

static unsigned char *
gzip_buf(const void *data, size_t len, size_t *out_len)
{
	uLongf cap = compressBound(len) + 64;
	unsigned char *out = malloc(cap);
	z_stream zs = { 0 };

	deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	deflate(&zs, Z_FINISH);
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static void
test_tgz_and_directory_agree(void **state)
{
	struct parsed a, b;

	(void)state;
	parsed_read(&a, "samples/gx10-before.tgz");
	parsed_read(&b, "samples/bundles/gx10-before");
	assert_int_equal(a.rc, 0);
	assert_int_equal(b.rc, 0);
	assert_int_equal(a.cov.n_members, 36);	/* with fio-json.json */
	assert_int_equal(b.cov.n_members, 36);
	parsed_analyse(&a);
	parsed_analyse(&b);
	assert_int_equal(a.fs.n, b.fs.n);
	for (size_t i = 0; i < a.fs.n; i++)
		assert_string_equal(a.fs.v[i]->summary, b.fs.v[i]->summary);
	assert_string_equal(a.m->hosts->name, "gx10");
	parsed_free(&a);
	parsed_free(&b);
}

static void
test_nested_gz_links_and_hosts(void **state)
{
	size_t lspci_len, inner_len, gz_len, outer_len;
	char *lspci = sample_lspci(&lspci_len);
	unsigned char *gz = gzip_buf(lspci, lspci_len, &gz_len);
	struct tar_entry inner[] = {
		{ .path = "sosreport-db1/sos_commands/pci/lspci_-nnvv",
		    .data = lspci, .len = lspci_len },
		{ .path = "sosreport-db1/proc/cmdline", .data = CMDLINE },
	};
	unsigned char *in = make_tar(inner, 2, 1, &inner_len);
	struct tar_entry outer[] = {
		{ .path = "case/host/lspci-vv.txt.gz", .data = gz, .len = gz_len },
		{ .path = "case/host/uname.txt", .data = UNAME },
		{ .path = "case/guest/cmdline", .data = CMDLINE },
		{ .path = "case/guest/sosreport-db1.tar.gz", .data = in,
		    .len = inner_len },
		{ .path = "case/host/link", .symlink = "/etc/shadow" },
		{ .path = "case/host/hard", .hardlink = "case/host/uname.txt" },
		{ .path = "case/host/dev", .device = 1 },
	};
	unsigned char *tar = make_tar(outer, 7, 0, &outer_len);
	struct parsed p;

	(void)state;
	parsed_read_memory(&p, tar, outer_len, "upload.tar");
	assert_int_equal(p.rc, 0);
	const struct pd_member_result *r = member_result(&p,
	    "host/lspci-vv.txt.gz");

	assert_non_null(r);
	assert_string_equal(r->format, "lspci-vv");
	r = member_result(&p, "sosreport-db1.tar.gz");
	assert_string_equal(r->format, "archive");
	r = member_result(&p, "sos_commands/pci/lspci_-nnvv");
	assert_non_null(r);
	assert_string_equal(r->format, "lspci-vv");
	assert_string_equal(r->path, "case/guest/sosreport-db1.tar.gz/"
	    "sosreport-db1/sos_commands/pci/lspci_-nnvv");
	r = member_result(&p, "host/link");
	assert_string_equal(r->format, "skipped");
	assert_non_null(strstr(r->diag.notes->msg, "not followed"));
	assert_string_equal(member_result(&p, "host/hard")->format, "skipped");
	assert_string_equal(member_result(&p, "host/dev")->format, "skipped");
	/* hosts: case/host, case/guest and the sosreport inside the guest */
	assert_int_equal(p.m->n_hosts, 3);
	const char *names[3];
	unsigned i = 0;

	for (const struct pd_host *h = p.m->hosts; h; h = h->next)
		names[i++] = h->name;
	assert_string_equal(names[0], "guest");
	assert_string_equal(names[1], "guest/sosreport-db1.tar.gz/"
	    "sosreport-db1");
	assert_string_equal(names[2], "host");
	parsed_free(&p);
	free(tar);
	free(in);
	free(gz);
	free(lspci);
}

static void
test_caps(void **state)
{
	struct parsed p;
	struct pd_limits lim;
	size_t len, big_len;
	char err[256];
	struct tar_entry e[] = {
		{ .path = "a/cmdline", .data = CMDLINE },
		{ .path = "a/uname", .data = UNAME },
		{ .path = "a/cmdline2", .data = CMDLINE },
	};
	unsigned char *tar = make_tar(e, 3, 0, &len);

	(void)state;
	pd_limits_default(&lim);
	lim.max_members = 2;
	memset(&p, 0, sizeof(p));
	p.m = pd_model_new();
	assert_int_equal(pd_bundle_read_memory(tar, len, "t.tar", &lim, p.m,
	    &p.cov, err, sizeof(err)), 0);
	assert_int_equal(p.cov.n_members, 2);
	assert_non_null(strstr(p.cov.bundle.notes->msg, "--max-members"));
	pd_model_free(p.m);
	free(tar);

	/* A bomb: 24 MiB of zeros compress about 1000:1 */
	char *zeros = calloc(1, 24u << 20);
	struct tar_entry b[] = { { .path = "a/zeros", .data = zeros,
		.len = 24u << 20 } };
	unsigned char *bomb = make_tar(b, 1, 1, &big_len);

	pd_limits_default(&lim);
	lim.max_ratio = 100;
	p.m = pd_model_new();
	pd_bundle_read_memory(bomb, big_len, "bomb.tgz", &lim, p.m, &p.cov,
	    err, sizeof(err));
	assert_non_null(p.cov.bundle.notes);
	assert_non_null(strstr(p.cov.bundle.notes->msg, "--max-ratio"));
	pd_model_free(p.m);

	pd_limits_default(&lim);
	lim.max_total = 1u << 20;
	p.m = pd_model_new();
	pd_bundle_read_memory(bomb, big_len, "bomb.tgz", &lim, p.m, &p.cov,
	    err, sizeof(err));
	assert_non_null(strstr(p.cov.bundle.notes->msg, "--max-total"));
	assert_int_equal(p.cov.members->diag.worst, PD_FAILED);
	pd_model_free(p.m);
	free(bomb);
	free(zeros);

	/* Nesting deeper than allowed is a note, not a walk */
	size_t l1, l2;
	struct tar_entry n1[] = { { .path = "x/cmdline", .data = CMDLINE } };
	unsigned char *t1 = make_tar(n1, 1, 1, &l1);
	struct tar_entry n2[] = { { .path = "x/in.tgz", .data = t1,
		.len = l1 } };
	unsigned char *t2 = make_tar(n2, 1, 1, &l2);

	pd_limits_default(&lim);
	lim.max_depth = 0;
	p.m = pd_model_new();
	pd_bundle_read_memory(t2, l2, "n.tgz", &lim, p.m, &p.cov, err,
	    sizeof(err));
	assert_int_equal(p.cov.n_members, 1);
	assert_non_null(strstr(p.cov.members->diag.notes->msg, "--max-depth"));
	pd_model_free(p.m);
	free(t1);
	free(t2);
}

/* A ratio cap ends the layer that broke it: a nested .tgz bomb is cut,
 * the member after it is still read, and the walk is not stopped. */
static void
test_nested_bomb_ends_itself(void **state)
{
	struct parsed p;
	struct pd_limits lim;
	size_t bomb_len, outer_len;
	char err[256];
	char *zeros = calloc(1, 24u << 20);
	struct tar_entry b[] = { { .path = "x/zeros", .data = zeros,
		.len = 24u << 20 } };
	unsigned char *bomb = make_tar(b, 1, 1, &bomb_len);
	struct tar_entry o[] = {
		{ .path = "a/bomb.tgz", .data = bomb, .len = bomb_len },
		{ .path = "b/uname", .data = UNAME },
	};
	unsigned char *outer = make_tar(o, 2, 0, &outer_len);

	(void)state;
	pd_limits_default(&lim);
	lim.max_ratio = 100;
	memset(&p, 0, sizeof(p));
	p.m = pd_model_new();
	assert_int_equal(pd_bundle_read_memory(outer, outer_len, "o.tar", &lim,
	    p.m, &p.cov, err, sizeof(err)), 0);
	const struct pd_member_result *r = member_result(&p, "a/bomb.tgz");

	assert_true(has_note(r, "member.cap"));
	assert_non_null(strstr(r->diag.notes->msg, "--max-ratio"));
	assert_true(has_note(member_result(&p, "a/bomb.tgz/x/zeros"),
	    "member.cap"));
	assert_string_equal(member_result(&p, "b/uname")->format, "uname");
	assert_null(p.cov.bundle.notes);
	pd_model_free(p.m);
	free(outer);
	free(bomb);
	free(zeros);
}

/* An xz stream asking for a 3 GiB dictionary is refused, from a file and
 * from memory, with the size it asked for. */
static void
test_xz_dictionary_bound(void **state)
{
	const char *f = "tests/fuzz/corpus/bundle/xz-dict.tar.xz";
	struct parsed p;
	size_t len;
	unsigned char *xz = slurp(f, &len);

	(void)state;
	assert_non_null(xz);
	parsed_read(&p, f);
	assert_int_not_equal(p.rc, 0);
	assert_non_null(strstr(p.err, "needs 3072 MiB"));
	parsed_free(&p);
	parsed_read_memory(&p, xz, len, "x.tar.xz");
	assert_int_not_equal(p.rc, 0);
	assert_non_null(strstr(p.err, "needs 3072 MiB"));
	parsed_free(&p);
	free(xz);
}

static void
test_broken_input(void **state)
{
	struct parsed p;
	size_t len, lspci_len;
	unsigned char *tgz = slurp("samples/gx10-before.tgz", &len);
	size_t tar_len;
	char *lspci = sample_lspci(&lspci_len);
	struct tar_entry e[] = {
		{ .path = "b/cmdline", .data = CMDLINE },
		{ .path = "b/lspci-vv.txt", .data = lspci, .len = lspci_len },
	};
	unsigned char *tar = make_tar(e, 2, 0, &tar_len);

	(void)state;
	/* gzip cut short: no crash, an error or notes */
	parsed_read_memory(&p, tgz, len / 2, "cut.tgz");
	assert_true(p.rc != 0 || p.cov.bundle.notes);
	parsed_free(&p);
	/* a tar cut in the middle of the second member */
	parsed_read_memory(&p, tar, 1024 + 512 + 2000, "half.tar");
	assert_int_equal(p.rc, 0);
	assert_string_equal(member_result(&p, "b/cmdline")->format, "cmdline");
	assert_int_equal(member_result(&p, "b/lspci-vv.txt")->diag.worst,
	    PD_FAILED);
	assert_non_null(p.m->hosts->cmdline);
	parsed_free(&p);
	/* binary data named like a known output */
	unsigned char bin[4096];

	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)(i * 7 + 3);
	parsed_read_memory(&p, bin, sizeof(bin), "lspci.txt");
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.cov.members->format, "unknown");
	assert_int_equal(p.cov.members->diag.worst, PD_WARN);
	assert_non_null(strstr(p.cov.members->diag.notes->msg, "lspci-vv"));
	parsed_free(&p);
	/* a 10 MB line inside an lspci output */
	size_t big = 10u << 20;
	char *t = malloc(lspci_len + big + 2);

	memcpy(t, lspci, 200);
	memset(t + 200, 'x', big);
	t[200 + big] = '\n';
	memcpy(t + 201 + big, lspci + 200, lspci_len - 200);
	parsed_read_memory(&p, t, lspci_len + big + 1, "lspci-vv.txt");
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.cov.members->format, "lspci-vv");
	assert_string_equal(p.cov.members->diag.notes->id,
	    "input.line-too-long");
	assert_int_equal(p.m->hosts->n_pcidevs, 8);
	parsed_free(&p);
	/* an empty bundle */
	parsed_read_memory(&p, "", 0, "empty.tgz");
	assert_int_equal(p.rc, -1);
	assert_non_null(strstr(p.err, "empty"));
	parsed_free(&p);
	free(t);
	free(tar);
	free(tgz);
	free(lspci);
}

#define MANIFEST_HEAD "# pathdoctor-collect manifest 1\n" \
	"collector\tpathdoctor-collect 0.1.0\n"

/* pathdoctor-collect --during: the workload line, its escapes, and the
 * notes for a stopped or failed workload. */
static void
test_manifest_workload(void **state)
{
	struct parsed p;
	const struct pd_workload_run *w;

	(void)state;
	parsed_text(&p, "h/manifest.txt", MANIFEST_HEAD
	    "workload\t0\t31\tworkload/stdout.txt\tworkload/stderr.txt\t"
	    "fio --name='a b'\\tx\\ny \\\\ \\q\n");
	w = p.m->hosts->workload_run;
	assert_non_null(w);
	assert_int_equal(w->exit, 0);
	assert_false(w->stopped);
	assert_int_equal(w->seconds, 31);
	assert_string_equal(w->stdout_path, "workload/stdout.txt");
	assert_string_equal(w->stderr_path, "workload/stderr.txt");
	assert_string_equal(w->command, "fio --name='a b'\tx\ny \\ \\q");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	assert_null(p.m->hosts->gaps);
	parsed_free(&p);

	parsed_text(&p, "h/manifest.txt", MANIFEST_HEAD
	    "workload\tstopped\t5\tworkload/stdout.txt\tworkload/stderr.txt\t"
	    "sleep 60\n");
	w = p.m->hosts->workload_run;
	assert_non_null(w);
	assert_true(w->stopped);
	assert_int_equal(w->exit, -1);
	assert_int_equal(p.cov.members->diag.worst, PD_WARN);
	assert_true(has_note(p.cov.members, "manifest.workload-stopped"));
	parsed_free(&p);

	parsed_text(&p, "h/manifest.txt", MANIFEST_HEAD
	    "workload\t3\t1\tworkload/stdout.txt\tworkload/stderr.txt\tfalse\n"
	    "workload\t0\t1\tworkload/stdout.txt\tworkload/stderr.txt\ttrue\n");
	w = p.m->hosts->workload_run;
	assert_string_equal(w->command, "true");	/* the last is used */
	assert_true(has_note(p.cov.members, "manifest.workload-failed"));
	assert_true(has_note(p.cov.members, "manifest.workload-repeated"));
	parsed_free(&p);
}

/* Malformed workload lines are bad lines, and set nothing. */
static void
test_manifest_workload_bad(void **state)
{
	static const char *const bad[] = {
		"workload\t0\t1\tworkload/stdout.txt\tworkload/stderr.txt\n",
		"workload\t256\t1\tworkload/stdout.txt\tworkload/stderr.txt\tx\n",
		"workload\t-1\t1\tworkload/stdout.txt\tworkload/stderr.txt\tx\n",
		"workload\t0\tlong\tworkload/stdout.txt\tworkload/stderr.txt\tx\n",
		"workload\t0\t1\t\tworkload/stderr.txt\tx\n",
		"workload\t0\t1\tworkload/stdout.txt\tworkload/stderr.txt\t\n",
		"workload\t0\t9999999999\tw/o\tw/e\tx\n",
		"workload\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct parsed p;
		char text[512];

		snprintf(text, sizeof(text), "%s%s", MANIFEST_HEAD, bad[i]);
		parsed_text(&p, "h/manifest.txt", text);
		assert_null(p.m->hosts->workload_run);
		assert_true(has_note(p.cov.members, "manifest.bad-line"));
		parsed_free(&p);
	}
}

/* The workload's outputs belong to the host of the manifest beside them. */
static void
test_workload_dir_host(void **state)
{
	struct pd_model *m = pd_model_new();

	(void)state;
	assert_ptr_equal(pd_model_host_for_path(m, "case/db1/manifest.txt"),
	    pd_model_host_for_path(m, "case/db1/workload/stdout.txt"));
	pd_model_free(m);
}

/* "m07" in a buffer of its own */
static const char *
neutral_name(size_t i)
{
	static char buf[16];

	snprintf(buf, sizeof(buf), "m%02zu", i);
	return buf;
}

static struct tar_entry neutral[64];
static unsigned char *neutral_data[64];
static size_t n_neutral;

static void
add_neutral(const char *path, const char *name)
{
	size_t len;

	(void)name;
	if (n_neutral == 64)
		return;
	neutral_data[n_neutral] = slurp(path, &len);
	neutral[n_neutral] = (struct tar_entry){
		.path = strdup(neutral_name(n_neutral + 1)),
		.data = neutral_data[n_neutral], .len = len };
	n_neutral++;
}

/* Every member of the GX10 sample renamed m01, m02, ...: still read,
 * no phantom interfaces, and each member whose interface cannot be
 * known listed once with the rules it would have fed. */
static void
test_neutral_names(void **state)
{
	struct parsed p;
	size_t len, n_unused = 0, n_unknown = 0;

	(void)state;
	n_neutral = 0;
	each_file("samples/bundles/gx10-before", add_neutral);
	assert_true(n_neutral > 30);
	unsigned char *tar = make_tar(neutral, n_neutral, 1, &len);

	parsed_read_memory(&p, tar, len, "neutral.tgz");
	assert_int_equal(p.rc, 0);
	const struct pd_host *h = p.m->hosts;

	/* lo and the four PFs from ip -d link; ethtool -i joined by bus */
	assert_int_equal(h->n_netdevs, 5);
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next)
		assert_false(nd->unnamed);
	assert_non_null(pd_host_find_netdev(h, "nic5")->driver);
	for (const struct pd_unused *u = h->unused; u; u = u->next) {
		n_unused++;
		assert_true(strcmp(u->format, "ethtool-S") == 0 ||
		    strcmp(u->format, "pcap") == 0);
	}
	assert_int_equal(n_unused, 9);	/* 8 snapshots, 1 capture */
	for (const struct pd_member_result *r = p.cov.members; r; r = r->next)
		n_unknown += strcmp(r->format, "unknown") == 0;
	assert_int_equal(n_unknown, 0);
	parsed_free(&p);
	free(tar);
	for (size_t i = 0; i < n_neutral; i++) {
		free((void *)neutral[i].path);
		free(neutral_data[i]);
	}
}

int
test_group_bundle(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tgz_and_directory_agree),
		cmocka_unit_test(test_nested_gz_links_and_hosts),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_nested_bomb_ends_itself),
		cmocka_unit_test(test_xz_dictionary_bound),
		cmocka_unit_test(test_broken_input),
		cmocka_unit_test(test_manifest_workload),
		cmocka_unit_test(test_manifest_workload_bad),
		cmocka_unit_test(test_workload_dir_host),
		cmocka_unit_test(test_neutral_names),
	};
	return cmocka_run_group_tests_name("bundle", tests, NULL, NULL);
}

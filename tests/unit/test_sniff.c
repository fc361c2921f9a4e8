/* Identification: every sample and corpus file wins as its format by at
 * least 8 bits, and files of formats without a reader are not claimed. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/format.h"
#include "pathdoctor/text.h"

static void
check_file(const char *path, const char *want, int margin)
{
	size_t len;
	unsigned char *buf = slurp(path, &len);
	struct pd_member m = { .path = path, .hint_path = path,
		.head = buf, .head_len = len < PD_PEEK_MAX ? len : PD_PEEK_MAX };
	int bid, second;

	assert_non_null(buf);
	const struct pd_format *f = pd_sniff(&m, &bid, &second);

	if (strcmp(f->name, want) != 0)
		fail_msg("%s: identified as %s (bid %d), want %s", path,
		    f->name, bid, want);
	if (margin && bid - second < margin)
		fail_msg("%s: margin %d bits over the runner-up, want %d",
		    path, bid - second, margin);
	free(buf);
}

/* The format a sample's path names: its file (cmdline.txt) or its
 * directory (ethtool-S/nic2@1764000000.txt). */
static void
sample_file(const char *path, const char *name)
{
	char want[64], dir[64];
	const char *end = strrchr(path, '/'), *start = end;

	/* sosreport names are checked in test_nic.c; gzip'd members are
	 * unwrapped by the walker first (test_profile.c reads them) */
	if (strstr(path, "/sosreport-") || strstr(path, ".gz"))
		return;
	/* the collector's --during outputs have neutral names on purpose
	 * (workload/stdout.txt is whatever the benchmark printed) */
	if (strstr(path, "/workload/"))
		return;
	/* and its nvme/ outputs keep the names it gives them
	 * (list-subsys.txt, nvme-subsysN-iopolicy.txt): test_nvme.c */
	if (strstr(path, "/nvme/"))
		return;
	while (start > path && start[-1] != '/')
		start--;
	snprintf(want, sizeof(want), "%.*s", (int)strcspn(name, "."), name);
	snprintf(dir, sizeof(dir), "%.*s", (int)(end - start), start);
	if (!pd_format_find(want) && pd_format_find(dir))
		snprintf(want, sizeof(want), "%s", dir);
	check_file(path, want, 8);
}

static void
test_samples(void **state)
{
	(void)state;
	each_file("samples/bundles", sample_file);
}

/* tests/data/FORMAT/...: each wins as its directory's format by 8 bits,
 * but for a lone "netlink error:", which only its path names (the +4
 * hint over the other ethtool reader's PD_EP_BID_NETLINK); without such
 * a path it is nobody's. */
static void
data_file(const char *path, const char *name)
{
	char dir[64], line[64];
	const char *end = strrchr(path, '/'), *start = end;
	size_t len;
	unsigned char *buf;

	/* a sosreport's own layout names no format: test_uploads.c */
	if (strcmp(name, "SOURCES.md") == 0 || strstr(path, "/sos_commands/"))
		return;
	while (start > path && start[-1] != '/')
		start--;
	snprintf(dir, sizeof(dir), "%.*s", (int)(end - start), start);
	buf = slurp(path, &len);
	assert_non_null(buf);
	if (!pd_text_content_line(buf, len, 0, line, sizeof(line)) ||
	    !pd_starts_with(line, "netlink error:")) {
		check_file(path, dir, 8);
	} else {
		struct pd_member m = { .path = "notes.txt",
			.hint_path = "notes.txt", .head = buf, .head_len = len };

		check_file(path, dir, PD_BID_PATH_HINT);
		assert_string_equal(pd_sniff(&m, NULL, NULL)->name, "unknown");
	}
	free(buf);
}

static void
test_data_samples(void **state)
{
	(void)state;
	each_file("tests/data", data_file);
	each_file("tests/data-workload", data_file);
	each_file("tests/data-uploads", data_file);
}

static const char *corpus_kind;

static void
corpus_positive(const char *path, const char *name)
{
	(void)name;
	if (strstr(path, ".gz"))
		return;		/* unwrapped by the walker: test_profile.c */
	check_file(path, corpus_kind, 8);
}

static void
test_corpus_positive(void **state)
{
	static const char *const kinds[] = { "lspci-vv", "lspci-tv",
		"cmdline", "ethtool-S", "ethtool-a", "ethtool-i", "ethtool-k",
		"ip-link",
		"sysctl", "perf-script", "perf-report" };
	char dir[512];

	(void)state;
	REQUIRE_CORPUS();
	for (size_t i = 0; i < PD_ARRAY_SIZE(kinds); i++) {
		corpus_kind = kinds[i];
		snprintf(dir, sizeof(dir), "%s/%s", corpus_dir(), kinds[i]);
		each_file(dir, corpus_positive);
	}
}

/* Formats without a reader yet must come out as unknown, never as a
 * reader's format (through the walker, so gzip'd files are unwrapped). */
static void
corpus_negative(const char *path, const char *name)
{
	struct parsed p;

	char dir[64];
	const char *end = strrchr(path, '/'), *start = end;

	(void)name;
	while (start > path && start[-1] != '/')
		start--;
	snprintf(dir, sizeof(dir), "%.*s", (int)(end - start), start);
	if (pd_format_find(dir) || pd_starts_with(dir, "pcap") ||
	    strcmp(dir, "perf-data") == 0 ||	/* tests/unit/test_profile.c */
	    strstr(path, "SOURCES.md"))
		return;	/* a format with a reader: test_corpus_positive */
	parsed_read(&p, path);
	if (p.rc == 0 && strcmp(p.cov.members->format, "unknown") != 0)
		fail_msg("%s claimed as %s", path, p.cov.members->format);
	parsed_free(&p);
}

static void
test_corpus_negative(void **state)
{
	(void)state;
	REQUIRE_CORPUS();
	each_file(corpus_dir(), corpus_negative);
}

int
test_group_sniff(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_data_samples),
		cmocka_unit_test(test_corpus_positive),
		cmocka_unit_test(test_corpus_negative),
	};
	return cmocka_run_group_tests_name("sniff", tests, NULL, NULL);
}

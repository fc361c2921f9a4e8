/* Bundle text in the reports (src/report/escape.c): control bytes and
 * invalid UTF-8 as \xNN, Markdown metacharacters escaped, code spans
 * that the text cannot close, JSON that keeps every key. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/escape.h"
#include "report/md_wrap.h"

struct esc_case {
	const char *in, *want;
};

static void
each(const char *(*fn)(struct pd_arena *, const char *),
    const struct esc_case *c, size_t n)
{
	struct pd_arena *a = pd_arena_new();

	for (size_t i = 0; i < n; i++)
		assert_string_equal(fn(a, c[i].in), c[i].want);
	pd_arena_free(a);
}

static void
test_term(void **state)
{
	static const struct esc_case c[] = {
		{ "nic0", "nic0" },
		{ "a\x1b[2Jb\x07", "a\\x1b[2Jb\\x07" },
		{ "tab\there", "tab\there" },
		{ "line\nnext\r", "line\\x0anext\\x0d" },
		{ "del\x7f", "del\\x7f" },
		{ "bad\xff", "bad\\xff" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ "c1 \xc2\x9b" "2J", "c1 \\xc2\\x9b2J" },	/* 8-bit CSI */
		{ "overlong \xc0\xaf", "overlong \\xc0\\xaf" },
		{ "surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80" },
		{ "cut \xe2\x82", "cut \\xe2\\x82" },
		{ "rlo \xe2\x80\xae" "fdp.exe", "rlo \\xe2\\x80\\xaefdp.exe" },
		{ "isolate \xe2\x81\xa6", "isolate \\xe2\\x81\\xa6" },
		{ "dash \xe2\x80\x94", "dash \xe2\x80\x94" },
		{ NULL, "" },
	};

	(void)state;
	each(pd_term_text, c, sizeof(c) / sizeof(c[0]));
}

static void
test_md_text(void **state)
{
	static const struct esc_case c[] = {
		{ "nic.idle-pf on 0002:01:00.0", "nic.idle-pf on 0002:01:00.0" },
		{ "<img src=x onerror=alert(1)>",
		    "\\<img src=x onerror=alert(1)>" },
		{ "</b><!-- x", "\\</b>\\<!-- x" },
		{ "tap -> br <-> eth", "tap -> br <-> eth" },
		{ "[x](http://evil.example)", "\\[x\\](http\\://evil.example)" },
		{ "![i](x)", "!\\[i\\](x)" },
		{ "arm_smmu_cmdq __do_softirq _x_", "arm_smmu_cmdq \\_\\_do_softirq "
		    "\\_x\\_" },
		{ "*bold* ~del~ `code` a|b \\", "\\*bold\\* \\~del\\~ \\`code\\` "
		    "a\\|b \\\\" },
		{ "&lt; &#60; R & D", "\\&lt; \\&#60; R & D" },
		{ "# heading", "\\# heading" },
		{ "> quote, a > b", "\\> quote, a > b" },
		{ "esc \x1b[2J", "esc \\x1b\\[2J" },
		{ "bad \xff_", "bad \\xff\\_" },
		/* nothing a renderer would link by itself */
		{ "nic2@1764000000.txt", "nic2\\@1764000000.txt" },
		{ "see https://x.example/a and ftp://y", "see https\\://x.example/a "
		    "and ftp\\://y" },
		{ "mailto:a@b.example", "mailto\\:a\\@b.example" },
		{ "www.x.example (www.y) WWW.z", "www\\.x.example (www\\.y) "
		    "WWW\\.z" },
		{ "awww.x 0000:01:00.0 a:b http:x", "awww.x 0000:01:00.0 a:b "
		    "http:x" },
	};

	(void)state;
	each(pd_md_text, c, sizeof(c) / sizeof(c[0]));
}

static void
test_md_code(void **state)
{
	static const struct esc_case c[] = {
		{ "ro quiet", "`ro quiet`" },
		{ "a`b", "``a`b``" },
		{ "a``b`c", "```a``b`c```" },
		{ "`x", "`` `x ``" },
		{ "x`", "`` x` ``" },
		{ "<img> [x](y) \x1b\xff", "`<img> [x](y) \\x1b\\xff`" },
		{ "", "``" },
	};

	(void)state;
	each(pd_md_code, c, sizeof(c) / sizeof(c[0]));
}

static void
test_md_fenced(void **state)
{
	static const struct esc_case c[] = {
		{ "uname.txt:1: Linux", "uname.txt:1: Linux" },
		{ "```", " ```" },
		{ "   ```sh", "    ```sh" },
		{ "    ```", "    ```" },	/* indented code, not a fence */
		{ "x\x1b]0;title\x07", "x\\x1b]0;title\\x07" },
	};

	(void)state;
	each(pd_md_fenced, c, sizeof(c) / sizeof(c[0]));
}

/* pd_md_wrap_sh at width 40, so that the cases stay short. */
static const char *
wrap40(struct pd_arena *a, const char *s)
{
	return pd_md_wrap_sh(a, s, 40);
}

static void
test_md_wrap_sh(void **state)
{
	static const struct esc_case c[] = {
		{ "sudo ethtool -K nic2 lro on", "sudo ethtool -K nic2 lro on" },
		/* cut at spaces, room kept for " \\" */
		{ "sudo ip link set dev ens18 gso_max_size 63000",
		    "sudo ip link set dev ens18 \\\n    gso_max_size 63000" },
		/* never inside quotes, single or double */
		{ "printf 'a = 1\\nb = 2 and more text' | sudo tee /x",
		    "printf 'a = 1\\nb = 2 and more text' | \\\n    sudo tee /x" },
		{ "watch -n1 \"ethtool -S nic5 | grep -w rx_bytes\"",
		    "watch -n1 \\\n    \"ethtool -S nic5 | grep -w rx_bytes\"" },
		/* a trailing comment stays one piece; blanks before a cut go */
		{ "sudo grubby --args=x      # Fedora, RHEL and more",
		    "sudo grubby --args=x \\\n    # Fedora, RHEL and more" },
		/* a comment goes on as a comment: no backslash */
		{ "# persist: nmcli connection modify CONNECTION x",
		    "# persist: nmcli connection modify\n#   CONNECTION x" },
		/* what cannot be cut stays long */
		{ "0123456789012345678901234567890123456789xx",
		    "0123456789012345678901234567890123456789xx" },
		{ "  echo 'one quoted string longer than forty bytes'",
		    "  echo \\\n      'one quoted string longer than forty bytes'" },
	};

	(void)state;
	each(wrap40, c, sizeof(c) / sizeof(c[0]));
}

static void
test_md_first_command(void **state)
{
	const char *fix[] = { "# a comment", "  ", "sudo  reboot   # now  ",
		"echo 'a  b'" };
	struct pd_arena *a = pd_arena_new();

	(void)state;
	assert_string_equal(pd_md_first_command(a, fix, 4),
	    "sudo reboot # now  ");
	assert_string_equal(pd_md_first_command(a, fix + 3, 1), "echo 'a  b'");
	assert_null(pd_md_first_command(a, fix, 2));
	pd_arena_free(a);
}

static void
test_json_str(void **state)
{
	json_t *j = pd_json_str("notes/\xff\x1b.txt");

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_string_value(j), "notes/\\xff\x1b.txt");
	json_decref(j);
	j = pd_json_str("caf\xc3\xa9");
	assert_string_equal(json_string_value(j), "caf\xc3\xa9");
	json_decref(j);
	assert_null(pd_json_str(NULL));
}

/* A ustar archive with names taken byte for byte (make_tar's libarchive
 * refuses names that are empty or not UTF-8); free() it. */
static unsigned char *
raw_tar(const struct tar_entry *e, size_t n, size_t *len)
{
	size_t cap = 1024;

	for (size_t i = 0; i < n; i++)
		cap += 512 + (strlen(e[i].data) + 511) / 512 * 512;
	unsigned char *buf = calloc(1, cap), *h = buf;

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(e[i].data);
		unsigned sum = 0;

		memcpy(h, e[i].path, strlen(e[i].path));
		snprintf((char *)h + 100, 8, "%07o", 0644);
		snprintf((char *)h + 108, 8, "%07o", 0);
		snprintf((char *)h + 116, 8, "%07o", 0);
		snprintf((char *)h + 124, 12, "%011o", (unsigned)l & 07777777);
		snprintf((char *)h + 136, 12, "%011o", 0);
		h[156] = '0';
		memcpy(h + 257, "ustar\0" "00", 8);
		memset(h + 148, ' ', 8);
		for (int k = 0; k < 512; k++)
			sum += h[k];
		snprintf((char *)h + 148, 8, "%06o", sum);
		memcpy(h + 512, e[i].data, l);
		h += 512 + (l + 511) / 512 * 512;
	}
	*len = cap;
	return buf;
}

/* A tar whose member names are not UTF-8 or empty: the JSON report
 * parses, every member has its path, the empty one a note, and the
 * sibling members are read. */
static void
test_hostile_names_json(void **state)
{
	static const char uname[] = "Linux h1 6.1.0 #1 SMP PREEMPT_DYNAMIC "
	    "Mon Aug 18 11:37:29 UTC 2025 aarch64 GNU/Linux\n";
	struct tar_entry e[] = {
		{ .path = "notes/\xff\x1b[2J.txt", .data = "a note\n" },
		{ .path = "", .data = "nameless\n" },
		{ .path = "uname.txt", .data = uname },
	};
	size_t len, n = 0;
	unsigned char *tar = raw_tar(e, 3, &len);
	struct parsed p;
	struct pd_report r;
	char *buf = NULL;
	FILE *out;

	(void)state;
	parsed_read_memory(&p, tar, len, "t.tar");
	assert_int_equal(p.rc, 0);
	pd_report_build(&r, "t.tar", p.m, &p.cov, &p.fs, NULL);
	out = open_memstream(&buf, &n);
	assert_int_equal(pd_renderer_find("json")->render(&r, out), 0);
	fclose(out);
	json_t *root = json_loads(buf, 0, NULL), *m;
	size_t i, empty = 0;

	assert_non_null(root);
	json_array_foreach(json_object_get(root, "members"), i, m) {
		const char *path = json_string_value(json_object_get(m, "path"));

		assert_non_null(path);
		if (*path == '\0') {
			char *d = json_dumps(m, 0);

			empty++;
			assert_non_null(strstr(d, "member 2: empty name"));
			free(d);
		}
		if (strcmp(path, "uname.txt") == 0)
			assert_string_equal(json_string_value(json_object_get(m,
			    "format")), "uname");
	}
	assert_int_equal(i, 3);
	assert_int_equal(empty, 1);
	json_decref(root);
	free(buf);
	parsed_free(&p);
	free(tar);
}

/* The Markdown report of samples/gx10-before.tgz, r adjusted by fn
 * before it is drawn; free() it. */
static char *
md_of(void (*fn)(struct pd_report *r, struct pd_findings *fs))
{
	struct parsed p;
	struct pd_report r;
	char *buf = NULL;
	size_t n = 0;
	FILE *out;

	parsed_read(&p, "samples/gx10-before.tgz");
	assert_int_equal(p.rc, 0);
	pd_report_build(&r, "/some/where/gx10-before.tgz", p.m, &p.cov, &p.fs,
	    NULL);
	fn(&r, &p.fs);
	out = open_memstream(&buf, &n);
	assert_int_equal(pd_renderer_find("md")->render(&r, out), 0);
	fclose(out);
	parsed_free(&p);
	return buf;
}

static struct pd_rule linked;

/* The first finding's rule with two links; two findings hidden. */
static void
with_links(struct pd_report *r, struct pd_findings *fs)
{
	static const char *const links[] = { "https://docs.example/a(b)",
		"https://docs.example/c", NULL };

	linked = *fs->v[0]->rule;
	linked.links = links;
	fs->v[0]->rule = &linked;
	r->n_hidden = 2;
}

static void
brief(struct pd_report *r, struct pd_findings *fs)
{
	(void)fs;
	r->brief = true;
}

/* The report of a sample: the base name in the title, the docs links,
 * the hidden findings counted; --brief stops after the ladder. */
static void
test_md_report(void **state)
{
	char *md = md_of(with_links);

	(void)state;
	assert_non_null(strstr(md, "# pathdoctor report: gx10-before.tgz\n"));
	assert_non_null(strstr(md, "\n**Docs:** [docs.example: a(b)]"
	    "(https://docs.example/a%28b%29), [docs.example: c]"
	    "(https://docs.example/c)\n"));
	assert_non_null(strstr(md, "\n2 findings below the level asked for "
	    "(--min-level) are not shown.\n"));
	assert_non_null(strstr(md, ", shown in finding 1\n"));
	free(md);
	md = md_of(brief);
	assert_non_null(strstr(md, "| fix |"));
	assert_non_null(strstr(md, "## Path ceiling: gx10, receive"));
	assert_null(strstr(md, "## 1. "));
	assert_null(strstr(md, "## Members"));
	free(md);
}

static void
test_html_text(void **state)
{
	static const struct esc_case c[] = {
		{ "nic.idle-pf on 0002:01:00.0", "nic.idle-pf on 0002:01:00.0" },
		{ "<img src=x onerror=alert(1)>",
		    "&lt;img src=x onerror=alert(1)&gt;" },
		{ "a & b \"q\" 'q'", "a &amp; b &quot;q&quot; &#39;q&#39;" },
		{ "&amp;", "&amp;amp;" },
		{ "tap -> br", "tap -&gt; br" },
		{ "a\x1b[2Jb\n", "a\\x1b[2Jb\\x0a" },
		{ "bad\xff<", "bad\\xff&lt;" },
		{ "rlo \xe2\x80\xae" "x", "rlo \\xe2\\x80\\xaex" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ NULL, "" },
	};

	(void)state;
	each(pd_html_text, c, sizeof(c) / sizeof(c[0]));
}

/* A member named like markup is listed (no format reads it) as text in
 * the HTML page: no tag, no raw control byte. */
static void
test_hostile_names_html(void **state)
{
	struct tar_entry e[] = {
		{ .path = "x/<script>alert(1)</script>\x1b.txt", .data = "?\n" },
		{ .path = "x/uname.txt", .data = "Linux h1 6.1.0 #1 SMP "
		    "PREEMPT_DYNAMIC Mon Aug 18 11:37:29 UTC 2025 aarch64 "
		    "GNU/Linux\n" },
	};
	size_t len, n = 0;
	unsigned char *tar = raw_tar(e, 2, &len);
	struct parsed p;
	struct pd_report r;
	char *buf = NULL;
	FILE *out;

	(void)state;
	parsed_read_memory(&p, tar, len, "dir/t<b>.tar");
	pd_report_build(&r, "dir/t<b>.tar", p.m, &p.cov, &p.fs, NULL);
	out = open_memstream(&buf, &n);
	assert_int_equal(pd_renderer_find("html")->render(&r, out), 0);
	fclose(out);
	assert_null(strstr(buf, "<script"));
	assert_null(strstr(buf, "<b>"));
	assert_null(strchr(buf, 0x1b));
	assert_non_null(strstr(buf, "&lt;script&gt;alert(1)&lt;/script&gt;"
	    "\\x1b.txt"));
	assert_non_null(strstr(buf, "<title>pathdoctor: t&lt;b&gt;.tar</title>"));
	free(buf);
	/* --brief and --min-level: the hidden count said, members left out */
	r.brief = true;
	r.n_hidden = 2;
	buf = NULL;
	out = open_memstream(&buf, &n);
	assert_int_equal(pd_renderer_find("html")->render(&r, out), 0);
	fclose(out);
	assert_non_null(strstr(buf, "2 findings below --min-level are hidden"));
	assert_null(strstr(buf, "id=\"members\""));
	free(buf);
	/* a finding from a rule with documentation: web links only, the
	 * summary as text */
	static const char *const links[] = { "https://example.org/d?a=1&b=2",
		"javascript:alert(1)", NULL };
	static const struct pd_rule rule = { .id = "t.rule", .title = "T",
		.links = links };
	struct pd_finding *f = pd_finding_new(&p.fs, &rule, p.m->hosts, "s<");

	f->summary = "<b>bold</b>";
	r.brief = false;
	r.findings = &p.fs;
	buf = NULL;
	out = open_memstream(&buf, &n);
	assert_int_equal(pd_renderer_find("html")->render(&r, out), 0);
	fclose(out);
	assert_non_null(strstr(buf, "<article class=\"finding level-"));
	assert_non_null(strstr(buf, "<a href=\"https://example.org/d?a=1&amp;"
	    "b=2\">"));
	assert_null(strstr(buf, "javascript:"));
	assert_null(strstr(buf, "<b>"));
	assert_non_null(strstr(buf, "&lt;b&gt;bold&lt;/b&gt;"));
	free(buf);
	parsed_free(&p);
	free(tar);
}

int
test_group_escape(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_term),
		cmocka_unit_test(test_md_text),
		cmocka_unit_test(test_md_code),
		cmocka_unit_test(test_md_fenced),
		cmocka_unit_test(test_md_wrap_sh),
		cmocka_unit_test(test_md_first_command),
		cmocka_unit_test(test_md_report),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test(test_hostile_names_json),
		cmocka_unit_test(test_html_text),
		cmocka_unit_test(test_hostile_names_html),
	};
	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}

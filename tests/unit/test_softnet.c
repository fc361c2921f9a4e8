/* /proc/net/softnet_stat: the reader's column layouts and CPU numbers,
 * and the net.softnet rule's thresholds and numbers. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/format.h"
#include "pathdoctor/rule.h"

/* 5.10 on: 13 columns, the last the CPU number */
#define L13(p, d, s, cpu) p " " d " " s " 00000000 00000000 00000000 " \
	"00000000 00000000 00000000 00000000 00000000 00000000 " cpu "\n"

static const struct pd_softnet_cpu *
cpu_of(const struct parsed *p, unsigned snap, unsigned cpu)
{
	const struct pd_softnet *sn = &p->m->hosts->softnet;

	assert_true(snap < sn->n);
	assert_true(cpu < sn->snap[snap].n_cpu);
	return &sn->snap[snap].cpu[cpu];
}

static void
test_layouts(void **state)
{
	struct parsed p;

	(void)state;
	/* 2.6.36 to 3.10: 10 columns, CPU by position */
	parsed_text(&p, "softnet_stat",
	    "0000000a 00000001 00000002 00000000 00000000 00000000 00000000 "
	    "00000000 00000000 00000000\n"
	    "000000ff 00000000 00000000 00000000 00000000 00000000 00000000 "
	    "00000000 00000000 00000000\n");
	assert_string_equal(member_result(&p, "softnet_stat")->format,
	    "softnet-stat");
	assert_int_equal(p.m->hosts->softnet.n, 1);
	assert_int_equal(p.m->hosts->softnet.snap[0].time, -1);
	assert_int_equal(p.m->hosts->softnet.snap[0].n_cpu, 2);
	assert_int_equal(cpu_of(&p, 0, 0)->processed, 10);
	assert_int_equal(cpu_of(&p, 0, 0)->dropped, 1);
	assert_int_equal(cpu_of(&p, 0, 0)->time_squeeze, 2);
	assert_int_equal(cpu_of(&p, 0, 1)->processed, 255);
	/* one untimed copy (a sosreport's): no rates, not evaluated */
	assert_false(p.m->hosts->have & PD_HAVE_SOFTNET);
	parsed_free(&p);

	/* 13 columns with CPU 1 offline: the CPU column numbers them */
	parsed_text(&p, "proc/net/softnet_stat",
	    "# date: 1764000000\n"
	    L13("00000010", "00000000", "00000000", "00000000")
	    L13("00000030", "00000003", "00000000", "00000002")
	    L13("ffffffff", "00000000", "00000001", "00000003"));
	assert_int_equal(p.m->hosts->softnet.snap[0].time, 1764000000);
	assert_int_equal(p.m->hosts->softnet.snap[0].n_cpu, 4);
	assert_true(cpu_of(&p, 0, 0)->seen);
	assert_false(cpu_of(&p, 0, 1)->seen);
	assert_int_equal(cpu_of(&p, 0, 2)->processed, 0x30);
	assert_int_equal(cpu_of(&p, 0, 2)->dropped, 3);
	assert_int_equal(cpu_of(&p, 0, 3)->processed, 0xffffffffu);
	assert_int_equal(cpu_of(&p, 0, 2)->ev.line, 3);
	parsed_free(&p);

	/* 6.18: 15 columns, the two after the CPU number ignored */
	parsed_text(&p, "softnet_stat@1764000000.txt",
	    "000dc76e 00000000 00000000 00000000 00000000 00000000 00000000 "
	    "00000000 00000000 00000000 00000000 00000000 00000005 00000000 "
	    "00000000\n");
	assert_int_equal(p.m->hosts->softnet.snap[0].n_cpu, 6);
	assert_int_equal(cpu_of(&p, 0, 5)->processed, 0xdc76e);
	parsed_free(&p);
}

static void
test_bids_and_bad_lines(void **state)
{
	const struct pd_format *f = pd_format_find("softnet-stat");
	static const char *const no[] = {
		/* too few columns */
		"00000001 00000002 00000003\n",
		/* columns 4-8 are zero on every kernel */
		"00000001 00000002 00000003 00000004 00000000 00000000 "
		"00000000 00000000 00000000 00000000\n",
		/* not 8 digits */
		"1 2 3 0 0 0 0 0 0 0\n",
		"net.core.netdev_budget = 300\n",
	};
	struct parsed p;

	(void)state;
	assert_non_null(f);
	for (size_t i = 0; i < PD_ARRAY_SIZE(no); i++) {
		struct pd_member m = { .path = "x", .hint_path = "x",
			.head = (const unsigned char *)no[i],
			.head_len = strlen(no[i]) };

		assert_int_equal(f->bid(&m), 0);
	}
	/* a bad line among good ones is noted and skipped */
	parsed_text(&p, "softnet_stat@1764000000.txt",
	    L13("00000010", "00000000", "00000000", "00000000")
	    L13("00000010", "00000000", "00000000", "00000001")
	    L13("00000010", "00000000", "00000000", "00000002")
	    "garbage here\n"
	    L13("00000020", "00000000", "00000000", "00000003"));
	const struct pd_member_result *r = member_result(&p,
	    "softnet_stat@1764000000.txt");

	assert_string_equal(r->format, "softnet-stat");
	assert_true(has_note(r, "softnet-stat.bad-line"));
	assert_int_equal(p.m->hosts->softnet.snap[0].time, 1764000000);
	assert_int_equal(p.m->hosts->softnet.snap[0].n_cpu, 4);
	parsed_free(&p);
}

static void
test_rule_drops(void **state)
{
	/* CPU 0: 20000 drops and 3000 squeezes in 10 s over 1,000,000
	 * processed, and its processed counter wraps at 2^32; CPU 1 quiet */
	static const char *const names[] = {
		"softnet_stat@1764000000.txt", "softnet_stat@1764000010.txt",
		"sysctl.txt",
	};
	static const char *const texts[] = {
		L13("fff0bdc0", "00000100", "00000010", "00000000")
		L13("00001000", "00000000", "00000000", "00000001"),
		/* 0xfff0bdc0 + 1000000 = 0x1_00000000, wrapped to 0 */
		L13("00000000", "00004f20", "00000bc8", "00000000")
		L13("00002000", "00000000", "00000000", "00000001"),
		"net.core.netdev_max_backlog = 1000\n"
		"net.core.netdev_budget = 300\n",
	};
	struct parsed p;

	(void)state;
	parsed_members(&p, names, texts, 3);
	assert_true(p.m->hosts->have & PD_HAVE_SOFTNET);
	parsed_analyse(&p);
	const struct pd_finding *f = find_finding(&p, "net.softnet", NULL);

	assert_non_null(f);
	/* 2000 drops/s against 100000 + 409.6 processed/s: p = 1.95 %,
	 * 1/(1-p) - 1 = 1.99 % */
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 20);
	assert_int_equal(f->confidence, 70);
	assert_non_null(strstr(f->summary, "2000 packets/s dropped on 1 CPU"));
	assert_non_null(strstr(f->summary, "300 budget squeezes/s"));
	assert_non_null(strstr(f->summary, "CPU 0 has 100 % of the drops"));
	assert_non_null(strstr(f->summary, "netdev_max_backlog 1000)"));
	assert_string_equal(f->fix[0],
	    "sudo sysctl -w net.core.netdev_max_backlog=2000");
	assert_string_equal(f->fix[1],
	    "sudo sysctl -w net.core.netdev_budget=600");
	/* netdev_budget_usecs not read: the kernel's default, doubled */
	assert_string_equal(f->fix[2],
	    "sudo sysctl -w net.core.netdev_budget_usecs=4000");
	assert_non_null(strstr(f->fix[3], "RPS"));
	assert_int_equal(f->ladder_step, 0);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_int_equal(f->n_ev, 3);
	assert_int_equal(f->ev[0].line, 1);
	parsed_free(&p);
}

/* Two snapshots of one CPU line each, 10 s apart (no times when
 * untimed), analysed; the net.softnet finding or NULL. */
static const struct pd_finding *
two(struct parsed *p, const char *a, const char *b, bool untimed)
{
	const char *names[] = {
		untimed ? "softnet_stat" : "softnet_stat@1764000000.txt",
		untimed ? "softnet_stat.1" : "softnet_stat@1764000010.txt",
	};
	const char *texts[] = { a, b };

	parsed_members(p, names, texts, 2);
	parsed_analyse(p);
	return find_finding(p, "net.softnet", NULL);
}

static void
test_rule_thresholds(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* 99 squeezes/s on one CPU and no drops: below the threshold */
	assert_null(two(&p,
	    L13("00001000", "00000007", "00000000", "00000000"),
	    L13("00002000", "00000007", "000003de", "00000000"), false));
	assert_true(p.m->hosts->have & PD_HAVE_SOFTNET);
	parsed_free(&p);

	/* 100/s on CPU 3 only, no drops: a squeeze finding */
	f = two(&p, L13("00001000", "00000000", "00000000", "00000003"),
	    L13("00002000", "00000000", "000003e8", "00000003"), false);
	assert_non_null(f);
	assert_int_equal(count_findings(&p, "net.softnet"), 1);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 0);
	assert_int_equal(f->confidence, 40);
	assert_non_null(strstr(f->summary, "runs out of budget"));
	assert_non_null(strstr(f->summary, "CPU 3 has 100 % of the squeezes"));
	/* one CPU only: not "one CPU does the work for all" */
	assert_null(strstr(f->summary, "for all"));
	assert_string_equal(f->fix[0],
	    "sudo sysctl -w net.core.netdev_budget=600");
	parsed_free(&p);

	/* one drop in 10 s is a finding */
	f = two(&p, L13("00001000", "00000000", "00000000", "00000000"),
	    L13("00002000", "00000001", "00000000", "00000000"), false);
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 1);
	parsed_free(&p);

	/* since-boot totals with drops, no times: never fires */
	assert_null(two(&p,
	    L13("00001000", "00000500", "00000500", "00000000"),
	    L13("00002000", "00000900", "00000900", "00000000"), true));
	assert_false(p.m->hosts->have & PD_HAVE_SOFTNET);
	parsed_free(&p);
}

static void
test_rule_doc(void **state)
{
	const struct pd_rule *r = pd_rule_find("net.softnet");

	(void)state;
	assert_non_null(r);
	assert_int_equal(r->needs, PD_HAVE_SOFTNET);
	assert_non_null(strstr(r->sysctls, "net.core.netdev_max_backlog"));
	assert_non_null(strstr(r->sysctls, "net.core.netdev_budget_usecs"));
	assert_string_equal(r->links[0],
	    "https://docs.kernel.org/networking/scaling.html");
	assert_string_equal(r->links[1],
	    "https://docs.kernel.org/admin-guide/sysctl/net.html");
	assert_null(r->links[2]);
}

int
test_group_softnet(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_bids_and_bad_lines),
		cmocka_unit_test(test_rule_drops),
		cmocka_unit_test(test_rule_thresholds),
		cmocka_unit_test(test_rule_doc),
	};
	return cmocka_run_group_tests_name("softnet", tests, NULL, NULL);
}

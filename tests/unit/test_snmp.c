/* The TCP counter readers (/proc/net/snmp, nstat -az) and the rule
 * tcp.retrans-rate.
 *
 * Origins: the /proc/net/snmp layout is net/ipv4/proc.c snmp_seq_show's
 * (a header line of names, then a line of values, per protocol; the
 * Tcp column set of a 6.x kernel, and of a kernel before 3.10 without
 * InCsumErrors); the nstat output without -a is the kernel's
 * Documentation/networking/snmp_counter.rst example ("nstat" after a
 * TCP handshake on the server: TcpPassiveOpens 1, TcpInSegs 2,
 * TcpOutSegs 1, TcpExtTCPPureAcks 1), with the "#kernel" line nstat
 * prints first and a TcpRetransSegs line as -z adds it; the nstat -az
 * layout is iproute2's misc/nstat.c dump_kern_db ("%-32s%-16llu%6.1f"),
 * which leaves out TcpRtoAlgorithm, TcpRtoMin, TcpRtoMax, TcpMaxConn
 * and TcpCurrEstab (useless_number). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/format.h"

#define TCP_HDR "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens " \
	"PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs " \
	"RetransSegs InErrs OutRsts InCsumErrors\n"
#define IP_HDR "Ip: Forwarding DefaultTTL InReceives InHdrErrors " \
	"InAddrErrors ForwDatagrams InUnknownProtos InDiscards InDelivers " \
	"OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds " \
	"ReasmOKs ReasmFails FragOKs FragFails FragCreates OutTransmits\n" \
	"Ip: 2 64 8181 0 0 0 0 0 8181 5437 0 0 0 0 0 0 0 0 0 5437\n"

static void
test_snmp_reader(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "snmp@1764000000.txt", IP_HDR TCP_HDR
	    "Tcp: 1 200 120000 -1 45 6 2 0 0 6644 3905 17 0 16 0\n"
	    "Udp: InDatagrams NoPorts InErrors OutDatagrams\n"
	    "Udp: 1531 0 0 1537\n");
	assert_int_equal(p.rc, 0);
	assert_string_equal(member_result(&p, "snmp@1764000000.txt")->format,
	    "proc-snmp");
	const struct pd_host *h = p.m->hosts;

	assert_int_equal(h->n_tcpstat, 1);
	assert_int_equal(h->tcpstat[0].time, 1764000000);
	assert_int_equal(h->tcpstat[0].out_segs, 3905);
	assert_int_equal(h->tcpstat[0].retrans_segs, 17);
	assert_int_equal(h->tcpstat[0].ev_out.line, 4);
	/* one snapshot: no rate, so the input is missing */
	assert_false(h->have & PD_HAVE_TCP_COUNTERS);
	parsed_free(&p);

	/* by name, not position: an older kernel without InCsumErrors and
	 * columns in another order; the time from a "# date:" line */
	parsed_text(&p, "x/m01", "# date: 1764000005\n"
	    "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn RetransSegs OutSegs\n"
	    "Tcp: 1 200 120000 -1 99 100000\n");
	h = p.m->hosts;
	assert_string_equal(member_result(&p, "m01")->format, "proc-snmp");
	assert_int_equal(h->tcpstat[0].time, 1764000005);
	assert_int_equal(h->tcpstat[0].out_segs, 100000);
	assert_int_equal(h->tcpstat[0].retrans_segs, 99);
	parsed_free(&p);

	/* values without a header, or a header without the counters */
	parsed_text(&p, "snmp.txt", IP_HDR
	    "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn\nTcp: 1 200 120000 -1\n");
	assert_true(has_note(member_result(&p, "snmp.txt"), "snmp.no-tcp"));
	assert_int_equal(p.m->hosts->n_tcpstat, 0);
	parsed_free(&p);
	parsed_text(&p, "snmp.txt", IP_HDR
	    "Tcp: RtoAlgorithm RtoMin OutSegs RetransSegs\nTcp: 1 200\n");
	assert_true(has_note(member_result(&p, "snmp.txt"),
	    "snmp.short-line"));
	parsed_free(&p);
	/* /proc/net/netstat's TcpExt pairs are another file */
	parsed_text(&p, "netstat.txt", "TcpExt: SyncookiesSent "
	    "SyncookiesRecv\nTcpExt: 0 0\n");
	assert_string_not_equal(member_result(&p, "netstat.txt")->format,
	    "proc-snmp");
	parsed_free(&p);
}

#define NSTAT_ABS(date, out, re) "# nstat -azs\n# date: " date "\n" \
	"#kernel\n" \
	"IpInReceives                    8181               0.0\n" \
	"TcpOutSegs                      " out "               0.0\n" \
	"TcpRetransSegs                  " re "                  0.0\n"

static void
test_nstat_reader(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "nstat/nstat@1764000000.txt",
	    NSTAT_ABS("1764000000", "3905", "12"));
	assert_string_equal(member_result(&p, "nstat@1764000000.txt")->format,
	    "nstat");
	assert_int_equal(p.m->hosts->n_tcpstat, 1);
	assert_int_equal(p.m->hosts->tcpstat[0].out_segs, 3905);
	assert_int_equal(p.m->hosts->tcpstat[0].retrans_segs, 12);
	assert_int_equal(p.m->hosts->tcpstat[0].time, 1764000000);
	parsed_free(&p);

	/* the kernel documentation's nstat (without -a): nothing says
	 * whether these are totals or deltas, refused */
	parsed_text(&p, "nstat.txt", "#kernel\n"
	    "IpInReceives                    2                  0.0\n"
	    "IpInDelivers                    2                  0.0\n"
	    "TcpPassiveOpens                 1                  0.0\n"
	    "TcpInSegs                       2                  0.0\n"
	    "TcpOutSegs                      1                  0.0\n"
	    "TcpRetransSegs                  0                  0.0\n"
	    "TcpExtTCPPureAcks               1                  0.0\n");
	assert_string_equal(member_result(&p, "nstat.txt")->format, "nstat");
	assert_true(has_note(member_result(&p, "nstat.txt"),
	    "nstat.not-absolute"));
	assert_int_equal(p.m->hosts->n_tcpstat, 0);
	parsed_free(&p);

	/* a constant printed as 0 (another tool's dump): deltas, refused
	 * even under a "# nstat -az" line */
	parsed_text(&p, "nstat.txt", "# nstat -az\n#kernel\n"
	    "TcpRtoMin                       0                  0.0\n"
	    "TcpOutSegs                      1                  0.0\n"
	    "TcpRetransSegs                  0                  0.0\n");
	assert_true(has_note(member_result(&p, "nstat.txt"), "nstat.deltas"));
	assert_int_equal(p.m->hosts->n_tcpstat, 0);
	parsed_free(&p);

	/* "# nstat -s" (no -a) does not make them totals */
	parsed_text(&p, "nstat.txt", "# nstat -s\n#kernel\n"
	    "TcpOutSegs                      1                  0.0\n"
	    "TcpRetransSegs                  0                  0.0\n");
	assert_true(has_note(member_result(&p, "nstat.txt"),
	    "nstat.not-absolute"));
	parsed_free(&p);

	/* the same lines in a sosreport's nstat_-zas: -a, absolute */
	parsed_text(&p, "sos_commands/networking/nstat_-zas", "#kernel\n"
	    "TcpOutSegs                      1000               0.0\n"
	    "TcpRetransSegs                  3                  0.0\n");
	assert_int_equal(p.m->hosts->n_tcpstat, 1);
	assert_int_equal(p.m->hosts->tcpstat[0].time, -1);
	parsed_free(&p);
}

/* Two snapshots, 10 s apart, of OutSegs and RetransSegs. */
static void
two(struct parsed *p, const char *out0, const char *re0, const char *out1,
    const char *re1)
{
	char a[512], b[512];
	const char *names[] = { "snmp@1764000000.txt", "snmp@1764000010.txt" };
	const char *texts[] = { a, b };

	snprintf(a, sizeof(a), TCP_HDR "Tcp: 1 200 120000 -1 45 6 2 0 0 1 %s "
	    "%s 0 16 0\n", out0, re0);
	snprintf(b, sizeof(b), TCP_HDR "Tcp: 1 200 120000 -1 45 6 2 0 0 1 %s "
	    "%s 0 16 0\n", out1, re1);
	parsed_members(p, names, texts, 2);
	parsed_analyse(p);
}

static void
test_retrans_rate(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* 2.1 % of 2000000: fires for the host, Mathis bound sqrt(2.1) */
	two(&p, "5102884410", "51200431", "5104884410", "51242431");
	assert_true(p.m->hosts->have & PD_HAVE_TCP_COUNTERS);
	f = find_finding(&p, "tcp.retrans-rate", NULL);
	assert_non_null(f);
	assert_string_equal(f->subject, "host");
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, (int)lround((sqrt(2.1) - 1) * 1000));
	assert_int_equal(f->gain_hi, 449);
	assert_int_equal(f->confidence, 40);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_non_null(strstr(f->summary, "42000 of 2000000"));
	assert_non_null(strstr(f->gain_basis, "upper bound"));
	parsed_free(&p);

	/* 9 %: the bound is taken at most as x2 */
	two(&p, "0", "0", "100000", "9000");
	f = find_finding(&p, "tcp.retrans-rate", NULL);
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 1000);
	parsed_free(&p);

	/* exactly 1 %: not above the threshold */
	two(&p, "0", "0", "100000", "1000");
	assert_int_equal(count_findings(&p, "tcp.retrans-rate"), 0);
	parsed_free(&p);
	/* 0.05 % */
	two(&p, "5102884410", "2551442", "5104884410", "2552442");
	assert_int_equal(count_findings(&p, "tcp.retrans-rate"), 0);
	parsed_free(&p);
	/* too few segments to judge */
	two(&p, "0", "0", "9999", "5000");
	assert_int_equal(count_findings(&p, "tcp.retrans-rate"), 0);
	parsed_free(&p);
	/* counters went back (a reboot between the snapshots) */
	two(&p, "5102884410", "51200431", "200000", "9000");
	assert_int_equal(count_findings(&p, "tcp.retrans-rate"), 0);
	parsed_free(&p);
}

static void
test_retrans_samples(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* tied to nic2, whose NIC drop counters move */
	parsed_analysed(&p, "samples/gx10-tcp-retrans.tgz");
	assert_int_equal(p.rc, 0);
	f = find_finding(&p, "tcp.retrans-rate", NULL);
	assert_non_null(f);
	assert_string_equal(f->subject, "nic2");
	assert_int_equal(f->confidence, 50);
	assert_int_equal(f->gain_hi, 449);
	parsed_free(&p);

	parsed_analysed(&p, "samples/gx10-tcp-quiet.tgz");
	assert_int_equal(p.rc, 0);
	assert_true(p.m->hosts->have & PD_HAVE_TCP_COUNTERS);
	assert_int_equal(count_findings(&p, "tcp.retrans-rate"), 0);
	parsed_free(&p);

	/* the sosreport has no TCP counters: not evaluated, no finding */
	parsed_analysed(&p, "samples/sosreport-gx10-20251124.tgz");
	assert_int_equal(count_findings(&p, "tcp.retrans-rate"), 0);
	parsed_free(&p);
}

int
test_group_snmp(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snmp_reader),
		cmocka_unit_test(test_nstat_reader),
		cmocka_unit_test(test_retrans_rate),
		cmocka_unit_test(test_retrans_samples),
	};
	return cmocka_run_group_tests_name("snmp", tests, NULL, NULL);
}

/* "iperf3": iperf3's plain text output, client or server:
 *
 *   Connecting to host 10.0.0.1, port 5201        (client; "Accepted
 *   Reverse mode, remote host 10.0.0.1 is sending  connection from" on a
 *   [  5] local 10.0.0.2 port 40000 connected to 10.0.0.1 port 5201
 *   [ ID] Interval           Transfer     Bitrate         Retr  Cwnd
 *   [  5]   0.00-1.00   sec   113 MBytes   949 Mbits/sec    0    595 KBytes
 *   - - - - - - - - - - - - - - - - - - - - - - - - -
 *   [  5]   0.00-10.00  sec  1.10 GBytes   944 Mbits/sec    0   sender
 *   [  5]   0.00-10.04  sec  1.10 GBytes   940 Mbits/sec        receiver
 *   [SUM]   0.00-10.00  sec  ...                                sender
 *
 * Reference: iperf3's iperf_locale.c (the report formats; "Bandwidth"
 * before 3.3 where "Bitrate" is now) and iperf_api.c.  Transfer units
 * are binary (KBytes = 1024 bytes), rates decimal (Mbits = 10^6 bits).
 * Each "Connecting to host" or "Accepted connection from" starts a test
 * (a server's log holds one per client); its sender and receiver lines,
 * the [SUM] lines when there are several streams, are the test's sides. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define HEADER "[ ID] Interval "

static int
bid_iperf3(const struct pd_member *m)
{
	const unsigned char *p = m->head, *end = p + m->head_len;
	char line[128];
	int bid = 0, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	while (pd_text_next_line(&p, end, line, sizeof(line))) {
		if (pd_starts_with(line, HEADER))
			bid = 8 * (int)strlen(HEADER);
		else if (pd_starts_with(line, "Connecting to host ") ||
		    pd_starts_with(line, "Accepted connection from ") ||
		    pd_starts_with(line, "Server listening on "))
			extra += extra < 24 ? 8 : 0;
	}
	return bid ? bid + extra : 0;
}

struct ip_state {
	struct pd_workload *w;
	struct pd_arena *a;
	const char *member;
	struct pd_wl_job *job;
	bool sum_sent, sum_recv;	/* [SUM] lines win over a stream's */
	int n_streams;			/* "connected to" lines of this test */
};

/* "1.10 GBytes" (binary) */
static double
bytes_at(const char *s, const char **end)
{
	static const struct { const char *u; double f; } units[] = {
		{ "Bytes", 1 }, { "KBytes", 1024.0 }, { "MBytes", 1048576.0 },
		{ "GBytes", 1073741824.0 }, { "TBytes", 1099511627776.0 },
	};
	char *e;
	double v = strtod(s, &e);

	e = (char *)pd_skip_space(e);
	for (size_t i = 0; i < PD_ARRAY_SIZE(units); i++)
		if (pd_starts_with(e, units[i].u)) {
			*end = e + strlen(units[i].u);
			return v * units[i].f;
		}
	return -1;
}

/* "940 Mbits/sec" (decimal), as bytes per second */
static double
rate_at(const char *s, const char **end)
{
	static const struct { const char *u; double f; } units[] = {
		{ "bits/sec", 1 }, { "Kbits/sec", 1e3 }, { "Mbits/sec", 1e6 },
		{ "Gbits/sec", 1e9 }, { "Tbits/sec", 1e12 },
	};
	char *e;
	double v = strtod(s, &e);

	e = (char *)pd_skip_space(e);
	for (size_t i = 0; i < PD_ARRAY_SIZE(units); i++)
		if (pd_starts_with(e, units[i].u)) {
			*end = e + strlen(units[i].u);
			return v * units[i].f / 8;
		}
	return -1;
}

static struct pd_wl_job *
test_job(struct ip_state *st, const char *role, const char *s, size_t len,
    uint32_t line)
{
	struct pd_wl_job *j = pd_workload_job(st->w, st->a,
	    pd_arena_strndup(st->a, s, len));

	j->net.role = role;
	j->net.reverse = PD_NO;
	pd_evidence_set(&j->ev, st->a, st->member, line, s, len);
	st->job = j;
	st->sum_sent = st->sum_recv = false;
	st->n_streams = 0;
	return j;
}

/* "[  5]   0.00-10.00  sec  1.10 GBytes   944 Mbits/sec    0   sender" */
static void
summary_line(struct ip_state *st, const char *s, size_t len, uint32_t line)
{
	bool sum = pd_starts_with(s, "[SUM]");
	bool sender = len >= 6 && strcmp(s + len - 6, "sender") == 0;
	const char *p = strstr(s, "sec"), *e;	/* "10.00sec" in 3.0 */
	struct pd_wl_net *n = &st->job->net;
	double secs, bytes, rate;
	char *x;

	if (!p || (!sum && (sender ? st->sum_sent : st->sum_recv)))
		return;
	secs = strtod(strchr(s, '-') ? strchr(s, '-') + 1 : s, &x);
	bytes = bytes_at(p + 3, &e);
	if (bytes < 0 || (rate = rate_at(e, &e)) < 0)
		return;
	if (sender) {
		n->sent_bytes = (int64_t)bytes;
		n->sent_bytes_per_s = rate;
		long r = strtol(e, &x, 10);

		n->retransmits = x != e ? r : -1;
		st->sum_sent |= sum;
	} else {
		n->recv_bytes = (int64_t)bytes;
		n->recv_bytes_per_s = rate;
		st->sum_recv |= sum;
		pd_evidence_set(&st->job->ev, st->a, st->member, line, s, len);
	}
	if (secs > st->job->seconds)
		st->job->seconds = secs;
}

static void
iperf3_line(struct ip_state *st, const char *s, size_t len, uint32_t line)
{
	const char *v;

	if (pd_starts_with(s, "Connecting to host ")) {
		test_job(st, "client", s, len, line);
	} else if (pd_starts_with(s, "Accepted connection from ")) {
		test_job(st, "server", s, len, line);
	} else if (pd_starts_with(s, "iperf3: error") ||
	    pd_starts_with(s, "iperf3: interrupt")) {
		if (st->w->n_errors++ == 0)
			pd_evidence_set(&st->w->first_error, st->a,
			    st->member, line, s, len);
	} else if (!st->job && s[0] != '[') {
		return;
	} else if (!st->job) {
		/* a cut output, from the report lines on: one test, this
		 * end's role unknown */
		test_job(st, NULL, s, len, line)->name = "test";
		st->job->net.reverse = PD_UNKNOWN;
		iperf3_line(st, s, len, line);
	} else if (pd_starts_with(s, "Reverse mode")) {
		st->job->net.reverse = PD_YES;
	} else if (s[0] == '[' && (v = strstr(s, " connected to ")) &&
	    st->n_streams < INT_MAX) {
		st->job->net.streams = ++st->n_streams;
	} else if (s[0] == '[' && len > 8 && (strcmp(s + len - 6,
	    "sender") == 0 || strcmp(s + len - 8, "receiver") == 0)) {
		summary_line(st, s, len, line);
	}
}

static enum pd_status
parse_iperf3(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct ip_state *st = pd_arena_alloc(d->arena, sizeof(*st));
	const char *line;
	size_t len;

	st->a = d->arena;
	st->member = m->path;
	st->w = pd_host_workload(h, d->arena, m->path, "iperf3");
	while (pd_input_getline(in, &line, &len))
		iperf3_line(st, line, len, in->line_no);
	pd_workload_sum(st->w, d->arena);
	if (!st->w->n_jobs)
		pd_diag_note(d, PD_WARN, "iperf3.no-test", 0, "no test: no "
		    "\"Connecting to host\", \"Accepted connection from\" or "
		    "report line");
	return st->w->n_jobs ? PD_OK : PD_WARN;
}

static const char *const hints[] = { "iperf", NULL };

const struct pd_format pd_format_iperf3 = {
	.name = "iperf3",
	.summary = "iperf3's text output (client or server): bytes and rate "
	    "sent and received, retransmits, streams, role, reverse",
	.command = "iperf3 -c HOST",
	.hints = hints,
	.gives = PD_HAVE_WORKLOAD,
	.collect = "iperf3 -c HOST -J output",
	.bid = bid_iperf3,
	.parse = parse_iperf3,
};

/* "proc-snmp": cat /proc/net/snmp, the kernel's SNMP MIB counters
 * since boot, which pathdoctor-collect writes twice some seconds apart
 * as proc-snmp/snmp@UNIX-SECONDS.txt (a "# date:" line also gives
 * the time).
 *
 * Reference: net/ipv4/proc.c snmp_seq_show: per protocol two lines, a
 * header of counter names and a line of values, both opened by the
 * protocol's name ("Tcp: RtoAlgorithm RtoMin ... RetransSegs InErrs
 * OutRsts InCsumErrors", then "Tcp: 1 200 120000 -1 ...").  The column
 * set grows with the kernel (InCsumErrors since 3.10, Ip's OutTransmits
 * since 6.3), so values are matched to names by position within their
 * own pair, never by a fixed column.  MaxConn is -1 (signed); only Tcp's
 * OutSegs and RetransSegs are kept. */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define HEADER_MAX 2048		/* the Tcp header is about 150 bytes */

static bool
is_value(const char *s)
{
	s = pd_skip_space(s);
	if (*s == '-')
		s++;
	return *s >= '0' && *s <= '9';
}

/* "Ip: Forwarding DefaultTTL ..." then "Ip: 1 64 ...", or a Tcp pair on
 * its own (an excerpt). */
static int
bid_snmp(const struct pd_member *m)
{
	char h[512], v[512];
	size_t n;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, h, sizeof(h)) ||
	    !pd_text_content_line(m->head, m->head_len, 1, v, sizeof(v)))
		return 0;
	if (pd_starts_with(h, "Ip: Forwarding DefaultTTL "))
		n = 3;
	else if (pd_starts_with(h, "Tcp: RtoAlgorithm RtoMin "))
		n = 4;
	else
		return 0;
	if (strncmp(h, v, n + 1) != 0 || !is_value(v + n + 1))
		return 0;
	return 128;
}

/* The next blank-separated word of *s (its length), moving *s past it. */
static size_t
word(const char **s, const char **w)
{
	const char *p = pd_skip_space(*s);
	size_t n = strcspn(p, " \t");

	*w = p;
	*s = p + n;
	return n;
}

static bool
named(const char *w, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(w, name, n) == 0;
}

/* Matches the value line to the header by position. */
static void
tcp_values(const char *header, const char *vals, struct pd_tcpstat *k,
    const struct pd_evidence *ev, struct pd_diag *d, uint32_t line_no)
{
	const char *hs = header + 4, *vs = vals + 4, *hw, *vw;
	size_t hn, vn;

	while ((hn = word(&hs, &hw)) > 0) {
		uint64_t v;
		const char *end;

		if ((vn = word(&vs, &vw)) == 0) {
			pd_diag_note(d, PD_WARN, "snmp.short-line", line_no,
			    "fewer Tcp values than names");
			return;
		}
		if (*vw == '-' || !pd_parse_u64(vw, 10, &v, &end) ||
		    (size_t)(end - vw) != vn)
			continue;
		if (named(hw, hn, "OutSegs")) {
			k->out_segs = v;
			k->has_out = true;
			k->ev_out = *ev;
		} else if (named(hw, hn, "RetransSegs")) {
			k->retrans_segs = v;
			k->has_retrans = true;
			k->ev_retrans = *ev;
		}
	}
	if (word(&vs, &vw) > 0)
		pd_diag_note(d, PD_WARN, "snmp.long-line", line_no,
		    "more Tcp values than names");
}

static enum pd_status
parse_snmp(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_tcpstat k = { .time = -1, .member = m->path };
	char header[HEADER_MAX];
	bool have_header = false;
	const char *line;
	size_t len;
	int64_t ms;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);

		if (pd_starts_with(s, "# date:")) {
			if (pd_parse_unix_time(pd_skip_space(s + 7), &ms, NULL))
				k.time = ms / 1000;
			continue;
		}
		if (!pd_starts_with(s, "Tcp: "))
			continue;
		if (!is_value(s + 4)) {
			have_header = strlen(s) < sizeof(header);
			if (have_header)
				memcpy(header, s, strlen(s) + 1);
			else
				pd_diag_note(d, PD_WARN, "snmp.long-header",
				    in->line_no, "Tcp header over %u bytes",
				    HEADER_MAX);
			continue;
		}
		if (!have_header) {
			pd_diag_note(d, PD_WARN, "snmp.no-header", in->line_no,
			    "Tcp values without a header line before them");
			continue;
		}
		struct pd_evidence ev;

		pd_evidence_set(&ev, d->arena, m->path, in->line_no, line, len);
		tcp_values(header, s, &k, &ev, d, in->line_no);
		have_header = false;
	}
	if (k.time < 0 && pd_time_from_path(m->hint_path, &ms))
		k.time = ms / 1000;
	if (!k.has_out || !k.has_retrans) {
		pd_diag_note(d, PD_WARN, "snmp.no-tcp", 0,
		    "no Tcp OutSegs and RetransSegs");
		return PD_WARN;
	}
	pd_host_tcpstat_keep(h, &k);
	return PD_OK;
}

static const char *const hints[] = { "snmp", NULL };

const struct pd_format pd_format_proc_net_snmp = {
	.name = "proc-snmp",
	.summary = "the kernel's TCP counters since boot (/proc/net/snmp): "
	    "OutSegs, RetransSegs; two timed snapshots give rates",
	.command = "cat /proc/net/snmp",
	.hints = hints,
	.gives = PD_HAVE_TCP_COUNTERS,
	.collect = "cat /proc/net/snmp (as proc-snmp/snmp@UNIX-SECONDS.txt) "
	    "or nstat -az with a '# date:' line",
	.bid = bid_snmp,
	.parse = parse_snmp,
};

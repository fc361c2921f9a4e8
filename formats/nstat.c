/* "nstat": nstat -az (iproute2), the kernel's SNMP and netstat counters
 * as "#kernel" then one "NAME VALUE RATE" line each ("TcpRetransSegs
 * 12345 0.0"); pathdoctor-collect writes nstat -azs twice some seconds
 * apart as nstat/nstat@UNIX-SECONDS.txt, after a "# nstat -azs" and a
 * "# date:" line.
 *
 * nstat prints absolute counters only with -a; without it, the change
 * since its history file, which looks the same (a first run without
 * history even prints the totals).  nstat hides the constants that
 * would tell (TcpRtoAlgorithm, TcpRtoMin, TcpRtoMax: its
 * useless_number()), so the member must say how it was made: a
 * comment line naming nstat with -a ("# nstat -az"), or a sosreport's
 * name (nstat_-zas); else it is refused with a note.  Where one of
 * those constants is printed anyway (another tool's dump, an edited
 * file), 0 means deltas (refused) and a value above 0 totals.  The rate
 * column (an average over nstat's history) is not read; only TcpOutSegs
 * and TcpRetransSegs are kept. */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

/* "TcpOutSegs   3905   0.0": the name's length, the value; 0 if not. */
static size_t
counter_line(const char *s, uint64_t *v)
{
	size_t n = 0;
	const char *p, *end;

	while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
	    (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
		n++;
	if (n == 0 || (s[n] != ' ' && s[n] != '\t'))
		return 0;
	p = pd_skip_space(s + n);
	if (!pd_parse_u64(p, 10, v, &end) || (*end != ' ' && *end != '\t' &&
	    *end != '\0'))
		return 0;
	return n;
}

/* "#kernel" among the first lines (after the collector's comments),
 * then counter lines. */
static int
bid_nstat(const struct pd_member *m)
{
	char line[256];
	unsigned i = 0, good = 0;
	uint64_t v;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	for (; i < 8; i++) {
		if (!pd_text_head_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			return 0;
		if (strcmp(line, "#kernel") == 0)
			break;
		if (line[0] != '#')
			return 0;
	}
	if (i == 8)
		return 0;
	for (unsigned k = i + 1; k < i + 4; k++) {
		if (!pd_text_head_line(m->head, m->head_len, k, line,
		    sizeof(line)))
			break;
		if (!counter_line(line, &v))
			return 0;
		good++;
	}
	return good ? 56 + 8 * good : 0;
}

static bool
named(const char *s, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(s, name, n) == 0;
}

/* "# nstat -az", "# command: nstat -s -a": a comment naming nstat run
 * with -a. */
static bool
says_absolute(const char *s)
{
	const char *p = strstr(s, "nstat");

	if (!p)
		return false;
	for (p += 5; *p; p++)
		if (p[0] == '-' && p[1] != '-' && (p == s || p[-1] == ' ')) {
			for (const char *q = p + 1; *q && *q != ' '; q++)
				if (*q == 'a')
					return true;
		}
	return false;
}

/* sosreport's sos_commands/networking/nstat_-zas */
static bool
path_absolute(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	if (!pd_starts_with(b, "nstat_-"))
		return false;
	for (b += 7; *b && *b != '_' && *b != '.'; b++)
		if (*b == 'a')
			return true;
	return false;
}

static enum pd_status
parse_nstat(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_tcpstat k = { .time = -1, .member = m->path };
	bool flag = path_absolute(m->hint_path), constants = false;
	bool constant_above_0 = false;
	const char *line;
	size_t len, n;
	int64_t ms;
	uint64_t v;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);
		struct pd_evidence ev;

		if (pd_starts_with(s, "# date:")) {
			if (pd_parse_unix_time(pd_skip_space(s + 7), &ms, NULL))
				k.time = ms / 1000;
			continue;
		}
		if (*s == '#') {
			flag |= says_absolute(s);
			continue;
		}
		if (!(n = counter_line(s, &v)))
			continue;
		if (named(s, n, "TcpRtoAlgorithm") || named(s, n, "TcpRtoMin") ||
		    named(s, n, "TcpRtoMax")) {
			constants = true;
			constant_above_0 |= v > 0;
		} else if (named(s, n, "TcpOutSegs")) {
			pd_evidence_set(&ev, d->arena, m->path, in->line_no,
			    line, len);
			k.out_segs = v;
			k.has_out = true;
			k.ev_out = ev;
		} else if (named(s, n, "TcpRetransSegs")) {
			pd_evidence_set(&ev, d->arena, m->path, in->line_no,
			    line, len);
			k.retrans_segs = v;
			k.has_retrans = true;
			k.ev_retrans = ev;
		}
	}
	if (k.time < 0 && pd_time_from_path(m->hint_path, &ms))
		k.time = ms / 1000;
	if (constants && !constant_above_0) {
		pd_diag_note(d, PD_WARN, "nstat.deltas", 0, "changes since "
		    "nstat's last run (TcpRtoMin is 0), not counters: not "
		    "used; run nstat -az for the absolute values");
		return PD_WARN;
	}
	if (!constants && !flag) {
		pd_diag_note(d, PD_WARN, "nstat.not-absolute", 0, "cannot tell "
		    "absolute counters from nstat's changes since its last run "
		    "(no '# nstat -az' line names the command): not used; run "
		    "nstat -az and put that line first");
		return PD_WARN;
	}
	if (!k.has_out || !k.has_retrans) {
		pd_diag_note(d, PD_WARN, "nstat.no-tcp", 0,
		    "no TcpOutSegs and TcpRetransSegs lines");
		return PD_WARN;
	}
	pd_host_tcpstat_keep(h, &k);
	return PD_OK;
}

static const char *const hints[] = { "nstat", NULL };

const struct pd_format pd_format_nstat = {
	.name = "nstat",
	.summary = "the kernel's TCP counters since boot (nstat -az): "
	    "TcpOutSegs, TcpRetransSegs; two timed snapshots give rates",
	.command = "nstat -az",
	.hints = hints,
	.gives = PD_HAVE_TCP_COUNTERS,
	.collect = "cat /proc/net/snmp (as proc-snmp/snmp@UNIX-SECONDS.txt) "
	    "or nstat -az with a '# date:' line",
	.bid = bid_nstat,
	.parse = parse_nstat,
};

/* "sysctl": sysctl -a or sysctl net, kept as text ("key = value");
 * numbers are parsed when a rule asks.  Values may hold tabs
 * (net.ipv4.tcp_rmem); "sysctl: permission denied on key" lines from a
 * non-root run are skipped. */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const char *const roots[] = { "net.", "kernel.", "vm.", "fs.",
	"dev.", "abi.", "crypto.", "debug.", "user.", "sunrpc.", NULL };

/* "net.core.rmem_max = 212992": key length, value start; 0 if not. */
static size_t
kv_line(const char *s, const char **val)
{
	const char *eq = strstr(s, " = ");
	size_t n;

	if (!eq) {
		if (!(eq = strchr(s, '=')))
			return 0;
		n = (size_t)(eq - s);
		*val = eq + 1;
	} else {
		n = (size_t)(eq - s);
		*val = eq + 3;
	}
	if (n == 0 || !memchr(s, '.', n) || memchr(s, ' ', n))
		return 0;
	return n;
}

static int
bid_sysctl(const struct pd_member *m)
{
	char line[512];
	const char *v;
	int known = 0, lines = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	for (unsigned i = 0; i < 3; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		if (!kv_line(line, &v) || !strstr(line, " = "))
			return 0;
		lines++;
		for (const char *const *r = roots; *r; r++)
			if (pd_starts_with(line, *r)) {
				known++;
				break;
			}
	}
	return known ? 40 + 8 * lines : 0;
}

static enum pd_status
parse_sysctl(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *line, *val;
	size_t len, n;
	unsigned count = 0, bad = 0;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);
		struct pd_evidence ev;

		if (*s == '\0' || *s == '#' || pd_starts_with(s, "sysctl: "))
			continue;
		if (!(n = kv_line(s, &val))) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "sysctl.bad-line",
				    in->line_no, "not 'key = value': '%.80s'", s);
			continue;
		}
		char *key = pd_arena_strndup(a, s, n);

		pd_evidence_set(&ev, a, m->path, in->line_no, line, len);
		pd_host_sysctl_set(h, a, key, val, &ev);
		count++;
	}
	if (count == 0)
		pd_diag_note(d, PD_WARN, "sysctl.empty", 0, "no settings");
	return PD_OK;
}

static const char *const hints[] = { "sysctl_-a", "sysctl", NULL };

const struct pd_format pd_format_sysctl = {
	.name = "sysctl",
	.summary = "kernel settings: arp_ignore, arp_announce, ip_forward, ...",
	.command = "sysctl -a (or sysctl net)",
	.hints = hints,
	.gives = PD_HAVE_SYSCTL,
	.collect = "sysctl -a or sysctl net",
	.bid = bid_sysctl,
	.parse = parse_sysctl,
};

/* "ethtool": plain ethtool IF, link settings.
 *
 * Reference: ethtool.c dump_link_usettings: "Settings for IF:" then
 * tab-indented "Speed: 25000Mb/s" (or "Unknown!" when the link is
 * down), "Duplex: Full", "Link detected: yes". */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static int
bid_ethtool_settings(const struct pd_member *m)
{
	char line[256];
	int extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !pd_starts_with(line, "Settings for "))
		return 0;
	for (unsigned i = 1; i < 6; i++)
		if (pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)) && pd_starts_with(pd_skip_space(line),
		    "Supported"))
			extra++;
	return 104 + 8 * (extra > 3 ? 3 : extra);
}

static enum pd_status
parse_ethtool_settings(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_netdev *nd = NULL;
	const char *line, *key, *val, *name;
	size_t len, klen;

	while (pd_input_getline(in, &line, &len)) {
		if ((name = pd_ifname_from_header(a, line, "Settings for "))) {
			nd = pd_host_netdev(h, a, name);
			continue;
		}
		if (!nd || !pd_split_colon(line, &key, &klen, &val))
			continue;
		if (klen == 5 && memcmp(key, "Speed", 5) == 0) {
			uint64_t mbps;
			const char *e;

			pd_evidence_set(&nd->ev_speed, a, m->path, in->line_no,
			    line, len);
			if (pd_parse_u64(val, 10, &mbps, &e) &&
			    pd_starts_with(e, "Mb/s") && mbps < 100000000)
				nd->speed_mbps = (int)mbps;
			else if (pd_starts_with(val, "Unknown"))
				nd->speed_mbps = 0;
			else
				pd_diag_note(d, PD_WARN, "ethtool.bad-speed",
				    in->line_no, "unreadable speed '%s'", val);
		} else if (klen == 6 && memcmp(key, "Duplex", 6) == 0) {
			nd->duplex = pd_arena_strdup(a, val);
		} else if (klen == 13 && memcmp(key, "Link detected", 13) == 0) {
			nd->link = pd_starts_with(val, "yes") ? PD_YES :
			    pd_starts_with(val, "no") ? PD_NO : PD_UNKNOWN;
		}
	}
	if (!nd)
		pd_diag_note(d, PD_WARN, "ethtool.no-header", 0,
		    "no 'Settings for IF:' line");
	return PD_OK;
}

static const char *const hints[] = { "ethtool_", NULL };

static const char *const name_prefixes[] = {
	"ethtool_", NULL,
};

const struct pd_format pd_format_ethtool_settings = {
	.name = "ethtool",
	.summary = "link speed, duplex and state of an interface",
	.command = "ethtool IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_PORT_SPEED,
	.collect = "ethtool IF output",
	.bid = bid_ethtool_settings,
	.parse = parse_ethtool_settings,
};

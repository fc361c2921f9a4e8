/* "ethtool-a": ethtool -a IF, flow-control pause settings.
 *
 * Reference: ethtool.c dump_pauseparam: "Pause parameters for IF:" then
 * "Autonegotiate:", "RX:", "TX:" and, when autonegotiated, "RX
 * negotiated:" / "TX negotiated:".  Spacing before the colon varies.  The
 * negotiated values, when printed, are what the link really does and
 * win over the configured ones. */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static int
bid_ethtool_pause(const struct pd_member *m)
{
	char line[256];
	int extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !pd_starts_with(line, "Pause parameters for "))
		return 0;
	for (unsigned i = 1; i < 4; i++)
		if (pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)) && (pd_starts_with(line, "Autonegotiate") ||
		    pd_starts_with(line, "RX") || pd_starts_with(line, "TX")))
			extra++;
	return 112 + 8 * extra;
}

static enum pd_tri
onoff(const char *v)
{
	return pd_starts_with(v, "on") ? PD_YES : pd_starts_with(v, "off") ?
	    PD_NO : PD_UNKNOWN;
}

static enum pd_status
parse_ethtool_pause(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	static const struct { const char *key; int field; bool negotiated; }
	keys[] = {
		{ "Autonegotiate", 0, false }, { "RX", 1, false },
		{ "TX", 2, false }, { "RX negotiated", 1, true },
		{ "TX negotiated", 2, true },
	};
	struct pd_arena *a = d->arena;
	struct pd_netdev *nd = NULL;
	const char *line, *key, *val, *name;
	size_t len, klen;
	bool neg[3] = { false, false, false };

	while (pd_input_getline(in, &line, &len)) {
		if ((name = pd_ifname_from_header(a, line,
		    "Pause parameters for "))) {
			nd = pd_host_netdev(h, a, name);
			pd_evidence_set(&nd->ev_pause, a, m->path, in->line_no,
			    line, len);
			continue;
		}
		if (!nd || !pd_split_colon(line, &key, &klen, &val))
			continue;
		for (size_t i = 0; i < PD_ARRAY_SIZE(keys); i++) {
			if (strlen(keys[i].key) != klen ||
			    memcmp(keys[i].key, key, klen) != 0)
				continue;
			enum pd_tri v = onoff(val);
			enum pd_tri *dst = keys[i].field == 0 ?
			    &nd->pause_autoneg : keys[i].field == 1 ?
			    &nd->pause_rx : &nd->pause_tx;

			if (v == PD_UNKNOWN)
				pd_diag_note(d, PD_WARN, "ethtool-a.bad-value",
				    in->line_no, "neither on nor off: '%s'",
				    line);
			else if (keys[i].negotiated || !neg[keys[i].field])
				*dst = v;
			neg[keys[i].field] |= keys[i].negotiated;
		}
	}
	if (!nd)
		pd_diag_note(d, PD_WARN, "ethtool-a.no-header", 0,
		    "no 'Pause parameters for IF:' line");
	return PD_OK;
}

static const char *const hints[] = { "ethtool_-a_", "ethtool-a", NULL };

static const char *const name_prefixes[] = {
	"ethtool_-a_", "ethtool-a_", "ethtool-a-", NULL,
};

const struct pd_format pd_format_ethtool_pause = {
	.name = "ethtool-a",
	.summary = "flow-control pause: autonegotiation, RX, TX",
	.command = "ethtool -a IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_PAUSE,
	.collect = "ethtool -a IF output",
	.bid = bid_ethtool_pause,
	.parse = parse_ethtool_pause,
};

/* "ethtool-a": ethtool -a IF, flow-control pause settings.
 *
 * Reference: ethtool.c dump_pauseparam: "Pause parameters for IF:" then
 * "Autonegotiate:", "RX:", "TX:" and, when autonegotiated, "RX
 * negotiated:" / "TX negotiated:".  Spacing before the colon varies.  The
 * negotiated values, when printed, are what the link really does and
 * win over the configured ones.  A driver without get_pauseparam (veth,
 * bridges, many virtual NICs) leaves the header alone with "Cannot get
 * device pause settings: Operation not supported", which sosreports
 * keep BEFORE the header (stderr is unbuffered, stdout flushed at exit):
 * a valid answer, "unknown", not an unreadable file. */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define HEADER "Pause parameters for "
#define ERROR "Cannot get device pause settings"

/* The header first, or ethtool's error line with the header next. */
static int
bid_ethtool_pause(const struct pd_member *m)
{
	char line[256];
	int extra = 0;
	unsigned first = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	if (pd_starts_with(line, ERROR ":")) {
		if (!pd_text_content_line(m->head, m->head_len, 1, line,
		    sizeof(line)) || !pd_starts_with(line, HEADER))
			return 0;
		first = 1;
		extra = 1;
	} else if (!pd_starts_with(line, HEADER)) {
		return 0;
	}
	for (unsigned i = first + 1; i < first + 4; i++)
		if (pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)) && (pd_starts_with(line, "Autonegotiate") ||
		    pd_starts_with(line, "RX") || pd_starts_with(line, "TX") ||
		    pd_starts_with(line, ERROR ":")))
			extra++;
	return 112 + 8 * (extra < 3 ? extra : 3);
}

/* "Cannot get device pause settings: Operation not supported" -> its
 * reason, or NULL when the line is not ethtool's error. */
static const char *
error_reason(const char *line)
{
	if (!pd_starts_with(line, ERROR ":"))
		return NULL;
	const char *r = pd_skip_space(line + strlen(ERROR ":"));

	return *r ? r : "no reason given";
}

/* The reason goes to the interface whose header is next to the error:
 * the one just read, or (error first) the one that follows. */
static void
set_error(struct pd_netdev *nd, struct pd_arena *a, const char *reason)
{
	nd->pause_error = pd_arena_strdup(a, reason);
	nd->pause_autoneg = nd->pause_rx = nd->pause_tx = PD_UNKNOWN;
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
	const char *line, *key, *val, *name, *reason;
	const char *pending = NULL;	/* an error before its header */
	size_t len, klen;
	bool neg[3] = { false, false, false }, values = false;

	while (pd_input_getline(in, &line, &len)) {
		if ((name = pd_ifname_from_header(a, line, HEADER))) {
			nd = pd_host_netdev(h, a, name);
			pd_evidence_set(&nd->ev_pause, a, m->path, in->line_no,
			    line, len);
			if (pending)
				set_error(nd, a, pending);
			pending = NULL;
			values = false;
			continue;
		}
		if ((reason = error_reason(line))) {
			if (nd && !values && !nd->pause_error)
				set_error(nd, a, reason);
			else
				pending = pd_arena_strdup(a, reason);
			continue;
		}
		if (!nd || !pd_split_colon(line, &key, &klen, &val))
			continue;
		for (size_t i = 0; i < PD_ARRAY_SIZE(keys); i++) {
			if (strlen(keys[i].key) != klen ||
			    memcmp(keys[i].key, key, klen) != 0)
				continue;
			enum pd_tri v = onoff(val);

			values = true;
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
	else if (pending)
		pd_diag_note(d, PD_WARN, "ethtool-a.stray-error", 0,
		    "'" ERROR ": %s' after the last interface's values",
		    pending);
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

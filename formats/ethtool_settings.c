/* "ethtool": plain ethtool IF, link settings.
 *
 * Reference: ethtool.c dump_link_usettings and netlink/settings.c:
 * "Settings for IF:" then tab-indented "Speed: 25000Mb/s" (or
 * "Unknown!" when the link is down), "Duplex: Full", "Link detected:
 * yes", and the link mode lists "Supported link modes:", "Advertised
 * link modes:", "Link partner advertised link modes:", whose names
 * continue on lines of their own without a colon, or "Not reported".
 * A mode name is read by its leading number (the speed in Mb/s) and
 * its "/Full" or "/Half" suffix, so modes newer than this reader are
 * read too. */
#include <stdio.h>
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

enum list { L_NONE = -1, L_SUP, L_ADV, L_PARTNER, L_N };

static const char *const list_keys[L_N] = {
	"Supported link modes", "Advertised link modes",
	"Link partner advertised link modes",
};

/* The list being read: its names joined for the evidence. */
struct lstate {
	enum list cur;
	struct pd_link_modes *l;
	uint32_t line;
	char names[256];
	size_t used;
};

static void
add_mode(struct pd_link_modes *l, int speed, bool full)
{
	l->n_names++;
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].speed_mbps == speed && l->m[i].full == full)
			return;
	if (l->n < PD_LINK_MODES_MAX)
		l->m[l->n++] = (struct pd_link_mode){ speed, full };
}

/* "1000baseT/Full": speed 1000, full; "10000baseR_FEC": full (every
 * mode from 10G up is full duplex); false for what is not a mode. */
static bool
link_mode(const char *tok, size_t n, int *speed, bool *full)
{
	uint64_t v;
	const char *e;
	char buf[64];

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, tok, n);
	buf[n] = '\0';
	if (!pd_parse_u64(buf, 10, &v, &e) || v == 0 || v > 10000000 ||
	    strncmp(e, "base", 4) != 0)
		return false;
	*speed = (int)v;
	const char *slash = strrchr(e, '/');

	*full = !slash || strcmp(slash, "/Half") != 0;
	return true;
}

static void
read_modes(struct lstate *st, const char *val)
{
	for (const char *p = pd_skip_space(val); *p; p = pd_skip_space(p)) {
		size_t n = strcspn(p, " \t");
		int speed;
		bool full;

		if (pd_starts_with(p, "Not reported")) {
			st->l->not_reported = true;
			return;
		}
		if (link_mode(p, n, &speed, &full))
			add_mode(st->l, speed, full);
		if (st->used + n + 1 < sizeof(st->names)) {
			memcpy(st->names + st->used, p, n);
			st->used += n;
			st->names[st->used++] = ' ';
			st->names[st->used] = '\0';
		}
		p += n;
	}
}

static void
end_list(struct lstate *st, struct pd_arena *a, const char *member)
{
	char text[320];

	if (st->cur == L_NONE)
		return;
	snprintf(text, sizeof(text), "%s: %s", list_keys[st->cur],
	    st->l->not_reported ? "Not reported" : st->names);
	pd_evidence_set(&st->l->ev, a, member, st->line, text, strlen(text));
	st->cur = L_NONE;
}

static bool
begin_list(struct lstate *st, struct pd_netdev *nd, const char *key,
    size_t klen, const char *val, uint32_t line)
{
	struct pd_link_modes *ls[L_N] = { &nd->ls.supported,
		&nd->ls.advertised, &nd->ls.partner };

	for (int i = 0; i < L_N; i++)
		if (strlen(list_keys[i]) == klen &&
		    memcmp(key, list_keys[i], klen) == 0) {
			st->cur = (enum list)i;
			st->l = ls[i];
			*st->l = (struct pd_link_modes){ .read = true };
			st->line = line;
			st->used = 0;
			st->names[0] = '\0';
			read_modes(st, val);
			return true;
		}
	return false;
}

static enum pd_tri
yes_no(const char *v)
{
	return pd_starts_with(v, "Yes") || pd_starts_with(v, "on") ? PD_YES :
	    pd_starts_with(v, "No") || pd_starts_with(v, "off") ? PD_NO :
	    PD_UNKNOWN;
}

static bool
key_is(const char *key, size_t klen, const char *s)
{
	return strlen(s) == klen && memcmp(key, s, klen) == 0;
}

/* The autonegotiation and duplex lines; false for other keys. */
static bool
read_flag(struct pd_netdev *nd, struct pd_arena *a, const char *member,
    uint32_t line_no, const char *line, size_t len, const char *key,
    size_t klen, const char *val)
{
	struct pd_link_settings *ls = &nd->ls;

	if (key_is(key, klen, "Supports auto-negotiation"))
		ls->an_supported = yes_no(val);
	else if (key_is(key, klen, "Advertised auto-negotiation"))
		ls->an_advertised = yes_no(val);
	else if (key_is(key, klen, "Link partner advertised auto-negotiation"))
		ls->an_partner = yes_no(val);
	else if (key_is(key, klen, "Auto-negotiation")) {
		ls->autoneg = yes_no(val);
		pd_evidence_set(&ls->ev_autoneg, a, member, line_no, line, len);
	} else if (key_is(key, klen, "Duplex")) {
		nd->duplex = pd_arena_strdup(a, val);
		ls->full_duplex = pd_starts_with(val, "Full") ? PD_YES :
		    pd_starts_with(val, "Half") ? PD_NO : PD_UNKNOWN;
		pd_evidence_set(&ls->ev_duplex, a, member, line_no, line, len);
	} else
		return false;
	return true;
}

static enum pd_status
parse_ethtool_settings(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_netdev *nd = NULL;
	const char *line, *key, *val, *name;
	size_t len, klen;
	struct lstate st = { .cur = L_NONE };

	while (pd_input_getline(in, &line, &len)) {
		if ((name = pd_ifname_from_header(a, line, "Settings for "))) {
			end_list(&st, a, m->path);
			nd = pd_host_netdev(h, a, name);
			continue;
		}
		if (!nd)
			continue;
		if (!pd_split_colon(line, &key, &klen, &val)) {
			if (st.cur != L_NONE)
				read_modes(&st, line);
			continue;
		}
		end_list(&st, a, m->path);
		if (begin_list(&st, nd, key, klen, val, in->line_no) ||
		    read_flag(nd, a, m->path, in->line_no, line, len, key, klen,
		    val))
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
		} else if (klen == 13 && memcmp(key, "Link detected", 13) == 0) {
			nd->link = pd_starts_with(val, "yes") ? PD_YES :
			    pd_starts_with(val, "no") ? PD_NO : PD_UNKNOWN;
		}
	}
	end_list(&st, a, m->path);
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
	.summary = "link speed, duplex, state and link modes of an interface",
	.command = "ethtool IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_PORT_SPEED | PD_HAVE_LINK_MODES,
	.collect = "ethtool IF output",
	.bid = bid_ethtool_settings,
	.parse = parse_ethtool_settings,
};

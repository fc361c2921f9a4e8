/* "ethtool-k": ethtool -k IF, offload features.
 *
 * Reference: ethtool.c dump_features / netlink/features.c: "Features for
 * IF:" then "name: on|off" with " [fixed]", " [requested on]" or
 * " [requested off]"; child features indented (a tab, or spaces in
 * re-indented pastes, or nothing in newer ethtool). */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static int
bid_ethtool_features(const struct pd_member *m)
{
	char line[256];
	int bid, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !pd_starts_with(line, "Features for "))
		return 0;
	bid = 104;
	for (unsigned i = 1; i < 4; i++)
		if (pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)) && (strstr(line, ": on") ||
		    strstr(line, ": off")))
			extra++;
	return bid + 8 * extra;
}

static enum pd_tri
onoff(const char *v)
{
	if (pd_starts_with(v, "on"))
		return PD_YES;
	if (pd_starts_with(v, "off"))
		return PD_NO;
	return PD_UNKNOWN;
}

/* pd_model_sort orders them by name, a later dump of one replacing the
 * earlier, once after the walk (a sorted insertion here would be
 * quadratic in a dump of 100 k features). */
static void
add_feature(struct pd_netdev *nd, struct pd_arena *a, struct pd_feature *f)
{
	(void)a;
	f->next = nd->features;
	nd->features = f;
}

static enum pd_status
parse_ethtool_features(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_netdev *nd = NULL;
	const char *line, *key, *val, *name;
	size_t len, klen;
	unsigned n = 0;

	while (pd_input_getline(in, &line, &len)) {
		if ((name = pd_ifname_from_header(a, line, "Features for "))) {
			nd = pd_host_netdev(h, a, name);
			continue;
		}
		if (!nd || !pd_split_colon(line, &key, &klen, &val) || !klen)
			continue;
		struct pd_feature *f = pd_arena_alloc(a, sizeof(*f));

		f->name = pd_arena_strndup(a, key, klen);
		f->on = onoff(val);
		f->fixed = strstr(val, "[fixed]") != NULL;
		if (strstr(val, "[requested on]"))
			f->requested = PD_YES;
		else if (strstr(val, "[requested off]"))
			f->requested = PD_NO;
		pd_evidence_set(&f->ev, a, m->path, in->line_no, line, len);
		if (f->on == PD_UNKNOWN)
			pd_diag_note(d, PD_WARN, "ethtool-k.bad-value",
			    in->line_no, "neither on nor off: '%s'", line);
		add_feature(nd, a, f);
		n++;
	}
	if (!nd)
		pd_diag_note(d, PD_WARN, "ethtool-k.no-header", 0,
		    "no 'Features for IF:' line");
	else if (n == 0)
		pd_diag_note(d, PD_WARN, "ethtool-k.empty", 0, "no features");
	return PD_OK;
}

static const char *const hints[] = { "ethtool_-k_", "ethtool-k", NULL };

static const char *const name_prefixes[] = {
	"ethtool_-k_", "ethtool-k_", "ethtool-k-", NULL,
};

const struct pd_format pd_format_ethtool_features = {
	.name = "ethtool-k",
	.summary = "offload features: LRO, GRO, TSO, rx-gro-hw, ...",
	.command = "ethtool -k IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_NIC_FEATURES,
	.collect = "ethtool -k IF output",
	.bid = bid_ethtool_features,
	.parse = parse_ethtool_features,
};

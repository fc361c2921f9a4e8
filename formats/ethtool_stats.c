/* "ethtool-S": ethtool -S IF, the driver's counters.
 *
 * Reference: ethtool.c (ioctl: "NIC statistics:" then "     name: value",
 * names up to ETH_GSTRING_LEN = 32 bytes, free-form, so a line splits at
 * its last ": "), netlink/stats.c ("Standard stats for IF:" then
 * "group-Name: value").  Variants: mlx5, i40e/ice/ixgbe/igb/igc, bnxt_en
 * per-ring "[N]: name: value", r8169, virtio_net (names cut at 31
 * bytes, so duplicates happen), "PHY statistics:", 4-space indentation
 * from re-indented pastes, grep-filtered fragments with no header.
 * The interface comes from "Standard stats for IF:" or the path
 * (ethtool-S/IF.txt, ethtool_-S_IF); the time of the snapshot from a
 * "# date: UNIX-SECONDS" line or the path (ethtool-S/IF@UNIX-SECONDS.txt).
 */
#include <stdlib.h>
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define MAX_COUNTERS 65536	/* mlx5 with 256 queues prints ~30000 */

extern const struct pd_format pd_format_ethtool_stats;

static bool
counter_line(const char *line, const char **name, size_t *nlen,
    uint64_t *v)
{
	const char *val, *end;

	if (!pd_split_last_colon(line, name, nlen, &val) || *nlen == 0)
		return false;
	if (!pd_parse_u64(val, 10, v, &end) || *pd_skip_space(end) != '\0')
		return false;
	return true;
}

static bool
is_header(const char *s)
{
	return pd_starts_with(s, "NIC statistics:") ||
	    pd_starts_with(s, "PHY statistics:") ||
	    pd_starts_with(s, "Standard stats for ");
}

static int
bid_ethtool_stats(const struct pd_member *m)
{
	char line[256];
	const char *name;
	size_t nlen;
	uint64_t v;
	int bid = 0, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	if (is_header(line))
		bid = 112;
	else if (line[0] == ' ' || line[0] == '\t')
		bid = 24;	/* a header-less fragment, if the lines agree */
	else
		return 0;
	for (unsigned i = bid > 24 ? 1 : 0; i < 8 && extra < 3 &&
	    pd_text_content_line(m->head, m->head_len, i, line, sizeof(line));
	    i++) {
		if (!counter_line(line, &name, &nlen, &v))
			return bid > 24 ? bid : 0;
		extra++;
	}
	if (bid == 24 && extra < 3)
		return 0;
	return bid + 8 * extra;
}

static int
cmp_counter(const void *a, const void *b)
{
	const struct pd_counter *x = *(struct pd_counter *const *)a;
	const struct pd_counter *y = *(struct pd_counter *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->line < y->line ? -1 : 1);
}

/* Sorts by name; of duplicates (names cut at 31 bytes) the first stays. */
static unsigned
sort_counters(struct pd_counter **v, unsigned n, struct pd_snapshot *s)
{
	unsigned k = 0;

	qsort(v, n, sizeof(*v), cmp_counter);
	for (unsigned i = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1]->name, v[i]->name) != 0)
			v[k++] = v[i];
	for (unsigned i = 0; i + 1 < k; i++)
		v[i]->next = v[i + 1];
	if (k)
		v[k - 1]->next = NULL;
	s->counters = k ? v[0] : NULL;
	s->n_counters = k;
	return n - k;
}

static enum pd_status
parse_ethtool_stats(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *ifname = NULL, *line, *name, *v;
	struct pd_counter **vec = NULL;
	unsigned n = 0, cap = 0, bad = 0;
	int64_t t = -1;
	size_t len, nlen;
	uint64_t val;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);
		const char *hn;

		if (*s == '\0')
			continue;
		if (*s == '#') {
			v = pd_skip_space(s + 1);
			if ((pd_starts_with(v, "date:") ||
			    pd_starts_with(v, "time:")) &&
			    !pd_parse_unix_time(pd_skip_space(v + 5), &t, NULL))
				pd_diag_note(d, PD_WARN, "ethtool-S.bad-time",
				    in->line_no, "unreadable time in '%s'", s);
			continue;
		}
		if ((hn = pd_ifname_from_header(a, s, "Standard stats for "))) {
			ifname = hn;
			continue;
		}
		if (is_header(s))
			continue;
		if (!counter_line(s, &name, &nlen, &val)) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "ethtool-S.bad-line",
				    in->line_no, "not a counter: '%.80s'", s);
			continue;
		}
		if (n >= MAX_COUNTERS) {
			pd_diag_note(d, PD_WARN, "ethtool-S.too-many",
			    in->line_no, "more than %d counters; the rest "
			    "were ignored", MAX_COUNTERS);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			vec = pd_xrealloc(vec, cap * sizeof(*vec));
		}
		struct pd_counter *c = pd_arena_alloc(a, sizeof(*c));

		c->name = pd_arena_strndup(a, name, nlen);
		c->value = val;
		c->line = in->line_no;
		c->text = pd_arena_strdup(a, s);
		vec[n++] = c;
	}
	bool guessed = false;

	if (!ifname) {
		ifname = pd_ifname_from_path(a, m->hint_path,
		    &pd_format_ethtool_stats);
		guessed = !pd_ifname_path_trusted(m->hint_path,
		    &pd_format_ethtool_stats);
	}
	if (!ifname || !pd_ifname_valid(ifname)) {
		/* kept as "?" for a lone dump; where outputs name the host's
		 * interfaces, finalize lists it as not used instead */
		pd_diag_note(d, PD_WARN, "ethtool-S.no-ifname", 0,
		    "the output names no interface and neither does its path "
		    "('%s'): name it ethtool-S/IF@UNIX-SECONDS.txt", ifname ?
		    ifname : m->path);
		ifname = "?";
		guessed = true;
	}
	if (t < 0 && !pd_time_from_path(m->hint_path, &t))
		t = -1;
	struct pd_netdev *nd = guessed ? pd_host_netdev_guessed(h, a, ifname) :
	    pd_host_netdev(h, a, ifname);
	struct pd_snapshot *snap = pd_netdev_snapshot(nd, a, m->path, t);
	unsigned dups = n ? sort_counters(vec, n, snap) : 0;

	if (dups)
		pd_diag_note(d, PD_WARN, "ethtool-S.duplicate-names", 0,
		    "%u counter names repeat (names cut at 31 bytes?); the "
		    "first of each was kept", dups);
	if (n == 0)
		pd_diag_note(d, PD_WARN, "ethtool-S.empty", 0, "no counters");
	free(vec);
	return PD_OK;
}

static const char *const hints[] = { "ethtool_-S_", "ethtool-S", NULL };

static const char *const name_prefixes[] = {
	"ethtool_-S_", "ethtool-S_", "ethtool-S-", NULL,
};

const struct pd_format pd_format_ethtool_stats = {
	.name = "ethtool-S",
	.summary = "NIC counters: bytes per function and per port, drops, "
	    "pause frames; two snapshots give rates",
	.command = "ethtool -S IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_NIC_STATS,
	.collect = "ethtool -S IF, twice some seconds apart "
	    "(ethtool-S/IF@UNIX-SECONDS.txt)",
	.bid = bid_ethtool_stats,
	.parse = parse_ethtool_stats,
};

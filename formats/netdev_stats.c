/* "netdev-stats": an interface's kernel counters, the files of
 * /sys/class/net/IF/statistics as "name: value" lines, which
 * pathdoctor-collect writes twice some seconds apart as
 * netdev-stats/IF@UNIX-SECONDS.txt (a "# date:" line also gives the
 * time).  Every interface has them, virtual ones too, whose ethtool -S
 * counts nothing useful; the first and last snapshot give rates. */
#include <stddef.h>
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

extern const struct pd_format pd_format_netdev_stats;

static const struct {
	const char *name;
	size_t off;
} fields[] = {
	{ "rx_bytes", offsetof(struct pd_kstat, rx_bytes) },
	{ "tx_bytes", offsetof(struct pd_kstat, tx_bytes) },
	{ "rx_packets", offsetof(struct pd_kstat, rx_packets) },
	{ "tx_packets", offsetof(struct pd_kstat, tx_packets) },
	{ "rx_dropped", offsetof(struct pd_kstat, rx_dropped) },
};

static int
bid_netdev_stats(const struct pd_member *m)
{
	char line[256];

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	if (pd_starts_with(line, "# /sys/class/net/") &&
	    strstr(line, "/statistics"))
		return 128;
	return 0;
}

static void
keep(struct pd_netdev *nd, const struct pd_kstat *k)
{
	if (nd->n_kstat == 0) {
		nd->kstat[0] = nd->kstat[1] = *k;
		nd->n_kstat = 1;
		return;
	}
	nd->n_kstat = 2;
	if (k->time >= 0 && (nd->kstat[0].time < 0 ||
	    k->time < nd->kstat[0].time))
		nd->kstat[0] = *k;
	if (k->time >= nd->kstat[1].time)
		nd->kstat[1] = *k;
}

static enum pd_status
parse_netdev_stats(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_kstat k = { .time = -1, .member = m->path };
	const char *line, *ifname = NULL, *key, *val;
	size_t len, klen;
	int64_t ms;
	unsigned seen = 0;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);

		if (pd_starts_with(s, "# /sys/class/net/")) {
			s += strlen("# /sys/class/net/");
			ifname = pd_arena_strndup(a, s, strcspn(s, "/"));
			continue;
		}
		if (pd_starts_with(s, "# date:")) {
			if (pd_parse_unix_time(pd_skip_space(s + 7), &ms, NULL))
				k.time = ms / 1000;
			continue;
		}
		if (*s == '#' || !*s || !pd_split_colon(s, &key, &klen, &val))
			continue;
		for (size_t i = 0; i < PD_ARRAY_SIZE(fields); i++) {
			uint64_t v;

			if (strlen(fields[i].name) == klen &&
			    memcmp(key, fields[i].name, klen) == 0 &&
			    pd_parse_u64(val, 10, &v, NULL)) {
				*(uint64_t *)((char *)&k + fields[i].off) = v;
				seen++;
			}
		}
	}
	bool guessed = false;

	if (!ifname) {
		ifname = pd_ifname_from_path(a, m->hint_path,
		    &pd_format_netdev_stats);
		guessed = !pd_ifname_path_trusted(m->hint_path,
		    &pd_format_netdev_stats);
	}
	if (k.time < 0 && pd_time_from_path(m->hint_path, &ms))
		k.time = ms / 1000;
	if (!seen) {
		pd_diag_note(d, PD_WARN, "netdev-stats.empty", 0,
		    "no rx_bytes/tx_bytes counters");
		return PD_WARN;
	}
	if (!ifname || !pd_ifname_valid(ifname)) {
		pd_diag_note(d, PD_WARN, "netdev-stats.no-ifname", 0,
		    "the output names no interface and neither does its path: "
		    "name it netdev-stats/IF@UNIX-SECONDS.txt");
		ifname = "?";
		guessed = true;
	}
	keep(guessed ? pd_host_netdev_guessed(h, a, ifname) :
	    pd_host_netdev(h, a, ifname), &k);
	return PD_OK;
}

static const char *const hints[] = { "netdev-stats", NULL };

const struct pd_format pd_format_netdev_stats = {
	.name = "netdev-stats",
	.summary = "an interface's kernel counters (/sys/class/net/IF/"
	    "statistics), any interface, virtual ones too; two give rates",
	.command = "pathdoctor-collect",
	.hints = hints,
	.bid = bid_netdev_stats,
	.parse = parse_netdev_stats,
};

/* "ip-link": ip -d link show (also with -s), every interface.
 *
 * Reference: iproute2 ip/ipaddress.c print_linkinfo: a header
 * "N: NAME[@PARENT]: <FLAGS> mtu M qdisc Q [master B] state S ..." then
 * indented lines: "link/ether ...", the link kind and its details (veth,
 * "tun type tap", bridge, bridge_slave, vlan, bond, bond_slave, macvlan,
 * vxlan, openvswitch, ...), and "key value" pairs such as numtxqueues,
 * gso_max_size, gso_max_segs, gso_ipv4_max_size, gro_max_size,
 * tso_max_size, parentbus/parentdev; with -s, "RX:"/"TX:" tables;
 * "altname" lines.  Lines a mail client wrapped are tolerated. */
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"
#include "ip_link.h"

static const char *const kinds[] = { "veth", "tun", "bridge", "vlan",
	"bond", "macvlan", "macvtap", "ipvlan", "vxlan", "geneve",
	"openvswitch", "team", "dummy", "wireguard", "gre", "gretap", "ipip",
	"vrf", "ifb", "netkit", NULL };

/* "2: eth0@eth1: <...>" -> name "eth0", parent "eth1"; false if not a
 * header line. */
static bool
header(const char *s, char *name, size_t cap, char *parent, int *index)
{
	uint64_t idx;
	const char *e;

	if (!pd_parse_u64(s, 10, &idx, &e) || e[0] != ':' || e[1] != ' ')
		return false;
	const char *n = e + 2, *end = strstr(n, ": <");

	if (!end || end == n)
		return false;
	const char *at = memchr(n, '@', (size_t)(end - n));
	size_t nl = (size_t)((at ? at : end) - n);

	if (nl >= cap)
		return false;
	memcpy(name, n, nl);
	name[nl] = '\0';
	parent[0] = '\0';
	if (at && (size_t)(end - at - 1) < cap) {
		memcpy(parent, at + 1, (size_t)(end - at - 1));
		parent[end - at - 1] = '\0';
	}
	*index = idx < 1u << 30 ? (int)idx : -1;
	return true;
}

static const char *
word_after(struct pd_arena *a, const char *s, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = s; (p = strstr(p, key)); p += k) {
		if ((p == s || p[-1] == ' ') && p[k] == ' ') {
			const char *v = p + k + 1;
			size_t n = strcspn(v, " ");

			return n ? pd_arena_strndup(a, v, n) : NULL;
		}
	}
	return NULL;
}

static void
header_fields(struct pd_netdev *nd, struct pd_arena *a, const char *s)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *v;

	if (lt && gt)
		nd->flags = pd_arena_strndup(a, lt + 1, (size_t)(gt - lt - 1));
	if ((v = word_after(a, s, "mtu")))
		nd->mtu = atoi(v);
	nd->master = word_after(a, s, "master");
	nd->state = word_after(a, s, "state");
}

static void
detail_fields(struct pd_netdev *nd, struct pd_arena *a, const char *s,
    const struct pd_evidence *ev)
{
	static const struct { const char *key; size_t off; } nums[] = {
		{ "gso_max_size", offsetof(struct pd_netdev, gso_max_size) },
		{ "gso_max_segs", offsetof(struct pd_netdev, gso_max_segs) },
		{ "gso_ipv4_max_size",
		    offsetof(struct pd_netdev, gso_ipv4_max_size) },
		{ "gro_max_size", offsetof(struct pd_netdev, gro_max_size) },
		{ "tso_max_size", offsetof(struct pd_netdev, tso_max_size) },
		{ "tso_max_segs", offsetof(struct pd_netdev, tso_max_segs) },
	};
	const char *v;

	for (size_t i = 0; i < PD_ARRAY_SIZE(nums); i++)
		if ((v = word_after(a, s, nums[i].key))) {
			*(long *)((char *)nd + nums[i].off) = atol(v);
			/* the evidence starts at the limits, not at the
			 * bridge or tun details before them */
			const char *g = strstr(s, "gso_max_size");

			nd->ev_gso = *ev;
			if (g)
				pd_evidence_set(&nd->ev_gso, a, ev->member,
				    ev->line, g, strlen(g));
		}
	if ((v = word_after(a, s, "numtxqueues")))
		nd->n_txq = atoi(v);
	if ((v = word_after(a, s, "numrxqueues")))
		nd->n_rxq = atoi(v);
	if ((v = word_after(a, s, "parentdev"))) {
		unsigned dom, bus, dev, fn;
		char bdf[16];

		if (!nd->bus_info && pd_bdf_parse(v, &dom, &bus, &dev, &fn)) {
			pd_bdf_format(bdf, dom, bus, dev, fn);
			nd->bus_info = pd_arena_strdup(a, bdf);
		}
	}
	if (nd->kind)
		return;
	/* the first kind keyword names the link kind */
	const char *best = NULL;
	size_t best_len = 0;

	for (const char *const *k = kinds; *k; k++) {
		size_t n = strlen(*k);

		for (const char *p = strstr(s, *k); p; p = strstr(p + 1, *k))
			if ((p == s || p[-1] == ' ') &&
			    (p[n] == ' ' || p[n] == '\0') && (!best || p < best)) {
				best = p;
				best_len = n;
			}
	}
	if (best) {
		nd->kind = pd_arena_strndup(a, best, best_len);
		if (strcmp(nd->kind, "tun") == 0)
			nd->tun_type = word_after(a, best, "type");
	}
}

enum pd_status
pd_ip_link_parse(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d, pd_ip_addr_hook addr, void *ctx)
{
	struct pd_arena *a = d->arena;
	struct pd_netdev *nd = NULL;
	const char *line;
	size_t len;
	bool stats_next = false;
	char name[64], parent[64];
	int index;
	unsigned n = 0;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);
		struct pd_evidence ev;

		if (*s == '\0')
			continue;
		if (s == line && header(s, name, sizeof(name), parent, &index)) {
			nd = pd_host_netdev(h, a, name);
			nd->ifindex = index;
			if (parent[0])
				nd->link_parent = pd_arena_strdup(a, parent);
			header_fields(nd, a, s);
			pd_evidence_set(&nd->ev_iplink, a, m->path, in->line_no,
			    line, len);
			stats_next = false;
			n++;
			continue;
		}
		if (!nd)
			continue;
		if (stats_next) {	/* the numbers under "RX: bytes ..." */
			stats_next = false;
			continue;
		}
		if (pd_starts_with(s, "RX:") || pd_starts_with(s, "TX:")) {
			stats_next = true;
			continue;
		}
		if (pd_starts_with(s, "altname ") || pd_starts_with(s, "alias "))
			continue;
		if (addr && (pd_starts_with(s, "inet ") ||
		    pd_starts_with(s, "inet6 "))) {
			addr(ctx, m, h, d, nd->name, s, in->line_no, line,
			    len);
			continue;
		}
		pd_evidence_set(&ev, a, m->path, in->line_no, line, len);
		detail_fields(nd, a, s, &ev);
	}
	if (n == 0)
		pd_diag_note(d, PD_WARN, "ip-link.empty", 0, "no interfaces");
	return PD_OK;
}

static enum pd_status
parse_ip_link(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	return pd_ip_link_parse(m, in, h, d, NULL, NULL);
}

static int
bid_ip_link(const struct pd_member *m)
{
	char line[512], name[64], parent[64];
	int index, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !header(line, name, sizeof(name), parent, &index) ||
	    !strstr(line, " mtu "))
		return 0;
	bool qdisc = strstr(line, " qdisc ") != NULL;

	for (unsigned i = 1; i < 8 && extra < 3; i++)
		if (pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)) && strstr(line, "link/"))
			extra++;
	/* bridge link's header has the same shape, but neither a qdisc
	 * nor a link/ line: formats/bridge_link.c */
	if (!qdisc && extra == 0)
		return 0;
	return 96 + 8 * extra;
}

static const char *const hints[] = { "ip_-d_link", "ip_-s_-d_link",
	"ip-link", "ip_link", NULL };

const struct pd_format pd_format_ip_link = {
	.name = "ip-link",
	.summary = "interfaces: mtu, kind (bridge, veth, tun/tap, vlan, bond), "
	    "master, GSO/GRO/TSO limits, queues",
	.command = "ip -d link show",
	.hints = hints,
	.gives = PD_HAVE_IPLINK | PD_HAVE_NETDEV_PCI,
	.collect = "ip -d link show",
	.bid = bid_ip_link,
	.parse = parse_ip_link,
};

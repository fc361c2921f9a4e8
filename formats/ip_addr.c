/* "ip-addr": ip addr (iproute2; `ip -d addr`, `ip addr show`, and the
 * one-line `ip -o addr` too), each interface's IPv4 and IPv6 addresses
 * with their prefix length:
 *
 *   2: nic2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP ...
 *       link/ether 58:a2:e1:00:00:02 brd ff:ff:ff:ff:ff:ff
 *       inet 10.10.1.2/24 brd 10.10.1.255 scope global nic2
 *          valid_lft forever preferred_lft forever
 *       inet6 fe80::5aa2:e1ff:fe00:2/64 scope link
 *   6: tun0: ...
 *       inet 172.30.0.1 peer 172.30.0.2/32 scope global tun0
 *   2: eth0    inet 10.0.0.5/24 brd 10.0.0.255 scope global eth0\  ...
 *
 * The blocks are ip link's with address lines among them, so this
 * reader bids only when the head holds an inet or inet6 line, and then
 * above ip-link, and runs ip-link's parser (formats/ip_link.h) for the
 * interfaces' own facts, taking the address lines itself; the one-line
 * layout has no link facts and is read here alone.  A point-to-point
 * address takes its peer's prefix; one without a prefix is a host
 * address (/32, /128).  "NAME@PARENT" keeps NAME. */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"
#include "ip_link.h"

/* "N: NAME[@PARENT]: <" or, one-line, "N: NAME    inet..."; the name
 * into out; the rest of the line after it, NULL when not a header. */
static const char *
header(const char *s, char *out, size_t cap)
{
	const char *p = s, *n;
	size_t len;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s || p[0] != ':' || p[1] != ' ')
		return NULL;
	n = p + 2;
	for (p = n; *p && *p != ' ' && *p != '\t' && *p != ':' && *p != '@';
	    p++)
		;
	len = (size_t)(p - n);
	if (len == 0 || len >= cap)
		return NULL;
	memcpy(out, n, len);
	out[len] = '\0';
	if (*p == '@')
		while (*p && *p != ':' && *p != ' ')
			p++;
	if (*p == ':')
		p++;
	return pd_skip_space(p);
}

static bool
inet_line(const char *t)
{
	return pd_starts_with(t, "inet ") || pd_starts_with(t, "inet6 ");
}

static int
bid_ip_addr(const struct pd_member *m)
{
	char line[512], name[64];
	const char *rest;

	unsigned first = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	/* netlink's "Message truncated" (stderr) may come first */
	for (;; first++) {
		if (first == 4 || !pd_text_content_line(m->head, m->head_len,
		    first, line, sizeof(line)))
			return 0;
		if ((rest = header(line, name, sizeof(name))))
			break;
		if (strcmp(line, "Message truncated") != 0)
			return 0;
	}
	if (*rest != '<' && !inet_line(rest))
		return 0;
	if (inet_line(rest))
		return 128;
	for (unsigned i = first + 1; i < first + 12; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		if (inet_line(pd_skip_space(line)))
			return 128 + 8;	/* above ip-link's at most 120 */
	}
	return 0;
}

/* "ADDR[/PREFIX]" at s, up to a blank; false when not an address. */
static bool
addr_prefix(const char *s, uint8_t out[16], unsigned *fam, unsigned *pre,
    bool *has_prefix, size_t *used)
{
	size_t n = 0;

	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	*used = n;
	const char *sl = memchr(s, '/', n);
	size_t an = sl ? (size_t)(sl - s) : n;

	if (!(*fam = pd_ip_parse(s, an, out)))
		return false;
	*has_prefix = sl != NULL;
	*pre = *fam == 4 ? 32 : 128;
	if (sl) {
		uint64_t v;
		const char *e;

		if (!pd_parse_u64(sl + 1, 10, &v, &e) || e != s + n ||
		    v > *pre)
			return false;
		*pre = (unsigned)v;
	}
	return true;
}

static bool
add_addr(struct pd_host *h, struct pd_arena *a, const char *ifname,
    const char *t, const struct pd_member *m, uint32_t line_no,
    const char *line, size_t len)
{
	unsigned fam, pre, pfam, ppre;
	uint8_t ad[16], peer[16];
	bool hp, php;
	size_t used, pused;

	t = pd_skip_space(t + (t[4] == '6' ? 6 : 5));
	if (!addr_prefix(t, ad, &fam, &pre, &hp, &used))
		return false;
	const char *after = pd_skip_space(t + used);

	if (pd_starts_with(after, "peer ") &&
	    addr_prefix(pd_skip_space(after + 5), peer, &pfam, &ppre, &php,
	    &pused) && pfam == fam)
		pre = ppre;
	struct pd_ipaddr *x = pd_host_ipaddr(h, a);

	if (!x)
		return false;
	x->ifname = pd_arena_strdup(a, ifname);
	x->family = (uint8_t)fam;
	memcpy(x->addr, ad, 16);
	x->prefix = pre;
	x->text = pd_arena_printf(a, "%.*s/%u", (int)(hp ? (size_t)(
	    (const char *)memchr(t, '/', used) - t) : used), t, pre);
	pd_evidence_set(&x->ev, a, m->path, line_no, line, len);
	return true;
}

/* Notes once per member at the bound, up to three bad lines. */
struct addr_state {
	unsigned n, bad;
	bool full;
};

static void
one_line(void *ctx, const struct pd_member *m, struct pd_host *h,
    struct pd_diag *d, const char *ifname, const char *t, uint32_t line_no,
    const char *line, size_t len)
{
	struct addr_state *cur = ctx;

	if (cur->full)
		return;
	if (add_addr(h, d->arena, ifname, t, m, line_no, line, len))
		cur->n++;
	else if (h->n_ipaddrs >= PD_IPADDR_MAX) {
		cur->full = true;
		pd_diag_note(d, PD_WARN, "ip-addr.many", line_no, "more than "
		    "%u addresses: the rest ignored", PD_IPADDR_MAX);
	} else if (cur->bad++ < 3)
		pd_diag_note(d, PD_WARN, "ip-addr.bad-line", line_no,
		    "not an address: '%.80s'", t);
}

/* The one-line layout (ip -o addr): "N: NAME    inet ..." a line. */
static void
parse_oneline(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d, struct addr_state *st)
{
	const char *line;
	size_t len;

	while (pd_input_getline(in, &line, &len)) {
		char name[64];
		const char *rest = header(line, name, sizeof(name));

		if (rest && inet_line(rest))
			one_line(st, m, h, d, name, rest, in->line_no, line,
			    len);
	}
}

static bool
oneline_layout(const struct pd_member *m)
{
	char line[512], name[64];
	const char *rest;

	for (unsigned i = 0; i < 4; i++)
		if (pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)) && (rest = header(line, name, sizeof(name))))
			return inet_line(rest);
	return false;
}

static enum pd_status
parse_ip_addr(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct addr_state st = { 0 };
	enum pd_status rc = PD_OK;

	if (oneline_layout(m))
		parse_oneline(m, in, h, d, &st);
	else
		rc = pd_ip_link_parse(m, in, h, d, one_line, &st);
	if (!st.n) {
		pd_diag_note(d, PD_WARN, "ip-addr.empty", 0, "no address");
		return PD_WARN;
	}
	return rc;
}

static const char *const hints[] = { "ip_-d_address", "ip_address",
	"ip_addr", "ip-addr", "ip_-o_addr", NULL };

const struct pd_format pd_format_ip_addr = {
	.name = "ip-addr",
	.summary = "each interface's IPv4 and IPv6 addresses with their "
	    "prefix length (ip addr)",
	.command = "ip -d addr show",
	.hints = hints,
	.gives = PD_HAVE_IPADDR,
	.collect = "ip -d addr show",
	.bid = bid_ip_addr,
	.parse = parse_ip_addr,
};

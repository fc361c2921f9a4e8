/* "ip-addr-json": ip -j addr (iproute2, -p pretty-printed or not), each
 * interface's addresses:
 *
 *   [{"ifindex":2,"ifname":"nic2","flags":[...],"mtu":9000,...,
 *     "addr_info":[{"family":"inet","local":"10.10.1.2","prefixlen":24,
 *                   "broadcast":"10.10.1.255","scope":"global",...}]}]
 *
 * A point-to-point address has an "address" (the peer) beside "local";
 * the prefix is the one printed.  The member is parsed whole with
 * jansson, up to IP_JSON_MAX; only the addresses are kept (the link
 * facts come from ip -d link). */
#define _GNU_SOURCE	/* memmem */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"

/* 1024 addresses of ~250 bytes and their interfaces' other keys */
#define IP_JSON_MAX (4u << 20)

static size_t
first_byte(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	return i;
}

static int
bid_ip_addr_json(const struct pd_member *m)
{
	size_t i = first_byte(m->head, m->head_len);

	if (i >= m->head_len || m->head[i] != '[' ||
	    memchr(m->head, '\0', m->head_len) ||
	    !memmem(m->head, m->head_len, "\"ifname\"", 8) ||
	    !memmem(m->head, m->head_len, "\"addr_info\"", 11))
		return 0;
	return 8 * (8 + 11) + 8;	/* both keys and the bracket */
}

/* The member and an evidence cursor: iproute2 prints the addresses in
 * order, so each one's line is found after the last (one pass). */
struct doc {
	const char *buf;
	size_t len, pos;
	uint32_t line;
};

static void
evidence(struct doc *dc, struct pd_evidence *ev, struct pd_arena *a,
    const struct pd_member *m, const char *addr)
{
	char key[80];
	const char *hit, *ls, *le, *end = dc->buf + dc->len;

	snprintf(key, sizeof(key), "\"%s\"", addr);
	if (!(hit = memmem(dc->buf + dc->pos, dc->len - dc->pos, key,
	    strlen(key))))
		return;
	for (const char *q = dc->buf + dc->pos; q < hit; q++)
		dc->line += *q == '\n';
	dc->pos = (size_t)(hit - dc->buf) + strlen(key);
	for (ls = hit; ls > dc->buf && ls[-1] != '\n' && hit - ls < 200; ls--)
		;
	while (ls < hit && (*ls == ' ' || *ls == '\t'))
		ls++;
	le = memchr(hit, '\n', (size_t)(end - hit));
	if (!le || le - ls > 240)	/* one-line output: the pair only */
		le = hit + strlen(key);
	pd_evidence_set(ev, a, m->path, dc->line, ls, (size_t)(le - ls));
}

static bool
add(struct pd_host *h, struct pd_arena *a, const struct pd_member *m,
    const char *ifname, json_t *ai, struct doc *dc)
{
	json_t *fam = json_object_get(ai, "family"), *loc =
	    json_object_get(ai, "local"), *pre = json_object_get(ai,
	    "prefixlen");
	uint8_t ad[16];
	unsigned f;

	if (!json_is_string(fam) || !json_is_string(loc) ||
	    !json_is_integer(pre))
		return false;
	const char *s = json_string_value(loc);

	if (!(f = pd_ip_parse(s, strlen(s), ad)) || json_integer_value(pre) <
	    0 || json_integer_value(pre) > (f == 4 ? 32 : 128))
		return false;
	struct pd_ipaddr *x = pd_host_ipaddr(h, a);

	if (!x)
		return false;
	x->ifname = pd_arena_strdup(a, ifname);
	x->family = (uint8_t)f;
	memcpy(x->addr, ad, 16);
	x->prefix = (unsigned)json_integer_value(pre);
	x->text = pd_arena_printf(a, "%s/%u", s, x->prefix);
	evidence(dc, &x->ev, a, m, s);
	return true;
}

static enum pd_status
parse_ip_addr_json(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	unsigned char *buf;
	size_t len, i;
	json_error_t err;
	json_t *root, *ifc;
	unsigned n = 0;

	if (pd_input_slurp(in, IP_JSON_MAX, &buf, &len) != 0) {
		pd_diag_note(d, PD_FAILED, "ip-addr-json.too-large", 0, "not "
		    "read: %s (read whole, up to %u MiB)", in->errmsg,
		    IP_JSON_MAX >> 20);
		return PD_FAILED;
	}
	struct doc dc = { (const char *)buf, len, 0, 1 };

	root = json_loadb((const char *)buf, len, JSON_DISABLE_EOF_CHECK, &err);
	if (!json_is_array(root)) {
		free(buf);
		pd_diag_note(d, PD_FAILED, "ip-addr-json.bad", (uint32_t)err.line,
		    "not an ip -j addr list: %s", root ? "not an array" :
		    err.text);
		json_decref(root);
		return PD_FAILED;
	}
	json_array_foreach(root, i, ifc) {
		json_t *name = json_object_get(ifc, "ifname");
		json_t *infos = json_object_get(ifc, "addr_info"), *ai;
		size_t k;

		if (!json_is_string(name) || !json_is_array(infos))
			continue;
		json_array_foreach(infos, k, ai)
			n += add(h, d->arena, m, json_string_value(name), ai,
			    &dc);
		if (h->n_ipaddrs >= PD_IPADDR_MAX)
			break;
	}
	json_decref(root);
	free(buf);
	if (!n) {
		pd_diag_note(d, PD_WARN, "ip-addr-json.empty", 0, "no address");
		return PD_WARN;
	}
	return PD_OK;
}

static const char *const hints[] = { "ip-addr", "ip_-j", NULL };

const struct pd_format pd_format_ip_addr_json = {
	.name = "ip-addr-json",
	.summary = "each interface's IPv4 and IPv6 addresses with their "
	    "prefix length (ip -j addr)",
	.command = "ip -j addr show",
	.hints = hints,
	.gives = PD_HAVE_IPADDR,
	.collect = "ip -d addr show",
	.bid = bid_ip_addr_json,
	.parse = parse_ip_addr_json,
};

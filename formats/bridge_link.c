/* "bridge-link": bridge [-s] [-d] link show, the ports of Linux bridges.
 *
 * Reference: iproute2 bridge/link.c print_linkinfo: "N: IF[@PARENT]:
 * <FLAGS> mtu M master B [state S priority P cost C]" and, with -d, an
 * indented line of port flags ("hairpin off guard off root_block off
 * ...").  Its header looks like ip link's, but it has no "qdisc" and no
 * "link/" line, and it lists only bridge ports and masters: read as ip
 * -d link, a sosreport's bridge_-s_-s_-d_link_show counted each port
 * again.  Read here so that the file is named for what it is; it adds
 * no interfaces (ip -d link is the list of them) and nothing the
 * checks use. */
#include <string.h>
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const char *const port_states[] = { "disabled", "listening",
	"learning", "forwarding", "blocking", NULL };

/* "17: veth1883dceb@if16: <BROADCAST,...> mtu 1500 master br-ens3" */
static bool
header(const char *s)
{
	uint64_t idx;
	const char *e;

	if (!pd_parse_u64(s, 10, &idx, &e) || e[0] != ':' || e[1] != ' ')
		return false;
	const char *flags = strstr(e + 2, ": <");

	return flags && flags > e + 2 && strstr(flags, "> mtu ") &&
	    !strstr(flags, " qdisc ");
}

/* A port's "state S priority P cost C", or a master's bare header. */
static bool
port_state(const char *s)
{
	const char *st = strstr(s, " state ");

	if (!st)
		return false;
	for (const char *const *k = port_states; *k; k++)
		if (pd_starts_with(st + 7, *k))
			return strstr(st, " priority ") && strstr(st, " cost ");
	return false;
}

/* The first header must be a port's (state, priority, cost) or be
 * followed by the -d flags line. */
static int
bid_bridge_link(const struct pd_member *m)
{
	char line[512];
	int extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !header(line) || !strstr(line, " master "))
		return 0;
	bool port = port_state(line);

	for (unsigned i = 1; i < 6 && extra < 3; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		const char *s = pd_skip_space(line);

		if ((s != line && pd_starts_with(s, "hairpin ")) ||
		    (s == line && header(line)))
			extra++;
	}
	return port || extra ? 96 + 8 * extra : 0;
}

static enum pd_status
parse_bridge_link(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	const char *line;
	size_t len;
	unsigned n = 0;

	(void)m;
	(void)h;
	while (pd_input_getline(in, &line, &len))
		if (header(line))
			n++;
	if (n == 0)
		pd_diag_note(d, PD_WARN, "bridge-link.empty", 0,
		    "no bridge ports");
	return PD_OK;
}

static const char *const hints[] = { "bridge_-s_-s_-d_link_show",
	"bridge_-d_link", "bridge_link", "bridge-link", NULL };

const struct pd_format pd_format_bridge_link = {
	.name = "bridge-link",
	.summary = "bridge ports (bridge -d link show): recognised so that "
	    "they are not counted as interfaces; nothing read from them",
	.command = "bridge -s -d link show",
	.hints = hints,
	.gives = 0,
	.collect = NULL,
	.bid = bid_bridge_link,
	.parse = parse_bridge_link,
};

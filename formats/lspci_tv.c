/* "lspci-tv": the PCI tree from lspci -t or -tv, for the chain from each
 * device up to its root port.
 *
 * Reference: pciutils ls-tree.c.  A root bus opens with "-[DDDD:BB]-"
 * (after "-+-", " +-" or " \-" when there are several); a bridge is
 * "DD.F-[SS-EE]--" or "DD.F-[SS]--" and its children follow on the same
 * line and below it; branch glyphs are "+-", "\-" and "--".  A child's
 * "DD.F" starts four columns after the ']' of a root bus and five after
 * the ']' of a bridge, so every device's bus is known from the column it
 * starts in.  With -v a name follows the device after two spaces.
 */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define MAX_COLS 1024

struct column {
	bool open;
	unsigned domain, bus;
	char parent[16];
};

static int
hex2(const char *s)
{
	uint64_t v;
	const char *e;

	if (!pd_parse_u64(s, 16, &v, &e) || e - s != 2)
		return -1;
	return (int)v;
}

static bool
is_dev(const char *s, size_t i, size_t len)
{
	return i > 0 && i + 4 <= len && s[i - 1] == '-' &&
	    strchr("0123456789abcdef", s[i]) && strchr("0123456789abcdef",
	    s[i + 1]) && s[i + 2] == '.' && s[i + 3] >= '0' && s[i + 3] <= '7';
}

static void
tree_line(struct pd_host *h, struct pd_diag *d, const struct pd_member *m,
    struct column *cols, const char *s, size_t len, uint32_t lineno)
{
	struct pd_arena *a = d->arena;
	struct pd_pci_edge *last = NULL;
	unsigned last_domain = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '[') {
			const char *close = memchr(s + i, ']', len - i);

			if (!close)
				break;
			size_t j = (size_t)(close - s);
			const char *in = s + i + 1;
			uint64_t dom, bus, sec, sub;
			const char *e;

			if (j - i == 8 && in[4] == ':' &&
			    pd_parse_u64(in, 16, &dom, &e) && e == in + 4 &&
			    (int)(bus = (uint64_t)hex2(in + 5)) >= 0) {
				if (j + 4 < MAX_COLS) {
					cols[j + 4] = (struct column){ true,
					    (unsigned)dom, (unsigned)bus, "" };
				}
			} else if (last && (int)(sec = (uint64_t)hex2(in)) >= 0) {
				int subv = in[2] == '-' ? hex2(in + 3) : (int)sec;

				sub = subv >= 0 ? (uint64_t)subv : sec;
				last->secondary = (int)sec;
				last->subordinate = (int)sub;
				if (j + 5 < MAX_COLS) {
					cols[j + 5].open = true;
					cols[j + 5].domain = last_domain;
					cols[j + 5].bus = (unsigned)sec;
					memcpy(cols[j + 5].parent, last->bdf,
					    sizeof(last->bdf));
				}
			} else {
				pd_diag_note(d, PD_WARN, "lspci-tv.bad-bus",
				    lineno, "unreadable bus range '%.*s'",
				    (int)(j - i + 1), s + i);
			}
			i = j;
			continue;
		}
		if (!is_dev(s, i, len))
			continue;
		if (i >= MAX_COLS || !cols[i].open) {
			pd_diag_note(d, PD_WARN, "lspci-tv.orphan", lineno,
			    "device '%.4s' at column %zu is under no bus",
			    s + i, i);
			break;
		}
		char bdf[16];

		pd_bdf_format(bdf, cols[i].domain, cols[i].bus,
		    (unsigned)hex2(s + i), (unsigned)(s[i + 3] - '0'));
		last = pd_host_pci_edge(h, a, bdf);
		last_domain = cols[i].domain;
		memcpy(last->parent, cols[i].parent, sizeof(last->parent));
		pd_evidence_set(&last->ev, a, m->path, lineno, s, len);
		i += 3;
		if (i + 2 < len && s[i + 1] == ' ' && s[i + 2] == ' ')
			break;	/* the device's name follows */
	}
}

static enum pd_status
parse_lspci_tv(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct column *cols = pd_arena_alloc(d->arena,
	    MAX_COLS * sizeof(*cols));
	const char *line;
	size_t len;
	bool any = false;

	while (pd_input_getline(in, &line, &len)) {
		if (len == 0)
			continue;
		any = true;
		tree_line(h, d, m, cols, line, len, in->line_no);
	}
	if (!any)
		pd_diag_note(d, PD_WARN, "lspci-tv.empty", 0, "empty tree");
	return PD_OK;
}

static int
bid_lspci_tv(const struct pd_member *m)
{
	char line[512];
	int bid = 0, extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	const char *open = strchr(line, '[');

	if ((!pd_starts_with(line, "-[") && !pd_starts_with(line, "-+-[")) ||
	    !open || strlen(open) < 10 || open[5] != ':' || open[8] != ']')
		return 0;
	bid = 64;
	for (unsigned i = 1; i < 16 && extra < 3 &&
	    pd_text_head_line(m->head, m->head_len, i, line, sizeof(line));
	    i++) {
		const char *s = pd_skip_space(line);

		if (pd_starts_with(s, "+-") || pd_starts_with(s, "\\-") ||
		    pd_starts_with(s, "|"))
			extra++;
	}
	return bid + 8 * extra;
}

static const char *const hints[] = { "lspci_-tv", "lspci-t", "lspci_-t",
	NULL };

const struct pd_format pd_format_lspci_tv = {
	.name = "lspci-tv",
	.summary = "PCI tree: which bridge and root port each device is under",
	.command = "lspci -tv (or lspci -t)",
	.hints = hints,
	.gives = PD_HAVE_PCI_TOPOLOGY,
	.collect = "lspci -tv output",
	.bid = bid_lspci_tv,
	.parse = parse_lspci_tv,
};

/* "cmdline": /proc/cmdline, the kernel command line.
 *
 * Reference: Documentation/admin-guide/kernel-parameters.txt.  Tokens are
 * separated by spaces; double quotes may enclose a value or a whole
 * token ("key=a b" or key="a b"); "--" ends kernel parameters; '-' and
 * '_' are the same in parameter names (parameqn); for repeated keys the
 * last one wins, except that every pci= is applied.  A dmesg line
 * "Kernel command line: ..." is accepted too.
 */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define DMESG_PREFIX "Kernel command line: "

static const char *const known_keys[] = {
	"console", "quiet", "ro", "rw", "init", "rootwait", "splash",
	"iommu", "iommu.strict", "iommu.passthrough", "intel_iommu",
	"amd_iommu", "pci", "crashkernel", "earlycon", "rd.lvm.lv",
	"rootflags", "resume", "nomodeset", "isolcpus", "nohz_full",
	"hugepages", "default_hugepagesz", "mitigations", "selinux",
	"systemd.unit", "net.ifnames", "biosdevname", "ostree", "LANG", NULL,
};

static bool
key_known(const char *tok, size_t n)
{
	for (const char *const *k = known_keys; *k; k++) {
		size_t kl = strlen(*k);

		if (n >= kl && memcmp(tok, *k, kl) == 0 &&
		    (n == kl || tok[kl] == '='))
			return true;
	}
	return false;
}

static int
bid_cmdline(const struct pd_member *m)
{
	char line[4096], second[64];

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	if (pd_text_head_line(m->head, m->head_len, 1, second, sizeof(second))
	    && second[0] != '\0')
		return 0;	/* /proc/cmdline is one line */
	const char *p = line;

	if (pd_starts_with(p, DMESG_PREFIX))
		p += strlen(DMESG_PREFIX);
	int bid = 0, known = 0;

	while (*(p = pd_skip_space(p))) {
		const char *s = p;

		while (*p && *p != ' ' && *p != '\t')
			p++;
		size_t n = (size_t)(p - s);

		if (s[0] == '=' || (n && s[n - 1] == ':'))
			return 0;	/* "key = value", "Key: value" */
		if ((n > 11 && memcmp(s, "BOOT_IMAGE=", 11) == 0) ||
		    (n > 5 && memcmp(s, "root=", 5) == 0))
			bid = 64;
		else if (key_known(s, n) && known < 3)
			known++;
	}
	bid += known * 16;
	return bid;
}

static void
add_token(struct pd_host *h, struct pd_arena *a, const struct pd_member *m,
    uint32_t lineno, const char *tok, size_t n)
{
	char *t = pd_arena_strndup(a, tok, n), *w = t;
	struct pd_evidence ev;

	pd_evidence_set(&ev, a, m->path, lineno, tok, n);
	for (const char *r = t; *r; r++)	/* drop the quotes */
		if (*r != '"')
			*w++ = *r;
	*w = '\0';
	char *eq = strchr(t, '=');

	if (eq)
		*eq = '\0';
	for (char *k = t; *k; k++)	/* parameqn: '-' equals '_' */
		if (*k == '-')
			*k = '_';
	pd_host_cmdline_add(h, a, t, eq ? eq + 1 : NULL, &ev);
}

static enum pd_status
parse_cmdline(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *line;
	size_t len;
	bool done = false;

	while (pd_input_getline(in, &line, &len)) {
		if (len == 0)
			continue;
		if (done) {
			pd_diag_note(d, PD_WARN, "cmdline.extra-lines",
			    in->line_no, "more than one command line; only "
			    "the first is used");
			break;
		}
		done = true;
		const char *p = line;

		if (pd_starts_with(p, DMESG_PREFIX))
			p += strlen(DMESG_PREFIX);
		h->cmdline = pd_arena_strdup(a, pd_skip_space(p));
		pd_evidence_set(&h->ev_cmdline, a, m->path, in->line_no, p,
		    strlen(p));
		while (*(p = pd_skip_space(p))) {
			const char *s = p;
			bool quoted = false;

			while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
				if (*p == '"')
					quoted = !quoted;
				p++;
			}
			if (quoted)
				pd_diag_note(d, PD_WARN, "cmdline.unterminated-quote",
				    in->line_no, "unterminated quote in '%.*s'",
				    (int)(p - s), s);
			if (p - s == 2 && memcmp(s, "--", 2) == 0)
				break;	/* the rest goes to init */
			add_token(h, a, m, in->line_no, s, (size_t)(p - s));
		}
	}
	if (!done)
		pd_diag_note(d, PD_WARN, "cmdline.empty", 0,
		    "the command line is empty");
	return PD_OK;
}

static const char *const hints[] = { "proc/cmdline", NULL };

const struct pd_format pd_format_cmdline = {
	.name = "cmdline",
	.summary = "kernel command line: iommu.strict, iommu.passthrough, "
	    "intel_iommu=, amd_iommu=, pci=",
	.command = "cat /proc/cmdline",
	.hints = hints,
	.gives = PD_HAVE_CMDLINE,
	.collect = "/proc/cmdline",
	.bid = bid_cmdline,
	.parse = parse_cmdline,
};

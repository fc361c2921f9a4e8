/* "uname": the output of uname -a, for the architecture, host name and
 * kernel release.  Layout: "Linux NODENAME RELEASE #VERSION ... MACHINE
 * [PROCESSOR PLATFORM] GNU/Linux"; the version string has spaces, so
 * the machine is found by name from the end. */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const struct { const char *name; enum pd_arch arch; } machines[] = {
	{ "x86_64", PD_ARCH_X86_64 }, { "amd64", PD_ARCH_X86_64 },
	{ "aarch64", PD_ARCH_ARM64 }, { "arm64", PD_ARCH_ARM64 },
	{ "ppc64le", PD_ARCH_OTHER }, { "ppc64", PD_ARCH_OTHER },
	{ "s390x", PD_ARCH_OTHER }, { "riscv64", PD_ARCH_OTHER },
	{ "armv7l", PD_ARCH_OTHER }, { "i686", PD_ARCH_OTHER },
	{ "i386", PD_ARCH_OTHER }, { "loongarch64", PD_ARCH_OTHER },
};

static int
machine_index(const char *tok, size_t n)
{
	for (size_t i = 0; i < PD_ARRAY_SIZE(machines); i++)
		if (strlen(machines[i].name) == n &&
		    memcmp(machines[i].name, tok, n) == 0)
			return (int)i;
	return -1;
}

static int
bid_uname(const struct pd_member *m)
{
	char line[1024], second[8];

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !pd_starts_with(line, "Linux "))
		return 0;
	if (pd_text_head_line(m->head, m->head_len, 1, second, sizeof(second))
	    && second[0])
		return 0;
	int bid = 48;	/* "Linux " */

	if (strchr(line, '#'))
		bid += 8;
	for (const char *p = line; *p;) {
		p = pd_skip_space(p);
		const char *s = p;

		while (*p && *p != ' ')
			p++;
		if (machine_index(s, (size_t)(p - s)) >= 0)
			return bid + 16;
	}
	return bid;
}

static enum pd_status
parse_uname(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *line;
	size_t len;

	while (pd_input_getline(in, &line, &len)) {
		if (len == 0)
			continue;
		const char *tok[64];
		size_t tl[64];
		int nt = 0;

		for (const char *p = line; *(p = pd_skip_space(p)) && nt < 64;) {
			tok[nt] = p;
			while (*p && *p != ' ' && *p != '\t')
				p++;
			tl[nt] = (size_t)(p - tok[nt]);
			nt++;
		}
		if (nt < 3) {
			pd_diag_note(d, PD_WARN, "uname.short", in->line_no,
			    "too few fields in '%s'", line);
			return PD_WARN;
		}
		h->nodename = pd_arena_strndup(a, tok[1], tl[1]);
		h->kernel_release = pd_arena_strndup(a, tok[2], tl[2]);
		for (int i = nt - 1; i >= 3; i--) {
			int k = machine_index(tok[i], tl[i]);

			if (k < 0)
				continue;
			h->arch = machines[k].arch;
			h->arch_name = machines[k].name;
			pd_evidence_set(&h->ev_arch, a, m->path, in->line_no,
			    line, len);
			break;
		}
		if (!h->arch_name)
			pd_diag_note(d, PD_WARN, "uname.no-machine",
			    in->line_no, "no known machine name in '%s'", line);
		return PD_OK;
	}
	pd_diag_note(d, PD_WARN, "uname.empty", 0, "empty uname output");
	return PD_WARN;
}

static const char *const hints[] = { "uname", NULL };

const struct pd_format pd_format_uname = {
	.name = "uname",
	.summary = "uname -a: architecture, host name, kernel release",
	.command = "uname -a",
	.hints = hints,
	.gives = PD_HAVE_ARCH,
	.collect = "uname -a",
	.bid = bid_uname,
	.parse = parse_uname,
};

/* "cpuinfo": /proc/cpuinfo, for the architecture, the CPU count and the
 * core types (big and little cores on arm64, e.g. Cortex-X925 and
 * Cortex-A725 on GB10).  x86 blocks carry "model name" and "flags"; arm64
 * blocks carry "CPU implementer" and "CPU part", named here from Arm's
 * MIDR part numbers.
 *
 * Older layouts, from arch/<arch>/kernel's c_show: 32-bit ARM before
 * Linux 3.8 prints "Processor : ARMv7 Processor rev 10 (v7l)" once on
 * top (a uniprocessor ARMv4/v6 has no "processor : N" line at all), then
 * per-CPU blocks with only BogoMIPS, then the CPU ids once for all;
 * PowerPC names each CPU with "cpu : POWER8E (raw), ..."; s390 prints
 * "vendor_id : IBM/S390", "# processors : 4" and one "processor N:
 * version = ..., machine = 2827" line per CPU. */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const struct { unsigned impl, part; const char *name; } parts[] = {
	{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" },
	{ 0x41, 0xd05, "Cortex-A55" }, { 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" }, { 0x41, 0xd0d, "Cortex-A77" },
	{ 0x41, 0xd40, "Neoverse-V1" }, { 0x41, 0xd41, "Cortex-A78" },
	{ 0x41, 0xd44, "Cortex-X1" }, { 0x41, 0xd46, "Cortex-A510" },
	{ 0x41, 0xd47, "Cortex-A710" }, { 0x41, 0xd48, "Cortex-X2" },
	{ 0x41, 0xd49, "Neoverse-N2" }, { 0x41, 0xd4a, "Neoverse-E1" },
	{ 0x41, 0xd4b, "Cortex-A78C" }, { 0x41, 0xd4d, "Cortex-A715" },
	{ 0x41, 0xd4e, "Cortex-X3" }, { 0x41, 0xd4f, "Neoverse-V2" },
	{ 0x41, 0xd80, "Cortex-A520" }, { 0x41, 0xd81, "Cortex-A720" },
	{ 0x41, 0xd82, "Cortex-X4" }, { 0x41, 0xd84, "Neoverse-V3" },
	{ 0x41, 0xd85, "Cortex-X925" }, { 0x41, 0xd87, "Cortex-A725" },
	{ 0x41, 0xd8e, "Neoverse-N3" }, { 0x4e, 0x004, "Carmel" },
	{ 0xc0, 0xac3, "Ampere-1" }, { 0xc0, 0xac4, "Ampere-1a" },
	{ 0x48, 0xd01, "TaiShan-v110" }, { 0x61, 0x022, "Apple-M1" },
};

struct block {
	bool open;
	unsigned cpu;			/* the "processor" number */
	int impl, part;
	char model[128];
};

/* What the layout says about the machine as a whole. */
struct whole {
	enum pd_arch arch;
	const char *arch_name;		/* "arm", "powerpc", "s390" */
	uint32_t arch_line;
	char arch_text[96];
	char model[128];	/* old ARM's "Processor", s390's machine */
	unsigned declared;		/* s390's "# processors" */
};

static const char *
value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) != 0)
		return NULL;
	const char *p = pd_skip_space(line + n);

	return *p == ':' ? pd_skip_space(p + 1) : NULL;
}

static void
close_block(struct pd_host *h, struct pd_arena *a, struct block *b,
    bool types)
{
	if (!b->open)
		return;
	char name[160];

	if (b->model[0]) {
		snprintf(name, sizeof(name), "%s", b->model);
	} else if (b->impl >= 0 && b->part >= 0) {
		snprintf(name, sizeof(name), "implementer 0x%02x part 0x%03x",
		    (unsigned)b->impl, (unsigned)b->part);
		for (size_t i = 0; i < PD_ARRAY_SIZE(parts); i++)
			if (parts[i].impl == (unsigned)b->impl &&
			    parts[i].part == (unsigned)b->part)
				snprintf(name, sizeof(name), "%s", parts[i].name);
	} else {
		name[0] = '\0';
	}
	if (types && name[0])
		pd_host_cpu_type(h, a, name);
	if (name[0])
		pd_host_cpu_index_type(h, a, b->cpu, name);
	*b = (struct block){ .impl = -1, .part = -1 };
}

static void
set_arch(struct whole *w, enum pd_arch arch, const char *name,
    uint32_t line_no, const char *line)
{
	if (w->arch != PD_ARCH_UNKNOWN)
		return;
	w->arch = arch;
	w->arch_name = name;
	w->arch_line = line_no;
	snprintf(w->arch_text, sizeof(w->arch_text), "%s", line);
}

/* The lines that name the machine rather than one CPU block. */
static bool
whole_line(struct whole *w, const char *line, uint32_t line_no)
{
	const char *v, *mach;
	uint64_t x;

	if ((v = value_of(line, "Processor"))) {	/* old 32-bit ARM */
		snprintf(w->model, sizeof(w->model), "%s", v);
	} else if ((v = value_of(line, "# processors")) &&
	    pd_parse_u64(v, 10, &x, NULL) && x <= PD_MAX_CPUS) {
		w->declared = (unsigned)x;
	} else if ((v = value_of(line, "vendor_id")) &&
	    pd_starts_with(v, "IBM/S390")) {
		set_arch(w, PD_ARCH_OTHER, "s390", line_no, line);
	} else if (pd_starts_with(line, "processor ") &&
	    (mach = strstr(line, "machine = ")) && !w->model[0]) {
		snprintf(w->model, sizeof(w->model), "IBM %.*s",
		    (int)strcspn(mach + 10, " ,"), mach + 10);
	} else {
		return false;
	}
	return true;
}

static void
block_line(struct whole *w, struct block *b, const char *line,
    uint32_t line_no)
{
	const char *v;
	uint64_t x;

	if ((v = value_of(line, "model name"))) {
		snprintf(b->model, sizeof(b->model), "%s", v);
	} else if ((v = value_of(line, "cpu")) && !b->model[0]) {
		/* PowerPC: "POWER8E (raw), altivec supported" */
		snprintf(b->model, sizeof(b->model), "%.*s",
		    (int)strcspn(v, ","), v);
		set_arch(w, PD_ARCH_OTHER, "powerpc", line_no, line);
	} else if (w->model[0] && (value_of(line, "CPU implementer") ||
	    value_of(line, "CPU part"))) {
		/* old ARM: printed once after the blocks, for all of them */
	} else if ((v = value_of(line, "CPU implementer")) &&
	    pd_parse_u64(v, 0, &x, NULL)) {
		b->impl = (int)(x & 0xff);
	} else if ((v = value_of(line, "CPU part")) &&
	    pd_parse_u64(v, 0, &x, NULL)) {
		b->part = (int)(x & 0xfff);
	} else if ((v = value_of(line, "CPU architecture")) &&
	    pd_parse_u64(v, 10, &x, NULL)) {
		set_arch(w, x >= 8 ? PD_ARCH_ARM64 : PD_ARCH_OTHER,
		    x >= 8 ? NULL : "arm", line_no, line);
	} else if ((v = value_of(line, "flags")) && strstr(v, " lm ")) {
		set_arch(w, PD_ARCH_X86_64, NULL, line_no, "flags: lm");
	}
}

/* One model for every CPU: old ARM's "Processor" line, s390's machine;
 * a uniprocessor old ARM has no "processor : N" line, so it is one. */
static unsigned
whole_model(struct pd_host *h, struct pd_arena *a, const struct whole *w,
    unsigned n, bool types)
{
	if (n == 0 && w->declared)
		n = w->declared;
	if (n == 0 && w->model[0] && w->arch_name &&
	    strcmp(w->arch_name, "arm") == 0)
		n = 1;
	if (!w->model[0])
		return n;
	for (unsigned i = 0; i < n && i < PD_MAX_CPUS; i++) {
		if (types)
			pd_host_cpu_type(h, a, w->model);
		pd_host_cpu_index_type(h, a, i, w->model);
	}
	return n;
}

static enum pd_status
parse_cpuinfo(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct block b = { .impl = -1, .part = -1 };
	struct whole w = { .arch = PD_ARCH_UNKNOWN };
	bool types = h->cpu_types == NULL;	/* lscpu may have set them */
	unsigned n = 0;
	const char *line, *v;
	size_t len;
	uint64_t x;

	while (pd_input_getline(in, &line, &len)) {
		if ((v = value_of(line, "processor")) &&
		    pd_parse_u64(v, 10, &x, NULL)) {
			close_block(h, a, &b, types);
			b.open = true;
			b.cpu = x < PD_MAX_CPUS ? (unsigned)x : PD_MAX_CPUS;
			n++;
		} else if (!whole_line(&w, line, in->line_no)) {
			block_line(&w, &b, line, in->line_no);
		}
	}
	close_block(h, a, &b, types);
	n = whole_model(h, a, &w, n, types);
	if (n == 0) {
		pd_diag_note(d, PD_WARN, "cpuinfo.no-cpus", 0,
		    "no 'processor' entries");
		return PD_WARN;
	}
	if (!h->n_cpus)
		h->n_cpus = n;
	if (h->arch == PD_ARCH_UNKNOWN && w.arch != PD_ARCH_UNKNOWN) {
		h->arch = w.arch;
		h->arch_name = w.arch_name ? w.arch_name : pd_arch_name(w.arch);
		bool arm64 = w.arch == PD_ARCH_ARM64;

		pd_evidence_set(&h->ev_arch, a, m->path, w.arch_line,
		    arm64 ? "CPU architecture: 8" : w.arch_text,
		    arm64 ? 19 : strlen(w.arch_text));
	}
	return PD_OK;
}

/* The first line: "processor : N"; old ARM's "Processor : NAME"; s390's
 * "vendor_id : IBM/S390". */
static int
bid_cpuinfo(const struct pd_member *m)
{
	static const char *const keys[] = { "vendor_id", "model name",
		"BogoMIPS", "CPU implementer", "flags", "Features",
		"cpu family", "CPU part", "cpu", "timebase", "# processors",
		"bogomips per cpu", "processor", NULL };
	char line[256];
	const char *v;
	uint64_t x;
	int extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	bool first = ((v = value_of(line, "processor")) &&
	    pd_parse_u64(v, 10, &x, NULL)) || value_of(line, "Processor") ||
	    ((v = value_of(line, "vendor_id")) &&
	    pd_starts_with(v, "IBM/S390"));

	if (!first)
		return 0;
	for (unsigned i = 1; i < 32 && extra < 3 &&
	    pd_text_head_line(m->head, m->head_len, i, line, sizeof(line));
	    i++)
		for (const char *const *k = keys; *k; k++)
			if (value_of(line, *k)) {
				extra++;
				break;
			}
	return 64 + 8 * extra;
}

static const char *const hints[] = { "cpuinfo", NULL };

const struct pd_format pd_format_cpuinfo = {
	.name = "cpuinfo",
	.summary = "CPU count, architecture and core types",
	.command = "cat /proc/cpuinfo",
	.hints = hints,
	.gives = PD_HAVE_ARCH,
	.collect = "/proc/cpuinfo",
	.bid = bid_cpuinfo,
	.parse = parse_cpuinfo,
};

/* "cpuinfo": /proc/cpuinfo, for the architecture, the CPU count and the
 * core types (big and little cores on arm64, e.g. Cortex-X925 and
 * Cortex-A725 on GB10).  x86 blocks carry "model name" and "flags"; arm64
 * blocks carry "CPU implementer" and "CPU part", named here from Arm's
 * MIDR part numbers. */
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

static enum pd_status
parse_cpuinfo(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct block b = { .impl = -1, .part = -1 };
	bool types = h->cpu_types == NULL;	/* lscpu may have set them */
	enum pd_arch arch = PD_ARCH_UNKNOWN;
	uint32_t arch_line = 0;
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
		} else if ((v = value_of(line, "model name"))) {
			snprintf(b.model, sizeof(b.model), "%s", v);
		} else if ((v = value_of(line, "CPU implementer")) &&
		    pd_parse_u64(v, 0, &x, NULL)) {
			b.impl = (int)(x & 0xff);
		} else if ((v = value_of(line, "CPU part")) &&
		    pd_parse_u64(v, 0, &x, NULL)) {
			b.part = (int)(x & 0xfff);
		} else if (arch == PD_ARCH_UNKNOWN &&
		    (v = value_of(line, "CPU architecture")) &&
		    pd_parse_u64(v, 10, &x, NULL) && x >= 8) {
			arch = PD_ARCH_ARM64;
			arch_line = in->line_no;
		} else if (arch == PD_ARCH_UNKNOWN &&
		    (v = value_of(line, "flags")) && strstr(v, " lm ")) {
			arch = PD_ARCH_X86_64;	/* long mode */
			arch_line = in->line_no;
		}
	}
	close_block(h, a, &b, types);
	if (n == 0) {
		pd_diag_note(d, PD_WARN, "cpuinfo.no-cpus", 0,
		    "no 'processor' entries");
		return PD_WARN;
	}
	if (!h->n_cpus)
		h->n_cpus = n;
	if (h->arch == PD_ARCH_UNKNOWN && arch != PD_ARCH_UNKNOWN) {
		h->arch = arch;
		h->arch_name = pd_arch_name(arch);
		pd_evidence_set(&h->ev_arch, a, m->path, arch_line,
		    arch == PD_ARCH_ARM64 ? "CPU architecture: 8" : "flags: lm",
		    arch == PD_ARCH_ARM64 ? 19 : 9);
	}
	return PD_OK;
}

static int
bid_cpuinfo(const struct pd_member *m)
{
	static const char *const keys[] = { "vendor_id", "model name",
		"BogoMIPS", "CPU implementer", "flags", "Features",
		"cpu family", "CPU part", NULL };
	char line[256];
	int extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !value_of(line, "processor"))
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

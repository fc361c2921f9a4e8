/* "lscpu": lscpu output, for the architecture, CPU count and core types.
 * On big.LITTLE machines lscpu prints one "Model name:" block per core
 * type, each with its own "Core(s) per socket/cluster" and
 * "Socket(s)/Cluster(s)" counts. */
#include <string.h>
#include "base/sysval.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const char *
value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return NULL;
	return pd_skip_space(line + n + 1);
}

struct type_block {
	char name[128];
	uint64_t cores, groups, threads;
};

static void
flush(struct pd_host *h, struct pd_arena *a, struct type_block *t)
{
	if (!t->name[0])
		return;
	uint64_t n = (t->cores ? t->cores : 1) * (t->groups ? t->groups : 1) *
	    (t->threads ? t->threads : 1);

	for (uint64_t i = 0; i < n && i < PD_MAX_CPUS; i++)
		pd_host_cpu_type(h, a, t->name);
	memset(t, 0, sizeof(*t));
}

/* "NUMA node3 CPU(s):   30-39": each CPU of the list on node 3. */
static void
numa_line(struct pd_host *h, struct pd_arena *a, const char *s)
{
	uint64_t bits[PD_MAX_CPUS / 64];
	const char *v;
	uint64_t node;

	if (!pd_starts_with(s, "NUMA node") ||
	    !pd_parse_u64(s + 9, 10, &node, &v) || node > 4095 ||
	    !pd_starts_with(v, " CPU(s):"))
		return;
	v = pd_skip_space(v + 8);
	if (!pd_cpulist_parse(v, strlen(v), bits, PD_MAX_CPUS, NULL))
		return;
	if (!h->numa_of_cpu) {
		h->numa_of_cpu = pd_arena_alloc(a, PD_MAX_CPUS *
		    sizeof(*h->numa_of_cpu));
		for (unsigned c = 0; c < PD_MAX_CPUS; c++)
			h->numa_of_cpu[c] = -1;
	}
	for (unsigned c = 0; c < PD_MAX_CPUS; c++)
		if (bits[c / 64] >> (c % 64) & 1)
			h->numa_of_cpu[c] = (int16_t)node;
}

static enum pd_status
parse_lscpu(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	static const struct { const char *name; enum pd_arch arch; } archs[] = {
		{ "x86_64", PD_ARCH_X86_64 }, { "aarch64", PD_ARCH_ARM64 },
		{ "arm64", PD_ARCH_ARM64 },
	};
	struct pd_arena *a = d->arena;
	struct type_block t = { 0 };
	bool types = h->cpu_types == NULL;
	const char *line, *v;
	size_t len;
	uint64_t x;

	while (pd_input_getline(in, &line, &len)) {
		const char *s = pd_skip_space(line);

		if ((v = value_of(s, "Architecture"))) {
			enum pd_arch arch = PD_ARCH_OTHER;

			for (size_t i = 0; i < PD_ARRAY_SIZE(archs); i++)
				if (strcmp(v, archs[i].name) == 0)
					arch = archs[i].arch;
			if (h->arch == PD_ARCH_UNKNOWN) {
				h->arch = arch;
				h->arch_name = pd_arena_strdup(a, v);
				pd_evidence_set(&h->ev_arch, a, m->path,
				    in->line_no, line, len);
			}
		} else if ((v = value_of(s, "CPU(s)")) &&
		    pd_parse_u64(v, 10, &x, NULL)) {
			if (!h->n_cpus && x <= PD_MAX_CPUS * 16)
				h->n_cpus = (unsigned)x;
		} else if ((v = value_of(s, "Model name"))) {
			if (types)
				flush(h, a, &t);
			snprintf(t.name, sizeof(t.name), "%s", v);
		} else if (((v = value_of(s, "Core(s) per socket")) ||
		    (v = value_of(s, "Core(s) per cluster"))) &&
		    pd_parse_u64(v, 10, &x, NULL)) {
			t.cores = x;
		} else if (((v = value_of(s, "Socket(s)")) ||
		    (v = value_of(s, "Cluster(s)"))) &&
		    pd_parse_u64(v, 10, &x, NULL)) {
			t.groups = x;
		} else if ((v = value_of(s, "NUMA node(s)")) &&
		    pd_parse_u64(v, 10, &x, NULL)) {
			if (!h->n_numa_nodes && x >= 1 && x <= 4096) {
				h->n_numa_nodes = (unsigned)x;
				pd_evidence_set(&h->ev_numa, a, m->path,
				    in->line_no, line, len);
			}
		} else if (pd_starts_with(s, "NUMA node")) {
			numa_line(h, a, s);
		} else if ((v = value_of(s, "Thread(s) per core")) &&
		    pd_parse_u64(v, 10, &x, NULL)) {
			t.threads = x;
		}
	}
	if (types)
		flush(h, a, &t);
	if (h->arch == PD_ARCH_UNKNOWN)
		pd_diag_note(d, PD_WARN, "lscpu.no-arch", 0,
		    "no 'Architecture:' line");
	return PD_OK;
}

static int
bid_lscpu(const struct pd_member *m)
{
	static const char *const keys[] = { "CPU op-mode(s)", "Byte Order",
		"CPU(s)", "Vendor ID", "Model name", "Address sizes", NULL };
	char line[256];
	int extra = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_head_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !value_of(line, "Architecture"))
		return 0;
	for (unsigned i = 1; i < 16 && extra < 3 &&
	    pd_text_head_line(m->head, m->head_len, i, line, sizeof(line));
	    i++)
		for (const char *const *k = keys; *k; k++)
			if (value_of(pd_skip_space(line), *k)) {
				extra++;
				break;
			}
	return 64 + 8 * extra;
}

static const char *const hints[] = { "lscpu", NULL };

const struct pd_format pd_format_lscpu = {
	.name = "lscpu",
	.summary = "CPU count, architecture and core types",
	.command = "lscpu",
	.hints = hints,
	.gives = PD_HAVE_ARCH,
	.collect = "lscpu",
	.bid = bid_lscpu,
	.parse = parse_lscpu,
};

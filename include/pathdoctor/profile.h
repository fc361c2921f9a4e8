/* CPU profiles in the model.  A reader streams samples into bounded
 * tables (src/decode/profile.h); finalize names the addresses (kallsyms
 * and ELF symbols may come later in the bundle than the profile), sums
 * periods per symbol, per CPU and per core type, and keeps the stacks
 * and views that rules and renderers read.  Shares use periods, as perf
 * report's overhead does. */
#ifndef PD_PROFILE_H
#define PD_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model.h"

struct pd_prof_sym {
	const char *name, *dso;
	bool kernel, idle;
	uint64_t samples;		/* samples with it as the leaf */
	double self, inclusive;		/* periods */
};

/* Per core type (or one "all CPUs" entry when types are unknown). */
struct pd_prof_group {
	const char *name;
	double total, idle;		/* periods */
	unsigned n_cpus;		/* CPUs of this type seen in samples */
};

#define PD_PROF_GROUPS 8
#define PD_PROF_ALL_CPUS "all CPUs"	/* the group when types are unknown */

/* A group's name as the subject of a sentence: "all CPUs" is plural
 * ("all CPUs spend", "of their"), a core type's name is not. */
struct pd_arena;
bool pd_prof_group_plural(const char *name);
/* Its cores: "the Cortex-X925 cores", "all CPUs" (with_the false:
 * "Cortex-X925 cores", "all CPUs"). */
const char *pd_prof_group_cores(struct pd_arena *a, const char *name,
    bool with_the);
#define PD_PROF_TOP 10		/* top symbols kept per group */

/* A call stack after symbolisation: n symbol indexes from
 * stack_syms[off], leaf first, sampled on a CPU of group. */
struct pd_prof_stack {
	uint32_t off, n;
	unsigned group;
	double period;
};

struct pd_prof_dso {
	const char *name;
	double self;			/* period */
};
#define PD_PROF_BUILDIDS 4096

/* A DSO's build id as perf recorded it (HEADER_BUILD_ID, MMAP2). */
struct pd_prof_buildid {
	const char *filename;
	char build_id[41];
};

struct pd_profile {
	struct pd_profile *next;
	const char *member, *reader;	/* reader: "perf.data", ... */
	const char *event;		/* "cycles", "cpu-clock", ... */
	const char *hostname, *os_release, *arch, *perf_version;
	unsigned nr_cpus;
	bool pipe_mode, has_cpu, has_callchain, swapped;
	uint64_t samples, lost, records, dropped;
	double period;			/* all samples */
	struct pd_evidence ev;
	struct pd_prof_buildid *buildids;	/* [PD_PROF_BUILDIDS] */
	unsigned n_buildids;
	struct pd_prof_raw *raw;	/* streaming tables, until symbolised */
	/* after pd_profile_symbolise: */
	struct pd_prof_sym *syms;	/* by self period, descending */
	unsigned n_syms;
	struct pd_prof_stack *stacks;	/* the distinct call stacks */
	unsigned n_stacks;
	size_t stacks_bytes;		/* allocated (base/bigmem.h) */
	uint32_t *stack_syms;		/* their symbols, leaf first */
	size_t stack_syms_bytes;	/* allocated (base/bigmem.h) */
	/* top symbols per group, busy samples, by self [0] and inclusive
	 * [1] (none without call chains) */
	unsigned top[PD_PROF_GROUPS][2][PD_PROF_TOP];
	unsigned n_top[PD_PROF_GROUPS][2];
	struct pd_prof_dso *dsos;	/* self summed per DSO, descending */
	unsigned n_dsos;
	/* [sym * n_groups + group] (pd_prof_sym_group) */
	double *sym_group_self;
	double *sym_group_incl;		/* busy samples only */
	struct pd_prof_group groups[PD_PROF_GROUPS];
	unsigned n_groups;
	double *cpu_total, *cpu_idle;	/* [n_cpu_slots], by CPU number */
	unsigned n_cpu_slots;
	const char *symbols;		/* where names came from */
	bool symbols_missing;		/* some addresses had no name */
	bool kernel_unnamed;		/* kernel samples without kallsyms */
};

/* Symbol sym's self period in group g (< n_groups), or its busy
 * inclusive one: the arrays are as wide as the groups seen, most often
 * one. */
static inline double
pd_prof_sym_group(const struct pd_profile *p, bool inclusive, unsigned sym,
    unsigned g)
{
	return (inclusive ? p->sym_group_incl : p->sym_group_self)
	    [(size_t)sym * p->n_groups + g];
}

#endif

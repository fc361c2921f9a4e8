/* CPU profiles.  A reader streams samples into bounded tables of
 * distinct addresses, self counts and call stacks (struct pd_prof_raw);
 * pd_profile_symbolise, run when the model is finalised, names the
 * addresses (kallsyms and ELF symbols may come later in the bundle than
 * the profile) and sums periods per symbol, per CPU and per core type.
 * Shares use periods, as perf report's overhead does. */
#ifndef PD_PROFILE_H
#define PD_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model.h"

enum pd_cpumode {
	PD_MODE_UNKNOWN, PD_MODE_KERNEL, PD_MODE_USER, PD_MODE_HYPERVISOR,
	PD_MODE_GUEST_KERNEL, PD_MODE_GUEST_USER,
};

/* Bounds on what one profile may hold in memory: beyond them samples are
 * still counted (total, self by DSO) and a note says what was dropped. */
#define PD_PROF_ADDRS (1u << 18)	/* distinct (pid, mode, address) */
#define PD_PROF_SELF (1u << 18)		/* distinct (cpu, address) */
#define PD_PROF_STACKS (1u << 17)	/* distinct (cpu, call stack) */
#define PD_PROF_SLOTS (1u << 22)	/* addresses in all stacks */
#define PD_PROF_MAPS 65536		/* mmap records kept */
#define PD_PROF_CHAIN 512		/* addresses of one stack used */

struct pd_prof_raw;

struct pd_prof_raw *pd_prof_raw_new(void);
void pd_prof_raw_free(struct pd_prof_raw *r);
/* A process fork (perf FORK records where pid != ppid). */
void pd_prof_fork(struct pd_prof_raw *r, uint32_t pid, uint32_t ppid);
/* An executable mapping (perf MMAP/MMAP2). */
void pd_prof_map(struct pd_prof_raw *r, uint32_t pid, uint64_t start,
    uint64_t len, uint64_t pgoff, const char *filename);
/* One sample: ip in mode; chain (may be NULL) as perf records it, with
 * PERF_CONTEXT_* markers; cpu -1 when unknown. */
void pd_prof_sample(struct pd_prof_raw *r, uint32_t pid, int cpu,
    enum pd_cpumode mode, uint64_t period, uint64_t ip,
    const uint64_t *chain, unsigned n_chain);
/* A sample already named (perf script text): leaf and callers as
 * DSO and symbol strings, kernel or not. */
struct pd_prof_frame {
	const char *dso, *sym;
	bool kernel;
};

void pd_prof_sample_named(struct pd_prof_raw *r, int cpu, double period,
    const struct pd_prof_frame *frames, unsigned n_frames);
/* perf report text: a symbol's self share as a period (cpu -1 when the
 * report has no CPU column), its inclusive share (< 0 when none), and the
 * whole the shares are of. */
void pd_prof_report_line(struct pd_prof_raw *r, int cpu, double self,
    double inclusive, const struct pd_prof_frame *f);
void pd_prof_report_total(struct pd_prof_raw *r, double period);

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
	struct pd_prof_stack *stacks;	/* heap: the distinct call stacks */
	unsigned n_stacks;
	uint32_t *stack_syms;		/* heap: their symbols, leaf first */
	/* top symbols per group, busy samples, by self [0] and inclusive
	 * [1] (none without call chains) */
	unsigned top[PD_PROF_GROUPS][2][PD_PROF_TOP];
	unsigned n_top[PD_PROF_GROUPS][2];
	struct pd_prof_dso *dsos;	/* self summed per DSO, descending */
	unsigned n_dsos;
	double *sym_group_self;		/* [sym * PD_PROF_GROUPS + group] */
	double *sym_group_incl;		/* busy samples only */
	struct pd_prof_group groups[PD_PROF_GROUPS];
	unsigned n_groups;
	double *cpu_total, *cpu_idle;	/* [n_cpu_slots], by CPU number */
	unsigned n_cpu_slots;
	const char *symbols;		/* where names came from */
	bool symbols_missing;		/* some addresses had no name */
	bool kernel_unnamed;		/* kernel samples without kallsyms */
};

/* Records that filename has build id bid (raw bytes, n of them). */
void pd_profile_buildid(struct pd_profile *p, struct pd_arena *a,
    const char *filename, const unsigned char *bid, size_t n);
/* After a reader's last sample: totals into p, and a note on d when the
 * memory bounds left samples or stacks out. */
struct pd_diag;
void pd_profile_end(struct pd_profile *p, struct pd_diag *d);
/* Sorts symbols by address and keeps, of those at one address, the one
 * perf report shows; returns how many are left. */
unsigned pd_syms_settle(struct pd_sym *v, unsigned n);
/* The symbol holding addr: the last one at or below it, within its size
 * (or, sized 0, below the next one); NULL when none. */
const struct pd_sym *pd_sym_at(const struct pd_sym *v, unsigned n,
    uint64_t addr);

struct pd_profile *pd_host_profile(struct pd_host *h, struct pd_arena *a,
    const char *member, const char *reader);
/* Names and sums every profile of the host; run by finalize. */
void pd_profile_symbolise(struct pd_host *h, struct pd_arena *a);
/* Up to n indexes into p->syms of the hottest non-idle symbols of core
 * type g (-1: all samples), by self or by inclusive period; returns
 * how many. */
unsigned pd_profile_top(const struct pd_profile *p, int g, bool inclusive,
    unsigned *out, unsigned n);
/* Per group, the period of the stacks holding at least one symbol that
 * match accepts (each stack once: nested matches do not add up). */
void pd_profile_stack_share(const struct pd_profile *p,
    bool (*match)(const struct pd_prof_sym *s, void *ctx), void *ctx,
    double out[PD_PROF_GROUPS]);
/* p->top, p->n_top and p->dsos, once p->syms is final (finalize). */
void pd_profile_views(struct pd_profile *p, struct pd_arena *a);

#endif

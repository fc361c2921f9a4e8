/* The streaming side of CPU profiles, for the perf readers: samples,
 * mappings and forks into bounded tables of distinct addresses, self
 * counts and call stacks (src/decode/profile.c), and the symbol tables
 * of kallsyms and ELF files (src/decode/symtab.c). */
#ifndef PD_DECODE_PROFILE_H
#define PD_DECODE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pathdoctor/profile.h"

struct pd_arena;
struct pd_diag;

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
#define PD_PROF_NAME_MAX 4096		/* bytes of a symbol or DSO name kept */
#define PD_PROF_NAME_BYTES (64u << 20)	/* bytes of all names, interned */

struct pd_prof_raw;

struct pd_prof_raw *pd_prof_raw_new(void);
void pd_prof_raw_free(struct pd_prof_raw *r);
/* The interned names of r (named frames) go to the arena, which frees
 * them with itself; the profile's symbols point at them. */
struct pd_arena;
void pd_prof_raw_give_names(struct pd_prof_raw *r, struct pd_arena *a);
/* A process fork (perf FORK records where pid != ppid). */
void pd_prof_fork(struct pd_prof_raw *r, uint32_t pid, uint32_t ppid);
/* An executable mapping (perf MMAP/MMAP2). */
void pd_prof_map(struct pd_prof_raw *r, uint32_t pid, uint64_t start,
    uint64_t len, uint64_t pgoff, const char *filename);
/* The mappings and forks of src, appended to dst: one file's events
 * share its processes' mappings. */
void pd_prof_raw_copy_maps(struct pd_prof_raw *dst,
    const struct pd_prof_raw *src);
/* A raw sample's key, for the memo of samples seen before
 * (src/decode/prof_memo.c): XXH3's 128-bit hash of its pid, mode, ip
 * and call chain (with PERF_CONTEXT_* markers, as perf records it),
 * seeded with its cpu (-1 when unknown).  The words hashed lie in one
 * run: the chain is preceded by PD_PROF_KEY_HEAD words of the caller's,
 * which pd_prof_sample_key writes.  No chain: the zero key, which the
 * memo never holds.  pd_prof_prefetch asks for what the sample will
 * read (stage 0: its memo entry; 1, once that has arrived: the self and
 * stack entries a hit adds to), so that a queue of samples waits for
 * memory once, not once per sample; pd_prof_sample_keyed adds the
 * sample. */
#define PD_PROF_KEY_HEAD 2
#define PD_PROF_STAGES 2
struct pd_prof_key {
	uint64_t lo, hi;
};

struct pd_prof_key pd_prof_sample_key(uint32_t pid, int cpu,
    enum pd_cpumode mode, uint64_t ip, uint64_t *chain, unsigned n_chain);
void pd_prof_prefetch(const struct pd_prof_raw *r, struct pd_prof_key key,
    int stage);
void pd_prof_sample_keyed(struct pd_prof_raw *r, struct pd_prof_key key,
    uint32_t pid, int cpu, enum pd_cpumode mode, uint64_t period,
    uint64_t ip, const uint64_t *chain, unsigned n_chain);
/* The long way of pd_prof_sample_keyed, without its memo, in two
 * halves, for a reader whose second thread adds the samples
 * (formats/perf_data_queue.c): pd_prof_frames interns the sample's
 * addresses, the leaf first, into ids (at most PD_PROF_CHAIN) and
 * returns how many (0: no room for the leaf); pd_prof_add_frames adds
 * the sample by them to the self counts and, with a chain, the stacks.
 * The first touches only the table of addresses and the second only the
 * rest, so one thread may run each.  Fed the same samples in the same
 * order, the tables end the same as by pd_prof_sample_keyed, also
 * where some samples go one way and some the other. */
unsigned pd_prof_frames(struct pd_prof_raw *r, uint32_t pid,
    enum pd_cpumode mode, uint64_t ip, const uint64_t *chain,
    unsigned n_chain, uint32_t *ids);
void pd_prof_add_frames(struct pd_prof_raw *r, int cpu, uint64_t period,
    const uint32_t *ids, unsigned n, bool has_chain);
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

/* profile.c: a new profile of the host, with its streaming tables
 * (released with the arena). */
struct pd_profile *pd_host_profile(struct pd_host *h, struct pd_arena *a,
    const char *member, const char *reader);
/* Records that filename has build id bid (raw bytes, n of them). */
void pd_profile_buildid(struct pd_profile *p, struct pd_arena *a,
    const char *filename, const unsigned char *bid, size_t n);
/* After a reader's last sample: totals into p, and a note on d when the
 * memory bounds left samples or stacks out. */
void pd_profile_end(struct pd_profile *p, struct pd_diag *d);

/* symtab.c: sorts symbols by address and keeps, of those at one
 * address, the one perf report shows; returns how many are left. */
unsigned pd_syms_settle(struct pd_sym *v, unsigned n);
/* The symbol holding addr: the last one at or below it, within its size
 * (or, sized 0, below the next one); NULL when none. */
const struct pd_sym *pd_sym_at(const struct pd_sym *v, unsigned n,
    uint64_t addr);

#endif

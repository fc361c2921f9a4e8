/* The streaming tables of a profile, shared by src/decode/profile.c (filling)
 * and src/finalize/symbolise.c (naming and summing); nothing else sees them. */
#ifndef PD_PROF_RAW_H
#define PD_PROF_RAW_H

#include <stdbool.h>
#include <stdint.h>
#include "decode/profile.h"

struct prof_addr {
	uint64_t ip;
	uint32_t pid;
	uint8_t mode;		/* enum pd_cpumode */
};

struct prof_self {
	uint64_t key;		/* cpu << 32 | address index */
	double period;
	uint64_t samples;
	bool used;
};

struct prof_stack {
	uint64_t hash;
	double period;
	uint32_t off, n;	/* address indexes in slots[off..off+n) */
	int cpu;
};

struct prof_map {
	uint64_t start, len, pgoff;
	uint32_t pid;
	char *filename;
};

/* A sample named in text (perf script, perf report): its address in
 * prof_addr is the index of one of these, with pid PROF_NAMED_PID. */
#define PROF_NAMED_PID 0xfffffffeu

struct prof_name {
	char *dso, *sym;
	bool kernel;
	double inclusive;	/* perf report's Children; < 0: from stacks */
};

/* A process forked from another (perf FORK with pid != ppid): until it
 * maps files of its own, it runs in its parent's mappings. */
struct prof_fork {
	uint32_t pid, ppid;
};

/* A raw sample seen before (src/decode/prof_memo.c): its key (zero:
 * unused), its cpu, and the self slot and the stack it added to; two
 * to a cache line. */
struct prof_memo {
	uint64_t lo, hi;
	uint32_t self, stack;
	int32_t cpu, pad;
};

#define PROF_MEMO (1u << 16)	/* entries, in pairs: 2 MB */

static inline uint64_t
pd_prof_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0xff51afd7ed558ccdu;
	return h ^ h >> 32;
}

/* Interned names: bump-allocated from these blocks, each string once. */
struct prof_pool {
	struct prof_pool *next;
	size_t used, cap;
	char buf[];
};

struct pd_prof_raw {
	/* the table of addresses, written by the decoding thread while
	 * another adds to the rest (pd_prof_frames): between pads of a
	 * cache line, so that neither thread's stores take the other's
	 * line */
	char pad_before[64];
	struct prof_addr *addrs;
	unsigned n_addrs, cap_addrs;
	uint32_t *addr_index;
	unsigned addr_index_size;
	char pad_after[64];
	struct prof_self *self;
	unsigned n_self, self_size;
	struct prof_stack *stacks;	/* [n_stacks], in the order seen */
	unsigned n_stacks, cap_stacks;
	uint64_t *stack_index;		/* see add_stack in profile.c */
	unsigned stack_index_size;
	uint32_t *slots;
	unsigned n_slots, cap_slots;
	struct prof_memo *memo;		/* [PROF_MEMO], once a chain came */
	uint64_t memo_hits;		/* samples the memo added */
	struct prof_map *maps;
	unsigned n_maps, cap_maps;
	struct prof_fork *forks;
	unsigned n_forks, cap_forks;
	struct prof_name *names;
	unsigned n_names, cap_names;
	uint32_t *name_index;
	unsigned name_index_size;
	struct prof_pool *pool;
	size_t name_bytes;	/* in the pool, at most PD_PROF_NAME_BYTES */
	uint64_t names_cut, names_over;	/* names cut; samples left out */
	bool total_fixed;	/* period set by the reader, not summed */
	uint64_t samples, dropped, stacks_dropped, maps_dropped;
	double period;
};

struct pd_prof_raw;
/* prof_memo.c: the memo's use by src/decode/profile.c */
bool pd_prof_memo_hit(struct pd_prof_raw *r, struct pd_prof_key key,
    int cpu, uint64_t period);
void pd_prof_memo_put(struct pd_prof_raw *r, struct pd_prof_key key,
    int cpu, uint32_t self, uint32_t stack);
/* The memo's slots of the self table follow its move: moved[i] is
 * where slot i of the n went; moved is freed.  (A stack's index does
 * not move.) */
void pd_prof_memo_moved(struct pd_prof_raw *r, uint32_t *moved, unsigned n);
void pd_prof_memo_free(struct pd_prof_raw *r);

#endif

/* Hash indexes over model records, and a stable sort of pointer arrays:
 * what keeps lookups and the model's sorted lists linear or n log n in
 * the number of records a hostile bundle can make. */
#ifndef PD_MODEL_INDEX_H
#define PD_MODEL_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_arena;

/* An open-addressing table of record pointers by a caller's hash; it
 * grows by doubling (in the arena) and so never holds more than four
 * slots per record the readers made. */
struct pd_index {
	struct pd_index_slot *slot;
	size_t cap, used;		/* used counts removed slots too */
};

typedef bool pd_index_eq(const void *item, const void *key);

uint64_t pd_hash_str(const char *s);
uint64_t pd_hash_u64(uint64_t v);
void *pd_index_find(const struct pd_index *ix, uint64_t hash,
    pd_index_eq *eq, const void *key);
void pd_index_add(struct pd_index *ix, struct pd_arena *a, uint64_t hash,
    void *item);
/* Forgets item (stored under hash); false when it was not there. */
bool pd_index_del(struct pd_index *ix, uint64_t hash, const void *item);

/* Sorts v[0..n) by cmp, keeping equal elements in their order (merge
 * sort, n pointers of scratch). */
void pd_sort_ptrs(void **v, size_t n,
    int (*cmp)(const void *, const void *));

/* What a host keeps beside its lists while the readers fill them: the
 * lists by key are built by prepending (readers never walk them in
 * order) and pd_model_sort puts them in key order once; the lists kept
 * in arrival order append at their tails. */
struct pd_host_private {
	struct pd_index pcidevs, netdevs, edges, sysctls, cpu_types;
	struct pd_kv **cmdline_tail;
	struct pd_model_note **notes_tail;
	struct pd_unused **unused_tail;
};

/* The model's own: hosts by key. */
struct pd_model_private {
	struct pd_index hosts;
	bool sorted;		/* lists reversed and sorted: never twice */
};

#endif

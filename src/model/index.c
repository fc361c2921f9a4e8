/* Hash indexes and a stable pointer sort (see index.h). */
#include <stdlib.h>
#include <string.h>
#include "model/index.h"
#include "pathdoctor/arena.h"

struct pd_index_slot {
	uint64_t hash;
	void *item;			/* NULL empty; &removed removed */
};

static char removed;

uint64_t
pd_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

uint64_t
pd_hash_u64(uint64_t v)
{
	v ^= v >> 33;			/* splitmix64's finaliser */
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ull;
	return v ^ (v >> 33);
}

void *
pd_index_find(const struct pd_index *ix, uint64_t hash, pd_index_eq *eq,
    const void *key)
{
	if (!ix->cap)
		return NULL;
	for (size_t i = hash & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
		struct pd_index_slot *s = &ix->slot[i];

		if (!s->item)
			return NULL;
		if (s->item != &removed && s->hash == hash && eq(s->item, key))
			return s->item;
	}
}

static void
put(struct pd_index_slot *slot, size_t cap, uint64_t hash, void *item)
{
	size_t i = hash & (cap - 1);

	while (slot[i].item)
		i = (i + 1) & (cap - 1);
	slot[i].hash = hash;
	slot[i].item = item;
}

/* At most half full, so probes stay short and a free slot always ends
 * them; removed slots are dropped when the table is rebuilt. */
static void
grow(struct pd_index *ix, struct pd_arena *a)
{
	size_t cap = ix->cap ? ix->cap * 2 : 64, used = 0;
	struct pd_index_slot *slot = pd_arena_alloc(a, cap * sizeof(*slot));

	for (size_t i = 0; i < ix->cap; i++) {
		struct pd_index_slot *s = &ix->slot[i];

		if (s->item && s->item != &removed) {
			put(slot, cap, s->hash, s->item);
			used++;
		}
	}
	ix->slot = slot;
	ix->cap = cap;
	ix->used = used;
}

void
pd_index_add(struct pd_index *ix, struct pd_arena *a, uint64_t hash,
    void *item)
{
	if ((ix->used + 1) * 2 > ix->cap)
		grow(ix, a);
	put(ix->slot, ix->cap, hash, item);
	ix->used++;
}

bool
pd_index_del(struct pd_index *ix, uint64_t hash, const void *item)
{
	if (!ix->cap)
		return false;
	for (size_t i = hash & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
		struct pd_index_slot *s = &ix->slot[i];

		if (!s->item)
			return false;
		if (s->item == item) {
			s->item = &removed;	/* probes go on past it */
			return true;
		}
	}
}

static void
merge(void **v, void **tmp, size_t lo, size_t mid, size_t hi,
    int (*cmp)(const void *, const void *))
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)	/* <= 0 takes the left: stable */
		tmp[k++] = cmp(v[i], v[j]) <= 0 ? v[i++] : v[j++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < hi)
		tmp[k++] = v[j++];
	memcpy(v + lo, tmp + lo, (hi - lo) * sizeof(*v));
}

void
pd_sort_ptrs(void **v, size_t n, int (*cmp)(const void *, const void *))
{
	void **tmp;

	if (n < 2)
		return;
	if (!(tmp = malloc(n * sizeof(*tmp))))
		abort();	/* as the arena does: nothing better to do */
	for (size_t w = 1; w < n; w *= 2)	/* bottom-up: no recursion */
		for (size_t lo = 0; lo + w < n; lo += 2 * w)
			merge(v, tmp, lo, lo + w, lo + 2 * w < n ? lo + 2 * w :
			    n, cmp);
	free(tmp);
}

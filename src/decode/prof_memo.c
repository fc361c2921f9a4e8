/* The memo of raw samples (prof_raw.h): a sample whose pid, cpu, mode,
 * ip and chain were seen before adds its period where that one's did,
 * without resolving each frame again.  Two entries a hash, each holding
 * the sample's key, its cpu, and the self slot and the stack its sample
 * added to.  Used only when the tables would neither grow nor drop on
 * this sample, so the sums are the same additions in the same order as
 * the long way's.
 *
 * The key is trusted without the sample's words beside it: XXH3's
 * 128-bit hash, whose output on distinct inputs is as good as random
 * (SMHasher's tests), so a lookup, which compares two entries, finds
 * another sample's with odds of 2^-127, and 2^40 lookups (a million
 * profiles of a million samples) one with odds below 2^-87.  Where the
 * entries held copies of the samples' words to compare, in a ring of
 * 8 MB, that ring was most of the fresh memory a profile touched, and
 * the copy and the compare a tenth of its samples (the scaled profile
 * of tests/bench-profile.sh, 217 k samples).  XXH3 is no defence
 * against a file written to collide; such a file can make one sample
 * add where another of its own would have, which it could have written
 * as that sample in the first place: the indexes held are always in
 * the tables. */
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "base/bigmem.h"
#include "decode/prof_raw.h"
#include "decode/profile.h"

struct pd_prof_key
pd_prof_sample_key(uint32_t pid, int cpu, enum pd_cpumode mode,
    uint64_t ip, uint64_t *chain, unsigned n_chain)
{
	if (!chain)
		return (struct pd_prof_key){ 0, 0 };
	uint64_t *head = chain - PD_PROF_KEY_HEAD;

	head[0] = (uint64_t)pid << 32 | (uint64_t)mode << 16 | n_chain;
	head[1] = ip;
	XXH128_hash_t h = XXH3_128bits_withSeed(head,
	    (n_chain + PD_PROF_KEY_HEAD) * sizeof(*head),
	    (uint64_t)(uint32_t)cpu);

	return (struct pd_prof_key){ h.low64, h.high64 };
}

static bool
key_zero(struct pd_prof_key k)
{
	return !(k.lo | k.hi);
}

static bool
entry_used(const struct prof_memo *e)
{
	return e->lo | e->hi;
}

static bool
key_same(const struct prof_memo *e, struct pd_prof_key k)
{
	return e->lo == k.lo && e->hi == k.hi;
}

static struct prof_memo *
memo_pair(const struct pd_prof_raw *r, struct pd_prof_key key)
{
	return &r->memo[key.lo & (PROF_MEMO - 2)];
}

/* The entry of key in its pair, or NULL. */
static const struct prof_memo *
memo_find(const struct pd_prof_raw *r, struct pd_prof_key key)
{
	const struct prof_memo *e = memo_pair(r, key);

	if (key_same(e, key))
		return e;
	e++;
	return key_same(e, key) ? e : NULL;
}

bool
pd_prof_memo_hit(struct pd_prof_raw *r, struct pd_prof_key key, int cpu,
    uint64_t period)
{
	if (!r->memo || key_zero(key) ||
	    (r->n_self + 1) * 4 >= r->self_size * 3 ||
	    (r->n_stacks + 1) * 4 >= r->stack_index_size * 3)
		return false;
	const struct prof_memo *e = memo_find(r, key);

	if (!e || e->cpu != cpu)
		return false;
	struct prof_self *se = &r->self[e->self];
	struct prof_stack *st = &r->stacks[e->stack];	/* < n_stacks */

	if (!se->used)
		return false;
	r->memo_hits++;
	r->samples++;
	r->period += (double)period;
	se->period += (double)period;
	se->samples++;
	st->period += (double)period;
	return true;
}

/* The newest first in its pair; an entry of the same key (whose sample
 * was of another cpu) is replaced. */
void
pd_prof_memo_put(struct pd_prof_raw *r, struct pd_prof_key key, int cpu,
    uint32_t self, uint32_t stack)
{
	if (self == UINT32_MAX || stack == UINT32_MAX || key_zero(key))
		return;
	if (!r->memo)
		r->memo = pd_big_alloc(PROF_MEMO * sizeof(*r->memo));
	struct prof_memo *e = memo_pair(r, key);

	if (!key_same(&e[0], key))
		e[1] = e[0];
	e[0] = (struct prof_memo){ .lo = key.lo, .hi = key.hi,
	    .self = self, .stack = stack, .cpu = cpu };
}

void
pd_prof_memo_moved(struct pd_prof_raw *r, uint32_t *moved, unsigned n)
{
	if (!moved)
		return;
	for (unsigned i = 0; i < PROF_MEMO; i++) {
		struct prof_memo *e = &r->memo[i];

		if (entry_used(e))
			e->self = moved[e->self];
	}
	pd_big_free(moved, n * sizeof(*moved));
}

void
pd_prof_memo_free(struct pd_prof_raw *r)
{
	pd_big_free(r->memo, r->memo ? PROF_MEMO * sizeof(*r->memo) : 0);
}

void
pd_prof_prefetch(const struct pd_prof_raw *r, struct pd_prof_key key,
    int stage)
{
	if (!r->memo || key_zero(key))
		return;
	if (stage == 0) {
		__builtin_prefetch(memo_pair(r, key));
		return;
	}
	/* stage 1: what a hit adds to */
	const struct prof_memo *e = memo_find(r, key);

	if (!e || e->self >= r->self_size || e->stack >= r->n_stacks)
		return;
	__builtin_prefetch(&r->self[e->self]);
	__builtin_prefetch(&r->stacks[e->stack]);
}

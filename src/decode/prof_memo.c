/* The memo of raw samples (prof_raw.h): a sample whose pid, cpu, mode,
 * ip and chain were seen before adds its period where that one's did,
 * without resolving each frame again.  Two entries a hash, each holding
 * the self slot and the stack its sample added to and where a copy of
 * the sample's words lies in a bounded ring, compared word for word
 * before use: a hash collision, or a copy the ring has written over,
 * costs only the long way.  Used only when the tables would neither
 * grow nor drop on this sample, so the sums are the same additions in
 * the same order as the long way's. */
#include <stddef.h>
#include <string.h>
#include "base/bigmem.h"
#include "decode/prof_raw.h"
#include "decode/profile.h"

static uint64_t
raw_hash(uint32_t pid, int cpu, uint8_t mode, uint64_t ip,
    const uint64_t *chain, unsigned n_chain)
{
	uint64_t h = pd_prof_mix(pd_prof_mix(pd_prof_mix(0x6d656d6f, pid),
	    (uint64_t)(uint32_t)cpu), (uint64_t)mode << 32 | n_chain);
	/* two lanes, so that each multiply need not wait for the one
	 * before: the chain is most of a sample's cost here */
	uint64_t a = pd_prof_mix(h, ip), b = 0x9e3779b97f4a7c15u;
	unsigned i = 0;

	for (; i + 1 < n_chain; i += 2) {
		a = pd_prof_mix(a, chain[i]);
		b = pd_prof_mix(b, chain[i + 1]);
	}
	if (i < n_chain)
		a = pd_prof_mix(a, chain[i]);
	return pd_prof_mix(a, b);
}

uint64_t
pd_prof_sample_hash(uint32_t pid, int cpu, enum pd_cpumode mode,
    uint64_t ip, const uint64_t *chain, unsigned n_chain)
{
	return chain ? raw_hash(pid, cpu, (uint8_t)mode, ip, chain, n_chain) :
	    0;
}

/* The copy's first word: what else, beside ip and chain, makes the
 * sample what it is (cpu is in the entry). */
static uint64_t
head_word(uint32_t pid, uint8_t mode, unsigned n_chain)
{
	return (uint64_t)pid << 32 | (uint64_t)mode << 16 | n_chain;
}

static struct prof_memo *
memo_pair(const struct pd_prof_raw *r, uint64_t hash)
{
	return &r->memo[hash & (PROF_MEMO - 2)];
}

/* The entry of hash in its pair, or NULL. */
static const struct prof_memo *
memo_find(const struct pd_prof_raw *r, uint64_t hash)
{
	const struct prof_memo *e = memo_pair(r, hash);

	if (e->pos && e->hash == hash)
		return e;
	e++;
	return e->pos && e->hash == hash ? e : NULL;
}

/* Where the copy of e lies; NULL once the ring has written over it. */
static const uint64_t *
memo_copy(const struct pd_prof_raw *r, const struct prof_memo *e)
{
	if (r->ring_pos > e->pos + PROF_RING_WORDS)
		return NULL;
	return r->ring + e->pos % PROF_RING_WORDS;
}

bool
pd_prof_memo_hit(struct pd_prof_raw *r, uint64_t hash, uint32_t pid,
    int cpu, uint8_t mode, uint64_t period, uint64_t ip,
    const uint64_t *chain, unsigned n_chain)
{
	if (!r->memo || (r->n_self + 1) * 4 >= r->self_size * 3 ||
	    (r->n_stacks + 1) * 4 >= r->stack_index_size * 3)
		return false;
	const struct prof_memo *e = memo_find(r, hash);
	const uint64_t *w;

	if (!e || e->cpu != cpu || !(w = memo_copy(r, e)) ||
	    w[0] != head_word(pid, mode, n_chain) || w[1] != ip ||
	    memcmp(w + 2, chain, n_chain * sizeof(*chain)) != 0)
		return false;
	struct prof_self *se = &r->self[e->self];
	struct prof_stack *st = &r->stacks[e->stack];	/* < n_stacks */

	if (!se->used)
		return false;
	r->samples++;
	r->period += (double)period;
	se->period += (double)period;
	se->samples++;
	st->period += (double)period;
	return true;
}

/* The newest first in its pair; an entry of the same hash (whose
 * sample was another) is replaced.  The copy goes at the ring's next
 * position, or at the start of its next lap when it would not fit
 * before the end. */
void
pd_prof_memo_put(struct pd_prof_raw *r, uint64_t hash, uint32_t self,
    uint32_t stack, uint32_t pid, int cpu, uint8_t mode, uint64_t ip,
    const uint64_t *chain, unsigned n_chain)
{
	size_t words = (size_t)n_chain + 2;

	if (self == UINT32_MAX || stack == UINT32_MAX ||
	    words > PROF_RING_WORDS)
		return;
	if (!r->memo) {
		r->memo = pd_big_alloc(PROF_MEMO * sizeof(*r->memo));
		r->ring = pd_big_alloc(PROF_RING_WORDS * sizeof(*r->ring));
		r->ring_pos = PROF_RING_WORDS;	/* pos 0: an unused entry */
	}
	if (r->ring_pos % PROF_RING_WORDS + words > PROF_RING_WORDS)
		r->ring_pos += PROF_RING_WORDS - r->ring_pos % PROF_RING_WORDS;
	uint64_t *w = r->ring + r->ring_pos % PROF_RING_WORDS;

	w[0] = head_word(pid, mode, n_chain);
	w[1] = ip;
	memcpy(w + 2, chain, n_chain * sizeof(*chain));
	struct prof_memo *e = memo_pair(r, hash);

	if (e[0].hash != hash || !e[0].pos)
		e[1] = e[0];
	e[0] = (struct prof_memo){ .hash = hash, .pos = r->ring_pos,
	    .self = self, .stack = stack, .cpu = cpu };
	r->ring_pos += words;
}

void
pd_prof_memo_moved(struct pd_prof_raw *r, uint32_t *moved, unsigned n)
{
	if (!moved)
		return;
	for (unsigned i = 0; i < PROF_MEMO; i++) {
		struct prof_memo *e = &r->memo[i];

		if (e->pos)
			e->self = moved[e->self];
	}
	pd_big_free(moved, n * sizeof(*moved));
}

void
pd_prof_memo_free(struct pd_prof_raw *r)
{
	pd_big_free(r->memo, r->memo ? PROF_MEMO * sizeof(*r->memo) : 0);
	pd_big_free(r->ring, r->ring ? PROF_RING_WORDS * sizeof(*r->ring) :
	    0);
}

void
pd_prof_prefetch(const struct pd_prof_raw *r, uint64_t hash, unsigned n,
    int stage)
{
	if (!r->memo)
		return;
	if (stage == 0) {
		__builtin_prefetch(memo_pair(r, hash));
		return;
	}
	const struct prof_memo *e = memo_find(r, hash);
	const uint64_t *w;

	if (!e || e->self >= r->self_size || e->stack >= r->n_stacks ||
	    !(w = memo_copy(r, e)))
		return;
	if (stage == 1) {
		/* the copy's lines, as long as this sample's would be, up
		 * to the ring's end */
		size_t left = PROF_RING_WORDS - (size_t)(w - r->ring);
		size_t words = (size_t)n + 2 < left ? (size_t)n + 2 : left;

		for (size_t k = 0; k < words; k += 8)
			__builtin_prefetch(w + k);
		return;
	}
	/* stage 2: what a hit adds to */
	__builtin_prefetch(&r->self[e->self]);
	__builtin_prefetch(&r->stacks[e->stack]);
}

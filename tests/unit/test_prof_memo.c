/* The memo of raw samples (src/decode/prof_memo.c) changes how fast a
 * profile is read, never what it holds: fed the same samples, tables
 * filled with the real hashes, with one hash for every sample (each a
 * collision) and with a new hash for each (the memo never found) are
 * equal field for field, also once the ring of copies has gone round.
 * So are tables filled by the two halves of the long way
 * (pd_prof_frames, pd_prof_add_frames), alone or taking turns with the
 * memo's way as the perf.data reader's two threads do, also where the
 * bounds on addresses and stacks drop samples. */
#include <string.h>
#include "helpers.h"
#include "decode/prof_raw.h"
#include "decode/profile.h"

#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)

enum way { REAL_HASH, ONE_HASH, NEW_HASH, FRAMES, TURNS };

/* sample k (of kinds kinds) of chain length len: the same k always
 * gives the same sample */
static unsigned
make(uint64_t k, unsigned len, uint32_t *pid, int *cpu, uint64_t *ip,
    uint64_t *chain)
{
	uint64_t s = k;
	unsigned n = 0;

	*pid = 1 + (uint32_t)(test_random(&s) % 2);
	*cpu = (int)(test_random(&s) % 2);
	/* few leaves, so that one hash for all finds many an entry of the
	 * same pid, cpu and leaf but another chain */
	*ip = 0xffffffff81000000u + 4 * (test_random(&s) % 4);
	chain[n++] = CTX_KERNEL;
	chain[n++] = *ip;
	while (n < len) {
		if (n == len / 2)
			chain[n++] = CTX_USER;
		else
			chain[n++] = 0x400000 + 16 * (test_random(&s) % 32);
	}
	return n;
}

/* Sample i the way w: TURNS takes runs of 300 samples by the memo's
 * way and by the halves in turn, as the reader's batches do. */
static void
add_sample(struct pd_prof_raw *r, enum way w, uint64_t i, uint32_t pid,
    int cpu, uint64_t period, uint64_t ip, const uint64_t *chain,
    unsigned n)
{
	if (w == FRAMES || (w == TURNS && i / 300 % 2)) {
		uint32_t ids[PD_PROF_CHAIN];

		pd_prof_add_frames(r, cpu, period, ids, pd_prof_frames(r, pid,
		    PD_MODE_KERNEL, ip, chain, n, ids), chain != NULL);
		return;
	}
	uint64_t h = w == ONE_HASH ? 42 : w == NEW_HASH ? i + 1 :
	    pd_prof_sample_hash(pid, cpu, PD_MODE_KERNEL, ip, chain, n);

	pd_prof_prefetch(r, h, n, 0);
	pd_prof_sample_hashed(r, h, pid, cpu, PD_MODE_KERNEL, period, ip,
	    chain, n);
}

static void
feed(struct pd_prof_raw *r, enum way w, uint64_t i, uint64_t k,
    unsigned len)
{
	uint64_t chain[PD_PROF_CHAIN], ip;
	uint32_t pid;
	int cpu;
	unsigned n = make(k, len, &pid, &cpu, &ip, chain);
	add_sample(r, w, i, pid, cpu, 1000 + k % 7, ip, chain, n);
}

static void
assert_same(const struct pd_prof_raw *a, const struct pd_prof_raw *b)
{
	assert_int_equal(a->samples, b->samples);
	assert_int_equal(a->dropped, b->dropped);
	assert_int_equal(a->stacks_dropped, b->stacks_dropped);
	assert_true(a->period == b->period);
	assert_int_equal(a->n_addrs, b->n_addrs);
	assert_int_equal(a->n_self, b->n_self);
	assert_int_equal(a->self_size, b->self_size);
	assert_int_equal(a->n_stacks, b->n_stacks);
	assert_int_equal(a->stack_index_size, b->stack_index_size);
	assert_int_equal(a->n_slots, b->n_slots);
	for (unsigned i = 0; i < a->self_size; i++) {
		assert_int_equal(a->self[i].used, b->self[i].used);
		assert_int_equal(a->self[i].key, b->self[i].key);
		assert_true(a->self[i].period == b->self[i].period);
		assert_int_equal(a->self[i].samples, b->self[i].samples);
	}
	for (unsigned i = 0; i < a->n_stacks; i++) {
		assert_int_equal(a->stacks[i].n, b->stacks[i].n);
		assert_int_equal(a->stacks[i].off, b->stacks[i].off);
		assert_true(a->stacks[i].period == b->stacks[i].period);
	}
	assert_memory_equal(a->slots, b->slots, a->n_slots * sizeof(*a->slots));
	for (unsigned i = 0; i < a->n_addrs; i++) {
		assert_int_equal(a->addrs[i].ip, b->addrs[i].ip);
		assert_int_equal(a->addrs[i].pid, b->addrs[i].pid);
		assert_int_equal(a->addrs[i].mode, b->addrs[i].mode);
	}
}

/* kinds kinds of sample, each len long, rounds times over, through
 * each way up to last; the ring's copies made by the real hashes, as a
 * share of the samples, at most (or, when below is false, more than)
 * share_max. */
static void
compare(unsigned kinds, unsigned rounds, unsigned len, enum way last,
    bool below, double share)
{
	struct pd_prof_raw *r[TURNS + 1] = { NULL };

	for (int w = REAL_HASH; w <= (int)last; w++) {
		uint64_t i = 0;

		r[w] = pd_prof_raw_new();
		for (unsigned round = 0; round < rounds; round++)
			for (uint64_t k = 0; k < kinds; k++, i++)
				feed(r[w], (enum way)w, i, k, len);
	}
	for (int w = ONE_HASH; w <= (int)last; w++)
		assert_same(r[REAL_HASH], r[w]);
	double copies = (double)(r[REAL_HASH]->ring_pos - PROF_RING_WORDS) /
	    (len + 2) / ((double)kinds * rounds);

	assert_true(below ? copies <= share : copies > share);
	for (int w = REAL_HASH; w <= (int)last; w++)
		pd_prof_raw_free(r[w]);
}

static void
test_memo_many_repeats(void **state)
{
	(void)state;
	/* each kind copied once, every later sample of it found */
	compare(300, 20, 12, TURNS, true, 1.0 / 20);
}

/* Past the bounds: first stacks of two callers from 512 leaves and 512
 * callers, more than PD_PROF_STACKS of them; then samples of new
 * addresses only, a leaf and three callers each, until the table of
 * addresses (PD_PROF_ADDRS) is full; then the first ones of both again.
 * The bounds drop the same samples whichever way they came. */
#define PAST_STACKS 210000u
#define PAST_FRESH (PD_PROF_ADDRS / 4 + 3000u)
#define PAST_AGAIN 2000u
_Static_assert(PAST_STACKS > PD_PROF_STACKS, "more stacks than are kept");

static void
sample_past_bounds(struct pd_prof_raw *r, enum way w, uint64_t i,
    unsigned k)
{
	const unsigned stacks = PAST_STACKS, fresh = PAST_FRESH;
	uint64_t chain[5] = { CTX_KERNEL, 0, 0, 0, 0 };
	unsigned n = 5;

	if (k >= stacks + fresh)	/* again */
		k = (k - stacks - fresh) * 97 % (stacks + fresh);
	if (k < stacks) {
		chain[1] = 0xffffffff81000000u + 16 * (k % 512);
		chain[2] = 0xffffffff82000000u + 16 * (k / 512 % 512);
		chain[3] = 0xffffffff83000000u;
		n = 4;
	} else {
		for (unsigned c = 1; c < 5; c++)
			chain[c] = 0xffffffff90000000u + 256 *
			    (uint64_t)(k - stacks) + 64 * (c - 1);
	}
	add_sample(r, w, i, 7, (int)(k % 3), 1000 + k % 5, chain[1], chain,
	    n);
}

static void
test_frames_past_bounds(void **state)
{
	struct pd_prof_raw *r[TURNS + 1] = { NULL };
	const enum way ways[] = { REAL_HASH, FRAMES, TURNS };

	(void)state;
	for (unsigned w = 0; w < 3; w++) {
		r[ways[w]] = pd_prof_raw_new();
		for (unsigned k = 0; k < PAST_STACKS + PAST_FRESH +
		    PAST_AGAIN; k++)
			sample_past_bounds(r[ways[w]], ways[w], k, k);
	}
	/* the bounds were met: samples and stacks left out */
	assert_int_equal(r[REAL_HASH]->n_addrs, PD_PROF_ADDRS);
	assert_true(r[REAL_HASH]->dropped > 0);
	assert_true(r[REAL_HASH]->stacks_dropped > 0);
	assert_same(r[REAL_HASH], r[FRAMES]);
	assert_same(r[REAL_HASH], r[TURNS]);
	for (unsigned w = 0; w < 3; w++)
		pd_prof_raw_free(r[ways[w]]);
}

static void
test_memo_ring_gone_round(void **state)
{
	(void)state;
	/* 2700 kinds of 402 words: 1.09 M words, more than the ring, so
	 * the second round finds the first kinds' copies written over and
	 * copies them again */
	assert_true((size_t)2700 * 402 > PROF_RING_WORDS);
	compare(2700, 2, 400, ONE_HASH, false, 0.5);
}

int
test_group_prof_memo(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo_many_repeats),
		cmocka_unit_test(test_memo_ring_gone_round),
		cmocka_unit_test(test_frames_past_bounds),
	};

	return cmocka_run_group_tests_name("prof-memo", tests, NULL, NULL);
}

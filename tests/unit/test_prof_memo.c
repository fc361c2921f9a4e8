/* The memo of raw samples (src/decode/prof_memo.c) changes how fast a
 * profile is read, never what it holds: fed the same samples, tables
 * filled with the real keys, with keys that all share one pair of
 * entries (told apart by their other half alone) and with a new key
 * for each sample (the memo never found) are equal field for field,
 * also once the memo holds more samples than it has entries.  So are
 * tables filled by the two halves of the long way (pd_prof_frames,
 * pd_prof_add_frames), alone or taking turns with the memo's way as
 * the perf.data reader's two threads do, also where the bounds on
 * addresses and stacks drop samples.  A key covers every field of its
 * sample, and an entry is used only for a sample of its cpu. */
#include <string.h>
#include "helpers.h"
#include "decode/prof_raw.h"
#include "decode/profile.h"

#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)

enum way { REAL_KEY, ONE_PAIR, NEW_KEY, FRAMES, TURNS };

/* sample k (of kinds kinds) of chain length len: the same k always
 * gives the same sample; chain has PD_PROF_KEY_HEAD words before it */
static unsigned
make(uint64_t k, unsigned len, uint32_t *pid, int *cpu, uint64_t *ip,
    uint64_t *chain)
{
	uint64_t s = k;
	unsigned n = 0;

	*pid = 1 + (uint32_t)(test_random(&s) % 2);
	*cpu = (int)(test_random(&s) % 2);
	/* few leaves, so that one pair for all holds many an entry of the
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
    int cpu, uint64_t period, uint64_t ip, uint64_t *chain, unsigned n)
{
	if (w == FRAMES || (w == TURNS && i / 300 % 2)) {
		uint32_t ids[PD_PROF_CHAIN];

		pd_prof_add_frames(r, cpu, period, ids, pd_prof_frames(r, pid,
		    PD_MODE_KERNEL, ip, chain, n, ids), chain != NULL);
		return;
	}
	struct pd_prof_key key = pd_prof_sample_key(pid, cpu, PD_MODE_KERNEL,
	    ip, chain, n);

	if (w == ONE_PAIR)
		key.lo = 42;
	else if (w == NEW_KEY)
		key = (struct pd_prof_key){ i + 1, 7 };
	pd_prof_prefetch(r, key, 0);
	pd_prof_prefetch(r, key, 1);
	pd_prof_sample_keyed(r, key, pid, cpu, PD_MODE_KERNEL, period, ip,
	    chain, n);
}

static void
feed(struct pd_prof_raw *r, enum way w, uint64_t i, uint64_t k,
    unsigned len)
{
	uint64_t words[PD_PROF_KEY_HEAD + PD_PROF_CHAIN], *chain, ip;
	uint32_t pid;
	int cpu;

	chain = words + PD_PROF_KEY_HEAD;
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
 * each way up to last; the samples the memo added by the real keys, as
 * a share of those it could have (all but each kind's first), at least
 * (or, when above is false, less than) share. */
static void
compare(unsigned kinds, unsigned rounds, unsigned len, enum way last,
    bool above, double share)
{
	struct pd_prof_raw *r[TURNS + 1] = { NULL };

	for (int w = REAL_KEY; w <= (int)last; w++) {
		uint64_t i = 0;

		r[w] = pd_prof_raw_new();
		for (unsigned round = 0; round < rounds; round++)
			for (uint64_t k = 0; k < kinds; k++, i++)
				feed(r[w], (enum way)w, i, k, len);
	}
	for (int w = ONE_PAIR; w <= (int)last; w++)
		assert_same(r[REAL_KEY], r[w]);
	assert_int_equal(r[NEW_KEY]->memo_hits, 0);
	double found = (double)r[REAL_KEY]->memo_hits /
	    ((double)kinds * (rounds - 1));

	assert_true(above ? found >= share : found < share);
	for (int w = REAL_KEY; w <= (int)last; w++)
		pd_prof_raw_free(r[w]);
}

static void
test_memo_many_repeats(void **state)
{
	(void)state;
	/* each kind added the long way once, nearly every later sample of
	 * it found (a few share a pair with two others) */
	compare(300, 20, 12, TURNS, true, 0.99);
}

static void
test_memo_more_than_held(void **state)
{
	(void)state;
	/* 98 k kinds, more than the memo's 64 k entries: the second round
	 * finds the first kinds' entries replaced by later ones, and only
	 * some of it is found */
	assert_true(98304 > PROF_MEMO);
	compare(98304, 2, 6, NEW_KEY, false, 0.9);
}

/* Every field of a sample is in its key, the head words are the key's
 * own, and no chain is the zero key. */
static void
test_key_covers_sample(void **state)
{
	uint64_t w[PD_PROF_KEY_HEAD + 4], *chain = w + PD_PROF_KEY_HEAD;
	const uint64_t base[4] = { CTX_KERNEL, 0xffffffff81000010u,
	    0xffffffff81000200u, 0xffffffff81000300u };
	struct pd_prof_key k[8];

	(void)state;
	memcpy(chain, base, sizeof(base));
	k[0] = pd_prof_sample_key(7, 1, PD_MODE_KERNEL, base[1], chain, 4);
	assert_true(k[0].lo || k[0].hi);
	k[1] = pd_prof_sample_key(8, 1, PD_MODE_KERNEL, base[1], chain, 4);
	k[2] = pd_prof_sample_key(7, 2, PD_MODE_KERNEL, base[1], chain, 4);
	k[3] = pd_prof_sample_key(7, -1, PD_MODE_KERNEL, base[1], chain, 4);
	k[4] = pd_prof_sample_key(7, 1, PD_MODE_USER, base[1], chain, 4);
	k[5] = pd_prof_sample_key(7, 1, PD_MODE_KERNEL, base[2], chain, 4);
	k[6] = pd_prof_sample_key(7, 1, PD_MODE_KERNEL, base[1], chain, 3);
	chain[3] ^= 1;
	k[7] = pd_prof_sample_key(7, 1, PD_MODE_KERNEL, base[1], chain, 4);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned j = i + 1; j < 8; j++)
			assert_false(k[i].lo == k[j].lo && k[i].hi == k[j].hi);
	chain[3] ^= 1;
	w[0] = w[1] = 0;
	struct pd_prof_key again = pd_prof_sample_key(7, 1, PD_MODE_KERNEL,
	    base[1], chain, 4);

	assert_true(again.lo == k[0].lo && again.hi == k[0].hi);
	struct pd_prof_key none = pd_prof_sample_key(7, 1, PD_MODE_KERNEL,
	    base[1], NULL, 0);

	assert_true(none.lo == 0 && none.hi == 0);
}

/* An entry is the sample's only on its cpu: the same key on another
 * cpu is not found, and replaces it. */
static void
test_memo_checks_cpu(void **state)
{
	uint64_t w[PD_PROF_KEY_HEAD + 2], *chain = w + PD_PROF_KEY_HEAD;
	const struct pd_prof_key key = { 0x1234, 0x5678 };
	struct pd_prof_raw *r = pd_prof_raw_new();

	(void)state;
	chain[0] = CTX_KERNEL;
	chain[1] = 0xffffffff81000010u;
	pd_prof_sample_keyed(r, key, 7, 0, PD_MODE_KERNEL, 100, chain[1],
	    chain, 2);
	pd_prof_sample_keyed(r, key, 7, 0, PD_MODE_KERNEL, 100, chain[1],
	    chain, 2);
	assert_int_equal(r->memo_hits, 1);
	pd_prof_sample_keyed(r, key, 7, 1, PD_MODE_KERNEL, 100, chain[1],
	    chain, 2);
	assert_int_equal(r->memo_hits, 1);
	assert_int_equal(r->n_stacks, 2);
	assert_int_equal(r->samples, 3);
	pd_prof_raw_free(r);
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
	uint64_t words[PD_PROF_KEY_HEAD + 5] = { 0 };
	uint64_t *chain = words + PD_PROF_KEY_HEAD;
	unsigned n = 5;

	chain[0] = CTX_KERNEL;

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
	const enum way ways[] = { REAL_KEY, FRAMES, TURNS };

	(void)state;
	for (unsigned w = 0; w < 3; w++) {
		r[ways[w]] = pd_prof_raw_new();
		for (unsigned k = 0; k < PAST_STACKS + PAST_FRESH +
		    PAST_AGAIN; k++)
			sample_past_bounds(r[ways[w]], ways[w], k, k);
	}
	/* the bounds were met: samples and stacks left out */
	assert_int_equal(r[REAL_KEY]->n_addrs, PD_PROF_ADDRS);
	assert_true(r[REAL_KEY]->dropped > 0);
	assert_true(r[REAL_KEY]->stacks_dropped > 0);
	assert_same(r[REAL_KEY], r[FRAMES]);
	assert_same(r[REAL_KEY], r[TURNS]);
	for (unsigned w = 0; w < 3; w++)
		pd_prof_raw_free(r[ways[w]]);
}

int
test_group_prof_memo(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo_many_repeats),
		cmocka_unit_test(test_memo_more_than_held),
		cmocka_unit_test(test_key_covers_sample),
		cmocka_unit_test(test_memo_checks_cpu),
		cmocka_unit_test(test_frames_past_bounds),
	};

	return cmocka_run_group_tests_name("prof-memo", tests, NULL, NULL);
}

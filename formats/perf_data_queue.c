/* perf.data's samples between their decoding and their adding to the
 * profile's tables, always in the file's order.
 *
 * At first one thread does both, through a queue of QUEUE samples: what
 * each will read of the tables is prefetched in three stages while the
 * ones before it are added (perf_data.h).
 *
 * Past START_AFTER samples of a file, a profile large enough for a
 * second thread to pay for itself, that thread adds the samples while
 * this one decodes the next: decoded samples go over in batches through
 * a ring of BATCHES, taken in the order they were filled, so the tables
 * see the same samples in the same order and the report is the same
 * bytes as with one thread.  Until pd_perf_flush has joined it, only the
 * adding thread touches the profile tables (struct pd_prof_raw of each
 * attribute); the decoding thread keeps the file's mappings, forks,
 * attributes and notes.  --one-thread (struct pd_member) keeps to one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "decode/prof_raw.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/format.h"
#include "perf_data.h"

/* A thread costs some tens of microseconds to start and join, and a
 * batch hand-over a few; below some thousands of samples the whole
 * profile takes less than that to add. */
#define START_AFTER 8192
#define BATCHES 4
#define BATCH_SAMPLES 512
/* a call chain keeps up to PD_PROF_CHAIN addresses; a batch that cannot
 * take the next sample's whole chain is handed over early */
#define BATCH_WORDS (BATCH_SAMPLES * 32u)
_Static_assert(BATCH_WORDS >= PD_PROF_CHAIN, "a batch holds a chain");

struct batch {
	unsigned n;			/* samples */
	size_t used;			/* of words */
	struct queued s[BATCH_SAMPLES];
	uint64_t words[BATCH_WORDS];	/* their chains */
};

struct perf_lanes {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* batches filled and handed over, and batches added; the one being
	 * filled is b[published % BATCHES] */
	unsigned long published, consumed;
	bool done;			/* no batch comes after published */
	struct batch b[BATCHES];
};

static void
add(const struct queued *q)
{
	pd_prof_sample_hashed(q->raw, q->hash, q->pid, q->cpu, q->mode,
	    q->period, q->ip, q->has_chain ? q->chain : NULL, q->n);
}

/* One thread: the queue's oldest sample added. */
static void
add_oldest(struct reader *r)
{
	add(&r->queue[r->q_head]);
	r->q_head = (r->q_head + 1) & (QUEUE - 1);
	r->q_len--;
}

/* Every sample of the one-thread queue added, in order. */
static void
add_queue(struct reader *r)
{
	while (r->q_len)
		add_oldest(r);
}

/* The batch the decoding thread fills. */
static struct batch *
filling(struct perf_lanes *l)
{
	return &l->b[l->published % BATCHES];
}

/* A batch's lines were last read by the adding thread, on the other
 * core: a store to one waits until that core gives it up, and with the
 * store buffer full the decoding stalls.  Asking for the lines ahead,
 * for writing, lets the hand-over overlap the decoding: the scaled
 * profile of tests/bench-profile.sh takes 0.74x the time.  GCC's
 * __builtin_prefetch(p, 1) is a plain read prefetch on x86-64 unless
 * built for a CPU with PREFETCHW, which every x86-64 decodes (older
 * Intel ones as a no-op), so it is spelt out there. */
static inline void
claim_line(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__("prefetchw %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1);
#endif
}

/* How far ahead the lines are claimed: 512 bytes of chains and 8
 * samples' slots, some hundreds of nanoseconds of decoding (tried: 128
 * to 1024 bytes; 512 the fastest, by a few percent). */
#define CLAIM_WORDS 64u
#define CLAIM_SLOTS 8u

/* The lines the next words words of b and its slot after next would
 * first touch, claimed once each: those that start in this sample's
 * span, CLAIM_WORDS on. */
static void
claim_ahead(struct batch *b, unsigned words)
{
	size_t from = b->used + CLAIM_WORDS, to = from + words;

	for (size_t x = (from + 7) & ~(size_t)7; x < to && x < BATCH_WORDS;
	    x += 8)
		claim_line(&b->words[x]);
	if (b->n + CLAIM_SLOTS < BATCH_SAMPLES)
		claim_line(&b->s[b->n + CLAIM_SLOTS]);
}

/* Each stage a third of the queue after the one before, as one thread
 * does them, so both add with the same distance prefetched ahead. */
#define STAGE_AHEAD(stage) ((unsigned)(QUEUE - 1 - (stage) * (QUEUE / 3)))

static void
prefetch_in(const struct batch *b, unsigned i, int stage)
{
	if (i < b->n)
		pd_prof_prefetch(b->s[i].raw, b->s[i].hash, b->s[i].n, stage);
}

static void
add_batch(const struct batch *b)
{
	for (int stage = 0; stage <= 2; stage++)
		for (unsigned i = 0; i < STAGE_AHEAD(stage); i++)
			prefetch_in(b, i, stage);
	for (unsigned i = 0; i < b->n; i++) {
		for (int stage = 0; stage <= 2; stage++)
			prefetch_in(b, i + STAGE_AHEAD(stage), stage);
		add(&b->s[i]);
	}
}

static void *
adder(void *arg)
{
	struct perf_lanes *l = arg;

	for (;;) {
		pthread_mutex_lock(&l->mu);
		while (l->consumed == l->published && !l->done)
			pthread_cond_wait(&l->cv, &l->mu);
		bool end = l->consumed == l->published;

		pthread_mutex_unlock(&l->mu);
		if (end)
			return NULL;
		add_batch(&l->b[l->consumed % BATCHES]);
		pthread_mutex_lock(&l->mu);
		l->consumed++;
		pthread_cond_signal(&l->cv);
		pthread_mutex_unlock(&l->mu);
	}
}

/* The batch being filled goes over; waits until the next one is free. */
static struct batch *
hand_over(struct perf_lanes *l)
{
	pthread_mutex_lock(&l->mu);
	l->published++;
	pthread_cond_signal(&l->cv);
	while (l->published - l->consumed >= BATCHES)
		pthread_cond_wait(&l->cv, &l->mu);
	pthread_mutex_unlock(&l->mu);

	struct batch *b = filling(l);

	b->n = 0;
	b->used = 0;
	return b;
}

/* The second thread, once the queue's samples are added; stays with one
 * thread (r->lanes NULL) when none can be started. */
static void
start_lanes(struct reader *r)
{
	struct perf_lanes *l = pd_xmalloc(sizeof(*l));
	int stage = 0;		/* how far the set-up came */

	add_queue(r);
	l->published = l->consumed = 0;
	l->done = false;
	l->b[0].n = 0;
	l->b[0].used = 0;
	if (pthread_mutex_init(&l->mu, NULL) != 0)
		goto fail;
	stage = 1;
	if (pthread_cond_init(&l->cv, NULL) != 0)
		goto fail;
	stage = 2;
	if (pthread_create(&l->thread, NULL, adder, l) != 0)
		goto fail;
	r->lanes = l;
	return;
fail:
	if (stage >= 2)
		pthread_cond_destroy(&l->cv);
	if (stage >= 1)
		pthread_mutex_destroy(&l->mu);
	free(l);
	r->lanes_failed = true;
}

struct queued *
pd_perf_slot(struct reader *r, unsigned words)
{
	if (!r->lanes && r->queued >= START_AFTER && !r->lanes_failed &&
	    !r->m->one_thread)
		start_lanes(r);
	if (r->lanes) {
		struct batch *b = filling(r->lanes);

		if (b->n == BATCH_SAMPLES || b->used + words > BATCH_WORDS)
			b = hand_over(r->lanes);
		b->s[b->n].chain = b->words + b->used;
		claim_ahead(b, words);
		return &b->s[b->n];
	}
	if (r->q_len == QUEUE)
		add_oldest(r);
	unsigned at = (r->q_head + r->q_len) & (QUEUE - 1);

	r->queue[at].chain = r->chains[at];
	return &r->queue[at];
}

void
pd_perf_commit(struct reader *r, struct queued *q)
{
	q->hash = pd_prof_sample_hash(q->pid, q->cpu, q->mode, q->ip,
	    q->has_chain ? q->chain : NULL, q->n);
	r->queued++;
	if (r->lanes) {
		struct batch *b = filling(r->lanes);

		b->used += q->has_chain ? q->n : 0;
		b->n++;
		return;
	}
	pd_prof_prefetch(q->raw, q->hash, q->n, 0);
	r->q_len++;
	for (int stage = 1; stage <= 2; stage++) {
		unsigned back = (unsigned)stage * (QUEUE / 3);

		if (r->q_len > back) {
			const struct queued *e = &r->queue[(r->q_head +
			    r->q_len - 1 - back) & (QUEUE - 1)];

			pd_prof_prefetch(e->raw, e->hash, e->n, stage);
		}
	}
}

void
pd_perf_flush(struct reader *r)
{
	struct perf_lanes *l = r->lanes;

	add_queue(r);
	if (!l)
		return;
	pthread_mutex_lock(&l->mu);
	if (filling(l)->n)
		l->published++;
	l->done = true;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
	pthread_join(l->thread, NULL);
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	free(l);
	r->lanes = NULL;
}

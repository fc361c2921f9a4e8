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
 * bytes as with one thread.  A batch goes over in one of two forms:
 *
 * - raw: the samples as decoded; the adding thread takes each the whole
 *   way (pd_prof_sample_keyed: its memo of samples seen before, the
 *   interning of the addresses, the adding);
 * - framed: this thread has interned each sample's addresses
 *   (pd_prof_frames) and the other adds it by them (pd_prof_add_frames).
 *
 * The interning is most of the work of a sample not seen before, and the
 * memo makes one seen before cheap: raw batches are the faster on a
 * profile of a few hot loops (a sample's many frames are not looked up
 * again), framed ones on a profile of mostly new stacks (a whole
 * machine recorded without frame pointers), where raw ones leave the
 * adding thread the pace and this one idle half the time.  Which one a
 * profile is shows only in the running, so both threads time their
 * part of each batch, and a form's cost is the slower part's, a sample:
 * a period of PERIOD batches goes raw, one framed, then the cheaper
 * for STAY periods, then the other once more, and so on (pace()).  Both
 * forms end in the same tables (src/decode/profile.h), so the choice
 * changes how fast, never what.
 *
 * The table of addresses belongs to one thread at a time: a framed batch
 * is filled only once every raw batch before it has been added.  Until
 * pd_perf_flush has joined it, only the adding thread touches the rest
 * of the profile tables (struct pd_prof_raw of each attribute); this one
 * keeps the file's mappings, forks, attributes and notes.  --one-thread
 * (struct pd_member) keeps to one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
_Static_assert(BATCH_WORDS >= PD_PROF_KEY_HEAD + PD_PROF_CHAIN,
    "a batch holds a chain");
/* Batches a period: 4096 samples, a millisecond or two, long enough
 * for its time to tell the two forms apart and for a turn to framed
 * batches (which waits for the raw ones before it) to be small beside
 * it.  Periods the cheaper form is kept before the other is tried
 * again: STAY, twice as many after each try the other lost, up to
 * STAY_MOST, so that a profile of one kind pays for few tries. */
#define PERIOD 8u
#define STAY 8u
#define STAY_MOST 64u

/* A framed sample: its frames are ids[off..off+n) of its batch. */
struct framed {
	struct pd_prof_raw *raw;
	uint64_t period;
	uint32_t off, n;	/* n 0: no room for the leaf, dropped */
	int cpu;
	bool has_chain;
};

struct batch {
	bool framed;
	unsigned n;			/* samples */
	double add_seconds;		/* the adding thread's time on it */
	size_t used;			/* of words, or of ids when framed */
	union {
		struct queued raw[BATCH_SAMPLES];
		struct framed framed[BATCH_SAMPLES];
	} s;
	union {
		uint64_t words[BATCH_WORDS];	/* the raw samples' chains */
		uint32_t ids[BATCH_WORDS * 2];	/* the framed ones' frames */
	} w;
};

struct perf_lanes {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* batches filled and handed over, and batches added; the one being
	 * filled is b[published % BATCHES] */
	unsigned long published, consumed;
	bool done;			/* no batch comes after published */
	/* the decoding thread's own (pace): the form it fills, whether
	 * this period tries it, periods left before the next try, batches
	 * of this period; by form (framed or not), the seconds each thread
	 * spent on how many samples since the form was last tried, and
	 * when the batch being filled was begun */
	bool framing, trying;
	unsigned in_period, stay, stay_len;
	double fill_seconds[2], add_seconds[2];
	unsigned long filled[2], added[2];
	double fill_start;
	struct batch b[BATCHES];
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void
add(const struct queued *q)
{
	pd_prof_sample_keyed(q->raw, q->key, q->pid, q->cpu, q->mode,
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
#define CLAIM_BYTES 512u
#define CLAIM_SLOTS 8u

/* The lines of the next bytes bytes of b's words, from byte at, and of
 * its slot after next that it would first touch, claimed once each:
 * those that start in this sample's span, CLAIM_BYTES on. */
static void
claim_ahead(struct batch *b, size_t at, size_t bytes, const void *slot)
{
	const char *w = (const char *)b->w.words;
	size_t from = at + CLAIM_BYTES, to = from + bytes;

	for (size_t x = (from + 63) & ~(size_t)63; x < to &&
	    x < sizeof(b->w); x += 64)
		claim_line(w + x);
	if (slot)
		claim_line(slot);
}

/* Each stage the queue's share of a stage after the one before, as one
 * thread does them, so both add with the same distance prefetched
 * ahead. */
#define STAGE_BACK(stage) ((unsigned)(stage) * (QUEUE / PD_PROF_STAGES))
#define STAGE_AHEAD(stage) ((unsigned)(QUEUE - 1 - STAGE_BACK(stage)))

static void
prefetch_in(const struct batch *b, unsigned i, int stage)
{
	if (i < b->n)
		pd_prof_prefetch(b->s.raw[i].raw, b->s.raw[i].key, stage);
}

static void
add_raw(const struct batch *b)
{
	for (int stage = 0; stage < PD_PROF_STAGES; stage++)
		for (unsigned i = 0; i < STAGE_AHEAD(stage); i++)
			prefetch_in(b, i, stage);
	for (unsigned i = 0; i < b->n; i++) {
		for (int stage = 0; stage < PD_PROF_STAGES; stage++)
			prefetch_in(b, i + STAGE_AHEAD(stage), stage);
		add(&b->s.raw[i]);
	}
}

static void
add_framed(const struct batch *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		const struct framed *f = &b->s.framed[i];

		pd_prof_add_frames(f->raw, f->cpu, f->period, b->w.ids + f->off,
		    f->n, f->has_chain);
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
		struct batch *b = &l->b[l->consumed % BATCHES];
		double t = now();

		if (b->framed)
			add_framed(b);
		else
			add_raw(b);
		/* written before consumed moves on: the decoding thread reads
		 * it when it takes the batch back (hand_over) */
		b->add_seconds = now() - t;
		pthread_mutex_lock(&l->mu);
		l->consumed++;
		pthread_cond_signal(&l->cv);
		pthread_mutex_unlock(&l->mu);
	}
}

/* A form's seconds a sample: its slower thread's; 0 when not timed. */
static double
cost(const struct perf_lanes *l, int form)
{
	if (!l->filled[form] || !l->added[form])
		return 0;
	double fill = l->fill_seconds[form] / (double)l->filled[form];
	double add = l->add_seconds[form] / (double)l->added[form];

	return fill > add ? fill : add;
}

static void
untimed(struct perf_lanes *l, int form)
{
	l->fill_seconds[form] = l->add_seconds[form] = 0;
	l->filled[form] = l->added[form] = 0;
}

/* Under l->mu, at the end of a period: the form of the next one, from
 * the times of the last period of each form (the form kept is timed
 * anew each period, so that a profile that changes on the way is
 * followed).  A turn to framed batches waits for the raw ones before
 * them to be added, as they take over the table of addresses. */
static void
pace(struct perf_lanes *l)
{
	bool framing = l->framing;

	l->in_period = 0;
	if (l->trying) {
		/* the form tried is the one being filled */
		double raw = cost(l, 0), framed = cost(l, 1);
		bool won = raw > 0 && framed > 0 &&
		    (framed < raw) == l->framing;

		framing = won ? l->framing : !l->framing;
		l->trying = false;
		l->stay_len = won ? STAY : l->stay_len * 2 < STAY_MOST ?
		    l->stay_len * 2 : STAY_MOST;
		l->stay = l->stay_len;
	} else if (--l->stay == 0) {
		framing = !framing;
		l->trying = true;
	}
	if (!l->trying || framing != l->framing)
		untimed(l, framing);
	if (framing && !l->framing)
		while (l->consumed != l->published)
			pthread_cond_wait(&l->cv, &l->mu);
	l->framing = framing;
}

/* The batch being filled goes over; waits until the next one is free,
 * and takes the adding thread's time on the batch it held before. */
static struct batch *
hand_over(struct perf_lanes *l)
{
	struct batch *b = filling(l);

	l->fill_seconds[b->framed] += now() - l->fill_start;
	l->filled[b->framed] += b->n;
	pthread_mutex_lock(&l->mu);
	l->published++;
	pthread_cond_signal(&l->cv);
	while (l->published - l->consumed >= BATCHES)
		pthread_cond_wait(&l->cv, &l->mu);
	b = filling(l);
	if (l->published >= BATCHES) {		/* it held one, added */
		l->add_seconds[b->framed] += b->add_seconds;
		l->added[b->framed] += b->n;
	}
	if (++l->in_period == PERIOD)
		pace(l);
	pthread_mutex_unlock(&l->mu);
	b->framed = l->framing;
	b->n = 0;
	b->used = 0;
	l->fill_start = now();
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
	/* a period raw, then one framed, then the cheaper */
	l->framing = l->trying = false;
	l->stay = 1;
	l->stay_len = STAY;
	l->in_period = 0;
	memset(l->fill_seconds, 0, sizeof(l->fill_seconds));
	memset(l->add_seconds, 0, sizeof(l->add_seconds));
	memset(l->filled, 0, sizeof(l->filled));
	memset(l->added, 0, sizeof(l->added));
	l->fill_start = now();
	l->b[0].framed = false;
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

/* Two threads: the batch the next sample goes to, handed over first
 * when it cannot take one of a chain of words addresses (a framed
 * batch: that many frames and the leaf). */
static struct batch *
batch_for(struct perf_lanes *l, unsigned words)
{
	struct batch *b = filling(l);
	bool full = b->n == BATCH_SAMPLES || (b->framed ?
	    b->used + words + 1 > BATCH_WORDS * 2 :
	    b->used + PD_PROF_KEY_HEAD + words > BATCH_WORDS);

	return full ? hand_over(l) : b;
}

struct queued *
pd_perf_slot(struct reader *r, unsigned words)
{
	if (!r->lanes && r->queued >= START_AFTER && !r->lanes_failed &&
	    !r->m->one_thread)
		start_lanes(r);
	if (r->lanes) {
		struct batch *b = batch_for(r->lanes, words);

		if (b->framed) {
			/* decoded here, its frames interned into the batch
			 * when committed */
			r->queue[0].chain = r->chains[0] + PD_PROF_KEY_HEAD;
			return &r->queue[0];
		}
		/* raw: its chain decoded straight into the batch */
		b->s.raw[b->n].chain = b->w.words + b->used +
		    PD_PROF_KEY_HEAD;
		claim_ahead(b, b->used * sizeof(uint64_t),
		    (words + PD_PROF_KEY_HEAD) * sizeof(uint64_t),
		    b->n + CLAIM_SLOTS < BATCH_SAMPLES ?
		    &b->s.raw[b->n + CLAIM_SLOTS] : NULL);
		return &b->s.raw[b->n];
	}
	if (r->q_len == QUEUE)
		add_oldest(r);
	unsigned at = (r->q_head + r->q_len) & (QUEUE - 1);

	r->queue[at].chain = r->chains[at] + PD_PROF_KEY_HEAD;
	return &r->queue[at];
}

/* Two threads, framed: q's frames interned into the batch, which
 * batch_for left room in. */
static void
frame(struct perf_lanes *l, const struct queued *q)
{
	struct batch *b = filling(l);
	/* the leaf and, with a chain, one frame per address */
	unsigned most = q->has_chain ? q->n + 1 : 1;

	if (most > PD_PROF_CHAIN)
		most = PD_PROF_CHAIN;
	claim_ahead(b, b->used * sizeof(uint32_t), most * sizeof(uint32_t),
	    b->n + CLAIM_SLOTS < BATCH_SAMPLES ?
	    &b->s.framed[b->n + CLAIM_SLOTS] : NULL);

	struct framed *f = &b->s.framed[b->n++];

	f->raw = q->raw;
	f->period = q->period;
	f->cpu = q->cpu;
	f->has_chain = q->has_chain;
	f->off = (uint32_t)b->used;
	f->n = pd_prof_frames(q->raw, q->pid, q->mode, q->ip, q->has_chain ?
	    q->chain : NULL, q->n, b->w.ids + b->used);
	b->used += f->n;
}

void
pd_perf_commit(struct reader *r, struct queued *q)
{
	r->queued++;
	if (r->lanes && filling(r->lanes)->framed) {
		frame(r->lanes, q);
		return;
	}
	q->key = pd_prof_sample_key(q->pid, q->cpu, q->mode, q->ip,
	    q->has_chain ? q->chain : NULL, q->n);
	if (r->lanes) {
		struct batch *b = filling(r->lanes);

		b->used += q->has_chain ? PD_PROF_KEY_HEAD + q->n : 0;
		b->n++;
		return;
	}
	pd_prof_prefetch(q->raw, q->key, 0);
	r->q_len++;
	for (int stage = 1; stage < PD_PROF_STAGES; stage++) {
		unsigned back = STAGE_BACK(stage);

		if (r->q_len > back) {
			const struct queued *e = &r->queue[(r->q_head +
			    r->q_len - 1 - back) & (QUEUE - 1)];

			pd_prof_prefetch(e->raw, e->key, stage);
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

/* See bigmem.h.  Under AddressSanitizer every table comes from the heap,
 * so that its bounds stay checked. */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, madvise */
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/bigmem.h"
#include "base/populate.h"
#include "pathdoctor/arena.h"

#if defined(__SANITIZE_ADDRESS__)
#define BIG_HEAP_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_HEAP_ONLY 1
#endif
#endif

#define HUGE_PAGE ((size_t)2 << 20)
#define BIG_MIN ((size_t)256 << 10)

static bool
mapped(size_t n)
{
#ifdef BIG_HEAP_ONLY
	(void)n;
	return false;
#else
	return n >= BIG_MIN;
#endif
}

static size_t
rounded(size_t n)
{
	return (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void
pd_big_advise(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);	/* a hint: ignored is fine */
#else
	(void)p;
	(void)n;
#endif
}

static void
out_of_memory(size_t n)
{
	fprintf(stderr, "pathdoctor: out of memory (%zu bytes)\n", n);
	abort();
}

/* A mapping of rounded(n) bytes starting on a huge-page boundary: one
 * huge page more is mapped and the ends beyond the boundaries are
 * returned. */
static void *
map_aligned(size_t n)
{
	size_t len = rounded(n), extra = len + HUGE_PAGE;
	unsigned char *p = mmap(NULL, extra, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		out_of_memory(n);
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	size_t lead = (size_t)(a - (uintptr_t)p);

	if (lead)
		munmap(p, lead);
	if (extra - lead > len)
		munmap((unsigned char *)a + len, extra - lead - len);
	pd_big_advise((void *)a, len);
	return (void *)a;
}

/* Mappings let go, kept for the next table of the same rounded length:
 * a table that doubles is allocated afresh, filled from the old one and
 * the old freed, so each step of a chain below 2 MiB would otherwise
 * fault in and zero a new huge page while the one just freed goes back
 * (the real profile of tests/bench-profile.sh: 23 huge-page faults a
 * run, a third of its CPU time zeroing them).  A kept mapping is dirty
 * only below the size it was freed with (nothing above a table's size
 * is written), so only that is cleared.  Shared by the threads (the
 * profile's adding thread frees what the decoding one allocated), under
 * a lock that is taken only for tables of BIG_MIN or more; bounded, so
 * what is kept costs at most KEEP_BYTES. */
#define KEEP_MAPS 8
#define KEEP_BYTES ((size_t)16 << 20)

struct kept_map {
	void *p;
	size_t len, dirty;
};

static struct kept_map keep[KEEP_MAPS];
static size_t kept_bytes;
static pthread_mutex_t keep_mu = PTHREAD_MUTEX_INITIALIZER;

/* A kept mapping of len bytes, zeroed; NULL when none is. */
static void *
reuse(size_t len)
{
	struct kept_map k = { NULL, 0, 0 };

	pthread_mutex_lock(&keep_mu);
	for (unsigned i = 0; i < KEEP_MAPS; i++)
		if (keep[i].p && keep[i].len == len) {
			k = keep[i];
			keep[i].p = NULL;
			kept_bytes -= len;
			break;
		}
	pthread_mutex_unlock(&keep_mu);
	if (k.p)
		memset(k.p, 0, k.dirty);
	return k.p;
}

/* Whether p (len bytes, written below dirty) was kept. */
static bool
keep_map(void *p, size_t len, size_t dirty)
{
	bool done = false;

	pthread_mutex_lock(&keep_mu);
	for (unsigned i = 0; i < KEEP_MAPS && !done; i++)
		if (!keep[i].p && kept_bytes + len <= KEEP_BYTES) {
			keep[i] = (struct kept_map){ p, len, dirty };
			kept_bytes += len;
			done = true;
		}
	pthread_mutex_unlock(&keep_mu);
	return done;
}

/* With a thread to populate pages (populate.h), tables are carved in
 * turn from one reserved range, and its AHEAD bytes from each one's
 * start are asked for (those not asked for before), so that the next
 * tables' pages, and the first of a large one filled front to back,
 * are faulted in on the other core before they are written.  A range let go stays mapped (its pages
 * dropped), so that a request still under way never reaches a mapping
 * of someone else's.  Untouched, the reservation is address space
 * only. */
#define RESERVE ((size_t)1 << 30)
#define AHEAD ((size_t)4 << 20)

static unsigned char *res_base;
static size_t res_used, res_asked;
static bool res_on, res_failed;

void
pd_big_threads(bool on)
{
	pthread_mutex_lock(&keep_mu);
	res_on = on;
	pthread_mutex_unlock(&keep_mu);
	pd_populate_allow(on);
}

static bool
reserved(const void *p)
{
	pthread_mutex_lock(&keep_mu);
	bool in = res_base && (const unsigned char *)p >= res_base &&
	    (const unsigned char *)p < res_base + RESERVE;
	pthread_mutex_unlock(&keep_mu);
	return in;
}

/* len bytes (a multiple of HUGE_PAGE) of the reservation; NULL when
 * there is none or too little is left. */
static void *
carve_reserved(size_t len)
{
	unsigned char *p = NULL, *ahead = NULL;
	size_t ahead_len = 0;

	pthread_mutex_lock(&keep_mu);
	if (res_on && !res_base && !res_failed) {
		res_failed = (res_base = mmap(NULL, RESERVE + HUGE_PAGE,
		    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_NORESERVE, -1, 0)) == MAP_FAILED;
		if (res_failed)
			res_base = NULL;
		else {
			res_base = (unsigned char *)(((uintptr_t)res_base +
			    HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
			pd_big_advise(res_base, RESERVE);
		}
	}
	if (res_on && res_base && RESERVE - res_used >= len) {
		size_t from = res_used, to = from + AHEAD;

		p = res_base + res_used;
		res_used += len;
		if (from < res_asked)
			from = res_asked;
		if (to > RESERVE)
			to = RESERVE;
		if (to > from) {
			ahead = res_base + from;
			ahead_len = to - from;
			res_asked = to;
		}
	}
	pthread_mutex_unlock(&keep_mu);
	if (ahead_len)
		pd_populate_ask(ahead, ahead_len);
	return p;
}

void *
pd_big_alloc(size_t n)
{
	void *p;

	if (mapped(n)) {
		if ((p = reuse(rounded(n))) || (p = carve_reserved(rounded(n))))
			return p;
		return map_aligned(n);
	}
	p = calloc(1, n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *
pd_big_grow(void *p, size_t old, size_t n)
{
	if (!p)
		return pd_big_alloc(n);
	if (!mapped(old) && !mapped(n)) {
		unsigned char *q = pd_xrealloc(p, n ? n : 1);

		if (n > old)
			memset(q + old, 0, n - old);
		return q;
	}
	if (mapped(old) && mapped(n) && rounded(n) == rounded(old)) {
		/* nothing above a table's size stays written (keep_map) */
		if (n < old)
			memset((unsigned char *)p + n, 0, old - n);
		return p;
	}
	void *q = pd_big_alloc(n);

	memcpy(q, p, old < n ? old : n);
	pd_big_free(p, old);
	return q;
}

void
pd_big_free(void *p, size_t n)
{
	if (!p)
		return;
	if (mapped(n)) {
		if (keep_map(p, rounded(n), n))
			return;
		if (reserved(p))
			(void)madvise(p, rounded(n), MADV_DONTNEED);
		else
			munmap(p, rounded(n));
	} else
		free(p);
}

/* The heap, in huge pages too.  Below BIG_MIN, and in every vector that
 * grows by pd_xrealloc, memory is glibc's, whose chunks of 128 KiB or
 * more are each mapped afresh and whose heap grows in 4 KiB pages.  On
 * the 2-core development machine (a virtual machine) a first touch of a
 * 4 KiB page costs about 10 us: 2.6 ms a MiB, against 0.07 ms a MiB in
 * huge pages (a fresh mapping of each kind, touched page by page), and
 * the real profile of tests/bench-profile.sh took 950 such faults a
 * run.  So the heap is grown once, at the start, and by HEAP_PAD more
 * at a time, and that range offered for huge pages; chunks up to
 * HEAP_PAD come from it and go back to it, so that freed memory is used
 * again rather than mapped anew.  The faults fell to 330 and the run
 * took 0.88x the time (the scaled profile 0.96x).  Right after another
 * process has freed much memory, when every first touch costs about
 * 1 ms a MiB, the real profile took 0.67x with it but the scaled one
 * 1.4x to 1.6x, for a reason not yet found (a suspect: each huge
 * page is zeroed whole, however little of it is used).  Untouched, the range costs
 * nothing; glibc gives memory back once HEAP_PAD * 2 of it lies free
 * at the top. */
#define HEAP_PAD ((size_t)32 << 20)

void
pd_big_heap(void)
{
#ifndef BIG_HEAP_ONLY
	mallopt(M_MMAP_THRESHOLD, (int)HEAP_PAD);
	mallopt(M_TRIM_THRESHOLD, (int)(HEAP_PAD * 2));
	mallopt(M_TOP_PAD, (int)HEAP_PAD);

	unsigned char *start = sbrk(0);
	/* volatile: a malloc freed at once is otherwise left out */
	void *volatile grow = malloc(HEAP_PAD / 2);

	free(grow);
	unsigned char *end = sbrk(0);
	uintptr_t a = ((uintptr_t)start + HUGE_PAGE - 1) &
	    ~(uintptr_t)(HUGE_PAGE - 1);

	if (start != (void *)-1 && (uintptr_t)end > a)
		pd_big_advise((void *)a, (size_t)((uintptr_t)end - a));
#endif
}

/* See populate.h. */
#define _DEFAULT_SOURCE		/* madvise */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include "base/populate.h"

#define HUGE_PAGE ((size_t)2 << 20)
#define ASKED 8		/* ranges waiting; an older one is dropped past it */

struct range {
	unsigned char *p;
	size_t n;
};

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool allowed, started, broken, busy;
	unsigned head, len;
	struct range asked[ASKED];
} pop = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false,
	false, false, false, 0, 0, { { NULL, 0 } } };

/* The next huge page of the oldest range, taken off it; false when
 * none is asked for. */
static bool
next_page(struct range *page)
{
	while (pop.len) {
		struct range *r = &pop.asked[pop.head];

		if (r->n) {
			size_t n = r->n < HUGE_PAGE ? r->n : HUGE_PAGE;

			*page = (struct range){ r->p, n };
			r->p += n;
			r->n -= n;
			return true;
		}
		pop.head = (pop.head + 1) % ASKED;
		pop.len--;
	}
	return false;
}

/* A page at a time, so that a range asked for later is not kept
 * waiting behind a long one for long, and so that the lock is never
 * held across the fault.  A kernel without MADV_POPULATE_WRITE (before
 * Linux 5.14) says EINVAL: the thread stops and pages are faulted where
 * first written, as without it. */
static void *
populate_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pop.mu);
	for (;;) {
		struct range page;

		pop.busy = false;
		while (!next_page(&page))
			pthread_cond_wait(&pop.cv, &pop.mu);
		pop.busy = true;
		pthread_mutex_unlock(&pop.mu);
#ifdef MADV_POPULATE_WRITE
		int rc = madvise(page.p, page.n, MADV_POPULATE_WRITE);
#else
		int rc = -1;

		errno = EINVAL;
#endif
		int err = rc ? errno : 0;

		pthread_mutex_lock(&pop.mu);
		/* ENOMEM: a range let go since it was asked for */
		if (err == EINVAL)
			pop.broken = true;
	}
	return NULL;
}

void
pd_populate_allow(bool on)
{
	pthread_mutex_lock(&pop.mu);
	pop.allowed = on;
	pthread_mutex_unlock(&pop.mu);
}

void
pd_populate_ask(void *p, size_t n)
{
	pthread_mutex_lock(&pop.mu);
	if (!pop.allowed || pop.broken || !n)
		goto out;
	if (!pop.started) {
		pthread_t t;
		pthread_attr_t at;

		if (pthread_attr_init(&at) != 0)
			goto out;
		(void)pthread_attr_setdetachstate(&at,
		    PTHREAD_CREATE_DETACHED);
		pop.started = pthread_create(&t, &at, populate_main, NULL) ==
		    0;
		pthread_attr_destroy(&at);
		if (!pop.started) {
			pop.broken = true;
			goto out;
		}
	}
	if (pop.len == ASKED) {
		pop.head = (pop.head + 1) % ASKED;
		pop.len--;
	}
	pop.asked[(pop.head + pop.len) % ASKED] = (struct range){ p, n };
	pop.len++;
	pthread_cond_signal(&pop.cv);
out:
	pthread_mutex_unlock(&pop.mu);
}

bool
pd_populate_pending(void)
{
	pthread_mutex_lock(&pop.mu);
	bool pending = !pop.broken && (pop.busy || pop.len);
	pthread_mutex_unlock(&pop.mu);
	return pending;
}

bool
pd_populate_works(void)
{
	pthread_mutex_lock(&pop.mu);
	bool works = pop.started && !pop.broken;
	pthread_mutex_unlock(&pop.mu);
	return works;
}

/* See bigmem.h.  Under AddressSanitizer every table comes from the heap,
 * so that its bounds stay checked. */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, madvise */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "base/bigmem.h"
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

void *
pd_big_alloc(size_t n)
{
	void *p;

	if (mapped(n))
		return map_aligned(n);
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
	if (mapped(old) && mapped(n) && rounded(n) == rounded(old))
		return p;
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
	if (mapped(n))
		munmap(p, rounded(n));
	else
		free(p);
}

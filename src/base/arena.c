/* Region allocator: big chunks, bump allocation, one free at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/bigmem.h"
#include "pathdoctor/arena.h"

/* Chunks of CHUNK_MIN until BIG_AFTER bytes are held, then of
 * CHUNK_BIG, which come in huge pages where the kernel gives them: a
 * run that interns a whole kallsyms faults 2 MiB at a time, not 4 KiB. */
#define CHUNK_MIN 65536
#define CHUNK_BIG ((size_t)2 << 20)
#define BIG_AFTER ((size_t)256 << 10)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct cleanup {
	struct cleanup *next;
	void (*fn)(void *ctx);
	void *ctx;
};

struct pd_arena {
	struct chunk *chunks;
	struct cleanup *cleanups;	/* newest first */
	size_t held;			/* bytes of all chunks */
};

void *
pd_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "pathdoctor: out of memory (%zu bytes)\n", n);
		abort();
	}
	return p;
}

void *
pd_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "pathdoctor: out of memory (%zu of %zu "
		    "bytes)\n", n, size);
		abort();
	}
	return p;
}

void *
pd_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "pathdoctor: out of memory (%zu bytes)\n", n);
		abort();
	}
	return q;
}

char *
pd_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(pd_xmalloc(n), s, n);
}

struct pd_arena *
pd_arena_new(void)
{
	struct pd_arena *a = pd_xmalloc(sizeof(*a));

	a->chunks = NULL;
	a->cleanups = NULL;
	a->held = 0;
	return a;
}

void
pd_arena_on_free(struct pd_arena *a, void (*fn)(void *ctx), void *ctx)
{
	struct cleanup *c = pd_arena_alloc(a, sizeof(*c));

	c->fn = fn;
	c->ctx = ctx;
	c->next = a->cleanups;
	a->cleanups = c;
}

void
pd_arena_free(struct pd_arena *a)
{
	if (!a)
		return;
	/* newest first, while the arena memory they may read still exists */
	for (struct cleanup *c = a->cleanups; c; c = c->next)
		c->fn(c->ctx);
	while (a->chunks) {
		struct chunk *c = a->chunks;

		a->chunks = c->next;
		pd_big_free(c, sizeof(*c) + c->cap);
	}
	free(a);
}

/* n bytes at the next multiple of align (a power of two) in the newest
 * chunk, or at the start of a new one.  Chunks come zeroed and no byte
 * is handed out twice, so what is carved is zero. */
static void *
carve(struct pd_arena *a, size_t n, size_t align)
{
	struct chunk *c = a->chunks;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;

	if (!c || at > c->cap || c->cap - at < n) {
		size_t min = a->held < BIG_AFTER ? CHUNK_MIN : CHUNK_BIG -
		    sizeof(*c);
		size_t cap = n > min ? n : min;

		c = pd_big_alloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = a->chunks;
		a->chunks = c;
		a->held += cap;
		at = 0;
	}
	c->used = at + n;
	return (char *)c->data + at;
}

void *
pd_arena_alloc(struct pd_arena *a, size_t n)
{
	return carve(a, n, sizeof(max_align_t));
}

/* Strings byte to byte, not each rounded up to max_align_t: a whole
 * kallsyms' names take a fifth less memory, and on a virtual machine a
 * first touch of memory is much of the time of reading one. */
char *
pd_arena_strndup(struct pd_arena *a, const char *s, size_t n)
{
	char *p = carve(a, n + 1, 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
pd_arena_strdup(struct pd_arena *a, const char *s)
{
	return s ? pd_arena_strndup(a, s, strlen(s)) : NULL;
}

char *
pd_arena_vprintf(struct pd_arena *a, const char *fmt, va_list ap)
{
	va_list cp;

	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);

	va_end(cp);
	if (n < 0)
		n = 0;
	char *p = pd_arena_alloc(a, (size_t)n + 1);

	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
pd_arena_printf(struct pd_arena *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *p = pd_arena_vprintf(a, fmt, ap);

	va_end(ap);
	return p;
}

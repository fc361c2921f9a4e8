/* Run-lifetime region allocator.
 *
 * Ownership: everything allocated from an arena lives until
 * pd_arena_free(); nobody calls free() on arena memory.  Heap memory that
 * lives as long as the arena (a profile's streaming tables) is released
 * by a cleanup registered with pd_arena_on_free, run newest first.  Allocation
 * failure aborts (a CLI tool has nothing better to do), which is only
 * acceptable because no allocation is ever sized by untrusted input
 * without a bound first.
 */
#ifndef PD_ARENA_H
#define PD_ARENA_H

#include <stdarg.h>
#include <stddef.h>
#include "status.h"

struct pd_arena;

struct pd_arena *pd_arena_new(void);
void pd_arena_free(struct pd_arena *a);
void pd_arena_on_free(struct pd_arena *a, void (*fn)(void *ctx), void *ctx);
void *pd_arena_alloc(struct pd_arena *a, size_t n);	/* zeroed */
char *pd_arena_strdup(struct pd_arena *a, const char *s);
char *pd_arena_strndup(struct pd_arena *a, const char *s, size_t n);
char *pd_arena_printf(struct pd_arena *a, const char *fmt, ...) PD_PRINTF(2, 3);
char *pd_arena_vprintf(struct pd_arena *a, const char *fmt, va_list ap);

/* Abort with a message on out-of-memory; used by the few heap users. */
void *pd_xmalloc(size_t n);
/* n zeroed elements of size (a large one's untouched pages cost no
 * fault) */
void *pd_xcalloc(size_t n, size_t size);
void *pd_xrealloc(void *p, size_t n);
char *pd_xstrdup(const char *s);

#endif

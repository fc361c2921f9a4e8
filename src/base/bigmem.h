/* Large zeroed tables (profile hash tables, symbol vectors): from the
 * heap below BIG_MIN, else mapped on their own and offered to the
 * kernel for transparent huge pages, because a first touch costs a
 * fault per 4 KiB page and on a virtual machine a fault costs tens of
 * microseconds (one 2 MiB table: 10 ms in 4 KiB pages, 0.2 ms in one
 * huge page).  The size given to free and grow is the size allocated. */
#ifndef PD_BIGMEM_H
#define PD_BIGMEM_H

#include <stdbool.h>
#include <stddef.h>

void *pd_big_alloc(size_t n);			/* zeroed; aborts when out */
void *pd_big_grow(void *p, size_t old, size_t n);	/* new tail zeroed */
void pd_big_free(void *p, size_t n);
/* Offers [p, p + n) of a mapping of one's own to huge pages. */
void pd_big_advise(void *p, size_t n);

/* At the start of the program: glibc's heap offered for huge pages,
 * and grown in steps large enough that its chunks come from there. */
void pd_big_heap(void);
/* Whether fresh pages may be made ready on another thread
 * (src/base/populate.h): off until told. */
void pd_big_threads(bool on);
#endif

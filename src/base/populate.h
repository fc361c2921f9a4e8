/* Fresh memory made ready on another core.  On the 2-core development
 * machine (a virtual machine) the kernel's zeroing of each fresh huge
 * page took from 0.2 ms to 2.4 ms, and the real profile of
 * tests/bench-profile.sh faults in 14 of them: up to half of its run,
 * while the second core sat idle.  A thread asked for a range faults
 * its pages in there (MADV_POPULATE_WRITE: the kernel fills the page
 * tables as a write would, and writes nothing, so the contents of a
 * page already in use are never touched), a huge page at a time, while
 * the asking thread goes on; where it has not come yet, the first write
 * faults the page in as it would have without it. */
#ifndef PD_POPULATE_H
#define PD_POPULATE_H

#include <stdbool.h>
#include <stddef.h>

/* Off until allowed: --one-thread, the tests and the fleet's workers
 * keep to their own thread. */
void pd_populate_allow(bool on);
/* Asks for [p, p + n), a range of a mapping that stays the caller's
 * (let go, it must not be mapped again by anyone else: see bigmem.c);
 * the thread is started the first time. */
void pd_populate_ask(void *p, size_t n);
/* For the tests: whether a range asked for is not done yet; whether
 * the thread runs and the kernel knows the advice (false before the
 * first page was asked for). */
bool pd_populate_pending(void);
bool pd_populate_works(void);
#endif

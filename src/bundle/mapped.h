/* A large plain bundle file (a capture, a perf.data or a tar, as
 * pd_readahead_plain tells) mapped and handed to the bundle's libarchive
 * handle where it lies: the page cache's pages are mapped, not copied
 * into a buffer, so that the copy a read makes (a third of the CPU time
 * spent on a plain capture) is not made at all.  The bytes the walker
 * sees, and so the report, are those a read would give; only the timing
 * and the memory differ.  Resident: the piece being read (and the one
 * before it while it is mapped in: 2 MiB), whatever the file's size. */
#ifndef PD_MAPPED_H
#define PD_MAPPED_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>

struct archive;
struct pd_mapped;

/* Maps path and opens a (formats-set-up) archive over it: 0 on success;
 * 1, a having been left untouched, where the file is not one to map (not
 * a large plain file, or the system would not map it), for the other
 * ways of reading it; -1 with err filled where the archive cannot be
 * opened (nothing to free then). */
int pd_mapped_open(struct archive *a, const char *path,
    struct pd_mapped **out, char *err, size_t errlen);
/* Unmaps and frees; NULL is fine. */
void pd_mapped_close(struct pd_mapped *m);

/* While a file is mapped: a SIGBUS (the file cut shorter by another
 * program under the mapping) says so, naming path, and exits with 3, in
 * place of a crash; old keeps the handler before, which unwatch puts
 * back. */
void pd_mapped_watch(const char *path, struct sigaction *old);
void pd_mapped_unwatch(const struct sigaction *old);

#endif

/* A compressed bundle file (.tgz, .tar.xz, .tar.zst, .tar.bz2, .tar.lz4,
 * ... the table in readahead.c), or stdin whatever it holds,
 * decompressed on a second thread unless told otherwise, for the
 * bundle's libarchive handle, which then reads plain tar (or zip, cpio):
 * decompression and analysis overlap.  The bytes the walker sees are the
 * same with or without the thread; only the timing differs.  What is no
 * known compression passes through to libarchive's filters on the
 * walker's thread. */
#ifndef PD_READAHEAD_H
#define PD_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct archive;
struct pd_readahead;

/* True when the file starts with the magic of a compression it decodes,
 * or is a regular file of 8 MiB or more, of no compression, that
 * libarchive reads front to back: a tar or a capture (a zip or a 7z is
 * read by seeking to its directory). */
bool pd_readahead_wanted(const char *path);
/* Starts the decompression thread on path ("-": stdin, passed through
 * when no known compression, and noted on a terminal when it stalls) and
 * opens a (formats-set-up) archive over its output.  0 on success; -1 with err filled otherwise
 * (nothing to free then). */
int pd_readahead_open(struct archive *a, const char *path, bool threaded,
    struct pd_readahead **out, char *err, size_t errlen);
/* Compressed bytes behind what the archive has been handed so far. */
uint64_t pd_readahead_in(const struct pd_readahead *r);
/* Stops the thread (early if the walker stopped early) and frees. */
void pd_readahead_close(struct pd_readahead *r);

#endif

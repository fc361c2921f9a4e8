/* A compressed stream undone by libarchive's own filters (bzip2, lz4,
 * lzip, lzma, compress, rpm, uu, and lrzip, lzop or grzip through their
 * programs) on a handle of its own, read through its raw format: the
 * decompression can then run on the readahead's thread, and the bundle's
 * handle reads plain tar.  Opened on the first read, so that the
 * filters' bidding, which decodes a first block, happens on the thread
 * that reads. */
#ifndef PD_UNFILTER_H
#define PD_UNFILTER_H

#include <stdint.h>
#include "pathdoctor/input.h"

struct pd_unfilter;

struct pd_unfilter *pd_unfilter_new(struct pd_source inner);
void pd_unfilter_free(struct pd_unfilter *u);
/* Reads what the filters make; a truncated or damaged stream gives what
 * libarchive made of it before the damage, then fails with its message. */
struct pd_source pd_unfilter_source(struct pd_unfilter *u);
/* Compressed bytes libarchive has taken from inner. */
uint64_t pd_unfilter_in(const struct pd_unfilter *u);

#endif

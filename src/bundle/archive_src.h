/* An archive member as a pd_source: see archive_src.c. */
#ifndef PD_BUNDLE_ARCHIVE_SRC_H
#define PD_BUNDLE_ARCHIVE_SRC_H

#include <stddef.h>
#include <stdint.h>
#include "pathdoctor/input.h"

struct archive;

/* An archive member's bytes, from the blocks libarchive hands out in
 * place (archive_read_data_block).  read is libarchive 3.6's
 * archive_read_data over those blocks: the same bytes, zeros for a
 * sparse file's holes, the same end and the same failure (the bytes of
 * a read that meets an error are lost).  view hands a read's bytes out
 * where they lie when one block holds them all, so that the capture
 * walkers (struct pd_window) read a member without copying it. */
struct pd_archive_src {
	struct archive *a;
	const unsigned char *block;	/* the rest of the last block */
	size_t left;
	int64_t block_at;		/* where block lies in the member */
	int64_t out_at;			/* bytes handed out so far */
};

/* The source of the member archive_read_next_header just gave; s lives
 * as long as the source is read. */
struct pd_source pd_archive_source(struct pd_archive_src *s,
    struct archive *a);

#endif

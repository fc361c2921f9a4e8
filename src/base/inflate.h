/* The inflate back ends behind pd_gunzip (src/base/gunzip.c): zlib
 * always, ISA-L when the build found it.  One gzip member at a time;
 * gunzip.c does the framing (concatenated members, trailing garbage,
 * truncation) the same way over either, so both give the same bytes and
 * the same notes. */
#ifndef PD_BASE_INFLATE_H
#define PD_BASE_INFLATE_H

#include <stddef.h>
#include <stdint.h>
#include "pathdoctor/input.h"

enum pd_inflate_rc {
	PD_INFLATE_OK,		/* progress made, or more input needed */
	PD_INFLATE_END,		/* the member's trailer was read and matched */
	PD_INFLATE_BAD_HEADER,
	PD_INFLATE_BAD_DATA,	/* the deflate stream itself */
	PD_INFLATE_BAD_CHECK,	/* CRC or length in the trailer */
	PD_INFLATE_FAILED,	/* the library's own failure (memory) */
};

struct pd_inflate_io {
	const unsigned char *next_in;
	size_t avail_in;
	unsigned char *next_out;
	size_t avail_out;	/* at most 1 GiB: gunzip.c caps a read */
};

/* The most bytes held() gives back: a 64-bit bit buffer. */
#define PD_INFLATE_HELD_MAX 8

struct pd_inflate_ops {
	const char *name;
	void *(*new)(void);		/* NULL when the library fails */
	void (*free)(void *st);
	void (*reset)(void *st);	/* before the next member */
	enum pd_inflate_rc (*run)(void *st, struct pd_inflate_io *io);
	/* After PD_INFLATE_END: input the library took but the member did
	 * not use (whole bytes still in its bit buffer), copied into out in
	 * stream order; they come before io->next_in. */
	size_t (*held)(void *st, unsigned char *out, size_t max);
};

extern const struct pd_inflate_ops pd_inflate_zlib;
#ifdef PD_HAVE_ISAL
extern const struct pd_inflate_ops pd_inflate_isal;
#endif

/* pd_gunzip_new over a chosen back end (the unit tests run both). */
struct pd_gunzip *pd_gunzip_new_ops(struct pd_source inner,
    const struct pd_inflate_ops *ops);

#endif

/* One bundle member as a pull stream: replayed head, then the rest.
 *
 * A reader sees a member only through struct pd_input: line by line
 * (pd_input_getline) or as bytes (pd_input_read).  Nothing is buffered
 * beyond one read block and one line, so a capture of several GB
 * streams through in constant memory.  Whole-buffer access exists for
 * formats that need random access, and is capped.
 */
#ifndef PD_INPUT_H
#define PD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pd_diag;

/* A pull source: read returns bytes read, 0 at the end, -1 on error
 * (with a message from err()).  view, where the source has one (NULL
 * otherwise), is read without the copy: the same bytes, the same
 * returns, the same end and failure, but handed out in place at *p
 * (valid until the next call on ctx); or PD_INPUT_NO_VIEW, having read
 * nothing, where those bytes do not lie in place (a read gets them). */
struct pd_source {
	ssize_t (*read)(void *ctx, void *buf, size_t n);
	const char *(*err)(void *ctx);
	void *ctx;
	ssize_t (*view)(void *ctx, size_t n, const unsigned char **p);
	/* whole, where the source has one (NULL otherwise): every byte of
	 * the member from its first, in place at *p (valid while the
	 * source is open), when the caller was handed its first had bytes
	 * and nothing more and the member holds at most max: the member's
	 * length, the source left at its end as if the rest were read.
	 * PD_INPUT_NO_VIEW, having done nothing, where it cannot. */
	ssize_t (*whole)(void *ctx, size_t had, size_t max,
	    const unsigned char **p);
};

#define PD_INPUT_NO_VIEW ((ssize_t)-2)

#define PD_INPUT_BLOCK 65536

struct pd_input {
	struct pd_source src;
	const unsigned char *head;	/* replayed before src; not owned */
	size_t head_len, head_pos;
	unsigned char block[PD_INPUT_BLOCK];
	size_t block_pos, block_len;
	char *line;			/* heap, at most max_line + 1 */
	size_t line_cap, max_line;
	size_t max_spool;		/* cap for pd_input_slurp users */
	uint32_t line_no;
	uint64_t consumed;		/* bytes handed out so far */
	bool eof, failed;
	char errmsg[256];
	struct pd_diag *diag;		/* long-line notes go here; may be NULL */
};

void pd_input_init(struct pd_input *in, struct pd_source src,
    const unsigned char *head, size_t head_len, size_t max_line,
    struct pd_diag *diag);
void pd_input_release(struct pd_input *in);

ssize_t pd_input_read(struct pd_input *in, void *buf, size_t n);
/* The next n bytes where the block holds them all: a pointer into it,
 * valid until the next call on in, and the bytes are consumed; NULL
 * (nothing consumed) where they are not there yet, for pd_input_read.
 * A binary reader's records are taken in place this way, not copied. */
const unsigned char *pd_input_take(struct pd_input *in, size_t n);
/* Next line without its newline (and without a trailing CR), NUL
 * terminated, valid until the next call on in.  Returns 1 with a line,
 * 0 at the end or on a read error (see in->failed).  A line longer than
 * max_line is skipped whole and noted. */
int pd_input_getline(struct pd_input *in, const char **line, size_t *len);
/* Reads the rest of the member into a heap buffer of at most cap
 * bytes.  Returns 0 or -1 (too large, or a read error: in->errmsg). */
int pd_input_slurp(struct pd_input *in, size_t cap, unsigned char **buf,
    size_t *len);
/* Reads and discards the rest. */
void pd_input_drain(struct pd_input *in);
/* pd_input_read(in, buf, n) without the copy, where the source hands
 * the bytes out in place (struct pd_source's view): *p valid until the
 * next call on in.  PD_INPUT_NO_VIEW, nothing read, where it cannot
 * (the head or the block still holds bytes, n is small enough for
 * pd_input_read to go through the block, or the source has no view):
 * then pd_input_read. */
ssize_t pd_input_view(struct pd_input *in, size_t n, const unsigned char **p);
/* The whole member in place (struct pd_source's whole) where nothing
 * of it was read past the head yet and it holds at most max bytes: its
 * length, *p valid until the input's source closes, and the input is
 * at its end.  PD_INPUT_NO_VIEW, nothing read, where it cannot: then
 * the reads. */
ssize_t pd_input_whole(struct pd_input *in, size_t max,
    const unsigned char **p);

/* A window over the rest of the member for binary readers that walk
 * records in place: reads of read_size bytes, each record handed out
 * where it lies.  Where the input hands a read out in place
 * (pd_input_view), the window is that read itself, and a record cut by
 * its end is gathered in the window's own buffer from its two parts,
 * the rest of the next read staying where it lies (pending); else the
 * reads go into the own buffer and only a cut record's bytes are moved
 * to its start before the next.  Holds at most max + read_size bytes
 * (max: the largest record the caller accepts).  The bytes at pos..len
 * of buf are the window's: a caller moves pos on past what it used. */
struct pd_window {
	struct pd_input *in;
	const unsigned char *buf;	/* own, or a read in place */
	unsigned char *own;		/* heap, cap bytes */
	const unsigned char *pending;	/* the rest of a read in place */
	size_t pending_len;
	size_t cap, max, read_size, pos, len;
};

#define PD_WINDOW_BLOCK (1u << 20)	/* the buffer at first */

void pd_window_open(struct pd_window *w, struct pd_input *in, size_t max,
    size_t read_size);
/* Makes at least n bytes from the cursor on lie in the buffer (n at
 * most w->max).  False at the end of the member or on a read error
 * (in->failed), with what there was left in the window. */
bool pd_window_fill(struct pd_window *w, size_t n);
/* Moves the cursor on by n bytes, reading on and discarding past the
 * window when n is more than it holds; false when the member ends (or
 * fails) first, *skipped saying how many bytes there were. */
bool pd_window_skip(struct pd_window *w, uint64_t n, uint64_t *skipped);
void pd_window_close(struct pd_window *w);

static inline const unsigned char *
pd_window_at(const struct pd_window *w)
{
	return w->buf + w->pos;
}

static inline size_t
pd_window_left(const struct pd_window *w)
{
	return w->len - w->pos;
}

/* A read-only FILE * over the rest of the member (for libpcap); close it
 * with fclose before releasing the input. */
#include <stdio.h>
FILE *pd_input_fopen(struct pd_input *in);

/* A source over a memory buffer (tests, fuzzers). */
struct pd_memsrc {
	const unsigned char *p;
	size_t len, pos;
};
struct pd_source pd_memsrc(struct pd_memsrc *m, const void *p, size_t len);

/* gzip unwrapping of another source (concatenated members too), with
 * ISA-L or zlib as the build chose (src/base/inflate.h). */
struct pd_gunzip;
struct pd_gunzip *pd_gunzip_new(struct pd_source inner);
void pd_gunzip_free(struct pd_gunzip *g);
struct pd_source pd_gunzip_source(struct pd_gunzip *g);
/* True when p starts with gzip's (xz's) magic. */
bool pd_is_gzip(const void *p, size_t n);
bool pd_is_xz(const void *p, size_t n);
/* Compressed bytes consumed and bytes made so far (the ratio caps). */
uint64_t pd_gunzip_in(const struct pd_gunzip *g);
uint64_t pd_gunzip_out(const struct pd_gunzip *g);

/* xz unwrapping (concatenated streams too) under a memory bound: a
 * stream whose dictionary needs more fails with a message saying so.
 * xz -9 needs 65 MiB. */
#define PD_XZ_MEMLIMIT (96ull << 20)
struct pd_unxz;
struct pd_unxz *pd_unxz_new(struct pd_source inner);
void pd_unxz_free(struct pd_unxz *x);
struct pd_source pd_unxz_source(struct pd_unxz *x);
uint64_t pd_unxz_in(const struct pd_unxz *x);

/* zstd unwrapping (concatenated and skippable frames too) under a window
 * bound: a frame whose header asks for a larger window fails with a
 * message saying so.  128 MiB is libzstd's own default limit, the most
 * zstd -19 --ultra -22 and --long use, and what zstd -d accepts without
 * --memory. */
#define PD_ZSTD_WINDOW_LOG_MAX 27
#define PD_ZSTD_WINDOW_MAX (1ull << PD_ZSTD_WINDOW_LOG_MAX)
struct pd_unzstd;
/* True when p starts with a zstd frame's or a skippable frame's magic. */
bool pd_is_zstd(const void *p, size_t n);
struct pd_unzstd *pd_unzstd_new(struct pd_source inner);
void pd_unzstd_free(struct pd_unzstd *z);
struct pd_source pd_unzstd_source(struct pd_unzstd *z);
uint64_t pd_unzstd_in(const struct pd_unzstd *z);

#endif

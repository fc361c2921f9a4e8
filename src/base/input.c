/* pd_input: a member as a pull stream with head replay, lines and spooling,
 * and a FILE * over it for libpcap (fopencookie, glibc: the one GNU
 * extension in the tree, kept to this file). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/input.h"

void
pd_input_init(struct pd_input *in, struct pd_source src,
    const unsigned char *head, size_t head_len, size_t max_line,
    struct pd_diag *diag)
{
	memset(in, 0, offsetof(struct pd_input, block));
	in->src = src;
	in->head = head;
	in->head_len = head_len;
	in->head_pos = 0;
	in->block_pos = in->block_len = 0;
	in->line = NULL;
	in->line_cap = 0;
	in->max_line = max_line ? max_line : 1;
	in->max_spool = 64u << 20;
	in->line_no = 0;
	in->consumed = 0;
	in->eof = in->failed = false;
	in->errmsg[0] = '\0';
	in->diag = diag;
}

void
pd_input_release(struct pd_input *in)
{
	free(in->line);
	in->line = NULL;
	in->line_cap = 0;
}

/* Reads smaller than this (a binary reader's record headers) go
 * through the block, so that a plain file costs one read(2) per block,
 * not two per record. */
#define SMALL_READ (PD_INPUT_BLOCK / 16)

/* What a read (or view) of the source returned: an error is kept with
 * the source's message, the end is remembered. */
static ssize_t
came(struct pd_input *in, ssize_t r)
{
	if (r < 0) {
		in->failed = true;
		snprintf(in->errmsg, sizeof(in->errmsg), "%s",
		    in->src.err ? in->src.err(in->src.ctx) : "read error");
		return -1;
	}
	if (r == 0)
		in->eof = true;
	return r;
}

/* Raw read: head first, then the source; no block buffering. */
static ssize_t
raw_read(struct pd_input *in, void *buf, size_t n)
{
	if (in->head_pos < in->head_len) {
		size_t k = in->head_len - in->head_pos;

		if (k > n)
			k = n;
		memcpy(buf, in->head + in->head_pos, k);
		in->head_pos += k;
		return (ssize_t)k;
	}
	if (in->eof || in->failed)
		return in->failed ? -1 : 0;
	return came(in, in->src.read(in->src.ctx, buf, n));
}

static bool
fill_block(struct pd_input *in)
{
	if (in->block_pos < in->block_len)
		return true;
	ssize_t r = raw_read(in, in->block, sizeof(in->block));

	in->block_pos = 0;
	in->block_len = r > 0 ? (size_t)r : 0;
	return r > 0;
}

const unsigned char *
pd_input_take(struct pd_input *in, size_t n)
{
	if (in->block_len - in->block_pos < n)
		return NULL;
	const unsigned char *p = in->block + in->block_pos;

	in->block_pos += n;
	in->consumed += n;
	return p;
}

ssize_t
pd_input_read(struct pd_input *in, void *buf, size_t n)
{
	if (in->block_pos < in->block_len) {
		size_t k = in->block_len - in->block_pos;

		if (k > n)
			k = n;
		memcpy(buf, in->block + in->block_pos, k);
		in->block_pos += k;
		in->consumed += k;
		return (ssize_t)k;
	}
	if (n < SMALL_READ) {
		ssize_t r = raw_read(in, in->block, PD_INPUT_BLOCK);

		if (r <= 0)
			return r;
		in->block_pos = 0;
		in->block_len = (size_t)r;
		return pd_input_read(in, buf, n);
	}
	ssize_t r = raw_read(in, buf, n);

	if (r > 0)
		in->consumed += (uint64_t)r;
	return r;
}

static void
line_append(struct pd_input *in, const unsigned char *p, size_t n,
    size_t *len)
{
	if (*len + n + 1 > in->line_cap) {
		size_t cap = in->line_cap ? in->line_cap : 256;

		while (cap < *len + n + 1)
			cap *= 2;
		if (cap > in->max_line + 1)
			cap = in->max_line + 1;
		in->line = pd_xrealloc(in->line, cap);
		in->line_cap = cap;
	}
	memcpy(in->line + *len, p, n);
	*len += n;
}

/* A line wholly in the block, handed out in place: its newline (or its
 * CR) becomes the NUL.  Most lines are; the rest are copied. */
static bool
line_in_place(struct pd_input *in, const char **line, size_t *len_out)
{
	unsigned char *p = in->block + in->block_pos;
	unsigned char *nl = memchr(p, '\n', in->block_len - in->block_pos);

	if (!nl || (size_t)(nl - p) > in->max_line)
		return false;
	size_t len = (size_t)(nl - p);

	in->block_pos += len + 1;
	in->consumed += len + 1;
	in->line_no++;
	if (len && p[len - 1] == '\r')
		len--;
	p[len] = '\0';
	*line = (const char *)p;
	*len_out = len;
	return true;
}

int
pd_input_getline(struct pd_input *in, const char **line, size_t *len_out)
{
	if (in->block_pos < in->block_len &&
	    line_in_place(in, line, len_out))
		return 1;
	for (;;) {
		size_t len = 0;
		uint64_t total = 0;
		bool got = false;

		while (fill_block(in)) {
			const unsigned char *p = in->block + in->block_pos;
			size_t avail = in->block_len - in->block_pos;
			const unsigned char *nl = memchr(p, '\n', avail);
			size_t take = nl ? (size_t)(nl - p) : avail;

			got = true;
			if (total + take <= in->max_line)
				line_append(in, p, take, &len);
			total += take;
			in->block_pos += take + (nl ? 1 : 0);
			in->consumed += take + (nl ? 1 : 0);
			if (nl)
				break;
		}
		if (!got)
			return 0;
		in->line_no++;
		if (total > in->max_line) {
			if (in->diag)
				pd_diag_note(in->diag, PD_WARN,
				    "input.line-too-long", in->line_no,
				    "line of %llu bytes is over the %zu-byte "
				    "line cap and was skipped",
				    (unsigned long long)total, in->max_line);
			continue;
		}
		if (len && in->line[len - 1] == '\r')
			len--;
		if (!in->line) {
			in->line = pd_xmalloc(1);
			in->line_cap = 1;
		}
		in->line[len] = '\0';
		*line = in->line;
		*len_out = len;
		return 1;
	}
}

int
pd_input_slurp(struct pd_input *in, size_t cap, unsigned char **out,
    size_t *len_out)
{
	size_t len = 0, alloc = 0;
	unsigned char *buf = NULL;

	for (;;) {
		if (alloc - len < PD_INPUT_BLOCK) {
			size_t want = alloc ? alloc * 2 : PD_INPUT_BLOCK * 2;

			if (want > cap + PD_INPUT_BLOCK)
				want = cap + PD_INPUT_BLOCK;
			buf = pd_xrealloc(buf, want);
			alloc = want;
		}
		ssize_t r = pd_input_read(in, buf + len, alloc - len);

		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > cap) {
			snprintf(in->errmsg, sizeof(in->errmsg),
			    "member is larger than the %zu-byte spool cap", cap);
			goto fail;
		}
	}
	*out = buf;
	*len_out = len;
	return 0;
fail:
	free(buf);
	return -1;
}

void
pd_input_drain(struct pd_input *in)
{
	unsigned char tmp[PD_INPUT_BLOCK];
	const unsigned char *p;

	/* a member left unread where it lies needs no copy to be passed */
	if (pd_input_whole(in, SIZE_MAX, &p) != PD_INPUT_NO_VIEW)
		return;
	in->block_pos = in->block_len = 0;
	while (raw_read(in, tmp, sizeof(tmp)) > 0)
		;
}

ssize_t
pd_input_whole(struct pd_input *in, size_t max, const unsigned char **p)
{
	if (in->head_pos || in->block_len || in->consumed || !in->src.whole ||
	    in->eof || in->failed)
		return PD_INPUT_NO_VIEW;
	ssize_t r = in->src.whole(in->src.ctx, in->head_len, max, p);

	if (r == PD_INPUT_NO_VIEW)
		return r;
	if (came(in, r) < 0)
		return -1;
	in->head_pos = in->head_len;
	in->consumed = (uint64_t)r;
	in->eof = true;
	return r;
}

ssize_t
pd_input_view(struct pd_input *in, size_t n, const unsigned char **p)
{
	/* a small read goes through the block (pd_input_read), so a view
	 * of it would not be the same read */
	if (in->head_pos < in->head_len || in->block_pos < in->block_len ||
	    n < SMALL_READ || !in->src.view || in->eof || in->failed)
		return PD_INPUT_NO_VIEW;
	ssize_t r = in->src.view(in->src.ctx, n, p);

	if (r == PD_INPUT_NO_VIEW)
		return r;
	if ((r = came(in, r)) > 0)
		in->consumed += (uint64_t)r;
	return r;
}

void
pd_window_open(struct pd_window *w, struct pd_input *in, size_t max,
    size_t read_size)
{
	w->in = in;
	w->max = max;
	w->read_size = read_size;
	w->cap = PD_WINDOW_BLOCK;
	w->own = pd_xmalloc(w->cap);
	w->buf = w->own;
	w->pending = NULL;
	w->pending_len = 0;
	w->pos = w->len = 0;
}

/* One read of read_size bytes.  Always that size, from wherever the
 * stream is: where a read fails decides how much of the member was
 * read, so that is where a FILE * of that buffer size would have
 * stopped too.  In place it becomes the pending part; copied, it goes
 * after what the own buffer holds (buf is own then, with room). */
static bool
next_read(struct pd_window *w)
{
	const unsigned char *p;
	ssize_t r = pd_input_view(w->in, w->read_size, &p);

	if (r == PD_INPUT_NO_VIEW) {
		r = pd_input_read(w->in, w->own + w->len, w->read_size);
		if (r <= 0)
			return false;
		w->len += (size_t)r;
		return true;
	}
	if (r <= 0)
		return false;
	w->pending = p;
	w->pending_len = (size_t)r;
	return true;
}

/* The window, empty, becomes the pending part of a read in place. */
static void
take_pending(struct pd_window *w)
{
	w->buf = w->pending;
	w->pos = 0;
	w->len = w->pending_len;
	w->pending = NULL;
	w->pending_len = 0;
}

/* The window's bytes moved to the start of the own buffer, which can
 * then take n bytes and one read more. */
static void
gather_start(struct pd_window *w, size_t n)
{
	size_t left = w->len - w->pos;
	const unsigned char *from = w->buf + w->pos;
	bool in_own = w->buf == w->own;

	if (in_own)
		memmove(w->own, from, left);
	if (n + w->read_size > w->cap) {
		/* a record larger than the usual read: grown to fit it */
		w->cap = n + w->read_size;
		w->own = pd_xrealloc(w->own, w->cap);
	}
	if (!in_own)
		memcpy(w->own, from, left);
	w->buf = w->own;
	w->pos = 0;
	w->len = left;
}

bool
pd_window_fill(struct pd_window *w, size_t n)
{
	if (w->len - w->pos >= n)
		return true;
	if (n > w->max)
		return false;
	if (w->len == w->pos && w->pending) {
		take_pending(w);
		if (w->len >= n)
			return true;
	}
	gather_start(w, n);
	while (w->len < n) {
		if (w->pending) {
			size_t k = n - w->len < w->pending_len ? n - w->len :
			    w->pending_len;

			memcpy(w->own + w->len, w->pending, k);
			w->len += k;
			w->pending += k;
			if (!(w->pending_len -= k))
				w->pending = NULL;
		} else if (!next_read(w)) {
			return false;
		}
	}
	return true;
}

bool
pd_window_skip(struct pd_window *w, uint64_t n, uint64_t *skipped)
{
	uint64_t done = 0;

	*skipped = n;
	while (n - done > w->len - w->pos) {
		done += w->len - w->pos;
		w->buf = w->own;
		w->pos = w->len = 0;
		if (w->pending)
			take_pending(w);
		else if (!next_read(w)) {
			*skipped = done;
			return false;
		}
	}
	w->pos += (size_t)(n - done);
	return true;
}

void
pd_window_close(struct pd_window *w)
{
	free(w->own);
	w->own = NULL;
	w->buf = NULL;
	w->pending = NULL;
	w->cap = w->len = w->pos = w->pending_len = 0;
}

static ssize_t
mem_read(void *ctx, void *buf, size_t n)
{
	struct pd_memsrc *m = ctx;
	size_t k = m->len - m->pos;

	if (k > n)
		k = n;
	memcpy(buf, m->p + m->pos, k);
	m->pos += k;
	return (ssize_t)k;
}

static const char *
mem_err(void *ctx)
{
	(void)ctx;
	return "memory read error";
}

struct pd_source
pd_memsrc(struct pd_memsrc *m, const void *p, size_t len)
{
	m->p = p;
	m->len = len;
	m->pos = 0;
	return (struct pd_source){ .read = mem_read, .err = mem_err, .ctx = m };
}

static ssize_t
cookie_read(void *c, char *buf, size_t n)
{
	ssize_t r = pd_input_read(c, buf, n);

	return r < 0 ? -1 : r;
}

FILE *
pd_input_fopen(struct pd_input *in)
{
	cookie_io_functions_t io = { .read = cookie_read };
	FILE *f = fopencookie(in, "r", io);

	/* libpcap reads each record with two freads; a large buffer keeps
	 * the trips down to the archive few */
	if (f)
		setvbuf(f, NULL, _IOFBF, 256u << 10);
	return f;
}

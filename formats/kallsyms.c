/* "kallsyms": /proc/kallsyms, the kernel's symbols, which name the kernel
 * addresses of a profile taken on the same boot.  Lines are
 * "ADDRESS TYPE NAME [MODULE]"; only text symbols (t, T, w, W) are kept,
 * as perf does.  Read as an ordinary user, every address is zero
 * (kptr_restrict): that is a note, since nothing can be named then. */
#define _GNU_SOURCE		/* memrchr */
#include <stdlib.h>
#include <string.h>
#include "base/bigmem.h"
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/job.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/text.h"

#define KSYMS_MAX (8u << 20)

/* "ffffffff81000000 T _text": the address and the type, and where the
 * name starts; false when the line is not one (the name must not be
 * empty).  A line is read this far whatever its type; only the kept
 * ones go on to split_name. */
static bool
split_head(const char *line, size_t len, uint64_t *addr, char *type,
    const char **rest)
{
	const unsigned char *p = (const unsigned char *)line;
	uint64_t a = 0;
	size_t n = 0;

	/* a 64-bit kernel's 16 digits at once, else one by one (addresses
	 * are printed in lower case) */
	if (len > 16 && line[16] == ' ' && pd_hex16_lower(line, &a))
		n = 16;
	else
		for (;; n++) {
			unsigned char ch = p[n];

			if (ch >= '0' && ch <= '9')
				a = a << 4 | (uint64_t)(ch - '0');
			else if (ch >= 'a' && ch <= 'f')
				a = a << 4 | (uint64_t)(ch - 'a' + 10);
			else
				break;
		}
	if (n < 8 || n > 16 || p[n] != ' ' || !p[n + 1] || p[n + 2] != ' ')
		return false;
	p += n + 3;
	if (!*p || *p == ' ' || *p == '\t')
		return false;
	*addr = a;
	*type = line[n + 1];
	*rest = (const char *)p;
	return true;
}

/* The name and the "[module]" after it, if any, of what split_head
 * left. */
static void
split_name(const char *p, const char **name, size_t *name_len,
    const char **mod, size_t *mod_len)
{
	const char *e = p + strcspn(p, " \t");

	*name = p;
	*name_len = (size_t)(e - p);
	*mod = NULL;
	*mod_len = 0;
	while (*e == ' ' || *e == '\t')
		e++;
	if (*e == '[') {
		const char *close = strchr(e, ']');

		if (close) {
			*mod = e;
			*mod_len = (size_t)(close - e + 1);
		}
	}
}

static int
bid_kallsyms(const struct pd_member *m)
{
	char line[512];
	int good = 0;

	if (memchr(m->head, 0, m->head_len))
		return 0;
	for (unsigned i = 0; good < 4 &&
	    pd_text_head_line(m->head, m->head_len, i, line, sizeof(line));
	    i++) {
		uint64_t addr;
		char type;
		const char *rest;

		if (!split_head(line, strlen(line), &addr, &type, &rest) ||
		    !strchr("aAbBdDgGiIn NprRsStTuUvVwW?", type))
			return 0;
		good++;
	}
	return good >= 2 ? 16 + 8 * good : 0;
}

/* What a read of kallsyms lines makes, before the host is given it. */
struct ksyms {
	struct pd_sym *v;
	unsigned n, cap;
	const char **mods;
	unsigned n_mods, cap_mods;
	uint64_t lines, zero;
};

static void
free_ksyms(void *ctx)
{
	struct pd_host *h = ctx;

	pd_big_free(h->ksyms, h->cap_ksyms * sizeof(*h->ksyms));
	free(h->kmods);
}

/* The vector lives beside the arena, not in it, so that its doublings
 * leave nothing behind; the arena frees it.  Its first size is what a
 * member of size bytes can hold (one symbol in 16 bytes or more, up to
 * PRESIZE_MAX), so that a whole /proc/kallsyms needs no doubling: a
 * mapping's untouched pages cost nothing. */
#define PRESIZE_MAX (1u << 19)

static void
grow(struct ksyms *k, int64_t size)
{
	unsigned cap = k->cap ? k->cap * 2 : 4096;

	if (!k->cap && size / 16 > cap)
		cap = size / 16 < PRESIZE_MAX ? (unsigned)(size / 16) :
		    PRESIZE_MAX;
	if (cap > KSYMS_MAX)
		cap = KSYMS_MAX;
	k->v = pd_big_grow(k->v, k->cap * sizeof(*k->v), cap * sizeof(*k->v));
	k->cap = cap;
}

/* The module's index + 1 in k->mods: a module's symbols come
 * together, so the name of the symbol before is used again where it is
 * the same.  At most one name a symbol, as many as KSYMS_MAX. */
static uint32_t
module_of(struct ksyms *k, struct pd_arena *a, const char *mod, size_t len)
{
	const char *last = k->n_mods ? k->mods[k->n_mods - 1] : NULL;

	if (last && strncmp(last, mod, len) == 0 && !last[len])
		return k->n_mods;
	if (k->n_mods == k->cap_mods) {
		k->cap_mods = k->cap_mods ? k->cap_mods * 2 : 64;
		k->mods = pd_xrealloc(k->mods, k->cap_mods *
		    sizeof(*k->mods));
	}
	k->mods[k->n_mods++] = pd_arena_strndup(a, mod, len);
	return k->n_mods;
}

/* Every line of in; names and modules copied to a. */
static void
read_lines(struct ksyms *k, struct pd_input *in, struct pd_arena *a,
    int64_t size)
{
	const char *line;
	size_t len;

	while (pd_input_getline(in, &line, &len)) {
		uint64_t addr;
		char type;
		const char *rest, *name, *mod;
		size_t nl, ml;

		if (!split_head(line, len, &addr, &type, &rest))
			continue;
		k->lines++;
		if (!addr) {
			k->zero++;
			continue;
		}
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (k->n == KSYMS_MAX)
			break;
		split_name(rest, &name, &nl, &mod, &ml);
		if (k->n == k->cap)
			grow(k, size);
		k->v[k->n++] = (struct pd_sym){ addr, 0,
		    pd_arena_strndup(a, name, nl),
		    mod ? module_of(k, a, mod, ml) : 0,
		    type == 'w' || type == 'W' ? 2 : type == 'T' };
	}
}

/* k's tables become the host's, freed with the arena a. */
static void
give(struct pd_host *h, const struct ksyms *k, struct pd_arena *a)
{
	if (k->cap || k->cap_mods)
		pd_arena_on_free(a, free_ksyms, h);
	h->ksyms = k->v;
	h->n_ksyms = k->n;
	h->cap_ksyms = k->cap;
	h->kmods = k->mods;
	h->n_kmods = k->n_mods;
	h->cap_kmods = k->cap_mods;
}

static enum pd_status
parse_here(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct ksyms k = { 0 };

	read_lines(&k, in, d->arena, m->size);
	if (k.lines == 0) {
		give(h, &k, d->arena);
		pd_diag_note(d, PD_FAILED, "kallsyms.empty", 0, "no symbol "
		    "lines");
		return PD_FAILED;
	}
	h->ksyms_member = pd_arena_strdup(d->arena, m->path);
	if (k.zero == k.lines) {
		give(h, &k, d->arena);
		pd_diag_note(d, PD_WARN, "kallsyms.zero", 0, "every address is "
		    "0: read without root (kptr_restrict), so kernel samples "
		    "cannot be named; collect it as root");
		return PD_WARN;
	}
	k.n = pd_syms_settle(k.v, k.n);
	give(h, &k, d->arena);
	return PD_OK;
}

/* A whole /proc/kallsyms (5 to 15 MB) is read on a thread of its own
 * (pathdoctor/job.h) while the walk goes on to the profile: on the
 * real profile of tests/bench-profile.sh its lines were a seventh of
 * the run, with the second core idle then.  Its bytes are copied first
 * (the member's input is the walker's), and only where the copy shows
 * what the member's status and notes will be: every line within the
 * line cap (no input.line-too-long) and a symbol line of an address
 * other than 0 among the first (neither kallsyms.empty nor
 * kallsyms.zero).  Anything else is read here as before. */
#define ASYNC_MIN ((int64_t)1 << 20)
#define ASYNC_MAX ((int64_t)64 << 20)
#define NAMED_WITHIN 1024	/* lines looked at for an address */

struct kjob {
	struct pd_job job;
	struct ksyms k;
	struct pd_arena *names;
	unsigned char *buf;
	size_t len, buf_cap, max_line;
	int64_t size;
	struct pd_host *h;
	struct pd_arena *arena;		/* the host's */
};

static void
free_names(void *ctx)
{
	pd_arena_free(ctx);
}

static void
kjob_run(void *ctx)
{
	struct kjob *j = ctx;
	struct pd_memsrc ms;
	struct pd_input in;

	pd_input_init(&in, pd_memsrc(&ms, j->buf, j->len), NULL, 0,
	    j->max_line, NULL);
	read_lines(&j->k, &in, j->names, j->size);
	pd_input_release(&in);
	pd_big_free(j->buf, j->buf_cap);
	j->buf = NULL;
	j->k.n = pd_syms_settle(j->k.v, j->k.n);
}

static void
kjob_done(void *ctx)
{
	struct kjob *j = ctx;

	pd_arena_on_free(j->arena, free_names, j->names);
	give(j->h, &j->k, j->arena);
}

/* No stretch of more than max_line bytes without a newline: a window
 * of max_line + 1 bytes at a time, from just after the last newline of
 * the one before (a line per call would cost as much as the reading). */
static bool
lines_fit(const unsigned char *p, size_t len, size_t max_line)
{
	const unsigned char *end = p + len;

	while ((size_t)(end - p) > max_line) {
		const unsigned char *nl = memrchr(p, '\n', max_line + 1);

		if (!nl)
			return false;
		p = nl + 1;
	}
	return true;
}

/* A symbol line of an address other than 0 among the first lines. */
static bool
has_address(const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;

	for (unsigned i = 0; i < NAMED_WITHIN && p < end; i++) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[512];
		uint64_t addr;
		char type;
		const char *rest;

		if (n && p[n - 1] == '\r')
			n--;
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (split_head(line, n, &addr, &type, &rest) && addr)
				return true;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

/* The bytes read so far, then the rest of the member's input. */
struct chain {
	struct pd_source head;
	struct pd_memsrc ms;
	struct pd_input *rest;
};

static ssize_t
chain_read(void *ctx, void *buf, size_t n)
{
	struct chain *c = ctx;
	ssize_t r = c->head.read(c->head.ctx, buf, n);

	return r ? r : pd_input_read(c->rest, buf, n);
}

static const char *
chain_err(void *ctx)
{
	return ((struct chain *)ctx)->rest->errmsg;
}

static enum pd_status
parse_copy(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct kjob *j = pd_arena_alloc(d->arena, sizeof(*j));
	ssize_t r = 1;

	j->buf_cap = (size_t)m->size + PD_INPUT_BLOCK;
	j->buf = pd_big_alloc(j->buf_cap);
	/* a block at a time, as the lines would be read: a cap on the
	 * bundle's bytes (--max-total) stops at the same byte */
	while (j->len < j->buf_cap && (r = pd_input_read(in, j->buf + j->len,
	    j->buf_cap - j->len < PD_INPUT_BLOCK ? j->buf_cap - j->len :
	    PD_INPUT_BLOCK)) > 0)
		j->len += (size_t)r;
	if (r != 0 || !lines_fit(j->buf, j->len, in->max_line) ||
	    !has_address(j->buf, j->len)) {
		/* a failed read, a member grown past its size, or one whose
		 * notes only the reading tells */
		struct chain c = { .rest = in };
		struct pd_input cin;
		enum pd_status st;

		c.head = pd_memsrc(&c.ms, j->buf, j->len);
		pd_input_init(&cin, (struct pd_source){ chain_read, chain_err,
		    &c, NULL, NULL }, NULL, 0, in->max_line, in->diag);
		st = parse_here(m, &cin, h, d);
		pd_input_release(&cin);
		pd_big_free(j->buf, j->buf_cap);
		return st;
	}
	h->ksyms_member = pd_arena_strdup(d->arena, m->path);
	j->names = pd_arena_new();
	j->max_line = in->max_line;
	j->size = m->size;
	j->h = h;
	j->arena = d->arena;
	j->job = (struct pd_job){ .run = kjob_run, .done = kjob_done,
		.ctx = j };
	if (!pd_job_start(&h->jobs, &j->job)) {
		kjob_run(j);
		kjob_done(j);
	}
	return PD_OK;
}

static enum pd_status
parse_kallsyms(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	/* pathdoctor-collect bundles one and perf archive another of the
	 * same boot: the first read names the addresses (--dump-model says
	 * which) */
	if (h->ksyms_member) {
		pd_input_drain(in);
		return PD_OK;
	}
	/* a member of a compressed bundle comes through the thread that
	 * inflates it, which has the other core already: only a file of
	 * a directory bundle, one that lies whole in place, is copied */
	if (!m->one_thread && in->src.whole && m->size >= ASYNC_MIN &&
	    m->size <= ASYNC_MAX)
		return parse_copy(m, in, h, d);
	return parse_here(m, in, h, d);
}

static const char *const hints[] = { "kallsyms", NULL };

const struct pd_format pd_format_kallsyms = {
	.name = "kallsyms",
	.summary = "kernel symbols (/proc/kallsyms, as root) that name the "
	    "kernel addresses of a profile",
	.command = "cat /proc/kallsyms",
	.hints = hints,
	.gives = PD_HAVE_PROFILE,
	.collect = NULL,
	.bid = bid_kallsyms,
	.parse = parse_kallsyms,
};

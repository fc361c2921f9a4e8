/* "kallsyms": /proc/kallsyms, the kernel's symbols, which name the kernel
 * addresses of a profile taken on the same boot.  Lines are
 * "ADDRESS TYPE NAME [MODULE]"; only text symbols (t, T, w, W) are kept,
 * as perf does.  Read as an ordinary user, every address is zero
 * (kptr_restrict): that is a note, since nothing can be named then. */
#include <stdlib.h>
#include <string.h>
#include "base/bigmem.h"
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
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
grow(struct pd_host *h, struct pd_arena *a, int64_t size)
{
	unsigned cap = h->cap_ksyms ? h->cap_ksyms * 2 : 4096;

	if (!h->cap_ksyms && size / 16 > cap)
		cap = size / 16 < PRESIZE_MAX ? (unsigned)(size / 16) :
		    PRESIZE_MAX;
	if (cap > KSYMS_MAX)
		cap = KSYMS_MAX;

	if (!h->cap_ksyms)
		pd_arena_on_free(a, free_ksyms, h);
	h->ksyms = pd_big_grow(h->ksyms, h->cap_ksyms * sizeof(*h->ksyms),
	    cap * sizeof(*h->ksyms));
	h->cap_ksyms = cap;
}

/* The module's index + 1 in h->kmods: a module's symbols come
 * together, so the name of the symbol before is used again where it is
 * the same.  At most one name a symbol, as many as KSYMS_MAX. */
static uint32_t
module_of(struct pd_host *h, struct pd_arena *a, const char *mod,
    size_t len)
{
	const char *last = h->n_kmods ? h->kmods[h->n_kmods - 1] : NULL;

	if (last && strncmp(last, mod, len) == 0 && !last[len])
		return h->n_kmods;
	if (h->n_kmods == h->cap_kmods) {
		h->cap_kmods = h->cap_kmods ? h->cap_kmods * 2 : 64;
		h->kmods = pd_xrealloc(h->kmods, h->cap_kmods *
		    sizeof(*h->kmods));
	}
	h->kmods[h->n_kmods++] = pd_arena_strndup(a, mod, len);
	return h->n_kmods;
}

static enum pd_status
parse_kallsyms(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	const char *line;
	size_t len;
	uint64_t lines = 0, zero = 0;

	/* pathdoctor-collect bundles one and perf archive another of the
	 * same boot: the first read names the addresses (--dump-model says
	 * which) */
	if (h->ksyms_member) {
		pd_input_drain(in);
		return PD_OK;
	}
	while (pd_input_getline(in, &line, &len)) {
		uint64_t addr;
		char type;
		const char *rest, *name, *mod;
		size_t nl, ml;

		if (!split_head(line, len, &addr, &type, &rest))
			continue;
		lines++;
		if (!addr) {
			zero++;
			continue;
		}
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (h->n_ksyms == KSYMS_MAX)
			break;
		split_name(rest, &name, &nl, &mod, &ml);
		if (h->n_ksyms == h->cap_ksyms)
			grow(h, d->arena, m->size);	/* frees kmods too */
		h->ksyms[h->n_ksyms++] = (struct pd_sym){ addr, 0,
		    pd_arena_strndup(d->arena, name, nl),
		    mod ? module_of(h, d->arena, mod, ml) : 0,
		    type == 'w' || type == 'W' ? 2 : type == 'T' };
	}
	if (lines == 0) {
		pd_diag_note(d, PD_FAILED, "kallsyms.empty", 0, "no symbol "
		    "lines");
		return PD_FAILED;
	}
	h->ksyms_member = pd_arena_strdup(d->arena, m->path);
	if (zero == lines) {
		pd_diag_note(d, PD_WARN, "kallsyms.zero", 0, "every address is "
		    "0: read without root (kptr_restrict), so kernel samples "
		    "cannot be named; collect it as root");
		return PD_WARN;
	}
	h->n_ksyms = pd_syms_settle(h->ksyms, h->n_ksyms);
	return PD_OK;
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

/* The sparse ELF image (see elf_image.h): an address range reserved
 * with MAP_NORESERVE, whose pages cost memory only once written, in
 * huge pages where the kernel gives them.  Every byte is read straight
 * to its offset; past the head only the last tail bytes stay, in
 * blocks, and the program and section header tables; every other page
 * reads as zeros. */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, MAP_NORESERVE, madvise */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "base/bigmem.h"
#include "elf_image.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/cursor.h"
#include "pathdoctor/input.h"

#define PIN_MAX (4u << 20)	/* a header table held whatever the window */
#define RING_BLOCK PD_INPUT_BLOCK	/* the tail is held in these */

/* The image of the last file, kept for the next one: its pages are
 * resident already, so a perf archive's dozens of files are not each
 * faulted in and zeroed by the kernel only to be read over.  At most
 * KEEP_RESIDENT bytes of it stay resident between files.  Every byte
 * below a file's length is read from that file (or zeroed, past the
 * window); what lies beyond, left from another, is outside the image
 * libelf and pd_elf_image_has see. */
#define KEEP_RESIDENT ((size_t)16 << 20)
static _Thread_local unsigned char *kept;

/* While no range is kept, a file known to be smaller than SMALL_IMAGE
 * is read to the heap: the range's first write faults in and zeroes a
 * whole huge page, which a vdso or a small binary does not need (one
 * such fault was 6% of the real profile of tests/bench-profile.sh, run
 * as a directory, 44.2 ms against 41.7).  Only such a file, so that
 * every read is the one the range would have had (where the reads end
 * decides where a cap stops them); one that turns out longer than its
 * size said moves to the range at SMALL_IMAGE bytes, a copy of that
 * much.  At most a head long, so that no block is let go from the
 * heap. */
#define SMALL_IMAGE ((size_t)256 << 10)

struct hdrs {
	uint64_t phoff, shoff;
	unsigned phent, phnum, shent, shnum;
};

static uint64_t
word(struct pd_cursor *c, bool wide)
{
	uint64_t a = pd_cursor_u32(c), b;

	if (!wide)
		return a;
	b = pd_cursor_u32(c);
	return c->le ? b << 32 | a : a << 32 | b;
}

/* e_phoff through e_shnum, at 28 (ELF32) or 32 (ELF64). */
static bool
parse_ehdr(struct elf_image *im, struct hdrs *h)
{
	const unsigned char *p = im->p;
	struct pd_cursor c;

	if (memcmp(p, ELFMAG, SELFMAG) != 0 || (p[EI_CLASS] != ELFCLASS32 &&
	    p[EI_CLASS] != ELFCLASS64) || (p[EI_DATA] != ELFDATA2LSB &&
	    p[EI_DATA] != ELFDATA2MSB))
		return false;
	im->is64 = p[EI_CLASS] == ELFCLASS64;
	im->le = p[EI_DATA] == ELFDATA2LSB;
	pd_cursor_init(&c, p + (im->is64 ? 32 : 28), im->is64 ? 30 : 22,
	    im->le);
	h->phoff = word(&c, im->is64);
	h->shoff = word(&c, im->is64);
	pd_cursor_skip(&c, 4 + 2);		/* e_flags, e_ehsize */
	h->phent = pd_cursor_u16(&c);
	h->phnum = pd_cursor_u16(&c);
	h->shent = pd_cursor_u16(&c);
	h->shnum = pd_cursor_u16(&c);
	return pd_cursor_ok(&c);
}

/* A header table kept whatever the window: empty when it does not fit
 * the file's range or is larger than PIN_MAX. */
static struct elf_pin
pin_of(uint64_t off, unsigned ent, unsigned n)
{
	uint64_t size = (uint64_t)ent * n;

	if (!off || !size || size > PIN_MAX ||
	    !pd_span_ok(off, size, ELF_IMAGE_MAX))
		return (struct elf_pin){ 0, 0 };
	return (struct elf_pin){ off, off + size };
}

/* Where the bytes the symbol reader needs end: the header tables and
 * the symbol, string, relocation and note sections. */
static uint64_t
needed_end(const struct elf_image *im, const struct hdrs *h)
{
	uint64_t end = im->pin[0].end > im->pin[1].end ? im->pin[0].end :
	    im->pin[1].end;
	unsigned need = im->is64 ? 64 : 40;

	if (h->shent < need)
		return end;
	for (unsigned i = 0; i < h->shnum; i++) {
		struct pd_cursor c;

		pd_cursor_init(&c, im->p + im->pin[1].off +
		    (uint64_t)i * h->shent, need, im->le);
		pd_cursor_skip(&c, 4);			/* sh_name */
		uint32_t type = pd_cursor_u32(&c);

		pd_cursor_skip(&c, im->is64 ? 16 : 8);	/* flags, addr */
		uint64_t off = word(&c, im->is64), size = word(&c, im->is64);

		if ((type == SHT_SYMTAB || type == SHT_DYNSYM ||
		    type == SHT_STRTAB || type == SHT_RELA ||
		    type == SHT_NOTE) && pd_span_ok(off, size, ELF_IMAGE_MAX) &&
		    off + size > end)
			end = off + size;
	}
	return end;
}

/* Past the head the window keeps the last tail bytes, in blocks: block
 * b holds the file's bytes from head + b * RING_BLOCK, and once n
 * blocks are in, each new one lets the oldest go (zeroed, its pages
 * returned).  Every byte is read straight to its offset in the image,
 * so a file within the window costs no copy; the pins' bytes in a
 * block let go are kept aside and put back at the end. */
struct tail_state {
	size_t n;			/* blocks kept */
	uint64_t dropped;		/* blocks [0, dropped) let go */
	unsigned char *saved[2];	/* the pins' bytes, as let go */
};

/* [off, off + len) of the image reads zeros again: whole pages given
 * back, the edges cleared. */
static void
zero_range(struct elf_image *im, uint64_t off, uint64_t len)
{
	const uint64_t pg = 4096;
	uint64_t a = (off + pg - 1) & ~(pg - 1), b = (off + len) & ~(pg - 1);

	if (a >= b) {
		memset(im->p + off, 0, (size_t)len);
		return;
	}
	memset(im->p + off, 0, (size_t)(a - off));
	memset(im->p + b, 0, (size_t)(off + len - b));
	if (madvise(im->p + a, (size_t)(b - a), MADV_DONTNEED) != 0)
		memset(im->p + a, 0, (size_t)(b - a));
}

/* The pins' bytes in [off, off + n), copied aside before they go. */
static void
save_pins(struct elf_image *im, struct tail_state *t, uint64_t off,
    uint64_t n)
{
	for (unsigned i = 0; i < 2; i++) {
		uint64_t a = im->pin[i].off > off ? im->pin[i].off : off;
		uint64_t b = im->pin[i].end < off + n ? im->pin[i].end : off + n;

		if (a >= b)
			continue;
		if (!t->saved[i])
			t->saved[i] = pd_xmalloc((size_t)(im->pin[i].end -
			    im->pin[i].off));
		memcpy(t->saved[i] + (a - im->pin[i].off), im->p + a,
		    (size_t)(b - a));
	}
}

/* Lets go every block that n newer ones follow. */
static void
drop_old(struct elf_image *im, struct tail_state *t)
{
	if (im->len <= im->head)
		return;
	uint64_t last = (im->len - im->head - 1) / RING_BLOCK;

	while (t->dropped + t->n <= last) {
		uint64_t off = im->head + t->dropped * RING_BLOCK;

		save_pins(im, t, off, RING_BLOCK);
		zero_range(im, off, RING_BLOCK);
		t->dropped++;
	}
}

/* At the end: what was let go is the lost range, the pins back in it. */
static void
tail_settle(struct elf_image *im, struct tail_state *t)
{
	if (t->dropped) {
		im->lost_lo = im->head;
		im->lost_hi = im->head + t->dropped * RING_BLOCK;
	}
	for (unsigned i = 0; i < 2; i++) {
		uint64_t a = im->pin[i].off, b = im->pin[i].end;

		if (!t->saved[i])
			continue;
		if (b > im->lost_hi)
			b = im->lost_hi;
		if (a < im->lost_lo)
			a = im->lost_lo;
		if (a < b)
			memcpy(im->p + a, t->saved[i] + (a - im->pin[i].off),
			    (size_t)(b - a));
		free(t->saved[i]);
		t->saved[i] = NULL;
	}
}

/* After a read: the headers once they are in, and where to stop. */
static void
settle(struct elf_image *im, struct hdrs *h, int *state, uint64_t *stop)
{
	if (*state == 0 && im->len >= 64) {
		*state = 1;
		if (!parse_ehdr(im, h)) {
			*stop = im->len;	/* libelf will say why */
			return;
		}
		im->pin[0] = pin_of(h->phoff, h->phent, h->phnum);
		im->pin[1] = pin_of(h->shoff, h->shent, h->shnum);
		if (!h->shoff) {		/* no sections */
			*stop = im->pin[0].end > 64 ? im->pin[0].end : 64;
			*state = 2;
		}
	}
	if (*state == 1 && im->pin[1].end && im->len >= im->pin[1].end) {
		*stop = needed_end(im, h);
		*state = 2;
	}
}

/* A member had whole where it lies (pd_input_whole): its len bytes, of
 * which the input's head replays the first head_len. */
struct in_place {
	size_t len, head_len;
};

/* The next read of room bytes: from the input, or, in place, what that
 * read would have returned (the rest of the head, else of the file), so
 * that where the image ends is where the stream would have left it. */
static ssize_t
next_read(struct pd_input *in, struct elf_image *im, size_t room,
    const struct in_place *ip)
{
	if (!ip)
		return pd_input_read(in, im->p + im->len, room);
	size_t avail = im->len < ip->head_len ? ip->head_len - im->len :
	    ip->len - im->len;

	return (ssize_t)(room < avail ? room : avail);
}

/* The reserved range: the one kept, or a new one. */
static unsigned char *
range_take(const char **why)
{
	unsigned char *p = kept;

	kept = NULL;
	if (p)
		return p;
	p = mmap(NULL, ELF_IMAGE_MAX, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		*why = "no address space for the file's image";
		return NULL;
	}
	pd_big_advise(p, (size_t)ELF_IMAGE_MAX);
	return p;
}

/* A file read to the heap outgrows it: its bytes move to the range. */
static int
leave_heap(struct elf_image *im, const char **why)
{
	unsigned char *p = range_take(why);

	if (!p)
		return -1;
	memcpy(p, im->p, im->len);
	free(im->p);
	im->p = p;
	im->heap_cap = 0;
	return 0;
}

static int
stream(struct pd_input *in, struct elf_image *im, struct tail_state *t,
    const struct in_place *ip, const char **why)
{
	struct hdrs h = { 0 };
	uint64_t stop = ELF_IMAGE_MAX;
	int state = 0;			/* 0: before the ELF header, 1: before
					 * the section headers, 2: after */
	int rc = 0;

	while (im->len < stop) {
		/* reads end where the head and each block end, as where
		 * the stream is left depends on them */
		size_t room = im->len < im->head ? im->head - im->len :
		    RING_BLOCK - (size_t)((im->len - im->head) % RING_BLOCK);

		if (room > stop - im->len)
			room = (size_t)(stop - im->len);
		if (im->heap_cap && im->len == im->heap_cap &&
		    leave_heap(im, why) != 0) {
			rc = -1;
			break;
		}
		if (im->heap_cap && room > im->heap_cap - im->len)
			room = im->heap_cap - im->len;
		ssize_t k = next_read(in, im, room, ip);

		if (k < 0) {
			*why = in->errmsg;
			rc = -1;
			break;
		}
		if (k == 0)
			break;
		im->len += (size_t)k;
		settle(im, &h, &state, &stop);
		drop_old(im, t);
	}
	tail_settle(im, t);
	return rc;
}

int
pd_elf_image_read(struct pd_input *in, size_t window, int64_t size,
    struct elf_image *im, const char **why)
{
	struct tail_state t = { 0 };

	memset(im, 0, sizeof(*im));
	if (window > ELF_IMAGE_MAX)
		window = (size_t)ELF_IMAGE_MAX;
	im->head = window / 4 < 64 ? 64 : window / 4;
	im->tail = window > im->head ? window - im->head : 0;
	t.n = im->tail / RING_BLOCK ? im->tail / RING_BLOCK : 1;

	/* where the file lies whole and within the window (so that no
	 * block would be let go), its own pages are the image */
	const unsigned char *whole;
	size_t head_len = in->head_len;
	ssize_t n = pd_input_whole(in, im->head + t.n * RING_BLOCK, &whole);

	if (n > 0) {
		struct in_place ip = { (size_t)n, head_len };

		im->p = (unsigned char *)whole;
		im->borrowed = true;
		return stream(in, im, &t, &ip, why);
	}
	if (!kept && size >= 0 && (uint64_t)size < SMALL_IMAGE &&
	    im->head >= SMALL_IMAGE) {
		im->p = pd_xmalloc(SMALL_IMAGE);
		im->heap_cap = SMALL_IMAGE;
	} else if (!(im->p = range_take(why))) {
		return -1;
	}
	return stream(in, im, &t, NULL, why);
}

void
pd_elf_image_free(struct elf_image *im)
{
	if (!im->p)
		return;
	if (im->borrowed) {
		/* the input's, unmapped when it closes */
	} else if (im->heap_cap) {
		free(im->p);
	} else if (kept) {
		munmap(im->p, ELF_IMAGE_MAX);
	} else {
		/* what the next file will not need again goes back; the
		 * bytes kept lie past its length or are read over */
		if (im->len > KEEP_RESIDENT)
			(void)madvise(im->p + KEEP_RESIDENT, im->len -
			    KEEP_RESIDENT, MADV_DONTNEED);
		kept = im->p;
	}
	im->p = NULL;
}

bool
pd_elf_image_has(const struct elf_image *im, uint64_t off, uint64_t size)
{
	if (!pd_span_ok(off, size, im->len))
		return false;
	if (!size || off + size <= im->lost_lo || off >= im->lost_hi)
		return true;
	for (unsigned i = 0; i < 2; i++)
		if (off >= im->pin[i].off && off + size <= im->pin[i].end)
			return true;
	return false;
}

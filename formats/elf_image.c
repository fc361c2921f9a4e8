/* The sparse ELF image (see elf_image.h): an address range reserved
 * with MAP_NORESERVE, whose pages cost memory only once written.  The
 * head is read straight to its offsets; past it the stream goes
 * through a ring of blocks holding the last tail bytes, copied to
 * their offsets at the end, and the program and section header tables
 * are copied as they pass; every other page stays unwritten and reads
 * as zeros. */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, MAP_NORESERVE, madvise */
#include <elf.h>
#include <string.h>
#include <sys/mman.h>
#include "elf_image.h"
#include "pathdoctor/cursor.h"
#include "pathdoctor/input.h"

#define PIN_MAX (4u << 20)	/* a header table held whatever the window */
#define RING_BLOCK PD_INPUT_BLOCK	/* the tail is held in these */

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

/* The ring of the last tail bytes past the head, mapped apart so that
 * each block's pages go back as soon as it is copied: block b, the
 * file's bytes from head + b * RING_BLOCK, is in slot b % n. */
struct ring {
	unsigned char *buf;
	size_t n;
};

static void
ring_free(struct ring *r)
{
	if (r->buf)
		munmap(r->buf, r->n * RING_BLOCK);
}

/* Where the next read at im->len goes, and how much of it fits. */
static unsigned char *
ring_at(struct elf_image *im, struct ring *r, size_t *room)
{
	if (im->len < im->head) {
		*room = im->head - im->len;
		return im->p + im->len;
	}
	uint64_t rel = im->len - im->head, b = rel / RING_BLOCK;
	size_t k = (size_t)(b % r->n);

	*room = RING_BLOCK - (size_t)(rel % RING_BLOCK);
	return r->buf + k * RING_BLOCK + rel % RING_BLOCK;
}

/* The bytes [off, off + n) just read into the ring that the pins
 * need, copied to the image. */
static void
copy_pins(struct elf_image *im, const unsigned char *src, uint64_t off,
    size_t n)
{
	for (unsigned i = 0; i < 2; i++) {
		uint64_t a = im->pin[i].off > off ? im->pin[i].off : off;
		uint64_t b = im->pin[i].end < off + n ? im->pin[i].end : off + n;

		if (a < b)
			memcpy(im->p + a, src + (a - off), (size_t)(b - a));
	}
}

/* At the end: the ring's blocks to their offsets, the range before
 * them as lost. */
static void
ring_settle(struct elf_image *im, struct ring *r)
{
	if (im->len <= im->head)
		return;
	uint64_t last = (im->len - im->head - 1) / RING_BLOCK;
	uint64_t first = last + 1 >= r->n ? last + 1 - r->n : 0;

	im->lost_lo = im->head;
	im->lost_hi = im->head + first * RING_BLOCK;
	for (uint64_t b = first; b <= last; b++) {
		uint64_t off = im->head + b * RING_BLOCK;
		size_t n = im->len - off < RING_BLOCK ? (size_t)(im->len - off) :
		    RING_BLOCK;
		size_t k = (size_t)(b % r->n);

		memcpy(im->p + off, r->buf + k * RING_BLOCK, n);
		(void)madvise(r->buf + k * RING_BLOCK, RING_BLOCK,
		    MADV_DONTNEED);
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

static int
stream(struct pd_input *in, struct elf_image *im, struct ring *r,
    const char **why)
{
	struct hdrs h = { 0 };
	uint64_t stop = ELF_IMAGE_MAX;
	int state = 0;			/* 0: before the ELF header, 1: before
					 * the section headers, 2: after */

	while (im->len < stop) {
		size_t room;
		unsigned char *dst = ring_at(im, r, &room);

		if (room > stop - im->len)
			room = (size_t)(stop - im->len);
		ssize_t k = pd_input_read(in, dst, room);

		if (k < 0) {
			*why = in->errmsg;
			return -1;
		}
		if (k == 0)
			break;
		if (im->len >= im->head)
			copy_pins(im, dst, im->len, (size_t)k);
		im->len += (size_t)k;
		settle(im, &h, &state, &stop);
	}
	ring_settle(im, r);
	return 0;
}

int
pd_elf_image_read(struct pd_input *in, size_t window, struct elf_image *im,
    const char **why)
{
	struct ring r = { NULL, 0 };
	int rc;

	memset(im, 0, sizeof(*im));
	if (window > ELF_IMAGE_MAX)
		window = (size_t)ELF_IMAGE_MAX;
	im->head = window / 4 < 64 ? 64 : window / 4;
	im->tail = window > im->head ? window - im->head : 0;
	im->p = mmap(NULL, ELF_IMAGE_MAX, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (im->p == MAP_FAILED) {
		im->p = NULL;
		*why = "no address space for the file's image";
		return -1;
	}
	r.n = im->tail / RING_BLOCK ? im->tail / RING_BLOCK : 1;
	r.buf = mmap(NULL, r.n * RING_BLOCK, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r.buf == MAP_FAILED) {
		r.buf = NULL;
		*why = "no memory for the file's window";
		return -1;
	}
	rc = stream(in, im, &r, why);
	ring_free(&r);
	return rc;
}

void
pd_elf_image_free(struct elf_image *im)
{
	if (im->p)
		munmap(im->p, ELF_IMAGE_MAX);
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

/* An ELF member as a sparse image for libelf: every byte at its file
 * offset in a reserved, mostly untouched address range, of which only a
 * bounded window is ever resident.  Kept: the first quarter of the
 * window (ELF and program headers, .dynsym, .dynstr, notes,
 * .rela.plt), the last three quarters before the section headers
 * (.symtab, .strtab, .shstrtab) and the program and section header
 * tables; the pages between are never written and read as zeros.  The
 * stream is left as soon as the section headers and every section
 * after them that the symbol reader needs are in. */
#ifndef PD_FORMATS_ELF_IMAGE_H
#define PD_FORMATS_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_input;

/* Largest ELF file read (address space reserved, not memory). */
#define ELF_IMAGE_MAX (4ull << 30)

struct elf_pin {
	uint64_t off, end;
};

struct elf_image {
	unsigned char *p;		/* ELF_IMAGE_MAX reserved, or
					 * heap_cap bytes of the heap */
	size_t heap_cap;
	size_t len;			/* bytes of the file read */
	size_t head, tail;		/* window: kept from 0, before pos */
	uint64_t lost_lo, lost_hi;	/* not held: [lo, hi) */
	struct elf_pin pin[2];		/* program and section headers */
	bool le, is64;
	bool borrowed;			/* p is the member in place, the
					 * input's (pd_input_whole) */
};

/* Reads the member through a window of window bytes; size is its
 * length where known (a plain member's), else -1.  0, or -1 with why
 * (a message in static storage). */
int pd_elf_image_read(struct pd_input *in, size_t window, int64_t size,
    struct elf_image *im, const char **why);
void pd_elf_image_free(struct elf_image *im);
/* Whether the file's bytes [off, off + size) are held, not released
 * (and not past what was read). */
bool pd_elf_image_has(const struct elf_image *im, uint64_t off,
    uint64_t size);

#endif

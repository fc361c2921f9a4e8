/* "elf": an executable, shared library, vmlinux or separate debug file in
 * the bundle (perf archive puts the build-id cache in), read with
 * libelf: its GNU build id, its loadable segments, its function
 * symbols and labels (.symtab, else .dynsym) as perf loads them and its
 * PLT stubs as perf names them, so that a profile's user addresses get
 * names.  Read as a sparse image through a window of the spool cap's
 * size (elf_image.c): sections outside it are noted, not read. */
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/cursor.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "elf_image.h"

#define ELF_SYMS_MAX (4u << 20)
#define NT_GNU_BUILD_ID_TYPE 3

/* The file and what of it the window held: lost, the kinds of
 * sections that lay outside the window; past, those whose offset and
 * size point past the end of the file. */
struct elf_src {
	Elf *e;
	const struct elf_image *im;
	unsigned lost, past;
};
enum { LOST_SYMTAB = 1, LOST_DYNSYM = 2, LOST_NOTE = 4, LOST_PLT = 8 };

/* Whether a section's bytes are in the image (NOBITS has none); when
 * not, kind goes to lost or past. */
static bool
held(struct elf_src *x, const GElf_Shdr *sh, unsigned kind)
{
	if (sh->sh_type == SHT_NOBITS ||
	    pd_elf_image_has(x->im, sh->sh_offset, sh->sh_size))
		return true;
	if (pd_span_ok(sh->sh_offset, sh->sh_size, x->im->len))
		x->lost |= kind;
	else
		x->past |= kind;
	return false;
}

/* The same for the section at index i (a table's sh_link). */
static bool
held_at(struct elf_src *x, size_t i, unsigned kind)
{
	Elf_Scn *scn = elf_getscn(x->e, i);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && held(x, &sh, kind);
}

static int
bid_elf(const struct pd_member *m)
{
	if (m->head_len >= 16 && memcmp(m->head, "\177ELF", 4) == 0 &&
	    (m->head[4] == 1 || m->head[4] == 2) &&
	    (m->head[5] == 1 || m->head[5] == 2))
		return 48;
	return 0;
}

/* The first section called name, its header in *sh; NULL when none. */
static Elf_Scn *
section_named(Elf *e, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstr;

	if (elf_getshdrstrndx(e, &shstr) != 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *s;

		if (gelf_getshdr(scn, sh) &&
		    (s = elf_strptr(e, shstr, sh->sh_name)) &&
		    strcmp(s, name) == 0)
			return scn;
	}
	return NULL;
}

/* A separate debug file keeps symbols but not code: .text is NOBITS. */
static bool
debug_only(Elf *e)
{
	GElf_Shdr sh;

	return section_named(e, ".text", &sh) && sh.sh_type == SHT_NOBITS;
}

static void
build_id_of(struct elf_src *x, struct pd_elf *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(x->e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		if (!held(x, &sh, LOST_NOTE))
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;

		while (data && (off = gelf_getnote(data, off, &nh, &name_off,
		    &desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID_TYPE ||
			    nh.n_namesz != 4 || nh.n_descsz == 0 ||
			    nh.n_descsz > 20 || memcmp((char *)data->d_buf +
			    name_off, "GNU", 4) != 0)
				continue;
			const unsigned char *d = (unsigned char *)data->d_buf +
			    desc_off;

			for (size_t i = 0; i < nh.n_descsz; i++)
				snprintf(out->build_id + 2 * i, 3, "%02x", d[i]);
			return;
		}
	}
}

/* ARM and AArch64 mark runs of code and data with "$a", "$d", "$t",
 * "$x" (perhaps ".suffix"), RISC-V with "$d" and "$x..."; they are
 * labels that name no function, and perf drops them. */
static bool
mapping_symbol(unsigned machine, const char *name)
{
	if (name[0] != '$' || !name[1])
		return false;
	if (machine == EM_ARM || machine == EM_AARCH64)
		return strchr("adtx", name[1]) && (!name[2] || name[2] == '.');
	return machine == EM_RISCV && strchr("dx", name[1]);
}

/* A label (STT_NOTYPE) that perf takes for a function: seen outside its
 * object, in a section that is loaded and whose name says text or data.
 * ld.so's _start and _dl_start_user are such labels. */
static bool
label_of(Elf *e, size_t shstr, const GElf_Sym *s)
{
	unsigned vis = GELF_ST_VISIBILITY(s->st_other);
	const char *sec;
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (vis == STV_HIDDEN || vis == STV_INTERNAL ||
	    s->st_shndx >= SHN_LORESERVE)	/* ABS, COMMON, XINDEX */
		return false;
	if (!(scn = elf_getscn(e, s->st_shndx)) || !gelf_getshdr(scn, &sh) ||
	    !(sh.sh_flags & SHF_ALLOC))
		return false;
	sec = elf_strptr(e, shstr, sh.sh_name);
	return sec && (strstr(sec, "text") || strstr(sec, "data"));
}

/* The symbols perf loads as functions: STT_FUNC, STT_GNU_IFUNC and the
 * labels above, named, no mapping symbols. */
static bool
function_sym(Elf *e, size_t shstr, unsigned machine, const GElf_Sym *s,
    const char *name)
{
	unsigned type = GELF_ST_TYPE(s->st_info);

	if (!name || !*name || mapping_symbol(machine, name))
		return false;
	return type == STT_FUNC || type == STT_GNU_IFUNC ||
	    (type == STT_NOTYPE && label_of(e, shstr, s));
}

/* A symbol's address and place in its table. */
struct sym_order {
	uint64_t addr;
	unsigned idx;
};

/* o (in table order) sorted by address, equal addresses in table
 * order: a stable radix sort, a byte a pass from the lowest, skipping
 * the bytes every address shares (most of the high ones).  qsort's
 * merge sort took a tenth of the time a build-id cache's files took. */
static void
sort_by_addr(struct sym_order *o, unsigned n)
{
	unsigned count[8][256];	/* 8 KB: bundles may be read on threads */
	struct sym_order *tmp = pd_xmalloc((n + 1) * sizeof(*tmp));
	struct sym_order *from = o, *to = tmp;

	memset(count, 0, sizeof(count));
	for (unsigned i = 0; i < n; i++)
		for (unsigned b = 0; b < 8; b++)
			count[b][(o[i].addr >> (8 * b)) & 0xff]++;
	for (unsigned b = 0; b < 8; b++) {
		unsigned at = 0;

		if (count[b][(o[0].addr >> (8 * b)) & 0xff] == n)
			continue;	/* one value: the order stands */
		for (unsigned v = 0; v < 256; v++) {
			unsigned c = count[b][v];

			count[b][v] = at;
			at += c;
		}
		for (unsigned i = 0; i < n; i++)
			to[count[b][(from[i].addr >> (8 * b)) & 0xff]++] =
			    from[i];
		struct sym_order *t = from;

		from = to;
		to = t;
	}
	if (from != o)
		memcpy(o, from, n * sizeof(*o));
	free(tmp);
}

/* perf gives a symbol without a size (a label, an asm function) the
 * extent up to the next symbol's start, in address then table order
 * (as it inserts them), and the last one up to 4096 bytes past the page
 * boundary at or after it (symbols__fixup_end), before it settles
 * symbols at one address: one listed before another at its address
 * stays sizeless and loses there, one listed after is sized and may win
 * by its name.  v is left in that order: pd_syms_settle's stable sort by
 * address and name then only orders the names at one address, where on
 * a symbol table's own order (locals by file, then globals) it fell back
 * to qsort, a sixth of the time a build-id cache's files took.  The
 * result is the same: equal symbols keep their table order either way. */
static void
size_like_perf(struct pd_sym *v, unsigned n)
{
	struct sym_order *o = pd_xmalloc((n + 1) * sizeof(*o));

	for (unsigned i = 0; i < n; i++)
		o[i] = (struct sym_order){ v[i].addr, i };
	if (n)
		sort_by_addr(o, n);
	for (unsigned i = 0; i < n; i++) {
		struct pd_sym *s = &v[o[i].idx];

		if (s->size)
			continue;
		if (i + 1 < n)
			s->size = o[i + 1].addr - s->addr;
		else if (s->addr <= UINT64_MAX - 2 * 4096)
			s->size = ((s->addr + 4095) & ~(uint64_t)4095) + 4096 -
			    s->addr;
	}
	/* in place, cycle by cycle: slot i takes the symbol o[i] names,
	 * and o[i] is then marked done */
	for (unsigned i = 0; i < n; i++) {
		if (o[i].idx == i)
			continue;
		struct pd_sym first = v[i];
		unsigned j = i;

		for (;;) {
			unsigned k = o[j].idx;

			o[j].idx = j;
			if (k == i) {
				v[j] = first;
				break;
			}
			v[j] = v[k];
			j = k;
		}
	}
	free(o);
}

/* Appends one symbol to the heap vector *v of *cap. */
static void
push_sym(struct pd_sym **v, unsigned *n, unsigned *cap, struct pd_sym s)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		*v = pd_xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = s;
}

/* The function symbols of one table, in the arena; the vector grows
 * with what the table holds, not with what its header claims. */
static void
table_syms(struct elf_src *x, Elf_Scn *scn, const GElf_Shdr *sh,
    size_t shstr, unsigned machine, struct pd_elf *out, struct pd_arena *a)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = data ? sh->sh_size / sh->sh_entsize : 0;
	struct pd_sym *v = NULL;
	unsigned k = 0, cap = 0;

	if (n > ELF_SYMS_MAX)
		n = ELF_SYMS_MAX;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(data, (int)i, &s) || !s.st_value ||
		    s.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(x->e, sh->sh_link, s.st_name);
		if (name && (strcmp(name, "_text") == 0 ||
		    strcmp(name, "_stext") == 0) && !out->text_addr)
			out->text_addr = s.st_value;
		if (!function_sym(x->e, shstr, machine, &s, name))
			continue;
		push_sym(&v, &k, &cap, (struct pd_sym){ s.st_value, s.st_size,
		    pd_arena_strdup(a, name), 0,
		    GELF_ST_BIND(s.st_info) <= STB_WEAK ?
		    GELF_ST_BIND(s.st_info) : STB_LOCAL });
	}
	out->syms = pd_arena_alloc(a, (k + 1) * sizeof(*out->syms));
	if (k)
		memcpy(out->syms, v, k * sizeof(*v));
	out->n_syms = k;
	free(v);
}

/* Function symbols of the table of type t; false when it has none. */
static bool
symbols_of(struct elf_src *x, Elf64_Word t, struct pd_elf *out,
    struct pd_arena *a)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t shstr;

	/* without section names no label qualifies; functions still do */
	if (elf_getshdrstrndx(x->e, &shstr) != 0)
		shstr = SHN_UNDEF;
	if (!gelf_getehdr(x->e, &eh))
		eh.e_machine = EM_NONE;
	while ((scn = elf_nextscn(x->e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != t ||
		    !sh.sh_entsize)
			continue;
		unsigned kind = t == SHT_SYMTAB ? LOST_SYMTAB : LOST_DYNSYM;

		if (!held(x, &sh, kind) || !held_at(x, sh.sh_link, kind))
			continue;
		table_syms(x, scn, &sh, shstr, eh.e_machine, out, a);
		size_like_perf(out->syms, out->n_syms);
		out->n_syms = pd_syms_settle(out->syms, out->n_syms);
		out->from_symtab = t == SHT_SYMTAB;
		return out->n_syms > 0;
	}
	return false;
}

/* perf's NAME@plt symbols (its dso__synthesize_plt_symbols), so that a
 * sample in a PLT stub gets the name perf report gives it.  x86_64 and
 * aarch64 only: the stub sizes are the machine's. */
struct plt_layout {
	uint64_t addr, off, ent, n;	/* n stubs of ent bytes from addr,
					 * file offset off */
	uint64_t head_addr, head_size;	/* perf's ".plt" before them */
};

/* One .rela.plt entry; idx keeps the file's order among equal slots. */
struct plt_rel {
	uint64_t got, addend;
	uint32_t sym, type, idx;
};

struct plt_src {
	struct elf_src *x;
	Elf *e;
	unsigned machine;
	Elf_Data *syms;			/* the table .rela.plt names */
	size_t strtab;
};

/* An x86 stub's size as perf takes it: sh_entsize when 8 or 16, else
 * what the alignment says. */
static uint64_t
x86_plt_entsize(const GElf_Shdr *sh)
{
	if (sh->sh_entsize == 8 || sh->sh_entsize == 16)
		return sh->sh_entsize;
	return sh->sh_addralign == 8 ? 8 : 16;
}

/* A PROGBITS section whose addresses and file offsets do not wrap. */
static bool
code_section(Elf *e, const char *name, GElf_Shdr *sh)
{
	return section_named(e, name, sh) && sh->sh_type == SHT_PROGBITS &&
	    sh->sh_size <= UINT64_MAX - sh->sh_addr &&
	    sh->sh_size <= UINT64_MAX - sh->sh_offset;
}

/* x86_64: PLT0, then stubs of PLT0's size; with IBT the stubs that calls
 * reach are in .plt.sec and all of .plt is lazy-binding code.  aarch64:
 * a 32-byte PLT0, 16-byte stubs.  A .plt of exactly one stub per
 * relocation has no PLT0 (perf's rule). */
static bool
plt_layout_of(Elf *e, unsigned machine, size_t n_rel, struct plt_layout *l)
{
	GElf_Shdr plt, sec;
	uint64_t head;

	if (!code_section(e, ".plt", &plt))
		return false;
	l->ent = machine == EM_AARCH64 ? 16 : x86_plt_entsize(&plt);
	head = machine == EM_AARCH64 ? 32 : l->ent;
	l->head_addr = plt.sh_addr;
	l->head_size = head;
	if (machine == EM_X86_64 && code_section(e, ".plt.sec", &sec)) {
		l->head_size = plt.sh_size;
		l->ent = x86_plt_entsize(&sec);
		plt = sec;
		head = 0;
	} else if (plt.sh_size % l->ent == 0 && plt.sh_size / l->ent == n_rel) {
		l->head_size = head = 0;
	}
	if (plt.sh_size < head)
		return false;
	l->addr = plt.sh_addr + head;
	l->off = plt.sh_offset + head;
	l->n = (plt.sh_size - head) / l->ent;
	return true;
}

static int
cmp_rel(const void *x, const void *y)
{
	const struct plt_rel *a = x, *b = y;

	if (a->got != b->got)
		return a->got < b->got ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* .rela.plt's entries (at most ELF_SYMS_MAX, their count in *n) and the
 * symbol table they name; NULL when there is none.  free() it. */
static struct plt_rel *
plt_rels(struct plt_src *src, size_t *n)
{
	GElf_Shdr rsh, ssh;
	Elf_Scn *rscn = section_named(src->e, ".rela.plt", &rsh), *sscn;
	Elf_Data *data;
	GElf_Rela r;
	size_t k = 0;

	if (!rscn || rsh.sh_type != SHT_RELA || !rsh.sh_entsize ||
	    !(sscn = elf_getscn(src->e, rsh.sh_link)) ||
	    !gelf_getshdr(sscn, &ssh) || (ssh.sh_type != SHT_DYNSYM &&
	    ssh.sh_type != SHT_SYMTAB))
		return NULL;
	/* checked first: libelf copies what it converts */
	if (!held(src->x, &rsh, LOST_PLT) || !held(src->x, &ssh, LOST_PLT) ||
	    !held_at(src->x, ssh.sh_link, LOST_PLT))
		return NULL;
	if (!(data = elf_getdata(rscn, NULL)) ||
	    !(src->syms = elf_getdata(sscn, NULL)))
		return NULL;
	src->strtab = ssh.sh_link;
	*n = rsh.sh_size / rsh.sh_entsize;
	if (*n > ELF_SYMS_MAX)
		*n = ELF_SYMS_MAX;
	struct plt_rel *v = pd_xmalloc((*n + 1) * sizeof(*v));

	for (; k < *n && gelf_getrela(data, (int)k, &r); k++)
		v[k] = (struct plt_rel){ r.r_offset, (uint64_t)r.r_addend,
		    (uint32_t)GELF_R_SYM(r.r_info),
		    (uint32_t)GELF_R_TYPE(r.r_info), (uint32_t)k };
	*n = k;
	return v;
}

/* perf's name for a stub: the symbol its relocation names; else, for an
 * x86_64 IRELATIVE one, the function its addend (the IFUNC resolver)
 * starts, in this file's table (perf also asks that it be the IFUNC,
 * which a resolver's address is); else the stub's file offset. */
static const char *
plt_name(const struct plt_src *src, const struct plt_rel *r, uint64_t off,
    const struct pd_elf *out, struct pd_arena *a)
{
	const char *name = NULL;
	GElf_Sym s;

	if (r->sym <= INT_MAX && gelf_getsym(src->syms, (int)r->sym, &s))
		name = elf_strptr(src->e, src->strtab, s.st_name);
	if ((!name || !*name) && src->machine == EM_X86_64 &&
	    r->type == R_X86_64_IRELATIVE) {
		const struct pd_sym *f = pd_sym_at(out->syms, out->n_syms,
		    r->addend);

		name = f && f->addr == r->addend ? f->name : NULL;
	}
	if (name && *name)
		return pd_arena_printf(a, "%s@plt", name);
	return pd_arena_printf(a, "offset_%#" PRIx64 "@plt", off);
}

static void
plt_of(struct elf_src *x, struct pd_elf *out, struct pd_arena *a)
{
	Elf *e = x->e;
	struct plt_src src = { x, e, 0, NULL, 0 };
	struct plt_layout l;
	struct plt_rel *v;
	GElf_Ehdr eh;
	size_t n = 0;

	if (!gelf_getehdr(e, &eh) || (eh.e_machine != EM_X86_64 &&
	    eh.e_machine != EM_AARCH64))
		return;
	src.machine = eh.e_machine;
	if (!(v = plt_rels(&src, &n)) || !plt_layout_of(e, src.machine, n,
	    &l))
		goto out;
	/* x86 ld puts IRELATIVE relocations last; their GOT slots, like
	 * everyone's, are in stub order (perf sorts the same way) */
	if (src.machine == EM_X86_64)
		qsort(v, n, sizeof(*v), cmp_rel);
	if (n > l.n)
		n = l.n;
	out->plt = pd_arena_alloc(a, (n + 1) * sizeof(*out->plt));
	if (l.head_size)
		out->plt[out->n_plt++] = (struct pd_sym){ l.head_addr,
		    l.head_size, ".plt", 0, STB_GLOBAL };
	for (size_t i = 0; i < n; i++)
		out->plt[out->n_plt++] = (struct pd_sym){ l.addr + i * l.ent,
		    l.ent, plt_name(&src, &v[i], l.off + i * l.ent, out, a),
		    0, STB_GLOBAL };
	out->n_plt = pd_syms_settle(out->plt, out->n_plt);
out:
	free(v);
}

static void
segments_of(Elf *e, struct pd_elf *x)
{
	size_t nph = 0;

	if (elf_getphdrnum(e, &nph) != 0)
		return;
	for (size_t i = 0; i < nph && x->n_segs < PD_ELF_SEGS; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			x->segs[x->n_segs++] = (struct pd_elf_seg){
			    ph.p_offset, ph.p_vaddr, ph.p_memsz };
	}
}

static const char *
kinds(struct pd_arena *a, unsigned k)
{
	return pd_arena_printf(a, "%s%s%s%s", k & LOST_SYMTAB ? " .symtab" :
	    "", k & LOST_DYNSYM ? " .dynsym" : "", k & LOST_NOTE ? " notes" :
	    "", k & LOST_PLT ? " .rela.plt" : "");
}

/* What lay outside the window or the file, by name. */
static void
note_lost(const struct elf_src *src, size_t window, struct pd_diag *d)
{
	if (src->lost)
		pd_diag_note(d, PD_WARN, "elf.window", 0, "%s not read: outside "
		    "the %zu %s window (the file's first quarter of it, and "
		    "the rest before its section headers); --max-spool widens "
		    "it", kinds(d->arena, src->lost) + 1, window >= 1u << 20 ?
		    window >> 20 : window >> 10, window >= 1u << 20 ? "MiB" :
		    "KiB");
	if (src->past)
		pd_diag_note(d, PD_WARN, "elf.section-offset", 0, "%s not "
		    "read: their offset and size point past the end of the "
		    "file", kinds(d->arena, src->past) + 1);
}

static void
analyse(struct elf_src *src, const struct pd_member *m, struct pd_host *h,
    struct pd_diag *d, size_t window)
{
	struct pd_elf *x = pd_arena_alloc(d->arena, sizeof(*x));

	x->member = m->path;
	x->debug_only = debug_only(src->e);
	build_id_of(src, x);
	segments_of(src->e, x);
	bool named = symbols_of(src, SHT_SYMTAB, x, d->arena) ||
	    symbols_of(src, SHT_DYNSYM, x, d->arena);

	if (!x->debug_only)
		plt_of(src, x, d->arena);
	note_lost(src, window, d);
	if (!named && !((src->lost | src->past) & (LOST_SYMTAB | LOST_DYNSYM)))
		pd_diag_note(d, PD_WARN, "elf.no-symbols", 0, "no function "
		    "symbols (stripped): addresses in it%s stay unnamed",
		    x->n_plt ? " but its PLT stubs" : "");
	if (!x->build_id[0])
		pd_diag_note(d, PD_WARN, "elf.no-build-id", 0, "no GNU build "
		    "id: matched to profiles by file name only");
	x->next = h->elfs;
	h->elfs = x;
}

static enum pd_status
parse_elf(const struct pd_member *m, struct pd_input *in, struct pd_host *h,
    struct pd_diag *d)
{
	struct elf_image im;
	struct elf_src src = { NULL, &im, 0, 0 };
	enum pd_status rc = PD_OK;
	const char *why = NULL;

	if (pd_elf_image_read(in, in->max_spool, m->size, &im, &why) != 0) {
		pd_diag_note(d, PD_FAILED, "elf.read", 0, "%s", why);
		rc = PD_FAILED;
		goto out;
	}
	elf_version(EV_CURRENT);
	src.e = elf_memory((char *)im.p, im.len);
	if (!src.e || elf_kind(src.e) != ELF_K_ELF) {
		pd_diag_note(d, PD_FAILED, "elf.bad", 0, "not a readable ELF "
		    "file: %s", elf_errmsg(-1));
		rc = PD_FAILED;
		goto out;
	}
	analyse(&src, m, h, d, in->max_spool);
out:
	if (src.e)
		elf_end(src.e);
	pd_elf_image_free(&im);
	return rc;
}

const struct pd_format pd_format_elf = {
	.name = "elf",
	.summary = "executable, library, vmlinux or debug file (perf archive's "
	    "build-id cache): build id and symbols that name profile addresses",
	.command = "perf archive perf.data",
	.bid = bid_elf,
	.parse = parse_elf,
};

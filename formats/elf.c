/* "elf": an executable, shared library, vmlinux or separate debug file in
 * the bundle (perf archive puts the build-id cache in), read with
 * libelf: its GNU build id, its loadable segments and its function
 * symbols (.symtab, else .dynsym), so that a profile's user addresses
 * get names.  Held in memory while read, up to the spool cap. */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"

#define ELF_SYMS_MAX (4u << 20)
#define NT_GNU_BUILD_ID_TYPE 3

static int
bid_elf(const struct pd_member *m)
{
	if (m->head_len >= 16 && memcmp(m->head, "\177ELF", 4) == 0 &&
	    (m->head[4] == 1 || m->head[4] == 2) &&
	    (m->head[5] == 1 || m->head[5] == 2))
		return 48;
	return 0;
}

/* A separate debug file keeps symbols but not code: .text is NOBITS. */
static bool
debug_only(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;

	if (elf_getshdrstrndx(e, &shstr) != 0)
		return false;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) &&
		    (name = elf_strptr(e, shstr, sh.sh_name)) &&
		    strcmp(name, ".text") == 0)
			return sh.sh_type == SHT_NOBITS;
	}
	return false;
}

static void
build_id_of(Elf *e, struct pd_elf *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
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

/* Function symbols of the table of type t; false when it has none. */
static bool
symbols_of(Elf *e, Elf64_Word t, struct pd_elf *out, struct pd_arena *a)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != t ||
		    !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = data ? sh.sh_size / sh.sh_entsize : 0;

		if (n > ELF_SYMS_MAX)
			n = ELF_SYMS_MAX;
		out->syms = pd_arena_alloc(a, (n + 1) * sizeof(*out->syms));
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, (int)i, &s) || !s.st_value ||
			    s.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (name && (strcmp(name, "_text") == 0 ||
			    strcmp(name, "_stext") == 0) && !out->text_addr)
				out->text_addr = s.st_value;
			if (
			    GELF_ST_TYPE(s.st_info) != STT_FUNC &&
			    GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC)
				continue;
			if (!name || !*name)
				continue;
			out->syms[out->n_syms++] = (struct pd_sym){
			    s.st_value, s.st_size, pd_arena_strdup(a, name),
			    NULL, GELF_ST_BIND(s.st_info) <= STB_WEAK ?
			    GELF_ST_BIND(s.st_info) : STB_LOCAL };
		}
		out->n_syms = pd_syms_settle(out->syms, out->n_syms);
		out->from_symtab = t == SHT_SYMTAB;
		return out->n_syms > 0;
	}
	return false;
}

static enum pd_status
parse_elf(const struct pd_member *m, struct pd_input *in, struct pd_host *h,
    struct pd_diag *d)
{
	unsigned char *buf = NULL;
	size_t len = 0, nph = 0;
	enum pd_status rc = PD_OK;
	Elf *e = NULL;

	if (pd_input_slurp(in, in->max_spool, &buf, &len) != 0) {
		pd_diag_note(d, PD_FAILED, "elf.read", 0, "%s", in->errmsg);
		return PD_FAILED;
	}
	elf_version(EV_CURRENT);
	e = elf_memory((char *)buf, len);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		pd_diag_note(d, PD_FAILED, "elf.bad", 0, "not a readable ELF "
		    "file: %s", elf_errmsg(-1));
		rc = PD_FAILED;
		goto out;
	}
	struct pd_elf *x = pd_arena_alloc(d->arena, sizeof(*x));

	x->member = m->path;
	x->debug_only = debug_only(e);
	build_id_of(e, x);
	if (elf_getphdrnum(e, &nph) == 0)
		for (size_t i = 0; i < nph && x->n_segs < PD_ELF_SEGS; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
				x->segs[x->n_segs++] = (struct pd_elf_seg){
				    ph.p_offset, ph.p_vaddr, ph.p_memsz };
		}
	if (!symbols_of(e, SHT_SYMTAB, x, d->arena) &&
	    !symbols_of(e, SHT_DYNSYM, x, d->arena))
		pd_diag_note(d, PD_WARN, "elf.no-symbols", 0, "no function "
		    "symbols (stripped): addresses in it stay unnamed");
	if (!x->build_id[0])
		pd_diag_note(d, PD_WARN, "elf.no-build-id", 0, "no GNU build "
		    "id: matched to profiles by file name only");
	x->next = h->elfs;
	h->elfs = x;
out:
	if (e)
		elf_end(e);
	free(buf);
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

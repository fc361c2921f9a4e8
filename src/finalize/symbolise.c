/* Naming and summing of profiles at finalize: kernel addresses through
 * the host's kallsyms, user addresses through the mmap records to a DSO
 * and a map-relative address (perf report prints such an address the
 * same way when it has no symbols), then self and inclusive periods per
 * symbol and per core type. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode/prof_raw.h"
#include "decode/profile.h"
#include "finalize/finalize.h"
#include "finalize/pid_maps.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"

#define KERNEL_DSO "[kernel.kallsyms]"

static const char *const idle_syms[] = {
	"default_idle_call", "cpu_idle_poll", "arch_cpu_idle", "cpu_do_idle",
	"default_idle", "native_safe_halt", "pv_native_safe_halt",
	"acpi_safe_halt", "acpi_idle_do_entry", "intel_idle",
	"intel_idle_irq", "intel_idle_ibrs", "poll_idle", "mwait_idle",
	"amd_e400_idle", "psci_cpu_suspend_enter", "cpuidle_enter_state",
	"do_idle", "io_idle", NULL,
};

static bool
is_idle(const char *name)
{
	for (const char *const *s = idle_syms; *s; s++)
		if (strcmp(*s, name) == 0)
			return true;
	return false;
}

/* A user symbol's interned index by the symbol and the mapping's file
 * name (the DSO it is counted under): a real profile has many
 * addresses in each function, and interning hashes and compares both
 * names; open addressing, doubled at half load. */
struct sym_seen {
	const struct pd_sym *sym;
	const char *filename;
	uint32_t id;
};

struct sym_cache {
	struct sym_seen *v;
	unsigned size, n;
};

struct maps {
	const struct pd_prof_raw *r;
	struct sym_cache user;
	struct pd_pid_maps procs;	/* which mapping an address is in */
	struct map_elf *elf;		/* per mapping, found once */
	uint32_t *ksym_id;		/* per kallsyms symbol: interned as,
					 * + 1 (0: not yet) */
};

/* The ELF files that name a mapping's addresses (elf_for), looked up
 * on its first address: a real profile has many addresses per mapping
 * and a perf archive many files. */
struct map_elf {
	const struct pd_elf *best, *layout;
	bool found;
};

static void
maps_index(struct maps *mx, const struct pd_prof_raw *r,
    const struct pd_host *h)
{
	mx->r = r;
	pd_pid_maps_init(&mx->procs, r);
	mx->elf = pd_xmalloc((r->n_maps + 1) * sizeof(*mx->elf));
	memset(mx->elf, 0, (r->n_maps + 1) * sizeof(*mx->elf));
	/* a kernel symbol's name is hashed once, not once per address */
	/* id + 1, 0 when not yet interned: calloc's untouched pages are
	 * not faulted in for the symbols no address falls in */
	mx->ksym_id = pd_xcalloc(h->n_ksyms + 1, sizeof(*mx->ksym_id));
	mx->user = (struct sym_cache){ 0 };
}

static const char *
base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* The ELF that names a mapped file: by the build id perf recorded for
 * it, preferring a full symbol table (a debug file) to .dynsym; else by
 * the file's name in the member path (build-id cache layout
 * ".../libc.so.6/BUILDID/elf", or the file itself). */
static bool
same_file(const struct pd_elf *e, const char *bid, const char *base,
    const char *dir)
{
	return bid ? strcmp(e->build_id, bid) == 0 :
	    strstr(e->member, dir) != NULL ||
	    strcmp(base_name(e->member), base) == 0;
}

static const struct pd_elf *
elf_for(const struct pd_host *h, const struct pd_profile *p,
    const char *filename, const struct pd_elf **layout)
{
	const struct pd_elf *best = NULL;
	const char *bid = NULL, *base = base_name(filename);
	char dir[512];

	*layout = NULL;
	for (unsigned i = 0; i < p->n_buildids; i++)
		if (strcmp(p->buildids[i].filename, filename) == 0)
			bid = p->buildids[i].build_id;
	snprintf(dir, sizeof(dir), "/%s/", base);
	for (const struct pd_elf *e = h->elfs; e; e = e->next) {
		if (!same_file(e, bid, base, dir))
			continue;
		if (!e->debug_only && !*layout)
			*layout = e;
		if (e->n_syms && (!best || (e->from_symtab &&
		    !best->from_symtab)))
			best = e;
	}
	if (!*layout)
		*layout = best;
	return best;
}

/* The function holding file offset off: the binary's PT_LOAD segments
 * (layout) turn it into an address; the binary's PLT stubs (a debug
 * file has none), else the best symbol table (e, NULL when no file has
 * one), name it. */
static const struct pd_sym *
elf_sym(const struct pd_elf *e, const struct pd_elf *layout, uint64_t off)
{
	uint64_t va = off;

	for (unsigned i = 0; i < layout->n_segs; i++)
		if (off >= layout->segs[i].offset &&
		    off - layout->segs[i].offset < layout->segs[i].memsz) {
			va = off - layout->segs[i].offset +
			    layout->segs[i].vaddr;
			break;
		}
	const struct pd_sym *s = pd_sym_at(layout->plt, layout->n_plt, va);

	if (!s && e)
		s = pd_sym_at(e->syms, e->n_syms, va);
	return s;
}

/* Symbols interned by (kernel, dso, name), with a hash index. */
struct symtab {
	struct pd_prof_sym *v;
	unsigned n, cap;
	uint32_t *index;
	unsigned index_size;
};

static uint64_t
str_hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

static unsigned
sym_slot(const struct symtab *t, const char *name, const char *dso,
    bool kernel)
{
	return (unsigned)str_hash(str_hash(kernel ? 0xcbf29ce484222325u :
	    0x84222325cbf29ce4u, dso), name) & (t->index_size - 1);
}

static void
reindex(struct symtab *t)
{
	free(t->index);
	t->index_size = t->index_size ? t->index_size * 2 : 1024;
	t->index = pd_xmalloc(t->index_size * sizeof(*t->index));
	memset(t->index, 0xff, t->index_size * sizeof(*t->index));
	for (unsigned i = 0; i < t->n; i++) {
		unsigned h = sym_slot(t, t->v[i].name, t->v[i].dso,
		    t->v[i].kernel);

		while (t->index[h] != UINT32_MAX)
			h = (h + 1) & (t->index_size - 1);
		t->index[h] = i;
	}
}

/* copy: name and dso are copied to the arena; else they already
 * live as long as it (a profile's interned names). */
static uint32_t
intern_as(struct symtab *t, struct pd_arena *a, const char *name,
    const char *dso, bool kernel, bool copy)
{
	if ((t->n + 1) * 2 > t->index_size)
		reindex(t);
	unsigned h = sym_slot(t, name, dso, kernel);

	for (; t->index[h] != UINT32_MAX; h = (h + 1) & (t->index_size - 1)) {
		const struct pd_prof_sym *s = &t->v[t->index[h]];

		if (s->kernel == kernel && strcmp(s->name, name) == 0 &&
		    strcmp(s->dso, dso) == 0)
			return t->index[h];
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = pd_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n] = (struct pd_prof_sym){ copy ? pd_arena_strdup(a, name) :
	    name, copy ? pd_arena_strdup(a, dso) : dso, kernel,
	    kernel && is_idle(name), 0, 0, 0 };
	t->index[h] = t->n;
	return t->n++;
}

static uint32_t
intern(struct symtab *t, struct pd_arena *a, const char *name,
    const char *dso, bool kernel)
{
	return intern_as(t, a, name, dso, kernel, true);
}

static unsigned
seen_slot(const struct sym_cache *c, const struct pd_sym *sym,
    const char *filename)
{
	return (unsigned)pd_prof_mix(pd_prof_mix(0, (uintptr_t)sym),
	    (uintptr_t)filename) & (c->size - 1);
}

static void
seen_grow(struct sym_cache *c)
{
	struct sym_cache n = { NULL, c->size ? c->size * 2 : 1024, c->n };

	n.v = pd_xcalloc(n.size, sizeof(*n.v));
	for (unsigned i = 0; i < c->size; i++) {
		if (!c->v[i].sym)
			continue;
		unsigned h = seen_slot(&n, c->v[i].sym, c->v[i].filename);

		while (n.v[h].sym)
			h = (h + 1) & (n.size - 1);
		n.v[h] = c->v[i];
	}
	free(c->v);
	*c = n;
}

/* The interned index of a user symbol counted under the mapping's
 * file name, through the cache. */
static uint32_t
intern_user(struct maps *mx, struct symtab *t, struct pd_arena *a,
    const struct pd_sym *sym, const char *filename)
{
	struct sym_cache *c = &mx->user;

	if ((c->n + 1) * 2 > c->size)
		seen_grow(c);
	unsigned h = seen_slot(c, sym, filename);

	for (; c->v[h].sym; h = (h + 1) & (c->size - 1))
		if (c->v[h].sym == sym && c->v[h].filename == filename)
			return c->v[h].id;
	c->v[h] = (struct sym_seen){ sym, filename,
	    intern(t, a, sym->name, base_name(filename), false) };
	c->n++;
	return c->v[h].id;
}

/* The name of one address: "[kernel.kallsyms]" or the module for
 * kernel modes, the mapped file's base name for user modes. */
/* A vmlinux of the bundle for the kernel's addresses when there is no
 * kallsyms: the one whose build id perf recorded for the kernel, else
 * one named vmlinux; relocated by the kernel map's start (perf's
 * "[kernel.kallsyms]_text" record) against the file's _text. */
struct kernel_elf {
	const struct pd_elf *elf;
	uint64_t reloc;
};

static void
find_vmlinux(const struct pd_host *h, const struct pd_profile *p,
    struct kernel_elf *kv)
{
	const char *bid = NULL;
	uint64_t text = 0;

	memset(kv, 0, sizeof(*kv));
	if (h->n_ksyms)
		return;
	for (unsigned i = 0; i < p->n_buildids; i++)
		if (strncmp(p->buildids[i].filename, "[kernel.kallsyms]",
		    17) == 0)
			bid = p->buildids[i].build_id;
	for (const struct pd_elf *e = h->elfs; e && !kv->elf; e = e->next)
		if (e->n_syms && (bid ? strcmp(e->build_id, bid) == 0 :
		    strstr(e->member, "vmlinux") != NULL))
			kv->elf = e;
	if (!kv->elf)
		return;
	text = kv->elf->text_addr;
	for (unsigned i = 0; i < p->raw->n_maps; i++)
		if (strncmp(p->raw->maps[i].filename, "[kernel.kallsyms]",
		    17) == 0 && text)
			kv->reloc = p->raw->maps[i].pgoff - text;
}

/* "0x%016" PRIx64, as perf report names an address without a symbol:
 * a stripped binary's every address is one, so not through printf. */
static void
addr_name(char buf[19], uint64_t v)
{
	static const char digits[] = "0123456789abcdef";

	buf[0] = '0';
	buf[1] = 'x';
	for (int i = 17; i >= 2; i--, v >>= 4)
		buf[i] = digits[v & 15];
	buf[18] = '\0';
}

static uint32_t
name_addr(struct symtab *t, struct pd_arena *a, const struct pd_host *h,
    struct maps *mx, const struct prof_addr *ad,
    struct pd_profile *p, const struct kernel_elf *kv)
{
	char buf[40];
	bool kernel = ad->mode == PD_MODE_KERNEL ||
	    ad->mode == PD_MODE_GUEST_KERNEL;

	if (ad->pid == PROF_NAMED_PID) {
		const struct prof_name *n = &mx->r->names[ad->ip];

		return intern_as(t, a, n->sym, n->dso, n->kernel, false);
	}
	if (kernel) {
		const struct pd_sym *k = pd_sym_at(h->ksyms, h->n_ksyms,
		    ad->ip);

		if (k) {
			uint32_t *id = &mx->ksym_id[k - h->ksyms];

			if (!*id)
				*id = intern(t, a, k->name, k->module ?
				    h->kmods[k->module - 1] : KERNEL_DSO,
				    true) + 1;
			return *id - 1;
		}
		if (kv->elf)
			k = pd_sym_at(kv->elf->syms, kv->elf->n_syms,
			    ad->ip - kv->reloc);
		if (k)
			return intern(t, a, k->name, KERNEL_DSO, true);
		p->kernel_unnamed = true;
		addr_name(buf, ad->ip);
		return intern(t, a, buf, KERNEL_DSO, true);
	}
	const struct prof_map *m = pd_pid_map_of(&mx->procs, ad->pid, ad->ip);
	uint64_t rip = m ? ad->ip - m->start + m->pgoff : ad->ip;
	const struct pd_elf *layout = NULL, *e = NULL;

	if (m) {
		struct map_elf *me = &mx->elf[m - mx->r->maps];

		if (!me->found)
			me->best = elf_for(h, p, m->filename, &me->layout);
		me->found = true;
		e = me->best;
		layout = me->layout;
	}
	const struct pd_sym *s = layout ? elf_sym(e, layout, rip) : NULL;

	if (s)
		return intern_user(mx, t, a, s, m->filename);
	p->symbols_missing = true;
	addr_name(buf, rip);
	return intern(t, a, buf, m ? base_name(m->filename) : "[unknown]",
	    false);
}

static unsigned
group_of(struct pd_profile *p, const struct pd_host *h, int cpu)
{
	const char *type = cpu >= 0 && cpu < PD_MAX_CPUS && h->cpu_type_of ?
	    h->cpu_type_of[cpu] : NULL;

	if (!type)
		type = PD_PROF_ALL_CPUS;
	for (unsigned g = 0; g < p->n_groups; g++)
		if (p->groups[g].name == type ||
		    strcmp(p->groups[g].name, type) == 0)
			return g;
	if (p->n_groups == PD_PROF_GROUPS)
		return PD_PROF_GROUPS - 1;
	p->groups[p->n_groups].name = type;
	return p->n_groups++;
}

/* The groups of the CPUs seen, met in the order sum_self and
 * sum_inclusive meet them (so numbered as they would number them),
 * before either runs: the per-group arrays are as wide as the groups
 * that exist, where PD_PROF_GROUPS wide they were 8 times the memory
 * of a profile of one core type (23 k symbols: 5.9 MB of fresh pages,
 * two thirds of the samples of sort_by_self in perf record). */
static void
find_groups(struct pd_profile *p, const struct pd_host *h)
{
	const struct pd_prof_raw *r = p->raw;

	for (unsigned i = 0; i < r->self_size; i++)
		if (r->self[i].used)
			(void)group_of(p, h,
			    (int)(int32_t)(uint32_t)(r->self[i].key >> 32));
	for (unsigned i = 0; i < r->n_stacks; i++)
		(void)group_of(p, h, r->stacks[i].cpu);
}

/* The per-group arrays' width: n_groups, at least one. */
static size_t
group_width(const struct pd_profile *p)
{
	return p->n_groups ? p->n_groups : 1;
}

struct sym_ref {
	const struct pd_prof_sym *s;
	uint32_t idx;
};

static int
cmp_self(const void *x, const void *y)
{
	const struct pd_prof_sym *a = ((const struct sym_ref *)x)->s;
	const struct pd_prof_sym *b = ((const struct sym_ref *)y)->s;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->inclusive != b->inclusive)
		return a->inclusive > b->inclusive ? -1 : 1;
	if (a->kernel != b->kernel)
		return a->kernel ? -1 : 1;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->dso, b->dso);
}

/* Self periods per symbol, per CPU and per group (core type). */
static void
sum_self(struct pd_profile *p, struct pd_host *h, struct symtab *t,
    const uint32_t *sym_of, struct pd_arena *a)
{
	const struct pd_prof_raw *r = p->raw;
	bool seen_cpu[PD_MAX_CPUS] = { false };
	int max_cpu = -1;

	for (unsigned i = 0; i < r->self_size; i++) {
		int cpu = (int)(int32_t)(uint32_t)(r->self[i].key >> 32);

		if (r->self[i].used && cpu > max_cpu && cpu < PD_MAX_CPUS)
			max_cpu = cpu;
	}
	p->n_cpu_slots = (unsigned)(max_cpu + 1);
	p->cpu_total = pd_arena_alloc(a, (p->n_cpu_slots + 1) *
	    sizeof(double));
	p->cpu_idle = pd_arena_alloc(a, (p->n_cpu_slots + 1) *
	    sizeof(double));
	for (unsigned i = 0; i < r->self_size; i++) {
		const struct prof_self *s = &r->self[i];

		if (!s->used)
			continue;
		int cpu = (int)(int32_t)(uint32_t)(s->key >> 32);
		uint32_t sym = sym_of[(uint32_t)s->key];
		unsigned g = group_of(p, h, cpu);

		if (cpu >= 0 && cpu < PD_MAX_CPUS && !seen_cpu[cpu]) {
			seen_cpu[cpu] = true;
			p->groups[g].n_cpus++;
		}
		t->v[sym].self += s->period;
		t->v[sym].samples += s->samples;
		if (cpu >= 0 && (unsigned)cpu < p->n_cpu_slots) {
			p->cpu_total[cpu] += s->period;
			if (t->v[sym].idle)
				p->cpu_idle[cpu] += s->period;
		}
		p->sym_group_self[sym * p->n_groups + g] += s->period;
		p->groups[g].total += s->period;
		if (t->v[sym].idle)
			p->groups[g].idle += s->period;
	}
}

/* Inclusive periods: each symbol once per stack; perf report text
 * states them outright. */
static void
sum_inclusive(struct pd_profile *p, struct pd_host *h, struct symtab *t,
    const uint32_t *sym_of)
{
	const struct pd_prof_raw *r = p->raw;
	uint32_t *mark = pd_xmalloc((t->n + 1) * sizeof(*mark));

	memset(mark, 0xff, (t->n + 1) * sizeof(*mark));
	for (unsigned i = 0; i < r->n_stacks; i++) {
		const struct prof_stack *s = &r->stacks[i];
		unsigned g = group_of(p, h, s->cpu);
		/* per core type, inclusive counts busy samples only (the
		 * leaf, first in the stack, not idle), as its self does */
		bool busy = !t->v[sym_of[r->slots[s->off]]].idle;

		for (uint32_t k = 0; k < s->n; k++) {
			uint32_t sym = sym_of[r->slots[s->off + k]];

			if (mark[sym] == i)
				continue;
			mark[sym] = i;
			t->v[sym].inclusive += s->period;
			if (busy)
				p->sym_group_incl[sym * p->n_groups + g] +=
				    s->period;
		}
	}
	free(mark);
	for (unsigned i = 0; i < r->n_addrs; i++)
		if (r->addrs[i].pid == PROF_NAMED_PID &&
		    r->names[r->addrs[i].ip].inclusive >= 0)
			t->v[sym_of[i]].inclusive =
			    r->names[r->addrs[i].ip].inclusive;
}

/* p->syms sorted by self (references, so each keeps its old index),
 * the per-group arrays carried along and sym_of remapped. */
static void
sort_by_self(struct pd_profile *p, struct symtab *t, uint32_t *sym_of,
    struct pd_arena *a)
{
	struct sym_ref *order = pd_xmalloc((t->n + 1) * sizeof(*order));
	struct pd_prof_sym *sorted = pd_arena_alloc(a, (t->n + 1) *
	    sizeof(*sorted));
	size_t w = group_width(p);
	double *gs = pd_arena_alloc(a, (t->n + 1) * w * sizeof(double));
	double *gi = pd_arena_alloc(a, (t->n + 1) * w * sizeof(double));

	for (unsigned i = 0; i < t->n; i++)
		order[i] = (struct sym_ref){ &t->v[i], i };
	qsort(order, t->n, sizeof(*order), cmp_self);
	for (unsigned i = 0; i < t->n; i++) {
		uint32_t old = order[i].idx;

		sorted[i] = t->v[old];
		memcpy(gs + i * w, p->sym_group_self + old * w,
		    w * sizeof(double));
		memcpy(gi + i * w, p->sym_group_incl + old * w,
		    w * sizeof(double));
	}
	uint32_t *new_of = pd_xmalloc((t->n + 1) * sizeof(*new_of));

	for (unsigned i = 0; i < t->n; i++)
		new_of[order[i].idx] = i;
	for (unsigned i = 0; i < p->raw->n_addrs; i++)
		sym_of[i] = new_of[sym_of[i]];
	free(new_of);
	free(order);
	free(p->sym_group_self);
	free(p->sym_group_incl);
	p->syms = sorted;
	p->sym_group_self = gs;
	p->sym_group_incl = gi;
}

/* The stacks as symbols, for rules that ask which stacks hold a kind
 * of symbol: the raw slots are rewritten in place and taken over, and
 * so are the raw stacks, each kept one written over the raw one it
 * comes from (it is smaller, so it never reaches one still to be
 * read): fresh pages cost more than the rewriting (a real profile's
 * 51k stacks took 3.7 ms copied, most of it the kernel zeroing). */
_Static_assert(sizeof(struct pd_prof_stack) <= sizeof(struct prof_stack),
    "a kept stack fits where its raw one was");

static void
keep_stacks(struct pd_profile *p, struct pd_host *h, const uint32_t *sym_of)
{
	struct pd_prof_raw *r = p->raw;
	unsigned char *base = (unsigned char *)r->stacks;

	for (unsigned i = 0; i < r->n_slots; i++)
		r->slots[i] = sym_of[r->slots[i]];
	for (unsigned i = 0; i < r->n_stacks; i++) {
		struct prof_stack s;

		memcpy(&s, base + (size_t)i * sizeof(s), sizeof(s));
		struct pd_prof_stack k = { .off = s.off, .n = s.n,
		    .period = s.period, .group = group_of(p, h, s.cpu) };

		memcpy(base + (size_t)i * sizeof(k), &k, sizeof(k));
	}
	p->stacks = (struct pd_prof_stack *)(void *)base;
	p->n_stacks = r->n_stacks;
	p->stacks_bytes = r->cap_stacks * sizeof(struct prof_stack);
	p->stack_syms = r->slots;
	p->stack_syms_bytes = r->cap_slots * sizeof(*r->slots);
	r->stacks = NULL;
	r->n_stacks = r->cap_stacks = 0;
	r->slots = NULL;
	r->cap_slots = 0;
}

static void
note_sources(struct pd_profile *p, struct pd_host *h,
    const struct kernel_elf *kv, struct pd_arena *a)
{
	unsigned n_elfs = 0;

	for (const struct pd_elf *e = h->elfs; e; e = e->next)
		n_elfs++;
	p->symbols = pd_arena_printf(a, "kernel: %s; user space: %u ELF "
	    "file%s", h->n_ksyms ? h->ksyms_member : kv->elf ?
	    kv->elf->member : "none (no kallsyms)", n_elfs,
	    n_elfs == 1 ? "" : "s");
	if (p->kernel_unnamed)
		pd_host_note(h, a, &p->ev, "kernel addresses in %s could not be "
		    "named: add /proc/kallsyms, read as root on the same boot, "
		    "to the bundle (cat /proc/kallsyms > kallsyms.txt); the "
		    "IOMMU check cannot see them without it", p->member);
	if (p->symbols_missing && p->raw->n_maps)
		pd_host_note(h, a, &p->ev, "user-space addresses in %s without "
		    "symbols are shown by DSO and address: add the output of "
		    "perf archive %s (run where it was recorded)", p->member,
		    "perf.data");
}

static void
symbolise_one(struct pd_profile *p, struct pd_host *h,
    struct pd_arena *a)
{
	struct pd_prof_raw *r = p->raw;
	struct symtab t = { 0 };
	uint32_t *sym_of = pd_xmalloc((r->n_addrs + 1) * sizeof(*sym_of));
	struct kernel_elf kv;
	struct maps mx;

	find_vmlinux(h, p, &kv);
	maps_index(&mx, r, h);
	for (unsigned i = 0; i < r->n_addrs; i++)
		sym_of[i] = name_addr(&t, a, h, &mx, &r->addrs[i], p, &kv);
	pd_pid_maps_free(&mx.procs);
	free(mx.elf);
	free(mx.ksym_id);
	free(mx.user.v);
	p->n_syms = t.n;
	find_groups(p, h);
	/* in the heap until sort_by_self puts them in order in the arena */
	p->sym_group_self = pd_xcalloc((t.n + 1) * group_width(p),
	    sizeof(double));
	p->sym_group_incl = pd_xcalloc((t.n + 1) * group_width(p),
	    sizeof(double));
	sum_self(p, h, &t, sym_of, a);
	sum_inclusive(p, h, &t, sym_of);
	sort_by_self(p, &t, sym_of, a);
	keep_stacks(p, h, sym_of);
	free(sym_of);
	free(t.v);
	free(t.index);
	note_sources(p, h, &kv, a);
	pd_profile_views(p, a);
	/* what rules and renderers read is in p now */
	pd_prof_raw_give_names(r, a);	/* the symbols point at them */
	pd_prof_raw_free(r);
	p->raw = NULL;
}

void
pd_profile_symbolise(struct pd_host *h, struct pd_arena *a)
{
	for (struct pd_profile *p = h->profiles; p; p = p->next)
		if (p->raw && !p->syms)
			symbolise_one(p, h, a);
}

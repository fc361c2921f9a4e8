/* Streaming side of CPU profiles: bounded, growing hash tables of
 * distinct addresses, self periods per (cpu, address) and call stacks
 * per (cpu, stack), filled by the profile readers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/bigmem.h"
#include "decode/prof_raw.h"
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/profile.h"

/* perf's context markers inside a call chain */
#define CTX_HV ((uint64_t)-32)
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)
#define CTX_GUEST_KERNEL ((uint64_t)-2176)
#define CTX_GUEST_USER ((uint64_t)-2560)
#define CTX_MAX ((uint64_t)-4095)

static void
free_pool(void *ctx)
{
	for (struct prof_pool *p = ctx, *next; p; p = next) {
		next = p->next;
		free(p);
	}
}

void
pd_prof_raw_give_names(struct pd_prof_raw *r, struct pd_arena *a)
{
	if (r->pool)
		pd_arena_on_free(a, free_pool, r->pool);
	r->pool = NULL;
}

struct pd_prof_raw *
pd_prof_raw_new(void)
{
	struct pd_prof_raw *r = pd_xmalloc(sizeof(*r));

	memset(r, 0, sizeof(*r));
	return r;
}

void
pd_prof_raw_free(struct pd_prof_raw *r)
{
	if (!r)
		return;
	free(r->addrs);
	pd_big_free(r->addr_index, r->addr_index_size * sizeof(*r->addr_index));
	pd_big_free(r->self, r->self_size * sizeof(*r->self));
	pd_big_free(r->stacks, r->cap_stacks * sizeof(*r->stacks));
	pd_big_free(r->stack_index, r->stack_index_size *
	    sizeof(*r->stack_index));
	pd_big_free(r->slots, r->cap_slots * sizeof(*r->slots));
	pd_prof_memo_free(r);
	for (unsigned i = 0; i < r->n_maps; i++)
		free(r->maps[i].filename);
	free(r->maps);
	free_pool(r->pool);
	free(r->names);
	free(r->name_index);
	free(r->forks);
	free(r);
}

/* Open addressing index over a vector; grows by doubling up to cap.
 * Returns false when full. */
static bool
grow_index(uint32_t **index, unsigned *size, unsigned used, unsigned cap)
{
	if (*size && used * 4 < *size * 3)
		return true;
	if (*size >= cap * 2)
		return used < cap;
	pd_big_free(*index, *size * sizeof(**index));
	*size = *size ? *size * 2 : 1024;
	*index = pd_big_alloc(*size * sizeof(**index));
	memset(*index, 0xff, *size * sizeof(**index));
	return true;
}

static bool
addr_eq(const struct prof_addr *a, uint32_t pid, uint8_t mode, uint64_t ip)
{
	return a->ip == ip && a->pid == pid && a->mode == mode;
}

static unsigned
addr_hash(uint64_t ip, uint32_t pid, uint8_t mode)
{
	return (unsigned)pd_prof_mix(pd_prof_mix(ip, pid), mode);
}

static void
reindex_addrs(struct pd_prof_raw *r)
{
	for (unsigned i = 0; i < r->n_addrs; i++) {
		const struct prof_addr *a = &r->addrs[i];
		unsigned h = addr_hash(a->ip, a->pid, a->mode) &
		    (r->addr_index_size - 1);

		while (r->addr_index[h] != UINT32_MAX)
			h = (h + 1) & (r->addr_index_size - 1);
		r->addr_index[h] = i;
	}
}

/* Index of (pid, mode, ip), added when new; UINT32_MAX when full. */
static uint32_t
prof_addr(struct pd_prof_raw *r, uint32_t pid, uint8_t mode, uint64_t ip)
{
	unsigned old = r->addr_index_size;

	if (!grow_index(&r->addr_index, &r->addr_index_size, r->n_addrs,
	    PD_PROF_ADDRS))
		goto lookup_only;
	if (old != r->addr_index_size)
		reindex_addrs(r);
lookup_only:;
	unsigned h = addr_hash(ip, pid, mode) & (r->addr_index_size - 1);

	while (r->addr_index[h] != UINT32_MAX) {
		struct prof_addr *a = &r->addrs[r->addr_index[h]];

		if (addr_eq(a, pid, mode, ip))
			return r->addr_index[h];
		h = (h + 1) & (r->addr_index_size - 1);
	}
	if (r->n_addrs >= PD_PROF_ADDRS)
		return UINT32_MAX;
	if (r->n_addrs == r->cap_addrs) {
		r->cap_addrs = r->cap_addrs ? r->cap_addrs * 2 : 1024;
		r->addrs = pd_xrealloc(r->addrs, r->cap_addrs *
		    sizeof(*r->addrs));
	}
	r->addrs[r->n_addrs] = (struct prof_addr){ ip, pid, mode };
	r->addr_index[h] = r->n_addrs;
	return r->n_addrs++;
}

/* Where each slot of a table of n went when it doubled, for the memo
 * of raw samples (below); NULL without one. */
static uint32_t *
moves(const struct pd_prof_raw *r, unsigned n)
{
	return r->memo && n ? pd_big_alloc(n * sizeof(uint32_t)) : NULL;
}

/* The slot of (cpu, addr) after adding; UINT32_MAX when dropped. */
static uint32_t
add_self(struct pd_prof_raw *r, int cpu, uint32_t addr, double period)
{
	uint64_t key = (uint64_t)(uint32_t)cpu << 32 | addr;

	/* linear probing over a power-of-two table of entries */
	if (!r->self_size || (r->n_self + 1) * 4 >= r->self_size * 3) {
		if (r->self_size >= PD_PROF_SELF * 2) {
			r->dropped++;
			return UINT32_MAX;
		}
		unsigned nsize = r->self_size ? r->self_size * 2 : 1024;
		struct prof_self *n = pd_big_alloc(nsize * sizeof(*n));
		uint32_t *moved = moves(r, r->self_size);

		for (unsigned i = 0; i < r->self_size; i++) {
			if (!r->self[i].used)
				continue;
			unsigned h = (unsigned)pd_prof_mix(0, r->self[i].key) &
			    (nsize - 1);

			while (n[h].used)
				h = (h + 1) & (nsize - 1);
			n[h] = r->self[i];
			if (moved)
				moved[i] = h;
		}
		pd_big_free(r->self, r->self_size * sizeof(*r->self));
		r->self = n;
		pd_prof_memo_moved(r, moved, r->self_size);
		r->self_size = nsize;
	}
	unsigned h = (unsigned)pd_prof_mix(0, key) & (r->self_size - 1);

	while (r->self[h].used && r->self[h].key != key)
		h = (h + 1) & (r->self_size - 1);
	if (!r->self[h].used) {
		r->self[h].used = true;
		r->self[h].key = key;
		r->n_self++;
	}
	r->self[h].period += period;
	r->self[h].samples++;
	return h;
}

/* The stacks lie in the order first seen and keep their index (the
 * memo holds it); the open-addressing index over them holds each one's
 * hash's low half beside its index + 1 (0: empty), so that probing for
 * a new stack, most of a real profile's, reads the index alone: it is
 * a quarter of the size the stacks would be as a table of their own. */
static uint64_t
stack_entry(uint64_t hash, uint32_t id)
{
	return (uint64_t)(uint32_t)hash << 32 | (id + 1);
}

/* false when the index is full (PD_PROF_STACKS * 2 slots at 3/4) */
static bool
grow_stack_index(struct pd_prof_raw *r)
{
	if (r->stack_index_size && (r->n_stacks + 1) * 4 <
	    r->stack_index_size * 3)
		return true;
	if (r->stack_index_size >= PD_PROF_STACKS * 2)
		return false;
	unsigned size = r->stack_index_size ? r->stack_index_size * 2 : 1024;
	uint64_t *index = pd_big_alloc(size * sizeof(*index));

	for (unsigned i = 0; i < r->stack_index_size; i++) {
		uint64_t e = r->stack_index[i];
		unsigned h = (unsigned)(e >> 32) & (size - 1);

		if (!e)
			continue;
		while (index[h])
			h = (h + 1) & (size - 1);
		index[h] = e;
	}
	pd_big_free(r->stack_index, r->stack_index_size *
	    sizeof(*r->stack_index));
	r->stack_index = index;
	r->stack_index_size = size;
	return true;
}

/* The stack's index after adding; UINT32_MAX when dropped. */
static uint32_t
add_stack(struct pd_prof_raw *r, int cpu, const uint32_t *ids, unsigned n,
    double period)
{
	uint64_t hash = pd_prof_mix(0x51ed, (uint64_t)(uint32_t)cpu);

	for (unsigned i = 0; i < n; i++)
		hash = pd_prof_mix(hash, ids[i]);
	if (!grow_stack_index(r)) {
		r->stacks_dropped++;
		return UINT32_MAX;
	}
	unsigned mask = r->stack_index_size - 1, h = (unsigned)hash & mask;

	for (uint64_t e; (e = r->stack_index[h]); h = (h + 1) & mask) {
		struct prof_stack *s = &r->stacks[(uint32_t)e - 1];

		if (e >> 32 == (uint32_t)hash && s->hash == hash &&
		    s->n == n && s->cpu == cpu &&
		    memcmp(r->slots + s->off, ids, n * sizeof(*ids)) == 0) {
			s->period += period;
			return (uint32_t)e - 1;
		}
	}
	if (r->n_slots + n > PD_PROF_SLOTS) {
		r->stacks_dropped++;
		return UINT32_MAX;
	}
	if (r->n_slots + n > r->cap_slots) {
		unsigned cap = r->cap_slots;

		while (r->n_slots + n > cap)
			cap = cap ? cap * 2 : 4096;
		r->slots = pd_big_grow(r->slots, r->cap_slots *
		    sizeof(*r->slots), cap * sizeof(*r->slots));
		r->cap_slots = cap;
	}
	if (r->n_stacks == r->cap_stacks) {
		unsigned cap = r->cap_stacks ? r->cap_stacks * 2 : 1024;

		r->stacks = pd_big_grow(r->stacks, r->cap_stacks *
		    sizeof(*r->stacks), cap * sizeof(*r->stacks));
		r->cap_stacks = cap;
	}
	memcpy(r->slots + r->n_slots, ids, n * sizeof(*ids));
	r->stacks[r->n_stacks] = (struct prof_stack){ hash, period,
	    r->n_slots, n, cpu };
	r->stack_index[h] = stack_entry(hash, r->n_stacks);
	r->n_slots += n;
	return r->n_stacks++;
}

static uint8_t
context_mode(uint64_t marker, uint8_t mode)
{
	switch (marker) {
	case CTX_HV: return PD_MODE_HYPERVISOR;
	case CTX_KERNEL: return PD_MODE_KERNEL;
	case CTX_USER: return PD_MODE_USER;
	case CTX_GUEST_KERNEL: return PD_MODE_GUEST_KERNEL;
	case CTX_GUEST_USER: return PD_MODE_GUEST_USER;
	default: return mode;
	}
}

unsigned
pd_prof_frames(struct pd_prof_raw *r, uint32_t pid, enum pd_cpumode mode,
    uint64_t ip, const uint64_t *chain, unsigned n_chain, uint32_t *ids)
{
	uint32_t leaf = prof_addr(r, pid, (uint8_t)mode, ip);
	unsigned n = 0;
	uint8_t m = (uint8_t)mode;

	if (leaf == UINT32_MAX)
		return 0;
	/* the sample's own address first: with a precise event (:P) the
	 * chain starts where the interrupt landed, not at the sample's
	 * address, and perf report's Children count the sample's symbol
	 * too */
	ids[n++] = leaf;
	for (unsigned i = 0; chain && i < n_chain && n < PD_PROF_CHAIN; i++) {
		if (chain[i] >= CTX_MAX) {
			m = context_mode(chain[i], m);
			continue;
		}
		uint32_t id = prof_addr(r, pid, m, chain[i]);

		if (id != UINT32_MAX && id != ids[n - 1])
			ids[n++] = id;
	}
	return n;
}

/* The sample by its frames into the self and stack tables; *self and
 * *stack where it went (UINT32_MAX: not added). */
static void
add_frames(struct pd_prof_raw *r, int cpu, uint64_t period,
    const uint32_t *ids, unsigned n, bool has_chain, uint32_t *self,
    uint32_t *stack)
{
	*self = *stack = UINT32_MAX;
	r->samples++;
	r->period += (double)period;
	if (!n) {
		r->dropped++;
		return;
	}
	*self = add_self(r, cpu, ids[0], (double)period);
	if (has_chain)
		*stack = add_stack(r, cpu, ids, n, (double)period);
}

void
pd_prof_add_frames(struct pd_prof_raw *r, int cpu, uint64_t period,
    const uint32_t *ids, unsigned n, bool has_chain)
{
	uint32_t self, stack;

	add_frames(r, cpu, period, ids, n, has_chain, &self, &stack);
}

void
pd_prof_sample_keyed(struct pd_prof_raw *r, struct pd_prof_key key,
    uint32_t pid, int cpu, enum pd_cpumode mode, uint64_t period,
    uint64_t ip, const uint64_t *chain, unsigned n_chain)
{
	uint32_t ids[PD_PROF_CHAIN], self, stack;

	if (chain && pd_prof_memo_hit(r, key, cpu, period))
		return;
	add_frames(r, cpu, period, ids, pd_prof_frames(r, pid, mode, ip,
	    chain, n_chain, ids), chain != NULL, &self, &stack);
	if (chain)
		pd_prof_memo_put(r, key, cpu, self, stack);
}

void
pd_prof_fork(struct pd_prof_raw *r, uint32_t pid, uint32_t ppid)
{
	if (pid == ppid || r->n_forks >= PD_PROF_MAPS)
		return;
	if (r->n_forks == r->cap_forks) {
		r->cap_forks = r->cap_forks ? r->cap_forks * 2 : 256;
		r->forks = pd_xrealloc(r->forks, r->cap_forks *
		    sizeof(*r->forks));
	}
	r->forks[r->n_forks++] = (struct prof_fork){ pid, ppid };
}

void
pd_prof_map(struct pd_prof_raw *r, uint32_t pid, uint64_t start,
    uint64_t len, uint64_t pgoff, const char *filename)
{
	if (r->n_maps >= PD_PROF_MAPS) {
		r->maps_dropped++;
		return;
	}
	if (r->n_maps == r->cap_maps) {
		r->cap_maps = r->cap_maps ? r->cap_maps * 2 : 256;
		r->maps = pd_xrealloc(r->maps, r->cap_maps * sizeof(*r->maps));
	}
	r->maps[r->n_maps++] = (struct prof_map){ start, len, pgoff, pid,
	    pd_xstrdup(filename) };
}

void
pd_prof_raw_copy_maps(struct pd_prof_raw *dst, const struct pd_prof_raw *src)
{
	for (unsigned i = 0; i < src->n_maps; i++)
		pd_prof_map(dst, src->maps[i].pid, src->maps[i].start,
		    src->maps[i].len, src->maps[i].pgoff,
		    src->maps[i].filename);
	for (unsigned i = 0; i < src->n_forks; i++)
		pd_prof_fork(dst, src->forks[i].pid, src->forks[i].ppid);
	dst->maps_dropped += src->maps_dropped;
}

void
pd_profile_end(struct pd_profile *p, struct pd_diag *d)
{
	const struct pd_prof_raw *r = p->raw;

	p->samples = r->samples;
	p->period = r->period;
	p->dropped = r->dropped;
	if (r->dropped || r->stacks_dropped || r->maps_dropped)
		pd_diag_note(d, PD_WARN, "profile.bounded", 0, "%llu samples, "
		    "%llu call stacks and %llu mappings beyond the memory "
		    "bounds were left out of the per-symbol counts",
		    (unsigned long long)r->dropped,
		    (unsigned long long)r->stacks_dropped,
		    (unsigned long long)r->maps_dropped);
	if (r->names_cut || r->names_over)
		pd_diag_note(d, PD_WARN, "profile.names", 0, "%llu symbol or "
		    "DSO names longer than %u bytes were cut there; %llu "
		    "frames named past the %u MiB kept of all names were left "
		    "out", (unsigned long long)r->names_cut,
		    PD_PROF_NAME_MAX, (unsigned long long)r->names_over,
		    PD_PROF_NAME_BYTES >> 20);
}

void
pd_profile_buildid(struct pd_profile *p, struct pd_arena *a,
    const char *filename, const unsigned char *bid, size_t n)
{
	if (n == 0 || n > 20 || !filename[0])
		return;
	if (!p->buildids)
		p->buildids = pd_arena_alloc(a, PD_PROF_BUILDIDS *
		    sizeof(*p->buildids));
	for (unsigned i = 0; i < p->n_buildids; i++)
		if (strcmp(p->buildids[i].filename, filename) == 0)
			return;
	if (p->n_buildids == PD_PROF_BUILDIDS)
		return;
	struct pd_prof_buildid *b = &p->buildids[p->n_buildids++];

	b->filename = pd_arena_strdup(a, filename);
	for (size_t i = 0; i < n; i++)
		snprintf(b->build_id + 2 * i, 3, "%02x", bid[i]);
}

static uint64_t
str_mix(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

static unsigned
name_slot(const struct pd_prof_raw *r, const struct pd_prof_frame *f)
{
	return (unsigned)str_mix(str_mix(f->kernel ? 17 : 29, f->dso),
	    f->sym) & (r->name_index_size - 1);
}

/* s interned: a copy in the pool; NULL past PD_PROF_NAME_BYTES. */
static char *
pool_str(struct pd_prof_raw *r, const char *s)
{
	size_t n = strlen(s) + 1;
	struct prof_pool *p = r->pool;

	if (n > PD_PROF_NAME_BYTES - r->name_bytes)
		return NULL;
	if (!p || p->cap - p->used < n) {
		size_t cap = 1u << 20;

		p = pd_xmalloc(sizeof(*p) + cap);
		p->used = 0;
		p->cap = cap;
		p->next = r->pool;
		r->pool = p;
	}
	char *d = memcpy(p->buf + p->used, s, n);

	p->used += n;
	r->name_bytes += n;
	return d;
}

/* s cut to PD_PROF_NAME_MAX bytes in buf when longer. */
static const char *
cut_name(struct pd_prof_raw *r, const char *s, char *buf)
{
	size_t n = strnlen(s, PD_PROF_NAME_MAX + 1);

	if (n <= PD_PROF_NAME_MAX)
		return s;
	r->names_cut++;
	memcpy(buf, s, PD_PROF_NAME_MAX);
	buf[PD_PROF_NAME_MAX] = '\0';
	return buf;
}

static uint32_t name_index_of(struct pd_prof_raw *r,
    const struct pd_prof_frame *f);

/* Index of a named frame, added when new; UINT32_MAX when full.  Names
 * are cut to PD_PROF_NAME_MAX bytes and interned once. */
static uint32_t
name_of(struct pd_prof_raw *r, const struct pd_prof_frame *f)
{
	char sym[PD_PROF_NAME_MAX + 1], dso[PD_PROF_NAME_MAX + 1];
	struct pd_prof_frame g = { cut_name(r, f->dso, dso),
	    cut_name(r, f->sym, sym), f->kernel };

	return name_index_of(r, &g);
}

static uint32_t
name_index_of(struct pd_prof_raw *r, const struct pd_prof_frame *f)
{
	if ((r->n_names + 1) * 2 > r->name_index_size) {
		if (r->n_names >= PD_PROF_ADDRS)
			return UINT32_MAX;
		free(r->name_index);
		r->name_index_size = r->name_index_size ?
		    r->name_index_size * 2 : 1024;
		r->name_index = pd_xmalloc(r->name_index_size *
		    sizeof(*r->name_index));
		memset(r->name_index, 0xff, r->name_index_size *
		    sizeof(*r->name_index));
		for (unsigned i = 0; i < r->n_names; i++) {
			struct pd_prof_frame g = { r->names[i].dso,
			    r->names[i].sym, r->names[i].kernel };
			unsigned h = name_slot(r, &g);

			while (r->name_index[h] != UINT32_MAX)
				h = (h + 1) & (r->name_index_size - 1);
			r->name_index[h] = i;
		}
	}
	unsigned h = name_slot(r, f);

	for (; r->name_index[h] != UINT32_MAX;
	    h = (h + 1) & (r->name_index_size - 1)) {
		const struct prof_name *n = &r->names[r->name_index[h]];

		if (n->kernel == f->kernel && strcmp(n->sym, f->sym) == 0 &&
		    strcmp(n->dso, f->dso) == 0)
			return r->name_index[h];
	}
	char *dso = pool_str(r, f->dso), *sym = dso ? pool_str(r, f->sym) :
	    NULL;

	if (!sym) {
		r->names_over++;
		return UINT32_MAX;
	}
	if (r->n_names == r->cap_names) {
		r->cap_names = r->cap_names ? r->cap_names * 2 : 256;
		r->names = pd_xrealloc(r->names, r->cap_names *
		    sizeof(*r->names));
	}
	r->names[r->n_names] = (struct prof_name){ dso, sym, f->kernel, -1 };
	r->name_index[h] = r->n_names;
	return r->n_names++;
}

static uint32_t
named_addr(struct pd_prof_raw *r, const struct pd_prof_frame *f)
{
	uint32_t n = name_of(r, f);

	return n == UINT32_MAX ? UINT32_MAX :
	    prof_addr(r, PROF_NAMED_PID, PD_MODE_UNKNOWN, n);
}

void
pd_prof_sample_named(struct pd_prof_raw *r, int cpu, double period,
    const struct pd_prof_frame *frames, unsigned n_frames)
{
	uint32_t ids[PD_PROF_CHAIN];
	unsigned n = 0;

	if (!n_frames)
		return;
	uint32_t leaf = named_addr(r, &frames[0]);

	r->samples++;
	if (!r->total_fixed)
		r->period += period;
	if (leaf == UINT32_MAX) {
		r->dropped++;
		return;
	}
	add_self(r, cpu, leaf, period);
	for (unsigned i = 0; i < n_frames && n < PD_PROF_CHAIN; i++) {
		uint32_t id = i ? named_addr(r, &frames[i]) : leaf;

		if (id != UINT32_MAX)
			ids[n++] = id;
	}
	add_stack(r, cpu, ids, n, period);
}

void
pd_prof_report_line(struct pd_prof_raw *r, int cpu, double self,
    double inclusive, const struct pd_prof_frame *f)
{
	uint32_t n = name_of(r, f);
	uint32_t a = n == UINT32_MAX ? UINT32_MAX :
	    prof_addr(r, PROF_NAMED_PID, PD_MODE_UNKNOWN, n);

	r->samples++;
	if (a == UINT32_MAX) {
		r->dropped++;
		return;
	}
	if (self > 0)
		add_self(r, cpu, a, self);
	if (inclusive >= 0)
		r->names[n].inclusive = (r->names[n].inclusive < 0 ? 0 :
		    r->names[n].inclusive) + inclusive;
}

void
pd_prof_report_total(struct pd_prof_raw *r, double period)
{
	r->total_fixed = true;
	r->period = period;
}

/* The profile's heap tables: the streaming ones, or once symbolised,
 * the stacks finalize kept of them. */
static void
release_profile(void *ctx)
{
	struct pd_profile *p = ctx;

	pd_prof_raw_free(p->raw);
	pd_big_free(p->stacks, p->stacks_bytes);
	pd_big_free(p->stack_syms, p->stack_syms_bytes);
}

struct pd_profile *
pd_host_profile(struct pd_host *h, struct pd_arena *a, const char *member,
    const char *reader)
{
	struct pd_profile **pp = &h->profiles, *p;

	/* by member, and in the reader's order within one (its events) */
	while (*pp && strcmp((*pp)->member, member) <= 0)
		pp = &(*pp)->next;
	p = pd_arena_alloc(a, sizeof(*p));
	p->member = pd_arena_strdup(a, member);
	p->reader = reader;
	p->raw = pd_prof_raw_new();
	pd_arena_on_free(a, release_profile, p);
	p->next = *pp;
	*pp = p;
	return p;
}

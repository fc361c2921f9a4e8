/* Which mapping names a process's address (pid_maps.h). A profile of a
 * whole machine has tens of thousands of addresses in a few hundred
 * processes, so a process's mappings, ranges and parent are found once,
 * on its first address, and cached by pid. */
#include <stdlib.h>
#include <string.h>
#include "decode/profile.h"
#include "finalize/pid_maps.h"
#include "pathdoctor/arena.h"

/* how far up a chain of forks an address is looked for */
#define FORK_DEPTH 8

/* A process's run of mappings in the order, its parent by a fork
 * record and, when cached, its ranges and those of its chain. */
struct pd_pid_span {
	uint32_t pid, lo, end, ppid;
	uint32_t range_lo, n_ranges;
	uint32_t chain_lo, n_chain;
	bool used, forked, ranged;
	enum { CHAIN_UNTRIED, CHAIN_BUILT, CHAIN_NONE } chain;
};

static int
cmp_map(const void *x, const void *y)
{
	const struct pd_map_ref *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
cmp_fork(const void *x, const void *y)
{
	const struct prof_fork *a = x, *b = y;

	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

void
pd_pid_maps_init(struct pd_pid_maps *pm, const struct pd_prof_raw *r)
{
	pm->r = r;
	pm->order = pd_xmalloc((r->n_maps + 1) * sizeof(*pm->order));
	for (unsigned i = 0; i < r->n_maps; i++)
		pm->order[i] = (struct pd_map_ref){ r->maps[i].pid, i };
	qsort(pm->order, r->n_maps, sizeof(*pm->order), cmp_map);
	/* each process's ranges are at most twice its mappings */
	pm->ranges = pd_xmalloc((2 * (size_t)r->n_maps + 1) *
	    sizeof(*pm->ranges));
	pm->n_ranges = 0;
	pm->forks = pd_xmalloc((r->n_forks + 1) * sizeof(*pm->forks));
	if (r->n_forks)
		memcpy(pm->forks, r->forks, r->n_forks * sizeof(*pm->forks));
	qsort(pm->forks, r->n_forks, sizeof(*pm->forks), cmp_fork);
	/* room for every process with a mapping or a fork at half load;
	 * processes with neither are found, uncached, once it is full */
	pm->span_size = 64;
	while (pm->span_size < 2 * ((size_t)r->n_maps + r->n_forks))
		pm->span_size *= 2;
	pm->spans = pd_xcalloc(pm->span_size, sizeof(*pm->spans));
	pm->n_spans = 0;
	pm->chain_run = pd_xmalloc((r->n_maps + 1) * sizeof(*pm->chain_run));
	pm->chains = NULL;
	pm->n_chains = pm->cap_chains = 0;
	pm->max_chains = 4 * (size_t)r->n_maps + 1024;
}

void
pd_pid_maps_free(struct pd_pid_maps *pm)
{
	free(pm->order);
	free(pm->ranges);
	free(pm->forks);
	free(pm->spans);
	free(pm->chain_run);
	free(pm->chains);
}

static void
find_span(const struct pd_pid_maps *pm, uint32_t pid, struct pd_pid_span *sp)
{
	const struct pd_prof_raw *r = pm->r;
	size_t lo = 0, hi = r->n_maps;

	while (lo < hi) {	/* first mapping of a pid >= pid */
		size_t mid = lo + (hi - lo) / 2;

		if (pm->order[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;

	while (end < r->n_maps && pm->order[end].pid == pid)
		end++;
	struct prof_fork key = { pid, 0 };
	const struct prof_fork *f = bsearch(&key, pm->forks, r->n_forks,
	    sizeof(*pm->forks), cmp_fork);

	*sp = (struct pd_pid_span){ pid, (uint32_t)lo, (uint32_t)end,
	    f ? f->ppid : 0, 0, 0, 0, 0, true, f != NULL, false,
	    f ? CHAIN_UNTRIED : CHAIN_NONE };
}

/* once per cached process: each process is cached once, so the ranges
 * of all of them fit in 2 * n_maps */
static void
range_span(struct pd_pid_maps *pm, struct pd_pid_span *sp)
{
	size_t n = pd_map_ranges(pm->r->maps, pm->order + sp->lo,
	    sp->end - sp->lo, pm->ranges + pm->n_ranges);

	sp->range_lo = (uint32_t)pm->n_ranges;
	sp->n_ranges = (uint32_t)n;
	sp->ranged = true;
	pm->n_ranges += n;
}

static struct pd_pid_span *
span_of(struct pd_pid_maps *pm, uint32_t pid, struct pd_pid_span *spare)
{
	unsigned h = (unsigned)pd_prof_mix(0, pid) & (pm->span_size - 1);

	while (pm->spans[h].used && pm->spans[h].pid != pid)
		h = (h + 1) & (pm->span_size - 1);
	if (pm->spans[h].used)
		return &pm->spans[h];
	if ((pm->n_spans + 1) * 2 > pm->span_size) {
		find_span(pm, pid, spare);
		return spare;
	}
	find_span(pm, pid, &pm->spans[h]);
	range_span(pm, &pm->spans[h]);
	pm->n_spans++;
	return &pm->spans[h];
}

/* A process's own mapping over ip: by its ranges, or, for one the full
 * cache could not hold, by a scan from its latest mapping back. */
static const struct prof_map *
own_map(const struct pd_pid_maps *pm, const struct pd_pid_span *sp,
    uint64_t ip)
{
	const struct prof_map *maps = pm->r->maps;

	if (sp->ranged) {
		const struct pd_map_range *g = pd_map_range_find(
		    pm->ranges + sp->range_lo, sp->n_ranges, ip);

		return g ? &maps[g->idx] : NULL;
	}
	for (size_t k = sp->end; k-- > sp->lo;) {
		const struct prof_map *m = &maps[pm->order[k].idx];

		if (ip >= m->start && ip - m->start < m->len)
			return m;
	}
	return NULL;
}

/* The processes the walk of pd_pid_map_of visits from sp, each once,
 * their mappings into pm->chain_run from the farthest to sp: there a
 * process's mappings come after its parents', so the ranges give it
 * the win where the walk would have found it first. The next process
 * depends only on the one before, so the first one seen again ends
 * the walk's new ones (a cycle of forks); being distinct, their
 * mappings are at most all of them. */
static size_t
chain_run(struct pd_pid_maps *pm, const struct pd_pid_span *sp)
{
	struct pd_pid_span at[FORK_DEPTH];
	unsigned n = 0;
	size_t n_run = 0;

	at[n++] = *sp;
	while (n < FORK_DEPTH && at[n - 1].forked &&
	    at[n - 1].ppid != at[n - 1].pid) {
		struct pd_pid_span spare;
		uint32_t up = at[n - 1].ppid;
		bool seen = false;

		for (unsigned i = 0; i < n; i++)
			seen |= at[i].pid == up;
		if (seen)
			break;
		at[n] = *span_of(pm, up, &spare);
		n++;
	}
	while (n-- > 0)
		for (uint32_t k = at[n].lo; k < at[n].end; k++)
			pm->chain_run[n_run++] = pm->order[k];
	return n_run;
}

/* A forked process's one table for the whole walk, while the chains'
 * tables stay within max_chains ranges (past it, the walk) */
static void
build_chain(struct pd_pid_maps *pm, struct pd_pid_span *sp)
{
	size_t n_run = chain_run(pm, sp);

	sp->chain = CHAIN_NONE;
	if (2 * n_run > pm->max_chains - pm->n_chains)
		return;
	if (pm->n_chains + 2 * n_run > pm->cap_chains) {
		size_t cap = pm->cap_chains ? pm->cap_chains : 256;

		while (cap < pm->n_chains + 2 * n_run)
			cap *= 2;
		pm->chains = pd_xrealloc(pm->chains, cap * sizeof(*pm->chains));
		pm->cap_chains = cap;
	}
	size_t n = pd_map_ranges(pm->r->maps, pm->chain_run, n_run,
	    pm->chains + pm->n_chains);

	sp->chain_lo = (uint32_t)pm->n_chains;
	sp->n_chain = (uint32_t)n;
	sp->chain = CHAIN_BUILT;
	pm->n_chains += n;
}

const struct prof_map *
pd_pid_map_of(struct pd_pid_maps *pm, uint32_t pid, uint64_t ip)
{
	struct pd_pid_span spare;
	struct pd_pid_span *sp = span_of(pm, pid, &spare);

	if (sp != &spare && sp->chain == CHAIN_UNTRIED)
		build_chain(pm, sp);
	if (sp != &spare && sp->chain == CHAIN_BUILT) {
		const struct pd_map_range *g = pd_map_range_find(
		    pm->chains + sp->chain_lo, sp->n_chain, ip);

		return g ? &pm->r->maps[g->idx] : NULL;
	}
	/* a forked process that did not map the address runs in its
	 * parent's mappings (a fork without exec) */
	for (unsigned depth = 1;; depth++) {
		const struct prof_map *m = own_map(pm, sp, ip);

		if (m)
			return m;
		if (depth == FORK_DEPTH || !sp->forked || sp->ppid == sp->pid)
			return NULL;
		sp = span_of(pm, sp->ppid, &spare);
	}
}

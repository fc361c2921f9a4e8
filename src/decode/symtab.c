/* Symbol tables as readers build them (kallsyms, ELF): one symbol kept
 * per address, as perf report names it, and the lookup of an address. */
#include <stdlib.h>
#include <string.h>
#include "decode/profile.h"
#include "pathdoctor/model.h"

/* Of two symbols at one address, the one perf report shows: a sized
 * one, then not weak, then global, then fewer leading underscores, then
 * the longer name. */
static bool
prefer(const struct pd_sym *a, const struct pd_sym *b)
{
	size_t ua = 0, ub = 0;

	if (!a->size != !b->size)
		return a->size != 0;
	if ((a->bind == 2) != (b->bind == 2))
		return b->bind == 2;
	if ((a->bind == 1) != (b->bind == 1))
		return a->bind == 1;
	while (a->name[ua] == '_')
		ua++;
	while (b->name[ub] == '_')
		ub++;
	if (ua != ub)
		return ua < ub;
	return strlen(a->name) >= strlen(b->name);
}

static int
cmp_sym(const void *x, const void *y)
{
	const struct pd_sym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Sorts v by insertion while that costs at most 4 moves a symbol: a
 * /proc/kallsyms is in address order but for a few aliases.  false
 * when it stopped; v is then still a permutation, equal symbols in
 * their first order, so that qsort (glibc's is a stable merge sort)
 * ends as it would have from the start. */
static bool
sort_nearly(struct pd_sym *v, unsigned n)
{
	size_t budget = (size_t)n * 4;

	for (unsigned i = 1; i < n; i++) {
		if (cmp_sym(&v[i - 1], &v[i]) <= 0)
			continue;
		struct pd_sym x = v[i];
		unsigned j = i;

		for (; j > 0 && cmp_sym(&v[j - 1], &x) > 0; j--) {
			if (budget-- == 0) {
				v[j] = x;
				return false;
			}
			v[j] = v[j - 1];
		}
		v[j] = x;
	}
	return true;
}

unsigned
pd_syms_settle(struct pd_sym *v, unsigned n)
{
	unsigned k = 0;

	if (n == 0)	/* v may be NULL: no function symbol was read */
		return 0;
	if (!sort_nearly(v, n))
		qsort(v, n, sizeof(*v), cmp_sym);
	for (unsigned i = 0; i < n; i++) {
		if (k && v[k - 1].addr == v[i].addr) {
			if (!prefer(&v[k - 1], &v[i]))
				v[k - 1] = v[i];
			continue;
		}
		v[k++] = v[i];
	}
	return k;
}

const struct pd_sym *
pd_sym_at(const struct pd_sym *v, unsigned n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	if (!n || addr < v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (v[lo].size ? addr - v[lo].addr < v[lo].size : lo + 1 < n)
		return &v[lo];
	return NULL;
}

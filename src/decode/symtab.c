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

unsigned
pd_syms_settle(struct pd_sym *v, unsigned n)
{
	unsigned k = 0;

	if (n == 0)	/* v may be NULL: no function symbol was read */
		return 0;
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

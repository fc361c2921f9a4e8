/* A process's mappings as disjoint ranges (map_ranges.h): one sweep up
 * the address space over the mappings sorted by start, with the
 * mappings over the current address in a max-heap by record order, so
 * that the latest is on top. A mapping that has ended is taken off only
 * when it comes to the top; whatever lies under the top cannot win. */
#include <stdlib.h>
#include "finalize/map_ranges.h"
#include "pathdoctor/arena.h"

static int
cmp_first(const void *x, const void *y)
{
	const struct pd_map_range *a = x, *b = y;

	return a->first < b->first ? -1 : a->first > b->first;
}

/* items[].idx is the mapping's place in the process's record order */
static void
heap_push(uint32_t *heap, size_t *n, const struct pd_map_range *items,
    uint32_t item)
{
	size_t k = (*n)++;

	while (k > 0) {
		size_t up = (k - 1) / 2;

		if (items[heap[up]].idx >= items[item].idx)
			break;
		heap[k] = heap[up];
		k = up;
	}
	heap[k] = item;
}

static void
heap_pop(uint32_t *heap, size_t *n, const struct pd_map_range *items)
{
	uint32_t tail = heap[--*n];
	size_t k = 0;

	if (*n == 0)
		return;
	for (;;) {
		size_t c = 2 * k + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && items[heap[c + 1]].idx > items[heap[c]].idx)
			c++;
		if (items[heap[c]].idx <= items[tail].idx)
			break;
		heap[k] = heap[c];
		k = c;
	}
	heap[k] = tail;
}

/* The mappings that name something, by start: an empty one names no
 * address, and one that runs past 2^64 names up to its top. */
static size_t
by_start(const struct prof_map *maps, const struct pd_map_ref *run, size_t n,
    struct pd_map_range *items)
{
	size_t n_items = 0;

	for (size_t k = 0; k < n; k++) {
		const struct prof_map *m = &maps[run[k].idx];

		if (m->len == 0)
			continue;
		uint64_t last = m->len - 1 > UINT64_MAX - m->start ?
		    UINT64_MAX : m->start + (m->len - 1);

		items[n_items++] = (struct pd_map_range){ m->start, last,
		    (uint32_t)k };
	}
	qsort(items, n_items, sizeof(*items), cmp_first);
	return n_items;
}

static size_t
put(struct pd_map_range *out, size_t n_out, uint64_t first, uint64_t last,
    uint32_t idx)
{
	if (n_out && out[n_out - 1].idx == idx &&
	    out[n_out - 1].last + 1 == first) {
		out[n_out - 1].last = last;
		return n_out;
	}
	out[n_out] = (struct pd_map_range){ first, last, idx };
	return n_out + 1;
}

size_t
pd_map_ranges(const struct prof_map *maps, const struct pd_map_ref *run,
    size_t n, struct pd_map_range *out)
{
	struct pd_map_range *items = pd_xmalloc((n + 1) * sizeof(*items));
	uint32_t *heap = pd_xmalloc((n + 1) * sizeof(*heap));
	size_t n_items = by_start(maps, run, n, items);
	size_t next = 0, n_heap = 0, n_out = 0;
	uint64_t at = n_items ? items[0].first : 0;

	/* each range ends where its mapping ends (taken off next) or just
	 * before the next mapping starts (put on next): at most 2 * n */
	while (next < n_items || n_heap) {
		while (next < n_items && items[next].first <= at)
			heap_push(heap, &n_heap, items, (uint32_t)next++);
		while (n_heap && items[heap[0]].last < at)
			heap_pop(heap, &n_heap, items);
		if (n_heap == 0) {	/* a gap: next < n_items here */
			at = items[next].first;
			continue;
		}
		const struct pd_map_range *top = &items[heap[0]];
		uint64_t last = top->last;

		if (next < n_items && items[next].first - 1 < last)
			last = items[next].first - 1;
		n_out = put(out, n_out, at, last, run[top->idx].idx);
		if (last == UINT64_MAX)
			break;
		at = last + 1;
	}
	free(items);
	free(heap);
	return n_out;
}

const struct pd_map_range *
pd_map_range_find(const struct pd_map_range *ranges, size_t n, uint64_t ip)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first range that starts past ip */
		size_t mid = lo + (hi - lo) / 2;

		if (ranges[mid].first <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || ranges[lo - 1].last < ip)
		return NULL;
	return &ranges[lo - 1];
}

/* Text charts: payload-size histograms with proportional bars. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "report/chart.h"

#define BAR 24
#define MAX_ROWS 24

uint64_t
pd_size_count_of(const struct pd_size_count *v, unsigned n, uint32_t bytes)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].bytes == bytes)
			return v[i].count;
	return 0;
}

static void
bar(char *buf, size_t cap, uint64_t count, uint64_t max)
{
	size_t w = max ? (size_t)((count * BAR + max - 1) / max) : 0;

	if (w > BAR)
		w = BAR;
	memset(buf, '#', w);
	memset(buf + w, ' ', BAR - w);
	buf[BAR] = '\0';
	(void)cap;
}

const char *
pd_chart_sizes(struct pd_arena *a, const char *ta,
    const struct pd_size_count *va, unsigned na, const char *tb,
    const struct pd_size_count *vb, unsigned nb, unsigned rows)
{
	uint32_t sizes[MAX_ROWS];
	unsigned n = 0;
	uint64_t max_a = 0, max_b = 0;
	char out[4096], ba[BAR + 1], bb[BAR + 1];
	size_t len = 0;

	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	/* the rows: a's top sizes, then b's that are missing */
	for (unsigned i = 0; i < na && n < rows; i++)
		sizes[n++] = va[i].bytes;
	for (unsigned i = 0; vb && i < nb && n < rows; i++) {
		bool seen = false;

		for (unsigned k = 0; k < n; k++)
			seen = seen || sizes[k] == vb[i].bytes;
		if (!seen && n < rows)
			sizes[n++] = vb[i].bytes;
	}
	/* each column on its own scale: 90 super-packets beside 4051
	 * segments would otherwise draw as one # */
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = pd_size_count_of(va, na, sizes[i]);
		uint64_t y = vb ? pd_size_count_of(vb, nb, sizes[i]) : 0;

		max_a = x > max_a ? x : max_a;
		max_b = y > max_b ? y : max_b;
	}
	if (vb)
		len += (size_t)snprintf(out + len, sizeof(out) - len,
		    "%10s  bars: each column on its own scale (%d # = its "
		    "largest count)\n", "", BAR);
	len += (size_t)snprintf(out + len, sizeof(out) - len, "%10s  %-*s %8s",
	    "payload", BAR, ta, "count");
	if (vb)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "  %-*s %8s",
		    BAR, tb, "count");
	for (unsigned i = 0; i < n && len < sizeof(out) - 128; i++) {
		uint64_t x = pd_size_count_of(va, na, sizes[i]);

		bar(ba, sizeof(ba), x, max_a);
		len += (size_t)snprintf(out + len, sizeof(out) - len,
		    "\n%8u B  %s %8llu", sizes[i], ba, (unsigned long long)x);
		if (vb) {
			uint64_t y = pd_size_count_of(vb, nb, sizes[i]);

			bar(bb, sizeof(bb), y, max_b);
			len += (size_t)snprintf(out + len, sizeof(out) - len,
			    "  %s %8llu", bb, (unsigned long long)y);
		}
	}
	return pd_arena_strndup(a, out, len);
}

const char *
pd_chart_draw(struct pd_arena *a, const struct pd_chart *c)
{
	if (!c)
		return NULL;
	return pd_chart_sizes(a, c->title_a, c->a, c->n_a, c->title_b, c->b,
	    c->n_b, c->rows);
}

static bool
row_has(const uint32_t *rows, unsigned n, uint32_t bytes)
{
	for (unsigned k = 0; k < n; k++)
		if (rows[k] == bytes)
			return true;
	return false;
}

static uint64_t
max_of(const struct pd_size_count *v, unsigned n, const uint32_t *rows,
    unsigned nr)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < nr; i++) {
		uint64_t c = pd_size_count_of(v, n, rows[i]);

		m = c > m ? c : m;
	}
	return m;
}

static int
cmp_desc(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? 1 : a > b ? -1 : 0;
}

const char *
pd_chart_data_pair(struct pd_arena *a, const char *ta,
    const struct pd_size_count *va, unsigned na, const char *tb,
    const struct pd_size_count *vb, unsigned nb, unsigned rows)
{
	uint32_t r[MAX_ROWS];
	unsigned n = 0;
	char out[4096], ba[BAR + 1], bb[BAR + 1];
	size_t len = 0;

	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	/* each side's top sizes in turn, so both sides' shapes show */
	for (unsigned i = 0; n < rows && (i < na || i < nb); i++) {
		if (i < na && va[i].bytes && !row_has(r, n, va[i].bytes))
			r[n++] = va[i].bytes;
		if (n < rows && i < nb && vb[i].bytes &&
		    !row_has(r, n, vb[i].bytes))
			r[n++] = vb[i].bytes;
	}
	qsort(r, n, sizeof(r[0]), cmp_desc);
	uint64_t ma = max_of(va, na, r, n), mb = max_of(vb, nb, r, n);

	len += (size_t)snprintf(out + len, sizeof(out) - len,
	    "%10s  %-*s %8s  %-*s %8s", "payload", BAR, ta, "count", BAR, tb,
	    "count");
	for (unsigned i = 0; i < n && len < sizeof(out) - 128; i++) {
		uint64_t x = pd_size_count_of(va, na, r[i]), y = pd_size_count_of(vb, nb, r[i]);

		bar(ba, sizeof(ba), x, ma);
		bar(bb, sizeof(bb), y, mb);
		len += (size_t)snprintf(out + len, sizeof(out) - len,
		    "\n%8u B  %s %8llu  %s %8llu", r[i], ba,
		    (unsigned long long)x, bb, (unsigned long long)y);
	}
	return pd_arena_strndup(a, out, len);
}

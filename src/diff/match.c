/* Pairing the hosts of two bundles: by host name, else by the cards'
 * serial numbers and the PCI addresses of their devices, else by
 * position among the hosts left; a host left over is in one bundle
 * only.  Each pair says how it was made. */
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diff.h"
#include "pathdoctor/model.h"

static unsigned
common_serials(const struct pd_host *b, const struct pd_host *a,
    const char **first, struct pd_arena *ar)
{
	unsigned n = 0;

	for (const struct pd_card *x = b->cards; x; x = x->next)
		for (const struct pd_card *y = a->cards; x->has_dsn && y;
		    y = y->next)
			if (y->has_dsn && x->dsn == y->dsn && n++ == 0)
				*first = pd_arena_printf(ar, "%016llx",
				    (unsigned long long)x->dsn);
	return n;
}

/* Devices at the same address with the same description (or either
 * unknown), over the larger host's devices: bridges count too, since a
 * host's topology is what tells it from another. */
static double
common_addresses(const struct pd_host *b, const struct pd_host *a)
{
	unsigned same = 0;
	unsigned n = b->n_pcidevs > a->n_pcidevs ? b->n_pcidevs : a->n_pcidevs;

	if (!n)
		return 0;
	for (const struct pd_pcidev *d = b->pcidevs; d; d = d->next) {
		const struct pd_pcidev *e = pd_host_find_pcidev(a, d->bdf);

		if (e && (!d->desc || !e->desc || strcmp(d->desc, e->desc) == 0))
			same++;
	}
	return (double)same / n;
}

/* Half the devices at the same addresses: a host re-cabled or with a
 * card added still pairs, two hosts that share only a chipset's root
 * ports and an onboard NIC (a few of dozens) do not. */
#define ADDRESS_SHARE 0.5

static struct pd_diff_host *
pair(struct pd_arena *ar, const struct pd_host *b, const struct pd_host *a,
    enum pd_diff_match how, const char *why)
{
	struct pd_diff_host *dh = pd_arena_alloc(ar, sizeof(*dh));

	dh->before = b;
	dh->after = a;
	dh->matched_by = how;
	dh->match_how = why;
	return dh;
}

/* Pairing by hardware compares every host left on one side with every
 * one on the other; past this many on a side (a fleet, not a host and
 * its guests) the rest pair by position, and say so. */
#define HARDWARE_MAX 64

struct side {
	const struct pd_host **h;	/* in model order */
	const struct pd_host **by_name;	/* named hosts, by name */
	unsigned n, n_named;
	bool *taken;
};

static int
cmp_name(const void *x, const void *y)
{
	const struct pd_host *const *a = x, *const *b = y;

	return strcmp((*a)->name, (*b)->name);
}

static void
side_init(struct side *s, const struct pd_model *m, struct pd_arena *ar)
{
	s->n = 0;
	for (const struct pd_host *h = m->hosts; h; h = h->next)
		s->n++;
	s->h = pd_arena_alloc(ar, (s->n + 1) * sizeof(*s->h));
	s->by_name = pd_arena_alloc(ar, (s->n + 1) * sizeof(*s->by_name));
	s->taken = pd_arena_alloc(ar, s->n + 1);
	s->n = s->n_named = 0;
	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		s->h[s->n++] = h;
		if (h->name && *h->name)
			s->by_name[s->n_named++] = h;
	}
	qsort(s->by_name, s->n_named, sizeof(*s->by_name), cmp_name);
}

/* The only host of s with this name, or NULL. */
static const struct pd_host *
unique_name(const struct side *s, const char *name)
{
	size_t lo = 0, hi = s->n_named;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(s->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= s->n_named || strcmp(s->by_name[lo]->name, name) != 0 ||
	    (lo + 1 < s->n_named && strcmp(s->by_name[lo + 1]->name, name) == 0))
		return NULL;
	return s->by_name[lo];
}

static unsigned
index_of(const struct side *s, const struct pd_host *h)
{
	unsigned lo = 0, hi = s->n;

	/* model order is key order (pd_model_sort) */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (strcmp(s->h[mid]->key, h->key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->h[lo] == h ? lo : s->n;
}

static int
by_hardware(const struct side *as, const struct pd_host *b, const char **why,
    struct pd_arena *ar)
{
	int best = -1;
	double best_share = 0;

	for (unsigned i = 0; i < as->n; i++) {
		const char *serial = NULL;

		if (as->taken[i])
			continue;
		if (common_serials(b, as->h[i], &serial, ar)) {
			*why = pd_arena_printf(ar, "card serial number %s", serial);
			return (int)i;
		}
		double s = common_addresses(b, as->h[i]);

		if (s >= ADDRESS_SHARE && s > best_share) {
			best = (int)i;
			best_share = s;
		}
	}
	if (best >= 0)
		*why = pd_arena_printf(ar, "PCI addresses (%.0f %% of the "
		    "devices at the same address)", 100 * best_share);
	return best;
}

static unsigned
left(const struct side *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n; i++)
		n += !s->taken[i];
	return n;
}

struct pd_diff_host *
pd_diff_match_hosts(const struct pd_model *bm, const struct pd_model *am,
    struct pd_arena *ar)
{
	struct side bs, as;
	struct pd_diff_host *head = NULL, **tail = &head;

	side_init(&bs, bm, ar);
	side_init(&as, am, ar);
	struct pd_diff_host **row = pd_arena_alloc(ar, (bs.n + 1) *
	    sizeof(*row));

	for (unsigned i = 0; i < bs.n; i++) {
		const struct pd_host *b = bs.h[i], *a;

		if (!b->name || !*b->name || !unique_name(&bs, b->name) ||
		    !(a = unique_name(&as, b->name)))
			continue;
		as.taken[index_of(&as, a)] = bs.taken[i] = true;
		row[i] = pair(ar, b, a, PD_MATCH_NAME,
		    pd_arena_printf(ar, "host name %s", b->name));
	}
	bool hardware = left(&bs) <= HARDWARE_MAX && left(&as) <= HARDWARE_MAX;

	for (unsigned i = 0; i < bs.n && hardware; i++) {
		const char *why = NULL;
		int j;

		if (bs.taken[i] || (j = by_hardware(&as, bs.h[i], &why, ar)) < 0)
			continue;
		as.taken[j] = bs.taken[i] = true;
		row[i] = pair(ar, bs.h[i], as.h[j], PD_MATCH_HARDWARE, why);
	}
	unsigned j = 0, k = 0;

	for (unsigned i = 0; i < bs.n; i++) {
		if (bs.taken[i])
			continue;
		while (j < as.n && as.taken[j])
			j++;
		if (j < as.n) {
			as.taken[j] = true;
			row[i] = pair(ar, bs.h[i], as.h[j], PD_MATCH_POSITION,
			    pd_arena_printf(ar, "position: host %u of those left "
			    "on each side%s", ++k, hardware ? " (no common host "
			    "name, card serial or PCI addresses)" : " (no "
			    "common host name; too many hosts left to compare "
			    "their hardware)"));
		} else
			row[i] = pair(ar, bs.h[i], NULL, PD_MATCH_ONLY_BEFORE,
			    "in BEFORE only");
	}
	for (unsigned i = 0; i < bs.n; i++) {
		*tail = row[i];
		tail = &row[i]->next;
	}
	for (j = 0; j < as.n; j++)
		if (!as.taken[j]) {
			*tail = pair(ar, NULL, as.h[j], PD_MATCH_ONLY_AFTER,
			    "in AFTER only");
			tail = &(*tail)->next;
		}
	return head;
}

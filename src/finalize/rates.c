/* Counter snapshots -> canonical totals and rates.
 *
 * Snapshots are ordered by time.  Each interval between two timed
 * snapshots adds its deltas; an interval where a counter went backwards
 * (driver reload, ethtool -S of a re-created device) is left out and
 * noted instead of becoming a huge rate.  A 32-bit counter that wrapped
 * (was above 2^31, is now smaller) is unwrapped. */
#include <string.h>
#include "finalize/counters.h"
#include "pathdoctor/arena.h"

#define MAX_SET 256	/* names summed into one meaning (queues, rings) */

bool
pd_counter_delta(uint64_t prev, uint64_t cur, uint64_t *delta)
{
	if (cur >= prev) {
		*delta = cur - prev;
		return true;
	}
	if (prev <= UINT32_MAX && prev - cur > (1ull << 31)) {
		*delta = cur + (1ull << 32) - prev;
		return true;
	}
	return false;
}

static const struct pd_counter *
find(const struct pd_snapshot *s, const char *name)
{
	for (const struct pd_counter *c = s->counters; c; c = c->next) {
		int k = strcmp(c->name, name);

		if (k == 0)
			return c;
		if (k > 0)
			break;
	}
	return NULL;
}

static void
counter_ev(struct pd_evidence *ev, const struct pd_snapshot *s,
    const struct pd_counter *c)
{
	ev->member = s->member;
	ev->line = c->line;
	ev->text = c->text;
}

/* A counter's tier for meaning want, or -1: the canonical meanings'
 * table, or the drop classes'. */
typedef int classify_fn(const char *driver, const char *name, int want);

static int
classify_ctr(const char *driver, const char *name, int want)
{
	enum pd_ctr ctr;
	int tier;

	return pd_counter_alias(driver, name, &ctr, &tier) &&
	    (int)ctr == want ? tier : -1;
}

static int
classify_drop(const char *driver, const char *name, int want)
{
	enum pd_drop cls;
	int tier;

	return pd_drop_alias(driver, name, &cls, &tier) && (int)cls == want ?
	    tier : -1;
}

/* The names that make up one meaning in snapshot s: the lowest tier. */
static unsigned
name_set(const char *driver, const struct pd_snapshot *s, classify_fn *cls,
    int want, const char **names)
{
	unsigned n = 0;
	int best = 3;

	for (const struct pd_counter *c = s->counters; c; c = c->next) {
		int tier = cls(driver, c->name, want);

		if (tier < 0 || tier > best)
			continue;
		if (tier < best) {
			best = tier;
			n = 0;
		}
		if (n < MAX_SET)
			names[n++] = c->name;
	}
	return n;
}

static void
one_meaning(struct pd_host *h, struct pd_netdev *nd, struct pd_arena *a,
    const char *driver, classify_fn *cls, int want, struct pd_ctr_value *v,
    const struct pd_snapshot *last)
{
	enum pd_ctr known_ctr;
	int known_tier;
	const char *names[MAX_SET];
	unsigned n = name_set(driver, last, cls, want, names);
	const struct pd_snapshot *prev = NULL, *first = NULL;
	uint64_t sum = 0, total_delta = 0;
	int64_t total_ms = 0;

	if (n == 0)
		return;
	for (unsigned i = 0; i < n; i++)
		sum += find(last, names[i])->value;
	v->known = true;
	v->total = sum;
	v->n_names = n;
	counter_ev(&v->ev_last, last, find(last, names[0]));
	for (const struct pd_snapshot *s = nd->snaps; s; s = s->next) {
		if (s->time_ms < 0)
			continue;
		if (!first && find(s, names[0])) {
			first = s;
			counter_ev(&v->ev_first, s, find(s, names[0]));
		}
		if (prev && s->time_ms > prev->time_ms) {
			uint64_t d = 0, dd;
			bool ok = true;

			for (unsigned i = 0; i < n && ok; i++) {
				const struct pd_counter *p = find(prev, names[i]);
				const struct pd_counter *c = find(s, names[i]);

				if (!p || !c)
					continue;
				if (pd_counter_delta(p->value, c->value, &dd)) {
					d += dd;
					continue;
				}
				ok = false;
				/* the first pass noted the names it knows */
				if (cls != classify_ctr && pd_counter_alias(
				    driver, c->name, &known_ctr, &known_tier))
					continue;
				struct pd_evidence ev;

				counter_ev(&ev, s, c);
				pd_host_note(h, a, &ev, "%s: counter %s went "
				    "backwards from %llu to %llu between '%s' "
				    "and '%s' (driver reload?); that interval is "
				    "left out of the rate", nd->name, c->name,
				    (unsigned long long)p->value,
				    (unsigned long long)c->value, prev->member,
				    s->member);
			}
			if (ok) {
				total_delta += d;
				total_ms += s->time_ms - prev->time_ms;
			}
		}
		prev = s;
	}
	if (total_ms > 0) {
		v->is_rate = true;
		v->per_s = (double)total_delta * 1000.0 / (double)total_ms;
	}
}

static const char *
driver_of(const struct pd_netdev *nd)
{
	return nd->driver ? nd->driver : nd->pci ? nd->pci->driver : NULL;
}

static const struct pd_snapshot *
last_snap(const struct pd_netdev *nd)
{
	const struct pd_snapshot *last = NULL;

	for (const struct pd_snapshot *s = nd->snaps; s; s = s->next)
		last = s;
	return last;
}

void
pd_netdev_counters(struct pd_host *h, struct pd_netdev *nd,
    struct pd_arena *a)
{
	const struct pd_snapshot *last = last_snap(nd);

	if (!last)
		return;
	for (int c = 0; c < PD_CTR_COUNT; c++)
		one_meaning(h, nd, a, driver_of(nd), classify_ctr, c,
		    &nd->ctr[c], last);
}

/* The same reading for the drop classes (a counter going backwards is
 * noted once: by pd_netdev_counters for the names both tables know). */
void
pd_netdev_drops(struct pd_host *h, struct pd_netdev *nd, struct pd_arena *a)
{
	const struct pd_snapshot *last = last_snap(nd);

	if (!last)
		return;
	for (int c = 0; c < PD_DROP_COUNT; c++)
		one_meaning(h, nd, a, driver_of(nd), classify_drop, c,
		    &nd->drop[c], last);
}

/* One queue counter's bytes between the snapshots; false when it is not
 * in both, went backwards, or is no queue counter. */
static bool
rxq_delta(const char *driver, const struct pd_snapshot *first,
    const struct pd_counter *c, unsigned *q, uint64_t *d,
    const struct pd_counter **p)
{
	if (!pd_rxq_alias(driver, c->name, q))
		return false;
	*p = find(first, c->name);
	return *p && pd_counter_delta((*p)->value, c->value, d);
}

static void
rxq_busiest(struct pd_rxq *r, const char *driver,
    const struct pd_snapshot *first, const struct pd_snapshot *last)
{
	uint64_t most = 0, d;
	const struct pd_counter *p;
	unsigned q;

	for (unsigned i = 0; i < r->n; i++)
		if (r->per_s[i] > r->per_s[r->busiest])
			r->busiest = i;
	for (const struct pd_counter *c = last->counters; c; c = c->next)
		if (rxq_delta(driver, first, c, &q, &d, &p) &&
		    q == r->busiest && (d > most || !r->ev_last.member)) {
			most = d;
			counter_ev(&r->ev_first, first, p);
			counter_ev(&r->ev_last, last, c);
		}
}

void
pd_netdev_rxq(struct pd_netdev *nd, struct pd_arena *a)
{
	const struct pd_snapshot *first, *last;
	const char *driver = driver_of(nd);
	const struct pd_counter *p;
	unsigned q, n = 0, beyond = 0;
	uint64_t d;

	if (!pd_netdev_timed_pair(nd, &first, &last))
		return;
	for (const struct pd_counter *c = last->counters; c; c = c->next) {
		if (!pd_rxq_alias(driver, c->name, &q))
			continue;
		if (q >= PD_RXQ_MAX)
			beyond++;
		else if (q + 1 > n)
			n = q + 1;
	}
	if (n == 0)
		return;
	struct pd_rxq *r = pd_arena_alloc(a, sizeof(*r));
	double secs = (double)(last->time_ms - first->time_ms) / 1000.0;

	r->per_s = pd_arena_alloc(a, n * sizeof(*r->per_s));
	r->n = n;
	r->n_beyond = beyond;
	r->seconds = secs;
	for (unsigned i = 0; i < n; i++)
		r->per_s[i] = -1;
	for (const struct pd_counter *c = last->counters; c; c = c->next) {
		if (!rxq_delta(driver, first, c, &q, &d, &p) || q >= n)
			continue;
		if (r->per_s[q] < 0) {
			r->per_s[q] = 0;
			r->n_counted++;
		}
		r->per_s[q] += (double)d / secs;
		r->total_per_s += (double)d / secs;
	}
	if (r->n_counted == 0)
		return;
	rxq_busiest(r, driver, first, last);
	nd->rxq = r;
}

void
pd_netdev_kstat_rate(struct pd_netdev *nd)
{
	const struct pd_kstat *k0 = &nd->kstat[0], *k1 = &nd->kstat[1];
	struct pd_kstat_rate *r = &nd->kstat_rate;

	if (nd->n_kstat < 2 || k1->time <= k0->time)
		return;
	r->known = true;
	r->seconds = (double)(k1->time - k0->time);
	r->rx_per_s = (double)(k1->rx_bytes - k0->rx_bytes) / r->seconds;
	r->tx_per_s = (double)(k1->tx_bytes - k0->tx_bytes) / r->seconds;
}

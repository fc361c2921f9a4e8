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

/* The names that make up one meaning in snapshot s: the lowest tier. */
static unsigned
name_set(const char *driver, const struct pd_snapshot *s, enum pd_ctr want,
    const char **names)
{
	unsigned n = 0;
	int best = 2;

	for (const struct pd_counter *c = s->counters; c; c = c->next) {
		enum pd_ctr ctr;
		int tier;

		if (!pd_counter_alias(driver, c->name, &ctr, &tier) ||
		    ctr != want || tier > best)
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
    const char *driver, enum pd_ctr ctr, const struct pd_snapshot *last)
{
	const char *names[MAX_SET];
	unsigned n = name_set(driver, last, ctr, names);
	struct pd_ctr_value *v = &nd->ctr[ctr];
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

void
pd_netdev_counters(struct pd_host *h, struct pd_netdev *nd,
    struct pd_arena *a)
{
	const struct pd_snapshot *last = NULL;
	const char *driver = nd->driver ? nd->driver :
	    nd->pci ? nd->pci->driver : NULL;

	for (const struct pd_snapshot *s = nd->snaps; s; s = s->next)
		last = s;
	if (!last)
		return;
	for (int c = 0; c < PD_CTR_COUNT; c++)
		one_meaning(h, nd, a, driver, (enum pd_ctr)c, last);
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

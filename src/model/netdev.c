/* Network interfaces and sysctls in the host model: sorted lookups. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/index.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

struct pd_netdev *
pd_host_netdev(struct pd_host *h, struct pd_arena *a, const char *name)
{
	struct pd_netdev *nd = (struct pd_netdev *)(uintptr_t)
	    pd_host_find_netdev(h, name);

	if (nd) {
		nd->guessed = false;	/* an output, or a path that knows */
		return nd;
	}
	nd = pd_arena_alloc(a, sizeof(*nd));

	nd->name = pd_arena_strdup(a, name);
	nd->speed_mbps = -1;
	nd->ifindex = nd->mtu = -1;
	nd->n_txq = nd->n_rxq = -1;
	nd->gso_max_size = nd->gso_max_segs = nd->gso_ipv4_max_size = -1;
	nd->gro_max_size = nd->tso_max_size = nd->tso_max_segs = -1;
	nd->rings_max = nd->rings_cur = (struct pd_rings){ -1, -1, -1, -1,
	    -1, -1, -1, -1 };
	nd->channels_max = nd->channels_cur = (struct pd_channels){ -1, -1,
	    -1, -1 };
	nd->next = h->netdevs;	/* pd_model_sort orders them */
	h->netdevs = nd;
	pd_index_add(&h->priv->netdevs, a, pd_hash_str(nd->name), nd);
	h->n_netdevs++;
	return nd;
}

struct pd_netdev *
pd_host_netdev_guessed(struct pd_host *h, struct pd_arena *a,
    const char *name)
{
	const struct pd_netdev *old = pd_host_find_netdev(h, name);
	struct pd_netdev *nd;

	if (old)
		return (struct pd_netdev *)(uintptr_t)old;
	nd = pd_host_netdev(h, a, name);
	nd->guessed = true;
	return nd;
}

void
pd_host_unused(struct pd_host *h, struct pd_arena *a, const char *member,
    const char *format, const char *reason)
{
	struct pd_unused *u = pd_arena_alloc(a, sizeof(*u));

	u->member = pd_arena_strdup(a, member);
	u->format = format;
	u->reason = pd_arena_strdup(a, reason);
	*h->priv->unused_tail = u;
	h->priv->unused_tail = &u->next;
}

static bool
netdev_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_netdev *)item)->name, key) == 0;
}

const struct pd_netdev *
pd_host_find_netdev(const struct pd_host *h, const char *name)
{
	return pd_index_find(&h->priv->netdevs, pd_hash_str(name), netdev_is,
	    name);
}

void
pd_host_drop_netdev(struct pd_host *h, struct pd_netdev **pp)
{
	struct pd_netdev *nd = *pp;

	pd_index_del(&h->priv->netdevs, pd_hash_str(nd->name), nd);
	*pp = nd->next;
	h->n_netdevs--;
}

struct pd_snapshot *
pd_netdev_snapshot(struct pd_netdev *nd, struct pd_arena *a,
    const char *member, int64_t time_ms)
{
	struct pd_snapshot *s = pd_arena_alloc(a, sizeof(*s));

	s->member = member;
	s->time_ms = time_ms;
	s->next = nd->snaps;	/* pd_model_sort orders them */
	nd->snaps = s;
	nd->n_snaps++;
	return s;
}

const struct pd_feature *
pd_netdev_feature(const struct pd_netdev *nd, const char *name)
{
	for (const struct pd_feature *f = nd->features; f; f = f->next)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

void
pd_netdev_queue_block(const struct pd_netdev *nd, unsigned b,
    struct pd_queue_block *q)
{
	static const char *const rings[] = { "rx", "rx_mini", "rx_jumbo",
		"tx", "rx_buf_len", "cqe_size", "tx_push_buf_len", "hds_thresh" };
	static const char *const channels[] = { "rx", "tx", "other",
		"combined" };
	static const char *const flags[] = { "tx_push", "rx_push",
		"tcp_data_split" };
	const struct pd_rings *r = b == 1 ? &nd->rings_cur : &nd->rings_max;
	const struct pd_channels *c = b == 3 ? &nd->channels_cur :
	    &nd->channels_max;
	const int64_t rv[] = { r->rx, r->rx_mini, r->rx_jumbo, r->tx,
		r->rx_buf_len, r->cqe_size, r->tx_push_buf_len, r->hds_thresh };
	const int64_t cv[] = { c->rx, c->tx, c->other, c->combined };
	const struct pd_evidence *ev = b < 2 ? &nd->ev_rings :
	    &nd->ev_channels;

	*q = (struct pd_queue_block){ .what = b < 2 ? "rings" : "channels",
		.current = b % 2, .ev = ev->member ? ev : NULL,
		.error = b < 2 ? nd->rings_error : nd->channels_error,
		.names = b < 2 ? rings : channels, .flag_names = flags,
		.n = b < 2 ? PD_ARRAY_SIZE(rv) : PD_ARRAY_SIZE(cv),
		.n_flags = b == 1 ? PD_ARRAY_SIZE(flags) : 0,
		.flag = { nd->tx_push, nd->rx_push, nd->tcp_data_split } };
	if (b < 2)
		memcpy(q->v, rv, sizeof(rv));
	else
		memcpy(q->v, cv, sizeof(cv));
}

static bool
kv_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_kv *)item)->key, key) == 0;
}

void
pd_host_sysctl_set(struct pd_host *h, struct pd_arena *a, const char *key,
    const char *val, const struct pd_evidence *ev)
{
	char *k = pd_arena_strdup(a, key);
	struct pd_kv *kv;

	for (char *p = k; *p; p++)	/* net/ipv4/ip_forward */
		if (*p == '/')
			*p = '.';
	if ((kv = (struct pd_kv *)(uintptr_t)pd_host_sysctl(h, k))) {
		kv->val = pd_arena_strdup(a, val);
		kv->ev = *ev;
		return;
	}
	kv = pd_arena_alloc(a, sizeof(*kv));
	kv->key = k;
	kv->val = pd_arena_strdup(a, val);
	kv->ev = *ev;
	kv->next = h->sysctl;	/* pd_model_sort orders them */
	h->sysctl = kv;
	pd_index_add(&h->priv->sysctls, a, pd_hash_str(k), kv);
}

const struct pd_kv *
pd_host_sysctl(const struct pd_host *h, const char *key)
{
	return pd_index_find(&h->priv->sysctls, pd_hash_str(key), kv_is, key);
}

bool
pd_host_sysctl_int(const struct pd_host *h, const char *key, long *out)
{
	const struct pd_kv *kv = pd_host_sysctl(h, key);
	char *end;

	if (!kv || !kv->val || !*kv->val)
		return false;
	long v = strtol(kv->val, &end, 10);

	if (*pd_skip_space(end) != '\0')
		return false;
	*out = v;
	return true;
}

void
pd_host_note(struct pd_host *h, struct pd_arena *a,
    const struct pd_evidence *ev, const char *fmt, ...)
{
	struct pd_model_note *n = pd_arena_alloc(a, sizeof(*n));
	va_list ap;

	va_start(ap, fmt);
	n->msg = pd_arena_vprintf(a, fmt, ap);
	va_end(ap);
	if (ev)
		n->ev = *ev;
	*h->priv->notes_tail = n;
	h->priv->notes_tail = &n->next;
}

struct pd_capture *
pd_host_capture(struct pd_host *h, struct pd_arena *a, const char *member,
    const char *ifname)
{
	struct pd_capture *c = pd_arena_alloc(a, sizeof(*c));

	c->member = member;
	c->ifname = pd_arena_strdup(a, ifname);
	c->next = h->captures;	/* pd_model_sort orders them */
	h->captures = c;
	return c;
}

const struct pd_counter *
pd_snapshot_counter(const struct pd_snapshot *s, const char *name)
{
	for (const struct pd_counter *c = s->counters; c; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

bool
pd_netdev_timed_pair(const struct pd_netdev *nd,
    const struct pd_snapshot **first, const struct pd_snapshot **last)
{
	*first = *last = NULL;
	for (const struct pd_snapshot *s = nd->snaps; s; s = s->next)
		if (s->time_ms >= 0) {
			if (!*first)
				*first = s;
			*last = s;
		}
	return *first && (*last)->time_ms > (*first)->time_ms;
}

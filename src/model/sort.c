/* The model's lists by key into key order, once, after the readers:
 * readers prepend (a sorted insertion walks the list, quadratic in a
 * bundle with 100 k devices or interfaces), so each list is reversed
 * back into arrival order and merge sorted, which keeps records with
 * equal keys (two snapshots at one time) in the order they came. */
#include <stdlib.h>
#include <string.h>
#include "model/index.h"
#include "pathdoctor/model.h"

/* Collects list into an array in arrival order, sorts it, relinks it. */
#define PD_SORT_LIST(type, head, cmp)                                   \
	do {                                                            \
		size_t n_ = 0, i_;                                      \
		void **v_;                                              \
		for (type *p_ = (head); p_; p_ = p_->next)              \
			n_++;                                           \
		if (n_ < 2)                                             \
			break;                                          \
		if (!(v_ = malloc(n_ * sizeof(*v_))))                   \
			abort();	/* as the arena does */          \
		i_ = n_;                                                \
		for (type *p_ = (head); p_; p_ = p_->next)              \
			v_[--i_] = p_;                                  \
		if (!sorted(v_, n_, cmp))                               \
			pd_sort_ptrs(v_, n_, cmp);                      \
		for (i_ = 0; i_ + 1 < n_; i_++)                         \
			((type *)v_[i_])->next = v_[i_ + 1];            \
		((type *)v_[n_ - 1])->next = NULL;                      \
		(head) = v_[0];                                         \
		free(v_);                                               \
	} while (0)

static bool
sorted(void **v, size_t n, int (*cmp)(const void *, const void *))
{
	for (size_t i = 1; i < n; i++)
		if (cmp(v[i - 1], v[i]) > 0)
			return false;
	return true;
}

static int
host_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_host *)a)->key,
	    ((const struct pd_host *)b)->key);
}

static int
pcidev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_pcidev *)a)->bdf,
	    ((const struct pd_pcidev *)b)->bdf);
}

static int
edge_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_pci_edge *)a)->bdf,
	    ((const struct pd_pci_edge *)b)->bdf);
}

static int
netdev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_netdev *)a)->name,
	    ((const struct pd_netdev *)b)->name);
}

static int
kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_kv *)a)->key,
	    ((const struct pd_kv *)b)->key);
}

static int
feature_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_feature *)a)->name,
	    ((const struct pd_feature *)b)->name);
}

/* Features by name; of one name read twice the later dump wins. */
static void
sort_features(struct pd_netdev *nd)
{
	PD_SORT_LIST(struct pd_feature, nd->features, feature_cmp);
	for (struct pd_feature **pp = &nd->features; *pp && (*pp)->next;) {
		if (strcmp((*pp)->name, (*pp)->next->name) == 0)
			*pp = (*pp)->next;	/* arrival order: drop the first */
		else
			pp = &(*pp)->next;
	}
}

static int
cpu_type_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pd_cpu_type *)a)->name,
	    ((const struct pd_cpu_type *)b)->name);
}

/* By member, then interface. */
static int
capture_cmp(const void *a, const void *b)
{
	const struct pd_capture *x = a, *y = b;
	int k = strcmp(x->member, y->member);

	return k ? k : strcmp(x->ifname, y->ifname);
}

/* By time, then member. */
static int
snapshot_cmp(const void *a, const void *b)
{
	const struct pd_snapshot *x = a, *y = b;

	if (x->time_ms != y->time_ms)
		return x->time_ms < y->time_ms ? -1 : 1;
	return strcmp(x->member, y->member);
}

void
pd_model_sort(struct pd_model *m)
{
	if (m->priv->sorted)
		return;
	m->priv->sorted = true;
	PD_SORT_LIST(struct pd_host, m->hosts, host_cmp);
	for (struct pd_host *h = m->hosts; h; h = h->next) {
		PD_SORT_LIST(struct pd_pcidev, h->pcidevs, pcidev_cmp);
		PD_SORT_LIST(struct pd_pci_edge, h->pci_edges, edge_cmp);
		PD_SORT_LIST(struct pd_netdev, h->netdevs, netdev_cmp);
		PD_SORT_LIST(struct pd_kv, h->sysctl, kv_cmp);
		PD_SORT_LIST(struct pd_cpu_type, h->cpu_types, cpu_type_cmp);
		PD_SORT_LIST(struct pd_capture, h->captures, capture_cmp);
		for (struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
			PD_SORT_LIST(struct pd_snapshot, nd->snaps,
			    snapshot_cmp);
			sort_features(nd);
		}
	}
}

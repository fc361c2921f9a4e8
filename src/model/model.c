/* The host model: hosts by key, PCI devices and edges, CPU types and
 * cmdline tokens in sorted lists, and their lookups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/index.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/job.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

struct pd_model *
pd_model_new(void)
{
	struct pd_arena *a = pd_arena_new();
	struct pd_model *m = pd_arena_alloc(a, sizeof(*m));

	m->arena = a;
	m->priv = pd_arena_alloc(a, sizeof(*m->priv));
	return m;
}

void
pd_model_free(struct pd_model *m)
{
	if (!m)
		return;
	/* a reader's thread still at work writes into the arena */
	pd_model_join(m);
	pd_arena_free(m->arena);
}

struct pd_arena *
pd_model_arena(const struct pd_model *m)
{
	return m->arena;
}

static bool
host_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_host *)item)->key, key) == 0;
}

struct pd_host *
pd_model_host(struct pd_model *m, const char *key)
{
	uint64_t hash = pd_hash_str(key);
	struct pd_host *h = pd_index_find(&m->priv->hosts, hash, host_is, key);

	if (h)
		return h;
	h = pd_arena_alloc(m->arena, sizeof(*h));
	h->key = pd_arena_strdup(m->arena, key);
	h->model = m;
	h->priv = pd_arena_alloc(m->arena, sizeof(*h->priv));
	h->priv->cmdline_tail = &h->cmdline_kv;
	h->priv->notes_tail = &h->notes;
	h->priv->unused_tail = &h->unused;
	h->next = m->hosts;	/* pd_model_sort orders them */
	m->hosts = h;
	pd_index_add(&m->priv->hosts, m->arena, hash, h);
	m->n_hosts++;
	return h;
}

void
pd_bdf_format(char out[16], unsigned domain, unsigned bus, unsigned dev,
    unsigned fn)
{
	snprintf(out, 16, "%04x:%02x:%02x.%u", domain & 0xffff, bus & 0xff,
	    dev & 0x1f, fn & 7);
}

static bool
hexn(const char *s, int n, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < n; i++) {
		int h = pd_hex_digit(s[i]);

		if (h < 0)
			return false;
		v = v * 16 + (unsigned)h;
	}
	*out = v;
	return true;
}

size_t
pd_bdf_parse(const char *s, unsigned *domain, unsigned *bus, unsigned *dev,
    unsigned *fn)
{
	unsigned d = 0;
	size_t off = 0;

	if (hexn(s, 4, &d) && s[4] == ':')
		off = 5;
	else
		d = 0;
	const char *p = s + off;

	if (!hexn(p, 2, bus) || p[2] != ':' || !hexn(p + 3, 2, dev) ||
	    p[5] != '.' || p[6] < '0' || p[6] > '7' || *dev > 0x1f)
		return 0;
	*fn = (unsigned)(p[6] - '0');
	*domain = d;
	return off + 7;
}

struct pd_pcidev *
pd_host_pcidev(struct pd_host *h, struct pd_arena *a, unsigned domain,
    unsigned bus, unsigned dev, unsigned fn, bool *created)
{
	char bdf[16];
	struct pd_pcidev *d;

	pd_bdf_format(bdf, domain, bus, dev, fn);
	if ((d = (struct pd_pcidev *)pd_host_find_pcidev(h, bdf))) {
		if (created)
			*created = false;
		return d;
	}
	d = pd_arena_alloc(a, sizeof(*d));

	memcpy(d->bdf, bdf, sizeof(bdf));
	d->domain = domain & 0xffff;
	d->bus = bus & 0xff;
	d->dev = dev & 0x1f;
	d->fn = fn & 7;
	d->class_code = d->vendor_id = d->device_id = -1;
	d->numa_node = d->iommu_group = -1;
	d->bus_primary = d->bus_secondary = d->bus_subordinate = -1;
	d->sriov_total = d->sriov_num = d->sriov_offset = -1;
	d->sriov_stride = -1;
	d->next = h->pcidevs;	/* pd_model_sort orders them */
	h->pcidevs = d;
	pd_index_add(&h->priv->pcidevs, a, pd_hash_str(d->bdf), d);
	h->n_pcidevs++;
	if (created)
		*created = true;
	return d;
}

static bool
pcidev_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_pcidev *)item)->bdf, key) == 0;
}

const struct pd_pcidev *
pd_host_find_pcidev(const struct pd_host *h, const char *bdf)
{
	return pd_index_find(&h->priv->pcidevs, pd_hash_str(bdf), pcidev_is,
	    bdf);
}

static bool
edge_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_pci_edge *)item)->bdf, key) == 0;
}

struct pd_pci_edge *
pd_host_pci_edge(struct pd_host *h, struct pd_arena *a, const char *bdf)
{
	struct pd_pci_edge *e;
	char k[16];

	snprintf(k, sizeof(k), "%s", bdf);	/* as stored: at most 15 */
	if ((e = pd_index_find(&h->priv->edges, pd_hash_str(k), edge_is, k)))
		return e;
	e = pd_arena_alloc(a, sizeof(*e));
	memcpy(e->bdf, k, sizeof(k));
	e->secondary = e->subordinate = -1;
	e->next = h->pci_edges;	/* pd_model_sort orders them */
	h->pci_edges = e;
	pd_index_add(&h->priv->edges, a, pd_hash_str(k), e);
	return e;
}

static bool
cpu_type_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_cpu_type *)item)->name, key) == 0;
}

void
pd_host_cpu_type(struct pd_host *h, struct pd_arena *a, const char *name)
{
	uint64_t k = pd_hash_str(name);
	struct pd_cpu_type *t = pd_index_find(&h->priv->cpu_types, k,
	    cpu_type_is, name);

	if (t) {
		t->count++;
		return;
	}
	t = pd_arena_alloc(a, sizeof(*t));
	t->name = pd_arena_strdup(a, name);
	t->count = 1;
	t->next = h->cpu_types;	/* pd_model_sort orders them */
	h->cpu_types = t;
	pd_index_add(&h->priv->cpu_types, a, k, t);
}

void
pd_host_cpu_index_type(struct pd_host *h, struct pd_arena *a, unsigned cpu,
    const char *name)
{
	if (cpu >= PD_MAX_CPUS)
		return;
	if (!h->cpu_type_of)
		h->cpu_type_of = pd_arena_alloc(a, PD_MAX_CPUS *
		    sizeof(*h->cpu_type_of));
	if (!h->cpu_type_of[cpu])
		h->cpu_type_of[cpu] = pd_arena_strdup(a, name);
}

void
pd_host_cmdline_add(struct pd_host *h, struct pd_arena *a, const char *key,
    const char *val, const struct pd_evidence *ev)
{
	struct pd_kv *kv = pd_arena_alloc(a, sizeof(*kv));

	kv->key = pd_arena_strdup(a, key);
	kv->val = pd_arena_strdup(a, val);
	kv->ev = *ev;
	*h->priv->cmdline_tail = kv;
	h->priv->cmdline_tail = &kv->next;
}

const struct pd_kv *
pd_host_cmdline_last(const struct pd_host *h, const char *key)
{
	const struct pd_kv *last = NULL;

	for (const struct pd_kv *kv = h->cmdline_kv; kv; kv = kv->next)
		if (strcmp(kv->key, key) == 0)
			last = kv;
	return last;
}

const struct pd_kv *
pd_host_cmdline_pci_opt(const struct pd_host *h, const char *opt)
{
	for (const struct pd_kv *kv = h->cmdline_kv; kv; kv = kv->next)
		if (strcmp(kv->key, "pci") == 0 &&
		    pd_list_has(kv->val, opt, strlen(opt)))
			return kv;
	return NULL;
}

void
pd_evidence_set(struct pd_evidence *ev, struct pd_arena *a,
    const char *member, uint32_t line, const char *text, size_t len)
{
	while (len && (*text == ' ' || *text == '\t')) {
		text++;
		len--;
	}
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len > 240)
		len = 240;
	ev->member = member;
	ev->line = line;
	ev->text = pd_arena_strndup(a, text, len);
	for (char *p = (char *)ev->text; *p; p++)
		if (*p == '\t')
			*p = ' ';
}

const char *
pd_arch_name(enum pd_arch a)
{
	static const char *const names[] = {
		[PD_ARCH_UNKNOWN] = "unknown", [PD_ARCH_X86_64] = "x86_64",
		[PD_ARCH_ARM64] = "arm64", [PD_ARCH_OTHER] = "other",
	};
	return names[a];
}

const char *
pd_iommu_mode_name(enum pd_iommu_mode m)
{
	static const char *const names[] = {
		[PD_IOMMU_UNKNOWN] = "unknown", [PD_IOMMU_STRICT] = "strict",
		[PD_IOMMU_LAZY] = "lazy", [PD_IOMMU_PASSTHROUGH] = "passthrough",
		[PD_IOMMU_OFF] = "off",
	};
	return names[m];
}

const char *
pd_port_type_name(enum pd_port_type t)
{
	static const char *const names[] = {
		[PD_PORT_UNKNOWN] = "unknown",
		[PD_PORT_ENDPOINT] = "endpoint",
		[PD_PORT_LEGACY_ENDPOINT] = "legacy endpoint",
		[PD_PORT_RCIEP] = "root complex integrated endpoint",
		[PD_PORT_RC_EC] = "root complex event collector",
		[PD_PORT_ROOT] = "root port",
		[PD_PORT_UPSTREAM] = "upstream port",
		[PD_PORT_DOWNSTREAM] = "downstream port",
		[PD_PORT_PCIE_TO_PCI] = "pci-express to pci bridge",
		[PD_PORT_PCI_TO_PCIE] = "pci to pci-express bridge",
	};
	return names[t];
}

/* As the netdev-stats snapshots: the earliest known time first, the
 * latest last; without times the first and the last read. */
void
pd_host_tcpstat_keep(struct pd_host *h, const struct pd_tcpstat *k)
{
	if (h->n_tcpstat == 0) {
		h->tcpstat[0] = h->tcpstat[1] = *k;
		h->n_tcpstat = 1;
		return;
	}
	h->n_tcpstat = 2;
	if (k->time >= 0 && (h->tcpstat[0].time < 0 ||
	    k->time < h->tcpstat[0].time))
		h->tcpstat[0] = *k;
	if (k->time >= h->tcpstat[1].time)
		h->tcpstat[1] = *k;
}

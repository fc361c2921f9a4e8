/* Network joins after the walk: each netdev to its PCI function (ethtool
 * -i bus-info, or ip -d link parentdev), each function to its root port,
 * the PFs of one adapter into a card, and counter snapshots into totals
 * and rates. */
#include <stdint.h>
#include <string.h>
#include "finalize/cardlink.h"
#include "finalize/counters.h"
#include "finalize/finalize.h"
#include "model/index.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"

static bool
is_network(const struct pd_pcidev *d)
{
	const char *c = d->class_name ? d->class_name : "";

	return (d->class_code >= 0 && (d->class_code >> 8) == 0x02) ||
	    strcmp(c, "Ethernet controller") == 0 ||
	    strcmp(c, "Network controller") == 0 ||
	    strcmp(c, "Infiniband controller") == 0;
}

static bool
named_by_output(const struct pd_netdev *nd)
{
	return !nd->unnamed && !nd->guessed;
}

static bool
bus_info_is(const void *item, const void *key)
{
	return strcmp(((const struct pd_netdev *)item)->bus_info, key) == 0;
}

/* The interfaces outputs name, by bus-info (the first in name order of
 * each), so each guessed one finds its own without a walk. */
static void
index_bus_info(struct pd_host *h, struct pd_arena *a, struct pd_index *ix)
{
	for (struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		uint64_t k;

		if (!named_by_output(nd) || !nd->bus_info)
			continue;
		k = pd_hash_str(nd->bus_info);
		if (!pd_index_find(ix, k, bus_info_is, nd->bus_info))
			pd_index_add(ix, a, k, nd);
	}
}

/* The interface an output names at u's bus-info, or NULL. */
static struct pd_netdev *
same_bus(const struct pd_index *ix, const struct pd_netdev *u)
{
	return u->bus_info ? pd_index_find(ix, pd_hash_str(u->bus_info),
	    bus_info_is, u->bus_info) : NULL;
}

/* A phantom's members: listed as not used, with what to name them. */
static void
list_phantom(struct pd_host *h, struct pd_arena *a, const struct pd_netdev *u)
{
	static const char why[] = "names no interface, and its path names "
	    "none of this host's: name it %s/IF%s";

	for (const struct pd_snapshot *sn = u->snaps; sn; sn = sn->next)
		pd_host_unused(h, a, sn->member, "ethtool-S", pd_arena_printf(a,
		    why, "ethtool-S", "@UNIX-SECONDS.txt"));
	for (unsigned i = 0; i < u->n_kstat && i < 2; i++)
		pd_host_unused(h, a, u->kstat[i].member, "netdev-stats",
		    pd_arena_printf(a, why, "netdev-stats", "@UNIX-SECONDS.txt"));
	if (u->ev_driver.member)
		pd_host_unused(h, a, u->ev_driver.member, "ethtool-i",
		    pd_arena_printf(a, why, "ethtool-i", ".txt"));
}

/* Interfaces known only by a neutral path ("m03") or an unnamed ethtool
 * -i ("(BUS)"): one at the bus-info of an interface an output names
 * gives it its driver and disappears; where the host's outputs name
 * interfaces, one left is a phantom and its members are listed as not
 * used; in a bundle that names none (a lone ethtool -S file) it stays,
 * the interface's only trace. */
static void
merge_guessed(struct pd_host *h, struct pd_arena *a)
{
	struct pd_index by_bus = { 0 };
	bool named = false;

	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next)
		named = named || named_by_output(nd);
	index_bus_info(h, a, &by_bus);
	for (struct pd_netdev **pp = &h->netdevs; *pp;) {
		struct pd_netdev *u = *pp, *to = named_by_output(u) ? NULL :
		    same_bus(&by_bus, u);

		if (named_by_output(u) || (!to && (!named || u->unnamed))) {
			pp = &u->next;
			continue;
		}
		if (to && !to->driver) {
			to->driver = u->driver;
			to->driver_version = u->driver_version;
			to->firmware = u->firmware;
			to->ev_driver = u->ev_driver;
		}
		if (!to || u->snaps || u->n_kstat)
			list_phantom(h, a, u);
		pd_host_drop_netdev(h, pp);
	}
}

static void
join_pci(struct pd_host *h)
{
	for (struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		struct pd_pcidev *d;

		if (!nd->bus_info || !(d = (struct pd_pcidev *)(uintptr_t)
		    pd_host_find_pcidev(h, nd->bus_info)))
			continue;
		nd->pci = d;
		if (!d->netdev)
			d->netdev = nd;
	}
	for (struct pd_pcidev *d = h->pcidevs; d; d = d->next) {
		unsigned steps = 0;

		for (struct pd_pcidev *p = d->parent; p && steps < 64;
		    p = p->parent, steps++)
			if (p->port == PD_PORT_ROOT) {
				d->root_port = p;
				break;
			}
	}
}

static bool
same_card(const struct pd_card *c, const struct pd_pcidev *d)
{
	const struct pd_pcidev *f = c->pfs[0];

	if (c->has_dsn && d->has_dsn && d->dsn != 0)
		return c->dsn == d->dsn;
	return !c->has_dsn && !(d->has_dsn && d->dsn) &&
	    f->domain == d->domain && f->bus == d->bus && f->dev == d->dev &&
	    f->desc && d->desc && strcmp(f->desc, d->desc) == 0;
}

static bool
card_dsn_is(const void *item, const void *key)
{
	return ((const struct pd_card *)item)->dsn == *(const uint64_t *)key;
}

/* The card d belongs to, or NULL.  Cards with a serial number are found
 * by it; one without is a device's functions, which the bdf order keeps
 * together, so only the cards made since the device began (one per
 * function at most) can hold d: no walk over every card per function. */
static struct pd_card *
find_card(struct pd_index *by_dsn, struct pd_card *const *same_dev,
    unsigned n_same, const struct pd_pcidev *d)
{
	if (d->has_dsn && d->dsn != 0)
		return pd_index_find(by_dsn, pd_hash_u64(d->dsn), card_dsn_is,
		    &d->dsn);
	for (unsigned i = 0; i < n_same; i++)
		if (same_card(same_dev[i], d))
			return same_dev[i];
	return NULL;
}

static void
group_cards(struct pd_host *h, struct pd_arena *a)
{
	struct pd_card **tail = &h->cards, *same_dev[8];
	struct pd_index by_dsn = { 0 };
	const struct pd_pcidev *dev = NULL;	/* where same_dev began */
	unsigned n_same = 0;

	for (struct pd_pcidev *d = h->pcidevs; d; d = d->next) {
		struct pd_card *c;

		if (d->is_vf || !is_network(d))
			continue;
		if (!dev || dev->domain != d->domain || dev->bus != d->bus ||
		    dev->dev != d->dev) {
			dev = d;
			n_same = 0;
		}
		if (!(c = find_card(&by_dsn, same_dev, n_same, d))) {
			c = pd_arena_alloc(a, sizeof(*c));
			c->desc = d->desc;
			c->has_dsn = d->has_dsn && d->dsn != 0;
			c->dsn = d->dsn;
			*tail = c;
			tail = &c->next;
			if (c->has_dsn)
				pd_index_add(&by_dsn, a, pd_hash_u64(c->dsn), c);
			else if (n_same < 8)	/* 8 functions to a device */
				same_dev[n_same++] = c;
		}
		if (c->n_pfs < PD_CARD_MAX_PFS)
			c->pfs[c->n_pfs++] = d;	/* pcidevs are in bdf order */
	}
}

static const char *const virtual_nic_drivers[] = { "virtio_net",
	"vmxnet3", "hv_netvsc", "xen_netfront", "xen-netfront", NULL };
/* software interfaces: neither a guest's NIC nor hardware */
static const char *const software_drivers[] = { "tun", "veth", "bridge",
	"bonding", "openvswitch", "vxlan", "macvlan", "ipvlan", "dummy",
	"team", "wireguard", "8021q", NULL };

static bool
listed(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

static bool
virtio_device(const struct pd_pcidev *d)
{
	return d->vendor_id == 0x1af4 || (d->desc && strstr(d->desc,
	    "Virtio")) || (d->driver && strncmp(d->driver, "virtio", 6) == 0);
}

/* A virtual machine: its NICs are all a hypervisor's (virtio, vmxnet3,
 * Hyper-V, Xen), so the rules about a host's own PCIe links and ports
 * cannot apply to it.  A passed-through NIC makes it a host of its own
 * for those rules. */
static void
detect_guest(struct pd_host *h, struct pd_arena *a)
{
	const char *virt = NULL;
	bool own = false;

	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		if (listed(nd->driver, virtual_nic_drivers))
			virt = nd->driver;
		else if (nd->driver && !listed(nd->driver, software_drivers))
			own = true;
	}
	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next) {
		if (!is_network(d))
			continue;
		if (virtio_device(d))
			virt = virt ? virt : "virtio";
		else
			own = true;
	}
	if (virt && !own)
		h->guest_why = pd_arena_printf(a, "a virtual machine: its NICs "
		    "are %s devices", virt);
}

void
pd_finalize_nic(struct pd_host *h, struct pd_arena *a)
{
	merge_guessed(h, a);
	join_pci(h);
	group_cards(h, a);
	for (struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		pd_netdev_counters(h, nd, a);
		pd_netdev_drops(h, nd, a);
		pd_netdev_rxq(nd, a);
		pd_netdev_kstat_rate(nd);
	}
	for (struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		pd_pf_path(d, &d->path);
	detect_guest(h, a);
}

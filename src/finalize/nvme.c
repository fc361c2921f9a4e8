/* NVMe/TCP and RDMA paths joined to the netdev each leaves from, best
 * evidence first:
 *   1. host_iface= names the interface (nvme connect --host-iface);
 *   2. host_traddr= or src_addr= is an address ip addr gives one
 *      interface (the kernel binds the path's socket to it);
 *   3. else the target's traddr lies in one interface's prefix, the
 *      longest that holds it (what the routing table would choose for
 *      a directly attached subnet; a route via a gateway is not seen,
 *      so this join is weaker and the rules say so).
 * Two interfaces with the same longest prefix (two PFs in one subnet)
 * leave the path unjoined: which one the kernel uses depends on routes
 * the bundle does not hold.  A VLAN's path goes to its parent's PCI
 * function (ip -d link's NAME@PARENT). */
#include <string.h>
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"

static bool
ip_fabric(const char *transport)
{
	return transport && (strcmp(transport, "tcp") == 0 ||
	    strcmp(transport, "rdma") == 0);
}

static const struct pd_netdev *
netdev_of(const struct pd_host *h, const char *name)
{
	const struct pd_netdev *nd = pd_host_find_netdev(h, name);

	if (nd && !nd->pci && nd->link_parent) {
		const struct pd_netdev *up = pd_host_find_netdev(h,
		    nd->link_parent);

		if (up && up->pci)
			return up;
	}
	return nd;
}

/* The interface holding address s exactly, or NULL. */
static const struct pd_ipaddr *
by_address(const struct pd_host *h, const char *s)
{
	uint8_t ad[16];
	unsigned fam = pd_ip_parse(s, strlen(s), ad);

	if (!fam)
		return NULL;
	for (const struct pd_ipaddr *x = h->ipaddrs; x; x = x->next)
		if (x->family == fam && memcmp(x->addr, ad, 16) == 0)
			return x;
	return NULL;
}

/* The interface whose prefix holds s, longest first; *tie when another
 * interface has a prefix as long that holds it too. */
static const struct pd_ipaddr *
by_subnet(const struct pd_host *h, const char *s, const struct pd_ipaddr **tie)
{
	uint8_t ad[16];
	unsigned fam = pd_ip_parse(s, strlen(s), ad);
	const struct pd_ipaddr *best = NULL;

	*tie = NULL;
	if (!fam)
		return NULL;
	for (const struct pd_ipaddr *x = h->ipaddrs; x; x = x->next) {
		if (x->family != fam || !pd_ip_in_prefix(x->addr, ad, fam,
		    x->prefix))
			continue;
		if (!best || x->prefix > best->prefix) {
			best = x;
			*tie = NULL;
		} else if (x->prefix == best->prefix &&
		    strcmp(x->ifname, best->ifname) != 0) {
			*tie = x;
		}
	}
	return best;
}

static void
join(struct pd_host *h, struct pd_arena *a, struct pd_nvme_path *p)
{
	const struct pd_ipaddr *x, *tie;
	const char *host = p->host_traddr ? p->host_traddr : p->src_addr;

	if (p->host_iface) {
		p->nd = netdev_of(h, p->host_iface);
		p->join = PD_NVME_JOIN_IFACE;
		p->join_what = pd_arena_printf(a, "host_iface=%s",
		    p->host_iface);
	} else if (host && (x = by_address(h, host))) {
		p->nd = netdev_of(h, x->ifname);
		p->join = PD_NVME_JOIN_ADDR;
		p->join_what = pd_arena_printf(a, "%s on %s", x->text,
		    x->ifname);
	} else if (p->traddr && (x = by_subnet(h, p->traddr, &tie))) {
		if (tie) {
			p->join_what = pd_arena_printf(a, "ambiguous: %s and %s "
			    "both hold %s", x->text, tie->text, p->traddr);
			return;
		}
		p->nd = netdev_of(h, x->ifname);
		p->join = PD_NVME_JOIN_SUBNET;
		p->join_what = pd_arena_printf(a, "%s in %s of %s", p->traddr,
		    x->text, x->ifname);
	}
	if (p->join && !p->nd)
		p->join_what = pd_arena_printf(a, "%s (no NIC output names "
		    "that interface)", p->join_what);
}

void
pd_finalize_nvme(struct pd_host *h, struct pd_arena *a)
{
	for (struct pd_nvme_subsys *s = h->nvme; s; s = s->next)
		for (struct pd_nvme_path *p = s->paths; p; p = p->next)
			if (ip_fabric(p->transport))
				join(h, a, p);
}

const struct pd_pcidev *
pd_nvme_path_pf(const struct pd_nvme_path *p)
{
	return p->nd ? p->nd->pci : NULL;
}

/* Captures after the walk: each joined to its interface and called
 * virtual (tap, veth, bridge, a guest's virtio NIC) or physical. */
#include <string.h>
#include "base/ifpath.h"
#include "finalize/finalize.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const char *const virtual_kinds[] = { "tun", "veth", "bridge",
	"macvtap", "openvswitch", NULL };
static const char *const virtual_drivers[] = { "virtio_net", "hv_netvsc",
	"vmxnet3", "xen_netfront", "tun", "veth", "bridge", NULL };
static const char *const virtual_names[] = { "tap", "vnet", "veth",
	"fwpr", "fwln", "fwbr", "virbr", "vmbr", "docker", "br-", "cali",
	NULL };
static const char *const physical_names[] = { "en", "eth", "nic", "ib",
	"bond", NULL };

static bool
in_list(const char *s, const char *const *list, bool prefix)
{
	for (; s && *list; list++)
		if (prefix ? pd_starts_with(s, *list) : strcmp(s, *list) == 0)
			return true;
	return false;
}

static void
classify(struct pd_capture *c)
{
	const struct pd_netdev *nd = c->netdev;
	const char *drv = nd ? (nd->driver ? nd->driver :
	    nd->pci ? nd->pci->driver : NULL) : NULL;

	if (nd && in_list(nd->kind, virtual_kinds, false)) {
		c->side = PD_SIDE_VIRTUAL;
		c->side_why = nd->tun_type && strcmp(nd->tun_type, "tap") == 0 ?
		    "ip link: tun type tap" : "ip link kind";
	} else if (drv && in_list(drv, virtual_drivers, false)) {
		c->side = PD_SIDE_VIRTUAL;
		c->side_why = "virtual NIC driver";
	} else if (nd && (nd->pci || nd->bus_info)) {
		c->side = PD_SIDE_PHYSICAL;
		c->side_why = "PCI device";
	} else if (in_list(c->ifname, virtual_names, true)) {
		c->side = PD_SIDE_VIRTUAL;
		c->side_why = "interface name";
	} else if (in_list(c->ifname, physical_names, true)) {
		c->side = PD_SIDE_PHYSICAL;
		c->side_why = "interface name";
	}
}

void
pd_finalize_captures(struct pd_host *h, struct pd_arena *a)
{
	for (struct pd_capture *c = h->captures; c; c = c->next) {
		for (struct pd_netdev *nd = h->netdevs; nd; nd = nd->next)
			if (strcmp(nd->name, c->ifname) == 0)
				c->netdev = nd;
		c->duration = c->last_ts - c->first_ts;
		classify(c);
		/* analysed, but no rule can place it on a path */
		if (!c->netdev && (strcmp(c->ifname, "?") == 0 ||
		    (h->netdevs && !pd_ifname_path_trusted(c->member,
		    pd_format_find("pcap")))))
			pd_host_unused(h, a, c->member, "pcap", "names no "
			    "interface, and neither does its path: its flows "
			    "are counted but joined to no interface; name it "
			    "pcap/IF.pcap");
	}
}

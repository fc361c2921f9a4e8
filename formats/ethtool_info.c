/* "ethtool-i": ethtool -i IF, driver and bus.
 *
 * Reference: ethtool.c dump_drvinfo: "driver:", "version:",
 * "firmware-version:", "expansion-rom-version:", "bus-info:",
 * "supports-*:".  bus-info is the PCI address (the join to lspci) or
 * "N/A" / empty for virtual devices.  The interface comes from the path.
 */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

extern const struct pd_format pd_format_ethtool_info;

static int
bid_ethtool_info(const struct pd_member *m)
{
	char line[256];
	int bid = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) ||
	    !pd_starts_with(line, "driver:"))
		return 0;
	bid = 56;
	for (unsigned i = 1; i < 12; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		if (pd_starts_with(line, "bus-info:"))
			bid += 40;
		else if (pd_starts_with(line, "firmware-version:") ||
		    pd_starts_with(line, "version:"))
			bid += 8;
	}
	return bid;
}

static const char *
normalise_bus(struct pd_arena *a, const char *v)
{
	unsigned dom, bus, dev, fn;
	char bdf[16];

	if (!pd_bdf_parse(v, &dom, &bus, &dev, &fn))
		return NULL;
	pd_bdf_format(bdf, dom, bus, dev, fn);
	return pd_arena_strdup(a, bdf);
}

/* ethtool -i names no interface: with a PCI bus-info it is kept as
 * "(BUS)" for finalize to merge into the netdev ip -d link places at
 * that address; without one it is listed as unused. */
static enum pd_status
unnamed(const struct pd_member *m, struct pd_host *h, struct pd_diag *d,
    const struct pd_netdev *tmp)
{
	struct pd_arena *a = d->arena;

	if (!tmp->bus_info) {
		pd_diag_note(d, PD_WARN, "ethtool-i.no-ifname", 0, "the path "
		    "names no interface and the output has no PCI bus-info: "
		    "not used; name it ethtool-i/IF.txt");
		pd_host_unused(h, a, m->path, pd_format_ethtool_info.name,
		    "names no interface and has no PCI bus-info: name it "
		    "ethtool-i/IF.txt");
		return PD_WARN;
	}
	struct pd_netdev *nd = pd_host_netdev(h, a, pd_arena_printf(a, "(%s)",
	    tmp->bus_info));

	nd->unnamed = true;
	nd->driver = tmp->driver;
	nd->driver_version = tmp->driver_version;
	nd->firmware = tmp->firmware;
	nd->bus_info = tmp->bus_info;
	nd->ev_driver = tmp->ev_driver;
	pd_diag_note(d, PD_WARN, "ethtool-i.no-ifname", 0, "the path names no "
	    "interface: joined by its bus-info %s where ip -d link places an "
	    "interface there; name it ethtool-i/IF.txt", tmp->bus_info);
	return PD_OK;
}

static enum pd_status
parse_ethtool_info(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *ifname = pd_ifname_from_path(a, m->hint_path,
	    &pd_format_ethtool_info);
	const char *line, *key, *val;
	size_t len, klen;

	struct pd_netdev tmp, *nd = &tmp;
	bool named = ifname && pd_ifname_valid(ifname);

	if (named && !pd_ifname_path_trusted(m->hint_path,
	    &pd_format_ethtool_info)) {
		nd = pd_host_netdev_guessed(h, a, ifname);
	} else if (named) {
		nd = pd_host_netdev(h, a, ifname);
	} else {
		/* read it aside: its bus-info may still find its netdev */
		memset(&tmp, 0, sizeof(tmp));
	}

	while (pd_input_getline(in, &line, &len)) {
		if (!pd_split_colon(line, &key, &klen, &val))
			continue;
		char k[32];

		if (klen >= sizeof(k))
			continue;
		memcpy(k, key, klen);
		k[klen] = '\0';
		if (strcmp(k, "driver") == 0) {
			nd->driver = pd_arena_strdup(a, val);
			pd_evidence_set(&nd->ev_driver, a, m->path, in->line_no,
			    line, len);
		} else if (strcmp(k, "version") == 0) {
			nd->driver_version = pd_arena_strdup(a, val);
		} else if (strcmp(k, "firmware-version") == 0) {
			nd->firmware = pd_arena_strdup(a, val);
		} else if (strcmp(k, "bus-info") == 0 && *val &&
		    strcmp(val, "N/A") != 0) {
			nd->bus_info = normalise_bus(a, val);
			if (!nd->bus_info)	/* usb-..., vif-0: not PCI */
				nd->bus_info = NULL;
		}
	}
	if (!nd->driver)
		pd_diag_note(d, PD_WARN, "ethtool-i.no-driver", 0,
		    "no 'driver:' line");
	if (!named)
		return unnamed(m, h, d, &tmp);
	return PD_OK;
}

static const char *const hints[] = { "ethtool_-i_", "ethtool-i", NULL };

static const char *const name_prefixes[] = {
	"ethtool_-i_", "ethtool-i_", "ethtool-i-", NULL,
};

const struct pd_format pd_format_ethtool_info = {
	.name = "ethtool-i",
	.summary = "driver, firmware and PCI bus address of an interface",
	.command = "ethtool -i IF",
	.hints = hints,
	.name_prefixes = name_prefixes,
	.gives = PD_HAVE_NETDEV_PCI,
	.collect = "ethtool -i IF output",
	.bid = bid_ethtool_info,
	.parse = parse_ethtool_info,
};

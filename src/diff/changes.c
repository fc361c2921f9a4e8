/* What changed on a host, by meaning: one table of change kinds, each
 * comparing one aspect of the two hosts (src/diff/changes_*.c). */
#include <stdio.h>
#include <string.h>
#include "diff/diff.h"
#include "pathdoctor/arena.h"

const struct pd_change_kind pd_change_kinds[] = {
	{ "kernel", "kernel release", pd_changes_host },
	{ "cmdline", "kernel command line", pd_changes_cmdline },
	{ "iommu", "IOMMU DMA mode", pd_changes_iommu },
	{ "sysctl", "sysctls the rules read", pd_changes_sysctl },
	{ "pcie", "PCIe MaxPayload, MaxReadReq, link", pd_changes_pcie },
	{ "netdev", "interface settings (MTU, GSO/GRO/TSO limits, speed, "
	    "pause, driver, firmware)", pd_changes_netdev },
	{ "offload", "offloads", pd_changes_offload },
	{ "nvme", "NVMe multipath: iopolicy and live paths", pd_changes_nvme },
	{ "rx_rate", "receive rates", pd_changes_rates },
	{ "profile", "profile shares", pd_changes_profile },
	{ "capture", "capture payload sizes", pd_changes_captures },
};
const unsigned pd_n_change_kinds = sizeof(pd_change_kinds) /
    sizeof(pd_change_kinds[0]);

static bool
same(const char *x, const char *y)
{
	return x == y || (x && y && strcmp(x, y) == 0);
}

void
pd_change_add(struct pd_changes *c, const char *what, const char *subject,
    const char *before, const char *after, const struct pd_evidence *ev_b,
    const struct pd_evidence *ev_a)
{
	if (same(before, after))
		return;
	struct pd_diff_change *ch = pd_arena_alloc(c->a, sizeof(*ch));

	ch->what = what;
	ch->subject = subject;
	ch->before = before;
	ch->after = after;
	if (ev_b)
		ch->ev_before = *ev_b;
	if (ev_a)
		ch->ev_after = *ev_a;
	*c->tail = ch;
	c->tail = &ch->next;
	c->dh->n_changes++;
}

const char *
pd_change_long(struct pd_arena *a, long v)
{
	return v < 0 ? NULL : pd_arena_printf(a, "%ld", v);
}

void
pd_change_skipped(struct pd_changes *c, const char *what)
{
	const char *was = c->dh->not_compared;

	c->dh->not_compared = was ? pd_arena_printf(c->a, "%s; %s", was, what) :
	    what;
}

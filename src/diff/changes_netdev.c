/* Changes per interface, by name: MTU, the GSO/GRO/TSO limits, speed,
 * pause, driver and firmware; the offloads; the receive rates. */
#include <math.h>
#include <string.h>
#include "diff/diff.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"

/* Calls fn for every interface both hosts have (lists sorted by name),
 * and says which are on one side only. */
static void
each_pair(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a, bool report_lone,
    void (*fn)(struct pd_changes *, const struct pd_netdev *,
    const struct pd_netdev *))
{
	const struct pd_netdev *x = b->netdevs, *y = a->netdevs;

	while (x || y) {
		int d = !x ? 1 : !y ? -1 : strcmp(x->name, y->name);

		if (d == 0)
			fn(c, x, y);
		else if (report_lone)
			pd_change_add(c, "interface", d < 0 ? x->name : y->name,
			    d < 0 ? "present" : NULL, d > 0 ? "present" : NULL,
			    d < 0 ? &x->ev_driver : NULL,
			    d > 0 ? &y->ev_driver : NULL);
		if (d <= 0)
			x = x->next;
		if (d >= 0)
			y = y->next;
	}
}

static const char *
speed(struct pd_arena *a, int mbps)
{
	return mbps < 0 ? NULL : mbps == 0 ? "unknown" :
	    pd_arena_printf(a, "%d Mb/s", mbps);
}

static const char *
pause_of(struct pd_arena *a, const struct pd_netdev *n)
{
	if (n->pause_autoneg == PD_UNKNOWN && n->pause_rx == PD_UNKNOWN &&
	    n->pause_tx == PD_UNKNOWN)
		return NULL;
	return pd_arena_printf(a, "autoneg %s, rx %s, tx %s",
	    pd_tri_onoff(n->pause_autoneg), pd_tri_onoff(n->pause_rx),
	    pd_tri_onoff(n->pause_tx));
}

static const char *
driver_of(struct pd_arena *a, const struct pd_netdev *n)
{
	if (!n->driver)
		return NULL;
	return n->driver_version ? pd_arena_printf(a, "%s %s", n->driver,
	    n->driver_version) : n->driver;
}

static void
settings(struct pd_changes *c, const struct pd_netdev *x,
    const struct pd_netdev *y)
{
	struct pd_arena *a = c->a;
	const struct {
		const char *what;
		long b, a;
	} lim[] = {
		{ "mtu", x->mtu, y->mtu },
		{ "gso_max_size", x->gso_max_size, y->gso_max_size },
		{ "gso_max_segs", x->gso_max_segs, y->gso_max_segs },
		{ "gso_ipv4_max_size", x->gso_ipv4_max_size,
		    y->gso_ipv4_max_size },
		{ "gro_max_size", x->gro_max_size, y->gro_max_size },
		{ "tso_max_size", x->tso_max_size, y->tso_max_size },
		{ "tso_max_segs", x->tso_max_segs, y->tso_max_segs },
	};

	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]); i++)
		pd_change_add(c, lim[i].what, x->name, pd_change_long(a, lim[i].b),
		    pd_change_long(a, lim[i].a), &x->ev_gso, &y->ev_gso);
	pd_change_add(c, "speed", x->name, speed(a, x->speed_mbps),
	    speed(a, y->speed_mbps), &x->ev_speed, &y->ev_speed);
	pd_change_add(c, "pause", x->name, pause_of(a, x), pause_of(a, y),
	    &x->ev_pause, &y->ev_pause);
	pd_change_add(c, "driver", x->name, driver_of(a, x), driver_of(a, y),
	    &x->ev_driver, &y->ev_driver);
	pd_change_add(c, "firmware", x->name, x->firmware, y->firmware,
	    &x->ev_driver, &y->ev_driver);
}

void
pd_changes_netdev(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	each_pair(c, b, a, true, settings);
}

/* The offloads the rules and the ladder read, as ethtool -k names them. */
static const char *const offloads[] = {
	"large-receive-offload", "generic-receive-offload", "rx-gro-hw",
	"tcp-segmentation-offload", "generic-segmentation-offload",
	"rx-checksumming", "tx-checksumming", "scatter-gather",
};

static const char *
feature(struct pd_arena *a, const struct pd_feature *f)
{
	if (!f || f->on == PD_UNKNOWN)
		return NULL;
	return pd_arena_printf(a, "%s%s", pd_tri_onoff(f->on), f->fixed ?
	    " [fixed]" : "");
}

static void
offload_pair(struct pd_changes *c, const struct pd_netdev *x,
    const struct pd_netdev *y)
{
	for (size_t i = 0; i < sizeof(offloads) / sizeof(offloads[0]); i++) {
		const struct pd_feature *fb = pd_netdev_feature(x, offloads[i]);
		const struct pd_feature *fa = pd_netdev_feature(y, offloads[i]);

		if (!fb && !fa)
			continue;
		pd_change_add(c, "offload", pd_arena_printf(c->a, "%s %s",
		    x->name, offloads[i]), feature(c->a, fb), feature(c->a, fa),
		    fb ? &fb->ev : NULL, fa ? &fa->ev : NULL);
	}
}

void
pd_changes_offload(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	each_pair(c, b, a, false, offload_pair);
}

/* An interface's receive rate: its NIC counters between two snapshots,
 * else the kernel's counters; -1 unknown. */
static double
rx_rate(const struct pd_netdev *n, const struct pd_evidence **ev)
{
	const struct pd_ctr_value *v = &n->ctr[PD_CTR_RX_BYTES];

	*ev = NULL;
	if (v->known && v->is_rate) {
		*ev = &v->ev_last;
		return v->per_s;
	}
	return n->kstat_rate.known ? n->kstat_rate.rx_per_s : -1;
}

static void
rate_pair(struct pd_changes *c, const struct pd_netdev *x,
    const struct pd_netdev *y)
{
	const struct pd_evidence *eb, *ea;
	double rb = rx_rate(x, &eb), ra = rx_rate(y, &ea);

	if (rb < 0 && ra < 0)
		return;
	/* within the run-to-run noise of a benchmark: the same */
	if (rb >= 0 && ra >= 0 && fabs(ra - rb) <= PD_DIFF_NOISE *
	    (rb > ra ? rb : ra))
		return;
	pd_change_add(c, "rx_rate", x->name, rb < 0 ? NULL :
	    pd_rate_str(c->a, rb), ra < 0 ? NULL : pd_rate_str(c->a, ra),
	    eb, ea);
}

void
pd_changes_rates(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	each_pair(c, b, a, false, rate_pair);
}

/* NIC rules: a PF of a multi-PF card that carries nothing, LRO off on
 * mlx5 ports that receive bulk TCP, and flow control off on a port that
 * drops while its traffic is retransmitted; rx rings below their maximum
 * while the NIC drops, and TSO/GSO off (nic_queues.c).
 *
 * Idle PF capacity model: NVMe/TCP multipath and similar spread I/O
 * equally over the paths in use, so with a set S of active PFs the card
 * delivers at most min over every link L (and every port P) of
 * ceiling(L) x |S| / |S on L|.  Gain = capacity(all PFs) /
 * capacity(active PFs) - 1: a whole idle root-port link doubles a
 * two-link card; one idle PF of four (two per link) gives +33 %. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "finalize/counters.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"
#include "pathdoctor/status.h"
#include "rules/nic_queues.h"
#include "rules/pf_use.h"

#define IDLE_SHARE 0.01			/* below 1 % of the busiest PF */
#define BUSY_RATE 10e6			/* bytes/s that make a PF busy */
#define BUSY_TOTAL (1ull << 30)		/* since-boot bytes, likewise */
#define LRO_BULK_RATE 100e6		/* bytes/s of bulk receive */
#define LRO_BULK_TOTAL (10ull << 30)	/* since-boot bytes, likewise */
#define DROPS_SINCE_BOOT 1000		/* a few drops since boot are noise */

struct card_view {
	struct pd_pf_path p[PD_CARD_MAX_PFS];
	unsigned n;
	bool rates;		/* every PF with a netdev has a rate */
	double busiest;
};

static double
capacity(const struct card_view *cv, const bool *active)
{
	double link[PD_CARD_MAX_PFS];

	for (unsigned i = 0; i < cv->n; i++)
		link[i] = cv->p[i].ceiling_gbs;
	return pd_card_capacity(cv->p, link, active, cv->n, NULL);
}

static bool
view_card(const struct pd_card *c, struct card_view *cv)
{
	unsigned rated = 0, known = 0;

	memset(cv, 0, sizeof(*cv));
	for (unsigned i = 0; i < c->n_pfs; i++) {
		cv->p[cv->n] = c->pfs[i]->path;
		if (!cv->p[cv->n].rx_known)
			continue;
		known++;
		rated += cv->p[cv->n].rx_is_rate;
		cv->n++;
	}
	cv->rates = known && rated == known;
	if (!cv->rates)	/* compare like with like: totals for all */
		for (unsigned i = 0; i < cv->n; i++)
			if (cv->p[i].rx_is_rate) {
				cv->p[i].rx = (double)cv->p[i].nd->
				    ctr[PD_CTR_RX_BYTES].total;
				cv->p[i].rx_is_rate = false;
			}
	for (unsigned i = 0; i < cv->n; i++)
		if (cv->p[i].rx > cv->busiest)
			cv->busiest = cv->p[i].rx;
	return cv->n >= 2 && cv->busiest >= (cv->rates ? BUSY_RATE :
	    (double)BUSY_TOTAL);
}

/* arp_ignore in effect for an interface: the larger of all and IF. */
static long
arp_ignore(const struct pd_host *h, const char *ifname, bool *known,
    const struct pd_kv **ev)
{
	char key[96];
	long all = -1, one = -1;

	*ev = pd_host_sysctl(h, "net.ipv4.conf.all.arp_ignore");
	pd_host_sysctl_int(h, "net.ipv4.conf.all.arp_ignore", &all);
	snprintf(key, sizeof(key), "net.ipv4.conf.%s.arp_ignore", ifname);
	pd_host_sysctl_int(h, key, &one);
	*known = all >= 0;
	return all > one ? all : one;
}

static void
idle_fix(struct pd_findings *out, struct pd_finding *f, bool flux,
    const char *ifname)
{
	if (flux) {
		pd_finding_fix(out, f, "sudo sysctl -w net.ipv4.conf.all."
		    "arp_ignore=1 net.ipv4.conf.all.arp_announce=2");
		pd_finding_fix(out, f, "printf 'net.ipv4.conf.all.arp_ignore = "
		    "1\\nnet.ipv4.conf.all.arp_announce = 2\\n' | sudo tee "
		    "/etc/sysctl.d/90-arp-flux.conf");
		pd_finding_fix(out, f, "# on each peer, forget the stale "
		    "neighbour entry (sudo ip neigh flush to ADDRESS-OF-%s), "
		    "or announce it from here: sudo arping -U -c 3 -I %s "
		    "ADDRESS-OF-%s", ifname, ifname, ifname);
	}
	pd_finding_fix(out, f, "# give every PF its own address and connect "
	    "through each (one NVMe/TCP path per PF address)");
}

/* The idle PFs as the subject ("nic4 (0000:01:00.1)"), the busy ones
 * with what they received, and their sum; returns the first idle PF. */
static const struct pd_pf_path *
split_pfs(const struct card_view *cv, const bool *active, char subject[256],
    char busy[512], double *observed)
{
	const struct pd_pf_path *idle = NULL;
	char a[32];

	*observed = 0;
	for (unsigned i = 0; i < cv->n; i++) {
		const struct pd_pf_path *p = &cv->p[i];
		size_t len;

		if (active[i]) {
			*observed += p->rx;
			pd_fmt_bytes(a, sizeof(a), p->rx, cv->rates);
			len = strlen(busy);
			snprintf(busy + len, 512 - len, "%s%s %s",
			    len ? ", " : "", p->nd->name, a);
			continue;
		}
		if (!idle)
			idle = p;
		len = strlen(subject);
		snprintf(subject + len, 256 - len, "%s%s (%s)",
		    len ? ", " : "", p->nd->name, p->pf->bdf);
	}
	return idle;
}

static void
idle_gain(struct pd_findings *out, struct pd_finding *f,
    const struct card_view *cv, int hi, double now, double full,
    double observed)
{
	f->gain_hi = hi;
	f->gain_lo = cv->rates && observed / 1e9 >= 0.8 * now ?
	    (hi * 95 + 50) / 100 : 0;
	f->gain_basis = pd_arena_printf(out->arena, "model: with I/O shared "
	    "equally by the PFs in use, the card delivers at most %.1f GB/s "
	    "now and %.1f GB/s through every PF (the busiest PCIe link or "
	    "port bounds it); the low end is 0 unless the links are near that "
	    "limit now (observed %.1f GB/s); measured in a comparable case: "
	    "GB10 with ConnectX-7, one link 14.8 GB/s, both links 28.9 GB/s "
	    "(95 %% of the doubling)", now, full, observed / 1e9);
	if (!cv->rates)
		f->gain_basis = pd_arena_printf(out->arena, "%s; since-boot "
		    "totals give no observed rate", f->gain_basis);
	f->confidence = cv->rates ? 85 : 50;
	f->confidence_note = cv->rates ? NULL : "since-boot totals only: the "
	    "PF may have carried traffic earlier; take two ethtool -S "
	    "snapshots some seconds apart";
	f->risk = PD_RISK_LOW;
	f->risk_note = "arp_ignore=1 makes the host answer ARP only for "
	    "addresses on the receiving interface; setups that rely on replies "
	    "for other interfaces' addresses (some load balancers) need "
	    "per-interface settings instead";
}

static void
emit_idle(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_card *card,
    const struct card_view *cv, const bool *active)
{
	bool all[PD_CARD_MAX_PFS];
	char subject[256] = "", busy[512] = "", a[32], b[32];
	const struct pd_pf_path *idle;
	double observed;

	for (unsigned i = 0; i < cv->n; i++)
		all[i] = true;
	idle = split_pfs(cv, active, subject, busy, &observed);
	double now = capacity(cv, active), full = capacity(cv, all);
	int hi = now > 0 && isfinite(full / now) ? pd_gain_tenths(full / now) :
	    0;
	struct pd_finding *f = pd_finding_new(out, self, h, subject);
	const struct pd_ctr_value *port = &idle->nd->ctr[PD_CTR_RX_BYTES_PORT];
	bool port_busy = port->known && (cv->rates ? port->is_rate &&
	    port->per_s >= IDLE_SHARE * cv->busiest : port->total >= BUSY_TOTAL);
	const struct pd_kv *ign;
	bool ign_known;
	long ignore = arp_ignore(h, idle->nd->name, &ign_known, &ign);
	bool flux = port_busy && ignore <= 0;

	pd_fmt_bytes(a, sizeof(a), idle->rx, cv->rates);
	pd_fmt_bytes(b, sizeof(b), port_busy ? (cv->rates ? port->per_s :
	    (double)port->total) : 0, cv->rates);
	if (flux)
		pd_finding_summary(out, f, "%s received %s%s while its sibling "
		    "PFs received %s; its port counter climbs (%s), so its "
		    "port's traffic is answered and delivered by another PF: "
		    "ARP flux (arp_ignore %s).", subject, a, cv->rates ? "" :
		    " since boot", busy, b, ign_known ? "= 0" : "unknown");
	else if (port_busy)
		pd_finding_summary(out, f, "%s received %s%s while its sibling "
		    "PFs received %s; its port counter climbs (%s) although "
		    "arp_ignore = %ld: traffic for this port reaches another "
		    "PF (check addresses and routes).", subject, a,
		    cv->rates ? "" : " since boot", busy, b, ignore);
	else
		pd_finding_summary(out, f, "%s received %s%s while its sibling "
		    "PFs received %s: nothing connects through it.", subject,
		    a, cv->rates ? "" : " since boot", busy);
	idle_gain(out, f, cv, hi, now, full, observed);
	bool nvme = pd_nvme_paths_confined(h, card);

	if (cv->rates && !nvme)
		f->lever = (struct pd_lever){ .kind = PD_LEVER_ALL_PFS,
			.card = card };
	if (nvme) {
		f->summary = pd_arena_printf(out->arena, "%s Every NVMe/TCP "
		    "controller enters through the other PFs: "
		    "nvme.paths-per-pf names the same PFs and carries this "
		    "fix on the path ladder.", f->summary);
		f->gain_basis = pd_arena_printf(out->arena, "%s; the same fix "
		    "as nvme.paths-per-pf, whose ladder step counts it: the two "
		    "gains do not add up", f->gain_basis);
	}
	idle_fix(out, f, flux, idle->nd->name);
	f->verify = pd_arena_printf(out->arena, "Under load, the rx_bytes "
	    "counter of %s climbs.\nwatch -n1 \"ethtool -S %s | grep -w "
	    "rx_bytes\"", idle->nd->name, idle->nd->name);
	pd_finding_evidence(f, &idle->nd->ctr[PD_CTR_RX_BYTES].ev_first);
	pd_finding_evidence(f, &idle->nd->ctr[PD_CTR_RX_BYTES].ev_last);
	if (port_busy)
		pd_finding_evidence(f, &port->ev_last);
	for (unsigned i = 0; i < cv->n; i++)
		if (active[i])
			pd_finding_evidence(f,
			    &cv->p[i].nd->ctr[PD_CTR_RX_BYTES].ev_last);
	if (ign)
		pd_finding_evidence(f, &ign->ev);
}

bool
pd_card_idle_pfs(const struct pd_card *c, bool idle[PD_CARD_MAX_PFS],
    bool *rates)
{
	struct card_view cv;
	unsigned k = 0;

	memset(idle, 0, PD_CARD_MAX_PFS * sizeof(*idle));
	*rates = false;
	if (!view_card(c, &cv))
		return false;
	*rates = cv.rates;
	for (unsigned i = 0; i < c->n_pfs; i++)	/* cv.p: the PFs with rx */
		if (c->pfs[i]->path.rx_known)
			idle[i] = cv.p[k++].rx < IDLE_SHARE * cv.busiest;
	return true;
}

/* A PF that carries an NVMe path is not idle: nvme.multipath-iopolicy
 * says why its path carries nothing. */
static void
check_idle_pf(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		struct card_view cv;
		bool active[PD_CARD_MAX_PFS];
		unsigned n_idle = 0;

		if (!view_card(c, &cv))
			continue;
		for (unsigned i = 0; i < cv.n; i++) {
			active[i] = cv.p[i].rx >= IDLE_SHARE * cv.busiest ||
			    pd_nvme_pf_paths(h, cv.p[i].pf) > 0;
			n_idle += !active[i];
		}
		if (n_idle)
			emit_idle(self, h, out, c, &cv, active);
	}
}

static const char *
driver_of(const struct pd_netdev *nd)
{
	return nd->driver ? nd->driver : nd->pci ? nd->pci->driver : NULL;
}

/* Why LRO cannot be on, or NULL. */
static const char *
lro_blocker(const struct pd_host *h, const struct pd_netdev *nd,
    const struct pd_evidence **ev)
{
	const struct pd_feature *gro_hw = pd_netdev_feature(nd, "rx-gro-hw");
	const struct pd_netdev *m = nd->master ?
	    pd_host_find_netdev(h, nd->master) : NULL;
	const struct pd_kv *fwd = pd_host_sysctl(h, "net.ipv4.ip_forward");
	long v;

	if (m && m->kind && (strcmp(m->kind, "bridge") == 0 ||
	    strcmp(m->kind, "openvswitch") == 0)) {
		*ev = &nd->ev_iplink;
		return "it is a bridge port, and the kernel keeps LRO off on "
		    "bridge ports";
	}
	if (pd_host_sysctl_int(h, "net.ipv4.ip_forward", &v) && v == 1) {
		*ev = &fwd->ev;
		return "net.ipv4.ip_forward=1, and the kernel keeps LRO off on "
		    "forwarding hosts";
	}
	if (gro_hw && gro_hw->on == PD_YES) {
		*ev = &gro_hw->ev;
		return "rx-gro-hw is on, and mlx5 allows only one of rx-gro-hw "
		    "and LRO (hardware GRO already coalesces)";
	}
	return NULL;
}

static void
lro_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_netdev **v, unsigned n,
    const char *blocker, const struct pd_evidence *bev)
{
	char subject[256] = "", amounts[512] = "", a[32];
	bool rates = true;

	for (unsigned i = 0; i < n; i++) {
		const struct pd_ctr_value *rx = &v[i]->ctr[PD_CTR_RX_BYTES];
		size_t len = strlen(subject), k = strlen(amounts);

		rates = rates && rx->is_rate;
		snprintf(subject + len, sizeof(subject) - len, "%s%s",
		    i ? ", " : "", v[i]->name);
		pd_fmt_bytes(a, sizeof(a), rx->is_rate ? rx->per_s :
		    (double)rx->total, rx->is_rate);
		snprintf(amounts + k, sizeof(amounts) - k, "%s%s%s",
		    i ? ", " : "", a, rx->is_rate ? "" : " since boot");
	}
	struct pd_finding *f = pd_finding_new(out, self, h, subject);

	pd_finding_summary(out, f, "%s (mlx5) receive%s %s with "
	    "large-receive-offload off%s%s.", subject, n > 1 ? "" : "s",
	    amounts, blocker ? "; it cannot be turned on as things are: " :
	    "", blocker ? blocker : "");
	f->gain_lo = 0;
	f->gain_hi = 20;
	if (!blocker)
		f->lever = (struct pd_lever){ .kind = PD_LEVER_EFFICIENCY,
			.netdev = v[0], .share_lo = 0, .share_hi = 0.02,
			.label = pd_arena_printf(out->arena, "LRO on %s",
			    subject) };
	f->gain_basis = "measured in a comparable case: GB10 with ConnectX-7, "
	    "LRO on gave about +2 % to the kernel NVMe/TCP initiator and "
	    "nothing measurable to SPDK";
	f->confidence = blocker ? 30 : rates ? 70 : 45;
	f->confidence_note = blocker ? "LRO is off for a reason the kernel "
	    "enforces" : rates ? NULL : "bulk receive judged from since-boot "
	    "totals";
	f->risk = PD_RISK_LOW;
	f->risk_note = "LRO merges segments before the stack sees them; the "
	    "kernel turns it off by itself where that would break forwarding "
	    "or bridging";
	for (unsigned i = 0; i < n; i++)
		pd_finding_fix(out, f, "sudo ethtool -K %s lro on", v[i]->name);
	pd_finding_fix(out, f, "# persist it: a systemd .link file ([Link] "
	    "LargeReceiveOffload=true) or nmcli connection modify CONNECTION "
	    "ethtool.feature-lro on");
	f->verify = pd_arena_printf(out->arena, "large-receive-offload shows "
	    "on, and under load the rx_lro_packets counter climbs.\n"
	    "ethtool -k %s | grep large-receive-offload\n"
	    "ethtool -S %s | grep -w rx_lro_packets", v[0]->name, v[0]->name);
	for (unsigned i = 0; i < n; i++) {
		pd_finding_evidence(f, &pd_netdev_feature(v[i],
		    "large-receive-offload")->ev);
		pd_finding_evidence(f, &v[i]->ctr[PD_CTR_RX_BYTES].ev_last);
	}
	if (bev)
		pd_finding_evidence(f, bev);
}

/* One finding for the ports LRO could simply be turned on for; one per
 * port that something keeps it off on. */
static void
check_lro(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	const struct pd_netdev *open[8];
	unsigned n = 0;

	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		const struct pd_feature *lro = pd_netdev_feature(nd,
		    "large-receive-offload");
		const struct pd_ctr_value *rx = &nd->ctr[PD_CTR_RX_BYTES];
		const char *drv = driver_of(nd);
		const struct pd_evidence *bev = NULL;

		if (!drv || strcmp(drv, "mlx5_core") != 0 || !lro ||
		    lro->on != PD_NO || lro->fixed || !rx->known)
			continue;
		if (rx->is_rate ? rx->per_s < LRO_BULK_RATE :
		    rx->total < LRO_BULK_TOTAL)
			continue;
		const char *blocker = lro_blocker(h, nd, &bev);

		if (blocker) {
			lro_finding(self, h, out, &nd, 1, blocker, bev);
			continue;
		}
		if (n == PD_ARRAY_SIZE(open)) {
			lro_finding(self, h, out, open, n, NULL, NULL);
			n = 0;
		}
		open[n++] = nd;
	}
	if (n)
		lro_finding(self, h, out, open, n, NULL, NULL);
}

/* Loss evidence behind a port: NIC drops and retransmissions in the
 * captures taken on it. */
struct loss {
	const struct pd_ctr_value *drops;
	bool drops_moving;
	uint64_t retrans, unseen, data_segs;
	double stall_time, duration, longest;
	const struct pd_capture *cap;
};

static void
loss_of(const struct pd_host *h, const struct pd_netdev *nd, struct loss *l)
{
	memset(l, 0, sizeof(*l));
	l->drops = &nd->ctr[PD_CTR_RX_DROPS];
	l->drops_moving = l->drops->known && (l->drops->is_rate ?
	    l->drops->per_s > 0 : l->drops->total >= DROPS_SINCE_BOOT);
	for (const struct pd_capture *c = h->captures; c; c = c->next) {
		if (c->netdev != nd || !c->tcp_segments)
			continue;
		l->retrans += c->retrans_segs;
		l->unseen += c->unseen_segs;
		l->data_segs += c->tcp_segments;
		l->stall_time += c->stall_time;
		l->duration += c->duration;
		if (c->n_stalls && c->stalls[0].gap > l->longest)
			l->longest = c->stalls[0].gap;
		if (!l->cap || c->retrans_segs > l->cap->retrans_segs)
			l->cap = c;
	}
}

static void
check_pause(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		struct loss l;

		if (nd->pause_rx != PD_NO || nd->pause_tx != PD_NO)
			continue;
		loss_of(h, nd, &l);
		bool retrans = l.data_segs &&
		    (l.retrans + l.unseen) * 1000 >= l.data_segs;

		if (!retrans && !l.drops_moving)
			continue;
		struct pd_finding *f = pd_finding_new(out, self, h, nd->name);
		char drops[64] = "";

		if (l.drops_moving)
			snprintf(drops, sizeof(drops), l.drops->is_rate ?
			    "the NIC drops %.0f packets/s for lack of buffers" :
			    "the NIC dropped %.0f packets for lack of buffers "
			    "since boot", l.drops->is_rate ? l.drops->per_s :
			    (double)l.drops->total);
		double share = l.duration > 0 ? l.stall_time / l.duration : 0;

		if (share > 0.95)
			share = 0.95;
		pd_finding_summary(out, f, "Flow control is off on %s (ethtool "
		    "-a) while %s%s%s%s.", nd->name, drops,
		    l.drops_moving && retrans ? " and " : "",
		    retrans ? pd_arena_printf(out->arena, "captures through "
		    "it show %llu retransmitted segments in %llu (%.2f %%)%s",
		    (unsigned long long)l.retrans,
		    (unsigned long long)l.data_segs,
		    100.0 * (double)l.retrans / (double)l.data_segs,
		    l.unseen ? pd_arena_printf(out->arena, " and %llu "
		    "segments lost before the capture point (gaps in the "
		    "sender's IP IDs)", (unsigned long long)l.unseen) : "") :
		    "", l.duration > 0 ? pd_arena_printf(out->arena, "; the "
		    "longest silence before lost data was sent again lasted "
		    "%.0f ms and stalls cover %.1f %% of the captured time",
		    l.longest * 1000, 100 * share) : "");
		f->gain_lo = 0;
		f->gain_hi = share > 0 ? pd_gain_tenths(1 / (1 - share)) : 0;
		f->gain_basis = pd_arena_printf(out->arena, "model: the stalled "
		    "share of time (%.1f %%) is the most that removing the "
		    "losses behind them can return; the gain is mostly in tail "
		    "latency: measured in a comparable case, GB10 with "
		    "ConnectX-7, the slowest 1 MiB read took hundreds of ms with "
		    "pause off and tens of ms with it on, never slower on "
		    "average", 100 * share);
		f->confidence = retrans && l.drops_moving ? 75 : retrans ? 55 :
		    l.drops->is_rate ? 50 : 40;
		f->confidence_note = !retrans ? "no capture through this port "
		    "shows the losses; add one (tcpdump -i IF -s 128)" :
		    !l.drops_moving ? "the NIC's drop counters do not move: "
		    "the losses may be elsewhere on the path" : NULL;
		f->risk = PD_RISK_MEDIUM;
		f->risk_note = "pause frames spread congestion in a shared "
		    "fabric (head-of-line blocking across ports and flows); "
		    "enable them on both ends, and prefer PFC where the fabric "
		    "has it";
		pd_finding_fix(out, f, "sudo ethtool -A %s rx on tx on",
		    nd->name);
		pd_finding_fix(out, f, "# persist: nmcli connection modify "
		    "CONNECTION ethtool.pause-rx on ethtool.pause-tx on, or a "
		    "systemd .link file [Link] RxFlowControl=true "
		    "TxFlowControl=true; enable flow control on the switch port "
		    "too");
		f->verify = pd_arena_printf(out->arena, "Pause shows RX on and "
		    "TX on, the pause counters move under load and "
		    "retransmissions fall.\nethtool -a %s\n"
		    "ethtool -S %s | grep -i pause", nd->name, nd->name);
		pd_finding_evidence(f, &nd->ev_pause);
		if (l.drops_moving) {
			pd_finding_evidence(f, &l.drops->ev_first);
			pd_finding_evidence(f, &l.drops->ev_last);
		}
		if (l.cap)
			pd_finding_evidence(f, &l.cap->ev);
	}
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const idle_links[] = {
	/* arp_ignore, arp_announce */
	"https://docs.kernel.org/networking/ip-sysctl.html",
	/* rx_bytes, rx_bytes_phy */
	"https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html",
	NULL,
};
static const char *const lro_links[] = {
	/* -k, -K lro */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	"https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/index.html",
	/* ip_forward */
	"https://docs.kernel.org/networking/ip-sysctl.html",
	NULL,
};
static const char *const pause_links[] = {
	/* -a, -A */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	"https://docs.kernel.org/networking/statistics.html",
	NULL,
};
static const char *const ring_links[] = {
	/* -g, -G, -S */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	/* rx_missed_errors, rx_fifo_errors and the drivers' own drops */
	"https://docs.kernel.org/networking/statistics.html",
	NULL,
};
static const char *const tso_links[] = {
	"https://docs.kernel.org/networking/segmentation-offloads.html",
	/* -k, -K tso, gso */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	NULL,
};


static const struct pd_rule rules[] = {
	{
		.id = "nic.idle-pf",
		.title = "A PF of a multi-PF adapter carries no traffic",
		.doc = "Among the PFs of one card (same Device Serial Number, "
		    "else sibling functions), a PF that receives below 1 % of "
		    "the busiest PF's bytes while that one is busy (10 MB/s, "
		    "or 1 GiB since boot) is idle.  Per-PF rx_bytes shows it; "
		    "the per-port rx_bytes_phy does not.  If the port counter "
		    "climbs and arp_ignore is 0 or unknown, the PF's port "
		    "traffic is answered by a sibling PF (ARP flux).  Gain: "
		    "with I/O shared equally by the PFs in use, the card's "
		    "capacity is bounded by its busiest link (payload ceiling "
		    "at the current MaxPayload) or port (TCP goodput); gain = "
		    "capacity with every PF / capacity with the active ones; "
		    "GB10 measured one link 14.8 GB/s vs both 28.9.  The low "
		    "end is 0 unless observed traffic is near the active "
		    "capacity.  Confidence 85 with rates from two snapshots, "
		    "50 with since-boot totals.  A PF that carries an NVMe "
		    "path (nvme list-subsys joined to it through ip addr) is "
		    "never idle here: its path is idle by the I/O policy "
		    "(nvme.multipath-iopolicy).  When nvme.paths-per-pf "
		    "fires on the card it names the same PFs and takes the "
		    "ladder step; this finding then keeps its own gain.",
		.physical = true,
		.sysctls = "net.ipv4.conf.*.arp_ignore "
		    "net.ipv4.conf.*.arp_announce",
		.links = idle_links,
		.needs = PD_HAVE_NIC_STATS | PD_HAVE_NETDEV_PCI,
		.check = check_idle_pf,
	},
	{
		.id = "nic.lro-off",
		.title = "LRO off on an mlx5 port receiving bulk TCP",
		.doc = "mlx5 can coalesce received TCP segments in hardware "
		    "(LRO); with it off the stack handles every MTU-sized "
		    "segment.  Fires for mlx5 ports whose LRO is off and not "
		    "fixed while they receive 100 MB/s or more (10 GiB since "
		    "boot).  Says when LRO cannot be on: a bridge port, "
		    "net.ipv4.ip_forward=1, or rx-gro-hw on (mlx5 makes them "
		    "exclusive).  Gain 0 to +2 %: GB10 measured +2 % for the "
		    "kernel NVMe/TCP initiator, nothing for SPDK.  Confidence "
		    "70 with rates, 45 with totals, 30 when blocked.",
		.physical = true,
		.sysctls = "net.ipv4.ip_forward",
		.links = lro_links,
		.needs = PD_HAVE_NIC_FEATURES | PD_HAVE_NIC_STATS,
		.check = check_lro,
	},
	{
		.id = "nic.pause-off-retransmits",
		.title = "Flow control off on a port that loses packets",
		.doc = "With pause frames off, a receiver that runs out of "
		    "buffers drops instead of asking the sender to wait, and TCP "
		    "recovers by retransmitting, sometimes only after a "
		    "retransmission timeout (200 ms or more).  Fires when ethtool "
		    "-a shows RX and TX pause off and the NIC's buffer-drop "
		    "counters move (or reach 1000 since boot), or captures through the port show at least "
		    "0.1 % retransmitted segments.  Gain: up to the stalled "
		    "share s of the captured time, 1/(1-s); mostly tail "
		    "latency: GB10 measured the slowest 1 MiB read at hundreds "
		    "of ms with pause off and tens with it on.  Confidence 75 "
		    "with drops and retransmissions, 55 with retransmissions, "
		    "50 with drop rates, 40 with since-boot drops.",
		.physical = true,
		.links = pause_links,
		.needs = PD_HAVE_PAUSE,
		.check = check_pause,
	},
	{
		.id = "nic.ring-size",
		.title = "RX ring below its maximum on a NIC that drops for "
		    "lack of buffers",
		.doc = "When the driver has no free receive buffer posted, the "
		    "NIC drops the packet (mlx5 rx_out_of_buffer, i40e/ice "
		    "rx_dropped, ixgbe/igb rx_missed_errors and "
		    "rx_no_buffer_count, r8169 rx_missed, ...); a larger ring "
		    "absorbs a longer burst.  Fires when two ethtool -S "
		    "snapshots show those counters moving at 1 drop/s or more "
		    "(10 over the collector's 10 s: one or two are a single "
		    "burst) while ethtool -g shows the current RX ring below "
		    "its pre-set maximum; never on since-boot totals alone, so "
		    "an idle host with small rings and still counters is "
		    "quiet.  Gain 0 to the dropped share of the received "
		    "packets, 1/(1-d/p) with p from rx_packets (else the "
		    "kernel's counters, else bytes over MTU-sized frames): each "
		    "drop is sent again; the sender's window reductions are not "
		    "counted.  Standalone, not on the ladder.  Fix ethtool -G "
		    "IF rx MAX, persistent through NetworkManager "
		    "(ethtool.ring-rx), systemd-networkd (RxBufferSize= in a "
		    ".link file) or a udev rule.  Risk: memory (entries x "
		    "queues x buffer size), latency and cache footprint of a "
		    "fuller ring.  Confidence 60 with a packet rate, 40 "
		    "without.",
		.physical = true,
		.links = ring_links,
		.needs = PD_HAVE_RINGS | PD_HAVE_NIC_STATS,
		.check = pd_check_ring_size,
	},
	{
		.id = "nic.tso-off",
		.title = "TSO or GSO off where the stack then segments every "
		    "send",
		.doc = "With TSO (tcp-segmentation-offload) off, the stack "
		    "cuts each send into MSS-sized segments in software "
		    "(GSO), and with GSO off as well TCP builds MSS-sized "
		    "packets from the start; a virtio guest then hands its "
		    "host one descriptor per segment.  Fires for TSO or GSO "
		    "off and not fixed on a guest's virtio NIC (confidence "
		    "60), or on another host's NIC with TSO off whose capture "
		    "shows a bulk flow of at least 1000 data segments none "
		    "above the MSS and no super-packet while GRO is on, so the "
		    "flow is sent, not received (confidence 50).  Gain 0 to "
		    "+1.7 %: the published Proxmox case sent 1.73 Gbit/s with "
		    "TSO off and 1.76 with it on at gso_max_size 65536; 2.13 "
		    "with gso_max_size 63000, which is tcp.gso-mismatch's fix "
		    "and the larger one when both fire on one flow (the "
		    "finding says so).  Standalone, not on the ladder: where "
		    "the host segments the guest's packets in software, its "
		    "ladder already counts that path.  Fix ethtool -K IF tso "
		    "on gso on, persistent in the guest's network config.",
		.links = tso_links,
		.needs = PD_HAVE_NIC_FEATURES,
		.check = pd_check_tso_off,
	},
};

const struct pd_rule_group pd_rules_nic = {
	.name = "nic",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

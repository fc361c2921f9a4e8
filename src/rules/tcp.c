/* TCP rules.  tcp.gso-mismatch: a guest hands the host GSO packets
 * larger than the physical NIC accepts (its gso_max_size), so the host
 * segments them in software before the NIC's xmit
 * (net/core/dev.c gso_features_check): on the tap the flow's payloads
 * are ~64 KiB, on the physical NIC MSS-sized.  Seen in captures of both
 * sides, or predicted from ip -d link when a tap or veth on a bridge
 * allows more than the bridge's physical port. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "decode/capture.h"
#include "finalize/cardlink.h"
#include "finalize/counters.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"

#define SUPER_SHARE 0.3		/* of data segments on the virtual side */
#define MSS_SHARE 0.9		/* of data segments on the physical side */
#define HDRS 66			/* Ethernet + IPv4 + TCP with timestamps */
#define REF_LO 210		/* measured +21 %: 1.76 -> 2.13 Gbit/s */
#define REF_HI 230		/* and +23 % on the same host, rerun */

static uint64_t
zero_count(const struct pd_flow_dir *d)
{
	for (unsigned i = 0; i < d->n_sizes; i++)
		if (d->sizes[i].bytes == 0)
			return d->sizes[i].count;
	return 0;
}

static double
super_share(const struct pd_flow_dir *d)
{
	uint64_t data = d->segs - zero_count(d);

	return data ? (double)d->super_segs / (double)data : 0;
}

/* The guest NIC to fix: a virtio NIC of another host in the bundle (the
 * guest) that allows more than the physical limit; else a Proxmox tap
 * (tapVMIDiN) at least names the VM and its netN. */
static const char *
guest_if(struct pd_findings *out, const struct pd_host *h, const char *tap,
    long limit)
{
	unsigned vm, n;
	char tail;

	for (const struct pd_host *g = h->model->hosts; g; g = g->next) {
		if (g == h)
			continue;
		for (const struct pd_netdev *nd = g->netdevs; nd; nd = nd->next)
			if (nd->driver && strcmp(nd->driver, "virtio_net") == 0 &&
			    nd->gso_max_size > limit)
				return pd_arena_printf(out->arena, "%s", nd->name);
	}
	if (sscanf(tap, "tap%ui%u%c", &vm, &n, &tail) == 2)
		return pd_arena_printf(out->arena, "GUEST-IF-OF-VM%u-NET%u", vm,
		    n);
	return "GUEST-IF";
}

static long
target_size(long phys_gso)
{
	long n = phys_gso / 1000 * 1000 - 1000;

	return n > 1000 ? n : phys_gso;
}

static void
gso_fix(struct pd_findings *out, struct pd_finding *f, const char *ifn,
    long n)
{
	pd_finding_fix(out, f, "# in the guest:");
	pd_finding_fix(out, f, "sudo ip link set dev %s gso_max_size %ld "
	    "gso_ipv4_max_size %ld", ifn, n, n);
	pd_finding_fix(out, f, "# persist: systemd .link [Link] "
	    "GenericSegmentOffloadMaxBytes=%ld (systemd 250+), or an "
	    "ifupdown post-up line with the same ip link command", n);
	f->verify = pd_arena_printf(out->arena, "In the guest %s shows "
	    "gso_max_size %ld, and captured again, the tap and the physical "
	    "NIC show the same payload-size histograms (no MSS-sized flood on "
	    "the physical side).\nip -d link show %s", ifn, n, ifn);
}

/* What every gso-mismatch finding says, captured or predicted: the
 * measured reference gain, the risk and the fix. */
static void
gso_common(struct pd_findings *out, struct pd_finding *f, const char *ifn,
    long limit)
{
	f->gain_lo = REF_LO;
	f->gain_hi = REF_HI;
	f->gain_basis = "measured in a comparable case: Proxmox guest behind "
	    "an RTL8125 (2.5 GbE), gso_max_size 63000 in the guest took "
	    "guest-to-client TCP from 1.76 to 2.13 Gbit/s (+21 to +23 %, the "
	    "host itself reaching 2.14)";
	f->risk = PD_RISK_LOW;
	f->risk_note = "a smaller gso_max_size costs the guest a little CPU "
	    "per byte; nothing else changes";
	gso_fix(out, f, ifn, target_size(limit));
}

/* For the ladder: the physical NIC whose path the host's software
 * segmentation slows, by the measured +21 to +23 %. */
static struct pd_lever
gso_lever(const struct pd_netdev *phys, const struct pd_capture *c)
{
	return (struct pd_lever){ .kind = PD_LEVER_SW_GSO, .netdev = phys,
		.capture = c, .share_lo = REF_LO / 1000.0,
		.share_hi = REF_HI / 1000.0 };
}

static void
gso_gain(struct pd_finding *f, struct pd_findings *out,
    const struct pd_capture *p, const struct pd_flow_dir *pd_dir,
    double duration)
{
	double goodput = p->netdev ? pd_port_goodput_gbs(p->netdev->speed_mbps,
	    p->netdev->mtu) : 0;
	double observed = duration > 0 ? pd_dir->bytes / duration / 1e9 : 0;

	if (goodput > 0 && observed > 0) {
		int head = pd_gain_tenths(goodput / observed);

		if (head < 0)
			head = 0;
		if (head < f->gain_hi)
			f->gain_hi = head;
		if (head < f->gain_lo)
			f->gain_lo = head;
		f->gain_basis = pd_arena_printf(out->arena, "%s; capped by the "
		    "physical port's headroom: %.2f GB/s of TCP goodput against "
		    "%.2f GB/s observed in the capture", f->gain_basis, goodput,
		    observed);
	}
}

static bool
captured(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_capture *v,
    const struct pd_capture *p)
{
	for (unsigned i = 0; i < v->n_flows; i++) {
		const struct pd_flow *fv = &v->flows[i], *fp = NULL;

		for (unsigned k = 0; k < p->n_flows && !fp; k++)
			if (pd_flow_key_eq(&fv->key, &p->flows[k].key))
				fp = &p->flows[k];
		if (!fp)
			continue;
		int d = fv->dir[1].bytes > fv->dir[0].bytes;
		const struct pd_flow_dir *dv = &fv->dir[d], *dp = &fp->dir[d];
		long limit = p->netdev ? p->netdev->gso_max_size : -1;

		if (super_share(dv) < SUPER_SHARE || super_share(dp) >
		    1 - MSS_SHARE || dp->bytes == 0 ||
		    (limit > 0 && dv->max_payload + HDRS <= (uint32_t)limit))
			continue;
		char key[128];
		struct pd_finding *f;

		pd_flow_key_fmt(key, sizeof(key), &fv->key);
		f = pd_finding_new(out, self, h, pd_arena_printf(out->arena,
		    "%s -> %s", v->ifname, p->ifname));
		pd_finding_summary(out, f, "Flow %s crosses %s in %.0f %% "
		    "super-packets of up to %u bytes but leaves %s in MSS-sized "
		    "segments (%.0f %% of its data segments are at most the "
		    "MSS): the host segments the guest's GSO packets in "
		    "software%s.", key, v->ifname, 100 * super_share(dv),
		    dv->max_payload, p->ifname, 100 * (1 - super_share(dp)),
		    limit > 0 ? pd_arena_printf(out->arena, " because %s "
		    "accepts at most %ld bytes (gso_max_size)", p->ifname,
		    limit) : "");
		gso_common(out, f, guest_if(out, h, v->ifname, limit > 0 ?
		    limit : 64000), limit > 0 ? limit : 64000);
		gso_gain(f, out, p, dp, fp->last_ts - fp->first_ts);
		if (p->netdev)
			f->lever = gso_lever(p->netdev, p);
		f->confidence = 80;
		struct pd_chart *c = pd_arena_alloc(out->arena, sizeof(*c));

		*c = (struct pd_chart){ .title_a = v->ifname, .a = dv->sizes,
			.n_a = dv->n_sizes, .title_b = p->ifname, .b = dp->sizes,
			.n_b = dp->n_sizes, .rows = 8 };
		f->chart = c;
		f->ev[f->n_ev++] = v->ev;
		f->ev[f->n_ev++] = p->ev;
		if (p->netdev)
			pd_finding_evidence(f, &p->netdev->ev_gso);
		if (v->netdev)
			pd_finding_evidence(f, &v->netdev->ev_gso);
		return true;
	}
	return false;
}

/* True when the bundle holds a guest whose virtio NICs all stay within
 * limit: then the tap's own larger limit does no harm. */
static bool
guests_within(const struct pd_host *h, long limit)
{
	bool seen = false;

	for (const struct pd_host *g = h->model->hosts; g; g = g->next)
		for (const struct pd_netdev *nd = g->netdevs; g != h && nd;
		    nd = nd->next) {
			if (!nd->driver || strcmp(nd->driver, "virtio_net") != 0 ||
			    nd->gso_max_size <= 0)
				continue;
			if (nd->gso_max_size > limit)
				return false;
			seen = true;
		}
	return seen;
}

/* Captures of a virtual and a physical side that share a flow settle
 * the question either way. */
static bool
paired_captures(const struct pd_host *h)
{
	for (const struct pd_capture *v = h->captures; v; v = v->next)
		for (const struct pd_capture *p = h->captures;
		    v->side == PD_SIDE_VIRTUAL && p; p = p->next)
			for (unsigned i = 0; p->side == PD_SIDE_PHYSICAL &&
			    i < v->n_flows; i++)
				for (unsigned k = 0; k < p->n_flows; k++)
					if (pd_flow_key_eq(&v->flows[i].key,
					    &p->flows[k].key))
						return true;
	return false;
}

/* Without captures: a tap or veth on a bridge that allows more than the
 * bridge's physical port. */
static void
predicted(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *t = h->netdevs; t; t = t->next) {
		if (!t->master || !t->kind || (strcmp(t->kind, "tun") != 0 &&
		    strcmp(t->kind, "veth") != 0) || t->gso_max_size <= 0)
			continue;
		for (const struct pd_netdev *p = h->netdevs; p; p = p->next) {
			if (p == t || !p->master || strcmp(p->master,
			    t->master) != 0 || p->kind || p->gso_max_size <= 0 ||
			    p->gso_max_size >= t->gso_max_size ||
			    guests_within(h, p->gso_max_size))
				continue;
			struct pd_finding *f = pd_finding_new(out, self, h,
			    pd_arena_printf(out->arena, "%s -> %s", t->name,
			    p->name));

			pd_finding_summary(out, f, "%s and %s share bridge %s, "
			    "but %s accepts GSO packets up to %ld bytes and %s "
			    "only %ld: a guest sending full-size GSO packets "
			    "makes the host segment them in software.", t->name,
			    p->name, t->master, t->name, t->gso_max_size,
			    p->name, p->gso_max_size);
			gso_common(out, f, guest_if(out, h, t->name,
			    p->gso_max_size), p->gso_max_size);
			f->gain_basis = pd_arena_printf(out->arena, "%s; not "
			    "confirmed by captures here", f->gain_basis);
			f->confidence = 40;
			f->lever = gso_lever(p, NULL);
			f->confidence_note = "predicted from ip -d link only: "
			    "capture the tap and the physical NIC at once to "
			    "confirm (tcpdump -s 128 on both)";
			pd_finding_evidence(f, &t->ev_gso);
			pd_finding_evidence(f, &p->ev_gso);
			pd_finding_evidence(f, &t->ev_iplink);
			pd_finding_evidence(f, &p->ev_iplink);
		}
	}
}

static void
check_gso(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	bool any = false;

	for (const struct pd_capture *v = h->captures; v; v = v->next) {
		if (v->side != PD_SIDE_VIRTUAL)
			continue;
		for (const struct pd_capture *p = h->captures; p; p = p->next)
			if (p->side == PD_SIDE_PHYSICAL)
				any |= captured(self, h, out, v, p);
	}
	if (!any && !paired_captures(h))
		predicted(self, h, out);
}

/* tcp.retrans-rate: the host's TCP stack resends more than 1 % of what
 * it sends, between two timed counter snapshots. */
#define RETRANS_SHARE 0.01	/* hotsos's threshold */
#define RETRANS_MIN_OUT 10000	/* segments sent: fewer judge nothing */
#define MATHIS_CAP 2.0		/* the bound taken at most as x2 */

/* The interface the loss shows on: the capture with the largest share
 * of retransmitted segments, else a NIC whose drop counters move. */
static const char *
loss_interface(const struct pd_host *h, const struct pd_capture **cap,
    const struct pd_netdev **drops)
{
	double best = 0;

	*cap = NULL;
	*drops = NULL;
	for (const struct pd_capture *c = h->captures; c; c = c->next) {
		double share = c->tcp_segments ? (double)c->retrans_segs /
		    (double)c->tcp_segments : 0;

		if (c->retrans_segs > 0 && share > best) {
			best = share;
			*cap = c;
		}
	}
	if (*cap)
		return (*cap)->netdev ? (*cap)->netdev->name : (*cap)->ifname;
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		const struct pd_ctr_value *v = &nd->ctr[PD_CTR_RX_DROPS];

		if (v->known && v->is_rate && v->per_s > 0 && (!*drops ||
		    v->per_s > (*drops)->ctr[PD_CTR_RX_DROPS].per_s))
			*drops = nd;
	}
	return *drops ? (*drops)->name : NULL;
}

static void
check_retrans(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	const struct pd_tcpstat *a = &h->tcpstat[0], *b = &h->tcpstat[1];
	const struct pd_capture *cap;
	const struct pd_netdev *drops;

	uint64_t sent, resent;

	/* counters that went back: a reboot between them (a 32-bit
	 * kernel's counter that wrapped is unwrapped) */
	if (h->n_tcpstat < 2 || b->time <= a->time ||
	    !pd_counter_delta(a->out_segs, b->out_segs, &sent) ||
	    !pd_counter_delta(a->retrans_segs, b->retrans_segs, &resent))
		return;
	double p = sent ? (double)resent / (double)sent : 0;

	if (sent < RETRANS_MIN_OUT || p <= RETRANS_SHARE)
		return;
	const char *ifn = loss_interface(h, &cap, &drops);
	double secs = (double)(b->time - a->time);
	struct pd_finding *f = pd_finding_new(out, self, h, ifn ? ifn :
	    "host");

	pd_finding_summary(out, f, "TCP resent %llu of %llu segments sent "
	    "(%.2f %%, above 1 %%) in the %.0f s between the two counter "
	    "snapshots%s.", (unsigned long long)resent,
	    (unsigned long long)sent, 100 * p, secs, cap ?
	    pd_arena_printf(out->arena, "; the capture on %s shows %llu "
	    "retransmitted segments in %llu", ifn,
	    (unsigned long long)cap->retrans_segs,
	    (unsigned long long)cap->tcp_segments) : drops ?
	    pd_arena_printf(out->arena, "; %s drops %.0f packets/s for lack "
	    "of buffers", ifn, drops->ctr[PD_CTR_RX_DROPS].per_s) :
	    "; no capture or NIC counter in the bundle shows where the "
	    "segments are lost");
	double bound = sqrt(p / RETRANS_SHARE);

	if (bound > MATHIS_CAP)
		bound = MATHIS_CAP;
	f->gain_lo = 0;
	f->gain_hi = pd_gain_tenths(bound);
	f->gain_basis = pd_arena_printf(out->arena, "model, an upper bound "
	    "only: a loss-limited TCP flow runs at about 1.22 x MSS/(RTT x "
	    "sqrt(p)) (Mathis et al. 1997), so bringing the loss rate from "
	    "%.2f %% to "
	    "the 1 %% threshold raises such a flow at most sqrt(%.2f/1) = "
	    "x%.2f (taken at most as x2); flows limited by the link, the "
	    "window or the application gain nothing, hence the low end of 0",
	    100 * p, 100 * p, bound);
	f->confidence = cap ? 60 : drops ? 50 : 40;
	f->confidence_note = cap || drops ? "the counters are the whole "
	    "host's (every interface, loopback too); the capture or NIC "
	    "counters tie the loss to this interface" : "the counters are "
	    "the whole host's; add a capture (tcpdump -i IF -s 128) or "
	    "ethtool -S twice to tell which interface loses";
	f->risk = PD_RISK_LOW;
	f->risk_note = "the steps below only read counters; what they point "
	    "to (pause frames, larger rings, a bad cable or switch port) has "
	    "its own risk, told by the rule that finds it";
	const char *n = ifn ? ifn : "IF";

	pd_finding_fix(out, f, "# find where the segments are lost: the "
	    "NIC first, then the path");
	pd_finding_fix(out, f, "ethtool -S %s | grep -Ei 'drop|discard|"
	    "pause|err'", n);
	pd_finding_fix(out, f, "ethtool -a %s   # pause off with drops: see "
	    "nic.pause-off-retransmits", n);
	pd_finding_fix(out, f, "ethtool -g %s   # drops with rings below "
	    "their maximum: sudo ethtool -G %s rx MAX", n, n);
	pd_finding_fix(out, f, "ss -ti   # which connections retransmit, "
	    "and their RTT: the peer and path to look at");
	f->verify = "Between two snapshots under the same load, "
	    "TcpRetransSegs grows by less than 1 % of TcpOutSegs.\n"
	    "nstat -az TcpOutSegs TcpRetransSegs; sleep 10; "
	    "nstat -az TcpOutSegs TcpRetransSegs";
	pd_finding_evidence(f, &a->ev_out);
	pd_finding_evidence(f, &a->ev_retrans);
	pd_finding_evidence(f, &b->ev_out);
	pd_finding_evidence(f, &b->ev_retrans);
	if (cap)
		pd_finding_evidence(f, &cap->ev);
	else if (drops) {
		pd_finding_evidence(f, &drops->ctr[PD_CTR_RX_DROPS].ev_first);
		pd_finding_evidence(f, &drops->ctr[PD_CTR_RX_DROPS].ev_last);
	}
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const gso_links[] = {
	"https://docs.kernel.org/networking/segmentation-offloads.html",
	/* gso_max_size */
	"https://man7.org/linux/man-pages/man8/ip-link.8.html",
	NULL,
};

static const char *const retrans_links[] = {
	/* OutSegs, RetransSegs */
	"https://docs.kernel.org/networking/snmp_counter.html",
	/* -a, -z */
	"https://man7.org/linux/man-pages/man8/nstat.8.html",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "tcp.gso-mismatch",
		.title = "Host segments a guest's GSO packets in software",
		.doc = "When a guest (or container) sends GSO packets larger "
		    "than the physical NIC's gso_max_size allows, the host cuts "
		    "them into MSS-sized segments in software before the NIC "
		    "(net/core/dev.c gso_features_check).  Seen in captures: "
		    "the same flow is at least 30 % super-packets on the tap or "
		    "veth and at most 10 % on the physical NIC, with payloads "
		    "above the physical gso_max_size.  Predicted without "
		    "captures when a tap or veth on a bridge accepts more than "
		    "the bridge's physical port and no guest in the bundle "
		    "stays within it (confidence 40).  Gain +21 to "
		    "+23 %, measured on a Proxmox guest behind an RTL8125 "
		    "(1.76 -> 2.13 Gbit/s), capped by the physical port's "
		    "headroom over the observed rate.  Fix: gso_max_size and "
		    "gso_ipv4_max_size a little under the physical limit "
		    "(63000 for 64000) in the guest.",
		.links = gso_links,
		.needs = PD_HAVE_IPLINK,
		.check = check_gso,
	},
	{
		.id = "tcp.retrans-rate",
		.title = "TCP retransmits more than 1 % of the segments it sends",
		.doc = "Every retransmitted segment is one the path lost (or "
		    "delayed past the retransmission timer): the sender halves "
		    "its congestion window on a loss, and a loss-limited flow "
		    "runs at about 1.22 x MSS/(RTT x sqrt(p)) for a loss rate p "
		    "(Mathis et al. 1997), so 1 % loss caps a 1448-byte MSS "
		    "at 1 ms RTT near 140 Mbit/s per flow.  Fires when the "
		    "kernel's RetransSegs grows by more than 1 % of OutSegs "
		    "(/proc/net/snmp, or nstat -az's TcpRetransSegs and "
		    "TcpOutSegs) between two snapshots with times, over at "
		    "least 10000 segments sent; 1 % is the threshold hotsos "
		    "uses.  Since-boot totals never fire it: a ratio since "
		    "boot mixes every past loss (a link flap a month ago) and "
		    "says nothing about the workload now, so one snapshot "
		    "leaves the rule not evaluated rather than an info "
		    "finding.  The counters are the host's; the finding names "
		    "the interface whose capture shows retransmissions, else "
		    "one whose NIC drop counters move, else the host.  Gain 0 "
		    "to the Mathis bound of bringing p down to 1 %, "
		    "sqrt(p/1 %), at most x2: an upper bound only (flows "
		    "limited elsewhere gain nothing).  Standalone, off the "
		    "ladder.  Confidence 60 with a capture through the "
		    "interface, 50 with moving NIC drops, 40 for the host.",
		.links = retrans_links,
		.needs = PD_HAVE_TCP_COUNTERS,
		.check = check_retrans,
	},
};

const struct pd_rule_group pd_rules_tcp = {
	.name = "tcp",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

/* NIC queue and offload rules; their descriptors are in nic.c's table.
 *
 * nic.ring-size: the NIC drops received packets for lack of buffers
 * (the counters aliased to PD_CTR_RX_DROPS: mlx5 rx_out_of_buffer,
 * i40e/ice rx_dropped, ixgbe/igb rx_missed_errors, ...) while ethtool
 * -g shows the current rx ring below its pre-set maximum.  A larger
 * ring absorbs a longer burst before the driver runs out of posted
 * buffers.  Only a rate between two snapshots counts: a host whose
 * rings are small but whose drop counters stand still has nothing to
 * gain.
 *
 * nic.tso-off: TSO or GSO off on a guest's virtio NIC (the guest then
 * cuts every send into MSS-sized segments itself and hands the host one
 * descriptor per segment), or on a host whose captures on the NIC show
 * bulk data leaving in MSS-sized segments with no super-packet while
 * TSO is off. */
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

/* Drops per second that count as moving: at least 10 over the
 * collector's default 10 s interval; one or two drops in a snapshot
 * pair are a single burst that no ring size is sized for. */
#define RING_DROP_RATE 1.0
/* Bytes a receive buffer holds at least: one MTU-sized frame; drivers
 * post 2 KiB or a page per entry at MTU 1500. */
#define RING_BUF_MIN 2048

/* Measured on the published Proxmox case (guest behind an RTL8125):
 * 1.73 Gbit/s with TSO off in the guest against 1.76 with it on at
 * gso_max_size 65536 (+1.7 %), 2.13 with gso_max_size 63000. */
#define TSO_REF_HI 17		/* tenths of a percent */
#define GSO_REF_LO 210		/* tcp.gso-mismatch's +21 to +23 % */
#define GSO_REF_HI 230
/* A capture shows a bulk sender: at least 1000 data segments in the
 * flow's main direction, none above the MSS. */
#define TSO_MIN_SEGS 1000

static void
counter_ev(struct pd_evidence *ev, const struct pd_snapshot *s,
    const struct pd_counter *c)
{
	*ev = (struct pd_evidence){ .member = s->member, .line = c->line,
		.text = c->text };
}

/* The drop counter that moved most between the first and last timed
 * snapshots, with both its lines; NULL when none moved (the rate then
 * comes from an interval in between, and the rate's own evidence is
 * shown). */
static const char *
moved_drops(const struct pd_netdev *nd, struct pd_evidence *ev0,
    struct pd_evidence *ev1)
{
	const struct pd_snapshot *first, *last;
	const char *drv = nd->driver ? nd->driver : nd->pci ?
	    nd->pci->driver : NULL, *best = NULL;
	uint64_t most = 0;

	if (!pd_netdev_timed_pair(nd, &first, &last))
		return NULL;
	for (const struct pd_counter *c = last->counters; c; c = c->next) {
		const struct pd_counter *p = pd_snapshot_counter(first,
		    c->name);
		enum pd_ctr ctr;
		int tier;
		uint64_t d;

		if (!p || !pd_counter_alias(drv, c->name, &ctr, &tier) ||
		    ctr != PD_CTR_RX_DROPS ||
		    !pd_counter_delta(p->value, c->value, &d) || d <= most)
			continue;
		most = d;
		best = c->name;
		counter_ev(ev0, first, p);
		counter_ev(ev1, last, c);
	}
	return best;
}

/* Received packets per second and where that number comes from; 0 when
 * the bundle has none. */
static double
packet_rate(const struct pd_netdev *nd, const char **how)
{
	static const char *const names[] = { "rx_packets", "rx_packets_phy",
		"port.rx_packets" };
	const struct pd_snapshot *first, *last;
	bool pair = pd_netdev_timed_pair(nd, &first, &last);

	for (size_t i = 0; pair && i < PD_ARRAY_SIZE(names); i++) {
		const struct pd_counter *a = pd_snapshot_counter(first,
		    names[i]);
		const struct pd_counter *b = pd_snapshot_counter(last,
		    names[i]);
		uint64_t d;

		if (a && b && pd_counter_delta(a->value, b->value, &d)) {
			*how = names[i];
			return (double)d * 1000.0 /
			    (double)(last->time_ms - first->time_ms);
		}
	}
	if (nd->n_kstat == 2 && nd->kstat[1].time > nd->kstat[0].time &&
	    nd->kstat[1].rx_packets >= nd->kstat[0].rx_packets) {
		*how = "the kernel's rx_packets";
		return (double)(nd->kstat[1].rx_packets -
		    nd->kstat[0].rx_packets) /
		    (double)(nd->kstat[1].time - nd->kstat[0].time);
	}
	const struct pd_ctr_value *rx = &nd->ctr[PD_CTR_RX_BYTES];

	if (rx->known && rx->is_rate && rx->per_s > 0) {
		*how = "the received bytes over one MTU-sized frame each (the "
		    "fewest packets those bytes can be, so the largest loss "
		    "share)";
		return rx->per_s / (nd->mtu > 0 ? nd->mtu + 18 : 1518);
	}
	return 0;
}

static int
rx_queues(const struct pd_netdev *nd)
{
	int64_t q = nd->channels_cur.combined > 0 ? nd->channels_cur.combined :
	    0;

	if (nd->channels_cur.rx > 0)
		q += nd->channels_cur.rx;
	if (q <= 0 && nd->n_rxq > 0)
		q = nd->n_rxq;
	return q > 0 ? (int)q : 1;
}

static void
ring_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_netdev *nd)
{
	const struct pd_ctr_value *dr = &nd->ctr[PD_CTR_RX_DROPS];
	int64_t cur = nd->rings_cur.rx, max = nd->rings_max.rx;
	const char *how = NULL;
	struct pd_evidence ev0 = dr->ev_first, ev1 = dr->ev_last;
	const char *cname = moved_drops(nd, &ev0, &ev1);
	double p = packet_rate(nd, &how), d = dr->per_s;
	double q = p > 0 ? d / p : 0;
	int nq = rx_queues(nd);
	int64_t buf = nd->rings_cur.rx_buf_len > 0 ? nd->rings_cur.rx_buf_len :
	    nd->mtu > RING_BUF_MIN ? nd->mtu : RING_BUF_MIN;
	double extra = (double)(max - cur) * nq * (double)buf;
	char mem[32];
	struct pd_finding *f = pd_finding_new(out, self, h, nd->name);

	if (q > 1)
		q = 1;
	pd_fmt_bytes(mem, sizeof(mem), extra, false);
	pd_finding_summary(out, f, "%s drops %.0f received packets/s for lack "
	    "of buffers (%s) while its rx ring holds %lld entries of a "
	    "pre-set maximum %lld (ethtool -g)%s.", nd->name, d, cname ?
	    cname : "its drop counters", (long long)cur,
	    (long long)max, p > 0 ? pd_arena_printf(out->arena, "; that is "
	    "%.3f %% of the %.0f packets/s it receives", 100 * q, p) : "");
	f->gain_lo = 0;
	f->gain_hi = p > 0 && q < 1 ? pd_gain_tenths(1 / (1 - q)) : 0;
	f->gain_basis = p > 0 ? pd_arena_printf(out->arena, "model: every "
	    "dropped packet is sent again, so the drops cost at least their "
	    "share of the traffic, %.0f of %.0f packets/s (packet rate from "
	    "%s): up to 1/(1-%.5f); each loss also makes the TCP sender "
	    "shrink its window, which this bound leaves out (it needs the "
	    "round-trip time) and which shows mostly as tail latency; the low "
	    "end is 0 because drops caused by a CPU that falls behind move to "
	    "the backlog with a larger ring; standalone: not on the path "
	    "ladder", d, p, how, q) : "model: every dropped packet is sent "
	    "again; the bundle has no packet rate to weigh the drops "
	    "against (two ethtool -S snapshots with rx_packets give one), so "
	    "the gain is not sized; standalone: not on the path ladder";
	f->confidence = p > 0 ? 60 : 40;
	f->confidence_note = "drops for lack of buffers can also come from "
	    "interrupts or softirq work pinned to busy cores: if they go on "
	    "at the maximum ring, look at the IRQ affinity and the channel "
	    "count (ethtool -l)";
	f->risk = PD_RISK_LOW;
	f->risk_note = pd_arena_printf(out->arena, "memory: about %s more "
	    "receive buffers (%lld more entries x %d queue%s x %lld bytes "
	    "each, the larger of the MTU and 2 KiB unless ethtool -g gives "
	    "the buffer length); latency: a fuller ring holds more packets "
	    "waiting, and a larger ring spreads over more cache than the "
	    "last level holds; ethtool -G briefly resets the queues on most "
	    "drivers (a short loss of traffic)", mem, (long long)(max - cur),
	    nq, nq == 1 ? "" : "s", (long long)buf);
	pd_finding_fix(out, f, "sudo ethtool -G %s rx %lld", nd->name,
	    (long long)max);
	pd_finding_fix(out, f, "# persist: nmcli connection modify CONNECTION "
	    "ethtool.ring-rx %lld; or a systemd .link file [Link] "
	    "RxBufferSize=%lld; or a udev rule: ACTION==\"add\", "
	    "SUBSYSTEM==\"net\", KERNEL==\"%s\", RUN+=\"/usr/sbin/ethtool -G "
	    "%s rx %lld\"", (long long)max, (long long)max, nd->name,
	    nd->name, (long long)max);
	f->verify = cname ? pd_arena_printf(out->arena, "The current RX ring "
	    "shows %lld, and under the same load the %s counter stops "
	    "climbing.\nethtool -g %s\nwatch -n1 \"ethtool -S %s | grep -w "
	    "%s\"", (long long)max, cname, nd->name, nd->name, cname) :
	    pd_arena_printf(out->arena, "The current RX ring shows %lld, and "
	    "under the same load the drop counters stop climbing.\n"
	    "ethtool -g %s\nwatch -n1 \"ethtool -S %s\"", (long long)max,
	    nd->name, nd->name);
	pd_finding_evidence(f, &nd->ev_rings);
	pd_finding_evidence(f, &ev0);
	pd_finding_evidence(f, &ev1);
}

void
pd_check_ring_size(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		const struct pd_ctr_value *dr = &nd->ctr[PD_CTR_RX_DROPS];

		if (nd->rings_error || nd->rings_cur.rx <= 0 ||
		    nd->rings_max.rx <= nd->rings_cur.rx)
			continue;
		if (!dr->known || !dr->is_rate || dr->per_s < RING_DROP_RATE)
			continue;
		ring_finding(self, h, out, nd);
	}
}

/* tcp.gso-mismatch's condition for a guest NIC that allows gso_size:
 * a host in the bundle bridges a tap or veth to a physical NIC that
 * accepts less.  Returns that NIC's limit, or 0. */
static long
host_segments(const struct pd_host *g, long gso_size)
{
	for (const struct pd_host *h = g->model->hosts; h; h = h->next) {
		if (h == g)
			continue;
		for (const struct pd_netdev *t = h->netdevs; t; t = t->next) {
			if (!t->master || !t->kind || (strcmp(t->kind, "tun") !=
			    0 && strcmp(t->kind, "veth") != 0))
				continue;
			for (const struct pd_netdev *p = h->netdevs; p;
			    p = p->next)
				if (p != t && p->master && !p->kind &&
				    strcmp(p->master, t->master) == 0 &&
				    p->gso_max_size > 0 &&
				    p->gso_max_size < gso_size)
					return p->gso_max_size;
		}
	}
	return 0;
}

static void
tso_common(struct pd_findings *out, struct pd_finding *f,
    const struct pd_netdev *nd, const struct pd_feature *tso,
    const struct pd_feature *gso, bool guest)
{
	long phys = guest && nd->gso_max_size > 0 ?
	    host_segments(f->host, nd->gso_max_size) : 0;

	f->gain_lo = 0;
	f->gain_hi = TSO_REF_HI;
	f->gain_basis = "measured in a comparable case: a Proxmox guest behind "
	    "an RTL8125 sent 1.73 Gbit/s with TSO off and 1.76 Gbit/s with "
	    "it on at gso_max_size 65536 (+1.7 %); the low end is 0 because "
	    "segmenting costs CPU, which only a sender that is CPU-bound "
	    "turns into throughput; standalone: not on the path ladder";
	if (phys)
		f->gain_basis = pd_arena_printf(out->arena, "%s; a host in this "
		    "bundle bridges the guest's tap to a NIC that accepts GSO "
		    "packets only up to %ld bytes, so it segments the guest's "
		    "packets in software (tcp.gso-mismatch): that fix, "
		    "gso_max_size below %ld in the guest, is the larger (+%d to "
		    "+%d %%, 2.13 Gbit/s in the same case) and its host's "
		    "ladder counts this path as segmented in software, so this "
		    "finding stays off it", f->gain_basis, phys, phys,
		    GSO_REF_LO / 10, GSO_REF_HI / 10);
	f->risk = PD_RISK_LOW;
	f->risk_note = "TSO and GSO are the kernel's defaults on virtio_net "
	    "and most NICs; turning them on changes how packets are handed "
	    "to the device, not what goes on the wire";
	if (guest)
		pd_finding_fix(out, f, "# in the guest:");
	pd_finding_fix(out, f, "sudo ethtool -K %s tso on gso on", nd->name);
	pd_finding_fix(out, f, "# persist%s: nmcli connection modify "
	    "CONNECTION ethtool.feature-tso on ethtool.feature-gso on; or a "
	    "systemd .link file [Link] TCPSegmentationOffload=true "
	    "GenericSegmentationOffload=true; and remove what turns them off "
	    "(a post-up ethtool -K line)", guest ? " in the guest's network "
	    "config" : "");
	f->verify = pd_arena_printf(out->arena, "tcp-segmentation-offload "
	    "and generic-segmentation-offload show on, and a capture of a "
	    "send shows payloads above the MSS.\nethtool -k %s | grep -E "
	    "'tcp-segmentation-offload|generic-segmentation-offload'",
	    nd->name);
	if (tso && tso->on == PD_NO)
		pd_finding_evidence(f, &tso->ev);
	if (gso && gso->on == PD_NO)
		pd_finding_evidence(f, &gso->ev);
}

static bool
off_open(const struct pd_feature *ft)
{
	return ft && ft->on == PD_NO && !ft->fixed;
}

static const char *
offs(const struct pd_feature *tso, const struct pd_feature *gso)
{
	return off_open(tso) && off_open(gso) ? "TSO and GSO are" :
	    off_open(tso) ? "TSO (tcp-segmentation-offload) is" :
	    "GSO (generic-segmentation-offload) is";
}

/* A capture on nd with a bulk flow leaving in MSS-sized segments: the
 * flow's main direction without super-packets while GRO is on (a
 * received bulk flow would arrive coalesced). */
static const struct pd_capture *
mss_sender(const struct pd_host *h, const struct pd_netdev *nd,
    const struct pd_flow_dir **dir)
{
	const struct pd_feature *gro = pd_netdev_feature(nd,
	    "generic-receive-offload");

	if (!gro || gro->on != PD_YES)
		return NULL;
	for (const struct pd_capture *c = h->captures; c; c = c->next) {
		if (c->netdev != nd)
			continue;
		for (unsigned i = 0; i < c->n_flows; i++) {
			const struct pd_flow *fl = &c->flows[i];
			const struct pd_flow_dir *d = &fl->dir[fl->dir[1].bytes >
			    fl->dir[0].bytes];

			if (d->segs >= TSO_MIN_SEGS && d->super_segs == 0 &&
			    d->mss > 0 && d->max_payload <= d->mss) {
				*dir = d;
				return c;
			}
		}
	}
	return NULL;
}

void
pd_check_tso_off(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		const struct pd_feature *tso = pd_netdev_feature(nd,
		    "tcp-segmentation-offload");
		const struct pd_feature *gso = pd_netdev_feature(nd,
		    "generic-segmentation-offload");
		bool virtio = nd->driver && strcmp(nd->driver,
		    "virtio_net") == 0;

		if (!off_open(tso) && !off_open(gso))
			continue;
		if (h->guest_why && virtio) {
			struct pd_finding *f = pd_finding_new(out, self, h,
			    nd->name);

			pd_finding_summary(out, f, "%s off on %s, the virtio NIC "
			    "of this guest (%s): the guest segments every send "
			    "into MSS-sized packets itself and hands the host "
			    "one descriptor per segment.", offs(tso, gso),
			    nd->name, h->guest_why);
			tso_common(out, f, nd, tso, gso, true);
			f->confidence = 60;
			f->confidence_note = "read from ethtool -k alone: the "
			    "gain depends on how CPU-bound the guest's sends are";
			continue;
		}
		const struct pd_flow_dir *d = NULL;
		const struct pd_capture *c = off_open(tso) ?
		    mss_sender(h, nd, &d) : NULL;

		if (!c)
			continue;
		struct pd_finding *f = pd_finding_new(out, self, h, nd->name);

		pd_finding_summary(out, f, "%s off on %s and its capture shows "
		    "a bulk flow leaving in %llu segments of at most the MSS "
		    "(%u bytes) and no super-packet: the stack segments every "
		    "send in software.", offs(tso, gso), nd->name,
		    (unsigned long long)d->segs, (unsigned)d->mss);
		tso_common(out, f, nd, tso, gso, false);
		f->confidence = 50;
		f->confidence_note = "the capture's direction is read from GRO "
		    "being on (a received bulk flow would arrive coalesced)";
		pd_finding_evidence(f, &c->ev);
	}
}

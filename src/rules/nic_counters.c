/* NIC counter rules read from ethtool -S snapshot pairs, a rule group of
 * their own in the "nic" domain.
 *
 * nic.rx-queue-imbalance: RSS hashes each flow onto one receive queue,
 * and each queue is served by one core.  With few flows per queue the
 * hash spreads them unevenly (20 connections over 20 queues: the busiest
 * queue carries about 3.2 of them on average, balls into bins), and
 * where the flows run at one pace (NVMe/TCP multipath, striped reads)
 * the busiest queue's core sets it for all.  The rule weighs the busiest
 * queue's bytes per second against an even spread over the channels
 * ethtool -l configures (else the queues that carry traffic).
 *
 * nic.drops-by-rate: the NIC's drop and error counters by class (enum
 * pd_drop, through the alias table), as rates per second and per million
 * packets received between two snapshots; since-boot totals never fire.
 */
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
#include "rules/nic_counters.h"

/* Bulk receive where one queue's pace matters: 100 MB/s on the netdev
 * (nic.lro-off's bulk rate). */
#define RXQ_BUSY_RATE 100e6
/* The busiest queue at twice an even share or more fires: below that,
 * hashing many flows leaves ordinary spread (thousands of flows over
 * 20 queues stay within a few per cent of even). */
#define RXQ_RATIO 2.0
/* Measured reference (DESIGN §1): one Gen5 x4 link alone 14.8 GB/s,
 * both links 28.9 GB/s, 2.4 % below twice one link: the loss each link
 * takes when both are loaded, whose likely cause is uneven hashing of
 * 80 connections over four PFs (20 per PF onto 20 queues). */
#define RXQ_REF_LOSS (1.0 - 28.9 / (2 * 14.8))
/* The busiest queue's expected load in that case, in even shares: 20
 * flows hashed at random onto 20 queues (balls into bins, E[max]). */
#define RXQ_REF_RATIO 3.2
/* The scaled loss stops at twice the reference: beyond it the case
 * gives no measurement. */
#define RXQ_SCALE_MAX 2.0

/* A class moves when it counts at least 10 between the snapshots (one
 * or two are a single event, a link flap) and: the buffer classes at 10
 * per million packets received or more (1 drop/s, nic.ring-size's rate,
 * where the packet rate is unknown); the wire classes at 1 per million
 * or more, about 100x what the IEEE 802.3 bit error ratio objective of
 * 1e-12 gives for 1500-byte frames (1.2e-8 of them fail the FCS). */
#define DROP_MIN_COUNT 10
#define DROP_BUF_PPM 10.0
#define DROP_WIRE_PPM 1.0
#define DROP_MIN_RATE 1.0

static const char *
driver_of(const struct pd_netdev *nd)
{
	return nd->driver ? nd->driver : nd->pci ? nd->pci->driver : NULL;
}

/* Channels configured (ethtool -l): combined plus rx-only; 0 unknown. */
static unsigned
channels_of(const struct pd_netdev *nd)
{
	int64_t q = 0;

	if (nd->channels_error)
		return 0;
	if (nd->channels_cur.combined > 0)
		q += nd->channels_cur.combined;
	if (nd->channels_cur.rx > 0)
		q += nd->channels_cur.rx;
	return q > 0 && q <= PD_RXQ_MAX ? (unsigned)q : 0;
}

/* The netdev's share of its card's received bytes per second (1 when
 * alone or unknown): the part of the card's traffic its queues pace. */
static double
card_weight(const struct pd_host *h, const struct pd_netdev *nd)
{
	const struct pd_ctr_value *me = &nd->ctr[PD_CTR_RX_BYTES];

	if (!nd->pci || !me->is_rate || me->per_s <= 0)
		return 1;
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		double sum = 0;
		bool in = false;

		for (unsigned i = 0; i < c->n_pfs; i++) {
			const struct pd_netdev *o = c->pfs[i]->netdev;

			in |= c->pfs[i] == nd->pci;
			if (o && o->ctr[PD_CTR_RX_BYTES].is_rate)
				sum += o->ctr[PD_CTR_RX_BYTES].per_s;
		}
		if (in)
			return sum > me->per_s ? me->per_s / sum : 1;
	}
	return 1;
}

struct spread {
	unsigned n_even;	/* queues an even spread is over */
	unsigned n_active;	/* queues that carried bytes */
	unsigned conf;		/* channels configured, 0 unknown */
	double total, max, ratio;
	unsigned busiest;
};

/* The spread over the configured channels' queues (counters of queues
 * above them are left from a larger setting), else over those that
 * carried traffic. */
static bool
spread_of(const struct pd_netdev *nd, struct spread *sp)
{
	const struct pd_rxq *r = nd->rxq;

	memset(sp, 0, sizeof(*sp));
	sp->conf = channels_of(nd);
	for (unsigned i = 0; i < r->n && (!sp->conf || i < sp->conf); i++) {
		if (r->per_s[i] <= 0)
			continue;
		sp->n_active++;
		sp->total += r->per_s[i];
		if (r->per_s[i] > sp->max) {
			sp->max = r->per_s[i];
			sp->busiest = i;
		}
	}
	sp->n_even = sp->conf ? sp->conf : sp->n_active;
	if (sp->n_even < 2 || sp->total <= 0)
		return false;
	sp->ratio = sp->max * sp->n_even / sp->total;
	return true;
}

/* The share of the netdev's throughput the imbalance costs, high end:
 * the reference loss scaled by the busiest queue's excess over even
 * against the reference's, at most twice it and at most 1 - 1/ratio
 * (every queue held to the busiest one's pace). */
double
pd_rxq_loss(double ratio)
{
	double scale = (ratio - 1) / (RXQ_REF_RATIO - 1);
	double loss;

	if (ratio <= 1)
		return 0;
	if (scale > RXQ_SCALE_MAX)
		scale = RXQ_SCALE_MAX;
	loss = RXQ_REF_LOSS * scale;
	return loss < 1 - 1 / ratio ? loss : 1 - 1 / ratio;
}

bool
pd_rxq_fires(double ratio, double total_per_s)
{
	return total_per_s >= RXQ_BUSY_RATE && ratio >= RXQ_RATIO;
}

static void
imbalance_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_netdev *nd, const struct spread *sp)
{
	pd_finding_fix(out, f, "sudo ethtool -N %s rx-flow-hash tcp4 sdfn",
	    nd->name);
	pd_finding_fix(out, f, "sudo ethtool -X %s equal %u", nd->name,
	    sp->n_even);
	pd_finding_fix(out, f, "# what they are now: ethtool -n %s "
	    "rx-flow-hash tcp4 (the hash fields; sdfn is addresses and ports), "
	    "ethtool -x %s (the indirection table and key)", nd->name,
	    nd->name);
	pd_finding_fix(out, f, "# or move the busy queue's flows: a new hash "
	    "key (sudo ethtool -X %s hkey KEY) or weights (sudo ethtool -X "
	    "%s weight W0 W1 ...); nic.rx-queue-imbalance judges the result "
	    "from two new ethtool -S snapshots", nd->name, nd->name);
	pd_finding_fix(out, f, "# many flows per queue even the hash out: "
	    "more connections (NVMe/TCP: more controllers or paths per PF, "
	    "nvme connect --nr-io-queues) so that each queue carries many; "
	    "with 80 connections over four PFs (20 per PF onto 20 queues) "
	    "the busiest queue paces the rest");
	if (nd->channels_max.combined > 0 && sp->conf &&
	    nd->channels_max.combined > (int64_t)sp->conf)
		pd_finding_fix(out, f, "sudo ethtool -L %s combined %lld",
		    nd->name, (long long)nd->channels_max.combined);
}

static void
imbalance_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_netdev *nd,
    const struct spread *sp)
{
	const struct pd_rxq *r = nd->rxq;
	struct pd_finding *f = pd_finding_new(out, self, h, nd->name);
	double w = card_weight(h, nd), loss = pd_rxq_loss(sp->ratio);
	char busy[32], all[32];

	pd_fmt_bytes(busy, sizeof(busy), sp->max, true);
	pd_fmt_bytes(all, sizeof(all), sp->total, true);
	pd_finding_summary(out, f, "Receive queue %u of %s carries %s of its "
	    "%s (%.0f %%), %.1fx an even share over %u %s; %u queue%s carried "
	    "traffic in the %.0f s between the snapshots.", sp->busiest,
	    nd->name, busy, all, 100 * sp->max / sp->total, sp->ratio,
	    sp->n_even, sp->conf ? "configured channels (ethtool -l)" :
	    "queues that carry traffic", sp->n_active,
	    sp->n_active == 1 ? "" : "s", r->seconds);
	f->gain_lo = 0;
	f->gain_hi = (int)lround(1000 * loss * w);
	f->gain_basis = pd_arena_printf(out->arena, "measured reference: GB10 "
	    "with ConnectX-7, one link alone 14.8 GB/s and both 28.9 GB/s, "
	    "%.1f %% below twice one link, the loss each link takes when "
	    "both are loaded, likely from 80 connections hashed over four "
	    "PFs' 20 queues each, where the busiest queue carries about %.1fx "
	    "an even share (20 flows on 20 queues); model: that loss scaled "
	    "by this queue's excess over even, (%.2f-1)/(%.1f-1), at most "
	    "twice it: %.2f %% of this netdev's throughput%s; the low end is "
	    "0: the busiest queue's core may have time to spare",
	    100 * RXQ_REF_LOSS, RXQ_REF_RATIO, sp->ratio, RXQ_REF_RATIO,
	    100 * loss, w < 1 ? pd_arena_printf(out->arena, ", which carries "
	    "%.0f %% of its card's received bytes", 100 * w) : "");
	f->confidence = sp->conf ? 50 : 40;
	f->confidence_note = sp->conf ? "one measured case, whose loss is "
	    "attributed to hashing, not measured per queue" : "no ethtool -l: "
	    "the even spread is taken over the queues that carried traffic, "
	    "so queues that carried none are not counted";
	f->risk = PD_RISK_LOW;
	f->risk_note = "a new hash or indirection moves flows between queues "
	    "at once (a few reordered packets); -N rx-flow-hash and -X do not "
	    "persist across reboots: repeat them in a udev rule or the "
	    "network configuration";
	imbalance_fix(out, f, nd, sp);
	f->lever = (struct pd_lever){ .kind = PD_LEVER_EFFICIENCY,
		.netdev = nd, .share_lo = 0, .share_hi = loss * w,
		.label = pd_arena_printf(out->arena, "%s's flows spread evenly "
		    "over its receive queues", nd->name) };
	f->verify = pd_arena_printf(out->arena, "Under the same load the "
	    "per-queue byte counters of %s climb at similar rates.\n"
	    "watch -n1 \"ethtool -S %s | grep bytes\"", nd->name, nd->name);
	if (r->busiest == sp->busiest) {
		pd_finding_evidence(f, &r->ev_first);
		pd_finding_evidence(f, &r->ev_last);
	}
	if (sp->conf)
		pd_finding_evidence(f, &nd->ev_channels);
}

static void
pd_check_rxq_imbalance(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		struct spread sp;

		if (!nd->rxq || !spread_of(nd, &sp) ||
		    !pd_rxq_fires(sp.ratio, sp.total))
			continue;
		imbalance_finding(self, h, out, nd, &sp);
	}
}

/* ---- nic.drops-by-rate ---- */

static bool
wire_class(enum pd_drop c)
{
	return c == PD_DROP_CRC || c == PD_DROP_LENGTH;
}

bool
pd_drop_fires(enum pd_drop c, double per_s, double seconds, double pkts)
{
	double ppm = pkts > 0 ? 1e6 * per_s / pkts : -1;

	if (c == PD_DROP_RX_PACKETS || per_s * seconds < DROP_MIN_COUNT)
		return false;
	if (ppm < 0)
		return per_s >= DROP_MIN_RATE;
	return ppm >= (wire_class(c) ? DROP_WIRE_PPM : DROP_BUF_PPM);
}

/* Seconds between the first and last timed snapshots, and the class's
 * counter that moved most between them (NULL: none moved there). */
static const char *
class_counter(const struct pd_netdev *nd, enum pd_drop cls, double *secs,
    struct pd_evidence *ev0, struct pd_evidence *ev1)
{
	const struct pd_snapshot *first, *last;
	const char *best = NULL;
	uint64_t most = 0, d;

	*secs = pd_netdev_timed_pair(nd, &first, &last) ?
	    (double)(last->time_ms - first->time_ms) / 1000.0 : 0;
	for (const struct pd_counter *c = *secs > 0 ? last->counters : NULL; c;
	    c = c->next) {
		const struct pd_counter *p = pd_snapshot_counter(first,
		    c->name);
		enum pd_drop k;
		int tier;

		if (!p || !pd_drop_alias(driver_of(nd), c->name, &k, &tier) ||
		    k != cls || !pd_counter_delta(p->value, c->value, &d) ||
		    d <= most)
			continue;
		most = d;
		best = c->name;
		*ev0 = (struct pd_evidence){ .member = first->member,
			.line = p->line, .text = p->text };
		*ev1 = (struct pd_evidence){ .member = last->member,
			.line = c->line, .text = c->text };
	}
	return best;
}

struct drop_class_text {
	const char *noun;	/* what one count is */
	const char *what;	/* the summary's cause */
	const char *risk;
	enum pd_risk level;
	int conf;		/* confidence with a packet rate */
};

static const struct drop_class_text class_text[PD_DROP_COUNT] = {
	[PD_DROP_NO_BUFFER] = { "packets dropped out of buffer",
	    "the driver had no receive buffer posted (the ring ran empty)",
	    "a larger ring costs memory and cache footprint; ethtool -G and "
	    "-L briefly reset the queues on most drivers", PD_RISK_LOW, 60 },
	[PD_DROP_MISSED] = { "packets missed",
	    "the NIC's receive FIFO overflowed before the host fetched the "
	    "packets", "pause frames spread congestion in a shared fabric; "
	    "enable them on both ends", PD_RISK_MEDIUM, 55 },
	[PD_DROP_PORT] = { "packets discarded at the port",
	    "the port's buffer overflowed (the host drained it too slowly, or "
	    "bursts exceed it)", "pause frames spread congestion in a shared "
	    "fabric (head-of-line blocking); prefer PFC where the fabric has "
	    "it", PD_RISK_MEDIUM, 55 },
	[PD_DROP_CRC] = { "frames with CRC/FCS errors",
	    "frames arrived corrupted on the wire (the frame check sequence "
	    "failed): cable, optics, connector or the peer's port",
	    "replacing a cable or module takes the link down for a moment: "
	    "plan it", PD_RISK_LOW, 70 },
	[PD_DROP_LENGTH] = { "frames with length errors",
	    "frames arrived with a wrong length (longer than the MTU allows, "
	    "runts, jabber): usually an MTU that differs between the two ends",
	    "changing the MTU briefly resets the link on most drivers, and "
	    "both ends must agree", PD_RISK_LOW, 60 },
};

/* Pause frames let the NIC ask the sender to wait instead of dropping;
 * where ethtool -a shows them on already, say so instead. */
static void
pause_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_netdev *nd)
{
	if (nd->pause_rx == PD_YES && nd->pause_tx == PD_YES)
		pd_finding_fix(out, f, "# pause frames are on already (ethtool "
		    "-a %s): check that the switch port honours them, or use "
		    "PFC on the traffic's priority", nd->name);
	else
		pd_finding_fix(out, f, "sudo ethtool -A %s rx on tx on",
		    nd->name);
}

static void
drop_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_netdev *nd, enum pd_drop c)
{
	const char *n = nd->name;

	switch (c) {
	case PD_DROP_NO_BUFFER:
		if (nd->rings_max.rx > nd->rings_cur.rx && nd->rings_cur.rx > 0)
			pd_finding_fix(out, f, "sudo ethtool -G %s rx %lld", n,
			    (long long)nd->rings_max.rx);
		else if (nd->rings_cur.rx <= 0)
			pd_finding_fix(out, f, "ethtool -g %s", n);
		pd_finding_fix(out, f, "# a core that falls behind runs the ring "
		    "empty: see which CPUs take %s's queue interrupts (grep %s "
		    "/proc/interrupts) and how busy their softirq work is; more "
		    "channels spread it (ethtool -L %s combined N)", n, n, n);
		break;
	case PD_DROP_MISSED:
		pause_fix(out, f, nd);
		pd_finding_fix(out, f, "# a larger rx ring (ethtool -G %s rx "
		    "MAX) and a PCIe link at its capability (lspci -vv: LnkSta, "
		    "MaxPayload) let the host fetch the FIFO sooner", n);
		break;
	case PD_DROP_PORT:
		pause_fix(out, f, nd);
		pd_finding_fix(out, f, "# the port buffer drains as fast as the "
		    "host takes packets: the PCIe link and MaxPayload, the "
		    "IOMMU mode and the receiving cores decide it; mlx5 shows "
		    "which priority dropped: ethtool -S %s | grep -E "
		    "'rx_prio[0-7]_discards|rx_buffer_passed_thres_phy'", n);
		break;
	case PD_DROP_CRC:
		pd_finding_fix(out, f, "ethtool -m %s", n);
		pd_finding_fix(out, f, "ethtool --show-fec %s", n);
		pd_finding_fix(out, f, "# reseat, clean or replace the cable and "
		    "optics at both ends; compare the switch port's error "
		    "counters; a link with FEC off where both ends support it "
		    "can turn it on (ethtool --set-fec %s encoding auto)", n);
		break;
	case PD_DROP_LENGTH:
		pd_finding_fix(out, f, "ip link show %s", n);
		pd_finding_fix(out, f, "# set the same MTU at both ends (the "
		    "peer's or switch port's MTU, VLAN tags included): sudo ip "
		    "link set %s mtu MTU", n);
		break;
	case PD_DROP_RX_PACKETS:
	case PD_DROP_COUNT:
		break;
	}
}

static void
drop_gain(struct pd_findings *out, struct pd_finding *f, double d,
    double p, const char *pname)
{
	double q = p > 0 ? d / p : 0;

	f->gain_lo = 0;
	f->gain_hi = p > 0 && q < 1 ? pd_gain_tenths(1 / (1 - q)) : 0;
	f->gain_basis = p > 0 ? pd_arena_printf(out->arena, "model: every "
	    "dropped packet is sent again, so these drops cost at least their "
	    "share of the received packets, %.1f of %.0f packets/s (%s): up "
	    "to 1/(1-%.6f); the sender's window reductions and timeouts, "
	    "mostly tail latency, are left out; the low end is 0 because "
	    "other losses may follow the same cause; standalone: not on the "
	    "path ladder", d, p, pname, q) : "model: every dropped packet is "
	    "sent again; the bundle has no received-packet counter to weigh "
	    "the drops against, so the gain is not sized; standalone: not on "
	    "the path ladder";
}

/* The card a netdev's PF is on, or NULL. */
static const struct pd_card *
card_of(const struct pd_host *h, const struct pd_netdev *nd)
{
	for (const struct pd_card *c = nd->pci ? h->cards : NULL; c;
	    c = c->next)
		for (unsigned i = 0; i < c->n_pfs; i++)
			if (c->pfs[i] == nd->pci)
				return c;
	return NULL;
}

/* Sibling PFs of one port (same card, same function number) print the
 * port's counters alike: a class with the same total and rate on both
 * is one port's, reported once, on the first of them. */
static bool
port_twin(const struct pd_host *h, const struct pd_netdev *a,
    const struct pd_netdev *b, enum pd_drop c)
{
	const struct pd_card *card = card_of(h, a);

	return a != b && card && card == card_of(h, b) &&
	    a->pci->fn == b->pci->fn && b->drop[c].known &&
	    b->drop[c].total == a->drop[c].total &&
	    b->drop[c].per_s == a->drop[c].per_s;
}

static bool
twin_before(const struct pd_host *h, const struct pd_netdev *nd,
    enum pd_drop c)
{
	for (const struct pd_netdev *o = h->netdevs; o && o != nd; o = o->next)
		if (port_twin(h, nd, o, c))
			return true;
	return false;
}

static const char *
twins_after(struct pd_findings *out, const struct pd_host *h,
    const struct pd_netdev *nd, enum pd_drop c)
{
	const char *s = "";

	for (const struct pd_netdev *o = nd->next; o; o = o->next)
		if (port_twin(h, nd, o, c))
			s = pd_arena_printf(out->arena, "%s%s%s", s, *s ? ", " :
			    "", o->name);
	return *s ? pd_arena_printf(out->arena, "; a port counter: %s, on "
	    "the same port, counts the same", s) : "";
}

static void
drop_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_netdev *nd, enum pd_drop c,
    double secs)
{
	const char *twins = twins_after(out, h, nd, c);
	const struct pd_ctr_value *v = &nd->drop[c];
	const struct pd_ctr_value *pk = &nd->drop[PD_DROP_RX_PACKETS];
	double p = pk->is_rate ? pk->per_s : 0, d = v->per_s, ignore;
	struct pd_evidence ev0 = v->ev_first, ev1 = v->ev_last;
	const char *cname = class_counter(nd, c, &ignore, &ev0, &ev1);
	const struct drop_class_text *t = &class_text[c];
	struct pd_finding *f = pd_finding_new(out, self, h,
	    pd_arena_printf(out->arena, "%s: %s", nd->name, pd_drop_name(c)));

	pd_finding_summary(out, f, "%s counts %.1f %s per second (%s, %.0f in "
	    "the %.0f s between the snapshots)%s%s: %s.", nd->name, d, t->noun,
	    cname ? cname : "its counters", d * secs, secs, p > 0 ?
	    pd_arena_printf(out->arena, ", %.1f per million of the %.0f "
	    "packets/s received", 1e6 * d / p, p) : "", twins, t->what);
	drop_gain(out, f, d, p, pk->ev_last.text ? pk->ev_last.text :
	    "rx packets");
	f->confidence = p > 0 ? t->conf : t->conf - 20;
	f->confidence_note = p > 0 ? NULL : "no received-packet counter: the "
	    "drops are judged by their rate alone";
	f->risk = t->level;
	f->risk_note = t->risk;
	drop_fix(out, f, nd, c);
	f->verify = cname ? pd_arena_printf(out->arena, "Under the same load "
	    "the %s counter stops climbing.\nwatch -n1 \"ethtool -S %s | grep "
	    "-w %s\"", cname, nd->name, cname) : pd_arena_printf(out->arena,
	    "Under the same load the %s counters stop climbing.\nwatch -n1 "
	    "\"ethtool -S %s\"", pd_drop_name(c), nd->name);
	pd_finding_evidence(f, &ev0);
	pd_finding_evidence(f, &ev1);
	if (p > 0)
		pd_finding_evidence(f, &pk->ev_last);
}

static void
pd_check_drops_by_rate(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		const struct pd_ctr_value *pk = &nd->drop[PD_DROP_RX_PACKETS];
		double secs;
		struct pd_evidence e0, e1;

		class_counter(nd, PD_DROP_RX_PACKETS, &secs, &e0, &e1);
		for (int c = PD_DROP_NO_BUFFER; c < PD_DROP_COUNT; c++) {
			const struct pd_ctr_value *v = &nd->drop[c];

			if (!v->known || !v->is_rate || !pd_drop_fires(
			    (enum pd_drop)c, v->per_s, secs, pk->is_rate ?
			    pk->per_s : 0) || twin_before(h, nd,
			    (enum pd_drop)c))
				continue;
			drop_finding(self, h, out, nd, (enum pd_drop)c, secs);
		}
	}
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const rxq_links[] = {
	/* -S, -l, -n/-N rx-flow-hash, -x/-X */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	/* RSS, indirection table, hash key */
	"https://docs.kernel.org/networking/scaling.html",
	NULL,
};
static const char *const drops_links[] = {
	/* the standard counters and what drivers count as drops */
	"https://docs.kernel.org/networking/statistics.html",
	/* rx_out_of_buffer, rx_discards_phy, rx_crc_errors_phy, ... */
	"https://docs.kernel.org/networking/device_drivers/ethernet/mellanox/mlx5/counters.html",
	/* -S, -G, -A, -m, --show-fec */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "nic.rx-queue-imbalance",
		.title = "One receive queue carries far more than an even share",
		.doc = "RSS hashes each flow onto one receive queue, served by "
		    "one core; with few flows per queue the hash spreads them "
		    "unevenly (20 flows on 20 queues: the busiest carries about "
		    "3.2 on average, balls into bins), and where the flows run "
		    "at one pace (NVMe/TCP multipath, striped reads) the "
		    "busiest queue paces the rest.  Reads the per-queue byte "
		    "counters of ethtool -S (mlx5 rxN_bytes, ice/ixgbe/igb/igc/"
		    "virtio_net rx_queue_N_bytes, older ice rx-queue-N.rx_bytes, "
		    "i40e/iavf rx-N.bytes, bnxt_en \"[N]: rx_ucast_bytes\" with "
		    "mcast and bcast, ena queue_N_rx_bytes) between two timed "
		    "snapshots, up to 512 queues.  Fires when the netdev "
		    "receives 100 MB/s or more and its busiest queue carries at "
		    "least 2x an even share over the channels ethtool -l "
		    "configures (queues above them are left out), else over the "
		    "queues that carried traffic.  Gain 0 to the reference loss "
		    "scaled by the excess over even: GB10 with ConnectX-7 "
		    "measured one link alone 14.8 GB/s and both 28.9 GB/s, 2.4 "
		    "% below twice one link, likely from 80 connections hashed "
		    "over four PFs' 20 queues (about 3.2x even at the busiest); "
		    "loss = 2.4 % x (r-1)/(3.2-1), at most twice that and at "
		    "most 1-1/r, weighted by the netdev's share of its card's "
		    "received bytes.  On the ladder as a small efficiency step "
		    "when the netdev is a PF of the host's main card.  Fix: "
		    "more connections or queues, the RSS hash fields (ethtool "
		    "-N IF rx-flow-hash tcp4 sdfn), the indirection table or "
		    "key (ethtool -X).  Confidence 50 with ethtool -l, 40 "
		    "without.",
		.links = rxq_links,
		.needs = PD_HAVE_RXQ,
		.check = pd_check_rxq_imbalance,
	},
	{
		.id = "nic.drops-by-rate",
		.title = "NIC drop or error counters climbing between snapshots",
		.doc = "The NIC's receive drop and error counters by class, "
		    "through the per-driver alias table: out of buffer (no "
		    "descriptor posted: mlx5 rx_out_of_buffer, ixgbe/igb/igc "
		    "rx_no_buffer_count, i40e/ice rx_dropped, bnxt_en "
		    "rx_total_discard_pkts, virtio_net rx_drops), missed (the "
		    "NIC's FIFO overflowed: rx_missed_errors, r8169 rx_missed), "
		    "port discards (mlx5 rx_discards_phy, i40e port.rx_dropped, "
		    "ice rx_dropped.nic, bnxt_en rx_stat_discard), CRC/FCS "
		    "errors (rx_crc_errors_phy, port.rx_crc_errors, "
		    "rx_crc_errors.nic, rx_crc_errors and rx_align_errors, "
		    "rx_fcs_err_frames) and length errors (length, undersize, "
		    "oversize, fragments, jabber).  Each as a rate per second "
		    "and per million packets received (rx_packets_phy, else "
		    "rx_packets) between two timed snapshots; since-boot totals "
		    "never fire.  A class fires when it counts 10 or more "
		    "between the snapshots and: the buffer classes 10 per "
		    "million packets or more, the wire classes (CRC, length) 1 "
		    "per million or more (about 100x the IEEE 802.3 bit error "
		    "ratio objective of 1e-12 for 1500-byte frames; mlx5's "
		    "counter documentation: a CRC counter that increases at a "
		    "high rate means checking the link quality); with no packet "
		    "counter, 1 per second (nic.ring-size's rate).  Fix per "
		    "class: rings and the receiving cores (out of buffer), pause "
		    "frames and the PCIe link (missed, port discards), cabling, "
		    "optics and FEC (CRC), matching MTUs (length).  Gain 0 to "
		    "the dropped share of received packets, 1/(1-d/p): each "
		    "drop is sent again.  Standalone, not on the ladder.  "
		    "Confidence by class: 70 CRC, 60 buffer and length, 55 "
		    "missed and port; 20 less without a packet rate.",
		.links = drops_links,
		.needs = PD_HAVE_NIC_STATS,
		.check = pd_check_drops_by_rate,
	},
};

const struct pd_rule_group pd_rules_nic_counters = {
	.name = "nic",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

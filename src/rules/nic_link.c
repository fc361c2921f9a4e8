/* nic.link-below-capability: an Ethernet port linked below the best
 * mode both ends can run, at half duplex, or with autonegotiation off
 * while the partner advertises more; a rule group of its own in the
 * "nic" domain.
 *
 * The best mode is the fastest one in our supported list that the link
 * partner advertises too, when ethtool shows the partner's modes (the
 * driver reads them from the PHY or firmware; many do not, and print
 * none or "Not reported").  Without them it is the fastest mode we
 * support and advertise: the supported list names what the NIC can do,
 * the advertised one what the port offers with its module or cable (an
 * XXV710 with a 10G module supports 25000baseSR/Full but advertises
 * only 10000baseSR/Full), and that is a guess about the other end, so
 * the confidence is lower and says so. */
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"
#include "rules/nic_link.h"

/* Confidence by what the best mode was read from: both ends' lists
 * (only the cable or a PHY's downshift can stand in the way), our
 * supported and advertised modes (the partner may do less), our
 * supported modes alone (the module or cable may do less too). */
#define CONF_PARTNER 75
#define CONF_ADVERTISED 45
#define CONF_SUPPORTED 30
/* Half duplex: the data and the returning ACKs share one medium.  At
 * MTU 1500 one ACK frame (84 bytes on the wire with preamble and gap)
 * per two 1538-byte data frames is 2.7 % of the wire, the low end; a
 * load in both directions gets at most half the medium each way, +100 %
 * as the high end; collisions and backoff come on top. */
#define HALF_LO 27		/* tenths of a percent */
#define HALF_HI 1000

static bool
has_mode(const struct pd_link_modes *l, int speed, bool full)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->m[i].speed_mbps == speed && l->m[i].full == full)
			return true;
	return false;
}

static bool
better(const struct pd_link_mode *m, const struct pd_link_target *t,
    bool have)
{
	return !have || m->speed_mbps > t->speed_mbps ||
	    (m->speed_mbps == t->speed_mbps && m->full && !t->full);
}

bool
pd_link_target(const struct pd_link_settings *ls, struct pd_link_target *t)
{
	const struct pd_link_modes *other = ls->partner.n ? &ls->partner :
	    ls->advertised.n ? &ls->advertised : NULL;
	bool have = false;

	t->basis = ls->partner.n ? PD_LINK_PARTNER : ls->advertised.n ?
	    PD_LINK_ADVERTISED : PD_LINK_SUPPORTED;
	for (unsigned i = 0; i < ls->supported.n; i++) {
		const struct pd_link_mode *m = &ls->supported.m[i];

		if (other && !has_mode(other, m->speed_mbps, m->full))
			continue;
		if (better(m, t, have)) {
			t->speed_mbps = m->speed_mbps;
			t->full = m->full;
			have = true;
		}
	}
	return have;
}

static const char *
mbps_name(struct pd_arena *a, int mbps)
{
	if (mbps >= 1000 && mbps % 1000 == 0)
		return pd_arena_printf(a, "%d Gb/s", mbps / 1000);
	if (mbps >= 1000 && mbps % 100 == 0)
		return pd_arena_printf(a, "%d.%d Gb/s", mbps / 1000,
		    mbps % 1000 / 100);
	return pd_arena_printf(a, "%d Mb/s", mbps);
}

/* The payload the PCIe link behind the port carries, GB/s; 0 unknown. */
static double
link_gbs(const struct pd_netdev *nd)
{
	const struct pd_pf_path *p = nd->pci ? &nd->pci->path : NULL;

	return p && p->mts > 0 && p->width > 0 ?
	    pd_pcie_payload_gbs(p->mts, p->width, p->mps) : 0;
}

static double
min_d(double a, double b)
{
	return a < b ? a : b;
}

/* The speed's gain off the ladder: goodput grows with the rate, up to
 * what the PCIe link behind the port carries. */
static void
speed_gain(struct pd_findings *out, struct pd_finding *f,
    const struct pd_netdev *nd, int to)
{
	double now = pd_port_goodput_gbs(nd->speed_mbps, nd->mtu);
	double then = pd_port_goodput_gbs(to, nd->mtu);
	double link = link_gbs(nd);
	int mtu = nd->mtu > 0 ? nd->mtu : 1500;

	f->gain_lo = 0;
	f->gain_hi = link > 0 ? pd_gain_tenths(min_d(then, link) /
	    min_d(now, link)) : pd_gain_tenths(then / now);
	f->gain_basis = pd_arena_printf(out->arena, "model: TCP goodput at "
	    "MTU %d (%d payload bytes in %d on the wire) %.3f GB/s at %d Mb/s "
	    "against %.3f GB/s at %d Mb/s, realised only where this port "
	    "binds the path (the low end: nothing in the bundle shows that "
	    "it does)", mtu, mtu - 52, mtu + 38, now, nd->speed_mbps, then,
	    to);
	if (link > 0)
		f->gain_basis = pd_arena_printf(out->arena, "%s; the PCIe link "
		    "behind it carries %.2f GB/s of payload%s", f->gain_basis,
		    link, link <= now ? ", less than the port already "
		    "delivers, so a faster port gains nothing" : link < then ?
		    ", which caps the gain" : "");
	if (link > 0 && link <= now)
		f->summary = pd_arena_printf(out->arena, "%s The PCIe link "
		    "behind it carries only %.2f GB/s, below even the present "
		    "port: no throughput gain.", f->summary, link);
}

/* What the cable must carry, by speed: twisted pair up to 10G, else a
 * module or direct-attach cable whose rating ethtool -m shows. */
static const char *
cable(struct pd_arena *a, const struct pd_netdev *nd, int mbps)
{
	if (mbps <= 1000)
		return "1000BASE-T needs all four pairs of a Cat 5e cable; one "
		    "broken pair drops it to 100 Mb/s";
	if (mbps <= 5000)
		return "Cat 5e or better for 2.5GBASE-T and 5GBASE-T";
	if (mbps == 10000)
		return pd_arena_printf(a, "Cat 6a for 10GBASE-T; for SFP+ the "
		    "module's or cable's rating: ethtool -m %s", nd->name);
	return pd_arena_printf(a, "the module's or direct-attach cable's "
	    "rating: ethtool -m %s", nd->name);
}

static void
speed_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_netdev *nd, const struct pd_link_target *t)
{
	const struct pd_link_settings *ls = &nd->ls;
	bool adv = ls->advertised.n && has_mode(&ls->advertised,
	    t->speed_mbps, t->full);

	if (ls->autoneg == PD_NO) {
		pd_finding_fix(out, f, "sudo ethtool -s %s autoneg on",
		    nd->name);
	} else if (ls->advertised.n && !adv) {
		pd_finding_fix(out, f, "# our port does not advertise %d Mb/s: "
		    "advertise the modes of that speed (ethtool 5.6 and later; "
		    "older ones take 'advertise MASK' with the modes' bits)",
		    t->speed_mbps);
		pd_finding_fix(out, f, "sudo ethtool -s %s autoneg on speed %d "
		    "duplex full", nd->name, t->speed_mbps);
	} else {
		pd_finding_fix(out, f, "# both ends offer %d Mb/s yet the link "
		    "trained lower: check the cable (%s), the switch port, "
		    "and a PHY that downshifts on errors (ethtool "
		    "--get-phy-tunable %s downshift), then renegotiate",
		    t->speed_mbps, cable(out->arena, nd, t->speed_mbps),
		    nd->name);
		pd_finding_fix(out, f, "sudo ethtool -r %s", nd->name);
	}
	if (ls->autoneg == PD_NO || (ls->advertised.n && !adv))
		pd_finding_fix(out, f, "# persistent: a systemd .link file "
		    "with AutoNegotiation=yes%s, or NetworkManager's "
		    "802-3-ethernet.auto-negotiate yes%s", adv ? "" :
		    " and Advertise= naming the modes", adv ? "" :
		    pd_arena_printf(out->arena, " with 802-3-ethernet.speed %d "
		    "and 802-3-ethernet.duplex full", t->speed_mbps));
}

static void
evidence(struct pd_finding *f, const struct pd_netdev *nd)
{
	pd_finding_evidence(f, &nd->ev_speed);
	pd_finding_evidence(f, &nd->ls.ev_duplex);
	pd_finding_evidence(f, &nd->ls.supported.ev);
	pd_finding_evidence(f, &nd->ls.advertised.ev);
	pd_finding_evidence(f, &nd->ls.partner.ev);
	pd_finding_evidence(f, &nd->ls.ev_autoneg);
}

static const char *
basis_text(enum pd_link_basis b, bool one)
{
	return b == PD_LINK_PARTNER ? "in both our supported modes and the "
	    "link partner's advertised ones" : b == PD_LINK_ADVERTISED ?
	    (one ? "that it supports and advertises" : "that they support "
	    "and advertise") : one ? "that it supports" : "that they support";
}

static void
confidence(struct pd_finding *f, const struct pd_link_target *t)
{
	f->confidence = t->basis == PD_LINK_PARTNER ? CONF_PARTNER :
	    t->basis == PD_LINK_ADVERTISED ? CONF_ADVERTISED : CONF_SUPPORTED;
	if (t->basis != PD_LINK_PARTNER)
		f->confidence_note = t->basis == PD_LINK_ADVERTISED ? "ethtool "
		    "does not show the link partner's modes: the switch, the "
		    "other NIC or the cable may not run the faster mode" :
		    "ethtool shows neither our advertised modes nor the "
		    "partner's: the module, the cable or the other end may "
		    "not run the faster mode";
}

/* nd's target when it is below it, in *t. */
static bool
below(const struct pd_netdev *nd, struct pd_link_target *t)
{
	if (nd->speed_mbps <= 0 || nd->link == PD_NO ||
	    !pd_link_target(&nd->ls, t))
		return false;
	return t->speed_mbps > nd->speed_mbps ||
	    (nd->ls.full_duplex == PD_NO && t->full &&
	    t->speed_mbps >= nd->speed_mbps);
}

/* Another function of the same physical port: one card, one function
 * number (socket-direct cards keep the port in it). */
static bool
same_port(const struct pd_host *h, const struct pd_netdev *a,
    const struct pd_netdev *b)
{
	if (!a->pci || !b->pci || a == b || a->pci->fn != b->pci->fn)
		return false;
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		bool has_a = false, has_b = false;

		for (unsigned i = 0; i < c->n_pfs; i++) {
			has_a = has_a || c->pfs[i] == a->pci;
			has_b = has_b || c->pfs[i] == b->pci;
		}
		if (has_a && has_b)
			return true;
	}
	return false;
}

/* A sibling on nd's port that is below its mode the same way. */
static bool
twin(const struct pd_host *h, const struct pd_netdev *nd,
    const struct pd_netdev *o, const struct pd_link_target *t)
{
	struct pd_link_target u;

	return same_port(h, nd, o) && below(o, &u) &&
	    o->speed_mbps == nd->speed_mbps && u.speed_mbps == t->speed_mbps &&
	    o->ls.full_duplex == nd->ls.full_duplex;
}

static void
emit(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_netdev *nd,
    const struct pd_link_target *t)
{
	bool slow = t->speed_mbps > nd->speed_mbps;
	bool half = nd->ls.full_duplex == PD_NO && t->full &&
	    t->speed_mbps >= nd->speed_mbps;
	struct pd_arena *a = out->arena;
	const char *subject = nd->name;

	for (const struct pd_netdev *o = nd->next; o; o = o->next)
		if (twin(h, nd, o, t))
			subject = pd_arena_printf(a, "%s, %s", subject, o->name);
	struct pd_finding *f = pd_finding_new(out, self, h, subject);

	pd_finding_summary(out, f, "%s%s at %s%s although the fastest "
	    "mode %s is %s%s%s.", subject, subject == nd->name ? " links" :
	    " (the PFs of one port) link", mbps_name(a, nd->speed_mbps),
	    half ? " half duplex" : "", basis_text(t->basis,
	    subject == nd->name),
	    mbps_name(a, t->speed_mbps), t->full ? " full duplex" : "",
	    nd->ls.autoneg == PD_NO ? "; autonegotiation is off" : "");
	confidence(f, t);
	f->risk = PD_RISK_LOW;
	f->risk_note = "renegotiating takes the link down for a few seconds; "
	    "a cable that cannot carry the faster mode shows errors or "
	    "drops back";
	evidence(f, nd);
	if (slow) {
		f->lever = (struct pd_lever){ .kind = PD_LEVER_PORT_SPEED,
			.netdev = nd, .speed_to = t->speed_mbps };
		speed_gain(out, f, nd, t->speed_mbps);
		speed_fix(out, f, nd, t);
	} else {
		f->gain_lo = HALF_LO;
		f->gain_hi = HALF_HI;
		f->gain_basis = "model: at half duplex data and ACKs share one "
		    "medium: one 84-byte ACK frame per two 1538-byte data "
		    "frames at MTU 1500 is 2.7 % of the wire (the low end); a "
		    "load in both directions gets half the medium each way "
		    "(+100 %, the high end); collisions and backoff cost more";
		pd_finding_fix(out, f, "# half duplex is what an "
		    "autonegotiating port falls back to when the other end is "
		    "forced: set both ends to autonegotiate");
		pd_finding_fix(out, f, "sudo ethtool -s %s autoneg on",
		    nd->name);
	}
	f->verify = pd_arena_printf(a, "ethtool shows Speed: %dMb/s and "
	    "Duplex: %s.\nethtool %s | grep -E 'Speed|Duplex'", t->speed_mbps,
	    t->full ? "Full" : "Half", nd->name);
}

/* One finding per physical port: the PFs of one port (GX10: one PF of
 * each port on each PCIe link) link at one speed. */
static void
pd_check_link_below(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		struct pd_link_target t;
		bool first = true;

		if (!below(nd, &t))
			continue;
		for (const struct pd_netdev *o = h->netdevs; o != nd && first;
		    o = o->next)
			first = !twin(h, nd, o, &t);
		if (first)
			emit(self, h, out, nd, &t);
	}
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const link_below_links[] = {
	/* ethtool IF: link modes, -s autoneg/speed/duplex, -r */
	"https://man7.org/linux/man-pages/man8/ethtool.8.html",
	/* AutoNegotiation=, Advertise= */
	"https://www.freedesktop.org/software/systemd/man/latest/systemd.link.html",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "nic.link-below-capability",
		.title = "Ethernet port linked below what both ends support",
		.doc = "A port autonegotiates the fastest mode both ends "
		    "advertise; plain ethtool IF lists our supported and "
		    "advertised modes and, where the driver reads them, the "
		    "link partner's (each mode read by its speed, the leading "
		    "number of 2500baseT/Full, and its duplex).  Fires when "
		    "Speed is below the fastest mode our supported list and "
		    "the partner's advertised list share (confidence 75), "
		    "else below the fastest we support and advertise "
		    "(confidence 45: the partner may do less; a module limits "
		    "the advertised list, not the supported one), else below "
		    "the fastest we support (30); or at half duplex where "
		    "that mode is full duplex.  The fix follows the cause: "
		    "autonegotiation off (ethtool -s IF autoneg on), the mode "
		    "not advertised (ethtool -s IF autoneg on speed S duplex "
		    "full), both ends offering it (the cable, the switch port "
		    "or a PHY's downshift; ethtool -r IF).  Gain: TCP goodput "
		    "at the MTU scales with the rate, realised where the port "
		    "binds the path: a ladder step on the busiest card's path "
		    "(the port's ceiling raised), else 0 to the rate ratio, "
		    "capped by the PCIe link behind the port (a port behind a "
		    "link that carries less gains nothing and says so).  Half "
		    "duplex: +2.7 % (ACKs sharing the medium at MTU 1500) to "
		    "+100 % (a load in both directions).  One finding per "
		    "physical port (the PFs of a card with one function "
		    "number link together); a link that is down or a virtual "
		    "NIC without link modes is skipped.",
		.physical = true,
		.links = link_below_links,
		.needs = PD_HAVE_LINK_MODES,
		.check = pd_check_link_below,
	},
};

const struct pd_rule_group pd_rules_nic_link = {
	.name = "nic",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

/* NVMe over Fabrics rules: native multipath's I/O policy on a host
 * whose paths are all NUMA-local, and controllers that all enter
 * through the PFs of one PCIe link or one port of a multi-link card.
 *
 * Both take their gain from the card's capacity with I/O shared
 * equally by the PFs in use (pd_card_capacity: each link's payload
 * ceiling at its MaxPayload, each port's TCP goodput): measured on GB10
 * with ConnectX-7 (two Gen5 x4 links of 14.95 GB/s, 200G ports), one
 * link 14.8 GB/s, both links 28.9 GB/s. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"
#include "rules/pf_use.h"

/* The low end of a gain is 0 unless the PFs in use are at 80 % of
 * their capacity now (as the ladder's "binds" test). */
#define NEAR_LIMIT 0.80
/* Realised share of a doubled capacity, GB10: 28.9 of 2 x 14.8 GB/s. */
#define REALISED 0.95

static bool
live(const struct pd_nvme_path *p)
{
	return (!p->state || strcmp(p->state, "live") == 0) &&
	    !(p->ana && strcmp(p->ana, "inaccessible") == 0);
}

static bool
ip_fabric(const struct pd_nvme_path *p)
{
	return p->transport && (strcmp(p->transport, "tcp") == 0 ||
	    strcmp(p->transport, "rdma") == 0);
}

unsigned
pd_nvme_pf_paths(const struct pd_host *h, const struct pd_pcidev *pf)
{
	unsigned n = 0;

	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next)
		for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
			n += live(p) && ip_fabric(p) && pd_nvme_path_pf(p) == pf;
	return n;
}

static int
card_index(const struct pd_card *c, const struct pd_pcidev *pf)
{
	for (unsigned i = 0; i < c->n_pfs; i++)
		if (c->pfs[i] == pf)
			return (int)i;
	return -1;
}

/* GB/s of card c with I/O shared equally by the PFs in act. */
static double
capacity(const struct pd_card *c, const bool *act)
{
	struct pd_pf_path p[PD_CARD_MAX_PFS];
	double link[PD_CARD_MAX_PFS];

	for (unsigned i = 0; i < c->n_pfs; i++) {
		p[i] = c->pfs[i]->path;
		link[i] = p[i].ceiling_gbs;
	}
	return pd_card_capacity(p, link, act, c->n_pfs, NULL);
}

static double
rx_rate(const struct pd_pcidev *pf)
{
	return pf->path.rx_known && pf->path.rx_is_rate ? pf->path.rx : -1;
}

/* "nic2 (0000:01:00.0), nic6 (0002:01:00.1)" of the PFs in set. */
static const char *
pf_list(struct pd_arena *a, const struct pd_card *c, const bool *set)
{
	const char *s = "";

	for (unsigned i = 0; i < c->n_pfs; i++)
		if (set[i])
			s = pd_arena_printf(a, "%s%s%s (%s)", s, *s ? ", " : "",
			    c->pfs[i]->netdev ? c->pfs[i]->netdev->name : "?",
			    c->pfs[i]->bdf);
	return s;
}

/* Gain from now to full capacity: the high end the capacity ratio, the
 * low end 0 unless the PFs in use are near their capacity. */
static void
capacity_gain(struct pd_findings *out, struct pd_finding *f, double now,
    double full, double observed, const char *what)
{
	double r = now > 0 && isfinite(full / now) ? full / now : 1;

	f->gain_hi = pd_gain_tenths(r);
	f->gain_lo = observed >= NEAR_LIMIT * now ? pd_gain_tenths(1 +
	    (r - 1) * REALISED) : 0;
	f->gain_basis = pd_arena_printf(out->arena, "model: with I/O shared "
	    "equally by the PFs in use, the card delivers at most %.1f GB/s "
	    "now and %.1f GB/s %s (the busiest PCIe link or port bounds it); "
	    "the low end is 0 unless the PFs in use are near that limit now "
	    "(observed %.1f GB/s), else %.0f %% of the rise; measured in a "
	    "comparable case: GB10 with ConnectX-7, one link 14.8 GB/s, "
	    "both links 28.9 GB/s", now, full, what, observed, 100 * REALISED);
}

/* ---- nvme.multipath-iopolicy ---- */

struct mp {
	const struct pd_nvme_subsys *s[PD_NVME_MAX_SUBSYS];
	unsigned n;
	const struct pd_card *card;	/* holding most of their paths */
	bool paths[PD_CARD_MAX_PFS];	/* card PFs their paths leave from */
	bool now[PD_CARD_MAX_PFS];	/* ... that carry I/O now */
	unsigned n_subnet, n_unjoined;
	const char *numa_why;
	bool policy_unknown;
};

/* Why every path of s is NUMA-local, or NULL when not known to be. */
static const char *
one_node(const struct pd_host *h, const struct pd_nvme_subsys *s,
    struct pd_arena *a)
{
	int node = -1;

	if (h->n_numa_nodes == 1)
		return "the host has one NUMA node (lscpu)";
	for (const struct pd_nvme_path *p = s->paths; p; p = p->next) {
		const struct pd_pcidev *pf = pd_nvme_path_pf(p);

		if (!live(p))
			continue;
		if (!pf || pf->numa_node < 0 || (node >= 0 &&
		    pf->numa_node != node))
			return NULL;
		node = pf->numa_node;
	}
	return node >= 0 ? pd_arena_printf(a, "every path's NIC sits on "
	    "NUMA node %d", node) : NULL;
}

static unsigned
live_paths(const struct pd_nvme_subsys *s)
{
	unsigned n = 0;

	for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
		n += live(p);
	return n;
}

/* The card most of the paths leave from, and which of its PFs. */
static void
mp_card(const struct pd_host *h, struct mp *m)
{
	unsigned best = 0;

	for (const struct pd_card *c = h->cards; c; c = c->next) {
		unsigned n = 0;

		for (unsigned k = 0; k < m->n; k++)
			for (const struct pd_nvme_path *p = m->s[k]->paths; p;
			    p = p->next)
				n += live(p) && card_index(c,
				    pd_nvme_path_pf(p)) >= 0;
		if (n > best) {
			best = n;
			m->card = c;
		}
	}
	bool idle[PD_CARD_MAX_PFS], rates, known = m->card &&
	    pd_card_idle_pfs(m->card, idle, &rates);

	for (unsigned k = 0; k < m->n; k++) {
		bool first = true;

		for (const struct pd_nvme_path *p = m->s[k]->paths; p;
		    p = p->next) {
			if (!live(p))
				continue;
			m->n_subnet += p->join == PD_NVME_JOIN_SUBNET;
			m->n_unjoined += !pd_nvme_path_pf(p);
			int i = m->card ? card_index(m->card,
			    pd_nvme_path_pf(p)) : -1;

			if (i < 0)
				continue;
			m->paths[i] = true;
			/* the receive counters say which path carries it (as
			 * nic.idle-pf reads them); without them the first
			 * live path, as numa picks it */
			if (known && m->card->pfs[i]->path.rx_known ? !idle[i] :
			    first)
				m->now[i] = true;
			first = false;
		}
	}
}

/* n_paths: the most live paths of one subsystem (each spreads its own
 * I/O over its own paths). */
static void
mp_gain(struct pd_findings *out, struct pd_finding *f, const struct mp *m,
    unsigned n_paths)
{
	bool any = false;
	double observed = 0;

	for (unsigned i = 0; m->card && i < m->card->n_pfs; i++) {
		any = any || m->now[i];
		if (m->now[i] && rx_rate(m->card->pfs[i]) > 0)
			observed += rx_rate(m->card->pfs[i]) / 1e9;
	}
	if (any) {
		capacity_gain(out, f, capacity(m->card, m->now),
		    capacity(m->card, m->paths), observed, "with I/O over "
		    "every path's PF");
		return;
	}
	/* paths not joined to a card: each path alike */
	f->gain_lo = 0;
	f->gain_hi = (int)(n_paths - 1) * 1000;
	f->gain_basis = pd_arena_printf(out->arena, "model: with round-robin "
	    "a subsystem's I/O spreads over up to %u paths instead of one, up "
	    "to %ux one path's ceiling if the paths are alike and the path "
	    "bounds it; "
	    "the bundle does not tie the paths to NICs (add ip addr with "
	    "nvme list-subsys), so the low end is 0", n_paths, n_paths);
}

static void
mp_confidence(struct pd_finding *f, const struct mp *m, bool rates)
{
	f->confidence = 85;
	f->confidence_note = NULL;
	if (m->policy_unknown) {
		f->confidence = 45;
		f->confidence_note = "the bundle shows no iopolicy (nvme-cli 1.x "
		    "prints none): numa is the kernel's default; add "
		    "grep -H . /sys/class/nvme-subsystem/*/iopolicy";
	} else if (m->n_unjoined) {
		f->confidence = 60;
		f->confidence_note = "some paths are not tied to a NIC (add ip "
		    "addr), so which PFs they use is not known";
	} else if (m->n_subnet) {
		f->confidence = 70;
		f->confidence_note = "paths tied to their NIC by the target's "
		    "subnet only (no host_iface, host_traddr or src_addr): a "
		    "route the bundle does not show could send them elsewhere";
	} else if (!rates) {
		f->confidence = 70;
		f->confidence_note = "no receive rates: the path numa chose is "
		    "taken as the first one listed";
	}
}

static void
mp_fix(struct pd_findings *out, struct pd_finding *f, const struct mp *m)
{
	for (unsigned k = 0; k < m->n && f->n_fix < PD_MAX_FIX - 3; k++)
		pd_finding_fix(out, f, "echo round-robin | sudo tee /sys/class/"
		    "nvme-subsystem/%s/iopolicy", m->s[k]->name);
	pd_finding_fix(out, f, "echo 'options nvme_core iopolicy=round-robin' "
	    "| sudo tee /etc/modprobe.d/nvme-iopolicy.conf");
	pd_finding_fix(out, f, "# that makes it persistent for new subsystems; "
	    "rebuild the initramfs if nvme_core loads from it "
	    "(update-initramfs -u, or dracut -f)");
	pd_finding_fix(out, f, "# kernel 6.11 and later also offer "
	    "queue-depth, which favours the path with fewer I/Os in flight");
	f->verify = pd_arena_printf(out->arena, "iopolicy reads round-robin, "
	    "and under load the PF of every path receives.\ncat /sys/class/"
	    "nvme-subsystem/%s/iopolicy\nnvme list-subsys", m->s[0]->name);
}

static void
mp_emit(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, struct mp *m)
{
	const char *subject = "", *policy = m->policy_unknown ?
	    "iopolicy unknown (numa by default)" : "iopolicy numa";
	unsigned n_paths = 0, most = 0;
	bool rates = true;

	for (unsigned k = 0; k < m->n; k++) {
		unsigned n = live_paths(m->s[k]);

		subject = pd_arena_printf(out->arena, "%s%s%s", subject,
		    k ? ", " : "", m->s[k]->name);
		n_paths += n;
		most = n > most ? n : most;
	}
	mp_card(h, m);
	for (unsigned i = 0; m->card && i < m->card->n_pfs; i++)
		if (m->paths[i])
			rates = rates && rx_rate(m->card->pfs[i]) >= 0;
	struct pd_finding *f = pd_finding_new(out, self, h, subject);
	bool idle[PD_CARD_MAX_PFS];

	for (unsigned i = 0; i < PD_CARD_MAX_PFS; i++)
		idle[i] = m->card && i < m->card->n_pfs && m->paths[i] &&
		    !m->now[i];
	pd_finding_summary(out, f, "%s: %u live paths with %s, and %s, so "
	    "every CPU picks the same path and all I/O takes one path per "
	    "subsystem%s%s%s.", subject, n_paths, policy, m->numa_why,
	    m->card ? "; idle now: " : "", m->card ? pf_list(out->arena,
	    m->card, idle) : "", m->card && rates ? " (receive rates)" :
	    m->card ? " (the first path taken as the one in use)" : "");
	mp_gain(out, f, m, most);
	mp_confidence(f, m, rates);
	if (m->card && rates && !m->policy_unknown) {
		f->lever = (struct pd_lever){ .kind = PD_LEVER_PFS,
			.card = m->card };
		for (unsigned i = 0; i < m->card->n_pfs; i++)
			f->lever.pf_mask |= (unsigned)m->paths[i] << i;
	}
	f->risk = PD_RISK_LOW;
	f->risk_note = "round-robin ignores NUMA distance: on a host with "
	    "several nodes and paths on each it adds cross-node traffic (not "
	    "here); a slower path gets an equal share of the I/O";
	mp_fix(out, f, m);
	for (unsigned k = 0; k < m->n; k++) {
		pd_finding_evidence(f, &m->s[k]->ev_iopolicy);
		for (const struct pd_nvme_path *p = m->s[k]->paths; p;
		    p = p->next)
			if (live(p))
				pd_finding_evidence(f, &p->ev);
	}
	pd_finding_evidence(f, &h->ev_numa);
}

static void
check_iopolicy(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	struct mp *m = pd_arena_alloc(out->arena, sizeof(*m));

	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next) {
		const char *why;

		if (live_paths(s) < 2 || (s->iopolicy &&
		    strcmp(s->iopolicy, "numa") != 0))
			continue;
		if (!(why = one_node(h, s, out->arena)))
			continue;
		if (m->n == 0)
			m->numa_why = why;
		m->policy_unknown = m->policy_unknown || !s->iopolicy;
		m->s[m->n++] = s;
	}
	if (m->n)
		mp_emit(self, h, out, m);
}

/* ---- nvme.paths-per-pf ---- */

struct confine {
	bool path[PD_CARD_MAX_PFS];	/* carries a live path */
	bool named[PD_CARD_MAX_PFS];	/* no path, idle or rates unknown */
	bool by_link;			/* else by port */
	bool rates;
	unsigned n_subnet, n_paths;
	const char *transport;		/* "tcp", "rdma"; "tcp" when mixed */
	const char *kind;		/* "NVMe/TCP", "NVMe/RDMA", "NVMe-oF" */
};

static bool
same_link(const struct pd_pcidev *a, const struct pd_pcidev *b)
{
	return pd_same_link(&a->path, &b->path);
}

/* A PF whose link (by_link) or port no path uses. */
static bool
unused(const struct pd_card *c, const struct confine *cf, unsigned i,
    bool by_link)
{
	for (unsigned k = 0; k < c->n_pfs; k++)
		if (cf->path[k] && (by_link ? same_link(c->pfs[i], c->pfs[k]) :
		    c->pfs[i]->fn == c->pfs[k]->fn))
			return false;
	return true;
}

static bool
confine_view(const struct pd_host *h, const struct pd_card *c,
    struct confine *cf)
{
	bool idle[PD_CARD_MAX_PFS], known, hit = false;

	memset(cf, 0, sizeof(*cf));
	for (unsigned i = 0; i < c->n_pfs; i++) {
		cf->path[i] = pd_nvme_pf_paths(h, c->pfs[i]) > 0;
		hit = hit || cf->path[i];
	}
	if (!hit)
		return false;
	known = pd_card_idle_pfs(c, idle, &cf->rates);
	for (int pass = 0; pass < 2; pass++) {
		bool other = false;

		cf->by_link = pass == 0;
		for (unsigned i = 0; i < c->n_pfs; i++) {
			bool cand = c->pfs[i]->netdev && !cf->path[i] &&
			    (!known || idle[i]);

			cf->named[i] = cand;
			other = other || (cand && unused(c, cf, i, cf->by_link));
		}
		if (other)
			break;
		if (pass == 1)
			return false;
	}
	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next)
		for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
			if (live(p) && card_index(c, pd_nvme_path_pf(p)) >= 0) {
				bool tcp = strcmp(p->transport, "tcp") == 0;

				cf->n_paths++;
				cf->n_subnet += p->join == PD_NVME_JOIN_SUBNET;
				cf->kind = !cf->kind || strcmp(cf->kind, tcp ?
				    "NVMe/TCP" : "NVMe/RDMA") == 0 ? (tcp ?
				    "NVMe/TCP" : "NVMe/RDMA") : "NVMe-oF";
			}
	cf->transport = cf->kind && strcmp(cf->kind, "NVMe/RDMA") == 0 ?
	    "rdma" : "tcp";
	return true;
}

bool
pd_nvme_paths_confined(const struct pd_host *h, const struct pd_card *c)
{
	struct confine cf;

	return confine_view(h, c, &cf);
}

/* A subsystem of the host with a live fabric path on card c. */
static bool
on_card(const struct pd_nvme_subsys *s, const struct pd_card *c)
{
	for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
		if (live(p) && ip_fabric(p) && card_index(c,
		    pd_nvme_path_pf(p)) >= 0)
			return true;
	return false;
}

/* One connect per subsystem on the card and PF named, as many as the
 * fix list holds, then how to make them persistent. */
static void
confine_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_host *h, const struct pd_card *c,
    const struct confine *cf)
{
	unsigned left = 0;

	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next) {
		if (!on_card(s, c))
			continue;
		for (unsigned i = 0; i < c->n_pfs; i++) {
			if (!cf->named[i])
				continue;
			if (f->n_fix >= PD_MAX_FIX - 2) {
				left++;
				continue;
			}
			pd_finding_fix(out, f, "sudo nvme connect -t %s -n %s -a "
			    "TARGET-ADDRESS-REACHED-THROUGH-%s -s 4420 "
			    "--host-iface=%s", cf->transport, s->nqn ? s->nqn :
			    s->name, c->pfs[i]->netdev->name,
			    c->pfs[i]->netdev->name);
		}
	}
	if (left)
		pd_finding_fix(out, f, "# and %u more alike: one controller of "
		    "every subsystem through every PF", left);
	pd_finding_fix(out, f, "# each PF its own address and subnet; persist "
	    "the paths in /etc/nvme/discovery.conf or /etc/nvme/config.json "
	    "with host-iface, and keep iopolicy round-robin");
}

static void
confine_emit(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_card *c,
    const struct confine *cf)
{
	struct pd_arena *a = out->arena;
	const char *subject = pf_list(a, c, cf->named);
	struct pd_finding *f = pd_finding_new(out, self, h, subject);
	bool all[PD_CARD_MAX_PFS];
	double observed = 0;

	for (unsigned i = 0; i < c->n_pfs; i++) {
		all[i] = c->pfs[i]->netdev != NULL;
		if (cf->path[i] && rx_rate(c->pfs[i]) > 0)
			observed += rx_rate(c->pfs[i]) / 1e9;
	}
	pd_finding_summary(out, f, "%u %s paths all enter through %s, "
	    "the PFs of one %s of a card that has more, so the other %s "
	    "carries nothing; no path leaves from %s.", cf->n_paths, cf->kind,
	    pf_list(a, c, cf->path), cf->by_link ? "PCIe link" : "port",
	    cf->by_link ? "link" : "port", subject);
	capacity_gain(out, f, capacity(c, cf->path), capacity(c, all),
	    observed, "through every PF");
	f->confidence = cf->rates ? 85 : 50;
	f->confidence_note = cf->rates ? NULL : "no receive rates: the PFs "
	    "without a path may carry other traffic; take two ethtool -S "
	    "snapshots some seconds apart";
	if (cf->n_subnet) {
		f->confidence -= 15;
		f->confidence_note = pd_arena_printf(a, "%u of the %u paths are "
		    "tied to their PF by the target's subnet only (no "
		    "host_iface, host_traddr or src_addr): a route the bundle "
		    "does not show could send them elsewhere%s%s", cf->n_subnet,
		    cf->n_paths, f->confidence_note ? "; " : "",
		    f->confidence_note ? f->confidence_note : "");
	}
	if (cf->rates)
		f->lever = (struct pd_lever){ .kind = PD_LEVER_ALL_PFS,
			.card = c };
	f->risk = PD_RISK_LOW;
	f->risk_note = "new paths join the subsystems without disturbing I/O "
	    "in flight; with iopolicy numa on a one-node host they would stay "
	    "unused (nvme.multipath-iopolicy)";
	confine_fix(out, f, h, c, cf);
	f->verify = "nvme list-subsys shows a path through every PF, and under "
	    "load each PF's rx_bytes climbs.\nnvme list-subsys";
	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next)
		for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
			if (live(p) && card_index(c, pd_nvme_path_pf(p)) >= 0)
				pd_finding_evidence(f, &p->ev);
	for (unsigned i = 0; i < c->n_pfs; i++)
		if (cf->named[i] && c->pfs[i]->netdev)
			pd_finding_evidence(f, &c->pfs[i]->netdev->
			    ctr[PD_CTR_RX_BYTES].ev_last);
}

static void
check_paths_per_pf(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		struct confine cf;

		if (c->n_pfs >= 2 && confine_view(h, c, &cf))
			confine_emit(self, h, out, c, &cf);
	}
}

static const char *const nvme_links[] = {
	/* iopolicy numa, round-robin, queue-depth */
	"https://docs.kernel.org/admin-guide/nvme-multipath.html",
	"https://github.com/linux-nvme/nvme-cli/blob/master/Documentation/"
	    "nvme-list-subsys.txt",
	"https://github.com/linux-nvme/nvme-cli/blob/master/Documentation/"
	    "nvme-connect.txt",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "nvme.multipath-iopolicy",
		.title = "NVMe native multipath sends all I/O down one path "
		    "(iopolicy numa on one NUMA node)",
		.doc = "Native NVMe multipath picks a path per I/O by the "
		    "subsystem's iopolicy (/sys/class/nvme-subsystem/"
		    "nvme-subsysN/iopolicy).  The default, numa, caches for "
		    "each NUMA node the path nearest to it and uses only that "
		    "one; on a host with one NUMA node (lscpu), or whose paths "
		    "all leave from NICs on one node, every CPU gets the same "
		    "path, so a subsystem with two or more live paths (nvme "
		    "list-subsys) runs all its I/O through one.  round-robin "
		    "spreads it over the paths.  Fires for a subsystem with "
		    "two or more live paths at iopolicy numa, or with no "
		    "iopolicy in the bundle (numa by default, confidence 45), "
		    "when the paths are NUMA-local.  Gain: the paths' PFs "
		    "joined through ip addr (host_iface, the host address, "
		    "else the target's subnet): capacity with I/O shared "
		    "equally by every path's PF over capacity with the PFs in "
		    "use now (receive rates, else the first path), each link "
		    "at its payload ceiling and each port at its goodput; on "
		    "the path ladder when the paths leave from the host's "
		    "busiest card and rates show which carry I/O.  GB10 with "
		    "ConnectX-7: one Gen5 x4 link 14.8 GB/s, both 28.9.  "
		    "Without the join: 0 to (paths - 1) x 100 %.  Confidence "
		    "85, 70 for a subnet-only join or no rates, 60 with paths "
		    "not tied to a NIC.",
		.links = nvme_links,
		.needs = PD_HAVE_NVME,
		.check = check_iopolicy,
	},
	{
		.id = "nvme.paths-per-pf",
		.title = "Every NVMe/TCP controller enters through the PFs of "
		    "one PCIe link or port",
		.doc = "A multi-link adapter such as the ConnectX-7 of the GB10 "
		    "(two Gen5 x4 links, each carrying one PF of each 200G "
		    "port) moves data only over the links whose PFs carry "
		    "traffic.  The NVMe/TCP and RDMA paths of nvme list-subsys, "
		    "tied to their PF through ip addr (host_iface, the host "
		    "address, else the target's subnet), show which.  Fires "
		    "when every live path enters through the PFs of one link "
		    "(or, across links, of one port) while the card has PFs "
		    "on another that carry no path and receive under 1 % of "
		    "the busiest PF (or have no counters).  It is the storage "
		    "twin of nic.idle-pf and agrees with it: a PF with a path "
		    "is never idle there, and both name the PFs that have no "
		    "path and receive nothing.  Gain: capacity through every "
		    "PF over capacity through the path PFs, with I/O shared "
		    "equally (each link's payload ceiling, each port's "
		    "goodput); the low end 0 unless the path PFs are at 80 % "
		    "of their capacity, else 95 % of the rise; GB10 one link "
		    "14.8 GB/s, both 28.9.  On the ladder (every PF in use) "
		    "with rates from two snapshots.  Confidence 85 with "
		    "rates, 50 without, 15 less when a path is tied to its "
		    "PF by subnet only.",
		.physical = true,
		.links = nvme_links,
		.needs = PD_HAVE_NVME | PD_HAVE_IPADDR | PD_HAVE_NETDEV_PCI,
		.check = check_paths_per_pf,
	},
};

const struct pd_rule_group pd_rules_nvme = {
	.name = "nvme",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

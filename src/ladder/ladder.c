/* The ladder: from the observed throughput, the fixes in the order that
 * raises the path most at each step, each step's low, expected and high
 * throughput capped by what binds next, and the findings' gains taken
 * from their step. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "ladder/path.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/rule.h"

#define GAIN_EPS 1e-9	/* GB/s: equal outcomes compare equal */

const char *
pd_ladder_dir_name(enum pd_ladder_dir d)
{
	return d == PD_LADDER_TRANSMIT ? "transmit" : "receive";
}

static const char *
rate(struct pd_arena *a, double gbs)
{
	return pd_rate_str(a, gbs * 1e9);
}

/* The unmade fix that leaves the path carrying most; ties go to the
 * higher high end, then to the finding ranked first. */
static int
next_fix(const struct path *p, unsigned mask)
{
	int best = -1;
	double b_exp = 0, b_hi = 0;

	for (unsigned i = 0; i < p->n_fix; i++) {
		if ((mask >> i) & 1u)
			continue;
		unsigned m = mask | 1u << i;
		double e = pd_path_eval(p, m, (int)i, EST_EXP, EST_EXP).gbs;
		double h = pd_path_eval(p, m, (int)i, EST_HI, EST_HI).gbs;

		if (best < 0 || e > b_exp + GAIN_EPS ||
		    (fabs(e - b_exp) <= GAIN_EPS && h > b_hi + GAIN_EPS)) {
			best = (int)i;
			b_exp = e;
			b_hi = h;
		}
	}
	return best;
}

/* What the fix changes, in words, for the step's basis. */
static const char *
lever_text(const struct path *p, const struct pd_lever *lv,
    const struct outcome *o)
{
	struct pd_arena *a = p->a;

	switch (lv->kind) {
	case PD_LEVER_IOMMU_LAZY:
		if (p->binds == BIND_CPU)
			return pd_arena_printf(a, "lazy invalidation frees "
			    "%s' %.0f %% of busy time: at least the Amdahl "
			    "bound 1/(1-f) = %.2fx (the low end); measured on "
			    "GB10 (f = 0.57: 3.9x against a 2.3x bound, the "
			    "invalidation queue's lock serialising the other "
			    "cores) the reads then rose until the hardware bound "
			    "them, so the expected and high ends are %s",
			    pd_prof_group_cores(a, lv->cores, true),
			    100 * lv->f_self, pd_amdahl(lv->f_self),
			    lv->f_self >= 0.3 ? "what binds next" :
			    "the Amdahl bound with what runs below it");
		return pd_arena_printf(a, "lazy invalidation returns what "
		    "strict-mode translation costs the links (the "
		    "iommu-translation stage)%s", lv->f_self > 0 ?
		    pd_arena_printf(a, " and %.0f %% of %s' busy time",
		    100 * lv->f_self, pd_prof_group_cores(a, lv->cores,
		    true)) : "");
	case PD_LEVER_MPS:
		return pd_arena_printf(a, "MaxPayload %d raises each link's TLP "
		    "payload efficiency to %.1f %%%s", lv->mps_to,
		    100 * pd_pcie_tlp_eff(lv->mps_to), p->strict &&
		    !(p->iommu && p->iommu == lv) ? pd_arena_printf(a, ", and "
		    "strict-mode translation, whose work grows with the TLPs "
		    "per byte, costs %.1f %% instead of %.1f %% while strict "
		    "mode lasts", 100 * pd_strict_xlate_loss(lv->mps_to),
		    100 * pd_strict_xlate_loss(p->pf[0].mps)) : "");
	case PD_LEVER_LINK_TRAIN:
		return pd_arena_printf(a, "the link at its capability carries "
		    "%.2f GB/s raw", pd_pcie_raw_gbs(lv->mts_to, lv->width_to));
	case PD_LEVER_ALL_PFS:
		return "traffic through every PF spreads it over all the card's "
		    "links and ports";
	case PD_LEVER_PFS:
		return "round-robin spreads each subsystem's I/O equally over "
		    "its paths, so the PFs they leave from all carry it";
	case PD_LEVER_EFFICIENCY:
		return pd_arena_printf(a, "returns %.0f to %.0f %% of the "
		    "throughput where the hardware binds", 100 * lv->share_lo,
		    100 * lv->share_hi);
	case PD_LEVER_CPU_FREQ:
		return pd_arena_printf(a, "the cores' full frequency raises "
		    "what the CPU carries while it binds by %.0f to %.0f %% "
		    "(the ratio of the frequencies for work that scales with "
		    "the clock)", 100 * lv->share_lo, 100 * lv->share_hi);
	case PD_LEVER_SW_GSO:
		return pd_arena_printf(a, "without software segmentation the "
		    "flow runs until %s binds; expected: the measured +%.0f %% "
		    "(Proxmox guest behind an RTL8125, 1.76 -> 2.13 Gbit/s)",
		    o->hw_binds, 100 * (lv->share_lo + lv->share_hi) / 2);
	case PD_LEVER_MRRS:
		return pd_arena_printf(a, "MaxReadReq %d lets the root complex "
		    "answer the device's reads in completions of up to "
		    "MaxPayload, TLP payload efficiency %.1f %%", lv->mrrs_to,
		    100 * pd_pcie_tlp_eff(lv->mrrs_to < p->pf[0].mps ?
		    lv->mrrs_to : p->pf[0].mps));
	case PD_LEVER_PORT_SPEED:
		return pd_arena_printf(a, "the port of %s at %d Mb/s carries "
		    "%.3f GB/s of TCP payload at MTU %d", lv->netdev->name,
		    lv->speed_to, pd_port_goodput_gbs(lv->speed_to,
		    lv->netdev->mtu), lv->netdev->mtu > 0 ? lv->netdev->mtu :
		    1500);
	case PD_LEVER_NONE:
		break;
	}
	return "";
}

/* The fix as an action, for the verdict and the table. */
static const char *
fix_label(struct pd_arena *a, const struct pd_finding *f)
{
	const struct pd_lever *lv = &f->lever;
	char ln[32];

	if (lv->label)
		return lv->label;
	switch (lv->kind) {
	case PD_LEVER_IOMMU_LAZY:
		return "lazy IOMMU invalidation, iommu.strict=0";
	case PD_LEVER_MPS:
		return pd_arena_printf(a, "MaxPayload %d on %s", lv->mps_to,
		    f->subject);
	case PD_LEVER_LINK_TRAIN:
		pd_link_name(ln, sizeof(ln), lv->mts_to, lv->width_to);
		return pd_arena_printf(a, "the link of %s trained at %s",
		    f->subject, ln);
	case PD_LEVER_ALL_PFS:
		return pd_arena_printf(a, "traffic through every PF (now idle: "
		    "%s)", f->subject);
	case PD_LEVER_SW_GSO:
		return "the guest's gso_max_size below the physical NIC's";
	case PD_LEVER_PFS:
		return pd_arena_printf(a, "NVMe I/O over every path (%s)",
		    f->subject);
	case PD_LEVER_MRRS:
		return pd_arena_printf(a, "MaxReadReq %d on %s", lv->mrrs_to,
		    f->subject);
	case PD_LEVER_PORT_SPEED:
		return pd_arena_printf(a, "%s linked at %d Mb/s",
		    lv->netdev->name, lv->speed_to);
	case PD_LEVER_CPU_FREQ:
		return pd_arena_printf(a, "the CPU frequency cap lifted on %s",
		    f->subject);
	case PD_LEVER_EFFICIENCY:
	case PD_LEVER_NONE:
		break;
	}
	return pd_arena_printf(a, "%s on %s", f->rule->id, f->subject);
}

static void
set_finding(const struct path *p, struct pd_ladder_step *s, unsigned n,
    double before)
{
	struct pd_finding *f = s->finding;

	f->ladder_step = n;
	f->gain_lo = pd_gain_tenths(s->lo / 1e9 / before);
	f->gain_hi = pd_gain_tenths(s->hi / 1e9 / before);
	f->gain_basis = pd_arena_printf(p->a, "ladder step %u on %s: %s "
	    "(the rule's own model: %s)", n, p->h->name, s->basis,
	    f->gain_basis ? f->gain_basis : "none");
}

void
pd_ladder_climb(const struct path *p, struct pd_ladder *l)
{
	unsigned mask = 0;
	double prev = p->observed;

	while (l->n_steps < p->n_fix) {
		int i = next_fix(p, mask);
		unsigned m = mask | 1u << i;
		struct outcome was = pd_path_eval(p, mask, -1, EST_EXP, EST_EXP);
		struct outcome o = pd_path_eval(p, m, i, EST_EXP, EST_EXP);
		/* a fix that leaves the binding hardware ceiling as it was
		 * keeps the share of it realised so far */
		bool same_hw = was.by_hw && o.by_hw &&
		    fabs(was.hw_ideal - o.hw_ideal) < GAIN_EPS;
		double lo = pd_path_eval(p, m, i, EST_LO, same_hw ? EST_EXP :
		    EST_LO).gbs;
		double hi = pd_path_eval(p, m, i, EST_HI, same_hw ? EST_EXP :
		    EST_HI).gbs;
		double e = o.gbs < prev ? prev : o.gbs;
		struct pd_ladder_step *s = &l->steps[l->n_steps];

		lo = lo < prev ? prev : lo > e ? e : lo;
		hi = hi < e ? e : hi;
		*s = (struct pd_ladder_step){ .finding = p->fix[i].f,
			.fix = fix_label(p->a, p->fix[i].f),
			.lo = lo * 1e9, .expected = e * 1e9, .hi = hi * 1e9,
			.bottleneck_after = o.binds };
		s->basis = pd_arena_printf(p->a, "%s; from %s to %s .. %s, "
		    "expected %s (%s); what binds next: %s%s",
		    lever_text(p, p->fix[i].lv, &o), rate(p->a, prev),
		    rate(p->a, lo), rate(p->a, hi), rate(p->a, e),
		    e > prev + GAIN_EPS ? pd_arena_printf(p->a, "%+.1f %%",
		    100 * (e / prev - 1)) : "no gain while it binds", o.binds,
		    same_hw || (lo >= e && hi <= e) ? "" : "; low and high "
		    "ends: 90 and 99 % of a hardware ceiling realised "
		    "(measured 91 to 99 % on GB10 and the Proxmox host)");
		l->n_steps++;
		set_finding(p, s, l->n_steps, prev);
		mask = m;
		prev = e;
	}
}

static void
ceiling(const struct path *p, struct pd_ladder *l)
{
	unsigned all = p->n_fix ? (1u << p->n_fix) - 1 : 0;
	struct outcome o = pd_path_eval(p, all, -1, EST_EXP, EST_EXP);

	l->ceiling = isfinite(o.hw_ideal) ? o.hw_ideal * 1e9 : 0;
	l->ceiling_stage = o.hw_binds;
	l->ceiling_basis = pd_arena_printf(p->a, "%s with every fix on this "
	    "ladder made, as the stages' arithmetic gives it", o.hw_binds);
}

static const char *
fix_list(const struct path *p, const struct pd_ladder *l)
{
	const char *s = "";

	for (unsigned i = 0; i < l->n_steps; i++) {
		const struct pd_ladder_step *st = &l->steps[i];

		s = pd_arena_printf(p->a, "%s Fix %u (%s): %s -> about %s.", s,
		    i + 1, st->finding->rule->id, st->fix,
		    rate(p->a, st->expected / 1e9));
	}
	return s;
}

/* "reads" for a storage workload's reads, else what the NIC does. */
static const char *
verb(const struct path *p)
{
	bool storage = strcmp(p->source, "fio") == 0 ||
	    strcmp(p->source, "spdk_nvme_perf") == 0;

	if (p->dir == PD_LADDER_RECEIVE)
		return storage ? "reads" : "receives";
	return storage ? "writes" : "sends";
}

static void
verdict(const struct path *p, struct pd_ladder *l)
{
	double share = l->ceiling > 0 ? p->observed * 1e9 / l->ceiling : 0;

	bool net = strcmp(p->source, "iperf3") == 0;

	l->verdict = pd_arena_printf(p->a, "%s %s at %s%s (%s: %s), %.0f %% of "
	    "the %s ceiling of %s. The bottleneck is %s: %s.%s",
	    p->h->name, verb(p), rate(p->a, p->observed), net ?
	    pd_arena_printf(p->a, " = %.2f Gbit/s", p->observed * 8) : "",
	    p->source, p->what,
	    100 * share, rate(p->a, l->ceiling / 1e9), l->ceiling_stage,
	    l->bottleneck, p->binds_how, l->n_steps ? fix_list(p, l) :
	    " No fix on this path is left.");
}

/* The climbed model, kept for pd_ladder_predict. */
struct pd_ladder_path {
	struct path p;
};

static struct pd_ladder *
ladder_of(const struct path *p)
{
	struct pd_ladder *l = pd_arena_alloc(p->a, sizeof(*l));
	struct outcome now = pd_path_eval(p, 0, -1, EST_EXP, EST_EXP);
	struct pd_ladder_path *kept = pd_arena_alloc(p->a, sizeof(*kept));

	kept->p = *p;
	l->path = kept;

	l->host = p->h;
	l->dir = p->dir;
	l->observed = p->observed * 1e9;
	l->observed_source = p->source;
	l->observed_what = p->what;
	l->observed_ev = p->ev;
	l->bottleneck = now.binds;
	l->bottleneck_how = p->binds_how;
	pd_path_stages(p, l);
	pd_ladder_climb(p, l);
	ceiling(p, l);
	verdict(p, l);
	return l;
}

struct pd_ladder *
pd_ladders_build(const struct pd_model *m, struct pd_findings *fs,
    struct pd_ladder_gap **gaps)
{
	struct pd_ladder *head = NULL, **tail = &head;
	struct pd_ladder_gap **gtail = gaps;

	*gaps = NULL;
	pd_findings_rank(fs);	/* the fixes' order breaks ties */
	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		struct path p;
		const char *needs;

		if (!pd_path_build(&p, h, fs, &needs)) {
			if (!needs)
				continue;
			*gtail = pd_arena_alloc(fs->arena, sizeof(**gtail));
			(*gtail)->host = h;
			(*gtail)->needs = needs;
			gtail = &(*gtail)->next;
			continue;
		}
		*tail = ladder_of(&p);
		tail = &(*tail)->next;
	}
	pd_findings_rank(fs);
	return head;
}

/* Steps 1..n made, nothing else: step n's numbers, as the ladder
 * printed them. */
static bool
prefix_of(const struct pd_ladder *l, unsigned mask, const struct path *p,
    unsigned *n)
{
	unsigned want = 0;

	for (*n = 0; *n < l->n_steps && want != mask; (*n)++)
		for (unsigned i = 0; i < p->n_fix; i++)
			if (p->fix[i].f == l->steps[*n].finding)
				want |= 1u << i;
	return want == mask && *n > 0;
}

bool
pd_ladder_predict(const struct pd_ladder *l,
    const struct pd_finding *const *made, unsigned n,
    struct pd_ladder_prediction *out)
{
	const struct path *p = &l->path->p;
	unsigned mask = 0, last;

	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < p->n_fix; i++)
			if (p->fix[i].f == made[k])
				mask |= 1u << i;
	if (!mask)
		return false;
	*out = (struct pd_ladder_prediction){ 0 };
	if (prefix_of(l, mask, p, &last)) {
		const struct pd_ladder_step *s = &l->steps[last - 1];

		*out = (struct pd_ladder_prediction){ .lo = s->lo,
			.expected = s->expected, .hi = s->hi,
			.binds = s->bottleneck_after, .from_steps = true,
			.last_step = last };
		return true;
	}
	struct outcome o = pd_path_eval(p, mask, -1, EST_EXP, EST_EXP);
	double e = o.gbs < p->observed ? p->observed : o.gbs;
	double lo = pd_path_eval(p, mask, EVAL_ALL, EST_LO, EST_LO).gbs;
	double hi = pd_path_eval(p, mask, EVAL_ALL, EST_HI, EST_HI).gbs;

	lo = lo < p->observed ? p->observed : lo > e ? e : lo;
	hi = hi < e ? e : hi;
	out->lo = lo * 1e9;
	out->expected = e * 1e9;
	out->hi = hi * 1e9;
	out->binds = o.binds;
	return true;
}

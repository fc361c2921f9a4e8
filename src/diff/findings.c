/* Findings of one host pair: resolved (in BEFORE only), persisting (in
 * both) and new (in AFTER only), each with what changed that bears on
 * it, or why it still holds. */
#include <stdio.h>
#include <string.h>
#include "diff/diff.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "pathdoctor/text.h"

/* The changes that bear on each rule group's findings, as fnmatch
 * patterns over "what:subject". */
static const struct {
	const char *group;
	const char *patterns;	/* space-separated */
} bearing[] = {
	{ "iommu", "cmdline:*iommu* iommu:* kernel:* profile:*" },
	{ "pcie", "maxpayload:* maxreadreq:* link:* cmdline:pci "
	    "pcie-device:*" },
	{ "nic", "rx_rate:* sysctl:* offload:* pause:* driver:* firmware:*" },
	{ "tcp", "gso_*:* tso_*:* gro_max_size:* mtu:* capture*:* "
	    "offload:*segmentation*" },
	{ "workload", "rx_rate:*" },
};

static bool
bears(const struct pd_finding *f, const struct pd_diff_change *ch)
{
	size_t gl = strcspn(f->rule->id, ".");
	char key[256];

	snprintf(key, sizeof(key), "%s:%s", ch->what, ch->subject);
	for (size_t i = 0; i < sizeof(bearing) / sizeof(bearing[0]); i++)
		if (strlen(bearing[i].group) == gl &&
		    strncmp(bearing[i].group, f->rule->id, gl) == 0 &&
		    pd_patterns_match(bearing[i].patterns, key))
			return true;
	return false;
}

#define WHY_CHANGES 4	/* related changes quoted */

static const char *
change_text(struct pd_arena *a, const struct pd_diff_change *ch)
{
	return pd_arena_printf(a, "%s %s: %s -> %s", ch->what, ch->subject,
	    ch->before ? ch->before : "(absent)", ch->after ? ch->after :
	    "(absent)");
}

/* The changes that bear on f, "; "-separated; NULL when none. */
static const char *
related(struct pd_arena *a, const struct pd_diff_host *dh,
    const struct pd_finding *f)
{
	const char *s = NULL;
	unsigned n = 0, more = 0;

	for (const struct pd_diff_change *ch = dh->changes; ch; ch = ch->next) {
		if (!bears(f, ch))
			continue;
		if (n++ < WHY_CHANGES)
			s = pd_arena_printf(a, "%s%s%s", s ? s : "", s ? "; " : "",
			    change_text(a, ch));
		else
			more++;
	}
	if (more)
		s = pd_arena_printf(a, "%s; and %u more", s, more);
	return s;
}

/* Why a strict-invalidation finding holds after the fix. */
static const char *
why_iommu(struct pd_arena *a, const struct pd_host *h)
{
	const struct pd_kv *kv = pd_host_cmdline_last(h, "iommu.strict");

	if (!h->cmdline)
		return NULL;
	if (!kv)
		return pd_arena_printf(a, "iommu.strict=0 is not on AFTER's "
		    "kernel command line (%s): the boot entry was not "
		    "regenerated (update-grub, grub2-mkconfig, grubby) or the "
		    "host not rebooted into it", h->ev_cmdline.member ?
		    h->ev_cmdline.member : "cmdline");
	if (kv->val && strcmp(kv->val, "0") != 0)
		return pd_arena_printf(a, "AFTER's kernel command line still "
		    "says iommu.strict=%s", kv->val);
	return pd_arena_printf(a, "iommu.strict=0 is on AFTER's command line "
	    "but the IOMMU is still %s (%s)", pd_iommu_mode_name(h->iommu.mode),
	    h->iommu.reason ? h->iommu.reason : "reason unknown");
}

/* Why a MaxPayload finding holds: the links still below. */
static const char *
why_mps(struct pd_arena *a, const struct pd_host *h)
{
	const char *s = NULL;

	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->has_express && d->mps > 0 && d->mps_cap > d->mps)
			s = pd_arena_printf(a, "%s%s%s %d (capable of %d)", s ? s :
			    "", s ? ", " : "", d->bdf, d->mps, d->mps_cap);
	if (!s)
		return NULL;
	return pd_arena_printf(a, "MaxPayload still below capability on %s; "
	    "pci=pcie_bus_perf is %son AFTER's command line", s,
	    pd_host_cmdline_pci_opt(h, "pcie_bus_perf") ? "" : "not ");
}

static const char *
persisting_why(struct pd_arena *a, const struct pd_diff_host *dh,
    const struct pd_finding *fb, const struct pd_finding *fa,
    const char **reason)
{
	const char *why = NULL;
	const char *rel = related(a, dh, fb);

	if (fb->lever.kind == PD_LEVER_IOMMU_LAZY)
		why = why_iommu(a, dh->after);
	else if (fb->lever.kind == PD_LEVER_MPS)
		why = why_mps(a, dh->after);
	if (!why)
		why = pd_arena_printf(a, "AFTER: %s", fa->summary);
	*reason = why;
	return pd_arena_printf(a, "%s; %s", why, rel ? pd_arena_printf(a,
	    "what changed that bears on it: %s", rel) : "nothing it rests on "
	    "changed");
}

/* The rule was not evaluated on h, or does not apply to it: why, as a
 * sentence naming side; NULL when it ran. */
static const char *
not_evaluated(struct pd_arena *a, const struct pd_diff_index *x,
    const struct pd_host *h, const struct pd_rule *rule, const char *side)
{
	const struct pd_diff_item *it;
	size_t n = pd_diff_index_find(x, h, PD_DIFF_NOT_EVALUATED, &it);

	for (size_t k = 0; k < n; k++) {
		const struct pd_not_evaluated *e = it[k].item;

		if (e->rule != rule)
			continue;
		const char *s = "";

		for (unsigned i = 0; i < e->n_needs; i++)
			s = pd_arena_printf(a, "%s%s%s", s, i ? "; " : "",
			    e->needs[i]);
		return pd_arena_printf(a, "%s could not evaluate the rule (it "
		    "needs: %s)", side, s);
	}
	n = pd_diff_index_find(x, h, PD_DIFF_NOT_APPLICABLE, &it);
	for (size_t k = 0; k < n; k++) {
		const struct pd_not_evaluated *e = it[k].item;

		if (e->rule == rule)
			return pd_arena_printf(a, "the rule does not apply to %s's "
			    "host: %s", side, e->inapplicable);
	}
	return NULL;
}

/* The devices and interfaces a finding's subject names ("0000:01:00.0,
 * 0000:01:00.1", "nic5 (0002:01:00.0)", "tap100i0 -> enp3s0") that
 * BEFORE's host has and AFTER's lacks; NULL when AFTER has them all or
 * the subject names none.  A finding about hardware that is gone was
 * not fixed: it cannot be seen. */
static const char *
subject_gone(struct pd_arena *a, const struct pd_diff_host *dh,
    const struct pd_finding *f)
{
	const char *gone = NULL;
	unsigned named = 0;

	for (const char *p = f->subject ? f->subject : ""; *p;) {
		size_t n = strcspn(p, " ,()");
		char tok[64];
		unsigned d, b, v, fn;

		if (n && n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			bool bdf = pd_bdf_parse(tok, &d, &b, &v, &fn) == n &&
			    pd_host_find_pcidev(dh->before, tok);
			bool nd = !bdf && pd_host_find_netdev(dh->before, tok);
			bool there = bdf ? pd_host_find_pcidev(dh->after, tok) !=
			    NULL : nd ? pd_host_find_netdev(dh->after, tok) != NULL :
			    true;

			named += bdf || nd;
			if (!there)
				gone = pd_arena_printf(a, "%s%s%s", gone ? gone : "",
				    gone ? ", " : "", tok);
		}
		p += n ? n : 1;
	}
	return named && gone ? pd_arena_printf(a, "%s not in AFTER", gone) :
	    NULL;
}

static struct pd_diff_finding *
entry(struct pd_arena *a, enum pd_diff_state st, const struct pd_finding *fb,
    const struct pd_finding *fa)
{
	struct pd_diff_finding *df = pd_arena_alloc(a, sizeof(*df));

	df->state = st;
	df->before = fb;
	df->after = fa;
	return df;
}

/* A host's findings in rank order, at most cap of them. */
static unsigned
of_host(const struct pd_diff_index *x, const struct pd_host *h,
    const struct pd_finding **out, unsigned cap, bool *more)
{
	const struct pd_diff_item *it;
	size_t n = h ? pd_diff_index_find(x, h, PD_DIFF_FINDING, &it) : 0;

	if (n > cap) {
		*more = true;
		n = cap;
	}
	for (size_t k = 0; k < n; k++)
		out[k] = it[k].item;
	return (unsigned)n;
}

static bool
same_subject(const struct pd_finding *x, const struct pd_finding *y)
{
	return x->subject && y->subject && strcmp(x->subject, y->subject) == 0;
}

/* Each BEFORE finding's partner in AFTER: the same rule and subject,
 * else the same rule (a subject can change with the fix: "nic5, nic6"
 * idle before, "nic6" after); -1 none. */
static void
pair_up(const struct pd_finding **fb, unsigned nb, const struct pd_finding **fa,
    unsigned na, int *partner, bool *taken)
{
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < nb; i++) {
			if (pass == 0)
				partner[i] = -1;
			for (unsigned j = 0; j < na && partner[i] < 0; j++)
				if (!taken[j] && fb[i]->rule == fa[j]->rule &&
				    (pass == 1 || same_subject(fb[i], fa[j]))) {
					partner[i] = (int)j;
					taken[j] = true;
				}
		}
}

/* A host has a few findings per rule and device; past this many on a
 * side, the rest are not compared and the count says so. */
#define FINDINGS_COMPARED 256

void
pd_diff_findings(struct pd_diff_host *dh, const struct pd_diff_index *rb,
    const struct pd_diff_index *ra, struct pd_arena *a)
{
	/* on the stack: a fleet's thousands of host pairs keep nothing */
	const struct pd_finding *fb[FINDINGS_COMPARED], *fa[FINDINGS_COMPARED];
	int partner[FINDINGS_COMPARED];
	bool taken[FINDINGS_COMPARED] = { 0 };
	bool more = false;
	unsigned nb = of_host(rb, dh->before, fb, FINDINGS_COMPARED, &more);
	unsigned na = of_host(ra, dh->after, fa, FINDINGS_COMPARED, &more);

	if (more)
		dh->not_compared = pd_arena_printf(a, "%s%sfindings past the "
		    "first %d of a side", dh->not_compared ? dh->not_compared :
		    "", dh->not_compared ? "; " : "", FINDINGS_COMPARED);
	struct pd_diff_finding *lists[3] = { 0 }, **tails[3];

	for (int k = 0; k < 3; k++)
		tails[k] = &lists[k];
	pair_up(fb, nb, fa, na, partner, taken);
	for (unsigned i = 0; i < nb; i++) {
		struct pd_diff_finding *df;

		if (partner[i] < 0) {
			df = entry(a, PD_DIFF_RESOLVED, fb[i], NULL);
			df->why = related(a, dh, fb[i]);
			df->unverified = !dh->after ? "the host is not in AFTER" :
			    not_evaluated(a, ra, dh->after, fb[i]->rule,
			    "AFTER");
			if (!df->unverified && dh->after)
				df->unverified = subject_gone(a, dh, fb[i]);
			dh->n_resolved++;
		} else {
			df = entry(a, PD_DIFF_PERSISTING, fb[i], fa[partner[i]]);
			df->why = persisting_why(a, dh, fb[i], fa[partner[i]],
			    &df->reason);
			dh->n_persisting++;
		}
		*tails[df->state] = df;
		tails[df->state] = &df->next;
	}
	for (unsigned j = 0; j < na; j++) {
		if (taken[j])
			continue;
		struct pd_diff_finding *df = entry(a, PD_DIFF_NEW, NULL, fa[j]);

		df->why = related(a, dh, fa[j]);
		df->unverified = dh->before ? not_evaluated(a, rb, dh->before,
		    fa[j]->rule, "BEFORE") : "the host is not in BEFORE";
		dh->n_new++;
		*tails[PD_DIFF_NEW] = df;
		tails[PD_DIFF_NEW] = &df->next;
	}
	/* one list: resolved, then persisting, then new */
	*tails[PD_DIFF_PERSISTING] = lists[PD_DIFF_NEW];
	*tails[PD_DIFF_RESOLVED] = lists[PD_DIFF_PERSISTING];
	dh->findings = lists[PD_DIFF_RESOLVED];
}

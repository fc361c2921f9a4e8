/* IOMMU rules.  iommu.strict-invalidation measures the share of CPU
 * samples in IOTLB invalidation code, per core type and over busy (not
 * idle) samples, and ties it to the DMA mode derived in
 * src/finalize/finalize.c from the command line and the architecture. */
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/rule.h"

#define FIRE_SHARE 0.05
/* GB10, kernel NVMe/TCP initiator: f = 0.57, Amdahl 2.33x, measured
 * 3.9x: the invalidation queue's lock serialised the other cores too. */
#define REF_SHARE 0.57
#define REF_MEASURED 3.9

/* Invalidation code of SMMUv3, VT-d and AMD-Vi: exact names, or
 * prefixes where they end in '*'. */
static const char *const invalidation[] = {
	"arm_smmu_cmdq_issue_cmdlist", "arm_smmu_cmdq_poll_until_*",
	"__arm_smmu_cmdq_poll_until_*", "arm_smmu_cmdq_batch_*",
	"arm_smmu_cmdq_shared_*", "arm_smmu_cmdq_build_sync_cmd",
	"__arm_smmu_tlb_inv_range", "arm_smmu_tlb_inv_*",
	"arm_smmu_atc_inv_*", "queue_poll",
	"qi_submit_sync", "qi_flush_*", "qi_check_fault",
	"iommu_flush_iotlb_psi", "cache_tag_flush_*",
	"iommu_completion_wait", "wait_on_sem", "domain_flush_*",
	"amd_iommu_domain_flush_*", "iommu_queue_command_sync", NULL,
};

static bool
is_invalidation(const struct pd_prof_sym *s, void *ctx)
{
	(void)ctx;
	if (!s->kernel)
		return false;
	for (const char *const *p = invalidation; *p; p++) {
		size_t n = strlen(*p);

		if ((*p)[n - 1] == '*' ? strncmp(s->name, *p, n - 1) == 0 :
		    strcmp(s->name, *p) == 0)
			return true;
	}
	return false;
}

struct shares {
	double self[PD_PROF_GROUPS], incl[PD_PROF_GROUPS];
	const struct pd_prof_sym *top;	/* hottest invalidation symbol */
	unsigned worst;			/* group with the largest share */
	double f_self, f_incl;		/* that group's busy shares */
};

static double
busy(const struct pd_prof_group *g)
{
	return g->total - g->idle;
}

static void
measure(const struct pd_profile *p, struct shares *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < p->n_syms; i++) {
		if (!is_invalidation(&p->syms[i], NULL))
			continue;
		if (!s->top)
			s->top = &p->syms[i];
		for (unsigned g = 0; g < p->n_groups; g++)
			s->self[g] += pd_prof_sym_group(p, false, i, g);
	}
	if (p->has_callchain)
		pd_profile_stack_share(p, is_invalidation, NULL, s->incl);
	for (unsigned g = 0; g < p->n_groups; g++) {
		double b = busy(&p->groups[g]);
		double fs = b > 0 ? s->self[g] / b : 0;
		double fi = b > 0 ? s->incl[g] / b : 0;

		if (fi < fs)
			fi = fs;
		if (fs > s->f_self) {
			s->f_self = fs;
			s->f_incl = fi;
			s->worst = g;
		}
	}
}

static const char *
group_list(struct pd_arena *a, const struct pd_profile *p,
    const struct shares *s)
{
	const char *out = "";

	for (unsigned g = 0; g < p->n_groups; g++) {
		double b = busy(&p->groups[g]);

		out = pd_arena_printf(a, "%s%s%s %.1f %% of busy samples "
		    "(%.1f %% of all)%s", out, g ? "; " : "",
		    p->groups[g].name, b > 0 ? 100 * s->self[g] / b : 0,
		    p->groups[g].total > 0 ? 100 * s->self[g] /
		    p->groups[g].total : 0, p->has_callchain ?
		    pd_arena_printf(a, ", %.1f %% with what runs below it",
		    b > 0 ? 100 * (s->incl[g] > s->self[g] ? s->incl[g] :
		    s->self[g]) / b : 0) : "");
	}
	return out;
}

static void
fix_strict(struct pd_findings *out, struct pd_finding *f,
    const struct pd_host *h)
{
	const struct pd_kv *kv = pd_host_cmdline_last(h, "iommu.strict");
	bool explicit_strict = kv && kv->val && strcmp(kv->val, "0") != 0;

	pd_finding_fix(out, f, "# lazy invalidation: add iommu.strict=0 to "
	    "the kernel command line%s", explicit_strict ?
	    " (in place of the iommu.strict=1 it has now)" : "");
	pd_finding_fix(out, f, "sudo grubby --update-kernel=ALL --args="
	    "iommu.strict=0      # Fedora, RHEL");
	pd_finding_fix(out, f, "sudo sed -i 's/^GRUB_CMDLINE_LINUX_DEFAULT=\""
	    "/&iommu.strict=0 /' /etc/default/grub && sudo update-grub   "
	    "# Debian, Ubuntu");
	pd_finding_fix(out, f, "sudo reboot");
	pd_finding_fix(out, f, "# not iommu.passthrough=1 for speed: it "
	    "measured no faster than lazy, and drops translation entirely");
}

/* Lazy or passthrough already: no strict-mode wait to remove. */
static void
gain_lazy(struct pd_finding *f)
{
	f->gain_lo = f->gain_hi = 0;
	f->gain_basis = "no strict-mode wait to remove; the "
	    "invalidation work itself remains";
	f->confidence = 60;	/* the cause is elsewhere, unnamed */
	f->risk = PD_RISK_LOW;
	f->risk_note = "nothing to change on the command line";
	f->verify = "After the workload changes, a new profile shows "
	    "these symbols at a smaller share of the busy samples.\n"
	    "sudo perf record -a -g -o perf.data -- sleep 10\n"
	    "sudo perf report -i perf.data --stdio --sort sym";
}

/* Strict mode: the Amdahl bound of the invalidation share, scaled by
 * the published case where the share is large. */
static void
gain_strict(struct pd_findings *out, struct pd_finding *f,
    const struct pd_host *h, const struct pd_profile *p,
    const struct shares *s)
{
	struct pd_arena *a = out->arena;
	const struct pd_prof_group *g = &p->groups[s->worst];
	double hi = pd_amdahl(s->f_incl);
	double lo = pd_amdahl(s->f_self);

	if (s->f_self >= 0.3 && lo * REF_MEASURED /
	    pd_amdahl(REF_SHARE) > hi)
		hi = lo * REF_MEASURED / pd_amdahl(REF_SHARE);
	f->gain_lo = pd_gain_tenths(lo);
	f->gain_hi = pd_gain_tenths(hi);
	f->gain_basis = pd_arena_printf(a, "model: Amdahl bound "
	    "1/(1-f) with f = %.2f of %s%s busy samples (self)%s; "
	    "measured in a comparable case: NVIDIA GB10 reading "
	    "NVMe/TCP over ConnectX-7, f = 0.57, iommu.strict=0 "
	    "took 6.3 to 24.4 GB/s (3.9x, %.2fx its Amdahl bound, "
	    "because the invalidation queue's lock serialised the "
	    "other cores too; +16 %% with SPDK)%s", s->f_self,
	    g->name, pd_prof_group_plural(g->name) ? "'" : "'s",
	    p->has_callchain ? pd_arena_printf(a,
	    ", %.2f with what runs below it", s->f_incl) : "",
	    REF_MEASURED / pd_amdahl(REF_SHARE), s->f_self >= 0.3 ?
	    "; the high end scales the bound by that factor" :
	    "");
	/* 85: the symbols name the cost and the command
	 * line and architecture say strict; 60 when the mode
	 * is guessed, as the cost may be ATS or lazy flushes */
	f->confidence = h->iommu.mode == PD_IOMMU_STRICT ?
	    85 : 60;
	if (f->confidence < 85)
		f->confidence_note = "the DMA mode is unknown: "
		    "add /proc/cmdline and uname -a";
	f->risk = PD_RISK_MEDIUM;
	f->risk_note = "lazy invalidation lets a device reach "
	    "memory it was just unmapped from until the flush "
	    "queue drains (milliseconds); keep strict for "
	    "untrusted devices (Thunderbolt, PCI passthrough "
	    "to untrusted guests)";
	fix_strict(out, f, h);
	f->verify = "After the reboot the command line holds "
	    "iommu.strict=0, the kernel says its TLB invalidation policy "
	    "is lazy, and a new profile shows these symbols under 5 %.\n"
	    "cat /proc/cmdline\n"
	    "sudo dmesg | grep -i 'TLB invalidation policy'\n"
	    "sudo perf record -a -g -o perf.data -- sleep 10\n"
	    "sudo perf report -i perf.data --stdio --sort sym";
}

/* The share is over all CPUs together: busy little cores, or a core
 * type doing other work, may dilute or hide it; unless the bundle's
 * cpuinfo says the CPUs are all of one type.  The note asks for what
 * is missing: CPU numbers in the profile, or cpuinfo in the bundle. */
static void
share_over_all(struct pd_finding *f, const struct pd_host *h,
    const struct pd_profile *p)
{
	bool cpus = p->groups[0].n_cpus > 0;
	unsigned types = 0;

	for (const struct pd_cpu_type *t = h->cpu_types; t; t = t->next)
		types++;
	if (cpus && types == 1)
		return;		/* one core type: all CPUs is the type */
	f->confidence -= 10;
	f->confidence_note = !cpus ? "the profile has no CPU numbers "
	    "(record with perf record -a, or keep perf script's cpu "
	    "field), so the share is over all CPUs together" :
	    "no per-CPU core types (add /proc/cpuinfo), so the share is "
	    "over all CPUs together";
}

/* How well an event measures CPU time: cycles (any PMU's, with any
 * modifier), then the clocks of perf without a PMU, then an unnamed
 * one; other events (cache misses, branches) count something else. */
static int
time_rank(const char *ev)
{
	if (!ev)
		return 1;
	if (strstr(ev, "cycles") && !strstr(ev, "stalled-cycles") &&
	    !strstr(ev, "bus-cycles"))
		return 3;
	if (strncmp(ev, "cpu-clock", 9) == 0 ||
	    strncmp(ev, "task-clock", 10) == 0)
		return 2;
	return 0;
}

/* The profile of its member this rule reads: the best time event, the
 * first of equals; a member's only profile whatever its event. */
static bool
chosen(const struct pd_host *h, const struct pd_profile *p)
{
	const struct pd_profile *best = NULL;
	unsigned n = 0;

	for (const struct pd_profile *q = h->profiles; q; q = q->next) {
		if (!q->samples || strcmp(q->member, p->member) != 0)
			continue;
		n++;
		if (!best || time_rank(q->event) > time_rank(best->event))
			best = q;
	}
	return best == p && (n == 1 || time_rank(p->event) > 0);
}

static void
check_strict(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	struct pd_arena *a = out->arena;

	for (const struct pd_profile *p = h->profiles; p; p = p->next) {
		struct shares s;

		if (!p->samples || !p->syms || !chosen(h, p))
			continue;
		measure(p, &s);
		if (s.f_self < FIRE_SHARE)
			continue;
		const struct pd_prof_group *g = &p->groups[s.worst];
		struct pd_finding *f = pd_finding_new(out, self, h, "kernel");
		bool lazy = h->iommu.mode == PD_IOMMU_LAZY ||
		    h->iommu.mode == PD_IOMMU_PASSTHROUGH;
		bool many = pd_prof_group_plural(g->name);

		pd_finding_summary(out, f, "%s %s %.1f %% of %s busy samples "
		    "(event %s) in IOMMU invalidation, most in %s (per core "
		    "type: %s)%s. %s", many ? "All CPUs" : g->name, many ?
		    "spend" : "spends",
		    100 * s.f_self, many ? "their" : "its",
		    p->event ? p->event : "unnamed", s.top->name,
		    group_list(a, p, &s), p->has_callchain ? "" : "; without "
		    "call chains, time spent below it is not counted",
		    lazy ? pd_arena_printf(a, "The DMA mode is already %s "
		    "(%s): the per-unmap wait of strict mode is not the cause; "
		    "look at what maps and unmaps this often (small I/O, "
		    "no IOVA caching, ATS invalidations)",
		    pd_iommu_mode_name(h->iommu.mode), h->iommu.reason) :
		    pd_arena_printf(a, "The DMA mode is %s (%s): every unmap "
		    "waits for the IOTLB invalidation to finish",
		    pd_iommu_mode_name(h->iommu.mode), h->iommu.reason ?
		    h->iommu.reason : "unknown"));
		if (lazy) {
			gain_lazy(f);
		} else {
			gain_strict(out, f, h, p, &s);
			f->lever = (struct pd_lever){ .kind = PD_LEVER_IOMMU_LAZY,
				.profile = p, .cores = g->name,
				.f_self = s.f_self, .f_incl = s.f_incl,
				.busy = g->total > 0 ? busy(g) / g->total : 0 };
		}
		if (p->n_groups < 2)
			share_over_all(f, h, p);
		f->ev[f->n_ev++] = (struct pd_evidence){ p->member, 0,
		    pd_arena_printf(a, "%s: %s %.2f %% self of all samples%s",
		    p->event ? p->event : "event unnamed", s.top->name, 100 * s.top->self / p->period,
		    p->has_callchain ? pd_arena_printf(a, ", %.2f %% "
		    "inclusive", 100 * s.top->inclusive / p->period) : "") };
		if (h->iommu.ev.member)
			pd_finding_evidence(f, &h->iommu.ev);
		else if (h->ev_cmdline.member)
			pd_finding_evidence(f, &h->ev_cmdline);
		if (h->ev_arch.member)
			pd_finding_evidence(f, &h->ev_arch);
	}
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const strict_links[] = {
	/* iommu.strict, iommu.passthrough */
	"https://docs.kernel.org/admin-guide/kernel-parameters.html",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "iommu.strict-invalidation",
		.title = "CPU time lost to strict IOMMU invalidation",
		.doc = "In strict mode every DMA unmap waits for the IOMMU to "
		    "invalidate its TLB (arm64 SMMUv3: arm_smmu_cmdq_issue_"
		    "cmdlist; Intel VT-d: qi_submit_sync; AMD: "
		    "iommu_completion_wait).  Fires from 5 % of a core type's "
		    "busy samples.  Gain: at least the Amdahl bound 1/(1-f) "
		    "for a share f; measured on NVIDIA GB10 with ConnectX-7 "
		    "NVMe/TCP: f = 0.57, iommu.strict=0 took reads from 6.3 "
		    "to 24.4 GB/s (3.9x, kernel initiator; +16 % with SPDK).  "
		    "Risk: lazy invalidation lets a device reach freed memory "
		    "briefly; keep strict for untrusted devices.  "
		    "iommu.passthrough=1 measured no faster than lazy.",
		.links = strict_links,
		.needs = PD_HAVE_PROFILE,
		.check = check_strict,
	},
};

const struct pd_rule_group pd_rules_iommu = {
	.name = "iommu",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

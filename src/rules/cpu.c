/* CPU rules: the cores held below the frequency they can run at.
 *
 * cpu.frequency-capped: a cpufreq policy's scaling_max_freq below its
 * cpuinfo_max_freq (a power profile, nvpmodel, thermald or a user set
 * it), the generic powersave governor (it holds scaling_min_freq) on a
 * host whose profile is busy, or a firmware power limit where sysfs
 * shows one (a powercap constraint below its zone's maximum).  For a
 * CPU-bound path the work scales with the clock at best, so the gain
 * is up to the ratio of the frequencies; on the ladder where the CPU
 * binds the path, standalone at lower confidence elsewhere. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/gain.h"
#include "base/sysval.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/rule.h"

/* A cap counts from 5 % below the maximum: drivers round the maximum
 * to their frequency table (cppc, intel_pstate steps of 100 MHz). */
#define CAP_RATIO 0.95
/* A profile is busy, and its cores bind a CPU-bound path, from half of
 * their samples outside idle (the ladder's own threshold). */
#define BUSY_SHARE 0.50
/* Dynamic power goes as f x V^2 with V roughly proportional to f in
 * the DVFS range, so frequency goes as the cube root of power. */
#define POWER_EXP (1.0 / 3.0)

static const char *const freq_links[] = {
	"https://docs.kernel.org/admin-guide/pm/cpufreq.html",
	"https://docs.kernel.org/power/powercap/powercap.html",
	"https://docs.kernel.org/admin-guide/pm/intel_pstate.html",
	NULL,
};

/* What a policy covers: its affected_cpus, else its own number. */
static bool
covers(const struct pd_cpufreq *f, unsigned cpu)
{
	if (f->cpus)
		return (f->cpus[cpu / 64] >> (cpu % 64)) & 1u;
	return f->num == cpu;
}

/* The policies if any, else the CPUs' own directories (each CPU once). */
static bool
counted(const struct pd_host *h, const struct pd_cpufreq *f)
{
	for (const struct pd_cpufreq *g = h->freq.list; g; g = g->next)
		if (g->policy)
			return f->policy;
	return true;
}

/* The governor holds the minimum: the generic powersave governor, not
 * intel_pstate's or amd-pstate-epp's "powersave", which is their
 * dynamic mode. */
static bool
holds_min(const struct pd_cpufreq *f)
{
	return f->governor && strcmp(f->governor, "powersave") == 0 &&
	    !(f->driver && (strstr(f->driver, "intel_pstate") ||
	    strstr(f->driver, "amd-pstate")));
}

/* The busiest core group of the profile: its busy share and the CPUs of
 * it, from each CPU's own samples. */
static double
busy_cpus(const struct pd_host *h, uint64_t *cpus, const char **group)
{
	const struct pd_profile *p = NULL;
	double best = 0;

	for (const struct pd_profile *q = h->profiles; q && !p; q = q->next)
		if (q->samples)
			p = q;
	memset(cpus, 0, PD_CPUMASK_WORDS * sizeof(uint64_t));
	*group = NULL;
	if (!p)
		return -1;
	for (unsigned g = 0; g < p->n_groups; g++) {
		double t = p->groups[g].total;

		if (t > 0 && (t - p->groups[g].idle) / t > best) {
			best = (t - p->groups[g].idle) / t;
			*group = p->groups[g].name;
		}
	}
	for (unsigned c = 0; c < p->n_cpu_slots && c < PD_MAX_CPUS; c++) {
		double t = p->cpu_total[c];
		bool same = !h->cpu_type_of || !*group || !h->cpu_type_of[c] ||
		    strcmp(h->cpu_type_of[c], *group) == 0 ||
		    strcmp(*group, PD_PROF_ALL_CPUS) == 0;

		if (t > 0 && same && (t - p->cpu_idle[c]) / t >= BUSY_SHARE)
			cpus[c / 64] |= 1ull << (c % 64);
	}
	return best;
}

struct capped {
	const struct pd_cpufreq *f[PD_MAX_CPUS];
	unsigned n;
	uint64_t cpus[PD_CPUMASK_WORDS];
	double ratio;			/* the largest max/allowed */
	bool on_busy;			/* a capped CPU is a busy one */
	const char *how;		/* "scaling_max_freq", "powersave" */
};

static void
find_capped(const struct pd_host *h, const uint64_t *busy, bool prof_busy,
    struct capped *c)
{
	for (const struct pd_cpufreq *f = h->freq.list; f; f = f->next) {
		double r = 0;

		if (!counted(h, f) || f->cpuinfo_max <= 0)
			continue;
		if (f->scaling_max > 0 && f->scaling_max < CAP_RATIO *
		    (double)f->cpuinfo_max) {
			r = (double)f->cpuinfo_max / (double)f->scaling_max;
			c->how = "scaling_max_freq";
		} else if (prof_busy && holds_min(f) && f->scaling_min > 0 &&
		    f->scaling_min < CAP_RATIO * (double)f->cpuinfo_max) {
			r = (double)f->cpuinfo_max / (double)f->scaling_min;
			c->how = "the powersave governor";
		}
		if (r <= 0 || c->n == PD_MAX_CPUS)
			continue;
		c->f[c->n++] = f;
		if (r > c->ratio)
			c->ratio = r;
		for (unsigned k = 0; k < PD_MAX_CPUS; k++)
			if (covers(f, k)) {
				c->cpus[k / 64] |= 1ull << (k % 64);
				if ((busy[k / 64] >> (k % 64)) & 1u)
					c->on_busy = true;
			}
	}
}

static const char *
list_text(struct pd_arena *a, const uint64_t *b)
{
	char s[128];

	pd_cpulist_format(b, PD_MAX_CPUS, s, sizeof(s));
	return pd_arena_strdup(a, s);
}

static void
freq_fix(struct pd_findings *out, struct pd_finding *f,
    const struct capped *c)
{
	struct pd_arena *a = out->arena;
	const char *dir = c->f[0]->policy ? "cpu/cpufreq/policy" : "cpu/cpu";
	const char *sub = c->f[0]->policy ? "" : "/cpufreq";
	const char *nums = "";

	for (unsigned i = 0; i < c->n; i++)
		nums = pd_arena_printf(a, "%s%s%u", nums, i ? " " : "",
		    c->f[i]->num);
	if (strcmp(c->how, "scaling_max_freq") == 0) {
		pd_finding_fix(out, f, "for n in %s; do cat "
		    "/sys/devices/system/%s$n%s/cpuinfo_max_freq | sudo tee "
		    "/sys/devices/system/%s$n%s/scaling_max_freq; done", nums,
		    dir, sub, dir, sub);
		pd_finding_fix(out, f, "# whatever set the cap sets it again: "
		    "a power profile (powerprofilesctl, tuned-adm), nvpmodel, "
		    "thermald or a boot script; change it there to persist");
	} else {
		pd_finding_fix(out, f, "sudo cpupower frequency-set -g "
		    "schedutil   # or performance");
		pd_finding_fix(out, f, "# persist: the governor in tuned or the "
		    "distribution's cpufrequtils / cpupower config");
	}
}

static void
freq_evidence(struct pd_finding *f, const struct capped *c)
{
	for (unsigned i = 0; i < c->n && f->n_ev + 2 <= PD_MAX_EVIDENCE &&
	    i < 3; i++) {
		const struct pd_cpufreq *p = c->f[i];

		if (strcmp(c->how, "scaling_max_freq") == 0) {
			pd_finding_evidence(f, &p->ev_smax);
		} else {
			pd_finding_evidence(f, &p->ev_gov);
		}
		pd_finding_evidence(f, &p->ev_cmax);
	}
}

static void
gain_and_lever(struct pd_finding *f, double ratio, bool on_ladder,
    bool have_prof)
{
	f->gain_lo = 0;
	f->gain_hi = pd_gain_tenths(ratio);
	f->confidence = on_ladder ? 60 : have_prof ? 30 : 25;
	f->confidence_note = on_ladder ? "the ratio of frequencies holds for "
	    "work that scales with the clock; memory stalls do not" :
	    have_prof ? "the profile does not show the capped cores busy, so "
	    "the path may not be CPU-bound" : "no profile: whether the path "
	    "is CPU-bound is not known (add perf record -a -g taken under "
	    "the load)";
	if (on_ladder)
		f->lever = (struct pd_lever){ .kind = PD_LEVER_CPU_FREQ,
			.share_lo = 0, .share_hi = ratio - 1 };
	f->risk = PD_RISK_MEDIUM;
	f->risk_note = "more power and heat: the platform's power budget, "
	    "cooling and any thermal throttling decide what the cores "
	    "sustain";
}

static void
freq_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct capped *c, double busy,
    const char *group)
{
	struct pd_arena *a = out->arena;
	const struct pd_cpufreq *p = c->f[0];
	const char *cpus = list_text(a, c->cpus);
	struct pd_finding *f = pd_finding_new(out, self, h,
	    pd_arena_printf(a, "CPUs %s", cpus));
	int64_t lim = strcmp(c->how, "scaling_max_freq") == 0 ?
	    p->scaling_max : p->scaling_min;

	pd_finding_summary(out, f, "CPUs %s are held at %.2f GHz by %s, "
	    "below the %.2f GHz they can run at (x%.2f)%s.", cpus,
	    (double)lim / 1e6, c->how, (double)p->cpuinfo_max / 1e6, c->ratio,
	    busy < 0 ? "; the bundle has no profile to tell whether they "
	    "bind the path" : c->on_busy ? pd_arena_printf(a, "; the "
	    "profile shows them busy (%s: %.0f %% of samples outside idle)",
	    group ? group : "all CPUs", 100 * busy) : "; the profile does "
	    "not show them busy");
	gain_and_lever(f, c->ratio, c->on_busy, busy >= 0);
	f->gain_basis = pd_arena_printf(a, "model: a CPU-bound path's work "
	    "scales with the clock at best, so up to the ratio of the "
	    "frequencies, %.2f / %.2f GHz = x%.2f; 0 where memory stalls or "
	    "something else binds", (double)p->cpuinfo_max / 1e6,
	    (double)lim / 1e6, c->ratio);
	freq_fix(out, f, c);
	f->verify = pd_arena_printf(a, "scaling_max_freq equals "
	    "cpuinfo_max_freq, and the cores reach it under load.\n"
	    "grep . /sys/devices/system/cpu/cpufreq/policy*/scaling_max_freq "
	    "/sys/devices/system/cpu/cpufreq/policy*/scaling_governor");
	freq_evidence(f, c);
}

/* A powercap constraint below its zone's maximum. */
static void
power_findings(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, double busy)
{
	struct pd_arena *a = out->arena;

	for (const struct pd_powercap *z = h->freq.zones; z; z = z->next) {
		if (z->thermal || z->enabled == 0)
			continue;
		for (unsigned k = 0; k < PD_POWERCAP_CONSTRAINTS; k++) {
			const struct pd_powercap_constraint *c = &z->c[k];

			if (c->limit_uw <= 0 || c->max_uw <= 0 ||
			    c->limit_uw >= CAP_RATIO * (double)c->max_uw)
				continue;
			double r = pow((double)c->max_uw /
			    (double)c->limit_uw, POWER_EXP);
			struct pd_finding *f = pd_finding_new(out, self, h,
			    pd_arena_printf(a, "%s %s", z->zone, c->name ?
			    c->name : "constraint"));

			pd_finding_summary(out, f, "Power zone %s (%s) limits "
			    "%s to %.1f W of the %.1f W it allows%s.", z->zone,
			    z->name ? z->name : "unnamed", c->name ? c->name :
			    "a constraint", (double)c->limit_uw / 1e6,
			    (double)c->max_uw / 1e6, busy >= BUSY_SHARE ?
			    pd_arena_printf(a, " while the profile is %.0f %% "
			    "busy", 100 * busy) : "");
			gain_and_lever(f, r, false, busy >= 0);
			f->confidence = busy >= BUSY_SHARE ? 40 : 25;
			f->gain_basis = pd_arena_printf(a, "model: frequency "
			    "goes as the cube root of power (dynamic power "
			    "f x V^2, V roughly proportional to f), so lifting "
			    "%.1f W to %.1f W gives a CPU-bound path up to "
			    "x%.2f; measured in a comparable case: the GX10 "
			    "forum thread's firmware cap held the SoC at 20 W",
			    (double)c->limit_uw / 1e6, (double)c->max_uw / 1e6,
			    r);
			pd_finding_fix(out, f, "echo %" PRId64 " | sudo tee "
			    "/sys/class/powercap/%s/constraint_%u_power_limit_uw",
			    c->max_uw, z->zone, k);
			pd_finding_fix(out, f, "# firmware may lock it (the "
			    "BIOS's power limit, the vendor's power mode): "
			    "change it there when the write fails or does not "
			    "last");
			f->verify = pd_arena_printf(a, "The limit reads the "
			    "maximum.\ngrep . /sys/class/powercap/%s/"
			    "constraint_*", z->zone);
			pd_finding_evidence(f, &c->ev_limit);
			pd_finding_evidence(f, &c->ev_max);
		}
	}
}

/* intel_pstate's max_perf_pct below 95 %: every CPU capped. */
static void
perf_pct_finding(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, double busy)
{
	struct pd_arena *a = out->arena;
	int pct = h->freq.max_perf_pct;

	if (pct <= 0 || pct >= 100 * CAP_RATIO)
		return;
	double r = 100.0 / pct;
	struct pd_finding *f = pd_finding_new(out, self, h, "intel_pstate");

	pd_finding_summary(out, f, "intel_pstate's max_perf_pct holds every "
	    "CPU at %d %% of its maximum performance (x%.2f)%s.", pct, r,
	    busy < 0 ? "; the bundle has no profile to tell whether the CPU "
	    "binds the path" : busy >= BUSY_SHARE ? pd_arena_printf(a, "; "
	    "the profile is %.0f %% busy", 100 * busy) : "; the profile is "
	    "not busy");
	gain_and_lever(f, r, busy >= BUSY_SHARE, busy >= 0);
	f->gain_basis = pd_arena_printf(a, "model: a CPU-bound path's work "
	    "scales with the clock at best, so up to 100 / %d = x%.2f; 0 "
	    "where memory stalls or something else binds", pct, r);
	pd_finding_fix(out, f, "echo 100 | sudo tee "
	    "/sys/devices/system/cpu/intel_pstate/max_perf_pct");
	pd_finding_fix(out, f, "# whatever set it sets it again (TLP, tuned, "
	    "power-profiles-daemon, thermald): change it there to persist");
	f->verify = "max_perf_pct reads 100.\n"
	    "cat /sys/devices/system/cpu/intel_pstate/max_perf_pct";
	pd_finding_evidence(f, &h->freq.ev_max_perf);
}

static void
check_frequency(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	uint64_t busy_set[PD_CPUMASK_WORDS];
	const char *group;
	double busy = busy_cpus(h, busy_set, &group);
	struct capped *c = pd_xmalloc(sizeof(*c));

	memset(c, 0, sizeof(*c));
	find_capped(h, busy_set, busy >= BUSY_SHARE, c);
	if (c->n)
		freq_finding(self, h, out, c, busy, group);
	free(c);
	perf_pct_finding(self, h, out, busy);
	power_findings(self, h, out, busy);
}

static const struct pd_rule rules[] = {
	{
		.id = "cpu.frequency-capped",
		.title = "CPU cores held below their maximum frequency or "
		    "power",
		.doc = "A cpufreq policy whose scaling_max_freq is below 95 % "
		    "of its cpuinfo_max_freq (set by a power profile, "
		    "nvpmodel, thermald or a script), intel_pstate's "
		    "max_perf_pct below 95, the generic powersave "
		    "governor (it holds scaling_min_freq; not intel_pstate's "
		    "or amd-pstate-epp's powersave, their dynamic mode) on a "
		    "host whose profile is half busy or more, or a powercap "
		    "constraint whose power_limit_uw is below 95 % of its "
		    "max_power_uw (firmware or RAPL limits where sysfs shows "
		    "them; the GX10 forum thread's SoC held at 20 W).  Gain "
		    "0 to the ratio of the frequencies for a CPU-bound path "
		    "(work that scales with the clock; memory stalls do not), "
		    "for a power limit the cube root of the power ratio "
		    "(dynamic power f x V^2 with V roughly proportional to "
		    "f).  On the ladder, scaling what the CPU carries, when "
		    "the profile shows the capped cores half busy or more "
		    "(confidence 60): it gains while the CPU binds the path "
		    "and nothing where the hardware does; where the ladder "
		    "sees nothing binding, standalone at confidence 30; "
		    "standalone otherwise (30, 25 without a profile).  A power limit is standalone (which cores it "
		    "slows is not shown): confidence 40 on a half-busy "
		    "profile, else 25.  Fix: scaling_max_freq back to "
		    "cpuinfo_max_freq, or the schedutil or performance "
		    "governor, and the tool that set them changed to "
		    "persist; the power limit raised where firmware allows.  "
		    "Risk: power, heat and the platform's power budget.",
		.needs = PD_HAVE_CPUFREQ,
		.physical = true,
		.links = freq_links,
		.check = check_frequency,
	},
};

const struct pd_rule_group pd_rules_cpu = {
	.name = "cpu",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

/* "cpufreq": CPU frequency limits and power limits from sysfs
 * (Documentation/admin-guide/pm/cpufreq.rst, Documentation/power/
 * powercap/powercap.rst, the thermal sysfs ABI):
 *
 *   /sys/devices/system/cpu/cpuN/cpufreq/F
 *   /sys/devices/system/cpu/cpufreq/policyN/F
 *       F: scaling_max_freq, scaling_min_freq, cpuinfo_max_freq,
 *          scaling_cur_freq (kHz), scaling_governor, scaling_driver,
 *          affected_cpus, related_cpus (CPU numbers, blank-separated)
 *   /sys/class/powercap/[PARENT/]ZONE/{name,enabled,
 *       constraint_K_name,constraint_K_power_limit_uw,
 *       constraint_K_max_power_uw}   (a max of 0: none given)
 *   /sys/class/thermal/thermal_zoneN/{type,temp}   (millidegrees C)
 *   /sys/devices/system/cpu/intel_pstate/max_perf_pct   (0 to 100)
 *
 * Two forms, through the same path patterns (src/base/sysval.h): the
 * collector's listing, `grep -H . FILES`, one "/sys/...:VALUE" line
 * each; or a sosreport's one-value files at sys/... under its root,
 * which bid only on their path and a value of the file's grammar.
 * Zones are kept up to MAX_ZONES. */
#include <stdlib.h>
#include <string.h>
#include "base/sysval.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define MAX_ZONES 256

enum kind { K_FREQ, K_STR, K_CPUS, K_UW, K_BOOL, K_NAME, K_TEMP, K_PCT };

enum field {
	F_SMAX, F_SMIN, F_CMAX, F_CUR, F_GOV, F_DRV, F_AFF, F_REL,
	F_PC_NAME, F_PC_EN, F_PC_CNAME, F_PC_LIMIT, F_PC_MAX,
	F_TH_TYPE, F_TH_TEMP, F_MAX_PERF,
};

static const struct pat {
	const char *pattern;
	enum field f;
	enum kind k;
	bool policy;
} pats[] = {
#define CPU(file, f, k) \
	{ "sys/devices/system/cpu/cpu*/cpufreq/" file, f, k, false }, \
	{ "sys/devices/system/cpu/cpufreq/policy*/" file, f, k, true }
	CPU("scaling_max_freq", F_SMAX, K_FREQ),
	CPU("scaling_min_freq", F_SMIN, K_FREQ),
	CPU("cpuinfo_max_freq", F_CMAX, K_FREQ),
	CPU("scaling_cur_freq", F_CUR, K_FREQ),
	CPU("scaling_governor", F_GOV, K_STR),
	CPU("scaling_driver", F_DRV, K_STR),
	CPU("affected_cpus", F_AFF, K_CPUS),
	CPU("related_cpus", F_REL, K_CPUS),
#undef CPU
	/* a zone at the top (intel-rapl:0) or below its parent
	 * (intel-rapl/intel-rapl:0): the last star before the file is
	 * the zone, the policy flag marks the nested form */
#define PC(file, f, k) \
	{ "sys/class/powercap/*/" file, f, k, false }, \
	{ "sys/class/powercap/*/*/" file, f, k, true }
	PC("name", F_PC_NAME, K_NAME),
	PC("enabled", F_PC_EN, K_BOOL),
	PC("constraint_*_name", F_PC_CNAME, K_NAME),
	PC("constraint_*_power_limit_uw", F_PC_LIMIT, K_UW),
	PC("constraint_*_max_power_uw", F_PC_MAX, K_UW),
#undef PC
	{ "sys/devices/system/cpu/intel_pstate/max_perf_pct", F_MAX_PERF,
	    K_PCT, false },
	{ "sys/class/thermal/thermal_zone*/type", F_TH_TYPE, K_NAME, false },
	{ "sys/class/thermal/thermal_zone*/temp", F_TH_TEMP, K_TEMP, false },
};

#define N_PATS (sizeof(pats) / sizeof(pats[0]))

/* The directories a listing of this format lists; `grep -H .` over a
 * directory gives files this reader does not use too, which it skips. */
static const char *const dirs[] = {
	"sys/devices/system/cpu/cpu*/cpufreq/*",
	"sys/devices/system/cpu/cpufreq/policy*/*",
	"sys/devices/system/cpu/cpufreq/*",
	"sys/class/powercap/*/*",
	"sys/class/powercap/*/*/*",
	"sys/devices/system/cpu/intel_pstate/*",
	"sys/class/thermal/thermal_zone*/*",
	"sys/class/thermal/cooling_device*/*",
};

#define N_DIRS (sizeof(dirs) / sizeof(dirs[0]))

/* A listing line split where its path is in one of those directories
 * (the path may hold colons: intel-rapl:0). */
static bool
split(const char *line, struct pd_span *p, struct pd_span *v)
{
	return pd_sysval_split_known(line, dirs, N_DIRS, p, v);
}

static const struct pat *
match(const char *path, size_t len, struct pd_span *c)
{
	for (size_t i = 0; i < N_PATS; i++)
		if (pd_sysval_match(path, len, pats[i].pattern, c))
			return &pats[i];
	return NULL;
}

static bool
word_ok(const char *v, size_t n)
{
	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' &&
		    v[i] <= 'Z') || (v[i] >= '0' && v[i] <= '9') ||
		    strchr("-_.:+ ", v[i])))
			return false;
	return true;
}

/* "0 1 2 3" (affected_cpus) into bits. */
static bool
cpus_parse(const char *v, size_t n, uint64_t *bits)
{
	size_t i = 0;
	bool any = false;

	while (i < n) {
		uint64_t c = 0;
		size_t k = 0;

		while (i < n && v[i] == ' ')
			i++;
		while (i < n && v[i] >= '0' && v[i] <= '9' && k < 6) {
			c = c * 10 + (uint64_t)(v[i++] - '0');
			k++;
		}
		if (!k && i < n)
			return false;
		if (!k)
			break;
		if (c >= PD_MAX_CPUS || (i < n && v[i] != ' '))
			return false;
		if (bits)
			bits[c / 64] |= 1ull << (c % 64);
		any = true;
	}
	return any;
}

static bool
number_ok(const char *v, size_t n, bool sign, int64_t *out)
{
	uint64_t x;
	bool neg = sign && n && v[0] == '-';

	if (!pd_span_u64((struct pd_span){ v + neg, n - neg }, &x) ||
	    x > INT64_MAX)
		return false;
	if (out)
		*out = neg ? -(int64_t)x : (int64_t)x;
	return true;
}

static bool
value_ok(enum kind k, const char *v, size_t n)
{
	switch (k) {
	case K_FREQ:
	case K_UW:
		return number_ok(v, n, false, NULL);
	case K_TEMP:
		return number_ok(v, n, true, NULL);
	case K_PCT: {
		int64_t x;

		return number_ok(v, n, false, &x) && x <= 100;
	}
	case K_BOOL:
		return n == 1 && (v[0] == '0' || v[0] == '1');
	case K_CPUS:
		return cpus_parse(v, n, NULL);
	case K_STR:
	case K_NAME:
		return word_ok(v, n);
	}
	return false;
}

static int
bid_cpufreq(const struct pd_member *m)
{
	char line[1024];
	struct pd_span c[PD_SYSVAL_CAPS], p, v;
	const struct pat *pt;
	int bits = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	pt = match(m->hint_path, strlen(m->hint_path), c);
	if (pt && pd_sysval_one_line(m, line, sizeof(line)))
		return value_ok(pt->k, line, strlen(line)) ? 32 : 0;
	unsigned known = 0;

	for (unsigned i = 0; i < 4; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		if (!split(line, &p, &v))
			return 0;
		known += match(p.p, p.n, c) != NULL;
		bits += i == 0 ? 40 : 8;
	}
	return known ? bits : 0;
}

static struct pd_cpufreq *
freq_of(struct pd_host *h, struct pd_arena *a, bool policy, unsigned num)
{
	struct pd_cpufreq_set *s = &h->freq;
	unsigned k = (policy ? PD_MAX_CPUS : 0) + num;

	if (!s->of)
		s->of = pd_arena_alloc(a, 2 * PD_MAX_CPUS * sizeof(*s->of));
	if (!s->of[k]) {
		struct pd_cpufreq *f = pd_arena_alloc(a, sizeof(*f)), **pp;

		f->policy = policy;
		f->num = num;
		f->scaling_max = f->scaling_min = f->cpuinfo_max = f->cur = -1;
		for (pp = &s->list; *pp; pp = &(*pp)->next)
			;
		*pp = f;
		s->of[k] = f;
		s->n++;
	}
	return s->of[k];
}

static struct pd_powercap *
zone_of(struct pd_host *h, struct pd_arena *a, struct pd_span z,
    bool thermal)
{
	struct pd_powercap **pp = &h->freq.zones;

	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->thermal == thermal && strlen((*pp)->zone) == z.n &&
		    memcmp((*pp)->zone, z.p, z.n) == 0)
			return *pp;
	if (h->freq.n_zones == MAX_ZONES)
		return NULL;
	struct pd_powercap *p = pd_arena_alloc(a, sizeof(*p));

	p->zone = pd_arena_strndup(a, z.p, z.n);
	p->thermal = thermal;
	p->enabled = -1;
	p->temp_mc = INT64_MIN;
	for (unsigned i = 0; i < PD_POWERCAP_CONSTRAINTS; i++)
		p->c[i].limit_uw = p->c[i].max_uw = -1;
	*pp = p;
	h->freq.n_zones++;
	return p;
}

static void
set_cpu(struct pd_host *h, struct pd_arena *a, const struct pat *pt,
    uint64_t num, const char *v, size_t n, const struct pd_evidence *ev)
{
	struct pd_cpufreq *f = freq_of(h, a, pt->policy, (unsigned)num);
	int64_t x = -1;

	if (pt->k == K_FREQ)
		number_ok(v, n, false, &x);
	switch (pt->f) {
	case F_SMAX: f->scaling_max = x; f->ev_smax = *ev; break;
	case F_SMIN: f->scaling_min = x; break;
	case F_CMAX: f->cpuinfo_max = x; f->ev_cmax = *ev; break;
	case F_CUR: f->cur = x; f->ev_cur = *ev; break;
	case F_GOV:
		f->governor = pd_arena_strndup(a, v, n);
		f->ev_gov = *ev;
		break;
	case F_DRV: f->driver = pd_arena_strndup(a, v, n); break;
	case F_AFF:
	case F_REL:
		/* affected_cpus (the online ones) over related_cpus */
		if (f->cpus && pt->f == F_REL)
			break;
		if (!f->cpus)
			f->cpus = pd_arena_alloc(a, PD_CPUMASK_WORDS *
			    sizeof(uint64_t));
		memset(f->cpus, 0, PD_CPUMASK_WORDS * sizeof(uint64_t));
		cpus_parse(v, n, f->cpus);
		break;
	default:
		break;
	}
}

static void
set_zone(struct pd_host *h, struct pd_arena *a, const struct pat *pt,
    const struct pd_span *c, const char *v, size_t n,
    const struct pd_evidence *ev)
{
	bool thermal = pt->f == F_TH_TYPE || pt->f == F_TH_TEMP;
	struct pd_span z = c[pt->policy ? 1 : 0];
	struct pd_span kc = c[pt->policy ? 2 : 1];
	struct pd_powercap *p;
	uint64_t k = 0;
	int64_t x = -1;

	if (thermal)	/* "thermal_zone*": the star holds the number */
		z = (struct pd_span){ c[0].p - 12, c[0].n + 12 };
	if (!(p = zone_of(h, a, z, thermal)))
		return;
	if ((pt->f == F_PC_CNAME || pt->f == F_PC_LIMIT || pt->f == F_PC_MAX) &&
	    (!pd_span_u64(kc, &k) || k >= PD_POWERCAP_CONSTRAINTS))
		return;
	number_ok(v, n, pt->k == K_TEMP, &x);
	switch (pt->f) {
	case F_PC_NAME:
	case F_TH_TYPE:
		p->name = pd_arena_strndup(a, v, n);
		p->ev_name = *ev;
		break;
	case F_PC_EN: p->enabled = v[0] == '1'; break;
	case F_PC_CNAME: p->c[k].name = pd_arena_strndup(a, v, n); break;
	case F_PC_LIMIT: p->c[k].limit_uw = x; p->c[k].ev_limit = *ev; break;
	case F_PC_MAX: p->c[k].max_uw = x; p->c[k].ev_max = *ev; break;
	case F_TH_TEMP: p->temp_mc = x; p->ev_temp = *ev; break;
	default: break;
	}
}

/* One path and value; false when the value does not fit. */
static bool
record(struct pd_host *h, struct pd_arena *a, const char *path,
    size_t plen, const char *v, size_t n, const struct pd_evidence *ev)
{
	struct pd_span c[PD_SYSVAL_CAPS];
	const struct pat *pt = match(path, plen, c);
	uint64_t num;

	if (!pt || !value_ok(pt->k, v, n))
		return false;
	if (pt->f == F_MAX_PERF) {
		int64_t x = -1;

		number_ok(v, n, false, &x);
		h->freq.max_perf_pct = (int)x;
		h->freq.ev_max_perf = *ev;
		return true;
	}
	if (pt->f <= F_REL) {
		if (!pd_span_u64(c[0], &num) || num >= PD_MAX_CPUS)
			return false;
		set_cpu(h, a, pt, num, v, n, ev);
	} else {
		set_zone(h, a, pt, c, v, n, ev);
	}
	return true;
}

static enum pd_status
parse_cpufreq(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_span c[PD_SYSVAL_CAPS];
	bool one = match(m->hint_path, strlen(m->hint_path), c) != NULL;
	const char *line;
	size_t len;
	unsigned ok = 0, bad = 0;

	while (pd_input_getline(in, &line, &len)) {
		const char *t = pd_skip_space(line);
		struct pd_span p, v;
		struct pd_evidence ev;

		if (*t == '#' || !*t)
			continue;
		if (one) {
			p = (struct pd_span){ m->hint_path,
			    strlen(m->hint_path) };
			v = (struct pd_span){ t, strlen(t) };
		} else if (!split(t, &p, &v)) {
			p.n = 0;
			v.n = 0;
		}
		while (v.n && (v.p[v.n - 1] == '\r' || v.p[v.n - 1] == ' '))
			v.n--;
		pd_evidence_set(&ev, a, m->path, in->line_no, line, len);
		if (one)
			ev.text = pd_arena_printf(a, "%s:%s", m->hint_path,
			    ev.text ? ev.text : "");
		if (p.n && !one && !match(p.p, p.n, c))
			continue;	/* a file of those directories not used */
		if (!p.n || !record(h, a, p.p, p.n, v.p, v.n, &ev)) {
			if (bad++ < 3)
				pd_diag_note(d, PD_WARN, "cpufreq.bad-line",
				    in->line_no, "not a cpufreq, powercap or "
				    "thermal PATH:VALUE: '%.80s'", t);
			continue;
		}
		ok++;
		if (one)
			break;
	}
	if (!ok) {
		pd_diag_note(d, PD_WARN, "cpufreq.empty", 0,
		    "no cpufreq, powercap or thermal values");
		return PD_WARN;
	}
	return PD_OK;
}

static const char *const hints[] = { "cpufreq", "powercap", "thermal",
	NULL };

const struct pd_format pd_format_cpufreq = {
	.name = "cpufreq",
	.summary = "CPU frequency limits, governors and firmware power "
	    "limits (cpufreq, powercap and thermal sysfs values)",
	.command = "grep -H . /sys/devices/system/cpu/cpufreq/policy*/* "
	    "/sys/class/powercap/*/* /sys/class/thermal/thermal_zone*/"
	    "{type,temp}",
	.hints = hints,
	.gives = PD_HAVE_CPUFREQ,
	.collect = "grep -H . over the cpufreq policies' scaling_max_freq, "
	    "cpuinfo_max_freq, scaling_governor ..., powercap zones and "
	    "thermal zones (pathdoctor-collect)",
	.bid = bid_cpufreq,
	.parse = parse_cpufreq,
};

/* Findings: creation helpers, ranking and levels. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/rule.h"

void
pd_findings_init(struct pd_findings *fs, struct pd_arena *a)
{
	memset(fs, 0, sizeof(*fs));
	fs->arena = a;
}

void
pd_findings_release(struct pd_findings *fs)
{
	free(fs->v);
	fs->v = NULL;
	fs->n = fs->cap = 0;
}

struct pd_finding *
pd_finding_new(struct pd_findings *fs, const struct pd_rule *rule,
    const struct pd_host *h, const char *subject)
{
	struct pd_finding *f = pd_arena_alloc(fs->arena, sizeof(*f));

	f->rule = rule;
	f->host = h;
	f->subject = pd_arena_strdup(fs->arena, subject);
	f->risk = PD_RISK_LOW;
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 16;
		fs->v = pd_xrealloc(fs->v, fs->cap * sizeof(*fs->v));
	}
	fs->v[fs->n++] = f;
	return f;
}

void
pd_finding_summary(struct pd_findings *fs, struct pd_finding *f,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	f->summary = pd_arena_vprintf(fs->arena, fmt, ap);
	va_end(ap);
}

void
pd_finding_fix(struct pd_findings *fs, struct pd_finding *f,
    const char *fmt, ...)
{
	va_list ap;

	if (f->n_fix >= PD_MAX_FIX)
		return;
	va_start(ap, fmt);
	f->fix[f->n_fix++] = pd_arena_vprintf(fs->arena, fmt, ap);
	va_end(ap);
}

void
pd_finding_evidence(struct pd_finding *f, const struct pd_evidence *ev)
{
	if (!ev->member || f->n_ev >= PD_MAX_EVIDENCE)
		return;
	for (unsigned i = 0; i < f->n_ev; i++)
		if (f->ev[i].member == ev->member && f->ev[i].line == ev->line)
			return;
	f->ev[f->n_ev++] = *ev;
}

static int
cmp_finding(const void *a, const void *b)
{
	const struct pd_finding *x = *(struct pd_finding *const *)a;
	const struct pd_finding *y = *(struct pd_finding *const *)b;
	int c;

	if (!x->ladder_step != !y->ladder_step)
		return x->ladder_step ? -1 : 1;
	if (x->ladder_step != y->ladder_step)
		return x->ladder_step < y->ladder_step ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->risk != y->risk)
		return x->risk < y->risk ? -1 : 1;
	if ((c = strcmp(x->rule->id, y->rule->id)) != 0)
		return c;
	if ((c = strcmp(x->host->key, y->host->key)) != 0)
		return c;
	return strcmp(x->subject, y->subject);
}

void
pd_findings_rank(struct pd_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		struct pd_finding *f = fs->v[i];

		f->score = (long)(f->gain_lo + f->gain_hi) * f->confidence / 2;
	}
	if (fs->n > 1)
		qsort(fs->v, fs->n, sizeof(*fs->v), cmp_finding);
}

/* Levels follow the expected gain's midpoint: high from 10 %, medium
 * from 2 %, low above 0, info otherwise. */
enum pd_level
pd_finding_level(const struct pd_finding *f)
{
	int mid = (f->gain_lo + f->gain_hi) / 2;

	if (mid >= 100)
		return PD_LEVEL_HIGH;
	if (mid >= 20)
		return PD_LEVEL_MEDIUM;
	if (mid > 0)
		return PD_LEVEL_LOW;
	return PD_LEVEL_INFO;
}

static const char *const level_names[] = {
	[PD_LEVEL_INFO] = "info", [PD_LEVEL_LOW] = "low",
	[PD_LEVEL_MEDIUM] = "medium", [PD_LEVEL_HIGH] = "high",
	[PD_LEVEL_OFF] = "off",
};

const char *
pd_level_name(enum pd_level l)
{
	return level_names[l];
}

int
pd_level_parse(const char *s, enum pd_level *out)
{
	for (int i = 0; i <= PD_LEVEL_OFF; i++)
		if (strcmp(s, level_names[i]) == 0) {
			*out = (enum pd_level)i;
			return 0;
		}
	return -1;
}

const char *
pd_risk_name(enum pd_risk r)
{
	return r == PD_RISK_HIGH ? "high" : r == PD_RISK_MEDIUM ? "medium" :
	    "low";
}

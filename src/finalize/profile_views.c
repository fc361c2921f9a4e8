/* What rules and renderers read of a symbolised profile: the top
 * symbols per core type, self summed per DSO, and the share of the
 * stacks that hold a kind of symbol. */
#include <stdlib.h>
#include <string.h>
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"

static double
weight(const struct pd_profile *p, unsigned i, int g, bool inclusive)
{
	if (g < 0)
		return inclusive ? p->syms[i].inclusive : p->syms[i].self;
	return pd_prof_sym_group(p, inclusive, i, (unsigned)g);
}

/* Up to n indexes into p->syms of the hottest non-idle symbols of core
 * type g (-1: all samples), by self or by inclusive period. */
static unsigned
top_of(const struct pd_profile *p, int g, bool inclusive, unsigned *out,
    unsigned n)
{
	unsigned k = 0;

	/* insertion into a short sorted list: n is small */
	for (unsigned i = 0; i < p->n_syms; i++) {
		double w = weight(p, i, g, inclusive);
		unsigned j;

		if (p->syms[i].idle || w <= 0 || (k == n &&
		    w <= weight(p, out[n - 1], g, inclusive)))
			continue;
		j = k < n ? k++ : n - 1;
		while (j > 0 && weight(p, out[j - 1], g, inclusive) < w) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = i;
	}
	return k;
}

/* Symbols by DSO name, then by index, so that each DSO's sum is taken
 * in symbol order. */
struct dso_ref {
	const char *dso;
	unsigned idx;
};

static int
cmp_dso_name(const void *x, const void *y)
{
	const struct dso_ref *a = x, *b = y;
	int c = strcmp(a->dso, b->dso);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static int
cmp_dso_self(const void *x, const void *y)
{
	const struct pd_prof_dso *a = x, *b = y;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
sum_dsos(struct pd_profile *p, struct pd_arena *a)
{
	struct dso_ref *idx = pd_xmalloc((p->n_syms + 1) * sizeof(*idx));

	for (unsigned i = 0; i < p->n_syms; i++)
		idx[i] = (struct dso_ref){ p->syms[i].dso, i };
	qsort(idx, p->n_syms, sizeof(*idx), cmp_dso_name);
	p->dsos = pd_arena_alloc(a, (p->n_syms + 1) * sizeof(*p->dsos));
	for (unsigned i = 0; i < p->n_syms; i++) {
		const struct pd_prof_sym *s = &p->syms[idx[i].idx];
		struct pd_prof_dso *d = &p->dsos[p->n_dsos - (p->n_dsos > 0)];

		if (!p->n_dsos || strcmp(d->name, s->dso) != 0) {
			d = &p->dsos[p->n_dsos++];
			d->name = s->dso;
		}
		d->self += s->self;
	}
	free(idx);
	qsort(p->dsos, p->n_dsos, sizeof(*p->dsos), cmp_dso_self);
}

void
pd_profile_views(struct pd_profile *p, struct pd_arena *a)
{
	for (unsigned g = 0; g < p->n_groups; g++) {
		p->n_top[g][0] = top_of(p, (int)g, false, p->top[g][0],
		    PD_PROF_TOP);
		p->n_top[g][1] = p->has_callchain ? top_of(p, (int)g,
		    true, p->top[g][1], PD_PROF_TOP) : 0;
	}
	sum_dsos(p, a);
}

void
pd_profile_stack_share(const struct pd_profile *p,
    bool (*match)(const struct pd_prof_sym *s, void *ctx), void *ctx,
    double out[])
{
	memset(out, 0, PD_PROF_GROUPS * sizeof(double));
	if (!p->n_stacks)
		return;
	/* match each symbol once, not once per stack slot */
	bool *hit = pd_xmalloc(p->n_syms + 1);
	bool any = false;

	for (unsigned i = 0; i < p->n_syms; i++)
		any |= hit[i] = match(&p->syms[i], ctx);
	for (unsigned i = 0; any && i < p->n_stacks; i++) {
		const struct pd_prof_stack *s = &p->stacks[i];
		uint32_t k = 0;

		while (k < s->n && !hit[p->stack_syms[s->off + k]])
			k++;
		if (k < s->n)
			out[s->group] += s->period;
	}
	free(hit);
}

bool
pd_prof_group_plural(const char *name)
{
	return name && strcmp(name, PD_PROF_ALL_CPUS) == 0;
}

const char *
pd_prof_group_cores(struct pd_arena *a, const char *name, bool with_the)
{
	if (!name)
		return with_the ? "the cores" : "cores";
	if (pd_prof_group_plural(name))
		return name;
	return pd_arena_printf(a, "%s%s cores", with_the ? "the " : "", name);
}

/* Changes of the host as a whole: the kernel, its command line, the
 * IOMMU mode it runs in, and the sysctls the rules read. */
#include <string.h>
#include "diff/diff.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/rule.h"
#include "pathdoctor/text.h"

void
pd_changes_host(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	pd_change_add(c, "kernel", "release", b->kernel_release,
	    a->kernel_release, NULL, NULL);
}

/* The kernel keeps COMMAND_LINE_SIZE bytes at most (2048 on x86 and
 * arm64 before 6.x, 4096 now): a real command line has at most about
 * 2048 tokens, and a longer one is not compared past them. */
#define CMDLINE_TOKENS 2048

static const struct pd_kv *
last_of(const struct pd_kv *list, const char *key, unsigned *n)
{
	const struct pd_kv *last = NULL;

	*n = 0;
	for (const struct pd_kv *kv = list; kv && *n < CMDLINE_TOKENS;
	    kv = kv->next, (*n)++)
		if (strcmp(kv->key, key) == 0)
			last = kv;
	return last;
}

/* First token of key in list, so that each key is compared once. */
static bool
first_of_key(const struct pd_kv *list, const struct pd_kv *kv)
{
	for (const struct pd_kv *k = list; k != kv; k = k->next)
		if (strcmp(k->key, kv->key) == 0)
			return false;
	return true;
}

static const char *
token(struct pd_arena *a, const struct pd_kv *kv)
{
	if (!kv)
		return NULL;
	return kv->val ? pd_arena_printf(a, "%s=%s", kv->key, kv->val) :
	    kv->key;
}

static unsigned
tokens(const struct pd_host *h)
{
	unsigned n = 0;

	for (const struct pd_kv *kv = h->cmdline_kv; kv; kv = kv->next)
		n++;
	return n;
}

static void
one_side(struct pd_changes *c, const struct pd_host *x, const struct pd_host *y,
    bool x_is_before)
{
	unsigned n = 0, m;

	for (const struct pd_kv *kv = x->cmdline_kv; kv && n < CMDLINE_TOKENS;
	    kv = kv->next, n++) {
		if (!first_of_key(x->cmdline_kv, kv))
			continue;
		const struct pd_kv *mine = last_of(x->cmdline_kv, kv->key, &m);
		const struct pd_kv *other = last_of(y->cmdline_kv, kv->key, &m);

		if (x_is_before)
			pd_change_add(c, "cmdline", kv->key, token(c->a, mine),
			    token(c->a, other), &mine->ev, other ? &other->ev :
			    &y->ev_cmdline);
		else if (!other)	/* added: the rest the other pass said */
			pd_change_add(c, "cmdline", kv->key, NULL,
			    token(c->a, mine), &y->ev_cmdline, &mine->ev);
	}
	if (x_is_before && (tokens(x) > CMDLINE_TOKENS ||
	    tokens(y) > CMDLINE_TOKENS))
		pd_change_skipped(c, "command line tokens past the first 2048");
}

void
pd_changes_cmdline(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	if (!b->cmdline || !a->cmdline) {
		pd_change_add(c, "cmdline", "(the whole line)", b->cmdline ?
		    "read" : NULL, a->cmdline ? "read" : NULL, &b->ev_cmdline,
		    &a->ev_cmdline);
		return;
	}
	one_side(c, b, a, true);
	one_side(c, a, b, false);
}

void
pd_changes_iommu(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	const char *mb = pd_iommu_mode_name(b->iommu.mode);
	const char *ma = pd_iommu_mode_name(a->iommu.mode);

	if (b->iommu.mode == a->iommu.mode)
		return;
	pd_change_add(c, "iommu", "DMA mode", pd_arena_printf(c->a, "%s (%s)",
	    mb, b->iommu.reason ? b->iommu.reason : "reason unknown"),
	    pd_arena_printf(c->a, "%s (%s)", ma, a->iommu.reason ?
	    a->iommu.reason : "reason unknown"), &b->iommu.ev, &a->iommu.ev);
}

/* A sysctl some rule reads (its .sysctls patterns). */
static bool
read_by_rules(const char *key)
{
	for (const struct pd_rule_group *const *g = pd_rule_groups; *g; g++)
		for (size_t i = 0; i < (*g)->n_rules; i++)
			if (pd_patterns_match((*g)->rules[i].sysctls, key))
				return true;
	return false;
}

/* Both lists are sorted by key: one merge walk. */
void
pd_changes_sysctl(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	const struct pd_kv *x = b->sysctl, *y = a->sysctl;

	while (x || y) {
		int d = !x ? 1 : !y ? -1 : strcmp(x->key, y->key);
		const struct pd_kv *k = d <= 0 ? x : y;

		if (read_by_rules(k->key))
			pd_change_add(c, "sysctl", k->key, d <= 0 ? x->val : NULL,
			    d >= 0 ? y->val : NULL, d <= 0 ? &x->ev : NULL,
			    d >= 0 ? &y->ev : NULL);
		if (d <= 0)
			x = x->next;
		if (d >= 0)
			y = y->next;
	}
}

/* Changes of NVMe multipath: each subsystem's I/O policy and its live
 * paths (by controller, with the netdev each leaves from), matched by
 * subsystem name. */
#include <string.h>
#include "diff/diff.h"
#include "pathdoctor/arena.h"

static const struct pd_nvme_subsys *
find(const struct pd_host *h, const char *name)
{
	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* "nvme1 via nic2, nvme3 via nic6" of the live paths; NULL with none. */
static const char *
paths(struct pd_arena *a, const struct pd_nvme_subsys *s)
{
	const char *out = NULL;

	for (const struct pd_nvme_path *p = s ? s->paths : NULL; p;
	    p = p->next) {
		if (p->state && strcmp(p->state, "live") != 0)
			continue;
		const char *one = p->nd ? pd_arena_printf(a, "%s via %s",
		    p->ctrl, p->nd->name) : p->ctrl;

		out = out ? pd_arena_printf(a, "%s, %s", out, one) : one;
	}
	return out;
}

static void
compare(struct pd_changes *c, const struct pd_nvme_subsys *sb,
    const struct pd_nvme_subsys *sa)
{
	const char *name = sb ? sb->name : sa->name;

	pd_change_add(c, "nvme", pd_arena_printf(c->a, "%s iopolicy", name),
	    sb ? sb->iopolicy : NULL, sa ? sa->iopolicy : NULL,
	    sb ? &sb->ev_iopolicy : NULL, sa ? &sa->ev_iopolicy : NULL);
	pd_change_add(c, "nvme", pd_arena_printf(c->a, "%s paths", name),
	    paths(c->a, sb), paths(c->a, sa), sb ? &sb->ev : NULL,
	    sa ? &sa->ev : NULL);
}

void
pd_changes_nvme(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	for (const struct pd_nvme_subsys *s = b->nvme; s; s = s->next)
		compare(c, s, find(a, s->name));
	for (const struct pd_nvme_subsys *s = a->nvme; s; s = s->next)
		if (!find(b, s->name))
			compare(c, NULL, s);
}

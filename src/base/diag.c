/* Note recording for members, with worst-status tracking. */
#include <stdarg.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"

const char *
pd_status_name(enum pd_status s)
{
	switch (s) {
	case PD_OK:
		return "ok";
	case PD_WARN:
		return "warn";
	default:
		return "failed";
	}
}

void
pd_diag_init(struct pd_diag *d, struct pd_arena *a, const char *member)
{
	d->arena = a;
	d->member = member;
	d->notes = d->tail = NULL;
	d->n_notes = d->n_dropped = 0;
	d->worst = PD_OK;
}

void
pd_diag_note(struct pd_diag *d, enum pd_status level, const char *id,
    uint32_t line, const char *fmt, ...)
{
	if (level < d->worst)
		d->worst = level;
	if (d->n_notes >= PD_DIAG_MAX_NOTES) {
		d->n_dropped++;
		return;
	}
	struct pd_note *n = pd_arena_alloc(d->arena, sizeof(*n));
	va_list ap;

	va_start(ap, fmt);
	n->msg = pd_arena_vprintf(d->arena, fmt, ap);
	va_end(ap);
	n->level = level;
	n->id = id;
	n->line = line;
	if (d->tail)
		d->tail->next = n;
	else
		d->notes = n;
	d->tail = n;
	d->n_notes++;
}

void
pd_diag_finish(struct pd_diag *d)
{
	if (d->n_dropped == 0)
		return;
	unsigned dropped = d->n_dropped;

	d->n_dropped = 0;
	d->n_notes--;	/* let the summary in past the cap */
	pd_diag_note(d, PD_WARN, "member.notes-dropped", 0,
	    "%u more notes not shown", dropped);
}

/* Per-member notes: what went wrong or looked odd, with stable dotted ids.
 *
 * Readers never print; they record notes here.  A note's message is
 * lowercase with no trailing period and quotes what it talks about.
 */
#ifndef PD_DIAG_H
#define PD_DIAG_H

#include <stdint.h>
#include "status.h"

struct pd_arena;

struct pd_note {
	struct pd_note *next;
	enum pd_status level;	/* PD_WARN or PD_FAILED */
	const char *id;		/* "lspci-vv.caps-denied" */
	uint32_t line;		/* 1-based; 0 when not line-oriented */
	const char *msg;
};

#define PD_DIAG_MAX_NOTES 32	/* further notes are counted, not kept */

struct pd_diag {
	struct pd_arena *arena;
	const char *member;
	struct pd_note *notes, *tail;
	unsigned n_notes, n_dropped;
	enum pd_status worst;
};

void pd_diag_init(struct pd_diag *d, struct pd_arena *a, const char *member);
void pd_diag_note(struct pd_diag *d, enum pd_status level, const char *id,
    uint32_t line, const char *fmt, ...) PD_PRINTF(5, 6);
/* Adds the "N more notes" summary once parsing is done. */
void pd_diag_finish(struct pd_diag *d);

#endif

/* A ladder as rows of text (stage or fix | throughput | bottleneck |
 * basis), shared by the Markdown and terminal renderers. */
#ifndef PD_LADDER_ROWS_H
#define PD_LADDER_ROWS_H

#include "pathdoctor/ladder.h"

struct pd_arena;

struct pd_ladder_row {
	const char *what, *rate, *binds, *basis;
};

#define PD_LADDER_ROWS (PD_LADDER_STAGES + PD_LADDER_STEPS + 2)

/* Fills rows (PD_LADDER_ROWS of them at most); returns how many. */
unsigned pd_ladder_rows(const struct pd_ladder *l, struct pd_arena *a,
    struct pd_ladder_row *rows);

#endif

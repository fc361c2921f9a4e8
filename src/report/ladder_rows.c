/* The ladder's rows: the observed throughput and what binds it, every
 * stage with its ceiling now, every fix with the throughput after it,
 * and the hardware ceiling with the observed share of it. */
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/rule.h"
#include "report/ladder_rows.h"

unsigned
pd_ladder_rows(const struct pd_ladder *l, struct pd_arena *a,
    struct pd_ladder_row *rows)
{
	unsigned n = 0;

	rows[n++] = (struct pd_ladder_row){ pd_arena_printf(a, "observed "
	    "(%s)", l->observed_source), pd_rate_str(a, l->observed), l->bottleneck,
	    pd_arena_printf(a, "%s; %s", l->observed_what, l->bottleneck_how) };
	for (unsigned i = 0; i < l->n_stages; i++) {
		const struct pd_ladder_stage *s = &l->stages[i];

		rows[n++] = (struct pd_ladder_row){ pd_arena_printf(a, "%s %s",
		    s->stage, s->subject), pd_rate_str(a, s->ceiling), s->binds ?
		    "binds now" : "", s->basis };
	}
	for (unsigned i = 0; i < l->n_steps; i++) {
		const struct pd_ladder_step *s = &l->steps[i];

		rows[n++] = (struct pd_ladder_row){ pd_arena_printf(a, "fix %u: "
		    "%s (%s)", i + 1, s->fix, s->finding->rule->id), pd_arena_printf(a, "%s (%s .. %s)",
		    pd_rate_str(a, s->expected), pd_rate_str(a, s->lo), pd_rate_str(a, s->hi)),
		    s->bottleneck_after, s->basis };
	}
	rows[n++] = (struct pd_ladder_row){ "hardware ceiling",
	    pd_rate_str(a, l->ceiling), pd_arena_printf(a, "observed: %.0f %% of it",
	    l->ceiling > 0 ? 100 * l->observed / l->ceiling : 0),
	    l->ceiling_basis };
	return n;
}

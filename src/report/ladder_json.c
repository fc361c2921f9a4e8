/* "ladders": rates as integers in bytes per second, in a fixed key
 * order (formats/report.schema.json). */
#include <math.h>
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/rule.h"
#include "report/escape.h"
#include "report/ladder_json.h"

static json_t *
bps(double v)
{
	return json_integer((json_int_t)llround(v));
}

static json_t *
source(const struct pd_ladder *l)
{
	json_t *o = json_object();

	json_object_set_new(o, "tool", pd_json_str(l->observed_source));
	json_object_set_new(o, "what", pd_json_str(l->observed_what));
	json_object_set_new(o, "member", l->observed_ev.member ?
	    pd_json_str(l->observed_ev.member) : json_null());
	json_object_set_new(o, "line", json_integer(l->observed_ev.line));
	return o;
}

static json_t *
stages(const struct pd_ladder *l)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < l->n_stages; i++) {
		const struct pd_ladder_stage *s = &l->stages[i];
		json_t *o = json_object();

		json_object_set_new(o, "stage", pd_json_str(s->stage));
		json_object_set_new(o, "subject", pd_json_str(s->subject));
		json_object_set_new(o, "ceiling_bytes_per_s", bps(s->ceiling));
		json_object_set_new(o, "binds", json_boolean(s->binds));
		json_object_set_new(o, "basis", pd_json_str(s->basis));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
steps(const struct pd_ladder *l)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < l->n_steps; i++) {
		const struct pd_ladder_step *s = &l->steps[i];
		json_t *o = json_object();

		json_object_set_new(o, "rule", pd_json_str(s->finding->rule->id));
		json_object_set_new(o, "subject",
		    pd_json_str(s->finding->subject));
		json_object_set_new(o, "fix", pd_json_str(s->fix));
		json_object_set_new(o, "low_bytes_per_s", bps(s->lo));
		json_object_set_new(o, "expected_bytes_per_s", bps(s->expected));
		json_object_set_new(o, "high_bytes_per_s", bps(s->hi));
		json_object_set_new(o, "bottleneck_after",
		    pd_json_str(s->bottleneck_after));
		json_object_set_new(o, "basis", pd_json_str(s->basis));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
ladder(const struct pd_ladder *l)
{
	json_t *o = json_object(), *obs = json_object(), *c = json_object();

	json_object_set_new(o, "host", pd_json_str(l->host->name));
	json_object_set_new(o, "direction",
	    pd_json_str(pd_ladder_dir_name(l->dir)));
	json_object_set_new(obs, "bytes_per_s", bps(l->observed));
	json_object_set_new(obs, "source", source(l));
	json_object_set_new(obs, "bottleneck", pd_json_str(l->bottleneck));
	json_object_set_new(obs, "how", pd_json_str(l->bottleneck_how));
	json_object_set_new(o, "observed", obs);
	json_object_set_new(c, "bytes_per_s", bps(l->ceiling));
	json_object_set_new(c, "stage", pd_json_str(l->ceiling_stage));
	json_object_set_new(c, "basis", pd_json_str(l->ceiling_basis));
	json_object_set_new(c, "observed_share", json_real(l->ceiling > 0 ?
	    round(1000 * l->observed / l->ceiling) / 1000 : 0));
	json_object_set_new(o, "ceiling", c);
	json_object_set_new(o, "stages", stages(l));
	json_object_set_new(o, "steps", steps(l));
	json_object_set_new(o, "verdict", pd_json_str(l->verdict));
	return o;
}

json_t *
pd_ladders_json(const struct pd_ladder *ladders)
{
	json_t *a = json_array();

	for (const struct pd_ladder *l = ladders; l; l = l->next)
		json_array_append_new(a, ladder(l));
	return a;
}

json_t *
pd_ladder_gaps_json(const struct pd_ladder_gap *gaps)
{
	json_t *a = json_array();

	for (const struct pd_ladder_gap *g = gaps; g; g = g->next) {
		json_t *o = json_object();

		json_object_set_new(o, "host", pd_json_str(g->host->name));
		json_object_set_new(o, "needs", pd_json_str(g->needs));
		json_array_append_new(a, o);
	}
	return a;
}

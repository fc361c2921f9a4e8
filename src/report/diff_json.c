/* pathdoctor diff as JSON (formats/diff.schema.json), in a fixed key
 * order; findings as the report writes them. */
#include <jansson.h>
#include "base/version.h"
#include "pathdoctor/diff.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/escape.h"
#include "report/json_parts.h"

static json_t *
ev_or_null(const struct pd_evidence *ev)
{
	return ev->member ? pd_json_evidence(ev) : json_null();
}

static json_t *
change(const struct pd_diff_change *ch)
{
	json_t *o = json_object();

	json_object_set_new(o, "what", pd_json_str(ch->what));
	json_object_set_new(o, "subject", pd_json_str(ch->subject));
	json_object_set_new(o, "before", pd_json_str_or_null(ch->before));
	json_object_set_new(o, "after", pd_json_str_or_null(ch->after));
	json_object_set_new(o, "before_evidence", ev_or_null(&ch->ev_before));
	json_object_set_new(o, "after_evidence", ev_or_null(&ch->ev_after));
	return o;
}

static json_t *
finding_pair(const struct pd_diff_finding *df, struct pd_arena *a)
{
	json_t *o = json_object();
	const struct pd_finding *f = df->before ? df->before : df->after;

	json_object_set_new(o, "rule", pd_json_str(f->rule->id));
	json_object_set_new(o, "subject", pd_json_str(f->subject));
	json_object_set_new(o, "before", df->before ?
	    pd_json_finding(df->before, a) : json_null());
	json_object_set_new(o, "after", df->after ?
	    pd_json_finding(df->after, a) : json_null());
	json_object_set_new(o, "why", pd_json_str_or_null(df->why));
	json_object_set_new(o, "unverified", pd_json_str_or_null(df->unverified));
	return o;
}

static json_t *
findings(const struct pd_diff_host *dh, struct pd_arena *a)
{
	json_t *o = json_object(), *l[3];

	for (int s = 0; s < 3; s++)
		l[s] = json_array();
	for (const struct pd_diff_finding *df = dh->findings; df;
	    df = df->next)
		json_array_append_new(l[df->state], finding_pair(df, a));
	for (int s = 0; s < 3; s++)
		json_object_set_new(o, pd_diff_state_name(s), l[s]);
	return o;
}

static json_t *
rate(double v)
{
	return json_integer((json_int_t)(v + 0.5));
}

static json_t *
throughput(const struct pd_diff_host *dh)
{
	json_t *o = json_object();

	json_object_set_new(o, "before_bytes_per_s", dh->tp_known ?
	    rate(dh->tp_before) : json_null());
	json_object_set_new(o, "after_bytes_per_s", dh->tp_known ?
	    rate(dh->tp_after) : json_null());
	json_object_set_new(o, "change_pct", dh->tp_known ?
	    json_real(dh->tp_change / 10.0) : json_null());
	json_object_set_new(o, "source", pd_json_str_or_null(dh->tp_source));
	json_object_set_new(o, "why", pd_json_str_or_null(dh->tp_why));
	return o;
}

static json_t *
prediction(const struct pd_diff_host *dh)
{
	if (!dh->pred_known)
		return json_null();
	json_t *o = json_object();

	json_object_set_new(o, "fixes_made", json_integer(dh->n_ladder_made));
	json_object_set_new(o, "ladder_fixes", json_integer(dh->n_ladder_fixes));
	json_object_set_new(o, "steps", pd_json_str(dh->pred_steps));
	json_object_set_new(o, "low_bytes_per_s", rate(dh->pred_lo));
	json_object_set_new(o, "expected_bytes_per_s", rate(dh->pred_exp));
	json_object_set_new(o, "high_bytes_per_s", rate(dh->pred_hi));
	json_object_set_new(o, "binds_then", pd_json_str_or_null(dh->pred_binds));
	json_object_set_new(o, "verdict", dh->tp_known ?
	    pd_json_str(pd_diff_verdict_name(dh->verdict)) : json_null());
	json_object_set_new(o, "why", pd_json_str_or_null(dh->verdict_why));
	json_object_set_new(o, "noise_pct", json_real(100 * PD_DIFF_NOISE));
	return o;
}

static json_t *
realised(const struct pd_diff_realised *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "rule", pd_json_str(r->finding->rule->id));
	json_object_set_new(o, "subject", pd_json_str(r->finding->subject));
	json_object_set_new(o, "ladder_step", json_integer(r->step));
	json_object_set_new(o, "predicted_low_pct", json_real(r->pred_lo / 10.0));
	json_object_set_new(o, "predicted_high_pct",
	    json_real(r->pred_hi / 10.0));
	json_object_set_new(o, "realised_pct", r->judged ?
	    json_real(r->realised / 10.0) : json_null());
	json_object_set_new(o, "verdict", r->judged ?
	    pd_json_str(pd_diff_verdict_name(r->verdict)) : json_null());
	json_object_set_new(o, "made_together", json_integer(r->n_together));
	return o;
}

static json_t *
capture_side(const struct pd_capture *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "member", pd_json_str(c->member));
	if (c->filter) {	/* only with --filter */
		json_object_set_new(o, "filter", pd_json_str(c->filter));
		json_object_set_new(o, "packets", json_integer((json_int_t)
		    c->packets));
		json_object_set_new(o, "packets_read", json_integer((json_int_t)
		    c->packets_read));
	}
	json_object_set_new(o, "tcp_segments", json_integer((json_int_t)
	    c->tcp_segments));
	json_object_set_new(o, "super_segments", json_integer((json_int_t)
	    c->super_segs));
	json_object_set_new(o, "payload_sizes", pd_json_sizes(c->sizes.top,
	    c->sizes.n));
	return o;
}

static json_t *
host(const struct pd_diff_host *dh, struct pd_arena *a)
{
	json_t *o = json_object(), *ch = json_array(), *re = json_array();
	json_t *caps = json_array();

	json_object_set_new(o, "before_host", dh->before ?
	    pd_json_str(dh->before->name) : json_null());
	json_object_set_new(o, "after_host", dh->after ?
	    pd_json_str(dh->after->name) : json_null());
	json_object_set_new(o, "matched_by",
	    pd_json_str(pd_diff_match_name(dh->matched_by)));
	json_object_set_new(o, "match_how", pd_json_str(dh->match_how));
	json_object_set_new(o, "summary", pd_json_str(dh->summary));
	for (const struct pd_diff_change *c = dh->changes; c; c = c->next)
		json_array_append_new(ch, change(c));
	json_object_set_new(o, "changes", ch);
	json_object_set_new(o, "findings", findings(dh, a));
	json_object_set_new(o, "throughput", throughput(dh));
	json_object_set_new(o, "prediction", prediction(dh));
	for (const struct pd_diff_realised *r = dh->realised; r; r = r->next)
		json_array_append_new(re, realised(r));
	json_object_set_new(o, "realised", re);
	for (const struct pd_diff_capture *c = dh->captures; c; c = c->next) {
		json_t *j = json_object();

		json_object_set_new(j, "interface", pd_json_str(c->ifname));
		json_object_set_new(j, "before", capture_side(c->before));
		json_object_set_new(j, "after", capture_side(c->after));
		json_array_append_new(caps, j);
	}
	json_object_set_new(o, "captures", caps);
	json_object_set_new(o, "not_compared", pd_json_str_or_null(dh->not_compared));
	json_object_set_new(o, "regression", json_boolean(dh->regression));
	json_object_set_new(o, "regression_why", pd_json_str_or_null(dh->regression_why));
	return o;
}

static json_t *
side(const struct pd_report *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "bundle", pd_json_str(r->bundle));
	json_object_set_new(o, "nothing_read", pd_json_str_or_null(r->nothing_read));
	json_object_set_new(o, "members_noted", json_integer(r->n_members_noted));
	return o;
}

static int
render(const struct pd_diff *d, FILE *out)
{
	json_t *root = json_object(), *hs = json_array();

	json_object_set_new(root, "schema", json_integer(PD_JSON_SCHEMA));
	json_object_set_new(root, "kind", pd_json_str("diff"));
	json_object_set_new(root, "generator",
	    pd_json_str("pathdoctor " PD_VERSION));
	json_object_set_new(root, "before", side(d->before));
	json_object_set_new(root, "after", side(d->after));
	json_object_set_new(root, "summary", pd_json_str(d->summary));
	json_object_set_new(root, "regression", json_boolean(d->regression));
	for (const struct pd_diff_host *dh = d->hosts; dh; dh = dh->next)
		json_array_append_new(hs, host(dh, d->arena));
	json_object_set_new(root, "hosts", hs);
	return pd_json_write(root, out);
}

const struct pd_diff_renderer pd_diff_render_json = { "json", render };

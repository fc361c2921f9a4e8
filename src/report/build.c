/* The report-building step: the rules run, the ladders compose their
 * gains, then the counts every renderer prints are taken once. */
#include "bundle/bundle.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

void
pd_report_build(struct pd_report *r, const char *bundle,
    const struct pd_model *m, const struct pd_coverage *cov,
    struct pd_findings *fs, const struct pd_rule_filter *filter)
{
	*r = (struct pd_report){ .bundle = bundle, .model = m,
		.findings = fs, .coverage = cov };
	r->not_evaluated = pd_engine_run(m, fs, filter);
	struct pd_ladder_gap *gaps = NULL;

	r->ladders = pd_ladders_build(m, fs, &gaps);
	r->ladder_gaps = gaps;
	for (const struct pd_not_evaluated *n = r->not_evaluated; n;
	    n = n->next)
		r->n_not_evaluated++;
	for (const struct pd_member_result *mr = cov->members; mr;
	    mr = mr->next)
		r->n_members_noted += mr->diag.worst != PD_OK;
}

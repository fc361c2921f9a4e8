/* Runs every rule over every host; rules whose inputs are missing are
 * listed as not evaluated, with what the bundle would need. */
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

struct pd_not_evaluated *
pd_engine_run(const struct pd_model *m, struct pd_findings *out,
    bool (*filter)(const struct pd_rule *))
{
	struct pd_not_evaluated *head = NULL, **tail = &head;

	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		for (const struct pd_rule_group *const *g = pd_rule_groups;
		    *g; g++) {
			for (size_t i = 0; i < (*g)->n_rules; i++) {
				const struct pd_rule *r = &(*g)->rules[i];
				unsigned missing = r->needs & ~h->have;

				if (filter && !filter(r))
					continue;
				if (!missing && r->check) {
					r->check(r, h, out);
					continue;
				}
				struct pd_not_evaluated *ne = pd_arena_alloc(
				    pd_model_arena(m), sizeof(*ne));

				ne->rule = r;
				ne->host = h;
				ne->missing = missing ? missing : r->needs;
				*tail = ne;
				tail = &ne->next;
			}
		}
	}
	pd_findings_rank(out);
	return head;
}

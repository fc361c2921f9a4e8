/* The one list of rule groups. */
#include <stdio.h>
#include <string.h>
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"

extern const struct pd_rule_group pd_rules_pcie;
extern const struct pd_rule_group pd_rules_iommu;
extern const struct pd_rule_group pd_rules_nic;
extern const struct pd_rule_group pd_rules_nic_counters;
extern const struct pd_rule_group pd_rules_nic_link;
extern const struct pd_rule_group pd_rules_nic_irq;
extern const struct pd_rule_group pd_rules_tcp;
extern const struct pd_rule_group pd_rules_workload;
extern const struct pd_rule_group pd_rules_net;
extern const struct pd_rule_group pd_rules_nvme;
extern const struct pd_rule_group pd_rules_cpu;

const struct pd_rule_group *const pd_rule_groups[] = {
	&pd_rules_iommu,
	&pd_rules_pcie,
	&pd_rules_nic,
	&pd_rules_nic_counters,
	&pd_rules_nic_link,
	&pd_rules_nic_irq,
	&pd_rules_tcp,
	&pd_rules_workload,
	&pd_rules_net,
	&pd_rules_nvme,
	&pd_rules_cpu,
	NULL,
};

const struct pd_rule *
pd_rule_find(const char *id)
{
	for (const struct pd_rule_group *const *g = pd_rule_groups; *g; g++)
		for (size_t i = 0; i < (*g)->n_rules; i++)
			if (strcmp((*g)->rules[i].id, id) == 0)
				return &(*g)->rules[i];
	return NULL;
}

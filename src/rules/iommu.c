/* IOMMU rules.  iommu.strict-invalidation measures the share of CPU
 * samples in IOTLB invalidation code, so it needs a profile; the command
 * line and architecture facts it will weigh (strict or lazy, and why)
 * are derived in model_finalize.c and shown in every host summary.  Its
 * check arrives with the profile readers; until then the engine lists
 * it as not evaluated. */
#include <stddef.h>
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"

static const struct pd_rule rules[] = {
	{
		.id = "iommu.strict-invalidation",
		.title = "CPU time lost to strict IOMMU invalidation",
		.doc = "In strict mode every DMA unmap waits for the IOMMU to "
		    "invalidate its TLB (arm64 SMMUv3: arm_smmu_cmdq_issue_"
		    "cmdlist; Intel VT-d: qi_submit_sync; AMD: "
		    "iommu_completion_wait).  Fires from about 5 % of samples. "
		    "Gain: at least the Amdahl bound 1/(1-f) for a share f; "
		    "measured on NVIDIA GB10 with ConnectX-7 NVMe/TCP: f = "
		    "0.57, iommu.strict=0 took reads from 6.3 to 24.4 GB/s "
		    "(3.9x, kernel initiator; +16 % with SPDK).  Risk: lazy "
		    "invalidation lets a device reach freed memory briefly; "
		    "keep strict for untrusted devices.  iommu.passthrough=1 "
		    "measured no faster than lazy.",
		.needs = PD_HAVE_PROFILE,
		.check = NULL,
	},
};

const struct pd_rule_group pd_rules_iommu = {
	.name = "iommu",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};

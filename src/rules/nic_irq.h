/* nic.irq-affinity (src/rules/nic_irq.c), whose descriptor sits in
 * src/rules/nic.c's table. */
#ifndef PD_RULES_NIC_IRQ_H
#define PD_RULES_NIC_IRQ_H

struct pd_rule;
struct pd_host;
struct pd_findings;

/* The --explain text. */
extern const char pd_nic_irq_affinity_doc[];
extern const char *const pd_nic_irq_affinity_links[];

/* A NIC's queue interrupts on slow cores, a remote NUMA node, or all on
 * one CPU. */
void pd_check_irq_affinity(const struct pd_rule *self,
    const struct pd_host *h, struct pd_findings *out);

#endif

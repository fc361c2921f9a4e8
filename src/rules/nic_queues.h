/* NIC queue and offload checks (src/rules/nic_queues.c), whose
 * descriptors sit in src/rules/nic.c's table. */
#ifndef PD_RULES_NIC_QUEUES_H
#define PD_RULES_NIC_QUEUES_H

struct pd_rule;
struct pd_host;
struct pd_findings;

/* nic.ring-size: buffer drops moving while the rx ring is below its
 * pre-set maximum. */
void pd_check_ring_size(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out);
/* nic.tso-off: TSO or GSO off on a guest's virtio NIC, or on a sender
 * whose captures show MSS-sized segments leaving the stack. */
void pd_check_tso_off(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out);

#endif

/* NIC counter checks (src/rules/nic_counters.c), whose descriptors sit
 * in src/rules/nic.c's table; the thresholds are exported for tests. */
#ifndef PD_RULES_NIC_COUNTERS_H
#define PD_RULES_NIC_COUNTERS_H

#include <stdbool.h>
#include "pathdoctor/model.h"

struct pd_rule;
struct pd_host;
struct pd_findings;

/* nic.rx-queue-imbalance: the busiest receive queue at twice an even
 * share or more, on a netdev receiving 100 MB/s or more. */
void pd_check_rxq_imbalance(const struct pd_rule *self,
    const struct pd_host *h, struct pd_findings *out);
/* nic.drops-by-rate: drop and error classes moving between snapshots. */
void pd_check_drops_by_rate(const struct pd_rule *self,
    const struct pd_host *h, struct pd_findings *out);

/* The thresholds and the gain model, for tests. */
bool pd_rxq_fires(double ratio, double total_per_s);
double pd_rxq_loss(double ratio);
bool pd_drop_fires(enum pd_drop c, double per_s, double seconds,
    double pkts);

#endif

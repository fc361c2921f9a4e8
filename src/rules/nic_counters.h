/* The thresholds of the NIC counter rules (src/rules/nic_counters.c,
 * their own rule group), exported for the unit tests. */
#ifndef PD_RULES_NIC_COUNTERS_H
#define PD_RULES_NIC_COUNTERS_H

#include <stdbool.h>
#include "pathdoctor/model.h"

struct pd_rule;
struct pd_host;
struct pd_findings;

/* nic.rx-queue-imbalance: the busiest receive queue at twice an even
 * share or more, on a netdev receiving 100 MB/s or more. */

/* The thresholds and the gain model, for tests. */
bool pd_rxq_fires(double ratio, double total_per_s);
double pd_rxq_loss(double ratio);
bool pd_drop_fires(enum pd_drop c, double per_s, double seconds,
    double pkts);

#endif

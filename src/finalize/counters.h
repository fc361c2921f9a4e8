/* Driver counters: what they mean (a per-driver alias table) and how
 * snapshots become rates. */
#ifndef PD_COUNTERS_H
#define PD_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include "pathdoctor/model.h"

/* The canonical meaning of a driver's counter.  tier 0 is a total the
 * driver prints itself, tier 1 a per-queue or per-ring part that is
 * summed only when no total exists.  driver NULL: not known. */
bool pd_counter_alias(const char *driver, const char *name,
    enum pd_ctr *ctr, int *tier);
const char *pd_ctr_name(enum pd_ctr c);
/* The drop or error class of a driver's counter, with the tier of
 * struct drop_alias (0 preferred, 1 fallback, 2 per-queue parts). */
bool pd_drop_alias(const char *driver, const char *name,
    enum pd_drop *cls, int *tier);
const char *pd_drop_name(enum pd_drop c);
/* A per-queue receive byte counter, and its queue number. */
bool pd_rxq_alias(const char *driver, const char *name, unsigned *queue);

/* prev -> cur of a counter: false when it went backwards (a driver
 * reload or reset); a 32-bit counter that wrapped is unwrapped. */
bool pd_counter_delta(uint64_t prev, uint64_t cur, uint64_t *delta);

/* Fills nd->ctr[] from the snapshots; notes resets on the host. */
void pd_netdev_counters(struct pd_host *h, struct pd_netdev *nd,
    struct pd_arena *a);

/* nd->drop[] and nd->rxq from the snapshots. */
void pd_netdev_drops(struct pd_host *h, struct pd_netdev *nd,
    struct pd_arena *a);
void pd_netdev_rxq(struct pd_netdev *nd, struct pd_arena *a);

/* nd->kstat_rate from its first and last kernel-counter snapshots. */
void pd_netdev_kstat_rate(struct pd_netdev *nd);

#endif

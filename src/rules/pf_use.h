/* Which PFs of a card carry what, shared by nic.idle-pf (src/rules/
 * nic.c) and nvme.paths-per-pf (src/rules/nvme.c) so that the two never
 * contradict each other: a PF that carries an NVMe path is never called
 * idle, and when both fire on a card they name the same PFs (those
 * without a path whose receive counters stand still). */
#ifndef PD_RULES_PF_USE_H
#define PD_RULES_PF_USE_H

#include <stdbool.h>
#include "pathdoctor/model.h"

/* nic.c: idle[i] for card->pfs[i]: it receives under 1 % of the busiest
 * PF of the card while that one is busy (rates when every PF has one,
 * else since-boot totals).  False, every idle[i] false, when the card's
 * counters do not tell (fewer than two PFs with counters, none busy). */
bool pd_card_idle_pfs(const struct pd_card *c, bool idle[PD_CARD_MAX_PFS],
    bool *rates);

/* nvme.c: the live NVMe/TCP or RDMA paths joined to pf. */
unsigned pd_nvme_pf_paths(const struct pd_host *h, const struct pd_pcidev *pf);
/* nvme.c: true when nvme.paths-per-pf fires on c (its controllers all
 * enter through the PFs of one link or one port while c has more), so
 * that nic.idle-pf leaves the ladder step to it. */
bool pd_nvme_paths_confined(const struct pd_host *h, const struct pd_card *c);

#endif

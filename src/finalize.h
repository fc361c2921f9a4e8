/* Steps of pd_model_finalize that live in their own files. */
#ifndef PD_FINALIZE_H
#define PD_FINALIZE_H

struct pd_host;
struct pd_arena;

/* netdev <-> PCI joins, root ports, cards, counters -> rates. */
void pd_finalize_nic(struct pd_host *h, struct pd_arena *a);
/* enum pd_have bits for what the NIC readers provided. */
unsigned pd_finalize_nic_have(const struct pd_host *h);

/* Captures joined to netdevs and called virtual or physical. */
void pd_finalize_captures(struct pd_host *h);

#endif

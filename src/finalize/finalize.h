/* Finalize: joins and derived facts, after the walk and before the rules;
 * one section per file of src/finalize/. */
#ifndef PD_FINALIZE_H
#define PD_FINALIZE_H

struct pd_host;
struct pd_arena;
struct pd_model;

/* finalize.c: every step, over every host of the model. */
void pd_model_finalize(struct pd_model *m);

/* nic.c: netdev <-> PCI joins, root ports, cards, counters -> rates. */
void pd_finalize_nic(struct pd_host *h, struct pd_arena *a);
/* enum pd_have bits for what the NIC readers provided. */
unsigned pd_finalize_nic_have(const struct pd_host *h);

/* captures.c: captures joined to netdevs and called virtual or physical. */
void pd_finalize_captures(struct pd_host *h);

#endif

/* Finalize: joins and derived facts, after the walk and before the rules;
 * one section per file of src/finalize/. */
#ifndef PD_FINALIZE_H
#define PD_FINALIZE_H

#include <stdbool.h>

struct pd_host;
struct pd_arena;
struct pd_model;

/* finalize.c: every step, over every host of the model. */
void pd_model_finalize(struct pd_model *m);

/* inputs.c: the enum pd_have bits of what the model holds for a host. */
unsigned pd_host_inputs(const struct pd_host *h);
/* An input bit's short name ("pcie-link"). */
const char *pd_input_name(unsigned bit);
/* What a bundle must hold to provide one input bit ("pause settings:
 * ethtool -a IF output"), from the descriptors of the formats that give
 * it; the result is buf or a constant. */
#define PD_NEED_TEXT_MAX 256
const char *pd_need_text(unsigned bit, char buf[PD_NEED_TEXT_MAX]);
/* True when a member of that format feeds one of the input bits (the
 * collector's gaps are matched to rules this way). */
bool pd_need_from_format(unsigned bits, const char *format);

/* symbolise.c: names and sums every profile of the host. */
void pd_profile_symbolise(struct pd_host *h, struct pd_arena *a);
/* profile_views.c: p->top, p->n_top and p->dsos, once p->syms is final;
 * and, per group, the period of the stacks holding at least one symbol
 * that match accepts (each stack once: nested matches do not add up). */
struct pd_profile;
struct pd_prof_sym;
void pd_profile_views(struct pd_profile *p, struct pd_arena *a);
void pd_profile_stack_share(const struct pd_profile *p,
    bool (*match)(const struct pd_prof_sym *s, void *ctx), void *ctx,
    double out[]);

/* nic.c: netdev <-> PCI joins, root ports, cards, counters -> rates. */
void pd_finalize_nic(struct pd_host *h, struct pd_arena *a);

/* captures.c: captures joined to netdevs and called virtual or physical. */
void pd_finalize_captures(struct pd_host *h, struct pd_arena *a);

/* nvme.c: each NVMe/TCP or RDMA path joined to the netdev it leaves
 * from (host_iface, its host address, else the target's subnet). */
struct pd_nvme_path;
struct pd_pcidev;
void pd_finalize_nvme(struct pd_host *h, struct pd_arena *a);
/* The PCI function a joined path leaves through, NULL when unknown. */
const struct pd_pcidev *pd_nvme_path_pf(const struct pd_nvme_path *p);

#endif

/* What the PCIe rules share (src/rules/pcie.c, pcie_mrrs.c): groups of
 * a device's functions, which share its link, and the card around
 * them. */
#ifndef PD_RULES_PCIE_H
#define PD_RULES_PCIE_H

#include <stdbool.h>
#include <stddef.h>

struct pd_rule;
struct pd_host;
struct pd_findings;
struct pd_pcidev;
struct pd_card;

#define PD_PCIE_GROUP 8		/* functions of one device taken together */

typedef void pd_pcie_emit_fn(const struct pd_rule *self,
    const struct pd_host *h, struct pd_findings *out,
    const struct pd_pcidev **grp, unsigned n);

/* A device with a link of its own to train: not a VF, a root or
 * downstream port, or a root complex integrated function. */
bool pd_pcie_link_end(const struct pd_pcidev *d);
/* The ports' goodput summed over the group; 0 when one is unknown. */
double pd_pcie_ports_gbs(const struct pd_pcidev **grp, unsigned n);
/* "bdf, bdf, ..." of the group's first k. */
void pd_pcie_subject_list(char *buf, size_t n, const struct pd_pcidev **grp,
    unsigned k);
/* The links of the group (told apart by root port) and the card's
 * capacity with every function in use, at MaxPayload cur and best. */
unsigned pd_pcie_group_links(const struct pd_pcidev **grp, unsigned n,
    int cur, int best, double *old_cap, double *new_cap);
/* Calls emit once per device with its functions that pass pred. */
void pd_pcie_per_device(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out,
    bool (*pred)(const struct pd_host *, const struct pd_pcidev *),
    pd_pcie_emit_fn *emit);
/* Whether d is a PF of one of h's cards (stored in *card). */
bool pd_pcie_in_card(const struct pd_host *h, const struct pd_pcidev *d,
    const struct pd_card **card);
bool pd_pcie_is_gpu(const struct pd_pcidev *d);

/* pcie.mrrs-low (src/rules/pcie_mrrs.c). */
void pd_check_mrrs(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out);

#endif

/* Private to src/diff/: the change finders and what they share. */
#ifndef PD_DIFF_PRIVATE_H
#define PD_DIFF_PRIVATE_H

#include "pathdoctor/diff.h"

struct pd_report;

/* Where a change finder appends to one host pair's list. */
struct pd_changes {
	struct pd_arena *a;
	struct pd_diff_host *dh;
	struct pd_diff_change **tail;
};

/* Appends a change; before and after equal (both NULL or the same
 * text) adds nothing.  ev_b, ev_a may be NULL. */
void pd_change_add(struct pd_changes *c, const char *what,
    const char *subject, const char *before, const char *after,
    const struct pd_evidence *ev_b, const struct pd_evidence *ev_a);
/* Says what a bound left uncompared, in the host's not_compared. */
void pd_change_skipped(struct pd_changes *c, const char *what);
/* "%ld" of v, NULL when v < 0 (unknown) */
const char *pd_change_long(struct pd_arena *a, long v);

/* One kind of change: compares what BEFORE's and AFTER's host hold. */
struct pd_change_kind {
	const char *name;		/* "pcie": its changes' "what" differ */
	const char *title;		/* "PCIe MaxPayload, MaxReadReq, link" */
	void (*find)(struct pd_changes *c, const struct pd_host *b,
	    const struct pd_host *a);
};

extern const struct pd_change_kind pd_change_kinds[];
extern const unsigned pd_n_change_kinds;

void pd_changes_host(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_cmdline(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_iommu(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_sysctl(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_pcie(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_netdev(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_offload(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_rates(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_profile(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);
void pd_changes_captures(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a);

/* Resolved, persisting and new findings of one host pair. */
void pd_diff_findings(struct pd_diff_host *dh, const struct pd_report *rb,
    const struct pd_report *ra, struct pd_arena *a);
/* Throughput, the prediction for the fixes made, the verdict. */
void pd_diff_realised(struct pd_diff_host *dh, const struct pd_report *rb,
    const struct pd_report *ra, struct pd_arena *a);

#endif

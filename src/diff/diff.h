/* Private to src/diff/: the change finders and what they share. */
#ifndef PD_DIFF_PRIVATE_H
#define PD_DIFF_PRIVATE_H

#include "pathdoctor/diff.h"

#include <stdint.h>

struct pd_report;

/* A report's items by host (src/diff/index.c). */
enum pd_diff_kind {
	PD_DIFF_FINDING, PD_DIFF_NOT_EVALUATED, PD_DIFF_NOT_APPLICABLE,
	PD_DIFF_LADDER, PD_DIFF_LADDER_GAP,
};

struct pd_diff_item {
	uintptr_t host;
	enum pd_diff_kind kind;
	size_t seq;			/* the order in the report's list */
	const void *item;
};

struct pd_diff_index {
	const struct pd_report *r;
	struct pd_diff_item *v;		/* by host, kind, seq */
	size_t n;
};

void pd_diff_index_build(struct pd_diff_index *x, const struct pd_report *r,
    struct pd_arena *a);
/* The items of kind k of host h, from *first, in the report's order;
 * returns how many. */
size_t pd_diff_index_find(const struct pd_diff_index *x,
    const struct pd_host *h, enum pd_diff_kind k,
    const struct pd_diff_item **first);

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
/* changes_nvme.c */
void pd_changes_nvme(struct pd_changes *c, const struct pd_host *b,
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
void pd_diff_findings(struct pd_diff_host *dh, const struct pd_diff_index *b,
    const struct pd_diff_index *a, struct pd_arena *ar);
/* Throughput, the prediction for the fixes made, the verdict. */
void pd_diff_realised(struct pd_diff_host *dh, const struct pd_diff_index *b,
    const struct pd_diff_index *a, struct pd_arena *ar);

#endif

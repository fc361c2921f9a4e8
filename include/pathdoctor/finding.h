/* Findings: what a rule concluded, with evidence, fix, risk and gain.
 *
 * Ownership: findings live in the arena given to pd_findings_init();
 * rules never free them.  Gains are integers in tenths of a percent so
 * that reports are byte-stable.
 */
#ifndef PD_FINDING_H
#define PD_FINDING_H

#include <stddef.h>
#include "model.h"
#include "status.h"

struct pd_rule;

enum pd_risk { PD_RISK_LOW = 1, PD_RISK_MEDIUM, PD_RISK_HIGH };

/* --fail-on levels, from the expected gain (see pd_finding_level). */
enum pd_level { PD_LEVEL_INFO = 0, PD_LEVEL_LOW, PD_LEVEL_MEDIUM,
	PD_LEVEL_HIGH, PD_LEVEL_OFF };

/* Payload-size histograms for the renderers to draw: one, or two side
 * by side ("tap vs physical"), the first rows sizes by count. */
struct pd_chart {
	const char *title_a, *title_b;	/* title_b NULL: one histogram */
	const struct pd_size_count *a, *b;
	unsigned n_a, n_b;
	unsigned rows;
};

/* What a fix changes in the path, for the ladder (src/ladder/) to
 * compose with the other fixes.  A finding with no lever stays off the
 * ladder and keeps its own gain. */
enum pd_lever_kind {
	PD_LEVER_NONE = 0,
	PD_LEVER_IOMMU_LAZY,	/* strict -> lazy invalidation */
	PD_LEVER_MPS,		/* MaxPayload of a card's links -> mps_to */
	PD_LEVER_LINK_TRAIN,	/* a link trained to its capability */
	PD_LEVER_ALL_PFS,	/* traffic through every PF of a card */
	PD_LEVER_EFFICIENCY,	/* returns share_lo..share_hi of the
				 * throughput where the hardware binds */
	PD_LEVER_SW_GSO,	/* no software segmentation of a guest's
				 * GSO packets on the host */
	PD_LEVER_PFS,		/* traffic also through the PFs of a card
				 * in pf_mask (NVMe multipath spreading
				 * I/O over its paths' PFs) */
	PD_LEVER_PORT_SPEED,	/* an Ethernet port at speed_to Mb/s */
	PD_LEVER_MRRS,		/* MaxReadReq of a card's functions ->
				 * mrrs_to: completions on a transmit path */
	PD_LEVER_CPU_FREQ,	/* the CPUs' frequency cap lifted: the CPU
				 * ceiling rises by share_lo..share_hi
				 * while the CPU binds */
};

struct pd_lever {
	enum pd_lever_kind kind;
	/* the fix as an action on the ladder ("LRO on nic2"); NULL: the
	 * kind says it (EFFICIENCY levers should set it) */
	const char *label;
	const struct pd_card *card;	/* MPS, MRRS, ALL_PFS, PFS, LINK_TRAIN */
	unsigned pf_mask;		/* PFS: bit i is card->pfs[i] */
	const struct pd_pcidev *dev;	/* MPS, MRRS, LINK_TRAIN: the link's
					 * device */
	int mps_to;			/* MPS */
	int mrrs_to;			/* MRRS */
	int mts_to, width_to;		/* LINK_TRAIN */
	const struct pd_profile *profile;	/* IOMMU */
	const char *cores;		/* IOMMU: "Cortex-X925" */
	double f_self, f_incl;		/* IOMMU: busy share in invalidation */
	double busy;			/* IOMMU: busy share of those cores */
	double share_lo, share_hi;	/* EFFICIENCY, SW_GSO, CPU_FREQ:
					 * fraction gained */
	const struct pd_netdev *netdev;	/* SW_GSO: the physical NIC;
					 * PORT_SPEED: the port's netdev */
	int speed_to;			/* PORT_SPEED: Mb/s */
	const struct pd_capture *capture;	/* SW_GSO: its capture */
};

#define PD_MAX_EVIDENCE 8
#define PD_MAX_FIX 8

struct pd_finding {
	const struct pd_rule *rule;
	const struct pd_host *host;
	const char *subject;		/* "0000:01:00.0", "kernel" */
	const char *summary;		/* one sentence with the numbers */
	int gain_lo, gain_hi;		/* tenths of a percent */
	const char *gain_basis;		/* "model: ...; measured: ..." */
	int confidence;			/* 0..100 */
	const char *confidence_note;	/* why not higher; may be NULL */
	enum pd_risk risk;
	const char *risk_note;
	const char *fix[PD_MAX_FIX];	/* commands or config lines */
	unsigned n_fix;
	/* How to check the fix worked: one sentence, then the commands
	 * that show it, one a line after it: "LRO shows on.\nethtool -k
	 * nic2 | grep large-receive-offload"; no command line when the
	 * check is the user's own run.  Renderers print the sentence as
	 * prose and the commands as a shell block. */
	const char *verify;
	const struct pd_chart *chart;	/* NULL when none */
	struct pd_evidence ev[PD_MAX_EVIDENCE];
	unsigned n_ev;
	struct pd_lever lever;		/* PD_LEVER_NONE: off the ladder */
	unsigned ladder_step;		/* 1 for the first step; 0 off it */
	long score;			/* set by pd_findings_rank */
};

struct pd_findings {
	struct pd_arena *arena;
	struct pd_finding **v;
	size_t n, cap;
};

void pd_findings_init(struct pd_findings *fs, struct pd_arena *a);
void pd_findings_release(struct pd_findings *fs);
struct pd_finding *pd_finding_new(struct pd_findings *fs,
    const struct pd_rule *rule, const struct pd_host *h, const char *subject);
void pd_finding_summary(struct pd_findings *fs, struct pd_finding *f,
    const char *fmt, ...) PD_PRINTF(3, 4);
void pd_finding_fix(struct pd_findings *fs, struct pd_finding *f,
    const char *fmt, ...) PD_PRINTF(3, 4);
void pd_finding_evidence(struct pd_finding *f, const struct pd_evidence *ev);
/* Findings on a ladder first, by step (step 1 of every host, then step
 * 2, ...); then score = gain midpoint x confidence; ties by lower risk,
 * rule id, host and subject, so the order is total. */
void pd_findings_rank(struct pd_findings *fs);

enum pd_level pd_finding_level(const struct pd_finding *f);
const char *pd_level_name(enum pd_level l);
int pd_level_parse(const char *s, enum pd_level *out);
const char *pd_risk_name(enum pd_risk r);

#endif

/* The path model the ladder climbs: one host's busiest card, its PFs,
 * links and ports, what binds now, and the fixes that change it.
 * Private to src/ladder/. */
#ifndef PD_LADDER_PATH_H
#define PD_LADDER_PATH_H

#include <stdbool.h>
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/model.h"

/* The estimate a fix's or the hardware's uncertain number takes. */
enum est { EST_LO, EST_EXP, EST_HI, EST_N };

/* What binds the path as it is now, read from the evidence. */
enum binder {
	BIND_HW,	/* observed close to a port, link or spread ceiling */
	BIND_CPU,	/* cores busy in the path, in invalidation */
	BIND_SWGSO,	/* the host segments a guest's packets in software */
	BIND_UNKNOWN,	/* below every ceiling, nothing says why */
};

struct path_fix {
	struct pd_finding *f;
	const struct pd_lever *lv;
};

struct path {
	const struct pd_host *h;
	struct pd_arena *a;
	const struct pd_card *card;
	struct pd_pf_path pf[PD_CARD_MAX_PFS];
	bool active[PD_CARD_MAX_PFS];
	unsigned n_pf;
	bool strict;			/* IOMMU strict now */
	bool polling;			/* the initiator polls (SPDK) */
	enum pd_ladder_dir dir;
	double observed;		/* GB/s */
	const char *source, *what;
	struct pd_evidence ev;
	enum binder binds;
	const char *binds_how;
	double a_meas;			/* observed / hardware now, BIND_HW */
	struct path_fix fix[PD_LADDER_STEPS];
	unsigned n_fix;
	const struct pd_lever *iommu;	/* the IOMMU fix's lever, if any */
};

/* The outcome of a set of fixes: GB/s and what binds then. */
struct outcome {
	double gbs;
	const char *binds;		/* arena string */
	double hw_ideal;		/* the hardware's ceiling then, GB/s */
	const char *hw_binds;		/* what binds the hardware then */
	bool by_hw;			/* the hardware term is the minimum */
};

/* Fills p for host h; false when h has no path to model, with *needs
 * what the bundle lacks for one (NULL: h has no NIC of its own). */
bool pd_path_build(struct path *p, const struct pd_host *h,
    struct pd_findings *fs, const char **needs);
/* The throughput with the fixes in mask (bit i: p->fix[i]) made; fix
 * `which` (or -1 none, EVAL_ALL every fix made) takes estimate e_fix,
 * the others the expected value; the hardware's realised share takes
 * e_hw. */
#define EVAL_ALL (-2)
struct outcome pd_path_eval(const struct path *p, unsigned mask, int which,
    enum est e_fix, enum est e_hw);
/* Share of the links' payload strict-mode translation costs at mps. */
double pd_strict_xlate_loss(int mps);
/* The stages with their ceilings as the host is now. */
void pd_path_stages(const struct path *p, struct pd_ladder *l);
/* What binds now (p->binds, a_meas, binds_how), from the evidence. */
void pd_path_decide(struct path *p);
/* The steps of l: the fixes in the order that raises the path most. */
void pd_ladder_climb(const struct path *p, struct pd_ladder *l);
/* The observed throughput of h's main direction; false when none. */
bool pd_path_observed(struct path *p);

#endif

/* The path-ceiling ladder: for the main traffic direction of a host, the
 * stages of its path with what each carries as the host is now, the
 * observed throughput, and the throughput predicted after each fix in
 * the order that raises the bottleneck most, each step capped by the
 * next ceiling.  Built by src/ladder/ after the rules ran; the findings
 * on a ladder take their expected gain from their step.
 *
 * Rates are bytes per second of payload (NVMe data, TCP payload).
 */
#ifndef PD_LADDER_H
#define PD_LADDER_H

#include <stdbool.h>
#include "model.h"

struct pd_finding;
struct pd_findings;

enum pd_ladder_dir { PD_LADDER_RECEIVE, PD_LADDER_TRANSMIT };

struct pd_ladder_stage {
	const char *stage;	/* "port", "pcie-link", "pf-spread",
				 * "iommu-translation", "cpu", "virtual-path" */
	const char *subject;	/* "nic2", "0000:00:00.0 (Gen5 x4)" */
	double ceiling;		/* bytes/s as the host is now */
	bool binds;		/* the bottleneck now */
	const char *basis;	/* the arithmetic, in words */
};

struct pd_ladder_step {
	struct pd_finding *finding;
	const char *fix;		/* the fix as an action */
	double lo, expected, hi;	/* bytes/s after this fix */
	const char *bottleneck_after;	/* what binds then */
	const char *basis;		/* how this step's numbers follow */
};

#define PD_LADDER_STAGES 24
#define PD_LADDER_STEPS 12

struct pd_ladder_path;	/* the model it was climbed on (src/ladder/) */

struct pd_ladder {
	struct pd_ladder *next;		/* in host order */
	const struct pd_host *host;
	enum pd_ladder_dir dir;
	double observed;		/* bytes/s */
	const char *observed_source;	/* "fio", "iperf3", "spdk_nvme_perf",
					 * "NIC counters", "captures" */
	const char *observed_what;	/* "read bandwidth of every job" */
	struct pd_evidence observed_ev;
	const char *bottleneck;		/* what binds now, as a phrase */
	const char *bottleneck_how;	/* the evidence that says so */
	double ceiling;			/* the hardware's, every fix made */
	const char *ceiling_stage;
	const char *ceiling_basis;
	struct pd_ladder_stage stages[PD_LADDER_STAGES];
	unsigned n_stages;
	struct pd_ladder_step steps[PD_LADDER_STEPS];
	unsigned n_steps;
	const char *verdict;		/* one paragraph: Markdown, terminal */
	const struct pd_ladder_path *path;
};

/* What the path carries with a set of its fixes made. */
struct pd_ladder_prediction {
	double lo, expected, hi;	/* bytes/s */
	const char *binds;		/* what binds then */
	bool from_steps;		/* the set is steps 1..n: step n's
					 * numbers; else the model evaluated
					 * with these fixes alone */
	unsigned last_step;		/* from_steps: n */
};

/* A host with a NIC or a workload output but no ladder, and what the
 * bundle would need for one. */
struct pd_ladder_gap {
	struct pd_ladder_gap *next;	/* in host order */
	const struct pd_host *host;
	const char *needs;
};

/* Builds the ladder of every host that has a path to model, sets the
 * gain, basis and ladder_step of the findings on it; returns the
 * ladders (NULL when none), allocated in the findings' arena, and in
 * *gaps the hosts that could have one. */
struct pd_ladder *pd_ladders_build(const struct pd_model *m,
    struct pd_findings *fs, struct pd_ladder_gap **gaps);

const char *pd_ladder_dir_name(enum pd_ladder_dir d);	/* "receive" */

/* The prediction with the fixes of made[0..n) made (each a finding on
 * l's steps; others are ignored), every fix at its low, expected and
 * high estimate together; false when none of them is on l. */
bool pd_ladder_predict(const struct pd_ladder *l,
    const struct pd_finding *const *made, unsigned n,
    struct pd_ladder_prediction *out);

#endif

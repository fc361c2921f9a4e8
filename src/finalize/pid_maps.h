/* Which mapping names a process's address: the profile's mappings by
 * process, each process's ranges (map_ranges.h) built on its first
 * address, and a forked process's parent for what it did not map: one
 * table of ranges for the process and its parents where it fits. */
#ifndef PD_FINALIZE_PID_MAPS_H
#define PD_FINALIZE_PID_MAPS_H

#include <stddef.h>
#include <stdint.h>
#include "decode/prof_raw.h"
#include "finalize/map_ranges.h"

struct pd_pid_span;

struct pd_pid_maps {
	const struct pd_prof_raw *r;
	struct pd_map_ref *order;	/* by process, then record order */
	struct pd_map_range *ranges;	/* [2 * n_maps], by process */
	size_t n_ranges;
	struct prof_fork *forks;	/* sorted by pid */
	struct pd_pid_span *spans;	/* [span_size], open addressing */
	unsigned span_size, n_spans;
	/* a forked process's mappings and its parents' as one table */
	struct pd_map_ref *chain_run;	/* [n_maps], while one is built */
	struct pd_map_range *chains;
	size_t n_chains, cap_chains;
	size_t max_chains;		/* 4 * n_maps + 1024 (tests: less) */
};

void pd_pid_maps_init(struct pd_pid_maps *pm, const struct pd_prof_raw *r);
void pd_pid_maps_free(struct pd_pid_maps *pm);

/* The mapping that names ip in process pid, or NULL. */
const struct prof_map *pd_pid_map_of(struct pd_pid_maps *pm, uint32_t pid,
    uint64_t ip);

#endif

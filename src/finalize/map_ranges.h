/* A process's mappings as disjoint address ranges, each with the
 * mapping that names it: the latest mapping over an address wins, as a
 * later mmap replaces an earlier. Naming an address is then a binary
 * search, not a scan of every mapping the process made (a JVM makes
 * thousands). */
#ifndef PD_FINALIZE_MAP_RANGES_H
#define PD_FINALIZE_MAP_RANGES_H

#include <stddef.h>
#include <stdint.h>
#include "decode/prof_raw.h"

/* A mapping by its process and its index in the profile's records. */
struct pd_map_ref {
	uint32_t pid, idx;
};

/* Addresses first..last (inclusive, so that a mapping ending at 2^64
 * has a range) are named by the mapping maps[idx]. */
struct pd_map_range {
	uint64_t first, last;
	uint32_t idx;
};

/* The ranges of one process's n mappings run[] (in record order) into
 * out, which has room for 2 * n: each range ends where a mapping ends or
 * just before one starts. Returns their number, in address order. */
size_t pd_map_ranges(const struct prof_map *maps, const struct pd_map_ref *run,
    size_t n, struct pd_map_range *out);

/* The range of ranges[0..n) that holds ip, or NULL. */
const struct pd_map_range *pd_map_range_find(const struct pd_map_range *ranges,
    size_t n, uint64_t ip);

#endif

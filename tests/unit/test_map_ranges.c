/* A process's mappings as ranges (src/finalize/map_ranges.c) and the
 * lookup by process (src/finalize/pid_maps.c) name every address as a
 * scan of the mappings from the latest back does: on random mappings
 * that overlap, nest, are empty or run past 2^64, at every edge of
 * every mapping, through chains of forks (a cycle included, and one
 * longer than the walk goes), by the tables of chains and by the walk
 * that stands in when they would pass their bound, and for processes
 * the full cache of processes no longer holds. */
#include <string.h>
#include "helpers.h"
#include "decode/prof_raw.h"
#include "finalize/map_ranges.h"
#include "finalize/pid_maps.h"

#define MAX_MAPS 96
#define ROUNDS 400

/* starts near 0, in one small window (so that mappings overlap), or
 * near 2^64; lengths empty, small, or large enough to wrap */
static struct prof_map
random_map(uint64_t *s, uint32_t pid)
{
	static const uint64_t base[] = { 0, 0x7f0000000000u,
	    UINT64_MAX - 0x4000 };
	struct prof_map m = { 0 };

	m.start = base[test_random(s) % 3] + test_random(s) % 0x3000;
	switch (test_random(s) % 6) {
	case 0:
		m.len = 0;
		break;
	case 1:
		m.len = UINT64_MAX;
		break;
	case 2:		/* to 2^64 or up to 7 past it */
		m.len = UINT64_MAX - m.start + 1 + test_random(s) % 8;
		break;
	default:
		m.len = 1 + test_random(s) % 0x1800;
		break;
	}
	m.pid = pid;
	return m;
}

static const struct prof_map *
scan(const struct prof_map *maps, size_t n, uint32_t pid, uint64_t ip)
{
	for (size_t k = n; k-- > 0;)
		if (maps[k].pid == pid && ip >= maps[k].start &&
		    ip - maps[k].start < maps[k].len)
			return &maps[k];
	return NULL;
}

/* every mapping's edges, a step either side, and a few elsewhere */
static size_t
probes(const struct prof_map *maps, size_t n, uint64_t *s, uint64_t *ip)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t end = maps[i].start + maps[i].len;

		for (int d = -1; d <= 1; d++) {
			ip[k++] = maps[i].start + (uint64_t)d;
			ip[k++] = end + (uint64_t)d;
		}
	}
	ip[k++] = 0;
	ip[k++] = UINT64_MAX;
	for (int i = 0; i < 16; i++)
		ip[k++] = random_map(s, 0).start;
	return k;
}

/* sorted, disjoint, at most two per mapping, neighbours not the same
 * mapping end to end (they would be one range) */
static void
check_shape(const struct pd_map_range *g, size_t n_ranges, size_t n_maps)
{
	assert_true(n_ranges <= 2 * n_maps);
	for (size_t i = 0; i < n_ranges; i++) {
		assert_true(g[i].first <= g[i].last);
		if (i == 0)
			continue;
		assert_true(g[i - 1].last < g[i].first);
		assert_false(g[i - 1].idx == g[i].idx &&
		    g[i - 1].last + 1 == g[i].first);
	}
}

static void
test_ranges_as_scan(void **state)
{
	(void)state;
	uint64_t s = 1;
	static struct prof_map maps[MAX_MAPS];
	static struct pd_map_ref run[MAX_MAPS];
	static struct pd_map_range g[2 * MAX_MAPS];
	static uint64_t ip[MAX_MAPS * 6 + 32];

	for (int round = 0; round < ROUNDS; round++) {
		size_t n = test_random(&s) % (MAX_MAPS + 1);

		for (size_t i = 0; i < n; i++) {
			maps[i] = random_map(&s, 7);
			run[i] = (struct pd_map_ref){ 7, (uint32_t)i };
		}
		size_t n_ranges = pd_map_ranges(maps, run, n, g);

		check_shape(g, n_ranges, n);
		size_t n_ip = probes(maps, n, &s, ip);

		for (size_t i = 0; i < n_ip; i++) {
			const struct pd_map_range *r = pd_map_range_find(g,
			    n_ranges, ip[i]);

			assert_ptr_equal(r ? &maps[r->idx] : NULL,
			    scan(maps, n, 7, ip[i]));
		}
	}
}

/* the forks' parent of pid, walked as far as the lookup walks */
static const struct prof_map *
scan_forked(const struct prof_map *maps, size_t n,
    const struct prof_fork *forks, size_t n_forks, uint32_t pid, uint64_t ip)
{
	for (int depth = 0; depth < 8; depth++) {
		const struct prof_map *m = scan(maps, n, pid, ip);
		const struct prof_fork *f = NULL;

		if (m)
			return m;
		for (size_t i = 0; i < n_forks && !f; i++)
			if (forks[i].pid == pid)
				f = &forks[i];
		if (!f || f->ppid == pid)
			return NULL;
		pid = f->ppid;
	}
	return NULL;
}

enum round {
	SHORT,		/* pids 1..6 map, forks among them and from 7..12 */
	FILL_FIRST,	/* 40..199 looked up first: the cache is full before
			 * most of the mapped ones are found */
	NO_CHAINS,	/* no room for tables of chains: the walk */
	LONG,		/* 1..20 map, each forked from the one before */
	LONG_WALK,	/* the same by the walk */
	CYCLE,		/* 1 and 2 map everything, each forked from the
			 * other: the walk goes round, a table holds each
			 * mapping once */
};

#define PIDS 20

static void
lookup_round(uint64_t *s, enum round how)
{
	static struct prof_map maps[MAX_MAPS];
	static struct prof_fork forks[PIDS];
	static uint64_t ip[MAX_MAPS * 6 + 32];
	struct pd_prof_raw r;
	struct pd_pid_maps pm;
	size_t n = 1 + test_random(s) % MAX_MAPS, n_forks = 0;
	uint32_t mapping_pids = how == CYCLE ? 2 : how >= LONG ? PIDS : 6;

	for (size_t i = 0; i < n; i++)
		maps[i] = random_map(s, 1 + (uint32_t)(test_random(s) % mapping_pids));
	for (uint32_t pid = 1; pid <= 12 && how < LONG; pid++)
		if (test_random(s) % 3)	/* a cycle 1 -> 2 -> 1 may be made */
			forks[n_forks++] = (struct prof_fork){ pid,
			    1 + (uint32_t)(test_random(s) % 6) };
	for (uint32_t pid = 2; pid <= PIDS && (how == LONG || how == LONG_WALK); pid++)
		forks[n_forks++] = (struct prof_fork){ pid, pid - 1 };
	for (uint32_t pid = 1; pid <= 2 && how == CYCLE; pid++)
		forks[n_forks++] = (struct prof_fork){ pid, 3 - pid };
	memset(&r, 0, sizeof(r));
	r.maps = maps;
	r.n_maps = (unsigned)n;
	r.forks = forks;
	r.n_forks = (unsigned)n_forks;
	pd_pid_maps_init(&pm, &r);
	if (how == NO_CHAINS || how == LONG_WALK)
		pm.max_chains = 0;
	if (how == FILL_FIRST)
		for (uint32_t pid = 40; pid < 200; pid++)
			assert_null(pd_pid_map_of(&pm, pid, 0x1000));
	size_t n_ip = probes(maps, n, s, ip);

	for (size_t i = 0; i < n_ip; i++)
		for (uint32_t pid = 0; pid <= PIDS + 1; pid++)
			assert_ptr_equal(pd_pid_map_of(&pm, pid, ip[i]),
			    scan_forked(maps, n, forks, n_forks, pid, ip[i]));
	pd_pid_maps_free(&pm);
}

static void
test_lookup_as_scan(void **state)
{
	(void)state;
	uint64_t s = 2;

	for (int round = 0; round < ROUNDS / 4; round++) {
		lookup_round(&s, SHORT);
		lookup_round(&s, FILL_FIRST);
		lookup_round(&s, NO_CHAINS);
		lookup_round(&s, LONG);
		lookup_round(&s, LONG_WALK);
		lookup_round(&s, CYCLE);
	}
}

int
test_group_map_ranges(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_as_scan),
		cmocka_unit_test(test_lookup_as_scan),
	};

	return cmocka_run_group_tests_name("map-ranges", tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's description of a four-CPU machine with two LLCs, for the unit
 * tests of the comparators that follow the topology (lib/topology.c).
 */
#ifndef CFSR_TEST_TWO_LLC_H
#define CFSR_TEST_TWO_LLC_H

#include "trace.h"

/*
 * Four CPUs in one package, two LLCs: per CPU an L2 of its own, L3 [0-1]
 * and [2-3], and an instruction cache over all four (not an LLC: only
 * data and unified caches count), as a recorded trace's metadata or
 * perf's HEADER_CACHE lists them.
 */
static const struct cfsr_cpu_cache two_llc_caches[] = {
	{ 2, "Unified", "1024K", 64, 1024, 16, "0" },
	{ 2, "Unified", "1024K", 64, 1024, 16, "1" },
	{ 2, "Unified", "1024K", 64, 1024, 16, "2" },
	{ 2, "Unified", "1024K", 64, 1024, 16, "3" },
	{ 3, "Unified", "16384K", 64, 16384, 16, "0-1" },
	{ 3, "Unified", "16384K", 64, 16384, 16, "2-3" },
	{ 4, "Instruction", "64K", 64, 64, 8, "0-3" },
};

static const struct cfsr_cpu_topo two_llc_cpus[] = {
	{ 0, 0, 0, "0", "0-3", "0-3", 0, 0 },
	{ 1, 0, 0, "1", "0-3", "0-3", 0, 0 },
	{ 2, 0, 0, "2", "0-3", "0-3", 0, 0 },
	{ 3, 0, 0, "3", "0-3", "0-3", 0, 0 },
};

static const struct cfsr_trace_info two_llc = {
	.nr_cpus = 4,
	.topo = two_llc_cpus,
	.nr_topo = 4,
	.topo_source = "test",
	.caches = two_llc_caches,
	.nr_caches = sizeof(two_llc_caches) / sizeof(two_llc_caches[0]),
	.caches_source = "test",
};

#endif /* CFSR_TEST_TWO_LLC_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Nice level to load weight: the kernel's two fixed tables and lookups.
 *
 * The values are copied literally from sched_prio_to_weight[] and
 * sched_prio_to_wmult[] in kernel/sched/core.c; they have been unchanged
 * since the tables were introduced (named prio_to_weight[] and
 * prio_to_wmult[] before v4.9).  Neighbouring weights differ by about
 * 1.25 ("10% CPU per nice level") and wmult is about 2^32 / weight, but
 * both were rounded by hand; only the literal values reproduce the kernel.
 */
#include "weight.h"

#include "math.h"

/* clang-format off */
const int cfsr_sched_prio_to_weight[CFSR_NICE_WIDTH] = {
	/* -20 */     88761,     71755,     56483,     46273,     36291,
	/* -15 */     29154,     23254,     18705,     14949,     11916,
	/* -10 */      9548,      7620,      6100,      4904,      3906,
	/*  -5 */      3121,      2501,      1991,      1586,      1277,
	/*   0 */      1024,       820,       655,       526,       423,
	/*   5 */       335,       272,       215,       172,       137,
	/*  10 */       110,        87,        70,        56,        45,
	/*  15 */        36,        29,        23,        18,        15,
};
/* clang-format on */

/* clang-format off */
const uint32_t cfsr_sched_prio_to_wmult[CFSR_NICE_WIDTH] = {
	/* -20 */     48388,     59856,     76040,     92818,    118348,
	/* -15 */    147320,    184698,    229616,    287308,    360437,
	/* -10 */    449829,    563644,    704093,    875809,   1099582,
	/*  -5 */   1376151,   1717300,   2157191,   2708050,   3363326,
	/*   0 */   4194304,   5237765,   6557202,   8165337,  10153587,
	/*   5 */  12820798,  15790321,  19976592,  24970740,  31350126,
	/*  10 */  39045157,  49367440,  61356676,  76695844,  95443717,
	/*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};
/* clang-format on */

static int nice_valid(int nice)
{
	return nice >= CFSR_NICE_MIN && nice <= CFSR_NICE_MAX;
}

uint64_t cfsr_nice_to_weight(int nice)
{
	if (!nice_valid(nice))
		return 0;
	return (uint64_t)cfsr_sched_prio_to_weight[nice - CFSR_NICE_MIN];
}

uint64_t cfsr_nice_to_load_weight(int nice)
{
	return cfsr_scale_load(cfsr_nice_to_weight(nice));
}

uint32_t cfsr_nice_to_wmult(int nice)
{
	if (!nice_valid(nice))
		return 0;
	return cfsr_sched_prio_to_wmult[nice - CFSR_NICE_MIN];
}

uint64_t cfsr_prio_to_weight(int prio)
{
	if (prio < CFSR_MAX_RT_PRIO || prio >= CFSR_MAX_RT_PRIO + CFSR_NICE_WIDTH)
		return 0;
	return cfsr_nice_to_weight(prio - CFSR_DEFAULT_PRIO);
}

uint64_t cfsr_prio_to_load_weight(int prio)
{
	return cfsr_scale_load(cfsr_prio_to_weight(prio));
}

uint32_t cfsr_prio_to_wmult(int prio)
{
	if (prio < CFSR_MAX_RT_PRIO || prio >= CFSR_MAX_RT_PRIO + CFSR_NICE_WIDTH)
		return 0;
	return cfsr_nice_to_wmult(prio - CFSR_DEFAULT_PRIO);
}

uint64_t cfsr_idle_load_weight(void)
{
	return cfsr_scale_load(WEIGHT_IDLEPRIO);
}

/*
 * Mirrors __update_inv_weight() in kernel/sched/fair.c, v5.7-v6.18.
 *
 * w = scale_load_down(weight); the "w >= WMULT_CONST" guard is the 64-bit
 * branch (BITS_PER_LONG > 32), a zero weight gets the largest inverse.
 * Differs: returns the value instead of caching it in lw->inv_weight.
 */
uint32_t cfsr_weight_inv(uint64_t load_weight)
{
	uint64_t w = cfsr_scale_load_down(load_weight);

	if (w >= WMULT_CONST)
		return 1;
	if (!w)
		return WMULT_CONST;
	return (uint32_t)(WMULT_CONST / w);
}

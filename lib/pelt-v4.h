/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PELT of v4.3-v5.6: the util_avg/load_avg rewrite and its successors up
 * to the end of runnable_load_avg, reproduced in integers.
 *
 * From v4.3 (9d89c257dfb9) entities and cfs_rqs share one struct
 * sched_avg and one update: geometric sums of load (weighted by the
 * entity's or cfs_rq's weight), of utilization and, for a cfs_rq, of the
 * runnable (queued) load, averaged by dividing by the largest possible
 * sum.  The generations differ in how they accumulate (the per-signal
 * period completion of v4.3-v4.11 with __compute_runnable_contrib, the
 * three segments of v4.12+), in the divider (LOAD_AVG_MAX until v4.12,
 * LOAD_AVG_MAX - 1024 + period_contrib from v4.13), in whose weight
 * multiplies the sums (the sum itself until v4.14, the average from
 * v4.15, which also gives entities their own runnable_load signal), and
 * in where frequency and capacity scaling happen (inside the sums until
 * v5.0, in the PELT clock from v5.1).  v5.7 replaced runnable_load_avg
 * by runnable_avg: lib/pelt.c models that and later releases.
 */
#ifndef CFSR_PELT_V4_H
#define CFSR_PELT_V4_H

#include <stdbool.h>
#include <stdint.h>

#include "math.h"

/**
 * struct cfsr_v4_params - PELT behaviour of one range of v4.3-v5.6 releases
 * @name: the release range, for output headers
 * @table_contrib: __compute_runnable_contrib() reads __accumulated_sum_N32
 *                 (v4.7-v4.11); before, the halving loop
 * @segments: accumulate_sum() with __accumulate_pelt_segments() and
 *            last_update_time advanced by whole units (v4.12+); before,
 *            the v4.3 per-signal completion and last_update_time = now
 * @divider_period_contrib: divider LOAD_AVG_MAX - 1024 + period_contrib
 *                          (v4.13+, 625ed2bf049d); before, LOAD_AVG_MAX
 * @zero_load_masks: a zero load input also zeroes runnable and running
 *                   (every v4.19+ copy; set from v4.12, the first release
 *                   read only at second hand; the v4.3-v4.11 code adds to
 *                   util_sum whenever running)
 * @unweighted_se: entity sums are unweighted and the average multiplies
 *                 by the weight, with a separate runnable_load signal
 *                 (v4.15+); before, the caller passes the weight to the sum
 * @propagate: attach, detach and removed load below a group entity are
 *             propagated to it and up the hierarchy (09a43ace1f98,
 *             "Propagate load during synchronous attach/detach", v4.10+)
 * @scale_load_down_floor: scale_load_down() gives at least 2 for a non-zero
 *                         weight (26cf52229efc, "sched: Avoid scale real
 *                         weight down to zero": v5.7, and the stable
 *                         releases of April 2020, 4.9.220, 4.14.177,
 *                         4.19.116, 5.4.33, 5.5.18, 5.6.5); before, the
 *                         shift alone, which turns an internal weight below
 *                         2048 (a group entity's, down to MIN_SHARES) into 0
 *                         or 1
 */
struct cfsr_v4_params {
	const char *name;
	bool table_contrib;
	bool segments;
	bool divider_period_contrib;
	bool zero_load_masks;
	bool unweighted_se;
	bool propagate;
	bool scale_load_down_floor;
};

/* v4.3-v4.6 */
extern const struct cfsr_v4_params cfsr_v4_params_v4_3;
/* v4.7-v4.9: table-driven __compute_runnable_contrib() */
extern const struct cfsr_v4_params cfsr_v4_params_v4_7;
/* v4.10-v4.11: the same with propagation through group entities */
extern const struct cfsr_v4_params cfsr_v4_params_v4_10;
/* v4.12: segments, divider still LOAD_AVG_MAX */
extern const struct cfsr_v4_params cfsr_v4_params_v4_12;
/* v4.13-v4.14: divider with period_contrib */
extern const struct cfsr_v4_params cfsr_v4_params_v4_13;
/* v4.15-v5.6: unweighted entity sums, runnable_load signals */
extern const struct cfsr_v4_params cfsr_v4_params_v4_15;
/* Stable 4.9.220-4.9.y: v4.7's with the scale_load_down() floor */
extern const struct cfsr_v4_params cfsr_v4_params_v4_9_220;
/* Stable 4.14.177-4.14.y: v4.13's with the scale_load_down() floor */
extern const struct cfsr_v4_params cfsr_v4_params_v4_14_177;
/* Stable 4.19.116+, 5.4.33+, 5.5.18+, 5.6.5+: v4.15's with the floor */
extern const struct cfsr_v4_params cfsr_v4_params_v4_19_116;

/**
 * cfsr_v4_weight() - scale_load_down() of a v4.3-v5.6 kernel
 * @v4: the parameters
 * @load_weight: an internal weight (20-bit resolution)
 *
 * Return: @load_weight >> SCHED_FIXEDPOINT_SHIFT, at least 2 for a
 * non-zero weight where @v4 has the floor.
 */
uint64_t cfsr_v4_weight(const struct cfsr_v4_params *v4, uint64_t load_weight);

/**
 * struct cfsr_v4_avg - struct sched_avg of v4.3-v5.6 (64-bit)
 * @last_update_time: clock (ns) of the last update
 * @load_sum: decayed runnable time; times the weight before v4.15, and
 *            always for a cfs_rq
 * @runnable_load_sum: for a cfs_rq, the same for queued entities only
 *                     (in struct cfs_rq before v4.15); for an entity
 *                     (v4.15+), its unweighted runnable time
 * @util_sum: decayed running time times the CPU capacity (u32)
 * @period_contrib: units accumulated in the current period
 * @load_avg: load average
 * @runnable_load_avg: runnable load average
 * @util_avg: utilization
 */
struct cfsr_v4_avg {
	uint64_t last_update_time;
	uint64_t load_sum;
	uint64_t runnable_load_sum;
	uint32_t util_sum;
	uint32_t period_contrib;
	uint64_t load_avg;
	uint64_t runnable_load_avg;
	uint64_t util_avg;
};

#define CFSR_V4_AVG_INIT \
	{                \
		0        \
	}

/**
 * cfsr_v4_update_load_sum() - bring a signal's sums up to @now
 * @params: kernel behaviour
 * @now: clock in ns (cfs_rq_clock_task(); the PELT clock from v5.1)
 * @sa: the signal
 * @load: load input: before v4.15, on_rq * scale_load_down(weight) for an
 *        entity and scale_load_down(cfs_rq->load.weight) for a cfs_rq;
 *        from v4.15, !!on_rq for an entity
 * @runnable: runnable_load input: for a cfs_rq the same weight as @load
 *            before v4.15 and its runnable_weight after; !!on_rq for an
 *            entity from v4.15; 0 for an entity before
 * @running: the entity or cfs_rq is running
 * @scale_freq: arch_scale_freq_capacity() (1024 on x86 before v5.7, and
 *              always from v5.1, where the clock is scaled instead)
 * @scale_cpu: arch_scale_cpu_capacity() (1024 unless asymmetric; always
 *             1024 from v5.1)
 *
 * Return: 1 if a period boundary was crossed (averages are stale), else 0.
 */
int cfsr_v4_update_load_sum(const struct cfsr_v4_params *params, uint64_t now,
			    struct cfsr_v4_avg *sa, uint64_t load, uint64_t runnable, int running,
			    uint32_t scale_freq, uint32_t scale_cpu);

/**
 * cfsr_v4_update_load_avg() - recompute the averages from the sums
 * @params: kernel behaviour
 * @sa: the signal
 * @load: weight multiplying load_sum: se_weight() for an entity from v4.15,
 *        else 1
 * @runnable: weight multiplying runnable_load_sum: se_runnable() for an
 *            entity from v4.15, else 1
 */
void cfsr_v4_update_load_avg(const struct cfsr_v4_params *params, struct cfsr_v4_avg *sa,
			     uint64_t load, uint64_t runnable);

/**
 * cfsr_v4_divider() - the averaging divider
 * @params: kernel behaviour
 * @sa: the signal
 *
 * Return: LOAD_AVG_MAX (v4.3-v4.12) or LOAD_AVG_MAX - 1024 + period_contrib.
 */
uint32_t cfsr_v4_divider(const struct cfsr_v4_params *params, const struct cfsr_v4_avg *sa);

/**
 * cfsr_v4_update_tg_load_avg() - push a cfs_rq's load to its group
 * @load_avg: the cfs_rq's avg.load_avg
 * @tg_load_avg_contrib: what it pushed last; updated
 * @tg_load_avg: tg->load_avg; updated
 * @force: push whatever the change
 *
 * Return: true if pushed.
 */
bool cfsr_v4_update_tg_load_avg(uint64_t load_avg, uint64_t *tg_load_avg_contrib,
				int64_t *tg_load_avg, bool force);

/**
 * cfsr_v4_calc_cfs_shares() - a group entity's weight on one CPU, v4.3-v4.14
 * @v4: the parameters (the scale_load_down() floor)
 * @tg_load_avg: tg->load_avg
 * @tg_load_avg_contrib: this cfs_rq's tg_load_avg_contrib
 * @load_weight: this cfs_rq's load.weight (internal resolution: 20 bits
 *               from v4.7 on 64-bit)
 * @tg_shares: tg->shares (same resolution)
 * @scaled: v4.7+ (ea1dc6fc6242): scale_load_down() the cfs_rq weight
 *          before mixing it with load averages
 *
 * Return: shares in [MIN_SHARES, tg->shares].
 */
uint64_t cfsr_v4_calc_cfs_shares(const struct cfsr_v4_params *v4, int64_t tg_load_avg,
				 uint64_t tg_load_avg_contrib, uint64_t load_weight,
				 uint64_t tg_shares, bool scaled);

/**
 * cfsr_v4_calc_group_shares() - a group entity's weight on one CPU, v4.15-v5.6
 * @v4: the parameters (the scale_load_down() floor)
 * @tg_load_avg: tg->load_avg
 * @tg_load_avg_contrib: this cfs_rq's tg_load_avg_contrib
 * @load_weight: this cfs_rq's load.weight (20-bit resolution)
 * @load_avg: this cfs_rq's avg.load_avg
 * @tg_shares: tg->shares (20-bit resolution)
 *
 * Return: shares in [MIN_SHARES, tg->shares].
 */
uint64_t cfsr_v4_calc_group_shares(const struct cfsr_v4_params *v4, int64_t tg_load_avg,
				   uint64_t tg_load_avg_contrib, uint64_t load_weight,
				   uint64_t load_avg, uint64_t tg_shares);

/**
 * cfsr_v4_calc_group_runnable() - a group entity's runnable weight, v4.15-v5.6
 * @v4: the parameters (the scale_load_down() floor)
 * @load_avg: the group cfs_rq's avg.load_avg
 * @load_weight: its load.weight (20-bit resolution)
 * @runnable_load_avg: its avg.runnable_load_avg
 * @runnable_weight: its runnable_weight (20-bit resolution)
 * @shares: the group entity's new weight (cfsr_v4_calc_group_shares())
 *
 * Return: the runnable weight in [MIN_SHARES, @shares].
 */
uint64_t cfsr_v4_calc_group_runnable(const struct cfsr_v4_params *v4, uint64_t load_avg,
				     uint64_t load_weight, uint64_t runnable_load_avg,
				     uint64_t runnable_weight, uint64_t shares);

/**
 * cfsr_v4_update_tg_cfs_util() - propagate a group cfs_rq's utilization, v4.10-v5.6
 * @cfs: the parent cfs_rq's signal
 * @se: the group entity's signal
 * @gcfs: the group cfs_rq's signal
 */
void cfsr_v4_update_tg_cfs_util(struct cfsr_v4_avg *cfs, struct cfsr_v4_avg *se,
				const struct cfsr_v4_avg *gcfs);

/**
 * cfsr_v4_update_tg_cfs_load() - propagate a group cfs_rq's load, v4.10-v4.14
 * @cfs: the parent cfs_rq's signal (its runnable_load_* are the cfs_rq's)
 * @se: the group entity's signal
 * @gcfs: the group cfs_rq's signal
 * @tg_load_avg: the group's tg->load_avg
 * @tg_load_avg_contrib: the group cfs_rq's tg_load_avg_contrib
 * @tg_shares: tg->shares (20-bit resolution)
 * @on_rq: the group entity is queued
 */
void cfsr_v4_update_tg_cfs_load(struct cfsr_v4_avg *cfs, struct cfsr_v4_avg *se,
				const struct cfsr_v4_avg *gcfs, int64_t tg_load_avg,
				uint64_t tg_load_avg_contrib, uint64_t tg_shares, bool on_rq);

/**
 * cfsr_v4_update_tg_cfs_runnable() - propagate runnable time to a group entity, v4.15-v5.6
 * @v4: the parameters (the scale_load_down() floor)
 * @cfs: the parent cfs_rq's signal
 * @se: the group entity's signal (unweighted load_sum and runnable_load_sum)
 * @gcfs_load_sum: the group cfs_rq's avg.load_sum
 * @gcfs_load_weight: the group cfs_rq's load.weight (20-bit resolution)
 * @prop_runnable_sum: the group cfs_rq's prop_runnable_sum; cleared
 * @se_weight: se_weight() of the group entity
 * @se_runnable: se_runnable() of the group entity
 * @on_rq: the group entity is queued
 * @scale_cpu: arch_scale_cpu_capacity() of the CPU
 */
void cfsr_v4_update_tg_cfs_runnable(const struct cfsr_v4_params *v4, struct cfsr_v4_avg *cfs,
				    struct cfsr_v4_avg *se, uint64_t gcfs_load_sum,
				    uint64_t gcfs_load_weight, int64_t *prop_runnable_sum,
				    uint64_t se_weight, uint64_t se_runnable, bool on_rq,
				    uint32_t scale_cpu);

/**
 * cfsr_v4_reweight_entity() - the PELT part of reweight_entity(), v4.15-v5.6
 * @params: kernel behaviour
 * @cfs: the cfs_rq the entity is on
 * @se: the entity's signal (unweighted sums)
 * @old_weight: its se_weight() before (10-bit)
 * @old_runnable: its se_runnable() before (10-bit)
 * @weight: se_weight() after (10-bit)
 * @runnable: se_runnable() after (10-bit)
 * @on_rq: the entity is queued: its runnable load moves too
 */
void cfsr_v4_reweight_entity(const struct cfsr_v4_params *params, struct cfsr_v4_avg *cfs,
			     struct cfsr_v4_avg *se, uint64_t old_weight, uint64_t old_runnable,
			     uint64_t weight, uint64_t runnable, bool on_rq);

#endif /* CFSR_PELT_V4_H */

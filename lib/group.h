/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Group scheduling: the arithmetic of task groups on values.
 *
 * A task group (a cpu cgroup such as "/grpA/child", an autogroup
 * "/autogroup-N", or the root "/") owns, on every CPU, a cfs_rq (the
 * "grq") and, except for the root, a group scheduling entity queued on
 * the parent group's cfs_rq of the same CPU.  The weight of a group
 * entity is the group's shares split by the load each CPU carries
 * (calc_group_shares()), and that load is read from tg->load_avg, a sum
 * of per-CPU contributions published only when they drift by more than
 * 1/64 (update_tg_load_avg()).  When a task attaches to or leaves a group
 * cfs_rq, the jump in its sums is propagated up the hierarchy
 * (propagate_entity_load_avg()).
 *
 * This module mirrors those formulas of kernel/sched/fair.c, in integers,
 * on values the caller passes.  The hierarchy and its state (groups,
 * per-CPU cfs_rqs and group entities, the enqueue, dequeue, tick,
 * pick/put, migration, cgroup-move and blocked-load walks) are the replay
 * engine's (lib/replay.c), which decides when each formula applies.
 * Behaviour that changed between releases is chosen through a const
 * struct cfsr_group_params.
 */
#ifndef CFSR_GROUP_H
#define CFSR_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pelt.h"

/* Group weight bounds in user (10-bit) units (kernel/sched/sched.h). */
#define MIN_SHARES 2
#define MAX_SHARES (1UL << 18)

/* cgroup v2 cpu.weight range and default (include/linux/cgroup.h). */
#define CGROUP_WEIGHT_MIN 1
#define CGROUP_WEIGHT_DFL 100
#define CGROUP_WEIGHT_MAX 10000

/* update_tg_load_avg() publishes at most once per ms of sched_clock (v6.7+). */
#define CFSR_TG_LOAD_RATELIMIT_NS 1000000

/**
 * struct cfsr_group_params - group-scheduling behaviour of a range of releases
 * @name: the release range, for output headers
 * @tg_load_ratelimit: update_tg_load_avg() publishes at most once per
 *                     1 ms of sched_clock_cpu() per cfs_rq (1528c661c24b,
 *                     v6.7); before, on every call past the threshold
 * @keep_empty_weight: update_cfs_group() leaves the weight of a group
 *                     entity whose cfs_rq is empty as it is (66951e4860d3,
 *                     v6.13 and stable 6.12.11, for DELAY_DEQUEUE);
 *                     before, an empty group was reweighted (to MIN_SHARES
 *                     once its load decayed)
 * @reweight_unchanged: update_cfs_group() calls reweight_entity() even
 *                      when calc_group_shares() gives the entity's current
 *                      weight, which recomputes its load_avg from its
 *                      load_sum (before eab03c23c2a1, v6.7 and stable
 *                      6.6.4)
 * @reweight_eevdf: reweight_entity() moves a queued entity by
 *                  reweight_eevdf(), its lag and deadline against V scaled
 *                  by old/new weight (eab03c23c2a1, v6.7 and stable 6.6.4);
 *                  before, only its deadline relative to its vruntime
 * @reweight_v_fixed: reweight_eevdf() reads V before a waiting entity
 *                    leaves the tree (afae8002b4fd) and clamps the lag as
 *                    entity_lag() does (1560d1f6eb6b), both with
 *                    11b1b8bc2b98 (update_curr() whether the entity runs
 *                    or not, which the engine does not model): v6.9 and
 *                    stable 6.6.30, 6.8.9; before, V without the waiting
 *                    entity and the lag unclamped
 *
 * Every table also assumes what v4.15+ kernels share: calc_group_shares()
 * with tg_weight = tg->load_avg - contrib + max(load.weight, load_avg),
 * MIN_SHARES unscaled; the 1/64 threshold; propagation by
 * prop_runnable_sum.  The PELT arithmetic proper is chosen separately
 * (struct cfsr_pelt_params).
 *
 * A cfs_rq's runnable input and a group entity's runnable_weight count
 * delayed tasks in 6.12.0-6.12.6 (h_nr_running; h_nr_running -
 * h_nr_delayed from stable 6.12.7 and v6.13, h_nr_runnable from v6.14):
 * a profile field, profile->runnable_delayed.
 *
 * Not modelled: cfs_rq_is_decayed() also requiring tg_load_avg_contrib == 0
 * (ca125231dd29, stable 6.17.y and 6.18.y from December 2025), which keeps
 * a cfs_rq on the leaf list until its contribution is withdrawn.
 */
struct cfsr_group_params {
	const char *name;
	bool tg_load_ratelimit;
	bool keep_empty_weight;
	bool reweight_unchanged;
	bool reweight_eevdf;
	bool reweight_v_fixed;
};

/* v6.13-v6.18 and stable 6.12.11+. */
extern const struct cfsr_group_params cfsr_group_params_v6_12;
/* Stable 6.12.0-6.12.10: an empty group still reweighted. */
extern const struct cfsr_group_params cfsr_group_params_v6_12_0;
/* Stable 6.8.9-6.8.y and v6.9-v6.11. */
extern const struct cfsr_group_params cfsr_group_params_v6_8_9;
/* v6.7-v6.8.8. */
extern const struct cfsr_group_params cfsr_group_params_v6_7;
/* Stable 6.6.30-6.6.y: 6.6.4's with the reweight_eevdf() fixes of v6.9. */
extern const struct cfsr_group_params cfsr_group_params_v6_6_30;
/* Stable 6.6.4-6.6.29: v6.6 with eab03c23c2a1. */
extern const struct cfsr_group_params cfsr_group_params_v6_6_4;
/* v5.7-v6.6.3. */
extern const struct cfsr_group_params cfsr_group_params_v6_6;

/**
 * cfsr_group_params_for() - the group behaviour of a kernel release
 * @version: CFSR_KVER(major, minor, sublevel) (cfsr_profile_version())
 *
 * Return: a static table, or NULL before v5.7 (not modelled).
 */
const struct cfsr_group_params *cfsr_group_params_for(int version);

/* ---- arithmetic on values ------------------------------------------------------------------- */

/**
 * cfsr_group_calc_shares() - the weight of a group entity on one CPU
 * @pelt: PELT behaviour (for scale_load_down())
 * @tg_shares: tg->shares, scaled
 * @grq_load_weight: the group cfs_rq's load.weight on that CPU
 * @grq_load_avg: its avg.load_avg
 * @tg_load_avg: tg->load_avg
 * @tg_load_avg_contrib: the cfs_rq's published contribution
 *
 * Mirrors calc_group_shares() in kernel/sched/fair.c, v4.15-v6.18.
 *
 * Return: tg_shares * load / (tg_load_avg - contrib + load), load =
 * max(scale_load_down(@grq_load_weight), @grq_load_avg), clamped to
 * [MIN_SHARES, @tg_shares] (the floor unscaled).
 */
uint64_t cfsr_group_calc_shares(const struct cfsr_pelt_params *pelt, uint64_t tg_shares,
				uint64_t grq_load_weight, uint64_t grq_load_avg,
				int64_t tg_load_avg, uint64_t tg_load_avg_contrib);

/**
 * cfsr_group_publish_load() - publish a cfs_rq's load into tg->load_avg
 * @params: group behaviour
 * @tg_load_avg: tg->load_avg, updated
 * @contrib: the cfs_rq's tg_load_avg_contrib, updated
 * @last_update: its last_update_tg_load_avg, updated
 * @load_avg: the cfs_rq's avg.load_avg
 * @sched_now: sched_clock_cpu() of its CPU
 *
 * Mirrors the body of update_tg_load_avg() in kernel/sched/fair.c after
 * its root and CPU-active checks, v6.7-v6.18 (v4.15-v6.6 without the rate
 * limit).
 *
 * Return: true if the contribution was published.
 */
bool cfsr_group_publish_load(const struct cfsr_group_params *params, int64_t *tg_load_avg,
			     uint64_t *contrib, uint64_t *last_update, uint64_t load_avg,
			     uint64_t sched_now);

/**
 * cfsr_group_propagate() - carry a group cfs_rq's change to its entity
 * @pelt: PELT behaviour
 * @cfs: the parent cfs_rq's signal (the entity is queued there), aged
 * @se: the group entity's signal
 * @se_load_weight: the group entity's se->load.weight
 * @gcfs: the group cfs_rq's signal
 * @gcfs_load_weight: the group cfs_rq's load.weight
 * @prop_runnable_sum: the group cfs_rq's prop_runnable_sum; consumed
 *
 * Mirrors update_tg_cfs_util(), update_tg_cfs_runnable() and
 * update_tg_cfs_load() in kernel/sched/fair.c, v5.7-v6.18 (the v5.7-v5.16
 * arithmetic by @pelt), in the order propagate_entity_load_avg() calls
 * them.  The caller forwards
 * @prop_runnable_sum to the parent first, as the kernel does.
 */
void cfsr_group_propagate(const struct cfsr_pelt_params *pelt, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t se_load_weight,
			  const struct cfsr_sched_avg *gcfs, uint64_t gcfs_load_weight,
			  int64_t *prop_runnable_sum);

/**
 * cfsr_group_shares_from_v1() - tg->shares for a cgroup v1 cpu.shares
 * @cpu_shares: the value written
 *
 * Mirrors cpu_shares_write_u64() and the clamp of __sched_group_set_shares()
 * in kernel/sched/core.c and fair.c, v4.7-v6.18.
 *
 * Return: scale_load(@cpu_shares) clamped to [scale_load(MIN_SHARES),
 * scale_load(MAX_SHARES)].
 */
uint64_t cfsr_group_shares_from_v1(uint64_t cpu_shares);

/**
 * cfsr_group_shares_from_v2() - tg->shares for a cgroup v2 cpu.weight
 * @cpu_weight: the value written, 1..10000
 * @shares: set to the scaled shares
 *
 * Mirrors cpu_weight_write_u64() with sched_weight_from_cgroup(), v4.15-v6.18
 * (the conversion was factored out unchanged in v6.12).
 *
 * Return: 0, or -1 (reported) for a weight the kernel refuses with ERANGE.
 */
int cfsr_group_shares_from_v2(uint64_t cpu_weight, uint64_t *shares);

/**
 * cfsr_group_autogroup_shares() - tg->shares of an autogroup
 * @nice: the autogroup's nice value, -20..19
 *
 * Mirrors proc_sched_autogroup_set_nice() in kernel/sched/autogroup.c,
 * v4.7-v6.18.
 *
 * Return: scale_load(sched_prio_to_weight[@nice + 20]), or 0 for a nice
 * value out of range.
 */
uint64_t cfsr_group_autogroup_shares(int nice);

/**
 * cfsr_group_idle_shares() - tg->shares of a group whose cpu.idle is 1
 *
 * Mirrors sched_group_set_idle() in kernel/sched/fair.c, v5.15-v6.18 (the
 * cpu.idle file of both cgroup versions came in v5.15, 304000390f88): an
 * idle group's shares are set to scale_load(WEIGHT_IDLEPRIO) through
 * __sched_group_set_shares(), and cpu.shares or cpu.weight writes are
 * refused while it stays idle; clearing it sets NICE_0_LOAD.
 *
 * Return: scale_load(WEIGHT_IDLEPRIO), 3072.
 */
uint64_t cfsr_group_idle_shares(void);

#endif /* CFSR_GROUP_H */

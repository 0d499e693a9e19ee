// SPDX-License-Identifier: GPL-2.0-only
/*
 * Group scheduling arithmetic on values: a group entity's weight
 * (calc_group_shares()), the publication of a cfs_rq's load into
 * tg->load_avg (update_tg_load_avg()), the propagation of a group cfs_rq's
 * change to its group entity (update_tg_cfs_util/runnable/load()), and the
 * shares a cgroup or autogroup write gives, with the group behaviour of
 * each range of releases.
 *
 * The hierarchy itself (task groups, their per-CPU cfs_rqs and group
 * entities, and the walks that update them level by level) is the replay
 * engine's (lib/replay.c), which calls these on its own state.
 */
#include "group.h"

#include <inttypes.h>

#include "error.h"
#include "pelt-local.h"
#include "profile.h"
#include "weight.h"

/*
 * v6.13-v6.18 and stable 6.12.11+: update_tg_load_avg() rate-limited to
 * once per ms (1528c661c24b, v6.7), update_cfs_group() skipping an
 * unchanged weight (eab03c23c2a1, v6.7) and leaving an empty group's weight
 * alone (66951e4860d3, "Fix update_cfs_group() vs DELAY_DEQUEUE", v6.13
 * and stable 6.12.11; docs/PROFILES.md, "Stable backports").
 */
const struct cfsr_group_params cfsr_group_params_v6_12 = {
	.name = "6.12.11-v6.18",
	.tg_load_ratelimit = true,
	.keep_empty_weight = true,
	.reweight_eevdf = true,
	.reweight_v_fixed = true,
};

/* 6.12.0-6.12.10: v6.11's, an empty group reweighted (66951e4860d3 is 6.12.11). */
const struct cfsr_group_params cfsr_group_params_v6_12_0 = {
	.name = "6.12.0-6.12.10",
	.tg_load_ratelimit = true,
	.keep_empty_weight = false,
	.reweight_eevdf = true,
	.reweight_v_fixed = true,
};

/*
 * v6.9-v6.11, and stable 6.8.9-6.8.y: v6.7's with the reweight_eevdf()
 * fixes of v6.9 (11b1b8bc2b98, afae8002b4fd, 1560d1f6eb6b), which the
 * 6.8.9-rc1 review series carries ("[PATCH 6.8 218/228]" and the two
 * after it; docs/PROFILES.md, "Stable backports").
 */
const struct cfsr_group_params cfsr_group_params_v6_8_9 = {
	.name = "6.8.9-v6.11",
	.tg_load_ratelimit = true,
	.keep_empty_weight = false,
	.reweight_eevdf = true,
	.reweight_v_fixed = true,
};

const struct cfsr_group_params cfsr_group_params_v6_7 = {
	.name = "v6.7-v6.8.8",
	.tg_load_ratelimit = true,
	.keep_empty_weight = false,
	.reweight_eevdf = true,
};

/*
 * Stable 6.6.4-6.6.29: v6.6's update_tg_load_avg() (1528c661c24b's rate
 * limit is not keyed for 6.6.y) with eab03c23c2a1 ("sched/eevdf: Fix
 * vruntime adjustment on reweight", a v6.7-rc fix): update_cfs_group() skips
 * reweight_entity() at an unchanged weight, reweight_eevdf() moves a
 * queued entity.  The stable history has it between "Linux 6.6.3" and
 * "Linux 6.6.4" (docs/PROFILES.md, "Stable backports").
 */
const struct cfsr_group_params cfsr_group_params_v6_6_4 = {
	.name = "6.6.4-6.6.29",
	.tg_load_ratelimit = false,
	.keep_empty_weight = false,
	.reweight_unchanged = false,
	.reweight_eevdf = true,
};

/*
 * Stable 6.6.30-6.6.y: 6.6.4's with the reweight_eevdf() fixes of v6.9
 * (11b1b8bc2b98, afae8002b4fd, 1560d1f6eb6b), first in the 6.6.30-rc1
 * review series ("[PATCH 6.6 176/186]" and the two around it;
 * docs/PROFILES.md, "Stable backports").
 */
const struct cfsr_group_params cfsr_group_params_v6_6_30 = {
	.name = "6.6.30-6.6.y",
	.tg_load_ratelimit = false,
	.keep_empty_weight = false,
	.reweight_unchanged = false,
	.reweight_eevdf = true,
	.reweight_v_fixed = true,
};

/*
 * v5.7-v6.6.3: update_tg_load_avg() without the rate limit (1528c661c24b
 * came with v6.7) and update_cfs_group() calling reweight_entity() even at
 * an unchanged weight (the check came with eab03c23c2a1, v6.7 and stable
 * 6.6.4); as v6.7 otherwise.  v5.7-v5.16 have the same update_tg_load_avg() (its unused
 * force argument went in v5.10, fe749158294d), calc_group_shares() and
 * update_cfs_group() (reweight_entity() lost its runnable weight with
 * runnable_load_avg in v5.7); their propagation and subtraction
 * arithmetic differ, which struct cfsr_pelt_params carries.
 */
const struct cfsr_group_params cfsr_group_params_v6_6 = {
	.name = "v5.7-v6.6.3",
	.tg_load_ratelimit = false,
	.keep_empty_weight = false,
	.reweight_unchanged = true,
};

const struct cfsr_group_params *cfsr_group_params_for(int version)
{
	if (version >= CFSR_KVER(6, 12, 11))
		return &cfsr_group_params_v6_12;
	if (version >= CFSR_KVER(6, 12, 0))
		return &cfsr_group_params_v6_12_0;
	if (version >= CFSR_KVER(6, 8, 9))
		return &cfsr_group_params_v6_8_9;
	if (version >= CFSR_KVER(6, 7, 0))
		return &cfsr_group_params_v6_7;
	if (version >= CFSR_KVER(6, 6, 30))
		return &cfsr_group_params_v6_6_30;
	if (version >= CFSR_KVER(6, 6, 4))
		return &cfsr_group_params_v6_6_4;
	if (version >= CFSR_KVER(5, 7, 0))
		return &cfsr_group_params_v6_6;
	return NULL;
}

/* ---- arithmetic on values ------------------------------------------------------------------- */

/*
 * Mirrors calc_group_shares() in kernel/sched/fair.c, v4.15-v6.18.
 *
 * load = max(scale_load_down(grq->load.weight), grq->avg.load_avg), both
 * in 10-bit units; tg_weight = tg->load_avg - grq->tg_load_avg_contrib +
 * load, i.e. the group's published load with this CPU's stale
 * contribution replaced by its current one; shares = tg_shares * load /
 * tg_weight (signed long division, skipped when tg_weight is 0), clamped
 * to [MIN_SHARES, tg_shares].  The result is scaled because tg_shares is,
 * while the floor MIN_SHARES = 2 is deliberately not: an idle CPU's group
 * entity weighs 2/1048576 of a nice-0 task.
 */
uint64_t cfsr_group_calc_shares(const struct cfsr_pelt_params *pelt, uint64_t tg_shares,
				uint64_t grq_load_weight, uint64_t grq_load_avg,
				int64_t tg_load_avg, uint64_t tg_load_avg_contrib)
{
	int64_t tg_weight, load, shares;
	uint64_t w = cfsr_pelt_weight(pelt, grq_load_weight);

	load = (int64_t)(w > grq_load_avg ? w : grq_load_avg);

	tg_weight = tg_load_avg;
	tg_weight -= (int64_t)tg_load_avg_contrib;
	tg_weight += load;

	shares = (int64_t)tg_shares * load;
	if (tg_weight)
		shares /= tg_weight;

	if (shares < MIN_SHARES)
		shares = MIN_SHARES;
	if (shares > (int64_t)tg_shares)
		shares = (int64_t)tg_shares;
	return (uint64_t)shares;
}

/*
 * Mirrors update_tg_load_avg() in kernel/sched/fair.c after its root and
 * cpu_active() checks, v6.7-v6.18.
 *
 * With the rate limit (1528c661c24b, v6.7), nothing happens within 1 ms of
 * sched_clock_cpu() after the last publication.  Then delta = load_avg -
 * contrib (a long) is published only if |delta| > contrib / 64, integer
 * division, strict: tg->load_avg += delta, contrib = load_avg, and the
 * time is noted.
 * Differs: v4.15-v6.6 (!params->tg_load_ratelimit) have no rate limit.
 */
bool cfsr_group_publish_load(const struct cfsr_group_params *params, int64_t *tg_load_avg,
			     uint64_t *contrib, uint64_t *last_update, uint64_t load_avg,
			     uint64_t sched_now)
{
	int64_t delta;
	uint64_t abs_delta;

	if (params->tg_load_ratelimit && sched_now - *last_update < CFSR_TG_LOAD_RATELIMIT_NS)
		return false;

	delta = (int64_t)(load_avg - *contrib);
	abs_delta = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
	if (abs_delta > *contrib / 64) {
		*tg_load_avg += delta;
		*contrib = load_avg;
		*last_update = sched_now;
		return true;
	}
	return false;
}

/*
 * The divider of update_tg_cfs_util/runnable/load(): the parent cfs_rq's
 * get_pelt_divider() (95d685935a2e, v5.8+); LOAD_AVG_MAX in v5.7, when the
 * comment there still said the windows of the group entity and of its
 * cfs_rq are not aligned.
 */
static uint32_t prop_divider(const struct cfsr_pelt_params *pelt, const struct cfsr_sched_avg *cfs)
{
	if (pelt->prop_load_avg_max)
		return LOAD_AVG_MAX;
	return cfsr_pelt_divider(pelt, cfs);
}

/*
 * Mirrors update_tg_cfs_util() in kernel/sched/fair.c, v5.17-v6.18.
 *
 * The group entity's util_avg is copied from its cfs_rq; its util_sum is
 * rebuilt as util_avg * divider, the divider being the parent cfs_rq's
 * (whose window the entity shares), in u32; the parent gains both
 * differences through add_positive() and gets the u32 lower bound.
 * Differs: v5.7-v5.16 (!pelt->sum_lower_bounds) set the parent's util_sum
 * to its new util_avg * divider (u32) instead, with LOAD_AVG_MAX as the
 * divider in v5.7 (prop_divider()).
 */
static void update_tg_cfs_util(const struct cfsr_pelt_params *pelt, struct cfsr_sched_avg *cfs,
			       struct cfsr_sched_avg *se, const struct cfsr_sched_avg *gcfs)
{
	int64_t delta_sum, delta_avg = (int64_t)(gcfs->util_avg - se->util_avg);
	uint32_t new_sum, divider;

	if (!delta_avg)
		return;

	divider = prop_divider(pelt, cfs);

	se->util_avg = gcfs->util_avg;
	new_sum = (uint32_t)(se->util_avg * divider);
	delta_sum = (int64_t)new_sum - (int64_t)se->util_sum;
	se->util_sum = new_sum;

	pelt_add_positive_u64(&cfs->util_avg, delta_avg);
	if (!pelt->sum_lower_bounds) {
		cfs->util_sum = (uint32_t)(cfs->util_avg * divider);
		return;
	}
	pelt_add_positive_u32(&cfs->util_sum, delta_sum);
	if (pelt->sum_lower_bounds)
		cfs->util_sum = pelt_max_u32(cfs->util_sum, cfs->util_avg * PELT_MIN_DIVIDER);
}

/*
 * Mirrors update_tg_cfs_runnable() in kernel/sched/fair.c, v5.17-v6.18.
 *
 * As update_tg_cfs_util() for runnable_avg/runnable_sum.  The new sum is
 * a u32 in the kernel too, although runnable_sum is 64-bit: a group
 * entity with more than about 87 runnable tasks below it would wrap.
 * Differs: v5.7-v5.16 (!pelt->sum_lower_bounds) compute the entity's and
 * the parent's runnable_sum as runnable_avg * divider in 64 bits, the
 * parent's from its new runnable_avg (LOAD_AVG_MAX in v5.7).
 */
static void update_tg_cfs_runnable(const struct cfsr_pelt_params *pelt, struct cfsr_sched_avg *cfs,
				   struct cfsr_sched_avg *se, const struct cfsr_sched_avg *gcfs)
{
	int64_t delta_sum, delta_avg = (int64_t)(gcfs->runnable_avg - se->runnable_avg);
	uint32_t new_sum, divider;

	if (!delta_avg)
		return;

	divider = prop_divider(pelt, cfs);

	if (!pelt->sum_lower_bounds) {
		se->runnable_avg = gcfs->runnable_avg;
		se->runnable_sum = se->runnable_avg * divider;
		pelt_add_positive_u64(&cfs->runnable_avg, delta_avg);
		cfs->runnable_sum = cfs->runnable_avg * divider;
		return;
	}

	se->runnable_avg = gcfs->runnable_avg;
	new_sum = (uint32_t)(se->runnable_avg * divider);
	delta_sum = (int64_t)new_sum - (int64_t)se->runnable_sum;
	se->runnable_sum = new_sum;

	pelt_add_positive_u64(&cfs->runnable_avg, delta_avg);
	pelt_add_positive_u64(&cfs->runnable_sum, delta_sum);
	if (pelt->sum_lower_bounds)
		cfs->runnable_sum =
			pelt_max_u32(cfs->runnable_sum, cfs->runnable_avg * PELT_MIN_DIVIDER);
}

/*
 * Mirrors update_tg_cfs_load() in kernel/sched/fair.c, v5.17-v6.18.
 *
 * runnable_sum = the pending prop_runnable_sum (unweighted), consumed.
 * Added load (>= 0): the entity's load_sum plus it, clipped to the
 * divider (runnable cannot exceed "always").  Removed load (< 0): the
 * group cfs_rq's load_sum / scale_load_down(its weight), an estimate that
 * assumes every task in it equally runnable (0 for an empty cfs_rq), but
 * never more than the entity's load_sum.  Either way no less than the
 * running time, util_sum >> 10.  Then load_sum = se_weight * runnable_sum,
 * load_avg = load_sum / divider; if load_avg moved, the entity takes both
 * and the parent gets the differences (add_positive(), u32 lower bound).
 * Differs (pelt->prop_load): v5.14-v5.16 set the entity's load_sum
 * before returning on an unchanged load_avg (83c5e9d573e1), and v5.13-v5.16
 * set the parent's load_sum to its new load_avg * divider (7c7ad626d9a0);
 * v5.13 and v5.7-v5.12 do not return early, and v5.7-v5.12 add the sum
 * difference with add_positive() and no bound.  v5.7 clips and divides by
 * LOAD_AVG_MAX (prop_divider()).
 */
static void update_tg_cfs_load(const struct cfsr_pelt_params *pelt, struct cfsr_sched_avg *cfs,
			       struct cfsr_sched_avg *se, uint64_t se_load_weight,
			       const struct cfsr_sched_avg *gcfs, uint64_t gcfs_load_weight,
			       int64_t *prop_runnable_sum)
{
	int64_t delta_avg, running_sum, runnable_sum = *prop_runnable_sum;
	uint64_t load_avg, load_sum = 0, se_weight, gcfs_weight;
	int64_t delta_sum;
	uint32_t divider;

	if (!runnable_sum)
		return;

	*prop_runnable_sum = 0;

	divider = prop_divider(pelt, cfs);

	if (runnable_sum >= 0) {
		runnable_sum += (int64_t)se->load_sum;
		if (runnable_sum > (int64_t)divider)
			runnable_sum = divider;
	} else {
		gcfs_weight = cfsr_pelt_weight(pelt, gcfs_load_weight);
		if (gcfs_weight)
			load_sum = cfsr_div_u64(gcfs->load_sum, (uint32_t)gcfs_weight);
		runnable_sum = (int64_t)(se->load_sum < load_sum ? se->load_sum : load_sum);
	}

	running_sum = (int64_t)(se->util_sum >> SCHED_CAPACITY_SHIFT);
	if (running_sum > runnable_sum)
		runnable_sum = running_sum;

	se_weight = cfsr_pelt_weight(pelt, se_load_weight);
	load_sum = se_weight * (uint64_t)runnable_sum;
	load_avg = cfsr_div_u64(load_sum, divider);

	delta_avg = (int64_t)(load_avg - se->load_avg);
	if (pelt->prop_load == CFSR_PROP_LOAD_RESYNC_EARLY)
		se->load_sum = (uint64_t)runnable_sum;
	if (!delta_avg && (pelt->prop_load == CFSR_PROP_LOAD_BOUND ||
			   pelt->prop_load == CFSR_PROP_LOAD_RESYNC_EARLY))
		return;

	delta_sum = (int64_t)(load_sum - se_weight * se->load_sum);

	se->load_sum = (uint64_t)runnable_sum;
	se->load_avg = load_avg;
	pelt_add_positive_u64(&cfs->load_avg, delta_avg);
	if (pelt->prop_load == CFSR_PROP_LOAD_RESYNC ||
	    pelt->prop_load == CFSR_PROP_LOAD_RESYNC_EARLY) {
		cfs->load_sum = cfs->load_avg * divider;
		return;
	}
	pelt_add_positive_u64(&cfs->load_sum, delta_sum);
	if (pelt->sum_lower_bounds)
		cfs->load_sum = pelt_max_u32(cfs->load_sum, cfs->load_avg * PELT_MIN_DIVIDER);
}

void cfsr_group_propagate(const struct cfsr_pelt_params *pelt, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t se_load_weight,
			  const struct cfsr_sched_avg *gcfs, uint64_t gcfs_load_weight,
			  int64_t *prop_runnable_sum)
{
	update_tg_cfs_util(pelt, cfs, se, gcfs);
	update_tg_cfs_runnable(pelt, cfs, se, gcfs);
	update_tg_cfs_load(pelt, cfs, se, se_load_weight, gcfs, gcfs_load_weight,
			   prop_runnable_sum);
}

uint64_t cfsr_group_shares_from_v1(uint64_t cpu_shares)
{
	uint64_t lo = cfsr_scale_load(MIN_SHARES), hi = cfsr_scale_load(MAX_SHARES);

	/* scale_load() of a huge value wraps in the kernel's unsigned long too. */
	cpu_shares = cfsr_scale_load(cpu_shares);
	if (cpu_shares < lo)
		return lo;
	if (cpu_shares > hi)
		return hi;
	return cpu_shares;
}

/*
 * sched_weight_from_cgroup() is DIV_ROUND_CLOSEST_ULL(weight * 1024, 100):
 * (weight * 1024 + 50) / 100, rounding halves up.
 */
int cfsr_group_shares_from_v2(uint64_t cpu_weight, uint64_t *shares)
{
	uint64_t weight;

	if (cpu_weight < CGROUP_WEIGHT_MIN || cpu_weight > CGROUP_WEIGHT_MAX)
		return cfsr_error("cpu.weight %" PRIu64 " out of range [%d, %d]", cpu_weight,
				  CGROUP_WEIGHT_MIN, CGROUP_WEIGHT_MAX);
	weight = (cpu_weight * 1024 + CGROUP_WEIGHT_DFL / 2) / CGROUP_WEIGHT_DFL;
	*shares = cfsr_group_shares_from_v1(weight);
	return 0;
}

uint64_t cfsr_group_autogroup_shares(int nice)
{
	return cfsr_nice_to_load_weight(nice);
}

uint64_t cfsr_group_idle_shares(void)
{
	return cfsr_idle_load_weight();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Group scheduling model: the task-group tree, the per-CPU group entities
 * and cfs_rqs, and group PELT, level by level as kernel/sched/fair.c does
 * it.
 *
 * Every level of a task's hierarchy is one (entity, cfs_rq) pair: the
 * task on its group's cfs_rq, then the group's entity on the parent
 * group's cfs_rq, up to the root.  update_load_avg() below is the
 * kernel's per-level routine (age the entity, subtract removed load, age
 * the cfs_rq, propagate a pending change of a group entity's own cfs_rq,
 * attach or detach, publish into tg->load_avg); the walks call it in the
 * kernel's order, and update_cfs_group() recomputes a group entity's
 * weight from its group's shares after it.  All arithmetic on signals is
 * lib/pelt.c's; what is here is the hierarchy and the group formulas.
 */
#include "group.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "pelt-local.h"
#include "profile.h"
#include "weight.h"

/* update_load_avg() flags (kernel/sched/fair.c). */
#define UPDATE_TG 0x1
#define SKIP_AGE_LOAD 0x2
#define DO_ATTACH 0x4
#define DO_DETACH 0x8

#define MAX_CPUS 4096

const struct cfsr_group_params cfsr_group_params_modern = {
	.name = "v6.18.2+",
	.tg_load_ratelimit = true,
	.keep_empty_weight = true,
	.runnable_h_nr_runnable = true,
	.decayed_needs_no_contrib = true,
	.reweight_eevdf = true,
};

const struct cfsr_group_params cfsr_group_params_v6_13 = {
	.name = "v6.12.7-v6.18.1",
	.tg_load_ratelimit = true,
	.keep_empty_weight = true,
	.runnable_h_nr_runnable = true,
	.decayed_needs_no_contrib = false,
	.reweight_eevdf = true,
};

const struct cfsr_group_params cfsr_group_params_v6_12 = {
	.name = "v6.12.0-v6.12.6",
	.tg_load_ratelimit = true,
	.keep_empty_weight = true,
	.runnable_h_nr_runnable = false,
	.decayed_needs_no_contrib = false,
	.reweight_eevdf = true,
};

const struct cfsr_group_params cfsr_group_params_v6_7 = {
	.name = "v6.7-v6.11",
	.tg_load_ratelimit = true,
	.keep_empty_weight = false,
	.runnable_h_nr_runnable = false,
	.decayed_needs_no_contrib = false,
	.reweight_eevdf = true,
};

/*
 * Stable 6.6.4-6.6.y: v6.6's update_tg_load_avg() (1528c661c24b's rate
 * limit is not keyed for 6.6.y) with eab03c23c2a1 ("sched/eevdf: Fix
 * vruntime adjustment on reweight", a v6.7-rc fix): update_cfs_group() skips
 * reweight_entity() at an unchanged weight, reweight_eevdf() moves a
 * queued entity.  The stable history has it between "Linux 6.6.3" and
 * "Linux 6.6.4" (docs/PROFILES.md, "Stable backports").
 */
const struct cfsr_group_params cfsr_group_params_v6_6_4 = {
	.name = "6.6.4-6.6.y",
	.tg_load_ratelimit = false,
	.keep_empty_weight = false,
	.runnable_h_nr_runnable = false,
	.decayed_needs_no_contrib = false,
	.reweight_unchanged = false,
	.reweight_eevdf = true,
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
	.runnable_h_nr_runnable = false,
	.decayed_needs_no_contrib = false,
	.reweight_unchanged = true,
};

const struct cfsr_group_params *cfsr_group_params_for(int version)
{
	if (version >= CFSR_KVER(6, 18, 2))
		return &cfsr_group_params_modern;
	if (version >= CFSR_KVER(6, 12, 7))
		return &cfsr_group_params_v6_13;
	if (version >= CFSR_KVER(6, 12, 0))
		return &cfsr_group_params_v6_12;
	if (version >= CFSR_KVER(6, 7, 0))
		return &cfsr_group_params_v6_7;
	if (version >= CFSR_KVER(6, 6, 4))
		return &cfsr_group_params_v6_6_4;
	if (version >= CFSR_KVER(5, 7, 0))
		return &cfsr_group_params_v6_6;
	return NULL;
}

/*
 * One level's entity: a task (struct cfsr_group_task) or the group entity
 * of @gtg on one CPU.  The pointers reach into the owner's storage.
 */
struct ent {
	struct cfsr_sched_avg *avg;
	uint64_t *weight;
	bool *on_rq;
	const uint64_t *runnable_weight;
	const void *id;
	struct cfsr_task_group *gtg;
	struct cfsr_group_task *task;
};

static void ent_task(struct ent *e, struct cfsr_group_task *task)
{
	e->avg = &task->avg;
	e->weight = &task->weight;
	e->on_rq = &task->on_rq;
	e->runnable_weight = NULL;
	e->id = task;
	e->gtg = NULL;
	e->task = task;
}

static void ent_group(struct ent *e, struct cfsr_task_group *tg, int cpu)
{
	struct cfsr_group_rq *g = &tg->rq[cpu];

	e->avg = &g->se_avg;
	e->weight = &g->se_weight;
	e->on_rq = &g->se_on_rq;
	e->runnable_weight = &g->se_runnable_weight;
	e->id = g;
	e->gtg = tg;
	e->task = NULL;
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

/* ---- the per-level routines ------------------------------------------------------------------ */

/* The runnable count a cfs_rq and its group entity see (see struct cfsr_group_params). */
static uint64_t grq_runnable(const struct cfsr_group_model *m, const struct cfsr_group_rq *g)
{
	return m->params->runnable_h_nr_runnable ? g->h_nr_runnable : g->h_nr_queued;
}

/*
 * Mirrors se_runnable() in kernel/sched/sched.h, v6.12-v6.18: a task is
 * runnable while queued and not delayed; a group entity counts the
 * runnable tasks below it, as last copied by se_update_runnable().
 * Differs: a delayed group entity is not modelled.
 */
static uint64_t ent_runnable(const struct ent *e)
{
	if (e->task)
		return e->task->on_rq && !e->task->delayed;
	return *e->runnable_weight;
}

/* Mirrors se_update_runnable() in kernel/sched/sched.h, v5.7-v6.18. */
static void se_update_runnable(const struct cfsr_group_model *m, const struct ent *e, int cpu)
{
	struct cfsr_group_rq *g;

	if (!e->gtg)
		return;
	g = &e->gtg->rq[cpu];
	g->se_runnable_weight = grq_runnable(m, g);
}

/* Mirrors add_tg_cfs_propagate() in kernel/sched/fair.c, v4.17-v6.18. */
static void add_tg_cfs_propagate(struct cfsr_group_rq *g, int64_t runnable_sum)
{
	g->propagate = true;
	g->prop_runnable_sum += runnable_sum;
}

/* update_tg_load_avg(): nothing for the root group (its tg->load_avg is unused). */
static void update_tg_load_avg(struct cfsr_group_model *m, struct cfsr_task_group *tg, int cpu,
			       const struct cfsr_group_time *t)
{
	struct cfsr_group_rq *g = &tg->rq[cpu];

	if (!tg->parent)
		return;
	cfsr_group_publish_load(m->params, &tg->load_avg, &g->tg_load_avg_contrib,
				&g->last_update_tg_load_avg, g->avg.load_avg, t->sched_clock);
}

/*
 * Mirrors propagate_entity_load_avg() in kernel/sched/fair.c, v5.7-v6.18 (the same calls since the runnable_avg rework).
 * @cfs_tg is the group the entity is queued in.
 */
static int propagate_entity_load_avg(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg,
				     int cpu, const struct ent *e)
{
	struct cfsr_group_rq *g, *parent = &cfs_tg->rq[cpu];

	if (!e->gtg)
		return 0;
	g = &e->gtg->rq[cpu];
	if (!g->propagate)
		return 0;
	g->propagate = false;

	add_tg_cfs_propagate(parent, g->prop_runnable_sum);
	cfsr_group_propagate(m->pelt, &parent->avg, &g->se_avg, g->se_weight, &g->avg,
			     g->load_weight, &g->prop_runnable_sum);
	return 1;
}

/*
 * Mirrors update_load_avg() in kernel/sched/fair.c, v6.12-v6.18 (the same
 * steps since v5.17).
 *
 * The entity is aged unless it is not attached (last_update_time 0) or
 * SKIP_AGE_LOAD; removed load is subtracted and the cfs_rq aged
 * (update_cfs_rq_load_avg()); a group entity's pending change is
 * propagated; then DO_ATTACH of an unattached entity, or DO_DETACH, each
 * followed by update_tg_load_avg(); otherwise update_tg_load_avg() with
 * UPDATE_TG when anything changed.  @cfs_tg is the group whose cfs_rq the
 * entity is queued on; the cfs_rq PELT clock is the rq's (no bandwidth
 * throttling).
 */
static void update_load_avg(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg, int cpu,
			    const struct ent *e, int flags, const struct cfsr_group_time *t)
{
	const struct cfsr_pelt_params *pelt = m->pelt;
	struct cfsr_group_rq *g = &cfs_tg->rq[cpu];
	int64_t prop;
	int decayed;

	if (e->avg->last_update_time && !(flags & SKIP_AGE_LOAD))
		cfsr_pelt_update_se(pelt, t->pelt, e->avg, *e->weight, *e->on_rq, ent_runnable(e),
				    g->curr == e->id);

	decayed = cfsr_pelt_apply_removed(pelt, &g->avg, &g->removed, &prop);
	if (decayed)
		add_tg_cfs_propagate(g, prop);
	decayed |= cfsr_pelt_update_cfs_rq(pelt, t->pelt, &g->avg, g->load_weight,
					   grq_runnable(m, g), g->curr != NULL);
	decayed |= propagate_entity_load_avg(m, cfs_tg, cpu, e);

	if (!e->avg->last_update_time && (flags & DO_ATTACH)) {
		add_tg_cfs_propagate(g, cfsr_pelt_attach_se(pelt, &g->avg, e->avg, *e->weight));
		update_tg_load_avg(m, cfs_tg, cpu, t);
	} else if (flags & DO_DETACH) {
		add_tg_cfs_propagate(g, cfsr_pelt_detach_se(pelt, &g->avg, e->avg, *e->weight));
		update_tg_load_avg(m, cfs_tg, cpu, t);
	} else if (decayed && (flags & UPDATE_TG)) {
		update_tg_load_avg(m, cfs_tg, cpu, t);
	}
}

/*
 * Mirrors reweight_entity() in kernel/sched/fair.c, v6.12-v6.18, without
 * its EEVDF part (lag and deadline rescaling): a queued entity's weight
 * leaves and re-enters cfs_rq->load.weight, and its load_avg is recomputed
 * from its stale load_sum (lib/pelt.c).
 */
static void reweight_entity(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg, int cpu,
			    const struct ent *e, uint64_t weight)
{
	struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

	if (*e->on_rq)
		g->load_weight -= *e->weight;
	cfsr_pelt_reweight_se(m->pelt, &g->avg, e->avg, *e->weight, weight);
	*e->weight = weight;
	if (*e->on_rq)
		g->load_weight += weight;
}

/*
 * Mirrors update_cfs_group() in kernel/sched/fair.c, v6.12-v6.18.
 *
 * Only for group entities.  An empty group cfs_rq keeps its entity's
 * weight (v6.12+, so a delayed group entity keeps competing with it);
 * throttling is not modelled.  Otherwise calc_group_shares(), and
 * reweight_entity() when the weight changes.
 * Differs: before v6.12 (!params->keep_empty_weight) an empty group is
 * reweighted too; before v6.7 (params->reweight_unchanged)
 * reweight_entity() runs even when the weight stays the same.
 */
static void update_cfs_group(struct cfsr_group_model *m, const struct ent *e, int cpu)
{
	struct cfsr_task_group *tg = e->gtg;
	struct cfsr_group_rq *g;
	uint64_t shares;

	if (!tg)
		return;
	g = &tg->rq[cpu];
	if (m->params->keep_empty_weight && !g->load_weight)
		return;

	shares = cfsr_group_calc_shares(m->pelt, tg->shares, g->load_weight, g->avg.load_avg,
					tg->load_avg, g->tg_load_avg_contrib);
	if (g->se_weight != shares || m->params->reweight_unchanged)
		reweight_entity(m, tg->parent, cpu, e, shares);
}

/*
 * list_add_leaf_cfs_rq(): the cfs_rq and, to keep the branch connected,
 * its ancestors join the leaf list of the CPU.
 */
static void list_add_leaf(struct cfsr_task_group *tg, int cpu)
{
	for (; tg; tg = tg->parent)
		tg->rq[cpu].on_list = true;
}

/*
 * Mirrors propagate_entity_cfs_rq() in kernel/sched/fair.c, v6.12-v6.18:
 * after an attach or detach on @cfs_tg's cfs_rq, update_load_avg(UPDATE_TG)
 * of every group entity above it, which propagates the change upwards.
 */
static void propagate_entity_cfs_rq(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg,
				    int cpu, const struct cfsr_group_time *t)
{
	struct ent e;

	list_add_leaf(cfs_tg, cpu);
	for (; cfs_tg->parent; cfs_tg = cfs_tg->parent) {
		ent_group(&e, cfs_tg, cpu);
		update_load_avg(m, cfs_tg->parent, cpu, &e, UPDATE_TG, t);
	}
}

/* Mirrors attach_entity_cfs_rq() with ATTACH_AGE_LOAD on, v6.12-v6.18. */
static void attach_entity_cfs_rq(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg,
				 int cpu, const struct ent *e, const struct cfsr_group_time *t)
{
	struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

	update_load_avg(m, cfs_tg, cpu, e, 0, t);
	add_tg_cfs_propagate(g, cfsr_pelt_attach_se(m->pelt, &g->avg, e->avg, *e->weight));
	update_tg_load_avg(m, cfs_tg, cpu, t);
	propagate_entity_cfs_rq(m, cfs_tg, cpu, t);
}

/* Mirrors detach_entity_cfs_rq() in kernel/sched/fair.c, v6.12-v6.18. */
static void detach_entity_cfs_rq(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg,
				 int cpu, const struct ent *e, const struct cfsr_group_time *t)
{
	struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

	if (!e->avg->last_update_time)
		return;
	update_load_avg(m, cfs_tg, cpu, e, 0, t);
	add_tg_cfs_propagate(g, cfsr_pelt_detach_se(m->pelt, &g->avg, e->avg, *e->weight));
	update_tg_load_avg(m, cfs_tg, cpu, t);
	propagate_entity_cfs_rq(m, cfs_tg, cpu, t);
}

/* ---- the tree -------------------------------------------------------------------------------- */

static struct cfsr_task_group *tg_alloc(const struct cfsr_group_model *m, const char *path,
					size_t len)
{
	struct cfsr_task_group *tg = calloc(1, sizeof(*tg));
	int cpu;

	if (!tg)
		return NULL;
	tg->path = strndup(path, len);
	tg->rq = calloc((size_t)m->nr_cpus, sizeof(*tg->rq));
	if (!tg->path || !tg->rq) {
		free(tg->path);
		free(tg->rq);
		free(tg);
		return NULL;
	}
	/* alloc_fair_sched_group() and init_tg_cfs_entry(). */
	tg->shares = NICE_0_LOAD;
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		tg->rq[cpu].se_weight = NICE_0_LOAD;
	return tg;
}

static void tg_free(struct cfsr_task_group *tg)
{
	if (!tg)
		return;
	free(tg->path);
	free(tg->rq);
	free(tg);
}

struct cfsr_group_model *cfsr_group_model_new(const struct cfsr_group_params *params,
					      const struct cfsr_pelt_params *pelt, int nr_cpus)
{
	struct cfsr_group_model *m;
	struct cfsr_task_group *root;

	if (nr_cpus < 1 || nr_cpus > MAX_CPUS) {
		cfsr_error("cannot model %d CPUs: 1 to %d supported", nr_cpus, MAX_CPUS);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		goto out_nomem;
	m->params = params;
	m->pelt = pelt;
	m->nr_cpus = nr_cpus;
	root = tg_alloc(m, "/", 1);
	if (!root)
		goto out_free_model;
	if (CFSR_ALLOC_GROW(m->groups, 1, m->alloc_groups)) {
		tg_free(root);
		goto out_free_model;
	}
	m->groups[m->nr_groups++] = root;
	return m;

out_free_model:
	free(m);
out_nomem:
	cfsr_error("out of memory creating the task-group model");
	return NULL;
}

void cfsr_group_model_free(struct cfsr_group_model *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_groups; i++)
		tg_free(m->groups[i]);
	free(m->groups);
	free(m);
}

struct cfsr_task_group *cfsr_group_root(const struct cfsr_group_model *m)
{
	return m->groups[0];
}

/* Length of @path without trailing slashes, the root keeping its one. */
static size_t path_len(const char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	return len;
}

static struct cfsr_task_group *find_len(const struct cfsr_group_model *m, const char *path,
					size_t len)
{
	size_t i;

	for (i = 0; i < m->nr_groups; i++)
		if (strlen(m->groups[i]->path) == len && !memcmp(m->groups[i]->path, path, len))
			return m->groups[i];
	return NULL;
}

struct cfsr_task_group *cfsr_group_find(const struct cfsr_group_model *m, const char *path)
{
	return find_len(m, path, path_len(path));
}

/* A path is "/" or "/" followed by non-empty components separated by single slashes. */
static bool path_valid(const char *path, size_t len)
{
	size_t i;

	if (!len || path[0] != '/')
		return false;
	for (i = 1; i < len; i++)
		if (path[i] == '/' && path[i - 1] == '/')
			return false;
	return true;
}

/*
 * Brings the group entity of @tg online on every CPU: attach_entity_cfs_rq()
 * on the parent cfs_rq, or, for a group that predates the replay, the
 * parent's window with a zero signal.
 */
static void tg_online(struct cfsr_group_model *m, struct cfsr_task_group *tg,
		      const struct cfsr_group_time *times)
{
	struct ent e;
	int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct cfsr_group_rq *parent = &tg->parent->rq[cpu];

		ent_group(&e, tg, cpu);
		if (times) {
			attach_entity_cfs_rq(m, tg->parent, cpu, &e, &times[cpu]);
		} else {
			e.avg->last_update_time = parent->avg.last_update_time;
			e.avg->period_contrib = parent->avg.period_contrib;
		}
	}
}

static struct cfsr_task_group *mkdir_len(struct cfsr_group_model *m, const char *path, size_t len,
					 const struct cfsr_group_time *times)
{
	struct cfsr_task_group *parent, *tg;
	size_t plen = len;

	if (!path_valid(path, len) || len == 1) {
		cfsr_error("cannot create task group '%.*s': not a group path", (int)len, path);
		return NULL;
	}
	if (find_len(m, path, len)) {
		cfsr_error("cannot create task group '%.*s': it exists", (int)len, path);
		return NULL;
	}
	while (plen > 1 && path[plen - 1] != '/')
		plen--;
	if (plen > 1)
		plen--;
	parent = find_len(m, path, plen);
	if (!parent) {
		cfsr_error("cannot create task group '%.*s': no parent group", (int)len, path);
		return NULL;
	}

	tg = tg_alloc(m, path, len);
	if (!tg || CFSR_ALLOC_GROW(m->groups, m->nr_groups + 1, m->alloc_groups)) {
		tg_free(tg);
		cfsr_error("out of memory creating task group '%.*s'", (int)len, path);
		return NULL;
	}
	tg->parent = parent;
	tg->depth = parent->depth + 1;
	parent->nr_children++;
	m->groups[m->nr_groups++] = tg;
	tg_online(m, tg, times);
	return tg;
}

struct cfsr_task_group *cfsr_group_mkdir(struct cfsr_group_model *m, const char *path,
					 const struct cfsr_group_time *times)
{
	return mkdir_len(m, path, path_len(path), times);
}

struct cfsr_task_group *cfsr_group_autogroup(struct cfsr_group_model *m, uint64_t id, int nice,
					     const struct cfsr_group_time *times)
{
	struct cfsr_task_group *tg;
	uint64_t shares = cfsr_group_autogroup_shares(nice);
	char path[40];

	if (!shares) {
		cfsr_error("autogroup %" PRIu64 ": nice %d out of range", id, nice);
		return NULL;
	}
	snprintf(path, sizeof(path), "/autogroup-%" PRIu64, id);
	tg = cfsr_group_mkdir(m, path, times);
	if (!tg)
		return NULL;
	tg->autogroup = true;
	if (shares != tg->shares) {
		if (times)
			cfsr_group_set_shares(m, tg, shares, times);
		else
			tg->shares = shares;
	}
	return tg;
}

int cfsr_group_rmdir(struct cfsr_group_model *m, struct cfsr_task_group *tg)
{
	size_t i;
	int cpu;

	if (!tg->parent)
		return cfsr_error("cannot remove the root task group");
	if (tg->nr_children || tg->nr_tasks)
		return cfsr_error("cannot remove task group '%s': it has %u groups and %u tasks",
				  tg->path, tg->nr_children, tg->nr_tasks);

	/* unregister_fair_sched_group(): remove_entity_load_avg() per CPU. */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct cfsr_group_rq *g = &tg->rq[cpu], *parent = &tg->parent->rq[cpu];

		cfsr_pelt_update_blocked_se(m->pelt, parent->avg.last_update_time, &g->se_avg,
					    g->se_weight);
		cfsr_pelt_remove_se(&parent->removed, &g->se_avg);
	}

	for (i = 0; i < m->nr_groups; i++)
		if (m->groups[i] == tg)
			break;
	if (i == m->nr_groups)
		CFSR_BUG("task group '%s' not in its model", tg->path);
	memmove(&m->groups[i], &m->groups[i + 1], (m->nr_groups - i - 1) * sizeof(*m->groups));
	m->nr_groups--;
	tg->parent->nr_children--;
	tg_free(tg);
	return 0;
}

/*
 * Mirrors __sched_group_set_shares() in kernel/sched/fair.c, v5.15-v6.18.
 */
static void set_shares(struct cfsr_group_model *m, struct cfsr_task_group *tg, uint64_t shares,
		       const struct cfsr_group_time *times)
{
	uint64_t lo = cfsr_scale_load(MIN_SHARES), hi = cfsr_scale_load(MAX_SHARES);
	struct cfsr_task_group *g;
	struct ent e;
	int cpu;

	shares = shares < lo ? lo : shares > hi ? hi : shares;
	if (tg->shares == shares)
		return;
	tg->shares = shares;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		for (g = tg; g->parent; g = g->parent) {
			ent_group(&e, g, cpu);
			update_load_avg(m, g->parent, cpu, &e, UPDATE_TG, &times[cpu]);
			update_cfs_group(m, &e, cpu);
		}
	}
}

int cfsr_group_set_shares(struct cfsr_group_model *m, struct cfsr_task_group *tg, uint64_t shares,
			  const struct cfsr_group_time *times)
{
	if (!tg->parent)
		return cfsr_error("cannot change the shares of the root task group");
	if (tg->idle)
		return cfsr_error("cannot change the shares of idle task group '%s'", tg->path);
	set_shares(m, tg, shares, times);
	return 0;
}

int cfsr_group_set_idle(struct cfsr_group_model *m, struct cfsr_task_group *tg, bool idle,
			const struct cfsr_group_time *times)
{
	if (!tg->parent)
		return cfsr_error("cannot make the root task group idle");
	if (tg->idle == idle)
		return 0;
	tg->idle = idle;
	set_shares(m, tg, idle ? cfsr_scale_load(WEIGHT_IDLEPRIO) : NICE_0_LOAD, times);
	return 0;
}

/* The group at @path, created with any missing ancestor (those without aging). */
static struct cfsr_task_group *ensure_path(struct cfsr_group_model *m, const char *path,
					   const struct cfsr_group_time *times)
{
	size_t len = path_len(path), i;
	struct cfsr_task_group *tg;

	if (!path_valid(path, len)) {
		cfsr_error("bad cgroup path '%s'", path);
		return NULL;
	}
	tg = find_len(m, path, len);
	if (tg)
		return tg;
	for (i = 1; i < len; i++)
		if (path[i] == '/' && !find_len(m, path, i) && !mkdir_len(m, path, i, NULL))
			return NULL;
	return mkdir_len(m, path, len, times);
}

int cfsr_group_apply_event(struct cfsr_group_model *m, const struct cfsr_event *ev,
			   int cpu_hierarchy, const struct cfsr_group_time *times,
			   struct cfsr_task_group **attach_to)
{
	struct cfsr_task_group *tg;

	*attach_to = NULL;
	if (ev->kind != CFSR_EV_CGROUP_MKDIR && ev->kind != CFSR_EV_CGROUP_RMDIR &&
	    ev->kind != CFSR_EV_CGROUP_ATTACH)
		return 0;
	if (cpu_hierarchy >= 0 && ev->cgroup.root != cpu_hierarchy)
		return 0;
	if (!ev->cgroup.path)
		return cfsr_error("cgroup event at %" PRIu64 " without a path", ev->ts);

	switch (ev->kind) {
	case CFSR_EV_CGROUP_MKDIR:
		if (cfsr_group_find(m, ev->cgroup.path))
			return 0;
		return ensure_path(m, ev->cgroup.path, times) ? 0 : -1;
	case CFSR_EV_CGROUP_RMDIR:
		tg = cfsr_group_find(m, ev->cgroup.path);
		return tg ? cfsr_group_rmdir(m, tg) : 0;
	default:
		*attach_to = ensure_path(m, ev->cgroup.path, NULL);
		return *attach_to ? 0 : -1;
	}
}

/* ---- task paths --------------------------------------------------------------------------------- */

void cfsr_group_task_init(struct cfsr_group_task *task, struct cfsr_task_group *tg, int cpu,
			  uint64_t weight)
{
	memset(task, 0, sizeof(*task));
	task->tg = tg;
	task->cpu = cpu;
	task->weight = weight;
	tg->nr_tasks++;
}

void cfsr_group_task_release(struct cfsr_group_task *task)
{
	if (task->tg)
		task->tg->nr_tasks--;
	task->tg = NULL;
}

/*
 * Mirrors the PELT and counting steps of enqueue_entity() in
 * kernel/sched/fair.c, v6.12-v6.18: update_load_avg(UPDATE_TG|DO_ATTACH),
 * se_update_runnable(), update_cfs_group() (the entity is not yet in
 * load.weight), account_entity_enqueue(), on_rq; a first entity puts the
 * cfs_rq on the leaf list.
 */
static void enqueue_entity(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg, int cpu,
			   const struct ent *e, const struct cfsr_group_time *t)
{
	struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

	update_load_avg(m, cfs_tg, cpu, e, UPDATE_TG | DO_ATTACH, t);
	se_update_runnable(m, e, cpu);
	update_cfs_group(m, e, cpu);
	g->load_weight += *e->weight;
	g->nr_queued++;
	*e->on_rq = true;
	if (g->nr_queued == 1)
		list_add_leaf(cfs_tg, cpu);
}

/*
 * Mirrors the PELT and counting steps of dequeue_entity() in
 * kernel/sched/fair.c, v6.12-v6.18, for a dequeue that is not delayed:
 * update_load_avg(), se_update_runnable(), on_rq = 0,
 * account_entity_dequeue(), update_cfs_group().
 */
static void dequeue_entity(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg, int cpu,
			   const struct ent *e, int action, const struct cfsr_group_time *t)
{
	struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

	update_load_avg(m, cfs_tg, cpu, e, action, t);
	se_update_runnable(m, e, cpu);
	*e->on_rq = false;
	g->load_weight -= *e->weight;
	g->nr_queued--;
	update_cfs_group(m, e, cpu);
}

/* The remaining levels of an enqueue or dequeue walk: queued ancestors. */
static void walk_queued(struct cfsr_group_model *m, struct cfsr_task_group *cfs_tg, int cpu,
			struct ent *e, const struct cfsr_group_time *t, int dq, int dr)
{
	for (;;) {
		struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

		update_load_avg(m, cfs_tg, cpu, e, UPDATE_TG, t);
		se_update_runnable(m, e, cpu);
		update_cfs_group(m, e, cpu);
		g->h_nr_queued += (unsigned int)dq;
		g->h_nr_runnable += (unsigned int)dr;
		if (!cfs_tg->parent)
			return;
		ent_group(e, cfs_tg, cpu);
		cfs_tg = cfs_tg->parent;
	}
}

int cfsr_group_enqueue_task(struct cfsr_group_model *m, struct cfsr_group_task *task,
			    const struct cfsr_group_time *t, unsigned int flags)
{
	struct cfsr_task_group *cfs_tg = task->tg;
	int cpu = task->cpu;
	struct ent e;

	(void)flags;
	if (task->on_rq)
		return cfsr_error("enqueue of a queued task in '%s'", cfs_tg->path);
	task->delayed = false;
	ent_task(&e, task);

	while (!*e.on_rq) {
		struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

		enqueue_entity(m, cfs_tg, cpu, &e, t);
		g->h_nr_runnable++;
		g->h_nr_queued++;
		if (!cfs_tg->parent)
			return 0;
		ent_group(&e, cfs_tg, cpu);
		cfs_tg = cfs_tg->parent;
	}
	walk_queued(m, cfs_tg, cpu, &e, t, 1, 1);
	return 0;
}

/* set_delayed() / clear_delayed(): h_nr_runnable at every level. */
static void count_runnable(struct cfsr_task_group *tg, int cpu, int delta)
{
	for (; tg; tg = tg->parent)
		tg->rq[cpu].h_nr_runnable += (unsigned int)delta;
}

int cfsr_group_dequeue_task(struct cfsr_group_model *m, struct cfsr_group_task *task,
			    const struct cfsr_group_time *t, unsigned int flags)
{
	struct cfsr_task_group *cfs_tg = task->tg;
	int cpu = task->cpu;
	struct ent e;

	if (!task->on_rq)
		return cfsr_error("dequeue of a task not queued in '%s'", cfs_tg->path);
	ent_task(&e, task);

	dequeue_entity(m, cfs_tg, cpu, &e, (flags & CFSR_GROUP_MIGRATE) ? DO_DETACH : 0, t);
	if (task->delayed) {
		/* finish_delayed_dequeue_entity() -> clear_delayed(). */
		task->delayed = false;
		count_runnable(cfs_tg, cpu, 1);
	}
	for (;;) {
		struct cfsr_group_rq *g = &cfs_tg->rq[cpu];

		g->h_nr_runnable--;
		g->h_nr_queued--;
		if (!cfs_tg->parent)
			break;
		ent_group(&e, cfs_tg, cpu);
		cfs_tg = cfs_tg->parent;
		/* Don't dequeue the parent if it has other entities besides us. */
		if (g->load_weight) {
			walk_queued(m, cfs_tg, cpu, &e, t, -1, -1);
			break;
		}
		dequeue_entity(m, cfs_tg, cpu, &e, 0, t);
	}
	if (flags & CFSR_GROUP_MIGRATE)
		task->avg.last_update_time = 0;
	return 0;
}

int cfsr_group_task_set_delayed(struct cfsr_group_model *m, struct cfsr_group_task *task,
				const struct cfsr_group_time *t, bool delayed)
{
	struct ent e;

	if (!task->on_rq || task->delayed == delayed)
		return cfsr_error("task in '%s' cannot become %s", task->tg->path,
				  delayed ? "delayed" : "undelayed");
	ent_task(&e, task);
	update_load_avg(m, task->tg, task->cpu, &e, 0, t);
	task->delayed = delayed;
	count_runnable(task->tg, task->cpu, delayed ? -1 : 1);
	return 0;
}

void cfsr_group_set_next(struct cfsr_group_model *m, struct cfsr_group_task *task,
			 const struct cfsr_group_time *t, const struct cfsr_task_group *upto)
{
	struct cfsr_task_group *cfs_tg = task->tg;
	int cpu = task->cpu;
	struct ent e;

	ent_task(&e, task);
	for (;;) {
		if (*e.on_rq)
			update_load_avg(m, cfs_tg, cpu, &e, UPDATE_TG, t);
		cfs_tg->rq[cpu].curr = e.id;
		if (cfs_tg == upto || !cfs_tg->parent)
			return;
		ent_group(&e, cfs_tg, cpu);
		cfs_tg = cfs_tg->parent;
	}
}

void cfsr_group_put_prev(struct cfsr_group_model *m, struct cfsr_group_task *task,
			 const struct cfsr_group_time *t, const struct cfsr_task_group *upto)
{
	struct cfsr_task_group *cfs_tg = task->tg;
	int cpu = task->cpu;
	struct ent e;

	ent_task(&e, task);
	for (;;) {
		if (*e.on_rq)
			update_load_avg(m, cfs_tg, cpu, &e, 0, t);
		cfs_tg->rq[cpu].curr = NULL;
		if (cfs_tg == upto || !cfs_tg->parent)
			return;
		ent_group(&e, cfs_tg, cpu);
		cfs_tg = cfs_tg->parent;
	}
}

void cfsr_group_tick(struct cfsr_group_model *m, struct cfsr_group_task *task,
		     const struct cfsr_group_time *t)
{
	struct cfsr_task_group *cfs_tg = task->tg;
	int cpu = task->cpu;
	struct ent e;

	ent_task(&e, task);
	for (;;) {
		update_load_avg(m, cfs_tg, cpu, &e, UPDATE_TG, t);
		update_cfs_group(m, &e, cpu);
		if (!cfs_tg->parent)
			return;
		ent_group(&e, cfs_tg, cpu);
		cfs_tg = cfs_tg->parent;
	}
}

void cfsr_group_remove_task(struct cfsr_group_model *m, struct cfsr_group_task *task, bool migrate)
{
	struct cfsr_group_rq *g = &task->tg->rq[task->cpu];

	cfsr_pelt_update_blocked_se(m->pelt, g->avg.last_update_time, &task->avg, task->weight);
	cfsr_pelt_remove_se(&g->removed, &task->avg);
	if (migrate)
		task->avg.last_update_time = 0;
}

int cfsr_group_move_task(struct cfsr_group_model *m, struct cfsr_group_task *task,
			 struct cfsr_task_group *to, const struct cfsr_group_time *t, bool running)
{
	bool queued = task->on_rq;
	int cpu = task->cpu;
	struct ent e;

	if (task->delayed)
		return cfsr_error("cannot move a delayed task from '%s'", task->tg->path);
	if (to == task->tg)
		return 0;

	if (queued)
		cfsr_group_dequeue_task(m, task, t, 0);
	if (running)
		cfsr_group_put_prev(m, task, t, NULL);

	ent_task(&e, task);
	if (!task->avg.last_update_time) {
		task->tg->nr_tasks--;
		task->tg = to;
		to->nr_tasks++;
	} else {
		/* task_change_group_fair() */
		detach_entity_cfs_rq(m, task->tg, cpu, &e, t);
		task->avg.last_update_time = 0;
		task->tg->nr_tasks--;
		task->tg = to;
		to->nr_tasks++;
		attach_entity_cfs_rq(m, to, cpu, &e, t);
	}

	if (queued)
		cfsr_group_enqueue_task(m, task, t, 0);
	if (running)
		cfsr_group_set_next(m, task, t, NULL);
	return 0;
}

/* ---- blocked load ---------------------------------------------------------------------------- */

/* Mirrors load_avg_is_decayed() in kernel/sched/fair.c, v6.1-v6.18. */
static bool load_avg_is_decayed(const struct cfsr_sched_avg *sa)
{
	return !sa->load_sum && !sa->util_sum && !sa->runnable_sum;
}

/*
 * Mirrors cfs_rq_is_decayed() in kernel/sched/fair.c, v6.12-v6.18.
 * Differs: child_cfs_rq_on_list() looks at the cfs_rq just before this one
 * on the leaf list, which is a child whenever any child is on it in the
 * orders the model produces; the model asks whether any child is.
 */
static bool cfs_rq_is_decayed(const struct cfsr_group_model *m, const struct cfsr_task_group *tg,
			      int cpu)
{
	const struct cfsr_group_rq *g = &tg->rq[cpu];
	size_t i;

	if (g->load_weight)
		return false;
	if (!load_avg_is_decayed(&g->avg))
		return false;
	for (i = 0; i < m->nr_groups; i++)
		if (m->groups[i]->parent == tg && m->groups[i]->rq[cpu].on_list)
			return false;
	if (m->params->decayed_needs_no_contrib && g->tg_load_avg_contrib)
		return false;
	return true;
}

/* Mirrors skip_blocked_update() in kernel/sched/fair.c, v5.1-v6.18. */
static bool skip_blocked_update(const struct cfsr_group_rq *g)
{
	if (g->se_avg.load_avg || g->se_avg.util_avg)
		return false;
	return !g->propagate;
}

bool cfsr_group_update_blocked(struct cfsr_group_model *m, int cpu, const struct cfsr_group_time *t)
{
	bool has_blocked = false;
	int depth, max_depth = 0;
	struct ent e;
	size_t i;

	for (i = 0; i < m->nr_groups; i++)
		if (m->groups[i]->depth > max_depth)
			max_depth = m->groups[i]->depth;

	/* The leaf list holds children before parents: deepest first. */
	for (depth = max_depth; depth >= 0; depth--) {
		for (i = 0; i < m->nr_groups; i++) {
			struct cfsr_task_group *tg = m->groups[i];
			struct cfsr_group_rq *g = &tg->rq[cpu];
			int64_t prop;
			int decayed;

			if (tg->depth != depth || !g->on_list)
				continue;

			decayed = cfsr_pelt_apply_removed(m->pelt, &g->avg, &g->removed, &prop);
			if (decayed)
				add_tg_cfs_propagate(g, prop);
			decayed |=
				cfsr_pelt_update_cfs_rq(m->pelt, t->pelt, &g->avg, g->load_weight,
							grq_runnable(m, g), g->curr != NULL);
			if (decayed)
				update_tg_load_avg(m, tg, cpu, t);

			if (tg->parent && !skip_blocked_update(g)) {
				ent_group(&e, tg, cpu);
				update_load_avg(m, tg->parent, cpu, &e, UPDATE_TG, t);
			}

			if (cfs_rq_is_decayed(m, tg, cpu))
				g->on_list = false;

			/* cfs_rq_has_blocked() */
			if (g->avg.load_avg || g->avg.util_avg)
				has_blocked = true;
		}
	}
	return has_blocked;
}

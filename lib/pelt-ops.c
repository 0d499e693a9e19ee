// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PELT operations of each model.  See pelt-ops.h.
 */
#include <string.h>

#include "pelt-ops.h"

/* ---- v5.7-v6.18: lib/pelt.c as the engine always called it ----------------------- */

static int run_update_se(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			 struct cfsr_sched_avg *sa, struct cfsr_sched_avg *cfs,
			 uint64_t load_weight, bool on_rq, uint64_t runnable, bool running)
{
	(void)cfs;
	(void)sc;
	return cfsr_pelt_update_se(p->pelt, now, sa, load_weight, on_rq, runnable, running);
}

static int run_update_blocked_se(const struct cfsr_profile *p, uint64_t now,
				 struct cfsr_pelt_scale sc, struct cfsr_sched_avg *sa,
				 uint64_t load_weight)
{
	(void)sc;
	return cfsr_pelt_update_blocked_se(p->pelt, now, sa, load_weight);
}

static int run_update_cfs_rq(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			     struct cfsr_sched_avg *cfs, struct cfsr_pelt_removed *removed,
			     uint64_t load_weight, uint64_t runnable, bool running, int64_t *prop)
{
	(void)sc;
	return cfsr_pelt_update_cfs_rq_load_avg(p->pelt, now, cfs, removed, load_weight, runnable,
						running, prop);
}

static int64_t run_attach(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t load_weight, uint64_t now)
{
	(void)now;
	return cfsr_pelt_attach_se(p->pelt, cfs, se, load_weight);
}

static int64_t run_detach(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t load_weight)
{
	return cfsr_pelt_detach_se(p->pelt, cfs, se, load_weight);
}

/* remove_entity_load_avg(), v5.7-v6.18: sync_entity_load_avg(), then queued. */
static void run_remove(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
		       struct cfsr_pelt_removed *removed, struct cfsr_sched_avg *se,
		       uint64_t load_weight)
{
	if (cfs->last_update_time > se->last_update_time)
		cfsr_pelt_update_blocked_se(p->pelt, cfs->last_update_time, se, load_weight);
	cfsr_pelt_remove_se(removed, se);
}

static void run_init_task(const struct cfsr_profile *p, struct cfsr_sched_avg *sa,
			  uint64_t load_weight, const struct cfsr_sched_avg *cfs, uint64_t slice_ns,
			  uint32_t cpu_scale)
{
	(void)slice_ns;
	cfsr_pelt_init_se(p->pelt, sa, load_weight, true);
	cfsr_pelt_post_init_se(p->pelt, sa, load_weight, cpu_scale, cfs);
}

static const struct cfsr_pelt_ops runnable_ops = {
	.update_se = run_update_se,
	.update_blocked_se = run_update_blocked_se,
	.update_cfs_rq = run_update_cfs_rq,
	.attach = run_attach,
	.detach = run_detach,
	.remove = run_remove,
	.init_task = run_init_task,
};

/* ---- v4.3-v5.6: lib/pelt-v4.c ------------------------------------------------------- */

/* sub_positive(): subtract, clamped at 0. */
static void sub_pos(uint64_t *v, uint64_t d)
{
	*v = *v > d ? *v - d : 0;
}

/* The values the rest of the program reads, from the v4 signal. */
static void v4_publish(struct cfsr_sched_avg *sa)
{
	const struct cfsr_v4_avg *v = &sa->old.v4;

	sa->last_update_time = v->last_update_time;
	sa->load_sum = v->load_sum;
	sa->util_sum = v->util_sum;
	sa->period_contrib = v->period_contrib;
	sa->load_avg = v->load_avg;
	sa->util_avg = v->util_avg;
	sa->runnable_sum = 0;
	sa->runnable_avg = 0;
}

/*
 * A signal the engine started (an unknown past, on the 1024 ns grid) or
 * re-aligned: the v4 signal takes its clock.
 */
static void v4_take_clock(struct cfsr_sched_avg *sa)
{
	if (!sa->old.v4.last_update_time && sa->last_update_time) {
		sa->old.v4.last_update_time = sa->last_update_time;
		sa->old.v4.period_contrib = sa->period_contrib;
	}
}

/*
 * se_runnable() (v4.15-v5.6): scale_load_down(se->runnable_weight), a
 * group entity's from calc_group_runnable(), a task's its load.weight.
 */
static uint64_t v4_se_runnable(const struct cfsr_profile *p, const struct cfsr_sched_avg *sa,
			       uint64_t load_weight)
{
	return cfsr_v4_weight(p->v4,
			      sa->old.runnable_weight ? sa->old.runnable_weight : load_weight);
}

/*
 * scale_load_down(cfs_rq->runnable_weight): the sum of the queued
 * entities' runnable weights (enqueue_runnable_load_avg(), v4.15-v5.6),
 * the cfs_rq's load.weight less the group entities' shortfall; the
 * load.weight itself before v4.15.
 */
static uint64_t v4_cfs_runnable(const struct cfsr_profile *p, const struct cfsr_sched_avg *cfs,
				uint64_t load_weight)
{
	uint64_t d = cfs->old.runnable_deficit;

	return cfsr_v4_weight(p->v4, load_weight > d ? load_weight - d : 0);
}

/*
 * A group entity's part in its cfs_rq's runnable_weight shortfall
 * (v4.15-v5.6): its load.weight less its runnable_weight, taken out
 * (@sign -1) or put back (+1) while it is queued.
 */
static void v4_deficit(struct cfsr_sched_avg *cfs, struct cfsr_sched_avg *se, uint64_t load_weight,
		       int sign)
{
	uint64_t rw = se->old.runnable_weight;

	if (sign < 0) {
		sub_pos(&cfs->old.runnable_deficit, se->old.runnable_deficit);
		se->old.runnable_deficit = 0;
		return;
	}
	se->old.runnable_deficit = rw && load_weight > rw ? load_weight - rw : 0;
	cfs->old.runnable_deficit += se->old.runnable_deficit;
}

/* What an entity adds to its cfs_rq's runnable_load_sum: se_runnable() * sum from v4.15. */
static uint64_t v4_runnable_sum_of(const struct cfsr_profile *p, const struct cfsr_sched_avg *sa,
				   uint64_t load_weight)
{
	if (p->v4->unweighted_se)
		return v4_se_runnable(p, sa, load_weight) * sa->old.v4.runnable_load_sum;
	return sa->old.v4.load_sum;
}

/* What it adds to runnable_load_avg: its runnable_load_avg from v4.15, its load_avg before. */
static uint64_t v4_runnable_avg_of(const struct cfsr_profile *p, const struct cfsr_v4_avg *v)
{
	return p->v4->unweighted_se ? v->runnable_load_avg : v->load_avg;
}

/*
 * Mirrors __update_load_avg(now, cpu, &se->avg, se->on_rq *
 * scale_load_down(se->load.weight), cfs_rq->curr == se, NULL) of
 * update_load_avg() (kernel/sched/fair.c, v4.3-v4.14), and from v4.15
 * __update_load_avg_se(): ___update_load_sum(now, cpu, &se->avg, !!on_rq,
 * !!on_rq, running) then ___update_load_avg(sa, se_weight(se),
 * se_runnable(se)) (kernel/sched/pelt.c from v4.19), and
 * cfs_se_util_change() when the averages changed (v4.17+).
 * The engine applies the aging of a wakeup's sleep after it counted the
 * entity in the cfs_rq's runnable load (the kernel ages it first,
 * enqueue_entity() before enqueue_entity_load_avg()); that change is
 * carried to the cfs_rq, which therefore holds what the kernel's does.
 */
static int v4_update_se(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			struct cfsr_sched_avg *sa, struct cfsr_sched_avg *cfs, uint64_t load_weight,
			bool on_rq, uint64_t runnable, bool running)
{
	const struct cfsr_v4_params *v4 = p->v4;
	struct cfsr_v4_avg *v = &sa->old.v4;
	uint64_t w = cfsr_v4_weight(p->v4, load_weight), ravg = 0, rsum = 0;
	int decayed;

	(void)runnable;
	v4_take_clock(sa);
	if (cfs && !on_rq && sa->old.queued) {
		ravg = v4_runnable_avg_of(p, v);
		rsum = v4_runnable_sum_of(p, sa, load_weight);
	}
	if (v4->unweighted_se)
		decayed =
			cfsr_v4_update_load_sum(v4, now, v, on_rq, on_rq, running, sc.freq, sc.cpu);
	else
		decayed = cfsr_v4_update_load_sum(v4, now, v, on_rq ? w : 0, 0, running, sc.freq,
						  sc.cpu);
	if (decayed && v4->unweighted_se) {
		cfsr_v4_update_load_avg(v4, v, w, v4_se_runnable(p, sa, load_weight));
		/* cfs_se_util_change() (v4.17+): util_avg moved, the LSB flag goes */
		sa->util_est &= ~UTIL_AVG_UNCHANGED_LSB;
	} else if (decayed) {
		cfsr_v4_update_load_avg(v4, v, 1, 1);
	}
	if (cfs && !on_rq && sa->old.queued) {
		sub_pos(&cfs->old.v4.runnable_load_avg, ravg);
		sub_pos(&cfs->old.v4.runnable_load_sum, rsum);
		cfs->old.v4.runnable_load_avg += v4_runnable_avg_of(p, v);
		cfs->old.v4.runnable_load_sum += v4_runnable_sum_of(p, sa, load_weight);
	}
	v4_publish(sa);
	return decayed;
}

/* sync_entity_load_avg() / the head of remove_entity_load_avg(): aged as not queued. */
static int v4_update_blocked_se(const struct cfsr_profile *p, uint64_t now,
				struct cfsr_pelt_scale sc, struct cfsr_sched_avg *sa,
				uint64_t load_weight)
{
	return v4_update_se(p, now, sc, sa, NULL, load_weight, false, 0, false);
}

/*
 * Mirrors update_cfs_rq_load_avg() (kernel/sched/fair.c, v4.3-v5.6): the
 * removed load and utilization first (sub_positive() of the averages, of
 * the sums times LOAD_AVG_MAX in v4.3-v4.14, times the cfs_rq's divider
 * LOAD_AVG_MAX - 1024 + period_contrib in the removed.nr code of
 * v4.15-v5.6, as the v4.19-v5.6 copies read), then __update_load_avg() of the cfs_rq
 * with scale_load_down(cfs_rq->load.weight) as load and as runnable input
 * (v4.3-v4.14, where the runnable sums live in struct cfs_rq), or
 * __update_load_avg_cfs_rq() with load.weight and runnable_weight, each
 * scaled down (v4.15-v5.6).  From v4.10 removed load is also propagated
 * to the group entity (set_tg_cfs_propagate(), v4.10-v4.14;
 * add_tg_cfs_propagate() of -removed.runnable_sum, v4.15-v5.6): *@prop is
 * that sum, which v4_remove() keeps in the queue's runnable_avg (unused by
 * these models otherwise; v4.10-v4.14 read only that it is set).  The
 * runnable_weight of v4.15-v5.6 is load.weight less what the queued group
 * entities' runnable weights fall short of their weights (v4_enqueue()).
 */
static int v4_update_cfs_rq(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			    struct cfsr_sched_avg *cfs, struct cfsr_pelt_removed *removed,
			    uint64_t load_weight, uint64_t runnable, bool running, int64_t *prop)
{
	const struct cfsr_v4_params *v4 = p->v4;
	struct cfsr_v4_avg *v = &cfs->old.v4;
	uint64_t w = cfsr_v4_weight(p->v4, load_weight);
	int decayed = 0;

	(void)runnable;
	*prop = 0;
	v4_take_clock(cfs);
	if (removed->nr) {
		uint64_t div = v4->unweighted_se ? cfsr_v4_divider(v4, v) : LOAD_AVG_MAX;

		sub_pos(&v->load_avg, removed->load_avg);
		sub_pos(&v->load_sum, removed->load_avg * div);
		sub_pos(&v->util_avg, removed->util_avg);
		v->util_sum = (uint32_t)(v->util_sum > removed->util_avg * div ?
						 v->util_sum - removed->util_avg * div :
						 0);
		if (v4->propagate)
			*prop = -(int64_t)removed->runnable_avg;
		*removed = (struct cfsr_pelt_removed)CFSR_PELT_REMOVED_INIT;
		decayed = 1;
	}
	if (cfsr_v4_update_load_sum(v4, now, v, w, v4_cfs_runnable(p, cfs, load_weight), running,
				    sc.freq, sc.cpu)) {
		cfsr_v4_update_load_avg(v4, v, 1, 1);
		decayed = 1;
	}
	v4_publish(cfs);
	return decayed;
}

/*
 * Mirrors attach_entity_load_avg() (kernel/sched/fair.c): the entity takes
 * the cfs_rq's last_update_time (and, from v4.13, its period_contrib) and
 * adds its load and utilization (v4.3-v4.14: the sums as they are).  From
 * v4.15 the sums are rebuilt from the averages on the cfs_rq's divider
 * (util_sum = util_avg * divider; load_sum = load_avg * divider /
 * se_weight; runnable_load_sum = load_sum), as in v4.19-v5.6, and
 * enqueue_load_avg() adds se_weight() * load_sum.
 */
static int64_t v4_attach(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			 struct cfsr_sched_avg *se, uint64_t load_weight, uint64_t now)
{
	const struct cfsr_v4_params *v4 = p->v4;
	struct cfsr_v4_avg *c = &cfs->old.v4, *v = &se->old.v4;
	uint64_t w = cfsr_v4_weight(p->v4, load_weight);
	uint32_t divider = cfsr_v4_divider(v4, c);

	(void)now;
	v4_take_clock(cfs);
	v->last_update_time = c->last_update_time;
	if (v4->divider_period_contrib)
		v->period_contrib = c->period_contrib;
	if (v4->unweighted_se) {
		v->util_sum = (uint32_t)(v->util_avg * divider);
		v->load_sum = w ? v->load_avg * divider / w : divider;
		v->runnable_load_sum = v->load_sum;
		c->load_sum += w * v->load_sum;
	} else {
		c->load_sum += v->load_sum;
	}
	c->load_avg += v->load_avg;
	c->util_avg += v->util_avg;
	c->util_sum += v->util_sum;
	v4_publish(se);
	v4_publish(cfs);
	return 0;
}

/*
 * Mirrors dequeue_entity_load_avg() (v4.3-v4.14) / dequeue_runnable_load_avg()
 * (v4.15-v5.6) in kernel/sched/fair.c: the entity's load leaves the
 * cfs_rq's runnable load, clamped at 0 (max_t() before v4.15,
 * sub_positive() after).
 */
static void v4_dequeue(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
		       struct cfsr_sched_avg *se, uint64_t load_weight, bool sleep)
{
	struct cfsr_v4_avg *c = &cfs->old.v4;

	(void)sleep;
	if (!se->old.queued)
		return;
	sub_pos(&c->runnable_load_avg, v4_runnable_avg_of(p, &se->old.v4));
	sub_pos(&c->runnable_load_sum, v4_runnable_sum_of(p, se, load_weight));
	v4_deficit(cfs, se, load_weight, -1);
	se->old.queued = false;
	v4_publish(cfs);
}

/* enqueue_entity_load_avg() (v4.3-v4.14) / enqueue_runnable_load_avg() (v4.15-v5.6). */
static void v4_enqueue(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
		       struct cfsr_sched_avg *se, uint64_t load_weight)
{
	struct cfsr_v4_avg *c = &cfs->old.v4;

	if (se->old.queued)
		return;
	c->runnable_load_avg += v4_runnable_avg_of(p, &se->old.v4);
	c->runnable_load_sum += v4_runnable_sum_of(p, se, load_weight);
	v4_deficit(cfs, se, load_weight, 1);
	se->old.queued = true;
	v4_publish(cfs);
}

/*
 * Mirrors detach_entity_load_avg() (kernel/sched/fair.c, v4.3-v5.6), a
 * queued entity first leaving the runnable load as dequeue_entity() does:
 * sub_positive() of load and utilization, sums included (se_weight() *
 * load_sum from v4.15).
 */
static int64_t v4_detach(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			 struct cfsr_sched_avg *se, uint64_t load_weight)
{
	struct cfsr_v4_avg *c = &cfs->old.v4, *v = &se->old.v4;

	v4_dequeue(p, cfs, se, load_weight, false);
	sub_pos(&c->load_avg, v->load_avg);
	sub_pos(&c->load_sum, p->v4->unweighted_se ?
				      cfsr_v4_weight(p->v4, load_weight) * v->load_sum :
				      v->load_sum);
	sub_pos(&c->util_avg, v->util_avg);
	c->util_sum = c->util_sum > v->util_sum ? c->util_sum - v->util_sum : 0;
	v4_publish(cfs);
	return 0;
}

/*
 * Mirrors remove_entity_load_avg() (kernel/sched/fair.c, v4.3-v5.6): the
 * entity aged to its cfs_rq's last update as not queued, its load_avg and
 * util_avg queued for subtraction at the cfs_rq's next update.  An entity
 * the model still counts as queued leaves the runnable load first (the
 * kernel dequeues before it migrates).
 */
static void v4_remove(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
		      struct cfsr_pelt_removed *removed, struct cfsr_sched_avg *se,
		      uint64_t load_weight)
{
	v4_dequeue(p, cfs, se, load_weight, false);
	v4_take_clock(se);
	if (cfs->old.v4.last_update_time > se->old.v4.last_update_time)
		v4_update_blocked_se(p, cfs->old.v4.last_update_time, CFSR_PELT_SCALE_FULL, se,
				     load_weight);
	cfsr_pelt_remove_se(removed, se);
	/* removed.runnable_sum += se->avg.load_sum (v4.15-v5.6): see v4_update_cfs_rq() */
	if (p->v4->propagate)
		removed->runnable_avg += se->old.v4.load_sum;
}

/*
 * Mirrors init_entity_runnable_average() and post_init_entity_util_avg()
 * (kernel/sched/fair.c) for a new fair task:
 *  - v4.3-v4.6: load_avg = its weight, load_sum = load_avg * LOAD_AVG_MAX,
 *    util_avg = 1024, util_sum = util_avg * LOAD_AVG_MAX;
 *  - v4.7-v4.14: the same load, period_contrib = 1023, and util_avg from
 *    post_init_entity_util_avg() (2b8c41daba32): the cfs_rq's util_avg *
 *    se->load.weight / (its load_avg + 1), at most half the spare
 *    capacity (of the CPU's arch_scale_cpu_capacity(), as the v4.x copies
 *    read it; the release that brought the CPU's capacity in, in place of
 *    SCHED_CAPACITY_SCALE, is not established: taken for all of v4.7+), or that half if the cfs_rq has none; util_sum = util_avg *
 *    LOAD_AVG_MAX;
 *  - v4.15-v5.6: everything 0 but load_avg = runnable_load_avg = its
 *    weight, util_avg as in v4.7 (the attach rebuilds the sums).
 * se->load.weight has 20-bit resolution from v4.7 on 64-bit, so the
 * utilization almost always takes the cap.
 */
static void v4_init_task(const struct cfsr_profile *p, struct cfsr_sched_avg *sa,
			 uint64_t load_weight, const struct cfsr_sched_avg *cfs, uint64_t slice_ns,
			 uint32_t cpu_scale)
{
	const struct cfsr_v4_params *v4 = p->v4;
	struct cfsr_v4_avg *v = &sa->old.v4;
	const struct cfsr_v4_avg *c = &cfs->old.v4;
	uint64_t w = cfsr_v4_weight(p->v4, load_weight);
	int64_t cap;

	(void)slice_ns;
	memset(sa, 0, sizeof(*sa));
	v->load_avg = w;
	if (!v4->table_contrib) {
		v->load_sum = w * LOAD_AVG_MAX;
		v->util_avg = SCHED_CAPACITY_SCALE;
		v->util_sum = (uint32_t)(v->util_avg * LOAD_AVG_MAX);
		v4_publish(sa);
		return;
	}
	if (v4->unweighted_se)
		v->runnable_load_avg = w;
	else {
		v->load_sum = w * LOAD_AVG_MAX;
		v->period_contrib = 1023;
	}
	cap = ((int64_t)cpu_scale - (int64_t)c->util_avg) / 2;
	if (cap > 0) {
		if (c->util_avg) {
			v->util_avg = c->util_avg * load_weight / (c->load_avg + 1);
			if (v->util_avg > (uint64_t)cap)
				v->util_avg = (uint64_t)cap;
		} else {
			v->util_avg = (uint64_t)cap;
		}
		if (!v4->unweighted_se)
			v->util_sum = (uint32_t)(v->util_avg * LOAD_AVG_MAX);
	}
	v4_publish(sa);
}

/*
 * Mirrors update_load_avg() of a group entity (kernel/sched/fair.c,
 * v4.3-v5.6): aged as any entity, with its shares as load weight
 * (se->on_rq * scale_load_down(se->load.weight) in the sum before v4.15;
 * se_weight() and se_runnable(), its calc_group_runnable() weight, in the
 * averages from v4.15, __update_load_avg_se()).
 */
static int v4_update_gse(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			 struct cfsr_sched_avg *se, struct cfsr_sched_avg *cfs,
			 struct cfsr_sched_avg *gcfs, uint64_t se_weight, bool on_rq, bool running,
			 struct cfsr_pelt_tg *tg)
{
	(void)gcfs;
	(void)tg;
	return v4_update_se(p, now, sc, se, cfs, se_weight, on_rq, 0, running);
}

/* update_tg_load_avg(cfs_rq, 0) (kernel/sched/fair.c, v4.3-v5.6): past 1/64. */
static bool v4_publish_tg(const struct cfsr_profile *p, struct cfsr_sched_avg *gcfs,
			  uint64_t *contrib, int64_t *tg_load_avg, bool force)
{
	(void)p;
	return cfsr_v4_update_tg_load_avg(gcfs->old.v4.load_avg, contrib, tg_load_avg, force);
}

/*
 * Mirrors update_cfs_shares() / update_cfs_group() (kernel/sched/fair.c)
 * up to reweight_entity():
 *  - v4.3-v4.6: calc_cfs_shares() on load.weight, with 10-bit weights
 *    and shares (scale_load() is the identity before v4.7);
 *  - v4.7-v4.14: calc_cfs_shares() with scale_load_down(load.weight)
 *    (ea1dc6fc6242; floored at 2 in stable 4.9.220+ and 4.14.177+,
 *    cfsr_v4_weight()) against the 20-bit tg->shares;
 *  - v4.15-v5.6: calc_group_shares() (max(load.weight, load_avg)) and
 *    calc_group_runnable() for the runnable weight.
 */
static uint64_t v4_group_shares(const struct cfsr_profile *p, const struct cfsr_pelt_tg *tg,
				uint64_t gcfs_weight, const struct cfsr_sched_avg *gcfs,
				uint64_t *runnable)
{
	const struct cfsr_v4_params *v4 = p->v4;
	const struct cfsr_v4_avg *g = &gcfs->old.v4;
	uint64_t shares;

	if (v4->unweighted_se) {
		shares = cfsr_v4_calc_group_shares(v4, tg->load_avg, tg->contrib, gcfs_weight,
						   g->load_avg, tg->shares);
		*runnable = cfsr_v4_calc_group_runnable(
			v4, g->load_avg, gcfs_weight, g->runnable_load_avg,
			gcfs_weight > gcfs->old.runnable_deficit ?
				gcfs_weight - gcfs->old.runnable_deficit :
				0,
			shares);
		return shares;
	}
	if (!v4->table_contrib)
		shares = cfsr_v4_calc_cfs_shares(v4, tg->load_avg, tg->contrib,
						 gcfs_weight >> SCHED_FIXEDPOINT_SHIFT,
						 tg->shares >> SCHED_FIXEDPOINT_SHIFT, false)
			 << SCHED_FIXEDPOINT_SHIFT;
	else
		shares = cfsr_v4_calc_cfs_shares(v4, tg->load_avg, tg->contrib, gcfs_weight,
						 tg->shares, true);
	*runnable = shares;
	return shares;
}

/*
 * reweight_entity() (kernel/sched/fair.c): v4.3-v4.14 move only
 * load.weight (the engine's); v4.15-v5.6 recompute the entity's averages
 * for its new weights (cfsr_v4_reweight_entity()).
 */
static void v4_reweight_gse(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			    struct cfsr_sched_avg *se, uint64_t old_weight, uint64_t weight,
			    uint64_t runnable, bool on_rq)
{
	(void)on_rq;
	if (!p->v4->unweighted_se)
		return;
	v4_take_clock(se);
	cfsr_v4_reweight_entity(p->v4, &cfs->old.v4, &se->old.v4, cfsr_v4_weight(p->v4, old_weight),
				v4_se_runnable(p, se, old_weight), cfsr_v4_weight(p->v4, weight),
				cfsr_v4_weight(p->v4, runnable), se->old.queued);
	if (se->old.queued)
		v4_deficit(cfs, se, old_weight, -1);
	se->old.runnable_weight = runnable;
	if (se->old.queued)
		v4_deficit(cfs, se, weight, 1);
	v4_publish(se);
	v4_publish(cfs);
}

/*
 * Mirrors propagate_entity_load_avg() after its flag test
 * (kernel/sched/fair.c): v4.10-v4.14 update_tg_cfs_util() and
 * update_tg_cfs_load() (the group cfs_rq's load_avg scaled into the
 * shares); v4.15-v5.6 update_tg_cfs_util() and update_tg_cfs_runnable()
 * (the group entity's runnable time from prop_runnable_sum).  The
 * parent's runnable load moves with the entity if it is queued.  Nothing
 * before v4.10.
 */
static int v4_propagate_gse(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			    struct cfsr_sched_avg *se, uint64_t se_weight,
			    const struct cfsr_sched_avg *gcfs, uint64_t gcfs_weight,
			    const struct cfsr_pelt_tg *tg, int64_t *prop_runnable_sum)
{
	const struct cfsr_v4_params *v4 = p->v4;

	if (!v4->propagate)
		return 0;
	v4_take_clock(se);
	cfsr_v4_update_tg_cfs_util(&cfs->old.v4, &se->old.v4, &gcfs->old.v4);
	if (v4->unweighted_se) {
		cfsr_v4_update_tg_cfs_runnable(
			v4, &cfs->old.v4, &se->old.v4, gcfs->old.v4.load_sum, gcfs_weight,
			prop_runnable_sum, cfsr_v4_weight(p->v4, se_weight),
			v4_se_runnable(p, se, se_weight), se->old.queued, SCHED_CAPACITY_SCALE);
	} else {
		cfsr_v4_update_tg_cfs_load(&cfs->old.v4, &se->old.v4, &gcfs->old.v4, tg->load_avg,
					   tg->contrib, tg->shares, se->old.queued);
		*prop_runnable_sum = 0;
	}
	v4_publish(se);
	v4_publish(cfs);
	return 1;
}

static const struct cfsr_pelt_ops v4_ops = {
	.update_se = v4_update_se,
	.update_blocked_se = v4_update_blocked_se,
	.update_cfs_rq = v4_update_cfs_rq,
	.attach = v4_attach,
	.detach = v4_detach,
	.remove = v4_remove,
	.enqueue = v4_enqueue,
	.dequeue = v4_dequeue,
	.init_task = v4_init_task,
	.update_gse = v4_update_gse,
	.publish_tg = v4_publish_tg,
	.group_shares = v4_group_shares,
	.reweight_gse = v4_reweight_gse,
	.propagate_gse = v4_propagate_gse,
};

/* ---- v3.8-v4.2: lib/pelt-legacy.c --------------------------------------------------- */

/*
 * The values the rest of the program reads: a task's load_avg is its
 * load_avg_contrib (util_avg its utilization_avg_contrib, v4.1-v4.2).
 */
static void legacy_publish_se(struct cfsr_sched_avg *sa)
{
	const struct cfsr_legacy_avg *l = &sa->old.se;

	sa->last_update_time = l->last_runnable_update;
	sa->load_sum = l->runnable_avg_sum;
	sa->util_sum = l->running_avg_sum;
	sa->period_contrib = l->runnable_avg_period % 1024;
	sa->load_avg = l->load_avg_contrib;
	sa->util_avg = l->utilization_avg_contrib;
	sa->runnable_sum = 0;
	sa->runnable_avg = 0;
}

/*
 * A cfs_rq's load_avg is runnable_load_avg + blocked_load_avg, what
 * __update_cfs_rq_tg_load_contrib() passes to its group; util_avg the
 * same for utilization.  Its last_update_time is the clock of its last
 * update_cfs_rq_blocked_load().
 */
static void legacy_publish_cfs(struct cfsr_sched_avg *cfs)
{
	const struct cfsr_legacy_cfs_rq *l = &cfs->old.cfs;

	cfs->last_update_time = cfs->old.clock;
	cfs->load_avg = l->runnable_load_avg + l->blocked_load_avg;
	cfs->util_avg = l->utilization_load_avg + l->utilization_blocked_avg;
	cfs->load_sum = 0;
	cfs->util_sum = 0;
	cfs->runnable_sum = 0;
	cfs->runnable_avg = 0;
}

/* A sum of contributions loses @from and gains @to, never below 0. */
static void legacy_move(uint64_t *sum, uint64_t from, uint64_t to)
{
	*sum = *sum > from ? *sum - from + to : to;
}

/* init_cfs_rq() starts decay_counter at 1 (v3.8-v4.2): a decay_count of 0 means "none". */
static void legacy_cfs_start(struct cfsr_sched_avg *cfs)
{
	if (!cfs->old.cfs.decay_counter)
		cfs->old.cfs.decay_counter = 1;
}

static void legacy_take_clock(struct cfsr_sched_avg *sa)
{
	if (!sa->old.se.last_runnable_update && sa->last_update_time)
		sa->old.se.last_runnable_update = sa->last_update_time;
}

/*
 * Mirrors update_entity_load_avg(se, update_cfs_rq) for a task
 * (kernel/sched/fair.c, v3.8-v4.2): a queued task moves its cfs_rq's
 * runnable_load_avg by the change of its contribution, as every update
 * of a queued entity does (entity_tick(), put_prev_entity(),
 * dequeue_entity_load_avg()); a task not counted there is updated alone,
 * as enqueue_entity_load_avg() does before it adds the contribution.
 */
static int legacy_update_se(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			    struct cfsr_sched_avg *sa, struct cfsr_sched_avg *cfs,
			    uint64_t load_weight, bool on_rq, uint64_t runnable, bool running)
{
	struct cfsr_legacy_avg *l = &sa->old.se;
	uint64_t contrib = l->load_avg_contrib, util = l->utilization_avg_contrib;
	int64_t delta;

	(void)runnable;
	legacy_take_clock(sa);
	delta = cfsr_legacy_update_task_load_avg(p->legacy, now, l,
						 cfsr_scale_load_down(load_weight), on_rq, running,
						 sc.freq, sc.cpu, NULL, false);
	if (cfs && sa->old.queued) {
		legacy_cfs_start(cfs);
		legacy_move(&cfs->old.cfs.runnable_load_avg, contrib, l->load_avg_contrib);
		if (p->legacy->track_running)
			legacy_move(&cfs->old.cfs.utilization_load_avg, util,
				    l->utilization_avg_contrib);
		legacy_publish_cfs(cfs);
	}
	legacy_publish_se(sa);
	return delta != 0;
}

static int legacy_update_blocked_se(const struct cfsr_profile *p, uint64_t now,
				    struct cfsr_pelt_scale sc, struct cfsr_sched_avg *sa,
				    uint64_t load_weight)
{
	return legacy_update_se(p, now, sc, sa, NULL, load_weight, false, 0, false);
}

/*
 * Mirrors update_cfs_rq_blocked_load(cfs_rq, 0) (kernel/sched/fair.c,
 * v3.8-v4.2), which every entity update on the cfs_rq is followed by
 * (enqueue/dequeue_entity_load_avg(), entity_tick()): removed load off the
 * blocked load, which decays by the whole 2^20 ns blocks since the last
 * decay.  The forced calls (a non-sleep dequeue, a migrated enqueue) only
 * apply removed load early within the same block; the model applies it at
 * the next block.
 */
static int legacy_update_cfs_rq(const struct cfsr_profile *p, uint64_t now,
				struct cfsr_pelt_scale sc, struct cfsr_sched_avg *cfs,
				struct cfsr_pelt_removed *removed, uint64_t load_weight,
				uint64_t runnable, bool running, int64_t *prop)
{
	uint64_t counter = cfs->old.cfs.decay_counter;

	(void)sc;
	(void)removed;
	(void)load_weight;
	(void)runnable;
	(void)running;
	*prop = 0;
	legacy_cfs_start(cfs);
	if (!cfs->old.clock)
		cfs->old.cfs.last_decay = now >> CFSR_LEGACY_DECAY_SHIFT;
	if (now > cfs->old.clock)
		cfs->old.clock = now;
	cfsr_legacy_update_blocked_load(p->legacy, &cfs->old.cfs, NULL, now, false);
	legacy_publish_cfs(cfs);
	return cfs->old.cfs.decay_counter != counter;
}

/*
 * Mirrors the "decay_count <= 0" branch of enqueue_entity_load_avg()
 * (kernel/sched/fair.c, v3.8-v4.2): a new or migrated task restarts its
 * clock at rq_clock_task, back-dated by the blocks it slept through on its
 * old CPU (-decay_count << 20 ns) and brought up to date as not runnable.
 * It never added to this cfs_rq's blocked load; the enqueue adds its
 * contribution to the runnable load.
 */
static int64_t legacy_attach(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			     struct cfsr_sched_avg *se, uint64_t load_weight, uint64_t now)
{
	struct cfsr_legacy_avg *l = &se->old.se;

	(void)cfs;
	l->last_runnable_update = now;
	if (l->decay_count < 0) {
		l->last_runnable_update -= (uint64_t)(-l->decay_count) << CFSR_LEGACY_DECAY_SHIFT;
		cfsr_legacy_update_task_load_avg(
			p->legacy, now, l, cfsr_scale_load_down(load_weight), false, false,
			SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE, NULL, false);
	}
	l->decay_count = 0;
	se->old.blocked = false;
	legacy_publish_se(se);
	return 0;
}

/*
 * Mirrors the tail of enqueue_entity_load_avg() (kernel/sched/fair.c,
 * v3.8-v4.2): a task that went to sleep on this cfs_rq is aged by the
 * blocks it slept through (__synchronize_entity_decay()) and its
 * contribution leaves blocked_load_avg; it joins runnable_load_avg.
 */
static void legacy_enqueue(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			   struct cfsr_sched_avg *se, uint64_t load_weight)
{
	struct cfsr_legacy_cfs_rq *c = &cfs->old.cfs;
	struct cfsr_legacy_avg *l = &se->old.se;

	(void)load_weight;
	if (se->old.queued)
		return;
	legacy_cfs_start(cfs);
	if (se->old.blocked) {
		cfsr_legacy_synchronize_decay(p->legacy, l, c);
		c->blocked_load_avg = c->blocked_load_avg > l->load_avg_contrib ?
					      c->blocked_load_avg - l->load_avg_contrib :
					      0;
		if (p->legacy->track_running)
			c->utilization_blocked_avg =
				c->utilization_blocked_avg > l->utilization_avg_contrib ?
					c->utilization_blocked_avg - l->utilization_avg_contrib :
					0;
		se->old.blocked = false;
	}
	c->runnable_load_avg += l->load_avg_contrib;
	if (p->legacy->track_running)
		c->utilization_load_avg += l->utilization_avg_contrib;
	se->old.queued = true;
	legacy_publish_se(se);
	legacy_publish_cfs(cfs);
}

/*
 * Mirrors the tail of dequeue_entity_load_avg() (kernel/sched/fair.c,
 * v3.8-v4.2): the contribution leaves runnable_load_avg; a sleeping task's
 * joins blocked_load_avg and it keeps the cfs_rq's decay_counter.
 */
static void legacy_dequeue(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			   struct cfsr_sched_avg *se, uint64_t load_weight, bool sleep)
{
	struct cfsr_legacy_cfs_rq *c = &cfs->old.cfs;
	struct cfsr_legacy_avg *l = &se->old.se;

	(void)load_weight;
	if (!se->old.queued)
		return;
	legacy_cfs_start(cfs);
	c->runnable_load_avg = c->runnable_load_avg > l->load_avg_contrib ?
				       c->runnable_load_avg - l->load_avg_contrib :
				       0;
	if (p->legacy->track_running)
		c->utilization_load_avg =
			c->utilization_load_avg > l->utilization_avg_contrib ?
				c->utilization_load_avg - l->utilization_avg_contrib :
				0;
	se->old.queued = false;
	if (sleep) {
		c->blocked_load_avg += l->load_avg_contrib;
		if (p->legacy->track_running)
			c->utilization_blocked_avg += l->utilization_avg_contrib;
		l->decay_count = (int64_t)c->decay_counter;
		se->old.blocked = true;
	}
	legacy_publish_se(se);
	legacy_publish_cfs(cfs);
}

/* A load-balance move: dequeue_entity_load_avg(sleep = 0); the enqueue on the new CPU attaches. */
static int64_t legacy_detach(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			     struct cfsr_sched_avg *se, uint64_t load_weight)
{
	legacy_dequeue(p, cfs, se, load_weight, false);
	return 0;
}

/*
 * Mirrors migrate_task_rq_fair() (kernel/sched/fair.c, v3.8-v4.2): a task
 * asleep on the cfs_rq is aged by its decays, keeps their number as
 * -decay_count and its contribution is queued in removed_load (which
 * update_cfs_rq_blocked_load() takes off blocked_load_avg).  One the model
 * still counts as queued leaves the runnable load first.
 */
static void legacy_remove(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			  struct cfsr_pelt_removed *removed, struct cfsr_sched_avg *se,
			  uint64_t load_weight)
{
	(void)removed;
	legacy_dequeue(p, cfs, se, load_weight, false);
	if (se->old.blocked) {
		cfsr_legacy_migrate_task(p->legacy, &se->old.se, &cfs->old.cfs);
		se->old.blocked = false;
	}
	legacy_publish_se(se);
}

/* init_task_runnable_average() (v3.13-v4.2; zeros before): see cfsr_legacy_init_task(). */
static void legacy_init_task(const struct cfsr_profile *p, struct cfsr_sched_avg *sa,
			     uint64_t load_weight, const struct cfsr_sched_avg *cfs,
			     uint64_t slice_ns, uint32_t cpu_scale)
{
	(void)cfs;
	(void)cpu_scale;
	memset(sa, 0, sizeof(*sa));
	cfsr_legacy_init_task(p->legacy, &sa->old.se, slice_ns, cfsr_scale_load_down(load_weight));
	legacy_publish_se(sa);
}

/*
 * Mirrors update_entity_load_avg(se, 1) of a group entity
 * (kernel/sched/fair.c, v3.8-v4.2): its runnable sums aged as a task's
 * (runnable while queued); past a period, __update_tg_runnable_avg()
 * pushes its runnable fraction into tg->runnable_avg past 1/64, and
 * __update_group_entity_contrib() makes load_avg_contrib its cfs_rq's
 * tg_load_contrib * tg->shares / (tg->load_avg + 1), times
 * tg->runnable_avg >> 10 while that is below NICE_0_LOAD; the change
 * moves the parent's runnable_load_avg (queued) or blocked_load_avg
 * (asleep there).  Loads in 10-bit units: tg->shares scaled down.
 */
static int legacy_update_gse(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			     struct cfsr_sched_avg *se, struct cfsr_sched_avg *cfs,
			     struct cfsr_sched_avg *gcfs, uint64_t se_weight, bool on_rq,
			     bool running, struct cfsr_pelt_tg *tg)
{
	struct cfsr_legacy_tg ltg = { tg->shares >> SCHED_FIXEDPOINT_SHIFT, tg->load_avg,
				      (int32_t)tg->runnable_avg };
	int64_t delta;

	(void)se_weight;
	legacy_take_clock(se);
	legacy_cfs_start(cfs);
	gcfs->old.cfs.tg_load_contrib = tg->contrib;
	delta = cfsr_legacy_update_group_load_avg(p->legacy, now, &se->old.se, on_rq, running,
						  sc.freq, sc.cpu, &gcfs->old.cfs, &ltg,
						  &cfs->old.cfs, se->old.queued || se->old.blocked);
	tg->runnable_avg = ltg.runnable_avg;
	legacy_publish_se(se);
	legacy_publish_cfs(cfs);
	return delta != 0;
}

/*
 * Mirrors __update_cfs_rq_tg_load_contrib(cfs_rq, force) (kernel/sched/fair.c,
 * v3.8-v4.2): runnable_load_avg + blocked_load_avg goes to tg->load_avg
 * past 1/8 of the last contribution, or whatever the change when forced
 * (also by update_blocked_averages(), where a kernel's records show it:
 * cfsr_replay_blocked_averages()).
 */
static bool legacy_publish_tg(const struct cfsr_profile *p, struct cfsr_sched_avg *gcfs,
			      uint64_t *contrib, int64_t *tg_load_avg, bool force)
{
	struct cfsr_legacy_cfs_rq *l = &gcfs->old.cfs;
	struct cfsr_legacy_tg ltg = { 0, *tg_load_avg, 0 };
	bool moved;

	(void)p;
	l->tg_load_contrib = *contrib;
	moved = cfsr_legacy_tg_load_contrib(l, &ltg, force);
	*tg_load_avg = ltg.load_avg;
	*contrib = l->tg_load_contrib;
	return moved;
}

/*
 * Mirrors calc_cfs_shares() as update_cfs_shares() calls it
 * (kernel/sched/fair.c, v3.8-v4.2): tg->load_avg - tg_load_contrib +
 * load.weight as the group's weight, shares = tg->shares * load.weight /
 * that, clamped to [MIN_SHARES, tg->shares], all in 10-bit units.
 */
static uint64_t legacy_group_shares(const struct cfsr_profile *p, const struct cfsr_pelt_tg *tg,
				    uint64_t gcfs_weight, const struct cfsr_sched_avg *gcfs,
				    uint64_t *runnable)
{
	uint64_t shares;

	(void)p;
	(void)gcfs;
	shares = cfsr_legacy_calc_cfs_shares(tg->load_avg, tg->contrib,
					     gcfs_weight >> SCHED_FIXEDPOINT_SHIFT,
					     tg->shares >> SCHED_FIXEDPOINT_SHIFT);
	*runnable = shares << SCHED_FIXEDPOINT_SHIFT;
	return *runnable;
}

/* reweight_entity() (v3.8-v4.2) moves only load.weight, the engine's. */
static void legacy_reweight_gse(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
				struct cfsr_sched_avg *se, uint64_t old_weight, uint64_t weight,
				uint64_t runnable, bool on_rq)
{
	(void)p;
	(void)cfs;
	(void)se;
	(void)old_weight;
	(void)weight;
	(void)runnable;
	(void)on_rq;
}

/* No propagation before v4.10: a group entity's load is its own contribution. */
static int legacy_propagate_gse(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
				struct cfsr_sched_avg *se, uint64_t se_weight,
				const struct cfsr_sched_avg *gcfs, uint64_t gcfs_weight,
				const struct cfsr_pelt_tg *tg, int64_t *prop_runnable_sum)
{
	(void)p;
	(void)cfs;
	(void)se;
	(void)se_weight;
	(void)gcfs;
	(void)gcfs_weight;
	(void)tg;
	*prop_runnable_sum = 0;
	return 0;
}

static const struct cfsr_pelt_ops legacy_ops = {
	.update_se = legacy_update_se,
	.update_blocked_se = legacy_update_blocked_se,
	.update_cfs_rq = legacy_update_cfs_rq,
	.attach = legacy_attach,
	.detach = legacy_detach,
	.remove = legacy_remove,
	.enqueue = legacy_enqueue,
	.dequeue = legacy_dequeue,
	.init_task = legacy_init_task,
	.update_gse = legacy_update_gse,
	.publish_tg = legacy_publish_tg,
	.group_shares = legacy_group_shares,
	.reweight_gse = legacy_reweight_gse,
	.propagate_gse = legacy_propagate_gse,
};

const struct cfsr_pelt_ops *cfsr_pelt_ops_for(const struct cfsr_profile *p)
{
	switch (p->arith) {
	case CFSR_ARITH_LEGACY:
		return &legacy_ops;
	case CFSR_ARITH_V4:
		return &v4_ops;
	case CFSR_ARITH_RUNNABLE:
	default:
		return &runnable_ops;
	}
}

unsigned int cfsr_pelt_signals(const struct cfsr_profile *p)
{
	switch (p->arith) {
	case CFSR_ARITH_LEGACY:
		return CFSR_SIG_LEGACY | (p->legacy->track_running ? CFSR_SIG_UTIL : 0);
	case CFSR_ARITH_V4:
		return CFSR_SIG_UTIL | CFSR_SIG_RUNNABLE_LOAD |
		       (p->v4->unweighted_se ? CFSR_SIG_SE_RUNNABLE_LOAD | CFSR_SIG_UTIL_EST : 0);
	case CFSR_ARITH_RUNNABLE:
	default:
		return CFSR_SIG_RUNNABLE_AVG | CFSR_SIG_UTIL | CFSR_SIG_UTIL_EST;
	}
}

const struct cfsr_pelt_params *cfsr_pelt_util_est_params(const struct cfsr_profile *p)
{
	if (p->arith == CFSR_ARITH_RUNNABLE)
		return p->pelt;
	if (cfsr_pelt_signals(p) & CFSR_SIG_UTIL_EST)
		return &cfsr_pelt_params_v5_8;
	return NULL;
}

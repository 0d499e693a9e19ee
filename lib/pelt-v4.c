// SPDX-License-Identifier: GPL-2.0-only
/*
 * PELT of v4.3-v5.6, bit for bit.  See pelt-v4.h.
 *
 * Sources: fair.c of the v4.4 era (__update_load_avg() with
 * __compute_runnable_contrib()), an Android v4.4 tree carrying the v4.10
 * propagation, the v4.7 table commit 7b20b916e953, v4.19-v5.x pelt.c
 * (___update_load_sum(), ___update_load_avg()), and MODEL.md section 6.
 */
#include "pelt-v4.h"

#include "pelt-legacy.h"
#include "pelt.h"

const struct cfsr_v4_params cfsr_v4_params_v4_3 = {
	.name = "v4.3-v4.6",
	.table_contrib = false,
	.segments = false,
	.divider_period_contrib = false,
	.zero_load_masks = false,
	.unweighted_se = false,
};

const struct cfsr_v4_params cfsr_v4_params_v4_7 = {
	.name = "v4.7-v4.9",
	.table_contrib = true,
	.segments = false,
	.divider_period_contrib = false,
	.zero_load_masks = false,
	.unweighted_se = false,
};

const struct cfsr_v4_params cfsr_v4_params_v4_10 = {
	.name = "v4.10-v4.11",
	.table_contrib = true,
	.segments = false,
	.divider_period_contrib = false,
	.zero_load_masks = false,
	.unweighted_se = false,
	.propagate = true,
};

const struct cfsr_v4_params cfsr_v4_params_v4_12 = {
	.name = "v4.12",
	.table_contrib = true,
	.segments = true,
	.divider_period_contrib = false,
	.zero_load_masks = true,
	.unweighted_se = false,
	.propagate = true,
};

const struct cfsr_v4_params cfsr_v4_params_v4_13 = {
	.name = "v4.13-v4.14",
	.table_contrib = true,
	.segments = true,
	.divider_period_contrib = true,
	.zero_load_masks = true,
	.unweighted_se = false,
	.propagate = true,
};

/* the arithmetic of v4.15-v5.6, with or without the floor below */
#define V4_15_ARITH                                                              \
	.table_contrib = true, .segments = true, .divider_period_contrib = true, \
	.zero_load_masks = true, .unweighted_se = true, .propagate = true

const struct cfsr_v4_params cfsr_v4_params_v4_15 = {
	.name = "v4.15-v5.6",
	V4_15_ARITH,
};

/*
 * The stable releases of April 2020 took 26cf52229efc ("sched: Avoid scale
 * real weight down to zero", v5.7): the review series 4.9.220-rc1,
 * 4.14.177-rc2, 4.19.116-rc1, 5.4.33-rc1, 5.5.18-rc1 and 5.6.5-rc1 list it
 * (docs/PROFILES.md, "Stable backports").  Otherwise as their mainline.
 */
const struct cfsr_v4_params cfsr_v4_params_v4_9_220 = {
	.name = "4.9.220-4.9.y",
	.table_contrib = true,
	.scale_load_down_floor = true,
};

const struct cfsr_v4_params cfsr_v4_params_v4_14_177 = {
	.name = "4.14.177-4.14.y",
	.table_contrib = true,
	.segments = true,
	.divider_period_contrib = true,
	.zero_load_masks = true,
	.propagate = true,
	.scale_load_down_floor = true,
};

const struct cfsr_v4_params cfsr_v4_params_v4_19_116 = {
	.name = "4.19.116-4.19.y, 5.4.33-5.4.y, 5.5.18-5.5.y, 5.6.5-5.6.y",
	V4_15_ARITH,
	.scale_load_down_floor = true,
};

/*
 * Mirrors scale_load_down() in kernel/sched/sched.h of a 64-bit kernel,
 * v4.7-v5.6 (the shift), and with 26cf52229efc's floor at 2 for a
 * non-zero weight where @v4 has it.  v4.3-v4.6 had 10-bit weights, which
 * the engine keeps at 20 bits: the shift gives them back.
 */
uint64_t cfsr_v4_weight(const struct cfsr_v4_params *v4, uint64_t load_weight)
{
	return cfsr_scale_load_down_as(v4->scale_load_down_floor, load_weight);
}

/*
 * decay_load() of these releases: the full-width mul_u64_u32_shr()
 * product from v4.3, the n = 0 identity until v4.11.
 */
static const struct cfsr_pelt_params decay_v4_3 = {
	.name = "v4.3-v4.11",
	.decay_zero_identity = true,
};

static const struct cfsr_pelt_params decay_v4_12 = {
	.name = "v4.12-v5.6",
	.decay_zero_identity = false,
};

/* cap_scale(): (v * s) >> SCHED_CAPACITY_SHIFT. */
static uint64_t cap_scale(uint64_t v, uint32_t s)
{
	return (v * s) >> SCHED_CAPACITY_SHIFT;
}

/* Add one scaled contribution to the three sums. */
static void v4_add(struct cfsr_v4_avg *sa, uint64_t contrib, uint64_t load, uint64_t runnable,
		   int running, uint32_t scale_freq, uint32_t scale_cpu)
{
	uint64_t scaled = cap_scale(contrib, scale_freq);

	if (load)
		sa->load_sum += load * scaled;
	if (runnable)
		sa->runnable_load_sum += runnable * scaled;
	if (running)
		sa->util_sum += (uint32_t)(scaled * scale_cpu);
}

/*
 * Mirrors __update_load_avg() in kernel/sched/fair.c, v4.3-v4.11, up to
 * its averaging.
 *
 * As the legacy entity update, per signal: delta_w = period_contrib; when
 * delta reaches the end of the period, 1024 - delta_w units complete it,
 * the sums are decayed by periods + 1, __compute_runnable_contrib(periods)
 * is added (loop or table), then the remainder, which becomes
 * period_contrib.  Every piece is scaled by scale_freq first, util by
 * scale_cpu too.  last_update_time = now, dropping the sub-unit remainder.
 */
static int v4_3_update_sum(const struct cfsr_v4_params *params, uint64_t delta,
			   struct cfsr_v4_avg *sa, uint64_t load, uint64_t runnable, int running,
			   uint32_t scale_freq, uint32_t scale_cpu)
{
	uint64_t periods;
	uint32_t delta_w = sa->period_contrib, contrib;
	int decayed = 0;

	if (delta + delta_w >= 1024) {
		decayed = 1;
		sa->period_contrib = 0;

		delta_w = 1024 - delta_w;
		v4_add(sa, delta_w, load, runnable, running, scale_freq, scale_cpu);
		delta -= delta_w;

		periods = delta / 1024;
		delta %= 1024;

		sa->load_sum = cfsr_pelt_decay_load(&decay_v4_3, sa->load_sum, periods + 1);
		sa->runnable_load_sum =
			cfsr_pelt_decay_load(&decay_v4_3, sa->runnable_load_sum, periods + 1);
		sa->util_sum =
			(uint32_t)cfsr_pelt_decay_load(&decay_v4_3, sa->util_sum, periods + 1);

		contrib = cfsr_legacy_compute_runnable_contrib(periods, params->table_contrib);
		v4_add(sa, contrib, load, runnable, running, scale_freq, scale_cpu);
	}

	v4_add(sa, delta, load, runnable, running, scale_freq, scale_cpu);
	sa->period_contrib += (uint32_t)delta;
	return decayed;
}

/*
 * Mirrors accumulate_sum() in kernel/sched/fair.c (kernel/sched/pelt.c
 * from v4.19), v4.12-v5.6.
 *
 * delta += period_contrib; periods = delta / 1024.  If a boundary was
 * crossed, the sums decay by periods and the contribution is
 * __accumulate_pelt_segments(periods, 1024 - period_contrib, delta % 1024);
 * otherwise it is delta.  The contribution is scaled once by scale_freq
 * (and util by scale_cpu); from v5.1 both scales are 1024.
 */
static int v4_12_update_sum(uint64_t delta, struct cfsr_v4_avg *sa, uint64_t load,
			    uint64_t runnable, int running, uint32_t scale_freq, uint32_t scale_cpu)
{
	uint32_t contrib = (uint32_t)delta;
	uint64_t periods;

	delta += sa->period_contrib;
	periods = delta / 1024;

	if (periods) {
		sa->load_sum = cfsr_pelt_decay_load(&decay_v4_12, sa->load_sum, periods);
		sa->runnable_load_sum =
			cfsr_pelt_decay_load(&decay_v4_12, sa->runnable_load_sum, periods);
		sa->util_sum = (uint32_t)cfsr_pelt_decay_load(&decay_v4_12, sa->util_sum, periods);

		delta %= 1024;
		contrib = cfsr_pelt_accumulate_segments(&decay_v4_12, periods,
							1024 - sa->period_contrib, (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;

	v4_add(sa, contrib, load, runnable, running, scale_freq, scale_cpu);
	return periods != 0;
}

/*
 * Mirrors the head of __update_load_avg() (v4.3-v4.11),
 * ___update_load_avg() (v4.12-v4.14) and ___update_load_sum() (v4.15-v5.6)
 * in kernel/sched/fair.c / pelt.c.
 *
 * delta = (now - last_update_time) >> 10; a clock that went backwards
 * only resets last_update_time; less than a unit does nothing.
 * last_update_time = now before v4.12, += delta << 10 after.  From v4.12
 * a zero load input zeroes runnable and running (an entity dequeued while
 * still cfs_rq->curr).
 */
int cfsr_v4_update_load_sum(const struct cfsr_v4_params *params, uint64_t now,
			    struct cfsr_v4_avg *sa, uint64_t load, uint64_t runnable, int running,
			    uint32_t scale_freq, uint32_t scale_cpu)
{
	uint64_t delta = now - sa->last_update_time;

	if ((int64_t)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}

	delta >>= 10;
	if (!delta)
		return 0;

	if (!params->segments) {
		sa->last_update_time = now;
		return v4_3_update_sum(params, delta, sa, load, runnable, running, scale_freq,
				       scale_cpu);
	}

	sa->last_update_time += delta << 10;
	if (params->zero_load_masks && !load) {
		runnable = 0;
		running = 0;
	}
	return v4_12_update_sum(delta, sa, load, runnable, running, scale_freq, scale_cpu);
}

/*
 * Mirrors the averaging of __update_load_avg() (v4.3-v4.11),
 * ___update_load_avg() (v4.12-v4.14) and ___update_load_avg(sa, load,
 * runnable) (v4.15-v5.6).
 *
 * Before v4.15 the sums are already weighted: load_avg = load_sum /
 * divider (the caller passes 1).  From v4.15: load * load_sum / divider
 * and runnable * runnable_load_sum / divider.  util_avg = util_sum /
 * divider.  The divider is LOAD_AVG_MAX until v4.12, so that a signal
 * always runnable reads 46718 * 1024 / 47742 = 1002 at a period boundary;
 * from v4.13 it is LOAD_AVG_MAX - 1024 + period_contrib, which reads 1024.
 */
void cfsr_v4_update_load_avg(const struct cfsr_v4_params *params, struct cfsr_v4_avg *sa,
			     uint64_t load, uint64_t runnable)
{
	uint32_t divider = cfsr_v4_divider(params, sa);

	sa->load_avg = cfsr_div_u64(load * sa->load_sum, divider);
	sa->runnable_load_avg = cfsr_div_u64(runnable * sa->runnable_load_sum, divider);
	sa->util_avg = sa->util_sum / divider;
}

uint32_t cfsr_v4_divider(const struct cfsr_v4_params *params, const struct cfsr_v4_avg *sa)
{
	if (params->divider_period_contrib)
		return LOAD_AVG_MAX - 1024 + sa->period_contrib;
	return LOAD_AVG_MAX;
}

/*
 * Mirrors update_tg_load_avg() in kernel/sched/fair.c, v4.3-v6.6 (no
 * rate limit before v6.7).
 *
 * delta = load_avg - tg_load_avg_contrib goes to tg->load_avg when forced
 * or when |delta| > tg_load_avg_contrib / 64 (the legacy threshold was
 * 1/8).  The kernel skips the root group; so must the caller.
 */
bool cfsr_v4_update_tg_load_avg(uint64_t load_avg, uint64_t *tg_load_avg_contrib,
				int64_t *tg_load_avg, bool force)
{
	int64_t delta = (int64_t)(load_avg - *tg_load_avg_contrib);
	int64_t abs_delta = delta < 0 ? -delta : delta;

	if (force || abs_delta > (int64_t)(*tg_load_avg_contrib / 64)) {
		*tg_load_avg += delta;
		*tg_load_avg_contrib = load_avg;
		return true;
	}
	return false;
}

/*
 * Mirrors calc_cfs_shares() in kernel/sched/fair.c, v4.3-v4.14 (SMP).
 *
 * load = cfs_rq->load.weight, scaled down from v4.7 (ea1dc6fc6242, when
 * 64-bit kernels moved to 20-bit weights and load.weight stopped being
 * comparable with load averages); tg_weight = tg->load_avg -
 * tg_load_avg_contrib + load; shares = tg->shares * load / tg_weight
 * (tg->shares keeps its resolution), clamped to [MIN_SHARES, tg->shares]
 * with MIN_SHARES unscaled.
 * Differs: v4.15 replaced this by calc_group_shares(), not modelled here.
 */
uint64_t cfsr_v4_calc_cfs_shares(const struct cfsr_v4_params *v4, int64_t tg_load_avg,
				 uint64_t tg_load_avg_contrib, uint64_t load_weight,
				 uint64_t tg_shares, bool scaled)
{
	uint64_t load = scaled ? cfsr_v4_weight(v4, load_weight) : load_weight;

	/* The formula and clamps are the legacy ones, on the scaled weight. */
	return cfsr_legacy_calc_cfs_shares(tg_load_avg, tg_load_avg_contrib, load, tg_shares);
}

/*
 * Mirrors calc_group_shares() in kernel/sched/fair.c, v4.15-v6.18 (read
 * in v4.19 and v5.x copies).
 *
 * load = max(scale_load_down(load.weight), avg.load_avg): the
 * instantaneous weight lifts a cfs_rq whose average is still ramping up;
 * then the v4.7 formula and clamps.
 * scale_load_down() with the floor of 2 where @v4 has it (stable
 * 4.19.116+, 5.4.33+, 5.5.18+, 5.6.5+; v5.7+ in lib/group.c); it matters
 * only for a cfs_rq weight below 2048.
 */
uint64_t cfsr_v4_calc_group_shares(const struct cfsr_v4_params *v4, int64_t tg_load_avg,
				   uint64_t tg_load_avg_contrib, uint64_t load_weight,
				   uint64_t load_avg, uint64_t tg_shares)
{
	uint64_t load = cfsr_v4_weight(v4, load_weight);

	if (load_avg > load)
		load = load_avg;
	return cfsr_legacy_calc_cfs_shares(tg_load_avg, tg_load_avg_contrib, load, tg_shares);
}

/*
 * Mirrors calc_group_runnable() in kernel/sched/fair.c, v4.15-v5.6.
 *
 * runnable_weight = shares * max(runnable_load_avg, scale_load_down(runnable_weight))
 * / max(load_avg, scale_load_down(load.weight)), clamped to [MIN_SHARES, shares]:
 * the share of the group entity's weight that its queued tasks carry.
 */
uint64_t cfsr_v4_calc_group_runnable(const struct cfsr_v4_params *v4, uint64_t load_avg,
				     uint64_t load_weight, uint64_t runnable_load_avg,
				     uint64_t runnable_weight, uint64_t shares)
{
	int64_t runnable, avg;
	uint64_t w = cfsr_v4_weight(v4, load_weight);
	uint64_t rw = cfsr_v4_weight(v4, runnable_weight);

	avg = (int64_t)(load_avg > w ? load_avg : w);
	runnable = (int64_t)(runnable_load_avg > rw ? runnable_load_avg : rw);

	runnable *= (int64_t)shares;
	if (avg)
		runnable /= avg;

	if (runnable < CFSR_MIN_SHARES)
		runnable = CFSR_MIN_SHARES;
	if (runnable > (int64_t)shares)
		runnable = (int64_t)shares;
	return (uint64_t)runnable;
}

/*
 * Mirrors add_positive() in kernel/sched/fair.c, v4.10+: a signed
 * addition to an unsigned value that stores 0 instead of wrapping below.
 */
static void add_positive(uint64_t *ptr, int64_t val)
{
	uint64_t var = *ptr, res = var + (uint64_t)val;

	if (val < 0 && res > var)
		res = 0;
	*ptr = res;
}

/*
 * Mirrors update_tg_cfs_util() in kernel/sched/fair.c, v4.10-v5.6 (read
 * in an Android v4.4 tree carrying the v4.10 code and in a v4.15+ copy
 * that passes the group cfs_rq as an argument).
 *
 * The group entity takes its cfs_rq's util_avg, and the parent gains the
 * difference; both sums are rebuilt as avg * LOAD_AVG_MAX, whatever the
 * position in the period.
 */
void cfsr_v4_update_tg_cfs_util(struct cfsr_v4_avg *cfs, struct cfsr_v4_avg *se,
				const struct cfsr_v4_avg *gcfs)
{
	int64_t delta = (int64_t)(gcfs->util_avg - se->util_avg);

	if (!delta)
		return;

	se->util_avg = gcfs->util_avg;
	se->util_sum = (uint32_t)(se->util_avg * LOAD_AVG_MAX);

	add_positive(&cfs->util_avg, delta);
	cfs->util_sum = (uint32_t)(cfs->util_avg * LOAD_AVG_MAX);
}

/*
 * Mirrors update_tg_cfs_load() in kernel/sched/fair.c, v4.10-v4.14 (read
 * as for cfsr_v4_update_tg_cfs_util()).
 *
 * load = the group cfs_rq's load_avg, scaled into the group's shares when
 * the group's total tg_load = tg->load_avg + 1 - tg_load_avg_contrib +
 * load exceeds scale_load_down(shares): load * shares10 / tg_load.  The
 * entity takes it (load_sum = load * LOAD_AVG_MAX), the parent gains the
 * difference in load_avg, and in runnable_load_avg if the entity is
 * queued, the sums rebuilt as avg * LOAD_AVG_MAX.
 */
void cfsr_v4_update_tg_cfs_load(struct cfsr_v4_avg *cfs, struct cfsr_v4_avg *se,
				const struct cfsr_v4_avg *gcfs, int64_t tg_load_avg,
				uint64_t tg_load_avg_contrib, uint64_t tg_shares, bool on_rq)
{
	int64_t delta, load = (int64_t)gcfs->load_avg;
	uint64_t shares10 = tg_shares >> SCHED_FIXEDPOINT_SHIFT;

	if (load) {
		int64_t tg_load = tg_load_avg + 1;

		tg_load -= (int64_t)tg_load_avg_contrib;
		tg_load += load;
		if ((uint64_t)tg_load > shares10) {
			load *= (int64_t)shares10;
			load /= tg_load;
		}
	}

	delta = load - (int64_t)se->load_avg;
	if (!delta)
		return;

	se->load_avg = (uint64_t)load;
	se->load_sum = se->load_avg * LOAD_AVG_MAX;

	add_positive(&cfs->load_avg, delta);
	cfs->load_sum = cfs->load_avg * LOAD_AVG_MAX;

	if (on_rq) {
		add_positive(&cfs->runnable_load_avg, delta);
		cfs->runnable_load_sum = cfs->runnable_load_avg * LOAD_AVG_MAX;
	}
}

/*
 * Mirrors update_tg_cfs_runnable() in kernel/sched/fair.c, v4.15-v5.6
 * (read in a v4.17-v5.0-era copy; v5.1+ computes running_sum as util_sum
 * >> SCHED_CAPACITY_SHIFT, the same value for scale_cpu = 1024).
 *
 * A positive prop_runnable_sum (attached runnable time) is added to the
 * entity's unweighted load_sum and clipped at LOAD_AVG_MAX; a negative one
 * replaces it by the group cfs_rq's load_sum per unit of weight, never
 * more than before.  It is then raised to the running time (util_sum /
 * scale_cpu).  load_avg and runnable_load_avg follow with the divider
 * LOAD_AVG_MAX, and the parent gains the differences (runnable only if
 * the entity is queued).  The runnable delta_sum subtracts se_weight() *
 * the old runnable_load_sum, as the kernel does, not se_runnable().
 */
void cfsr_v4_update_tg_cfs_runnable(const struct cfsr_v4_params *v4, struct cfsr_v4_avg *cfs,
				    struct cfsr_v4_avg *se, uint64_t gcfs_load_sum,
				    uint64_t gcfs_load_weight, int64_t *prop_runnable_sum,
				    uint64_t se_weight, uint64_t se_runnable, bool on_rq,
				    uint32_t scale_cpu)
{
	int64_t delta_avg, running_sum, runnable_sum = *prop_runnable_sum;
	uint64_t runnable_load_avg, load_avg, runnable_load_sum, load_sum = 0;
	uint64_t weight10 = cfsr_v4_weight(v4, gcfs_load_weight);
	int64_t delta_sum;

	if (!runnable_sum)
		return;
	*prop_runnable_sum = 0;

	if (runnable_sum >= 0) {
		runnable_sum += (int64_t)se->load_sum;
		if (runnable_sum > LOAD_AVG_MAX)
			runnable_sum = LOAD_AVG_MAX;
	} else {
		if (weight10)
			load_sum = (uint64_t)((int64_t)gcfs_load_sum / (int64_t)weight10);
		runnable_sum = (int64_t)(se->load_sum < load_sum ? se->load_sum : load_sum);
	}

	running_sum = (int64_t)(se->util_sum / scale_cpu);
	if (running_sum > runnable_sum)
		runnable_sum = running_sum;

	load_sum = (uint64_t)((int64_t)se_weight * runnable_sum);
	load_avg = (uint64_t)((int64_t)load_sum / LOAD_AVG_MAX);

	delta_sum = (int64_t)(load_sum - se_weight * se->load_sum);
	delta_avg = (int64_t)(load_avg - se->load_avg);

	se->load_sum = (uint64_t)runnable_sum;
	se->load_avg = load_avg;
	add_positive(&cfs->load_avg, delta_avg);
	add_positive(&cfs->load_sum, delta_sum);

	runnable_load_sum = (uint64_t)((int64_t)se_runnable * runnable_sum);
	runnable_load_avg = (uint64_t)((int64_t)runnable_load_sum / LOAD_AVG_MAX);
	delta_sum = (int64_t)(runnable_load_sum - se_weight * se->runnable_load_sum);
	delta_avg = (int64_t)(runnable_load_avg - se->runnable_load_avg);

	se->runnable_load_sum = (uint64_t)runnable_sum;
	se->runnable_load_avg = runnable_load_avg;

	if (on_rq) {
		add_positive(&cfs->runnable_load_avg, delta_avg);
		add_positive(&cfs->runnable_load_sum, delta_sum);
	}
}

/* sub_positive() of kernel/sched/fair.c. */
static void sub_positive(uint64_t *ptr, uint64_t val)
{
	*ptr = *ptr > val ? *ptr - val : 0;
}

/*
 * Mirrors the PELT part of reweight_entity() in kernel/sched/fair.c,
 * v4.15-v5.6 (read in v4.19-v5.x copies): a queued entity's runnable load
 * leaves the cfs_rq (dequeue_runnable_load_avg(): se_runnable() *
 * runnable_load_sum), its load too (dequeue_load_avg(): se_weight() *
 * load_sum); the averages are recomputed from the unweighted sums for the
 * new weights on the divider LOAD_AVG_MAX - 1024 + period_contrib; then
 * enqueue_load_avg() and, if queued, enqueue_runnable_load_avg().
 * Before v4.15 reweight_entity() only moved load.weight: nothing here.
 */
void cfsr_v4_reweight_entity(const struct cfsr_v4_params *params, struct cfsr_v4_avg *cfs,
			     struct cfsr_v4_avg *se, uint64_t old_weight, uint64_t old_runnable,
			     uint64_t weight, uint64_t runnable, bool on_rq)
{
	uint32_t divider = cfsr_v4_divider(params, se);

	if (on_rq) {
		sub_positive(&cfs->runnable_load_avg, se->runnable_load_avg);
		sub_positive(&cfs->runnable_load_sum, old_runnable * se->runnable_load_sum);
	}
	sub_positive(&cfs->load_avg, se->load_avg);
	sub_positive(&cfs->load_sum, old_weight * se->load_sum);

	se->load_avg = cfsr_div_u64(weight * se->load_sum, divider);
	se->runnable_load_avg = cfsr_div_u64(runnable * se->runnable_load_sum, divider);

	cfs->load_avg += se->load_avg;
	cfs->load_sum += weight * se->load_sum;
	if (on_rq) {
		cfs->runnable_load_avg += se->runnable_load_avg;
		cfs->runnable_load_sum += runnable * se->runnable_load_sum;
	}
}

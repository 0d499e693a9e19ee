// SPDX-License-Identifier: GPL-2.0-only
/*
 * The v3.8-v4.2 load tracking, bit for bit.  See pelt-legacy.h.
 *
 * Sources: fair.c of the v3.8-v3.12 era (entity and cfs_rq parts as
 * merged with 9d85f21c94f7 and its series), and of the v4.1-v4.2 era
 * (running_avg_sum, utilization, frequency and capacity scaling).  The
 * kernel's variable names are kept.
 */
#include "pelt-legacy.h"

#include "pelt.h"

/*
 * The kernel's literal table.  Each entry is floor((previous + 1024) y),
 * a floor at every step, not floor(1024 (y + ... + y^n)): from n = 3 on
 * it is lower (2941, not 2942; 23371, not 23382 at n = 32).
 */
/* clang-format off */
const uint32_t cfsr_runnable_avg_yN_sum[LOAD_AVG_PERIOD + 1] = {
	    0, 1002, 1982, 2941, 3880, 4798, 5697, 6576, 7437, 8279, 9103,
	 9909, 10698, 11470, 12226, 12966, 13690, 14398, 15091, 15769, 16433, 17082,
	17718, 18340, 18949, 19545, 20128, 20698, 21256, 21802, 22336, 22859, 23371,
};

/* k = 0..11: c(k) = c(k-1) / 2 + 23371, the pre-v4.7 loop's partial values. */
const uint32_t cfsr_accumulated_sum_N32[12] = {
	    0, 23371, 35056, 40899, 43820, 45281,
	46011, 46376, 46559, 46650, 46696, 46719,
};
/* clang-format on */

const struct cfsr_legacy_params cfsr_legacy_params_v3_8 = {
	.name = "v3.8-v3.12",
	.track_running = false,
	.init_slice = false,
	.sync_always_clears = false,
};

const struct cfsr_legacy_params cfsr_legacy_params_v3_13 = {
	.name = "v3.13-v4.0",
	.track_running = false,
	.init_slice = true,
	.sync_always_clears = false,
};

const struct cfsr_legacy_params cfsr_legacy_params_v4_1 = {
	.name = "v4.1-v4.2",
	.track_running = true,
	.init_slice = true,
	.sync_always_clears = true,
};

/*
 * Mirrors decay_load() in kernel/sched/fair.c, v3.8-v4.2.
 *
 * n = 0 returns val; beyond 63 half-lives 0; else val >>= n / 32 and
 * val * runnable_avg_yN_inv[n % 32] >> 32, the product in 64 bits.
 * Differs from v4.3+ (lib/pelt.c): the product wraps for val >= 2^32
 * where mul_u64_u32_shr() keeps every bit.  Legacy values (u32 sums,
 * 10-bit loads) stay far below that.
 */
uint64_t cfsr_legacy_decay_load(uint64_t val, uint64_t n)
{
	unsigned int local_n;

	if (!n)
		return val;
	if (n > LOAD_AVG_PERIOD * 63)
		return 0;

	local_n = (unsigned int)n;
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}

	val *= cfsr_runnable_avg_yN_inv[local_n];
	return val >> 32;
}

/*
 * Mirrors __compute_runnable_contrib() in kernel/sched/fair.c, v3.8-v4.11.
 *
 * n <= 32: the table; n >= LOAD_AVG_MAX_N: LOAD_AVG_MAX.  Between, whole
 * half-lives are folded in (contrib = contrib / 2 + yN_sum[32], 32
 * periods at a time, while more than 32 remain), then the result is
 * decayed by the n (1..32) periods left and yN_sum[n] added.  v4.7-v4.11
 * read the folded value from __accumulated_sum_N32[n / 32] and keep n %
 * 32 (0..31) periods instead: for n a multiple of 32 the loop decays
 * by 32 periods (a halving, one low) where the table decays by none.
 * Note the step at n = 345: the sum is ~46718 for n = 344 and the
 * constant LOAD_AVG_MAX = 47742 (which counts the current period too)
 * from 345 on.
 */
uint32_t cfsr_legacy_compute_runnable_contrib(uint64_t n, bool table)
{
	uint32_t contrib = 0;

	if (n <= LOAD_AVG_PERIOD)
		return cfsr_runnable_avg_yN_sum[n];
	if (n >= LOAD_AVG_MAX_N)
		return LOAD_AVG_MAX;

	if (table) {
		contrib = cfsr_accumulated_sum_N32[n / LOAD_AVG_PERIOD];
		n %= LOAD_AVG_PERIOD;
	} else {
		do {
			contrib /= 2;
			contrib += cfsr_runnable_avg_yN_sum[LOAD_AVG_PERIOD];
			n -= LOAD_AVG_PERIOD;
		} while (n > LOAD_AVG_PERIOD);
	}

	contrib = (uint32_t)cfsr_legacy_decay_load(contrib, n);
	return contrib + cfsr_runnable_avg_yN_sum[n];
}

/* cap_scale() of v4.1-v4.2 on an int: (v * s) >> SCHED_CAPACITY_SHIFT. */
static uint64_t legacy_scale(uint64_t v, uint32_t s)
{
	return (v * s) >> SCHED_CAPACITY_SHIFT;
}

/*
 * Mirrors __update_entity_runnable_avg() in kernel/sched/fair.c,
 * v3.8-v4.0, and its v4.1-v4.2 form with running and scaling.
 *
 * delta = (now - last_runnable_update) >> 10 units; a clock that went
 * backwards only resets last_runnable_update; last_runnable_update = now,
 * dropping the sub-unit remainder.  delta_w = runnable_avg_period % 1024
 * is the position in the entity's own period.  When delta reaches the end
 * of that period: complete it with 1024 - delta_w units, decay the sums
 * by periods + 1 (periods = whole periods left), add
 * __compute_runnable_contrib(periods); then add the remaining units.
 * runnable_avg_sum gains only while runnable, the period always.
 * v4.1-v4.2: every runnable addition is (units * scale_freq) >> 10, and
 * running_avg_sum gains that again times scale_cpu >> 10 while running.
 * Because the period decays, the phase of an entity drifts from the
 * clock: after one full period from 0 the period sum is 1002, and the
 * next period ends 22 units later.
 */
int cfsr_legacy_update_runnable_avg(const struct cfsr_legacy_params *params, uint64_t now,
				    struct cfsr_legacy_avg *sa, bool runnable, bool running,
				    uint32_t scale_freq, uint32_t scale_cpu)
{
	uint64_t delta, periods, scaled;
	uint32_t runnable_contrib;
	int delta_w, decayed = 0;

	if (!params->track_running) {
		scale_freq = SCHED_CAPACITY_SCALE;
		scale_cpu = SCHED_CAPACITY_SCALE;
		running = false;
	}

	delta = now - sa->last_runnable_update;
	if ((int64_t)delta < 0) {
		sa->last_runnable_update = now;
		return 0;
	}

	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_runnable_update = now;

	delta_w = (int)(sa->runnable_avg_period % 1024);
	if (delta + (uint64_t)delta_w >= 1024) {
		decayed = 1;

		delta_w = 1024 - delta_w;
		scaled = legacy_scale((uint64_t)delta_w, scale_freq);
		if (runnable)
			sa->runnable_avg_sum += (uint32_t)scaled;
		if (running)
			sa->running_avg_sum += (uint32_t)legacy_scale(scaled, scale_cpu);
		sa->runnable_avg_period += (uint32_t)delta_w;

		delta -= (uint64_t)delta_w;

		periods = delta / 1024;
		delta %= 1024;

		sa->runnable_avg_sum =
			(uint32_t)cfsr_legacy_decay_load(sa->runnable_avg_sum, periods + 1);
		sa->running_avg_sum =
			(uint32_t)cfsr_legacy_decay_load(sa->running_avg_sum, periods + 1);
		sa->runnable_avg_period =
			(uint32_t)cfsr_legacy_decay_load(sa->runnable_avg_period, periods + 1);

		runnable_contrib = cfsr_legacy_compute_runnable_contrib(periods, false);
		scaled = legacy_scale(runnable_contrib, scale_freq);
		if (runnable)
			sa->runnable_avg_sum += (uint32_t)scaled;
		if (running)
			sa->running_avg_sum += (uint32_t)legacy_scale(scaled, scale_cpu);
		sa->runnable_avg_period += runnable_contrib;
	}

	scaled = legacy_scale(delta, scale_freq);
	if (runnable)
		sa->runnable_avg_sum += (uint32_t)scaled;
	if (running)
		sa->running_avg_sum += (uint32_t)legacy_scale(scaled, scale_cpu);
	sa->runnable_avg_period += (uint32_t)delta;

	return decayed;
}

/*
 * Mirrors __update_task_entity_contrib() in kernel/sched/fair.c,
 * v3.8-v4.2.
 *
 * load_avg_contrib = runnable_avg_sum * weight / (runnable_avg_period + 1),
 * the product truncated to u32 ("avoid overflowing a 32-bit type"; 47742
 * times the largest weight, 88761, still fits), the + 1 keeping a fully
 * runnable nice-0 task at 1023.
 */
void cfsr_legacy_task_contrib(struct cfsr_legacy_avg *sa, uint64_t weight)
{
	uint32_t contrib;

	contrib = (uint32_t)(sa->runnable_avg_sum * weight);
	contrib /= sa->runnable_avg_period + 1;
	sa->load_avg_contrib = contrib;
}

/*
 * Mirrors __update_task_entity_utilization() in kernel/sched/fair.c,
 * v4.1-v4.2: running_avg_sum * 1024 / (avg_period + 1), in u32.
 */
void cfsr_legacy_task_utilization(struct cfsr_legacy_avg *sa)
{
	uint32_t contrib;

	contrib = sa->running_avg_sum * (uint32_t)SCHED_CAPACITY_SCALE;
	contrib /= sa->runnable_avg_period + 1;
	sa->utilization_avg_contrib = contrib;
}

/* abs() of the kernel on a long. */
static int64_t abs_s64(int64_t v)
{
	return v < 0 ? -v : v;
}

/*
 * Mirrors __update_tg_runnable_avg() in kernel/sched/fair.c, v3.8-v4.2.
 *
 * The fraction of a CPU the cfs_rq was runnable, (runnable_avg_sum << 10)
 * / (runnable_avg_period + 1), goes to tg->runnable_avg when it moved by
 * more than 1/64 of what was pushed before.
 */
void cfsr_legacy_tg_runnable_avg(const struct cfsr_legacy_avg *sa,
				 struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg)
{
	int64_t contrib;

	contrib = (int64_t)(((uint64_t)sa->runnable_avg_sum << CFSR_LEGACY_NICE_0_SHIFT) /
			    ((uint64_t)sa->runnable_avg_period + 1));
	contrib -= cfs_rq->tg_runnable_contrib;

	if (abs_s64(contrib) > cfs_rq->tg_runnable_contrib / 64) {
		tg->runnable_avg += (int32_t)contrib;
		cfs_rq->tg_runnable_contrib += (uint32_t)contrib;
	}
}

/*
 * Mirrors __update_group_entity_contrib() in kernel/sched/fair.c,
 * v3.8-v4.2.
 *
 * load_avg_contrib = grq->tg_load_contrib * tg->shares / (tg->load_avg + 1),
 * this CPU's part of the group's shares; then, while the whole group
 * is runnable less than one CPU's worth (tg->runnable_avg < 1024), times
 * tg->runnable_avg >> 10, so that a group running on one CPU weighs what
 * a task of the group's weight would.
 */
void cfsr_legacy_group_contrib(struct cfsr_legacy_avg *sa, const struct cfsr_legacy_cfs_rq *grq,
			       const struct cfsr_legacy_tg *tg)
{
	uint64_t contrib;
	int32_t runnable_avg;

	contrib = grq->tg_load_contrib * tg->shares;
	sa->load_avg_contrib = contrib / (uint64_t)(tg->load_avg + 1);

	runnable_avg = tg->runnable_avg;
	if (runnable_avg < CFSR_LEGACY_NICE_0_LOAD) {
		sa->load_avg_contrib *= (uint64_t)(int64_t)runnable_avg;
		sa->load_avg_contrib >>= CFSR_LEGACY_NICE_0_SHIFT;
	}
}

/*
 * Mirrors __update_cfs_rq_tg_load_contrib() in kernel/sched/fair.c,
 * v3.8-v4.2.
 *
 * d = runnable_load_avg + blocked_load_avg - tg_load_contrib goes to
 * tg->load_avg when forced or when |d| > tg_load_contrib / 8 (1/8 here;
 * v4.3+ uses 1/64).  The v4.1-era early return on d == 0 changes nothing.
 */
bool cfsr_legacy_tg_load_contrib(struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				 bool force)
{
	int64_t tg_contrib;

	tg_contrib = (int64_t)(cfs_rq->runnable_load_avg + cfs_rq->blocked_load_avg);
	tg_contrib -= (int64_t)cfs_rq->tg_load_contrib;

	if (force || (uint64_t)abs_s64(tg_contrib) > cfs_rq->tg_load_contrib / 8) {
		tg->load_avg += tg_contrib;
		cfs_rq->tg_load_contrib += (uint64_t)tg_contrib;
		return tg_contrib != 0;
	}
	return false;
}

/*
 * Mirrors subtract_blocked_load_contrib() in kernel/sched/fair.c,
 * v3.8-v4.2 (and subtract_utilization_blocked_contrib(), v4.1-v4.2):
 * subtract, or 0 if that would not leave a positive value.  The kernel
 * passes a long and compares it with the unsigned sum, so a negative
 * amount (a contribution that grew while asleep) also gives 0.
 */
static void subtract_blocked(uint64_t *blocked, uint64_t contrib)
{
	if (contrib < *blocked)
		*blocked -= contrib;
	else
		*blocked = 0;
}

/*
 * Mirrors update_cfs_rq_blocked_load() in kernel/sched/fair.c, v3.8-v4.2.
 *
 * now = clock_task >> 20; decays = now - last_decay.  Nothing happens
 * without a decay unless forced.  Removed load (entities that migrated
 * away asleep) comes off blocked_load_avg first; then blocked_load_avg is
 * decayed by all the elapsed "milliseconds" at once, decay_counter
 * advances by them, and the group sees the new total.  The decay is per
 * 2^20 ns from the cfs_rq's clock, not per entity period.
 */
void cfsr_legacy_update_blocked_load(const struct cfsr_legacy_params *params,
				     struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				     uint64_t clock_task, bool force)
{
	uint64_t now = clock_task >> CFSR_LEGACY_DECAY_SHIFT;
	uint64_t decays = now - cfs_rq->last_decay;

	if (!decays && !force)
		return;

	if (cfs_rq->removed_load) {
		subtract_blocked(&cfs_rq->blocked_load_avg, cfs_rq->removed_load);
		cfs_rq->removed_load = 0;
		if (params->track_running) {
			subtract_blocked(&cfs_rq->utilization_blocked_avg,
					 cfs_rq->removed_utilization);
			cfs_rq->removed_utilization = 0;
		}
	}

	if (decays) {
		cfs_rq->blocked_load_avg = cfsr_legacy_decay_load(cfs_rq->blocked_load_avg, decays);
		if (params->track_running)
			cfs_rq->utilization_blocked_avg =
				cfsr_legacy_decay_load(cfs_rq->utilization_blocked_avg, decays);
		cfs_rq->decay_counter += decays;
		cfs_rq->last_decay = now;
	}

	if (tg)
		cfsr_legacy_tg_load_contrib(cfs_rq, tg, force);
}

/*
 * Mirrors __synchronize_entity_decay() in kernel/sched/fair.c, v3.8-v4.2.
 *
 * A sleeping entity's contribution is aged lazily by the decays its
 * cfs_rq applied since it went to sleep (decay_counter - decay_count),
 * the same whole-block decays as blocked_load_avg, so that it can be
 * subtracted from it exactly.
 */
uint64_t cfsr_legacy_synchronize_decay(const struct cfsr_legacy_params *params,
				       struct cfsr_legacy_avg *sa,
				       const struct cfsr_legacy_cfs_rq *cfs_rq)
{
	uint64_t decays = cfs_rq->decay_counter;

	decays -= (uint64_t)sa->decay_count;
	if (params->sync_always_clears)
		sa->decay_count = 0;
	if (!decays)
		return 0;

	sa->load_avg_contrib = cfsr_legacy_decay_load(sa->load_avg_contrib, decays);
	if (params->track_running)
		sa->utilization_avg_contrib =
			cfsr_legacy_decay_load(sa->utilization_avg_contrib, decays);
	sa->decay_count = 0;

	return decays;
}

/*
 * Mirrors calc_tg_weight() and calc_cfs_shares() in kernel/sched/fair.c,
 * v3.8-v4.2 (SMP).
 *
 * tg_weight = tg->load_avg - tg_load_contrib + load.weight (this CPU's
 * instantaneous weight in place of its stale contribution); shares =
 * tg->shares * load.weight / tg_weight, clamped to [MIN_SHARES,
 * tg->shares].  A group alone on one CPU therefore gets its full shares
 * whatever its task count.
 */
uint64_t cfsr_legacy_calc_cfs_shares(int64_t tg_load_avg, uint64_t tg_load_contrib,
				     uint64_t load_weight, uint64_t tg_shares)
{
	int64_t tg_weight, load, shares;

	tg_weight = tg_load_avg;
	tg_weight -= (int64_t)tg_load_contrib;
	tg_weight += (int64_t)load_weight;

	load = (int64_t)load_weight;
	shares = (int64_t)tg_shares * load;
	if (tg_weight)
		shares /= tg_weight;

	if (shares < CFSR_MIN_SHARES)
		shares = CFSR_MIN_SHARES;
	if (shares > (int64_t)tg_shares)
		shares = (int64_t)tg_shares;

	return (uint64_t)shares;
}

/*
 * Mirrors init_task_runnable_average() in kernel/sched/fair.c,
 * v3.13-v4.2.
 *
 * decay_count = 0 (the first enqueue takes the "migrated" path);
 * runnable_avg_sum = runnable_avg_period = start >> 10, so a new task
 * starts as if runnable for that long, its contribution about its
 * weight.  v3.13-v4.0 start from sched_slice(); the v4.1-era code from
 * sysctl_sched_latency, with running_avg_sum equal too and the
 * utilization computed.  Before v3.13 everything starts at 0.
 */
void cfsr_legacy_init_task(const struct cfsr_legacy_params *params, struct cfsr_legacy_avg *sa,
			   uint64_t start_ns, uint64_t weight)
{
	uint32_t start = (uint32_t)(start_ns >> 10);

	*sa = (struct cfsr_legacy_avg)CFSR_LEGACY_AVG_INIT;
	if (!params->init_slice)
		return;
	sa->runnable_avg_sum = start;
	sa->runnable_avg_period = start;
	cfsr_legacy_task_contrib(sa, weight);
	if (params->track_running) {
		sa->running_avg_sum = start;
		cfsr_legacy_task_utilization(sa);
	}
}

/*
 * Apply a change of an entity's contributions to its cfs_rq, as the tail
 * of update_entity_load_avg() does in kernel/sched/fair.c, v3.8-v4.2:
 * queued entities move runnable_load_avg, sleeping ones blocked_load_avg.
 */
static void legacy_apply_delta(const struct cfsr_legacy_params *params,
			       struct cfsr_legacy_cfs_rq *cfs_rq, bool on_rq, int64_t contrib_delta,
			       int64_t utilization_delta)
{
	if (on_rq) {
		cfs_rq->runnable_load_avg += (uint64_t)contrib_delta;
		if (params->track_running)
			cfs_rq->utilization_load_avg += (uint64_t)utilization_delta;
	} else {
		subtract_blocked(&cfs_rq->blocked_load_avg, (uint64_t)-contrib_delta);
		if (params->track_running)
			subtract_blocked(&cfs_rq->utilization_blocked_avg,
					 (uint64_t)-utilization_delta);
	}
}

/*
 * Mirrors update_entity_load_avg() in kernel/sched/fair.c, v3.8-v4.2, for
 * a task entity.
 *
 * Only when the sums crossed a period boundary are the contributions
 * recomputed (__update_entity_load_avg_contrib(), and in v4.1-v4.2
 * __update_entity_utilization_avg_contrib()); the change then goes to the
 * cfs_rq if asked.
 */
int64_t cfsr_legacy_update_task_load_avg(const struct cfsr_legacy_params *params, uint64_t now,
					 struct cfsr_legacy_avg *sa, uint64_t weight, bool on_rq,
					 bool running, uint32_t scale_freq, uint32_t scale_cpu,
					 struct cfsr_legacy_cfs_rq *cfs_rq, bool update_cfs_rq)
{
	uint64_t old_contrib = sa->load_avg_contrib;
	uint64_t old_util = sa->utilization_avg_contrib;
	int64_t contrib_delta, utilization_delta = 0;

	if (!cfsr_legacy_update_runnable_avg(params, now, sa, on_rq, running, scale_freq,
					     scale_cpu))
		return 0;

	cfsr_legacy_task_contrib(sa, weight);
	contrib_delta = (int64_t)(sa->load_avg_contrib - old_contrib);
	if (params->track_running) {
		cfsr_legacy_task_utilization(sa);
		utilization_delta = (int64_t)(sa->utilization_avg_contrib - old_util);
	}

	if (update_cfs_rq)
		legacy_apply_delta(params, cfs_rq, on_rq, contrib_delta, utilization_delta);
	return contrib_delta;
}

/*
 * Mirrors update_entity_load_avg() in kernel/sched/fair.c, v3.8-v4.2, for
 * a group entity.
 *
 * @now is the clock of the group's own cfs_rq.  The contribution is
 * recomputed through __update_tg_runnable_avg() and
 * __update_group_entity_contrib(); in v4.1-v4.2 the utilization is the
 * group cfs_rq's queued plus blocked utilization.
 */
int64_t cfsr_legacy_update_group_load_avg(const struct cfsr_legacy_params *params, uint64_t now,
					  struct cfsr_legacy_avg *sa, bool on_rq, bool running,
					  uint32_t scale_freq, uint32_t scale_cpu,
					  struct cfsr_legacy_cfs_rq *grq, struct cfsr_legacy_tg *tg,
					  struct cfsr_legacy_cfs_rq *cfs_rq, bool update_cfs_rq)
{
	uint64_t old_contrib = sa->load_avg_contrib;
	uint64_t old_util = sa->utilization_avg_contrib;
	int64_t contrib_delta, utilization_delta = 0;

	if (!cfsr_legacy_update_runnable_avg(params, now, sa, on_rq, running, scale_freq,
					     scale_cpu))
		return 0;

	cfsr_legacy_tg_runnable_avg(sa, grq, tg);
	cfsr_legacy_group_contrib(sa, grq, tg);
	contrib_delta = (int64_t)(sa->load_avg_contrib - old_contrib);
	if (params->track_running) {
		sa->utilization_avg_contrib =
			grq->utilization_load_avg + grq->utilization_blocked_avg;
		utilization_delta = (int64_t)(sa->utilization_avg_contrib - old_util);
	}

	if (update_cfs_rq)
		legacy_apply_delta(params, cfs_rq, on_rq, contrib_delta, utilization_delta);
	return contrib_delta;
}

/*
 * Mirrors enqueue_entity_load_avg() in kernel/sched/fair.c, v3.8-v4.2,
 * for a task.
 *
 * decay_count <= 0 marks a new or migrated task: its clock restarts at
 * rq_clock_task, back-dated by the decays it slept through elsewhere
 * (-decay_count << 20 ns) and brought up to date as not runnable; it is
 * then treated as not waking, because it never added to this cfs_rq's
 * blocked load.  A local wakeup first ages its contribution by the
 * cfs_rq's decays, takes it out of blocked_load_avg and updates the
 * task.  Either way the contribution joins runnable_load_avg and the
 * blocked load is updated, forced unless a wakeup.
 */
void cfsr_legacy_enqueue_task_load_avg(const struct cfsr_legacy_params *params,
				       struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				       struct cfsr_legacy_avg *sa, uint64_t weight,
				       uint64_t rq_clock_task, uint64_t now, bool wakeup)
{
	if (sa->decay_count <= 0) {
		sa->last_runnable_update = rq_clock_task;
		if (sa->decay_count) {
			sa->last_runnable_update -= (uint64_t)(-sa->decay_count)
						    << CFSR_LEGACY_DECAY_SHIFT;
			cfsr_legacy_update_task_load_avg(params, now, sa, weight, false, false,
							 SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE,
							 cfs_rq, false);
			sa->decay_count = 0;
		}
		wakeup = false;
	} else {
		cfsr_legacy_synchronize_decay(params, sa, cfs_rq);
	}

	if (wakeup) {
		subtract_blocked(&cfs_rq->blocked_load_avg, sa->load_avg_contrib);
		if (params->track_running)
			subtract_blocked(&cfs_rq->utilization_blocked_avg,
					 sa->utilization_avg_contrib);
		cfsr_legacy_update_task_load_avg(params, now, sa, weight, false, false,
						 SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE, cfs_rq,
						 false);
	}

	cfs_rq->runnable_load_avg += sa->load_avg_contrib;
	if (params->track_running)
		cfs_rq->utilization_load_avg += sa->utilization_avg_contrib;

	cfsr_legacy_update_blocked_load(params, cfs_rq, tg, now, !wakeup);
}

/*
 * Mirrors dequeue_entity_load_avg() in kernel/sched/fair.c, v3.8-v4.2,
 * for a task.
 *
 * The task is updated while still queued, the blocked load is updated
 * (forced unless a sleep), and the contribution leaves runnable_load_avg;
 * a sleeping task's joins blocked_load_avg and it remembers the cfs_rq's
 * decay_counter to age it on wakeup.
 */
void cfsr_legacy_dequeue_task_load_avg(const struct cfsr_legacy_params *params,
				       struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				       struct cfsr_legacy_avg *sa, uint64_t weight, bool running,
				       uint64_t now, bool sleep)
{
	cfsr_legacy_update_task_load_avg(params, now, sa, weight, true, running,
					 SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE, cfs_rq, true);
	cfsr_legacy_update_blocked_load(params, cfs_rq, tg, now, !sleep);

	cfs_rq->runnable_load_avg -= sa->load_avg_contrib;
	if (params->track_running)
		cfs_rq->utilization_load_avg -= sa->utilization_avg_contrib;
	if (sleep) {
		cfs_rq->blocked_load_avg += sa->load_avg_contrib;
		if (params->track_running)
			cfs_rq->utilization_blocked_avg += sa->utilization_avg_contrib;
		sa->decay_count = (int64_t)cfs_rq->decay_counter;
	}
}

/*
 * Mirrors migrate_task_rq_fair() in kernel/sched/fair.c, v3.8-v4.2.
 *
 * A sleeping task (decay_count set) that wakes on another CPU is aged by
 * its old cfs_rq's decays, keeps their number as -decay_count for the new
 * CPU, and its contribution is queued in the old cfs_rq's removed_load.
 */
void cfsr_legacy_migrate_task(const struct cfsr_legacy_params *params, struct cfsr_legacy_avg *sa,
			      struct cfsr_legacy_cfs_rq *cfs_rq)
{
	if (!sa->decay_count)
		return;
	sa->decay_count = -(int64_t)cfsr_legacy_synchronize_decay(params, sa, cfs_rq);
	cfs_rq->removed_load += sa->load_avg_contrib;
	if (params->track_running)
		cfs_rq->removed_utilization += sa->utilization_avg_contrib;
}

/*
 * Mirrors update_rq_runnable_avg() in kernel/sched/fair.c, v3.8-v4.2.
 *
 * The rq keeps a runnable average of its own, running = runnable in the
 * v4.1-era code, and pushes its fraction of a CPU to the root group's
 * runnable_avg like any group cfs_rq.
 */
void cfsr_legacy_update_rq_runnable_avg(const struct cfsr_legacy_params *params,
					uint64_t clock_task, struct cfsr_legacy_avg *rq_avg,
					struct cfsr_legacy_cfs_rq *root,
					struct cfsr_legacy_tg *root_tg, bool runnable)
{
	cfsr_legacy_update_runnable_avg(params, clock_task, rq_avg, runnable, runnable,
					SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE);
	cfsr_legacy_tg_runnable_avg(rq_avg, root, root_tg);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-entity load tracking (PELT), reproduced in integers.
 *
 * Every fair entity and every cfs_rq carries a struct cfsr_sched_avg: three
 * geometric sums of recent history (load, runnable, running) in periods of
 * 1024 units of 1024 ns, each period decayed by y (y^32 = 1/2), and the
 * averages derived from them.  The functions here mirror the kernel's PELT
 * arithmetic bit for bit (kernel/sched/pelt.c, pelt.h and the PELT parts
 * of fair.c); they work on values only.  The caller, the replay engine,
 * decides when an update happens and supplies the inputs the kernel would
 * read from its structures (on_rq, cfs_rq->curr, weights, counts, the PELT
 * clock), so the same code serves tasks, group entities and cfs_rqs.
 *
 * Behaviour that changed between kernel releases is selected at run time
 * through a const struct cfsr_pelt_params, never at build time.
 */
#ifndef CFSR_PELT_H
#define CFSR_PELT_H

#include <stdbool.h>
#include <stdint.h>

#include "math.h"
#include "pelt-legacy.h"
#include "pelt-v4.h"

/* util_est: new samples weigh 1/4; the flag marks "util_avg unchanged". */
#define UTIL_EST_WEIGHT_SHIFT 2
#define UTIL_AVG_UNCHANGED 0x80000000U
/* v4.17-v5.12: the flag is the LSB of util_est.enqueued (68d7a190682a moved it). */
#define UTIL_AVG_UNCHANGED_LSB 0x1U
#define UTIL_EST_MARGIN (SCHED_CAPACITY_SCALE / 100)

/* Decay table: runnable_avg_yN_inv[n] ~= y^n * 2^32 (kernel/sched/sched-pelt.h). */
extern const uint32_t cfsr_runnable_avg_yN_inv[LOAD_AVG_PERIOD];

/**
 * struct cfsr_pelt_old - an entity's or cfs_rq's state under a v3.8-v5.6 model
 * @se: a task's averages under the legacy model (v3.8-v4.2)
 * @cfs: a cfs_rq's sums under the legacy model: runnable_load_avg,
 *       blocked_load_avg, decay_counter, removed_load
 * @v4: the signal of a task or a cfs_rq under the v4.3-v5.6 model; for a
 *      cfs_rq before v4.15 its runnable_load_sum/avg are those struct
 *      cfs_rq kept beside struct sched_avg
 * @queued: an entity's contribution is in its cfs_rq's runnable load
 *          (runnable_load_avg): added at enqueue, taken out at dequeue
 * @blocked: legacy: a task's contribution is in its cfs_rq's
 *           blocked_load_avg (it went to sleep there)
 * @clock: legacy cfs_rq: the clock of its last update_cfs_rq_blocked_load()
 * @runnable_weight: v4.15-v5.6: a group entity's se->runnable_weight
 *                   (calc_group_runnable(), scaled); 0 for a task, whose
 *                   runnable weight is its load.weight
 * @runnable_deficit: v4.15-v5.6: for a cfs_rq, load.weight -
 *                    runnable_weight, what its queued group entities'
 *                    runnable weights fall short of their weights; for a
 *                    group entity, its part of that while queued
 *
 * The engine's update points call the model's operations (lib/pelt-ops.h),
 * which keep this state and write into struct cfsr_sched_avg the values
 * the rest of the program reads (load_avg, util_avg, last_update_time).
 */
struct cfsr_pelt_old {
	struct cfsr_legacy_avg se;
	struct cfsr_legacy_cfs_rq cfs;
	struct cfsr_v4_avg v4;
	bool queued;
	bool blocked;
	uint64_t clock;
	uint64_t runnable_weight;
	uint64_t runnable_deficit;
};

/**
 * struct cfsr_sched_avg - PELT state of an entity or a cfs_rq
 * @last_update_time: PELT clock (ns) of the last update; a multiple of 1024
 *                    once aligned; 0 means "not attached" for an entity
 * @load_sum: decayed runnable time; unweighted for an entity, weighted by
 *            the 10-bit load for a cfs_rq
 * @runnable_sum: decayed runnable time times the runnable count, << 10
 * @util_sum: decayed running time << 10 (u32 in the kernel)
 * @period_contrib: units already accumulated in the current period
 * @load_avg: load average, 0..weight
 * @runnable_avg: runnable average, 0..1024 per runnable task
 * @util_avg: utilization, 0..1024
 * @util_est: estimated utilization.  v6.8+ layout (CFSR_UTIL_EST_SINGLE):
 *            for a task, the EWMA ORed with UTIL_AVG_UNCHANGED.  v5.13-v6.7
 *            layout (CFSR_UTIL_EST_PAIR): for a task, util_est.enqueued,
 *            the util_avg of its last sample ORed with UTIL_AVG_UNCHANGED.
 *            v5.7-v5.12 (CFSR_UTIL_EST_PAIR_LSB): the same pair with the
 *            flag in bit 0 (UTIL_AVG_UNCHANGED_LSB).
 *            For a root cfs_rq in either, the sum of the queued tasks'
 *            estimates (util_est.enqueued before v6.8)
 * @util_est_ewma: util_est.ewma of a task in the v5.13-v6.7 layout; 0 in
 *                 the v6.8+ layout and for a cfs_rq
 * @old: the state the v3.8-v5.6 models keep instead (struct cfsr_pelt_old,
 *       lib/pelt-ops.h); all zero under a v5.7+ model, whose code never
 *       reads it
 *
 * Mirrors struct sched_avg of a 64-bit kernel, v6.8-v6.18, and of v5.13-v6.7
 * with its struct util_est { enqueued, ewma } held in the two util_est
 * fields: "unsigned long" fields are uint64_t.
 */
struct cfsr_sched_avg {
	uint64_t last_update_time;
	uint64_t load_sum;
	uint64_t runnable_sum;
	uint32_t util_sum;
	uint32_t period_contrib;
	uint64_t load_avg;
	uint64_t runnable_avg;
	uint64_t util_avg;
	uint32_t util_est;
	uint32_t util_est_ewma;
	struct cfsr_pelt_old old;
};

#define CFSR_SCHED_AVG_INIT \
	{                   \
		0           \
	}

/**
 * struct cfsr_pelt_removed - contributions queued for removal from a cfs_rq
 * @load_avg: sum of the removed entities' load_avg
 * @util_avg: sum of their util_avg
 * @runnable_avg: sum of their runnable_avg
 * @nr: number of entities queued since the last update of the cfs_rq
 *
 * Mirrors cfs_rq->removed: an entity that leaves a cfs_rq without the
 * cfs_rq being updated (wakeup migration, exit) is queued here and
 * subtracted at the cfs_rq's next update_cfs_rq_load_avg().
 */
struct cfsr_pelt_removed {
	uint64_t load_avg;
	uint64_t util_avg;
	uint64_t runnable_avg;
	unsigned int nr;
};

#define CFSR_PELT_REMOVED_INIT \
	{                      \
		0              \
	}

/* Layout of util_est. */
enum cfsr_util_est_repr {
	/* v6.8+: one u32, EWMA | UTIL_AVG_UNCHANGED. */
	CFSR_UTIL_EST_SINGLE,
	/*
	 * v5.13-v6.7: struct util_est { enqueued | flag (MSB), ewma }, held in
	 * util_est and util_est_ewma.
	 */
	CFSR_UTIL_EST_PAIR,
	/*
	 * v4.17-v5.12: the same pair with UTIL_AVG_UNCHANGED in the LSB of
	 * enqueued (UTIL_AVG_UNCHANGED_LSB), ORed into _task_util_est(), and
	 * util_est_update() without the last_enqueued_diff filter.
	 */
	CFSR_UTIL_EST_PAIR_LSB,
};

/*
 * How update_tg_cfs_load() changes the parent cfs_rq's load_sum, and
 * whether it returns early when the group entity's load_avg is unchanged.
 */
enum cfsr_prop_load {
	/*
	 * v5.17+: add_positive() of the sum difference, then the u32 lower
	 * bound; nothing changes when load_avg does not (2d02fa8cc21a).
	 */
	CFSR_PROP_LOAD_BOUND,
	/*
	 * v5.7-v5.12: add_positive() of the sum difference, no bound, no
	 * early return.
	 */
	CFSR_PROP_LOAD_ADD,
	/*
	 * v5.13: load_sum = load_avg * divider (7c7ad626d9a0), no early return.
	 */
	CFSR_PROP_LOAD_RESYNC,
	/*
	 * v5.14-v5.16: as v5.13, but the entity's load_sum is set first and an
	 * unchanged load_avg returns (83c5e9d573e1).
	 */
	CFSR_PROP_LOAD_RESYNC_EARLY,
};

/**
 * struct cfsr_pelt_params - PELT behaviour of one range of kernel releases
 * @name: the release range, for output headers, e.g. "v6.16-v6.18"
 * @decay_zero_identity: decay_load(val, 0) returns val (before v4.12);
 *                       since v4.12 it returns val * 0xffffffff >> 32
 * @whole_unit_advance: last_update_time advances by whole 1024 ns units
 *                      (v4.12+); before, it was set to "now", dropping the
 *                      sub-unit remainder
 * @divider_period_contrib: the averaging divider is
 *                          PELT_MIN_DIVIDER + period_contrib (v4.13+);
 *                          before, LOAD_AVG_MAX
 * @scale_load_down_floor: scale_load_down() never returns less than 2 for
 *                         a non-zero weight (v5.7+, stable 4.19.116+)
 * @sum_lower_bounds: after subtracting from a cfs_rq, each _sum is raised
 *                    to at least _avg * PELT_MIN_DIVIDER, compared as u32
 *                    ("Relax the sync of *_sum with *_avg": v5.17; the
 *                    stable series took only the first, see
 *                    @removed_util_bound); before v5.13, plain clamped
 *                    subtraction
 * @attach_load_sum_min1: attach sets load_sum = max(1, load_avg * divider /
 *                        weight) (40f5aa4c5eae: v5.18, stable 5.10.113,
 *                        5.15.36 and 5.17.5); before, divider * load_avg / weight
 *                        which can be 0
 * @post_init_se_weight: a new task's util_avg is scaled by se_weight()
 *                       (v6.10+, 72bffbf57c52); before, by the 20-bit
 *                       se->load.weight, which almost always hits the cap
 * @util_est_repr: layout of util_est
 * @util_est_lsb_filter: with CFSR_UTIL_EST_PAIR_LSB, util_est_update()
 *                       has b89997aa88f0's last_enqueued_diff filter
 *                       (stable 5.10.36-5.10.43, before the flag moved to
 *                       the MSB): an EWMA within the margin keeps the
 *                       sample if enqueued moved by the margin or more
 * @util_est_runnable_check: util_est_update() keeps the EWMA when
 *                           util_avg + margin < runnable_avg (v6.2+)
 * @util_est_capacity_check: util_est_update() skips the sample when
 *                           util_avg exceeds the CPU capacity (until
 *                           v6.15; removed by f2d650618bc7 in v6.16)
 * @post_init_runnable_cpu_scale: post_init_entity_util_avg() starts a new
 *                                task's runnable_avg at the CPU capacity
 *                                (v5.7.0-v5.7.6); e21cf43406a1 (v5.8-rc3,
 *                                stable 5.7.7) starts it at util_avg
 * @prop_load_avg_max: update_tg_cfs_util/runnable/load() divide and clip
 *                     by LOAD_AVG_MAX (v5.7); 95d685935a2e (v5.8) uses the
 *                     parent cfs_rq's divider
 * @prop_load: how update_tg_cfs_load() changes the parent's load_sum
 * @detach_resync: detach_entity_load_avg() sets the cfs_rq's util_sum and
 *                 runnable_sum to _avg * divider (fcf6631f3736,
 *                 v5.13-v5.16); before, plain clamped subtraction
 * @removed_resync: the removed-load branch of update_cfs_rq_load_avg()
 *                  sets each _sum to _avg * divider (1c35b07e6d39,
 *                  v5.14-v5.16)
 * @removed_util_bound: with @removed_resync, the removed-load branch
 *                      subtracts util from util_sum and applies the
 *                      lower bound util_avg * PELT_MIN_DIVIDER instead of
 *                      resynchronising it (98b0d890220d alone, without the
 *                      rest of the v5.17 relaxation: stable 5.15.19+ and
 *                      5.16.5+)
 * @dequeue_load_resync: dequeue_load_avg() sets the cfs_rq's load_sum to
 *                       load_avg * get_pelt_divider(&se->avg)
 *                       (ceb6ba45dc80, v5.14-v5.16)
 * @util_est_no_fastup: NO_UTIL_EST_FASTUP, a kernel run without the
 *                      feature (v5.7-v6.7, the pair layouts): a sample
 *                      above the EWMA moves it by a quarter only, as one
 *                      below it.  Never set in the tables (the kernel's
 *                      default); the replay engine sets it in its own copy
 *                      from a trace's scheduler features.  From v6.8 the
 *                      fast rise is unconditional
 *
 * Callers only ever pass a pointer to one of the tables below, so fields
 * can be added without changing them.  The models before v5.7 have their
 * own arithmetic (lib/pelt-v4.h, lib/pelt-legacy.h), which the engine runs
 * through lib/pelt-ops.h.
 */
struct cfsr_pelt_params {
	const char *name;
	bool decay_zero_identity;
	bool whole_unit_advance;
	bool divider_period_contrib;
	bool scale_load_down_floor;
	bool sum_lower_bounds;
	bool attach_load_sum_min1;
	bool post_init_se_weight;
	enum cfsr_util_est_repr util_est_repr;
	bool util_est_lsb_filter;
	bool util_est_runnable_check;
	bool util_est_capacity_check;
	bool post_init_runnable_cpu_scale;
	bool prop_load_avg_max;
	enum cfsr_prop_load prop_load;
	bool detach_resync;
	bool removed_resync;
	bool removed_util_bound;
	bool dequeue_load_resync;
	bool util_est_no_fastup;
};

/* v6.16-v6.18. */
extern const struct cfsr_pelt_params cfsr_pelt_params_modern;
/* v6.12-v6.15: as modern, with the util_est capacity check. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v6_12;
/* Older releases of the runnable_avg model (v5.7-v6.11). */
/* v6.10-v6.11: post_init with se_weight(), util_est in one u32. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v6_10;
/* v6.8-v6.9: util_est in one u32 (11137d384996). */
extern const struct cfsr_pelt_params cfsr_pelt_params_v6_8;
/* v6.2-v6.7: util_est pair with the runnable check. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v6_2;
/* v5.18-v6.1: attach sets load_sum >= 1 (40f5aa4c5eae). */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_18;
/* v5.17: the PELT_MIN_DIVIDER lower bounds. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_17;
/*
 * Stable 5.10.y (docs/PROFILES.md, "Stable backports"): 5.10.36-5.10.43
 * v5.8's with the last_enqueued_diff filter (b89997aa88f0); 5.10.44-5.10.45
 * util_est as v5.13 (68d7a190682a) and update_tg_cfs_load()'s resync
 * (7c7ad626d9a0); 5.10.46-5.10.50 v5.13's (fcf6631f3736 too); 5.10.51 the
 * removed-load resync (1c35b07e6d39); 5.10.96 its util_sum bound
 * (98b0d890220d); 5.10.113 the attach floor (40f5aa4c5eae).
 */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_10_36;
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_10_44;
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_10_51;
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_10_96;
/*
 * Stable 5.15.36-5.15.y: as 5.15.19, and attach keeps load_sum >= 1
 * (40f5aa4c5eae).
 */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_15_36;
/*
 * Stable 5.15.19-5.15.35 and 5.16.5-5.16.y: as v5.14, the removed-load
 * branch bounds util_sum instead of resynchronising it (98b0d890220d).
 */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_15_19;
/* v5.14-v5.16: every subtraction resynchronises _sum from _avg. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_14;
/* v5.13: util_est flag in the MSB; detach and propagation resynchronise. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_13;
/* Stable 5.10.113-5.10.y: as 5.10.96, and attach keeps load_sum >= 1 (40f5aa4c5eae). */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_10_113;
/* v5.8-v5.12: util_est flag in the LSB; propagation by the cfs_rq's divider. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_8;
/* v5.7.7-v5.7.y: as v5.7, a new task's runnable_avg from its util_avg. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_7_7;
/* v5.7.0-v5.7.6: new task runnable_avg at capacity, propagation by LOAD_AVG_MAX. */
extern const struct cfsr_pelt_params cfsr_pelt_params_v5_7;

/**
 * cfsr_pelt_weight() - the 10-bit weight PELT multiplies by
 * @params: kernel behaviour
 * @load_weight: internal weight (se->load.weight or cfs_rq->load.weight)
 *
 * se_weight() / scale_load_down() of the selected kernel.
 *
 * Return: @load_weight scaled down by SCHED_FIXEDPOINT_SHIFT.
 */
uint64_t cfsr_pelt_weight(const struct cfsr_pelt_params *params, uint64_t load_weight);

/**
 * cfsr_pelt_divider() - maximum of a _sum at the current window position
 * @params: kernel behaviour
 * @sa: signal whose period_contrib is used
 *
 * Return: PELT_MIN_DIVIDER + @sa->period_contrib (get_pelt_divider()).
 */
uint32_t cfsr_pelt_divider(const struct cfsr_pelt_params *params, const struct cfsr_sched_avg *sa);

/**
 * cfsr_pelt_decay_load() - val * y^n, the kernel's way
 * @params: kernel behaviour
 * @val: value to decay
 * @n: number of periods
 *
 * Return: 0 beyond 2016 periods, else (val >> n/32) * runnable_avg_yN_inv[n%32]
 * >> 32 with a full-width product.
 */
uint64_t cfsr_pelt_decay_load(const struct cfsr_pelt_params *params, uint64_t val, uint64_t n);

/**
 * cfsr_pelt_accumulate_segments() - contribution of d1, d2 and d3
 * @params: kernel behaviour
 * @periods: number of period boundaries crossed, > 0
 * @d1: units that completed the old period
 * @d3: units in the new, current period
 *
 * Return: d1 y^p + 1024 * sum(y^n, n = 1..p-1) + d3, the middle term
 * approximated as the kernel does.
 */
uint32_t cfsr_pelt_accumulate_segments(const struct cfsr_pelt_params *params, uint64_t periods,
				       uint32_t d1, uint32_t d3);

/**
 * cfsr_pelt_accumulate_sum() - decay and accumulate the sums
 * @params: kernel behaviour
 * @delta: elapsed whole units (1024 ns) since the last update
 * @sa: signal to update
 * @load: load input (0 means not runnable)
 * @runnable: runnable input, a count
 * @running: non-zero if running
 *
 * Return: the number of periods crossed, truncated to 32 bits as in the
 * kernel; non-zero means the averages must be recomputed.
 */
uint32_t cfsr_pelt_accumulate_sum(const struct cfsr_pelt_params *params, uint64_t delta,
				  struct cfsr_sched_avg *sa, uint64_t load, uint64_t runnable,
				  int running);

/**
 * cfsr_pelt_update_sum() - bring a signal's sums up to @now
 * @params: kernel behaviour
 * @now: PELT clock in ns
 * @sa: signal to update
 * @load: load input
 * @runnable: runnable input
 * @running: running input
 *
 * Updates less than 1024 ns apart do nothing; a clock that went backwards
 * only resets last_update_time.  A zero @load forces @runnable and
 * @running to 0.
 *
 * Return: 1 if a period boundary was crossed (averages are stale), else 0.
 */
int cfsr_pelt_update_sum(const struct cfsr_pelt_params *params, uint64_t now,
			 struct cfsr_sched_avg *sa, uint64_t load, uint64_t runnable, int running);

/**
 * cfsr_pelt_update_avg() - recompute the averages from the sums
 * @params: kernel behaviour
 * @sa: signal to update
 * @load: weight multiplying load_sum: se_weight for an entity, 1 for a cfs_rq
 */
void cfsr_pelt_update_avg(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *sa,
			  uint64_t load);

/**
 * cfsr_pelt_update_blocked_se() - age an entity that is not queued
 * @params: kernel behaviour
 * @now: PELT clock in ns
 * @sa: the entity's signal
 * @load_weight: the entity's se->load.weight
 *
 * Return: 1 if the averages changed, else 0.
 */
int cfsr_pelt_update_blocked_se(const struct cfsr_pelt_params *params, uint64_t now,
				struct cfsr_sched_avg *sa, uint64_t load_weight);

/**
 * cfsr_pelt_update_se() - age an entity with its current state
 * @params: kernel behaviour
 * @now: PELT clock of its cfs_rq in ns
 * @sa: the entity's signal
 * @load_weight: se->load.weight
 * @on_rq: se->on_rq (a delayed-dequeue entity is still on_rq)
 * @runnable: se_runnable(): for a task 1 if on_rq and not delayed (v6.12+;
 *            just on_rq before); for a group entity the runnable task count
 *            below it (h_nr_runnable, h_nr_running before v6.14), 0 if delayed
 * @running: cfs_rq->curr == se
 *
 * When a period was crossed, also clears UTIL_AVG_UNCHANGED in util_est.
 *
 * Return: 1 if the averages changed, else 0.
 */
int cfsr_pelt_update_se(const struct cfsr_pelt_params *params, uint64_t now,
			struct cfsr_sched_avg *sa, uint64_t load_weight, bool on_rq,
			uint64_t runnable, bool running);

/**
 * cfsr_pelt_update_cfs_rq() - age a cfs_rq
 * @params: kernel behaviour
 * @now: PELT clock of the cfs_rq in ns
 * @sa: the cfs_rq's signal
 * @load_weight: cfs_rq->load.weight (sum of the queued entities' weights,
 *               delayed ones included)
 * @runnable: h_nr_runnable (v6.14+); h_nr_running - h_nr_delayed (v6.13,
 *            stable 6.12.7+); h_nr_running (v5.7-v6.12.6)
 * @running: cfs_rq->curr != NULL
 *
 * Return: 1 if the averages changed, else 0.
 */
int cfsr_pelt_update_cfs_rq(const struct cfsr_pelt_params *params, uint64_t now,
			    struct cfsr_sched_avg *sa, uint64_t load_weight, uint64_t runnable,
			    bool running);

/**
 * cfsr_pelt_enqueue_load() - add an entity's load to a cfs_rq
 * @params: kernel behaviour
 * @cfs: the cfs_rq's signal
 * @se: the entity's signal
 * @load_weight: the entity's se->load.weight
 */
void cfsr_pelt_enqueue_load(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *cfs,
			    const struct cfsr_sched_avg *se, uint64_t load_weight);

/**
 * cfsr_pelt_dequeue_load() - remove an entity's load from a cfs_rq
 * @params: kernel behaviour
 * @cfs: the cfs_rq's signal
 * @se: the entity's signal
 * @load_weight: the entity's se->load.weight
 */
void cfsr_pelt_dequeue_load(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *cfs,
			    const struct cfsr_sched_avg *se, uint64_t load_weight);

/**
 * cfsr_pelt_attach_se() - attach an entity to a cfs_rq
 * @params: kernel behaviour
 * @cfs: the cfs_rq's signal, already updated to now
 * @se: the entity's signal; its window is aligned on @cfs and its sums
 *      rebuilt from its averages
 * @load_weight: the entity's se->load.weight
 *
 * Return: the value the kernel passes to add_tg_cfs_propagate() for the
 * cfs_rq (the entity's new load_sum), for the caller's group propagation.
 */
int64_t cfsr_pelt_attach_se(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *cfs,
			    struct cfsr_sched_avg *se, uint64_t load_weight);

/**
 * cfsr_pelt_detach_se() - detach an entity from a cfs_rq
 * @params: kernel behaviour
 * @cfs: the cfs_rq's signal, already updated to now
 * @se: the entity's signal, unchanged
 * @load_weight: the entity's se->load.weight
 *
 * Return: the add_tg_cfs_propagate() value (minus the entity's load_sum).
 */
int64_t cfsr_pelt_detach_se(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *cfs,
			    const struct cfsr_sched_avg *se, uint64_t load_weight);

/**
 * cfsr_pelt_remove_se() - queue an entity's averages for removal
 * @removed: the cfs_rq's removal queue
 * @se: the entity's signal, already aged to the cfs_rq's last_update_time
 *      (sync_entity_load_avg(), i.e. cfsr_pelt_update_blocked_se())
 */
void cfsr_pelt_remove_se(struct cfsr_pelt_removed *removed, const struct cfsr_sched_avg *se);

/**
 * cfsr_pelt_apply_removed() - subtract queued removals from a cfs_rq
 * @params: kernel behaviour
 * @cfs: the cfs_rq's signal
 * @removed: the queue; emptied
 * @prop: set to the add_tg_cfs_propagate() value (0 if nothing was queued)
 *
 * Return: 1 if anything was queued (the load changed), else 0.
 */
int cfsr_pelt_apply_removed(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *cfs,
			    struct cfsr_pelt_removed *removed, int64_t *prop);

/**
 * cfsr_pelt_update_cfs_rq_load_avg() - apply removals, then age a cfs_rq
 * @params: kernel behaviour
 * @now: PELT clock of the cfs_rq in ns
 * @cfs: the cfs_rq's signal
 * @removed: its removal queue; emptied
 * @load_weight: cfs_rq->load.weight
 * @runnable: runnable count, as for cfsr_pelt_update_cfs_rq()
 * @running: cfs_rq->curr != NULL
 * @prop: set to the add_tg_cfs_propagate() value of the removals
 *
 * Return: 1 if load was removed or the averages changed, else 0.
 */
int cfsr_pelt_update_cfs_rq_load_avg(const struct cfsr_pelt_params *params, uint64_t now,
				     struct cfsr_sched_avg *cfs, struct cfsr_pelt_removed *removed,
				     uint64_t load_weight, uint64_t runnable, bool running,
				     int64_t *prop);

/**
 * cfsr_pelt_reweight_se() - PELT part of a weight change
 * @params: kernel behaviour
 * @cfs: the cfs_rq's signal
 * @se: the entity's signal; load_avg recomputed for the new weight
 * @old_weight: se->load.weight before the change
 * @new_weight: se->load.weight after the change
 *
 * The entity is not aged first, exactly as in the kernel.
 */
void cfsr_pelt_reweight_se(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *cfs,
			   struct cfsr_sched_avg *se, uint64_t old_weight, uint64_t new_weight);

/**
 * cfsr_pelt_init_se() - PELT state of a new entity
 * @params: kernel behaviour
 * @sa: signal to initialise
 * @load_weight: se->load.weight
 * @is_task: a task starts with load_avg = its weight; a group entity at 0
 */
void cfsr_pelt_init_se(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *sa,
		       uint64_t load_weight, bool is_task);

/**
 * cfsr_pelt_post_init_se() - initial utilization of a new fair task
 * @params: kernel behaviour
 * @sa: the task's signal, fresh from cfsr_pelt_init_se()
 * @load_weight: the task's se->load.weight
 * @cpu_scale: arch_scale_cpu_capacity() of the chosen CPU (1024 if uniform)
 * @cfs: signal of the cfs_rq the task will join
 *
 * Only for fair tasks; for others the kernel just sets last_update_time to
 * the cfs_rq's PELT clock, which the caller does.
 */
void cfsr_pelt_post_init_se(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *sa,
			    uint64_t load_weight, uint64_t cpu_scale,
			    const struct cfsr_sched_avg *cfs);

/**
 * cfsr_pelt_util_est_clear_unchanged() - note that util_avg changed
 * @sa: a task's signal
 *
 * Clears UTIL_AVG_UNCHANGED; cfsr_pelt_update_se() calls it.
 */
void cfsr_pelt_util_est_clear_unchanged(struct cfsr_sched_avg *sa);

/**
 * cfsr_pelt_task_util_est() - a task's utilization for placement decisions
 * @params: kernel behaviour (the util_est layout)
 * @sa: the task's signal
 *
 * task_util_est(): max(util_avg, _task_util_est()).
 *
 * Return: max(util_avg, util_est_ewma, util_est without the flag); before
 * v5.13 the estimate is ORed with UTIL_AVG_UNCHANGED_LSB first.
 */
uint64_t cfsr_pelt_task_util_est(const struct cfsr_pelt_params *params,
				 const struct cfsr_sched_avg *sa);

/**
 * cfsr_pelt_util_est_of() - the estimate a task brings to its root cfs_rq
 * @sa: the task's signal
 *
 * _task_util_est(): the EWMA without the flag (v6.8+), or max(ewma,
 * enqueued without the flag) (v5.13-v6.7).  The same expression serves
 * both layouts, util_est_ewma being 0 in the v6.8+ one.  For the
 * v5.7-v5.12 layout it is max(ewma, enqueued) as held; the kernel ORs
 * UTIL_AVG_UNCHANGED_LSB into it, which cfsr_pelt_util_est_enqueue(),
 * cfsr_pelt_util_est_dequeue() and cfsr_pelt_task_util_est() do.
 *
 * Return: the estimate, without UTIL_AVG_UNCHANGED.
 */
uint32_t cfsr_pelt_util_est_of(const struct cfsr_sched_avg *sa);

/**
 * cfsr_pelt_util_est_enqueue() - add a task's estimate to the root cfs_rq's
 * @params: kernel behaviour
 * @cfs_util_est: the root cfs_rq's util_est (util_est.enqueued before v6.8)
 * @task_util_est: the task's estimate, cfsr_pelt_util_est_of() (flag ignored)
 *
 * The caller checks the UTIL_EST feature, as the kernel does first.
 *
 * Return: the new root util_est (u32 arithmetic).
 */
uint32_t cfsr_pelt_util_est_enqueue(const struct cfsr_pelt_params *params, uint32_t cfs_util_est,
				    uint32_t task_util_est);

/**
 * cfsr_pelt_util_est_dequeue() - remove a task's estimate from the root's
 * @params: kernel behaviour
 * @cfs_util_est: the root cfs_rq's util_est (util_est.enqueued before v6.8)
 * @task_util_est: the task's estimate, cfsr_pelt_util_est_of() (flag ignored)
 *
 * Return: the new root util_est, clamped at 0.
 */
uint32_t cfsr_pelt_util_est_dequeue(const struct cfsr_pelt_params *params, uint32_t cfs_util_est,
				    uint32_t task_util_est);

/**
 * cfsr_pelt_util_est_update() - take a util_est sample at a task's dequeue
 * @params: kernel behaviour
 * @util_est: the task's util_est
 * @util_avg: the task's util_avg at dequeue
 * @runnable_avg: the task's runnable_avg at dequeue
 * @cpu_capacity: arch_scale_cpu_capacity() of the CPU (capacity check only)
 * @task_sleep: the dequeue is a sleep (DEQUEUE_SLEEP), not a migration
 *
 * The v6.8+ layout only (CFSR_UTIL_EST_SINGLE); cfsr_pelt_util_est_sample()
 * serves both.  The caller checks the UTIL_EST feature, as the kernel does
 * first.
 *
 * Return: the task's new util_est; @util_est when no sample is taken, and
 * for the v5.13-v6.7 layout.
 */
uint32_t cfsr_pelt_util_est_update(const struct cfsr_pelt_params *params, uint32_t util_est,
				   uint64_t util_avg, uint64_t runnable_avg, uint64_t cpu_capacity,
				   bool task_sleep);

/**
 * cfsr_pelt_util_est_sample() - util_est_update() of a task, either layout
 * @params: kernel behaviour (params->util_est_repr chooses the layout)
 * @sa: the task's signal: util_est (and util_est_ewma) are updated from its
 *      util_avg and runnable_avg
 * @cpu_capacity: arch_scale_cpu_capacity() of the CPU (capacity check only)
 * @task_sleep: the dequeue is a sleep (DEQUEUE_SLEEP), not a migration
 *
 * The caller checks the UTIL_EST feature, as the kernel does first.
 */
void cfsr_pelt_util_est_sample(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *sa,
			       uint64_t cpu_capacity, bool task_sleep);

#endif /* CFSR_PELT_H */

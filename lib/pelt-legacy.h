/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The first per-entity load tracking (v3.8-v4.2), reproduced in integers.
 *
 * Before the v4.3 rewrite an entity kept two geometric sums of its own,
 * runnable_avg_sum (time runnable) and runnable_avg_period (time elapsed),
 * and its load was their ratio times its weight, load_avg_contrib.  A
 * cfs_rq kept no sums: it added its queued entities' contributions in
 * runnable_load_avg and its sleeping ones' in blocked_load_avg, which it
 * decayed as a whole every 2^20 ns.  A task group summed its cfs_rqs'
 * contributions in tg->load_avg, pushed only when a cfs_rq's changed by
 * more than 1/8, and a group entity's contribution was its cfs_rq's
 * share of the group's shares.  v4.1 added a third sum, running_avg_sum,
 * and the utilization signals built from it, and scaled the sums by
 * frequency and CPU capacity.
 *
 * Loads have 10-bit resolution in this era on every architecture
 * (scale_load() is the identity before v4.7): a nice-0 weight is 1024 and
 * so are the default tg->shares.  The functions work on values; the caller
 * (a replay engine) decides when updates happen and supplies the clocks,
 * as for lib/pelt.h.
 */
#ifndef CFSR_PELT_LEGACY_H
#define CFSR_PELT_LEGACY_H

#include <stdbool.h>
#include <stdint.h>

#include "math.h"

/* Periods after which __compute_runnable_contrib() returns LOAD_AVG_MAX. */
#define LOAD_AVG_MAX_N 345
/* Load resolution before v4.7: NICE_0_LOAD = SCHED_LOAD_SCALE = 1 << 10. */
#define CFSR_LEGACY_NICE_0_SHIFT 10
#define CFSR_LEGACY_NICE_0_LOAD (1L << CFSR_LEGACY_NICE_0_SHIFT)
/* Smallest group entity weight (kernel/sched/sched.h). */
#define CFSR_MIN_SHARES 2
/* update_cfs_rq_blocked_load() counts decays in 2^20 ns "milliseconds". */
#define CFSR_LEGACY_DECAY_SHIFT 20

/*
 * runnable_avg_yN_sum[n] = 1024 (y + y^2 + ... + y^n), rounded down, n =
 * 0..32 (kernel/sched/fair.c, v3.8-v4.11).
 */
extern const uint32_t cfsr_runnable_avg_yN_sum[LOAD_AVG_PERIOD + 1];
/*
 * __accumulated_sum_N32[k]: the sum over 32k periods as the pre-v4.7 loop
 * builds it (v4.7-v4.11, 7b20b916e953).
 */
extern const uint32_t cfsr_accumulated_sum_N32[12];

/**
 * struct cfsr_legacy_params - behaviour of one range of v3.8-v4.2 releases
 * @name: the release range, for output headers
 * @track_running: running_avg_sum, utilization_avg_contrib and the cfs_rq
 *                 utilization sums exist, and contributions are scaled by
 *                 arch_scale_freq_capacity() and arch_scale_cpu_capacity()
 *                 (v4.1-v4.2)
 * @init_slice: a new task starts with runnable_avg_sum = runnable_avg_period
 *              = sched_slice() >> 10 (init_task_runnable_average(), v3.13+;
 *              sysctl_sched_latency >> 10 and running_avg_sum too in
 *              v4.1-v4.2); before, with zeros
 * @sync_always_clears: __synchronize_entity_decay() zeroes decay_count
 *                      even when no decay elapsed (seen in a v4.1-era copy;
 *                      the v3.8-era code zeroes it only after decaying)
 */
struct cfsr_legacy_params {
	const char *name;
	bool track_running;
	bool init_slice;
	bool sync_always_clears;
};

/* v3.8-v3.12. */
extern const struct cfsr_legacy_params cfsr_legacy_params_v3_8;
/* v3.13-v4.0: new tasks start from one slice. */
extern const struct cfsr_legacy_params cfsr_legacy_params_v3_13;
/* v4.1-v4.2: utilization, frequency and capacity scaling. */
extern const struct cfsr_legacy_params cfsr_legacy_params_v4_1;

/**
 * struct cfsr_legacy_avg - struct sched_avg of v3.8-v4.2 (64-bit)
 * @last_runnable_update: clock_task (ns) of the last update
 * @runnable_avg_sum: decayed runnable time, in 1024 ns units (u32)
 * @runnable_avg_period: decayed elapsed time (u32); named avg_period in
 *                       v4.1-v4.2.  Its value modulo 1024 is also the
 *                       position in the entity's current period
 * @running_avg_sum: decayed running time (u32; v4.1-v4.2)
 * @decay_count: cfs_rq decay_counter when the entity went to sleep; 0 when
 *               synchronised; negative after a wakeup migration (minus the
 *               decays it slept through)
 * @load_avg_contrib: the entity's load
 * @utilization_avg_contrib: the entity's utilization (v4.1-v4.2)
 */
struct cfsr_legacy_avg {
	uint64_t last_runnable_update;
	uint32_t runnable_avg_sum;
	uint32_t runnable_avg_period;
	uint32_t running_avg_sum;
	int64_t decay_count;
	uint64_t load_avg_contrib;
	uint64_t utilization_avg_contrib;
};

#define CFSR_LEGACY_AVG_INIT \
	{                    \
		0            \
	}

/**
 * struct cfsr_legacy_tg - the task group fields the legacy model reads
 * @shares: tg->shares, 10-bit resolution (1024 by default)
 * @load_avg: sum of its cfs_rqs' tg_load_contrib (atomic64 in the kernel)
 * @runnable_avg: sum of its cfs_rqs' tg_runnable_contrib, 1024 = one CPU
 */
struct cfsr_legacy_tg {
	uint64_t shares;
	int64_t load_avg;
	int32_t runnable_avg;
};

/**
 * struct cfsr_legacy_cfs_rq - the load-tracking fields of a v3.8-v4.2 cfs_rq
 * @runnable_load_avg: sum of the queued entities' load_avg_contrib
 * @blocked_load_avg: sum of the sleeping entities' contributions, decayed
 *                    as a whole
 * @utilization_load_avg: the same for utilization (v4.1-v4.2)
 * @utilization_blocked_avg: the same for utilization (v4.1-v4.2)
 * @decay_counter: decays applied to blocked_load_avg so far
 * @last_decay: clock_task >> 20 at the last decay
 * @removed_load: contributions of entities that migrated away while asleep
 * @removed_utilization: the same for utilization (v4.1-v4.2)
 * @tg_load_contrib: what this cfs_rq last added to tg->load_avg
 * @tg_runnable_contrib: what this cfs_rq last added to tg->runnable_avg
 */
struct cfsr_legacy_cfs_rq {
	uint64_t runnable_load_avg;
	uint64_t blocked_load_avg;
	uint64_t utilization_load_avg;
	uint64_t utilization_blocked_avg;
	uint64_t decay_counter;
	uint64_t last_decay;
	uint64_t removed_load;
	uint64_t removed_utilization;
	uint64_t tg_load_contrib;
	uint32_t tg_runnable_contrib;
};

#define CFSR_LEGACY_CFS_RQ_INIT \
	{                       \
		0               \
	}

/**
 * cfsr_legacy_decay_load() - val * y^n, the v3.8-v4.2 way
 * @val: value to decay
 * @n: periods
 *
 * Return: @val for n = 0, 0 beyond 2016 periods, else (val >> n/32) times
 * runnable_avg_yN_inv[n%32] in a 64-bit product that wraps, >> 32.
 */
uint64_t cfsr_legacy_decay_load(uint64_t val, uint64_t n);

/**
 * cfsr_legacy_compute_runnable_contrib() - 1024 (y + ... + y^n), v3.8-v4.11
 * @n: whole periods
 * @table: use __accumulated_sum_N32 (v4.7-v4.11) rather than the halving
 *         loop (v3.8-v4.6); the two differ by one when n is a multiple of
 *         32 above 32
 *
 * Return: the kernel's approximation; LOAD_AVG_MAX for n >= LOAD_AVG_MAX_N.
 */
uint32_t cfsr_legacy_compute_runnable_contrib(uint64_t n, bool table);

/**
 * cfsr_legacy_update_runnable_avg() - bring an entity's sums up to @now
 * @params: kernel behaviour
 * @now: clock_task in ns
 * @sa: the entity's averages
 * @runnable: se->on_rq
 * @running: cfs_rq->curr == se (only with @params->track_running)
 * @scale_freq: arch_scale_freq_capacity(), 1024 on x86 (track_running only)
 * @scale_cpu: arch_scale_cpu_capacity(), 1024 on x86 (track_running only)
 *
 * Return: 1 if a period boundary was crossed (the contributions are
 * stale), else 0.
 */
int cfsr_legacy_update_runnable_avg(const struct cfsr_legacy_params *params, uint64_t now,
				    struct cfsr_legacy_avg *sa, bool runnable, bool running,
				    uint32_t scale_freq, uint32_t scale_cpu);

/**
 * cfsr_legacy_task_contrib() - recompute a task's load_avg_contrib
 * @sa: the task's averages
 * @weight: se->load.weight (10-bit resolution)
 */
void cfsr_legacy_task_contrib(struct cfsr_legacy_avg *sa, uint64_t weight);

/**
 * cfsr_legacy_task_utilization() - recompute a task's utilization_avg_contrib
 * @sa: the task's averages
 */
void cfsr_legacy_task_utilization(struct cfsr_legacy_avg *sa);

/**
 * cfsr_legacy_tg_runnable_avg() - push a cfs_rq's runnable fraction to its group
 * @sa: the averages of the group entity (or of the rq, for the root)
 * @cfs_rq: the group's cfs_rq on this CPU
 * @tg: the group
 */
void cfsr_legacy_tg_runnable_avg(const struct cfsr_legacy_avg *sa,
				 struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg);

/**
 * cfsr_legacy_group_contrib() - recompute a group entity's load_avg_contrib
 * @sa: the group entity's averages
 * @grq: the cfs_rq the entity represents
 * @tg: its group
 */
void cfsr_legacy_group_contrib(struct cfsr_legacy_avg *sa, const struct cfsr_legacy_cfs_rq *grq,
			       const struct cfsr_legacy_tg *tg);

/**
 * cfsr_legacy_tg_load_contrib() - push a cfs_rq's load to its group
 * @cfs_rq: the cfs_rq
 * @tg: its group
 * @force: push whatever the change
 *
 * Return: true if tg->load_avg changed.
 */
bool cfsr_legacy_tg_load_contrib(struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				 bool force);

/**
 * cfsr_legacy_update_blocked_load() - decay a cfs_rq's blocked load
 * @params: kernel behaviour
 * @cfs_rq: the cfs_rq
 * @tg: its group, or NULL for the root cfs_rq (no group to push to)
 * @clock_task: cfs_rq_clock_task() in ns
 * @force: push to the group whatever the change
 */
void cfsr_legacy_update_blocked_load(const struct cfsr_legacy_params *params,
				     struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				     uint64_t clock_task, bool force);

/**
 * cfsr_legacy_synchronize_decay() - age a sleeping entity's contribution
 * @params: kernel behaviour
 * @sa: the entity's averages (decay_count set when it went to sleep)
 * @cfs_rq: the cfs_rq it slept on
 *
 * Return: the number of decays applied.
 */
uint64_t cfsr_legacy_synchronize_decay(const struct cfsr_legacy_params *params,
				       struct cfsr_legacy_avg *sa,
				       const struct cfsr_legacy_cfs_rq *cfs_rq);

/**
 * cfsr_legacy_calc_cfs_shares() - a group entity's weight on one CPU
 * @tg_load_avg: tg->load_avg
 * @tg_load_contrib: this cfs_rq's tg_load_contrib
 * @load_weight: this cfs_rq's load.weight (10-bit resolution)
 * @tg_shares: tg->shares
 *
 * Return: tg->shares times this CPU's part of the group's load, in
 * [MIN_SHARES, tg->shares].
 */
uint64_t cfsr_legacy_calc_cfs_shares(int64_t tg_load_avg, uint64_t tg_load_contrib,
				     uint64_t load_weight, uint64_t tg_shares);

/**
 * cfsr_legacy_init_task() - averages of a new task
 * @params: kernel behaviour
 * @sa: the task's averages
 * @start_ns: the time the task starts as if runnable: sched_slice() of the
 *            task on its cfs_rq (v3.13-v4.0) or sysctl_sched_latency
 *            (v4.1-v4.2), in ns; ignored before v3.13
 * @weight: se->load.weight (10-bit resolution)
 */
void cfsr_legacy_init_task(const struct cfsr_legacy_params *params, struct cfsr_legacy_avg *sa,
			   uint64_t start_ns, uint64_t weight);

/**
 * cfsr_legacy_update_task_load_avg() - update a task entity
 * @params: kernel behaviour
 * @now: cfs_rq_clock_task() of its cfs_rq, ns
 * @sa: the task's averages
 * @weight: se->load.weight (10-bit resolution)
 * @on_rq: se->on_rq
 * @running: cfs_rq->curr == se
 * @scale_freq: arch_scale_freq_capacity() of the CPU (ignored where
 *              @params scale nothing)
 * @scale_cpu: arch_scale_cpu_capacity() of the CPU (likewise)
 * @cfs_rq: its cfs_rq
 * @update_cfs_rq: also move the cfs_rq's sums by the change
 *
 * Return: the change of load_avg_contrib (0 if no period was crossed).
 */
int64_t cfsr_legacy_update_task_load_avg(const struct cfsr_legacy_params *params, uint64_t now,
					 struct cfsr_legacy_avg *sa, uint64_t weight, bool on_rq,
					 bool running, uint32_t scale_freq, uint32_t scale_cpu,
					 struct cfsr_legacy_cfs_rq *cfs_rq, bool update_cfs_rq);

/**
 * cfsr_legacy_update_group_load_avg() - update a group entity
 * @params: kernel behaviour
 * @now: cfs_rq_clock_task() of the group's own cfs_rq, ns
 * @sa: the group entity's averages
 * @on_rq: se->on_rq
 * @running: cfs_rq->curr == se
 * @scale_freq: as for cfsr_legacy_update_task_load_avg()
 * @scale_cpu: as for cfsr_legacy_update_task_load_avg()
 * @grq: the cfs_rq it represents
 * @tg: its group
 * @cfs_rq: the cfs_rq it is queued on
 * @update_cfs_rq: also move @cfs_rq's sums by the change
 *
 * Return: the change of load_avg_contrib (0 if no period was crossed).
 */
int64_t cfsr_legacy_update_group_load_avg(const struct cfsr_legacy_params *params, uint64_t now,
					  struct cfsr_legacy_avg *sa, bool on_rq, bool running,
					  uint32_t scale_freq, uint32_t scale_cpu,
					  struct cfsr_legacy_cfs_rq *grq, struct cfsr_legacy_tg *tg,
					  struct cfsr_legacy_cfs_rq *cfs_rq, bool update_cfs_rq);

/**
 * cfsr_legacy_enqueue_task_load_avg() - a task joins a cfs_rq
 * @params: kernel behaviour
 * @cfs_rq: the cfs_rq
 * @tg: its group, or NULL for the root
 * @sa: the task's averages
 * @weight: se->load.weight
 * @rq_clock_task: rq_clock_task() (new and migrated tasks restart from it)
 * @now: cfs_rq_clock_task()
 * @wakeup: ENQUEUE_WAKEUP
 */
void cfsr_legacy_enqueue_task_load_avg(const struct cfsr_legacy_params *params,
				       struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				       struct cfsr_legacy_avg *sa, uint64_t weight,
				       uint64_t rq_clock_task, uint64_t now, bool wakeup);

/**
 * cfsr_legacy_dequeue_task_load_avg() - a task leaves a cfs_rq
 * @params: kernel behaviour
 * @cfs_rq: the cfs_rq
 * @tg: its group, or NULL for the root
 * @sa: the task's averages
 * @weight: se->load.weight
 * @running: cfs_rq->curr == se
 * @now: cfs_rq_clock_task()
 * @sleep: DEQUEUE_SLEEP
 */
void cfsr_legacy_dequeue_task_load_avg(const struct cfsr_legacy_params *params,
				       struct cfsr_legacy_cfs_rq *cfs_rq, struct cfsr_legacy_tg *tg,
				       struct cfsr_legacy_avg *sa, uint64_t weight, bool running,
				       uint64_t now, bool sleep);

/**
 * cfsr_legacy_migrate_task() - a sleeping task wakes on another CPU
 * @params: kernel behaviour
 * @sa: the task's averages
 * @cfs_rq: the cfs_rq it leaves
 */
void cfsr_legacy_migrate_task(const struct cfsr_legacy_params *params, struct cfsr_legacy_avg *sa,
			      struct cfsr_legacy_cfs_rq *cfs_rq);

/**
 * cfsr_legacy_update_rq_runnable_avg() - age the rq's own runnable average
 * @params: kernel behaviour
 * @clock_task: rq_clock_task() in ns
 * @rq_avg: rq->avg
 * @root: the root cfs_rq (rq->cfs)
 * @root_tg: the root task group
 * @runnable: the rq has runnable work (nr_running at enqueue; 1 at dequeue,
 *            tick and idle entry; 0 at idle exit)
 */
void cfsr_legacy_update_rq_runnable_avg(const struct cfsr_legacy_params *params,
					uint64_t clock_task, struct cfsr_legacy_avg *rq_avg,
					struct cfsr_legacy_cfs_rq *root,
					struct cfsr_legacy_tg *root_tg, bool runnable);

#endif /* CFSR_PELT_LEGACY_H */

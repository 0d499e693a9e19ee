/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PELT operations of a model, chosen by its profile's arithmetic.
 *
 * The replay engine updates signals at the points where the kernel does
 * (docs/KERNEL-PATHS.md): an entity's update, its cfs_rq's, attach,
 * detach, removal, a new task's initialisation.  It calls them through a
 * table of operations, one per kind of arithmetic (enum
 * cfsr_profile_arith), so that the v3.8-v4.2 and v4.3-v5.6 models plug in
 * at the same points as the v5.7+ one:
 *
 *  - v5.7-v6.18: lib/pelt.c, unchanged (the operations call it directly);
 *  - v4.3-v5.6: lib/pelt-v4.c, with the cfs_rq's runnable_load_avg kept
 *    beside its load_avg: entities add their load to it at enqueue and take
 *    it out at dequeue (enqueue_entity_load_avg(), v4.3-v4.14;
 *    enqueue_runnable_load_avg(), v4.15-v5.6);
 *  - v3.8-v4.2: lib/pelt-legacy.c, where a cfs_rq keeps no sums of its
 *    own: its runnable_load_avg holds its queued entities' load_avg_contrib,
 *    its blocked_load_avg those of the entities that went to sleep on it,
 *    decayed as a whole per 2^20 ns by update_cfs_rq_blocked_load() (the
 *    cfs_rq's update point), and a waking entity is aged by the decays it
 *    slept through (decay_count).
 *
 * The older models' state is struct cfsr_pelt_old inside struct
 * cfsr_sched_avg; each operation writes back into struct cfsr_sched_avg
 * the values the rest of the program reads (cfsr_pelt_signals() says which
 * of them the model has).  Enqueue and dequeue exist only for the older
 * models: since v5.7 a cfs_rq's signal follows its entities through its
 * load.weight and runnable count alone.
 *
 * Task groups: the older models have operations of their own for group
 * entities, called at the engine's group update points (an update of a
 * group entity, the publication of a group cfs_rq's load into
 * tg->load_avg, update_cfs_shares()/update_cfs_group(), the propagation
 * of a change below); the v5.7+ model leaves them NULL and the engine
 * calls lib/group.c and lib/pelt.c there directly:
 *  - v3.8-v4.2: a group entity's sums are a task's, but its load_avg_contrib
 *    is its cfs_rq's tg_load_contrib's part of tg->shares, corrected by
 *    tg->runnable_avg; tg->load_avg moves past 1/8 of the old contribution;
 *    calc_cfs_shares() on load.weight; no propagation;
 *  - v4.3-v5.6: a group entity is an entity weighted by its shares (its
 *    own runnable weight from v4.15); tg->load_avg moves past 1/64;
 *    calc_cfs_shares() (v4.3-v4.14) or calc_group_shares() and
 *    calc_group_runnable() (v4.15-v5.6); attach and detach propagated
 *    from v4.10.
 */
#ifndef CFSR_PELT_OPS_H
#define CFSR_PELT_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "pelt.h"
#include "profile.h"

/* The signals a model has (cfsr_pelt_signals()). */
enum cfsr_pelt_signal {
	/* runnable_sum/runnable_avg (v5.7+) */
	CFSR_SIG_RUNNABLE_AVG = 1 << 0,
	/* util_avg: utilization_avg_contrib in v4.1-v4.2, util_avg from v4.3 */
	CFSR_SIG_UTIL = 1 << 1,
	/* util_est (v4.17+; the whole v4.15-v5.6 profile has it, see PROFILES.md) */
	CFSR_SIG_UTIL_EST = 1 << 2,
	/* a cfs_rq's runnable_load_sum/avg (v4.3-v5.6) */
	CFSR_SIG_RUNNABLE_LOAD = 1 << 3,
	/* an entity's own runnable_load_sum/avg (v4.15-v5.6) */
	CFSR_SIG_SE_RUNNABLE_LOAD = 1 << 4,
	/* load_avg_contrib, runnable_avg_sum/period, the runnable/blocked split (v3.8-v4.2) */
	CFSR_SIG_LEGACY = 1 << 5,
};

/**
 * struct cfsr_pelt_tg - a task group on one CPU, as the group operations see it
 * @shares: tg->shares (scaled: 1048576 for the default cpu.shares 1024)
 * @load_avg: tg->load_avg as this CPU reads it
 * @runnable_avg: v3.8-v4.2: tg->runnable_avg (1024: one CPU's worth); the
 *                entity update may change it
 * @contrib: this CPU's published part of @load_avg (the group cfs_rq's
 *           tg_load_contrib, tg_load_avg_contrib from v4.3)
 */
struct cfsr_pelt_tg {
	uint64_t shares;
	int64_t load_avg;
	int64_t runnable_avg;
	uint64_t contrib;
};

/**
 * struct cfsr_pelt_scale - a CPU's scales at an update, for the contributions
 * @freq: arch_scale_freq_capacity() of the CPU at the update
 * @cpu: arch_scale_cpu_capacity() of the CPU
 *
 * Before v5.1 the kernel scaled the contributions inside the accumulation
 * (v4.1-v4.2: __update_entity_runnable_avg(); v4.3-v5.0:
 * __update_load_avg() and accumulate_sum()), by the CPU's scales as they
 * stood at the update.  From v5.1 the contributions are not scaled (the
 * PELT clock is: the replay engine's rq_clock_pelt()), and the engine gives
 * CFSR_PELT_SCALE_FULL; so do models that scale nothing (v3.8-v4.0, the
 * legacy parameters say so).
 */
struct cfsr_pelt_scale {
	uint32_t freq;
	uint32_t cpu;
};

#define CFSR_PELT_SCALE_FULL \
	((struct cfsr_pelt_scale){ SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE })

/**
 * struct cfsr_pelt_ops - a model's PELT operations
 * @update_se: update_load_avg() of an entity: age @sa to @now with its
 *             inputs, the contributions scaled by @sc (struct
 *             cfsr_pelt_scale; the older models only); @cfs, its cfs_rq's signal or NULL (a copy aged for a
 *             comparison), follows where the model moves the cfs_rq with
 *             the entity (legacy: runnable_load_avg by the change of
 *             load_avg_contrib; v4: the aging of a waking entity already
 *             counted in runnable_load_avg).  Returns 1 if the averages
 *             changed
 * @update_blocked_se: age an entity that is not queued (sync_entity_load_avg())
 * @update_cfs_rq: the cfs_rq's update: removed load, then aged to @now
 *                 with its inputs (update_cfs_rq_load_avg(); legacy:
 *                 update_cfs_rq_blocked_load()); *@prop is set to the
 *                 add_tg_cfs_propagate() value of the removals (0 but
 *                 for v5.7+).  Returns 1 if the averages changed
 * @attach: the entity joins @cfs at @now (attach_entity_load_avg();
 *          legacy: the "migrated" branch of enqueue_entity_load_avg());
 *          returns the add_tg_cfs_propagate() value
 * @detach: the entity leaves @cfs (detach_entity_load_avg(); older
 *          models take a queued entity out of the runnable load first);
 *          returns the add_tg_cfs_propagate() value
 * @remove: the entity leaves @cfs unseen (remove_entity_load_avg();
 *          legacy: migrate_task_rq_fair()), synced to @cfs first
 * @enqueue: older models: the entity's load joins @cfs's runnable load
 *           (NULL for v5.7+); nothing if it is already counted
 * @dequeue: older models: the entity's load leaves it, into the blocked
 *           load if @sleep (legacy) (NULL for v5.7+); nothing if not counted
 * @init_task: a new task's signal (init_entity_runnable_average() and
 *             post_init_entity_util_avg(); legacy:
 *             init_task_runnable_average() with @slice_ns, the task's
 *             sched_slice() or sysctl_sched_latency by release), on a
 *             CPU of capacity @cpu_scale (arch_scale_cpu_capacity())
 * @update_gse: older models: update_load_avg() (legacy:
 *              update_entity_load_avg()) of a group entity @se of weight
 *              @se_weight queued (@on_rq) on @cfs, representing @gcfs of
 *              group @tg; @cfs follows the change as for @update_se.
 *              Returns 1 if the averages changed
 * @publish_tg: older models: the group cfs_rq @gcfs publishes its load
 *              into tg->load_avg (@tg_load_avg) past the model's threshold
 *              (legacy: __update_cfs_rq_tg_load_contrib(); v4.3+:
 *              update_tg_load_avg()), @contrib being its last publication,
 *              or whatever the change with @force (legacy: the forced
 *              update_cfs_rq_blocked_load() of entity_tick() and of a
 *              dequeue that is not a sleep).  Returns true if it published
 * @group_shares: older models: the weight of the group entity of @gcfs
 *                (load.weight @gcfs_weight), scaled; *@runnable is set to
 *                its runnable weight (v4.15-v5.6; the weight otherwise)
 * @reweight_gse: older models: reweight_entity() of a group entity on @cfs
 *                from @old_weight to @weight (scaled) and @runnable
 * @propagate_gse: older models: propagate_entity_load_avg() of a pending
 *                 change of @gcfs into its group entity @se (weight
 *                 @se_weight) and @cfs;
 *                 @prop_runnable_sum is cleared.  Returns 0 where the
 *                 model does not propagate (before v4.10)
 */
struct cfsr_pelt_ops {
	int (*update_se)(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			 struct cfsr_sched_avg *sa, struct cfsr_sched_avg *cfs,
			 uint64_t load_weight, bool on_rq, uint64_t runnable, bool running);
	int (*update_blocked_se)(const struct cfsr_profile *p, uint64_t now,
				 struct cfsr_pelt_scale sc, struct cfsr_sched_avg *sa,
				 uint64_t load_weight);
	int (*update_cfs_rq)(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			     struct cfsr_sched_avg *cfs, struct cfsr_pelt_removed *removed,
			     uint64_t load_weight, uint64_t runnable, bool running, int64_t *prop);
	int64_t (*attach)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t load_weight, uint64_t now);
	int64_t (*detach)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t load_weight);
	void (*remove)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
		       struct cfsr_pelt_removed *removed, struct cfsr_sched_avg *se,
		       uint64_t load_weight);
	void (*enqueue)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			struct cfsr_sched_avg *se, uint64_t load_weight);
	void (*dequeue)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			struct cfsr_sched_avg *se, uint64_t load_weight, bool sleep);
	void (*init_task)(const struct cfsr_profile *p, struct cfsr_sched_avg *sa,
			  uint64_t load_weight, const struct cfsr_sched_avg *cfs, uint64_t slice_ns,
			  uint32_t cpu_scale);
	int (*update_gse)(const struct cfsr_profile *p, uint64_t now, struct cfsr_pelt_scale sc,
			  struct cfsr_sched_avg *se, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *gcfs, uint64_t se_weight, bool on_rq, bool running,
			  struct cfsr_pelt_tg *tg);
	bool (*publish_tg)(const struct cfsr_profile *p, struct cfsr_sched_avg *gcfs,
			   uint64_t *contrib, int64_t *tg_load_avg, bool force);
	uint64_t (*group_shares)(const struct cfsr_profile *p, const struct cfsr_pelt_tg *tg,
				 uint64_t gcfs_weight, const struct cfsr_sched_avg *gcfs,
				 uint64_t *runnable);
	void (*reweight_gse)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			     struct cfsr_sched_avg *se, uint64_t old_weight, uint64_t weight,
			     uint64_t runnable, bool on_rq);
	int (*propagate_gse)(const struct cfsr_profile *p, struct cfsr_sched_avg *cfs,
			     struct cfsr_sched_avg *se, uint64_t se_weight,
			     const struct cfsr_sched_avg *gcfs, uint64_t gcfs_weight,
			     const struct cfsr_pelt_tg *tg, int64_t *prop_runnable_sum);
};

/**
 * cfsr_pelt_ops_for() - the operations of a profile's arithmetic
 * @p: a profile
 *
 * Return: a static table.
 */
const struct cfsr_pelt_ops *cfsr_pelt_ops_for(const struct cfsr_profile *p);

/**
 * cfsr_pelt_signals() - the signals a profile's model has
 * @p: a profile
 *
 * Return: a mask of enum cfsr_pelt_signal.
 */
unsigned int cfsr_pelt_signals(const struct cfsr_profile *p);

/**
 * cfsr_pelt_util_est_params() - the util_est rules a profile follows
 * @p: a profile
 *
 * Return: @p->pelt for v5.7+; for the v4.15-v5.6 profile the v5.7-v5.12
 * layout and update (flag in the LSB of enqueued, no last_enqueued_diff
 * filter, the v4.17 rules); NULL for profiles without util_est.
 */
const struct cfsr_pelt_params *cfsr_pelt_util_est_params(const struct cfsr_profile *p);

#endif /* CFSR_PELT_OPS_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The load balancer's rule between two groups of CPUs, on values: what
 * lib/imbalance.c's windows between groups apply to the groups it builds
 * from the per-CPU load, kept apart so that its arithmetic can be checked
 * on hand-made statistics.
 */
#ifndef CFSR_IMBALANCE_LOCAL_H
#define CFSR_IMBALANCE_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "imbalance.h"

/*
 * enum group_type of kernel/sched/fair.c (v5.7-v6.18), the types modelled,
 * in its order: group_misfit_task, group_smt_balance (v6.6+),
 * group_asym_packing and group_imbalanced, between fully busy and
 * overloaded there, are not.
 */
enum cfsr_group_type {
	CFSR_GROUP_HAS_SPARE,
	CFSR_GROUP_FULLY_BUSY,
	CFSR_GROUP_OVERLOADED,
};

/**
 * struct cfsr_sg_stats - struct sg_lb_stats of one group, as far as modelled
 * @group_load: sum of its CPUs' cpu_load()
 * @group_util: sum of their cpu_util_cfs()
 * @group_runnable: sum of their cpu_runnable()
 * @group_capacity: sum of their capacities
 * @avg_load: group_load * SCHED_CAPACITY_SCALE / group_capacity, set (by
 *            cfsr_sg_finish()) for an overloaded group only, as
 *            update_sg_lb_stats() sets it; 0 otherwise
 * @sum_nr_running: fair tasks queued or running on its CPUs
 * @idle_cpus: its CPUs with no task
 * @group_weight: its CPUs
 * @cores: its cores (sched_group->cores, v6.6+: CPUs counted once per SMT
 *         sibling set)
 * @group_type: group_classify()'s
 */
struct cfsr_sg_stats {
	uint64_t group_load;
	uint64_t group_util;
	uint64_t group_runnable;
	uint64_t group_capacity;
	uint64_t avg_load;
	unsigned int sum_nr_running;
	unsigned int idle_cpus;
	unsigned int group_weight;
	unsigned int cores;
	enum cfsr_group_type group_type;
};

/**
 * struct cfsr_lb_env - what the rule reads of struct lb_env and the domain
 * @kver: the modelled release, CFSR_KVER() (0: the latest)
 * @idle: the balancing CPU is idle (CPU_IDLE or CPU_NEWLY_IDLE), not busy
 * @imbalance_pct: the domain's
 * @prefer_sibling: sds->prefer_sibling (cfsr_lb_prefer_sibling())
 * @share_llc: the domain has SD_SHARE_LLC (SD_SHARE_PKG_RESOURCES)
 */
struct cfsr_lb_env {
	int kver;
	bool idle;
	unsigned int imbalance_pct;
	bool prefer_sibling;
	bool share_llc;
};

/*
 * group_classify() with group_is_overloaded() and group_has_capacity(),
 * then update_sg_lb_stats()'s avg_load for an overloaded group: sets
 * @sgs->group_type and @sgs->avg_load.
 */
void cfsr_sg_finish(unsigned int imbalance_pct, struct cfsr_sg_stats *sgs);

/* update_sd_pick_busiest(): whether @sgs replaces @busiest (NULL: none yet). */
bool cfsr_sd_pick_busiest(const struct cfsr_sg_stats *sgs, const struct cfsr_sg_stats *busiest);

/* sibling_imbalance() of v6.6+, before the halving calculate_imbalance() makes. */
long cfsr_sibling_imbalance(const struct cfsr_lb_env *env, const struct cfsr_sg_stats *busiest,
			    const struct cfsr_sg_stats *local);

/**
 * cfsr_lb_imbalance() - the imbalance the balancer finds between two groups
 * @env: the balancing CPU's view
 * @busiest: the group update_sd_pick_busiest() took
 * @local: the balancing CPU's group
 * @sds_avg_load: the domain's total load * SCHED_CAPACITY_SCALE / its total capacity
 * @type: set to the migration type
 *
 * sched_balance_find_src_group() (find_busiest_group() before v6.10) from
 * the type comparison on, and calculate_imbalance(), for the modelled
 * group types.
 * Return: env->imbalance (0: balanced).
 */
uint64_t cfsr_lb_imbalance(const struct cfsr_lb_env *env, const struct cfsr_sg_stats *busiest,
			   const struct cfsr_sg_stats *local, uint64_t sds_avg_load,
			   enum cfsr_migration_type *type);

#endif /* CFSR_IMBALANCE_LOCAL_H */

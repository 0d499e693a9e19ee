/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Nice level to load weight, as the kernel's fair class sees it.
 *
 * A task's weight comes from two fixed kernel tables indexed by
 * static_prio - 100 (nice + 20): sched_prio_to_weight[] in user (10-bit)
 * resolution, and sched_prio_to_wmult[], roughly 2^32 / weight, used as
 * the task's inv_weight.  Both are the kernel's literal values: they are
 * not a single formula and must not be recomputed.  Internal weights, as
 * stored in se->load.weight of a 64-bit kernel since v4.7, are the table
 * values scaled up by SCHED_FIXEDPOINT_SHIFT.
 */
#ifndef CFSR_WEIGHT_H
#define CFSR_WEIGHT_H

#include <stdint.h>

#define CFSR_NICE_MIN (-20)
#define CFSR_NICE_MAX 19
#define CFSR_NICE_WIDTH 40
/* static_prio of nice 0, and the first fair static_prio (nice -20). */
#define CFSR_DEFAULT_PRIO 120
#define CFSR_MAX_RT_PRIO 100

/* SCHED_IDLE's policy number (include/uapi/linux/sched.h). */
#define CFSR_SCHED_IDLE 5
/* SCHED_IDLE tasks: user weight and its inverse (kernel/sched/sched.h). */
#define WEIGHT_IDLEPRIO 3
#define WMULT_IDLEPRIO 1431655765

/* Inverse-weight constants of __update_inv_weight() (kernel/sched/fair.c). */
#define WMULT_CONST (~0U)
#define WMULT_SHIFT 32

/* The kernel tables, index = nice + 20.  Literal values from kernel/sched/core.c. */
extern const int cfsr_sched_prio_to_weight[CFSR_NICE_WIDTH];
extern const uint32_t cfsr_sched_prio_to_wmult[CFSR_NICE_WIDTH];

/**
 * cfsr_nice_to_weight() - user weight of a nice level
 * @nice: -20..19
 *
 * Return: sched_prio_to_weight[@nice + 20] (1024 for nice 0), or 0 if
 * @nice is out of range.
 */
uint64_t cfsr_nice_to_weight(int nice);

/**
 * cfsr_nice_to_load_weight() - internal weight of a nice level
 * @nice: -20..19
 *
 * The value of se->load.weight on a 64-bit kernel (v4.7+), i.e.
 * scale_load(sched_prio_to_weight[@nice + 20]); NICE_0_LOAD for nice 0.
 *
 * Return: the scaled weight, or 0 if @nice is out of range.
 */
uint64_t cfsr_nice_to_load_weight(int nice);

/**
 * cfsr_nice_to_wmult() - inverse weight of a nice level
 * @nice: -20..19
 *
 * Return: sched_prio_to_wmult[@nice + 20], or 0 if @nice is out of range.
 */
uint32_t cfsr_nice_to_wmult(int nice);

/**
 * cfsr_prio_to_weight() - user weight of a fair static priority
 * @prio: static_prio, 100..139 (120 is nice 0)
 *
 * Return: the table weight, or 0 if @prio is not a fair priority.
 */
uint64_t cfsr_prio_to_weight(int prio);

/**
 * cfsr_prio_to_load_weight() - internal weight of a fair static priority
 * @prio: static_prio, 100..139
 *
 * Return: scale_load() of the table weight, or 0 if @prio is out of range.
 */
uint64_t cfsr_prio_to_load_weight(int prio);

/**
 * cfsr_prio_to_wmult() - inverse weight of a fair static priority
 * @prio: static_prio, 100..139
 *
 * Return: the table inverse, or 0 if @prio is out of range.
 */
uint32_t cfsr_prio_to_wmult(int prio);

/**
 * cfsr_idle_load_weight() - internal weight of a SCHED_IDLE task
 *
 * Return: scale_load(WEIGHT_IDLEPRIO), 3072 on a 64-bit kernel.
 */
uint64_t cfsr_idle_load_weight(void);

/**
 * cfsr_weight_inv() - inverse of a weight that did not come from the tables
 * @load_weight: internal weight (20-bit resolution), e.g. a cfs_rq's
 *               load.weight or a group entity's weight
 *
 * Mirrors __update_inv_weight() in kernel/sched/fair.c, v5.7-v6.18: the
 * kernel computes this lazily whenever inv_weight was reset to 0.  It is
 * not the table value: for nice 0 it gives 4194303, the table 4194304.
 *
 * Return: WMULT_CONST / scale_load_down(@load_weight); WMULT_CONST for a
 * zero weight; 1 for a weight whose scaled-down value reaches WMULT_CONST.
 */
uint32_t cfsr_weight_inv(uint64_t load_weight);

#endif /* CFSR_WEIGHT_H */

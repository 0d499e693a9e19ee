/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CFS vruntime rules and pick (v3.8-v6.5), as integer arithmetic on
 * plain values: the replay engine keeps the state (a task's vruntime, a
 * cfs_rq's min_vruntime), these functions say how it changes and which
 * entity the pick takes.
 *
 *  - update_curr(): vruntime += calc_delta_fair(delta_exec), the weight
 *    scaling of __calc_delta() (v3.13+) or calc_delta_mine() (v3.8-v3.12);
 *  - update_min_vruntime(): min_vruntime follows the smaller of curr and
 *    the leftmost queued entity, never backwards;
 *  - place_entity(): a new task starts one virtual slice after
 *    min_vruntime (START_DEBIT), a waking one at most half a latency
 *    before it (GENTLE_FAIR_SLEEPERS), never moved back;
 *  - pick_next_entity(): the leftmost, or a buddy (skip, next, last)
 *    within one wakeup granularity of it.
 *
 * Kernel times are those of the tunables after sched_update_scaling():
 * each normalized default times 1 + ilog2(min(CPUs, 8)).
 */
#ifndef CFSR_CFSPICK_H
#define CFSR_CFSPICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/**
 * struct cfsr_cfs_tunables - what the CFS rules read besides the entities
 * @latency: sysctl_sched_latency (ns, scaled)
 * @min_granularity: sysctl_sched_min_granularity (ns, scaled)
 * @wakeup_granularity: sysctl_sched_wakeup_granularity (ns, scaled)
 * @nr_latency: sched_nr_latency, latency / min_granularity rounded up
 * @alt_period: ALT_PERIOD and BASE_SLICE (v5.13-v6.5, stable 5.10.36+):
 *              sched_slice()
 *              counts the CPU's runnable tasks and is at least one
 *              min_granularity
 * @delta_mine: calc_delta_mine() with its rounding (v3.8-v3.12) rather
 *              than __calc_delta() (9dbdb1555323, v3.13)
 * @start_debit: START_DEBIT: a new task starts one vslice late
 * @gentle: GENTLE_FAIR_SLEEPERS: the sleeper credit is half a latency
 * @next_buddy: NEXT_BUDDY: every wakeup that is not a fork, with
 *              sched_nr_latency entities queued, marks the woken task
 * @last_buddy: LAST_BUDDY: a wakeup preemption with sched_nr_latency
 *              entities queued marks the preempted task
 * @wakeup_preemption: WAKEUP_PREEMPTION: a woken task may preempt (and
 *                     so become the next buddy)
 */
struct cfsr_cfs_tunables {
	uint64_t latency;
	uint64_t min_granularity;
	uint64_t wakeup_granularity;
	unsigned int nr_latency;
	bool alt_period;
	bool delta_mine;
	bool start_debit;
	bool gentle;
	bool next_buddy;
	bool last_buddy;
	bool wakeup_preemption;
};

/*
 * The CFS features the rules read, one list: features.h name, field of
 * struct cfsr_cfs_tunables.  A trace recorded on a CFS kernel gives its
 * own (cfsr_sched_feats_apply_cfs(), lib/schedfeat.h).
 */
#define CFSR_CFS_FEATS(X)                 \
	X("GENTLE_FAIR_SLEEPERS", gentle) \
	X("START_DEBIT", start_debit)     \
	X("NEXT_BUDDY", next_buddy)       \
	X("LAST_BUDDY", last_buddy)       \
	X("WAKEUP_PREEMPTION", wakeup_preemption)

/**
 * cfsr_cfs_tunables_init() - the defaults of a profile on a machine
 * @tu: set
 * @prof: the profile (its release range chooses the arithmetic)
 * @factor: sched_update_scaling()'s factor, 1 + ilog2(min(CPUs, 8))
 *
 * Mirrors the defaults of kernel/sched/fair.c, v3.8-v6.5: latency 6 ms,
 * min_granularity 0.75 ms, wakeup_granularity 1 ms (normalized), each
 * times @factor (SCHED_TUNABLESCALING_LOG); the features' defaults of
 * kernel/sched/features.h: START_DEBIT, GENTLE_FAIR_SLEEPERS, LAST_BUDDY
 * and WAKEUP_PREEMPTION on, NEXT_BUDDY off.
 */
void cfsr_cfs_tunables_init(struct cfsr_cfs_tunables *tu, const struct cfsr_profile *prof,
			    unsigned int factor);

/**
 * cfsr_cfs_tunables_take() - the traced kernel's own tunables
 * @tu: changed
 * @latency: sysctl_sched_latency as the kernel used it (scaled, ns), 0 to keep
 * @min_granularity: sysctl_sched_min_granularity, 0 to keep
 * @wakeup_granularity: sysctl_sched_wakeup_granularity, 0 to keep
 *
 * sched_nr_latency follows, as sched_proc_update_handler() keeps it.
 */
void cfsr_cfs_tunables_take(struct cfsr_cfs_tunables *tu, uint64_t latency,
			    uint64_t min_granularity, uint64_t wakeup_granularity);

/**
 * cfsr_cfs_calc_delta() - @delta * @weight / @lw_weight as the kernel computes it
 * @tu: chooses __calc_delta() or calc_delta_mine()
 * @delta: time (ns)
 * @weight: the numerator weight (internal, 20-bit resolution)
 * @lw_weight: the load_weight's weight (internal)
 * @lw_inv: its inv_weight, or 0 for the one __update_inv_weight() computes
 *          (WMULT_CONST / scale_load_down(@lw_weight))
 *
 * Return: the scaled time.
 */
uint64_t cfsr_cfs_calc_delta(const struct cfsr_cfs_tunables *tu, uint64_t delta, uint64_t weight,
			     uint64_t lw_weight, uint32_t lw_inv);

/**
 * cfsr_cfs_calc_delta_fair() - calc_delta_fair(): @delta at NICE_0_LOAD over the entity's weight
 * @tu: the arithmetic
 * @delta: time (ns)
 * @weight: se->load.weight (internal)
 * @inv: se->load.inv_weight (a task's from sched_prio_to_wmult[])
 *
 * Return: @delta itself for a nice-0 weight, else the scaled time.
 */
uint64_t cfsr_cfs_calc_delta_fair(const struct cfsr_cfs_tunables *tu, uint64_t delta,
				  uint64_t weight, uint32_t inv);

/**
 * cfsr_cfs_sched_slice() - sched_slice() of an entity about to be queued (!se->on_rq)
 * @tu: tunables
 * @nr_running: cfs_rq->nr_running, or the CPU's h_nr_running with ALT_PERIOD
 * @cfs_load: cfs_rq->load.weight, without the entity
 * @weight: the entity's weight
 *
 * One level: the task groups above it are not walked (a flat cfs_rq).
 * Return: the wall-clock slice (ns).
 */
uint64_t cfsr_cfs_sched_slice(const struct cfsr_cfs_tunables *tu, unsigned int nr_running,
			      uint64_t cfs_load, uint64_t weight);

/**
 * cfsr_cfs_place() - place_entity() of the CFS era
 * @tu: tunables
 * @min_vruntime: the cfs_rq's min_vruntime
 * @vruntime: the entity's vruntime now (absolute on this cfs_rq)
 * @initial: a new task (task_fork_fair()), else a waking one
 * @vslice: for @initial, sched_vslice() of the task on the cfs_rq
 *
 * Return: the vruntime it is placed at.
 */
uint64_t cfsr_cfs_place(const struct cfsr_cfs_tunables *tu, uint64_t min_vruntime,
			uint64_t vruntime, bool initial, uint64_t vslice);

/**
 * cfsr_cfs_min_vruntime() - update_min_vruntime()
 * @min_vruntime: cfs_rq->min_vruntime before
 * @curr: cfs_rq->curr is set and still queued
 * @curr_vruntime: its vruntime
 * @left: the tree holds an entity
 * @left_vruntime: the leftmost one's vruntime
 *
 * Return: the new min_vruntime.
 */
uint64_t cfsr_cfs_min_vruntime(uint64_t min_vruntime, bool curr, uint64_t curr_vruntime, bool left,
			       uint64_t left_vruntime);

/* An entity as a CFS pick sees it. */
struct cfsr_cfs_ent {
	int pid;
	uint64_t vruntime;
	/* se->load.weight (internal) and its inv_weight */
	uint64_t weight;
	uint32_t inv;
	/* cfs_rq->curr, still queued: not in the tree */
	bool curr;
};

/**
 * cfsr_cfs_wakeup_preempt() - wakeup_preempt_entity(@curr, @se)
 * @tu: tunables
 * @curr: the entity that would be preempted (or the buddy in a pick)
 * @se: the other (the woken one, or the leftmost in a pick)
 *
 * Return: -1 if @curr's vruntime is not after @se's, 1 if it is more than
 * wakeup_gran(@se) after it, else 0.
 */
int cfsr_cfs_wakeup_preempt(const struct cfsr_cfs_tunables *tu, const struct cfsr_cfs_ent *curr,
			    const struct cfsr_cfs_ent *se);

/**
 * cfsr_cfs_pick_next() - pick_next_entity() of the CFS era on one cfs_rq
 * @tu: tunables
 * @ents: the runnable entities; those in the tree in their order of
 *        insertion (equal vruntimes go to the one queued first), at most
 *        one @curr
 * @n: their number
 * @skip: index of cfs_rq->skip in @ents, or -1
 * @last: index of cfs_rq->last, or -1
 * @next: index of cfs_rq->next, or -1
 *
 * Return: the index picked, -1 when @n is 0.
 */
int cfsr_cfs_pick_next(const struct cfsr_cfs_tunables *tu, const struct cfsr_cfs_ent *ents,
		       size_t n, int skip, int last, int next);

/* Buddies a CPU's cfs_rq may hold, as far as a trace tells. */
#define CFSR_CFS_MAYBE 4

/**
 * struct cfsr_cfs_buddies - the tasks each buddy may point to
 * @next: tasks cfs_rq->next may be (besides none)
 * @last: tasks cfs_rq->last may be
 * @skip: tasks cfs_rq->skip may be
 * @nr_next: entries of @next, and so on
 * @unknown: more candidates than fit, or buddies set before the events
 *           began: any queued task may be a buddy
 * @unknown_may: with @unknown, whether a task may still be such a buddy
 *               (NULL: any task may), called with @unknown_data
 * @next_set: an entity certainly made cfs_rq->next (set_next_buddy() of a
 *            sleep), which only those in @next may have replaced since;
 *            0 none.  Entities are named by pid, or by any other nonzero
 *            key the caller gives its cfsr_cfs_ent (group entities)
 */
struct cfsr_cfs_buddies {
	int next_set;
	int next[CFSR_CFS_MAYBE];
	int last[CFSR_CFS_MAYBE];
	int skip[CFSR_CFS_MAYBE];
	unsigned int nr_next;
	unsigned int nr_last;
	unsigned int nr_skip;
	bool unknown;
	bool (*unknown_may)(const void *data, int pid);
	const void *unknown_data;
};

/* Add @pid to a list of possible buddies (@list is one of the three arrays, @nr its count). */
void cfsr_cfs_buddies_add(struct cfsr_cfs_buddies *b, int *list, unsigned int *nr, int pid);

/* @pid can no longer be any buddy (picked, dequeued). */
void cfsr_cfs_buddies_drop(struct cfsr_cfs_buddies *b, int pid);

/**
 * cfsr_cfs_pick_buddies() - the pick under every buddy state @b allows
 * @tu: tunables
 * @ents: as cfsr_cfs_pick_next()
 * @n: their number
 * @b: the possible buddies (NULL: none set)
 * @plain: set to the index picked with no buddy set
 *
 * Return: the index every allowed buddy state picks, -1 when @n is 0, or
 * -2 when the states pick different entities (the buddies decide).
 */
int cfsr_cfs_pick_buddies(const struct cfsr_cfs_tunables *tu, const struct cfsr_cfs_ent *ents,
			  size_t n, const struct cfsr_cfs_buddies *b, int *plain);

#endif /* CFSR_CFSPICK_H */

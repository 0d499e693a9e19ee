/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Group scheduling: task groups, their per-CPU entities and cfs_rqs, and
 * the group part of PELT.
 *
 * A task group (a cpu cgroup such as "/grpA/child", an autogroup
 * "/autogroup-N", or the root "/") owns, on every CPU, a cfs_rq (the
 * "grq") and, except for the root, a group scheduling entity queued on
 * the parent group's cfs_rq of the same CPU.  The weight of a group
 * entity is the group's shares split by the load each CPU carries
 * (calc_group_shares()), and that load is read from tg->load_avg, a sum
 * of per-CPU contributions published only when they drift by more than
 * 1/64 (update_tg_load_avg()).  When a task attaches to or leaves a group
 * cfs_rq, the jump in its sums is propagated up the hierarchy
 * (propagate_entity_load_avg()).
 *
 * This module mirrors those kernel paths of kernel/sched/fair.c, level by
 * level, in integers: the enqueue and dequeue walks with their h_nr_*
 * counts, ticks, pick/put, wakeup-migration removal, cgroup moves, group
 * creation and removal, share and idle changes, and the blocked-load walk
 * of the periodic balance.  The caller, the replay engine, decides when
 * each happens and supplies the clocks; task entities stay the caller's
 * (struct cfsr_group_task), and their PELT arithmetic is lib/pelt.c's.
 * Behaviour that changed between releases is chosen through a const
 * struct cfsr_group_params.
 *
 * Memory grows with the number of groups times the number of CPUs.
 */
#ifndef CFSR_GROUP_H
#define CFSR_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "pelt.h"

/* Group weight bounds in user (10-bit) units (kernel/sched/sched.h). */
#define MIN_SHARES 2
#define MAX_SHARES (1UL << 18)

/* cgroup v2 cpu.weight range and default (include/linux/cgroup.h). */
#define CGROUP_WEIGHT_MIN 1
#define CGROUP_WEIGHT_DFL 100
#define CGROUP_WEIGHT_MAX 10000

/* update_tg_load_avg() publishes at most once per ms of sched_clock (v6.7+). */
#define CFSR_TG_LOAD_RATELIMIT_NS 1000000

/**
 * struct cfsr_group_params - group-scheduling behaviour of a range of releases
 * @name: the release range, for output headers
 * @tg_load_ratelimit: update_tg_load_avg() publishes at most once per
 *                     1 ms of sched_clock_cpu() per cfs_rq (1528c661c24b,
 *                     v6.7); before, on every call past the threshold
 * @keep_empty_weight: update_cfs_group() leaves the weight of a group
 *                     entity whose cfs_rq is empty as it is (v6.12, with
 *                     DELAY_DEQUEUE); before, an empty group was reweighted
 *                     (to MIN_SHARES once its load decayed)
 * @runnable_h_nr_runnable: the runnable input of a cfs_rq and the
 *                          runnable_weight of a group entity count
 *                          runnable tasks only: h_nr_runnable (v6.14),
 *                          h_nr_running - h_nr_delayed (v6.13, stable
 *                          6.12.7+), the same number; v6.12.0-v6.12.6
 *                          count every queued task (h_nr_running),
 *                          delayed ones included
 * @decayed_needs_no_contrib: cfs_rq_is_decayed() also requires
 *                            tg_load_avg_contrib == 0, so a cfs_rq stays
 *                            on the leaf list until its contribution is
 *                            withdrawn (ca125231dd29: stable 6.17.y and
 *                            6.18.y from December 2025)
 * @reweight_unchanged: update_cfs_group() calls reweight_entity() even
 *                      when calc_group_shares() gives the entity's current
 *                      weight, which recomputes its load_avg from its
 *                      load_sum (before eab03c23c2a1, v6.7 and stable
 *                      6.6.4)
 * @reweight_eevdf: reweight_entity() moves a queued entity by
 *                  reweight_eevdf(), its lag and deadline against V scaled
 *                  by old/new weight (eab03c23c2a1, v6.7 and stable 6.6.4);
 *                  before, only its deadline relative to its vruntime
 *
 * Every table also assumes what v4.15+ kernels share: calc_group_shares()
 * with tg_weight = tg->load_avg - contrib + max(load.weight, load_avg),
 * MIN_SHARES unscaled; the 1/64 threshold; propagation by
 * prop_runnable_sum.  The PELT arithmetic proper is chosen separately
 * (struct cfsr_pelt_params).
 */
struct cfsr_group_params {
	const char *name;
	bool tg_load_ratelimit;
	bool keep_empty_weight;
	bool runnable_h_nr_runnable;
	bool decayed_needs_no_contrib;
	bool reweight_unchanged;
	bool reweight_eevdf;
};

/* v6.18.2+ (stable kernels carrying ca125231dd29). */
extern const struct cfsr_group_params cfsr_group_params_modern;
/* v6.12.7-v6.18.1. */
extern const struct cfsr_group_params cfsr_group_params_v6_13;
/* v6.12.0-v6.12.6. */
extern const struct cfsr_group_params cfsr_group_params_v6_12;
/* v6.7-v6.11. */
extern const struct cfsr_group_params cfsr_group_params_v6_7;
/* Stable 6.6.4-6.6.y: v6.6 with eab03c23c2a1. */
extern const struct cfsr_group_params cfsr_group_params_v6_6_4;
/* v5.7-v6.6.3. */
extern const struct cfsr_group_params cfsr_group_params_v6_6;

/**
 * cfsr_group_params_for() - the group behaviour of a kernel release
 * @version: CFSR_KVER(major, minor, sublevel) (cfsr_profile_version())
 *
 * The first sublevels carrying the stable backports are from the stable
 * review series, not checked against each release: 6.12.7 (h_nr_delayed)
 * and 6.18.2 (ca125231dd29).
 *
 * Return: a static table, or NULL before v5.7 (not modelled).
 */
const struct cfsr_group_params *cfsr_group_params_for(int version);

struct cfsr_task_group;

/**
 * struct cfsr_group_rq - one task group on one CPU
 * @avg: the group cfs_rq's PELT signal (grq->avg)
 * @removed: its queue of removed contributions
 * @load_weight: grq->load.weight, the sum of its queued entities' weights
 * @nr_queued: entities queued on it directly
 * @h_nr_queued: tasks queued at or below it (delayed ones included)
 * @h_nr_runnable: of those, the runnable ones (not delayed)
 * @curr: identity of the entity running on it (a struct cfsr_group_task
 *        or the struct cfsr_group_rq of a child group), NULL if none
 * @tg_load_avg_contrib: the load_avg last published into tg->load_avg
 * @last_update_tg_load_avg: sched_clock of that publication (v6.7+)
 * @propagate: a change below waits to be propagated to the group entity
 * @prop_runnable_sum: the unweighted load_sum change to propagate
 * @on_list: on the CPU's leaf list, i.e. visited by the blocked-load walk
 * @se_avg: the group entity's PELT signal (unused for the root)
 * @se_weight: the group entity's se->load.weight (scaled)
 * @se_runnable_weight: se->runnable_weight, refreshed by se_update_runnable()
 * @se_on_rq: the group entity is queued on the parent's cfs_rq
 *
 * Mirrors the parts of struct cfs_rq and struct sched_entity that PELT
 * and the group weights read, v6.12-v6.18.
 */
struct cfsr_group_rq {
	struct cfsr_sched_avg avg;
	struct cfsr_pelt_removed removed;
	uint64_t load_weight;
	unsigned int nr_queued;
	unsigned int h_nr_queued;
	unsigned int h_nr_runnable;
	const void *curr;
	uint64_t tg_load_avg_contrib;
	uint64_t last_update_tg_load_avg;
	bool propagate;
	int64_t prop_runnable_sum;
	bool on_list;

	struct cfsr_sched_avg se_avg;
	uint64_t se_weight;
	uint64_t se_runnable_weight;
	bool se_on_rq;
};

/**
 * struct cfsr_task_group - a task group
 * @path: "/" for the root, "/a/b" for a cgroup, "/autogroup-N"
 * @parent: the parent group; NULL for the root
 * @depth: 0 for the root, 1 for its children, ...
 * @shares: tg->shares, scaled (NICE_0_LOAD = 1048576 by default)
 * @load_avg: tg->load_avg, the sum of the published contributions
 * @idle: cpu.idle is set
 * @autogroup: an autogroup (always a child of the root)
 * @nr_children: groups whose parent this is
 * @nr_tasks: tasks the caller placed in it (struct cfsr_group_task.tg)
 * @rq: one struct cfsr_group_rq per CPU
 */
struct cfsr_task_group {
	char *path;
	struct cfsr_task_group *parent;
	int depth;
	uint64_t shares;
	int64_t load_avg;
	bool idle;
	bool autogroup;
	unsigned int nr_children;
	unsigned int nr_tasks;
	struct cfsr_group_rq *rq;
};

/**
 * struct cfsr_group_task - what the group model needs of a task entity
 * @avg: the task's PELT signal; last_update_time 0 means "to be attached"
 * @weight: se->load.weight (scaled)
 * @tg: the group whose cfs_rq the task is on (on @cpu)
 * @cpu: the task's CPU
 * @on_rq: queued
 * @delayed: a delayed dequeue: queued but not runnable (v6.12+)
 *
 * Owned by the caller, who must not change @tg, @cpu, @on_rq or @delayed
 * itself while the task is attached; the functions below do.
 */
struct cfsr_group_task {
	struct cfsr_sched_avg avg;
	uint64_t weight;
	struct cfsr_task_group *tg;
	int cpu;
	bool on_rq;
	bool delayed;
};

/**
 * struct cfsr_group_time - the clocks of one CPU at an update
 * @pelt: the cfs_rq PELT clock (rq_clock_pelt() - lost_idle_time), ns
 * @sched_clock: sched_clock_cpu(), ns, for the tg->load_avg rate limit
 */
struct cfsr_group_time {
	uint64_t pelt;
	uint64_t sched_clock;
};

/**
 * struct cfsr_group_model - the task-group tree of a machine
 * @params: group behaviour
 * @pelt: PELT arithmetic
 * @nr_cpus: CPUs, fixed at creation
 * @groups: the groups, the root first
 * @nr_groups: number of groups
 * @alloc_groups: capacity of @groups
 */
struct cfsr_group_model {
	const struct cfsr_group_params *params;
	const struct cfsr_pelt_params *pelt;
	int nr_cpus;
	struct cfsr_task_group **groups;
	size_t nr_groups;
	size_t alloc_groups;
};

/* ---- arithmetic on values ------------------------------------------------------------------- */

/**
 * cfsr_group_calc_shares() - the weight of a group entity on one CPU
 * @pelt: PELT behaviour (for scale_load_down())
 * @tg_shares: tg->shares, scaled
 * @grq_load_weight: the group cfs_rq's load.weight on that CPU
 * @grq_load_avg: its avg.load_avg
 * @tg_load_avg: tg->load_avg
 * @tg_load_avg_contrib: the cfs_rq's published contribution
 *
 * Mirrors calc_group_shares() in kernel/sched/fair.c, v4.15-v6.18.
 *
 * Return: tg_shares * load / (tg_load_avg - contrib + load), load =
 * max(scale_load_down(@grq_load_weight), @grq_load_avg), clamped to
 * [MIN_SHARES, @tg_shares] (the floor unscaled).
 */
uint64_t cfsr_group_calc_shares(const struct cfsr_pelt_params *pelt, uint64_t tg_shares,
				uint64_t grq_load_weight, uint64_t grq_load_avg,
				int64_t tg_load_avg, uint64_t tg_load_avg_contrib);

/**
 * cfsr_group_publish_load() - publish a cfs_rq's load into tg->load_avg
 * @params: group behaviour
 * @tg_load_avg: tg->load_avg, updated
 * @contrib: the cfs_rq's tg_load_avg_contrib, updated
 * @last_update: its last_update_tg_load_avg, updated
 * @load_avg: the cfs_rq's avg.load_avg
 * @sched_now: sched_clock_cpu() of its CPU
 *
 * Mirrors the body of update_tg_load_avg() in kernel/sched/fair.c after
 * its root and CPU-active checks, v6.7-v6.18 (v4.15-v6.6 without the rate
 * limit).
 *
 * Return: true if the contribution was published.
 */
bool cfsr_group_publish_load(const struct cfsr_group_params *params, int64_t *tg_load_avg,
			     uint64_t *contrib, uint64_t *last_update, uint64_t load_avg,
			     uint64_t sched_now);

/**
 * cfsr_group_propagate() - carry a group cfs_rq's change to its entity
 * @pelt: PELT behaviour
 * @cfs: the parent cfs_rq's signal (the entity is queued there), aged
 * @se: the group entity's signal
 * @se_load_weight: the group entity's se->load.weight
 * @gcfs: the group cfs_rq's signal
 * @gcfs_load_weight: the group cfs_rq's load.weight
 * @prop_runnable_sum: the group cfs_rq's prop_runnable_sum; consumed
 *
 * Mirrors update_tg_cfs_util(), update_tg_cfs_runnable() and
 * update_tg_cfs_load() in kernel/sched/fair.c, v5.7-v6.18 (the v5.7-v5.16
 * arithmetic by @pelt), in the order propagate_entity_load_avg() calls
 * them.  The caller forwards
 * @prop_runnable_sum to the parent first, as the kernel does.
 */
void cfsr_group_propagate(const struct cfsr_pelt_params *pelt, struct cfsr_sched_avg *cfs,
			  struct cfsr_sched_avg *se, uint64_t se_load_weight,
			  const struct cfsr_sched_avg *gcfs, uint64_t gcfs_load_weight,
			  int64_t *prop_runnable_sum);

/**
 * cfsr_group_shares_from_v1() - tg->shares for a cgroup v1 cpu.shares
 * @cpu_shares: the value written
 *
 * Mirrors cpu_shares_write_u64() and the clamp of __sched_group_set_shares()
 * in kernel/sched/core.c and fair.c, v4.7-v6.18.
 *
 * Return: scale_load(@cpu_shares) clamped to [scale_load(MIN_SHARES),
 * scale_load(MAX_SHARES)].
 */
uint64_t cfsr_group_shares_from_v1(uint64_t cpu_shares);

/**
 * cfsr_group_shares_from_v2() - tg->shares for a cgroup v2 cpu.weight
 * @cpu_weight: the value written, 1..10000
 * @shares: set to the scaled shares
 *
 * Mirrors cpu_weight_write_u64() with sched_weight_from_cgroup(), v4.15-v6.18
 * (the conversion was factored out unchanged in v6.12).
 *
 * Return: 0, or -1 (reported) for a weight the kernel refuses with ERANGE.
 */
int cfsr_group_shares_from_v2(uint64_t cpu_weight, uint64_t *shares);

/**
 * cfsr_group_autogroup_shares() - tg->shares of an autogroup
 * @nice: the autogroup's nice value, -20..19
 *
 * Mirrors proc_sched_autogroup_set_nice() in kernel/sched/autogroup.c,
 * v4.7-v6.18.
 *
 * Return: scale_load(sched_prio_to_weight[@nice + 20]), or 0 for a nice
 * value out of range.
 */
uint64_t cfsr_group_autogroup_shares(int nice);

/* ---- the tree -------------------------------------------------------------------------------- */

/**
 * cfsr_group_model_new() - a machine with only the root group
 * @params: group behaviour
 * @pelt: PELT arithmetic
 * @nr_cpus: number of CPUs, 1..4096
 *
 * Return: an owned model (release with cfsr_group_model_free()), or NULL
 * (reported).
 */
struct cfsr_group_model *cfsr_group_model_new(const struct cfsr_group_params *params,
					      const struct cfsr_pelt_params *pelt, int nr_cpus);

/**
 * cfsr_group_model_free() - release a model and all its groups
 * @m: the model, or NULL
 */
void cfsr_group_model_free(struct cfsr_group_model *m);

/**
 * cfsr_group_root() - the root group
 * @m: the model
 *
 * Return: the root; borrowed, valid until cfsr_group_model_free().
 */
struct cfsr_task_group *cfsr_group_root(const struct cfsr_group_model *m);

/**
 * cfsr_group_find() - a group by path
 * @m: the model
 * @path: "/", "/a/b" or "/autogroup-N"; a trailing "/" is ignored
 *
 * Return: the group (borrowed, valid until it is removed), or NULL.
 */
struct cfsr_task_group *cfsr_group_find(const struct cfsr_group_model *m, const char *path);

/**
 * cfsr_group_mkdir() - create a group and bring it online
 * @m: the model
 * @path: the new group's path; its parent must exist
 * @times: per-CPU clocks of the creation (@m->nr_cpus entries), or NULL
 *         for a group that exists when the replay starts: its entities
 *         take the parent cfs_rq's window with all-zero signals, no
 *         arithmetic; one whose parent's last_update_time is still 0 is
 *         attached by its first update, as an unattached entity is
 *
 * Mirrors sched_create_group() and online_fair_sched_group() (with
 * attach_entity_cfs_rq() per CPU) in kernel/sched/core.c and fair.c,
 * v6.12-v6.18: shares NICE_0_LOAD, group entities of weight NICE_0_LOAD
 * and zero signal attached to the parent cfs_rq of every CPU.
 *
 * Return: the group (borrowed), or NULL (reported: bad path, parent
 * missing, path taken, out of memory).
 */
struct cfsr_task_group *cfsr_group_mkdir(struct cfsr_group_model *m, const char *path,
					 const struct cfsr_group_time *times);

/**
 * cfsr_group_autogroup() - create an autogroup
 * @m: the model
 * @id: the autogroup's id (the N of "/autogroup-N")
 * @nice: its nice value (shares from the nice table)
 * @times: as for cfsr_group_mkdir()
 *
 * Mirrors autogroup_create() and proc_sched_autogroup_set_nice() in
 * kernel/sched/autogroup.c, v4.7-v6.18: a child of the root.
 *
 * Return: the group (borrowed), or NULL (reported).
 */
struct cfsr_task_group *cfsr_group_autogroup(struct cfsr_group_model *m, uint64_t id, int nice,
					     const struct cfsr_group_time *times);

/**
 * cfsr_group_rmdir() - remove an empty group
 * @m: the model
 * @tg: the group: not the root, no children, no tasks
 *
 * Mirrors unregister_fair_sched_group() in kernel/sched/fair.c,
 * v6.12-v6.18: each CPU's group entity is queued for removal from the
 * parent cfs_rq (remove_entity_load_avg(), applied at the parent's next
 * update).  @tg is freed.
 *
 * Return: 0, or -1 (reported) if @tg cannot be removed.
 */
int cfsr_group_rmdir(struct cfsr_group_model *m, struct cfsr_task_group *tg);

/**
 * cfsr_group_set_shares() - write cpu.shares / cpu.weight / autogroup nice
 * @m: the model
 * @tg: the group, not the root
 * @shares: scaled shares (see cfsr_group_shares_from_v1() etc.)
 * @times: per-CPU clocks of the write (@m->nr_cpus entries)
 *
 * Mirrors sched_group_set_shares() and __sched_group_set_shares() in
 * kernel/sched/fair.c, v5.15-v6.18: clamped to [scale_load(MIN_SHARES),
 * scale_load(MAX_SHARES)]; then on every CPU, for the group entity and
 * each ancestor: update_load_avg(UPDATE_TG) and update_cfs_group().
 *
 * Return: 0, or -1 (reported) for the root or an idle group (EINVAL).
 */
int cfsr_group_set_shares(struct cfsr_group_model *m, struct cfsr_task_group *tg, uint64_t shares,
			  const struct cfsr_group_time *times);

/**
 * cfsr_group_set_idle() - write cpu.idle
 * @m: the model
 * @tg: the group, not the root
 * @idle: the new value
 * @times: per-CPU clocks of the write
 *
 * Mirrors sched_group_set_idle() in kernel/sched/fair.c, v5.15-v6.18: an
 * idle group gets shares scale_load(WEIGHT_IDLEPRIO); clearing the flag
 * restores NICE_0_LOAD, not the shares written before.  (h_nr_idle is not
 * modelled: it steers wakeup placement, not PELT.)
 *
 * Return: 0, or -1 (reported) for the root.
 */
int cfsr_group_set_idle(struct cfsr_group_model *m, struct cfsr_task_group *tg, bool idle,
			const struct cfsr_group_time *times);

/**
 * cfsr_group_apply_event() - follow a cgroup event of the cpu hierarchy
 * @m: the model
 * @ev: a CFSR_EV_CGROUP_MKDIR, _RMDIR or _ATTACH event; others are ignored
 * @cpu_hierarchy: hierarchy id of the cpu controller (v1), or -1 to accept
 *                 every hierarchy (v2)
 * @times: per-CPU clocks at the event
 * @attach_to: for an attach event of the cpu hierarchy, set to the
 *             destination group (created, with its missing ancestors, if
 *             unknown); the caller then moves the task with
 *             cfsr_group_move_task(); NULL otherwise
 *
 * Groups that existed before the trace and appear first in an event are
 * created as by cfsr_group_mkdir(@times = NULL).
 *
 * Return: 0, or -1 (reported) on a bad path or an impossible removal.
 */
int cfsr_group_apply_event(struct cfsr_group_model *m, const struct cfsr_event *ev,
			   int cpu_hierarchy, const struct cfsr_group_time *times,
			   struct cfsr_task_group **attach_to);

/* ---- task paths --------------------------------------------------------------------------------- */

/* Flags of cfsr_group_enqueue_task() and cfsr_group_dequeue_task(). */
enum {
	/* The task changes CPU (load balance, affinity): detach on dequeue. */
	CFSR_GROUP_MIGRATE = 1 << 0,
};

/**
 * cfsr_group_task_init() - a task entity that is not attached yet
 * @task: the task
 * @tg: its group
 * @cpu: its CPU
 * @weight: its se->load.weight
 *
 * The signal is all zero; the caller fills it (init_entity_runnable_average(),
 * post_init_entity_util_avg(), lib/pelt.c) before the first enqueue,
 * which attaches it.  Counts the task in @tg.
 */
void cfsr_group_task_init(struct cfsr_group_task *task, struct cfsr_task_group *tg, int cpu,
			  uint64_t weight);

/**
 * cfsr_group_task_release() - forget a task (after its removal)
 * @task: the task, not queued
 */
void cfsr_group_task_release(struct cfsr_group_task *task);

/**
 * cfsr_group_enqueue_task() - enqueue a task and walk up its hierarchy
 * @m: the model
 * @task: the task, not queued
 * @t: clocks of @task->cpu
 * @flags: 0 (a migrated task arrives with last_update_time 0 and is
 *         attached whatever the flags)
 *
 * Mirrors enqueue_task_fair() in kernel/sched/fair.c, v6.12-v6.18, without
 * its delayed-requeue branch: bottom-up, each level not queued gets
 * enqueue_entity() (update_load_avg(UPDATE_TG|DO_ATTACH),
 * se_update_runnable(), update_cfs_group(), account_entity_enqueue()); the
 * first level already queued and all above get update_load_avg(UPDATE_TG),
 * se_update_runnable(), update_cfs_group(); every level counts the task in
 * h_nr_queued and h_nr_runnable.
 *
 * Return: 0, or -1 (reported) if @task is queued already.
 */
int cfsr_group_enqueue_task(struct cfsr_group_model *m, struct cfsr_group_task *task,
			    const struct cfsr_group_time *t, unsigned int flags);

/**
 * cfsr_group_dequeue_task() - dequeue a task and walk up its hierarchy
 * @m: the model
 * @task: the task, queued and not delayed
 * @t: clocks of @task->cpu
 * @flags: CFSR_GROUP_MIGRATE to detach the task (it leaves the CPU;
 *         last_update_time becomes 0, as set_task_cpu() leaves it)
 *
 * Mirrors dequeue_entities() in kernel/sched/fair.c, v6.12-v6.18, for a
 * dequeue that completes: bottom-up dequeue_entity() (update_load_avg()
 * with UPDATE_TG, DO_DETACH for a migrating task; se_update_runnable();
 * account_entity_dequeue(); update_cfs_group()) while the cfs_rq left
 * behind is empty; above it update_load_avg(UPDATE_TG),
 * se_update_runnable(), update_cfs_group().  A task that the kernel would
 * delay instead is the caller's business (cfsr_group_task_set_delayed()).
 *
 * Return: 0, or -1 (reported) if @task is not queued.
 */
int cfsr_group_dequeue_task(struct cfsr_group_model *m, struct cfsr_group_task *task,
			    const struct cfsr_group_time *t, unsigned int flags);

/**
 * cfsr_group_task_set_delayed() - a queued task becomes or stops being delayed
 * @m: the model
 * @task: the task, queued
 * @t: clocks of @task->cpu
 * @delayed: true for set_delayed(), false for clear_delayed()
 *
 * Mirrors the DELAY_DEQUEUE branch of dequeue_entity() (update_load_avg()
 * of the task level with flags 0, then set_delayed()) and
 * requeue_delayed_entity() (update_load_avg(0), clear_delayed()),
 * v6.12-v6.18: only the task's cfs_rq is updated; h_nr_runnable changes at
 * every level.  The pending dequeue of a delayed task completes with
 * cfsr_group_dequeue_task().
 *
 * Return: 0, or -1 (reported) if @task is not queued or already so.
 */
int cfsr_group_task_set_delayed(struct cfsr_group_model *m, struct cfsr_group_task *task,
				const struct cfsr_group_time *t, bool delayed);

/**
 * cfsr_group_set_next() - a task starts running
 * @m: the model
 * @task: the task, queued
 * @t: clocks of @task->cpu
 * @upto: first group whose cfs_rq already has the right entity running
 *        (the lowest group common with the previous task), or NULL to set
 *        every level up to the root
 *
 * Mirrors set_next_entity() per level, bottom-up, in kernel/sched/fair.c,
 * v6.12-v6.18: update_load_avg(UPDATE_TG) of a queued entity before it
 * becomes cfs_rq->curr.
 */
void cfsr_group_set_next(struct cfsr_group_model *m, struct cfsr_group_task *task,
			 const struct cfsr_group_time *t, const struct cfsr_task_group *upto);

/**
 * cfsr_group_put_prev() - a task stops running
 * @m: the model
 * @task: the task
 * @t: clocks of @task->cpu
 * @upto: as for cfsr_group_set_next()
 *
 * Mirrors put_prev_entity() per level, bottom-up, v6.12-v6.18: an entity
 * still queued gets update_load_avg(0) with running 1; cfs_rq->curr
 * becomes NULL.
 */
void cfsr_group_put_prev(struct cfsr_group_model *m, struct cfsr_group_task *task,
			 const struct cfsr_group_time *t, const struct cfsr_task_group *upto);

/**
 * cfsr_group_tick() - the scheduler tick of a running task
 * @m: the model
 * @task: the running task
 * @t: clocks of @task->cpu
 *
 * Mirrors task_tick_fair() -> entity_tick() per level in
 * kernel/sched/fair.c, v6.12-v6.18: update_load_avg(UPDATE_TG) and
 * update_cfs_group().
 */
void cfsr_group_tick(struct cfsr_group_model *m, struct cfsr_group_task *task,
		     const struct cfsr_group_time *t);

/**
 * cfsr_group_remove_task() - a sleeping task leaves its cfs_rq unseen
 * @m: the model
 * @task: the task, not queued
 * @migrate: the task changes CPU (wakeup migration): last_update_time
 *           becomes 0 so that the next enqueue attaches it; false for an
 *           exit (task_dead_fair())
 *
 * Mirrors remove_entity_load_avg() (sync_entity_load_avg() to the
 * cfs_rq's last_update_time, then the removed.* queue) in
 * kernel/sched/fair.c, v5.7-v6.18.  The caller then sets @task->cpu.
 */
void cfsr_group_remove_task(struct cfsr_group_model *m, struct cfsr_group_task *task, bool migrate);

/**
 * cfsr_group_move_task() - a task changes group (cgroup attach, autogroup)
 * @m: the model
 * @task: the task
 * @to: the destination group
 * @t: clocks of @task->cpu
 * @running: the task is current on its CPU
 *
 * Mirrors sched_move_task() with task_change_group_fair() in
 * kernel/sched/core.c and fair.c, v6.12-v6.18: dequeue (without detach)
 * and put if queued or running; detach_entity_cfs_rq() from the old
 * cfs_rq (update_load_avg(0), detach, update_tg_load_avg(), propagation up
 * the old branch), last_update_time = 0, attach_entity_cfs_rq() to the
 * new one (not aged; attach, update_tg_load_avg(), propagation up the new
 * branch); enqueue and set_next as before.  A task that was never
 * attached (last_update_time 0) just changes group.
 *
 * Return: 0, or -1 (reported) for a delayed task (the kernel completes
 * the dequeue first: the caller does that).
 */
int cfsr_group_move_task(struct cfsr_group_model *m, struct cfsr_group_task *task,
			 struct cfsr_task_group *to, const struct cfsr_group_time *t, bool running);

/**
 * cfsr_group_update_blocked() - the blocked-load walk of one CPU
 * @m: the model
 * @cpu: the CPU
 * @t: its clocks
 *
 * Mirrors __update_blocked_fair() in kernel/sched/fair.c, v6.12-v6.18
 * (called by sched_balance_update_blocked_averages() from the periodic,
 * newidle and nohz idle balance): over the cfs_rqs on the leaf list,
 * children before parents: update_cfs_rq_load_avg() and, if it changed,
 * update_tg_load_avg(); then the group entity, unless
 * skip_blocked_update(), gets update_load_avg(UPDATE_TG) on its parent;
 * a cfs_rq that cfs_rq_is_decayed() leaves the list.
 *
 * Return: true if blocked load remains (the kernel's !done).
 */
bool cfsr_group_update_blocked(struct cfsr_group_model *m, int cpu,
			       const struct cfsr_group_time *t);

/**
 * cfsr_group_rq_of() - a group's state on one CPU
 * @tg: the group
 * @cpu: the CPU, 0..nr_cpus-1 (not checked)
 *
 * Return: the per-CPU state, borrowed while @tg exists.
 */
static inline const struct cfsr_group_rq *cfsr_group_rq_of(const struct cfsr_task_group *tg,
							   int cpu)
{
	return &tg->rq[cpu];
}

#endif /* CFSR_GROUP_H */

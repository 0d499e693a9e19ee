/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay engine: scheduler events in, per-task PELT state out.
 *
 * Each CPU has a run queue with its current task and a model of its PELT
 * clock (rq clock_task); each task has its scheduling state (sleeping,
 * queued, running, on which CPU) and its PELT signal, updated at the points
 * where Linux 6.12+ updates it (docs/KERNEL-PATHS.md): enqueue at wakeup,
 * dequeue at sleep, put_prev/set_next at a switch, update_curr at every
 * sched_stat_runtime (which the tick, dequeues and preemptions emit).
 *
 * The PELT clock of a CPU is exact while a fair task runs: sched_stat_runtime
 * reports clock_task advanced since exec_start, which the engine chains.
 * Elsewhere it is extrapolated from the last anchor (a chained value, or a
 * clock reading given with cfsr_replay_clock_sample()) by the trace clock.
 * A reading from a kernel record (cfsr_replay_clock_record()) is the clock
 * of the events that follow it in the same path: a wakeup's enqueue, the
 * attach of a load balance.  A __schedule() after a wakeup that preempted
 * the idle task or a runnable one keeps the rq clock of that wakeup
 * (rq_clock_skip_update()), also when the trace does not show the switch.
 *
 * Each CPU has a root cfs_rq, and a cfs_rq per task group whose tasks ran
 * there (struct cfsr_cfs_rq, named by the group's path; tasks are in the
 * root group unless cfsr_replay_task_set_group() says otherwise, and forks
 * inherit their parent's group).  A cfs_rq's signal is updated with the
 * task updates made on it, with the kernel's inputs (the weight of its
 * queued tasks, delayed ones included, its runnable count, whether a task
 * runs), and holds the removed load of tasks that left it unseen.
 *
 * Each group cfs_rq has a group entity on its parent's cfs_rq of the same
 * CPU (the parent group is the path without its last component).  At
 * every update of a task the walk of update_load_avg(UPDATE_TG) and
 * update_cfs_group() goes up the levels, as the kernel's enqueue, dequeue,
 * tick, set_next and put_prev walks do: the group cfs_rq publishes its
 * load into tg->load_avg (1/64, 1 ms), the group entity is aged with its
 * weight and runnable count, the parent is aged, a pending attach, detach
 * or removal below is propagated, and the entity gets the weight
 * calc_group_shares() gives.  The arithmetic is lib/group.c's and
 * lib/pelt.c's; the state is the engine's, the only model of the
 * hierarchy.  Group shares are NICE_0_LOAD (the default cpu.shares and an
 * autogroup of nice 0) unless stated (cfsr_replay_group_shares(): a
 * recorded trace states cpu.shares, cpu.weight, cpu.idle's
 * scale_load(WEIGHT_IDLEPRIO) and an autogroup's nice as they stood when
 * recording began, cfsr_meta_group_shares()): shares the trace does not
 * carry are not known, and a change of them during the trace (no event
 * shows it) is not seen.  A task's move to
 * another group takes its signal along (cfsr_replay_task_move_group());
 * the blocked-load walk of the periodic and idle balance (updates without
 * a trace event) is made where a kernel record shows it
 * (cfsr_replay_blocked_hint(), cfsr_replay_blocked_averages()).  Not
 * modelled: a group's creation and removal (its entities start at zero
 * at their first update, as entities of unknown past, not attached by
 * online_fair_sched_group(); unregister_fair_sched_group() does not take
 * their load away).  Idle entities: a group stated idle (cpu.idle 1,
 * cfsr_replay_group_idle()) and a task stated SCHED_IDLE
 * (cfsr_replay_task_set_idle_policy(), or a record's weight of
 * scale_load(WEIGHT_IDLEPRIO)) are se_is_idle(); each cfs_rq keeps
 * h_nr_idle (idle_h_nr_running before v6.13) and cfsr_replay_sched_idle_cpu()
 * answers sched_idle_cpu() by profile; a change of either during the trace
 * is not seen (no event shows it).
 *
 * Every PELT call goes through the profile's table of operations
 * (lib/pelt-ops.h).  The models of v3.8-v4.2 (legacy: load_avg_contrib,
 * runnable and blocked load) and v4.3-v5.6 (runnable_load_avg) run at the
 * same update points, with the enqueue and dequeue of their runnable load
 * where a task or a group entity joins or leaves its queue, and with
 * their own group arithmetic (group entity updates, weights, publication
 * into tg->load_avg, propagation: the group operations of pelt-ops.h) at
 * the group update points of the v5.7+ walks.
 *
 * EEVDF is modelled per cfs_rq for tasks and group entities alike: each
 * entity's vruntime (advanced by the reported run time at its own weight,
 * at every level above the running task, a group entity from its own
 * exec_start, and at the update_curr() of a wakeup's enqueue), deadline
 * and lag, the cfs_rq's
 * weighted average vruntime, eligibility, placement at enqueue and the
 * EEVDF part of a group entity's reweight.  A task that blocks while not
 * eligible stays queued (CFSR_TS_DELAYED), and so does a group entity whose
 * cfs_rq empties while it is not eligible (@se_delayed), until a pick on
 * its CPU chooses it (pick_eevdf() from the root down) or an enqueue
 * requeues it (a wakeup never migrates a delayed task).
 *
 * The CFS profiles (v3.8-v6.5) keep each task's vruntime and each
 * cfs_rq's min_vruntime by the CFS rules instead (lib/cfspick.h):
 * update_curr() and update_min_vruntime() at every run-time report and
 * sleep, task_fork_fair() at a fork, place_entity() at a wakeup, the
 * min_vruntime renormalisation of a migration; a task whose vruntime the
 * trace does not give is marked (@vr_guessed) until a wakeup places it at
 * the sleeper floor.  Their pick is CFS's pick_next_entity().
 */
#ifndef CFSR_REPLAY_H
#define CFSR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "pelt.h"
#include "profile.h"

/*
 * The longest the trace event of a kernel path follows that path's PELT
 * updates (a pick's run-time report and its sched_switch, an enqueue's
 * record and its sched_wakeup): 50 us.  Measured on the recorded runs, a
 * pick's report precedes its switch by 4.6-6.5 us at the median and
 * 16-36 us at the 99th percentile.  A report no event of its CPU followed
 * by then was a tick's; a kernel record no event followed by then came
 * from a path without one (the blocked-load walk).
 */
#define CFSR_REPLAY_PATH_NS 50000ULL

enum cfsr_task_state {
	CFSR_TS_UNKNOWN,
	CFSR_TS_SLEEPING,
	CFSR_TS_QUEUED,
	CFSR_TS_RUNNING,
	/*
	 * Left its CPU without a switch in the trace: blocked or preempted,
	 * which its next event tells (a wakeup, or a switch into it).  Aged as
	 * blocked meanwhile.
	 */
	CFSR_TS_LEFT,
	/* DELAY_DEQUEUE: blocked but still queued, not runnable (sched_delayed) */
	CFSR_TS_DELAYED,
};

/**
 * struct cfsr_cfs_rq - a cfs_rq of one task group on one CPU
 * @path: the group's path, "/" for the root (owned by the engine)
 * @cpu: its CPU
 * @avg: its PELT signal; util_est is kept on the root only, as the kernel
 * @removed: load of tasks that left without the cfs_rq being updated
 * @group: index of its task group (0: the root)
 * @load_weight: cfs_rq->load.weight: sum of the weights of its queued
 *               tasks (delayed ones included) and queued group entities
 * @nr_queued: tasks queued on it, delayed ones included
 * @h_nr_runnable: runnable tasks (not delayed) below it; for the root, on
 *                 the whole CPU
 * @h_nr_queued: tasks queued at or below it, delayed ones included
 * @h_nr_idle: of those, the idle ones (h_nr_idle, idle_h_nr_running
 *             before v6.13): SCHED_IDLE tasks (v5.4+) and, from v5.15,
 *             every task below an idle group's cfs_rq under it
 * @nr_delayed: delayed tasks on it
 * @nr_gse: group entities queued on it, delayed ones included (the
 *          kernel's cfs_rq->nr_queued is @nr_queued + @nr_gse)
 * @nr_group_tasks: root only: queued tasks of other groups on the CPU (the
 *                  root has group entities queued)
 * @group_children: root only: @nr_group_tasks was non-zero once, so group
 *                  entities took part in its signal
 * @curr: pid of the task running on it (below it, for the root), 0 if none
 * @avg_known: its signal has a known origin (set by a reading); otherwise it
 *             starts at zero at its first update and warms up like a task
 * @warm_until: clock until which its unknown past still shows
 * @zero_vruntime: base of @avg_vruntime
 * @avg_vruntime: sum of weight * (vruntime - @zero_vruntime) over its queued
 *                entities, tasks and group entities, but the running one
 *                (cfs_rq->avg_vruntime)
 * @avg_load: sum of their weights, scaled down (cfs_rq->avg_load)
 * @updates: PELT updates applied
 * @se_avg: group cfs_rqs: the group entity's PELT signal
 * @se_weight: its se->load.weight (scaled; NICE_0_LOAD when created)
 * @se_on_rq: it is queued on the parent cfs_rq: tasks are queued below, or
 *            it is delayed
 * @se_delayed: DELAY_DEQUEUE: its cfs_rq is empty but it stays queued,
 *              not eligible (se->sched_delayed)
 * @se_left_ts: trace time at which the engine last dequeued its group entity
 * @se_vruntime: its se->vruntime, advanced by the run time of the tasks
 *               below at its own weight (EEVDF's, or for a CFS profile the
 *               CFS vruntime, placed by place_entity() at each enqueue)
 * @se_deadline: its se->deadline
 * @se_vlag: its se->vlag, the lag saved at its last dequeue
 * @se_slice: its se->slice
 * @se_rel_deadline: @se_deadline is relative (se->rel_deadline)
 * @se_in_sums: it is in the parent's @avg_vruntime (queued, not running)
 * @se_exec_start: its se->exec_start: the rq clock its vruntime was last
 *                 advanced to while it ran (0 unknown)
 * @se_known: its signal has a known origin (set by a reading)
 * @se_warm_until: clock until which its unknown past still shows
 * @se_updates: its PELT updates applied
 * @tg_load_avg_contrib: the load_avg last published into tg->load_avg
 * @last_update_tg_load_avg: trace time (sched_clock) of that publication
 * @propagate: a change below waits to be propagated to the group entity
 * @prop_runnable_sum: the load_sum change to propagate
 * @se_runnable: its se->runnable_weight, @h_nr_runnable as
 *               se_update_runnable() last copied it (enqueue and dequeue
 *               walks; a delayed dequeue or requeue changes the count, not
 *               the copy): the runnable input of its PELT updates
 * @dec_lut: the last_update_time its last update that crossed a period
 *           reached, @dec_tg whether that update's path passes UPDATE_TG,
 *           @dec_ts its trace time and @dec_last the
 *           @last_update_tg_load_avg before its publication
 * @kernel_decayed: a kernel reading showed the crossing of an update the
 *                  engine has still to make (cfsr_replay_cfs_rq_follow())
 * @taken_ts: trace time of the last reading of its group state
 *            (cfsr_replay_group_take()), 0 none
 * @avg_read_ts: trace time of the last reading of its signal (a kernel
 *               record taken in lock-step), 0 none; @avg_before_read the
 *               signal before it: a record fires inside a kernel path,
 *               whose earlier steps saw the signal before that update
 * @min_vruntime: CFS profiles (v3.8-v6.5): cfs_rq->min_vruntime, kept
 *                over its tasks and group entities (update_min_vruntime(),
 *                lib/cfspick.h)
 * @se_vr_placed: CFS profiles, group cfs_rqs: @se_vruntime (the group
 *                entity's CFS vruntime) was set by a placement
 * @se_vr_guessed: CFS profiles: @se_vruntime derives from the start policy
 *                 (the parent's min_vruntime at the first enqueue the
 *                 engine saw), not from the trace; cleared when a later
 *                 enqueue places it at the sleeper floor
 * @se_lag_seen: EEVDF: @se_vlag was set by a dequeue or a kernel reading
 *               the engine replayed; false: it is the lag of a dequeue
 *               before the trace, taken as 0
 * @se_lag_guessed: EEVDF: a placement read @se_vlag before it was seen
 *                  (as @lag_guessed of a task)
 * @se_wake_placed: EEVDF: placed at its last enqueue and not run since
 *                  (set_next() clears it)
 * @eevdf_framed: its vruntimes are in the kernel's frame: a reading of the
 *                kernel's sums (cfsr_replay_cfs_rq_take_eevdf()) moved them
 *                there, so its entities can take the kernel's vruntimes
 */
struct cfsr_cfs_rq {
	const char *path;
	int cpu;
	int group;
	struct cfsr_sched_avg avg;
	struct cfsr_pelt_removed removed;
	uint64_t load_weight;
	unsigned int nr_queued;
	unsigned int h_nr_queued;
	unsigned int h_nr_runnable;
	unsigned int h_nr_idle;
	unsigned int nr_delayed;
	unsigned int nr_gse;
	unsigned int nr_group_tasks;
	bool group_children;
	int curr;
	bool avg_known;
	uint64_t warm_until;
	uint64_t zero_vruntime;
	int64_t avg_vruntime;
	uint64_t avg_load;
	uint64_t updates;
	struct cfsr_sched_avg se_avg;
	uint64_t se_weight;
	bool se_on_rq;
	bool se_delayed;
	uint64_t se_left_ts;
	uint64_t se_vruntime;
	uint64_t se_deadline;
	int64_t se_vlag;
	uint64_t se_slice;
	bool se_rel_deadline;
	bool se_in_sums;
	uint64_t se_exec_start;
	bool se_known;
	uint64_t se_warm_until;
	uint64_t se_updates;
	uint64_t tg_load_avg_contrib;
	uint64_t last_update_tg_load_avg;
	bool propagate;
	int64_t prop_runnable_sum;
	unsigned int se_runnable;
	uint64_t dec_lut;
	uint64_t dec_ts;
	uint64_t dec_last;
	bool dec_tg;
	bool kernel_decayed;
	uint64_t taken_ts;
	uint64_t avg_read_ts;
	struct cfsr_sched_avg avg_before_read;
	uint64_t se_read_ts;
	uint64_t se_read_lut;
	uint64_t avg_read_lut;
	uint64_t queued_read_ts;
	uint64_t min_vruntime;
	bool se_vr_placed;
	bool se_vr_guessed;
	bool se_lag_seen;
	bool se_lag_guessed;
	bool se_wake_placed;
	bool eevdf_framed;
};

/**
 * struct cfsr_task - a task as the engine sees it
 * @pid: thread id
 * @cpu: CPU whose run queue it is on, or last ran on; -1 unknown
 * @prio: kernel priority (100..139 fair, below 100 real time)
 * @state: scheduling state
 * @fair: the fair class schedules it (prio >= 100)
 * @avg: its PELT signal
 * @load_weight: se->load.weight (scaled: nice 0 = 1048576)
 * @idle_policy: SCHED_IDLE (task_has_idle_policy()), as a kernel reading of
 *               its weight showed (cfsr_replay_task_take_weight()) or a
 *               snapshot's policy said (cfsr_replay_task_set_idle_policy()):
 *               its weight is scale_load(WEIGHT_IDLEPRIO) whatever its prio
 * @exec_start: rq clock_task when its run time was last accounted
 * @exec_known: @exec_start is set (by a switch into the task or a reading),
 *              so its run-time reports chain from it
 * @avg_known: @avg has a known origin (fork seen, or set from a reading)
 * @avg_taken: @avg follows the kernel's records (lock-step took one)
 * @warm_until: for a task already running when the trace began, the clock
 *              until which its signal still holds its unknown past (see
 *              cfsr_task_warming())
 * @migrated: its signal must be attached on its next enqueue
 * @attach_pending: a load balance moved it, the attach on its new CPU waits
 *                  for that CPU's next clock reading or the task's update
 * @ue_sampled: util_est was sampled for the current sleep
 * @tick_avg: its signal before a run-time report's update made as a
 *            tick's (settle_ticks()) while no other event followed
 * @tick_forced: @tick_avg holds: a sleep that follows was the report's
 *               dequeue, whose util_est_update() came before that update
 * @ue_root: the estimate util_est_enqueue() last added to the root cfs_rq
 * @ue_in_root: @ue_root is in the root's sum (util_est_dequeue() not yet)
 * @ue_cpu: the CPU whose root holds @ue_root
 * @enq_pending: woken, but the enqueue's update (aging the sleep) not yet
 *               applied: it is applied, at the earlier of @enq_clock and
 *               the next update's clock, when the task is next updated
 * @enq_clock: estimated clock of the enqueue
 * @enq_ts: trace time of the last wakeup
 * @sleep_ts: trace time of its last sleep (block_task()), 0 none
 * @updates: PELT updates applied
 * @group: index of its task group (0: the root group)
 * @group_given: @group was set by cfsr_replay_task_set_group(), not
 *               inherited at fork
 * @group_traced: @group follows from the trace: a fork of a parent whose
 *                group was known, or a cgroup_attach_task
 *                (cfsr_replay_follow_attaches())
 * @fork_group: the group + 1 a fork puts it in when its parent's is not
 *              known (cfsr_replay_task_set_fork_group()), 0 none
 * @vruntime: se->vruntime, advanced by calc_delta_fair() of each run time
 * @deadline: se->deadline
 * @vlag: se->vlag, the lag saved at its last dequeue
 * @slice: se->slice
 * @rel_deadline: @deadline is relative (dequeued by a migration)
 * @exiting: the task exited: its last dequeue is special (never delayed)
 * @nice_prio: the prio a setpriority() entry gave it, made at the clock of
 *             its next run-time report (set_user_nice()'s update_curr()),
 *             0 none
 * @nice_due: that report came: the change is made before the next event
 * @nice_clock: the report's clock
 * @nice_ts: the report's trace time
 * @dead: task_dead_fair() removed its signal; it has no signal until the
 *        pid runs again
 * @set_next_est: its last update was a switch into it at an estimated clock
 * @set_next_clock: that clock
 * @pre_set_next: its signal before that update
 * @est_updates: updates made on an estimated clock
 * @est_at_record: for the caller: @est_updates when it last compared
 * @vr_placed: CFS profiles: @vruntime was set by a placement of the
 *             engine (task_fork_fair(), place_entity(), or the start
 *             policy for a task the trace shows already there)
 * @vr_rel: CFS profiles: @vruntime is relative to a min_vruntime (a
 *          fork's, or a migration's, until the enqueue adds the new one)
 * @vr_guessed: CFS profiles: @vruntime derives from the start policy
 *              (a task already there when the trace began takes its
 *              cfs_rq's min_vruntime), not from the trace; cleared when a
 *              wakeup places the task at the sleeper floor instead
 * @nd_pending: dequeued at its run-time report before a newly-idle
 *              balance pulled a task onto its CPU, and still the CPU's
 *              curr until its switch out (settle_runtime(), on_switch())
 * @sleep_guessed: asleep because a cfs_rq record lacked its weight, no
 *                 event of its sleep (cfsr_replay_cfs_rq_take_queued())
 * @guess_ts: the engine's time of that guess
 * @lag_seen: EEVDF: @vlag was set by a dequeue, a fork or a kernel reading
 *            the engine replayed; false: it is the lag of a dequeue before
 *            the trace, taken as 0
 * @lag_guessed: EEVDF: a placement read @vlag before it was seen, so its
 *               vruntime, and every lag saved from it since, descend from
 *               that guess (until a kernel reading gives its lag)
 * @wake_placed: EEVDF: placed at its last enqueue and not run since
 *               (set_next() clears it)
 * @waking_ts: trace time of its last sched_waking, 0 none
 * @report_vruntime: its vruntime before its last run-time report's
 *                   update_curr() (requeue_delayed())
 * @report_ts: that report's trace time
 */
struct cfsr_task {
	int pid;
	int cpu;
	int prio;
	enum cfsr_task_state state;
	bool fair;
	struct cfsr_sched_avg avg;
	uint64_t load_weight;
	bool idle_policy;
	uint64_t exec_start;
	/* exec_start descends from a trace time stamp (struct cfsr_replay stamp) */
	bool exec_stamp;
	bool exec_known;
	bool avg_known;
	bool avg_taken;
	uint64_t warm_until;
	bool migrated;
	bool attach_pending;
	/* lock-step: taken off its cfs_rq until that attach (a record of its enqueue showed it not counted) */
	bool requeue_at_attach;
	/* queued here by a load balance or the stopper and not run or woken since (observe_idle()) */
	bool moved_queued;
	/* lock-step: the clock (first record on its CPU) and time of that attach, not made yet */
	bool attach_clocked;
	uint64_t attach_clock;
	uint64_t attach_ts;
	bool ue_sampled;
	struct cfsr_sched_avg tick_avg;
	bool tick_forced;
	uint32_t ue_root;
	bool ue_in_root;
	int ue_cpu;
	bool enq_pending;
	uint64_t enq_clock;
	uint64_t enq_ts;
	uint64_t sleep_ts;
	uint64_t updates;
	int group;
	bool group_given;
	bool group_traced;
	int fork_group;
	uint64_t vruntime;
	uint64_t deadline;
	int64_t vlag;
	uint64_t slice;
	bool rel_deadline;
	bool exiting;
	int nice_prio;
	bool nice_due;
	uint64_t nice_clock;
	uint64_t nice_ts;
	bool exit_moved;
	bool dead;
	bool set_next_est;
	uint64_t set_next_clock;
	uint64_t set_next_updates;
	bool recovered_ahead;
	bool nd_pending;
	struct cfsr_sched_avg pre_set_next;
	uint64_t est_updates;
	uint64_t est_at_record;
	bool vr_placed;
	bool vr_rel;
	bool vr_guessed;
	bool sleep_guessed;
	uint64_t guess_ts;
	bool lag_seen;
	bool lag_guessed;
	bool wake_placed;
	uint64_t waking_ts;
	uint64_t report_vruntime;
	uint64_t report_ts;
	char comm[CFSR_COMM_LEN];
};

/* Why a task's signal was updated. */
enum cfsr_update_why {
	CFSR_UPD_RUNTIME,
	CFSR_UPD_DEQUEUE,
	CFSR_UPD_PUT_PREV,
	CFSR_UPD_SET_NEXT,
	CFSR_UPD_ENQUEUE,
	CFSR_UPD_NEW,
	CFSR_UPD_DETACH,
	/* a delayed task requeued by its wakeup */
	CFSR_UPD_REQUEUE,
	/* a delayed dequeue completed by a pick */
	CFSR_UPD_DELAYED_DEQUEUE,
	/* a task's signal synced to its cfs_rq as it leaves unseen (migration, exit) */
	CFSR_UPD_REMOVE,
	/* a cfs_rq's own update (@cfs_rq set, @task NULL) */
	CFSR_UPD_CFS_RQ,
	/* the update of a group cfs_rq's group entity (@cfs_rq set, @task NULL) */
	CFSR_UPD_GROUP_SE,
};

/**
 * struct cfsr_replay_update - one model update of a task's or a cfs_rq's signal
 * @ts: trace time of the event that caused it
 * @cpu: run queue
 * @task: the task, after the update, or NULL for a cfs_rq update
 *        (borrowed until the next event)
 * @cfs_rq: the cfs_rq, after the update, for a cfs_rq update; else NULL
 * @why: the kernel path it mirrors
 * @clock_exact: the PELT clock came from kernel values alone: a reading, or
 *               a run-time chain from one; not from a trace time stamp
 */
struct cfsr_replay_update {
	uint64_t ts;
	int cpu;
	const struct cfsr_task *task;
	const struct cfsr_cfs_rq *cfs_rq;
	enum cfsr_update_why why;
	bool clock_exact;
};

typedef void (*cfsr_replay_hook)(void *data, const struct cfsr_replay_update *u);

/**
 * struct cfsr_replay_stats - what the engine had to infer or could not do
 * @events: events replayed
 * @updates: task PELT updates
 * @recovered_switches: switches not in the trace, recovered from an
 *                      event's common_pid and placed by sched_stat_runtime
 * @remote_reports: of those, placed by a report from another CPU, whose
 *                  task was running there (remote_report_cpu())
 * @remote_reports_unplaced: such reports whose CPU was not known: left out
 * @remote_settles: pending reports settled before an event of another CPU
 *                  that acts on their CPU's rq (settle_remote())
 * @pulls_reordered: load balances that moved more than one task, attached
 *                   last detached first (flush_pulled())
 * @unreported_picks: preemptions whose __schedule() kept the clock of a
 *                    tick's report before it: the report taken as the
 *                    tick's (pick_unreported())
 * @recovered_ahead: of those, placed before an update of the CPU that
 *                   came ahead of the report (recover_due())
 * @runtime_reads: run-time reports no event followed within half a tick of
 *                 the CPU's last tick: a read of the task's run time, no
 *                 PELT update (settle_ticks()), or later in lock-step
 *                 where the kernel's records show no tick's update
 * @runtime_reads_unrecorded: reports of those and of @off_tick_reports
 *                            whose tick's update the kernel's records
 *                            would show and do not (tick_unrecorded())
 * @off_tick_reports: run-time reports no event followed, off the ticks'
 *                    grid: a pick that kept the task or a read, no PELT
 *                    update, no reweight (off_tick())
 * @own_balances: update_blocked_averages() passes the engine made itself,
 *                newly-idle and the next tick's (cfsr_replay_expect_blocked())
 * @unseen_switch_outs: switches whose prev was not the task the model had
 *                      running: that task left without a trace event
 * @unseen_puts: of the tasks that left so, those whose run until the next
 *               task's switch-in (its report less its run time) was
 *               accounted (put_unseen())
 * @unanchored_updates: updates whose clock was extrapolated with no anchor
 * @chain_corrections: run-time chains moved onto the clock a reading said
 *                     the rq kept (cfsr_replay_clock_update())
 * @estimated_updates: updates on an extrapolated clock
 * @lost_notices: lost-events notices seen (state after them is degraded)
 * @cfs_updates: cfs_rq PELT updates
 * @delayed: sleeps that the model kept queued (DELAY_DEQUEUE)
 * @delayed_picked: delayed dequeues completed by a pick
 * @lag_inferred: entities placed from a lag from before the trace that the
 *                kernel's pick showed larger, moved left to be its choice
 *                (cfsr_replay_set_lag_inference())
 * @delayed_woken: delayed tasks requeued by a wakeup
 * @gse_delayed: group entities kept queued when their cfs_rq emptied
 *               (DELAY_DEQUEUE)
 * @gse_delayed_taken: group entities a cfs_rq record showed kept queued,
 *                     delayed, where the engine had dequeued them
 * @gse_delayed_picked: delayed group entities dequeued by a pick
 * @gse_delayed_woken: delayed group entities requeued by an enqueue below
 * @unseen_migrations: tasks found on another CPU with no migration event
 * @attach_moves: tasks moved to another group by a cgroup_attach_task of
 *                the cpu controller's hierarchy (cfsr_replay_follow_attaches())
 * @attaches_other: cgroup_attach_task events of other hierarchies (or
 *                  before the cpu controller's was known), not followed
 * @fork_parent_group: forks that put a child with a given cgroup in its
 *                     parent's known group until its attach
 * @fork_autogroup: forks that put such a child in the autogroup its rows
 *                  give, its parent's group not known (the parent taken
 *                  as in the root cgroup)
 * @fork_group_unknown: forks of such a child whose parent's group was not
 *                      known: the child's given group stands from the fork
 * @blocked_averages: update_blocked_averages() passes of an older model
 *                    (cfsr_replay_blocked_averages())
 * @exit_moves: dying tasks moved out of their autogroup to their cgroup's
 *              group (sched_autogroup_exit_task()) at a run-time report
 * @nice_changes: setpriority(PRIO_PROCESS) calls applied to a fair task
 *                whose nice value they change (set_user_nice())
 * @setprio_other: setpriority() calls not applied: PRIO_PGRP, PRIO_USER,
 *                 a task not known, not fair, or already at that nice value
 * @group_mkdirs: cgroup_mkdir events of the cpu controller's hierarchy
 *                (cfsr_replay_follow_attaches()): groups made
 * @group_attaches: group entities those attached to their parent cfs_rq
 *                  (online_fair_sched_group())
 * @group_rmdirs: cgroup_rmdir events of the cpu controller's hierarchy:
 *                groups removed (unregister_fair_sched_group())
 * @group_rmdir_busy: CPUs where the model still queued something in a
 *                    removed group, left as they were
 * @group_dirs_other: cgroup_mkdir and cgroup_rmdir events of other
 *                    hierarchies, or before the cpu controller's was known
 */
struct cfsr_replay_stats {
	uint64_t events;
	uint64_t updates;
	uint64_t recovered_switches;
	uint64_t remote_reports;
	uint64_t remote_reports_unplaced;
	uint64_t remote_settles;
	uint64_t pulls_reordered;
	uint64_t unreported_picks;
	uint64_t recovered_ahead;
	uint64_t runtime_reads;
	uint64_t runtime_reads_unrecorded;
	uint64_t off_tick_reports;
	uint64_t own_balances;
	uint64_t blocked_updates;
	uint64_t blocked_set_aside;
	uint64_t lost_sleeps;
	uint64_t lost_sleeps_undone;
	uint64_t attach_records_before;
	uint64_t newidle_dequeues;
	uint64_t unseen_puts;
	uint64_t unseen_switch_outs;
	uint64_t unanchored_updates;
	uint64_t chain_corrections;
	uint64_t estimated_updates;
	uint64_t lost_notices;
	uint64_t cfs_updates;
	uint64_t delayed;
	uint64_t delayed_picked;
	uint64_t lag_inferred;
	uint64_t delayed_woken;
	uint64_t gse_delayed;
	uint64_t gse_delayed_taken;
	uint64_t gse_delayed_picked;
	uint64_t gse_delayed_woken;
	uint64_t unseen_migrations;
	uint64_t attach_moves;
	uint64_t attaches_other;
	uint64_t fork_parent_group;
	uint64_t fork_autogroup;
	uint64_t fork_group_unknown;
	uint64_t blocked_averages;
	uint64_t exit_moves;
	uint64_t shares_changes;
	uint64_t nice_changes;
	uint64_t setprio_other;
	uint64_t group_mkdirs;
	uint64_t group_attaches;
	uint64_t group_rmdirs;
	uint64_t group_rmdir_busy;
	uint64_t group_dirs_other;
};

struct cfsr_replay;

/**
 * cfsr_replay_new() - an engine for @nr_cpus CPUs
 * @nr_cpus: CPUs of the traced machine
 * @profile: the kernel's behaviour (an implemented profile: PELT parameters
 *           and scheduler features)
 * @hz: the traced kernel's HZ (TICK_NSEC bounds a task's lag); 0 if unknown,
 *      then 250 is assumed
 *
 * Return: an owned engine, to be released with cfsr_replay_free(), or NULL.
 */
struct cfsr_replay *cfsr_replay_new(int nr_cpus, const struct cfsr_profile *profile, int hz);

void cfsr_replay_free(struct cfsr_replay *r);

/**
 * cfsr_replay_take_tunables() - the traced machine's scheduler tunables
 * @info: what the trace says about itself
 *
 * A trace made by `cfsreplay record` carries sysctl_sched_base_slice as the
 * kernel used it (scaled by update_sysctl()'s 1 + ilog2(CPUs) factor); it
 * replaces the profile's default slice for every entity placed afterwards,
 * unless the engine models another release than the traced one (a what-if
 * replay keeps its own release's default); so do, for the CFS rules, a
 * CFS kernel's sysctl_sched_latency, sysctl_sched_min_granularity and
 * sysctl_sched_wakeup_granularity (lib/cfspick.h).  Likewise the kernel's
 * scheduler features (sysctl_sched_features, decoded by lib/schedfeat.h
 * from the recorded names or the release's features.h order) replace the
 * profile's defaults of those the engine switches on (CFSR_ENGINE_FEATS):
 * DELAY_DEQUEUE, DELAY_ZERO, PLACE_LAG, PLACE_DEADLINE_INITIAL,
 * PLACE_REL_DEADLINE, RUN_TO_PARITY, UTIL_EST, UTIL_EST_FASTUP, and for a
 * CFS profile those its rules read (CFSR_CFS_FEATS): GENTLE_FAIR_SLEEPERS,
 * START_DEBIT, NEXT_BUDDY, LAST_BUDDY, WAKEUP_PREEMPTION; unknown features
 * leave the defaults.  Call before the first event.
 */
struct cfsr_trace_info;
void cfsr_replay_take_tunables(struct cfsr_replay *r, const struct cfsr_trace_info *info);

/**
 * cfsr_replay_profile() - the profile the engine follows
 * @r: the engine
 *
 * Return: a copy of the profile given to cfsr_replay_new(), with the
 * scheduler features cfsr_replay_take_tunables() took from the trace;
 * borrowed until cfsr_replay_free().
 */
const struct cfsr_profile *cfsr_replay_profile(const struct cfsr_replay *r);

/* Call @fn for every task PELT update. */
void cfsr_replay_set_hook(struct cfsr_replay *r, cfsr_replay_hook fn, void *data);

/*
 * A look at the trace's events ahead of the one being replayed: @i = 0 is
 * the next; sets *@ev and returns 1, or 0 when there is none (the end, or
 * beyond the reader's bound), -1 on error.  formats/formats.h's
 * cfsr_trace_peek_fn() with the trace as @ctx is one.
 */
typedef int (*cfsr_replay_peek)(void *ctx, size_t i, const struct cfsr_event **ev);

/**
 * cfsr_replay_set_peek() - let the engine look ahead in the trace
 * @r: the engine
 * @fn: the look, or NULL (the default) for none
 * @ctx: its context
 *
 * A task seen running on a CPU without a switch into it in the trace (the
 * switch was lost) ran from its next run-time report's time less the run
 * time it reports: with a look ahead, the engine places the switch there
 * at the task's first event, before the updates of its CPU that follow
 * (an enqueue's, say); without, at that report (recover_switch()).
 */
void cfsr_replay_set_peek(struct cfsr_replay *r, cfsr_replay_peek fn, void *ctx);

/**
 * cfsr_replay_event() - replay one event; events must come in time order
 * Return: 0, or -1 on allocation failure (after cfsr_error()).
 */
int cfsr_replay_event(struct cfsr_replay *r, const struct cfsr_event *ev);

/**
 * cfsr_replay_clock_sample() - anchor a CPU's PELT clock
 * @cpu: the CPU
 * @ts: trace time of the reading
 * @clock_task: the rq's clock_task then
 *
 * Used where no run-time chain gives the clock (the CPU idle, or no fair
 * task has run yet).
 */
void cfsr_replay_clock_sample(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task);

/**
 * cfsr_replay_clock_record() - a clock reading from a record inside a kernel path
 * @cpu: the CPU whose rq the record read
 * @ts: trace time of the record
 * @clock_task: the rq's clock_task then: the clock of the path's
 *              update_rq_clock(), which the trace events that follow it
 *              in the same path use
 * As cfsr_replay_clock_sample(), and more: the reading gives the clock of
 * the events right after it (a wakeup's enqueue, a switch that skipped its
 * clock update), and load-balance attaches wait for the destination's
 * record.  For the kernel's PELT records (lock-step), not for snapshots.
 */
void cfsr_replay_clock_record(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task);

/**
 * cfsr_replay_reading_clock() - the clock a kernel reading hands the engine
 * @cpu: the CPU whose rq the reading read
 * @clock_task: the rq's clock_task then
 * @clock_pelt: its clock_pelt then (a PELT record's), or -1 when the
 *              reading has none (a snapshot's)
 * @lost_idle_time: its lost_idle_time then (0 with no @clock_pelt)
 * @take: set the CPU's scaled PELT clock to the reading (lock-step)
 *
 * The engine's rq clock is clock_task; rq_clock_pelt() (kernel/sched/pelt.h,
 * v5.1-v6.18) is clock_pelt - lost_idle_time.  On a CPU whose PELT clock
 * runs with clock_task (capacity and frequency scale 1024 so far) the
 * engine runs on the PELT clock itself, so that a lost_idle_time it does
 * not model is taken too; on a CPU that scales, it runs on clock_task and,
 * with @take, restarts its scaled clock from the reading's, which is
 * already scaled.
 * Return: the clock to give cfsr_replay_clock_record(), _update() or
 * _sample(): clock_task before v5.1 (the PELT clock there) or without
 * @clock_pelt; clock_pelt - lost_idle_time on a CPU that does not scale;
 * clock_task on one that does.
 */
uint64_t cfsr_replay_reading_clock(struct cfsr_replay *r, int cpu, uint64_t clock_task,
				   int64_t clock_pelt, uint64_t lost_idle_time, bool take);

/*
 * A kernel record at trace time @ts showed update_blocked_averages() of
 * @cpu's rq at rq clock @clock (a record of the RT class's signal while no
 * task of another class than fair is on that rq): the engine makes it
 * before the next event that acts on the rq.  Lock-step, v5.7-v6.18.
 */
void cfsr_replay_blocked_hint(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock);

/**
 * cfsr_replay_clock_update() - the rq clock's value at one of its updates
 * @cpu: the CPU
 * @ts: trace time of the rq's update_rq_clock()
 * @clock_task: the clock_task it set
 * @until: trace time up to which the rq had no later clock update (the
 *         snapshot read it then), or 0 when not known
 *
 * An exact anchor (a snapshot's rq->clock gives the instant of the
 * update that set rq->clock_task), and the clock of the events right
 * after it, as a kernel record's (cfsr_replay_clock_record()), without
 * the lock-step's reliance on a record in every path.  Every update on
 * the CPU up to @until is at @clock_task, a running task's run-time
 * report included (update_curr() reads rq_clock_task()): its run-time
 * chain is moved there if it was off.
 */
void cfsr_replay_clock_update(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task,
			      uint64_t until);

/**
 * cfsr_replay_set_lag_inference() - whether a guessed lag yields to the kernel's pick
 * @r: the engine
 * @on: true (the default) to infer, false to keep every guess as placed
 *
 * An EEVDF entity whose saved lag is from before the trace is placed at
 * its enqueue as if that lag were 0.  When the kernel then switches to it
 * (or to a task below it) while the engine's state has another eligible
 * entity of its cfs_rq with an earlier deadline, the lag was larger: by
 * default the engine moves the entity left, with its deadline, just
 * enough to be pick_eevdf()'s choice (counted in lag_inferred).
 */
void cfsr_replay_set_lag_inference(struct cfsr_replay *r, bool on);

/**
 * cfsr_replay_lag_guessed_path() - whether a queued task's place rests on a guessed lag
 * @r: the engine
 * @pid: the task
 *
 * Return: true if the task, or a group entity above it, was placed at its
 * last enqueue from a lag from before the trace (taken as 0) and has not
 * run since: the engine's EEVDF state cannot say whether the kernel was
 * to pick it; false too without lag inference, whose guesses stand for
 * the lags (cfsr_replay_set_lag_inference()).
 */
bool cfsr_replay_lag_guessed_path(const struct cfsr_replay *r, int pid);

/**
 * cfsr_replay_set_capacity() - a CPU's capacity, arch_scale_cpu_capacity()
 * @r: the engine
 * @cpu: the CPU
 * @capacity: 1..1024 (SCHED_CAPACITY_SCALE, the default); other values
 *            are ignored
 *
 * From v5.1 the CPU's PELT clock (rq_clock_pelt()) advances by the
 * clock_task delta scaled by the capacity and the frequency scale while a
 * task runs, syncing to clock_task when the CPU idles, with the lost idle
 * time of a saturated rq taken out (update_rq_clock_pelt(),
 * update_idle_rq_clock_pelt()); v4.1-v5.0 scale the contributions
 * instead, util by the capacity (struct cfsr_pelt_scale).  Give it before
 * the first event; cfsr_replay_take_tunables() takes a trace's own.
 */
void cfsr_replay_set_capacity(struct cfsr_replay *r, int cpu, uint32_t capacity);

/**
 * cfsr_replay_set_freq_scale() - a CPU's frequency scale from now on
 * @r: the engine
 * @cpu: the CPU
 * @scale: arch_scale_freq_capacity(), 1..1024: cur_freq * 1024 / max_freq
 *         where the kernel derives it from cpufreq (arm and arm64,
 *         topology_set_freq_scale()); other values are ignored
 *
 * Takes effect at the CPU's next clock update, as the kernel reads the
 * scale at its updates: the time to the rq's last clock update the engine
 * knows of ran at the old scale.
 */
void cfsr_replay_set_freq_scale(struct cfsr_replay *r, int cpu, uint32_t scale);

/**
 * cfsr_replay_capacity() - a CPU's capacity as the engine takes it
 * @r: the engine
 * @cpu: the CPU
 *
 * Return: arch_scale_cpu_capacity(), 1024 unless given.
 */
uint32_t cfsr_replay_capacity(const struct cfsr_replay *r, int cpu);

/**
 * cfsr_replay_lost_idle_time() - a CPU's rq->lost_idle_time (v5.1+), ns
 * @r: the engine
 * @cpu: the CPU
 *
 * Return: the idle time a saturated rq lost from its PELT clock; 0 while
 * every scale has been 1024 (clock_pelt never behind clock_task).
 */
uint64_t cfsr_replay_lost_idle_time(const struct cfsr_replay *r, int cpu);

/**
 * cfsr_replay_expect_blocked() - the kernel's blocked-load passes will be told
 * @r: the engine
 *
 * Lock-step: the kernel's records say when update_blocked_averages() ran
 * (cfsr_replay_blocked_hint(), cfsr_replay_cfs_rq_blocked()).  Without
 * this call a v5.7+ model makes the passes the trace implies itself: the
 * newly-idle balance of a CPU switching to its idle task, and the periodic
 * balance of that CPU's next tick (newidle_balance() in lib/replay.c).
 */
void cfsr_replay_expect_blocked(struct cfsr_replay *r);

/**
 * cfsr_replay_expect_clock() - clock readings will be given
 *
 * Without readings, a CPU's clock is the trace clock until a run-time
 * chain anchors it.  With readings expected, nothing is updated on a CPU
 * before its first reading, so that no signal starts on the trace clock
 * and continues on the kernel's.
 */
void cfsr_replay_expect_clock(struct cfsr_replay *r);

/*
 * The task with @pid, or NULL.  Borrowed until the next event: a new task
 * can move the table.
 */
struct cfsr_task *cfsr_replay_task(struct cfsr_replay *r, int pid);

/**
 * cfsr_replay_task_settle() - apply a task's pending enqueue update
 * @r: the engine
 * @t: the task
 * @now: the clock of the task's next update, which bounds the enqueue's
 *
 * For callers that compare the task's signal at @now.
 */
void cfsr_replay_task_settle(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now);

/**
 * cfsr_task_warming() - the task's signal still depends on its unknown past
 *
 * A task that existed before the trace began starts, at its first update,
 * from a zero signal on the kernel's 1024 ns grid (the policy), and is
 * warming up until whatever its real past held has decayed below one unit
 * (WARMUP_PERIODS periods).
 */
bool cfsr_task_warming(const struct cfsr_task *t, uint64_t now);

/* Inputs of the task's signal now: on_rq, runnable, running. */
void cfsr_task_inputs(const struct cfsr_task *t, bool *on_rq, uint64_t *runnable, bool *running);

const struct cfsr_replay_stats *cfsr_replay_stats(const struct cfsr_replay *r);

/**
 * cfsr_replay_task_set_group() - put a task in a task group
 * @r: the engine
 * @pid: the task (created if unknown)
 * @path: the group's path: "/" for the root, "/autogroup-N", a cgroup path
 *
 * The task's part in the cfs_rqs moves with it; its signal does not: this
 * says where the task was all along (a group known from snapshots or from
 * a marker read ahead), not a move the kernel made; for that, see
 * cfsr_replay_task_move_group().
 * Return: 1 if the task changed group, 0 if not, -1 on allocation failure
 * (after cfsr_error()).
 */
int cfsr_replay_task_set_group(struct cfsr_replay *r, int pid, const char *path);

/* cfsr_replay_follow_attaches()' @cpu_root when the trace does not say it */
#define CFSR_CPU_ROOT_UNKNOWN (-1)

/**
 * cfsr_replay_follow_attaches() - follow the cpu controller's cgroup_attach_task
 * @r: the engine
 * @cpu_root: the cpu controller's hierarchy id (cgroup v1 root, 0 for v2),
 *            or CFSR_CPU_ROOT_UNKNOWN: the first hierarchy one of whose
 *            attaches names a group the engine holds or was named
 *            (cfsr_replay_name_cpu_group()), other than the root and
 *            autogroups, is taken as the cpu controller's
 *
 * From here, a cgroup_attach_task event of that hierarchy moves its task
 * as sched_move_task() does (cfsr_replay_task_move_group()), and a task
 * forked in the trace whose given group is a cgroup starts in its
 * parent's group (sched_cgroup_fork()), reaching its own at the attach.
 * A cgroup_mkdir of that hierarchy (or, with it not given, of the first
 * whose mkdir names a known group) makes the group
 * (cfsr_replay_group_created()) and, for the v5.7+ arithmetic, attaches
 * its group entity to the parent cfs_rq on every CPU at the event's time
 * (online_fair_sched_group(): the parent's load_sum gains
 * scale_load_down(NICE_0_LOAD) from v5.18, prop_runnable_sum 1); a
 * cgroup_rmdir queues each group entity's averages as removed on its
 * parent cfs_rq (unregister_fair_sched_group(), which the kernel makes
 * RCU grace periods later) and clears the group's signals.
 * Call after the groups are given, before the first event.
 */
void cfsr_replay_follow_attaches(struct cfsr_replay *r, int cpu_root);

/**
 * cfsr_replay_name_cpu_group() - a group of the cpu controller the snapshots
 *                                or records name
 * @r: the engine
 * @path: a cgroup path (not the root, not an autogroup)
 *
 * An attach to it tells the cpu controller's hierarchy
 * (cfsr_replay_follow_attaches() with CFSR_CPU_ROOT_UNKNOWN), also where
 * no task's first row or record gives it.
 * Return: 0, or -1 on allocation failure (reported).
 */
int cfsr_replay_name_cpu_group(struct cfsr_replay *r, const char *path);

/**
 * cfsr_replay_task_set_fork_group() - the group a fork puts @pid in when its
 *                                     parent's is not known
 * @r: the engine
 * @pid: the task
 * @path: its autogroup as its rows give it, for a task not its session's
 *        leader (sched_autogroup_fork() gave it the parent's)
 *
 * Return: 0, or -1 on allocation failure (reported).
 */
int cfsr_replay_task_set_fork_group(struct cfsr_replay *r, int pid, const char *path);

/**
 * cfsr_replay_task_move_group() - the kernel moves a task to another group at @ts
 * @r: the engine
 * @pid: the task (created if unknown)
 * @path: the new group's path
 * @ts: trace time of the move
 *
 * As sched_move_task(): the task's signal is detached from its cfs_rq and
 * attached to the new group's cfs_rq on the same CPU, at that CPU's clock;
 * a queued task keeps its lag.  A task whose signal or CPU clock is not
 * known yet just changes group, as with cfsr_replay_task_set_group().
 * Return: as cfsr_replay_task_set_group().
 */
int cfsr_replay_task_move_group(struct cfsr_replay *r, int pid, const char *path, uint64_t ts);

/**
 * cfsr_replay_cfs_rq() - the cfs_rq of group @path on @cpu
 *
 * Return: the cfs_rq (borrowed until the next event or group change), or
 * NULL if the model has none.
 */
struct cfsr_cfs_rq *cfsr_replay_cfs_rq(struct cfsr_replay *r, const char *path, int cpu);

/**
 * cfsr_replay_cfs_rq_settle() - a cfs_rq's signal as its update at @now gives it
 * @r: the engine
 * @cfs: the cfs_rq
 * @now: a PELT clock at or after its last update
 * @out: set to its signal: removed load applied, aged to @now with its
 *       current inputs (the cfs_rq itself is not changed)
 */
void cfsr_replay_cfs_rq_settle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			       uint64_t now, struct cfsr_sched_avg *out);

/**
 * cfsr_replay_gse_settle() - a group entity's signal as its update at @now gives it
 * @r: the engine
 * @g: the group cfs_rq whose entity it is
 * @now: a PELT clock at or after the entity's last update
 * @out: set to its signal aged to @now with its current inputs, by the
 *       profile's arithmetic (nothing in the engine is changed)
 */
void cfsr_replay_gse_settle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g, uint64_t now,
			    struct cfsr_sched_avg *out);

/**
 * cfsr_replay_tg_load_avg() - tg->load_avg of a cfs_rq's task group
 * @r: the engine
 * @cfs: a cfs_rq of the engine
 *
 * Return: the sum of the published contributions of the group's cfs_rqs
 * (0 for the root group, whose tg->load_avg the kernel does not keep).
 */
int64_t cfsr_replay_tg_load_avg(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs);

/**
 * cfsr_replay_group_shares() - group @path's tg->shares (scaled)
 *
 * As a write to cpu.shares or cpu.weight that no trace event shows (a
 * recorder's marker, a recorded trace's metadata): applied to the group at
 * once, or when the engine first meets it.  The next update_cfs_group()
 * of each of its group entities uses it.
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_replay_group_shares(struct cfsr_replay *r, const char *path, uint64_t shares);

/**
 * cfsr_replay_group_set_shares() - group @path's tg->shares changed at @ts
 *
 * Mirrors sched_group_set_shares() -> __sched_group_set_shares()
 * (kernel/sched/fair.c, v5.7-v6.18) at a change a kernel reading shows
 * (a PELT record's tg_shares, an autogroup's nice in a snapshot): the new
 * shares, then on every CPU whose clock the engine has, under the rq lock
 * after update_rq_clock(), update_load_avg(UPDATE_TG) and
 * update_cfs_group() of the group's entity and of each one above it.  A
 * group the engine has not met yet only takes the value
 * (cfsr_replay_group_shares()).  Counted in shares_changes.
 * Return: 1 if the engine reweighted, 0 if not, -1 after cfsr_error().
 */
int cfsr_replay_group_set_shares(struct cfsr_replay *r, const char *path, uint64_t shares,
				 uint64_t ts);

/* The same as a callback: @engine is the struct cfsr_replay. */
int cfsr_replay_group_shares_fn(void *engine, const char *path, uint64_t shares);

/**
 * cfsr_replay_group_idle() - group @path's cpu.idle is 1 (tg->idle, v5.15+)
 *
 * As stated by a recorded trace's metadata, before the events: its shares
 * are given apart (cfsr_replay_group_shares(), scale_load(WEIGHT_IDLEPRIO));
 * this makes its group entities se_is_idle() and the tasks below them count
 * in the h_nr_idle of the cfs_rqs above (for the v5.15+ profiles).
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_replay_group_idle(struct cfsr_replay *r, const char *path);

/* The same as a callback: @engine is the struct cfsr_replay. */
int cfsr_replay_group_idle_fn(void *engine, const char *path);

/**
 * cfsr_replay_task_set_idle_policy() - task @pid's policy is SCHED_IDLE or not
 *
 * As stated by a snapshot or a record (no trace event shows
 * sched_setscheduler()): its weight becomes scale_load(WEIGHT_IDLEPRIO), or
 * its prio's again, and its part in h_nr_idle follows.
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_replay_task_set_idle_policy(struct cfsr_replay *r, int pid, bool idle);

/* The same as a callback: @engine is the struct cfsr_replay. */
int cfsr_replay_task_idle_fn(void *engine, int tid, bool idle);

/* cfs_rq_is_idle(): @cfs is an idle group's (v5.15+ profiles). */
bool cfsr_replay_cfs_rq_is_idle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs);

/**
 * cfsr_replay_se_is_idle() - se_is_idle() of an entity on @cpu
 * @key: a task's pid, or a group's index negated (its group entity on @cpu)
 *
 * Return: a task's SCHED_IDLE policy; an idle group's entity (v5.15+).
 */
bool cfsr_replay_se_is_idle(const struct cfsr_replay *r, int key, int cpu);

/**
 * cfsr_replay_sched_idle_cpu() - sched_idle_cpu(): @cpu runs only idle fair work
 *
 * Every task queued on its root cfs_rq, delayed ones included, counts in
 * h_nr_idle (SCHED_IDLE, or under an idle group), and its current task is
 * one of them or the idle task (v5.4+ profiles; false before).
 */
bool cfsr_replay_sched_idle_cpu(const struct cfsr_replay *r, int cpu);

/**
 * cfsr_replay_group_created() - group @path was made within the trace
 *
 * As a recorder's marker says it (the group made just before), or a
 * cgroup_mkdir of the cpu controller's hierarchy when attaches are
 * followed (cfsr_replay_follow_attaches()): for the CFS profiles its cfs_rqs start at init_cfs_rq()'s min_vruntime and its
 * group entities at vruntime 0 (alloc_fair_sched_group()), so their first
 * placement is known (kernel/sched/fair.c, v3.8-v6.5).  Applied at once,
 * or when the engine first meets the group.
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_replay_group_created(struct cfsr_replay *r, const char *path);

/**
 * cfsr_replay_settle_ticks() - make the tick updates due by a time
 * @r: the engine
 * @ts: trace time of what comes next (a kernel reading, say)
 *
 * A run-time report no event of its CPU followed for a while was a tick's:
 * its update is made now, before what comes at @ts (cfsr_replay_event()
 * does the same before each event).
 */
void cfsr_replay_settle_ticks(struct cfsr_replay *r, uint64_t ts);

/**
 * cfsr_replay_pending_report() - the run-time report of a CPU waiting to be
 * settled
 * @r: the engine
 * @cpu: the CPU
 * @ts: set to the report's trace time
 * @clock: set to the clock of its update (the engine's PELT-side clock)
 *
 * Return: true if @cpu has one (settle_ticks() makes it a tick's once no
 * event of @cpu followed it within CFSR_REPLAY_PATH_NS).
 */
bool cfsr_replay_pending_report(const struct cfsr_replay *r, int cpu, uint64_t *ts,
				uint64_t *clock);

/**
 * cfsr_replay_settle_tick() - make @cpu's pending run-time report a tick's
 * update now
 * @r: the engine
 * @cpu: the CPU
 *
 * For a caller that knows, by looking ahead, that no event of @cpu follows
 * the report within CFSR_REPLAY_PATH_NS, and whose next reading of @cpu is
 * of a later path: the tick's update comes first, as in the kernel.
 */
void cfsr_replay_settle_tick(struct cfsr_replay *r, int cpu);

/**
 * cfsr_replay_cfs_rq_follow() - continue a cfs_rq from a kernel reading
 * @r: the engine
 * @cfs: the cfs_rq, its signal just set from the reading
 * @kernel_lut: the reading's last_update_time
 * @model_lut: the cfs_rq's last_update_time before the reading
 *
 * A pelt_cfs_tp reading fires inside update_load_avg(), before that
 * update's update_tg_load_avg().  When the engine has already made the
 * same update, its publication is made again from the kernel's values;
 * when it has still to make it, that update publishes as one that crossed
 * a period.
 *
 * Return: true when the update is still to be made (the caller says, with
 * cfsr_replay_cfs_rq_blocked(), when no event made it).
 */
bool cfsr_replay_cfs_rq_follow(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t kernel_lut,
			       uint64_t model_lut);

/**
 * cfsr_replay_cfs_rq_blocked() - a kernel update no event followed
 * @r: the engine
 * @group: the group (struct cfsr_cfs_rq's @group) of the cfs_rq
 *         cfsr_replay_cfs_rq_follow() left waiting
 * @cpu: its CPU
 * @kernel_lut: that reading's last_update_time
 * @ts: its time
 *
 * The update was __update_blocked_fair()'s (update_blocked_averages(),
 * from load balancing, without a trace event): its update_tg_load_avg() is
 * made at @ts, unless the engine updated the cfs_rq since.
 *
 * Return: 1 if it was made, 0 if not.
 */
int cfsr_replay_cfs_rq_blocked(struct cfsr_replay *r, int group, int cpu, uint64_t kernel_lut,
			       uint64_t ts);

/**
 * cfsr_replay_blocked_averages() - update_blocked_averages() of an older model on one CPU
 * @r: the engine
 * @cpu: the CPU
 * @ts: trace time at which the kernel aged the CPU's blocked load (a
 *      kernel record of a cfs_rq update no event followed, as for
 *      cfsr_replay_cfs_rq_blocked())
 * @clock: the CPU's PELT clock then, as the record gives it in the
 *         model's release's clock (cfsr_profile_clock_pelt()), or 0 for
 *         the engine's estimate at @ts
 *
 * The v3.8-v5.6 models run free of the kernel's values, so the periodic
 * and idle balance's ageing of every cfs_rq of the CPU is made here, in
 * the model's release's form (legacy __update_blocked_averages_cpu(),
 * v4.3-v5.6 update_cfs_rq_load_avg() with update_tg_load_avg(), group
 * entities from v4.10), at @clock.  One call per pass:
 * a second within CFSR_REPLAY_PATH_NS of the last on @cpu does nothing.
 * v5.7+ models take the kernel's values instead and do nothing here.
 *
 * Return: 1 if the pass was made, 0 if not.
 */
int cfsr_replay_blocked_averages(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock);

/**
 * cfsr_replay_group_take() - set a group cfs_rq's group state from a reading
 * @r: the engine
 * @cfs: a group cfs_rq of the engine (the root is left alone)
 * @se_weight: its group entity's weight; the parent's load.weight follows
 *             if the entity is queued
 * @contrib: its tg_load_avg_contrib
 * @tg_load_avg: its group's tg->load_avg, as read at the engine's current
 *               time, or -1 to leave @contrib and tg->load_avg alone
 * @shares: its group's tg->shares (scaled), or 0 to keep the model's
 *
 * For lock-step comparison with the kernel's values; the group entity's
 * signal is the caller's to set (@cfs->se_avg, @cfs->se_known).
 * tg->load_avg is the sum of the CPUs' contributions: where the reading's
 * differs from the engine's, on a machine whose group has one other CPU,
 * that CPU published what the engine has not made yet (an update the
 * engine makes later than the kernel, a tick's); the difference is its,
 * made when its last reading was taken, so that its later update does
 * not publish it twice and the reads in between see it (tg_load_at()).
 */
void cfsr_replay_group_take(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t se_weight,
			    uint64_t contrib, int64_t tg_load_avg, uint64_t shares);

/* The cfs_rq's signal still depends on its unknown past. */
bool cfsr_cfs_rq_warming(const struct cfsr_cfs_rq *cfs, uint64_t now);

/**
 * cfsr_replay_clock_peek() - a CPU's PELT clock at trace time @ts, as the model estimates it
 * @r: the engine
 * @cpu: the CPU
 * @ts: trace time, at or after the CPU's last event
 * @clock: set to the clock
 *
 * Return: false if the CPU has no usable clock yet.
 */
bool cfsr_replay_clock_peek(const struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t *clock);

/**
 * cfsr_replay_task_avg_at() - a task's signal as an update at trace time @ts would give it
 * @r: the engine
 * @t: a task of the engine
 * @ts: trace time, at or after the last event
 * @out: set to the signal: a pending enqueue applied, then aged to the
 *       CPU's clock at @ts with the task's current inputs (the task itself
 *       is not changed)
 *
 * Return: false if the task is not fair, has no signal yet or any more
 * (dead), or its CPU no clock.
 */
bool cfsr_replay_task_avg_at(const struct cfsr_replay *r, const struct cfsr_task *t, uint64_t ts,
			     struct cfsr_sched_avg *out);

/* cfsr_replay_pick_tree() results that are not a pid */
enum {
	/* no fair entity is queued on the CPU: it would run idle (or another class) */
	CFSR_PICK_TREE_IDLE = -1,
	/* the model cannot say: no EEVDF profile, a level with no eligible entity, bad CPU */
	CFSR_PICK_TREE_UNKNOWN = -2,
};

/**
 * cfsr_replay_pick_tree() - the task the model's fair pick would run next on @cpu
 * @r: the engine
 * @cpu: the CPU
 *
 * Through the hierarchy, on the run queue as it stands (the running task
 * a candidate; for the pick of a __schedule(), with how its prev leaves,
 * see cfsr_replay_pick()): pick_task_fair() on the CPU's state as it stands (v6.6-v6.18 EEVDF
 * profiles): pick_eevdf() at the root cfs_rq, then inside the group
 * entity it chose, down to a task; a delayed entity met on the way is
 * dequeued as the kernel's pick does (DELAY_DEQUEUE, v6.12+), with the
 * group entities that dequeue empties, and the pick starts again.  Nothing
 * in the engine changes: the dequeues are taken into account only for this
 * answer.  RUN_TO_PARITY and buddies are not modelled: the running task is
 * one candidate among the others.
 *
 * Return: the pid, CFSR_PICK_TREE_IDLE if nothing fair is queued, or
 * CFSR_PICK_TREE_UNKNOWN.
 */
int cfsr_replay_pick_tree(const struct cfsr_replay *r, int cpu);

/* The cfs_rq of task group @group on @cpu, NULL if none (borrowed until the next event). */
const struct cfsr_cfs_rq *cfsr_replay_group_cfs_rq(const struct cfsr_replay *r, int group, int cpu);

/* The path of task group @group ("/" the root), NULL if none (borrowed). */
const char *cfsr_replay_group_path(const struct cfsr_replay *r, int group);

/* Number of tasks, and the task at @i (borrowed until the next event). */
size_t cfsr_replay_nr_tasks(const struct cfsr_replay *r);
const struct cfsr_task *cfsr_replay_task_at(const struct cfsr_replay *r, size_t i);

/* Number of cfs_rqs, and the cfs_rq at @i (borrowed until the next event). */
size_t cfsr_replay_nr_cfs_rqs(const struct cfsr_replay *r);
const struct cfsr_cfs_rq *cfsr_replay_cfs_rq_at(const struct cfsr_replay *r, size_t i);

/*
 * Read-only walks of the hierarchy, for callers that compute the load
 * balancer's view (lib/cpuload.c).  Borrowed until the next event.
 */
/* The cfs_rq the task is queued on (or was last), NULL if it has no CPU. */
const struct cfsr_cfs_rq *cfsr_replay_task_cfs_rq(const struct cfsr_replay *r,
						  const struct cfsr_task *t);
/* The cfs_rq its group entity is queued on (same CPU), NULL for a root. */
const struct cfsr_cfs_rq *cfsr_replay_cfs_rq_parent(const struct cfsr_replay *r,
						    const struct cfsr_cfs_rq *cfs);
/**
 * struct cfsr_pick_entity - a task as a pick sees it
 * @pid: the task, 0 if none
 * @runnable: it takes part in the pick: queued on the CPU and not delayed,
 *            or the running task when it stays runnable
 * @eligible: vruntime_eligible() against the cfs_rq's average at the pick
 * @vruntime: se->vruntime
 * @deadline: se->deadline
 * @group: a group entity at the level where the picks part: the group
 *         whose cfs_rq it runs (@pid is then the task below it); 0 a task
 */
struct cfsr_pick_entity {
	int pid;
	bool runnable;
	bool eligible;
	uint64_t vruntime;
	uint64_t deadline;
	int group;
};

/**
 * struct cfsr_pick_query - the __schedule() whose fair pick is asked for
 * @prev_pid: the task leaving the CPU (sched_switch's prev), 0 for idle
 * @prev_sleeps: it blocks (not preempted, prev_state not R)
 * @prev_special: it is exiting (DEQUEUE_SPECIAL: never delayed)
 * @prev_protected: RUN_TO_PARITY still protects it: its deadline is the one
 *                  it had when it was last switched in (the caller keeps that)
 * @other_pid: a task to describe as well (the one the kernel ran), 0 none
 * @buddies: CFS profiles: the buddies the cfs_rq may hold (the caller
 *           keeps them from the events), NULL for none
 * @next_buddy: with task groups: the group whose entity is cfs_rq->next of
 *              @cfs (set_next_buddy() of a dequeue the caller kept,
 *              cfsr_pick.buddies), 0 none; NULL: none anywhere
 * @gse_protected: EEVDF profiles: RUN_TO_PARITY still protects group @cfs's
 *                 entity, the running entity of its parent (its deadline is
 *                 the one it had at its set_next_entity()); NULL: never
 * @data: passed to @next_buddy and @gse_protected
 */
struct cfsr_cfs_buddies;
struct cfsr_cfs_rq;
struct cfsr_pick_query {
	int prev_pid;
	bool prev_sleeps;
	bool prev_special;
	bool prev_protected;
	int other_pid;
	const struct cfsr_cfs_buddies *buddies;
	int (*next_buddy)(const void *data, const struct cfsr_cfs_rq *cfs);
	bool (*gse_protected)(const void *data, const struct cfsr_cfs_rq *cfs);
	const void *data;
};

/* Group entities one pick makes next buddies, at most. */
#define CFSR_PICK_MAX_BUDDIES 8

/**
 * struct cfsr_pick - the model's fair pick on a CPU
 * @picked: the task picked (pid 0: none, the CPU goes idle)
 * @other: the query's @other_pid at the pick
 * @avg_vruntime: avg_vruntime() of the cfs_rq at the pick
 * @nr_runnable: runnable fair tasks taking part (delayed ones not counted)
 * @nr_delayed_done: delayed tasks the pick dequeued before its choice
 * @kept_curr: RUN_TO_PARITY kept the running task
 * @tie: another eligible task had the picked task's deadline (the kernel
 *       takes the one queued first, which the model does not know)
 * @group: the task group of the cfs_rq the pick was made on (0: root)
 * @min_vruntime: CFS profiles: the cfs_rq's min_vruntime at the pick
 * @buddy: CFS profiles: the pick is a buddy's, not the leftmost; EEVDF
 *         with task groups: the level's choice was its next buddy
 *         (PICK_BUDDY)
 * @level: with task groups: the depth (0: the root cfs_rq) of the
 *         level at which the model's choice and the entity on the path to
 *         @other first differ, -1 where they do not (or without groups);
 *         @picked, @other, @avg_vruntime, @kept_curr, @tie, @buddy and
 *         @group are then that level's, the entities named by the tasks
 *         below them
 * @groups: the pick was made through group entities (the queued tasks on
 *          more than one cfs_rq)
 * @nr_buddies: with task groups: group entities made next buddies
 *              by the dequeues of the pick (prev's sleep, delayed
 *              entities completed), in order; @buddies: their groups
 */
struct cfsr_pick {
	struct cfsr_pick_entity picked;
	struct cfsr_pick_entity other;
	uint64_t avg_vruntime;
	unsigned int nr_runnable;
	unsigned int nr_delayed_done;
	bool kept_curr;
	bool tie;
	int group;
	uint64_t min_vruntime;
	bool buddy;
	int level;
	bool groups;
	unsigned int nr_buddies;
	int buddies[CFSR_PICK_MAX_BUDDIES];
};

/* Why cfsr_replay_pick() gives no answer (negative returns). */
enum cfsr_pick_status {
	/* the CPU's current task is unknown to the model, or not the query's prev */
	CFSR_PICK_NO_STATE = -1,
	/* the CPU's queued fair tasks are not all on one cfs_rq and cannot be judged (not returned now) */
	CFSR_PICK_GROUPS = -2,
	/* CFS profiles: the pick depends on buddies the caller could not rule out */
	CFSR_PICK_BUDDIES = -3,
	/* CFS profiles: a runnable task's vruntime derives from the start policy */
	CFSR_PICK_VR_UNKNOWN = -4,
};

/**
 * cfsr_replay_pick() - the task the model's fair pick would run next on @cpu
 * @r: the engine, before it replays the sched_switch in question
 * @cpu: the CPU
 * @q: the switch: its prev and how prev leaves
 * @out: set to the pick and the figures behind it
 *
 * Read-only: the engine is not changed.  pick_eevdf() as the model
 * mirrors it (EEVDF profiles): on the one cfs_rq the CPU's queued fair
 * tasks sit on, or through the group entities level by level
 * (pick_task_fair(), with the next buddies and protections @q gives; the
 * level where the choice leaves the path to @q->other_pid is
 * cfsr_pick.level); or CFS's pick_next_entity() over the tasks' vruntimes
 * with the buddies of @q (CFS profiles, lib/cfspick.h), on one cfs_rq or
 * level by level through the group entities' CFS vruntimes
 * (pick_next_task_fair()): see the comments at the functions.
 * Return: the pid picked, 0 when no fair task is runnable, or a negative
 * enum cfsr_pick_status.
 */
int cfsr_replay_pick(const struct cfsr_replay *r, int cpu, const struct cfsr_pick_query *q,
		     struct cfsr_pick *out);

/**
 * cfsr_replay_cfs_match() - find_matching_se() of two tasks, CFS profiles
 * @r: the engine
 * @a: one task (check_preempt_wakeup()'s curr)
 * @b: the other (the woken task)
 * @se: set to @a's entity on the lowest cfs_rq both lie below, with its CFS
 *      vruntime and weight; its pid the task's, or for a group entity its
 *      group negated
 * @pse: the same for @b
 * @guessed: set when either vruntime derives from the start policy
 *
 * Return: 0, or -1 when the two are not fair tasks on one CPU.
 */
struct cfsr_cfs_ent;
int cfsr_replay_cfs_match(const struct cfsr_replay *r, const struct cfsr_task *a,
			  const struct cfsr_task *b, struct cfsr_cfs_ent *se,
			  struct cfsr_cfs_ent *pse, bool *guessed);

/*
 * CFS profiles: the tunables the engine's CFS rules use (lib/cfspick.h);
 * borrowed until cfsr_replay_free().
 */
struct cfsr_cfs_tunables;
const struct cfsr_cfs_tunables *cfsr_replay_cfs_tunables(const struct cfsr_replay *r);

/**
 * struct cfsr_eevdf - an entity's EEVDF state as a kernel reading gives it
 * @queued: the entity is on its cfs_rq (se->on_rq)
 * @vruntime: se->vruntime
 * @deadline: se->deadline, relative to @vruntime if @rel_deadline
 * @vlag: se->vlag (read only when not @queued: the kernel's union holds
 *        vprot while the entity is queued, v6.19+)
 * @slice: se->slice
 * @rel_deadline: se->rel_deadline
 */
struct cfsr_eevdf {
	bool queued;
	uint64_t vruntime;
	uint64_t deadline;
	int64_t vlag;
	uint64_t slice;
	bool rel_deadline;
};

/**
 * struct cfsr_eevdf_sums - a cfs_rq's EEVDF sums as a kernel reading gives them
 * @zero_vruntime: their base (cfs_rq->zero_vruntime; min_vruntime before v6.18)
 * @avg_vruntime: cfs_rq->avg_vruntime (sum_w_vruntime from v6.19)
 * @avg_load: cfs_rq->avg_load (sum_weight from v6.19)
 * @curr_vruntime: vruntime of cfs_rq->curr, if it is queued
 * @curr_weight: its se->load.weight (scaled), 0 without a queued curr
 */
struct cfsr_eevdf_sums {
	uint64_t zero_vruntime;
	int64_t avg_vruntime;
	uint64_t avg_load;
	uint64_t curr_vruntime;
	uint64_t curr_weight;
};

/**
 * cfsr_replay_task_take_eevdf() - set a task's EEVDF state from a kernel reading
 * @r: the engine
 * @t: the task
 * @k: the reading
 *
 * Taken only where the engine agrees the task is (not) queued.  A queued
 * task takes its vruntime (if its cfs_rq is in the kernel's frame, see
 * cfsr_replay_cfs_rq_take_eevdf()), deadline and slice, its cfs_rq's sums
 * following the change of its vruntime; a task off its cfs_rq takes its
 * vlag, slice and relative deadline, which its next placement reads.
 * EEVDF profiles only.
 * Return: 1 if anything was taken, 0 if not.
 */
int cfsr_replay_task_take_eevdf(struct cfsr_replay *r, struct cfsr_task *t,
				const struct cfsr_eevdf *k);

/**
 * cfsr_replay_gse_lag_guessed() - whether a group entity's saved lag descends from a guess
 * @r: the engine
 * @g: the group cfs_rq whose entity it is
 *
 * Return: true if its se->vlag is a lag from before the trace, which the
 * engine takes as 0, or was saved from a vruntime a placement of such a
 * lag gave (@se_lag_guessed); false if the engine's replay (or a kernel
 * reading) set it, or the trace made its group (a new entity's lag is 0).
 */
bool cfsr_replay_gse_lag_guessed(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g);

/**
 * cfsr_replay_task_take_dequeued() - a kernel reading shows a delayed task dequeued
 * @r: the engine
 * @t: the task, kept delayed by the engine (CFSR_TS_DELAYED)
 *
 * A reading with se->on_rq 0 is of a task the kernel has dequeued: its
 * delayed dequeue was completed by a pick the engine did not make
 * (pick_next_entity() -> dequeue_entities(DEQUEUE_DELAYED), v6.12-v6.18),
 * or the kernel never delayed it.  The engine dequeues it as that pick
 * would (its cfs_rq's counts and weight, the levels above); its lag is
 * the reading's (cfsr_replay_task_take_eevdf()), its signal the caller's.
 * EEVDF profiles only.
 * Return: 1 if the task was dequeued, 0 if not.
 */
int cfsr_replay_task_take_dequeued(struct cfsr_replay *r, struct cfsr_task *t);

/**
 * cfsr_replay_task_take_delayed() - a kernel reading shows a sleeping task still queued
 * @r: the engine
 * @t: the task, asleep in the engine (CFSR_TS_SLEEPING)
 * @cpu: the CPU whose run queue the reading is of
 *
 * A reading with se->on_rq and se->sched_delayed set is of a task the
 * kernel kept queued at its sleep (dequeue_entity(): DELAY_DEQUEUE of an
 * ineligible entity, v6.12-v6.18) where the engine dequeued it, or whose
 * delayed dequeue no pick completed yet where the engine's did.  The
 * engine queues it again, delayed, on that CPU's cfs_rq (its counts and
 * weight, the levels above); its vruntime and deadline are the reading's
 * (cfsr_replay_task_take_eevdf()), its signal the caller's.
 * Return: 1 if the task was queued again, 0 if not.
 */
int cfsr_replay_task_take_delayed(struct cfsr_replay *r, struct cfsr_task *t, int cpu);

/*
 * cfsr_replay_task_take_weight() - a kernel reading of @t's load weight:
 * where it is another nice level's than the model's, the task's nice was
 * changed with no trace event (set_user_nice() -> set_load_weight(), with
 * reweight_task() of a fair task, kernel/sched/core.c, v5.7-v6.18) and the
 * model takes it, with its cfs_rq's weight.  A reading of
 * scale_load(WEIGHT_IDLEPRIO) is a SCHED_IDLE task's (set_load_weight(),
 * v3.8-v6.18), which no trace event shows (sched_switch gives its prio,
 * 120 for nice 0): the task keeps that weight, and WMULT_IDLEPRIO, at any
 * prio until a reading of a nice level's weight.  Returns 1 if it changed.
 */
int cfsr_replay_task_take_weight(struct cfsr_replay *r, struct cfsr_task *t, uint64_t weight);

/*
 * cfsr_replay_task_take_exec_start() - a kernel reading of a running task's
 * se.exec_start (lock-step): the rq clock_task of its last update_curr(),
 * or of its set_next_entity() when none came since.  Where the task has had
 * no update since the model's switch into it and the model's switch clock
 * is another (an estimate across a lost report, or a chain off by an
 * update the trace does not show), the switch's update of the task is made
 * again at the kernel's clock and the run-time chain starts there (the
 * cfs_rq updates made at the model's clock stay).  Returns 1 if it did.
 */
int cfsr_replay_task_take_exec_start(struct cfsr_replay *r, struct cfsr_task *t,
				     uint64_t exec_start);

/*
 * cfsr_replay_cfs_rq_take_queued() - a kernel reading of @cfs's load.weight
 * and nr_queued (lock-step, v6.12-v6.18 with DELAY_DEQUEUE).  Where the
 * model has one entity more than the kernel, kept delayed, of exactly the
 * weight the kernel lacks, the kernel had dequeued it (at its sleep,
 * eligible, or at a pick): it is dequeued, its lag taken as 0 (the
 * kernel's was >= 0 at such a sleep, <= 0 after a delayed one); a delayed
 * group entity is dequeued with the delayed tasks below it.  Where the
 * kernel has one entity more, of the weight of a task of @cfs that slept
 * since the previous such reading, the kernel kept the last of them
 * delayed: it is made delayed again.  A task the model has waiting since
 * a wakeup (not running), of exactly the weight the kernel lacks, ran and
 * blocked in switches the trace lost: it is taken as asleep since
 * (counted in lost_sleeps).  Returns 1 if it changed a state.
 */
int cfsr_replay_cfs_rq_take_queued(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t weight,
				   unsigned int nr_queued);

/**
 * cfsr_replay_gse_take_eevdf() - the same for the group entity of cfs_rq @g
 * @r: the engine
 * @g: the group cfs_rq whose entity the reading is of
 * @k: the reading
 * Return: as cfsr_replay_task_take_eevdf().
 */
int cfsr_replay_gse_take_eevdf(struct cfsr_replay *r, struct cfsr_cfs_rq *g,
			       const struct cfsr_eevdf *k);

/**
 * cfsr_replay_cfs_rq_take_eevdf() - put a cfs_rq in the kernel's vruntime frame
 * @r: the engine
 * @cfs: the cfs_rq
 * @k: the kernel's sums
 *
 * The first reading moves every entity on @cfs (vruntimes, absolute
 * deadlines) by the difference between the kernel's avg_vruntime() and the
 * engine's, so that vruntimes read from the kernel later fit among them;
 * every reading then moves the base of the sums to the kernel's
 * (update_zero_vruntime(): a change of base, which changes neither the
 * average nor any eligibility).  EEVDF profiles only.
 * Return: 1 if the engine's sums then equal the kernel's, 0 if not, -1 if
 * nothing was taken.
 */
int cfsr_replay_cfs_rq_take_eevdf(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs,
				  const struct cfsr_eevdf_sums *k);

#endif /* CFSR_REPLAY_H */

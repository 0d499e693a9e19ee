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
 *
 * This version models task entities only; cgroups, autogroups and the
 * cfs_rq signals are not modelled yet, nor is EEVDF eligibility (so no
 * delayed dequeue: a task that blocks is dequeued at once).
 */
#ifndef CFSR_REPLAY_H
#define CFSR_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "pelt.h"

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
 * @exec_start: rq clock_task when its run time was last accounted
 * @exec_known: @exec_start is set (by a switch into the task or a reading),
 *              so its run-time reports chain from it
 * @avg_known: @avg has a known origin (fork seen, or set from a reading)
 * @warm_until: for a task already running when the trace began, the clock
 *              until which its signal still holds its unknown past (see
 *              cfsr_task_warming())
 * @migrated: its signal must be attached on its next enqueue
 * @ue_sampled: util_est was sampled for the current sleep
 * @enq_pending: woken, but the enqueue's update (aging the sleep) not yet
 *               applied: it is applied, at the earlier of @enq_clock and
 *               the next update's clock, when the task is next updated
 * @enq_clock: estimated clock of the enqueue
 * @enq_ts: trace time of the last wakeup
 * @updates: PELT updates applied
 */
struct cfsr_task {
	int pid;
	int cpu;
	int prio;
	enum cfsr_task_state state;
	bool fair;
	struct cfsr_sched_avg avg;
	uint64_t load_weight;
	uint64_t exec_start;
	bool exec_known;
	bool avg_known;
	uint64_t warm_until;
	bool migrated;
	bool ue_sampled;
	bool enq_pending;
	uint64_t enq_clock;
	uint64_t enq_ts;
	uint64_t updates;
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
};

/**
 * struct cfsr_replay_update - one model update of a task's signal
 * @ts: trace time of the event that caused it
 * @cpu: run queue
 * @task: the task, after the update (borrowed until the next event)
 * @why: the kernel path it mirrors
 * @clock_exact: the PELT clock came from a run-time chain, not an estimate
 */
struct cfsr_replay_update {
	uint64_t ts;
	int cpu;
	const struct cfsr_task *task;
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
 * @unseen_switch_outs: switches whose prev was not the task the model had
 *                      running: that task left without a trace event
 * @unanchored_updates: updates whose clock was extrapolated with no anchor
 * @estimated_updates: updates on an extrapolated clock
 * @lost_notices: lost-events notices seen (state after them is degraded)
 */
struct cfsr_replay_stats {
	uint64_t events;
	uint64_t updates;
	uint64_t recovered_switches;
	uint64_t unseen_switch_outs;
	uint64_t unanchored_updates;
	uint64_t estimated_updates;
	uint64_t lost_notices;
};

struct cfsr_replay;

/**
 * cfsr_replay_new() - an engine for @nr_cpus CPUs
 * @nr_cpus: CPUs of the traced machine
 * @params: the kernel's PELT behaviour (a profile's parameters)
 *
 * Return: an owned engine, to be released with cfsr_replay_free(), or NULL.
 */
struct cfsr_replay *cfsr_replay_new(int nr_cpus, const struct cfsr_pelt_params *params);

void cfsr_replay_free(struct cfsr_replay *r);

/* Call @fn for every task PELT update. */
void cfsr_replay_set_hook(struct cfsr_replay *r, cfsr_replay_hook fn, void *data);

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

#endif /* CFSR_REPLAY_H */

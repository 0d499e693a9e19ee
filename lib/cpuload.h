/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU load as the load balancer sees it: the one place where the
 * comparators use the replay engine.
 *
 * A CPU's load is cpu_load(): the load_avg of its root cfs_rq, read at the
 * instant of the last event (aged to it, removed load applied, as
 * update_blocked_averages() leaves it before a balance).  It holds the
 * blocked load of tasks that slept or left and the group entities, each
 * weighing what calc_group_shares() gives its group's shares on that CPU.
 * A task's load is task_h_load(): its load_avg scaled through its
 * hierarchy, what detach_tasks() compares with the imbalance.
 *
 * Groups are known when the trace says them (snapshots of a recorded
 * trace, cfsr-mkdir/cfsr-move markers); otherwise every task is in the
 * root group, and a group's shares are the default (cpu.shares 1024)
 * unless a marker states them (cfsr_cpuload_groups() tells which).
 */
#ifndef CFSR_CPULOAD_H
#define CFSR_CPULOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "profile.h"
#include "replay.h"

/* Label of the load this module returns, for output headers and JSON. */
#define CFSR_CPULOAD_KIND "root-cfs_rq-load_avg"

/**
 * struct cfsr_cpuload_groups - where the tasks' groups and shares came from
 * @snapshot_tasks: tasks put in a non-root group by cfsr_cpuload_set_group()
 * @marker_moves: moves a group marker made ("cfsr-move pid=N path=P" or
 *                "to=P", "cfsr-task pid=N ... cgroup=P"), each replayed at
 *                the marker as sched_move_task() (cfsr_replay_task_move_group())
 * @shares_given: groups whose cpu.shares a "cfsr-mkdir path=P shares=N" marker or a
 *                recorded trace's metadata stated (cfsr_cpuload_set_shares())
 * @bad_markers: cfsr-mkdir/cfsr-move markers that could not be read
 * @cgroup_attaches: cgroup_attach_task events replayed (tasks moved between
 *                   cgroups of some hierarchy)
 * @attach_moves: of those, the moves of the cpu controller's hierarchy the
 *                engine made (cfsr_replay_follow_attaches(); a marker that
 *                follows finds the task moved)
 * @groups: non-root groups the engine holds
 */
struct cfsr_cpuload_groups {
	uint64_t snapshot_tasks;
	uint64_t marker_moves;
	uint64_t shares_given;
	uint64_t bad_markers;
	uint64_t cgroup_attaches;
	uint64_t attach_moves;
	uint64_t groups;
};

/**
 * struct cfsr_h_level - one level of a task's hierarchy below the root
 * @se_load_avg: the group entity's load_avg, on the level above
 * @cfs_load_avg: the group's cfs_rq's load_avg on the task's CPU
 */
struct cfsr_h_level {
	uint64_t se_load_avg;
	uint64_t cfs_load_avg;
};

/**
 * cfsr_task_h_load() - a task's load as seen from the root cfs_rq
 * @root_load_avg: cfs_rq_load_avg() of the root
 * @lv: the levels from the one below the root down to the task's cfs_rq
 * @n: their number (0: the task is in the root group)
 * @task_load_avg: the task's se.avg.load_avg
 *
 * Mirrors update_cfs_rq_h_load() and task_h_load() in kernel/sched/fair.c,
 * v5.7-v6.18: the root's h_load is its load_avg; each level's h_load is
 * the parent's h_load * the group entity's load_avg / (the parent's
 * load_avg + 1); the task's is its load_avg * its cfs_rq's h_load / (that
 * cfs_rq's load_avg + 1), all in integer division.  Before v5.7 the
 * root's and the divisors were runnable_load_avg.
 * Differs: the kernel keeps h_load for a jiffy (last_h_load_update); here
 * it is computed from the values given.
 * Return: the h_load (@task_load_avg for @n = 0).
 */
uint64_t cfsr_task_h_load(uint64_t root_load_avg, const struct cfsr_h_level *lv, size_t n,
			  uint64_t task_load_avg);

struct cfsr_cpuload;

/**
 * cfsr_cpuload_new() - a replay engine and the per-CPU sums kept from it
 * @nr_cpus: CPUs of the traced machine
 * @prof: the kernel model profile
 * @hz: the traced kernel's HZ, 0 when the trace does not say
 * @win_start: time averages count from here
 * @win_end: to here (UINT64_MAX: the end)
 * Return: owned, released with cfsr_cpuload_free(); NULL after cfsr_error().
 */
struct cfsr_cpuload *cfsr_cpuload_new(int nr_cpus, const struct cfsr_profile *prof, int hz,
				      uint64_t win_start, uint64_t win_end);

void cfsr_cpuload_free(struct cfsr_cpuload *cl);

/**
 * cfsr_cpuload_event() - replay one event (time order)
 *
 * A recorder's group marker is taken too: "cfsr-mkdir path=P shares=N"
 * gives group P its cpu.shares; "cfsr-move pid=N path=P" (or "to=P") and
 * "cfsr-task pid=N ... cgroup=P" move task N to group P there, as
 * sched_move_task() does.  A path under /sys/fs/cgroup is taken relative
 * to the cpu controller's mount.  Differs: the recorders write the marker
 * just after the move, which cgroup_attach_task shows a fraction of a
 * millisecond earlier.
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_cpuload_event(struct cfsr_cpuload *cl, const struct cfsr_event *ev);

/* Clock readings will be given (cfsr_replay_expect_clock()); call before the first event. */
void cfsr_cpuload_expect_clock(struct cfsr_cpuload *cl);

/* A run queue's clock reading for the engine (cfsr_replay_clock_sample()). */
void cfsr_cpuload_clock(struct cfsr_cpuload *cl, int cpu, uint64_t ts, uint64_t clock_task);

/* Put a task in its task group (cfsr_replay_task_set_group()); return -1 on failure. */
int cfsr_cpuload_set_group(struct cfsr_cpuload *cl, int pid, const char *group);

/* Where the groups and shares came from, so far. */
void cfsr_cpuload_groups(const struct cfsr_cpuload *cl, struct cfsr_cpuload_groups *out);

/* The CPU's load now, cpu_load() (before the next event is replayed). */
uint64_t cfsr_cpuload_now(const struct cfsr_cpuload *cl, int cpu);

/*
 * The CPU's cpu_util_cfs() now: its root cfs_rq's util_avg (aged as
 * cfsr_cpuload_now()), or its util_est sum when the profile keeps
 * UTIL_EST and that is larger, at most SCHED_CAPACITY_SCALE.
 */
uint64_t cfsr_cpuload_util(const struct cfsr_cpuload *cl, int cpu);

/* The CPU's cpu_runnable() now: its root cfs_rq's runnable_avg (v5.7+ models; 0 before). */
uint64_t cfsr_cpuload_runnable(const struct cfsr_cpuload *cl, int cpu);

/*
 * A task's task_util_est() now (max of its util_avg, aged to the last
 * event, and its util_est without UTIL_AVG_UNCHANGED; util_avg alone for
 * a v3.8-v5.6 model), 0 for a task the engine does not know.
 */
uint64_t cfsr_cpuload_task_util(const struct cfsr_cpuload *cl, int pid);

/**
 * cfsr_cpuload_task() - a task's task_h_load() now and whether it is counted
 * @cpu: set to the CPU it is counted on, -1 when not queued or running
 * Return: its h_load (cfsr_task_h_load(), the signals aged to the last
 * event), 0 for a task not counted.
 */
uint64_t cfsr_cpuload_task(const struct cfsr_cpuload *cl, int pid, int *cpu);

/* Fair tasks queued or running on the CPU now. */
int cfsr_cpuload_nr(const struct cfsr_cpuload *cl, int cpu);

/*
 * Group @path's tg->shares (scaled: cfsr_group_shares_from_v1()/_v2()), from
 * a recorder's marker or a recorded trace's metadata; kept for the group
 * when the engine meets it later.  Return -1 after cfsr_error().
 */
int cfsr_cpuload_set_shares(struct cfsr_cpuload *cl, const char *path, uint64_t shares);

/*
 * The @i-th group whose shares were stated (cfsr_cpuload_set_shares()), in
 * the order first stated: its path, and in @shares the last tg->shares
 * stated (scaled).  NULL past the last one.
 */
const char *cfsr_cpuload_stated_shares(const struct cfsr_cpuload *cl, size_t i, uint64_t *shares);

/* The engine (borrowed: the pick check asks it, the per-CPU load replays the events). */
struct cfsr_replay *cfsr_cpuload_engine(struct cfsr_cpuload *cl);

/*
 * sched_idle_cpu() of @cpu as the engine has it now: its fair work all
 * idle (cfsr_replay_sched_idle_cpu()).
 */
bool cfsr_cpuload_sched_idle(const struct cfsr_cpuload *cl, int cpu);

/* The pids counted on the CPU now (borrowed until the next event); return their number. */
size_t cfsr_cpuload_on(const struct cfsr_cpuload *cl, int cpu, const int **pids);

/* The task is counted on a CPU and waits there (queued, not running). */
bool cfsr_cpuload_waiting(const struct cfsr_cpuload *cl, int pid);

/* The task's last name as the engine knows it ("" when unknown). */
const char *cfsr_cpuload_comm(const struct cfsr_cpuload *cl, int pid);

/* The engine's counts (updates, estimated and unanchored clock values). */
const struct cfsr_replay_stats *cfsr_cpuload_replay_stats(const struct cfsr_cpuload *cl);

/* The time average of the CPU's load over the window (the load after each event held until the next). */
uint64_t cfsr_cpuload_mean(const struct cfsr_cpuload *cl, int cpu);

#endif /* CFSR_CPULOAD_H */

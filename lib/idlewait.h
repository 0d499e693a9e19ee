/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Idle while waiting: the "wasted cores" comparator.
 *
 * From the event stream alone (no model), each CPU is in one of these
 * states, by definition:
 *
 *   unknown     before the CPU's first sched_switch
 *   idle        it runs its idle task and no task waits on it
 *   busy        it runs a task and no other task waits on it
 *   overloaded  it runs a task and at least one other task waits on it
 *   pending     it runs its idle task while a task waits on it (a wakeup
 *               not yet switched in); neither idle nor overloaded
 *
 * A task waits on a CPU from a sched_wakeup or sched_wakeup_new naming that
 * CPU, or from a sched_switch that leaves it runnable there (preempted or
 * yielding), until it is switched in or a sched_migrate_task moves it; a
 * migration moves the wait to the destination.
 *
 * Totals, integrated over time between events:
 *   wall_ns              time with at least one idle and one overloaded CPU
 *   cpu_ns               integral of min(#idle, #overloaded)
 *   allowed_cpu_ns       the same, pairing an idle CPU with an overloaded one
 *                        only when one of its waiting tasks is allowed on the
 *                        idle CPU (maximum matching)
 *   unknown_affinity_cpu_ns  the further pairs that need a task whose affinity
 *                        changed to a mask the trace does not hold
 *   affinity_bound_cpu_ns    cpu_ns minus both: pairs that affinity forbids
 *
 * Maximal intervals of wall time are episodes; they are split at the
 * balance interval into long and transient ones and the longest are kept
 * (top N), so memory grows with tasks and CPUs only.
 */
#ifndef CFSR_IDLEWAIT_H
#define CFSR_IDLEWAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

enum cfsr_cpu_state {
	CFSR_CPU_UNKNOWN,
	CFSR_CPU_IDLE,
	CFSR_CPU_BUSY,
	CFSR_CPU_OVERLOADED,
	CFSR_CPU_PENDING,
};

/* Where a task's CPU affinity comes from. */
enum cfsr_affinity {
	/* no change seen: taken as every CPU, the kernel's default */
	CFSR_AFF_ASSUMED,
	/* a "cfsr-affinity" marker gave the mask */
	CFSR_AFF_MARKER,
	/* a per-CPU kernel thread ("name/N"): bound to CPU N */
	CFSR_AFF_KTHREAD,
	/* sched_setaffinity() was called; the new mask is not in the trace */
	CFSR_AFF_CHANGED,
};

/* Is a task allowed on a CPU? */
enum cfsr_allowed {
	CFSR_ALLOWED_NO,
	CFSR_ALLOWED_YES,
	CFSR_ALLOWED_UNKNOWN,
};

#define CFSR_IWW_EP_PIDS 4

/**
 * struct cfsr_iww_params - what to measure
 * @nr_cpus: CPUs of the traced machine
 * @balance_interval_ns: episodes longer than this are "long"
 * @top_n: episodes kept, longest first
 * @win_start: count only time at or after this trace time
 * @win_end: and before this one (UINT64_MAX: the end)
 * @filter_cpu: keep only episodes involving this CPU, -1 all
 * @filter_pid: keep only episodes in which this task waits, -1 all
 */
struct cfsr_iww_params {
	int nr_cpus;
	uint64_t balance_interval_ns;
	int top_n;
	uint64_t win_start;
	uint64_t win_end;
	int filter_cpu;
	int filter_pid;
};

/**
 * struct cfsr_iww_episode - one interval of wall time
 * @start: trace time it began (clipped to the window)
 * @end: trace time it ended
 * @cpu_ns: its part of cpu_ns; @allowed_cpu_ns, @unknown_affinity_cpu_ns likewise
 * @idle_cpu: an idle CPU when it began
 * @busy_cpu: an overloaded CPU when it began
 * @cpus: bit n set when CPU n (n < 64) was idle or overloaded in it
 * @nr_pids: waiting tasks recorded in @pids (the first ones seen)
 * @open: still going on at the end of the trace
 */
struct cfsr_iww_episode {
	uint64_t start;
	uint64_t end;
	uint64_t cpu_ns;
	uint64_t allowed_cpu_ns;
	uint64_t unknown_affinity_cpu_ns;
	int idle_cpu;
	int busy_cpu;
	uint64_t cpus;
	int nr_pids;
	int pids[CFSR_IWW_EP_PIDS];
	bool open;
};

/**
 * struct cfsr_iww_cpu - per-CPU observed times within the window
 * @state_ns: time in each enum cfsr_cpu_state
 * @first_switch: trace time of the CPU's first sched_switch, 0 if none
 */
struct cfsr_iww_cpu {
	uint64_t state_ns[5];
	uint64_t first_switch;
};

/**
 * struct cfsr_iww_totals - the comparator's results
 * @wall_ns, @cpu_ns, @allowed_cpu_ns, @unknown_affinity_cpu_ns,
 * @affinity_bound_cpu_ns: see the file comment
 * @episodes: episodes within the window (all, not only the kept ones)
 * @long_episodes, @long_ns, @long_cpu_ns: those longer than the interval
 * @transient_episodes, @transient_ns, @transient_cpu_ns: the others
 * @longest_ns: the longest episode's duration
 * @first_ts, @last_ts: trace times of the first and last event
 * @known_from: when every CPU had had a sched_switch (0: never)
 * @lost_notices: lost-event notices: the state after them is degraded
 * @unseen_switch_outs: switches whose prev was not the task last switched in
 * @unseen_waiters: tasks switched in without being seen to wait (runnable
 *                  when the trace began, or their wakeup was lost)
 * @affinity_changes: sched_setaffinity() calls seen
 * @affinity_markers: masks read from "cfsr-affinity" markers
 * @bad_markers: "cfsr-affinity" markers that could not be read
 * @out_of_order: events older than their predecessor (time not counted)
 */
struct cfsr_iww_totals {
	uint64_t wall_ns;
	uint64_t cpu_ns;
	uint64_t allowed_cpu_ns;
	uint64_t unknown_affinity_cpu_ns;
	uint64_t affinity_bound_cpu_ns;
	uint64_t episodes;
	uint64_t long_episodes;
	uint64_t long_ns;
	uint64_t long_cpu_ns;
	uint64_t transient_episodes;
	uint64_t transient_ns;
	uint64_t transient_cpu_ns;
	uint64_t longest_ns;
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t known_from;
	uint64_t lost_notices;
	uint64_t unseen_switch_outs;
	uint64_t unseen_waiters;
	uint64_t affinity_changes;
	uint64_t affinity_markers;
	uint64_t bad_markers;
	uint64_t out_of_order;
};

struct cfsr_iww;

/**
 * cfsr_iww_new() - a comparator
 * @p: parameters (copied)
 *
 * Return: an owned comparator, to be released with cfsr_iww_free(), or NULL
 * (after cfsr_error()).
 */
struct cfsr_iww *cfsr_iww_new(const struct cfsr_iww_params *p);

/* Release a comparator; accepts NULL. */
void cfsr_iww_free(struct cfsr_iww *iw);

/**
 * cfsr_iww_event() - account time up to @ev, then apply it
 * Return: 0, or -1 on allocation failure (after cfsr_error()).
 */
int cfsr_iww_event(struct cfsr_iww *iw, const struct cfsr_event *ev);

/* Close the episode still open at the last event.  Call once, at the end. */
void cfsr_iww_finish(struct cfsr_iww *iw);

/* Results; borrowed until cfsr_iww_free(). */
const struct cfsr_iww_totals *cfsr_iww_totals(const struct cfsr_iww *iw);
const struct cfsr_iww_cpu *cfsr_iww_cpu(const struct cfsr_iww *iw, int cpu);

/**
 * cfsr_iww_top() - the kept episodes, longest first (ties: earliest first)
 * @eps: set to the array, borrowed until the next call on @iw
 * Return: the number of episodes.
 */
int cfsr_iww_top(struct cfsr_iww *iw, const struct cfsr_iww_episode **eps);

/**
 * cfsr_iww_cpu_now() - a CPU's state before the next event is applied
 * @curr: set to the pid running there (0 idle, -1 unknown)
 * @nr_waiting: set to the number of tasks waiting on it
 */
enum cfsr_cpu_state cfsr_iww_cpu_now(const struct cfsr_iww *iw, int cpu, int *curr,
				     int *nr_waiting);

/* Is @pid allowed on @cpu, as far as the trace tells? */
enum cfsr_allowed cfsr_iww_allowed(const struct cfsr_iww *iw, int pid, int cpu);

/* Where @pid runs and waits now: CPU numbers, -1 for none. */
void cfsr_iww_task_where(const struct cfsr_iww *iw, int pid, int *run_cpu, int *wait_cpu);

/* Where @pid's affinity comes from (CFSR_AFF_ASSUMED for an unseen task). */
enum cfsr_affinity cfsr_iww_affinity(const struct cfsr_iww *iw, int pid);

/* The task's last known command name, or "" (borrowed until the next event). */
const char *cfsr_iww_comm(const struct cfsr_iww *iw, int pid);

/*
 * The CPU a per-CPU kernel thread is bound to, from its name ("ksoftirqd/1",
 * "kworker/0:2"), or -1 for any other name.
 */
int cfsr_kthread_cpu(const char *comm);

/* Short names of states and affinity sources, for output. */
const char *cfsr_cpu_state_name(enum cfsr_cpu_state s);
const char *cfsr_affinity_name(enum cfsr_affinity a);

/**
 * cfsr_iww_parse_cpulist() - parse a CPU list such as "0-2,5"
 * @s: the text, up to the end of the string or a blank
 * @mask: bitmap of @nr_words 64-bit words, cleared then filled
 * Return: 0, or -1 when malformed or naming a CPU beyond the bitmap.
 */
int cfsr_iww_parse_cpulist(const char *s, uint64_t *mask, int nr_words);

#endif /* CFSR_IDLEWAIT_H */

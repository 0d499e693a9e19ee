/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Placement audit: every observed placement of a fair task, judged against
 * the placement rule of the kernel profile (v6.12-v6.18), from the CPU
 * states of the idle-while-waiting comparator and the per-CPU load of
 * cpuload.h (the root cfs_rq's load_avg).
 *
 *   wakeup     sched_wakeup's target CPU (with the sched_migrate_task
 *              between sched_waking and it, if any); the CPU states are
 *              those just before sched_wakeup (select_task_rq() ran a few
 *              microseconds earlier, between sched_waking and it)
 *   fork       sched_wakeup_new's target CPU
 *   migration  a sched_migrate_task outside a wakeup: load balancing,
 *              affinity change, active balance
 *   exec       the migration stopper's move of a task that woke it and
 *              was switched out for it, confirmed by the task's
 *              sched_process_exec (sched_exec(), which runs before it);
 *              a sched_process_exec without such a move is sched_exec()'s
 *              choice of the task's own CPU (@stayed), judged at that event
 *
 * Each is classified agrees / diverges / cannot judge with a reason (see
 * docs/COMPARATORS.md for the rules and their limits).  The rules follow
 * the topology of topology.h (cfsr_place_set_topo()): a wakeup's idle scan
 * covers the target's LLC only, a fork walks the domain levels from the
 * top; without a topology, or with the LLC unknown, all CPUs are taken as
 * one LLC.  The model cannot see wake_affine()'s inputs, SIS_UTIL's scan
 * depth or idle states.
 */
#ifndef CFSR_PLACEMENT_H
#define CFSR_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuload.h"
#include "event.h"
#include "idlewait.h"
#include "topology.h"

enum cfsr_place_kind {
	CFSR_PLACE_WAKEUP,
	CFSR_PLACE_FORK,
	CFSR_PLACE_MIGRATE,
	CFSR_PLACE_EXEC,
	CFSR_PLACE_NR_KINDS,
};

enum cfsr_verdict {
	CFSR_AGREES,
	CFSR_DIVERGES,
	CFSR_CANNOT_JUDGE,
	CFSR_NR_VERDICTS,
};

#define CFSR_PLACE_REASONS                                                   \
	X(CFSR_R_IDLE_CHOSEN, "idle-chosen", "an idle CPU was chosen")       \
	X(CFSR_R_NO_IDLE_TARGET, "no-idle-target",                           \
	  "no idle CPU allowed; target is the previous or waker CPU")        \
	X(CFSR_R_FEWEST_TASKS, "fewest-tasks",                               \
	  "no idle CPU allowed; target has the fewest runnable tasks")       \
	X(CFSR_R_PULL_FROM_BUSIER, "pull-from-busier",                       \
	  "a waiting task moved to a CPU with fewer runnable tasks")         \
	X(CFSR_R_IDLE_SKIPPED, "idle-skipped",                               \
	  "a busy CPU was chosen while an allowed CPU was idle")             \
	X(CFSR_R_NOT_FAIR, "not-fair", "not a fair-class task")              \
	X(CFSR_R_STATE_UNKNOWN, "state-unknown",                             \
	  "a CPU's state is unknown (before its first switch, or lost)")     \
	X(CFSR_R_AFFINITY_UNKNOWN, "affinity-unknown",                       \
	  "an idle CPU exists but the task's affinity is unknown")           \
	X(CFSR_R_OTHER_TARGET, "other-target",                               \
	  "no idle CPU; target is neither previous nor waker CPU")           \
	X(CFSR_R_LOAD_RULE, "load-rule",                                     \
	  "no idle CPU; the rule compares cfs_rq load, not modelled yet")    \
	X(CFSR_R_NOT_WAITING, "not-waiting",                                 \
	  "task not waiting: affinity change or active balance")             \
	X(CFSR_R_LOAD_BALANCE, "load-balance",                               \
	  "moved toward equal or more tasks: a load rule, not modelled yet") \
	X(CFSR_R_OUTSIDE_LLC, "outside-llc",                                 \
	  "target outside the LLCs of the previous and the waker CPU")       \
	X(CFSR_R_WAKE_AFFINE, "wake-affine",                                 \
	  "no idle CPU in the chosen LLC; the other LLC had one")            \
	X(CFSR_R_IDLER_GROUP, "idler-group",                                 \
	  "placed in a group with fewer idle CPUs than the idlest")          \
	X(CFSR_R_NO_BALANCE, "no-balance-domain",                            \
	  "no domain balances it (recorded flags): it stays on its CPU")     \
	X(CFSR_R_OUTSIDE_DOMAIN, "outside-domain",                           \
	  "placed outside the domain its rule balances over")                \
	X(CFSR_R_BALANCE_WAKE, "balance-wake",                               \
	  "a domain has SD_BALANCE_WAKE: the slow path may decide")

enum cfsr_place_reason {
#define X(r, id, text) r,
	CFSR_PLACE_REASONS
#undef X
		CFSR_NR_REASONS
};

#define CFSR_PLACE_CPUS 8

/**
 * struct cfsr_place_cpu - one CPU as the audit saw it
 * @cpu: the CPU
 * @state: enum cfsr_cpu_state
 * @nr_running: running task (if any) plus the tasks waiting on it
 * @load: its root cfs_rq's load_avg, cpu_load() (cpuload.h)
 */
struct cfsr_place_cpu {
	int cpu;
	int state;
	int nr_running;
	uint64_t load;
};

/**
 * struct cfsr_place_decision - one judged placement
 * @ts: trace time of the event that completed it
 * @kind, @verdict, @reason: what and how judged
 * @pid, @comm: the task
 * @from_cpu: its previous CPU (wakeup), parent's CPU (fork), source (migration, exec); -1 unknown
 * @to_cpu: the CPU the kernel chose
 * @preferred_cpu: the CPU the rule prefers when it diverges, else -1
 * @size: how far apart: nr_running of @to_cpu minus that of @preferred_cpu
 * @nr_cpus, @cpus: the first CFSR_PLACE_CPUS CPUs at the decision
 * @stayed: an exec that stayed on its CPU (no stopper move before it)
 */
struct cfsr_place_decision {
	uint64_t ts;
	enum cfsr_place_kind kind;
	enum cfsr_verdict verdict;
	enum cfsr_place_reason reason;
	int pid;
	char comm[CFSR_COMM_LEN];
	int from_cpu;
	int to_cpu;
	int preferred_cpu;
	int size;
	int nr_cpus;
	struct cfsr_place_cpu cpus[CFSR_PLACE_CPUS];
	bool stayed;
};

/**
 * struct cfsr_place_totals - counts within the window and filters
 * @n: decisions per kind and verdict
 * @reasons: decisions per kind and reason
 * @exec_stayed: of the exec decisions, those that stayed on their CPU, per verdict
 */
struct cfsr_place_totals {
	uint64_t n[CFSR_PLACE_NR_KINDS][CFSR_NR_VERDICTS];
	uint64_t reasons[CFSR_PLACE_NR_KINDS][CFSR_NR_REASONS];
	uint64_t exec_stayed[CFSR_NR_VERDICTS];
};

struct cfsr_place;

/**
 * cfsr_place_new() - an audit
 * @nr_cpus: CPUs
 * @top_n: diverging decisions kept (largest @size first, then earliest)
 * @win_start, @win_end: decisions counted within [start, end)
 * @filter_cpu: count only decisions whose source or target is this CPU, -1 all
 * @filter_pid: count only this task's decisions, -1 all
 * Return: owned (cfsr_place_free()), or NULL after cfsr_error().
 */
struct cfsr_place *cfsr_place_new(int nr_cpus, int top_n, uint64_t win_start, uint64_t win_end,
				  int filter_cpu, int filter_pid);

void cfsr_place_free(struct cfsr_place *pl);

/*
 * cfsr_place_set_topo() - judge by @t (borrowed, of as many CPUs, kept
 * until the audit is freed) instead of one LLC holding every CPU
 */
void cfsr_place_set_topo(struct cfsr_place *pl, const struct cfsr_topo *t);

/**
 * cfsr_place_event() - judge @ev, if it completes a placement
 * @iw: CPU states, not yet updated by @ev
 * @cl: loads, not yet updated by @ev
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_place_event(struct cfsr_place *pl, const struct cfsr_event *ev, const struct cfsr_iww *iw,
		     const struct cfsr_cpuload *cl);

/*
 * cfsr_place_finish() - the end of the events: a stopper move still
 * waiting for its task's sched_process_exec is a migration
 */
void cfsr_place_finish(struct cfsr_place *pl);

const struct cfsr_place_totals *cfsr_place_totals(const struct cfsr_place *pl);

/* Kept divergences, largest first; @d borrowed until the next call. */
int cfsr_place_top(struct cfsr_place *pl, const struct cfsr_place_decision **d);

const char *cfsr_place_kind_name(enum cfsr_place_kind k);
const char *cfsr_verdict_name(enum cfsr_verdict v);
/* Short identifier of a reason ("idle-skipped") and its sentence. */
const char *cfsr_place_reason_id(enum cfsr_place_reason r);
const char *cfsr_place_reason_text(enum cfsr_place_reason r);

#endif /* CFSR_PLACEMENT_H */

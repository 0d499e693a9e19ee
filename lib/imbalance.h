/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Lasting imbalance: windows during which the load balancer, as the model
 * sees the CPUs' loads, would move a task between two busy CPUs, and no
 * migration touches either of them for longer than the busy CPU's balance
 * interval.
 *
 * The rule mirrors the load balancer as v6.18 has it (group types and
 * migrate_load since the v5.5 rework; older releases not checked) between two groups of
 * one CPU each (a single-level domain; equal capacities):
 * sched_balance_find_src_group() (find_busiest_group() before v6.10),
 * calculate_imbalance() with migrate_load, and detach_tasks():
 *  - the busiest CPU B is overloaded: at least two fair tasks, one of
 *    them waiting (update_sd_pick_busiest() prefers overloaded groups;
 *    group_is_overloaded() needs more tasks than CPUs);
 *  - the other CPU L is busy (one task: fully busy) or overloaded; an idle
 *    L belongs to idle-while-waiting (lib/idlewait.c), not here;
 *  - L's load is below B's, and when L is overloaded too, 100 * B >
 *    imbalance_pct * L (the imbalance_pct test of two overloaded groups);
 *  - the imbalance is min(B - avg, avg - L) with avg = (B + L) / 2 in
 *    integers (avg_load of equal capacities), and a waiting task of B with
 *    task_h_load() (at least 1) at most that would be detached on the first attempt
 *    (detach_tasks() before nr_balance_failed widens it), if
 *    can_migrate_task() lets it run on L: its affinity (lib/idlewait.h)
 *    classes the window "allowed" (some such task may run on L),
 *    "aff-unknown" (only tasks whose mask the trace lacks) or
 *    "affinity-bound" (none may: not a balancer fault).
 * Loads are cpu_load() and task_h_load() (lib/cpuload.h); the CPUs' loads
 * may be given instead (the kernel's, lib/kload.h: cfsr_imb_event_loads()).
 * With a topology (topology.h) each window is classed by the lowest domain level
 * that spans B and L, whose imbalance_pct (sd_init(): 110 for SMT, 117
 * above) and busy interval (get_sd_balance_interval() of the domain's
 * weight) it takes.  Where a level's groups (the domains of the level
 * below) hold several CPUs, windows between those groups are kept beside
 * the pairs' (find_groups(): each group's type from its load, utilization
 * and runnable time, the busiest group, calculate_imbalance()'s
 * migrate_load, migrate_util or migrate_task, SD_PREFER_SIBLING by
 * release, the busiest CPU of the busiest group; imbalance-local.h;
 * cfsr_imb_group_totals()).
 * A window longer than the longest interval load_balance()'s doubling
 * up to max_interval can reach is "beyond any interval" (@beyond_max).
 * Differs: the pair of two CPUs is judged as two groups of one CPU at
 * every level, without the runnable/util conditions of
 * group_is_overloaded(); capacities reduced by RT/IRQ pressure and the
 * widening after failed attempts are not modelled.
 */
#ifndef CFSR_IMBALANCE_H
#define CFSR_IMBALANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuload.h"
#include "event.h"
#include "idlewait.h"
#include "topology.h"

/* Why a window ended. */
enum cfsr_imb_end {
	CFSR_IMB_MIGRATION, /* a task migrated to or from B or L */
	CFSR_IMB_BALANCED, /* the rule no longer held (or held for another pair) */
	CFSR_IMB_TRACE_END, /* still open at the end of the trace */
	CFSR_IMB_NR_ENDS,
};

/*
 * enum migration_type of kernel/sched/fair.c (v5.7-v6.18): what a group
 * window's imbalance counts (migrate_misfit is not modelled).
 */
enum cfsr_migration_type {
	CFSR_MIGRATE_LOAD, /* task_h_load() */
	CFSR_MIGRATE_UTIL, /* task_util_est() */
	CFSR_MIGRATE_TASK, /* tasks */
};

/* What affinity lets the balancer do in a window. */
enum cfsr_imb_class {
	CFSR_IMB_ALLOWED,
	CFSR_IMB_AFF_UNKNOWN,
	CFSR_IMB_AFF_BOUND,
	CFSR_IMB_NR_CLASSES,
};

/**
 * struct cfsr_imb_params - parameters
 * @nr_cpus: CPUs of the trace
 * @imbalance_pct: the domain's imbalance_pct (117: sd_init() for the LLC level)
 * @interval_ns: the busy CPU's balance interval; longer windows are "lasting"
 * @max_interval_ns: without @topo, the longest busy interval (the balance
 *        interval doubled up to max_interval); longer windows are "beyond
 *        any interval"
 * @win_start: count from here (--time)
 * @win_end: up to here
 * @top: how many of the longest windows to keep
 * @filter_cpu: count only windows with this CPU as B or L (-1: all)
 * @topo: the domain levels (borrowed), NULL for one level of every CPU;
 *        a window belongs to the lowest level whose domain of B spans L,
 *        and takes that level's imbalance_pct and the busy interval of
 *        its domain's weight
 * @interval_by_weight: with @topo, the busy balance interval of a domain
 *        of N CPUs at [N] (N up to @nr_cpus; borrowed)
 * @hz: with @topo, the HZ a level of recorded domains' interval is in
 *      jiffies of (cfsr_topo_busy_interval_ns(): its min_interval and
 *      busy_factor instead of the weight and 16)
 * @keep_all: keep every counted window (cfsr_imb_all()), not only the @top longest
 * @kver: the modelled release, CFSR_KVER() (0: the latest), for the rule
 *        between groups of CPUs (SD_PREFER_SIBLING's, by release)
 */
struct cfsr_imb_params {
	int nr_cpus;
	int filter_cpu;
	unsigned int imbalance_pct;
	uint64_t interval_ns;
	uint64_t max_interval_ns;
	const struct cfsr_topo *topo;
	const uint64_t *interval_by_weight;
	int hz;
	uint64_t win_start;
	uint64_t win_end;
	int top;
	bool keep_all;
	int kver;
};

/**
 * struct cfsr_imb_window - one window
 * @start: first instant the rule held for @busiest and @local
 * @end: the instant it stopped
 * @busiest: B
 * @local: L
 * @busiest_load: B's load at @start
 * @local_load: L's load at @start
 * @busiest_nr: tasks on B at @start
 * @local_nr: tasks on L at @start
 * @task: at @start, the lightest waiting task of B that fits the
 *        imbalance, of the best @class
 * @task_load: its load
 * @comm: its name
 * @class: allowed, aff-unknown or affinity-bound
 * @why: how it ended
 * @level: the domain level B and L first share (index into the topology's
 *         levels; 0 without one)
 * @interval_ns: the busy interval of that level's domain
 * @max_interval_ns: the longest busy interval that domain's balancer can
 *        have (cfsr_topo_max_busy_interval_ns())
 * @group: a window between two groups of CPUs of @level (the domains of
 *         the level below): @busiest and @local are the groups' ids (their
 *         lowest CPU), their loads the groups' avg_load, their nr the
 *         groups' tasks
 * @busiest_cpu: the CPU whose task would move (B, or the busiest CPU of
 *               B's group)
 * @other_busiest_load: B's load at @start from the other source of loads
 *                      (model or kernel, cfsr_imb_set_other()), or 0
 * @other_local_load: L's
 * @migration: for a group window, what calculate_imbalance() counted
 * @imbalance: for a group window, the imbalance found at @start
 */
struct cfsr_imb_window {
	uint64_t start;
	uint64_t end;
	int busiest;
	int local;
	uint64_t busiest_load;
	uint64_t local_load;
	int busiest_nr;
	int local_nr;
	int task;
	uint64_t task_load;
	char comm[CFSR_COMM_LEN];
	enum cfsr_imb_class class;
	enum cfsr_imb_end why;
	int level;
	uint64_t interval_ns;
	uint64_t max_interval_ns;
	bool group;
	int busiest_cpu;
	uint64_t other_busiest_load;
	uint64_t other_local_load;
	enum cfsr_migration_type migration;
	uint64_t imbalance;
};

/**
 * struct cfsr_imb_totals - totals over the window of time counted
 * @windows: windows, all durations
 * @lasting: windows longer than the interval
 * @lasting_ns: their time (inside [win_start, win_end)), per class
 * @transient_ns: the time of the others
 * @longest_ns: the longest window
 * @ended[]: lasting windows by how they ended
 * @level_lasting, @level_lasting_ns: lasting windows and their time per
 *         domain level
 * @level_windows: windows per domain level
 * @beyond_max: windows longer than the longest busy interval their
 *              domain's balancer can have ("beyond any interval")
 * @beyond_max_ns: their time (inside [win_start, win_end))
 * @level_beyond_max: those per domain level
 */
struct cfsr_imb_totals {
	uint64_t windows;
	uint64_t lasting;
	uint64_t lasting_ns[CFSR_IMB_NR_CLASSES];
	uint64_t transient_ns;
	uint64_t longest_ns;
	uint64_t ended[CFSR_IMB_NR_ENDS];
	uint64_t level_lasting[CFSR_TOPO_MAX_LEVELS];
	uint64_t level_lasting_ns[CFSR_TOPO_MAX_LEVELS];
	uint64_t level_windows[CFSR_TOPO_MAX_LEVELS];
	uint64_t beyond_max;
	uint64_t beyond_max_ns;
	uint64_t level_beyond_max[CFSR_TOPO_MAX_LEVELS];
};

struct cfsr_imbalance;

/* Return: owned, or NULL after cfsr_error(). */
struct cfsr_imbalance *cfsr_imb_new(const struct cfsr_imb_params *p);
void cfsr_imb_free(struct cfsr_imbalance *im);

/**
 * cfsr_imb_event() - look at the CPUs after @ev was replayed into @cl
 * @im: the comparator
 * @ev: the event (a migration ends the windows of its CPUs first)
 * @cl: the per-CPU loads, @ev already applied
 * @iw: the tasks' affinity, @ev already applied
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_imb_event(struct cfsr_imbalance *im, const struct cfsr_event *ev,
		   const struct cfsr_cpuload *cl, const struct cfsr_iww *iw);

/**
 * cfsr_imb_event_loads() - cfsr_imb_event() with other per-CPU loads
 * @loads: each CPU's load (e.g. the kernel's, lib/kload.h), in place of
 *         cfsr_cpuload_now(); NULL: the model's.  The tasks, their waiting
 *         and their task_h_load() are still @cl's.
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_imb_event_loads(struct cfsr_imbalance *im, const struct cfsr_event *ev,
			 const struct cfsr_cpuload *cl, const struct cfsr_iww *iw,
			 const uint64_t *loads);

/* The window the last event opened, or NULL. */
const struct cfsr_imb_window *cfsr_imb_opened(const struct cfsr_imbalance *im);

/* Give the window the last event opened B's and L's loads from the other source. */
void cfsr_imb_set_other(struct cfsr_imbalance *im, uint64_t busiest_load, uint64_t local_load);

/* Every counted window in time order (@keep_all); return their number. */
size_t cfsr_imb_all(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w);

/* Close the open window at @ts, the end of the trace. */
void cfsr_imb_finish(struct cfsr_imbalance *im, uint64_t ts);

const struct cfsr_imb_totals *cfsr_imb_totals(const struct cfsr_imbalance *im);

/* The longest lasting windows, longest first; return their number. */
int cfsr_imb_top(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w);

/*
 * The windows between groups of CPUs (find_groups() in imbalance.c), at
 * each domain level whose groups hold several CPUs: their totals, and
 * the longest lasting ones, longest first.
 */
const struct cfsr_imb_totals *cfsr_imb_group_totals(const struct cfsr_imbalance *im);
int cfsr_imb_group_top(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w);

/* Some domain level compares groups of several CPUs. */
bool cfsr_imb_has_groups(const struct cfsr_imbalance *im);

/* Short name of an end reason: "migration", "balanced", "trace-end". */
const char *cfsr_imb_end_name(enum cfsr_imb_end why);

/* Short name of a class: "allowed", "aff-unknown", "affinity-bound". */
const char *cfsr_imb_class_name(enum cfsr_imb_class c);

/*
 * The kernel's name of a migration type: "migrate_load", "migrate_util",
 * "migrate_task" (enum migration_type, kernel/sched/fair.c).
 */
const char *cfsr_migration_type_name(enum cfsr_migration_type t);

#endif /* CFSR_IMBALANCE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pick check: at every sched_switch, the task the profile's fair pick
 * would run next on that CPU (cfsr_replay_pick() of a replay engine of its
 * own, asked before the engine replays the switch) against the task the
 * kernel ran.  Each switch is classed: trivial (no choice: one runnable fair
 * task, or none and the CPU goes idle), agrees, diverges (with the reason
 * and the EEVDF or CFS figures behind it) or cannot judge (with the
 * reason).  For the CFS profiles the check keeps, per CPU, the buddies
 * the events allow (a wakeup that preempts may set next and last, a
 * yield skip), and a pick that depends on them is not judged.  For the
 * EEVDF profiles a CPU whose tasks sit on several cfs_rqs is judged
 * through the group entities, level by level, the check keeping per CPU
 * and group the next buddies the picks' dequeues set and the group
 * entities' deadlines at their set_next_entity() (RUN_TO_PARITY).  The
 * agreement is counted per CPU on the contested picks (two runnable fair
 * tasks or more); the --top largest divergences are kept, so memory grows
 * with tasks and CPUs, never with events.  docs/COMPARATORS.md gives the
 * rule per profile and how to read it.
 */
#ifndef CFSR_PICKCHECK_H
#define CFSR_PICKCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "profile.h"
#include "cpuload.h"
#include "replay.h"

/*
 * Reasons, one list: identifier (JSON key), class, text.  Classes:
 * T trivial, A agrees, D diverges, C cannot judge.
 */
#define CFSR_PICK_REASONS                                                                            \
	X(CFSR_PR_ONE_RUNNABLE, "one-runnable", 'T', "one runnable fair task: no choice")            \
	X(CFSR_PR_NONE_RUNNABLE, "none-runnable", 'T', "no runnable fair task: the CPU idles")       \
	X(CFSR_PR_EARLIEST, "earliest-eligible", 'A',                                                \
	  "the eligible task with the earliest deadline")                                            \
	X(CFSR_PR_TIE, "deadline-tie", 'A', "one of eligible tasks with equal earliest deadlines")   \
	X(CFSR_PR_NEXT_BUDDY, "next-buddy", 'A',                                                     \
	  "a level's next buddy, a group entity a sleep's dequeue left there (PICK_BUDDY)")          \
	X(CFSR_PR_LEFTMOST, "leftmost", 'A', "CFS: the runnable task with the smallest vruntime")    \
	X(CFSR_PR_BUDDY, "buddy", 'A',                                                               \
	  "CFS: a buddy within the wakeup granularity of the leftmost")                              \
	X(CFSR_PR_VRUNTIME_TIE, "vruntime-tie", 'A',                                                 \
	  "CFS: a task with the same vruntime as the one picked")                                    \
	X(CFSR_PR_INELIGIBLE, "ineligible", 'D', "ran a task that was not eligible")                 \
	X(CFSR_PR_EARLIER_DEADLINE, "earlier-deadline", 'D',                                         \
	  "the preferred had an earlier deadline")                                                   \
	X(CFSR_PR_RUN_TO_PARITY, "run-to-parity", 'D',                                               \
	  "the running task was eligible and its slice protected (RUN_TO_PARITY)")                   \
	X(CFSR_PR_NOT_BUDDY, "not-buddy", 'D',                                                       \
	  "a level's next buddy was eligible (PICK_BUDDY) and another entity ran")                   \
	X(CFSR_PR_NOT_LEFTMOST, "not-leftmost", 'D',                                                 \
	  "CFS: ran a task neither the leftmost nor a buddy the rule allows")                        \
	X(CFSR_PR_STATE_UNKNOWN, "state-unknown", 'C',                                               \
	  "the CPU's state unknown: before its first switch, after lost events or a switch missing") \
	X(CFSR_PR_HIGHER_CLASS, "higher-class", 'C', "a real-time or deadline task runs next")       \
	X(CFSR_PR_GROUPS, "task-groups", 'C',                                                        \
	  "queued tasks in more than one cfs_rq, with groups from attach events only")               \
	X(CFSR_PR_BUDDY_UNKNOWN, "buddy-unknown", 'C',                                               \
	  "CFS: the pick depends on a buddy the trace does not show (next, last, skip)")             \
	X(CFSR_PR_VRUNTIME_UNKNOWN, "vruntime-unknown", 'C',                                         \
	  "CFS: a runnable task's vruntime is not known from the trace")                             \
	X(CFSR_PR_NEXT_UNSEEN, "next-unseen", 'C',                                                   \
	  "the task run was not runnable on the CPU in the model (wakeup or migration unseen)")      \
	X(CFSR_PR_IDLE_RUNNABLE, "idle-with-runnable", 'C',                                          \
	  "the CPU idled while the model had runnable fair tasks there")                             \
	X(CFSR_PR_LAG_GUESSED, "lag-guessed", 'C',                                                   \
	  "EEVDF: the task run, or a group above it, placed from a lag from before the trace")

enum cfsr_pick_reason {
#define X(id, key, cls, text) id,
	CFSR_PICK_REASONS
#undef X
		CFSR_PR_NR,
};

/* Identifier, class letter ('T', 'A', 'D', 'C') and text of a reason. */
const char *cfsr_pick_reason_key(enum cfsr_pick_reason why);
char cfsr_pick_reason_class(enum cfsr_pick_reason why);
const char *cfsr_pick_reason_text(enum cfsr_pick_reason why);

/**
 * struct cfsr_pick_cpu - counts of one CPU
 * @switches: sched_switch events counted
 * @trivial: no choice (one runnable fair task, or none)
 * @contested: two runnable fair tasks or more, judged
 * @agrees: contested picks the rule makes too (ties included)
 * @diverges: contested picks it does not
 * @cannot: switches not judged
 * @groups_contested: contested picks made through group entities (the
 *                    queued tasks on more than one cfs_rq, EEVDF profiles)
 * @groups_agrees: those of them that agree
 */
struct cfsr_pick_cpu {
	uint64_t switches;
	uint64_t trivial;
	uint64_t contested;
	uint64_t agrees;
	uint64_t diverges;
	uint64_t cannot;
	uint64_t groups_contested;
	uint64_t groups_agrees;
};

/**
 * struct cfsr_pick_div - one divergence
 * @ts: trace time of the switch
 * @cpu: its CPU
 * @why: CFSR_PR_INELIGIBLE, CFSR_PR_EARLIER_DEADLINE, CFSR_PR_RUN_TO_PARITY or
 *       CFSR_PR_NOT_LEFTMOST
 * @prev_pid: the task that left the CPU (0 idle)
 * @ran: the task the kernel ran, as the pick saw it
 * @preferred: the task the rule picks
 * @ran_comm: name of @ran
 * @pref_comm: name of @preferred
 * @avg_vruntime: the cfs_rq's average vruntime V at the pick (CFS: its
 *                min_vruntime)
 * @nr_runnable: runnable fair tasks at the pick
 * @level: EEVDF with task groups: the depth of the level at which the
 *         model's choice and the kernel's first differ (0: the root
 *         cfs_rq), -1 without groups; @ran, @preferred and @avg_vruntime
 *         are that level's (a group entity's @group is set)
 * @level_group: the group whose cfs_rq that level is (0: the root)
 * @size: how far off, in virtual ns: the ran task's vruntime past V
 *        (ineligible), its deadline past the preferred's (earlier
 *        deadline), the protected task's vruntime short of its deadline
 *        (run to parity), or the ran task's vruntime past the preferred's
 *        (not leftmost)
 */
struct cfsr_pick_div {
	uint64_t ts;
	int cpu;
	enum cfsr_pick_reason why;
	int prev_pid;
	struct cfsr_pick_entity ran;
	struct cfsr_pick_entity preferred;
	char ran_comm[CFSR_COMM_LEN];
	char pref_comm[CFSR_COMM_LEN];
	uint64_t avg_vruntime;
	unsigned int nr_runnable;
	int level;
	int level_group;
	uint64_t size;
};

/**
 * struct cfsr_pickcheck_params - what the check counts
 * @nr_cpus: CPUs of the trace
 * @prof: the model profile
 * @hz: the traced kernel's HZ, 0 when unknown
 * @top: largest divergences kept
 * @win_start: count switches from here
 * @win_end: up to here (UINT64_MAX: the end)
 * @filter_cpu: only switches on this CPU (-1: all)
 * @filter_pid: only switches where this task leaves, runs or is preferred (-1: all)
 * @cl: the per-CPU load whose replay engine the check asks (borrowed: the
 *      caller replays each event there between cfsr_pickcheck_before() and
 *      cfsr_pickcheck_after()); NULL: the check drives an engine of its own
 *      (cfsr_pickcheck_event())
 * @engine: without @cl, a replay engine to ask (borrowed, replayed by the
 *          caller as @cl's is); NULL: one of the check's own
 */
struct cfsr_pickcheck_params {
	struct cfsr_cpuload *cl;
	struct cfsr_replay *engine;
	int nr_cpus;
	const struct cfsr_profile *prof;
	int hz;
	int top;
	uint64_t win_start;
	uint64_t win_end;
	int filter_cpu;
	int filter_pid;
};

struct cfsr_pickcheck;

/* Return: owned, released with cfsr_pickcheck_free(); NULL after cfsr_error(). */
struct cfsr_pickcheck *cfsr_pickcheck_new(const struct cfsr_pickcheck_params *p);

void cfsr_pickcheck_free(struct cfsr_pickcheck *pc);

/**
 * cfsr_pickcheck_event() - judge a switch against the state before it, then replay the event
 * (a check with an engine of its own)
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_pickcheck_event(struct cfsr_pickcheck *pc, const struct cfsr_event *ev);

/*
 * With a borrowed engine (@cl or @engine of the params): judge a switch
 * before the engine replays the event, then take the engine's state after
 * it.
 */
int cfsr_pickcheck_before(struct cfsr_pickcheck *pc, const struct cfsr_event *ev);
void cfsr_pickcheck_after(struct cfsr_pickcheck *pc, const struct cfsr_event *ev);

/*
 * The tasks' groups are known from a recorded trace's snapshots (given to
 * the engine by its owner).
 */
void cfsr_pickcheck_groups_known(struct cfsr_pickcheck *pc);

/*
 * The tasks' groups are a perf.data's cgroups, taken as the cpu
 * controller's on the user's word (--perf-cgroups=cpu, cmd/perfgroups.c):
 * the engine's groups and moves are those, and the picks are judged
 * through their group entities as with snapshots.
 */
void cfsr_pickcheck_groups_perf(struct cfsr_pickcheck *pc);

/* Where the tasks' groups came from. */
enum cfsr_pick_groups {
	/* cfsr_pickcheck_groups_known(): a recorded trace's snapshots */
	CFSR_PICK_GROUPS_SNAPSHOTS,
	/* cfsr_pickcheck_groups_perf(): a perf.data's cgroups (autogroups unseen) */
	CFSR_PICK_GROUPS_PERF,
	/* the recorders' group markers (the per-CPU load's engine takes them) */
	CFSR_PICK_GROUPS_MARKERS,
	/* cgroup attach events of the trace (autogroups and earlier moves unseen) */
	CFSR_PICK_GROUPS_ATTACH,
	/* nothing: every task taken as in the root group */
	CFSR_PICK_GROUPS_UNKNOWN,
};

enum cfsr_pick_groups cfsr_pickcheck_groups(const struct cfsr_pickcheck *pc);

/* Counts of a CPU (NULL out of range), and over all CPUs into @sum. */
const struct cfsr_pick_cpu *cfsr_pickcheck_cpu(const struct cfsr_pickcheck *pc, int cpu);
void cfsr_pickcheck_total(const struct cfsr_pickcheck *pc, struct cfsr_pick_cpu *sum);

/* Switches counted with reason @why. */
uint64_t cfsr_pickcheck_reason(const struct cfsr_pickcheck *pc, enum cfsr_pick_reason why);

/* The kept divergences, largest first (borrowed until the next event); return their number. */
size_t cfsr_pickcheck_top(struct cfsr_pickcheck *pc, const struct cfsr_pick_div **divs);

/**
 * cfsr_pick_agree_permille() - agreement on contested picks, in tenths of a percent
 * @agrees: contested picks that agree
 * @contested: contested picks
 *
 * Rounded to the nearest (halves up), in integers.
 * Return: 0..1000, or -1 when nothing was contested.
 */
int cfsr_pick_agree_permille(uint64_t agrees, uint64_t contested);

#endif /* CFSR_PICKCHECK_H */

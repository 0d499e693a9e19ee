/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Clock readings from a kernel-truth file, for --clock.
 *
 * Only the run queues' clocks are taken: from a pelt.jsonl, the rq clock of
 * every record (clock_pelt - lost_idle_time, the rq's PELT time); from a
 * truth.jsonl, each snapshot's per-CPU clock_task, at the instant of the
 * rq's last clock update (its rq->clock).  Never PELT values: a
 * replay given --clock stays a prediction.
 */
#ifndef CFSR_CLOCKFEED_H
#define CFSR_CLOCKFEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct cfsr_clock_feed;

/* One reading: the rq of @cpu had PELT clock @clock at trace time @ts. */
struct cfsr_clock_reading {
	int cpu;
	uint64_t ts;
	/* the PELT clock of v5.1+ (a PELT record's clock_pelt - lost_idle_time), else clock_task */
	uint64_t clock;
	/* the rq's clock_task, the PELT clock before v5.1 (cfsr_replay_reading_clock()) */
	uint64_t clock_task;
	/* a PELT record's rq clock_pelt and lost_idle_time; -1 and 0 for a snapshot's */
	int64_t clock_pelt;
	uint64_t lost_idle_time;
	/* taken inside a kernel path (a PELT record), not by a reader beside it */
	bool in_path;
	/*
	 * @ts is the instant of the rq's update_rq_clock() that set @clock
	 * (a snapshot's cpu row: rq->clock gives it), not a later read
	 */
	bool at_update;
	/*
	 * @at_update: no later update of the rq's clock before this trace
	 * time (the reading was taken after it), or 0 when not known
	 */
	uint64_t until;
	/*
	 * A task entity's PELT record: the task (tid > 0) and the group its
	 * entity is queued in then (parent_tg, valid until the next call;
	 * NULL when the record does not name it): the kernel's structure at
	 * that time, through which a move between groups shows
	 */
	int tid;
	const char *group;
	/*
	 * A change of a task group's tg->shares: a PELT record of that
	 * group's cfs_rq with other tg_shares than its last one, or a
	 * snapshot whose task rows give an autogroup another nice than the
	 * snapshot before (@cpu -1 then: no clock reading).  The group's path
	 * (valid until the next call) and its new shares; NULL none.
	 */
	const char *shares_group;
	uint64_t shares;
};

struct cfsr_trace;

/**
 * cfsr_clock_source() - the file whose clock readings and task groups a replay takes
 * @t: the trace
 * @given: the --clock argument, or NULL
 *
 * A trace made by 'cfsreplay record' with snapshots carries its own: it is
 * its own source unless one is given; "none" takes none.
 *
 * Return: the path to open, or NULL for no readings.
 */
const char *cfsr_clock_source(const struct cfsr_trace *t, const char *given);

/* Open @path (pelt.jsonl[.gz] or truth.jsonl[.gz]); NULL after cfsr_error(). */
struct cfsr_clock_feed *cfsr_clock_feed_open(const char *path);

/*
 * How a truth file's times are put on a trace's clock.  The kernel clocks
 * the files name: "local" (trace_clock_local(), sched_clock()), "perf"
 * (local_clock(), also perf record's default and the clock of rq->clock)
 * and "mono" (CLOCK_MONOTONIC, bpf_ktime_get_ns()).  With a stable
 * sched_clock, local_clock() is sched_clock() plus a constant set at boot
 * (__sched_clock_offset, not a multiple of 1024 ns).
 */
enum cfsr_clock_how {
	/* the file's times are on the trace's clock */
	CFSR_CLOCK_SAME,
	/* one of the two clocks is not known: taken as the same, flagged */
	CFSR_CLOCK_ASSUMED,
	/* "local" times moved onto "perf" by the boot-time constant */
	CFSR_CLOCK_SHIFTED,
	/* a pelt.jsonl record's ktime, for a trace on "mono" */
	CFSR_CLOCK_KTIME,
	/* no known relation between the clocks: taken as the same, flagged */
	CFSR_CLOCK_UNALIGNED,
};

/**
 * struct cfsr_clock_map - a truth file's times on a trace's clock
 * @how: the mapping
 * @from: the truth file's clock name, NULL if unknown (borrowed: static)
 * @to: the trace's clock name, NULL if unknown (borrowed from the caller)
 * @shift: CFSR_CLOCK_SHIFTED: added to the file's times (the first
 *         snapshot's for a truth.jsonl, where each snapshot gives its own)
 * @support: the records or snapshots @shift was taken from
 * @records: @shift came from pelt.jsonl records, else from a snapshot
 */
struct cfsr_clock_map {
	enum cfsr_clock_how how;
	const char *from;
	const char *to;
	int64_t shift;
	uint64_t support;
	bool records;
};

/**
 * cfsr_clock_map_find() - how the times of a truth file go onto a trace's clock
 * @path: a pelt.jsonl[.gz] or truth.jsonl[.gz] (read once through)
 * @trace_clock: the trace's clock name (struct cfsr_trace_info.clock), or NULL
 * @m: set
 *
 * A pelt.jsonl names its clock in its header (clock.trace_clock); a
 * truth.jsonl's is the one of the sched_debug header clocks (sched_clk is
 * sched_clock(), cpu_clk local_clock()) that falls between the markers
 * bracketing the snapshot's read.
 *
 * Return: 0, or -1 (reported).
 */
int cfsr_clock_map_find(const char *path, const char *trace_clock, struct cfsr_clock_map *m);

/**
 * cfsr_clock_map_pelt_ts() - a pelt.jsonl record's time on the trace's clock
 * @m: from cfsr_clock_map_find()
 * @ts: the record's ts
 * @ktime: the record's ktime
 *
 * Return: the time, negative if it has none.
 */
int64_t cfsr_clock_map_pelt_ts(const struct cfsr_clock_map *m, int64_t ts, int64_t ktime);

/*
 * The trace time of a truth.jsonl cpu row's rq->clock, as its reading's
 * (after cfsr_clock_feed_align()); -1 for a pelt.jsonl or on error.
 */
int64_t cfsr_clock_feed_rq_ts(struct cfsr_clock_feed *f, int64_t rq_clock);

/* Put the readings of @f on the trace clock @m was found for. */
void cfsr_clock_feed_align(struct cfsr_clock_feed *f, const struct cfsr_clock_map *m);

/* A line saying how @m puts @path's times on the trace clock, into @buf. */
void cfsr_clock_map_describe(const struct cfsr_clock_map *m, const char *path, char *buf,
			     size_t len);

/* The next reading in time order: 1, 0 at the end, -1 on error. */
int cfsr_clock_feed_next(struct cfsr_clock_feed *f, struct cfsr_clock_reading *out);

void cfsr_clock_feed_close(struct cfsr_clock_feed *f);

/**
 * cfsr_task_groups() - the task group of every task a truth file names
 * @path: a pelt.jsonl[.gz] (each task record's parent_tg) or a
 *        truth.jsonl[.gz] (each task row's non-root cpu cgroup, else its
 *        autogroup)
 * @fn: called once per task, with its group as its first record or row
 *      gives it; a negative return stops the reading
 * @sfn: NULL, or called once per non-root group a pelt.jsonl's cfs_rq
 *       records name, with the tg->shares of the first (the group's
 *       configuration, cpu.shares or an autogroup's nice: not a PELT
 *       value); a negative return stops the reading
 * @data: passed to @fn and @sfn
 *
 * Which cfs_rq a task is queued on is the kernel's structure (autogroups
 * are made by setsid(), which no trace event shows), not a PELT value.
 *
 * Return: 0, or -1 (reported, or @fn's failure).
 */
int cfsr_task_groups(const char *path, int (*fn)(void *data, int tid, const char *group),
		     int (*sfn)(void *data, const char *group, uint64_t shares), void *data);

/**
 * cfsr_task_fork_groups() - the autogroup of each task a truth file shows
 *                           outside its session's lead, and the cgroups
 *                           it names
 * @path: a truth.jsonl[.gz] or a pelt.jsonl[.gz]
 * @fn: called once per task whose first row gives its session, not its
 *      own id, and its autogroup, with that autogroup: the one
 *      sched_autogroup_fork() gave it from its parent (only setsid(),
 *      which makes the caller a session's leader, changes it); a negative
 *      return stops the reading
 * @nfn: called for each row's cpu cgroup and each record's task group
 *       that is neither the root nor an autogroup (the cpu controller's
 *       groups: repeated names included); a negative return stops it
 * @data: passed to @fn and @nfn
 *
 * Return: 0, or -1 (reported, or @fn's or @nfn's failure).
 */
int cfsr_task_fork_groups(const char *path, int (*fn)(void *data, int tid, const char *group),
			  int (*nfn)(void *data, const char *group), void *data);

/**
 * cfsr_meta_cpu_hierarchy() - the cpu controller's hierarchy id a recorded
 *                             trace names
 * @t: the trace
 *
 * 'cfsreplay record' stores it (cgroup_cpu_hierarchy_id, from
 * /proc/self/cgroup): the dst_root of the cgroup_attach_task events that
 * move task groups.
 * Return: the id, or -1 when the trace does not say it.
 */
int cfsr_meta_cpu_hierarchy(const struct cfsr_trace *t);

/**
 * cfsr_meta_group_shares() - the group shares a recorded trace states
 * @t: the trace
 * @fn: called for each non-root group of the cpu controller's hierarchies
 *      in the metadata of 'cfsreplay record' (cgroup_hierarchies, as they
 *      were when recording began), with its tg->shares: cfsr_group_idle_shares()
 *      when its cpu.idle is 1 (sched_group_set_idle(), v5.15+), else
 *      cpu.shares (v1) through cfsr_group_shares_from_v1(), cpu.weight (v2)
 *      through cfsr_group_shares_from_v2(); and, before those, for each
 *      autogroup of non-zero nice in the task rows (autogroup,
 *      autogroup_nice) of the first snapshot of the trace's own truth,
 *      with cfsr_group_autogroup_shares() of that nice
 *      (proc_sched_autogroup_set_nice()); a negative return stops it
 * @data: passed to @fn
 *
 * A write to cpu.shares, cpu.weight, cpu.idle or /proc/PID/autogroup has
 * no trace event; the metadata and the first snapshot are where a
 * recorded trace says them, as of the start of the recording.  Nothing
 * for a trace without them.
 * Return: 0, or -1 (reported, or @fn's failure).
 */
struct cfsr_trace;
int cfsr_meta_group_shares(const struct cfsr_trace *t,
			   int (*fn)(void *data, const char *path, uint64_t shares), void *data);

/**
 * cfsr_meta_idle() - the idle entities a recorded trace states
 * @gfn: called with each group whose cpu.idle is 1 in the metadata (tg->idle,
 *       sched_group_set_idle(), v5.15+)
 * @tfn: called with each thread whose policy is SCHED_IDLE in the first
 *       snapshot, and true
 * @data: passed to both
 *
 * As of the start of the recording: a later write to cpu.idle or a
 * sched_setscheduler() has no trace event.  Nothing for a trace without
 * metadata or snapshots.
 * Return: 0, or -1 (reported, or a callback's failure).
 */
int cfsr_meta_idle(const struct cfsr_trace *t, int (*gfn)(void *data, const char *path),
		   int (*tfn)(void *data, int tid, bool idle), void *data);

#endif /* CFSR_CLOCKFEED_H */

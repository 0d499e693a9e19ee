/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Clock readings from a kernel-truth file, for --clock.
 *
 * Only the run queues' clocks are taken: from a pelt.jsonl, the rq clock of
 * every record (clock_pelt - lost_idle_time, the rq's PELT time); from a
 * truth.jsonl, each snapshot's per-CPU clock_task.  Never PELT values: a
 * replay given --clock stays a prediction.
 */
#ifndef CFSR_CLOCKFEED_H
#define CFSR_CLOCKFEED_H

#include <stdint.h>

struct cfsr_clock_feed;

/* One reading: the rq of @cpu had PELT clock @clock at trace time @ts. */
struct cfsr_clock_reading {
	int cpu;
	uint64_t ts;
	uint64_t clock;
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
 * @data: passed to @fn
 *
 * Which cfs_rq a task is queued on is the kernel's structure (autogroups
 * are made by setsid(), which no trace event shows), not a PELT value.
 *
 * Return: 0, or -1 (reported, or @fn's failure).
 */
int cfsr_task_groups(const char *path, int (*fn)(void *data, int tid, const char *group),
		     void *data);

#endif /* CFSR_CLOCKFEED_H */

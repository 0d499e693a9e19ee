/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-task accounting from the event stream, for "cfsreplay compare".
 *
 * Fed one event at a time, struct cfsr_taskstats keeps, per task name
 * (comm), the run time from sched_switch intervals, the sum of
 * sched_stat_runtime, the weight-fair run time, wake-ups and their latency
 * distribution, migrations and switches out; and per machine the busy time
 * of each CPU.  Its memory grows with tasks, names and CPUs, never with
 * events: latency distributions are histograms of bounded relative error.
 *
 * The accounting rules (what starts and ends a run interval, how a missing
 * sched_switch is inferred, the fair share, the histogram buckets) are
 * specified in docs/cfsreplay-compare.1.txt, so that they can be checked
 * independently of this code; scripts/compare-ref.py is such a check.
 */
#ifndef CFSR_TASKSTATS_H
#define CFSR_TASKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/*
 * Latency histogram: values below 2^CFSR_LAT_SUB_BITS ns have a bucket
 * each; above, each power of two is split in 2^CFSR_LAT_SUB_BITS equal
 * buckets, so a bucket's width is below 1/128 of its values.
 */
#define CFSR_LAT_SUB_BITS 7
#define CFSR_LAT_SUB (1u << CFSR_LAT_SUB_BITS)
#define CFSR_LAT_BUCKETS (CFSR_LAT_SUB + (64 - CFSR_LAT_SUB_BITS) * CFSR_LAT_SUB)

/**
 * struct cfsr_lathist - a latency distribution
 * @count: samples
 * @sum: their sum, ns
 * @max: the largest, ns
 * @buckets: CFSR_LAT_BUCKETS counters, allocated at the first sample
 */
struct cfsr_lathist {
	uint64_t count;
	uint64_t sum;
	uint64_t max;
	uint32_t *buckets;
};

/**
 * cfsr_lathist_add() - add one sample
 * @h: the histogram
 * @v: the sample, ns
 *
 * Return: 0, or -1 (after cfsr_error()) when memory runs out.
 */
int cfsr_lathist_add(struct cfsr_lathist *h, uint64_t v);

/**
 * cfsr_lathist_percentile() - a nearest-rank percentile
 * @h: the histogram
 * @pct: 1..100
 *
 * The sample of rank ceil(@pct * count / 100) in increasing order,
 * reported as the upper edge of its bucket (cfsr_lathist_upper()) and at
 * most @h->max.
 *
 * Return: the value in ns; 0 when @h is empty.
 */
uint64_t cfsr_lathist_percentile(const struct cfsr_lathist *h, unsigned int pct);

/**
 * cfsr_lathist_upper() - the largest value in the bucket of @v
 * @v: a value, ns
 *
 * Return: @v itself below 2^CFSR_LAT_SUB_BITS; otherwise, with
 * e = floor(log2 @v) and s = e - CFSR_LAT_SUB_BITS, ((@v >> s) << s) +
 * 2^s - 1.
 */
uint64_t cfsr_lathist_upper(uint64_t v);

/* Free the buckets; the histogram is empty afterwards. */
void cfsr_lathist_release(struct cfsr_lathist *h);

/**
 * struct cfsr_task_sum - what the tasks of one name did
 * @comm: the name
 * @nr_tasks: tasks that carried the name (a task renamed by exec, or a
 *            reused pid, counts once under each name it carried)
 * @runtime: ns on a CPU, from sched_switch intervals (and inferred switches)
 * @stat_runtime: sum of sched_stat_runtime's runtime, ns of clock_task
 * @fair: ns of weight-fair run time
 * @wakeups: wake-ups (sched_waking, or sched_wakeup/wakeup_new not preceded
 *           by one)
 * @wakeups_unseen: wake-ups whose switch in no event shows (the task was
 *                  woken again first), left out of @lat
 * @migrations_wakeup: sched_migrate_task between sched_waking and sched_wakeup
 * @migrations_other: all other sched_migrate_task events
 * @switches_voluntary: switched out in a sleeping or dead state
 * @switches_preempted: switched out still runnable (prev_state R)
 * @lat: wake-up latency: wake-up to the next switch in
 */
struct cfsr_task_sum {
	char comm[CFSR_COMM_LEN];
	uint64_t nr_tasks;
	uint64_t runtime;
	uint64_t stat_runtime;
	uint64_t fair;
	uint64_t wakeups;
	uint64_t wakeups_unseen;
	uint64_t migrations_wakeup;
	uint64_t migrations_other;
	uint64_t switches_voluntary;
	uint64_t switches_preempted;
	struct cfsr_lathist lat;
};

struct cfsr_taskstats_task;
struct cfsr_taskstats_rq;

/* One CPU: who runs on it and since when. */
struct cfsr_taskstats_cpu {
	/* pid of the current task, 0 idle, -1 not known */
	int cur;
	/* when @cur was switched in (or was first known to run) */
	uint64_t cur_start;
	/* timestamp of the last event recorded on this CPU, 0 before any */
	uint64_t last_ts;
	bool seen;
	/* ns a task other than idle ran on this CPU */
	uint64_t busy;
};

/**
 * struct cfsr_taskstats - the accounting of one trace
 * @nr_cpus: CPUs the fair share divides (from the trace's header)
 * @first_ts: first event, valid when @events > 0
 * @last_ts: last event
 * @events: events seen
 * @names: one entry per task name, in order of first appearance
 * @cpus: @nr_cpu_slots entries (grows when events name a higher CPU)
 * @lat_all: wake-up latency of every task
 * @migrations: sched_migrate_task events
 * @inferred_switches: switches into a task that no sched_switch recorded,
 *                     inferred from the task's events on the CPU
 * @wakeups_unseen: the sum of the names' @wakeups_unseen
 * @lost_notices: lost-events notices (CFSR_EV_LOST)
 */
struct cfsr_taskstats {
	int nr_cpus;
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t events;
	struct cfsr_task_sum *names;
	size_t nr_names;
	size_t alloc_names;
	struct cfsr_taskstats_cpu *cpus;
	size_t nr_cpu_slots;
	size_t alloc_cpus;
	struct cfsr_lathist lat_all;
	uint64_t migrations;
	uint64_t inferred_switches;
	uint64_t wakeups_unseen;
	uint64_t lost_notices;

	/* private: task table (open addressing on pid) and runnable set */
	struct cfsr_taskstats_task *tasks;
	size_t nr_tasks;
	size_t alloc_tasks;
	int *slots;
	size_t nr_slots;
	struct cfsr_taskstats_rq *runnable;
	size_t nr_runnable;
	size_t alloc_runnable;
	uint64_t fair_ts;
	bool finished;
};

/**
 * cfsr_taskstats_new() - start the accounting of a trace
 * @nr_cpus: CPUs of the machine (at least 1): the capacity the fair share divides
 *
 * Return: an owned object, released with cfsr_taskstats_free(), or NULL
 * when memory runs out.
 */
struct cfsr_taskstats *cfsr_taskstats_new(int nr_cpus);

/**
 * cfsr_taskstats_event() - account one event
 * @s: the accounting
 * @ev: the next event, in time order
 *
 * An event earlier than the one before it is taken at the earlier one's
 * time, so that intervals never run backwards.
 *
 * Return: 0, or -1 (after cfsr_error()) when memory runs out or an event
 * names a CPU out of range (negative or 4096 and above).
 */
int cfsr_taskstats_event(struct cfsr_taskstats *s, const struct cfsr_event *ev);

/**
 * cfsr_taskstats_finish() - close the accounting at the last event
 * @s: the accounting
 *
 * Ends every running interval at @s->last_ts.  Call once, after the last
 * event; the sums are complete afterwards.
 */
void cfsr_taskstats_finish(struct cfsr_taskstats *s);

/**
 * cfsr_taskstats_find() - the sums of one name
 * @s: the accounting
 * @comm: the name
 *
 * Return: a pointer into @s->names, valid until the next event, or NULL.
 */
const struct cfsr_task_sum *cfsr_taskstats_find(const struct cfsr_taskstats *s, const char *comm);

/* Release everything; accepts NULL. */
void cfsr_taskstats_free(struct cfsr_taskstats *s);

#endif /* CFSR_TASKSTATS_H */

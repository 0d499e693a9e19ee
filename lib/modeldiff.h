/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two models of one trace, side by side: where the PELT signals of two
 * kernel profiles replaying the same events differ.
 *
 * The caller feeds every event to both engines and, between events, asks
 * for a sample at regular instants of trace time (cfsr_modeldiff_sample()).
 * At each instant every task both engines know, and the root cfs_rq of
 * every CPU, is read from each engine as an update at that instant would
 * leave it (cfsr_replay_task_avg_at(), cfsr_replay_cfs_rq_settle()), and
 * the two readings are accumulated per task and per CPU.  Nothing here
 * changes either engine.  Memory grows with tasks and CPUs only.
 */
#ifndef CFSR_MODELDIFF_H
#define CFSR_MODELDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "replay.h"

/* The signals compared. */
enum cfsr_md_signal {
	CFSR_MD_LOAD,
	CFSR_MD_RUNNABLE,
	CFSR_MD_UTIL,
	CFSR_MD_UTIL_EST,
	CFSR_MD_NR,
};

/**
 * struct cfsr_md_stat - one signal of one entity over the samples
 * @sum_a: sum of model A's values
 * @sum_b: sum of model B's values
 * @sum_abs: sum of |A - B|
 * @max_abs: largest |A - B|
 * @max_a: model A's value there
 * @max_b: model B's value there
 * @max_ts: trace time of the first sample where it was reached
 */
struct cfsr_md_stat {
	double sum_a;
	double sum_b;
	double sum_abs;
	uint64_t max_abs;
	uint64_t max_a;
	uint64_t max_b;
	uint64_t max_ts;
};

/**
 * struct cfsr_md_row - one task, or one CPU's root cfs_rq
 * @pid: the task's pid, or -1 for a CPU
 * @cpu: the CPU of a CPU row (0 for a task)
 * @comm: the task's last name
 * @samples: samples where both models had a signal
 * @stat: per signal
 * @unfit_a: samples where model A's util_avg does not fit a CPU of full
 *           capacity with the kernel's 20 % margin (fits_capacity() fails)
 * @unfit_b: the same in model B
 */
struct cfsr_md_row {
	int pid;
	int cpu;
	char comm[CFSR_COMM_LEN];
	uint64_t samples;
	struct cfsr_md_stat stat[CFSR_MD_NR];
	uint64_t unfit_a;
	uint64_t unfit_b;
};

struct cfsr_modeldiff;

/**
 * cfsr_modeldiff_new() - accumulator for a machine of @nr_cpus CPUs
 * Return: an owned accumulator, or NULL (after cfsr_error()).
 */
struct cfsr_modeldiff *cfsr_modeldiff_new(int nr_cpus);

void cfsr_modeldiff_free(struct cfsr_modeldiff *d);

/**
 * cfsr_modeldiff_sample() - read both engines at trace time @ts
 * @d: the accumulator
 * @a: model A, fed the same events as @b up to @ts
 * @b: model B
 * @ts: trace time, at or after the last event fed
 *
 * Tasks still warming up (their unknown past not yet decayed) in either
 * model are counted, not compared; tasks that exited are not read.
 * Return: 0, or -1 on allocation failure (after cfsr_error()).
 */
int cfsr_modeldiff_sample(struct cfsr_modeldiff *d, struct cfsr_replay *a, struct cfsr_replay *b,
			  uint64_t ts);

/* Samples taken, and task readings skipped because a signal was warming up. */
uint64_t cfsr_modeldiff_samples(const struct cfsr_modeldiff *d);
uint64_t cfsr_modeldiff_warming(const struct cfsr_modeldiff *d);

/* The row of CPU @cpu's root cfs_rq, or NULL. */
const struct cfsr_md_row *cfsr_modeldiff_cpu(const struct cfsr_modeldiff *d, int cpu);

/**
 * cfsr_modeldiff_tasks() - the task rows, largest difference first
 * @d: the accumulator
 * @rows: set to the rows (owned by @d, valid until the next call)
 *
 * Ordered by the mean |A - B| of load_avg, runnable_avg and util_avg
 * together, then by pid.
 * Return: the number of rows, or -1 on allocation failure (after
 * cfsr_error()).
 */
long cfsr_modeldiff_tasks(struct cfsr_modeldiff *d, const struct cfsr_md_row **rows);

/* Name of signal @s: "load_avg", "runnable_avg", "util_avg", "util_est". */
const char *cfsr_md_signal_name(enum cfsr_md_signal s);

#endif

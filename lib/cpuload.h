/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU load as the comparators see it: the one place where they use the
 * replay engine.
 *
 * INTERIM: until the engine models cfs_rq signals, a CPU's load is the sum
 * of the modelled se.avg.load_avg of the tasks queued or running on it.
 * This leaves out the blocked load a cfs_rq keeps decaying after its tasks
 * sleep, group entities and the removed-load bookkeeping, so it is lower
 * than the kernel's cfs_rq->avg.load_avg whenever tasks have slept
 * recently.  Output labels it "interim".  When the engine gains per-CPU
 * cfs_rq signals, cfsr_cpuload_now() returns them and the label goes.
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
#define CFSR_CPULOAD_KIND "interim-sum-of-queued-task-load_avg"

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
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_cpuload_event(struct cfsr_cpuload *cl, const struct cfsr_event *ev);

/* Clock readings will be given (cfsr_replay_expect_clock()); call before the first event. */
void cfsr_cpuload_expect_clock(struct cfsr_cpuload *cl);

/* A run queue's clock reading for the engine (cfsr_replay_clock_sample()). */
void cfsr_cpuload_clock(struct cfsr_cpuload *cl, int cpu, uint64_t ts, uint64_t clock_task);

/* Put a task in its task group (cfsr_replay_task_set_group()); return -1 on failure. */
int cfsr_cpuload_set_group(struct cfsr_cpuload *cl, int pid, const char *group);

/* The CPU's interim load now (before the next event is replayed). */
uint64_t cfsr_cpuload_now(const struct cfsr_cpuload *cl, int cpu);

/**
 * cfsr_cpuload_task() - a task's modelled load_avg and whether it is counted
 * @cpu: set to the CPU it is counted on, -1 when not queued or running
 * Return: its load_avg (0 for an unknown task).
 */
uint64_t cfsr_cpuload_task(const struct cfsr_cpuload *cl, int pid, int *cpu);

/* Fair tasks queued or running on the CPU now. */
int cfsr_cpuload_nr(const struct cfsr_cpuload *cl, int cpu);

/* The pids counted on the CPU now (borrowed until the next event); return their number. */
size_t cfsr_cpuload_on(const struct cfsr_cpuload *cl, int cpu, const int **pids);

/* The task is counted on a CPU and waits there (queued, not running). */
bool cfsr_cpuload_waiting(const struct cfsr_cpuload *cl, int pid);

/* The task's last name as the engine knows it ("" when unknown). */
const char *cfsr_cpuload_comm(const struct cfsr_cpuload *cl, int pid);

/* The engine's counts (updates, estimated and unanchored clock values). */
const struct cfsr_replay_stats *cfsr_cpuload_replay_stats(const struct cfsr_cpuload *cl);

/* The time average of the CPU's interim load over the window. */
uint64_t cfsr_cpuload_mean(const struct cfsr_cpuload *cl, int cpu);

#endif /* CFSR_CPULOAD_H */

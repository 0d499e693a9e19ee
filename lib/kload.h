/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's own per-CPU loads, from its PELT records of the same run
 * (pelt.jsonl: pelt_cfs_tp of each CPU's root cfs_rq), for the comparators
 * that otherwise take the model's (lib/cpuload.h).
 *
 * A CPU's kernel load at a trace instant is the load_avg of its root
 * cfs_rq's latest record at or before that instant, aged to it by decay
 * alone: the record's sums are brought to the CPU's PELT clock then as
 * ___update_load_sum() and ___update_load_avg() (kernel/sched/pelt.c,
 * v5.13-v6.18, the model's arithmetic, lib/pelt.h) do with a load input
 * of 0, which is what __update_load_avg_cfs_rq() does for a CPU whose
 * cfs_rq holds no weight.  The PELT clock at the instant is the record's
 * (clock_pelt - lost_idle_time, else clock_task) plus the trace time
 * elapsed since the record.
 * Differs: a cfs_rq that holds queued weight accumulates load between its
 * updates, which decay alone does not give (the kernel records the root
 * cfs_rq at each update that crosses a 1024 us period, so the gap on a
 * busy CPU is about a period or a tick); removed load is applied at the
 * kernel's next update, not here; a capacity- or frequency-scaled
 * clock_pelt runs slower than the trace clock on a busy CPU.
 */
#ifndef CFSR_KLOAD_H
#define CFSR_KLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "pelt.h"

struct cfsr_kload;

/**
 * cfsr_kload_new() - per-CPU kernel loads
 * @nr_cpus: CPUs of the trace
 * @params: the PELT arithmetic (a profile's, v4.12 and later: not NULL)
 * Return: owned, or NULL after cfsr_error().
 */
struct cfsr_kload *cfsr_kload_new(int nr_cpus, const struct cfsr_pelt_params *params);

void cfsr_kload_free(struct cfsr_kload *kl);

/**
 * cfsr_kload_record() - a record of a CPU's root cfs_rq
 * @cpu: the cfs_rq's CPU (the record's rq_cpu)
 * @ts: the record's time on the trace clock
 * @pelt_now: its rq's PELT clock then (clock_pelt - lost_idle_time)
 * @avg: its signal (last_update_time, load_sum, period_contrib, load_avg)
 *
 * Records of a CPU come in time order; a CPU out of range is ignored.
 */
void cfsr_kload_record(struct cfsr_kload *kl, int cpu, uint64_t ts, uint64_t pelt_now,
		       const struct cfsr_sched_avg *avg);

/* The CPU has had a record. */
bool cfsr_kload_known(const struct cfsr_kload *kl, int cpu);

/* The CPU's kernel load at trace time @ts (not before its latest record); 0 before any. */
uint64_t cfsr_kload_at(const struct cfsr_kload *kl, int cpu, uint64_t ts);

/* Fill @loads[0..nr_cpus) with every CPU's kernel load at @ts. */
void cfsr_kload_all(const struct cfsr_kload *kl, uint64_t ts, uint64_t *loads);

/* Records taken so far. */
uint64_t cfsr_kload_records(const struct cfsr_kload *kl);

#endif /* CFSR_KLOAD_H */

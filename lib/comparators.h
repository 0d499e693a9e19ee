/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report's comparators as one bundle: idle while waiting, the
 * placement audit, the per-CPU load (the replay engine behind the loads),
 * lasting imbalance and the pick check (which asks the per-CPU load's
 * engine), fed each event of one trace in one pass, with the balance
 * intervals they share.  `report` prints them; `compare` sets two
 * traces' totals side by side.
 */
#ifndef CFSR_COMPARATORS_H
#define CFSR_COMPARATORS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuload.h"
#include "event.h"
#include "idlewait.h"
#include "imbalance.h"
#include "kload.h"
#include "pickcheck.h"
#include "placement.h"
#include "profile.h"
#include "topology.h"

/* HZ assumed when the trace does not record it. */
#define CFSR_DEFAULT_HZ 250
/* sd_init(): imbalance_pct of a domain without SMT, NUMA or asymmetry (v6.18; older releases not checked) */
#define CFSR_IMBALANCE_PCT 117

/**
 * struct cfsr_comparators_params - what the comparators count
 * @nr_cpus: CPUs of the trace
 * @hz: the traced kernel's HZ, 0 when unknown (CFSR_DEFAULT_HZ assumed)
 * @prof: the model profile (an implemented one)
 * @top: largest items each comparator keeps
 * @win_start: count from here
 * @win_end: up to here (UINT64_MAX: the end)
 * @filter_cpu: only this CPU (-1: all)
 * @filter_pid: only this task (-1: all)
 * @info: what the trace says about itself (its recorded tunables reach the
 *        engine: cfsr_replay_take_tunables()); NULL: nothing
 * @kernel_loads: the kernel's PELT records of the run will be given
 *                (cfsr_kload_record() on @kl): lasting imbalance is also
 *                evaluated on the kernel's per-CPU loads (@imk)
 */
struct cfsr_comparators_params {
	const struct cfsr_trace_info *info;
	int nr_cpus;
	int hz;
	const struct cfsr_profile *prof;
	int top;
	uint64_t win_start;
	uint64_t win_end;
	int filter_cpu;
	int filter_pid;
	bool kernel_loads;
	/* a look ahead in the trace for the engine (cfsr_replay_set_peek()), or NULL */
	cfsr_replay_peek peek;
	void *peek_ctx;
};

/**
 * struct cfsr_comparators - the bundle
 * @iw: idle while waiting
 * @cl: per-CPU load
 * @pl: placement audit
 * @im: lasting imbalance
 * @pk: the pick check (asks @cl's replay engine before each switch)
 * @topo: the scheduling topology the trace gives (its LLCs and domain
 *        levels; one LLC when it gives none), which the placement audit
 *        and lasting imbalance judge by
 * @busy_interval_by_weight: a busy CPU's balance interval in a domain of N
 *        CPUs at [N], N up to the trace's CPUs (lasting imbalance per level)
 * @balance_ns: an idle CPU's balance interval (idle-while-waiting's long episodes)
 * @busy_balance_ns: a busy CPU's (lasting imbalance)
 * @hz_assumed: HZ was not in the trace
 * @hz: the HZ the intervals are in jiffies of (the trace's, else assumed)
 * @events: events fed
 * @sched_events: scheduler events among them
 * @last_ts: time of the last event
 * @nr_cpus: CPUs of the trace
 * @kl: the kernel's per-CPU loads (params.kernel_loads), else NULL
 * @imk: lasting imbalance on @kl's loads, else NULL
 * @kloads: @kl's loads at the last event
 * @kernel_from: first event at which every CPU had a kernel record (@imk
 *               looks from there), 0 before
 * @kdiff: the largest |model - kernel| load of B or L at a window's start
 *         (either source's windows)
 * @kdiff_ts: when
 * @kdiff_cpu: on which CPU (-1: none)
 */
struct cfsr_comparators {
	struct cfsr_iww *iw;
	struct cfsr_cpuload *cl;
	struct cfsr_place *pl;
	struct cfsr_imbalance *im;
	struct cfsr_pickcheck *pk;
	struct cfsr_topo topo;
	uint64_t *busy_interval_by_weight;
	uint64_t balance_ns;
	uint64_t busy_balance_ns;
	bool hz_assumed;
	int hz;
	uint64_t events;
	uint64_t sched_events;
	uint64_t last_ts;
	int nr_cpus;
	struct cfsr_kload *kl;
	struct cfsr_imbalance *imk;
	uint64_t *kloads;
	uint64_t kernel_from;
	uint64_t kdiff;
	uint64_t kdiff_ts;
	int kdiff_cpu;
};

/**
 * struct cfsr_imb_agree - lasting imbalance on model and kernel loads, side by side
 * @model: windows on the model's loads that some window on the kernel's
 *         overlaps with the same B, L and class
 * @kernel: windows on the kernel's loads that some model window so matches
 * @model_lasting: of @model, the lasting ones
 * @kernel_lasting: of @kernel, the lasting ones
 */
struct cfsr_imb_agree {
	uint64_t model;
	uint64_t kernel;
	uint64_t model_lasting;
	uint64_t kernel_lasting;
};

/* Compare the two evaluations' windows (after cfsr_comparators_finish()); -1 after cfsr_error(). */
int cfsr_comparators_imb_agree(const struct cfsr_comparators *c, struct cfsr_imb_agree *out);

/**
 * cfsr_comparators_init() - set the bundle up
 * Return: 0, or -1 after cfsr_error() (what was made is released).
 */
int cfsr_comparators_init(struct cfsr_comparators *c, const struct cfsr_comparators_params *p);

/**
 * cfsr_comparators_event() - feed one event (time order)
 * Return: 0, or -1 after cfsr_error().
 */
int cfsr_comparators_event(struct cfsr_comparators *c, const struct cfsr_event *ev);

/* Close what is open at the end of the trace. */
void cfsr_comparators_finish(struct cfsr_comparators *c);

void cfsr_comparators_release(struct cfsr_comparators *c);

/**
 * cfsr_balance_interval_ns() - a CPU's load-balance interval in a domain
 * @nr_cpus: the domain's weight (every CPU for the one-level machine
 *           idle-while-waiting takes; a level's span for lasting imbalance)
 * @hz: the kernel's HZ
 * @busy: the CPU runs a task
 *
 * Mirrors sd_init() (balance_interval = sd_weight ms, busy_factor 16) and
 * get_sd_balance_interval() (times busy_factor when busy, msecs_to_jiffies(),
 * at least one jiffy) in kernel/sched/topology.c and fair.c of v6.18; the
 * release that lowered busy_factor from 32 to 16 is not pinned here.
 * Return: the interval in ns.
 */
uint64_t cfsr_balance_interval_ns(int nr_cpus, int hz, bool busy);

#endif /* CFSR_COMPARATORS_H */

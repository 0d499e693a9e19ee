/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel model profiles.
 *
 * A profile is the set of kernel behaviours a replay follows, chosen from
 * the traced kernel's release (or --kernel): the PELT arithmetic
 * parameters and the scheduler features the engine switches on.  Kernel
 * versions are chosen at run time through this table, never by #ifdef.
 */
#ifndef CFSR_PROFILE_H
#define CFSR_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "pelt-legacy.h"
#include "pelt-v4.h"
#include "pelt.h"

/*
 * A kernel release major.minor.sublevel as one number that orders releases
 * (cfsr_profile_version()).  Sublevels run to 999, so the long stable
 * series (4.19.325, 5.10.240, 6.1.160, ...) are keyed on their own
 * sublevels; CFSR_KVER(maj, min, 999) is the last release of a series.
 */
#define CFSR_KVER_SUB_MAX 999
#define CFSR_KVER(major, minor, sub) ((major)*1000000 + (minor)*1000 + (sub))

/* Which PELT arithmetic a profile uses. */
enum cfsr_profile_arith {
	/* v3.8-v4.2: lib/pelt-legacy.h (runnable_avg_sum/period, load_avg_contrib) */
	CFSR_ARITH_LEGACY,
	/* v4.3-v5.6: lib/pelt-v4.h (load_avg/util_avg, runnable_load_avg) */
	CFSR_ARITH_V4,
	/* v5.7+: lib/pelt.h (load_avg, runnable_avg, util_avg) */
	CFSR_ARITH_RUNNABLE,
};

/**
 * struct cfsr_profile - one model version
 * @name: name shown in output headers: the release range and its model,
 *        e.g. "v6.18.44-v6.18.y EEVDF, delayed dequeue"
 * @first: first kernel version covered, CFSR_KVER(major, minor, sublevel)
 * @last: last kernel version covered, same encoding (sublevel 999 for the
 *        end of a series)
 * @pelt: PELT parameters of the runnable_avg model (CFSR_ARITH_RUNNABLE),
 *        else NULL
 * @eevdf: EEVDF pick (v6.6+) rather than classic CFS
 * @delay_dequeue: DELAY_DEQUEUE (v6.12+): a task that blocks while not
 *                 eligible stays queued until picked or woken
 * @runnable_delayed: a cfs_rq's runnable count for PELT, and a group
 *                    entity's runnable_weight, count its delayed tasks
 *                    (h_nr_running, 6.12.0-6.12.6); from 6.12.7 and v6.13
 *                    they do not (h_nr_running - h_nr_delayed, 76f2f783294d
 *                    "sched/eevdf: More PELT vs DELAYED_DEQUEUE";
 *                    h_nr_runnable from v6.14)
 * @delay_zero: DELAY_ZERO (v6.12+): a delayed task leaves, or is requeued,
 *              with its positive lag dropped
 * @place_lag: PLACE_LAG (v6.6+): an enqueued entity keeps its lag
 * @place_deadline_initial: PLACE_DEADLINE_INITIAL (v6.6+): a new task's
 *                          first deadline is half a slice away
 * @place_rel_deadline: PLACE_REL_DEADLINE (v6.12+): an entity that leaves
 *                      its cfs_rq without sleeping (migration, group move,
 *                      reweight) keeps its relative deadline
 * @run_to_parity: RUN_TO_PARITY (v6.6+): the pick keeps an eligible current
 *                 task until its deadline is renewed
 * @pick_buddy: PICK_BUDDY (v6.14+, stable 6.12.13 and 6.13.2, 2a77e4be12cb):
 *              the pick takes cfs_rq->next when it is eligible -- with task
 *              groups, the group entity a sleep's dequeue left it
 *              (set_next_buddy() in dequeue_entities()); before, only
 *              NEXT_BUDDY (off by default) read it
 * @util_est: UTIL_EST (v4.17+): util_est is kept
 * @util_est_fastup: UTIL_EST_FASTUP (a feature v5.5-v6.7, unconditional
 *                   from v6.8): a sleep's sample above the EWMA raises it
 *                   at once
 * @base_slice_ns: normalized sysctl_sched_base_slice; the kernel multiplies
 *                 it by 1 + ilog2(min(CPUs, 8)) (tunable_scaling = log)
 * @util_est_late: a sleeping task's util_est_update() runs at the end of
 *                 dequeue_task_fair(), on the averages dequeue_entity()
 *                 has just updated (v4.17-v6.11; before the split into
 *                 util_est_dequeue() and util_est_update(), which v5.13
 *                 has, util_est_dequeue() did both at that end, v5.7-v5.10
 *                 among them); from v6.12 it runs
 *                 before dequeue_entities(), on those of the task's
 *                 previous update
 * @migrate_pelt_lag: a wakeup migration from an idle CPU ages the task
 *                    further, to an estimate of the source's clock
 *                    (migrate_se_pelt_lag(), e2f3e35f1f5a, v6.0+); before,
 *                    remove_entity_load_avg() only syncs it to its cfs_rq's
 *                    last update
 * @detach_in_dequeue: a load-balance migration detaches the task inside
 *                     dequeue_entity() (DO_DETACH, e1f078f50478, v6.1+),
 *                     so the walk up reweights the group entities after
 *                     the detach; before, migrate_task_rq_fair() detaches
 *                     after the dequeue walk and propagates without
 *                     update_cfs_group()
 * @sched_idle_cpu: the rq counts its SCHED_IDLE tasks (idle_h_nr_running,
 *                  h_nr_idle from v6.13) and placement takes a CPU that
 *                  runs only those as idle (sched_idle_cpu(), v5.4+)
 * @cgroup_idle: a task group can be idle (cpu.idle, v5.15+): its entities
 *               are se_is_idle(), its tasks count in h_nr_idle above it
 * @idle_strict: check_preempt_wakeup_fair() applies the idle rule only at
 *               the level find_matching_se() gives, without the earlier
 *               test of curr's policy (faa42d29419d, v6.11+)
 * @idle_unprotect: a non-idle wakeup cancels an idle curr's RUN_TO_PARITY
 *                  slice protection (cancel_protect_slice(), f553741ac8c0,
 *                  v6.15+)
 * @lag_clamp_max_slice: update_entity_lag() clamps the lag to the service of
 *                       the largest slice queued plus a tick
 *                       (cfs_rq_max_slice(), 6e3c0a4e1ad1, v7.0), not of
 *                       max(2 slices, a tick)
 * @implemented: the engine replays this profile; others are refused.  Every
 *               profile is, v3.8-v5.6 through their own operations
 *               (lib/pelt-ops.h)
 * @arith: which PELT arithmetic applies
 * @legacy: parameters of the legacy arithmetic (CFSR_ARITH_LEGACY), else NULL
 * @v4: parameters of the v4.3-v5.6 arithmetic (CFSR_ARITH_V4), else NULL
 * @traits: what distinguishes the range, with kernel function names
 */
struct cfsr_profile {
	const char *name;
	int first;
	int last;
	const struct cfsr_pelt_params *pelt;
	bool eevdf;
	bool delay_dequeue;
	bool runnable_delayed;
	bool delay_zero;
	bool place_lag;
	bool place_deadline_initial;
	bool place_rel_deadline;
	bool run_to_parity;
	bool pick_buddy;
	bool util_est;
	bool util_est_fastup;
	unsigned int base_slice_ns;
	bool util_est_late;
	bool migrate_pelt_lag;
	bool detach_in_dequeue;
	bool sched_idle_cpu;
	bool cgroup_idle;
	bool idle_strict;
	bool idle_unprotect;
	bool lag_clamp_max_slice;
	bool implemented;
	enum cfsr_profile_arith arith;
	const struct cfsr_legacy_params *legacy;
	const struct cfsr_v4_params *v4;
	const char *traits;
};

/**
 * cfsr_profile_count() - number of profiles
 *
 * Return: the size of the table cfsr_profile_at() indexes.
 */
size_t cfsr_profile_count(void);

/**
 * cfsr_profile_at() - a profile by position, oldest first
 * @i: 0 .. cfsr_profile_count() - 1
 *
 * Return: a static profile, or NULL when @i is out of range.
 */
const struct cfsr_profile *cfsr_profile_at(size_t i);

/**
 * cfsr_profile_clock_pelt() - whether a profile's PELT clock is rq_clock_pelt()
 * @p: a profile
 *
 * From v5.1 (23127296889f, update_rq_clock_pelt()) PELT runs on
 * rq->clock_pelt - lost_idle_time: clock_task scaled by the CPU's capacity
 * and frequency while it runs, synced to clock_task when it idles; the
 * contributions are no longer scaled.  Before, on cfs_rq_clock_task(): the
 * rq's clock_task less the cfs_rq's throttled time, with scale_freq and
 * scale_cpu applied to the contributions (__update_load_avg(), v4.3-v5.0;
 * __update_entity_runnable_avg(), v4.1-v4.2; none before).  At full
 * capacity without frequency invariance the two clocks agree.
 * Return: true for the v5.1+ profiles.
 */
bool cfsr_profile_clock_pelt(const struct cfsr_profile *p);

/**
 * cfsr_profile_what_if() - whether a replay models another kernel than the traced one
 * @trace_release: the release the trace records, or NULL
 * @profile: the profile used
 *
 * Return: true when the trace records a release outside @profile's range
 * (the output should say "what-if"); false when it matches or is unknown.
 */
bool cfsr_profile_what_if(const char *trace_release, const struct cfsr_profile *profile);

/**
 * cfsr_profile_version() - parse a kernel release ("6.18.44-fc-v1147")
 * @release: as uname -r prints it
 *
 * Return: CFSR_KVER(major, minor, min(sublevel, CFSR_KVER_SUB_MAX)), or -1 if
 * @release does not start with "MAJOR.MINOR" or major or minor exceed 99.
 */
int cfsr_profile_version(const char *release);

/**
 * cfsr_profile_for() - the profile for a kernel release
 * @release: uname -r of the traced kernel, or a --kernel value ("6.12")
 *
 * Return: a static profile, or NULL when @release cannot be parsed or no
 * profile covers it.
 */
const struct cfsr_profile *cfsr_profile_for(const char *release);

/**
 * cfsr_profile_series_only() - whether a release names a series, not a release of it
 * @release: a --kernel value
 *
 * Return: true for "MAJOR.MINOR" with nothing after it ("6.6"); false for
 * "6.6.0", "6.6.50", "6.6-rc3" and what cfsr_profile_version() refuses.
 */
bool cfsr_profile_series_only(const char *release);

/**
 * cfsr_profile_modelled() - the release a replay models
 * @trace_release: the release the trace records, or NULL
 * @override: a --kernel value, or NULL
 * @own: set when a series-only @override was resolved to the trace's own
 *       release; may be NULL
 *
 * A --kernel value without sublevel (cfsr_profile_series_only()) names
 * the trace's own release when that is in the same series (--kernel 6.6
 * on a 6.6.50 trace models 6.6.50, not a what-if), otherwise the series'
 * first release, MAJOR.MINOR.0.  A value with a sublevel is taken as is.
 * Return: CFSR_KVER(major, minor, sublevel), or -1 when the release
 * cannot be parsed or neither is given.
 */
int cfsr_profile_modelled(const char *trace_release, const char *override, bool *own);

/**
 * cfsr_profile_series_note() - what a series-only --kernel was taken as
 * @trace_release: the release the trace records, or NULL
 * @override: a --kernel value, or NULL
 * @buf: where to write the note
 * @len: its size
 *
 * Return: @buf holding e.g. "--kernel 6.6 taken as 6.6.0, the series'
 * first release" (or "as 6.6.50, the trace's own sublevel"), for the
 * output headers; NULL when @override is absent or has a sublevel.
 */
const char *cfsr_profile_series_note(const char *trace_release, const char *override, char *buf,
				     size_t len);

/**
 * cfsr_profile_choose() - the profile a replay uses
 * @trace_release: the release the trace records, or NULL
 * @override: a --kernel value, or NULL
 * @what: the file, for messages
 *
 * The release modelled is cfsr_profile_modelled()'s: a --kernel value
 * without sublevel takes the trace's own sublevel when the trace is of
 * that series.  Reports through cfsr_error() a release that is unknown or
 * unparsable,
 * and one whose profile is not implemented: such a profile has its PELT
 * arithmetic (lib/pelt-legacy.h, lib/pelt-v4.h or lib/pelt.h parameters)
 * but not the engine's update points, and is never replaced silently by
 * another one.
 * Return: the profile, or NULL.
 */
const struct cfsr_profile *cfsr_profile_choose(const char *trace_release, const char *override,
					       const char *what);

#endif /* CFSR_PROFILE_H */

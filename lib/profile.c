// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel model profiles.  See profile.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "profile.h"

/*
 * Ordered by version, contiguous from v3.8 to v6.18.  The ranges follow
 * the changes that alter the numbers (MODEL.md section 6, corrected in
 * docs/PROFILES.md); a stable backport whose first sublevel is pinned
 * splits its series (4.9.220, 4.14.177, 4.19.116, 5.4.33, 5.5.18, 5.6.5,
 * 5.7.7, 5.10.113, 5.15.19, 5.15.36, 5.16.5, 5.17.5, 6.6.4, 6.6.30, 6.6.93,
 * 6.8.9, 6.12.7, 6.12.11, 6.12.31, 6.14.9, and 5.10.36, 5.10.44, 5.10.46,
 * 5.10.51, 5.10.96: docs/PROFILES.md, "Stable backports"; 6.18.44, the
 * first sublevel whose kernel records show its change), the others are
 * noted in the traits.
 */
#define LEGACY(nm, from, to, params, what)                                         \
	{                                                                          \
		.name = nm, .first = from, .last = to, .arith = CFSR_ARITH_LEGACY, \
		.legacy = params, .implemented = true, .traits = what              \
	}
/* the traits of a stable series with 26cf52229efc on its mainline's arithmetic */
#define LOAD_DOWN_FLOOR(base, stable) \
	"as " base ", scale_load_down() floored at 2 (26cf52229efc, stable " stable ")"
#define V4(nm, from, to, params, what)                                                       \
	{                                                                                    \
		.name = nm, .first = from, .last = to, .arith = CFSR_ARITH_V4, .v4 = params, \
		.sched_idle_cpu = (from) >= CFSR_KVER(5, 4, 0), .implemented = true,         \
		.traits = what                                                               \
	}
/*
 * The scheduler features are the releases' defaults (lib/schedfeat.h puts a
 * trace's own in their place): EEVDF profiles have PLACE_LAG,
 * PLACE_DEADLINE_INITIAL and RUN_TO_PARITY, from v6.15 PICK_BUDDY too (the
 * v6.12-v6.14 profile leaves it off: 6.12.13, 6.13.2 and 6.14 have it, which
 * a trace's recorded features say); delayed-dequeue ones (v6.12+)
 * DELAY_ZERO and PLACE_REL_DEADLINE too; UTIL_EST and UTIL_EST_FASTUP (a
 * feature until v6.7, then the only behaviour) are on in all of them;
 * migrate_se_pelt_lag() exists from v6.0 (e2f3e35f1f5a), the detach inside
 * dequeue_entity() from v6.1 (e1f078f50478); the delayed tasks count as
 * runnable for a cfs_rq's PELT up to 6.12.6 (76f2f783294d is in 6.12.7).
 * SCHED_IDLE: sched_idle_cpu() from v5.4, idle task groups (cpu.idle,
 * 304000390f88) from v5.15 -- the v5.14-v5.15.18 profile has them too, as
 * only a v5.15+ kernel states a group idle --, the wakeup preemption's idle
 * rule at the matched level only from v6.11 (faa42d29419d), its cancelled
 * slice protection from v6.15 (f553741ac8c0; stable 6.14.2, which the
 * v6.13-v6.14.8 profile leaves out).
 */
#define RUNNABLE(nm, from, to, params, is_eevdf, delay, slice_ns, impl, what)              \
	{                                                                                  \
		.name = nm, .first = from, .last = to, .pelt = params, .eevdf = is_eevdf,  \
		.delay_dequeue = delay, .delay_zero = delay, .place_lag = is_eevdf,        \
		.runnable_delayed = (delay) && (to) <= CFSR_KVER(6, 12, 6),                \
		.place_deadline_initial = is_eevdf, .place_rel_deadline = delay,           \
		.run_to_parity = is_eevdf, .pick_buddy = (from) >= CFSR_KVER(6, 15, 0),    \
		.util_est = true, .util_est_fastup = true, .base_slice_ns = slice_ns,      \
		.util_est_late = !delay, .migrate_pelt_lag = (from) >= CFSR_KVER(6, 0, 0), \
		.detach_in_dequeue = (from) >= CFSR_KVER(6, 1, 0), .implemented = impl,    \
		.sched_idle_cpu = true, .cgroup_idle = (to) >= CFSR_KVER(5, 15, 0),        \
		.idle_strict = (from) >= CFSR_KVER(6, 11, 0),                              \
		.idle_unprotect = (from) >= CFSR_KVER(6, 15, 0),                           \
		.lag_clamp_max_slice = (from) >= CFSR_KVER(6, 18, 44),                     \
		.arith = CFSR_ARITH_RUNNABLE, .traits = what                               \
	}

static const struct cfsr_profile profiles[] = {
	LEGACY("v3.8-v3.12 legacy PELT", CFSR_KVER(3, 8, 0), CFSR_KVER(3, 12, 999),
	       &cfsr_legacy_params_v3_8,
	       "__update_entity_runnable_avg() sums per entity; load_avg_contrib; "
	       "runnable_load_avg + blocked_load_avg; tg_load_contrib pushed past 1/8"),
	LEGACY("v3.13-v4.0 legacy PELT", CFSR_KVER(3, 13, 0), CFSR_KVER(4, 0, 999),
	       &cfsr_legacy_params_v3_13,
	       "as v3.8, new tasks start from one sched_slice() (init_task_runnable_average())"),
	LEGACY("v4.1-v4.2 legacy PELT, utilization", CFSR_KVER(4, 1, 0), CFSR_KVER(4, 2, 999),
	       &cfsr_legacy_params_v4_1,
	       "running_avg_sum, utilization_avg_contrib, utilization_load_avg; "
	       "arch_scale_freq_capacity() scaling"),
	V4("v4.3-v4.6 load_avg/util_avg", CFSR_KVER(4, 3, 0), CFSR_KVER(4, 6, 999),
	   &cfsr_v4_params_v4_3,
	   "__update_load_avg(): weighted load_sum, divider LOAD_AVG_MAX, "
	   "update_tg_load_avg() past 1/64; 20-bit weights from v4.7"),
	V4("v4.7-v4.9.219 load_avg/util_avg", CFSR_KVER(4, 7, 0), CFSR_KVER(4, 9, 219),
	   &cfsr_v4_params_v4_7,
	   "__compute_runnable_contrib() from __accumulated_sum_N32; scale_load_down() "
	   "in calc_cfs_shares()"),
	V4("v4.9.220-v4.9.y load_avg/util_avg", CFSR_KVER(4, 9, 220), CFSR_KVER(4, 9, 999),
	   &cfsr_v4_params_v4_9_220, LOAD_DOWN_FLOOR("v4.7", "4.9.220")),
	V4("v4.10-v4.11 load_avg/util_avg", CFSR_KVER(4, 10, 0), CFSR_KVER(4, 11, 999),
	   &cfsr_v4_params_v4_10,
	   "attach and detach propagated through group entities (update_tg_cfs_util(), "
	   "update_tg_cfs_load(), 09a43ace1f98); otherwise as v4.7"),
	V4("v4.12 load_avg/util_avg", CFSR_KVER(4, 12, 0), CFSR_KVER(4, 12, 999),
	   &cfsr_v4_params_v4_12,
	   "accumulate_sum() in three segments, last_update_time in whole units, "
	   "divider still LOAD_AVG_MAX"),
	V4("v4.13-v4.14.176 load_avg/util_avg", CFSR_KVER(4, 13, 0), CFSR_KVER(4, 14, 176),
	   &cfsr_v4_params_v4_13, "divider LOAD_AVG_MAX - 1024 + period_contrib (625ed2bf049d)"),
	V4("v4.14.177-v4.14.y load_avg/util_avg", CFSR_KVER(4, 14, 177), CFSR_KVER(4, 14, 999),
	   &cfsr_v4_params_v4_14_177, LOAD_DOWN_FLOOR("v4.13", "4.14.177")),
	V4("v4.15-v4.19.115 runnable_load_avg", CFSR_KVER(4, 15, 0), CFSR_KVER(4, 19, 115),
	   &cfsr_v4_params_v4_15,
	   "unweighted se load_sum, runnable_load_sum/avg, calc_group_shares(); "
	   "util_est from v4.17; PELT clock rq_clock_task()"),
	V4("v4.19.116-v4.19.y runnable_load_avg", CFSR_KVER(4, 19, 116), CFSR_KVER(4, 19, 999),
	   &cfsr_v4_params_v4_19_116, LOAD_DOWN_FLOOR("v4.15", "4.19.116")),
	V4("v4.20-v5.0 runnable_load_avg", CFSR_KVER(4, 20, 0), CFSR_KVER(5, 0, 999),
	   &cfsr_v4_params_v4_15, "as v4.15"),
	V4("v5.1-v5.4.32 runnable_load_avg, clock_pelt", CFSR_KVER(5, 1, 0), CFSR_KVER(5, 4, 32),
	   &cfsr_v4_params_v4_15,
	   "as v4.15, the PELT clock rq_clock_pelt() (update_rq_clock_pelt(), 23127296889f): "
	   "capacity and frequency scale the clock, not the contributions"),
	V4("v5.4.33-v5.4.y runnable_load_avg, clock_pelt", CFSR_KVER(5, 4, 33),
	   CFSR_KVER(5, 4, 999), &cfsr_v4_params_v4_19_116, LOAD_DOWN_FLOOR("v5.1", "5.4.33")),
	V4("v5.5.0-v5.5.17 runnable_load_avg, clock_pelt", CFSR_KVER(5, 5, 0), CFSR_KVER(5, 5, 17),
	   &cfsr_v4_params_v4_15, "as v5.1"),
	V4("v5.5.18-v5.5.y runnable_load_avg, clock_pelt", CFSR_KVER(5, 5, 18),
	   CFSR_KVER(5, 5, 999), &cfsr_v4_params_v4_19_116, LOAD_DOWN_FLOOR("v5.1", "5.5.18")),
	V4("v5.6.0-v5.6.4 runnable_load_avg, clock_pelt", CFSR_KVER(5, 6, 0), CFSR_KVER(5, 6, 4),
	   &cfsr_v4_params_v4_15, "as v5.1"),
	V4("v5.6.5-v5.6.y runnable_load_avg, clock_pelt", CFSR_KVER(5, 6, 5), CFSR_KVER(5, 6, 999),
	   &cfsr_v4_params_v4_19_116, LOAD_DOWN_FLOOR("v5.1", "5.6.5")),
	RUNNABLE("v5.7.0-v5.7.6 CFS, runnable_avg", CFSR_KVER(5, 7, 0), CFSR_KVER(5, 7, 6),
		 &cfsr_pelt_params_v5_7, false, false, 0, true,
		 "runnable_avg replaces runnable_load_avg; a new task's runnable_avg starts at "
		 "the CPU capacity; update_tg_cfs_*() divide by LOAD_AVG_MAX; util_est flag "
		 "in the LSB"),
	RUNNABLE("v5.7.7-v5.7.y CFS, runnable_avg", CFSR_KVER(5, 7, 7), CFSR_KVER(5, 7, 999),
		 &cfsr_pelt_params_v5_7_7, false, false, 0, true,
		 "a new task's runnable_avg from its util_avg (e21cf43406a1, stable 5.7.7); "
		 "otherwise as v5.7.0"),
	RUNNABLE("v5.8-v5.10.35 CFS, runnable_avg", CFSR_KVER(5, 8, 0), CFSR_KVER(5, 10, 35),
		 &cfsr_pelt_params_v5_8, false, false, 0, true,
		 "update_tg_cfs_*() by the parent's divider (95d685935a2e); util_est flag in "
		 "the LSB; 5.10.y later takes v5.13-v5.18 fixes, keyed from 5.10.36"),
	RUNNABLE("v5.10.36-v5.10.43 CFS, runnable_avg", CFSR_KVER(5, 10, 36), CFSR_KVER(5, 10, 43),
		 &cfsr_pelt_params_v5_10_36, false, false, 0, true,
		 "as v5.8, util_est's last_enqueued_diff filter (b89997aa88f0) on the LSB "
		 "flag, ALT_PERIOD and BASE_SLICE (0c2de3f054a5): stable 5.10.36"),
	RUNNABLE("v5.10.44-v5.10.45 CFS, runnable_avg", CFSR_KVER(5, 10, 44), CFSR_KVER(5, 10, 45),
		 &cfsr_pelt_params_v5_10_44, false, false, 0, true,
		 "as 5.10.36, util_est flag in the MSB (68d7a190682a) and "
		 "update_tg_cfs_load() resyncing load_sum (7c7ad626d9a0): stable 5.10.44"),
	RUNNABLE("v5.10.46-v5.10.50 CFS, runnable_avg", CFSR_KVER(5, 10, 46), CFSR_KVER(5, 10, 50),
		 &cfsr_pelt_params_v5_13, false, false, 0, true,
		 "as 5.10.44, detach resyncing _sum from _avg (fcf6631f3736, stable 5.10.46): "
		 "the arithmetic of v5.13"),
	RUNNABLE("v5.10.51-v5.10.95 CFS, runnable_avg", CFSR_KVER(5, 10, 51), CFSR_KVER(5, 10, 95),
		 &cfsr_pelt_params_v5_10_51, false, false, 0, true,
		 "as 5.10.46, removed load resyncing _sum from _avg (1c35b07e6d39, stable "
		 "5.10.51)"),
	RUNNABLE("v5.10.96-v5.10.112 CFS, runnable_avg", CFSR_KVER(5, 10, 96),
		 CFSR_KVER(5, 10, 112), &cfsr_pelt_params_v5_10_96, false, false, 0, true,
		 "as 5.10.51, removed util_sum bounded by PELT_MIN_DIVIDER (98b0d890220d, "
		 "stable 5.10.96)"),
	RUNNABLE("v5.10.113-v5.10.y CFS, runnable_avg", CFSR_KVER(5, 10, 113),
		 CFSR_KVER(5, 10, 999), &cfsr_pelt_params_v5_10_113, false, false, 0, true,
		 "as 5.10.96, attach_entity_load_avg() keeps load_sum >= 1 (40f5aa4c5eae, "
		 "stable 5.10.113)"),
	RUNNABLE("v5.11-v5.12 CFS, runnable_avg", CFSR_KVER(5, 11, 0), CFSR_KVER(5, 12, 999),
		 &cfsr_pelt_params_v5_8, false, false, 0, true, "as v5.8"),
	RUNNABLE("v5.13 CFS, runnable_avg", CFSR_KVER(5, 13, 0), CFSR_KVER(5, 13, 999),
		 &cfsr_pelt_params_v5_13, false, false, 0, true,
		 "util_est flag in the MSB (68d7a190682a), last_enqueued_diff filter; detach and "
		 "update_tg_cfs_load() resync _sum from _avg"),
	RUNNABLE("v5.14-v5.15.18 CFS, runnable_avg", CFSR_KVER(5, 14, 0), CFSR_KVER(5, 15, 18),
		 &cfsr_pelt_params_v5_14, false, false, 0, true,
		 "removed load and dequeue_load_avg() resync _sum from _avg (1c35b07e6d39, "
		 "ceb6ba45dc80)"),
	RUNNABLE("v5.15.19-v5.15.35 CFS, runnable_avg", CFSR_KVER(5, 15, 19), CFSR_KVER(5, 15, 35),
		 &cfsr_pelt_params_v5_15_19, false, false, 0, true,
		 "as v5.14, removed util_sum bounded by PELT_MIN_DIVIDER (98b0d890220d, stable "
		 "5.15.19); the other v5.17 bounds never came to 5.15.y"),
	RUNNABLE("v5.15.36-v5.15.y CFS, runnable_avg", CFSR_KVER(5, 15, 36), CFSR_KVER(5, 15, 999),
		 &cfsr_pelt_params_v5_15_36, false, false, 0, true,
		 "as v5.15.19, attach_entity_load_avg() keeps load_sum >= 1 (40f5aa4c5eae, stable "
		 "5.15.36)"),
	RUNNABLE("v5.16.0-v5.16.4 CFS, runnable_avg", CFSR_KVER(5, 16, 0), CFSR_KVER(5, 16, 4),
		 &cfsr_pelt_params_v5_14, false, false, 0, true, "as v5.14"),
	RUNNABLE("v5.16.5-v5.16.y CFS, runnable_avg", CFSR_KVER(5, 16, 5), CFSR_KVER(5, 16, 999),
		 &cfsr_pelt_params_v5_15_19, false, false, 0, true,
		 "as v5.14, removed util_sum bounded by PELT_MIN_DIVIDER (98b0d890220d, stable "
		 "5.16.5)"),
	RUNNABLE("v5.17.0-v5.17.4 CFS, runnable_avg", CFSR_KVER(5, 17, 0), CFSR_KVER(5, 17, 4),
		 &cfsr_pelt_params_v5_17, false, false, 0, true,
		 "_sum >= _avg * PELT_MIN_DIVIDER after subtractions"),
	RUNNABLE("v5.17.5-v5.17.y CFS, runnable_avg", CFSR_KVER(5, 17, 5), CFSR_KVER(5, 17, 999),
		 &cfsr_pelt_params_v5_18, false, false, 0, true,
		 "as v5.17.0, attach_entity_load_avg() keeps load_sum >= 1 (40f5aa4c5eae, stable "
		 "5.17.5): the arithmetic of v5.18"),
	RUNNABLE("v5.18-v5.19 CFS, runnable_avg", CFSR_KVER(5, 18, 0), CFSR_KVER(5, 99, 999),
		 &cfsr_pelt_params_v5_18, false, false, 0, true,
		 "attach_entity_load_avg() keeps load_sum >= 1"),
	RUNNABLE("v6.0 CFS, runnable_avg", CFSR_KVER(6, 0, 0), CFSR_KVER(6, 0, 999),
		 &cfsr_pelt_params_v5_18, false, false, 0, true,
		 "migrate_se_pelt_lag() ages a task leaving an idle CPU (e2f3e35f1f5a)"),
	RUNNABLE("v6.1 CFS, runnable_avg", CFSR_KVER(6, 1, 0), CFSR_KVER(6, 1, 999),
		 &cfsr_pelt_params_v5_18, false, false, 0, true,
		 "a load-balance migration detaches inside dequeue_entity() (e1f078f50478); "
		 "the attach of a new task moves to its enqueue"),
	RUNNABLE("v6.2-v6.5 CFS, runnable_avg", CFSR_KVER(6, 2, 0), CFSR_KVER(6, 5, 999),
		 &cfsr_pelt_params_v6_2, false, false, 0, true,
		 "util_est_update() keeps the EWMA when util < runnable"),
	RUNNABLE("v6.6.0-v6.6.3 EEVDF", CFSR_KVER(6, 6, 0), CFSR_KVER(6, 6, 3),
		 &cfsr_pelt_params_v6_2, true, false, 750000, true,
		 "EEVDF pick and lag placement; PELT as v6.5; group entities reweighted "
		 "even at an unchanged weight"),
	RUNNABLE("v6.6.4-v6.6.29 EEVDF", CFSR_KVER(6, 6, 4), CFSR_KVER(6, 6, 29),
		 &cfsr_pelt_params_v6_2, true, false, 750000, true,
		 "as v6.6.0, no reweight at an unchanged weight and reweight_eevdf() "
		 "(eab03c23c2a1, stable 6.6.4)"),
	RUNNABLE("v6.6.30-v6.6.92 EEVDF", CFSR_KVER(6, 6, 30), CFSR_KVER(6, 6, 92),
		 &cfsr_pelt_params_v6_2, true, false, 750000, true,
		 "as v6.6.4, reweight_eevdf() reads V with the entity and clamps its lag "
		 "(afae8002b4fd, 1560d1f6eb6b, stable 6.6.30)"),
	RUNNABLE("v6.6.93-v6.6.y EEVDF", CFSR_KVER(6, 6, 93), CFSR_KVER(6, 6, 999),
		 &cfsr_pelt_params_v6_2, true, false, 700000, true,
		 "as v6.6.30, base slice 0.70 ms (2ae891b82695, stable 6.6.93)"),
	RUNNABLE("v6.7 EEVDF", CFSR_KVER(6, 7, 0), CFSR_KVER(6, 7, 999), &cfsr_pelt_params_v6_2,
		 true, false, 750000, true,
		 "tg->load_avg rate limit (1528c661c24b); no reweight at an unchanged "
		 "weight (eab03c23c2a1); util_est still a pair"),
	RUNNABLE("v6.8.0-v6.8.8 EEVDF", CFSR_KVER(6, 8, 0), CFSR_KVER(6, 8, 8),
		 &cfsr_pelt_params_v6_8, true, false, 750000, true,
		 "util_est in one u32 (11137d384996); a sleeping task leaves at once; "
		 "util_est sampled after the dequeue's update; reweight_eevdf() as v6.7"),
	RUNNABLE("v6.8.9-v6.9 EEVDF", CFSR_KVER(6, 8, 9), CFSR_KVER(6, 9, 999),
		 &cfsr_pelt_params_v6_8, true, false, 750000, true,
		 "as v6.8.0, reweight_eevdf() reads V with the entity and clamps its lag "
		 "(afae8002b4fd, 1560d1f6eb6b: v6.9, stable 6.8.9)"),
	RUNNABLE("v6.10-v6.11 EEVDF", CFSR_KVER(6, 10, 0), CFSR_KVER(6, 11, 999),
		 &cfsr_pelt_params_v6_10, true, false, 750000, true,
		 "post_init_entity_util_avg() scales by se_weight(); otherwise as v6.8"),
	RUNNABLE("v6.12.0-v6.12.6 EEVDF, delayed dequeue", CFSR_KVER(6, 12, 0), CFSR_KVER(6, 12, 6),
		 &cfsr_pelt_params_v6_12, true, true, 750000, true,
		 "DELAY_DEQUEUE; a delayed task not runnable for its own PELT, but counted "
		 "in its cfs_rq's (h_nr_running); util_est capacity check; an empty group "
		 "reweighted; reweight_eevdf() as v6.9 (6d71a9c61604 is v6.13)"),
	RUNNABLE("v6.12.7-v6.12.10 EEVDF, delayed dequeue", CFSR_KVER(6, 12, 7),
		 CFSR_KVER(6, 12, 10), &cfsr_pelt_params_v6_12, true, true, 750000, true,
		 "as v6.12.0, delayed tasks not runnable for their cfs_rq's PELT either "
		 "(76f2f783294d, stable 6.12.7)"),
	RUNNABLE("v6.12.11-v6.12.30 EEVDF, delayed dequeue", CFSR_KVER(6, 12, 11),
		 CFSR_KVER(6, 12, 30), &cfsr_pelt_params_v6_12, true, true, 750000, true,
		 "as v6.12.7, an empty group keeps its entity's weight (66951e4860d3, "
		 "stable 6.12.11)"),
	RUNNABLE("v6.12.31-v6.12.y EEVDF, delayed dequeue", CFSR_KVER(6, 12, 31),
		 CFSR_KVER(6, 12, 999), &cfsr_pelt_params_v6_12, true, true, 700000, true,
		 "as v6.12.0, base slice 0.70 ms (2ae891b82695, stable 6.12.31)"),
	RUNNABLE("v6.13-v6.14.8 EEVDF, delayed dequeue", CFSR_KVER(6, 13, 0), CFSR_KVER(6, 14, 8),
		 &cfsr_pelt_params_v6_12, true, true, 750000, true, "as v6.12.0"),
	RUNNABLE("v6.14.9-v6.14.y EEVDF, delayed dequeue", CFSR_KVER(6, 14, 9),
		 CFSR_KVER(6, 14, 999), &cfsr_pelt_params_v6_12, true, true, 700000, true,
		 "as v6.12.0, base slice 0.70 ms (2ae891b82695, stable 6.14.9)"),
	RUNNABLE("v6.15 EEVDF, delayed dequeue", CFSR_KVER(6, 15, 0), CFSR_KVER(6, 15, 999),
		 &cfsr_pelt_params_v6_12, true, true, 700000, true,
		 "base slice 0.70 ms (2ae891b82695; stable 6.6.93, 6.12.31, 6.14.9); "
		 "otherwise as v6.12"),
	RUNNABLE("v6.16-v6.18.43 EEVDF, delayed dequeue", CFSR_KVER(6, 16, 0), CFSR_KVER(6, 18, 43),
		 &cfsr_pelt_params_modern, true, true, 700000, true,
		 "util_est without the capacity check (f2d650618bc7)"),
	RUNNABLE("v6.18.44-v6.18.y EEVDF, delayed dequeue", CFSR_KVER(6, 18, 44),
		 CFSR_KVER(6, 18, 999), &cfsr_pelt_params_modern, true, true, 700000, true,
		 "as v6.16, a saved lag clamped to the largest slice queued plus a tick "
		 "(6e3c0a4e1ad1, v7.0; in 6.18.44's own records, its first 6.18.y sublevel "
		 "not pinned)"),
};

size_t cfsr_profile_count(void)
{
	return sizeof(profiles) / sizeof(profiles[0]);
}

const struct cfsr_profile *cfsr_profile_at(size_t i)
{
	return i < cfsr_profile_count() ? &profiles[i] : NULL;
}

int cfsr_profile_version(const char *release)
{
	long major, minor, sub = 0;
	char *end;

	if (!release || !isdigit((unsigned char)*release))
		return -1;
	major = strtol(release, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		sub = strtol(end + 1, &end, 10);
	if (major > 99 || minor > 99 || sub < 0)
		return -1;
	return (int)CFSR_KVER(major, minor, sub > CFSR_KVER_SUB_MAX ? CFSR_KVER_SUB_MAX : sub);
}

static const struct cfsr_profile *profile_of(int v)
{
	size_t i;

	if (v < 0)
		return NULL;
	for (i = 0; i < cfsr_profile_count(); i++)
		if (v >= profiles[i].first && v <= profiles[i].last)
			return &profiles[i];
	return NULL;
}

const struct cfsr_profile *cfsr_profile_for(const char *release)
{
	return profile_of(cfsr_profile_version(release));
}

bool cfsr_profile_series_only(const char *release)
{
	const char *s = release;
	int dots = 0;

	if (cfsr_profile_version(release) < 0)
		return false;
	for (; *s; s++) {
		if (*s == '.')
			dots++;
		else if (!isdigit((unsigned char)*s))
			return false;
	}
	return dots == 1;
}

int cfsr_profile_modelled(const char *trace_release, const char *override, bool *own)
{
	int o = cfsr_profile_version(override), t = cfsr_profile_version(trace_release);

	if (own)
		*own = false;
	if (!override)
		return t;
	if (o < 0 || !cfsr_profile_series_only(override) || t < 0 || t / 1000 != o / 1000)
		return o;
	if (own)
		*own = true;
	return t;
}

const char *cfsr_profile_series_note(const char *trace_release, const char *override, char *buf,
				     size_t len)
{
	bool own;
	int v = cfsr_profile_modelled(trace_release, override, &own);

	if (!override || v < 0 || !cfsr_profile_series_only(override))
		return NULL;
	snprintf(buf, len, "--kernel %s taken as %d.%d.%d, %s", override, v / 1000000,
		 v / 1000 % 1000, v % 1000,
		 own ? "the trace's own sublevel" : "the series' first release");
	return buf;
}

const struct cfsr_profile *cfsr_profile_choose(const char *trace_release, const char *override,
					       const char *what)
{
	const char *release = override ? override : trace_release;
	const struct cfsr_profile *p;

	if (!release) {
		cfsr_error("'%s' does not record its kernel release; give --kernel VERSION", what);
		return NULL;
	}
	p = profile_of(cfsr_profile_modelled(trace_release, override, NULL));
	if (!p) {
		cfsr_error("no model for kernel '%s'; models exist for v3.8 to v6.18", release);
		return NULL;
	}
	if (!p->implemented) {
		cfsr_error(
			"the model for kernel '%s' (%s) is not implemented yet: its PELT arithmetic exists, the engine's update points do not (use --kernel to replay with another)",
			release, p->name);
		return NULL;
	}
	return p;
}

bool cfsr_profile_clock_pelt(const struct cfsr_profile *p)
{
	return p->first >= CFSR_KVER(5, 1, 0);
}

bool cfsr_profile_what_if(const char *trace_release, const struct cfsr_profile *profile)
{
	int v = cfsr_profile_version(trace_release);

	if (v < 0 || !profile)
		return false;
	return v < profile->first || v > profile->last;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/pelt-legacy.c: the v3.8-v4.2 load tracking against
 * independently derived values.
 *
 * Sources of the expected values: the partial-sum tables rebuilt here in
 * long double from y = 2^(-1/32) (five Newton square roots of 1/2, no
 * libm) and by integer halving; series of updates worked by hand in the
 * comments (1024 y = 1002.05, 2048 y = 2004.12, ...); the design's own
 * worked numbers (two nice-0 tasks each carry half of their CPU's load,
 * nice 1 weighs 820 and gets ~0.45 against a nice-0 task, two groups
 * split a CPU 50/50 whatever their task counts); and the bounds of a
 * real-valued geometric average for the duty-cycle cases.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pelt-real.h"

#include "pelt-legacy.h"
#include "weight.h"

#define L38 (&cfsr_legacy_params_v3_8)
#define L313 (&cfsr_legacy_params_v3_13)
#define L41 (&cfsr_legacy_params_v4_1)
#define UNIT 1024 /* ns */
#define PERIOD_NS (UINT64_C(1024) * UNIT)

/*
 * runnable_avg_yN_sum[n] is floor((entry n-1 + 1024) y), floored at every
 * step; the closed form floor(1024 (y + ... + y^n)) is higher from n = 3.
 */
static void test_yN_sum_table(void **state)
{
	long double y = pelt_y(), closed = 0, yn = 1;
	uint64_t s = 0;
	int n;

	(void)state;
	assert_int_equal(cfsr_runnable_avg_yN_sum[0], 0);
	for (n = 1; n <= LOAD_AVG_PERIOD; n++) {
		s = (uint64_t)(((long double)s + 1024) * y);
		assert_int_equal(cfsr_runnable_avg_yN_sum[n], s);
		yn *= y;
		closed += 1024 * yn;
	}
	/* 1024 (y + ... + y^32) = 23382.4; the table holds 23371. */
	assert_int_equal((uint64_t)closed, 23382);
	assert_int_equal(cfsr_runnable_avg_yN_sum[LOAD_AVG_PERIOD], 23371);
}

/* __accumulated_sum_N32[k] = entry k-1 / 2 + 23371, integer halving. */
static void test_accumulated_sum_table(void **state)
{
	uint32_t c = 0;
	int k;

	(void)state;
	assert_int_equal(cfsr_accumulated_sum_N32[0], 0);
	for (k = 1; k < 12; k++) {
		c = c / 2 + 23371;
		assert_int_equal(cfsr_accumulated_sum_N32[k], c);
	}
}

static void test_decay_load(void **state)
{
	(void)state;
	/* n = 0 is the identity here (v4.12+ gives v - 1 for small v). */
	assert_int_equal(cfsr_legacy_decay_load(1000, 0), 1000);
	assert_int_equal(cfsr_legacy_decay_load(1024, 1), 1002);
	assert_int_equal(cfsr_legacy_decay_load(2048, 1), 2004);
	/* 1000 y^3 = 937.4. */
	assert_int_equal(cfsr_legacy_decay_load(1000, 3), 937);
	/* 32 periods: a halving, then * (2^32 - 1) >> 32. */
	assert_int_equal(cfsr_legacy_decay_load(1000, 32), 499);
	assert_int_equal(cfsr_legacy_decay_load(UINT64_MAX, 2017), 0);
	/*
	 * 2^33 y = 8405870004 needs 34 bits before the shift; the 64-bit
	 * product 2^33 * 0xfa83b2da wraps and loses its top bit:
	 * (0x7a83b2da << 33) >> 32 = 0xf50765b4 = 4110902708.
	 */
	assert_int_equal(cfsr_legacy_decay_load(UINT64_C(1) << 33, 1), UINT64_C(4110902708));
}

static void test_compute_runnable_contrib(void **state)
{
	(void)state;
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(0, false), 0);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(1, false), 1002);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(32, false), 23371);
	/* 33: 23371 y + 1002 = 22870 + 1002 (23371 y = 22870.9). */
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(33, false), 23872);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(33, true), 23872);
	/*
	 * 64: the loop folds once (23371, 32 left) and decays by 32:
	 * (23371 >> 1) (2^32 - 1) >> 32 = 11684, + 23371 = 35055.  The table
	 * reads 35056 and decays by 0 periods: one more.
	 */
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(64, false), 35055);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(64, true), 35056);
	/*
	 * 344: ten folds give 46696, then 24 periods: 46696 y^24 = 27765.4,
	 * + 18949 = 46714.  345 and beyond: the constant 47742, a step of
	 * 1028 for one more period.
	 */
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(344, false), 46714);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(344, true), 46714);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(345, false), LOAD_AVG_MAX);
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(100000, true), LOAD_AVG_MAX);
}

/* The kernel's fixed point 47742 of m <- floor(m y) + 1024, from 0. */
static void test_load_avg_max_fixed_point(void **state)
{
	long double y = pelt_y();
	uint64_t m = 0, next;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		next = (uint64_t)((long double)m * y) + 1024;
		if (next == m)
			break;
		m = next;
	}
	assert_int_equal(m, LOAD_AVG_MAX);
	/* Beyond LOAD_AVG_MAX_N the legacy sum is that fixed point. */
	assert_int_equal(cfsr_legacy_compute_runnable_contrib(LOAD_AVG_MAX_N, false), m);
}

/*
 * Runnable from 0, updated at every 1024 units:
 * 1: delta 1024, delta_w 0: +1024, decay by 1: 1024 y = 1002.   -> 1002
 * 2: delta_w = 1002 % 1024: 22 close the period (1024), decay: 1002,
 *    then the 1002 remaining units: 2004.                        -> 2004
 * 3: 2004 % 1024 = 980, 44 close it: 2048 y = 2004, + 980:       -> 2984
 * runnable_avg_sum = runnable_avg_period throughout; contrib of nice 0:
 * 1002*1024/1003 = 1022.98 -> 1022; 2984*1024/2985 = 1023.66 -> 1023.
 */
static void test_series_runnable(void **state)
{
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;
	static const uint32_t want[] = { 1002, 2004, 2984 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(cfsr_legacy_update_runnable_avg(L38, (i + 1) * PERIOD_NS, &sa,
								 true, false, 1024, 1024),
				 1);
		assert_int_equal(sa.runnable_avg_sum, want[i]);
		assert_int_equal(sa.runnable_avg_period, want[i]);
		assert_int_equal(sa.last_runnable_update, (i + 1) * PERIOD_NS);
		cfsr_legacy_task_contrib(&sa, 1024);
		if (i == 0)
			assert_int_equal(sa.load_avg_contrib, 1022);
	}
	assert_int_equal(sa.load_avg_contrib, 1023);
	/* The entity's period now ends 1024 - 2984 % 1024 = 88 units on. */
	assert_int_equal(cfsr_legacy_update_runnable_avg(L38, 3 * PERIOD_NS + 87 * UNIT, &sa, true,
							 false, 1024, 1024),
			 0);
	assert_int_equal(cfsr_legacy_update_runnable_avg(L38, 3 * PERIOD_NS + 88 * UNIT, &sa, true,
							 false, 1024, 1024),
			 1);
}

/*
 * 512 units runnable, then 512 asleep, then an update:
 * the period completes with 512 idle units: sum 512 -> 512 y = 501.0,
 * period 1024 -> 1002; contrib 501*1024/1003 = 511.5 -> 511.
 * Sub-unit remainders are dropped: last_runnable_update = now.
 */
static void test_series_half(void **state)
{
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	assert_int_equal(cfsr_legacy_update_runnable_avg(L38, 512 * UNIT + 1000, &sa, true, false,
							 1024, 1024),
			 0);
	assert_int_equal(sa.runnable_avg_sum, 512);
	assert_int_equal(sa.last_runnable_update, 512 * UNIT + 1000);
	assert_int_equal(cfsr_legacy_update_runnable_avg(L38, 1024 * UNIT + 1000, &sa, false, false,
							 1024, 1024),
			 1);
	assert_int_equal(sa.runnable_avg_sum, 501);
	assert_int_equal(sa.runnable_avg_period, 1002);
	cfsr_legacy_task_contrib(&sa, 1024);
	assert_int_equal(sa.load_avg_contrib, 511);
	/* Less than a unit: nothing; backwards: only the timestamp. */
	assert_int_equal(cfsr_legacy_update_runnable_avg(L38, 1024 * UNIT + 2000, &sa, true, false,
							 1024, 1024),
			 0);
	assert_int_equal(sa.runnable_avg_sum, 501);
	assert_int_equal(cfsr_legacy_update_runnable_avg(L38, 5, &sa, true, false, 1024, 1024), 0);
	assert_int_equal(sa.last_runnable_update, 5);
	assert_int_equal(sa.runnable_avg_period, 1002);
}

/*
 * One update 2.5 periods after 0, runnable: 1024 closes the first period,
 * decay by 1 + 1 periods: 1024 y^2 = 980; contrib(1) = 1002; + 512.
 * And 400.5 periods: 1024 >> 12 = 0, + 47742 + 512 = 48254, beyond
 * LOAD_AVG_MAX (the step of __compute_runnable_contrib at 345).
 */
static void test_single_long_update(void **state)
{
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	cfsr_legacy_update_runnable_avg(L38, 2560 * UNIT, &sa, true, false, 1024, 1024);
	assert_int_equal(sa.runnable_avg_sum, 980 + 1002 + 512);
	sa = (struct cfsr_legacy_avg)CFSR_LEGACY_AVG_INIT;
	cfsr_legacy_update_runnable_avg(L38, 400 * PERIOD_NS + 512 * UNIT, &sa, true, false, 1024,
					1024);
	assert_int_equal(sa.runnable_avg_period, 48254);
	assert_int_equal(sa.runnable_avg_sum, 48254);
}

/* v4.1-v4.2: running and scaling; v3.8-v4.0 ignore both. */
static void test_running_and_scale(void **state)
{
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	/*
	 * 512 units runnable and running at half frequency, 3/4 capacity:
	 * runnable (512 * 512) >> 10 = 256, running (256 * 768) >> 10 = 192,
	 * period 512 unscaled.
	 */
	cfsr_legacy_update_runnable_avg(L41, 512 * UNIT, &sa, true, true, 512, 768);
	assert_int_equal(sa.runnable_avg_sum, 256);
	assert_int_equal(sa.running_avg_sum, 192);
	assert_int_equal(sa.runnable_avg_period, 512);
	/* utilization 192 * 1024 / 513 = 383.3. */
	cfsr_legacy_task_utilization(&sa);
	assert_int_equal(sa.utilization_avg_contrib, 383);

	sa = (struct cfsr_legacy_avg)CFSR_LEGACY_AVG_INIT;
	cfsr_legacy_update_runnable_avg(L38, 512 * UNIT, &sa, true, true, 512, 768);
	assert_int_equal(sa.runnable_avg_sum, 512);
	assert_int_equal(sa.running_avg_sum, 0);
}

/*
 * load_avg_contrib in u32: nice -20 (88761) fully runnable: 47742 * 88761
 * = 4237627662 < 2^32, / 47743 = 88759.1.
 */
static void test_task_contrib(void **state)
{
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	sa.runnable_avg_sum = LOAD_AVG_MAX;
	sa.runnable_avg_period = LOAD_AVG_MAX;
	cfsr_legacy_task_contrib(&sa, 88761);
	assert_int_equal(sa.load_avg_contrib, 88759);
	cfsr_legacy_task_contrib(&sa, 1024);
	assert_int_equal(sa.load_avg_contrib, 1023);
	/* Never runnable: 0 whatever the period. */
	sa.runnable_avg_sum = 0;
	cfsr_legacy_task_contrib(&sa, 1024);
	assert_int_equal(sa.load_avg_contrib, 0);
}

/* Advance two tasks sharing a CPU by slices, alternating who runs. */
static void run_two(const struct cfsr_legacy_params *params, struct cfsr_legacy_cfs_rq *cfs,
		    struct cfsr_legacy_avg *a, uint64_t wa, struct cfsr_legacy_avg *b, uint64_t wb,
		    uint64_t *now, uint64_t slice, int slices)
{
	int i;

	for (i = 0; i < slices; i++) {
		/* a runs in the even slices of time, b in the odd ones */
		bool a_ran = (*now / slice) % 2 == 0;

		*now += slice;
		cfsr_legacy_update_task_load_avg(params, *now, a, wa, true, a_ran,
						 SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE, cfs,
						 true);
		cfsr_legacy_update_task_load_avg(params, *now, b, wb, true, !a_ran,
						 SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE, cfs,
						 true);
		cfsr_legacy_update_blocked_load(params, cfs, NULL, *now, true);
	}
}

/*
 * The design's example: two nice-0 tasks always runnable on one CPU each
 * carry half of the CPU's load.  Both are runnable all the time, so each
 * contribution is 1024 p / (p + 1) = 1023 and runnable_load_avg is the
 * sum; taking turns every 4 ms, each runs half the time: a real-valued
 * average of a 4-on/4-off square wave with y^32 = 1/2 stays within
 * [y^a / (1 + y^a), 1 / (1 + y^a)], a = 4 ms / 1.048576 ms, i.e.
 * [0.4794, 0.5206] of 1024 = [490.9, 533.1]; floors take at most a few
 * units more.
 */
static void test_two_nice0_tasks(void **state)
{
	struct cfsr_legacy_cfs_rq cfs = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_avg a = CFSR_LEGACY_AVG_INIT, b = CFSR_LEGACY_AVG_INIT;
	uint64_t now = 0, slice = 4000000;
	long double ya = y_pow((long double)slice / PERIOD_NS);
	long double lo = 1024 * ya / (1 + ya) - 4, hi = 1024 / (1 + ya) + 1;
	int i;

	(void)state;
	cfsr_legacy_enqueue_task_load_avg(L41, &cfs, NULL, &a, 1024, now, now, false);
	cfsr_legacy_enqueue_task_load_avg(L41, &cfs, NULL, &b, 1024, now, now, false);
	run_two(L41, &cfs, &a, 1024, &b, 1024, &now, slice, 250);

	assert_int_equal(a.load_avg_contrib, 1023);
	assert_int_equal(b.load_avg_contrib, 1023);
	assert_int_equal(cfs.runnable_load_avg, 2046);
	/* Each is exactly half of the CPU's load. */
	assert_int_equal(a.load_avg_contrib * 2, cfs.runnable_load_avg);

	for (i = 0; i < 50; i++) {
		run_two(L41, &cfs, &a, 1024, &b, 1024, &now, slice, 1);
		assert_true((long double)a.utilization_avg_contrib >= lo);
		assert_true((long double)a.utilization_avg_contrib <= hi);
		assert_true((long double)b.utilization_avg_contrib >= lo);
		assert_true((long double)b.utilization_avg_contrib <= hi);
		/* Together they used the whole CPU: at most 1024, floors aside. */
		assert_in_range(a.utilization_avg_contrib + b.utilization_avg_contrib, 1010, 1024);
		assert_int_equal(cfs.utilization_load_avg,
				 a.utilization_avg_contrib + b.utilization_avg_contrib);
	}
}

/*
 * Nice 1 weighs 820 (about 10% less CPU per nice level): against a nice-0
 * task the CFS shares are 1024 / 1844 = 0.555 and 820 / 1844 = 0.445.
 * Both always runnable, the loads are 1023 and 820 p / (p + 1) = 819 for
 * p > 820: 819 / 1842 = 0.4446 of the CPU's load.
 */
static void test_nice1_share(void **state)
{
	struct cfsr_legacy_cfs_rq cfs = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_avg a = CFSR_LEGACY_AVG_INIT, b = CFSR_LEGACY_AVG_INIT;
	uint64_t now = 0, w1 = cfsr_nice_to_weight(1);
	long double share;

	(void)state;
	assert_int_equal(w1, 820);
	share = (long double)w1 / (1024 + w1);
	assert_true(share > 0.44L && share < 0.45L);

	cfsr_legacy_enqueue_task_load_avg(L38, &cfs, NULL, &a, 1024, now, now, false);
	cfsr_legacy_enqueue_task_load_avg(L38, &cfs, NULL, &b, w1, now, now, false);
	run_two(L38, &cfs, &a, 1024, &b, w1, &now, 4000000, 300);
	assert_int_equal(a.load_avg_contrib, 1023);
	assert_int_equal(b.load_avg_contrib, 819);
	assert_int_equal(cfs.runnable_load_avg, 1842);
	share = (long double)b.load_avg_contrib / cfs.runnable_load_avg;
	assert_true(share > 0.44L && share < 0.45L);
}

/*
 * Two groups of default shares (1024) on one CPU, one with 1 task, one
 * with 3, all always runnable (sums at LOAD_AVG_MAX):
 * tasks 1023 each; group cfs_rqs 1023 and 3069, pushed whole to their
 * groups.  calc_cfs_shares: 1024 * 1024 / (1023 - 1023 + 1024) = 1024
 * and 1024 * 3072 / (3069 - 3069 + 3072) = 1024: equal weights, so equal
 * CPU time.  Group entity loads: 1023 * 1024 / 1024 = 1023 and 3069 *
 * 1024 / 3070 = 1023.7 -> 1023; each group runnable 1023/1024 of a CPU,
 * under 1024, so * 1023 >> 10: 1022 both.
 */
static void test_groups_split_evenly(void **state)
{
	struct cfsr_legacy_cfs_rq ga = CFSR_LEGACY_CFS_RQ_INIT, gb = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_tg ta = { 1024, 0, 0 }, tb = { 1024, 0, 0 };
	struct cfsr_legacy_avg sea = CFSR_LEGACY_AVG_INIT, seb = CFSR_LEGACY_AVG_INIT;
	uint64_t wa, wb;

	(void)state;
	ga.runnable_load_avg = 1023;
	gb.runnable_load_avg = 3 * 1023;
	assert_true(cfsr_legacy_tg_load_contrib(&ga, &ta, true));
	assert_true(cfsr_legacy_tg_load_contrib(&gb, &tb, true));
	assert_int_equal(ta.load_avg, 1023);
	assert_int_equal(tb.load_avg, 3069);

	wa = cfsr_legacy_calc_cfs_shares(ta.load_avg, ga.tg_load_contrib, 1024, ta.shares);
	wb = cfsr_legacy_calc_cfs_shares(tb.load_avg, gb.tg_load_contrib, 3 * 1024, tb.shares);
	assert_int_equal(wa, 1024);
	assert_int_equal(wb, 1024);

	sea.runnable_avg_sum = sea.runnable_avg_period = LOAD_AVG_MAX;
	seb = sea;
	cfsr_legacy_tg_runnable_avg(&sea, &ga, &ta);
	cfsr_legacy_tg_runnable_avg(&seb, &gb, &tb);
	assert_int_equal(ta.runnable_avg, 1023);
	assert_int_equal(tb.runnable_avg, 1023);
	cfsr_legacy_group_contrib(&sea, &ga, &ta);
	cfsr_legacy_group_contrib(&seb, &gb, &tb);
	assert_int_equal(sea.load_avg_contrib, 1022);
	assert_int_equal(seb.load_avg_contrib, 1022);

	/* A group using two CPUs is not corrected: 1023 * 1024 / 1024. */
	ta.runnable_avg = 2046;
	cfsr_legacy_group_contrib(&sea, &ga, &ta);
	assert_int_equal(sea.load_avg_contrib, 1023);
}

/*
 * One group over two CPUs: 1 task (1023) on CPU 0, 3 tasks (3069) on
 * CPU 1; tg->load_avg 4092.  CPU 0: 1024 * 1024 / (4092 - 1023 + 1024)
 * = 256.2; CPU 1: 1024 * 3072 / (4092 - 3069 + 3072) = 768.2: the shares
 * follow the load, 256 + 768 = 1024.
 */
static void test_shares_two_cpus(void **state)
{
	(void)state;
	assert_int_equal(cfsr_legacy_calc_cfs_shares(4092, 1023, 1024, 1024), 256);
	assert_int_equal(cfsr_legacy_calc_cfs_shares(4092, 3069, 3072, 1024), 768);
	/* Nothing queued: 0, clamped to MIN_SHARES; never above the shares. */
	assert_int_equal(cfsr_legacy_calc_cfs_shares(4092, 3069, 0, 1024), CFSR_MIN_SHARES);
	assert_int_equal(cfsr_legacy_calc_cfs_shares(0, 0, 0, 1024), CFSR_MIN_SHARES);
	/* A negative tg_weight (signed long) gives negative shares: MIN_SHARES. */
	assert_int_equal(cfsr_legacy_calc_cfs_shares(-5000, 0, 1024, 1024), CFSR_MIN_SHARES);
}

/* tg_load_contrib moves only past 1/8 of itself; tg_runnable_contrib past 1/64. */
static void test_thresholds(void **state)
{
	struct cfsr_legacy_cfs_rq cfs = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_tg tg = { 1024, 800, 0 };
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	cfs.tg_load_contrib = 800;
	cfs.runnable_load_avg = 900; /* d = 100 = 800 / 8: not more than 1/8 */
	assert_false(cfsr_legacy_tg_load_contrib(&cfs, &tg, false));
	assert_int_equal(tg.load_avg, 800);
	cfs.blocked_load_avg = 1; /* d = 101 */
	assert_true(cfsr_legacy_tg_load_contrib(&cfs, &tg, false));
	assert_int_equal(tg.load_avg, 901);
	assert_int_equal(cfs.tg_load_contrib, 901);
	/* Down by 112 = 901 / 8 (112.6): not pushed; by 113: pushed. */
	cfs.runnable_load_avg = 788;
	cfs.blocked_load_avg = 1;
	assert_false(cfsr_legacy_tg_load_contrib(&cfs, &tg, false));
	cfs.blocked_load_avg = 0;
	assert_true(cfsr_legacy_tg_load_contrib(&cfs, &tg, false));
	assert_int_equal(tg.load_avg, 788);

	/* runnable fraction 640 pushed, then 650 is within 640 / 64 = 10. */
	cfs.tg_runnable_contrib = 640;
	tg.runnable_avg = 640;
	sa.runnable_avg_sum = 650;
	sa.runnable_avg_period = 1023; /* (650 << 10) / 1024 = 650 */
	cfsr_legacy_tg_runnable_avg(&sa, &cfs, &tg);
	assert_int_equal(tg.runnable_avg, 640);
	sa.runnable_avg_sum = 651;
	cfsr_legacy_tg_runnable_avg(&sa, &cfs, &tg);
	assert_int_equal(tg.runnable_avg, 651);
	assert_int_equal(cfs.tg_runnable_contrib, 651);
}

/*
 * Blocked load: a task of contribution 1000 sleeps at decay_counter 0;
 * 3 "ms" (3 << 20 ns) later the cfs_rq decays its blocked load at once:
 * 1000 y^3 = 937; at the wakeup the task's contribution is aged by the
 * same 3 decays and subtracted exactly.
 */
static void test_blocked_decay(void **state)
{
	struct cfsr_legacy_cfs_rq cfs = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	sa.load_avg_contrib = 1000;
	cfs.blocked_load_avg = 1000;
	sa.decay_count = (int64_t)cfs.decay_counter;
	cfsr_legacy_update_blocked_load(L38, &cfs, NULL, (UINT64_C(3) << 20) + 12345, false);
	assert_int_equal(cfs.blocked_load_avg, 937);
	assert_int_equal(cfs.decay_counter, 3);
	assert_int_equal(cfs.last_decay, 3);
	/* Same "ms": nothing unless forced. */
	cfsr_legacy_update_blocked_load(L38, &cfs, NULL, (UINT64_C(4) << 20) - 1, false);
	assert_int_equal(cfs.decay_counter, 3);

	assert_int_equal(cfsr_legacy_synchronize_decay(L38, &sa, &cfs), 3);
	assert_int_equal(sa.load_avg_contrib, 937);
	assert_int_equal(sa.decay_count, 0);

	/* Removed load comes off first, clamped at 0. */
	cfs.removed_load = 2000;
	cfsr_legacy_update_blocked_load(L38, &cfs, NULL, UINT64_C(4) << 20, false);
	assert_int_equal(cfs.blocked_load_avg, 0);
	assert_int_equal(cfs.removed_load, 0);
}

/* v3.8 keeps decay_count when nothing decayed; the v4.1-era code clears it. */
static void test_sync_clears(void **state)
{
	struct cfsr_legacy_cfs_rq cfs = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;

	(void)state;
	cfs.decay_counter = 7;
	sa.decay_count = 7;
	assert_int_equal(cfsr_legacy_synchronize_decay(L38, &sa, &cfs), 0);
	assert_int_equal(sa.decay_count, 7);
	assert_int_equal(cfsr_legacy_synchronize_decay(L41, &sa, &cfs), 0);
	assert_int_equal(sa.decay_count, 0);
}

/*
 * Sleep, wakeup on another CPU, enqueue there.  The task (contribution
 * 1000) sleeps at decay_counter 2; the old cfs_rq decays 3 more times;
 * the migration ages the task by 3 (937), queues 937 in removed_load and
 * leaves decay_count = -3.  On the new CPU its clock restarts 3 << 20 ns
 * before rq_clock_task; it is not a wakeup there.
 */
static void test_wakeup_migration(void **state)
{
	struct cfsr_legacy_cfs_rq src = CFSR_LEGACY_CFS_RQ_INIT, dst = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;
	uint64_t t = UINT64_C(50) << 20;

	(void)state;
	sa.load_avg_contrib = 1000;
	sa.runnable_avg_sum = sa.runnable_avg_period = 46000;
	sa.last_runnable_update = t;
	sa.decay_count = 2;
	src.last_decay = t >> 20;
	src.blocked_load_avg = 1000;
	src.decay_counter = 5;

	cfsr_legacy_migrate_task(L38, &sa, &src);
	assert_int_equal(sa.load_avg_contrib, 937);
	assert_int_equal(sa.decay_count, -3);
	assert_int_equal(src.removed_load, 937);

	cfsr_legacy_enqueue_task_load_avg(L38, &dst, NULL, &sa, 1024, t + 1000000, t + 1000000,
					  true);
	assert_int_equal(sa.decay_count, 0);
	assert_int_equal(sa.last_runnable_update, t + 1000000);
	/* Back-dated by 3 << 20 ns and updated as asleep: the period moved on. */
	assert_true(sa.runnable_avg_period > sa.runnable_avg_sum);
	assert_int_equal(dst.runnable_load_avg, sa.load_avg_contrib);
	assert_int_equal(dst.blocked_load_avg, 0);
}

/* Dequeue for sleep moves the contribution to blocked load and stamps decay_count. */
static void test_dequeue_sleep(void **state)
{
	struct cfsr_legacy_cfs_rq cfs = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_tg tg = { 1024, 0, 0 };
	struct cfsr_legacy_avg sa = CFSR_LEGACY_AVG_INIT;
	uint64_t now = 0;

	(void)state;
	cfsr_legacy_enqueue_task_load_avg(L38, &cfs, &tg, &sa, 1024, now, now, false);
	now = 3 * PERIOD_NS;
	cfsr_legacy_dequeue_task_load_avg(L38, &cfs, &tg, &sa, 1024, true, now, true);
	/* One update of 3 periods: 1024 closes the first, decayed by 3 (1024 y^3 = 959.8), + 1982. */
	assert_int_equal(sa.runnable_avg_sum, 2941);
	/* 2941 * 1024 / 2942 = 1023.65. */
	assert_int_equal(sa.load_avg_contrib, 1023);
	assert_int_equal(cfs.runnable_load_avg, 0);
	assert_int_equal(cfs.blocked_load_avg, 1023);
	assert_int_equal(sa.decay_count, (int64_t)cfs.decay_counter);
	/* The group saw the cfs_rq's total, forced at the first enqueue. */
	assert_int_equal(cfs.tg_load_contrib, tg.load_avg);
}

/* v3.13: a 6 ms slice: 6000000 >> 10 = 5859 units; 5859 * 1024 / 5860 = 1023.8. */
static void test_init_task(void **state)
{
	struct cfsr_legacy_avg sa;

	(void)state;
	cfsr_legacy_init_task(L313, &sa, 6000000, 1024);
	assert_int_equal(sa.runnable_avg_sum, 5859);
	assert_int_equal(sa.runnable_avg_period, 5859);
	assert_int_equal(sa.load_avg_contrib, 1023);
	assert_int_equal(sa.decay_count, 0);
	assert_int_equal(sa.running_avg_sum, 0);
	cfsr_legacy_init_task(L38, &sa, 6000000, 1024);
	assert_int_equal(sa.runnable_avg_sum, 0);
	assert_int_equal(sa.load_avg_contrib, 0);
	/*
	 * v4.1-v4.2: from sysctl_sched_latency, 12 ms on 2 CPUs: 12000000 >>
	 * 10 = 11718 units for all three sums; nice 5 (335): 11718 * 335 /
	 * 11719 = 334.97; utilization 11718 * 1024 / 11719 = 1023.9.
	 */
	cfsr_legacy_init_task(L41, &sa, 12000000, 335);
	assert_int_equal(sa.runnable_avg_sum, 11718);
	assert_int_equal(sa.running_avg_sum, 11718);
	assert_int_equal(sa.load_avg_contrib, 334);
	assert_int_equal(sa.utilization_avg_contrib, 1023);
}

/*
 * The rq's own average: runnable for one period from 0, sum = period =
 * 1002; its fraction (1002 << 10) / 1003 = 1022.98 -> 1022 goes to the
 * root group (nothing pushed before, so any change passes 1/64 of 0).
 * Then idle for one period: 22 units close the rq's period (1024), both
 * sums decay by one (1002 y = 980.5 -> 980; 1024 y -> 1002) and the 1002
 * remaining units go to the period: 2004.  (980 << 10) / 2005 = 500.5
 * -> 500, a change of 522 > 1022 / 64.
 */
static void test_rq_runnable_avg(void **state)
{
	struct cfsr_legacy_avg rq = CFSR_LEGACY_AVG_INIT;
	struct cfsr_legacy_cfs_rq root = CFSR_LEGACY_CFS_RQ_INIT;
	struct cfsr_legacy_tg tg = { 1024, 0, 0 };

	(void)state;
	cfsr_legacy_update_rq_runnable_avg(L38, PERIOD_NS, &rq, &root, &tg, true);
	assert_int_equal(rq.runnable_avg_sum, 1002);
	assert_int_equal(tg.runnable_avg, 1022);
	assert_int_equal(root.tg_runnable_contrib, 1022);
	cfsr_legacy_update_rq_runnable_avg(L38, 2 * PERIOD_NS, &rq, &root, &tg, false);
	assert_int_equal(rq.runnable_avg_period, 2004);
	assert_int_equal(rq.runnable_avg_sum, 980);
	assert_int_equal(tg.runnable_avg, 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yN_sum_table),
		cmocka_unit_test(test_accumulated_sum_table),
		cmocka_unit_test(test_decay_load),
		cmocka_unit_test(test_compute_runnable_contrib),
		cmocka_unit_test(test_load_avg_max_fixed_point),
		cmocka_unit_test(test_series_runnable),
		cmocka_unit_test(test_series_half),
		cmocka_unit_test(test_single_long_update),
		cmocka_unit_test(test_running_and_scale),
		cmocka_unit_test(test_task_contrib),
		cmocka_unit_test(test_two_nice0_tasks),
		cmocka_unit_test(test_nice1_share),
		cmocka_unit_test(test_groups_split_evenly),
		cmocka_unit_test(test_shares_two_cpus),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_blocked_decay),
		cmocka_unit_test(test_sync_clears),
		cmocka_unit_test(test_wakeup_migration),
		cmocka_unit_test(test_dequeue_sleep),
		cmocka_unit_test(test_init_task),
		cmocka_unit_test(test_rq_runnable_avg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

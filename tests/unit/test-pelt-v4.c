// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/pelt-v4.c: the v4.3-v5.6 generations on the same
 * inputs, with values worked by hand in the comments (y = 0xfa83b2da /
 * 2^32 = 0.978572, LOAD_AVG_MAX = 47742, PELT_MIN_DIVIDER = 46718), so
 * that each difference between generations is pinned by a number.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pelt-real.h"
#include "pelt-v4.h"

#define V43 (&cfsr_v4_params_v4_3)
#define V47 (&cfsr_v4_params_v4_7)
#define V412 (&cfsr_v4_params_v4_12)
#define V413 (&cfsr_v4_params_v4_13)
#define V415 (&cfsr_v4_params_v4_15)
#define UNIT 1024
#define PERIOD_NS (UINT64_C(1024) * UNIT)

/* One update at @now of an entity runnable and running since 0, weight 1024. */
static struct cfsr_v4_avg run_once(const struct cfsr_v4_params *p, uint64_t now)
{
	struct cfsr_v4_avg sa = CFSR_V4_AVG_INIT;

	if (p->unweighted_se) {
		cfsr_v4_update_load_sum(p, now, &sa, 1, 1, 1, 1024, 1024);
		cfsr_v4_update_load_avg(p, &sa, 1024, 1024);
	} else {
		cfsr_v4_update_load_sum(p, now, &sa, 1024, 0, 1, 1024, 1024);
		cfsr_v4_update_load_avg(p, &sa, 1, 1);
	}
	return sa;
}

/*
 * 3000 periods in one update (so that the decayed start is 0):
 * v4.12: c1 = 0, c2 = 47742 - 0 - 1024 = 46718, c3 = 0; util_sum =
 *        46718 * 1024 = 47839232; / LOAD_AVG_MAX = 1002.04: 1002;
 *        load_sum 1024 * 46718, load_avg 1002.
 * v4.13: the same sums / (46718 + 0): 1024 and 1024.
 * v4.15: load_sum unweighted 46718, load_avg 1024 * 46718 / 46718 = 1024,
 *        runnable_load_avg likewise.
 * v4.3:  1024 completes the period, decay by 3000 gives 0, then
 *        __compute_runnable_contrib(2999) = LOAD_AVG_MAX: util_sum = 47742
 *        * 1024, util_avg 1024, load_avg 1024.
 */
static void test_divider_same_input(void **state)
{
	struct cfsr_v4_avg sa;

	(void)state;
	sa = run_once(V412, 3000 * PERIOD_NS);
	assert_int_equal(sa.util_sum, 47839232);
	assert_int_equal(sa.util_avg, 1002);
	assert_int_equal(sa.load_sum, UINT64_C(1024) * 46718);
	assert_int_equal(sa.load_avg, 1002);
	assert_int_equal(cfsr_v4_divider(V412, &sa), LOAD_AVG_MAX);

	sa = run_once(V413, 3000 * PERIOD_NS);
	assert_int_equal(sa.util_sum, 47839232);
	assert_int_equal(sa.util_avg, 1024);
	assert_int_equal(sa.load_avg, 1024);
	assert_int_equal(cfsr_v4_divider(V413, &sa), 46718);

	sa = run_once(V415, 3000 * PERIOD_NS);
	assert_int_equal(sa.load_sum, 46718);
	assert_int_equal(sa.runnable_load_sum, 46718);
	assert_int_equal(sa.load_avg, 1024);
	assert_int_equal(sa.runnable_load_avg, 1024);
	assert_int_equal(sa.util_avg, 1024);

	sa = run_once(V43, 3000 * PERIOD_NS);
	assert_int_equal(sa.util_sum, UINT64_C(47742) * 1024);
	assert_int_equal(sa.util_avg, 1024);
	assert_int_equal(sa.load_avg, 1024);
}

/*
 * Half a period more (3000.5 periods): 512 units in the open period.
 * v4.12: util_sum (46718 + 512) * 1024 / 47742 = 1013.02: 1013.
 * v4.13: / (46718 + 512): 1024.
 * v4.3:  0 + 47742 + 512 = 48254 units: 48254 * 1024 / 47742 = 1034.98:
 *        1034, above the capacity, because the sum of 2999 whole periods
 *        is LOAD_AVG_MAX, which already counts a current period.
 */
static void test_half_period(void **state)
{
	struct cfsr_v4_avg sa;

	(void)state;
	sa = run_once(V412, 3000 * PERIOD_NS + 512 * UNIT);
	assert_int_equal(sa.period_contrib, 512);
	assert_int_equal(sa.util_avg, 1013);
	sa = run_once(V413, 3000 * PERIOD_NS + 512 * UNIT);
	assert_int_equal(sa.util_avg, 1024);
	sa = run_once(V43, 3000 * PERIOD_NS + 512 * UNIT);
	assert_int_equal(sa.period_contrib, 512);
	assert_int_equal(sa.util_avg, 1034);
}

/*
 * Updated at every period from 0 (v4.3): 1024 units close the period, so
 * util_sum = 1024 * 1024 before the decay by 1, which applies to the
 * scaled sum: 1048576 y = 1026107.6 (not 1002 * 1024), util_avg 1026107
 * / 47742 = 21.5: 21.  Next: (1026107 + 1048576) y = 2030226.9, / 47742
 * = 42.5: 42.
 */
static void test_per_period_v4_3(void **state)
{
	struct cfsr_v4_avg sa = CFSR_V4_AVG_INIT;

	(void)state;
	assert_int_equal(cfsr_v4_update_load_sum(V43, PERIOD_NS, &sa, 1024, 0, 1, 1024, 1024), 1);
	cfsr_v4_update_load_avg(V43, &sa, 1, 1);
	assert_int_equal(sa.util_sum, 1026107);
	assert_int_equal(sa.util_avg, 21);
	assert_int_equal(cfsr_v4_update_load_sum(V43, 2 * PERIOD_NS, &sa, 1024, 0, 1, 1024, 1024),
			 1);
	cfsr_v4_update_load_avg(V43, &sa, 1, 1);
	assert_int_equal(sa.util_sum, 2030226);
	assert_int_equal(sa.util_avg, 42);
	assert_int_equal(sa.period_contrib, 0);
}

/*
 * The table form of __compute_runnable_contrib (v4.7) and the loop (v4.3)
 * on the same update: 65 periods, weight 1: 1024 decayed by 65 = (1024 >>
 * 2) y = 250.5: 250, + contrib(64): 35055 (loop) or 35056 (table).
 */
static void test_table_vs_loop(void **state)
{
	struct cfsr_v4_avg a = CFSR_V4_AVG_INIT, b = CFSR_V4_AVG_INIT;

	(void)state;
	cfsr_v4_update_load_sum(V43, 65 * PERIOD_NS, &a, 1, 0, 0, 1024, 1024);
	cfsr_v4_update_load_sum(V47, 65 * PERIOD_NS, &b, 1, 0, 0, 1024, 1024);
	assert_int_equal(a.load_sum, 250 + 35055);
	assert_int_equal(b.load_sum, 250 + 35056);
}

/* last_update_time: now before v4.12, whole units after. */
static void test_last_update_time(void **state)
{
	struct cfsr_v4_avg a = CFSR_V4_AVG_INIT, b = CFSR_V4_AVG_INIT;

	(void)state;
	cfsr_v4_update_load_sum(V43, 1500, &a, 1, 0, 0, 1024, 1024);
	cfsr_v4_update_load_sum(V412, 1500, &b, 1, 0, 0, 1024, 1024);
	assert_int_equal(a.last_update_time, 1500);
	assert_int_equal(b.last_update_time, 1024);
	assert_int_equal(a.load_sum, 1);
	assert_int_equal(b.load_sum, 1);
	/* Backwards: only the timestamp moves. */
	assert_int_equal(cfsr_v4_update_load_sum(V412, 10, &b, 1, 0, 0, 1024, 1024), 0);
	assert_int_equal(b.last_update_time, 10);
	assert_int_equal(b.load_sum, 1);
}

/*
 * Scaling inside the sums (v4.3-v5.0): 100 units at half frequency and
 * 3/4 capacity: (100 * 512) >> 10 = 50 units of load (times the weight,
 * 2), and 50 * 768 = 38400 of util.  From v4.12 a zero load also stops
 * util; v4.3 still adds it.
 */
static void test_scaling_and_masks(void **state)
{
	struct cfsr_v4_avg a = CFSR_V4_AVG_INIT, b = CFSR_V4_AVG_INIT;

	(void)state;
	cfsr_v4_update_load_sum(V43, 100 * UNIT, &a, 2, 0, 1, 512, 768);
	assert_int_equal(a.load_sum, 100);
	assert_int_equal(a.util_sum, 38400);
	cfsr_v4_update_load_sum(V413, 100 * UNIT, &b, 2, 0, 1, 512, 768);
	assert_int_equal(b.load_sum, 100);
	assert_int_equal(b.util_sum, 38400);

	a = (struct cfsr_v4_avg)CFSR_V4_AVG_INIT;
	b = (struct cfsr_v4_avg)CFSR_V4_AVG_INIT;
	cfsr_v4_update_load_sum(V43, 100 * UNIT, &a, 0, 0, 1, 1024, 1024);
	cfsr_v4_update_load_sum(V412, 100 * UNIT, &b, 0, 0, 1, 1024, 1024);
	assert_int_equal(a.util_sum, 100 * 1024);
	assert_int_equal(b.util_sum, 0);
}

/* update_tg_load_avg(): past 1/64 of the last contribution, or forced. */
static void test_tg_load_avg(void **state)
{
	uint64_t contrib = 640;
	int64_t tg = 5000;

	(void)state;
	assert_false(cfsr_v4_update_tg_load_avg(650, &contrib, &tg, false));
	assert_int_equal(tg, 5000);
	assert_true(cfsr_v4_update_tg_load_avg(651, &contrib, &tg, false));
	assert_int_equal(tg, 5011);
	assert_int_equal(contrib, 651);
	assert_true(cfsr_v4_update_tg_load_avg(651, &contrib, &tg, true));
	assert_int_equal(tg, 5011);
}

/*
 * calc_cfs_shares(): a group with load 1000 here and 3000 elsewhere, one
 * nice-0 task queued here.  v4.7+ (20-bit): load = 2^20 >> 10 = 1024,
 * tg_weight = 4000 - 1000 + 1024 = 4024, shares = 2^20 * 1024 / 4024 =
 * 266834.2.  v4.3-v4.6 (10-bit): 1024 * 1024 / 4024 = 260.6.  Alone on
 * its CPU, a group gets all its shares.
 */
static void test_calc_cfs_shares(void **state)
{
	(void)state;
	assert_int_equal(
		cfsr_v4_calc_cfs_shares(&cfsr_v4_params_v4_13, 4000, 1000, 1 << 20, 1 << 20, true),
		266834);
	assert_int_equal(
		cfsr_v4_calc_cfs_shares(&cfsr_v4_params_v4_3, 4000, 1000, 1024, 1024, false), 260);
	assert_int_equal(
		cfsr_v4_calc_cfs_shares(&cfsr_v4_params_v4_13, 1023, 1023, 3 << 20, 1 << 20, true),
		1 << 20);
	assert_int_equal(
		cfsr_v4_calc_cfs_shares(&cfsr_v4_params_v4_13, 4000, 1000, 0, 1 << 20, true), 2);
}

/*
 * calc_group_shares() (v4.15+): this CPU's group cfs_rq has one nice-0
 * task (2^20) and load_avg 300; the group's load is 2000, 300 of it from
 * here.  load = max(1024, 300) = 1024; tg_weight = 2000 - 300 + 1024 =
 * 2724; shares = 2^20 * 1024 / 2724 = 394178.4.  A ramped-up cfs_rq
 * (load_avg 1500 > 1024) uses its average: 2000 - 1500 + 1500 = 2000,
 * 2^20 * 1500 / 2000 = 786432.
 * calc_group_runnable(): max(runnable_load_avg, runnable_weight >> 10) /
 * max(load_avg, load.weight >> 10) of the shares: 1500 / 2000 of 786432
 * = 589824 with runnable_load_avg 1500 and an idle instant weight.
 */
static void test_group_shares(void **state)
{
	(void)state;
	assert_int_equal(
		cfsr_v4_calc_group_shares(&cfsr_v4_params_v4_15, 2000, 300, 1 << 20, 300, 1 << 20),
		394178);
	assert_int_equal(cfsr_v4_calc_group_shares(&cfsr_v4_params_v4_15, 2000, 1500, 1 << 20, 1500,
						   1 << 20),
			 786432);
	assert_int_equal(
		cfsr_v4_calc_group_runnable(&cfsr_v4_params_v4_15, 2000, 1 << 20, 1500, 0, 786432),
		589824);
	/* Instant weights win while the averages are low. */
	assert_int_equal(cfsr_v4_calc_group_runnable(&cfsr_v4_params_v4_15, 300, 1 << 20, 250,
						     1 << 20, 394178),
			 394178);
	/*
	 * A cfs_rq weight of 1000 (< 2048), load_avg 0: scale_load_down() is 0
	 * and the shares clamp to 2, or, floored at 2 (26cf52229efc, stable
	 * 4.19.116+), tg_weight = 2000 - 300 + 2 = 1702 and shares = 2^20 * 2
	 * / 1702 = 1232.17.
	 */
	assert_int_equal(
		cfsr_v4_calc_group_shares(&cfsr_v4_params_v4_15, 2000, 300, 1000, 0, 1 << 20), 2);
	assert_int_equal(
		cfsr_v4_calc_group_shares(&cfsr_v4_params_v4_19_116, 2000, 300, 1000, 0, 1 << 20),
		1232);
	assert_int_equal(cfsr_v4_weight(&cfsr_v4_params_v4_15, 2047), 1);
	assert_int_equal(cfsr_v4_weight(&cfsr_v4_params_v4_19_116, 2047), 2);
	assert_int_equal(cfsr_v4_weight(&cfsr_v4_params_v4_19_116, 1), 2);
	assert_int_equal(cfsr_v4_weight(&cfsr_v4_params_v4_19_116, 0), 0);
	assert_int_equal(cfsr_v4_weight(&cfsr_v4_params_v4_19_116, 3 << 10), 3);
	/* Nothing runnable: clamped to MIN_SHARES. */
	assert_int_equal(cfsr_v4_calc_group_runnable(&cfsr_v4_params_v4_15, 2000, 0, 0, 0, 786432),
			 2);
}

/*
 * Propagation (v4.10-v4.14).  The group cfs_rq has load_avg 300; the
 * group's total is 3700, 300 of it from here; shares 2^20 (1024 scaled
 * down).  tg_load = 3700 + 1 - 300 + 300 = 3701 > 1024, so load = 300 *
 * 1024 / 3701 = 83.  The entity had 50: the parent's load_avg 500 gains
 * 33, its sums become 533 * 47742, and, the entity being queued, its
 * runnable_load_avg 400 becomes 433.  A group alone under its shares
 * keeps its load (tg_load 301 <= 1024).
 */
static void test_propagation(void **state)
{
	struct cfsr_v4_avg cfs = CFSR_V4_AVG_INIT, se = CFSR_V4_AVG_INIT, g = CFSR_V4_AVG_INIT;

	(void)state;
	g.load_avg = 300;
	se.load_avg = 50;
	cfs.load_avg = 500;
	cfs.runnable_load_avg = 400;
	cfsr_v4_update_tg_cfs_load(&cfs, &se, &g, 3700, 300, 1 << 20, true);
	assert_int_equal(se.load_avg, 83);
	assert_int_equal(se.load_sum, 83 * LOAD_AVG_MAX);
	assert_int_equal(cfs.load_avg, 533);
	assert_int_equal(cfs.load_sum, 533 * LOAD_AVG_MAX);
	assert_int_equal(cfs.runnable_load_avg, 433);
	assert_int_equal(cfs.runnable_load_sum, 433 * LOAD_AVG_MAX);

	cfsr_v4_update_tg_cfs_load(&cfs, &se, &g, 300, 300, 1 << 20, false);
	assert_int_equal(se.load_avg, 300);
	assert_int_equal(cfs.load_avg, 750);
	assert_int_equal(cfs.runnable_load_avg, 433);

	/* util: the entity takes 400 from 100; the parent 150 -> 450. */
	g.util_avg = 400;
	se.util_avg = 100;
	cfs.util_avg = 150;
	cfsr_v4_update_tg_cfs_util(&cfs, &se, &g);
	assert_int_equal(se.util_avg, 400);
	assert_int_equal(se.util_sum, 400 * LOAD_AVG_MAX);
	assert_int_equal(cfs.util_avg, 450);
	assert_int_equal(cfs.util_sum, 450 * LOAD_AVG_MAX);
	/* A drop larger than the parent's value stops at 0 (add_positive). */
	g.util_avg = 0;
	cfs.util_avg = 100;
	cfsr_v4_update_tg_cfs_util(&cfs, &se, &g);
	assert_int_equal(cfs.util_avg, 0);
	assert_int_equal(cfs.util_sum, 0);
}

/*
 * update_tg_cfs_runnable() (v4.15-v5.6), group entity of weight 1024:
 * load_sum 20000, load_avg 428, runnable likewise, running 15000 units
 * (util_sum 15000 * 1024).
 * +10000 attached: 30000 (under LOAD_AVG_MAX), above 15000; load_sum
 * 1024 * 30000 = 30720000, load_avg / 47742 = 643.4: 643.  The parent
 * gains 643 - 428 = 215 and 30720000 - 1024 * 20000 = 10240000, in load
 * and, the entity being queued, in runnable load.
 * -5000 detached: the group cfs_rq's load_sum 12288000 per 1024 of weight
 * = 12000, under 30000; raised to the running 15000: load_avg 15360000 /
 * 47742 = 321.7: 321.
 * +40000: 15000 + 40000 clipped at 47742.
 */
static void test_propagate_runnable(void **state)
{
	struct cfsr_v4_avg cfs = CFSR_V4_AVG_INIT, se = CFSR_V4_AVG_INIT;
	int64_t prop = 10000;

	(void)state;
	se.load_sum = se.runnable_load_sum = 20000;
	se.load_avg = se.runnable_load_avg = 428;
	se.util_sum = 15000 * 1024;
	cfs.load_avg = 1000;
	cfs.load_sum = 50000000;
	cfs.runnable_load_avg = 900;
	cfs.runnable_load_sum = 40000000;

	cfsr_v4_update_tg_cfs_runnable(&cfsr_v4_params_v4_15, &cfs, &se, 0, 0, &prop, 1024, 1024,
				       true, 1024);
	assert_int_equal(prop, 0);
	assert_int_equal(se.load_sum, 30000);
	assert_int_equal(se.load_avg, 643);
	assert_int_equal(se.runnable_load_avg, 643);
	assert_int_equal(cfs.load_avg, 1215);
	assert_int_equal(cfs.load_sum, 60240000);
	assert_int_equal(cfs.runnable_load_avg, 1115);
	assert_int_equal(cfs.runnable_load_sum, 50240000);

	prop = -5000;
	cfsr_v4_update_tg_cfs_runnable(&cfsr_v4_params_v4_15, &cfs, &se, 12288000, 1 << 20, &prop,
				       1024, 1024, false, 1024);
	assert_int_equal(se.load_sum, 15000);
	assert_int_equal(se.load_avg, 321);
	/* Not queued: the parent's runnable load stays. */
	assert_int_equal(cfs.runnable_load_avg, 1115);
	assert_int_equal(cfs.load_avg, 1215 - (643 - 321));

	prop = 40000;
	cfsr_v4_update_tg_cfs_runnable(&cfsr_v4_params_v4_15, &cfs, &se, 0, 0, &prop, 1024, 1024,
				       false, 1024);
	assert_int_equal(se.load_sum, LOAD_AVG_MAX);
	/* Nothing to propagate: nothing changes. */
	cfsr_v4_update_tg_cfs_runnable(&cfsr_v4_params_v4_15, &cfs, &se, 0, 0, &prop, 1024, 1024,
				       false, 1024);
	assert_int_equal(se.load_sum, LOAD_AVG_MAX);
}

/* util_avg after @n period-boundary updates of an always-running entity. */
static uint64_t saturate(const struct cfsr_v4_params *p, unsigned int n)
{
	struct cfsr_v4_avg sa = CFSR_V4_AVG_INIT;
	unsigned int i;

	for (i = 1; i <= n; i++) {
		cfsr_v4_update_load_sum(p, i * PERIOD_NS, &sa, 1024, 0, 1, 1024, 1024);
		cfsr_v4_update_load_avg(p, &sa, 1, 1);
	}
	return sa.util_avg;
}

/*
 * The fixed point each generation's util_sum reaches when updated at every
 * period boundary, from real-valued limits (floors lower them by less than
 * 1 / (1 - y) = 46.7 units of util_sum, which changes no result here):
 * v4.3-v4.11 decay the scaled sum, s <- (s + 1024 * 1024) y, limit
 * 1048576 y / (1 - y) = 47886876; v4.12+ floor the period's contribution
 * before scaling it, s <- s y + floor(1024 y) * 1024, limit 1026048 /
 * (1 - y) = 47884091.  Divided by LOAD_AVG_MAX: 1003.0 and 1002.97, so
 * v4.3 saturates at 1003 and v4.12 at 1002; divided by PELT_MIN_DIVIDER
 * (period_contrib 0 at the boundary, v4.13+): 1024.96, so 1024.
 */
static void test_saturation(void **state)
{
	long double y = pelt_y();
	long double l43 = 1048576.0L * y / (1 - y), l412 = 1002.0L * 1024 / (1 - y);
	long double slack = 1 / (1 - y);

	(void)state;
	assert_int_equal((uint64_t)(l43 / LOAD_AVG_MAX), 1003);
	assert_int_equal((uint64_t)((l43 - slack) / LOAD_AVG_MAX), 1003);
	assert_int_equal((uint64_t)(l412 / LOAD_AVG_MAX), 1002);
	assert_int_equal((uint64_t)((l412 - slack) / LOAD_AVG_MAX), 1002);
	assert_int_equal((uint64_t)(l412 / PELT_MIN_DIVIDER), 1024);
	assert_int_equal((uint64_t)((l412 - slack) / PELT_MIN_DIVIDER), 1024);

	assert_int_equal(saturate(V43, 2000), 1003);
	assert_int_equal(saturate(V47, 2000), 1003);
	assert_int_equal(saturate(V412, 2000), 1002);
	assert_int_equal(saturate(V413, 2000), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_divider_same_input),
		cmocka_unit_test(test_half_period),
		cmocka_unit_test(test_per_period_v4_3),
		cmocka_unit_test(test_table_vs_loop),
		cmocka_unit_test(test_last_update_time),
		cmocka_unit_test(test_scaling_and_masks),
		cmocka_unit_test(test_tg_load_avg),
		cmocka_unit_test(test_calc_cfs_shares),
		cmocka_unit_test(test_group_shares),
		cmocka_unit_test(test_propagation),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_propagate_runnable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

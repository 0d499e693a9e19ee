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
	assert_int_equal(cfsr_v4_calc_cfs_shares(4000, 1000, 1 << 20, 1 << 20, true), 266834);
	assert_int_equal(cfsr_v4_calc_cfs_shares(4000, 1000, 1024, 1024, false), 260);
	assert_int_equal(cfsr_v4_calc_cfs_shares(1023, 1023, 3 << 20, 1 << 20, true), 1 << 20);
	assert_int_equal(cfsr_v4_calc_cfs_shares(4000, 1000, 0, 1 << 20, true), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_divider_same_input), cmocka_unit_test(test_half_period),
		cmocka_unit_test(test_per_period_v4_3),	   cmocka_unit_test(test_table_vs_loop),
		cmocka_unit_test(test_last_update_time),   cmocka_unit_test(test_scaling_and_masks),
		cmocka_unit_test(test_tg_load_avg),	   cmocka_unit_test(test_calc_cfs_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

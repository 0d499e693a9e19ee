/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for lib/weight.c: the nice-to-weight tables and lookups.
 *
 * The tables are checked against properties derived independently of
 * them: spot values quoted from the kernel, the ~1.25 ratio between nice
 * levels (compared with 1024 * 1.25^-nice, computed here), wmult * weight
 * within one weight of 2^32, and the SCHED_IDLE pair.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "math.h"
#include "weight.h"

static void test_spot_values(void **state)
{
	(void)state;
	assert_int_equal(cfsr_nice_to_weight(0), 1024);
	assert_int_equal(cfsr_nice_to_weight(-20), 88761);
	assert_int_equal(cfsr_nice_to_weight(19), 15);
	assert_int_equal(cfsr_nice_to_weight(-5), 3121);
	assert_int_equal(cfsr_nice_to_weight(5), 335);
	assert_int_equal(cfsr_nice_to_wmult(0), 4194304);
	assert_int_equal(cfsr_nice_to_wmult(-20), 48388);
	assert_int_equal(cfsr_nice_to_wmult(19), 286331153);
	/* Truncated rather than rounded: 2^32 / 29 = 148102320.55. */
	assert_int_equal(cfsr_nice_to_wmult(16), 148102320);

	assert_int_equal(cfsr_prio_to_weight(120), 1024);
	assert_int_equal(cfsr_prio_to_weight(100), 88761);
	assert_int_equal(cfsr_prio_to_weight(139), 15);
	assert_int_equal(cfsr_prio_to_wmult(120), 4194304);
	assert_int_equal(cfsr_prio_to_wmult(139), 286331153);
}

static void test_out_of_range(void **state)
{
	(void)state;
	assert_int_equal(cfsr_nice_to_weight(-21), 0);
	assert_int_equal(cfsr_nice_to_weight(20), 0);
	assert_int_equal(cfsr_nice_to_wmult(20), 0);
	assert_int_equal(cfsr_nice_to_load_weight(-21), 0);
	assert_int_equal(cfsr_prio_to_weight(99), 0);
	assert_int_equal(cfsr_prio_to_weight(140), 0);
	assert_int_equal(cfsr_prio_to_wmult(99), 0);
	assert_int_equal(cfsr_prio_to_load_weight(140), 0);
}

static void test_scaled(void **state)
{
	int nice;

	(void)state;
	assert_int_equal(cfsr_nice_to_load_weight(0), NICE_0_LOAD);
	assert_int_equal(cfsr_prio_to_load_weight(120), 1048576);
	assert_int_equal(cfsr_nice_to_load_weight(-20), 88761 * 1024);
	assert_int_equal(cfsr_idle_load_weight(), 3072);
	for (nice = CFSR_NICE_MIN; nice <= CFSR_NICE_MAX; nice++) {
		assert_int_equal(cfsr_nice_to_load_weight(nice), cfsr_nice_to_weight(nice) << 10);
		assert_int_equal(cfsr_prio_to_weight(120 + nice), cfsr_nice_to_weight(nice));
		assert_int_equal(cfsr_prio_to_wmult(120 + nice), cfsr_nice_to_wmult(nice));
	}
}

/* Each nice level is about 1.25 times the next one, within [1.19, 1.29]. */
static void test_ratio(void **state)
{
	int nice;

	(void)state;
	for (nice = CFSR_NICE_MIN; nice < CFSR_NICE_MAX; nice++) {
		uint64_t w = cfsr_nice_to_weight(nice);
		uint64_t next = cfsr_nice_to_weight(nice + 1);

		assert_true(w * 100 >= next * 119);
		assert_true(w * 100 <= next * 129);
	}
}

/* Each weight is within 3% of 1024 * 1.25^-nice, computed by repeated products. */
static void test_geometric(void **state)
{
	long double ideal[CFSR_NICE_WIDTH];
	int i;

	(void)state;
	ideal[20] = 1024.0L;
	for (i = 21; i < CFSR_NICE_WIDTH; i++)
		ideal[i] = ideal[i - 1] / 1.25L;
	for (i = 19; i >= 0; i--)
		ideal[i] = ideal[i + 1] * 1.25L;

	for (i = 0; i < CFSR_NICE_WIDTH; i++) {
		long double w = (long double)cfsr_sched_prio_to_weight[i];
		long double err = w > ideal[i] ? w - ideal[i] : ideal[i] - w;

		assert_true(err <= 0.03L * ideal[i]);
	}
}

/* wmult is 2^32 / weight within one: |wmult * weight - 2^32| < weight. */
static void test_wmult(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < CFSR_NICE_WIDTH; i++) {
		int64_t w = cfsr_sched_prio_to_weight[i];
		int64_t prod = (int64_t)cfsr_sched_prio_to_wmult[i] * w;
		int64_t diff = prod - (INT64_C(1) << 32);

		if (diff < 0)
			diff = -diff;
		assert_true(diff < w);
		if (i)
			assert_true(cfsr_sched_prio_to_wmult[i] > cfsr_sched_prio_to_wmult[i - 1]);
	}
	/* SCHED_IDLE: 3 * 1431655765 = 2^32 - 1. */
	assert_int_equal((uint64_t)WEIGHT_IDLEPRIO * WMULT_IDLEPRIO, UINT64_C(0xffffffff));
}

static void test_weight_inv(void **state)
{
	(void)state;
	/* 0xffffffff / 1024 = 4194303.99: one less than the table's 4194304. */
	assert_int_equal(cfsr_weight_inv(NICE_0_LOAD), 4194303);
	assert_int_equal(cfsr_weight_inv(3072), WMULT_IDLEPRIO);
	assert_int_equal(cfsr_weight_inv(0), 0xffffffffu);
	/* A non-zero weight scales down to at least 2: 0xffffffff / 2. */
	assert_int_equal(cfsr_weight_inv(1), 2147483647);
	/* Scaled-down weights of 2^32 - 1 and above give 1. */
	assert_int_equal(cfsr_weight_inv(UINT64_C(0xffffffff) << 10), 1);
	assert_int_equal(cfsr_weight_inv(UINT64_C(1) << 50), 1);
	assert_int_equal(cfsr_weight_inv(UINT64_C(0xfffffffe) << 10), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spot_values), cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_scaled),	    cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_geometric),   cmocka_unit_test(test_wmult),
		cmocka_unit_test(test_weight_inv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

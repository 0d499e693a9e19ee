/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for lib/math.h: the 64x32 multiply-shift, division, the
 * arithmetic shift and the load scaling functions.
 *
 * Expected values are worked out by hand in the comments, or computed in
 * the test by a different method (splitting a 64-bit operand into 32-bit
 * halves instead of using a 128-bit product).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "math.h"

/* (a * mul) >> 32 from two 64-bit products: a = hi * 2^32 + lo. */
static uint64_t mul_shr32_split(uint64_t a, uint32_t mul)
{
	uint64_t hi = a >> 32, lo = a & 0xffffffffu;

	return hi * mul + ((lo * mul) >> 32);
}

static void test_constants(void **state)
{
	(void)state;
	assert_int_equal(SCHED_FIXEDPOINT_SHIFT, 10);
	assert_int_equal(SCHED_CAPACITY_SCALE, 1024);
	assert_int_equal(NICE_0_LOAD_SHIFT, 20);
	assert_int_equal(NICE_0_LOAD, 1048576);
	assert_int_equal(LOAD_AVG_PERIOD, 32);
	assert_int_equal(LOAD_AVG_MAX, 47742);
	assert_int_equal(PELT_MIN_DIVIDER, 47742 - 1024);
}

static void test_mul_u64_u32_shr(void **state)
{
	static const uint64_t as[] = {
		0,
		1,
		0xffffffffu,
		UINT64_C(0x100000000),
		UINT64_C(0x123456789abcdef0),
		UINT64_C(0xffffffffffffffff),
		UINT64_C(0x8000000000000001),
	};
	static const uint32_t muls[] = { 0, 1, 0x80000000u, 0xfa83b2dau, 0xffffffffu };
	size_t i, j;

	(void)state;

	/*
	 * (2^64 - 1)(2^32 - 1) >> 32 = (2^32 - 1)^2 + ((2^32 - 1)^2 >> 32)
	 * = 2^64 - 2^33 + 1 + 2^32 - 2 = 2^64 - 2^32 - 1.
	 */
	assert_int_equal(cfsr_mul_u64_u32_shr(UINT64_MAX, 0xffffffffu, 32),
			 UINT64_C(0xfffffffeffffffff));
	/* Shift 0 keeps the low 64 bits: (2^40 + 3) 2^30 = 2^70 + 3 2^30. */
	assert_int_equal(cfsr_mul_u64_u32_shr((UINT64_C(1) << 40) + 3, 1u << 30, 0), UINT64_C(3)
											     << 30);
	/* 2^63 * 4 >> 63 = 4: the product needs 66 bits. */
	assert_int_equal(cfsr_mul_u64_u32_shr(UINT64_C(1) << 63, 4, 63), 4);
	/* Truncation, not rounding: 3 * 0x80000000 >> 32 = 1.5 -> 1. */
	assert_int_equal(cfsr_mul_u64_u32_shr(3, 0x80000000u, 32), 1);

	for (i = 0; i < sizeof(as) / sizeof(as[0]); i++)
		for (j = 0; j < sizeof(muls) / sizeof(muls[0]); j++)
			assert_int_equal(cfsr_mul_u64_u32_shr(as[i], muls[j], 32),
					 mul_shr32_split(as[i], muls[j]));
}

static void test_div_u64(void **state)
{
	(void)state;
	assert_int_equal(cfsr_div_u64(1000000000000ull, 7), 142857142857ull);
	assert_int_equal(cfsr_div_u64(46717, 46718), 0);
	assert_int_equal(cfsr_div_u64(UINT64_MAX, 0xffffffffu), UINT64_C(0x100000001));
}

static void test_asr_s64(void **state)
{
	(void)state;
	/* Rounds towards minus infinity, like the kernel's ">>" on a long. */
	assert_int_equal(cfsr_asr_s64(-1, 10), -1);
	assert_int_equal(cfsr_asr_s64(-1024, 10), -1);
	assert_int_equal(cfsr_asr_s64(-1025, 10), -2);
	/* -11682000 / 1024 = -11408.2 -> -11409. */
	assert_int_equal(cfsr_asr_s64(-11682000, 10), -11409);
	assert_int_equal(cfsr_asr_s64(1025, 10), 1);
	assert_int_equal(cfsr_asr_s64(-5, 0), -5);
	assert_int_equal(cfsr_asr_s64(INT64_MIN, 63), -1);
	assert_int_equal(cfsr_asr_s64(INT64_MAX, 62), 1);
}

static void test_scale_load(void **state)
{
	(void)state;
	assert_int_equal(cfsr_scale_load(1024), NICE_0_LOAD);
	assert_int_equal(cfsr_scale_load(3), 3072);
	assert_int_equal(cfsr_scale_load_down(NICE_0_LOAD), 1024);
	assert_int_equal(cfsr_scale_load_down(88761u << 10), 88761);
	assert_int_equal(cfsr_scale_load_down(3072), 3);
	/* 0 stays 0; any other weight is at least 2 (MIN_SHARES). */
	assert_int_equal(cfsr_scale_load_down(0), 0);
	assert_int_equal(cfsr_scale_load_down(1), 2);
	assert_int_equal(cfsr_scale_load_down(1023), 2);
	assert_int_equal(cfsr_scale_load_down(2047), 2);
	assert_int_equal(cfsr_scale_load_down(2048), 2);
	assert_int_equal(cfsr_scale_load_down(4095), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants),  cmocka_unit_test(test_mul_u64_u32_shr),
		cmocka_unit_test(test_div_u64),	   cmocka_unit_test(test_asr_s64),
		cmocka_unit_test(test_scale_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

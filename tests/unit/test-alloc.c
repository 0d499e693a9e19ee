// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/alloc.c: growth, zeroing of new space, and refusal
 * of sizes that overflow, leaving the old block in place.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "alloc.h"

static void test_grow_zeroes(void **state)
{
	uint64_t *a = NULL;
	size_t alloc = 0, i;

	(void)state;
	assert_int_equal(CFSR_ALLOC_GROW(a, 3, alloc), 0);
	assert_true(alloc >= 3);
	for (i = 0; i < alloc; i++)
		assert_int_equal(a[i], 0);
	a[0] = 42;
	assert_int_equal(CFSR_ALLOC_GROW(a, 1000, alloc), 0);
	assert_true(alloc >= 1000);
	assert_int_equal(a[0], 42);
	for (i = 1; i < alloc; i++)
		assert_int_equal(a[i], 0);
	/* no change when already large enough */
	i = alloc;
	assert_int_equal(CFSR_ALLOC_GROW(a, 10, alloc), 0);
	assert_int_equal(alloc, i);
	free(a);
}

static void test_overflow_keeps_block(void **state)
{
	uint64_t *a = NULL, *old;
	size_t alloc = 0, was;

	(void)state;
	assert_int_equal(CFSR_ALLOC_GROW(a, 4, alloc), 0);
	old = a;
	was = alloc;
	assert_int_equal(CFSR_ALLOC_GROW(a, SIZE_MAX / 4, alloc), -1);
	assert_ptr_equal(a, old);
	assert_int_equal(alloc, was);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_zeroes),
		cmocka_unit_test(test_overflow_keeps_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/pidmap.c: lookups against a plain array kept by the
 * test, across many doublings, with negative, zero and large pids.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "pidmap.h"

static void test_empty(void **state)
{
	struct cfsr_pidmap map = CFSR_PIDMAP_INIT;

	(void)state;
	assert_int_equal(cfsr_pidmap_get(&map, 0), -1);
	assert_int_equal(cfsr_pidmap_put(&map, 0, 7), 0);
	assert_int_equal(cfsr_pidmap_get(&map, 0), 7);
	assert_int_equal(cfsr_pidmap_get(&map, 1), -1);
	cfsr_pidmap_release(&map);
	assert_int_equal(cfsr_pidmap_get(&map, 0), -1);
}

/* 5000 distinct pids spread over the pid range, each mapped to its position */
static void test_against_array(void **state)
{
	struct cfsr_pidmap map = CFSR_PIDMAP_INIT;
	static int pids[5000];
	int i;

	(void)state;
	for (i = 0; i < 5000; i++) {
		pids[i] =
			(int)(((unsigned int)i * 2654435761u) % 4194304u) + (i & 1 ? 0 : -5000000);
		assert_int_equal(cfsr_pidmap_put(&map, pids[i], (size_t)i), 0);
	}
	for (i = 0; i < 5000; i++)
		assert_int_equal(cfsr_pidmap_get(&map, pids[i]), i);
	assert_int_equal(cfsr_pidmap_get(&map, 4194304), -1);
	assert_int_equal(map.nr, 5000);
	assert_true(map.nr_slots >= 10000);
	cfsr_pidmap_release(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_against_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

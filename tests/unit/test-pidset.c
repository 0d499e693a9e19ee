// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/pidset.c: membership against a plain array kept by
 * the test, growth across many rehashes, and the sentinel value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "pidset.h"

static void test_add_and_has(void **state)
{
	struct cfsr_pidset set = CFSR_PIDSET_INIT;

	(void)state;
	assert_int_equal(cfsr_pidset_has(&set, 1), 0);
	assert_int_equal(cfsr_pidset_add(&set, 1), 1);
	assert_int_equal(cfsr_pidset_add(&set, 1), 0);
	assert_int_equal(cfsr_pidset_add(&set, 0), 1);
	assert_int_equal(cfsr_pidset_has(&set, 0), 1);
	assert_int_equal(cfsr_pidset_has(&set, 2), 0);
	assert_int_equal(set.nr, 2);
	/* -1 marks free slots and cannot be stored */
	assert_int_equal(cfsr_pidset_add(&set, -1), -1);
	assert_int_equal(cfsr_pidset_has(&set, -1), 0);
	cfsr_pidset_release(&set);
	assert_int_equal(set.nr, 0);
	assert_int_equal(cfsr_pidset_has(&set, 1), 0);
}

/* Random pids with repeats: the set must agree with a brute-force list. */
static void test_against_array(void **state)
{
	struct cfsr_pidset set = CFSR_PIDSET_INIT;
	static int seen[4096];
	int nr_seen = 0, i, j;

	(void)state;
	srand(12345);
	for (i = 0; i < 20000; i++) {
		int pid = rand() % 4096 * 7919;
		int known = 0, ret;

		for (j = 0; j < nr_seen; j++)
			if (seen[j] == pid)
				known = 1;
		ret = cfsr_pidset_add(&set, pid);
		assert_int_equal(ret, !known);
		if (!known)
			seen[nr_seen++] = pid;
	}
	assert_int_equal(set.nr, (size_t)nr_seen);
	for (j = 0; j < nr_seen; j++)
		assert_int_equal(cfsr_pidset_has(&set, seen[j]), 1);
	assert_int_equal(cfsr_pidset_has(&set, 1), 0);
	cfsr_pidset_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_and_has),
		cmocka_unit_test(test_against_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

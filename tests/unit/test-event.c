// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/event.c: kind names and the pids an event names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "event.h"

static void test_kind_names(void **state)
{
	int k;

	(void)state;
	assert_string_equal(cfsr_event_kind_name(CFSR_EV_SWITCH), "switch");
	assert_string_equal(cfsr_event_kind_name(CFSR_EV_LOST), "lost");
	assert_string_equal(cfsr_event_kind_name(CFSR_EV_NR), "?");
	/* every kind has a distinct name */
	for (k = 0; k < CFSR_EV_NR; k++) {
		int j;

		for (j = 0; j < k; j++)
			assert_true(strcmp(cfsr_event_kind_name(k), cfsr_event_kind_name(j)));
	}
}

static void test_pids(void **state)
{
	struct cfsr_event ev;
	int pids[4];

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_SWITCH;
	ev.pid = 10;
	ev.sw.prev_pid = 10;
	ev.sw.next_pid = 0;
	/* idle (0) is not a task; duplicates count once */
	assert_int_equal(cfsr_event_pids(&ev, pids), 1);
	assert_int_equal(pids[0], 10);

	ev.kind = CFSR_EV_FORK;
	ev.pid = 5;
	ev.fork.parent_pid = 5;
	ev.fork.child_pid = 6;
	assert_int_equal(cfsr_event_pids(&ev, pids), 2);
	assert_int_equal(pids[1], 6);

	ev.kind = CFSR_EV_LOST;
	ev.pid = -1;
	assert_int_equal(cfsr_event_pids(&ev, pids), 0);
}

static void test_is_sched(void **state)
{
	(void)state;
	assert_true(cfsr_event_kind_is_sched(CFSR_EV_SWITCH));
	assert_true(cfsr_event_kind_is_sched(CFSR_EV_STAT_RUNTIME));
	assert_false(cfsr_event_kind_is_sched(CFSR_EV_MARKER));
	assert_false(cfsr_event_kind_is_sched(CFSR_EV_CGROUP_ATTACH));
	assert_false(cfsr_event_kind_is_sched(CFSR_EV_LOST));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_is_sched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

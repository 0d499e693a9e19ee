// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/idlewait.c on hand-made event sequences whose totals
 * are worked out by hand in the comments: CPU states, preemption, wakeups,
 * migration, affinity from markers and setaffinity, the window, episodes
 * and the lost-events rule.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "idlewait.h"

#define MS 1000000ULL

static struct cfsr_iww *new_iw(int nr_cpus, uint64_t start, uint64_t end)
{
	struct cfsr_iww_params p = { .nr_cpus = nr_cpus,
				     .balance_interval_ns = 4 * MS,
				     .top_n = 3,
				     .win_start = start,
				     .win_end = end,
				     .filter_cpu = -1,
				     .filter_pid = -1 };

	return cfsr_iww_new(&p);
}

static void sw(struct cfsr_iww *iw, uint64_t ts, int cpu, int prev, bool runnable, int next)
{
	struct cfsr_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .kind = CFSR_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_state = runnable ? CFSR_TASK_RUNNING : CFSR_TASK_INTERRUPTIBLE;
	ev.sw.preempt = runnable;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	strcpy(ev.sw.prev_comm, "t");
	strcpy(ev.sw.next_comm, "t");
	assert_int_equal(cfsr_iww_event(iw, &ev), 0);
}

static void wake(struct cfsr_iww *iw, uint64_t ts, int cpu, int pid, int target)
{
	struct cfsr_event ev = { .ts = ts, .cpu = cpu, .pid = 0, .kind = CFSR_EV_WAKEUP };

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target;
	ev.wake.success = -1;
	strcpy(ev.wake.comm, "w");
	assert_int_equal(cfsr_iww_event(iw, &ev), 0);
}

static void marker(struct cfsr_iww *iw, uint64_t ts, const char *text)
{
	struct cfsr_event ev = { .ts = ts, .cpu = 0, .pid = 1, .kind = CFSR_EV_MARKER };

	ev.marker.text = text;
	assert_int_equal(cfsr_iww_event(iw, &ev), 0);
}

static void other(struct cfsr_iww *iw, uint64_t ts, enum cfsr_event_kind kind, int cpu)
{
	struct cfsr_event ev = { .ts = ts, .cpu = cpu, .pid = 0, .kind = kind };

	assert_int_equal(cfsr_iww_event(iw, &ev), 0);
}

/*
 * CPU0 runs 10, CPU1 goes idle at 1 ms.  At 2 ms task 11 is woken to CPU0
 * (overloaded): waste until 5 ms, when 11 migrates to CPU1 (pending), and
 * CPU1 switches to it at 6 ms.  wall = cpu = allowed = 3 ms, one episode
 * (transient: 3 ms < 4 ms).  Before 1 ms CPU1 is unknown.
 */
static void test_basic(void **state)
{
	struct cfsr_iww *iw = new_iw(2, 0, UINT64_MAX);
	const struct cfsr_iww_totals *t;
	const struct cfsr_iww_episode *eps;
	struct cfsr_event ev = { .ts = 5 * MS, .cpu = 1, .kind = CFSR_EV_MIGRATE };

	(void)state;
	sw(iw, 0, 0, 0, false, 10);
	sw(iw, 1 * MS, 1, 20, false, 0);
	wake(iw, 2 * MS, 1, 11, 0);
	ev.migrate.pid = 11;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 1;
	assert_int_equal(cfsr_iww_event(iw, &ev), 0);
	sw(iw, 6 * MS, 1, 0, false, 11);
	other(iw, 10 * MS, CFSR_EV_STAT_RUNTIME, 0);
	cfsr_iww_finish(iw);
	t = cfsr_iww_totals(iw);
	assert_int_equal(t->wall_ns, 3 * MS);
	assert_int_equal(t->cpu_ns, 3 * MS);
	assert_int_equal(t->allowed_cpu_ns, 3 * MS);
	assert_int_equal(t->episodes, 1);
	assert_int_equal(t->transient_episodes, 1);
	assert_int_equal(t->longest_ns, 3 * MS);
	assert_int_equal(t->known_from, 1 * MS);
	assert_int_equal(cfsr_iww_cpu(iw, 1)->state_ns[CFSR_CPU_UNKNOWN], 1 * MS);
	assert_int_equal(cfsr_iww_cpu(iw, 1)->state_ns[CFSR_CPU_PENDING], 1 * MS);
	assert_int_equal(cfsr_iww_cpu(iw, 0)->state_ns[CFSR_CPU_OVERLOADED], 3 * MS);
	assert_int_equal(cfsr_iww_top(iw, &eps), 1);
	assert_int_equal(eps[0].start, 2 * MS);
	assert_int_equal(eps[0].end, 5 * MS);
	assert_int_equal(eps[0].idle_cpu, 1);
	assert_int_equal(eps[0].busy_cpu, 0);
	assert_int_equal(eps[0].nr_pids, 1);
	assert_int_equal(eps[0].pids[0], 11);
	cfsr_iww_free(iw);
}

/*
 * Preemption makes the preempted task wait.  Task 11, pinned to CPU0 by a
 * marker, preempted on CPU0 at 1 ms while CPU1 idles; task 12 (setaffinity,
 * mask unknown) woken to CPU0 at 3 ms; both wait until 9 ms when CPU1 takes
 * 12 (a switch on CPU1 without migration: it leaves CPU0's list).
 * cpu = 8 ms; allowed = 0; unknown-affinity = 6 ms (3..9); bound = 2 ms.
 * One long episode of 8 ms.  A window [2, 8) ms keeps 6 ms of it.
 */
static void run_affinity(struct cfsr_iww *iw)
{
	struct cfsr_event ev = { .ts = 0, .cpu = 0, .pid = 12, .kind = CFSR_EV_SETAFFINITY };

	ev.affinity.pid = 0;
	sw(iw, 0, 1, 30, false, 0);
	sw(iw, 0, 0, 0, false, 11);
	marker(iw, 0, "cfsr-affinity pid=11 cpus=0");
	assert_int_equal(cfsr_iww_event(iw, &ev), 0);
	sw(iw, 1 * MS, 0, 11, true, 10);
	wake(iw, 3 * MS, 0, 12, 0);
	sw(iw, 9 * MS, 1, 0, false, 12);
	other(iw, 12 * MS, CFSR_EV_STAT_RUNTIME, 0);
	cfsr_iww_finish(iw);
}

static void test_affinity(void **state)
{
	struct cfsr_iww *iw = new_iw(2, 0, UINT64_MAX);
	const struct cfsr_iww_totals *t;

	(void)state;
	run_affinity(iw);
	t = cfsr_iww_totals(iw);
	assert_int_equal(t->wall_ns, 8 * MS);
	assert_int_equal(t->cpu_ns, 8 * MS);
	assert_int_equal(t->allowed_cpu_ns, 0);
	assert_int_equal(t->unknown_affinity_cpu_ns, 6 * MS);
	assert_int_equal(t->affinity_bound_cpu_ns, 2 * MS);
	assert_int_equal(t->long_episodes, 1);
	assert_int_equal(t->affinity_markers, 1);
	assert_int_equal(t->affinity_changes, 1);
	assert_int_equal(cfsr_iww_allowed(iw, 11, 1), CFSR_ALLOWED_NO);
	assert_int_equal(cfsr_iww_allowed(iw, 11, 0), CFSR_ALLOWED_YES);
	assert_int_equal(cfsr_iww_allowed(iw, 12, 1), CFSR_ALLOWED_UNKNOWN);
	assert_int_equal(cfsr_iww_allowed(iw, 99, 1), CFSR_ALLOWED_YES);
	cfsr_iww_free(iw);

	iw = new_iw(2, 2 * MS, 8 * MS);
	run_affinity(iw);
	t = cfsr_iww_totals(iw);
	assert_int_equal(t->wall_ns, 6 * MS);
	assert_int_equal(t->unknown_affinity_cpu_ns, 5 * MS);
	assert_int_equal(t->long_episodes, 1);
	assert_int_equal(t->longest_ns, 6 * MS);
	cfsr_iww_free(iw);
}

/*
 * Three CPUs: CPU0 overloaded by two tasks, CPU1 and CPU2 idle: min(2, 1)
 * counts one CPU.  A lost-events notice on CPU0 makes it unknown until its
 * next switch, which ends the waste.
 */
static void test_min_and_lost(void **state)
{
	struct cfsr_iww *iw = new_iw(3, 0, UINT64_MAX);
	const struct cfsr_iww_totals *t;

	(void)state;
	sw(iw, 0, 1, 5, false, 0);
	sw(iw, 0, 2, 6, false, 0);
	sw(iw, 0, 0, 0, false, 10);
	wake(iw, 1 * MS, 0, 11, 0);
	wake(iw, 1 * MS, 0, 12, 0);
	other(iw, 3 * MS, CFSR_EV_LOST, 0);
	other(iw, 7 * MS, CFSR_EV_STAT_RUNTIME, 1);
	cfsr_iww_finish(iw);
	t = cfsr_iww_totals(iw);
	assert_int_equal(t->wall_ns, 2 * MS);
	assert_int_equal(t->cpu_ns, 2 * MS);
	assert_int_equal(t->lost_notices, 1);
	assert_int_equal(cfsr_iww_cpu(iw, 0)->state_ns[CFSR_CPU_UNKNOWN], 4 * MS);
	cfsr_iww_free(iw);
}

static void test_cpulist(void **state)
{
	uint64_t m[2];

	(void)state;
	assert_int_equal(cfsr_iww_parse_cpulist("0-2,5", m, 2), 0);
	assert_int_equal(m[0], 0x27);
	assert_int_equal(cfsr_iww_parse_cpulist("64", m, 2), 0);
	assert_int_equal(m[1], 1);
	assert_int_equal(cfsr_iww_parse_cpulist("128", m, 2), -1);
	assert_int_equal(cfsr_iww_parse_cpulist("3-1", m, 2), -1);
	assert_int_equal(cfsr_iww_parse_cpulist("1,", m, 2), -1);
	assert_int_equal(cfsr_iww_parse_cpulist("x", m, 2), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_min_and_lost),
		cmocka_unit_test(test_cpulist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

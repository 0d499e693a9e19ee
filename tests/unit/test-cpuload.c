// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/cpuload.c: task_h_load() arithmetic on hand-derived
 * values; after every event, each CPU's load must be the root cfs_rq's
 * load_avg of a second engine fed the same events, read at the event's
 * instant; blocked load must stay and halve in LOAD_AVG_PERIOD periods;
 * a task alone in the root group has its own load_avg as h_load.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuload.h"
#include "formats.h"
#include "pidset.h"
#include "profile.h"
#include "replay.h"

static struct cfsr_pidset pids = CFSR_PIDSET_INIT;

/* The root cfs_rq's load_avg of @r on @cpu, aged to trace time @ts. */
static uint64_t root_load(struct cfsr_replay *r, int cpu, uint64_t ts)
{
	const struct cfsr_cfs_rq *root = cfsr_replay_cfs_rq(r, "/", cpu);
	struct cfsr_sched_avg a;
	uint64_t now;

	assert_non_null(root);
	if (!root->avg.last_update_time || !cfsr_replay_clock_peek(r, cpu, ts, &now))
		return root->avg.load_avg;
	cfsr_replay_cfs_rq_settle(r, root, now, &a);
	return a.load_avg;
}

static void feed(struct cfsr_cpuload *cl, struct cfsr_replay *r, struct cfsr_event *ev)
{
	int p[4], n, i;

	n = cfsr_event_pids(ev, p);
	for (i = 0; i < n; i++)
		assert_true(cfsr_pidset_add(&pids, p[i]) >= 0);
	assert_int_equal(cfsr_cpuload_event(cl, ev), 0);
	assert_int_equal(cfsr_replay_event(r, ev), 0);
	assert_int_equal(cfsr_cpuload_now(cl, 0), root_load(r, 0, ev->ts));
	assert_int_equal(cfsr_cpuload_now(cl, 1), root_load(r, 1, ev->ts));
}

/*
 * update_cfs_rq_h_load() and task_h_load(), by hand:
 * one level: root 2048, group entity 1024, group cfs_rq 2048, task 1024:
 *   h_load(group) = 2048 * 1024 / 2049 = 2097152 / 2049 = 1023 (1023.5)
 *   task = 1024 * 1023 / 2049 = 1047552 / 2049 = 511 (511.25)
 * two levels: root 3000; entity 1500 on it, its cfs_rq 1200; entity 600
 * below, its cfs_rq 900; task 450:
 *   3000 * 1500 / 3001 = 1499 (1499.50); 1499 * 600 / 1201 = 748 (748.88);
 *   450 * 748 / 901 = 373 (373.58)
 * shares.dat's light group on a CPU with a heavy worker (entity 1024) and
 * both light workers (group shares 64, all on that CPU): root 1088, light
 * entity 64, light cfs_rq 2048, light task 1024:
 *   1088 * 64 / 1089 = 63 (63.94); 1024 * 63 / 2049 = 31 (31.48)
 */
static void test_h_load(void **state)
{
	const struct cfsr_h_level one[] = { { 1024, 2048 } };
	const struct cfsr_h_level two[] = { { 1500, 1200 }, { 600, 900 } };
	const struct cfsr_h_level light[] = { { 64, 2048 } };

	(void)state;
	assert_int_equal(cfsr_task_h_load(2048, NULL, 0, 777), 777);
	assert_int_equal(cfsr_task_h_load(2048, one, 1, 1024), 511);
	assert_int_equal(cfsr_task_h_load(3000, two, 2, 450), 373);
	assert_int_equal(cfsr_task_h_load(1088, light, 1, 1024), 31);
	/* an empty root: nothing above the task weighs */
	assert_int_equal(cfsr_task_h_load(0, one, 1, 1024), 0);
}

static void test_sums(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_for("6.18");
	struct cfsr_cpuload *cl = cfsr_cpuload_new(2, prof, 250, 0, UINT64_MAX);
	struct cfsr_replay *r = cfsr_replay_new(2, prof, 250);
	struct cfsr_event ev;
	uint64_t ts = 1000000000, mean0, blocked;
	const struct cfsr_task *t11;
	struct cfsr_sched_avg a11;
	int cpu, i;

	(void)state;
	assert_non_null(cl);
	assert_non_null(r);
	/* CPU0 runs 10; 11 woken to CPU0 waits; 12 runs on CPU1 */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_SWITCH;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.ts = ts;
	ev.sw.next_pid = 10;
	feed(cl, r, &ev);
	ev.cpu = 1;
	ev.sw.next_pid = 12;
	feed(cl, r, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_WAKEUP;
	ev.ts = ts + 100000;
	ev.pid = 10; /* woken by 10, running on CPU0 */
	ev.wake.pid = 11;
	ev.wake.prio = 120;
	ev.wake.target_cpu = 0;
	feed(cl, r, &ev);
	/* ticks: 10 and 12 run for 40 ms */
	for (i = 1; i <= 10; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = CFSR_EV_STAT_RUNTIME;
		ev.ts = ts + (uint64_t)i * 4000000;
		ev.cpu = i & 1;
		ev.pid = ev.cpu ? 12 : 10;
		ev.runtime.pid = ev.pid;
		ev.runtime.runtime = 8000000;
		feed(cl, r, &ev);
	}
	assert_true(cfsr_cpuload_now(cl, 0) > 0);
	cfsr_cpuload_task(cl, 11, &cpu);
	assert_int_equal(cpu, 0);
	/* 11 migrates to CPU1: its contribution moves */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_MIGRATE;
	ev.ts = ts + 41000000;
	ev.cpu = 1;
	ev.migrate.pid = 11;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 1;
	feed(cl, r, &ev);
	cfsr_cpuload_task(cl, 11, &cpu);
	assert_int_equal(cpu, 1);
	/* alone in the root group, a task's h_load is its own load_avg, aged to now */
	t11 = cfsr_replay_task(r, 11);
	assert_non_null(t11);
	assert_true(cfsr_replay_task_avg_at(r, t11, ev.ts, &a11));
	assert_int_equal(cfsr_cpuload_task(cl, 11, &cpu), a11.load_avg);
	/* 10 sleeps: CPU0 holds no task, but its blocked load stays */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_SWITCH;
	ev.ts = ts + 42000000;
	ev.pid = 10;
	ev.sw.prev_pid = 10;
	ev.sw.prev_state = CFSR_TASK_INTERRUPTIBLE;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	feed(cl, r, &ev);
	assert_int_equal(cfsr_cpuload_nr(cl, 0), 0);
	blocked = cfsr_cpuload_now(cl, 0);
	assert_true(blocked > 100);
	/*
	 * LOAD_AVG_PERIOD (32) periods of 1024 us later, read at an event of
	 * CPU1: y^32 = 1/2, so half of it, give or take the partial periods
	 * at both ends (within 1/32 of one period's decay, and rounding)
	 */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_STAT_RUNTIME;
	ev.ts = ts + 42000000 + 32 * 1024 * 1024;
	ev.cpu = 1;
	ev.pid = 12;
	ev.runtime.pid = 12;
	ev.runtime.runtime = 32 * 1024 * 1024;
	feed(cl, r, &ev);
	assert_true(cfsr_cpuload_now(cl, 0) * 100 >= blocked * 48 &&
		    cfsr_cpuload_now(cl, 0) * 100 <= blocked * 52);
	/* CPU0's mean: between the loads at the events, at most their largest */
	mean0 = cfsr_cpuload_mean(cl, 0);
	assert_true(mean0 > 0 && mean0 <= 2 * 1024);
	cfsr_replay_free(r);
	cfsr_cpuload_free(cl);
	cfsr_pidset_release(&pids);
}

static void marker(struct cfsr_cpuload *cl, const char *text)
{
	struct cfsr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_MARKER;
	ev.ts = 1;
	ev.marker.text = text;
	assert_int_equal(cfsr_cpuload_event(cl, &ev), 0);
}

/*
 * The recorders' group markers: file-system paths under the cpu
 * controller's mount (v1 "cpu" or "cpu,cpuacct", v2 the mount itself)
 * name the same group as the kernel's path; each move marker moves its
 * task where it stands, and a marker naming the task's group again moves
 * nothing.
 */
static void test_markers(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_for("6.18");
	struct cfsr_cpuload *cl = cfsr_cpuload_new(2, prof, 250, 0, UINT64_MAX);
	struct cfsr_cpuload_groups g;
	uint64_t shares;

	(void)state;
	assert_non_null(cl);
	marker(cl, "cfsr-mkdir path=/sys/fs/cgroup/cpu,cpuacct/g shares=64");
	marker(cl, "cfsr-mkdir path=/g shares=64");
	marker(cl, "cfsr-mkdir path=/h shares=x");
	marker(cl, "cfsr-move pid=5 to=/sys/fs/cgroup/cpu/g");
	marker(cl, "cfsr-task pid=6 comm=w cgroup=/sys/fs/cgroup/g");
	marker(cl, "cfsr-task pid=7 comm=w");
	marker(cl, "cfsr-move pid=0 path=/g");
	cfsr_cpuload_groups(cl, &g);
	/* /g once (three spellings) */
	assert_int_equal(g.groups, 1);
	assert_int_equal(g.shares_given, 1);
	assert_int_equal(g.marker_moves, 2);
	assert_int_equal(g.bad_markers, 2);
	/* the one group named, with scale_load() of the last shares stated */
	marker(cl, "cfsr-mkdir path=/g shares=2048");
	assert_string_equal(cfsr_cpuload_stated_shares(cl, 0, &shares), "/g");
	assert_int_equal(shares, 2048 << 10);
	assert_null(cfsr_cpuload_stated_shares(cl, 1, &shares));
	/* 5's marker again changes nothing, 6's move to /k happens */
	marker(cl, "cfsr-move pid=5 to=/sys/fs/cgroup/cpu/g");
	marker(cl, "cfsr-move pid=6 path=/sys/fs/cgroup/cpu/k");
	cfsr_cpuload_groups(cl, &g);
	assert_int_equal(g.groups, 2);
	assert_int_equal(g.marker_moves, 3);
	cfsr_cpuload_free(cl);
}

/*
 * A task alone in a group of cpu.shares 64, always running on CPU 0 for
 * 400 ms (12.5 half-lives): by hand, calc_group_shares() gives the group
 * entity all of the shares, 64, so the root's load_avg tends to 64 (the
 * task's own tends to 1023 or 1024), not the task's 1023 as a sum of task
 * signals would say; and task_h_load() = 1023 * (64 * 64 / 65) / 1024 =
 * 1023 * 63 / 1024 = 62, within a unit or two of the PELT series' limit.
 */
static void test_group_weight(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_for("6.18");
	struct cfsr_cpuload *cl = cfsr_cpuload_new(2, prof, 250, 0, UINT64_MAX);
	uint64_t ts = 1000000000, load, h;
	struct cfsr_event ev;
	int cpu, i;

	(void)state;
	assert_non_null(cl);
	marker(cl, "cfsr-mkdir path=/light shares=64");
	marker(cl, "cfsr-move pid=10 path=/light");
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_SWITCH;
	ev.ts = ts;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.next_pid = 10;
	assert_int_equal(cfsr_cpuload_event(cl, &ev), 0);
	for (i = 1; i <= 100; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = CFSR_EV_STAT_RUNTIME;
		ev.ts = ts + (uint64_t)i * 4000000;
		ev.pid = 10;
		ev.runtime.pid = 10;
		ev.runtime.runtime = 4000000;
		assert_int_equal(cfsr_cpuload_event(cl, &ev), 0);
	}
	load = cfsr_cpuload_now(cl, 0);
	h = cfsr_cpuload_task(cl, 10, &cpu);
	print_message("root load_avg %" PRIu64 ", task_h_load %" PRIu64 "\n", load, h);
	assert_int_equal(cpu, 0);
	assert_true(load >= 62 && load <= 64);
	assert_true(h >= 60 && h <= 62);
	cfsr_cpuload_free(cl);
}

/* The same on a whole real trace: every event, both CPUs. */
static void test_bundled_trace(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_for("6.18");
	struct cfsr_cpuload *cl = cfsr_cpuload_new(2, prof, 250, 0, UINT64_MAX);
	struct cfsr_replay *r = cfsr_replay_new(2, prof, 250);
	const char *dir = getenv("CFSR_SRCDIR");
	struct cfsr_trace *t;
	struct cfsr_event ev;
	char path[4096];
	uint64_t n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/periodic.dat", dir ? dir : ".");
	t = cfsr_trace_open(path);
	assert_non_null(t);
	while (cfsr_trace_next(t, &ev) > 0) {
		feed(cl, r, &ev);
		n++;
	}
	assert_true(n > 5000);
	cfsr_trace_close(t);
	cfsr_replay_free(r);
	cfsr_cpuload_free(cl);
	cfsr_pidset_release(&pids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_h_load),	      cmocka_unit_test(test_markers),
		cmocka_unit_test(test_group_weight),  cmocka_unit_test(test_sums),
		cmocka_unit_test(test_bundled_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

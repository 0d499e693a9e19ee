// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/placement.c: hand-made two-CPU situations, each with
 * the verdict and reason the v6.12-v6.18 rule gives (docs/COMPARATORS.md),
 * worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "cpuload.h"
#include "idlewait.h"
#include "placement.h"
#include "profile.h"

struct rig {
	struct cfsr_iww *iw;
	struct cfsr_cpuload *cl;
	struct cfsr_place *pl;
	uint64_t ts;
};

static void rig_init(struct rig *r)
{
	struct cfsr_iww_params p = { .nr_cpus = 2,
				     .balance_interval_ns = 4000000,
				     .top_n = 4,
				     .win_end = UINT64_MAX,
				     .filter_cpu = -1,
				     .filter_pid = -1 };

	r->iw = cfsr_iww_new(&p);
	r->cl = cfsr_cpuload_new(2, cfsr_profile_for("6.18"), 250, 0, UINT64_MAX);
	r->pl = cfsr_place_new(2, 4, 0, UINT64_MAX, -1, -1);
	r->ts = 1000;
	assert_non_null(r->iw);
	assert_non_null(r->cl);
	assert_non_null(r->pl);
}

static void rig_release(struct rig *r)
{
	cfsr_place_free(r->pl);
	cfsr_cpuload_free(r->cl);
	cfsr_iww_free(r->iw);
}

static void feed(struct rig *r, struct cfsr_event *ev)
{
	ev->ts = r->ts;
	r->ts += 1000;
	assert_int_equal(cfsr_place_event(r->pl, ev, r->iw, r->cl), 0);
	assert_int_equal(cfsr_iww_event(r->iw, ev), 0);
	assert_int_equal(cfsr_cpuload_event(r->cl, ev), 0);
}

static void sw(struct rig *r, int cpu, int prev, bool runnable, int next)
{
	struct cfsr_event ev = { .cpu = cpu, .pid = prev, .kind = CFSR_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_state = runnable ? CFSR_TASK_RUNNING : CFSR_TASK_INTERRUPTIBLE;
	ev.sw.preempt = runnable;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	feed(r, &ev);
}

/* sched_waking on @waker (previous CPU @prev), then sched_wakeup to @target */
static void wake(struct rig *r, int pid, int prio, int waker, int prev, int target)
{
	struct cfsr_event ev = { .cpu = waker, .pid = 0, .kind = CFSR_EV_WAKING };

	ev.wake.pid = pid;
	ev.wake.prio = prio;
	ev.wake.success = -1;
	ev.wake.target_cpu = prev;
	strcpy(ev.wake.comm, "task");
	feed(r, &ev);
	ev.kind = CFSR_EV_WAKEUP;
	ev.wake.target_cpu = target;
	feed(r, &ev);
}

static void fork_to(struct rig *r, int parent_cpu, int child, int target)
{
	struct cfsr_event ev = { .cpu = parent_cpu, .pid = 10, .kind = CFSR_EV_WAKEUP_NEW };

	ev.wake.pid = child;
	ev.wake.prio = 120;
	ev.wake.success = -1;
	ev.wake.target_cpu = target;
	strcpy(ev.wake.comm, "child");
	feed(r, &ev);
}

static uint64_t n(const struct rig *r, enum cfsr_place_kind k, enum cfsr_place_reason why)
{
	return cfsr_place_totals(r->pl)->reasons[k][why];
}

/*
 * CPU0 runs 10, CPU1 idle.  Task 11 woken to CPU0 while CPU1 idles:
 * diverges (idle-skipped), preferred CPU1, size 1.  Task 12 woken to CPU1
 * (idle): agrees.  Now both busy: task 13 woken to its previous CPU0:
 * agrees (no-idle-target); task 14 woken to CPU1, neither its previous
 * (CPU0) nor the waker's (CPU0): cannot judge.  An RT wakeup: not judged.
 */
static void test_wakeups(void **state)
{
	const struct cfsr_place_decision *d;
	struct rig r;

	(void)state;
	rig_init(&r);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 20, false, 0);
	wake(&r, 11, 120, 0, 0, 0);
	wake(&r, 12, 120, 0, 1, 1);
	sw(&r, 1, 0, false, 12);
	wake(&r, 13, 120, 1, 0, 0);
	wake(&r, 14, 120, 0, 0, 1);
	wake(&r, 15, 50, 0, 0, 0);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_SKIPPED), 1);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_CHOSEN), 1);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_NO_IDLE_TARGET), 1);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_OTHER_TARGET), 1);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_NOT_FAIR), 1);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_WAKEUP][CFSR_DIVERGES], 1);
	assert_int_equal(cfsr_place_top(r.pl, &d), 1);
	assert_int_equal(d[0].pid, 11);
	assert_int_equal(d[0].to_cpu, 0);
	assert_int_equal(d[0].preferred_cpu, 1);
	assert_int_equal(d[0].size, 1);
	assert_int_equal(d[0].cpus[1].state, CFSR_CPU_IDLE);
	rig_release(&r);
}

/*
 * Affinity: task 11 pinned to CPU0 by a marker, woken to busy CPU0 while
 * CPU1 idles: no idle CPU allowed, agrees.  Task 12 called setaffinity
 * (mask unknown): cannot judge.  A per-CPU kthread named for CPU0, first
 * seen in its wakeup, is bound there too.
 */
static void test_affinity(void **state)
{
	struct cfsr_event ev = { .cpu = 0, .pid = 12, .kind = CFSR_EV_SETAFFINITY };
	struct cfsr_event mk = { .cpu = 0, .pid = 1, .kind = CFSR_EV_MARKER };
	struct rig r;

	(void)state;
	rig_init(&r);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 20, false, 0);
	mk.marker.text = "cfsr-affinity pid=11 cpus=0";
	feed(&r, &mk);
	ev.affinity.pid = 0;
	feed(&r, &ev);
	wake(&r, 11, 120, 0, 0, 0);
	wake(&r, 12, 120, 0, 0, 0);
	ev.kind = CFSR_EV_WAKING;
	ev.wake.pid = 13;
	ev.wake.prio = 120;
	ev.wake.target_cpu = 0;
	ev.wake.success = -1;
	strcpy(ev.wake.comm, "ksoftirqd/0");
	feed(&r, &ev);
	ev.kind = CFSR_EV_WAKEUP;
	feed(&r, &ev);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_NO_IDLE_TARGET), 2);
	assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_AFFINITY_UNKNOWN), 1);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_WAKEUP][CFSR_DIVERGES], 0);
	rig_release(&r);
}

/*
 * Forks and migrations.  Both CPUs busy, CPU0 with a waiting task too
 * (2 runnable), CPU1 with 1: a fork to CPU1 agrees (fewest tasks); then,
 * CPU1 running the child, a fork to CPU0 (2 runnable against 1) cannot be
 * judged (load rule).  The waiting task 11 moved from CPU0 (3 runnable) to
 * CPU1 (1): agrees; moved back from CPU1 (2) to CPU0 (2): cannot judge
 * (load balance); the running task 10 moved: not waiting.
 */
static void test_fork_and_migrate(void **state)
{
	struct cfsr_event ev = { .cpu = 1, .pid = 0, .kind = CFSR_EV_MIGRATE };
	struct rig r;

	(void)state;
	rig_init(&r);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 0, false, 20);
	wake(&r, 11, 120, 0, 0, 0);
	fork_to(&r, 0, 30, 1);
	sw(&r, 1, 20, false, 30);
	fork_to(&r, 0, 31, 0);
	ev.migrate.pid = 11;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 1;
	feed(&r, &ev);
	ev.migrate.orig_cpu = 1;
	ev.migrate.dest_cpu = 0;
	feed(&r, &ev);
	ev.migrate.pid = 10;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 1;
	feed(&r, &ev);
	assert_int_equal(n(&r, CFSR_PLACE_FORK, CFSR_R_FEWEST_TASKS), 1);
	assert_int_equal(n(&r, CFSR_PLACE_FORK, CFSR_R_LOAD_RULE), 1);
	assert_int_equal(n(&r, CFSR_PLACE_MIGRATE, CFSR_R_PULL_FROM_BUSIER), 1);
	assert_int_equal(n(&r, CFSR_PLACE_MIGRATE, CFSR_R_LOAD_BALANCE), 1);
	assert_int_equal(n(&r, CFSR_PLACE_MIGRATE, CFSR_R_NOT_WAITING), 1);
	rig_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wakeups),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_fork_and_migrate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/placement.c: hand-made two-CPU situations, each with
 * the verdict and reason the v6.12-v6.18 rule gives (docs/COMPARATORS.md),
 * worked out by hand in the comments; and four-CPU ones judged once with
 * all CPUs in one LLC and once with two LLCs, {0,1} and {2,3}, as caches
 * in a trace's metadata give them (lib/topology.c), where the verdicts
 * differ.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "cpuload.h"
#include "idlewait.h"
#include "placement.h"
#include "profile.h"
#include "replay.h"
#include "topology.h"
#include "two-llc.h"

struct rig {
	struct cfsr_iww *iw;
	struct cfsr_cpuload *cl;
	struct cfsr_place *pl;
	struct cfsr_topo topo;
	uint64_t ts;
};

/* @nr CPUs, judged by the topology @in gives (NULL: none, one LLC) */
static void rig_init_cpus(struct rig *r, int nr, const struct cfsr_trace_info *in)
{
	struct cfsr_iww_params p = { .nr_cpus = nr,
				     .balance_interval_ns = 4000000,
				     .top_n = 4,
				     .win_end = UINT64_MAX,
				     .filter_cpu = -1,
				     .filter_pid = -1 };

	r->iw = cfsr_iww_new(&p);
	r->cl = cfsr_cpuload_new(nr, cfsr_profile_for("6.18"), 250, 0, UINT64_MAX);
	r->pl = cfsr_place_new(nr, 4, 0, UINT64_MAX, -1, -1);
	r->ts = 1000;
	assert_non_null(r->iw);
	assert_non_null(r->cl);
	assert_non_null(r->pl);
	assert_int_equal(cfsr_topo_init(&r->topo, in, nr), 0);
	if (in)
		cfsr_place_set_topo(r->pl, &r->topo);
}

static void rig_init(struct rig *r)
{
	rig_init_cpus(r, 2, NULL);
}

static void rig_release(struct rig *r)
{
	cfsr_topo_release(&r->topo);
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
 * sched_idle_cpu() (v5.4+): CPU0 runs 10, CPU1 runs 20.  With 20
 * SCHED_IDLE, CPU1's fair work is all idle, so the fast path takes it as
 * idle: task 12 woken to busy CPU0 (its previous and the waker's) while
 * CPU1 runs only 20 diverges (idle-skipped, preferred CPU1, size 1); then
 * task 11 woken to CPU1 agrees (idle-chosen).  With 20 a normal task,
 * the same wakeups are no-idle-target (agrees) and other-target (cannot
 * judge): no CPU is idle.
 */
static void sched_idle_wakeups(bool idle)
{
	const struct cfsr_place_decision *d;
	struct rig r;

	rig_init(&r);
	assert_int_equal(cfsr_replay_task_set_idle_policy(cfsr_cpuload_engine(r.cl), 20, idle), 0);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 0, false, 20);
	wake(&r, 12, 120, 0, 0, 0);
	wake(&r, 11, 120, 0, 0, 1);
	if (idle) {
		assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_SKIPPED), 1);
		assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_CHOSEN), 1);
		assert_int_equal(cfsr_place_top(r.pl, &d), 1);
		assert_int_equal(d[0].pid, 12);
		assert_int_equal(d[0].preferred_cpu, 1);
		assert_int_equal(d[0].size, 1);
	} else {
		assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_NO_IDLE_TARGET), 1);
		assert_int_equal(n(&r, CFSR_PLACE_WAKEUP, CFSR_R_OTHER_TARGET), 1);
		assert_int_equal(cfsr_place_top(r.pl, &d), 0);
	}
	rig_release(&r);
}

static void test_sched_idle_cpu(void **state)
{
	(void)state;
	sched_idle_wakeups(true);
	sched_idle_wakeups(false);
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

/* CPU @cpu switches from @prev (runnable) to its migration stopper (pid 90 + @cpu, prio 0). */
static void to_stopper(struct rig *r, int cpu, int prev)
{
	struct cfsr_event ev = { .cpu = cpu, .pid = prev, .kind = CFSR_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.prev_prio = 120;
	ev.sw.preempt = true;
	ev.sw.next_pid = 90 + cpu;
	ev.sw.next_prio = 0;
	snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "migration/%d", cpu);
	feed(r, &ev);
}

static void move(struct rig *r, int ctx_cpu, int pid, int from, int to)
{
	struct cfsr_event ev = { .cpu = ctx_cpu, .pid = 90 + ctx_cpu, .kind = CFSR_EV_MIGRATE };

	ev.migrate.pid = pid;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = from;
	ev.migrate.dest_cpu = to;
	feed(r, &ev);
}

static void exec_of(struct rig *r, int cpu, int pid)
{
	struct cfsr_event ev = { .cpu = cpu, .pid = pid, .kind = CFSR_EV_EXEC };

	ev.exec.pid = ev.exec.old_pid = pid;
	feed(r, &ev);
}

/*
 * Exec placements on two CPUs, one LLC (find_idlest_cpu() is then the
 * last step over both CPUs, the task's own counted without it):
 *  - 10 runs alone on CPU0, CPU1 idle; 10 wakes CPU0's stopper, which
 *    moves it to CPU1; its exec follows on CPU1: an exec placement, the
 *    target idle: agrees (idle-chosen).
 *  - 11 and 12 on CPU0 (11 running), 13 on CPU1: 11 moved by the stopper
 *    to CPU1, exec: no CPU idle (CPU0 without 11 still has 12), CPU1 one
 *    task as CPU0 without 11: agrees (fewest-tasks).
 *  - 14 on CPU1 beside 13 (running), CPU0 idle at last: 13 moved by CPU1's
 *    stopper to CPU0 (idle): no exec follows, 13 is moved again by a load
 *    balance: the first move is a migration (the task waited, CPU1 had two
 *    runnable, CPU0 none: pull-from-busier); the second is judged on its
 *    own.
 *  - a stopper move still waiting for its exec at the end is a migration.
 */
static void test_exec(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 0, false, 0);
	to_stopper(&r, 0, 10);
	move(&r, 0, 10, 0, 1);
	sw(&r, 0, 90, false, 0);
	sw(&r, 1, 0, false, 10);
	exec_of(&r, 1, 10);
	assert_int_equal(n(&r, CFSR_PLACE_EXEC, CFSR_R_IDLE_CHOSEN), 1);
	assert_int_equal(n(&r, CFSR_PLACE_MIGRATE, CFSR_R_PULL_FROM_BUSIER), 0);

	wake(&r, 11, 120, 1, 0, 0);
	wake(&r, 12, 120, 1, 0, 0);
	sw(&r, 0, 0, false, 11);
	wake(&r, 13, 120, 1, 1, 1);
	sw(&r, 1, 10, false, 13);
	to_stopper(&r, 0, 11);
	move(&r, 0, 11, 0, 1);
	exec_of(&r, 1, 11);
	assert_int_equal(n(&r, CFSR_PLACE_EXEC, CFSR_R_FEWEST_TASKS), 1);

	sw(&r, 0, 90, false, 12);
	sw(&r, 0, 12, false, 0);
	wake(&r, 14, 120, 1, 1, 1);
	to_stopper(&r, 1, 13);
	move(&r, 1, 13, 1, 0);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_EXEC][CFSR_AGREES], 2);
	move(&r, 1, 13, 0, 1);
	assert_int_equal(n(&r, CFSR_PLACE_MIGRATE, CFSR_R_PULL_FROM_BUSIER), 1);
	to_stopper(&r, 1, 14);
	move(&r, 1, 14, 1, 0);
	cfsr_place_finish(r.pl);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_EXEC][CFSR_AGREES], 2);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_EXEC][CFSR_DIVERGES], 0);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_EXEC][CFSR_CANNOT_JUDGE], 0);
	rig_release(&r);
}

/*
 * The topology itself: CPU 1's LLC is [0-1]; SMT degenerates (one thread
 * per core), MC spans the LLCs (weight 2, imbalance_pct 117), PKG all four.
 * Without caches: one LLC, one level.
 */
static void test_topology(void **state)
{
	struct cfsr_topo t;
	int c;

	(void)state;
	assert_string_equal(cfsr_topo_llc_span(&two_llc, 1), "0-1");
	assert_int_equal(cfsr_topo_init(&t, &two_llc, 4), 0);
	assert_true(t.llc_known);
	assert_int_equal(t.nr_levels, 2);
	assert_string_equal(t.levels[0].name, "MC");
	assert_string_equal(t.levels[1].name, "PKG");
	for (c = 0; c < 4; c++) {
		assert_int_equal(t.llc[c], c < 2 ? 0 : 2);
		assert_int_equal(t.levels[0].weight[c], 2);
		assert_int_equal(t.levels[1].weight[c], 4);
	}
	assert_int_equal(t.levels[0].imbalance_pct, 117);
	assert_true(cfsr_topo_share_llc(&t, 2, 3));
	assert_false(cfsr_topo_share_llc(&t, 1, 2));
	assert_int_equal(cfsr_topo_level_of(&t, 0, 1), 0);
	assert_int_equal(cfsr_topo_level_of(&t, 1, 2), 1);
	cfsr_topo_release(&t);
	assert_int_equal(cfsr_topo_init(&t, NULL, 4), 0);
	assert_false(t.llc_known);
	assert_int_equal(t.nr_levels, 1);
	assert_true(cfsr_topo_share_llc(&t, 1, 2));
	cfsr_topo_release(&t);
}

/* CPUs 0-2 run 10, 20, 30; CPU 3 idles. */
static void three_busy(struct rig *r)
{
	sw(r, 0, 0, false, 10);
	sw(r, 1, 0, false, 20);
	sw(r, 2, 0, false, 30);
	sw(r, 3, 40, false, 0);
}

/*
 * Wake-ups with CPU 3 the only idle CPU, each rig fed the same events.
 *  11: waker CPU 0, previous CPU 0, placed on CPU 0 (busy).  One LLC:
 *      idle-skipped (CPU 3 idled).  Two LLCs: select_idle_sibling()
 *      scanned [0-1], no idle CPU there, CPU 0 is the target:
 *      no-idle-target, agrees.
 *  12: waker CPU 0, previous CPU 2, placed on CPU 0 (busy).  One LLC:
 *      idle-skipped.  Two LLCs: wake_affine() chose the waker's LLC,
 *      [0-1] has no idle CPU, but the previous CPU's [2-3] had CPU 3:
 *      wake-affine, cannot judge.
 *  13: waker and previous CPU 2, placed on CPU 2 (busy): CPU 3 shares its
 *      LLC and idles: idle-skipped in both, preferred CPU 3.
 *  14: waker CPU 1, previous CPU 0, placed on idle CPU 3.  One LLC:
 *      idle-chosen.  Two LLCs: CPU 3 is in neither LLC the fast path
 *      could return from: outside-llc, cannot judge.
 */
static void test_wakeups_two_llc(void **state)
{
	struct rig one, two;
	struct rig *r[2] = { &one, &two };
	int i;

	(void)state;
	rig_init_cpus(&one, 4, NULL);
	rig_init_cpus(&two, 4, &two_llc);
	for (i = 0; i < 2; i++) {
		three_busy(r[i]);
		wake(r[i], 11, 120, 0, 0, 0);
		wake(r[i], 12, 120, 0, 2, 0);
		wake(r[i], 13, 120, 2, 2, 2);
		wake(r[i], 14, 120, 1, 0, 3);
	}
	assert_int_equal(n(&one, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_SKIPPED), 3);
	assert_int_equal(n(&one, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_CHOSEN), 1);
	assert_int_equal(cfsr_place_totals(one.pl)->n[CFSR_PLACE_WAKEUP][CFSR_DIVERGES], 3);

	assert_int_equal(n(&two, CFSR_PLACE_WAKEUP, CFSR_R_NO_IDLE_TARGET), 1);
	assert_int_equal(n(&two, CFSR_PLACE_WAKEUP, CFSR_R_WAKE_AFFINE), 1);
	assert_int_equal(n(&two, CFSR_PLACE_WAKEUP, CFSR_R_IDLE_SKIPPED), 1);
	assert_int_equal(n(&two, CFSR_PLACE_WAKEUP, CFSR_R_OUTSIDE_LLC), 1);
	assert_int_equal(cfsr_place_totals(two.pl)->n[CFSR_PLACE_WAKEUP][CFSR_AGREES], 1);
	assert_int_equal(cfsr_place_totals(two.pl)->n[CFSR_PLACE_WAKEUP][CFSR_DIVERGES], 1);
	assert_int_equal(cfsr_place_totals(two.pl)->n[CFSR_PLACE_WAKEUP][CFSR_CANNOT_JUDGE], 2);
	{
		const struct cfsr_place_decision *d;

		assert_int_equal(cfsr_place_top(two.pl, &d), 1);
		assert_int_equal(d[0].pid, 13);
		assert_int_equal(d[0].preferred_cpu, 3);
	}
	rig_release(&one);
	rig_release(&two);
}

/*
 * Forks from the parent 10 on CPU 0, each on a fresh machine:
 *  a) CPUs 1-3 idle, child to CPU 1.  One LLC: idle-chosen.  Two LLCs:
 *     find_idlest_group() at PKG compares [0-1] (1 idle CPU, 1 task) with
 *     [2-3] (2 idle, 0 tasks): [2-3] has more idle CPUs and takes the
 *     child, CPU 1 is not in it: idler-group, diverges, preferred CPU 2,
 *     size 1 (idle CPUs of [2-3] less those of [0-1]).
 *  b) the same machine, child to CPU 2: agrees in both.
 *  c) CPU 2 runs 30; CPUs 1 and 3 idle; child to CPU 3.  One LLC:
 *     idle-chosen.  Two LLCs: [0-1] and [2-3] have one idle CPU each, the
 *     local group keeps the task (local idle_cpus >= idlest's), and at MC
 *     CPU 1 is the idle one: idler-group, preferred CPU 1, size 0.
 */
static void fork_case(const struct cfsr_trace_info *in, char which, enum cfsr_verdict v,
		      enum cfsr_place_reason why, int preferred, int size)
{
	const struct cfsr_place_decision *d;
	struct rig r;

	rig_init_cpus(&r, 4, in);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 20, false, 0);
	sw(&r, 2, which == 'c' ? 0 : 30, false, which == 'c' ? 30 : 0);
	sw(&r, 3, 40, false, 0);
	fork_to(&r, 0, 50, which == 'a' ? 1 : which == 'b' ? 2 : 3);
	assert_int_equal(n(&r, CFSR_PLACE_FORK, why), 1);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_FORK][v], 1);
	if (v == CFSR_DIVERGES) {
		assert_int_equal(cfsr_place_top(r.pl, &d), 1);
		assert_int_equal(d[0].preferred_cpu, preferred);
		assert_int_equal(d[0].size, size);
	}
	rig_release(&r);
}

static void test_forks_two_llc(void **state)
{
	(void)state;
	fork_case(NULL, 'a', CFSR_AGREES, CFSR_R_IDLE_CHOSEN, -1, 0);
	fork_case(&two_llc, 'a', CFSR_DIVERGES, CFSR_R_IDLER_GROUP, 2, 1);
	fork_case(NULL, 'b', CFSR_AGREES, CFSR_R_IDLE_CHOSEN, -1, 0);
	fork_case(&two_llc, 'b', CFSR_AGREES, CFSR_R_IDLE_CHOSEN, -1, 0);
	fork_case(NULL, 'c', CFSR_AGREES, CFSR_R_IDLE_CHOSEN, -1, 0);
	fork_case(&two_llc, 'c', CFSR_DIVERGES, CFSR_R_IDLER_GROUP, 1, 0);
}

/*
 * The scheduling domains a recording carries, on the two-LLC machine: MC
 * (CPUs {0,1} and {2,3}) with sd_init()'s flags and intervals, PKG (all
 * four) without SD_BALANCE_FORK, imbalance_pct 125, min_interval 4 ms,
 * busy_factor 32.  By hand: a fork walks from MC, the highest level from
 * the lowest up with SD_BALANCE_FORK, an exec from PKG; PKG's busy
 * interval is 4 x 32 = 128 ms (32 jiffies at HZ 250), MC's 2 x 16 = 32 ms.
 * A fork from CPU0 to CPU2, outside CPU0's MC domain, diverges
 * (outside-domain); one to CPU1, idle, agrees (idle-chosen).
 */
static void test_recorded_domains(void **state)
{
	static const struct cfsr_sched_domain doms[] = {
		{ 0, 0, "MC", "SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE",
		  117, 2, 4, 16 },
		{ 0, 1, "PKG", "SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_WAKE_AFFINE", 125, 4, 8, 32 },
	};
	struct cfsr_trace_info in = two_llc;
	struct rig r;

	(void)state;
	in.sched_domains = doms;
	in.nr_sched_domains = 2;
	rig_init_cpus(&r, 4, &in);
	assert_true(r.topo.domains_recorded);
	assert_int_equal(r.topo.nr_levels, 2);
	assert_true(r.topo.levels[0].recorded && r.topo.levels[1].recorded);
	assert_int_equal(r.topo.levels[1].imbalance_pct, 125);
	assert_int_equal(cfsr_topo_top_with(&r.topo, CFSR_SD_BALANCE_FORK), 0);
	assert_int_equal(cfsr_topo_top_with(&r.topo, CFSR_SD_BALANCE_EXEC), 1);
	assert_int_equal(cfsr_topo_busy_interval_ns(&r.topo, 1, 0, 250), 128000000);
	assert_int_equal(cfsr_topo_busy_interval_ns(&r.topo, 0, 0, 250), 32000000);
	sw(&r, 0, 0, false, 10);
	sw(&r, 1, 0, false, 0);
	sw(&r, 2, 0, false, 0);
	sw(&r, 3, 0, false, 0);
	fork_to(&r, 0, 30, 2);
	assert_int_equal(n(&r, CFSR_PLACE_FORK, CFSR_R_OUTSIDE_DOMAIN), 1);
	assert_int_equal(cfsr_place_totals(r.pl)->n[CFSR_PLACE_FORK][CFSR_DIVERGES], 1);
	fork_to(&r, 0, 31, 1);
	assert_int_equal(n(&r, CFSR_PLACE_FORK, CFSR_R_IDLE_CHOSEN), 1);
	rig_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wakeups),	      cmocka_unit_test(test_sched_idle_cpu),
		cmocka_unit_test(test_affinity),      cmocka_unit_test(test_fork_and_migrate),
		cmocka_unit_test(test_exec),	      cmocka_unit_test(test_recorded_domains),
		cmocka_unit_test(test_topology),      cmocka_unit_test(test_wakeups_two_llc),
		cmocka_unit_test(test_forks_two_llc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/replay.c: which PELT updates the engine makes, at
 * which clock and with which inputs.
 *
 * The expected signals are built in the test by calling the PELT
 * arithmetic directly with the clocks and inputs the kernel uses on each
 * path (docs/KERNEL-PATHS.md), independently of the engine's code:
 * set_next_entity() ages with the waiting inputs at the switch's clock,
 * update_curr() reports clock_task - exec_start, a sleeping task's enqueue
 * ages the sleep with zero inputs, and so on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "cfspick.h"
#include "group.h"
#include "replay.h"
#include "trace.h"
#include "weight.h"

#include "pelt-real.h"

#define P (&cfsr_pelt_params_modern)
#define W0 1048576 /* nice 0 */

/* The model of the recorded kernels (v6.18.44+): EEVDF with delayed dequeue. */
static const struct cfsr_profile *prof(void)
{
	return cfsr_profile_for("6.18.44");
}

/* An event of @kind at @ts on @cpu in the context of @ctx, the rest zero. */
static struct cfsr_event ev_head(uint64_t ts, int cpu, int ctx, enum cfsr_event_kind kind)
{
	struct cfsr_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.cpu = cpu;
	e.pid = ctx;
	e.kind = kind;
	return e;
}

static struct cfsr_event ev_switch(uint64_t ts, int cpu, int prev, long state, bool preempt,
				   int next)
{
	struct cfsr_event e = ev_head(ts, cpu, prev, CFSR_EV_SWITCH);

	e.sw.prev_pid = prev;
	e.sw.prev_prio = 120;
	e.sw.prev_state = (uint64_t)state;
	e.sw.preempt = preempt;
	e.sw.next_pid = next;
	e.sw.next_prio = 120;
	return e;
}

static struct cfsr_event ev_runtime(uint64_t ts, int cpu, int ctx, int pid, uint64_t runtime)
{
	struct cfsr_event e = ev_head(ts, cpu, ctx, CFSR_EV_STAT_RUNTIME);

	e.runtime.pid = pid;
	e.runtime.runtime = runtime;
	return e;
}

static struct cfsr_event ev_wakeup(uint64_t ts, int cpu, int ctx, int pid, int target)
{
	struct cfsr_event e = ev_head(ts, cpu, ctx, CFSR_EV_WAKEUP);

	e.wake.pid = pid;
	e.wake.prio = 120;
	e.wake.target_cpu = target;
	return e;
}

static struct cfsr_event ev_waking(uint64_t ts, int cpu, int ctx, int pid, int target)
{
	struct cfsr_event e = ev_wakeup(ts, cpu, ctx, pid, target);

	e.kind = CFSR_EV_WAKING;
	return e;
}

static void feed(struct cfsr_replay *r, struct cfsr_event e)
{
	assert_int_equal(cfsr_replay_event(r, &e), 0);
}

static void assert_avg_equal(const struct cfsr_sched_avg *a, const struct cfsr_sched_avg *b)
{
	assert_int_equal(a->last_update_time, b->last_update_time);
	assert_int_equal(a->period_contrib, b->period_contrib);
	assert_int_equal(a->load_sum, b->load_sum);
	assert_int_equal(a->runnable_sum, b->runnable_sum);
	assert_int_equal(a->util_sum, b->util_sum);
	assert_int_equal(a->load_avg, b->load_avg);
	assert_int_equal(a->runnable_avg, b->runnable_avg);
	assert_int_equal(a->util_avg, b->util_avg);
}

/*
 * Task 10, woken on idle CPU0 at t0 + 100 us, has a known signal, last
 * updated at c0 - 20 ms; it is switched in at t0 + 150 us: enqueue (zero
 * inputs), then set_next at the clock the wakeup left (c0 + 100 us), which
 * changes nothing.  *@want is its signal then.
 */
static struct cfsr_task *wake_known(struct cfsr_replay *r, uint64_t t0, uint64_t c0,
				    struct cfsr_sched_avg *want)
{
	struct cfsr_task *t;

	feed(r, ev_wakeup(t0 + 100000, 0, 0, 10, 0));
	t = cfsr_replay_task(r, 10);
	assert_non_null(t);
	t->avg.last_update_time = (c0 - 20000000) & ~1023ull;
	t->avg.util_avg = t->avg.runnable_avg = t->avg.load_avg = 300;
	t->avg.util_sum = t->avg.runnable_sum = 300 * 47000;
	t->avg.load_sum = 300 * 47000 / 1024;
	t->avg.period_contrib = (uint32_t)((t->avg.last_update_time >> 10) % 1024);
	*want = t->avg;
	feed(r, ev_switch(t0 + 150000, 0, 0, 0, false, 10));
	cfsr_pelt_update_se(P, c0 + 100000, want, W0, false, 0, false);
	assert_avg_equal(&t->avg, want);
	return t;
}

/*
 * Wakeup, switch in, a tick, a sleep.  The CPU's clock is anchored once;
 * then time is stolen (the trace clock runs 3 ms more than the run time):
 * the updates must follow the reported run time, not the trace clock.
 * The wakeup preempts the idle task, so the switch keeps the wakeup's
 * clock (wakeup_preempt(): rq_clock_skip_update()).
 */
static void test_runtime_chain(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	struct cfsr_sched_avg want;
	const uint64_t c0 = 1000000000000ull, t0 = 5000000000ull;
	struct cfsr_task *t;

	(void)state;
	assert_non_null(r);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0)); /* idle on CPU0 */
	/* the record of its enqueue gives the wakeup's clock */
	cfsr_replay_clock_record(r, 0, t0 + 98000, c0 + 100000);
	t = wake_known(r, t0, c0, &want);

	/* a tick 4 ms of run time later, but 7 ms of trace time (3 ms stolen) */
	feed(r, ev_runtime(t0 + 7150000, 0, 10, 10, 4000000));
	feed(r, ev_switch(t0 + 7150500, 0, 10, 1, false, 0)); /* it blocks */
	cfsr_pelt_update_se(P, c0 + 100000 + 4000000, &want, W0, true, 1, true);
	assert_avg_equal(&t->avg, &want);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	cfsr_replay_free(r);
}

/*
 * A snapshot's reading (cfsr_replay_clock_update()): the rq's clock was
 * updated to C at its instant and kept until truth-mid.  A run-time
 * report between them was made at C (update_curr() reads rq_clock_task()),
 * whatever the task's run-time chain says: here the chain, started at a
 * wakeup whose clock was extrapolated, is 200 us ahead of the reading
 * (exec_start c0 + 4.1 ms + 300 us of run time against C = c0 + 4.2 ms),
 * so the report's update and the sleep right after it are at C, and the
 * chain moves there.  Values by hand: the task's signal aged with
 * cfsr_pelt_update_se() at the clocks the kernel used.
 */
static void test_clock_update_kept(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 1000000000000ull, t0 = 5000000000ull;
	struct cfsr_sched_avg want;
	struct cfsr_task *t;

	(void)state;
	assert_non_null(r);
	cfsr_replay_clock_update(r, 0, t0, c0, 0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0)); /* idle on CPU0 */
	/* the wakeup's clock, extrapolated from the reading: c0 + 100 us */
	t = wake_known(r, t0, c0, &want);
	/* a tick: c0 + 4.1 ms on the chain (its update comes with CPU0's next event) */
	feed(r, ev_runtime(t0 + 4150000, 0, 10, 10, 4000000));
	cfsr_pelt_update_se(P, c0 + 4100000, &want, W0, true, 1, true);
	/* the snapshot: CPU0's clock was c0 + 4.2 ms from t0 + 8 ms to t0 + 9 ms */
	cfsr_replay_clock_update(r, 0, t0 + 8000000, c0 + 4200000, t0 + 9000000);
	feed(r, ev_runtime(t0 + 8500000, 0, 10, 10, 300000));
	feed(r, ev_switch(t0 + 8500500, 0, 10, 1, false, 0)); /* it blocks */
	cfsr_pelt_update_se(P, c0 + 4200000, &want, W0, true, 1, true);
	assert_avg_equal(&t->avg, &want);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_stats(r)->chain_corrections, 1);
	cfsr_replay_free(r);
}

/* Task 10's updates as the hook reports them: trace time and clock_exact. */
struct exact_log {
	int n;
	uint64_t ts[16];
	bool exact[16];
};

static void log_exact(void *data, const struct cfsr_replay_update *u)
{
	struct exact_log *l = data;

	if (!u->task || u->task->pid != 10 || l->n == 16)
		return;
	l->ts[l->n] = u->ts;
	l->exact[l->n++] = u->clock_exact;
}

/*
 * test_clock_update_kept()'s run, as the hook reports it: the wakeup's
 * clock is extrapolated from a reading along the trace's time stamps, the
 * switch keeps it, and the tick's report adds the kernel's run time to
 * it: exact for the model's chain, but from a time stamp, so not
 * clock_exact.  The report after the second reading is at that reading's
 * clock, and the sleep at the report's: clock_exact.
 */
static void test_clock_exact_from_stamp(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 1000000000000ull, t0 = 5000000000ull;
	struct cfsr_sched_avg want;
	struct exact_log l = { 0 };
	int i;

	(void)state;
	assert_non_null(r);
	cfsr_replay_set_hook(r, log_exact, &l);
	cfsr_replay_clock_update(r, 0, t0, c0, 0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	wake_known(r, t0, c0, &want);
	feed(r, ev_runtime(t0 + 4150000, 0, 10, 10, 4000000));
	cfsr_replay_clock_update(r, 0, t0 + 8000000, c0 + 4200000, t0 + 9000000);
	feed(r, ev_runtime(t0 + 8500000, 0, 10, 10, 300000));
	feed(r, ev_switch(t0 + 8500500, 0, 10, 1, false, 0));
	assert_true(l.n >= 4);
	for (i = 0; i < l.n; i++)
		assert_int_equal(l.exact[i], l.ts[i] >= t0 + 8500000);
	/* the tick's update, from the chain, is among the rows */
	for (i = 0; i < l.n && l.ts[i] != t0 + 4150000; i++)
		;
	assert_true(i < l.n);
	cfsr_replay_free(r);
}

/*
 * One sleep of a task whose util_est starts at 0: util_est_update() takes
 * util_avg as a sample, and whose util_avg that is depends on the kernel.
 * v6.12+ samples in dequeue_task_fair() before dequeue_entities() updates
 * the task, v6.11 after dequeue_entity() did.  Task 10 sleeps right after
 * a run-time report (its update comes from the report), task 11 without
 * one (from the switch).  The root's util_est loses what entered it.
 */
static void util_est_sleep(const char *kernel, bool late)
{
	const struct cfsr_profile *p = cfsr_profile_for(kernel);
	struct cfsr_replay *r = cfsr_replay_new(1, p, 250);
	const uint64_t c0 = 1000000000000ull, t0 = 5000000000ull;
	const struct cfsr_cfs_rq *root;
	struct cfsr_sched_avg before;
	uint32_t ue0, want;
	struct cfsr_task *t;
	int pid;

	assert_non_null(r);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	root = cfsr_replay_cfs_rq(r, "/", 0);
	assert_non_null(root);
	for (pid = 10; pid <= 11; pid++) {
		uint64_t at = t0 + (uint64_t)(pid - 10) * 20000000;

		feed(r, ev_wakeup(at + 100000, 0, 0, pid, 0));
		t = cfsr_replay_task(r, pid);
		assert_non_null(t);
		t->avg.last_update_time = (c0 - 20000000) & ~1023ull;
		t->avg.util_avg = t->avg.runnable_avg = t->avg.load_avg = 300;
		t->avg.util_sum = t->avg.runnable_sum = 300 * 47000;
		t->avg.load_sum = 300 * 47000 / 1024;
		/* task 10 has no estimate yet; task 11 one above its util_avg */
		ue0 = pid == 10 ? 0 : 400;
		t->avg.util_est = ue0;
		feed(r, ev_switch(at + 150000, 0, 0, 0, false, pid));
		before = t->avg;
		if (pid == 10)
			feed(r, ev_runtime(at + 4150000, 0, pid, pid, 4000000));
		feed(r, ev_switch(at + 4150500, 0, pid, 1, false, 0));
		assert_int_equal(t->state, CFSR_TS_SLEEPING);
		/* it ran 4 ms: the dequeue's update raised util_avg */
		assert_true(t->avg.util_avg > before.util_avg);
		want = cfsr_pelt_util_est_update(p->pelt, ue0,
						 late ? t->avg.util_avg : before.util_avg,
						 late ? t->avg.runnable_avg : before.runnable_avg,
						 SCHED_CAPACITY_SCALE, true);
		/* with no estimate, the sample is util_avg itself */
		if (!ue0)
			assert_int_equal(want & ~UTIL_AVG_UNCHANGED,
					 late ? t->avg.util_avg : before.util_avg);
		/*
		 * the sample sets UTIL_AVG_UNCHANGED; an update that changes
		 * util_avg afterwards clears it (cfs_se_util_change())
		 */
		if (!late)
			want &= ~UTIL_AVG_UNCHANGED;
		assert_int_equal(t->avg.util_est, want);
		/* util_est_dequeue() ran before the sample: what entered leaves */
		assert_int_equal(root->avg.util_est, 0);
	}
	cfsr_replay_free(r);
}

static void test_util_est_sample_v6_18(void **state)
{
	(void)state;
	util_est_sleep("6.18", false);
}

static void test_util_est_sample_v6_11(void **state)
{
	(void)state;
	util_est_sleep("6.11", true);
}

/* update_curr() from a wakeup's preemption check updates no signal. */
static void test_runtime_in_wakeup(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 2000000000000ull, t0 = 9000000000ull;
	struct cfsr_task *t;
	uint64_t lut;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 20));
	t = cfsr_replay_task(r, 20);
	lut = t->avg.last_update_time;
	/* task 21 wakes onto CPU0: the wakee's enqueue reports 20's run time */
	feed(r, ev_runtime(t0 + 300000, 0, 20, 20, 300000));
	feed(r, ev_wakeup(t0 + 300400, 0, 20, 21, 0));
	assert_int_equal(t->avg.last_update_time, lut);
	/* a tick's report is followed by no wakeup: it updates */
	feed(r, ev_runtime(t0 + 4000000, 0, 20, 20, 3700000));
	feed(r, ev_switch(t0 + 4000100, 0, 20, 0, true, 21));
	assert_int_equal(t->avg.last_update_time, (c0 + 4000000) & ~1023ull);
	assert_int_equal(t->state, CFSR_TS_QUEUED);
	cfsr_replay_free(r);
}

/*
 * Two ticks in a row with no event between: the second report is the next
 * tick's, a tick later, with its PELT update, not the update_curr() of the
 * pick the first one asked for (which comes at once).
 */
/*
 * Task 22 runs on CPU 0; its tick reports come 4 ms apart (HZ 250).  It
 * forks task 23 after a tick (task context: no pick was pending, the
 * child's wakeup onto CPU 1 alone would not tell); its report 40 us after
 * the tick, with no event of its CPU after it, is a read of its run time
 * (task_sched_runtime(), a thread CPU-time clock): update_curr() only, no
 * PELT update.  The next tick's report, 4 ms after the last tick, updates
 * from the last tick's update: the signal equals one aged straight from
 * the tick at t0 + 4 ms to t0 + 8 ms, running.
 */
/* test_runtime_read()'s run, with the read 40 us after the tick or without. */
static struct cfsr_replay *run_ticks(bool read)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 2500000000000ull, t0 = 9500000000ull;
	struct cfsr_event e;

	cfsr_replay_clock_sample(r, 0, t0, c0);
	cfsr_replay_clock_sample(r, 1, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 22));
	feed(r, ev_runtime(t0 + 4000000, 0, 22, 22, 4000000));
	e = ev_head(t0 + 4010000, 0, 22, CFSR_EV_FORK);
	e.fork.parent_pid = 22;
	e.fork.child_pid = 23;
	feed(r, e);
	e = ev_wakeup(t0 + 4020000, 0, 22, 23, 1);
	e.kind = CFSR_EV_WAKEUP_NEW;
	feed(r, e);
	if (read)
		feed(r, ev_runtime(t0 + 4040000, 0, 22, 22, 40000));
	feed(r, ev_runtime(t0 + 8000000, 0, 22, 22, read ? 3960000 : 4000000));
	feed(r, ev_runtime(t0 + 12000000, 0, 22, 22, 4000000));
	return r;
}

static void test_runtime_read(void **state)
{
	struct cfsr_replay *a = run_ticks(true), *b = run_ticks(false);
	const struct cfsr_task *ta = cfsr_replay_task(a, 22);

	(void)state;
	assert_int_equal(cfsr_replay_stats(a)->runtime_reads, 1);
	assert_int_equal(cfsr_replay_stats(b)->runtime_reads, 0);
	assert_int_equal(ta->avg.last_update_time, (2500000000000ull + 8000000) & ~1023ull);
	/* the same signal as the run without the read */
	assert_avg_equal(&ta->avg, &cfsr_replay_task(b, 22)->avg);
	cfsr_replay_free(a);
	cfsr_replay_free(b);
}

static void test_consecutive_ticks(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 2500000000000ull, t0 = 9500000000ull;
	struct cfsr_task *t;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 22));
	feed(r, ev_runtime(t0 + 4000000, 0, 22, 22, 4000000));
	feed(r, ev_runtime(t0 + 8000000, 0, 22, 22, 4000000));
	feed(r, ev_runtime(t0 + 12000000, 0, 22, 22, 4000000));
	t = cfsr_replay_task(r, 22);
	assert_int_equal(t->avg.last_update_time, (c0 + 8000000) & ~1023ull);
	cfsr_replay_free(r);
}

/*
 * A switch missing from the trace (leaving idle): it kept the clock of the
 * wakeup (rq_clock_skip_update()), which the record of the enqueue gives,
 * and the task's first run-time report gives the run time since.  With
 * @waker, the task wakes another onto its CPU before that report: that
 * wakeup's clock update comes after the switch and does not move it.
 */
static void recovered_switch(bool waker)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 3000000000000ull, t0 = 1000000000ull;
	struct cfsr_sched_avg want;
	struct cfsr_event we;
	struct cfsr_task *t;

	cfsr_replay_clock_sample(r, 1, t0, c0);
	feed(r, ev_switch(t0, 1, 0, 0, false, 0));
	cfsr_replay_clock_record(r, 1, t0 + 49000, c0 + 48000);
	feed(r, ev_wakeup(t0 + 50000, 1, 0, 30, 1));
	t = cfsr_replay_task(r, 30);
	t->avg.last_update_time = (c0 - 1000000) & ~1023ull;
	t->avg.period_contrib = (uint32_t)((t->avg.last_update_time >> 10) % 1024);
	want = t->avg;
	if (waker) {
		/* sched_waking in 30's context, the enqueue's record, the wakeup */
		we = ev_wakeup(t0 + 499000, 1, 30, 31, 1);
		we.kind = CFSR_EV_WAKING;
		feed(r, we);
		cfsr_replay_clock_record(r, 1, t0 + 500000, c0 + 498000);
		feed(r, ev_wakeup(t0 + 501000, 1, 30, 31, 1));
	}
	/* no switch: 30's first run-time report, 2 ms after it started */
	feed(r, ev_runtime(t0 + 2060000, 1, 30, 30, 2000000));
	feed(r, ev_switch(t0 + 2060100, 1, 30, 1, false, waker ? 31 : 0));
	t = cfsr_replay_task(r, 30);
	cfsr_pelt_update_se(P, c0 + 48000, &want, W0, false, 0, false);
	cfsr_pelt_update_se(P, c0 + 2048000, &want, W0, true, 1, true);
	assert_avg_equal(&t->avg, &want);
	assert_int_equal(cfsr_replay_stats(r)->recovered_switches, 1);
	cfsr_replay_free(r);
}

static void test_recovered_switch(void **state)
{
	(void)state;
	recovered_switch(false);
}

static void test_recovered_switch_waker(void **state)
{
	(void)state;
	recovered_switch(true);
}

/* A task that leaves unseen is aged as blocked until its next wakeup. */
static void test_unseen_switch_out(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 4000000000000ull, t0 = 2000000000ull;
	struct cfsr_sched_avg want;
	struct cfsr_task *t;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 40));
	t = cfsr_replay_task(r, 40);
	t->avg.last_update_time = c0 & ~1023ull;
	t->avg.period_contrib = (uint32_t)((c0 >> 10) % 1024);
	t->avg.util_avg = t->avg.runnable_avg = t->avg.load_avg = 400;
	t->avg.util_sum = t->avg.runnable_sum = 400 * 47000;
	t->avg.load_sum = 400 * 47000 / 1024;
	want = t->avg;
	feed(r, ev_runtime(t0 + 500000, 0, 40, 40, 500000));
	feed(r, ev_runtime(t0 + 600000, 0, 41, 41, 10000)); /* 41 runs: 40 left */
	assert_int_equal(t->state, CFSR_TS_LEFT);
	feed(r, ev_wakeup(t0 + 30000000, 0, 41, 40, 0));
	feed(r, ev_switch(t0 + 30000100, 0, 41, 1, false, 40));
	/* ran to its last report, then blocked: the enqueue ages the sleep with zeros */
	cfsr_pelt_update_se(P, c0 + 500000, &want, W0, true, 1, true);
	cfsr_pelt_update_se(P, c0 + 30000000, &want, W0, false, 0, false);
	cfsr_pelt_update_se(P, c0 + 30000100, &want, W0, true, 1, false);
	assert_avg_equal(&t->avg, &want);
	assert_int_equal(t->state, CFSR_TS_RUNNING);
	assert_int_equal(cfsr_replay_stats(r)->unseen_switch_outs, 1);
	cfsr_replay_free(r);
}

/* A pid used again by a new task starts afresh, and many tasks fit. */
static void test_pid_reuse_and_growth(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	struct cfsr_event e;
	struct cfsr_task *t;
	int pid;

	(void)state;
	for (pid = 1; pid < 5000; pid++)
		feed(r, ev_wakeup(1000 + (uint64_t)pid, 0, 0, pid, 0));
	for (pid = 1; pid < 5000; pid += 997)
		assert_int_equal(cfsr_replay_task(r, pid)->pid, pid);
	t = cfsr_replay_task(r, 77);
	t->avg.util_avg = 500;
	memset(&e, 0, sizeof(e));
	e.kind = CFSR_EV_FORK;
	e.ts = 1000000;
	e.fork.parent_pid = 1;
	e.fork.child_pid = 77;
	feed(r, e);
	t = cfsr_replay_task(r, 77);
	assert_int_equal(t->avg.util_avg, 0);
	assert_int_equal(t->state, CFSR_TS_UNKNOWN);
	cfsr_replay_free(r);
}

/*
 * A switch between two tasks the engine has not seen, when creating the
 * second moves the task table: prev must not be used from its old place
 * (a sanitizer build of this test fails on that).
 */
static void test_switch_grows_table(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	int pid;

	(void)state;
	for (pid = 1; pid <= 15; pid++)
		feed(r, ev_wakeup(1000 + (uint64_t)pid, 0, 0, pid, 0));
	feed(r, ev_switch(100000, 0, 900, 1, false, 901));
	feed(r, ev_switch(200000, 0, 901, 1, false, 0));
	assert_int_equal(cfsr_replay_task(r, 900)->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_task(r, 901)->state, CFSR_TS_SLEEPING);
	cfsr_replay_free(r);
}

static struct cfsr_event ev_migrate(uint64_t ts, int cpu, int ctx, int pid, int from, int to)
{
	struct cfsr_event e = ev_head(ts, cpu, ctx, CFSR_EV_MIGRATE);

	e.migrate.pid = pid;
	e.migrate.prio = 120;
	e.migrate.orig_cpu = from;
	e.migrate.dest_cpu = to;
	return e;
}

/*
 * Four CPUs: 40 runs on CPU 0, 50 on CPU 2.  The trace loses CPU 0's
 * switch from 40 to 41; then 50 wakes 42 onto CPU 0 (@how 0; 1: 42 from
 * CPU 1, moved there at the wakeup; 2: no wakeup, 50 moves 42 from CPU 2
 * to CPU 0, as the migration stopper does), and the enqueue's
 * update_curr() of CPU 0's rq reports 41's run time in 50's context on
 * CPU 2.  41 is CPU 0's curr, 50 stays CPU 2's.  Then, after a wakeup
 * onto CPU 2 itself, a report of 43, never seen, from CPU 2: no enqueue
 * elsewhere in progress, its CPU is not known, and nothing is placed.
 */
static void remote_report(int how)
{
	struct cfsr_replay *r = cfsr_replay_new(4, prof(), 250);
	const uint64_t t0 = 1000000000ull;
	int cpu;

	for (cpu = 0; cpu < 4; cpu++)
		cfsr_replay_clock_sample(r, cpu, t0, 3000000000000ull);
	feed(r, ev_switch(t0 + 1000, 0, 0, 0, false, 40));
	feed(r, ev_switch(t0 + 1000, 2, 0, 0, false, 50));
	if (how < 2)
		feed(r, ev_waking(t0 + 200000, 2, 50, 42, how));
	if (how > 0)
		feed(r, ev_migrate(t0 + 200500, 2, 50, 42, how == 1 ? 1 : 2, 0));
	feed(r, ev_runtime(t0 + 201000, 2, 50, 41, 5000));
	if (how < 2)
		feed(r, ev_wakeup(t0 + 202000, 2, 50, 42, 0));
	assert_int_equal(cfsr_replay_task(r, 41)->state, CFSR_TS_RUNNING);
	assert_int_equal(cfsr_replay_task(r, 41)->cpu, 0);
	assert_int_not_equal(cfsr_replay_task(r, 40)->state, CFSR_TS_RUNNING);
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_RUNNING);
	assert_int_equal(cfsr_replay_task(r, 50)->cpu, 2);
	assert_int_equal(cfsr_replay_stats(r)->recovered_switches, 1);
	assert_int_equal(cfsr_replay_stats(r)->remote_reports, 1);
	/* 50 wakes 45 onto its own CPU: no enqueue elsewhere in progress */
	feed(r, ev_wakeup(t0 + 250000, 2, 50, 45, 2));
	feed(r, ev_runtime(t0 + 300000, 2, 50, 43, 7000));
	assert_int_not_equal(cfsr_replay_task(r, 43)->state, CFSR_TS_RUNNING);
	assert_int_equal(cfsr_replay_stats(r)->remote_reports_unplaced, 1);
	assert_int_equal(cfsr_replay_stats(r)->recovered_switches, 1);
	cfsr_replay_free(r);
}

static void test_remote_report(void **state)
{
	(void)state;
	remote_report(0);
	remote_report(1);
	remote_report(2);
}

/* A known signal, last updated at @lut, for a task whose past the test sets. */
static void set_known_avg(struct cfsr_task *t, uint64_t lut, uint64_t v)
{
	t->avg.last_update_time = lut & ~1023ull;
	t->avg.period_contrib = (uint32_t)((t->avg.last_update_time >> 10) % 1024);
	t->avg.util_avg = t->avg.runnable_avg = t->avg.load_avg = v;
	t->avg.util_sum = (uint32_t)(v * 47000);
	t->avg.runnable_sum = v * 47000;
	t->avg.load_sum = v * 47000 / 1024;
	t->avg_known = true;
}

/*
 * Two nice-0 tasks, 50 (A) and 51 (B), on CPU0 (base slice 0.7 ms, a 4 ms
 * tick).  Both wake onto the empty cfs_rq at vruntime 0.  A runs 2 ms (its
 * deadline 0.7 ms passed: renewed at 2.7 ms), B 0.5 ms, A 0.1 ms more: A's
 * vruntime 2.1 ms against B's 0.5 ms, mean 1.3 ms, so A blocks not
 * eligible and stays queued, delayed, B running.  A's signal is set known
 * at its wakeup; *want gets it then.
 */
static void run_until_delayed(struct cfsr_replay *r, uint64_t c0, uint64_t t0,
			      struct cfsr_sched_avg *want)
{
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	/* each wakeup follows the record of its enqueue */
	cfsr_replay_clock_record(r, 0, t0 + 98000, c0 + 100000);
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 50, 0));
	set_known_avg(cfsr_replay_task(r, 50), c0 - 5000000, 300);
	*want = cfsr_replay_task(r, 50)->avg;
	cfsr_replay_clock_record(r, 0, t0 + 198000, c0 + 200000);
	feed(r, ev_wakeup(t0 + 200000, 0, 0, 51, 0));
	feed(r, ev_switch(t0 + 300000, 0, 0, 0, false, 50));
	feed(r, ev_runtime(t0 + 2300000, 0, 50, 50, 2000000));
	feed(r, ev_switch(t0 + 2300100, 0, 50, 0, true, 51));
	feed(r, ev_runtime(t0 + 2800100, 0, 51, 51, 500000));
	feed(r, ev_switch(t0 + 2800200, 0, 51, 0, true, 50));
	feed(r, ev_runtime(t0 + 2900200, 0, 50, 50, 100000));
	feed(r, ev_switch(t0 + 2900300, 0, 50, 1, false, 51));
}

/*
 * sched_move_task() of a sleeping task: after test_delayed_dequeue()'s
 * run both tasks sleep; A (its signal known) moves to /g.  Its signal
 * leaves the root's cfs_rq and joins /g's on CPU 0 at one clock: /g's
 * cfs_rq then holds exactly A's averages, on A's window, and /g's group
 * entity takes the load up to the root in the same walk.  Naming
 * the group instead (cfsr_replay_task_set_group(): where B was all
 * along) moves no signal: /h's cfs_rq stays empty.
 */
static void test_move_group(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const struct cfsr_cfs_rq *root, *g, *h;
	struct cfsr_sched_avg want;
	struct cfsr_task *a;
	uint64_t root_load;

	(void)state;
	run_until_delayed(r, c0, t0, &want);
	feed(r, ev_runtime(t0 + 3900300, 0, 51, 51, 1000000));
	feed(r, ev_switch(t0 + 3900400, 0, 51, 1, false, 0));
	a = cfsr_replay_task(r, 50);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	root_load = root->avg.load_avg;
	assert_true(a->avg.load_avg > 0 && root_load > 0);
	assert_int_equal(cfsr_replay_task_move_group(r, 50, "/g", t0 + 4000000), 1);
	a = cfsr_replay_task(r, 50);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	g = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_non_null(g);
	assert_int_equal(g->avg.load_avg, a->avg.load_avg);
	assert_int_equal(g->avg.util_avg, a->avg.util_avg);
	assert_int_equal(g->avg.runnable_avg, a->avg.runnable_avg);
	assert_int_equal(g->avg.last_update_time, a->avg.last_update_time);
	assert_true(a->avg.load_avg > 0);
	/* propagated at once: /g's group entity carries A's load to the root */
	assert_true(g->se_avg.load_avg > 0);
	assert_true(root->avg.load_avg > 0);
	assert_int_equal(cfsr_replay_task_move_group(r, 50, "/g", t0 + 4100000), 0);

	assert_int_equal(cfsr_replay_task_set_group(r, 51, "/h"), 1);
	h = cfsr_replay_cfs_rq(r, "/h", 0);
	assert_true(!h || (h->avg.load_avg == 0 && h->se_avg.load_avg == 0));
	cfsr_replay_free(r);
}

static struct cfsr_event ev_attach(uint64_t ts, int cpu, int root, int pid, const char *path)
{
	struct cfsr_event e = ev_head(ts, cpu, pid, CFSR_EV_CGROUP_ATTACH);

	e.cgroup.root = root;
	e.cgroup.level = 1;
	e.cgroup.pid = pid;
	e.cgroup.path = path;
	return e;
}

/* A cgroup_mkdir (@kind) or cgroup_rmdir of hierarchy @root at @level. */
static struct cfsr_event ev_dir(uint64_t ts, enum cfsr_event_kind kind, int root, int level,
				const char *path)
{
	struct cfsr_event e = ev_head(ts, 0, 1, kind);

	e.cgroup.root = root;
	e.cgroup.level = level;
	e.cgroup.pid = -1;
	e.cgroup.path = path;
	return e;
}

/* A known PELT window on @cfs: last update @lut, period_contrib @pc, load_sum @ls. */
static void set_cfs_avg(struct cfsr_cfs_rq *cfs, uint64_t lut, uint32_t pc, uint64_t ls)
{
	memset(&cfs->avg, 0, sizeof(cfs->avg));
	cfs->avg.last_update_time = lut;
	cfs->avg.period_contrib = pc;
	cfs->avg.load_sum = ls;
	cfs->avg.load_avg = ls / (47742 - 1024 + pc);
	cfs->avg_known = true;
}

/*
 * online_fair_sched_group() at a cgroup_mkdir of the cpu controller's
 * hierarchy (1), on two CPUs, v6.18: each new group entity, its averages
 * zero, attaches to the root cfs_rq.  The mkdir comes 500 ns after the
 * roots' last updates (no clock anchor: the trace clock stands in), within
 * their period: no aging.  attach_entity_load_avg() gives the entity the
 * root's window and load_sum max(1, 0 * divider / 1024) = 1; the root
 * gains se_weight * load_sum = 1024 * 1 in load_sum, 0 in load_avg, and
 * add_tg_cfs_propagate(1).  A mkdir of hierarchy 0 with the same path
 * changes nothing.  A nested /a/b attaches to /a's cfs_rq the same way
 * (+1024).  rmdir of /a/b: remove_entity_load_avg() of its entity, synced
 * to /a's last update (no change), queues it as removed on /a (one entity,
 * load 0); /a/b's state is cleared.  rmdir of a group the model still
 * queues a task in leaves that CPU's state (counted).
 */
static void test_group_mkdir_rmdir(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 3000000000ull * 1024, ls0 = 20000000, ls1 = 30000000;
	struct cfsr_cfs_rq *root0 = cfsr_replay_cfs_rq(r, "/", 0);
	struct cfsr_cfs_rq *root1 = cfsr_replay_cfs_rq(r, "/", 1);
	struct cfsr_cfs_rq *g, *a, *b;
	uint64_t la0, la1, ls_a;
	int c;

	(void)state;
	cfsr_replay_follow_attaches(r, 1);
	set_cfs_avg(root0, t0, 300, ls0);
	set_cfs_avg(root1, t0, 700, ls1);
	la0 = root0->avg.load_avg;
	la1 = root1->avg.load_avg;
	feed(r, ev_dir(t0 + 500, CFSR_EV_CGROUP_MKDIR, 0, 1, "/g"));
	assert_int_equal(cfsr_replay_stats(r)->group_dirs_other, 1);
	assert_int_equal(root0->avg.load_sum, ls0);
	feed(r, ev_dir(t0 + 500, CFSR_EV_CGROUP_MKDIR, 1, 1, "/g"));
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	root1 = cfsr_replay_cfs_rq(r, "/", 1);
	assert_int_equal(cfsr_replay_stats(r)->group_mkdirs, 1);
	assert_int_equal(cfsr_replay_stats(r)->group_attaches, 2);
	assert_int_equal(root0->avg.load_sum, ls0 + 1024);
	assert_int_equal(root1->avg.load_sum, ls1 + 1024);
	assert_int_equal(root0->avg.load_avg, la0);
	assert_int_equal(root1->avg.load_avg, la1);
	assert_int_equal(root0->prop_runnable_sum, 1);
	assert_int_equal(root1->prop_runnable_sum, 1);
	assert_true(root0->propagate && root1->propagate);
	for (c = 0; c < 2; c++) {
		g = cfsr_replay_cfs_rq(r, "/g", c);
		assert_int_equal(g->se_avg.load_sum, 1);
		assert_int_equal(g->se_avg.load_avg, 0);
		assert_int_equal(g->se_avg.last_update_time, t0);
		assert_int_equal(g->se_avg.period_contrib, c ? 700 : 300);
		assert_false(g->se_on_rq);
	}

	/* nested: /a/b onto /a */
	feed(r, ev_dir(t0 + 600, CFSR_EV_CGROUP_MKDIR, 1, 1, "/a"));
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	set_cfs_avg(a, t0, 300, 5000000);
	ls_a = a->avg.load_sum;
	feed(r, ev_dir(t0 + 700, CFSR_EV_CGROUP_MKDIR, 1, 2, "/a/b"));
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	b = cfsr_replay_cfs_rq(r, "/a/b", 0);
	assert_int_equal(a->avg.load_sum, ls_a + 1024);
	assert_int_equal(b->se_avg.load_sum, 1);
	assert_int_equal(b->se_avg.last_update_time, t0);

	/* rmdir: queued as removed on the parent, the group's state cleared */
	feed(r, ev_dir(t0 + 800, CFSR_EV_CGROUP_RMDIR, 1, 2, "/a/b"));
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	b = cfsr_replay_cfs_rq(r, "/a/b", 0);
	assert_int_equal(cfsr_replay_stats(r)->group_rmdirs, 1);
	assert_int_equal(a->removed.nr, 1);
	assert_int_equal(a->removed.load_avg, 0);
	assert_int_equal(b->se_avg.last_update_time, 0);
	assert_int_equal(b->se_avg.load_sum, 0);
	assert_false(b->se_known);

	/* a group the model still queues a task in */
	assert_int_equal(cfsr_replay_task_set_group(r, 10, "/g"), 1);
	feed(r, ev_wakeup(t0 + 900, 0, 0, 10, 0));
	feed(r, ev_dir(t0 + 1000, CFSR_EV_CGROUP_RMDIR, 1, 1, "/g"));
	assert_int_equal(cfsr_replay_stats(r)->group_rmdirs, 2);
	assert_int_equal(cfsr_replay_stats(r)->group_rmdir_busy, 1);
	cfsr_replay_free(r);
}

/*
 * sched_cgroup_fork(), then sched_move_task() at cgroup_attach_task, with
 * attaches of hierarchy 1 followed.  Parent 10 runs in /p; its child 11,
 * whose rows would give /c, starts in /p (the parent's group).  The child
 * runs; an attach of hierarchy 8 moves nothing; hierarchy 1's moves the
 * running child to /c: dequeued and put, the root then holds only /p's
 * group entity (the parent waits below it), so /c's new group entity is
 * placed at the root's V, which is /p's entity's vruntime (its lag 0);
 * the child, placed alone on /c with no running entity there, takes /c's
 * zero_vruntime, its relative deadline kept (PLACE_REL_DEADLINE); then it
 * runs again: it and /c's entity are each level's curr, out of the sums
 * (the root's weight sum is /p's entity's alone), their exec_start the
 * move's clock (its dequeue's run-time report).  Asleep, the child moves
 * to an empty /q: /q's cfs_rq takes exactly its averages on its window,
 * nothing is queued, its vruntime stays.
 */
static void test_fork_and_attach(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const struct cfsr_cfs_rq *root, *p, *c, *q;
	struct cfsr_event e;
	struct cfsr_task *child;
	uint64_t rel, vr;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 10, "/p"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 11, "/c"), 1);
	cfsr_replay_follow_attaches(r, 1);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	cfsr_replay_clock_record(r, 0, t0 + 98000, c0 + 100000);
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 10, 0));
	set_known_avg(cfsr_replay_task(r, 10), c0 - 5000000, 300);
	feed(r, ev_switch(t0 + 300000, 0, 0, 0, false, 10));
	feed(r, ev_runtime(t0 + 1300000, 0, 10, 10, 1000000));
	e = ev_head(t0 + 1300100, 0, 10, CFSR_EV_FORK);
	e.fork.parent_pid = 10;
	e.fork.child_pid = 11;
	feed(r, e);
	p = cfsr_replay_cfs_rq(r, "/p", 0);
	assert_int_equal(cfsr_replay_task(r, 11)->group, p->group);
	assert_int_equal(cfsr_replay_stats(r)->fork_parent_group, 1);
	e = ev_wakeup(t0 + 1300200, 0, 10, 11, 0);
	e.kind = CFSR_EV_WAKEUP_NEW;
	feed(r, e);
	feed(r, ev_runtime(t0 + 1400000, 0, 10, 10, 99900));
	feed(r, ev_switch(t0 + 1400100, 0, 10, 0, true, 11));
	feed(r, ev_runtime(t0 + 1500000, 0, 11, 11, 99900));
	feed(r, ev_attach(t0 + 1500050, 0, 8, 11, "/track"));
	assert_int_equal(cfsr_replay_stats(r)->attaches_other, 1);
	child = cfsr_replay_task(r, 11);
	assert_int_equal(child->state, CFSR_TS_RUNNING);
	rel = child->deadline - child->vruntime;
	feed(r, ev_attach(t0 + 1500100, 0, 1, 11, "/c"));
	assert_int_equal(cfsr_replay_stats(r)->attach_moves, 1);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	p = cfsr_replay_cfs_rq(r, "/p", 0);
	c = cfsr_replay_cfs_rq(r, "/c", 0);
	child = cfsr_replay_task(r, 11);
	assert_non_null(c);
	assert_int_equal(child->group, c->group);
	assert_int_equal(child->state, CFSR_TS_RUNNING);
	assert_true(c->se_on_rq && p->se_on_rq);
	assert_int_equal(c->se_vruntime, p->se_vruntime);
	assert_int_equal(child->vruntime, c->zero_vruntime);
	assert_int_equal(child->deadline - child->vruntime, rel);
	assert_int_equal(root->curr, 11);
	assert_int_equal(c->curr, 11);
	assert_int_equal(p->curr, 0);
	assert_int_equal(root->avg_load, p->se_weight >> 10);
	assert_int_equal(c->avg_load, 0);
	assert_int_equal(c->se_exec_start, child->exec_start);
	assert_int_equal(p->nr_queued, 1);
	assert_int_equal(c->nr_queued, 1);

	/* asleep (alone on /c: eligible, dequeued), then moved to an empty group */
	feed(r, ev_runtime(t0 + 1600000, 0, 11, 11, 99900));
	feed(r, ev_switch(t0 + 1600100, 0, 11, 1, false, 10));
	child = cfsr_replay_task(r, 11);
	assert_int_equal(child->state, CFSR_TS_SLEEPING);
	vr = child->vruntime;
	feed(r, ev_attach(t0 + 2000000, 0, 1, 11, "/q"));
	assert_int_equal(cfsr_replay_stats(r)->attach_moves, 2);
	child = cfsr_replay_task(r, 11);
	q = cfsr_replay_cfs_rq(r, "/q", 0);
	assert_non_null(q);
	assert_int_equal(child->group, q->group);
	assert_int_equal(child->state, CFSR_TS_SLEEPING);
	assert_int_equal(child->vruntime, vr);
	assert_true(child->avg.load_avg > 0);
	assert_int_equal(q->avg.load_avg, child->avg.load_avg);
	assert_int_equal(q->avg.runnable_avg, child->avg.runnable_avg);
	assert_int_equal(q->avg.util_avg, child->avg.util_avg);
	assert_int_equal(q->avg.last_update_time, child->avg.last_update_time);
	assert_false(q->se_on_rq);
	assert_int_equal(q->nr_queued, 0);
	cfsr_replay_free(r);
}

/*
 * The recorded sysctl_sched_base_slice replaces the profile's slice: with
 * 3 ms, A's first deadline is 0 + 3 ms (calc_delta_fair() at nice 0 is the
 * identity) and its 2.1 ms of run time never reach it, so it is not renewed
 * (against 2.7 ms with the 0.7 ms default).  A what-if replay (the trace
 * says 6.11, the engine models 6.18) keeps its own default.
 */
static void test_recorded_base_slice(void **state)
{
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	struct cfsr_trace_info info = { .base_slice_ns = 3000000 };
	struct cfsr_sched_avg want;
	struct cfsr_replay *r;

	(void)state;
	r = cfsr_replay_new(1, prof(), 250);
	cfsr_replay_take_tunables(r, &info);
	run_until_delayed(r, c0, t0, &want);
	assert_int_equal(cfsr_replay_task(r, 50)->vruntime, 2100000);
	assert_int_equal(cfsr_replay_task(r, 50)->deadline, 3000000);
	cfsr_replay_free(r);

	info.kernel_release = "6.11.0";
	r = cfsr_replay_new(1, prof(), 250);
	cfsr_replay_take_tunables(r, &info);
	run_until_delayed(r, c0, t0, &want);
	assert_int_equal(cfsr_replay_task(r, 50)->deadline, 2700000);
	cfsr_replay_free(r);
}

/*
 * The base slice of 2ae891b82695 by stable sublevel, on one CPU (factor
 * 1): A's deadline, renewed when its 2 ms run passes it, is 2 ms + the
 * slice: 2.75 ms with 0.75 ms (6.12.30, 6.14.8), 2.7 ms with 0.7 ms from
 * 6.12.31 and 6.14.9, the first stable releases carrying the change.
 */
static void test_stable_base_slice(void **state)
{
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	static const struct {
		const char *release;
		uint64_t deadline;
	} want[] = {
		{ "6.12.30", 2750000 },
		{ "6.12.31", 2700000 },
		{ "6.14.8", 2750000 },
		{ "6.14.9", 2700000 },
	};
	struct cfsr_sched_avg avg;
	struct cfsr_replay *r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		r = cfsr_replay_new(1, cfsr_profile_for(want[i].release), 250);
		run_until_delayed(r, c0, t0, &avg);
		assert_int_equal(cfsr_replay_task(r, 50)->vruntime, 2100000);
		assert_int_equal(cfsr_replay_task(r, 50)->deadline, want[i].deadline);
		cfsr_replay_free(r);
	}
}

/*
 * A CFS kernel's recorded sysctl_sched_latency, min_granularity and
 * wakeup_granularity (24, 2 and 3 ms) replace the defaults of 2 CPUs (6,
 * 0.75 and 1 ms times 1 + ilog2(2) = 12, 1.5 and 2 ms), and
 * sched_nr_latency becomes ceil(24 / 2) = 12; a what-if replay (the trace
 * says 6.18, the engine models 5.15) keeps the defaults, nr_latency
 * ceil(12 / 1.5) = 8.
 */
static void cfs_tunables_after(const char *release, uint64_t latency, uint64_t min_gran,
			       uint64_t wakeup_gran, unsigned int nr_latency)
{
	struct cfsr_trace_info info = { .kernel_release = release,
					.latency_ns = 24000000,
					.min_granularity_ns = 2000000,
					.wakeup_granularity_ns = 3000000 };
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for("5.15"), 250);
	const struct cfsr_cfs_tunables *tu;

	cfsr_replay_take_tunables(r, &info);
	tu = cfsr_replay_cfs_tunables(r);
	assert_int_equal(tu->latency, latency);
	assert_int_equal(tu->min_granularity, min_gran);
	assert_int_equal(tu->wakeup_granularity, wakeup_gran);
	assert_int_equal(tu->nr_latency, nr_latency);
	cfsr_replay_free(r);
}

static void test_recorded_cfs_tunables(void **state)
{
	(void)state;
	cfs_tunables_after("5.15.0", 24000000, 2000000, 3000000, 12);
	cfs_tunables_after("6.18.0", 12000000, 1500000, 2000000, 8);
}

/*
 * The traced kernel's own scheduler features (sysctl_sched_features as
 * 6.18.5+ counts its bits: DELAY_DEQUEUE 8, UTIL_EST 24) replace the
 * profile's defaults.  With DELAY_DEQUEUE cleared, A, not eligible when it
 * blocks (vruntime 2.1 ms against V = (2.1 + 0.5) / 2 = 1.3 ms), leaves at
 * once with lag 1.3 - 2.1 = -0.8 ms (the limit, max(2 slices, a tick) =
 * 4 ms, is far): the root keeps B alone.  With UTIL_EST cleared too, A's
 * sleep takes no util_est sample, where the defaults take one of its
 * util_avg (300).  A what-if replay (the trace says 6.11) keeps the
 * defaults: A delayed.
 */
static void test_trace_features(void **state)
{
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const uint64_t all = 99674079, no_delay = all & ~(1ull << 8);
	struct cfsr_trace_info info = { .kernel_release = "6.18.44",
					.has_sched_features = true,
					.sched_features = no_delay };
	const struct cfsr_cfs_rq *root;
	struct cfsr_sched_avg want;
	struct cfsr_replay *r;
	struct cfsr_task *a;

	(void)state;
	r = cfsr_replay_new(1, prof(), 250);
	cfsr_replay_take_tunables(r, &info);
	run_until_delayed(r, c0, t0, &want);
	a = cfsr_replay_task(r, 50);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	assert_int_equal(a->vlag, -800000);
	assert_int_equal(root->nr_queued, 1);
	assert_int_equal(root->load_weight, W0);
	assert_int_equal(cfsr_replay_stats(r)->delayed, 0);
	assert_true(a->avg.util_est > 0);
	cfsr_replay_free(r);

	info.sched_features = no_delay & ~(1ull << 24);
	r = cfsr_replay_new(1, prof(), 250);
	cfsr_replay_take_tunables(r, &info);
	run_until_delayed(r, c0, t0, &want);
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_task(r, 50)->avg.util_est, 0);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->avg.util_est, 0);
	cfsr_replay_free(r);

	info.kernel_release = "6.11.0";
	r = cfsr_replay_new(1, prof(), 250);
	cfsr_replay_take_tunables(r, &info);
	run_until_delayed(r, c0, t0, &want);
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_DELAYED);
	assert_int_equal(cfsr_replay_stats(r)->delayed, 1);
	cfsr_replay_free(r);
}

/*
 * PLACE_DEADLINE_INITIAL as the trace's features say (bit 1 of the 6.18.5+
 * sysctl_sched_features).  A (50) runs 1 ms from V = 0; C (51), new, is
 * woken at V = 1.0 ms: vruntime 1.0 ms, deadline half a slice (0.35 ms)
 * later, or a whole one (0.7 ms) without the feature.
 */
static void test_trace_place_initial(void **state)
{
	const uint64_t t0 = 3000000000ull;
	struct cfsr_trace_info info = { .kernel_release = "6.18.44",
					.has_sched_features = true,
					.sched_features = 99674079 & ~(1ull << 1) };
	struct cfsr_replay *r;
	struct cfsr_event e;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		r = cfsr_replay_new(1, prof(), 250);
		if (pass)
			cfsr_replay_take_tunables(r, &info);
		feed(r, ev_switch(t0, 0, 0, 0, false, 50));
		feed(r, ev_runtime(t0 + 1000000, 0, 50, 50, 1000000));
		e = ev_wakeup(t0 + 1000000, 0, 50, 51, 0);
		e.kind = CFSR_EV_WAKEUP_NEW;
		feed(r, e);
		assert_int_equal(cfsr_replay_task(r, 51)->vruntime, 1000000);
		assert_int_equal(cfsr_replay_task(r, 51)->deadline, pass ? 1700000 : 1350000);
		cfsr_replay_free(r);
	}
}

/*
 * A's signal through run_until_delayed(): enqueue (zeros), waiting until
 * the switch from idle (at the clock of B's wakeup, which it kept),
 * running, waiting, running until it blocks.
 */
static void age_until_delayed(struct cfsr_sched_avg *want, uint64_t c0)
{
	cfsr_pelt_update_se(P, c0 + 100000, want, W0, false, 0, false);
	cfsr_pelt_update_se(P, c0 + 200000, want, W0, true, 1, false);
	cfsr_pelt_update_se(P, c0 + 2200000, want, W0, true, 1, true);
	cfsr_pelt_update_se(P, c0 + 2700000, want, W0, true, 1, false);
	cfsr_pelt_update_se(P, c0 + 2800000, want, W0, true, 1, true);
}

/* run_until_delayed(): A (pid 50) kept delayed, B (51) running; the root. */
static struct cfsr_cfs_rq *delayed_pair(struct cfsr_replay *r, uint64_t c0, uint64_t t0,
					struct cfsr_sched_avg *want, struct cfsr_task **a,
					struct cfsr_task **b)
{
	struct cfsr_cfs_rq *root;

	run_until_delayed(r, c0, t0, want);
	*a = cfsr_replay_task(r, 50);
	*b = cfsr_replay_task(r, 51);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	assert_non_null(root);
	assert_int_equal((*a)->state, CFSR_TS_DELAYED);
	return root;
}

/*
 * After run_until_delayed(): B runs 1 ms (1.5 ms, mean with A 1.8 ms:
 * eligible) and blocks normally with lag 1.8 - 1.5 = 0.3 ms; the CPU goes
 * idle, so the pick completes A's dequeue (lag 0: alone, it is at the
 * mean).  A's signal: enqueue (zeros), waiting until the switch from idle
 * (at the clock of B's wakeup, which it kept), running, waiting, running,
 * then delayed (load only) until the pick.
 */
static void test_delayed_dequeue(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const struct cfsr_cfs_rq *root;
	struct cfsr_sched_avg want;
	struct cfsr_task *a, *b;

	(void)state;
	root = delayed_pair(r, c0, t0, &want, &a, &b);
	assert_int_equal(a->vruntime, 2100000);
	assert_int_equal(a->deadline, 2700000);
	assert_int_equal(b->vruntime, 500000);
	assert_int_equal(root->nr_queued, 2);
	assert_int_equal(root->h_nr_runnable, 1);
	assert_int_equal(root->load_weight, 2 * W0);
	assert_int_equal(cfsr_replay_stats(r)->delayed, 1);

	feed(r, ev_runtime(t0 + 3900300, 0, 51, 51, 1000000));
	feed(r, ev_switch(t0 + 3900400, 0, 51, 1, false, 0));
	assert_int_equal(b->state, CFSR_TS_SLEEPING);
	assert_int_equal(b->vlag, 300000);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	assert_int_equal(a->vlag, 0);
	assert_int_equal(root->nr_queued, 0);
	assert_int_equal(root->load_weight, 0);
	assert_int_equal(cfsr_replay_stats(r)->delayed_picked, 1);

	age_until_delayed(&want, c0);
	cfsr_pelt_update_se(P, c0 + 3800000, &want, W0, true, 0, false);
	assert_avg_equal(&a->avg, &want);
	cfsr_replay_free(r);
}

/*
 * The root's runnable input while A is delayed, under 6.12.6 and 6.12.7
 * (76f2f783294d): after run_until_delayed() (A delayed at c0 + 2.8 ms; the
 * root just updated, the same in both), B runs 1 ms and blocks; the root's
 * next update, at c0 + 3.8 ms, ages the 1 ms with load 2 * 1024 (A's
 * weight stays), running 1, and a runnable count of 2 (h_nr_running, A
 * counted) under 6.12.6, 1 (B alone) under 6.12.7 (cfsr_pelt_update_cfs_rq()
 * with those inputs from the root at the delay).  Their runnable_sum then
 * differ by one runnable task's 1 ms in SCHED_CAPACITY units (976 or 977
 * units of 1024 ns, decayed at most once), load and util not at all.
 */
static void test_stable_runnable_delayed(void **state)
{
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const char *const rel[2] = { "6.12.6", "6.12.7" };
	struct cfsr_sched_avg at_delay[2], want, got[2];
	struct cfsr_cfs_rq *root;
	struct cfsr_task *a, *b;
	struct cfsr_replay *r;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		r = cfsr_replay_new(1, cfsr_profile_for(rel[i]), 250);
		root = delayed_pair(r, c0, t0, &want, &a, &b);
		assert_int_equal(root->h_nr_queued, 2);
		assert_int_equal(root->h_nr_runnable, 1);
		at_delay[i] = root->avg;
		feed(r, ev_runtime(t0 + 3900300, 0, 51, 51, 1000000));
		feed(r, ev_switch(t0 + 3900400, 0, 51, 1, false, 0));
		assert_int_equal(a->state, CFSR_TS_SLEEPING);
		assert_int_equal(b->state, CFSR_TS_SLEEPING);
		got[i] = root->avg;
		want = at_delay[i];
		cfsr_pelt_update_cfs_rq(P, c0 + 3800000, &want, 2 * W0, 2 - (uint64_t)i, true);
		assert_avg_equal(&got[i], &want);
		cfsr_replay_free(r);
	}
	assert_avg_equal(&at_delay[0], &at_delay[1]);
	assert_true(got[0].runnable_avg > got[1].runnable_avg);
	assert_int_equal(got[0].load_avg, got[1].load_avg);
	assert_int_equal(got[0].util_avg, got[1].util_avg);
	assert_int_equal(got[0].util_sum, got[1].util_sum);
	/* 1 ms is 976 or 977 whole 1024 ns units, at most one period's decay (y = 0.9786) off */
	assert_int_equal((got[0].runnable_sum - got[1].runnable_sum) % 1024, 0);
	assert_in_range(got[0].runnable_sum - got[1].runnable_sum, 955 * 1024, 977 * 1024);
}

/*
 * After run_until_delayed(): B's tick after 1.7 ms more (vruntime 2.2 ms,
 * deadline renewed to 2.9 ms) asks for a reschedule; the pick's
 * update_curr() reports 10 us more and finds A eligible (mean 2.155 ms)
 * with the earlier deadline (2.7 ms): it completes A's dequeue at its clock
 * and, picking again, keeps B (no switch).
 */
static void test_delayed_pick_keeps(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	struct cfsr_sched_avg want;
	struct cfsr_task *a;

	(void)state;
	run_until_delayed(r, c0, t0, &want);
	feed(r, ev_runtime(t0 + 4600300, 0, 51, 51, 1700000));
	feed(r, ev_runtime(t0 + 4600400, 0, 51, 51, 10000));
	feed(r, ev_runtime(t0 + 8600400, 0, 51, 51, 4000000));
	a = cfsr_replay_task(r, 50);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_stats(r)->delayed_picked, 1);
	age_until_delayed(&want, c0);
	cfsr_pelt_update_se(P, c0 + 4510000, &want, W0, true, 0, false);
	assert_avg_equal(&a->avg, &want);
	cfsr_replay_free(r);
}

/*
 * After run_until_delayed(): A is delayed (2 queued, weight 2 W0).  A
 * kernel reading of the root with one entity less, lighter by exactly
 * W0, says the kernel had dequeued A: the model dequeues it with lag 0
 * (cfsr_replay_cfs_rq_take_queued()).  A reading of the same weight
 * changes nothing, nor does one lighter by another weight.  A reading
 * then heavier by W0 with one more entity, B having slept since, makes B
 * delayed again.
 */
static void test_take_queued(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	struct cfsr_cfs_rq *root;
	struct cfsr_sched_avg want;
	struct cfsr_task *a, *b;

	(void)state;
	root = delayed_pair(r, c0, t0, &want, &a, &b);
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root, 2 * W0, 2), 0);
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root, W0 / 2, 1), 0);
	assert_int_equal(a->state, CFSR_TS_DELAYED);
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root, W0, 1), 1);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	assert_int_equal(a->vlag, 0);
	assert_int_equal(root->nr_queued, 1);
	assert_int_equal(root->load_weight, W0);

	/* B blocks, eligible (dequeued); the kernel's next reading still has it */
	feed(r, ev_runtime(t0 + 3900300, 0, 51, 51, 1000000));
	feed(r, ev_switch(t0 + 3900400, 0, 51, 1, false, 0));
	assert_int_equal(b->state, CFSR_TS_SLEEPING);
	assert_int_equal(root->load_weight, 0);
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root, W0, 1), 1);
	assert_int_equal(b->state, CFSR_TS_DELAYED);
	assert_int_equal(root->load_weight, W0);
	assert_int_equal(root->h_nr_runnable, 0);
	cfsr_replay_free(r);
}

/*
 * A reading of a task with se->on_rq and se->sched_delayed set, which the
 * engine has asleep: the kernel kept it queued, delayed (DELAY_DEQUEUE,
 * v6.12-v6.18).  The engine queues it again on that CPU's cfs_rq: its
 * weight back in the cfs_rq's load, one more queued entity, none more
 * runnable.  A task the engine has queued, or a reading of another CPU's
 * run queue, changes nothing.
 */
static void test_take_delayed(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	struct cfsr_cfs_rq *root;
	struct cfsr_sched_avg want;
	struct cfsr_task *a, *b;
	unsigned int runnable;

	(void)state;
	root = delayed_pair(r, c0, t0, &want, &a, &b);
	assert_int_equal(cfsr_replay_task_take_dequeued(r, a), 1);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	assert_int_equal(root->load_weight, W0);
	runnable = root->h_nr_runnable;
	assert_int_equal(cfsr_replay_task_take_delayed(r, a, 1), 0);
	assert_int_equal(cfsr_replay_task_take_delayed(r, b, 0), 0);
	assert_int_equal(cfsr_replay_task_take_delayed(r, a, 0), 1);
	assert_int_equal(a->state, CFSR_TS_DELAYED);
	assert_int_equal(root->load_weight, 2 * W0);
	assert_int_equal(root->nr_queued, 2);
	assert_int_equal(root->h_nr_runnable, runnable);
	assert_int_equal(cfsr_replay_task_take_delayed(r, a, 0), 0);
	cfsr_replay_free(r);
}

/*
 * A delayed task woken: ttwu_runnable() requeues it where it is, even when
 * the wakeup names another CPU, with one update on the delayed inputs.  Its
 * lag (mean 1.3 ms - 2.1 ms) is negative, so DELAY_ZERO does not place it
 * again.
 */
static void test_delayed_requeue(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	struct cfsr_sched_avg want;
	struct cfsr_task *a;

	(void)state;
	run_until_delayed(r, c0, t0, &want);
	a = cfsr_replay_task(r, 50);
	assert_int_equal(a->state, CFSR_TS_DELAYED);
	want = a->avg;

	feed(r, ev_wakeup(t0 + 3000000, 0, 51, 50, 1));
	assert_int_equal(a->state, CFSR_TS_QUEUED);
	assert_int_equal(a->cpu, 0);
	assert_int_equal(a->vruntime, 2100000);
	assert_int_equal(cfsr_replay_stats(r)->delayed_woken, 1);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->h_nr_runnable, 2);
	/* the switch's clock, c0 + 2.8 ms, then the trace clock to the wakeup */
	cfsr_pelt_update_se(P, c0 + 2899700, &want, W0, true, 0, false);
	assert_avg_equal(&a->avg, &want);
	cfsr_replay_free(r);
}

/*
 * The root cfs_rq of a CPU with one task: it starts, unknown, at zero on
 * the grid at its first update (the wakeup), is aged with the queued
 * weight and runnable count until the switch from idle (at the clock the
 * wakeup left), then also running; a wakeup migration queues
 * the task's signal, synced to the cfs_rq's last update, in its removed
 * load; the destination's cfs_rq gives the task its window at the attach.
 */
static void test_root_cfs_rq(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 6000000000000ull, c1 = 7000000000000ull, t0 = 4000000000ull;
	struct cfsr_sched_avg want = { 0 }, task;
	const struct cfsr_cfs_rq *root0, *root1;
	struct cfsr_task *t;
	uint64_t now;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	cfsr_replay_clock_sample(r, 1, t0, c1);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_switch(t0, 1, 0, 0, false, 0));
	cfsr_replay_clock_record(r, 0, t0 + 98000, c0 + 100000);
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 60, 0));
	set_known_avg(cfsr_replay_task(r, 60), c0 - 2000000, 200);
	feed(r, ev_switch(t0 + 300000, 0, 0, 0, false, 60));
	feed(r, ev_runtime(t0 + 3300000, 0, 60, 60, 3000000));
	feed(r, ev_switch(t0 + 3300100, 0, 60, 1, false, 0));

	now = c0 + 100000;
	want.last_update_time = now & ~1023ull;
	want.period_contrib = (uint32_t)((now >> 10) % 1024);
	cfsr_pelt_update_cfs_rq(P, c0 + 3100000, &want, W0, 1, true);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	assert_avg_equal(&root0->avg, &want);
	assert_int_equal(root0->load_weight, 0);
	assert_int_equal(root0->curr, 0);

	/* woken onto CPU1: removed from CPU0, synced to its cfs_rq's last update */
	t = cfsr_replay_task(r, 60);
	task = t->avg;
	cfsr_pelt_update_blocked_se(P, root0->avg.last_update_time, &task, W0);
	feed(r, ev_migrate(t0 + 10000000, 1, 0, 60, 0, 1));
	assert_int_equal(root0->removed.nr, 1);
	assert_int_equal(root0->removed.load_avg, task.load_avg);
	assert_int_equal(root0->removed.util_avg, task.util_avg);
	assert_int_equal(root0->removed.runnable_avg, task.runnable_avg);

	feed(r, ev_wakeup(t0 + 10000100, 1, 0, 60, 1));
	t = cfsr_replay_task(r, 60);
	root1 = cfsr_replay_cfs_rq(r, "/", 1);
	assert_int_equal(t->cpu, 1);
	assert_int_equal(t->avg.last_update_time, (c1 + 10000100) & ~1023ull);
	assert_int_equal(t->avg.last_update_time, root1->avg.last_update_time);
	assert_int_equal(t->avg.period_contrib, root1->avg.period_contrib);
	assert_int_equal(root1->avg.load_avg, t->avg.load_avg);
	assert_int_equal(root1->avg.util_avg, t->avg.util_avg);
	assert_int_equal(root1->load_weight, W0);
	cfsr_replay_free(r);
}

/*
 * Group entities: a task of group "/g" running alone on CPU0 puts the
 * group's entity on the root cfs_rq with the whole of the group's shares
 * (calc_group_shares(): tg_weight = tg->load_avg - contrib + load = load
 * when no other CPU contributes, so shares = tg->shares = NICE_0_LOAD);
 * a second task on CPU1 splits them by load:
 * NICE_0_LOAD * load0 / (tg->load_avg - contrib0 + load0), load0 =
 * max(1024, load_avg0); tg->load_avg is the sum of the published
 * contributions; the last task leaving takes the entity off the root.
 */
/*
 * Task 60 of /g wakes on CPU 0 (its signal known) and is switched in; with
 * @second, CPU 1 is known idle too and task 61 is in /g.
 */
static void start_lone_in_g(struct cfsr_replay *r, uint64_t t0, bool second)
{
	const uint64_t c0 = 6000000000000ull, c1 = 7000000000000ull;

	cfsr_replay_clock_sample(r, 0, t0, c0);
	if (second)
		cfsr_replay_clock_sample(r, 1, t0, c1);
	assert_int_equal(cfsr_replay_task_set_group(r, 60, "/g"), 1);
	if (second)
		assert_int_equal(cfsr_replay_task_set_group(r, 61, "/g"), 1);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	if (second)
		feed(r, ev_switch(t0, 1, 0, 0, false, 0));
	set_known_avg(cfsr_replay_task(r, 60), c0 - 2000000, 600);
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 60, 0));
	feed(r, ev_switch(t0 + 300000, 0, 0, 0, false, 60));
}

/* start_lone_in_g(), then 60 reports its first 4 ms of run time (pending: a tick's) */
static void run_lone_in_g(struct cfsr_replay *r, uint64_t t0, bool second)
{
	start_lone_in_g(r, t0, second);
	feed(r, ev_runtime(t0 + 4300000, 0, 60, 60, 4000000));
}

/*
 * Shares stated before the engine meets the group (a recorded trace's
 * metadata): the lone task of /g on CPU 0 holds all of the group's load,
 * so calc_group_shares() gives its entity the whole tg->shares, 256
 * scaled (262144), where the default gives NICE_0_LOAD.
 */
static void test_group_shares_stated(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const struct cfsr_cfs_rq *root0, *g0;

	(void)state;
	assert_int_equal(cfsr_replay_group_shares(r, "/g", 256 * 1024), 0);
	run_lone_in_g(r, 4000000000ull, false);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_non_null(g0);
	assert_int_equal(g0->se_weight, 256 * 1024);
	assert_int_equal(root0->load_weight, 256 * 1024);
	cfsr_replay_free(r);
}

/*
 * A write of the shares mid-trace (sched_group_set_shares(), v5.7-v6.18):
 * each CPU's group entity is updated and reweighted at once.  The lone
 * task's group carries load on CPU 0 only, so its entity there weighs the
 * whole new shares (calc_group_shares()), and the root's load.weight with
 * it, before the next event; an unchanged value changes nothing.
 */
static void test_group_set_shares(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const struct cfsr_cfs_rq *root0, *g0;
	uint64_t lut;

	(void)state;
	run_lone_in_g(r, 4000000000ull, false);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_int_equal(g0->se_weight, W0);
	lut = g0->se_avg.last_update_time;
	assert_int_equal(cfsr_replay_group_set_shares(r, "/g", W0, 4100000000ull), 0);
	assert_int_equal(cfsr_replay_group_set_shares(r, "/g", 4 * W0, 4100000000ull), 1);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	assert_int_equal(g0->se_weight, 4 * W0);
	assert_int_equal(root0->load_weight, 4 * W0);
	/* update_load_avg() of the entity came first, at the write's clock */
	assert_true(g0->se_avg.last_update_time > lut);
	assert_int_equal(cfsr_replay_stats(r)->shares_changes, 1);
	/* a group not met yet only takes the value */
	assert_int_equal(cfsr_replay_group_set_shares(r, "/h", 2 * W0, 4100000000ull), 0);
	cfsr_replay_free(r);
}

/*
 * The same with the shares of a group made idle (cpu.idle 1,
 * sched_group_set_idle(): scale_load(WEIGHT_IDLEPRIO) = 3 << 10 = 3072)
 * and of an autogroup of nice 19 (proc_sched_autogroup_set_nice():
 * sched_prio_to_weight[39] = 15, scaled 15 << 10 = 15360): the lone
 * task's group entity weighs the whole tg->shares, which is also the
 * root cfs_rq's load (calc_group_shares() clamps to [MIN_SHARES = 2,
 * tg->shares] only).
 */
static void test_group_shares_idle_nice(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const struct cfsr_cfs_rq *root0, *g0;

	(void)state;
	assert_int_equal(cfsr_replay_group_shares(r, "/g", cfsr_group_idle_shares()), 0);
	run_lone_in_g(r, 4000000000ull, false);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_non_null(g0);
	assert_int_equal(g0->se_weight, 3072);
	assert_int_equal(root0->load_weight, 3072);
	/* stated after the engine met the group: taken at the next update */
	assert_int_equal(cfsr_replay_group_shares(r, "/g", cfsr_group_autogroup_shares(19)), 0);
	feed(r, ev_runtime(4000000000ull + 5300000, 0, 60, 60, 1000000));
	assert_int_equal(g0->se_weight, 15360);
	assert_int_equal(root0->load_weight, 15360);
	cfsr_replay_free(r);
}

/*
 * After run_lone_in_g() with CPU 1: task 61 of /g runs on CPU 1 from
 * t0 + 4.5 ms; both report run time until t0 + 9.6 ms.
 */
static void run_second_in_g(struct cfsr_replay *r, uint64_t t0)
{
	feed(r, ev_wakeup(t0 + 4400000, 1, 0, 61, 1));
	feed(r, ev_switch(t0 + 4500000, 1, 0, 0, false, 61));
	/* an event between two reports of task 60, so that the second is a tick's */
	feed(r, ev_wakeup(t0 + 8400000, 0, 60, 62, 1));
	feed(r, ev_runtime(t0 + 8500000, 1, 61, 61, 4000000));
	feed(r, ev_runtime(t0 + 8600000, 0, 60, 60, 4300000));
	/*
	 * each report's update is applied as a tick's once no event of its
	 * CPU followed it for 50 us, in time order: CPU 1 publishes its load,
	 * then CPU 0's tick reweights the group entity against it
	 */
	feed(r, ev_runtime(t0 + 9500000, 1, 61, 61, 1000000));
	feed(r, ev_runtime(t0 + 9600000, 0, 60, 60, 1000000));
}

/*
 * h_nr_idle as enqueue_task_fair() and dequeue_entities() keep it, worked
 * by hand.  Groups /i (idle) and its child /i/n (not idle), /n (not idle).
 * On CPU 0: task 70 in /i, 71 in /i/n, 72 SCHED_IDLE in the root group,
 * 73 in /n.  A task counts at its own cfs_rq only if SCHED_IDLE (72 at the
 * root); a task under an idle group counts at every level above the idle
 * group's cfs_rq, not at it nor below (70 and 71 at the root only).  So,
 * all four queued: root h_nr_queued 4, h_nr_idle 3; /i 2 and 0; /i/n 1
 * and 0; /n 1 and 0.  The CPU runs only idle work once 73 sleeps
 * (sched_idle_cpu()), not before.  73 moved to /i/n (sched_move_task())
 * then counts at the root (4 of 4 once woken).  A profile without idle
 * groups (v5.10) counts only 72; one before sched_idle_cpu() (v5.1-v5.4.32)
 * none.  A SCHED_IDLE task weighs scale_load(WEIGHT_IDLEPRIO).
 */
static void idle_counts(const char *release, unsigned int root_idle_all, unsigned int root_idle_one,
			bool sched_idle)
{
	struct cfsr_replay *r = cfsr_replay_new(1, cfsr_profile_for(release), 250);
	const uint64_t t0 = 4000000000ull;
	const struct cfsr_cfs_rq *root, *i, *in, *n;
	const struct cfsr_profile *p = cfsr_profile_for(release);
	int pid;

	assert_int_equal(cfsr_replay_group_idle(r, "/i"), 0);
	assert_int_equal(cfsr_replay_group_shares(r, "/i", cfsr_group_idle_shares()), 0);
	assert_int_equal(cfsr_replay_task_set_group(r, 70, "/i"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 71, "/i/n"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 73, "/n"), 1);
	assert_int_equal(cfsr_replay_task_set_idle_policy(r, 72, true), 0);
	assert_int_equal(cfsr_replay_task(r, 72)->load_weight, 3072);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_wakeup(t0 + 10000, 0, 0, 70, 0));
	feed(r, ev_switch(t0 + 20000, 0, 0, 0, false, 70));
	for (pid = 71; pid <= 73; pid++)
		feed(r, ev_wakeup(t0 + 10000 * (uint64_t)(pid - 68), 0, 70, pid, 0));
	root = cfsr_replay_cfs_rq(r, "/", 0);
	i = cfsr_replay_cfs_rq(r, "/i", 0);
	in = cfsr_replay_cfs_rq(r, "/i/n", 0);
	n = cfsr_replay_cfs_rq(r, "/n", 0);
	assert_non_null(i);
	assert_non_null(in);
	assert_non_null(n);
	assert_int_equal(root->h_nr_queued, 4);
	assert_int_equal(root->h_nr_idle, root_idle_all);
	assert_int_equal(i->h_nr_queued, 2);
	assert_int_equal(i->h_nr_idle, 0);
	assert_int_equal(in->h_nr_idle, 0);
	assert_int_equal(n->h_nr_idle, 0);
	assert_int_equal(cfsr_replay_cfs_rq_is_idle(r, i), p->cgroup_idle);
	assert_false(cfsr_replay_cfs_rq_is_idle(r, in));
	assert_int_equal(cfsr_replay_se_is_idle(r, -i->group, 0), p->cgroup_idle);
	assert_true(cfsr_replay_se_is_idle(r, 72, 0));
	assert_false(cfsr_replay_se_is_idle(r, 73, 0));
	/* 73 preempts 70: not only idle work */
	feed(r, ev_switch(t0 + 100000, 0, 70, 0, true, 73));
	assert_false(cfsr_replay_sched_idle_cpu(r, 0));
	/* 73 sleeps, 72 runs: 70, 71, 72 left */
	feed(r, ev_switch(t0 + 200000, 0, 73, 1, false, 72));
	assert_int_equal(cfsr_replay_task(r, 73)->state, CFSR_TS_SLEEPING);
	assert_int_equal(root->h_nr_queued, 3);
	assert_int_equal(root->h_nr_idle, root_idle_all);
	assert_int_equal(cfsr_replay_sched_idle_cpu(r, 0), sched_idle);
	/* 73 moves under the idle group and wakes */
	assert_int_equal(cfsr_replay_task_move_group(r, 73, "/i/n", t0 + 400000), 1);
	feed(r, ev_wakeup(t0 + 500000, 0, 72, 73, 0));
	in = cfsr_replay_cfs_rq(r, "/i/n", 0);
	assert_int_equal(in->h_nr_queued, 2);
	assert_int_equal(in->h_nr_idle, 0);
	assert_int_equal(root->h_nr_idle, root_idle_all + (p->cgroup_idle ? 1 : 0));
	/* 72 made SCHED_NORMAL again: its weight and count follow */
	assert_int_equal(cfsr_replay_task_set_idle_policy(r, 72, false), 0);
	assert_int_equal(cfsr_replay_task(r, 72)->load_weight, W0);
	assert_int_equal(root->h_nr_idle, root_idle_all + (p->cgroup_idle ? 1 : 0) - root_idle_one);
	cfsr_replay_free(r);
}

static void test_h_nr_idle(void **state)
{
	(void)state;
	idle_counts("6.18", 3, 1, true);
	idle_counts("6.11", 3, 1, true);
	idle_counts("5.15.40", 3, 1, true);
	idle_counts("5.10", 1, 1, false);
	idle_counts("5.2", 0, 0, false);
}

/*
 * A SCHED_IDLE task kept delayed (DELAY_DEQUEUE, v6.12+) stays queued and
 * still counts in h_nr_idle, as in h_nr_queued: after run_until_delayed()
 * with A (50) SCHED_IDLE from the start: its weight 3072 against B's
 * W0 leaves A's vruntime far ahead, so its sleep is delayed; the root's
 * h_nr_idle stays 1 until the pick completes the dequeue.
 */
static void test_h_nr_idle_delayed(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const struct cfsr_cfs_rq *root;
	struct cfsr_sched_avg want;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_idle_policy(r, 50, true), 0);
	run_until_delayed(r, c0, t0, &want);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_DELAYED);
	assert_int_equal(root->h_nr_queued, 2);
	assert_int_equal(root->h_nr_runnable, 1);
	assert_int_equal(root->h_nr_idle, 1);
	/* B sleeps: the pick completes A's dequeue, the CPU idles */
	feed(r, ev_runtime(t0 + 3900300, 0, 51, 51, 1000000));
	feed(r, ev_switch(t0 + 3900400, 0, 51, 1, false, 0));
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_SLEEPING);
	assert_int_equal(root->h_nr_queued, 0);
	assert_int_equal(root->h_nr_idle, 0);
	cfsr_replay_free(r);
}

static void test_group_entity(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull;
	const struct cfsr_cfs_rq *root0, *g0, *g1;
	uint64_t load0, want;

	(void)state;
	run_lone_in_g(r, t0, true);

	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_non_null(g0);
	assert_true(g0->se_on_rq);
	assert_int_equal(g0->se_weight, W0);
	assert_int_equal(root0->load_weight, W0);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0), (int64_t)g0->tg_load_avg_contrib);

	run_second_in_g(r, t0);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	g1 = cfsr_replay_cfs_rq(r, "/g", 1);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0),
			 (int64_t)(g0->tg_load_avg_contrib + g1->tg_load_avg_contrib));
	load0 = g0->avg.load_avg > 1024 ? g0->avg.load_avg : 1024;
	want = (uint64_t)W0 * load0 /
	       ((uint64_t)cfsr_replay_tg_load_avg(r, g0) - g0->tg_load_avg_contrib + load0);
	assert_true(want < W0);
	assert_int_equal(g0->se_weight, want);

	/* task 60 sleeps, eligible alone on its cfs_rq: the group entity leaves the root */
	feed(r, ev_switch(t0 + 9600000, 0, 60, 1, false, 0));
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_false(g0->se_on_rq);
	assert_int_equal(root0->load_weight, 0);
	cfsr_replay_free(r);
}

/*
 * update_cfs_group() of an emptied group, before and after 66951e4860d3
 * (6.12.10, 6.12.11): test_group_entity()'s run, /g's entity on CPU 0 at
 * the weight calc_group_shares() gave it with task 60 queued
 * (load = max(1024, load_avg)); 60 sleeps and the entity leaves the root.
 * 6.12.11 keeps that weight; 6.12.10 reweights it at its dequeue
 * (dequeue_entity()'s update_cfs_group()) with the group's load.weight 0:
 * load = max(0, load_avg) = load_avg, so the shares are
 * W0 * load_avg / (tg->load_avg - contrib + load_avg), on the values the
 * dequeue's update left (the same clock: load_avg unchanged).
 */
static void test_stable_keep_empty_weight(void **state)
{
	const char *const rel[2] = { "6.12.10", "6.12.11" };
	const uint64_t t0 = 4000000000ull;
	const struct cfsr_cfs_rq *g0;
	struct cfsr_replay *r;
	uint64_t before, want, la;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		r = cfsr_replay_new(2, cfsr_profile_for(rel[i]), 250);
		run_lone_in_g(r, t0, true);
		run_second_in_g(r, t0);
		g0 = cfsr_replay_cfs_rq(r, "/g", 0);
		before = g0->se_weight;
		assert_true(g0->avg.load_avg < 1024);
		assert_int_equal(before, (uint64_t)W0 * 1024 /
						 ((uint64_t)cfsr_replay_tg_load_avg(r, g0) -
						  g0->tg_load_avg_contrib + 1024));
		feed(r, ev_switch(t0 + 9600000, 0, 60, 1, false, 0));
		g0 = cfsr_replay_cfs_rq(r, "/g", 0);
		assert_false(g0->se_on_rq);
		assert_int_equal(g0->load_weight, 0);
		la = g0->avg.load_avg;
		want = (uint64_t)W0 * la /
		       ((uint64_t)cfsr_replay_tg_load_avg(r, g0) - g0->tg_load_avg_contrib + la);
		assert_true(want < before);
		assert_int_equal(g0->se_weight, i == 0 ? want : before);
		cfsr_replay_free(r);
	}
}

/*
 * A reading of CPU 0's group cfs_rq gives tg->load_avg 22 above the sum
 * the engine holds: on two CPUs that is CPU 1's publication the engine
 * has not made yet, credited to CPU 1 as of its own last reading, so that
 * the same load published again by CPU 1's update adds nothing.  On three
 * CPUs it could be any other's: the sum follows, no CPU's contribution.
 */
static void take_tg(int nr_cpus)
{
	struct cfsr_replay *r = cfsr_replay_new(nr_cpus, prof(), 250);
	struct cfsr_cfs_rq *g0, *g1, *g2;
	int64_t tg;
	uint64_t c0, c1;

	run_lone_in_g(r, 4000000000ull, true);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	g1 = cfsr_replay_cfs_rq(r, "/g", 1);
	c0 = g0->tg_load_avg_contrib;
	c1 = g1->tg_load_avg_contrib;
	tg = cfsr_replay_tg_load_avg(r, g0);
	assert_int_equal(tg, (int64_t)(c0 + c1));
	assert_int_equal(g1->taken_ts, 0);
	cfsr_replay_group_take(r, g1, g1->se_weight, c1, tg, 0);
	assert_int_not_equal(g1->taken_ts, 0);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0), tg);

	cfsr_replay_group_take(r, g0, g0->se_weight, c0, tg + 22, 0);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0), tg + 22);
	assert_int_equal(g0->tg_load_avg_contrib, c0);
	if (nr_cpus == 2) {
		assert_int_equal(g1->tg_load_avg_contrib, c1 + 22);
		assert_int_equal(g1->last_update_tg_load_avg, g1->taken_ts);
	} else {
		g2 = cfsr_replay_cfs_rq(r, "/g", 2);
		assert_int_equal(g1->tg_load_avg_contrib, c1);
		assert_int_equal(g2->tg_load_avg_contrib, 0);
	}
	/* the same reading again changes nothing */
	cfsr_replay_group_take(r, g0, g0->se_weight, c0, tg + 22, 0);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0), tg + 22);
	/* CPU 0's own contribution read 5 lower: its own, the sum follows */
	cfsr_replay_group_take(r, g0, g0->se_weight, c0 - 5, tg + 17, 0);
	assert_int_equal(g0->tg_load_avg_contrib, c0 - 5);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0), tg + 17);
	if (nr_cpus == 2)
		assert_int_equal(g1->tg_load_avg_contrib, c1 + 22);
	cfsr_replay_free(r);
}

static void test_group_take_tg(void **state)
{
	(void)state;
	take_tg(2);
	take_tg(3);
}

/* Events as a trace the engine can look ahead in (cfsr_replay_set_peek()). */
struct ahead_feed {
	const struct cfsr_event *ev;
	size_t n, next;
};

static int ahead_peek(void *ctx, size_t i, const struct cfsr_event **ev)
{
	struct ahead_feed *f = ctx;

	if (f->next + i >= f->n)
		return 0;
	*ev = &f->ev[f->next + i];
	return 1;
}

/* Replay @n events of @ev, with a look ahead or without, task @pid (if > 0) in group @path. */
static struct cfsr_replay *replay_in(const struct cfsr_event *ev, size_t n, bool peek, int pid,
				     const char *path)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	struct ahead_feed f = { ev, n, 0 };

	if (pid > 0)
		assert_int_equal(cfsr_replay_task_set_group(r, pid, path), 1);
	cfsr_replay_clock_sample(r, 0, 3000000000ull, 5000000000000ull);
	if (peek)
		cfsr_replay_set_peek(r, ahead_peek, &f);
	while (f.next < f.n) {
		struct cfsr_event e = f.ev[f.next++];

		feed(r, e);
	}
	return r;
}

static struct cfsr_replay *replay_all(const struct cfsr_event *ev, size_t n, bool peek)
{
	return replay_in(ev, n, peek, 0, NULL);
}

/*
 * CPU 0 runs 60 of /g (run_lone_in_g() up to its first report, here a
 * tick's at t0 + 4.3 ms); CPU 1 runs 99 of the root, which wakes 61 of /g
 * (its last CPU 1, moved at the wakeup) onto CPU 0 @gap after that
 * report, and nothing else happens on CPU 0 for 4 ms.  Beyond TICK_PATH_NS (11 us) the tick's update came first,
 * with its publication into tg->load_avg: CPU 0's contribution is the
 * tick's load_avg, and the enqueue's publication falls within
 * update_tg_load_avg()'s 1 ms rate limit.  Within it (2 us) the enqueue
 * may have come first: the engine makes it first, and the tick's update
 * is then the one the rate limit holds back.
 */
static void remote_settle(uint64_t gap)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull, tick = t0 + 4300000;
	const struct cfsr_event ev[] = {
		ev_waking(tick + gap - 1000, 1, 99, 61, 1),
		ev_migrate(tick + gap - 500, 1, 99, 61, 1, 0),
		ev_wakeup(tick + gap, 1, 99, 61, 0),
		ev_runtime(tick + 4000000, 0, 60, 60, 4000000),
	};
	struct ahead_feed f = { ev, sizeof(ev) / sizeof(ev[0]), 0 };
	const struct cfsr_cfs_rq *g0;

	cfsr_replay_set_peek(r, ahead_peek, &f);
	run_lone_in_g(r, t0, true);
	feed(r, ev_switch(t0 + 10000, 1, 0, 0, false, 99));
	set_known_avg(cfsr_replay_task(r, 61), 7000000000000ull + 1000000, 300);
	cfsr_replay_task(r, 61)->cpu = 1;
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	/* the report pending: no update since the switch */
	assert_true(g0->avg.last_update_time < 6000000000000ull + 4000000);
	while (f.next < f.n) {
		struct cfsr_event e = f.ev[f.next++];

		feed(r, e);
	}
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	if (gap > 5000) {
		assert_int_equal(g0->last_update_tg_load_avg, tick);
		assert_int_equal(g0->avg.load_avg,
				 g0->tg_load_avg_contrib + cfsr_replay_task(r, 61)->avg.load_avg);
	} else {
		assert_int_equal(g0->last_update_tg_load_avg, tick + gap);
		assert_int_equal(g0->tg_load_avg_contrib, g0->avg.load_avg);
	}
	cfsr_replay_free(r);
}

static void test_remote_settle(void **state)
{
	(void)state;
	remote_settle(11000);
	remote_settle(2000);
}

/*
 * 60 of /g runs on CPU 0 from t0 + 0.3 ms.  At t0 + 4.25 ms 99 on CPU 1
 * wakes 91 onto CPU 0, which asks CPU 0's next __schedule() to keep the
 * clock (RQCF_REQ_SKIP); 60 reports 4 ms of run time at t0 + 4.3 ms and
 * is switched out for 91 @gap later.  30 us later, no report of the
 * switch's own: the report was the tick's, whose walk publishes /g's load
 * into tg->load_avg (60's load grew since its enqueue's publication, more
 * than 1 ms before); the __schedule() that acted on the wakeup kept the
 * tick's clock and had no run time to report.  5 us later: the report is
 * the switch's own, put_prev_entity()'s walk, which publishes nothing.
 */
static void unreported_pick(uint64_t gap)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull, report = t0 + 4300000;
	const struct cfsr_cfs_rq *g0;
	uint64_t before;

	start_lone_in_g(r, t0, true);
	feed(r, ev_switch(t0 + 10000, 1, 0, 0, false, 99));
	feed(r, ev_waking(t0 + 4249000, 1, 99, 91, 0));
	feed(r, ev_wakeup(t0 + 4250000, 1, 99, 91, 0));
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	before = g0->last_update_tg_load_avg;
	assert_true(before < report - 1000000);
	feed(r, ev_runtime(report, 0, 60, 60, 4000000));
	feed(r, ev_switch(report + gap, 0, 60, 0, false, 91));
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	if (gap > 15000) {
		assert_int_equal(g0->last_update_tg_load_avg, report);
		assert_int_equal(g0->tg_load_avg_contrib, g0->avg.load_avg);
		assert_int_equal(cfsr_replay_stats(r)->unreported_picks, 1);
	} else {
		assert_int_equal(g0->last_update_tg_load_avg, before);
		assert_int_equal(cfsr_replay_stats(r)->unreported_picks, 0);
	}
	cfsr_replay_free(r);
}

static void test_unreported_pick(void **state)
{
	(void)state;
	unreported_pick(30000);
	unreported_pick(5000);
}

/*
 * An idle CPU 0 pulls two queued tasks from CPU 1 in one load balance,
 * 70 then 71.  On CPU 1, 72 runs from t0 at vruntime 0 and reports 4 ms
 * of run time at 4 ms; 70 and 71, woken there at 1 and 2 ms, are placed
 * at V = 0 (72's vruntime advances only at its reports here).  At the
 * detaches V is (4 ms + 0 + 0) / 3 = 1333333 ns, 70's lag, then
 * (4 ms + 0) / 2 = 2 ms, 71's.  attach_tasks() attaches the last detached
 * first: 71 on CPU 0's empty cfs_rq at its V, 0 (place_entity() applies
 * no lag on an empty cfs_rq), then 70 with its lag scaled by
 * (W + w) / W = 2: 71's vruntime less 70's is 2666666.  Without a look
 * ahead the engine cannot know a second migration comes and attaches in
 * the trace's order: 70 at 0, 71 at -4 ms.
 */
static void pull_two(bool peek)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 2000000000ull;
	const struct cfsr_event ev[] = {
		ev_switch(t0, 0, 0, 0, false, 0),
		ev_switch(t0, 1, 0, 0, false, 72),
		ev_wakeup(t0 + 1000000, 1, 72, 70, 1),
		ev_wakeup(t0 + 2000000, 1, 72, 71, 1),
		ev_runtime(t0 + 4000000, 1, 72, 72, 4000000),
		ev_migrate(t0 + 4100000, 0, 0, 70, 1, 0),
		ev_migrate(t0 + 4103000, 0, 0, 71, 1, 0),
	};
	struct ahead_feed f = { ev, sizeof(ev) / sizeof(ev[0]), 0 };
	const struct cfsr_task *a, *b;

	cfsr_replay_clock_sample(r, 0, t0, 3000000000000ull);
	cfsr_replay_clock_sample(r, 1, t0, 3000000000000ull);
	if (peek)
		cfsr_replay_set_peek(r, ahead_peek, &f);
	while (f.next < f.n) {
		struct cfsr_event e = f.ev[f.next++];

		feed(r, e);
	}
	a = cfsr_replay_task(r, 70);
	b = cfsr_replay_task(r, 71);
	assert_int_equal(a->cpu, 0);
	assert_int_equal(b->cpu, 0);
	if (peek) {
		assert_int_equal(b->vruntime, 0);
		assert_int_equal((int64_t)(b->vruntime - a->vruntime), 2 * (4000000 / 3));
	} else {
		assert_int_equal(a->vruntime, 0);
		assert_int_equal((int64_t)(b->vruntime - a->vruntime), -2 * 2000000);
	}
	assert_int_equal(cfsr_replay_stats(r)->pulls_reordered, peek ? 1 : 0);
	cfsr_replay_free(r);
}

static void test_pull_lifo(void **state)
{
	(void)state;
	pull_two(true);
	pull_two(false);
}

/*
 * The switch into task 61, woken onto an idle CPU, is lost; it ran from
 * the clock of its wakeup (the switch keeps it: RQCF_REQ_SKIP).  Its first
 * event (it wakes task 62 there, an enqueue that updates the root) comes
 * 2.5 ms after, its run-time report (2.52 ms) 20 us later.  With a look
 * ahead the engine places the switch where the report says it was, before
 * the enqueue: the root and the three tasks come out as with the switch
 * traced.  Without, the root aged as idle until the enqueue.
 */
static void test_recover_ahead(void **state)
{
	const uint64_t t0 = 3000000000ull;
	const struct cfsr_event lost[] = {
		ev_switch(t0, 0, 0, 0, false, 0),
		ev_wakeup(t0 + 100000, 0, 0, 61, 0),
		ev_wakeup(t0 + 2600000, 0, 61, 62, 0),
		ev_runtime(t0 + 2620000, 0, 61, 61, 2520000),
		ev_switch(t0 + 2621000, 0, 61, 0, true, 62),
		ev_runtime(t0 + 3621000, 0, 62, 62, 1000000),
		ev_wakeup(t0 + 3700000, 0, 62, 63, 0),
	};
	const struct cfsr_event seen[] = {
		ev_switch(t0, 0, 0, 0, false, 0),
		ev_wakeup(t0 + 100000, 0, 0, 61, 0),
		ev_switch(t0 + 120000, 0, 0, 0, false, 61),
		ev_wakeup(t0 + 2600000, 0, 61, 62, 0),
		ev_runtime(t0 + 2620000, 0, 61, 61, 2520000),
		ev_switch(t0 + 2621000, 0, 61, 0, true, 62),
		ev_runtime(t0 + 3621000, 0, 62, 62, 1000000),
		ev_wakeup(t0 + 3700000, 0, 62, 63, 0),
	};
	struct cfsr_replay *a = replay_all(lost, 7, true), *b = replay_all(seen, 8, false);
	struct cfsr_replay *c = replay_all(lost, 7, false);
	const struct cfsr_cfs_rq *ra = cfsr_replay_cfs_rq(a, "/", 0);
	const struct cfsr_cfs_rq *rb = cfsr_replay_cfs_rq(b, "/", 0);
	const struct cfsr_cfs_rq *rc = cfsr_replay_cfs_rq(c, "/", 0);

	(void)state;
	assert_int_equal(cfsr_replay_stats(a)->recovered_switches, 1);
	assert_avg_equal(&ra->avg, &rb->avg);
	assert_avg_equal(&cfsr_replay_task(a, 61)->avg, &cfsr_replay_task(b, 61)->avg);
	assert_avg_equal(&cfsr_replay_task(a, 62)->avg, &cfsr_replay_task(b, 62)->avg);
	assert_avg_equal(&cfsr_replay_task(a, 63)->avg, &cfsr_replay_task(b, 63)->avg);
	assert_int_equal(cfsr_replay_stats(c)->recovered_switches, 1);
	assert_true(rc->avg.util_sum + 2000 * 1024 < rb->avg.util_sum);
	cfsr_replay_free(a);
	cfsr_replay_free(b);
	cfsr_replay_free(c);
}

/*
 * Task 80, in /autogroup-5, woken at t0 + 100 us, runs alone from its
 * switch, whose clock is the wakeup's (rq_clock_skip_update(); 5e12 ns at
 * t0, 1:1); its run-time reports give the clock after.  It exits at t0 + 4.5 ms;
 * a tick reports at t0 + 8.12 ms, then sched_autogroup_exit_task()'s
 * dequeue at t0 + 9 ms; exit_notify() wakes task 81 (a report between the
 * waking and the wakeup), do_task_dead()'s dequeue reports and the dead
 * switch follows.  The move takes the task's signal out of the autogroup's
 * cfs_rq at the clock of the 9 ms report, 5e12 + 100 us + 8.88 ms: that cfs_rq,
 * empty from then on, keeps that last_update_time (whole 1024 ns steps
 * below it) and no load, and the task is in the root's group.  Without a
 * look ahead no report can be told to be the move's: the task stays in
 * the autogroup.
 */
static void test_exit_move(void **state)
{
	const uint64_t t0 = 3000000000ull, clock_move = 5000000000000ull + 100000ull + 8880000ull;
	struct cfsr_event exit = ev_head(t0 + 4500000, 0, 80, CFSR_EV_EXIT);
	struct cfsr_event waking = ev_wakeup(t0 + 9010000, 0, 80, 81, 0);
	const struct cfsr_cfs_rq *ag;
	struct cfsr_replay *a, *b;

	(void)state;
	exit.exit.pid = 80;
	waking.kind = CFSR_EV_WAKING;
	{
		const struct cfsr_event evs[] = {
			ev_wakeup(t0 + 100000, 0, 0, 80, 0),
			ev_switch(t0 + 120000, 0, 0, 0, false, 80),
			ev_runtime(t0 + 4120000, 0, 80, 80, 4000000),
			exit,
			ev_runtime(t0 + 8120000, 0, 80, 80, 4000000),
			ev_runtime(t0 + 9000000, 0, 80, 80, 880000),
			waking,
			ev_runtime(t0 + 9011000, 0, 80, 80, 11000),
			ev_wakeup(t0 + 9012000, 0, 80, 81, 0),
			ev_runtime(t0 + 9020000, 0, 80, 80, 9000),
			ev_switch(t0 + 9021000, 0, 80, 0x10, false, 81),
		};

		a = replay_in(evs, sizeof(evs) / sizeof(evs[0]), true, 80, "/autogroup-5");
		b = replay_in(evs, sizeof(evs) / sizeof(evs[0]), false, 80, "/autogroup-5");
	}
	assert_int_equal(cfsr_replay_stats(a)->exit_moves, 1);
	ag = cfsr_replay_cfs_rq(a, "/autogroup-5", 0);
	assert_non_null(ag);
	assert_true(ag->avg.last_update_time <= clock_move);
	assert_true(ag->avg.last_update_time + 1024 > clock_move);
	assert_int_equal(ag->avg.load_avg, 0);
	assert_int_equal(ag->avg.util_avg, 0);
	assert_int_equal(cfsr_replay_task(a, 80)->group, 0);
	assert_int_equal(cfsr_replay_stats(b)->exit_moves, 0);
	ag = cfsr_replay_cfs_rq(b, "/autogroup-5", 0);
	assert_non_null(ag);
	assert_int_equal(cfsr_replay_task(b, 80)->group, ag->group);
	cfsr_replay_free(a);
	cfsr_replay_free(b);
}

/*
 * Task 70 runs; task 71, woken on its CPU, preempts it by a switch the
 * trace lost with 70's run-time report; 71's first event is its report,
 * 1 ms of run time, which places the switch.  70 ran until then: its
 * update_curr() and put are made there, as with the switch traced (70
 * then waits, CFSR_TS_LEFT, until its next event; it is compared at the
 * put, before its next update).
 */
static void test_put_unseen(void **state)
{
	const uint64_t t0 = 3000000000ull;
	/* the switch and the put's report as the kernel emits them */
	const struct cfsr_event seen[] = {
		ev_switch(t0, 0, 0, 0, false, 70),
		ev_wakeup(t0 + 100000, 0, 70, 71, 0),
		ev_runtime(t0 + 200000, 0, 70, 70, 200000),
		ev_switch(t0 + 200000, 0, 70, 0, true, 71),
		ev_runtime(t0 + 1200000, 0, 71, 71, 1000000),
	};
	/* both lost */
	const struct cfsr_event lost[] = { seen[0], seen[1], seen[4] };
	struct cfsr_replay *a = replay_all(lost, 3, false), *b = replay_all(seen, 5, false);
	const struct cfsr_task *ta = cfsr_replay_task(a, 70), *tb = cfsr_replay_task(b, 70);

	(void)state;
	assert_int_equal(cfsr_replay_stats(a)->unseen_puts, 1);
	assert_int_equal(ta->state, CFSR_TS_LEFT);
	assert_int_equal(tb->state, CFSR_TS_QUEUED);
	assert_avg_equal(&ta->avg, &tb->avg);
	assert_int_equal(ta->vruntime, tb->vruntime);
	assert_true(ta->avg.util_sum > 0);
	cfsr_replay_free(a);
	cfsr_replay_free(b);
}

/*
 * A wakeup onto a CPU idle since its task blocked: the run-time chain
 * anchored the clock at the block, but 0.5 ms of it were stolen since; the
 * record of the enqueue (util_est_enqueue() fires sched_util_est_cfs_tp
 * before sched_wakeup) gives the clock of the enqueue, and the switch from
 * idle keeps it (rq_clock_skip_update()).
 */
static void test_wakeup_reading(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 8000000000000ull, t0 = 6000000000ull;
	struct cfsr_sched_avg want;
	struct cfsr_task *t;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0 + 1000, 0, 0, 0, false, 70));
	feed(r, ev_runtime(t0 + 1001000, 0, 70, 70, 1000000));
	feed(r, ev_switch(t0 + 1001100, 0, 70, 1, false, 0));
	/* the enqueue's record, 30 us before the wakeup: the chain would say c0 + 5 ms */
	cfsr_replay_clock_record(r, 0, t0 + 5001000, c0 + 4500000);
	feed(r, ev_wakeup(t0 + 5031000, 0, 0, 71, 0));
	t = cfsr_replay_task(r, 71);
	set_known_avg(t, c0 - 3000000, 250);
	want = t->avg;
	feed(r, ev_switch(t0 + 5060000, 0, 0, 0, false, 71));
	feed(r, ev_runtime(t0 + 6060000, 0, 71, 71, 1000000));
	feed(r, ev_switch(t0 + 6060100, 0, 71, 1, false, 0));
	cfsr_pelt_update_se(P, c0 + 4500000, &want, W0, false, 0, false);
	cfsr_pelt_update_se(P, c0 + 5500000, &want, W0, true, 1, true);
	assert_avg_equal(&t->avg, &want);
	cfsr_replay_free(r);
}

/*
 * A newidle balance: task 70 blocks on CPU0 (its dequeue reports at clock
 * c0 + 1 ms), and the balance pulls task 80, queued on CPU1, 20 us later
 * (the migration event comes from CPU0); attach_tasks() updated CPU0's
 * clock, so 80 is set running at the attach's clock (estimated at its
 * event: c0 + 1.02 ms), not at the dequeue's, where 70 was put.
 */
static void test_newidle_pull(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 6000000000000ull, c1 = 7000000000000ull, t0 = 4000000000ull;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	cfsr_replay_clock_sample(r, 1, t0, c1);
	feed(r, ev_switch(t0, 0, 0, 0, false, 70));
	feed(r, ev_switch(t0, 1, 0, 0, false, 81));
	feed(r, ev_wakeup(t0 + 100000, 1, 81, 80, 1));
	set_known_avg(cfsr_replay_task(r, 80), c1 - 1000000, 500);
	feed(r, ev_runtime(t0 + 1000000, 0, 70, 70, 1000000));
	feed(r, ev_migrate(t0 + 1020000, 0, 70, 80, 1, 0));
	feed(r, ev_switch(t0 + 1025000, 0, 70, 1, false, 80));
	assert_int_equal(cfsr_replay_task(r, 70)->exec_start, c0 + 1000000);
	assert_int_equal(cfsr_replay_task(r, 80)->cpu, 0);
	assert_int_equal(cfsr_replay_task(r, 80)->exec_start, c0 + 1020000);
	cfsr_replay_free(r);
}

/*
 * Task 60 of /g runs on CPU 0; its reports at t0 + 4.3 ms and 8.3 ms are
 * ticks, a period apart: the ticks' grid.  Task 72 wakes onto CPU 0 at
 * t0 + 10.9 ms and a report of task 60 follows 10 us later, more than half
 * a tick after the last one (not a read of its run time) and 1.39 ms off
 * the grid, with no switch: the wakeup asked for a reschedule
 * (check_preempt_wakeup_fair()), whose pick (pick_task_fair(): update_curr()
 * at every level) kept task 60.  No PELT update (a kept pick calls no
 * put_prev_entity()/set_next_entity()), no update_cfs_group(): task 60's
 * signal and its group entity's weight stay as the 8.3 ms tick left them.
 */
static void test_off_tick_pick(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull;
	struct cfsr_sched_avg want;
	uint64_t weight;

	(void)state;
	run_lone_in_g(r, t0, false);
	feed(r, ev_wakeup(t0 + 4400000, 1, 0, 71, 1));
	feed(r, ev_runtime(t0 + 8300000, 0, 60, 60, 4000000));
	feed(r, ev_wakeup(t0 + 8400000, 1, 0, 73, 1));
	want = cfsr_replay_task(r, 60)->avg;
	weight = cfsr_replay_cfs_rq(r, "/g", 0)->se_weight;
	assert_int_equal(cfsr_replay_stats(r)->off_tick_reports, 0);

	feed(r, ev_wakeup(t0 + 10900000, 0, 60, 72, 0));
	feed(r, ev_runtime(t0 + 10910000, 0, 60, 60, 2610000));
	feed(r, ev_wakeup(t0 + 11100000, 1, 0, 74, 1));
	assert_avg_equal(&cfsr_replay_task(r, 60)->avg, &want);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/g", 0)->se_weight, weight);
	assert_int_equal(cfsr_replay_stats(r)->off_tick_reports, 1);
	cfsr_replay_free(r);
}

/*
 * Task 60 of /g runs alone on CPU 0 and blocks: CPU 0 goes idle
 * (sched_balance_newidle(), whose update_next_balance() makes the next
 * tick's sched_balance_trigger() raise the periodic balance).  Task 70 of
 * the root group wakes there 1.6 ms later and runs; its tick 4 ms after
 * task 60's is followed by sched_balance_softirq()'s
 * update_blocked_averages(): /g's cfs_rq on CPU 0, with nothing queued,
 * decays to the tick's clock and publishes its load (update_tg_load_avg(),
 * a change above 1/64 of its contribution).  The expected signal is the
 * sleep's signal aged with no load to that clock (cfsr_pelt_update_cfs_rq()).
 * With the kernel's passes told instead (lock-step,
 * cfsr_replay_expect_blocked()), the tick makes none: /g's cfs_rq stays as
 * the sleep left it.
 */
static void run_blocked_after_newidle(bool told)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull;
	const struct cfsr_cfs_rq *g0;
	struct cfsr_sched_avg want;
	uint64_t contrib, tick_clock;

	if (told)
		cfsr_replay_expect_blocked(r);
	run_lone_in_g(r, t0, false);
	feed(r, ev_runtime(t0 + 4390000, 0, 60, 60, 90000));
	feed(r, ev_switch(t0 + 4400000, 0, 60, 1, false, 0));
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_false(g0->se_on_rq);
	assert_int_equal(g0->load_weight, 0);
	want = g0->avg;
	contrib = g0->tg_load_avg_contrib;
	assert_int_equal(contrib, want.load_avg);

	feed(r, ev_wakeup(t0 + 6000000, 0, 0, 70, 0));
	feed(r, ev_switch(t0 + 6050000, 0, 0, 0, false, 70));
	feed(r, ev_runtime(t0 + 8300000, 0, 70, 70, 2250000));
	tick_clock = cfsr_replay_task(r, 70)->exec_start;
	/* an event of CPU 1 more than 50 us later settles the report as a tick's */
	feed(r, ev_wakeup(t0 + 8400000, 1, 0, 71, 1));
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	if (told) {
		assert_avg_equal(&g0->avg, &want);
		assert_int_equal(g0->tg_load_avg_contrib, contrib);
		cfsr_replay_free(r);
		return;
	}
	assert_int_equal(cfsr_pelt_update_cfs_rq(P, tick_clock, &want, 0, 0, false), 1);
	assert_avg_equal(&g0->avg, &want);
	assert_true(contrib - want.load_avg > contrib / 64);
	assert_int_equal(g0->tg_load_avg_contrib, want.load_avg);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g0), (int64_t)want.load_avg);
	cfsr_replay_free(r);
}

static void test_blocked_after_newidle(void **state)
{
	(void)state;
	run_blocked_after_newidle(false);
	run_blocked_after_newidle(true);
}

/*
 * A record's exec_start for a running task with no update since the
 * model's switch into it is the switch's clock: the task's update at the
 * switch is made again there (from its signal before the switch: here
 * its wakeup's update at c0 + 100 us, then runnable 300 us, not running,
 * to the kernel's switch clock c0 + 400 us instead of the model's, the
 * wakeup's clock that the switch keeps), and the run-time chain starts
 * there.  A second reading of the same clock, or one after an update,
 * changes nothing.
 */
static void test_take_exec_start(void **state)
{
	const uint64_t c0 = 8000000000000ull, t0 = 6000000000ull;
	const struct cfsr_event evs[] = {
		ev_switch(t0, 0, 0, 0, false, 70),
		ev_runtime(t0 + 50000, 0, 70, 70, 50000),
		ev_switch(t0 + 50000, 0, 70, 1, false, 0),
		ev_wakeup(t0 + 100000, 0, 0, 71, 0),
	};
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	struct cfsr_sched_avg want;
	struct cfsr_task *t;
	size_t i;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		feed(r, evs[i]);
	t = cfsr_replay_task(r, 71);
	set_known_avg(t, c0 - 3000000, 250);
	want = t->avg;
	feed(r, ev_switch(t0 + 130000, 0, 0, 0, false, 71));
	t = cfsr_replay_task(r, 71);
	/* the switch kept the wakeup's clock (rq_clock_skip_update()) */
	assert_int_equal(t->exec_start, c0 + 100000);
	assert_int_equal(cfsr_replay_task_take_exec_start(r, t, c0 + 400000), 1);
	assert_int_equal(t->exec_start, c0 + 400000);
	cfsr_pelt_update_se(P, c0 + 100000, &want, W0, false, 0, false);
	cfsr_pelt_update_se(P, c0 + 400000, &want, W0, true, 1, false);
	assert_avg_equal(&t->avg, &want);
	assert_int_equal(cfsr_replay_task_take_exec_start(r, t, c0 + 400000), 0);
	feed(r, ev_runtime(t0 + 1130000, 0, 71, 71, 600000));
	assert_int_equal(t->exec_start, c0 + 1000000);
	assert_int_equal(cfsr_replay_task_take_exec_start(r, t, c0 + 1200000), 0);
	cfsr_replay_free(r);
}

/*
 * An idle CPU's own load balance pulls queued tasks in its softirq, in the
 * idle task's context, then wakes ksoftirqd and reschedules: the idle
 * context's events after the pull do not mean the pulled tasks ran and
 * left (observe_idle()), only that the CPU had not switched yet.  A task
 * woken onto the idle CPU and never seen running does leave so.
 */
static void test_idle_balance_pull_stays_queued(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 4000000000000ull, c1 = 5000000000000ull, t0 = 2000000000ull;
	const uint64_t tp = t0 + 5000000;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	cfsr_replay_clock_sample(r, 1, t0, c1);
	feed(r, ev_switch(t0 + 1000, 0, 0, 0, false, 0));
	feed(r, ev_switch(t0 + 1000, 1, 0, 0, false, 81));
	feed(r, ev_wakeup(t0 + 100000, 1, 81, 80, 1));
	feed(r, ev_wakeup(t0 + 110000, 1, 81, 82, 1));
	assert_int_equal(cfsr_replay_task(r, 80)->state, CFSR_TS_QUEUED);
	/* CPU 0, idle, pulls 80 and 82, then wakes its ksoftirqd (83) */
	feed(r, ev_migrate(tp, 0, 0, 82, 1, 0));
	feed(r, ev_migrate(tp + 4000, 0, 0, 80, 1, 0));
	feed(r, ev_waking(tp + 20000, 0, 0, 83, 0));
	feed(r, ev_wakeup(tp + 24000, 0, 0, 83, 0));
	/* 26 us after the pull, more than a wakeup handler's 20 us */
	feed(r, ev_switch(tp + 30000, 0, 0, 0, false, 83));
	assert_int_equal(cfsr_replay_task(r, 80)->state, CFSR_TS_QUEUED);
	assert_int_equal(cfsr_replay_task(r, 82)->state, CFSR_TS_QUEUED);
	assert_int_equal(cfsr_replay_task(r, 80)->cpu, 0);
	assert_int_equal(cfsr_replay_stats(r)->unseen_switch_outs, 0);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->h_nr_runnable, 3);
	/* 83 sleeps; a task woken onto CPU 0, never seen running, has left by the next idle event */
	feed(r, ev_switch(tp + 40000, 0, 83, 1, false, 80));
	feed(r, ev_wakeup(tp + 50000, 0, 80, 84, 0));
	feed(r, ev_switch(tp + 60000, 0, 80, 1, false, 82));
	feed(r, ev_switch(tp + 70000, 0, 82, 1, false, 0));
	feed(r, ev_waking(tp + 200000, 0, 0, 85, 1));
	assert_int_equal(cfsr_replay_task(r, 84)->state, CFSR_TS_LEFT);
	assert_int_equal(cfsr_replay_stats(r)->unseen_switch_outs, 1);
	cfsr_replay_free(r);
}

/*
 * Lock-step on two CPUs with their clocks read at @t0: CPU0 idle, 80
 * queued behind 81 on CPU1, then moved to CPU0 by a load balance.
 */
static struct cfsr_task *balance_to_idle(struct cfsr_replay *r, uint64_t c0, uint64_t c1,
					 uint64_t t0)
{
	cfsr_replay_clock_record(r, 0, t0, c0);
	cfsr_replay_clock_record(r, 1, t0, c1);
	feed(r, ev_switch(t0 + 1000, 0, 0, 0, false, 0));
	feed(r, ev_switch(t0 + 1000, 1, 0, 0, false, 81));
	feed(r, ev_wakeup(t0 + 100000, 1, 81, 80, 1));
	set_known_avg(cfsr_replay_task(r, 80), c1 - 1000000, 500);
	feed(r, ev_migrate(t0 + 200000, 0, 0, 80, 1, 0));
	return cfsr_replay_task(r, 80);
}

/*
 * A load balance moves a queued task from CPU1 to CPU0: detached at CPU1's
 * clock before the migration event, attached by attach_tasks() at CPU0's
 * clock after it, which the first record of CPU0 then gives: the task
 * takes the window of CPU0's root cfs_rq there, once the records of that
 * enqueue (the same clock) are in, at a record of a later update.
 */
static void test_balance_attach(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 6000000000000ull, c1 = 7000000000000ull, t0 = 4000000000ull;
	const struct cfsr_cfs_rq *root0;
	struct cfsr_task *t;

	(void)state;
	t = balance_to_idle(r, c0, c1, t0);
	assert_int_equal(t->cpu, 0);
	assert_true(t->attach_pending);
	cfsr_replay_clock_record(r, 0, t0 + 210000, c0 + 190000);
	/* the enqueue's records come in with that clock: the attach waits for them */
	cfsr_replay_clock_record(r, 0, t0 + 212000, c0 + 190000);
	assert_true(t->attach_pending);
	/* a record of a later update of CPU0 */
	cfsr_replay_clock_record(r, 0, t0 + 260000, c0 + 240000);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	assert_false(t->attach_pending);
	assert_int_equal(t->avg.last_update_time, (c0 + 190000) & ~1023ull);
	assert_int_equal(root0->avg.last_update_time, t->avg.last_update_time);
	assert_int_equal(root0->avg.load_avg, t->avg.load_avg);
	assert_int_equal(root0->load_weight, W0);
	cfsr_replay_free(r);
}

/*
 * The records of a load balance's enqueue on the destination come from
 * enqueue_entity()'s update_load_avg() (the DO_ATTACH), before
 * account_entity_enqueue() counts the task (v6.12-v6.18): a cfs_rq record
 * there without the moved task's weight is not a lost sleep.  The task is
 * off the cfs_rq until its attach, then counted again, still queued.  With
 * @moved_again, moved on before that attach (another balance, the stopper):
 * it was queued all along, and is queued where it goes.
 */
static void record_before_attach(bool moved_again)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t c0 = 6000000000000ull, c1 = 7000000000000ull, t0 = 4000000000ull;
	struct cfsr_cfs_rq *root0;
	struct cfsr_task *t;

	t = balance_to_idle(r, c0, c1, t0);
	assert_true(t->attach_pending);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	assert_int_equal(root0->load_weight, W0);
	cfsr_replay_clock_record(r, 0, t0 + 210000, c0 + 190000);
	/* the enqueue's record of the root: nothing queued yet */
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root0, 0, 0), 1);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	assert_int_equal(root0->load_weight, 0);
	assert_int_equal(cfsr_replay_stats(r)->attach_records_before, 1);
	assert_int_equal(cfsr_replay_stats(r)->lost_sleeps, 0);
	if (moved_again) {
		feed(r, ev_migrate(t0 + 215000, 1, 81, 80, 0, 1));
		t = cfsr_replay_task(r, 80);
		assert_false(t->requeue_at_attach);
		assert_int_equal(t->state, CFSR_TS_QUEUED);
		assert_int_equal(t->cpu, 1);
		assert_int_equal(root0->load_weight, 0);
		assert_int_equal(cfsr_replay_cfs_rq(r, "/", 1)->nr_queued, 2);
		cfsr_replay_free(r);
		return;
	}
	/* a record of a later update of CPU0: the attach, and the task counted */
	cfsr_replay_clock_record(r, 0, t0 + 260000, c0 + 240000);
	assert_false(t->attach_pending);
	assert_false(t->requeue_at_attach);
	assert_int_equal(t->state, CFSR_TS_QUEUED);
	assert_int_equal(t->cpu, 0);
	assert_int_equal(root0->load_weight, W0);
	assert_int_equal(root0->nr_queued, 1);
	assert_int_equal(root0->avg.load_avg, t->avg.load_avg);
	cfsr_replay_free(r);
}

static void test_balance_attach_record_before(void **state)
{
	(void)state;
	record_before_attach(false);
}

static void test_balance_attach_record_moved_again(void **state)
{
	(void)state;
	record_before_attach(true);
}

/*
 * A queued task moved to an idle CPU (move_queued_task(): sched_exec(), an
 * affinity change, the stopper's active balance): wakeup_preempt() after
 * the enqueue asks the idle CPU's __schedule() to keep the enqueue's clock
 * (rq_clock_skip_update()), so the task runs, in PELT's view, from the
 * enqueue.  Task 80, woken on CPU1 behind 81, is moved to idle CPU0 and
 * switched in there 40 us later (@delay) or at once; its report 1.04 ms
 * after the move gives the run time from the enqueue's clock either way,
 * and its signal comes out the same.
 */
static struct cfsr_replay *moved_to_idle(uint64_t delay)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull, tm = t0 + 200000;

	cfsr_replay_clock_sample(r, 0, t0, 6000000000000ull);
	cfsr_replay_clock_sample(r, 1, t0, 7000000000000ull);
	feed(r, ev_switch(t0 + 1000, 0, 0, 0, false, 0));
	feed(r, ev_switch(t0 + 1000, 1, 0, 0, false, 81));
	feed(r, ev_wakeup(t0 + 100000, 1, 81, 80, 1));
	set_known_avg(cfsr_replay_task(r, 80), 7000000000000ull - 1000000, 500);
	feed(r, ev_migrate(tm, 0, 0, 80, 1, 0));
	feed(r, ev_switch(tm + delay, 0, 0, 0, false, 80));
	feed(r, ev_runtime(tm + 1040000, 0, 80, 80, 1040000));
	feed(r, ev_runtime(tm + 1041000, 0, 80, 80, 1000));
	feed(r, ev_switch(tm + 1041000, 0, 80, 1, false, 0));
	return r;
}

static void test_moved_to_idle(void **state)
{
	struct cfsr_replay *a = moved_to_idle(40000), *b = moved_to_idle(0);
	const struct cfsr_task *ta = cfsr_replay_task(a, 80), *tb = cfsr_replay_task(b, 80);

	(void)state;
	assert_int_equal(ta->cpu, 0);
	assert_avg_equal(&ta->avg, &tb->avg);
	assert_true(ta->avg.util_sum > 0);
	cfsr_replay_free(a);
	cfsr_replay_free(b);
}

/*
 * EEVDF with a group entity on the root of one CPU (base slice 0.7 ms, a
 * 4 ms tick): root tasks A (70) and B (71), and C (72) in group "/g",
 * whose entity weighs 2 * NICE_0_LOAD (tg->shares, and the group alone on
 * its CPU takes all of them).  By hand, __calc_delta() at weight 2048:
 * inv_weight = (2^32 - 1) / 2048 = 2097151, fact = 1024 * 2097151 =
 * 2147482624 (< 2^32, shift 32), so calc_delta_fair(d) = d * 2147482624 >>
 * 32: 0.7 ms -> 349999, 2 ms -> 999999, 4 ms -> 1999999.
 * All three wake onto the empty root at V = 0: vruntimes 0, the group
 * entity's deadline 349999.  C runs 2 ms: the group entity, curr of the
 * root, advances 999999, past its deadline: renewed to 999999 + 349999.
 * C blocks: V at the root = (0 * 1024 + 0 * 1024 + 999999 * 2048) / 4096
 * = 499999 < 999999: the group entity, its cfs_rq empty, is not eligible
 * and stays queued, delayed; A runs next (eligible, earliest deadline,
 * 700000 as B's, met first).  The sums then hold B and the group entity:
 * 999999 * 2048 = 2047997952 over 3072.
 */
/*
 * One CPU: C (72) in group "/g", whose entity weighs 2 * NICE_0_LOAD, A
 * (70) and B (71) in the root; the three wake onto the idle CPU and @next
 * runs 2 ms.
 */
/* As group_of_three(), @next running @ran ns. */
static struct cfsr_replay *group_of_three_ran(const struct cfsr_profile *p, uint64_t t0, int next,
					      uint64_t ran)
{
	struct cfsr_replay *r = cfsr_replay_new(1, p, 250);
	struct cfsr_cfs_rq *g;

	/* the lags and picks below are by hand, with every lag 0 as placed */
	cfsr_replay_set_lag_inference(r, false);
	assert_int_equal(cfsr_replay_task_set_group(r, 72, "/g"), 1);
	g = cfsr_replay_cfs_rq(r, "/g", 0);
	cfsr_replay_group_take(r, g, 2 * W0, 0, 0, 2 * W0);
	cfsr_replay_clock_sample(r, 0, t0, 9000000000000ull);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	/* within IDLE_AFTER_WAKEUP_NS of each other: none ran unseen */
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 70, 0));
	feed(r, ev_wakeup(t0 + 105000, 0, 0, 72, 0));
	feed(r, ev_wakeup(t0 + 110000, 0, 0, 71, 0));
	feed(r, ev_switch(t0 + 115000, 0, 0, 0, false, next));
	feed(r, ev_runtime(t0 + 115000 + ran, 0, next, next, ran));
	return r;
}

static struct cfsr_replay *group_of_three(const struct cfsr_profile *p, uint64_t t0, int next)
{
	return group_of_three_ran(p, t0, next, 2000000);
}

static struct cfsr_replay *run_group_delayed(uint64_t t0)
{
	return group_of_three(prof(), t0, 72);
}

static void test_group_entity_eevdf(void **state)
{
	const uint64_t t0 = 5000000000ull;
	struct cfsr_replay *r = run_group_delayed(t0);
	const struct cfsr_cfs_rq *root = cfsr_replay_cfs_rq(r, "/", 0);
	const struct cfsr_cfs_rq *g = cfsr_replay_cfs_rq(r, "/g", 0);

	(void)state;
	assert_int_equal(g->se_weight, 2 * W0);
	assert_int_equal(g->se_vruntime, 999999);
	assert_int_equal(g->se_deadline, 999999 + 349999);
	feed(r, ev_switch(t0 + 2400100, 0, 72, 1, false, 70));
	assert_int_equal(cfsr_replay_task(r, 72)->state, CFSR_TS_SLEEPING);
	assert_true(g->se_on_rq);
	assert_true(g->se_delayed);
	assert_int_equal(cfsr_replay_stats(r)->gse_delayed, 1);
	assert_int_equal(root->load_weight, 4 * W0);
	assert_int_equal(cfsr_replay_task(r, 70)->state, CFSR_TS_RUNNING);
	assert_int_equal(root->zero_vruntime, 0);
	assert_int_equal(root->avg_vruntime, 2047997952);
	assert_int_equal(root->avg_load, 3072);
	cfsr_replay_free(r);
}

/*
 * After run_group_delayed() and C's sleep: A runs 1.5 ms, B 2 ms.  Before
 * the switch back to A, V = (1500000 + 999999 * 2 + 2000000) * 1024 / 4096
 * = 1374999: only the delayed group entity is eligible, so the pick
 * completes its dequeue (lag 375000, positive: dropped by DELAY_ZERO),
 * then picks again between A and B (V 1750000): A.  cfsr_replay_pick()
 * says A without changing anything; the switch does the dequeue.
 */
static void test_group_entity_pick(void **state)
{
	const uint64_t t0 = 5000000000ull;
	struct cfsr_replay *r = run_group_delayed(t0);
	const struct cfsr_cfs_rq *root = cfsr_replay_cfs_rq(r, "/", 0);
	const struct cfsr_cfs_rq *g = cfsr_replay_cfs_rq(r, "/g", 0);

	(void)state;
	feed(r, ev_switch(t0 + 2400100, 0, 72, 1, false, 70));
	feed(r, ev_runtime(t0 + 3900100, 0, 70, 70, 1500000));
	feed(r, ev_switch(t0 + 3900200, 0, 70, 0, true, 71));
	assert_int_equal(cfsr_replay_pick_tree(r, 0), 71);
	feed(r, ev_runtime(t0 + 5900200, 0, 71, 71, 2000000));
	assert_int_equal(cfsr_replay_pick_tree(r, 0), 70);
	assert_true(g->se_delayed);
	assert_int_equal(cfsr_replay_stats(r)->gse_delayed_picked, 0);
	feed(r, ev_switch(t0 + 5900300, 0, 71, 0, true, 70));
	assert_false(g->se_on_rq);
	assert_false(g->se_delayed);
	assert_int_equal(g->se_vlag, 0);
	assert_int_equal(cfsr_replay_stats(r)->gse_delayed_picked, 1);
	assert_int_equal(root->load_weight, 2 * W0);
	assert_int_equal(cfsr_replay_pick_tree(r, 0), 70);
	assert_int_equal(cfsr_replay_pick_tree(r, 1), CFSR_PICK_TREE_UNKNOWN);
	cfsr_replay_free(r);
}

/*
 * reweight_entity() of v6.13+ on the delayed group entity of
 * run_group_delayed() (queued, not running; A runs): its weight from 2048
 * to 1024.  Lag: V = 2047997952 / 4096 = 499999 (A at 0 counted as curr),
 * 499999 - 999999 = -500000 (within the 1999999 limit); relative deadline
 * 349999.  Both doubled (old / new = 2): vlag -1000000, 699998.
 * place_entity() without the entity: V = 0 over A and B (load 2048),
 * lag = -1000000 * (2048 + 1024) / 2048 = -1500000: vruntime 1500000,
 * deadline 1500000 + 699998.
 */
static void test_group_entity_reweight(void **state)
{
	const uint64_t t0 = 5000000000ull;
	struct cfsr_replay *r = run_group_delayed(t0);
	struct cfsr_cfs_rq *g = cfsr_replay_cfs_rq(r, "/g", 0);
	const struct cfsr_cfs_rq *root = cfsr_replay_cfs_rq(r, "/", 0);

	(void)state;
	feed(r, ev_switch(t0 + 2400100, 0, 72, 1, false, 70));
	cfsr_replay_group_take(r, g, W0, g->tg_load_avg_contrib, cfsr_replay_tg_load_avg(r, g), 0);
	assert_int_equal(g->se_weight, W0);
	assert_int_equal(g->se_vlag, -1000000);
	assert_int_equal(g->se_vruntime, 1500000);
	assert_int_equal(g->se_deadline, 1500000 + 699998);
	assert_false(g->se_rel_deadline);
	assert_int_equal(root->load_weight, 3 * W0);
	assert_int_equal(root->avg_load, 2048);
	assert_int_equal(root->avg_vruntime, 1500000ll * 1024);
	cfsr_replay_free(r);
}

/*
 * reweight_eevdf() of a queued group entity that does not run, 2048 to
 * 1024, for the v6.7 and v6.10 profiles (base slice 0.75 ms, no delayed
 * dequeue).  A (70), C (72, in "/g", entity weight 2048) and B (71) wake
 * onto the empty root: all at 0, C's entity with deadline
 * calc_delta_fair(750000) at 2048 = 374999.  A runs 2 ms: vruntime 2e6.
 * v6.9+ (V read with the entity): V = 2e6 * 1024 / 4096 = 500000, lag
 * 500000 (within the 1999999 clamp), doubled: vruntime 500000 - 1e6;
 * deadline 500000 + (374999 - 500000) * 2 = 249998.  v6.7 (V without the
 * waiting entity, over A and B): V = 1e6, lag 1e6 doubled: vruntime
 * -1e6; deadline 1e6 + (374999 - 1e6) * 2 = -250002.  Stable 6.6.4
 * carries eab03c23c2a1 and so v6.7's form, as does 6.8.0; 6.6.30 and
 * 6.8.9 carry v6.9's fixes (afae8002b4fd, 1560d1f6eb6b) and so its form;
 * 6.6.0-6.6.3 keep the vruntime 0 and scale the deadline relative to it:
 * 374999 * 2 = 749998.
 */
static void reweight_waiting_ran(const char *release, uint64_t ran, int64_t vruntime,
				 int64_t deadline)
{
	struct cfsr_replay *r =
		group_of_three_ran(cfsr_profile_for(release), 5000000000ull, 70, ran);
	struct cfsr_cfs_rq *g = cfsr_replay_cfs_rq(r, "/g", 0);

	assert_int_equal(g->se_vruntime, 0);
	assert_int_equal(g->se_deadline, 374999);
	cfsr_replay_group_take(r, g, W0, g->tg_load_avg_contrib, cfsr_replay_tg_load_avg(r, g), 0);
	assert_int_equal((int64_t)g->se_vruntime, vruntime);
	assert_int_equal((int64_t)g->se_deadline, deadline);
	cfsr_replay_free(r);
}

static void reweight_waiting(const char *release, int64_t vruntime, int64_t deadline)
{
	reweight_waiting_ran(release, 2000000, vruntime, deadline);
}

/*
 * The same after A ran 10 ms, past the lag clamp of 1560d1f6eb6b.  v6.9
 * form: V = 10e6 * 1024 / 4096 = 2.5e6, lag 2.5e6 clamped to
 * calc_delta_fair(max(2 * 750000, TICK_NSEC = 4e6)) at 2048 = 1999999,
 * doubled: vruntime 2.5e6 - 3999998 = -1499998; deadline 2.5e6 + (374999 -
 * 2.5e6) * 2 = -1750002.  v6.7 form: V = 10e6 * 1024 / 2048 = 5e6, lag
 * 5e6 unclamped: vruntime 5e6 - 10e6 = -5e6; deadline 5e6 + (374999 -
 * 5e6) * 2 = -4250002.
 */
static void test_reweight_eevdf_clamp(void **state)
{
	(void)state;
	reweight_waiting_ran("6.6.29", 10000000, -5000000, -4250002);
	reweight_waiting_ran("6.6.30", 10000000, -1499998, -1750002);
	reweight_waiting_ran("6.8.8", 10000000, -5000000, -4250002);
	reweight_waiting_ran("6.8.9", 10000000, -1499998, -1750002);
	reweight_waiting_ran("6.10", 10000000, -1499998, -1750002);
	reweight_waiting_ran("6.12.11", 10000000, -1499998, -1750002);
}

static void test_group_entity_reweight_eevdf(void **state)
{
	(void)state;
	reweight_waiting("6.10", -500000, 249998);
	reweight_waiting("6.7", -1000000, -250002);
	reweight_waiting("6.6.4", -1000000, -250002);
	reweight_waiting("6.6.29", -1000000, -250002);
	reweight_waiting("6.6.30", -500000, 249998);
	reweight_waiting("6.6.92", -500000, 249998);
	reweight_waiting("6.8.8", -1000000, -250002);
	reweight_waiting("6.8.9", -500000, 249998);
	reweight_waiting("6.9", -500000, 249998);
	/* 6.12.y keeps v6.9's form: 6d71a9c61604 left 6.12.11 at its -rc2 */
	reweight_waiting("6.12.30", -500000, 249998);
	reweight_waiting("6.6.3", 0, 749998);
}

/*
 * update_curr() in the enqueue path: C (72, in "/g", entity weight 2048)
 * runs from the clock of its wakeup, c0 + 100000 (the switch keeps it);
 * A (70, root) wakes 1 ms later (c0 + 1100000: the trace clock from the
 * instant the rq clock had c0 + 100000, the first wakeup's, not from the
 * switch 5 us after it).  enqueue_entity() on the root first advances the
 * running group entity: 1000000 * 2147482624 >> 32 = 499999 (see above),
 * so A is placed at V = 499999, not at 0.  C's report of 2 ms then
 * advances the entity from there: (2100000 - 1100000) = 1000000 ->
 * 499999, 999998 in all (999999 in one piece: the kernel truncates per
 * update).
 */
static void test_group_entity_enqueue_update_curr(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t t0 = 5000000000ull, c0 = 9000000000000ull;
	struct cfsr_cfs_rq *g;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 72, "/g"), 1);
	g = cfsr_replay_cfs_rq(r, "/g", 0);
	cfsr_replay_group_take(r, g, 2 * W0, 0, 0, 2 * W0);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 72, 0));
	feed(r, ev_switch(t0 + 105000, 0, 0, 0, false, 72));
	g = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_int_equal(g->se_vruntime, 0);
	assert_int_equal(g->se_exec_start, c0 + 100000);
	feed(r, ev_wakeup(t0 + 1100000, 0, 72, 70, 0));
	assert_int_equal(g->se_vruntime, 499999);
	assert_int_equal(g->se_exec_start, c0 + 1100000);
	assert_int_equal(cfsr_replay_task(r, 70)->vruntime, 499999);
	feed(r, ev_runtime(t0 + 2105000, 0, 72, 72, 2000000));
	assert_int_equal(cfsr_replay_task(r, 72)->vruntime, 2000000);
	assert_int_equal(g->se_vruntime, 999998);
	cfsr_replay_free(r);
}

/*
 * A CFS profile (v6.2-v6.5) keeps the group entity's CFS vruntime: placed
 * at the root's min_vruntime (0) with no known past (a group not seen
 * made: marked guessed), C's 2 ms advance it by calc_delta_fair() at 2048,
 * 999999 as above; its sleep takes the entity off the root at once (no
 * delayed dequeue); the EEVDF tree pick does not answer.
 */
static void test_group_entity_cfs_profile(void **state)
{
	struct cfsr_replay *r = group_of_three(cfsr_profile_for("6.5"), 5000000000ull, 72);
	const struct cfsr_cfs_rq *g = cfsr_replay_cfs_rq(r, "/g", 0);

	(void)state;
	assert_true(g->se_on_rq);
	assert_int_equal(g->se_vruntime, 999999);
	assert_true(g->se_vr_guessed);
	assert_int_equal(cfsr_replay_pick_tree(r, 0), CFSR_PICK_TREE_UNKNOWN);
	feed(r, ev_switch(5000000000ull + 2400100, 0, 72, 1, false, 70));
	assert_false(g->se_on_rq);
	assert_false(g->se_delayed);
	assert_int_equal(cfsr_replay_stats(r)->gse_delayed, 0);
	cfsr_replay_free(r);
}

/* ---- the group hierarchy: walks, steady states, moves, blocked load ------------------ */

/*
 * One CPU, nested groups: task 90 in /a/b, task 91 in /a.  Kernel counts
 * (enqueue_task_fair(), dequeue_entities(), v6.12-v6.18): cfs_rq->nr_queued
 * counts the entities queued on a cfs_rq itself (the engine's @nr_queued
 * tasks plus @nr_gse group entities), h_nr_queued and h_nr_runnable the
 * tasks at or below it.  90's wakeup queues every level: /a/b holds the
 * task, /a and the root one group entity each, one task at every level;
 * /a/b's entity carries h_nr_runnable 1 (se_update_runnable()).  91's
 * wakeup queues a task on /a, whose entity is already on the root: /a
 * holds two entities and two tasks, the root still one entity; /a's
 * load.weight is /a/b's entity's weight plus 91's.
 * Then 91 runs 1 ms and 90 0.5 ms (each alone at its level but for its
 * sibling on /a: both placed at /a's V = 0, so vruntimes 1 ms and 0.5 ms
 * at weight NICE_0_LOAD, /a/b's entity having the whole shares of a
 * group alone on its CPU).  90 blocks: alone on /a/b it is eligible and
 * leaves; /a/b empties and its entity, at 0.5 ms against /a's mean
 * 0.75 ms, is eligible too and leaves /a; /a keeps 91, so the walk stops
 * there: /a holds one entity, the root still /a's.
 */
static void test_group_walk_counts(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const struct cfsr_cfs_rq *root, *a, *ab;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 90, "/a/b"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 91, "/a"), 1);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 90, 0));
	root = cfsr_replay_cfs_rq(r, "/", 0);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	ab = cfsr_replay_cfs_rq(r, "/a/b", 0);
	assert_non_null(a);
	assert_non_null(ab);
	assert_ptr_equal(cfsr_replay_cfs_rq_parent(r, ab), a);
	assert_ptr_equal(cfsr_replay_cfs_rq_parent(r, a), root);
	assert_int_equal(ab->nr_queued + ab->nr_gse, 1);
	assert_int_equal(a->nr_queued + a->nr_gse, 1);
	assert_int_equal(root->nr_queued + root->nr_gse, 1);
	assert_int_equal(ab->h_nr_queued, 1);
	assert_int_equal(a->h_nr_queued, 1);
	assert_int_equal(root->h_nr_queued, 1);
	assert_int_equal(a->h_nr_runnable, 1);
	assert_true(ab->se_on_rq && a->se_on_rq);
	assert_int_equal(ab->load_weight, W0);
	assert_int_equal(ab->se_runnable, 1);

	feed(r, ev_wakeup(t0 + 105000, 0, 0, 91, 0));
	assert_int_equal(a->nr_queued, 1);
	assert_int_equal(a->nr_gse, 1);
	assert_int_equal(a->h_nr_queued, 2);
	assert_int_equal(root->nr_queued + root->nr_gse, 1);
	assert_int_equal(root->h_nr_queued, 2);
	assert_int_equal(root->h_nr_runnable, 2);
	assert_int_equal(a->se_runnable, 2);
	assert_int_equal(ab->se_weight, W0);
	assert_int_equal(a->load_weight, ab->se_weight + W0);

	feed(r, ev_switch(t0 + 110000, 0, 0, 0, false, 91));
	feed(r, ev_runtime(t0 + 1110000, 0, 91, 91, 1000000));
	feed(r, ev_switch(t0 + 1110100, 0, 91, 0, true, 90));
	feed(r, ev_runtime(t0 + 1610100, 0, 90, 90, 500000));
	feed(r, ev_switch(t0 + 1610200, 0, 90, 1, false, 91));
	assert_int_equal(cfsr_replay_task(r, 90)->state, CFSR_TS_SLEEPING);
	assert_false(ab->se_on_rq);
	assert_false(ab->se_delayed);
	assert_true(a->se_on_rq);
	assert_int_equal(ab->h_nr_queued, 0);
	assert_int_equal(a->nr_queued + a->nr_gse, 1);
	assert_int_equal(a->h_nr_queued, 1);
	assert_int_equal(a->h_nr_runnable, 1);
	assert_int_equal(root->nr_queued + root->nr_gse, 1);
	assert_int_equal(root->h_nr_queued, 1);
	assert_int_equal(root->h_nr_runnable, 1);
	assert_int_equal(a->load_weight, W0);
	assert_int_equal(a->se_runnable, 1);
	assert_int_equal(root->load_weight, a->se_weight);
	cfsr_replay_free(r);
}

/* Task @pid, running on CPU 0, reports @run of run time at @ts and blocks, the CPU idle. */
static void run_and_block(struct cfsr_replay *r, uint64_t ts, int pid, uint64_t run)
{
	feed(r, ev_runtime(ts, 0, pid, pid, run));
	feed(r, ev_switch(ts + 100, 0, pid, 1, false, 0));
	assert_int_equal(cfsr_replay_task(r, pid)->state, CFSR_TS_SLEEPING);
}

/*
 * run_until_delayed() with both tasks in /a/b: the same vruntimes on /a/b
 * as on the root there, so A blocks not eligible and stays queued,
 * delayed.  set_delayed() takes it out of h_nr_runnable at every level,
 * not out of h_nr_queued, and leaves the group entities' runnable_weight
 * as the last enqueue walk copied it (2): only an enqueue or dequeue walk
 * refreshes it (se_update_runnable()).  The pick that completes A's
 * dequeue (B's sleep) then empties every level.
 */
static void test_group_delayed_counts(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const struct cfsr_cfs_rq *root, *a, *ab;
	struct cfsr_sched_avg want;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 50, "/a/b"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 51, "/a/b"), 1);
	run_until_delayed(r, c0, t0, &want);
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_DELAYED);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	ab = cfsr_replay_cfs_rq(r, "/a/b", 0);
	assert_int_equal(ab->nr_queued, 2);
	assert_int_equal(ab->nr_delayed, 1);
	assert_int_equal(ab->load_weight, 2 * W0);
	assert_int_equal(ab->h_nr_queued, 2);
	assert_int_equal(ab->h_nr_runnable, 1);
	assert_int_equal(a->h_nr_queued, 2);
	assert_int_equal(a->h_nr_runnable, 1);
	assert_int_equal(root->h_nr_queued, 2);
	assert_int_equal(root->h_nr_runnable, 1);
	assert_int_equal(ab->se_runnable, 2);
	assert_int_equal(a->se_runnable, 2);

	run_and_block(r, t0 + 3900300, 51, 1000000);
	assert_int_equal(cfsr_replay_task(r, 50)->state, CFSR_TS_SLEEPING);
	assert_int_equal(root->h_nr_queued, 0);
	assert_int_equal(root->load_weight, 0);
	assert_false(a->se_on_rq || ab->se_on_rq);
	cfsr_replay_free(r);
}

/*
 * A propagation series through two new levels: task 99, asleep in the
 * root group, its signal set to load 512, util 300, runnable 400 at PELT
 * clock C (period_contrib 1000: divider 46718 + 1000 = 47718), moves to
 * /a/b (sched_move_task()) at C, where /a and /a/b have never been met:
 * their cfs_rqs and group entities start at zero on the same grid, so no
 * aging changes anything and every value follows from the attach and the
 * propagation.  By hand (attach_entity_load_avg(),
 * update_tg_cfs_util/runnable/load() of v6.18):
 * - the task attaches to /a/b: util_sum 300 * 47718 = 14315400, runnable
 *   400 * 47718 = 19087200, load_sum 512 * 47718 / 1024 = 23859; /a/b's
 *   load_sum 1024 * 23859 = 24431616, prop +23859, published 512;
 * - /a/b's entity on /a: util and runnable copied (14315400, 19087200);
 *   load rs = 23859 + 0 = 23859 (above 14315400 >> 10 = 13979), load_sum
 *   1024 * 23859 = 24431616, load_avg / 47718 = 512 exactly; /a
 *   load_avg 512, load_sum 24431616 (above 512 * 46718), published 512;
 * - /a's entity on the root: the same numbers.
 * No update_cfs_group() on this path: the entities keep NICE_0_LOAD.
 */
/* An entity of the series: the task's signal on /a/b's window, carried up. */
static void assert_series_entity(const struct cfsr_sched_avg *se)
{
	assert_int_equal(se->load_sum, 23859);
	assert_int_equal(se->load_avg, 512);
	assert_int_equal(se->util_sum, 14315400);
	assert_int_equal(se->runnable_sum, 19087200);
}

/* A cfs_rq of the series: the task's load alone, published. */
static void assert_series_cfs_rq(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	assert_int_equal(cfs->avg.load_sum, 24431616);
	assert_int_equal(cfs->avg.load_avg, 512);
	assert_int_equal(cfs->avg.util_sum, 14315400);
	assert_int_equal(cfs->avg.util_avg, 300);
	assert_int_equal(cfs->avg.runnable_avg, 400);
	assert_int_equal(cfs->tg_load_avg_contrib, 512);
	assert_int_equal(cfsr_replay_tg_load_avg(r, cfs), 512);
}

static void test_group_propagation_series(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t c0 = 5000000000000ull, t0 = 3000000000ull;
	const uint64_t C = 1024 * ((((c0 + 10000000) >> 20) << 10) + 1000);
	/*
	 * The switch kept the wakeup's clock (c0 + 100 us at t0 + 110 us), so
	 * the idle CPU's clock runs 10 us behind c0 + (ts - t0) from there.
	 */
	const uint64_t ts = t0 + 10000 + (C - c0);
	const struct cfsr_cfs_rq *a, *ab;
	struct cfsr_task *t;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 99, 0));
	feed(r, ev_switch(t0 + 110000, 0, 0, 0, false, 99));
	run_and_block(r, t0 + 1110000, 99, 1000000);
	t = cfsr_replay_task(r, 99);
	set_known_avg(t, C, 0);
	t->avg.load_avg = 512;
	t->avg.util_avg = 300;
	t->avg.runnable_avg = 400;
	assert_int_equal(t->avg.period_contrib, 1000);
	assert_int_equal(cfsr_replay_task_move_group(r, 99, "/a/b", ts), 1);

	t = cfsr_replay_task(r, 99);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	ab = cfsr_replay_cfs_rq(r, "/a/b", 0);
	assert_non_null(a);
	assert_non_null(ab);
	assert_int_equal(t->avg.last_update_time, C);
	assert_series_entity(&t->avg);
	assert_series_cfs_rq(r, ab);
	assert_series_entity(&ab->se_avg);
	assert_series_cfs_rq(r, a);
	assert_series_entity(&a->se_avg);
	assert_false(ab->propagate);
	assert_false(a->propagate);
	assert_int_equal(ab->se_weight, W0);
	assert_int_equal(a->se_weight, W0);
	cfsr_replay_free(r);
}

/*
 * Always-busy tasks: @pid[i] on CPU i (of @n), each switched in on its
 * idle CPU and reporting 4 ms of run time every 4 ms (a tick's, as no
 * other event of its CPU follows) for @ns; CPU i's events lag CPU 0's by
 * i * 100 us.
 */
static void run_busy(struct cfsr_replay *r, const int *pid, int n, uint64_t ns)
{
	const uint64_t t0 = 4000000000ull, c0 = 6000000000000ull, tick = 4000000;
	uint64_t k, off;
	int i;

	for (i = 0; i < n; i++) {
		off = (uint64_t)i * 100000;
		cfsr_replay_clock_sample(r, i, t0, c0 + (uint64_t)i * 1000000000000ull);
		feed(r, ev_switch(t0 + off, i, 0, 0, false, 0));
	}
	for (i = 0; i < n; i++) {
		off = (uint64_t)i * 100000;
		feed(r, ev_wakeup(t0 + 1000000 + off, i, 0, pid[i], i));
		feed(r, ev_switch(t0 + 1010000 + off, i, 0, 0, false, pid[i]));
	}
	for (k = 1; k * tick <= ns; k++)
		for (i = 0; i < n; i++)
			feed(r, ev_runtime(t0 + 1010000 + (uint64_t)i * 100000 + k * tick, i,
					   pid[i], pid[i], tick));
	cfsr_replay_settle_ticks(r, t0 + 1010000 + k * tick);
}

/*
 * Two groups of cpu.shares 2048 and 256, one busy task each, /ga's on CPU
 * 0 and /gb's on CPU 1.  Each group carries load on one CPU only, so
 * calc_group_shares() gives tg_weight = its load there and the entity
 * all the group's shares (the "UP" collapse): 2048 << 10 and 256 << 10.
 * /ga never runs on CPU 1: no entity of it queued there.  After 2 s of
 * running, each root cfs_rq's load_avg is its group entity's 10-bit
 * weight times a runnable fraction of 1 less the series' tail, within 1 %.
 */
static void test_group_two_groups_two_cpus(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const int pid[2] = { 94, 95 };
	const struct cfsr_cfs_rq *ga0, *ga1, *gb1, *root0, *root1;

	(void)state;
	assert_int_equal(cfsr_replay_group_shares(r, "/ga", 2048 * 1024), 0);
	assert_int_equal(cfsr_replay_group_shares(r, "/gb", 256 * 1024), 0);
	assert_int_equal(cfsr_replay_task_set_group(r, 94, "/ga"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 95, "/gb"), 1);
	run_busy(r, pid, 2, 2000000000ull);
	ga0 = cfsr_replay_cfs_rq(r, "/ga", 0);
	ga1 = cfsr_replay_cfs_rq(r, "/ga", 1);
	gb1 = cfsr_replay_cfs_rq(r, "/gb", 1);
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	root1 = cfsr_replay_cfs_rq(r, "/", 1);
	assert_int_equal(ga0->se_weight, 2048 * 1024);
	assert_int_equal(gb1->se_weight, 256 * 1024);
	assert_true(!ga1 || !ga1->se_on_rq);
	print_message("root load_avg: cpu0 %llu (weight 2048), cpu1 %llu (weight 256)\n",
		      (unsigned long long)root0->avg.load_avg,
		      (unsigned long long)root1->avg.load_avg);
	assert_in_range(root0->avg.load_avg, 2048 * 99 / 100, 2048);
	assert_in_range(root1->avg.load_avg, 256 * 99 / 100, 256);
	cfsr_replay_free(r);
}

/*
 * One group of the default shares busy on both CPUs: each CPU's load is
 * about 1024, tg->load_avg about 2048, so each entity gets about half of
 * NICE_0_LOAD (524288), within 1 %, and tg->load_avg holds both CPUs'
 * published load within 2 %.
 */
static void test_group_one_group_two_cpus(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const int pid[2] = { 96, 97 };
	const struct cfsr_cfs_rq *g0, *g1;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 96, "/g"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 97, "/g"), 1);
	run_busy(r, pid, 2, 2000000000ull);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	g1 = cfsr_replay_cfs_rq(r, "/g", 1);
	print_message("group entity weights %llu and %llu, tg load_avg %lld\n",
		      (unsigned long long)g0->se_weight, (unsigned long long)g1->se_weight,
		      (long long)cfsr_replay_tg_load_avg(r, g0));
	assert_in_range(g0->se_weight, 524288 * 99 / 100, 524288 * 101 / 100);
	assert_in_range(g1->se_weight, 524288 * 99 / 100, 524288 * 101 / 100);
	assert_in_range(cfsr_replay_tg_load_avg(r, g0), 2048 * 98 / 100, 2048);
	cfsr_replay_free(r);
}

static struct cfsr_event ev_setprio(uint64_t ts, int cpu, int ctx, int which, int who, int nice)
{
	struct cfsr_event e = ev_head(ts, cpu, ctx, CFSR_EV_SETPRIORITY);

	e.setprio.which = which;
	e.setprio.who = who;
	e.setprio.niceval = nice;
	return e;
}

/* reweight_entity()'s se->avg.load_avg: se_weight * load_sum / get_pelt_divider() */
static uint64_t load_avg_of(const struct cfsr_sched_avg *sa, uint64_t weight)
{
	return (weight >> 10) * sa->load_sum / (47742 - 1024 + sa->period_contrib);
}

/*
 * A kernel reading of a SCHED_IDLE task's weight (set_load_weight():
 * scale_load(WEIGHT_IDLEPRIO) = 3 << 10 = 3072, whatever its nice; the
 * sched_switch prio stays 120).  Task 10 runs on CPU 0, task 11 waits
 * there: the root holds 2 * 1048576 until the reading of 10's weight,
 * then 1048576 + 3072; the prio stays 120.  A child 10 forks keeps the
 * policy (sched_fork() copies it).  A reading of nice 0's weight ends it;
 * one of a weight no nice level or SCHED_IDLE has is not taken.
 */
static void test_take_weight_idle(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	struct cfsr_task *t;
	struct cfsr_event e;

	(void)state;
	feed(r, ev_wakeup(1000000, 0, 0, 10, 0));
	feed(r, ev_switch(1100000, 0, 0, 0, false, 10));
	feed(r, ev_wakeup(1200000, 0, 10, 11, 0));
	t = cfsr_replay_task(r, 10);
	assert_int_equal(t->state, CFSR_TS_RUNNING);
	assert_int_equal(cfsr_replay_task(r, 11)->state, CFSR_TS_QUEUED);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->load_weight, 2 * W0);
	assert_int_equal(cfsr_replay_task_take_weight(r, t, 3 << 10), 1);
	assert_int_equal(t->load_weight, 3 << 10);
	assert_true(t->idle_policy);
	assert_int_equal(t->prio, 120);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->load_weight, W0 + (3 << 10));
	assert_int_equal(cfsr_replay_task_take_weight(r, t, 3 << 10), 0);
	memset(&e, 0, sizeof(e));
	e.kind = CFSR_EV_FORK;
	e.ts = 1300000;
	e.pid = 10;
	e.fork.parent_pid = 10;
	e.fork.child_pid = 12;
	feed(r, e);
	assert_int_equal(cfsr_replay_task(r, 12)->load_weight, 3 << 10);
	t = cfsr_replay_task(r, 10);
	assert_int_equal(cfsr_replay_task_take_weight(r, t, W0), 1);
	assert_false(t->idle_policy);
	assert_int_equal(t->load_weight, W0);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->load_weight, 2 * W0);
	assert_int_equal(cfsr_replay_task_take_weight(r, t, 12345), 0);
	assert_int_equal(t->load_weight, W0);
	cfsr_replay_free(r);
}

/*
 * set_user_nice() of a running task in a group, nice 0 -> 5, the group busy
 * on both CPUs (test_group_one_group_two_cpus()).  setpriority(PRIO_PROCESS,
 * 0, 5) by task 96 on CPU 0: its weight becomes 335 << 10 = 343040, its
 * load_avg 335 * load_sum / (LOAD_AVG_MAX - 1024 + period_contrib); /g's
 * cfs_rq on CPU 0, which held task 96 alone (load_avg about 1024), drops to
 * the task's new load_avg (both on one window: within the rounding of the
 * two series, 2); its load.weight is 343040; the group entity is
 * reweighted by calc_group_shares() at the enqueue: load = max(335,
 * load_avg), tg_weight = tg->load_avg - tg_load_avg_contrib + load, shares
 * = 1048576 * load / tg_weight, about 1048576 * 335 / (1024 + 335).  A
 * PRIO_USER call, a nice value out of range (clamped to 19) for a task
 * already there, and the same nice again change nothing more.
 */
static void test_set_nice_running(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const int pid[2] = { 96, 97 };
	const uint64_t ts = 4000000000ull + 1010000 + 500 * 4000000ull + 1000000;
	const struct cfsr_cfs_rq *g0;
	const struct cfsr_task *a;
	uint64_t load, tg_weight;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 96, "/g"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 97, "/g"), 1);
	run_busy(r, pid, 2, 2000000000ull);
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	a = cfsr_replay_task(r, 96);
	assert_int_equal(a->state, CFSR_TS_RUNNING);
	assert_in_range(g0->avg.load_avg, 1000, 1024);
	feed(r, ev_setprio(ts, 0, 96, 2, 0, 5));
	assert_int_equal(a->load_weight, W0);
	feed(r, ev_setprio(ts, 0, 96, 0, 0, 5));
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	a = cfsr_replay_task(r, 96);
	assert_int_equal(a->prio, 125);
	assert_int_equal(a->load_weight, 343040);
	assert_int_equal(a->state, CFSR_TS_RUNNING);
	assert_int_equal(a->avg.load_avg, load_avg_of(&a->avg, 343040));
	assert_in_range(a->avg.load_avg, 320, 335);
	assert_in_range(g0->avg.load_avg, a->avg.load_avg, a->avg.load_avg + 2);
	assert_int_equal(g0->load_weight, 343040);
	load = g0->avg.load_avg > 335 ? g0->avg.load_avg : 335;
	tg_weight = (uint64_t)cfsr_replay_tg_load_avg(r, g0) - g0->tg_load_avg_contrib + load;
	print_message("group entity weight %llu, load %llu, tg_weight %llu\n",
		      (unsigned long long)g0->se_weight, (unsigned long long)load,
		      (unsigned long long)tg_weight);
	assert_int_equal(g0->se_weight, 1048576 * load / tg_weight);
	assert_in_range(g0->se_weight, 1048576 * 335 / (1024 + 335) * 98 / 100,
			1048576 * 335 / (1024 + 335) * 102 / 100);
	assert_int_equal(cfsr_replay_stats(r)->nice_changes, 1);
	feed(r, ev_setprio(ts + 1000, 0, 96, 0, 96, 5));
	feed(r, ev_setprio(ts + 2000, 0, 96, 0, 0, 1000));
	assert_int_equal(a->prio, 139);
	assert_int_equal(cfsr_replay_stats(r)->nice_changes, 2);
	assert_int_equal(cfsr_replay_stats(r)->setprio_other, 2);
	cfsr_replay_free(r);
}

/*
 * set_user_nice() of a sleeping task: reweight_task_fair() still runs
 * reweight_entity(), with no update of any level.  Task 97 sleeps on CPU 1
 * (alone, so eligible: dequeued, not delayed); task 96 calls
 * setpriority(PRIO_PROCESS, 97, 5).  Task 97's averages stay on their
 * window, its load_avg becomes 335 * load_sum / divider; /g's cfs_rq on
 * CPU 1 loses the old load_avg and gains the new one (dequeue_load_avg(),
 * enqueue_load_avg()): load_avg - old + new; load_sum - 1024 * load_sum,
 * raised to the reduced load_avg * PELT_MIN_DIVIDER, + 335 * load_sum; its
 * last_update_time, load.weight (0) and the group entity's weight do not
 * change.
 */
static void test_set_nice_sleeping(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const int pid[2] = { 96, 97 };
	const uint64_t ts = 4000000000ull + 1010000 + 500 * 4000000ull + 1000000;
	struct cfsr_sched_avg t_before, g_before;
	const struct cfsr_cfs_rq *g1;
	const struct cfsr_task *b;
	uint64_t se_weight, want_avg, want_sum;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 96, "/g"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 97, "/g"), 1);
	run_busy(r, pid, 2, 2000000000ull);
	feed(r, ev_runtime(ts, 1, 97, 97, 1000000));
	feed(r, ev_switch(ts + 100, 1, 97, 1, false, 0));
	b = cfsr_replay_task(r, 97);
	assert_int_equal(b->state, CFSR_TS_SLEEPING);
	g1 = cfsr_replay_cfs_rq(r, "/g", 1);
	t_before = b->avg;
	g_before = g1->avg;
	se_weight = g1->se_weight;
	assert_int_equal(g1->load_weight, 0);
	feed(r, ev_setprio(ts + 50000, 0, 96, 0, 97, 5));
	assert_int_equal(b->load_weight, 343040);
	assert_int_equal(b->avg.last_update_time, t_before.last_update_time);
	assert_int_equal(b->avg.load_sum, t_before.load_sum);
	assert_int_equal(b->avg.load_avg, load_avg_of(&t_before, 343040));
	/* dequeue_load_avg(), its floor, then enqueue_load_avg() */
	want_avg = g_before.load_avg - t_before.load_avg;
	want_sum = g_before.load_sum - 1024 * t_before.load_sum;
	if (want_sum < want_avg * (47742 - 1024))
		want_sum = want_avg * (47742 - 1024);
	want_avg += b->avg.load_avg;
	want_sum += 335 * t_before.load_sum;
	print_message("cfs_rq load_avg %llu -> %llu\n", (unsigned long long)g_before.load_avg,
		      (unsigned long long)g1->avg.load_avg);
	assert_true(g_before.load_avg > t_before.load_avg);
	assert_int_equal(g1->avg.load_avg, want_avg);
	assert_int_equal(g1->avg.load_sum, want_sum);
	assert_int_equal(g1->avg.last_update_time, g_before.last_update_time);
	assert_int_equal(g1->load_weight, 0);
	assert_int_equal(g1->se_weight, se_weight);
	cfsr_replay_free(r);
}

/*
 * A marker on @cpu at @ts (no scheduler path): it makes the blocked-load
 * walk a hint left pending on that CPU.
 */
static void feed_marker(struct cfsr_replay *r, uint64_t ts, int cpu)
{
	feed(r, ev_head(ts, cpu, 0, CFSR_EV_MARKER));
}

/*
 * sched_move_task() of a running task, then the blocked-load walk.  Task
 * 93 runs alone in /a for 0.5 s; moved to /b while running, its signal
 * leaves /a's cfs_rq and joins /b's, which had nothing: /b's cfs_rq holds
 * exactly the task's load on the task's window, /a keeps at most the
 * rounding of the detach (2), no weight, no running entity.  The task
 * then sleeps and the CPU stays idle: __update_blocked_fair() every 8 ms
 * (cfsr_replay_blocked_hint()) decays /b's cfs_rq, its group entity and
 * the group's published load to 0, and later the sums themselves, after
 * which no cfs_rq of the CPU is left on the leaf list (nothing to decay).
 */
static void test_group_move_and_blocked(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const int pid[1] = { 93 };
	const uint64_t t0 = 4000000000ull, c0 = 6000000000000ull;
	const struct cfsr_cfs_rq *a, *b;
	const struct cfsr_task *t;
	uint64_t ts, end;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 93, "/a"), 1);
	run_busy(r, pid, 1, 500000000ull);
	t = cfsr_replay_task(r, 93);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	assert_in_range(a->avg.load_avg, t->avg.load_avg - 2, t->avg.load_avg + 2);

	/* the last report came at t0 + 501.01 ms */
	ts = t0 + 501500000;
	assert_int_equal(cfsr_replay_task_move_group(r, 93, "/b", ts), 1);
	t = cfsr_replay_task(r, 93);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	b = cfsr_replay_cfs_rq(r, "/b", 0);
	assert_non_null(b);
	assert_int_equal(t->state, CFSR_TS_RUNNING);
	assert_int_equal(t->group, b->group);
	assert_int_equal(t->avg.last_update_time, b->avg.last_update_time);
	assert_int_equal(b->avg.load_avg, t->avg.load_avg);
	assert_in_range(a->avg.load_avg, 0, 2);
	assert_int_equal(a->load_weight, 0);
	assert_int_equal(b->curr, 93);
	assert_int_equal(a->curr, 0);

	run_and_block(r, t0 + 502010000, 93, 1000000);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	b = cfsr_replay_cfs_rq(r, "/b", 0);
	for (ts = t0 + 510000000, end = t0 + 4000000000ull;
	     ts < end && (b->avg.load_avg || b->se_avg.load_avg || b->tg_load_avg_contrib);
	     ts += 8000000) {
		cfsr_replay_blocked_hint(r, 0, ts, c0 + (ts - t0));
		feed_marker(r, ts + 1000, 0);
		a = cfsr_replay_cfs_rq(r, "/a", 0);
		b = cfsr_replay_cfs_rq(r, "/b", 0);
	}
	print_message("blocked load gone after %.3f s\n", (double)(ts - t0 - 502010100) / 1e9);
	assert_true(ts < end);
	assert_int_equal(b->avg.load_avg, 0);
	assert_int_equal(b->se_avg.load_avg, 0);
	assert_int_equal(b->tg_load_avg_contrib, 0);
	assert_int_equal(cfsr_replay_tg_load_avg(r, b), 0);
	for (end = t0 + 8000000000ull;
	     ts < end && (b->avg.load_sum || b->avg.util_sum || b->avg.runnable_sum ||
			  a->avg.load_sum || a->avg.util_sum || a->avg.runnable_sum);
	     ts += 8000000) {
		cfsr_replay_blocked_hint(r, 0, ts, c0 + (ts - t0));
		feed_marker(r, ts + 1000, 0);
		a = cfsr_replay_cfs_rq(r, "/a", 0);
		b = cfsr_replay_cfs_rq(r, "/b", 0);
	}
	print_message("sums gone (off the leaf list) after %.3f s\n",
		      (double)(ts - t0 - 502010100) / 1e9);
	assert_true(ts < end);
	cfsr_replay_free(r);
}

/*
 * A newly-idle balance between a task's dequeue and its switch out
 * (v6.12-v6.18: try_to_block_task() dequeues, then the pick's
 * sched_balance_newidle() pulls, then the pick's update_curr(), then the
 * switch): task 70 on CPU 0 reports its run time (the dequeue's, clock
 * c0 + 1.95 ms), CPU 0 pulls task 72 from CPU 1, 70 reports again 21 us later
 * (the pick's), and switches out asleep to 72.  With the look ahead the
 * dequeue's update is made at the first report: 70's signal ends there, a
 * 1024 ns window before the second report's; without it, at the second.
 */
static void run_newidle_pull(struct cfsr_replay *r, bool peek, struct ahead_feed *f,
			     struct cfsr_event *ev, size_t n)
{
	f->ev = ev;
	f->n = n;
	f->next = 0;
	if (peek)
		cfsr_replay_set_peek(r, ahead_peek, f);
	while (f->next < f->n) {
		struct cfsr_event e = f->ev[f->next++];

		feed(r, e);
	}
}

static void test_newidle_dequeue(void **state)
{
	const uint64_t t0 = 3000000000ull, c0 = 5000000000000ull;
	struct cfsr_event ev[12];
	struct ahead_feed f;
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
		const struct cfsr_task *t;
		size_t n = 0;

		cfsr_replay_clock_sample(r, 0, t0, c0);
		cfsr_replay_clock_sample(r, 1, t0, c0 + 1000000000ull);
		ev[n++] = ev_switch(t0, 0, 0, 0, false, 0);
		ev[n++] = ev_switch(t0, 1, 0, 0, false, 0);
		ev[n++] = ev_wakeup(t0 + 100000, 1, 0, 71, 1);
		ev[n++] = ev_switch(t0 + 110000, 1, 0, 0, false, 71);
		ev[n++] = ev_wakeup(t0 + 200000, 1, 71, 72, 1);
		ev[n++] = ev_wakeup(t0 + 250000, 0, 0, 70, 0);
		ev[n++] = ev_switch(t0 + 300000, 0, 0, 0, false, 70);
		ev[n++] = ev_runtime(t0 + 2000000, 0, 70, 70, 1700000);
		ev[n++] = ev_migrate(t0 + 2020000, 0, 70, 72, 1, 0);
		ev[n++] = ev_runtime(t0 + 2021000, 0, 70, 70, 21000);
		ev[n++] = ev_switch(t0 + 2026000, 0, 70, 1, false, 72);
		run_newidle_pull(r, k == 0, &f, ev, n);
		t = cfsr_replay_task(r, 70);
		/* dequeued alone on its cfs_rq; without the look ahead, kept delayed behind 72 */
		assert_int_equal(t->state, k == 0 ? CFSR_TS_SLEEPING : CFSR_TS_DELAYED);
		/*
		 * 70's clock: its switch in kept the wakeup's (c0 + 250 us),
		 * so the first report is at c0 + 1.95 ms, the second 21 us on
		 */
		if (k == 0) {
			assert_int_equal(cfsr_replay_stats(r)->newidle_dequeues, 1);
			assert_true(t->avg.last_update_time <= c0 + 1950000);
			assert_true(t->avg.last_update_time > c0 + 1950000 - 1024);
		} else {
			assert_int_equal(cfsr_replay_stats(r)->newidle_dequeues, 0);
			assert_true(t->avg.last_update_time > c0 + 1971000 - 1024);
		}
		cfsr_replay_free(r);
	}
}

/*
 * A newly-idle balance after the dequeue of a task that stays delayed
 * (v6.12-v6.18): dequeue_entity() keeps a sleeping task that is not
 * eligible queued, delayed (DELAY_DEQUEUE), so the pick of its
 * __schedule() runs with it still on the cfs_rq; pick_task_fair() picks
 * and completes every delayed entity on the CPU (pick_next_entity() ->
 * dequeue_entities(), kernel/sched/fair.c), finds nothing runnable, and
 * pick_next_task_fair() goes idle and balances (sched_balance_newidle()),
 * all before the pull arrives.  On CPU 1, task 71 runs 1 ms with 72
 * waiting (woken 0.1 ms in, placed at the average) and sleeps ahead of it:
 * not eligible, delayed.  72 then runs 1.5 ms, past the delayed 71, and
 * sleeps, not eligible either; its report (the dequeue's), CPU 1's pull of
 * task 73 waiting on CPU 0, 72's second report (the pick's after the
 * balance), and its switch out to 73.  Both leave at the first report's
 * clock, and 73 runs alone on CPU 1's cfs_rq.
 */
static void test_newidle_dequeue_delayed(void **state)
{
	const uint64_t t0 = 3000000000ull, c0 = 5000000000000ull, c1 = c0 + 1000000000ull;
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const struct cfsr_task *t71, *t72;
	const struct cfsr_cfs_rq *cfs;
	struct cfsr_event ev[14];
	struct ahead_feed f;
	size_t n = 0, first;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, c0);
	cfsr_replay_clock_sample(r, 1, t0, c1);
	ev[n++] = ev_switch(t0, 0, 0, 0, false, 0);
	ev[n++] = ev_switch(t0, 1, 0, 0, false, 0);
	ev[n++] = ev_wakeup(t0 + 100000, 1, 0, 71, 1);
	ev[n++] = ev_switch(t0 + 110000, 1, 0, 0, false, 71);
	ev[n++] = ev_wakeup(t0 + 200000, 1, 71, 72, 1);
	ev[n++] = ev_wakeup(t0 + 250000, 0, 0, 74, 0);
	ev[n++] = ev_switch(t0 + 300000, 0, 0, 0, false, 74);
	ev[n++] = ev_wakeup(t0 + 500000, 0, 74, 73, 0);
	ev[n++] = ev_runtime(t0 + 1100000, 1, 71, 71, 1000000);
	ev[n++] = ev_switch(t0 + 1105000, 1, 71, 1, false, 72);
	first = n;
	ev[n++] = ev_runtime(t0 + 2600000, 1, 72, 72, 1500000);
	ev[n++] = ev_migrate(t0 + 2620000, 1, 72, 73, 0, 1);
	ev[n++] = ev_runtime(t0 + 2621000, 1, 72, 72, 21000);
	ev[n++] = ev_switch(t0 + 2626000, 1, 72, 1, false, 73);
	f.ev = ev;
	f.n = n;
	f.next = 0;
	cfsr_replay_set_peek(r, ahead_peek, &f);
	/* up to 72's first report: 71 delayed, 72 (same weight) past it */
	while (f.next <= first) {
		struct cfsr_event e = f.ev[f.next++];

		feed(r, e);
	}
	t71 = cfsr_replay_task(r, 71);
	t72 = cfsr_replay_task(r, 72);
	assert_int_equal(t71->state, CFSR_TS_DELAYED);
	assert_int_equal(t72->state, CFSR_TS_RUNNING);
	assert_true((int64_t)(t72->vruntime - t71->vruntime) > 0);
	while (f.next < f.n) {
		struct cfsr_event e = f.ev[f.next++];

		feed(r, e);
	}
	t71 = cfsr_replay_task(r, 71);
	t72 = cfsr_replay_task(r, 72);
	assert_int_equal(t71->state, CFSR_TS_SLEEPING);
	assert_int_equal(t72->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_stats(r)->newidle_dequeues, 1);
	/*
	 * CPU 1's clock: 71's switch in kept its wakeup's (c1 + 100 us), its
	 * report (1 ms) is at c1 + 1.1 ms, 72's switch in there; 72's first
	 * report (1.5 ms) is at c1 + 2.6 ms, the second 21 us on
	 */
	assert_true(t72->avg.last_update_time <= c1 + 2600000);
	assert_true(t72->avg.last_update_time > c1 + 2600000 - 1024);
	assert_true(t71->avg.last_update_time <= c1 + 2600000);
	assert_true(t71->avg.last_update_time > c1 + 2600000 - 1024);
	cfs = cfsr_replay_cfs_rq(r, "/", 1);
	assert_int_equal(cfs->load_weight, W0);
	assert_int_equal(cfs->nr_delayed, 0);
	assert_int_equal(cfsr_replay_task(r, 73)->state, CFSR_TS_RUNNING);
	cfsr_replay_free(r);
}

/*
 * A wakeup migration of a sleeping task reweights no group entity on the
 * source: migrate_task_rq_fair() leaves its signal to the source cfs_rq's
 * removed load, the task was not queued there (kernel/sched/fair.c,
 * v3.8-v6.18).  Task 61 of /g sleeps on CPU 0, task 60 of /g then runs
 * there; a record of /g on CPU 1 raises tg->load_avg by 600, so that a
 * calc_group_shares() on CPU 0 now would give its entity less.  61's
 * migration to CPU 1 leaves CPU 0's entity at its weight; the enqueue on
 * CPU 1 reweights that side.
 */
static void test_sleeping_migration_keeps_weight(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const uint64_t t0 = 4000000000ull;
	struct cfsr_cfs_rq *g0, *g1;
	struct cfsr_event e;
	uint64_t w;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, 6000000000000ull);
	cfsr_replay_clock_sample(r, 1, t0, 7000000000000ull);
	assert_int_equal(cfsr_replay_task_set_group(r, 60, "/g"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 61, "/g"), 1);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_switch(t0, 1, 0, 0, false, 0));
	/* 61 runs alone on CPU 0 and sleeps: eligible, so dequeued */
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 61, 0));
	feed(r, ev_switch(t0 + 110000, 0, 0, 0, false, 61));
	feed(r, ev_runtime(t0 + 1110000, 0, 61, 61, 1000000));
	feed(r, ev_switch(t0 + 1111000, 0, 61, 1, false, 0));
	assert_int_equal(cfsr_replay_task(r, 61)->state, CFSR_TS_SLEEPING);
	/* 60 runs on CPU 0: its tick reweights /g's entity there */
	feed(r, ev_wakeup(t0 + 1200000, 0, 0, 60, 0));
	feed(r, ev_switch(t0 + 1210000, 0, 0, 0, false, 60));
	feed(r, ev_runtime(t0 + 5210000, 0, 60, 60, 4000000));
	/* an event of 60 on CPU 0 settles the report as its tick's */
	feed(r, ev_head(t0 + 5260000, 0, 60, CFSR_EV_MARKER));
	g0 = cfsr_replay_cfs_rq(r, "/g", 0);
	g1 = cfsr_replay_cfs_rq(r, "/g", 1);
	assert_non_null(g0);
	assert_non_null(g1);
	w = g0->se_weight;
	assert_int_equal(w, NICE_0_LOAD);
	cfsr_replay_group_take(r, g1, g1->se_weight, 600, cfsr_replay_tg_load_avg(r, g0) + 600, 0);
	/* 61 woken from CPU 1, moved there */
	e = ev_head(t0 + 5300000, 1, 0, CFSR_EV_WAKING);
	e.wake.pid = 61;
	e.wake.prio = 120;
	e.wake.target_cpu = 1;
	feed(r, e);
	feed(r, ev_migrate(t0 + 5301000, 1, 0, 61, 0, 1));
	assert_int_equal(cfsr_replay_task(r, 61)->cpu, 1);
	assert_int_equal(g0->se_weight, w);
	feed(r, ev_wakeup(t0 + 5302000, 1, 0, 61, 1));
	assert_int_equal(cfsr_replay_task(r, 61)->state, CFSR_TS_QUEUED);
	assert_true(g1->se_on_rq);
	assert_int_equal(g0->se_weight, w);
	cfsr_replay_free(r);
}

/*
 * The wakeup of a delayed task (ttwu_runnable() -> requeue_delayed_entity(),
 * kernel/sched/fair.c, v6.12-v6.18) runs no update_curr(): with DELAY_ZERO
 * its lag is V - v with the running task's vruntime as of that task's last
 * update; wakeup_preempt()'s update_curr() comes after, and its report is
 * traced between the wakee's sched_waking and sched_wakeup.  One CPU, nice 0
 * tasks in the root: 71 runs 90 us, 72 wakes (enqueue_entity()'s
 * update_curr() reports 71's 90 us; 72 placed at 71's vruntime, v0 + 90
 * us), 71 runs to 990 us, 72 runs 2 ms (v0 + 2090 us) and blocks
 * ineligible (V = v0 + 1540 us): delayed; 71 runs 1.5 ms and wakes 72.
 * V with 71 as of its last update (v0 + 990 us) is v0 + 1540 us: lag -550 us,
 * 72 keeps its vruntime.  With the report's update (71 at v0 + 2490 us) V
 * would be v0 + 2290 us, lag +200 us, and DELAY_ZERO would place 72 afresh
 * at the V of the others, v0 + 2490 us.
 */
static void test_requeue_stale_curr(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	const uint64_t t0 = 3000000000ull;
	const struct cfsr_task *b;
	struct cfsr_event e;
	uint64_t vr;

	(void)state;
	cfsr_replay_clock_sample(r, 0, t0, 5000000000000ull);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 71, 0));
	feed(r, ev_switch(t0 + 110000, 0, 0, 0, false, 71));
	feed(r, ev_runtime(t0 + 200000, 0, 71, 71, 90000));
	feed(r, ev_wakeup(t0 + 200000, 0, 71, 72, 0));
	feed(r, ev_runtime(t0 + 1100000, 0, 71, 71, 900000));
	feed(r, ev_switch(t0 + 1100000, 0, 71, 0, false, 72));
	feed(r, ev_runtime(t0 + 3100000, 0, 72, 72, 2000000));
	feed(r, ev_switch(t0 + 3100000, 0, 72, 1, false, 71));
	b = cfsr_replay_task(r, 72);
	assert_int_equal(b->state, CFSR_TS_DELAYED);
	vr = b->vruntime;
	assert_int_equal(vr - cfsr_replay_task(r, 71)->vruntime, 1100000);
	e = ev_head(t0 + 4600000, 0, 71, CFSR_EV_WAKING);
	e.wake.pid = 72;
	e.wake.prio = 120;
	e.wake.target_cpu = 0;
	feed(r, e);
	feed(r, ev_runtime(t0 + 4600500, 0, 71, 71, 1500000));
	feed(r, ev_wakeup(t0 + 4601000, 0, 71, 72, 0));
	assert_int_equal(b->state, CFSR_TS_QUEUED);
	assert_int_equal(b->vruntime, vr);
	assert_true(b->vlag < 0);
	cfsr_replay_free(r);
}

/*
 * A sleep taken from a cfs_rq record's weight (a waiting task the kernel
 * no longer counts, cfsr_replay_cfs_rq_take_queued()) is undone by a
 * migration of that task with no sched_waking of it since: only
 * try_to_wake_up() moves a sleeping task (after sched_waking); a load
 * balance's detach_task() and the migration stopper move queued ones
 * (kernel/sched/core.c, fair.c, v6.12-v6.18).  The task arrives queued on
 * the destination.  A migration after the task's sched_waking is a
 * wakeup's: the task stays asleep until its sched_wakeup.
 */
static void test_lost_sleep_undone(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const int pid[2] = { 70, 71 };
	const uint64_t t0 = 4000000000ull, tick = 4000000;
	const uint64_t tw = t0 + 1010000 + 26 * tick + 300000;
	struct cfsr_cfs_rq *root0;
	struct cfsr_task *t;
	struct cfsr_event e;

	(void)state;
	run_busy(r, pid, 2, 100000000ull);
	/* 72 and 73 wake onto CPU 0 and wait behind 70 */
	feed(r, ev_wakeup(tw, 0, 70, 72, 0));
	feed(r, ev_wakeup(tw + 1000, 0, 70, 73, 0));
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	assert_int_equal(root0->load_weight, 3 * W0);
	/* a record lacks one waiting task's weight: 72, the first, taken as asleep */
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root0, 2 * W0, 2), 1);
	t = cfsr_replay_task(r, 72);
	if (t->state != CFSR_TS_SLEEPING)
		t = cfsr_replay_task(r, 73);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_stats(r)->lost_sleeps, 1);
	/* CPU 1 pulls it with no sched_waking: it was queued */
	feed(r, ev_migrate(tw + 20000, 1, 71, t->pid, 0, 1));
	t = cfsr_replay_task(r, t->pid);
	assert_int_equal(t->cpu, 1);
	assert_int_equal(t->state, CFSR_TS_QUEUED);
	assert_int_equal(cfsr_replay_stats(r)->lost_sleeps_undone, 1);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 1)->load_weight, 2 * W0);

	/* the other one, taken as asleep too, then woken onto CPU 1 */
	root0 = cfsr_replay_cfs_rq(r, "/", 0);
	assert_int_equal(cfsr_replay_cfs_rq_take_queued(r, root0, W0, 1), 1);
	t = cfsr_replay_task(r, t->pid == 72 ? 73 : 72);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	e = ev_head(tw + 40000, 1, 71, CFSR_EV_WAKING);
	e.wake.pid = t->pid;
	e.wake.prio = 120;
	e.wake.target_cpu = 0;
	feed(r, e);
	feed(r, ev_migrate(tw + 41000, 1, 71, t->pid, 0, 1));
	t = cfsr_replay_task(r, t->pid);
	assert_int_equal(t->cpu, 1);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	assert_int_equal(cfsr_replay_stats(r)->lost_sleeps_undone, 1);
	cfsr_replay_free(r);
}

/*
 * sched_move_task() of a running task out of a group that keeps another
 * queued task, its new child (the exit's sched_autogroup_exit_task(), a cgroup move),
 * v6.18: dequeue_task() updates each level and, after the accounting,
 * update_cfs_group() reweights the group entity with the task's load
 * still in the group's load_avg; only then does task_change_group_fair()
 * detach it (detach_entity_cfs_rq(): its propagate_entity_cfs_rq() walk
 * has no update_cfs_group()), and the task's enqueue in the root touches
 * no entity of /a.  /a holds busy tasks on both CPUs, so its entity on
 * CPU 0 weighs less than the full shares: calc_group_shares() gives
 * shares * load / (tg->load_avg - contrib + load), load = max(load.weight
 * >> 10, load_avg) with load_avg before the detach = after it + the
 * task's.  The move comes at the clock of the CPU's last update: no
 * ageing, no publication before the reweight.
 */
static void test_move_group_reweight_before_detach(void **state)
{
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const int pid[2] = { 96, 97 };
	const uint64_t t0 = 4000000000ull, tick = 4000000;
	const uint64_t tw = t0 + 1010000 + 51 * tick + 300000, tr = tw + 20000;
	const struct cfsr_cfs_rq *a;
	const struct cfsr_task *t;
	struct cfsr_event e;
	uint64_t tg, contrib, load, lw, want, wrong;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 96, "/a"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 97, "/a"), 1);
	run_busy(r, pid, 2, 200000000ull);
	/* 96 forks 98 (into /a, its load_avg its weight's) which waits on CPU 0 */
	e = ev_head(tw - 100, 0, 96, CFSR_EV_FORK);
	e.fork.parent_pid = 96;
	e.fork.child_pid = 98;
	feed(r, e);
	e = ev_wakeup(tw, 0, 96, 98, 0);
	e.kind = CFSR_EV_WAKEUP_NEW;
	feed(r, e);
	feed(r, ev_runtime(tr, 0, 96, 96, tr - (t0 + 1010000 + 50 * tick)));
	cfsr_replay_settle_ticks(r, tr + 100000);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	assert_int_equal(a->load_weight, 2 * W0);
	tg = (uint64_t)cfsr_replay_tg_load_avg(r, a);
	contrib = a->tg_load_avg_contrib;
	assert_true(tg > contrib);

	assert_int_equal(cfsr_replay_task_move_group(r, 96, "/", tr), 1);
	a = cfsr_replay_cfs_rq(r, "/a", 0);
	t = cfsr_replay_task(r, 96);
	assert_int_equal(t->group, 0);
	assert_int_equal(a->load_weight, W0);
	assert_true(a->se_on_rq);
	lw = a->load_weight >> 10;
	/* the group's load_avg before the detach */
	load = a->avg.load_avg + t->avg.load_avg;
	load = load > lw ? load : lw;
	want = (uint64_t)W0 * load / (tg - contrib + load);
	load = a->avg.load_avg > lw ? a->avg.load_avg : lw;
	wrong = (uint64_t)W0 * load / (tg - contrib + load);
	print_message("entity of /a on CPU 0: %llu (after the detach it would be %llu)\n",
		      (unsigned long long)a->se_weight, (unsigned long long)wrong);
	assert_true(want != wrong);
	assert_int_equal(a->se_weight, want);
	cfsr_replay_free(r);
}

/*
 * reweight_entity()'s load_avg: se_weight * load_sum / get_pelt_divider(),
 * the divider PELT_MIN_DIVIDER + period_contrib.
 */
static uint64_t reweighted_load_avg(const struct cfsr_cfs_rq *g)
{
	return (g->se_weight >> 10) * g->se_avg.load_sum /
	       (LOAD_AVG_MAX - 1024 + g->se_avg.period_contrib);
}

/*
 * update_cfs_group() before eab03c23c2a1 (v5.7-v6.6) reweights even at an
 * unchanged weight: after each enqueue and dequeue walk the group
 * entity's load_avg is reweighted_load_avg(), recomputed from its sums
 * also between period boundaries, where v6.7+ keeps the value of the
 * last boundary.  One group, one task, one CPU: the group entity always
 * weighs the group's full shares (an empty group too, before v6.12: its
 * load_avg is then the whole of its load), so its weight never changes.
 * The task wakes every 0.5 ms and runs 0.24 ms of it, so most walks fall
 * between period boundaries (1.048576 ms).
 */
static void test_group_reweight_unchanged(void **state)
{
	/* v6.6.0-v6.6.3, v6.7 and stable 6.6.4 (eab03c23c2a1 alone) */
	const char *const release[3] = { "6.6", "6.7", "6.6.4" };
	const uint64_t t0 = 4000000000ull, c0 = 6000000000000ull, step_ns = 250000;
	struct cfsr_replay *r[3];
	const struct cfsr_cfs_rq *g;
	int i, step, differ = 0, differ_6_6_4 = 0, walks = 0;
	uint64_t ts;

	(void)state;
	for (i = 0; i < 3; i++) {
		r[i] = cfsr_replay_new(1, cfsr_profile_for(release[i]), 250);
		assert_non_null(r[i]);
		assert_int_equal(cfsr_replay_task_set_group(r[i], 98, "/a"), 1);
		cfsr_replay_clock_sample(r[i], 0, t0, c0);
		feed(r[i], ev_switch(t0, 0, 0, 0, false, 0));
	}
	for (step = 0; step < 200; step++) {
		ts = t0 + 100000 + (uint64_t)step * step_ns;
		for (i = 0; i < 3; i++) {
			if (step % 2 == 0) {
				feed(r[i], ev_wakeup(ts, 0, 0, 98, 0));
				feed(r[i], ev_switch(ts + 10000, 0, 0, 0, false, 98));
			} else {
				feed(r[i], ev_runtime(ts, 0, 98, 98, step_ns - 10000));
				feed(r[i], ev_switch(ts + 100, 0, 98, 1, false, 0));
			}
		}
		g = cfsr_replay_cfs_rq(r[0], "/a", 0);
		assert_int_equal(g->se_weight, W0);
		assert_int_equal(g->se_avg.load_avg, reweighted_load_avg(g));
		g = cfsr_replay_cfs_rq(r[1], "/a", 0);
		assert_int_equal(g->se_weight, W0);
		differ += g->se_avg.load_avg != reweighted_load_avg(g);
		g = cfsr_replay_cfs_rq(r[2], "/a", 0);
		assert_int_equal(g->se_weight, W0);
		differ_6_6_4 += g->se_avg.load_avg != reweighted_load_avg(g);
		walks++;
	}
	print_message("reweight at an unchanged weight: v6.7 differs after %d of %d walks\n",
		      differ, walks);
	print_message("reweight at an unchanged weight: 6.6.4 differs after %d of %d walks\n",
		      differ_6_6_4, walks);
	assert_true(differ > 0);
	assert_true(differ_6_6_4 > 0);
	for (i = 0; i < 3; i++)
		cfsr_replay_free(r[i]);
}

/* ---- the older models: lib/pelt-ops.c at the engine's update points ------------------ */

/*
 * Legacy model (v3.13-v4.0): a task with no known past is switched in at
 * c0 (a multiple of 2^20 ns) and runs 2 ms, then sleeps.  By hand, with
 * __update_entity_runnable_avg() of v3.8-v4.2: 2 ms = 1953 units of 1024 ns
 * from an empty period; the first 1024 complete it (sum = period = 1024),
 * which decays once: 1024 * y = 1024 * 0xfa83b2da >> 32 = 1002; the 929
 * left start the next period: sum = period = 1931.  load_avg_contrib =
 * 1931 * 1024 / (1931 + 1) = 1023.  At the sleep it leaves
 * runnable_load_avg (0) for blocked_load_avg (1023), remembering the
 * cfs_rq's decay_counter: 1 from init_cfs_rq(), + 1 for the 2^20 ns block
 * crossed at c0 + 2 ms.  Woken 10 ms later (c0 + 12 ms: block 1011, 10
 * blocks after 1001), the cfs_rq's update decays the blocked load by 10
 * blocks, the task's contribution is aged by the same 10 decays
 * (__synchronize_entity_decay(): 1023 * y^10 = 1023 * 0xce248c14 >> 32 =
 * 823) and moves from the blocked load to the runnable load.
 */
static void test_legacy_run_sleep(void **state)
{
	const struct cfsr_profile *p = cfsr_profile_for("3.18");
	struct cfsr_replay *r = cfsr_replay_new(1, p, 250);
	const uint64_t c0 = 1000ull << 20, t0 = 5000000000ull;
	const struct cfsr_cfs_rq *root;
	struct cfsr_task *t;

	(void)state;
	assert_non_null(r);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	cfsr_replay_clock_record(r, 0, t0 + 1000, c0);
	feed(r, ev_wakeup(t0 + 2000, 0, 0, 10, 0));
	feed(r, ev_switch(t0 + 3000, 0, 0, 0, false, 10));
	feed(r, ev_runtime(t0 + 2003000, 0, 10, 10, 2000000));
	feed(r, ev_switch(t0 + 2003500, 0, 10, 1, false, 0));
	t = cfsr_replay_task(r, 10);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	assert_non_null(t);
	assert_non_null(root);
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	assert_int_equal(t->avg.old.se.runnable_avg_sum, 1931);
	assert_int_equal(t->avg.old.se.runnable_avg_period, 1931);
	assert_int_equal(t->avg.old.se.load_avg_contrib, 1023);
	assert_int_equal(t->avg.load_avg, 1023);
	/* no runnable_avg, no utilization before v4.1 */
	assert_int_equal(t->avg.runnable_avg, 0);
	assert_int_equal(t->avg.util_avg, 0);
	assert_int_equal(root->avg.old.cfs.runnable_load_avg, 0);
	assert_int_equal(root->avg.old.cfs.blocked_load_avg, 1023);
	assert_int_equal(root->avg.old.cfs.decay_counter, 2);
	assert_int_equal(t->avg.old.se.decay_count, 2);
	/* a cfs_rq's load is its runnable and blocked load together */
	assert_int_equal(root->avg.load_avg, 1023);

	cfsr_replay_clock_record(r, 0, t0 + 12000000, c0 + 12000000);
	feed(r, ev_wakeup(t0 + 12001000, 0, 0, 10, 0));
	assert_int_equal(root->avg.old.cfs.decay_counter, 12);
	assert_int_equal(root->avg.old.cfs.blocked_load_avg, 0);
	assert_int_equal(root->avg.old.cfs.runnable_load_avg, 823);
	assert_int_equal(t->avg.old.se.load_avg_contrib, 823);
	assert_int_equal(t->avg.old.se.decay_count, 0);
	cfsr_replay_free(r);
}

/*
 * Task 10 on CPU 0 of a machine whose CPU 0 has capacity @cap and
 * frequency scale @freq: woken at clock c0 (a period boundary) with an
 * empty signal updated last at c0, switched in at that clock, it runs
 * @run_ns of clock_task and blocks.  Returns the task.
 */
static struct cfsr_task *run_scaled(struct cfsr_replay *r, uint64_t c0, uint64_t t0,
				    uint64_t run_ns)
{
	struct cfsr_task *t;

	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0)); /* idle on CPU0 */
	cfsr_replay_clock_record(r, 0, t0 + 98000, c0);
	feed(r, ev_wakeup(t0 + 100000, 0, 0, 10, 0));
	t = cfsr_replay_task(r, 10);
	assert_non_null(t);
	memset(&t->avg, 0, sizeof(t->avg));
	t->avg.last_update_time = c0;
	feed(r, ev_switch(t0 + 150000, 0, 0, 0, false, 10));
	assert_int_equal(t->avg.last_update_time, c0);
	feed(r, ev_runtime(t0 + 150000 + run_ns, 0, 10, 10, run_ns));
	feed(r, ev_switch(t0 + 150500 + run_ns, 0, 10, 1, false, 0)); /* it blocks */
	assert_int_equal(t->state, CFSR_TS_SLEEPING);
	return t;
}

/* The task's window and signal after run_scaled(). */
static void assert_scaled(const struct cfsr_task *t, uint64_t lut, uint32_t period_contrib,
			  uint64_t util_sum, uint64_t util_avg, uint64_t load_avg)
{
	assert_int_equal(t->avg.last_update_time, lut);
	assert_int_equal(t->avg.period_contrib, period_contrib);
	assert_int_equal(t->avg.util_sum, util_sum);
	assert_int_equal(t->avg.util_avg, util_avg);
	assert_int_equal(t->avg.load_avg, load_avg);
}

/*
 * v5.1+ (update_rq_clock_pelt()): on a CPU of capacity 512, 10 ms of
 * running advance clock_pelt by 5 ms, so the task's signal is that of
 * 5 ms of running.  By hand (y = 2^(-1/32), from period_contrib 0):
 * 5,000,000 ns = 4882 whole units = 4 periods + 786 units; contrib =
 * floor(1024 y^4) + (47742 - floor(47742 y^4) - 1024) + 786 = 939 + 2939
 * + 786 = 4664 (1024 y^4 = 939.01, 47742 y^4 = 43779.6); util_avg =
 * 4664 * 1024 / (46718 + 786) = 100.54, load_avg and runnable_avg alike
 * (nice 0).  With the frequency scale at 512 as well, 2.5 ms: 2441 units =
 * 2 periods + 393; contrib = 980 + 1001 + 393 = 2374 (1024 y^2 = 980.59,
 * 47742 y^2 = 45717.9); util_avg = 2374 * 1024 / 47111 = 51.6.  v5.1-v5.6
 * (4.15's sums, util_sum += contrib << 10 on rq_clock_pelt()) give the
 * same as v6.18.
 */
static void test_capacity_clock_pelt(void **state)
{
	const uint64_t c0 = 1000ull << 20, t0 = 5000000000ull;
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const struct cfsr_task *t;

	(void)state;
	assert_non_null(r);
	cfsr_replay_set_capacity(r, 0, 512);
	assert_int_equal(cfsr_replay_capacity(r, 0), 512);
	assert_int_equal(cfsr_replay_capacity(r, 1), 1024);
	t = run_scaled(r, c0, t0, 10000000);
	assert_scaled(t, c0 + 4882 * 1024, 786, 4664 * 1024, 100, 100);
	assert_int_equal(t->avg.runnable_avg, 100);
	/* far from saturated: no idle time lost */
	assert_int_equal(cfsr_replay_lost_idle_time(r, 0), 0);
	cfsr_replay_free(r);

	/* v5.1-v5.6 (the v4.15 arithmetic on rq_clock_pelt()): the same */
	r = cfsr_replay_new(2, cfsr_profile_for("5.4"), 250);
	assert_non_null(r);
	cfsr_replay_set_capacity(r, 0, 512);
	t = run_scaled(r, c0, t0, 10000000);
	assert_scaled(t, c0 + 4882 * 1024, 786, 4664 * 1024, 100, 100);
	cfsr_replay_free(r);

	r = cfsr_replay_new(2, prof(), 250);
	assert_non_null(r);
	cfsr_replay_set_capacity(r, 0, 512);
	cfsr_replay_set_freq_scale(r, 0, 512);
	t = run_scaled(r, c0, t0, 10000000);
	assert_scaled(t, c0 + 2441 * 1024, 393, 2374 * 1024, 51, 51);
	cfsr_replay_free(r);
}

/*
 * update_idle_rq_clock_pelt() (v5.1+): 1 s of running on a CPU of
 * capacity 512 leaves clock_pelt 500 ms behind clock_task with util_sum
 * saturated (488 periods of running: above ((47742 - 1024) << 10) - 47742),
 * so going idle loses those 500 ms: lost_idle_time = 10^9 - 10^9 * 512 /
 * 1024 = 500,000,000 ns.  After 200 ms idle the task wakes: its signal is
 * aged to rq_clock_pelt() = clock_task - lost_idle_time = c0 + 1.2 s -
 * 0.5 s = c0 + 700,000,000 ns, on the 1024 ns grid c0 + 683593 * 1024.
 */
static void test_capacity_lost_idle(void **state)
{
	const uint64_t c0 = 1000ull << 20, t0 = 5000000000ull;
	struct cfsr_replay *r = cfsr_replay_new(2, prof(), 250);
	const struct cfsr_task *t;
	const struct cfsr_cfs_rq *root;

	(void)state;
	assert_non_null(r);
	cfsr_replay_set_capacity(r, 0, 512);
	t = run_scaled(r, c0, t0, 1000000000);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	assert_non_null(root);
	assert_true(root->avg.util_sum >= ((47742 - 1024) << 10) - 47742);
	assert_int_equal(t->avg.last_update_time, c0 + (500000000 / 1024) * 1024);
	assert_int_equal(cfsr_replay_lost_idle_time(r, 0), 500000000);
	cfsr_replay_clock_record(r, 0, t0 + 1200150000, c0 + 1200000000);
	feed(r, ev_wakeup(t0 + 1200152000, 0, 0, 10, 0));
	feed(r, ev_switch(t0 + 1200160000, 0, 0, 0, false, 10));
	assert_int_equal(t->avg.last_update_time, c0 + 683593ull * 1024);
	cfsr_replay_free(r);
}

/*
 * Before v5.1 (accumulate_sum(), kernel/sched/pelt.c, v4.15-v5.0): the
 * clock is clock_task, the contribution is scaled by scale_freq and util
 * by scale_cpu too.  10 ms = 9765 units = 9 periods + 549; contrib = 842 +
 * (47742 - 39285 - 1024) + 549 = 8824 (1024 y^9 = 842.6, 47742 y^9 =
 * 39285.8); divider 46718 + 549 = 47267: load_avg = 8824 * 1024 / 47267 =
 * 191.2 at any capacity, util_avg = 8824 * 512 / 47267 = 95.6 at capacity
 * 512 (191 at 1024).
 */
static void test_capacity_v4_contrib(void **state)
{
	const uint64_t c0 = 1000ull << 20, t0 = 5000000000ull;
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for("4.19"), 250);
	const struct cfsr_task *t;

	(void)state;
	assert_non_null(r);
	cfsr_replay_set_capacity(r, 0, 512);
	t = run_scaled(r, c0, t0, 10000000);
	assert_scaled(t, c0 + 9765 * 1024, 549, 8824 * 512, 95, 191);
	cfsr_replay_free(r);

	r = cfsr_replay_new(2, cfsr_profile_for("4.19"), 250);
	assert_non_null(r);
	t = run_scaled(r, c0, t0, 10000000);
	assert_scaled(t, c0 + 9765 * 1024, 549, 8824 * 1024, 191, 191);
	cfsr_replay_free(r);
}

/*
 * v4.1-v4.2 (__update_entity_runnable_avg(), kernel/sched/fair.c): each
 * piece of running time adds (units * scale_freq >> 10) * scale_cpu >> 10
 * to running_avg_sum and the runnable sum is scaled by frequency alone:
 * at capacity 512 the runnable sum is the full-capacity one, the running
 * sum half of it, less at most one per piece for the floors (three
 * pieces, and one decay of the sum per period: ten periods); v3.8-v4.0
 * scale nothing.
 */
static void test_capacity_legacy(void **state)
{
	const uint64_t c0 = 1000ull << 20, t0 = 5000000000ull;
	const char *const kernels[] = { "4.1", "3.18" };
	struct cfsr_legacy_avg full, half;
	struct cfsr_replay *r;
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		r = cfsr_replay_new(2, cfsr_profile_for(kernels[k]), 250);
		assert_non_null(r);
		full = run_scaled(r, c0, t0, 10000000)->avg.old.se;
		cfsr_replay_free(r);
		r = cfsr_replay_new(2, cfsr_profile_for(kernels[k]), 250);
		assert_non_null(r);
		cfsr_replay_set_capacity(r, 0, 512);
		half = run_scaled(r, c0, t0, 10000000)->avg.old.se;
		cfsr_replay_free(r);
		assert_int_equal(half.runnable_avg_sum, full.runnable_avg_sum);
		assert_int_equal(half.runnable_avg_period, full.runnable_avg_period);
		if (k == 0) {
			assert_true(full.running_avg_sum > 8000);
			assert_true(half.running_avg_sum <= full.running_avg_sum / 2);
			assert_true(half.running_avg_sum + 14 >= full.running_avg_sum / 2);
		} else {
			assert_int_equal(half.running_avg_sum, full.running_avg_sum);
		}
	}
}

/*
 * power:cpu_frequency on an arm64 machine (topology_set_freq_scale():
 * cur_freq * 1024 / cpuinfo_max_freq): 1 GHz of 2 GHz is scale 512, and
 * 10 ms of running are test_capacity_clock_pelt()'s 5 ms.  On x86 the
 * scale comes from APERF/MPERF, not from the event: it stays 1024 (9765
 * units, as test_capacity_v4_contrib() counts them).
 */
static void test_freq_events(void **state)
{
	const uint64_t c0 = 1000ull << 20, t0 = 5000000000ull;
	const char *const unames[] = { "Linux a 6.18.0 #1 SMP PREEMPT aarch64",
				       "Linux b 6.18.0 #1 SMP PREEMPT_DYNAMIC x86_64" };
	const uint64_t want[] = { c0 + 4882 * 1024, c0 + 9765 * 1024 };
	struct cfsr_cpu_topo topo[2];
	struct cfsr_trace_info info;
	struct cfsr_event e;
	struct cfsr_replay *r;
	size_t k;

	(void)state;
	memset(topo, 0, sizeof(topo));
	topo[0].max_freq_khz = topo[1].max_freq_khz = 2000000;
	for (k = 0; k < 2; k++) {
		memset(&info, 0, sizeof(info));
		info.uname = unames[k];
		info.topo = topo;
		info.nr_topo = 2;
		r = cfsr_replay_new(2, prof(), 250);
		assert_non_null(r);
		cfsr_replay_take_tunables(r, &info);
		e = ev_head(t0 - 1000, 1, 0, CFSR_EV_CPU_FREQ);
		e.freq.cpu = 0;
		e.freq.khz = 1000000;
		feed(r, e);
		assert_int_equal(run_scaled(r, c0, t0, 10000000)->avg.last_update_time, want[k]);
		cfsr_replay_free(r);
	}
}

/*
 * Two always-runnable tasks share CPU 0 in 3 ms turns for 300 ms (@pid[0]
 * runs first); @prio gives their priorities.
 */
static uint64_t take_turns(struct cfsr_replay *r, const int pid[2], const int prio[2])
{
	const uint64_t c0 = 3000000000000ull, t0 = 5000000000ull, slice = 3000000;
	struct cfsr_event e;
	uint64_t ts = t0 + 5000;
	int k, cur, nxt;

	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	for (k = 0; k < 2; k++) {
		e = ev_wakeup(t0 + 1000 + (uint64_t)k * 1000, 0, 0, pid[k], 0);
		e.wake.prio = prio[k];
		feed(r, e);
	}
	e = ev_switch(ts, 0, 0, 0, false, pid[0]);
	e.sw.next_prio = prio[0];
	feed(r, e);
	for (k = 0; k < 100; k++) {
		cur = k % 2;
		nxt = 1 - cur;
		ts += slice;
		feed(r, ev_runtime(ts, 0, pid[cur], pid[cur], slice));
		e = ev_switch(ts + 500, 0, pid[cur], 0, true, pid[nxt]);
		e.sw.prev_prio = prio[cur];
		e.sw.next_prio = prio[nxt];
		feed(r, e);
		ts += 500;
	}
	return ts;
}

/*
 * The worked numbers of the v4.3 rewrite's design (9d89c257dfb9): a
 * task's load is its weight times the fraction of time it is runnable,
 * and a CPU's load the sum of its tasks' -- whatever their share of the
 * run time.  Two nice-0 tasks always runnable on one CPU each carry half
 * the CPU's load (and, running half the time each, half its
 * utilization); nice 0 beside nice 1 (weights 1024 and 820) carry
 * 1024 / 1844 = 0.555 and 0.445 of it.  The legacy model's
 * load_avg_contrib is the same ratio (runnable_avg_sum over
 * runnable_avg_period, times the weight), and its cfs_rq's
 * runnable_load_avg is exactly the sum of its queued tasks'.
 */
static void shares_case(const char *kernel, int prio1, double want0)
{
	const struct cfsr_profile *p = cfsr_profile_for(kernel);
	struct cfsr_replay *r = cfsr_replay_new(1, p, 250);
	const int pid[2] = { 20, 21 }, prio[2] = { 120, prio1 };
	const struct cfsr_task *a, *b;
	const struct cfsr_cfs_rq *root;
	double sum, share;

	assert_non_null(r);
	take_turns(r, pid, prio);
	a = cfsr_replay_task(r, pid[0]);
	b = cfsr_replay_task(r, pid[1]);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	sum = (double)a->avg.load_avg + (double)b->avg.load_avg;
	share = (double)a->avg.load_avg / sum;
	assert_true(share > want0 - 0.02 && share < want0 + 0.02);
	assert_int_equal(a->avg.runnable_avg, 0);
	assert_int_equal(b->avg.runnable_avg, 0);
	if (p->arith == CFSR_ARITH_LEGACY) {
		assert_int_equal(root->avg.old.cfs.runnable_load_avg,
				 a->avg.load_avg + b->avg.load_avg);
	} else {
		/* the cfs_rq's own signal: its load is its tasks' */
		assert_true((double)root->avg.load_avg > 0.95 * sum &&
			    (double)root->avg.load_avg < 1.05 * sum);
		assert_true((double)root->avg.old.v4.runnable_load_avg > 0.95 * sum &&
			    (double)root->avg.old.v4.runnable_load_avg < 1.05 * sum);
		if (prio1 == 120) {
			share = (double)a->avg.util_avg /
				((double)a->avg.util_avg + (double)b->avg.util_avg);
			assert_true(share > 0.47 && share < 0.53);
		}
	}
	cfsr_replay_free(r);
}

static void test_old_two_tasks(void **state)
{
	(void)state;
	shares_case("3.18", 120, 0.5);
	shares_case("4.9", 120, 0.5);
	shares_case("4.19", 120, 0.5);
}

static void test_old_nice_pair(void **state)
{
	(void)state;
	shares_case("3.18", 121, 1024.0 / 1844);
	shares_case("4.9", 121, 1024.0 / 1844);
	shares_case("4.19", 121, 1024.0 / 1844);
}

/*
 * Tasks @pid[0..n-1] (nice 0) woken on CPU 0, then run in turn, 3 ms
 * each, in the order of @order (indexes into @pid), @rounds times.
 */
static void run_in_turn(struct cfsr_replay *r, const int *pid, int n, const int *order, int len,
			int rounds)
{
	const uint64_t c0 = 3000000000000ull, t0 = 5000000000ull, slice = 3000000;
	uint64_t ts = t0 + 5000;
	int k, cur, nxt;

	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	for (k = 0; k < n; k++)
		feed(r, ev_wakeup(t0 + 1000 + (uint64_t)k * 1000, 0, 0, pid[k], 0));
	feed(r, ev_switch(ts, 0, 0, 0, false, pid[order[0]]));
	for (k = 0; k < rounds * len; k++) {
		cur = pid[order[k % len]];
		nxt = pid[order[(k + 1) % len]];
		ts += slice;
		feed(r, ev_runtime(ts, 0, cur, cur, slice));
		feed(r, ev_switch(ts + 500, 0, cur, 0, true, nxt));
		ts += 500;
	}
}

/*
 * The worked example of the group design ("Load tracking in the
 * scheduler", 2015): two groups of equal shares split a CPU 50/50 whatever
 * their task counts.  Group /a holds one always-runnable task, /b three,
 * all on CPU 0; /a runs every other slice, as the kernel would give it.
 * Each group is alone on CPU 0 (no other CPU carries its load), so
 * tg->load_avg is this CPU's contribution and calc_cfs_shares() /
 * calc_group_shares() give tg_weight = load, shares = tg->shares * load /
 * load: each group entity weighs exactly NICE_0_LOAD (scaled 1048576), and
 * the root's load.weight is 2 * 1048576, not 4 tasks' worth.  Both
 * entities are queued all the time, so their loads are equal: legacy,
 * tg_load_contrib * 1024 / (tg->load_avg + 1) = 1023 for either group
 * (1023 * 1024 / 1024 and 3069 * 1024 / 3070), times tg->runnable_avg
 * (1023) >> 10; v4.3+, the entity's weight times its runnable fraction.
 */
static void test_groups_equal_shares(void **state)
{
	const char *const kernels[] = {
		"3.18", "4.1", "4.9", "4.12", "4.19", "5.4", "6.6", "6.18"
	};
	const int pid[4] = { 30, 31, 32, 33 }, order[6] = { 0, 1, 0, 2, 0, 3 };
	const struct cfsr_cfs_rq *a, *b, *root;
	struct cfsr_replay *r;
	double ratio;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		r = cfsr_replay_new(1, cfsr_profile_for(kernels[i]), 250);
		assert_non_null(r);
		/* 1: each task leaves the root group it was created in */
		assert_int_equal(cfsr_replay_task_set_group(r, pid[0], "/a"), 1);
		for (k = 1; k < 4; k++)
			assert_int_equal(cfsr_replay_task_set_group(r, pid[k], "/b"), 1);
		run_in_turn(r, pid, 4, order, 6, 40);
		a = cfsr_replay_cfs_rq(r, "/a", 0);
		b = cfsr_replay_cfs_rq(r, "/b", 0);
		root = cfsr_replay_cfs_rq(r, "/", 0);
		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(cfsr_replay_task(r, pid[0])->group, a->group);
		assert_int_equal(a->se_weight, W0);
		assert_int_equal(b->se_weight, W0);
		assert_int_equal(root->load_weight, 2 * W0);
		/* all four tasks below the root, /b's three runnable, counted by its entity */
		assert_int_equal(root->h_nr_queued, 4);
		assert_int_equal(b->h_nr_runnable, 3);
		assert_int_equal(b->se_runnable, 3);
		assert_true(a->se_avg.load_avg > 900);
		ratio = (double)a->se_avg.load_avg / (double)b->se_avg.load_avg;
		assert_true(ratio > 0.97 && ratio < 1.03);
		if (cfsr_profile_for(kernels[i])->arith == CFSR_ARITH_LEGACY) {
			assert_int_equal(a->se_avg.load_avg, 1022);
			assert_int_equal(b->se_avg.load_avg, 1022);
			/* the root's runnable load: its two queued group entities */
			assert_int_equal(root->avg.old.cfs.runnable_load_avg, 2044);
		}
		cfsr_replay_free(r);
	}
}

/*
 * One CPU under @kernel, tasks 70 and 71 in group /g, the PELT clock @c0
 * at trace time @t0, the CPU idle from then.
 */
static struct cfsr_replay *group_cpu0(const char *kernel, uint64_t t0, uint64_t c0)
{
	struct cfsr_replay *r = cfsr_replay_new(1, cfsr_profile_for(kernel), 250);

	assert_non_null(r);
	assert_int_equal(cfsr_replay_task_set_group(r, 70, "/g"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 71, "/g"), 1);
	cfsr_replay_clock_sample(r, 0, t0, c0);
	feed(r, ev_switch(t0, 0, 0, 0, false, 0));
	return r;
}

/*
 * v3.8-v4.2: entity_tick() calls update_cfs_rq_blocked_load(cfs_rq, 1),
 * which pushes the cfs_rq's runnable plus blocked load into tg->load_avg
 * whatever the change (__update_cfs_rq_tg_load_contrib(), forced).  Group
 * /g holds task 70, which runs alone with a tick every 4 ms, and task 71,
 * asleep there after 20 ms of running: its contribution decays in the
 * group's blocked_load_avg every 2^20 ns, so the group's load falls by a
 * few units per block -- less than the 1/8 an unforced push needs.  After
 * a tick the published contribution and tg->load_avg are the group's load
 * exactly.
 */
static void test_legacy_tick_publishes(void **state)
{
	const uint64_t c0 = 3000000000000ull, t0 = 5000000000ull, tick = 4000000;
	struct cfsr_replay *r = group_cpu0("3.18", t0, c0);
	const struct cfsr_cfs_rq *g;
	uint64_t ts = t0 + 5000, blocked;
	int k;

	(void)state;
	feed(r, ev_wakeup(t0 + 1000, 0, 0, 70, 0));
	feed(r, ev_wakeup(t0 + 2000, 0, 0, 71, 0));
	feed(r, ev_switch(ts, 0, 0, 0, false, 71));
	for (k = 0; k < 5; k++) {
		ts += tick;
		feed(r, ev_runtime(ts, 0, 71, 71, tick));
	}
	feed(r, ev_switch(ts + 500, 0, 71, 1, false, 70));
	ts += 500;
	for (k = 0; k < 25; k++) {
		ts += tick;
		feed(r, ev_runtime(ts, 0, 70, 70, tick));
	}
	cfsr_replay_settle_ticks(r, ts + 1000000);
	g = cfsr_replay_cfs_rq(r, "/g", 0);
	assert_non_null(g);
	blocked = g->avg.old.cfs.blocked_load_avg;
	/* 71's contribution, decayed over about 100 blocks: y^100 = 0.114 */
	assert_true(blocked > 50 && blocked < 300);
	assert_int_equal(g->avg.load_avg, g->avg.old.cfs.runnable_load_avg + blocked);
	assert_int_equal(g->tg_load_avg_contrib, g->avg.load_avg);
	assert_int_equal(cfsr_replay_tg_load_avg(r, g), (int64_t)g->avg.load_avg);
	cfsr_replay_free(r);
}

/*
 * The two loops of enqueue_task_fair() and dequeue_task_fair() in
 * v3.8-v4.2: group /g on CPU 0; task 70 wakes into the empty group, so its
 * group entity is enqueued on the root (enqueue_entity_load_avg(): the
 * root's update_cfs_rq_blocked_load(), one update of the root); task 71
 * then wakes into /g, whose entity is queued already: the second loop
 * updates that entity alone (update_entity_load_avg(se, 1)), not the root;
 * 71 then sleeps while 70 stays, the same.  Under 4.9 (v4.3-v4.14) the
 * second loop's update_load_avg(se, 1) updates the root each time.
 */
static void test_legacy_second_loop(void **state)
{
	const uint64_t c0 = 3000000000000ull, t0 = 5000000000ull;
	const char *const kernels[] = { "3.18", "4.9" };
	const struct cfsr_cfs_rq *root, *g;
	struct cfsr_replay *r;
	uint64_t before, gse;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		r = group_cpu0(kernels[i], t0, c0);
		feed(r, ev_wakeup(t0 + 3000000, 0, 0, 70, 0));
		root = cfsr_replay_cfs_rq(r, "/", 0);
		g = cfsr_replay_cfs_rq(r, "/g", 0);
		assert_non_null(root);
		assert_non_null(g);
		assert_true(g->se_on_rq);
		assert_true(root->updates > 0);
		feed(r, ev_switch(t0 + 3005000, 0, 0, 0, false, 70));
		feed(r, ev_runtime(t0 + 9005000, 0, 70, 70, 6000000));
		before = root->updates;
		gse = g->se_updates;
		feed(r, ev_wakeup(t0 + 9005000, 0, 70, 71, 0));
		assert_true(g->se_updates > gse);
		assert_true(i == 0 ? root->updates == before : root->updates > before);
		feed(r, ev_switch(t0 + 9010000, 0, 70, 0, true, 71));
		feed(r, ev_runtime(t0 + 12010000, 0, 71, 71, 3000000));
		before = root->updates;
		gse = g->se_updates;
		feed(r, ev_switch(t0 + 12010000, 0, 71, 1, false, 70));
		assert_true(g->se_updates > gse);
		assert_true(i == 0 ? root->updates == before : root->updates > before);
		cfsr_replay_free(r);
	}
}

/*
 * update_blocked_averages() of the older models (cfsr_replay_blocked_averages()),
 * on one CPU where task 71 of group /g ran 20 ms and sleeps; 3 ms later,
 * with no event since, the kernel's pass comes at clock @cb:
 *  - v3.8-v4.2 (3.18): update_cfs_rq_blocked_load(cfs_rq, 1) decays the
 *    group's blocked load once by the 2^20 ns blocks since its last decay,
 *    n = (cb >> 20) - last_decay: B * y^n, less at most 2 for decay_load()'s
 *    two truncations (the shift by whole 32-block halvings, the product
 *    with runnable_avg_yN_inv[]), n being 2 to 4; the push is forced, so
 *    tg->load_avg becomes the group's load (runnable + blocked) although it
 *    fell by less than the 1/8 an unforced push needs (y^4 = 0.917);
 *    update_entity_load_avg(se, 1) brings the group entity to cb;
 *  - v4.3-v4.9 (4.9): the group cfs_rq is aged to cb exactly (last_update_time
 *    = now before v4.12); its load fell by about y^3 = 0.937, past 1/64, so
 *    update_tg_load_avg() publishes it; the group entity is not touched;
 *  - v4.10-v5.6 (4.19): the same, the cfs_rq in whole 1024 ns units (v4.12+),
 *    and the group entity, which still has load, is aged too.
 * A second pass within 50 us is the same pass; a v5.7+ model makes none.
 */
static void test_old_blocked_averages(void **state)
{
	const char *const kernels[] = { "3.18", "4.9", "4.19" };
	const uint64_t c0 = 3000000000000ull, t0 = 5000000000ull;
	uint64_t tb, cb, blocked, lut0, se_lut0, n, load0;
	const struct cfsr_cfs_rq *g;
	struct cfsr_replay *r;
	long double want;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		r = group_cpu0(kernels[i], t0, c0);
		feed(r, ev_wakeup(t0 + 1000, 0, 0, 71, 0));
		feed(r, ev_switch(t0 + 5000, 0, 0, 0, false, 71));
		feed(r, ev_runtime(t0 + 20005000, 0, 71, 71, 20000000));
		feed(r, ev_switch(t0 + 20005000, 0, 71, 1, false, 0));
		g = cfsr_replay_cfs_rq(r, "/g", 0);
		assert_non_null(g);
		tb = t0 + 23005000;
		cb = c0 + (tb - t0);
		blocked = g->avg.old.cfs.blocked_load_avg;
		n = (cb >> 20) - g->avg.old.cfs.last_decay;
		lut0 = g->avg.last_update_time;
		se_lut0 = g->se_avg.last_update_time;
		load0 = g->avg.load_avg;
		assert_int_equal(cfsr_replay_blocked_averages(r, 0, tb, cb), 1);
		assert_int_equal(cfsr_replay_blocked_averages(r, 0, tb + 10000, cb + 10000), 0);
		assert_int_equal(cfsr_replay_stats(r)->blocked_averages, 1);
		assert_int_equal(cfsr_replay_tg_load_avg(r, g), (int64_t)g->avg.load_avg);
		assert_int_equal(g->tg_load_avg_contrib, g->avg.load_avg);
		if (i == 0) {
			want = (long double)blocked * y_pow((long double)n);
			assert_true(n >= 2 && n <= 4);
			/* fell, by less than the 1/8 an unforced push needs */
			assert_true(g->avg.load_avg < load0 &&
				    8 * (load0 - g->avg.load_avg) < load0);
			assert_true((long double)g->avg.old.cfs.blocked_load_avg <= want + 0.001L);
			assert_true((long double)g->avg.old.cfs.blocked_load_avg >= want - 2);
			assert_int_equal(g->se_avg.last_update_time, cb);
		} else if (i == 1) {
			assert_int_equal(g->avg.last_update_time, cb);
			assert_int_equal(g->se_avg.last_update_time, se_lut0);
		} else {
			assert_true(cb - g->avg.last_update_time < 1024);
			assert_int_equal((g->avg.last_update_time - lut0) % 1024, 0);
			assert_true(g->se_avg.load_avg > 0);
			assert_true(g->se_avg.last_update_time > se_lut0);
			assert_true(cb - g->se_avg.last_update_time < 1024);
		}
		cfsr_replay_free(r);
	}
	r = cfsr_replay_new(1, cfsr_profile_for("6.18"), 250);
	assert_int_equal(cfsr_replay_blocked_averages(r, 0, t0, c0), 0);
	cfsr_replay_free(r);
}

/*
 * v4.15-v5.6: the cfs_rq keeps runnable_load_avg beside load_avg.  When
 * one of two tasks sleeps, its load leaves the runnable load at once
 * (dequeue_runnable_load_avg()) but stays in load_avg, decaying as blocked
 * load.  The same under v4.9, where entities have no runnable_load signal
 * of their own.
 */
static void test_v4_runnable_load(void **state)
{
	const char *const kernels[] = { "4.9", "4.19" };
	const int pid[2] = { 40, 41 }, prio[2] = { 120, 120 };
	const struct cfsr_cfs_rq *root;
	const struct cfsr_task *b;
	struct cfsr_replay *r;
	uint64_t ts;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		r = cfsr_replay_new(1, cfsr_profile_for(kernels[i]), 250);
		assert_non_null(r);
		ts = take_turns(r, pid, prio);
		/* task 40 runs, then blocks; 41 runs alone */
		feed(r, ev_runtime(ts + 1000000, 0, 40, 40, 1000000));
		feed(r, ev_switch(ts + 1000500, 0, 40, 1, false, 41));
		root = cfsr_replay_cfs_rq(r, "/", 0);
		b = cfsr_replay_task(r, 41);
		assert_true(root->avg.old.v4.runnable_load_avg < root->avg.load_avg);
		assert_true((double)root->avg.old.v4.runnable_load_avg < 0.55 * root->avg.load_avg);
		assert_true((double)root->avg.old.v4.runnable_load_avg > 0.9 * b->avg.load_avg);
		cfsr_replay_free(r);
	}
}

/*
 * The sums of @cfs computed from its entities: (v - zero) * weight over
 * the queued tasks @pids (none running) and the group entity @g if it is
 * queued and not running, weights scaled down (>> 10).
 */
static void sums_of(struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, const int *pids, int n,
		    const struct cfsr_cfs_rq *g, int64_t *avg, uint64_t *load)
{
	int i;

	*avg = 0;
	*load = 0;
	for (i = 0; i < n; i++) {
		const struct cfsr_task *t = cfsr_replay_task(r, pids[i]);

		*avg += (int64_t)(t->vruntime - cfs->zero_vruntime) *
			(int64_t)(t->load_weight >> 10);
		*load += t->load_weight >> 10;
	}
	if (g && g->se_on_rq && g->curr <= 0) {
		*avg += (int64_t)(g->se_vruntime - cfs->zero_vruntime) *
			(int64_t)(g->se_weight >> 10);
		*load += g->se_weight >> 10;
	}
}

/*
 * Lock-step takes of the kernel's EEVDF state, after group_of_three() with
 * C (in /g) running: A and B are in the root's sums, /g's entity is the
 * root's curr.  The kernel's frame is the engine's moved by D: the first
 * reading of the root's sums moves every entity by D, after which the sums
 * equal the kernel's; a task's reading sets its vruntime, deadline and
 * slice, and the sums follow; a sleeping task takes its lag and relative
 * deadline; a reading that says queued for a task the engine has asleep is
 * not taken.
 */
static void test_take_eevdf(void **state)
{
	const uint64_t t0 = 5000000000ull, D = 1000000000000ull, Z = D + 123456;
	struct cfsr_replay *r = run_group_delayed(t0);
	struct cfsr_cfs_rq *root = cfsr_replay_cfs_rq(r, "/", 0);
	struct cfsr_cfs_rq *g = cfsr_replay_cfs_rq(r, "/g", 0);
	struct cfsr_task *a = cfsr_replay_task(r, 70), *b = cfsr_replay_task(r, 71);
	struct cfsr_task *c = cfsr_replay_task(r, 72);
	const int ab[] = { 70, 71 };
	uint64_t va = a->vruntime, vb = b->vruntime, vg = g->se_vruntime, da = a->deadline, load;
	struct cfsr_eevdf_sums ks = { Z,
				      (int64_t)(va + D - Z) * 1024 + (int64_t)(vb + D - Z) * 1024,
				      2048, vg + D, 2 * W0 };
	struct cfsr_eevdf k = { true, va + D + 5000, va + D + 900000, 0, 2800000, false };
	int64_t avg;

	(void)state;
	assert_true(g->curr == 72 && !g->se_in_sums);
	assert_int_equal(cfsr_replay_cfs_rq_take_eevdf(r, root, &ks), 1);
	assert_true(root->eevdf_framed);
	assert_int_equal(root->zero_vruntime, Z);
	assert_int_equal(a->vruntime, va + D);
	assert_int_equal(b->vruntime, vb + D);
	assert_int_equal(g->se_vruntime, vg + D);
	assert_int_equal(a->deadline, da + D);
	assert_int_equal(root->avg_vruntime, ks.avg_vruntime);
	assert_int_equal(root->avg_load, 2048);

	assert_int_equal(cfsr_replay_task_take_eevdf(r, a, &k), 1);
	assert_int_equal(a->vruntime, va + D + 5000);
	assert_int_equal(a->deadline, va + D + 900000);
	assert_int_equal(a->slice, 2800000);
	sums_of(r, root, ab, 2, g, &avg, &load);
	assert_int_equal(root->avg_vruntime, avg);
	assert_int_equal(root->avg_vruntime, ks.avg_vruntime + 5000 * 1024);
	assert_int_equal(root->avg_load, load);

	/* C blocks: /g's entity stays queued, delayed, and joins the sums */
	feed(r, ev_switch(t0 + 2400100, 0, 72, 1, false, 70));
	assert_true(g->se_delayed && g->se_in_sums);
	k = (struct cfsr_eevdf){ true, vg + D + 777, vg + D + 999, 0, 700000, false };
	assert_int_equal(cfsr_replay_gse_take_eevdf(r, g, &k), 1);
	assert_int_equal(g->se_vruntime, vg + D + 777);
	assert_int_equal(g->se_deadline, vg + D + 999);
	sums_of(r, root, &ab[1], 1, g, &avg, &load);
	assert_int_equal(root->avg_vruntime, avg);
	assert_int_equal(root->avg_load, load);

	/* C is asleep: a queued reading is not taken, one off its cfs_rq is */
	k = (struct cfsr_eevdf){ true, 1, 2, -3, 4, false };
	assert_int_equal(cfsr_replay_task_take_eevdf(r, c, &k), 0);
	assert_int_not_equal(c->vruntime, 1);
	k = (struct cfsr_eevdf){ false, 1, 250000, -42000, 2800000, true };
	assert_int_equal(cfsr_replay_task_take_eevdf(r, c, &k), 1);
	assert_int_equal(c->vlag, -42000);
	assert_true(c->rel_deadline);
	assert_int_equal(c->deadline, 250000);
	assert_int_not_equal(c->vruntime, 1);
	cfsr_replay_free(r);
}

/*
 * After run_until_delayed(): A is delayed, B running.  A reading of A off
 * its cfs_rq (the kernel completed its delayed dequeue unseen) dequeues
 * it: the root loses A's weight and count, B's part stays; A's lag is the
 * reading's.  A second reading changes nothing more; B is not delayed.
 */
static void test_take_dequeued(void **state)
{
	struct cfsr_eevdf k = { false, 1, 2, -7000, 2800000, false };
	struct cfsr_replay *r = cfsr_replay_new(1, prof(), 250);
	struct cfsr_sched_avg want;

	const struct cfsr_cfs_rq *root;
	struct cfsr_task *a, *b;

	(void)state;
	run_until_delayed(r, 5000000000000ull, 3000000000ull, &want);
	root = cfsr_replay_cfs_rq(r, "/", 0);
	a = cfsr_replay_task(r, 50);
	b = cfsr_replay_task(r, 51);
	assert_int_equal(a->state, CFSR_TS_DELAYED);
	assert_int_equal(root->nr_queued, 2);
	assert_int_equal(root->load_weight, 2 * W0);
	/* A alone in the sums: B runs */
	assert_int_equal(root->avg_load, 1024);
	assert_int_equal(cfsr_replay_task_take_dequeued(r, a), 1);
	assert_int_equal(a->state, CFSR_TS_SLEEPING);
	assert_int_equal(root->nr_queued, 1);
	assert_int_equal(root->h_nr_queued, 1);
	assert_int_equal(root->h_nr_runnable, 1);
	assert_int_equal(root->load_weight, W0);
	assert_int_equal(root->avg_load, 0);
	assert_int_equal(root->avg_vruntime, 0);
	assert_int_equal(cfsr_replay_task_take_eevdf(r, a, &k), 1);
	assert_int_equal(a->vlag, -7000);
	assert_int_equal(a->vruntime, 2100000);
	assert_int_equal(cfsr_replay_task_take_dequeued(r, a), 0);
	assert_int_equal(cfsr_replay_task_take_dequeued(r, b), 0);
	assert_int_equal(b->state, CFSR_TS_RUNNING);
	cfsr_replay_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_chain),
		cmocka_unit_test(test_clock_update_kept),
		cmocka_unit_test(test_clock_exact_from_stamp),
		cmocka_unit_test(test_util_est_sample_v6_18),
		cmocka_unit_test(test_util_est_sample_v6_11),
		cmocka_unit_test(test_runtime_in_wakeup),
		cmocka_unit_test(test_consecutive_ticks),
		cmocka_unit_test(test_runtime_read),
		cmocka_unit_test(test_recovered_switch),
		cmocka_unit_test(test_remote_report),
		cmocka_unit_test(test_remote_settle),
		cmocka_unit_test(test_pull_lifo),
		cmocka_unit_test(test_unreported_pick),
		cmocka_unit_test(test_recovered_switch_waker),
		cmocka_unit_test(test_unseen_switch_out),
		cmocka_unit_test(test_idle_balance_pull_stays_queued),
		cmocka_unit_test(test_pid_reuse_and_growth),
		cmocka_unit_test(test_switch_grows_table),
		cmocka_unit_test(test_delayed_dequeue),
		cmocka_unit_test(test_stable_runnable_delayed),
		cmocka_unit_test(test_take_queued),
		cmocka_unit_test(test_take_delayed),
		cmocka_unit_test(test_lost_sleep_undone),
		cmocka_unit_test(test_requeue_stale_curr),
		cmocka_unit_test(test_sleeping_migration_keeps_weight),
		cmocka_unit_test(test_newidle_dequeue),
		cmocka_unit_test(test_newidle_dequeue_delayed),
		cmocka_unit_test(test_recorded_base_slice),
		cmocka_unit_test(test_stable_base_slice),
		cmocka_unit_test(test_recorded_cfs_tunables),
		cmocka_unit_test(test_trace_features),
		cmocka_unit_test(test_trace_place_initial),
		cmocka_unit_test(test_move_group),
		cmocka_unit_test(test_fork_and_attach),
		cmocka_unit_test(test_group_mkdir_rmdir),
		cmocka_unit_test(test_group_shares_stated),
		cmocka_unit_test(test_group_set_shares),
		cmocka_unit_test(test_group_shares_idle_nice),
		cmocka_unit_test(test_h_nr_idle),
		cmocka_unit_test(test_h_nr_idle_delayed),
		cmocka_unit_test(test_delayed_requeue),
		cmocka_unit_test(test_delayed_pick_keeps),
		cmocka_unit_test(test_root_cfs_rq),
		cmocka_unit_test(test_group_entity),
		cmocka_unit_test(test_stable_keep_empty_weight),
		cmocka_unit_test(test_group_take_tg),
		cmocka_unit_test(test_recover_ahead),
		cmocka_unit_test(test_exit_move),
		cmocka_unit_test(test_moved_to_idle),
		cmocka_unit_test(test_take_exec_start),
		cmocka_unit_test(test_newidle_pull),
		cmocka_unit_test(test_blocked_after_newidle),
		cmocka_unit_test(test_off_tick_pick),
		cmocka_unit_test(test_put_unseen),
		cmocka_unit_test(test_group_entity_eevdf),
		cmocka_unit_test(test_take_eevdf),
		cmocka_unit_test(test_take_dequeued),
		cmocka_unit_test(test_group_entity_pick),
		cmocka_unit_test(test_group_entity_reweight),
		cmocka_unit_test(test_group_entity_reweight_eevdf),
		cmocka_unit_test(test_reweight_eevdf_clamp),
		cmocka_unit_test(test_group_entity_enqueue_update_curr),
		cmocka_unit_test(test_group_entity_cfs_profile),
		cmocka_unit_test(test_group_walk_counts),
		cmocka_unit_test(test_group_delayed_counts),
		cmocka_unit_test(test_group_propagation_series),
		cmocka_unit_test(test_group_two_groups_two_cpus),
		cmocka_unit_test(test_group_one_group_two_cpus),
		cmocka_unit_test(test_take_weight_idle),
		cmocka_unit_test(test_set_nice_running),
		cmocka_unit_test(test_set_nice_sleeping),
		cmocka_unit_test(test_group_move_and_blocked),
		cmocka_unit_test(test_move_group_reweight_before_detach),
		cmocka_unit_test(test_group_reweight_unchanged),
		cmocka_unit_test(test_wakeup_reading),
		cmocka_unit_test(test_balance_attach),
		cmocka_unit_test(test_balance_attach_record_before),
		cmocka_unit_test(test_balance_attach_record_moved_again),
		cmocka_unit_test(test_legacy_run_sleep),
		cmocka_unit_test(test_old_two_tasks),
		cmocka_unit_test(test_old_nice_pair),
		cmocka_unit_test(test_capacity_clock_pelt),
		cmocka_unit_test(test_capacity_lost_idle),
		cmocka_unit_test(test_capacity_v4_contrib),
		cmocka_unit_test(test_capacity_legacy),
		cmocka_unit_test(test_freq_events),
		cmocka_unit_test(test_groups_equal_shares),
		cmocka_unit_test(test_old_blocked_averages),
		cmocka_unit_test(test_legacy_second_loop),
		cmocka_unit_test(test_legacy_tick_publishes),
		cmocka_unit_test(test_v4_runnable_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

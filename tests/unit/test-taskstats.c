// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/taskstats.c: the accounting rules of
 * docs/cfsreplay-compare.1.txt on hand-built event sequences.  Every
 * expected value is worked out by hand in the comment before it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "error.h"
#include "taskstats.h"

static void quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

static struct cfsr_event ev_base(enum cfsr_event_kind kind, uint64_t ts, int cpu, int ctx)
{
	struct cfsr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.ts = ts;
	ev.cpu = cpu;
	ev.pid = ctx;
	ev.type = -1;
	return ev;
}

static void feed(struct cfsr_taskstats *s, const struct cfsr_event *ev)
{
	assert_int_equal(cfsr_taskstats_event(s, ev), 0);
}

static void sw(struct cfsr_taskstats *s, uint64_t ts, int cpu, int prev, const char *pc,
	       uint64_t state, int next, const char *nc, int next_prio)
{
	struct cfsr_event ev = ev_base(CFSR_EV_SWITCH, ts, cpu, prev);

	ev.sw.prev_pid = prev;
	ev.sw.prev_prio = 120;
	ev.sw.prev_state = state;
	ev.sw.next_pid = next;
	ev.sw.next_prio = next_prio;
	strncpy(ev.sw.prev_comm, pc, CFSR_COMM_LEN - 1);
	strncpy(ev.sw.next_comm, nc, CFSR_COMM_LEN - 1);
	feed(s, &ev);
}

static void wake(struct cfsr_taskstats *s, enum cfsr_event_kind kind, uint64_t ts, int ctx, int pid,
		 const char *comm, int prio)
{
	struct cfsr_event ev = ev_base(kind, ts, 0, ctx);

	ev.wake.pid = pid;
	ev.wake.prio = prio;
	ev.wake.target_cpu = 0;
	ev.wake.success = -1;
	strncpy(ev.wake.comm, comm, CFSR_COMM_LEN - 1);
	feed(s, &ev);
}

static void mark(struct cfsr_taskstats *s, uint64_t ts, int cpu, int ctx)
{
	struct cfsr_event ev = ev_base(CFSR_EV_MARKER, ts, cpu, ctx);

	ev.marker.text = "x";
	feed(s, &ev);
}

static const struct cfsr_task_sum *get(const struct cfsr_taskstats *s, const char *comm)
{
	const struct cfsr_task_sum *t = cfsr_taskstats_find(s, comm);

	assert_non_null(t);
	return t;
}

static void test_lathist(void **state)
{
	struct cfsr_lathist h = { 0 };
	uint64_t v;

	(void)state;
	/* below 2^7 every value is its own bucket */
	assert_int_equal(cfsr_lathist_upper(0), 0);
	assert_int_equal(cfsr_lathist_upper(127), 127);
	/* 128..255: e = 7, s = 0: still exact */
	assert_int_equal(cfsr_lathist_upper(200), 200);
	/* 256: e = 8, s = 1: ((256 >> 1) << 1) + 1 */
	assert_int_equal(cfsr_lathist_upper(256), 257);
	/* 1000: e = 9, s = 2: 1000 + 3; 1001 is in the same bucket */
	assert_int_equal(cfsr_lathist_upper(1000), 1003);
	assert_int_equal(cfsr_lathist_upper(1001), 1003);
	/* 2^40 + 12345: s = 33, bucket [2^40, 2^40 + 2^33) */
	assert_int_equal(cfsr_lathist_upper((1ULL << 40) + 12345), (1ULL << 40) + (1ULL << 33) - 1);

	assert_int_equal(cfsr_lathist_percentile(&h, 50), 0);
	for (v = 1; v <= 100; v++)
		assert_int_equal(cfsr_lathist_add(&h, v), 0);
	/* nearest rank of 1..100: the pct-th value, exact below 128 */
	assert_int_equal(cfsr_lathist_percentile(&h, 50), 50);
	assert_int_equal(cfsr_lathist_percentile(&h, 90), 90);
	assert_int_equal(cfsr_lathist_percentile(&h, 99), 99);
	assert_int_equal(cfsr_lathist_percentile(&h, 100), 100);
	assert_int_equal(h.sum, 5050);
	cfsr_lathist_release(&h);

	/* 1000, 2000, 3000, 4000: p50 = rank 2 = 2000, bucket upper 2000 + 7 */
	for (v = 1000; v <= 4000; v += 1000)
		assert_int_equal(cfsr_lathist_add(&h, v), 0);
	assert_int_equal(cfsr_lathist_percentile(&h, 50), 2007);
	/* p99 = rank ceil(3.96) = 4 = 4000, bucket upper 4015, capped at max 4000 */
	assert_int_equal(cfsr_lathist_percentile(&h, 99), 4000);
	/* p1 = rank 1 */
	assert_int_equal(cfsr_lathist_percentile(&h, 1), 1003);
	cfsr_lathist_release(&h);
}

static void test_intervals_latency_fair(void **state)
{
	struct cfsr_taskstats *s = cfsr_taskstats_new(1);
	const struct cfsr_task_sum *a, *b;

	(void)state;
	assert_non_null(s);
	/* idle is current from the first event (cpu unknown before: no inferred switch) */
	wake(s, CFSR_EV_WAKING, 1000, 0, 10, "A", 120);
	wake(s, CFSR_EV_WAKEUP, 1500, 0, 10, "A", 120);
	sw(s, 2000, 0, 0, "swapper/0", 0, 10, "A", 120);
	sw(s, 5000, 0, 10, "A", CFSR_TASK_RUNNING, 11, "B", 120);
	sw(s, 6000, 0, 11, "B", CFSR_TASK_INTERRUPTIBLE, 10, "A", 120);
	sw(s, 9000, 0, 10, "A", CFSR_TASK_INTERRUPTIBLE, 0, "swapper/0", 120);
	mark(s, 10000, 0, 0);
	cfsr_taskstats_finish(s);

	a = get(s, "A");
	b = get(s, "B");
	/* A ran 2000-5000 and 6000-9000, B 5000-6000 */
	assert_int_equal(a->runtime, 6000);
	assert_int_equal(b->runtime, 1000);
	assert_int_equal(s->cpus[0].busy, 7000);
	assert_int_equal(s->first_ts, 1000);
	assert_int_equal(s->last_ts, 10000);
	assert_int_equal(s->inferred_switches, 0);
	/* switched out: A once preempted (R) and once asleep, B asleep */
	assert_int_equal(a->switches_preempted, 1);
	assert_int_equal(a->switches_voluntary, 1);
	assert_int_equal(b->switches_voluntary, 1);
	assert_int_equal(b->switches_preempted, 0);
	/* one wake-up (waking + wakeup), latency 2000 - 1000 */
	assert_int_equal(a->wakeups, 1);
	assert_int_equal(b->wakeups, 0);
	assert_int_equal(a->lat.count, 1);
	assert_int_equal(a->lat.max, 1000);
	assert_int_equal(s->lat_all.count, 1);
	/*
	 * Fair share on 1 CPU: A alone runnable 1500-5000 (3500), A and B
	 * 5000-6000 (500 each), A alone 6000-9000 (3000): A 7000, B 500.
	 */
	assert_int_equal(a->fair, 7000);
	assert_int_equal(b->fair, 500);
	assert_int_equal(a->nr_tasks, 1);
	cfsr_taskstats_free(s);
}

static void test_fair_water_filling(void **state)
{
	struct cfsr_taskstats *s = cfsr_taskstats_new(2);
	const struct cfsr_task_sum *a, *b, *c;

	(void)state;
	assert_non_null(s);
	/* A nice -5 (prio 115, weight 3121), B and C nice 0 (1024), on 2 CPUs */
	wake(s, CFSR_EV_WAKEUP, 100, 0, 10, "A", 115);
	wake(s, CFSR_EV_WAKEUP, 100, 0, 11, "B", 120);
	wake(s, CFSR_EV_WAKEUP, 100, 0, 12, "C", 120);
	mark(s, 1000100, 0, 0);
	cfsr_taskstats_finish(s);
	a = get(s, "A");
	b = get(s, "B");
	c = get(s, "C");
	/*
	 * W = 5169: A's proportional share 2 * 3121 / 5169 = 1.21 CPUs is
	 * more than one, so A gets one CPU (1000000 ns) and B and C split the
	 * other: 1000000 * 1 * 1024 / 2048 = 500000 each.
	 */
	assert_int_equal(a->fair, 1000000);
	assert_int_equal(b->fair, 500000);
	assert_int_equal(c->fair, 500000);
	/* sched_wakeup without sched_waking counts as the wake-up */
	assert_int_equal(a->wakeups, 1);
	assert_int_equal(a->lat.count, 0);
	cfsr_taskstats_free(s);

	/* three nice-0 tasks on 2 CPUs for 1000 ns: floor(1000 * 2 * 1024 / 3072) = 666 */
	s = cfsr_taskstats_new(2);
	assert_non_null(s);
	wake(s, CFSR_EV_WAKEUP, 0, 0, 10, "A", 120);
	wake(s, CFSR_EV_WAKEUP, 0, 0, 11, "B", 120);
	wake(s, CFSR_EV_WAKEUP, 0, 0, 12, "C", 120);
	mark(s, 1000, 0, 0);
	cfsr_taskstats_finish(s);
	assert_int_equal(get(s, "A")->fair, 666);
	assert_int_equal(get(s, "C")->fair, 666);
	/* an RT task (prio 50) takes no fair share */
	cfsr_taskstats_free(s);
	s = cfsr_taskstats_new(1);
	assert_non_null(s);
	wake(s, CFSR_EV_WAKEUP, 0, 0, 10, "rt", 50);
	wake(s, CFSR_EV_WAKEUP, 0, 0, 11, "B", 120);
	mark(s, 1000, 0, 0);
	cfsr_taskstats_finish(s);
	assert_int_equal(get(s, "rt")->fair, 0);
	assert_int_equal(get(s, "B")->fair, 1000);
	cfsr_taskstats_free(s);
}

static void test_inferred_switch(void **state)
{
	struct cfsr_taskstats *s = cfsr_taskstats_new(1);
	struct cfsr_event ev;
	const struct cfsr_task_sum *b;

	(void)state;
	assert_non_null(s);
	sw(s, 1000, 0, 10, "A", CFSR_TASK_INTERRUPTIBLE, 0, "swapper/0", 120);
	wake(s, CFSR_EV_WAKING, 2000, 0, 11, "B", 120);
	wake(s, CFSR_EV_WAKEUP, 2100, 0, 11, "B", 120);
	/* B's own sched_stat_runtime on CPU 0: it runs since 5000 - 2000 = 3000 */
	ev = ev_base(CFSR_EV_STAT_RUNTIME, 5000, 0, 11);
	ev.runtime.pid = 11;
	ev.runtime.runtime = 2000;
	strcpy(ev.runtime.comm, "B");
	feed(s, &ev);
	sw(s, 8000, 0, 11, "B", CFSR_TASK_INTERRUPTIBLE, 0, "swapper/0", 120);
	cfsr_taskstats_finish(s);
	b = get(s, "B");
	assert_int_equal(s->inferred_switches, 1);
	assert_int_equal(b->runtime, 5000);
	assert_int_equal(b->stat_runtime, 2000);
	assert_int_equal(b->lat.count, 1);
	assert_int_equal(b->lat.max, 1000);
	/* A's interval began at its first event: nothing before is known */
	assert_int_equal(get(s, "A")->runtime, 0);
	assert_int_equal(s->cpus[0].busy, 5000);
	cfsr_taskstats_free(s);

	/* a runtime reaching back past the CPU's previous event stops there (2100) */
	s = cfsr_taskstats_new(1);
	assert_non_null(s);
	sw(s, 1000, 0, 10, "A", CFSR_TASK_INTERRUPTIBLE, 0, "swapper/0", 120);
	wake(s, CFSR_EV_WAKING, 2000, 0, 11, "B", 120);
	wake(s, CFSR_EV_WAKEUP, 2100, 0, 11, "B", 120);
	ev.runtime.runtime = 4000;
	feed(s, &ev);
	/* another task's event on the CPU: B ends there, C starts (inferred twice) */
	mark(s, 6000, 0, 12);
	mark(s, 7000, 0, 12);
	cfsr_taskstats_finish(s);
	assert_int_equal(s->inferred_switches, 2);
	assert_int_equal(get(s, "B")->runtime, 6000 - 2100);
	assert_int_equal(get(s, "?")->runtime, 1000);
	cfsr_taskstats_free(s);
}

static void test_names_migrations(void **state)
{
	struct cfsr_taskstats *s = cfsr_taskstats_new(1);
	struct cfsr_event ev;
	const struct cfsr_task_sum *sh, *tr;

	(void)state;
	assert_non_null(s);
	mark(s, 100, 0, 0);
	ev = ev_base(CFSR_EV_FORK, 200, 0, 0);
	ev.fork.parent_pid = 1;
	ev.fork.child_pid = 12;
	strcpy(ev.fork.parent_comm, "init");
	strcpy(ev.fork.child_comm, "sh");
	feed(s, &ev);
	wake(s, CFSR_EV_WAKEUP_NEW, 300, 0, 12, "sh", 120);
	sw(s, 400, 0, 0, "swapper/0", 0, 12, "sh", 120);
	/* exec renames: the interval goes to the name it ends with */
	sw(s, 900, 0, 12, "true", CFSR_TASK_INTERRUPTIBLE, 0, "swapper/0", 120);
	ev = ev_base(CFSR_EV_FREE, 1000, 0, 0);
	ev.exit.pid = 12;
	strcpy(ev.exit.comm, "true");
	feed(s, &ev);
	/* pid 12 reused by a new "sh" */
	ev = ev_base(CFSR_EV_FORK, 1100, 0, 0);
	ev.fork.parent_pid = 1;
	ev.fork.child_pid = 12;
	strcpy(ev.fork.parent_comm, "init");
	strcpy(ev.fork.child_comm, "sh");
	feed(s, &ev);
	wake(s, CFSR_EV_WAKING, 1200, 0, 12, "sh", 120);
	ev = ev_base(CFSR_EV_MIGRATE, 1210, 0, 0);
	ev.migrate.pid = 12;
	ev.migrate.prio = 120;
	strcpy(ev.migrate.comm, "sh");
	feed(s, &ev);
	wake(s, CFSR_EV_WAKEUP, 1220, 0, 12, "sh", 120);
	ev.ts = 1300;
	feed(s, &ev);
	/* woken again before any switch in: the first episode has no sample */
	wake(s, CFSR_EV_WAKING, 1400, 0, 12, "sh", 120);
	cfsr_taskstats_finish(s);

	sh = get(s, "sh");
	tr = get(s, "true");
	assert_int_equal(sh->nr_tasks, 2);
	assert_int_equal(tr->nr_tasks, 1);
	assert_int_equal(get(s, "init")->nr_tasks, 1);
	assert_int_equal(sh->runtime, 0);
	assert_int_equal(tr->runtime, 500);
	assert_int_equal(tr->switches_voluntary, 1);
	/* wakeup_new 300, waking 1200, waking 1400 */
	assert_int_equal(sh->wakeups, 3);
	assert_int_equal(sh->wakeups_unseen, 1);
	assert_int_equal(sh->lat.count, 1);
	assert_int_equal(sh->lat.max, 100);
	assert_int_equal(sh->migrations_wakeup, 1);
	assert_int_equal(sh->migrations_other, 1);
	assert_int_equal(s->migrations, 2);
	cfsr_taskstats_free(s);
}

static void test_lost_and_bad_cpu(void **state)
{
	struct cfsr_taskstats *s = cfsr_taskstats_new(1);
	struct cfsr_event ev;

	(void)state;
	assert_non_null(s);
	sw(s, 100, 0, 0, "swapper/0", 0, 10, "A", 120);
	mark(s, 200, 0, 10);
	ev = ev_base(CFSR_EV_LOST, 300, 0, -1);
	ev.lost.nr = -1;
	feed(s, &ev);
	/* after the loss the CPU's task is unknown: B's first event is no inferred switch */
	sw(s, 400, 0, 11, "B", CFSR_TASK_INTERRUPTIBLE, 0, "swapper/0", 120);
	cfsr_taskstats_finish(s);
	assert_int_equal(s->lost_notices, 1);
	assert_int_equal(s->inferred_switches, 0);
	/* A: 100 to its last event 200; B: 400 to 400 */
	assert_int_equal(get(s, "A")->runtime, 100);
	assert_int_equal(get(s, "B")->runtime, 0);

	cfsr_error_set_hook(quiet, NULL);
	ev = ev_base(CFSR_EV_MARKER, 500, 5000, 0);
	assert_int_equal(cfsr_taskstats_event(s, &ev), -1);
	ev.cpu = -1;
	assert_int_equal(cfsr_taskstats_event(s, &ev), -1);
	cfsr_error_set_hook(NULL, NULL);
	cfsr_taskstats_free(s);
	cfsr_taskstats_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lathist),
		cmocka_unit_test(test_intervals_latency_fair),
		cmocka_unit_test(test_fair_water_filling),
		cmocka_unit_test(test_inferred_switch),
		cmocka_unit_test(test_names_migrations),
		cmocka_unit_test(test_lost_and_bad_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/imbalance.c with the domain levels of lib/topology.c,
 * through the comparators' bundle (lib/comparators.c): four CPUs judged
 * once with every CPU in one LLC and once with the two LLCs {0,1} and
 * {2,3} of two-llc.h, on spinner workloads whose windows follow by hand
 * (the rule of lib/imbalance.h, as scripts/imbalance-trace.py works it out
 * for two CPUs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "comparators.h"
#include "profile.h"
#include "two-llc.h"

#define T0 10000000000ull
#define MS 1000000ull

static void feed(struct cfsr_comparators *c, struct cfsr_event *ev)
{
	assert_int_equal(cfsr_comparators_event(c, ev), 0);
}

static void sw(struct cfsr_comparators *c, uint64_t ts, int cpu, int prev, bool sleeps, int next)
{
	struct cfsr_event ev = { .ts = ts, .cpu = cpu, .pid = prev, .kind = CFSR_EV_SWITCH };

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_state = sleeps ? CFSR_TASK_INTERRUPTIBLE : CFSR_TASK_RUNNING;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	feed(c, &ev);
}

/* The parent (pid 100, on CPU 0) forks @pid and wakes it on @cpu at @prio. */
static void spawn(struct cfsr_comparators *c, uint64_t *ts, int pid, int cpu, int prio)
{
	struct cfsr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = *ts += 1000;
	ev.pid = 100;
	ev.kind = CFSR_EV_FORK;
	ev.fork.parent_pid = 100;
	ev.fork.child_pid = pid;
	strcpy(ev.fork.parent_comm, "gen");
	strcpy(ev.fork.child_comm, "spin");
	feed(c, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.ts = *ts += 1000;
	ev.pid = 100;
	ev.kind = CFSR_EV_WAKEUP_NEW;
	ev.wake.pid = pid;
	ev.wake.prio = prio;
	ev.wake.success = -1;
	ev.wake.target_cpu = cpu;
	strcpy(ev.wake.comm, "spin");
	feed(c, &ev);
}

/* Each CPU's first spinner reports 4 ms of run time every 4 ms up to @end_ms. */
static void ticks(struct cfsr_comparators *c, const int *first, uint64_t end_ms, uint64_t move_ms,
		  int from, int to)
{
	struct cfsr_event ev;
	uint64_t ts;
	int cpu;

	for (ts = T0 + 4 * MS; ts <= T0 + end_ms * MS; ts += 4 * MS) {
		for (cpu = 0; cpu < 4; cpu++) {
			memset(&ev, 0, sizeof(ev));
			ev.ts = ts + (uint64_t)cpu * 1000;
			ev.cpu = cpu;
			ev.pid = first[cpu];
			ev.kind = CFSR_EV_STAT_RUNTIME;
			ev.runtime.pid = first[cpu];
			ev.runtime.runtime = 4 * MS;
			strcpy(ev.runtime.comm, "spin");
			feed(c, &ev);
		}
		if (ts == T0 + move_ms * MS) {
			memset(&ev, 0, sizeof(ev));
			ev.ts = ts + 10000;
			ev.cpu = to;
			ev.kind = CFSR_EV_MIGRATE;
			ev.migrate.pid = first[from] + 1;
			ev.migrate.prio = 120;
			ev.migrate.orig_cpu = from;
			ev.migrate.dest_cpu = to;
			strcpy(ev.migrate.comm, "spin");
			feed(c, &ev);
		}
	}
}

/*
 * Four CPUs described by @in: the parent (pid 100) forks @nr[cpu] spinners
 * woken on each CPU (CPU 3's at @prio3), then sleeps; each CPU runs its
 * first spinner (@first).
 */
static void start(struct cfsr_comparators *c, const struct cfsr_trace_info *in, const int *nr,
		  int prio3, int *first)
{
	struct cfsr_comparators_params p = {
		.info = in,
		.nr_cpus = 4,
		.hz = 250,
		.prof = cfsr_profile_for("6.18"),
		.top = 4,
		.win_end = UINT64_MAX,
		.filter_cpu = -1,
		.filter_pid = -1,
	};
	int pid = 200, cpu, k;
	uint64_t ts = T0;

	assert_int_equal(cfsr_comparators_init(c, &p), 0);
	for (cpu = 1; cpu < 4; cpu++)
		sw(c, ts, cpu, 0, false, 0);
	sw(c, ts, 0, 0, false, 100);
	for (cpu = 0; cpu < 4; cpu++)
		for (k = 0; k < nr[cpu]; k++) {
			spawn(c, &ts, ++pid, cpu, cpu == 3 ? prio3 : 120);
			if (!k)
				first[cpu] = pid;
		}
	sw(c, ts += 1000, 0, 100, true, first[0]);
	for (cpu = 1; cpu < 4; cpu++)
		sw(c, ts += 1000, cpu, 0, false, first[cpu]);
}

/*
 * A parent (pid 100) on CPU 0 forks nice-0 spinners at T0, four woken on
 * CPU 0, one on @light, two on each other CPU, then sleeps; each CPU runs
 * its first spinner, the others wait, and every task always runs or waits,
 * so its load_avg stays about 1024: B = CPU 0 (~4096), L = @light (~1024),
 * imbalance ~1536, a waiting spinner (~1024) fits: one window from the
 * last wakeup.  At @move_ms a waiting spinner of CPU 0 migrates to @light,
 * which ends it (3 tasks against 2 leave an imbalance of ~512: no window
 * after).  Ticks every 4 ms on every CPU.
 */
static void run(const struct cfsr_trace_info *in, int light, uint64_t move_ms,
		struct cfsr_imb_totals *tot, int *level)
{
	int nr[4] = { 4, 2, 2, 2 }, first[4] = { 0 };
	const struct cfsr_imb_window *w;
	struct cfsr_comparators c;

	nr[light] = 1;
	start(&c, in, nr, 120, first);
	ticks(&c, first, 100, move_ms, 0, light);
	cfsr_comparators_finish(&c);
	*tot = *cfsr_imb_totals(c.im);
	*level = cfsr_imb_top(c.im, &w) ? w[0].level : -1;
	if (*level >= 0) {
		assert_int_equal(w[0].busiest, 0);
		assert_int_equal(w[0].local, light);
		assert_int_equal(w[0].why, CFSR_IMB_MIGRATION);
	}
	cfsr_comparators_release(&c);
}

/*
 * L = CPU 1, in CPU 0's LLC, the window ~48 ms long.  One LLC: one level
 * of four CPUs, busy interval 4 ms x 16 = 64 ms: not lasting.  Two LLCs:
 * the MC level (CPUs 0-1) holds the pair, busy interval 2 ms x 16 = 32 ms
 * at HZ=250: lasting, at MC (level 0), ended by the migration.
 */
static void test_same_llc(void **state)
{
	struct cfsr_imb_totals t;
	int level;

	(void)state;
	run(NULL, 1, 48, &t, &level);
	assert_int_equal(t.lasting, 0);
	assert_int_equal(level, -1);
	/* the window was there, transient */
	assert_true(t.transient_ns > 47 * MS && t.transient_ns < 49 * MS);
	run(&two_llc, 1, 48, &t, &level);
	assert_int_equal(t.lasting, 1);
	assert_int_equal(t.level_lasting[0], 1);
	assert_int_equal(t.level_lasting[1], 0);
	assert_int_equal(t.ended[CFSR_IMB_MIGRATION], 1);
	assert_int_equal(level, 0);
	/* about 48 ms, all of it in the level's time */
	assert_true(t.level_lasting_ns[0] > 47 * MS && t.level_lasting_ns[0] < 49 * MS);
	assert_true(t.lasting_ns[CFSR_IMB_ALLOWED] == t.level_lasting_ns[0]);
}

/*
 * L = CPU 2, in the other LLC: the pair shares only the PKG level (four
 * CPUs, 64 ms), as the one level of one LLC does.  ~48 ms: lasting in
 * neither; ~72 ms: lasting in both, at PKG (level 1) with two LLCs.
 */
static void test_other_llc(void **state)
{
	struct cfsr_imb_totals t;
	int level;

	(void)state;
	run(NULL, 2, 48, &t, &level);
	assert_int_equal(t.lasting, 0);
	run(&two_llc, 2, 48, &t, &level);
	assert_int_equal(t.lasting, 0);
	assert_true(t.transient_ns > 47 * MS && t.transient_ns < 49 * MS);
	run(NULL, 2, 72, &t, &level);
	assert_int_equal(t.lasting, 1);
	assert_int_equal(level, 0);
	run(&two_llc, 2, 72, &t, &level);
	assert_int_equal(t.lasting, 1);
	assert_int_equal(t.level_lasting[1], 1);
	assert_int_equal(level, 1);
}

/*
 * Two LLCs {0,1} and {2,3}: two nice-0 spinners on each of CPUs 0 and 1,
 * one nice-0 on CPU 2 and one nice-5 (weight 335) on CPU 3, from T0 to
 * @end_ms (or until a waiting spinner of CPU 0 moves to CPU 3 at @move_ms).
 * By hand, loads at their initial weights (a new task's load_avg starts at
 * its weight; each always runs or waits, so they stay there give or take
 * the PELT ripple):
 *  - CPU pairs: B = CPU 0 or 1 (~2048), L = CPU 3 (~335, one task):
 *    imbalance min(B - avg, avg - L) ~856 < a spinner's ~1024: no window;
 *  - PKG's groups {0,1} (4 tasks on 2 CPUs: overloaded, avg_load ~2048)
 *    and {2,3} (2 tasks: fully busy, avg_load ~(1024 + 335) / 2 = 679),
 *    domain average ~(4096 + 1359) / 4 = 1363: imbalance min((2048 -
 *    1363) x 2, (1363 - 679) x 2) ~1368 >= 1024: one window at PKG
 *    (level 1) from the last wakeup, B the group of CPU 0, L that of CPU 2,
 *    class allowed.  PKG's busy interval is 4 ms x 16 = 64 ms, its longest
 *    (4 ms doubled to max_interval 8 ms) 128 ms at HZ=250.
 *  - after the move, {0,1} ~1536 and {2,3} ~1191 (3 tasks each, both
 *    overloaded): imbalance ~344 < 1024, no window.
 * MC's groups are single CPUs: no group windows there.
 */
static void run_groups(uint64_t end_ms, uint64_t move_ms, struct cfsr_imb_totals *cpus,
		       struct cfsr_imb_totals *groups, struct cfsr_imb_window *longest)
{
	int nr[4] = { 2, 2, 1, 1 }, first[4] = { 0 };
	const struct cfsr_imb_window *w;
	struct cfsr_comparators c;

	start(&c, &two_llc, nr, 125, first);
	assert_true(cfsr_imb_has_groups(c.im));
	ticks(&c, first, end_ms, move_ms, 0, 3);
	cfsr_comparators_finish(&c);
	*cpus = *cfsr_imb_totals(c.im);
	*groups = *cfsr_imb_group_totals(c.im);
	memset(longest, 0, sizeof(*longest));
	if (cfsr_imb_group_top(c.im, &w))
		*longest = w[0];
	cfsr_comparators_release(&c);
}

static void test_groups(void **state)
{
	struct cfsr_imb_totals t, g;
	struct cfsr_imb_window w;

	(void)state;
	/* no move: the group window lasts to the end, ~200 ms: beyond 128 ms */
	run_groups(200, 0, &t, &g, &w);
	assert_int_equal(t.windows, 0);
	assert_int_equal(g.windows, 1);
	assert_int_equal(g.level_windows[1], 1);
	assert_int_equal(g.lasting, 1);
	assert_int_equal(g.level_lasting[1], 1);
	assert_int_equal(g.beyond_max, 1);
	assert_int_equal(g.ended[CFSR_IMB_TRACE_END], 1);
	assert_true(w.group);
	assert_int_equal(w.level, 1);
	assert_int_equal(w.busiest, 0);
	assert_int_equal(w.local, 2);
	/* at its start the parent still runs on CPU 0 beside the four spinners */
	assert_int_equal(w.busiest_nr, 5);
	assert_int_equal(w.local_nr, 2);
	assert_int_equal(w.class, CFSR_IMB_ALLOWED);
	assert_true(w.busiest_cpu == 0 || w.busiest_cpu == 1);
	assert_int_equal(w.interval_ns, 64 * MS);
	assert_int_equal(w.max_interval_ns, 128 * MS);
	/* the group avg_loads, by hand ~2048 and ~679 */
	assert_true(w.busiest_load > 1950 && w.busiest_load < 2150);
	assert_true(w.local_load > 640 && w.local_load < 720);
	assert_true(w.end - w.start > 195 * MS && w.end - w.start < 201 * MS);
	/* a move from CPU 0 to CPU 3 at ~100 ms ends it: lasting, not beyond 128 ms */
	run_groups(200, 100, &t, &g, &w);
	assert_int_equal(t.lasting, 0);
	assert_int_equal(g.windows, 1);
	assert_int_equal(g.lasting, 1);
	assert_int_equal(g.beyond_max, 0);
	assert_int_equal(g.ended[CFSR_IMB_MIGRATION], 1);
	assert_true(w.end - w.start > 95 * MS && w.end - w.start < 101 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_llc),
		cmocka_unit_test(test_other_llc),
		cmocka_unit_test(test_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

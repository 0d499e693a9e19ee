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
#include "imbalance-local.h"
#include "profile.h"
#include "two-llc.h"

#define T0 10000000000ull
#define MS 1000000ull

/* the modelled release */
static const char *release = "6.18";

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
		.prof = cfsr_profile_for(release),
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

/*
 * By hand, group types (group_classify(), PKG's imbalance_pct 117, each
 * group's capacity 2048): a new task woken on an idle CPU starts at
 * util_avg = runnable_avg = 512 or less (post_init_entity_util_avg(): at
 * most half the capacity its CPU has left), so at the wakeups {0,1}'s
 * four spinners (with the parent, five tasks) bring it at most 2 x (512 +
 * 256) = 1536 of runnable beside the parent's: not overloaded (runnable
 * above 2048 x 117 / 100 = 2396.2, or util above 1750.4), and with its
 * util below 1750.4 it has spare capacity; {2,3} too (two tasks, util
 * ~1024).  A busy local group then finds a busiest group that is not
 * overloaded balanced (v6.6+: sibling_imbalance() is 0 for a busy CPU).
 * {0,1}'s runnable_avg rises towards 2 x 2048 (its CPUs' tasks always
 * runnable) with a half-life of 32 periods, so it passes 2396 within the
 * first 32 ms, not before 8 ms; from then migrate_util (an overloaded
 * busiest group, PKG without SD_SHARE_LLC) of 2048 - {2,3}'s util
 * (~700 at 20 ms) finds the waiting spinners, whose utilization decays
 * while they wait, and migrate_load (~1368) holds once {2,3} is fully
 * busy: one window from there to the end.
 * Under v6.2-v6.5 SD_PREFER_SIBLING's count (5 - 2 = 3 tasks, above 1)
 * forces the balance from the wakeups: migrate_task, (5 - 2) >> 1 = 1.
 */
static void test_groups(void **state)
{
	struct cfsr_imb_totals t, g;
	struct cfsr_imb_window w;
	uint64_t from_ms;

	(void)state;
	/* no move: the window lasts to the end, from the overload: beyond 128 ms */
	run_groups(200, 0, &t, &g, &w);
	assert_int_equal(t.windows, 0);
	assert_int_equal(g.windows, 1);
	assert_int_equal(g.lasting, 1);
	assert_int_equal(g.level_lasting[1], 1);
	assert_int_equal(g.beyond_max, 1);
	assert_int_equal(g.ended[CFSR_IMB_TRACE_END], 1);
	assert_true(w.group);
	assert_int_equal(w.level, 1);
	assert_int_equal(w.busiest, 0);
	assert_int_equal(w.local, 2);
	assert_int_equal(w.local_nr, 2);
	assert_int_equal(w.class, CFSR_IMB_ALLOWED);
	assert_int_equal(w.migration, CFSR_MIGRATE_UTIL);
	assert_true(w.busiest_cpu == 0 || w.busiest_cpu == 1);
	assert_int_equal(w.interval_ns, 64 * MS);
	assert_int_equal(w.max_interval_ns, 128 * MS);
	from_ms = (w.start - T0) / MS;
	assert_true(from_ms >= 8 && from_ms <= 32);
	assert_true(w.end - w.start > 168 * MS && w.end - w.start < 193 * MS);
	/* a move from CPU 0 to CPU 3 at ~100 ms ends it: lasting, not beyond 128 ms */
	run_groups(200, 100, &t, &g, &w);
	assert_int_equal(t.lasting, 0);
	assert_int_equal(g.windows, 1);
	assert_int_equal(g.lasting, 1);
	assert_int_equal(g.beyond_max, 0);
	assert_int_equal(g.ended[CFSR_IMB_MIGRATION], 1);
	assert_true(w.end - w.start > 68 * MS && w.end - w.start < 93 * MS);
	/* v6.2-v6.5: SD_PREFER_SIBLING opens it at the wakeups, migrate_task */
	release = "6.2";
	run_groups(200, 0, &t, &g, &w);
	release = "6.18";
	assert_int_equal(g.lasting, 1);
	assert_int_equal(w.migration, CFSR_MIGRATE_TASK);
	assert_int_equal(w.busiest_nr, 5);
	assert_true(w.start - T0 < MS);
	assert_true(w.end - w.start > 195 * MS);
}

/* Statistics of a group of @w CPUs (capacity 1024 each), classified at imbalance_pct 117. */
static struct cfsr_sg_stats sg(unsigned int w, unsigned int nr, unsigned int idle, uint64_t load,
			       uint64_t util, uint64_t runnable)
{
	struct cfsr_sg_stats s = {
		.group_load = load,
		.group_util = util,
		.group_runnable = runnable,
		.group_capacity = 1024 * (uint64_t)w,
		.sum_nr_running = nr,
		.idle_cpus = idle,
		.group_weight = w,
		.cores = w,
	};

	cfsr_sg_finish(117, &s);
	return s;
}

/*
 * group_classify() by hand, two CPUs (capacity 2048, x 117 = 239616; x
 * 100 = 204800): util 1750 x 117 = 204750 < 204800 has spare, 1751 x 117
 * = 204867 does not; runnable 2396 x 100 = 239600 within, 2397 beyond.
 */
static void test_classify(void **state)
{
	struct cfsr_sg_stats s;

	(void)state;
	/* fewer tasks than CPUs: spare, whatever the signals */
	assert_int_equal(sg(2, 1, 1, 5000, 2048, 5000).group_type, CFSR_GROUP_HAS_SPARE);
	/* as many: util decides, then runnable */
	assert_int_equal(sg(2, 2, 0, 2048, 1750, 1750).group_type, CFSR_GROUP_HAS_SPARE);
	assert_int_equal(sg(2, 2, 0, 2048, 1751, 1751).group_type, CFSR_GROUP_FULLY_BUSY);
	assert_int_equal(sg(2, 2, 0, 2048, 1000, 2397).group_type, CFSR_GROUP_FULLY_BUSY);
	/* more tasks than CPUs: overloaded by util or by runnable, else by capacity left */
	assert_int_equal(sg(2, 3, 0, 3072, 1751, 1000).group_type, CFSR_GROUP_OVERLOADED);
	assert_int_equal(sg(2, 3, 0, 3072, 1000, 2397).group_type, CFSR_GROUP_OVERLOADED);
	s = sg(2, 3, 0, 3072, 1750, 2396);
	assert_int_equal(s.group_type, CFSR_GROUP_HAS_SPARE);
	assert_int_equal(s.avg_load, 0);
	/* avg_load for an overloaded group only: 3072 x 1024 / 2048 */
	assert_int_equal(sg(2, 3, 0, 3072, 2048, 3072).avg_load, 1536);
}

/*
 * update_sd_pick_busiest() by hand: the higher type first; overloaded by
 * avg_load; spare capacity by fewer idle CPUs, then more tasks.
 */
static void test_pick_busiest(void **state)
{
	struct cfsr_sg_stats o1 = sg(2, 3, 0, 3072, 2048, 3072), o2 = sg(2, 4, 0, 4096, 2048, 4096);
	struct cfsr_sg_stats s1 = sg(2, 1, 1, 1024, 1024, 1024), s2 = sg(2, 2, 0, 1024, 800, 800);
	struct cfsr_sg_stats s3 = sg(2, 3, 0, 1024, 900, 900), e = sg(2, 0, 2, 0, 0, 0);

	(void)state;
	assert_false(cfsr_sd_pick_busiest(&e, NULL));
	assert_true(cfsr_sd_pick_busiest(&o1, &s3));
	assert_false(cfsr_sd_pick_busiest(&s3, &o1));
	assert_true(cfsr_sd_pick_busiest(&o2, &o1));
	assert_false(cfsr_sd_pick_busiest(&o1, &o2));
	assert_true(cfsr_sd_pick_busiest(&s2, &s1));
	assert_false(cfsr_sd_pick_busiest(&s1, &s2));
	assert_true(cfsr_sd_pick_busiest(&s3, &s2));
	assert_false(cfsr_sd_pick_busiest(&s2, &s3));
}

/*
 * sibling_imbalance() by hand (v6.6+): 0 for a busy CPU; equal cores:
 * 5 - 2 = 3; cores 2 (busiest) and 1 (local), 4 against 1 task: imb = 1 x
 * 4 - 2 x 1 = 2, (2 x 2 + 1 + 2) / 3 = 2; 2 against 0 tasks, cores 4 and
 * 2: imb = 2 x 2 = 4, (8 + 6) / 6 = 2; cores 4 and 1, 2 against 0: imb
 * 2, (4 + 5) / 5 = 1, raised to 2 for an empty local group.
 */
static void test_sibling(void **state)
{
	struct cfsr_lb_env env = { .idle = true, .imbalance_pct = 117, .prefer_sibling = true };
	struct cfsr_sg_stats b = sg(2, 5, 0, 5120, 2048, 5120), l = sg(2, 2, 0, 2048, 1024, 1024);

	(void)state;
	assert_int_equal(cfsr_sibling_imbalance(&env, &b, &l), 3);
	env.idle = false;
	assert_int_equal(cfsr_sibling_imbalance(&env, &b, &l), 0);
	env.idle = true;
	b.sum_nr_running = 4, b.cores = 2, l.sum_nr_running = 1, l.cores = 1;
	assert_int_equal(cfsr_sibling_imbalance(&env, &b, &l), 2);
	b.sum_nr_running = 2, b.cores = 4, l.sum_nr_running = 0, l.cores = 2;
	assert_int_equal(cfsr_sibling_imbalance(&env, &b, &l), 2);
	l.cores = 1;
	assert_int_equal(cfsr_sibling_imbalance(&env, &b, &l), 2);
}

/*
 * calculate_imbalance() by hand, groups of two CPUs:
 *  - busiest overloaded (3 tasks, load 3072: avg_load 1536), local with
 *    spare capacity (2 tasks, util 1500): outside an LLC migrate_util of
 *    2048 - 1500 = 548; inside one (SD_SHARE_LLC) with SD_PREFER_SIBLING
 *    a busy CPU gets nothing from v6.6 (sibling_imbalance() 0), and before
 *    the difference 3 - 2 = 1 is not above 1: balanced; before v5.10 the
 *    LLC does not stop migrate_util: 548;
 *  - 5 tasks against 2, busiest not overloaded (util 1700, runnable 2300),
 *    v6.2-v6.5 profile: prefer_sibling forces it, migrate_task (5 - 2) >>
 *    1 = 1; v6.6+: balanced for a busy CPU; an idle one: sibling 3 >> 1 = 1;
 *  - local fully busy (load 1400: avg 700), busiest avg 1536, domain
 *    (3072 + 1400) x 1024 / 4096 = 1118: migrate_load min((1536 - 1118) x
 *    2048, (1118 - 700) x 2048) / 1024 = 836.
 */
static void test_calculate(void **state)
{
	struct cfsr_lb_env env = { .imbalance_pct = 117, .prefer_sibling = true };
	struct cfsr_sg_stats b = sg(2, 3, 0, 3072, 2048, 3072), l = sg(2, 2, 0, 2048, 1500, 1500);
	struct cfsr_sg_stats nb = sg(2, 5, 0, 5120, 1700, 2300);
	struct cfsr_sg_stats fl = sg(2, 2, 0, 1400, 2048, 2048);
	enum cfsr_migration_type type;

	(void)state;
	assert_int_equal(l.group_type, CFSR_GROUP_HAS_SPARE);
	assert_int_equal(nb.group_type, CFSR_GROUP_HAS_SPARE);
	assert_int_equal(fl.group_type, CFSR_GROUP_FULLY_BUSY);
	assert_int_equal(cfsr_lb_imbalance(&env, &b, &l, 1280, &type), 548);
	assert_int_equal(type, CFSR_MIGRATE_UTIL);
	env.share_llc = true;
	assert_int_equal(cfsr_lb_imbalance(&env, &b, &l, 1280, &type), 0);
	env.kver = CFSR_KVER(6, 2, 0);
	assert_int_equal(cfsr_lb_imbalance(&env, &b, &l, 1280, &type), 0);
	env.kver = CFSR_KVER(5, 7, 0);
	assert_int_equal(cfsr_lb_imbalance(&env, &b, &l, 1280, &type), 548);
	assert_int_equal(type, CFSR_MIGRATE_UTIL);
	env.kver = CFSR_KVER(6, 2, 0);
	assert_int_equal(cfsr_lb_imbalance(&env, &nb, &l, 1792, &type), 1);
	assert_int_equal(type, CFSR_MIGRATE_TASK);
	env.kver = 0;
	assert_int_equal(cfsr_lb_imbalance(&env, &nb, &l, 1792, &type), 0);
	env.idle = true;
	assert_int_equal(cfsr_lb_imbalance(&env, &nb, &l, 1792, &type), 1);
	assert_int_equal(type, CFSR_MIGRATE_TASK);
	env.idle = false;
	env.share_llc = false;
	assert_int_equal(cfsr_lb_imbalance(&env, &b, &fl, 1118, &type), 836);
	assert_int_equal(type, CFSR_MIGRATE_LOAD);
	/* local fully busy above the domain's average: balanced */
	assert_int_equal(cfsr_lb_imbalance(&env, &b, &fl, 600, &type), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_llc),     cmocka_unit_test(test_other_llc),
		cmocka_unit_test(test_groups),	     cmocka_unit_test(test_classify),
		cmocka_unit_test(test_pick_busiest), cmocka_unit_test(test_sibling),
		cmocka_unit_test(test_calculate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

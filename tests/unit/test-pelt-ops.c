// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/pelt-ops.c: the group operations of the v3.8-v4.2
 * (legacy) and v4.3-v5.6 models, on cases worked by hand in the comments
 * from the kernels' formulas (calc_cfs_shares(), calc_group_shares(),
 * __update_group_entity_contrib(), __update_cfs_rq_tg_load_contrib(),
 * update_tg_load_avg(), reweight_entity()).  Weights are scaled (nice 0 =
 * 1048576) as the engine keeps them; the legacy and v4.3-v4.6 kernels
 * worked in 10-bit units, the operations convert.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pelt-ops.h"
#include "profile.h"

#define W0 1048576 /* nice 0, scaled */

static const struct cfsr_pelt_ops *ops(const char *kernel, const struct cfsr_profile **p)
{
	*p = cfsr_profile_for(kernel);
	assert_non_null(*p);
	return cfsr_pelt_ops_for(*p);
}

/*
 * Two groups of 2048 and 256 cpu.shares (tg->shares 2097152 and 262144 on
 * a v4.9 kernel, whose 64-bit weights have 20 bits), one busy nice-0 task
 * each, two CPUs, each task on its own CPU.  calc_cfs_shares()
 * (v4.7-v4.14): load = scale_load_down(cfs_rq->load.weight) = 1024;
 * tg_weight = tg->load_avg - tg_load_avg_contrib + load.  Each group's
 * load is on one CPU only, so tg->load_avg is that CPU's contribution C
 * (C = 1002, say: a busy cfs_rq's load_avg under the LOAD_AVG_MAX divider)
 * and tg_weight = C - C + 1024 = 1024: shares = tg->shares * 1024 / 1024,
 * the group entities weigh 2097152 and 262144.  On the other CPU the
 * group's cfs_rq is empty: load 0, shares 0, clamped to MIN_SHARES = 2
 * (unscaled: 2, not 2048).  With both tasks on one CPU the weights are the
 * same (each group is still alone in its own group), so that CPU's root
 * weighs 2359296 and the 2048-share task gets 2097152 / 2359296 = 8/9 of
 * it.  A contribution published late (the 1/64 threshold) shows: with
 * tg->load_avg = 1010 against this CPU's C = 1000, tg_weight = 1034 and
 * shares = 2097152 * 1024 / 1034 = 2147483648 / 1034 = 2076870.07 ->
 * 2076870.
 */
static void test_v4_9_shares(void **state)
{
	const struct cfsr_profile *p;
	const struct cfsr_pelt_ops *o = ops("4.9", &p);
	struct cfsr_sched_avg gcfs = { 0 };
	struct cfsr_pelt_tg hi = { 2097152, 1002, 0, 1002 }, lo = { 262144, 1002, 0, 1002 };
	struct cfsr_pelt_tg late = { 2097152, 1010, 0, 1000 }, empty = { 2097152, 1002, 0, 0 };
	uint64_t run;

	(void)state;
	gcfs.old.v4.load_avg = 1002;
	assert_int_equal(o->group_shares(p, &hi, W0, &gcfs, &run), 2097152);
	assert_int_equal(run, 2097152);
	assert_int_equal(o->group_shares(p, &lo, W0, &gcfs, &run), 262144);
	assert_int_equal(2097152 + 262144, 2359296);
	assert_int_equal(o->group_shares(p, &late, W0, &gcfs, &run), 2076870);
	gcfs.old.v4.load_avg = 0;
	assert_int_equal(o->group_shares(p, &empty, 0, &gcfs, &run), 2);
}

/*
 * Two groups of equal shares (1024) on one CPU, one task in the first
 * and three in the second: each group is alone in its group, so
 * tg_weight = load and shares = tg->shares whatever the load -- 1024
 * (scaled 1048576) for both, the 50/50 split of the 2015 design.  The same
 * in every generation: legacy (10-bit: 1024 * 1024 / 1024 and 1024 * 3072
 * / 3072), v4.3-v4.6 (10-bit), v4.7-v4.14 (scaled load.weight down),
 * v4.15-v5.6 (max(load.weight, load_avg) = 1024 and 3072 here).
 */
static void test_equal_shares(void **state)
{
	const char *const kernels[] = { "3.18", "4.4", "4.9", "4.14", "4.19", "5.4" };
	struct cfsr_pelt_tg one = { W0, 1000, 0, 1000 }, three = { W0, 3000, 0, 3000 };
	struct cfsr_sched_avg g1 = { 0 }, g3 = { 0 };
	const struct cfsr_profile *p;
	const struct cfsr_pelt_ops *o;
	uint64_t run;
	size_t i;

	(void)state;
	g1.old.v4.load_avg = 1000;
	g3.old.v4.load_avg = 3000;
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		o = ops(kernels[i], &p);
		assert_int_equal(o->group_shares(p, &one, W0, &g1, &run), W0);
		assert_int_equal(o->group_shares(p, &three, 3 * W0, &g3, &run), W0);
	}
}

/*
 * v4.19 (calc_group_shares(), v4.15+): a group whose load sits on two
 * CPUs, 600 here and 400 there (published), one nice-0 task queued here:
 * load = max(1024, 600) = 1024, tg_weight = 1000 - 600 + 1024 = 1424,
 * shares = 1048576 * 1024 / 1424 = 1073741824 / 1424 = 754032.18 ->
 * 754032.  calc_group_runnable(): runnable = max(runnable_load_avg 600,
 * 1024) * shares / max(load_avg 600, 1024) = shares, whole here.  v4.9
 * (calc_cfs_shares(), load.weight only) gives the same on these numbers:
 * load = 1024 there too.  With the cfs_rq's average above its weight
 * (load_avg 1500: the task's weight fell), v4.19 takes 1500: tg_weight =
 * 1000 - 600 + 1500 = 1900, shares = 1048576 * 1500 / 1900 =
 * 1572864000 / 1900 = 827823.15 -> 827823, and the runnable weight
 * max(600, 1024) * 827823 / max(1500, 1024) = 847690752 / 1500 =
 * 565127.17 -> 565127; v4.9 still 754032.  A cfs_rq of two entities
 * (load.weight 2097152) whose queued group entity has a runnable weight
 * 524288 short of its weight (runnable_weight 1572864, 1536 scaled down),
 * load_avg 600: load = 2048, tg_weight = 1000 - 600 + 2048 = 2448, shares
 * = 1048576 * 2048 / 2448 = 877240.47 -> 877240, runnable = max(600,
 * 1536) * 877240 / max(600, 2048) = 657930.
 */
static void test_group_shares_v4_19(void **state)
{
	const struct cfsr_profile *p19, *p9;
	const struct cfsr_pelt_ops *o19 = ops("4.19", &p19), *o9 = ops("4.9", &p9);
	struct cfsr_pelt_tg tg = { W0, 1000, 0, 600 };
	struct cfsr_sched_avg g = { 0 };
	uint64_t run;

	(void)state;
	g.old.v4.load_avg = 600;
	g.old.v4.runnable_load_avg = 600;
	assert_int_equal(o19->group_shares(p19, &tg, W0, &g, &run), 754032);
	assert_int_equal(run, 754032);
	assert_int_equal(o9->group_shares(p9, &tg, W0, &g, &run), 754032);
	g.old.v4.load_avg = 1500;
	assert_int_equal(o19->group_shares(p19, &tg, W0, &g, &run), 827823);
	assert_int_equal(run, 565127);
	assert_int_equal(o9->group_shares(p9, &tg, W0, &g, &run), 754032);
	g.old.v4.load_avg = 600;
	g.old.runnable_deficit = W0 / 2;
	assert_int_equal(o19->group_shares(p19, &tg, 2 * W0, &g, &run), 877240);
	assert_int_equal(run, 657930);
}

/*
 * scale_load_down() floored at 2 (26cf52229efc) in the stable releases of
 * April 2020, on a group cfs_rq whose weight is 1000 (below 2048: a small
 * group entity queued there) and whose load_avg is 0:
 *  - calc_cfs_shares() (4.9.y, 4.14.y) with tg->shares 2097152 and this
 *    cfs_rq's contribution all of tg->load_avg (1002): without the floor
 *    load = 1000 >> 10 = 0, tg_weight = 1002 - 1002 + 0 = 0, shares 0,
 *    clamped to MIN_SHARES 2; with it load = 2, tg_weight = 2, shares =
 *    2097152 * 2 / 2, the whole tg->shares;
 *  - calc_group_shares() (4.19.y, 5.4.y-5.6.y) with tg->shares 1048576,
 *    tg->load_avg 2000 of which 300 here: without the floor load =
 *    max(0, 0) = 0, shares clamped to 2, and calc_group_runnable() 2 too
 *    (max(0, 0) of anything, clamped); with it load = 2, tg_weight = 2000 -
 *    300 + 2 = 1702, shares = 2097152 / 1702 = 1232.17 -> 1232, runnable =
 *    max(0, 2) * 1232 / max(0, 2) = 1232.
 */
static void floor_shares(const char *before, const char *from, struct cfsr_pelt_tg tg,
			 uint64_t want_before, uint64_t want_from)
{
	const struct cfsr_profile *pb, *pf;
	const struct cfsr_pelt_ops *ob = ops(before, &pb), *of = ops(from, &pf);
	struct cfsr_sched_avg g = { 0 };
	uint64_t run;

	assert_false(pb->v4->scale_load_down_floor);
	assert_true(pf->v4->scale_load_down_floor);
	assert_int_equal(ob->group_shares(pb, &tg, 1000, &g, &run), want_before);
	assert_int_equal(run, want_before);
	assert_int_equal(of->group_shares(pf, &tg, 1000, &g, &run), want_from);
	assert_int_equal(run, want_from);
}

static void test_stable_load_down_floor(void **state)
{
	const struct cfsr_pelt_tg alone = { 2097152, 1002, 0, 1002 };
	const struct cfsr_pelt_tg spread = { W0, 2000, 0, 300 };

	(void)state;
	floor_shares("4.9.219", "4.9.220", alone, 2, 2097152);
	floor_shares("4.14.176", "4.14.177", alone, 2, 2097152);
	floor_shares("4.19.115", "4.19.116", spread, 2, 1232);
	floor_shares("5.4.32", "5.4.33", spread, 2, 1232);
	floor_shares("5.5.17", "5.5.18", spread, 2, 1232);
	floor_shares("5.6.4", "5.6.5", spread, 2, 1232);
	/* mainline v4.20-v5.0 has no floor, v5.7 has it (lib/pelt.c) */
	floor_shares("5.0.21", "4.19.325", spread, 2, 1232);
}

/*
 * Legacy (v3.8-v4.2) group entity of a group whose single task runs alone
 * on one CPU, always runnable.  The task's contribution is
 * runnable_avg_sum * 1024 / (runnable_avg_period + 1) with sum = period = P
 * (always runnable), P >= 1024: 1024 - 1024 / (P + 1) -> 1023.  So the
 * group cfs_rq's runnable_load_avg is 1023, its tg_load_contrib 1023
 * and tg->load_avg 1023 (no other CPU).  The group entity, also always
 * runnable, has sum = period too: its runnable fraction (sum << 10) /
 * (period + 1) = 1023 goes to tg->runnable_avg (0 before: past 1/64 of 0).
 * __update_group_entity_contrib(): 1023 * shares / (1023 + 1), then, as
 * tg->runnable_avg = 1023 < 1024, times 1023 >> 10:
 *   shares 1024: 1023 * 1024 / 1024 = 1023; 1023 * 1023 = 1046529,
 *                >> 10 = 1022 (1022.0009);
 *   shares 2048: 1023 * 2048 / 1024 = 2046; 2046 * 1023 = 2093058,
 *                >> 10 = 2044 (2044.002).
 * The entity is queued: its parent's runnable_load_avg gains the whole
 * contribution (it was 0).
 */
static void legacy_alone(uint64_t shares, uint64_t want)
{
	const struct cfsr_profile *p;
	const struct cfsr_pelt_ops *o = ops("3.18", &p);
	struct cfsr_sched_avg se = { 0 }, cfs = { 0 }, gcfs = { 0 };
	struct cfsr_pelt_tg tg = { shares, 1023, 0, 1023 };
	const uint64_t t0 = 1000000000;

	se.old.se.last_runnable_update = t0;
	se.old.se.runnable_avg_sum = 46000;
	se.old.se.runnable_avg_period = 46000;
	se.old.queued = true;
	gcfs.old.cfs.runnable_load_avg = 1023;
	assert_int_equal(o->update_gse(p, t0 + 100 * 1024 * 1024, CFSR_PELT_SCALE_FULL, &se, &cfs,
				       &gcfs, shares, true, false, &tg),
			 1);
	assert_int_equal(tg.runnable_avg, 1023);
	assert_int_equal(se.old.se.load_avg_contrib, want);
	assert_int_equal(se.load_avg, want);
	assert_int_equal(cfs.old.cfs.runnable_load_avg, want);
}

static void test_legacy_group_alone(void **state)
{
	(void)state;
	legacy_alone(W0, 1022);
	legacy_alone(2 * W0, 2044);
}

/*
 * Publication thresholds: a group cfs_rq whose load went from a published
 * 800 to 880 (+80).  Legacy (__update_cfs_rq_tg_load_contrib()): 80 is
 * not above 800 / 8 = 100, nothing moves unless forced (a tick); v4.3+
 * (update_tg_load_avg()): 80 > 800 / 64 = 12, tg->load_avg gains 80.
 */
static void test_publish_thresholds(void **state)
{
	const struct cfsr_profile *pl, *p4;
	const struct cfsr_pelt_ops *ol = ops("3.18", &pl), *o4 = ops("4.9", &p4);
	struct cfsr_sched_avg g = { 0 };
	uint64_t contrib = 800;
	int64_t tg_load_avg = 1800;

	(void)state;
	g.old.cfs.runnable_load_avg = 880;
	assert_false(ol->publish_tg(pl, &g, &contrib, &tg_load_avg, false));
	assert_int_equal(contrib, 800);
	assert_int_equal(tg_load_avg, 1800);
	assert_true(ol->publish_tg(pl, &g, &contrib, &tg_load_avg, true));
	assert_int_equal(contrib, 880);
	assert_int_equal(tg_load_avg, 1880);

	contrib = 800;
	tg_load_avg = 1800;
	g.old.v4.load_avg = 880;
	assert_true(o4->publish_tg(p4, &g, &contrib, &tg_load_avg, false));
	assert_int_equal(contrib, 880);
	assert_int_equal(tg_load_avg, 1880);
}

/* A v4 entity of load_avg @se_load queued on a cfs_rq of load (and runnable load) @cfs_load. */
static void queued_on(struct cfsr_sched_avg *se, struct cfsr_sched_avg *cfs, uint64_t se_load,
		      uint64_t cfs_load)
{
	se->old.v4.last_update_time = 1;
	se->old.v4.load_avg = se_load;
	se->old.queued = true;
	cfs->old.v4.load_avg = cfs_load;
	cfs->old.v4.runnable_load_avg = cfs_load;
}

/*
 * reweight_entity() of a queued group entity on v4.19 (v4.15-v5.6): its
 * unweighted sums load_sum = runnable_load_sum = 20000 with period_contrib
 * 500, divider 47742 - 1024 + 500 = 47218.  From weight 1024 (runnable
 * 1024) to 512 (runnable 256): load_avg = 512 * 20000 / 47218 =
 * 216.87 -> 216, runnable_load_avg = 256 * 20000 / 47218 = 108.43 -> 108.
 * The parent held 1024 * 20000 / 47218 = 433 of it (433.75) in both
 * load_avg and runnable_load_avg, and the sums 1024 * 20000 = 20480000;
 * it keeps 100 of other load: 533 -> 316 and 533 -> 208, sums 20480000 +
 * 1000 -> 10240000 + 1000 and 5120000 + 1000.  The cfs_rq's runnable_weight
 * falls 524288 - 262144 = 262144 short of its load.weight while the entity
 * is queued, not after its dequeue.  v4.9 (v4.3-v4.14) moves only
 * load.weight: nothing changes.
 */
static void test_reweight(void **state)
{
	const struct cfsr_profile *p19, *p9;
	const struct cfsr_pelt_ops *o19 = ops("4.19", &p19), *o9 = ops("4.9", &p9);
	struct cfsr_sched_avg se = { 0 }, cfs = { 0 }, before;

	(void)state;
	queued_on(&se, &cfs, 433, 533);
	se.old.v4.load_sum = 20000;
	se.old.v4.runnable_load_sum = 20000;
	se.old.v4.period_contrib = 500;
	se.old.v4.runnable_load_avg = 433;
	cfs.old.v4.load_sum = 20481000;
	cfs.old.v4.runnable_load_sum = 20481000;
	before = se;
	o9->reweight_gse(p9, &cfs, &se, W0, W0 / 2, W0 / 4, true);
	assert_int_equal(se.old.v4.load_avg, before.old.v4.load_avg);
	assert_int_equal(cfs.old.v4.load_avg, 533);
	o19->reweight_gse(p19, &cfs, &se, W0, W0 / 2, W0 / 4, true);
	assert_int_equal(se.old.v4.load_avg, 216);
	assert_int_equal(se.old.v4.runnable_load_avg, 108);
	assert_int_equal(se.old.runnable_weight, W0 / 4);
	assert_int_equal(cfs.old.v4.load_avg, 316);
	assert_int_equal(cfs.old.v4.runnable_load_avg, 208);
	assert_int_equal(cfs.old.v4.load_sum, 10241000);
	assert_int_equal(cfs.old.v4.runnable_load_sum, 5121000);
	assert_int_equal(cfs.old.runnable_deficit, W0 / 4);
	o19->dequeue(p19, &cfs, &se, W0 / 2, true);
	assert_int_equal(cfs.old.runnable_deficit, 0);
	assert_int_equal(cfs.old.v4.runnable_load_avg, 100);
}

/*
 * Propagation exists from v4.10 (09a43ace1f98): v4.9 and the legacy model
 * do nothing.  v4.10-v4.14 (update_tg_cfs_load()): a group cfs_rq of
 * load_avg 600 in a group of shares 1024 whose tg->load_avg is 1500 with
 * this CPU's contribution 500: tg_load = 1500 + 1 - 500 + 600 = 1601 >
 * 1024, so the entity's load is 600 * 1024 / 1601 = 383.8 -> 383; its
 * load_sum 383 * 47742 = 18285186; the queued entity's parent moves by
 * 383 - 100 (its old load) in load_avg and runnable_load_avg.
 */
static void test_propagate(void **state)
{
	const struct cfsr_profile *p9, *p12, *pl;
	const struct cfsr_pelt_ops *o9 = ops("4.9", &p9), *o12 = ops("4.12", &p12);
	const struct cfsr_pelt_ops *ol = ops("3.18", &pl);
	struct cfsr_sched_avg se = { 0 }, cfs = { 0 }, gcfs = { 0 };
	struct cfsr_pelt_tg tg = { W0, 1500, 0, 500 };
	int64_t prop = 7;

	(void)state;
	queued_on(&se, &cfs, 100, 300);
	gcfs.old.v4.load_avg = 600;
	assert_int_equal(ol->propagate_gse(pl, &cfs, &se, W0, &gcfs, W0, &tg, &prop), 0);
	assert_int_equal(o9->propagate_gse(p9, &cfs, &se, W0, &gcfs, W0, &tg, &prop), 0);
	assert_int_equal(se.old.v4.load_avg, 100);
	assert_int_equal(o12->propagate_gse(p12, &cfs, &se, W0, &gcfs, W0, &tg, &prop), 1);
	assert_int_equal(prop, 0);
	assert_int_equal(se.old.v4.load_avg, 383);
	assert_int_equal(se.old.v4.load_sum, 18285186);
	assert_int_equal(cfs.old.v4.load_avg, 583);
	assert_int_equal(cfs.old.v4.runnable_load_avg, 583);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v4_9_shares),
		cmocka_unit_test(test_equal_shares),
		cmocka_unit_test(test_group_shares_v4_19),
		cmocka_unit_test(test_stable_load_down_floor),
		cmocka_unit_test(test_legacy_group_alone),
		cmocka_unit_test(test_publish_thresholds),
		cmocka_unit_test(test_reweight),
		cmocka_unit_test(test_propagate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

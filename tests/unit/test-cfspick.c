// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/cfspick.c: the CFS vruntime arithmetic and pick,
 * against values worked out by hand from the kernel's formulas (the
 * derivation is in each comment).  2 CPUs: the tunables are scaled by
 * 1 + ilog2(2) = 2: latency 12 ms, min_granularity 1.5 ms, wakeup
 * granularity 2 ms.  Weights: nice 0 1024, nice 5 335 (inv_weight
 * 12820798), nice -5 3121 (inv_weight 1376151), from the kernel's
 * sched_prio_to_weight[] and sched_prio_to_wmult[].
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "cfspick.h"
#include "math.h"

#define MS 1000000ull
#define W(w) ((uint64_t)(w) << 10)

static struct cfsr_cfs_tunables tu_for(const char *release)
{
	struct cfsr_cfs_tunables tu;

	cfsr_cfs_tunables_init(&tu, cfsr_profile_for(release), 2);
	return tu;
}

static void test_tunables(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("5.15");

	(void)state;
	assert_int_equal(tu.latency, 12 * MS);
	assert_int_equal(tu.min_granularity, 1500000);
	assert_int_equal(tu.wakeup_granularity, 2 * MS);
	/* DIV_ROUND_UP(12, 1.5) */
	assert_int_equal(tu.nr_latency, 8);
	assert_true(tu.alt_period && !tu.delta_mine);
	tu = tu_for("5.10");
	assert_false(tu.alt_period);
	tu = tu_for("3.10");
	assert_true(tu.delta_mine);
	tu = tu_for("3.14");
	assert_false(tu.delta_mine);
	/* a kernel's own values; nr_latency = ceil(10 / 3) = 4; 0 keeps */
	cfsr_cfs_tunables_take(&tu, 10 * MS, 3 * MS, 0);
	assert_int_equal(tu.latency, 10 * MS);
	assert_int_equal(tu.min_granularity, 3 * MS);
	assert_int_equal(tu.wakeup_granularity, 2 * MS);
	assert_int_equal(tu.nr_latency, 4);
}

/*
 * calc_delta_fair() of a 1 ms run:
 *  - nice 0: unchanged, 1000000, in either arithmetic;
 *  - nice 5, __calc_delta(): fact = 1024 * 12820798 = 13128497152, which
 *    is 3 * 2^32 + ...: fact_hi = 3, fls(3) = 2, shift = 32 - 2 = 30,
 *    fact = 13128497152 >> 2 = 3282124288; 10^6 * 3282124288 >> 30 =
 *    3282124288000000 / 1073741824 = 3056716.42 -> 3056716 (the real
 *    10^6 * 1024 / 335 is 3056716.418);
 *  - nice -5: fact = 1024 * 1376151 = 1409178624 < 2^32, shift 32:
 *    10^6 * 1409178624 / 2^32 = 328099.97 -> 328099;
 *  - 2 ms at nice 5: 2 * 3056716.42 = 6113432.84 -> 6113432 with
 *    __calc_delta(), which truncates; calc_delta_mine() (v3.8-v3.12)
 *    rounds: 2048000000 <= 2^32, SRR(2048000000 * 12820798, 32) =
 *    floor(6113432.84 + 0.5) = 6113433;
 *  - 5 ms at nice 5, calc_delta_mine(): 5120000000 > 2^32, so in halves:
 *    SRR(5120000000, 16) = 78125 (exactly 78125.0), 78125 * 12820798 =
 *    1001624843750, SRR(, 16) = floor(15283582.07 + 0.5) = 15283582.
 */
static void test_calc_delta_fair(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("5.15"), old = tu_for("3.10");

	(void)state;
	assert_int_equal(cfsr_cfs_calc_delta_fair(&tu, MS, W(1024), 4194304), MS);
	assert_int_equal(cfsr_cfs_calc_delta_fair(&old, MS, W(1024), 4194304), MS);
	assert_int_equal(cfsr_cfs_calc_delta_fair(&tu, MS, W(335), 12820798), 3056716);
	assert_int_equal(cfsr_cfs_calc_delta_fair(&tu, MS, W(3121), 1376151), 328099);
	assert_int_equal(cfsr_cfs_calc_delta_fair(&tu, 2 * MS, W(335), 12820798), 6113432);
	assert_int_equal(cfsr_cfs_calc_delta_fair(&old, 2 * MS, W(335), 12820798), 6113433);
	assert_int_equal(cfsr_cfs_calc_delta_fair(&old, 5 * MS, W(335), 12820798), 15283582);
}

/*
 * sched_slice() of a nice-0 task joining a cfs_rq with one nice-0 task:
 * __sched_period(1 + 1) = latency (2 <= 8) = 12 ms; times 1024 over the
 * load 2048 with __update_inv_weight()'s inverse 0xffffffff / 2048 =
 * 2097151: fact = 1024 * 2097151 = 2147482624 < 2^32, 12 ms * 2147482624
 * / 2^32 = 5999997.14 -> 5999997.  Nine queued: period 10 * 1.5 ms = 15 ms,
 * over the load 10240: inverse 0xffffffff / 10240 = 419430, fact
 * 429496320, 15 ms * 429496320 / 2^32 = 15 ms * 0.0999999046 = 1499998.57
 * -> 1499998, which BASE_SLICE (v5.13+, stable 5.10.36+) raises to
 * min_granularity, 1500000, and v5.10 up to 5.10.35 leaves.
 */
static void test_sched_slice(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("5.15"), v510 = tu_for("5.10");

	(void)state;
	assert_int_equal(cfsr_cfs_sched_slice(&tu, 1, W(1024), W(1024)), 5999997);
	assert_int_equal(cfsr_cfs_sched_slice(&tu, 9, W(9 * 1024), W(1024)), 1500000);
	assert_int_equal(cfsr_cfs_sched_slice(&v510, 9, W(9 * 1024), W(1024)), 1499998);
	v510 = tu_for("5.10.35");
	assert_int_equal(cfsr_cfs_sched_slice(&v510, 9, W(9 * 1024), W(1024)), 1499998);
	/* 0c2de3f054a5 in the 5.10.36-rc1 review series */
	v510 = tu_for("5.10.36");
	assert_true(v510.alt_period);
	assert_int_equal(cfsr_cfs_sched_slice(&v510, 9, W(9 * 1024), W(1024)), 1500000);
	assert_false(tu_for("5.11.22").alt_period);
}

/*
 * place_entity(): min_vruntime 1000 ms.  A new task whose parent is at
 * 999 ms starts at max(999, 1000 + vslice 5999997 ns) = 1005999997 ns; a
 * waking task at 980 ms is brought to the floor 1000 - 12 / 2 = 994 ms; one
 * at 998 ms keeps it; without GENTLE_FAIR_SLEEPERS the floor is 988 ms.
 * Wrap-safe: a vruntime 10 ms short of 2^64 is before the floor 5 - 12 ms.
 */
static void test_place(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("6.1");

	(void)state;
	assert_int_equal(cfsr_cfs_place(&tu, 1000 * MS, 999 * MS, true, 5999997), 1005999997);
	assert_int_equal(cfsr_cfs_place(&tu, 1000 * MS, 980 * MS, false, 0), 994 * MS);
	assert_int_equal(cfsr_cfs_place(&tu, 1000 * MS, 998 * MS, false, 0), 998 * MS);
	tu.gentle = false;
	assert_int_equal(cfsr_cfs_place(&tu, 1000 * MS, 980 * MS, false, 0), 988 * MS);
	tu.start_debit = false;
	assert_int_equal(cfsr_cfs_place(&tu, 1000 * MS, 999 * MS, true, 5999997), 1000 * MS);
	assert_int_equal(cfsr_cfs_place(&tu, 5 * MS, UINT64_MAX - 10 * MS, false, 0),
			 5 * MS - 12 * MS);
}

/* update_min_vruntime(): the smaller of curr and the leftmost, never backwards. */
static void test_min_vruntime(void **state)
{
	(void)state;
	assert_int_equal(cfsr_cfs_min_vruntime(100, true, 150, true, 120), 120);
	assert_int_equal(cfsr_cfs_min_vruntime(100, true, 110, true, 120), 110);
	assert_int_equal(cfsr_cfs_min_vruntime(100, true, 90, false, 0), 100);
	assert_int_equal(cfsr_cfs_min_vruntime(100, false, 0, true, 130), 130);
	assert_int_equal(cfsr_cfs_min_vruntime(100, false, 0, false, 0), 100);
}

static struct cfsr_cfs_ent ent(int pid, uint64_t v, bool curr)
{
	return (struct cfsr_cfs_ent){ pid, v, W(1024), 4194304, curr };
}

/*
 * wakeup_preempt_entity(): the granularity is 2 ms at the second entity's
 * weight: 2 ms for nice 0, 6113432 ns for nice 5 (above).
 */
static void test_wakeup_preempt(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("5.15");
	struct cfsr_cfs_ent a = ent(1, 10 * MS, true), b = ent(2, 8 * MS - 1, false);
	struct cfsr_cfs_ent n5 = { 3, 10 * MS - 6113432, W(335), 12820798, false };

	(void)state;
	assert_int_equal(cfsr_cfs_wakeup_preempt(&tu, &a, &b), 1);
	b.vruntime = 8 * MS;
	assert_int_equal(cfsr_cfs_wakeup_preempt(&tu, &a, &b), 0);
	assert_int_equal(cfsr_cfs_wakeup_preempt(&tu, &b, &a), -1);
	assert_int_equal(cfsr_cfs_wakeup_preempt(&tu, &a, &n5), 0);
	n5.vruntime--;
	assert_int_equal(cfsr_cfs_wakeup_preempt(&tu, &a, &n5), 1);
}

/*
 * pick_next_entity(): A 10 ms, C (curr) 10.5 ms, B 11 ms, D 13 ms; the
 * granularity 2 ms.  The leftmost is A; next B (1 ms after A) is taken,
 * next D (3 ms) is not; last B when no next; next wins over last; skip A
 * gives the one after it, C (curr, before B), 0.5 ms away.  C at 9 ms is
 * leftmost: skipped, the tree's first, A, 1 ms away, is taken; at 7 ms A
 * is 3 ms away and C stays.  Equal vruntimes: the one queued first.
 */
static void test_pick_next(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("5.15");
	struct cfsr_cfs_ent e[] = { ent(1, 10 * MS, false), ent(2, 11 * MS, false),
				    ent(3, 21 * MS / 2, true), ent(4, 13 * MS, false) };

	(void)state;
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, -1, -1), 0);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, -1, 1), 1);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, -1, 3), 0);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, 1, -1), 1);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, 2, 1), 1);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, 1, 3), 1);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, 0, -1, -1), 2);
	/* curr C leftmost at 9 ms and skipped: the tree's first, A, 1 ms away */
	e[2].vruntime = 9 * MS;
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, 2, -1, -1), 0);
	/* A 3 ms away from C is too far: C stays */
	e[2].vruntime = 7 * MS;
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, 2, -1, -1), 2);
	/* a tie in the tree: the first queued */
	e[1].vruntime = 10 * MS;
	e[2].vruntime = 12 * MS;
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, -1, -1), 0);
	/* curr equal to the leftmost: the tree's entity (entity_before() is strict) */
	e[2].vruntime = 10 * MS;
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 4, -1, -1, -1), 0);
	assert_int_equal(cfsr_cfs_pick_next(&tu, e, 0, -1, -1, -1), -1);
}

/* Possible buddies: the pick under each; -2 when they differ. */
static void test_pick_buddies(void **state)
{
	struct cfsr_cfs_tunables tu = tu_for("5.15");
	struct cfsr_cfs_ent e[] = { ent(1, 10 * MS, false), ent(2, 11 * MS, false),
				    ent(4, 13 * MS, false) };
	struct cfsr_cfs_buddies b;
	int plain;

	(void)state;
	memset(&b, 0, sizeof(b));
	assert_int_equal(cfsr_cfs_pick_buddies(&tu, e, 3, &b, &plain), 0);
	/* D too far to be taken as a buddy: A either way */
	cfsr_cfs_buddies_add(&b, b.next, &b.nr_next, 4);
	assert_int_equal(cfsr_cfs_pick_buddies(&tu, e, 3, &b, &plain), 0);
	/* B near enough: A or B */
	cfsr_cfs_buddies_add(&b, b.last, &b.nr_last, 2);
	assert_int_equal(cfsr_cfs_pick_buddies(&tu, e, 3, &b, &plain), -2);
	assert_int_equal(plain, 0);
	cfsr_cfs_buddies_drop(&b, 2);
	assert_int_equal(b.nr_last, 0);
	assert_int_equal(cfsr_cfs_pick_buddies(&tu, e, 3, &b, &plain), 0);
	/* any buddy possible */
	b.unknown = true;
	assert_int_equal(cfsr_cfs_pick_buddies(&tu, e, 3, &b, &plain), -2);
	assert_int_equal(cfsr_cfs_pick_buddies(&tu, e, 3, NULL, &plain), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tunables),     cmocka_unit_test(test_calc_delta_fair),
		cmocka_unit_test(test_sched_slice),  cmocka_unit_test(test_place),
		cmocka_unit_test(test_min_vruntime), cmocka_unit_test(test_wakeup_preempt),
		cmocka_unit_test(test_pick_next),    cmocka_unit_test(test_pick_buddies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

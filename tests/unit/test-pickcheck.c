// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/pickcheck.c and the engine's read-only pick
 * (cfsr_replay_pick(), lib/replay.c) it asks: the agreement arithmetic,
 * and picks worked out by hand from the EEVDF rules (v6.18 on 2 CPUs:
 * slice 1.4 ms; nice 0, so virtual time is real time), delayed dequeues
 * included, and the cases the pick does not answer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "cfspick.h"
#include "pickcheck.h"
#include "replay.h"
#include "trace.h"

#define MS 1000000ull
#define T0 5000000000ull

static struct cfsr_event ev_switch(uint64_t ts, int prev, long state, bool preempt, int next)
{
	struct cfsr_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.kind = CFSR_EV_SWITCH;
	e.pid = prev;
	e.sw.prev_pid = prev;
	e.sw.prev_prio = 120;
	e.sw.prev_state = (uint64_t)state;
	e.sw.preempt = preempt;
	e.sw.next_pid = next;
	e.sw.next_prio = 120;
	return e;
}

static struct cfsr_event ev_runtime(uint64_t ts, int pid, uint64_t runtime)
{
	struct cfsr_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.kind = CFSR_EV_STAT_RUNTIME;
	e.pid = pid;
	e.runtime.pid = pid;
	e.runtime.runtime = runtime;
	return e;
}

static struct cfsr_event ev_wakeup(uint64_t ts, int ctx, int pid)
{
	struct cfsr_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.kind = CFSR_EV_WAKEUP;
	e.pid = ctx;
	e.wake.pid = pid;
	e.wake.prio = 120;
	e.wake.target_cpu = 0;
	return e;
}

static void feed(struct cfsr_replay *r, struct cfsr_event e)
{
	assert_int_equal(cfsr_replay_event(r, &e), 0);
}

/* Rounded to the nearest tenth of a percent, halves up: by hand. */
static void test_agree_permille(void **state)
{
	(void)state;
	assert_int_equal(cfsr_pick_agree_permille(1, 3), 333); /* 333.33 */
	assert_int_equal(cfsr_pick_agree_permille(2, 3), 667); /* 666.67 */
	assert_int_equal(cfsr_pick_agree_permille(1, 16), 63); /* 62.5 */
	assert_int_equal(cfsr_pick_agree_permille(11, 12), 917); /* 916.67 */
	assert_int_equal(cfsr_pick_agree_permille(5, 5), 1000);
	assert_int_equal(cfsr_pick_agree_permille(0, 7), 0);
	assert_int_equal(cfsr_pick_agree_permille(0, 0), -1);
	assert_int_equal(cfsr_pick_agree_permille(3, 2), -1);
	/* large counts do not overflow */
	assert_int_equal(cfsr_pick_agree_permille(999999999999ull, 1000000000000ull), 1000);
}

/*
 * A (10) switched in at V = 0 (v 0, d 1.4); after 1 ms (v 1.0) B (11)
 * wakes at V = 1.0 (v 1.0, d 2.4); A runs 1 ms more (v 2.0, deadline
 * renewed to 3.4).  Returns the engine with A running.
 */
static struct cfsr_replay *two_tasks(void)
{
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for("6.18"), 250);

	assert_non_null(r);
	feed(r, ev_switch(T0, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + MS, 10, MS));
	feed(r, ev_wakeup(T0 + MS, 10, 11));
	feed(r, ev_runtime(T0 + 2 * MS, 10, MS));
	return r;
}

/*
 * A blocks: V = (2.0 + 1.0) / 2 = 1.5 and A (2.0) is not eligible, so
 * DELAY_DEQUEUE keeps it queued; B (1.0, eligible) is the one runnable
 * task and is picked.  Then B runs 2 ms (v 3.0, d renewed to 4.4): V =
 * (2.0 + 3.0) / 2 = 2.5, and A (2.0) is eligible again.  If B is preempted,
 * curr B (3.0 > 2.5) is dropped, A is picked but delayed: dequeued; B
 * alone is left and picked.  If B blocks instead, it is delayed itself
 * (not eligible); A is picked and dequeued, then B, and the CPU idles.
 */
static void test_delayed(void **state)
{
	struct cfsr_replay *r = two_tasks();
	struct cfsr_pick_query q = { .prev_pid = 10, .prev_sleeps = true, .other_pid = 11 };
	struct cfsr_pick pk;

	(void)state;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_equal(pk.nr_runnable, 1);
	assert_int_equal(pk.nr_delayed_done, 0);
	assert_int_equal(pk.avg_vruntime, 3 * MS / 2);
	assert_true(pk.other.runnable && pk.other.eligible);
	assert_int_equal(pk.picked.deadline, 2400000);
	/* the engine itself keeps A delayed */
	feed(r, ev_switch(T0 + 2 * MS, 10, 1, false, 11));
	assert_int_equal(cfsr_replay_task(r, 10)->state, CFSR_TS_DELAYED);
	feed(r, ev_runtime(T0 + 4 * MS, 11, 2 * MS));

	q = (struct cfsr_pick_query){ .prev_pid = 11, .other_pid = 10 };
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_equal(pk.nr_delayed_done, 1);
	assert_int_equal(pk.nr_runnable, 1);
	assert_int_equal(pk.avg_vruntime, 3 * MS);
	assert_false(pk.other.runnable);

	q.prev_sleeps = true;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 0);
	assert_int_equal(pk.nr_delayed_done, 2);
	assert_int_equal(pk.nr_runnable, 0);
	/* read-only: the engine still has A delayed and B running */
	assert_int_equal(cfsr_replay_task(r, 10)->state, CFSR_TS_DELAYED);
	assert_int_equal(cfsr_replay_task(r, 11)->state, CFSR_TS_RUNNING);
	cfsr_replay_free(r);
}

/*
 * With A (v 2.0, d 3.4) preempted: V = 1.5, A not eligible, B (1.0, d 2.4)
 * is picked, protected or not (RUN_TO_PARITY needs an eligible curr).
 * One tick earlier, before its second millisecond, A (v 1.0, d 1.4) is
 * eligible at V = 1.0 and has the earlier deadline: kept either way, and
 * reported as kept by RUN_TO_PARITY when protected.
 */
static void test_curr(void **state)
{
	struct cfsr_replay *r = two_tasks();
	struct cfsr_pick_query q = { .prev_pid = 10, .prev_protected = true, .other_pid = 11 };
	struct cfsr_pick pk;

	(void)state;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_false(pk.kept_curr);
	assert_int_equal(pk.nr_runnable, 2);
	cfsr_replay_free(r);

	r = cfsr_replay_new(2, cfsr_profile_for("6.18"), 250);
	feed(r, ev_switch(T0, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + MS, 10, MS));
	feed(r, ev_wakeup(T0 + MS, 10, 11));
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 10);
	assert_true(pk.kept_curr);
	assert_true(pk.picked.eligible);
	q.prev_protected = false;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 10);
	assert_false(pk.kept_curr);
	assert_int_equal(pk.picked.deadline, 1400000);
	assert_int_equal(pk.other.deadline, 2400000);
	cfsr_replay_free(r);
}

/*
 * RUN_TO_PARITY as the trace's features say.  A (10) runs 0.5 ms from
 * V = 0 (v 0.5, d 1.4); B (11), nice -5 (weight 3121), wakes at V = 0.5:
 * v 0.5, d 0.5 + 1.4 * 1024 / 3121 = 0.96 ms.  V stays 0.5, so A is
 * eligible: protected, it is kept; without RUN_TO_PARITY (bit 3 of the
 * 6.18.5+ sysctl_sched_features cleared) B's earlier deadline wins.
 */
static void test_run_to_parity_feature(void **state)
{
	struct cfsr_trace_info info = { .kernel_release = "6.18.44",
					.has_sched_features = true,
					.sched_features = 99674079 & ~(1ull << 3) };
	struct cfsr_pick_query q = { .prev_pid = 10, .prev_protected = true, .other_pid = 11 };
	struct cfsr_replay *r;
	struct cfsr_event e;
	struct cfsr_pick pk;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		r = cfsr_replay_new(2, cfsr_profile_for("6.18.44"), 250);
		if (pass)
			cfsr_replay_take_tunables(r, &info);
		feed(r, ev_switch(T0, 0, 0, false, 10));
		feed(r, ev_runtime(T0 + MS / 2, 10, MS / 2));
		e = ev_wakeup(T0 + MS / 2, 10, 11);
		e.wake.prio = 115;
		feed(r, e);
		assert_int_equal(cfsr_replay_task(r, 11)->vruntime, MS / 2);
		assert_true(cfsr_replay_task(r, 11)->deadline < cfsr_replay_task(r, 10)->deadline);
		assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), pass ? 11 : 10);
		assert_int_equal(pk.kept_curr, !pass);
		assert_true(pk.other.eligible);
		cfsr_replay_free(r);
	}
}

/* What the pick does not answer: a prev the engine does not have, groups. */
static void test_no_answer(void **state)
{
	struct cfsr_replay *r = two_tasks();
	struct cfsr_pick_query q = { .prev_pid = 11, .other_pid = 10 };
	struct cfsr_pick pk;

	(void)state;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), CFSR_PICK_NO_STATE);
	assert_int_equal(cfsr_replay_pick(r, 1, &q, &pk), CFSR_PICK_NO_STATE);
	q.prev_pid = 10;
	/* both in the one group: one cfs_rq */
	assert_int_equal(cfsr_replay_task_set_group(r, 11, "/autogroup-3"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 10, "/autogroup-3"), 1);
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_not_equal(pk.group, 0);
	assert_int_equal(pk.level, -1);
	cfsr_replay_free(r);
}

/*
 * A CFS profile (v6.1, 2 CPUs: latency 12 ms, wakeup granularity 2 ms,
 * the sleeper credit 6 ms): groups /A (cpu.shares 2048) and /B (512),
 * both made in the trace, a1 (10) in /A, b1 (11) in /B, on CPU 0.  Each
 * group has load on CPU 0 alone, so calc_group_shares() gives its entity
 * the whole tg->shares: A weighs 2048, B 512.  By hand, __calc_delta()
 * of 1 ms: at 2048, inv_weight 2^32 / 2048 - 1 = 2097151, fact 1024 *
 * 2097151 < 2^32, 10^6 * 2147482624 >> 32 = 499999; at 512, inv 8388607,
 * fact 8589933568 >= 2^32: shifted once, 10^6 * 4294966784 >> 31 =
 * 1999999.  Root min_vruntime 0 (the engine's frame).
 *  - T0: a1 switched in: A is placed from vruntime 0 (a new group's
 *    entity), far below the floor: min_vruntime - 6 ms = -6000000.
 *  - T0+1: a1 ran 1 ms: A -5500001.  b1 wakes: B placed at -6000000.
 *  - T0+2: a1 ran 1 ms: A -5000002.  The root's min_vruntime stays 0
 *    (both below it, never backwards).  The pick at a1's preemption: the
 *    leftmost is B (curr A is after it): B, then b1.  The kernel running
 *    a1 instead parts at level 0, A 1 ms (virtual) after B.
 *  - b1 runs 1 ms (T0+3): B -6000000 + 1999999 = -4000001; A (-5000002)
 *    is leftmost now: the pick at b1's preemption takes A, then a1.
 */
static struct cfsr_replay *cfs_two_groups(void)
{
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for("6.1"), 250);

	assert_non_null(r);
	assert_int_equal(cfsr_replay_group_shares(r, "/A", 2048ull << 10), 0);
	assert_int_equal(cfsr_replay_group_shares(r, "/B", 512ull << 10), 0);
	assert_int_equal(cfsr_replay_group_created(r, "/A"), 0);
	assert_int_equal(cfsr_replay_group_created(r, "/B"), 0);
	assert_int_equal(cfsr_replay_task_set_group(r, 10, "/A"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 11, "/B"), 1);
	feed(r, ev_switch(T0, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + MS, 10, MS));
	feed(r, ev_wakeup(T0 + MS, 10, 11));
	return r;
}

static void test_cfs_groups(void **state)
{
	struct cfsr_replay *r = cfs_two_groups();
	struct cfsr_pick_query q = { .prev_pid = 10, .other_pid = 10 };
	const struct cfsr_cfs_rq *a = cfsr_replay_cfs_rq(r, "/A", 0);
	const struct cfsr_cfs_rq *b = cfsr_replay_cfs_rq(r, "/B", 0);
	struct cfsr_pick pk;

	(void)state;
	assert_int_equal(a->se_weight, 2048ull << 10);
	assert_int_equal(b->se_weight, 512ull << 10);
	assert_int_equal(a->se_vruntime, (uint64_t)-5500001);
	assert_int_equal(b->se_vruntime, (uint64_t)-6000000);
	assert_false(a->se_vr_guessed);
	assert_false(b->se_vr_guessed);
	feed(r, ev_runtime(T0 + 2 * MS, 10, MS));
	assert_int_equal(a->se_vruntime, (uint64_t)-5000002);
	assert_int_equal(cfsr_replay_cfs_rq(r, "/", 0)->min_vruntime, 0);
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_true(pk.groups);
	assert_int_equal(pk.level, 0);
	assert_int_equal(pk.group, 0);
	assert_int_equal(pk.picked.group, b->group);
	assert_int_equal(pk.picked.vruntime, (uint64_t)-6000000);
	assert_int_equal(pk.other.group, a->group);
	assert_int_equal(pk.other.vruntime, (uint64_t)-5000002);
	assert_int_equal(pk.min_vruntime, 0);
	assert_false(pk.buddy);
	/* the kernel runs b1: the pick's path */
	q.other_pid = 11;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_equal(pk.level, -1);
	feed(r, ev_switch(T0 + 2 * MS, 10, 0, true, 11));
	feed(r, ev_runtime(T0 + 3 * MS, 11, MS));
	assert_int_equal(b->se_vruntime, (uint64_t)-4000001);
	assert_int_equal(a->se_vruntime, (uint64_t)-5000002);
	q = (struct cfsr_pick_query){ .prev_pid = 11, .other_pid = 10 };
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 10);
	assert_int_equal(pk.level, -1);
	cfsr_replay_free(r);
}

/*
 * The same groups, a2 (12) in /A too, woken at T0+1 after b1 (its
 * vruntime unknown: alone in /A after a1's sleep, it is not compared).
 * At T0+2 a1 blocks: /A keeps a2, so dequeue_task_fair() makes A the
 * root's next buddy (set_next_buddy()).  pick_next_entity() at the root,
 * with A still its curr: the leftmost is B (-6000000); the next buddy A
 * (-5000002) is 999998 after it, within wakeup_gran(B) = 2 ms at 512 =
 * 3999999: A is taken, then a2 in /A (a buddy's pick).  Preempted instead,
 * a1 sets no buddy: B, and b1.
 */
static void test_cfs_groups_buddy(void **state)
{
	struct cfsr_replay *r = cfs_two_groups();
	struct cfsr_pick_query q = { .prev_pid = 10, .prev_sleeps = true, .other_pid = 12 };
	struct cfsr_pick pk;

	(void)state;
	assert_int_equal(cfsr_replay_task_set_group(r, 12, "/A"), 1);
	feed(r, ev_wakeup(T0 + MS, 10, 12));
	feed(r, ev_runtime(T0 + 2 * MS, 10, MS));
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 12);
	assert_true(pk.buddy);
	assert_int_equal(pk.level, -1);
	assert_int_equal(pk.nr_buddies, 1);
	assert_int_equal(pk.buddies[0], cfsr_replay_cfs_rq(r, "/A", 0)->group);
	q.prev_sleeps = false;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_false(pk.buddy);
	assert_int_equal(pk.level, 0);
	cfsr_replay_free(r);
}

/*
 * The same with /A idle (cpu.idle 1; its shares left at 2048 so that only
 * the buddy rule changes): set_next_buddy() of A's entity returns at once
 * (se_is_idle(), v5.15+), so a1's sleep leaves no next buddy and the pick
 * is the leftmost, B, and b1.  Under v5.10 (no idle groups) A is the
 * buddy as before.
 */
static void cfs_idle_buddy(const char *release, int want)
{
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for(release), 250);
	struct cfsr_pick_query q = { .prev_pid = 10, .prev_sleeps = true, .other_pid = 12 };
	struct cfsr_pick pk;

	assert_int_equal(cfsr_replay_group_shares(r, "/A", 2048ull << 10), 0);
	assert_int_equal(cfsr_replay_group_shares(r, "/B", 512ull << 10), 0);
	assert_int_equal(cfsr_replay_group_idle(r, "/A"), 0);
	assert_int_equal(cfsr_replay_group_created(r, "/A"), 0);
	assert_int_equal(cfsr_replay_group_created(r, "/B"), 0);
	assert_int_equal(cfsr_replay_task_set_group(r, 10, "/A"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 11, "/B"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 12, "/A"), 1);
	feed(r, ev_switch(T0, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + MS, 10, MS));
	feed(r, ev_wakeup(T0 + MS, 10, 11));
	feed(r, ev_wakeup(T0 + MS, 10, 12));
	feed(r, ev_runtime(T0 + 2 * MS, 10, MS));
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), want);
	assert_int_equal(pk.buddy, want == 12);
	cfsr_replay_free(r);
}

static void test_cfs_idle_buddy(void **state)
{
	(void)state;
	cfs_idle_buddy("6.1", 11);
	cfs_idle_buddy("5.10", 12);
}

/*
 * Two groups on CPU 0, v6.18 (2 CPUs: slice 1.4 ms), all tasks nice 0:
 * a1 (10) in /A, b1 (11) and b2 (12) in /B.  Each group has load on CPU 0
 * only, so calc_group_shares() gives its entity the whole tg->shares,
 * 1024: virtual time is real time on both levels.  Worked out by hand:
 *  - T0: a1 switched in; its cfs_rq /A and the root are empty (V 0): a1
 *    v 0, d 1.4; gse A v 0, d 1.4 (a group entity's slice is its cfs_rq's
 *    smallest, 1.4).
 *  - T0+1: a1 reports 1 ms: a1 v 1.0, gse A v 1.0 (deadlines not
 *    reached).  b1 wakes into the empty /B (V_B 0): b1 v 0, d 1.4; gse B
 *    placed at the root's V, that of curr gse A alone, 1.0: v 1.0, d 2.4.
 *  - T0+2: a1 reports 1 ms: a1 v 2.0, its deadline 1.4 passed: d 3.4;
 *    gse A v 2.0, d 3.4.  Root: A 2.0 (curr), B 1.0: V 1.5; A is not
 *    eligible, B is: the pick at a1's preemption takes B, then b1 (alone).
 *  - b1 runs 1 ms (T0+3): b1 v 1.0 (d 1.4), gse B v 2.0 (d 2.4).  Root:
 *    A 2.0 d 3.4, B 2.0 d 2.4 (curr): V 2.0, both eligible; B's deadline
 *    is earlier: B, and in it b1.  With the root's next buddy on A
 *    (PICK_BUDDY: eligible), A and a1 instead: the kernel running b1 then
 *    parts from the model at level 0 (not-buddy).
 *  - T0+3: b2 wakes into /B: V_B is curr b1's 1.0: b2 v 1.0, d 2.4.
 *    If b1 is preempted: root as above, B; in B, b1 (1.0, d 1.4) and b2
 *    (1.0, d 2.4) both eligible (V_B 1.0), b1's deadline earlier: b1; the
 *    kernel running b2 parts at level 1, the cfs_rq of /B
 *    (earlier-deadline, d 2.4 against 1.4); with b1's slice protected
 *    (RUN_TO_PARITY), b1 is kept: run-to-parity at level 1.
 *    If b1 blocks: it is eligible (1.0 <= V_B 1.0), so it is dequeued,
 *    not delayed; /B keeps b2, so set_next_buddy() makes B the root's next
 *    buddy; B (2.0 <= V 2.0) is eligible: B by the buddy, then b2.
 *  - Instead, b1 runs 0.5 ms more (T0+3.5): b1 v 1.5, deadline passed: d
 *    2.9; gse B v 2.5, deadline passed: d 3.9.  Root: A 2.0 d 3.4, B 2.5
 *    (curr): V 2.25; only A is eligible: the pick at b1's preemption takes
 *    a1; the kernel running b2 parts at level 0: gse B ineligible, 0.25 ms
 *    past V.
 */
/* cfs_rq->next of the root on the group entity of the group @data points to */
static int buddy_on(const void *data, const struct cfsr_cfs_rq *cfs)
{
	return cfs->group ? 0 : *(const int *)data;
}

/* A v6.18 engine with a1 (10) in /A, b1 (11) and b2 (12) in /B. */
static struct cfsr_replay *groups_engine(void)
{
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for("6.18"), 250);

	assert_non_null(r);
	assert_int_equal(cfsr_replay_task_set_group(r, 10, "/A"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 11, "/B"), 1);
	assert_int_equal(cfsr_replay_task_set_group(r, 12, "/B"), 1);
	return r;
}

static void test_groups(void **state)
{
	struct cfsr_replay *r = groups_engine();
	struct cfsr_pick_query q = { .prev_pid = 10, .other_pid = 11 };
	const struct cfsr_cfs_rq *ga, *gb;
	struct cfsr_pick pk;

	(void)state;
	feed(r, ev_switch(T0, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + MS, 10, MS));
	feed(r, ev_wakeup(T0 + MS, 10, 11));
	feed(r, ev_runtime(T0 + 2 * MS, 10, MS));
	ga = cfsr_replay_task_cfs_rq(r, cfsr_replay_task(r, 10));
	gb = cfsr_replay_task_cfs_rq(r, cfsr_replay_task(r, 11));
	assert_int_equal(ga->se_weight >> 10, 1024);
	assert_int_equal(gb->se_weight >> 10, 1024);
	assert_int_equal(ga->se_vruntime, 2 * MS);
	assert_int_equal(ga->se_deadline, 3400000);
	assert_int_equal(gb->se_vruntime, 1 * MS);
	assert_int_equal(gb->se_deadline, 2400000);
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_equal(pk.level, -1);

	feed(r, ev_switch(T0 + 2 * MS, 10, 0, true, 11));
	feed(r, ev_runtime(T0 + 3 * MS, 11, MS));
	assert_int_equal(gb->se_vruntime, 2 * MS);
	assert_int_equal(gb->se_deadline, 2400000);
	q = (struct cfsr_pick_query){ .prev_pid = 11, .other_pid = 11 };
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	/* the root's next buddy on A */
	q.next_buddy = buddy_on;
	q.data = &ga->group;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 10);
	assert_int_equal(pk.level, 0);
	assert_true(pk.buddy);
	assert_int_equal(pk.picked.group, ga->group);
	assert_int_equal(pk.other.group, gb->group);

	feed(r, ev_wakeup(T0 + 3 * MS, 11, 12));
	assert_int_equal(cfsr_replay_task(r, 12)->vruntime, 1 * MS);
	assert_int_equal(cfsr_replay_task(r, 12)->deadline, 2400000);
	q = (struct cfsr_pick_query){ .prev_pid = 11, .other_pid = 12 };
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_equal(pk.level, 1);
	assert_int_equal(pk.group, gb->group);
	assert_false(pk.kept_curr);
	assert_int_equal(pk.picked.group, 0);
	assert_int_equal(pk.picked.deadline, 1400000);
	assert_int_equal(pk.other.deadline, 2400000);
	assert_true(pk.other.eligible);
	q.prev_protected = true;
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
	assert_int_equal(pk.level, 1);
	assert_true(pk.kept_curr);
	/* b1 blocks */
	q = (struct cfsr_pick_query){ .prev_pid = 11, .prev_sleeps = true, .other_pid = 12 };
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 12);
	assert_int_equal(pk.level, -1);
	assert_int_equal(pk.nr_buddies, 1);
	assert_int_equal(pk.buddies[0], gb->group);
	assert_true(pk.buddy);

	feed(r, ev_runtime(T0 + 3 * MS + MS / 2, 11, MS / 2));
	assert_int_equal(gb->se_vruntime, 2500000);
	assert_int_equal(gb->se_deadline, 3900000);
	assert_int_equal(cfsr_replay_task(r, 11)->deadline, 2900000);
	q = (struct cfsr_pick_query){ .prev_pid = 11, .other_pid = 12 };
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 10);
	assert_int_equal(pk.level, 0);
	assert_int_equal(pk.group, 0);
	assert_int_equal(pk.avg_vruntime, 2250000);
	assert_int_equal(pk.picked.group, ga->group);
	assert_int_equal(pk.picked.vruntime, 2 * MS);
	assert_int_equal(pk.other.group, gb->group);
	assert_int_equal(pk.other.pid, 12);
	assert_false(pk.other.eligible);
	assert_int_equal(pk.other.vruntime, 2500000);
	cfsr_replay_free(r);
}

/*
 * The CFS rules in the engine (v6.1 on 2 CPUs: latency 12 ms, the sleeper
 * floor min_vruntime - 6 ms, wakeup granularity 2 ms; nice 0, so virtual
 * time is real time), worked out by hand:
 *  - A (10) is switched in with no past: the start policy puts it at
 *    min_vruntime 0 (guessed); it runs 20 ms (v 20, min 20) and sleeps;
 *  - B (11) wakes with no past: at min 20 (guessed); runs 30 ms (v 50,
 *    min 50);
 *  - A wakes: floor 50 - 6 = 44 > 20: placed at 44, no longer guessed;
 *    a pick now has B guessed: not answered;
 *  - B is preempted by A, A runs 2 ms (v 46; min stays 50: min(46, B 50)
 *    is behind it, and it never goes back), sleeps; B runs 10 ms (v 60,
 *    min 60), sleeps; A wakes: floor 54 > 46, at 54; runs 20 ms (v 74,
 *    min 74);
 *  - B wakes: floor 68 > 60: at 68, known; the pick at A's preemption
 *    takes the leftmost, B;
 *  - A forks C (12) while running, B queued: sched_slice() of C over A, B
 *    and C (3 tasks <= 8: the latency, 12 ms) at 1024 / 3072, with the
 *    inverse 0xffffffff / 3072 = 1398101: fact = 1024 * 1398101 =
 *    1431655424, 12 ms * 1431655424 / 2^32 = 3999999.33 -> 3999999 ns; so
 *    C starts at max(A's 74 ms, min 74 ms + 3999999 ns), kept relative
 *    (3999999) until its wakeup adds the min_vruntime then (74 ms).
 */
/* What the CFS case below gives at each step (ns). */
struct cfs_case {
	uint64_t a_wake, a_ran, a_wake2, b_wake, pick_min, c_rel;
	/* B's wakeup keeps its own (guessed) vruntime: the pick is not answered */
	bool b_guessed;
};

/* The CFS case on @r, checked against @x; the engine is freed. */
static void run_cfs_case(struct cfsr_replay *r, const struct cfs_case *x)
{
	struct cfsr_pick_query q = { .prev_pid = 11, .other_pid = 10 };
	struct cfsr_event e;
	struct cfsr_pick pk;
	const struct cfsr_task *a, *b, *c;

	feed(r, ev_switch(T0, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + 20 * MS, 10, 20 * MS));
	feed(r, ev_switch(T0 + 20 * MS, 10, 1, false, 0));
	feed(r, ev_wakeup(T0 + 21 * MS, 0, 11));
	feed(r, ev_switch(T0 + 21 * MS, 0, 0, false, 11));
	feed(r, ev_runtime(T0 + 51 * MS, 11, 30 * MS));
	b = cfsr_replay_task(r, 11);
	assert_int_equal(b->vruntime, 50 * MS);
	assert_true(b->vr_guessed);
	assert_int_equal(cfsr_replay_task_cfs_rq(r, b)->min_vruntime, 50 * MS);
	feed(r, ev_wakeup(T0 + 51 * MS, 11, 10));
	a = cfsr_replay_task(r, 10);
	assert_int_equal(a->vruntime, x->a_wake);
	assert_false(a->vr_guessed);
	assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), CFSR_PICK_VR_UNKNOWN);

	feed(r, ev_switch(T0 + 51 * MS, 11, 0, true, 10));
	feed(r, ev_runtime(T0 + 53 * MS, 10, 2 * MS));
	assert_int_equal(cfsr_replay_task(r, 10)->vruntime, x->a_ran);
	assert_int_equal(cfsr_replay_task_cfs_rq(r, a)->min_vruntime, 50 * MS);
	feed(r, ev_switch(T0 + 53 * MS, 10, 1, false, 11));
	feed(r, ev_runtime(T0 + 63 * MS, 11, 10 * MS));
	feed(r, ev_switch(T0 + 63 * MS, 11, 1, false, 0));
	feed(r, ev_wakeup(T0 + 64 * MS, 0, 10));
	a = cfsr_replay_task(r, 10);
	assert_int_equal(a->vruntime, x->a_wake2);
	feed(r, ev_switch(T0 + 64 * MS, 0, 0, false, 10));
	feed(r, ev_runtime(T0 + 84 * MS, 10, 20 * MS));
	feed(r, ev_wakeup(T0 + 84 * MS, 10, 11));
	b = cfsr_replay_task(r, 11);
	assert_int_equal(b->vruntime, x->b_wake);
	assert_int_equal(b->vr_guessed, x->b_guessed);
	q = (struct cfsr_pick_query){ .prev_pid = 10, .other_pid = 11 };
	if (x->b_guessed) {
		assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), CFSR_PICK_VR_UNKNOWN);
	} else {
		assert_int_equal(cfsr_replay_pick(r, 0, &q, &pk), 11);
		assert_int_equal(pk.nr_runnable, 2);
		assert_int_equal(pk.min_vruntime, x->pick_min);
		assert_false(pk.buddy);
	}
	assert_int_equal(cfsr_replay_task_cfs_rq(r, b)->min_vruntime, x->pick_min);

	memset(&e, 0, sizeof(e));
	e.ts = T0 + 84 * MS;
	e.kind = CFSR_EV_FORK;
	e.pid = 10;
	e.fork.parent_pid = 10;
	e.fork.child_pid = 12;
	feed(r, e);
	c = cfsr_replay_task(r, 12);
	assert_true(c->vr_rel && !c->vr_guessed);
	assert_int_equal(c->vruntime, x->c_rel);
	e.kind = CFSR_EV_WAKEUP_NEW;
	e.wake.pid = 12;
	e.wake.prio = 120;
	e.wake.target_cpu = 0;
	feed(r, e);
	c = cfsr_replay_task(r, 12);
	assert_int_equal(c->vruntime, x->pick_min + x->c_rel);
	assert_false(c->vr_rel);
	cfsr_replay_free(r);
}

static void test_cfs_engine(void **state)
{
	static const struct cfs_case x = { 44 * MS, 46 * MS, 54 * MS, 68 * MS,
					   74 * MS, 3999999, false };

	(void)state;
	run_cfs_case(cfsr_replay_new(2, cfsr_profile_for("6.1"), 250), &x);
}

/*
 * The same case on a trace recorded on 6.1.0 whose sysctl_sched_features
 * has GENTLE_FAIR_SLEEPERS (bit 0 of the v6.0-v6.5 features.h) and
 * START_DEBIT (bit 1) cleared, the others at their defaults: the sleeper
 * floor is min_vruntime - 12 ms, and a new task starts at min_vruntime.
 *  - A wakes: floor 50 - 12 = 38 > 20: at 38; runs 2 ms (v 40, min 50);
 *    B runs 10 ms (v 60, min 60); A wakes: floor 48 > 40, at 48; runs 20
 *    ms (v 68, min 68);
 *  - B wakes: floor 56 < 60: keeps 60, still the start policy's guess
 *    (its first vruntime had no past), so the pick is not answered;
 *    min_vruntime stays 68 (A 68, B 60 behind it);
 *  - C starts at max(A's 68 ms, min 68 ms): relative 0, then 68 ms.
 * A trace of another release replayed under 6.1 is a what-if: the
 * defaults stay, whatever its bitmask.
 */
static void test_cfs_engine_features(void **state)
{
	static const struct cfs_case x = { 38 * MS, 40 * MS, 48 * MS, 60 * MS, 68 * MS, 0, true };
	static const struct cfs_case dflt = { 44 * MS, 46 * MS, 54 * MS, 68 * MS,
					      74 * MS, 3999999, false };
	/* v6.0-v6.5 defaults: bits 0, 1, 3, 4, 5 of the head on; NEXT_BUDDY (2) off */
	const uint64_t mask = 0x3b & ~UINT64_C(0x3);
	struct cfsr_trace_info in;
	struct cfsr_replay *r;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.kernel_release = "6.1.0";
	in.sched_features = mask;
	in.has_sched_features = true;
	r = cfsr_replay_new(2, cfsr_profile_for("6.1"), 250);
	cfsr_replay_take_tunables(r, &in);
	assert_false(cfsr_replay_cfs_tunables(r)->gentle);
	assert_false(cfsr_replay_cfs_tunables(r)->start_debit);
	assert_true(cfsr_replay_cfs_tunables(r)->last_buddy);
	assert_true(cfsr_replay_cfs_tunables(r)->wakeup_preemption);
	assert_false(cfsr_replay_cfs_tunables(r)->next_buddy);
	run_cfs_case(r, &x);

	in.kernel_release = "6.18.44";
	r = cfsr_replay_new(2, cfsr_profile_for("6.1"), 250);
	cfsr_replay_take_tunables(r, &in);
	run_cfs_case(r, &dflt);
}

/* Every reason has a key, a class and a text, and the keys are distinct. */
static void test_reasons(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < CFSR_PR_NR; i++) {
		assert_non_null(strchr("TADC", cfsr_pick_reason_class((enum cfsr_pick_reason)i)));
		assert_true(strlen(cfsr_pick_reason_text((enum cfsr_pick_reason)i)) > 0);
		for (j = 0; j < i; j++)
			assert_string_not_equal(cfsr_pick_reason_key((enum cfsr_pick_reason)i),
						cfsr_pick_reason_key((enum cfsr_pick_reason)j));
	}
}

/*
 * Three nice-0 spinners as scripts/pick-trace.py's "wrong" scenario
 * builds them (A 201 switched in at V = 0; B 202 woken at 1 ms, v 1.0,
 * d 2.4; C 203 at 1.2 ms, v 1.1, d 2.5; ticks every 4 ms), switched
 * A C B A B A.  At 4 ms C runs while B had the earlier deadline (2.4 <
 * 2.5): earlier-deadline, size 0.1 ms.  Then C B A B agree (the rule's
 * order).  At 20 ms B (9.0) leaves; A 8.0, C 5.1: V = floor(22.1 / 3) =
 * 7.366666 (on the base 1.0 of B's wakeup, as the engine keeps it), C
 * eligible, A not: running A is ineligible, size 8.0 - 7.366666.  With
 * --top 1 only that larger one is kept.
 */
static void pc_step(struct cfsr_pickcheck *pc, struct cfsr_replay *r, struct cfsr_event e);

/* @r: the check's borrowed engine */
static void run_wrong(struct cfsr_pickcheck *pc, struct cfsr_replay *r)
{
	static const int order[] = { 201, 203, 202, 201, 202, 201 };
	uint64_t ts;
	int k;

	pc_step(pc, r, ev_switch(T0, 0, 0, false, 201));
	pc_step(pc, r, ev_runtime(T0 + MS, 201, MS));
	pc_step(pc, r, ev_wakeup(T0 + MS, 201, 202));
	pc_step(pc, r, ev_runtime(T0 + 1200000, 201, 200000));
	pc_step(pc, r, ev_wakeup(T0 + 1200000, 201, 203));
	for (k = 1; k <= 5; k++) {
		ts = T0 + 4 * MS * (uint64_t)k;
		pc_step(pc, r, ev_runtime(ts, order[k - 1], k == 1 ? 2800000 : 4 * MS));
		pc_step(pc, r, ev_switch(ts, order[k - 1], 0, true, order[k]));
	}
}

/*
 * A check of the "wrong" switches on an engine that keeps every lag as
 * placed (0): the verdicts below are by hand from those lags.
 */
static struct cfsr_pickcheck *wrong_check(struct cfsr_pickcheck_params *p, struct cfsr_replay **r)
{
	*r = cfsr_replay_new(2, p->prof, 250);
	assert_non_null(*r);
	cfsr_replay_set_lag_inference(*r, false);
	p->engine = *r;
	return cfsr_pickcheck_new(p);
}

/* The check's totals: switches, contested, agrees and cannot judge as given. */
static struct cfsr_pick_cpu assert_totals(const struct cfsr_pickcheck *pc, uint64_t switches,
					  uint64_t contested, uint64_t agrees, uint64_t cannot)
{
	struct cfsr_pick_cpu n;

	cfsr_pickcheck_total(pc, &n);
	assert_int_equal(n.switches, switches);
	assert_int_equal(n.contested, contested);
	assert_int_equal(n.agrees, agrees);
	assert_int_equal(n.diverges, contested - agrees);
	assert_int_equal(n.cannot, cannot);
	return n;
}

/* The check before the borrowed engine replays @e, and after. */
static void pc_step(struct cfsr_pickcheck *pc, struct cfsr_replay *r, struct cfsr_event e)
{
	assert_int_equal(cfsr_pickcheck_before(pc, &e), 0);
	feed(r, e);
	cfsr_pickcheck_after(pc, &e);
}

/*
 * The check's next buddies, on the groups of test_groups() (a1 in /A; b1,
 * b2 in /B; group entities of weight 1024: virtual time is real time):
 *  - T0: a1 switched in, the CPU's first switch (state-unknown); it runs
 *    2 ms while b1 wakes at T0+1 (gse B v 1.0, d 2.4); at its preemption
 *    A (2.0, d 3.4) is not eligible against V 1.5: B, b1 (earliest).
 *  - b1 runs 1 ms (b1 v 1.0, gse B v 2.0, d 2.4); b2 wakes (v 1.0, d 2.4);
 *    b1 blocks, eligible in /B (V_B 1.0): dequeued, /B keeps b2, so B is
 *    the root's next buddy; B eligible (2.0 <= V 2.0): b2 (next-buddy).
 *    b2 follows b1 in one group: B's set_next_entity() is not made, the
 *    buddy stays.
 *  - b2 runs 0.5 ms: b2 v 1.5; gse B v 2.5, deadline passed: d 3.9.  At
 *    its preemption V is (2.0 + 2.5) / 2 = 2.25: the buddy B is not
 *    eligible, A is: a1 (earliest); A's set_next_entity() at d 3.4 does
 *    not clear B's mark.
 *  - a1 runs 0.5 ms: a1 v 2.5, gse A v 2.5 (d 3.4, unchanged since its
 *    set_next_entity(): protected); V 2.5, both eligible.  Without the
 *    buddy RUN_TO_PARITY would keep A (a1); the buddy comes first: B, b2,
 *    which the kernel runs (next-buddy).  The set_next_entity() of B then
 *    clears the mark: b2 runs 1 ms (gse B v 3.5, d 3.9), and at its
 *    preemption A (2.5, d 3.4) is the one eligible: a1 (earliest).
 */
static void test_pickcheck_buddy(void **state)
{
	struct cfsr_replay *r = groups_engine();
	struct cfsr_pickcheck_params p = {
		.engine = r,
		.nr_cpus = 2,
		.prof = cfsr_profile_for("6.18"),
		.hz = 250,
		.win_end = UINT64_MAX,
		.filter_cpu = -1,
		.filter_pid = -1,
	};
	struct cfsr_pickcheck *pc = cfsr_pickcheck_new(&p);
	struct cfsr_pick_cpu n;

	(void)state;
	assert_non_null(pc);
	cfsr_pickcheck_groups_known(pc);
	pc_step(pc, r, ev_switch(T0, 0, 0, false, 10));
	pc_step(pc, r, ev_runtime(T0 + MS, 10, MS));
	pc_step(pc, r, ev_wakeup(T0 + MS, 10, 11));
	pc_step(pc, r, ev_runtime(T0 + 2 * MS, 10, MS));
	pc_step(pc, r, ev_switch(T0 + 2 * MS, 10, 0, true, 11));
	pc_step(pc, r, ev_runtime(T0 + 3 * MS, 11, MS));
	pc_step(pc, r, ev_wakeup(T0 + 3 * MS, 11, 12));
	pc_step(pc, r, ev_switch(T0 + 3 * MS, 11, 1, false, 12));
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_NEXT_BUDDY), 1);
	pc_step(pc, r, ev_runtime(T0 + 3 * MS + MS / 2, 12, MS / 2));
	pc_step(pc, r, ev_switch(T0 + 3 * MS + MS / 2, 12, 0, true, 10));
	pc_step(pc, r, ev_runtime(T0 + 4 * MS, 10, MS / 2));
	pc_step(pc, r, ev_switch(T0 + 4 * MS, 10, 0, true, 12));
	pc_step(pc, r, ev_runtime(T0 + 5 * MS, 12, MS));
	pc_step(pc, r, ev_switch(T0 + 5 * MS, 12, 0, true, 10));
	n = assert_totals(pc, 6, 5, 5, 1);
	assert_int_equal(n.groups_contested, 5);
	assert_int_equal(n.groups_agrees, 5);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_STATE_UNKNOWN), 1);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_EARLIEST), 3);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_NEXT_BUDDY), 2);
	cfsr_pickcheck_free(pc);
	cfsr_replay_free(r);
}

/*
 * RUN_TO_PARITY and an idle curr (check_preempt_wakeup_fair()): A (10),
 * SCHED_IDLE (weight 3), is switched in at T0; B (11, nice 0) wakes 1 us
 * later, placed at V, which is A's vruntime (A alone, curr, in the
 * average); the switch A -> B follows the wakeup at its clock
 * (rq_clock_skip_update()), so A is still at V: eligible, and its deadline
 * is the one of its pick, far ahead (a slice at weight 3).  v6.15+
 * (f553741ac8c0): B, non-idle, cancels A's slice protection, so the pick
 * is B, the eligible earliest deadline: agrees.  v6.14: A keeps its
 * protection and the model keeps A: the kernel's B diverges.
 */
static void idle_unprotect(const char *release, uint64_t agrees)
{
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for(release), 250);
	struct cfsr_pickcheck_params p = {
		.engine = r,
		.nr_cpus = 2,
		.prof = cfsr_profile_for(release),
		.hz = 250,
		.win_end = UINT64_MAX,
		.filter_cpu = -1,
		.filter_pid = -1,
	};
	struct cfsr_pickcheck *pc = cfsr_pickcheck_new(&p);

	assert_non_null(pc);
	assert_int_equal(cfsr_replay_task_set_idle_policy(r, 10, true), 0);
	pc_step(pc, r, ev_switch(T0, 0, 0, false, 10));
	pc_step(pc, r, ev_wakeup(T0 + 1000, 10, 11));
	pc_step(pc, r, ev_switch(T0 + 2000, 10, 0, true, 11));
	assert_totals(pc, 2, 1, agrees, 1);
	cfsr_pickcheck_free(pc);
	cfsr_replay_free(r);
}

static void test_idle_unprotect(void **state)
{
	(void)state;
	idle_unprotect("6.18", 1);
	idle_unprotect("6.15", 1);
	idle_unprotect("6.14.9", 0);
}

static void test_pickcheck_top(void **state)
{
	struct cfsr_pickcheck_params p = {
		.nr_cpus = 2,
		.prof = cfsr_profile_for("6.18"),
		.hz = 250,
		.top = 1,
		.win_end = UINT64_MAX,
		.filter_cpu = -1,
		.filter_pid = -1,
	};
	const struct cfsr_pick_div *d;
	struct cfsr_pickcheck *pc;
	struct cfsr_replay *r;

	(void)state;
	pc = wrong_check(&p, &r);
	assert_non_null(pc);
	run_wrong(pc, r);
	assert_totals(pc, 6, 5, 3, 1);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_STATE_UNKNOWN), 1);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_EARLIER_DEADLINE), 1);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_INELIGIBLE), 1);
	assert_int_equal(cfsr_pickcheck_top(pc, &d), 1);
	assert_int_equal(d[0].why, CFSR_PR_INELIGIBLE);
	assert_int_equal(d[0].ts, T0 + 20 * MS);
	assert_int_equal(d[0].ran.pid, 201);
	assert_int_equal(d[0].preferred.pid, 203);
	assert_int_equal(d[0].avg_vruntime, 7366666);
	assert_int_equal(d[0].size, 8000000 - 7366666);
	cfsr_pickcheck_free(pc);

	cfsr_replay_free(r);

	p.top = 5;
	pc = wrong_check(&p, &r);
	assert_non_null(pc);
	run_wrong(pc, r);
	assert_int_equal(cfsr_pickcheck_top(pc, &d), 2);
	assert_int_equal(d[0].why, CFSR_PR_INELIGIBLE);
	assert_int_equal(d[1].why, CFSR_PR_EARLIER_DEADLINE);
	assert_int_equal(d[1].size, 100000);
	assert_int_equal(d[1].avg_vruntime, 2033333);
	assert_int_equal(d[1].ran.pid, 203);
	assert_int_equal(d[1].preferred.pid, 202);
	cfsr_pickcheck_free(pc);
	cfsr_replay_free(r);
}

/*
 * The "wrong" switches of run_wrong() on an engine that infers lags: B and
 * C woke with lags the trace does not give, placed as 0 (v 1.0, d 2.4;
 * v 1.1, d 2.5).  At T0+4 the kernel runs C, where the model's state
 * prefers B: C's lag was larger, so the check cannot judge (lag-guessed),
 * and the engine moves C left just enough to be the pick: by 2.5 - 2.4 ms
 * + 1 ns, to v 999999, d 2399999.  At T0+8, C having run 4 ms (v
 * 4999999, its deadline renewed to 6399999), V = (4.0 + 1.0 + 4.999999)
 * / 3 ms: B (1.0), the only eligible other, agrees; at T0+12 B has run 4
 * ms (v 5.0, d 6.4), V = 4.666666 ms: A (4.0) agrees.
 */
static void test_pickcheck_lag_guessed(void **state)
{
	struct cfsr_pickcheck_params p = {
		.nr_cpus = 2,
		.prof = cfsr_profile_for("6.18.44"),
		.hz = 250,
		.win_end = UINT64_MAX,
		.filter_cpu = -1,
		.filter_pid = -1,
	};
	static const int order[] = { 201, 203, 202, 201 };
	struct cfsr_pickcheck *pc;
	struct cfsr_replay *r;
	uint64_t ts;
	int k;

	(void)state;
	r = cfsr_replay_new(2, p.prof, 250);
	assert_non_null(r);
	p.engine = r;
	pc = cfsr_pickcheck_new(&p);
	assert_non_null(pc);
	pc_step(pc, r, ev_switch(T0, 0, 0, false, 201));
	pc_step(pc, r, ev_runtime(T0 + MS, 201, MS));
	pc_step(pc, r, ev_wakeup(T0 + MS, 201, 202));
	pc_step(pc, r, ev_runtime(T0 + 1200000, 201, 200000));
	pc_step(pc, r, ev_wakeup(T0 + 1200000, 201, 203));
	pc_step(pc, r, ev_runtime(T0 + 4 * MS, 201, 2800000));
	assert_true(cfsr_replay_lag_guessed_path(r, 203));
	pc_step(pc, r, ev_switch(T0 + 4 * MS, 201, 0, true, 203));
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_LAG_GUESSED), 1);
	assert_int_equal(cfsr_replay_stats(r)->lag_inferred, 1);
	assert_int_equal(cfsr_replay_task(r, 203)->vruntime, 999999);
	assert_int_equal(cfsr_replay_task(r, 203)->deadline, 2399999);
	assert_false(cfsr_replay_lag_guessed_path(r, 203));
	for (k = 2; k <= 3; k++) {
		ts = T0 + 4 * MS * (uint64_t)k;
		pc_step(pc, r, ev_runtime(ts, order[k - 1], 4 * MS));
		pc_step(pc, r, ev_switch(ts, order[k - 1], 0, true, order[k]));
	}
	assert_totals(pc, 4, 2, 2, 2);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_EARLIEST), 2);
	assert_int_equal(cfsr_pickcheck_reason(pc, CFSR_PR_STATE_UNKNOWN), 1);
	assert_int_equal(cfsr_replay_task(r, 203)->deadline, 6399999);
	cfsr_pickcheck_free(pc);
	cfsr_replay_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agree_permille),
		cmocka_unit_test(test_delayed),
		cmocka_unit_test(test_curr),
		cmocka_unit_test(test_run_to_parity_feature),
		cmocka_unit_test(test_no_answer),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_pickcheck_top),
		cmocka_unit_test(test_pickcheck_lag_guessed),
		cmocka_unit_test(test_cfs_engine),
		cmocka_unit_test(test_cfs_engine_features),
		cmocka_unit_test(test_cfs_groups),
		cmocka_unit_test(test_cfs_groups_buddy),
		cmocka_unit_test(test_cfs_idle_buddy),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_pickcheck_buddy),
		cmocka_unit_test(test_idle_unprotect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

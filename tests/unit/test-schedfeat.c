// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/schedfeat.c: the features.h orders by release and the
 * decoding of sysctl_sched_features.  The expected bits are counted by hand
 * from the SCHED_FEAT() lines of kernel/sched/features.h of each release
 * (the order listed at the top of lib/schedfeat.c), not from the table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"
#include "schedfeat.h"

/* the bitmask sched/debug printed on the 6.18.44 machine of traces/recorded.dat */
#define MASK_6_18 99674079ull

static struct cfsr_trace_info info_for(const char *release, uint64_t mask)
{
	struct cfsr_trace_info in;

	memset(&in, 0, sizeof(in));
	in.kernel_release = release;
	in.sched_features = mask;
	in.has_sched_features = true;
	return in;
}

/*
 * 6.18.5+ features.h, default-on lines by bit: PLACE_LAG 0,
 * PLACE_DEADLINE_INITIAL 1, PLACE_REL_DEADLINE 2, RUN_TO_PARITY 3,
 * PREEMPT_SHORT 4, (NEXT_BUDDY 5 off), PICK_BUDDY 6, CACHE_HOT_BUDDY 7,
 * DELAY_DEQUEUE 8, DELAY_ZERO 9, WAKEUP_PREEMPTION 10, (HRTICK 11,
 * HRTICK_DL 12 off), NONTASK_CAPACITY 13, TTWU_QUEUE 14, SIS_UTIL 15,
 * (WARN_DOUBLE_CLOCK 16, RT_PUSH_IPI 17, RT_RUNTIME_SHARE 18, LB_MIN 19
 * off), ATTACH_AGE_LOAD 20, WA_IDLE 21, WA_WEIGHT 22, WA_BIAS 23,
 * UTIL_EST 24, (LATENCY_WARN 25 off), NI_RANDOM 26.
 */
static void test_recorded_mask_is_the_defaults(void **state)
{
	static const int on[] = {
		0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 13, 14, 15, 20, 21, 22, 23, 24, 26
	};
	uint64_t mask = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		mask |= 1ull << on[i];
	assert_int_equal(mask, MASK_6_18);
}

static void test_decode_6_18(void **state)
{
	struct cfsr_trace_info in = info_for("6.18.44-fc-v1147", MASK_6_18);
	struct cfsr_sched_feats f;

	(void)state;
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_TABLE);
	assert_int_equal(f.nr, 27);
	assert_string_equal(f.names[8], "DELAY_DEQUEUE");
	assert_string_equal(f.names[26], "NI_RANDOM");
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_ZERO"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "RUN_TO_PARITY"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "UTIL_EST"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "NEXT_BUDDY"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "RT_PUSH_IPI"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "GENTLE_FAIR_SLEEPERS"), -1);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 0);

	/* NO_DELAY_DEQUEUE: bit 8 cleared */
	in.sched_features = MASK_6_18 & ~(1ull << 8);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_ZERO"), 1);

	/* before 6.18.5 the list ends at LATENCY_WARN: bit 26 has no name */
	in = info_for("6.18.4", MASK_6_18);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(f.nr, 26);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 1ull << 26);
}

/*
 * PICK_BUDDY came after NEXT_BUDDY in 6.12.13 (stable, 2a77e4be12cb):
 * v6.12.0-12 has CACHE_HOT_BUDDY 6, DELAY_DEQUEUE 7, DELAY_ZERO 8, and
 * DOUBLE_TICK 12 after HRTICK 10, HRTICK_DL 11; 6.12.13 one later each.
 * v6.13 dropped DOUBLE_TICK: its UTIL_EST is bit 23, 6.13.2's 24.
 */
static void test_decode_6_12_6_13(void **state)
{
	struct cfsr_trace_info in = info_for("6.12.7", 1ull << 7);
	struct cfsr_sched_feats f;

	(void)state;
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "PICK_BUDDY"), -1);
	assert_string_equal(f.names[12], "DOUBLE_TICK");
	in.kernel_release = "6.12.13";
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "CACHE_HOT_BUDDY"), 1);
	assert_string_equal(f.names[8], "DELAY_DEQUEUE");
	in = info_for("6.13.1", 1ull << 23);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_state(&f, "UTIL_EST"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "DOUBLE_TICK"), -1);
	in.kernel_release = "6.13.2";
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_state(&f, "UTIL_EST"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "WA_BIAS"), 1);
}

/*
 * NI_RANDOM in stable 6.1.160 and 6.6.120 (33cf66d88306, the review patches
 * "[PATCH 6.1 617/634]" and "[PATCH 6.6 711/737]"), after LATENCY_WARN as
 * in mainline.  6.1.y up to 6.1.159, as v6.0: CFS_HEAD 0-6 (GENTLE_FAIR_SLEEPERS,
 * START_DEBIT, NEXT_BUDDY, LAST_BUDDY, CACHE_HOT_BUDDY, WAKEUP_PREEMPTION,
 * HRTICK), HRTICK_DL 7, DOUBLE_TICK 8, NONTASK_CAPACITY 9, TTWU_QUEUE 10,
 * SIS_PROP 11, SIS_UTIL 12, WARN_DOUBLE_CLOCK 13 .. WA_BIAS 20, UTIL_EST 21,
 * UTIL_EST_FASTUP 22, LATENCY_WARN 23, ALT_PERIOD 24, BASE_SLICE 25 (26
 * lines); 6.1.160 has NI_RANDOM 24, ALT_PERIOD 25, BASE_SLICE 26 (27).
 * 6.6.y up to 6.6.119: PLACE_LAG 0 .. DOUBLE_TICK 8 (9 lines), then the same
 * 9-23 as 6.1 (NONTASK_CAPACITY to LATENCY_WARN), HZ_BW 24 (25 lines);
 * 6.6.120 NI_RANDOM 24, HZ_BW 25 (26).  6.12.65 (6.12.65-rc1) appends it to
 * 6.12.13's 27 lines, after LATENCY_WARN, their last.
 */
static void test_decode_ni_random_stable(void **state)
{
	struct cfsr_trace_info in = info_for("6.1.159", (1ull << 24) | (1ull << 26));
	struct cfsr_sched_feats f;
	const char *range;
	size_t nr;

	(void)state;
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_TABLE);
	assert_int_equal(f.nr, 26);
	assert_int_equal(cfsr_sched_feat_state(&f, "ALT_PERIOD"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "BASE_SLICE"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "NI_RANDOM"), -1);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 1ull << 26);
	in.kernel_release = "6.1.160";
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_TABLE);
	assert_int_equal(f.nr, 27);
	assert_int_equal(cfsr_sched_feat_state(&f, "NI_RANDOM"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "ALT_PERIOD"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "BASE_SLICE"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "LATENCY_WARN"), 0);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 0);
	assert_string_equal(f.names[23], "LATENCY_WARN");
	assert_string_equal(f.names[24], "NI_RANDOM");
	/* later 6.1.y the same; v6.2 has the mainline order again */
	assert_non_null(cfsr_sched_feat_order("6.1.170-cloud", &nr, &range));
	assert_int_equal(nr, 27);
	assert_string_equal(range, "v6.1.160-v6.1.y");
	assert_non_null(cfsr_sched_feat_order("6.2.0", &nr, NULL));
	assert_int_equal(nr, 26);

	in = info_for("6.6.119", 1ull << 24);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(f.nr, 25);
	assert_int_equal(cfsr_sched_feat_state(&f, "HZ_BW"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "NI_RANDOM"), -1);
	in.kernel_release = "6.6.120";
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(f.nr, 26);
	assert_int_equal(cfsr_sched_feat_state(&f, "NI_RANDOM"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "HZ_BW"), 0);
	assert_string_equal(f.names[25], "HZ_BW");
	/*
	 * 6.12.65: PLACE_LAG 0 .. PICK_BUDDY 6, CACHE_HOT_BUDDY 7, DELAY_DEQUEUE
	 * 8 .. DOUBLE_TICK 13, NONTASK_CAPACITY 14 .. UTIL_EST 25, LATENCY_WARN
	 * 26, then NI_RANDOM 27
	 */
	in = info_for("6.12.64", (1ull << 27) | (1ull << 8));
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(f.nr, 27);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "NI_RANDOM"), -1);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 1ull << 27);
	in.kernel_release = "6.12.65";
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(f.nr, 28);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "NI_RANDOM"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "LATENCY_WARN"), 0);
	assert_string_equal(f.names[26], "LATENCY_WARN");
	assert_string_equal(f.names[27], "NI_RANDOM");
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 0);
	assert_non_null(cfsr_sched_feat_order("6.12.70", &nr, &range));
	assert_string_equal(range, "v6.12.65-v6.12.y");
	/* a 6.6.120 kernel's HZ_BW bit is unnamed under the older order */
	in = info_for("6.6.119", 1ull << 25);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 1ull << 25);
	assert_non_null(cfsr_sched_feat_order("6.6.130", &nr, &range));
	assert_string_equal(range, "v6.6.120-v6.6.y");
	assert_non_null(cfsr_sched_feat_order("6.7.0", &nr, NULL));
	assert_int_equal(nr, 24);
}

/*
 * UTIL_EST by release: v4.17-v5.2 bit 21 of 22 (LB_BIAS after
 * DOUBLE_TICK, UTIL_EST last); v5.3-v5.4 bit 20 of 21 (LB_BIAS gone);
 * v5.5-v5.11 bit 20 (GENTLE_FAIR_SLEEPERS,
 * START_DEBIT, NEXT_BUDDY, LAST_BUDDY, CACHE_HOT_BUDDY, WAKEUP_PREEMPTION,
 * HRTICK, DOUBLE_TICK, NONTASK_CAPACITY, TTWU_QUEUE, SIS_AVG_CPU, SIS_PROP,
 * WARN_DOUBLE_CLOCK, RT_PUSH_IPI, RT_RUNTIME_SHARE, LB_MIN, ATTACH_AGE_LOAD,
 * WA_IDLE, WA_WEIGHT, WA_BIAS), 22 features with UTIL_EST_FASTUP (24 in
 * stable 5.10.36+, ALT_PERIOD and BASE_SLICE appended); v5.12 20
 * (HRTICK_DL in, SIS_AVG_CPU out); v5.13 20 of 25 (LATENCY_WARN,
 * ALT_PERIOD, BASE_SLICE after UTIL_EST_FASTUP); v6.0 21 (SIS_UTIL); v6.6 21 (13 lines PLACE_LAG, PLACE_DEADLINE_INITIAL,
 * RUN_TO_PARITY, NEXT_BUDDY, CACHE_HOT_BUDDY, WAKEUP_PREEMPTION, HRTICK,
 * HRTICK_DL, DOUBLE_TICK, NONTASK_CAPACITY, TTWU_QUEUE, SIS_PROP,
 * SIS_UTIL, then the 9 from WARN_DOUBLE_CLOCK); v6.7-v6.11 20 (no SIS_PROP).
 */
static void test_util_est_bit(void **state)
{
	static const struct {
		const char *release;
		int bit;
		size_t nr;
	} cases[] = {
		{ "4.17.0", 21, 22 },  { "4.19.316", 21, 22 }, { "5.2.21", 21, 22 },
		{ "5.3", 20, 21 },     { "5.4.290", 20, 21 },  { "5.5", 20, 22 },
		{ "5.6.19", 20, 22 },  { "5.7.0", 20, 22 },    { "5.10.35", 20, 22 },
		{ "5.10.36", 20, 24 }, { "5.10.200", 20, 24 }, { "5.11", 20, 22 },
		{ "5.12", 20, 22 },    { "5.13", 20, 25 },     { "5.15.90", 20, 25 },
		{ "6.0", 21, 26 },     { "6.5.13", 21, 26 },   { "6.6.30", 21, 25 },
		{ "6.7", 20, 24 },     { "6.8", 20, 23 },      { "6.11", 20, 22 },
	};
	struct cfsr_sched_feats f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cfsr_trace_info in = info_for(cases[i].release, 1ull << cases[i].bit);

		assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_TABLE);
		assert_int_equal(f.nr, cases[i].nr);
		assert_int_equal(cfsr_sched_feat_state(&f, "UTIL_EST"), 1);
		assert_int_equal(cfsr_sched_feat_state(&f, "WA_BIAS"), 0);
	}
}

/*
 * Outside v4.17-v6.18, or without a bitmask, the features are unknown
 * (4.16.18: no whole features.h of v4.16 or before was read).
 */
static void test_unknown(void **state)
{
	struct cfsr_trace_info in = info_for("4.16.18", 1);
	struct cfsr_sched_feats f;

	(void)state;
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_UNKNOWN);
	assert_non_null(f.why);
	assert_int_equal(cfsr_sched_feat_state(&f, "UTIL_EST"), -1);
	in.kernel_release = "6.19";
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_UNKNOWN);
	in.kernel_release = NULL;
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_UNKNOWN);
	in = info_for("6.18.2", 1);
	in.has_sched_features = false;
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_UNKNOWN);
}

/* Recorded names win over the table, whatever the release. */
static void test_recorded_names(void **state)
{
	static const char *const names[] = { "UTIL_EST", "DELAY_DEQUEUE", "SYNC_WAKEE_STAYS" };
	struct cfsr_trace_info in = info_for("4.14.336", 0x1);
	struct cfsr_sched_feats f;

	(void)state;
	in.sched_feat_names = names;
	in.nr_sched_feat_names = 3;
	in.sched_feat_names_source = "test";
	assert_int_equal(cfsr_sched_feats_decode(&f, &in), CFSR_FEAT_RECORDED);
	assert_string_equal(f.order, "test");
	assert_int_equal(cfsr_sched_feat_state(&f, "UTIL_EST"), 1);
	assert_int_equal(cfsr_sched_feat_state(&f, "DELAY_DEQUEUE"), 0);
	assert_int_equal(cfsr_sched_feat_state(&f, "PLACE_LAG"), -1);
	in.sched_features = 0x9;
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feat_unnamed(&f), 0x8);
}

/* The engine's profile takes the trace's features; the others keep the defaults. */
static void test_apply(void **state)
{
	const struct cfsr_profile *base = cfsr_profile_for("6.18.44");
	struct cfsr_trace_info in = info_for("6.18.44", MASK_6_18);
	struct cfsr_sched_feats f;
	struct cfsr_profile p;

	(void)state;
	assert_true(base->delay_dequeue && base->delay_zero && base->run_to_parity &&
		    base->place_lag && base->place_deadline_initial && base->place_rel_deadline &&
		    base->util_est);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feats_apply(&p, base, &f), 0);
	assert_memory_equal(&p, base, sizeof(p));
	/* NO_DELAY_DEQUEUE, NO_RUN_TO_PARITY, NO_UTIL_EST */
	in.sched_features = MASK_6_18 & ~((1ull << 8) | (1ull << 3) | (1ull << 24));
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feats_apply(&p, base, &f), 3);
	assert_false(p.delay_dequeue || p.run_to_parity || p.util_est);
	assert_true(p.delay_zero && p.place_lag && p.util_est_late == base->util_est_late);
	assert_true(base->delay_dequeue);
	/* a CFS release has no EEVDF feature to take */
	base = cfsr_profile_for("6.1.20");
	in = info_for("6.1.20", 0);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feats_apply(&p, base, &f), 2);
	assert_false(p.util_est || p.util_est_fastup || p.delay_dequeue || p.place_lag);
}

/*
 * The CFS rules take a CFS kernel's own features.  In every order of
 * v5.7-v6.5 the file begins GENTLE_FAIR_SLEEPERS, START_DEBIT, NEXT_BUDDY,
 * LAST_BUDDY, CACHE_HOT_BUDDY, WAKEUP_PREEMPTION (bits 0-5): 0x24 has
 * NEXT_BUDDY and WAKEUP_PREEMPTION on, the other three the rules read off,
 * so four differ from the defaults (gentle, START_DEBIT, LAST_BUDDY on,
 * NEXT_BUDDY off).  A release with no known order changes nothing.
 */
static void test_apply_cfs(void **state)
{
	static const char *const releases[] = { "4.17.0", "4.19.316", "5.4.290", "5.6.19", "5.7.0",
						"5.12.1", "5.15.100", "6.1.20",	 "6.5.13" };
	struct cfsr_trace_info in;
	struct cfsr_cfs_tunables tu;
	struct cfsr_sched_feats f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		in = info_for(releases[i], 0x24);
		cfsr_cfs_tunables_init(&tu, cfsr_profile_for(releases[i]), 2);
		assert_true(tu.gentle && tu.start_debit && tu.last_buddy && tu.wakeup_preemption);
		assert_false(tu.next_buddy);
		cfsr_sched_feats_decode(&f, &in);
		assert_int_equal(cfsr_sched_feats_apply_cfs(&tu, &f), 4);
		assert_false(tu.gentle || tu.start_debit || tu.last_buddy);
		assert_true(tu.next_buddy && tu.wakeup_preemption);
		/* no change the second time */
		assert_int_equal(cfsr_sched_feats_apply_cfs(&tu, &f), 0);
	}
	in = info_for("4.14.336", 0x24);
	cfsr_cfs_tunables_init(&tu, cfsr_profile_for("4.14.336"), 2);
	cfsr_sched_feats_decode(&f, &in);
	assert_int_equal(cfsr_sched_feats_apply_cfs(&tu, &f), 0);
	assert_true(tu.gentle && tu.start_debit && tu.last_buddy && !tu.next_buddy);
}

/*
 * Every release whose features the engine honours (v5.7+, the runnable_avg
 * arithmetic) has an order, with no name twice.
 */
static void test_orders(void **state)
{
	size_t i, j, k, nr;

	(void)state;
	for (i = 0; i < cfsr_profile_count(); i++) {
		const struct cfsr_profile *p = cfsr_profile_at(i);
		const int ends[2] = { p->first, p->last };
		size_t e;

		if (!p->implemented || p->arith != CFSR_ARITH_RUNNABLE)
			continue;
		for (e = 0; e < 2; e++) {
			char rel[32];
			const char *const *names;

			snprintf(rel, sizeof(rel), "%d.%d.%d", ends[e] / 1000000,
				 ends[e] / 1000 % 1000, ends[e] % 1000);
			names = cfsr_sched_feat_order(rel, &nr, NULL);
			assert_non_null(names);
			for (j = 0; j < nr; j++)
				for (k = j + 1; k < nr; k++)
					assert_string_not_equal(names[j], names[k]);
			/* the EEVDF releases start with PLACE_LAG */
			assert_int_equal(!strcmp(names[0], "PLACE_LAG"), p->eevdf);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_mask_is_the_defaults),
		cmocka_unit_test(test_decode_6_18),
		cmocka_unit_test(test_decode_ni_random_stable),
		cmocka_unit_test(test_decode_6_12_6_13),
		cmocka_unit_test(test_util_est_bit),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_recorded_names),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_cfs),
		cmocka_unit_test(test_orders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

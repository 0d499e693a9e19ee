// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/profile.c: release parsing and which profile covers
 * which kernel (boundaries from MODEL.md section 6 and the commits named
 * in lib/pelt.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>

#include <string.h>

#include "error.h"
#include "profile.h"

static char last_msg[512];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

static void test_version(void **state)
{
	(void)state;
	/* major * 1000000 + minor * 1000 + sublevel */
	assert_int_equal(cfsr_profile_version("6.18.44-fc-v1147"), 6018044);
	assert_int_equal(cfsr_profile_version("6.12"), 6012000);
	assert_int_equal(cfsr_profile_version("5.15.0-91-generic"), 5015000);
	assert_int_equal(cfsr_profile_version("6.6.0-rc3+"), 6006000);
	/* the long stable series keep their sublevels past 99 */
	assert_int_equal(cfsr_profile_version("4.19.316"), 4019316);
	assert_int_equal(cfsr_profile_version("6.1.160"), 6001160);
	assert_true(cfsr_profile_version("5.10.113") > cfsr_profile_version("5.10.99"));
	assert_true(cfsr_profile_version("5.10.999") < cfsr_profile_version("5.11"));
	/* capped at 999, still below the next minor */
	assert_int_equal(cfsr_profile_version("5.10.1234"), 5010999);
	assert_int_equal(CFSR_KVER(6, 1, 160), 6001160);
	assert_int_equal(cfsr_profile_version("100.1"), -1);
	assert_int_equal(cfsr_profile_version("6.100"), -1);
	assert_int_equal(cfsr_profile_version("linux"), -1);
	assert_int_equal(cfsr_profile_version("6"), -1);
	assert_int_equal(cfsr_profile_version(NULL), -1);
}

static void test_profiles(void **state)
{
	const struct cfsr_profile *p;

	(void)state;
	p = cfsr_profile_for("6.18.44-fc-v1147");
	assert_non_null(p);
	assert_true(p->implemented && p->delay_dequeue && p->eevdf);
	assert_ptr_equal(p->pelt, &cfsr_pelt_params_modern);
	/* v6.16 dropped util_est's capacity check */
	assert_false(p->pelt->util_est_capacity_check);
	p = cfsr_profile_for("6.12.7");
	assert_true(p->implemented && p->delay_dequeue);
	assert_true(p->pelt->util_est_capacity_check);
	p = cfsr_profile_for("6.11.3");
	assert_true(p->eevdf && !p->delay_dequeue && p->implemented);
	/* dequeue_task_fair() of v6.11 samples util_est after dequeue_entity() */
	assert_true(p->util_est_late);
	assert_false(cfsr_profile_for("6.12.0")->util_est_late);
	/* sysctl_sched_base_slice 0.75 ms until 2ae891b82695 (v6.15) made it 0.70 ms */
	assert_int_equal(p->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.14.8")->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.15.0")->base_slice_ns, 700000);
	assert_true(cfsr_profile_for("6.15.0")->delay_dequeue);
	assert_int_equal(cfsr_profile_for("6.18")->base_slice_ns, 700000);
	p = cfsr_profile_for("6.6.30");
	assert_true(p->eevdf && !p->delay_dequeue && p->implemented);
	assert_string_equal(p->name, "v6.6.30-v6.6.92 EEVDF");
	assert_string_equal(cfsr_profile_for("6.7.1")->name, "v6.7 EEVDF");
	p = cfsr_profile_for("6.5.13");
	assert_true(!p->eevdf && p->implemented && p->base_slice_ns == 0 && !p->place_lag);
	p = cfsr_profile_for("5.17.0");
	assert_true(!p->eevdf && p->implemented);
	p = cfsr_profile_for("5.15.0");
	assert_true(!p->eevdf && p->implemented);
	p = cfsr_profile_for("5.6.19");
	assert_true(!p->eevdf && p->implemented);
	p = cfsr_profile_for("3.19.0");
	assert_true(!p->eevdf && p->implemented);
	assert_null(cfsr_profile_for("2.6.32"));
	assert_null(cfsr_profile_for("7.0"));
}

/*
 * The release after @v in CFSR_KVER() terms: the next sublevel, or after a
 * series' last (sublevel 999) the next minor, after minor 99 the next major.
 */
static int kver_next(int v)
{
	if (v % 1000 < CFSR_KVER_SUB_MAX)
		return v + 1;
	if (v / 1000 % 1000 < 99)
		return CFSR_KVER(v / 1000000, v / 1000 % 1000 + 1, 0);
	return CFSR_KVER(v / 1000000 + 1, 0, 0);
}

/* The table covers v3.8-v6.18 without gaps or overlaps, oldest first. */
static void test_table_contiguous(void **state)
{
	size_t i, n = cfsr_profile_count();

	(void)state;
	assert_true(n > 10);
	assert_int_equal(kver_next(CFSR_KVER(5, 15, 35)), CFSR_KVER(5, 15, 36));
	assert_int_equal(kver_next(CFSR_KVER(4, 0, 999)), CFSR_KVER(4, 1, 0));
	assert_int_equal(kver_next(CFSR_KVER(5, 99, 999)), CFSR_KVER(6, 0, 0));
	assert_int_equal(cfsr_profile_at(0)->first, CFSR_KVER(3, 8, 0));
	assert_int_equal(cfsr_profile_at(n - 1)->last, CFSR_KVER(6, 18, 999));
	assert_null(cfsr_profile_at(n));
	for (i = 0; i < n; i++) {
		const struct cfsr_profile *p = cfsr_profile_at(i);

		assert_true(p->first <= p->last);
		if (i)
			assert_int_equal(p->first, kver_next(cfsr_profile_at(i - 1)->last));
		/* Each profile names its arithmetic, and only that one. */
		assert_true((p->arith == CFSR_ARITH_LEGACY) == (p->legacy != NULL));
		assert_true((p->arith == CFSR_ARITH_V4) == (p->v4 != NULL));
		assert_true((p->arith == CFSR_ARITH_RUNNABLE) == (p->pelt != NULL));
		assert_non_null(p->traits);
		/* The engine replays every generation (v3.8-v5.6 through their operations). */
		assert_true(p->implemented);
		/* migrate_se_pelt_lag(): e2f3e35f1f5a, merged for v6.0 */
		assert_true(p->migrate_pelt_lag == (p->first >= CFSR_KVER(6, 0, 0)));
		/* the detach inside dequeue_entity(): e1f078f50478, merged for v6.1 */
		assert_true(p->detach_in_dequeue == (p->first >= CFSR_KVER(6, 1, 0)));
		assert_true(p->util_est_late == (p->pelt && p->first < CFSR_KVER(6, 12, 0)));
		assert_true(p->eevdf == (p->first >= CFSR_KVER(6, 6, 0)));
		assert_true(p->delay_dequeue == (p->first >= CFSR_KVER(6, 12, 0)));
	}
}

/*
 * The boundaries of the version history (MODEL.md section 6 and
 * docs/PROFILES.md): each release gets the switches of its generation.
 */
static void test_boundaries(void **state)
{
	(void)state;
	assert_false(cfsr_profile_for("3.12.74")->legacy->init_slice);
	assert_true(cfsr_profile_for("3.13.0")->legacy->init_slice);
	assert_false(cfsr_profile_for("4.0.9")->legacy->track_running);
	assert_true(cfsr_profile_for("4.1.52")->legacy->track_running);
	assert_int_equal(cfsr_profile_for("4.2.8")->arith, CFSR_ARITH_LEGACY);
	assert_int_equal(cfsr_profile_for("4.3.0")->arith, CFSR_ARITH_V4);
	assert_false(cfsr_profile_for("4.6.7")->v4->table_contrib);
	assert_true(cfsr_profile_for("4.7.10")->v4->table_contrib);
	assert_false(cfsr_profile_for("4.11.12")->v4->segments);
	assert_true(cfsr_profile_for("4.12.14")->v4->segments);
	assert_false(cfsr_profile_for("4.12.14")->v4->divider_period_contrib);
	assert_true(cfsr_profile_for("4.13.16")->v4->divider_period_contrib);
	assert_false(cfsr_profile_for("4.14.336")->v4->unweighted_se);
	assert_true(cfsr_profile_for("4.19.316")->v4->unweighted_se);
	assert_int_equal(cfsr_profile_for("5.6.19")->arith, CFSR_ARITH_V4);
	assert_int_equal(cfsr_profile_for("5.7.0")->arith, CFSR_ARITH_RUNNABLE);
	assert_false(cfsr_profile_for("5.16.20")->pelt->sum_lower_bounds);
	/* e21cf43406a1: v5.8-rc3, stable 5.7.7 */
	assert_true(cfsr_profile_for("5.7.6")->pelt->post_init_runnable_cpu_scale);
	assert_false(cfsr_profile_for("5.7.7")->pelt->post_init_runnable_cpu_scale);
	assert_false(cfsr_profile_for("5.8.0")->pelt->post_init_runnable_cpu_scale);
	/* 95d685935a2e: v5.8 */
	assert_true(cfsr_profile_for("5.7.19")->pelt->prop_load_avg_max);
	assert_false(cfsr_profile_for("5.8.18")->pelt->prop_load_avg_max);
	/* 68d7a190682a, b89997aa88f0: v5.13 */
	assert_int_equal(cfsr_profile_for("5.12.19")->pelt->util_est_repr, CFSR_UTIL_EST_PAIR_LSB);
	assert_int_equal(cfsr_profile_for("5.13.0")->pelt->util_est_repr, CFSR_UTIL_EST_PAIR);
	/* fcf6631f3736, 7c7ad626d9a0: v5.13; 1c35b07e6d39, ceb6ba45dc80, 83c5e9d573e1: v5.14 */
	assert_false(cfsr_profile_for("5.12.19")->pelt->detach_resync);
	assert_true(cfsr_profile_for("5.13.19")->pelt->detach_resync);
	assert_int_equal(cfsr_profile_for("5.12.19")->pelt->prop_load, CFSR_PROP_LOAD_ADD);
	assert_int_equal(cfsr_profile_for("5.13.19")->pelt->prop_load, CFSR_PROP_LOAD_RESYNC);
	assert_int_equal(cfsr_profile_for("5.14.0")->pelt->prop_load, CFSR_PROP_LOAD_RESYNC_EARLY);
	assert_false(cfsr_profile_for("5.13.19")->pelt->removed_resync);
	assert_true(cfsr_profile_for("5.14.21")->pelt->removed_resync);
	assert_true(cfsr_profile_for("5.16.20")->pelt->dequeue_load_resync);
	assert_false(cfsr_profile_for("5.17.0")->pelt->dequeue_load_resync);
	assert_int_equal(cfsr_profile_for("5.17.0")->pelt->prop_load, CFSR_PROP_LOAD_BOUND);
	assert_true(cfsr_profile_for("5.17.15")->pelt->sum_lower_bounds);
	assert_false(cfsr_profile_for("5.17.4")->pelt->attach_load_sum_min1);
	assert_true(cfsr_profile_for("5.18.0")->pelt->attach_load_sum_min1);
	assert_false(cfsr_profile_for("6.1.100")->pelt->util_est_runnable_check);
	assert_true(cfsr_profile_for("6.2.16")->pelt->util_est_runnable_check);
	assert_false(cfsr_profile_for("6.5.13")->eevdf);
	assert_true(cfsr_profile_for("6.6.0")->eevdf);
	assert_int_equal(cfsr_profile_for("6.7.12")->pelt->util_est_repr, CFSR_UTIL_EST_PAIR);
	assert_false(cfsr_profile_for("5.19.17")->migrate_pelt_lag);
	assert_true(cfsr_profile_for("6.0.0")->migrate_pelt_lag);
	assert_string_equal(cfsr_profile_for("5.19.17")->name, "v5.18-v5.19 CFS, runnable_avg");
	assert_string_equal(cfsr_profile_for("6.0.19")->name, "v6.0 CFS, runnable_avg");
	assert_string_equal(cfsr_profile_for("6.1.100")->name, "v6.1 CFS, runnable_avg");
	assert_false(cfsr_profile_for("6.0.19")->detach_in_dequeue);
	assert_true(cfsr_profile_for("6.1.0")->detach_in_dequeue);
	assert_int_equal(cfsr_profile_for("6.8.0")->pelt->util_est_repr, CFSR_UTIL_EST_SINGLE);
	assert_false(cfsr_profile_for("6.9.12")->pelt->post_init_se_weight);
	assert_true(cfsr_profile_for("6.10.14")->pelt->post_init_se_weight);
	assert_true(cfsr_profile_for("6.15.1")->pelt->util_est_capacity_check);
	assert_false(cfsr_profile_for("6.16.0")->pelt->util_est_capacity_check);
}

/*
 * Stable backports keyed by sublevel (docs/PROFILES.md, "Stable
 * backports"): the release just before the first one carrying a change
 * gets the mainline arithmetic of its series, that release and the later
 * ones the backport.
 */
static void test_stable_sublevels(void **state)
{
	const struct cfsr_pelt_params *p;

	(void)state;
	/* 26cf52229efc: 4.9.220, 4.14.177, 4.19.116, 5.4.33, 5.5.18, 5.6.5 */
	assert_ptr_equal(cfsr_profile_for("4.9.219")->v4, &cfsr_v4_params_v4_7);
	assert_ptr_equal(cfsr_profile_for("4.9.220")->v4, &cfsr_v4_params_v4_9_220);
	assert_ptr_equal(cfsr_profile_for("4.14.176")->v4, &cfsr_v4_params_v4_13);
	assert_ptr_equal(cfsr_profile_for("4.14.177")->v4, &cfsr_v4_params_v4_14_177);
	assert_ptr_equal(cfsr_profile_for("4.19.115")->v4, &cfsr_v4_params_v4_15);
	assert_ptr_equal(cfsr_profile_for("4.19.116")->v4, &cfsr_v4_params_v4_19_116);
	assert_ptr_equal(cfsr_profile_for("4.19.325")->v4, &cfsr_v4_params_v4_19_116);
	assert_ptr_equal(cfsr_profile_for("4.20.0")->v4, &cfsr_v4_params_v4_15);
	assert_ptr_equal(cfsr_profile_for("5.4.32")->v4, &cfsr_v4_params_v4_15);
	assert_ptr_equal(cfsr_profile_for("5.4.33")->v4, &cfsr_v4_params_v4_19_116);
	assert_ptr_equal(cfsr_profile_for("5.5.17")->v4, &cfsr_v4_params_v4_15);
	assert_ptr_equal(cfsr_profile_for("5.5.18")->v4, &cfsr_v4_params_v4_19_116);
	assert_ptr_equal(cfsr_profile_for("5.6.4")->v4, &cfsr_v4_params_v4_15);
	assert_ptr_equal(cfsr_profile_for("5.6.5")->v4, &cfsr_v4_params_v4_19_116);
	assert_true(cfsr_profile_clock_pelt(cfsr_profile_for("5.4.33")));
	assert_false(cfsr_profile_clock_pelt(cfsr_profile_for("4.19.116")));
	/* the floor is all they change */
	assert_true(cfsr_v4_params_v4_19_116.unweighted_se && cfsr_v4_params_v4_19_116.propagate);
	assert_false(cfsr_v4_params_v4_9_220.propagate || cfsr_v4_params_v4_9_220.segments);
	assert_true(cfsr_v4_params_v4_14_177.divider_period_contrib &&
		    !cfsr_v4_params_v4_14_177.unweighted_se);
	assert_false(cfsr_v4_params_v4_15.scale_load_down_floor ||
		     cfsr_v4_params_v4_13.scale_load_down_floor ||
		     cfsr_v4_params_v4_7.scale_load_down_floor);
	/* 98b0d890220d: Linux 5.15.19 and 5.16.5 */
	assert_ptr_equal(cfsr_profile_for("5.15.18")->pelt, &cfsr_pelt_params_v5_14);
	p = cfsr_profile_for("5.15.19")->pelt;
	assert_true(p->removed_resync && p->removed_util_bound && !p->sum_lower_bounds);
	assert_false(p->attach_load_sum_min1);
	assert_ptr_equal(cfsr_profile_for("5.16.4")->pelt, &cfsr_pelt_params_v5_14);
	assert_ptr_equal(cfsr_profile_for("5.16.5")->pelt, p);
	assert_ptr_equal(cfsr_profile_for("5.16.20")->pelt, p);
	/* 40f5aa4c5eae: 5.15.36-rc1 */
	assert_ptr_equal(cfsr_profile_for("5.15.35")->pelt, p);
	p = cfsr_profile_for("5.15.36")->pelt;
	assert_true(p->attach_load_sum_min1 && p->removed_util_bound && p->removed_resync);
	assert_true(p->dequeue_load_resync && p->detach_resync && !p->sum_lower_bounds);
	assert_ptr_equal(cfsr_profile_for("5.15.199-x")->pelt, p);
	/*
	 * 5.10.y, by its review series: b89997aa88f0 5.10.36, 68d7a190682a and
	 * 7c7ad626d9a0 5.10.44, fcf6631f3736 5.10.46, 1c35b07e6d39 5.10.51,
	 * 98b0d890220d 5.10.96, 40f5aa4c5eae 5.10.113
	 */
	assert_ptr_equal(cfsr_profile_for("5.10.35")->pelt, &cfsr_pelt_params_v5_8);
	assert_false(cfsr_profile_for("5.10.35")->pelt->util_est_lsb_filter);
	p = cfsr_profile_for("5.10.36")->pelt;
	assert_true(p->util_est_lsb_filter && p->util_est_repr == CFSR_UTIL_EST_PAIR_LSB);
	assert_int_equal(p->prop_load, CFSR_PROP_LOAD_ADD);
	assert_ptr_equal(cfsr_profile_for("5.10.43")->pelt, p);
	p = cfsr_profile_for("5.10.44")->pelt;
	assert_true(p->util_est_repr == CFSR_UTIL_EST_PAIR &&
		    p->prop_load == CFSR_PROP_LOAD_RESYNC);
	assert_false(p->detach_resync || p->removed_resync);
	assert_ptr_equal(cfsr_profile_for("5.10.45")->pelt, p);
	assert_ptr_equal(cfsr_profile_for("5.10.46")->pelt, &cfsr_pelt_params_v5_13);
	assert_ptr_equal(cfsr_profile_for("5.10.50")->pelt, &cfsr_pelt_params_v5_13);
	p = cfsr_profile_for("5.10.51")->pelt;
	assert_true(p->detach_resync && p->removed_resync && !p->removed_util_bound);
	assert_false(p->dequeue_load_resync || p->prop_load == CFSR_PROP_LOAD_RESYNC_EARLY);
	assert_ptr_equal(cfsr_profile_for("5.10.95")->pelt, p);
	p = cfsr_profile_for("5.10.96")->pelt;
	assert_true(p->removed_util_bound && p->removed_resync && !p->attach_load_sum_min1);
	assert_ptr_equal(cfsr_profile_for("5.10.112")->pelt, p);
	p = cfsr_profile_for("5.10.113")->pelt;
	assert_true(p->attach_load_sum_min1 && p->removed_util_bound && !p->sum_lower_bounds);
	assert_int_equal(p->util_est_repr, CFSR_UTIL_EST_PAIR);
	assert_int_equal(p->prop_load, CFSR_PROP_LOAD_RESYNC);
	assert_false(p->dequeue_load_resync);
	assert_false(cfsr_pelt_params_v5_8.attach_load_sum_min1);
	assert_ptr_equal(cfsr_profile_for("5.10.240-cip")->pelt, p);
	assert_ptr_equal(cfsr_profile_for("5.11.0")->pelt, &cfsr_pelt_params_v5_8);
	assert_string_equal(cfsr_profile_for("5.10.113")->name,
			    "v5.10.113-v5.10.y CFS, runnable_avg");
	/* 40f5aa4c5eae: 5.17.5-rc1; 5.17.5+ is v5.18's arithmetic */
	assert_false(cfsr_profile_for("5.17.4")->pelt->attach_load_sum_min1);
	assert_ptr_equal(cfsr_profile_for("5.17.5")->pelt, &cfsr_pelt_params_v5_18);
	assert_true(cfsr_profile_for("5.17.15")->pelt->sum_lower_bounds);
	/* mainline v5.14 and v5.17 are unchanged */
	assert_false(cfsr_profile_for("5.14.21")->pelt->removed_util_bound);
	assert_false(cfsr_profile_for("5.17.0")->pelt->removed_util_bound);
	/* eab03c23c2a1: between "Linux 6.6.3" and "Linux 6.6.4" in 6.6.y */
	assert_string_equal(cfsr_profile_for("6.6.3")->name, "v6.6.0-v6.6.3 EEVDF");
	assert_string_equal(cfsr_profile_for("6.6.4")->name, "v6.6.4-v6.6.29 EEVDF");
	assert_int_equal(cfsr_profile_for("6.6.4")->last, CFSR_KVER(6, 6, 29));
	/* afae8002b4fd, 1560d1f6eb6b (with 11b1b8bc2b98): 6.6.30-rc1 and 6.8.9-rc1 */
	assert_string_equal(cfsr_profile_for("6.6.29")->name, "v6.6.4-v6.6.29 EEVDF");
	assert_string_equal(cfsr_profile_for("6.6.30")->name, "v6.6.30-v6.6.92 EEVDF");
	assert_int_equal(cfsr_profile_for("6.6.92")->last, CFSR_KVER(6, 6, 92));
	assert_ptr_equal(cfsr_profile_for("6.6.30")->pelt, cfsr_profile_for("6.6.29")->pelt);
	assert_int_equal(cfsr_profile_for("6.6.30")->base_slice_ns, 750000);
	assert_string_equal(cfsr_profile_for("6.8.8")->name, "v6.8.0-v6.8.8 EEVDF");
	assert_string_equal(cfsr_profile_for("6.8.9")->name, "v6.8.9-v6.9 EEVDF");
	assert_ptr_equal(cfsr_profile_for("6.8.9")->pelt, cfsr_profile_for("6.8.8")->pelt);
	assert_string_equal(cfsr_profile_for("6.9.12")->name, "v6.8.9-v6.9 EEVDF");
	assert_ptr_equal(cfsr_profile_for("6.6.4")->pelt, cfsr_profile_for("6.6.3")->pelt);
	assert_int_equal(cfsr_profile_for("6.6.4")->base_slice_ns, 750000);
	assert_true(cfsr_profile_for("6.6.3")->eevdf && cfsr_profile_for("6.6.4")->eevdf);
	/* 2ae891b82695: 6.6.93, 6.12.31, 6.14.9; 6.13.y ended before it */
	assert_int_equal(cfsr_profile_for("6.6.92")->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.6.93")->base_slice_ns, 700000);
	assert_int_equal(cfsr_profile_for("6.12.30")->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.12.31")->base_slice_ns, 700000);
	/* 76f2f783294d ("More PELT vs DELAYED_DEQUEUE"): 6.12.7-rc1 */
	assert_true(cfsr_profile_for("6.12.0")->runnable_delayed);
	assert_true(cfsr_profile_for("6.12.6")->runnable_delayed);
	assert_false(cfsr_profile_for("6.12.7")->runnable_delayed);
	assert_false(cfsr_profile_for("6.12.31")->runnable_delayed);
	assert_false(cfsr_profile_for("6.13.0")->runnable_delayed);
	assert_false(cfsr_profile_for("6.11.0")->runnable_delayed);
	assert_ptr_equal(cfsr_profile_for("6.12.7")->pelt, cfsr_profile_for("6.12.6")->pelt);
	assert_int_equal(cfsr_profile_for("6.12.7")->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.13.12")->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.14.8")->base_slice_ns, 750000);
	assert_int_equal(cfsr_profile_for("6.14.9")->base_slice_ns, 700000);
	/* the split changes nothing else of those series */
	assert_true(cfsr_profile_for("6.6.93")->eevdf &&
		    !cfsr_profile_for("6.6.93")->delay_dequeue);
	assert_ptr_equal(cfsr_profile_for("6.12.31")->pelt, cfsr_profile_for("6.12.30")->pelt);
	assert_true(cfsr_profile_for("6.12.31")->delay_dequeue);
	assert_false(cfsr_profile_for("6.14.9")->pick_buddy);
}

/* Every profile is replayed, the older ones too, each under its own name. */
static void test_choose(void **state)
{
	const struct cfsr_profile *p;
	size_t i;

	(void)state;
	cfsr_error_set_hook(capture, NULL);
	last_msg[0] = 0;
	for (i = 0; i < cfsr_profile_count(); i++)
		assert_true(cfsr_profile_at(i)->implemented);
	p = cfsr_profile_choose("6.18.1", "3.19", "t.dat");
	assert_non_null(p);
	assert_string_equal(p->name, "v3.13-v4.0 legacy PELT");
	p = cfsr_profile_choose("6.18.1", "5.6", "t.dat");
	assert_non_null(p);
	assert_string_equal(p->name, "v5.6.0-v5.6.4 runnable_load_avg, clock_pelt");
	/* the same arithmetic on either side of v5.1 (23127296889f), another PELT clock */
	assert_true(p->v4 == cfsr_profile_for("5.0.21")->v4);
	assert_true(cfsr_profile_clock_pelt(p));
	assert_false(cfsr_profile_clock_pelt(cfsr_profile_for("5.0.21")));
	assert_false(cfsr_profile_clock_pelt(cfsr_profile_for("3.18")));
	assert_true(cfsr_profile_clock_pelt(cfsr_profile_for("5.7")));
	assert_string_equal(last_msg, "");
	p = cfsr_profile_choose("6.18.1", "5.10", "t.dat");
	assert_non_null(p);
	assert_string_equal(p->name, "v5.8-v5.10.35 CFS, runnable_avg");
	p = cfsr_profile_choose("6.18.1", "6.7", "t.dat");
	assert_non_null(p);
	assert_string_equal(p->name, "v6.7 EEVDF");
	p = cfsr_profile_choose("6.18.1", "5.17", "t.dat");
	assert_non_null(p);
	assert_string_equal(p->name, "v5.17.0-v5.17.4 CFS, runnable_avg");
	p = cfsr_profile_choose("6.18.1", "6.9", "t.dat");
	assert_non_null(p);
	assert_string_equal(p->name, "v6.8.9-v6.9 EEVDF");
	assert_null(cfsr_profile_choose(NULL, NULL, "t.dat"));
	assert_non_null(strstr(last_msg, "--kernel"));
	assert_null(cfsr_profile_choose("2.6.32", NULL, "t.dat"));
	assert_non_null(strstr(last_msg, "no model"));
	cfsr_error_set_hook(NULL, NULL);

	p = cfsr_profile_choose("6.18.44-fc", NULL, "t.dat");
	assert_non_null(p);
	assert_false(cfsr_profile_what_if("6.18.44-fc", p));
	p = cfsr_profile_choose("6.18.44-fc", "6.12", "t.dat");
	assert_non_null(p);
	assert_true(cfsr_profile_what_if("6.18.44-fc", p));
	assert_false(cfsr_profile_what_if(NULL, p));
	/* 6.12 is 6.12.0 here: 76f2f783294d (6.12.7) splits the series there */
	assert_false(cfsr_profile_what_if("6.12.6", p));
	assert_true(cfsr_profile_what_if("6.12.7", p));
	assert_true(cfsr_profile_what_if("6.12.30", p));
	/* 6.12 and 6.13 no longer share a profile: the base slice of 6.12.31+ splits it */
	assert_true(cfsr_profile_what_if("6.13.2", p));
}

/*
 * --kernel MAJOR.MINOR: the trace's own release when of that series, else
 * MAJOR.MINOR.0; a value with a sublevel is taken as it is.
 */
static void test_series_only(void **state)
{
	char buf[96];
	bool own;

	(void)state;
	assert_true(cfsr_profile_series_only("6.6"));
	assert_true(cfsr_profile_series_only("10.1"));
	assert_false(cfsr_profile_series_only("6.6.0"));
	assert_false(cfsr_profile_series_only("6.6.50"));
	assert_false(cfsr_profile_series_only("6.6-rc3"));
	assert_false(cfsr_profile_series_only("6.6."));
	assert_false(cfsr_profile_series_only("6"));
	assert_false(cfsr_profile_series_only(NULL));

	assert_int_equal(cfsr_profile_modelled("6.6.50-x", "6.6", &own), CFSR_KVER(6, 6, 50));
	assert_true(own);
	assert_int_equal(cfsr_profile_modelled("6.18.44-fc", "6.6", &own), CFSR_KVER(6, 6, 0));
	assert_false(own);
	assert_int_equal(cfsr_profile_modelled(NULL, "6.6", &own), CFSR_KVER(6, 6, 0));
	assert_false(own);
	assert_int_equal(cfsr_profile_modelled("6.6.50", "6.6.0", &own), CFSR_KVER(6, 6, 0));
	assert_false(own);
	assert_int_equal(cfsr_profile_modelled("6.6.50", "6.6-rc3", NULL), CFSR_KVER(6, 6, 0));
	assert_int_equal(cfsr_profile_modelled("6.6.50", NULL, &own), CFSR_KVER(6, 6, 50));
	assert_false(own);
	/* 6.60.x is not of the 6.6 series */
	assert_int_equal(cfsr_profile_modelled("6.60.1", "6.6", NULL), CFSR_KVER(6, 6, 0));
	assert_int_equal(cfsr_profile_modelled(NULL, NULL, NULL), -1);
	assert_int_equal(cfsr_profile_modelled("6.6.50", "linux", NULL), -1);

	/* 6.6.50 is past eab03c23c2a1 (6.6.4) and its fixes (6.6.30): not 6.6.0's */
	assert_string_equal(cfsr_profile_choose("6.6.50", "6.6", "t.dat")->name,
			    "v6.6.30-v6.6.92 EEVDF");
	assert_false(cfsr_profile_what_if("6.6.50", cfsr_profile_choose("6.6.50", "6.6", "t")));
	assert_string_equal(cfsr_profile_choose("6.18.44", "6.6", "t.dat")->name,
			    "v6.6.0-v6.6.3 EEVDF");
	assert_string_equal(cfsr_profile_choose("6.6.50", "6.6.0", "t.dat")->name,
			    "v6.6.0-v6.6.3 EEVDF");
	assert_string_equal(cfsr_profile_choose("6.12.31", "6.12", "t.dat")->name,
			    "v6.12.31-v6.12.y EEVDF, delayed dequeue");

	assert_string_equal(cfsr_profile_series_note("6.6.50-x", "6.6", buf, sizeof(buf)),
			    "--kernel 6.6 taken as 6.6.50, the trace's own sublevel");
	assert_string_equal(cfsr_profile_series_note("6.18.44", "6.6", buf, sizeof(buf)),
			    "--kernel 6.6 taken as 6.6.0, the series' first release");
	assert_null(cfsr_profile_series_note("6.6.50", "6.6.0", buf, sizeof(buf)));
	assert_null(cfsr_profile_series_note("6.6.50", NULL, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),		 cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_table_contiguous), cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_stable_sublevels), cmocka_unit_test(test_choose),
		cmocka_unit_test(test_series_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

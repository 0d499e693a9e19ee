/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for lib/pelt.c: PELT arithmetic against independently
 * derived values.
 *
 * Sources of the expected values: the decay table against y^n * 2^32
 * computed here in long double (y from five square roots of 1/2, by
 * Newton's method, no libm); LOAD_AVG_MAX as the fixed point of its
 * integer series; decay products against a 32-bit split multiplication;
 * a per-unit simulation written here; the derived vectors of
 * docs/MODEL.md section 1.9; and small cases worked by hand in the
 * comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pelt-real.h"
#include <string.h>

#include "pelt.h"
#include "profile.h"
#include "weight.h"

#define P (&cfsr_pelt_params_modern)
#define P612 (&cfsr_pelt_params_v6_12)
#define PERIOD_NS (UINT64_C(1024) * 1024)
#define W_NICE0 NICE_0_LOAD

/* (v * mul) >> 32 without a 128-bit product. */
static uint64_t mul_shr32_split(uint64_t v, uint32_t mul)
{
	return (v >> 32) * mul + (((v & 0xffffffffu) * mul) >> 32);
}

/* Each entry is floor(y^n 2^32) or one less; the table decreases. */
static void test_decay_table(void **state)
{
	long double y = pelt_y(), yn = 4294967296.0L;
	int n;

	(void)state;
	for (n = 0; n < LOAD_AVG_PERIOD; n++) {
		uint64_t fl = (uint64_t)yn;
		uint64_t t = cfsr_runnable_avg_yN_inv[n];

		assert_true(t == fl || t + 1 == fl);
		if (n)
			assert_true(t < cfsr_runnable_avg_yN_inv[n - 1]);
		yn *= y;
	}
	/* y^32 = 1/2 closes the cycle: decay by 32 periods is a halving. */
	assert_true(yn > 2147483647.99L && yn < 2147483648.01L);
}

/* LOAD_AVG_MAX is the fixed point of m <- floor(m y) + 1024 from 1024. */
static void test_load_avg_max(void **state)
{
	uint64_t m = 1024, next;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		next = ((m * cfsr_runnable_avg_yN_inv[1]) >> 32) + 1024;
		if (next == m)
			break;
		m = next;
	}
	assert_true(i < 1000);
	assert_int_equal(m, LOAD_AVG_MAX);
	/* Hence LOAD_AVG_MAX y == LOAD_AVG_MAX - 1024 == PELT_MIN_DIVIDER. */
	assert_int_equal(cfsr_pelt_decay_load(P, LOAD_AVG_MAX, 1), PELT_MIN_DIVIDER);
}

static void test_decay_load(void **state)
{
	static const uint64_t vs[] = { 2, 3, 1000, 47742, UINT64_C(0x1ffffffff) };
	uint64_t v;
	size_t i;

	(void)state;
	/* 32 periods: (v >> 1) * (2^32 - 1) >> 32 = (v >> 1) - 1 for 0 < v >> 1 <= 2^32. */
	for (i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		assert_int_equal(cfsr_pelt_decay_load(P, vs[i], 32), (vs[i] >> 1) - 1);

	/* 0 periods: v (2^32 - 1) >> 32 = v - ceil(v / 2^32), since v4.12. */
	assert_int_equal(cfsr_pelt_decay_load(P, 1, 0), 0);
	assert_int_equal(cfsr_pelt_decay_load(P, 1000, 0), 999);
	assert_int_equal(cfsr_pelt_decay_load(P, UINT64_C(1) << 32, 0), 0xffffffffu);
	v = (UINT64_C(1) << 63) + 5;
	assert_int_equal(cfsr_pelt_decay_load(P, v, 0), v - ((UINT64_C(1) << 31) + 1));

	/* Beyond 63 half-lives: 0, even for n that does not fit 32 bits. */
	assert_int_equal(cfsr_pelt_decay_load(P, UINT64_MAX, 2017), 0);
	assert_int_equal(cfsr_pelt_decay_load(P, UINT64_MAX, UINT64_C(1) << 40), 0);
	/* At 2016: (2^64 - 1) >> 63 = 1, times (2^32 - 1) >> 32 = 0. */
	assert_int_equal(cfsr_pelt_decay_load(P, UINT64_MAX, 2016), 0);
	/* 2^64 - 1 >> 62 = 3 at n = 1984; 3 (2^32 - 1) >> 32 = 2. */
	assert_int_equal(cfsr_pelt_decay_load(P, UINT64_MAX, 1984), 2);

	/* Hand values: 1024 y = 1002.05, 1024 y^2 = 980.58, 47742 y^2 = 45717.9. */
	assert_int_equal(cfsr_pelt_decay_load(P, 1024, 1), 1002);
	assert_int_equal(cfsr_pelt_decay_load(P, 1024, 2), 980);
	assert_int_equal(cfsr_pelt_decay_load(P, LOAD_AVG_MAX, 2), 45717);
}

/* Values above 2^32 need the full 96-bit product. */
static void test_decay_load_wide(void **state)
{
	uint64_t v = UINT64_C(0x123456789abcdef0);
	unsigned int n;

	(void)state;
	for (n = 0; n < LOAD_AVG_PERIOD; n++)
		assert_int_equal(cfsr_pelt_decay_load(P, v, n),
				 mul_shr32_split(v, cfsr_runnable_avg_yN_inv[n]));
	/* n = 33: one halving, then y^1. */
	assert_int_equal(cfsr_pelt_decay_load(P, v, 33),
			 mul_shr32_split(v >> 1, cfsr_runnable_avg_yN_inv[1]));
	assert_int_equal(cfsr_pelt_decay_load(P, v, 1), UINT64_C(1283659973746040487));
	assert_int_equal(cfsr_pelt_decay_load(P, UINT64_MAX, 0), UINT64_MAX - (UINT64_C(1) << 32));
}

/* decay_load(v, n) is v y^n less at most 3 (two floors, table one low). */
static void test_decay_load_vs_real(void **state)
{
	long double y = pelt_y();
	uint64_t v;
	unsigned int n;

	(void)state;
	for (v = 1; v < (UINT64_C(1) << 31); v = v * 7 + 3) {
		long double yn = 1.0L;

		for (n = 0; n < 100; n++) {
			long double real = (long double)v * yn;
			long double got = (long double)cfsr_pelt_decay_load(P, v, n);

			assert_true(got <= real + 1e-6L);
			assert_true(real - got < 3.0L);
			yn *= y;
		}
	}
}

/* The pre-v4.12 special case. */
static void test_decay_load_legacy_zero(void **state)
{
	struct cfsr_pelt_params old = cfsr_pelt_params_modern;

	(void)state;
	old.decay_zero_identity = true;
	assert_int_equal(cfsr_pelt_decay_load(&old, 1000, 0), 1000);
	assert_int_equal(cfsr_pelt_decay_load(&old, 1000, 1), cfsr_pelt_decay_load(P, 1000, 1));
}

static void test_accumulate_segments(void **state)
{
	(void)state;
	/* p = 1, d1 = 48, d3 = 929: 48 y = 46.97 -> 46; c2 = 47742 - 46718 - 1024 = 0. */
	assert_int_equal(cfsr_pelt_accumulate_segments(P, 1, 48, 929), 46 + 0 + 929);
	/* p = 2, d1 = 1024, d3 = 0: 980 + (47742 - 45717 - 1024 = 1001). */
	assert_int_equal(cfsr_pelt_accumulate_segments(P, 2, 1024, 0), 1981);
	/* p past the cutoff: c1 = 0, c2 = 47742 - 0 - 1024. */
	assert_int_equal(cfsr_pelt_accumulate_segments(P, 3000, 1024, 5), PELT_MIN_DIVIDER + 5);
}

/* One update after exactly k periods of running from 0 (d1 = 1024, d3 = 0). */
static void test_k_periods_one_update(void **state)
{
	long double y = pelt_y();
	unsigned int k;

	(void)state;
	for (k = 1; k <= 400; k++) {
		struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
		long double real = 0, yn = 1.0L;
		unsigned int n;

		assert_int_equal(cfsr_pelt_update_sum(P, k * PERIOD_NS, &sa, 1, 1, 1), 1);
		assert_int_equal(sa.period_contrib, 0);
		assert_int_equal(sa.last_update_time, k * PERIOD_NS);
		for (n = 1; n <= k; n++) {
			yn *= y;
			real += 1024.0L * yn;
		}
		if (k == 1)
			assert_int_equal(sa.load_sum, 1002);
		if (k == 2)
			assert_int_equal(sa.load_sum, 1981);
		/*
		 * c2 stands for the real series with LOAD_AVG_MAX = 47742 in
		 * place of 1024 / (1 - y) = 47788.4: at most ~46 low, never
		 * high by more than the floors.
		 */
		assert_true((long double)sa.load_sum <= real + 2.0L);
		assert_true((long double)sa.load_sum >= real - 48.0L);
		assert_int_equal(sa.runnable_sum, sa.load_sum << 10);
	}
}

/*
 * Updated every 1024 ns, the kernel adds one unit per update, except the
 * update that completes a period: the sums are decayed once by y and the
 * completing unit contributes floor(1 * y) = 0 (d1 = 1, c2 = 0, d3 = 0).
 * Simulated here unit by unit with the table alone.
 */
static void test_per_unit_simulation(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	uint64_t l = 0, r = 0, pos = 0;
	uint32_t u = 0;
	uint64_t unit;
	int ret;

	(void)state;
	for (unit = 1; unit <= 5 * 1024 + 321; unit++) {
		/* Running for 3 periods, then runnable-not-running, then blocked. */
		int running = unit <= 3 * 1024;
		int load = unit <= 4 * 1024 + 100;

		ret = cfsr_pelt_update_sum(P, unit * 1024, &sa, load, load, running && load);
		pos++;
		if (pos == 1024) {
			l = (l * cfsr_runnable_avg_yN_inv[1]) >> 32;
			r = (r * cfsr_runnable_avg_yN_inv[1]) >> 32;
			u = (uint32_t)(((uint64_t)u * cfsr_runnable_avg_yN_inv[1]) >> 32);
			pos = 0;
			assert_int_equal(ret, 1);
		} else {
			l += load;
			r += (uint64_t)load << 10;
			u += (uint32_t)(running && load) << 10;
			assert_int_equal(ret, 0);
		}
		assert_int_equal(sa.load_sum, l);
		assert_int_equal(sa.runnable_sum, r);
		assert_int_equal(sa.util_sum, u);
		assert_int_equal(sa.period_contrib, pos);
	}
}

/*
 * docs/MODEL.md 1.9: nice-0 task always running from PELT time 0, updated
 * every 1 ms.  By hand for the first two updates:
 * t = 1 ms: 1000000 >> 10 = 976 units, no boundary: load_sum 976, util_sum
 *   976 << 10 = 999424, period_contrib 976, last_update_time 999424, avgs 0.
 * t = 2 ms: (2000000 - 999424) >> 10 = 977 units; 976 + 977 = 1953 crosses
 *   one boundary, d3 = 929.  load_sum = 976 y (955) + 48 y (46) + 0 + 929 =
 *   1930; util_sum = 999424 y (978008) + 975 << 10 = 1976408; divider =
 *   46718 + 929 = 47647: load_avg = 1024 * 1930 / 47647 = 41, util_avg 41.
 */
static void test_model_vectors(void **state)
{
	static const struct {
		unsigned int t;
		uint64_t load_sum;
		uint32_t util_sum, period_contrib;
		uint64_t load_avg, util_avg;
	} v[] = {
		{ 1, 976, 999424, 976, 0, 0 },		 { 2, 1930, 1976408, 929, 41, 41 },
		{ 8, 7215, 7390418, 644, 155, 156 },	 { 32, 22851, 23410391, 530, 495, 495 },
		{ 100, 41128, 42135012, 376, 894, 894 }, { 400, 47182, 48341291, 481, 1023, 1024 },
	};
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT, many, once;
	unsigned int t, i = 0;

	(void)state;
	for (t = 1; t <= 400; t++) {
		cfsr_pelt_update_se(P, (uint64_t)t * 1000000, &sa, W_NICE0, true, 1, true);
		if (i >= sizeof(v) / sizeof(v[0]) || t != v[i].t)
			continue;
		assert_int_equal(sa.load_sum, v[i].load_sum);
		assert_int_equal(sa.util_sum, v[i].util_sum);
		assert_int_equal(sa.period_contrib, v[i].period_contrib);
		assert_int_equal(sa.load_avg, v[i].load_avg);
		assert_int_equal(sa.util_avg, v[i].util_avg);
		i++;
	}
	assert_int_equal(i, sizeof(v) / sizeof(v[0]));

	/* Blocked for 100 ms: 25 updates 4 ms apart, or one. */
	many = sa;
	once = sa;
	for (t = 404; t <= 500; t += 4)
		cfsr_pelt_update_blocked_se(P, (uint64_t)t * 1000000, &many, W_NICE0);
	cfsr_pelt_update_blocked_se(P, 500 * UINT64_C(1000000), &once, W_NICE0);
	assert_int_equal(many.load_sum, 6022);
	assert_int_equal(many.util_sum, 6174973);
	assert_int_equal(once.load_sum, 6026);
	assert_int_equal(once.util_sum, 6174978);
	assert_int_equal(many.load_avg, 129);
	assert_int_equal(many.util_avg, 129);
	assert_int_equal(once.load_avg, 129);
	assert_int_equal(once.util_avg, 129);
}

static void test_update_sum_edges(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	struct cfsr_pelt_params old = cfsr_pelt_params_modern;

	(void)state;
	/* Less than one unit: nothing, and the remainder is kept. */
	assert_int_equal(cfsr_pelt_update_sum(P, 1023, &sa, 1, 1, 1), 0);
	assert_int_equal(sa.last_update_time, 0);
	assert_int_equal(sa.load_sum, 0);
	assert_int_equal(cfsr_pelt_update_sum(P, 2047, &sa, 1, 1, 1), 0);
	assert_int_equal(sa.last_update_time, 1024);
	assert_int_equal(sa.load_sum, 1);
	assert_int_equal(sa.util_sum, 1024);
	assert_int_equal(sa.period_contrib, 1);

	/* Clock going backwards: only last_update_time moves, to now. */
	sa.last_update_time = 10 * 1024;
	assert_int_equal(cfsr_pelt_update_sum(P, 5000, &sa, 1, 1, 1), 0);
	assert_int_equal(sa.last_update_time, 5000);
	assert_int_equal(sa.load_sum, 1);
	assert_int_equal(sa.period_contrib, 1);

	/* Before v4.12 last_update_time jumps to now, dropping the remainder. */
	old.whole_unit_advance = false;
	sa = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	cfsr_pelt_update_sum(&old, 2047, &sa, 1, 1, 1);
	assert_int_equal(sa.last_update_time, 2047);
	assert_int_equal(sa.load_sum, 1);
}

/* load == 0 forces runnable = running = 0: the sums only decay. */
static void test_zero_load_masks(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;

	(void)state;
	sa.load_sum = 1000;
	sa.runnable_sum = 1000 << 10;
	sa.util_sum = 1000 << 10;
	assert_int_equal(cfsr_pelt_update_sum(P, PERIOD_NS, &sa, 0, 1, 1), 1);
	/* 1000 y = 978.57, 1024000 y = 1002057.9. */
	assert_int_equal(sa.load_sum, 978);
	assert_int_equal(sa.runnable_sum, 1002057);
	assert_int_equal(sa.util_sum, 1002057);
	assert_int_equal(sa.period_contrib, 0);
}

/* A runnable count above 1 (group entity) scales runnable_sum. */
static void test_runnable_count(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;

	(void)state;
	cfsr_pelt_update_sum(P, 100 * 1024, &sa, 1, 3, 0);
	assert_int_equal(sa.load_sum, 100);
	assert_int_equal(sa.runnable_sum, 3 * 100 << 10);
	assert_int_equal(sa.util_sum, 0);
}

/* A gap of exactly 2^32 periods: the u32 return reads "no boundary". */
static void test_periods_truncated(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;

	(void)state;
	sa.load_sum = 1000;
	assert_int_equal(cfsr_pelt_update_sum(P, (UINT64_C(1) << 32) * PERIOD_NS, &sa, 0, 0, 0), 0);
	assert_int_equal(sa.load_sum, 0);
	sa.load_sum = 1000;
	assert_int_equal(
		cfsr_pelt_accumulate_sum(P, (UINT64_C(1) << 32) * 1024 + 1024, &sa, 0, 0, 0), 1);
}

static void test_update_avg(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	struct cfsr_pelt_params old = cfsr_pelt_params_modern;

	(void)state;
	sa.load_sum = 23000;
	sa.runnable_sum = 23000 << 10;
	sa.util_sum = 23000 << 10;
	sa.period_contrib = 100;
	assert_int_equal(cfsr_pelt_divider(P, &sa), 46818);
	/* 1024 * 23000 / 46818 = 503.05. */
	cfsr_pelt_update_avg(P, &sa, 1024);
	assert_int_equal(sa.load_avg, 503);
	assert_int_equal(sa.runnable_avg, 503);
	assert_int_equal(sa.util_avg, 503);
	/* Before v4.13 the divider was LOAD_AVG_MAX: 23552000 / 47742 = 493.3. */
	old.divider_period_contrib = false;
	assert_int_equal(cfsr_pelt_divider(&old, &sa), LOAD_AVG_MAX);
	cfsr_pelt_update_avg(&old, &sa, 1024);
	assert_int_equal(sa.util_avg, 493);
}

/*
 * cfs_rq with two nice-0 tasks, one running, for one full period from 0:
 * contrib = 1024 y = 1002; load_sum = 2048 * 1002 = 2052096, runnable_sum
 * = 2 * 1002 << 10 = 2052096, util_sum = 1002 << 10 = 1026048; divider
 * 46718: load_avg = runnable_avg = 43 (43.9), util_avg = 21 (21.96).
 */
static void test_update_cfs_rq(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;

	(void)state;
	assert_int_equal(cfsr_pelt_update_cfs_rq(P, PERIOD_NS, &sa, 2 * W_NICE0, 2, true), 1);
	assert_int_equal(sa.load_sum, 2052096);
	assert_int_equal(sa.runnable_sum, 2052096);
	assert_int_equal(sa.util_sum, 1026048);
	assert_int_equal(sa.load_avg, 43);
	assert_int_equal(sa.runnable_avg, 43);
	assert_int_equal(sa.util_avg, 21);

	/* Weights below 2048 scale down to 2 since v5.7, to 0 before. */
	assert_int_equal(cfsr_pelt_weight(P, 1), 2);
	{
		struct cfsr_pelt_params old = cfsr_pelt_params_modern;

		old.scale_load_down_floor = false;
		assert_int_equal(cfsr_pelt_weight(&old, 1), 0);
		assert_int_equal(cfsr_pelt_weight(&old, W_NICE0), 1024);
	}
}

/* Entity wrappers: blocked decay and the util_est flag. */
static void test_update_se(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;

	(void)state;
	sa.util_est = 300 | UTIL_AVG_UNCHANGED;
	/* Within the period: no boundary, the flag stays. */
	assert_int_equal(cfsr_pelt_update_se(P, 500 * 1024, &sa, W_NICE0, true, 1, true), 0);
	assert_int_equal(sa.util_est, 300 | UTIL_AVG_UNCHANGED);
	/* Crossing: averages recomputed, flag cleared. */
	assert_int_equal(cfsr_pelt_update_se(P, PERIOD_NS, &sa, W_NICE0, true, 1, true), 1);
	assert_int_equal(sa.util_est, 300);
	/* 500 y + 524 y = 489.3 + 512.8: 489 + 512 + 0 = 1001; 1024 * 1001 / 46718 = 21.9. */
	assert_int_equal(sa.load_sum, 1001);
	assert_int_equal(sa.load_avg, 21);

	/* Blocked: inputs 0, load_avg still uses the weight (nice -20 here). */
	assert_int_equal(cfsr_pelt_update_blocked_se(P, 2 * PERIOD_NS, &sa, 88761u << 10), 1);
	/* 1001 y = 979.5. */
	assert_int_equal(sa.load_sum, 979);
	/* 88761 * 979 / 46718 = 1860.0. */
	assert_int_equal(sa.load_avg, 1860);
}

/* Invariants under irregular updates: the window stays on the 1024 ns grid. */
static void test_grid_invariants(void **state)
{
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	uint64_t now = 0, seed = 12345;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		now += (seed >> 33) % 3000000;
		if (cfsr_pelt_update_se(P, now, &sa, W_NICE0, (seed >> 20) & 1, (seed >> 20) & 1,
					(seed >> 21) & 1)) {
			uint64_t divider = 46718 + sa.period_contrib;

			assert_int_equal(sa.load_avg, sa.load_sum * 1024 / divider);
			assert_int_equal(sa.util_avg, sa.util_sum / divider);
		}
		assert_int_equal(sa.last_update_time % 1024, 0);
		assert_int_equal(sa.period_contrib, (sa.last_update_time >> 10) % 1024);
		assert_true(now - sa.last_update_time < 1024);
		assert_true(sa.load_avg <= 1024);
		assert_true(sa.util_avg <= 1024);
		assert_true(sa.util_avg <= sa.runnable_avg);
	}
}

/*
 * Attach to a cfs_rq at period_contrib 100 (divider 46818): util_sum = 50 *
 * 46818 = 2340900, runnable_sum = 60 * 46818 = 2809080, load_sum = 500 *
 * 46818 / 1024 = 22860 (22860.4); the cfs_rq gains 1024 * 22860 =
 * 23408640 of load_sum.
 */
static void test_attach(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, se = CFSR_SCHED_AVG_INIT;
	struct cfsr_pelt_params old = cfsr_pelt_params_modern;
	int64_t prop;

	(void)state;
	cfs.last_update_time = 5 * PERIOD_NS + 100 * 1024;
	cfs.period_contrib = 100;
	cfs.load_avg = 200;
	cfs.load_sum = 1000000;
	cfs.util_avg = 10;
	cfs.util_sum = 500000;
	cfs.runnable_avg = 20;
	cfs.runnable_sum = 900000;
	se.util_avg = 50;
	se.runnable_avg = 60;
	se.load_avg = 500;
	se.period_contrib = 7;

	prop = cfsr_pelt_attach_se(P, &cfs, &se, W_NICE0);
	assert_int_equal(se.last_update_time, cfs.last_update_time);
	assert_int_equal(se.period_contrib, 100);
	assert_int_equal(se.util_sum, 2340900);
	assert_int_equal(se.runnable_sum, 2809080);
	assert_int_equal(se.load_sum, 22860);
	assert_int_equal(prop, 22860);
	assert_int_equal(cfs.load_avg, 700);
	assert_int_equal(cfs.load_sum, 1000000 + 23408640);
	assert_int_equal(cfs.util_avg, 60);
	assert_int_equal(cfs.util_sum, 500000 + 2340900);
	assert_int_equal(cfs.runnable_avg, 80);
	assert_int_equal(cfs.runnable_sum, 900000 + 2809080);

	/* Nice -20, load_avg 1: 46818 < 88761, so load_sum = 1 (0 before v5.18). */
	se = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	se.load_avg = 1;
	cfs = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	cfs.period_contrib = 100;
	cfsr_pelt_attach_se(P, &cfs, &se, 88761u << 10);
	assert_int_equal(se.load_sum, 1);
	assert_int_equal(cfs.load_sum, 88761);
	old.attach_load_sum_min1 = false;
	cfsr_pelt_attach_se(&old, &cfs, &se, 88761u << 10);
	assert_int_equal(se.load_sum, 0);

	/* A zero load_avg also attaches with load_sum 1. */
	se = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	cfs = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	assert_int_equal(cfsr_pelt_attach_se(P, &cfs, &se, W_NICE0), 1);
	assert_int_equal(cfs.load_sum, 1024);
	assert_int_equal(cfs.load_avg, 0);
}

static void test_detach_lower_bounds(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, se = CFSR_SCHED_AVG_INIT;

	(void)state;
	/*
	 * util: 100 - 30 = 70; 4671805 - 1410000 = 3261805 is below 70 * 46718 =
	 * 3270260, so util_sum becomes 3270260.  runnable: both avg and sum
	 * would go negative and clamp at 0.  load: 1000 - 21 = 979;
	 * 46718000 - 1024 * 1000 = 45694000 is below 979 * 46718 = 45736922,
	 * so load_sum becomes 45736922.
	 */
	cfs.util_avg = 100;
	cfs.util_sum = 100 * 46718 + 5;
	cfs.runnable_avg = 10;
	cfs.runnable_sum = 100;
	cfs.load_avg = 1000;
	cfs.load_sum = 1000 * 46718;
	se.util_avg = 30;
	se.util_sum = 1410000;
	se.runnable_avg = 30;
	se.runnable_sum = 5000;
	se.load_avg = 21;
	se.load_sum = 1000;

	assert_int_equal(cfsr_pelt_detach_se(P, &cfs, &se, W_NICE0), -1000);
	assert_int_equal(cfs.util_avg, 70);
	assert_int_equal(cfs.util_sum, 3270260);
	assert_int_equal(cfs.runnable_avg, 0);
	assert_int_equal(cfs.runnable_sum, 0);
	assert_int_equal(cfs.load_avg, 979);
	assert_int_equal(cfs.load_sum, 45736922);
	/* The entity is left alone. */
	assert_int_equal(se.util_sum, 1410000);
	assert_int_equal(se.load_sum, 1000);

	/* util_avg and util_sum (u32) both clamp at 0 instead of wrapping. */
	cfs = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	cfs.util_avg = 10;
	cfs.util_sum = 100;
	cfs.load_avg = 5;
	cfs.load_sum = 5 * 46718 + 1024 * 1000 + 7;
	cfsr_pelt_detach_se(P, &cfs, &se, W_NICE0);
	assert_int_equal(cfs.util_avg, 0);
	assert_int_equal(cfs.util_sum, 0);
	/* load_avg 5 - 21 clamps at 0; load_sum keeps 5 * 46718 + 7 = 233597. */
	assert_int_equal(cfs.load_avg, 0);
	assert_int_equal(cfs.load_sum, 233597);
}

/*
 * The lower bound compares as u32 (max_t(u32, ...)).  cfs_rq load_sum
 * 5000000000 (> 2^32, e.g. two nice -20 tasks), load_avg 104000; detach a
 * nice-0 entity with load_avg 21, load_sum 1000: load_sum = 5000000000 -
 * 1024000 = 4998976000, truncated: 4998976000 - 2^32 = 704008704; bound
 * 103979 * 46718 = 4857690922, truncated: 562723626; result 704008704.
 * Without the lower bounds (before v5.13) the sum stays 64-bit.
 */
static void test_lower_bound_u32(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, se = CFSR_SCHED_AVG_INIT;
	struct cfsr_sched_avg cfs2;
	struct cfsr_pelt_params old = cfsr_pelt_params_modern;

	(void)state;
	cfs.load_sum = 5000000000ull;
	cfs.load_avg = 104000;
	se.load_avg = 21;
	se.load_sum = 1000;
	cfs2 = cfs;

	cfsr_pelt_dequeue_load(P, &cfs, &se, W_NICE0);
	assert_int_equal(cfs.load_avg, 103979);
	assert_int_equal(cfs.load_sum, 704008704);

	old.sum_lower_bounds = false;
	cfsr_pelt_dequeue_load(&old, &cfs2, &se, W_NICE0);
	assert_int_equal(cfs2.load_sum, 4998976000ull);
}

/*
 * Removed load on a cfs_rq at period_contrib 10 (divider 46728):
 * load: 1000 - 300 = 700; 46728500 - 300 * 46728 = 32710100, above
 *   700 * 46718 = 32702600: kept.
 * util: 600 - 200 = 400; 28030800 - 9345600 = 18685200, below 400 * 46718 =
 *   18687200: raised.
 * runnable: 800 - 250 = 550; 37374400 - 11682000 = 25692400, below
 *   550 * 46718 = 25694900: raised.
 * propagation: -(250 * 46728) >> 10 = -11682000 / 1024 = -11408.2 -> -11409.
 */
static void test_removed(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, se = CFSR_SCHED_AVG_INIT;
	struct cfsr_pelt_removed removed = CFSR_PELT_REMOVED_INIT;
	int64_t prop = 123;

	(void)state;
	cfs.last_update_time = 10 * 1024;
	cfs.period_contrib = 10;
	cfs.load_avg = 1000;
	cfs.load_sum = 46728500;
	cfs.util_avg = 600;
	cfs.util_sum = 600 * 46718;
	cfs.runnable_avg = 800;
	cfs.runnable_sum = 800 * 46718;

	/* Nothing queued: no change, not decayed. */
	assert_int_equal(cfsr_pelt_apply_removed(P, &cfs, &removed, &prop), 0);
	assert_int_equal(prop, 0);
	assert_int_equal(cfs.load_avg, 1000);

	se.load_avg = 100;
	se.util_avg = 50;
	se.runnable_avg = 50;
	cfsr_pelt_remove_se(&removed, &se);
	se.load_avg = 200;
	se.util_avg = 150;
	se.runnable_avg = 200;
	cfsr_pelt_remove_se(&removed, &se);
	assert_int_equal(removed.nr, 2);
	assert_int_equal(removed.load_avg, 300);

	/* Same instant: no aging, but the removal alone reports a change. */
	assert_int_equal(cfsr_pelt_update_cfs_rq_load_avg(P, 10 * 1024, &cfs, &removed, W_NICE0, 1,
							  true, &prop),
			 1);
	assert_int_equal(cfs.load_avg, 700);
	assert_int_equal(cfs.load_sum, 32710100);
	assert_int_equal(cfs.util_avg, 400);
	assert_int_equal(cfs.util_sum, 18687200);
	assert_int_equal(cfs.runnable_avg, 550);
	assert_int_equal(cfs.runnable_sum, 25694900);
	assert_int_equal(prop, -11409);
	assert_int_equal(removed.nr, 0);
	assert_int_equal(removed.load_avg, 0);
	assert_int_equal(removed.util_avg, 0);
	assert_int_equal(removed.runnable_avg, 0);

	/* Removing more than there is clamps at 0; the bound of a 0 avg is 0. */
	removed.nr = 1;
	removed.util_avg = 1000;
	cfsr_pelt_apply_removed(P, &cfs, &removed, &prop);
	assert_int_equal(cfs.util_avg, 0);
	assert_int_equal(cfs.util_sum, 0);
	assert_int_equal(prop, 0);
	/* Removing 0 leaves the other signals as they were. */
	assert_int_equal(cfs.load_avg, 700);
	assert_int_equal(cfs.load_sum, 32710100);
	assert_int_equal(cfs.runnable_avg, 550);
	assert_int_equal(cfs.runnable_sum, 25694900);
}

/*
 * Nice 0 -> nice -5 on a sleeping entity, not aged: the cfs_rq loses
 * 503 and 1024 * 23000 = 23552000 (load_sum 0, raised to 521 * 46718 =
 * 24340078), the entity's load_avg becomes 3121 * 23000 / 46818 = 1533
 * (1533.3), and the cfs_rq gains 1533 and 3121 * 23000 = 71783000.
 */
static void test_reweight(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, se = CFSR_SCHED_AVG_INIT;

	(void)state;
	se.load_sum = 23000;
	se.load_avg = 503;
	se.period_contrib = 100;
	cfs.load_avg = 1024;
	cfs.load_sum = 1024 * 23000;

	cfsr_pelt_reweight_se(P, &cfs, &se, W_NICE0, cfsr_nice_to_load_weight(-5));
	assert_int_equal(se.load_avg, 1533);
	assert_int_equal(se.load_sum, 23000);
	assert_int_equal(cfs.load_avg, 521 + 1533);
	assert_int_equal(cfs.load_sum, 24340078 + 71783000);
}

static void test_init(void **state)
{
	struct cfsr_sched_avg sa;

	(void)state;
	memset(&sa, 0x5a, sizeof(sa));
	cfsr_pelt_init_se(P, &sa, W_NICE0, true);
	assert_int_equal(sa.load_avg, 1024);
	assert_int_equal(sa.load_sum, 0);
	assert_int_equal(sa.last_update_time, 0);
	assert_int_equal(sa.util_avg, 0);
	assert_int_equal(sa.runnable_avg, 0);
	assert_int_equal(sa.util_sum, 0);
	assert_int_equal(sa.period_contrib, 0);
	assert_int_equal(sa.util_est, 0);

	cfsr_pelt_init_se(P, &sa, cfsr_idle_load_weight(), true);
	assert_int_equal(sa.load_avg, 3);
	cfsr_pelt_init_se(P, &sa, W_NICE0, false);
	assert_int_equal(sa.load_avg, 0);
}

/*
 * New task, nice 0, CPU of capacity 1024, cfs_rq util 300 and load 2000:
 * cap = (1024 - 300) / 2 = 362; util = 300 * 1024 / 2001 = 153 (153.5).
 * Before v6.10: 300 * 1048576 / 2001 = 157207, capped to 362.
 */
static void test_post_init(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, sa;
	struct cfsr_pelt_params old = cfsr_pelt_params_modern;

	(void)state;
	cfs.util_avg = 300;
	cfs.load_avg = 2000;
	cfsr_pelt_init_se(P, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(P, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 153);
	assert_int_equal(sa.runnable_avg, 153);
	assert_int_equal(sa.load_avg, 1024);
	/* The + 1: 307200 / 2983 = 102.98, where / 2982 would give 103.02. */
	cfs.load_avg = 2982;
	cfsr_pelt_init_se(P, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(P, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 102);
	cfs.load_avg = 2000;

	old.post_init_se_weight = false;
	cfsr_pelt_init_se(&old, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(&old, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 362);

	/* Idle cfs_rq: the whole half of the capacity. */
	cfs.util_avg = 0;
	cfsr_pelt_init_se(P, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(P, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 512);
	assert_int_equal(sa.runnable_avg, 512);

	/* Overloaded: (long)(1024 - 1100) / 2 = -38, util stays 0. */
	cfs.util_avg = 1100;
	cfsr_pelt_init_se(P, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(P, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 0);
	assert_int_equal(sa.runnable_avg, 0);

	/* cap = (1024 - 1023) / 2 = 0: not positive either. */
	cfs.util_avg = 1023;
	cfsr_pelt_post_init_se(P, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 0);
}

static void test_util_est_update(void **state)
{
	const uint32_t F = UTIL_AVG_UNCHANGED;

	(void)state;
	/* No sample: flag set, or not a sleep. */
	assert_int_equal(cfsr_pelt_util_est_update(P, 400 | F, 100, 100, 1024, true), 400 | F);
	assert_int_equal(cfsr_pelt_util_est_update(P, 400, 100, 100, 1024, false), 400);
	/* A rise, or no change, replaces the EWMA. */
	assert_int_equal(cfsr_pelt_util_est_update(P, 200, 300, 300, 1024, true), 300 | F);
	assert_int_equal(cfsr_pelt_util_est_update(P, 300, 300, 300, 1024, true), 300 | F);
	/* A drop of 9 < 1% keeps it; a drop of 10 does not: (1600 - 10) / 4 = 397.5. */
	assert_int_equal(cfsr_pelt_util_est_update(P, 400, 391, 391, 1024, true), 400 | F);
	assert_int_equal(cfsr_pelt_util_est_update(P, 400, 390, 390, 1024, true), 397 | F);
	/* Wanted more CPU than it got: 200 + 10 < 211 keeps the EWMA. */
	assert_int_equal(cfsr_pelt_util_est_update(P, 400, 200, 211, 1024, true), 400 | F);
	/* 210 is not < 210: (1600 - 200) / 4 = 350. */
	assert_int_equal(cfsr_pelt_util_est_update(P, 400, 200, 210, 1024, true), 350 | F);
	/* Floor: (1612 - 303) / 4 = 327.25. */
	assert_int_equal(cfsr_pelt_util_est_update(P, 403, 100, 0, 1024, true), 327 | F);

	/* util_avg above capacity: v6.12-v6.15 return without the flag. */
	assert_int_equal(cfsr_pelt_util_est_update(P612, 1200, 1100, 1100, 1024, true), 1200);
	assert_int_equal(cfsr_pelt_util_est_update(P, 1200, 1100, 1100, 1024, true), 1175 | F);
	/* The rise comes before the capacity check. */
	assert_int_equal(cfsr_pelt_util_est_update(P612, 1000, 1100, 1100, 1024, true), 1100 | F);
	assert_int_equal(cfsr_pelt_util_est_update(P612, 400, 390, 390, 1024, true), 397 | F);
}

static void test_util_est_sums(void **state)
{
	const uint32_t F = UTIL_AVG_UNCHANGED;
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	uint32_t root = 100;

	(void)state;
	root = cfsr_pelt_util_est_enqueue(P, root, 250 | F);
	assert_int_equal(root, 350);
	root = cfsr_pelt_util_est_dequeue(P, root, 250 | F);
	assert_int_equal(root, 100);
	root = cfsr_pelt_util_est_dequeue(P, root, 400);
	assert_int_equal(root, 0);

	sa.util_avg = 300;
	sa.util_est = 400 | F;
	assert_int_equal(cfsr_pelt_task_util_est(&cfsr_pelt_params_v6_2, &sa), 400);
	sa.util_avg = 500;
	assert_int_equal(cfsr_pelt_task_util_est(&cfsr_pelt_params_v6_2, &sa), 500);
	cfsr_pelt_util_est_clear_unchanged(&sa);
	assert_int_equal(sa.util_est, 400);
	cfsr_pelt_util_est_clear_unchanged(&sa);
	assert_int_equal(sa.util_est, 400);
}

/*
 * v5.7-v5.16 arithmetic (docs/PROFILES.md), each value by hand.
 *
 * post_init_entity_util_avg(): until e21cf43406a1 (v5.8-rc3, stable 5.7.7)
 * runnable_avg starts at cpu_scale, not at util_avg.  cfs util 200, load
 * 1000: cap (1024 - 200) / 2 = 412; 200 * 1048576 / 1001 = 209505, capped
 * to 412 (the 20-bit weight of v5.7-v6.9).
 */
static void test_post_init_v5_7(void **state)
{
	struct cfsr_sched_avg cfs = CFSR_SCHED_AVG_INIT, sa;

	(void)state;
	cfs.util_avg = 200;
	cfs.load_avg = 1000;
	cfsr_pelt_init_se(&cfsr_pelt_params_v5_7, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(&cfsr_pelt_params_v5_7, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 412);
	assert_int_equal(sa.runnable_avg, 1024);
	assert_int_equal(sa.load_avg, 1024);
	/* a CPU of capacity 512: cap (512 - 200) / 2 = 156, runnable 512 */
	cfsr_pelt_init_se(&cfsr_pelt_params_v5_7, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(&cfsr_pelt_params_v5_7, &sa, W_NICE0, 512, &cfs);
	assert_int_equal(sa.util_avg, 156);
	assert_int_equal(sa.runnable_avg, 512);
	/* 5.7.7 and v5.8 on: runnable_avg = util_avg */
	cfsr_pelt_init_se(&cfsr_pelt_params_v5_7_7, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(&cfsr_pelt_params_v5_7_7, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.util_avg, 412);
	assert_int_equal(sa.runnable_avg, 412);
	cfsr_pelt_init_se(&cfsr_pelt_params_v5_8, &sa, W_NICE0, true);
	cfsr_pelt_post_init_se(&cfsr_pelt_params_v5_8, &sa, W_NICE0, 1024, &cfs);
	assert_int_equal(sa.runnable_avg, 412);
}

/*
 * A cfs_rq with period_contrib 500 (divider 46718 + 500 = 47218) whose sums
 * are 7 above avg * divider, and an entity (load 216, load_sum 10000, util
 * 100, runnable 150, period_contrib 100) leaving it.
 */
static void resync_setup(struct cfsr_sched_avg *cfs, struct cfsr_sched_avg *se)
{
	memset(cfs, 0, sizeof(*cfs));
	memset(se, 0, sizeof(*se));
	cfs->period_contrib = 500;
	cfs->load_avg = 800;
	cfs->load_sum = 800 * 47218 + 7;
	cfs->util_avg = 500;
	cfs->util_sum = 500 * 47218 + 7;
	cfs->runnable_avg = 600;
	cfs->runnable_sum = 600 * 47218 + 7;
	se->period_contrib = 100;
	se->load_avg = 216;
	se->load_sum = 10000;
	se->util_avg = 100;
	se->util_sum = 100 * 46818;
	se->runnable_avg = 150;
	se->runnable_sum = 150 * 46818;
}

/*
 * detach_entity_load_avg(): v5.7-v5.12 subtract the sums (37774407 -
 * 1024 * 10000 = 27534407; 23609007 - 4681800 = 18927207; 28330807 -
 * 7022700 = 21308107); v5.13 (fcf6631f3736) set util and runnable to avg
 * * 47218 (400 -> 18887200, 450 -> 21248100) and still subtract the load;
 * v5.14-v5.16 (ceb6ba45dc80) set the load too, with the entity's divider
 * 46718 + 100: 584 * 46818 = 27341712.
 */
static void test_detach_resync(void **state)
{
	/* params, load_sum, util_sum, runnable_sum after the detach */
	const struct {
		const struct cfsr_pelt_params *pelt;
		uint64_t v[3];
	} want[] = {
		{ &cfsr_pelt_params_v5_8, { 27534407, 18927207, 21308107 } },
		{ &cfsr_pelt_params_v5_13, { 27534407, 18887200, 21248100 } },
		{ &cfsr_pelt_params_v5_14, { 27341712, 18887200, 21248100 } },
	};
	struct cfsr_sched_avg cfs, se;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		resync_setup(&cfs, &se);
		assert_int_equal(cfsr_pelt_detach_se(want[i].pelt, &cfs, &se, W_NICE0), -10000);
		assert_int_equal(cfs.load_avg, 584);
		assert_int_equal(cfs.load_sum, want[i].v[0]);
		assert_int_equal(cfs.util_avg, 400);
		assert_int_equal(cfs.util_sum, want[i].v[1]);
		assert_int_equal(cfs.runnable_avg, 450);
		assert_int_equal(cfs.runnable_sum, want[i].v[2]);
		/* dequeue_load_avg() alone (reweight_entity() uses it too) */
		resync_setup(&cfs, &se);
		cfsr_pelt_dequeue_load(want[i].pelt, &cfs, &se, W_NICE0);
		assert_int_equal(cfs.load_sum, want[i].v[0]);
	}
}

/*
 * The removed-load branch: v5.7-v5.13 subtract r * 47218 from each sum
 * (216: 10199088, 100: 4721800, 150: 7082700); v5.14-v5.16
 * (1c35b07e6d39) set each sum to avg * 47218: 584 -> 27575312, 400 ->
 * 18887200, 450 -> 21248100.  Both propagate -(150 * 47218) >> 10 =
 * -7082700 / 1024 = -6916.7, floored to -6917.
 */
static void test_removed_resync(void **state)
{
	struct cfsr_sched_avg cfs, se;
	struct cfsr_pelt_removed removed = CFSR_PELT_REMOVED_INIT;
	int64_t prop;

	(void)state;
	resync_setup(&cfs, &se);
	cfsr_pelt_remove_se(&removed, &se);
	assert_int_equal(cfsr_pelt_apply_removed(&cfsr_pelt_params_v5_13, &cfs, &removed, &prop),
			 1);
	assert_int_equal(cfs.load_avg, 584);
	assert_int_equal(cfs.load_sum, 37774407 - 10199088);
	assert_int_equal(cfs.util_sum, 23609007 - 4721800);
	assert_int_equal(cfs.runnable_sum, 28330807 - 7082700);
	assert_int_equal(prop, -6917);

	resync_setup(&cfs, &se);
	cfsr_pelt_remove_se(&removed, &se);
	assert_int_equal(cfsr_pelt_apply_removed(&cfsr_pelt_params_v5_14, &cfs, &removed, &prop),
			 1);
	assert_int_equal(cfs.load_avg, 584);
	assert_int_equal(cfs.load_sum, 27575312);
	assert_int_equal(cfs.util_avg, 400);
	assert_int_equal(cfs.util_sum, 18887200);
	assert_int_equal(cfs.runnable_avg, 450);
	assert_int_equal(cfs.runnable_sum, 21248100);
	assert_int_equal(prop, -6917);
}

/*
 * Stable 5.15.19+ and 5.16.5+ (98b0d890220d alone): the removed-load
 * branch subtracts util from util_sum and bounds it, the load and runnable
 * sums are resynchronised as in v5.14 (584 * 47218 = 27575312, 450 * 47218
 * = 21248100).  util: 23609007 - 100 * 47218 = 18887207 is above the bound
 * 400 * 46718 = 18687200 and stays, where v5.14 writes 400 * 47218 =
 * 18887200; from 23399000, 23399000 - 4721800 = 18677200 is below the
 * bound and becomes 18687200 (v5.14: 18887200 again).
 */
static void test_stable_removed_util(void **state)
{
	const struct cfsr_pelt_params *v14 = cfsr_profile_for("5.15.18")->pelt;
	const struct cfsr_pelt_params *v19 = cfsr_profile_for("5.15.19")->pelt;
	const struct {
		const struct cfsr_pelt_params *pelt;
		uint32_t util_sum_before, util_sum;
	} want[] = {
		{ v14, 500 * 47218 + 7, 18887200 },
		{ v19, 500 * 47218 + 7, 18887207 },
		{ v14, 23399000, 18887200 },
		{ v19, 23399000, 18687200 },
	};
	struct cfsr_sched_avg cfs, se;
	struct cfsr_pelt_removed removed = CFSR_PELT_REMOVED_INIT;
	int64_t prop;
	size_t i;

	(void)state;
	assert_ptr_equal(cfsr_profile_for("5.16.5")->pelt, v19);
	/* 5.10.y: v5.13's subtraction to 5.10.50, v5.14's resync from 5.10.51, 98b0d890220d from 5.10.96 */
	resync_setup(&cfs, &se);
	cfsr_pelt_remove_se(&removed, &se);
	cfsr_pelt_apply_removed(cfsr_profile_for("5.10.50")->pelt, &cfs, &removed, &prop);
	assert_int_equal(cfs.util_sum, 23609007 - 4721800);
	assert_int_equal(cfs.load_sum, 37774407 - 10199088);
	for (i = 0; i < 2; i++) {
		resync_setup(&cfs, &se);
		cfs.util_sum = 23399000;
		cfsr_pelt_remove_se(&removed, &se);
		cfsr_pelt_apply_removed(cfsr_profile_for(i ? "5.10.96" : "5.10.95")->pelt, &cfs,
					&removed, &prop);
		assert_int_equal(cfs.load_sum, 27575312);
		assert_int_equal(cfs.util_sum, i ? 18687200 : 18887200);
	}
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		resync_setup(&cfs, &se);
		cfs.util_sum = want[i].util_sum_before;
		cfsr_pelt_remove_se(&removed, &se);
		assert_int_equal(cfsr_pelt_apply_removed(want[i].pelt, &cfs, &removed, &prop), 1);
		assert_int_equal(cfs.load_sum, 27575312);
		assert_int_equal(cfs.util_avg, 400);
		assert_int_equal(cfs.util_sum, want[i].util_sum);
		assert_int_equal(cfs.runnable_sum, 21248100);
		assert_int_equal(prop, -6917);
	}
}

/*
 * Stable 5.10.113, 5.15.36 and 5.17.5 (40f5aa4c5eae): a nice -20 entity with
 * load_avg 1 attached at divider 46818 gets load_sum 1 (46818 < 88761),
 * 5.10.112, 5.15.35 and 5.17.4 46818 / 88761 = 0, so the cfs_rq's load_sum
 * grows by 88761 or by 0.
 */
static void test_stable_attach_floor(void **state)
{
	static const struct {
		const char *release;
		uint64_t load_sum;
	} want[] = { { "5.10.112", 0 }, { "5.10.113", 1 }, { "5.10.240", 1 },
		     { "5.11.0", 0 },	{ "5.15.35", 0 },  { "5.15.36", 1 },
		     { "5.15.178", 1 }, { "5.17.4", 0 },   { "5.17.5", 1 } };
	struct cfsr_sched_avg cfs, se;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		se = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
		se.load_avg = 1;
		cfs = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
		cfs.period_contrib = 100;
		cfsr_pelt_attach_se(cfsr_profile_for(want[i].release)->pelt, &cfs, &se,
				    88761u << 10);
		assert_int_equal(se.load_sum, want[i].load_sum);
		assert_int_equal(cfs.load_sum, 88761 * want[i].load_sum);
		assert_int_equal(cfs.load_avg, 1);
	}
}

/*
 * util_est before v5.13 (UTIL_AVG_UNCHANGED = bit 0 of enqueued, ORed into
 * _task_util_est(), no last_enqueued_diff filter), step by step:
 * - util 300: enqueued 301, the EWMA 0 jumps to 301 (UTIL_EST_FASTUP);
 * - no update since: the flag is set, nothing;
 * - an update clears bit 0: enqueued 300; _task_util_est() = 301 | 1;
 * - util 200: enqueued 201, last_ewma_diff = 201 - 301 as u32 (-100 once
 *   truncated to int, outside the margin of 10): ewma (1204 - 100) >> 2 =
 *   276;
 * - update, then util 270: 271 - 276 = -5 is within the margin: nothing is
 *   written, enqueued stays 200 without the flag (v5.13's filter would
 *   write enqueued 270, as 200 - 270 is not within the margin);
 * - task_util_est() = max(270, 276 | 1) = 277, the root gains 277;
 * - margin edge: ewma 311, util 300: 301 - 311 = -10 is not within
 *   (-10, 10): ewma (1244 - 10) >> 2 = 308; ewma 310: -9 is, nothing;
 * - util 1100 above the capacity 1024 with ewma 1200: nothing.
 */
static void test_util_est_lsb(void **state)
{
	const struct cfsr_pelt_params *p = &cfsr_pelt_params_v5_8;
	/* enqueued, ewma, util_avg, a sleep -> enqueued, ewma */
	const uint32_t steps[][6] = {
		{ 0, 0, 300, 1, 301, 301 },	{ 301, 301, 100, 1, 301, 301 },
		{ 300, 301, 200, 0, 300, 301 }, { 300, 301, 200, 1, 201, 276 },
		{ 200, 276, 270, 1, 200, 276 }, { 0, 311, 300, 1, 301, 308 },
		{ 0, 310, 300, 1, 0, 310 },	{ 0, 1200, 1100, 1, 0, 1200 },
	};
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		sa.util_est = steps[i][0];
		sa.util_est_ewma = steps[i][1];
		sa.util_avg = steps[i][2];
		cfsr_pelt_util_est_sample(p, &sa, 1024, steps[i][3]);
		assert_int_equal(sa.util_est, steps[i][4]);
		assert_int_equal(sa.util_est_ewma, steps[i][5]);
	}

	/* a period crossed: cfs_se_util_change() clears bit 0 */
	sa = (struct cfsr_sched_avg)CFSR_SCHED_AVG_INIT;
	sa.util_est = 301;
	sa.util_est_ewma = 301;
	sa.period_contrib = 1000;
	cfsr_pelt_update_se(p, 100 * 1024, &sa, W_NICE0, true, 1, true);
	assert_int_equal(sa.util_est, 300);
	assert_int_equal(cfsr_pelt_util_est_of(&sa), 301);

	/* enqueued 200, ewma 276: _task_util_est() 277 with the flag ORed in */
	sa.util_est = 200;
	sa.util_est_ewma = 276;
	sa.util_avg = 270;
	assert_int_equal(cfsr_pelt_task_util_est(p, &sa), 277);
	assert_int_equal(cfsr_pelt_task_util_est(&cfsr_pelt_params_v5_13, &sa), 276);
	assert_int_equal(cfsr_pelt_util_est_enqueue(p, 0, cfsr_pelt_util_est_of(&sa)), 277);
	assert_int_equal(cfsr_pelt_util_est_dequeue(p, 100, cfsr_pelt_util_est_of(&sa)), 0);
	assert_int_equal(cfsr_pelt_util_est_dequeue(p, 300, cfsr_pelt_util_est_of(&sa)), 23);

	/* the same sample under v5.13: the filter writes enqueued 270 | MSB */
	cfsr_pelt_util_est_sample(&cfsr_pelt_params_v5_13, &sa, 1024, true);
	assert_int_equal(sa.util_est, 270 | UTIL_AVG_UNCHANGED);
	assert_int_equal(sa.util_est_ewma, 276);
}

/*
 * Stable 5.10.36 (b89997aa88f0 on the LSB flag) against 5.10.35, then
 * 5.10.44 (68d7a190682a, the MSB flag): a sleep with enqueued 200 (flag
 * clear), EWMA 276 and util_avg 270.  The new enqueued is 271 with the LSB
 * flag; 271 - 276 = -5 is within the margin of 10.  5.10.35 writes nothing;
 * 5.10.36 has last_enqueued_diff = 200 - 271 = -71, outside: enqueued 271
 * written, the EWMA kept.  From enqueued 262: 262 - 271 = -9, within,
 * nothing; from 260: -11, outside, 271 (an odd enqueued has the flag:
 * no sample).  5.10.44 writes 270 with the MSB
 * flag (200 - 270 = -70).
 */
static void test_stable_util_est_filter(void **state)
{
	static const struct {
		const char *release;
		uint32_t enqueued, want;
	} cases[] = {
		{ "5.10.35", 200, 200 }, { "5.10.36", 200, 271 },
		{ "5.10.43", 262, 262 }, { "5.10.43", 260, 271 },
		{ "5.10.35", 260, 260 }, { "5.10.44", 200, 270 | UTIL_AVG_UNCHANGED },
	};
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sa.util_est = cases[i].enqueued;
		sa.util_est_ewma = 276;
		sa.util_avg = 270;
		cfsr_pelt_util_est_sample(cfsr_profile_for(cases[i].release)->pelt, &sa, 1024,
					  true);
		assert_int_equal(sa.util_est, cases[i].want);
		assert_int_equal(sa.util_est_ewma, 276);
	}
}

/* The two fields of a pair-layout util_est. */
static void assert_pair(const struct cfsr_sched_avg *sa, uint32_t enqueued, uint32_t ewma)
{
	assert_int_equal(sa->util_est, enqueued);
	assert_int_equal(sa->util_est_ewma, ewma);
}

/* A pair-layout sample: util_avg and runnable_avg set, then util_est_update(). */
static void pair_sample(const struct cfsr_pelt_params *params, struct cfsr_sched_avg *sa,
			uint64_t util, uint64_t runnable)
{
	sa->util_avg = util;
	sa->runnable_avg = runnable;
	cfsr_pelt_util_est_sample(params, sa, 1024, true);
}

/*
 * util_est_update() of v5.13-v6.7 (struct util_est { enqueued, ewma }), by
 * hand; F = UTIL_AVG_UNCHANGED = 2^31 in enqueued, margin 10 (-10 < d < 10):
 *  1. enqueued 0, ewma 0, util 300: UTIL_EST_FASTUP (0 < 300): ewma = 300,
 *     enqueued = 300 | F.
 *  2. flag set, util 100: no sample.
 *  3. flag cleared (an update crossed a period), util 100: old enqueued 300;
 *     last_ewma_diff = (u32)(100 - 300) = 2^32 - 200 as a long, -200 as the
 *     int within_margin() takes: outside; 100 > 1024 no; (1200 + 2^32 - 200)
 *     mod 2^32 = 1000, >> 2 = 250: ewma 250, enqueued 100 | F.
 *     _task_util_est() = max(250, 100) = 250.
 *  4. cleared, util 245: ewma diff -5 within; enqueued diff 100 - 245 = -145
 *     outside: enqueued = 245 | F, ewma stays 250.
 *  5. cleared, util 241: ewma diff -9 within; enqueued diff 4 within: nothing
 *     written, not even the flag (v6.8+ would set it): enqueued 245, clear.
 *  6. still clear, util 240, runnable 300: ewma diff -10 outside; v6.2+
 *     (runnable check): 240 + 10 < 300 keeps the EWMA, enqueued = 240 | F;
 *     v5.18-v6.1: (1000 - 10) >> 2 = 247 (247.5 floored), enqueued 240 | F.
 */
static void test_util_est_pair(void **state)
{
	const uint32_t F = UTIL_AVG_UNCHANGED;
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT, old;
	struct cfsr_pelt_params big = cfsr_pelt_params_v6_2;

	(void)state;
	pair_sample(&cfsr_pelt_params_v6_2, &sa, 300, 300);
	assert_pair(&sa, 300 | F, 300);

	pair_sample(&cfsr_pelt_params_v6_2, &sa, 100, 100);
	assert_pair(&sa, 300 | F, 300);

	cfsr_pelt_util_est_clear_unchanged(&sa);
	assert_int_equal(sa.util_est, 300);
	pair_sample(&cfsr_pelt_params_v6_2, &sa, 100, 100);
	assert_pair(&sa, 100 | F, 250);
	assert_int_equal(cfsr_pelt_util_est_of(&sa), 250);
	assert_int_equal(cfsr_pelt_task_util_est(&cfsr_pelt_params_v6_2, &sa), 250);

	cfsr_pelt_util_est_clear_unchanged(&sa);
	pair_sample(&cfsr_pelt_params_v6_2, &sa, 245, 245);
	assert_pair(&sa, 245 | F, 250);

	cfsr_pelt_util_est_clear_unchanged(&sa);
	pair_sample(&cfsr_pelt_params_v6_2, &sa, 241, 241);
	assert_pair(&sa, 245, 250);

	old = sa;
	pair_sample(&cfsr_pelt_params_v6_2, &sa, 240, 300);
	assert_pair(&sa, 240 | F, 250);
	pair_sample(&cfsr_pelt_params_v5_18, &old, 240, 300);
	assert_pair(&old, 240 | F, 247);

	/* Not a sleep: nothing. */
	sa.util_est = 0;
	sa.util_avg = 500;
	cfsr_pelt_util_est_sample(&cfsr_pelt_params_v6_2, &sa, 1024, false);
	assert_pair(&sa, 0, 250);

	/*
	 * Capacity: ewma 1200, util 1100 > 1024 writes nothing (the rise would
	 * come first); on a CPU of capacity 2048, (4800 - 100) >> 2 = 1175.
	 */
	sa.util_est = 0;
	sa.util_est_ewma = 1200;
	old = sa;
	pair_sample(&big, &sa, 1100, 1100);
	assert_pair(&sa, 0, 1200);
	old.util_avg = 1100;
	old.runnable_avg = 1100;
	cfsr_pelt_util_est_sample(&big, &old, 2048, true);
	assert_pair(&old, 1100 | F, 1175);

	/* The one-u32 path is unchanged through the dispatcher: (1600 - 10) / 4. */
	memset(&sa, 0, sizeof(sa));
	sa.util_est = 400;
	pair_sample(P, &sa, 390, 390);
	assert_pair(&sa, 397 | F, 0);
	/* the pair table leaves the one-u32 function alone */
	assert_int_equal(
		cfsr_pelt_util_est_update(&cfsr_pelt_params_v6_2, 400, 390, 390, 1024, true), 400);
}

/*
 * NO_UTIL_EST_FASTUP (a trace's feature, v5.7-v6.7): a sample above the
 * EWMA moves it by a quarter, as one below.  Pair layout (v5.13): enqueued
 * 0, ewma 100, util 500: 500 - 100 = 400 is outside the margin, so ewma =
 * (100 * 4 + 400) / 4 = 200 (500 with the feature).  LSB layout (v5.8):
 * enqueued 501 with the flag, (400 + 401) / 4 = 200 (501 with it).
 */
static void test_util_est_no_fastup(void **state)
{
	struct cfsr_pelt_params pair = cfsr_pelt_params_v5_13, lsb = cfsr_pelt_params_v5_8;
	struct cfsr_sched_avg sa;

	(void)state;
	pair.util_est_no_fastup = lsb.util_est_no_fastup = true;
	memset(&sa, 0, sizeof(sa));
	sa.util_est_ewma = 100;
	pair_sample(&cfsr_pelt_params_v5_13, &sa, 500, 500);
	assert_pair(&sa, 500 | UTIL_AVG_UNCHANGED, 500);
	memset(&sa, 0, sizeof(sa));
	sa.util_est_ewma = 100;
	pair_sample(&pair, &sa, 500, 500);
	assert_pair(&sa, 500 | UTIL_AVG_UNCHANGED, 200);

	memset(&sa, 0, sizeof(sa));
	sa.util_est_ewma = 100;
	pair_sample(&cfsr_pelt_params_v5_8, &sa, 500, 500);
	assert_pair(&sa, 501, 501);
	memset(&sa, 0, sizeof(sa));
	sa.util_est_ewma = 100;
	pair_sample(&lsb, &sa, 500, 500);
	assert_pair(&sa, 501, 200);
}

/* The root's enqueued sum gains and loses _task_util_est() = max(ewma, enqueued). */
static void test_util_est_pair_sums(void **state)
{
	const uint32_t F = UTIL_AVG_UNCHANGED;
	struct cfsr_sched_avg sa = CFSR_SCHED_AVG_INIT;
	uint32_t root = 500;

	(void)state;
	sa.util_est = 100 | F;
	sa.util_est_ewma = 250;
	sa.util_avg = 90;
	root = cfsr_pelt_util_est_enqueue(&cfsr_pelt_params_v6_2, root, cfsr_pelt_util_est_of(&sa));
	assert_int_equal(root, 750);
	/* enqueued above the EWMA counts instead; util_avg only in task_util_est() */
	sa.util_est = 300 | F;
	assert_int_equal(cfsr_pelt_util_est_of(&sa), 300);
	sa.util_avg = 320;
	assert_int_equal(cfsr_pelt_task_util_est(&cfsr_pelt_params_v6_2, &sa), 320);
	root = cfsr_pelt_util_est_dequeue(&cfsr_pelt_params_v6_2, root, 250);
	assert_int_equal(root, 500);
	root = cfsr_pelt_util_est_dequeue(&cfsr_pelt_params_v5_17, 100, 250);
	assert_int_equal(root, 0);
}

static void test_params(void **state)
{
	(void)state;
	assert_string_equal(cfsr_pelt_params_modern.name, "v6.16-v6.18");
	assert_string_equal(cfsr_pelt_params_v6_12.name, "v6.12-v6.15");
	assert_false(cfsr_pelt_params_modern.util_est_capacity_check);
	assert_true(cfsr_pelt_params_v6_12.util_est_capacity_check);
}

/*
 * A cfs_rq update that crosses no period still splits the next one's
 * accumulation: the part of the period before it is multiplied by the
 * load and decayed with the sum, where one update decays it alone first
 * (accumulate_sum()).  Kernel records of periodic-bpf's CPU0 root cfs_rq:
 * at 31934.098389502 lut 31903744988160, sums 41094093 / 95954514 /
 * 45942657, period_contrib 197; the tick's reweight of its one group
 * entity (weight 897402 -> 881923, se_weight 876 -> 861, its load_sum
 * 46868 in the record of 31934.098388631) leaves load_sum 41094093 - 876
 * * 46868 + 861 * 46868 = 40391073; the RT signal's record at
 * 31934.098396583 (lut 31903745000448) marks update_blocked_averages(),
 * which updates the root there; the next root record, at 31934.102387019
 * (rq clock_pelt 31903748985324), has lut 31903748984832, period_contrib
 * 4 and sums 40225341 / 95570333 / 45919430.  Load 881923 (861 scaled
 * down), two runnable, one running throughout.
 */
static void test_split_update_kernel_record(void **state)
{
	struct cfsr_sched_avg one = { .last_update_time = 31903744988160ull,
				      .load_sum = 40391073,
				      .runnable_sum = 95954514,
				      .util_sum = 45942657,
				      .period_contrib = 197 };
	struct cfsr_sched_avg two = one;

	(void)state;
	assert_int_equal(cfsr_pelt_update_cfs_rq(P, 31903745000448ull, &two, 881923, 2, true), 0);
	assert_int_equal(two.last_update_time, 31903745000448ull);
	cfsr_pelt_update_cfs_rq(P, 31903748985324ull, &two, 881923, 2, true);
	assert_int_equal(two.last_update_time, 31903748984832ull);
	assert_int_equal(two.period_contrib, 4);
	assert_int_equal(two.load_sum, 40225341);
	assert_int_equal(two.runnable_sum, 95570333);
	assert_int_equal(two.util_sum, 45919430);
	/* in one step the sums come out a few units lower */
	cfsr_pelt_update_cfs_rq(P, 31903748985324ull, &one, 881923, 2, true);
	assert_int_equal(one.last_update_time, 31903748984832ull);
	assert_true(one.load_sum < two.load_sum && two.load_sum - one.load_sum <= 4);
	assert_true(one.util_sum < two.util_sum && two.util_sum - one.util_sum <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_table),
		cmocka_unit_test(test_load_avg_max),
		cmocka_unit_test(test_decay_load),
		cmocka_unit_test(test_decay_load_wide),
		cmocka_unit_test(test_decay_load_vs_real),
		cmocka_unit_test(test_decay_load_legacy_zero),
		cmocka_unit_test(test_accumulate_segments),
		cmocka_unit_test(test_k_periods_one_update),
		cmocka_unit_test(test_per_unit_simulation),
		cmocka_unit_test(test_model_vectors),
		cmocka_unit_test(test_update_sum_edges),
		cmocka_unit_test(test_zero_load_masks),
		cmocka_unit_test(test_runnable_count),
		cmocka_unit_test(test_periods_truncated),
		cmocka_unit_test(test_update_avg),
		cmocka_unit_test(test_update_cfs_rq),
		cmocka_unit_test(test_update_se),
		cmocka_unit_test(test_grid_invariants),
		cmocka_unit_test(test_attach),
		cmocka_unit_test(test_detach_lower_bounds),
		cmocka_unit_test(test_lower_bound_u32),
		cmocka_unit_test(test_removed),
		cmocka_unit_test(test_reweight),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_post_init),
		cmocka_unit_test(test_util_est_update),
		cmocka_unit_test(test_util_est_sums),
		cmocka_unit_test(test_util_est_pair),
		cmocka_unit_test(test_util_est_pair_sums),
		cmocka_unit_test(test_util_est_no_fastup),
		cmocka_unit_test(test_post_init_v5_7),
		cmocka_unit_test(test_detach_resync),
		cmocka_unit_test(test_removed_resync),
		cmocka_unit_test(test_stable_removed_util),
		cmocka_unit_test(test_stable_util_est_filter),
		cmocka_unit_test(test_stable_attach_floor),
		cmocka_unit_test(test_util_est_lsb),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_split_update_kernel_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

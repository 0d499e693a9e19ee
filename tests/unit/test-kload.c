// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/kload.c: a CPU's kernel load is its latest root
 * cfs_rq record's load_avg, decayed to the instant, on hand-derived values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kload.h"
#include "profile.h"

/* A record's signal: load_avg @load at @lut (a period boundary: period_contrib 0). */
static struct cfsr_sched_avg rec(uint64_t lut, uint64_t load)
{
	struct cfsr_sched_avg a = { 0 };

	a.last_update_time = lut;
	a.period_contrib = 0;
	a.load_avg = load;
	/* load_avg = load_sum / (LOAD_AVG_MAX - 1024 + period_contrib) */
	a.load_sum = load * (47742 - 1024);
	return a;
}

/*
 * lut = 1000 periods of 1024 units of 1024 ns; the record at trace time
 * 5 ms with the PELT clock at lut.  32 periods later (33554432 ns) the sum
 * halves as decay_load() does it: 1024 * 46718 = 47839232, >> 1 =
 * 23919616, times 0xffffffff >> 32 = 23919615; / 46718 = 511 (511.99).
 * Within the current period (1000 units) nothing changes: 1024.
 */
static void test_decay(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_choose("6.18.0", NULL, NULL);
	const uint64_t lut = 1000ULL * 1024 * 1024, ts = 5000000;
	struct cfsr_sched_avg a = rec(lut, 1024);
	struct cfsr_kload *kl;
	uint64_t loads[2];

	(void)state;
	assert_non_null(prof);
	kl = cfsr_kload_new(2, prof->pelt);
	assert_non_null(kl);
	assert_false(cfsr_kload_known(kl, 0));
	assert_int_equal(cfsr_kload_at(kl, 0, ts), 0);
	cfsr_kload_record(kl, 0, ts, lut, &a);
	cfsr_kload_record(kl, 5, ts, lut, &a); /* out of range: ignored */
	assert_int_equal(cfsr_kload_records(kl), 1);
	assert_true(cfsr_kload_known(kl, 0));
	assert_false(cfsr_kload_known(kl, 1));
	assert_int_equal(cfsr_kload_at(kl, 0, ts), 1024);
	assert_int_equal(cfsr_kload_at(kl, 0, ts + 1000 * 1024), 1024);
	assert_int_equal(cfsr_kload_at(kl, 0, ts + 32ULL * 1024 * 1024), 511);
	/* a later record of CPU 1 at 2048, read at its own time */
	a = rec(lut, 2048);
	cfsr_kload_record(kl, 1, ts + 32ULL * 1024 * 1024, lut, &a);
	cfsr_kload_all(kl, ts + 32ULL * 1024 * 1024, loads);
	assert_int_equal(loads[0], 511);
	assert_int_equal(loads[1], 2048);
	cfsr_kload_free(kl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

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

#include "profile.h"

static void test_version(void **state)
{
	(void)state;
	assert_int_equal(cfsr_profile_version("6.18.44-fc-v1147"), 61844);
	assert_int_equal(cfsr_profile_version("6.12"), 61200);
	assert_int_equal(cfsr_profile_version("5.15.0-91-generic"), 51500);
	assert_int_equal(cfsr_profile_version("4.19.316"), 41999);
	assert_int_equal(cfsr_profile_version("6.6.0-rc3+"), 60600);
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
	p = cfsr_profile_for("6.6.30");
	assert_true(p->eevdf && !p->delay_dequeue && !p->implemented);
	p = cfsr_profile_for("5.15.0");
	assert_false(p->eevdf || p->implemented);
	p = cfsr_profile_for("3.19.0");
	assert_false(p->implemented);
	assert_null(cfsr_profile_for("2.6.32"));
	assert_null(cfsr_profile_for("7.0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_profiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

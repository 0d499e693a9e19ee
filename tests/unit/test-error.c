// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/error.c: messages reach the hook formatted, errno
 * text is appended, and codes map to their messages.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "error.h"

static char last[1024];

static void capture(const char *msg, void *data)
{
	(void)data;
	strncpy(last, msg, sizeof(last) - 1);
}

static void test_hook_and_format(void **state)
{
	(void)state;
	cfsr_error_set_hook(capture, NULL);
	assert_int_equal(cfsr_error("cannot open '%s'", "x.dat"), -1);
	assert_string_equal(last, "cannot open 'x.dat'");
	errno = ENOENT;
	assert_int_equal(cfsr_error_errno("cannot open '%s'", "y.dat"), -1);
	assert_string_equal(last, "cannot open 'y.dat': No such file or directory");
	cfsr_error_set_hook(NULL, NULL);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(cfsr_strerror(CFSR_OK), "success");
	assert_string_equal(cfsr_strerror(-CFSR_ERR_TRUNCATED), "file truncated");
	assert_string_equal(cfsr_strerror(CFSR_ERR_MAX), "unknown error");
	assert_string_equal(cfsr_strerror(100000), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook_and_format),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

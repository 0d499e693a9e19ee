// SPDX-License-Identifier: GPL-2.0-only
/*
 * Error reporting: one message helper with a replaceable hook, and the
 * table of error codes.  See error.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static const char *const err_msgs[] = {
#define X(code, msg) [code] = msg,
	CFSR_ERRORS
#undef X
};

const char *cfsr_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= CFSR_ERR_MAX)
		return "unknown error";
	return err_msgs[err];
}

static void default_hook(const char *msg, void *data)
{
	(void)data;
	fprintf(stderr, "cfsreplay: %s\n", msg);
}

static cfsr_error_fn error_hook = default_hook;
static void *error_hook_data;

void cfsr_error_set_hook(cfsr_error_fn fn, void *data)
{
	error_hook = fn ? fn : default_hook;
	error_hook_data = fn ? data : NULL;
}

static void report(const char *fmt, va_list ap, const char *suffix)
{
	char buf[1024];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		snprintf(buf, sizeof(buf), "error while formatting an error message");
	if (suffix) {
		size_t len = strlen(buf);

		snprintf(buf + len, sizeof(buf) - len, ": %s", suffix);
	}
	error_hook(buf, error_hook_data);
}

int cfsr_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int cfsr_error_errno(const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	report(fmt, ap, why);
	va_end(ap);
	return -1;
}

void cfsr_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cfsreplay: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort(); /* the one abort, behind CFSR_BUG() */
}

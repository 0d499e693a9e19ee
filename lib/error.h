/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error reporting for lib/ and formats/.
 *
 * Library code never prints to stdout and never exits.  Bad input is an
 * error: the code reports one message through cfsr_error() and returns a
 * failure.  Impossible internal states are bugs: CFSR_BUG() aborts with the
 * location.  Messages go to a replaceable hook, stderr by default, so that
 * the CLI can prefix them and tests can capture them.
 */
#ifndef CFSR_ERROR_H
#define CFSR_ERROR_H

#include <stdarg.h>

/*
 * Error codes for callers that branch on the cause.  One X-macro list holds
 * each code with its message; cfsr_strerror() reads it.
 */
#define CFSR_ERRORS                                  \
	X(CFSR_OK, "success")                        \
	X(CFSR_ERR_NOMEM, "out of memory")           \
	X(CFSR_ERR_IO, "input/output error")         \
	X(CFSR_ERR_FORMAT, "unknown file format")    \
	X(CFSR_ERR_TRUNCATED, "file truncated")      \
	X(CFSR_ERR_CORRUPT, "file corrupt")          \
	X(CFSR_ERR_NO_EVENTS, "no scheduler events") \
	X(CFSR_ERR_USAGE, "invalid usage")

enum cfsr_err {
#define X(code, msg) code,
	CFSR_ERRORS
#undef X
		CFSR_ERR_MAX
};

/**
 * cfsr_strerror() - message of an error code
 * @err: a value of enum cfsr_err, positive or negated
 *
 * Return: a static string; "unknown error" for values out of range.
 */
const char *cfsr_strerror(int err);

typedef void (*cfsr_error_fn)(const char *msg, void *data);

/**
 * cfsr_error_set_hook() - route error messages
 * @fn: called with each formatted message (no trailing newline); NULL
 *      restores the default, which prints "cfsreplay: <msg>" on stderr
 * @data: passed to @fn
 */
void cfsr_error_set_hook(cfsr_error_fn fn, void *data);

/**
 * cfsr_error() - report an error
 * @fmt: printf format of the message: lower case, no final full stop
 *
 * Return: -1, so that callers can write "return cfsr_error(...);".
 */
int cfsr_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * cfsr_error_errno() - report an error with strerror(errno) appended
 * @fmt: printf format of the message
 *
 * Return: -1.
 */
int cfsr_error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print the location and abort: for impossible states only, never bad input. */
void cfsr_bug(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define CFSR_BUG(...) cfsr_bug(__FILE__, __LINE__, __VA_ARGS__)

#endif /* CFSR_ERROR_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Run a risky library call in a child process first.
 *
 * The tracing libraries parse metadata from the file (event formats) with
 * code that can crash on corrupt input.  A reader that must not crash runs
 * such a parse once in a forked child: if the child dies of a signal, the
 * file is reported corrupt instead of taking the process down.
 */
#ifndef CFSR_SANDBOX_H
#define CFSR_SANDBOX_H

/**
 * cfsr_sandbox_try() - run @fn(@arg) in a forked child
 * @fn: returns 0 on success, anything else on failure
 * @arg: passed to @fn
 *
 * Return: 0 if @fn returned 0 in the child, 1 if it failed, 2 if the child
 * crashed, -1 if no child could be started (the caller may then decide to
 * run @fn directly).
 */
int cfsr_sandbox_try(int (*fn)(void *), void *arg);

#endif /* CFSR_SANDBOX_H */

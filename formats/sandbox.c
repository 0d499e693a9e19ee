// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run a risky library call in a forked child first.  See sandbox.h.
 *
 * The child ends with _exit(), which skips the parent's atexit handlers
 * and stdio buffers it inherited: this file is the one place in lib/ and
 * formats/ allowed to end a process, and only the child it created.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox.h"

int cfsr_sandbox_try(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid, w;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		size_t i;
		int null_fd;

		/* die of the signal even where the parent catches it (test harnesses do) */
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		/* the probe is silent: the parent reports the outcome */
		null_fd = open("/dev/null", O_WRONLY);
		if (null_fd >= 0) {
			dup2(null_fd, STDOUT_FILENO);
			dup2(null_fd, STDERR_FILENO);
			close(null_fd);
		}
		_exit(fn(arg) == 0 ? 0 : 1);
	}
	do {
		w = waitpid(pid, &status, 0);
	} while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 2;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver of the PELT capture (formats/peltcap.c): captures the
 * kernel's PELT updates while a command runs, the way `cfsreplay record
 * --pelt` does, and writes the pelt.jsonl(.gz).
 *
 *   pelt-capture -o FILE [-m MARKER -l LOG] -- COMMAND [ARG...]
 *
 * -m writes "pelt-sync N" into MARKER (a tracefs trace_marker) every 100 ms
 * and logs "N mono_before mono_after" (CLOCK_MONOTONIC around the write)
 * into LOG, so that a test can measure the offset between the records'
 * ktime and the trace's clock independently of the capture's own
 * calibration.
 *
 * Prints "records N lost M seconds S" on stdout.  Exit status: 0, 1 when
 * the command failed or the file could not be written, 2 usage, 77 when
 * the capture cannot start (the reason on stderr), so that tests skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "peltcap.h"

#define EXIT_SKIP 77

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: pelt-capture -o FILE [-m MARKER -l LOG] -- COMMAND [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *marker = NULL, *log_path = NULL;
	struct cfsr_pelt_capture *cap;
	uint64_t records, lost, start, next_sync, n = 0;
	FILE *log = NULL;
	int opt, mfd = -1, status = 0, ret = 0;
	char why[256];
	pid_t child;

	while ((opt = getopt(argc, argv, "+o:m:l:")) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'm':
			marker = optarg;
			break;
		case 'l':
			log_path = optarg;
			break;
		default:
			return usage();
		}
	}
	if (!out || optind >= argc || !marker != !log_path)
		return usage();
	if (marker) {
		mfd = open(marker, O_WRONLY | O_CLOEXEC);
		log = fopen(log_path, "w");
		if (mfd < 0 || !log) {
			fprintf(stderr, "pelt-capture: cannot open '%s' or '%s': %s\n", marker,
				log_path, strerror(errno));
			return 1;
		}
	}

	cap = cfsr_pelt_capture_start(out, why, sizeof(why));
	if (!cap) {
		fprintf(stderr, "pelt-capture: no PELT capture: %s\n", why);
		return EXIT_SKIP;
	}
	start = mono_ns();
	child = fork();
	if (child < 0) {
		perror("pelt-capture: fork");
		cfsr_pelt_capture_stop(cap, NULL, NULL);
		return 1;
	}
	if (child == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "pelt-capture: cannot run '%s': %s\n", argv[optind],
			strerror(errno));
		_exit(127);
	}
	next_sync = start;
	for (;;) {
		pid_t w = waitpid(child, &status, WNOHANG);

		if (w == child)
			break;
		if (w < 0 && errno != EINTR) {
			perror("pelt-capture: waitpid");
			ret = 1;
			break;
		}
		if (mfd >= 0 && mono_ns() >= next_sync) {
			char buf[32];
			uint64_t before, after;
			int len = snprintf(buf, sizeof(buf), "pelt-sync %" PRIu64, n);

			before = mono_ns();
			if (write(mfd, buf, (size_t)len) != len)
				perror("pelt-capture: marker");
			after = mono_ns();
			fprintf(log, "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", n, before, after);
			n++;
			next_sync += 100000000;
		}
		if (cfsr_pelt_capture_poll(cap, 20) < 0) {
			ret = 1;
			break;
		}
	}
	if (cfsr_pelt_capture_stop(cap, &records, &lost) < 0)
		ret = 1;
	printf("records %" PRIu64 " lost %" PRIu64 " seconds %.3f\n", records, lost,
	       (double)(mono_ns() - start) / 1e9);
	if (log && fclose(log) != 0)
		ret = 1;
	if (mfd >= 0)
		close(mfd);
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		fprintf(stderr, "pelt-capture: the command failed\n");
		ret = 1;
	}
	return ret;
}

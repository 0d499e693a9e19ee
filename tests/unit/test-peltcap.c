// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the PELT capture (formats/peltcap.c).
 *
 * - Without permission, or with an output path that cannot be created, the
 *   capture does not start and says why; cfsr_pelt_capture_stop(NULL)
 *   fails cleanly.
 * - With root and BTF: a child at nice 5 with a known name spins for a
 *   while under the capture; the file, read back with formats/truth.c,
 *   has a header whose counts equal the records per type, the child's task
 *   records with the kernel's weight for nice 5 (sched_prio_to_weight[25]
 *   = 335, scaled by 1024), last_update_time on 1024 ns steps and
 *   period_contrib below 1024, and root cfs_rq records with the root
 *   group's shares (ROOT_TASK_GROUP_LOAD = NICE_0_LOAD = 1048576).
 *   Without root or BTF these skip.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "peltcap.h"
#include "truthfile.h"

#define CHILD_COMM "cfsr-ut-spin"
#define CHILD_NICE 5
/* kernel/sched/core.c sched_prio_to_weight[], nice 5, times 1024 (scale_load()) */
#define NICE5_WEIGHT (335 * 1024)
#define ROOT_SHARES (1024 * 1024)

static char last_error[512];

static void error_hook(const char *msg, void *data)
{
	(void)data;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

/* Start a capture into @path; NULL (a message printed) when the kernel does not allow it. */
static struct cfsr_pelt_capture *cap_start(const char *path)
{
	struct cfsr_pelt_capture *cap;
	char why[256];

	if (geteuid() != 0 || access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		print_message("skipped: needs root and /sys/kernel/btf/vmlinux\n");
		return NULL;
	}
	cap = cfsr_pelt_capture_start(path, why, sizeof(why));
	if (!cap)
		print_message("skipped: %s\n", why);
	return cap;
}

static void test_stop_null(void **state)
{
	uint64_t records = 7, lost = 7;

	(void)state;
	assert_int_equal(cfsr_pelt_capture_stop(NULL, &records, &lost), -1);
	assert_int_equal(records, 0);
	assert_int_equal(lost, 0);
}

static void test_bad_path(void **state)
{
	struct cfsr_pelt_capture *cap;
	char why[256];

	(void)state;
	if (geteuid() != 0 || access("/sys/kernel/btf/vmlinux", R_OK) < 0)
		skip();
	cap = cfsr_pelt_capture_start("/nonexistent-dir/pelt.jsonl", why, sizeof(why));
	assert_null(cap);
	assert_non_null(strstr(why, "cannot create '/nonexistent-dir/pelt.jsonl'"));
}

/* Run as nobody (no CAP_BPF, no CAP_PERFMON) in a child; its verdict comes back through a pipe. */
static void test_no_permission(void **state)
{
	char why[256] = "", verdict = 0;
	int fds[2], status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cfsr_pelt_capture *cap;

		close(fds[0]);
		if (setgid(65534) < 0 || setuid(65534) < 0)
			verdict = 's';
		else if ((cap = cfsr_pelt_capture_start("/tmp/cfsr-peltcap-nobody.jsonl", why,
							sizeof(why))))
			verdict = 'c';
		else
			verdict = strstr(why, "no permission") ? 'y' : 'n';
		if (write(fds[1], &verdict, 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &verdict, 1), 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(verdict, 'y');
	assert_int_equal(access("/tmp/cfsr-peltcap-nobody.jsonl", F_OK), -1);
}

/* The calling thread's CPU time: the spinner runs 80 ms of it however busy the machine is. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A child at nice 5 named CHILD_COMM that spins for 80 ms of CPU time once a byte
 * arrives on @go.  It is forked before the capture starts, so that it holds
 * none of the capture's memory (valgrind checks every exit for leaks).
 */
static pid_t spawn_spinner(int *go)
{
	int fds[2];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		volatile unsigned long x = 0;
		double end;
		char c;

		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(1);
		/* nice first: records under the new name all carry the nice 5 weight */
		if (setpriority(PRIO_PROCESS, 0, CHILD_NICE) < 0)
			_exit(1);
		prctl(PR_SET_NAME, CHILD_COMM, 0, 0, 0);
		end = cpu_s() + 0.08;
		while (cpu_s() < end)
			x++;
		_exit(0);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}

static void test_roundtrip(void **state)
{
	char path[] = "/tmp/cfsr-peltcap-XXXXXX.jsonl.gz";
	uint64_t records, lost, read_by_type[CFSR_PELT_NR] = { 0 }, total = 0;
	uint64_t child_se = 0, root_cfs = 0;
	const struct cfsr_pelt_hdr *hdr;
	struct cfsr_truth_reader *r;
	struct cfsr_pelt_capture *cap;
	struct cfsr_truth_item item;
	int fd, go, status, i, ret;
	pid_t child;

	(void)state;
	fd = mkstemps(path, 9);
	assert_true(fd >= 0);
	close(fd);
	child = spawn_spinner(&go);
	cap = cap_start(path);
	if (!cap) {
		close(go);
		waitpid(child, &status, 0);
		unlink(path);
		skip();
	}
	assert_int_equal(write(go, "g", 1), 1);
	close(go);
	for (i = 0; i < 20; i++)
		assert_true(cfsr_pelt_capture_poll(cap, 10) >= 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(cfsr_pelt_capture_stop(cap, &records, &lost), 0);
	assert_true(records > 0);

	r = cfsr_truth_open(path);
	assert_non_null(r);
	assert_int_equal(cfsr_truth_format(r), CFSR_TRUTH_FMT_PELT);
	while ((ret = cfsr_truth_next(r, &item)) > 0) {
		const struct cfsr_pelt_rec *p = &item.pelt;

		assert_int_equal(item.kind, CFSR_TRUTH_PELT);
		if (p->type == CFSR_PELT_HDR)
			continue;
		assert_int_not_equal(p->type, CFSR_PELT_OTHER);
		read_by_type[p->type]++;
		total++;
		assert_int_equal(p->avg_fields, CFSR_AVG_ALL);
		assert_true(p->avg.period_contrib < 1024);
		assert_int_equal(p->avg.last_update_time % 1024, 0);
		/* before its prctl() the child still has the parent's name */
		if (p->type == CFSR_PELT_SE && p->tid == child && !strcmp(p->comm, CHILD_COMM)) {
			assert_int_equal(p->pid, child);
			assert_int_equal(p->weight, NICE5_WEIGHT);
			child_se++;
		}
		if (p->type == CFSR_PELT_CFS && p->root == 1) {
			assert_string_equal(p->tg, "/");
			assert_int_equal(p->level, 0);
			assert_int_equal(p->tg_shares, ROOT_SHARES);
			root_cfs++;
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(cfsr_truth_skipped(r), 0);
	hdr = cfsr_truth_pelt_hdr(r);
	assert_non_null(hdr);
	assert_string_equal(hdr->format, "pelt-bpf/1");
	assert_int_equal(hdr->dropped, (int64_t)lost);
	assert_true(hdr->sent >= (int64_t)total);
	for (i = CFSR_PELT_SE; i <= CFSR_PELT_RT; i++)
		assert_int_equal(hdr->counts[i], (int64_t)read_by_type[i]);
	assert_int_equal(total, records);
	/* 80 ms of running crosses dozens of 1024 us PELT periods */
	print_message("records %llu, of the child %llu, root cfs_rq %llu\n",
		      (unsigned long long)records, (unsigned long long)child_se,
		      (unsigned long long)root_cfs);
	assert_true(child_se >= 10);
	assert_true(root_cfs >= 10);
	cfsr_truth_close(r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_null),
		cmocka_unit_test(test_bad_path),
		cmocka_unit_test(test_no_permission),
		cmocka_unit_test(test_roundtrip),
	};

	cfsr_error_set_hook(error_hook, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

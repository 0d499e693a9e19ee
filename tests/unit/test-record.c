// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the recorder's parts that need no root (formats/record*.c,
 * and td_append_section() of formats/tracedat-write.c that it relies on).
 *
 * - sched/debug numbers: "ms.nnnnnn" as SPLIT_NS() in kernel/sched/debug.c
 *   prints them, converted by hand to nanoseconds.
 * - A section appended to a bundled trace: the trace still reads to the
 *   same events (same count, same first and last time), the layout finds
 *   the section, and the truth reader streams the gzip content of the
 *   section straight from the trace, line for line as written.  A trace
 *   without that section is refused with a clear message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "error.h"
#include "formats.h"
#include "record-local.h"
#include "record.h"
#include "tracedat-local.h"
#include "tracedat-write.h"
#include "truthfile.h"

static const char *srcdir(void)
{
	const char *d = getenv("CFSR_SRCDIR");

	return d ? d : ".";
}

static char last_error[1024];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

static void test_parse_value(void **state)
{
	static const struct {
		const char *text;
		int ret;
		int64_t v;
	} cases[] = {
		/* 18463898 ms + 268024 ns */
		{ "      18463898.268024", 0, 18463898268024LL },
		{ " 0.000001", 0, 1 },
		{ " 1.400000", 0, 1400000 },
		/* nsec_high() and nsec_low() of -1234567 ns: "-1.234567" */
		{ " -1.234567", 0, -1234567 },
		{ " 47104", 0, 47104 },
		{ " -1", 0, -1 },
		/* jiffies printed through SPLIT_NS: the digits run on */
		{ " 4299.546041", 0, 4299546041LL },
		{ " 1 (logarithmic)", 0, 1 },
		/* fewer than 6 decimals still mean microseconds-and-below digits */
		{ " 2.5", 0, 2500000 },
		{ " 1.2345678", -1, 0 },
		{ " abc", -1, 0 },
		{ "", -1, 0 },
		{ " 12abc", -1, 0 },
		{ " -", -1, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 0;
		int ret = rs_parse_value(cases[i].text, &v);

		assert_int_equal(ret, cases[i].ret);
		if (!ret)
			assert_int_equal(v, cases[i].v);
	}
}

static void copy_file(const char *src, const char *dst)
{
	char buf[65536];
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

static void read_all(const char *path, uint64_t *n, uint64_t *first, uint64_t *last)
{
	struct cfsr_trace *t = cfsr_trace_open(path);
	struct cfsr_event ev;
	int ret;

	assert_non_null(t);
	while ((ret = cfsr_trace_next(t, &ev)) > 0)
		;
	assert_int_equal(ret, 0);
	*n = t->stats.records;
	*first = t->stats.first_ts;
	*last = t->stats.last_ts;
	cfsr_trace_close(t);
}

static const char *const lines[] = {
	"{\"seq\":0,\"kind\":\"snap\",\"trace_ts_begin\":100,\"trace_ts_mid\":200,\"trace_ts_end\":300}",
	"{\"seq\":0,\"kind\":\"cpu\",\"cpu\":1,\"clock\":5000,\"clock_task\":4000}",
	"{\"seq\":0,\"kind\":\"task\",\"pid\":7,\"tid\":8,\"comm\":\"x\",\"se.avg.util_avg\":321}",
};

/*
 * A sched/features line: its names in bit order without NO_, the bits of
 * those without it (here 0, 1 and 3: 11); NONTASK_CAPACITY keeps its
 * "NO", which is no prefix.
 */
static void test_parse_sched_features(void **state)
{
	char line[] =
		"PLACE_LAG PLACE_DEADLINE_INITIAL NO_NEXT_BUDDY NONTASK_CAPACITY NO_HRTICK \n";
	static const char *const want[] = { "PLACE_LAG", "PLACE_DEADLINE_INITIAL", "NEXT_BUDDY",
					    "NONTASK_CAPACITY", "HRTICK" };
	struct json_object *names = json_object_new_array();
	char empty[] = " \n", many[65 * 3 + 1];
	uint64_t mask;
	size_t i;

	(void)state;
	assert_int_equal(rs_parse_sched_features(line, names, &mask), 0);
	assert_int_equal(mask, 11);
	assert_int_equal(json_object_array_length(names), 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(json_object_get_string(json_object_array_get_idx(names, i)),
				    want[i]);
	json_object_put(names);

	names = json_object_new_array();
	assert_int_equal(rs_parse_sched_features(empty, names, &mask), -1);
	for (i = 0; i < 65; i++)
		memcpy(many + 3 * i, "AB ", 3);
	many[65 * 3] = '\0';
	assert_int_equal(rs_parse_sched_features(many, names, &mask), -1);
	json_object_put(names);
}

/* Append the lines above to traces/@name.dat, as the recorder does, and read them back. */
static void append_truth(const char *name)
{
	char src[4096], dst[] = "/tmp/cfsr-test-record-XXXXXX", gzpath[] = "/tmp/cfsr-gz-XXXXXX";
	uint64_t n0, f0, l0, n1, f1, l1;
	struct cfsr_truth_reader *tr;
	struct cfsr_truth_item it;
	struct td_layout l;
	gzFile gz;
	int fd, gfd;
	size_t i;

	snprintf(src, sizeof(src), "%s/traces/%s.dat", srcdir(), name);
	fd = mkstemp(dst);
	assert_true(fd >= 0);
	close(fd);
	copy_file(src, dst);
	read_all(dst, &n0, &f0, &l0);

	gfd = mkstemp(gzpath);
	assert_true(gfd >= 0);
	gz = gzdopen(dup(gfd), "wb");
	assert_non_null(gz);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_true(gzprintf(gz, "%s\n", lines[i]) > 0);
	assert_int_equal(gzclose(gz), Z_OK);
	assert_int_equal(lseek(gfd, 0, SEEK_SET), 0);
	assert_int_equal(td_append_section(dst, CFSR_SEC_TRUTH, gfd), 0);
	close(gfd);
	unlink(gzpath);

	/* the events are untouched */
	read_all(dst, &n1, &f1, &l1);
	assert_int_equal(n1, n0);
	assert_int_equal(f1, f0);
	assert_int_equal(l1, l0);
	fd = open(dst, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(td_layout_read(dst, fd, &l), 0);
	assert_true(l.sec_record_truth > 0);
	td_layout_release(&l);
	close(fd);

	/* the truth reader takes the trace itself */
	tr = cfsr_truth_open(dst);
	assert_non_null(tr);
	assert_int_equal(cfsr_truth_next(tr, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_SNAP);
	assert_int_equal(it.snap.trace_ts_mid, 200);
	assert_int_equal(cfsr_truth_next(tr, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_CPU);
	assert_int_equal(it.cpu.clock_task, 4000);
	assert_int_equal(cfsr_truth_next(tr, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_TASK);
	assert_int_equal(it.task.tid, 8);
	assert_int_equal(it.task.avg.util_avg, 321);
	/* the bytes after the gzip stream (the new options) are not lines */
	assert_int_equal(cfsr_truth_next(tr, &it), 0);
	assert_int_equal(cfsr_truth_skipped(tr), 0);
	cfsr_truth_close(tr);
	unlink(dst);
}

static void test_append_zstd(void **state)
{
	(void)state;
	append_truth("periodic"); /* v7, zstd */
}

static void test_append_none(void **state)
{
	(void)state;
	append_truth("cgroups"); /* v7, uncompressed */
}

/* A damaged gzip stream in the section is an error, never a quiet end. */
static void test_corrupt_truth(void **state)
{
	char src[4096], dst[] = "/tmp/cfsr-test-record-XXXXXX", junk[] = "/tmp/cfsr-junk-XXXXXX";
	struct cfsr_truth_reader *tr;
	struct cfsr_truth_item it;
	unsigned char gzhead[64] = { 0x1f, 0x8b, 8, 0 };
	int fd, jfd, ret;
	size_t i;

	(void)state;
	snprintf(src, sizeof(src), "%s/traces/periodic.dat", srcdir());
	fd = mkstemp(dst);
	assert_true(fd >= 0);
	close(fd);
	copy_file(src, dst);
	/* a gzip header followed by garbage deflate data */
	for (i = 10; i < sizeof(gzhead); i++)
		gzhead[i] = (unsigned char)(0xff - i);
	jfd = mkstemp(junk);
	assert_true(jfd >= 0);
	assert_int_equal(write(jfd, gzhead, sizeof(gzhead)), sizeof(gzhead));
	assert_int_equal(lseek(jfd, 0, SEEK_SET), 0);
	assert_int_equal(td_append_section(dst, CFSR_SEC_TRUTH, jfd), 0);
	close(jfd);
	unlink(junk);
	last_error[0] = '\0';
	cfsr_error_set_hook(capture, NULL);
	tr = cfsr_truth_open(dst);
	ret = tr ? cfsr_truth_next(tr, &it) : -1;
	cfsr_error_set_hook(NULL, NULL);
	assert_int_equal(ret, -1);
	assert_true(last_error[0] != '\0');
	cfsr_truth_close(tr);
	unlink(dst);
}

static void test_no_embedded_truth(void **state)
{
	char src[4096];

	(void)state;
	snprintf(src, sizeof(src), "%s/traces/periodic.dat", srcdir());
	last_error[0] = '\0';
	cfsr_error_set_hook(capture, NULL);
	assert_null(cfsr_truth_open(src));
	cfsr_error_set_hook(NULL, NULL);
	assert_non_null(strstr(last_error, "holds no kernel snapshots"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_value),
		cmocka_unit_test(test_append_zstd),
		cmocka_unit_test(test_append_none),
		cmocka_unit_test(test_corrupt_truth),
		cmocka_unit_test(test_no_embedded_truth),
		cmocka_unit_test(test_parse_sched_features),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for putting a truth file's times on a trace's clock
 * (formats/clockfeed.c, cfsr_clock_map_find() and the feed).
 *
 * Hand-written files, values chosen by hand:
 * - a pelt.jsonl on "local" read for a trace on "perf" is moved by the
 *   largest rq clock - record time of its records (here 700 - 100 = 600
 *   beats 900 - 400 = 500 and 2000 - 1500 = 500), and its readings come out
 *   moved by that much; for a trace on "local" nothing moves; on "mono" a
 *   record's ktime is its time; a clock with no known relation, or an
 *   unknown one, is flagged as taken to be the same;
 * - a truth.jsonl whose sched_clk falls between its markers is on "local",
 *   and each snapshot's readings move by its own cpu_clk - sched_clk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clockfeed.h"

static const char pelt_local[] =
	"{\"type\":\"hdr\",\"format\":\"pelt-bpf/1\",\"clock\":{\"trace_clock\":\"local\","
	"\"offset_ns\":50}}\n"
	"{\"ts\":400,\"ktime\":350,\"type\":\"se\",\"cpu\":0,\"rq_cpu\":0,\"clock\":900,"
	"\"clock_task\":900,\"clock_pelt\":880,\"lost_idle_time\":0}\n"
	"{\"ts\":100,\"ktime\":50,\"type\":\"cfs\",\"cpu\":1,\"rq_cpu\":1,\"clock\":700,"
	"\"clock_task\":700,\"clock_pelt\":690,\"lost_idle_time\":10}\n"
	"{\"ts\":1500,\"ktime\":1450,\"type\":\"ue_cfs\",\"cpu\":0,\"rq_cpu\":0,\"clock\":2000,"
	"\"clock_task\":2000,\"clock_pelt\":1990,\"lost_idle_time\":0}\n";

static const char pelt_unnamed[] =
	"{\"type\":\"hdr\",\"format\":\"pelt-bpf/1\",\"clock\":{\"offset_ns\":50}}\n"
	"{\"ts\":400,\"ktime\":350,\"type\":\"se\",\"cpu\":0,\"rq_cpu\":0,\"clock\":900,"
	"\"clock_task\":900,\"clock_pelt\":880,\"lost_idle_time\":0}\n";

/* sched_clk 1050 lies between the markers 1000..1100: the markers are on "local" */
static const char truth_local[] =
	"{\"seq\":1,\"kind\":\"snap\",\"trace_ts_begin\":1000,\"trace_ts_mid\":1040,"
	"\"trace_ts_end\":1100,\"sched_clk\":1050,\"cpu_clk\":750}\n"
	"{\"seq\":1,\"kind\":\"cpu\",\"cpu\":0,\"clock\":760,\"clock_task\":700}\n"
	"{\"seq\":2,\"kind\":\"snap\",\"trace_ts_begin\":5000,\"trace_ts_mid\":5020,"
	"\"trace_ts_end\":5100,\"sched_clk\":5060,\"cpu_clk\":4770}\n"
	"{\"seq\":2,\"kind\":\"cpu\",\"cpu\":1,\"clock\":4780,\"clock_task\":4700}\n";

static void write_file(char *path, size_t len, const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, len, "/tmp/cfsr-clockfeed-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* The readings of @path mapped by @m: their times into @ts, count returned. */
static int readings(const char *path, const struct cfsr_clock_map *m, uint64_t *ts, int max)
{
	struct cfsr_clock_feed *f = cfsr_clock_feed_open(path);
	struct cfsr_clock_reading rd;
	int n = 0;

	assert_non_null(f);
	cfsr_clock_feed_align(f, m);
	while (cfsr_clock_feed_next(f, &rd) > 0) {
		assert_true(n < max);
		ts[n++] = rd.ts;
	}
	cfsr_clock_feed_close(f);
	return n;
}

static void test_pelt_local_onto_perf(void **state)
{
	struct cfsr_clock_map m;
	char path[64];
	uint64_t ts[4];

	(void)state;
	write_file(path, sizeof(path), pelt_local);
	assert_int_equal(cfsr_clock_map_find(path, "perf", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_SHIFTED);
	assert_string_equal(m.from, "local");
	assert_int_equal(m.shift, 600);
	assert_int_equal(m.support, 3);
	assert_int_equal(readings(path, &m, ts, 4), 3);
	assert_int_equal(ts[0], 1000);
	assert_int_equal(ts[1], 700);
	assert_int_equal(ts[2], 2100);
	/* and the same for validate's records */
	assert_int_equal(cfsr_clock_map_pelt_ts(&m, 400, 350), 1000);
	unlink(path);
}

static void test_pelt_other_clocks(void **state)
{
	struct cfsr_clock_map m;
	char path[64];
	uint64_t ts[4];

	(void)state;
	write_file(path, sizeof(path), pelt_local);
	assert_int_equal(cfsr_clock_map_find(path, "local", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_SAME);
	assert_int_equal(readings(path, &m, ts, 4), 3);
	assert_int_equal(ts[0], 400);

	assert_int_equal(cfsr_clock_map_find(path, "mono", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_KTIME);
	assert_int_equal(readings(path, &m, ts, 4), 3);
	assert_int_equal(ts[0], 350);
	assert_int_equal(ts[2], 1450);

	assert_int_equal(cfsr_clock_map_find(path, "boot", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_UNALIGNED);
	assert_int_equal(cfsr_clock_map_find(path, NULL, &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_ASSUMED);
	unlink(path);

	write_file(path, sizeof(path), pelt_unnamed);
	assert_int_equal(cfsr_clock_map_find(path, "perf", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_ASSUMED);
	assert_null(m.from);
	unlink(path);
}

static void test_truth_local_onto_perf(void **state)
{
	struct cfsr_clock_map m;
	char path[64], line[512];
	uint64_t ts[4];

	(void)state;
	write_file(path, sizeof(path), truth_local);
	assert_int_equal(cfsr_clock_map_find(path, "perf", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_SHIFTED);
	assert_string_equal(m.from, "local");
	assert_int_equal(m.shift, 750 - 1050);
	/* a snapshot's reading time is the middle of truth-mid and truth-end */
	assert_int_equal(readings(path, &m, ts, 4), 2);
	assert_int_equal(ts[0], 1070 + 750 - 1050);
	assert_int_equal(ts[1], 5060 + 4770 - 5060);
	cfsr_clock_map_describe(&m, "t.jsonl", line, sizeof(line));
	assert_non_null(strstr(line, "moved from clock local onto the trace's perf by -300 ns"));

	assert_int_equal(cfsr_clock_map_find(path, "local", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_SAME);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pelt_local_onto_perf),
		cmocka_unit_test(test_pelt_other_clocks),
		cmocka_unit_test(test_truth_local_onto_perf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

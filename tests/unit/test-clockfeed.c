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
 * - a truth.jsonl whose sched_clk falls between its markers is on "local";
 *   a cpu row's reading holds at its rq->clock (local_clock(), the "perf"
 *   clock), moved onto "local" by the smallest cpu_clk - sched_clk of the
 *   headers (-300 beats -290), in time order whatever the file's order,
 *   and holds until its snapshot's truth-mid when it is older than that.
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
#include "formats.h"
#include "replay.h"

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

/*
 * sched_clk 1050 lies between the markers 1000..1100: the markers are on
 * "local"; cpu_clk - sched_clk is -300, -290, -300; snapshot 3 lists an
 * rq whose clock was last updated before snapshot 2's cpu 1 reading
 * (cpu 1, 4790 after 4780 in its own order) after a recent one (cpu 0)
 */
static const char truth_local[] =
	"{\"seq\":1,\"kind\":\"snap\",\"trace_ts_begin\":1000,\"trace_ts_mid\":1040,"
	"\"trace_ts_end\":1100,\"sched_clk\":1050,\"cpu_clk\":750}\n"
	"{\"seq\":1,\"kind\":\"cpu\",\"cpu\":0,\"clock\":760,\"clock_task\":700}\n"
	"{\"seq\":2,\"kind\":\"snap\",\"trace_ts_begin\":5000,\"trace_ts_mid\":5020,"
	"\"trace_ts_end\":5100,\"sched_clk\":5060,\"cpu_clk\":4770}\n"
	"{\"seq\":2,\"kind\":\"cpu\",\"cpu\":1,\"clock\":4780,\"clock_task\":4700}\n"
	"{\"seq\":3,\"kind\":\"snap\",\"trace_ts_begin\":9000,\"trace_ts_mid\":9040,"
	"\"trace_ts_end\":9100,\"sched_clk\":9050,\"cpu_clk\":8750}\n"
	"{\"seq\":3,\"kind\":\"cpu\",\"cpu\":0,\"clock\":8500,\"clock_task\":8400}\n"
	"{\"seq\":3,\"kind\":\"cpu\",\"cpu\":1,\"clock\":4790,\"clock_task\":4705}\n";

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

/*
 * The readings of @path mapped by @m: their times into @ts, the times they
 * hold until into @until (if not NULL), count returned.
 */
static int readings_until(const char *path, const struct cfsr_clock_map *m, uint64_t *ts,
			  uint64_t *until, int max)
{
	struct cfsr_clock_feed *f = cfsr_clock_feed_open(path);
	struct cfsr_clock_reading rd;
	int n = 0;

	assert_non_null(f);
	cfsr_clock_feed_align(f, m);
	while (cfsr_clock_feed_next(f, &rd) > 0) {
		assert_true(n < max);
		if (until)
			until[n] = rd.until;
		ts[n++] = rd.ts;
	}
	cfsr_clock_feed_close(f);
	return n;
}

static int readings(const char *path, const struct cfsr_clock_map *m, uint64_t *ts, int max)
{
	return readings_until(path, m, ts, NULL, max);
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

/* The clock the engine of release @rel takes from @rd; @cap: CPU 1's capacity. */
static uint64_t engine_clock(const struct cfsr_clock_reading *rd, const char *rel, uint32_t cap,
			     uint64_t *lost)
{
	struct cfsr_replay *r = cfsr_replay_new(2, cfsr_profile_for(rel), 250);
	uint64_t clock;

	assert_non_null(r);
	cfsr_replay_set_capacity(r, 1, cap);
	clock = cfsr_replay_reading_clock(r, rd->cpu, rd->clock_task, rd->clock_pelt,
					  rd->lost_idle_time, true);
	*lost = cfsr_replay_lost_idle_time(r, rd->cpu);
	cfsr_replay_free(r);
	return clock;
}

/*
 * Each release's PELT clock from the same records (pelt_local): the cfs
 * record of CPU 1 has clock_task 700, clock_pelt 690 and lost_idle_time
 * 10: 680 for a v5.1+ model (rq_clock_pelt()), 700 before
 * (cfs_rq_clock_task()); the se record of CPU 0, 880 and 900.  With CPU 1
 * at capacity 512 a v5.1+ engine runs CPU 1 on clock_task (700) and takes
 * the record's lost_idle_time (10) with its clock_pelt, already scaled.
 */
static void test_pelt_clock_by_release(void **state)
{
	struct cfsr_clock_feed *f;
	struct cfsr_clock_reading rd;
	char path[64];
	uint64_t lost;
	int n = 0;

	(void)state;
	write_file(path, sizeof(path), pelt_local);
	f = cfsr_clock_feed_open(path);
	assert_non_null(f);
	while (cfsr_clock_feed_next(f, &rd) > 0) {
		if (rd.cpu == 1) {
			assert_int_equal(engine_clock(&rd, "5.1", 1024, &lost), 680);
			assert_int_equal(lost, 0);
			assert_int_equal(engine_clock(&rd, "6.18", 1024, &lost), 680);
			assert_int_equal(engine_clock(&rd, "5.0", 1024, &lost), 700);
			assert_int_equal(engine_clock(&rd, "3.18", 1024, &lost), 700);
			assert_int_equal(engine_clock(&rd, "6.18", 512, &lost), 700);
			assert_int_equal(lost, 10);
			assert_int_equal(engine_clock(&rd, "5.0", 512, &lost), 700);
			assert_int_equal(lost, 0);
			n++;
		} else if (rd.ts == 400) {
			assert_int_equal(engine_clock(&rd, "5.4", 1024, &lost), 880);
			assert_int_equal(engine_clock(&rd, "4.9", 1024, &lost), 900);
			/* CPU 0 keeps capacity 1024 */
			assert_int_equal(engine_clock(&rd, "6.18", 512, &lost), 880);
			n++;
		}
	}
	assert_int_equal(n, 2);
	cfsr_clock_feed_close(f);
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

/*
 * truth_local's readings mapped by @m: rq->clock 760, 4780, 4790, 8500 in
 * time order, each + @shift; the last two (snapshot 3, older than its
 * truth-mid) held until @mid3, the others not.
 */
static void assert_readings(const char *path, const struct cfsr_clock_map *m, uint64_t shift,
			    uint64_t mid3)
{
	static const uint64_t clock[4] = { 760, 4780, 4790, 8500 };
	uint64_t ts[4], until[4];
	int i;

	assert_int_equal(readings_until(path, m, ts, until, 4), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(ts[i], clock[i] + shift);
		assert_int_equal(until[i], i < 2 ? 0 : mid3);
	}
}

static void test_truth_local_onto_perf(void **state)
{
	struct cfsr_clock_map m;
	char path[64], line[512];

	(void)state;
	write_file(path, sizeof(path), truth_local);
	assert_int_equal(cfsr_clock_map_find(path, "perf", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_SHIFTED);
	assert_string_equal(m.from, "local");
	assert_int_equal(m.shift, 750 - 1050);
	/*
	 * rq->clock is on "perf": the trace's own clock; truth-mid moved by
	 * the map (-300): 740 and 4720 precede the first two readings
	 */
	assert_readings(path, &m, 0, 9040 - 300);
	cfsr_clock_map_describe(&m, "t.jsonl", line, sizeof(line));
	assert_non_null(strstr(line, "moved from clock local onto the trace's perf by -300 ns"));

	assert_int_equal(cfsr_clock_map_find(path, "local", &m), 0);
	assert_int_equal(m.how, CFSR_CLOCK_SAME);
	/* onto "local": rq->clock + 300, the smallest cpu_clk - sched_clk being -300 */
	assert_readings(path, &m, 300, 9040);
	unlink(path);
}

/*
 * Stated shares of a recorded trace: the first snapshot's task rows give
 * /autogroup-5 nice 5 (twice: stated once) and /autogroup-7 nice -3, by
 * the nice table 335 and 1991, scaled by 1024: 343040 and 2038784;
 * /autogroup-6 has nice 0 (the default, not stated), /autogroup-9 a nice
 * out of -20..19 (not stated), and /autogroup-8 is only in snapshot 1.  The metadata: v2 /idle with cpu.idle 1 (its
 * cpu.weight reads 1) gets 3 << 10 = 3072; v2 /w cpu.weight 200:
 * (200 * 1024 + 50) / 100 = 2048, 2048 << 10 = 2097152; v1 /s
 * cpu.shares 512, cpu.idle 0: 512 << 10 = 524288; the root is skipped.
 */
static const char truth_nice[] = "{\"seq\":0,\"kind\":\"snap\",\"trace_ts_begin\":1000}\n"
				 "{\"seq\":0,\"kind\":\"task\",\"pid\":10,\"tid\":10,"
				 "\"autogroup\":\"/autogroup-5\",\"autogroup_nice\":5}\n"
				 "{\"seq\":0,\"kind\":\"task\",\"pid\":11,\"tid\":11,"
				 "\"autogroup\":\"/autogroup-5\",\"autogroup_nice\":5}\n"
				 "{\"seq\":0,\"kind\":\"task\",\"pid\":12,\"tid\":12,"
				 "\"autogroup\":\"/autogroup-6\",\"autogroup_nice\":0}\n"
				 "{\"seq\":0,\"kind\":\"task\",\"pid\":13,\"tid\":13,"
				 "\"autogroup\":\"/autogroup-7\",\"autogroup_nice\":-3}\n"
				 "{\"seq\":0,\"kind\":\"task\",\"pid\":15,\"tid\":15,"
				 "\"autogroup\":\"/autogroup-9\",\"autogroup_nice\":4294967301}\n"
				 "{\"seq\":1,\"kind\":\"snap\",\"trace_ts_begin\":5000}\n"
				 "{\"seq\":1,\"kind\":\"task\",\"pid\":14,\"tid\":14,"
				 "\"autogroup\":\"/autogroup-8\",\"autogroup_nice\":10}\n";

static const char meta_idle[] = "{\"cgroup_hierarchies\":["
				"{\"version\":2,\"mount\":\"/sys/fs/cgroup\",\"groups\":["
				"{\"path\":\"/\",\"id\":1},"
				"{\"path\":\"/idle\",\"id\":2,\"cpu.weight\":1,\"cpu.idle\":1},"
				"{\"path\":\"/w\",\"id\":3,\"cpu.weight\":200,\"cpu.idle\":0}]},"
				"{\"version\":1,\"mount\":\"/sys/fs/cgroup/cpu\",\"groups\":["
				"{\"path\":\"/s\",\"id\":4,\"cpu.shares\":512,\"cpu.idle\":0}]}]}";

struct stated {
	char path[32][32];
	uint64_t shares[32];
	int n;
};

static int note_shares(void *data, const char *path, uint64_t shares)
{
	struct stated *st = data;

	assert_true(st->n < 32);
	snprintf(st->path[st->n], sizeof(st->path[0]), "%s", path);
	st->shares[st->n++] = shares;
	return 0;
}

static void test_meta_group_shares(void **state)
{
	static const char *const want_path[] = { "/autogroup-5", "/autogroup-7", "/idle", "/w",
						 "/s" };
	static const uint64_t want[] = { 343040, 2038784, 3072, 2097152, 524288 };
	struct cfsr_trace t;
	struct stated st = { .n = 0 };
	char path[64];
	int i;

	(void)state;
	write_file(path, sizeof(path), truth_nice);
	memset(&t, 0, sizeof(t));
	t.path = path;
	t.info.has_record_truth = true;
	t.info.record_meta = meta_idle;
	assert_int_equal(cfsr_meta_group_shares(&t, note_shares, &st), 0);
	assert_int_equal(st.n, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(st.path[i], want_path[i]);
		assert_int_equal(st.shares[i], want[i]);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pelt_local_onto_perf),
		cmocka_unit_test(test_pelt_other_clocks),
		cmocka_unit_test(test_pelt_clock_by_release),
		cmocka_unit_test(test_truth_local_onto_perf),
		cmocka_unit_test(test_meta_group_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

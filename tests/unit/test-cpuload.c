// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for lib/cpuload.c: after every event, each CPU's interim load
 * must equal the sum, computed here from a second engine fed the same
 * events, of the load_avg of the fair tasks queued or running on it; the
 * time average must follow from those sums.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuload.h"
#include "formats.h"
#include "pidset.h"
#include "profile.h"
#include "replay.h"

static struct cfsr_pidset pids = CFSR_PIDSET_INIT;

static void check(struct cfsr_cpuload *cl, struct cfsr_replay *r)
{
	uint64_t want[2] = { 0, 0 };
	const struct cfsr_task *t;
	size_t i;

	for (i = 0; i < pids.alloc; i++) {
		if (pids.slots[i] <= 0)
			continue;
		t = cfsr_replay_task(r, pids.slots[i]);
		if (t && t->fair && (t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_RUNNING) &&
		    t->cpu >= 0 && t->cpu < 2)
			want[t->cpu] += t->avg.load_avg;
	}
	assert_int_equal(cfsr_cpuload_now(cl, 0), want[0]);
	assert_int_equal(cfsr_cpuload_now(cl, 1), want[1]);
}

static void feed(struct cfsr_cpuload *cl, struct cfsr_replay *r, struct cfsr_event *ev)
{
	int p[4], n, i;

	n = cfsr_event_pids(ev, p);
	for (i = 0; i < n; i++)
		assert_true(cfsr_pidset_add(&pids, p[i]) >= 0);
	assert_int_equal(cfsr_cpuload_event(cl, ev), 0);
	assert_int_equal(cfsr_replay_event(r, ev), 0);
	check(cl, r);
}

static void test_sums(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_for("6.18");
	struct cfsr_cpuload *cl = cfsr_cpuload_new(2, prof, 250, 0, UINT64_MAX);
	struct cfsr_replay *r = cfsr_replay_new(2, prof, 250);
	struct cfsr_event ev;
	uint64_t ts = 1000000000, mean0;
	int cpu, i;

	(void)state;
	assert_non_null(cl);
	assert_non_null(r);
	/* CPU0 runs 10; 11 woken to CPU0 waits; 12 runs on CPU1 */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_SWITCH;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.ts = ts;
	ev.sw.next_pid = 10;
	feed(cl, r, &ev);
	ev.cpu = 1;
	ev.sw.next_pid = 12;
	feed(cl, r, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_WAKEUP;
	ev.ts = ts + 100000;
	ev.pid = 10; /* woken by 10, running on CPU0 */
	ev.wake.pid = 11;
	ev.wake.prio = 120;
	ev.wake.target_cpu = 0;
	feed(cl, r, &ev);
	/* ticks: 10 and 12 run for 40 ms */
	for (i = 1; i <= 10; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = CFSR_EV_STAT_RUNTIME;
		ev.ts = ts + (uint64_t)i * 4000000;
		ev.cpu = i & 1;
		ev.pid = ev.cpu ? 12 : 10;
		ev.runtime.pid = ev.pid;
		ev.runtime.runtime = 8000000;
		feed(cl, r, &ev);
	}
	assert_true(cfsr_cpuload_now(cl, 0) > 0);
	cfsr_cpuload_task(cl, 11, &cpu);
	assert_int_equal(cpu, 0);
	/* 11 migrates to CPU1: its contribution moves */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_MIGRATE;
	ev.ts = ts + 41000000;
	ev.cpu = 1;
	ev.migrate.pid = 11;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 1;
	feed(cl, r, &ev);
	cfsr_cpuload_task(cl, 11, &cpu);
	assert_int_equal(cpu, 1);
	/* 10 sleeps: CPU0 holds nothing */
	memset(&ev, 0, sizeof(ev));
	ev.kind = CFSR_EV_SWITCH;
	ev.ts = ts + 42000000;
	ev.pid = 10;
	ev.sw.prev_pid = 10;
	ev.sw.prev_state = CFSR_TASK_INTERRUPTIBLE;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	feed(cl, r, &ev);
	assert_int_equal(cfsr_cpuload_now(cl, 0), 0);
	/* CPU0's mean: between the sums at the events, at most their largest */
	mean0 = cfsr_cpuload_mean(cl, 0);
	assert_true(mean0 > 0 && mean0 <= 2 * 1024);
	cfsr_replay_free(r);
	cfsr_cpuload_free(cl);
	cfsr_pidset_release(&pids);
}

/* The same on a whole real trace: every event, both CPUs. */
static void test_bundled_trace(void **state)
{
	const struct cfsr_profile *prof = cfsr_profile_for("6.18");
	struct cfsr_cpuload *cl = cfsr_cpuload_new(2, prof, 250, 0, UINT64_MAX);
	struct cfsr_replay *r = cfsr_replay_new(2, prof, 250);
	const char *dir = getenv("CFSR_SRCDIR");
	struct cfsr_trace *t;
	struct cfsr_event ev;
	char path[4096];
	uint64_t n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/periodic.dat", dir ? dir : ".");
	t = cfsr_trace_open(path);
	assert_non_null(t);
	while (cfsr_trace_next(t, &ev) > 0) {
		feed(cl, r, &ev);
		n++;
	}
	assert_true(n > 5000);
	cfsr_trace_close(t);
	cfsr_replay_free(r);
	cfsr_cpuload_free(cl);
	cfsr_pidset_release(&pids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_bundled_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

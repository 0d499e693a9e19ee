// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the text reader (formats/text.c).
 *
 * - Each bundled trace.dat (nosched aside) printed by `trace-cmd report`
 *   (plugins, -N, and -t for ns) reads as the same event stream as the
 *   trace.dat reader gives: same count per kind and per type, and every
 *   event with the same kind, CPU, pid and payload, its time equal to the
 *   text's precision.  The same for `perf script` (default, --ns) of
 *   traces/periodic.perf.data against the perf.data reader.  These skip
 *   when trace-cmd or perf is not installed; the first 40 lines of each
 *   output, stored in tests/unit/fixtures/text/, are checked always.
 * - A hand-written ftrace `trace` file: flags and TGID columns, lost-events
 *   lines, comms with blanks, dashes and slashes, prev_state letters.
 * - Probing and refusal: binary files, text that is no trace, empty
 *   lines and CRLF line ends.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "formats.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static const char *srcdir(void)
{
	const char *d = getenv("CFSR_SRCDIR");

	return d ? d : ".";
}

static void quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

static bool have_tool(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* Open with the text reader's own ops, as cfsr_trace_open() does once it has probed. */
static struct cfsr_trace *tx_open(const char *path)
{
	struct cfsr_trace *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->path = strdup(path);
	t->data_path = strdup(path);
	assert_non_null(t->path);
	assert_non_null(t->data_path);
	t->data_fd = -1;
	t->fmt = &cfsr_format_text;
	if (t->fmt->open(t, path) < 0) {
		assert_null(t->stats.type_counts);
		free(t->data_path);
		free(t->path);
		free(t);
		return NULL;
	}
	return t;
}

static void tx_close(struct cfsr_trace *t)
{
	t->fmt->close(t);
	free(t->stats.type_counts);
	free(t->data_path);
	free(t->path);
	free(t);
}

static int probe_file(const char *path)
{
	unsigned char head[512];
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return cfsr_format_text.probe(head, n);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

/* A scratch file name; the caller unlinks it. */
static void tmp_name(char *buf, size_t len)
{
	int fd;

	snprintf(buf, len, "%s/cfsr-text-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(buf);
	assert_true(fd >= 0);
	close(fd);
}

/* Run "TOOL ARGS >out"; 0 on success. */
static int run_to(const char *cmd, const char *out)
{
	char *buf;
	int ret;

	assert_true(asprintf(&buf, "%s >'%s' 2>/dev/null", cmd, out) > 0);
	ret = system(buf);
	free(buf);
	return ret;
}

/* ---- comparing two event streams ------------------------------------------------------------ */

static uint64_t kind_count(const struct cfsr_trace *t, const char *name)
{
	int i;

	for (i = 0; i < t->info.nr_types; i++)
		if (!strcmp(t->info.types[i].name, name))
			return t->stats.type_counts[i];
	return 0;
}

static void same_payload(const struct cfsr_event *a, const struct cfsr_event *b, bool preempt)
{
	switch (a->kind) {
	case CFSR_EV_SWITCH:
		assert_int_equal(a->sw.prev_pid, b->sw.prev_pid);
		assert_int_equal(a->sw.prev_prio, b->sw.prev_prio);
		assert_int_equal(a->sw.next_pid, b->sw.next_pid);
		assert_int_equal(a->sw.next_prio, b->sw.next_prio);
		assert_int_equal(a->sw.prev_state, b->sw.prev_state);
		if (preempt)
			assert_int_equal(a->sw.preempt, b->sw.preempt);
		assert_string_equal(a->sw.prev_comm, b->sw.prev_comm);
		assert_string_equal(a->sw.next_comm, b->sw.next_comm);
		break;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		assert_int_equal(a->wake.pid, b->wake.pid);
		assert_int_equal(a->wake.prio, b->wake.prio);
		assert_int_equal(a->wake.target_cpu, b->wake.target_cpu);
		assert_int_equal(a->wake.success, b->wake.success);
		assert_string_equal(a->wake.comm, b->wake.comm);
		break;
	case CFSR_EV_MIGRATE:
		assert_int_equal(a->migrate.pid, b->migrate.pid);
		assert_int_equal(a->migrate.prio, b->migrate.prio);
		assert_int_equal(a->migrate.orig_cpu, b->migrate.orig_cpu);
		assert_int_equal(a->migrate.dest_cpu, b->migrate.dest_cpu);
		assert_string_equal(a->migrate.comm, b->migrate.comm);
		break;
	case CFSR_EV_FORK:
		assert_int_equal(a->fork.parent_pid, b->fork.parent_pid);
		assert_int_equal(a->fork.child_pid, b->fork.child_pid);
		assert_string_equal(a->fork.parent_comm, b->fork.parent_comm);
		assert_string_equal(a->fork.child_comm, b->fork.child_comm);
		break;
	case CFSR_EV_EXIT:
	case CFSR_EV_FREE:
		assert_int_equal(a->exit.pid, b->exit.pid);
		assert_int_equal(a->exit.prio, b->exit.prio);
		assert_int_equal(a->exit.group_dead, b->exit.group_dead);
		assert_string_equal(a->exit.comm, b->exit.comm);
		break;
	case CFSR_EV_EXEC:
		assert_int_equal(a->exec.pid, b->exec.pid);
		assert_int_equal(a->exec.old_pid, b->exec.old_pid);
		assert_string_equal(a->exec.filename, b->exec.filename);
		break;
	case CFSR_EV_STAT_RUNTIME:
		assert_int_equal(a->runtime.pid, b->runtime.pid);
		assert_int_equal(a->runtime.runtime, b->runtime.runtime);
		assert_string_equal(a->runtime.comm, b->runtime.comm);
		break;
	case CFSR_EV_PI_SETPRIO:
		assert_int_equal(a->pi.pid, b->pi.pid);
		assert_int_equal(a->pi.oldprio, b->pi.oldprio);
		assert_int_equal(a->pi.newprio, b->pi.newprio);
		break;
	case CFSR_EV_SETAFFINITY:
		assert_int_equal(a->affinity.pid, b->affinity.pid);
		break;
	case CFSR_EV_SETPRIORITY:
		assert_int_equal(a->setprio.which, b->setprio.which);
		assert_int_equal(a->setprio.who, b->setprio.who);
		assert_int_equal(a->setprio.niceval, b->setprio.niceval);
		break;
	case CFSR_EV_CGROUP_ATTACH:
	case CFSR_EV_CGROUP_MKDIR:
	case CFSR_EV_CGROUP_RMDIR:
		assert_int_equal(a->cgroup.root, b->cgroup.root);
		assert_int_equal(a->cgroup.level, b->cgroup.level);
		assert_int_equal(a->cgroup.id, b->cgroup.id);
		assert_int_equal(a->cgroup.pid, b->cgroup.pid);
		assert_string_equal(a->cgroup.path, b->cgroup.path);
		break;
	case CFSR_EV_MARKER:
		assert_string_equal(a->marker.text, b->marker.text);
		break;
	default:
		break;
	}
}

/* What both readers must agree on, and how the times compared. */
struct cmp_result {
	uint64_t events;
	uint64_t ts_exact;
	uint64_t ts_truncated;
	uint64_t ts_rounded;
	uint64_t per_kind[CFSR_EV_NR];
};

/*
 * Read the binary file @bin and the text @txt side by side: at most @limit
 * events (0: all, and then both must end together).
 */
static void compare_streams(const char *bin, const char *txt, bool preempt, uint64_t limit,
			    struct cmp_result *res)
{
	struct cfsr_trace *b = cfsr_trace_open(bin), *x = tx_open(txt);
	struct cfsr_event eb, ex;
	uint64_t per_kind_x[CFSR_EV_NR] = { 0 };
	int rb, rx, i;

	assert_non_null(b);
	assert_non_null(x);
	memset(res, 0, sizeof(*res));
	for (;;) {
		if (limit && res->events == limit)
			break;
		rb = cfsr_trace_next(b, &eb);
		rx = x->fmt->next(x, &ex);
		assert_true(rb >= 0);
		assert_true(rx >= 0);
		if (!rb || !rx) {
			/* a stored head of the text ends before the binary file */
			if (limit)
				assert_int_equal(rx, 0);
			else
				assert_int_equal(rb, rx);
			break;
		}
		if (eb.kind != ex.kind || eb.cpu != ex.cpu || eb.pid != ex.pid)
			print_message("event %" PRIu64
				      ": %s cpu %d pid %d, text %s cpu %d pid %d\n",
				      res->events, cfsr_event_kind_name(eb.kind), eb.cpu, eb.pid,
				      cfsr_event_kind_name(ex.kind), ex.cpu, ex.pid);
		assert_int_equal(eb.kind, ex.kind);
		assert_int_equal(eb.cpu, ex.cpu);
		assert_int_equal(eb.pid, ex.pid);
		same_payload(&eb, &ex, preempt);
		/* µs text: trace-cmd rounds the ns to the nearest µs, perf cuts them */
		res->ts_exact += eb.ts == ex.ts;
		res->ts_truncated += ex.ts == eb.ts / 1000 * 1000;
		res->ts_rounded += ex.ts == (eb.ts + 500) / 1000 * 1000;
		res->per_kind[eb.kind]++;
		per_kind_x[ex.kind]++;
		res->events++;
	}
	assert_true(res->ts_exact == res->events || res->ts_truncated == res->events ||
		    res->ts_rounded == res->events);
	for (i = 0; i < CFSR_EV_NR; i++)
		assert_int_equal(res->per_kind[i], per_kind_x[i]);
	if (!limit) {
		/* every type the text holds has the binary file's count */
		for (i = 0; i < x->info.nr_types; i++)
			assert_int_equal(x->stats.type_counts[i],
					 kind_count(b, x->info.types[i].name));
		assert_int_equal(x->stats.malformed, 0);
		assert_int_equal(x->stats.records, b->stats.records);
	}
	cfsr_trace_close(b);
	tx_close(x);
}

static void report(const char *what, const struct cmp_result *res)
{
	print_message("%-40s %5" PRIu64 " events equal; ts equal to the ns %" PRIu64
		      ", cut to the us %" PRIu64 ", rounded to the us %" PRIu64 "\n",
		      what, res->events, res->ts_exact, res->ts_truncated, res->ts_rounded);
}

/* ---- trace-cmd report ------------------------------------------------------------------------ */

static const char *const dat_traces[] = { "periodic", "cgroups", "v6", "recorded" };

static void check_report(const char *name, const char *opts, bool preempt, const char *reader)
{
	char dat[4096], txt[4096], cmd[8192], what[128];
	struct cmp_result res;
	struct cfsr_trace *x;

	snprintf(dat, sizeof(dat), "%s/traces/%s.dat", srcdir(), name);
	tmp_name(txt, sizeof(txt));
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s '%s'", opts, dat);
	assert_int_equal(run_to(cmd, txt), 0);
	assert_int_equal(probe_file(txt), 1);
	x = tx_open(txt);
	assert_non_null(x);
	assert_string_equal(x->info.reader, reader);
	assert_int_equal(x->info.nr_cpus, 2);
	assert_null(x->info.kernel_release);
	assert_null(x->info.clock);
	tx_close(x);
	compare_streams(dat, txt, preempt, 0, &res);
	/* recorded.dat: two setpriority(PRIO_PROCESS, 0, 5) calls, as trace-cmd lists them */
	if (!strcmp(name, "recorded"))
		assert_int_equal(res.per_kind[CFSR_EV_SETPRIORITY], 2);
	snprintf(what, sizeof(what), "trace-cmd report %s %s.dat:", opts, name);
	report(what, &res);
	unlink(txt);
}

static void test_tracecmd_report(void **state)
{
	size_t i;

	(void)state;
	if (!have_tool("trace-cmd")) {
		print_message("trace-cmd is not installed: skipped\n");
		skip();
	}
	for (i = 0; i < sizeof(dat_traces) / sizeof(dat_traces[0]); i++) {
		/* the plugins print no preempted marker */
		check_report(dat_traces[i], "", false, "trace-cmd report text (us)");
		check_report(dat_traces[i], "-N", true, "trace-cmd report text (us)");
		check_report(dat_traces[i], "-t", false, "trace-cmd report text (ns)");
		check_report(dat_traces[i], "-N -t", true, "trace-cmd report text (ns)");
	}
}

/* ---- perf script ------------------------------------------------------------------------------- */

static void check_perf(const char *opts, const char *reader)
{
	char data[4096], txt[4096], cmd[8192], what[128];
	struct cmp_result res;
	struct cfsr_trace *x;

	snprintf(data, sizeof(data), "%s/traces/periodic.perf.data", srcdir());
	tmp_name(txt, sizeof(txt));
	snprintf(cmd, sizeof(cmd), "perf script %s -i '%s'", opts, data);
	assert_int_equal(run_to(cmd, txt), 0);
	assert_int_equal(probe_file(txt), 1);
	x = tx_open(txt);
	assert_non_null(x);
	assert_string_equal(x->info.reader, reader);
	assert_true(x->info.preempt_bit_known);
	tx_close(x);
	compare_streams(data, txt, true, 0, &res);
	snprintf(what, sizeof(what), "perf script %s periodic.perf.data:", opts);
	report(what, &res);
	unlink(txt);
}

static void test_perf_script(void **state)
{
	(void)state;
	if (!have_tool("perf")) {
		print_message("perf is not installed: skipped\n");
		skip();
	}
	check_perf("", "perf script text (us)");
	check_perf("--ns", "perf script text (ns)");
}

/* ---- stored heads of the tools' output ------------------------------------------------------------ */

static void test_stored_heads(void **state)
{
	static const struct {
		const char *fixture, *trace, *reader;
		bool preempt;
	} heads[] = {
		{ "periodic-report.txt", "periodic.dat", "trace-cmd report text (us)", false },
		{ "periodic-report-N.txt", "periodic.dat", "trace-cmd report text (us)", true },
		{ "periodic-perf-script.txt", "periodic.perf.data", "perf script text (us)", true },
	};
	char fx[4096], bin[4096];
	struct cmp_result res;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		struct cfsr_trace *x;

		snprintf(fx, sizeof(fx), "%s/tests/unit/fixtures/text/%s", srcdir(),
			 heads[i].fixture);
		snprintf(bin, sizeof(bin), "%s/traces/%s", srcdir(), heads[i].trace);
		assert_int_equal(probe_file(fx), 1);
		x = tx_open(fx);
		assert_non_null(x);
		assert_string_equal(x->info.reader, heads[i].reader);
		tx_close(x);
		/* trace-cmd's head holds 39 events after "cpus=2", perf's 40 */
		compare_streams(bin, fx, heads[i].preempt, i == 2 ? 40 : 39, &res);
		assert_int_equal(res.events, i == 2 ? 40 : 39);
	}
}

/* ---- the ftrace trace file ---------------------------------------------------------------------- */

static void next_ok(struct cfsr_trace *t, struct cfsr_event *ev, enum cfsr_event_kind kind,
		    uint64_t ts, int cpu, int pid)
{
	assert_int_equal(t->fmt->next(t, ev), 1);
	assert_int_equal(ev->kind, kind);
	assert_int_equal(ev->ts, ts);
	assert_int_equal(ev->cpu, cpu);
	assert_int_equal(ev->pid, pid);
}

static void test_ftrace(void **state)
{
	char fx[4096];
	struct cfsr_trace *t;
	struct cfsr_event ev;
	int i;

	(void)state;
	snprintf(fx, sizeof(fx), "%s/tests/unit/fixtures/text/ftrace.txt", srcdir());
	assert_int_equal(probe_file(fx), 1);
	t = tx_open(fx);
	assert_non_null(t);
	assert_string_equal(t->info.reader, "ftrace text (us)");
	assert_true(t->info.preempt_bit_known);

	next_ok(t, &ev, CFSR_EV_WAKING, 31934797634000ull, 1, 0);
	assert_string_equal(ev.wake.comm, "wl2");
	assert_int_equal(ev.wake.pid, 2581);
	assert_int_equal(ev.wake.prio, 120);
	assert_int_equal(ev.wake.target_cpu, 1);
	assert_int_equal(ev.wake.success, -1);

	next_ok(t, &ev, CFSR_EV_SWITCH, 31934797640000ull, 0, 18525);
	assert_string_equal(ev.sw.prev_comm, "kworker/u8:3");
	assert_int_equal(ev.sw.prev_state, 0x80);
	assert_false(ev.sw.preempt);
	assert_string_equal(ev.sw.next_comm, "tokio-rt-worker");
	assert_int_equal(ev.sw.next_pid, 71);
	assert_int_equal(ev.sw.next_prio, 110);

	next_ok(t, &ev, CFSR_EV_WAKEUP, 31934797650000ull, 0, 71);
	assert_string_equal(ev.wake.comm, "a b-c");
	assert_int_equal(ev.wake.pid, 4242);
	assert_int_equal(ev.wake.target_cpu, 2);

	/* the lost-events line: a notice with the next event's time, then the event */
	next_ok(t, &ev, CFSR_EV_LOST, 31934797700000ull, 2, -1);
	assert_int_equal(ev.lost.nr, 17);
	assert_int_equal(ev.type, -1);
	next_ok(t, &ev, CFSR_EV_SWITCH, 31934797700000ull, 2, 4242);
	assert_string_equal(ev.sw.prev_comm, "a b-c");
	assert_int_equal(ev.sw.prev_state, 0);
	assert_true(ev.sw.preempt);

	next_ok(t, &ev, CFSR_EV_STAT_RUNTIME, 31934797710000ull, 2, 4242);
	assert_string_equal(ev.runtime.comm, "a b-c");
	assert_int_equal(ev.runtime.runtime, 12345);

	next_ok(t, &ev, CFSR_EV_MARKER, 31934797720000ull, 3, 4243);
	assert_string_equal(ev.marker.text, "hello: world");

	/* the TGID column */
	next_ok(t, &ev, CFSR_EV_SWITCH, 31934797730000ull, 3, 4244);
	assert_int_equal(ev.sw.prev_state, 3);
	assert_false(ev.sw.preempt);
	next_ok(t, &ev, CFSR_EV_MIGRATE, 31934797740000ull, 3, 0);
	assert_int_equal(ev.migrate.orig_cpu, 3);
	assert_int_equal(ev.migrate.dest_cpu, 1);

	/* no flags column */
	next_ok(t, &ev, CFSR_EV_EXIT, 31934797750000ull, 1, 4244);
	assert_int_equal(ev.exit.group_dead, 1);

	next_ok(t, &ev, CFSR_EV_LOST, 31934797770000ull, 1, -1);
	assert_int_equal(ev.lost.nr, 3);
	next_ok(t, &ev, CFSR_EV_FORK, 31934797770000ull, 1, 6850);
	assert_string_equal(ev.fork.child_comm, "kworker/1:1");
	assert_int_equal(ev.fork.child_pid, 6851);
	next_ok(t, &ev, CFSR_EV_SWITCH, 31934797780000ull, 1, 6850);
	assert_int_equal(ev.sw.prev_state, 0);
	assert_false(ev.sw.preempt);
	assert_int_equal(t->fmt->next(t, &ev), 0);

	assert_int_equal(t->stats.records, 12);
	assert_int_equal(t->stats.unknown, 1);
	assert_int_equal(t->stats.malformed, 1);
	assert_int_equal(t->stats.lost_notices, 2);
	assert_int_equal(t->stats.lost_events, 20);
	assert_int_equal(t->stats.first_ts, 31934797634000ull);
	assert_int_equal(t->stats.last_ts, 31934797780000ull);
	/* "#P:4" says 4 CPUs */
	assert_int_equal(t->info.nr_cpus, 4);
	for (i = 0; i < t->info.nr_types; i++)
		if (!strcmp(t->info.types[i].name, "irq_handler_entry"))
			break;
	assert_true(i < t->info.nr_types);
	assert_false(t->info.types[i].known);
	assert_int_equal(t->stats.type_counts[i], 1);
	assert_int_equal(kind_count(t, "sched_switch"), 4);
	assert_int_equal(kind_count(t, "print"), 1);
	tx_close(t);
}

/* ---- probing and refusal ----------------------------------------------------------------------- */

static void test_binary_not_text(void **state)
{
	static const char *const bins[] = { "periodic.dat", "v6.dat", "periodic.perf.data" };
	char path[4096];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bins) / sizeof(bins[0]); i++) {
		snprintf(path, sizeof(path), "%s/traces/%s", srcdir(), bins[i]);
		assert_int_equal(probe_file(path), 0);
	}
	assert_int_equal(cfsr_format_text.probe((const unsigned char *)"", 0), 0);
}

static void test_garbage_text(void **state)
{
	char tmp[4096];
	char *big;
	size_t i;

	(void)state;
	tmp_name(tmp, sizeof(tmp));
	/* like /etc/services: text, no event line */
	write_file(tmp, "# Network services, Internet style\n#\ntcpmux\t\t1/tcp\nssh\t\t22/tcp\n");
	assert_int_equal(probe_file(tmp), 0);
	cfsr_error_set_hook(quiet, NULL);
	assert_null(tx_open(tmp));
	/* a header, then no event line in the lines read at open */
	big = malloc(300 * 8 + 32);
	assert_non_null(big);
	strcpy(big, "cpus=2\n");
	for (i = 0; i < 300; i++)
		strcat(big, "garbage\n");
	write_file(tmp, big);
	free(big);
	assert_int_equal(probe_file(tmp), 1);
	assert_null(tx_open(tmp));
	write_file(tmp, "cpus=2\n");
	assert_null(tx_open(tmp));
	cfsr_error_set_hook(NULL, NULL);
	unlink(tmp);
}

/*
 * A marker read from the text stays whole while a look ahead reads the
 * next lines (cfsr_trace_peek()): the reader's own copy lives in its line
 * buffer, which the next line overwrites.
 */
static void test_peek_keeps_text(void **state)
{
	char tmp[4096];
	struct cfsr_trace *t;
	struct cfsr_event ev;
	const struct cfsr_event *p;

	(void)state;
	tmp_name(tmp, sizeof(tmp));
	write_file(tmp,
		   "cpus=1\n"
		   " sh-10 [000] 5.000001: print: tracing_mark_write: first\n"
		   " sh-10 [000] 5.000002: print: tracing_mark_write: "
		   "a second marker, longer than the first by far\n"
		   " sh-10 [000] 5.000003: sched_stat_runtime: comm=sh pid=10 runtime=1000 [ns]\n");
	t = cfsr_trace_open(tmp);
	assert_non_null(t);
	assert_int_equal(cfsr_trace_next(t, &ev), 1);
	assert_int_equal(ev.kind, CFSR_EV_MARKER);
	assert_int_equal(cfsr_trace_peek(t, 1, &p), 1);
	assert_int_equal(p->kind, CFSR_EV_STAT_RUNTIME);
	assert_string_equal(ev.marker.text, "first");
	assert_int_equal(cfsr_trace_peek(t, 0, &p), 1);
	assert_string_equal(p->marker.text, "a second marker, longer than the first by far");
	assert_int_equal(cfsr_trace_next(t, &ev), 1);
	assert_string_equal(ev.marker.text, "a second marker, longer than the first by far");
	assert_int_equal(cfsr_trace_next(t, &ev), 1);
	assert_int_equal(ev.runtime.runtime, 1000);
	assert_int_equal(cfsr_trace_next(t, &ev), 0);
	assert_int_equal(cfsr_trace_peek(t, 0, &p), 0);
	cfsr_trace_close(t);
	unlink(tmp);
}

/* CRLF line ends and empty lines read as the plain text does. */
static void test_crlf_and_empty_lines(void **state)
{
	char fx[4096], tmp[4096], line[4096];
	struct cfsr_trace *a, *b;
	struct cfsr_event ea, eb;
	FILE *in, *out;
	int n = 0, ra, rb;

	(void)state;
	snprintf(fx, sizeof(fx), "%s/tests/unit/fixtures/text/periodic-report-N.txt", srcdir());
	tmp_name(tmp, sizeof(tmp));
	in = fopen(fx, "r");
	out = fopen(tmp, "w");
	assert_non_null(in);
	assert_non_null(out);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		fprintf(out, "%s\r\n%s", line, n++ % 3 ? "" : "\r\n\n");
	}
	fclose(in);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(probe_file(tmp), 1);
	a = tx_open(fx);
	b = tx_open(tmp);
	assert_non_null(a);
	assert_non_null(b);
	do {
		ra = a->fmt->next(a, &ea);
		rb = b->fmt->next(b, &eb);
		assert_int_equal(ra, rb);
		if (ra == 1) {
			assert_int_equal(ea.kind, eb.kind);
			assert_int_equal(ea.ts, eb.ts);
			assert_int_equal(ea.pid, eb.pid);
			same_payload(&ea, &eb, true);
		}
	} while (ra == 1);
	assert_int_equal(b->stats.malformed, 0);
	assert_int_equal(b->stats.records, a->stats.records);
	tx_close(a);
	tx_close(b);
	unlink(tmp);
}

/* A timestamp that goes back is delivered as read; odd lines are counted, never fatal. */
static void test_odd_lines(void **state)
{
	char tmp[4096];
	struct cfsr_trace *t;
	struct cfsr_event ev;

	(void)state;
	tmp_name(tmp, sizeof(tmp));
	write_file(tmp,
		   "cpus=4\n"
		   "  x-1 [000] 10.000002: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 "
		   "prev_state=Q ==> next_comm=y next_pid=2 next_prio=120\n"
		   "  x-1 [001] 10.000001: sched_waking: comm=y pid=2 prio=120 target_cpu=001\n"
		   "CPU:3 [EVENTS DROPPED]\n"
		   "\x01\x02 binary junk\n"
		   "  x-1 [002] 10.000003: sched_wakeup: y:2 [120] success=1 CPU:002\n");
	t = tx_open(tmp);
	assert_non_null(t);
	/* an unknown state letter: malformed, skipped */
	next_ok(t, &ev, CFSR_EV_WAKING, 10000001000ull, 1, 1);
	next_ok(t, &ev, CFSR_EV_LOST, 10000003000ull, 3, -1);
	assert_int_equal(ev.lost.nr, -1);
	next_ok(t, &ev, CFSR_EV_WAKEUP, 10000003000ull, 2, 1);
	assert_int_equal(ev.wake.success, 1);
	assert_int_equal(ev.wake.target_cpu, 2);
	assert_string_equal(ev.wake.comm, "y");
	assert_int_equal(t->fmt->next(t, &ev), 0);
	assert_int_equal(t->stats.malformed, 2);
	assert_int_equal(t->stats.lost_unknown, 1);
	assert_int_equal(t->info.nr_cpus, 4);
	tx_close(t);
	unlink(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stored_heads),	cmocka_unit_test(test_ftrace),
		cmocka_unit_test(test_binary_not_text), cmocka_unit_test(test_garbage_text),
		cmocka_unit_test(test_peek_keeps_text), cmocka_unit_test(test_crlf_and_empty_lines),
		cmocka_unit_test(test_odd_lines),	cmocka_unit_test(test_tracecmd_report),
		cmocka_unit_test(test_perf_script),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay compare TRACE_A TRACE_B: two traces of one workload, side by side.
 *
 * Reads each trace once through lib/taskstats.c and matches tasks across
 * the two by name (comm).  Per name: run time against the weight-fair
 * share, wake-up latency, wake-ups, migrations, switches out; per machine:
 * time span, CPU busy time, migrations, latency, lost events.  Text for
 * people (100 columns, the names whose CPU share differs most first) or
 * JSON (docs/cfsreplay-output.5.txt).  What needs the comparators
 * (idle-while-waiting, placement agreement, fidelity) is marked "not yet".
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmds.h"
#include "error.h"
#include "formats.h"
#include "progress.h"
#include "taskstats.h"

#define COMPARE_FORMAT_VERSION 1
#define DEFAULT_TOP 20

static const char *const compare_usage[] = {
	"usage: cfsreplay compare [--top N] [--json] TRACE_A TRACE_B",
	"",
	"Two traces of one workload side by side, tasks matched by name: run time",
	"against the weight-fair share, wake-up latency, wake-ups, migrations and",
	"switches out; per machine: span, CPU busy time, migrations, latency.",
	"",
	"    --top N      list the N names whose CPU share differs most (default 20,",
	"                 0 for all); --json lists all unless --top is given",
	"    --json       JSON output (format_version 1, see cfsreplay-output(5))",
	"    -h, --help   show this help",
	"",
	"Idle-while-waiting, placement agreement and fidelity need the comparators",
	"and are reported as not yet available.",
	"",
	"Exit status: 0 success, 2 error.",
	NULL,
};

/* One trace's facts and accounting. */
struct side {
	const char *path;
	char *kernel;
	int nr_cpus;
	uint64_t switches;
	uint64_t lost_events;
	int64_t overruns;
	struct cfsr_taskstats *ts;
};

/* One name in either trace: indices into each side's names, -1 when absent. */
struct row {
	const char *comm;
	int a, b;
	double diff;
};

static int account(struct side *sd)
{
	struct cfsr_progress progress;
	struct cfsr_trace *t;
	struct cfsr_event ev;
	int ret, status = -1;

	t = cfsr_trace_open(sd->path);
	if (!t)
		return -1;
	sd->nr_cpus = t->info.nr_cpus > 0 ? t->info.nr_cpus : 1;
	sd->kernel = t->info.kernel_release ? strdup(t->info.kernel_release) : NULL;
	sd->overruns = t->info.overruns;
	sd->ts = cfsr_taskstats_new(sd->nr_cpus);
	if (!sd->ts) {
		cfsr_error("compare: out of memory");
		goto out;
	}
	cfsr_progress_init(&progress, t->path);
	while ((ret = cfsr_trace_next(t, &ev)) > 0) {
		if (ev.kind == CFSR_EV_SWITCH)
			sd->switches++;
		if (cfsr_taskstats_event(sd->ts, &ev) < 0) {
			cfsr_progress_done(&progress);
			cfsr_error("compare: cannot account '%s'", sd->path);
			goto out;
		}
		cfsr_progress_update(&progress, t->stats.records, ev.ts - t->stats.first_ts);
	}
	cfsr_progress_done(&progress);
	if (ret < 0)
		goto out;
	if (!sd->switches) {
		cfsr_error("'%s' has no sched_switch events: nothing to compare", sd->path);
		goto out;
	}
	cfsr_taskstats_finish(sd->ts);
	sd->lost_events = t->stats.lost_events;
	status = 0;
out:
	cfsr_trace_close(t);
	return status;
}

static uint64_t span(const struct side *sd)
{
	return sd->ts->last_ts - sd->ts->first_ts;
}

static uint64_t busy(const struct side *sd)
{
	uint64_t b = 0;
	size_t i;

	for (i = 0; i < sd->ts->nr_cpu_slots; i++)
		b += sd->ts->cpus[i].busy;
	return b;
}

/* ns as a fraction of the machine's capacity over the trace (span x CPUs) */
static double machine_share(const struct side *sd, uint64_t ns)
{
	double cap = (double)span(sd) * sd->nr_cpus;

	return cap > 0 ? (double)ns / cap : 0;
}

static const struct cfsr_task_sum *sum_at(const struct side *sd, int i)
{
	return i >= 0 ? &sd->ts->names[i] : NULL;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->diff != b->diff)
		return a->diff < b->diff ? 1 : -1;
	return strcmp(a->comm, b->comm);
}

/* Every name of either trace, the largest difference of CPU share first. */
static struct row *match(const struct side sd[2], size_t *nr)
{
	size_t i, n = 0, max = sd[0].ts->nr_names + sd[1].ts->nr_names;
	struct row *rows = calloc(max ? max : 1, sizeof(*rows));

	if (!rows)
		return NULL;
	for (i = 0; i < sd[0].ts->nr_names; i++) {
		const struct cfsr_task_sum *b =
			cfsr_taskstats_find(sd[1].ts, sd[0].ts->names[i].comm);

		rows[n].comm = sd[0].ts->names[i].comm;
		rows[n].a = (int)i;
		rows[n++].b = b ? (int)(b - sd[1].ts->names) : -1;
	}
	for (i = 0; i < sd[1].ts->nr_names; i++) {
		if (cfsr_taskstats_find(sd[0].ts, sd[1].ts->names[i].comm))
			continue;
		rows[n].comm = sd[1].ts->names[i].comm;
		rows[n].a = -1;
		rows[n++].b = (int)i;
	}
	for (i = 0; i < n; i++) {
		const struct cfsr_task_sum *a = sum_at(&sd[0], rows[i].a);
		const struct cfsr_task_sum *b = sum_at(&sd[1], rows[i].b);
		double d = (a ? machine_share(&sd[0], a->runtime) : 0) -
			   (b ? machine_share(&sd[1], b->runtime) : 0);

		rows[i].diff = d < 0 ? -d : d;
	}
	qsort(rows, n, sizeof(*rows), cmp_rows);
	*nr = n;
	return rows;
}

/* ---- text ------------------------------------------------------------------ */

static void text_pair(const char *label, const char *a, const char *b)
{
	printf("%-24s %-37s %s\n", label, a, b);
}

static void text_u64(const char *label, uint64_t a, uint64_t b)
{
	char x[32], y[32];

	snprintf(x, sizeof(x), "%" PRIu64, a);
	snprintf(y, sizeof(y), "%" PRIu64, b);
	text_pair(label, x, y);
}

static void fmt_lat(char *buf, size_t len, const struct cfsr_lathist *h)
{
	if (!h->count) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.1f/%.1f/%.1f/%.1f", cfsr_lathist_percentile(h, 50) / 1e3,
		 cfsr_lathist_percentile(h, 90) / 1e3, cfsr_lathist_percentile(h, 99) / 1e3,
		 h->max / 1e3);
}

static void print_machine(const struct side sd[2])
{
	char x[64], y[64];
	size_t c, nc;
	int s;

	printf("cfsreplay compare: A = %s\n", sd[0].path);
	printf("                   B = %s\n\n", sd[1].path);
	text_pair("", "A", "B");
	text_pair("kernel", sd[0].kernel ? sd[0].kernel : "unknown",
		  sd[1].kernel ? sd[1].kernel : "unknown");
	text_u64("CPUs", (uint64_t)sd[0].nr_cpus, (uint64_t)sd[1].nr_cpus);
	snprintf(x, sizeof(x), "%.6f s", span(&sd[0]) / 1e9);
	snprintf(y, sizeof(y), "%.6f s", span(&sd[1]) / 1e9);
	text_pair("time span", x, y);
	snprintf(x, sizeof(x), "%.2f %%", 100 * machine_share(&sd[0], busy(&sd[0])));
	snprintf(y, sizeof(y), "%.2f %%", 100 * machine_share(&sd[1], busy(&sd[1])));
	text_pair("CPU busy", x, y);
	nc = sd[0].ts->nr_cpu_slots > sd[1].ts->nr_cpu_slots ? sd[0].ts->nr_cpu_slots :
							       sd[1].ts->nr_cpu_slots;
	for (c = 0; c < nc; c++) {
		char label[32];
		char *v[2] = { x, y };

		for (s = 0; s < 2; s++) {
			uint64_t sp = span(&sd[s]);

			if (c < sd[s].ts->nr_cpu_slots && sp)
				snprintf(v[s], 64, "%.2f %%", 100.0 * sd[s].ts->cpus[c].busy / sp);
			else
				snprintf(v[s], 64, "-");
		}
		snprintf(label, sizeof(label), "  CPU %zu busy", c);
		text_pair(label, x, y);
	}
	for (s = 0; s < 2; s++) {
		uint64_t st = 0;
		size_t i;

		for (i = 0; i < sd[s].ts->nr_names; i++)
			st += sd[s].ts->names[i].stat_runtime;
		snprintf(s ? y : x, 64, "%.3f / %.3f ms", busy(&sd[s]) / 1e6, st / 1e6);
	}
	text_pair("run time / stat_runtime", x, y);
	text_u64("migrations", sd[0].ts->migrations, sd[1].ts->migrations);
	text_u64("wake-up latencies", sd[0].ts->lat_all.count, sd[1].ts->lat_all.count);
	fmt_lat(x, sizeof(x), &sd[0].ts->lat_all);
	fmt_lat(y, sizeof(y), &sd[1].ts->lat_all);
	text_pair("  p50/p90/p99/max us", x, y);
	text_u64("  switch in not seen", sd[0].ts->wakeups_unseen, sd[1].ts->wakeups_unseen);
	text_u64("inferred switches", sd[0].ts->inferred_switches, sd[1].ts->inferred_switches);
	for (s = 0; s < 2; s++) {
		char *v = s ? y : x;

		if (!sd[s].ts->lost_notices && sd[s].overruns <= 0)
			snprintf(v, 64, "none");
		else
			snprintf(v, 64, "LOST: %" PRIu64 " notices, %" PRIu64 " events",
				 sd[s].ts->lost_notices, sd[s].lost_events);
	}
	text_pair("lost events", x, y);
	text_pair("idle while waiting", "not yet (needs the comparators)", "");
	text_pair("placement agreement", "not yet (needs the comparators)", "");
	text_pair("fidelity", "not yet (needs the comparators)", "");
}

static void fmt_ms(char *buf, size_t len, const struct cfsr_task_sum *t, uint64_t v)
{
	if (t)
		snprintf(buf, len, "%.3f", v / 1e6);
	else
		snprintf(buf, len, "-");
}

static void fmt_pct(char *buf, size_t len, const struct cfsr_task_sum *t, double v)
{
	if (t)
		snprintf(buf, len, "%.2f", 100 * v);
	else
		snprintf(buf, len, "-");
}

static void print_cpu_table(const struct side sd[2], const struct row *rows, size_t n)
{
	size_t i;

	printf("\nCPU time per name (share = run time / (span x CPUs); fair = weight-fair share)\n");
	printf("%-16s %7s %10s %10s %6s %6s %6s %6s %5s %5s %7s\n", "name", "tasks", "run ms A",
	       "run ms B", "shr% A", "shr% B", "fair%A", "fair%B", "r/f A", "r/f B", "d shr%");
	for (i = 0; i < n; i++) {
		const struct cfsr_task_sum *a = sum_at(&sd[0], rows[i].a);
		const struct cfsr_task_sum *b = sum_at(&sd[1], rows[i].b);
		char tasks[16], ra[16], rb[16], sa[16], sb[16], fa[16], fb[16], qa[16], qb[16];

		snprintf(tasks, sizeof(tasks), "%" PRIu64 "/%" PRIu64, a ? a->nr_tasks : 0,
			 b ? b->nr_tasks : 0);
		fmt_ms(ra, sizeof(ra), a, a ? a->runtime : 0);
		fmt_ms(rb, sizeof(rb), b, b ? b->runtime : 0);
		fmt_pct(sa, sizeof(sa), a, a ? machine_share(&sd[0], a->runtime) : 0);
		fmt_pct(sb, sizeof(sb), b, b ? machine_share(&sd[1], b->runtime) : 0);
		fmt_pct(fa, sizeof(fa), a, a ? machine_share(&sd[0], a->fair) : 0);
		fmt_pct(fb, sizeof(fb), b, b ? machine_share(&sd[1], b->fair) : 0);
		snprintf(qa, sizeof(qa), "-");
		snprintf(qb, sizeof(qb), "-");
		if (a && a->fair)
			snprintf(qa, sizeof(qa), "%.2f", (double)a->runtime / a->fair);
		if (b && b->fair)
			snprintf(qb, sizeof(qb), "%.2f", (double)b->runtime / b->fair);
		printf("%-16.16s %7s %10s %10s %6s %6s %6s %6s %5s %5s %7.2f\n", rows[i].comm,
		       tasks, ra, rb, sa, sb, fa, fb, qa, qb, 100 * rows[i].diff);
	}
}

static void print_wake_table(const struct side sd[2], const struct row *rows, size_t n)
{
	size_t i;
	int s;

	printf("\nWake-ups, latency (us, wake-up to switch in), migrations, switches out\n");
	printf("%-16s %1s %7s %9s %9s %9s %9s %6s %6s %7s %7s\n", "name", "", "wakeups", "p50",
	       "p90", "p99", "max", "mig-wk", "mig-ot", "volunt", "preempt");
	for (i = 0; i < n; i++) {
		for (s = 0; s < 2; s++) {
			const struct cfsr_task_sum *t = sum_at(&sd[s], s ? rows[i].b : rows[i].a);
			const struct cfsr_lathist *h = t ? &t->lat : NULL;

			printf("%-16.16s %1s ", s ? "" : rows[i].comm, s ? "B" : "A");
			if (!t) {
				printf("%7s\n", "-");
				continue;
			}
			printf("%7" PRIu64, t->wakeups);
			if (h->count)
				printf(" %9.1f %9.1f %9.1f %9.1f",
				       cfsr_lathist_percentile(h, 50) / 1e3,
				       cfsr_lathist_percentile(h, 90) / 1e3,
				       cfsr_lathist_percentile(h, 99) / 1e3, h->max / 1e3);
			else
				printf(" %9s %9s %9s %9s", "-", "-", "-", "-");
			printf(" %6" PRIu64 " %6" PRIu64 " %7" PRIu64 " %7" PRIu64 "\n",
			       t->migrations_wakeup, t->migrations_other, t->switches_voluntary,
			       t->switches_preempted);
		}
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static json_object *json_lat(const struct cfsr_lathist *h)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_uint64(h->count));
	json_object_object_add(o, "sum_ns", json_object_new_uint64(h->sum));
	json_object_object_add(o, "p50_ns", json_object_new_uint64(cfsr_lathist_percentile(h, 50)));
	json_object_object_add(o, "p90_ns", json_object_new_uint64(cfsr_lathist_percentile(h, 90)));
	json_object_object_add(o, "p99_ns", json_object_new_uint64(cfsr_lathist_percentile(h, 99)));
	json_object_object_add(o, "max_ns", json_object_new_uint64(h->max));
	return o;
}

static json_object *json_side(const struct side *sd)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array(), *lost;
	size_t c;

	json_object_object_add(o, "file", json_object_new_string(sd->path));
	json_object_object_add(o, "kernel_release",
			       sd->kernel ? json_object_new_string(sd->kernel) : NULL);
	json_object_object_add(o, "nr_cpus", json_object_new_int(sd->nr_cpus));
	json_object_object_add(o, "first_ts", json_object_new_uint64(sd->ts->first_ts));
	json_object_object_add(o, "last_ts", json_object_new_uint64(sd->ts->last_ts));
	json_object_object_add(o, "span_ns", json_object_new_uint64(span(sd)));
	json_object_object_add(o, "busy_ns", json_object_new_uint64(busy(sd)));
	json_object_object_add(o, "busy_share",
			       json_object_new_double(machine_share(sd, busy(sd))));
	for (c = 0; c < sd->ts->nr_cpu_slots; c++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "cpu", json_object_new_int((int)c));
		json_object_object_add(x, "busy_ns", json_object_new_uint64(sd->ts->cpus[c].busy));
		json_object_array_add(cpus, x);
	}
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "migrations", json_object_new_uint64(sd->ts->migrations));
	json_object_object_add(o, "inferred_switches",
			       json_object_new_uint64(sd->ts->inferred_switches));
	json_object_object_add(o, "wakeups_unseen", json_object_new_uint64(sd->ts->wakeups_unseen));
	json_object_object_add(o, "latency", json_lat(&sd->ts->lat_all));
	lost = json_object_new_object();
	json_object_object_add(lost, "notices", json_object_new_uint64(sd->ts->lost_notices));
	json_object_object_add(lost, "events", json_object_new_uint64(sd->lost_events));
	json_object_object_add(lost, "overruns",
			       sd->overruns >= 0 ? json_object_new_int64(sd->overruns) : NULL);
	json_object_object_add(o, "lost", lost);
	return o;
}

static json_object *json_task(const struct side *sd, const struct cfsr_task_sum *t)
{
	json_object *o;

	if (!t)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "nr_tasks", json_object_new_uint64(t->nr_tasks));
	json_object_object_add(o, "runtime_ns", json_object_new_uint64(t->runtime));
	json_object_object_add(o, "stat_runtime_ns", json_object_new_uint64(t->stat_runtime));
	json_object_object_add(o, "fair_ns", json_object_new_uint64(t->fair));
	json_object_object_add(o, "share", json_object_new_double(machine_share(sd, t->runtime)));
	json_object_object_add(o, "fair_share", json_object_new_double(machine_share(sd, t->fair)));
	json_object_object_add(o, "wakeups", json_object_new_uint64(t->wakeups));
	json_object_object_add(o, "wakeups_unseen", json_object_new_uint64(t->wakeups_unseen));
	json_object_object_add(o, "latency", json_lat(&t->lat));
	json_object_object_add(o, "migrations_wakeup",
			       json_object_new_uint64(t->migrations_wakeup));
	json_object_object_add(o, "migrations_other", json_object_new_uint64(t->migrations_other));
	json_object_object_add(o, "switches_voluntary",
			       json_object_new_uint64(t->switches_voluntary));
	json_object_object_add(o, "switches_preempted",
			       json_object_new_uint64(t->switches_preempted));
	return o;
}

static int print_json(const struct side sd[2], const struct row *rows, size_t n)
{
	json_object *o = json_object_new_object(), *traces, *tasks, *nyet;
	size_t i;

	if (!o)
		return -1;
	json_object_object_add(o, "format_version", json_object_new_int(COMPARE_FORMAT_VERSION));
	traces = json_object_new_array();
	json_object_array_add(traces, json_side(&sd[0]));
	json_object_array_add(traces, json_side(&sd[1]));
	json_object_object_add(o, "traces", traces);
	nyet = json_object_new_object();
	json_object_object_add(nyet, "idle_while_waiting", NULL);
	json_object_object_add(nyet, "placement_agreement", NULL);
	json_object_object_add(nyet, "fidelity", NULL);
	json_object_object_add(o, "not_yet", nyet);
	tasks = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "comm", json_object_new_string(rows[i].comm));
		json_object_object_add(x, "a", json_task(&sd[0], sum_at(&sd[0], rows[i].a)));
		json_object_object_add(x, "b", json_task(&sd[1], sum_at(&sd[1], rows[i].b)));
		json_object_object_add(x, "share_diff", json_object_new_double(rows[i].diff));
		json_object_array_add(tasks, x);
	}
	json_object_object_add(o, "tasks", tasks);
	return cfsr_put_json(o);
}

int cmd_compare(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "top", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct side sd[2] = { { 0 }, { 0 } };
	int c, s, status = CFSR_EXIT_ERROR;
	bool json = false;
	long top = -1;
	struct row *rows = NULL;
	size_t n = 0;
	char *end;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 't':
			top = strtol(optarg, &end, 10);
			if (*end || !*optarg || top < 0 || top > 1000000) {
				cfsr_error("compare: --top takes a number, not '%s'", optarg);
				goto out;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			for (c = 0; compare_usage[c]; c++)
				puts(compare_usage[c]);
			status = CFSR_EXIT_OK;
			goto out;
		default:
			cfsr_error("compare: unknown option '%s'; see 'cfsreplay compare --help'",
				   argv[optind - 1]);
			goto out;
		}
	}
	if (optind + 2 != argc) {
		cfsr_error(
			"compare needs two traces, TRACE_A and TRACE_B; see 'cfsreplay compare --help'");
		goto out;
	}
	for (s = 0; s < 2; s++) {
		sd[s].path = argv[optind + s];
		if (account(&sd[s]) < 0)
			goto out;
	}
	rows = match(sd, &n);
	if (!rows) {
		cfsr_error("compare: out of memory");
		goto out;
	}
	if (top < 0)
		top = json ? 0 : DEFAULT_TOP;
	if (top && (size_t)top < n)
		n = (size_t)top;
	if (json) {
		if (print_json(sd, rows, n) < 0) {
			cfsr_error("compare: cannot render JSON");
			goto out;
		}
	} else {
		print_machine(sd);
		print_cpu_table(sd, rows, n);
		print_wake_table(sd, rows, n);
	}
	status = CFSR_EXIT_OK;
out:
	free(rows);
	for (s = 0; s < 2; s++) {
		cfsr_taskstats_free(sd[s].ts);
		free(sd[s].kernel);
	}
	return status;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay compare TRACE_A TRACE_B: two traces of one workload, side by side;
 * cfsreplay compare --kernel A [--kernel B] TRACE: one trace, two models.
 *
 * Reads each trace once through lib/taskstats.c and matches tasks across
 * the two by name (comm).  Per name: run time against the weight-fair
 * share, wake-up latency, wake-ups, migrations, switches out; per machine:
 * time span, CPU busy time, migrations, latency, lost events.  Text for
 * people (100 columns, the names whose CPU share differs most first) or
 * JSON (docs/cfsreplay-output.5.txt).  Each trace also goes through the
 * report's comparators (lib/comparators.h) when its kernel has a model:
 * idle while waiting, lasting imbalance and placement agreement side by
 * side.  Fidelity needs kernel truth and is left to validate.
 *
 * With --kernel, the trace is read once and every event fed to two replay
 * engines, one per kernel profile; lib/modeldiff.c reads both at regular
 * instants of trace time and accumulates, per task and per CPU's root
 * cfs_rq, how their signals differ.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "alloc.h"
#include "cmds.h"
#include "comparators.h"
#include "error.h"
#include "clockfeed.h"
#include "formats.h"
#include "modeldiff.h"
#include "pelt-ops.h"
#include "pidset.h"
#include "profile.h"
#include "progress.h"
#include "replay.h"
#include "taskstats.h"

#define COMPARE_FORMAT_VERSION 6
/* compare --kernel: its own schema (cfsreplay-output(5), COMPARE --KERNEL) */
#define MODELS_FORMAT_VERSION 3
#define DEFAULT_TOP 20
#define DEFAULT_INTERVAL_NS 1000000ull

static const char *const compare_usage[] = {
	"usage: cfsreplay compare [--top N] [--json] [--perf-cgroups cpu] TRACE_A TRACE_B",
	"       cfsreplay compare --kernel A [--kernel B] [--interval MS] [--clock FILE]",
	"                         [--perf-cgroups cpu] [--top N] [--json] TRACE",
	"",
	"Two traces of one workload side by side, tasks matched by name: run time",
	"against the weight-fair share, wake-up latency, wake-ups, migrations and",
	"switches out; per machine: span, CPU busy time, migrations, latency.",
	"",
	"With --kernel: one trace replayed by two kernel models (B defaults to the",
	"trace's own kernel): per task and per CPU, how their load_avg,",
	"runnable_avg, util_avg and util_est differ, read every --interval of",
	"trace time, and what each model did (delayed sleeps, updates).",
	"",
	"    --kernel REL     a kernel release whose model replays the trace; twice",
	"                     for two releases",
	"    --interval MS    with --kernel: read both models every MS milliseconds",
	"                     of trace time (default 1)",
	"    --clock FILE     with --kernel: the run queues' clock readings and each",
	"                     task's group from a truth.jsonl or pelt.jsonl[.gz] of",
	"                     the same run, as signals --clock takes them (by",
	"                     default, a recorded trace's own snapshots; 'none')",
	"    --perf-cgroups cpu",
	"                     take a perf.data's cgroups (--all-cgroups) as the cpu",
	"                     controller's task groups (shares assumed 1024); with two",
	"                     traces, of each that is a perf.data (another keeps its own)",
	"    --top N          list the N names (tasks) that differ most (default 20,",
	"                     0 for all); --json lists all unless --top is given",
	"    --json           JSON output (format_version 6, see cfsreplay-output(5))",
	"    -h, --help       show this help",
	"",
	"With two traces, each also goes through the report's comparators when its",
	"kernel has a model: idle while waiting, lasting imbalance and placement",
	"agreement side by side.  Either form lists the run time per task group of",
	"the engines' groups, and says where the groups came from.",
	"",
	"Exit status: 0 success, 2 error.",
	NULL,
};

/* One task group's run time and the tasks that ran in it. */
struct group_run {
	uint64_t run;
	struct cfsr_pidset tasks;
};

/*
 * Run time per task group of an engine: at each sched_switch, before the
 * engine takes it, the time since the CPU's previous switch is charged to
 * the group the engine holds the task leaving in (a CPU's first switch
 * charges nothing).  @groups is indexed by the engine's group index.
 */
struct group_time {
	struct cfsr_replay *r;
	int nr_cpus;
	uint64_t *since;
	struct group_run *groups;
	size_t alloc;
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
	/* the report's comparators, when the trace's kernel has a model */
	bool comp;
	struct cfsr_comparators c;
	const struct cfsr_profile *prof;
	char no_comp[160];
	/* lock-step against the kernel's records beside the trace, if any */
	bool have_fid;
	/* records lie beside it but could not be used (the error was printed) */
	bool fid_failed;
	struct cfsr_fidelity fid;
	/* the comparators' engine's run time per task group */
	struct group_time gt;
	/* --perf-cgroups=cpu on a perf.data: its cgroups are the comparators' groups */
	bool perf_data;
	struct cfsr_perf_groups pg;
};

/* One name in either trace: indices into each side's names, -1 when absent. */
struct row {
	const char *comm;
	int a, b;
	double diff;
};

static int group_time_init(struct group_time *gt, struct cfsr_replay *r, int nr_cpus)
{
	gt->r = r;
	gt->nr_cpus = nr_cpus;
	gt->since = calloc((size_t)nr_cpus, sizeof(*gt->since));
	if (!gt->since)
		return cfsr_error("compare: out of memory");
	return 0;
}

/* Before the engine takes @ev: charge a switch's outgoing task's run to its group. */
static int group_time_event(struct group_time *gt, const struct cfsr_event *ev)
{
	const struct cfsr_task *t;
	uint64_t from;
	size_t i, g;

	if (!gt->r || ev->kind != CFSR_EV_SWITCH || ev->cpu < 0 || ev->cpu >= gt->nr_cpus)
		return 0;
	from = gt->since[ev->cpu];
	gt->since[ev->cpu] = ev->ts;
	t = ev->sw.prev_pid > 0 ? cfsr_replay_task(gt->r, ev->sw.prev_pid) : NULL;
	if (!from || !t || t->group < 0 || ev->ts < from)
		return 0;
	g = (size_t)t->group;
	i = gt->alloc;
	if (CFSR_ALLOC_GROW(gt->groups, g + 1, gt->alloc) < 0)
		return cfsr_error("compare: out of memory");
	for (; i < gt->alloc; i++)
		gt->groups[i] = (struct group_run){ 0, CFSR_PIDSET_INIT };
	gt->groups[g].run += ev->ts - from;
	return cfsr_pidset_add(&gt->groups[g].tasks, ev->sw.prev_pid) < 0 ? -1 : 0;
}

static void group_time_release(struct group_time *gt)
{
	size_t i;

	for (i = 0; i < gt->alloc; i++)
		cfsr_pidset_release(&gt->groups[i].tasks);
	free(gt->groups);
	free(gt->since);
	memset(gt, 0, sizeof(*gt));
}

/* The run in the group of @path, NULL when the engine charged it nothing. */
static const struct group_run *group_run_of(const struct group_time *gt, const char *path)
{
	const char *p;
	size_t g;

	for (g = 0; g < gt->alloc; g++) {
		p = cfsr_replay_group_path(gt->r, (int)g);
		if (p && !strcmp(p, path) && gt->groups[g].tasks.nr)
			return &gt->groups[g];
	}
	return NULL;
}

#define PERF_GROUPS_SOURCE "the perf.data's cgroups (--perf-cgroups=cpu, assumed)"
#define NO_GROUPS_SOURCE "none (every task in the root group)"

/* Where the comparators' engine of a trace took its groups from. */
static const char *side_group_source(const struct side *sd)
{
	struct cfsr_cpuload_groups g;

	if (sd->pg.on)
		return PERF_GROUPS_SOURCE;
	cfsr_cpuload_groups(sd->c.cl, &g);
	if (g.snapshot_tasks)
		return "the trace's snapshots";
	if (g.marker_moves)
		return "cfsr-mkdir/cfsr-move markers";
	if (g.attach_moves)
		return "cgroup_attach_task events";
	return NO_GROUPS_SOURCE;
}

/* The rows of every group either engine charged run time to, by path. */
static void print_group_table(const struct group_time *gt[2], const char *const source[2],
			      const uint64_t span[2], const int nr_cpus[2])
{
	const struct group_time *o;
	const struct group_run *run[2];
	const char *path;
	char v[4][16];
	size_t g;
	int s, k;

	printf("\nCPU time per task group (share = run time / (span x CPUs))\n");
	printf("  groups of A: %s\n  groups of B: %s\n", source[0], source[1]);
	printf("%-30s %7s %10s %10s %6s %6s\n", "group", "tasks", "run ms A", "run ms B", "shr% A",
	       "shr% B");
	for (s = 0; s < 2; s++) {
		o = gt[s];
		for (g = 0; g < o->alloc; g++) {
			path = cfsr_replay_group_path(o->r, (int)g);
			if (!path || !o->groups[g].tasks.nr || (s && group_run_of(gt[0], path)))
				continue;
			for (k = 0; k < 2; k++) {
				run[k] = group_run_of(gt[k], path);
				if (!run[k]) {
					snprintf(v[k], sizeof(v[k]), "-");
					snprintf(v[k + 2], sizeof(v[k + 2]), "-");
					continue;
				}
				snprintf(v[k], sizeof(v[k]), "%.3f", (double)run[k]->run / 1e6);
				snprintf(v[k + 2], sizeof(v[k + 2]), "%.2f",
					 span[k] ? 100.0 * (double)run[k]->run /
							   ((double)span[k] * nr_cpus[k]) :
						   0.0);
			}
			/* within 100 columns: a longer path is cut */
			printf("%-30.56s %3zu/%-3zu %10s %10s %6s %6s\n", path,
			       run[0] ? run[0]->tasks.nr : 0, run[1] ? run[1]->tasks.nr : 0, v[0],
			       v[1], v[2], v[3]);
		}
	}
}

/* An engine's groups as JSON: where they came from, each group's tasks and run time. */
static json_object *json_groups(const struct group_time *gt, const char *source)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array(), *x;
	const char *path;
	size_t g;

	json_object_object_add(o, "source", json_object_new_string(source));
	for (g = 0; g < gt->alloc; g++) {
		path = cfsr_replay_group_path(gt->r, (int)g);
		if (!path || !gt->groups[g].tasks.nr)
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "path", json_object_new_string(path));
		json_object_object_add(x, "tasks", json_object_new_uint64(gt->groups[g].tasks.nr));
		json_object_object_add(x, "runtime_ns", json_object_new_uint64(gt->groups[g].run));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "groups", arr);
	return o;
}

/*
 * The comparators run under the model of the trace's own kernel; a trace
 * without one keeps its accounting and says why it has no comparators.
 */
static int comparators_for(struct side *sd, struct cfsr_trace *t)
{
	const char *rel = t->info.kernel_release;

	sd->prof = rel ? cfsr_profile_for(rel) : NULL;
	if (!rel)
		snprintf(sd->no_comp, sizeof(sd->no_comp), "the trace does not record its kernel");
	else if (!sd->prof || !sd->prof->implemented)
		snprintf(sd->no_comp, sizeof(sd->no_comp), "no model for kernel %s", rel);
	else if (t->info.nr_cpus <= 0)
		snprintf(sd->no_comp, sizeof(sd->no_comp), "the trace does not give its CPU count");
	else {
		if (cfsr_comparators_init(
			    &sd->c, &(struct cfsr_comparators_params){ .info = &t->info,
								       .nr_cpus = t->info.nr_cpus,
								       .hz = t->info.hz,
								       .prof = sd->prof,
								       .top = 0,
								       .win_end = UINT64_MAX,
								       .filter_cpu = -1,
								       .filter_pid = -1,
								       .peek = cfsr_trace_peek_fn,
								       .peek_ctx = t }) < 0)
			return -1;
		sd->comp = true;
	}
	return 0;
}

static int account(struct side *sd, bool perf_groups)
{
	struct cfsr_replay *engine;
	struct cfsr_own_clock oc = { 0 };
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
	if (comparators_for(sd, t) < 0)
		goto out;
	/* a recorded trace's own clock readings and groups, as report takes them */
	if (sd->comp && cfsr_comparators_own_clock(&sd->c, t, NULL, &oc) < 0)
		goto out;
	/* --perf-cgroups: a perf.data's cgroups; another trace keeps its own groups */
	sd->perf_data = perf_groups && cfsr_perf_groups_applies(t);
	if (sd->comp) {
		engine = cfsr_cpuload_engine(sd->c.cl);
		if (group_time_init(&sd->gt, engine, sd->nr_cpus) < 0 ||
		    (sd->perf_data &&
		     cfsr_perf_groups_begin(&sd->pg, &engine, 1, "compare", t) < 0))
			goto out;
		if (sd->perf_data)
			cfsr_pickcheck_groups_perf(sd->c.pk);
	}
	cfsr_progress_init(&progress, t->path);
	while ((ret = cfsr_trace_next(t, &ev)) > 0) {
		if (ev.kind == CFSR_EV_SWITCH)
			sd->switches++;
		if (cfsr_taskstats_event(sd->ts, &ev) < 0 ||
		    (sd->comp && (cfsr_comparators_clock_until(&sd->c, &oc, ev.ts) < 0 ||
				  cfsr_perf_groups_event(&sd->pg, t, &ev) < 0 ||
				  group_time_event(&sd->gt, &ev) < 0 ||
				  cfsr_comparators_event(&sd->c, &ev) < 0))) {
			cfsr_progress_done(&progress);
			cfsr_error("compare: cannot account '%s'", sd->path);
			goto out;
		}
		cfsr_progress_update(&progress, t->stats.records, ev.ts - t->stats.first_ts);
	}
	cfsr_progress_done(&progress);
	if (ret < 0)
		goto out;
	if (sd->comp) {
		cfsr_comparators_finish(&sd->c);
		/* a second pass, in lock-step with the records beside the trace */
		ret = cfsr_fidelity_beside(sd->path, NULL, &sd->fid);
		sd->have_fid = ret > 0;
		sd->fid_failed = ret < 0;
	}
	if (!sd->switches) {
		cfsr_error("'%s' has no sched_switch events: nothing to compare", sd->path);
		goto out;
	}
	cfsr_taskstats_finish(sd->ts);
	sd->lost_events = t->stats.lost_events;
	cfsr_perf_groups_summary(&sd->pg, "compare");
	status = 0;
out:
	cfsr_clock_feed_close(oc.feed);
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

/* A profile's name up to its first space: its version range ("v6.16-v6.18.43") */
static const char *range_of(const char *name, char *buf, size_t len)
{
	size_t n = strcspn(name, " ");

	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), name);
	return buf;
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

/* v as ms into @buf, or the reason the side has no comparators */
static const char *comp_ms(const struct side *sd, char *buf, size_t len, uint64_t v)
{
	if (!sd->comp)
		return "-";
	snprintf(buf, len, "%.3f ms", v / 1e6);
	return buf;
}

/* "agrees/judged (pct)" of one placement kind */
static const char *comp_agree(const struct side *sd, char *buf, size_t len, int kind)
{
	const struct cfsr_place_totals *pt;
	uint64_t judged;

	if (!sd->comp)
		return "-";
	pt = cfsr_place_totals(sd->c.pl);
	judged = pt->n[kind][CFSR_AGREES] + pt->n[kind][CFSR_DIVERGES];
	if (!judged)
		snprintf(buf, len, "0 judged");
	else
		snprintf(buf, len, "%" PRIu64 "/%" PRIu64 " (%.1f %%)", pt->n[kind][CFSR_AGREES],
			 judged, 100.0 * (double)pt->n[kind][CFSR_AGREES] / (double)judged);
	return buf;
}

/* "agrees/contested (pct)" of the pick check */
static const char *comp_pick(const struct side *sd, char *buf, size_t len)
{
	struct cfsr_pick_cpu n;

	if (!sd->comp)
		return "-";
	cfsr_pickcheck_total(sd->c.pk, &n);
	if (!n.contested)
		snprintf(buf, len, "0 contested");
	else
		snprintf(buf, len, "%" PRIu64 "/%" PRIu64 " (%.1f %%)", n.agrees, n.contested,
			 100.0 * (double)n.agrees / (double)n.contested);
	return buf;
}

/* one row of times, "-" for a side without comparators */
static void comp_row(const char *label, const struct side sd[2], const uint64_t v[2])
{
	char x[64], y[64];

	text_pair(label, comp_ms(&sd[0], x, sizeof(x), v[0]), comp_ms(&sd[1], y, sizeof(y), v[1]));
}

static void print_comparators(const struct side sd[2])
{
	uint64_t iww[4][2] = { { 0 } }, imb[3][2] = { { 0 } };
	static const char *const iww_rows[4] = { "idle while waiting, cpu", "  allowed",
						 "  affinity-bound", "  in long episodes" };
	static const char *const imb_rows[3] = { "lasting imbalance", "  allowed",
						 "  affinity-bound" };
	char x[64], y[64], label[48], ra[40], rb[40];
	int s, k;

	for (s = 0; s < 2; s++) {
		const struct cfsr_iww_totals *it;
		const struct cfsr_imb_totals *mt;

		if (!sd[s].comp)
			continue;
		it = cfsr_iww_totals(sd[s].c.iw);
		mt = cfsr_imb_totals(sd[s].c.im);
		iww[0][s] = it->cpu_ns;
		iww[1][s] = it->allowed_cpu_ns;
		iww[2][s] = it->affinity_bound_cpu_ns;
		iww[3][s] = it->long_cpu_ns;
		imb[0][s] = mt->lasting_ns[CFSR_IMB_ALLOWED] + mt->lasting_ns[CFSR_IMB_AFF_BOUND] +
			    mt->lasting_ns[CFSR_IMB_AFF_UNKNOWN];
		imb[1][s] = mt->lasting_ns[CFSR_IMB_ALLOWED];
		imb[2][s] = mt->lasting_ns[CFSR_IMB_AFF_BOUND];
	}
	/* the profiles' version ranges: their full names need more than a column */
	text_pair("comparators' model",
		  sd[0].comp ? range_of(sd[0].prof->name, ra, sizeof(ra)) : sd[0].no_comp,
		  sd[1].comp ? range_of(sd[1].prof->name, rb, sizeof(rb)) : sd[1].no_comp);
	for (k = 0; k < 4; k++)
		comp_row(iww_rows[k], sd, iww[k]);
	for (k = 0; k < 3; k++)
		comp_row(imb_rows[k], sd, imb[k]);
	text_pair("placement agrees", sd[0].comp ? "of judged" : "-",
		  sd[1].comp ? "of judged" : "-");
	for (k = 0; k < CFSR_PLACE_NR_KINDS; k++) {
		snprintf(label, sizeof(label), "  %s",
			 cfsr_place_kind_name((enum cfsr_place_kind)k));
		text_pair(label, comp_agree(&sd[0], x, sizeof(x), k),
			  comp_agree(&sd[1], y, sizeof(y), k));
	}
	text_pair("pick agrees/contested", comp_pick(&sd[0], x, sizeof(x)),
		  comp_pick(&sd[1], y, sizeof(y)));
	for (s = 0; s < 2; s++) {
		char *v = s ? y : x;
		const struct cfsr_fidelity *f = &sd[s].fid;

		if (sd[s].fid_failed)
			snprintf(v, 64, "- (records beside unusable)");
		else if (!sd[s].have_fid)
			snprintf(v, 64, "- (no kernel records beside)");
		else
			snprintf(v, 64, "%.2f %% of %llu",
				 f->compared[CFSR_FID_TASK] ?
					 100.0 * (double)f->exact[CFSR_FID_TASK] /
						 (double)f->compared[CFSR_FID_TASK] :
					 0.0,
				 f->compared[CFSR_FID_TASK]);
	}
	text_pair("fidelity, task updates", x, y);
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
	print_comparators(sd);
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

/* The comparators' engines' run time per task group, when both sides have them. */
static void print_side_groups(const struct side sd[2])
{
	const struct group_time *gt[2] = { &sd[0].gt, &sd[1].gt };
	const uint64_t sp[2] = { span(&sd[0]), span(&sd[1]) };
	const int nc[2] = { sd[0].nr_cpus, sd[1].nr_cpus };
	const char *src[2];

	if (!sd[0].comp || !sd[1].comp)
		return;
	src[0] = side_group_source(&sd[0]);
	src[1] = side_group_source(&sd[1]);
	print_group_table(gt, src, sp, nc);
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

static json_object *json_comparators(const struct side *sd)
{
	const struct cfsr_iww_totals *it;
	const struct cfsr_imb_totals *mt;
	const struct cfsr_place_totals *pt;
	struct cfsr_pick_cpu pn;
	json_object *o, *x, *k;
	int kind, v;

	if (!sd->comp)
		return NULL;
	it = cfsr_iww_totals(sd->c.iw);
	mt = cfsr_imb_totals(sd->c.im);
	pt = cfsr_place_totals(sd->c.pl);
	o = json_object_new_object();
	json_object_object_add(o, "model", json_object_new_string(sd->prof->name));
	x = json_object_new_object();
	json_object_object_add(x, "wall_ns", json_object_new_uint64(it->wall_ns));
	json_object_object_add(x, "cpu_ns", json_object_new_uint64(it->cpu_ns));
	json_object_object_add(x, "allowed_cpu_ns", json_object_new_uint64(it->allowed_cpu_ns));
	json_object_object_add(x, "unknown_affinity_cpu_ns",
			       json_object_new_uint64(it->unknown_affinity_cpu_ns));
	json_object_object_add(x, "affinity_bound_cpu_ns",
			       json_object_new_uint64(it->affinity_bound_cpu_ns));
	json_object_object_add(x, "long_episodes", json_object_new_uint64(it->long_episodes));
	json_object_object_add(x, "long_cpu_ns", json_object_new_uint64(it->long_cpu_ns));
	json_object_object_add(o, "idle_while_waiting", x);
	x = json_object_new_object();
	json_object_object_add(x, "lasting_windows", json_object_new_uint64(mt->lasting));
	json_object_object_add(x, "allowed_ns",
			       json_object_new_uint64(mt->lasting_ns[CFSR_IMB_ALLOWED]));
	json_object_object_add(x, "unknown_affinity_ns",
			       json_object_new_uint64(mt->lasting_ns[CFSR_IMB_AFF_UNKNOWN]));
	json_object_object_add(x, "affinity_bound_ns",
			       json_object_new_uint64(mt->lasting_ns[CFSR_IMB_AFF_BOUND]));
	json_object_object_add(o, "lasting_imbalance", x);
	x = json_object_new_object();
	for (kind = 0; kind < CFSR_PLACE_NR_KINDS; kind++) {
		static const char *const verdicts[CFSR_NR_VERDICTS] = { "agrees", "diverges",
									"cannot-judge" };

		k = json_object_new_object();
		for (v = 0; v < CFSR_NR_VERDICTS; v++)
			json_object_object_add(k, verdicts[v],
					       json_object_new_uint64(pt->n[kind][v]));
		json_object_object_add(x, cfsr_place_kind_name((enum cfsr_place_kind)kind), k);
	}
	json_object_object_add(o, "placement", x);
	cfsr_pickcheck_total(sd->c.pk, &pn);
	json_object_object_add(o, "pick_check", cfsr_pick_json_counts(&pn));
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
	json_object_object_add(o, "comparators", json_comparators(sd));
	json_object_object_add(o, "no_comparators",
			       sd->comp ? NULL : json_object_new_string(sd->no_comp));
	json_object_object_add(o, "fidelity", sd->have_fid ? cfsr_fidelity_json(&sd->fid) : NULL);
	json_object_object_add(o, "task_groups",
			       sd->comp ? json_groups(&sd->gt, side_group_source(sd)) : NULL);
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
	json_object *o = json_object_new_object(), *traces, *tasks;
	size_t i;

	if (!o)
		return -1;
	json_object_object_add(o, "format_version", json_object_new_int(COMPARE_FORMAT_VERSION));
	traces = json_object_new_array();
	json_object_array_add(traces, json_side(&sd[0]));
	json_object_array_add(traces, json_side(&sd[1]));
	json_object_object_add(o, "traces", traces);
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

/* ---- one trace, two models ------------------------------------------------------------ */

struct models {
	const char *path;
	char *release;
	int nr_cpus;
	uint64_t interval;
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t events;
	const struct cfsr_profile *prof[2];
	/* what a --kernel without sublevel was taken as (cfsr_profile_series_note()), or NULL */
	const char *series[2];
	char series_buf[2][96];
	struct cfsr_replay *r[2];
	/* each model's pick check, asking its engine */
	struct cfsr_pickcheck *pk[2];
	struct cfsr_modeldiff *d;
	/* --perf-cgroups=cpu: the perf.data's cgroups, in both engines */
	struct cfsr_perf_groups pg;
	/* each engine's run time per task group, and where the groups came from */
	struct group_time gt[2];
	const char *group_source;
};

static void models_free(struct models *m)
{
	int s;

	cfsr_perf_groups_release(&m->pg);
	for (s = 0; s < 2; s++) {
		group_time_release(&m->gt[s]);
		cfsr_pickcheck_free(m->pk[s]);
		cfsr_replay_free(m->r[s]);
	}
	cfsr_modeldiff_free(m->d);
	free(m->release);
}

/* Read the trace once, feeding both engines and sampling between events. */
/* cfsr_task_groups() callback: the task's group, in both engines */
static int set_group(void *data, int tid, const char *group)
{
	struct models *m = data;
	int s;

	for (s = 0; s < 2; s++)
		if (cfsr_replay_task_set_group(m->r[s], tid, group) < 0)
			return -1;
	return 0;
}

/*
 * Before the event at @ts: the clock readings and the sampling instants
 * that precede it, in time order (a reading at an instant goes first).
 */
static int before_event(struct models *m, struct cfsr_clock_feed *feed,
			struct cfsr_clock_reading *rd, int *have_rd, uint64_t *next, uint64_t ts)
{
	uint64_t clock;
	int s;

	for (;;) {
		bool rd_due = *have_rd > 0 && rd->ts < ts;
		bool smp_due = *next <= ts;

		if (*have_rd < 0)
			return -1;
		if (rd_due && (!smp_due || rd->ts <= *next)) {
			for (s = 0; s < 2; s++) {
				clock = cfsr_replay_reading_clock(m->r[s], rd->cpu, rd->clock_task,
								  rd->clock_pelt,
								  rd->lost_idle_time, true);
				if (rd->cpu >= 0 && rd->at_update)
					cfsr_replay_clock_update(m->r[s], rd->cpu, rd->ts, clock,
								 rd->until);
				else if (rd->cpu >= 0)
					cfsr_replay_clock_sample(m->r[s], rd->cpu, rd->ts, clock);
				if (cfsr_reading_structure(m->r[s], rd) < 0)
					return -1;
			}
			*have_rd = cfsr_clock_feed_next(feed, rd);
		} else if (smp_due) {
			/* the state between events: after every event before the instant */
			if (cfsr_modeldiff_sample(m->d, m->r[0], m->r[1], *next) < 0)
				return -1;
			*next += m->interval;
		} else {
			return 0;
		}
	}
}

/* Read the trace once, feeding both engines and sampling between events. */
static int run_models(struct models *m, const char *const kernel[2], const char *clock,
		      bool perf_groups)
{
	struct cfsr_clock_feed *feed = NULL;
	struct cfsr_clock_reading rd;
	struct cfsr_progress progress;
	struct cfsr_trace *t;
	struct cfsr_event ev;
	uint64_t next = UINT64_MAX;
	int ret, s, have_rd = 0, status = -1;

	t = cfsr_trace_open(m->path);
	if (!t)
		return -1;
	m->nr_cpus = t->info.nr_cpus > 0 ? t->info.nr_cpus : 1;
	m->release = t->info.kernel_release ? strdup(t->info.kernel_release) : NULL;
	for (s = 0; s < 2; s++) {
		m->prof[s] = cfsr_profile_choose(t->info.kernel_release, kernel[s], t->path);
		if (!m->prof[s])
			goto out;
		m->series[s] = cfsr_profile_series_note(t->info.kernel_release, kernel[s],
							m->series_buf[s], sizeof(m->series_buf[s]));
		m->r[s] = cfsr_replay_new(m->nr_cpus, m->prof[s], t->info.hz);
		if (!m->r[s]) {
			cfsr_error("compare: out of memory");
			goto out;
		}
		cfsr_replay_set_peek(m->r[s], cfsr_trace_peek_fn, t);
		cfsr_replay_take_tunables(m->r[s], &t->info);
		if (cfsr_meta_group_shares(t, cfsr_replay_group_shares_fn, m->r[s]) < 0 ||
		    cfsr_meta_idle(t, cfsr_replay_group_idle_fn, cfsr_replay_task_idle_fn,
				   m->r[s]) < 0)
			goto out;
		m->pk[s] = cfsr_pickcheck_new(&(struct cfsr_pickcheck_params){
			.engine = m->r[s],
			.nr_cpus = m->nr_cpus,
			.prof = m->prof[s],
			.hz = t->info.hz,
			.win_end = UINT64_MAX,
			.filter_cpu = -1,
			.filter_pid = -1,
		});
		if (!m->pk[s])
			goto out;
	}
	m->d = cfsr_modeldiff_new(m->nr_cpus);
	if (!m->d)
		goto out;
	clock = cfsr_clock_source(t, clock);
	if (perf_groups && cfsr_perf_groups_refuse("compare", t, clock) < 0)
		goto out;
	m->group_source = perf_groups		  ? PERF_GROUPS_SOURCE :
			  !clock		  ? NO_GROUPS_SOURCE :
			  !strcmp(clock, t->path) ? "the trace's snapshots" :
						    "the records of --clock FILE";
	for (s = 0; s < 2; s++)
		if (group_time_init(&m->gt[s], m->r[s], m->nr_cpus) < 0)
			goto out;
	if (perf_groups && cfsr_perf_groups_begin(&m->pg, m->r, 2, "compare", t) < 0)
		goto out;
	for (s = 0; perf_groups && s < 2; s++)
		cfsr_pickcheck_groups_perf(m->pk[s]);
	if (clock) {
		/* only clock readings and each task's group: structure, not PELT values */
		feed = cfsr_clock_feed_open(clock);
		if (!feed)
			goto out;
		/* a recorded trace's own snapshots are on its clock */
		if (strcmp(clock, t->path)) {
			struct cfsr_clock_map map;
			char how[512];

			if (cfsr_clock_map_find(clock, t->info.clock, &map) < 0)
				goto out;
			cfsr_clock_feed_align(feed, &map);
			if (map.how != CFSR_CLOCK_SAME) {
				cfsr_clock_map_describe(&map, clock, how, sizeof(how));
				fprintf(stderr, "compare: %s\n", how);
			}
		}
		for (s = 0; s < 2; s++) {
			cfsr_replay_expect_clock(m->r[s]);
			cfsr_pickcheck_groups_known(m->pk[s]);
		}
		if (cfsr_task_groups(clock, set_group, NULL, m) < 0)
			goto out;
		have_rd = cfsr_clock_feed_next(feed, &rd);
	}
	cfsr_progress_init(&progress, t->path);
	while ((ret = cfsr_trace_next(t, &ev)) > 0) {
		if (!m->events++) {
			m->first_ts = ev.ts;
			next = ev.ts + m->interval;
		}
		if (before_event(m, feed, &rd, &have_rd, &next, ev.ts) < 0 ||
		    cfsr_perf_groups_event(&m->pg, t, &ev) < 0 ||
		    group_time_event(&m->gt[0], &ev) < 0 || group_time_event(&m->gt[1], &ev) < 0 ||
		    cfsr_pickcheck_before(m->pk[0], &ev) < 0 ||
		    cfsr_pickcheck_before(m->pk[1], &ev) < 0 ||
		    cfsr_replay_event(m->r[0], &ev) < 0 || cfsr_replay_event(m->r[1], &ev) < 0) {
			ret = -1;
			break;
		}
		cfsr_pickcheck_after(m->pk[0], &ev);
		cfsr_pickcheck_after(m->pk[1], &ev);
		m->last_ts = ev.ts;
		cfsr_progress_update(&progress, t->stats.records, ev.ts - t->stats.first_ts);
	}
	cfsr_progress_done(&progress);
	if (ret < 0)
		goto out;
	if (!m->events) {
		cfsr_error("'%s' has no events: nothing to compare", m->path);
		goto out;
	}
	cfsr_perf_groups_summary(&m->pg, "compare");
	status = 0;
out:
	cfsr_clock_feed_close(feed);
	cfsr_trace_close(t);
	return status;
}

static const char *model_label(const struct models *m, int s)
{
	return cfsr_profile_what_if(m->release, m->prof[s]) ? " (what-if)" : "";
}

static double mean(double sum, uint64_t n)
{
	return n ? sum / (double)n : 0;
}

static void text_stat_u64(const char *label, uint64_t a, uint64_t b)
{
	printf("  %-34s %12" PRIu64 " %12" PRIu64 "\n", label, a, b);
}

/*
 * Which of the compared signals model @p has: v3.8-v5.6 models have no
 * runnable_avg, v3.8-v4.0 no utilization, v3.8-v4.14 no util_est.
 */
static bool model_has(const struct cfsr_profile *p, int k)
{
	static const unsigned int need[CFSR_MD_NR] = {
		[CFSR_MD_LOAD] = 0,
		[CFSR_MD_RUNNABLE] = CFSR_SIG_RUNNABLE_AVG,
		[CFSR_MD_UTIL] = CFSR_SIG_UTIL,
		[CFSR_MD_UTIL_EST] = CFSR_SIG_UTIL_EST,
	};

	return (cfsr_pelt_signals(p) & need[k]) == need[k];
}

static void text_signals(const struct models *m, const char *who, const struct cfsr_md_row *row)
{
	int k;

	for (k = 0; k < CFSR_MD_NR; k++) {
		const struct cfsr_md_stat *st = &row->stat[k];

		if (!model_has(m->prof[0], k) || !model_has(m->prof[1], k)) {
			printf("  %-20.20s %-12s not in model %s\n", k ? "" : who,
			       cfsr_md_signal_name((enum cfsr_md_signal)k),
			       model_has(m->prof[0], k) ? "B" :
			       model_has(m->prof[1], k) ? "A" :
							  "A nor B");
			continue;
		}

		printf("  %-20.20s %-12s %9.1f %9.1f %10.2f %8" PRIu64, k ? "" : who,
		       cfsr_md_signal_name((enum cfsr_md_signal)k), mean(st->sum_a, row->samples),
		       mean(st->sum_b, row->samples), mean(st->sum_abs, row->samples), st->max_abs);
		if (st->max_abs)
			printf("  %" PRIu64 ".%06" PRIu64 "\n", st->max_ts / 1000000000,
			       st->max_ts % 1000000000 / 1000);
		else
			printf("\n");
	}
}

/*
 * Each model's pick check on the same switches: per CPU, how the verdicts
 * (docs/COMPARATORS.md) change from one model's pick rule to the other's.
 */
static void text_model_picks(const struct models *m)
{
	struct cfsr_pick_cpu sum;
	char who[32];
	int c, s;

	printf("\npick check (each model's fair pick against the task the kernel ran)\n");
	cfsr_pick_text_header();
	for (c = 0; c <= m->nr_cpus; c++)
		for (s = 0; s < 2; s++) {
			if (c < m->nr_cpus)
				snprintf(who, sizeof(who), "CPU %-4d %c", c, 'A' + s);
			else
				snprintf(who, sizeof(who), "all      %c", 'A' + s);
			if (s)
				memset(who, ' ', 8);
			if (c < m->nr_cpus) {
				cfsr_pick_text_counts(who, cfsr_pickcheck_cpu(m->pk[s], c));
			} else {
				cfsr_pickcheck_total(m->pk[s], &sum);
				cfsr_pick_text_counts(who, &sum);
			}
		}
	for (s = 0; s < 2; s++) {
		cfsr_pick_text_reasons(m->pk[s], 'D', s ? "  B diverges:" : "  A diverges:");
		cfsr_pick_text_reasons(m->pk[s], 'C',
				       s ? "  B cannot judge:" : "  A cannot judge:");
	}
}

/* Both models' run time per task group. */
static void print_model_groups(const struct models *m)
{
	const struct group_time *gt[2] = { &m->gt[0], &m->gt[1] };
	const char *const src[2] = { m->group_source, m->group_source };
	const uint64_t sp[2] = { m->last_ts - m->first_ts, m->last_ts - m->first_ts };
	const int nc[2] = { m->nr_cpus, m->nr_cpus };

	print_group_table(gt, src, sp, nc);
}

static void text_models(struct models *m, const struct cfsr_md_row *rows, size_t n, size_t all)
{
	const struct cfsr_replay_stats *st[2] = { cfsr_replay_stats(m->r[0]),
						  cfsr_replay_stats(m->r[1]) };
	double ms = (double)m->interval / 1e6;
	char who[64];
	size_t i;
	int c, s;

	printf("trace    %s\n", m->path);
	printf("         kernel %s, %d CPUs, %" PRIu64 " events\n",
	       m->release ? m->release : "unknown", m->nr_cpus, m->events);
	for (s = 0; s < 2; s++) {
		printf("model %c  %s%s\n", 'A' + s, m->prof[s]->name, model_label(m, s));
		if (m->series[s])
			printf("         %s\n", m->series[s]);
	}
	printf("samples  %" PRIu64 ", every %.3f ms of trace time; %" PRIu64
	       " task readings skipped while warming up\n",
	       cfsr_modeldiff_samples(m->d), ms, cfsr_modeldiff_warming(m->d));

	printf("\nwhat each model did                         A            B\n");
	text_stat_u64("task PELT updates", st[0]->updates, st[1]->updates);
	text_stat_u64("cfs_rq PELT updates", st[0]->cfs_updates, st[1]->cfs_updates);
	text_stat_u64("sleeps delayed (DELAY_DEQUEUE)", st[0]->delayed, st[1]->delayed);
	text_stat_u64("  completed by a pick", st[0]->delayed_picked, st[1]->delayed_picked);
	text_stat_u64("  requeued by a wakeup", st[0]->delayed_woken, st[1]->delayed_woken);
	text_stat_u64("updates on an estimated clock", st[0]->estimated_updates,
		      st[1]->estimated_updates);

	text_model_picks(m);

	printf("\nper CPU, root cfs_rq        signal         mean A    mean B  mean|A-B| max|A-B|"
	       "  at\n");
	for (c = 0; c < m->nr_cpus; c++) {
		const struct cfsr_md_row *row = cfsr_modeldiff_cpu(m->d, c);

		snprintf(who, sizeof(who), "CPU %d (%" PRIu64 ")", c, row->samples);
		text_signals(m, who, row);
		printf("  %-20s util_avg >= 80%% of capacity: A %.3f ms, B %.3f ms\n", "",
		       (double)row->unfit_a * ms, (double)row->unfit_b * ms);
	}

	print_model_groups(m);

	printf("\ntasks, largest mean difference first (%zu of %zu)\n", n, all);
	printf("  task                 signal         mean A    mean B  mean|A-B| max|A-B|  at\n");
	for (i = 0; i < n; i++) {
		snprintf(who, sizeof(who), "%.15s:%d", rows[i].comm, rows[i].pid);
		text_signals(m, who, &rows[i]);
	}
}

static json_object *json_md_row(const struct cfsr_md_row *row, uint64_t interval)
{
	json_object *o = json_object_new_object(), *sig = json_object_new_object();
	int k;

	if (row->pid >= 0) {
		json_object_object_add(o, "pid", json_object_new_int(row->pid));
		json_object_object_add(o, "comm", json_object_new_string(row->comm));
	} else {
		json_object_object_add(o, "cpu", json_object_new_int(row->cpu));
	}
	json_object_object_add(o, "samples", json_object_new_uint64(row->samples));
	for (k = 0; k < CFSR_MD_NR; k++) {
		const struct cfsr_md_stat *st = &row->stat[k];
		json_object *x = json_object_new_object();

		json_object_object_add(x, "mean_a",
				       json_object_new_double(mean(st->sum_a, row->samples)));
		json_object_object_add(x, "mean_b",
				       json_object_new_double(mean(st->sum_b, row->samples)));
		json_object_object_add(x, "mean_abs_diff",
				       json_object_new_double(mean(st->sum_abs, row->samples)));
		json_object_object_add(x, "max_abs_diff", json_object_new_uint64(st->max_abs));
		json_object_object_add(x, "max_a", json_object_new_uint64(st->max_a));
		json_object_object_add(x, "max_b", json_object_new_uint64(st->max_b));
		json_object_object_add(x, "max_ts_ns", json_object_new_uint64(st->max_ts));
		json_object_object_add(sig, cfsr_md_signal_name((enum cfsr_md_signal)k), x);
	}
	json_object_object_add(o, "signals", sig);
	json_object_object_add(o, "unfit_ns_a", json_object_new_uint64(row->unfit_a * interval));
	json_object_object_add(o, "unfit_ns_b", json_object_new_uint64(row->unfit_b * interval));
	return o;
}

/* One model's pick check: its rule, counts in total and per CPU, reasons. */
static json_object *json_model_picks(const struct models *m, int s)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array(), *why, *e;
	struct cfsr_pick_cpu sum;
	int c, k;

	json_object_object_add(o, "pick",
			       json_object_new_string(m->prof[s]->eevdf ? "eevdf" : "cfs"));
	cfsr_pickcheck_total(m->pk[s], &sum);
	json_object_object_add(o, "total", cfsr_pick_json_counts(&sum));
	for (c = 0; c < m->nr_cpus; c++) {
		e = cfsr_pick_json_counts(cfsr_pickcheck_cpu(m->pk[s], c));
		json_object_object_add(e, "cpu", json_object_new_int(c));
		json_object_array_add(cpus, e);
	}
	json_object_object_add(o, "cpus", cpus);
	why = json_object_new_object();
	for (k = 0; k < CFSR_PR_NR; k++)
		json_object_object_add(why, cfsr_pick_reason_key((enum cfsr_pick_reason)k),
				       json_object_new_uint64(cfsr_pickcheck_reason(
					       m->pk[s], (enum cfsr_pick_reason)k)));
	json_object_object_add(o, "reasons", why);
	return o;
}

static int json_models(struct models *m, const struct cfsr_md_row *rows, size_t n)
{
	json_object *o = json_object_new_object(), *tr, *arr, *x, *stats;
	const struct cfsr_replay_stats *st;
	size_t i;
	int s, c;

	if (!o)
		return -1;
	json_object_object_add(o, "format_version", json_object_new_int(MODELS_FORMAT_VERSION));
	json_object_object_add(o, "command", json_object_new_string("compare"));
	json_object_object_add(o, "mode", json_object_new_string("models"));
	tr = json_object_new_object();
	json_object_object_add(tr, "file", json_object_new_string(m->path));
	json_object_object_add(tr, "kernel_release",
			       m->release ? json_object_new_string(m->release) : NULL);
	json_object_object_add(tr, "nr_cpus", json_object_new_int(m->nr_cpus));
	json_object_object_add(tr, "events", json_object_new_uint64(m->events));
	json_object_object_add(tr, "first_ts_ns", json_object_new_uint64(m->first_ts));
	json_object_object_add(tr, "last_ts_ns", json_object_new_uint64(m->last_ts));
	json_object_object_add(o, "trace", tr);
	arr = json_object_new_array();
	for (s = 0; s < 2; s++) {
		st = cfsr_replay_stats(m->r[s]);
		x = json_object_new_object();
		json_object_object_add(x, "model", json_object_new_string(m->prof[s]->name));
		json_object_object_add(
			x, "what_if",
			json_object_new_boolean(cfsr_profile_what_if(m->release, m->prof[s])));
		stats = json_object_new_object();
		json_object_object_add(stats, "task_updates", json_object_new_uint64(st->updates));
		json_object_object_add(stats, "cfs_rq_updates",
				       json_object_new_uint64(st->cfs_updates));
		json_object_object_add(stats, "delayed", json_object_new_uint64(st->delayed));
		json_object_object_add(stats, "delayed_picked",
				       json_object_new_uint64(st->delayed_picked));
		json_object_object_add(stats, "delayed_woken",
				       json_object_new_uint64(st->delayed_woken));
		json_object_object_add(stats, "estimated_updates",
				       json_object_new_uint64(st->estimated_updates));
		json_object_object_add(x, "stats", stats);
		json_object_object_add(x, "pick_check", json_model_picks(m, s));
		json_object_object_add(x, "task_groups", json_groups(&m->gt[s], m->group_source));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "models", arr);
	x = json_object_new_object();
	json_object_object_add(x, "interval_ns", json_object_new_uint64(m->interval));
	json_object_object_add(x, "samples", json_object_new_uint64(cfsr_modeldiff_samples(m->d)));
	json_object_object_add(x, "warming_skipped",
			       json_object_new_uint64(cfsr_modeldiff_warming(m->d)));
	json_object_object_add(o, "sampling", x);
	arr = json_object_new_array();
	for (c = 0; c < m->nr_cpus; c++)
		json_object_array_add(arr, json_md_row(cfsr_modeldiff_cpu(m->d, c), m->interval));
	json_object_object_add(o, "cpus", arr);
	arr = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(arr, json_md_row(&rows[i], m->interval));
	json_object_object_add(o, "tasks", arr);
	return cfsr_put_json(o);
}

static int compare_models(const char *path, const char *const kernel[2], const char *clock,
			  bool perf_groups, uint64_t interval, long top, bool json)
{
	struct models m = { 0 };
	const struct cfsr_md_row *rows;
	long all;
	size_t n;
	int status = CFSR_EXIT_ERROR;

	m.path = path;
	m.interval = interval;
	if (run_models(&m, kernel, clock, perf_groups) < 0)
		goto out;
	all = cfsr_modeldiff_tasks(m.d, &rows);
	if (all < 0)
		goto out;
	if (top < 0)
		top = json ? 0 : DEFAULT_TOP;
	n = (size_t)all;
	if (top && (size_t)top < n)
		n = (size_t)top;
	if (json) {
		if (json_models(&m, rows, n) < 0) {
			cfsr_error("compare: cannot render JSON");
			goto out;
		}
	} else {
		text_models(&m, rows, n, (size_t)all);
	}
	status = CFSR_EXIT_OK;
out:
	models_free(&m);
	return status;
}

int cmd_compare(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "top", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "interval", required_argument, NULL, 'i' },
		{ "clock", required_argument, NULL, 'c' },
		{ "perf-cgroups", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct side sd[2] = { { 0 }, { 0 } };
	int c, s, status = CFSR_EXIT_ERROR;
	bool json = false;
	long top = -1;
	struct row *rows = NULL;
	const char *kernel[2] = { NULL, NULL };
	uint64_t interval = 0;
	const char *clock = NULL;
	bool perf_groups = false;
	int nr_kernels = 0;
	size_t n = 0;
	double ms;
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
		case 'k':
			if (nr_kernels == 2) {
				cfsr_error("compare: --kernel at most twice");
				goto out;
			}
			kernel[nr_kernels++] = optarg;
			break;
		case 'c':
			clock = optarg;
			break;
		case 'G':
			if (cfsr_perf_groups_arg("compare", optarg) < 0)
				goto out;
			perf_groups = true;
			break;
		case 'i':
			ms = strtod(optarg, &end);
			/* at least a PELT period's unit, at most a minute */
			if (*end || !*optarg || !(ms >= 0.001 && ms <= 60000)) {
				cfsr_error(
					"compare: --interval takes milliseconds (0.001 to 60000), "
					"not '%s'",
					optarg);
				goto out;
			}
			interval = (uint64_t)(ms * 1e6 + 0.5);
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
	if (nr_kernels) {
		if (optind + 1 != argc) {
			cfsr_error(
				"compare --kernel takes one trace; see 'cfsreplay compare --help'");
			goto out;
		}
		status = compare_models(argv[optind], kernel, clock, perf_groups,
					interval ? interval : DEFAULT_INTERVAL_NS, top, json);
		goto out;
	}
	if (interval || clock) {
		cfsr_error("compare: --%s needs --kernel", interval ? "interval" : "clock");
		goto out;
	}
	if (optind + 2 != argc) {
		cfsr_error(
			"compare needs two traces, TRACE_A and TRACE_B; see 'cfsreplay compare --help'");
		goto out;
	}
	for (s = 0; s < 2; s++) {
		sd[s].path = argv[optind + s];
		if (account(&sd[s], perf_groups) < 0)
			goto out;
	}
	if (perf_groups && !sd[0].perf_data && !sd[1].perf_data) {
		cfsr_error("compare: --perf-cgroups takes a perf.data's cgroups: neither '%s' nor "
			   "'%s' is one",
			   sd[0].path, sd[1].path);
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
		print_side_groups(sd);
		print_wake_table(sd, rows, n);
	}
	status = CFSR_EXIT_OK;
out:
	free(rows);
	for (s = 0; s < 2; s++) {
		cfsr_taskstats_free(sd[s].ts);
		cfsr_perf_groups_release(&sd[s].pg);
		group_time_release(&sd[s].gt);
		if (sd[s].comp)
			cfsr_comparators_release(&sd[s].c);
		free(sd[s].fid.pelt);
		free(sd[s].kernel);
	}
	return status;
}

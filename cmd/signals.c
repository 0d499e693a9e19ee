// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay signals TRACE: the model's PELT signals, one row per update.
 *
 * Replays the trace (with the clock readings of --clock, if given) and
 * writes a row at every model update of an entity, as CSV or JSON lines,
 * in the format docs/cfsreplay-output.5.txt specifies.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clockfeed.h"
#include "cmds.h"
#include "error.h"
#include "formats.h"
#include "pelt-ops.h"
#include "pidset.h"
#include "profile.h"
#include "progress.h"
#include "replay.h"
#include "schedfeat.h"

static const char *const signals_usage[] = {
	"usage: cfsreplay signals [--pid PID]... [--cpu N] [--entity task|cfs_rq|gse|all]",
	"                         [--format csv|jsonl] [--clock FILE] [--kernel VERSION]",
	"                         [--mark-clock] [--perf-cgroups cpu] TRACE",
	"",
	"Replay TRACE and print one row per model update of a PELT signal.",
	"",
	"    --pid PID          only this task's rows, no cfs_rq rows (repeatable)",
	"    --cpu N            only updates on this CPU's run queue",
	"    --entity KIND      task, cfs_rq, gse or all (default all)",
	"    --format FMT       csv (default) or jsonl",
	"    --clock FILE       take the run queues' clock readings, and each task's",
	"                       group, from a truth.jsonl or pelt.jsonl (never their",
	"                       PELT values); by default from the snapshots a trace",
	"                       made by 'cfsreplay record' carries; 'none': neither",
	"    --kernel VERSION   model this kernel release instead of the trace's own",
	"    --mark-clock       add a column clock_exact: 1 where the update's clock",
	"                       came from kernel values alone (a reading, a run-time",
	"                       chain from one), 0 where it descends from a time stamp",
	"    --perf-cgroups cpu take a perf.data's cgroups (--all-cgroups) as the cpu",
	"                       controller's task groups: each task in its samples'",
	"                       cgroup, moved at perf's hierarchy's attaches; shares",
	"                       assumed 1024",
	"    -h, --help         show this help",
	"",
	"cfs_rq rows are those of the root and of each task group on each CPU",
	"(path \"/\" for the root), gse rows those of each group's entity on its",
	"parent (path: the group); --pid selects those tasks' rows only.",
	"",
	"Exit status: 0 success, 2 error.",
	NULL,
};

#define CSV_HEADER                                                                   \
	"ts_ns,cpu,entity,pid,path,comm,load_weight,load_sum,runnable_sum,util_sum," \
	"period_contrib,load_avg,runnable_avg,util_avg,util_est,last_update_time,"   \
	"tg_load_avg,tg_load_avg_contrib"
/*
 * The v3.8-v5.6 models' rows have the signals those kernels had (format
 * "legacy" and "v4" of docs/cfsreplay-output.5.txt); util columns only
 * where the model has utilization, util_est where it has util_est.
 */
#define CSV_HEAD_OLD "ts_ns,cpu,entity,pid,path,comm,load_weight,"
#define CSV_LEGACY                                                                    \
	"runnable_avg_sum,avg_period,load_avg_contrib,decay_count,runnable_load_avg," \
	"blocked_load_avg,decay_counter,last_update_time"
#define CSV_LEGACY_UTIL                                                          \
	"runnable_avg_sum,avg_period,running_avg_sum,load_avg_contrib,util_avg," \
	"decay_count,runnable_load_avg,blocked_load_avg,decay_counter,last_update_time"
#define CSV_V4                                                                           \
	"load_sum,runnable_load_sum,util_sum,period_contrib,load_avg,runnable_load_avg," \
	"util_avg,last_update_time"
#define CSV_V4_UE                                                                        \
	"load_sum,runnable_load_sum,util_sum,period_contrib,load_avg,runnable_load_avg," \
	"util_avg,util_est,last_update_time"

struct signals {
	struct cfsr_pidset pids;
	int cpu;
	bool jsonl;
	bool tasks;
	bool cfs_rqs;
	bool gses;
	/* util_est is a pair (v5.7-v6.7): task rows print task_util_est() */
	const struct cfsr_pelt_params *ue_pair;
	/* the model's signals (cfsr_pelt_signals()) */
	unsigned int sig;
	uint64_t rows;
	/* --mark-clock: a last column, clock_exact */
	bool mark_clock;
	const struct cfsr_replay *replay;
};

/* A string in CSV: quoted when it holds a comma, quote or line break. */
static void csv_comm(const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* A string as a JSON string body: escape what JSON requires. */
static void json_str(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
}

/* The columns every row starts with, up to load_weight. */
static void row_head(const struct signals *s, const struct cfsr_replay_update *u,
		     const char *entity, int pid, const char *path, const char *comm,
		     uint64_t load_weight)
{
	if (s->jsonl) {
		printf("{\"ts_ns\":%" PRIu64 ",\"cpu\":%d,\"entity\":\"%s\",", u->ts, u->cpu,
		       entity);
		if (pid >= 0)
			printf("\"pid\":%d,\"path\":\"", pid);
		else
			printf("\"pid\":null,\"path\":\"");
		json_str(path);
		printf("\",\"comm\":\"");
		json_str(comm);
		printf("\",\"load_weight\":%" PRIu64, load_weight);
		return;
	}
	printf("%" PRIu64 ",%d,%s,", u->ts, u->cpu, entity);
	if (pid >= 0)
		printf("%d", pid);
	putchar(',');
	csv_comm(path);
	putchar(',');
	csv_comm(comm);
	printf(",%" PRIu64, load_weight);
}

/* The end of a row: --mark-clock's column, then the line's end. */
static void row_end(const struct signals *s, const struct cfsr_replay_update *u)
{
	if (s->mark_clock)
		printf(s->jsonl ? ",\"clock_exact\":%d" : ",%d", u->clock_exact ? 1 : 0);
	puts(s->jsonl ? "}" : "");
}

/*
 * One row.  @tg: for a group cfs_rq, its group's tg->load_avg and its
 * tg_load_avg_contrib; NULL for the other rows (empty columns, null).
 */
static void print_row(const struct signals *s, const struct cfsr_replay_update *u, int pid,
		      const char *path, const char *comm, uint64_t load_weight,
		      const struct cfsr_sched_avg *a, const int64_t *tg)
{
	const char *entity = u->task ? "task" : u->why == CFSR_UPD_GROUP_SE ? "gse" : "cfs_rq";

	row_head(s, u, entity, pid, path, comm, load_weight);
	if (s->jsonl) {
		printf(",\"load_sum\":%" PRIu64 ",\"runnable_sum\":%" PRIu64
		       ",\"util_sum\":%u,\"period_contrib\":%u"
		       ",\"load_avg\":%" PRIu64 ",\"runnable_avg\":%" PRIu64
		       ",\"util_avg\":%" PRIu64 ",\"util_est\":%u,\"last_update_time\":%" PRIu64,
		       a->load_sum, a->runnable_sum, a->util_sum, a->period_contrib, a->load_avg,
		       a->runnable_avg, a->util_avg, a->util_est, a->last_update_time);
		if (tg)
			printf(",\"tg_load_avg\":%" PRId64 ",\"tg_load_avg_contrib\":%" PRId64,
			       tg[0], tg[1]);
		else
			printf(",\"tg_load_avg\":null,\"tg_load_avg_contrib\":null");
		row_end(s, u);
		return;
	}
	printf(",%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64,
	       a->load_sum, a->runnable_sum, a->util_sum, a->period_contrib, a->load_avg,
	       a->runnable_avg, a->util_avg, a->util_est, a->last_update_time);
	if (tg)
		printf(",%" PRId64 ",%" PRId64, tg[0], tg[1]);
	else
		fputs(",,", stdout);
	row_end(s, u);
}

/*
 * An integer column (@sgn: signed, the legacy decay_count), or an empty
 * one (CSV) / null (JSON) where it does not apply.
 */
static void put_col(const struct signals *s, const char *key, bool have, uint64_t v, bool sgn)
{
	char num[24];

	if (sgn)
		snprintf(num, sizeof(num), "%" PRId64, (int64_t)v);
	else
		snprintf(num, sizeof(num), "%" PRIu64, v);
	if (s->jsonl)
		printf(",\"%s\":%s", key, have ? num : "null");
	else
		printf(",%s", have ? num : "");
}

/*
 * A row of a v3.8-v4.2 (legacy) or v4.3-v5.6 (v4) model, from the model's
 * own state: an entity's columns on task and gse rows (@entity "task" or
 * "gse"), a cfs_rq's on cfs_rq rows.
 */
static void print_old_row(const struct signals *s, const struct cfsr_replay_update *u, int pid,
			  const char *path, const char *comm, uint64_t load_weight,
			  const struct cfsr_sched_avg *a, const char *entity)
{
	bool task = strcmp(entity, "cfs_rq") != 0;
	const struct cfsr_legacy_avg *l = &a->old.se;
	const struct cfsr_legacy_cfs_rq *c = &a->old.cfs;
	const struct cfsr_v4_avg *v = &a->old.v4;
	bool util = s->sig & CFSR_SIG_UTIL;

	row_head(s, u, entity, pid, path, comm, load_weight);
	if (s->sig & CFSR_SIG_LEGACY) {
		put_col(s, "runnable_avg_sum", task, l->runnable_avg_sum, false);
		put_col(s, "avg_period", task, l->runnable_avg_period, false);
		if (util)
			put_col(s, "running_avg_sum", task, l->running_avg_sum, false);
		put_col(s, "load_avg_contrib", task, l->load_avg_contrib, false);
		if (util)
			put_col(s, "util_avg", true, a->util_avg, false);
		put_col(s, "decay_count", task, (uint64_t)l->decay_count, true);
		put_col(s, "runnable_load_avg", !task, c->runnable_load_avg, false);
		put_col(s, "blocked_load_avg", !task, c->blocked_load_avg, false);
		put_col(s, "decay_counter", !task, c->decay_counter, false);
	} else {
		bool rl = !task || (s->sig & CFSR_SIG_SE_RUNNABLE_LOAD);

		put_col(s, "load_sum", true, v->load_sum, false);
		put_col(s, "runnable_load_sum", rl, v->runnable_load_sum, false);
		put_col(s, "util_sum", true, v->util_sum, false);
		put_col(s, "period_contrib", true, v->period_contrib, false);
		put_col(s, "load_avg", true, v->load_avg, false);
		put_col(s, "runnable_load_avg", rl, v->runnable_load_avg, false);
		put_col(s, "util_avg", true, v->util_avg, false);
		if (s->sig & CFSR_SIG_UTIL_EST)
			put_col(s, "util_est", true, a->util_est, false);
	}
	put_col(s, "last_update_time", true, a->last_update_time, false);
	row_end(s, u);
}

static void on_update(void *data, const struct cfsr_replay_update *u)
{
	struct signals *s = data;
	const struct cfsr_task *t = u->task;
	const struct cfsr_cfs_rq *q = u->cfs_rq;
	struct cfsr_sched_avg a;
	int64_t tg[2];

	if (s->cpu >= 0 && u->cpu != s->cpu)
		return;
	if (t) {
		if (!s->tasks || (s->pids.nr && !cfsr_pidset_has(&s->pids, t->pid)))
			return;
		s->rows++;
		a = t->avg;
		if (s->ue_pair)
			a.util_est = (uint32_t)cfsr_pelt_task_util_est(s->ue_pair, &t->avg);
		if (!(s->sig & CFSR_SIG_RUNNABLE_AVG))
			print_old_row(s, u, t->pid, "", t->comm, t->load_weight, &a, "task");
		else
			print_row(s, u, t->pid, "", t->comm, t->load_weight, &a, NULL);
		return;
	}
	if (!q || s->pids.nr)
		return;
	if (u->why == CFSR_UPD_GROUP_SE) {
		if (!s->gses)
			return;
		s->rows++;
		if (!(s->sig & CFSR_SIG_RUNNABLE_AVG))
			print_old_row(s, u, -1, q->path, "", q->se_weight, &q->se_avg, "gse");
		else
			print_row(s, u, -1, q->path, "", q->se_weight, &q->se_avg, NULL);
		return;
	}
	if (!s->cfs_rqs)
		return;
	s->rows++;
	if (!(s->sig & CFSR_SIG_RUNNABLE_AVG)) {
		print_old_row(s, u, -1, q->path, "", q->load_weight, &q->avg, "cfs_rq");
		return;
	}
	tg[0] = cfsr_replay_tg_load_avg(s->replay, q);
	tg[1] = (int64_t)q->tg_load_avg_contrib;
	print_row(s, u, -1, q->path, "", q->load_weight, &q->avg, q->group ? tg : NULL);
}

/* cfsr_task_groups() callback: put the task in its group. */
static int set_group(void *data, int tid, const char *group)
{
	return cfsr_replay_task_set_group(data, tid, group) < 0 ? -1 : 0;
}

static int replay(struct cfsr_trace *t, struct cfsr_clock_feed *feed, struct cfsr_replay *r,
		  struct cfsr_perf_groups *pg)
{
	struct cfsr_clock_reading rd;
	struct cfsr_progress progress;
	struct cfsr_event ev;
	int have_ev, have_rd = 0;
	uint64_t clock;

	cfsr_progress_init(&progress, t->path);
	have_ev = cfsr_trace_next(t, &ev);
	if (feed)
		have_rd = cfsr_clock_feed_next(feed, &rd);
	while (have_ev > 0 || have_rd > 0) {
		if (have_ev < 0 || have_rd < 0)
			return -1;
		if (have_rd > 0 && (have_ev <= 0 || rd.ts < ev.ts)) {
			/* a PELT record's clock is that of the kernel path it fired in */
			clock = cfsr_replay_reading_clock(r, rd.cpu, rd.clock_task, rd.clock_pelt,
							  rd.lost_idle_time, true);
			if (rd.cpu >= 0 && rd.in_path)
				cfsr_replay_clock_record(r, rd.cpu, rd.ts, clock);
			else if (rd.cpu >= 0 && rd.at_update)
				cfsr_replay_clock_update(r, rd.cpu, rd.ts, clock, rd.until);
			else if (rd.cpu >= 0)
				cfsr_replay_clock_sample(r, rd.cpu, rd.ts, clock);
			if (cfsr_reading_structure(r, &rd) < 0)
				return -1;
			have_rd = cfsr_clock_feed_next(feed, &rd);
			continue;
		}
		if (cfsr_perf_groups_event(pg, t, &ev) < 0 || cfsr_replay_event(r, &ev) < 0)
			return -1;
		cfsr_progress_update(&progress, t->stats.records, ev.ts - t->stats.first_ts);
		have_ev = cfsr_trace_next(t, &ev);
	}
	cfsr_progress_done(&progress);
	return 0;
}

/*
 * How the PELT clock was aligned, on stderr (stdout is the rows): where
 * the anchors came from, and how many clock values were estimated from
 * the CPU's last anchor (steal time since it is not seen) or taken from
 * the trace clock before any anchor (the PELT window phase is a guess).
 */
static void clock_summary(const struct cfsr_replay *r, const char *clock, const char *path,
			  const struct cfsr_clock_map *map)
{
	const struct cfsr_replay_stats *st = cfsr_replay_stats(r);
	char how[512];

	fprintf(stderr,
		"signals: clock anchored by run-time reports%s%s%s; %" PRIu64 " task and %" PRIu64
		" cfs_rq updates; %" PRIu64 " clock values estimated from the last anchor, %" PRIu64
		" %s\n",
		clock ? " and the readings of " : " only", clock ? clock : "",
		clock && !strcmp(clock, path) ? " (its own snapshots)" : "", st->updates,
		st->cfs_updates, st->estimated_updates, st->unanchored_updates,
		clock ? "before a CPU's first reading (no update made on them)" :
			"on the trace clock (no anchor yet: PELT window phase guessed)");
	if (clock && strcmp(clock, path)) {
		cfsr_clock_map_describe(map, clock, how, sizeof(how));
		fprintf(stderr, "signals: %s\n", how);
	}
}

/* On stderr: the engine features the trace's sysctl_sched_features set otherwise. */
static void note_sched_feats(const struct cfsr_replay *r, const struct cfsr_profile *prof)
{
	const char *differ[CFSR_SCHED_FEAT_MAX];
	size_t i, n = cfsr_sched_feats_differ(cfsr_replay_profile(r), prof, differ);

	if (!n)
		return;
	fprintf(stderr,
		"signals: the trace's sysctl_sched_features, in place of the model's defaults:");
	for (i = 0; i < n; i++)
		fprintf(stderr, " %s", differ[i]);
	fprintf(stderr, "\n");
}

int cmd_signals(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "entity", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "clock", required_argument, NULL, 'k' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "mark-clock", no_argument, NULL, 'm' },
		{ "perf-cgroups", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct signals s = {
		.pids = CFSR_PIDSET_INIT, .cpu = -1, .tasks = true, .cfs_rqs = true, .gses = true
	};
	struct cfsr_clock_feed *feed = NULL;
	struct cfsr_clock_map map = { .how = CFSR_CLOCK_SAME };
	struct cfsr_perf_groups pg = { .root = -1 };
	bool perf_groups = false;
	struct cfsr_replay *r = NULL;
	struct cfsr_trace *t = NULL;
	const struct cfsr_profile *prof;
	const char *clock = NULL, *kernel = NULL;
	int c, status = CFSR_EXIT_ERROR;
	char series[96];
	char *end;
	long v;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 'p':
		case 'c':
			v = strtol(optarg, &end, 10);
			if (*end || v < 0 || v > 4194304) {
				cfsr_error("signals: --%s takes a number, not '%s'",
					   c == 'p' ? "pid" : "cpu", optarg);
				goto out;
			}
			if (c == 'c')
				s.cpu = (int)v;
			else if (cfsr_pidset_add(&s.pids, (int)v) < 0)
				goto out;
			break;
		case 'e':
			if (strcmp(optarg, "task") && strcmp(optarg, "cfs_rq") &&
			    strcmp(optarg, "gse") && strcmp(optarg, "all")) {
				cfsr_error(
					"signals: --entity takes task, cfs_rq, gse or all, not '%s'",
					optarg);
				goto out;
			}
			s.tasks = !strcmp(optarg, "task") || !strcmp(optarg, "all");
			s.cfs_rqs = !strcmp(optarg, "cfs_rq") || !strcmp(optarg, "all");
			s.gses = !strcmp(optarg, "gse") || !strcmp(optarg, "all");
			break;
		case 'f':
			if (strcmp(optarg, "csv") && strcmp(optarg, "jsonl")) {
				cfsr_error("signals: --format takes csv or jsonl, not '%s'",
					   optarg);
				goto out;
			}
			s.jsonl = !strcmp(optarg, "jsonl");
			break;
		case 'k':
			clock = optarg;
			break;
		case 'K':
			kernel = optarg;
			break;
		case 'm':
			s.mark_clock = true;
			break;
		case 'G':
			if (cfsr_perf_groups_arg("signals", optarg) < 0)
				goto out;
			perf_groups = true;
			break;
		case 'h':
			for (c = 0; signals_usage[c]; c++)
				puts(signals_usage[c]);
			status = CFSR_EXIT_OK;
			goto out;
		default:
			cfsr_error("signals: unknown option '%s'; see 'cfsreplay signals --help'",
				   argv[optind - 1]);
			goto out;
		}
	}
	if (optind + 1 != argc) {
		cfsr_error("signals needs exactly one TRACE; see 'cfsreplay signals --help'");
		goto out;
	}
	t = cfsr_trace_open(argv[optind]);
	if (!t)
		goto out;
	clock = cfsr_clock_source(t, clock);
	/* a clock file gives each task's group too: the kernel's, not perf's */
	if (perf_groups && cfsr_perf_groups_refuse("signals", t, clock) < 0)
		goto out;
	if (clock) {
		feed = cfsr_clock_feed_open(clock);
		if (!feed)
			goto out;
		/* a recorded trace's own snapshots are on its clock */
		if (strcmp(clock, t->path) && cfsr_clock_map_find(clock, t->info.clock, &map) < 0)
			goto out;
		cfsr_clock_feed_align(feed, &map);
	}
	prof = cfsr_profile_choose(t->info.kernel_release, kernel, t->path);
	if (!prof)
		goto out;
	if (cfsr_profile_series_note(t->info.kernel_release, kernel, series, sizeof(series)))
		fprintf(stderr, "signals: %s (model %s)\n", series, prof->name);
	r = cfsr_replay_new(t->info.nr_cpus > 0 ? t->info.nr_cpus : 1, prof, t->info.hz);
	if (!r) {
		cfsr_error("signals: out of memory");
		goto out;
	}
	cfsr_replay_take_tunables(r, &t->info);
	cfsr_replay_set_peek(r, cfsr_trace_peek_fn, t);
	note_sched_feats(r, prof);
	if (cfsr_meta_group_shares(t, cfsr_replay_group_shares_fn, r) < 0 ||
	    cfsr_meta_idle(t, cfsr_replay_group_idle_fn, cfsr_replay_task_idle_fn, r) < 0)
		goto out;
	s.replay = r;
	s.sig = cfsr_pelt_signals(prof);
	s.ue_pair = cfsr_pelt_util_est_params(prof);
	if (s.ue_pair && s.ue_pair->util_est_repr == CFSR_UTIL_EST_SINGLE)
		s.ue_pair = NULL;
	cfsr_replay_set_hook(r, on_update, &s);
	if (feed)
		cfsr_replay_expect_clock(r);
	/* the file also tells each task's group: structure, not PELT values */
	if (clock && (cfsr_task_groups(clock, set_group, NULL, r) < 0 ||
		      cfsr_follow_attaches(r, t, clock) < 0))
		goto out;
	if (!(s.sig & CFSR_SIG_RUNNABLE_AVG))
		fprintf(stderr, "signals: model %s: the columns of its generation\n", prof->name);
	if (!s.jsonl && (s.sig & CFSR_SIG_RUNNABLE_AVG))
		fputs(CSV_HEADER, stdout);
	else if (!s.jsonl)
		printf("%s%s", CSV_HEAD_OLD,
		       (s.sig & CFSR_SIG_LEGACY) ?
			       ((s.sig & CFSR_SIG_UTIL) ? CSV_LEGACY_UTIL : CSV_LEGACY) :
			       ((s.sig & CFSR_SIG_UTIL_EST) ? CSV_V4_UE : CSV_V4));
	if (!s.jsonl)
		puts(s.mark_clock ? ",clock_exact" : "");
	if (perf_groups && cfsr_perf_groups_begin(&pg, &r, 1, "signals", t) < 0)
		goto out;
	if (replay(t, feed, r, &pg) < 0)
		goto out;
	clock_summary(r, clock, t->path, &map);
	cfsr_perf_groups_summary(&pg, "signals");
	status = CFSR_EXIT_OK;
out:
	cfsr_replay_free(r);
	cfsr_clock_feed_close(feed);
	cfsr_trace_close(t);
	cfsr_pidset_release(&s.pids);
	cfsr_perf_groups_release(&pg);
	return status;
}

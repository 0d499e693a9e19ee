// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay validate --pelt FILE TRACE: the model against the kernel's own
 * PELT updates, in lock-step.
 *
 * The trace is replayed; the kernel's PELT records (pelt.jsonl, recorded
 * with BPF on pelt_se_tp) are merged in by time.  At each record of a task
 * entity the model's signal for that task is advanced, with the model's
 * inputs, to the record's last_update_time and compared field by field;
 * then the model takes the kernel's values, so that every comparison tests
 * one step (the arithmetic and the inputs since the previous record), and
 * timing errors do not accumulate.  The records' rq clocks anchor the
 * model's clocks where no run-time chain does.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "alloc.h"
#include "clockfeed.h"
#include "cmds.h"
#include "error.h"
#include "formats.h"
#include "pelt-ops.h"
#include "pickcheck.h"
#include "profile.h"
#include "record.h"
#include "progress.h"
#include "replay.h"
#include "schedfeat.h"
#include "truthfile.h"

static const char *const validate_usage[] = {
	"usage: cfsreplay validate [--pelt FILE | --truth FILE] [--max-error PCT]",
	"                          [--kernel VERSION] [--no-eevdf-keys]",
	"                          [--perf-cgroups cpu] TRACE",
	"",
	"Replay TRACE and compare the model with the kernel: in lock-step with the",
	"kernel's own PELT updates (--pelt: pelt.jsonl[.gz]), or as a prediction",
	"against periodic snapshots of its values (--truth: truth.jsonl[.gz]).",
	"Without either, the snapshots 'cfsreplay record --truth' stored in TRACE.",
	"",
	"    --pelt FILE        the kernel's PELT records of the same run",
	"    --truth FILE       the kernel's snapshots of the same run; only their",
	"                       per-CPU clocks feed the model",
	"    --kernel VERSION   model this kernel release instead of the trace's own",
	"    --max-error PCT    exit 1 if fewer than 100-PCT % of task updates are exact",
	"    --diffs N          lock-step: list the first N records of each kind that",
	"                       differ, each field as model/kernel",
	"    --no-eevdf-keys    lock-step: leave the EEVDF state the records carry",
	"                       (vruntime, deadline, lag) out of the model, as for a",
	"                       capture without it; their saved lags are still compared",
	"    --perf-cgroups cpu the task groups from a perf.data's cgroups (--all-cgroups)",
	"                       as the cpu controller's (shares assumed 1024), not from",
	"                       the kernel's records, whose groups are then only compared",
	"    -h, --help         show this help",
	"",
	"Exit status: 0 success, 1 fidelity below --max-error, 2 error.",
	NULL,
};

enum { F_LUT, F_PC, F_LOAD_SUM, F_RUNNABLE_SUM, F_UTIL_SUM, F_LOAD, F_RUNNABLE, F_UTIL, F_NR };

static const char *const field_names[F_NR] = {
	"last_update_time", "period_contrib", "load_sum",     "runnable_sum",
	"util_sum",	    "load_avg",	      "runnable_avg", "util_avg",
};

#define HIST_EXACT 4096

/* Absolute errors of one field: exact buckets below HIST_EXACT, log buckets above. */
struct field_stats {
	uint64_t n;
	uint64_t exact;
	uint64_t within2;
	double sum_abs;
	uint64_t max_abs;
	uint64_t hist[HIST_EXACT + 64];
};

struct worst {
	uint64_t err;
	uint64_t ts;
	int pid;
	const char *field;
};

/* The entity kinds compared in lock-step. */
enum { K_TASK, K_GSE, K_ROOT, K_GROUP, K_NR };

static const char *const kind_names[K_NR] = { "task", "group entity", "root cfs_rq",
					      "group cfs_rq" };

/* A value whose agreement is measured within 1 % (group weights, tg->load_avg). */
struct rel_stats {
	uint64_t n;
	uint64_t exact;
	uint64_t within1;
	uint64_t max_abs;
};

enum { R_SE_WEIGHT, R_TG_LOAD_AVG, R_CONTRIB, R_NR };

static const char *const rel_names[R_NR] = { "group entity weight", "tg_load_avg",
					     "tg_load_avg_contrib" };

/* Group cfs_rq records compared, per group of the model (by its index). */
struct path_stats {
	uint64_t compared;
	uint64_t exact;
};

/* Comparisons of one entity kind. */
struct kind_stats {
	struct field_stats f[F_NR];
	uint64_t compared;
	uint64_t all_exact;
	uint64_t model_ahead;
	uint64_t first;
	struct worst worst[5];
	/* --diffs: the first records with a field off, as text */
	char **diffs;
	size_t nr_diffs, max_diffs;
};

/*
 * A kernel update of a group cfs_rq the engine has not made yet: the trace
 * event of its path follows within CFSR_REPLAY_PATH_NS, or it was one of
 * update_blocked_averages()' (no event).
 */
struct pending_update {
	int group;
	int cpu;
	uint64_t ts;
	/* the kernel's last_update_time */
	uint64_t lut;
	/* free-running model: the record's rq clock (record_clock()) */
	uint64_t clock;
	/* free-running model: an event on the record's CPU came since */
	bool followed;
};

struct validate {
	const struct cfsr_profile *profile;
	bool what_if;
	/* what a --kernel without sublevel was taken as (cfsr_profile_series_note()), or NULL */
	const char *series;
	char series_buf[96];
	/*
	 * A v3.8-v5.6 model: its arithmetic is not the kernel's records', so
	 * it runs free (never takes the kernel's values)
	 */
	bool free_run;
	struct cfsr_replay *replay;
	/* the pick check asked of the lock-step engine (EEVDF profiles) */
	struct cfsr_pickcheck *pick;
	struct kind_stats k[K_NR];
	uint64_t records;
	uint64_t no_task;
	uint64_t not_fair;
	/* records after the trace's last event: nothing in the trace drives them */
	uint64_t after_end;
	/* the trace's first event was replayed; records before it are taken, not compared */
	bool started;
	uint64_t before_start;
	uint64_t state_differs;
	uint64_t delayed;
	uint64_t delayed_model;
	/* group entity records: on_rq, sched_delayed against the model's */
	uint64_t gse_state_differs;
	uint64_t gse_delayed;
	uint64_t gse_delayed_model;
	/* EEVDF state taken from the records that carry it */
	uint64_t eevdf_taken;
	uint64_t eevdf_not_taken;
	uint64_t eevdf_sums;
	uint64_t eevdf_sums_equal;
	uint64_t eevdf_dequeued;
	uint64_t eevdf_delayed;
	/*
	 * saved lags (se->vlag) of entities off their cfs_rq at a record, the
	 * model's against the kernel's; of those that differ, the ones that
	 * descend from a lag from before the trace (taken as 0)
	 */
	uint64_t lag_compared;
	uint64_t lag_equal;
	uint64_t lag_guessed;
	uint64_t regrouped;
	uint64_t cfs_no_crossing;
	struct rel_stats rel[R_NR];
	/* per model cfs_rq (by index): last_update_time of its last kernel record + 1 */
	uint64_t *klut;
	size_t klut_alloc;
	/* the same for the group entity of each model cfs_rq */
	uint64_t *gklut;
	size_t gklut_alloc;
	uint64_t gse_no_crossing;
	/* the records' times on the trace's clock */
	struct cfsr_clock_map map;
	/* group cfs_rqs whose kernel update the engine has still to make */
	struct pending_update *pending;
	size_t nr_pending, pending_alloc;
	uint64_t blocked_updates;
	/* tasks whose weight a record changed (a nice or SCHED_IDLE change no event shows) */
	uint64_t weight_taken;
	/* switch clocks taken from a record's exec_start */
	uint64_t exec_start_taken;
	/* delayed entities a cfs_rq record showed dequeued */
	uint64_t queued_taken;
	/*
	 * cfs_rq records whose h_nr_queued the model has before their event;
	 * of those, with idle tasks (the kernel's or the model's h_nr_idle), and
	 * with the model's h_nr_idle the kernel's
	 */
	uint64_t idle_compared, idle_some, idle_equal;
	/* threads the first snapshot gives SCHED_IDLE (cfsr_meta_idle()) */
	uint64_t idle_snapshot;
	/* group cfs_rq records per group of the model; those of a group it does not have */
	struct path_stats *paths;
	size_t paths_alloc;
	uint64_t group_absent;
	/* of those, records of autogroups (/autogroup-N) */
	uint64_t autogroup_absent;
	/* --perf-cgroups=cpu: the groups are the perf.data's, the records' only compared */
	struct cfsr_perf_groups pg;
	/* task records naming another group than the model holds the task in */
	uint64_t other_group;
};

static void rel_compare(struct rel_stats *s, int64_t model, int64_t kernel)
{
	uint64_t err = model > kernel ? (uint64_t)(model - kernel) : (uint64_t)(kernel - model);

	s->n++;
	s->exact += !err;
	s->within1 += kernel >= 0 && err * 100 <= (uint64_t)kernel;
	if (err > s->max_abs)
		s->max_abs = err;
}

static void hist_add(struct field_stats *s, uint64_t err)
{
	unsigned int b;

	if (err < HIST_EXACT) {
		s->hist[err]++;
		return;
	}
	for (b = 0; (err >> b) >= HIST_EXACT && b < 63; b++)
		;
	s->hist[HIST_EXACT + b]++;
}

static uint64_t hist_p99(const struct field_stats *s)
{
	uint64_t want = s->n - s->n / 100, seen = 0;
	unsigned int i;

	for (i = 0; i < HIST_EXACT + 64; i++) {
		seen += s->hist[i];
		if (seen >= want && s->hist[i])
			return i < HIST_EXACT ? i : (uint64_t)HIST_EXACT << (i - HIST_EXACT);
	}
	return 0;
}

static void note_worst(struct kind_stats *v, uint64_t err, uint64_t ts, int pid, const char *field)
{
	int i, m = 0;

	for (i = 1; i < 5; i++)
		if (v->worst[i].err < v->worst[m].err)
			m = i;
	if (err > v->worst[m].err) {
		v->worst[m].err = err;
		v->worst[m].ts = ts;
		v->worst[m].pid = pid;
		v->worst[m].field = field;
	}
}

static void compare(struct kind_stats *v, int field, uint64_t model, uint64_t kernel, uint64_t ts,
		    int pid)
{
	struct field_stats *s = &v->f[field];
	uint64_t err = model > kernel ? model - kernel : kernel - model;

	s->n++;
	s->exact += !err;
	s->within2 += err * 50 <= kernel || err == 0;
	s->sum_abs += (double)err;
	if (err > s->max_abs)
		s->max_abs = err;
	hist_add(s, err);
	if (err && field >= F_LOAD)
		note_worst(v, err, ts, pid, field_names[field]);
}

/* --diffs: how many differing records of each kind to list */
static unsigned long opt_diffs;

/* One line of model/kernel values of a record that differs (--diffs). */
static void note_diff(struct kind_stats *k, const struct cfsr_sched_avg *m,
		      const struct cfsr_pelt_rec *rec, int id)
{
	char *line;

	if (asprintf(&line,
		     "%" PRId64 ".%09" PRId64 " %s %d%s%s: load_sum %" PRIu64 "/%" PRIu64
		     " runnable_sum %" PRIu64 "/%" PRIu64 " util_sum %" PRIu32 "/%" PRIu32
		     " load_avg %" PRIu64 "/%" PRIu64 " runnable_avg %" PRIu64 "/%" PRIu64
		     " util_avg %" PRIu64 "/%" PRIu64 " period_contrib %" PRIu32 "/%" PRIu32,
		     rec->ts / 1000000000, rec->ts % 1000000000,
		     rec->type == CFSR_PELT_SE ? "pid" : "cpu", id, rec->tg ? " " : "",
		     rec->tg ? rec->tg : "", m->load_sum, rec->avg.load_sum, m->runnable_sum,
		     rec->avg.runnable_sum, m->util_sum, rec->avg.util_sum, m->load_avg,
		     rec->avg.load_avg, m->runnable_avg, rec->avg.runnable_avg, m->util_avg,
		     rec->avg.util_avg, m->period_contrib, rec->avg.period_contrib) < 0)
		return;
	k->diffs[k->nr_diffs++] = line;
}

/*
 * Compare @m, the model's signal advanced to the kernel's update, with the
 * kernel's, field by field.  Return: all fields are equal.
 */
static bool compare_avg(struct kind_stats *k, const struct cfsr_sched_avg *m,
			const struct cfsr_pelt_rec *rec, int id)
{
	uint64_t ts = (uint64_t)rec->ts;

	k->compared++;
	compare(k, F_LUT, m->last_update_time, rec->avg.last_update_time, ts, id);
	compare(k, F_PC, m->period_contrib, rec->avg.period_contrib, ts, id);
	compare(k, F_LOAD_SUM, m->load_sum, rec->avg.load_sum, ts, id);
	compare(k, F_RUNNABLE_SUM, m->runnable_sum, rec->avg.runnable_sum, ts, id);
	compare(k, F_UTIL_SUM, m->util_sum, rec->avg.util_sum, ts, id);
	compare(k, F_LOAD, m->load_avg, rec->avg.load_avg, ts, id);
	compare(k, F_RUNNABLE, m->runnable_avg, rec->avg.runnable_avg, ts, id);
	compare(k, F_UTIL, m->util_avg, rec->avg.util_avg, ts, id);
	if (m->last_update_time == rec->avg.last_update_time && m->load_sum == rec->avg.load_sum &&
	    m->runnable_sum == rec->avg.runnable_sum && m->util_sum == rec->avg.util_sum &&
	    m->load_avg == rec->avg.load_avg && m->runnable_avg == rec->avg.runnable_avg &&
	    m->util_avg == rec->avg.util_avg && m->period_contrib == rec->avg.period_contrib) {
		k->all_exact++;
		return true;
	}
	if (k->nr_diffs < k->max_diffs)
		note_diff(k, m, rec, id);
	return false;
}

/* Lock-step: the model continues from the kernel's values. */
static void take_kernel_avg(struct cfsr_sched_avg *a, const struct cfsr_pelt_rec *rec)
{
	a->last_update_time = rec->avg.last_update_time;
	a->load_sum = rec->avg.load_sum;
	a->runnable_sum = rec->avg.runnable_sum;
	a->util_sum = rec->avg.util_sum;
	a->period_contrib = rec->avg.period_contrib;
	a->load_avg = rec->avg.load_avg;
	a->runnable_avg = rec->avg.runnable_avg;
	a->util_avg = rec->avg.util_avg;
}

/* --no-eevdf-keys: the records' EEVDF state is compared, not taken */
static bool opt_no_keys;

/*
 * The entity's EEVDF state, when the record has it (captures of v6.6+
 * kernels by `cfsreplay record`): taken where the model agrees the entity
 * is (not) queued (cfsr_replay_task_take_eevdf()); a task the record shows
 * off its cfs_rq that the model keeps delayed is dequeued first
 * (cfsr_replay_task_take_dequeued()).
 */
static bool rec_eevdf(const struct cfsr_pelt_rec *rec, struct cfsr_eevdf *k)
{
	if (rec->vruntime == CFSR_TRUTH_NONE || rec->deadline == CFSR_TRUTH_NONE ||
	    rec->vlag == CFSR_TRUTH_NONE || rec->slice == CFSR_TRUTH_NONE)
		return false;
	k->queued = rec->on_rq > 0;
	k->vruntime = (uint64_t)rec->vruntime;
	k->deadline = (uint64_t)rec->deadline;
	k->vlag = rec->vlag;
	k->slice = (uint64_t)rec->slice;
	k->rel_deadline = rec->rel_deadline > 0 && rec->rel_deadline != CFSR_TRUTH_NONE;
	return true;
}

/*
 * The saved lag of an entity the record and the model both have off its
 * cfs_rq (a record of its enqueue, before place_entity() reads the lag):
 * @model the model's se->vlag, @guessed whether it descends from a lag
 * from before the trace that the engine took as 0.
 */
static void compare_lag(struct validate *v, const struct cfsr_eevdf *k, bool model_queued,
			int64_t model, bool guessed)
{
	if (k->queued || model_queued)
		return;
	v->lag_compared++;
	if (model == k->vlag)
		v->lag_equal++;
	else if (guessed)
		v->lag_guessed++;
}

static void count_eevdf(struct validate *v, int taken)
{
	if (taken)
		v->eevdf_taken++;
	else
		v->eevdf_not_taken++;
}

/*
 * A task record's exec_start: the clock of a switch into a running task
 * whose clock the model estimated (cfsr_replay_task_take_exec_start()).
 */
static void take_exec_start(struct validate *v, const struct cfsr_pelt_rec *rec)
{
	struct cfsr_task *t = cfsr_replay_task(v->replay, (int)rec->tid);

	if (!v->free_run && t && rec->exec_start > 0)
		v->exec_start_taken += (uint64_t)cfsr_replay_task_take_exec_start(
			v->replay, t, (uint64_t)rec->exec_start);
}

/* Whether the model's group @g is the one @path names. */
static bool group_is(const struct cfsr_replay *r, int g, const char *path)
{
	const char *now = cfsr_replay_group_path(r, g);

	return !strcmp(now ? now : "/", path);
}

static void on_se_record(struct validate *v, const struct cfsr_pelt_rec *rec)
{
	struct cfsr_eevdf eevdf;
	struct cfsr_task *t = cfsr_replay_task(v->replay, (int)rec->tid);
	struct kind_stats *k = &v->k[K_TASK];
	struct cfsr_sched_avg m;
	uint64_t runnable;
	bool on_rq, running, keys;

	if (!t) {
		v->no_task++;
		return;
	}
	if (!t->fair) {
		v->not_fair++;
		return;
	}
	/*
	 * the task's group is a fact of the kernel's structure, not a PELT
	 * value; with --perf-cgroups it is the perf.data's, the record's compared
	 */
	if (v->pg.on && rec->parent_tg)
		v->other_group += !group_is(v->replay, t->group, rec->parent_tg);
	else if (rec->parent_tg &&
		 cfsr_replay_task_set_group(v->replay, t->pid, rec->parent_tg) == 1)
		v->regrouped++;
	if (rec->sched_delayed > 0)
		v->delayed++;
	cfsr_replay_task_settle(v->replay, t, (uint64_t)rec->avg.last_update_time);
	cfsr_task_inputs(t, &on_rq, &runnable, &running);
	if ((int64_t)on_rq != rec->on_rq)
		v->state_differs++;
	if ((rec->sched_delayed > 0) != (t->state == CFSR_TS_DELAYED))
		v->delayed_model++;
	if (!v->started) {
		v->before_start++;
	} else if (v->free_run ? !t->avg.last_update_time : !t->avg_known) {
		/* its first record: the kernel's state before it is not known */
		k->first++;
	} else {
		m = t->avg;
		if (m.last_update_time < (uint64_t)rec->avg.last_update_time)
			cfsr_pelt_ops_for(v->profile)
				->update_se(v->profile, (uint64_t)rec->avg.last_update_time,
					    CFSR_PELT_SCALE_FULL, &m, NULL, t->load_weight, on_rq,
					    runnable, running);
		else if (m.last_update_time > (uint64_t)rec->avg.last_update_time)
			k->model_ahead++;
		compare_avg(k, &m, rec, t->pid);
	}
	if (v->free_run)
		return;
	take_kernel_avg(&t->avg, rec);
	if (rec->weight > 0)
		v->weight_taken +=
			(uint64_t)cfsr_replay_task_take_weight(v->replay, t, (uint64_t)rec->weight);
	/* the kernel kept it queued, delayed, where the engine had it asleep */
	if (rec->on_rq > 0 && rec->sched_delayed > 0 && rec->rq_cpu >= 0)
		v->eevdf_delayed +=
			(uint64_t)cfsr_replay_task_take_delayed(v->replay, t, (int)rec->rq_cpu);
	keys = rec_eevdf(rec, &eevdf);
	if (keys && v->profile->eevdf)
		compare_lag(v, &eevdf, on_rq, t->vlag, !t->lag_seen || t->lag_guessed);
	if (keys && !opt_no_keys) {
		if (!eevdf.queued)
			v->eevdf_dequeued += (uint64_t)cfsr_replay_task_take_dequeued(v->replay, t);
		count_eevdf(v, cfsr_replay_task_take_eevdf(v->replay, t, &eevdf));
	}
	t->est_at_record = t->est_updates;
	t->avg_known = true;
	t->avg_taken = true;
	if (rec->exec_start > 0 && t->state == CFSR_TS_RUNNING) {
		t->exec_start = (uint64_t)rec->exec_start;
		t->exec_known = true;
	}
}

/*
 * pelt_cfs_tp and pelt_se_tp also fire at an attach, a detach or a
 * propagation, without a period crossed since the entity's last record
 * (its unrecorded updates never cross one, so both sit in one period).
 * Those records come before the trace event that makes the model attach
 * or detach (sched_wakeup follows the enqueue): they are counted, neither
 * compared nor taken.  @luts: per model cfs_rq, the last_update_time of
 * its last record + 1.  Return: 1 for such a record, 0 otherwise, -1 on
 * allocation failure.
 */
static int no_crossing(struct validate *v, uint64_t **luts, size_t *alloc,
		       const struct cfsr_cfs_rq *cfs, const struct cfsr_pelt_rec *rec)
{
	size_t idx = (size_t)(cfs - cfsr_replay_cfs_rq(v->replay, "/", 0));
	uint64_t *klut;

	if (CFSR_ALLOC_GROW(*luts, idx + 1, *alloc) < 0)
		return cfsr_error("validate: out of memory");
	klut = &(*luts)[idx];
	if (*klut && ((*klut - 1) >> 20) == ((uint64_t)rec->avg.last_update_time >> 20))
		return 1;
	*klut = (uint64_t)rec->avg.last_update_time + 1;
	return 0;
}

/*
 * A record of a group entity (pelt_se_tp of a group's se): its weight,
 * compared within 1 %, and its signal advanced with the model's inputs to
 * the kernel's update; then the model takes the kernel's values.
 */
static int on_gse_record(struct validate *v, const struct cfsr_pelt_rec *rec)
{
	struct kind_stats *k = &v->k[K_GSE];
	struct cfsr_eevdf eevdf;
	struct cfsr_cfs_rq *cfs;
	bool keys;
	int cross;
	struct cfsr_sched_avg m;

	if (!rec->tg || rec->rq_cpu < 0 || rec->weight <= 0) {
		v->no_task++;
		return 0;
	}
	cfs = cfsr_replay_cfs_rq(v->replay, rec->tg, (int)rec->rq_cpu);
	if (!cfs || !cfs->group) {
		v->no_task++;
		return 0;
	}
	cross = no_crossing(v, &v->gklut, &v->gklut_alloc, cfs, rec);
	if (cross < 0)
		return -1;
	if (cross) {
		v->gse_no_crossing++;
		return 0;
	}
	if ((int64_t)cfs->se_on_rq != rec->on_rq)
		v->gse_state_differs++;
	if (rec->sched_delayed > 0)
		v->gse_delayed++;
	if ((rec->sched_delayed > 0) != cfs->se_delayed)
		v->gse_delayed_model++;
	if (!v->started) {
		v->before_start++;
	} else if (v->free_run ? !cfs->se_avg.last_update_time : !cfs->se_known) {
		k->first++;
	} else {
		m = cfs->se_avg;
		if (m.last_update_time < (uint64_t)rec->avg.last_update_time && v->free_run)
			cfsr_replay_gse_settle(v->replay, cfs, (uint64_t)rec->avg.last_update_time,
					       &m);
		else if (m.last_update_time < (uint64_t)rec->avg.last_update_time)
			cfsr_pelt_update_se(v->profile->pelt, (uint64_t)rec->avg.last_update_time,
					    &m, cfs->se_weight, cfs->se_on_rq, cfs->se_runnable,
					    cfs->curr > 0);
		else if (m.last_update_time > (uint64_t)rec->avg.last_update_time)
			k->model_ahead++;
		compare_avg(k, &m, rec, (int)rec->rq_cpu);
		rel_compare(&v->rel[R_SE_WEIGHT], (int64_t)cfs->se_weight, rec->weight);
	}
	keys = rec_eevdf(rec, &eevdf);
	if (keys && v->profile->eevdf)
		compare_lag(v, &eevdf, cfs->se_on_rq, cfs->se_vlag,
			    cfsr_replay_gse_lag_guessed(v->replay, cfs));
	if (v->free_run)
		return 0;
	take_kernel_avg(&cfs->se_avg, rec);
	cfs->se_read_ts = (uint64_t)rec->ts;
	cfs->se_read_lut = cfs->se_avg.last_update_time;
	cfs->se_known = true;
	cfsr_replay_group_take(v->replay, cfs, (uint64_t)rec->weight, 0, -1, 0);
	if (keys && !opt_no_keys)
		count_eevdf(v, cfsr_replay_gse_take_eevdf(v->replay, cfs, &eevdf));
	return 0;
}

/* The cfs_rq's EEVDF sums, when the record has them: the model's frame becomes the kernel's. */
static void take_cfs_eevdf(struct validate *v, struct cfsr_cfs_rq *cfs,
			   const struct cfsr_pelt_rec *rec)
{
	struct cfsr_eevdf_sums k;
	int equal;

	if (opt_no_keys)
		return;
	if (rec->zero_vruntime == CFSR_TRUTH_NONE || rec->avg_vruntime == CFSR_TRUTH_NONE ||
	    rec->avg_load < 0 || rec->curr_vruntime == CFSR_TRUTH_NONE || rec->curr_weight < 0)
		return;
	k.zero_vruntime = (uint64_t)rec->zero_vruntime;
	k.avg_vruntime = rec->avg_vruntime;
	k.avg_load = (uint64_t)rec->avg_load;
	k.curr_vruntime = (uint64_t)rec->curr_vruntime;
	k.curr_weight = (uint64_t)rec->curr_weight;
	equal = cfsr_replay_cfs_rq_take_eevdf(v->replay, cfs, &k);
	if (equal < 0)
		return;
	v->eevdf_sums++;
	v->eevdf_sums_equal += (uint64_t)equal;
}

/*
 * A record of a cfs_rq: its signal advanced with the model's inputs (for a
 * root, its tasks and group entities) to the kernel's update; for a group
 * cfs_rq also tg_load_avg_contrib and tg_load_avg, within 1 %.  Then the
 * model takes the kernel's values.
 */
/*
 * A record's rq clock as the engine takes it (cfsr_replay_reading_clock()):
 * clock_pelt - lost_idle_time from v5.1 (rq_clock_pelt()), clock_task
 * before (cfs_rq_clock_task(); no throttling is modelled), clock_task on
 * a CPU whose PELT clock scales, which restarts from the record's with
 * @take.
 */
static uint64_t record_clock(const struct validate *v, const struct cfsr_pelt_rec *rec, bool take)
{
	if (rec->clock_task < 0)
		return rec->clock_pelt >= 0 && rec->clock_pelt >= rec->lost_idle_time &&
				       cfsr_profile_clock_pelt(v->profile) ?
			       (uint64_t)(rec->clock_pelt - rec->lost_idle_time) :
			       (uint64_t)rec->clock_task;
	return cfsr_replay_reading_clock(
		v->replay, (int)rec->rq_cpu, (uint64_t)rec->clock_task,
		rec->lost_idle_time >= 0 ? rec->clock_pelt : -1,
		rec->lost_idle_time >= 0 ? (uint64_t)rec->lost_idle_time : 0, take);
}

/*
 * A free-running model (v3.8-v5.6) takes no kernel values, but a record of
 * a cfs_rq update no event follows still says when the kernel ran
 * update_blocked_averages() on that CPU: noted, for settle_pending() to
 * make the model's own pass there unless an event on that CPU comes
 * within CFSR_REPLAY_PATH_NS (mark_followed()).  Which events follow is
 * the trace's, not the model's: every older model makes the same passes.
 */
static int free_pending(struct validate *v, const struct cfsr_cfs_rq *cfs,
			const struct cfsr_pelt_rec *rec)
{
	if (CFSR_ALLOC_GROW(v->pending, v->nr_pending + 1, v->pending_alloc) < 0)
		return cfsr_error("validate: out of memory");
	v->pending[v->nr_pending++] = (struct pending_update){
		cfs->group, cfs->cpu, (uint64_t)rec->ts, 0, record_clock(v, rec, false), false
	};
	return 0;
}

/* A group cfs_rq record of group @g compared: @exact in every field. */
static int note_path(struct validate *v, int g, bool exact)
{
	size_t i, from = v->paths_alloc;

	if (g < 0)
		return 0;
	if (CFSR_ALLOC_GROW(v->paths, (size_t)g + 1, v->paths_alloc) < 0)
		return cfsr_error("validate: out of memory");
	for (i = from; i < v->paths_alloc; i++)
		v->paths[i] = (struct path_stats){ 0 };
	v->paths[g].compared++;
	v->paths[g].exact += exact;
	return 0;
}

/*
 * A group cfs_rq record's pending propagation (add_tg_cfs_propagate():
 * cfs_rq->propagate and prop_runnable_sum, kernel/sched/fair.c,
 * v4.13-v6.18), taken where the record is of an update the model has not
 * made yet (its last_update_time behind the record's): the removed load
 * the record shows applied (update_cfs_rq_load_avg()) is then never
 * applied by the model, and without the kernel's pending propagation the
 * group entity's next update (propagate_entity_load_avg()) would not carry
 * it up.  A record of an update the model already made (the trace event
 * came first, as a migration's) leaves the model's own: it propagated, or
 * will, once.
 */
static void take_propagate(struct cfsr_cfs_rq *cfs, const struct cfsr_pelt_rec *rec,
			   uint64_t model_lut)
{
	if (!cfs->group || rec->propagate <= 0 || model_lut >= (uint64_t)rec->avg.last_update_time)
		return;
	cfs->propagate = true;
	cfs->prop_runnable_sum = rec->prop_runnable_sum;
}

/* A group the metadata gives cpu.idle 1 (cfsr_meta_idle()'s @gfn). */
static int meta_group_idle(void *data, const char *path)
{
	const struct validate *v = data;

	return cfsr_replay_group_idle(v->replay, path);
}

/* A thread the first snapshot gives SCHED_IDLE, counted (cfsr_meta_idle()'s @tfn). */
static int snapshot_idle(void *data, int tid, bool idle)
{
	struct validate *v = data;

	v->idle_snapshot += idle;
	return cfsr_replay_task_set_idle_policy(v->replay, tid, idle);
}

static int on_cfs_record(struct validate *v, const struct cfsr_pelt_rec *rec)
{
	struct cfsr_cfs_rq *cfs;
	struct kind_stats *k;
	struct cfsr_sched_avg m;
	uint64_t model_lut;
	bool root, exact;
	int cross;

	if (!rec->tg || rec->rq_cpu < 0)
		return 0;
	root = rec->level == 0 || !strcmp(rec->tg, "/");
	cfs = cfsr_replay_cfs_rq(v->replay, rec->tg, (int)rec->rq_cpu);
	if (!cfs) {
		v->no_task++;
		v->group_absent += !root;
		v->autogroup_absent +=
			!root && !strncmp(rec->tg, "/autogroup-", strlen("/autogroup-"));
		return 0;
	}
	/* a record fires inside its path, before the path changes the counts */
	if (rec->h_nr_idle >= 0 && rec->h_nr_queued >= 0 &&
	    cfs->h_nr_queued == (uint64_t)rec->h_nr_queued) {
		v->idle_compared++;
		v->idle_some += rec->h_nr_idle > 0 || cfs->h_nr_idle > 0;
		v->idle_equal += cfs->h_nr_idle == (uint64_t)rec->h_nr_idle;
	}
	cross = no_crossing(v, &v->klut, &v->klut_alloc, cfs, rec);
	if (cross < 0)
		return -1;
	if (cross) {
		v->cfs_no_crossing++;
		return 0;
	}
	k = &v->k[root ? K_ROOT : K_GROUP];
	if (!v->started) {
		v->before_start++;
	} else if (v->free_run ? !cfs->avg.last_update_time : !cfs->avg_known) {
		k->first++;
	} else {
		cfsr_replay_cfs_rq_settle(v->replay, cfs, (uint64_t)rec->avg.last_update_time, &m);
		if (cfs->avg.last_update_time > (uint64_t)rec->avg.last_update_time)
			k->model_ahead++;
		exact = compare_avg(k, &m, rec, (int)rec->rq_cpu);
		if (!root && note_path(v, cfs->group, exact) < 0)
			return -1;
		if (!root && rec->tg_load_avg >= 0 && rec->tg_load_avg_contrib >= 0) {
			rel_compare(&v->rel[R_TG_LOAD_AVG], cfsr_replay_tg_load_avg(v->replay, cfs),
				    rec->tg_load_avg);
			rel_compare(&v->rel[R_CONTRIB], (int64_t)cfs->tg_load_avg_contrib,
				    rec->tg_load_avg_contrib);
		}
	}
	if (v->free_run)
		return free_pending(v, cfs, rec);
	model_lut = cfs->avg.last_update_time;
	cfs->avg_before_read = cfs->avg;
	cfs->avg_read_ts = (uint64_t)rec->ts;
	take_kernel_avg(&cfs->avg, rec);
	cfs->avg_read_lut = cfs->avg.last_update_time;
	if (!root && rec->tg_load_avg >= 0 && rec->tg_load_avg_contrib >= 0) {
		cfsr_replay_group_take(v->replay, cfs, cfs->se_weight,
				       (uint64_t)rec->tg_load_avg_contrib, rec->tg_load_avg,
				       rec->tg_shares > 0 ? (uint64_t)rec->tg_shares : 0);
		if (cfsr_replay_cfs_rq_follow(v->replay, cfs, (uint64_t)rec->avg.last_update_time,
					      model_lut)) {
			if (CFSR_ALLOC_GROW(v->pending, v->nr_pending + 1, v->pending_alloc) < 0)
				return cfsr_error("validate: out of memory");
			v->pending[v->nr_pending++] =
				(struct pending_update){ cfs->group,
							 cfs->cpu,
							 (uint64_t)rec->ts,
							 (uint64_t)rec->avg.last_update_time,
							 0,
							 false };
		}
	}
	if (rec->weight >= 0 && rec->nr_queued >= 0)
		v->queued_taken += (uint64_t)cfsr_replay_cfs_rq_take_queued(
			v->replay, cfs, (uint64_t)rec->weight, (unsigned int)rec->nr_queued);
	cfs->removed.nr = rec->removed_nr > 0 ? (unsigned int)rec->removed_nr : 0;
	cfs->removed.load_avg = rec->removed_load_avg > 0 ? (uint64_t)rec->removed_load_avg : 0;
	cfs->removed.util_avg = rec->removed_util_avg > 0 ? (uint64_t)rec->removed_util_avg : 0;
	cfs->removed.runnable_avg =
		rec->removed_runnable_avg > 0 ? (uint64_t)rec->removed_runnable_avg : 0;
	take_propagate(cfs, rec, model_lut);
	cfs->avg_known = true;
	take_cfs_eevdf(v, cfs, rec);
	return 0;
}

static void print_diffs(const struct kind_stats *k)
{
	size_t i;

	if (k->nr_diffs)
		printf("first differing records (model/kernel):\n");
	for (i = 0; i < k->nr_diffs; i++)
		printf("  %s\n", k->diffs[i]);
}

static void print_kind(const struct kind_stats *k, const char *name)
{
	int i;

	printf("\n%s updates compared: %" PRIu64 ", all fields exact: %" PRIu64 " (%.2f %%)\n",
	       name, k->compared, k->all_exact,
	       k->compared ? 100.0 * (double)k->all_exact / (double)k->compared : 0.0);
	printf("  not compared: %" PRIu64 " first records (the state before them precedes the "
	       "trace); model ahead of the kernel: %" PRIu64 "\n",
	       k->first, k->model_ahead);
	if (!k->compared)
		return;
	printf("%-16s %9s %9s %9s %11s %9s %12s\n", "field", "compared", "exact %", "±2 %",
	       "mean |err|", "p99", "max");
	for (i = 0; i < F_NR; i++) {
		const struct field_stats *s = &k->f[i];

		if (!s->n)
			continue;
		printf("%-16s %9" PRIu64 " %9.2f %9.2f %11.1f %9" PRIu64 " %12" PRIu64 "\n",
		       field_names[i], s->n, 100.0 * (double)s->exact / (double)s->n,
		       100.0 * (double)s->within2 / (double)s->n, s->sum_abs / (double)s->n,
		       hist_p99(s), s->max_abs);
	}
	printf("worst averages:\n");
	for (i = 0; i < 5; i++)
		if (k->worst[i].err)
			printf("  %-13s off by %6" PRIu64 " at %" PRIu64 ".%09" PRIu64 " %s %d\n",
			       k->worst[i].field, k->worst[i].err, k->worst[i].ts / 1000000000,
			       k->worst[i].ts % 1000000000, name[0] == 't' ? "pid" : "cpu",
			       k->worst[i].pid);
}

/* The engine features the trace's sysctl_sched_features set otherwise than the model's defaults. */
static void print_sched_feats(const struct cfsr_replay *r, const struct cfsr_profile *prof)
{
	const char *differ[CFSR_SCHED_FEAT_MAX];
	size_t i, n = cfsr_sched_feats_differ(cfsr_replay_profile(r), prof, differ);

	if (!n)
		return;
	printf("sched features:  ");
	for (i = 0; i < n; i++)
		printf(" %s", differ[i]);
	printf(" (the trace's sysctl_sched_features)\n");
}

/* The task group moves the engine followed (cfsr_replay_follow_attaches()). */
static void print_group_moves(const struct cfsr_replay_stats *rs)
{
	printf("groups:           %" PRIu64
	       " moves at the cpu controller's cgroup_attach_task, %" PRIu64
	       " attaches of other hierarchies; forks of a task given a cgroup: %" PRIu64
	       " into the parent's group, %" PRIu64
	       " into their rows' autogroup (the parent's group not known, its cgroup taken as the"
	       " root), %" PRIu64 " left in the given group (the parent's not known); %" PRIu64
	       " moves of a dying task (sched_autogroup_exit_task()); %" PRIu64
	       " made at a cgroup_mkdir (%" PRIu64 " group entities attached), %" PRIu64
	       " removed at a cgroup_rmdir (%" PRIu64 " CPUs still queuing there), %" PRIu64
	       " mkdir and rmdir of other hierarchies\n",
	       rs->attach_moves, rs->attaches_other, rs->fork_parent_group, rs->fork_autogroup,
	       rs->fork_group_unknown, rs->exit_moves, rs->group_mkdirs, rs->group_attaches,
	       rs->group_rmdirs, rs->group_rmdir_busy, rs->group_dirs_other);
}

/*
 * The pick check on the lock-step engine: each switch judged against the
 * model's state with the EEVDF values of the kernel's last records.
 */
static void print_pick(const struct cfsr_pickcheck *pc)
{
	struct cfsr_pick_cpu sum;
	const char *sep = "";
	int k;

	if (!pc)
		return;
	cfsr_pickcheck_total(pc, &sum);
	printf("\npick check:       %" PRIu64 " switches, %" PRIu64 " trivial, %" PRIu64
	       " contested (%" PRIu64 " agree; through group entities %" PRIu64 ", %" PRIu64
	       " agree), %" PRIu64 " cannot judge\n ",
	       sum.switches, sum.trivial, sum.contested, sum.agrees, sum.groups_contested,
	       sum.groups_agrees, sum.cannot);
	for (k = 0; k < CFSR_PR_NR; k++) {
		uint64_t n = cfsr_pickcheck_reason(pc, (enum cfsr_pick_reason)k);

		if (!n)
			continue;
		printf("%s %s %" PRIu64, sep, cfsr_pick_reason_key((enum cfsr_pick_reason)k), n);
		sep = ",";
	}
	printf("\n");
}

/* The group cfs_rq comparisons per group, and the records of groups the model lacks. */
static void print_paths(const struct validate *v)
{
	size_t g;

	printf("\n%-30s %9s %9s %9s\n", "group cfs_rq updates of", "compared", "exact", "exact %");
	for (g = 0; g < v->paths_alloc; g++)
		if (v->paths[g].compared)
			printf("%-30s %9" PRIu64 " %9" PRIu64 " %9.2f\n",
			       cfsr_replay_group_path(v->replay, (int)g), v->paths[g].compared,
			       v->paths[g].exact,
			       100.0 * (double)v->paths[g].exact / (double)v->paths[g].compared);
	printf("records of group cfs_rqs of a group the model does not have: %" PRIu64 "\n",
	       v->group_absent);
	if (!v->autogroup_absent)
		return;
	printf("  of autogroups (/autogroup-N): %" PRIu64 "\n", v->autogroup_absent);
	/*
	 * An autogroup is a session's (setsid(): sched_autogroup_create_attach()),
	 * not a cgroup: no CGROUP record, sample cgroup id or cgroup event names
	 * it, and it holds tasks of the cpu controller's root cgroup only
	 * (autogroup_task_group(), v3.8-v6.18; docs/FORMATS.md).
	 */
	if (v->pg.on)
		printf("  (a perf.data cannot give them: an autogroup is a session's, made by "
		       "setsid(), not a cgroup, and holds only tasks of the cpu controller's root "
		       "cgroup; perf's cgroups put them in the root group, whose cfs_rq records "
		       "then differ)\n");
}

/* Where the model's task groups came from: the kernel's @what, or perf's cgroups. */
static void print_groups_source(const struct cfsr_perf_groups *pg, const char *what)
{
	if (!pg->on) {
		printf("task groups:      the kernel %s' (each task in the group they name)\n",
		       what);
		return;
	}
	printf("task groups:      the perf.data's cgroups, taken as the cpu controller's "
	       "(--perf-cgroups=cpu): %" PRIu64 " tasks by their first sample, %" PRIu64
	       " moves at a sample; the kernel %s' groups compared, not taken; assumed: %s\n",
	       pg->tasks, pg->sample_moves, what, CFSR_PERF_GROUPS_ASSUMED);
}

static void print_report(const struct validate *v, const char *trace, const char *pelt)
{
	const struct cfsr_replay_stats *rs = cfsr_replay_stats(v->replay);
	int i;

	printf("trace:            %s\n", trace);
	printf("kernel records:   %s (%" PRIu64 " records)\n", pelt, v->records);
	if (v->free_run)
		printf("model:            tasks, group entities and cfs_rqs, kernel "
		       "%s%s, free-running: the kernel's values are never taken\n",
		       v->profile->name, v->what_if ? " (what-if)" : "");
	else
		printf("model:            tasks, group entities and cfs_rqs, kernel %s%s\n",
		       v->profile->name, v->what_if ? " (what-if)" : "");
	if (v->series)
		printf("                  %s\n", v->series);
	print_sched_feats(v->replay, v->profile);
	printf("not compared:     %" PRIu64 " of entities the trace never named, %" PRIu64
	       " of non-fair tasks, %" PRIu64
	       " records before the trace's first event (taken), %" PRIu64 " after its last\n",
	       v->no_task, v->not_fair, v->before_start, v->after_end);
	printf("tasks:            on_rq differs: %" PRIu64 "; kernel task delayed: %" PRIu64
	       "; delayed state differs: %" PRIu64 "; moved to the record's group: %" PRIu64
	       "; weight taken from the record: %" PRIu64
	       "; switch clocks from exec_start: %" PRIu64
	       "; queued again, delayed, as a record showed: %" PRIu64 "\n",
	       v->state_differs, v->delayed, v->delayed_model, v->regrouped, v->weight_taken,
	       v->exec_start_taken, v->eevdf_delayed);
	print_groups_source(&v->pg, "records");
	if (v->pg.on)
		printf("                  task records naming another group than the model's: "
		       "%" PRIu64 "\n",
		       v->other_group);
	print_group_moves(rs);
	printf("replay:           %" PRIu64 " events, %" PRIu64 " task and %" PRIu64
	       " cfs_rq updates, %" PRIu64 " recovered switches in (%" PRIu64
	       " placed ahead of their report, %" PRIu64 " by a report from another CPU, %" PRIu64
	       " such reports of an unknown CPU left out), %" PRIu64
	       " unseen switches out (%" PRIu64 " run to the next task's switch-in), %" PRIu64
	       " unseen migrations, %" PRIu64 " on an estimated clock, %" PRIu64
	       " unanchored, %" PRIu64 " reads of a task's run time, %" PRIu64
	       " picks off the ticks' grid after a wakeup (%" PRIu64
	       " of these reports no tick's record showed), %" PRIu64
	       " dequeues before a newly-idle balance's pull, %" PRIu64
	       " reports settled before another CPU's event on their CPU, %" PRIu64
	       " load balances of several tasks attached last detached first, %" PRIu64
	       " preemptions whose __schedule() kept a tick's clock\n",
	       rs->events, rs->updates, rs->cfs_updates, rs->recovered_switches,
	       rs->recovered_ahead, rs->remote_reports, rs->remote_reports_unplaced,
	       rs->unseen_switch_outs, rs->unseen_puts, rs->unseen_migrations,
	       rs->estimated_updates, rs->unanchored_updates, rs->runtime_reads,
	       rs->off_tick_reports, rs->runtime_reads_unrecorded, rs->newidle_dequeues,
	       rs->remote_settles, rs->pulls_reordered, rs->unreported_picks);
	printf("delayed dequeue:  %" PRIu64 " sleeps delayed, %" PRIu64
	       " completed by a pick, %" PRIu64 " requeued by a wakeup; group entities: %" PRIu64
	       " delayed, %" PRIu64 " completed by a pick, %" PRIu64 " requeued; %" PRIu64
	       " delayed states set by a cfs_rq record's weight (%" PRIu64
	       " of group entities), %" PRIu64 " waiting tasks it showed gone (%" PRIu64
	       " of them moved by a load balance after), %" PRIu64
	       " moved tasks off their new cfs_rq until their attach\n",
	       rs->delayed, rs->delayed_picked, rs->delayed_woken, rs->gse_delayed,
	       rs->gse_delayed_picked, rs->gse_delayed_woken,
	       v->queued_taken - rs->lost_sleeps - rs->attach_records_before, rs->gse_delayed_taken,
	       rs->lost_sleeps, rs->lost_sleeps_undone, rs->attach_records_before);
	printf("group entities:   on_rq differs: %" PRIu64 "; kernel entity delayed: %" PRIu64
	       "; delayed state differs: %" PRIu64 "\n",
	       v->gse_state_differs, v->gse_delayed, v->gse_delayed_model);
	if (v->idle_compared)
		printf("idle tasks:       %" PRIu64
		       " cfs_rq records whose h_nr_queued the model has"
		       " (%" PRIu64 " with idle tasks), h_nr_idle equal in %" PRIu64
		       "; SCHED_IDLE from the first snapshot: %" PRIu64 "\n",
		       v->idle_compared, v->idle_some, v->idle_equal, v->idle_snapshot);
	if (v->eevdf_taken + v->eevdf_not_taken + v->eevdf_sums)
		printf("EEVDF state:      taken from %" PRIu64 " entity records, not from %" PRIu64
		       " (the model's on_rq differs); %" PRIu64
		       " delayed tasks the kernel had dequeued; cfs_rq sums read %" PRIu64
		       " times, the model's equal %" PRIu64 " times\n",
		       v->eevdf_taken, v->eevdf_not_taken, v->eevdf_dequeued, v->eevdf_sums,
		       v->eevdf_sums_equal);
	if (v->profile->eevdf) {
		printf("EEVDF lags:       %" PRIu64 " entities placed from a lag from before the "
		       "trace moved left to be the kernel's pick",
		       rs->lag_inferred);
		if (v->lag_compared)
			printf("; %" PRIu64
			       " saved lags (se->vlag) at records of an entity off its "
			       "cfs_rq, the model's equal %" PRIu64 " times (%" PRIu64
			       " of the others descend from a lag from before the trace)%s",
			       v->lag_compared, v->lag_equal, v->lag_guessed,
			       opt_no_keys ? "; the records' EEVDF state not taken "
					     "(--no-eevdf-keys)" :
					     "");
		printf("\n");
	}
	printf("cfs_rq records without a period crossed (attach, detach, propagation): %" PRIu64
	       "; group entity records: %" PRIu64 "\n",
	       v->cfs_no_crossing, v->gse_no_crossing);
	if (v->free_run)
		printf("blocked-load updates: %" PRIu64 " update_blocked_averages() passes of the "
		       "model's release, on a CPU where a cfs_rq record no event followed within "
		       "%llu us shows the kernel's\n",
		       v->blocked_updates, CFSR_REPLAY_PATH_NS / 1000);
	else
		printf("blocked-load updates: %" PRIu64 " group cfs_rq updates no event followed "
		       "within %llu us (update_blocked_averages()), their update_tg_load_avg() made "
		       "at the record; %" PRIu64
		       " walks of every cfs_rq of a CPU at records of its "
		       "RT signal (%" PRIu64 " set aside: another class's)\n",
		       v->blocked_updates, CFSR_REPLAY_PATH_NS / 1000, rs->blocked_updates,
		       rs->blocked_set_aside);
	for (i = 0; i < K_NR; i++) {
		print_kind(&v->k[i], kind_names[i]);
		print_diffs(&v->k[i]);
	}
	print_paths(v);
	printf("\n%-22s %9s %9s %9s %12s\n", "group value", "compared", "exact %", "±1 %",
	       "max |err|");
	for (i = 0; i < R_NR; i++)
		printf("%-22s %9" PRIu64 " %9.2f %9.2f %12" PRIu64 "\n", rel_names[i], v->rel[i].n,
		       v->rel[i].n ? 100.0 * (double)v->rel[i].exact / (double)v->rel[i].n : 0.0,
		       v->rel[i].n ? 100.0 * (double)v->rel[i].within1 / (double)v->rel[i].n : 0.0,
		       v->rel[i].max_abs);
	print_pick(v->pick);
}

/* ---- snapshot mode ------------------------------------------------------------ */

enum { S_LOAD, S_RUNNABLE, S_UTIL, S_UTIL_EST, S_NR };

static const char *const snap_names[S_NR] = { "load_avg", "runnable_avg", "util_avg", "util_est" };

/*
 * A group cfs_rq's signal at the trace's start is unknown (its tasks' past
 * is not in the trace); after 500 ms a start from 0 is within 2 % of
 * anything (the PELT half-life is 32 ms).
 */
#define SETTLED_NS 500000000ULL

/* CPUs whose cfs_rq rows wait for their rq's last clock update */
#define CFSR_SNAP_CPUS 256

/* The events of one kernel path after its update_rq_clock() (READING_HOLD_NS, lib/replay.c) */
#define PATH_NS 20000

/* Per class of task row: sleeping at the snapshot, or any state. */
struct snap_stats {
	uint64_t rows;
	struct field_stats f[S_NR];
	uint64_t within2[S_NR];
};

struct snapshots {
	struct snap_stats sleeping;
	struct snap_stats all;
	struct snap_stats root;
	struct snap_stats root_ue;
	struct snap_stats group;
	/* group cfs_rq rows of snapshots SETTLED_NS or more after the trace's start */
	struct snap_stats group_settled;
	uint64_t cfs_not_compared;
	uint64_t root_with_groups;
	uint64_t snaps;
	uint64_t readings;
	uint64_t not_compared;
	uint64_t warming;
	/* task rows whose group (cgroup_cpu, else autogroup) the model's differs from */
	uint64_t other_group;
	uint64_t max_abs[S_NR];
	/* --perf-cgroups=cpu: the groups are the perf.data's */
	struct cfsr_perf_groups pg;
};

static void snap_compare(struct snap_stats *st, int field, uint64_t model, uint64_t kernel)
{
	struct field_stats *s = &st->f[field];
	uint64_t err = model > kernel ? model - kernel : kernel - model;

	s->n++;
	s->exact += !err;
	s->within2 += err <= 2;
	s->sum_abs += (double)err;
	if (err > s->max_abs)
		s->max_abs = err;
	hist_add(s, err);
}

/* Whether the model has @t in the group a row names (cgroup_cpu, else its autogroup). */
static bool row_group_same(struct cfsr_replay *r, const struct cfsr_task *t,
			   const struct cfsr_truth_task *k)
{
	const char *path = k->cgroup_cpu && strcmp(k->cgroup_cpu, "/") ? k->cgroup_cpu :
			   k->autogroup				       ? k->autogroup :
									 "/";
	const struct cfsr_cfs_rq *q = cfsr_replay_cfs_rq(r, path, 0);

	return q && q->group == t->group;
}

static void snap_task(struct snapshots *sn, struct cfsr_replay *r, const struct cfsr_truth_task *k)
{
	struct cfsr_task *t = cfsr_replay_task(r, (int)k->tid);
	struct snap_stats *cls[2] = { &sn->all, NULL };
	uint32_t mue, kue;
	int i;

	/* a task that made no PELT update in the trace has no signal in the model */
	if (!t || !t->fair || !t->updates || k->read_errors || k->avg.util_avg > 1024) {
		sn->not_compared++;
		return;
	}
	if (cfsr_task_warming(t, k->avg.last_update_time)) {
		sn->warming++;
		return;
	}
	if (!row_group_same(r, t, k))
		sn->other_group++;
	/* sleeping at the snapshot: its values are those of its dequeue */
	if (k->state == 'S' || k->state == 'D' || k->state == 'I')
		cls[1] = &sn->sleeping;
	/* the model's estimate in either util_est layout (_task_util_est()) */
	mue = cfsr_pelt_util_est_of(&t->avg);
	kue = k->avg.util_est & ~UTIL_AVG_UNCHANGED;
	for (i = 0; i < 2; i++) {
		if (!cls[i])
			continue;
		cls[i]->rows++;
		snap_compare(cls[i], S_LOAD, t->avg.load_avg, k->avg.load_avg);
		snap_compare(cls[i], S_RUNNABLE, t->avg.runnable_avg, k->avg.runnable_avg);
		snap_compare(cls[i], S_UTIL, t->avg.util_avg, k->avg.util_avg);
		snap_compare(cls[i], S_UTIL_EST, mue, kue);
	}
}

/*
 * A cfs_rq row: its values are as of its last update, which the kernel does
 * not export; compared with the model's as of its own last update.  A root
 * with group entities is counted, not compared.
 */
static void snap_cfs_rq(struct snapshots *sn, struct cfsr_replay *r,
			const struct cfsr_truth_cfs_rq *k, bool settled)
{
	const struct cfsr_cfs_rq *cfs;
	struct snap_stats *st;
	bool root;

	if (!k->path || k->cpu < 0 || k->cpu > INT32_MAX ||
	    (k->avg_fields & CFSR_AVG_AVERAGES) != CFSR_AVG_AVERAGES) {
		sn->cfs_not_compared++;
		return;
	}
	cfs = cfsr_replay_cfs_rq(r, k->path, (int)k->cpu);
	root = !strcmp(k->path, "/");
	if (!cfs || cfsr_cfs_rq_warming(cfs, cfs->avg.last_update_time) ||
	    !cfs->avg.last_update_time) {
		sn->cfs_not_compared++;
		return;
	}
	if (root) {
		/* util_est_enqueue() sums every queued task into the root, groups or not */
		sn->root_ue.rows++;
		snap_compare(&sn->root_ue, S_UTIL_EST, cfs->avg.util_est, k->avg.util_est);
	}
	if (root && cfs->group_children) {
		sn->root_with_groups++;
		return;
	}
	st = root ? &sn->root : &sn->group;
	st->rows++;
	snap_compare(st, S_LOAD, cfs->avg.load_avg, k->avg.load_avg);
	snap_compare(st, S_RUNNABLE, cfs->avg.runnable_avg, k->avg.runnable_avg);
	snap_compare(st, S_UTIL, cfs->avg.util_avg, k->avg.util_avg);
	if (!root && settled) {
		st = &sn->group_settled;
		st->rows++;
		snap_compare(st, S_LOAD, cfs->avg.load_avg, k->avg.load_avg);
		snap_compare(st, S_RUNNABLE, cfs->avg.runnable_avg, k->avg.runnable_avg);
		snap_compare(st, S_UTIL, cfs->avg.util_avg, k->avg.util_avg);
	}
	if (root)
		snap_compare(st, S_UTIL_EST, cfs->avg.util_est, k->avg.util_est);
}

static void print_snap_class(const char *title, const struct snap_stats *st)
{
	int i;

	printf("\n%s: %" PRIu64 " rows\n", title, st->rows);
	printf("%-14s %9s %9s %9s %11s %9s %9s\n", "signal", "compared", "exact %", "±2 %",
	       "mean |err|", "p99", "max");
	for (i = 0; i < S_NR; i++) {
		const struct field_stats *s = &st->f[i];

		if (!s->n)
			continue;
		printf("%-14s %9" PRIu64 " %9.2f %9.2f %11.2f %9" PRIu64 " %9" PRIu64 "\n",
		       snap_names[i], s->n, 100.0 * (double)s->exact / (double)s->n,
		       100.0 * (double)s->within2 / (double)s->n, s->sum_abs / (double)s->n,
		       hist_p99(s), s->max_abs);
	}
}

/*
 * Replay the events before @limit, each snapshot clock reading at its own
 * instant among them (the rq's last update_rq_clock() before the
 * snapshot's read: see formats/clockfeed.c).
 */
static int replay_until(struct snapshots *sn, struct cfsr_replay *r, struct cfsr_trace *t,
			struct cfsr_event *ev, int *have_ev, struct cfsr_clock_feed *feed,
			struct cfsr_clock_reading *rd, int *have_rd, uint64_t limit,
			struct cfsr_progress *progress)
{
	while (*have_ev > 0 && ev->ts <= limit) {
		if (*have_rd < 0)
			return -1;
		if (*have_rd > 0 && rd->ts <= ev->ts) {
			if (rd->cpu >= 0) {
				cfsr_replay_clock_update(r, rd->cpu, rd->ts, rd->clock, rd->until);
				sn->readings++;
			}
			if (cfsr_reading_structure(r, rd) < 0)
				return -1;
			*have_rd = cfsr_clock_feed_next(feed, rd);
			continue;
		}
		if (cfsr_perf_groups_event(&sn->pg, t, ev) < 0 || cfsr_replay_event(r, ev) < 0)
			return -1;
		cfsr_progress_update(progress, t->stats.records, ev->ts - t->stats.first_ts);
		*have_ev = cfsr_trace_next(t, ev);
	}
	return *have_ev < 0 || *have_rd < 0 ? -1 : 0;
}

/* One snapshot under comparison. */
struct snap_now {
	int64_t mid, end;
	/* each CPU's rq clock update, from its cpu row (-1: none) */
	int64_t rq_ts[CFSR_SNAP_CPUS];
	/* its cfs_rq rows, compared after its task rows (paths owned) */
	struct cfsr_truth_cfs_rq *cfs;
	size_t nr_cfs, alloc_cfs;
};

/* The replay's inputs and position. */
struct snap_feed {
	struct cfsr_trace *t;
	struct cfsr_event ev;
	int have_ev;
	struct cfsr_clock_feed *feed;
	struct cfsr_clock_reading rd;
	int have_rd;
	struct cfsr_progress progress;
};

static int snap_replay(struct snapshots *sn, struct cfsr_replay *r, struct snap_feed *f,
		       uint64_t limit)
{
	return replay_until(sn, r, f->t, &f->ev, &f->have_ev, f->feed, &f->rd, &f->have_rd, limit,
			    &f->progress);
}

/*
 * Compare the snapshot's cfs_rq rows.  They are read after truth-mid (and
 * after the task rows in the file), each as of its last update, which came
 * at the latest in the path of the rq's last clock update before the read
 * (its cpu row's rq->clock): the events up to that path are replayed first,
 * not those after it (never past truth-end).
 */
static int snap_cfs_rows(struct snapshots *sn, struct cfsr_replay *r, struct snap_feed *f,
			 struct snap_now *now)
{
	bool seen[CFSR_SNAP_CPUS] = { false };
	int64_t upto;
	size_t i;
	int cpu;

	for (i = 0; i < now->nr_cfs; i++) {
		cpu = (int)now->cfs[i].cpu;
		if (cpu >= 0 && cpu < CFSR_SNAP_CPUS && !seen[cpu] && now->rq_ts[cpu] > now->mid) {
			seen[cpu] = true;
			upto = now->rq_ts[cpu] + (int64_t)PATH_NS;
			if (now->end >= 0 && upto > now->end)
				upto = now->end;
			if (snap_replay(sn, r, f, (uint64_t)upto) < 0)
				return -1;
		}
		snap_cfs_rq(sn, r, &now->cfs[i],
			    (uint64_t)now->mid >= f->t->stats.first_ts + SETTLED_NS);
	}
	while (now->nr_cfs)
		free((char *)now->cfs[--now->nr_cfs].path);
	return 0;
}

/* Keep a cfs_rq row for snap_cfs_rows(). */
static int snap_keep_cfs(struct snap_now *now, const struct cfsr_truth_cfs_rq *k)
{
	struct cfsr_truth_cfs_rq *c;

	if (CFSR_ALLOC_GROW(now->cfs, now->nr_cfs + 1, now->alloc_cfs) < 0)
		return cfsr_error("validate: out of memory");
	c = &now->cfs[now->nr_cfs];
	*c = *k;
	if (k->path && !(c->path = strdup(k->path)))
		return cfsr_error("validate: out of memory");
	now->nr_cfs++;
	return 0;
}

/* Replay up to each snapshot, then compare its task rows, then its cfs_rq rows. */
static int run_snapshots(struct snapshots *sn, struct cfsr_replay *r, struct cfsr_trace *t,
			 struct cfsr_truth_reader *tr, struct cfsr_clock_feed *feed)
{
	struct snap_feed f = { .t = t, .feed = feed };
	struct snap_now now = { .mid = -1, .end = -1 };
	struct cfsr_truth_item it;
	int have_it, cpu, ret = -1;

	cfsr_progress_init(&f.progress, t->path);
	f.have_ev = cfsr_trace_next(t, &f.ev);
	f.have_rd = cfsr_clock_feed_next(feed, &f.rd);
	while ((have_it = cfsr_truth_next(tr, &it)) > 0) {
		if (it.kind == CFSR_TRUTH_SNAP) {
			if (snap_cfs_rows(sn, r, &f, &now) < 0)
				goto out;
			sn->snaps++;
			now.mid = it.snap.trace_ts_mid;
			now.end = it.snap.trace_ts_end;
			for (cpu = 0; cpu < CFSR_SNAP_CPUS; cpu++)
				now.rq_ts[cpu] = -1;
			/* the task rows were read between truth-begin and truth-mid */
			if (now.mid >= 0 && snap_replay(sn, r, &f, (uint64_t)now.mid) < 0)
				goto out;
			continue;
		}
		if (now.mid < 0)
			continue;
		if (it.kind == CFSR_TRUTH_CPU && it.cpu.cpu >= 0 && it.cpu.cpu < CFSR_SNAP_CPUS)
			now.rq_ts[it.cpu.cpu] = cfsr_clock_feed_rq_ts(feed, it.cpu.clock);
		else if (it.kind == CFSR_TRUTH_TASK)
			snap_task(sn, r, &it.task);
		else if (it.kind == CFSR_TRUTH_CFS_RQ && snap_keep_cfs(&now, &it.cfs_rq) < 0)
			goto out;
	}
	if (have_it == 0 && snap_cfs_rows(sn, r, &f, &now) < 0)
		goto out;
	cfsr_progress_done(&f.progress);
	ret = have_it;
out:
	while (now.nr_cfs)
		free((char *)now.cfs[--now.nr_cfs].path);
	free(now.cfs);
	return ret;
}

/* cfsr_task_groups() callback: put the task in its group. */
static int set_group(void *data, int tid, const char *group)
{
	return cfsr_replay_task_set_group(data, tid, group) < 0 ? -1 : 0;
}

/*
 * Put every task in the group of its first record or snapshot row in
 * @path, and follow the cpu controller's moves; with @perf_groups, in the
 * cgroup of its first sample in the perf.data @t, following perf's
 * hierarchy (@pg, cmd/perfgroups.c): @path's groups are then only compared.
 */
static int take_groups(struct cfsr_replay *r, struct cfsr_perf_groups *pg, bool perf_groups,
		       const struct cfsr_trace *t, const char *path)
{
	if (perf_groups)
		return cfsr_perf_groups_begin(pg, &r, 1, "validate", t);
	if (cfsr_task_groups(path, set_group, NULL, r) < 0)
		return -1;
	return cfsr_follow_attaches(r, t, path);
}

/*
 * The records the lock-step uses: those it compares (se, gse, cfs) and,
 * for their rq clock only, the util_est and RT ones, which fire inside the
 * enqueue and dequeue paths (util_est_enqueue()/util_est_dequeue() at every
 * fair task's) and in the blocked-load updates.
 */
static bool lockstep_record(const struct cfsr_truth_item *it)
{
	if (it->kind != CFSR_TRUTH_PELT || it->pelt.ts < 0)
		return false;
	switch (it->pelt.type) {
	case CFSR_PELT_SE:
	case CFSR_PELT_GSE:
	case CFSR_PELT_CFS:
	case CFSR_PELT_UE_SE:
	case CFSR_PELT_UE_CFS:
	case CFSR_PELT_RT:
		return true;
	default:
		return false;
	}
}

/* The next record the lock-step uses, its time put on the trace's clock. */
static int next_record(const struct validate *v, struct cfsr_truth_reader *pr,
		       struct cfsr_truth_item *item)
{
	int have;

	do {
		have = cfsr_truth_next(pr, item);
	} while (have > 0 && !lockstep_record(item));
	if (have > 0)
		item->pelt.ts = cfsr_clock_map_pelt_ts(&v->map, item->pelt.ts, item->pelt.ktime);
	return have;
}

/* A free-running model's pending records on the CPUs @ev acts on came before an event. */
static void mark_followed(struct validate *v, const struct cfsr_event *ev)
{
	size_t i;
	int c;

	if (!v->free_run)
		return;
	for (i = 0; i < v->nr_pending; i++) {
		c = v->pending[i].cpu;
		if (c == ev->cpu ||
		    ((ev->kind == CFSR_EV_WAKEUP || ev->kind == CFSR_EV_WAKEUP_NEW) &&
		     c == ev->wake.target_cpu) ||
		    (ev->kind == CFSR_EV_MIGRATE &&
		     (c == ev->migrate.orig_cpu || c == ev->migrate.dest_cpu)))
			v->pending[i].followed = true;
	}
}

/*
 * Pending kernel updates whose path showed no event by @ts were blocked-load
 * updates: the engine makes them at their time (cfsr_replay_cfs_rq_blocked());
 * a free-running model makes its own release's update_blocked_averages()
 * pass on the CPU where no event came (cfsr_replay_blocked_averages()).
 */
static void settle_pending(struct validate *v, uint64_t ts)
{
	size_t i, n = 0;

	for (i = 0; i < v->nr_pending; i++) {
		struct pending_update *p = &v->pending[i];

		if (p->ts + CFSR_REPLAY_PATH_NS >= ts)
			v->pending[n++] = *p;
		else if (!v->free_run)
			v->blocked_updates += cfsr_replay_cfs_rq_blocked(v->replay, p->group,
									 p->cpu, p->lut, p->ts);
		else if (!p->followed)
			v->blocked_updates +=
				cfsr_replay_blocked_averages(v->replay, p->cpu, p->ts, p->clock);
	}
	v->nr_pending = n;
}

/* Whether event @ev acts on CPU @cpu: it ran there, wakes a task onto it or migrates one. */
static bool acts_on(const struct cfsr_event *ev, int cpu)
{
	return ev->cpu == cpu ||
	       ((ev->kind == CFSR_EV_WAKEUP || ev->kind == CFSR_EV_WAKEUP_NEW) &&
		ev->wake.target_cpu == cpu) ||
	       (ev->kind == CFSR_EV_MIGRATE &&
		(ev->migrate.orig_cpu == cpu || ev->migrate.dest_cpu == cpu));
}

/*
 * Whether the trace has an event acting on @cpu from @from to @to (@own:
 * only one of @cpu itself): @next, the event read but not replayed yet
 * (NULL none), then those read ahead.  1 yes, 0 no, -1 the look ahead ends
 * first (the reader's bound) or fails.
 */
static int event_within(struct cfsr_trace *t, const struct cfsr_event *next, int cpu, uint64_t from,
			uint64_t to, bool own)
{
	const struct cfsr_event *ev = next;
	size_t i = 0;

	if (!ev)
		return 0;
	for (;;) {
		if (ev->ts > to)
			return 0;
		if (ev->ts >= from && (own ? ev->cpu == cpu : acts_on(ev, cpu)))
			return 1;
		if (cfsr_trace_peek(t, i++, &ev) <= 0)
			return -1;
	}
}

/*
 * Pending kernel updates of a CPU the trace shows no event on within
 * CFSR_REPLAY_PATH_NS of the record were update_blocked_averages()' or a
 * tick's whose __schedule() did not follow (entity_tick(), UPDATE_TG): both
 * publish into tg->load_avg right after the record, which is made now
 * rather than once that time has passed, before another CPU's update reads
 * tg->load_avg (a reweight in a dequeue there, say) as the kernel's read it
 * after.  The look ahead is the trace reader's (cfsr_trace_peek()).
 */
static void settle_quiet(struct validate *v, struct cfsr_trace *t, const struct cfsr_event *next)
{
	size_t i, n = 0;
	int ev;

	if (v->free_run)
		return;
	for (i = 0; i < v->nr_pending; i++) {
		struct pending_update *p = &v->pending[i];

		ev = event_within(t, next, p->cpu, p->ts, p->ts + CFSR_REPLAY_PATH_NS, false);
		if (ev)
			v->pending[n++] = *p;
		else
			v->blocked_updates += cfsr_replay_cfs_rq_blocked(v->replay, p->group,
									 p->cpu, p->lut, p->ts);
	}
	v->nr_pending = n;
}

/*
 * A record @rec of a CPU more than TICK_RECORDS_NS after the CPU's pending
 * run-time report, at a later rq clock than the report's update, is of a
 * later path than the report's (another CPU's wakeup or load balance on
 * this run queue, its own blocked-load walk; a tick's own records follow
 * its report within microseconds, at the tick's clock).  If no event of
 * the CPU follows the report within CFSR_REPLAY_PATH_NS (the trace
 * reader's look ahead), the report was a tick's, whose update the kernel
 * made before that path: it is made now, not once the engine's wait for
 * an event of the CPU ends after the record (cfsr_replay_settle_tick()).
 */
#define TICK_RECORDS_NS 20000

static void settle_tick_before(struct validate *v, struct cfsr_trace *t,
			       const struct cfsr_event *next, const struct cfsr_pelt_rec *rec)
{
	int cpu = (int)rec->rq_cpu;
	uint64_t at, clock;

	if (v->free_run || !cfsr_replay_pending_report(v->replay, cpu, &at, &clock) ||
	    (uint64_t)rec->ts <= at + TICK_RECORDS_NS || rec->clock_task < 0 ||
	    record_clock(v, rec, false) <= clock)
		return;
	if (!event_within(t, next, cpu, at, at + CFSR_REPLAY_PATH_NS, true))
		cfsr_replay_settle_tick(v->replay, cpu);
}

/* Merge the trace and the kernel records by time and replay. */
static int run(struct validate *v, struct cfsr_trace *t, struct cfsr_truth_reader *pr)
{
	struct cfsr_progress progress;
	struct cfsr_truth_item item;
	struct cfsr_event ev;
	int have_ev, have_rec;

	cfsr_progress_init(&progress, t->path);
	have_ev = cfsr_trace_next(t, &ev);
	have_rec = next_record(v, pr, &item);
	while (have_ev > 0 || have_rec > 0) {
		if (have_ev < 0 || have_rec < 0)
			return -1;
		if (have_ev > 0 && (have_rec <= 0 || ev.ts <= (uint64_t)item.pelt.ts)) {
			settle_pending(v, ev.ts);
			settle_quiet(v, t, &ev);
			mark_followed(v, &ev);
			v->started = true;
			if ((v->pick && cfsr_pickcheck_before(v->pick, &ev) < 0) ||
			    cfsr_perf_groups_event(&v->pg, t, &ev) < 0 ||
			    cfsr_replay_event(v->replay, &ev) < 0)
				return -1;
			if (v->pick)
				cfsr_pickcheck_after(v->pick, &ev);
			cfsr_progress_update(&progress, t->stats.records,
					     ev.ts - t->stats.first_ts);
			have_ev = cfsr_trace_next(t, &ev);
			continue;
		}
		/*
		 * The capture runs a little longer than the trace: what the
		 * kernel did after the last event the trace does not show.
		 */
		if (have_ev == 0) {
			v->after_end++;
			have_rec = next_record(v, pr, &item);
			continue;
		}
		settle_pending(v, (uint64_t)item.pelt.ts);
		settle_quiet(v, t, have_ev > 0 ? &ev : NULL);
		if (item.pelt.rq_cpu >= 0 &&
		    (item.pelt.type == CFSR_PELT_SE || item.pelt.type == CFSR_PELT_GSE ||
		     item.pelt.type == CFSR_PELT_CFS))
			settle_tick_before(v, t, have_ev > 0 ? &ev : NULL, &item.pelt);
		cfsr_replay_settle_ticks(v->replay, (uint64_t)item.pelt.ts);
		v->records += item.pelt.type == CFSR_PELT_SE || item.pelt.type == CFSR_PELT_GSE ||
			      item.pelt.type == CFSR_PELT_CFS;
		if (item.pelt.rq_cpu >= 0 && item.pelt.clock_task >= 0) {
			uint64_t clock = record_clock(v, &item.pelt, true);

			cfsr_replay_clock_record(v->replay, (int)item.pelt.rq_cpu,
						 (uint64_t)item.pelt.ts, clock);
			/* __update_blocked_others() crossed a period: the walk follows */
			if (item.pelt.type == CFSR_PELT_RT && !v->free_run)
				cfsr_replay_blocked_hint(v->replay, (int)item.pelt.rq_cpu,
							 (uint64_t)item.pelt.ts, clock);
		}
		if (item.pelt.type == CFSR_PELT_SE || item.pelt.type == CFSR_PELT_UE_SE)
			take_exec_start(v, &item.pelt);
		if (item.pelt.type == CFSR_PELT_SE)
			on_se_record(v, &item.pelt);
		else if (item.pelt.type == CFSR_PELT_GSE && on_gse_record(v, &item.pelt) < 0)
			return -1;
		else if (item.pelt.type == CFSR_PELT_CFS && on_cfs_record(v, &item.pelt) < 0)
			return -1;
		have_rec = next_record(v, pr, &item);
	}
	cfsr_progress_done(&progress);
	return 0;
}

/*
 * The trace itself as the records (none given, none beside it): only a
 * trace.dat of 'cfsreplay record' embeds kernel snapshots; any other
 * trace is refused here, naming what is missing, rather than read as JSON.
 */
static bool own_records(const struct cfsr_trace *t, const char *truth)
{
	char *beside;

	if (strcmp(truth, t->path) || (t->info.reader && !strcmp(t->info.reader, "trace.dat")))
		return true;
	beside = cfsr_record_pelt_path(t->path);
	cfsr_error("validate: '%s' is a %s, which carries no kernel records of the run: give "
		   "the kernel's PELT updates with --pelt FILE (pelt.jsonl[.gz], read by default "
		   "from '%s') or its snapshots with --truth FILE (truth.jsonl[.gz])",
		   t->path, t->info.reader ? t->info.reader : "trace",
		   beside ? beside : "TRACE.pelt.jsonl.gz");
	free(beside);
	return false;
}

static int validate_truth(const char *truth, const char *trace, double max_error,
			  const char *kernel, bool perf_groups)
{
	const struct cfsr_profile *prof;
	struct cfsr_truth_reader *tr = NULL;
	struct snapshots *sn = NULL;
	struct cfsr_replay *r = NULL;
	struct cfsr_clock_feed *feed = NULL;
	struct cfsr_clock_map map;
	const struct cfsr_replay_stats *rs;
	struct cfsr_trace *t;
	int status = CFSR_EXIT_ERROR;
	double exact;
	char series[96];

	t = cfsr_trace_open(trace);
	if (!t)
		return status;
	if (!own_records(t, truth))
		goto out;
	tr = cfsr_truth_open(truth);
	if (!tr)
		goto out;
	if (cfsr_truth_format(tr) != CFSR_TRUTH_FMT_SNAPSHOTS) {
		cfsr_error("cannot use '%s': not a truth.jsonl file of kernel snapshots", truth);
		goto out;
	}
	prof = cfsr_profile_choose(t->info.kernel_release, kernel, t->path);
	if (!prof)
		goto out;
	sn = calloc(1, sizeof(*sn));
	r = cfsr_replay_new(t->info.nr_cpus > 0 ? t->info.nr_cpus : 1, prof, t->info.hz);
	if (!sn || !r) {
		cfsr_error("validate: out of memory");
		goto out;
	}
	cfsr_replay_set_peek(r, cfsr_trace_peek_fn, t);
	cfsr_replay_take_tunables(r, &t->info);
	if (cfsr_meta_group_shares(t, cfsr_replay_group_shares_fn, r) < 0 ||
	    cfsr_meta_idle(t, cfsr_replay_group_idle_fn, cfsr_replay_task_idle_fn, r) < 0)
		goto out;
	cfsr_replay_expect_clock(r);
	feed = cfsr_clock_feed_open(truth);
	if (!feed || cfsr_clock_map_find(truth, t->info.clock, &map) < 0)
		goto out;
	cfsr_clock_feed_align(feed, &map);
	if (take_groups(r, &sn->pg, perf_groups, t, truth) < 0 ||
	    run_snapshots(sn, r, t, tr, feed) < 0)
		goto out;
	printf("trace:            %s\n", t->path);
	printf("kernel snapshots: %s (%" PRIu64 " snapshots)\n", truth, sn->snaps);
	printf("model:            tasks, group entities and cfs_rqs, kernel %s%s; a\n"
	       "                  prediction: only the snapshots' per-CPU clocks and each\n"
	       "                  task's group feed it\n",
	       prof->name, cfsr_profile_what_if(t->info.kernel_release, prof) ? " (what-if)" : "");
	if (cfsr_profile_series_note(t->info.kernel_release, kernel, series, sizeof(series)))
		printf("                  %s\n", series);
	print_sched_feats(r, prof);
	printf("not compared:     %" PRIu64
	       " rows of tasks the model does not know (no update yet) or not fair, "
	       "%" PRIu64 " rows of tasks still warming up\n",
	       sn->not_compared, sn->warming);
	rs = cfsr_replay_stats(r);
	print_groups_source(&sn->pg, "snapshots");
	print_group_moves(rs);
	printf("                  compared rows of tasks the model had in another group: %" PRIu64
	       "\n",
	       sn->other_group);
	printf("clock:            %" PRIu64 " readings, each at its rq's clock update; %" PRIu64
	       " updates on an estimated clock, %" PRIu64 " run-time chains moved onto a reading\n",
	       sn->readings, rs->estimated_updates, rs->chain_corrections);
	print_snap_class("tasks sleeping at the snapshot", &sn->sleeping);
	print_snap_class("all tasks", &sn->all);
	printf("\ncfs_rqs not compared: %" PRIu64 " rows of cfs_rqs the model does not have or "
	       "still warming up, %" PRIu64 " rows of roots with group entities\n",
	       sn->cfs_not_compared, sn->root_with_groups);
	print_snap_class("root cfs_rqs", &sn->root);
	print_snap_class("root cfs_rqs' util_est, with or without group entities", &sn->root_ue);
	print_snap_class("group cfs_rqs", &sn->group);
	print_snap_class("group cfs_rqs, snapshots 500 ms or more after the trace's start",
			 &sn->group_settled);
	cfsr_perf_groups_summary(&sn->pg, "validate");
	status = CFSR_EXIT_OK;
	exact = sn->sleeping.f[S_UTIL].n ? 100.0 * (double)sn->sleeping.f[S_UTIL].exact /
						   (double)sn->sleeping.f[S_UTIL].n :
					   0;
	if (max_error >= 0 && 100.0 - exact > max_error)
		status = CFSR_EXIT_DIVERGED;
out:
	cfsr_replay_free(r);
	if (sn)
		cfsr_perf_groups_release(&sn->pg);
	free(sn);
	cfsr_clock_feed_close(feed);
	cfsr_truth_close(tr);
	cfsr_trace_close(t);
	return status;
}

static int validate_pelt(const char *pelt, const char *path, double max_error, const char *kernel,
			 bool perf_groups);

int cmd_validate(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "pelt", required_argument, NULL, 'p' },
		{ "truth", required_argument, NULL, 't' },
		{ "max-error", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "diffs", required_argument, NULL, 'd' },
		{ "perf-cgroups", required_argument, NULL, 'G' },
		{ "no-eevdf-keys", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pelt = NULL, *truth = NULL, *kernel = NULL;
	bool perf_groups = false;
	char *beside = NULL;
	double max_error = -1;
	int c, status;
	char *end;

	optind = 1;
	opterr = 0;
	opt_diffs = 0;
	opt_no_keys = false;
	while ((c = getopt_long(argc, (char *const *)argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 'p':
			pelt = optarg;
			break;
		case 'd':
			opt_diffs = strtoul(optarg, &end, 10);
			if (*end || !*optarg || opt_diffs > 100000) {
				cfsr_error("validate: --diffs takes a count up to 100000, not '%s'",
					   optarg);
				return CFSR_EXIT_ERROR;
			}
			break;
		case 't':
			truth = optarg;
			break;
		case 'E':
			opt_no_keys = true;
			break;
		case 'G':
			if (cfsr_perf_groups_arg("validate", optarg) < 0)
				return CFSR_EXIT_ERROR;
			perf_groups = true;
			break;
		case 'K':
			kernel = optarg;
			break;
		case 'm':
			max_error = strtod(optarg, &end);
			if (*end || max_error < 0 || max_error > 100) {
				cfsr_error("validate: --max-error takes a percentage, not '%s'",
					   optarg);
				return CFSR_EXIT_ERROR;
			}
			break;
		case 'h':
			for (c = 0; validate_usage[c]; c++)
				puts(validate_usage[c]);
			return CFSR_EXIT_OK;
		default:
			cfsr_error("validate: unknown option '%s'; see 'cfsreplay validate --help'",
				   argv[optind - 1]);
			return CFSR_EXIT_ERROR;
		}
	}
	if (opt_no_keys && truth) {
		cfsr_error("validate: --no-eevdf-keys is for lock-step with the kernel's PELT "
			   "records, not with --truth snapshots");
		return CFSR_EXIT_ERROR;
	}
	if (optind + 1 != argc || (pelt && truth)) {
		cfsr_error(
			"validate needs one TRACE, and at most one of --pelt FILE or --truth FILE; see 'cfsreplay validate --help'");
		return CFSR_EXIT_ERROR;
	}
	/*
	 * A trace from 'cfsreplay record': the kernel's PELT updates beside it
	 * (lock-step), else the snapshots it carries.
	 */
	if (!pelt && !truth) {
		beside = cfsr_record_pelt_path(argv[optind]);
		if (!beside) {
			cfsr_error("validate: out of memory");
			return CFSR_EXIT_ERROR;
		}
		if (access(beside, R_OK) == 0)
			pelt = beside;
		else
			truth = argv[optind];
	}
	if (perf_groups && truth == argv[optind]) {
		cfsr_error("validate: --perf-cgroups needs the kernel's records of the run, "
			   "--pelt FILE or --truth FILE (a perf.data carries no snapshots)");
		free(beside);
		return CFSR_EXIT_ERROR;
	}
	if (truth)
		status = validate_truth(truth, argv[optind], max_error, kernel, perf_groups);
	else
		status = validate_pelt(pelt, argv[optind], max_error, kernel, perf_groups);
	free(beside);
	return status;
}

static void validate_free(struct validate *v)
{
	size_t i;
	int k;

	if (!v)
		return;
	cfsr_pickcheck_free(v->pick);
	for (k = 0; k < K_NR; k++) {
		for (i = 0; i < v->k[k].nr_diffs; i++)
			free(v->k[k].diffs[i]);
		free(v->k[k].diffs);
	}
	cfsr_replay_free(v->replay);
	cfsr_perf_groups_release(&v->pg);
	free(v->paths);
	free(v->klut);
	free(v->gklut);
	free(v->pending);
	free(v);
}

/*
 * Replay @path in lock-step with @pelt, the task groups from the records or
 * (@perf_groups) from the perf.data's cgroups; return the state, or NULL
 * after cfsr_error().
 */
static struct validate *lockstep(const char *pelt, struct cfsr_trace *t, const char *kernel,
				 bool perf_groups)
{
	struct cfsr_truth_reader *pr = NULL;
	const struct cfsr_profile *prof;
	struct validate *v = NULL;
	bool ok = false;
	int i;

	pr = cfsr_truth_open(pelt);
	if (!pr)
		goto out;
	if (cfsr_truth_format(pr) != CFSR_TRUTH_FMT_PELT) {
		cfsr_error("cannot use '%s': not a pelt.jsonl file of kernel PELT records", pelt);
		goto out;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		cfsr_error("validate: out of memory");
		goto out;
	}
	for (i = 0; i < K_NR && opt_diffs; i++) {
		v->k[i].diffs = calloc(opt_diffs, sizeof(*v->k[i].diffs));
		if (!v->k[i].diffs) {
			cfsr_error("validate: out of memory");
			goto out;
		}
		v->k[i].max_diffs = opt_diffs;
	}
	prof = cfsr_profile_choose(t->info.kernel_release, kernel, t->path);
	if (!prof)
		goto out;
	v->profile = prof;
	v->what_if = cfsr_profile_what_if(t->info.kernel_release, prof);
	v->series = cfsr_profile_series_note(t->info.kernel_release, kernel, v->series_buf,
					     sizeof(v->series_buf));
	v->free_run = !(cfsr_pelt_signals(prof) & CFSR_SIG_RUNNABLE_AVG);
	v->replay = cfsr_replay_new(t->info.nr_cpus > 0 ? t->info.nr_cpus : 1, prof, t->info.hz);
	if (!v->replay) {
		cfsr_error("validate: out of memory");
		goto out;
	}
	cfsr_replay_set_peek(v->replay, cfsr_trace_peek_fn, t);
	cfsr_replay_take_tunables(v->replay, &t->info);
	if (cfsr_meta_group_shares(t, cfsr_replay_group_shares_fn, v->replay) < 0 ||
	    cfsr_meta_idle(t, meta_group_idle, snapshot_idle, v) < 0)
		goto out;
	cfsr_replay_expect_clock(v->replay);
	/* lock-step: the records say when update_blocked_averages() ran */
	if (!v->free_run)
		cfsr_replay_expect_blocked(v->replay);
	/* a perf.data's samples may be on another clock than the records */
	if (cfsr_clock_map_find(pelt, t->info.clock, &v->map) < 0)
		goto out;
	if (v->map.how != CFSR_CLOCK_SAME) {
		char how[512];

		cfsr_clock_map_describe(&v->map, pelt, how, sizeof(how));
		fprintf(stderr, "validate: %s\n", how);
	}
	if (prof->eevdf) {
		struct cfsr_pickcheck_params pp = { .engine = v->replay,
						    .nr_cpus = t->info.nr_cpus > 0 ?
								       t->info.nr_cpus :
								       1,
						    .prof = prof,
						    .hz = t->info.hz,
						    .win_end = UINT64_MAX,
						    .filter_cpu = -1,
						    .filter_pid = -1 };

		v->pick = cfsr_pickcheck_new(&pp);
		if (!v->pick)
			goto out;
		/* the records name each task's group, or perf's cgroups are assumed the cpu's */
		if (perf_groups)
			cfsr_pickcheck_groups_perf(v->pick);
		else
			cfsr_pickcheck_groups_known(v->pick);
	}
	if (take_groups(v->replay, &v->pg, perf_groups, t, pelt) < 0 || run(v, t, pr) < 0)
		goto out;
	ok = true;
out:
	cfsr_truth_close(pr);
	if (!ok) {
		validate_free(v);
		v = NULL;
	}
	return v;
}

static int validate_pelt(const char *pelt, const char *path, double max_error, const char *kernel,
			 bool perf_groups)
{
	struct cfsr_trace *t = NULL;
	struct validate *v = NULL;
	int status = CFSR_EXIT_ERROR;

	t = cfsr_trace_open(path);
	if (!t)
		goto out;
	v = lockstep(pelt, t, kernel, perf_groups);
	if (!v)
		goto out;
	print_report(v, t->path, pelt);
	cfsr_perf_groups_summary(&v->pg, "validate");
	status = CFSR_EXIT_OK;
	if (max_error >= 0 && v->k[K_TASK].compared &&
	    100.0 * (double)(v->k[K_TASK].compared - v->k[K_TASK].all_exact) /
			    (double)v->k[K_TASK].compared >
		    max_error)
		status = CFSR_EXIT_DIVERGED;
out:
	validate_free(v);
	cfsr_trace_close(t);
	return status;
}

_Static_assert((int)CFSR_FID_NR == (int)K_NR && (int)CFSR_FID_ROOT == (int)K_ROOT,
	       "cfsr_fidelity kinds are validate's");

const char *cfsr_fidelity_kind(int kind)
{
	return kind >= 0 && kind < K_NR ? kind_names[kind] : "?";
}

struct json_object *cfsr_fidelity_json(const struct cfsr_fidelity *f)
{
	json_object *o, *kinds, *k;
	int i;

	if (!f || !f->pelt)
		return NULL;
	o = json_object_new_object();
	kinds = json_object_new_object();
	json_object_object_add(o, "pelt_file", json_object_new_string(f->pelt));
	json_object_object_add(o, "model", json_object_new_string(f->model));
	for (i = 0; i < CFSR_FID_NR; i++) {
		k = json_object_new_object();
		json_object_object_add(k, "compared", json_object_new_uint64(f->compared[i]));
		json_object_object_add(k, "exact", json_object_new_uint64(f->exact[i]));
		json_object_object_add(kinds, cfsr_fidelity_kind(i), k);
	}
	json_object_object_add(o, "kinds", kinds);
	return o;
}

int cfsr_fidelity_beside(const char *trace, const char *kernel, struct cfsr_fidelity *f)
{
	struct cfsr_trace *t = NULL;
	struct validate *v = NULL;
	char *beside;
	int i, ret = -1;

	memset(f, 0, sizeof(*f));
	beside = cfsr_record_pelt_path(trace);
	if (!beside)
		return cfsr_error("validate: out of memory");
	if (access(beside, R_OK) != 0) {
		free(beside);
		return 0;
	}
	t = cfsr_trace_open(trace);
	if (!t)
		goto out;
	v = lockstep(beside, t, kernel, false);
	if (!v)
		goto out;
	f->pelt = beside;
	beside = NULL;
	f->model = v->profile->name;
	for (i = 0; i < K_NR && i < CFSR_FID_NR; i++) {
		f->compared[i] = v->k[i].compared;
		f->exact[i] = v->k[i].all_exact;
	}
	ret = 1;
out:
	free(beside);
	validate_free(v);
	cfsr_trace_close(t);
	return ret;
}

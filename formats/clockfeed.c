// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clock readings from a kernel-truth file.  See clockfeed.h.
 *
 * A truth.jsonl snapshot's cpu rows hold the rq's clock and clock_task as
 * of its last update_rq_clock(): rq->clock is local_clock() at that
 * update, so the reading's time is rq->clock itself, put on the trace's
 * clock (see snap_readings()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "alloc.h"
#include "clockfeed.h"
#include "error.h"
#include "formats.h"
#include "group.h"
#include "pidset.h"
#include "truthfile.h"
#include "weight.h"

struct cfsr_clock_feed {
	struct cfsr_truth_reader *r;
	enum cfsr_truth_format format;
	/* a truth.jsonl's readings, in time order (snap_readings()) */
	struct cfsr_clock_reading *snaps;
	size_t nr_snaps, snaps_alloc, next_snap;
	bool snaps_read;
	/* local_clock() - sched_clock(), and whether the readings move by it */
	int64_t k;
	bool to_local;
	/* cfsr_clock_feed_align(): the readings' times onto the trace clock */
	struct cfsr_clock_map map;
	/* each group's last tg->shares (records) or autogroup nice (snapshots) */
	struct feed_shares *shares;
	size_t nr_shares, shares_alloc;
};

struct feed_shares {
	char *path;
	int64_t value;
};

/*
 * @value for group @path: whether it changed from the last one @f saw for
 * that group (the first one seen is no change: its value is the group's
 * from the start, which the trace's metadata or cfsr_task_groups() give);
 * -1 out of memory.  *@kept: the feed's copy of @path.
 */
static int shares_changed(struct cfsr_clock_feed *f, const char *path, int64_t value,
			  const char **kept)
{
	size_t i;

	for (i = 0; i < f->nr_shares && strcmp(f->shares[i].path, path); i++)
		;
	if (i < f->nr_shares) {
		*kept = f->shares[i].path;
		if (f->shares[i].value == value)
			return 0;
		f->shares[i].value = value;
		return 1;
	}
	if (CFSR_ALLOC_GROW(f->shares, f->nr_shares + 1, f->shares_alloc) < 0 ||
	    !(f->shares[f->nr_shares].path = strdup(path)))
		return cfsr_error("out of memory for group shares");
	f->shares[f->nr_shares].value = value;
	*kept = f->shares[f->nr_shares++].path;
	return 0;
}

/* A clock name the files use, as a static string; NULL for any other. */
static const char *known_clock(const char *name)
{
	static const char *const names[] = { "local", "perf", "mono" };
	size_t i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return names[i];
	return NULL;
}

/*
 * A snapshot's sched_debug header holds sched_clk (sched_clock(), the
 * "local" trace clock) and cpu_clk (local_clock(), the "perf" one), read
 * one after the other: their difference is the boot-time constant between
 * the two clocks, to within the read (tens of ns).  @from is the clock the
 * snapshot's marker times are on; *@shift moves them onto the other.
 */
static bool snap_shift(const struct cfsr_truth_snap *sn, const char *from, int64_t *shift)
{
	if (sn->sched_clk < 0 || sn->cpu_clk < 0 || !from)
		return false;
	*shift = !strcmp(from, "local") ? sn->cpu_clk - sn->sched_clk : sn->sched_clk - sn->cpu_clk;
	return true;
}

/* The clock a snapshot's marker times are on: the header clock read between them. */
static const char *snap_clock(const struct cfsr_truth_snap *sn)
{
	if (sn->trace_ts_begin < 0 || sn->trace_ts_end < 0)
		return NULL;
	if (sn->sched_clk >= sn->trace_ts_begin && sn->sched_clk <= sn->trace_ts_end)
		return "local";
	if (sn->cpu_clk >= sn->trace_ts_begin && sn->cpu_clk <= sn->trace_ts_end)
		return "perf";
	return NULL;
}

/*
 * The constant local_clock() - sched_clock() from a pelt.jsonl on "local":
 * each record holds its rq's clock (rq->clock, local_clock() at the rq's
 * last update_rq_clock()) and its own time on sched_clock().  The record
 * fires after that update, so clock - ts is at most the constant; the
 * largest value over the records, from an update right before its record,
 * is taken.  Differs: low by the shortest such delay and off by the
 * file's own calibration (hdr clock.precision_ns), each about 1 us.
 */
static int pelt_shift(struct cfsr_truth_reader *r, struct cfsr_clock_map *m)
{
	struct cfsr_truth_item it;
	int ret;

	while ((ret = cfsr_truth_next(r, &it)) > 0) {
		const struct cfsr_pelt_rec *p = &it.pelt;

		if (it.kind != CFSR_TRUTH_PELT || p->ts < 0 || p->clock < 0 ||
		    p->type == CFSR_PELT_HDR)
			continue;
		if (!m->support || p->clock - p->ts > m->shift)
			m->shift = p->clock - p->ts;
		m->support++;
		m->records = true;
	}
	return ret;
}

int cfsr_clock_map_find(const char *path, const char *trace_clock, struct cfsr_clock_map *m)
{
	struct cfsr_truth_reader *r = cfsr_truth_open(path);
	const struct cfsr_pelt_hdr *h;
	struct cfsr_truth_item it;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->to = trace_clock;
	if (!r)
		return -1;
	if (cfsr_truth_format(r) == CFSR_TRUTH_FMT_PELT) {
		ret = cfsr_truth_next(r, &it);
		h = cfsr_truth_pelt_hdr(r);
		m->from = h ? known_clock(h->trace_clock) : NULL;
	} else {
		while ((ret = cfsr_truth_next(r, &it)) > 0) {
			if (it.kind != CFSR_TRUTH_SNAP)
				continue;
			m->from = snap_clock(&it.snap);
			if (m->from)
				break;
		}
		if (ret > 0 && snap_shift(&it.snap, m->from, &m->shift))
			m->support = 1;
	}
	if (ret < 0)
		goto out;
	if (!m->from || !trace_clock)
		m->how = CFSR_CLOCK_ASSUMED;
	else if (!strcmp(m->from, trace_clock))
		m->how = CFSR_CLOCK_SAME;
	else if (cfsr_truth_format(r) == CFSR_TRUTH_FMT_PELT && !strcmp(trace_clock, "mono"))
		m->how = CFSR_CLOCK_KTIME;
	else if (cfsr_truth_format(r) == CFSR_TRUTH_FMT_SNAPSHOTS && m->support &&
		 (!strcmp(trace_clock, "perf") || !strcmp(trace_clock, "local")))
		m->how = CFSR_CLOCK_SHIFTED;
	else if (cfsr_truth_format(r) == CFSR_TRUTH_FMT_PELT && !strcmp(m->from, "local") &&
		 !strcmp(trace_clock, "perf"))
		m->how = (ret = pelt_shift(r, m)) == 0 && m->support ? CFSR_CLOCK_SHIFTED :
								       CFSR_CLOCK_UNALIGNED;
	else
		m->how = CFSR_CLOCK_UNALIGNED;
out:
	cfsr_truth_close(r);
	return ret < 0 ? -1 : 0;
}

int64_t cfsr_clock_map_pelt_ts(const struct cfsr_clock_map *m, int64_t ts, int64_t ktime)
{
	if (m->how == CFSR_CLOCK_KTIME)
		return ktime;
	if (ts < 0 || m->how != CFSR_CLOCK_SHIFTED)
		return ts;
	return ts + m->shift;
}

void cfsr_clock_map_describe(const struct cfsr_clock_map *m, const char *path, char *buf,
			     size_t len)
{
	const char *from = m->from ? m->from : "unknown", *to = m->to ? m->to : "unknown";

	switch (m->how) {
	case CFSR_CLOCK_SAME:
		snprintf(buf, len, "times of '%s' on the trace's clock (%s)", path, to);
		break;
	case CFSR_CLOCK_ASSUMED:
		snprintf(buf, len, "times of '%s' (clock %s) taken as on the trace's clock (%s)",
			 path, from, to);
		break;
	case CFSR_CLOCK_SHIFTED:
		snprintf(buf, len,
			 "times of '%s' moved from clock %s onto the trace's %s by %+" PRId64
			 " ns (%s)",
			 path, from, to, m->shift,
			 m->records ? "the largest rq clock - time of its records" :
				      "each snapshot's cpu_clk - sched_clk");
		break;
	case CFSR_CLOCK_KTIME:
		snprintf(buf, len, "times of '%s' from its records' ktime (the trace's clock, %s)",
			 path, to);
		break;
	case CFSR_CLOCK_UNALIGNED:
		snprintf(buf, len,
			 "times of '%s' (clock %s) NOT aligned with the trace's clock (%s): no "
			 "known relation, taken as the same",
			 path, from, to);
		break;
	}
}

struct cfsr_clock_feed *cfsr_clock_feed_open(const char *path)
{
	struct cfsr_clock_feed *f = calloc(1, sizeof(*f));

	if (!f) {
		cfsr_error("cannot open '%s': out of memory", path);
		return NULL;
	}
	f->r = cfsr_truth_open(path);
	if (!f->r) {
		free(f);
		return NULL;
	}
	f->format = cfsr_truth_format(f->r);
	return f;
}

static int reading_cmp(const void *a, const void *b)
{
	const struct cfsr_clock_reading *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu - y->cpu;
}

static int cgroup_shares(int64_t version, int64_t shares, int64_t weight, int64_t idle,
			 uint64_t *out);

/* A shares reading: group @kept (the feed's copy) has @shares from @mid on. */
static int shares_reading(struct cfsr_clock_feed *f, const char *kept, uint64_t shares, int64_t mid)
{
	struct cfsr_clock_reading *rd;

	if (CFSR_ALLOC_GROW(f->snaps, f->nr_snaps + 1, f->snaps_alloc) < 0)
		return cfsr_error("out of memory for clock readings");
	rd = &f->snaps[f->nr_snaps++];
	memset(rd, 0, sizeof(*rd));
	rd->cpu = -1;
	rd->ts = (uint64_t)mid;
	rd->clock_pelt = -1;
	rd->shares_group = kept;
	rd->shares = shares;
	return 0;
}

/*
 * A snapshot's cgroup row: the group's shares as cpu.idle, cpu.shares or
 * cpu.weight give them (cgroup_shares()); one that differs from the
 * group's in an earlier snapshot is a write made between the two
 * (sched_group_set_shares() or sched_group_set_idle(), an instant no
 * event shows): a reading at @mid.
 */
static int snap_cgroup(struct cfsr_clock_feed *f, const struct cfsr_truth_cgroup *g, int64_t mid)
{
	const char *kept;
	uint64_t shares;
	int ret;

	if (!g->path || !strcmp(g->path, "/") || mid <= 0 ||
	    !cgroup_shares(g->version, g->shares, g->weight, g->idle, &shares))
		return 0;
	ret = shares_changed(f, g->path, (int64_t)shares, &kept);
	return ret <= 0 ? ret : shares_reading(f, kept, shares, mid);
}

/*
 * A snapshot's task row: its autogroup's nice (autogroup_nice, which
 * proc_sched_autogroup_set_nice() turns into the group's shares:
 * sched_group_set_shares() at a write of /proc/PID/autogroup, an instant
 * no event shows).  One that differs from the group's in an earlier
 * snapshot is a change made between the two: a reading at @mid, the
 * snapshot's "truth-mid" marker, with no clock (cpu -1).
 */
static int snap_nice(struct cfsr_clock_feed *f, const struct cfsr_truth_task *k, int64_t mid)
{
	const char *kept;
	int ret;

	if (!k->autogroup || k->autogroup_nice < -20 || k->autogroup_nice > 19 || mid <= 0)
		return 0;
	ret = shares_changed(f, k->autogroup, k->autogroup_nice, &kept);
	if (ret <= 0)
		return ret;
	return shares_reading(f, kept, cfsr_group_autogroup_shares((int)k->autogroup_nice), mid);
}

/*
 * A truth.jsonl's readings: each cpu row's rq->clock_task at the instant
 * of its update_rq_clock(), which is rq->clock, local_clock() then
 * (sched_clock_cpu(); sched_debug's print_cpu(), kernel/sched/debug.c,
 * v5.7-v6.18).  The rows are read after "truth-mid", but the rq clock is
 * that of the rq's last update, which can be tens of ms older on an idle
 * CPU: the reading holds at its own instant, not at the markers'.  On a
 * trace on sched_clock() ("local"), rq->clock is moved back by the
 * boot-time constant local_clock() - sched_clock(): each header's cpu_clk
 * - sched_clk (sched_debug_header() reads sched_clock() first) is that
 * constant plus the time between the two reads, so the smallest over the
 * snapshots is taken.  Then @f's map, as for the markers' times.  The file
 * is read whole and the readings sorted: the rows of one snapshot are not
 * in time order, nor always after the previous snapshot's.
 */
static int snap_readings(struct cfsr_clock_feed *f)
{
	struct cfsr_truth_item it;
	const char *markers = NULL;
	int64_t k = INT64_MAX, ts, mid = -1;
	size_t i;
	int ret;

	f->snaps_read = true;
	while ((ret = cfsr_truth_next(f->r, &it)) > 0) {
		if (it.kind == CFSR_TRUTH_SNAP) {
			if (!markers)
				markers = snap_clock(&it.snap);
			mid = it.snap.trace_ts_mid;
			if (it.snap.sched_clk >= 0 && it.snap.cpu_clk >= 0 &&
			    it.snap.cpu_clk - it.snap.sched_clk < k)
				k = it.snap.cpu_clk - it.snap.sched_clk;
			continue;
		}
		if (it.kind == CFSR_TRUTH_TASK && snap_nice(f, &it.task, mid) < 0)
			return -1;
		if (it.kind == CFSR_TRUTH_CGROUP && snap_cgroup(f, &it.cgroup, mid) < 0)
			return -1;
		if (it.kind != CFSR_TRUTH_CPU || it.cpu.cpu < 0 || it.cpu.cpu > INT32_MAX ||
		    it.cpu.clock < 0 || it.cpu.clock_task < 0)
			continue;
		if (CFSR_ALLOC_GROW(f->snaps, f->nr_snaps + 1, f->snaps_alloc) < 0)
			return cfsr_error("out of memory for clock readings");
		memset(&f->snaps[f->nr_snaps], 0, sizeof(f->snaps[0]));
		f->snaps[f->nr_snaps].cpu = (int)it.cpu.cpu;
		/* rq->clock for now: the time base is known at the end */
		f->snaps[f->nr_snaps].ts = (uint64_t)it.cpu.clock;
		f->snaps[f->nr_snaps].clock = (uint64_t)it.cpu.clock_task;
		f->snaps[f->nr_snaps].clock_task = (uint64_t)it.cpu.clock_task;
		f->snaps[f->nr_snaps].clock_pelt = -1;
		f->snaps[f->nr_snaps].at_update = true;
		/* the markers' time for now, as ts */
		f->snaps[f->nr_snaps].until = mid > 0 ? (uint64_t)mid : 0;
		f->nr_snaps++;
	}
	if (ret < 0)
		return -1;
	/* the trace's clock: the markers', or the one the map moves them onto */
	if (f->map.how == CFSR_CLOCK_SHIFTED)
		markers = f->map.to;
	f->k = k;
	f->to_local = markers && !strcmp(markers, "local") && k != INT64_MAX;
	for (i = 0; i < f->nr_snaps; i++) {
		struct cfsr_clock_reading *rd = &f->snaps[i];

		if (rd->cpu < 0) {
			/* a shares change: at its snapshot's markers, as @until */
			if (f->map.how == CFSR_CLOCK_SHIFTED)
				rd->ts = (uint64_t)((int64_t)rd->ts + f->map.shift);
			continue;
		}
		ts = (int64_t)rd->ts;
		if (f->to_local)
			ts -= k;
		rd->ts = ts < 0 ? 0 : (uint64_t)ts;
		/*
		 * The cpu rows are read after "truth-mid": the rq clock was not
		 * updated between the reading and that marker.
		 */
		if (rd->until && f->map.how == CFSR_CLOCK_SHIFTED)
			rd->until = (uint64_t)((int64_t)rd->until + f->map.shift);
		if (rd->until < rd->ts)
			rd->until = 0;
	}
	qsort(f->snaps, f->nr_snaps, sizeof(f->snaps[0]), reading_cmp);
	return 0;
}

int cfsr_clock_feed_next(struct cfsr_clock_feed *f, struct cfsr_clock_reading *out)
{
	struct cfsr_truth_item it;
	int64_t ts;
	int ret;

	if (f->format == CFSR_TRUTH_FMT_SNAPSHOTS) {
		if (!f->snaps_read && snap_readings(f) < 0)
			return -1;
		if (f->next_snap >= f->nr_snaps)
			return 0;
		*out = f->snaps[f->next_snap++];
		return 1;
	}
	while ((ret = cfsr_truth_next(f->r, &it)) > 0) {
		if (it.kind == CFSR_TRUTH_PELT) {
			const struct cfsr_pelt_rec *p = &it.pelt;

			if (p->ts < 0 || p->rq_cpu < 0 || p->clock_pelt < 0 ||
			    p->lost_idle_time < 0 || p->clock_pelt < p->lost_idle_time)
				continue;
			ts = cfsr_clock_map_pelt_ts(&f->map, p->ts, p->ktime);
			if (ts < 0)
				continue;
			out->cpu = (int)p->rq_cpu;
			out->ts = (uint64_t)ts;
			out->clock = (uint64_t)(p->clock_pelt - p->lost_idle_time);
			out->clock_task = p->clock_task >= 0 ? (uint64_t)p->clock_task : out->clock;
			/* without clock_task the reading cannot restart a scaled clock */
			out->clock_pelt = p->clock_task >= 0 ? p->clock_pelt : -1;
			out->lost_idle_time = p->clock_task >= 0 ? (uint64_t)p->lost_idle_time : 0;
			out->in_path = true;
			out->at_update = false;
			out->tid = p->type == CFSR_PELT_SE && p->tid > 0 && p->tid <= INT32_MAX ?
					   (int)p->tid :
					   0;
			out->group = out->tid ? p->parent_tg : NULL;
			out->shares_group = NULL;
			out->shares = 0;
			if (p->type == CFSR_PELT_CFS && p->tg && strcmp(p->tg, "/") &&
			    p->tg_shares > 0) {
				const char *kept;
				int ch = shares_changed(f, p->tg, p->tg_shares, &kept);

				if (ch < 0)
					return -1;
				if (ch) {
					out->shares_group = kept;
					out->shares = (uint64_t)p->tg_shares;
				}
			}
			return 1;
		}
	}
	return ret;
}

int64_t cfsr_clock_feed_rq_ts(struct cfsr_clock_feed *f, int64_t rq_clock)
{
	if (f->format != CFSR_TRUTH_FMT_SNAPSHOTS || rq_clock < 0)
		return -1;
	if (!f->snaps_read && snap_readings(f) < 0)
		return -1;
	return f->to_local ? rq_clock - f->k : rq_clock;
}

void cfsr_clock_feed_align(struct cfsr_clock_feed *f, const struct cfsr_clock_map *m)
{
	f->map = *m;
}

void cfsr_clock_feed_close(struct cfsr_clock_feed *f)
{
	if (!f)
		return;
	cfsr_truth_close(f->r);
	free(f->snaps);
	while (f->nr_shares)
		free(f->shares[--f->nr_shares].path);
	free(f->shares);
	free(f);
}

/*
 * The task group of a task in a record or a snapshot row: which cfs_rq a
 * task is queued on is a fact of the kernel's structure (autogroups are
 * made by setsid(), which no trace event shows), not a PELT value.  A task
 * in a non-root cpu cgroup is scheduled there, else in its autogroup.
 */
static const char *item_group(const struct cfsr_truth_item *it, int *tid)
{
	const struct cfsr_truth_task *k = &it->task;

	if (it->kind == CFSR_TRUTH_PELT && it->pelt.type == CFSR_PELT_SE) {
		*tid = it->pelt.tid > 0 && it->pelt.tid <= INT32_MAX ? (int)it->pelt.tid : -1;
		return it->pelt.parent_tg;
	}
	if (it->kind != CFSR_TRUTH_TASK || k->tid <= 0 || k->tid > INT32_MAX)
		return NULL;
	*tid = (int)k->tid;
	if (k->cgroup_cpu && strcmp(k->cgroup_cpu, "/"))
		return k->cgroup_cpu;
	return k->autogroup ? k->autogroup : "/";
}

/* @sfn with the tg->shares of @k's group, the first time a record names that group. */
static int record_shares(const struct cfsr_pelt_rec *k, char ***seen, size_t *nr, size_t *alloc,
			 int (*sfn)(void *data, const char *group, uint64_t shares), void *data)
{
	size_t i;

	if (k->type != CFSR_PELT_CFS || !k->tg || !strcmp(k->tg, "/") || k->tg_shares <= 0)
		return 0;
	for (i = 0; i < *nr && strcmp((*seen)[i], k->tg); i++)
		;
	if (i < *nr)
		return 0;
	if (CFSR_ALLOC_GROW(*seen, *nr + 1, *alloc) < 0 || !((*seen)[*nr] = strdup(k->tg)))
		return cfsr_error("out of memory for group shares");
	(*nr)++;
	return sfn(data, k->tg, (uint64_t)k->tg_shares);
}

int cfsr_task_groups(const char *path, int (*fn)(void *data, int tid, const char *group),
		     int (*sfn)(void *data, const char *group, uint64_t shares), void *data)
{
	struct cfsr_pidset seen = CFSR_PIDSET_INIT;
	struct cfsr_truth_reader *pr = cfsr_truth_open(path);
	struct cfsr_truth_item item;
	char **named = NULL;
	size_t nr = 0, alloc = 0;
	const char *group;
	int ret = -1, have, tid = -1;

	if (!pr)
		return -1;
	while ((have = cfsr_truth_next(pr, &item)) > 0) {
		if (sfn && item.kind == CFSR_TRUTH_PELT &&
		    record_shares(&item.pelt, &named, &nr, &alloc, sfn, data) < 0)
			goto out;
		group = item_group(&item, &tid);
		if (!group || tid <= 0 || cfsr_pidset_has(&seen, tid))
			continue;
		if (cfsr_pidset_add(&seen, tid) < 0 || fn(data, tid, group) < 0)
			goto out;
	}
	if (have == 0)
		ret = 0;
out:
	while (nr)
		free(named[--nr]);
	free(named);
	cfsr_pidset_release(&seen);
	cfsr_truth_close(pr);
	return ret;
}

/* A cgroup path (not the root, not an autogroup) a record or a row names, or NULL. */
static const char *named_cgroup(const struct cfsr_truth_item *it)
{
	const char *p = NULL;

	if (it->kind == CFSR_TRUTH_TASK)
		p = it->task.cgroup_cpu;
	else if (it->kind == CFSR_TRUTH_PELT && it->pelt.type == CFSR_PELT_SE)
		p = it->pelt.parent_tg;
	else if (it->kind == CFSR_TRUTH_PELT && it->pelt.type == CFSR_PELT_CFS)
		p = it->pelt.tg;
	if (!p || !strcmp(p, "/") || !strncmp(p, "/autogroup-", strlen("/autogroup-")))
		return NULL;
	return p;
}

int cfsr_task_fork_groups(const char *path, int (*fn)(void *data, int tid, const char *group),
			  int (*nfn)(void *data, const char *group), void *data)
{
	struct cfsr_pidset seen = CFSR_PIDSET_INIT;
	struct cfsr_truth_reader *pr = cfsr_truth_open(path);
	struct cfsr_truth_item item;
	const struct cfsr_truth_task *k = &item.task;
	int ret = -1, have;

	if (!pr)
		return -1;
	while ((have = cfsr_truth_next(pr, &item)) > 0) {
		if (named_cgroup(&item) && nfn(data, named_cgroup(&item)) < 0)
			goto out;
		if (item.kind != CFSR_TRUTH_TASK || k->tid <= 0 || k->tid > INT32_MAX ||
		    cfsr_pidset_has(&seen, (int)k->tid))
			continue;
		if (cfsr_pidset_add(&seen, (int)k->tid) < 0)
			goto out;
		/* a session's leader may have made its autogroup itself (setsid()) */
		if (k->session > 0 && k->session != k->tid && k->autogroup &&
		    fn(data, (int)k->tid, k->autogroup) < 0)
			goto out;
	}
	if (have == 0)
		ret = 0;
out:
	cfsr_pidset_release(&seen);
	cfsr_truth_close(pr);
	return ret;
}

int cfsr_meta_cpu_hierarchy(const struct cfsr_trace *t)
{
	json_object *meta, *id;
	int ret = -1;

	if (!t->info.record_meta)
		return -1;
	meta = json_tokener_parse(t->info.record_meta);
	if (meta && json_object_object_get_ex(meta, "cgroup_cpu_hierarchy_id", &id) &&
	    json_object_is_type(id, json_type_int) && json_object_get_int(id) >= 0)
		ret = json_object_get_int(id);
	json_object_put(meta);
	return ret;
}

const char *cfsr_clock_source(const struct cfsr_trace *t, const char *given)
{
	if (given)
		return strcmp(given, "none") ? given : NULL;
	return t->info.has_record_truth ? t->path : NULL;
}

/*
 * The tg->shares a cpu cgroup's files give: cpu.idle 1 (v5.15+) overrides
 * cpu.shares and cpu.weight (sched_group_set_idle() set the shares to
 * scale_load(WEIGHT_IDLEPRIO), which those files then read back rounded:
 * cpu.weight 0, or 1 from v6.12, on v2); else cpu.weight (v2) or
 * cpu.shares (v1).  @shares, @weight, @idle: the files' values, negative
 * when absent.  1 when they give the shares (*@out), 0 when not.
 */
static int cgroup_shares(int64_t version, int64_t shares, int64_t weight, int64_t idle,
			 uint64_t *out)
{
	if (idle == 1) {
		*out = cfsr_group_idle_shares();
		return 1;
	}
	if (version == 2)
		return weight > 0 && cfsr_group_shares_from_v2((uint64_t)weight, out) == 0;
	if (shares <= 0)
		return 0;
	*out = cfsr_group_shares_from_v1((uint64_t)shares);
	return 1;
}

/* The tg->shares the metadata gives group @g of a cgroup @version hierarchy (cgroup_shares()). */
static int meta_cgroup_shares(json_object *g, int version, uint64_t *shares)
{
	json_object *v;
	int64_t s = -1, w = -1, idle = -1;

	if (json_object_object_get_ex(g, "cpu.idle", &v))
		idle = json_object_get_int64(v);
	if (json_object_object_get_ex(g, "cpu.weight", &v))
		w = json_object_get_int64(v);
	if (json_object_object_get_ex(g, "cpu.shares", &v))
		s = json_object_get_int64(v);
	return cgroup_shares(version, s, w, idle, shares);
}

/*
 * @each with every task row of the first snapshot of the truth @path;
 * stops at its first negative return.  Return: 0, or -1.
 */
static int first_snapshot_tasks(const char *path,
				int (*each)(const struct cfsr_truth_task *k, void *arg), void *arg)
{
	struct cfsr_truth_reader *pr = cfsr_truth_open(path);
	struct cfsr_truth_item item;
	const struct cfsr_truth_task *k = &item.task;
	int64_t seq = CFSR_TRUTH_NONE;
	int ret = -1, have;

	if (!pr)
		return -1;
	while ((have = cfsr_truth_next(pr, &item)) > 0) {
		if (item.kind != CFSR_TRUTH_TASK)
			continue;
		if (seq == CFSR_TRUTH_NONE)
			seq = k->seq;
		if (k->seq != seq)
			break;
		if (each(k, arg) < 0)
			goto out;
	}
	if (have >= 0)
		ret = 0;
out:
	cfsr_truth_close(pr);
	return ret;
}

struct nice_seen {
	int (*fn)(void *data, const char *path, uint64_t shares);
	void *data;
	char **seen;
	size_t nr, alloc;
};

static int autogroup_nice_row(const struct cfsr_truth_task *k, void *arg)
{
	struct nice_seen *ns = arg;
	size_t i;

	/* nice 0 or none (NONE is below -20), or out of the table */
	if (!k->autogroup || k->autogroup_nice == 0 || k->autogroup_nice < -20 ||
	    k->autogroup_nice > 19)
		return 0;
	for (i = 0; i < ns->nr && strcmp(ns->seen[i], k->autogroup); i++)
		;
	if (i < ns->nr)
		return 0;
	if (CFSR_ALLOC_GROW(ns->seen, ns->nr + 1, ns->alloc) < 0 ||
	    !(ns->seen[ns->nr] = strdup(k->autogroup)))
		return cfsr_error("out of memory for autogroup shares");
	ns->nr++;
	return ns->fn(ns->data, k->autogroup, cfsr_group_autogroup_shares((int)k->autogroup_nice));
}

/*
 * @fn with the shares of each autogroup of non-zero nice among the task
 * rows of the first snapshot of the truth @path holds: nice 0 gives
 * NICE_0_LOAD, the shares of an autogroup not stated.
 */
static int autogroup_nice_shares(const char *path,
				 int (*fn)(void *data, const char *path, uint64_t shares),
				 void *data)
{
	struct nice_seen ns = { .fn = fn, .data = data };
	int ret = first_snapshot_tasks(path, autogroup_nice_row, &ns);

	while (ns.nr)
		free(ns.seen[--ns.nr]);
	free(ns.seen);
	return ret;
}

/*
 * @each with every group (not the root) of the metadata's cgroup
 * hierarchies, its JSON object, path and hierarchy version; stops at the
 * first non-zero return, which it returns.
 */
static int meta_groups(const struct cfsr_trace *t,
		       int (*each)(json_object *g, const char *path, int version, void *arg),
		       void *arg)
{
	json_object *meta, *hs, *h, *gs, *g, *path, *ver;
	size_t i, j;
	int ret = 0;

	if (!t->info.record_meta)
		return 0;
	meta = json_tokener_parse(t->info.record_meta);
	if (!meta || !json_object_object_get_ex(meta, "cgroup_hierarchies", &hs) ||
	    !json_object_is_type(hs, json_type_array)) {
		json_object_put(meta);
		return 0;
	}
	for (i = 0; ret == 0 && i < json_object_array_length(hs); i++) {
		h = json_object_array_get_idx(hs, i);
		if (!json_object_object_get_ex(h, "groups", &gs) ||
		    !json_object_is_type(gs, json_type_array) ||
		    !json_object_object_get_ex(h, "version", &ver))
			continue;
		for (j = 0; ret == 0 && j < json_object_array_length(gs); j++) {
			g = json_object_array_get_idx(gs, j);
			if (json_object_object_get_ex(g, "path", &path) &&
			    json_object_is_type(path, json_type_string) &&
			    strcmp(json_object_get_string(path), "/"))
				ret = each(g, json_object_get_string(path),
					   json_object_get_int(ver), arg);
		}
	}
	json_object_put(meta);
	return ret;
}

struct meta_cb {
	int (*shares_fn)(void *data, const char *path, uint64_t shares);
	int (*idle_fn)(void *data, const char *path);
	void *data;
};

static int group_shares_of(json_object *g, const char *path, int version, void *arg)
{
	const struct meta_cb *cb = arg;
	uint64_t shares;

	if (!meta_cgroup_shares(g, version, &shares))
		return 0;
	return cb->shares_fn(cb->data, path, shares);
}

int cfsr_meta_group_shares(const struct cfsr_trace *t,
			   int (*fn)(void *data, const char *path, uint64_t shares), void *data)
{
	struct meta_cb cb = { .shares_fn = fn, .data = data };

	if (t->info.has_record_truth && autogroup_nice_shares(t->path, fn, data) < 0)
		return -1;
	return meta_groups(t, group_shares_of, &cb);
}

static int group_idle_of(json_object *g, const char *path, int version, void *arg)
{
	const struct meta_cb *cb = arg;
	json_object *v;

	(void)version;
	if (!json_object_object_get_ex(g, "cpu.idle", &v) || json_object_get_int64(v) != 1)
		return 0;
	return cb->idle_fn(cb->data, path);
}

struct idle_rows {
	int (*tfn)(void *data, int tid, bool idle);
	void *data;
};

/* A SCHED_IDLE thread (policy 5) of the first snapshot. */
static int idle_policy_row(const struct cfsr_truth_task *k, void *arg)
{
	const struct idle_rows *ir = arg;

	if (k->policy != CFSR_SCHED_IDLE || k->tid <= 0 || k->tid > INT32_MAX)
		return 0;
	return ir->tfn(ir->data, (int)k->tid, true);
}

int cfsr_meta_idle(const struct cfsr_trace *t, int (*gfn)(void *data, const char *path),
		   int (*tfn)(void *data, int tid, bool idle), void *data)
{
	struct meta_cb cb = { .idle_fn = gfn, .data = data };
	struct idle_rows ir = { .tfn = tfn, .data = data };

	if (t->info.has_record_truth && first_snapshot_tasks(t->path, idle_policy_row, &ir) < 0)
		return -1;
	return meta_groups(t, group_idle_of, &cb);
}

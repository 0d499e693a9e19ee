// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clock readings from a kernel-truth file.  See clockfeed.h.
 *
 * A truth.jsonl snapshot's cpu rows are read between its "truth-mid" and
 * "truth-end" markers; the reading's time is taken as the middle of the two.
 */
#include <stdlib.h>
#include <string.h>

#include "clockfeed.h"
#include "error.h"
#include "formats.h"
#include "pidset.h"
#include "truthfile.h"

struct cfsr_clock_feed {
	struct cfsr_truth_reader *r;
	enum cfsr_truth_format format;
	/* current snapshot's reading time (truth.jsonl) */
	int64_t snap_ts;
};

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
	f->snap_ts = -1;
	return f;
}

int cfsr_clock_feed_next(struct cfsr_clock_feed *f, struct cfsr_clock_reading *out)
{
	struct cfsr_truth_item it;
	int ret;

	while ((ret = cfsr_truth_next(f->r, &it)) > 0) {
		if (it.kind == CFSR_TRUTH_PELT) {
			const struct cfsr_pelt_rec *p = &it.pelt;

			if (p->ts < 0 || p->rq_cpu < 0 || p->clock_pelt < 0 ||
			    p->lost_idle_time < 0 || p->clock_pelt < p->lost_idle_time)
				continue;
			out->cpu = (int)p->rq_cpu;
			out->ts = (uint64_t)p->ts;
			out->clock = (uint64_t)(p->clock_pelt - p->lost_idle_time);
			return 1;
		}
		if (it.kind == CFSR_TRUTH_SNAP) {
			f->snap_ts =
				it.snap.trace_ts_mid >= 0 && it.snap.trace_ts_end >= 0 ?
					it.snap.trace_ts_mid +
						(it.snap.trace_ts_end - it.snap.trace_ts_mid) / 2 :
					-1;
			continue;
		}
		if (it.kind == CFSR_TRUTH_CPU && f->snap_ts >= 0 && it.cpu.cpu >= 0 &&
		    it.cpu.clock_task >= 0) {
			out->cpu = (int)it.cpu.cpu;
			out->ts = (uint64_t)f->snap_ts;
			out->clock = (uint64_t)it.cpu.clock_task;
			return 1;
		}
	}
	return ret;
}

void cfsr_clock_feed_close(struct cfsr_clock_feed *f)
{
	if (!f)
		return;
	cfsr_truth_close(f->r);
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

int cfsr_task_groups(const char *path, int (*fn)(void *data, int tid, const char *group),
		     void *data)
{
	struct cfsr_pidset seen = CFSR_PIDSET_INIT;
	struct cfsr_truth_reader *pr = cfsr_truth_open(path);
	struct cfsr_truth_item item;
	const char *group;
	int ret = -1, have, tid = -1;

	if (!pr)
		return -1;
	while ((have = cfsr_truth_next(pr, &item)) > 0) {
		group = item_group(&item, &tid);
		if (!group || tid <= 0 || cfsr_pidset_has(&seen, tid))
			continue;
		if (cfsr_pidset_add(&seen, tid) < 0 || fn(data, tid, group) < 0)
			goto out;
	}
	if (have == 0)
		ret = 0;
out:
	cfsr_pidset_release(&seen);
	cfsr_truth_close(pr);
	return ret;
}

const char *cfsr_clock_source(const struct cfsr_trace *t, const char *given)
{
	if (given)
		return strcmp(given, "none") ? given : NULL;
	return t->info.has_record_truth ? t->path : NULL;
}

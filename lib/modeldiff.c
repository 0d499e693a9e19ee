// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two models of one trace, side by side (see modeldiff.h).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "modeldiff.h"
#include "pidmap.h"

struct cfsr_modeldiff {
	int nr_cpus;
	struct cfsr_md_row *cpus;
	struct cfsr_md_row *tasks;
	size_t nr_tasks;
	size_t tasks_alloc;
	struct cfsr_pidmap map;
	/* the task rows in report order, rebuilt by cfsr_modeldiff_tasks() */
	struct cfsr_md_row *sorted;
	size_t sorted_alloc;
	uint64_t samples;
	uint64_t warming;
};

static const char *const signal_names[CFSR_MD_NR] = { "load_avg", "runnable_avg", "util_avg",
						      "util_est" };

const char *cfsr_md_signal_name(enum cfsr_md_signal s)
{
	return s >= 0 && s < CFSR_MD_NR ? signal_names[s] : "?";
}

struct cfsr_modeldiff *cfsr_modeldiff_new(int nr_cpus)
{
	struct cfsr_modeldiff *d;
	int i;

	if (nr_cpus <= 0 || nr_cpus > 65536) {
		cfsr_error("modeldiff: bad CPU count %d", nr_cpus);
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->cpus = calloc((size_t)nr_cpus, sizeof(*d->cpus)))) {
		free(d);
		cfsr_error("modeldiff: out of memory");
		return NULL;
	}
	d->nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++) {
		d->cpus[i].pid = -1;
		d->cpus[i].cpu = i;
	}
	return d;
}

void cfsr_modeldiff_free(struct cfsr_modeldiff *d)
{
	if (!d)
		return;
	cfsr_pidmap_release(&d->map);
	free(d->cpus);
	free(d->tasks);
	free(d->sorted);
	free(d);
}

/*
 * fits_capacity() (kernel/sched/fair.c, v5.7-v6.18): cap * 1280 < max *
 * 1024, a 20 % margin; here against a CPU of full capacity
 * (SCHED_CAPACITY_SCALE): true when @util does not fit it.
 */
static bool unfit(uint64_t util)
{
	return util * 1280 >= (uint64_t)1024 * 1024;
}

static void stat_add(struct cfsr_md_stat *s, uint64_t a, uint64_t b, uint64_t ts)
{
	uint64_t diff = a > b ? a - b : b - a;

	s->sum_a += (double)a;
	s->sum_b += (double)b;
	s->sum_abs += (double)diff;
	if (diff > s->max_abs) {
		s->max_abs = diff;
		s->max_a = a;
		s->max_b = b;
		s->max_ts = ts;
	}
}

static void row_add(struct cfsr_md_row *row, const struct cfsr_sched_avg *a,
		    const struct cfsr_sched_avg *b, uint64_t ts)
{
	row->samples++;
	stat_add(&row->stat[CFSR_MD_LOAD], a->load_avg, b->load_avg, ts);
	stat_add(&row->stat[CFSR_MD_RUNNABLE], a->runnable_avg, b->runnable_avg, ts);
	stat_add(&row->stat[CFSR_MD_UTIL], a->util_avg, b->util_avg, ts);
	/* a task's _task_util_est(), in either util_est layout; a root's sum */
	stat_add(&row->stat[CFSR_MD_UTIL_EST], cfsr_pelt_util_est_of(a), cfsr_pelt_util_est_of(b),
		 ts);
	row->unfit_a += unfit(a->util_avg);
	row->unfit_b += unfit(b->util_avg);
}

static struct cfsr_md_row *task_row(struct cfsr_modeldiff *d, int pid)
{
	long i = cfsr_pidmap_get(&d->map, pid);
	struct cfsr_md_row *row;

	if (i >= 0)
		return &d->tasks[i];
	if (CFSR_ALLOC_GROW(d->tasks, d->nr_tasks + 1, d->tasks_alloc) < 0 ||
	    cfsr_pidmap_put(&d->map, pid, d->nr_tasks) < 0) {
		cfsr_error("modeldiff: out of memory");
		return NULL;
	}
	row = &d->tasks[d->nr_tasks++];
	memset(row, 0, sizeof(*row));
	row->pid = pid;
	return row;
}

int cfsr_modeldiff_sample(struct cfsr_modeldiff *d, struct cfsr_replay *a, struct cfsr_replay *b,
			  uint64_t ts)
{
	struct cfsr_sched_avg sa, sb;
	const struct cfsr_task *ta;
	struct cfsr_task *tb;
	struct cfsr_md_row *row;
	uint64_t ca, cb;
	size_t i;
	int cpu;

	d->samples++;
	for (i = 0; i < cfsr_replay_nr_tasks(a); i++) {
		ta = cfsr_replay_task_at(a, i);
		tb = cfsr_replay_task(b, ta->pid);
		if (!tb || !cfsr_replay_task_avg_at(a, ta, ts, &sa) ||
		    !cfsr_replay_task_avg_at(b, tb, ts, &sb))
			continue;
		if (cfsr_task_warming(ta, sa.last_update_time) ||
		    cfsr_task_warming(tb, sb.last_update_time)) {
			d->warming++;
			continue;
		}
		row = task_row(d, ta->pid);
		if (!row)
			return -1;
		memcpy(row->comm, tb->comm, sizeof(row->comm));
		row_add(row, &sa, &sb, ts);
	}
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		const struct cfsr_cfs_rq *ra = cfsr_replay_cfs_rq(a, "/", cpu);
		const struct cfsr_cfs_rq *rb = cfsr_replay_cfs_rq(b, "/", cpu);

		if (!ra || !rb || !ra->avg.last_update_time || !rb->avg.last_update_time ||
		    !cfsr_replay_clock_peek(a, cpu, ts, &ca) ||
		    !cfsr_replay_clock_peek(b, cpu, ts, &cb))
			continue;
		cfsr_replay_cfs_rq_settle(a, ra, ca, &sa);
		cfsr_replay_cfs_rq_settle(b, rb, cb, &sb);
		if (cfsr_cfs_rq_warming(ra, sa.last_update_time) ||
		    cfsr_cfs_rq_warming(rb, sb.last_update_time))
			continue;
		/* the root's util_est is its queued tasks' sum, not aged */
		sa.util_est = ra->avg.util_est;
		sb.util_est = rb->avg.util_est;
		sa.util_est_ewma = 0;
		sb.util_est_ewma = 0;
		row_add(&d->cpus[cpu], &sa, &sb, ts);
	}
	return 0;
}

uint64_t cfsr_modeldiff_samples(const struct cfsr_modeldiff *d)
{
	return d->samples;
}

uint64_t cfsr_modeldiff_warming(const struct cfsr_modeldiff *d)
{
	return d->warming;
}

const struct cfsr_md_row *cfsr_modeldiff_cpu(const struct cfsr_modeldiff *d, int cpu)
{
	return cpu >= 0 && cpu < d->nr_cpus ? &d->cpus[cpu] : NULL;
}

/* mean |A - B| of load, runnable and util together */
static double weight_of(const struct cfsr_md_row *r)
{
	if (!r->samples)
		return 0;
	return (r->stat[CFSR_MD_LOAD].sum_abs + r->stat[CFSR_MD_RUNNABLE].sum_abs +
		r->stat[CFSR_MD_UTIL].sum_abs) /
	       (double)r->samples;
}

static int by_difference(const void *x, const void *y)
{
	const struct cfsr_md_row *a = x, *b = y;
	double wa = weight_of(a), wb = weight_of(b);

	if (wa != wb)
		return wa < wb ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

long cfsr_modeldiff_tasks(struct cfsr_modeldiff *d, const struct cfsr_md_row **rows)
{
	*rows = NULL;
	if (!d->nr_tasks)
		return 0;
	if (CFSR_ALLOC_GROW(d->sorted, d->nr_tasks, d->sorted_alloc) < 0)
		return cfsr_error("modeldiff: out of memory");
	memcpy(d->sorted, d->tasks, d->nr_tasks * sizeof(*d->sorted));
	qsort(d->sorted, d->nr_tasks, sizeof(*d->sorted), by_difference);
	*rows = d->sorted;
	return (long)d->nr_tasks;
}

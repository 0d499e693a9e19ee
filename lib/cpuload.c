// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interim per-CPU load from the replay engine's task table (see
 * cpuload.h).  Each task's counted contribution (CPU, load_avg) is kept;
 * after every event the contributions of the tasks the event names, and of
 * every task the engine updated, are refreshed, and the per-CPU sums
 * follow.  The sums are integrated over time for the averages.
 */
#include <stdlib.h>

#include "alloc.h"
#include "cpuload.h"
#include "error.h"
#include "pidmap.h"
#include "replay.h"

struct cl_task {
	int pid;
	/* CPU it is counted on, -1 none */
	int cpu;
	uint64_t load;
};

struct cfsr_cpuload {
	struct cfsr_replay *r;
	int nr_cpus;
	uint64_t *sum;
	/* integral of sum over the window, in load * ns (128 bits: no overflow) */
	unsigned __int128 *area;
	uint64_t win_start;
	uint64_t win_end;
	uint64_t now;
	uint64_t first;
	bool started;
	struct cl_task *tasks;
	size_t nr_tasks;
	size_t alloc_tasks;
	struct cfsr_pidmap map;
	int failed;
};

static struct cl_task *cl_task_get(struct cfsr_cpuload *cl, int pid)
{
	long i = cfsr_pidmap_get(&cl->map, pid);
	struct cl_task *t;

	if (i >= 0)
		return &cl->tasks[i];
	if (CFSR_ALLOC_GROW(cl->tasks, cl->nr_tasks + 1, cl->alloc_tasks) < 0) {
		cfsr_error("out of memory for %zu tasks", cl->nr_tasks + 1);
		return NULL;
	}
	if (cfsr_pidmap_put(&cl->map, pid, cl->nr_tasks) < 0)
		return NULL;
	t = &cl->tasks[cl->nr_tasks++];
	t->pid = pid;
	t->cpu = -1;
	t->load = 0;
	return t;
}

/* Bring the contribution of @pid in line with the engine's task. */
static void refresh(struct cfsr_cpuload *cl, int pid)
{
	const struct cfsr_task *et = cfsr_replay_task(cl->r, pid);
	struct cl_task *t;
	int cpu = -1;

	if (pid <= 0)
		return;
	if (et && et->fair && (et->state == CFSR_TS_QUEUED || et->state == CFSR_TS_RUNNING) &&
	    et->cpu >= 0 && et->cpu < cl->nr_cpus)
		cpu = et->cpu;
	t = cl_task_get(cl, pid);
	if (!t) {
		cl->failed = -1;
		return;
	}
	if (t->cpu >= 0)
		cl->sum[t->cpu] -= t->load;
	t->cpu = cpu;
	t->load = cpu >= 0 ? et->avg.load_avg : 0;
	if (cpu >= 0)
		cl->sum[cpu] += t->load;
}

static void on_update(void *data, const struct cfsr_replay_update *u)
{
	refresh(data, u->task->pid);
}

struct cfsr_cpuload *cfsr_cpuload_new(int nr_cpus, const struct cfsr_profile *prof,
				      uint64_t win_start, uint64_t win_end)
{
	struct cfsr_cpuload *cl = calloc(1, sizeof(*cl));

	if (!cl)
		goto oom;
	cl->nr_cpus = nr_cpus;
	cl->win_start = win_start;
	cl->win_end = win_end;
	cl->sum = calloc((size_t)nr_cpus, sizeof(*cl->sum));
	cl->area = calloc((size_t)nr_cpus, sizeof(*cl->area));
	if (!cl->sum || !cl->area)
		goto oom;
	cl->r = cfsr_replay_new(nr_cpus, prof->pelt);
	if (!cl->r) {
		cfsr_cpuload_free(cl);
		return NULL;
	}
	cfsr_replay_set_hook(cl->r, on_update, cl);
	return cl;
oom:
	cfsr_cpuload_free(cl);
	cfsr_error("out of memory for the per-CPU load");
	return NULL;
}

void cfsr_cpuload_free(struct cfsr_cpuload *cl)
{
	if (!cl)
		return;
	cfsr_replay_free(cl->r);
	free(cl->sum);
	free(cl->area);
	free(cl->tasks);
	cfsr_pidmap_release(&cl->map);
	free(cl);
}

int cfsr_cpuload_event(struct cfsr_cpuload *cl, const struct cfsr_event *ev)
{
	uint64_t from, to;
	int pids[4], n, i, c;

	if (!cl->started) {
		cl->started = true;
		cl->now = ev->ts;
		cl->first = ev->ts;
	}
	if (ev->ts > cl->now) {
		from = cl->now < cl->win_start ? cl->win_start : cl->now;
		to = ev->ts > cl->win_end ? cl->win_end : ev->ts;
		if (to > from)
			for (c = 0; c < cl->nr_cpus; c++)
				cl->area[c] += (unsigned __int128)cl->sum[c] * (to - from);
		cl->now = ev->ts;
	}
	if (cfsr_replay_event(cl->r, ev) < 0)
		return -1;
	n = cfsr_event_pids(ev, pids);
	for (i = 0; i < n; i++)
		refresh(cl, pids[i]);
	return cl->failed;
}

uint64_t cfsr_cpuload_now(const struct cfsr_cpuload *cl, int cpu)
{
	return cpu >= 0 && cpu < cl->nr_cpus ? cl->sum[cpu] : 0;
}

uint64_t cfsr_cpuload_task(const struct cfsr_cpuload *cl, int pid, int *cpu)
{
	long i = cfsr_pidmap_get(&cl->map, pid);

	*cpu = i < 0 ? -1 : cl->tasks[i].cpu;
	return i < 0 ? 0 : cl->tasks[i].load;
}

uint64_t cfsr_cpuload_mean(const struct cfsr_cpuload *cl, int cpu)
{
	uint64_t from = cl->first > cl->win_start ? cl->first : cl->win_start;
	uint64_t to = cl->now < cl->win_end ? cl->now : cl->win_end;

	if (cpu < 0 || cpu >= cl->nr_cpus || to <= from)
		return 0;
	return (uint64_t)(cl->area[cpu] / (to - from));
}

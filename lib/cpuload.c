// SPDX-License-Identifier: GPL-2.0-only
/*
 * Interim per-CPU load from the replay engine's task table (see
 * cpuload.h).  Each task's counted contribution (CPU, load_avg) is kept;
 * after every event, once the engine has finished with it, the
 * contributions are refreshed for the tasks the event names, every task the
 * engine updated, and every task counted on a CPU (the engine may change a
 * task's state without an event naming it, e.g. a queued task found to have
 * left its CPU); the per-CPU sums follow.  Runnable tasks are few, so this
 * costs little.  The sums are integrated over time for the averages.
 */
#include <stdlib.h>

#include "alloc.h"
#include "cpuload.h"
#include "error.h"
#include "pidmap.h"
#include "replay.h"

struct cl_list {
	int *pids;
	size_t nr;
	size_t alloc;
};

struct cl_task {
	int pid;
	/* CPU it is counted on, -1 none */
	int cpu;
	/* running there (else waiting) */
	bool running;
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
	/* per CPU, the pids counted on it */
	struct cl_list *counted;
	/* pids the engine updated during the current event */
	int *touched;
	size_t nr_touched;
	size_t alloc_touched;
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
	t->running = false;
	t->load = 0;
	return t;
}

static int list_move(struct cfsr_cpuload *cl, int pid, int from, int to)
{
	struct cl_list *l;
	size_t i;

	if (from >= 0) {
		l = &cl->counted[from];
		for (i = 0; i < l->nr; i++) {
			if (l->pids[i] == pid) {
				l->pids[i] = l->pids[--l->nr];
				break;
			}
		}
	}
	if (to < 0)
		return 0;
	l = &cl->counted[to];
	if (CFSR_ALLOC_GROW(l->pids, l->nr + 1, l->alloc) < 0)
		return cfsr_error("out of memory for the per-CPU load");
	l->pids[l->nr++] = pid;
	return 0;
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
	if (t->cpu != cpu && list_move(cl, pid, t->cpu, cpu) < 0) {
		cl->failed = -1;
		return;
	}
	if (t->cpu >= 0)
		cl->sum[t->cpu] -= t->load;
	t->cpu = cpu;
	t->running = cpu >= 0 && et->state == CFSR_TS_RUNNING;
	t->load = cpu >= 0 ? et->avg.load_avg : 0;
	if (cpu >= 0)
		cl->sum[cpu] += t->load;
}

static void on_update(void *data, const struct cfsr_replay_update *u)
{
	struct cfsr_cpuload *cl = data;

	/* the interim load sums task signals; cfs_rq updates come without a task */
	if (!u->task)
		return;
	if (CFSR_ALLOC_GROW(cl->touched, cl->nr_touched + 1, cl->alloc_touched) < 0) {
		cl->failed = cfsr_error("out of memory for the per-CPU load");
		return;
	}
	cl->touched[cl->nr_touched++] = u->task->pid;
}

struct cfsr_cpuload *cfsr_cpuload_new(int nr_cpus, const struct cfsr_profile *prof, int hz,
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
	cl->counted = calloc((size_t)nr_cpus, sizeof(*cl->counted));
	if (!cl->sum || !cl->area || !cl->counted)
		goto oom;
	cl->r = cfsr_replay_new(nr_cpus, prof, hz);
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
	int c;

	if (!cl)
		return;
	cfsr_replay_free(cl->r);
	free(cl->sum);
	free(cl->area);
	if (cl->counted)
		for (c = 0; c < cl->nr_cpus; c++)
			free(cl->counted[c].pids);
	free(cl->counted);
	free(cl->touched);
	free(cl->tasks);
	cfsr_pidmap_release(&cl->map);
	free(cl);
}

int cfsr_cpuload_event(struct cfsr_cpuload *cl, const struct cfsr_event *ev)
{
	uint64_t from, to;
	int pids[4], n, i, c;
	size_t k;

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
	cl->nr_touched = 0;
	if (cfsr_replay_event(cl->r, ev) < 0)
		return -1;
	/* backwards: a task that leaves a list takes the last one's place */
	for (c = 0; c < cl->nr_cpus; c++)
		for (k = cl->counted[c].nr; k-- > 0;)
			refresh(cl, cl->counted[c].pids[k]);
	for (k = 0; k < cl->nr_touched; k++)
		refresh(cl, cl->touched[k]);
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

int cfsr_cpuload_nr(const struct cfsr_cpuload *cl, int cpu)
{
	return cpu >= 0 && cpu < cl->nr_cpus ? (int)cl->counted[cpu].nr : 0;
}

size_t cfsr_cpuload_on(const struct cfsr_cpuload *cl, int cpu, const int **pids)
{
	if (cpu < 0 || cpu >= cl->nr_cpus) {
		*pids = NULL;
		return 0;
	}
	*pids = cl->counted[cpu].pids;
	return cl->counted[cpu].nr;
}

bool cfsr_cpuload_waiting(const struct cfsr_cpuload *cl, int pid)
{
	long i = cfsr_pidmap_get(&cl->map, pid);

	return i >= 0 && cl->tasks[i].cpu >= 0 && !cl->tasks[i].running;
}

const char *cfsr_cpuload_comm(const struct cfsr_cpuload *cl, int pid)
{
	const struct cfsr_task *t = pid > 0 ? cfsr_replay_task(cl->r, pid) : NULL;

	return t ? t->comm : "";
}

void cfsr_cpuload_clock(struct cfsr_cpuload *cl, int cpu, uint64_t ts, uint64_t clock_task)
{
	cfsr_replay_clock_sample(cl->r, cpu, ts, clock_task);
}

int cfsr_cpuload_set_group(struct cfsr_cpuload *cl, int pid, const char *group)
{
	return cfsr_replay_task_set_group(cl->r, pid, group) < 0 ? -1 : 0;
}

void cfsr_cpuload_expect_clock(struct cfsr_cpuload *cl)
{
	cfsr_replay_expect_clock(cl->r);
}

const struct cfsr_replay_stats *cfsr_cpuload_replay_stats(const struct cfsr_cpuload *cl)
{
	return cfsr_replay_stats(cl->r);
}

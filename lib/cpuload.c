// SPDX-License-Identifier: GPL-2.0-only
/*
 * The load balancer's per-CPU loads from the replay engine (see
 * cpuload.h).  After every event, once the engine has finished with it,
 * each CPU's root cfs_rq signal is read at the event's instant
 * (cfsr_replay_cfs_rq_settle(): cpu_load()), and the per-CPU lists of
 * queued tasks are brought in line with the engine for the tasks the event
 * names, every task the engine updated and every task listed on a CPU (the
 * engine may change a task's state without an event naming it, e.g. a
 * queued task found to have left its CPU).  A task's task_h_load() is
 * computed when asked, from the signals of its hierarchy at that instant.
 * The root loads are integrated over time for the averages.
 *
 * Task groups and their shares come from the trace, before the replay:
 * the snapshots of a trace made by 'cfsreplay record' (through
 * cfsr_cpuload_set_group()), or the markers a recorder writes when it
 * makes groups and moves tasks ("cfsr-mkdir path=P shares=N",
 * "cfsr-move pid=N path=P"; cpu.shares writes have no trace event).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cpuload.h"
#include "error.h"
#include "group.h"
#include "pidmap.h"
#include "replay.h"

#define MKDIR_MARKER "cfsr-mkdir "
#define MOVE_MARKER "cfsr-move "
#define TASK_MARKER "cfsr-task "

/* Deeper hierarchies are not walked (cgroup v1 nests at most this far in practice). */
#define CL_MAX_DEPTH 32

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
};

struct cfsr_cpuload {
	struct cfsr_replay *r;
	const struct cfsr_pelt_params *params;
	int nr_cpus;
	/* per CPU, cpu_load() after the last event */
	uint64_t *sum;
	/* per CPU, cpu_util_cfs() and cpu_runnable() now */
	uint64_t *util;
	uint64_t *runnable;
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
	/* groups whose shares a marker or the metadata stated, and the last value stated */
	char **shared;
	uint64_t *shared_value;
	size_t nr_shared;
	size_t alloc_shared;
	size_t alloc_shared_value;
	struct cfsr_cpuload_groups groups;
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
	t->cpu = cpu;
	t->running = cpu >= 0 && et->state == CFSR_TS_RUNNING;
}

/* The cfs_rq's signal at trace time @ts, as an update then would give it. */
static void cfs_avg_at(const struct cfsr_cpuload *cl, const struct cfsr_cfs_rq *cfs, uint64_t ts,
		       struct cfsr_sched_avg *a)
{
	uint64_t now;

	/* never updated: nothing to age (its first update starts it) */
	if (!cfs->avg.last_update_time || !cfsr_replay_clock_peek(cl->r, cfs->cpu, ts, &now))
		*a = cfs->avg;
	else
		cfsr_replay_cfs_rq_settle(cl->r, cfs, now, a);
}

/* The cfs_rq's load_avg at trace time @ts. */
static uint64_t cfs_load_at(const struct cfsr_cpuload *cl, const struct cfsr_cfs_rq *cfs,
			    uint64_t ts)
{
	struct cfsr_sched_avg a;

	cfs_avg_at(cl, cfs, ts, &a);
	return a.load_avg;
}

/*
 * A root cfs_rq's cpu_util_cfs() from its signal: util_avg, or its
 * util_est when UTIL_EST is on and it is larger, at most the CPU's
 * capacity (cpu_util() in kernel/sched/fair.c, v5.7-v6.18; the util_est
 * sum is util_est.enqueued before v6.8), SCHED_CAPACITY_SCALE here.
 * Differs: the v6.x runnable boosting of some callers is not taken.
 */
static uint64_t cpu_util_of(const struct cfsr_cpuload *cl, const struct cfsr_sched_avg *a)
{
	uint64_t util = a->util_avg;

	if (cfsr_replay_profile(cl->r)->util_est && a->util_est > util)
		util = a->util_est;
	return util < (uint64_t)SCHED_CAPACITY_SCALE ? util : (uint64_t)SCHED_CAPACITY_SCALE;
}

/* The group entity of a group cfs_rq: its load_avg at trace time @ts. */
static uint64_t se_load_at(const struct cfsr_cpuload *cl, const struct cfsr_cfs_rq *cfs,
			   uint64_t ts)
{
	struct cfsr_sched_avg a = cfs->se_avg;
	uint64_t now;

	if (!a.last_update_time || !cfsr_replay_clock_peek(cl->r, cfs->cpu, ts, &now) ||
	    now <= a.last_update_time)
		return a.load_avg;
	if (!cl->params)
		/* a v3.8-v5.6 model: its own arithmetic (lib/pelt-ops.h) */
		cfsr_replay_gse_settle(cl->r, cfs, now, &a);
	else
		cfsr_pelt_update_se(cl->params, now, &a, cfs->se_weight, cfs->se_on_rq,
				    cfs->se_runnable, cfs->curr != 0);
	return a.load_avg;
}

uint64_t cfsr_task_h_load(uint64_t root_load_avg, const struct cfsr_h_level *lv, size_t n,
			  uint64_t task_load_avg)
{
	uint64_t h_load = root_load_avg, cfs_load = root_load_avg;
	size_t k;

	for (k = 0; k < n; k++) {
		h_load = h_load * lv[k].se_load_avg / (cfs_load + 1);
		cfs_load = lv[k].cfs_load_avg;
	}
	return n ? task_load_avg * h_load / (cfs_load + 1) : task_load_avg;
}

/* task_h_load() of an engine task at trace time @ts. */
static uint64_t h_load_at(const struct cfsr_cpuload *cl, const struct cfsr_task *et, uint64_t ts)
{
	struct cfsr_h_level lv[CL_MAX_DEPTH];
	const struct cfsr_cfs_rq *cfs = cfsr_replay_task_cfs_rq(cl->r, et), *p;
	struct cfsr_sched_avg a;
	uint64_t load = et->avg.load_avg;
	size_t n = 0, k;

	if (cfsr_replay_task_avg_at(cl->r, et, ts, &a))
		load = a.load_avg;
	if (!cfs)
		return load;
	/* bottom-up, then reversed: the levels below the root, top-down */
	for (; (p = cfsr_replay_cfs_rq_parent(cl->r, cfs)); cfs = p) {
		if (n == CL_MAX_DEPTH)
			return load;
		lv[n].se_load_avg = se_load_at(cl, cfs, ts);
		lv[n].cfs_load_avg = cfs_load_at(cl, cfs, ts);
		n++;
	}
	for (k = 0; k < n / 2; k++) {
		struct cfsr_h_level x = lv[k];

		lv[k] = lv[n - 1 - k];
		lv[n - 1 - k] = x;
	}
	return cfsr_task_h_load(cfs_load_at(cl, cfs, ts), lv, n, load);
}

/* ---- groups from markers ------------------------------------------------------------------- */

/* The value of "KEY=" in @text, up to the next space, in @buf; false if absent or too long. */
static bool marker_field(const char *text, const char *key, char *buf, size_t size)
{
	const char *v = strstr(text, key);
	size_t len;

	if (!v)
		return false;
	v += strlen(key);
	len = strcspn(v, " \n");
	if (!len || len >= size)
		return false;
	memcpy(buf, v, len);
	buf[len] = '\0';
	return true;
}

/*
 * A marker's cgroup path as the kernel names the group: relative to the
 * cpu controller's hierarchy.  A recorder that writes the file-system path
 * (scripts/workload.py) gives it under the controller's mount:
 * /sys/fs/cgroup/<dir> whose name has "cpu" in it (v1: cpu, cpu,cpuacct),
 * else /sys/fs/cgroup itself (v2).  Return: false if @in is not a path.
 */
static bool group_path(const char *in, char *out, size_t size)
{
	static const char mnt[] = "/sys/fs/cgroup";
	const char *p = in, *dir;
	size_t len;

	if (in[0] != '/')
		return false;
	if (!strncmp(in, mnt, strlen(mnt)) && (!in[strlen(mnt)] || in[strlen(mnt)] == '/')) {
		p = in + strlen(mnt);
		dir = *p ? p + 1 : p;
		len = strcspn(dir, "/");
		if (len && memmem(dir, len, "cpu", 3))
			p = dir + len;
	}
	if (!*p)
		p = "/";
	if (strlen(p) >= size)
		return false;
	memcpy(out, p, strlen(p) + 1);
	return true;
}

/* "cfsr-mkdir path=P shares=N": the group's cpu.shares (no trace event has them). */
static int mkdir_marker(struct cfsr_cpuload *cl, const char *text)
{
	char raw[256], path[256], num[32], *end;
	unsigned long long v;

	if (!marker_field(text, "path=", raw, sizeof(raw)) ||
	    !group_path(raw, path, sizeof(path)) ||
	    !marker_field(text, "shares=", num, sizeof(num))) {
		cl->groups.bad_markers++;
		return 0;
	}
	v = strtoull(num, &end, 10);
	if (*end || !v) {
		cl->groups.bad_markers++;
		return 0;
	}
	/* cpu_shares_write_u64(): scale_load() of the value, clamped */
	if (cfsr_cpuload_set_shares(cl, path, cfsr_group_shares_from_v1(v)) < 0)
		return -1;
	/* the recorders write it just after the mkdir */
	return cfsr_replay_group_created(cl->r, path);
}

int cfsr_cpuload_set_shares(struct cfsr_cpuload *cl, const char *path, uint64_t shares)
{
	size_t i;

	for (i = 0; i < cl->nr_shared && strcmp(cl->shared[i], path); i++)
		;
	if (i == cl->nr_shared) {
		if (CFSR_ALLOC_GROW(cl->shared, cl->nr_shared + 1, cl->alloc_shared) < 0 ||
		    CFSR_ALLOC_GROW(cl->shared_value, cl->nr_shared + 1, cl->alloc_shared_value) <
			    0 ||
		    !(cl->shared[cl->nr_shared] = strdup(path)))
			return cfsr_error("out of memory for group shares");
		cl->nr_shared++;
		cl->groups.shares_given++;
	}
	cl->shared_value[i] = shares;
	return cfsr_replay_group_shares(cl->r, path, shares);
}

const char *cfsr_cpuload_stated_shares(const struct cfsr_cpuload *cl, size_t i, uint64_t *shares)
{
	if (i >= cl->nr_shared)
		return NULL;
	*shares = cl->shared_value[i];
	return cl->shared[i];
}

/*
 * "cfsr-move pid=N path=P" (or "to=P"), "cfsr-task pid=N ... cgroup=P": the
 * task is in group P from here, moved as sched_move_task() moves it.  The
 * recorders write the marker just after the move (cgroup_attach_task shows
 * it a fraction of a millisecond earlier).
 */
static int move_marker(struct cfsr_cpuload *cl, const char *text, const char *key, uint64_t ts)
{
	char raw[256], path[256], num[32], *end;
	long pid;
	int ret;

	if (!marker_field(text, key, raw, sizeof(raw)))
		return 0; /* a cfsr-task marker of a task left in its parent's group */
	if (!group_path(raw, path, sizeof(path)) || !marker_field(text, "pid=", num, sizeof(num))) {
		cl->groups.bad_markers++;
		return 0;
	}
	pid = strtol(num, &end, 10);
	if (*end || pid <= 0 || pid > 1 << 30) {
		cl->groups.bad_markers++;
		return 0;
	}
	ret = cfsr_replay_task_move_group(cl->r, (int)pid, path, ts);
	if (ret < 0)
		return -1;
	if (ret > 0)
		cl->groups.marker_moves++;
	return 0;
}

/* A group marker. */
static int group_marker(struct cfsr_cpuload *cl, const struct cfsr_event *ev)
{
	const char *text = ev->marker.text;

	if (ev->kind != CFSR_EV_MARKER || !text)
		return 0;
	if (!strncmp(text, MKDIR_MARKER, strlen(MKDIR_MARKER)))
		return mkdir_marker(cl, text + strlen(MKDIR_MARKER));
	if (!strncmp(text, MOVE_MARKER, strlen(MOVE_MARKER))) {
		text += strlen(MOVE_MARKER);
		return move_marker(cl, text, strstr(text, "to=") ? "to=" : "path=", ev->ts);
	}
	if (!strncmp(text, TASK_MARKER, strlen(TASK_MARKER)))
		return move_marker(cl, text + strlen(TASK_MARKER), "cgroup=", ev->ts);
	return 0;
}

static void on_update(void *data, const struct cfsr_replay_update *u)
{
	struct cfsr_cpuload *cl = data;

	/* the lists follow tasks; cfs_rq updates come without a task */
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
	cl->params = prof->pelt;
	cl->win_start = win_start;
	cl->win_end = win_end;
	cl->sum = calloc((size_t)nr_cpus, sizeof(*cl->sum));
	cl->util = calloc((size_t)nr_cpus, sizeof(*cl->util));
	cl->runnable = calloc((size_t)nr_cpus, sizeof(*cl->runnable));
	cl->area = calloc((size_t)nr_cpus, sizeof(*cl->area));
	cl->counted = calloc((size_t)nr_cpus, sizeof(*cl->counted));
	if (!cl->sum || !cl->util || !cl->runnable || !cl->area || !cl->counted)
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
	size_t k;
	int c;

	if (!cl)
		return;
	cfsr_replay_free(cl->r);
	free(cl->sum);
	free(cl->util);
	free(cl->runnable);
	free(cl->area);
	if (cl->counted)
		for (c = 0; c < cl->nr_cpus; c++)
			free(cl->counted[c].pids);
	free(cl->counted);
	free(cl->touched);
	free(cl->tasks);
	for (k = 0; k < cl->nr_shared; k++)
		free(cl->shared[k]);
	free(cl->shared);
	free(cl->shared_value);
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
	if (cfsr_replay_event(cl->r, ev) < 0 || group_marker(cl, ev) < 0)
		return -1;
	if (ev->kind == CFSR_EV_CGROUP_ATTACH)
		cl->groups.cgroup_attaches++;
	/* backwards: a task that leaves a list takes the last one's place */
	for (c = 0; c < cl->nr_cpus; c++)
		for (k = cl->counted[c].nr; k-- > 0;)
			refresh(cl, cl->counted[c].pids[k]);
	for (k = 0; k < cl->nr_touched; k++)
		refresh(cl, cl->touched[k]);
	n = cfsr_event_pids(ev, pids);
	for (i = 0; i < n; i++)
		refresh(cl, pids[i]);
	for (c = 0; c < cl->nr_cpus; c++) {
		struct cfsr_sched_avg a;

		cfs_avg_at(cl, cfsr_replay_cfs_rq(cl->r, "/", c), ev->ts, &a);
		cl->sum[c] = a.load_avg;
		cl->util[c] = cpu_util_of(cl, &a);
		/* cpu_runnable(), v5.7-v6.18: the root's runnable_avg */
		cl->runnable[c] = a.runnable_avg;
	}
	return cl->failed;
}

uint64_t cfsr_cpuload_now(const struct cfsr_cpuload *cl, int cpu)
{
	return cpu >= 0 && cpu < cl->nr_cpus ? cl->sum[cpu] : 0;
}

uint64_t cfsr_cpuload_util(const struct cfsr_cpuload *cl, int cpu)
{
	return cpu >= 0 && cpu < cl->nr_cpus ? cl->util[cpu] : 0;
}

uint64_t cfsr_cpuload_runnable(const struct cfsr_cpuload *cl, int cpu)
{
	return cpu >= 0 && cpu < cl->nr_cpus ? cl->runnable[cpu] : 0;
}

uint64_t cfsr_cpuload_task_util(const struct cfsr_cpuload *cl, int pid)
{
	const struct cfsr_task *et = pid > 0 ? cfsr_replay_task(cl->r, pid) : NULL;
	struct cfsr_sched_avg a;

	if (!et)
		return 0;
	if (!cfsr_replay_task_avg_at(cl->r, et, cl->now, &a))
		a = et->avg;
	if (!cl->params)
		return a.util_avg;
	return cfsr_pelt_task_util_est(cl->params, &a);
}

uint64_t cfsr_cpuload_task(const struct cfsr_cpuload *cl, int pid, int *cpu)
{
	long i = cfsr_pidmap_get(&cl->map, pid);
	const struct cfsr_task *et;

	*cpu = i < 0 ? -1 : cl->tasks[i].cpu;
	if (*cpu < 0)
		return 0;
	et = cfsr_replay_task(cl->r, pid);
	return et ? h_load_at(cl, et, cl->now) : 0;
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

struct cfsr_replay *cfsr_cpuload_engine(struct cfsr_cpuload *cl)
{
	return cl->r;
}

bool cfsr_cpuload_sched_idle(const struct cfsr_cpuload *cl, int cpu)
{
	return cfsr_replay_sched_idle_cpu(cl->r, cpu);
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
	if (cfsr_replay_task_set_group(cl->r, pid, group) < 0)
		return -1;
	if (strcmp(group, "/"))
		cl->groups.snapshot_tasks++;
	return 0;
}

void cfsr_cpuload_groups(const struct cfsr_cpuload *cl, struct cfsr_cpuload_groups *out)
{
	*out = cl->groups;
	out->attach_moves = cfsr_replay_stats(cl->r)->attach_moves;
	/* the engine holds a cfs_rq per group and CPU, the root group's first */
	out->groups = cfsr_replay_nr_cfs_rqs(cl->r) / (size_t)cl->nr_cpus - 1;
}

void cfsr_cpuload_expect_clock(struct cfsr_cpuload *cl)
{
	cfsr_replay_expect_clock(cl->r);
}

const struct cfsr_replay_stats *cfsr_cpuload_replay_stats(const struct cfsr_cpuload *cl)
{
	return cfsr_replay_stats(cl->r);
}

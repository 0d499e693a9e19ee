// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-task accounting from the event stream.  See taskstats.h; the rules
 * are those of docs/cfsreplay-compare.1.txt, section ACCOUNTING, and each
 * step below names the rule it implements.
 *
 * This is bookkeeping of what the trace shows, not a model of the kernel:
 * no kernel function is mirrored here.  The fair share is an ideal (a
 * weighted fluid share of the machine), computed in integers so that an
 * independent implementation can reproduce it to the nanosecond.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "taskstats.h"
#include "weight.h"

/* CPUs beyond this are taken as a corrupt event, not a machine */
#define TS_MAX_CPUS 4096
#define NO_SLOT (-1)

/* A member of the runnable set; @w is scratch space of fair_advance() */
struct cfsr_taskstats_rq {
	int task;
	uint64_t w;
};

struct cfsr_taskstats_task {
	int pid;
	/* index into names, -1 while the trace has not named the task */
	int name;
	/* effective priority from the last event that gave it, -1 unknown */
	int prio;
	/* CPU the task runs on, -1 when not running */
	int cpu;
	/* position in the runnable set, -1 when not runnable */
	int rq_pos;
	/* a wake-up was counted since the task last ran */
	bool woken;
	/* between sched_waking and sched_wakeup: migrations here are wake-up ones */
	bool in_ttwu;
	/* a latency episode is open since @wake_ts */
	bool wake_open;
	uint64_t wake_ts;
};

/* ---- latency histogram ---------------------------------------------- */

static unsigned int bucket_of(uint64_t v)
{
	unsigned int e, s;

	if (v < CFSR_LAT_SUB)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	s = e - CFSR_LAT_SUB_BITS;
	/* (v >> s) is in [CFSR_LAT_SUB, 2 * CFSR_LAT_SUB) */
	return CFSR_LAT_SUB + s * CFSR_LAT_SUB + (unsigned int)((v >> s) - CFSR_LAT_SUB);
}

static uint64_t bucket_upper(unsigned int b)
{
	unsigned int s;

	if (b < CFSR_LAT_SUB)
		return b;
	s = (b - CFSR_LAT_SUB) / CFSR_LAT_SUB;
	return (((uint64_t)CFSR_LAT_SUB + (b - CFSR_LAT_SUB) % CFSR_LAT_SUB) << s) +
	       (((uint64_t)1 << s) - 1);
}

uint64_t cfsr_lathist_upper(uint64_t v)
{
	return bucket_upper(bucket_of(v));
}

int cfsr_lathist_add(struct cfsr_lathist *h, uint64_t v)
{
	if (!h->buckets) {
		h->buckets = calloc(CFSR_LAT_BUCKETS, sizeof(*h->buckets));
		if (!h->buckets)
			return cfsr_error("out of memory for a latency histogram");
	}
	h->buckets[bucket_of(v)]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	return 0;
}

uint64_t cfsr_lathist_percentile(const struct cfsr_lathist *h, unsigned int pct)
{
	uint64_t rank, seen = 0, v;
	unsigned int b;

	if (!h->count || !h->buckets)
		return 0;
	if (pct > 100)
		pct = 100;
	/* nearest rank: ceil(pct * count / 100), at least 1 */
	rank = (pct * h->count + 99) / 100;
	if (!rank)
		rank = 1;
	for (b = 0; b < CFSR_LAT_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen >= rank)
			break;
	}
	v = bucket_upper(b < CFSR_LAT_BUCKETS ? b : CFSR_LAT_BUCKETS - 1);
	return v < h->max ? v : h->max;
}

void cfsr_lathist_release(struct cfsr_lathist *h)
{
	free(h->buckets);
	memset(h, 0, sizeof(*h));
}

/* ---- tasks and names ------------------------------------------------ */

static size_t slot_of(int pid, size_t nr_slots)
{
	/* Fibonacci hashing spreads consecutive pids */
	return (size_t)((uint32_t)pid * 2654435769u) & (nr_slots - 1);
}

static int rehash(struct cfsr_taskstats *s)
{
	size_t n = s->nr_slots ? s->nr_slots * 2 : 256, i;
	int *slots;

	if (n > SIZE_MAX / sizeof(*slots))
		return cfsr_error("out of memory for the task table");
	slots = malloc(n * sizeof(*slots));
	if (!slots)
		return cfsr_error("out of memory for the task table");
	for (i = 0; i < n; i++)
		slots[i] = NO_SLOT;
	for (i = 0; i < s->nr_tasks; i++) {
		size_t k = slot_of(s->tasks[i].pid, n);

		while (slots[k] != NO_SLOT)
			k = (k + 1) & (n - 1);
		slots[k] = (int)i;
	}
	free(s->slots);
	s->slots = slots;
	s->nr_slots = n;
	return 0;
}

/* The task of @pid (> 0), created on first sight.  Borrowed until the next call. */
static struct cfsr_taskstats_task *task_get(struct cfsr_taskstats *s, int pid)
{
	struct cfsr_taskstats_task *t;
	size_t k;

	if (s->nr_slots) {
		k = slot_of(pid, s->nr_slots);
		while (s->slots[k] != NO_SLOT) {
			if (s->tasks[s->slots[k]].pid == pid)
				return &s->tasks[s->slots[k]];
			k = (k + 1) & (s->nr_slots - 1);
		}
	}
	if ((s->nr_tasks + 1) * 2 > s->nr_slots && rehash(s) < 0)
		return NULL;
	if (s->nr_tasks >= INT32_MAX ||
	    CFSR_ALLOC_GROW(s->tasks, s->nr_tasks + 1, s->alloc_tasks)) {
		cfsr_error("out of memory for the task table");
		return NULL;
	}
	t = &s->tasks[s->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->name = -1;
	t->prio = -1;
	t->cpu = -1;
	t->rq_pos = -1;
	k = slot_of(pid, s->nr_slots);
	while (s->slots[k] != NO_SLOT)
		k = (k + 1) & (s->nr_slots - 1);
	s->slots[k] = (int)s->nr_tasks++;
	return t;
}

static int name_index(struct cfsr_taskstats *s, const char *comm)
{
	struct cfsr_task_sum *n;
	size_t i;

	for (i = 0; i < s->nr_names; i++)
		if (!strncmp(s->names[i].comm, comm, CFSR_COMM_LEN))
			return (int)i;
	if (s->nr_names >= INT32_MAX || CFSR_ALLOC_GROW(s->names, s->nr_names + 1, s->alloc_names))
		return cfsr_error("out of memory for task names");
	n = &s->names[s->nr_names];
	memset(n, 0, sizeof(*n));
	strncpy(n->comm, comm, CFSR_COMM_LEN - 1);
	return (int)s->nr_names++;
}

/* Rule "names": every event that gives a task's comm names the task from then on. */
static int set_name(struct cfsr_taskstats *s, struct cfsr_taskstats_task *t, const char *comm)
{
	int i;

	if (!comm[0])
		return 0;
	if (t->name >= 0 && !strncmp(s->names[t->name].comm, comm, CFSR_COMM_LEN))
		return 0;
	i = name_index(s, comm);
	if (i < 0)
		return -1;
	t->name = i;
	s->names[i].nr_tasks++;
	return 0;
}

/* The sums a task's activity goes to now: "?" while the trace has not named it. */
static struct cfsr_task_sum *sum_of(struct cfsr_taskstats *s, struct cfsr_taskstats_task *t)
{
	if (t->name < 0 && set_name(s, t, "?") < 0)
		return NULL;
	return &s->names[t->name];
}

/* Tasks are looked up by pid and named in one step; the pointer is borrowed. */
static struct cfsr_taskstats_task *task_named(struct cfsr_taskstats *s, int pid, const char *comm,
					      int prio)
{
	struct cfsr_taskstats_task *t = task_get(s, pid);

	if (!t || (comm && set_name(s, t, comm) < 0))
		return NULL;
	if (prio >= 0)
		t->prio = prio;
	return t;
}

/* ---- the runnable set and the fair share ---------------------------- */

/* A runnable task always has a name entry, so that its fair share has a place. */
static int rq_add(struct cfsr_taskstats *s, struct cfsr_taskstats_task *t)
{
	if (t->rq_pos >= 0)
		return 0;
	if (!sum_of(s, t))
		return -1;
	if (CFSR_ALLOC_GROW(s->runnable, s->nr_runnable + 1, s->alloc_runnable))
		return cfsr_error("out of memory for the runnable set");
	t->rq_pos = (int)s->nr_runnable;
	s->runnable[s->nr_runnable].task = (int)(t - s->tasks);
	s->runnable[s->nr_runnable++].w = 0;
	return 0;
}

static void rq_del(struct cfsr_taskstats *s, struct cfsr_taskstats_task *t)
{
	int last;

	if (t->rq_pos < 0)
		return;
	last = s->runnable[--s->nr_runnable].task;
	s->runnable[t->rq_pos].task = last;
	s->tasks[last].rq_pos = t->rq_pos;
	t->rq_pos = -1;
}

/* Rule "fair share": fair-class weight from the priority; unknown counts as nice 0. */
static uint64_t fair_weight(const struct cfsr_taskstats_task *t)
{
	if (t->prio < 0)
		return cfsr_prio_to_weight(CFSR_DEFAULT_PRIO);
	return cfsr_prio_to_weight(t->prio);
}

/*
 * Rule "fair share": over [fair_ts, ts) the runnable fair tasks share
 * nr_cpus CPUs in proportion to weight, none getting more than one CPU
 * (water-filling): while the heaviest remaining task has w * m >= W (m
 * CPUs and W weight remaining), it gets the whole interval and leaves with
 * one CPU; each other task gets floor(dt * m * w / W).
 */
static void fair_advance(struct cfsr_taskstats *s, uint64_t ts)
{
	uint64_t dt = ts - s->fair_ts, W = 0, m = (uint64_t)s->nr_cpus;
	struct cfsr_taskstats_rq *rq = s->runnable;
	size_t i, j, left = 0;

	s->fair_ts = ts;
	if (!dt || !s->nr_runnable)
		return;
	for (i = 0; i < s->nr_runnable; i++) {
		rq[i].w = fair_weight(&s->tasks[rq[i].task]);
		W += rq[i].w;
		left += rq[i].w != 0;
	}
	while (m && left) {
		for (j = 0, i = 1; i < s->nr_runnable; i++)
			if (rq[i].w > rq[j].w)
				j = i;
		if (rq[j].w * m < W)
			break;
		s->names[s->tasks[rq[j].task].name].fair += dt;
		W -= rq[j].w;
		rq[j].w = 0;
		m--;
		left--;
	}
	for (i = 0; m && W && i < s->nr_runnable; i++)
		if (rq[i].w)
			s->names[s->tasks[rq[i].task].name].fair +=
				(uint64_t)((unsigned __int128)dt * m * rq[i].w / W);
}

/* ---- run intervals --------------------------------------------------- */

/* Rule "run intervals": the current task of @cpu stops running at @ts. */
static int run_end(struct cfsr_taskstats *s, int cpu, uint64_t ts)
{
	struct cfsr_taskstats_cpu *c = &s->cpus[cpu];
	struct cfsr_taskstats_task *t;
	struct cfsr_task_sum *n;
	uint64_t d;

	if (c->cur > 0) {
		t = task_get(s, c->cur);
		if (!t)
			return -1;
		n = sum_of(s, t);
		if (!n)
			return -1;
		d = ts > c->cur_start ? ts - c->cur_start : 0;
		n->runtime += d;
		c->busy += d;
		t->cpu = -1;
	}
	c->cur = -1;
	return 0;
}

/* Rule "run intervals" and "wake-up latency": @pid starts running on @cpu at @ts. */
static int run_begin(struct cfsr_taskstats *s, int cpu, int pid, uint64_t ts)
{
	struct cfsr_taskstats_task *t;
	struct cfsr_task_sum *n;
	int other;

	if (pid > 0) {
		t = task_get(s, pid);
		if (!t)
			return -1;
		other = t->cpu;
		if (other >= 0 && other != cpu) {
			/* its switch out there was not recorded: it ended at that CPU's last event */
			uint64_t end = s->cpus[other].last_ts;

			if (run_end(s, other, end) < 0)
				return -1;
			t = task_get(s, pid);
		}
		n = sum_of(s, t);
		if (!n)
			return -1;
		if (t->wake_open) {
			uint64_t lat = ts > t->wake_ts ? ts - t->wake_ts : 0;

			if (cfsr_lathist_add(&n->lat, lat) < 0 ||
			    cfsr_lathist_add(&s->lat_all, lat) < 0)
				return -1;
		}
		t->wake_open = false;
		t->woken = false;
		t->in_ttwu = false;
		t->cpu = cpu;
		if (rq_add(s, t) < 0)
			return -1;
	}
	s->cpus[cpu].cur = pid;
	s->cpus[cpu].cur_start = ts;
	return 0;
}

/*
 * Rule "inferred switches": an event recorded on @cpu in the context of a
 * task (common_pid) other than the CPU's current one shows a switch that
 * no sched_switch recorded.  It happened at the event, or, for the task's
 * own sched_stat_runtime, "runtime" before it, but not before the CPU's
 * previous event.  The task it replaced is taken to have blocked.
 */
static int infer_switch(struct cfsr_taskstats *s, const struct cfsr_event *ev, int pid)
{
	struct cfsr_taskstats_cpu *c = &s->cpus[ev->cpu];
	uint64_t est = ev->ts, floor = c->seen ? c->last_ts : s->first_ts;
	struct cfsr_taskstats_task *t;

	if (c->cur == pid)
		return 0;
	if (ev->kind == CFSR_EV_STAT_RUNTIME && ev->runtime.pid == pid && pid > 0)
		est = ev->runtime.runtime < ev->ts - floor ? ev->ts - ev->runtime.runtime : floor;
	if (c->cur >= 0)
		s->inferred_switches++;
	if (c->cur > 0) {
		t = task_get(s, c->cur);
		if (!t)
			return -1;
		rq_del(s, t);
	}
	if (run_end(s, ev->cpu, est) < 0)
		return -1;
	return run_begin(s, ev->cpu, pid, est);
}

static int cpu_slot(struct cfsr_taskstats *s, int cpu)
{
	size_t i;

	if (cpu < 0 || cpu >= TS_MAX_CPUS)
		return cfsr_error("event on CPU %d, out of range", cpu);
	if ((size_t)cpu < s->nr_cpu_slots)
		return 0;
	if (CFSR_ALLOC_GROW(s->cpus, (size_t)cpu + 1, s->alloc_cpus))
		return cfsr_error("out of memory for CPUs");
	for (i = s->nr_cpu_slots; i <= (size_t)cpu; i++)
		s->cpus[i].cur = -1;
	s->nr_cpu_slots = (size_t)cpu + 1;
	return 0;
}

/* ---- events ----------------------------------------------------------- */

static int on_switch(struct cfsr_taskstats *s, const struct cfsr_event *ev)
{
	struct cfsr_taskstats_task *t;
	struct cfsr_task_sum *n;
	bool preempted = ev->sw.prev_state == CFSR_TASK_RUNNING;

	if (ev->sw.prev_pid > 0) {
		t = task_named(s, ev->sw.prev_pid, ev->sw.prev_comm, ev->sw.prev_prio);
		if (!t)
			return -1;
		n = sum_of(s, t);
		if (!n)
			return -1;
		if (preempted)
			n->switches_preempted++;
		else
			n->switches_voluntary++;
		if (!preempted)
			rq_del(s, t);
	}
	if (run_end(s, ev->cpu, ev->ts) < 0)
		return -1;
	if (ev->sw.next_pid > 0 &&
	    !task_named(s, ev->sw.next_pid, ev->sw.next_comm, ev->sw.next_prio))
		return -1;
	return run_begin(s, ev->cpu, ev->sw.next_pid, ev->ts);
}

/* Rule "wake-ups": count once per wake-up, open a latency episode if not running. */
static int on_wake(struct cfsr_taskstats *s, const struct cfsr_event *ev)
{
	struct cfsr_taskstats_task *t;
	struct cfsr_task_sum *n;
	bool waking = ev->kind == CFSR_EV_WAKING;

	if (ev->wake.pid <= 0)
		return 0;
	t = task_named(s, ev->wake.pid, ev->wake.comm, ev->wake.prio);
	if (!t)
		return -1;
	n = sum_of(s, t);
	if (!n)
		return -1;
	if (waking || !t->woken) {
		n->wakeups++;
		t->woken = true;
		/*
		 * Rule "wake-up latency": woken again while an episode is open,
		 * the task ran and slept unseen: the episode has no sample.
		 */
		if (t->wake_open) {
			n->wakeups_unseen++;
			s->wakeups_unseen++;
			t->wake_open = false;
		}
		if (t->cpu < 0) {
			t->wake_open = true;
			t->wake_ts = ev->ts;
		}
	}
	t->in_ttwu = waking;
	/* sched_wakeup is the enqueue: the task is runnable from here */
	if (!waking && rq_add(s, t) < 0)
		return -1;
	return 0;
}

/*
 * Rule "names": a freed pid, or the pid of a new child, starts afresh.  A
 * task still running keeps its state: its switch out is yet to come.
 */
static void task_forget(struct cfsr_taskstats *s, struct cfsr_taskstats_task *t)
{
	if (t->cpu >= 0)
		return;
	rq_del(s, t);
	t->name = -1;
	t->prio = -1;
	t->woken = t->in_ttwu = t->wake_open = false;
}

static int on_task_event(struct cfsr_taskstats *s, const struct cfsr_event *ev)
{
	struct cfsr_taskstats_task *t;
	struct cfsr_task_sum *n;

	switch (ev->kind) {
	case CFSR_EV_MIGRATE:
		s->migrations++;
		if (ev->migrate.pid <= 0)
			return 0;
		t = task_named(s, ev->migrate.pid, ev->migrate.comm, ev->migrate.prio);
		n = t ? sum_of(s, t) : NULL;
		if (!n)
			return -1;
		if (t->in_ttwu)
			n->migrations_wakeup++;
		else
			n->migrations_other++;
		return 0;
	case CFSR_EV_STAT_RUNTIME:
		if (ev->runtime.pid <= 0)
			return 0;
		t = task_named(s, ev->runtime.pid, ev->runtime.comm, -1);
		n = t ? sum_of(s, t) : NULL;
		if (!n)
			return -1;
		n->stat_runtime += ev->runtime.runtime;
		return 0;
	case CFSR_EV_FORK:
		if (ev->fork.parent_pid > 0 &&
		    !task_named(s, ev->fork.parent_pid, ev->fork.parent_comm, -1))
			return -1;
		if (ev->fork.child_pid <= 0)
			return 0;
		t = task_get(s, ev->fork.child_pid);
		if (!t)
			return -1;
		/* Rule "names": a new task, even on a reused pid */
		task_forget(s, t);
		return set_name(s, t, ev->fork.child_comm);
	case CFSR_EV_EXIT:
		if (ev->exit.pid > 0 && !task_named(s, ev->exit.pid, ev->exit.comm, ev->exit.prio))
			return -1;
		return 0;
	case CFSR_EV_FREE:
		if (ev->exit.pid <= 0)
			return 0;
		t = task_get(s, ev->exit.pid);
		if (!t)
			return -1;
		task_forget(s, t);
		return 0;
	case CFSR_EV_PI_SETPRIO:
		if (ev->pi.pid > 0 && !task_named(s, ev->pi.pid, NULL, ev->pi.newprio))
			return -1;
		return 0;
	default:
		return 0;
	}
}

int cfsr_taskstats_event(struct cfsr_taskstats *s, const struct cfsr_event *ev)
{
	struct cfsr_event e = *ev;
	int ctx;

	if (cpu_slot(s, e.cpu) < 0)
		return -1;
	if (!s->events++) {
		s->first_ts = e.ts;
		s->last_ts = e.ts;
		s->fair_ts = e.ts;
	}
	/* a reader that delivers a slightly earlier time keeps the clock monotonic */
	if (e.ts < s->last_ts)
		e.ts = s->last_ts;
	s->last_ts = e.ts;
	/* Rule "fair share": the runnable set changes at event times */
	fair_advance(s, e.ts);

	if (e.kind == CFSR_EV_LOST) {
		/* Rule "lost events": the CPU's current task is unknown from its last event */
		s->lost_notices++;
		if (run_end(s, e.cpu, s->cpus[e.cpu].last_ts) < 0)
			return -1;
		goto out;
	}
	ctx = e.pid;
	if (e.kind == CFSR_EV_SWITCH && ctx < 0)
		ctx = e.sw.prev_pid;
	if (ctx >= 0 && infer_switch(s, &e, ctx) < 0)
		return -1;

	switch (e.kind) {
	case CFSR_EV_SWITCH:
		if (on_switch(s, &e) < 0)
			return -1;
		break;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		if (on_wake(s, &e) < 0)
			return -1;
		break;
	default:
		if (on_task_event(s, &e) < 0)
			return -1;
		break;
	}
out:
	s->cpus[e.cpu].last_ts = e.ts;
	s->cpus[e.cpu].seen = true;
	return 0;
}

void cfsr_taskstats_finish(struct cfsr_taskstats *s)
{
	size_t i;

	if (s->finished)
		return;
	s->finished = true;
	fair_advance(s, s->last_ts);
	for (i = 0; i < s->nr_cpu_slots; i++)
		if (s->cpus[i].cur > 0)
			run_end(s, (int)i, s->last_ts);
}

const struct cfsr_task_sum *cfsr_taskstats_find(const struct cfsr_taskstats *s, const char *comm)
{
	size_t i;

	for (i = 0; i < s->nr_names; i++)
		if (!strncmp(s->names[i].comm, comm, CFSR_COMM_LEN))
			return &s->names[i];
	return NULL;
}

struct cfsr_taskstats *cfsr_taskstats_new(int nr_cpus)
{
	struct cfsr_taskstats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	return s;
}

void cfsr_taskstats_free(struct cfsr_taskstats *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_names; i++)
		cfsr_lathist_release(&s->names[i].lat);
	cfsr_lathist_release(&s->lat_all);
	free(s->names);
	free(s->cpus);
	free(s->tasks);
	free(s->slots);
	free(s->runnable);
	free(s);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay engine.  See replay.h for the model and docs/KERNEL-PATHS.md
 * for the kernel paths each handler mirrors.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "math.h"
#include "replay.h"
#include "weight.h"

struct replay_rq {
	/* current task: pid, 0 for idle, -1 unknown */
	int curr;
	/* clock anchor: clock_task was anchor_clock at trace time anchor_ts */
	bool anchored;
	bool anchor_exact;
	uint64_t anchor_ts;
	uint64_t anchor_clock;
	/* the anchor came from a run-time event of this task, nothing since */
	int anchor_pid;
	/* wakeups onto this rq since it was last seen idle */
	unsigned int woken;
};

/*
 * A run-time report whose PELT update waits for the next event of the CPU
 * that emitted it: update_curr() runs in the tick, a dequeue or a
 * put_prev, which update the task's signal, but also in wakeup preemption
 * and enqueue paths, which do not (docs/KERNEL-PATHS.md).
 */
struct pending_runtime {
	bool set;
	int pid;
	/* the task's update count then: a later update supersedes this one */
	uint64_t updates;
	uint64_t now;
	uint64_t ts;
	bool exact;
};

struct cfsr_replay {
	const struct cfsr_pelt_params *params;
	int nr_cpus;
	struct replay_rq *rqs;
	/* per emitting CPU */
	struct pending_runtime *pending;
	/* tasks, and an open-addressing map pid -> index + 1 (0 = free) */
	struct cfsr_task *tasks;
	size_t nr_tasks;
	size_t tasks_alloc;
	int *map;
	size_t map_alloc;
	cfsr_replay_hook hook;
	void *hook_data;
	struct cfsr_replay_stats stats;
};

/* ---- task table --------------------------------------------------------------- */

static size_t map_slot(int pid, size_t alloc)
{
	return ((uint32_t)pid * 2654435769u) & (alloc - 1);
}

static int map_grow(struct cfsr_replay *r)
{
	size_t alloc = r->map_alloc ? r->map_alloc * 2 : 256, i;
	int *map = calloc(alloc, sizeof(*map));

	if (!map)
		return -1;
	for (i = 0; i < r->nr_tasks; i++) {
		size_t s = map_slot(r->tasks[i].pid, alloc);

		while (map[s])
			s = (s + 1) & (alloc - 1);
		map[s] = (int)i + 1;
	}
	free(r->map);
	r->map = map;
	r->map_alloc = alloc;
	return 0;
}

struct cfsr_task *cfsr_replay_task(struct cfsr_replay *r, int pid)
{
	size_t s;

	if (!r->map_alloc)
		return NULL;
	s = map_slot(pid, r->map_alloc);
	while (r->map[s]) {
		if (r->tasks[r->map[s] - 1].pid == pid)
			return &r->tasks[r->map[s] - 1];
		s = (s + 1) & (r->map_alloc - 1);
	}
	return NULL;
}

static void task_set_prio(struct cfsr_task *t, int prio)
{
	t->prio = prio;
	t->fair = prio >= 100 && prio < 140;
	if (t->fair)
		t->load_weight = cfsr_prio_to_load_weight(prio);
}

/* Find or create the task @pid (memory grows with tasks, not events). */
static struct cfsr_task *task_get(struct cfsr_replay *r, int pid)
{
	struct cfsr_task *t = cfsr_replay_task(r, pid);
	size_t s;

	if (t)
		return t;
	if ((r->nr_tasks + 1) * 2 > r->map_alloc && map_grow(r) < 0)
		return NULL;
	if (CFSR_ALLOC_GROW(r->tasks, r->nr_tasks + 1, r->tasks_alloc) < 0)
		return NULL;
	t = &r->tasks[r->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->cpu = -1;
	t->state = CFSR_TS_UNKNOWN;
	task_set_prio(t, 120);
	s = map_slot(pid, r->map_alloc);
	while (r->map[s])
		s = (s + 1) & (r->map_alloc - 1);
	r->map[s] = (int)++r->nr_tasks;
	return t;
}

/* A new task under a pid that may have been used before: start afresh. */
static struct cfsr_task *task_reset(struct cfsr_replay *r, int pid)
{
	struct cfsr_task *t = task_get(r, pid);

	if (!t)
		return NULL;
	memset(&t->avg, 0, sizeof(t->avg));
	t->enq_pending = false;
	t->cpu = -1;
	t->state = CFSR_TS_UNKNOWN;
	t->exec_known = false;
	t->avg_known = false;
	t->migrated = false;
	t->updates = 0;
	return t;
}

/* ---- clocks ------------------------------------------------------------------------ */

static struct replay_rq *rq_of(struct cfsr_replay *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? &r->rqs[cpu] : NULL;
}

/*
 * The rq's clock_task at trace time @ts, from its anchor.  Steal time since
 * the anchor is not seen, so a value away from its anchor is an estimate.
 */
static uint64_t clock_at(struct cfsr_replay *r, struct replay_rq *rq, uint64_t ts, bool *exact)
{
	*exact = false;
	if (!rq || !rq->anchored) {
		r->stats.unanchored_updates++;
		return ts;
	}
	if (ts == rq->anchor_ts && rq->anchor_exact) {
		*exact = true;
		return rq->anchor_clock;
	}
	r->stats.estimated_updates++;
	if (ts < rq->anchor_ts)
		return rq->anchor_clock - (rq->anchor_ts - ts);
	return rq->anchor_clock + (ts - rq->anchor_ts);
}

static void anchor(struct replay_rq *rq, uint64_t ts, uint64_t clock, bool exact, int pid)
{
	rq->anchored = true;
	rq->anchor_exact = exact;
	rq->anchor_ts = ts;
	rq->anchor_clock = clock;
	rq->anchor_pid = pid;
}

void cfsr_replay_clock_sample(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task)
{
	struct replay_rq *rq = rq_of(r, cpu);

	/*
	 * A value from a run-time chain is exact: keep it, also across idle,
	 * where clock_task follows the trace clock unless time is stolen.  A
	 * reading is the rq clock of its last update, taken some time before
	 * the reading's own time stamp, so it is only an estimate.
	 */
	if (!rq || (rq->anchored && rq->anchor_exact))
		return;
	anchor(rq, ts, clock_task, false, -1);
}

/* ---- PELT updates ------------------------------------------------------------------ */

/*
 * Periods for an unknown past to decay below one unit: the largest value a
 * signal holds is a nice -20 task's load_avg, 88761, and 88761 * y^n < 1
 * for n > 32 * log2(88761) = 526.
 */
#define WARMUP_PERIODS 527

bool cfsr_task_warming(const struct cfsr_task *t, uint64_t now)
{
	return !t->avg_known && now < t->warm_until;
}

void cfsr_task_inputs(const struct cfsr_task *t, bool *on_rq, uint64_t *runnable, bool *running)
{
	*on_rq = t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_RUNNING;
	*runnable = *on_rq;
	*running = t->state == CFSR_TS_RUNNING;
}

static void notify(struct cfsr_replay *r, struct cfsr_task *t, uint64_t ts,
		   enum cfsr_update_why why, bool exact)
{
	struct cfsr_replay_update u = { ts, t->cpu, t, why, exact };

	t->updates++;
	r->stats.updates++;
	if (r->hook)
		r->hook(r->hook_data, &u);
}

/*
 * Mirrors update_load_avg() on a task entity (kernel/sched/fair.c,
 * v6.12-v6.18) for the entity's own signal: __update_load_avg_se() with the
 * task's current inputs.
 * Differs: the cfs_rq the task is queued on is not updated (not modelled).
 */
static void update_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			enum cfsr_update_why why, bool exact);

/*
 * Mirrors the enqueue_entity() update of a woken task: the sleep is aged
 * with zero inputs.  Its clock is estimated from the wakeup's trace time,
 * which follows the kernel's rq clock update by an unknown delay, so it is
 * applied late, bounded by the task's next update (it cannot be later than
 * the switch into the task, whose clock the run-time chain gives exactly).
 */
void cfsr_replay_task_settle(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now)
{
	enum cfsr_task_state state = t->state;

	if (!t->enq_pending)
		return;
	t->enq_pending = false;
	t->state = CFSR_TS_SLEEPING;
	update_task(r, t, t->enq_clock < now ? t->enq_clock : now, t->enq_ts, CFSR_UPD_ENQUEUE,
		    false);
	t->state = state;
}

static void update_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			enum cfsr_update_why why, bool exact)
{
	uint64_t runnable;
	bool on_rq, running;

	if (!t->fair)
		return;
	cfsr_replay_task_settle(r, t, now);
	/*
	 * An estimated clock can fall behind the signal's last update; the
	 * kernel's clock does not go back (it would take now as the new
	 * last_update_time, off the 1024 ns grid), so hold at the last update.
	 */
	if (now < t->avg.last_update_time)
		now = t->avg.last_update_time;
	if (!t->avg_known && !t->avg.last_update_time) {
		/* existed before the trace: start from zero at now (the policy) */
		t->avg.last_update_time = now & ~1023ull;
		t->avg.period_contrib = (uint32_t)((now >> 10) % 1024);
		t->warm_until = now + WARMUP_PERIODS * 1048576ull;
	}
	cfsr_task_inputs(t, &on_rq, &runnable, &running);
	cfsr_pelt_update_se(r->params, now, &t->avg, t->load_weight, on_rq, runnable, running);
	notify(r, t, ts, why, exact);
}

/*
 * Mirrors attach_entity_load_avg() (kernel/sched/fair.c, v5.18-v6.18) for
 * the entity: its window takes the cfs_rq's last_update_time and
 * period_contrib, and its sums are rebuilt from its averages.
 * Differs: the cfs_rq is not modelled; its window is taken as the kernel
 * keeps it, on the absolute grid (last_update_time = @now rounded down to
 * 1024 ns, period_contrib = units into the current 1024-unit period), which
 * holds for a cfs_rq updated at @now.
 */
static void attach_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			bool exact)
{
	struct cfsr_sched_avg cfs = { 0 };

	cfs.last_update_time = now & ~1023ull;
	cfs.period_contrib = (uint32_t)((now >> 10) % 1024);
	cfsr_pelt_attach_se(r->params, &cfs, &t->avg, t->load_weight);
	t->migrated = false;
	notify(r, t, ts, CFSR_UPD_ENQUEUE, exact);
}

/*
 * Mirrors util_est_update(..., task_sleep = true) at a sleeping task's
 * dequeue (kernel/sched/fair.c, v6.8-v6.18): a sample of the averages as
 * the task's last update left them, once per sleep.
 */
static void sample_util_est(struct cfsr_replay *r, struct cfsr_task *t)
{
	if (t->ue_sampled || !t->fair)
		return;
	t->avg.util_est =
		cfsr_pelt_util_est_update(r->params, t->avg.util_est, t->avg.util_avg,
					  t->avg.runnable_avg, SCHED_CAPACITY_SCALE, true);
	t->ue_sampled = true;
}

/* ---- event handlers ------------------------------------------------------------------ */

/* The clock of a __schedule() on @rq: the one its run-time event reported. */
static uint64_t schedule_clock(struct cfsr_replay *r, struct replay_rq *rq, int prev, uint64_t ts,
			       bool *exact)
{
	if (rq->anchored && rq->anchor_exact && prev > 0 && rq->anchor_pid == prev) {
		*exact = true;
		return rq->anchor_clock;
	}
	return clock_at(r, rq, ts, exact);
}

/* Mirrors set_next_entity(): update with the waiting inputs, then run. */
static void set_next(struct cfsr_replay *r, struct cfsr_task *t, int cpu, uint64_t now, uint64_t ts,
		     bool exact)
{
	if (t->state != CFSR_TS_QUEUED && t->state != CFSR_TS_RUNNING)
		t->state = CFSR_TS_QUEUED;
	t->cpu = cpu;
	update_task(r, t, now, ts, CFSR_UPD_SET_NEXT, exact);
	t->state = CFSR_TS_RUNNING;
	t->ue_sampled = false;
	/* the run-time chain starts here; its values are as exact as @now */
	t->exec_start = now;
	t->exec_known = true;
}

static int on_switch(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	struct cfsr_task *prev = NULL, *next = NULL;
	uint64_t now;
	bool exact;

	if (!rq)
		return 0;
	/* create both first: a new task can move the table, and with it prev */
	if ((ev->sw.prev_pid > 0 && !task_get(r, ev->sw.prev_pid)) ||
	    (ev->sw.next_pid > 0 && !task_get(r, ev->sw.next_pid)))
		return -1;
	if (ev->sw.prev_pid > 0)
		prev = cfsr_replay_task(r, ev->sw.prev_pid);
	if (ev->sw.next_pid > 0)
		next = cfsr_replay_task(r, ev->sw.next_pid);
	now = schedule_clock(r, rq, ev->sw.prev_pid, ev->ts, &exact);
	if (rq->curr > 0 && rq->curr != ev->sw.prev_pid) {
		/*
		 * The task the model had running left without a switch in the
		 * trace (its events were filtered or lost).  Its last update was
		 * its last run-time report, the dequeue's or put's; from there it
		 * is CFSR_TS_LEFT until its next event says whether it blocked
		 * (a wakeup) or was preempted (a switch into it).
		 */
		struct cfsr_task *gone = cfsr_replay_task(r, rq->curr);

		if (gone && gone->state == CFSR_TS_RUNNING) {
			gone->state = CFSR_TS_LEFT;
			gone->exec_known = false;
		}
		r->stats.unseen_switch_outs++;
	}
	if (prev) {
		task_set_prio(prev, ev->sw.prev_prio);
		memcpy(prev->comm, ev->sw.prev_comm, sizeof(prev->comm));
		prev->cpu = ev->cpu;
		if (prev->state != CFSR_TS_RUNNING)
			prev->state = CFSR_TS_RUNNING;
		if (!ev->sw.preempt && ev->sw.prev_state)
			sample_util_est(r, prev);
		/* put_prev_entity() for a preempted task, dequeue_entity() for a sleeper */
		update_task(r, prev, now, ev->ts,
			    ev->sw.preempt || !ev->sw.prev_state ? CFSR_UPD_PUT_PREV :
								   CFSR_UPD_DEQUEUE,
			    exact);
		prev->state =
			ev->sw.preempt || !ev->sw.prev_state ? CFSR_TS_QUEUED : CFSR_TS_SLEEPING;
	}
	if (next) {
		task_set_prio(next, ev->sw.next_prio);
		memcpy(next->comm, ev->sw.next_comm, sizeof(next->comm));
		set_next(r, next, ev->cpu, now, ev->ts, exact);
	}
	rq->curr = ev->sw.next_pid;
	/* the chain continues from the switch's clock */
	anchor(rq, ev->ts, now, exact, ev->sw.next_pid);
	return 0;
}

/*
 * A task reported its run time on @cpu without a switch into it in the
 * trace: the switch was lost.  It happened @runtime before @now.
 */
static void recover_switch(struct cfsr_replay *r, struct replay_rq *rq, struct cfsr_task *t,
			   int cpu, uint64_t now, uint64_t runtime, uint64_t ts, bool exact)
{
	struct cfsr_task *old = rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;

	if (old && old != t && old->state == CFSR_TS_RUNNING) {
		old->state = CFSR_TS_LEFT;
		old->exec_known = false;
		r->stats.unseen_switch_outs++;
	}
	set_next(r, t, cpu, now > runtime ? now - runtime : 0, ts, exact);
	rq->curr = t->pid;
	r->stats.recovered_switches++;
}

static int on_runtime(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t = task_get(r, ev->runtime.pid);
	struct replay_rq *rq;
	uint64_t now;
	bool exact;

	if (!t)
		return -1;
	if (!t->fair)
		return 0;
	rq = rq_of(r, t->cpu >= 0 && t->state == CFSR_TS_RUNNING ? t->cpu : ev->cpu);
	if (!rq)
		return 0;
	if (t->exec_known && t->state == CFSR_TS_RUNNING) {
		now = t->exec_start + ev->runtime.runtime;
		exact = true;
	} else {
		now = clock_at(r, rq, ev->ts, &exact);
	}
	if (rq->curr != t->pid && ev->pid == t->pid)
		recover_switch(r, rq, t, (int)(rq - r->rqs), now, ev->runtime.runtime, ev->ts,
			       exact);
	if (t->state != CFSR_TS_RUNNING)
		t->state = CFSR_TS_RUNNING;
	t->cpu = (int)(rq - r->rqs);
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus) {
		struct pending_runtime *p = &r->pending[ev->cpu];

		p->set = true;
		p->pid = t->pid;
		p->updates = t->updates;
		p->now = now;
		p->ts = ev->ts;
		p->exact = exact;
	}
	t->exec_start = now;
	t->exec_known = t->exec_known || exact;
	anchor(rq, ev->ts, now, exact, t->pid);
	return 0;
}

static int on_wakeup(struct cfsr_replay *r, const struct cfsr_event *ev, bool new_task)
{
	struct cfsr_task *t = new_task ? task_reset(r, ev->wake.pid) : task_get(r, ev->wake.pid);
	struct replay_rq *rq;
	int cpu = ev->wake.target_cpu >= 0 ? ev->wake.target_cpu : ev->cpu;
	uint64_t now;
	bool exact;

	if (!t)
		return -1;
	task_set_prio(t, ev->wake.prio);
	memcpy(t->comm, ev->wake.comm, sizeof(t->comm));
	/* ttwu_runnable(): still queued, nothing to enqueue */
	if (!new_task && (t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_RUNNING))
		return 0;
	rq = rq_of(r, cpu);
	if (!rq)
		return 0;
	now = clock_at(r, rq, ev->ts, &exact);
	if (new_task) {
		/*
		 * Mirrors init_entity_runnable_average() and the attach of
		 * wake_up_new_task().  Differs: post_init_entity_util_avg()
		 * needs the cfs_rq's utilization, not modelled; util starts at 0.
		 */
		cfsr_pelt_init_se(r->params, &t->avg, t->load_weight, true);
		t->avg_known = true;
		t->cpu = cpu;
		t->state = CFSR_TS_QUEUED;
		if (t->fair)
			attach_task(r, t, now, ev->ts, exact);
		return 0;
	}
	t->cpu = cpu;
	if (t->migrated) {
		t->state = CFSR_TS_QUEUED;
		if (t->fair)
			attach_task(r, t, now, ev->ts, exact);
		return 0;
	}
	/* enqueue_entity(): age the sleep (inputs 0), then queue; see cfsr_replay_task_settle() */
	t->state = CFSR_TS_QUEUED;
	t->enq_ts = ev->ts;
	rq->woken++;
	if (t->fair) {
		t->enq_pending = true;
		t->enq_clock = now;
	}
	return 0;
}

static int on_migrate(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t = task_get(r, ev->migrate.pid);
	struct replay_rq *src = rq_of(r, ev->migrate.orig_cpu);
	struct replay_rq *dst = rq_of(r, ev->migrate.dest_cpu);
	uint64_t now;
	bool exact;

	if (!t)
		return -1;
	if (!src || !dst || !t->fair) {
		t->cpu = ev->migrate.dest_cpu;
		return 0;
	}
	now = clock_at(r, src, ev->ts, &exact);
	cfsr_replay_task_settle(r, t, now);
	if (t->state == CFSR_TS_QUEUED) {
		/* load balance: dequeue with DO_DETACH, then attach on the destination */
		update_task(r, t, now, ev->ts, CFSR_UPD_DETACH, exact);
		t->cpu = ev->migrate.dest_cpu;
		now = clock_at(r, dst, ev->ts, &exact);
		attach_task(r, t, now, ev->ts, exact);
		return 0;
	}
	/*
	 * Wakeup migration: remove_entity_load_avg() ages the blocked entity.
	 * Differs: the kernel ages it to the source cfs_rq's last update, not
	 * modelled; the source clock now is used.
	 */
	if (t->avg.last_update_time)
		cfsr_pelt_update_blocked_se(r->params, now, &t->avg, t->load_weight);
	t->cpu = ev->migrate.dest_cpu;
	t->migrated = true;
	return 0;
}

static int on_fork(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *parent = cfsr_replay_task(r, ev->fork.parent_pid);
	int prio = parent ? parent->prio : 120;
	struct cfsr_task *child;

	/* task_reset() can move the table: parent is not used past here */
	child = task_reset(r, ev->fork.child_pid);
	if (!child)
		return -1;
	task_set_prio(child, prio);
	memcpy(child->comm, ev->fork.child_comm, sizeof(child->comm));
	return 0;
}

static void on_lost(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	size_t i;

	r->stats.lost_notices++;
	if (!rq)
		return;
	/* what happened on that CPU is unknown: forget its state */
	rq->curr = -1;
	rq->anchored = false;
	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].cpu == ev->cpu)
			r->tasks[i].exec_known = false;
}

/*
 * Apply the PELT update of the CPU's last run-time report, unless @ev shows
 * that report came from a wakeup: a wakeup onto the task's run queue
 * emitted right after it.
 */
static void settle_runtime(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct pending_runtime *p;
	struct cfsr_task *t;

	if (ev->cpu < 0 || ev->cpu >= r->nr_cpus || !r->pending[ev->cpu].set)
		return;
	p = &r->pending[ev->cpu];
	p->set = false;
	t = cfsr_replay_task(r, p->pid);
	if (!t || t->state != CFSR_TS_RUNNING || t->updates != p->updates)
		return;
	if ((ev->kind == CFSR_EV_WAKEUP || ev->kind == CFSR_EV_WAKEUP_NEW) &&
	    ev->wake.target_cpu == t->cpu && ev->wake.pid != t->pid)
		return;
	/* a sleep: dequeue_task_fair() samples util_est before dequeue_entity() updates */
	if (ev->kind == CFSR_EV_SWITCH && ev->sw.prev_pid == t->pid && !ev->sw.preempt &&
	    ev->sw.prev_state)
		sample_util_est(r, t);
	update_task(r, t, p->now, p->ts, CFSR_UPD_RUNTIME, p->exact);
}

/*
 * Every event runs in the context of the task current on its CPU
 * (common_pid; 0 when idle).  When that is not the task the model has
 * running, the model missed a switch: the task it had running left unseen
 * (CFSR_TS_LEFT), and the one now current is placed by its next run-time
 * report (recover_switch()).
 */
static void observe_current(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	struct cfsr_task *old;

	if (!rq || ev->pid < 0 || rq->curr == ev->pid || ev->kind == CFSR_EV_LOST)
		return;
	old = rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;
	if (old && old->state == CFSR_TS_RUNNING) {
		old->state = CFSR_TS_LEFT;
		old->exec_known = false;
		r->stats.unseen_switch_outs++;
	}
	rq->curr = ev->pid == 0 ? 0 : -1;
}

/* A wakeup handler runs well within this; a CPU idle later has run its wakees. */
#define IDLE_AFTER_WAKEUP_NS 20000

/*
 * An event in the idle task's context means the CPU has nothing to run.
 * Tasks woken onto it before, and not seen running since, ran and left
 * unseen (their own events were filtered or lost).
 */
static void observe_idle(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	size_t i;

	if (!rq || ev->pid != 0 || !rq->woken)
		return;
	rq->woken = 0;
	for (i = 0; i < r->nr_tasks; i++) {
		struct cfsr_task *t = &r->tasks[i];

		if (t->state != CFSR_TS_QUEUED || t->cpu != ev->cpu ||
		    t->enq_ts + IDLE_AFTER_WAKEUP_NS > ev->ts) {
			if (t->state == CFSR_TS_QUEUED && t->cpu == ev->cpu)
				rq->woken++;
			continue;
		}
		t->state = CFSR_TS_LEFT;
		t->exec_known = false;
		r->stats.unseen_switch_outs++;
	}
}

int cfsr_replay_event(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t;
	int ret = 0;

	r->stats.events++;
	settle_runtime(r, ev);
	observe_current(r, ev);
	observe_idle(r, ev);
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		ret = on_switch(r, ev);
		break;
	case CFSR_EV_STAT_RUNTIME:
		ret = on_runtime(r, ev);
		break;
	case CFSR_EV_WAKEUP:
		ret = on_wakeup(r, ev, false);
		break;
	case CFSR_EV_WAKEUP_NEW:
		ret = on_wakeup(r, ev, true);
		break;
	case CFSR_EV_MIGRATE:
		ret = on_migrate(r, ev);
		break;
	case CFSR_EV_FORK:
		ret = on_fork(r, ev);
		break;
	case CFSR_EV_EXIT:
		t = cfsr_replay_task(r, ev->exit.pid);
		if (t)
			t->exec_known = false;
		break;
	case CFSR_EV_PI_SETPRIO:
		t = task_get(r, ev->pi.pid);
		if (!t)
			return -1;
		task_set_prio(t, ev->pi.newprio);
		break;
	case CFSR_EV_LOST:
		on_lost(r, ev);
		break;
	default:
		break;
	}
	if (ret < 0)
		return cfsr_error("replay: out of memory");
	return 0;
}

struct cfsr_replay *cfsr_replay_new(int nr_cpus, const struct cfsr_pelt_params *params)
{
	struct cfsr_replay *r;
	int i;

	if (nr_cpus <= 0 || nr_cpus > 65536)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->rqs = calloc((size_t)nr_cpus, sizeof(*r->rqs));
	r->pending = calloc((size_t)nr_cpus, sizeof(*r->pending));
	if (!r->rqs || !r->pending) {
		free(r->rqs);
		free(r->pending);
		free(r);
		return NULL;
	}
	for (i = 0; i < nr_cpus; i++)
		r->rqs[i].curr = -1;
	r->nr_cpus = nr_cpus;
	r->params = params;
	return r;
}

void cfsr_replay_free(struct cfsr_replay *r)
{
	if (!r)
		return;
	free(r->rqs);
	free(r->pending);
	free(r->tasks);
	free(r->map);
	free(r);
}

void cfsr_replay_set_hook(struct cfsr_replay *r, cfsr_replay_hook fn, void *data)
{
	r->hook = fn;
	r->hook_data = data;
}

const struct cfsr_replay_stats *cfsr_replay_stats(const struct cfsr_replay *r)
{
	return &r->stats;
}

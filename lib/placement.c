// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placement audit (see placement.h).  Per task, the audit remembers an
 * open wakeup: the waker's CPU and the task's previous CPU from
 * sched_waking, so that sched_wakeup can be judged and a migration between
 * the two is known to belong to the wakeup.  The diverging decisions are
 * kept in a fixed array of the largest N.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "pidmap.h"
#include "placement.h"

struct pl_task {
	int pid;
	bool waking;
	int waker_cpu;
	int prev_cpu;
};

struct cfsr_place {
	int nr_cpus;
	int top_n;
	uint64_t win_start;
	uint64_t win_end;
	int filter_cpu;
	int filter_pid;
	struct pl_task *tasks;
	size_t nr_tasks;
	size_t alloc_tasks;
	struct cfsr_pidmap map;
	struct cfsr_place_totals tot;
	struct cfsr_place_decision *top;
	int nr_top;
};

static struct pl_task *pl_task_get(struct cfsr_place *pl, int pid)
{
	long i = cfsr_pidmap_get(&pl->map, pid);
	struct pl_task *t;

	if (i >= 0)
		return &pl->tasks[i];
	if (CFSR_ALLOC_GROW(pl->tasks, pl->nr_tasks + 1, pl->alloc_tasks) < 0) {
		cfsr_error("out of memory for %zu tasks", pl->nr_tasks + 1);
		return NULL;
	}
	if (cfsr_pidmap_put(&pl->map, pid, pl->nr_tasks) < 0)
		return NULL;
	t = &pl->tasks[pl->nr_tasks++];
	t->pid = pid;
	t->waking = false;
	t->waker_cpu = -1;
	t->prev_cpu = -1;
	return t;
}

static int nr_running(const struct cfsr_iww *iw, int cpu, int *state)
{
	int curr, waiting;

	*state = (int)cfsr_iww_cpu_now(iw, cpu, &curr, &waiting);
	return (curr > 0) + waiting;
}

static bool bigger(const struct cfsr_place_decision *a, const struct cfsr_place_decision *b)
{
	return a->size > b->size || (a->size == b->size && a->ts < b->ts);
}

static void keep(struct cfsr_place *pl, const struct cfsr_place_decision *d)
{
	int k, worst;

	if (!pl->top_n)
		return;
	if (pl->nr_top < pl->top_n) {
		pl->top[pl->nr_top++] = *d;
		return;
	}
	for (worst = 0, k = 1; k < pl->nr_top; k++)
		if (bigger(&pl->top[worst], &pl->top[k]))
			worst = k;
	if (bigger(d, &pl->top[worst]))
		pl->top[worst] = *d;
}

/*
 * The rule for wakeups and forks.  Mirrors, for one LLC with every CPU in
 * it, select_idle_sibling() (wakeups) and find_idlest_cpu() (SD_BALANCE_FORK)
 * in kernel/sched/fair.c, v6.12-v6.18: both take an idle CPU the task is
 * allowed on when one exists (available_idle_cpu(): the idle task runs and
 * nothing is queued).  Without an idle CPU, select_idle_sibling() returns
 * its target, which wake_affine() chose between the previous and the
 * waker's CPU; find_idlest_group() compares group load with imbalance_pct.
 * Differs: no idle-state depth, no SIS_UTIL scan limit, no recent_used_cpu.
 */
static void judge_wake(const struct cfsr_place *pl, const struct cfsr_iww *iw,
		       struct cfsr_place_decision *d, int prio, int prev, int waker, bool fork)
{
	int c, st, nr, nr_to = 0, idle = -1, min_nr = -1, kcpu = cfsr_kthread_cpu(d->comm);
	bool unknown_aff = false;
	enum cfsr_allowed a;

	d->verdict = CFSR_CANNOT_JUDGE;
	if (prio >= 0 && prio < 100) {
		d->reason = CFSR_R_NOT_FAIR;
		return;
	}
	for (c = 0; c < pl->nr_cpus; c++) {
		nr = nr_running(iw, c, &st);
		if (st == CFSR_CPU_UNKNOWN) {
			d->reason = CFSR_R_STATE_UNKNOWN;
			return;
		}
		if (c == d->to_cpu)
			nr_to = nr;
		a = cfsr_iww_allowed(iw, d->pid, c);
		/* a task first named by this event: its name may bind it */
		if (kcpu >= 0 && cfsr_iww_affinity(iw, d->pid) == CFSR_AFF_ASSUMED)
			a = c == kcpu ? CFSR_ALLOWED_YES : CFSR_ALLOWED_NO;
		if (a == CFSR_ALLOWED_NO)
			continue;
		if (st == CFSR_CPU_IDLE) {
			if (a == CFSR_ALLOWED_UNKNOWN)
				unknown_aff = true;
			/* the previous CPU first, as select_idle_sibling() checks it early */
			else if (idle < 0 || c == prev)
				idle = c;
		}
		if (a == CFSR_ALLOWED_YES && (min_nr < 0 || nr < min_nr))
			min_nr = nr;
	}
	if (cfsr_iww_cpu_now(iw, d->to_cpu, &c, &nr) == CFSR_CPU_IDLE) {
		d->verdict = CFSR_AGREES;
		d->reason = CFSR_R_IDLE_CHOSEN;
	} else if (idle >= 0) {
		d->verdict = CFSR_DIVERGES;
		d->reason = CFSR_R_IDLE_SKIPPED;
		d->preferred_cpu = idle;
		d->size = nr_to;
	} else if (unknown_aff) {
		d->reason = CFSR_R_AFFINITY_UNKNOWN;
	} else if (fork) {
		if (nr_to <= min_nr) {
			d->verdict = CFSR_AGREES;
			d->reason = CFSR_R_FEWEST_TASKS;
		} else {
			d->reason = CFSR_R_LOAD_RULE;
		}
	} else if (d->to_cpu == prev || d->to_cpu == waker) {
		d->verdict = CFSR_AGREES;
		d->reason = CFSR_R_NO_IDLE_TARGET;
	} else {
		d->reason = CFSR_R_OTHER_TARGET;
	}
}

/*
 * A migration outside a wakeup.  The balancer (sched_balance_rq() in
 * kernel/sched/fair.c, v6.12-v6.18) detaches queued, not running, tasks
 * from the busiest CPU; when that CPU has more runnable tasks than the
 * destination (group_has_spare / migrate_task), moving one agrees.  A
 * move toward as many or more tasks can only come from the load rules
 * (migrate_load, imbalance_pct), which need cfs_rq load_avg: not judged.
 * A task that was not waiting moved by an affinity change or active
 * balance: not judged.
 */
static void judge_migrate(const struct cfsr_iww *iw, struct cfsr_place_decision *d, int prio)
{
	int st_src, st_dst, nr_src, nr_dst, curr, waiting;

	d->verdict = CFSR_CANNOT_JUDGE;
	if (prio >= 0 && prio < 100) {
		d->reason = CFSR_R_NOT_FAIR;
		return;
	}
	nr_src = nr_running(iw, d->from_cpu, &st_src);
	nr_dst = nr_running(iw, d->to_cpu, &st_dst);
	if (st_src == CFSR_CPU_UNKNOWN || st_dst == CFSR_CPU_UNKNOWN) {
		d->reason = CFSR_R_STATE_UNKNOWN;
		return;
	}
	cfsr_iww_cpu_now(iw, d->from_cpu, &curr, &waiting);
	if (curr == d->pid || !waiting) {
		d->reason = CFSR_R_NOT_WAITING;
		return;
	}
	if (nr_src > nr_dst) {
		d->verdict = CFSR_AGREES;
		d->reason = CFSR_R_PULL_FROM_BUSIER;
	} else {
		d->reason = CFSR_R_LOAD_BALANCE;
	}
}

static void fill_cpus(const struct cfsr_place *pl, const struct cfsr_iww *iw,
		      const struct cfsr_cpuload *cl, struct cfsr_place_decision *d)
{
	int c, st;

	d->nr_cpus = pl->nr_cpus < CFSR_PLACE_CPUS ? pl->nr_cpus : CFSR_PLACE_CPUS;
	for (c = 0; c < d->nr_cpus; c++) {
		d->cpus[c].cpu = c;
		d->cpus[c].nr_running = nr_running(iw, c, &st);
		d->cpus[c].state = st;
		d->cpus[c].load = cfsr_cpuload_now(cl, c);
	}
}

static bool wanted(const struct cfsr_place *pl, const struct cfsr_place_decision *d)
{
	if (d->ts < pl->win_start || d->ts >= pl->win_end)
		return false;
	if (pl->filter_pid >= 0 && d->pid != pl->filter_pid)
		return false;
	return pl->filter_cpu < 0 || d->from_cpu == pl->filter_cpu || d->to_cpu == pl->filter_cpu;
}

static void record(struct cfsr_place *pl, const struct cfsr_iww *iw, const struct cfsr_cpuload *cl,
		   struct cfsr_place_decision *d)
{
	if (!wanted(pl, d))
		return;
	pl->tot.n[d->kind][d->verdict]++;
	pl->tot.reasons[d->kind][d->reason]++;
	if (d->verdict != CFSR_DIVERGES)
		return;
	fill_cpus(pl, iw, cl, d);
	keep(pl, d);
}

static bool valid_cpu(const struct cfsr_place *pl, int cpu)
{
	return cpu >= 0 && cpu < pl->nr_cpus;
}

int cfsr_place_event(struct cfsr_place *pl, const struct cfsr_event *ev, const struct cfsr_iww *iw,
		     const struct cfsr_cpuload *cl)
{
	struct cfsr_place_decision d;
	struct pl_task *t;
	int prio, run_cpu, wait_cpu;
	bool waking;

	switch (ev->kind) {
	case CFSR_EV_WAKING:
		if (ev->wake.pid <= 0)
			return 0;
		t = pl_task_get(pl, ev->wake.pid);
		if (!t)
			return -1;
		t->waking = true;
		t->waker_cpu = ev->cpu;
		t->prev_cpu = ev->wake.target_cpu;
		return 0;
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		if (ev->wake.pid <= 0)
			return 0;
		t = pl_task_get(pl, ev->wake.pid);
		if (!t)
			return -1;
		waking = t->waking;
		t->waking = false;
		if (ev->wake.success == 0 || !valid_cpu(pl, ev->wake.target_cpu))
			return 0;
		/* still running or queued (ttwu_runnable()): nothing was placed */
		cfsr_iww_task_where(iw, ev->wake.pid, &run_cpu, &wait_cpu);
		if (run_cpu >= 0 || wait_cpu >= 0)
			return 0;
		memset(&d, 0, sizeof(d));
		d.ts = ev->ts;
		d.pid = ev->wake.pid;
		memcpy(d.comm, ev->wake.comm, sizeof(d.comm));
		d.to_cpu = ev->wake.target_cpu;
		d.preferred_cpu = -1;
		prio = ev->wake.prio;
		if (ev->kind == CFSR_EV_WAKEUP_NEW) {
			/* the parent forks on the CPU that records the event */
			d.kind = CFSR_PLACE_FORK;
			d.from_cpu = ev->cpu;
			judge_wake(pl, iw, &d, prio, -1, -1, true);
		} else {
			d.kind = CFSR_PLACE_WAKEUP;
			d.from_cpu = waking ? t->prev_cpu : -1;
			judge_wake(pl, iw, &d, prio, d.from_cpu, waking ? t->waker_cpu : ev->cpu,
				   false);
		}
		record(pl, iw, cl, &d);
		return 0;
	case CFSR_EV_MIGRATE:
		if (ev->migrate.pid <= 0 || !valid_cpu(pl, ev->migrate.orig_cpu) ||
		    !valid_cpu(pl, ev->migrate.dest_cpu))
			return 0;
		t = pl_task_get(pl, ev->migrate.pid);
		if (!t)
			return -1;
		if (t->waking)
			return 0; /* part of the wakeup: judged at sched_wakeup */
		memset(&d, 0, sizeof(d));
		d.ts = ev->ts;
		d.kind = CFSR_PLACE_MIGRATE;
		d.pid = ev->migrate.pid;
		memcpy(d.comm, ev->migrate.comm, sizeof(d.comm));
		d.from_cpu = ev->migrate.orig_cpu;
		d.to_cpu = ev->migrate.dest_cpu;
		d.preferred_cpu = -1;
		judge_migrate(iw, &d, ev->migrate.prio);
		record(pl, iw, cl, &d);
		return 0;
	default:
		return 0;
	}
}

struct cfsr_place *cfsr_place_new(int nr_cpus, int top_n, uint64_t win_start, uint64_t win_end,
				  int filter_cpu, int filter_pid)
{
	struct cfsr_place *pl = calloc(1, sizeof(*pl));

	if (!pl || top_n < 0)
		goto fail;
	pl->top = calloc((size_t)top_n + 1, sizeof(*pl->top));
	if (!pl->top)
		goto fail;
	pl->nr_cpus = nr_cpus;
	pl->top_n = top_n;
	pl->win_start = win_start;
	pl->win_end = win_end;
	pl->filter_cpu = filter_cpu;
	pl->filter_pid = filter_pid;
	return pl;
fail:
	cfsr_place_free(pl);
	cfsr_error("out of memory for the placement audit");
	return NULL;
}

void cfsr_place_free(struct cfsr_place *pl)
{
	if (!pl)
		return;
	free(pl->tasks);
	cfsr_pidmap_release(&pl->map);
	free(pl->top);
	free(pl);
}

const struct cfsr_place_totals *cfsr_place_totals(const struct cfsr_place *pl)
{
	return &pl->tot;
}

static int cmp_decision(const void *a, const void *b)
{
	const struct cfsr_place_decision *x = a, *y = b;

	if (bigger(x, y))
		return -1;
	return bigger(y, x) ? 1 : 0;
}

int cfsr_place_top(struct cfsr_place *pl, const struct cfsr_place_decision **d)
{
	qsort(pl->top, (size_t)pl->nr_top, sizeof(*pl->top), cmp_decision);
	*d = pl->top;
	return pl->nr_top;
}

const char *cfsr_place_kind_name(enum cfsr_place_kind k)
{
	static const char *const names[] = { "wakeup", "fork", "migration" };

	return (unsigned int)k < CFSR_PLACE_NR_KINDS ? names[k] : "?";
}

const char *cfsr_verdict_name(enum cfsr_verdict v)
{
	static const char *const names[] = { "agrees", "diverges", "cannot-judge" };

	return (unsigned int)v < CFSR_NR_VERDICTS ? names[v] : "?";
}

const char *cfsr_place_reason_id(enum cfsr_place_reason r)
{
	static const char *const ids[] = {
#define X(e, id, text) id,
		CFSR_PLACE_REASONS
#undef X
	};

	return (unsigned int)r < CFSR_NR_REASONS ? ids[r] : "?";
}

const char *cfsr_place_reason_text(enum cfsr_place_reason r)
{
	static const char *const texts[] = {
#define X(e, id, text) text,
		CFSR_PLACE_REASONS
#undef X
	};

	return (unsigned int)r < CFSR_NR_REASONS ? texts[r] : "?";
}

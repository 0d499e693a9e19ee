// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placement audit (see placement.h).  Per task, the audit remembers an
 * open wakeup: the waker's CPU and the task's previous CPU from
 * sched_waking, so that sched_wakeup can be judged and a migration between
 * the two is known to belong to the wakeup.  Per CPU it remembers the task
 * switched in last, so that a move made by the migration stopper is known;
 * such a move of the task that was switched out for the stopper waits,
 * judged both ways, until the task's sched_process_exec makes it an exec
 * placement or something else makes it a migration.  The diverging
 * decisions are kept in a fixed array of the largest N.
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
	/* a stopper move of it waits for its exec (struct pl_pending) */
	bool pending;
	/* it entered sched_setaffinity() for itself: its next stopper move is that */
	bool setaffinity;
};

/* A stopper move, judged as an exec placement and as a migration. */
struct pl_pending {
	struct cfsr_place_decision exec;
	struct cfsr_place_decision migrate;
};

/* The task a CPU runs, as its last sched_switch says. */
struct pl_cpu {
	int pid;
	int prio;
	char comm[CFSR_COMM_LEN];
	/* the task switched out for it, still runnable, or 0 */
	int prev;
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
	/* the topology judged by: @own (one LLC) unless one was set */
	const struct cfsr_topo *topo;
	struct cfsr_topo own;
	/* scratch per CPU: the CPUs a rule looks at, and per group its counts */
	bool *scope;
	bool *other;
	int *g_idle;
	int *g_nr;
	int *g_allowed;
	struct pl_cpu *cpu;
	/* the loads of the event being judged, whose engine answers sched_idle_cpu() */
	const struct cfsr_cpuload *cl;
	struct pl_pending *pending;
	size_t nr_pending;
	size_t alloc_pending;
	/*
	 * an exec placement is judged with its task taken off its CPU
	 * (update_sg_wakeup_stats()' *_without()): that CPU's count and
	 * state then, @self_cpu -1 none
	 */
	int self_cpu;
	int self_nr;
	int self_st;
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
	t->pending = false;
	t->setaffinity = false;
	return t;
}

static int nr_running(const struct cfsr_place *pl, const struct cfsr_iww *iw, int cpu, int *state)
{
	int curr, waiting;

	if (cpu == pl->self_cpu) {
		*state = pl->self_st;
		return pl->self_nr;
	}
	*state = (int)cfsr_iww_cpu_now(iw, cpu, &curr, &waiting);
	return (curr > 0) + waiting;
}

/*
 * Whether the fast path's scan and find_idlest_group_cpu() take @cpu, in
 * state @st, as idle (kernel/sched/fair.c, v5.4-v6.18): available_idle_cpu()
 * -- the idle task runs, nothing waits -- or sched_idle_cpu(), the CPU's
 * fair work all SCHED_IDLE or under idle groups (h_nr_idle, the engine's,
 * cfsr_replay_sched_idle_cpu(), by its profile).  Not find_idlest_group()'s
 * count of idle CPUs (update_sg_wakeup_stats(): idle_cpu() only).
 */
static bool takes_idle(const struct cfsr_place *pl, int cpu, int st)
{
	if (st == CFSR_CPU_IDLE)
		return true;
	return st != CFSR_CPU_UNKNOWN && pl->cl && cfsr_cpuload_sched_idle(pl->cl, cpu);
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

/* Whether @pid may run on @c, a task first named by this event bound by its name. */
static enum cfsr_allowed allowed_on(const struct cfsr_iww *iw, const struct cfsr_place_decision *d,
				    int kcpu, int c)
{
	if (kcpu >= 0 && cfsr_iww_affinity(iw, d->pid) == CFSR_AFF_ASSUMED)
		return c == kcpu ? CFSR_ALLOWED_YES : CFSR_ALLOWED_NO;
	return cfsr_iww_allowed(iw, d->pid, c);
}

/*
 * The last step of both rules, over the CPUs of @scope: an idle CPU the
 * task is allowed on when one exists (available_idle_cpu(): the idle task
 * runs and nothing is queued; or sched_idle_cpu(), takes_idle()), the
 * previous CPU first, as
 * select_idle_sibling() checks it early; without one, the target the
 * caller names (@prev or @waker for a wakeup: select_idle_sibling()
 * returns its target), or for a fork the CPU with the fewest tasks
 * (find_idlest_group_cpu() compares cpu_load(), not modelled).  Sets
 * @d's verdict and reason.
 */
static void judge_scope(const struct cfsr_place *pl, const struct cfsr_iww *iw,
			struct cfsr_place_decision *d, const bool *scope, int prev, int waker,
			bool fork)
{
	int c, st, nr, nr_to = 0, idle = -1, min_nr = -1, kcpu = cfsr_kthread_cpu(d->comm);
	bool unknown_aff = false;
	enum cfsr_allowed a;

	for (c = 0; c < pl->nr_cpus; c++) {
		if (!scope[c])
			continue;
		nr = nr_running(pl, iw, c, &st);
		if (c == d->to_cpu)
			nr_to = nr;
		a = allowed_on(iw, d, kcpu, c);
		if (a == CFSR_ALLOWED_NO)
			continue;
		if (takes_idle(pl, c, st)) {
			if (a == CFSR_ALLOWED_UNKNOWN)
				unknown_aff = true;
			else if (idle < 0 || c == prev)
				idle = c;
		}
		if (a == CFSR_ALLOWED_YES && (min_nr < 0 || nr < min_nr))
			min_nr = nr;
	}
	if ((nr_running(pl, iw, d->to_cpu, &st), takes_idle(pl, d->to_cpu, st))) {
		d->verdict = CFSR_AGREES;
		d->reason = CFSR_R_IDLE_CHOSEN;
	} else if (idle >= 0) {
		d->verdict = CFSR_DIVERGES;
		d->reason = CFSR_R_IDLE_SKIPPED;
		d->preferred_cpu = idle;
		d->size = nr_to;
	} else if (unknown_aff) {
		d->reason = CFSR_R_AFFINITY_UNKNOWN;
	} else if (fork && min_nr < 0) {
		/* no CPU the task is known to be allowed on: its mask decides */
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

/* Any CPU of @scope in an unknown state. */
static bool scope_unknown(const struct cfsr_place *pl, const struct cfsr_iww *iw, const bool *scope)
{
	int c, st;

	for (c = 0; c < pl->nr_cpus; c++)
		if (scope[c] && (nr_running(pl, iw, c, &st), st == CFSR_CPU_UNKNOWN))
			return true;
	return false;
}

/* An allowed idle CPU in @scope (-1 none). */
static int scope_idle(const struct cfsr_place *pl, const struct cfsr_iww *iw,
		      const struct cfsr_place_decision *d, const bool *scope)
{
	int c, st, kcpu = cfsr_kthread_cpu(d->comm);

	for (c = 0; c < pl->nr_cpus; c++)
		if (scope[c] && (nr_running(pl, iw, c, &st), takes_idle(pl, c, st)) &&
		    allowed_on(iw, d, kcpu, c) == CFSR_ALLOWED_YES)
			return c;
	return -1;
}

/*
 * A wakeup, by the fast path of select_task_rq_fair() (kernel/sched/fair.c;
 * read in v5.7, the same steps through v6.18): wake_affine() chooses the
 * target between the previous CPU and the waker's when they differ (its
 * sync flag, wake_wide() and loads are not modelled), then
 * select_idle_sibling(p, prev, target) returns the target if idle, the
 * previous CPU if it shares the target's cache (cpus_share_cache()) and is
 * idle, recent_used_cpu if it shares it, else scans sd_llc of the target
 * (select_idle_cpu()/select_idle_core()) and falls back to the target.  So
 * the CPU chosen lies in the LLC of the previous or the waker's CPU, the
 * target's; an idle CPU in another LLC is no missed sibling.  When the two
 * LLCs differ, the LLC of the CPU chosen says which target wake_affine()
 * took; a busy choice while the other LLC had an idle CPU is its call
 * (wake-affine), not judged.  With the LLC unknown every CPU is in one.
 */
static void judge_wakeup(const struct cfsr_place *pl, const struct cfsr_iww *iw,
			 struct cfsr_place_decision *d, int prev, int waker)
{
	const struct cfsr_topo *t = pl->topo;
	bool *scope = pl->scope, *other = pl->other;
	int c, tgt_llc = t->llc[d->to_cpu];
	bool cross = prev >= 0 && waker >= 0 && !cfsr_topo_share_llc(t, prev, waker);

	if (prev >= 0 && !cfsr_topo_share_llc(t, prev, d->to_cpu) &&
	    !(waker >= 0 && cfsr_topo_share_llc(t, waker, d->to_cpu))) {
		d->reason = CFSR_R_OUTSIDE_LLC;
		return;
	}
	for (c = 0; c < pl->nr_cpus; c++) {
		scope[c] = t->llc[c] == tgt_llc;
		other[c] = cross && !scope[c] &&
			   (cfsr_topo_share_llc(t, c, prev) || cfsr_topo_share_llc(t, c, waker));
	}
	if (scope_unknown(pl, iw, scope) || scope_unknown(pl, iw, other)) {
		d->reason = CFSR_R_STATE_UNKNOWN;
		return;
	}
	judge_scope(pl, iw, d, scope, prev, waker, false);
	if (d->reason == CFSR_R_NO_IDLE_TARGET && cross && scope_idle(pl, iw, d, other) >= 0) {
		d->verdict = CFSR_CANNOT_JUDGE;
		d->reason = CFSR_R_WAKE_AFFINE;
	}
}

/*
 * A fork, by find_idlest_cpu() for SD_BALANCE_FORK (kernel/sched/fair.c;
 * read in v5.7, the same rule through v6.18): from the parent's highest
 * domain down, find_idlest_group() compares the groups (the spans of the
 * level below) by update_sg_wakeup_stats(): a group with fewer tasks than
 * CPUs has spare capacity (group_classify(): group_has_spare), and among
 * those the non-local group with the most idle CPUs is the idlest; the
 * local group (the parent's CPU's, then the CPU find_idlest_group_cpu()
 * chose) keeps the task when it has as many (update_pick_idlest(),
 * group_has_spare case).  A group with as many tasks as CPUs or more needs
 * utilization to be classed (load-rule).  Where find_idlest_group_cpu()
 * picked among several idle CPUs (idle-state depth), the local group below
 * is unknown and any group with the most idle CPUs is accepted.  The
 * lowest level is judge_scope()'s.
 */
static void judge_fork(const struct cfsr_place *pl, const struct cfsr_iww *iw,
		       struct cfsr_place_decision *d, int parent, unsigned int sd_flag)
{
	const struct cfsr_topo *t = pl->topo;
	bool *scope = pl->scope;
	int *idle = pl->g_idle, *nr = pl->g_nr, *allowed = pl->g_allowed;
	int c, st, lv, local = parent, kcpu = cfsr_kthread_cpu(d->comm);
	int top = cfsr_topo_top_with(t, sd_flag);

	/*
	 * select_task_rq_fair() (v5.7-v6.18): sd is the highest of the levels
	 * from the lowest up that have the flag; none, and the task stays on
	 * its CPU (prev_cpu: the parent's for a fork, its own for an exec)
	 */
	if (top < 0) {
		d->reason = CFSR_R_NO_BALANCE;
		d->verdict = parent < 0		 ? CFSR_CANNOT_JUDGE :
			     d->to_cpu == parent ? CFSR_AGREES :
						   CFSR_DIVERGES;
		d->preferred_cpu = d->verdict == CFSR_DIVERGES ? parent : -1;
		return;
	}
	for (c = 0; c < pl->nr_cpus; c++)
		scope[c] = parent < 0 || t->levels[top].span[c] == t->levels[top].span[parent];
	if (!scope[d->to_cpu]) {
		d->verdict = CFSR_DIVERGES;
		d->reason = CFSR_R_OUTSIDE_DOMAIN;
		return;
	}
	if (scope_unknown(pl, iw, scope)) {
		d->reason = CFSR_R_STATE_UNKNOWN;
		return;
	}
	for (lv = top; lv >= 1; lv--) {
		const struct cfsr_topo_level *below = &t->levels[lv - 1];
		int best = -1, best_idle = -1, g, to_g = below->span[d->to_cpu];

		for (c = 0; c < pl->nr_cpus; c++)
			idle[c] = nr[c] = allowed[c] = 0;
		for (c = 0; c < pl->nr_cpus; c++) {
			if (!scope[c])
				continue;
			g = below->span[c];
			nr[g] += nr_running(pl, iw, c, &st);
			idle[g] += st == CFSR_CPU_IDLE;
			switch (allowed_on(iw, d, kcpu, c)) {
			case CFSR_ALLOWED_YES:
				allowed[g] |= 1;
				break;
			case CFSR_ALLOWED_UNKNOWN:
				allowed[g] |= 2;
				break;
			default:
				break;
			}
		}
		for (c = 0; c < pl->nr_cpus; c++) {
			if (!scope[c] || below->span[c] != c || !allowed[c])
				continue;
			if (allowed[c] & 2) {
				d->reason = CFSR_R_AFFINITY_UNKNOWN;
				return;
			}
			if (idle[c] > best_idle) {
				best = c;
				best_idle = idle[c];
			}
		}
		if (best < 0)
			break;
		/*
		 * A group with as many tasks as CPUs is classed by its
		 * utilization: it matters when it has an idle CPU, or when no
		 * group has one (then every group's avg_load decides).
		 */
		for (c = 0; c < pl->nr_cpus; c++)
			if (scope[c] && below->span[c] == c && allowed[c] &&
			    nr[c] >= below->weight[c] && (idle[c] || !best_idle)) {
				d->reason = CFSR_R_LOAD_RULE;
				return;
			}
		/* the local group keeps the task when it has as many idle CPUs */
		if (local >= 0 && allowed[below->span[local]] &&
		    idle[below->span[local]] >= best_idle)
			best = below->span[local];
		if (!allowed[to_g] || idle[to_g] < best_idle ||
		    (local >= 0 && to_g != best && best == below->span[local])) {
			d->verdict = CFSR_DIVERGES;
			d->reason = CFSR_R_IDLER_GROUP;
			for (c = 0; c < pl->nr_cpus && d->preferred_cpu < 0; c++)
				if (below->span[c] == best &&
				    (nr_running(pl, iw, c, &st), st == CFSR_CPU_IDLE))
					d->preferred_cpu = c;
			d->size = idle[best] - idle[to_g];
			return;
		}
		if (local >= 0 && below->span[local] != to_g)
			local = -1;
		for (c = 0; c < pl->nr_cpus; c++)
			scope[c] = scope[c] && below->span[c] == to_g;
	}
	judge_scope(pl, iw, d, scope, -1, -1, true);
}

/*
 * The wakeup path of select_task_rq_fair() (v5.7-v6.18) as the domains'
 * flags shape it: want_affine picks the waker's CPU as a target only
 * through a domain of the waker's CPU with SD_WAKE_AFFINE that spans the
 * previous CPU (else the target is the previous CPU); a domain with
 * SD_BALANCE_WAKE (off by default) can send the wakeup to the slow path,
 * find_idlest_cpu(), which the fast-path rule does not judge.
 */
static bool wake_affine_ok(const struct cfsr_topo *t, int prev, int waker)
{
	int lv;

	if (prev < 0 || waker < 0 || prev == waker)
		return true;
	for (lv = 0; lv < t->nr_levels; lv++)
		if ((t->levels[lv].flags & CFSR_SD_WAKE_AFFINE) &&
		    t->levels[lv].span[prev] == t->levels[lv].span[waker])
			return true;
	return false;
}

static void judge_wake(const struct cfsr_place *pl, const struct cfsr_iww *iw,
		       struct cfsr_place_decision *d, int prio, int prev, int waker,
		       unsigned int sd_flag)
{
	int lv;

	d->verdict = CFSR_CANNOT_JUDGE;
	if (prio >= 0 && prio < 100) {
		d->reason = CFSR_R_NOT_FAIR;
		return;
	}
	if (sd_flag) {
		judge_fork(pl, iw, d, d->from_cpu, sd_flag);
		return;
	}
	for (lv = 0; lv < pl->topo->nr_levels; lv++)
		if (pl->topo->levels[lv].flags & CFSR_SD_BALANCE_WAKE) {
			d->reason = CFSR_R_BALANCE_WAKE;
			return;
		}
	prev = prev >= 0 && prev < pl->nr_cpus ? prev : -1;
	waker = waker >= 0 && waker < pl->nr_cpus ? waker : -1;
	judge_wakeup(pl, iw, d, prev, wake_affine_ok(pl->topo, prev, waker) ? waker : -1);
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
static void judge_migrate(const struct cfsr_place *pl, const struct cfsr_iww *iw,
			  struct cfsr_place_decision *d, int prio)
{
	int st_src, st_dst, nr_src, nr_dst, curr, waiting;

	d->verdict = CFSR_CANNOT_JUDGE;
	if (prio >= 0 && prio < 100) {
		d->reason = CFSR_R_NOT_FAIR;
		return;
	}
	nr_src = nr_running(pl, iw, d->from_cpu, &st_src);
	nr_dst = nr_running(pl, iw, d->to_cpu, &st_dst);
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
		d->cpus[c].nr_running = nr_running(pl, iw, c, &st);
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

/* Count @d; a divergence is kept with the CPUs as @iw and @cl give them (NULL: as filled). */
static void record(struct cfsr_place *pl, const struct cfsr_iww *iw, const struct cfsr_cpuload *cl,
		   struct cfsr_place_decision *d)
{
	if (!wanted(pl, d))
		return;
	pl->tot.n[d->kind][d->verdict]++;
	pl->tot.reasons[d->kind][d->reason]++;
	if (d->stayed)
		pl->tot.exec_stayed[d->verdict]++;
	if (d->verdict != CFSR_DIVERGES)
		return;
	if (iw)
		fill_cpus(pl, iw, cl, d);
	keep(pl, d);
}

/*
 * A move made by the migration stopper (migration_cpu_stop(),
 * kernel/sched/core.c): the CPU runs its stopper (the stop class, prio 0
 * as sched_switch shows it, named migration/N), and the task moved is the
 * one switched out for it, still runnable: the task asked for the move
 * itself, stop_one_cpu() from sched_exec() or from a change of its own
 * affinity (set_cpus_allowed_ptr(), which a sched_setaffinity() entry of
 * the task's own shows).  Active balancing moves a running task another
 * CPU's balancer chose: not the one that woke the stopper.
 */
static bool stopper_move(struct cfsr_place *pl, const struct cfsr_event *ev, struct pl_task *t)
{
	const struct pl_cpu *c = &pl->cpu[ev->migrate.orig_cpu];
	bool aff = t->setaffinity;

	t->setaffinity = false;
	return ev->cpu == ev->migrate.orig_cpu && c->prio < 100 &&
	       !strncmp(c->comm, "migration/", 10) && c->prev == ev->migrate.pid && !aff;
}

/* The pending stopper move of @t, counted as what it turned out to be. */
static void settle_pending(struct cfsr_place *pl, struct pl_task *t, bool exec)
{
	size_t i;

	if (!t->pending)
		return;
	t->pending = false;
	for (i = 0; i < pl->nr_pending && pl->pending[i].exec.pid != t->pid; i++)
		;
	if (i == pl->nr_pending)
		return;
	record(pl, NULL, NULL, exec ? &pl->pending[i].exec : &pl->pending[i].migrate);
	pl->pending[i] = pl->pending[--pl->nr_pending];
}

/*
 * A stopper move of the task that woke it: judged now as a migration (@mig)
 * and as sched_exec()'s placement, and counted as one of them later.
 * sched_exec() (kernel/sched/core.c, before v3.8 through v6.18, whose
 * kernel exports it) calls select_task_rq() with SD_BALANCE_EXEC (WF_EXEC
 * from v5.10) for the running task: select_task_rq_fair() takes the
 * highest domain with SD_BALANCE_EXEC and find_idlest_cpu() there, the
 * walk a fork takes (judge_fork(), the local group the task's CPU's);
 * update_sg_wakeup_stats() counts that CPU without the task
 * (cpu_load_without(), idle_cpu_without()), so its count here is its
 * waiting tasks less the task (the stopper aside).  bprm_execve() (fs/exec.c)
 * calls sched_exec() before exec_binprm() fires sched_process_exec, so the
 * move comes first and the exec event confirms it.
 */
static int exec_pending(struct cfsr_place *pl, const struct cfsr_iww *iw,
			const struct cfsr_cpuload *cl, struct pl_task *t,
			const struct cfsr_place_decision *mig, int prio)
{
	struct pl_pending *p;
	int curr, waiting, st;

	settle_pending(pl, t, false);
	if (CFSR_ALLOC_GROW(pl->pending, pl->nr_pending + 1, pl->alloc_pending) < 0)
		return cfsr_error("out of memory for the placement audit");
	p = &pl->pending[pl->nr_pending++];
	p->migrate = *mig;
	fill_cpus(pl, iw, cl, &p->migrate);
	p->exec = *mig;
	p->exec.kind = CFSR_PLACE_EXEC;
	p->exec.verdict = CFSR_CANNOT_JUDGE;
	p->exec.preferred_cpu = -1;
	p->exec.size = 0;
	st = (int)cfsr_iww_cpu_now(iw, mig->from_cpu, &curr, &waiting);
	pl->self_cpu = mig->from_cpu;
	pl->self_nr = waiting > 0 ? waiting - 1 : 0;
	pl->self_st = st == CFSR_CPU_UNKNOWN ? st : pl->self_nr ? CFSR_CPU_BUSY : CFSR_CPU_IDLE;
	judge_wake(pl, iw, &p->exec, prio, -1, -1, CFSR_SD_BALANCE_EXEC);
	pl->self_cpu = -1;
	fill_cpus(pl, iw, cl, &p->exec);
	t->pending = true;
	return 0;
}

static bool valid_cpu(const struct cfsr_place *pl, int cpu)
{
	return cpu >= 0 && cpu < pl->nr_cpus;
}

/*
 * A sched_process_exec that no stopper move of its task preceded: the
 * task stayed on the CPU that records the event.  sched_exec()
 * (kernel/sched/core.c, v3.8-v6.18) calls the class's select_task_rq()
 * directly (no nr_cpus_allowed test) with SD_BALANCE_EXEC (WF_EXEC from
 * v5.10) and returns without a move when dest_cpu == smp_processor_id()
 * (or, rarely, when dest_cpu is not active); select_task_rq_fair()'s
 * find_idlest_cpu() only looks at groups the task's affinity allows, so a
 * task allowed on its CPU alone stays.  The choice is judged as the move
 * is (exec_pending()), with the task's CPU counted without it, at the
 * instant of the exec event: sched_exec() ran earlier in the same execve()
 * (bprm_execve() before exec_binprm()), an instant no event marks.  The
 * task must be the one the CPU runs (else the CPU's state is unknown).
 * Differs: the CPU states are those of the exec event, not of the
 * sched_exec() call before it.
 */
static void exec_stay(struct cfsr_place *pl, const struct cfsr_iww *iw,
		      const struct cfsr_cpuload *cl, const struct cfsr_event *ev, int pid)
{
	const struct pl_cpu *c = &pl->cpu[ev->cpu];
	struct cfsr_place_decision d;
	int curr, waiting, st;

	memset(&d, 0, sizeof(d));
	d.ts = ev->ts;
	d.kind = CFSR_PLACE_EXEC;
	d.pid = pid;
	d.from_cpu = d.to_cpu = ev->cpu;
	d.preferred_cpu = -1;
	d.verdict = CFSR_CANNOT_JUDGE;
	d.reason = CFSR_R_STATE_UNKNOWN;
	d.stayed = true;
	st = (int)cfsr_iww_cpu_now(iw, ev->cpu, &curr, &waiting);
	if (c->pid == pid)
		memcpy(d.comm, c->comm, sizeof(d.comm));
	if (st != CFSR_CPU_UNKNOWN && curr == pid && c->pid == pid) {
		pl->self_cpu = ev->cpu;
		pl->self_nr = waiting;
		pl->self_st = waiting ? CFSR_CPU_BUSY : CFSR_CPU_IDLE;
		judge_wake(pl, iw, &d, c->prio, -1, -1, CFSR_SD_BALANCE_EXEC);
		pl->self_cpu = -1;
	}
	record(pl, iw, cl, &d);
}

int cfsr_place_event(struct cfsr_place *pl, const struct cfsr_event *ev, const struct cfsr_iww *iw,
		     const struct cfsr_cpuload *cl)
{
	struct cfsr_place_decision d;
	struct pl_task *t;
	int prio, run_cpu, wait_cpu;
	bool waking, moved;

	pl->cl = cl;
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		if (!valid_cpu(pl, ev->cpu))
			return 0;
		pl->cpu[ev->cpu].pid = ev->sw.next_pid;
		pl->cpu[ev->cpu].prio = ev->sw.next_prio;
		memcpy(pl->cpu[ev->cpu].comm, ev->sw.next_comm, sizeof(pl->cpu[ev->cpu].comm));
		pl->cpu[ev->cpu].prev =
			ev->sw.prev_pid > 0 && !ev->sw.prev_state ? ev->sw.prev_pid : 0;
		return 0;
	case CFSR_EV_EXEC:
	case CFSR_EV_EXIT:
		/* a thread that execs in a thread group takes its leader's pid: old_pid is its own */
		t = ev->kind != CFSR_EV_EXEC ? pl_task_get(pl, ev->exit.pid) :
		    ev->exec.old_pid > 0     ? pl_task_get(pl, ev->exec.old_pid) :
					       pl_task_get(pl, ev->exec.pid);
		if (!t)
			return -1;
		moved = t->pending;
		settle_pending(pl, t, ev->kind == CFSR_EV_EXEC);
		t->setaffinity = false;
		if (ev->kind == CFSR_EV_EXEC && !moved && valid_cpu(pl, ev->cpu))
			exec_stay(pl, iw, cl, ev, t->pid);
		return 0;
	case CFSR_EV_SETAFFINITY:
		t = pl_task_get(pl, ev->affinity.pid > 0 ? ev->affinity.pid : ev->pid);
		if (!t)
			return -1;
		t->setaffinity = true;
		return 0;
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
			judge_wake(pl, iw, &d, prio, -1, -1, CFSR_SD_BALANCE_FORK);
		} else {
			d.kind = CFSR_PLACE_WAKEUP;
			d.from_cpu = waking ? t->prev_cpu : -1;
			judge_wake(pl, iw, &d, prio, d.from_cpu, waking ? t->waker_cpu : ev->cpu,
				   0);
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
		settle_pending(pl, t, false);
		memset(&d, 0, sizeof(d));
		d.ts = ev->ts;
		d.kind = CFSR_PLACE_MIGRATE;
		d.pid = ev->migrate.pid;
		memcpy(d.comm, ev->migrate.comm, sizeof(d.comm));
		d.from_cpu = ev->migrate.orig_cpu;
		d.to_cpu = ev->migrate.dest_cpu;
		d.preferred_cpu = -1;
		judge_migrate(pl, iw, &d, ev->migrate.prio);
		if (stopper_move(pl, ev, t))
			return exec_pending(pl, iw, cl, t, &d, ev->migrate.prio);
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
	if (cfsr_topo_init_llc(&pl->own, nr_cpus, NULL) < 0)
		goto fail;
	pl->topo = &pl->own;
	pl->scope = calloc((size_t)pl->own.nr_cpus, sizeof(bool));
	pl->other = calloc((size_t)pl->own.nr_cpus, sizeof(bool));
	pl->g_idle = calloc((size_t)pl->own.nr_cpus, sizeof(int));
	pl->g_nr = calloc((size_t)pl->own.nr_cpus, sizeof(int));
	pl->g_allowed = calloc((size_t)pl->own.nr_cpus, sizeof(int));
	pl->cpu = calloc((size_t)pl->own.nr_cpus, sizeof(*pl->cpu));
	if (!pl->scope || !pl->other || !pl->g_idle || !pl->g_nr || !pl->g_allowed || !pl->cpu)
		goto fail;
	pl->self_cpu = -1;
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
	cfsr_topo_release(&pl->own);
	free(pl->scope);
	free(pl->other);
	free(pl->g_idle);
	free(pl->g_nr);
	free(pl->g_allowed);
	free(pl->cpu);
	free(pl->pending);
	free(pl);
}

void cfsr_place_finish(struct cfsr_place *pl)
{
	while (pl->nr_pending) {
		struct pl_task *t = pl_task_get(pl, pl->pending[0].exec.pid);

		if (!t)
			return;
		t->pending = true;
		settle_pending(pl, t, false);
	}
}

void cfsr_place_set_topo(struct cfsr_place *pl, const struct cfsr_topo *t)
{
	if (t && t->nr_cpus == pl->own.nr_cpus)
		pl->topo = t;
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
	static const char *const names[] = { "wakeup", "fork", "migration", "exec" };

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

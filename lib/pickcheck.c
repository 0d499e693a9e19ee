// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pick check (see pickcheck.h).  In the report it asks the per-CPU
 * load's replay engine (lib/cpuload.c) at each sched_switch before that
 * engine replays it, so loads and picks come from one model of the run
 * queues; alone (the unit tests) it drives an engine of its own.  Per CPU it
 * keeps whether the CPU's state is known and the deadline its current task
 * had when it was switched in, which RUN_TO_PARITY reads.
 */
#include <stdlib.h>
#include <string.h>

#include "cfspick.h"
#include "error.h"
#include "pickcheck.h"
#include "alloc.h"
#include "pidmap.h"
#include "pidset.h"
#include "weight.h"

struct pc_cpu {
	/* a switch was seen since the start or the last lost-events notice */
	bool known;
	/* the task switched in last, and its deadline then (set_next_entity()) */
	int pick_pid;
	uint64_t pick_deadline;
	/* CFS profiles: the buddies its cfs_rq may hold */
	struct cfsr_cfs_buddies buddies;
	/*
	 * with buddies.unknown: the tasks picked or dequeued here since,
	 * whose buddy marks from before are gone (clear_buddies())
	 */
	struct cfsr_pidset settled;
	struct cfsr_pick_cpu n;
	/*
	 * EEVDF with task groups, by group (its cfs_rq on this CPU):
	 * @next_of: the group whose entity is that cfs_rq's next buddy, 0 none;
	 * @set_dl: the group's entity's deadline at its last set_next_entity(),
	 * @set_known: whether one was seen; @nr_groups: the arrays' size
	 */
	int *next_of;
	uint64_t *set_dl;
	bool *set_known;
	size_t nr_groups;
	/* the engine, for the callbacks of cfsr_pick_query, and the CPU */
	const struct cfsr_replay *r;
	int cpu;
	/* the pick asked at the last switch here, if it answered (for the group state) */
	struct cfsr_pick last;
	bool last_ok;
};

struct cfsr_pickcheck {
	struct cfsr_pickcheck_params p;
	struct cfsr_replay *r;
	struct pc_cpu *cpus;
	uint64_t reasons[CFSR_PR_NR];
	struct cfsr_pick_div *top;
	size_t nr_top;
	/* the engine is the per-CPU load's (p.cl), not the check's own */
	bool borrowed;
	bool groups_known;
	/* ... from a perf.data's cgroups (--perf-cgroups=cpu) */
	bool groups_perf;
	/* cgroup attach events put tasks in groups (when no snapshot gave them) */
	uint64_t attaches;
	/* with a borrowed engine: the cgroup path an attach event gave each task */
	struct cfsr_pidmap attached;
	char **paths;
	size_t nr_paths;
	size_t alloc_paths;
};

static const struct {
	const char *key;
	char cls;
	const char *text;
} reasons[] = {
#define X(id, k, c, t) [id] = { k, c, t },
	CFSR_PICK_REASONS
#undef X
};

const char *cfsr_pick_reason_key(enum cfsr_pick_reason why)
{
	return why < CFSR_PR_NR ? reasons[why].key : "?";
}

char cfsr_pick_reason_class(enum cfsr_pick_reason why)
{
	return why < CFSR_PR_NR ? reasons[why].cls : '?';
}

const char *cfsr_pick_reason_text(enum cfsr_pick_reason why)
{
	return why < CFSR_PR_NR ? reasons[why].text : "?";
}

int cfsr_pick_agree_permille(uint64_t agrees, uint64_t contested)
{
	if (!contested || agrees > contested)
		return -1;
	return (int)((agrees * 2000 + contested) / (contested * 2));
}

struct cfsr_pickcheck *cfsr_pickcheck_new(const struct cfsr_pickcheck_params *p)
{
	struct cfsr_pickcheck *pc = calloc(1, sizeof(*pc));
	int c;

	if (!pc)
		goto oom;
	pc->p = *p;
	if (pc->p.top < 0)
		pc->p.top = 0;
	pc->cpus = calloc((size_t)p->nr_cpus, sizeof(*pc->cpus));
	pc->top = calloc((size_t)pc->p.top + 1, sizeof(*pc->top));
	if (!pc->cpus || !pc->top)
		goto oom;
	for (c = 0; c < p->nr_cpus; c++)
		/* set before the trace began: not known until the CPU idles */
		pc->cpus[c].buddies.unknown = true;
	pc->borrowed = p->cl || p->engine;
	pc->r = p->cl	  ? cfsr_cpuload_engine(p->cl) :
		p->engine ? p->engine :
			    cfsr_replay_new(p->nr_cpus, p->prof, p->hz);
	if (!pc->r) {
		cfsr_pickcheck_free(pc);
		cfsr_error("cannot make the pick check's replay engine");
		return NULL;
	}
	for (c = 0; c < p->nr_cpus; c++) {
		pc->cpus[c].r = pc->r;
		pc->cpus[c].cpu = c;
	}
	return pc;
oom:
	cfsr_pickcheck_free(pc);
	cfsr_error("out of memory for the pick check");
	return NULL;
}

void cfsr_pickcheck_free(struct cfsr_pickcheck *pc)
{
	int c;

	if (!pc)
		return;
	if (!pc->borrowed)
		cfsr_replay_free(pc->r);
	cfsr_pidmap_release(&pc->attached);
	for (c = 0; pc->cpus && c < pc->p.nr_cpus; c++) {
		cfsr_pidset_release(&pc->cpus[c].settled);
		free(pc->cpus[c].next_of);
		free(pc->cpus[c].set_dl);
		free(pc->cpus[c].set_known);
	}
	while (pc->nr_paths)
		free(pc->paths[--pc->nr_paths]);
	free(pc->paths);
	free(pc->cpus);
	free(pc->top);
	free(pc);
}

/* Keep @d if it is among the --top largest (memory fixed by --top). */
static void keep_div(struct cfsr_pickcheck *pc, const struct cfsr_pick_div *d)
{
	size_t i, min = 0;

	if (!pc->p.top)
		return;
	if (pc->nr_top < (size_t)pc->p.top) {
		pc->top[pc->nr_top++] = *d;
		return;
	}
	for (i = 1; i < pc->nr_top; i++)
		if (pc->top[i].size < pc->top[min].size ||
		    (pc->top[i].size == pc->top[min].size && pc->top[i].ts > pc->top[min].ts))
			min = i;
	if (d->size > pc->top[min].size)
		pc->top[min] = *d;
}

static uint64_t ahead(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0 ? a - b : 0;
}

/*
 * With a borrowed engine and no groups from snapshots or markers: the CPU
 * holds two tasks or more, one of which a cgroup attach event put in a
 * cgroup.  The engine keeps every task in the root (its loads are the
 * per-CPU load's, and which hierarchy holds the cpu controller the events
 * do not say), so neither a pick among group entities nor one inside that
 * cgroup, against the cgroup's own vruntimes, can be judged there.
 */
static bool groups_given(const struct cfsr_pickcheck *pc);

static const char *attached_path(const struct cfsr_pickcheck *pc, int pid)
{
	long i = cfsr_pidmap_get(&pc->attached, pid);

	return i < 0 ? "/" : pc->paths[i];
}

static bool mixes_attached(const struct cfsr_pickcheck *pc, int cpu)
{
	const struct cfsr_task *t;
	const int *pids;
	size_t i, n, on = 0;
	bool attached = false;

	if (!pc->borrowed || !pc->nr_paths || groups_given(pc))
		return false;
	if (pc->p.cl) {
		n = cfsr_cpuload_on(pc->p.cl, cpu, &pids);
		for (i = 0; i < n && n >= 2; i++)
			if (strcmp(attached_path(pc, pids[i]), "/"))
				return true;
		return false;
	}
	/* an engine without the per-CPU load's list: its tasks on the CPU */
	for (i = 0; i < cfsr_replay_nr_tasks(pc->r); i++) {
		t = cfsr_replay_task_at(pc->r, i);
		if (t->cpu != cpu || !t->fair ||
		    (t->state != CFSR_TS_QUEUED && t->state != CFSR_TS_RUNNING))
			continue;
		on++;
		attached = attached || strcmp(attached_path(pc, t->pid), "/");
	}
	return on >= 2 && attached;
}

/* Remember the cgroup path an attach event gave @pid (a borrowed engine is not told). */
static int remember_attach(struct cfsr_pickcheck *pc, int pid, const char *path)
{
	long i = cfsr_pidmap_get(&pc->attached, pid);
	char *copy = strdup(path);

	if (!copy)
		return cfsr_error("out of memory for cgroup paths");
	if (i >= 0) {
		free(pc->paths[i]);
		pc->paths[i] = copy;
		return 0;
	}
	if (CFSR_ALLOC_GROW(pc->paths, pc->nr_paths + 1, pc->alloc_paths) < 0 ||
	    cfsr_pidmap_put(&pc->attached, pid, pc->nr_paths) < 0) {
		free(copy);
		return cfsr_error("out of memory for cgroup paths");
	}
	pc->paths[pc->nr_paths++] = copy;
	return 0;
}

/* A buddy mark from before the events began may still be on @pid (cfsr_cfs_buddies). */
static bool not_settled(const void *data, int pid)
{
	return !cfsr_pidset_has(data, pid);
}

/*
 * The group state of the EEVDF profiles' picks (kernel/sched/fair.c,
 * v6.6-v6.18), per CPU and group: the next buddy each cfs_rq holds
 * (cfs_rq->next, a group entity set by set_next_buddy() in the dequeue of
 * a sleep; task buddies come only from paths a trace does not show), and
 * the deadline each group entity had at its set_next_entity(), which
 * RUN_TO_PARITY reads ("vlag == deadline", v6.6-v6.16; "vruntime <
 * vprot" after, the same while the slices are equal).
 */
static int grow_groups(struct pc_cpu *c, size_t n)
{
	int *nx;
	uint64_t *dl;
	bool *kn;

	if (n <= c->nr_groups)
		return 0;
	nx = realloc(c->next_of, n * sizeof(*nx));
	if (nx)
		c->next_of = nx;
	dl = realloc(c->set_dl, n * sizeof(*dl));
	if (dl)
		c->set_dl = dl;
	kn = realloc(c->set_known, n * sizeof(*kn));
	if (kn)
		c->set_known = kn;
	if (!nx || !dl || !kn)
		return cfsr_error("out of memory for the pick check's groups");
	memset(c->next_of + c->nr_groups, 0, (n - c->nr_groups) * sizeof(*nx));
	memset(c->set_known + c->nr_groups, 0, (n - c->nr_groups) * sizeof(*kn));
	c->nr_groups = n;
	return 0;
}

static int next_buddy_of(const void *data, const struct cfsr_cfs_rq *cfs)
{
	const struct pc_cpu *c = data;

	return cfs->group >= 0 && (size_t)cfs->group < c->nr_groups ? c->next_of[cfs->group] : 0;
}

static bool gse_protected(const void *data, const struct cfsr_cfs_rq *g)
{
	const struct pc_cpu *c = data;

	return g->group > 0 && (size_t)g->group < c->nr_groups && c->set_known[g->group] &&
	       c->set_dl[g->group] == g->se_deadline;
}

/*
 * set_next_buddy() of group @g's entity: it is cfs_rq->next on each level
 * above, up to the first idle entity (se_is_idle(), v5.15-v6.18), where
 * the marking stops.
 */
static void buddy_set(struct pc_cpu *c, int g)
{
	const struct cfsr_cfs_rq *x, *p;

	for (x = cfsr_replay_group_cfs_rq(c->r, g, c->cpu); x && x->group; x = p) {
		if (cfsr_replay_cfs_rq_is_idle(c->r, x))
			return;
		p = cfsr_replay_cfs_rq_parent(c->r, x);
		if (!p || grow_groups(c, (size_t)x->group + 1) < 0)
			return;
		c->next_of[p->group] = x->group;
	}
}

/* __clear_buddies_next() of group @g's entity (set_next_entity(), clear_buddies()). */
static void buddy_clear(struct pc_cpu *c, int g)
{
	const struct cfsr_cfs_rq *x, *p;

	for (x = cfsr_replay_group_cfs_rq(c->r, g, c->cpu); x && x->group; x = p) {
		p = cfsr_replay_cfs_rq_parent(c->r, x);
		if (!p || (size_t)p->group >= c->nr_groups || c->next_of[p->group] != x->group)
			return;
		c->next_of[p->group] = 0;
	}
}

/*
 * dequeue_entity() (kernel/sched/fair.c, v6.12-v6.18) clears the buddy
 * marks of the entity it dequeues before it decides whether DELAY_DEQUEUE
 * keeps it: none is left on an entity off its cfs_rq or delayed.
 */
static void buddies_dequeued(struct pc_cpu *c)
{
	const struct cfsr_cfs_rq *x;
	size_t g;

	for (g = 0; g < c->nr_groups; g++) {
		if (!c->next_of[g])
			continue;
		x = cfsr_replay_group_cfs_rq(c->r, c->next_of[g], c->cpu);
		if (!x)
			c->next_of[g] = 0;
		else if (!x->se_on_rq || x->se_delayed)
			buddy_clear(c, x->group);
	}
}

/*
 * After a switch into fair task @next (the engine has replayed it): the
 * buddies the pick's dequeues set (@pk, when the pick was asked), then
 * set_next_entity() of each level that changes (pick_next_task_fair():
 * below the cfs_rq prev and next share; every level after a task of
 * another class or the idle task, set_next_task_fair()): its next buddy
 * mark is cleared and its deadline kept for RUN_TO_PARITY.  With @cfs (the
 * CFS profiles, kernel/sched/fair.c v3.8-v6.5), pick_next_entity() runs
 * clear_buddies() on the entity it takes at every level of the pick, from
 * the root: every level of @next's path is cleared.
 */
static void groups_after_switch(struct pc_cpu *c, const struct cfsr_task *prev,
				const struct cfsr_task *next, const struct cfsr_pick *pk, bool cfs)
{
	const struct cfsr_cfs_rq *x, *y, *common = NULL;
	unsigned int i;

	for (i = 0; pk && i < pk->nr_buddies; i++)
		buddy_set(c, pk->buddies[i]);
	if (!next || !next->fair)
		return;
	/* CFS: pick_next_entity() clears the marks of every level it picks at */
	if (prev && prev->fair && !cfs)
		for (x = cfsr_replay_task_cfs_rq(c->r, prev); x && !common;
		     x = cfsr_replay_cfs_rq_parent(c->r, x))
			for (y = cfsr_replay_task_cfs_rq(c->r, next); y && !common;
			     y = cfsr_replay_cfs_rq_parent(c->r, y))
				if (x == y)
					common = x;
	for (x = cfsr_replay_task_cfs_rq(c->r, next); x && x->group && x != common;
	     x = cfsr_replay_cfs_rq_parent(c->r, x)) {
		if (grow_groups(c, (size_t)x->group + 1) < 0)
			return;
		buddy_clear(c, x->group);
		c->set_dl[x->group] = x->se_deadline;
		c->set_known[x->group] = true;
	}
}

/* Class the switch @ev against the engine's state before it. */
static enum cfsr_pick_reason classify(struct cfsr_pickcheck *pc, const struct cfsr_event *ev,
				      struct cfsr_pick *pk, int *picked)
{
	struct pc_cpu *c = &pc->cpus[ev->cpu];
	struct cfsr_pick_query q = { 0 };
	const struct cfsr_task *prev = NULL;
	int next = ev->sw.next_pid;

	*picked = -1;
	if (!c->known)
		return CFSR_PR_STATE_UNKNOWN;
	if (next > 0 && ev->sw.next_prio < 100)
		return CFSR_PR_HIGHER_CLASS;
	q.prev_pid = ev->sw.prev_pid > 0 ? ev->sw.prev_pid : 0;
	q.prev_sleeps = !ev->sw.preempt && ev->sw.prev_state;
	if (q.prev_pid)
		prev = cfsr_replay_task(pc->r, q.prev_pid);
	q.prev_special = (prev && prev->exiting) || (ev->sw.prev_state & CFSR_TASK_DEAD_BITS);
	q.prev_protected = prev && c->pick_pid == q.prev_pid && prev->deadline == c->pick_deadline;
	q.other_pid = next > 0 ? next : 0;
	q.next_buddy = next_buddy_of;
	q.data = c;
	if (!pc->p.prof->eevdf) {
		c->buddies.unknown_may = not_settled;
		c->buddies.unknown_data = &c->settled;
		q.buddies = &c->buddies;
	} else {
		q.gse_protected = gse_protected;
	}
	*picked = cfsr_replay_pick(pc->r, ev->cpu, &q, pk);
	/* the dequeues before a CFS pick are made whatever its buddies and vruntimes leave open */
	c->last_ok =
		*picked >= 0 || *picked == CFSR_PICK_BUDDIES || *picked == CFSR_PICK_VR_UNKNOWN;
	/* the groups first: a CFS pick left open by its buddies or vruntimes is one too */
	if (*picked != CFSR_PICK_NO_STATE && *picked != CFSR_PICK_GROUPS &&
	    mixes_attached(pc, ev->cpu))
		return CFSR_PR_GROUPS;
	switch (*picked) {
	case CFSR_PICK_NO_STATE:
		return CFSR_PR_STATE_UNKNOWN;
	case CFSR_PICK_GROUPS:
		return CFSR_PR_GROUPS;
	case CFSR_PICK_BUDDIES:
		return CFSR_PR_BUDDY_UNKNOWN;
	case CFSR_PICK_VR_UNKNOWN:
		return CFSR_PR_VRUNTIME_UNKNOWN;
	default:
		break;
	}
	if (next <= 0)
		return *picked ? CFSR_PR_IDLE_RUNNABLE : CFSR_PR_NONE_RUNNABLE;
	if (!pk->other.runnable)
		return CFSR_PR_NEXT_UNSEEN;
	if (pk->nr_runnable <= 1)
		return CFSR_PR_ONE_RUNNABLE;
	if (!pc->p.prof->eevdf) {
		if (*picked == next)
			return pk->buddy ? CFSR_PR_BUDDY : CFSR_PR_LEFTMOST;
		return pk->other.vruntime == pk->picked.vruntime ? CFSR_PR_VRUNTIME_TIE :
								   CFSR_PR_NOT_LEFTMOST;
	}
	if (*picked == next)
		return pk->buddy ? CFSR_PR_NEXT_BUDDY : CFSR_PR_EARLIEST;
	if (pk->kept_curr)
		return CFSR_PR_RUN_TO_PARITY;
	if (pk->buddy)
		return CFSR_PR_NOT_BUDDY;
	/* its lag, taken as 0, may be what made another the earlier deadline or it ineligible */
	if (cfsr_replay_lag_guessed_path(pc->r, next))
		return CFSR_PR_LAG_GUESSED;
	if (!pk->other.eligible)
		return CFSR_PR_INELIGIBLE;
	if (pk->other.deadline == pk->picked.deadline)
		return CFSR_PR_TIE;
	return CFSR_PR_EARLIER_DEADLINE;
}

static void judge(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	struct cfsr_pick_cpu *n = &pc->cpus[ev->cpu].n;
	struct cfsr_pick pk = { 0 };
	enum cfsr_pick_reason why;
	struct cfsr_pick_div d;
	const struct cfsr_task *t;
	int picked;

	/* asked at every switch: the group state follows the picks' dequeues */
	pc->cpus[ev->cpu].last_ok = false;
	why = classify(pc, ev, &pk, &picked);
	pc->cpus[ev->cpu].last = pk;
	if (ev->ts < pc->p.win_start || ev->ts >= pc->p.win_end ||
	    (pc->p.filter_cpu >= 0 && ev->cpu != pc->p.filter_cpu))
		return;
	if (pc->p.filter_pid >= 0 && ev->sw.prev_pid != pc->p.filter_pid &&
	    ev->sw.next_pid != pc->p.filter_pid && picked != pc->p.filter_pid)
		return;
	pc->reasons[why]++;
	n->switches++;
	switch (cfsr_pick_reason_class(why)) {
	case 'T':
		n->trivial++;
		return;
	case 'C':
		n->cannot++;
		return;
	case 'A':
		n->contested++;
		n->agrees++;
		n->groups_contested += pk.groups;
		n->groups_agrees += pk.groups;
		return;
	default:
		n->contested++;
		n->diverges++;
		n->groups_contested += pk.groups;
		break;
	}
	memset(&d, 0, sizeof(d));
	d.ts = ev->ts;
	d.cpu = ev->cpu;
	d.why = why;
	d.prev_pid = ev->sw.prev_pid;
	d.ran = pk.other;
	d.preferred = pk.picked;
	memcpy(d.ran_comm, ev->sw.next_comm, sizeof(d.ran_comm));
	t = cfsr_replay_task(pc->r, pk.picked.pid);
	if (t)
		memcpy(d.pref_comm, t->comm, sizeof(d.pref_comm));
	d.avg_vruntime = pk.avg_vruntime;
	d.nr_runnable = pk.nr_runnable;
	d.level = pk.level;
	d.level_group = pk.group;
	if (why == CFSR_PR_INELIGIBLE)
		d.size = ahead(pk.other.vruntime, pk.avg_vruntime);
	else if (why == CFSR_PR_EARLIER_DEADLINE)
		d.size = ahead(pk.other.deadline, pk.picked.deadline);
	else if (why == CFSR_PR_NOT_LEFTMOST)
		d.size = ahead(pk.other.vruntime, pk.picked.vruntime);
	else
		d.size = ahead(pk.picked.deadline, pk.picked.vruntime);
	keep_div(pc, &d);
}

static bool groups_given(const struct cfsr_pickcheck *pc)
{
	struct cfsr_cpuload_groups g;

	if (pc->groups_known)
		return true;
	if (!pc->p.cl)
		return false;
	cfsr_cpuload_groups(pc->p.cl, &g);
	return g.marker_moves > 0;
}

/*
 * yield_task_fair() (kernel/sched/fair.c, v3.8-v6.5) before a __schedule():
 * a fair task that leaves without preemption while runnable may have
 * called sched_yield(), which clears its buddies and makes it the skip
 * buddy (when other tasks are queued).  A preemption on the way back to
 * user space (schedule() from the exit to user mode, not
 * preempt_schedule()) shows the same in sched_switch: prev_state R, no
 * preempt flag; so the pick tries both, and matters only where prev is
 * the leftmost.
 */
static void cfs_yield(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	struct cfsr_cfs_buddies *b = &pc->cpus[ev->cpu].buddies;
	int prev = ev->sw.prev_pid;

	if (pc->p.prof->eevdf || prev <= 0 || ev->sw.preempt || ev->sw.prev_state ||
	    ev->sw.prev_prio < 100 || ev->sw.prev_prio >= 140)
		return;
	cfsr_cfs_buddies_drop(b, prev);
	cfsr_cfs_buddies_add(b, b->skip, &b->nr_skip, prev);
}

/*
 * The idle rules of a wakeup's preemption check (check_preempt_wakeup(),
 * kernel/sched/fair.c v3.8-v6.5; check_preempt_wakeup_fair() v6.6-v6.18)
 * for woken @w and the running @curr, @ec and @ew the entities
 * find_matching_se() gives: until v6.10 a SCHED_IDLE curr is preempted by
 * a woken task that is not (before find_matching_se()), and a woken task
 * not SCHED_NORMAL never preempts (of the policies only SCHED_IDLE is
 * known here); from v5.15 an idle matched curr entity (se_is_idle()) is
 * preempted by a non-idle woken one and a pair that differs otherwise is
 * left alone; from v6.11 (faa42d29419d) only that matched test, the
 * woken task's policy tested after it.
 * Return: 1 preempted by the idle rule (no buddy is marked then: the
 * entity preempted is idle, or a group entity), -1 never preempted, 0 the
 * usual rule decides.
 */
static int idle_rule(const struct cfsr_pickcheck *pc, const struct cfsr_task *curr,
		     const struct cfsr_task *w, const struct cfsr_cfs_ent *ec,
		     const struct cfsr_cfs_ent *ew)
{
	const struct cfsr_profile *p = pc->p.prof;
	bool cse, pse;

	if (!p->idle_strict && curr->idle_policy && !w->idle_policy)
		return 1;
	if (!p->idle_strict && w->idle_policy)
		return -1;
	if (p->cgroup_idle) {
		cse = cfsr_replay_se_is_idle(pc->r, ec->pid, curr->cpu);
		pse = cfsr_replay_se_is_idle(pc->r, ew->pid, curr->cpu);
		if (cse && !pse)
			return 1;
		if (cse != pse)
			return -1;
	}
	return w->idle_policy ? -1 : 0;
}

/*
 * check_preempt_wakeup() (kernel/sched/fair.c, v3.8-v6.5, as read in
 * copies of v4.x and v5.x) after a wakeup onto a CPU whose curr is a fair
 * task.  scale is curr's cfs_rq holding at least sched_nr_latency
 * entities.  With NEXT_BUDDY and scale, a wakeup that is not a fork
 * (WF_FORK: wake_up_new_task()) marks the woken task (and the group
 * entities above it) the next buddy at once; then, unless curr already had
 * to reschedule (the function returns), find_matching_se() brings curr and
 * the woken task to the entities of the lowest cfs_rq they share, and with
 * WAKEUP_PREEMPTION, when wakeup_preempt_entity() of those is 1, the
 * woken side's entity becomes the next buddy (of its level and those
 * above) and, with LAST_BUDDY and scale, curr the last buddy if its
 * entity there is curr itself.  The trace does not show a pending
 * reschedule: both are possible buddies.  With a vruntime the trace does
 * not give, a wakeup that may preempt counts as one that does.  The
 * idle rules (idle_rule()) come first: an idle curr preempted by them
 * gets no last buddy (set_last_buddy() skips idle entities, and a group
 * entity is not curr itself), and the woken side no next buddy.  The
 * features are the traced kernel's when it recorded them (lib/cfspick.h).
 */
static void cfs_wakeup(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	int cpu = ev->wake.target_cpu >= 0 ? ev->wake.target_cpu : ev->cpu;
	const struct cfsr_cfs_tunables *tu = cfsr_replay_cfs_tunables(pc->r);
	struct cfsr_task *w, *curr;
	const struct cfsr_cfs_rq *cfs;
	struct cfsr_cfs_buddies *b;
	struct cfsr_cfs_ent ec, ew;
	bool scale, guessed;

	if (pc->p.prof->eevdf || cpu < 0 || cpu >= pc->p.nr_cpus || pc->cpus[cpu].pick_pid <= 0)
		return;
	b = &pc->cpus[cpu].buddies;
	curr = cfsr_replay_task(pc->r, pc->cpus[cpu].pick_pid);
	w = cfsr_replay_task(pc->r, ev->wake.pid);
	if (!curr || !w || curr == w || !curr->fair || !w->fair || curr->cpu != cpu ||
	    w->cpu != cpu || curr->state != CFSR_TS_RUNNING || w->state != CFSR_TS_QUEUED ||
	    cfsr_replay_cfs_match(pc->r, curr, w, &ec, &ew, &guessed) < 0)
		return;
	cfs = cfsr_replay_task_cfs_rq(pc->r, curr);
	scale = cfs && cfs->nr_queued + cfs->nr_gse >= tu->nr_latency;
	if (tu->next_buddy && scale && ev->kind != CFSR_EV_WAKEUP_NEW)
		cfsr_cfs_buddies_add(b, b->next, &b->nr_next, w->pid);
	if (idle_rule(pc, curr, w, &ec, &ew))
		return;
	if (!tu->wakeup_preemption)
		return;
	if (cfsr_cfs_wakeup_preempt(tu, &ec, &ew) < 1 && !guessed)
		return;
	/* set_next_buddy() of the matched entity: the woken task, or a group entity above it */
	cfsr_cfs_buddies_add(b, b->next, &b->nr_next, ew.pid);
	/* set_last_buddy() only where the matched entity is curr itself (entity_is_task()) */
	if (tu->last_buddy && scale && ec.pid == curr->pid)
		cfsr_cfs_buddies_add(b, b->last, &b->nr_last, curr->pid);
}

/*
 * check_preempt_wakeup_fair() (kernel/sched/fair.c, v6.15-v6.18,
 * f553741ac8c0) after a wakeup onto a CPU whose curr is a fair task: where
 * the matched curr entity is idle and the woken one not
 * (idle_rule()), cancel_protect_slice() takes RUN_TO_PARITY's protection
 * from curr's entity at that level (the task, or its group entity) until
 * its next set_next_entity().  Before v6.15 the idle curr keeps its
 * protection, and the pick after the preemption may keep it running.
 * Differs: a reschedule already pending, with which the kernel returns
 * first, is not seen.
 */
static void eevdf_wakeup(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	int cpu = ev->wake.target_cpu >= 0 ? ev->wake.target_cpu : ev->cpu;
	const struct cfsr_cfs_rq *g;
	const struct cfsr_task *w, *curr;
	struct cfsr_cfs_ent ec, ew;
	struct pc_cpu *c;
	bool guessed;

	if (!pc->p.prof->eevdf || !pc->p.prof->idle_unprotect || cpu < 0 || cpu >= pc->p.nr_cpus ||
	    pc->cpus[cpu].pick_pid <= 0)
		return;
	c = &pc->cpus[cpu];
	curr = cfsr_replay_task(pc->r, c->pick_pid);
	w = cfsr_replay_task(pc->r, ev->wake.pid);
	if (!curr || !w || curr == w || curr->cpu != cpu || w->cpu != cpu ||
	    curr->state != CFSR_TS_RUNNING || w->state != CFSR_TS_QUEUED ||
	    cfsr_replay_cfs_match(pc->r, curr, w, &ec, &ew, &guessed) < 0 ||
	    idle_rule(pc, curr, w, &ec, &ew) <= 0)
		return;
	if (ec.pid == curr->pid) {
		if (c->pick_deadline == curr->deadline)
			c->pick_deadline = curr->deadline + 1;
		return;
	}
	g = cfsr_replay_group_cfs_rq(pc->r, -ec.pid, cpu);
	if (g && (size_t)g->group < c->nr_groups && c->set_known[g->group] &&
	    c->set_dl[g->group] == g->se_deadline)
		c->set_dl[g->group] = g->se_deadline + 1;
}

/*
 * The buddies after an event, CFS profiles: clear_buddies() of the task
 * picked (set_next_entity(), or pick_next_entity() before) and of one
 * dequeued (a sleep, a migration); none left on a CPU that goes idle; any
 * after lost events.
 */
/*
 * @pid was picked or dequeued on CPU @c: no buddy mark is left on it.  If
 * the set cannot grow, the task stays one that may be a buddy: picks it
 * could change are then not judged.
 */
static void cfs_settle(struct cfsr_pickcheck *pc, int c, int pid)
{
	struct pc_cpu *cs = &pc->cpus[c];

	cfsr_cfs_buddies_drop(&cs->buddies, pid);
	if (cs->buddies.unknown)
		(void)cfsr_pidset_add(&cs->settled, pid);
}

/*
 * The marks on group entities (negated groups): those on the path of the
 * task switched in (@next: pick_next_entity() cleared them, level by
 * level) and those on entities no longer queued (dequeue_entity() cleared
 * them) are gone.
 */
static void cfs_settle_groups(struct cfsr_pickcheck *pc, int c, int next)
{
	struct cfsr_cfs_buddies *b = &pc->cpus[c].buddies;
	const struct cfsr_task *t = next > 0 ? cfsr_replay_task(pc->r, next) : NULL;
	const struct cfsr_cfs_rq *x;
	int *lists[] = { b->next, b->last, b->skip };
	unsigned int *nrs[] = { &b->nr_next, &b->nr_last, &b->nr_skip }, i, j;

	for (x = t ? cfsr_replay_task_cfs_rq(pc->r, t) : NULL; x && x->group;
	     x = cfsr_replay_cfs_rq_parent(pc->r, x))
		cfsr_cfs_buddies_drop(b, -x->group);
	for (i = 0; i < 3; i++)
		for (j = *nrs[i]; j-- > 0;) {
			if (lists[i][j] >= 0)
				continue;
			x = cfsr_replay_group_cfs_rq(pc->r, -lists[i][j], c);
			if (!x || !x->se_on_rq)
				cfsr_cfs_buddies_drop(b, lists[i][j]);
		}
}

static void cfs_buddies_after(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	struct cfsr_cfs_buddies *b;
	int c;

	if (pc->p.prof->eevdf)
		return;
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		b = &pc->cpus[ev->cpu].buddies;
		if (ev->sw.next_pid <= 0) {
			memset(b, 0, sizeof(*b));
			cfsr_pidset_release(&pc->cpus[ev->cpu].settled);
			break;
		}
		cfs_settle(pc, ev->cpu, ev->sw.next_pid);
		if (ev->sw.prev_pid > 0 && !ev->sw.preempt && ev->sw.prev_state)
			cfs_settle(pc, ev->cpu, ev->sw.prev_pid);
		cfs_settle_groups(pc, ev->cpu, ev->sw.next_pid);
		break;
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		cfs_wakeup(pc, ev);
		break;
	case CFSR_EV_MIGRATE:
		if (ev->migrate.orig_cpu >= 0 && ev->migrate.orig_cpu < pc->p.nr_cpus)
			cfs_settle(pc, ev->migrate.orig_cpu, ev->migrate.pid);
		break;
	case CFSR_EV_LOST:
		for (c = 0; c < pc->p.nr_cpus; c++)
			if (ev->cpu < 0 || ev->cpu >= pc->p.nr_cpus || c == ev->cpu) {
				pc->cpus[c].buddies.unknown = true;
				cfsr_pidset_release(&pc->cpus[c].settled);
			}
		break;
	default:
		break;
	}
}

int cfsr_pickcheck_before(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	bool cpu_ok = ev->cpu >= 0 && ev->cpu < pc->p.nr_cpus;
	const char *path;

	if (ev->kind == CFSR_EV_SWITCH && cpu_ok) {
		cfs_yield(pc, ev);
		judge(pc, ev);
	}
	/*
	 * Without the snapshots' or markers' groups, a task attached to a
	 * cgroup is kept apart from the others: which hierarchy holds the cpu
	 * controller the events do not say, so this only makes its CPUs'
	 * picks "task-groups", never merges groups.  An engine of the check's
	 * own puts it in a group of that path; a borrowed one is left alone
	 * (its loads are the per-CPU load's): the path is remembered, and a
	 * CPU with such a task among others is not judged.
	 */
	if (ev->kind == CFSR_EV_CGROUP_ATTACH && !groups_given(pc) && ev->cgroup.pid > 0 &&
	    ev->cgroup.path && ev->cgroup.path[0]) {
		path = ev->cgroup.level > 0 ? ev->cgroup.path : "/";
		if (!pc->borrowed) {
			if (cfsr_replay_task_set_group(pc->r, ev->cgroup.pid, path) < 0)
				return -1;
		} else if (remember_attach(pc, ev->cgroup.pid, path) < 0) {
			return -1;
		}
		pc->attaches++;
	}
	return 0;
}

void cfsr_pickcheck_after(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	bool cpu_ok = ev->cpu >= 0 && ev->cpu < pc->p.nr_cpus;
	const struct cfsr_task *t;
	int c;

	if (ev->kind == CFSR_EV_LOST) {
		for (c = 0; c < pc->p.nr_cpus; c++)
			if (!cpu_ok || c == ev->cpu) {
				struct pc_cpu *cs = &pc->cpus[c];

				cs->known = false;
				if (cs->nr_groups) {
					memset(cs->next_of, 0,
					       cs->nr_groups * sizeof(*cs->next_of));
					memset(cs->set_known, 0,
					       cs->nr_groups * sizeof(*cs->set_known));
				}
			}
	}
	if (ev->kind == CFSR_EV_SWITCH && cpu_ok) {
		struct pc_cpu *cs = &pc->cpus[ev->cpu];

		t = ev->sw.next_pid > 0 ? cfsr_replay_task(pc->r, ev->sw.next_pid) : NULL;
		cs->known = true;
		cs->pick_pid = t ? t->pid : 0;
		cs->pick_deadline = t ? t->deadline : 0;
		groups_after_switch(
			cs, ev->sw.prev_pid > 0 ? cfsr_replay_task(pc->r, ev->sw.prev_pid) : NULL,
			t, cs->last_ok ? &cs->last : NULL, !pc->p.prof->eevdf);
	}
	for (c = 0; c < pc->p.nr_cpus; c++)
		if (pc->cpus[c].nr_groups)
			buddies_dequeued(&pc->cpus[c]);
	if (ev->kind != CFSR_EV_SWITCH || cpu_ok)
		cfs_buddies_after(pc, ev);
	if (ev->kind == CFSR_EV_WAKEUP || ev->kind == CFSR_EV_WAKEUP_NEW)
		eevdf_wakeup(pc, ev);
}

int cfsr_pickcheck_event(struct cfsr_pickcheck *pc, const struct cfsr_event *ev)
{
	if (cfsr_pickcheck_before(pc, ev) < 0 || cfsr_replay_event(pc->r, ev) < 0)
		return -1;
	cfsr_pickcheck_after(pc, ev);
	return 0;
}

void cfsr_pickcheck_groups_known(struct cfsr_pickcheck *pc)
{
	pc->groups_known = true;
}

void cfsr_pickcheck_groups_perf(struct cfsr_pickcheck *pc)
{
	pc->groups_known = true;
	pc->groups_perf = true;
}

enum cfsr_pick_groups cfsr_pickcheck_groups(const struct cfsr_pickcheck *pc)
{
	if (pc->groups_perf)
		return CFSR_PICK_GROUPS_PERF;
	if (pc->groups_known)
		return CFSR_PICK_GROUPS_SNAPSHOTS;
	if (groups_given(pc))
		return CFSR_PICK_GROUPS_MARKERS;
	return pc->attaches ? CFSR_PICK_GROUPS_ATTACH : CFSR_PICK_GROUPS_UNKNOWN;
}

const struct cfsr_pick_cpu *cfsr_pickcheck_cpu(const struct cfsr_pickcheck *pc, int cpu)
{
	return cpu >= 0 && cpu < pc->p.nr_cpus ? &pc->cpus[cpu].n : NULL;
}

void cfsr_pickcheck_total(const struct cfsr_pickcheck *pc, struct cfsr_pick_cpu *sum)
{
	int c;

	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < pc->p.nr_cpus; c++) {
		const struct cfsr_pick_cpu *n = &pc->cpus[c].n;

		sum->switches += n->switches;
		sum->trivial += n->trivial;
		sum->contested += n->contested;
		sum->agrees += n->agrees;
		sum->diverges += n->diverges;
		sum->cannot += n->cannot;
		sum->groups_contested += n->groups_contested;
		sum->groups_agrees += n->groups_agrees;
	}
}

uint64_t cfsr_pickcheck_reason(const struct cfsr_pickcheck *pc, enum cfsr_pick_reason why)
{
	return why < CFSR_PR_NR ? pc->reasons[why] : 0;
}

static int div_cmp(const void *a, const void *b)
{
	const struct cfsr_pick_div *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

size_t cfsr_pickcheck_top(struct cfsr_pickcheck *pc, const struct cfsr_pick_div **divs)
{
	qsort(pc->top, pc->nr_top, sizeof(*pc->top), div_cmp);
	*divs = pc->top;
	return pc->nr_top;
}

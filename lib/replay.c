// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay engine.  See replay.h for the model and docs/KERNEL-PATHS.md
 * for the kernel paths each handler mirrors.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "group.h"
#include "math.h"
#include "replay.h"
#include "trace.h"
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
	/* the last clock reading: the rq clock at trace time read_ts */
	bool read;
	uint64_t read_ts;
	uint64_t read_clock;
	/* the clock of the rq's last update_rq_clock() the model knows of */
	uint64_t last_clock;
	bool last_exact;
	/* RQCF_REQ_SKIP: a wakeup asked the next __schedule() to keep the clock */
	bool skip;
	/* the clock of the last wakeup's enqueue, or of a reading since */
	uint64_t skip_clock;
	bool skip_exact;
	/* a switch the trace does not show kept this clock */
	bool missed_skip;
	uint64_t missed_clock;
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
	/* @now is the trace clock: the CPU had no clock yet at the report */
	bool unanchored;
	/* the clock the reported run time started from */
	uint64_t exec_from;
	/* it follows a report of the same task, with no event between */
	bool pick;
	/* the task of the CPU's last event if that was a run-time report, else 0 */
	int last_runtime_pid;
	/* that report's trace time */
	uint64_t last_runtime_ts;
};

/* A task group: its parent, tg->load_avg, tg->shares. */
struct replay_tg {
	int parent;
	int64_t load_avg;
	uint64_t shares;
};

struct cfsr_replay {
	const struct cfsr_pelt_params *params;
	const struct cfsr_group_params *gparams;
	const struct cfsr_profile *profile;
	/* TICK_NSEC and sysctl_sched_base_slice */
	uint64_t tick_nsec;
	uint64_t base_slice;
	/* clock readings will come: no update on a CPU until its first */
	bool expect_clock;
	int nr_cpus;
	/* cfs_rqs: the roots at 0..nr_cpus-1, then group ones */
	struct cfsr_cfs_rq *cfs;
	size_t nr_cfs;
	size_t cfs_alloc;
	/* group paths (index = group), and per group and CPU a cfs index + 1 */
	char **groups;
	size_t nr_groups;
	size_t groups_alloc;
	struct replay_tg *tgs;
	size_t tgs_alloc;
	size_t *cfs_of;
	size_t cfs_of_alloc;
	struct replay_rq *rqs;
	/* per emitting CPU */
	struct pending_runtime *pending;
	/* tasks, and an open-addressing map pid -> index + 1 (0 = free) */
	struct cfsr_task *tasks;
	size_t nr_tasks;
	size_t tasks_alloc;
	int *map;
	size_t map_alloc;
	/* clock readings come from records inside the kernel's paths */
	bool records;
	/* tasks a load balance moved, not attached on their new CPU yet */
	unsigned int attach_pending;
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

static void task_account(struct cfsr_replay *r, const struct cfsr_task *t, int sign);
static void root_util_est(struct cfsr_replay *r, struct cfsr_task *t, int sign);
static int group_get(struct cfsr_replay *r, const char *path);
static void reweight_groups(struct cfsr_replay *r, int group, int cpu);

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
	t->prio = 120;
	t->fair = true;
	t->load_weight = cfsr_prio_to_load_weight(120);
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
	task_account(r, t, -1);
	root_util_est(r, t, -1);
	memset(&t->avg, 0, sizeof(t->avg));
	t->enq_pending = false;
	t->cpu = -1;
	t->state = CFSR_TS_UNKNOWN;
	t->vlag = 0;
	t->rel_deadline = false;
	t->exiting = false;
	t->dead = false;
	t->exec_known = false;
	t->avg_known = false;
	t->migrated = false;
	if (t->attach_pending) {
		t->attach_pending = false;
		r->attach_pending--;
	}
	t->updates = 0;
	return t;
}

/* ---- clocks ------------------------------------------------------------------------ */

static struct replay_rq *rq_of(struct cfsr_replay *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? &r->rqs[cpu] : NULL;
}

/*
 * The kernel's rq clock moves only at update_rq_clock(), which every path
 * that updates PELT calls first; the path then runs for microseconds.  A
 * clock reading (the rq clock a kernel record reports) is therefore the
 * clock of the events that follow it within one such path, not a point on
 * a line to extrapolate along: for this long after a reading, the model
 * holds its value.
 */
#define READING_HOLD_NS 20000

/*
 * A reading newer than the anchor and within READING_HOLD_NS before @ts:
 * the rq clock as the path that emitted it left it, which the event at
 * @ts, in the same path, uses (a wakeup follows the records of its
 * enqueue, util_est_enqueue()'s among them, at the clock of the
 * update_rq_clock() before them).
 */
static bool reading_within(const struct replay_rq *rq, uint64_t ts, uint64_t hold)
{
	return rq->read && ts >= rq->read_ts && ts - rq->read_ts < hold &&
	       (!rq->anchored || rq->read_ts >= rq->anchor_ts);
}

static bool reading_holds(const struct replay_rq *rq, uint64_t ts)
{
	return reading_within(rq, ts, READING_HOLD_NS);
}

/*
 * A wakeup's enqueue runs at the clock of ttwu's update_rq_clock() and
 * fires sched_util_est_cfs_tp (util_est_enqueue()) before sched_wakeup,
 * with the remote rq lock, wakeup_preempt() and the recorder's own
 * programs between: a longer path than READING_HOLD_NS allows for, up to
 * about 50 us in the recorded runs.
 */
#define WAKEUP_HOLD_NS 100000

static uint64_t clock_at(struct cfsr_replay *r, struct replay_rq *rq, uint64_t ts, bool *exact);

/* The clock of a wakeup's enqueue on @rq: the last reading, if that is its own. */
static uint64_t wakeup_clock(struct cfsr_replay *r, struct replay_rq *rq, uint64_t ts, bool *exact)
{
	if (reading_within(rq, ts, WAKEUP_HOLD_NS)) {
		*exact = true;
		return rq->read_clock;
	}
	return clock_at(r, rq, ts, exact);
}

/*
 * The rq's clock_task at trace time @ts: a reading that holds, else from
 * its anchor.  Steal time since the anchor is not seen, so a value away
 * from its anchor is an estimate.  peek_clock() gives the value,
 * clock_at() also counts it in the stats.
 */
static uint64_t peek_clock(const struct replay_rq *rq, uint64_t ts, bool *exact)
{
	*exact = false;
	if (rq && reading_holds(rq, ts)) {
		*exact = true;
		return rq->read_clock;
	}
	if (!rq || !rq->anchored)
		return ts;
	if (ts == rq->anchor_ts && rq->anchor_exact) {
		*exact = true;
		return rq->anchor_clock;
	}
	if (!rq->anchor_exact && ts >= rq->anchor_ts && ts - rq->anchor_ts < READING_HOLD_NS)
		return rq->anchor_clock;
	if (ts < rq->anchor_ts)
		return rq->anchor_clock - (rq->anchor_ts - ts);
	return rq->anchor_clock + (ts - rq->anchor_ts);
}

static uint64_t clock_at(struct cfsr_replay *r, struct replay_rq *rq, uint64_t ts, bool *exact)
{
	uint64_t clock = peek_clock(rq, ts, exact);

	if (*exact)
		return clock;
	if (!rq || !rq->anchored)
		r->stats.unanchored_updates++;
	else
		r->stats.estimated_updates++;
	return clock;
}

/*
 * The CPU's clock can be used: it has an anchor, or no readings will come
 * (cfsr_replay_expect_clock() not called) and the trace clock stands in.
 */
static bool clock_ok(const struct cfsr_replay *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus && (!r->expect_clock || r->rqs[cpu].anchored);
}

void cfsr_replay_expect_clock(struct cfsr_replay *r)
{
	r->expect_clock = true;
}

/* The rq clock was updated to @clock (exactly or as estimated). */
static void clock_updated(struct replay_rq *rq, uint64_t clock, bool exact)
{
	rq->last_clock = clock;
	rq->last_exact = exact;
}

static void anchor(struct replay_rq *rq, uint64_t ts, uint64_t clock, bool exact, int pid)
{
	clock_updated(rq, clock, exact);
	rq->anchored = true;
	rq->anchor_exact = exact;
	rq->anchor_ts = ts;
	rq->anchor_clock = clock;
	rq->anchor_pid = pid;
}

static void correct_chain(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock);
static void attach_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			bool exact);

/*
 * Mirrors attach_tasks() in kernel/sched/fair.c, v6.12-v6.18: the tasks a
 * load balance detached are enqueued on @cpu after update_rq_clock() of
 * its rq, update_load_avg(DO_ATTACH) at that clock; the enqueue fires
 * records (util_est_enqueue()'s at least), of which @clock is the first.
 */
static void attach_moved(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock)
{
	size_t i;

	for (i = 0; i < r->nr_tasks && r->attach_pending; i++)
		if (r->tasks[i].attach_pending && r->tasks[i].cpu == cpu)
			attach_task(r, &r->tasks[i], clock, ts, true);
}

void cfsr_replay_clock_sample(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task)
{
	struct replay_rq *rq = rq_of(r, cpu);

	if (rq)
		correct_chain(r, cpu, ts, clock_task);

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

void cfsr_replay_clock_record(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task)
{
	struct replay_rq *rq = rq_of(r, cpu);

	r->records = true;
	cfsr_replay_clock_sample(r, cpu, ts, clock_task);
	if (!rq)
		return;
	rq->read = true;
	rq->read_ts = ts;
	rq->read_clock = clock_task;
	clock_updated(rq, clock_task, true);
	if (rq->skip) {
		rq->skip_clock = clock_task;
		rq->skip_exact = true;
	}
	if (r->attach_pending)
		attach_moved(r, cpu, ts, clock_task);
}

/* ---- task groups and cfs_rqs ---------------------------------------------------------- */

/* The index of group @path, created with a cfs_rq on every CPU; -1 on failure. */
static int group_get(struct cfsr_replay *r, const char *path)
{
	size_t i, c, nr, len;
	int parent = -1;
	char *name;

	for (i = 0; i < r->nr_groups; i++)
		if (!strcmp(r->groups[i], path))
			return (int)i;
	if (r->nr_groups >= 65536)
		return -1;
	if (r->nr_groups) {
		/* the parent group: the path without its last component ("/" for "/a") */
		name = strdup(path);
		if (!name)
			return -1;
		len = strlen(name);
		while (len > 1 && name[len - 1] == '/')
			name[--len] = '\0';
		while (len > 1 && name[len - 1] != '/')
			len--;
		name[len > 1 ? len - 1 : 1] = '\0';
		parent = strcmp(name, path) ? group_get(r, name) : 0;
		free(name);
		if (parent < 0)
			return -1;
	}
	nr = (r->nr_groups + 1) * (size_t)r->nr_cpus;
	if (CFSR_ALLOC_GROW(r->groups, r->nr_groups + 1, r->groups_alloc) < 0 ||
	    CFSR_ALLOC_GROW(r->tgs, r->nr_groups + 1, r->tgs_alloc) < 0 ||
	    CFSR_ALLOC_GROW(r->cfs, nr, r->cfs_alloc) < 0)
		return -1;
	name = strdup(path);
	if (!name)
		return -1;
	r->groups[r->nr_groups] = name;
	/* sched_create_group(): shares NICE_0_LOAD; init_tg_cfs_entry(): entity weight NICE_0_LOAD */
	r->tgs[r->nr_groups].parent = parent;
	r->tgs[r->nr_groups].load_avg = 0;
	r->tgs[r->nr_groups].shares = NICE_0_LOAD;
	for (c = 0; c < (size_t)r->nr_cpus; c++) {
		struct cfsr_cfs_rq *cfs = &r->cfs[r->nr_cfs + c];

		memset(cfs, 0, sizeof(*cfs));
		cfs->path = name;
		cfs->cpu = (int)c;
		cfs->group = (int)r->nr_groups;
		cfs->se_weight = NICE_0_LOAD;
	}
	r->nr_cfs = nr;
	return (int)r->nr_groups++;
}

static struct cfsr_cfs_rq *cfs_of(struct cfsr_replay *r, int group, int cpu)
{
	if (cpu < 0 || cpu >= r->nr_cpus || group < 0 || (size_t)group >= r->nr_groups)
		return NULL;
	return &r->cfs[(size_t)group * (size_t)r->nr_cpus + (size_t)cpu];
}

/* The cfs_rq a task is queued on, or was last. */
static struct cfsr_cfs_rq *task_cfs(struct cfsr_replay *r, const struct cfsr_task *t)
{
	return cfs_of(r, t->group, t->cpu);
}

struct cfsr_cfs_rq *cfsr_replay_cfs_rq(struct cfsr_replay *r, const char *path, int cpu)
{
	size_t g;

	for (g = 0; g < r->nr_groups; g++)
		if (!strcmp(r->groups[g], path))
			return cfs_of(r, (int)g, cpu);
	return NULL;
}

size_t cfsr_replay_nr_cfs_rqs(const struct cfsr_replay *r)
{
	return r->nr_cfs;
}

const struct cfsr_cfs_rq *cfsr_replay_cfs_rq_at(const struct cfsr_replay *r, size_t i)
{
	return i < r->nr_cfs ? &r->cfs[i] : NULL;
}

static bool state_on_rq(enum cfsr_task_state s)
{
	return s == CFSR_TS_QUEUED || s == CFSR_TS_RUNNING || s == CFSR_TS_DELAYED;
}

/* ---- EEVDF ---------------------------------------------------------------------------- */

/*
 * Mirrors __calc_delta() in kernel/sched/fair.c, v5.7-v6.18, for
 * calc_delta_fair(): delta * NICE_0_LOAD / weight with the task's inverse
 * weight (sched_prio_to_wmult[]), normalised to 32 bits before the
 * 64x32 multiply-shift.
 */
static uint64_t calc_delta_fair(uint64_t delta, const struct cfsr_task *t)
{
	uint64_t fact = cfsr_scale_load_down(NICE_0_LOAD);
	unsigned int shift = 32;
	uint32_t fact_hi;

	if (t->load_weight == NICE_0_LOAD)
		return delta;
	fact *= cfsr_prio_to_wmult(t->prio);
	fact_hi = (uint32_t)(fact >> 32);
	while (fact_hi) {
		fact >>= 1;
		fact_hi >>= 1;
		shift--;
	}
	return cfsr_mul_u64_u32_shr(delta, (uint32_t)fact, shift);
}

static uint64_t eevdf_weight(const struct cfsr_task *t)
{
	return cfsr_scale_load_down(t->load_weight);
}

/*
 * Mirrors avg_vruntime_add()/avg_vruntime_sub() (kernel/sched/fair.c,
 * v6.6-v6.18): the running entity is kept out of the sums.  On an empty
 * cfs_rq the base moves to the entity, as min_vruntime would.
 */
static void avg_vruntime_account(struct cfsr_cfs_rq *cfs, const struct cfsr_task *t, int sign)
{
	uint64_t w = eevdf_weight(t);
	int64_t key;

	if (sign > 0 && !cfs->avg_load) {
		cfs->zero_vruntime = t->vruntime;
		cfs->avg_vruntime = 0;
	}
	key = (int64_t)(t->vruntime - cfs->zero_vruntime);
	if (sign > 0) {
		cfs->avg_vruntime += key * (int64_t)w;
		cfs->avg_load += w;
	} else {
		cfs->avg_vruntime -= key * (int64_t)w;
		cfs->avg_load -= w;
	}
}

static struct cfsr_task *cfs_curr(struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	struct cfsr_task *c = cfs->curr > 0 ? cfsr_replay_task(r, cfs->curr) : NULL;

	return c && c->state == CFSR_TS_RUNNING && c->fair ? c : NULL;
}

/* The sums with the running task added, as avg_vruntime() and vruntime_eligible() do. */
static void cfs_vsums(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, int64_t *avg, int64_t *load)
{
	struct cfsr_task *c = cfs_curr(r, cfs);

	*avg = cfs->avg_vruntime;
	*load = (int64_t)cfs->avg_load;
	if (c && task_cfs(r, c) == cfs) {
		*avg += (int64_t)(c->vruntime - cfs->zero_vruntime) * (int64_t)eevdf_weight(c);
		*load += (int64_t)eevdf_weight(c);
	}
}

/*
 * Mirrors avg_vruntime() in kernel/sched/fair.c, v6.6-v6.18: the weighted
 * mean vruntime of the queued entities, rounded toward minus infinity.
 */
static uint64_t avg_vruntime(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs)
{
	int64_t avg, load;

	cfs_vsums(r, cfs, &avg, &load);
	if (load) {
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return cfs->zero_vruntime + (uint64_t)avg;
}

/*
 * Mirrors vruntime_eligible() in kernel/sched/fair.c, v6.8-v6.18: an
 * entity is eligible when its vruntime is at most the weighted mean,
 * compared cross-multiplied.
 */
static bool eligible(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t vruntime)
{
	int64_t avg, load;

	cfs_vsums(r, cfs, &avg, &load);
	return avg >= (int64_t)(vruntime - cfs->zero_vruntime) * load;
}

/*
 * Mirrors update_entity_lag() in kernel/sched/fair.c, v6.6-v6.18: the lag
 * V - v of a queued entity, clamped to the service of max(2 slices, a tick).
 */
static void update_entity_lag(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, struct cfsr_task *t)
{
	uint64_t span = 2 * t->slice > r->tick_nsec ? 2 * t->slice : r->tick_nsec;
	int64_t limit = (int64_t)calc_delta_fair(span, t);
	int64_t vlag = (int64_t)(avg_vruntime(r, cfs) - t->vruntime);

	t->vlag = vlag < -limit ? -limit : vlag > limit ? limit : vlag;
}

/*
 * Mirrors place_entity() in kernel/sched/fair.c, v6.13-v6.18 (called with
 * the entity not yet queued): vruntime = V - lag, the saved lag inflated by
 * (W + w) / W so that it survives the entity's own effect on V (PLACE_LAG);
 * deadline one virtual slice later, half a slice for a new task
 * (PLACE_DEADLINE_INITIAL), or the saved relative deadline after a
 * migration (PLACE_REL_DEADLINE).
 */
static void place_entity(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, struct cfsr_task *t,
			 bool initial)
{
	uint64_t vruntime = avg_vruntime(r, cfs), vslice;
	int64_t lag = 0, avg, load;

	t->slice = r->base_slice;
	vslice = calc_delta_fair(t->slice, t);
	if (r->profile->place_lag && cfs->nr_queued && t->vlag) {
		cfs_vsums(r, cfs, &avg, &load);
		lag = t->vlag * (load + (int64_t)eevdf_weight(t));
		if (!load)
			load = 1;
		lag /= load;
	}
	t->vruntime = vruntime - (uint64_t)lag;
	if (t->rel_deadline) {
		t->deadline += t->vruntime;
		t->rel_deadline = false;
		return;
	}
	if (initial)
		vslice /= 2;
	t->deadline = t->vruntime + vslice;
}

/* ---- accounting: every change of a task's state, CPU, group or weight ------------------- */

/*
 * Add (@sign 1) or remove (-1) a task's part in its cfs_rq: account_entity_
 * enqueue/dequeue() (load.weight, nr_queued), the runnable counts of its
 * cfs_rq and the root (h_nr_runnable), cfs_rq->curr, and the EEVDF sums
 * (__enqueue_entity()/__dequeue_entity(), the running task excluded).
 */
static void task_account(struct cfsr_replay *r, const struct cfsr_task *t, int sign)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t), *root, *c, *p;
	unsigned int one = sign > 0 ? 1u : (unsigned int)-1;

	if (!cfs || !t->fair || !state_on_rq(t->state))
		return;
	root = cfs_of(r, 0, t->cpu);
	cfs->load_weight += sign > 0 ? t->load_weight : (uint64_t)0 - t->load_weight;
	cfs->nr_queued += one;
	if (cfs != root) {
		root->nr_group_tasks += one;
		root->group_children = true;
	}
	if (t->state == CFSR_TS_DELAYED)
		cfs->nr_delayed += one;
	for (c = cfs;;) {
		c->h_nr_queued += one;
		if (t->state != CFSR_TS_DELAYED)
			c->h_nr_runnable += one;
		if (t->state == CFSR_TS_RUNNING) {
			if (sign > 0)
				c->curr = t->pid;
			else if (c->curr == t->pid)
				c->curr = 0;
		}
		if (!c->group)
			break;
		/*
		 * account_entity_enqueue()/_dequeue() of the group entity: it
		 * is queued on the parent while any task is queued below
		 */
		p = cfs_of(r, r->tgs[c->group].parent, t->cpu);
		if (sign > 0 && c->h_nr_queued == 1) {
			c->se_on_rq = true;
			p->load_weight += c->se_weight;
		} else if (sign < 0 && !c->h_nr_queued) {
			c->se_on_rq = false;
			p->load_weight -= c->se_weight;
		}
		c = p;
	}
	if (t->state != CFSR_TS_RUNNING)
		avg_vruntime_account(cfs, t, sign);
}

static void set_state(struct cfsr_replay *r, struct cfsr_task *t, enum cfsr_task_state state)
{
	if (t->state == state)
		return;
	if (state != CFSR_TS_SLEEPING)
		t->dead = false;
	task_account(r, t, -1);
	t->state = state;
	task_account(r, t, 1);
	reweight_groups(r, t->group, t->cpu);
}

/* Move a task between CPUs as a migration event says (the caller does the PELT side). */
static void move_cpu(struct cfsr_replay *r, struct cfsr_task *t, int cpu)
{
	if (t->cpu == cpu)
		return;
	task_account(r, t, -1);
	reweight_groups(r, t->group, t->cpu);
	t->cpu = cpu;
	task_account(r, t, 1);
	reweight_groups(r, t->group, t->cpu);
}

static void remove_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t ts);

/*
 * A task found on another CPU than the model had it, with no migration in
 * the trace: the kernel migrated it (set_task_cpu() always does so but at
 * fork).  As migrate_task_rq_fair(): its signal is removed from the old
 * cfs_rq and attached to the new one at its next update; its
 * last_update_time, in the old CPU's clock, is not aged in the new one's.
 */
static void set_cpu(struct cfsr_replay *r, struct cfsr_task *t, int cpu, uint64_t ts)
{
	if (t->cpu == cpu)
		return;
	if (t->fair && t->cpu >= 0 && t->avg.last_update_time) {
		remove_task(r, t, ts);
		t->avg.last_update_time = 0;
		t->migrated = true;
		r->stats.unseen_migrations++;
	}
	move_cpu(r, t, cpu);
}

static void task_set_prio(struct cfsr_replay *r, struct cfsr_task *t, int prio)
{
	if (t->prio == prio)
		return;
	task_account(r, t, -1);
	t->prio = prio;
	t->fair = prio >= 100 && prio < 140;
	if (t->fair)
		t->load_weight = cfsr_prio_to_load_weight(prio);
	task_account(r, t, 1);
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

bool cfsr_cfs_rq_warming(const struct cfsr_cfs_rq *cfs, uint64_t now)
{
	return !cfs->avg_known && now < cfs->warm_until;
}

void cfsr_task_inputs(const struct cfsr_task *t, bool *on_rq, uint64_t *runnable, bool *running)
{
	*on_rq = state_on_rq(t->state);
	*runnable = t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_RUNNING;
	*running = t->state == CFSR_TS_RUNNING;
}

static void notify(struct cfsr_replay *r, struct cfsr_task *t, uint64_t ts,
		   enum cfsr_update_why why, bool exact)
{
	struct cfsr_replay_update u = { ts, t->cpu, t, NULL, why, exact };

	t->updates++;
	t->est_updates += !exact;
	r->stats.updates++;
	if (r->hook)
		r->hook(r->hook_data, &u);
}

/* Start a signal whose past is unknown from zero at @now, on the 1024 ns grid (the policy). */
static void start_unknown(struct cfsr_sched_avg *sa, uint64_t now, uint64_t *warm_until)
{
	sa->last_update_time = now & ~1023ull;
	sa->period_contrib = (uint32_t)((now >> 10) % 1024);
	*warm_until = now + WARMUP_PERIODS * 1048576ull;
}

/*
 * The cfs_rq's inputs: scale_load_down(load.weight), the runnable count
 * (h_nr_runnable, v6.14+), and whether an entity runs on it.
 */
static void cfs_age(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		    struct cfsr_sched_avg *sa, struct cfsr_pelt_removed *removed, uint64_t now)
{
	int64_t prop;

	cfsr_pelt_update_cfs_rq_load_avg(r->params, now, sa, removed, cfs->load_weight,
					 cfs->h_nr_runnable, cfs->curr > 0, &prop);
}

void cfsr_replay_cfs_rq_settle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			       uint64_t now, struct cfsr_sched_avg *out)
{
	struct cfsr_pelt_removed removed = cfs->removed;

	*out = cfs->avg;
	if (now < out->last_update_time)
		now = out->last_update_time;
	cfs_age(r, cfs, out, &removed, now);
}

bool cfsr_replay_clock_peek(const struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t *clock)
{
	bool exact;

	if (!clock_ok(r, cpu))
		return false;
	*clock = peek_clock(&r->rqs[cpu], ts, &exact);
	return true;
}

bool cfsr_replay_task_avg_at(const struct cfsr_replay *r, const struct cfsr_task *t, uint64_t ts,
			     struct cfsr_sched_avg *out)
{
	uint64_t now, at, runnable;
	bool on_rq, running;

	if (!t->fair || t->dead || !t->avg.last_update_time ||
	    !cfsr_replay_clock_peek(r, t->cpu, ts, &now))
		return false;
	*out = t->avg;
	/* a pending enqueue first ages the sleep (cfsr_replay_task_settle()) */
	if (t->enq_pending) {
		at = t->enq_clock < now ? t->enq_clock : now;
		if (at > out->last_update_time)
			cfsr_pelt_update_se(r->params, at, out, t->load_weight, false, 0, false);
	}
	cfsr_task_inputs(t, &on_rq, &runnable, &running);
	if (now > out->last_update_time)
		cfsr_pelt_update_se(r->params, now, out, t->load_weight, on_rq, runnable, running);
	return true;
}

size_t cfsr_replay_nr_tasks(const struct cfsr_replay *r)
{
	return r->nr_tasks;
}

const struct cfsr_task *cfsr_replay_task_at(const struct cfsr_replay *r, size_t i)
{
	return i < r->nr_tasks ? &r->tasks[i] : NULL;
}

/*
 * Mirrors update_cfs_rq_load_avg() as update_load_avg() calls it
 * (kernel/sched/fair.c, v6.12-v6.18): removed load first, then the cfs_rq
 * aged with its inputs up to @now.
 * Differs: an estimated clock behind the cfs_rq's last update holds at
 * that update (the kernel's clock never goes back).
 */
static int cfs_update(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t now, uint64_t ts,
		      bool exact)
{
	struct cfsr_replay_update u = { ts, cfs->cpu, NULL, cfs, CFSR_UPD_CFS_RQ, exact };
	int64_t prop = 0;
	int decayed;

	/* on a CPU with no clock anchor yet, @now is the trace clock: wait for one */
	if (!clock_ok(r, cfs->cpu))
		return 0;
	if (!cfs->avg.last_update_time && !cfs->avg_known)
		start_unknown(&cfs->avg, now, &cfs->warm_until);
	if (now < cfs->avg.last_update_time)
		now = cfs->avg.last_update_time;
	decayed = cfsr_pelt_update_cfs_rq_load_avg(r->params, now, &cfs->avg, &cfs->removed,
						   cfs->load_weight, cfs->h_nr_runnable,
						   cfs->curr > 0, &prop);
	if (prop) {
		/* add_tg_cfs_propagate() of the removed load */
		cfs->propagate = true;
		cfs->prop_runnable_sum += prop;
	}
	cfs->updates++;
	r->stats.cfs_updates++;
	if (r->hook)
		r->hook(r->hook_data, &u);
	return decayed;
}

/*
 * Mirrors update_tg_load_avg() in kernel/sched/fair.c for a group cfs_rq,
 * v6.12-v6.18 (the 1/64 threshold and, from v6.7, the 1 ms rate limit,
 * chosen by lib/group.c's params).  The root's tg->load_avg is not kept.
 */
static void tg_publish(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t ts)
{
	if (!cfs->group)
		return;
	cfsr_group_publish_load(r->gparams, &r->tgs[cfs->group].load_avg, &cfs->tg_load_avg_contrib,
				&cfs->last_update_tg_load_avg, cfs->avg.load_avg, ts);
}

int64_t cfsr_replay_tg_load_avg(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	return cfs->group > 0 && (size_t)cfs->group < r->nr_groups ? r->tgs[cfs->group].load_avg :
								     0;
}

/*
 * Mirrors update_cfs_group() in kernel/sched/fair.c, v5.7-v6.18, with
 * reweight_entity()'s PELT part: an empty group keeps its entity's weight
 * (v6.12+); otherwise calc_group_shares() and, when the weight changes
 * (v6.7+) or always (v5.7-v6.6, gparams->reweight_unchanged), the
 * entity's load leaves the parent, its load_avg is recomputed from its
 * load_sum for the weight, and it re-enters (lib/group.c, lib/pelt.c).
 * The EEVDF part of a reweight is not modelled.  @walk: called from an
 * update walk, where the kernel calls it; the model's own calls after
 * a change of its accounting (reweight_groups()) act only on a change of
 * weight, as a second reweight at the same instant changes nothing.
 */
static void update_cfs_group(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, bool walk)
{
	const struct replay_tg *tg = &r->tgs[gcfs->group];
	struct cfsr_cfs_rq *p = cfs_of(r, tg->parent, gcfs->cpu);
	uint64_t shares;

	if (r->gparams->keep_empty_weight && !gcfs->load_weight)
		return;
	shares =
		cfsr_group_calc_shares(r->params, tg->shares, gcfs->load_weight, gcfs->avg.load_avg,
				       tg->load_avg, gcfs->tg_load_avg_contrib);
	if (shares == gcfs->se_weight && !(walk && r->gparams->reweight_unchanged))
		return;
	if (gcfs->se_on_rq)
		p->load_weight -= gcfs->se_weight;
	cfsr_pelt_reweight_se(r->params, &p->avg, &gcfs->se_avg, gcfs->se_weight, shares);
	gcfs->se_weight = shares;
	if (gcfs->se_on_rq)
		p->load_weight += shares;
}

void cfsr_replay_group_take(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t se_weight,
			    uint64_t contrib, int64_t tg_load_avg, uint64_t shares)
{
	struct cfsr_cfs_rq *p;

	if (!cfs->group || (size_t)cfs->group >= r->nr_groups)
		return;
	p = cfs_of(r, r->tgs[cfs->group].parent, cfs->cpu);
	if (cfs->se_on_rq && p)
		p->load_weight += se_weight - cfs->se_weight;
	cfs->se_weight = se_weight;
	cfs->tg_load_avg_contrib = contrib;
	r->tgs[cfs->group].load_avg = tg_load_avg;
	if (shares)
		r->tgs[cfs->group].shares = shares;
}

/* update_cfs_group() of every group entity above a task's cfs_rq, bottom-up. */
static void reweight_groups(struct cfsr_replay *r, int group, int cpu)
{
	struct cfsr_cfs_rq *c = cfs_of(r, group, cpu);

	for (; c && c->group; c = cfs_of(r, r->tgs[c->group].parent, cpu))
		update_cfs_group(r, c, false);
}

/*
 * The levels above a group cfs_rq just updated, as the kernel's walks
 * (enqueue_task_fair(), dequeue_entities(), entity_tick(),
 * set_next_entity(), put_prev_entity()) take them, v6.12-v6.18: for each
 * group entity, update_load_avg(parent, se, UPDATE_TG) -- the entity aged
 * with its weight, its runnable count and whether it runs, the parent's
 * removed load and ageing, propagate_entity_load_avg() of a pending change
 * below (lib/group.c), update_tg_load_avg() of the parent if anything
 * changed -- then update_cfs_group(se), unless @reweight is false:
 * propagate_entity_cfs_rq() after detach_entity_cfs_rq() (v5.7-v6.0, see
 * on_migrate()) walks up without it.
 * Differs: a group entity whose past precedes the trace starts from zero
 * at its first update, as a task's (warming up).
 */
static void group_walk(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, uint64_t now, uint64_t ts,
		       bool exact, bool reweight)
{
	struct cfsr_replay_update u = { ts, gcfs->cpu, NULL, NULL, CFSR_UPD_GROUP_SE, exact };
	struct cfsr_cfs_rq *p;
	uint64_t se_now;
	int decayed;

	for (; gcfs->group; gcfs = p) {
		p = cfs_of(r, r->tgs[gcfs->group].parent, gcfs->cpu);
		se_now = now < gcfs->se_avg.last_update_time ? gcfs->se_avg.last_update_time : now;
		if (!gcfs->se_avg.last_update_time && !gcfs->se_known)
			start_unknown(&gcfs->se_avg, se_now, &gcfs->se_warm_until);
		cfsr_pelt_update_se(r->params, se_now, &gcfs->se_avg, gcfs->se_weight,
				    gcfs->se_on_rq, gcfs->h_nr_runnable, gcfs->curr > 0);
		gcfs->se_updates++;
		decayed = cfs_update(r, p, now, ts, exact);
		if (gcfs->propagate) {
			gcfs->propagate = false;
			p->propagate = true;
			p->prop_runnable_sum += gcfs->prop_runnable_sum;
			cfsr_group_propagate(r->params, &p->avg, &gcfs->se_avg, gcfs->se_weight,
					     &gcfs->avg, gcfs->load_weight,
					     &gcfs->prop_runnable_sum);
			decayed = 1;
		}
		if (decayed)
			tg_publish(r, p, ts);
		if (reweight)
			update_cfs_group(r, gcfs, true);
		u.cfs_rq = gcfs;
		if (r->hook)
			r->hook(r->hook_data, &u);
	}
}

/*
 * The cfs_rqs an update_load_avg(UPDATE_TG) of a task's entity reaches:
 * its own, then the levels above through the group entities.
 */
static void cfs_update_task(struct cfsr_replay *r, const struct cfsr_task *t, uint64_t now,
			    uint64_t ts, bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (!cfs || !t->fair || !clock_ok(r, t->cpu))
		return;
	if (cfs_update(r, cfs, now, ts, exact))
		tg_publish(r, cfs, ts);
	group_walk(r, cfs, now, ts, exact, true);
}

static void attach_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			bool exact);

/*
 * Mirrors update_load_avg() on a task entity (kernel/sched/fair.c,
 * v6.12-v6.18): __update_load_avg_se() with the inputs given, then the
 * cfs_rq's update.
 */
static void update_task_with(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			     enum cfsr_update_why why, bool exact, bool on_rq, uint64_t runnable,
			     bool running)
{
	uint64_t se_now = now < t->avg.last_update_time ? t->avg.last_update_time : now;

	if (!clock_ok(r, t->cpu))
		return;
	if ((t->avg_known || t->migrated) && !t->avg.last_update_time) {
		/* not attached yet (new, moved, or its CPU had no clock then): DO_ATTACH */
		attach_task(r, t, now, ts, exact);
		return;
	}
	if (!t->avg_known && !t->avg.last_update_time)
		start_unknown(&t->avg, se_now, &t->warm_until);
	t->set_next_est = false;
	cfsr_pelt_update_se(r->params, se_now, &t->avg, t->load_weight, on_rq, runnable, running);
	notify(r, t, ts, why, exact);
	cfs_update_task(r, t, now, ts, exact);
}

static void update_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			enum cfsr_update_why why, bool exact);

/*
 * Mirrors the enqueue_entity() update of a woken task: the sleep is aged
 * with zero inputs.  Its clock is estimated from the wakeup's trace time,
 * which follows the kernel's rq clock update by an unknown delay, so it is
 * applied late, bounded by the task's next update (it cannot be later than
 * the switch into the task, whose clock the run-time chain gives exactly).
 * The cfs_rq was updated at the wakeup.
 */
void cfsr_replay_task_settle(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now)
{
	uint64_t at;

	if (!t->enq_pending)
		return;
	t->enq_pending = false;
	if (!clock_ok(r, t->cpu) || ((t->avg_known || t->migrated) && !t->avg.last_update_time))
		return;
	at = t->enq_clock < now ? t->enq_clock : now;
	if (at < t->avg.last_update_time)
		at = t->avg.last_update_time;
	if (!t->avg_known && !t->avg.last_update_time)
		start_unknown(&t->avg, at, &t->warm_until);
	cfsr_pelt_update_se(r->params, at, &t->avg, t->load_weight, false, 0, false);
	notify(r, t, t->enq_ts, CFSR_UPD_ENQUEUE, false);
}

static void update_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			enum cfsr_update_why why, bool exact)
{
	uint64_t runnable;
	bool on_rq, running;

	if (!t->fair)
		return;
	cfsr_replay_task_settle(r, t, now);
	cfsr_task_inputs(t, &on_rq, &runnable, &running);
	update_task_with(r, t, now, ts, why, exact, on_rq, runnable, running);
}

/*
 * Mirrors attach_entity_load_avg() (kernel/sched/fair.c, v5.18-v6.18) as
 * update_load_avg(DO_ATTACH) does it: the cfs_rq is updated to @now, then
 * the entity takes its window (last_update_time, period_contrib), its sums
 * are rebuilt from its averages, and the cfs_rq gains them.
 */
static void attach_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (!cfs || !clock_ok(r, t->cpu))
		return;
	cfs_update(r, cfs, now, ts, exact);
	/* DO_ATTACH: add_tg_cfs_propagate() of the sums, update_tg_load_avg() */
	cfs->prop_runnable_sum +=
		cfsr_pelt_attach_se(r->params, &cfs->avg, &t->avg, t->load_weight);
	cfs->propagate = true;
	tg_publish(r, cfs, ts);
	group_walk(r, cfs, now, ts, exact, true);
	t->migrated = false;
	if (t->attach_pending) {
		t->attach_pending = false;
		r->attach_pending--;
	}
	notify(r, t, ts, CFSR_UPD_ENQUEUE, exact);
}

/*
 * Mirrors remove_entity_load_avg() (kernel/sched/fair.c, v5.7-v6.18): the
 * entity is synced to its cfs_rq's last update (sync_entity_load_avg())
 * and its averages queued in the cfs_rq's removed load.
 */
static void remove_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t ts)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (!cfs || !t->fair || !t->avg.last_update_time)
		return;
	if (cfs->avg.last_update_time > t->avg.last_update_time)
		cfsr_pelt_update_blocked_se(r->params, cfs->avg.last_update_time, &t->avg,
					    t->load_weight);
	cfsr_pelt_remove_se(&cfs->removed, &t->avg);
	notify(r, t, ts, CFSR_UPD_REMOVE, false);
}

/*
 * Mirrors util_est_update(..., task_sleep = true) at a sleeping task's
 * dequeue (kernel/sched/fair.c, v5.7-v6.18; the layout of util_est by
 * profile, lib/pelt.c): a sample of the averages as the task's last update
 * left them, once per sleep.
 */
static void sample_util_est(struct cfsr_replay *r, struct cfsr_task *t)
{
	if (t->ue_sampled || !t->fair)
		return;
	cfsr_pelt_util_est_sample(r->params, &t->avg, SCHED_CAPACITY_SCALE, true);
	t->ue_sampled = true;
}

/*
 * Mirrors util_est_enqueue()/util_est_dequeue() (kernel/sched/fair.c,
 * v5.7-v6.18): the root cfs_rq of the task's CPU sums the estimates
 * (_task_util_est()) of its queued, runnable tasks (a delayed task's was
 * taken out at its sleep).  dequeue_task_fair() calls util_est_dequeue()
 * before the sleep's util_est_update() (v5.12-v6.18 alike), and the
 * estimate changes nowhere else, so what leaves the root is what entered
 * it, from the CPU it entered: the model may have sampled the sleep, or
 * moved the task, before it takes the task out.  The kernel never adds a
 * task twice nor takes out one it did not add; where the trace hid the
 * dequeue in between (a lost switch, a task queued before the trace
 * began), the model does neither either, so the sum holds only the tasks
 * it knows queued.
 */
static void root_util_est(struct cfsr_replay *r, struct cfsr_task *t, int sign)
{
	struct cfsr_cfs_rq *root;

	if (!t->fair)
		return;
	if (t->ue_in_root) {
		root = cfs_of(r, 0, t->ue_cpu);
		if (root)
			root->avg.util_est = cfsr_pelt_util_est_dequeue(
				r->params, root->avg.util_est, t->ue_root);
		t->ue_in_root = false;
	}
	root = cfs_of(r, 0, t->cpu);
	if (sign < 0 || !root)
		return;
	t->ue_root = cfsr_pelt_util_est_of(&t->avg);
	root->avg.util_est = cfsr_pelt_util_est_enqueue(r->params, root->avg.util_est, t->ue_root);
	t->ue_cpu = t->cpu;
	t->ue_in_root = true;
}

/* ---- event handlers ------------------------------------------------------------------ */

/*
 * Mirrors wakeup_preempt() in kernel/sched/core.c, v6.7-v6.18 (before:
 * check_preempt_curr(), same code): when a wakeup leaves the rq's current
 * task queued with need_resched set, rq_clock_skip_update() asks the
 * __schedule() that follows to keep the rq clock (RQCF_REQ_SKIP, promoted
 * to RQCF_ACT_SKIP there).  The idle task counts as queued (init_idle()
 * sets its on_rq), and any woken fair task preempts it (resched_curr(),
 * fair above idle), so a CPU woken from idle switches at the clock of its
 * wakeup, or of a later update_rq_clock() before the switch.  Whether a
 * wakeup set need_resched shows in the switch that follows: from idle, or
 * preempting a task still runnable.
 */
static void request_skip(struct cfsr_replay *r, struct replay_rq *rq, const struct cfsr_task *p,
			 uint64_t now, bool exact)
{
	const struct cfsr_task *curr = rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;

	clock_updated(rq, now, exact);
	rq->skip_clock = now;
	rq->skip_exact = exact;
	/* a fair wakee does not preempt a real-time task (sched_class_above()) */
	if (!(curr && !curr->fair && p->fair))
		rq->skip = true;
}

/*
 * The rq clock a __schedule() whose update_rq_clock() was skipped uses:
 * the last one the model knows of.  Return: a skip was requested (and,
 * where the kernel's records give the clocks, that clock is known exactly).
 * Differs: in lock-step, where the model only estimated the clock the
 * wakeup left (no record of it), the switch's clock is estimated at the
 * switch, as without the skip: both are extrapolations then, and this one
 * is measured closer there.
 */
static bool skipped_clock(struct cfsr_replay *r, struct replay_rq *rq, uint64_t *now, bool *exact)
{
	rq->missed_skip = false;
	if (!rq->skip)
		return false;
	rq->skip = false;
	if (r->records && !rq->last_exact)
		return false;
	*now = rq->last_clock;
	*exact = rq->last_exact;
	return true;
}

/* A switch the trace does not show happened now: it used up a skip request. */
static void skip_missed(struct cfsr_replay *r, struct replay_rq *rq)
{
	if (!rq->skip)
		return;
	rq->skip = false;
	rq->missed_skip = rq->skip_exact && r->records;
	rq->missed_clock = rq->skip_clock;
}

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

/*
 * Mirrors requeue_delayed_entity() (kernel/sched/fair.c, v6.12-v6.18), the
 * ttwu_runnable() wakeup of a delayed task: with DELAY_ZERO its lag is
 * recomputed and, if positive, dropped and the task placed afresh at V;
 * then update_load_avg() with the delayed inputs (load 1, runnable 0),
 * clear_delayed(), and util_est_enqueue() (enqueue_task_fair()).
 */
static void requeue_delayed(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			    bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (cfs && r->profile->delay_zero) {
		update_entity_lag(r, cfs, t);
		if (t->vlag > 0) {
			task_account(r, t, -1);
			t->vlag = 0;
			place_entity(r, cfs, t, false);
			task_account(r, t, 1);
		}
	}
	update_task_with(r, t, now, ts, CFSR_UPD_REQUEUE, exact, true, 0, false);
	set_state(r, t, CFSR_TS_QUEUED);
	root_util_est(r, t, 1);
	r->stats.delayed_woken++;
}

/*
 * Mirrors dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED) from
 * pick_next_entity() (kernel/sched/fair.c, v6.12-v6.18): update_load_avg()
 * with the delayed inputs, the lag saved (positive lag dropped with
 * DELAY_ZERO, finish_delayed_dequeue_entity()), the task dequeued.  No
 * trace event marks it; util_est is not touched.
 */
static void finish_delayed(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			   bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	update_task_with(r, t, now, ts, CFSR_UPD_DELAYED_DEQUEUE, exact, true, 0, false);
	if (cfs)
		update_entity_lag(r, cfs, t);
	if (r->profile->delay_zero && t->vlag > 0)
		t->vlag = 0;
	set_state(r, t, CFSR_TS_SLEEPING);
	r->stats.delayed_picked++;
}

/*
 * Mirrors pick_eevdf() (kernel/sched/fair.c, v6.12-v6.18) on one cfs_rq:
 * the eligible queued entity with the earliest deadline (the only one, if
 * just one is queued).  Ties go to the earlier pid (the kernel's go to the
 * earlier insertion).
 * Differs: RUN_TO_PARITY is not modelled (the pick comes after a switch,
 * where it did not keep the previous task); PICK_BUDDY is not (the next
 * buddy is set only by paths the model does not see).
 */
static struct cfsr_task *pick_eevdf(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs)
{
	struct cfsr_task *best = NULL, *only = NULL;
	size_t i;

	for (i = 0; i < r->nr_tasks; i++) {
		struct cfsr_task *t = &r->tasks[i];

		if (!t->fair || !state_on_rq(t->state) || task_cfs(r, t) != cfs)
			continue;
		only = t;
		if (cfs->nr_queued > 1 && !eligible(r, cfs, t->vruntime))
			continue;
		if (!best || (int64_t)(t->deadline - best->deadline) < 0)
			best = t;
	}
	return cfs->nr_queued == 1 ? only : best;
}

/*
 * The fair pick of a __schedule() on @cpu, as far as it completes delayed
 * dequeues: pick_task_fair() restarts while the entity it picks is
 * delayed.  The CPU going idle means every delayed task on it was picked;
 * otherwise the picks inside the chosen task's cfs_rq are replayed.
 * Differs: the picks among group entities at the root are not modelled.
 */
static void pick_delayed(struct cfsr_replay *r, int cpu, const struct cfsr_task *next, uint64_t now,
			 uint64_t ts, bool exact)
{
	struct cfsr_cfs_rq *cfs;
	struct cfsr_task *t;
	size_t g, i;

	if (!r->profile->delay_dequeue)
		return;
	for (g = 0; g < r->nr_groups; g++) {
		cfs = cfs_of(r, (int)g, cpu);
		if (!cfs->nr_delayed)
			continue;
		if (!next) {
			for (i = 0; i < r->nr_tasks && cfs->nr_delayed; i++) {
				t = &r->tasks[i];
				if (t->state == CFSR_TS_DELAYED && task_cfs(r, t) == cfs)
					finish_delayed(r, t, now, ts, exact);
			}
			continue;
		}
		if (task_cfs(r, next) != cfs)
			continue;
		while (cfs->nr_delayed) {
			t = pick_eevdf(r, cfs);
			if (!t || t->state != CFSR_TS_DELAYED)
				break;
			finish_delayed(r, t, now, ts, exact);
		}
	}
}

/* Mirrors set_next_entity(): update with the waiting inputs, then run. */
static void set_next(struct cfsr_replay *r, struct cfsr_task *t, int cpu, uint64_t now, uint64_t ts,
		     bool exact)
{
	if (t->state == CFSR_TS_DELAYED) {
		/* the model missed the wakeup that requeued it */
		set_cpu(r, t, cpu, ts);
		requeue_delayed(r, t, now, ts, exact);
	}
	if (t->state != CFSR_TS_QUEUED && t->state != CFSR_TS_RUNNING) {
		set_cpu(r, t, cpu, ts);
		if (t->fair && task_cfs(r, t)) {
			if (t->state != CFSR_TS_LEFT)
				place_entity(r, task_cfs(r, t), t, false);
			root_util_est(r, t, 1);
		}
		set_state(r, t, CFSR_TS_QUEUED);
	}
	set_cpu(r, t, cpu, ts);
	if (t->state == CFSR_TS_RUNNING)
		set_state(r, t, CFSR_TS_QUEUED);
	cfsr_replay_task_settle(r, t, now);
	t->pre_set_next = t->avg;
	update_task(r, t, now, ts, CFSR_UPD_SET_NEXT, exact);
	/* an estimated switch clock can be corrected by a reading (correct_chain()) */
	t->set_next_est = !exact && t->fair;
	t->set_next_clock = now;
	set_state(r, t, CFSR_TS_RUNNING);
	t->ue_sampled = false;
	/*
	 * The run-time chain starts here; its values are as exact as @now,
	 * and mean nothing on a CPU whose clock has no anchor yet.
	 */
	t->exec_start = now;
	t->exec_known = clock_ok(r, cpu);
}

/* A task the model had running left its CPU unseen. */
static void left_unseen(struct cfsr_replay *r, struct cfsr_task *t)
{
	set_state(r, t, CFSR_TS_LEFT);
	t->exec_known = false;
	r->stats.unseen_switch_outs++;
}

/*
 * dequeue_entity() of a task that blocks (kernel/sched/fair.c,
 * v6.12-v6.18): its update was made by the caller (with the running
 * inputs); if DELAY_DEQUEUE applies and the task is not eligible it stays
 * queued, delayed (set_delayed()); otherwise its lag is saved and it
 * leaves.  util_est_dequeue() ran before, in either case.  An exiting task
 * (DEQUEUE_SPECIAL) is never delayed.
 */
static void block_task(struct cfsr_replay *r, struct cfsr_task *t, bool special)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (!t->fair || !cfs || !state_on_rq(t->state)) {
		set_state(r, t, CFSR_TS_SLEEPING);
		return;
	}
	root_util_est(r, t, -1);
	if (r->profile->delay_dequeue && !special) {
		if (!t->group && cfs->nr_group_tasks) {
			/* eligibility among group entities is not known: taken as eligible */
			r->stats.eligibility_unknown++;
		} else if (!eligible(r, cfs, t->vruntime)) {
			set_state(r, t, CFSR_TS_DELAYED);
			r->stats.delayed++;
			return;
		}
	}
	update_entity_lag(r, cfs, t);
	set_state(r, t, CFSR_TS_SLEEPING);
}

static int on_switch(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	struct cfsr_task *prev = NULL, *next = NULL;
	uint64_t now;
	bool exact, sleep = false;

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
	/*
	 * __schedule() after a wakeup that preempted the idle task or a
	 * runnable one keeps the rq clock; a task that blocks has its dequeue
	 * reported at the clock of its own __schedule() (its run-time chain).
	 */
	if (ev->sw.prev_pid > 0 && !ev->sw.preempt && ev->sw.prev_state)
		rq->skip = false;
	if (!skipped_clock(r, rq, &now, &exact))
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

		if (gone && gone->state == CFSR_TS_RUNNING)
			left_unseen(r, gone);
		else
			r->stats.unseen_switch_outs++;
	}
	if (prev) {
		sleep = !ev->sw.preempt && ev->sw.prev_state;
		task_set_prio(r, prev, ev->sw.prev_prio);
		memcpy(prev->comm, ev->sw.prev_comm, sizeof(prev->comm));
		set_cpu(r, prev, ev->cpu, ev->ts);
		if (prev->state != CFSR_TS_RUNNING) {
			if (prev->state == CFSR_TS_DELAYED)
				root_util_est(r, prev, 1);
			set_state(r, prev, CFSR_TS_RUNNING);
		}
		if (sleep && !r->profile->util_est_late)
			sample_util_est(r, prev);
		/* put_prev_entity() for a preempted task, dequeue_entity() for a sleeper */
		update_task(r, prev, now, ev->ts, sleep ? CFSR_UPD_DEQUEUE : CFSR_UPD_PUT_PREV,
			    exact);
		if (sleep && r->profile->util_est_late)
			sample_util_est(r, prev);
		if (sleep)
			block_task(r, prev,
				   prev->exiting || (ev->sw.prev_state & (CFSR_TASK_DEAD_BITS)));
		else
			set_state(r, prev, CFSR_TS_QUEUED);
	}
	if (!next || next->fair)
		pick_delayed(r, ev->cpu, next, now, ev->ts, exact);
	if (next) {
		task_set_prio(r, next, ev->sw.next_prio);
		memcpy(next->comm, ev->sw.next_comm, sizeof(next->comm));
		set_next(r, next, ev->cpu, now, ev->ts, exact);
	}
	/*
	 * task_dead_fair() in finish_task_switch() of the switch that blocks
	 * it for good (TASK_DEAD), v5.7-v6.18: an exiting task may still be
	 * preempted before it (prev_state R), and lives on until then.
	 */
	if (prev && prev->exiting && sleep) {
		remove_task(r, prev, ev->ts);
		prev->exiting = false;
		prev->dead = true;
	}
	rq->curr = ev->sw.next_pid;
	/* the chain continues from the switch's clock */
	if (clock_ok(r, ev->cpu))
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

	if (old && old != t && old->state == CFSR_TS_RUNNING)
		left_unseen(r, old);
	set_next(r, t, cpu, now > runtime ? now - runtime : 0, ts, exact);
	rq->curr = t->pid;
	r->stats.recovered_switches++;
}

/*
 * Mirrors update_curr()'s EEVDF part (kernel/sched/fair.c, v6.12-v6.18):
 * vruntime += calc_delta_fair(delta_exec); a deadline reached is renewed
 * one virtual slice later (update_deadline()).
 */
static void advance_vruntime(struct cfsr_replay *r, struct cfsr_task *t, uint64_t delta_exec)
{
	task_account(r, t, -1);
	t->vruntime += calc_delta_fair(delta_exec, t);
	if ((int64_t)(t->vruntime - t->deadline) >= 0) {
		t->slice = r->base_slice;
		t->deadline = t->vruntime + calc_delta_fair(t->slice, t);
	}
	task_account(r, t, 1);
}

static int on_runtime(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t = task_get(r, ev->runtime.pid);
	struct replay_rq *rq;
	uint64_t now;
	bool exact;

	if (!t)
		return -1;
	rq = rq_of(r, t->cpu >= 0 && t->state == CFSR_TS_RUNNING ? t->cpu : ev->cpu);
	if (!rq)
		return 0;
	if (!t->fair) {
		/*
		 * update_curr_rt()/update_curr_dl() report run time the same
		 * way: the rq clock chain continues through RT and DL tasks.
		 */
		if (t->exec_known && t->state == CFSR_TS_RUNNING && rq->curr == t->pid) {
			t->exec_start += ev->runtime.runtime;
			anchor(rq, ev->ts, t->exec_start, true, t->pid);
		}
		return 0;
	}
	if (t->exec_known && t->state == CFSR_TS_RUNNING) {
		now = t->exec_start + ev->runtime.runtime;
		exact = true;
	} else if (rq->curr == t->pid || ev->pid != t->pid || reading_holds(rq, ev->ts) ||
		   !rq->missed_skip) {
		now = clock_at(r, rq, ev->ts, &exact);
	} else {
		/* a switch after a wakeup the trace does not show, at the clock it kept */
		now = rq->missed_clock + ev->runtime.runtime;
		exact = true;
		rq->missed_skip = false;
	}
	if (rq->curr != t->pid && ev->pid == t->pid)
		recover_switch(r, rq, t, (int)(rq - r->rqs), now, ev->runtime.runtime, ev->ts,
			       exact);
	set_cpu(r, t, (int)(rq - r->rqs), ev->ts);
	if (t->state != CFSR_TS_RUNNING) {
		if (t->state == CFSR_TS_DELAYED || !state_on_rq(t->state))
			root_util_est(r, t, 1);
		set_state(r, t, CFSR_TS_RUNNING);
	}
	advance_vruntime(r, t, ev->runtime.runtime);
	/*
	 * A report emitted on another CPU comes from a read of the task's
	 * CPU time (task_sched_runtime(): update_curr() only, no PELT update).
	 */
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus && ev->cpu == t->cpu) {
		struct pending_runtime *p = &r->pending[ev->cpu];

		/* the next tick's report comes a tick later, a pick's at once */
		p->pick = p->last_runtime_pid == t->pid &&
			  ev->ts - p->last_runtime_ts < r->tick_nsec / 2;
		p->set = true;
		p->pid = t->pid;
		p->updates = t->updates;
		p->now = now;
		p->ts = ev->ts;
		p->exact = exact;
		p->unanchored = !clock_ok(r, ev->cpu);
		p->exec_from = now - ev->runtime.runtime;
	}
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus) {
		r->pending[ev->cpu].last_runtime_pid = t->pid;
		r->pending[ev->cpu].last_runtime_ts = ev->ts;
	}
	t->exec_start = now;
	t->exec_known = t->exec_known || exact;
	if (clock_ok(r, (int)(rq - r->rqs)) || exact)
		anchor(rq, ev->ts, now, exact, t->pid);
	return 0;
}

static int on_wakeup(struct cfsr_replay *r, const struct cfsr_event *ev, bool new_task)
{
	struct cfsr_task *t = new_task ? task_reset(r, ev->wake.pid) : task_get(r, ev->wake.pid);
	struct cfsr_cfs_rq *cfs;
	struct replay_rq *rq;
	int cpu = ev->wake.target_cpu >= 0 ? ev->wake.target_cpu : ev->cpu;
	uint64_t now;
	bool exact;

	if (!t)
		return -1;
	task_set_prio(r, t, ev->wake.prio);
	memcpy(t->comm, ev->wake.comm, sizeof(t->comm));
	if (!new_task && t->state == CFSR_TS_DELAYED) {
		/* ttwu_runnable(): requeued where it is, never migrated */
		rq = rq_of(r, t->cpu);
		if (rq && t->fair) {
			now = wakeup_clock(r, rq, ev->ts, &exact);
			request_skip(r, rq, t, now, exact);
			requeue_delayed(r, t, now, ev->ts, exact);
		} else {
			set_state(r, t, CFSR_TS_QUEUED);
		}
		return 0;
	}
	/* ttwu_runnable(): still queued, nothing to enqueue */
	if (!new_task && (t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_RUNNING))
		return 0;
	rq = rq_of(r, cpu);
	if (!rq)
		return 0;
	now = wakeup_clock(r, rq, ev->ts, &exact);
	request_skip(r, rq, t, now, exact);
	set_cpu(r, t, cpu, ev->ts);
	cfs = task_cfs(r, t);
	if (!t->fair || !cfs) {
		set_state(r, t, CFSR_TS_QUEUED);
		return 0;
	}
	if (new_task) {
		/*
		 * Mirrors init_entity_runnable_average(),
		 * post_init_entity_util_avg() against the task's own cfs_rq
		 * as it stands (not aged), and the attach of wake_up_new_task().
		 */
		cfsr_pelt_init_se(r->params, &t->avg, t->load_weight, true);
		cfsr_pelt_post_init_se(r->params, &t->avg, t->load_weight, SCHED_CAPACITY_SCALE,
				       &cfs->avg);
		t->avg_known = true;
		attach_task(r, t, now, ev->ts, exact);
		t->vlag = 0;
		place_entity(r, cfs, t, true);
		set_state(r, t, CFSR_TS_QUEUED);
		root_util_est(r, t, 1);
		return 0;
	}
	root_util_est(r, t, 1);
	if (t->migrated) {
		attach_task(r, t, now, ev->ts, exact);
		place_entity(r, cfs, t, false);
		set_state(r, t, CFSR_TS_QUEUED);
		return 0;
	}
	/* enqueue_entity(): age the sleep (inputs 0), then queue; see cfsr_replay_task_settle() */
	t->enq_ts = ev->ts;
	rq->woken++;
	t->enq_pending = true;
	t->enq_clock = now;
	cfs_update_task(r, t, now, ev->ts, exact);
	if (t->state != CFSR_TS_LEFT)
		place_entity(r, cfs, t, false);
	set_state(r, t, CFSR_TS_QUEUED);
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
		move_cpu(r, t, ev->migrate.dest_cpu);
		return 0;
	}
	now = clock_at(r, src, ev->ts, &exact);
	cfsr_replay_task_settle(r, t, now);
	if (t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_DELAYED) {
		/*
		 * Load balance: dequeue_entity() with DO_DETACH (a delayed task
		 * keeps its delayed inputs and stays delayed), the lag and a
		 * relative deadline saved; then the attach and place_entity()
		 * on the destination.  util_est moves with a runnable task.
		 * Before v6.1 (e1f078f50478) the dequeue only updates, and
		 * migrate_task_rq_fair() then detaches (detach_entity_cfs_rq(),
		 * same clock, update_tg_load_avg() unconditional) and walks up
		 * with propagate_entity_cfs_rq(), which does not reweight the
		 * group entities: their weights stay those of the dequeue walk.
		 */
		struct cfsr_cfs_rq *cfs = task_cfs(r, t);

		update_task(r, t, now, ev->ts, CFSR_UPD_DETACH, exact);
		cfs->prop_runnable_sum +=
			cfsr_pelt_detach_se(r->params, &cfs->avg, &t->avg, t->load_weight);
		cfs->propagate = true;
		tg_publish(r, cfs, ev->ts);
		update_entity_lag(r, cfs, t);
		t->deadline -= t->vruntime;
		t->rel_deadline = true;
		if (t->state == CFSR_TS_QUEUED)
			root_util_est(r, t, -1);
		task_account(r, t, -1);
		reweight_groups(r, t->group, t->cpu);
		if (clock_ok(r, t->cpu))
			group_walk(r, cfs, now, ev->ts, exact, r->profile->detach_in_dequeue);
		t->cpu = ev->migrate.dest_cpu;
		/*
		 * attach_tasks() attaches it later, at the destination's
		 * clock, whose records follow the migration event: at the
		 * first of them, or at the task's next update.
		 */
		if (!r->records) {
			now = clock_at(r, dst, ev->ts, &exact);
			attach_task(r, t, now, ev->ts, exact);
		} else if (!t->attach_pending) {
			t->avg.last_update_time = 0;
			t->migrated = true;
			t->attach_pending = true;
			r->attach_pending++;
		}
		place_entity(r, task_cfs(r, t), t, false);
		task_account(r, t, 1);
		if (t->state == CFSR_TS_QUEUED)
			root_util_est(r, t, 1);
		return 0;
	}
	/*
	 * Wakeup migration, migrate_task_rq_fair(): remove_entity_load_avg()
	 * on the source (v5.7-v6.18), then, from v6.0 (e2f3e35f1f5a),
	 * migrate_se_pelt_lag(), which ages the entity further to the
	 * source's idle clock if the source CPU is idle.  Before v6.0 the
	 * task leaves with its signal as of its cfs_rq's last update.
	 */
	remove_task(r, t, ev->ts);
	if (r->profile->migrate_pelt_lag && src->curr == 0 && t->avg.last_update_time)
		cfsr_pelt_update_blocked_se(r->params, now, &t->avg, t->load_weight);
	move_cpu(r, t, ev->migrate.dest_cpu);
	t->migrated = true;
	return 0;
}

static int on_fork(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *parent = cfsr_replay_task(r, ev->fork.parent_pid);
	int prio = parent ? parent->prio : 120;
	int group = parent ? parent->group : 0;
	struct cfsr_task *child;

	/* task_reset() can move the table: parent is not used past here */
	child = task_reset(r, ev->fork.child_pid);
	if (!child)
		return -1;
	task_set_prio(r, child, prio);
	/* a group the caller gave (the kernel's structure) stands */
	if (!child->group_given) {
		task_account(r, child, -1);
		child->group = group;
		task_account(r, child, 1);
	}
	memcpy(child->comm, ev->fork.child_comm, sizeof(child->comm));
	return 0;
}

int cfsr_replay_task_set_group(struct cfsr_replay *r, int pid, const char *path)
{
	struct cfsr_task *t;
	int g = group_get(r, path);

	if (g < 0)
		return cfsr_error("replay: out of memory");
	t = task_get(r, pid);
	if (!t)
		return cfsr_error("replay: out of memory");
	t->group_given = true;
	if (t->group == g)
		return 0;
	task_account(r, t, -1);
	reweight_groups(r, t->group, t->cpu);
	t->group = g;
	task_account(r, t, 1);
	reweight_groups(r, t->group, t->cpu);
	return 1;
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
	rq->read = false;
	rq->skip = false;
	rq->missed_skip = false;
	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].cpu == ev->cpu)
			r->tasks[i].exec_known = false;
}

/*
 * A reading right after a run-time report of the CPU, whose clock the
 * model estimated (a switch into the task was missing), is the clock of
 * that report: update_curr() and the PELT updates after it in one path
 * use the same rq clock.  The task's run-time chain is moved onto it, and
 * the update of the missing switch (set_next_entity(), the run time
 * before) is made again at its corrected clock.
 * Differs: the cfs_rq updates made at the estimated switch clock stay.
 */
static void correct_chain(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock)
{
	struct pending_runtime *p = &r->pending[cpu];
	struct cfsr_task *t;
	uint64_t at;

	if (!p->set || p->exact || ts < p->ts || ts - p->ts >= READING_HOLD_NS)
		return;
	t = cfsr_replay_task(r, p->pid);
	if (!t || !t->fair || t->state != CFSR_TS_RUNNING || t->cpu != cpu ||
	    t->updates != p->updates || clock < p->exec_from)
		return;
	if (t->set_next_est) {
		at = t->set_next_clock + clock - p->now;
		t->avg = t->pre_set_next;
		if (at >= t->avg.last_update_time)
			cfsr_pelt_update_se(r->params, at, &t->avg, t->load_weight, true, 1, false);
		t->set_next_est = false;
	}
	p->now = clock;
	p->exact = true;
	t->exec_start = clock;
	t->exec_known = true;
	anchor(&r->rqs[cpu], p->ts, clock, true, t->pid);
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
	bool sleep;

	if (ev->cpu < 0 || ev->cpu >= r->nr_cpus || !r->pending[ev->cpu].set)
		return;
	p = &r->pending[ev->cpu];
	p->set = false;
	t = cfsr_replay_task(r, p->pid);
	if (!t || t->state != CFSR_TS_RUNNING || t->updates != p->updates)
		return;
	/*
	 * A reading came after a report made without a clock: the report's
	 * update takes the clock estimated back from that reading, never the
	 * trace clock it was reported on.
	 */
	if (p->unanchored) {
		if (!clock_ok(r, ev->cpu))
			return;
		p->now = clock_at(r, &r->rqs[ev->cpu], p->ts, &p->exact);
		p->unanchored = false;
	}
	if ((ev->kind == CFSR_EV_WAKEUP || ev->kind == CFSR_EV_WAKEUP_NEW) &&
	    ev->wake.target_cpu == t->cpu && ev->wake.pid != t->pid)
		return;
	/*
	 * A report right after another of the same task came from the pick
	 * of the __schedule() the first one's tick asked for: update_curr()
	 * in pick_task_fair(), with a PELT update only if a switch follows
	 * (put_prev_entity()); when the pick keeps the task, none, but the
	 * pick completed the delayed dequeues it met first (pick_next_entity(),
	 * kernel/sched/fair.c, v6.12-v6.18), at that report's clock.
	 */
	if (p->pick && !(ev->kind == CFSR_EV_SWITCH && ev->sw.prev_pid == t->pid)) {
		pick_delayed(r, t->cpu, t, p->now, p->ts, p->exact);
		return;
	}
	/*
	 * A sleep: dequeue_task_fair() samples util_est before dequeue_entity()
	 * updates (v6.12+), or after it (util_est_late, v6.11 and before).
	 */
	sleep = ev->kind == CFSR_EV_SWITCH && ev->sw.prev_pid == t->pid && !ev->sw.preempt &&
		ev->sw.prev_state;
	if (sleep && !r->profile->util_est_late)
		sample_util_est(r, t);
	update_task(r, t, p->now, p->ts, CFSR_UPD_RUNTIME, p->exact);
	if (sleep && r->profile->util_est_late)
		sample_util_est(r, t);
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
	if (old && old->state == CFSR_TS_RUNNING)
		left_unseen(r, old);
	/* the first event after the switch: later wakeups ask for the next one */
	if (rq->curr >= 0)
		skip_missed(r, rq);
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
		left_unseen(r, t);
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
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus && ev->kind != CFSR_EV_STAT_RUNTIME)
		r->pending[ev->cpu].last_runtime_pid = 0;
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
		if (t) {
			t->exec_known = false;
			t->exiting = true;
		}
		break;
	case CFSR_EV_PI_SETPRIO:
		t = task_get(r, ev->pi.pid);
		if (!t)
			return -1;
		task_set_prio(r, t, ev->pi.newprio);
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

struct cfsr_replay *cfsr_replay_new(int nr_cpus, const struct cfsr_profile *profile, int hz)
{
	struct cfsr_replay *r;
	unsigned int factor;
	int i;

	if (nr_cpus <= 0 || nr_cpus > 65536 || !profile || !profile->pelt)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->rqs = calloc((size_t)nr_cpus, sizeof(*r->rqs));
	r->pending = calloc((size_t)nr_cpus, sizeof(*r->pending));
	r->nr_cpus = nr_cpus;
	if (!r->rqs || !r->pending || group_get(r, "/") != 0) {
		cfsr_replay_free(r);
		return NULL;
	}
	for (i = 0; i < nr_cpus; i++)
		r->rqs[i].curr = -1;
	r->params = profile->pelt;
	r->profile = profile;
	/* the group behaviour of the profile's newest release */
	r->gparams = cfsr_group_params_for(profile->last);
	if (!r->gparams)
		r->gparams = &cfsr_group_params_modern;
	r->tick_nsec = 1000000000ull / (uint64_t)(hz > 0 ? hz : 250);
	/* sched_update_scaling(): factor 1 + ilog2(min(CPUs, 8)) */
	for (factor = 1, i = nr_cpus < 8 ? nr_cpus : 8; i > 1; i >>= 1)
		factor++;
	r->base_slice = (uint64_t)profile->base_slice_ns * factor;
	return r;
}

void cfsr_replay_free(struct cfsr_replay *r)
{
	size_t i;

	if (!r)
		return;

	free(r->rqs);
	free(r->pending);
	free(r->tasks);
	free(r->map);
	for (i = 0; i < r->nr_groups; i++)
		free(r->groups[i]);
	free(r->groups);
	free(r->tgs);
	free(r->cfs_of);
	free(r->cfs);
	free(r);
}

void cfsr_replay_take_tunables(struct cfsr_replay *r, const struct cfsr_trace_info *info)
{
	if (info->base_slice_ns && !cfsr_profile_what_if(info->kernel_release, r->profile))
		r->base_slice = info->base_slice_ns;
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

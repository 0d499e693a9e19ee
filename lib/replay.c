// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay engine.  See replay.h for the model and docs/KERNEL-PATHS.md
 * for the kernel paths each handler mirrors.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cfspick.h"
#include "error.h"
#include "group.h"
#include "math.h"
#include "pelt-ops.h"
#include "replay.h"
#include "schedfeat.h"
#include "topology.h"
#include "trace.h"
#include "weight.h"

struct replay_rq {
	/* current task: pid, 0 for idle, -1 unknown */
	int curr;
	/* a newly-idle balance brought rq->next_balance to the next tick (newidle_balance()) */
	bool balance_due;
	/* trace time of the last wakeup that enqueued a task here */
	uint64_t woken_ts;
	/* trace time of the last update_blocked_averages() of the older models, 0 if none */
	uint64_t blocked_ts;
	/* clock anchor: clock_task was anchor_clock at trace time anchor_ts */
	bool anchored;
	bool anchor_exact;
	/* anchor_clock descends from a trace time stamp (struct cfsr_replay stamp) */
	bool anchor_stamp;
	uint64_t anchor_ts;
	uint64_t anchor_clock;
	/* the anchor came from a run-time event of this task, nothing since */
	int anchor_pid;
	/* the last clock reading: the rq clock at trace time read_ts */
	bool read;
	uint64_t read_ts;
	uint64_t read_clock;
	/* no update_rq_clock() from read_ts to this trace time (0: not known) */
	uint64_t read_until;
	/* the clock of the rq's last update_rq_clock() the model knows of */
	uint64_t last_clock;
	bool last_exact;
	bool last_stamp;
	/* the trace time at which the rq clock had last_clock */
	uint64_t last_ts;
	/* RQCF_REQ_SKIP: a wakeup asked the next __schedule() to keep the clock */
	bool skip;
	/* the clock of the last wakeup's enqueue, or of a reading since */
	uint64_t skip_clock;
	bool skip_exact;
	bool skip_stamp;
	/* the clock of the wakeup that asked for the skip itself, which readings do not move */
	uint64_t skip_wake_clock;
	/* that wakeup's trace time */
	uint64_t skip_ts;
	/* a switch the trace does not show kept this clock */
	bool missed_skip;
	uint64_t missed_clock;
	bool missed_stamp;
	uint64_t missed_wake_clock;
	/*
	 * a task seen running without a switch into it: its report ahead
	 * (at trace time ahead_ts, ahead_runtime) places the switch
	 * (recover_ahead(), recover_due()); 0 none
	 */
	int ahead_pid;
	uint64_t ahead_ts;
	uint64_t ahead_runtime;
	/* a queued task this CPU pulled (its migration event ran here), and when */
	int pulled_pid;
	uint64_t pulled_ts;
	/* the switch kept the clock of the wakeup before it (missed_skip): it ran from there */
	bool ahead_skip;
	/* wakeups onto this rq since it was last seen idle */
	unsigned int woken;
	/*
	 * The fair tasks queued (delayed included) or running here, as indices
	 * into the task table, in the order they were last accounted in: what
	 * a pick looks at, without a pass over every task.
	 */
	size_t *onrq;
	size_t nr_onrq;
	size_t alloc_onrq;
	/*
	 * a kernel record showed update_blocked_averages() of this rq at trace
	 * time hint_ts, rq clock hint_clock (cfsr_replay_blocked_hint()), not
	 * made yet; 0 none
	 */
	uint64_t hint_ts;
	uint64_t hint_clock;
	/* ... made after the switch being replayed (a newly-idle balance's) */
	bool hint_after;
	/*
	 * arch_scale_cpu_capacity() and arch_scale_freq_capacity() of the CPU
	 * (cfsr_replay_set_capacity(), cfsr_replay_set_freq_scale()): 1024
	 * unless given
	 */
	uint32_t cap;
	uint32_t freq;
	/* cpuinfo_max_freq (kHz) from the trace's metadata, 0 unknown */
	uint64_t max_khz;
	/*
	 * The PELT clock of v5.1+ where a scale is not 1024 (pelt_on): at
	 * clock_task pelt_task, rq->clock_pelt was pelt_base; pelt_busy: the
	 * rq's curr has not been the idle task since; lost_idle_time as the
	 * kernel's.  Off, the PELT clock is clock_task (rq_clock_pelt()).
	 */
	bool pelt_on;
	bool pelt_busy;
	uint64_t pelt_task;
	uint64_t pelt_base;
	uint64_t lost_idle_time;
};

/*
 * A run-time report whose PELT update waits for the next event of the CPU
 * that emitted it (at most CFSR_REPLAY_PATH_NS, settle_ticks()):
 * update_curr() runs in the tick, a dequeue or a put_prev, which update
 * the task's signal, but also in wakeup preemption and enqueue paths,
 * which do not (docs/KERNEL-PATHS.md).
 */
struct pending_runtime {
	bool set;
	int pid;
	/* the task's update count then: a later update supersedes this one */
	uint64_t updates;
	uint64_t now;
	uint64_t ts;
	bool exact;
	/* @now descends from a trace time stamp */
	bool stamp;
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
	/* trace time of the last report taken as a tick's (settle_ticks()), 0 none */
	uint64_t last_tick_ts;
	/* the report is a dying task's move out of its autogroup: group index + 1, else 0 */
	int exit_group;
	/*
	 * an enqueue in progress from the CPU (a wakeup's sched_waking and the
	 * migration that set its CPU, or a migration away, no other event
	 * since): the CPU whose rq it enqueues on + 1, else 0; its task
	 */
	int enq_cpu1;
	int enq_pid;
};

/* A change of tg->load_avg: a publication by @cpu, or a reading (@cpu -1). */
struct tg_change {
	uint64_t ts;
	int cpu;
	int64_t delta;
};

#define TG_CHANGES 16

/* A task group: its parent, tg->load_avg, tg->shares, tg->runnable_avg (v3.8-v4.2). */
struct replay_tg {
	int parent;
	/* made within the trace (cfsr_replay_group_created()) */
	bool created;
	/* levels below the root (the root 0) */
	int depth;
	int64_t load_avg;
	uint64_t shares;
	/* tg->idle: cpu.idle 1 (cfsr_replay_group_idle()) */
	bool idle;
	int64_t runnable_avg;
	/* the last changes of @load_avg, a ring (tg_load_at()) */
	struct tg_change changes[TG_CHANGES];
	unsigned int next_change;
};

/*
 * tg->shares stated for a group before the engine meets it
 * (cfsr_replay_group_shares(); 0 none), and whether the trace saw the
 * group made (cfsr_replay_group_created()).
 */
struct replay_shares {
	char *path;
	uint64_t shares;
	bool created;
	bool idle;
};

struct cfsr_replay {
	/* trace time of the update being made (tg_load_at()) */
	uint64_t cur_ts;
	/*
	 * A clock the current event's updates use descends from a trace time
	 * stamp: an estimate, or a run-time chain that started from one.  Such
	 * an update is reported with clock_exact false even when the chain
	 * makes it exact for the model (cfsr_replay_update): the clock depends
	 * on when the tracer stamped an event, not only on kernel values.
	 */
	/*
	 * prev of the switch whose pick is being made (pick_delayed()): its
	 * entities are still each level's curr (cfs_running())
	 */
	const struct cfsr_task *pick_prev;
	bool stamp;
	/* no pending run-time report is older (settle_ticks()) */
	uint64_t settle_from;
	/* the deepest group's depth (struct replay_tg) */
	int max_depth;
	/* rqs with a blocked-load hint not made yet (settle_blocked()) */
	unsigned int hints;
	const struct cfsr_pelt_params *params;
	const struct cfsr_group_params *gparams;
	const struct cfsr_profile *profile;
	/* the PELT operations of the profile's arithmetic (lib/pelt-ops.h) */
	const struct cfsr_pelt_ops *ops;
	/* util_est rules, NULL where the model has none */
	const struct cfsr_pelt_params *ue;
	/* sched_update_scaling()'s factor, 1 + ilog2(min(CPUs, 8)) */
	unsigned int factor;
	/* the profile with the traced kernel's scheduler features (cfsr_replay_take_tunables()) */
	struct cfsr_profile own;
	/* its PELT parameters, with UTIL_EST_FASTUP as the trace says */
	struct cfsr_pelt_params own_pelt;
	/* TICK_NSEC and sysctl_sched_base_slice */
	uint64_t tick_nsec;
	/* the last report taken as a tick's, and whether the ticks' grid is confirmed (tick_seen()) */
	uint64_t tick_anchor;
	bool tick_confirmed;
	uint64_t base_slice;
	/*
	 * reweight_entity() places a queued entity again (6d71a9c61604, v6.13+;
	 * not in 6.12.y, which keeps v6.9's reweight_eevdf())
	 */
	bool reweight_place;
	/* EEVDF: lags from before the trace moved to the kernel's picks (infer_guessed_pick()) */
	bool infer_lags;
	/* a dying task is moved even within its group (exit_same()), by release */
	bool exit_same;
	/* CONFIG_SCHED_AUTOGROUP as recorded: 1 set, -1 not, 0 unknown */
	int sched_autogroup;
	/* CFS profiles: the tunables of their vruntime rules */
	struct cfsr_cfs_tunables cfs_tu;
	/* clock readings will come: no update on a CPU until its first */
	bool expect_clock;
	/* the kernel's update_blocked_averages() passes will be told (cfsr_replay_blocked_hint()) */
	bool blocked_hints;
	/* the CPUs' frequency scale follows power:cpu_frequency (cfsr_topo_freq_from_cpufreq()) */
	bool freq_events;
	/* a per-CPU list could not grow: the event fails */
	bool oom;
	struct replay_shares *stated;
	size_t nr_stated;
	size_t alloc_stated;
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
	/* tasks a load balance detached whose enqueue waits for its last detach (pull_continues()) */
	int *pulled;
	size_t nr_pulled;
	size_t pulled_alloc;
	/* that balance's last migration */
	struct cfsr_event pull_ev;
	/* tasks whose nice change waits for the next event after its report (nice_due()) */
	unsigned int nice_pending;
	cfsr_replay_hook hook;
	void *hook_data;
	/* a look at the events ahead (cfsr_replay_set_peek()), NULL none */
	cfsr_replay_peek peek;
	void *peek_ctx;
	/* cgroup_attach_task moves tasks, forks start in the parent's group (cfsr_replay_follow_attaches()) */
	bool follow_attaches;
	/* the cpu controller's hierarchy id; CFSR_CPU_ROOT_UNKNOWN until an attach shows it */
	int cpu_root;
	/* the cpu controller's groups the snapshots or records name (cfsr_replay_name_cpu_group()) */
	char **cpu_names;
	size_t nr_cpu_names;
	size_t alloc_cpu_names;
	/* the path of the attach event being replayed (keep_attach_path()) */
	char *attach_path;
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

/* The task with @pid, or NULL: cfsr_replay_task() for the engine's read-only paths. */
static struct cfsr_task *task_find(const struct cfsr_replay *r, int pid)
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

struct cfsr_task *cfsr_replay_task(struct cfsr_replay *r, int pid)
{
	return task_find(r, pid);
}

static void task_account(struct cfsr_replay *r, const struct cfsr_task *t, int sign);
static uint32_t task_wmult(const struct cfsr_task *t);
static void task_load_leave(struct cfsr_replay *r, struct cfsr_task *t, bool sleep);
static void root_util_est(struct cfsr_replay *r, struct cfsr_task *t, int sign);
static int group_get(struct cfsr_replay *r, const char *path);
static void reweight_groups(struct cfsr_replay *r, int group, int cpu);
static void recovered_report(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now,
			     uint64_t runtime);
static void recover_due(struct cfsr_replay *r, struct replay_rq *rq);
/*
 * What group_levels() does besides queueing the group entities: nothing
 * more; se_update_runnable() only; that and update_cfs_group() on a change
 * of weight only; or both as a walk calls them.
 */
enum { LEVELS_KEEP, LEVELS_RUNNABLE, LEVELS_CHANGED, LEVELS_WALK };

static void group_levels(struct cfsr_replay *r, int group, int cpu, int reweight);

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
	task_load_leave(r, t, false);
	task_account(r, t, -1);
	root_util_est(r, t, -1);
	memset(&t->avg, 0, sizeof(t->avg));
	if (t->cpu >= 0) {
		/* the group entities it leaves follow */
		t->state = CFSR_TS_UNKNOWN;
		group_levels(r, t->group, t->cpu, LEVELS_KEEP);
	}
	t->enq_pending = false;
	t->cpu = -1;
	t->state = CFSR_TS_UNKNOWN;
	t->vlag = 0;
	t->lag_seen = false;
	t->lag_guessed = false;
	t->rel_deadline = false;
	t->exiting = false;
	t->exit_moved = false;
	t->dead = false;
	t->exec_known = false;
	t->avg_known = false;
	t->migrated = false;
	if (t->attach_pending) {
		t->attach_pending = false;
		r->attach_pending--;
	}
	t->attach_clocked = false;
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
 * A reading newer than the anchor, or the anchor's own clock (a report
 * in the same path: check_preempt_wakeup_fair()'s update_curr() between a
 * wakeup's enqueue and its event), and within READING_HOLD_NS before @ts:
 * the rq clock as the path that emitted it left it, which the event at
 * @ts, in the same path, uses (a wakeup follows the records of its
 * enqueue, util_est_enqueue()'s among them, at the clock of the
 * update_rq_clock() before them).
 */
static bool reading_within(const struct replay_rq *rq, uint64_t ts, uint64_t hold)
{
	if (!rq->read || ts < rq->read_ts)
		return false;
	if (ts <= rq->read_until)
		return true;
	return ts - rq->read_ts < hold && (!rq->anchored || rq->read_ts >= rq->anchor_ts ||
					   rq->anchor_clock == rq->read_clock);
}

/* A reading whose clock the rq kept until @ts: no update_rq_clock() since. */
static bool reading_kept(const struct replay_rq *rq, uint64_t ts)
{
	return rq->read && ts >= rq->read_ts && ts <= rq->read_until;
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

	if (*exact) {
		/* a reading's own value, else the anchor's */
		r->stamp |= !reading_holds(rq, ts) && rq->anchor_stamp;
		return clock;
	}
	r->stamp = true;
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

void cfsr_replay_expect_blocked(struct cfsr_replay *r)
{
	r->blocked_hints = true;
}

void cfsr_replay_expect_clock(struct cfsr_replay *r)
{
	r->expect_clock = true;
}

/*
 * The rq clock was updated to @clock (exactly or as estimated) at trace
 * time @ts; @stamp: the value descends from a trace time stamp.
 */
static void clock_updated(struct replay_rq *rq, uint64_t clock, bool exact, bool stamp, uint64_t ts)
{
	rq->last_clock = clock;
	rq->last_exact = exact;
	rq->last_stamp = stamp || !exact;
	rq->last_ts = ts;
}

/*
 * The trace time at which @rq's clock had the value @clock that
 * peek_clock() or wakeup_clock() gave for @ts: a reading's or an
 * anchor's own instant when the value is theirs, held (the kernel's rq
 * clock stays at its last update_rq_clock() between updates), else @ts,
 * to which it was extrapolated.
 */
static uint64_t clock_instant(const struct replay_rq *rq, uint64_t ts, uint64_t clock)
{
	if (rq->read && clock == rq->read_clock && ts >= rq->read_ts)
		return rq->read_ts;
	if (rq->anchored && clock == rq->anchor_clock && ts >= rq->anchor_ts)
		return rq->anchor_ts;
	return ts;
}

static void anchor(struct replay_rq *rq, uint64_t ts, uint64_t clock, bool exact, bool stamp,
		   int pid)
{
	/*
	 * The first anchor puts the rq on its own clock, which the trace
	 * clock stood in for: the scaled PELT clock starts there, synced
	 */
	if (!rq->anchored && rq->pelt_on)
		rq->pelt_task = rq->pelt_base = clock;
	clock_updated(rq, clock, exact, stamp, ts);
	rq->anchored = true;
	rq->anchor_exact = exact;
	rq->anchor_stamp = stamp || !exact;
	rq->anchor_ts = ts;
	rq->anchor_clock = clock;
	rq->anchor_pid = pid;
}

/* ---- the PELT clock and the CPU's scales ---------------------------------------------- */

/* cap_scale(): (v * s) >> SCHED_CAPACITY_SHIFT. */
static uint64_t cap_scale(uint64_t v, uint32_t s)
{
	return (v * s) >> SCHED_CAPACITY_SHIFT;
}

/*
 * rq->clock_pelt at clock_task @clock.  Mirrors update_rq_clock_pelt()
 * (kernel/sched/pelt.h, v5.1-v6.18): while the rq's curr is not the idle
 * task, clock_pelt advances by the clock_task delta scaled with
 * cap_scale() by arch_scale_cpu_capacity(), then by
 * arch_scale_freq_capacity(); while it is, an update syncs clock_pelt to
 * clock_task.
 * Differs: the kernel scales (and floors) each update_rq_clock() delta
 * with the frequency scale of that moment; the model scales the delta
 * since its last sync (a switch, a frequency change) as one, at most a
 * few ns apart per tick.
 */
static uint64_t rq_clock_pelt_raw(const struct replay_rq *rq, uint64_t clock)
{
	uint64_t d;

	if (!rq->pelt_busy)
		return clock;
	if (clock >= rq->pelt_task)
		return rq->pelt_base +
		       cap_scale(cap_scale(clock - rq->pelt_task, rq->cap), rq->freq);
	d = cap_scale(cap_scale(rq->pelt_task - clock, rq->cap), rq->freq);
	return rq->pelt_base > d ? rq->pelt_base - d : 0;
}

/*
 * The PELT clock of @cpu's cfs_rqs at clock_task @clock: rq_clock_pelt()
 * (kernel/sched/pelt.h, v5.1-v6.18), clock_pelt - lost_idle_time, as
 * cfs_rq_clock_pelt() gives it without CFS bandwidth.  @clock itself
 * where no scale was ever below 1024 and before v5.1 (cfs_rq_clock_task():
 * the scaling is in the contributions, pelt_scale()).  Not below @lut, the
 * signal's last update, where the clock is scaled (the kernel's clock
 * never goes back; the model's clock_task estimates may).
 */
static uint64_t pelt_now(const struct cfsr_replay *r, int cpu, uint64_t clock, uint64_t lut)
{
	const struct replay_rq *rq = cpu >= 0 && cpu < r->nr_cpus ? &r->rqs[cpu] : NULL;
	uint64_t now;

	if (!rq || !rq->pelt_on)
		return clock;
	now = rq_clock_pelt_raw(rq, clock);
	now = now > rq->lost_idle_time ? now - rq->lost_idle_time : 0;
	return now < lut ? lut : now;
}

/*
 * The scales of @cpu for the contributions of the older models: v4.1-v5.0
 * scale them inside the accumulation (struct cfsr_pelt_scale); v5.1+
 * scale the clock instead (pelt_now()).
 */
static struct cfsr_pelt_scale pelt_scale(const struct cfsr_replay *r, int cpu)
{
	if (cpu < 0 || cpu >= r->nr_cpus || cfsr_profile_clock_pelt(r->profile))
		return CFSR_PELT_SCALE_FULL;
	return (struct cfsr_pelt_scale){ r->rqs[cpu].freq, r->rqs[cpu].cap };
}

/* Sync the PELT clock at clock_task @clock: clock_pelt as it then stands. */
static void pelt_sync(struct replay_rq *rq, uint64_t clock)
{
	rq->pelt_base = rq_clock_pelt_raw(rq, clock);
	rq->pelt_task = clock;
}

/*
 * A switch at clock_task @clock to @next (0: the idle task).  Mirrors,
 * going idle, update_idle_rq_clock_pelt() of pick_next_task_fair()'s idle
 * path (kernel/sched/pelt.h, v5.1-v6.18): when the rq's util_sum is at or
 * above ((LOAD_AVG_MAX - 1024) << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX, the
 * rq counted as always running, the idle time clock_pelt would get back is
 * lost: lost_idle_time += clock_task - clock_pelt; then clock_pelt syncs
 * to clock_task (there from v6.0, at the idle rq's next update before).
 * Leaving idle, __schedule()'s update_rq_clock() with the idle task as
 * curr syncs clock_pelt to clock_task, from which it then scales.
 * Differs: the util_sum is the root cfs_rq's alone (the rt and dl
 * classes' signals are not modelled).
 */
static void pelt_switch(struct cfsr_replay *r, int cpu, uint64_t clock, int next)
{
	struct replay_rq *rq = rq_of(r, cpu);
	const uint64_t full =
		((uint64_t)(LOAD_AVG_MAX - 1024) << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX;

	if (!rq || !rq->pelt_on)
		return;
	pelt_sync(rq, clock);
	if (next == 0 && rq->pelt_busy) {
		if (r->cfs[cpu].avg.util_sum >= full && clock > rq->pelt_base)
			rq->lost_idle_time += clock - rq->pelt_base;
		rq->pelt_base = clock;
	}
	rq->pelt_busy = next != 0;
}

/* Start the scaled PELT clock of @rq, the same as clock_task so far. */
static void pelt_start(const struct cfsr_replay *r, struct replay_rq *rq)
{
	if (rq->pelt_on || !cfsr_profile_clock_pelt(r->profile))
		return;
	rq->pelt_on = true;
	rq->pelt_busy = rq->curr > 0;
	rq->pelt_task = rq->pelt_base = rq->last_clock;
}

void cfsr_replay_set_lag_inference(struct cfsr_replay *r, bool on)
{
	r->infer_lags = on;
}

void cfsr_replay_set_capacity(struct cfsr_replay *r, int cpu, uint32_t capacity)
{
	struct replay_rq *rq = rq_of(r, cpu);

	if (!rq || !capacity || capacity > SCHED_CAPACITY_SCALE || capacity == rq->cap)
		return;
	pelt_start(r, rq);
	if (rq->pelt_on)
		pelt_sync(rq, rq->last_clock);
	rq->cap = capacity;
}

void cfsr_replay_set_freq_scale(struct cfsr_replay *r, int cpu, uint32_t scale)
{
	struct replay_rq *rq = rq_of(r, cpu);

	if (!rq || !scale || scale > SCHED_CAPACITY_SCALE || scale == rq->freq)
		return;
	pelt_start(r, rq);
	/* the time to the rq's last clock update ran at the old scale */
	if (rq->pelt_on && rq->last_clock >= rq->pelt_task)
		pelt_sync(rq, rq->last_clock);
	rq->freq = scale;
}

uint32_t cfsr_replay_capacity(const struct cfsr_replay *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? r->rqs[cpu].cap : SCHED_CAPACITY_SCALE;
}

uint64_t cfsr_replay_lost_idle_time(const struct cfsr_replay *r, int cpu)
{
	return cpu >= 0 && cpu < r->nr_cpus ? r->rqs[cpu].lost_idle_time : 0;
}

static void correct_chain(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock);
static void attach_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			bool exact);

/*
 * Mirrors attach_tasks() in kernel/sched/fair.c, v6.12-v6.18: the tasks a
 * load balance detached are enqueued on @cpu after update_rq_clock() of
 * its rq, update_load_avg(DO_ATTACH) at that clock; the enqueue fires
 * records (util_est_enqueue()'s at least), of which @clock is the first.
 * The records of the enqueue's updates come from inside its walk, each
 * level's before that level's attach or propagation: the attach is made
 * at that clock once they are all in, at a record of the CPU with another
 * clock or at the next trace event (attach_clocked_due()), so that they
 * meet the state before it, as the records of a wakeup's enqueue do.
 */
static void attach_moved(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock)
{
	struct cfsr_task *t;
	size_t i;

	for (i = 0; i < r->nr_tasks && r->attach_pending; i++) {
		t = &r->tasks[i];
		if (!t->attach_pending || t->cpu != cpu)
			continue;
		if (!t->attach_clocked) {
			t->attach_clocked = true;
			t->attach_clock = clock;
			t->attach_ts = ts;
		} else if (clock != t->attach_clock) {
			attach_task(r, t, t->attach_clock, t->attach_ts, true);
		}
	}
}

/* How long after its first record a load-balance attach is made at the latest. */
#define ATTACH_RECORDS_NS 20000ull

/* The attaches attach_moved() clocked that are due at trace event @ev. */
static void attach_clocked_due(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t;
	size_t i;

	for (i = 0; i < r->nr_tasks && r->attach_pending; i++) {
		t = &r->tasks[i];
		if (t->attach_pending && t->attach_clocked &&
		    (t->cpu == ev->cpu || ev->ts > t->attach_ts + ATTACH_RECORDS_NS))
			attach_task(r, t, t->attach_clock, t->attach_ts, true);
	}
}

void cfsr_replay_clock_sample(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task)
{
	struct replay_rq *rq = rq_of(r, cpu);

	/* the updates a reading brings are at its clock, a kernel value */
	r->stamp = false;
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
	anchor(rq, ts, clock_task, false, true, -1);
}

/*
 * A reading: the rq clock was updated to @clock_task at @ts, the clock of
 * the events that follow in the same path (and, up to @until, of every
 * event on the rq), and of a switch whose clock update a wakeup skipped.
 */
static void set_reading(struct replay_rq *rq, uint64_t ts, uint64_t clock_task, uint64_t until)
{
	rq->read = true;
	rq->read_ts = ts;
	rq->read_clock = clock_task;
	rq->read_until = until;
	clock_updated(rq, clock_task, true, false, ts);
	if (rq->skip) {
		rq->skip_clock = clock_task;
		rq->skip_exact = true;
		rq->skip_stamp = false;
	}
}

void cfsr_replay_clock_update(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task,
			      uint64_t until)
{
	struct replay_rq *rq = rq_of(r, cpu);

	if (!rq)
		return;
	r->stamp = false;
	correct_chain(r, cpu, ts, clock_task);
	anchor(rq, ts, clock_task, true, false, -1);
	set_reading(rq, ts, clock_task, until);
}

void cfsr_replay_clock_record(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock_task)
{
	struct replay_rq *rq = rq_of(r, cpu);

	r->records = true;
	cfsr_replay_clock_sample(r, cpu, ts, clock_task);
	if (!rq)
		return;
	set_reading(rq, ts, clock_task, 0);
	recover_due(r, rq);
	if (r->attach_pending)
		attach_moved(r, cpu, ts, clock_task);
}

uint64_t cfsr_replay_reading_clock(struct cfsr_replay *r, int cpu, uint64_t clock_task,
				   int64_t clock_pelt, uint64_t lost_idle_time, bool take)
{
	struct replay_rq *rq = rq_of(r, cpu);

	if (!cfsr_profile_clock_pelt(r->profile) || clock_pelt < 0 ||
	    (uint64_t)clock_pelt < lost_idle_time)
		return clock_task;
	if (!rq || !rq->pelt_on)
		return (uint64_t)clock_pelt - lost_idle_time;
	/*
	 * The CPU scales its PELT clock (rq_clock_pelt_raw()): the record's
	 * clock_pelt and lost_idle_time are the kernel's at clock_task, so the
	 * engine's clock_pelt restarts from them there instead of scaling the
	 * reading a second time.
	 */
	if (take) {
		rq->pelt_task = clock_task;
		rq->pelt_base = (uint64_t)clock_pelt;
		rq->lost_idle_time = lost_idle_time;
	}
	return clock_task;
}

/* ---- task groups and cfs_rqs ---------------------------------------------------------- */

/* The index of group @path, created with a cfs_rq on every CPU; -1 on failure. */
/*
 * init_cfs_rq() (kernel/sched/fair.c, v3.8-v6.5): a new cfs_rq's
 * min_vruntime starts 2^20 ns below zero, so that its wrap is met early.
 */
#define CFS_INIT_MIN_VRUNTIME ((uint64_t) - (1LL << 20))

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
	memset(&r->tgs[r->nr_groups], 0, sizeof(r->tgs[r->nr_groups]));
	r->tgs[r->nr_groups].parent = parent;
	r->tgs[r->nr_groups].depth = parent >= 0 ? r->tgs[parent].depth + 1 : 0;
	if (r->tgs[r->nr_groups].depth > r->max_depth)
		r->max_depth = r->tgs[r->nr_groups].depth;
	r->tgs[r->nr_groups].load_avg = 0;
	r->tgs[r->nr_groups].shares = NICE_0_LOAD;
	for (c = 0; c < r->nr_stated; c++) {
		if (strcmp(r->stated[c].path, path))
			continue;
		if (r->stated[c].shares)
			r->tgs[r->nr_groups].shares = r->stated[c].shares;
		r->tgs[r->nr_groups].created = r->stated[c].created;
		r->tgs[r->nr_groups].idle = r->stated[c].idle;
	}
	for (c = 0; c < (size_t)r->nr_cpus; c++) {
		struct cfsr_cfs_rq *cfs = &r->cfs[r->nr_cfs + c];

		memset(cfs, 0, sizeof(*cfs));
		cfs->path = name;
		cfs->cpu = (int)c;
		cfs->group = (int)r->nr_groups;
		cfs->se_weight = NICE_0_LOAD;
		if (r->tgs[r->nr_groups].created)
			cfs->min_vruntime = CFS_INIT_MIN_VRUNTIME;
	}
	r->nr_cfs = nr;
	return (int)r->nr_groups++;
}

static struct cfsr_cfs_rq *cfs_of(const struct cfsr_replay *r, int group, int cpu)
{
	if (cpu < 0 || cpu >= r->nr_cpus || group < 0 || (size_t)group >= r->nr_groups)
		return NULL;
	return &r->cfs[(size_t)group * (size_t)r->nr_cpus + (size_t)cpu];
}

/* The cfs_rq a group cfs_rq's group entity is queued on; NULL for a root. */
static struct cfsr_cfs_rq *parent_cfs(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g)
{
	return g->group ? cfs_of(r, r->tgs[g->group].parent, g->cpu) : NULL;
}

/*
 * The running input of @cfs's PELT (cfs_rq->curr != NULL; the group
 * entity's "running" is its cfs_rq's curr being it): a task runs below it,
 * or a pick is being made whose prev ran below it.  pick_task_fair()
 * completes delayed dequeues while prev's entities are still each level's
 * curr: put_prev_entity() clears them after the pick, and a prev that
 * blocked stays curr, off the queue, until then (kernel/sched/core.c
 * __schedule(), kernel/sched/fair.c, v6.12-v6.18).
 */
static bool cfs_running(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	const struct cfsr_task *prev = r->pick_prev;
	const struct cfsr_cfs_rq *c;

	if (cfs->curr > 0)
		return true;
	if (!prev) {
		/* a curr dequeued before its switch out (newidle_dequeue()) */
		prev = task_find(r, r->rqs[cfs->cpu].curr);
		if (prev && !prev->nd_pending)
			prev = NULL;
	}
	if (!prev || prev->cpu != cfs->cpu)
		return false;
	for (c = cfs_of(r, prev->group, cfs->cpu); c; c = c->group ? parent_cfs(r, c) : NULL)
		if (c == cfs)
			return true;
	return false;
}

/* The cfs_rq a task is queued on, or was last. */
static struct cfsr_cfs_rq *task_cfs(struct cfsr_replay *r, const struct cfsr_task *t)
{
	return cfs_of(r, t->group, t->cpu);
}

/*
 * How far an update_load_avg() of a task's entity reaches, as the kernel
 * path that calls it (kernel/sched/fair.c, v6.12-v6.18):
 *  @tg:       UPDATE_TG: update_tg_load_avg() of each cfs_rq that decayed
 *             (enqueue_entity(), dequeue_entity(), entity_tick(),
 *             set_next_entity(), the walks of enqueue_task_fair() and
 *             dequeue_entities()); put_prev_entity(), the delayed branch
 *             of dequeue_entity() and requeue_delayed_entity() pass 0.
 *  @reweight: update_cfs_group() of each group entity walked (enqueue,
 *             dequeue, tick; not the pick's set_next/put_prev).
 *  @task_only: the task's level alone: requeue_delayed_entity() from
 *             enqueue_task_fair(ENQUEUE_DELAYED), and the update before a
 *             detach (DO_DETACH), whose walk up follows it.
 *  @stop:     the pick's put_prev_entity()/set_next_entity() walk only the
 *             levels below the cfs_rq prev and next share
 *             (pick_next_task_fair(), is_same_group()): that cfs_rq's own
 *             entity is not touched.  NULL: up to the root.
 *  @loops:    a wakeup's enqueue (WALK_ENQUEUE) or a sleep's dequeue
 *             (WALK_DEQUEUE), whose levels above the first group entity
 *             that stays queued, or was queued already, are those of the
 *             second loop of enqueue_task_fair()/dequeue_task_fair() (see
 *             group_walk()); WALK_ANY for every other path.
 */
enum walk_loops { WALK_ANY, WALK_ENQUEUE, WALK_DEQUEUE };

struct walk {
	bool tg;
	bool reweight;
	bool task_only;
	const struct cfsr_cfs_rq *stop;
	enum walk_loops loops;
	/*
	 * +1 an enqueue, -1 a dequeue of the task: its cfs_rq's
	 * account_entity_enqueue()/account_entity_dequeue() comes before the
	 * level above is updated (see with_below()); 0 neither
	 */
	int below;
};

/* entity_tick() of every level; update_cfs_group() after each */
static const struct walk walk_full = { true, true, false, NULL, WALK_ANY, 0 };
/*
 * update_load_avg(UPDATE_TG) of every level without update_cfs_group():
 *  - an enqueue or a dequeue, whose update_cfs_group() of each level
 *    follows the accounting of the level below (account_entity_enqueue()
 *    and account_entity_dequeue() come first in enqueue_task_fair() and
 *    dequeue_entities()), so the state change makes it (set_state());
 *  - set_next_task_fair() after a task of another class;
 *  - propagate_entity_cfs_rq() after a detach (v5.7-v6.0).
 */
static const struct walk walk_tg = { true, false, false, NULL, WALK_ANY, 0 };
/* walk_tg for a wakeup's enqueue and a sleep's dequeue (the two loops of v3.8-v4.2) */
static const struct walk walk_enqueue = { true, false, false, NULL, WALK_ENQUEUE, 1 };
static const struct walk walk_dequeue = { true, false, false, NULL, WALK_DEQUEUE, -1 };
/* walk_tg for a delayed task's dequeue (finish_delayed()) */
static const struct walk walk_delayed = { true, false, false, NULL, WALK_ANY, -1 };
/*
 * The task's level only, without update_tg_load_avg():
 * requeue_delayed_entity(), and dequeue_entity(DO_DETACH), whose detach
 * publishes and whose walk up follows.
 */
static const struct walk walk_task = { false, false, true, NULL, WALK_ANY, 0 };

/* The cfs_rq on @cpu that the hierarchies of groups @a and @b share. */
static const struct cfsr_cfs_rq *common_cfs(const struct cfsr_replay *r, int a, int b, int cpu)
{
	int x, y;

	for (x = a; x > 0; x = r->tgs[x].parent)
		for (y = b; y > 0; y = r->tgs[y].parent)
			if (x == y)
				return cfs_of(r, x, cpu);
	return cfs_of(r, 0, cpu);
}

/* The signal of the cfs_rq a task is on, for the models that move it with the task's. */
static struct cfsr_sched_avg *task_cfs_avg(struct cfsr_replay *r, const struct cfsr_task *t)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	return cfs ? &cfs->avg : NULL;
}

struct cfsr_cfs_rq *cfsr_replay_cfs_rq(struct cfsr_replay *r, const char *path, int cpu)
{
	size_t g;

	for (g = 0; g < r->nr_groups; g++)
		if (!strcmp(r->groups[g], path))
			return cfs_of(r, (int)g, cpu);
	return NULL;
}

const struct cfsr_cfs_rq *cfsr_replay_group_cfs_rq(const struct cfsr_replay *r, int group, int cpu)
{
	return cfs_of(r, group, cpu);
}

const char *cfsr_replay_group_path(const struct cfsr_replay *r, int group)
{
	return group >= 0 && (size_t)group < r->nr_groups ? r->groups[group] : NULL;
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
 * An EEVDF entity: a task's, or the group entity of a group cfs_rq (@g)
 * on its parent's cfs_rq.  The pointers are views into the owner's fields.
 */
struct ent {
	struct cfsr_task *t;
	struct cfsr_cfs_rq *g;
	uint64_t *vruntime;
	uint64_t *deadline;
	int64_t *vlag;
	uint64_t *slice;
	bool *rel_deadline;
	/* se->load.weight and its load.inv_weight */
	uint64_t weight;
	uint32_t inv;
};

static struct ent task_ent(struct cfsr_task *t)
{
	struct ent e = { t,
			 NULL,
			 &t->vruntime,
			 &t->deadline,
			 &t->vlag,
			 &t->slice,
			 &t->rel_deadline,
			 t->load_weight,
			 task_wmult(t) };

	return e;
}

/*
 * A group entity's inverse weight is computed from its weight
 * (__update_inv_weight(): update_load_set() clears it), a task's comes
 * from sched_prio_to_wmult[] (set_load_weight()).
 */
static struct ent gse_ent(struct cfsr_cfs_rq *g)
{
	struct ent e = { NULL,
			 g,
			 &g->se_vruntime,
			 &g->se_deadline,
			 &g->se_vlag,
			 &g->se_slice,
			 &g->se_rel_deadline,
			 g->se_weight,
			 cfsr_weight_inv(g->se_weight) };

	return e;
}

/*
 * Mirrors calc_delta_fair() and __calc_delta() in kernel/sched/fair.c,
 * v5.7-v6.18: delta * NICE_0_LOAD / weight with the entity's inverse
 * weight, normalised to 32 bits before the 64x32 multiply-shift.
 */
static uint64_t calc_delta_fair(uint64_t delta, const struct ent *e)
{
	uint64_t fact = cfsr_scale_load_down(NICE_0_LOAD) * (uint64_t)e->inv;
	unsigned int shift = 32;

	if (e->weight == NICE_0_LOAD)
		return delta;
	while (fact >> 32) {
		fact >>= 1;
		shift--;
	}
	return cfsr_mul_u64_u32_shr(delta, (uint32_t)fact, shift);
}

static uint64_t ent_weight(const struct ent *e)
{
	return cfsr_scale_load_down(e->weight);
}

/* The cfs_rq the entity is queued on. */
static const struct cfsr_cfs_rq *ent_cfs(const struct cfsr_replay *r, const struct ent *e)
{
	return e->t ? cfs_of(r, e->t->group, e->t->cpu) : parent_cfs(r, e->g);
}

/*
 * Mirrors avg_vruntime_add()/avg_vruntime_sub() (kernel/sched/fair.c,
 * v6.6-v6.18): the running entity is kept out of the sums.  On an empty
 * cfs_rq the base moves to the entity, as min_vruntime would.
 */
static void avg_vruntime_account(struct cfsr_cfs_rq *cfs, uint64_t vruntime, uint64_t w, int sign)
{
	int64_t key;

	if (sign > 0 && !cfs->avg_load) {
		cfs->zero_vruntime = vruntime;
		cfs->avg_vruntime = 0;
	}
	key = (int64_t)(vruntime - cfs->zero_vruntime);
	if (sign > 0) {
		cfs->avg_vruntime += key * (int64_t)w;
		cfs->avg_load += w;
	} else {
		cfs->avg_vruntime -= key * (int64_t)w;
		cfs->avg_load -= w;
	}
}

static struct cfsr_task *cfs_curr(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	struct cfsr_task *c = cfs->curr > 0 ? task_find(r, cfs->curr) : NULL;

	return c && c->state == CFSR_TS_RUNNING && c->fair ? c : NULL;
}

/*
 * The running entity of @cfs (cfs_rq->curr): the running task if it is
 * queued on @cfs, else the group entity on @cfs above it.
 */
static bool cfs_curr_ent(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, struct ent *e)
{
	struct cfsr_task *c = cfs_curr(r, cfs);
	struct cfsr_cfs_rq *g;

	if (!c)
		return false;
	g = cfs_of(r, c->group, c->cpu);
	if (g == cfs) {
		*e = task_ent(c);
		return true;
	}
	for (; g && g->group; g = cfs_of(r, r->tgs[g->group].parent, g->cpu))
		if (parent_cfs(r, g) == cfs) {
			*e = gse_ent(g);
			return true;
		}
	return false;
}

/*
 * A pick without changing the engine (cfsr_replay_pick_tree()) stands in for the
 * delayed dequeues it completes on the way: the entities it dequeued, and
 * the group entities their dequeue left delayed.
 */
#define PICK_OVERLAY_MAX 32

struct pick_overlay {
	unsigned int nr_gone;
	struct ent gone[PICK_OVERLAY_MAX];
	unsigned int nr_delayed;
	const struct cfsr_cfs_rq *delayed[PICK_OVERLAY_MAX];
	/* a prev that blocks and DELAY_DEQUEUE keeps queued (cfsr_replay_pick()) */
	const struct cfsr_task *delayed_task;
};

static bool ent_same(const struct ent *a, const struct ent *b)
{
	return a->t == b->t && a->g == b->g;
}

static bool ov_gone(const struct pick_overlay *ov, const struct ent *e)
{
	unsigned int i;

	for (i = 0; ov && i < ov->nr_gone; i++)
		if (ent_same(&ov->gone[i], e))
			return true;
	return false;
}

static bool ent_delayed(const struct pick_overlay *ov, const struct ent *e)
{
	unsigned int i;

	if (e->t)
		return e->t->state == CFSR_TS_DELAYED || (ov && e->t == ov->delayed_task);
	if (e->g->se_delayed)
		return true;
	for (i = 0; ov && i < ov->nr_delayed; i++)
		if (ov->delayed[i] == e->g)
			return true;
	return false;
}

/*
 * The sums with the running entity added, as avg_vruntime() and
 * vruntime_eligible() do; without the entities @ov dequeued.
 */
static void cfs_vsums(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		      const struct pick_overlay *ov, int64_t *avg, int64_t *load)
{
	struct ent c;
	unsigned int i;

	*avg = cfs->avg_vruntime;
	*load = (int64_t)cfs->avg_load;
	if (cfs_curr_ent(r, cfs, &c)) {
		*avg += (int64_t)(*c.vruntime - cfs->zero_vruntime) * (int64_t)ent_weight(&c);
		*load += (int64_t)ent_weight(&c);
	}
	for (i = 0; ov && i < ov->nr_gone; i++) {
		if (ent_cfs(r, &ov->gone[i]) != cfs)
			continue;
		*avg -= (int64_t)(*ov->gone[i].vruntime - cfs->zero_vruntime) *
			(int64_t)ent_weight(&ov->gone[i]);
		*load -= (int64_t)ent_weight(&ov->gone[i]);
	}
}

/*
 * Mirrors avg_vruntime() in kernel/sched/fair.c, v6.6-v6.18, on the sums
 * @avg and @load: the weighted mean vruntime of the queued entities,
 * rounded toward minus infinity.
 */
static uint64_t vsums_mean(const struct cfsr_cfs_rq *cfs, int64_t avg, int64_t load)
{
	if (load) {
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return cfs->zero_vruntime + (uint64_t)avg;
}

/*
 * Mirrors vruntime_eligible() in kernel/sched/fair.c, v6.8-v6.18
 * (entity_eligible() of v6.6-v6.7), on the sums @avg and @load: an entity
 * is eligible when its vruntime is at most the weighted mean, compared
 * cross-multiplied.
 */
static bool vsums_eligible(const struct cfsr_cfs_rq *cfs, int64_t avg, int64_t load,
			   uint64_t vruntime)
{
	return avg >= (int64_t)(vruntime - cfs->zero_vruntime) * load;
}

/* avg_vruntime() without the entities @ov dequeued. */
static uint64_t avg_vruntime_ov(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
				const struct pick_overlay *ov)
{
	int64_t avg, load;

	cfs_vsums(r, cfs, ov, &avg, &load);
	return vsums_mean(cfs, avg, load);
}

static uint64_t avg_vruntime(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	return avg_vruntime_ov(r, cfs, NULL);
}

static bool eligible(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		     const struct pick_overlay *ov, uint64_t vruntime)
{
	int64_t avg, load;

	cfs_vsums(r, cfs, ov, &avg, &load);
	return vsums_eligible(cfs, avg, load, vruntime);
}

static bool cfs_ent_next(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, size_t *i,
			 struct ent *e);

/*
 * Mirrors cfs_rq_max_slice() (kernel/sched/fair.c, v7.0+): the largest
 * slice of the entities queued on @cfs, curr and the entity being
 * dequeued among them.
 */
static uint64_t cfs_max_slice(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	uint64_t max = 0;
	struct ent e;
	size_t i = 0;

	while (cfs_ent_next(r, cfs, &i, &e))
		if (*e.slice > max)
			max = *e.slice;
	return max;
}

/*
 * Mirrors update_entity_lag() in kernel/sched/fair.c, v6.6-v6.18: the lag
 * V - v of a queued entity, clamped to the service of max(2 slices, a
 * tick); from v7.0 (6e3c0a4e1ad1, entity_lag(); 6.18.44+,
 * lag_clamp_max_slice) to that of the cfs_rq's largest slice plus a tick.
 * The lag is the engine's own from here on (@lag_seen).
 */
static void update_entity_lag(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			      const struct ent *e)
{
	uint64_t span = r->profile->lag_clamp_max_slice ? cfs_max_slice(r, cfs) + r->tick_nsec :
			2 * *e->slice > r->tick_nsec	? 2 * *e->slice :
							  r->tick_nsec;
	int64_t limit = (int64_t)calc_delta_fair(span, e);
	int64_t vlag = (int64_t)(avg_vruntime(r, cfs) - *e->vruntime);

	*e->vlag = vlag < -limit ? -limit : vlag > limit ? limit : vlag;
	if (e->t)
		e->t->lag_seen = true;
	else
		e->g->se_lag_seen = true;
}

/* cfs_rq->nr_queued: the tasks and group entities queued on @cfs. */
static unsigned int cfs_nr_queued(const struct cfsr_cfs_rq *cfs)
{
	return cfs->nr_queued + cfs->nr_gse;
}

/* A group the trace made (cgroup_mkdir): its entity's first lag is 0, known. */
static bool gse_made_in_trace(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g)
{
	return g->group && r->tgs[g->group].created;
}

/*
 * A placement read the entity's saved lag (it stays "placed" until it
 * runs): one from before the trace (never set by the engine, taken as 0)
 * leaves its vruntime a guess, and the lags saved from it after.
 */
static void ent_note_placed(const struct cfsr_replay *r, const struct ent *e)
{
	if (e->t)
		e->t->wake_placed = true;
	else
		e->g->se_wake_placed = true;
	if (e->t && !e->t->lag_seen)
		e->t->lag_guessed = true;
	else if (e->g && !e->g->se_lag_seen && !gse_made_in_trace(r, e->g))
		e->g->se_lag_guessed = true;
}

/*
 * Mirrors place_entity() in kernel/sched/fair.c, v6.13-v6.18 (called with
 * the entity not yet queued, nor counted in cfs_rq->nr_queued): vruntime =
 * V - lag, the saved lag inflated by (W + w) / W so that it survives the
 * entity's own effect on V (PLACE_LAG); deadline one virtual slice later,
 * half a slice for a new task (PLACE_DEADLINE_INITIAL), or the saved
 * relative deadline (PLACE_REL_DEADLINE).  A group entity's slice is the
 * smallest of its cfs_rq (enqueue_task_fair(), v6.12+), the base slice
 * for tasks without a custom slice, as before v6.12.  Each of the three
 * features is the profile's, which a trace's own replace.
 * Differs: without PLACE_REL_DEADLINE the kernel's dequeue_entity() leaves
 * the deadline absolute where the engine makes it relative; the placement
 * overwrites it alike, only the deadline of the task while it is off its
 * cfs_rq differs.
 */
static void place_entity(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			 const struct ent *e, bool initial)
{
	uint64_t vruntime = avg_vruntime(r, cfs), vslice;
	int64_t lag = 0, avg, load;

	*e->slice = r->base_slice;
	vslice = calc_delta_fair(*e->slice, e);
	if (r->profile->place_lag && cfs_nr_queued(cfs) && *e->vlag) {
		cfs_vsums(r, cfs, NULL, &avg, &load);
		lag = *e->vlag * (load + (int64_t)ent_weight(e));
		if (!load)
			load = 1;
		lag /= load;
	}
	*e->vruntime = vruntime - (uint64_t)lag;
	ent_note_placed(r, e);
	if (r->profile->place_rel_deadline && *e->rel_deadline) {
		*e->deadline += *e->vruntime;
		*e->rel_deadline = false;
		return;
	}
	if (r->profile->place_deadline_initial && initial)
		vslice /= 2;
	*e->deadline = *e->vruntime + vslice;
}

static void task_lag(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		     struct cfsr_task *t)
{
	struct ent e = task_ent(t);

	update_entity_lag(r, cfs, &e);
}

static void cfs_place_task(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			   struct cfsr_task *t, bool initial);

static void task_place(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		       struct cfsr_task *t, bool initial)
{
	struct ent e = task_ent(t);

	if (!r->profile->eevdf) {
		cfs_place_task(r, cfs, t, initial);
		return;
	}
	place_entity(r, cfs, &e, initial);
}

/* ---- CFS vruntime (v3.8-v6.5; the rules are lib/cfspick.c's) ------------------------- */

/*
 * Mirrors update_min_vruntime() (kernel/sched/fair.c, v4.13-v6.5) on a
 * cfs_rq of a CFS profile: curr (the running task queued there, or the
 * group entity above it) and the leftmost of its other queued entities,
 * tasks and group entities alike, never backwards.
 */
static bool cfs_ent_next(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, size_t *i,
			 struct ent *e);

static void cfs_update_min(const struct cfsr_replay *r, struct cfsr_cfs_rq *cfs)
{
	struct ent c, e;
	bool has_curr, has_left = false;
	uint64_t left = 0;
	size_t i = 0;

	if (r->profile->eevdf || !cfs)
		return;
	has_curr = cfs_curr_ent(r, cfs, &c);
	while (cfs_ent_next(r, cfs, &i, &e)) {
		if (has_curr && ent_same(&e, &c))
			continue;
		if (!has_left || (int64_t)(*e.vruntime - left) < 0)
			left = *e.vruntime;
		has_left = true;
	}
	cfs->min_vruntime = cfsr_cfs_min_vruntime(cfs->min_vruntime, has_curr,
						  has_curr ? *c.vruntime : 0, has_left, left);
}

/*
 * The placement of a task joining a cfs_rq of a CFS profile:
 *  - @initial (wake_up_new_task(), kernel/sched/fair.c v3.8-v6.5):
 *    enqueue_entity() without ENQUEUE_WAKEUP adds min_vruntime to the
 *    relative vruntime task_fork_fair() left (cfs_fork());
 *  - otherwise a wakeup (enqueue_entity() with ENQUEUE_WAKEUP): the
 *    min_vruntime of the new cfs_rq is added after a migration
 *    (ENQUEUE_MIGRATED, the vruntime left relative by
 *    migrate_task_rq_fair()), then place_entity(initial 0).
 * A task whose vruntime the trace has not given (already there at its
 * start, or its fork unseen) takes the cfs_rq's min_vruntime (after a
 * START_DEBIT vslice for a new task) and is marked @vr_guessed, until a
 * wakeup places it at the sleeper floor rather than at its own vruntime.
 */
/*
 * place_entity(initial 0) of an entity whose vruntime *@v is known or
 * guessed (*@guessed): at the sleeper floor below @min_vruntime if it is
 * behind it, which makes it known.
 */
static void cfs_place_waking(const struct cfsr_replay *r, uint64_t min_vruntime, uint64_t *v,
			     bool *guessed)
{
	uint64_t nv = cfsr_cfs_place(&r->cfs_tu, min_vruntime, *v, false, 0);

	if (nv != *v)
		*guessed = false;
	*v = nv;
}

static void cfs_place_task(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			   struct cfsr_task *t, bool initial)
{
	uint64_t v;

	if (t->vr_rel) {
		t->vruntime += cfs->min_vruntime;
		t->vr_rel = false;
		if (initial)
			return;
	} else if (!t->vr_placed || initial) {
		v = initial ? cfsr_cfs_calc_delta_fair(
				      &r->cfs_tu,
				      cfsr_cfs_sched_slice(&r->cfs_tu, cfs_nr_queued(cfs),
							   cfs->load_weight, t->load_weight),
				      t->load_weight, task_wmult(t)) :
			      0;
		t->vruntime = cfsr_cfs_place(&r->cfs_tu, cfs->min_vruntime, cfs->min_vruntime,
					     initial, v);
		t->vr_placed = true;
		t->vr_guessed = true;
		return;
	}
	cfs_place_waking(r, cfs->min_vruntime, &t->vruntime, &t->vr_guessed);
}

/*
 * A task leaves @cfs for another CPU, CFS profiles: its vruntime becomes
 * relative to @cfs's min_vruntime -- dequeue_entity() without DEQUEUE_SLEEP
 * for a load-balance detach, then update_min_vruntime(); or, for a task
 * waking elsewhere, migrate_task_rq_fair() (TASK_WAKING), v3.8-v6.5.
 * Differs: a sleeping task moved without waking (an affinity change) is
 * taken as waking.
 */
static void cfs_leave(struct cfsr_replay *r, struct cfsr_task *t, struct cfsr_cfs_rq *cfs)
{
	if (r->profile->eevdf || !cfs)
		return;
	if (t->vr_placed && !t->vr_rel) {
		t->vruntime -= cfs->min_vruntime;
		t->vr_rel = true;
	}
	cfs_update_min(r, cfs);
}

/*
 * Mirrors task_fork_fair() (kernel/sched/fair.c, v3.8-v6.5) for a CFS
 * profile: on the parent's cfs_rq, update_curr() done (its run-time
 * report precedes the fork), the child starts at the parent's vruntime if
 * the parent is that cfs_rq's curr, then place_entity(initial 1): no
 * earlier than min_vruntime plus sched_vslice() (START_DEBIT); it is kept
 * relative to min_vruntime until wake_up_new_task() enqueues it.
 * sysctl_sched_child_runs_first (off by default) is not modelled.
 */
static void cfs_fork(struct cfsr_replay *r, struct cfsr_task *child, int cpu)
{
	struct cfsr_cfs_rq *cfs = cfs_of(r, child->group, cpu), *root = cfs_of(r, 0, cpu);
	const struct cfsr_task *curr;
	uint64_t slice, v;
	unsigned int nr;

	if (r->profile->eevdf || !cfs || !child->fair)
		return;
	curr = cfs_curr(r, cfs);
	if (curr && curr->group != child->group)
		curr = NULL;
	nr = r->cfs_tu.alt_period ? root->h_nr_runnable : cfs_nr_queued(cfs);
	slice = cfsr_cfs_sched_slice(&r->cfs_tu, nr, cfs->load_weight, child->load_weight);
	v = cfsr_cfs_place(
		&r->cfs_tu, cfs->min_vruntime, curr ? curr->vruntime : 0, true,
		cfsr_cfs_calc_delta_fair(&r->cfs_tu, slice, child->load_weight, task_wmult(child)));
	child->vruntime = v - cfs->min_vruntime;
	child->vr_rel = true;
	child->vr_placed = true;
	/*
	 * A parent alone on its cfs_rq is at or before min_vruntime
	 * (update_curr() made it max(min_vruntime, its vruntime)), so the
	 * child's start does not depend on a vruntime the trace did not give.
	 */
	child->vr_guessed =
		curr && (curr->vr_guessed || !curr->vr_placed) && cfs_nr_queued(cfs) > 1;
}

/*
 * A load-balance migration's enqueue on the destination, CFS profiles:
 * enqueue_entity() without ENQUEUE_WAKEUP adds the cfs_rq's min_vruntime,
 * no place_entity() (v3.8-v6.5).
 */
static void cfs_attach(struct cfsr_replay *r, struct cfsr_task *t)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (!cfs || !t->vr_rel)
		return;
	t->vruntime += cfs->min_vruntime;
	t->vr_rel = false;
}

/*
 * Mirrors sched_move_task() (kernel/core.c) with task_change_group_fair()
 * (kernel/sched/fair.c), v3.8-v6.5, for the vruntime of a CFS profile's
 * task moving from cfs_rq @from to @to: a queued task is dequeued without
 * DEQUEUE_SLEEP (its vruntime made relative to @from's min_vruntime) and
 * enqueued without ENQUEUE_WAKEUP (@to's added, no placement); a sleeping
 * one is placed on @from first (detach_task_cfs_rq(): place_entity(0),
 * then made relative), and attach_task_cfs_rq() adds @to's.
 */
static void cfs_move_group(const struct cfsr_replay *r, struct cfsr_task *t,
			   const struct cfsr_cfs_rq *from, const struct cfsr_cfs_rq *to,
			   bool queued)
{
	if (!t->vr_placed || t->vr_rel || !from || !to)
		return;
	if (!queued)
		t->vruntime = cfsr_cfs_place(&r->cfs_tu, from->min_vruntime, t->vruntime, false, 0);
	t->vruntime = t->vruntime - from->min_vruntime + to->min_vruntime;
}

/*
 * Mirrors enqueue_entity() of a group entity for a CFS profile
 * (kernel/sched/fair.c, v3.8-v6.5): enqueue_task_fair() enqueues every
 * level above a task with ENQUEUE_WAKEUP, so the group entity's vruntime,
 * absolute on its parent cfs_rq (dequeue_task_fair() dequeues those levels
 * with DEQUEUE_SLEEP: no renormalisation either way), is placed by
 * place_entity(initial 0): no earlier than the parent's min_vruntime less
 * the sleeper credit (GENTLE_FAIR_SLEEPERS: half a latency), never moved
 * back.  A group entity the engine enqueues for the first time has no
 * known vruntime, unless the trace saw its group made: it starts at the
 * parent's min_vruntime and is marked @se_vr_guessed until a placement
 * sets it at the sleeper floor.
 * Differs: entity_is_long_sleeper() (v6.3-v6.5) is not modelled.
 */
static void cfs_place_gse(const struct cfsr_replay *r, const struct cfsr_cfs_rq *p,
			  struct cfsr_cfs_rq *g)
{
	if (!g->se_vr_placed && r->tgs[g->group].created &&
	    (!p->group || r->tgs[p->group].created)) {
		/*
		 * A group made in the trace: its entity starts at vruntime 0
		 * (alloc_fair_sched_group() zeroes it).  On a group's cfs_rq
		 * made in the trace too, that is the engine's frame
		 * (CFS_INIT_MIN_VRUNTIME); on the root, whose min_vruntime
		 * has grown with the machine's run time, 0 lies far below the
		 * sleeper floor, which place_entity() then gives.
		 */
		g->se_vruntime = p->group ? 0 : p->min_vruntime - (1ULL << 62);
		g->se_vr_placed = true;
		g->se_vr_guessed = false;
	} else if (!g->se_vr_placed) {
		g->se_vruntime = p->min_vruntime;
		g->se_vr_placed = true;
		g->se_vr_guessed = true;
	}
	cfs_place_waking(r, p->min_vruntime, &g->se_vruntime, &g->se_vr_guessed);
}

const struct cfsr_cfs_tunables *cfsr_replay_cfs_tunables(const struct cfsr_replay *r)
{
	return &r->cfs_tu;
}

/* ---- accounting: every change of a task's state, CPU, group or weight ------------------- */

/*
 * Put a group entity in (@in) or out of its parent's EEVDF sums: it is in
 * them while queued and not running (__enqueue_entity()/__dequeue_entity()
 * of a group entity, set_next_entity()/put_prev_entity()).  The sums are
 * kept for the CFS profiles too; nothing reads them there.
 */
static void gse_sums_set(struct cfsr_replay *r, struct cfsr_cfs_rq *g, bool in)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);

	if (!p || in == g->se_in_sums)
		return;
	avg_vruntime_account(p, g->se_vruntime, cfsr_scale_load_down(g->se_weight), in ? 1 : -1);
	g->se_in_sums = in;
}

static void gse_sums_sync(struct cfsr_replay *r, struct cfsr_cfs_rq *g)
{
	gse_sums_set(r, g, g->se_on_rq && g->curr <= 0);
}

/*
 * The CPU's list of queued and running fair tasks follows the accounting:
 * appended when counted in (as __enqueue_entity() inserts after the equal
 * keys already in the tree), taken out in place when counted out.
 */
static void onrq_account(struct cfsr_replay *r, const struct cfsr_task *t, int sign)
{
	struct replay_rq *rq = &r->rqs[t->cpu];
	size_t idx = (size_t)(t - r->tasks), i;

	if (sign > 0) {
		if (CFSR_ALLOC_GROW(rq->onrq, rq->nr_onrq + 1, rq->alloc_onrq) < 0)
			r->oom = true;
		else
			rq->onrq[rq->nr_onrq++] = idx;
		return;
	}
	for (i = 0; i < rq->nr_onrq && rq->onrq[i] != idx; i++)
		;
	if (i == rq->nr_onrq)
		return;
	memmove(&rq->onrq[i], &rq->onrq[i + 1], (rq->nr_onrq - i - 1) * sizeof(*rq->onrq));
	rq->nr_onrq--;
}

/*
 * The runnable count of @cfs that PELT reads (__update_load_avg_cfs_rq(),
 * and se_update_runnable() for its group entity): the tasks queued at or
 * below it, delayed ones included up to 6.12.6 (h_nr_running), not from
 * 6.12.7 and v6.13 (h_nr_running - h_nr_delayed, 76f2f783294d; h_nr_runnable
 * from v6.14, profile->runnable_delayed).
 */
static unsigned int cfs_runnable(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	return r->profile->runnable_delayed ? cfs->h_nr_queued : cfs->h_nr_runnable;
}

/*
 * Mirrors cfs_rq_is_idle() (kernel/sched/fair.c, v5.15-v6.18): the group
 * of @cfs is idle (tg->idle, cpu.idle 1); the root never is.  False for
 * the profiles before idle groups (v5.14 and older).
 */
static bool cfs_rq_is_idle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	return r->profile->cgroup_idle && cfs->group > 0 && r->tgs[cfs->group].idle;
}

/*
 * Mirrors task_has_idle_policy() (kernel/sched/sched.h, v3.8-v6.18) where
 * the rq counts such tasks: idle_h_nr_running from v5.4 (h_nr_idle from
 * v6.13).  The policy is the engine's only through
 * cfsr_replay_task_set_idle_policy() or a record's weight
 * (cfsr_replay_task_take_weight()).
 */
static bool task_idle(const struct cfsr_replay *r, const struct cfsr_task *t)
{
	return r->profile->sched_idle_cpu && t->idle_policy;
}

/*
 * Add (@sign 1) or remove (-1) a task's part in its cfs_rq: account_entity_
 * enqueue/dequeue() (load.weight, nr_queued), the runnable counts of its
 * cfs_rq and the levels above (h_nr_queued, h_nr_runnable), cfs_rq->curr
 * at every level, and the EEVDF sums (__enqueue_entity()/__dequeue_entity(),
 * the running entity excluded).  h_nr_idle as enqueue_task_fair() and
 * dequeue_entities() keep it (kernel/sched/fair.c, v6.13-v6.18;
 * idle_h_nr_running v5.4-v6.12): the task counts at its cfs_rq if it is
 * SCHED_IDLE, and at every level above an idle group's cfs_rq on its path
 * (cfs_rq_is_idle(), v5.15+) whatever its policy; a delayed task, still
 * queued, still counts.  Whether a group entity is queued is
 * group_levels()' to say, once the change is complete.
 */
static void task_account(struct cfsr_replay *r, const struct cfsr_task *t, int sign)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t), *root, *c;
	unsigned int one = sign > 0 ? 1u : (unsigned int)-1;
	bool idle = task_idle(r, t);

	if (!cfs || !t->fair || !state_on_rq(t->state))
		return;
	onrq_account(r, t, sign);
	root = cfs_of(r, 0, t->cpu);
	cfs->load_weight += sign > 0 ? t->load_weight : (uint64_t)0 - t->load_weight;
	cfs->nr_queued += one;
	if (cfs != root) {
		root->nr_group_tasks += one;
		root->group_children = true;
	}
	if (t->state == CFSR_TS_DELAYED)
		cfs->nr_delayed += one;
	for (c = cfs; c; c = parent_cfs(r, c)) {
		c->h_nr_queued += one;
		if (t->state != CFSR_TS_DELAYED)
			c->h_nr_runnable += one;
		if (idle)
			c->h_nr_idle += one;
		idle = idle || cfs_rq_is_idle(r, c);
		if (t->state == CFSR_TS_RUNNING) {
			if (sign > 0)
				c->curr = t->pid;
			else if (c->curr == t->pid)
				c->curr = 0;
			gse_sums_sync(r, c);
		}
	}
	if (t->state != CFSR_TS_RUNNING)
		avg_vruntime_account(cfs, t->vruntime, cfsr_scale_load_down(t->load_weight), sign);
}

/*
 * Mirrors enqueue_entity() of a group entity (kernel/sched/fair.c,
 * v6.6-v6.18) whose cfs_rq gained its first entity: placed
 * (place_entity(), its lag kept since its dequeue), then
 * account_entity_enqueue() on the parent and __enqueue_entity().
 */
/* account_entity_enqueue() and __enqueue_entity() of a group entity on @p, its parent. */
static void gse_join(struct cfsr_replay *r, struct cfsr_cfs_rq *g, struct cfsr_cfs_rq *p)
{
	g->se_on_rq = true;
	p->load_weight += g->se_weight;
	p->nr_gse++;
	gse_sums_sync(r, g);
	/* older models: enqueue_entity_load_avg() / enqueue_runnable_load_avg() */
	if (r->ops->enqueue)
		r->ops->enqueue(r->profile, &p->avg, &g->se_avg, g->se_weight);
}

static void gse_enqueue(struct cfsr_replay *r, struct cfsr_cfs_rq *g)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);
	struct ent e = gse_ent(g);

	if (r->profile->eevdf)
		place_entity(r, p, &e, false);
	else
		cfs_place_gse(r, p, g);
	gse_join(r, g, p);
}

/* account_entity_dequeue() and __dequeue_entity() of a group entity. */
static void gse_leave(struct cfsr_replay *r, struct cfsr_cfs_rq *g)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);

	g->se_on_rq = false;
	g->se_delayed = false;
	g->se_left_ts = r->cur_ts;
	gse_sums_sync(r, g);
	p->load_weight -= g->se_weight;
	p->nr_gse--;
	/* older models: the levels above a task are dequeued with DEQUEUE_SLEEP */
	if (r->ops->dequeue)
		r->ops->dequeue(r->profile, &p->avg, &g->se_avg, g->se_weight, true);
}

/*
 * Mirrors dequeue_entity() of a group entity whose cfs_rq lost its last
 * entity (kernel/sched/fair.c, v6.12-v6.18): dequeue_entities() dequeues
 * the levels above a task with DEQUEUE_SLEEP set and DEQUEUE_SPECIAL
 * cleared, so DELAY_DEQUEUE applies to a group entity whatever the task's
 * dequeue was (a sleep, an exit, a load-balance detach, a completed delayed
 * dequeue): not eligible, it stays queued with its weight (set_delayed()
 * changes no count for a group entity).  Otherwise its lag is saved
 * (update_entity_lag(), v6.6+) and it leaves.
 */
static void gse_dequeue(struct cfsr_replay *r, struct cfsr_cfs_rq *g)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);
	struct ent e = gse_ent(g);

	if (r->profile->delay_dequeue && !eligible(r, p, NULL, g->se_vruntime)) {
		g->se_delayed = true;
		r->stats.gse_delayed++;
		return;
	}
	if (r->profile->eevdf)
		update_entity_lag(r, p, &e);
	gse_leave(r, g);
	/* CFS: dequeue_entity() ends with update_min_vruntime() */
	cfs_update_min(r, p);
}

/*
 * Mirrors requeue_delayed_entity() (kernel/sched/fair.c, v6.12-v6.18) of a
 * delayed group entity whose cfs_rq gained an entity (enqueue_task_fair()
 * meets it on_rq and delayed): with DELAY_ZERO a positive lag is dropped
 * and the entity placed again at V; clear_delayed().
 */
static void gse_requeue(struct cfsr_replay *r, struct cfsr_cfs_rq *g)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);
	struct ent e = gse_ent(g);

	if (r->profile->delay_zero) {
		update_entity_lag(r, p, &e);
		if (g->se_vlag > 0) {
			gse_sums_set(r, g, false);
			p->nr_gse--;
			g->se_vlag = 0;
			place_entity(r, p, &e, false);
			p->nr_gse++;
		}
	}
	g->se_delayed = false;
	gse_sums_sync(r, g);
	r->stats.gse_delayed_woken++;
}

static void update_cfs_group(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, bool walk);

/*
 * The group entities above @group's cfs_rq on @cpu follow the entities
 * queued below them, bottom-up as enqueue_task_fair() and
 * dequeue_entities() take them (v6.12-v6.18; the same without delays
 * before): one whose cfs_rq lost its last entity is dequeued
 * (gse_dequeue()), one whose cfs_rq gained its first is enqueued
 * (gse_enqueue()) or, delayed, requeued (gse_requeue()).  With @reweight,
 * se_update_runnable() and update_cfs_group() of each, after its dequeue
 * and before its enqueue, as dequeue_entity() and enqueue_entity() call
 * them.
 */
static void group_levels(struct cfsr_replay *r, int group, int cpu, int reweight)
{
	struct cfsr_cfs_rq *c = cfs_of(r, group, cpu);
	bool busy;

	for (; c && c->group; c = parent_cfs(r, c)) {
		busy = cfs_nr_queued(c) > 0;
		/* se_update_runnable() after the accounting below (v5.7-v6.18) */
		if (reweight != LEVELS_KEEP)
			c->se_runnable = cfs_runnable(r, c);
		if (!busy && c->se_on_rq && !c->se_delayed)
			gse_dequeue(r, c);
		if (reweight >= LEVELS_CHANGED)
			update_cfs_group(r, c, reweight == LEVELS_WALK);
		if (busy && !c->se_on_rq)
			gse_enqueue(r, c);
		else if (busy && c->se_delayed)
			gse_requeue(r, c);
	}
}

/*
 * Whether a task's change of state is one whose kernel path calls
 * update_cfs_group() on the levels above (kernel/sched/fair.c,
 * v6.12-v6.18): an enqueue or a dequeue does; a pick or a put
 * (set_next_entity(), put_prev_entity()), a sleep kept delayed and the
 * requeue of a delayed task do not.
 */
static bool state_reweights(enum cfsr_task_state from, enum cfsr_task_state to)
{
	bool from_q = from == CFSR_TS_QUEUED || from == CFSR_TS_RUNNING;
	bool to_q = to == CFSR_TS_QUEUED || to == CFSR_TS_RUNNING;

	if (from_q && to_q)
		return false;
	if (to == CFSR_TS_DELAYED || (from == CFSR_TS_DELAYED && to_q))
		return false;
	return true;
}

/*
 * The older models' runnable load follows a task's enqueue and dequeue
 * (enqueue_entity_load_avg()/dequeue_entity_load_avg(), v3.8-v4.14;
 * enqueue/dequeue_runnable_load_avg(), v4.15-v5.6): its contribution
 * joins its cfs_rq's runnable load when it is queued and leaves it, for
 * the blocked load if it sleeps (v3.8-v4.2), when it is not.  Nothing
 * for v5.7+ models.
 */
static void task_load_enter(struct cfsr_replay *r, struct cfsr_task *t)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (r->ops->enqueue && cfs && t->fair && state_on_rq(t->state))
		r->ops->enqueue(r->profile, &cfs->avg, &t->avg, t->load_weight);
}

static void task_load_leave(struct cfsr_replay *r, struct cfsr_task *t, bool sleep)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	if (r->ops->dequeue && cfs)
		r->ops->dequeue(r->profile, &cfs->avg, &t->avg, t->load_weight, sleep);
}

/* set_state() with the levels above walked as @levels says (group_levels()) */
static void set_state_levels(struct cfsr_replay *r, struct cfsr_task *t, enum cfsr_task_state state,
			     int levels)
{
	bool was_on_rq = state_on_rq(t->state);

	if (t->state == state)
		return;
	t->sleep_guessed = false;
	t->moved_queued = false;
	if (state != CFSR_TS_SLEEPING)
		t->dead = false;
	task_account(r, t, -1);
	t->state = state;
	task_account(r, t, 1);
	if (was_on_rq && !state_on_rq(state))
		task_load_leave(r, t, true);
	else if (!was_on_rq && state_on_rq(state))
		task_load_enter(r, t);
	/* CFS: dequeue_entity() ends with update_min_vruntime() */
	if (was_on_rq && !state_on_rq(state))
		cfs_update_min(r, task_cfs(r, t));
	group_levels(r, t->group, t->cpu, levels);
}

static void set_state(struct cfsr_replay *r, struct cfsr_task *t, enum cfsr_task_state state)
{
	set_state_levels(r, t, state, state_reweights(t->state, state) ? LEVELS_WALK : LEVELS_KEEP);
}

/*
 * Move a task between CPUs as a migration event says (the caller does the
 * PELT side).  A queued task leaves through dequeue_task() and joins
 * through enqueue_task(), each with update_cfs_group() of its levels
 * (detach_task() and attach_task(), move_queued_task()); a sleeping one
 * only leaves its signal to the source's removed load
 * (migrate_task_rq_fair(), kernel/sched/fair.c, v3.8-v6.18): no group
 * entity is reweighted there, and its enqueue on the destination
 * reweights that side.
 */
static void move_cpu(struct cfsr_replay *r, struct cfsr_task *t, int cpu)
{
	bool queued = state_on_rq(t->state);

	if (t->cpu == cpu)
		return;
	task_account(r, t, -1);
	if (queued)
		reweight_groups(r, t->group, t->cpu);
	t->cpu = cpu;
	task_account(r, t, 1);
	if (queued)
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
		/* CFS: the min_vruntimes of the renormalisation are not known */
		t->vr_guessed = t->vr_guessed || !r->profile->eevdf;
	}
	move_cpu(r, t, cpu);
}

/* A prio of the fair class (MAX_RT_PRIO to MAX_PRIO - 1, include/linux/sched/prio.h). */
static bool fair_prio(int prio)
{
	return prio >= 100 && prio < 140;
}

/*
 * set_load_weight() (kernel/sched/core.c, v3.8-v6.18): a SCHED_IDLE task
 * weighs scale_load(WEIGHT_IDLEPRIO), with WMULT_IDLEPRIO, at any nice.
 */
static uint64_t task_weight_at(const struct cfsr_task *t, int prio)
{
	return t->idle_policy ? cfsr_idle_load_weight() : cfsr_prio_to_load_weight(prio);
}

static uint32_t task_wmult(const struct cfsr_task *t)
{
	return t->idle_policy ? WMULT_IDLEPRIO : cfsr_prio_to_wmult(t->prio);
}

static void task_set_prio(struct cfsr_replay *r, struct cfsr_task *t, int prio)
{
	if (t->prio == prio)
		return;
	task_account(r, t, -1);
	t->prio = prio;
	t->fair = fair_prio(prio);
	if (t->fair)
		t->load_weight = task_weight_at(t, prio);
	task_account(r, t, 1);
}

/*
 * A change of policy to or from SCHED_IDLE (__sched_setscheduler() ->
 * set_load_weight(), no trace event shows it): the task's weight and its
 * part in the h_nr_idle counts follow.
 */
static void task_set_idle_policy(struct cfsr_replay *r, struct cfsr_task *t, bool idle)
{
	if (t->idle_policy == idle)
		return;
	task_account(r, t, -1);
	t->idle_policy = idle;
	if (t->fair)
		t->load_weight = task_weight_at(t, t->prio);
	task_account(r, t, 1);
}

int cfsr_replay_task_set_idle_policy(struct cfsr_replay *r, int pid, bool idle)
{
	struct cfsr_task *t = task_get(r, pid);

	if (!t)
		return cfsr_error("replay: out of memory");
	task_set_idle_policy(r, t, idle);
	return 0;
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
	struct cfsr_replay_update u = { ts, t->cpu, t, NULL, why, exact && !r->stamp };

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
 * (cfs_runnable()), and whether an entity runs on it.
 */
static void cfs_age(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		    struct cfsr_sched_avg *sa, struct cfsr_pelt_removed *removed, uint64_t now)
{
	int64_t prop;

	r->ops->update_cfs_rq(r->profile, pelt_now(r, cfs->cpu, now, sa->last_update_time),
			      pelt_scale(r, cfs->cpu), sa, removed, cfs->load_weight,
			      cfs_runnable(r, cfs), cfs_running(r, cfs), &prop);
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
			r->ops->update_se(
				r->profile, pelt_now(r, t->cpu, at, out->last_update_time),
				pelt_scale(r, t->cpu), out, NULL, t->load_weight, false, 0, false);
	}
	cfsr_task_inputs(t, &on_rq, &runnable, &running);
	if (now > out->last_update_time)
		r->ops->update_se(r->profile, pelt_now(r, t->cpu, now, out->last_update_time),
				  pelt_scale(r, t->cpu), out, NULL, t->load_weight, on_rq, runnable,
				  running);
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
	struct cfsr_replay_update u = {
		ts, cfs->cpu, NULL, cfs, CFSR_UPD_CFS_RQ, exact && !r->stamp
	};
	int64_t prop = 0;
	int decayed;

	r->cur_ts = ts;
	/* on a CPU with no clock anchor yet, @now is the trace clock: wait for one */
	if (!clock_ok(r, cfs->cpu))
		return 0;
	if (!cfs->avg.last_update_time && !cfs->avg_known)
		start_unknown(&cfs->avg, pelt_now(r, cfs->cpu, now, 0), &cfs->warm_until);
	if (now < cfs->avg.last_update_time)
		now = cfs->avg.last_update_time;
	decayed = r->ops->update_cfs_rq(
		r->profile, pelt_now(r, cfs->cpu, now, cfs->avg.last_update_time),
		pelt_scale(r, cfs->cpu), &cfs->avg, &cfs->removed, cfs->load_weight,
		cfs_runnable(r, cfs), cfs_running(r, cfs), &prop);
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
 * The instant, in trace time, at which the kernel made the update of @cfs's
 * signal (@gse false) or of its group entity's (@gse true) that the engine
 * is making at trace time @ts: in lock-step, the kernel's record of that
 * update (the same last_update_time), taken a few microseconds after the
 * report that stands for it; else @ts.  tg->load_avg's publications and
 * reads are ordered across CPUs by these instants (tg_load_at()).
 */
static uint64_t kernel_instant(const struct cfsr_cfs_rq *cfs, bool gse, uint64_t ts)
{
	uint64_t at = gse ? cfs->se_read_ts : cfs->avg_read_ts;
	uint64_t lut = gse ? cfs->se_read_lut : cfs->avg_read_lut;
	uint64_t now = gse ? cfs->se_avg.last_update_time : cfs->avg.last_update_time;

	if (!at || lut != now || (at > ts ? at - ts : ts - at) > CFSR_REPLAY_PATH_NS)
		return ts;
	return at;
}

/*
 * The instant update_cfs_group() of @gcfs's group entity read
 * tg->load_avg (kernel/sched/fair.c, v5.7-v6.18): after update_load_avg()
 * of the entity on its parent's cfs_rq, whose records (the entity's, then
 * the parent cfs_rq's when it crossed a period) come first.  The later of
 * the two records of this update; @ts without either.
 */
static uint64_t read_instant(const struct cfsr_replay *r, const struct cfsr_cfs_rq *gcfs,
			     uint64_t ts)
{
	const struct cfsr_cfs_rq *p = cfs_of(r, r->tgs[gcfs->group].parent, gcfs->cpu);
	uint64_t at = kernel_instant(gcfs, true, ts), pa;

	if (!p)
		return at;
	pa = kernel_instant(p, false, ts);
	if (pa == ts)
		return at;
	return at == ts || pa > at ? pa : at;
}

/* Note a change of tg->load_avg for tg_load_at(). */
static void tg_changed(struct replay_tg *tg, uint64_t ts, int cpu, int64_t delta)
{
	if (!delta)
		return;
	tg->changes[tg->next_change % TG_CHANGES] = (struct tg_change){ ts, cpu, delta };
	tg->next_change++;
}

/*
 * The kernel's record of a group cfs_rq update fires in
 * __update_load_avg_cfs_rq(), its update_tg_load_avg() a little after
 * (update_load_avg() with UPDATE_TG, kernel/sched/fair.c, v5.7-v6.18):
 * another CPU's records have shown tg->load_avg without it up to about
 * 1.2 us after that record (later_publication()).
 */
#define TG_PUBLISH_UNSEEN_NS 1500

/*
 * Mirrors update_tg_load_avg() in kernel/sched/fair.c for a group cfs_rq,
 * v6.12-v6.18 (the 1/64 threshold and, from v6.7, the 1 ms rate limit,
 * chosen by lib/group.c's params).  The root's tg->load_avg is not kept.
 */
static void tg_publish(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t ts, bool force)
{
	struct replay_tg *tg = &r->tgs[cfs->group];
	int64_t before;

	if (!cfs->group)
		return;
	ts = kernel_instant(cfs, false, ts);
	before = tg->load_avg;
	if (r->ops->publish_tg)
		r->ops->publish_tg(r->profile, &cfs->avg, &cfs->tg_load_avg_contrib, &tg->load_avg,
				   force);
	else
		cfsr_group_publish_load(r->gparams, &tg->load_avg, &cfs->tg_load_avg_contrib,
					&cfs->last_update_tg_load_avg, cfs->avg.load_avg, ts);
	tg_changed(tg, ts, cfs->cpu, tg->load_avg - before);
}

/*
 * A record of @cpu at @ts shows tg->load_avg short of the engine's by
 * -@rest, which is exactly another CPU's publication the engine placed
 * just before @ts: the kernel's record of that update came first, its
 * update_tg_load_avg() after this record (the two records within about a
 * microsecond of each other).  The publication is moved after @ts.
 */
static bool later_publication(struct replay_tg *tg, int cpu, uint64_t ts, int64_t rest)
{
	unsigned int i, n = tg->next_change < TG_CHANGES ? tg->next_change : TG_CHANGES;

	for (i = 0; i < n; i++) {
		struct tg_change *c = &tg->changes[i];

		if (c->cpu >= 0 && c->cpu != cpu && c->ts <= ts &&
		    ts - c->ts <= TG_PUBLISH_UNSEEN_NS && c->delta == -rest) {
			c->ts = ts + 1;
			return true;
		}
	}
	return false;
}

/*
 * tg->load_avg as @cpu read it at @ts: the engine makes some updates later
 * than the kernel did (a tick's, until it knows it was one), so the
 * changes other CPUs made after @ts are taken out.
 */
static int64_t tg_load_at(const struct replay_tg *tg, int cpu, uint64_t ts)
{
	int64_t v = tg->load_avg;
	unsigned int i, n = tg->next_change < TG_CHANGES ? tg->next_change : TG_CHANGES;

	for (i = 0; i < n; i++)
		if (tg->changes[i].ts > ts && tg->changes[i].cpu != cpu)
			v -= tg->changes[i].delta;
	return v;
}

/* A group cfs_rq's task group as the older models' group operations read it. */
static struct cfsr_pelt_tg pelt_tg(const struct cfsr_replay *r, const struct cfsr_cfs_rq *gcfs)
{
	const struct replay_tg *tg = &r->tgs[gcfs->group];

	return (struct cfsr_pelt_tg){ tg->shares, tg_load_at(tg, gcfs->cpu, r->cur_ts),
				      tg->runnable_avg, gcfs->tg_load_avg_contrib };
}

void cfsr_replay_gse_settle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g, uint64_t now,
			    struct cfsr_sched_avg *out)
{
	const struct cfsr_cfs_rq *p = cfsr_replay_cfs_rq_parent(r, g);
	struct cfsr_sched_avg cfs, gcfs = g->avg;
	struct cfsr_pelt_tg ptg;

	*out = g->se_avg;
	if (!p || !out->last_update_time || now <= out->last_update_time)
		return;
	now = pelt_now(r, g->cpu, now, out->last_update_time);
	if (!r->ops->update_gse) {
		cfsr_pelt_update_se(r->params, now, out, g->se_weight, g->se_on_rq, g->se_runnable,
				    g->curr > 0);
		return;
	}
	cfs = p->avg;
	ptg = pelt_tg(r, g);
	r->ops->update_gse(r->profile, now, pelt_scale(r, g->cpu), out, &cfs, &gcfs, g->se_weight,
			   g->se_on_rq, g->curr > 0, &ptg);
}

/*
 * The forced update_cfs_rq_blocked_load(cfs_rq, 1) of entity_tick() and of
 * a dequeue that is not a sleep (kernel/sched/fair.c, v3.8-v4.2): the
 * walks of a tick and of a migration (walk_full's, to the root with
 * update_cfs_group()) publish whatever the change.
 */
static bool walk_forces(const struct cfsr_replay *r, const struct walk *w)
{
	return r->profile->arith == CFSR_ARITH_LEGACY && w->tg && w->reweight && !w->task_only &&
	       !w->stop;
}

/* Note an update of @cfs that crossed a period, for cfsr_replay_cfs_rq_follow(). */
static void note_decay(struct cfsr_cfs_rq *cfs, uint64_t ts, bool tg)
{
	cfs->dec_lut = cfs->avg.last_update_time;
	cfs->dec_tg = tg;
	cfs->dec_ts = ts;
	cfs->dec_last = cfs->last_update_tg_load_avg;
}

/*
 * After an update of @cfs in a walk: whether it publishes
 * (update_tg_load_avg() when update_load_avg() decayed and the path passes
 * UPDATE_TG), noting the update for cfsr_replay_cfs_rq_follow().
 */
static bool cfs_decayed(struct cfsr_cfs_rq *cfs, int decayed, uint64_t ts, const struct walk *w)
{
	if (cfs->kernel_decayed) {
		cfs->kernel_decayed = false;
		decayed = 1;
	}
	if (!decayed)
		return false;
	note_decay(cfs, ts, w->tg);
	return w->tg;
}

bool cfsr_replay_cfs_rq_follow(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t kernel_lut,
			       uint64_t model_lut)
{
	if (cfs->dec_lut == kernel_lut && model_lut == kernel_lut) {
		if (cfs->dec_tg) {
			cfs->last_update_tg_load_avg = cfs->dec_last;
			tg_publish(r, cfs, cfs->dec_ts, false);
		}
		return false;
	}
	cfs->kernel_decayed = model_lut < kernel_lut;
	return cfs->kernel_decayed;
}

/*
 * Mirrors the update_tg_load_avg() of __update_blocked_fair()
 * (kernel/sched/fair.c, v5.7-v6.18) after a cfs_rq decayed.
 */
int cfsr_replay_cfs_rq_blocked(struct cfsr_replay *r, int group, int cpu, uint64_t kernel_lut,
			       uint64_t ts)
{
	struct cfsr_cfs_rq *cfs = cfs_of(r, group, cpu);

	if (!cfs || !cfs->kernel_decayed || cfs->avg.last_update_time != kernel_lut)
		return 0;
	cfs->kernel_decayed = false;
	note_decay(cfs, ts, true);
	tg_publish(r, cfs, ts, false);
	return 1;
}

int64_t cfsr_replay_tg_load_avg(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	return cfs->group > 0 && (size_t)cfs->group < r->nr_groups ? r->tgs[cfs->group].load_avg :
								     0;
}

/*
 * Mirrors the EEVDF part of reweight_entity() (kernel/sched/fair.c) for a
 * group entity whose weight goes to @weight, by release (the profile's
 * newest, as for the group parameters):
 *  - v6.6.0-v6.6.3: a queued entity keeps its vruntime, its deadline
 *    relative to it is scaled by old/new weight; a dequeued one has its
 *    vlag scaled.
 *  - v6.7-v6.8.8 and stable 6.6.4-6.6.29 (reweight_eevdf(), eab03c23c2a1,
 *    gparams->reweight_eevdf): a queued entity's lag
 *    against V = avg_vruntime() and its deadline relative to V are scaled
 *    by old/new; vruntime and deadline are set back from V.  V is read
 *    after a waiting entity left the tree, the lag is not clamped.
 *  - v6.9-v6.12 and stable 6.6.30+, 6.8.9+ (gparams->reweight_v_fixed):
 *    the same with V read before the entity leaves the tree
 *    (afae8002b4fd) and the lag clamped as entity_lag() does (1560d1f6eb6b).
 *    Not modelled: 11b1b8bc2b98's update_curr() of the cfs_rq before a
 *    waiting entity's reweight; the engine advances the running entity at
 *    the run-time reports and enqueues the trace shows (gse_update_curr()),
 *    for these releases as for v6.9.
 *  - v6.13-v6.18 (6d71a9c61604): a queued entity saves its lag
 *    (update_entity_lag()) and a relative deadline, leaves cfs_rq->nr_queued
 *    (c70fc32f4443, v6.16 and 6.15.y; the same result before, where only a
 *    lone entity, whose lag is 0, could tell), both are scaled by old/new,
 *    and place_entity() puts it back with the new weight (the running
 *    entity stays in V, at its new weight).  A dequeued one has its vlag,
 *    and a relative deadline, scaled.
 * A dequeued entity's vlag is scaled in every release.  The sums of the
 * cfs_rq follow the new weight.  CFS profiles: no EEVDF state, only the
 * weight changes.
 * Not keyed: the stable backports of the revert of 6d71a9c61604
 * (101f3498b4bd, v7.0) by sublevel.
 */
static void reweight_eevdf(struct cfsr_replay *r, struct cfsr_cfs_rq *g, uint64_t weight)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);
	int64_t old = (int64_t)g->se_weight, nw = (int64_t)weight, vlag, vslice, limit;
	struct ent e = gse_ent(g);
	uint64_t avr, span;

	gse_sums_set(r, g, false);
	if (!r->profile->eevdf || !p || !weight || weight == g->se_weight) {
		g->se_weight = weight;
		gse_sums_sync(r, g);
		return;
	}
	if (!g->se_on_rq) {
		g->se_vlag = g->se_vlag * old / nw;
		if (r->reweight_place && g->se_rel_deadline)
			g->se_deadline = (uint64_t)((int64_t)g->se_deadline * old / nw);
	} else if (!r->gparams->reweight_eevdf) {
		vslice = (int64_t)(g->se_deadline - g->se_vruntime) * old / nw;
		g->se_deadline = g->se_vruntime + (uint64_t)vslice;
	} else if (!r->reweight_place) {
		if (r->gparams->reweight_v_fixed)
			gse_sums_sync(r, g);
		avr = avg_vruntime(r, p);
		gse_sums_set(r, g, false);
		if (avr != g->se_vruntime) {
			vlag = (int64_t)(avr - g->se_vruntime);
			if (r->gparams->reweight_v_fixed) {
				span = 2 * g->se_slice > r->tick_nsec ? 2 * g->se_slice :
									r->tick_nsec;
				limit = (int64_t)calc_delta_fair(span, &e);
				vlag = vlag < -limit ? -limit : vlag > limit ? limit : vlag;
			}
			g->se_vruntime = avr - (uint64_t)(vlag * old / nw);
		}
		vslice = (int64_t)(g->se_deadline - avr) * old / nw;
		g->se_deadline = avr + (uint64_t)vslice;
	} else {
		/* update_entity_lag() with the entity still counted in V */
		gse_sums_sync(r, g);
		update_entity_lag(r, p, &e);
		gse_sums_set(r, g, false);
		g->se_deadline -= g->se_vruntime;
		g->se_rel_deadline = true;
		p->nr_gse--;
		g->se_vlag = g->se_vlag * old / nw;
		g->se_deadline = (uint64_t)((int64_t)g->se_deadline * old / nw);
		g->se_weight = weight;
		e = gse_ent(g);
		place_entity(r, p, &e, false);
		p->nr_gse++;
	}
	g->se_weight = weight;
	gse_sums_sync(r, g);
}

/*
 * Mirrors update_cfs_group() in kernel/sched/fair.c, v5.7-v6.18, with
 * reweight_entity()'s PELT part: an empty group keeps its entity's weight
 * (v6.13+, 6.12.11+, gparams->keep_empty_weight); otherwise calc_group_shares() and, when the weight changes
 * (v6.7+, 6.6.4+) or always (v5.7-v6.6.3, gparams->reweight_unchanged), the
 * entity's load leaves the parent, its load_avg is recomputed from its
 * load_sum for the weight, and it re-enters (lib/group.c, lib/pelt.c).
 * The EEVDF part of the reweight is reweight_eevdf()'s.  @walk: called from an
 * update walk, where the kernel calls it; the model's own calls after
 * a change of its accounting (reweight_groups()) act only on a change of
 * weight, as a second reweight at the same instant changes nothing.
 */
static void update_cfs_group(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, bool walk)
{
	const struct replay_tg *tg = &r->tgs[gcfs->group];
	struct cfsr_cfs_rq *p = cfs_of(r, tg->parent, gcfs->cpu);
	struct cfsr_pelt_tg ptg;
	uint64_t shares, runnable = 0;

	if (r->gparams->keep_empty_weight && !gcfs->load_weight)
		return;
	if (r->ops->group_shares) {
		/* the older models' update_cfs_shares()/update_cfs_group() (pelt-ops.h) */
		ptg = pelt_tg(r, gcfs);
		shares = r->ops->group_shares(r->profile, &ptg, gcfs->load_weight, &gcfs->avg,
					      &runnable);
	} else {
		shares = cfsr_group_calc_shares(
			r->params, tg->shares, gcfs->load_weight, gcfs->avg.load_avg,
			tg_load_at(tg, gcfs->cpu, read_instant(r, gcfs, r->cur_ts)),
			gcfs->tg_load_avg_contrib);
	}
	if (shares == gcfs->se_weight && !(walk && r->gparams->reweight_unchanged))
		return;
	if (gcfs->se_on_rq)
		p->load_weight -= gcfs->se_weight;
	if (r->ops->reweight_gse)
		r->ops->reweight_gse(r->profile, &p->avg, &gcfs->se_avg, gcfs->se_weight, shares,
				     runnable, gcfs->se_on_rq);
	else
		cfsr_pelt_reweight_se(r->params, &p->avg, &gcfs->se_avg, gcfs->se_weight, shares);
	reweight_eevdf(r, gcfs, shares);
	if (gcfs->se_on_rq)
		p->load_weight += shares;
}

/* The entry of group @path among those stated, made if new; NULL out of memory. */
static struct replay_shares *stated_of(struct cfsr_replay *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nr_stated && strcmp(r->stated[i].path, path); i++)
		;
	if (i == r->nr_stated) {
		if (CFSR_ALLOC_GROW(r->stated, r->nr_stated + 1, r->alloc_stated) < 0)
			return NULL;
		memset(&r->stated[i], 0, sizeof(r->stated[i]));
		r->stated[i].path = strdup(path);
		if (!r->stated[i].path)
			return NULL;
		r->nr_stated++;
	}
	return &r->stated[i];
}

/* A group's tg->shares (@shares non-zero) or tg->idle (@idle) stated, now and when met. */
static int state_group(struct cfsr_replay *r, const char *path, uint64_t shares, bool idle)
{
	struct replay_shares *st = stated_of(r, path);
	size_t i;

	if (!st)
		return cfsr_error("replay: out of memory");
	for (i = 0; i < r->nr_groups; i++) {
		if (strcmp(r->groups[i], path))
			continue;
		if (shares)
			r->tgs[i].shares = shares;
		r->tgs[i].idle = r->tgs[i].idle || idle;
	}
	if (shares)
		st->shares = shares;
	st->idle = st->idle || idle;
	return 0;
}

int cfsr_replay_group_shares(struct cfsr_replay *r, const char *path, uint64_t shares)
{
	return state_group(r, path, shares, false);
}

static void group_walk(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, uint64_t now, uint64_t ts,
		       bool exact, const struct walk *w);

int cfsr_replay_group_set_shares(struct cfsr_replay *r, const char *path, uint64_t shares,
				 uint64_t ts)
{
	struct cfsr_cfs_rq *gcfs;
	uint64_t now;
	bool exact;
	size_t i;
	int c;

	for (i = 1; i < r->nr_groups && strcmp(r->groups[i], path); i++)
		;
	if (i >= r->nr_groups || r->tgs[i].shares == shares)
		return cfsr_replay_group_shares(r, path, shares);
	if (cfsr_replay_group_shares(r, path, shares) < 0)
		return -1;
	r->stats.shares_changes++;
	for (c = 0; c < r->nr_cpus; c++) {
		gcfs = cfs_of(r, (int)i, c);
		if (!gcfs || !clock_ok(r, c))
			continue;
		r->stamp = false;
		now = clock_at(r, rq_of(r, c), ts, &exact);
		group_walk(r, gcfs, now, ts, exact, &walk_full);
	}
	return 1;
}

int cfsr_replay_group_created(struct cfsr_replay *r, const char *path)
{
	struct replay_shares *st = stated_of(r, path);
	struct cfsr_cfs_rq *cfs;
	size_t i;
	int c;

	if (!st)
		return cfsr_error("replay: out of memory");
	st->created = true;
	for (i = 0; i < r->nr_groups; i++) {
		if (strcmp(r->groups[i], path))
			continue;
		r->tgs[i].created = true;
		for (c = 0; c < r->nr_cpus; c++) {
			cfs = cfs_of(r, (int)i, c);
			if (!cfs_nr_queued(cfs) && !cfs->se_vr_placed && !cfs->min_vruntime)
				cfs->min_vruntime = CFS_INIT_MIN_VRUNTIME;
		}
	}
	return 0;
}

int cfsr_replay_group_shares_fn(void *engine, const char *path, uint64_t shares)
{
	return cfsr_replay_group_shares(engine, path, shares);
}

int cfsr_replay_group_idle(struct cfsr_replay *r, const char *path)
{
	return state_group(r, path, 0, true);
}

int cfsr_replay_group_idle_fn(void *engine, const char *path)
{
	return cfsr_replay_group_idle(engine, path);
}

int cfsr_replay_task_idle_fn(void *engine, int tid, bool idle)
{
	return cfsr_replay_task_set_idle_policy(engine, tid, idle);
}

bool cfsr_replay_cfs_rq_is_idle(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	return cfs_rq_is_idle(r, cfs);
}

/*
 * Mirrors se_is_idle() (kernel/sched/fair.c, v5.15-v6.18): a task entity
 * is idle when its policy is SCHED_IDLE (task_has_idle_policy(), the only
 * test before v5.15), a group entity when its group's cfs_rq is
 * (cfs_rq_is_idle()).
 */
bool cfsr_replay_se_is_idle(const struct cfsr_replay *r, int key, int cpu)
{
	const struct cfsr_task *t;
	const struct cfsr_cfs_rq *g;

	if (key > 0) {
		t = task_find(r, key);
		return t && t->idle_policy;
	}
	if (!key || (size_t)-key >= r->nr_groups || cpu < 0 || cpu >= r->nr_cpus)
		return false;
	g = cfs_of(r, -key, cpu);
	return g && cfs_rq_is_idle(r, g);
}

/*
 * Mirrors sched_idle_cpu() -> sched_idle_rq() (kernel/sched/fair.c,
 * v5.4-v6.18): rq->nr_running && rq->nr_running == rq->cfs.h_nr_idle.
 * rq->nr_running counts every class and, from v6.12, delayed tasks, as
 * h_nr_queued does: the root's queued tasks must all be idle, and the
 * CPU's current task a fair one the engine has running there, or the idle
 * task.  Differs: a task of another class waiting behind a fair one is
 * not seen here (the caller's CPU states show it).
 */
bool cfsr_replay_sched_idle_cpu(const struct cfsr_replay *r, int cpu)
{
	const struct cfsr_cfs_rq *root;
	const struct cfsr_task *t;
	int curr;

	if (!r->profile->sched_idle_cpu || cpu < 0 || cpu >= r->nr_cpus)
		return false;
	root = cfs_of(r, 0, cpu);
	if (!root->h_nr_queued || root->h_nr_idle != root->h_nr_queued)
		return false;
	curr = r->rqs[cpu].curr;
	if (curr <= 0)
		return curr == 0;
	t = task_find(r, curr);
	return t && t->fair && t->cpu == cpu && t->state == CFSR_TS_RUNNING;
}

/*
 * A reading of @cfs's group state said tg->load_avg was @tg_load_avg with
 * @cfs contributing @contrib (see cfsr_replay_group_take()).
 */
static void take_tg_load(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t contrib,
			 int64_t tg_load_avg)
{
	struct replay_tg *tg = &r->tgs[cfs->group];
	struct cfsr_cfs_rq *other = NULL;
	int64_t own = (int64_t)contrib - (int64_t)cfs->tg_load_avg_contrib, rest;
	uint64_t at;

	tg_changed(tg, r->cur_ts, cfs->cpu, own);
	tg->load_avg += own;
	cfs->tg_load_avg_contrib = contrib;
	cfs->taken_ts = r->cur_ts;
	rest = tg_load_avg - tg_load_at(tg, cfs->cpu, r->cur_ts);
	if (!rest || later_publication(tg, cfs->cpu, r->cur_ts, rest))
		return;
	/* with more CPUs the difference could be any other's */
	if (r->nr_cpus == 2)
		other = cfs_of(r, cfs->group, 1 - cfs->cpu);
	if (other) {
		at = other->taken_ts && other->taken_ts < r->cur_ts ? other->taken_ts : r->cur_ts;
		tg_changed(tg, at, other->cpu, rest);
		other->tg_load_avg_contrib = (uint64_t)((int64_t)other->tg_load_avg_contrib + rest);
		if (other->taken_ts)
			other->last_update_tg_load_avg = at;
	} else {
		tg_changed(tg, r->cur_ts, -1, rest);
	}
	tg->load_avg += rest;
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
	reweight_eevdf(r, cfs, se_weight);
	if (tg_load_avg >= 0)
		take_tg_load(r, cfs, contrib, tg_load_avg);
	if (shares)
		r->tgs[cfs->group].shares = shares;
}

/*
 * After a change of the tasks queued below @group's cfs_rq on @cpu: the
 * group entities above enqueued or dequeued, and update_cfs_group() of
 * each, bottom-up (group_levels()).
 */
static void reweight_groups(struct cfsr_replay *r, int group, int cpu)
{
	group_levels(r, group, cpu, LEVELS_CHANGED);
}

/*
 * The older models' update of a group entity (pelt-ops.h @update_gse),
 * which may move tg->runnable_avg (v3.8-v4.2).
 */
static void old_update_gse(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, struct cfsr_cfs_rq *p,
			   uint64_t now)
{
	struct cfsr_pelt_tg ptg = pelt_tg(r, gcfs);

	r->ops->update_gse(r->profile, now, pelt_scale(r, gcfs->cpu), &gcfs->se_avg, &p->avg,
			   &gcfs->avg, gcfs->se_weight, gcfs->se_on_rq, cfs_running(r, gcfs), &ptg);
	r->tgs[gcfs->group].runnable_avg = ptg.runnable_avg;
}

/*
 * The older models' propagate_entity_load_avg() (pelt-ops.h
 * @propagate_gse): the parent is marked and given the pending sum
 * (set_tg_cfs_propagate(), v4.10-v4.14; add_tg_cfs_propagate(),
 * v4.15-v5.6) where the model propagates.  Returns 1 if it did.
 */
static int old_propagate_gse(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, struct cfsr_cfs_rq *p)
{
	struct cfsr_pelt_tg ptg = pelt_tg(r, gcfs);
	int64_t sum = gcfs->prop_runnable_sum;

	gcfs->propagate = false;
	if (!r->ops->propagate_gse(r->profile, &p->avg, &gcfs->se_avg, gcfs->se_weight, &gcfs->avg,
				   gcfs->load_weight, &ptg, &gcfs->prop_runnable_sum))
		return 0;
	p->propagate = true;
	p->prop_runnable_sum += sum;
	return 1;
}

/*
 * The levels above a group cfs_rq just updated, as the kernel's walks
 * (enqueue_task_fair(), dequeue_entities(), entity_tick(),
 * set_next_entity(), put_prev_entity()) take them, v6.12-v6.18: for each
 * group entity, update_load_avg(parent, se, UPDATE_TG) -- the entity aged
 * with its weight, its runnable count and whether it runs, the parent's
 * removed load and ageing, propagate_entity_load_avg() of a pending change
 * below (lib/group.c), update_tg_load_avg() of the parent if anything
 * changed -- then update_cfs_group(se); @w says which of these the
 * calling path does and where it stops (struct walk):
 * propagate_entity_cfs_rq() after detach_entity_cfs_rq() (v5.7-v6.0, see
 * on_migrate()) walks up without reweighting.
 *
 * v3.8-v4.2 (legacy) take a wakeup's and a sleep's levels in two loops
 * (enqueue_task_fair(), dequeue_task_fair()): the first enqueues (or
 * dequeues) each entity up to the first group entity that was queued
 * already (or that stays queued, its cfs_rq keeping others), and its
 * enqueue_entity_load_avg() (dequeue_entity_load_avg()) updates the
 * entity's cfs_rq too: update_cfs_rq_blocked_load(), which may push
 * tg_load_contrib.  The second loop, from that entity up, calls
 * update_cfs_shares(cfs_rq_of(se)), the reweight of the level above,
 * then update_entity_load_avg(se, 1): the entity alone, its parent's
 * runnable load following, the parent's blocked load neither decayed nor
 * pushed.  So there the walk updates the group entity only.  The
 * reweights follow the walk (set_state()); calc_cfs_shares() reads the
 * cfs_rq's load.weight, tg_load_contrib and tg->load_avg, which no update
 * of the second loop changes, so each weight is the one the kernel's
 * order gives (a legacy group entity's load_avg_contrib does not read its
 * weight).  v4.3-v4.14 call update_load_avg(se, 1) in the second loop,
 * which updates the parent and publishes: the walk as for v5.7+.
 *
 * Differs: a group entity whose past precedes the trace starts from zero
 * at its first update, as a task's (warming up).
 */
static void group_walk(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, uint64_t now, uint64_t ts,
		       bool exact, const struct walk *w)
{
	struct cfsr_replay_update u = { ts,   gcfs->cpu,	 NULL,
					NULL, CFSR_UPD_GROUP_SE, exact && !r->stamp };
	bool second = r->profile->arith != CFSR_ARITH_LEGACY || w->loops == WALK_ANY;
	bool in_second = false;
	struct cfsr_cfs_rq *p;
	uint64_t se_now;
	int decayed;

	for (; gcfs->group && gcfs != w->stop; gcfs = p) {
		p = cfs_of(r, r->tgs[gcfs->group].parent, gcfs->cpu);
		/* legacy: this group entity is queued already, or keeps others below */
		if (!second && !in_second)
			in_second =
				w->loops == WALK_ENQUEUE ? gcfs->se_on_rq : cfs_nr_queued(gcfs) > 1;
		se_now = now < gcfs->se_avg.last_update_time ? gcfs->se_avg.last_update_time : now;
		se_now = pelt_now(r, gcfs->cpu, se_now, gcfs->se_avg.last_update_time);
		if (!gcfs->se_avg.last_update_time && !gcfs->se_known)
			start_unknown(&gcfs->se_avg, se_now, &gcfs->se_warm_until);
		if (r->ops->update_gse)
			old_update_gse(r, gcfs, p, se_now);
		else
			cfsr_pelt_update_se(r->params, se_now, &gcfs->se_avg, gcfs->se_weight,
					    gcfs->se_on_rq, gcfs->se_runnable,
					    cfs_running(r, gcfs));
		gcfs->se_updates++;
		if (in_second) {
			u.cfs_rq = gcfs;
			if (r->hook)
				r->hook(r->hook_data, &u);
			continue;
		}
		decayed = cfs_update(r, p, now, ts, exact);
		if (gcfs->propagate && r->ops->propagate_gse) {
			decayed |= old_propagate_gse(r, gcfs, p);
		} else if (gcfs->propagate) {
			gcfs->propagate = false;
			p->propagate = true;
			p->prop_runnable_sum += gcfs->prop_runnable_sum;
			cfsr_group_propagate(r->params, &p->avg, &gcfs->se_avg, gcfs->se_weight,
					     &gcfs->avg, gcfs->load_weight,
					     &gcfs->prop_runnable_sum);
			decayed = 1;
		}
		if (cfs_decayed(p, decayed, ts, w) || walk_forces(r, w))
			tg_publish(r, p, ts, walk_forces(r, w));
		if (w->reweight)
			update_cfs_group(r, gcfs, true);
		u.cfs_rq = gcfs;
		if (r->hook)
			r->hook(r->hook_data, &u);
	}
}

/* On the rq's leaf list: not fully decayed (cfs_rq_is_decayed()) or queued. */
static bool cfs_on_list(const struct cfsr_cfs_rq *cfs)
{
	return cfs->load_weight || cfs->avg.load_sum || cfs->avg.runnable_sum || cfs->avg.util_sum;
}

/*
 * One cfs_rq's turn in __update_blocked_fair() (kernel/sched/fair.c,
 * v5.7-v6.18): update_cfs_rq_load_avg(), update_tg_load_avg() if it
 * decayed, then the group entity unless skip_blocked_update() (no load,
 * no utilisation, nothing to propagate): update_load_avg(parent, se,
 * UPDATE_TG).  Updates that cross no period leave no record, but they
 * split the next one's accumulation, whose rounding then differs.
 */
static void blocked_turn_fair(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t now,
			      uint64_t ts, bool exact)
{
	struct cfsr_cfs_rq *p = cfs->group ? parent_cfs(r, cfs) : NULL;

	if (!cfs_on_list(cfs) || now < cfs->avg.last_update_time)
		return;
	if (cfs_decayed(cfs, cfs_update(r, cfs, now, ts, exact), ts, &walk_tg))
		tg_publish(r, cfs, ts, false);
	if (!p || (!cfs->se_avg.load_avg && !cfs->se_avg.util_avg && !cfs->propagate) ||
	    now < cfs->se_avg.last_update_time)
		return;
	group_walk(r, cfs, now, ts, exact, &(struct walk){ true, false, false, p, WALK_ANY, 0 });
}

/*
 * One cfs_rq's turn in the older releases' update_blocked_averages()
 * (kernel/sched/fair.c):
 *  - v3.8-v4.2, __update_blocked_averages_cpu(): update_cfs_rq_blocked_load(
 *    cfs_rq, 1) -- blocked load decayed by the 2^20 ns blocks since the
 *    last decay, removed load off, tg_load_contrib pushed whatever the
 *    change --, then update_entity_load_avg(se, 1) of the group entity:
 *    its contribution recomputed, its parent's runnable or blocked load
 *    following (not the parent's update_cfs_rq_blocked_load(), which the
 *    parent's own turn makes).  The root's update_rq_runnable_avg() is not
 *    kept (no group reads it).
 *  - v4.3-v5.6: update_cfs_rq_load_avg(cfs_rq_clock_task(cfs_rq), cfs_rq),
 *    then update_tg_load_avg(cfs_rq, 0) if it decayed.  From v4.10
 *    (propagation, 09a43ace1f98 and its companion for asynchronous
 *    detach) the group entity gets update_load_avg(cfs_rq_of(se), se, 0):
 *    aged, its parent updated and a pending change propagated, but no
 *    update_tg_load_avg() of the parent (UPDATE_TG came with a v5.13 fix),
 *    whose own turn then finds nothing decayed at the same clock.  It is
 *    skipped, as skip_blocked_update() does, when the entity has no load
 *    and no utilization and nothing is pending below.
 * Differs: skip_blocked_update() is read in a v4.19-era copy; v4.10 may
 * update such an entity anyway, which ages nothing.
 */
static void blocked_turn_old(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t now,
			     uint64_t ts, bool exact)
{
	bool legacy = r->profile->arith == CFSR_ARITH_LEGACY;
	struct cfsr_cfs_rq *p = cfs->group ? parent_cfs(r, cfs) : NULL;
	struct walk up = { false, false, false, p, WALK_ANY, 0 };
	int decayed;

	decayed = cfs_update(r, cfs, now, ts, exact);
	if (cfs->group && (legacy || decayed))
		tg_publish(r, cfs, ts, legacy);
	if (!p || !cfs->se_avg.last_update_time)
		return;
	if (!legacy && !r->profile->v4->propagate)
		return;
	if (!legacy && !cfs->se_avg.load_avg && !cfs->se_avg.util_avg && !cfs->propagate)
		return;
	group_walk(r, cfs, now, ts, exact, &up);
}

/* A cfs_rq's turn in update_blocked_averages(), by the profile's release. */
static void blocked_turn(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t now, uint64_t ts,
			 bool exact)
{
	if (r->profile->arith == CFSR_ARITH_RUNNABLE) {
		blocked_turn_fair(r, cfs, now, ts, exact);
		return;
	}
	blocked_turn_old(r, cfs, now, ts, exact);
}

/*
 * The cfs_rqs of @cpu on the rq's leaf list (the engine's cfs_rqs of the
 * CPU that have a signal stand for it), children before parents
 * (for_each_leaf_cfs_rq()), each taking its turn at rq clock @now
 * (blocked_turn()).
 */
static void blocked_pass(struct cfsr_replay *r, int cpu, uint64_t now, uint64_t ts, bool exact)
{
	int depth;
	size_t g;

	for (depth = r->max_depth; depth >= 0; depth--)
		for (g = 0; g < r->nr_groups; g++) {
			struct cfsr_cfs_rq *cfs = cfs_of(r, (int)g, cpu);

			if (cfs && cfs->updates && r->tgs[g].depth == depth)
				blocked_turn(r, cfs, now, ts, exact);
		}
}

/*
 * Mirrors update_blocked_averages(cpu) of v3.8-v5.6 (kernel/sched/fair.c):
 * every cfs_rq of the CPU on the leaf list, children before parents
 * (for_each_leaf_cfs_rq()), takes its turn (blocked_turn()); the engine's
 * cfs_rqs of the CPU that have a signal stand for the leaf list.
 */
int cfsr_replay_blocked_averages(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock)
{
	struct replay_rq *rq;
	uint64_t now, cur_ts;
	bool exact = false;

	if (r->profile->arith == CFSR_ARITH_RUNNABLE || cpu < 0 || cpu >= r->nr_cpus ||
	    !clock_ok(r, cpu))
		return 0;
	rq = &r->rqs[cpu];
	if (rq->blocked_ts && ts < rq->blocked_ts + CFSR_REPLAY_PATH_NS)
		return 0;
	rq->blocked_ts = ts;
	cur_ts = r->cur_ts;
	now = clock;
	if (!now)
		now = clock_at(r, rq, ts, &exact);
	else
		exact = true;
	blocked_pass(r, cpu, now, ts, exact);
	r->stats.blocked_averages++;
	r->cur_ts = cur_ts > ts ? cur_ts : ts;
	return 1;
}

/*
 * The level above a task's cfs_rq is updated after the task's
 * account_entity_enqueue() or account_entity_dequeue() on that cfs_rq
 * (enqueue_entity(), dequeue_entity(): kernel/sched/fair.c, v5.7-v6.18),
 * and reads its load.weight there: propagate_entity_load_avg()'s
 * update_tg_cfs_load() (the runnable estimate of removed load:
 * load_sum / load.weight) and update_cfs_group().  The engine accounts
 * the change only after the walk (set_state()), so for the walk @cfs's
 * load_weight is made the kernel's: @t's weight added (@sign 1, the
 * enqueue of a task not accounted yet) or taken off (@sign -1, the
 * dequeue of one accounted).  Returns the amount, which the caller takes
 * back after the walk.
 * Differs: a level above whose group entity the change enqueues or
 * dequeues (a group gaining its first task or losing its last) is read
 * without that change (group_levels() makes it after the walk).
 */
static int64_t with_below(struct cfsr_replay *r, const struct cfsr_task *t, struct cfsr_cfs_rq *cfs,
			  int sign)
{
	int64_t below = 0;

	if (r->profile->arith != CFSR_ARITH_RUNNABLE)
		return 0;
	if (sign > 0 && !state_on_rq(t->state))
		below = (int64_t)t->load_weight;
	else if (sign < 0 && state_on_rq(t->state))
		below = -(int64_t)t->load_weight;
	cfs->load_weight += (uint64_t)below;
	return below;
}

/*
 * The cfs_rqs an update_load_avg(UPDATE_TG) of a task's entity reaches:
 * its own, then the levels above through the group entities.
 */
static void cfs_update_task(struct cfsr_replay *r, const struct cfsr_task *t, uint64_t now,
			    uint64_t ts, bool exact, const struct walk *w)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	int64_t below;

	if (!cfs || !t->fair || !clock_ok(r, t->cpu))
		return;
	if (cfs_decayed(cfs, cfs_update(r, cfs, now, ts, exact), ts, w) || walk_forces(r, w))
		tg_publish(r, cfs, ts, walk_forces(r, w));
	if (w->task_only)
		return;
	below = with_below(r, t, cfs, w->below);
	group_walk(r, cfs, now, ts, exact, w);
	cfs->load_weight -= (uint64_t)below;
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
			     bool running, const struct walk *w)
{
	uint64_t se_now = now < t->avg.last_update_time ? t->avg.last_update_time : now;

	if (!clock_ok(r, t->cpu))
		return;
	if ((t->avg_known || t->migrated) && !t->avg.last_update_time) {
		/* not attached yet (new, moved, or its CPU had no clock then): DO_ATTACH */
		attach_task(r, t, now, ts, exact);
		return;
	}
	se_now = pelt_now(r, t->cpu, se_now, t->avg.last_update_time);
	if (!t->avg_known && !t->avg.last_update_time)
		start_unknown(&t->avg, se_now, &t->warm_until);
	t->set_next_est = false;
	r->ops->update_se(r->profile, se_now, pelt_scale(r, t->cpu), &t->avg, task_cfs_avg(r, t),
			  t->load_weight, on_rq, runnable, running);
	notify(r, t, ts, why, exact);
	cfs_update_task(r, t, now, ts, exact, w);
}

static void update_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			enum cfsr_update_why why, bool exact, const struct walk *w);

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
	at = pelt_now(r, t->cpu, at, t->avg.last_update_time);
	if (!t->avg_known && !t->avg.last_update_time)
		start_unknown(&t->avg, at, &t->warm_until);
	r->ops->update_se(r->profile, at, pelt_scale(r, t->cpu), &t->avg, task_cfs_avg(r, t),
			  t->load_weight, false, 0, false);
	notify(r, t, t->enq_ts, CFSR_UPD_ENQUEUE, false);
}

static void update_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			enum cfsr_update_why why, bool exact, const struct walk *w)
{
	uint64_t runnable;
	bool on_rq, running;

	if (!t->fair)
		return;
	cfsr_replay_task_settle(r, t, now);
	cfsr_task_inputs(t, &on_rq, &runnable, &running);
	update_task_with(r, t, now, ts, why, exact, on_rq, runnable, running, w);
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
	int64_t below;

	if (!cfs || !clock_ok(r, t->cpu))
		return;
	cfs_update(r, cfs, now, ts, exact);
	/* DO_ATTACH: add_tg_cfs_propagate() of the sums, update_tg_load_avg() */
	cfs->prop_runnable_sum +=
		r->ops->attach(r->profile, &cfs->avg, &t->avg, t->load_weight, now);
	task_load_enter(r, t);
	cfs->propagate = true;
	tg_publish(r, cfs, ts, false);
	/*
	 * a load-balance attach in lock-step (an empty group keeping its
	 * weight: v6.13+, 6.12.11+): enqueue_entity()'s
	 * update_cfs_group() of each level after its update (on_migrate());
	 * the levels above read the task accounted on its cfs_rq
	 */
	below = with_below(r, t, cfs, 1);
	group_walk(r, cfs, now, ts, exact,
		   t->attach_pending && r->gparams->keep_empty_weight ? &walk_full : &walk_tg);
	cfs->load_weight -= (uint64_t)below;
	t->migrated = false;
	if (t->attach_pending) {
		t->attach_pending = false;
		t->attach_clocked = false;
		r->attach_pending--;
	}
	notify(r, t, ts, CFSR_UPD_ENQUEUE, exact);
	/* account_entity_enqueue() after the attach (cfsr_replay_cfs_rq_take_queued()) */
	if (t->requeue_at_attach) {
		t->requeue_at_attach = false;
		if (t->state == CFSR_TS_SLEEPING) {
			set_state(r, t, CFSR_TS_QUEUED);
			t->moved_queued = true;
		}
	}
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
	r->ops->remove(r->profile, &cfs->avg, &cfs->removed, &t->avg, t->load_weight);
	notify(r, t, ts, CFSR_UPD_REMOVE, false);
}

/*
 * Mirrors util_est_update(..., task_sleep = true) at a sleeping task's
 * dequeue (kernel/sched/fair.c, v5.7-v6.18; the layout of util_est by
 * profile, lib/pelt.c): a sample of the averages as the task's last update
 * left them, once per sleep.  Nothing without UTIL_EST.
 */
static void sample_util_est(struct cfsr_replay *r, struct cfsr_task *t)
{
	struct cfsr_sched_avg before;

	if (t->ue_sampled || !t->fair || !r->ue)
		return;
	if (!t->tick_forced) {
		cfsr_pelt_util_est_sample(r->ue, &t->avg, cfsr_replay_capacity(r, t->cpu), true);
	} else {
		/*
		 * The report taken as a tick's was this sleep's dequeue:
		 * util_est_update() sampled the signal before its update, which
		 * cleared UTIL_AVG_UNCHANGED if it crossed a period
		 * (cfs_se_util_change()).
		 */
		before = t->tick_avg;
		cfsr_pelt_util_est_sample(r->ue, &before, cfsr_replay_capacity(r, t->cpu), true);
		t->avg.util_est = before.util_est;
		t->avg.util_est_ewma = before.util_est_ewma;
		if (t->tick_avg.period_contrib +
			    ((t->avg.last_update_time - t->tick_avg.last_update_time) >> 10) >=
		    1024)
			cfsr_pelt_util_est_clear_unchanged(&t->avg);
	}
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
 * it knows queued.  Nothing without UTIL_EST (util_est_enqueue() and
 * util_est_dequeue() return at once).
 */
static void root_util_est(struct cfsr_replay *r, struct cfsr_task *t, int sign)
{
	struct cfsr_cfs_rq *root;

	if (!t->fair || !r->ue)
		return;
	if (t->ue_in_root) {
		root = cfs_of(r, 0, t->ue_cpu);
		if (root)
			root->avg.util_est =
				cfsr_pelt_util_est_dequeue(r->ue, root->avg.util_est, t->ue_root);
		t->ue_in_root = false;
	}
	root = cfs_of(r, 0, t->cpu);
	if (sign < 0 || !root)
		return;
	t->ue_root = cfsr_pelt_util_est_of(&t->avg);
	root->avg.util_est = cfsr_pelt_util_est_enqueue(r->ue, root->avg.util_est, t->ue_root);
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
			 uint64_t now, bool exact, uint64_t ts)
{
	const struct cfsr_task *curr = rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;

	clock_updated(rq, now, exact, r->stamp, clock_instant(rq, ts, now));
	rq->skip_clock = now;
	rq->skip_wake_clock = now;
	rq->skip_ts = ts;
	rq->skip_exact = exact;
	rq->skip_stamp = r->stamp || !exact;
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
static bool skipped_clock(struct cfsr_replay *r, struct replay_rq *rq, uint64_t *now, bool *exact,
			  uint64_t *at)
{
	rq->missed_skip = false;
	if (!rq->skip)
		return false;
	rq->skip = false;
	if (r->records && !rq->last_exact)
		return false;
	*now = rq->last_clock;
	*exact = rq->last_exact;
	*at = rq->last_ts;
	r->stamp |= rq->last_stamp;
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
	rq->missed_wake_clock = rq->skip_wake_clock;
	rq->missed_stamp = rq->skip_stamp;
}

/* The clock of a __schedule() on @rq: the one its run-time event reported. */
static uint64_t schedule_clock(struct cfsr_replay *r, struct replay_rq *rq, int prev, uint64_t ts,
			       bool *exact)
{
	if (rq->anchored && rq->anchor_exact && prev > 0 && rq->anchor_pid == prev) {
		*exact = true;
		r->stamp |= rq->anchor_stamp;
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
	struct replay_rq *rq = rq_of(r, t->cpu);
	struct cfsr_task *c = rq && rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;
	uint64_t vr = 0;
	bool stale = false;

	/*
	 * requeue_delayed_entity() (kernel/sched/fair.c, v6.12-v6.18) calls no
	 * update_curr(): the running task's vruntime in avg_vruntime() is its
	 * last update's; the update_curr() of the wakeup_preempt() that follows
	 * reports before this wakeup's sched_wakeup, and is taken back for the
	 * lag and the placement
	 */
	if (c && c != t && c->state == CFSR_TS_RUNNING && task_cfs(r, c) == cfs && t->waking_ts &&
	    c->report_ts >= t->waking_ts && c->report_ts <= ts) {
		vr = c->vruntime;
		c->vruntime = c->report_vruntime;
		stale = true;
	}
	if (cfs && r->profile->delay_zero) {
		task_lag(r, cfs, t);
		if (t->vlag > 0) {
			task_account(r, t, -1);
			t->vlag = 0;
			task_place(r, cfs, t, false);
			task_account(r, t, 1);
		}
	}
	if (stale)
		c->vruntime = vr;
	update_task_with(r, t, now, ts, CFSR_UPD_REQUEUE, exact, true, 0, false, &walk_task);
	set_state(r, t, CFSR_TS_QUEUED);
	root_util_est(r, t, 1);
	r->stats.delayed_woken++;
}

/*
 * The levels above @t's cfs_rq counted @t runnable again (@d 1) or not
 * (@d -1): see finish_delayed().
 */
static void delayed_recount(struct cfsr_replay *r, const struct cfsr_task *t, int d)
{
	struct cfsr_cfs_rq *c = task_cfs(r, t);

	for (c = c ? parent_cfs(r, c) : NULL; c; c = parent_cfs(r, c))
		c->h_nr_runnable = (unsigned int)((int)c->h_nr_runnable + d);
}

/*
 * Mirrors dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED) from
 * pick_next_entity() (kernel/sched/fair.c, v6.12-v6.18): update_load_avg()
 * with the delayed inputs, the lag saved (positive lag dropped with
 * DELAY_ZERO, finish_delayed_dequeue_entity()), the task dequeued.  No
 * trace event marks it; util_est is not touched.
 * The task's own level is updated in dequeue_entity() before
 * finish_delayed_dequeue_entity(), whose clear_delayed() then counts the
 * task runnable again at every level (h_nr_runnable++, v6.14-v6.18;
 * h_nr_delayed-- in v6.12.7-v6.13, 76f2f783294d); dequeue_entities() takes
 * it off each level above only after that level's update_load_avg(), so
 * those updates age their cfs_rq with one runnable task too many since its
 * last update (a tick's, say, some microseconds before the pick).  Not
 * where the delayed tasks count as runnable anyway (v6.12-v6.12.6).
 */
static void finish_delayed(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now, uint64_t ts,
			   bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	bool recount = !r->profile->runnable_delayed;

	if (recount)
		delayed_recount(r, t, 1);
	update_task_with(r, t, now, ts, CFSR_UPD_DELAYED_DEQUEUE, exact, true, 0, false,
			 &walk_delayed);
	if (recount)
		delayed_recount(r, t, -1);
	if (cfs)
		task_lag(r, cfs, t);
	if (r->profile->delay_zero && t->vlag > 0)
		t->vlag = 0;
	set_state(r, t, CFSR_TS_SLEEPING);
	r->stats.delayed_picked++;
}

/*
 * Mirrors dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED) of a delayed
 * group entity from pick_next_entity() (kernel/sched/fair.c, v6.12-v6.18):
 * update_load_avg() (its cfs_rq empty: load 1, runnable 0), its lag saved
 * (a positive one dropped with DELAY_ZERO, finish_delayed_dequeue_entity()),
 * the entity dequeued; the level above, if that emptied it, is dequeued in
 * turn (and may be delayed), and the levels above updated.  No trace event
 * marks it.
 */
static void finish_delayed_gse(struct cfsr_replay *r, struct cfsr_cfs_rq *g, uint64_t now,
			       uint64_t ts, bool exact)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, g);
	struct ent e = gse_ent(g);

	if (clock_ok(r, g->cpu))
		group_walk(r, g, now, ts, exact, &walk_full);
	if (r->profile->eevdf)
		update_entity_lag(r, p, &e);
	if (r->profile->delay_zero && g->se_vlag > 0)
		g->se_vlag = 0;
	gse_leave(r, g);
	r->stats.gse_delayed_picked++;
	reweight_groups(r, p->group, p->cpu);
}

/*
 * The entities queued on @cfs: tasks, then group entities; *@i is the
 * position, 0 to start.
 */
static bool cfs_ent_next(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, size_t *i,
			 struct ent *e)
{
	const struct replay_rq *rq = &r->rqs[cfs->cpu];
	struct cfsr_cfs_rq *g;
	size_t gi;

	while (*i < rq->nr_onrq) {
		struct cfsr_task *t = &r->tasks[rq->onrq[(*i)++]];

		if (cfs_of(r, t->group, t->cpu) == cfs) {
			*e = task_ent(t);
			return true;
		}
	}
	while (*i < rq->nr_onrq + r->nr_groups) {
		gi = (*i)++ - rq->nr_onrq;
		if (!gi || r->tgs[gi].parent != cfs->group)
			continue;
		g = cfs_of(r, (int)gi, cfs->cpu);
		if (g->se_on_rq) {
			*e = gse_ent(g);
			return true;
		}
	}
	return false;
}

/* The entities queued on @cfs, less those @ov dequeued. */
static unsigned int ov_nr_queued(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
				 const struct pick_overlay *ov)
{
	unsigned int n = cfs_nr_queued(cfs), i;

	for (i = 0; ov && i < ov->nr_gone; i++)
		if (ent_cfs(r, &ov->gone[i]) == cfs)
			n--;
	return n;
}

/*
 * Mirrors pick_eevdf() (kernel/sched/fair.c, v6.9-v6.18, the tree sorted by
 * deadline) on one cfs_rq: the eligible queued entity, task or group
 * entity, with the earliest deadline; the only one, if just one is queued.
 * Ties go to the first met (the kernel's to the earlier insertion).
 * Return: false if none is queued, or none is eligible.
 * Differs: RUN_TO_PARITY is not modelled (the running entity is one
 * candidate among the others); PICK_BUDDY and NEXT_BUDDY are not (buddies
 * are set only by paths the model does not see).
 */
static bool pick_eevdf(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		       const struct pick_overlay *ov, struct ent *best)
{
	unsigned int n = ov_nr_queued(r, cfs, ov);
	bool have_best = false, have_only = false;
	struct ent e, only;
	size_t i = 0;

	while (n && cfs_ent_next(r, cfs, &i, &e)) {
		if (ov_gone(ov, &e))
			continue;
		only = e;
		have_only = true;
		if (n > 1 && !eligible(r, cfs, ov, *e.vruntime))
			continue;
		if (!have_best || (int64_t)(*e.deadline - *best->deadline) < 0) {
			*best = e;
			have_best = true;
		}
	}
	if (n == 1 && have_only) {
		*best = only;
		return true;
	}
	return have_best;
}

/* Internal pick_walk() results, beside the public CFSR_PICK_* ones. */
enum {
	/* the pick met a delayed entity (returned in *met) */
	PICK_DELAYED = -3,
	/* the pick left the path to the task the trace says runs */
	PICK_OFF_PATH = -4,
};

/* @e is @next or a group entity above it. */
static bool on_path(const struct cfsr_replay *r, const struct ent *e, const struct cfsr_task *next)
{
	const struct cfsr_cfs_rq *c;

	if (e->t)
		return e->t == next;
	for (c = cfs_of(r, next->group, next->cpu); c && c->group; c = parent_cfs(r, c))
		if (c == e->g)
			return true;
	return false;
}

/*
 * The entity of @cfs on the path to @next: @next itself or the group
 * entity above it queued in @cfs.  Return: -1 if @next is not below @cfs.
 */
static int path_ent(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		    const struct cfsr_task *next, struct ent *e)
{
	struct cfsr_cfs_rq *c = cfs_of(r, next->group, next->cpu), *p;

	if (c == cfs) {
		*e = task_ent((struct cfsr_task *)next);
		return 0;
	}
	for (; c && c->group; c = p) {
		p = parent_cfs(r, c);
		if (p == cfs) {
			*e = gse_ent(c);
			return 0;
		}
	}
	return -1;
}

/*
 * Mirrors the loop of pick_task_fair() (kernel/sched/fair.c, v6.12-v6.18)
 * on @cpu: pick_eevdf() at the root, then in the cfs_rq of the group
 * entity picked, down to a task.  With @next (the task the trace shows
 * running next) and @force, a level whose pick leaves the path to it
 * takes the entity on the path instead: the kernel's last pick ran down
 * that path, and the delayed entities below are met as its pick meets
 * them.
 * Return: the pid, CFSR_PICK_TREE_IDLE, CFSR_PICK_TREE_UNKNOWN, PICK_DELAYED (*@met
 * set) or PICK_OFF_PATH.
 */
static int pick_walk(const struct cfsr_replay *r, int cpu, const struct pick_overlay *ov,
		     const struct cfsr_task *next, bool force, struct ent *met)
{
	const struct cfsr_cfs_rq *cfs = cfs_of(r, 0, cpu);
	struct ent e;
	size_t depth;

	for (depth = 0; cfs && depth <= r->nr_groups; depth++) {
		if (!pick_eevdf(r, cfs, ov, &e))
			return !depth && !ov_nr_queued(r, cfs, ov) ? CFSR_PICK_TREE_IDLE :
								     CFSR_PICK_TREE_UNKNOWN;
		if (ent_delayed(ov, &e)) {
			*met = e;
			return PICK_DELAYED;
		}
		if (next && force && !on_path(r, &e, next) && path_ent(r, cfs, next, &e) < 0)
			return PICK_OFF_PATH;
		if (e.t)
			return e.t->pid;
		cfs = e.g;
	}
	return CFSR_PICK_TREE_UNKNOWN;
}

/*
 * For cfsr_replay_pick_tree() and cfsr_replay_pick(): the dequeue of @e (a
 * delayed entity the pick completes, or a prev that blocks), and of the
 * group entities it empties (delayed instead where not eligible), in @ov.
 * With @buddy: dequeue_entities() (kernel/sched/fair.c, v6.12-v6.18;
 * dequeue_task_fair() v6.6-v6.11), a sleep, stops at the first cfs_rq that
 * keeps weight and, if that is a group's, makes the group's entity the
 * next buddy of the levels above (set_next_buddy()): *@buddy is set to
 * that group (left alone otherwise).
 * Return: -1 when @ov is full.
 */
static int ov_dequeue(const struct cfsr_replay *r, struct pick_overlay *ov, const struct ent *e,
		      int *buddy)
{
	const struct cfsr_cfs_rq *cfs = ent_cfs(r, e);
	struct cfsr_cfs_rq *g;
	struct ent ge;

	if (ov->nr_gone >= PICK_OVERLAY_MAX)
		return -1;
	ov->gone[ov->nr_gone++] = *e;
	if (!cfs || !cfs->group)
		return 0;
	if (ov_nr_queued(r, cfs, ov)) {
		if (buddy)
			*buddy = cfs->group;
		return 0;
	}
	g = cfs_of(r, cfs->group, cfs->cpu);
	ge = gse_ent(g);
	if (r->profile->delay_dequeue && !eligible(r, parent_cfs(r, g), ov, g->se_vruntime)) {
		if (ov->nr_delayed >= PICK_OVERLAY_MAX)
			return -1;
		ov->delayed[ov->nr_delayed++] = g;
		return 0;
	}
	return ov_dequeue(r, ov, &ge, buddy);
}

int cfsr_replay_pick_tree(const struct cfsr_replay *r, int cpu)
{
	struct pick_overlay ov;
	struct ent met;
	int ret;

	if (!r || cpu < 0 || cpu >= r->nr_cpus || !r->profile->eevdf)
		return CFSR_PICK_TREE_UNKNOWN;
	memset(&ov, 0, sizeof(ov));
	for (;;) {
		ret = pick_walk(r, cpu, &ov, NULL, false, &met);
		if (ret != PICK_DELAYED)
			return ret;
		if (ov_dequeue(r, &ov, &met, NULL) < 0)
			return CFSR_PICK_TREE_UNKNOWN;
	}
}

/*
 * The fair pick of a __schedule() on @cpu, as far as it completes delayed
 * dequeues: pick_task_fair() restarts from the root while the entity it
 * picks at some level is delayed (task or group entity): the model's
 * picks, or where they end at another task than @next (the task the trace
 * shows running), the path to @next.  The CPU going idle (@next
 * NULL) means every delayed entity on it was picked: those the model's
 * picks did not reach are completed after, bottom-up.
 */
static void pick_delayed(struct cfsr_replay *r, int cpu, const struct cfsr_task *next, uint64_t now,
			 uint64_t ts, bool exact)
{
	struct cfsr_cfs_rq *cfs;
	struct ent met;
	size_t g, i, guard;
	int ret;

	if (!r->profile->delay_dequeue)
		return;
	for (guard = 0; guard < r->nr_tasks + r->nr_groups; guard++) {
		/* the model's own picks first; where they end off @next, its path */
		ret = pick_walk(r, cpu, NULL, next, false, &met);
		if (ret != PICK_DELAYED && next && ret != next->pid)
			ret = pick_walk(r, cpu, NULL, next, true, &met);
		if (ret != PICK_DELAYED)
			break;
		if (met.t)
			finish_delayed(r, met.t, now, ts, exact);
		else
			finish_delayed_gse(r, met.g, now, ts, exact);
	}
	if (next)
		return;
	for (g = r->nr_groups; g-- > 0;) {
		cfs = cfs_of(r, (int)g, cpu);
		for (i = 0; i < r->nr_tasks && cfs->nr_delayed; i++)
			if (r->tasks[i].state == CFSR_TS_DELAYED &&
			    task_cfs(r, &r->tasks[i]) == cfs)
				finish_delayed(r, &r->tasks[i], now, ts, exact);
		if (g && cfs->se_delayed && !cfs_nr_queued(cfs))
			finish_delayed_gse(r, cfs, now, ts, exact);
	}
}

/*
 * Mirrors set_next_entity(): update with the waiting inputs, then run.
 * @w: the levels the pick sets (switch_walks()).
 */
static void set_next(struct cfsr_replay *r, struct cfsr_task *t, int cpu, uint64_t now, uint64_t ts,
		     bool exact, const struct walk *w)
{
	struct cfsr_cfs_rq *g;

	if (t->state == CFSR_TS_DELAYED) {
		/* the model missed the wakeup that requeued it */
		set_cpu(r, t, cpu, ts);
		requeue_delayed(r, t, now, ts, exact);
	}
	if (t->state != CFSR_TS_QUEUED && t->state != CFSR_TS_RUNNING) {
		set_cpu(r, t, cpu, ts);
		if (t->fair && task_cfs(r, t)) {
			if (t->state != CFSR_TS_LEFT)
				task_place(r, task_cfs(r, t), t, false);
			root_util_est(r, t, 1);
		}
		set_state(r, t, CFSR_TS_QUEUED);
	}
	set_cpu(r, t, cpu, ts);
	if (t->state == CFSR_TS_RUNNING)
		set_state(r, t, CFSR_TS_QUEUED);
	cfsr_replay_task_settle(r, t, now);
	t->pre_set_next = t->avg;
	update_task(r, t, now, ts, CFSR_UPD_SET_NEXT, exact, w);
	/* an estimated switch clock can be corrected by a reading (correct_chain()) */
	t->set_next_est = !exact && t->fair;
	t->set_next_clock = now;
	t->set_next_updates = t->updates;
	set_state(r, t, CFSR_TS_RUNNING);
	t->ue_sampled = false;
	/*
	 * The run-time chain starts here; its values are as exact as @now,
	 * and mean nothing on a CPU whose clock has no anchor yet.
	 */
	t->exec_start = now;
	t->exec_stamp = r->stamp || !exact;
	t->exec_known = clock_ok(r, cpu);
	t->wake_placed = false;
	/* set_next_entity() of the levels that change, update_curr() in the pick of the others */
	for (g = task_cfs(r, t); g && g->group; g = parent_cfs(r, g)) {
		g->se_exec_start = now;
		g->se_wake_placed = false;
	}
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
static bool will_delay(struct cfsr_replay *r, const struct cfsr_task *t, bool special)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);

	return t->fair && cfs && state_on_rq(t->state) && r->profile->delay_dequeue && !special &&
	       !eligible(r, cfs, NULL, t->vruntime);
}

static void block_task(struct cfsr_replay *r, struct cfsr_task *t, bool special)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	bool delay = will_delay(r, t, special);

	if (!t->fair || !cfs || !state_on_rq(t->state)) {
		set_state(r, t, CFSR_TS_SLEEPING);
		return;
	}
	root_util_est(r, t, -1);
	t->sleep_ts = r->cur_ts;
	if (delay) {
		set_state(r, t, CFSR_TS_DELAYED);
		r->stats.delayed++;
		return;
	}
	task_lag(r, cfs, t);
	set_state(r, t, CFSR_TS_SLEEPING);
}

/*
 * The walks of a switch on @cpu from @prev to @next (either NULL when not a
 * task the model knows), kernel/sched/fair.c v6.12-v6.18:
 *  - prev: a sleep that dequeues walks every level with UPDATE_TG and
 *    update_cfs_group() (dequeue_entities()); one kept delayed
 *    (dequeue_entity()'s delayed branch returns before the levels above)
 *    and a preempted task are only put back by the pick:
 *    put_prev_entity(), update_load_avg(0), on the levels below the cfs_rq
 *    prev and next share, or on every level when next is not fair
 *    (put_prev_task_fair()).
 *  - next: set_next_entity(), update_load_avg(UPDATE_TG) without
 *    update_cfs_group(), on the levels below that shared cfs_rq, or on
 *    every level when prev is not fair (set_next_task_fair()).
 */
/* A switch out of @prev whose dequeue has DEQUEUE_SPECIAL: the task is dying. */
static bool switch_special(const struct cfsr_task *prev, const struct cfsr_event *ev)
{
	return prev->exiting || (ev->sw.prev_state & (CFSR_TASK_DEAD_BITS));
}

static void switch_walks(const struct cfsr_replay *r, const struct cfsr_task *prev,
			 const struct cfsr_task *next, bool next_fair, bool dequeue, int cpu,
			 struct walk *put, struct walk *set)
{
	const struct cfsr_cfs_rq *common = NULL;

	if (prev && next && prev->fair && next_fair)
		common = common_cfs(r, prev->group, next->group, cpu);
	*put = dequeue ? walk_dequeue : (struct walk){ false, false, false, common, WALK_ANY, 0 };
	*set = (struct walk){ true, false, false, common, WALK_ANY, 0 };
}

/*
 * The clock of the pick after a newidle balance: when prev blocked and the
 * cfs_rq had nothing else, pick_next_task_fair() ran sched_balance_newidle()
 * (newidle_balance() before v6.10), whose attach_tasks() updated the rq
 * clock (update_rq_clock()) before the pulled task's set_next_entity()
 * (kernel/sched/fair.c, v5.7-v6.18): the put of prev is at the schedule's
 * clock, the set of the task pulled here at the attach's, which the
 * kernel's records of that enqueue give, else estimated at its migration
 * event.
 */
static void pulled_clock(struct cfsr_replay *r, struct replay_rq *rq, const struct cfsr_task *next,
			 bool sleep, uint64_t *now, bool *exact, uint64_t *at)
{
	uint64_t c;
	bool e;

	if (next && sleep && next->pid == rq->pulled_pid) {
		if (r->records) {
			if (rq->last_exact && rq->last_clock > *now) {
				*now = rq->last_clock;
				*exact = true;
				*at = rq->last_ts;
			}
		} else if (clock_ok(r, (int)(rq - r->rqs))) {
			c = clock_at(r, rq, rq->pulled_ts, &e);
			if (c > *now) {
				*now = c;
				*exact = false;
				*at = rq->pulled_ts;
			}
		}
	}
	rq->pulled_pid = 0;
}

/*
 * Whether the engine makes a v5.7+ model's update_blocked_averages()
 * passes itself: no kernel records say when the kernel made them
 * (cfsr_replay_expect_blocked()).
 */
static bool own_balance(const struct cfsr_replay *r)
{
	return !r->blocked_hints && r->profile->arith == CFSR_ARITH_RUNNABLE;
}

/*
 * Mirrors the blocked-load part of the newly-idle balance of a CPU about to
 * run its idle task (sched_balance_newidle(), kernel/sched/fair.c,
 * v6.10-v6.18; newidle_balance() v5.7-v6.9, called from
 * pick_next_task_fair() or balance_fair() once no fair task is left):
 * update_blocked_averages() of the CPU -- every cfs_rq on its leaf list
 * decayed, a group cfs_rq's change published into tg->load_avg
 * (update_tg_load_avg()), which the group entities' weights on the other
 * CPUs read (calc_group_shares()) -- and update_next_balance(), which sets
 * rq->next_balance to the domain's last balance plus its idle interval
 * (get_sd_balance_interval(sd, 0): at least a jiffy), so the CPU's next
 * tick raises the periodic balance (sched_balance_trigger()), whose
 * sched_balance_softirq() makes a pass again (settle_runtime()).
 * Differs: from v5.16 (9d783c8dd112) the kernel skips the newly-idle pass
 * when the root domain is not overloaded or the CPU's avg_idle is below
 * the domain's max_newidle_lb_cost (it still brings next_balance in); the
 * trace shows neither, and the engine makes the pass.  The periodic
 * balance's own rhythm on a busy CPU (balance_interval x busy_factor less
 * a jiffy, the interval doubling while balanced) and the nohz idle
 * balance are not modelled: their phase precedes the trace.
 */
static void newidle_balance(struct cfsr_replay *r, int cpu, uint64_t now, uint64_t ts, bool exact)
{
	blocked_pass(r, cpu, now, ts, exact);
	r->rqs[cpu].balance_due = true;
	r->stats.own_balances++;
}

/*
 * The kernel picked @e on @cfs (on the path to the task it switched to),
 * placed at its enqueue from a lag the engine only guessed: where the
 * engine's state has another eligible entity of @cfs with an earlier
 * deadline, the guess was too small; @e is moved left just enough to be
 * pick_eevdf()'s choice.
 */
static void infer_guessed_pick(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs,
			       const struct ent *self)
{
	uint64_t min_d = 0, shift;
	bool any = false;
	struct ent e;
	size_t i = 0;

	while (cfs_ent_next(r, cfs, &i, &e)) {
		if (ent_same(&e, self) || ent_delayed(NULL, &e) ||
		    !eligible(r, cfs, NULL, *e.vruntime))
			continue;
		if (!any || (int64_t)(*e.deadline - min_d) < 0)
			min_d = *e.deadline;
		any = true;
	}
	if (!any || (int64_t)(*self->deadline - min_d) <= 0)
		return;
	shift = *self->deadline - min_d + 1;
	avg_vruntime_account(cfs, *self->vruntime, ent_weight(self), -1);
	*self->vruntime -= shift;
	*self->deadline -= shift;
	avg_vruntime_account(cfs, *self->vruntime, ent_weight(self), 1);
	r->stats.lag_inferred++;
}

/*
 * A queued task the kernel may be about to run, under lag inference:
 * whether its place rests on a guessed lag, placed so and not run since,
 * the group entities on its path alike.
 */
static bool guess_candidate(const struct cfsr_replay *r, const struct cfsr_task *t)
{
	return t && r->infer_lags && r->profile->eevdf && t->fair && t->state == CFSR_TS_QUEUED;
}

static bool task_fresh_guess(const struct cfsr_task *t)
{
	return t->lag_guessed && t->wake_placed;
}

static bool gse_fresh_guess(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g)
{
	return g->se_on_rq && !g->se_delayed && g->se_wake_placed &&
	       cfsr_replay_gse_lag_guessed(r, g);
}

/* infer_guessed_pick() on each level of the path to @next that is a fresh guess. */
static void infer_guessed_path(struct cfsr_replay *r, struct cfsr_task *next)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, next), *g;
	struct ent e;

	if (!guess_candidate(r, next) || !cfs)
		return;
	if (task_fresh_guess(next)) {
		e = task_ent(next);
		infer_guessed_pick(r, cfs, &e);
	}
	for (g = cfs; g && g->group; g = parent_cfs(r, g)) {
		/* not in the sums: the entity that runs (it has not run since placed) */
		if (!gse_fresh_guess(r, g) || !g->se_in_sums)
			continue;
		e = gse_ent(g);
		infer_guessed_pick(r, parent_cfs(r, g), &e);
	}
}

bool cfsr_replay_lag_guessed_path(const struct cfsr_replay *r, int pid)
{
	struct cfsr_replay *w = (struct cfsr_replay *)r; /* task_cfs() and the walk do not write */
	const struct cfsr_task *t = cfsr_replay_task(w, pid);
	const struct cfsr_cfs_rq *g;

	if (!guess_candidate(r, t))
		return false;
	if (task_fresh_guess(t))
		return true;
	for (g = task_cfs(w, t); g && g->group; g = parent_cfs(w, g))
		if (gse_fresh_guess(r, g))
			return true;
	return false;
}

static int on_switch(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	struct cfsr_task *prev = NULL, *next = NULL;
	/* without a prev the model knows: set_next_task_fair() on every level */
	struct walk put, set = walk_tg;
	uint64_t now, at;
	bool exact, sleep = false, special;

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
	if (!skipped_clock(r, rq, &now, &exact, &at)) {
		now = schedule_clock(r, rq, ev->sw.prev_pid, ev->ts, &exact);
		at = clock_instant(rq, ev->ts, now);
	}
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
	if (prev && prev->nd_pending && prev->state != CFSR_TS_RUNNING) {
		/* dequeued already, before the newly-idle balance (newidle_dequeue()) */
		sleep = true;
		prev->nd_pending = false;
		task_set_prio(r, prev, ev->sw.prev_prio);
		memcpy(prev->comm, ev->sw.prev_comm, sizeof(prev->comm));
		if (prev->exiting) {
			remove_task(r, prev, ev->ts);
			prev->exiting = false;
			prev->dead = true;
		}
	} else if (prev) {
		prev->nd_pending = false;
		sleep = !ev->sw.preempt && ev->sw.prev_state;
		special = switch_special(prev, ev);
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
		switch_walks(r, prev, next, next && fair_prio(ev->sw.next_prio),
			     sleep && !will_delay(r, prev, special), ev->cpu, &put, &set);
		/* put_prev_entity() for a preempted task, dequeue_entity() for a sleeper */
		update_task(r, prev, now, ev->ts, sleep ? CFSR_UPD_DEQUEUE : CFSR_UPD_PUT_PREV,
			    exact, &put);
		if (sleep && r->profile->util_est_late)
			sample_util_est(r, prev);
		prev->tick_forced = false;
		if (sleep)
			block_task(r, prev, special);
		else
			set_state(r, prev, CFSR_TS_QUEUED);
	}
	if (!next || next->fair) {
		r->pick_prev = prev && prev->fair && prev->cpu == ev->cpu ? prev : NULL;
		pick_delayed(r, ev->cpu, next, now, ev->ts, exact);
		r->pick_prev = NULL;
	}
	if (ev->sw.next_pid == 0 && own_balance(r) && clock_ok(r, ev->cpu))
		newidle_balance(r, ev->cpu, now, ev->ts, exact);
	pulled_clock(r, rq, next, sleep, &now, &exact, &at);
	if (next) {
		task_set_prio(r, next, ev->sw.next_prio);
		memcpy(next->comm, ev->sw.next_comm, sizeof(next->comm));
		infer_guessed_path(r, next);
		set_next(r, next, ev->cpu, now, ev->ts, exact, &set);
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
	pelt_switch(r, ev->cpu, now, ev->sw.next_pid);
	rq->curr = ev->sw.next_pid;
	/*
	 * The chain continues from the switch's clock, which the rq had
	 * since its update at @at (__schedule()'s update_rq_clock() before
	 * the dequeue's run-time report, or a wakeup's): idle time is
	 * counted from there.
	 */
	if (clock_ok(r, ev->cpu))
		anchor(rq, at, now, exact, r->stamp, ev->sw.next_pid);
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
	/* the task it replaced is not known: set_next_task_fair() on every level */
	set_next(r, t, cpu, now > runtime ? now - runtime : 0, ts, exact, &walk_tg);
	pelt_switch(r, cpu, now > runtime ? now - runtime : 0, t->pid);
	rq->curr = t->pid;
	r->stats.recovered_switches++;
}

/*
 * Mirrors update_curr() (kernel/sched/fair.c, v6.6-v6.18) of a group
 * entity running on its cfs_rq (cfs_rq->curr): its vruntime advances by
 * calc_delta_fair() of the time since its own exec_start, at its weight,
 * and a deadline reached is renewed one virtual slice later
 * (update_deadline(); a group entity's slice is its cfs_rq's smallest,
 * the base slice here).  With its exec_start unknown, @delta_exec stands
 * for the time.  For a CFS profile, update_curr() of kernel/sched/fair.c,
 * v3.8-v6.5, at that level: the CFS vruntime advances by calc_delta_fair()
 * at the group entity's weight (its inv_weight computed from it,
 * __update_inv_weight()), then update_min_vruntime() of the parent.
 */
static void gse_update_curr(struct cfsr_replay *r, struct cfsr_cfs_rq *g, uint64_t now,
			    uint64_t delta_exec)
{
	struct ent e = gse_ent(g);

	if (g->se_exec_start)
		delta_exec = now > g->se_exec_start ? now - g->se_exec_start : 0;
	if (now > g->se_exec_start)
		g->se_exec_start = now;
	if (!delta_exec)
		return;
	if (!r->profile->eevdf) {
		g->se_vruntime += cfsr_cfs_calc_delta_fair(&r->cfs_tu, delta_exec, e.weight, 0);
		cfs_update_min(r, parent_cfs(r, g));
		return;
	}
	gse_sums_set(r, g, false);
	g->se_vruntime += calc_delta_fair(delta_exec, &e);
	if ((int64_t)(g->se_vruntime - g->se_deadline) >= 0) {
		g->se_slice = r->base_slice;
		g->se_deadline = g->se_vruntime + calc_delta_fair(g->se_slice, &e);
	}
	gse_sums_sync(r, g);
}

/*
 * Mirrors update_curr()'s EEVDF part (kernel/sched/fair.c, v6.6-v6.18) for
 * a run-time report at clock @now: the running task's vruntime advances by
 * calc_delta_fair(delta_exec), a deadline reached is renewed one virtual
 * slice later (update_deadline()); with @levels (the report comes from the
 * task's CPU: the tick, a dequeue, a put, a pick), the group entities above
 * it too, each from its own exec_start (gse_update_curr()); for a CFS
 * profile the same levels, as entity_tick(), dequeue_entity() and
 * put_prev_entity() call update_curr() on each (v3.8-v6.5).  A read of the
 * task's CPU time from another CPU (task_sched_runtime()) updates the
 * task's cfs_rq only.
 */
static void advance_vruntime(struct cfsr_replay *r, struct cfsr_task *t, uint64_t delta_exec,
			     uint64_t now, bool levels)
{
	struct ent e = task_ent(t);
	struct cfsr_cfs_rq *g;

	task_account(r, t, -1);
	t->vruntime += r->profile->eevdf ?
			       calc_delta_fair(delta_exec, &e) :
			       cfsr_cfs_calc_delta_fair(&r->cfs_tu, delta_exec, e.weight, e.inv);
	if ((int64_t)(t->vruntime - t->deadline) >= 0) {
		t->slice = r->base_slice;
		t->deadline = t->vruntime + calc_delta_fair(t->slice, &e);
	}
	task_account(r, t, 1);
	/* CFS: update_curr() ends with update_min_vruntime() */
	cfs_update_min(r, task_cfs(r, t));
	if (!levels)
		return;
	for (g = task_cfs(r, t); g && g->group; g = parent_cfs(r, g))
		if (g->se_on_rq)
			gse_update_curr(r, g, now, delta_exec);
}

/*
 * Mirrors the update_curr() calls of enqueue_task_fair() (kernel/sched/fair.c,
 * v6.6-v6.18) on a CPU where a task runs: enqueue_entity() updates the
 * woken task's cfs_rq and each cfs_rq on which a group entity is newly
 * enqueued; where that cfs_rq's running entity is a group entity (the
 * running task sits in another group), it advances with no trace event
 * (update_curr() reports run time only for a task).
 * Then check_preempt_wakeup_fair() (kernel/sched/fair.c, v6.12-v6.18;
 * check_preempt_wakeup() before) updates the level where the woken task's
 * path meets the running task's (find_matching_se()).  The CFS profiles
 * make the same calls (enqueue_entity() and check_preempt_wakeup(),
 * v3.8-v6.5).
 * Differs: the model does so also where the kernel returns first (the
 * running task already asked to reschedule, SCHED_BATCH or SCHED_IDLE
 * tasks); the time is then counted at the next update instead.
 */
static void enqueue_update_curr(struct cfsr_replay *r, const struct cfsr_task *t, uint64_t now)
{
	struct cfsr_cfs_rq *c;
	struct ent e;

	for (c = task_cfs(r, t); c; c = parent_cfs(r, c)) {
		if (cfs_curr_ent(r, c, &e) && e.g)
			gse_update_curr(r, e.g, now, 0);
		if (!c->group || c->se_on_rq)
			break;
	}
	for (c = task_cfs(r, t); c; c = parent_cfs(r, c))
		if (cfs_curr_ent(r, c, &e)) {
			if (e.g)
				gse_update_curr(r, e.g, now, 0);
			break;
		}
}

static int move_task_group_at(struct cfsr_replay *r, struct cfsr_task *t, int g, uint64_t ts,
			      uint64_t now, bool exact);

/* The group a dying task leaves its autogroup for: its cgroup's, the root's (index 0). */
static int exit_group(const struct cfsr_replay *r, const struct cfsr_task *t)
{
	return strncmp(r->groups[t->group], "/autogroup-", strlen("/autogroup-")) ? t->group : 0;
}

/*
 * Whether a dying task that stays in its group is moved too: with
 * CONFIG_SCHED_AUTOGROUP (recorded, or shown by an autogroup the engine
 * met), sched_move_task() dequeues, detaches, attaches and enqueues it
 * again even then (task_change_group_fair(): its signal re-attached to the
 * same cfs_rq), except in v6.4-v6.13, which return early when the group
 * does not change (eff6c8ce8d4d, reverted by 76f970ce51c8 in v6.14).
 */
static bool exit_same(const struct cfsr_replay *r)
{
	size_t i;

	if (!r->exit_same || r->sched_autogroup < 0)
		return false;
	if (r->sched_autogroup > 0)
		return true;
	for (i = 0; i < r->nr_groups; i++)
		if (!strncmp(r->groups[i], "/autogroup-", strlen("/autogroup-")))
			return true;
	return false;
}

/* How far ahead a dying task's last events are looked for (exit_move_report()). */
#define EXIT_AHEAD_NS 20000000ull
/* How far from its CPU's tick phase a report may be and still be taken as a tick's. */
#define TICK_PHASE_NS 60000ull
/* How late after the ticks' grid a tick's report may come (off_tick()): up to ~80 us seen */
#define TICK_LATE_NS 200000ull

/*
 * Event @ev of the dying task @t's CPU is the task's own: perf stamps the
 * events of a task whose pid exit_notify() released with pid -1.
 */
static bool exit_own(const struct cfsr_task *t, const struct cfsr_event *ev)
{
	return ev->pid == t->pid || ev->pid == -1;
}

/* Report @ts on @cpu falls at that CPU's tick phase (its last tick's, a whole number of ticks on). */
static bool at_tick_phase(const struct cfsr_replay *r, int cpu, uint64_t ts)
{
	uint64_t last = r->pending[cpu].last_tick_ts, d;

	if (!last || ts < last)
		return false;
	d = (ts - last) % r->tick_nsec;
	return d < TICK_PHASE_NS || r->tick_nsec - d < TICK_PHASE_NS;
}

/*
 * The ticks' grid: tick_sched_timer() fires on every CPU at the same
 * multiples of TICK_NSEC (tick_init_jiffy_update(), without skew_tick), its
 * report up to TICK_LATE_NS later.  Each report taken as a tick's moves the
 * grid's anchor (tick_seen()); the grid is confirmed while the last two
 * fell a whole number of periods apart.  A report off a confirmed grid is
 * not entity_tick()'s (off_tick()).
 */
static bool on_tick_grid(const struct cfsr_replay *r, uint64_t ts)
{
	uint64_t d =
		(ts > r->tick_anchor ? ts - r->tick_anchor : r->tick_anchor - ts) % r->tick_nsec;

	return d < TICK_LATE_NS || r->tick_nsec - d < TICK_LATE_NS;
}

static void tick_seen(struct cfsr_replay *r, uint64_t ts)
{
	r->tick_confirmed = r->tick_anchor && on_tick_grid(r, ts);
	r->tick_anchor = ts;
}

static bool off_tick(const struct cfsr_replay *r, uint64_t ts)
{
	return r->tick_confirmed && !on_tick_grid(r, ts);
}

/*
 * What the next event of dying task @t's CPU after look-ahead index @i
 * (-1: the current event) makes of the report there: a report followed by
 * a wakeup the task made is that wakeup's (check_preempt_wakeup_fair()'s
 * update_curr() comes between the waking and the wakeup events), by a
 * switch that switch's (its dequeue's or pick's; do_task_dead()'s before
 * the dead switch).  Return: 1 when neither, 0 otherwise.
 */
static int exit_report_free(const struct cfsr_replay *r, const struct cfsr_task *t, size_t i)
{
	const struct cfsr_event *next;

	while (r->peek(r->peek_ctx, i + 1, &next) > 0) {
		i++;
		if (next->cpu != t->cpu)
			continue;
		if (next->kind == CFSR_EV_SWITCH || next->kind == CFSR_EV_LOST)
			return 0;
		return !(next->kind == CFSR_EV_WAKEUP && exit_own(t, next));
	}
	return 0;
}

/*
 * Whether run-time report @ev of the dying task @t is the one of
 * sched_autogroup_exit_task() (kernel/sched/autogroup.c, present in every
 * release of the v5.7-v6.18 profiles): do_exit(), after exit_mm() and the
 * rest of the teardown (sched_process_exit comes before them: the task may
 * still be ticked, preempted or blocked), moves the task to its cgroup's
 * own task group (task_wants_autogroup() is false for PF_EXITING: an
 * autogroup's task goes to the root's; see exit_same() for one in a
 * cgroup), and sched_move_task()'s dequeue reports its run time
 * (update_curr()).  Then exit_notify() may wake its parent or others, and
 * do_task_dead() dequeues it and switches it out for good.  So, found with
 * the look ahead (within EXIT_AHEAD_NS): the move's report is not a
 * wakeup's nor a switch's (exit_report_free()), the task's next switch is
 * its dead one with only its own events on its CPU between, and a report
 * at the CPU's tick phase is a tick's when a later report of that kind
 * off the phase follows.  No look ahead, a lost-events notice or another
 * task's event on the CPU says it is not.
 */
static bool exit_move_report(const struct cfsr_replay *r, const struct cfsr_task *t,
			     const struct cfsr_event *ev)
{
	const struct cfsr_event *next;
	bool later = false;
	size_t i;

	if (!r->peek || r->profile->arith != CFSR_ARITH_RUNNABLE || !t->exiting || t->exit_moved ||
	    !t->fair || t->group < 0 || !exit_own(t, ev) || ev->cpu != t->cpu ||
	    (exit_group(r, t) == t->group && !exit_same(r)) || !exit_report_free(r, t, (size_t)-1))
		return false;
	for (i = 0;; i++) {
		if (r->peek(r->peek_ctx, i, &next) <= 0 || next->ts > ev->ts + EXIT_AHEAD_NS)
			return false;
		if (next->cpu != ev->cpu)
			continue;
		if (next->kind == CFSR_EV_LOST || !exit_own(t, next))
			return false;
		if (next->kind == CFSR_EV_SWITCH)
			break;
		if (next->kind == CFSR_EV_STAT_RUNTIME && next->runtime.pid == t->pid &&
		    !at_tick_phase(r, t->cpu, next->ts) && exit_report_free(r, t, i))
			later = true;
	}
	if (next->sw.prev_pid != t->pid || !(next->sw.prev_state & CFSR_TASK_DEAD_BITS))
		return false;
	return !later || !at_tick_phase(r, t->cpu, ev->ts);
}

/*
 * A run-time report of @t, which the model does not have running, made in
 * the context of the task the model has running on @ev's CPU: update_curr()
 * of another CPU's rq, whose curr @t is -- try_to_wake_up()'s enqueue and
 * wakeup_preempt() on the wakee's CPU under that rq's lock, the migration
 * stopper's move_queued_task() onto its destination, a load balance's
 * detach from the busiest rq, task_sched_runtime() (kernel/sched/core.c,
 * fair.c, v5.7-v6.18) --: the switch into @t there is not in the trace.
 * The CPU: the one an enqueue in progress from @ev's CPU targets (a
 * wakeup's, after its sched_waking and the migration that set its CPU; a
 * move's, after its sched_migrate_task), else @t's last CPU, else the other
 * one of two.
 * Return: the CPU; -1 if the report is not such a one, -2 if the CPU is
 * not known.
 */
static int remote_report_cpu(const struct cfsr_replay *r, const struct cfsr_task *t,
			     const struct cfsr_event *ev)
{
	const struct pending_runtime *p;
	int cpu;

	if (t->state == CFSR_TS_RUNNING || ev->pid == t->pid || ev->cpu < 0 ||
	    ev->cpu >= r->nr_cpus || r->rqs[ev->cpu].curr != ev->pid)
		return -1;
	p = &r->pending[ev->cpu];
	cpu = p->enq_cpu1 - 1;
	if (cpu >= 0 && cpu < r->nr_cpus && cpu != ev->cpu)
		return cpu;
	if (t->cpu >= 0 && t->cpu < r->nr_cpus && t->cpu != ev->cpu)
		return t->cpu;
	return r->nr_cpus == 2 ? 1 - ev->cpu : -2;
}

/*
 * The enqueue in progress from @ev's CPU, for remote_report_cpu(): a
 * wakeup's (sched_waking gives the task's CPU, a migration then the one
 * select_task_rq() chose) or a move's to another CPU (a migration away:
 * the stopper's, or a wakeup's); a pull (a migration to @ev's CPU)
 * enqueues here.
 */
static void note_enqueue_cpu(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct pending_runtime *p;

	if (ev->cpu < 0 || ev->cpu >= r->nr_cpus)
		return;
	p = &r->pending[ev->cpu];
	if (ev->kind == CFSR_EV_WAKING) {
		p->enq_cpu1 = ev->wake.target_cpu + 1;
		p->enq_pid = ev->wake.pid;
	} else if (ev->kind == CFSR_EV_MIGRATE &&
		   (ev->migrate.dest_cpu != ev->cpu ||
		    (p->enq_cpu1 && ev->migrate.pid == p->enq_pid))) {
		p->enq_cpu1 = ev->migrate.dest_cpu + 1;
		p->enq_pid = ev->migrate.pid;
	} else if (ev->kind != CFSR_EV_STAT_RUNTIME) {
		p->enq_cpu1 = 0;
	}
}

static int on_runtime(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t = task_get(r, ev->runtime.pid);
	struct replay_rq *rq;
	uint64_t now;
	bool exact;
	int remote;

	if (!t)
		return -1;
	remote = remote_report_cpu(r, t, ev);
	if (remote == -2) {
		/* another CPU's curr, that CPU not known: nothing to place */
		r->stats.remote_reports_unplaced++;
		return 0;
	}
	if (remote >= 0)
		r->stats.remote_reports++;
	rq = rq_of(r, remote >= 0				 ? remote :
		      t->cpu >= 0 && t->state == CFSR_TS_RUNNING ? t->cpu :
								   ev->cpu);
	if (!rq)
		return 0;
	if (!t->fair) {
		/*
		 * update_curr_rt()/update_curr_dl() report run time the same
		 * way: the rq clock chain continues through RT and DL tasks.
		 */
		if (t->exec_known && t->state == CFSR_TS_RUNNING && rq->curr == t->pid) {
			t->exec_start += ev->runtime.runtime;
			r->stamp |= t->exec_stamp;
			anchor(rq, ev->ts, t->exec_start, true, r->stamp, t->pid);
		}
		return 0;
	}
	if (t->nd_pending && rq->curr == t->pid && t->state != CFSR_TS_RUNNING) {
		/* the pick's update_curr() of a curr off its queue (newidle_dequeue()) */
		if (t->exec_known)
			now = t->exec_start + ev->runtime.runtime;
		else
			now = clock_at(r, rq, ev->ts, &exact);
		advance_vruntime(r, t, ev->runtime.runtime, now, true);
		t->exec_start = now;
		r->stamp |= t->exec_stamp;
		anchor(rq, ev->ts, now, true, r->stamp, t->pid);
		return 0;
	}
	if (t->exec_known && t->state == CFSR_TS_RUNNING && rq->curr == t->pid &&
	    reading_kept(rq, ev->ts)) {
		/*
		 * update_curr() at the clock the rq kept since the reading: the
		 * chain's base was off (an estimated switch clock); it moves.
		 */
		now = rq->read_clock;
		exact = true;
		r->stats.chain_corrections += now != t->exec_start + ev->runtime.runtime;
	} else if (t->exec_known && t->state == CFSR_TS_RUNNING) {
		now = t->exec_start + ev->runtime.runtime;
		exact = true;
		r->stamp |= t->exec_stamp;
	} else if (rq->curr == t->pid || ev->pid != t->pid || reading_holds(rq, ev->ts) ||
		   !rq->missed_skip) {
		now = clock_at(r, rq, ev->ts, &exact);
	} else {
		/* a switch after a wakeup the trace does not show, at the clock it kept */
		now = rq->missed_clock + ev->runtime.runtime;
		exact = true;
		r->stamp |= rq->missed_stamp;
		rq->missed_skip = false;
	}
	if (rq->ahead_pid == t->pid)
		rq->ahead_pid = 0;
	if (rq->curr != t->pid && (ev->pid == t->pid || remote >= 0))
		recover_switch(r, rq, t, (int)(rq - r->rqs), now, ev->runtime.runtime, ev->ts,
			       exact);
	else if (t->recovered_ahead && rq->curr == t->pid && ev->pid == t->pid && exact)
		recovered_report(r, t, now, ev->runtime.runtime);
	set_cpu(r, t, (int)(rq - r->rqs), ev->ts);
	if (t->state != CFSR_TS_RUNNING) {
		if (t->state == CFSR_TS_DELAYED || !state_on_rq(t->state))
			root_util_est(r, t, 1);
		set_state(r, t, CFSR_TS_RUNNING);
	}
	t->report_vruntime = t->vruntime;
	t->report_ts = ev->ts;
	advance_vruntime(r, t, ev->runtime.runtime, now,
			 ev->cpu >= 0 && ev->cpu < r->nr_cpus && ev->cpu == t->cpu);
	/*
	 * A report emitted on another CPU comes from a read of the task's
	 * CPU time (task_sched_runtime(): update_curr() only, no PELT update).
	 */
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus && ev->cpu == t->cpu) {
		struct pending_runtime *p = &r->pending[ev->cpu];

		/*
		 * the next tick's report comes a tick later, a pick's at once
		 * after the tick's, not after a read of the run time
		 */
		p->pick = p->last_runtime_pid == t->pid &&
			  ev->ts - p->last_runtime_ts < r->tick_nsec / 2 &&
			  p->last_tick_ts == p->last_runtime_ts;
		p->set = true;
		p->pid = t->pid;
		p->updates = t->updates;
		p->now = now;
		p->ts = ev->ts;
		if (ev->ts < r->settle_from)
			r->settle_from = ev->ts;
		p->exact = exact;
		p->stamp = r->stamp || !exact;
		p->unanchored = !clock_ok(r, ev->cpu);
		p->exec_from = now - ev->runtime.runtime;
		p->exit_group = 0;
	}
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus) {
		r->pending[ev->cpu].last_runtime_pid = t->pid;
		r->pending[ev->cpu].last_runtime_ts = ev->ts;
	}
	t->exec_start = now;
	t->exec_stamp = r->stamp || !exact;
	t->exec_known = t->exec_known || exact;
	if (clock_ok(r, (int)(rq - r->rqs)) || exact)
		anchor(rq, ev->ts, now, exact, r->stamp, t->pid);
	if (exit_move_report(r, t, ev)) {
		/*
		 * The report is the move's dequeue, not a tick's nor a read's;
		 * the move is made when the report settles, after the kernel's
		 * records of the dequeue's updates (settle_runtime()).
		 */
		r->pending[ev->cpu].exit_group = 1;
		t->exit_moved = true;
	}
	return 0;
}

/*
 * The time a new task starts as if runnable under the legacy model
 * (init_task_runnable_average(), kernel/sched/fair.c): its sched_slice()
 * on the cfs_rq it joins in v3.13-v4.0 -- __sched_period(nr_running + 1)
 * (sysctl_sched_latency, 6 ms, or nr * sysctl_sched_min_granularity,
 * 0.75 ms, beyond sched_nr_latency = 8 tasks, both times the scaling
 * factor) times its weight over the cfs_rq's with it --, and
 * sysctl_sched_latency in v4.1-v4.2.  0 for the other models, which do
 * not use it.
 */
static uint64_t new_task_slice(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			       const struct cfsr_task *t)
{
	uint64_t latency = 6000000ull * r->factor, min_gran = 750000ull * r->factor;
	uint64_t nr = cfs->nr_queued + 1, period, w = cfsr_scale_load_down(t->load_weight);

	if (r->profile->arith != CFSR_ARITH_LEGACY)
		return 0;
	if (r->profile->legacy->track_running)
		return latency;
	period = nr > 8 ? nr * min_gran : latency;
	return period * w / (cfsr_scale_load_down(cfs->load_weight) + w);
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
	recover_due(r, rq_of(r, cpu));
	task_set_prio(r, t, ev->wake.prio);
	memcpy(t->comm, ev->wake.comm, sizeof(t->comm));
	if (!new_task && t->state == CFSR_TS_DELAYED) {
		/* ttwu_runnable(): requeued where it is, never migrated */
		rq = rq_of(r, t->cpu);
		if (rq && t->fair) {
			now = wakeup_clock(r, rq, ev->ts, &exact);
			request_skip(r, rq, t, now, exact, ev->ts);
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
	request_skip(r, rq, t, now, exact, ev->ts);
	rq->woken_ts = ev->ts;
	set_cpu(r, t, cpu, ev->ts);
	cfs = task_cfs(r, t);
	if (!t->fair || !cfs) {
		set_state(r, t, CFSR_TS_QUEUED);
		return 0;
	}
	if (clock_ok(r, cpu))
		enqueue_update_curr(r, t, now);
	if (new_task) {
		/*
		 * Mirrors init_entity_runnable_average(),
		 * post_init_entity_util_avg() against the task's own cfs_rq
		 * as it stands (not aged), and the attach of wake_up_new_task().
		 * A kernel record of the cfs_rq within this path came from the
		 * enqueue's update, after post_init: its signal before that.
		 */
		r->ops->init_task(r->profile, &t->avg, t->load_weight,
				  cfs->avg_read_ts && cfs->avg_read_ts <= ev->ts &&
						  ev->ts - cfs->avg_read_ts <= CFSR_REPLAY_PATH_NS ?
					  &cfs->avg_before_read :
					  &cfs->avg,
				  new_task_slice(r, cfs, t), cfsr_replay_capacity(r, t->cpu));
		t->avg_known = true;
		attach_task(r, t, now, ev->ts, exact);
		t->vlag = 0;
		t->lag_seen = true;
		task_place(r, cfs, t, true);
		set_state(r, t, CFSR_TS_QUEUED);
		root_util_est(r, t, 1);
		return 0;
	}
	root_util_est(r, t, 1);
	if (t->migrated) {
		attach_task(r, t, now, ev->ts, exact);
		task_place(r, cfs, t, false);
		set_state(r, t, CFSR_TS_QUEUED);
		return 0;
	}
	/* enqueue_entity(): age the sleep (inputs 0), then queue; see cfsr_replay_task_settle() */
	t->enq_ts = ev->ts;
	rq->woken++;
	t->enq_pending = true;
	t->enq_clock = now;
	cfs_update_task(r, t, now, ev->ts, exact, &walk_enqueue);
	if (t->state != CFSR_TS_LEFT)
		task_place(r, cfs, t, false);
	set_state(r, t, CFSR_TS_QUEUED);
	return 0;
}

/*
 * With the look ahead, the first event of @cpu after the current one up to
 * trace time @until (with @skip_reports, run-time reports aside).
 * Return: NULL if none, or no look ahead.
 */
static const struct cfsr_event *next_of_cpu(struct cfsr_replay *r, int cpu, uint64_t until,
					    bool skip_reports)
{
	const struct cfsr_event *next;
	size_t i;

	for (i = 0; r->peek; i++) {
		if (r->peek(r->peek_ctx, i, &next) <= 0 || next->ts > until)
			return NULL;
		if (next->cpu == cpu && !(skip_reports && next->kind == CFSR_EV_STAT_RUNTIME))
			return next;
	}
	return NULL;
}

/*
 * Whether the next event of @ev's CPU after @ev (its run-time reports
 * aside: detach_task()'s update_curr() of the busiest rq's task) is
 * another migration of the same load balance: from the same CPU to the
 * same, within a path's length.  detach_tasks() detaches every task
 * before attach_tasks() attaches them (kernel/sched/fair.c,
 * v3.18-v6.18).  Without a look ahead, no.
 */
static bool pull_continues(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_event *next = next_of_cpu(r, ev->cpu, ev->ts + CFSR_REPLAY_PATH_NS, true);

	return next && next->kind == CFSR_EV_MIGRATE &&
	       next->migrate.orig_cpu == ev->migrate.orig_cpu &&
	       next->migrate.dest_cpu == ev->migrate.dest_cpu;
}

/*
 * The destination's half of a load balance's move of a queued task @t
 * (attach_task(), kernel/sched/fair.c, v5.7-v6.18), at migration @ev, the
 * last of its balance: attach_tasks() takes the tasks detach_tasks()
 * detached last first (list_add() at the head, list_first_entry()), each
 * placed against those attached before it.
 */
static void lb_enqueue(struct cfsr_replay *r, struct cfsr_task *t, const struct cfsr_event *ev)
{
	struct replay_rq *dst = rq_of(r, ev->migrate.dest_cpu);
	uint64_t now;
	bool exact;

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
	if (r->profile->eevdf)
		task_place(r, task_cfs(r, t), t, false);
	else
		cfs_attach(r, t);
	task_account(r, t, 1);
	/*
	 * enqueue_task_fair() on the destination: se_update_runnable()
	 * and update_cfs_group() at each level, after the level's
	 * update_load_avg(), whose DO_ATTACH below published the
	 * task's load into tg->load_avg (v5.7-v6.18).  The walk is
	 * made here where the attach was; in lock-step where an empty
	 * group keeps its weight (v6.13+, 6.12.11+: nothing is due before)
	 * by the attach itself, at the records' clock (attach_task()).
	 */
	group_levels(r, t->group, t->cpu,
		     r->gparams->keep_empty_weight && r->records ? LEVELS_RUNNABLE : LEVELS_WALK);
	if (t->state == CFSR_TS_QUEUED)
		root_util_est(r, t, 1);
	/*
	 * move_queued_task() (kernel/sched/core.c) and attach_task()
	 * (kernel/sched/fair.c), v5.7-v6.18, call wakeup_preempt()
	 * (check_preempt_curr() before v6.7) after the enqueue: an
	 * idle destination, or one whose task the mover preempts,
	 * switches at the enqueue's clock (request_skip()).
	 */
	if (clock_ok(r, ev->migrate.dest_cpu)) {
		now = clock_at(r, dst, ev->ts, &exact);
		request_skip(r, dst, t, now, exact, ev->ts);
	}
	if (ev->cpu == ev->migrate.dest_cpu) {
		dst->pulled_pid = t->pid;
		dst->pulled_ts = ev->ts;
	}
	t->moved_queued = true;
}

/*
 * The enqueues of the tasks a load balance detached before the last, in
 * the reverse order of their detach (lb_enqueue()), at its last migration.
 */
static void flush_pulled(struct cfsr_replay *r)
{
	struct cfsr_task *t;

	r->stats.pulls_reordered += r->nr_pulled > 0;
	while (r->nr_pulled) {
		t = cfsr_replay_task(r, r->pulled[--r->nr_pulled]);
		if (t && t->cpu == r->pull_ev.migrate.dest_cpu &&
		    (t->state == CFSR_TS_QUEUED || t->state == CFSR_TS_DELAYED))
			lb_enqueue(r, t, &r->pull_ev);
	}
}

static bool event_on(const struct cfsr_event *ev, int cpu);

/*
 * An event that ends a load balance's detaches before its next migration:
 * one of the balancing CPU other than its run-time reports and the
 * balance's migrations, or one of another CPU acting on the destination.
 */
static bool pull_ends(const struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_event *p = &r->pull_ev;

	if (ev->cpu != p->cpu)
		return event_on(ev, p->migrate.dest_cpu);
	return ev->kind != CFSR_EV_STAT_RUNTIME &&
	       !(ev->kind == CFSR_EV_MIGRATE && ev->migrate.orig_cpu == p->migrate.orig_cpu &&
		 ev->migrate.dest_cpu == p->migrate.dest_cpu);
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
	recover_due(r, src);
	recover_due(r, dst);
	if (!src || !dst || !t->fair) {
		move_cpu(r, t, ev->migrate.dest_cpu);
		return 0;
	}
	now = clock_at(r, src, ev->ts, &exact);
	cfsr_replay_task_settle(r, t, now);
	if (t->requeue_at_attach) {
		/* moved on before its attach (cfsr_replay_cfs_rq_take_queued()): queued all along */
		t->requeue_at_attach = false;
		if (t->state == CFSR_TS_SLEEPING)
			set_state(r, t, CFSR_TS_QUEUED);
	}
	if (t->state == CFSR_TS_SLEEPING && t->sleep_guessed && t->waking_ts <= t->guess_ts &&
	    t->cpu == ev->migrate.orig_cpu && task_cfs(r, t)) {
		/*
		 * Only a wakeup (after the task's sched_waking) moves a
		 * sleeping task (set_task_cpu() in try_to_wake_up()); a load
		 * balance (detach_task()) or the migration stopper moves
		 * queued ones: the sleep taken from a cfs_rq record's weight
		 * was another entity's.  Queued again, where it stood.
		 */
		task_place(r, task_cfs(r, t), t, false);
		root_util_est(r, t, 1);
		set_state(r, t, CFSR_TS_QUEUED);
		r->stats.lost_sleeps_undone++;
	}
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

		/* v6.1+: update_load_avg(UPDATE_TG | DO_DETACH), its walk after the detach */
		update_task(r, t, now, ev->ts, CFSR_UPD_DETACH, exact,
			    r->profile->detach_in_dequeue ? &walk_task : &walk_full);
		cfs->prop_runnable_sum +=
			r->ops->detach(r->profile, &cfs->avg, &t->avg, t->load_weight);
		cfs->propagate = true;
		tg_publish(r, cfs, ev->ts, false);
		task_lag(r, cfs, t);
		t->deadline -= t->vruntime;
		t->rel_deadline = true;
		if (t->state == CFSR_TS_QUEUED)
			root_util_est(r, t, -1);
		task_account(r, t, -1);
		cfs_leave(r, t, cfs);
		reweight_groups(r, t->group, t->cpu);
		if (clock_ok(r, t->cpu))
			group_walk(r, cfs, now, ev->ts, exact,
				   r->profile->detach_in_dequeue ? &walk_full : &walk_tg);
		t->cpu = ev->migrate.dest_cpu;
		if (pull_continues(r, ev)) {
			/* attach_tasks() attaches after the last detach, the last first */
			if (CFSR_ALLOC_GROW(r->pulled, r->nr_pulled + 1, r->pulled_alloc) < 0)
				return cfsr_error("replay: out of memory");
			r->pulled[r->nr_pulled++] = t->pid;
			r->pull_ev = *ev;
			return 0;
		}
		lb_enqueue(r, t, ev);
		r->pull_ev = *ev;
		flush_pulled(r);
		return 0;
	}
	flush_pulled(r);
	/*
	 * Wakeup migration, migrate_task_rq_fair(): remove_entity_load_avg()
	 * on the source (v5.7-v6.18), then, from v6.0 (e2f3e35f1f5a),
	 * migrate_se_pelt_lag(), which ages the entity further to the
	 * source's idle clock if the source CPU is idle.  Before v6.0 the
	 * task leaves with its signal as of its cfs_rq's last update.
	 */
	remove_task(r, t, ev->ts);
	if (r->profile->migrate_pelt_lag && src->curr == 0 && t->avg.last_update_time)
		r->ops->update_blocked_se(r->profile,
					  pelt_now(r, t->cpu, now, t->avg.last_update_time),
					  pelt_scale(r, t->cpu), &t->avg, t->load_weight);
	cfs_leave(r, t, task_cfs(r, t));
	move_cpu(r, t, ev->migrate.dest_cpu);
	t->migrated = true;
	return 0;
}

/*
 * Mirrors sched_autogroup_fork() (kernel/sched/autogroup.c, v2.6.38-v6.18):
 * a new task takes its parent's autogroup, and only setsid() moves a task
 * to another (a new one, of its own).  A child whose autogroup is given
 * (the kernel's structure, from a snapshot or a record) shows its
 * parent's, where the parent's own is not given: the parent (a session
 * leader that called setsid() before the trace showed it) is moved there
 * as sched_move_task() would, before the child's post_init_entity_util_avg()
 * reads that group's cfs_rq.  Differs: a child that called setsid() itself
 * between the fork and its first row would move its parent wrongly.
 */
static int fork_parent_group(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *parent = cfsr_replay_task(r, ev->fork.parent_pid);
	const struct cfsr_task *child = cfsr_replay_task(r, ev->fork.child_pid);
	const char *path;

	if (!parent || !child || parent->group_given || !child->group_given ||
	    parent->group == child->group || child->group < 0)
		return 0;
	path = r->groups[child->group];
	if (strncmp(path, "/autogroup-", strlen("/autogroup-")))
		return 0;
	return cfsr_replay_task_move_group(r, ev->fork.parent_pid, path, ev->ts);
}

/*
 * Mirrors sched_cgroup_fork() and sched_post_fork() (kernel/sched/core.c,
 * v5.16-v6.18; cpu_cgroup_fork() before): a new task starts in its
 * parent's task group (the parent's cpu cgroup, or in the root cgroup its
 * autogroup), and post_init_entity_util_avg() (cfs_fork(), the wakeup
 * after) reads that group's cfs_rq on its CPU.  With cgroup_attach_task
 * followed (cfsr_replay_follow_attaches()), a child whose given group (its
 * first snapshot row or record, cfsr_replay_task_set_group()) is a cgroup
 * starts in the parent's group instead, and reaches the given one at its
 * attach.  The parent's group is known when it was given, or followed
 * from a fork or an attach the trace shows; else, where the caller gave
 * the child's autogroup (cfsr_replay_task_set_fork_group(): the rows' of a
 * child that is not its session's leader, which sched_autogroup_fork()
 * took from the parent), the child starts there, the parent being taken
 * as in the root cgroup (counted: @fork_autogroup); else the given group
 * stands (counted: @fork_group_unknown).  A given autogroup stands (the
 * child's setsid() shows no event).
 */
static int fork_cgroup(struct cfsr_replay *r, struct cfsr_task *child, int parent_pid, uint64_t ts)
{
	const struct cfsr_task *parent = cfsr_replay_task(r, parent_pid);
	int g;

	if (!r->follow_attaches)
		return 0;
	if (!child->group_given) {
		child->group_traced = parent && (parent->group_given || parent->group_traced);
		return 0;
	}
	if (!strncmp(r->groups[child->group], "/autogroup-", strlen("/autogroup-")))
		return 0;
	if (parent && (parent->group_given || parent->group_traced)) {
		g = parent->group;
		r->stats.fork_parent_group++;
	} else if (child->fork_group > 0) {
		g = child->fork_group - 1;
		r->stats.fork_autogroup++;
		/* the parent is there too, moved at its setsid() (fork_parent_group()) */
		if (parent && parent->group != g &&
		    cfsr_replay_task_move_group(r, parent_pid, r->groups[g], ts) < 0)
			return -1;
	} else {
		r->stats.fork_group_unknown++;
		return 0;
	}
	child->group_traced = true;
	if (g == child->group)
		return 0;
	task_account(r, child, -1);
	child->group = g;
	task_account(r, child, 1);
	return 0;
}

static int on_fork(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *parent;
	int prio, group;
	struct cfsr_task *child;
	bool idle;

	if (fork_parent_group(r, ev) < 0)
		return -1;
	parent = cfsr_replay_task(r, ev->fork.parent_pid);
	prio = parent ? parent->prio : 120;
	group = parent ? parent->group : 0;
	/* sched_fork() keeps the parent's policy (reset_on_fork is not in the trace) */
	idle = parent && parent->idle_policy;

	/* task_reset() can move the table: parent is not used past here */
	child = task_reset(r, ev->fork.child_pid);
	if (!child)
		return -1;
	/* not queued yet: no cfs_rq holds its weight */
	child->idle_policy = idle;
	child->load_weight = task_weight_at(child, child->prio);
	task_set_prio(r, child, prio);
	/* a group the caller gave (the kernel's structure) stands */
	if (!child->group_given) {
		task_account(r, child, -1);
		child->group = group;
		task_account(r, child, 1);
	}
	memcpy(child->comm, ev->fork.child_comm, sizeof(child->comm));
	if (fork_cgroup(r, child, ev->fork.parent_pid, ev->ts) < 0)
		return -1;
	cfs_fork(r, child, ev->cpu);
	return 0;
}

/* The task @pid and the index of group @path in *@g, both created if new; NULL if out of memory. */
static struct cfsr_task *task_and_group(struct cfsr_replay *r, int pid, const char *path, int *g)
{
	struct cfsr_task *t;

	*g = group_get(r, path);
	t = *g < 0 ? NULL : task_get(r, pid);
	if (!t)
		cfsr_error("replay: out of memory");
	return t;
}

int cfsr_replay_task_set_group(struct cfsr_replay *r, int pid, const char *path)
{
	int g;
	struct cfsr_task *t = task_and_group(r, pid, path, &g);

	if (!t)
		return -1;
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

/*
 * Mirrors set_next_task_fair() after sched_move_task()'s enqueue
 * (kernel/sched/fair.c, v6.12-v6.18) of a task that was running: its
 * entity and the group entities above it, placed by enqueue_entity() while
 * the cfs_rqs had no running entity (put_prev_task() came first), leave
 * the EEVDF sums and become each level's curr (set_next_entity()), their
 * exec_start at the move's clock.
 */
static void move_set_next(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now)
{
	struct cfsr_cfs_rq *g;

	task_account(r, t, -1);
	t->state = CFSR_TS_RUNNING;
	task_account(r, t, 1);
	for (g = task_cfs(r, t); g && g->group; g = parent_cfs(r, g))
		g->se_exec_start = now;
}

/*
 * The accounting part of dequeue_task(DEQUEUE_SAVE) (sched_move_task(),
 * set_user_nice(); kernel/sched/fair.c, v6.12-v6.18), after the task's
 * update: a queued task's lag saved and its deadline made relative
 * (dequeue_entity(), PLACE_REL_DEADLINE), then account_entity_dequeue(),
 * update_min_vruntime() with DEQUEUE_MOVE (@move: dequeue_entity() skips
 * it for DEQUEUE_SAVE alone) and the group entities above dequeued or
 * reweighted.
 */
static void save_task(struct cfsr_replay *r, struct cfsr_task *t, struct cfsr_cfs_rq *cfs,
		      bool queued, bool move)
{
	if (queued) {
		task_lag(r, cfs, t);
		t->deadline -= t->vruntime;
		t->rel_deadline = true;
	}
	task_account(r, t, -1);
	if (move)
		cfs_update_min(r, cfs);
	reweight_groups(r, t->group, t->cpu);
}

/*
 * enqueue_task(ENQUEUE_RESTORE) of a task dequeued with DEQUEUE_SAVE and
 * placed already (sched_move_task(), set_user_nice(); kernel/sched/core.c,
 * v6.12-v6.18): accounted again, the group entities above enqueued and
 * reweighted; a running task was put (put_prev_task()): enqueued as a
 * waiting entity, then set running (move_set_next()).
 */
static void restore_task(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now)
{
	bool running = t->state == CFSR_TS_RUNNING;

	if (running)
		t->state = CFSR_TS_QUEUED;
	task_account(r, t, 1);
	reweight_groups(r, t->group, t->cpu);
	if (running)
		move_set_next(r, t, now);
}

/*
 * Mirrors sched_move_task() (kernel/sched/core.c) with
 * task_change_group_fair() (kernel/sched/fair.c), v6.12-v6.18; the PELT
 * steps are those of every implemented profile (v5.7 on).  A queued,
 * delayed or running task is dequeued with DEQUEUE_SAVE | DEQUEUE_MOVE:
 * never delayed by it (a delayed task stays delayed), its lag and a
 * relative deadline saved.  detach_task_cfs_rq() ages the entity at the rq
 * clock with its inputs (update_load_avg(cfs_rq, se, 0)), takes it out of
 * its cfs_rq (detach_entity_load_avg(), update_tg_load_avg()) and walks
 * up (propagate_entity_cfs_rq()); attach_task_cfs_rq() adds it to the new
 * group's cfs_rq on the same CPU, last_update_time being 0 (no ageing),
 * and walks up; ENQUEUE_RESTORE places it with its lag, and a running
 * task is set running again.  A sleeping task moves its blocked
 * contribution the same way.  A task whose signal or CPU clock is not
 * known yet only changes group (cfsr_replay_task_set_group()).
 * Differs: the update_curr() of the dequeue (a running task's vruntime
 * since its last run-time report) is not made.
 */
static int move_task_group_at(struct cfsr_replay *r, struct cfsr_task *t, int g, uint64_t ts,
			      uint64_t now, bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	bool queued;

	if (!t->fair || !cfs || t->state == CFSR_TS_UNKNOWN || t->migrated ||
	    !t->avg.last_update_time)
		return cfsr_replay_task_set_group(r, t->pid, r->groups[g]);
	cfsr_replay_task_settle(r, t, now);
	queued = state_on_rq(t->state);
	/*
	 * dequeue_task(): update_load_avg(UPDATE_TG) of each level, each
	 * group entity's update_cfs_group() after the accounting below, the
	 * task's load still in its group (save_task()); a sleeping task's
	 * only update is detach_entity_cfs_rq()'s, at its level, without
	 * UPDATE_TG.  The detach comes after, and propagate_entity_cfs_rq()
	 * walks up without update_cfs_group().
	 */
	update_task(r, t, now, ts, CFSR_UPD_DETACH, exact, queued ? &walk_tg : &walk_task);
	save_task(r, t, cfs, queued, true);
	cfs->prop_runnable_sum += r->ops->detach(r->profile, &cfs->avg, &t->avg, t->load_weight);
	cfs->propagate = true;
	tg_publish(r, cfs, ts, false);
	group_walk(r, cfs, now, ts, exact, &walk_tg);
	t->group = g;
	t->group_given = true;
	attach_task(r, t, now, ts, exact);
	if (!r->profile->eevdf)
		cfs_move_group(r, t, cfs, task_cfs(r, t), queued);
	else if (queued)
		task_place(r, task_cfs(r, t), t, false);
	restore_task(r, t, now);
	return 1;
}

static int move_task_group(struct cfsr_replay *r, struct cfsr_task *t, int g, uint64_t ts)
{
	struct replay_rq *rq = t->cpu >= 0 ? rq_of(r, t->cpu) : NULL;
	uint64_t now;
	bool exact;

	if (t->group == g) {
		t->group_given = true;
		return 0;
	}
	if (!rq || !clock_ok(r, t->cpu))
		return cfsr_replay_task_set_group(r, t->pid, r->groups[g]);
	now = clock_at(r, rq, ts, &exact);
	return move_task_group_at(r, t, g, ts, now, exact);
}

int cfsr_replay_task_move_group(struct cfsr_replay *r, int pid, const char *path, uint64_t ts)
{
	int g;
	struct cfsr_task *t = task_and_group(r, pid, path, &g);

	return t ? move_task_group(r, t, g, ts) : -1;
}

int cfsr_replay_name_cpu_group(struct cfsr_replay *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nr_cpu_names && strcmp(r->cpu_names[i], path); i++)
		;
	if (i < r->nr_cpu_names)
		return 0;
	if (CFSR_ALLOC_GROW(r->cpu_names, r->nr_cpu_names + 1, r->alloc_cpu_names) < 0 ||
	    !(r->cpu_names[r->nr_cpu_names] = strdup(path)))
		return cfsr_error("replay: out of memory");
	r->nr_cpu_names++;
	return 0;
}

/* Whether @path is a group the engine holds or was named as a cpu cgroup. */
static bool cpu_group_known(const struct cfsr_replay *r, const char *path)
{
	size_t i;

	if (!strncmp(path, "/autogroup-", strlen("/autogroup-")))
		return false;
	for (i = 1; i < r->nr_groups; i++)
		if (!strcmp(r->groups[i], path))
			return true;
	for (i = 0; i < r->nr_cpu_names; i++)
		if (!strcmp(r->cpu_names[i], path))
			return true;
	return false;
}

void cfsr_replay_follow_attaches(struct cfsr_replay *r, int cpu_root)
{
	r->follow_attaches = true;
	r->cpu_root = cpu_root;
}

int cfsr_replay_task_set_fork_group(struct cfsr_replay *r, int pid, const char *path)
{
	int g;
	struct cfsr_task *t = task_and_group(r, pid, path, &g);

	if (!t)
		return -1;
	t->fork_group = g + 1;
	return 0;
}

/*
 * An attach event's path, kept before anything reads ahead in the trace
 * (cfsr_replay_set_peek()): the reader's next events may reuse its
 * storage.
 */
static int keep_attach_path(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	if (!r->follow_attaches || ev->kind != CFSR_EV_CGROUP_ATTACH || !ev->cgroup.path)
		return 0;
	free(r->attach_path);
	r->attach_path = strdup(ev->cgroup.path);
	return r->attach_path ? 0 : cfsr_error("replay: out of memory");
}

/*
 * The trace time of sched_move_task() for an attach event: the tracepoint
 * comes after the move.  A running task's move begins with the
 * update_curr() of its dequeue, whose run-time report (the CPU's last,
 * the task's run time accounted up to its clock) shows the move's clock;
 * otherwise the event's time.
 */
static uint64_t move_ts(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *t = cfsr_replay_task(r, ev->cgroup.pid);
	const struct pending_runtime *p;

	if (!t || t->state != CFSR_TS_RUNNING || t->cpu < 0 || t->cpu >= r->nr_cpus)
		return ev->ts;
	p = &r->pending[t->cpu];
	if (p->pid == t->pid && p->ts <= ev->ts && t->exec_known && t->exec_start == p->now)
		return p->ts;
	return ev->ts;
}

/*
 * Mirrors cgroup_attach_task() of the cpu controller's hierarchy
 * (kernel/cgroup/cgroup.c; cpu_cgroup_attach() -> sched_move_task(),
 * kernel/sched/core.c, v6.12-v6.18): the task moves to the group at the
 * tracepoint, which follows the move (cfsr_replay_task_move_group()); a
 * level-0 destination is the root cgroup, where the task is scheduled in
 * its autogroup (autogroup_task_group()): its given group if that is one.
 * Attaches of other hierarchies move nothing.  With the hierarchy not
 * given, the first whose attach names a group the engine already holds
 * (given by the snapshots, records or markers), not the root nor an
 * autogroup, is taken as the cpu controller's.
 */
static int on_cgroup_attach(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *t;
	struct cfsr_task *moved;
	const char *path = r->attach_path;
	int ret;

	if (!r->follow_attaches || ev->cgroup.pid <= 0 || !ev->cgroup.path || !path || !path[0])
		return 0;
	if (r->cpu_root == CFSR_CPU_ROOT_UNKNOWN && ev->cgroup.level > 0 &&
	    cpu_group_known(r, path))
		r->cpu_root = ev->cgroup.root;
	if (ev->cgroup.root != r->cpu_root) {
		r->stats.attaches_other++;
		return 0;
	}
	if (ev->cgroup.level <= 0) {
		t = cfsr_replay_task(r, ev->cgroup.pid);
		path = t && t->group > 0 &&
				       !strncmp(r->groups[t->group], "/autogroup-",
						strlen("/autogroup-")) ?
			       r->groups[t->group] :
			       "/";
	}
	ret = cfsr_replay_task_move_group(r, ev->cgroup.pid, path, move_ts(r, ev));
	if (ret < 0)
		return -1;
	moved = cfsr_replay_task(r, ev->cgroup.pid);
	if (moved)
		moved->group_traced = true;
	r->stats.attach_moves += (uint64_t)ret;
	return 0;
}

/*
 * Mirrors reweight_task_fair() -> reweight_entity() (kernel/sched/fair.c,
 * v6.12-v6.18) on a task entity that is not queued (set_user_nice()
 * dequeued it first, or it sleeps): dequeue_load_avg() of its averages as
 * they are (a sleeping task's as of its last update), load_avg rebuilt
 * from load_sum with the new weight, enqueue_load_avg(); the EEVDF lag
 * saved at the dequeue (se->vlag = V - v) scaled by old/new weight, and a
 * relative deadline with it (v6.13-v6.18, r->reweight_place; the vlag
 * alone v6.6-v6.12).  The older models (r->ops->reweight_gse) change the
 * weight only.
 */
static void reweight_task_se(struct cfsr_replay *r, struct cfsr_task *t, int prio)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	uint64_t old = t->load_weight, nw = task_weight_at(t, prio);

	t->prio = prio;
	t->load_weight = nw;
	if (cfs && !r->ops->reweight_gse && t->avg.last_update_time)
		cfsr_pelt_reweight_se(r->params, &cfs->avg, &t->avg, old, nw);
	if (!r->profile->eevdf || old == nw)
		return;
	t->vlag = t->vlag * (int64_t)old / (int64_t)nw;
	if (r->reweight_place && t->rel_deadline)
		t->deadline = (uint64_t)((int64_t)t->deadline * (int64_t)old / (int64_t)nw);
}

/*
 * Mirrors set_user_nice() (kernel/sched/core.c, v6.12-v6.18: the task_rq
 * lock with update_rq_clock(), in v6.18 the sched_change guard) for a fair
 * task whose nice value changes: a queued (or delayed) task is dequeued
 * with DEQUEUE_SAVE | DEQUEUE_NOCLOCK -- update_load_avg(UPDATE_TG) of
 * each level (dequeue_entity(), the walk of dequeue_entities()), its lag
 * and a relative deadline saved, account_entity_dequeue(), update_cfs_group()
 * of the group entities above; a running one is put (put_prev_task(): no
 * PELT update of a dequeued entity).  set_load_weight(p, true) calls
 * reweight_task_fair() whether the task is queued or not
 * (reweight_task_se()).  ENQUEUE_RESTORE places it back with its lag
 * (place_entity()), accounts it with the new weight and calls
 * update_cfs_group() of each level above, the group entities taking the
 * group's new load.weight; its update_load_avg() calls at the same clock
 * change nothing.  A running task is set running again (set_next_task()).
 * CFS profiles (v3.8-v6.5): the vruntime, normalized by the dequeue
 * against a min_vruntime that DEQUEUE_SAVE alone leaves as it was, comes
 * back unchanged.
 * A sleeping task only has its entity reweighted: no level is updated.  A
 * task whose signal or CPU clock is not known yet only changes weight
 * (task_set_prio()).
 * Differs: the update_curr() of the dequeue of a running task is not made
 * unless its report follows (on_setpriority()).
 */
static void set_nice_at(struct cfsr_replay *r, struct cfsr_task *t, int prio, uint64_t ts,
			uint64_t now, bool exact)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	bool queued;

	if (!cfs || t->state == CFSR_TS_UNKNOWN || t->migrated || !t->avg.last_update_time ||
	    r->ops->reweight_gse) {
		task_set_prio(r, t, prio);
		return;
	}
	cfsr_replay_task_settle(r, t, now);
	queued = state_on_rq(t->state);
	if (!queued) {
		reweight_task_se(r, t, prio);
		return;
	}
	update_task(r, t, now, ts, CFSR_UPD_DEQUEUE, exact, &walk_tg);
	save_task(r, t, cfs, true, false);
	reweight_task_se(r, t, prio);
	if (r->profile->eevdf)
		task_place(r, cfs, t, false);
	restore_task(r, t, now);
}

/*
 * Whether the next event of running task @t's CPU (within a path's length
 * of @ev) is its run-time report: set_user_nice()'s dequeue (or
 * put_prev_task()) of a running task begins with update_curr(), whose
 * report gives the clock of the change, the rq clock of task_rq_lock()'s
 * update_rq_clock().  It comes after the syscall's entry.
 */
static bool nice_report_next(const struct cfsr_replay *r, const struct cfsr_task *t,
			     const struct cfsr_event *ev)
{
	const struct cfsr_event *next;
	size_t i;

	if (!r->peek || t->state != CFSR_TS_RUNNING || t->cpu != ev->cpu || !t->exec_known)
		return false;
	for (i = 0; r->peek(r->peek_ctx, i, &next) > 0; i++) {
		if (next->ts > ev->ts + CFSR_REPLAY_PATH_NS)
			return false;
		if (next->cpu != ev->cpu)
			continue;
		return next->kind == CFSR_EV_STAT_RUNTIME && next->runtime.pid == t->pid;
	}
	return false;
}

/*
 * Mirrors setpriority(PRIO_PROCESS, who, niceval) (kernel/sys.c, v2.6-v6.18)
 * at its entry: @who 0 is the caller, else a thread id; niceval is clamped
 * to [MIN_NICE, MAX_NICE] = [-20, 19]; set_one_prio() -> set_user_nice(),
 * which does nothing when the nice value is the task's already.  A task of
 * another class (its prio not a fair one) keeps its class: only its
 * static_prio changes, which its next sched_switch shows if it comes back.
 * PRIO_PGRP and PRIO_USER name no task the event carries: not applied.
 * The call may fail after its entry, which the trace does not show:
 * set_one_prio() returns EPERM for another user's task without
 * CAP_SYS_NICE, EACCES for a lower nice value than the task's unless
 * can_nice() (RLIMIT_NICE or CAP_SYS_NICE), or an LSM's refusal; ESRCH
 * when no task has the pid.  A task raising its own nice value cannot
 * fail but by an LSM.  The change is applied in every case; a failed one
 * is set right by the task's next sched_switch prio (task_set_prio()) or a
 * kernel record's weight.  The change
 * of a running task is made at its run-time report that follows
 * (nice_report_next(), on_nice_report()), at that report's clock, after
 * the records of its dequeue; else at the event's time.
 */
static void on_setpriority(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	int pid = ev->setprio.who ? ev->setprio.who : ev->pid;
	int nice = ev->setprio.niceval;
	struct replay_rq *rq;
	struct cfsr_task *t;
	uint64_t now;
	bool exact;

	if (ev->setprio.which != 0 || pid <= 0) {
		r->stats.setprio_other++;
		return;
	}
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	t = cfsr_replay_task(r, pid);
	if (!t || !t->fair || t->dead || t->prio == 120 + nice) {
		r->stats.setprio_other++;
		return;
	}
	r->stats.nice_changes++;
	rq = t->cpu >= 0 ? rq_of(r, t->cpu) : NULL;
	if (!rq || !clock_ok(r, t->cpu)) {
		task_set_prio(r, t, 120 + nice);
		return;
	}
	if (nice_report_next(r, t, ev)) {
		t->nice_prio = 120 + nice;
		return;
	}
	now = clock_at(r, rq, ev->ts, &exact);
	set_nice_at(r, t, 120 + nice, ev->ts, now, exact);
}

/*
 * After a run-time report of @ev's task that a nice change waits for: its
 * clock is the change's.  The dequeue's update_load_avg() at that clock
 * (whose kernel records, in lock-step, show the old weight) comes before
 * the reweight: the change is made at the next event (nice_due()).
 */
static void on_nice_report(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t = cfsr_replay_task(r, ev->runtime.pid);

	if (!t || !t->nice_prio || t->nice_due)
		return;
	t->nice_due = true;
	t->nice_clock = t->exec_start;
	t->nice_ts = ev->ts;
	r->nice_pending++;
}

/* The nice changes due (on_nice_report()), before the event that follows their report. */
static void nice_due(struct cfsr_replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_tasks && r->nice_pending; i++) {
		struct cfsr_task *t = &r->tasks[i];
		int prio = t->nice_prio;

		if (!t->nice_due)
			continue;
		t->nice_due = false;
		t->nice_prio = 0;
		r->nice_pending--;
		if (!t->fair || t->state != CFSR_TS_RUNNING)
			task_set_prio(r, t, prio);
		else
			set_nice_at(r, t, prio, t->nice_ts, t->nice_clock, true);
	}
}

/*
 * The cpu controller's group of a cgroup_mkdir or cgroup_rmdir event
 * (made if new), or 0 for none: another hierarchy (counted), or the root;
 * -1 out of memory.  With the hierarchy not given, the first whose event
 * names a group the engine already holds or was named (not an autogroup)
 * is taken as the cpu controller's, as for an attach (on_cgroup_attach()).
 */
static int cgroup_dir_group(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	if (!r->follow_attaches || !ev->cgroup.path || ev->cgroup.level <= 0)
		return 0;
	if (r->cpu_root == CFSR_CPU_ROOT_UNKNOWN && cpu_group_known(r, ev->cgroup.path))
		r->cpu_root = ev->cgroup.root;
	if (r->cpu_root == CFSR_CPU_ROOT_UNKNOWN || ev->cgroup.root != r->cpu_root) {
		r->stats.group_dirs_other++;
		return 0;
	}
	return group_get(r, ev->cgroup.path);
}

/*
 * Mirrors online_fair_sched_group() (kernel/sched/fair.c, v5.7-v6.18) on
 * one CPU: under the rq lock, update_rq_clock() and attach_entity_cfs_rq()
 * of the new group entity: update_load_avg() of its parent cfs_rq (the
 * entity itself, never attached, is not aged), attach_entity_load_avg()
 * -- the entity's averages are zero (init_entity_runnable_average() of a
 * group entity in alloc_fair_sched_group()), its window the parent's, its
 * load_sum max(1, 0) = 1 from v5.18 (40f5aa4c5eae, the profile's
 * attach_load_sum_min1), so that the parent gains load_sum
 * scale_load_down(NICE_0_LOAD) * 1 = 1024 and prop_runnable_sum 1 --,
 * update_tg_load_avg() of the parent, and propagate_entity_cfs_rq(): the
 * levels above, update_load_avg(UPDATE_TG).  An entity attached already
 * (the group met earlier in the trace) is left as it is.
 */
static void attach_group_se(struct cfsr_replay *r, struct cfsr_cfs_rq *gcfs, uint64_t ts)
{
	struct cfsr_cfs_rq *p = parent_cfs(r, gcfs);
	uint64_t now;
	bool exact;

	if (!p || !clock_ok(r, gcfs->cpu) || gcfs->se_avg.last_update_time || gcfs->se_on_rq)
		return;
	/*
	 * the attach's update_rq_clock(): a reading of that rq within
	 * WAKEUP_HOLD_NS before the tracepoint (the pelt_cfs_tp of the parent's
	 * update), which the rest of cgroup_mkdir() follows by some 10 to
	 * 40 us in traces/perf-groups.dat; else the event's time on the clock
	 */
	now = wakeup_clock(r, rq_of(r, gcfs->cpu), ts, &exact);
	cfs_update(r, p, now, ts, exact);
	memset(&gcfs->se_avg, 0, sizeof(gcfs->se_avg));
	p->prop_runnable_sum +=
		r->ops->attach(r->profile, &p->avg, &gcfs->se_avg, gcfs->se_weight, now);
	p->propagate = true;
	gcfs->se_known = true;
	tg_publish(r, p, ts, false);
	group_walk(r, p, now, ts, exact, &walk_tg);
	r->stats.group_attaches++;
}

/*
 * Mirrors cgroup_mkdir() of the cpu controller's hierarchy
 * (kernel/cgroup/cgroup.c): cpu_cgroup_css_alloc() -> sched_create_group()
 * -> alloc_fair_sched_group() makes the group's cfs_rq and entity per CPU
 * (cfsr_replay_group_created()), cpu_cgroup_css_online() ->
 * sched_online_group() -> online_fair_sched_group() attaches each entity
 * to its parent cfs_rq (attach_group_se()), and the tracepoint fires after
 * (cgroup_apply_control_enable() comes first): the attaches are made at
 * each CPU's last reading just before, else at the event's time.  The
 * v5.7+ arithmetic only: the older models take the group as made, without
 * the attach.
 */
static int on_cgroup_mkdir(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	int g = cgroup_dir_group(r, ev), c;

	if (g <= 0)
		return g;
	if (cfsr_replay_group_created(r, ev->cgroup.path) < 0)
		return -1;
	r->stats.group_mkdirs++;
	if (r->ops->update_gse)
		return 0;
	for (c = 0; c < r->nr_cpus; c++)
		attach_group_se(r, cfs_of(r, g, c), ev->ts);
	return 0;
}

/*
 * Mirrors unregister_fair_sched_group() (kernel/sched/fair.c, v5.16-v6.18:
 * sched_destroy_group() from cpu_cgroup_css_free(), through
 * sched_unregister_group_rcu()) on each CPU: remove_entity_load_avg() of
 * the group entity -- synced to its parent cfs_rq's last update, its
 * averages queued as removed there, taken out at the parent's next
 * update -- and list_del_leaf_cfs_rq(): the group's cfs_rq is no longer
 * walked; its contributions to tg->load_avg go with the task group.  Only
 * an empty group can be removed (cgroup_rmdir() fails with tasks in it), so
 * a CPU where the model still queues something below keeps its state
 * (counted: @group_rmdir_busy).
 * Differs: the kernel makes it after the css is released and freed, at
 * least two RCU grace periods after the rmdir, which the trace does not
 * show; the engine makes it at the rmdir event.  The parent's figures
 * differ only where the parent updates in between (the removal then
 * waits for a later update).  The v5.7+ arithmetic only: the older models
 * count the event and keep the group.
 */
static int on_cgroup_rmdir(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	int g = cgroup_dir_group(r, ev), c, busy = 0;
	struct cfsr_cfs_rq *gcfs, *p;

	if (g <= 0)
		return g;
	r->stats.group_rmdirs++;
	if (r->ops->update_gse)
		return 0;
	for (c = 0; c < r->nr_cpus; c++) {
		gcfs = cfs_of(r, g, c);
		p = parent_cfs(r, gcfs);
		if (cfs_nr_queued(gcfs) || gcfs->se_on_rq) {
			busy++;
			continue;
		}
		if (p && gcfs->se_avg.last_update_time)
			r->ops->remove(r->profile, &p->avg, &p->removed, &gcfs->se_avg,
				       gcfs->se_weight);
		memset(&gcfs->avg, 0, sizeof(gcfs->avg));
		memset(&gcfs->se_avg, 0, sizeof(gcfs->se_avg));
		memset(&gcfs->removed, 0, sizeof(gcfs->removed));
		gcfs->avg_known = false;
		gcfs->se_known = false;
		gcfs->propagate = false;
		gcfs->prop_runnable_sum = 0;
		gcfs->tg_load_avg_contrib = 0;
	}
	r->stats.group_rmdir_busy += (uint64_t)busy;
	/* a new group of that path starts with tg->load_avg 0 */
	if (!busy)
		r->tgs[g].load_avg = 0;
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
	rq->read = false;
	rq->skip = false;
	rq->missed_skip = false;
	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].cpu == ev->cpu)
			r->tasks[i].exec_known = false;
}

/*
 * The update of a switch into @t made at an estimated clock
 * (set_next_entity()'s update_load_avg(), the task waiting until then),
 * made again from the signal before it at @at, the switch's clock now
 * known (correct_chain(), recovered_report()).
 */
static void redo_set_next(struct cfsr_replay *r, struct cfsr_task *t, uint64_t at)
{
	t->avg = t->pre_set_next;
	if (at >= t->avg.last_update_time)
		r->ops->update_se(r->profile, pelt_now(r, t->cpu, at, t->avg.last_update_time),
				  pelt_scale(r, t->cpu), &t->avg, NULL, t->load_weight, true, 1,
				  false);
	t->set_next_est = false;
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

	if (!p->set || p->exact || ts < p->ts || ts - p->ts >= READING_HOLD_NS)
		return;
	t = cfsr_replay_task(r, p->pid);
	if (!t || !t->fair || t->state != CFSR_TS_RUNNING || t->cpu != cpu ||
	    t->updates != p->updates || clock < p->exec_from)
		return;
	if (t->set_next_est)
		redo_set_next(r, t, t->set_next_clock + clock - p->now);
	p->now = clock;
	p->exact = true;
	p->stamp = false;
	t->exec_start = clock;
	t->exec_stamp = false;
	t->exec_known = true;
	anchor(&r->rqs[cpu], p->ts, clock, true, false, t->pid);
}

static bool off_tick(const struct cfsr_replay *r, uint64_t ts);
static void tick_seen(struct cfsr_replay *r, uint64_t ts);

/*
 * Apply the PELT update of the CPU's last run-time report, unless @ev shows
 * that report came from a wakeup: a wakeup onto the task's run queue
 * emitted right after it.  A report taken as a tick's (entity_tick()) that
 * comes within half a period of the CPU's last tick came from a read of
 * the task's run time instead (task_sched_runtime(): update_curr() only,
 * e.g. the task reading its thread CPU-time clock, v6.12-v6.18): ticks
 * come a period apart.  No PELT update.  One off the ticks' grid within
 * CFSR_REPLAY_PATH_NS of a wakeup onto its CPU came from the pick of that
 * wakeup's preemption (check_preempt_wakeup_fair() -> resched_curr_lazy(),
 * then __schedule(): pick_task_fair()'s update_curr() at every level,
 * kernel/sched/fair.c v6.12-v6.18), which kept the task: no switch, so no
 * put_prev_entity()/set_next_entity(), no PELT update and no
 * update_cfs_group() (off_tick()); the pick completes the delayed dequeues
 * it meets.  After a tick's update, the periodic balance a newly-idle
 * balance brought in makes its blocked-load pass (newidle_balance()).
 */
/*
 * In lock-step, a report no event followed that would have been a tick's
 * update crossing a PELT period of the task (___update_load_sum() returns
 * 1 and __update_load_avg_se() fires pelt_se_tp, kernel/sched/pelt.c,
 * v5.7-v6.18) without the kernel's record of that update: the task's
 * signal, last taken from a record, is still before it.  So no
 * entity_tick() ran: the report was a read of the task's run time
 * (task_sched_runtime(): update_curr() alone), made more than half a tick
 * after the CPU's last tick.
 */
static bool tick_unrecorded(const struct cfsr_replay *r, const struct cfsr_task *t,
			    const struct pending_runtime *p)
{
	uint64_t now, delta;

	if (!r->records || !t->avg_taken || !t->avg.last_update_time || !p->exact)
		return false;
	now = pelt_now(r, t->cpu, p->now, t->avg.last_update_time);
	delta = now - t->avg.last_update_time;
	return delta >= 1024 && (delta >> 10) + t->avg.period_contrib >= 1024;
}

static bool wakes_elsewhere(const struct cfsr_event *ev);

/*
 * An event of a newly-idle balance on @cpu, between a dequeue and the
 * switch out: a pull onto @cpu (1), a run-time report, a wakeup aimed
 * elsewhere (0); -1 anything else.
 */
static int newidle_event(const struct cfsr_event *ev, int cpu)
{
	switch (ev->kind) {
	case CFSR_EV_STAT_RUNTIME:
		return 0;
	case CFSR_EV_MIGRATE:
		return ev->migrate.dest_cpu == cpu ? 1 : -1;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		return wakes_elsewhere(ev) ? 0 : -1;
	default:
		return -1;
	}
}

/*
 * From @ev on (a forced settle's synthesized event: from the next one),
 * the events of @t's CPU within a path's length: a newly-idle balance's
 * (newidle_event()), at least one pull among them, then a switch out of
 * @t that blocks it: @t's dequeue came before that balance.  The switch.
 */
static const struct cfsr_event *
newidle_ahead(const struct cfsr_replay *r, const struct cfsr_task *t, const struct cfsr_event *ev)
{
	const struct cfsr_event *next;
	int pulls = 0, k;
	size_t i;

	if (!r->peek || ev->cpu != t->cpu)
		return NULL;
	if (!(ev->kind == CFSR_EV_MARKER && ev->pid == -1)) {
		if ((k = newidle_event(ev, t->cpu)) < 0)
			return NULL;
		pulls = k;
	}
	for (i = 0; r->peek(r->peek_ctx, i, &next) > 0; i++) {
		if (next->ts > ev->ts + CFSR_REPLAY_PATH_NS)
			return NULL;
		if (next->cpu != ev->cpu)
			continue;
		if (next->kind == CFSR_EV_SWITCH)
			return pulls && next->sw.prev_pid == t->pid && !next->sw.preempt &&
					       next->sw.prev_state ?
				       next :
				       NULL;
		if ((k = newidle_event(next, t->cpu)) < 0)
			return NULL;
		pulls += k;
	}
	return NULL;
}

/*
 * Mirrors try_to_block_task() -> dequeue_task() (kernel/sched/core.c,
 * v6.12-v6.18; deactivate_task() in __schedule() before, v5.7-v6.11) of a
 * task whose __schedule() then ran a newly-idle balance from the pick
 * (sched_balance_newidle(), newidle_balance() before v6.10): the
 * trace shows the balance's pulls and reports before the task's switch
 * out.  The dequeue is made at the report before them; the task stays its
 * CPU's curr (its levels running, cfs_running()) until the switch, and the
 * pick's update_curr() after the balance moves only its vruntime.  A sleep
 * kept delayed (dequeue_entity()'s delayed branch: update_load_avg() of
 * the task's level alone) means the pick before that balance found no
 * runnable entity: pick_task_fair() completed every delayed dequeue on the
 * CPU (the task's too) before pick_next_task_fair() went idle and balanced
 * (kernel/sched/fair.c, v6.12-v6.18), so they are completed there, at that
 * report's clock, before the pull arrives.  The models of the older
 * arithmetic (v3.8-v5.6, whose runnable load leaves at the switch) are
 * left to the switch.  Returns whether it dequeued.
 */
static bool newidle_dequeue(struct cfsr_replay *r, struct cfsr_task *t,
			    const struct pending_runtime *p, const struct cfsr_event *ev)
{
	const struct cfsr_event *sw = newidle_ahead(r, t, ev);
	bool special, delay;

	if (!sw || r->profile->arith != CFSR_ARITH_RUNNABLE)
		return false;
	special = switch_special(t, sw);
	delay = will_delay(r, t, special);
	if (!r->profile->util_est_late)
		sample_util_est(r, t);
	update_task(r, t, p->now, p->ts, CFSR_UPD_DEQUEUE, p->exact,
		    delay ? &walk_task : &walk_dequeue);
	if (r->profile->util_est_late)
		sample_util_est(r, t);
	t->tick_forced = false;
	block_task(r, t, special);
	t->nd_pending = true;
	if (delay)
		pick_delayed(r, t->cpu, NULL, p->now, p->ts, p->exact);
	r->stats.newidle_dequeues++;
	return true;
}

/*
 * Whether the switch @ev that preempts the task of pending report @p
 * (prev_state R) has no report of its own, @p being an update before it: a
 * wakeup onto the CPU asked its next __schedule() to keep the clock
 * (request_skip(), RQCF_REQ_SKIP) before @p, and the switch comes more
 * than UNREPORTED_PICK_NS after @p.  The update between (the tick's:
 * sched_tick()'s update_rq_clock() is skipped only inside __schedule(),
 * RQCF_ACT_SKIP) moved the clock and reported; the __schedule() that acts
 * on the wakeup's need_resched keeps that clock, so update_curr() in its
 * put_prev_entity() finds no run time and reports nothing
 * (kernel/sched/core.c, fair.c, v6.7-v6.18; check_preempt_curr() before
 * v6.7, same code).  @p is then the tick's, with its walk (entity_tick():
 * UPDATE_TG, update_cfs_group()), not the put's.  A pick's own report comes
 * within microseconds of its switch; a preemption held back until the
 * tick (a kernel without full preemption, as these machines') comes
 * tens of microseconds after the tick's report.  A sleep is left out: its
 * newly-idle balance can come between its dequeue's report and its switch.
 */
#define UNREPORTED_PICK_NS 15000

static bool pick_unreported(const struct cfsr_replay *r, const struct pending_runtime *p,
			    const struct cfsr_event *ev)
{
	/* settle_runtime() has checked @ev's CPU */
	const struct replay_rq *rq = &r->rqs[ev->cpu];

	return (ev->sw.preempt || !ev->sw.prev_state) && rq->skip && rq->skip_ts < p->ts &&
	       ev->ts > p->ts + UNREPORTED_PICK_NS;
}

static void settle_runtime(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct pending_runtime *p;
	struct walk w, set;
	struct cfsr_task *t;
	bool sleep, tick = false;

	if (ev->cpu < 0 || ev->cpu >= r->nr_cpus || !r->pending[ev->cpu].set)
		return;
	p = &r->pending[ev->cpu];
	p->set = false;
	t = cfsr_replay_task(r, p->pid);
	if (t && p->exit_group) {
		p->exit_group = 0;
		r->stats.exit_moves++;
		r->stamp = p->stamp;
		move_task_group_at(r, t, exit_group(r, t), p->ts, p->now, p->exact);
		return;
	}
	if (!t || t->state != CFSR_TS_RUNNING || t->updates != p->updates)
		return;
	/*
	 * A reading came after a report made without a clock: the report's
	 * update takes the clock estimated back from that reading, never the
	 * trace clock it was reported on.
	 */
	r->stamp = p->stamp;
	if (p->unanchored) {
		if (!clock_ok(r, ev->cpu))
			return;
		r->stamp = false;
		p->now = clock_at(r, &r->rqs[ev->cpu], p->ts, &p->exact);
		p->stamp = r->stamp;
		p->unanchored = false;
	}
	if ((ev->kind == CFSR_EV_WAKEUP || ev->kind == CFSR_EV_WAKEUP_NEW) &&
	    ev->wake.target_cpu == t->cpu && ev->wake.pid != t->pid)
		return;
	if (!(ev->kind == CFSR_EV_STAT_RUNTIME && ev->runtime.pid == t->pid) &&
	    newidle_dequeue(r, t, p, ev))
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
	/*
	 * entity_tick() walks every level (UPDATE_TG, update_cfs_group());
	 * the report of a __schedule() that switches the task out is its
	 * dequeue's, or the pick's update_curr() before put_prev_entity().
	 */
	w = walk_full;
	if (ev->kind == CFSR_EV_SWITCH && ev->sw.prev_pid == t->pid && pick_unreported(r, p, ev)) {
		r->stats.unreported_picks++;
		p->last_tick_ts = p->ts;
		tick_seen(r, p->ts);
		tick = true;
	} else if (ev->kind == CFSR_EV_SWITCH && ev->sw.prev_pid == t->pid) {
		const struct cfsr_task *next = cfsr_replay_task(r, ev->sw.next_pid);

		switch_walks(r, t, next, next && fair_prio(ev->sw.next_prio),
			     sleep && !will_delay(r, t, switch_special(t, ev)), t->cpu, &w, &set);
	} else if (p->last_tick_ts && p->ts - p->last_tick_ts < r->tick_nsec / 2) {
		/* within half a period of the CPU's last tick: a read (settle_ticks()) */
		r->stats.runtime_reads++;
		return;
	} else if (p->ts - r->rqs[t->cpu].woken_ts < CFSR_REPLAY_PATH_NS && off_tick(r, p->ts)) {
		/* off the ticks' grid after a wakeup here: the pick of its preemption (off_tick()) */
		r->stats.off_tick_reports++;
		r->stats.runtime_reads_unrecorded += tick_unrecorded(r, t, p);
		pick_delayed(r, t->cpu, t, p->now, p->ts, p->exact);
		return;
	} else if (tick_unrecorded(r, t, p)) {
		r->stats.runtime_reads++;
		r->stats.runtime_reads_unrecorded++;
		return;
	} else {
		p->last_tick_ts = p->ts;
		tick_seen(r, p->ts);
		tick = true;
	}
	update_task(r, t, p->now, p->ts, CFSR_UPD_RUNTIME, p->exact, &w);
	if (sleep && r->profile->util_est_late)
		sample_util_est(r, t);
	if (tick && r->rqs[t->cpu].balance_due && own_balance(r)) {
		/* sched_balance_softirq(): update_blocked_averages() before the domains */
		blocked_pass(r, t->cpu, p->now, p->ts, p->exact);
		r->rqs[t->cpu].balance_due = false;
		r->stats.own_balances++;
	}
}

/* How far ahead recover_ahead() looks for the report of a task seen running. */
#define RECOVER_AHEAD_NS 20000000ull

/*
 * @ev ran in the context of a task the model did not know was running on
 * its CPU: the switch into it was lost.  Its next run-time report on that
 * CPU, before any other task's event there, tells when it began to run
 * (the report's time less its run time, as recover_switch() takes it):
 * the switch is placed there now, so that the CPU's updates between (an
 * enqueue of a task it wakes, say) see it running, as the kernel's did.
 * Without a look ahead, or no such report within RECOVER_AHEAD_NS (or the
 * reader's bound), the report places it when it comes.
 */
/*
 * The run-time report of @ev's task on @ev's CPU that tells when the task,
 * not the one the model had running there, was switched in: @ev itself,
 * or with a look ahead the first such report before any other task's
 * event on that CPU and before a read of its run time from another CPU
 * (which would split the time reported), within RECOVER_AHEAD_NS.
 * Return: the report, or NULL.
 */
static const struct cfsr_event *switch_report(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_event *next;
	size_t i;

	if (ev->kind == CFSR_EV_STAT_RUNTIME)
		return ev->runtime.pid == ev->pid ? ev : NULL;
	if (!r->peek)
		return NULL;
	for (i = 0;; i++) {
		if (r->peek(r->peek_ctx, i, &next) <= 0 || next->ts > ev->ts + RECOVER_AHEAD_NS)
			return NULL;
		if (next->cpu != ev->cpu && next->kind == CFSR_EV_STAT_RUNTIME &&
		    next->runtime.pid == ev->pid)
			return NULL;
		if (next->cpu != ev->cpu)
			continue;
		if (next->pid != ev->pid || next->kind == CFSR_EV_SWITCH ||
		    next->kind == CFSR_EV_LOST)
			return NULL;
		if (next->kind == CFSR_EV_STAT_RUNTIME && next->runtime.pid == ev->pid)
			return next;
	}
}

/*
 * @ev ran in the context of a task the model did not know was running on
 * its CPU: the switch into it was lost.  Its report @rep (switch_report())
 * tells when it began to run (the report's time less its run time, as
 * recover_switch() takes it): if an update of the CPU comes before that
 * report, the switch is placed then (recover_due()), so that the update
 * sees the task running, as the kernel's did.
 */
static void recover_ahead(struct cfsr_replay *r, struct replay_rq *rq, const struct cfsr_event *ev,
			  const struct cfsr_event *rep)
{
	struct cfsr_task *t = cfsr_replay_task(r, ev->pid);

	if (!t || !t->fair || !clock_ok(r, ev->cpu))
		return;
	/*
	 * A run time longer than the time since the rq's last clock update:
	 * the switch kept that update's clock (a wakeup's, whose enqueue
	 * precedes its event), which the kernel's records gave (missed_skip).
	 */
	rq->ahead_skip = rep->runtime.runtime > rep->ts - rq->last_ts;
	if (rq->ahead_skip && !rq->missed_skip)
		return;
	rq->ahead_pid = t->pid;
	rq->ahead_ts = rep->ts;
	rq->ahead_runtime = rep->runtime.runtime;
}

/*
 * The task @old the model had running on @rq left it by a switch the trace
 * lost, to the task of report @rep.  With no run-time report of its own
 * since it was switched in, the put's report was lost with the switch:
 * it ran until that task began, the report's clock less its run time.
 * Its update_curr() and the put of that switch (put_prev_entity(), or a
 * dequeue's update: the task's own signal is the same) are made there;
 * whether it blocked or was preempted its next event says
 * (CFSR_TS_LEFT).  With a report since, it may as well have blocked there
 * (the switch to idle lost too): it is left at that report, as before.
 */
static void put_unseen(struct cfsr_replay *r, struct replay_rq *rq, struct cfsr_task *old,
		       const struct cfsr_event *rep)
{
	struct cfsr_task *next = cfsr_replay_task(r, rep->runtime.pid);
	int cpu = (int)(rq - r->rqs);
	struct walk put, set;
	uint64_t now, at;
	bool exact;

	/* a report since its switch-in: it left there (the put's, or a dequeue's) */
	if (!old->fair || !old->exec_known || !clock_ok(r, cpu) ||
	    old->exec_start != old->set_next_clock)
		return;
	now = clock_at(r, rq, rep->ts, &exact);
	if (rep->runtime.runtime >= now)
		return;
	at = now - rep->runtime.runtime;
	if (at <= old->exec_start || at < old->avg.last_update_time)
		return;
	advance_vruntime(r, old, at - old->exec_start, at, true);
	old->exec_start = at;
	old->exec_stamp = true;
	switch_walks(r, old, next, next && next->fair, false, cpu, &put, &set);
	update_task(r, old, at, rep->ts - rep->runtime.runtime, CFSR_UPD_PUT_PREV, false, &put);
	r->stats.unseen_puts++;
}

/*
 * How far a recovered switch's estimated clock may be from the clock of the
 * wakeup before it to be taken as that clock (recover_due()).
 */
#define SKIP_SNAP_NS 2000ull

/*
 * An update of @rq's cfs_rqs is due (an enqueue or a migration there, a
 * clock reading of the kernel's) before the report recover_ahead() found:
 * the switch it places is made now, at the clock estimated for the
 * report less its run time; the report, better anchored, corrects the
 * task's own update (recovered_report()).  Without such an update, the
 * report places the switch when it comes (recover_switch()).  When the
 * report's run time reaches back before the rq's last clock update and
 * the switch used up a wakeup's skip request (missed_skip, the kernel's
 * records giving the clock), an estimate within SKIP_SNAP_NS of that
 * wakeup's clock is taken as it: the switch kept it
 * (rq_clock_skip_update()), and the run time counts from it exactly.
 */
static void recover_due(struct cfsr_replay *r, struct replay_rq *rq)
{
	struct cfsr_task *t;
	uint64_t now, start;
	bool exact, snap = false;

	if (!rq || !rq->ahead_pid)
		return;
	t = rq->curr == -1 ? cfsr_replay_task(r, rq->ahead_pid) : NULL;
	rq->ahead_pid = 0;
	if (!t || !clock_ok(r, (int)(rq - r->rqs)))
		return;
	now = clock_at(r, rq, rq->ahead_ts, &exact);
	if (rq->ahead_skip && rq->missed_skip) {
		rq->missed_skip = false;
		start = now - rq->ahead_runtime;
		snap = start + SKIP_SNAP_NS >= rq->missed_wake_clock &&
		       start <= rq->missed_wake_clock + SKIP_SNAP_NS;
		if (snap) {
			now = rq->missed_wake_clock + rq->ahead_runtime;
			r->stamp |= rq->missed_stamp;
		}
	}
	recover_switch(r, rq, t, (int)(rq - r->rqs), now, rq->ahead_runtime,
		       rq->ahead_ts - rq->ahead_runtime, snap);
	if (snap) {
		t->exec_start = rq->missed_wake_clock;
		t->exec_stamp = rq->missed_stamp;
	}
	t->exec_known = snap;
	t->recovered_ahead = !snap;
	r->stats.recovered_ahead++;
}

/*
 * The report that recover_ahead() placed @t's switch by, at clock @now:
 * the switch's own update (set_next_entity()) is made again at its clock,
 * @now less the run time, unless the task was updated since.
 * Differs: the cfs_rq updates made at the estimated clock stay.
 */
static void recovered_report(struct cfsr_replay *r, struct cfsr_task *t, uint64_t now,
			     uint64_t runtime)
{
	uint64_t at = now > runtime ? now - runtime : 0;

	t->recovered_ahead = false;
	if (t->set_next_est && t->updates == t->set_next_updates && at != t->set_next_clock)
		redo_set_next(r, t, at);
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
	const struct cfsr_event *rep;
	struct cfsr_task *old;

	if (!rq || ev->pid < 0 || rq->curr == ev->pid || ev->kind == CFSR_EV_LOST)
		return;
	rq->ahead_pid = 0;
	rep = ev->pid > 0 ? switch_report(r, ev) : NULL;
	old = rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;
	if (old && old->state == CFSR_TS_RUNNING) {
		if (rep)
			put_unseen(r, rq, old, rep);
		left_unseen(r, old);
	}
	/* the first event after the switch: later wakeups ask for the next one */
	if (rq->curr >= 0)
		skip_missed(r, rq);
	/*
	 * The PELT clock: idle from this event's clock at the latest (a task
	 * seen running is switched in by recover_switch(), where its run
	 * began)
	 */
	if (rq->pelt_on && ev->pid == 0 && rq->curr != 0) {
		bool exact;

		pelt_switch(r, ev->cpu, peek_clock(rq, ev->ts, &exact), 0);
	}
	rq->curr = ev->pid == 0 ? 0 : -1;
	if (rep && rep != ev)
		recover_ahead(r, rq, ev, rep);
}

/* A wakeup handler runs well within this; a CPU idle later has run its wakees. */
#define IDLE_AFTER_WAKEUP_NS 20000

/*
 * An event in the idle task's context means the CPU has nothing to run.
 * Tasks woken onto it before, and not seen running since, ran and left
 * unseen (their own events were filtered or lost).  Not the tasks a load
 * balance moved here: an idle CPU's own balance pulls them in its softirq,
 * still in the idle task's context, and reschedules after
 * (sched_balance_softirq(), attach_tasks(), kernel/sched/fair.c, v6.10-v6.18;
 * run_rebalance_domains() before).
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

		if (t->state != CFSR_TS_QUEUED || t->cpu != ev->cpu || t->moved_queued)
			continue;
		if (t->enq_ts + IDLE_AFTER_WAKEUP_NS > ev->ts) {
			rq->woken++;
			continue;
		}
		left_unseen(r, t);
	}
}

/* Make CPU @cpu's pending report a tick's update now (settle_ticks()). */
static void force_tick(struct cfsr_replay *r, int cpu)
{
	struct cfsr_event tick = { .kind = CFSR_EV_MARKER, .pid = -1 };
	struct cfsr_task *t = cfsr_replay_task(r, r->pending[cpu].pid);

	tick.cpu = cpu;
	tick.ts = r->pending[cpu].ts;
	if (t) {
		t->tick_avg = t->avg;
		t->tick_forced = true;
	}
	settle_runtime(r, &tick);
}

/* r->settle_from: the oldest pending report's time. */
static void settle_from_next(struct cfsr_replay *r)
{
	uint64_t next = UINT64_MAX;
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++)
		if (r->pending[cpu].set && r->pending[cpu].ts < next)
			next = r->pending[cpu].ts;
	r->settle_from = next;
}

/*
 * A run-time report that no event of its CPU followed within
 * CFSR_REPLAY_PATH_NS was entity_tick()'s: the __schedule() a pick's report
 * belongs to emits its sched_switch a few microseconds after it.  Its
 * update is made before an event of another CPU goes further, so that the
 * other CPU's updates (a publication into tg->load_avg, say) come after it
 * as they did in the kernel; several due are made in the order of their
 * reports.
 */
static void settle_ticks(struct cfsr_replay *r, uint64_t ts)
{
	int cpu, first;

	/* no report is older than r->settle_from: nothing is due before then */
	if (ts <= r->settle_from || ts - r->settle_from <= CFSR_REPLAY_PATH_NS)
		return;
	do {
		first = -1;
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			if (r->pending[cpu].set && r->pending[cpu].ts + CFSR_REPLAY_PATH_NS < ts &&
			    (first < 0 || r->pending[cpu].ts < r->pending[first].ts))
				first = cpu;
		if (first >= 0)
			force_tick(r, first);
	} while (first >= 0);
	settle_from_next(r);
}

/*
 * The trace time of the kernel's reading of @cpu's pending update, in
 * lock-step: the record of the group entity of its task's group
 * (@gse, whose update_cfs_group() reads tg->load_avg right after) or of
 * that group's cfs_rq (whose update_tg_load_avg() publishes right after),
 * when that record is of this update (its last_update_time within the
 * 1024 ns unit that last_update_time advances by, before the update's
 * clock); 0 when not known.
 */
static uint64_t pending_instant(struct cfsr_replay *r, int cpu, bool gse)
{
	const struct pending_runtime *p = &r->pending[cpu];
	const struct cfsr_task *t = cfsr_replay_task(r, p->pid);
	const struct cfsr_cfs_rq *g;
	uint64_t lut, ts;

	if (!t || !t->group || t->cpu != cpu)
		return 0;
	g = cfs_of(r, t->group, cpu);
	if (!g)
		return 0;
	lut = gse ? g->se_avg.last_update_time : g->avg.last_update_time;
	ts = gse ? g->se_read_ts : g->avg_read_ts;
	if (!ts || p->now < lut || p->now - lut >= 1024)
		return 0;
	/* the read follows the parent cfs_rq's record of this update too (read_instant()) */
	if (gse) {
		const struct cfsr_cfs_rq *pc = cfs_of(r, r->tgs[g->group].parent, cpu);

		if (pc && pc->avg_read_ts > ts && pc->avg_read_ts - ts <= CFSR_REPLAY_PATH_NS &&
		    p->now >= pc->avg.last_update_time && p->now - pc->avg.last_update_time < 1024)
			ts = pc->avg_read_ts;
	}
	return ts;
}

/*
 * The update_tg_load_avg() of @cpu's pending tick, made ahead of its walk
 * at the instant of the kernel's record of its group cfs_rq
 * (pending_instant()): entity_tick() publishes right after that update
 * (UPDATE_TG), before the group entity's update_cfs_group()
 * (kernel/sched/fair.c, v5.7-v6.18).  The walk
 * then finds the update made (cfs_decayed()).
 */
static void publish_pending(struct cfsr_replay *r, int cpu)
{
	const struct cfsr_task *t = cfsr_replay_task(r, r->pending[cpu].pid);
	struct cfsr_cfs_rq *g = t && t->group ? cfs_of(r, t->group, cpu) : NULL;
	uint64_t at = pending_instant(r, cpu, false);

	if (!g || !at || !g->kernel_decayed)
		return;
	g->kernel_decayed = false;
	note_decay(g, at, true);
	tg_publish(r, g, at, false);
}

/*
 * Before the pending report of @cpu is settled: another CPU's pending
 * update whose publication into tg->load_avg the kernel made before @cpu's
 * update read it (update_cfs_group() after the group entity's update) is
 * made first, in lock-step where the kernel's records give both instants.
 * The two CPUs' ticks come within microseconds; their reports' order in
 * the trace need not be their updates'.
 */
static void settle_publishers(struct cfsr_replay *r, int cpu)
{
	uint64_t read, pub, own, other_read;
	int c;

	/* only kernel records give the instants */
	if (!r->records || cpu < 0 || cpu >= r->nr_cpus || !r->pending[cpu].set)
		return;
	read = pending_instant(r, cpu, true);
	if (!read)
		return;
	own = pending_instant(r, cpu, false);
	for (c = 0; c < r->nr_cpus; c++) {
		if (c == cpu || !r->pending[c].set)
			continue;
		pub = pending_instant(r, c, false);
		if (!pub || pub >= read)
			continue;
		/*
		 * Interleaved: @cpu's publication also came before @c's read,
		 * so it is made first, at its instant; its walk then finds it
		 * made.
		 */
		other_read = pending_instant(r, c, true);
		if (own && other_read && own < other_read)
			publish_pending(r, cpu);
		force_tick(r, c);
	}
	settle_from_next(r);
}

/*
 * A report made as a tick's (settle_ticks()) was a sleep's dequeue only if
 * the next event of its CPU switches the task out.
 */
static void forced_tick_seen(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct replay_rq *rq = rq_of(r, ev->cpu);
	struct cfsr_task *t = rq && rq->curr > 0 ? cfsr_replay_task(r, rq->curr) : NULL;

	if (t && t->tick_forced && !(ev->kind == CFSR_EV_SWITCH && ev->sw.prev_pid == t->pid))
		t->tick_forced = false;
}

void cfsr_replay_settle_ticks(struct cfsr_replay *r, uint64_t ts)
{
	settle_ticks(r, ts);
	r->cur_ts = ts;
}

bool cfsr_replay_pending_report(const struct cfsr_replay *r, int cpu, uint64_t *ts, uint64_t *clock)
{
	if (cpu < 0 || cpu >= r->nr_cpus || !r->pending[cpu].set)
		return false;
	*ts = r->pending[cpu].ts;
	*clock = r->pending[cpu].now;
	return true;
}

void cfsr_replay_settle_tick(struct cfsr_replay *r, int cpu)
{
	uint64_t cur_ts = r->cur_ts;

	if (cpu < 0 || cpu >= r->nr_cpus || !r->pending[cpu].set)
		return;
	force_tick(r, cpu);
	settle_from_next(r);
	if (r->cur_ts < cur_ts)
		r->cur_ts = cur_ts;
}

/* A task of another class than fair runs or waits on @cpu. */
static bool other_class_on(const struct cfsr_replay *r, int cpu)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++) {
		const struct cfsr_task *t = &r->tasks[i];

		if (t->cpu == cpu && !t->fair && !t->dead &&
		    (t->state == CFSR_TS_RUNNING || t->state == CFSR_TS_QUEUED))
			return true;
	}
	return false;
}

void cfsr_replay_blocked_hint(struct cfsr_replay *r, int cpu, uint64_t ts, uint64_t clock)
{
	struct replay_rq *rq = rq_of(r, cpu);

	if (!rq || r->profile->arith != CFSR_ARITH_RUNNABLE || other_class_on(r, cpu))
		return;
	r->hints += !rq->hint_ts;
	rq->hint_ts = ts;
	rq->hint_clock = clock;
}

/* Whether @ev acts on @cpu's run queue. */
static bool event_on(const struct cfsr_event *ev, int cpu)
{
	if (ev->cpu == cpu)
		return true;
	switch (ev->kind) {
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		return ev->wake.target_cpu == cpu;
	case CFSR_EV_MIGRATE:
		return ev->migrate.orig_cpu == cpu || ev->migrate.dest_cpu == cpu;
	default:
		return false;
	}
}

/*
 * Whether @cpu's pending report is a pick's: with the look ahead, the first
 * event of @cpu from the current one on, within a path's length of the
 * report, switches its task out (__schedule(), whose pick reported).
 * Without a look ahead, taken as one.
 */
static bool pending_pick(struct cfsr_replay *r, int cpu)
{
	const struct pending_runtime *p = &r->pending[cpu];
	const struct cfsr_event *next;

	if (!r->peek)
		return true;
	next = next_of_cpu(r, cpu, p->ts + CFSR_REPLAY_PATH_NS, false);
	return next && next->kind == CFSR_EV_SWITCH && next->sw.prev_pid == p->pid;
}

/*
 * From a tick's run-time report (update_curr() in entity_tick()) to the
 * last of its updates up the levels: on the recorder's captures, whose
 * records of each update add about a microsecond, 2.3-3.8 us at the
 * median, 5.5-7.6 us at the 90th percentile.  An event of another CPU
 * within this of the report may have come before the update.
 */
#define TICK_PATH_NS 5000ULL

/*
 * An event of another CPU that acts on @cpu's rq (event_on(): a wakeup's
 * enqueue there, a migration to or from it) or reports the run time of
 * its running task comes more than TICK_PATH_NS after @cpu's pending
 * report: unless that report is a pick's, whose switch follows, it was a
 * tick's or a read (a __schedule() holds the rq lock from its pick to its
 * switch), and its update, with its publication into tg->load_avg, came
 * before the event's (try_to_wake_up()'s enqueue from another CPU:
 * update_tg_load_avg()'s 1 ms rate limit then keeps the enqueue's out;
 * a migration's removal of load then waits for the next update;
 * kernel/sched/fair.c, v6.7-v6.18).  It is settled first.
 */
static void settle_remote(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct cfsr_task *t = NULL;
	bool settled = false;
	int cpu;

	/* r->settle_from: no pending report is older (UINT64_MAX: none) */
	if (r->settle_from == UINT64_MAX || r->settle_from + TICK_PATH_NS >= ev->ts)
		return;
	if (ev->kind == CFSR_EV_STAT_RUNTIME)
		t = cfsr_replay_task(r, ev->runtime.pid);
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (cpu == ev->cpu || !r->pending[cpu].set ||
		    r->pending[cpu].ts + TICK_PATH_NS >= ev->ts)
			continue;
		if (!event_on(ev, cpu) && !(t && t->state == CFSR_TS_RUNNING && t->cpu == cpu))
			continue;
		if (pending_pick(r, cpu))
			continue;
		force_tick(r, cpu);
		r->stats.remote_settles++;
		settled = true;
	}
	if (settled)
		settle_from_next(r);
}

/* Make the update_blocked_averages() @rq's hint gave (see settle_blocked()). */
static void make_blocked(struct cfsr_replay *r, int cpu)
{
	struct replay_rq *rq = &r->rqs[cpu];

	if (r->pending[cpu].set && r->pending[cpu].ts < rq->hint_ts)
		force_tick(r, cpu);
	if (clock_ok(r, cpu))
		blocked_pass(r, cpu, rq->hint_clock, rq->hint_ts, true);
	rq->hint_ts = 0;
	rq->hint_after = false;
	r->hints--;
	r->stats.blocked_updates++;
	settle_from_next(r);
}

/*
 * The update_blocked_averages() a record showed is made before @ev when
 * @ev acts on its rq or comes later than a path's length: after the tick
 * whose softirq ran it (its pending report made first, settle_ticks()).
 * When @ev is a switch out of a task that blocks, it was the newly-idle
 * balance's (sched_balance_newidle(), after that task's dequeue, at a
 * later clock): it is made after the switch (settle_blocked_after()).
 * When @ev is a pull onto its CPU, the CPU's pending report is settled
 * first: a blocking task's dequeue before that balance's walk and pull
 * (newidle_dequeue()).
 * When @ev is a switch from or to a task of another class, the record was
 * that class's put_prev or set_next: none.
 */
static void settle_blocked(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	int cpu;

	for (cpu = 0; r->hints && cpu < r->nr_cpus; cpu++) {
		struct replay_rq *rq = &r->rqs[cpu];
		bool soon = ev->ts <= rq->hint_ts + CFSR_REPLAY_PATH_NS;

		if (!rq->hint_ts || rq->hint_after || (!event_on(ev, cpu) && soon))
			continue;
		if (soon && ev->kind == CFSR_EV_MIGRATE && ev->cpu == cpu &&
		    ev->migrate.dest_cpu == cpu && r->pending[cpu].set)
			settle_runtime(r, ev);
		if (soon && ev->kind == CFSR_EV_SWITCH && ev->cpu == cpu &&
		    (!fair_prio(ev->sw.prev_prio) || !fair_prio(ev->sw.next_prio))) {
			rq->hint_ts = 0;
			r->hints--;
			r->stats.blocked_set_aside++;
			continue;
		}
		if (soon && ev->kind == CFSR_EV_SWITCH && ev->cpu == cpu && !ev->sw.preempt &&
		    ev->sw.prev_state) {
			rq->hint_after = true;
			continue;
		}
		make_blocked(r, cpu);
	}
}

/* After the switch of a newly-idle balance: its blocked-load walk. */
static void settle_blocked_after(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	if (ev->kind == CFSR_EV_SWITCH && ev->cpu >= 0 && ev->cpu < r->nr_cpus &&
	    r->rqs[ev->cpu].hint_ts && r->rqs[ev->cpu].hint_after)
		make_blocked(r, ev->cpu);
}

/*
 * A wakeup made on its CPU for a task that goes to another CPU: the
 * interrupt or softirq of a tick (an RCU or timer wakeup) emits it before
 * the __schedule() that tick's resched asked for, whose report (the pick's)
 * then follows the tick's with this in between.
 */
static bool wakes_elsewhere(const struct cfsr_event *ev)
{
	switch (ev->kind) {
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		return ev->wake.target_cpu >= 0 && ev->wake.target_cpu != ev->cpu;
	default:
		return false;
	}
}

/*
 * power:cpu_frequency: where the kernel derives arch_scale_freq_capacity()
 * from cpufreq (arm, arm64: topology_set_freq_scale(), v4.10+, through
 * arch_set_freq_scale() at each frequency change), the CPU's scale is
 * cur_freq * 1024 / cpuinfo_max_freq (the reference frequency from v6.8,
 * which is cpuinfo_max_freq unless boost frequencies lie above it).
 * Differs: an arm64 CPU with activity monitors (AMU) takes its scale from
 * them at each tick instead, which no event shows.
 */
static void on_cpu_freq(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	const struct replay_rq *rq = rq_of(r, ev->freq.cpu);
	uint64_t scale;

	if (!r->freq_events || !rq || !rq->max_khz)
		return;
	scale = (ev->freq.khz << SCHED_CAPACITY_SHIFT) / rq->max_khz;
	if (scale > SCHED_CAPACITY_SCALE)
		scale = SCHED_CAPACITY_SCALE;
	if (scale)
		cfsr_replay_set_freq_scale(r, ev->freq.cpu, (uint32_t)scale);
}

int cfsr_replay_event(struct cfsr_replay *r, const struct cfsr_event *ev)
{
	struct cfsr_task *t;
	int ret = 0;

	/* a frequency change is no event of the scheduler's paths */
	if (ev->kind == CFSR_EV_CPU_FREQ) {
		on_cpu_freq(r, ev);
		return 0;
	}

	if (keep_attach_path(r, ev) < 0)
		return -1;
	r->stats.events++;
	if (r->attach_pending)
		attach_clocked_due(r, ev);
	if (r->nice_pending)
		nice_due(r);
	if (r->nr_pulled && pull_ends(r, ev))
		flush_pulled(r);
	settle_ticks(r, ev->ts);
	settle_remote(r, ev);
	settle_blocked(r, ev);
	settle_publishers(r, ev->cpu);
	settle_runtime(r, ev);
	forced_tick_seen(r, ev);
	/* the event's own clocks (struct cfsr_replay stamp) */
	r->stamp = false;
	observe_current(r, ev);
	observe_idle(r, ev);
	if (ev->cpu >= 0 && ev->cpu < r->nr_cpus && ev->kind != CFSR_EV_STAT_RUNTIME &&
	    !wakes_elsewhere(ev))
		r->pending[ev->cpu].last_runtime_pid = 0;
	note_enqueue_cpu(r, ev);
	if (ev->kind == CFSR_EV_WAKING && task_find(r, ev->wake.pid))
		task_find(r, ev->wake.pid)->waking_ts = ev->ts;
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		ret = on_switch(r, ev);
		break;
	case CFSR_EV_STAT_RUNTIME:
		ret = on_runtime(r, ev);
		if (!ret)
			on_nice_report(r, ev);
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
	case CFSR_EV_CGROUP_ATTACH:
		ret = on_cgroup_attach(r, ev);
		break;
	case CFSR_EV_SETPRIORITY:
		on_setpriority(r, ev);
		break;
	case CFSR_EV_CGROUP_MKDIR:
		ret = on_cgroup_mkdir(r, ev);
		break;
	case CFSR_EV_CGROUP_RMDIR:
		ret = on_cgroup_rmdir(r, ev);
		break;
	default:
		break;
	}
	settle_blocked_after(r, ev);
	if (ret < 0 || r->oom)
		return cfsr_error("replay: out of memory");
	return 0;
}

struct cfsr_replay *cfsr_replay_new(int nr_cpus, const struct cfsr_profile *profile, int hz)
{
	struct cfsr_replay *r;
	unsigned int factor;
	int i;

	if (nr_cpus <= 0 || nr_cpus > 65536 || !profile)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->rqs = calloc((size_t)nr_cpus, sizeof(*r->rqs));
	r->pending = calloc((size_t)nr_cpus, sizeof(*r->pending));
	r->settle_from = UINT64_MAX;
	r->nr_cpus = nr_cpus;
	if (!r->rqs || !r->pending || group_get(r, "/") != 0) {
		cfsr_replay_free(r);
		return NULL;
	}
	for (i = 0; i < nr_cpus; i++) {
		r->rqs[i].curr = -1;
		r->rqs[i].cap = SCHED_CAPACITY_SCALE;
		r->rqs[i].freq = SCHED_CAPACITY_SCALE;
	}
	/* the v5.7+ arithmetic's parameters; the older models have their own (r->ops) */
	if (profile->pelt) {
		r->own_pelt = *profile->pelt;
		r->params = &r->own_pelt;
	}
	r->own = *profile;
	r->profile = &r->own;
	r->ops = cfsr_pelt_ops_for(profile);
	/* util_est follows the engine's own parameters where the features can change them */
	r->ue = profile->arith == CFSR_ARITH_RUNNABLE ? &r->own_pelt :
							cfsr_pelt_util_est_params(profile);
	/*
	 * the group behaviour of the profile's newest release; before v5.7 that
	 * of v5.7-v6.6 (no rate limit, an empty group reweighted, reweight_entity()
	 * whatever the weight), the arithmetic being the model's (r->ops)
	 */
	r->gparams = cfsr_group_params_for(profile->last);
	if (!r->gparams)
		r->gparams = &cfsr_group_params_v6_6;
	r->tick_nsec = 1000000000ull / (uint64_t)(hz > 0 ? hz : 250);
	/* sched_update_scaling(): factor 1 + ilog2(min(CPUs, 8)) */
	for (factor = 1, i = nr_cpus < 8 ? nr_cpus : 8; i > 1; i >>= 1)
		factor++;
	r->factor = factor;
	r->base_slice = (uint64_t)profile->base_slice_ns * factor;
	/* 6d71a9c61604 (v6.13): dropped from 6.12.11-rc2, not in 6.12.y */
	r->reweight_place = profile->eevdf && profile->first >= CFSR_KVER(6, 13, 0);
	r->infer_lags = true;
	/* a release range that straddles v6.14 is taken by its first release */
	r->exit_same = profile->first < CFSR_KVER(6, 4, 0) || profile->first >= CFSR_KVER(6, 14, 0);
	cfsr_cfs_tunables_init(&r->cfs_tu, profile, factor);
	return r;
}

void cfsr_replay_free(struct cfsr_replay *r)
{
	size_t i;

	if (!r)
		return;

	for (i = 0; r->rqs && i < (size_t)r->nr_cpus; i++)
		free(r->rqs[i].onrq);
	free(r->rqs);
	free(r->pending);
	free(r->tasks);
	free(r->map);
	free(r->pulled);
	for (i = 0; i < r->nr_cpu_names; i++)
		free(r->cpu_names[i]);
	free(r->cpu_names);
	free(r->attach_path);
	for (i = 0; i < r->nr_groups; i++)
		free(r->groups[i]);
	free(r->groups);
	for (i = 0; i < r->nr_stated; i++)
		free(r->stated[i].path);
	free(r->stated);
	free(r->tgs);
	free(r->cfs_of);
	free(r->cfs);
	free(r);
}

void cfsr_replay_take_tunables(struct cfsr_replay *r, const struct cfsr_trace_info *info)
{
	struct cfsr_sched_feats f;
	int v;

	r->sched_autogroup = info->sched_autogroup;
	/*
	 * arch_scale_cpu_capacity() where the trace gives it (the recorder's
	 * cpu_capacity): the machine's, whichever release is modelled
	 */
	for (v = 0; v < info->nr_topo && v < r->nr_cpus; v++) {
		if (info->topo[v].capacity)
			cfsr_replay_set_capacity(r, v, info->topo[v].capacity);
		r->rqs[v].max_khz = info->topo[v].max_freq_khz;
	}
	r->freq_events = cfsr_topo_freq_from_cpufreq(info);
	if (cfsr_profile_what_if(info->kernel_release, r->profile))
		return;
	v = cfsr_profile_version(info->kernel_release);
	if (v > 0)
		r->exit_same = v < CFSR_KVER(6, 4, 0) || v >= CFSR_KVER(6, 14, 0);
	if (info->base_slice_ns)
		r->base_slice = info->base_slice_ns;
	cfsr_cfs_tunables_take(&r->cfs_tu, info->latency_ns, info->min_granularity_ns,
			       info->wakeup_granularity_ns);
	if (cfsr_sched_feats_decode(&f, info) != CFSR_FEAT_UNKNOWN) {
		cfsr_sched_feats_apply(&r->own, r->profile, &f);
		if (!r->profile->eevdf)
			cfsr_sched_feats_apply_cfs(&r->cfs_tu, &f);
	}
	r->own_pelt.util_est_no_fastup = !r->own.util_est_fastup;
	/* NO_UTIL_EST: no sample, no sum (util_est_enqueue() and util_est_update() return) */
	if (!r->own.util_est && r->profile->arith == CFSR_ARITH_RUNNABLE)
		r->ue = NULL;
}

const struct cfsr_profile *cfsr_replay_profile(const struct cfsr_replay *r)
{
	return r->profile;
}

void cfsr_replay_set_hook(struct cfsr_replay *r, cfsr_replay_hook fn, void *data)
{
	r->hook = fn;
	r->hook_data = data;
}

void cfsr_replay_set_peek(struct cfsr_replay *r, cfsr_replay_peek fn, void *ctx)
{
	r->peek = fn;
	r->peek_ctx = ctx;
}

const struct cfsr_replay_stats *cfsr_replay_stats(const struct cfsr_replay *r)
{
	return &r->stats;
}

/* ---- read-only hierarchy accessors (the comparators' per-CPU load) ------------------------ */

const struct cfsr_cfs_rq *cfsr_replay_task_cfs_rq(const struct cfsr_replay *r,
						  const struct cfsr_task *t)
{
	/* cfs_of() only reads the engine */
	return cfs_of((struct cfsr_replay *)r, t->group, t->cpu);
}

const struct cfsr_cfs_rq *cfsr_replay_cfs_rq_parent(const struct cfsr_replay *r,
						    const struct cfsr_cfs_rq *cfs)
{
	if (!cfs->group || (size_t)cfs->group >= r->nr_groups)
		return NULL;
	return cfs_of((struct cfsr_replay *)r, r->tgs[cfs->group].parent, cfs->cpu);
}

/* ---- the fair pick, read-only (for the pick check) -------------------------------------- */

/* Bound on the delayed dequeues one pick completes before it gives up (see below). */
#define PICK_MAX_DELAYED 64
/* Tasks on a CPU's run queue the pick remembers from its first pass; more: it scans again. */
#define PICK_MAX_CAND 64

/* The EEVDF sums of a cfs_rq as one pick sees them: cfs->avg_vruntime/avg_load, changed locally. */
struct pick_sums {
	int64_t avg;
	int64_t load;
};

static void pick_sums_add(struct pick_sums *s, const struct cfsr_cfs_rq *cfs,
			  const struct cfsr_task *t, int64_t sign)
{
	int64_t w = (int64_t)cfsr_scale_load_down(t->load_weight);

	s->avg += sign * (int64_t)(t->vruntime - cfs->zero_vruntime) * w;
	s->load += sign * w;
}

static bool pick_eligible(const struct pick_sums *s, const struct cfsr_cfs_rq *cfs,
			  uint64_t vruntime)
{
	return vsums_eligible(cfs, s->avg, s->load, vruntime);
}

static uint64_t pick_avg_vruntime(const struct pick_sums *s, const struct cfsr_cfs_rq *cfs)
{
	return vsums_mean(cfs, s->avg, s->load);
}

static bool pick_done(const int *done, unsigned int nr, int pid)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (done[i] == pid)
			return true;
	return false;
}

static void pick_describe(struct cfsr_pick_entity *e, const struct cfsr_task *t,
			  const struct pick_sums *s, const struct cfsr_cfs_rq *cfs, bool runnable)
{
	e->pid = t->pid;
	e->runnable = runnable;
	e->eligible = pick_eligible(s, cfs, t->vruntime);
	e->vruntime = t->vruntime;
	e->deadline = t->deadline;
}

/*
 * The fair pick of a __schedule() on one cfs_rq, CFS profiles, without
 * changing the engine: a prev that blocks is dequeued first
 * (dequeue_entity(), no update_min_vruntime() effect on the pick), one
 * that stays is cfs_rq->curr; then pick_next_entity() of
 * kernel/sched/fair.c, v3.8-v6.5 (cfsr_cfs_pick_next()) under every
 * buddy state @q allows.  The CPU's list keeps the order the tasks were
 * queued in, which breaks vruntime ties as the tree does.
 */
static int cfs_pick_groups(const struct cfsr_replay *r, int cpu, const struct cfsr_pick_query *q,
			   struct cfsr_pick *out);

static int cfs_pick(const struct cfsr_replay *r, int cpu, const struct cfsr_pick_query *q,
		    struct cfsr_pick *out)
{
	struct cfsr_cfs_ent ents[PICK_MAX_CAND];
	const struct cfsr_cfs_rq *cfs = NULL;
	const struct cfsr_task *t, *prev = NULL;
	size_t i, n = 0;
	bool guessed = false;
	int k, plain, other = -1;

	for (i = 0; i < r->rqs[cpu].nr_onrq; i++) {
		t = &r->tasks[r->rqs[cpu].onrq[i]];
		if (!t->fair || t->cpu != cpu || !state_on_rq(t->state))
			continue;
		if (!cfs)
			cfs = cfs_of(r, t->group, cpu);
		else if (cfs->group != t->group)
			return cfs_pick_groups(r, cpu, q, out);
		if (t->state == CFSR_TS_RUNNING) {
			if (t->pid != q->prev_pid)
				return CFSR_PICK_NO_STATE;
			prev = t;
			if (q->prev_sleeps)
				continue;
		}
		if (n == PICK_MAX_CAND)
			return CFSR_PICK_NO_STATE;
		guessed = guessed || t->vr_guessed || !t->vr_placed;
		if (t->pid == q->other_pid)
			other = (int)n;
		ents[n++] = (struct cfsr_cfs_ent){ t->pid, t->vruntime, t->load_weight,
						   task_wmult(t), t == prev };
	}
	if (q->prev_pid > 0 && !prev) {
		/* but a prev dequeued before a newly-idle balance (newidle_dequeue()) */
		t = task_find(r, q->prev_pid);
		if (t && t->fair && !(t->nd_pending && q->prev_sleeps))
			return CFSR_PICK_NO_STATE;
	}
	out->nr_runnable = (unsigned int)n;
	if (!n)
		return 0;
	out->group = cfs->group;
	out->min_vruntime = cfs->min_vruntime;
	out->avg_vruntime = cfs->min_vruntime;
	if (guessed && n > 1)
		return CFSR_PICK_VR_UNKNOWN;
	k = cfsr_cfs_pick_buddies(&r->cfs_tu, ents, n, q->buddies, &plain);
	out->picked =
		(struct cfsr_pick_entity){ ents[plain].pid,	 true, true, ents[plain].vruntime,
					   ents[plain].vruntime, 0 };
	if (other >= 0)
		out->other = (struct cfsr_pick_entity){
			ents[other].pid, true, true, ents[other].vruntime, ents[other].vruntime, 0
		};
	else if (q->other_pid > 0)
		out->other.pid = q->other_pid;
	if (k == -2)
		return CFSR_PICK_BUDDIES;
	if (k != plain) {
		out->buddy = true;
		out->picked =
			(struct cfsr_pick_entity){ ents[k].pid,	     true, true, ents[k].vruntime,
						   ents[k].vruntime, 0 };
	}
	return out->picked.pid;
}

/* Levels one pick through the task groups follows, at most. */
#define PICK_MAX_DEPTH 16

/* One level of a pick through the groups: the cfs_rq and its choice. */
struct pick_level {
	const struct cfsr_cfs_rq *cfs;
	struct ent e;
	/* chosen as the next buddy, as the protected curr; another had its deadline */
	bool buddy;
	bool kept;
	bool tie;
};

/*
 * The group entity on @cfs that set_next_buddy() of group @g's entity marks
 * (itself or the ancestor whose parent cfs_rq is @cfs), 0 none.  With
 * @idle_stops (set_next_buddy() and set_last_buddy(), kernel/sched/fair.c,
 * v5.15-v6.18; not set_skip_buddy()): the walk up returns at the first
 * se_is_idle() entity, an idle group's, leaving its level and those above
 * unmarked.
 */
static int buddy_at(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, int g,
		    bool idle_stops)
{
	const struct cfsr_cfs_rq *c;

	for (c = cfs_of(r, g, cfs->cpu); c && c->group; c = parent_cfs(r, c)) {
		if (idle_stops && cfs_rq_is_idle(r, c))
			return 0;
		if (parent_cfs(r, c) == cfs)
			return c->group;
	}
	return 0;
}

/* cfs_rq->next of @cfs: set by this pick's dequeues, else as the caller keeps it. */
static struct cfsr_cfs_rq *level_buddy(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
				       const struct cfsr_pick_query *q, const struct cfsr_pick *out)
{
	unsigned int i;
	int g = 0;

	for (i = out->nr_buddies; i-- > 0 && !g;)
		g = buddy_at(r, cfs, out->buddies[i], true);
	if (!g && q->next_buddy)
		g = q->next_buddy(q->data, cfs);
	return g > 0 ? cfs_of(r, g, cfs->cpu) : NULL;
}

static void add_buddy(struct cfsr_pick *out, int g)
{
	if (!g)
		return;
	if (out->nr_buddies == CFSR_PICK_MAX_BUDDIES) {
		memmove(out->buddies, out->buddies + 1,
			sizeof(out->buddies) - sizeof(out->buddies[0]));
		out->nr_buddies--;
	}
	out->buddies[out->nr_buddies++] = g;
}

/*
 * Mirrors pick_next_entity() -> pick_eevdf() (kernel/sched/fair.c,
 * v6.6-v6.18; __pick_eevdf() in later releases) on one level @cfs, the
 * entities @ov dequeued left out: with one queued entity, that one (curr
 * if it is still queued); the next buddy if it is eligible (PICK_BUDDY,
 * v6.14 and 6.12.13/6.13.2 on; before, NEXT_BUDDY, off by default, kept
 * it unread); curr unless it is not eligible; curr if RUN_TO_PARITY still
 * protects it; else the eligible queued entity with the earliest
 * deadline, curr only if strictly earlier.
 * Return: false if none is queued or none is eligible.
 */
static bool level_pick(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
		       const struct pick_overlay *ov, const struct cfsr_pick_query *q,
		       const struct cfsr_pick *out, const struct cfsr_task *prev,
		       struct pick_level *lv)
{
	unsigned int n = ov_nr_queued(r, cfs, ov);
	struct ent c, e, best;
	struct cfsr_cfs_rq *nb;
	bool has_curr, curr_ok, prot, have_best = false;
	size_t i = 0;

	memset(lv, 0, sizeof(*lv));
	lv->cfs = cfs;
	if (!n)
		return false;
	has_curr = cfs_curr_ent(r, cfs, &c) && !ov_gone(ov, &c);
	if (n == 1) {
		if (has_curr) {
			lv->e = c;
			return true;
		}
		while (cfs_ent_next(r, cfs, &i, &e))
			if (!ov_gone(ov, &e)) {
				lv->e = e;
				return true;
			}
		return false;
	}
	nb = r->profile->pick_buddy ? level_buddy(r, cfs, q, out) : NULL;
	/* a delayed entity has no mark: dequeue_entity() cleared it */
	if (nb && nb->se_on_rq && !ov_gone(ov, &(struct ent){ .g = nb }) &&
	    !ent_delayed(ov, &(struct ent){ .g = nb }) && eligible(r, cfs, ov, nb->se_vruntime)) {
		lv->e = gse_ent(nb);
		lv->buddy = true;
		return true;
	}
	curr_ok = has_curr && eligible(r, cfs, ov, *c.vruntime);
	prot = has_curr && (c.t ? c.t == prev && q->prev_protected :
				  q->gse_protected && q->gse_protected(q->data, c.g));
	if (curr_ok && prot && r->profile->run_to_parity) {
		lv->e = c;
		lv->kept = true;
		return true;
	}
	while (cfs_ent_next(r, cfs, &i, &e)) {
		if (ov_gone(ov, &e) || (has_curr && ent_same(&e, &c)) ||
		    !eligible(r, cfs, ov, *e.vruntime))
			continue;
		if (have_best && *e.deadline == *best.deadline)
			lv->tie = true;
		if (!have_best || (int64_t)(*e.deadline - *best.deadline) < 0) {
			best = e;
			have_best = true;
			lv->tie = false;
		}
	}
	if (curr_ok && (!have_best || (int64_t)(*c.deadline - *best.deadline) < 0)) {
		best = c;
		have_best = true;
		lv->tie = false;
	} else if (curr_ok && have_best && *c.deadline == *best.deadline) {
		lv->tie = true;
	}
	if (!have_best)
		return false;
	lv->e = best;
	return true;
}

/*
 * The first of the @nr_lv levels of a pick whose choice is not on the
 * path to @other, the task the kernel ran (*@first; @nr_lv if none), as
 * @out->level (-1: none).  Return: the level to describe: that one, else
 * the last, with @out->buddy set where a next buddy led the path.
 */
static size_t pick_parting(const struct cfsr_replay *r, const struct pick_level *lv, size_t nr_lv,
			   const struct cfsr_task *other, struct cfsr_pick *out, size_t *first)
{
	struct ent oe;
	size_t at, i;

	for (at = 0; at < nr_lv; at++)
		if (!other || path_ent(r, lv[at].cfs, other, &oe) < 0 || !ent_same(&oe, &lv[at].e))
			break;
	if (first)
		*first = at;
	out->level = at < nr_lv ? (int)at : -1;
	if (at < nr_lv)
		return at;
	for (i = 0; i < nr_lv; i++)
		out->buddy = out->buddy || lv[i].buddy;
	return nr_lv - 1;
}

/* @e at level @cfs as a pick sees it, named by task @pid below it. */
static void level_describe(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			   const struct pick_overlay *ov, const struct ent *e, int pid,
			   bool runnable, struct cfsr_pick_entity *out)
{
	out->pid = pid;
	out->runnable = runnable;
	out->eligible = eligible(r, cfs, ov, *e->vruntime);
	out->vruntime = *e->vruntime;
	out->deadline = *e->deadline;
	out->group = e->g ? e->g->group : 0;
}

/*
 * The fair pick of a __schedule() on @cpu whose queued entities sit on
 * more than one cfs_rq, EEVDF profiles, without changing the engine:
 * before the pick, a prev that blocks is dequeued with the group entities
 * it empties (dequeue_entities(), v6.12-v6.18, dequeue_task_fair()
 * before: delayed where DELAY_DEQUEUE applies, and the walk stops at the
 * first cfs_rq that keeps weight, whose group entity becomes the next
 * buddy of the levels above, set_next_buddy()); then pick_task_fair()
 * (v6.12-v6.18; pick_next_task_fair()'s loop v6.6-v6.11): level_pick() at
 * the root, then in the cfs_rq of the group entity chosen, down to a task;
 * a delayed entity chosen is dequeued (pick_next_entity(), v6.12-v6.18,
 * dequeue_entities() with DEQUEUE_SLEEP | DEQUEUE_DELAYED, which sets a
 * next buddy the same way) and the pick starts again from the root.
 * The level at which the model's choice leaves the path to @q->other_pid
 * is reported (cfsr_pick.level).
 * Differs: as cfsr_replay_pick(); the update_curr() of each level in the
 * pick (its running entity advanced to the switch's clock) is the engine's
 * last run-time report's.
 */
static int pick_groups(const struct cfsr_replay *r, int cpu, const struct cfsr_pick_query *q,
		       const struct cfsr_task *prev, struct cfsr_pick *out)
{
	const struct cfsr_task *other = q->other_pid > 0 ? task_find(r, q->other_pid) : NULL;
	const struct cfsr_cfs_rq *cfs;
	struct pick_level lv[PICK_MAX_DEPTH];
	struct pick_overlay ov;
	struct ent e, oe;
	size_t nr_lv = 0, i, at;
	unsigned int guard;
	int buddy = 0;

	memset(&ov, 0, sizeof(ov));
	out->level = -1;
	out->groups = true;
	out->nr_runnable = prev && !q->prev_sleeps;
	for (i = 0; i < r->rqs[cpu].nr_onrq; i++)
		out->nr_runnable += r->tasks[r->rqs[cpu].onrq[i]].state == CFSR_TS_QUEUED;
	if (prev && q->prev_sleeps) {
		if (r->profile->delay_dequeue && !q->prev_special &&
		    !eligible(r, task_cfs((struct cfsr_replay *)r, prev), NULL, prev->vruntime)) {
			ov.delayed_task = prev;
		} else {
			e = task_ent((struct cfsr_task *)prev);
			if (ov_dequeue(r, &ov, &e, &buddy) < 0)
				return CFSR_PICK_NO_STATE;
			add_buddy(out, buddy);
		}
	}
	for (guard = 0;; guard++) {
		if (guard > PICK_MAX_DELAYED)
			return CFSR_PICK_NO_STATE;
		cfs = cfs_of(r, 0, cpu);
		for (nr_lv = 0; nr_lv < PICK_MAX_DEPTH; nr_lv++) {
			if (!level_pick(r, cfs, &ov, q, out, prev, &lv[nr_lv]))
				return !nr_lv && !ov_nr_queued(r, cfs, &ov) ? 0 :
									      CFSR_PICK_NO_STATE;
			e = lv[nr_lv].e;
			if (ent_delayed(&ov, &e) || e.t)
				break;
			cfs = e.g;
		}
		if (nr_lv == PICK_MAX_DEPTH)
			return CFSR_PICK_NO_STATE;
		nr_lv++;
		if (!ent_delayed(&ov, &e))
			break;
		buddy = 0;
		if (ov_dequeue(r, &ov, &e, &buddy) < 0)
			return CFSR_PICK_NO_STATE;
		add_buddy(out, buddy);
		out->nr_delayed_done++;
	}
	at = pick_parting(r, lv, nr_lv, other, out, NULL);
	cfs = lv[at].cfs;
	level_describe(r, cfs, &ov, &lv[at].e, e.t->pid, true, &out->picked);
	if (other && other->fair && other->cpu == cpu && path_ent(r, cfs, other, &oe) == 0)
		level_describe(r, cfs, &ov, &oe, other->pid,
			       other->state == CFSR_TS_QUEUED || (other == prev && !q->prev_sleeps),
			       &out->other);
	else if (other)
		out->other.pid = other->pid;
	out->avg_vruntime = avg_vruntime_ov(r, cfs, &ov);
	out->kept_curr = lv[at].kept;
	out->tie = lv[at].tie;
	out->buddy = out->buddy || lv[at].buddy;
	out->group = cfs->group;
	return out->picked.pid;
}

/* CFS profiles: the entity's vruntime derives from the start policy, not the trace. */
static bool cfs_guessed(const struct ent *e)
{
	return e->t ? e->t->vr_guessed || !e->t->vr_placed :
		      e->g->se_vr_guessed || !e->g->se_vr_placed;
}

/* The key of a CFS pick's entity: a task's pid, a group entity's group negated. */
static int cfs_key(const struct ent *e)
{
	return e->t ? e->t->pid : -e->g->group;
}

/*
 * The entity on @cfs that a buddy mark on @key leaves there, 0 none: for a
 * task (set_next_buddy(), set_last_buddy() and set_skip_buddy() mark the
 * task and every group entity above it, kernel/sched/fair.c, v3.8-v6.5)
 * the entity of @cfs on its path; for a group entity (negated group: the
 * entity at the level where check_preempt_wakeup()'s find_matching_se()
 * stopped) the entity of @cfs on its path, if @cfs lies above it.  With
 * @idle_stops (a next or last mark): set_next_buddy() and set_last_buddy()
 * never mark a SCHED_IDLE task (v3.8-v6.5) and, from v5.15, stop at the
 * first idle entity on the way up (buddy_at()).
 */
static int cfs_key_at(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs, int key,
		      bool idle_stops)
{
	const struct cfsr_cfs_rq *c;
	const struct cfsr_task *t;
	struct ent e;
	int g;

	if (key < 0) {
		g = buddy_at(r, cfs, -key, idle_stops);
		return g > 0 ? -g : 0;
	}
	t = task_find(r, key);
	if (!t || !t->fair || t->cpu != cfs->cpu || !state_on_rq(t->state) ||
	    path_ent(r, cfs, t, &e) < 0)
		return 0;
	if (idle_stops && t->idle_policy)
		return 0;
	for (c = task_cfs((struct cfsr_replay *)r, t); idle_stops && c && c != cfs;
	     c = parent_cfs(r, c))
		if (cfs_rq_is_idle(r, c))
			return 0;
	return cfs_key(&e);
}

/* The caller's buddy marks, each as the entity it leaves on @cfs. */
static void cfs_level_marks(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			    const int *in, unsigned int nr_in, struct cfsr_cfs_buddies *b,
			    int *list, unsigned int *nr, bool idle_stops)
{
	unsigned int i;
	int k;

	for (i = 0; i < nr_in; i++) {
		k = cfs_key_at(r, cfs, in[i], idle_stops);
		if (k)
			cfsr_cfs_buddies_add(b, list, nr, k);
	}
}

/* With the caller's marks unknown: a task as the caller says, any group entity. */
static bool cfs_level_may(const void *data, int key)
{
	const struct cfsr_cfs_buddies *b = data;

	return key < 0 || !b->unknown_may || b->unknown_may(b->unknown_data, key);
}

/*
 * Mirrors pick_next_entity(cfs_rq, curr) (kernel/sched/fair.c, v3.8-v6.5)
 * on one level @cfs of a pick through the groups, the entities @ov
 * dequeued left out: the entities are its queued tasks and group entities
 * by their CFS vruntimes, curr (the running entity of the level, if still
 * queued) apart; the buddies are the caller's marks as they fall on this
 * level, and the next buddy a sleep certainly left (set_next_buddy() in
 * dequeue_task_fair(): this pick's, or one the caller kept), which only a
 * later wakeup's mark may have replaced.
 * Return: 0 (@lv set; @lv->buddy when the choice is a buddy's), or a
 * negative enum cfsr_pick_status.
 */
static int cfs_level_pick(const struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
			  const struct pick_overlay *ov, const struct cfsr_pick_query *q,
			  const struct cfsr_pick *out, struct pick_level *lv)
{
	struct cfsr_cfs_ent ents[PICK_MAX_CAND];
	struct ent es[PICK_MAX_CAND], c, e;
	struct cfsr_cfs_buddies b;
	const struct cfsr_cfs_buddies *qb = q->buddies;
	const struct cfsr_cfs_rq *nb;
	bool has_curr, guessed = false;
	size_t i = 0, n = 0;
	int k, plain;

	memset(lv, 0, sizeof(*lv));
	lv->cfs = cfs;
	has_curr = cfs_curr_ent(r, cfs, &c) && !ov_gone(ov, &c);
	while (cfs_ent_next(r, cfs, &i, &e)) {
		if (ov_gone(ov, &e))
			continue;
		if (n == PICK_MAX_CAND)
			return CFSR_PICK_NO_STATE;
		guessed = guessed || cfs_guessed(&e);
		es[n] = e;
		ents[n++] = (struct cfsr_cfs_ent){ cfs_key(&e), *e.vruntime, e.weight, e.inv,
						   has_curr && ent_same(&e, &c) };
	}
	if (!n)
		return CFSR_PICK_NO_STATE;
	if (guessed && n > 1)
		return CFSR_PICK_VR_UNKNOWN;
	memset(&b, 0, sizeof(b));
	if (qb) {
		cfs_level_marks(r, cfs, qb->next, qb->nr_next, &b, b.next, &b.nr_next, true);
		cfs_level_marks(r, cfs, qb->last, qb->nr_last, &b, b.last, &b.nr_last, true);
		cfs_level_marks(r, cfs, qb->skip, qb->nr_skip, &b, b.skip, &b.nr_skip, false);
		b.unknown = b.unknown || qb->unknown;
		b.unknown_may = cfs_level_may;
		b.unknown_data = qb;
	}
	nb = level_buddy(r, cfs, q, out);
	if (nb)
		b.next_set = -nb->group;
	k = cfsr_cfs_pick_buddies(&r->cfs_tu, ents, n, &b, &plain);
	if (k == -2) {
		lv->e = es[plain];
		return CFSR_PICK_BUDDIES;
	}
	if (k < 0)
		return CFSR_PICK_NO_STATE;
	lv->e = es[k];
	lv->buddy = k != plain;
	return 0;
}

/* @e at level @cfs as a CFS pick sees it, named by task @pid below it. */
static void cfs_level_describe(const struct ent *e, int pid, bool runnable,
			       struct cfsr_pick_entity *out)
{
	out->pid = pid;
	out->runnable = runnable;
	out->eligible = true;
	out->vruntime = *e->vruntime;
	out->deadline = *e->vruntime;
	out->group = e->g ? e->g->group : 0;
}

/*
 * The fair pick of a __schedule() on @cpu whose queued tasks sit on more
 * than one cfs_rq, CFS profiles, without changing the engine: a prev that
 * blocks is dequeued with the group entities it empties, and the first
 * cfs_rq that keeps weight, if a group's, makes its group entity the next
 * buddy of the levels above (dequeue_task_fair(), set_next_buddy(),
 * v3.8-v6.5); then the loop of pick_next_task_fair() (v3.8-v6.5):
 * pick_next_entity() at the root with its curr if still queued
 * (cfs_level_pick()), then in the cfs_rq of the group entity chosen, down
 * to a task.  The level at which the choice leaves the path to
 * @q->other_pid is reported (cfsr_pick.level), with the two entities'
 * vruntimes there and the level's min_vruntime.
 * Differs: the update_curr() of each level in the pick (its running entity
 * advanced to the switch's clock) is the engine's last run-time report's;
 * throttling (CFS bandwidth) is not modelled.
 */
static int cfs_pick_groups(const struct cfsr_replay *r, int cpu, const struct cfsr_pick_query *q,
			   struct cfsr_pick *out)
{
	const struct cfsr_task *other = q->other_pid > 0 ? task_find(r, q->other_pid) : NULL;
	const struct cfsr_task *prev = NULL, *t;
	const struct cfsr_cfs_rq *cfs;
	struct pick_level lv[PICK_MAX_DEPTH];
	struct pick_overlay ov;
	struct ent e, oe;
	size_t nr_lv, i, at, first;
	int buddy = 0, ret = 0, open = -1;

	memset(&ov, 0, sizeof(ov));
	out->level = -1;
	out->groups = true;
	for (i = 0; i < r->rqs[cpu].nr_onrq; i++) {
		t = &r->tasks[r->rqs[cpu].onrq[i]];
		if (t->state == CFSR_TS_RUNNING) {
			if (t->pid != q->prev_pid)
				return CFSR_PICK_NO_STATE;
			prev = t;
		}
		out->nr_runnable += t->state == CFSR_TS_QUEUED;
	}
	if (q->prev_pid > 0 && !prev) {
		/* but a prev dequeued before a newly-idle balance (newidle_dequeue()) */
		t = task_find(r, q->prev_pid);
		if (t && t->fair && !(t->nd_pending && q->prev_sleeps))
			return CFSR_PICK_NO_STATE;
	}
	out->nr_runnable += prev && !q->prev_sleeps;
	if (prev && q->prev_sleeps) {
		e = task_ent((struct cfsr_task *)prev);
		if (ov_dequeue(r, &ov, &e, &buddy) < 0)
			return CFSR_PICK_NO_STATE;
		add_buddy(out, buddy);
	}
	cfs = cfs_of(r, 0, cpu);
	if (!ov_nr_queued(r, cfs, &ov))
		return 0;
	/* a level whose choice the buddies leave open goes on with the leftmost */
	for (nr_lv = 0; nr_lv < PICK_MAX_DEPTH; nr_lv++) {
		ret = cfs_level_pick(r, cfs, &ov, q, out, &lv[nr_lv]);
		if (ret == CFSR_PICK_BUDDIES && open < 0)
			open = (int)nr_lv;
		else if (ret < 0 && ret != CFSR_PICK_BUDDIES)
			return ret;
		e = lv[nr_lv].e;
		if (e.t)
			break;
		cfs = e.g;
	}
	if (nr_lv == PICK_MAX_DEPTH)
		return CFSR_PICK_NO_STATE;
	nr_lv++;
	at = pick_parting(r, lv, nr_lv, other, out, &first);
	/* a choice that left that path above the open level is certain */
	ret = open >= 0 && (size_t)open <= first ? CFSR_PICK_BUDDIES : 0;
	cfs = lv[at].cfs;
	cfs_level_describe(&lv[at].e, e.t->pid, true, &out->picked);
	if (other && other->fair && other->cpu == cpu && path_ent(r, cfs, other, &oe) == 0)
		cfs_level_describe(&oe, other->pid,
				   other->state == CFSR_TS_QUEUED ||
					   (other == prev && !q->prev_sleeps),
				   &out->other);
	else if (other)
		out->other.pid = other->pid;
	out->min_vruntime = cfs->min_vruntime;
	out->avg_vruntime = cfs->min_vruntime;
	out->buddy = out->buddy || lv[at].buddy;
	out->group = cfs->group;
	if (ret == CFSR_PICK_BUDDIES)
		return ret;
	return out->picked.pid;
}

/*
 * Mirrors find_matching_se() (kernel/sched/fair.c, v3.8-v6.5): from two
 * tasks on one CPU, up to the lowest cfs_rq both lie below, and the entity
 * of each there (the task, or the group entity above it).
 */
int cfsr_replay_cfs_match(const struct cfsr_replay *r, const struct cfsr_task *a,
			  const struct cfsr_task *b, struct cfsr_cfs_ent *se,
			  struct cfsr_cfs_ent *pse, bool *guessed)
{
	const struct cfsr_cfs_rq *x;
	struct ent ea, eb;

	if (!a || !b || !a->fair || !b->fair || a->cpu != b->cpu || a->cpu < 0)
		return -1;
	for (x = cfs_of(r, a->group, a->cpu); x; x = parent_cfs(r, x)) {
		if (path_ent(r, x, b, &eb) < 0 || path_ent(r, x, a, &ea) < 0)
			continue;
		*se = (struct cfsr_cfs_ent){ cfs_key(&ea), *ea.vruntime, ea.weight, ea.inv, false };
		*pse = (struct cfsr_cfs_ent){ cfs_key(&eb), *eb.vruntime, eb.weight, eb.inv,
					      false };
		*guessed = cfs_guessed(&ea) || cfs_guessed(&eb);
		return 0;
	}
	return -1;
}

/*
 * Mirrors, without changing the engine, the fair pick of a __schedule()
 * on one cfs_rq: pick_task_fair() -> pick_next_entity() -> pick_eevdf()
 * (kernel/sched/fair.c, v6.6-v6.18; later split out as __pick_eevdf(),
 * release not pinned).  Before the pick, a prev that blocks is dequeued
 * (dequeue_entity(), v6.6-v6.18)
 * unless DELAY_DEQUEUE keeps it, delayed, because it is not eligible
 * (v6.12-v6.18); a prev that stays runnable is cfs_rq->curr.  The pick:
 * with one queued entity, that one; else curr is dropped unless it is
 * eligible; an eligible curr still protected by RUN_TO_PARITY (when the
 * profile, or the trace's own features, have it on; v6.6-v6.18:
 * deadline not renewed since its pick: "vlag == deadline" from v6.6,
 * "vruntime < vprot" from about v6.17, the same with equal slices) is kept;
 * otherwise the eligible entity with the earliest deadline, curr only if
 * strictly earlier than the best queued one.  A delayed entity so picked is
 * dequeued (pick_next_entity(), v6.12-v6.18: dequeue_entities() with
 * DEQUEUE_DELAYED) and the pick starts again without it.
 * Differs: equal deadlines are reported, not broken (the kernel takes the
 * entity queued first); the next buddy (cfs_rq->next, read under
 * NEXT_BUDDY or PICK_BUDDY, set for tasks only by yield_to() and by
 * NEXT_BUDDY wakeups, off by default), sched_yield() and custom slices
 * (sched_attr.sched_runtime, PREEMPT_SHORT) are not seen in a trace.
 */
int cfsr_replay_pick(const struct cfsr_replay *r, int cpu, const struct cfsr_pick_query *q,
		     struct cfsr_pick *out)
{
	const struct cfsr_cfs_rq *cfs = NULL;
	const struct cfsr_task *prev = NULL, *other = NULL, *best, *only, *t;
	const struct cfsr_task *cand[PICK_MAX_CAND];
	size_t nr_cand = 0, nr_scan;
	int done[PICK_MAX_DELAYED];
	bool prev_on_rq = false, prev_delayed = false, other_runnable = false, curr_ok,
	     mixed = false;
	struct pick_sums s;
	unsigned int nr;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->level = -1;
	if (cpu < 0 || cpu >= r->nr_cpus || r->rqs[cpu].curr < 0 ||
	    r->rqs[cpu].curr != (q->prev_pid > 0 ? q->prev_pid : 0))
		return CFSR_PICK_NO_STATE;
	if (!r->profile->eevdf)
		return cfs_pick(r, cpu, q, out);
	if (q->other_pid > 0)
		other = task_find(r, q->other_pid);
	for (i = 0; i < r->rqs[cpu].nr_onrq; i++) {
		t = &r->tasks[r->rqs[cpu].onrq[i]];
		if (t->state == CFSR_TS_QUEUED)
			out->nr_runnable++;
		if (nr_cand <= PICK_MAX_CAND) {
			if (nr_cand < PICK_MAX_CAND)
				cand[nr_cand] = t;
			nr_cand++;
		}
		if (t->state == CFSR_TS_RUNNING) {
			if (t->pid != q->prev_pid)
				return CFSR_PICK_NO_STATE;
			prev = t;
		}
		if (!cfs)
			cfs = &r->cfs[(size_t)t->group * (size_t)r->nr_cpus + (size_t)cpu];
		else if (cfs->group != t->group)
			mixed = true;
	}
	if (q->prev_pid > 0 && !prev) {
		/*
		 * a fair prev the model does not have running here, but one
		 * dequeued already before a newly-idle balance (newidle_dequeue())
		 */
		t = task_find(r, q->prev_pid);
		if (t && t->fair && !(t->nd_pending && q->prev_sleeps))
			return CFSR_PICK_NO_STATE;
	}
	if (mixed)
		return pick_groups(r, cpu, q, prev, out);
	if (!cfs)
		return 0;
	s.avg = cfs->avg_vruntime;
	s.load = (int64_t)cfs->avg_load;
	if (prev) {
		pick_sums_add(&s, cfs, prev, 1);
		prev_on_rq = !q->prev_sleeps;
		if (q->prev_sleeps && r->profile->delay_dequeue && !q->prev_special &&
		    !pick_eligible(&s, cfs, prev->vruntime))
			prev_on_rq = prev_delayed = true;
		if (!prev_on_rq)
			pick_sums_add(&s, cfs, prev, -1);
	}
	if (other && other->fair && other->cpu == cpu &&
	    (other->state == CFSR_TS_QUEUED || (other == prev && !q->prev_sleeps)))
		other_runnable = true;
	if (prev && !q->prev_sleeps)
		out->nr_runnable++;
	/* the tasks of the first pass, or the CPU's list again when they did not fit */
	nr_scan = nr_cand <= PICK_MAX_CAND ? nr_cand : r->rqs[cpu].nr_onrq;
	for (;;) {
		best = only = NULL;
		nr = 0;
		out->tie = false;
		for (i = 0; i < nr_scan; i++) {
			t = nr_cand <= PICK_MAX_CAND ? cand[i] : &r->tasks[r->rqs[cpu].onrq[i]];
			if (!t->fair || t->cpu != cpu || !state_on_rq(t->state) ||
			    pick_done(done, out->nr_delayed_done, t->pid))
				continue;
			if (t == prev) {
				if (!prev_on_rq)
					continue;
				nr++;
				only = t;
				continue;
			}
			nr++;
			only = t;
			if (!pick_eligible(&s, cfs, t->vruntime))
				continue;
			if (best && t->deadline == best->deadline)
				out->tie = true;
			if (!best || (int64_t)(t->deadline - best->deadline) < 0) {
				best = t;
				out->tie = false;
			}
		}
		if (!nr)
			break;
		curr_ok = prev && prev_on_rq && !prev_delayed &&
			  pick_eligible(&s, cfs, prev->vruntime);
		if (nr == 1) {
			best = only;
			out->tie = false;
		} else if (curr_ok && q->prev_protected && r->profile->run_to_parity) {
			best = prev;
			out->kept_curr = true;
			out->tie = false;
		} else if (curr_ok && (!best || (int64_t)(prev->deadline - best->deadline) < 0)) {
			best = prev;
			out->tie = false;
		} else if (curr_ok && best && prev->deadline == best->deadline) {
			out->tie = true;
		}
		if (!best)
			return CFSR_PICK_NO_STATE; /* nothing eligible: the sums are not the kernel's */
		if (best->state != CFSR_TS_DELAYED && !(best == prev && prev_delayed)) {
			out->avg_vruntime = pick_avg_vruntime(&s, cfs);
			pick_describe(&out->picked, best, &s, cfs, true);
			break;
		}
		if (out->nr_delayed_done == PICK_MAX_DELAYED)
			return CFSR_PICK_NO_STATE;
		done[out->nr_delayed_done++] = best->pid;
		pick_sums_add(&s, cfs, best, -1);
		if (best == prev)
			prev_on_rq = false;
	}
	if (!out->picked.pid)
		out->avg_vruntime = pick_avg_vruntime(&s, cfs);
	if (other)
		pick_describe(&out->other, other, &s, cfs, other_runnable);
	out->group = cfs->group;
	return out->picked.pid;
}

/* ---- EEVDF state taken from kernel readings (lock-step) ------------------------------------ */

/*
 * A kernel reading fires inside update_load_avg() (pelt_se_tp,
 * pelt_cfs_tp), kernel/sched/fair.c v6.12-v6.18, after the path's
 * update_curr() and before its later steps:
 *  - enqueue_entity(): before place_entity() and __enqueue_entity() (the
 *    entity is not on_rq yet): its vlag, slice and relative deadline are
 *    what the placement will read; its vruntime is the stale one;
 *  - dequeue_entity(): before set_delayed() or update_entity_lag() (the
 *    entity is still on_rq): its vruntime and deadline are those the
 *    eligibility test of the delayed dequeue sees; its vlag is stale;
 *  - set_next_entity(), put_prev_entity(), entity_tick(),
 *    requeue_delayed_entity(): a queued entity's vruntime and deadline.
 * So a queued entity gives its vruntime, deadline and slice, one off its
 * cfs_rq its vlag, slice and (relative) deadline.
 */
static int ent_take_eevdf(struct cfsr_cfs_rq *cfs, const struct ent *e, bool in_sums,
			  const struct cfsr_eevdf *k)
{
	*e->slice = k->slice;
	if (!k->queued) {
		/* se->vlag, set by update_entity_lag() at the last dequeue */
		*e->vlag = k->vlag;
		if (e->t) {
			e->t->lag_seen = true;
			e->t->lag_guessed = false;
		} else {
			e->g->se_lag_seen = true;
			e->g->se_lag_guessed = false;
		}
		*e->rel_deadline = k->rel_deadline;
		if (k->rel_deadline)
			*e->deadline = k->deadline;
		return 1;
	}
	if (!cfs->eevdf_framed)
		return 1;
	if (in_sums) {
		/* __dequeue_entity() and __enqueue_entity() at the new key */
		avg_vruntime_account(cfs, *e->vruntime, ent_weight(e), -1);
		avg_vruntime_account(cfs, k->vruntime, ent_weight(e), 1);
	}
	*e->vruntime = k->vruntime;
	if (!k->rel_deadline) {
		*e->deadline = k->deadline;
		*e->rel_deadline = false;
	}
	return 1;
}

int cfsr_replay_task_take_eevdf(struct cfsr_replay *r, struct cfsr_task *t,
				const struct cfsr_eevdf *k)
{
	struct cfsr_cfs_rq *cfs = task_cfs(r, t);
	struct ent e = task_ent(t);
	bool queued = t->fair && state_on_rq(t->state);

	if (!r->profile->eevdf || !cfs || queued != k->queued)
		return 0;
	return ent_take_eevdf(cfs, &e, queued && t->state != CFSR_TS_RUNNING, k);
}

int cfsr_replay_gse_take_eevdf(struct cfsr_replay *r, struct cfsr_cfs_rq *g,
			       const struct cfsr_eevdf *k)
{
	struct cfsr_cfs_rq *p = g->group ? parent_cfs(r, g) : NULL;
	struct ent e = gse_ent(g);

	if (!r->profile->eevdf || !p || g->se_on_rq != k->queued)
		return 0;
	return ent_take_eevdf(p, &e, g->se_in_sums, k);
}

bool cfsr_replay_gse_lag_guessed(const struct cfsr_replay *r, const struct cfsr_cfs_rq *g)
{
	return !gse_made_in_trace(r, g) && (!g->se_lag_seen || g->se_lag_guessed);
}

/*
 * The task of @state and @weight queued, delayed or running on @cfs
 * itself (its CPU's rq->onrq list), or NULL.
 */
static struct cfsr_task *onrq_task(struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs,
				   enum cfsr_task_state state, uint64_t weight)
{
	const struct replay_rq *rq = &r->rqs[cfs->cpu];
	size_t i;

	for (i = 0; i < rq->nr_onrq; i++) {
		struct cfsr_task *t = &r->tasks[rq->onrq[i]];

		if (t->state == state && t->load_weight == weight && task_cfs(r, t) == cfs)
			return t;
	}
	return NULL;
}

/* Dequeue the delayed tasks at or below @cfs (take_queued()), lag 0. */
static void drop_delayed_below(struct cfsr_replay *r, const struct cfsr_cfs_rq *cfs)
{
	const struct replay_rq *rq = &r->rqs[cfs->cpu];
	size_t i;

	/* from the end: set_state() takes a task out of the list */
	for (i = rq->nr_onrq; i-- > 0;) {
		struct cfsr_task *t = &r->tasks[rq->onrq[i]];
		const struct cfsr_cfs_rq *c;

		if (t->state != CFSR_TS_DELAYED)
			continue;
		for (c = task_cfs(r, t); c && c != cfs && c->group; c = parent_cfs(r, c))
			;
		if (c != cfs)
			continue;
		t->vlag = 0;
		set_state(r, t, CFSR_TS_SLEEPING);
	}
}

/*
 * A cfs_rq record shows one more entity than the engine has, of the
 * weight of a group entity the engine dequeued since the cfs_rq's last
 * reading, whose own cfs_rq is empty: the kernel kept it queued, delayed
 * (dequeue_entity() with DELAY_DEQUEUE, the entity not eligible,
 * kernel/sched/fair.c, v6.12-v6.18), where the engine's vruntimes, not
 * the kernel's, judged it eligible.  It is queued again, delayed, with
 * the vruntime it left with (set_delayed() keeps it).  Return: 1 when
 * one was, 0 otherwise.
 */
static int gse_take_delayed(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t diff,
			    uint64_t since)
{
	struct cfsr_cfs_rq *g, *found = NULL;
	size_t i;

	for (i = 1; i < r->nr_groups; i++) {
		g = cfs_of(r, (int)i, cfs->cpu);
		if (!g || g->se_on_rq || g->se_weight != diff || g->h_nr_queued ||
		    parent_cfs(r, g) != cfs || g->se_left_ts <= since)
			continue;
		if (found)
			return 0;
		found = g;
	}
	if (!found)
		return 0;
	found->se_delayed = true;
	gse_join(r, found, cfs);
	r->stats.gse_delayed_taken++;
	return 1;
}

int cfsr_replay_cfs_rq_take_queued(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t weight,
				   unsigned int nr_queued)
{
	uint64_t since = cfs->queued_read_ts, diff;
	struct cfsr_task *t, *last = NULL;
	size_t i;

	cfs->queued_read_ts = r->cur_ts;
	if (!r->profile->eevdf || !r->profile->delay_dequeue)
		return 0;
	if (weight > cfs->load_weight && nr_queued == cfs_nr_queued(cfs) + 1 && since) {
		/* a sleeper is not on the rq's list: every task is looked at */
		diff = weight - cfs->load_weight;
		for (i = 0; i < r->nr_tasks; i++) {
			t = &r->tasks[i];
			if (t->state == CFSR_TS_SLEEPING && t->fair && t->load_weight == diff &&
			    t->sleep_ts > since && task_cfs(r, t) == cfs &&
			    (!last || t->sleep_ts > last->sleep_ts))
				last = t;
		}
		if (last) {
			set_state(r, last, CFSR_TS_DELAYED);
			return 1;
		}
		return gse_take_delayed(r, cfs, diff, since);
	}
	if (cfs->load_weight <= weight || cfs_nr_queued(cfs) != nr_queued + 1)
		return 0;
	diff = cfs->load_weight - weight;
	t = onrq_task(r, cfs, CFSR_TS_DELAYED, diff);
	if (t) {
		t->vlag = 0;
		set_state(r, t, CFSR_TS_SLEEPING);
		return 1;
	}
	t = onrq_task(r, cfs, CFSR_TS_QUEUED, diff);
	if (t && t->attach_pending) {
		/*
		 * A load balance or the migration stopper moved it here and
		 * its attach is due: the records of its enqueue_entity() come
		 * from update_load_avg(), before account_entity_enqueue()
		 * counts it (kernel/sched/fair.c, v6.12-v6.18).  Off the
		 * cfs_rq until the attach, where it is counted again with the
		 * place it took at the migration (attach_task()).
		 */
		set_state_levels(r, t, CFSR_TS_SLEEPING, LEVELS_KEEP);
		t->requeue_at_attach = true;
		r->stats.attach_records_before++;
		return 1;
	}
	/*
	 * A task the model has waiting since a wakeup, which the kernel no
	 * longer has: it ran and blocked, and the trace lost the switches
	 * (these machines lose CPU1's around idle).
	 */
	if (t && r->rqs[cfs->cpu].curr != t->pid) {
		task_lag(r, cfs, t);
		set_state(r, t, CFSR_TS_SLEEPING);
		t->sleep_guessed = true;
		t->guess_ts = r->cur_ts;
		r->stats.lost_sleeps++;
		return 1;
	}
	for (i = 1; i < r->nr_groups; i++) {
		struct cfsr_cfs_rq *g = cfs_of(r, (int)i, cfs->cpu);

		if (!g || !g->se_on_rq || !g->se_delayed || g->se_weight != diff ||
		    parent_cfs(r, g) != cfs)
			continue;
		drop_delayed_below(r, g);
		if (g->se_on_rq) {
			g->se_vlag = 0;
			gse_leave(r, g);
			reweight_groups(r, cfs->group, cfs->cpu);
		}
		return 1;
	}
	return 0;
}

int cfsr_replay_task_take_weight(struct cfsr_replay *r, struct cfsr_task *t, uint64_t weight)
{
	int prio;

	if (!t->fair || t->load_weight == weight)
		return 0;
	for (prio = 100; prio < 140 && cfsr_prio_to_load_weight(prio) != weight; prio++)
		;
	if (prio == 140 && weight != cfsr_idle_load_weight())
		return 0;
	task_account(r, t, -1);
	t->idle_policy = prio == 140;
	if (prio < 140)
		t->prio = prio;
	t->load_weight = task_weight_at(t, t->prio);
	task_account(r, t, 1);
	return 1;
}

int cfsr_replay_task_take_exec_start(struct cfsr_replay *r, struct cfsr_task *t,
				     uint64_t exec_start)
{
	if (!t->fair || t->state != CFSR_TS_RUNNING || t->updates != t->set_next_updates ||
	    t->exec_start != t->set_next_clock || exec_start == t->set_next_clock ||
	    exec_start < t->pre_set_next.last_update_time)
		return 0;
	redo_set_next(r, t, exec_start);
	t->exec_start = exec_start;
	t->exec_known = true;
	return 1;
}

int cfsr_replay_task_take_delayed(struct cfsr_replay *r, struct cfsr_task *t, int cpu)
{
	if (!r->profile->eevdf || !r->profile->delay_dequeue || !t->fair || t->dead ||
	    t->state != CFSR_TS_SLEEPING || t->cpu != cpu || !task_cfs(r, t))
		return 0;
	if (t->rel_deadline) {
		t->deadline += t->vruntime;
		t->rel_deadline = false;
	}
	set_state(r, t, CFSR_TS_DELAYED);
	return 1;
}

int cfsr_replay_task_take_dequeued(struct cfsr_replay *r, struct cfsr_task *t)
{
	if (!r->profile->eevdf || t->state != CFSR_TS_DELAYED)
		return 0;
	set_state(r, t, CFSR_TS_SLEEPING);
	return 1;
}

/* Move the entities queued on @cfs by @shift virtual ns (the base with them). */
static void cfs_shift_vruntimes(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs, uint64_t shift)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++) {
		struct cfsr_task *t = &r->tasks[i];

		if (!t->fair || !state_on_rq(t->state) || task_cfs(r, t) != cfs)
			continue;
		t->vruntime += shift;
		if (!t->rel_deadline)
			t->deadline += shift;
	}
	for (i = 0; i < r->nr_cfs; i++) {
		struct cfsr_cfs_rq *g = &r->cfs[i];

		if (!g->group || !g->se_on_rq || parent_cfs(r, g) != cfs)
			continue;
		g->se_vruntime += shift;
		if (!g->se_rel_deadline)
			g->se_deadline += shift;
	}
	cfs->zero_vruntime += shift;
}

int cfsr_replay_cfs_rq_take_eevdf(struct cfsr_replay *r, struct cfsr_cfs_rq *cfs,
				  const struct cfsr_eevdf_sums *k)
{
	int64_t avg = k->avg_vruntime, load = (int64_t)k->avg_load, delta;

	if (!r->profile->eevdf)
		return -1;
	if (!cfs->eevdf_framed) {
		/* the kernel's avg_vruntime(): the queued curr added, rounded down */
		if (k->curr_weight) {
			int64_t w = (int64_t)cfsr_scale_load_down(k->curr_weight);

			avg += (int64_t)(k->curr_vruntime - k->zero_vruntime) * w;
			load += w;
		}
		if (load) {
			if (avg < 0)
				avg -= load - 1;
			avg /= load;
		} else {
			avg = 0;
		}
		cfs_shift_vruntimes(r, cfs,
				    k->zero_vruntime + (uint64_t)avg - avg_vruntime(r, cfs));
		cfs->eevdf_framed = true;
	}
	/* update_zero_vruntime() (v6.18): a change of base of the sums */
	delta = (int64_t)(k->zero_vruntime - cfs->zero_vruntime);
	cfs->avg_vruntime -= delta * (int64_t)cfs->avg_load;
	cfs->zero_vruntime = k->zero_vruntime;
	return cfs->avg_vruntime == k->avg_vruntime && cfs->avg_load == k->avg_load;
}

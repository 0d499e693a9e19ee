// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lasting imbalance (see imbalance.h).
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "imbalance-local.h"
#include "math.h"
#include "profile.h"

/* Where closed windows are counted: the pairs of CPUs, or the groups of CPUs. */
struct imb_sink {
	struct cfsr_imb_totals tot;
	/* the longest lasting windows, longest first */
	struct cfsr_imb_window *top;
	int nr_top;
};

struct cfsr_imbalance {
	struct cfsr_imb_params p;
	bool open;
	struct cfsr_imb_window cur;
	struct imb_sink cpus;
	/* per domain level whose groups hold several CPUs, its open group window */
	bool gopen[CFSR_TOPO_MAX_LEVELS];
	struct cfsr_imb_window gcur[CFSR_TOPO_MAX_LEVELS];
	struct imb_sink groups;
	/* scratch per CPU: a group's statistics by its id; L's CPUs */
	struct cfsr_sg_stats *sg;
	bool *lmask;
	/* the last event opened @cur */
	bool opened;
	/* every counted window (params.keep_all) */
	struct cfsr_imb_window *all;
	size_t nr_all, max_all;
	/* a growing @all failed */
	bool oom;
};

static const char *const end_names[CFSR_IMB_NR_ENDS] = { "migration", "balanced", "trace-end" };

static const char *const class_names[CFSR_IMB_NR_CLASSES] = { "allowed", "aff-unknown",
							      "affinity-bound" };

const char *cfsr_imb_end_name(enum cfsr_imb_end why)
{
	return why < CFSR_IMB_NR_ENDS ? end_names[why] : "?";
}

const char *cfsr_imb_class_name(enum cfsr_imb_class c)
{
	return c < CFSR_IMB_NR_CLASSES ? class_names[c] : "?";
}

const char *cfsr_migration_type_name(enum cfsr_migration_type t)
{
	switch (t) {
	case CFSR_MIGRATE_LOAD:
		return "migrate_load";
	case CFSR_MIGRATE_UTIL:
		return "migrate_util";
	case CFSR_MIGRATE_TASK:
		return "migrate_task";
	}
	return "?";
}

struct cfsr_imbalance *cfsr_imb_new(const struct cfsr_imb_params *p)
{
	struct cfsr_imbalance *im;

	if (p->nr_cpus <= 0 || p->imbalance_pct < 100 || p->top < 0) {
		cfsr_error("imbalance: bad parameters");
		return NULL;
	}
	im = calloc(1, sizeof(*im));
	if (!im)
		goto fail;
	im->p = *p;
	im->cpus.top = calloc((size_t)p->top + 1, sizeof(*im->cpus.top));
	im->groups.top = calloc((size_t)p->top + 1, sizeof(*im->groups.top));
	im->sg = calloc((size_t)p->nr_cpus, sizeof(*im->sg));
	im->lmask = calloc((size_t)p->nr_cpus, sizeof(*im->lmask));
	if (!im->cpus.top || !im->groups.top || !im->sg || !im->lmask)
		goto fail;
	return im;
fail:
	cfsr_imb_free(im);
	cfsr_error("imbalance: out of memory");
	return NULL;
}

void cfsr_imb_free(struct cfsr_imbalance *im)
{
	if (!im)
		return;
	free(im->cpus.top);
	free(im->groups.top);
	free(im->sg);
	free(im->lmask);
	free(im->all);
	free(im);
}

/* The part of [from, to) inside the counted window of time. */
static uint64_t clipped(const struct cfsr_imbalance *im, uint64_t from, uint64_t to)
{
	if (from < im->p.win_start)
		from = im->p.win_start;
	if (to > im->p.win_end)
		to = im->p.win_end;
	return to > from ? to - from : 0;
}

static void keep_top(const struct cfsr_imbalance *im, struct imb_sink *k,
		     const struct cfsr_imb_window *w)
{
	uint64_t d = w->end - w->start;
	int i;

	if (!im->p.top)
		return;
	for (i = k->nr_top; i > 0; i--) {
		const struct cfsr_imb_window *o = &k->top[i - 1];

		if (o->end - o->start >= d)
			break;
	}
	if (i >= im->p.top)
		return;
	if (k->nr_top < im->p.top)
		k->nr_top++;
	memmove(&k->top[i + 1], &k->top[i], (size_t)(k->nr_top - 1 - i) * sizeof(*k->top));
	k->top[i] = *w;
}

static void keep_all(struct cfsr_imbalance *im, const struct cfsr_imb_window *w)
{
	struct cfsr_imb_window *n;
	size_t max;

	if (!im->p.keep_all || im->oom)
		return;
	if (im->nr_all == im->max_all) {
		max = im->max_all ? 2 * im->max_all : 64;
		n = realloc(im->all, max * sizeof(*n));
		if (!n) {
			im->oom = true;
			return;
		}
		im->all = n;
		im->max_all = max;
	}
	im->all[im->nr_all++] = *w;
}

/* Whether --cpu keeps @w: that CPU is B or L, or in B's or L's group. */
static bool filter_keeps(const struct cfsr_imbalance *im, const struct cfsr_imb_window *w)
{
	int c = im->p.filter_cpu;
	const int *span;

	if (c < 0 || w->busiest == c || w->local == c)
		return true;
	if (!w->group || c >= im->p.nr_cpus)
		return false;
	span = im->p.topo->levels[w->level - 1].span;
	return span[c] == w->busiest || span[c] == w->local;
}

static void close_window(struct cfsr_imbalance *im, struct imb_sink *k, struct cfsr_imb_window *w,
			 bool *open, uint64_t ts, enum cfsr_imb_end why)
{
	struct cfsr_imb_totals *t = &k->tot;
	uint64_t counted;

	if (!*open)
		return;
	*open = false;
	w->end = ts;
	w->why = why;
	if (!filter_keeps(im, w))
		return;
	counted = clipped(im, w->start, w->end);
	/* a window entirely outside --time is not counted */
	if (!counted && (w->end <= im->p.win_start || w->start >= im->p.win_end))
		return;
	t->windows++;
	t->level_windows[w->level]++;
	if (!w->group)
		keep_all(im, w);
	if (w->end - w->start > w->interval_ns) {
		t->lasting++;
		t->level_lasting[w->level]++;
		t->level_lasting_ns[w->level] += counted;
		t->lasting_ns[w->class] += counted;
		t->ended[why]++;
		if (w->end - w->start > t->longest_ns)
			t->longest_ns = w->end - w->start;
		keep_top(im, k, w);
	} else {
		t->transient_ns += counted;
	}
	if (w->end - w->start > w->max_interval_ns) {
		t->beyond_max++;
		t->beyond_max_ns += counted;
		t->level_beyond_max[w->level]++;
	}
}

static void close_cpus(struct cfsr_imbalance *im, uint64_t ts, enum cfsr_imb_end why)
{
	close_window(im, &im->cpus, &im->cur, &im->open, ts, why);
}

/* How a task may go to a CPU of @lmask: allowed on one, else unknown on one, else bound. */
static enum cfsr_imb_class task_class(const struct cfsr_imbalance *im, const struct cfsr_iww *iw,
				      int pid, const bool *lmask)
{
	enum cfsr_imb_class best = CFSR_IMB_AFF_BOUND;
	int c;

	for (c = 0; c < im->p.nr_cpus; c++) {
		if (!lmask[c])
			continue;
		switch (cfsr_iww_allowed(iw, pid, c)) {
		case CFSR_ALLOWED_YES:
			return CFSR_IMB_ALLOWED;
		case CFSR_ALLOWED_UNKNOWN:
			best = CFSR_IMB_AFF_UNKNOWN;
			break;
		default:
			break;
		}
	}
	return best;
}

/*
 * The lightest waiting task of @b that fits the imbalance @imb of @type,
 * preferring one allowed on a CPU of @lmask (L, or L's group:
 * can_migrate_task() tries another CPU of the local group,
 * LBF_DST_PINNED), then one whose affinity is unknown, then a bound one.
 * detach_tasks() (kernel/sched/fair.c, v5.7-v6.18) takes a task whose
 * task_h_load() is at most the imbalance for migrate_load, whose
 * task_util_est() is for migrate_util, any for migrate_task.
 * Return: false when no waiting task fits the imbalance.
 */
static bool pick_task(const struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
		      const struct cfsr_iww *iw, int b, const bool *lmask, uint64_t imb,
		      enum cfsr_migration_type type, struct cfsr_imb_window *w)
{
	const int *pids;
	size_t i, n = cfsr_cpuload_on(cl, b, &pids);
	enum cfsr_imb_class c;
	uint64_t load, fit;
	bool found = false;
	int cpu;

	for (i = 0; i < n; i++) {
		if (!cfsr_cpuload_waiting(cl, pids[i]))
			continue;
		/*
		 * detach_tasks(), v5.8-v6.18 (stable v4.4+): max(task_h_load(), 1),
		 * so that a task whose h_load rounds to 0 still counts
		 */
		load = cfsr_cpuload_task(cl, pids[i], &cpu);
		if (!load)
			load = 1;
		fit = type == CFSR_MIGRATE_LOAD ? load :
		      type == CFSR_MIGRATE_UTIL ? cfsr_cpuload_task_util(cl, pids[i]) :
						  1;
		if (fit > imb)
			continue;
		c = task_class(im, iw, pids[i], lmask);
		if (found && (c > w->class ||
			      (c == w->class && (load > w->task_load ||
						 (load == w->task_load && pids[i] > w->task)))))
			continue;
		found = true;
		w->class = c;
		w->task = pids[i];
		w->task_load = load;
	}
	return found;
}

/* The pair the balancer would act on now, per the rule of imbalance.h. */
static uint64_t cpu_load(const struct cfsr_cpuload *cl, const uint64_t *loads, int c)
{
	return loads ? loads[c] : cfsr_cpuload_now(cl, c);
}

/*
 * The busy intervals of level @lv's domain of @cpu into @w (the shortest,
 * and the longest load_balance()'s doubling reaches); its imbalance_pct.
 */
static unsigned int level_intervals(const struct cfsr_imbalance *im, int lv, int cpu,
				    struct cfsr_imb_window *w)
{
	const struct cfsr_topo_level *l = &im->p.topo->levels[lv];

	if (l->recorded)
		w->interval_ns = cfsr_topo_busy_interval_ns(im->p.topo, lv, cpu, im->p.hz);
	else if (im->p.interval_by_weight && l->weight[cpu] <= im->p.nr_cpus)
		w->interval_ns = im->p.interval_by_weight[l->weight[cpu]];
	w->max_interval_ns = cfsr_topo_max_busy_interval_ns(im->p.topo, lv, cpu, im->p.hz);
	if (w->max_interval_ns < w->interval_ns)
		w->max_interval_ns = w->interval_ns;
	return l->imbalance_pct;
}

static bool find_pair(struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
		      const struct cfsr_iww *iw, const uint64_t *loads, struct cfsr_imb_window *w)
{
	uint64_t b_load = 0, l_load = 0, avg, imb;
	unsigned int pct;
	const int *pids;
	int c, b = -1, l = -1;
	size_t i, n;

	for (c = 0; c < im->p.nr_cpus; c++) {
		n = cfsr_cpuload_on(cl, c, &pids);
		if (n < 2)
			continue;
		for (i = 0; i < n && !cfsr_cpuload_waiting(cl, pids[i]); i++)
			;
		if (i == n)
			continue;
		if (b < 0 || cpu_load(cl, loads, c) > b_load) {
			b = c;
			b_load = cpu_load(cl, loads, c);
		}
	}
	if (b < 0)
		return false;
	for (c = 0; c < im->p.nr_cpus; c++) {
		if (c == b || cfsr_cpuload_nr(cl, c) < 1)
			continue;
		if (l < 0 || cpu_load(cl, loads, c) < l_load) {
			l = c;
			l_load = cpu_load(cl, loads, c);
		}
	}
	if (l < 0 || l_load >= b_load)
		return false;
	w->level = 0;
	w->interval_ns = im->p.interval_ns;
	w->max_interval_ns = im->p.max_interval_ns;
	pct = im->p.imbalance_pct;
	if (im->p.topo && cfsr_topo_level_of(im->p.topo, b, l) >= 0) {
		w->level = cfsr_topo_level_of(im->p.topo, b, l);
		pct = level_intervals(im, w->level, b, w);
	}
	/* two overloaded groups: the imbalance_pct test */
	if (cfsr_cpuload_nr(cl, l) >= 2 && 100 * b_load <= (uint64_t)pct * l_load)
		return false;
	avg = (b_load + l_load) / 2;
	imb = b_load - avg < avg - l_load ? b_load - avg : avg - l_load;
	memset(im->lmask, 0, (size_t)im->p.nr_cpus * sizeof(*im->lmask));
	im->lmask[l] = true;
	if (!pick_task(im, cl, iw, b, im->lmask, imb, CFSR_MIGRATE_LOAD, w))
		return false;
	w->busiest_cpu = b;
	w->busiest = b;
	w->local = l;
	w->busiest_load = b_load;
	w->local_load = l_load;
	w->busiest_nr = cfsr_cpuload_nr(cl, b);
	w->local_nr = cfsr_cpuload_nr(cl, l);
	return true;
}

/* Level @lv compares groups of CPUs: it is above the lowest and a group below holds several. */
static bool group_level(const struct cfsr_imbalance *im, int lv)
{
	int c;

	if (!im->p.topo || lv < 1 || lv >= im->p.topo->nr_levels)
		return false;
	for (c = 0; c < im->p.nr_cpus; c++)
		if (im->p.topo->levels[lv - 1].weight[c] > 1)
			return true;
	return false;
}

/* A release as CFSR_KVER(), the latest for 0. */
static int kver_of(int kver)
{
	return kver ? kver : CFSR_KVER(99, 999, 999);
}

/*
 * Mirrors group_is_overloaded() in kernel/sched/fair.c, v5.7-v6.18: more
 * tasks than CPUs, and the utilization or (from v5.7) the runnable time
 * beyond the capacity by imbalance_pct.
 */
static bool group_is_overloaded(unsigned int imbalance_pct, const struct cfsr_sg_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;
	if (sgs->group_capacity * 100 < sgs->group_util * imbalance_pct)
		return true;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return true;
	return false;
}

/*
 * Mirrors group_has_capacity() in kernel/sched/fair.c, v5.7-v6.18: fewer
 * tasks than CPUs, or the runnable time within the capacity by
 * imbalance_pct and the utilization below it.
 */
static bool group_has_capacity(unsigned int imbalance_pct, const struct cfsr_sg_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return false;
	if (sgs->group_capacity * 100 > sgs->group_util * imbalance_pct)
		return true;
	return false;
}

/*
 * Mirrors group_classify() and the end of update_sg_lb_stats() in
 * kernel/sched/fair.c, v5.7-v6.18: overloaded, else fully busy when it
 * has no capacity left, else with spare capacity; avg_load is computed
 * for an overloaded group only.
 * Differs: sg_imbalanced(), group_asym_packing, group_smt_balance (v6.6+)
 * and group_misfit_task are not classified.
 */
void cfsr_sg_finish(unsigned int imbalance_pct, struct cfsr_sg_stats *sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		sgs->group_type = CFSR_GROUP_OVERLOADED;
	else if (!group_has_capacity(imbalance_pct, sgs))
		sgs->group_type = CFSR_GROUP_FULLY_BUSY;
	else
		sgs->group_type = CFSR_GROUP_HAS_SPARE;
	sgs->avg_load = 0;
	if (sgs->group_type == CFSR_GROUP_OVERLOADED && sgs->group_capacity)
		sgs->avg_load = sgs->group_load * SCHED_CAPACITY_SCALE / sgs->group_capacity;
}

/*
 * Mirrors update_sd_pick_busiest() in kernel/sched/fair.c, v5.7-v6.18:
 * a group with a task; the higher type; among overloaded groups the
 * highest avg_load; among fully busy ones, whose avg_load is 0, the later
 * in the domain's order; among groups with spare capacity the fewest idle
 * CPUs, then the most tasks.
 * Differs: the SMT tie rule of fully busy groups and SD_ASYM_CPUCAPACITY's
 * test are not modelled.
 */
bool cfsr_sd_pick_busiest(const struct cfsr_sg_stats *sgs, const struct cfsr_sg_stats *busiest)
{
	if (!sgs->sum_nr_running)
		return false;
	if (!busiest || sgs->group_type > busiest->group_type)
		return true;
	if (sgs->group_type < busiest->group_type)
		return false;
	switch (sgs->group_type) {
	case CFSR_GROUP_OVERLOADED:
		return sgs->avg_load > busiest->avg_load;
	case CFSR_GROUP_FULLY_BUSY:
		return sgs->avg_load >= busiest->avg_load;
	default:
		if (sgs->idle_cpus > busiest->idle_cpus)
			return false;
		return sgs->idle_cpus < busiest->idle_cpus ||
		       sgs->sum_nr_running > busiest->sum_nr_running;
	}
}

/* lsub_positive(): @a - @b, 0 when @b is larger. */
static long lsub_positive(long a, long b)
{
	return a > b ? a - b : 0;
}

/*
 * Mirrors sibling_imbalance() in kernel/sched/fair.c, v6.6-v6.18: 0 for a
 * busy balancing CPU (CPU_NOT_IDLE; !env->idle from v6.10) or an empty
 * busiest group; with as many cores on both sides the difference of
 * their tasks; otherwise the difference of tasks per core, doubled and
 * rounded ((2 * imb + ncores_local + ncores_busiest) / (ncores_local +
 * ncores_busiest), imb = ncores_local * busiest's tasks - ncores_busiest
 * * local's, at least 0), and 2 when that leaves at most 1 for an empty
 * local group and a busiest one with more than one task.
 */
long cfsr_sibling_imbalance(const struct cfsr_lb_env *env, const struct cfsr_sg_stats *busiest,
			    const struct cfsr_sg_stats *local)
{
	long ncores_busiest = busiest->cores, ncores_local = local->cores, imbalance;

	if (!env->idle || !busiest->sum_nr_running)
		return 0;
	if (ncores_busiest == ncores_local)
		return lsub_positive(busiest->sum_nr_running, local->sum_nr_running);
	imbalance = lsub_positive(ncores_local * busiest->sum_nr_running,
				  ncores_busiest * local->sum_nr_running);
	imbalance =
		(2 * imbalance + ncores_local + ncores_busiest) / (ncores_local + ncores_busiest);
	if (imbalance <= 1 && !local->sum_nr_running && busiest->sum_nr_running > 1)
		imbalance = 2;
	return imbalance;
}

/*
 * The prefer_sibling count: sibling_imbalance() from v6.6, the difference
 * of the groups' tasks before (find_busiest_group() and
 * calculate_imbalance(), v5.7-v6.5).
 */
static long sibling_count(const struct cfsr_lb_env *env, const struct cfsr_sg_stats *busiest,
			  const struct cfsr_sg_stats *local)
{
	if (kver_of(env->kver) >= CFSR_KVER(6, 6, 0))
		return cfsr_sibling_imbalance(env, busiest, local);
	return lsub_positive(busiest->sum_nr_running, local->sum_nr_running);
}

/*
 * Mirrors sched_balance_find_src_group() (find_busiest_group() before
 * v6.10) from its type comparison on, and calculate_imbalance(),
 * kernel/sched/fair.c v5.7-v6.18, for the modelled group types:
 *  - a local group of a higher type than the busiest is balanced;
 *  - an overloaded local group: its avg_load below the busiest's and the
 *    domain's, and 100 * busiest > imbalance_pct * local;
 *  - SD_PREFER_SIBLING and a local group with spare capacity: balance
 *    when the sibling count is above 1 (sibling_count());
 *  - otherwise a busiest group that is not overloaded is balanced for a
 *    busy CPU; for an idle one unless its idle CPUs exceed the busiest's
 *    by more than one (groups of several CPUs) or the busiest runs one task;
 *  - a local group with spare capacity: migrate_util of its capacity left
 *    (max(capacity, util) - util) from an overloaded busiest group outside
 *    an LLC (v5.10+; in one too before; 1 task for an idle CPU when none
 *    is left), else migrate_task:
 *    with SD_PREFER_SIBLING (or a busiest group of one CPU) the sibling
 *    count, else the local group's idle CPUs beyond the busiest's, halved
 *    ("number of tasks to move", v5.18+; v5.7-v5.17 halve each term);
 *  - a fully busy local group: balanced when its avg_load (now computed)
 *    is not below the busiest's or the domain's;
 *  - migrate_load: min((busiest - domain) * busiest's capacity, (domain -
 *    local) * local's capacity) / SCHED_CAPACITY_SCALE.
 * Differs: adjust_numa_imbalance() is not applied; the idle count's
 * unsigned wrap (max_t() of local->idle_cpus - busiest->idle_cpus) when
 * the busiest group has more idle CPUs is taken as 0; releases whose
 * calculate_imbalance() lacks the fully busy local group's two exits
 * (v5.6's) are not distinguished.
 */
uint64_t cfsr_lb_imbalance(const struct cfsr_lb_env *env, const struct cfsr_sg_stats *busiest,
			   const struct cfsr_sg_stats *local, uint64_t sds_avg_load,
			   enum cfsr_migration_type *type)
{
	const uint64_t scale = SCHED_CAPACITY_SCALE;
	uint64_t local_avg = local->avg_load, imb, other;
	bool force = false;
	long n;

	*type = CFSR_MIGRATE_LOAD;
	if (local->group_type > busiest->group_type)
		return 0;
	if (local->group_type == CFSR_GROUP_OVERLOADED &&
	    (local->avg_load >= busiest->avg_load || local->avg_load >= sds_avg_load ||
	     100 * busiest->avg_load <= (uint64_t)env->imbalance_pct * local->avg_load))
		return 0;
	if (env->prefer_sibling && local->group_type == CFSR_GROUP_HAS_SPARE &&
	    sibling_count(env, busiest, local) > 1)
		force = true;
	if (!force && busiest->group_type != CFSR_GROUP_OVERLOADED) {
		if (!env->idle)
			return 0;
		if (busiest->group_weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			return 0;
		if (busiest->sum_nr_running == 1)
			return 0;
	}
	if (local->group_type == CFSR_GROUP_HAS_SPARE) {
		if (busiest->group_type == CFSR_GROUP_OVERLOADED &&
		    (!env->share_llc || kver_of(env->kver) < CFSR_KVER(5, 10, 0))) {
			*type = CFSR_MIGRATE_UTIL;
			imb = local->group_capacity > local->group_util ? local->group_capacity :
									  local->group_util;
			imb -= local->group_util;
			if (env->idle && !imb) {
				*type = CFSR_MIGRATE_TASK;
				imb = 1;
			}
			return imb;
		}
		*type = CFSR_MIGRATE_TASK;
		if (busiest->group_weight == 1 || env->prefer_sibling)
			n = sibling_count(env, busiest, local);
		else
			n = lsub_positive(local->idle_cpus, busiest->idle_cpus);
		return (uint64_t)n >> 1;
	}
	if (local->group_type < CFSR_GROUP_OVERLOADED) {
		local_avg = local->group_capacity ?
				    local->group_load * scale / local->group_capacity :
				    0;
		if (local_avg >= busiest->avg_load || local_avg >= sds_avg_load)
			return 0;
	}
	if (busiest->avg_load <= sds_avg_load || local_avg >= sds_avg_load)
		return 0;
	imb = (busiest->avg_load - sds_avg_load) * busiest->group_capacity;
	other = (sds_avg_load - local_avg) * local->group_capacity;
	return (imb < other ? imb : other) / scale;
}

/*
 * sds->prefer_sibling of a balance at level @lv: the domain's own
 * SD_PREFER_SIBLING from v6.5 (update_sd_lb_stats()), its child's, the
 * level below, before.
 */
static bool prefer_sibling(const struct cfsr_imbalance *im, int lv)
{
	const struct cfsr_topo *t = im->p.topo;

	if (kver_of(im->p.kver) >= CFSR_KVER(6, 5, 0))
		return t->levels[lv].flags & CFSR_SD_PREFER_SIBLING;
	return t->levels[lv - 1].flags & CFSR_SD_PREFER_SIBLING;
}

/* The cores of group @g of level @lv - 1: its CPUs, each SMT sibling set counted once. */
static unsigned int group_cores(const struct cfsr_imbalance *im, int lv, int g)
{
	const struct cfsr_topo *t = im->p.topo;
	const int *span = t->levels[lv - 1].span;
	unsigned int n = 0;
	int c;

	for (c = 0; c < im->p.nr_cpus; c++)
		if (span[c] == g && (strcmp(t->levels[0].name, "SMT") || t->levels[0].span[c] == c))
			n++;
	return n;
}

/*
 * The statistics of the groups of level @lv's domains (the domains of the
 * level below), by group id, as update_sg_lb_stats() gathers them
 * (kernel/sched/fair.c, v5.7-v6.18), every CPU's capacity
 * SCHED_CAPACITY_SCALE.
 */
static void group_stats(struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
			const uint64_t *loads, int lv)
{
	const struct cfsr_topo_level *below = &im->p.topo->levels[lv - 1];
	struct cfsr_sg_stats *s;
	int c, g, nr;

	memset(im->sg, 0, (size_t)im->p.nr_cpus * sizeof(*im->sg));
	for (c = 0; c < im->p.nr_cpus; c++) {
		s = &im->sg[below->span[c]];
		nr = cfsr_cpuload_nr(cl, c);
		s->sum_nr_running += (unsigned int)nr;
		s->idle_cpus += !nr;
		s->group_load += cpu_load(cl, loads, c);
		s->group_util += cfsr_cpuload_util(cl, c);
		s->group_runnable += cfsr_cpuload_runnable(cl, c);
		s->group_capacity += SCHED_CAPACITY_SCALE;
		s->group_weight++;
	}
	for (g = 0; g < im->p.nr_cpus; g++) {
		if (below->span[g] != g)
			continue;
		im->sg[g].cores = group_cores(im, lv, g);
		cfsr_sg_finish(im->p.topo->levels[lv].imbalance_pct, &im->sg[g]);
	}
}

/*
 * The busiest CPU of group @b for migration type @type, as
 * sched_balance_find_src_rq() (find_busiest_queue() before v6.10,
 * kernel/sched/fair.c v5.7-v6.18) takes it with every capacity equal:
 * migrate_load the highest cpu_load(), leaving out a CPU with one task
 * heavier than the imbalance; migrate_util the highest cpu_util_cfs() of
 * a CPU with more than one task; migrate_task the most tasks.  -1: none.
 * Differs: releases whose migrate_util takes a CPU with one task (v5.6's)
 * are not distinguished.
 */
static int busiest_rq(const struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
		      const uint64_t *loads, const int *span, int b, enum cfsr_migration_type type,
		      uint64_t imb)
{
	uint64_t v, best = 0;
	int c, nr, rq = -1;

	for (c = 0; c < im->p.nr_cpus; c++) {
		nr = cfsr_cpuload_nr(cl, c);
		if (span[c] != b || !nr)
			continue;
		if (type == CFSR_MIGRATE_LOAD) {
			v = cpu_load(cl, loads, c);
			if (nr == 1 && v > imb)
				continue;
		} else if (type == CFSR_MIGRATE_UTIL) {
			v = cfsr_cpuload_util(cl, c);
			if (nr <= 1)
				continue;
		} else {
			v = (uint64_t)nr;
		}
		if (rq < 0 || v > best)
			rq = c, best = v;
	}
	return rq;
}

/* Whether window @a, found at a level, is to be kept over @b: the busier pair. */
static bool better_pair(const struct cfsr_imbalance *im, const struct cfsr_imb_window *a,
			const struct cfsr_imb_window *b)
{
	const struct cfsr_sg_stats *ab = &im->sg[a->busiest], *bb = &im->sg[b->busiest];

	if (ab->group_type != bb->group_type)
		return ab->group_type > bb->group_type;
	if (a->busiest_load != b->busiest_load)
		return a->busiest_load > b->busiest_load;
	return a->local_load < b->local_load;
}

/*
 * The balancer's rule between the groups of level @lv's domains (the
 * domains of the level below), for a busy balancing CPU, mirroring
 * update_sd_lb_stats(), update_sg_lb_stats() with group_classify(),
 * update_sd_pick_busiest(), sched_balance_find_src_group()
 * (find_busiest_group() before v6.10), calculate_imbalance(),
 * sched_balance_find_src_rq() (find_busiest_queue()) and detach_tasks(),
 * kernel/sched/fair.c v5.7-v6.18, with every CPU's capacity
 * SCHED_CAPACITY_SCALE:
 *  - each group's statistics and type (group_stats(), cfsr_sg_finish());
 *  - each group with no idle CPU is a local group (a group with one is
 *    idle-while-waiting's: its idle CPU balances, at its own intervals);
 *    the busiest, among the other groups of its domain in the domain's
 *    order from it, by update_sd_pick_busiest();
 *  - the imbalance, by cfsr_lb_imbalance(), with sds->prefer_sibling from
 *    the topology's SD_PREFER_SIBLING (prefer_sibling()) and the domain's
 *    average load (every group's load over every group's capacity);
 *  - the busiest CPU of the busiest group (busiest_rq()) has a waiting
 *    task that fits the imbalance: task_h_load() (at least 1) for
 *    migrate_load, task_util_est() for migrate_util, any for
 *    migrate_task, classed by its affinity to the local group's CPUs.
 * Of the pairs found, the window is that of the busiest group of the
 * highest type and load, then of the least loaded local group.
 * Differs: capacities reduced by RT/IRQ pressure, NUMA, the misfit,
 * asym-packing, SMT-balance and imbalanced group types, and tasks of
 * other classes in the counts are not modelled; one window per level at
 * a time.
 */
static bool find_groups(struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
			const struct cfsr_iww *iw, const uint64_t *loads, int lv,
			struct cfsr_imb_window *w)
{
	const struct cfsr_topo_level *dom = &im->p.topo->levels[lv];
	const int *span = im->p.topo->levels[lv - 1].span;
	const uint64_t scale = SCHED_CAPACITY_SCALE;
	struct cfsr_lb_env env = {
		.kver = im->p.kver,
		.imbalance_pct = dom->imbalance_pct,
		.prefer_sibling = prefer_sibling(im, lv),
		.share_llc = dom->flags & CFSR_SD_SHARE_LLC,
	};
	struct cfsr_imb_window cand;
	enum cfsr_migration_type type;
	uint64_t sum_load, sum_cap, imb;
	int n = im->p.nr_cpus, l, g, k, b, rq;
	bool found = false;

	group_stats(im, cl, loads, lv);
	for (l = 0; l < n; l++) {
		if (span[l] != l || im->sg[l].idle_cpus || !im->sg[l].sum_nr_running)
			continue;
		b = -1;
		sum_load = sum_cap = 0;
		for (k = 0; k < n; k++) {
			g = (l + k) % n;
			if (span[g] != g || dom->span[g] != dom->span[l])
				continue;
			sum_load += im->sg[g].group_load;
			sum_cap += im->sg[g].group_capacity;
			if (g != l && cfsr_sd_pick_busiest(&im->sg[g], b < 0 ? NULL : &im->sg[b]))
				b = g;
		}
		if (b < 0 || !sum_cap)
			continue;
		imb = cfsr_lb_imbalance(&env, &im->sg[b], &im->sg[l], sum_load * scale / sum_cap,
					&type);
		if (!imb)
			continue;
		rq = busiest_rq(im, cl, loads, span, b, type, imb);
		if (rq < 0)
			continue;
		memset(&cand, 0, sizeof(cand));
		for (g = 0; g < n; g++)
			im->lmask[g] = span[g] == l;
		if (!pick_task(im, cl, iw, rq, im->lmask, imb, type, &cand))
			continue;
		cand.group = true;
		cand.level = lv;
		cand.busiest = b;
		cand.local = l;
		cand.busiest_cpu = rq;
		cand.busiest_load = im->sg[b].group_load * scale / im->sg[b].group_capacity;
		cand.local_load = im->sg[l].group_load * scale / im->sg[l].group_capacity;
		cand.busiest_nr = (int)im->sg[b].sum_nr_running;
		cand.local_nr = (int)im->sg[l].sum_nr_running;
		cand.migration = type;
		cand.imbalance = imb;
		if (!found || better_pair(im, &cand, w)) {
			*w = cand;
			found = true;
		}
	}
	if (found)
		level_intervals(im, lv, w->busiest, w);
	return found;
}

/* A migration between two groups of level @lv, one of them B's or L's. */
static bool crosses(const struct cfsr_imbalance *im, int lv, const struct cfsr_event *ev)
{
	const int *span = im->p.topo->levels[lv - 1].span;
	int from = ev->migrate.orig_cpu, to = ev->migrate.dest_cpu;
	const struct cfsr_imb_window *w = &im->gcur[lv];

	if (from < 0 || to < 0 || from >= im->p.nr_cpus || to >= im->p.nr_cpus ||
	    span[from] == span[to])
		return false;
	return span[from] == w->busiest || span[from] == w->local || span[to] == w->busiest ||
	       span[to] == w->local;
}

static void group_windows(struct cfsr_imbalance *im, const struct cfsr_event *ev,
			  const struct cfsr_cpuload *cl, const struct cfsr_iww *iw,
			  const uint64_t *loads)
{
	struct cfsr_imb_window w;
	const char *comm;
	int lv;

	for (lv = 1; im->p.topo && lv < im->p.topo->nr_levels; lv++) {
		if (!group_level(im, lv))
			continue;
		if (ev->kind == CFSR_EV_MIGRATE && im->gopen[lv] && crosses(im, lv, ev))
			close_window(im, &im->groups, &im->gcur[lv], &im->gopen[lv], ev->ts,
				     CFSR_IMB_MIGRATION);
		memset(&w, 0, sizeof(w));
		if (!find_groups(im, cl, iw, loads, lv, &w)) {
			close_window(im, &im->groups, &im->gcur[lv], &im->gopen[lv], ev->ts,
				     CFSR_IMB_BALANCED);
			continue;
		}
		if (im->gopen[lv] && im->gcur[lv].busiest == w.busiest &&
		    im->gcur[lv].local == w.local && im->gcur[lv].class == w.class)
			continue;
		close_window(im, &im->groups, &im->gcur[lv], &im->gopen[lv], ev->ts,
			     CFSR_IMB_BALANCED);
		w.start = ev->ts;
		comm = cfsr_cpuload_comm(cl, w.task);
		memcpy(w.comm, comm, strnlen(comm, sizeof(w.comm) - 1));
		im->gcur[lv] = w;
		im->gopen[lv] = true;
	}
}

int cfsr_imb_event(struct cfsr_imbalance *im, const struct cfsr_event *ev,
		   const struct cfsr_cpuload *cl, const struct cfsr_iww *iw)
{
	return cfsr_imb_event_loads(im, ev, cl, iw, NULL);
}

int cfsr_imb_event_loads(struct cfsr_imbalance *im, const struct cfsr_event *ev,
			 const struct cfsr_cpuload *cl, const struct cfsr_iww *iw,
			 const uint64_t *loads)
{
	struct cfsr_imb_window w;
	const char *comm;

	im->opened = false;
	if (im->oom)
		return cfsr_error("imbalance: out of memory");

	group_windows(im, ev, cl, iw, loads);
	if (ev->kind == CFSR_EV_MIGRATE && im->open &&
	    (ev->migrate.orig_cpu == im->cur.busiest || ev->migrate.orig_cpu == im->cur.local ||
	     ev->migrate.dest_cpu == im->cur.busiest || ev->migrate.dest_cpu == im->cur.local))
		close_cpus(im, ev->ts, CFSR_IMB_MIGRATION);
	memset(&w, 0, sizeof(w));
	if (!find_pair(im, cl, iw, loads, &w)) {
		close_cpus(im, ev->ts, CFSR_IMB_BALANCED);
		return 0;
	}
	if (im->open && im->cur.busiest == w.busiest && im->cur.local == w.local &&
	    im->cur.class == w.class)
		return 0;
	close_cpus(im, ev->ts, CFSR_IMB_BALANCED);
	w.start = ev->ts;
	comm = cfsr_cpuload_comm(cl, w.task);
	memcpy(w.comm, comm, strnlen(comm, sizeof(w.comm) - 1));
	im->cur = w;
	im->open = true;
	im->opened = true;
	return 0;
}

const struct cfsr_imb_window *cfsr_imb_opened(const struct cfsr_imbalance *im)
{
	return im->opened ? &im->cur : NULL;
}

void cfsr_imb_set_other(struct cfsr_imbalance *im, uint64_t busiest_load, uint64_t local_load)
{
	if (!im->opened)
		return;
	im->cur.other_busiest_load = busiest_load;
	im->cur.other_local_load = local_load;
}

size_t cfsr_imb_all(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w)
{
	*w = im->all;
	return im->nr_all;
}

void cfsr_imb_finish(struct cfsr_imbalance *im, uint64_t ts)
{
	int lv;

	close_cpus(im, ts, CFSR_IMB_TRACE_END);
	for (lv = 0; lv < CFSR_TOPO_MAX_LEVELS; lv++)
		close_window(im, &im->groups, &im->gcur[lv], &im->gopen[lv], ts,
			     CFSR_IMB_TRACE_END);
}

const struct cfsr_imb_totals *cfsr_imb_totals(const struct cfsr_imbalance *im)
{
	return &im->cpus.tot;
}

int cfsr_imb_top(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w)
{
	*w = im->cpus.top;
	return im->cpus.nr_top;
}

const struct cfsr_imb_totals *cfsr_imb_group_totals(const struct cfsr_imbalance *im)
{
	return &im->groups.tot;
}

int cfsr_imb_group_top(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w)
{
	*w = im->groups.top;
	return im->groups.nr_top;
}

bool cfsr_imb_has_groups(const struct cfsr_imbalance *im)
{
	int lv;

	for (lv = 1; lv < CFSR_TOPO_MAX_LEVELS; lv++)
		if (group_level(im, lv))
			return true;
	return false;
}

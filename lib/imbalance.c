// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lasting imbalance (see imbalance.h).
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "imbalance.h"

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
	/* scratch per CPU: a group's tasks, load and idle CPUs by its id; L's CPUs */
	int *g_nr;
	int *g_idle;
	uint64_t *g_load;
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
	im->g_nr = calloc((size_t)p->nr_cpus, sizeof(*im->g_nr));
	im->g_idle = calloc((size_t)p->nr_cpus, sizeof(*im->g_idle));
	im->g_load = calloc((size_t)p->nr_cpus, sizeof(*im->g_load));
	im->lmask = calloc((size_t)p->nr_cpus, sizeof(*im->lmask));
	if (!im->cpus.top || !im->groups.top || !im->g_nr || !im->g_idle || !im->g_load ||
	    !im->lmask)
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
	free(im->g_nr);
	free(im->g_idle);
	free(im->g_load);
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
 * The lightest waiting task of @b with load at most @imb, preferring one
 * allowed on a CPU of @lmask (L, or L's group: can_migrate_task() tries
 * another CPU of the local group, LBF_DST_PINNED), then one whose
 * affinity is unknown, then a bound one.
 * Return: false when no waiting task fits the imbalance.
 */
static bool pick_task(const struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
		      const struct cfsr_iww *iw, int b, const bool *lmask, uint64_t imb,
		      struct cfsr_imb_window *w)
{
	const int *pids;
	size_t i, n = cfsr_cpuload_on(cl, b, &pids);
	enum cfsr_imb_class c;
	uint64_t load;
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
		if (load > imb)
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
	if (!pick_task(im, cl, iw, b, im->lmask, imb, w))
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

/*
 * The balancer's rule between the groups of level @lv's domains (the
 * domains of the level below), mirroring update_sd_lb_stats(),
 * sched_balance_find_src_group() (find_busiest_group() before v6.10),
 * calculate_imbalance() with migrate_load, sched_balance_find_src_rq()
 * (find_busiest_queue()) and detach_tasks(), kernel/sched/fair.c
 * v5.7-v6.18, with every CPU's capacity SCHED_CAPACITY_SCALE:
 *  - a group's avg_load is group_load * SCHED_CAPACITY_SCALE /
 *    group_capacity, group_load the sum of its CPUs' cpu_load();
 *  - the busiest group is overloaded: more tasks than CPUs and no idle
 *    CPU (group_is_overloaded()'s utilization test is taken as met: its
 *    CPUs all busy), the highest avg_load (update_sd_pick_busiest());
 *  - the local group, in the same domain, has no idle CPU (fully busy or
 *    overloaded; a group with an idle CPU is idle-while-waiting's), the
 *    lowest avg_load; its avg_load below the busiest's and below the
 *    domain's (sds.avg_load, every group's load over every group's
 *    capacity); both overloaded: 100 * busiest > imbalance_pct * local;
 *  - imbalance = min((busiest - sds) * its capacity, (sds - local) *
 *    its capacity) / SCHED_CAPACITY_SCALE;
 *  - the busiest CPU of the busiest group, the highest cpu_load(),
 *    leaving out a CPU with one task heavier than the imbalance, has a
 *    waiting task of task_h_load() (at least 1) at most the imbalance,
 *    classed by its affinity to the local group's CPUs.
 * Differs: the utilization and runnable tests of group types, capacities
 * reduced by RT/IRQ pressure, SD_PREFER_SIBLING's sibling_imbalance()
 * and NUMA are not modelled; one window per level at a time, the one of
 * the busiest group of all its domains.
 */
static bool find_groups(struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
			const struct cfsr_iww *iw, const uint64_t *loads, int lv,
			struct cfsr_imb_window *w)
{
	const struct cfsr_topo_level *dom = &im->p.topo->levels[lv];
	const struct cfsr_topo_level *below = &im->p.topo->levels[lv - 1];
	const uint64_t scale = 1024; /* SCHED_CAPACITY_SCALE */
	uint64_t b_avg = 0, l_avg = 0, avg, sum_load = 0, sum_cap = 0, imb, rq_load = 0, load;
	int c, g, b = -1, l = -1, rq = -1, nr, *gnr = im->g_nr, *gidle = im->g_idle;
	uint64_t *gload = im->g_load;
	unsigned int pct;

	for (c = 0; c < im->p.nr_cpus; c++)
		gnr[c] = gidle[c] = 0, gload[c] = 0;
	for (c = 0; c < im->p.nr_cpus; c++) {
		g = below->span[c];
		nr = cfsr_cpuload_nr(cl, c);
		gnr[g] += nr;
		gidle[g] += !nr;
		gload[g] += cpu_load(cl, loads, c);
	}
	for (g = 0; g < im->p.nr_cpus; g++) {
		if (below->span[g] != g || gidle[g] || gnr[g] <= below->weight[g])
			continue;
		avg = gload[g] * scale / ((uint64_t)below->weight[g] * scale);
		if (b < 0 || avg > b_avg)
			b = g, b_avg = avg;
	}
	if (b < 0)
		return false;
	for (g = 0; g < im->p.nr_cpus; g++) {
		if (below->span[g] != g || dom->span[g] != dom->span[b])
			continue;
		sum_load += gload[g];
		sum_cap += (uint64_t)below->weight[g] * scale;
		if (g == b || gidle[g] || gnr[g] < below->weight[g])
			continue;
		avg = gload[g] * scale / ((uint64_t)below->weight[g] * scale);
		if (l < 0 || avg < l_avg)
			l = g, l_avg = avg;
	}
	if (l < 0 || !sum_cap)
		return false;
	avg = sum_load * scale / sum_cap;
	pct = level_intervals(im, lv, b, w);
	if (l_avg >= b_avg || l_avg >= avg || b_avg <= avg)
		return false;
	if (gnr[l] > below->weight[l] && 100 * b_avg <= (uint64_t)pct * l_avg)
		return false;
	imb = (b_avg - avg) * (uint64_t)below->weight[b] * scale;
	if ((avg - l_avg) * (uint64_t)below->weight[l] * scale < imb)
		imb = (avg - l_avg) * (uint64_t)below->weight[l] * scale;
	imb /= scale;
	for (c = 0; c < im->p.nr_cpus; c++) {
		if (below->span[c] != b)
			continue;
		load = cpu_load(cl, loads, c);
		if (cfsr_cpuload_nr(cl, c) == 1 && load > imb)
			continue;
		if (rq < 0 || load > rq_load)
			rq = c, rq_load = load;
	}
	if (rq < 0)
		return false;
	for (c = 0; c < im->p.nr_cpus; c++)
		im->lmask[c] = below->span[c] == l;
	if (!pick_task(im, cl, iw, rq, im->lmask, imb, w))
		return false;
	w->group = true;
	w->level = lv;
	w->busiest = b;
	w->local = l;
	w->busiest_cpu = rq;
	w->busiest_load = b_avg;
	w->local_load = l_avg;
	w->busiest_nr = gnr[b];
	w->local_nr = gnr[l];
	return true;
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lasting imbalance (see imbalance.h).
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "imbalance.h"

struct cfsr_imbalance {
	struct cfsr_imb_params p;
	bool open;
	struct cfsr_imb_window cur;
	struct cfsr_imb_totals tot;
	/* the longest lasting windows, longest first */
	struct cfsr_imb_window *top;
	int nr_top;
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
	if (!im || (p->top && !(im->top = calloc((size_t)p->top, sizeof(*im->top))))) {
		free(im);
		cfsr_error("imbalance: out of memory");
		return NULL;
	}
	im->p = *p;
	return im;
}

void cfsr_imb_free(struct cfsr_imbalance *im)
{
	if (!im)
		return;
	free(im->top);
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

static void keep_top(struct cfsr_imbalance *im, const struct cfsr_imb_window *w)
{
	uint64_t d = w->end - w->start;
	int i;

	if (!im->p.top)
		return;
	for (i = im->nr_top; i > 0; i--) {
		const struct cfsr_imb_window *o = &im->top[i - 1];

		if (o->end - o->start >= d)
			break;
	}
	if (i >= im->p.top)
		return;
	if (im->nr_top < im->p.top)
		im->nr_top++;
	memmove(&im->top[i + 1], &im->top[i], (size_t)(im->nr_top - 1 - i) * sizeof(*im->top));
	im->top[i] = *w;
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

static void close_window(struct cfsr_imbalance *im, uint64_t ts, enum cfsr_imb_end why)
{
	struct cfsr_imb_window *w = &im->cur;
	uint64_t counted;

	if (!im->open)
		return;
	im->open = false;
	w->end = ts;
	w->why = why;
	if (im->p.filter_cpu >= 0 && w->busiest != im->p.filter_cpu && w->local != im->p.filter_cpu)
		return;
	counted = clipped(im, w->start, w->end);
	/* a window entirely outside --time is not counted */
	if (!counted && (w->end <= im->p.win_start || w->start >= im->p.win_end))
		return;
	im->tot.windows++;
	keep_all(im, w);
	if (w->end - w->start > w->interval_ns) {
		im->tot.lasting++;
		im->tot.level_lasting[w->level]++;
		im->tot.level_lasting_ns[w->level] += counted;
		im->tot.lasting_ns[w->class] += counted;
		im->tot.ended[why]++;
		if (w->end - w->start > im->tot.longest_ns)
			im->tot.longest_ns = w->end - w->start;
		keep_top(im, w);
	} else {
		im->tot.transient_ns += counted;
	}
}

/*
 * The lightest waiting task of @b with load at most @imb, preferring one
 * allowed on @l, then one whose affinity is unknown, then a bound one.
 * Return: false when no waiting task fits the imbalance.
 */
static bool pick_task(const struct cfsr_cpuload *cl, const struct cfsr_iww *iw, int b, int l,
		      uint64_t imb, struct cfsr_imb_window *w)
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
		switch (cfsr_iww_allowed(iw, pids[i], l)) {
		case CFSR_ALLOWED_YES:
			c = CFSR_IMB_ALLOWED;
			break;
		case CFSR_ALLOWED_UNKNOWN:
			c = CFSR_IMB_AFF_UNKNOWN;
			break;
		default:
			c = CFSR_IMB_AFF_BOUND;
			break;
		}
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

static bool find_pair(const struct cfsr_imbalance *im, const struct cfsr_cpuload *cl,
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
	pct = im->p.imbalance_pct;
	if (im->p.topo && cfsr_topo_level_of(im->p.topo, b, l) >= 0) {
		const struct cfsr_topo_level *lv;

		w->level = cfsr_topo_level_of(im->p.topo, b, l);
		lv = &im->p.topo->levels[w->level];
		pct = lv->imbalance_pct;
		if (lv->recorded)
			w->interval_ns =
				cfsr_topo_busy_interval_ns(im->p.topo, w->level, b, im->p.hz);
		else if (im->p.interval_by_weight && lv->weight[b] <= im->p.nr_cpus)
			w->interval_ns = im->p.interval_by_weight[lv->weight[b]];
	}
	/* two overloaded groups: the imbalance_pct test */
	if (cfsr_cpuload_nr(cl, l) >= 2 && 100 * b_load <= (uint64_t)pct * l_load)
		return false;
	avg = (b_load + l_load) / 2;
	imb = b_load - avg < avg - l_load ? b_load - avg : avg - l_load;
	if (!pick_task(cl, iw, b, l, imb, w))
		return false;
	w->busiest = b;
	w->local = l;
	w->busiest_load = b_load;
	w->local_load = l_load;
	w->busiest_nr = cfsr_cpuload_nr(cl, b);
	w->local_nr = cfsr_cpuload_nr(cl, l);
	return true;
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

	if (ev->kind == CFSR_EV_MIGRATE && im->open &&
	    (ev->migrate.orig_cpu == im->cur.busiest || ev->migrate.orig_cpu == im->cur.local ||
	     ev->migrate.dest_cpu == im->cur.busiest || ev->migrate.dest_cpu == im->cur.local))
		close_window(im, ev->ts, CFSR_IMB_MIGRATION);
	memset(&w, 0, sizeof(w));
	if (!find_pair(im, cl, iw, loads, &w)) {
		close_window(im, ev->ts, CFSR_IMB_BALANCED);
		return 0;
	}
	if (im->open && im->cur.busiest == w.busiest && im->cur.local == w.local &&
	    im->cur.class == w.class)
		return 0;
	close_window(im, ev->ts, CFSR_IMB_BALANCED);
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
	close_window(im, ts, CFSR_IMB_TRACE_END);
}

const struct cfsr_imb_totals *cfsr_imb_totals(const struct cfsr_imbalance *im)
{
	return &im->tot;
}

int cfsr_imb_top(const struct cfsr_imbalance *im, const struct cfsr_imb_window **w)
{
	*w = im->top;
	return im->nr_top;
}

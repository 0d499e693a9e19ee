// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's comparators as one bundle (see comparators.h).
 */
#include <stdlib.h>
#include <string.h>

#include "comparators.h"
#include "error.h"

uint64_t cfsr_balance_interval_ns(int nr_cpus, int hz, bool busy)
{
	uint64_t ms = (uint64_t)(nr_cpus > 0 ? nr_cpus : 1) * (busy ? 16 : 1);
	uint64_t jiffies;

	if (hz <= 0)
		hz = CFSR_DEFAULT_HZ;
	jiffies = (ms * (uint64_t)hz + 999) / 1000;
	if (!jiffies)
		jiffies = 1;
	return jiffies * 1000000000 / (uint64_t)hz;
}

int cfsr_comparators_init(struct cfsr_comparators *c, const struct cfsr_comparators_params *p)
{
	int w, hz = p->hz > 0 ? p->hz : CFSR_DEFAULT_HZ;
	struct cfsr_iww_params ip = {
		.nr_cpus = p->nr_cpus,
		.top_n = p->top,
		.win_start = p->win_start,
		.win_end = p->win_end,
		.filter_cpu = p->filter_cpu,
		.filter_pid = p->filter_pid,
	};
	struct cfsr_pickcheck_params kp = {
		.nr_cpus = p->nr_cpus,
		.prof = p->prof,
		.hz = p->hz,
		.top = p->top,
		.win_start = p->win_start,
		.win_end = p->win_end,
		.filter_cpu = p->filter_cpu,
		.filter_pid = p->filter_pid,
	};
	struct cfsr_imb_params mp = {
		.nr_cpus = p->nr_cpus,
		.filter_cpu = p->filter_cpu,
		.imbalance_pct = CFSR_IMBALANCE_PCT,
		.win_start = p->win_start,
		.win_end = p->win_end,
		.top = p->top,
		.keep_all = p->kernel_loads,
		.kver = p->prof->first,
	};

	memset(c, 0, sizeof(*c));
	c->kdiff_cpu = -1;
	c->nr_cpus = p->nr_cpus;
	c->hz_assumed = p->hz <= 0;
	c->hz = hz;
	c->balance_ns = cfsr_balance_interval_ns(p->nr_cpus, hz, false);
	c->busy_balance_ns = cfsr_balance_interval_ns(p->nr_cpus, hz, true);
	ip.balance_interval_ns = c->balance_ns;
	mp.interval_ns = c->busy_balance_ns;
	/* sd_init(): max_interval twice the weight, which the doubling reaches */
	mp.max_interval_ns = cfsr_balance_interval_ns(2 * p->nr_cpus, hz, true);
	c->iw = cfsr_iww_new(&ip);
	c->cl = cfsr_cpuload_new(p->nr_cpus, p->prof, p->hz, p->win_start, p->win_end);
	if (c->cl && p->info)
		cfsr_replay_take_tunables(cfsr_cpuload_engine(c->cl), p->info);
	if (c->cl)
		cfsr_replay_set_peek(cfsr_cpuload_engine(c->cl), p->peek, p->peek_ctx);
	c->pl = cfsr_place_new(p->nr_cpus, p->top, p->win_start, p->win_end, p->filter_cpu,
			       p->filter_pid);
	if (cfsr_topo_init(&c->topo, p->info, p->nr_cpus) < 0) {
		cfsr_comparators_release(c);
		return -1;
	}
	if (c->pl)
		cfsr_place_set_topo(c->pl, &c->topo);
	c->busy_interval_by_weight =
		calloc((size_t)(p->nr_cpus > 0 ? p->nr_cpus : 0) + 1, sizeof(uint64_t));
	if (!c->busy_interval_by_weight) {
		cfsr_error("out of memory for the balance intervals");
		cfsr_comparators_release(c);
		return -1;
	}
	for (w = 1; w <= p->nr_cpus; w++)
		c->busy_interval_by_weight[w] = cfsr_balance_interval_ns(w, hz, true);
	mp.topo = &c->topo;
	mp.interval_by_weight = c->busy_interval_by_weight;
	mp.hz = hz;
	c->im = cfsr_imb_new(&mp);
	/* the pick check asks the per-CPU load's engine: one model of the run queues */
	kp.cl = c->cl;
	c->pk = c->cl ? cfsr_pickcheck_new(&kp) : NULL;
	if (!c->iw || !c->cl || !c->pl || !c->im || !c->pk) {
		cfsr_comparators_release(c);
		return -1;
	}
	if (!p->kernel_loads)
		return 0;
	if (!p->prof->pelt) {
		cfsr_comparators_release(c);
		return cfsr_error("kernel loads: the %s model has no PELT arithmetic of v4.12+",
				  p->prof->name);
	}
	c->kl = cfsr_kload_new(p->nr_cpus, p->prof->pelt);
	c->imk = c->kl ? cfsr_imb_new(&mp) : NULL;
	c->kloads = calloc((size_t)p->nr_cpus, sizeof(*c->kloads));
	if (!c->kl || !c->imk || !c->kloads) {
		cfsr_comparators_release(c);
		return c->kl && c->imk ? cfsr_error("kernel loads: out of memory") : -1;
	}
	return 0;
}

static void kdiff(struct cfsr_comparators *c, uint64_t ts, int cpu, uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	if (c->kdiff_cpu < 0 || d > c->kdiff) {
		c->kdiff = d;
		c->kdiff_ts = ts;
		c->kdiff_cpu = cpu;
	}
}

/* Lasting imbalance on the kernel's loads, and each new window's loads from the other source. */
static int kernel_imb(struct cfsr_comparators *c, const struct cfsr_event *ev)
{
	const struct cfsr_imb_window *w;
	int k;

	if (!c->kernel_from) {
		for (k = 0; k < c->nr_cpus && cfsr_kload_known(c->kl, k); k++)
			;
		if (k < c->nr_cpus)
			return 0;
		c->kernel_from = ev->ts;
	}
	cfsr_kload_all(c->kl, ev->ts, c->kloads);
	if (cfsr_imb_event_loads(c->imk, ev, c->cl, c->iw, c->kloads) < 0)
		return -1;
	w = cfsr_imb_opened(c->im);
	if (w) {
		cfsr_imb_set_other(c->im, c->kloads[w->busiest], c->kloads[w->local]);
		kdiff(c, ev->ts, w->busiest, w->busiest_load, c->kloads[w->busiest]);
		kdiff(c, ev->ts, w->local, w->local_load, c->kloads[w->local]);
	}
	w = cfsr_imb_opened(c->imk);
	if (w) {
		cfsr_imb_set_other(c->imk, cfsr_cpuload_now(c->cl, w->busiest),
				   cfsr_cpuload_now(c->cl, w->local));
		kdiff(c, ev->ts, w->busiest, cfsr_cpuload_now(c->cl, w->busiest), w->busiest_load);
		kdiff(c, ev->ts, w->local, cfsr_cpuload_now(c->cl, w->local), w->local_load);
	}
	return 0;
}

int cfsr_comparators_event(struct cfsr_comparators *c, const struct cfsr_event *ev)
{
	c->events++;
	if (cfsr_event_kind_is_sched(ev->kind))
		c->sched_events++;
	/*
	 * The audit and the pick check judge against the state before the
	 * event (the pick check asks the per-CPU load's engine before it
	 * replays the switch); the others follow it.
	 */
	if (cfsr_place_event(c->pl, ev, c->iw, c->cl) < 0 || cfsr_pickcheck_before(c->pk, ev) < 0 ||
	    cfsr_iww_event(c->iw, ev) < 0 || cfsr_cpuload_event(c->cl, ev) < 0 ||
	    cfsr_imb_event(c->im, ev, c->cl, c->iw) < 0 || (c->imk && kernel_imb(c, ev) < 0))
		return -1;
	cfsr_pickcheck_after(c->pk, ev);
	c->last_ts = ev->ts;
	return 0;
}

void cfsr_comparators_finish(struct cfsr_comparators *c)
{
	cfsr_place_finish(c->pl);
	cfsr_iww_finish(c->iw);
	cfsr_imb_finish(c->im, c->last_ts);
	if (c->imk)
		cfsr_imb_finish(c->imk, c->last_ts);
}

static bool same_window(const struct cfsr_imb_window *a, const struct cfsr_imb_window *b)
{
	return a->busiest == b->busiest && a->local == b->local && a->class == b->class &&
	       (a->start == b->start || (a->start < b->end && b->start < a->end));
}

int cfsr_comparators_imb_agree(const struct cfsr_comparators *c, struct cfsr_imb_agree *out)
{
	const struct cfsr_imb_window *m, *k;
	size_t nm, nk, i, j, j0 = 0;
	bool *kmatch, mmatch;

	memset(out, 0, sizeof(*out));
	if (!c->imk)
		return 0;
	nm = cfsr_imb_all(c->im, &m);
	nk = cfsr_imb_all(c->imk, &k);
	kmatch = calloc(nk + 1, sizeof(*kmatch));
	if (!kmatch)
		return cfsr_error("kernel loads: out of memory");
	/* each evaluation's windows are disjoint and in time order */
	for (i = 0; i < nm; i++) {
		while (j0 < nk && k[j0].end < m[i].start)
			j0++;
		mmatch = false;
		for (j = j0; j < nk && k[j].start <= m[i].end; j++) {
			if (!same_window(&m[i], &k[j]))
				continue;
			mmatch = true;
			kmatch[j] = true;
		}
		out->model += mmatch;
		out->model_lasting += mmatch && m[i].end - m[i].start > m[i].interval_ns;
	}
	for (j = 0; j < nk; j++) {
		out->kernel += kmatch[j];
		out->kernel_lasting += kmatch[j] && k[j].end - k[j].start > k[j].interval_ns;
	}
	free(kmatch);
	return 0;
}

void cfsr_comparators_release(struct cfsr_comparators *c)
{
	cfsr_pickcheck_free(c->pk);
	cfsr_imb_free(c->imk);
	cfsr_kload_free(c->kl);
	free(c->kloads);
	cfsr_imb_free(c->im);
	cfsr_place_free(c->pl);
	cfsr_cpuload_free(c->cl);
	cfsr_iww_free(c->iw);
	cfsr_topo_release(&c->topo);
	free(c->busy_interval_by_weight);
	memset(c, 0, sizeof(*c));
}

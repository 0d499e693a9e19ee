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
	};

	memset(c, 0, sizeof(*c));
	c->hz_assumed = p->hz <= 0;
	c->balance_ns = cfsr_balance_interval_ns(p->nr_cpus, hz, false);
	c->busy_balance_ns = cfsr_balance_interval_ns(p->nr_cpus, hz, true);
	ip.balance_interval_ns = c->balance_ns;
	mp.interval_ns = c->busy_balance_ns;
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
	c->im = cfsr_imb_new(&mp);
	/* the pick check asks the per-CPU load's engine: one model of the run queues */
	kp.cl = c->cl;
	c->pk = c->cl ? cfsr_pickcheck_new(&kp) : NULL;
	if (!c->iw || !c->cl || !c->pl || !c->im || !c->pk) {
		cfsr_comparators_release(c);
		return -1;
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
	    cfsr_imb_event(c->im, ev, c->cl, c->iw) < 0)
		return -1;
	cfsr_pickcheck_after(c->pk, ev);
	c->last_ts = ev->ts;
	return 0;
}

void cfsr_comparators_finish(struct cfsr_comparators *c)
{
	cfsr_iww_finish(c->iw);
	cfsr_imb_finish(c->im, c->last_ts);
}

void cfsr_comparators_release(struct cfsr_comparators *c)
{
	cfsr_pickcheck_free(c->pk);
	cfsr_imb_free(c->im);
	cfsr_place_free(c->pl);
	cfsr_cpuload_free(c->cl);
	cfsr_iww_free(c->iw);
	cfsr_topo_release(&c->topo);
	free(c->busy_interval_by_weight);
	memset(c, 0, sizeof(*c));
}

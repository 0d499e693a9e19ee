// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduling topology the comparators use (see topology.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "topology.h"

/*
 * Walk the CPU list @list; for every range call back.  Return 0, or -1 when
 * the list is malformed.
 */
static int list_walk(const char *list, int (*fn)(long lo, long hi, void *ctx), void *ctx)
{
	const char *p = list;

	if (!p || !*p)
		return -1;
	for (;;) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			return -1;
		lo = hi = strtol(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -1;
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (hi < lo || fn(lo, hi, ctx))
			return 0;
		if (*p != ',')
			break;
		p++;
	}
	return *p && !isspace((unsigned char)*p) ? -1 : 0;
}

struct has_ctx {
	long cpu;
	bool found;
};

static int has_range(long lo, long hi, void *ctx)
{
	struct has_ctx *h = ctx;

	if (h->cpu >= lo && h->cpu <= hi)
		h->found = true;
	return h->found;
}

bool cfsr_cpu_list_has(const char *list, int cpu)
{
	struct has_ctx h = { cpu, false };

	return list_walk(list, has_range, &h) == 0 && h.found;
}

struct span_ctx {
	long nr_cpus;
	long first;
	long weight;
};

static int span_range(long lo, long hi, void *ctx)
{
	struct span_ctx *s = ctx;

	if (lo >= s->nr_cpus)
		return 0;
	if (hi >= s->nr_cpus)
		hi = s->nr_cpus - 1;
	if (s->first < 0 || lo < s->first)
		s->first = lo;
	s->weight += hi - lo + 1;
	return 0;
}

/* The span of @list among @nr_cpus CPUs, which must hold @cpu: its first CPU and weight. */
static bool list_span(const char *list, int nr_cpus, int cpu, int *first, int *weight)
{
	struct span_ctx s = { nr_cpus, -1, 0 };

	if (!cfsr_cpu_list_has(list, cpu) || list_walk(list, span_range, &s) < 0 || s.first < 0)
		return false;
	*first = (int)s.first;
	*weight = (int)s.weight;
	return true;
}

const char *cfsr_topo_llc_span(const struct cfsr_trace_info *in, int cpu)
{
	const struct cfsr_cpu_cache *best = NULL;
	size_t i;

	for (i = 0; in && i < in->nr_caches; i++) {
		const struct cfsr_cpu_cache *c = &in->caches[i];

		if (!c->shared_cpus || (c->type && !strcmp(c->type, "Instruction")) ||
		    !cfsr_cpu_list_has(c->shared_cpus, cpu))
			continue;
		if (!best || c->level > best->level)
			best = c;
	}
	return best ? best->shared_cpus : NULL;
}

/*
 * sd_init()'s flags for a level (kernel/sched/topology.c, v5.7-v6.18):
 * SD_PREFER_SIBLING on every level but NUMA's, which clears it; the
 * topology level's own flags: cpu_smt_flags() SD_SHARE_CPUCAPACITY and
 * SD_SHARE_LLC, cpu_core_flags() SD_SHARE_LLC.
 */
static unsigned int level_flags(const char *name)
{
	if (!strcmp(name, "SMT"))
		return CFSR_SD_DEFAULT_FLAGS | CFSR_SD_SHARE_CPUCAPACITY | CFSR_SD_SHARE_LLC;
	if (!strcmp(name, "MC") || !strcmp(name, "ALL"))
		return CFSR_SD_DEFAULT_FLAGS | CFSR_SD_SHARE_LLC;
	if (!strcmp(name, "NUMA"))
		return (CFSR_SD_DEFAULT_FLAGS & ~CFSR_SD_PREFER_SIBLING) | CFSR_SD_NUMA;
	return CFSR_SD_DEFAULT_FLAGS;
}

/*
 * Add a level with spans @span and weights @weight unless it degenerates
 * (one CPU everywhere, or the spans of the level below) or does not nest
 * the level below.  Takes the arrays (freed when not kept).
 */
static void add_level(struct cfsr_topo *t, const char *name, unsigned int pct, int *span,
		      int *weight)
{
	const struct cfsr_topo_level *below = t->nr_levels ? &t->levels[t->nr_levels - 1] : NULL;
	bool single = true, same = below != NULL;
	int c;

	for (c = 0; c < t->nr_cpus; c++) {
		if (weight[c] > 1)
			single = false;
		if (below && span[c] != below->span[c])
			same = false;
		/* the lowest CPU of the span below shares this level's span */
		if (below && span[below->span[c]] != span[c])
			goto drop;
	}
	if ((single && t->nr_cpus > 1) || same || t->nr_levels == CFSR_TOPO_MAX_LEVELS)
		goto drop;
	t->levels[t->nr_levels].name = name;
	t->levels[t->nr_levels].span = span;
	t->levels[t->nr_levels].weight = weight;
	t->levels[t->nr_levels].imbalance_pct = pct;
	t->levels[t->nr_levels].flags = level_flags(name);
	t->nr_levels++;
	return;
drop:
	free(span);
	free(weight);
}

/* Spans of a level from each CPU's list (@lists[cpu]); false when one is missing or bad. */
static bool spans_of(int nr_cpus, const char *const *lists, int *span, int *weight)
{
	int c;

	for (c = 0; c < nr_cpus; c++)
		if (!lists[c] || !list_span(lists[c], nr_cpus, c, &span[c], &weight[c]))
			return false;
	return true;
}

static int level_from_lists(struct cfsr_topo *t, const char *name, unsigned int pct,
			    const char *const *lists)
{
	int *span = calloc((size_t)t->nr_cpus, sizeof(int));
	int *weight = calloc((size_t)t->nr_cpus, sizeof(int));

	if (!span || !weight) {
		free(span);
		free(weight);
		return -1;
	}
	if (!spans_of(t->nr_cpus, lists, span, weight)) {
		free(span);
		free(weight);
		return 0;
	}
	add_level(t, name, pct, span, weight);
	return 0;
}

/* The top level, every CPU in one span, unless the last level already spans them. */
static int level_all(struct cfsr_topo *t, const char *name)
{
	int *span, *weight, c;

	if (t->nr_levels && t->levels[t->nr_levels - 1].weight[0] == t->nr_cpus)
		return 0;
	span = calloc((size_t)t->nr_cpus, sizeof(int));
	weight = calloc((size_t)t->nr_cpus, sizeof(int));
	if (!span || !weight) {
		free(span);
		free(weight);
		return -1;
	}
	for (c = 0; c < t->nr_cpus; c++)
		weight[c] = t->nr_cpus;
	add_level(t, name, 117, span, weight);
	return 0;
}

static int topo_start(struct cfsr_topo *t, int nr_cpus)
{
	memset(t, 0, sizeof(*t));
	t->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	t->llc = calloc((size_t)t->nr_cpus, sizeof(int));
	if (!t->llc) {
		cfsr_error("out of memory for the topology of %d CPUs", t->nr_cpus);
		return -1;
	}
	return 0;
}

static int topo_fail(struct cfsr_topo *t)
{
	cfsr_topo_release(t);
	cfsr_error("out of memory for the topology");
	return -1;
}

/* MC from t->llc (known), then the levels above it. */
static int levels_from_llc(struct cfsr_topo *t)
{
	int *span = malloc((size_t)t->nr_cpus * sizeof(int));
	int *weight = calloc((size_t)t->nr_cpus, sizeof(int));
	int c;

	if (!span || !weight) {
		free(span);
		free(weight);
		return -1;
	}
	for (c = 0; c < t->nr_cpus; c++) {
		span[c] = t->llc[c];
		weight[t->llc[c]]++;
	}
	for (c = 0; c < t->nr_cpus; c++)
		weight[c] = weight[span[c]];
	add_level(t, "MC", 117, span, weight);
	return 0;
}

int cfsr_topo_init_llc(struct cfsr_topo *t, int nr_cpus, const int *llc)
{
	int c;

	if (topo_start(t, nr_cpus) < 0)
		return -1;
	t->llc_known = llc != NULL;
	for (c = 0; llc && c < t->nr_cpus; c++) {
		if (llc[c] < 0 || llc[c] >= t->nr_cpus || llc[llc[c]] != llc[c]) {
			t->llc_known = false;
			break;
		}
		t->llc[c] = llc[c];
	}
	if (!t->llc_known)
		memset(t->llc, 0, (size_t)t->nr_cpus * sizeof(int));
	if ((t->llc_known && levels_from_llc(t) < 0) ||
	    level_all(t, t->llc_known ? "NUMA" : "ALL") < 0)
		return topo_fail(t);
	return 0;
}

/* The domain names debugfs gives a level of the model ("DIE" was "PKG" before v6.7). */
static bool domain_is(const char *recorded, const char *level)
{
	if (!recorded)
		return false;
	if (!strcmp(recorded, "DIE"))
		recorded = "PKG";
	return !strcmp(recorded, level);
}

static unsigned int domain_flags(const char *flags)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} known[] = { { "SD_BALANCE_EXEC", CFSR_SD_BALANCE_EXEC },
		      { "SD_BALANCE_FORK", CFSR_SD_BALANCE_FORK },
		      { "SD_BALANCE_WAKE", CFSR_SD_BALANCE_WAKE },
		      { "SD_WAKE_AFFINE", CFSR_SD_WAKE_AFFINE },
		      { "SD_SHARE_CPUCAPACITY", CFSR_SD_SHARE_CPUCAPACITY },
		      { "SD_SHARE_LLC", CFSR_SD_SHARE_LLC },
		      { "SD_SHARE_PKG_RESOURCES", CFSR_SD_SHARE_LLC },
		      { "SD_PREFER_SIBLING", CFSR_SD_PREFER_SIBLING },
		      { "SD_NUMA", CFSR_SD_NUMA } };
	unsigned int bits = 0;
	size_t i, n;
	const char *p;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		n = strlen(known[i].name);
		for (p = strstr(flags, known[i].name); p; p = strstr(p + n, known[i].name))
			if ((p == flags || p[-1] == ' ' || p[-1] == '|') &&
			    (!p[n] || p[n] == ' ' || p[n] == '|' || p[n] == '\n'))
				bits |= known[i].bit;
	}
	return bits;
}

/*
 * The values of the scheduling domains the recorder read (debugfs
 * sched/domains/cpuN/domainM, v5.13+) in place of sd_init()'s defaults: a
 * model level takes those of the recorded domains of its name (the lowest
 * CPU's), or, when no name matches and every CPU has as many recorded
 * domains as the model has levels, those at its position.  A level takes
 * the recorded flags, and each number the recording has.
 */
static void take_domains(struct cfsr_topo *t, const struct cfsr_trace_info *in)
{
	const struct cfsr_sched_domain *d, *pick;
	size_t i;
	int lv, per_cpu = -1;
	bool by_name = false;

	for (lv = 0; in && lv < t->nr_levels; lv++)
		for (i = 0; i < in->nr_sched_domains; i++)
			by_name =
				by_name || domain_is(in->sched_domains[i].name, t->levels[lv].name);
	for (i = 0; in && i < in->nr_sched_domains; i++)
		if (in->sched_domains[i].cpu == 0 && in->sched_domains[i].level + 1 > per_cpu)
			per_cpu = in->sched_domains[i].level + 1;
	for (lv = 0; in && lv < t->nr_levels; lv++) {
		struct cfsr_topo_level *l = &t->levels[lv];

		pick = NULL;
		for (i = 0; i < in->nr_sched_domains && !pick; i++) {
			d = &in->sched_domains[i];
			if (by_name ? domain_is(d->name, l->name) :
				      per_cpu == t->nr_levels && d->level == lv)
				pick = d;
		}
		if (!pick)
			continue;
		if (pick->flags)
			l->flags = domain_flags(pick->flags);
		if (pick->imbalance_pct)
			l->imbalance_pct = pick->imbalance_pct;
		l->min_interval = pick->min_interval;
		l->max_interval = pick->max_interval;
		l->busy_factor = pick->busy_factor;
		l->recorded = true;
		t->domains_recorded = true;
	}
}

int cfsr_topo_top_with(const struct cfsr_topo *t, unsigned int flags)
{
	int lv;

	for (lv = 0; lv < t->nr_levels && (t->levels[lv].flags & flags) == flags; lv++)
		;
	return lv - 1;
}

/*
 * A busy CPU's interval of a domain whose sd->balance_interval is @ms:
 * times busy_factor, msecs_to_jiffies(), clamped to one jiffy and to
 * max_load_balance_interval (HZ * num_online_cpus() / 10, the trace's
 * CPUs taken as online), as get_sd_balance_interval() makes it
 * (kernel/sched/fair.c, v5.7-v6.18).  Differs: the busy interval's one
 * jiffy less of v5.10 up to its removal (release not pinned here) is not
 * taken.
 */
static uint64_t busy_ns(const struct cfsr_topo *t, const struct cfsr_topo_level *l, uint64_t ms,
			int hz)
{
	uint64_t jiffies, max_jiffies;

	ms *= l->busy_factor ? l->busy_factor : 16;
	if (hz <= 0)
		hz = 250;
	jiffies = (ms * (uint64_t)hz + 999) / 1000;
	max_jiffies = (uint64_t)hz * (uint64_t)t->nr_cpus / 10;
	if (max_jiffies && jiffies > max_jiffies)
		jiffies = max_jiffies;
	if (!jiffies)
		jiffies = 1;
	return jiffies * 1000000000 / (uint64_t)hz;
}

uint64_t cfsr_topo_busy_interval_ns(const struct cfsr_topo *t, int lv, int cpu, int hz)
{
	const struct cfsr_topo_level *l = &t->levels[lv];

	return busy_ns(t, l, l->min_interval ? l->min_interval : (uint64_t)l->weight[cpu], hz);
}

/*
 * load_balance() (sched_balance_rq() from v6.10; kernel/sched/fair.c,
 * v5.7-v6.18) doubles sd->balance_interval each time it finds the domain
 * balanced, while it is below max_interval, and sets it back to
 * min_interval when it finds an imbalance: the largest value it reaches
 * is min_interval doubled until it is no longer below max_interval
 * (sd_init(): min_interval the domain's weight, max_interval twice it).
 * Differs: LBF_ALL_PINNED (every task of the busiest CPU pinned) lets it
 * grow to MAX_PINNED_INTERVAL (512 ms), not taken.
 */
uint64_t cfsr_topo_max_busy_interval_ns(const struct cfsr_topo *t, int lv, int cpu, int hz)
{
	const struct cfsr_topo_level *l = &t->levels[lv];
	uint64_t lo = l->min_interval ? l->min_interval : (uint64_t)l->weight[cpu];
	uint64_t hi = l->max_interval ? l->max_interval : 2 * (uint64_t)l->weight[cpu];
	uint64_t bi = lo ? lo : 1;

	while (bi < hi)
		bi *= 2;
	return busy_ns(t, l, bi, hz);
}

int cfsr_topo_init(struct cfsr_topo *t, const struct cfsr_trace_info *in, int nr_cpus)
{
	const char **lists;
	bool topo = in && in->nr_topo >= nr_cpus;
	int c, w;

	if (topo_start(t, nr_cpus) < 0)
		return -1;
	lists = calloc((size_t)t->nr_cpus, sizeof(*lists));
	if (!lists)
		return topo_fail(t);
	t->llc_known = in && in->nr_caches;
	for (c = 0; t->llc_known && c < t->nr_cpus; c++) {
		lists[c] = cfsr_topo_llc_span(in, c);
		if (!lists[c] || !list_span(lists[c], t->nr_cpus, c, &t->llc[c], &w))
			t->llc_known = false;
	}
	for (c = 0; t->llc_known && c < t->nr_cpus; c++)
		if (t->llc[t->llc[c]] != t->llc[c])
			t->llc_known = false; /* spans that overlap without being equal */
	if (!t->llc_known) {
		free(lists);
		memset(t->llc, 0, (size_t)t->nr_cpus * sizeof(int));
		if (level_all(t, "ALL") < 0)
			return topo_fail(t);
		take_domains(t, in);
		return 0;
	}
	/* SMT (sd_init(): SD_SHARE_CPUCAPACITY, imbalance_pct 110), MC, PKG, then all */
	for (c = 0; topo && c < t->nr_cpus; c++)
		lists[c] = in->topo[c].thread_siblings;
	if ((topo && level_from_lists(t, "SMT", 110, lists) < 0) || levels_from_llc(t) < 0)
		goto fail;
	for (c = 0; topo && c < t->nr_cpus; c++)
		lists[c] = in->topo[c].core_siblings;
	if ((topo && level_from_lists(t, "PKG", 117, lists) < 0) || level_all(t, "NUMA") < 0)
		goto fail;
	free(lists);
	take_domains(t, in);
	return 0;
fail:
	free(lists);
	return topo_fail(t);
}

void cfsr_topo_release(struct cfsr_topo *t)
{
	int i;

	for (i = 0; i < t->nr_levels; i++) {
		free(t->levels[i].span);
		free(t->levels[i].weight);
	}
	free(t->llc);
	memset(t, 0, sizeof(*t));
}

bool cfsr_topo_share_llc(const struct cfsr_topo *t, int a, int b)
{
	if (a < 0 || b < 0 || a >= t->nr_cpus || b >= t->nr_cpus)
		return false;
	return t->llc[a] == t->llc[b];
}

int cfsr_topo_level_of(const struct cfsr_topo *t, int a, int b)
{
	int i;

	if (a < 0 || b < 0 || a >= t->nr_cpus || b >= t->nr_cpus)
		return -1;
	for (i = 0; i < t->nr_levels; i++)
		if (t->levels[i].span[a] == t->levels[i].span[b])
			return i;
	return -1;
}

bool cfsr_topo_freq_from_cpufreq(const struct cfsr_trace_info *info)
{
	const char *u = info->uname;
	int i;

	if (!u || (!strstr(u, "aarch64") && !strstr(u, " arm")))
		return false;
	for (i = 0; i < info->nr_topo; i++)
		if (info->topo[i].max_freq_khz)
			return true;
	return false;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine's scheduling topology as the comparators use it: each CPU's
 * last-level cache (LLC) and the levels of scheduling domains above it,
 * from what a trace says about itself (struct cfsr_trace_info: the caches
 * of the recorder's metadata or of a perf.data's HEADER_CACHE, and the
 * CPU topology's thread and package sibling lists).
 *
 * The LLC of a CPU is the highest-level data or unified cache whose
 * shared_cpu_list holds it: the span of sd_llc, the highest domain with
 * SD_SHARE_LLC (SD_SHARE_PKG_RESOURCES before v6.10; update_top_cache_domain()
 * in kernel/sched/topology.c), which the default topology levels build from
 * cpu_coregroup_mask() (the LLC's CPUs on x86 and arm64).  Without caches
 * the LLC is unknown and every CPU is taken as in one LLC, as the
 * comparators assumed before caches were recorded.
 *
 * The domain levels mirror default_topology[] (SMT, MC, PKG) and
 * build_sched_domains(): SMT spans a CPU's thread siblings, MC its LLC,
 * PKG its package; a level whose spans equal those of the level below, or
 * that spans one CPU everywhere, is dropped as sd_degenerate() and
 * sd_parent_degenerate() drop it; a level "NUMA" spanning every CPU tops
 * them when the packages do not.  Cluster (CLS) and real NUMA distances
 * are not modelled.
 */
#ifndef CFSR_TOPOLOGY_H
#define CFSR_TOPOLOGY_H

#include <stdbool.h>

#include "trace.h"

#define CFSR_TOPO_MAX_LEVELS 4

/**
 * struct cfsr_topo_level - one level of scheduling domains
 * @name: "SMT", "MC", "PKG", "NUMA"; "ALL" when the LLC is unknown
 * @span: per CPU, the lowest CPU of its domain's span at this level (the
 *        span's id)
 * @weight: per CPU, the number of CPUs in that span (sd->span_weight)
 * @imbalance_pct: sd_init(): 110 for SMT (SD_SHARE_CPUCAPACITY), else 117;
 *                 the recorded domain's where @recorded
 * @flags: the CFSR_SD_* flags the rules read: sd_init()'s SD_BALANCE_FORK,
 *         SD_BALANCE_EXEC, SD_WAKE_AFFINE and SD_PREFER_SIBLING, with
 *         SD_SHARE_CPUCAPACITY and SD_SHARE_LLC for SMT, SD_SHARE_LLC for
 *         MC (and ALL, one LLC), SD_NUMA and no SD_PREFER_SIBLING for NUMA;
 *         or the recorded domain's
 * @min_interval: the recorded sd->min_interval (ms), 0: sd_init()'s, the
 *                domain's weight
 * @max_interval: the recorded sd->max_interval (ms), 0: twice the weight
 * @busy_factor: the recorded sd->busy_factor, 0: sd_init()'s 16
 * @recorded: the values come from the scheduling domains the recorder read
 *            (debugfs), not from sd_init()'s defaults
 */
struct cfsr_topo_level {
	const char *name;
	int *span;
	int *weight;
	unsigned int imbalance_pct;
	unsigned int flags;
	unsigned int min_interval;
	unsigned int max_interval;
	unsigned int busy_factor;
	bool recorded;
};

/* The domain flags the rules read (include/linux/sched/sd_flags.h names). */
#define CFSR_SD_BALANCE_EXEC 0x1
#define CFSR_SD_BALANCE_FORK 0x2
#define CFSR_SD_BALANCE_WAKE 0x4
#define CFSR_SD_WAKE_AFFINE 0x8
#define CFSR_SD_SHARE_CPUCAPACITY 0x10
/* SD_SHARE_LLC, SD_SHARE_PKG_RESOURCES before v6.10 */
#define CFSR_SD_SHARE_LLC 0x20
#define CFSR_SD_PREFER_SIBLING 0x40
#define CFSR_SD_NUMA 0x80
#define CFSR_SD_DEFAULT_FLAGS \
	(CFSR_SD_BALANCE_EXEC | CFSR_SD_BALANCE_FORK | CFSR_SD_WAKE_AFFINE | CFSR_SD_PREFER_SIBLING)

/**
 * struct cfsr_topo - the topology
 * @nr_cpus: CPUs
 * @llc_known: every CPU's LLC came from the trace's caches
 * @llc: per CPU, the lowest CPU of its LLC (all 0 when unknown)
 * @nr_levels: domain levels, lowest first; the last spans every CPU
 * @levels: the levels
 * @domains_recorded: some level took the recorded domains' values
 */
struct cfsr_topo {
	int nr_cpus;
	bool llc_known;
	bool domains_recorded;
	int *llc;
	int nr_levels;
	struct cfsr_topo_level levels[CFSR_TOPO_MAX_LEVELS];
};

/**
 * cfsr_topo_init() - the topology of a trace's @nr_cpus CPUs
 * @in: what the trace says about itself, NULL for none (one LLC)
 * Return: 0, or -1 after cfsr_error() (out of memory).
 */
int cfsr_topo_init(struct cfsr_topo *t, const struct cfsr_trace_info *in, int nr_cpus);

/* A topology of @nr_cpus CPUs with the LLC of each CPU in @llc (NULL: one LLC). */
int cfsr_topo_init_llc(struct cfsr_topo *t, int nr_cpus, const int *llc);

void cfsr_topo_release(struct cfsr_topo *t);

/* cpus_share_cache(): @a and @b are in one LLC (any CPU out of range: false). */
bool cfsr_topo_share_llc(const struct cfsr_topo *t, int a, int b);

/* The lowest level whose domain of @a spans @b, or -1. */
int cfsr_topo_level_of(const struct cfsr_topo *t, int a, int b);

/*
 * The highest level of the run of levels from the lowest up that all
 * have every flag of @flags (select_task_rq_fair()'s sd for a fork or an
 * exec), -1 when the lowest lacks one.
 */
int cfsr_topo_top_with(const struct cfsr_topo *t, unsigned int flags);

/*
 * get_sd_balance_interval() of a busy CPU in @cpu's domain at level @lv:
 * min_interval (the domain's weight by default) times busy_factor (16)
 * ms, in jiffies at @hz, at least one and at most
 * max_load_balance_interval (HZ x CPUs / 10); returned in ns.
 */
uint64_t cfsr_topo_busy_interval_ns(const struct cfsr_topo *t, int lv, int cpu, int hz);

/*
 * The longest busy interval of that domain: its balance_interval as far as
 * load_balance()'s doubling while balanced takes it (min_interval doubled
 * until not below max_interval, twice the weight by default), times
 * busy_factor, as cfsr_topo_busy_interval_ns(); in ns.
 */
uint64_t cfsr_topo_max_busy_interval_ns(const struct cfsr_topo *t, int lv, int cpu, int hz);

/**
 * cfsr_topo_llc_span() - the LLC of @cpu as the trace's caches give it
 * Return: the shared_cpu_list of the highest-level data or unified cache
 * that holds @cpu, NULL when unknown.
 */
const char *cfsr_topo_llc_span(const struct cfsr_trace_info *in, int cpu);

/* Does the CPU list @list ("0-3,8", as sysfs writes it) hold @cpu? */
bool cfsr_cpu_list_has(const char *list, int cpu);

/**
 * cfsr_topo_freq_from_cpufreq() - whether the traced kernel's frequency scale follows cpufreq
 * @info: what the file says about itself
 *
 * arm and arm64 kernels set arch_scale_freq_capacity() to cur_freq * 1024
 * / max_freq at each frequency change (topology_set_freq_scale()), which
 * power:cpu_frequency reports with the new frequency; x86 kernels compute
 * it at each tick from APERF/MPERF (v5.7+), which no event shows.
 * Return: true when @info's uname names an arm or arm64 machine and its
 * metadata gives a CPU's cpuinfo_max_freq.
 */
bool cfsr_topo_freq_from_cpufreq(const struct cfsr_trace_info *info);

#endif /* CFSR_TOPOLOGY_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a trace says about itself, and what reading it found.
 *
 * Readers fill struct cfsr_trace_info when they open a file and keep
 * struct cfsr_trace_stats up to date while events are read.  Both are plain
 * data: consumers in lib/ (replay, summaries) and cmd/ read them without
 * knowing which reader produced them.
 */
#ifndef CFSR_TRACE_H
#define CFSR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct cfsr_event_type - one event type the trace declares
 * @system: trace system, e.g. "sched"
 * @name: event name as the trace names it, e.g. "sched_switch"
 * @known: decoded into events; unknown types are skipped and counted
 */
struct cfsr_event_type {
	const char *system;
	const char *name;
	bool known;
};

/**
 * struct cfsr_cpu_topo - one CPU's place in the machine, as sysfs names it
 * @core_id: topology/core_id, -1 unknown
 * @package_id: topology/physical_package_id, -1 unknown
 * @die_id: topology/die_id, -1 unknown
 * @thread_siblings: topology/thread_siblings_list (a CPU list, "0,4" or
 *                   "0-1"), NULL unknown
 * @core_siblings: topology/core_siblings_list (the package's CPUs), NULL unknown
 * @die_siblings: topology/die_cpus_list, NULL unknown
 * @capacity: cpu_capacity, arch_scale_cpu_capacity() (1..1024), 0 unknown
 *            (then 1024: a perf.data does not carry it)
 * @max_freq_khz: cpufreq/cpuinfo_max_freq, 0 unknown
 */
struct cfsr_cpu_topo {
	int core_id;
	int package_id;
	int die_id;
	const char *thread_siblings;
	const char *core_siblings;
	const char *die_siblings;
	uint32_t capacity;
	uint64_t max_freq_khz;
};

/**
 * struct cfsr_cpu_cache - one cache, as sysfs cpuN/cache/indexK names it
 * (the recorder's metadata) or perf's HEADER_CACHE gives it
 * @level: cache level (1, 2, 3, ...)
 * @type: "Data", "Instruction" or "Unified"
 * @size: size as sysfs writes it ("48K"), NULL unknown
 * @line_size: coherency_line_size in bytes, 0 unknown
 * @sets: number_of_sets, 0 unknown
 * @ways: ways_of_associativity, 0 unknown
 * @shared_cpus: shared_cpu_list, the CPUs that share it ("0-3")
 *
 * A cache shared by several CPUs is listed once.
 */
struct cfsr_cpu_cache {
	int level;
	const char *type;
	const char *size;
	uint32_t line_size;
	uint32_t sets;
	uint32_t ways;
	const char *shared_cpus;
};

/**
 * struct cfsr_sched_domain - one of a CPU's scheduling domains, as the
 * recorder read /sys/kernel/debug/sched/domains/cpuN/domainM
 * @cpu: N
 * @level: M (0 the lowest)
 * @name: the domain's name ("SMT", "MC", "PKG", ...), NULL unknown
 * @flags: its flags as debugfs prints them ("SD_BALANCE_NEWIDLE ..."),
 *         NULL unknown
 * @imbalance_pct: sd->imbalance_pct, 0 unknown
 * @min_interval: sd->min_interval (ms), 0 unknown
 * @max_interval: sd->max_interval (ms), 0 unknown
 * @busy_factor: sd->busy_factor, 0 unknown
 */
struct cfsr_sched_domain {
	int cpu;
	int level;
	const char *name;
	const char *flags;
	unsigned int imbalance_pct;
	unsigned int min_interval;
	unsigned int max_interval;
	unsigned int busy_factor;
};

/**
 * struct cfsr_cgroup_name - a cgroup id and its path, as a perf.data's
 * PERF_RECORD_CGROUP gives them
 * @id: cgroup_id(), the kernfs node id of the cgroup in its hierarchy
 * @path: its path from the hierarchy's root ("/" for the root)
 */
struct cfsr_cgroup_name {
	uint64_t id;
	const char *path;
};

/**
 * struct cfsr_task_cgroup - a task seen in a cgroup: a (tid, cgroup id)
 * pair that samples carried (PERF_SAMPLE_CGROUP)
 */
struct cfsr_task_cgroup {
	int tid;
	uint64_t id;
};

/**
 * struct cfsr_trace_info - facts from the file's headers
 *
 * Strings are owned by the reader and live until the trace is closed.
 * Unknown values are NULL, 0 or -1 as documented per member.
 */
struct cfsr_trace_info {
	/* reader that decoded the file, e.g. "trace.dat" */
	const char *reader;
	/* file format version, 0 if the format has none */
	unsigned int file_version;
	/* "none", or the compression algorithm, e.g. "zstd" */
	const char *compression;
	/* kernel release (uname -r), NULL if the file does not say */
	const char *kernel_release;
	/* whole uname string as recorded, NULL if absent */
	const char *uname;
	/* trace clock name, e.g. "local", "perf"; NULL if unknown */
	const char *clock;
	/* number of CPUs the trace was recorded for */
	int nr_cpus;
	/* scheduler tick rate from metadata, 0 if the file does not say */
	int hz;
	/* the preempted bit of sched_switch's prev_state is known from the format */
	bool preempt_bit_known;
	/* the metadata 'cfsreplay record' stored (JSON text), NULL if none */
	const char *record_meta;
	/* the file has a recorder's metadata section that cannot be read */
	bool record_meta_bad;
	/*
	 * CONFIG_SCHED_AUTOGROUP in the kernel configuration the recorder
	 * read: 1 set, -1 not set, 0 unknown
	 */
	int sched_autogroup;
	/* sysctl_sched_base_slice as recorded (scaled, ns), 0 if the file does not say */
	uint64_t base_slice_ns;
	/*
	 * CFS kernels (v3.8-v6.5): sysctl_sched_latency,
	 * sysctl_sched_min_granularity and sysctl_sched_wakeup_granularity as
	 * recorded (scaled, ns), 0 where the file does not say
	 */
	uint64_t latency_ns;
	uint64_t min_granularity_ns;
	uint64_t wakeup_granularity_ns;
	/* sysctl_sched_features as recorded, valid when has_sched_features */
	uint64_t sched_features;
	bool has_sched_features;
	/* the feature names by bit the recorder read from the kernel, NULL if none */
	const char *const *sched_feat_names;
	size_t nr_sched_feat_names;
	/* how the recorder read them, e.g. "vmlinux BTF", NULL if it did not */
	const char *sched_feat_names_source;
	/* the file holds kernel-truth snapshots stored by 'cfsreplay record' */
	bool has_record_truth;
	/* ring-buffer overruns the recorder counted (CPU stats), -1 unknown */
	int64_t overruns;
	/* event types declared by the file; counts index this table */
	int nr_types;
	const struct cfsr_event_type *types;
	/*
	 * The CPU topology, @nr_topo entries indexed by CPU (0 when the file
	 * has none), and where it came from, e.g. "perf.data CPU_TOPOLOGY".
	 */
	const struct cfsr_cpu_topo *topo;
	int nr_topo;
	const char *topo_source;
	/*
	 * The caches (@nr_caches, each listed once; 0 when the file has
	 * none: the LLC is then unknown) and where they came from, e.g.
	 * "perf.data CACHE"; the scheduling domains the recorder could read
	 * (debugfs), 0 when none.
	 */
	const struct cfsr_cpu_cache *caches;
	size_t nr_caches;
	const char *caches_source;
	const struct cfsr_sched_domain *sched_domains;
	size_t nr_sched_domains;
	/*
	 * Cgroups named by the file (perf.data CGROUP records) and the
	 * tasks its samples placed in them.  Both grow while the trace is
	 * read (read them after the last event); the pairs are in the order
	 * first seen, a task again in a cgroup it left not repeated.
	 * @cgroup_ids: the file's samples carry cgroup ids
	 * @cgroup_samples: samples read that carried one
	 * @cgroup_bad: CGROUP records too short for their id and path
	 * @cgroup_hierarchy: which hierarchy the ids name, NULL without cgroups
	 * @cgroup_membership: NULL when the ids are the cpu controller's task
	 *                     groups, else why they are not taken as such
	 */
	const struct cfsr_cgroup_name *cgroups;
	size_t nr_cgroups;
	const struct cfsr_task_cgroup *task_cgroups;
	size_t nr_task_cgroups;
	bool cgroup_ids;
	uint64_t cgroup_samples;
	uint64_t cgroup_bad;
	const char *cgroup_hierarchy;
	const char *cgroup_membership;
};

/**
 * struct cfsr_trace_stats - counts kept while reading
 * @type_counts: records read per declared event type (nr_types entries),
 *               including types that are skipped as unknown
 * @records: records read from the file
 * @unknown: records of unknown types, skipped
 * @malformed: records too short for their format, skipped
 * @lost_notices: lost-events notices delivered as CFSR_EV_LOST
 * @lost_events: events reported lost where the count is known
 * @lost_unknown: notices that did not say how many events were lost
 * @bad_pages: ring-buffer pages that failed to decode; their events are
 *             lost and reported by notices
 * @first_ts: timestamp of the first record, valid when @records > 0
 * @last_ts: timestamp of the last record
 */
struct cfsr_trace_stats {
	uint64_t *type_counts;
	uint64_t records;
	uint64_t unknown;
	uint64_t malformed;
	uint64_t lost_notices;
	uint64_t lost_events;
	uint64_t lost_unknown;
	uint64_t bad_pages;
	uint64_t first_ts;
	uint64_t last_ts;
};

#endif /* CFSR_TRACE_H */

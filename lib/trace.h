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

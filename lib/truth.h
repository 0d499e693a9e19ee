/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's own scheduler values, as recorded next to a trace.
 *
 * Two line-oriented JSON files hold what a replay is compared with:
 *
 * - truth.jsonl: snapshots of /proc/PID/task/TID/sched and
 *   /sys/kernel/debug/sched/debug, one object per line, tagged by "kind"
 *   (snap, task, cfs_rq, cpu, cgroup, and kinds decoded only as
 *   CFSR_TRUTH_OTHER: rq_task, rt_rq, dl_rq).
 * - pelt.jsonl (usually gzip-compressed): every PELT update the kernel
 *   reported through its bare tracepoints, tagged by "type" (hdr first, then
 *   sync, sw, se, gse, cfs, ue_se, ue_cfs, rt).
 *
 * The types here are plain data; formats/truth.c reads both files into them,
 * one line at a time.  Conventions, for every struct below:
 *
 * - A number is int64_t and is CFSR_TRUTH_NONE when the line does not have
 *   it (or has it as null).  Real values never equal CFSR_TRUTH_NONE: the
 *   reader refuses a line that holds INT64_MIN, or INT64_MAX, which is also
 *   what json-c makes of larger values.
 * - The PELT signal of an entity or cfs_rq is a struct cfsr_sched_avg (the
 *   model's own type, so that the two compare field by field) together with
 *   a mask of the CFSR_AVG_* bits of the members the line had; members
 *   without their bit are 0.
 * - Times the kernel prints as "ms.nnnnnn" are integer nanoseconds in the
 *   files, and so here.  Weights are the kernel's scaled values
 *   (nice 0 = 1048576).
 * - comm is copied, truncated to CFSR_COMM_LEN - 1 bytes like the kernel's.
 *   Other strings (paths, names) are borrowed from the reader: NULL when
 *   absent, valid until the next cfsr_truth_next() or cfsr_truth_close().
 */
#ifndef CFSR_TRUTH_H
#define CFSR_TRUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "pelt.h"

/* A number the line does not have. */
#define CFSR_TRUTH_NONE INT64_MIN

/* Members of struct cfsr_sched_avg, for the avg_fields masks. */
#define CFSR_AVG_LAST_UPDATE_TIME (1U << 0)
#define CFSR_AVG_LOAD_SUM (1U << 1)
#define CFSR_AVG_RUNNABLE_SUM (1U << 2)
#define CFSR_AVG_UTIL_SUM (1U << 3)
#define CFSR_AVG_PERIOD_CONTRIB (1U << 4)
#define CFSR_AVG_LOAD_AVG (1U << 5)
#define CFSR_AVG_RUNNABLE_AVG (1U << 6)
#define CFSR_AVG_UTIL_AVG (1U << 7)
#define CFSR_AVG_UTIL_EST (1U << 8)
#define CFSR_AVG_ALL 0x1ffU
/* The members sched_debug prints for a cfs_rq: no sums, no last_update_time. */
#define CFSR_AVG_AVERAGES \
	(CFSR_AVG_LOAD_AVG | CFSR_AVG_RUNNABLE_AVG | CFSR_AVG_UTIL_AVG | CFSR_AVG_UTIL_EST)

/* ---- truth.jsonl ----------------------------------------------------------------------------- */

/**
 * struct cfsr_truth_snap - one snapshot's header ("kind": "snap")
 * @seq: snapshot number N
 * @trace_ts_begin: trace.dat time of the "truth-begin N" marker (ns)
 * @trace_ts_mid: time of "truth-mid N"; task rows were read before it
 * @trace_ts_end: time of "truth-end N"; cfs_rq and cpu rows before it
 * @ktime: sched_debug header: ktime (ns)
 * @sched_clk: sched_debug header: sched_clk (ns)
 * @cpu_clk: sched_debug header: cpu_clk (ns)
 * @jiffies: sched_debug header: jiffies
 */
struct cfsr_truth_snap {
	int64_t seq;
	int64_t trace_ts_begin;
	int64_t trace_ts_mid;
	int64_t trace_ts_end;
	int64_t ktime;
	int64_t sched_clk;
	int64_t cpu_clk;
	int64_t jiffies;
};

/**
 * struct cfsr_truth_task - one thread in one snapshot ("kind": "task")
 * @seq: snapshot number
 * @pid: thread group id
 * @tid: thread id
 * @comm: "comm" (else "sched_comm", else "stat_comm"); "" when absent
 * @cpu: the task's CPU (/proc stat)
 * @state: state letter (/proc stat), '\0' when absent
 * @nice: nice level
 * @prio: kernel prio (120 for nice 0)
 * @policy: scheduling policy (0 SCHED_NORMAL, 3 SCHED_BATCH, 5 SCHED_IDLE, ...)
 * @weight: se.load.weight (scaled)
 * @avg: se.avg.*; util_est as printed (in the recorded files it never carries
 *       UTIL_AVG_UNCHANGED, while pelt.jsonl's values of the same task do)
 * @avg_fields: CFSR_AVG_* bits of the se.avg members present (the file has
 *              no period_contrib)
 * @exec_start: se.exec_start (clock_task ns)
 * @sum_exec_runtime: se.sum_exec_runtime (ns)
 * @vruntime: se.vruntime (ns; can be negative as printed)
 * @nr_migrations: se.nr_migrations
 * @nr_switches: nr_switches
 * @session: the task's session id (0 when the row has none)
 * @autogroup: the session's autogroup path, e.g. "/autogroup-12"
 * @autogroup_nice: its nice level
 * @cgroup_cpu: cpu cgroup path ("/" for the root)
 * @read_errors: the line has "read_errors": the task exited while being read
 */
struct cfsr_truth_task {
	int64_t seq;
	int64_t pid;
	int64_t tid;
	char comm[CFSR_COMM_LEN];
	int64_t cpu;
	char state;
	int64_t nice;
	int64_t prio;
	int64_t policy;
	int64_t weight;
	struct cfsr_sched_avg avg;
	unsigned int avg_fields;
	int64_t exec_start;
	int64_t sum_exec_runtime;
	int64_t vruntime;
	int64_t nr_migrations;
	int64_t nr_switches;
	int64_t session;
	const char *autogroup;
	int64_t autogroup_nice;
	const char *cgroup_cpu;
	bool read_errors;
};

/**
 * struct cfsr_truth_cfs_rq - one cfs_rq in one snapshot ("kind": "cfs_rq")
 * @seq: snapshot number
 * @cpu: the cfs_rq's CPU
 * @path: "/" for the root, "/autogroup-N" or a cgroup path
 * @load: cfs_rq->load.weight (scaled)
 * @avg: load_avg, runnable_avg, util_avg, util_est (CFSR_AVG_AVERAGES)
 * @avg_fields: CFSR_AVG_* bits of the @avg members present
 * @removed_load_avg: removed.load_avg
 * @removed_util_avg: removed.util_avg
 * @removed_runnable_avg: removed.runnable_avg
 * @tg_load_avg_contrib: this cfs_rq's contribution to its group's load_avg
 * @tg_load_avg: the task group's load_avg, summed over CPUs
 * @nr_queued: entities queued on this cfs_rq
 * @h_nr_queued: tasks queued in the hierarchy below
 * @h_nr_runnable: of those, the runnable ones (not delayed)
 * @h_nr_idle: of those, SCHED_IDLE ones
 * @has_se: the cfs_rq is a group's: the se_* members below are filled
 * @se_weight: the group entity's se->load.weight (scaled)
 * @se_avg: its se->avg.load_avg, util_avg and runnable_avg
 * @se_avg_fields: CFSR_AVG_* bits of the @se_avg members present
 * @se_exec_start: se->exec_start
 * @se_vruntime: se->vruntime
 * @se_sum_exec_runtime: se->sum_exec_runtime
 */
struct cfsr_truth_cfs_rq {
	int64_t seq;
	int64_t cpu;
	const char *path;
	int64_t load;
	struct cfsr_sched_avg avg;
	unsigned int avg_fields;
	int64_t removed_load_avg;
	int64_t removed_util_avg;
	int64_t removed_runnable_avg;
	int64_t tg_load_avg_contrib;
	int64_t tg_load_avg;
	int64_t nr_queued;
	int64_t h_nr_queued;
	int64_t h_nr_runnable;
	int64_t h_nr_idle;
	bool has_se;
	int64_t se_weight;
	struct cfsr_sched_avg se_avg;
	unsigned int se_avg_fields;
	int64_t se_exec_start;
	int64_t se_vruntime;
	int64_t se_sum_exec_runtime;
};

/**
 * struct cfsr_truth_cpu - one runqueue in one snapshot ("kind": "cpu")
 * @seq: snapshot number
 * @cpu: the CPU
 * @clock: rq->clock (ns)
 * @clock_task: rq->clock_task (ns); @clock - @clock_task grows with steal time
 * @nr_running: rq->nr_running
 * @nr_switches: rq->nr_switches
 * @curr_pid: "curr->pid", 0 when idle
 */
struct cfsr_truth_cpu {
	int64_t seq;
	int64_t cpu;
	int64_t clock;
	int64_t clock_task;
	int64_t nr_running;
	int64_t nr_switches;
	int64_t curr_pid;
};

/**
 * struct cfsr_truth_cgroup - a "cgroup" row (`cfsreplay record` snapshots):
 * one group of a cpu controller hierarchy as the snapshot found it
 * @seq: snapshot number
 * @version: the hierarchy's cgroup version (1 or 2)
 * @path: the group's path, "/" for the root (borrowed)
 * @shares: its cpu.shares (v1), CFSR_TRUTH_NONE if absent
 * @weight: its cpu.weight (v2), CFSR_TRUTH_NONE if absent
 * @idle: its cpu.idle, CFSR_TRUTH_NONE if absent
 */
struct cfsr_truth_cgroup {
	int64_t seq;
	int64_t version;
	const char *path;
	int64_t shares;
	int64_t weight;
	int64_t idle;
};

/**
 * struct cfsr_truth_other - a truth.jsonl line of a kind not decoded
 * @seq: snapshot number
 * @cpu: "cpu", if the line has it
 * @kind: the line's kind, e.g. "rq_task", "rt_rq", "dl_rq" (borrowed)
 */
struct cfsr_truth_other {
	int64_t seq;
	int64_t cpu;
	const char *kind;
};

/* ---- pelt.jsonl ------------------------------------------------------------------------------ */

#define CFSR_PELT_TYPES               \
	X(CFSR_PELT_HDR, "hdr")       \
	X(CFSR_PELT_SYNC, "sync")     \
	X(CFSR_PELT_SW, "sw")         \
	X(CFSR_PELT_SE, "se")         \
	X(CFSR_PELT_GSE, "gse")       \
	X(CFSR_PELT_CFS, "cfs")       \
	X(CFSR_PELT_UE_SE, "ue_se")   \
	X(CFSR_PELT_UE_CFS, "ue_cfs") \
	X(CFSR_PELT_RT, "rt")         \
	X(CFSR_PELT_OTHER, "other")

/* The "type" of a pelt.jsonl line; CFSR_PELT_OTHER for any type not listed. */
enum cfsr_pelt_type {
#define X(type, name) type,
	CFSR_PELT_TYPES
#undef X
		CFSR_PELT_NR
};

/**
 * struct cfsr_pelt_cgroup - one entry of the header's cgroup_ids map
 * @id: cgroup id
 * @path: cpu cgroup path
 */
struct cfsr_pelt_cgroup {
	uint64_t id;
	const char *path;
};

/**
 * struct cfsr_pelt_hdr - the first line of a pelt.jsonl ("type": "hdr")
 * @format: "format", e.g. "pelt-bpf/1"; NULL when absent
 * @loader_pid: pid of the recorder
 * @trace_clock: clock.trace_clock: the trace clock of every ts ("local",
 *               "perf"); NULL when absent
 * @offset_ns: clock.offset_ns: trace.dat time = ktime + @offset_ns
 * @precision_ns: clock.precision_ns: half the width of the offset's interval
 * @counts: counts.<type>: records the recorder wrote per type (hdr, sync, sw
 *          and other are never counted there, so stay CFSR_TRUTH_NONE)
 * @sent: kernel_counters.sent: records and sw events sent by the BPF program
 * @dropped: kernel_counters.dropped: records lost to a full ring buffer
 * @nr_cgroup_ids: entries in @cgroup_ids
 * @cgroup_ids: the cgroups that existed at the start, in file order
 *
 * Owned by the reader, strings included: valid until cfsr_truth_close().
 */
struct cfsr_pelt_hdr {
	const char *format;
	const char *trace_clock;
	int64_t loader_pid;
	int64_t offset_ns;
	int64_t precision_ns;
	int64_t counts[CFSR_PELT_NR];
	int64_t sent;
	int64_t dropped;
	size_t nr_cgroup_ids;
	const struct cfsr_pelt_cgroup *cgroup_ids;
};

/**
 * struct cfsr_pelt_rec - one line of a pelt.jsonl
 * @type: the line's type
 * @type_name: the line's "type" string (borrowed), useful for CFSR_PELT_OTHER
 * @hdr: for CFSR_PELT_HDR, the header (owned by the reader); else NULL
 *
 * Common to se, gse, cfs, ue_se, ue_cfs and rt:
 * @ts: trace.dat time (ns) = @ktime + hdr offset_ns
 * @ktime: CLOCK_MONOTONIC when the tracepoint fired (also for sw)
 * @cpu: CPU that ran the tracepoint (also for sw)
 * @rq_cpu: CPU whose runqueue the object belongs to
 * @clock: that rq's clock
 * @clock_task: its clock_task
 * @clock_pelt: its clock_pelt; its PELT time is @clock_pelt - @lost_idle_time
 * @lost_idle_time: its lost_idle_time
 * @rq_nr_running: its nr_running
 * @avg: the entity's or cfs_rq's sched_avg (for rt, the rq's avg_rt), as
 *       the kernel holds it: a task's util_est with its UTIL_AVG_UNCHANGED bit
 * @avg_fields: CFSR_AVG_* bits of the @avg members present
 * @obj: id of the kernel object within the file; for a group entity the id
 *       of its own cfs_rq
 *
 * Entities (se, gse, ue_se):
 * @parent_obj: obj of the cfs_rq the entity is queued on
 * @pid: tgid (se, ue_se)
 * @tid: thread id (se, ue_se)
 * @comm: task name (se, ue_se); "" when absent
 * @weight: se->load.weight for entities, cfs_rq->load.weight for cfs (scaled)
 * @on_rq: se->on_rq
 * @sched_delayed: the entity is a delayed dequeue
 * @depth: se->depth
 * @exec_start: se->exec_start
 * @sum_exec_runtime: se->sum_exec_runtime
 * @parent_tg: path of the cfs_rq the entity is on (borrowed)
 * @parent_cg_id: its cgroup id
 * @parent_autogroup: its autogroup id, if it is an autogroup
 * @parent_root: 1 if it is the root cfs_rq, if given
 * @group: "group" of ue_se: 1 for a group entity
 *
 * Groups (gse, cfs, ue_cfs):
 * @tg: path of the task group (borrowed)
 * @cg_id: its cgroup id
 * @autogroup: its autogroup id, if it is an autogroup
 * @root: 1 for the root group, if given
 * @level: 0 for the root, 1 for top level, ...
 * @nr_queued: the group cfs_rq's nr_queued
 * @h_nr_queued: its h_nr_queued
 * @h_nr_runnable: its h_nr_runnable
 * @h_nr_idle: its h_nr_idle (cfs, ue_cfs)
 *
 * cfs_rqs (cfs, ue_cfs):
 * @tg_load_avg_contrib: cfs_rq->tg_load_avg_contrib
 * @tg_load_avg: the task group's load_avg, summed over CPUs
 * @tg_shares: the task group's shares (scaled cpu.shares)
 * @propagate: cfs_rq->propagate
 * @prop_runnable_sum: cfs_rq->prop_runnable_sum (signed)
 * @removed_nr: cfs_rq->removed.nr
 * @removed_load_avg: cfs_rq->removed.load_avg
 * @removed_util_avg: cfs_rq->removed.util_avg
 * @removed_runnable_avg: cfs_rq->removed.runnable_avg
 * @on_list: the cfs_rq is on the leaf list
 *
 * EEVDF state (captures of v6.6+ kernels by `cfsreplay record`; CFSR_TRUTH_NONE
 * in files without it).  The kernel's u64 values are held modulo 2^64.
 * Entities (se, gse, ue_se):
 * @vruntime: se->vruntime
 * @deadline: se->deadline (relative to @vruntime if @rel_deadline)
 * @vlag: se->vlag; meaningful only while the entity is not queued (@on_rq 0):
 *        from v6.19 the union's vprot while it is queued
 * @slice: se->slice
 * @rel_deadline: se->rel_deadline (v6.12+)
 * @curr: 1 if the entity is its cfs_rq's curr
 * cfs_rqs (cfs, ue_cfs):
 * @zero_vruntime: the base of the sums (cfs_rq->zero_vruntime; min_vruntime
 *                 before v6.18)
 * @avg_vruntime: cfs_rq->avg_vruntime (sum_w_vruntime from v6.19)
 * @avg_load: cfs_rq->avg_load (sum_weight from v6.19)
 * @curr_vruntime: vruntime of cfs_rq->curr if it is queued, else 0
 * @curr_weight: its load.weight (scaled), 0 without a queued curr
 *
 * Clock calibration (sync; sw uses @trace_ts too):
 * @n: number of the "pelt-sync N" marker
 * @mono_before: CLOCK_MONOTONIC read right before the marker write
 * @mono_after: CLOCK_MONOTONIC read right after it
 * @ok: the marker was found in the trace
 * @trace_ts: trace.dat time of the marker (sync) or of the same switch (sw)
 *
 * The recorder's own switches (sw):
 * @prev_pid: sched_switch prev_pid
 * @next_pid: sched_switch next_pid
 */
struct cfsr_pelt_rec {
	enum cfsr_pelt_type type;
	const char *type_name;
	const struct cfsr_pelt_hdr *hdr;

	int64_t ts;
	int64_t ktime;
	int64_t cpu;
	int64_t rq_cpu;
	int64_t clock;
	int64_t clock_task;
	int64_t clock_pelt;
	int64_t lost_idle_time;
	int64_t rq_nr_running;
	struct cfsr_sched_avg avg;
	unsigned int avg_fields;
	int64_t obj;

	int64_t parent_obj;
	int64_t pid;
	int64_t tid;
	char comm[CFSR_COMM_LEN];
	int64_t weight;
	int64_t on_rq;
	int64_t sched_delayed;
	int64_t depth;
	int64_t exec_start;
	int64_t sum_exec_runtime;
	const char *parent_tg;
	int64_t parent_cg_id;
	int64_t parent_autogroup;
	int64_t parent_root;
	int64_t group;

	const char *tg;
	int64_t cg_id;
	int64_t autogroup;
	int64_t root;
	int64_t level;
	int64_t nr_queued;
	int64_t h_nr_queued;
	int64_t h_nr_runnable;
	int64_t h_nr_idle;

	int64_t tg_load_avg_contrib;
	int64_t tg_load_avg;
	int64_t tg_shares;
	int64_t propagate;
	int64_t prop_runnable_sum;
	int64_t removed_nr;
	int64_t removed_load_avg;
	int64_t removed_util_avg;
	int64_t removed_runnable_avg;
	int64_t on_list;

	int64_t vruntime;
	int64_t deadline;
	int64_t vlag;
	int64_t slice;
	int64_t rel_deadline;
	int64_t curr;
	int64_t zero_vruntime;
	int64_t avg_vruntime;
	int64_t avg_load;
	int64_t curr_vruntime;
	int64_t curr_weight;

	int64_t n;
	int64_t mono_before;
	int64_t mono_after;
	int64_t ok;
	int64_t trace_ts;

	int64_t prev_pid;
	int64_t next_pid;
};

/* ---- items ----------------------------------------------------------------------------------- */

#define CFSR_TRUTH_KINDS               \
	X(CFSR_TRUTH_SNAP, "snap")     \
	X(CFSR_TRUTH_TASK, "task")     \
	X(CFSR_TRUTH_CFS_RQ, "cfs_rq") \
	X(CFSR_TRUTH_CPU, "cpu")       \
	X(CFSR_TRUTH_CGROUP, "cgroup") \
	X(CFSR_TRUTH_OTHER, "other")   \
	X(CFSR_TRUTH_PELT, "pelt")

/* What an item holds: one of the truth.jsonl kinds, or a pelt.jsonl line. */
enum cfsr_truth_kind {
#define X(kind, name) kind,
	CFSR_TRUTH_KINDS
#undef X
		CFSR_TRUTH_NR
};

/**
 * struct cfsr_truth_item - one line of either file
 * @kind: which member of the union is filled
 * @line: line number in the file, from 1
 */
struct cfsr_truth_item {
	enum cfsr_truth_kind kind;
	int64_t line;
	union {
		struct cfsr_truth_snap snap;
		struct cfsr_truth_task task;
		struct cfsr_truth_cfs_rq cfs_rq;
		struct cfsr_truth_cpu cpu;
		struct cfsr_truth_cgroup cgroup;
		struct cfsr_truth_other other;
		struct cfsr_pelt_rec pelt;
	};
};

/* Which of the two files a reader is reading. */
enum cfsr_truth_format {
	CFSR_TRUTH_FMT_SNAPSHOTS,
	CFSR_TRUTH_FMT_PELT,
};

#endif /* CFSR_TRUTH_H */

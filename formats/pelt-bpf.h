/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What formats/pelt.bpf.c sends to user space: one fixed-size record per
 * firing of a PELT tracepoint, a cgroup record the first time a cgroup is
 * met, and the clock-calibration samples.  Shared by the BPF program
 * (compiled with clang -target bpf) and formats/peltcap.c, so it uses only
 * the kernel's UAPI integer types.
 *
 * Records go through a BPF ring buffer in the order they were reserved;
 * calibration samples go through a perf event array, because a perf sample
 * carries a PERF_SAMPLE_TIME stamp taken with local_clock(), the clock of
 * the `perf` trace clock (see docs/PELT-CAPTURE.md).
 */
#ifndef CFSR_PELT_BPF_H
#define CFSR_PELT_BPF_H

#include <linux/types.h>

/* Record types; the names of the pelt.jsonl "type" each becomes. */
enum pelt_bpf_type {
	PELT_BPF_SE = 1, /* pelt_se_tp, task entity: "se" */
	PELT_BPF_GSE, /* pelt_se_tp, group entity: "gse" */
	PELT_BPF_CFS, /* pelt_cfs_tp: "cfs" */
	PELT_BPF_UE_SE, /* sched_util_est_se_tp: "ue_se" */
	PELT_BPF_UE_CFS, /* sched_util_est_cfs_tp: "ue_cfs" */
	PELT_BPF_RT, /* pelt_rt_tp: "rt" */
	PELT_BPF_CGROUP, /* a cgroup's name pieces, once per cgroup id */
};

/* Flags of struct pelt_bpf_rec */
#define PELT_BPF_F_GROUP (1U << 0) /* the entity is a group entity (se->my_q != NULL) */
#define PELT_BPF_F_ROOT (1U << 1) /* tg is the root task group */
#define PELT_BPF_F_AUTOGROUP (1U << 2) /* tg is an autogroup */
#define PELT_BPF_F_PARENT_ROOT (1U << 3) /* the entity's cfs_rq is the root's */
#define PELT_BPF_F_PARENT_AUTOGROUP (1U << 4) /* the entity's cfs_rq is an autogroup's */

/* What struct pelt_bpf_rec's EEVDF members hold (@eevdf) */
#define PELT_BPF_EEVDF_SE (1U << 0) /* vruntime, deadline, vlag, slice */
#define PELT_BPF_EEVDF_REL_DEADLINE (1U << 1) /* rel_deadline (v6.12+) */
#define PELT_BPF_EEVDF_SUMS (1U << 2) /* cfs_*: the cfs_rq's sums (cfs records) */

#define PELT_BPF_COMM_LEN 16
/* Deepest task group hierarchy walked for a level or a path. */
#define PELT_BPF_MAX_LEVEL 8
/* Longest cgroup name piece kept; longer names are cut (flagged by a full piece). */
#define PELT_BPF_NAME_LEN 64

/*
 * struct pelt_bpf_rec - one firing of a PELT tracepoint
 *
 * @obj is the address of the sched_entity (task entities), of the cfs_rq
 * (cfs_rqs) or of the group entity's own cfs_rq (se->my_q), so that a group
 * entity and its cfs_rq share it; @parent_obj is se->cfs_rq.  User space
 * turns both into small integers.  @tg_* describe the task group of the
 * cfs_rq (cfs, ue_cfs) or of se->my_q (group entities); @parent_* that of
 * se->cfs_rq.  Members a type does not have are 0.
 */
struct pelt_bpf_rec {
	__u64 ktime; /* bpf_ktime_get_ns() */
	__u32 type; /* enum pelt_bpf_type */
	__u32 cpu; /* CPU that ran the tracepoint */
	__u32 flags; /* PELT_BPF_F_* */
	__s32 rq_cpu;
	__u64 obj;
	__u64 parent_obj;

	/* struct sched_avg, under the kernel's names */
	__u64 last_update_time;
	__u64 load_sum;
	__u64 runnable_sum;
	__u32 util_sum;
	__u32 period_contrib;
	__u64 load_avg;
	__u64 runnable_avg;
	__u64 util_avg;
	__u32 util_est;
	__u32 rq_nr_running;

	/* the rq of the entity or cfs_rq */
	__u64 clock;
	__u64 clock_task;
	__u64 clock_pelt;
	__u64 lost_idle_time;
	__u64 clock_idle;

	/* entities */
	__u64 weight; /* se->load.weight, or cfs_rq->load.weight */
	__u64 exec_start;
	__u64 sum_exec_runtime;
	__s32 pid; /* tgid */
	__s32 tid;
	__s32 depth;
	__u8 on_rq;
	__u8 sched_delayed;
	__u8 pad[2];
	char comm[PELT_BPF_COMM_LEN];

	/* task groups */
	__u64 cg_id; /* tg->css.cgroup->kn->id, 0 without a cgroup (autogroups) */
	__u64 autogroup; /* tg->autogroup->id */
	__u64 parent_cg_id;
	__u64 parent_autogroup;
	__s32 level; /* 0 for the root task group */
	__u32 nr_queued;
	__u32 h_nr_queued;
	__u32 h_nr_runnable;
	__u32 h_nr_idle;
	__s32 removed_nr;
	__u64 tg_load_avg_contrib;
	__s64 tg_load_avg; /* atomic_long_read(&tg->load_avg) */
	__u64 tg_shares;
	__s64 propagate;
	__s64 prop_runnable_sum;
	__u64 removed_load_avg;
	__u64 removed_util_avg;
	__u64 removed_runnable_avg;
	__s32 on_list;
	__u32 eevdf; /* PELT_BPF_EEVDF_* */

	/* EEVDF (v6.6+): entities */
	__u64 vruntime;
	__u64 deadline;
	__s64 vlag; /* the union's vprot (v6.19+) while the entity runs */
	__u64 slice;
	__u8 rel_deadline;
	__u8 is_curr; /* se->cfs_rq->curr == se */
	__u8 pad3[6];
	/* cfs_rqs: the sums avg_vruntime() reads */
	__u64 cfs_zero_vruntime; /* zero_vruntime, min_vruntime before v6.18 */
	__s64 cfs_avg_vruntime; /* avg_vruntime, sum_w_vruntime from v6.19 */
	__u64 cfs_avg_load; /* avg_load, sum_weight from v6.19 */
	__u64 cfs_curr_vruntime; /* cfs_rq->curr's, if it is queued */
	__u64 cfs_curr_weight; /* its load.weight; 0 without a queued curr */
};

/*
 * struct pelt_bpf_cgroup - the name pieces of one cgroup, sent the first
 * time its id is met: @names[0] is the cgroup's own kernfs name,
 * @names[i] that of its i-th ancestor, up to (not including) the root,
 * @level pieces in all (at most PELT_BPF_MAX_LEVEL are sent).
 */
struct pelt_bpf_cgroup {
	__u64 ktime;
	__u32 type; /* PELT_BPF_CGROUP */
	__s32 level;
	__u64 cg_id;
	char names[PELT_BPF_MAX_LEVEL][PELT_BPF_NAME_LEN];
};

/*
 * struct pelt_bpf_calib - a clock-calibration sample.  The calibration
 * program reads bpf_ktime_get_ns() (@mono_before), emits a perf sample
 * stamped by the kernel with local_clock() (@step 0), reads the monotonic
 * clock again and emits a second sample carrying both readings (@step 1).
 * The first sample's stamp therefore lies between the two readings.
 */
struct pelt_bpf_calib {
	__u64 seq;
	__u64 mono_before;
	__u64 mono_after;
	__u32 step;
	__u32 cpu;
};

/* Indices of the counters array (a per-CPU array map) */
enum pelt_bpf_counter {
	PELT_BPF_SENT,
	PELT_BPF_DROPPED,
	PELT_BPF_NR_COUNTERS,
};

#endif /* CFSR_PELT_BPF_H */

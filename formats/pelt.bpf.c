// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF side of the PELT capture: copies what the kernel's bare PELT
 * tracepoints see into a ring buffer, one struct pelt_bpf_rec per firing.
 *
 *   pelt_se_tp(struct sched_entity *se)            "se" / "gse"
 *   pelt_cfs_tp(struct cfs_rq *cfs_rq)             "cfs"
 *   sched_util_est_se_tp(struct sched_entity *se)  "ue_se"
 *   sched_util_est_cfs_tp(struct cfs_rq *cfs_rq)   "ue_cfs"
 *   pelt_rt_tp(struct rq *rq)                      "rt"
 *
 * These tracepoints have no trace event (no format, no tracefs entry);
 * they are reachable only as raw tracepoints, whose one argument is the
 * kernel object.  The kernel structs are declared here with only the
 * members read, marked preserve_access_index: libbpf relocates every
 * access against the running kernel's BTF (CO-RE), so no vmlinux.h is
 * generated and one object runs on every kernel with BTF.  Members renamed
 * across versions (cfs_rq->nr_running became nr_queued in 6.13, ...) are
 * read through "___old" flavours after a bpf_core_field_exists() check.
 *
 * A second program, pelt_calib, is never attached: user space runs it with
 * BPF_PROG_TEST_RUN on each CPU to relate bpf_ktime_get_ns() (the records'
 * stamp) to local_clock() (the `perf` trace clock) through perf samples.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "pelt-bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ---- the kernel's structs, members read only (CO-RE relocated) ------------------------------ */

struct load_weight {
	unsigned long weight;
} __attribute__((preserve_access_index));

struct sched_avg {
	__u64 last_update_time;
	__u64 load_sum;
	__u64 runnable_sum;
	__u32 util_sum;
	__u32 period_contrib;
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
	unsigned int util_est;
} __attribute__((preserve_access_index));

struct kernfs_node {
	const char *name;
	__u64 id;
} __attribute__((preserve_access_index));

struct cgroup {
	struct kernfs_node *kn;
	int level;
} __attribute__((preserve_access_index));

struct cgroup_subsys_state {
	struct cgroup *cgroup;
} __attribute__((preserve_access_index));

struct autogroup {
	unsigned long id;
} __attribute__((preserve_access_index));

typedef struct {
	long counter;
} atomic_long_t;

struct task_group {
	struct cgroup_subsys_state css;
	unsigned long shares;
	atomic_long_t load_avg;
	struct task_group *parent;
	struct autogroup *autogroup;
} __attribute__((preserve_access_index));

struct rq {
	unsigned int nr_running;
	__u64 clock;
	__u64 clock_task;
	__u64 clock_pelt;
	unsigned long lost_idle_time;
	__u64 clock_idle;
	int cpu;
	struct sched_avg avg_rt;
} __attribute__((preserve_access_index));

struct sched_entity;

/*
 * EEVDF members (v6.6+) are read only after a bpf_core_field_exists()
 * check, so that the program still loads on a CFS kernel.
 */
struct cfs_rq {
	struct load_weight load;
	unsigned int nr_queued;
	unsigned int h_nr_queued;
	unsigned int h_nr_runnable;
	unsigned int h_nr_idle;
	struct sched_avg avg;
	struct {
		int nr;
		unsigned long load_avg;
		unsigned long util_avg;
		unsigned long runnable_avg;
	} removed;
	unsigned long tg_load_avg_contrib;
	long propagate;
	long prop_runnable_sum;
	struct rq *rq;
	int on_list;
	struct task_group *tg;
	/* EEVDF (v6.6+): the base of the sums and the sums, under their v6.18 names */
	__u64 zero_vruntime;
	__s64 avg_vruntime;
	__u64 avg_load;
	struct sched_entity *curr;
} __attribute__((preserve_access_index));

/* Before 6.18: the base of the EEVDF sums was min_vruntime. */
struct cfs_rq___v617 {
	__u64 min_vruntime;
} __attribute__((preserve_access_index));

/* v6.19+ (and kernels with its renames): the sums' new names. */
struct cfs_rq___v619 {
	__s64 sum_w_vruntime;
	__u64 sum_weight;
} __attribute__((preserve_access_index));

/* Before 6.13 (commit 736c55a02c47 and its series): the *_running names. */
struct cfs_rq___old {
	unsigned int nr_running;
	unsigned int h_nr_running;
	unsigned int idle_h_nr_running;
} __attribute__((preserve_access_index));

struct sched_entity {
	struct load_weight load;
	unsigned char on_rq;
	unsigned char sched_delayed;
	unsigned char rel_deadline;
	__u64 deadline;
	__u64 vruntime;
	__s64 vlag;
	__u64 slice;
	__u64 exec_start;
	__u64 sum_exec_runtime;
	int depth;
	struct cfs_rq *cfs_rq;
	struct cfs_rq *my_q;
	struct sched_avg avg;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	char comm[16];
	struct sched_entity se;
} __attribute__((preserve_access_index));

/* ---- maps ------------------------------------------------------------------------------------ */

/* Size set by user space before loading (bpf_map__set_max_entries). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);
} records SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PELT_BPF_NR_COUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* Cgroup ids whose name pieces were sent. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u8);
} cgroups_sent SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} calib_events SEC(".maps");

/* ---- helpers --------------------------------------------------------------------------------- */

static __always_inline void count(__u32 which)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &which);

	if (c)
		(*c)++;
}

static __always_inline void read_avg(struct pelt_bpf_rec *r, const struct sched_avg *sa)
{
	r->last_update_time = BPF_CORE_READ(sa, last_update_time);
	r->load_sum = BPF_CORE_READ(sa, load_sum);
	r->runnable_sum = BPF_CORE_READ(sa, runnable_sum);
	r->util_sum = BPF_CORE_READ(sa, util_sum);
	r->period_contrib = BPF_CORE_READ(sa, period_contrib);
	r->load_avg = BPF_CORE_READ(sa, load_avg);
	r->runnable_avg = BPF_CORE_READ(sa, runnable_avg);
	r->util_avg = BPF_CORE_READ(sa, util_avg);
	r->util_est = BPF_CORE_READ(sa, util_est);
}

static __always_inline void read_rq(struct pelt_bpf_rec *r, const struct rq *rq)
{
	if (!rq)
		return;
	r->rq_cpu = BPF_CORE_READ(rq, cpu);
	r->rq_nr_running = BPF_CORE_READ(rq, nr_running);
	r->clock = BPF_CORE_READ(rq, clock);
	r->clock_task = BPF_CORE_READ(rq, clock_task);
	if (bpf_core_field_exists(rq->clock_pelt))
		r->clock_pelt = BPF_CORE_READ(rq, clock_pelt);
	if (bpf_core_field_exists(rq->lost_idle_time))
		r->lost_idle_time = BPF_CORE_READ(rq, lost_idle_time);
	if (bpf_core_field_exists(rq->clock_idle))
		r->clock_idle = BPF_CORE_READ(rq, clock_idle);
}

/*
 * Wake the reader only when the buffer is a quarter full: a wakeup per
 * record would make the reader run (and be recorded) after every PELT
 * update, a feedback loop of tens of thousands of records a second.  The
 * reader polls on a timer anyway.
 */
static __always_inline __u64 wakeup_flag(void)
{
	__u64 avail = bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA);
	__u64 size = bpf_ringbuf_query(&records, BPF_RB_RING_SIZE);

	return avail > size / 4 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * Send the name pieces of @tg's cgroup once, walking the task group
 * hierarchy (which mirrors the cpu controller's cgroup hierarchy) up to the
 * root.  The id is marked as sent only when the record was reserved, so a
 * full ring buffer delays it, never loses it.
 */
static __always_inline void send_cgroup(struct task_group *tg, __u64 id)
{
	struct pelt_bpf_cgroup *c;
	__u8 one = 1;
	int i, n = 0;

	if (bpf_map_lookup_elem(&cgroups_sent, &id))
		return;
	c = bpf_ringbuf_reserve(&records, sizeof(*c), 0);
	if (!c) {
		count(PELT_BPF_DROPPED);
		return;
	}
	c->type = PELT_BPF_CGROUP;
	c->cg_id = id;
	for (i = 0; i < PELT_BPF_MAX_LEVEL; i++) {
		struct task_group *parent = tg ? BPF_CORE_READ(tg, parent) : 0;
		const char *name;

		c->names[i][0] = '\0';
		if (!parent)
			continue;
		name = BPF_CORE_READ(tg, css.cgroup, kn, name);
		if (name)
			bpf_probe_read_kernel_str(c->names[i], PELT_BPF_NAME_LEN, name);
		n++;
		tg = parent;
	}
	/* deeper than PELT_BPF_MAX_LEVEL: say so by a level beyond the pieces */
	if (tg && BPF_CORE_READ(tg, parent))
		n++;
	c->level = n;
	c->ktime = bpf_ktime_get_ns();
	bpf_ringbuf_submit(c, wakeup_flag());
	count(PELT_BPF_SENT);
	bpf_map_update_elem(&cgroups_sent, &id, &one, BPF_ANY);
}

/*
 * Identify task group @tg: its cgroup id (0 for autogroups, whose css has
 * no cgroup), autogroup id, root flag and level.  Returns the flags.
 */
static __always_inline __u32 read_tg(struct task_group *tg, __u64 *cg_id, __u64 *autogroup,
				     __s32 *level, bool is_parent)
{
	struct task_group *t = tg;
	struct cgroup *cgrp;
	__u32 flags = 0;
	int i, n = 0;

	if (!tg)
		return 0;
	cgrp = BPF_CORE_READ(tg, css.cgroup);
	*cg_id = cgrp ? BPF_CORE_READ(cgrp, kn, id) : 0;
	if (bpf_core_field_exists(tg->autogroup)) {
		struct autogroup *ag = BPF_CORE_READ(tg, autogroup);

		if (ag) {
			*autogroup = BPF_CORE_READ(ag, id);
			flags |= is_parent ? PELT_BPF_F_PARENT_AUTOGROUP : PELT_BPF_F_AUTOGROUP;
		}
	}
	if (!BPF_CORE_READ(tg, parent))
		flags |= is_parent ? PELT_BPF_F_PARENT_ROOT : PELT_BPF_F_ROOT;
	if (level) {
		for (i = 0; i < PELT_BPF_MAX_LEVEL + 1; i++) {
			t = BPF_CORE_READ(t, parent);
			if (!t)
				break;
			n++;
		}
		*level = n;
	}
	if (cgrp && *cg_id && !(flags & (PELT_BPF_F_ROOT | PELT_BPF_F_PARENT_ROOT)))
		send_cgroup(tg, *cg_id);
	return flags;
}

/* The members of a cfs_rq that "cfs" records and group entities carry. */
static __always_inline void read_cfs_rq_counts(struct pelt_bpf_rec *r, struct cfs_rq *cfs_rq)
{
	if (bpf_core_field_exists(cfs_rq->nr_queued)) {
		r->nr_queued = BPF_CORE_READ(cfs_rq, nr_queued);
		r->h_nr_queued = BPF_CORE_READ(cfs_rq, h_nr_queued);
	} else {
		struct cfs_rq___old *old = (void *)cfs_rq;

		r->nr_queued = BPF_CORE_READ(old, nr_running);
		r->h_nr_queued = BPF_CORE_READ(old, h_nr_running);
	}
	/* before 6.13 every queued task was runnable: no delayed dequeue */
	if (bpf_core_field_exists(cfs_rq->h_nr_runnable))
		r->h_nr_runnable = BPF_CORE_READ(cfs_rq, h_nr_runnable);
	else
		r->h_nr_runnable = r->h_nr_queued;
	if (bpf_core_field_exists(cfs_rq->h_nr_idle)) {
		r->h_nr_idle = BPF_CORE_READ(cfs_rq, h_nr_idle);
	} else {
		struct cfs_rq___old *old = (void *)cfs_rq;

		if (bpf_core_field_exists(old->idle_h_nr_running))
			r->h_nr_idle = BPF_CORE_READ(old, idle_h_nr_running);
	}
}

/*
 * The EEVDF sums of @cfs_rq (v6.6+), under any of their names, and its
 * running entity's vruntime and weight when it is queued (avg_vruntime()
 * adds it to the sums).
 */
static __always_inline void read_cfs_rq_eevdf(struct pelt_bpf_rec *r, struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr;

	if (bpf_core_field_exists(cfs_rq->avg_vruntime)) {
		r->cfs_avg_vruntime = BPF_CORE_READ(cfs_rq, avg_vruntime);
		r->cfs_avg_load = BPF_CORE_READ(cfs_rq, avg_load);
	} else {
		struct cfs_rq___v619 *n = (void *)cfs_rq;

		if (!bpf_core_field_exists(n->sum_w_vruntime))
			return; /* CFS (before v6.6) */
		r->cfs_avg_vruntime = BPF_CORE_READ(n, sum_w_vruntime);
		r->cfs_avg_load = BPF_CORE_READ(n, sum_weight);
	}
	if (bpf_core_field_exists(cfs_rq->zero_vruntime)) {
		r->cfs_zero_vruntime = BPF_CORE_READ(cfs_rq, zero_vruntime);
	} else {
		struct cfs_rq___v617 *o = (void *)cfs_rq;

		r->cfs_zero_vruntime = BPF_CORE_READ(o, min_vruntime);
	}
	curr = BPF_CORE_READ(cfs_rq, curr);
	if (curr && BPF_CORE_READ(curr, on_rq)) {
		r->cfs_curr_vruntime = BPF_CORE_READ(curr, vruntime);
		r->cfs_curr_weight = BPF_CORE_READ(curr, load.weight);
	}
	r->eevdf |= PELT_BPF_EEVDF_SUMS;
}

/* The EEVDF state of entity @se (v6.6+): vruntime, deadline, vlag, slice, rel_deadline. */
static __always_inline void read_se_eevdf(struct pelt_bpf_rec *r, struct sched_entity *se)
{
	if (!bpf_core_field_exists(se->deadline) || !bpf_core_field_exists(se->vlag))
		return;
	r->vruntime = BPF_CORE_READ(se, vruntime);
	r->deadline = BPF_CORE_READ(se, deadline);
	r->vlag = BPF_CORE_READ(se, vlag);
	if (bpf_core_field_exists(se->slice))
		r->slice = BPF_CORE_READ(se, slice);
	if (bpf_core_field_exists(se->rel_deadline)) {
		r->rel_deadline = BPF_CORE_READ(se, rel_deadline);
		r->eevdf |= PELT_BPF_EEVDF_REL_DEADLINE;
	}
	r->eevdf |= PELT_BPF_EEVDF_SE;
}

static __always_inline struct pelt_bpf_rec *reserve(__u32 type)
{
	struct pelt_bpf_rec *r = bpf_ringbuf_reserve(&records, sizeof(*r), 0);

	if (!r) {
		count(PELT_BPF_DROPPED);
		return 0;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->type = type;
	r->cpu = bpf_get_smp_processor_id();
	return r;
}

static __always_inline void submit(struct pelt_bpf_rec *r, __u64 ktime)
{
	r->ktime = ktime;
	bpf_ringbuf_submit(r, wakeup_flag());
	count(PELT_BPF_SENT);
}

/* ---- programs -------------------------------------------------------------------------------- */

/*
 * The stamp is read first: the tracepoint fired right before, and the
 * reads that follow take a microsecond or two.
 */
static __always_inline int on_se(struct sched_entity *se, bool util_est)
{
	__u64 ktime = bpf_ktime_get_ns();
	struct cfs_rq *my_q = BPF_CORE_READ(se, my_q);
	struct cfs_rq *cfs_rq = BPF_CORE_READ(se, cfs_rq);
	struct task_group *tg;
	struct pelt_bpf_rec *r;

	if (util_est)
		r = reserve(PELT_BPF_UE_SE);
	else
		r = reserve(my_q ? PELT_BPF_GSE : PELT_BPF_SE);
	if (!r)
		return 0;
	read_avg(r, &se->avg);
	r->weight = BPF_CORE_READ(se, load.weight);
	r->exec_start = BPF_CORE_READ(se, exec_start);
	r->sum_exec_runtime = BPF_CORE_READ(se, sum_exec_runtime);
	r->depth = BPF_CORE_READ(se, depth);
	r->on_rq = BPF_CORE_READ(se, on_rq);
	if (bpf_core_field_exists(se->sched_delayed))
		r->sched_delayed = BPF_CORE_READ(se, sched_delayed);
	r->parent_obj = (__u64)cfs_rq;
	read_se_eevdf(r, se);
	if (cfs_rq) {
		r->is_curr = BPF_CORE_READ(cfs_rq, curr) == se;
		tg = BPF_CORE_READ(cfs_rq, tg);
		r->flags |= read_tg(tg, &r->parent_cg_id, &r->parent_autogroup, 0, true);
		read_rq(r, BPF_CORE_READ(cfs_rq, rq));
	}
	if (my_q) {
		/* entity_is_task() is false: a group entity, identified by its own cfs_rq */
		r->flags |= PELT_BPF_F_GROUP;
		r->obj = (__u64)my_q;
		tg = BPF_CORE_READ(my_q, tg);
		r->flags |= read_tg(tg, &r->cg_id, &r->autogroup, &r->level, false);
		read_cfs_rq_counts(r, my_q);
	} else {
		struct task_struct *p = (void *)se - bpf_core_field_offset(struct task_struct, se);

		r->obj = (__u64)se;
		r->pid = BPF_CORE_READ(p, tgid);
		r->tid = BPF_CORE_READ(p, pid);
		bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), &p->comm);
	}
	submit(r, ktime);
	return 0;
}

static __always_inline int on_cfs(struct cfs_rq *cfs_rq, bool util_est)
{
	__u64 ktime = bpf_ktime_get_ns();
	struct pelt_bpf_rec *r = reserve(util_est ? PELT_BPF_UE_CFS : PELT_BPF_CFS);
	struct task_group *tg;

	if (!r)
		return 0;
	read_avg(r, &cfs_rq->avg);
	r->obj = (__u64)cfs_rq;
	r->weight = BPF_CORE_READ(cfs_rq, load.weight);
	read_cfs_rq_counts(r, cfs_rq);
	r->tg_load_avg_contrib = BPF_CORE_READ(cfs_rq, tg_load_avg_contrib);
	r->propagate = BPF_CORE_READ(cfs_rq, propagate);
	r->prop_runnable_sum = BPF_CORE_READ(cfs_rq, prop_runnable_sum);
	r->removed_nr = BPF_CORE_READ(cfs_rq, removed.nr);
	r->removed_load_avg = BPF_CORE_READ(cfs_rq, removed.load_avg);
	r->removed_util_avg = BPF_CORE_READ(cfs_rq, removed.util_avg);
	r->removed_runnable_avg = BPF_CORE_READ(cfs_rq, removed.runnable_avg);
	r->on_list = BPF_CORE_READ(cfs_rq, on_list);
	read_cfs_rq_eevdf(r, cfs_rq);
	tg = BPF_CORE_READ(cfs_rq, tg);
	if (tg) {
		r->flags |= read_tg(tg, &r->cg_id, &r->autogroup, &r->level, false);
		r->tg_load_avg = BPF_CORE_READ(tg, load_avg.counter);
		r->tg_shares = BPF_CORE_READ(tg, shares);
	}
	read_rq(r, BPF_CORE_READ(cfs_rq, rq));
	submit(r, ktime);
	return 0;
}

SEC("raw_tp/pelt_se_tp")
int pelt_se(struct bpf_raw_tracepoint_args *ctx)
{
	return on_se((struct sched_entity *)ctx->args[0], false);
}

SEC("raw_tp/sched_util_est_se_tp")
int util_est_se(struct bpf_raw_tracepoint_args *ctx)
{
	return on_se((struct sched_entity *)ctx->args[0], true);
}

SEC("raw_tp/pelt_cfs_tp")
int pelt_cfs(struct bpf_raw_tracepoint_args *ctx)
{
	return on_cfs((struct cfs_rq *)ctx->args[0], false);
}

SEC("raw_tp/sched_util_est_cfs_tp")
int util_est_cfs(struct bpf_raw_tracepoint_args *ctx)
{
	return on_cfs((struct cfs_rq *)ctx->args[0], true);
}

SEC("raw_tp/pelt_rt_tp")
int pelt_rt(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 ktime = bpf_ktime_get_ns();
	struct rq *rq = (struct rq *)ctx->args[0];
	struct pelt_bpf_rec *r = reserve(PELT_BPF_RT);

	if (!r)
		return 0;
	read_avg(r, &rq->avg_rt);
	read_rq(r, rq);
	submit(r, ktime);
	return 0;
}

/*
 * Run by user space through BPF_PROG_TEST_RUN, never attached.  A perf
 * sample's PERF_SAMPLE_TIME is perf_event_clock(), local_clock() unless the
 * event asked for another clock; emitted between two bpf_ktime_get_ns()
 * readings, it brackets the offset between the two clocks.
 */
__u64 calib_seq;

SEC("raw_tp")
int pelt_calib(void *ctx)
{
	struct pelt_bpf_calib c = {};

	c.seq = __sync_fetch_and_add(&calib_seq, 1);
	c.cpu = bpf_get_smp_processor_id();
	c.mono_before = bpf_ktime_get_ns();
	c.step = 0;
	bpf_perf_event_output(ctx, &calib_events, BPF_F_CURRENT_CPU, &c, sizeof(c));
	c.mono_after = bpf_ktime_get_ns();
	c.step = 1;
	bpf_perf_event_output(ctx, &calib_events, BPF_F_CURRENT_CPU, &c, sizeof(c));
	return 0;
}

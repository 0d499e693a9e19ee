/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The normalized scheduler event.
 *
 * Every reader (trace.dat, perf.data, text) decodes its records into
 * struct cfsr_event, and everything downstream (replay, comparators,
 * summaries) sees only this type.  Events are delivered in global time
 * order across CPUs.  Nothing here depends on a tracing library.
 */
#ifndef CFSR_EVENT_H
#define CFSR_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#define CFSR_COMM_LEN 16

/* Task state bits of sched_switch's prev_state, as the kernel reports them. */
#define CFSR_TASK_RUNNING 0x0000
#define CFSR_TASK_INTERRUPTIBLE 0x0001
#define CFSR_TASK_UNINTERRUPTIBLE 0x0002
/* sched_switch prev_state of an exiting task: EXIT_DEAD (X) or EXIT_ZOMBIE (Z) */
#define CFSR_TASK_DEAD_BITS 0x0030

#define CFSR_EVENT_KINDS                          \
	X(CFSR_EV_SWITCH, "switch")               \
	X(CFSR_EV_WAKING, "waking")               \
	X(CFSR_EV_WAKEUP, "wakeup")               \
	X(CFSR_EV_WAKEUP_NEW, "wakeup_new")       \
	X(CFSR_EV_MIGRATE, "migrate")             \
	X(CFSR_EV_FORK, "fork")                   \
	X(CFSR_EV_EXIT, "exit")                   \
	X(CFSR_EV_FREE, "free")                   \
	X(CFSR_EV_EXEC, "exec")                   \
	X(CFSR_EV_STAT_RUNTIME, "stat_runtime")   \
	X(CFSR_EV_PI_SETPRIO, "pi_setprio")       \
	X(CFSR_EV_CGROUP_ATTACH, "cgroup_attach") \
	X(CFSR_EV_CGROUP_MKDIR, "cgroup_mkdir")   \
	X(CFSR_EV_CGROUP_RMDIR, "cgroup_rmdir")   \
	X(CFSR_EV_MARKER, "marker")               \
	X(CFSR_EV_SETAFFINITY, "setaffinity")     \
	X(CFSR_EV_SETPRIORITY, "setpriority")     \
	X(CFSR_EV_CPU_FREQ, "cpu_frequency")      \
	X(CFSR_EV_LOST, "lost")

enum cfsr_event_kind {
#define X(kind, name) kind,
	CFSR_EVENT_KINDS
#undef X
		CFSR_EV_NR
};

/**
 * struct cfsr_event - one scheduler event
 * @ts: timestamp in ns, in the trace's clock
 * @cpu: CPU whose buffer recorded the event
 * @pid: pid of the task current on @cpu when the event fired
 *       (common_pid); -1 when the source does not carry it
 * @kind: what happened
 * @type: index of the source event type, for per-type counting; see the
 *        reader's type table.  -1 for synthesized events (lost notices).
 *
 * String members (comm arrays aside) are borrowed from the reader and stay
 * valid until the next call that reads an event.
 */
struct cfsr_event {
	uint64_t ts;
	int cpu;
	int pid;
	enum cfsr_event_kind kind;
	int type;
	/*
	 * The cgroup id a perf.data sample carried (PERF_SAMPLE_CGROUP,
	 * perf record --all-cgroups): that of the task current when it
	 * fired, @pid, in the perf_event controller's hierarchy; 0 when none
	 * (no cgroup id is 0: the root's is 1)
	 */
	uint64_t cgroup_id;
	union {
		/* CFSR_EV_SWITCH */
		struct {
			int prev_pid;
			int prev_prio;
			int next_pid;
			int next_prio;
			/* state bits with the preempted marker removed */
			uint64_t prev_state;
			/* prev was preempted (still runnable) */
			bool preempt;
			char prev_comm[CFSR_COMM_LEN];
			char next_comm[CFSR_COMM_LEN];
		} sw;
		/* CFSR_EV_WAKING, CFSR_EV_WAKEUP, CFSR_EV_WAKEUP_NEW */
		struct {
			int pid;
			int prio;
			int target_cpu;
			/* 1 or 0 where the kernel's format has "success", else -1 */
			int success;
			char comm[CFSR_COMM_LEN];
		} wake;
		/* CFSR_EV_MIGRATE */
		struct {
			int pid;
			int prio;
			int orig_cpu;
			int dest_cpu;
			char comm[CFSR_COMM_LEN];
		} migrate;
		/* CFSR_EV_FORK */
		struct {
			int parent_pid;
			int child_pid;
			char parent_comm[CFSR_COMM_LEN];
			char child_comm[CFSR_COMM_LEN];
		} fork;
		/* CFSR_EV_EXIT, CFSR_EV_FREE */
		struct {
			int pid;
			int prio;
			/* 1/0 for the thread group's last thread where known, else -1 */
			int group_dead;
			char comm[CFSR_COMM_LEN];
		} exit;
		/* CFSR_EV_EXEC */
		struct {
			int pid;
			int old_pid;
			const char *filename;
		} exec;
		/* CFSR_EV_STAT_RUNTIME */
		struct {
			int pid;
			/* ns of clock_task since the task's previous update */
			uint64_t runtime;
			char comm[CFSR_COMM_LEN];
		} runtime;
		/* CFSR_EV_PI_SETPRIO */
		struct {
			int pid;
			int oldprio;
			int newprio;
		} pi;
		/* CFSR_EV_CGROUP_ATTACH, CFSR_EV_CGROUP_MKDIR, CFSR_EV_CGROUP_RMDIR */
		struct {
			/* hierarchy id (cgroup v1 root), cgroup id, depth */
			int root;
			int level;
			uint64_t id;
			/* task moved, for attach; -1 otherwise */
			int pid;
			const char *path;
		} cgroup;
		/*
		 * CFSR_EV_SETAFFINITY: entry of the sched_setaffinity() system
		 * call.  The new mask lives in user memory and is not in the
		 * trace: only the fact that @pid's affinity may have changed.
		 */
		struct {
			/* target thread as passed: 0 means the caller (@pid above) */
			int pid;
		} affinity;
		/*
		 * CFSR_EV_SETPRIORITY: entry of the setpriority() system call,
		 * its arguments as passed (the syscall's ints): whether it
		 * succeeds is not known at its entry.
		 */
		struct {
			/* PRIO_PROCESS 0, PRIO_PGRP 1, PRIO_USER 2 */
			int which;
			/* for PRIO_PROCESS, the target thread: 0 means the caller (@pid above) */
			int who;
			/* the nice value asked for, not clamped */
			int niceval;
		} setprio;
		/* CFSR_EV_MARKER */
		struct {
			const char *text;
		} marker;
		/*
		 * CFSR_EV_CPU_FREQ: power:cpu_frequency, cpufreq set CPU
		 * @cpu's frequency to @khz (cpufreq_freq_transition_end(),
		 * or the fast switch of schedutil)
		 */
		struct {
			int cpu;
			uint64_t khz;
		} freq;
		/* CFSR_EV_LOST: events were lost on @cpu before @ts */
		struct {
			/* number lost, or -1 when the source does not know */
			int64_t nr;
		} lost;
	};
};

/**
 * cfsr_event_kind_name() - short name of an event kind
 * @kind: the kind
 *
 * Return: a static string, "?" for values out of range.
 */
const char *cfsr_event_kind_name(enum cfsr_event_kind kind);

/**
 * cfsr_event_pids() - the task pids an event names
 * @ev: the event
 * @pids: filled with up to 4 pids: common_pid and the pids in the payload
 *
 * Pid 0 (the idle task) and -1 (not known) are left out.
 * Return: the number of pids stored.
 */
int cfsr_event_pids(const struct cfsr_event *ev, int pids[4]);

/* Return: true for kinds that come from the scheduler's own tracepoints. */
bool cfsr_event_kind_is_sched(enum cfsr_event_kind kind);

#endif /* CFSR_EVENT_H */

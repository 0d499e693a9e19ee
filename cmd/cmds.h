/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The subcommands.  Each lives in cmd/<name>.c and returns an exit status:
 * 0 success, 1 divergence beyond a requested threshold, 2 error or usage.
 */
#ifndef CFSR_CMDS_H
#define CFSR_CMDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clockfeed.h"
#include "pidmap.h"

#define CFSR_EXIT_OK 0
#define CFSR_EXIT_DIVERGED 1
#define CFSR_EXIT_ERROR 2

int cmd_compare(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_info(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_signals(int argc, const char **argv);
int cmd_validate(int argc, const char **argv);

struct json_object;

/*
 * Print @o on stdout in the one JSON layout of every command's --json
 * (pretty, spaced, slashes unescaped) and release it.  Return 0, or -1
 * when json-c could not render it.
 */
int cfsr_put_json(struct json_object *o);

/*
 * The kernel's structure a clock reading carries, made in @r at the
 * reading's time: a task record's group (a move, sched_move_task()) and a
 * change of a group's shares (sched_group_set_shares()).  Return 0, or -1
 * after cfsr_error().
 */
struct cfsr_replay;
int cfsr_reading_structure(struct cfsr_replay *r, const struct cfsr_clock_reading *rd);

/*
 * The pick check's text (report.c, also compare.c): the column heads, one
 * row of counts under a label of at most 10 columns, and the reasons of
 * class @cls ('D', 'C') after @label, wrapped within 100 columns.
 */
struct cfsr_pick_cpu;
struct cfsr_pickcheck;
void cfsr_pick_text_header(void);
void cfsr_pick_text_counts(const char *label, const struct cfsr_pick_cpu *n);
void cfsr_pick_text_reasons(const struct cfsr_pickcheck *pk, char cls, const char *label);
/* The counts of a pick check as JSON (cfsreplay-output(5), *pick_check*). */
struct json_object *cfsr_pick_json_counts(const struct cfsr_pick_cpu *n);

/* Entity kinds the lock-step compares, in cfsr_fidelity order. */
enum { CFSR_FID_TASK, CFSR_FID_GROUP_ENTITY, CFSR_FID_ROOT, CFSR_FID_GROUP_CFS_RQ, CFSR_FID_NR };

/**
 * struct cfsr_fidelity - the model against the kernel's own PELT updates
 * @pelt: the file of kernel records used (owned; free())
 * @model: the profile's name
 * @compared: kernel updates compared, per kind
 * @exact: of those, the ones the model matched in every field
 */
struct cfsr_fidelity {
	char *pelt;
	const char *model;
	unsigned long long compared[CFSR_FID_NR];
	unsigned long long exact[CFSR_FID_NR];
};

/*
 * Lock-step fidelity of @trace against the kernel PELT records
 * 'cfsreplay record' writes beside it (cmd/validate.c), under the model
 * of @kernel (NULL: the trace's own).  Return 1 with @f filled, 0 when no
 * records lie beside the trace, -1 on error (after cfsr_error()).
 */
int cfsr_fidelity_beside(const char *trace, const char *kernel, struct cfsr_fidelity *f);

/* Name of a kind: "task", "group entity", "root cfs_rq", "group cfs_rq". */
const char *cfsr_fidelity_kind(int kind);

/* @f as JSON (pelt_file, model, kinds), NULL when nothing was measured. */
struct json_object *cfsr_fidelity_json(const struct cfsr_fidelity *f);

struct cfsr_comparators;
struct cfsr_trace;

/* A recorded trace's own clock readings, fed to the comparators' engine (cmd/report.c). */
struct cfsr_own_clock {
	struct cfsr_clock_feed *feed;
	struct cfsr_clock_reading rd;
	int have;
};

/*
 * When @t was made by 'cfsreplay record' with snapshots, or @given names a
 * truth.jsonl or pelt.jsonl(.gz) of the same run (cfsr_clock_source():
 * "none" takes nothing), give the comparators' engines its tasks' groups
 * and prepare its clock readings (never PELT values).  Return 1 when it
 * did, 0 when there is no source, -1 on error (after cfsr_error()).  Close
 * @oc->feed with cfsr_clock_feed_close() when done.
 */
int cfsr_comparators_own_clock(struct cfsr_comparators *c, const struct cfsr_trace *t,
			       const char *given, struct cfsr_own_clock *oc);

/* Feed the readings before trace time @ts; return -1 on a read error. */
int cfsr_comparators_clock_until(struct cfsr_comparators *c, struct cfsr_own_clock *oc,
				 uint64_t ts);

/* Print the one-line list of commands (help without arguments). */
void cfsr_list_commands(void);

/* Run "<name> -h" for "help <name>"; return its status, or -1 if no such command. */
struct cfsr_replay;

/**
 * cfsr_follow_attaches() - let @r follow the cpu controller's cgroup moves
 * @r: an engine whose tasks' groups @truth gave
 * @t: the trace (its recorder metadata may name the cpu controller's
 *     hierarchy)
 * @truth: the truth.jsonl that gave the groups, or NULL
 *
 * cgroup_attach_task events of the cpu controller's hierarchy move tasks,
 * and a task forked in the trace starts in its parent's group
 * (cfsr_replay_follow_attaches()); the autogroups @truth's rows give are
 * those forks' fallback (cfsr_task_fork_groups()).  Nothing for a file
 * that declares its event types without cgroup_attach_task (a text
 * report declares none: followed).
 * Return: 0, or -1 (reported).
 */
int cfsr_follow_attaches(struct cfsr_replay *r, const struct cfsr_trace *t, const char *truth);

int cfsr_command_usage(const char *name);

/* What --perf-cgroups=cpu assumes, for the summaries and the reports. */
#define CFSR_PERF_GROUPS_ASSUMED                                                              \
	"the cpu controller on perf_event's hierarchy and enabled in every cgroup it names; " \
	"every group's shares 1024 (NICE_0_LOAD: the file holds none); no autogroups"

/* The engines one --perf-cgroups state moves tasks in (compare --kernel: two). */
#define CFSR_PERF_GROUPS_ENGINES 2

/*
 * struct cfsr_perf_groups - a perf.data's cgroups taken as task groups
 * (--perf-cgroups=cpu; cmd/perfgroups.c)
 * @on: the option was given
 * @root: perf_event's hierarchy id in the file's cgroup_attach_task
 *        events, -1 when none of them is of it
 * @engines, @nr_engines: the engines the groups are given to (borrowed)
 * @tasks: tasks put in a group other than the root by their first sample
 * @unnamed: tasks whose first sample's cgroup no CGROUP record names
 * @sample_moves: moves made at a sample in another cgroup than the
 *                engines held (no attach of perf's hierarchy made them)
 * @last, @last_map: per task, the cgroup id of its latest sample
 */
struct cfsr_event;
struct cfsr_perf_groups {
	bool on;
	int root;
	struct cfsr_replay *engines[CFSR_PERF_GROUPS_ENGINES];
	size_t nr_engines;
	uint64_t tasks;
	uint64_t unnamed;
	uint64_t sample_moves;
	uint64_t *last;
	size_t nr_last;
	size_t alloc_last;
	struct cfsr_pidmap last_map;
};

/* Check --perf-cgroups' argument ("cpu"); return 0, or -1 (reported). */
int cfsr_perf_groups_arg(const char *cmd, const char *arg);

/* Whether @t is a perf.data, the only file whose groups --perf-cgroups takes. */
bool cfsr_perf_groups_applies(const struct cfsr_trace *t);

/*
 * Refuse --perf-cgroups on @t when it is not a perf.data, or with another
 * source of the task groups: @clock, the file cfsr_clock_source() chose
 * (a --clock FILE).  Return 0 when neither, else -1 (reported).
 */
int cfsr_perf_groups_refuse(const char *cmd, const struct cfsr_trace *t, const char *clock);

/**
 * cfsr_perf_groups_begin() - put each task in the cgroup of its first sample
 * @pg: state, set up here
 * @engines: @nr engines (at most CFSR_PERF_GROUPS_ENGINES) before their
 *           first event, fed the same events; borrowed until
 *           cfsr_perf_groups_release()
 * @cmd: the command's name, for messages
 * @t: the open trace (read again from its path, once, here)
 *
 * With the file's cgroup_attach_task events of perf_event's hierarchy,
 * the engines follow them (cfsr_replay_follow_attaches()).
 * Return: 0, or -1 (reported; a file that is not a perf.data, or whose
 * samples carry no cgroup id, too).
 */
int cfsr_perf_groups_begin(struct cfsr_perf_groups *pg, struct cfsr_replay *const *engines,
			   size_t nr, const char *cmd, const struct cfsr_trace *t);

/*
 * Before the engines replay @ev: a sample that shows its task in another
 * cgroup than an engine holds moves it there.  Return 0, or -1 (reported).
 */
int cfsr_perf_groups_event(struct cfsr_perf_groups *pg, const struct cfsr_trace *t,
			   const struct cfsr_event *ev);

/* One line on stderr: what came from the file, what is assumed. */
void cfsr_perf_groups_summary(const struct cfsr_perf_groups *pg, const char *cmd);

void cfsr_perf_groups_release(struct cfsr_perf_groups *pg);

#endif /* CFSR_CMDS_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * --perf-cgroups=cpu: a perf.data's cgroups (perf record --all-cgroups)
 * taken as the cpu controller's task groups, on the user's word.
 *
 * The file names the cgroups of the hierarchy perf_event is bound to
 * (PERF_RECORD_CGROUP) and, per sample, the cgroup of the task current
 * when it fired (PERF_SAMPLE_CGROUP); it does not say which hierarchy the
 * cpu controller is on (formats/perfdata.c).  Where the two are one (cgroup
 * v2 with cpu enabled in those cgroups, or perf_event mounted with cpu on
 * v1), the user says so and:
 *  - each task starts in the cgroup of its first sample (a first pass
 *    over the file: the (task, cgroup) pairs come in the order first seen);
 *  - cgroup_attach_task events of perf_event's hierarchy, where the file
 *    holds them, move tasks as the cpu controller's (the hierarchy is the
 *    one of the first attach whose cgroup id and path are those of a
 *    CGROUP record: the tracepoint's dst_id is cgroup_id(), as perf's);
 *  - a sample that puts its task in another cgroup than the engine holds
 *    moves it there at the sample (the kernel moved it between the task's
 *    previous sample and this one: without the attach, its instant is
 *    not known).
 * What stays assumed is said: every group's shares (the engine's
 * NICE_0_LOAD, 1024, where nothing gives them), the cpu controller in
 * every cgroup perf names, and no autogroups (the root cgroup's tasks are
 * in the root group).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cmds.h"
#include "error.h"
#include "formats.h"
#include "pidset.h"
#include "replay.h"

int cfsr_perf_groups_arg(const char *cmd, const char *arg)
{
	if (!strcmp(arg, "cpu"))
		return 0;
	return cfsr_error("%s: --perf-cgroups takes cpu (perf's cgroups are the cpu "
			  "controller's), not '%s'",
			  cmd, arg);
}

bool cfsr_perf_groups_applies(const struct cfsr_trace *t)
{
	return t->info.reader && !strcmp(t->info.reader, "perf.data");
}

/* A trace that is not a perf.data: its groups are its own (snapshots, markers, attaches). */
static int not_perf_data(const char *cmd, const struct cfsr_trace *t)
{
	return cfsr_error("%s: --perf-cgroups: '%s' is a %s, not a perf.data: its task groups "
			  "are its own",
			  cmd, t->path, t->info.reader ? t->info.reader : "trace");
}

int cfsr_perf_groups_refuse(const char *cmd, const struct cfsr_trace *t, const char *clock)
{
	if (!cfsr_perf_groups_applies(t))
		return not_perf_data(cmd, t);
	if (clock)
		return cfsr_error("%s: --perf-cgroups and --clock FILE both give the task groups; "
				  "give one (--clock none for none)",
				  cmd);
	return 0;
}

/* The path of cgroup @id among @in's CGROUP records, NULL if none names it. */
static const char *cgroup_path(const struct cfsr_trace_info *in, uint64_t id)
{
	size_t i;

	for (i = 0; i < in->nr_cgroups; i++)
		if (in->cgroups[i].id == id)
			return in->cgroups[i].path;
	return NULL;
}

/*
 * First pass: perf_event's hierarchy id in the cgroup events, and the
 * cgroup each task's first sample carried.
 */
static int first_pass(struct cfsr_perf_groups *pg, const char *cmd, const char *path)
{
	struct cfsr_trace *pt = cfsr_trace_open(path);
	struct cfsr_pidset seen = CFSR_PIDSET_INIT;
	struct cfsr_event ev;
	const char *p;
	size_t i, e;
	int ret;

	if (!pt)
		return -1;
	while ((ret = cfsr_trace_next(pt, &ev)) > 0) {
		if (pg->root >= 0 || ev.kind != CFSR_EV_CGROUP_ATTACH || ev.cgroup.level <= 0 ||
		    !ev.cgroup.path)
			continue;
		p = cgroup_path(&pt->info, ev.cgroup.id);
		if (p && !strcmp(p, ev.cgroup.path))
			pg->root = ev.cgroup.root;
	}
	if (ret == 0 && !pt->info.cgroup_ids) {
		ret = cfsr_error("%s: --perf-cgroups: '%s' has no samples with cgroup ids "
				 "(perf record --all-cgroups)",
				 cmd, path);
	}
	for (i = 0; ret == 0 && i < pt->info.nr_task_cgroups; i++) {
		const struct cfsr_task_cgroup *tc = &pt->info.task_cgroups[i];

		if (tc->tid <= 0 || cfsr_pidset_has(&seen, tc->tid))
			continue;
		if (cfsr_pidset_add(&seen, tc->tid) < 0) {
			ret = -1;
			break;
		}
		p = cgroup_path(&pt->info, tc->id);
		if (!p) {
			pg->unnamed++;
			continue;
		}
		if (!strcmp(p, "/"))
			continue;
		for (e = 0; ret == 0 && e < pg->nr_engines; e++)
			if (cfsr_replay_task_set_group(pg->engines[e], tc->tid, p) < 0)
				ret = -1;
		pg->tasks += ret == 0;
	}
	cfsr_pidset_release(&seen);
	cfsr_trace_close(pt);
	return ret < 0 ? -1 : 0;
}

int cfsr_perf_groups_begin(struct cfsr_perf_groups *pg, struct cfsr_replay *const *engines,
			   size_t nr, const char *cmd, const struct cfsr_trace *t)
{
	size_t e;

	memset(pg, 0, sizeof(*pg));
	pg->root = -1;
	pg->on = true;
	if (!cfsr_perf_groups_applies(t))
		return not_perf_data(cmd, t);
	if (nr > CFSR_PERF_GROUPS_ENGINES)
		CFSR_BUG("%zu engines for --perf-cgroups", nr);
	for (e = 0; e < nr; e++)
		pg->engines[e] = engines[e];
	pg->nr_engines = nr;
	if (first_pass(pg, cmd, t->path) < 0)
		return -1;
	for (e = 0; pg->root >= 0 && e < nr; e++)
		cfsr_replay_follow_attaches(engines[e], pg->root);
	return 0;
}

int cfsr_perf_groups_event(struct cfsr_perf_groups *pg, const struct cfsr_trace *t,
			   const struct cfsr_event *ev)
{
	const struct cfsr_task *task;
	const char *path, *now;
	bool moved = false;
	size_t e;
	long i;

	if (!pg->on || !ev->cgroup_id || ev->pid <= 0)
		return 0;
	i = cfsr_pidmap_get(&pg->last_map, ev->pid);
	if (i >= 0 && pg->last[i] == ev->cgroup_id)
		return 0;
	if (i < 0) {
		if (CFSR_ALLOC_GROW(pg->last, pg->nr_last + 1, pg->alloc_last) < 0 ||
		    cfsr_pidmap_put(&pg->last_map, ev->pid, pg->nr_last) < 0)
			return cfsr_error("out of memory");
		i = (long)pg->nr_last++;
		pg->last[i] = ev->cgroup_id;
		/* the first pass gave the group of the task's first sample */
		return 0;
	}
	pg->last[i] = ev->cgroup_id;
	path = cgroup_path(&t->info, ev->cgroup_id);
	if (!path)
		return 0;
	for (e = 0; e < pg->nr_engines; e++) {
		struct cfsr_replay *r = pg->engines[e];

		task = cfsr_replay_task(r, ev->pid);
		now = task ? cfsr_replay_group_path(r, task->group) : "/";
		if (now && !strcmp(now, path))
			continue;
		if (cfsr_replay_task_move_group(r, ev->pid, path, ev->ts) < 0)
			return -1;
		moved = true;
	}
	pg->sample_moves += moved;
	return 0;
}

void cfsr_perf_groups_summary(const struct cfsr_perf_groups *pg, const char *cmd)
{
	if (!pg->on || !pg->nr_engines)
		return;
	fprintf(stderr,
		"%s: task groups from the perf.data's cgroups, taken as the cpu controller's "
		"(--perf-cgroups=cpu): %" PRIu64 " tasks in a group from their first sample",
		cmd, pg->tasks);
	if (pg->root >= 0)
		fprintf(stderr, ", %" PRIu64 " moved at cgroup_attach_task of perf's hierarchy %d",
			cfsr_replay_stats(pg->engines[0])->attach_moves, pg->root);
	else
		fprintf(stderr, ", no cgroup_attach_task of perf's hierarchy");
	fprintf(stderr, ", %" PRIu64 " moved at a sample in another cgroup", pg->sample_moves);
	if (pg->unnamed)
		fprintf(stderr, ", %" PRIu64 " tasks in cgroups no CGROUP record names",
			pg->unnamed);
	fprintf(stderr, "; assumed: %s\n", CFSR_PERF_GROUPS_ASSUMED);
}

void cfsr_perf_groups_release(struct cfsr_perf_groups *pg)
{
	cfsr_pidmap_release(&pg->last_map);
	free(pg->last);
	memset(pg, 0, sizeof(*pg));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay info [--json] TRACE: what a trace holds.
 *
 * Reads the whole trace once and reports its format, kernel, clock, CPUs,
 * time span, records per event type (as the trace names them), distinct
 * tasks, lost and unknown events.  Memory grows with the number of tasks
 * (a pid set), not with the number of events.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmds.h"
#include "alloc.h"
#include "error.h"
#include "formats.h"
#include "pidset.h"
#include "progress.h"
#include "profile.h"
#include "schedfeat.h"
#include "topology.h"

#define INFO_FORMAT_VERSION 1

static const char *const info_usage[] = {
	"usage: cfsreplay info [--json] TRACE",
	"   or: cfsreplay info TRACE_A TRACE_B",
	"",
	"Describe a trace: reader, file version and compression, kernel release,",
	"trace clock, CPU count, time span, records per event type, tasks, lost",
	"and unknown events.  With two recordings of one run (a trace.dat and a",
	"perf.data, say), find their clock offset and list, per event type, the",
	"events one holds and the other lacks.",
	"",
	"    --json        print one JSON object (see docs/cfsreplay-output.5.txt)",
	"    -h, --help    show this help",
	"",
	"Exit status: 0 success, 2 error (unreadable or invalid trace, usage).",
	NULL,
};

struct info_summary {
	uint64_t sched_events;
	uint64_t kind_counts[CFSR_EV_NR];
	struct cfsr_pidset tasks;
};

static void print_usage(void)
{
	const char *const *u;

	for (u = info_usage; *u; u++)
		puts(*u);
}

static int scan(struct cfsr_trace *t, struct info_summary *s)
{
	struct cfsr_progress progress;
	struct cfsr_event ev;
	int ret;

	cfsr_progress_init(&progress, t->path);
	while ((ret = cfsr_trace_next(t, &ev)) > 0) {
		int pids[4], i, nr;

		s->kind_counts[ev.kind]++;
		if (cfsr_event_kind_is_sched(ev.kind))
			s->sched_events++;
		nr = cfsr_event_pids(&ev, pids);
		for (i = 0; i < nr; i++) {
			if (cfsr_pidset_add(&s->tasks, pids[i]) < 0) {
				cfsr_progress_done(&progress);
				return cfsr_error("cannot read '%s': out of memory", t->path);
			}
		}
		cfsr_progress_update(&progress, t->stats.records, ev.ts - t->stats.first_ts);
	}
	cfsr_progress_done(&progress);
	return ret;
}

static const char *meta_str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
		       json_object_get_string(v) :
		       NULL;
}

static json_object *meta_get(json_object *o, const char *key, json_type type)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, type) ? v : NULL;
}

/* One member of each cpu cgroup: "cpu.shares", "cpu.weight", "cpu.idle" if present. */
static void print_group(json_object *g)
{
	static const char *const keys[] = { "cpu.shares", "cpu.weight", "cpu.idle" };
	size_t k;

	printf("                  %s (id %" PRId64 ")",
	       meta_str(g, "path") ? meta_str(g, "path") : "?",
	       meta_get(g, "id", json_type_int) ?
		       json_object_get_int64(meta_get(g, "id", json_type_int)) :
		       -1);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (meta_get(g, keys[k], json_type_int))
			printf(" %s %" PRId64, keys[k],
			       json_object_get_int64(meta_get(g, keys[k], json_type_int)));
	printf("\n");
}

/* Names wrapped under a label, each as @prefix NAME. */
static void print_feat_list(const char *label, const char *const *names, size_t nr,
			    const char *prefix)
{
	size_t i, col = 0;

	for (i = 0; i < nr; i++) {
		size_t w = strlen(prefix) + strlen(names[i]) + 1;

		if (!i || col + w > 100) {
			printf("%s%s", i ? "\n" : "", i ? "               " : label);
			col = 16;
		}
		printf(" %s%s", prefix, names[i]);
		col += w;
	}
	if (!nr)
		printf("%s (none)", label);
	printf("\n");
}

/*
 * sysctl_sched_features by name (lib/schedfeat.h), where the names came
 * from, and the engine features that differ from the release's defaults.
 */
static void print_sched_feats(const struct cfsr_trace_info *in)
{
	const struct cfsr_profile *base = cfsr_profile_for(in->kernel_release);
	const char *on[CFSR_SCHED_FEAT_MAX], *off[CFSR_SCHED_FEAT_MAX];
	const char *differ[CFSR_SCHED_FEAT_MAX];
	struct cfsr_sched_feats f;
	size_t i, nr_on = 0, nr_off = 0, nr_differ;
	uint64_t unnamed;

	if (!in->has_sched_features)
		return;
	switch (cfsr_sched_feats_decode(&f, in)) {
	case CFSR_FEAT_UNKNOWN:
		printf("sched features: unknown: %s\n", f.why);
		return;
	case CFSR_FEAT_RECORDED:
		printf("sched features: recorded names (%s), %zu features\n", f.order, f.nr);
		break;
	case CFSR_FEAT_TABLE:
		printf("sched features: decoded by the release table (features.h order of %s), %zu features\n",
		       f.order, f.nr);
		break;
	}
	for (i = 0; i < f.nr; i++) {
		if ((f.mask >> i) & 1)
			on[nr_on++] = f.names[i];
		else
			off[nr_off++] = f.names[i];
	}
	print_feat_list("  on:          ", on, nr_on, "");
	print_feat_list("  off:         ", off, nr_off, "");
	unnamed = cfsr_sched_feat_unnamed(&f);
	if (unnamed) {
		printf("  unnamed bits:");
		for (i = 0; i < CFSR_SCHED_FEAT_MAX; i++)
			if ((unnamed >> i) & 1)
				printf(" %zu", i);
		printf(" (set, but not in the list)\n");
	}
	if (!base || !base->implemented)
		return;
	nr_differ = cfsr_sched_feats_engine(base, &f, differ);
	if (!nr_differ) {
		printf("  engine:       the defaults of model %s\n", base->name);
		return;
	}
	printf("  engine:       model %s with", base->name);
	for (i = 0; i < nr_differ; i++)
		printf(" %s", differ[i]);
	printf("\n");
}

/* What 'cfsreplay record' stored about the machine and the recording. */
static void print_record_meta(const struct cfsr_trace_info *in)
{
	json_object *m = json_tokener_parse(in->record_meta), *a, *v, *rec;
	size_t i, j;

	if (!m)
		return;
	printf("recorded by:    %s, instance %s, %" PRId64 " KiB per CPU\n",
	       meta_str(m, "recorder") ? meta_str(m, "recorder") : "?",
	       meta_str(m, "instance") ? meta_str(m, "instance") : "?",
	       meta_get(m, "buffer_kb", json_type_int) ?
		       json_object_get_int64(meta_get(m, "buffer_kb", json_type_int)) :
		       -1);
	printf("hz from:        %s\n", meta_str(m, "hz_source") ? meta_str(m, "hz_source") : "?");
	a = meta_get(m, "cpus", json_type_array);
	for (i = 0; a && i < json_object_array_length(a); i++) {
		json_object *c = json_object_array_get_idx(a, i);

		printf("%s cpu%" PRId64 ": capacity %s, core %s, package %s, siblings %s\n",
		       i ? "               " : "topology:      ",
		       json_object_get_int64(meta_get(c, "cpu", json_type_int)),
		       meta_get(c, "capacity", json_type_int) ?
			       json_object_get_string(meta_get(c, "capacity", json_type_int)) :
			       "?",
		       meta_get(c, "core_id", json_type_int) ?
			       json_object_get_string(meta_get(c, "core_id", json_type_int)) :
			       "?",
		       meta_get(c, "package_id", json_type_int) ?
			       json_object_get_string(meta_get(c, "package_id", json_type_int)) :
			       "?",
		       meta_str(c, "thread_siblings") ? meta_str(c, "thread_siblings") : "?");
	}
	v = meta_get(m, "sysctl_sched", json_type_object);
	if (v) {
		printf("sched tunables:");
		json_object_object_foreach(v, key, val)
		{
			printf(" %s=%s", key, json_object_get_string(val));
		}
		printf("\n");
	}
	print_sched_feats(in);
	printf("sched_debug:    %s\n",
	       meta_str(m, "sched_debug") ? meta_str(m, "sched_debug") : "?");
	a = meta_get(m, "cgroup_hierarchies", json_type_array);
	for (i = 0; a && i < json_object_array_length(a); i++) {
		json_object *h = json_object_array_get_idx(a, i);
		json_object *groups = meta_get(h, "groups", json_type_array);

		printf("cgroups:        v%s cpu hierarchy at %s, %zu groups\n",
		       meta_get(h, "version", json_type_int) ?
			       json_object_get_string(meta_get(h, "version", json_type_int)) :
			       "?",
		       meta_str(h, "mount") ? meta_str(h, "mount") : "?",
		       groups ? json_object_array_length(groups) : 0);
		for (j = 0; groups && j < json_object_array_length(groups); j++)
			print_group(json_object_array_get_idx(groups, j));
	}
	printf("initial state:  %" PRId64 " tasks, %" PRId64 " cfs_rqs (kernel snapshot 0)\n",
	       meta_get(m, "initial_tasks", json_type_int) ?
		       json_object_get_int64(meta_get(m, "initial_tasks", json_type_int)) :
		       -1,
	       meta_get(m, "initial_cfs_rqs", json_type_int) ?
		       json_object_get_int64(meta_get(m, "initial_cfs_rqs", json_type_int)) :
		       -1);
	rec = meta_get(m, "recording", json_type_object);
	if (rec)
		printf("snapshots:      %" PRId64 " (--truth every %" PRId64
		       " ms, of %s tasks)%s\n",
		       meta_get(rec, "snapshots", json_type_int) ?
			       json_object_get_int64(meta_get(rec, "snapshots", json_type_int)) :
			       -1,
		       meta_get(m, "truth_ms", json_type_int) ?
			       json_object_get_int64(meta_get(m, "truth_ms", json_type_int)) :
			       0,
		       meta_str(m, "truth_tasks") ? meta_str(m, "truth_tasks") : "?",
		       in->has_record_truth ? "" : ", not in the file");
	a = meta_get(m, "command", json_type_array);
	if (a) {
		printf("command:       ");
		for (i = 0; i < json_object_array_length(a); i++)
			printf(" %s", json_object_get_string(json_object_array_get_idx(a, i)));
		printf("\n");
	}
	a = meta_get(m, "notes", json_type_array);
	for (i = 0; a && i < json_object_array_length(a); i++)
		printf("note:           %s\n",
		       json_object_get_string(json_object_array_get_idx(a, i)));
	json_object_put(m);
}

/* One CPU list or id of the topology, "?" when unknown. */
static const char *topo_id(int v, char *buf, size_t size)
{
	if (v < 0)
		return "?";
	snprintf(buf, size, "%d", v);
	return buf;
}

/* The CPU topology, from whichever source the reader had. */
static void print_topology(const struct cfsr_trace_info *in)
{
	char a[16], b[16], c[16];
	int i;

	if (!in->topo_source)
		return;
	printf("cpu topology:   %s\n", in->topo_source);
	for (i = 0; i < in->nr_topo; i++) {
		const struct cfsr_cpu_topo *tp = &in->topo[i];

		printf("                cpu%d: core %s, die %s, package %s; threads %s, package cpus %s, die cpus %s\n",
		       i, topo_id(tp->core_id, a, sizeof(a)), topo_id(tp->die_id, b, sizeof(b)),
		       topo_id(tp->package_id, c, sizeof(c)),
		       tp->thread_siblings ? tp->thread_siblings : "?",
		       tp->core_siblings ? tp->core_siblings : "?",
		       tp->die_siblings ? tp->die_siblings : "?");
	}
}

/* Where the replay engine's frequency scale (arch_scale_freq_capacity()) comes from. */
static const char *freq_scale_source(const struct cfsr_trace_info *in)
{
	if (cfsr_topo_freq_from_cpufreq(in))
		return "power:cpu_frequency, cur_freq * 1024 / cpuinfo_max_freq (1024 before a "
		       "CPU's first; an arm64 AMU scale is not traced)";
	if (in->uname && (strstr(in->uname, "x86_64") || strstr(in->uname, "i686")))
		return "1024 (x86: the kernel's APERF/MPERF scale is not traced)";
	return "1024 (frequency invariance not traced)";
}

/* The CPUs of @in whose capacity the file gives. */
static int capacities_given(const struct cfsr_trace_info *in)
{
	int i, given = 0;

	for (i = 0; i < in->nr_topo; i++)
		given += in->topo[i].capacity != 0;
	return given;
}

/*
 * The CPU capacities the replay engine takes (arch_scale_cpu_capacity()),
 * and where they came from; where its frequency scale comes from.
 */
static void print_capacity(const struct cfsr_trace_info *in)
{
	int i, given = capacities_given(in);

	printf("cpu capacity:   ");
	if (!given) {
		printf("1024 on every CPU (the file does not give it)\n");
	} else {
		for (i = 0; i < in->nr_topo; i++)
			printf("%scpu%d %u", i ? ", " : "", i,
			       in->topo[i].capacity ? in->topo[i].capacity : 1024);
		printf(" (recorder metadata, sysfs cpu_capacity%s)\n",
		       given < in->nr_topo ? "; 1024 where not given" : "");
	}
	printf("freq scale:     %s\n", freq_scale_source(in));
}

/*
 * The scale inputs as the text's "cpu capacity" and "freq scale" lines:
 * per CPU the capacity the engine takes (1024 where the file gives none),
 * where the capacities came from, where the frequency scale comes from.
 */
static json_object *json_scale(const struct cfsr_trace_info *in)
{
	json_object *o = json_object_new_object(), *caps = json_object_new_array();
	int i, n = in->nr_topo > 0 ? in->nr_topo : in->nr_cpus, given = capacities_given(in);

	for (i = 0; i < n; i++)
		json_object_array_add(caps,
				      json_object_new_int(i < in->nr_topo && in->topo[i].capacity ?
								  (int)in->topo[i].capacity :
								  1024));
	json_object_object_add(o, "capacity", caps);
	json_object_object_add(
		o, "capacity_source",
		json_object_new_string(given ? "recorder metadata (sysfs cpu_capacity)" :
					       "none (1024 taken)"));
	json_object_object_add(o, "freq_scale_source",
			       json_object_new_string(freq_scale_source(in)));
	return o;
}

/*
 * The caches (in the layout of perf report's "CPU cache info"), each CPU's
 * last-level cache as the comparators take it (the distinct spans), and
 * the scheduling domains the recorder read.
 */
static void print_caches(const struct cfsr_trace_info *in)
{
	const char **spans;
	size_t i, k, n = 0;
	int c;

	if (in->caches_source)
		printf("cpu caches:     %s\n", in->caches_source);
	for (i = 0; i < in->nr_caches; i++) {
		const struct cfsr_cpu_cache *cc = &in->caches[i];

		printf("                L%d %-15s %8s [%s]\n", cc->level, cc->type ? cc->type : "?",
		       cc->size ? cc->size : "?", cc->shared_cpus);
	}
	spans = in->nr_caches && in->nr_cpus > 0 ? calloc((size_t)in->nr_cpus, sizeof(*spans)) :
						   NULL;
	for (c = 0; spans && c < in->nr_cpus; c++) {
		const char *sp = cfsr_topo_llc_span(in, c);

		if (!sp) {
			n = 0;
			break;
		}
		for (k = 0; k < n && strcmp(spans[k], sp); k++)
			;
		if (k == n)
			spans[n++] = sp;
	}
	if (!n) {
		printf("llc:            unknown, all CPUs taken as one LLC\n");
	} else {
		printf("llc:           ");
		for (k = 0; k < n; k++)
			printf(" [%s]", spans[k]);
		printf("\n");
	}
	free(spans);
	for (i = 0; i < in->nr_sched_domains; i++) {
		const struct cfsr_sched_domain *d = &in->sched_domains[i];

		printf("%s cpu%d domain%d: %s, %s",
		       i ? "               " : "sched domains: ", d->cpu, d->level,
		       d->name ? d->name : "?", d->flags ? d->flags : "?");
		if (d->imbalance_pct)
			printf("; imbalance_pct %u, interval %u-%u ms, busy_factor %u",
			       d->imbalance_pct, d->min_interval, d->max_interval, d->busy_factor);
		printf("\n");
	}
}

/* Tasks the samples placed in cgroup @id. */
static size_t cgroup_tasks(const struct cfsr_trace_info *in, uint64_t id)
{
	size_t i, n = 0;

	for (i = 0; i < in->nr_task_cgroups; i++)
		n += in->task_cgroups[i].id == id;
	return n;
}

/* The cgroups a perf.data names, and what they say of the tasks. */
static void print_cgroups(const struct cfsr_trace_info *in)
{
	size_t i;

	if (!in->cgroup_hierarchy)
		return;
	printf("perf cgroups:   %zu named by CGROUP records, of %s\n", in->nr_cgroups,
	       in->cgroup_hierarchy);
	for (i = 0; i < in->nr_cgroups; i++)
		printf("                id %" PRIu64 " %s (%zu tasks sampled in it)\n",
		       in->cgroups[i].id, in->cgroups[i].path, cgroup_tasks(in, in->cgroups[i].id));
	if (in->cgroup_ids)
		printf("                %" PRIu64
		       " samples carry a cgroup id; %zu (task, cgroup) pairs\n",
		       in->cgroup_samples, in->nr_task_cgroups);
	if (in->cgroup_bad)
		printf("                %" PRIu64 " CGROUP records too short (skipped)\n",
		       in->cgroup_bad);
	printf("  membership:   %s\n",
	       in->cgroup_membership ? in->cgroup_membership : "the cpu controller's task groups");
}

static void print_text(const struct cfsr_trace *t, const struct info_summary *s)
{
	const struct cfsr_trace_info *in = &t->info;
	const struct cfsr_trace_stats *st = &t->stats;
	uint64_t span = st->records ? st->last_ts - st->first_ts : 0;
	int i;

	printf("file:           %s\n", t->path);
	printf("reader:         %s", in->reader);
	if (in->file_version)
		printf(" version %u", in->file_version);
	printf(", compression %s", in->compression ? in->compression : "unknown");
	if (t->input_compression)
		printf(" (input file %s-compressed)", t->input_compression);
	printf("\n");
	printf("kernel:         %s\n", in->kernel_release ? in->kernel_release : "unknown");
	printf("trace clock:    %s\n", in->clock ? in->clock : "unknown");
	printf("cpus:           %d\n", in->nr_cpus);
	if (in->hz)
		printf("hz:             %d\n", in->hz);
	else
		printf("hz:             not recorded\n");
	printf("time span:      %" PRIu64 ".%09" PRIu64 " .. %" PRIu64 ".%09" PRIu64 " (%.6f s)\n",
	       st->first_ts / 1000000000, st->first_ts % 1000000000, st->last_ts / 1000000000,
	       st->last_ts % 1000000000, (double)span / 1e9);
	printf("records:        %" PRIu64 "\n", st->records);
	printf("tasks:          %zu\n", s->tasks.nr);
	printf("lost events:    %" PRIu64 " notices", st->lost_notices);
	if (st->lost_notices)
		printf(" (%" PRIu64 " events counted, %" PRIu64 " notices without a count)",
		       st->lost_events, st->lost_unknown);
	if (in->overruns >= 0)
		printf(", %" PRId64 " ring-buffer overruns", in->overruns);
	printf("\n");
	if (st->bad_pages)
		printf("damaged data:   %" PRIu64
		       " pages could not be decoded (their events are lost)\n",
		       st->bad_pages);
	printf("unknown events: %" PRIu64 " (skipped)\n", st->unknown);
	if (st->malformed)
		printf("malformed:      %" PRIu64 " records too short for their format (skipped)\n",
		       st->malformed);
	if (!in->preempt_bit_known)
		printf("warning:        sched_switch preempted bit not found in the format\n");
	print_topology(in);
	print_capacity(in);
	print_caches(in);
	print_cgroups(in);
	if (in->record_meta)
		print_record_meta(in);
	if (in->record_meta_bad)
		printf("warning:        the recorder's metadata section is corrupt (left out)\n");
	printf("events:\n");
	for (i = 0; i < in->nr_types; i++) {
		if (!st->type_counts[i])
			continue;
		printf("  %-28s %12" PRIu64 "%s\n", in->types[i].name, st->type_counts[i],
		       in->types[i].known ? "" : "  (not decoded)");
	}
}

static json_object *json_str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *json_int_or_null(int v)
{
	return v >= 0 ? json_object_new_int(v) : NULL;
}

/* The CPU topology, null when the file has none. */
static json_object *json_topology(const struct cfsr_trace_info *in)
{
	json_object *o, *cpus;
	int i;

	if (!in->topo_source)
		return NULL;
	o = json_object_new_object();
	cpus = json_object_new_array();
	json_object_object_add(o, "source", json_object_new_string(in->topo_source));
	for (i = 0; i < in->nr_topo; i++) {
		const struct cfsr_cpu_topo *tp = &in->topo[i];
		json_object *c = json_object_new_object();

		json_object_object_add(c, "cpu", json_object_new_int(i));
		json_object_object_add(c, "core_id", json_int_or_null(tp->core_id));
		json_object_object_add(c, "package_id", json_int_or_null(tp->package_id));
		json_object_object_add(c, "die_id", json_int_or_null(tp->die_id));
		json_object_object_add(c, "thread_siblings", json_str_or_null(tp->thread_siblings));
		json_object_object_add(c, "core_siblings", json_str_or_null(tp->core_siblings));
		json_object_object_add(c, "die_siblings", json_str_or_null(tp->die_siblings));
		json_object_array_add(cpus, c);
	}
	json_object_object_add(o, "cpus", cpus);
	return o;
}

/* The caches, null when the file has none. */
static json_object *json_caches(const struct cfsr_trace_info *in)
{
	json_object *o, *list;
	size_t i;

	if (!in->caches_source)
		return NULL;
	o = json_object_new_object();
	list = json_object_new_array();
	json_object_object_add(o, "source", json_object_new_string(in->caches_source));
	for (i = 0; i < in->nr_caches; i++) {
		const struct cfsr_cpu_cache *cc = &in->caches[i];
		json_object *c = json_object_new_object();

		json_object_object_add(c, "level", json_object_new_int(cc->level));
		json_object_object_add(c, "type", json_str_or_null(cc->type));
		json_object_object_add(c, "size", json_str_or_null(cc->size));
		json_object_object_add(c, "line_size", json_object_new_int64(cc->line_size));
		json_object_object_add(c, "sets", json_object_new_int64(cc->sets));
		json_object_object_add(c, "ways", json_object_new_int64(cc->ways));
		json_object_object_add(c, "shared_cpus", json_str_or_null(cc->shared_cpus));
		json_object_array_add(list, c);
	}
	json_object_object_add(o, "caches", list);
	return o;
}

/* Each CPU's LLC span, null for every CPU when one is unknown (one LLC taken). */
static json_object *json_llc(const struct cfsr_trace_info *in)
{
	json_object *a;
	int c;

	for (c = 0; c < in->nr_cpus; c++)
		if (!cfsr_topo_llc_span(in, c))
			return NULL;
	a = json_object_new_array();
	for (c = 0; c < in->nr_cpus; c++)
		json_object_array_add(a, json_object_new_string(cfsr_topo_llc_span(in, c)));
	return a;
}

/* The scheduling domains the recorder read, null when none. */
static json_object *json_domains(const struct cfsr_trace_info *in)
{
	json_object *a;
	size_t i;

	if (!in->nr_sched_domains)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < in->nr_sched_domains; i++) {
		const struct cfsr_sched_domain *d = &in->sched_domains[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "cpu", json_object_new_int(d->cpu));
		json_object_object_add(o, "domain", json_object_new_int(d->level));
		json_object_object_add(o, "name", json_str_or_null(d->name));
		json_object_object_add(o, "flags", json_str_or_null(d->flags));
		/* added keys (format_version 1 readers ignore them), where recorded */
		if (d->imbalance_pct) {
			json_object_object_add(o, "imbalance_pct",
					       json_object_new_int((int)d->imbalance_pct));
			json_object_object_add(o, "min_interval",
					       json_object_new_int((int)d->min_interval));
			json_object_object_add(o, "max_interval",
					       json_object_new_int((int)d->max_interval));
			json_object_object_add(o, "busy_factor",
					       json_object_new_int((int)d->busy_factor));
		}
		json_object_array_add(a, o);
	}
	return a;
}

/* A perf.data's cgroups and the (task, cgroup) pairs of its samples, null when none. */
static json_object *json_cgroups(const struct cfsr_trace_info *in)
{
	json_object *o, *names, *tasks;
	size_t i;

	if (!in->cgroup_hierarchy)
		return NULL;
	o = json_object_new_object();
	names = json_object_new_array();
	tasks = json_object_new_array();
	json_object_object_add(o, "hierarchy", json_object_new_string(in->cgroup_hierarchy));
	json_object_object_add(o, "membership", json_str_or_null(in->cgroup_membership));
	json_object_object_add(o, "sample_ids", json_object_new_boolean(in->cgroup_ids));
	json_object_object_add(o, "samples", json_object_new_uint64(in->cgroup_samples));
	json_object_object_add(o, "bad_records", json_object_new_uint64(in->cgroup_bad));
	for (i = 0; i < in->nr_cgroups; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "id", json_object_new_uint64(in->cgroups[i].id));
		json_object_object_add(c, "path", json_object_new_string(in->cgroups[i].path));
		json_object_array_add(names, c);
	}
	for (i = 0; i < in->nr_task_cgroups; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "tid", json_object_new_int(in->task_cgroups[i].tid));
		json_object_object_add(c, "id", json_object_new_uint64(in->task_cgroups[i].id));
		json_object_array_add(tasks, c);
	}
	json_object_object_add(o, "names", names);
	json_object_object_add(o, "tasks", tasks);
	return o;
}

/*
 * sysctl_sched_features decoded as print_sched_feats() shows it, null when
 * the file does not carry it.
 */
static json_object *json_sched_feats(const struct cfsr_trace_info *in)
{
	const struct cfsr_profile *base = cfsr_profile_for(in->kernel_release);
	const char *differ[CFSR_SCHED_FEAT_MAX];
	json_object *o, *on, *off, *bits, *eng;
	struct cfsr_sched_feats f;
	size_t i, nr_differ;
	uint64_t unnamed;
	enum cfsr_feat_source src;

	if (!in->has_sched_features)
		return NULL;
	o = json_object_new_object();
	src = cfsr_sched_feats_decode(&f, in);
	json_object_object_add(o, "mask", json_object_new_uint64(in->sched_features));
	json_object_object_add(o, "names_from",
			       json_object_new_string(src == CFSR_FEAT_RECORDED ? "recorded" :
						      src == CFSR_FEAT_TABLE	? "release table" :
										  "unknown"));
	if (src == CFSR_FEAT_UNKNOWN) {
		json_object_object_add(o, "why", json_object_new_string(f.why));
		return o;
	}
	json_object_object_add(o, "order", json_object_new_string(f.order));
	on = json_object_new_array();
	off = json_object_new_array();
	for (i = 0; i < f.nr; i++)
		json_object_array_add((f.mask >> i) & 1 ? on : off,
				      json_object_new_string(f.names[i]));
	json_object_object_add(o, "on", on);
	json_object_object_add(o, "off", off);
	bits = json_object_new_array();
	unnamed = cfsr_sched_feat_unnamed(&f);
	for (i = 0; i < CFSR_SCHED_FEAT_MAX; i++)
		if ((unnamed >> i) & 1)
			json_object_array_add(bits, json_object_new_int((int)i));
	json_object_object_add(o, "unnamed_bits", bits);
	if (!base || !base->implemented) {
		json_object_object_add(o, "engine", NULL);
		return o;
	}
	nr_differ = cfsr_sched_feats_engine(base, &f, differ);
	eng = json_object_new_object();
	json_object_object_add(eng, "model", json_object_new_string(base->name));
	bits = json_object_new_array();
	for (i = 0; i < nr_differ; i++)
		json_object_array_add(bits, json_object_new_string(differ[i]));
	json_object_object_add(eng, "differs_from_defaults", bits);
	json_object_object_add(o, "engine", eng);
	return o;
}

static int print_json(const struct cfsr_trace *t, const struct info_summary *s)
{
	const struct cfsr_trace_info *in = &t->info;
	const struct cfsr_trace_stats *st = &t->stats;
	json_object *o, *lost, *events, *unknown;
	int i;

	o = json_object_new_object();
	if (!o)
		return -1;
	json_object_object_add(o, "format_version", json_object_new_int(INFO_FORMAT_VERSION));
	json_object_object_add(o, "file", json_object_new_string(t->path));
	json_object_object_add(o, "reader", json_object_new_string(in->reader));
	json_object_object_add(o, "file_version", json_object_new_int((int)in->file_version));
	json_object_object_add(o, "compression", json_str_or_null(in->compression));
	json_object_object_add(o, "input_compression", json_str_or_null(t->input_compression));
	json_object_object_add(o, "kernel_release", json_str_or_null(in->kernel_release));
	json_object_object_add(o, "uname", json_str_or_null(in->uname));
	json_object_object_add(o, "trace_clock", json_str_or_null(in->clock));
	json_object_object_add(o, "nr_cpus", json_object_new_int(in->nr_cpus));
	json_object_object_add(o, "hz", in->hz ? json_object_new_int(in->hz) : NULL);
	json_object_object_add(o, "first_ts", json_object_new_uint64(st->first_ts));
	json_object_object_add(o, "last_ts", json_object_new_uint64(st->last_ts));
	json_object_object_add(
		o, "duration_ns",
		json_object_new_uint64(st->records ? st->last_ts - st->first_ts : 0));
	json_object_object_add(o, "records", json_object_new_uint64(st->records));
	json_object_object_add(o, "tasks", json_object_new_uint64(s->tasks.nr));
	json_object_object_add(o, "unknown_events", json_object_new_uint64(st->unknown));
	json_object_object_add(o, "malformed_events", json_object_new_uint64(st->malformed));
	json_object_object_add(o, "preempt_bit_known",
			       json_object_new_boolean(in->preempt_bit_known));

	lost = json_object_new_object();
	json_object_object_add(lost, "notices", json_object_new_uint64(st->lost_notices));
	json_object_object_add(lost, "events", json_object_new_uint64(st->lost_events));
	json_object_object_add(lost, "notices_without_count",
			       json_object_new_uint64(st->lost_unknown));
	json_object_object_add(lost, "bad_pages", json_object_new_uint64(st->bad_pages));
	json_object_object_add(lost, "overruns",
			       in->overruns >= 0 ? json_object_new_int64(in->overruns) : NULL);
	json_object_object_add(o, "lost", lost);

	events = json_object_new_object();
	unknown = json_object_new_array();
	for (i = 0; i < in->nr_types; i++) {
		if (!st->type_counts[i])
			continue;
		json_object_object_add(events, in->types[i].name,
				       json_object_new_uint64(st->type_counts[i]));
		if (!in->types[i].known)
			json_object_array_add(unknown, json_object_new_string(in->types[i].name));
	}
	json_object_object_add(o, "events", events);
	json_object_object_add(o, "unknown_event_types", unknown);
	/* added keys (format_version 1 readers ignore them) */
	json_object_object_add(o, "record_meta",
			       in->record_meta ? json_tokener_parse(in->record_meta) : NULL);
	json_object_object_add(o, "embedded_truth", json_object_new_boolean(in->has_record_truth));
	json_object_object_add(o, "topology", json_topology(in));
	json_object_object_add(o, "caches", json_caches(in));
	json_object_object_add(o, "llc", in->nr_cpus > 0 && in->nr_caches ? json_llc(in) : NULL);
	json_object_object_add(o, "sched_domains", json_domains(in));
	json_object_object_add(o, "cgroups", json_cgroups(in));
	json_object_object_add(o, "sched_features", json_sched_feats(in));
	json_object_object_add(o, "scale", json_scale(in));

	return cfsr_put_json(o);
}

/* ---- two recordings of one run ------------------------------------------------ */

/* Events farther apart than this (after the clock offset) are not the same event. */
#define PAIR_TOLERANCE_NS 200000
/* Switches used to find the clock offset between the two files. */
#define PAIR_OFFSET_SAMPLE 2000

/* What identifies an event across two recordings. */
struct pair_key {
	enum cfsr_event_kind kind;
	int cpu;
	int a;
	int b;
};

struct pair_item {
	struct pair_key key;
	uint64_t ts; /* on A's clock */
	int type;
};

struct pair_side {
	struct cfsr_trace *t;
	struct pair_item *pend;
	size_t nr_pend;
	size_t pend_alloc;
	uint64_t *only; /* per event type of this side */
	uint64_t *matched;
	size_t nr_counts; /* types are found while reading text traces */
};

/* Make room in @s's counters for event type @type. */
static int pair_grow(struct pair_side *s, int type)
{
	size_t n = (size_t)type + 1, i;
	uint64_t *only, *matched;

	if (n <= s->nr_counts)
		return 0;
	only = realloc(s->only, n * sizeof(*only));
	if (only)
		s->only = only;
	matched = realloc(s->matched, n * sizeof(*matched));
	if (matched)
		s->matched = matched;
	if (!only || !matched)
		return cfsr_error("info: out of memory");
	for (i = s->nr_counts; i < n; i++)
		s->only[i] = s->matched[i] = 0;
	s->nr_counts = n;
	return 0;
}

static bool pair_key_of(const struct cfsr_event *ev, struct pair_key *k)
{
	memset(k, 0, sizeof(*k));
	k->kind = ev->kind;
	k->cpu = ev->cpu;
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		k->a = ev->sw.prev_pid;
		k->b = ev->sw.next_pid;
		return true;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		k->a = ev->wake.pid;
		k->b = ev->wake.target_cpu;
		return true;
	case CFSR_EV_MIGRATE:
		k->a = ev->migrate.pid;
		k->b = ev->migrate.dest_cpu;
		return true;
	case CFSR_EV_FORK:
		k->a = ev->fork.child_pid;
		return true;
	case CFSR_EV_EXIT:
	case CFSR_EV_FREE:
		k->a = ev->exit.pid;
		return true;
	case CFSR_EV_EXEC:
		k->a = ev->exec.pid;
		return true;
	case CFSR_EV_STAT_RUNTIME:
		k->a = ev->runtime.pid;
		k->b = (int)(ev->runtime.runtime & 0x7fffffff);
		return true;
	case CFSR_EV_PI_SETPRIO:
		k->a = ev->pi.pid;
		k->b = ev->pi.newprio;
		return true;
	case CFSR_EV_CGROUP_ATTACH:
		k->a = ev->cgroup.pid;
		return true;
	default:
		return false;
	}
}

static bool pair_key_eq(const struct pair_key *x, const struct pair_key *y)
{
	return x->kind == y->kind && x->cpu == y->cpu && x->a == y->a && x->b == y->b;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/*
 * The clock offset of B against A: the most frequent difference, to the
 * microsecond, between switches with the same CPU, prev and next among the
 * first switches of both files.
 */
static int pair_offset(const char *pa, const char *pb, int64_t *offset, uint64_t *support)
{
	struct cfsr_trace *t[2] = { cfsr_trace_open(pa), NULL };
	struct {
		uint64_t ts;
		struct pair_key k;
	} * sw[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 }, i, j, best = 0;
	int64_t *diffs = NULL, best_d = 0;
	size_t nd = 0, dalloc = 0;
	struct cfsr_event ev;
	int s, ret = -1;

	if (!t[0])
		return -1;
	t[1] = cfsr_trace_open(pb);
	if (!t[1])
		goto out;
	for (s = 0; s < 2; s++) {
		sw[s] = calloc(PAIR_OFFSET_SAMPLE, sizeof(*sw[s]));
		if (!sw[s])
			goto out;
		while (n[s] < PAIR_OFFSET_SAMPLE && cfsr_trace_next(t[s], &ev) > 0) {
			if (ev.kind != CFSR_EV_SWITCH)
				continue;
			sw[s][n[s]].ts = ev.ts;
			pair_key_of(&ev, &sw[s][n[s]].k);
			n[s]++;
		}
	}
	for (i = 0; i < n[0]; i++) {
		for (j = 0; j < n[1]; j++) {
			if (!pair_key_eq(&sw[0][i].k, &sw[1][j].k))
				continue;
			if (CFSR_ALLOC_GROW(diffs, nd + 1, dalloc) < 0)
				goto out;
			/* to the microsecond, so that jitter votes together */
			diffs[nd++] = ((int64_t)sw[1][j].ts - (int64_t)sw[0][i].ts) / 1000;
		}
	}
	/* the mode of the differences, ±1 us: sort, then slide a 3-us window */
	qsort(diffs, nd, sizeof(*diffs), cmp_i64);
	for (i = 0, j = 0; i < nd; i++) {
		while (diffs[i] - diffs[j] > 2)
			j++;
		if (i - j + 1 > best) {
			best = i - j + 1;
			best_d = diffs[j] + (diffs[i] - diffs[j]) / 2;
		}
	}
	/*
	 * Two recordings of one run share most switches; unrelated traces share
	 * a few by chance (idle to the same kworker).  Ask for a tenth.
	 */
	if (best < 3 || best < (n[0] < n[1] ? n[0] : n[1]) / 10) {
		cfsr_error(
			"cannot compare '%s' and '%s': only %zu of their first switches agree on "
			"a clock offset: not recordings of one run",
			pa, pb, best);
		goto out;
	}
	*offset = best_d * 1000;
	*support = best;
	ret = 0;
out:
	free(diffs);
	free(sw[0]);
	free(sw[1]);
	cfsr_trace_close(t[0]);
	cfsr_trace_close(t[1]);
	return ret;
}

/* Retire the pending events of @s older than @now - tolerance: unmatched. */
static void pair_expire(struct pair_side *s, uint64_t now)
{
	size_t i = 0;

	while (i < s->nr_pend) {
		if (s->pend[i].ts + PAIR_TOLERANCE_NS < now) {
			s->only[s->pend[i].type]++;
			s->pend[i] = s->pend[--s->nr_pend];
		} else {
			i++;
		}
	}
}

/* Match @it against the other side's pending events, or keep it pending. */
static int pair_take(struct pair_side *self, struct pair_side *other, const struct pair_item *it)
{
	size_t i, best = SIZE_MAX;
	uint64_t best_d = UINT64_MAX;

	for (i = 0; i < other->nr_pend; i++) {
		uint64_t d = other->pend[i].ts > it->ts ? other->pend[i].ts - it->ts :
							  it->ts - other->pend[i].ts;

		if (pair_key_eq(&other->pend[i].key, &it->key) && d < best_d) {
			best = i;
			best_d = d;
		}
	}
	if (best != SIZE_MAX && best_d <= PAIR_TOLERANCE_NS) {
		self->matched[it->type]++;
		other->matched[other->pend[best].type]++;
		other->pend[best] = other->pend[--other->nr_pend];
		return 0;
	}
	if (CFSR_ALLOC_GROW(self->pend, self->nr_pend + 1, self->pend_alloc) < 0)
		return cfsr_error("info: out of memory");
	self->pend[self->nr_pend++] = *it;
	return 0;
}

static const char *type_name(const struct cfsr_trace *t, int type)
{
	return type >= 0 && type < t->info.nr_types ? t->info.types[type].name : "?";
}

/* Whether the events of @type were matched one by one. */
static bool pair_keyed(const struct pair_side *s, int type)
{
	return s && type >= 0 && (size_t)type < s->nr_counts &&
	       s->only[type] + s->matched[type] > 0;
}

static void pair_cell(const struct pair_side *s, int type, bool keyed)
{
	if (!keyed)
		printf(" %10s", "-");
	else
		printf(" %10" PRIu64,
		       s && type >= 0 && (size_t)type < s->nr_counts ? s->only[type] : 0);
}

/* One line of the pair table: a type name of A (@ia) and/or B (@ib). */
static void pair_row(const struct pair_side *a, int ia, const struct pair_side *b, int ib)
{
	uint64_t na = a ? a->t->stats.type_counts[ia] : 0;
	uint64_t nb = b ? b->t->stats.type_counts[ib] : 0;
	bool keyed = pair_keyed(a, ia) || pair_keyed(b, ib);

	if (!na && !nb)
		return;
	printf("%-28s %10" PRIu64 " %10" PRIu64, a ? type_name(a->t, ia) : type_name(b->t, ib), na,
	       nb);
	pair_cell(a, ia, keyed);
	pair_cell(b, ib, keyed);
	printf("\n");
}

static int info_pair(const char *pa, const char *pb)
{
	struct pair_side side[2];
	struct cfsr_event ev[2];
	int64_t offset = 0;
	uint64_t support = 0;
	int have[2], s, i, j, status = CFSR_EXIT_ERROR;

	if (pair_offset(pa, pb, &offset, &support) < 0)
		return CFSR_EXIT_ERROR;
	memset(side, 0, sizeof(side));
	side[0].t = cfsr_trace_open(pa);
	side[1].t = side[0].t ? cfsr_trace_open(pb) : NULL;
	if (!side[1].t)
		goto out;
	for (s = 0; s < 2; s++) {
		have[s] = cfsr_trace_next(side[s].t, &ev[s]);
	}
	/* both streams on A's clock, in time order */
	while (have[0] > 0 || have[1] > 0) {
		struct pair_item it;
		uint64_t ts[2];

		if (have[0] < 0 || have[1] < 0)
			goto out;
		ts[0] = have[0] > 0 ? ev[0].ts : UINT64_MAX;
		ts[1] = have[1] > 0 ? (uint64_t)((int64_t)ev[1].ts - offset) : UINT64_MAX;
		s = ts[0] <= ts[1] ? 0 : 1;
		it.ts = ts[s];
		it.type = ev[s].type;
		if (it.type >= 0 && pair_key_of(&ev[s], &it.key)) {
			if (pair_grow(&side[s], it.type) < 0)
				goto out;
			pair_expire(&side[0], it.ts);
			pair_expire(&side[1], it.ts);
			if (pair_take(&side[s], &side[1 - s], &it) < 0)
				goto out;
		}
		have[s] = cfsr_trace_next(side[s].t, &ev[s]);
	}
	pair_expire(&side[0], UINT64_MAX);
	pair_expire(&side[1], UINT64_MAX);

	printf("A:                %s (%s)\n", side[0].t->path, side[0].t->info.reader);
	printf("B:                %s (%s)\n", side[1].t->path, side[1].t->info.reader);
	printf("clock offset B-A: %" PRId64 " ns (%" PRIu64
	       " pairs of like switches agree on it to 1 us)\n",
	       offset, support);
	printf("events are the same when their kind, CPU and task agree within %d us\n\n",
	       PAIR_TOLERANCE_NS / 1000);
	printf("%-28s %10s %10s %10s %10s\n", "event", "A", "B", "only in A", "only in B");
	for (i = 0; i < side[0].t->info.nr_types; i++) {
		int k = -1;

		for (j = 0; j < side[1].t->info.nr_types; j++)
			if (!strcmp(type_name(side[0].t, i), type_name(side[1].t, j)))
				k = j;
		pair_row(&side[0], i, k >= 0 ? &side[1] : NULL, k);
	}
	for (j = 0; j < side[1].t->info.nr_types; j++) {
		bool in_a = false;

		for (i = 0; i < side[0].t->info.nr_types; i++)
			in_a |= !strcmp(type_name(side[0].t, i), type_name(side[1].t, j));
		if (!in_a)
			pair_row(NULL, -1, &side[1], j);
	}
	printf("\n'-': events of this type are not matched one by one (no task to match on)\n");
	status = CFSR_EXIT_OK;
out:
	for (s = 0; s < 2; s++) {
		free(side[s].pend);
		free(side[s].only);
		free(side[s].matched);
		cfsr_trace_close(side[s].t);
	}
	return status;
}

int cmd_info(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct info_summary s = { .tasks = CFSR_PIDSET_INIT };
	struct cfsr_trace *t;
	bool json = false;
	int c, status = CFSR_EXIT_ERROR;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			print_usage();
			return CFSR_EXIT_OK;
		default:
			cfsr_error("info: unknown option '%s'; see 'cfsreplay info --help'",
				   argv[optind - 1]);
			return CFSR_EXIT_ERROR;
		}
	}
	if (optind + 2 == argc && !json)
		return info_pair(argv[optind], argv[optind + 1]);
	if (optind + 1 != argc) {
		cfsr_error(
			"info needs one TRACE, or two recordings of one run (without --json); see 'cfsreplay info --help'");
		return CFSR_EXIT_ERROR;
	}

	t = cfsr_trace_open(argv[optind]);
	if (!t)
		return CFSR_EXIT_ERROR;
	if (scan(t, &s) < 0)
		goto out;
	if (!s.sched_events) {
		cfsr_error("cannot use '%s': it holds no scheduler events", t->path);
		goto out;
	}
	if (json) {
		if (print_json(t, &s) < 0) {
			cfsr_error("info: cannot format JSON output");
			goto out;
		}
	} else {
		print_text(t, &s);
	}
	status = CFSR_EXIT_OK;
out:
	cfsr_pidset_release(&s.tasks);
	cfsr_trace_close(t);
	return status;
}

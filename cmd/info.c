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
#include "error.h"
#include "formats.h"
#include "pidset.h"
#include "progress.h"

#define INFO_FORMAT_VERSION 1

static const char *const info_usage[] = {
	"usage: cfsreplay info [--json] TRACE",
	"",
	"Describe a trace: reader, file version and compression, kernel release,",
	"trace clock, CPU count, time span, records per event type, tasks, lost",
	"and unknown events.",
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

static int print_json(const struct cfsr_trace *t, const struct info_summary *s)
{
	const struct cfsr_trace_info *in = &t->info;
	const struct cfsr_trace_stats *st = &t->stats;
	json_object *o, *lost, *events, *unknown;
	const char *text;
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

	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	if (text)
		puts(text);
	json_object_put(o);
	return text ? 0 : -1;
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
	if (optind + 1 != argc) {
		cfsr_error("info needs exactly one TRACE; see 'cfsreplay info --help'");
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay record [-o FILE] [-a] [--duration SEC] [--truth[=MS]] [--buffer-kb N]
 *                  [-f] [--compression ALGO] [-- COMMAND ...]
 *
 * Records the scheduler and cgroup events of this machine in a tracefs
 * instance of its own, with the machine's metadata, the kernel's scheduler
 * state at the start and, with --truth, periodic snapshots of it, into one
 * trace.dat (formats/record.c; the layout is in docs/RECORD-FORMAT.md).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "error.h"
#include "peltcap.h"
#include "record.h"

#define DEFAULT_TRUTH_MS 50
#define DEFAULT_BUFFER_KB 16384

static const char *const record_usage[] = {
	"usage: cfsreplay record [-o FILE] [-a] [--duration SEC] [--truth[=MS]]",
	"                        [--buffer-kb N] [--compression ALGO] [-f] [-- COMMAND ...]",
	"",
	"Record the scheduler and cgroup events of this machine into a trace.dat,",
	"with its metadata and the kernel's scheduler state at the start, while",
	"COMMAND runs (or for --duration, or until Ctrl-C).  Needs root.",
	"",
	"    -o, --output FILE    trace to write (default trace.dat)",
	"    -f, --force          replace FILE if it exists",
	"    -a, --all            --truth samples every task, not only COMMAND's",
	"    --duration SEC       stop after SEC seconds",
	"    --truth[=MS]         embed kernel snapshots every MS ms (default 50)",
	"    --buffer-kb N        per-CPU ring buffer in KiB (default 16384)",
	"    --compression ALGO   zstd (default), zlib or none",
	"    --no-pelt            do not capture the kernel's own PELT updates (by",
	"                         default they go to FILE's name + .pelt.jsonl.gz)",
	"    -h, --help           show this help",
	"",
	"Exit status: 0 the trace was written, 2 error.",
	NULL,
};

/* The kernel's PELT updates (formats/peltcap.c), written beside the trace. */
struct pelt_beside {
	char *path;
	struct cfsr_pelt_capture *cap;
	uint64_t records;
	uint64_t lost;
	bool written;
};

static int pelt_start(void *priv, struct cfsr_record *rec)
{
	struct pelt_beside *p = priv;
	char why[256];

	(void)rec;
	p->cap = cfsr_pelt_capture_start(p->path, why, sizeof(why));
	if (!p->cap) {
		fprintf(stderr, "cfsreplay record: note: no PELT capture: %s\n", why);
		return -1;
	}
	return 0;
}

static int pelt_poll(void *priv)
{
	struct pelt_beside *p = priv;

	return cfsr_pelt_capture_poll(p->cap, 0) < 0 ? -1 : 0;
}

static int pelt_stop(void *priv, struct td_writer *w)
{
	struct pelt_beside *p = priv;
	int ret;

	(void)w;
	ret = cfsr_pelt_capture_stop(p->cap, &p->records, &p->lost);
	p->cap = NULL;
	p->written = ret == 0;
	return ret;
}

static void pelt_free(void *priv)
{
	struct pelt_beside *p = priv;

	/* a path that never reached stop still writes what was captured */
	if (p->cap)
		p->written = cfsr_pelt_capture_stop(p->cap, &p->records, &p->lost) == 0;
	p->cap = NULL;
}

static int parse_uint(const char *opt, const char *arg, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || *out > max)
		return cfsr_error("record: %s takes a whole number up to %lu, not '%s'", opt, max,
				  arg);
	return 0;
}

static int record_and_report(const struct cfsr_record_opts *po, const struct pelt_beside *pb);

int cmd_record(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "truth", optional_argument, NULL, 't' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "compression", required_argument, NULL, 'c' },
		{ "pelt", no_argument, NULL, 'p' },
		{ "no-pelt", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cfsr_record_opts o = { .output = "trace.dat",
				      .buffer_kb = DEFAULT_BUFFER_KB,
				      .compression = "zstd" };
	struct pelt_beside pb = { 0 };
	struct cfsr_record_capture cap = { .name = "pelt",
					   .priv = &pb,
					   .start = pelt_start,
					   .poll = pelt_poll,
					   .stop = pelt_stop,
					   .free = pelt_free };
	bool pelt = true;
	unsigned long v;
	double secs;
	int status;
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "+o:fah", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case 'f':
			o.force = true;
			break;
		case 'a':
			o.all = true;
			break;
		case 'd':
			secs = strtod(optarg, &end);
			if (*end || end == optarg || !isfinite(secs) || secs <= 0 || secs > 1e7) {
				cfsr_error("record: --duration takes seconds, not '%s'", optarg);
				return CFSR_EXIT_ERROR;
			}
			o.duration_ms = (uint64_t)(secs * 1000 + 0.5);
			if (!o.duration_ms)
				o.duration_ms = 1;
			break;
		case 't':
			o.truth_ms = DEFAULT_TRUTH_MS;
			if (optarg && parse_uint("--truth", optarg, 3600000, &v) < 0)
				return CFSR_EXIT_ERROR;
			if (optarg)
				o.truth_ms = (unsigned int)v;
			if (!o.truth_ms) {
				cfsr_error("record: --truth takes a period of at least 1 ms");
				return CFSR_EXIT_ERROR;
			}
			break;
		case 'b':
			if (parse_uint("--buffer-kb", optarg, 16UL << 20, &v) < 0)
				return CFSR_EXIT_ERROR;
			if (v < 8) {
				cfsr_error("record: --buffer-kb must be at least 8");
				return CFSR_EXIT_ERROR;
			}
			o.buffer_kb = (unsigned int)v;
			break;
		case 'c':
			if (strcmp(optarg, "zstd") && strcmp(optarg, "zlib") &&
			    strcmp(optarg, "none")) {
				cfsr_error(
					"record: --compression takes zstd, zlib or none, not '%s'",
					optarg);
				return CFSR_EXIT_ERROR;
			}
			o.compression = optarg;
			break;
		case 'p':
			pelt = true;
			break;
		case 'P':
			pelt = false;
			break;
		case 'h':
			for (c = 0; record_usage[c]; c++)
				puts(record_usage[c]);
			return CFSR_EXIT_OK;
		default:
			cfsr_error("record: unknown option '%s'; see 'cfsreplay record --help'",
				   argv[optind - 1]);
			return CFSR_EXIT_ERROR;
		}
	}
	if (optind < argc)
		o.argv = (char *const *)argv + optind;
	if (pelt) {
		pb.path = cfsr_record_pelt_path(o.output);
		if (!pb.path) {
			cfsr_error("record: out of memory");
			return CFSR_EXIT_ERROR;
		}
		/* the trace's own check (in cfsr_record_run()) comes first */
		if (!o.force && access(o.output, F_OK) != 0 && access(pb.path, F_OK) == 0) {
			cfsr_error("record: '%s' exists; use -f to replace it, or --no-pelt",
				   pb.path);
			free(pb.path);
			return CFSR_EXIT_ERROR;
		}
		o.captures = &cap;
	}
	status = record_and_report(&o, &pb);
	free(pb.path);
	return status;
}

static int record_and_report(const struct cfsr_record_opts *po, const struct pelt_beside *pb)
{
	const struct cfsr_record_opts o = *po;
	struct cfsr_record_result res;

	if (cfsr_record_run(&o, &res) < 0)
		return CFSR_EXIT_ERROR;
	if (pb->written)
		fprintf(stderr,
			"cfsreplay record: wrote '%s': %" PRIu64 " kernel PELT updates, %" PRIu64
			" lost\n",
			pb->path, pb->records, pb->lost);
	fprintf(stderr,
		"cfsreplay record: wrote '%s': %" PRIu64 " bytes, %" PRIu64 " events, %" PRIu64
		" lost events, %" PRIu64 " kernel snapshots\n",
		o.output, res.file_size, res.events, res.lost_events, res.snapshots);
	if (res.cmd_status >= 0 && WIFEXITED(res.cmd_status) && WEXITSTATUS(res.cmd_status))
		fprintf(stderr, "cfsreplay record: the command exited with status %d\n",
			WEXITSTATUS(res.cmd_status));
	else if (res.cmd_status >= 0 && WIFSIGNALED(res.cmd_status))
		fprintf(stderr, "cfsreplay record: the command was killed by %s\n",
			strsignal(WTERMSIG(res.cmd_status)));
	return CFSR_EXIT_OK;
}

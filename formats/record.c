// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recording: a tracefs instance of our own, the scheduler and cgroup events,
 * per-CPU raw pages read while tracing, kernel-truth snapshots, and the
 * trace.dat they are written to.  See record.h and docs/RECORD-FORMAT.md.
 *
 * One thread does everything, in a loop woken every RECORD_TICK_MS: it
 * drains each CPU's trace_pipe_raw (whole pages, through splice), takes
 * the snapshots that are due, polls the captures, and checks the command,
 * the clock and the stop flag the signal handlers set.  Because it is one
 * thread, every way out goes through the same unwinding: stop tracing,
 * flush the pages left, remove the instance, then write the file.
 *
 * The file is written under a temporary name next to the output and
 * renamed at the end, so an existing output is never clobbered by a failed
 * recording, and replaced only with --force.  After writing, the recorder
 * reads the file back with the project's own reader: that counts the
 * events, checks the file, and finds the trace times of the snapshot
 * markers, which go into the embedded truth (appended as a last section).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <tracefs.h>
#include <zlib.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"
#include "record-local.h"
#include "record.h"
#include "tracedat-write.h"

#define RECORD_TICK_MS 50
#define RECORD_PAGE_MAX (1U << 20)

static const char *const sched_events[] = {
	"sched_switch",	      "sched_waking",	    "sched_wakeup",	  "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exit", "sched_process_exec",
	"sched_process_free", "sched_stat_runtime", "sched_pi_setprio",
};

/* Optional: recorded where the kernel has them. */
static const struct {
	const char *system;
	const char *name;
} extra_events[] = {
	{ "cgroup", "cgroup_attach_task" },
	{ "cgroup", "cgroup_transfer_tasks" },
	{ "cgroup", "cgroup_mkdir" },
	{ "cgroup", "cgroup_rmdir" },
	{ "cgroup", "cgroup_release" },
	{ "cgroup", "cgroup_rename" },
	{ "cgroup", "cgroup_notify_populated" },
	{ "syscalls", "sys_enter_sched_setaffinity" },
	{ "syscalls", "sys_enter_setpriority" },
	{ "syscalls", "sys_enter_sched_setattr" },
	{ "syscalls", "sys_enter_sched_setscheduler" },
	{ "power", "cpu_frequency" },
};

#define NR_EXTRA (sizeof(extra_events) / sizeof(extra_events[0]))

struct rec_cpu {
	int cpu;
	struct tracefs_cpu *tcpu;
	int fd; /* unlinked temporary file of its raw pages */
	uint64_t bytes;
	int64_t overrun;
	int64_t dropped;
	char *stats; /* per_cpu/cpuN/stats at the end */
};

struct cfsr_record {
	const struct cfsr_record_opts *o;
	struct tracefs_instance *inst;
	char inst_name[64];
	char *tmp_path;
	int out_fd;
	char *dir;
	int marker_fd;
	int nr_cpus;
	struct rec_cpu *cpus;
	void *page;
	int page_size;
	char clock[32];
	bool enabled_extra[NR_EXTRA];
	FILE *truth;
	long snapshots;
	long task_rows_at_start;
	long cfs_rqs_at_start;
	struct json_object *meta;
	struct json_object *notes;
	pid_t child;
	int child_status;
	bool child_done;
	int exec_errno;
	bool write_failed;
};

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A note for the user: on stderr now, and in the metadata. */
static void note(struct cfsr_record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct cfsr_record *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "cfsreplay record: %s\n", buf);
	json_object_array_add(r->notes, json_object_new_string(buf));
}

int cfsr_record_marker(struct cfsr_record *r, const char *text)
{
	size_t len = strlen(text);

	if (r->marker_fd < 0)
		return -1;
	return write(r->marker_fd, text, len) == (ssize_t)len ? 0 : -1;
}

static int markf(struct cfsr_record *r, const char *what, long n)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s %ld", what, n);
	return cfsr_record_marker(r, buf);
}

/* ---- tracefs instance --------------------------------------------------------------------- */

static int write_inst(struct cfsr_record *r, const char *file, const char *val)
{
	if (tracefs_instance_file_write(r->inst, file, val) < 0)
		return cfsr_error_errno("cannot write '%s' of tracefs instance '%s'", file,
					r->inst_name);
	return 0;
}

static int setup_instance(struct cfsr_record *r)
{
	char *clocks;
	size_t i;

	snprintf(r->inst_name, sizeof(r->inst_name), "cfsreplay-record-%d", (int)getpid());
	if (tracefs_instance_exists(r->inst_name))
		return cfsr_error("tracefs instance '%s' exists already; remove it first",
				  r->inst_name);
	r->inst = tracefs_instance_create(r->inst_name);
	if (!r->inst)
		return cfsr_error_errno("cannot create tracefs instance '%s'", r->inst_name);
	/* a new instance traces at once: stay off until everything is set */
	if (write_inst(r, "tracing_on", "0") < 0)
		return -1;
	if (tracefs_instance_set_buffer_size(r->inst, r->o->buffer_kb, -1) < 0)
		return cfsr_error_errno(
			"cannot set the buffer size of tracefs instance '%s' to %u KiB",
			r->inst_name, r->o->buffer_kb);
	clocks = tracefs_instance_file_read(r->inst, "trace_clock", NULL);
	snprintf(r->clock, sizeof(r->clock), "local");
	if (clocks && strstr(clocks, "perf")) {
		if (write_inst(r, "trace_clock", "perf") < 0) {
			free(clocks);
			return -1;
		}
		snprintf(r->clock, sizeof(r->clock), "perf");
	} else {
		note(r, "the kernel has no 'perf' trace clock; recording with 'local'");
	}
	free(clocks);
	for (i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++)
		if (tracefs_event_enable(r->inst, "sched", sched_events[i]) < 0)
			return cfsr_error("cannot enable event 'sched:%s' in tracefs instance '%s'",
					  sched_events[i], r->inst_name);
	for (i = 0; i < NR_EXTRA; i++)
		r->enabled_extra[i] = tracefs_event_enable(r->inst, extra_events[i].system,
							   extra_events[i].name) == 0;
	for (i = 0; i < NR_EXTRA; i++)
		if (!r->enabled_extra[i])
			note(r, "event '%s:%s' is not available; not recorded",
			     extra_events[i].system, extra_events[i].name);
	r->marker_fd = tracefs_instance_file_open(r->inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (r->marker_fd < 0)
		return cfsr_error_errno("cannot open 'trace_marker' of tracefs instance '%s'",
					r->inst_name);
	return 0;
}

static int temp_fd(struct cfsr_record *r)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/.cfsreplay-record-XXXXXX", r->dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return cfsr_error_errno("cannot create a temporary file in '%s'", r->dir);
	unlink(path);
	return fd;
}

static int open_cpus(struct cfsr_record *r)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int cpu;

	r->cpus = calloc((size_t)(n > 0 ? n : 1), sizeof(*r->cpus));
	if (!r->cpus)
		return cfsr_error("record: out of memory");
	for (cpu = 0; cpu < n; cpu++) {
		struct rec_cpu *c = &r->cpus[r->nr_cpus];

		c->tcpu = tracefs_cpu_open(r->inst, cpu, true);
		if (!c->tcpu)
			continue; /* offline */
		c->cpu = cpu;
		c->fd = temp_fd(r);
		if (c->fd < 0) {
			tracefs_cpu_close(c->tcpu);
			c->tcpu = NULL;
			return -1;
		}
		r->nr_cpus++;
		if (!r->page_size)
			r->page_size = tracefs_cpu_read_size(c->tcpu);
	}
	if (!r->nr_cpus)
		return cfsr_error_errno(
			"cannot open any CPU's trace_pipe_raw in tracefs instance '%s'",
			r->inst_name);
	if (r->page_size <= 0 || (unsigned int)r->page_size > RECORD_PAGE_MAX)
		return cfsr_error("tracefs instance '%s': bad ring-buffer page size %d",
				  r->inst_name, r->page_size);
	r->page = malloc((size_t)r->page_size);
	if (!r->page)
		return cfsr_error("record: out of memory");
	return 0;
}

static int save_page(struct cfsr_record *r, struct rec_cpu *c, int n)
{
	const char *p = r->page;
	size_t left = (size_t)n;

	while (left) {
		ssize_t w = write(c->fd, p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!r->write_failed)
				cfsr_error_errno("cannot save CPU %d's trace data in '%s'", c->cpu,
						 r->dir);
			r->write_failed = true;
			return -1;
		}
		p += w;
		left -= (size_t)w;
	}
	c->bytes += (uint64_t)n;
	return 0;
}

/* Read every whole page each CPU has; with @flush, the partial ones too. */
static int drain(struct cfsr_record *r, bool flush)
{
	int i, n;

	for (i = 0; i < r->nr_cpus; i++) {
		struct rec_cpu *c = &r->cpus[i];

		while ((n = tracefs_cpu_buffered_read(c->tcpu, r->page, true)) > 0)
			if (save_page(r, c, n) < 0)
				return -1;
		while (flush && (n = tracefs_cpu_flush(c->tcpu, r->page)) > 0)
			if (save_page(r, c, n) < 0)
				return -1;
	}
	return 0;
}

static int64_t stat_value(const char *stats, const char *key)
{
	const char *p = strstr(stats, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

static void read_cpu_stats(struct cfsr_record *r)
{
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		struct rec_cpu *c = &r->cpus[i];
		char file[64];

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", c->cpu);
		c->stats = tracefs_instance_file_read(r->inst, file, NULL);
		c->overrun = c->dropped = -1;
		if (!c->stats)
			continue;
		c->overrun = stat_value(c->stats, "\noverrun:");
		if (c->overrun < 0)
			c->overrun = stat_value(c->stats, "overrun:");
		c->dropped = stat_value(c->stats, "dropped events:");
	}
}

/* CPUSTAT options as trace-cmd writes them: "CPU: N" and the stats file. */
static void write_cpu_stats(struct cfsr_record *r, struct td_writer *w)
{
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		char *opt = NULL;
		int len;

		if (!r->cpus[i].stats)
			continue;
		len = asprintf(&opt, "CPU: %d\n%s", r->cpus[i].cpu, r->cpus[i].stats);
		if (len > 0)
			td_writer_option(w, TD_OPT_CPUSTAT, opt, (size_t)len + 1);
		free(opt);
	}
}

static void close_instance(struct cfsr_record *r)
{
	int i;

	if (r->marker_fd >= 0)
		close(r->marker_fd);
	r->marker_fd = -1;
	for (i = 0; r->cpus && i < r->nr_cpus; i++)
		if (r->cpus[i].tcpu) {
			tracefs_cpu_close(r->cpus[i].tcpu);
			r->cpus[i].tcpu = NULL;
		}
	if (r->inst) {
		tracefs_instance_file_write(r->inst, "tracing_on", "0");
		if (tracefs_instance_destroy(r->inst) < 0)
			cfsr_error_errno("cannot remove tracefs instance '%s'; remove it by hand: "
					 "rmdir %s/instances/%s",
					 r->inst_name, tracefs_tracing_dir(), r->inst_name);
		tracefs_instance_free(r->inst);
		r->inst = NULL;
	}
}

/* ---- snapshots ---------------------------------------------------------------------------- */

/* Markers around the reads; rows in the file: snap, cpu and cfs_rq rows, then task rows. */
static int snapshot(struct cfsr_record *r, bool all)
{
	long seq = r->snapshots, tasks, cfs_rqs;
	struct json_object *sysctl = NULL;
	char *task_rows = NULL;
	size_t task_len = 0;
	FILE *mem;
	int ret;

	mem = open_memstream(&task_rows, &task_len);
	if (!mem)
		return cfsr_error("record: out of memory");
	markf(r, "truth-begin", seq);
	tasks = rs_snapshot_tasks(mem, seq, all ? 0 : r->child, seq == 0);
	markf(r, "truth-mid", seq);
	ret = rs_snapshot_debug(r->truth, seq, seq == 0 ? &sysctl : NULL, &cfs_rqs);
	markf(r, "truth-end", seq);
	if (fclose(mem) == EOF)
		tasks = -1;
	if (tasks >= 0 && task_len && fwrite(task_rows, 1, task_len, r->truth) != task_len)
		tasks = -1;
	free(task_rows);
	if (seq == 0) {
		r->task_rows_at_start = tasks;
		r->cfs_rqs_at_start = cfs_rqs;
		json_object_object_add(r->meta, "sysctl_sched", sysctl);
		if (ret == 1)
			note(r,
			     "'%s' is not readable: no cfs_rq state or rq clocks in the snapshots",
			     RS_SCHED_DEBUG);
	}
	if (tasks < 0 || ret < 0 || fflush(r->truth) == EOF) {
		if (!r->write_failed)
			cfsr_error_errno("cannot save the kernel snapshots in '%s'", r->dir);
		r->write_failed = true;
		return -1;
	}
	r->snapshots++;
	return 0;
}

/* ---- the command -------------------------------------------------------------------------- */

/*
 * posix_spawnp() reports a command that cannot be run (glibc waits for the
 * exec), and lets the command have the default actions of the signals the
 * recorder catches.
 */
static int start_command(struct cfsr_record *r)
{
	char *marker = tracefs_instance_get_file(r->inst, "trace_marker");
	posix_spawnattr_t attr;
	sigset_t defaults;
	int err;

	/* the command may mark its phases in this recording's trace */
	if (marker)
		setenv("CFSREPLAY_TRACE_MARKER", marker, 1);
	tracefs_put_tracing_file(marker);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGINT);
	sigaddset(&defaults, SIGTERM);
	sigaddset(&defaults, SIGHUP);
	err = posix_spawnattr_init(&attr);
	if (!err)
		err = posix_spawnattr_setsigdefault(&attr, &defaults);
	if (!err)
		err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	if (!err)
		err = posix_spawnp(&r->child, r->o->argv[0], NULL, &attr, r->o->argv, environ);
	posix_spawnattr_destroy(&attr);
	unsetenv("CFSREPLAY_TRACE_MARKER");
	if (err) {
		r->child = 0;
		r->exec_errno = err;
		errno = err;
		return cfsr_error_errno("cannot run '%s'", r->o->argv[0]);
	}
	return 0;
}

static bool reap(struct cfsr_record *r, int options)
{
	pid_t p;

	if (r->child <= 0 || r->child_done)
		return true;
	do
		p = waitpid(r->child, &r->child_status, options);
	while (p < 0 && errno == EINTR);
	if (p == r->child || (p < 0 && errno == ECHILD))
		r->child_done = true;
	return r->child_done;
}

/* The command outlived the recording: ask it to stop, then make it. */
static void end_command(struct cfsr_record *r)
{
	int i;

	if (r->child <= 0 || reap(r, WNOHANG))
		return;
	kill(r->child, SIGTERM);
	for (i = 0; i < 20 && !reap(r, WNOHANG); i++)
		usleep(50000);
	if (!reap(r, WNOHANG)) {
		kill(r->child, SIGKILL);
		reap(r, 0);
	}
}

/* ---- the loop ----------------------------------------------------------------------------- */

static void start_captures(struct cfsr_record *r)
{
	struct cfsr_record_capture *c;

	for (c = r->o->captures; c; c = c->next)
		if (c->start && c->start(c->priv, r) < 0) {
			note(r, "capture '%s' failed to start; recording without it", c->name);
			c->start = NULL;
			c->poll = NULL;
			c->stop = NULL;
		}
}

static int loop(struct cfsr_record *r)
{
	uint64_t start = now_ms(), next_snap = start + r->o->truth_ms, t;
	struct cfsr_record_capture *c;

	for (;;) {
		uint64_t wait = RECORD_TICK_MS;

		/* wake for the next snapshot when it comes before the next tick */
		t = now_ms();
		if (r->o->truth_ms)
			wait = next_snap <= t ? 0 : next_snap - t < wait ? next_snap - t : wait;
		poll(NULL, 0, (int)wait);
		if (drain(r, false) < 0)
			return -1;
		t = now_ms();
		if (stop_signal)
			break;
		if (r->child > 0 && reap(r, WNOHANG))
			break;
		if (r->o->duration_ms && t - start >= r->o->duration_ms)
			break;
		if (r->o->truth_ms && t >= next_snap) {
			if (snapshot(r, r->o->all || r->child <= 0) < 0)
				return -1;
			next_snap += r->o->truth_ms;
			if (next_snap < t)
				next_snap = t + r->o->truth_ms;
		}
		for (c = r->o->captures; c; c = c->next)
			if (c->poll && c->poll(c->priv) < 0) {
				note(r, "capture '%s' failed; recording without it", c->name);
				c->poll = NULL;
			}
	}
	return 0;
}

/* ---- the file ----------------------------------------------------------------------------- */

/* Content of a tracefs file (top-level events/ formats are shared by all instances). */
static char *tracefs_file(const char *rel, int *len)
{
	char *path = tracefs_get_tracing_file(rel);
	size_t n = 0;
	char *buf;

	*len = 0;
	if (!path)
		return NULL;
	buf = rs_read_file(path, &n);
	tracefs_put_tracing_file(path);
	*len = (int)n;
	return buf;
}

/* Append to a growing buffer; -1 when out of memory. */
struct membuf {
	unsigned char *p;
	size_t len;
	size_t alloc;
};

static int mb_put(struct membuf *m, const void *data, size_t len)
{
	if (CFSR_ALLOC_GROW(m->p, m->len + len, m->alloc) < 0)
		return -1;
	memcpy(m->p + m->len, data, len);
	m->len += len;
	return 0;
}

static int mb_num(struct membuf *m, uint64_t v, unsigned int n)
{
	unsigned char b[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return mb_put(m, b, n);
}

/* u64 size, then the file "events/<system>/<name>/format". */
static int mb_format(struct membuf *m, const char *system, const char *name)
{
	char rel[256];
	char *fmt;
	int len, ret;

	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, name);
	fmt = tracefs_file(rel, &len);
	if (!fmt || !len) {
		free(fmt);
		return cfsr_error("cannot read the format of event '%s:%s'", system, name);
	}
	ret = mb_num(m, (uint64_t)len, 8) < 0 || mb_put(m, fmt, (size_t)len) < 0 ? -1 : 0;
	free(fmt);
	return ret;
}

static int write_header_info(struct td_writer *w)
{
	static const char *const parts[] = { "header_page", "header_event" };
	struct membuf m = { NULL, 0, 0 };
	size_t i;
	int ret = -1;

	for (i = 0; i < 2; i++) {
		char rel[64];
		char *data;
		int len;

		snprintf(rel, sizeof(rel), "events/%s", parts[i]);
		data = tracefs_file(rel, &len);
		if (!data) {
			cfsr_error("cannot read tracefs file '%s'", rel);
			goto out;
		}
		if (mb_put(&m, parts[i], strlen(parts[i]) + 1) < 0 ||
		    mb_num(&m, (uint64_t)len, 8) < 0 || mb_put(&m, data, (size_t)len) < 0) {
			free(data);
			goto out;
		}
		free(data);
	}
	ret = td_writer_section(w, TD_SEC_HEADER_INFO, m.p, m.len);
out:
	free(m.p);
	return ret;
}

/* ftrace's print (the markers), then each system's enabled events. */
static int write_formats(struct cfsr_record *r, struct td_writer *w)
{
	static const char *const systems[] = { "sched", "cgroup", "syscalls" };
	struct membuf m = { NULL, 0, 0 };
	size_t s, i;
	int ret = -1;

	if (mb_num(&m, 1, 4) < 0 || mb_format(&m, "ftrace", "print") < 0 ||
	    td_writer_section(w, TD_SEC_FTRACE_EVENTS, m.p, m.len) < 0)
		goto out;
	m.len = 0;
	if (mb_num(&m, 3, 4) < 0)
		goto out;
	for (s = 0; s < 3; s++) {
		uint32_t count = 0;
		size_t count_at;

		if (mb_put(&m, systems[s], strlen(systems[s]) + 1) < 0)
			goto out;
		count_at = m.len;
		if (mb_num(&m, 0, 4) < 0)
			goto out;
		if (s == 0) {
			for (i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]);
			     i++, count++)
				if (mb_format(&m, "sched", sched_events[i]) < 0)
					goto out;
		}
		for (i = 0; i < NR_EXTRA; i++) {
			if (!r->enabled_extra[i] || strcmp(extra_events[i].system, systems[s]))
				continue;
			if (mb_format(&m, extra_events[i].system, extra_events[i].name) < 0)
				goto out;
			count++;
		}
		for (i = 0; i < 4; i++)
			m.p[count_at + i] = (unsigned char)(count >> (8 * i));
	}
	ret = td_writer_section(w, TD_SEC_EVENT_FORMATS, m.p, m.len);
out:
	if (ret < 0 && m.p == NULL)
		cfsr_error("record: out of memory");
	free(m.p);
	return ret;
}

/* kallsyms: the one symbol print events name (trace_marker's), for trace-cmd's display. */
static int write_kallsyms(struct td_writer *w)
{
	struct membuf m = { NULL, 0, 0 };
	char line[512], keep[2][512] = { "", "" };
	FILE *f = fopen("/proc/kallsyms", "re");
	int found = 0, ret;

	while (f && found < 2 && fgets(line, sizeof(line), f)) {
		if (found == 1 || strstr(line, " tracing_mark_write\n"))
			snprintf(keep[found++], sizeof(keep[0]), "%s", line);
	}
	if (f)
		fclose(f);
	/* addresses are zero without the right to see them: then store nothing */
	if (found && !strncmp(keep[0], "0000000000000000", 16))
		found = 0;
	ret = mb_num(&m, found ? strlen(keep[0]) + strlen(keep[1]) : 0, 4);
	if (!ret && found)
		ret = mb_put(&m, keep[0], strlen(keep[0])) | mb_put(&m, keep[1], strlen(keep[1]));
	if (!ret)
		ret = td_writer_section(w, TD_SEC_KALLSYMS, m.p, m.len);
	free(m.p);
	return ret;
}

static int write_cmdlines(struct td_writer *w)
{
	struct membuf m = { NULL, 0, 0 };
	char *data;
	int len, ret;

	data = tracefs_file("saved_cmdlines", &len);
	ret = mb_num(&m, (uint64_t)(data ? len : 0), 8);
	if (!ret && data)
		ret = mb_put(&m, data, (size_t)len);
	if (!ret)
		ret = td_writer_section(w, TD_SEC_CMDLINES, m.p, m.len);
	free(data);
	free(m.p);
	return ret;
}

static int write_trace(struct cfsr_record *r, struct td_writer *w)
{
	struct utsname u;
	char uts[5 * 65 + 8], ver[64], clock_opt[64];
	uint32_t ncpus = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	int *cpus = NULL, *fds = NULL, i, ret = -1;
	const char *meta;
	struct membuf empty = { NULL, 0, 0 };

	if (write_header_info(w) < 0 || write_formats(r, w) < 0 || write_kallsyms(w) < 0)
		return -1;
	if (mb_num(&empty, 0, 4) < 0 || td_writer_section(w, TD_SEC_PRINTK, empty.p, 4) < 0) {
		free(empty.p);
		return -1;
	}
	free(empty.p);
	if (write_cmdlines(w) < 0)
		return -1;
	if (uname(&u) == 0) {
		snprintf(uts, sizeof(uts), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.machine);
		td_writer_option(w, TD_OPT_UNAME, uts, strlen(uts) + 1);
	}
	snprintf(ver, sizeof(ver), "cfsreplay %s", CFSR_VERSION);
	td_writer_option(w, TD_OPT_VERSION, ver, strlen(ver) + 1);
	snprintf(clock_opt, sizeof(clock_opt), "[%s]", r->clock);
	td_writer_option(w, TD_OPT_TRACECLOCK, clock_opt, strlen(clock_opt) + 1);
	td_writer_option(w, TD_OPT_CPUCOUNT, &ncpus, 4);
	write_cpu_stats(r, w);

	cpus = calloc((size_t)r->nr_cpus, sizeof(*cpus));
	fds = calloc((size_t)r->nr_cpus, sizeof(*fds));
	if (!cpus || !fds) {
		cfsr_error("record: out of memory");
		goto out;
	}
	for (i = 0; i < r->nr_cpus; i++) {
		cpus[i] = r->cpus[i].cpu;
		fds[i] = r->cpus[i].fd;
		if (lseek(fds[i], 0, SEEK_SET) < 0) {
			cfsr_error_errno("cannot read back CPU %d's trace data", cpus[i]);
			goto out;
		}
	}
	if (td_writer_buffer(w, "", r->clock, r->nr_cpus, cpus, fds) < 0)
		goto out;
	meta = json_object_to_json_string_ext(r->meta, JSON_C_TO_STRING_PLAIN);
	if (td_writer_section(w, CFSR_SEC_META, meta, strlen(meta) + 1) < 0)
		goto out;
	ret = 0;
out:
	free(cpus);
	free(fds);
	return ret;
}

/* Trace times of the truth-begin/mid/end markers, per snapshot. */
struct marks {
	int64_t (*ts)[3];
	long n;
};

/* Read the written file back: count its events, find the snapshot markers. */
static int read_back(struct cfsr_record *r, struct cfsr_record_result *res, struct marks *mk)
{
	static const char *const names[3] = { "truth-begin ", "truth-mid ", "truth-end " };
	struct cfsr_trace *t = cfsr_trace_open(r->tmp_path);
	struct cfsr_event ev;
	int ret, k;
	long seq;

	if (!t)
		return -1;
	mk->n = r->snapshots;
	mk->ts = calloc((size_t)(mk->n ? mk->n : 1), sizeof(*mk->ts));
	if (!mk->ts) {
		cfsr_trace_close(t);
		return cfsr_error("record: out of memory");
	}
	memset(mk->ts, 0xff, (size_t)(mk->n ? mk->n : 1) * sizeof(*mk->ts));
	while ((ret = cfsr_trace_next(t, &ev)) > 0) {
		if (ev.kind != CFSR_EV_MARKER || !ev.marker.text)
			continue;
		for (k = 0; k < 3; k++) {
			size_t n = strlen(names[k]);
			char *end;

			if (strncmp(ev.marker.text, names[k], n))
				continue;
			seq = strtol(ev.marker.text + n, &end, 10);
			if (end != ev.marker.text + n && !*end && seq >= 0 && seq < mk->n)
				mk->ts[seq][k] = (int64_t)ev.ts;
		}
	}
	res->events = t->stats.records;
	res->lost_pages = t->stats.lost_notices;
	cfsr_trace_close(t);
	return ret;
}

/* The truth lines, with each snap line given its markers' times, as a gzip stream. */
static int truth_stream(struct cfsr_record *r, const struct marks *mk, int *out)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t n;
	gzFile gz;
	int fd = temp_fd(r), dup_fd, ret = 0;

	*out = -1;
	if (fd < 0)
		return -1;
	dup_fd = dup(fd);
	gz = dup_fd >= 0 ? gzdopen(dup_fd, "wb") : NULL;
	if (!gz) {
		close(fd);
		if (dup_fd >= 0)
			close(dup_fd);
		return cfsr_error("record: out of memory");
	}
	rewind(r->truth);
	while ((n = getline(&line, &alloc, r->truth)) > 0) {
		long seq;
		int used = 0;

		if (sscanf(line, "{\"seq\":%ld,\"kind\":\"snap\"%n", &seq, &used) == 1 && used &&
		    seq >= 0 && seq < mk->n) {
			if (gzwrite(gz, line, (unsigned int)used) <= 0 ||
			    gzprintf(gz,
				     ",\"trace_ts_begin\":%" PRId64 ",\"trace_ts_mid\":%" PRId64
				     ",\"trace_ts_end\":%" PRId64,
				     mk->ts[seq][0], mk->ts[seq][1], mk->ts[seq][2]) <= 0 ||
			    gzwrite(gz, line + used, (unsigned int)(n - used)) <= 0)
				ret = -1;
		} else if (gzwrite(gz, line, (unsigned int)n) <= 0) {
			ret = -1;
		}
		if (ret < 0)
			break;
	}
	free(line);
	if (gzclose(gz) != Z_OK || ret < 0) {
		close(fd);
		return cfsr_error("cannot write the kernel snapshots to '%s'", r->dir);
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return cfsr_error_errno("cannot read back the kernel snapshots");
	}
	*out = fd;
	return 0;
}

static int finish_file(struct cfsr_record *r, struct cfsr_record_result *res)
{
	struct marks mk = { NULL, 0 };
	struct td_writer *w;
	struct stat st;
	long i;
	int fd, ret = -1;

	w = td_writer_create(r->tmp_path, r->o->compression, sizeof(long),
			     (unsigned int)r->page_size);
	if (!w)
		return -1;
	if (write_trace(r, w) < 0) {
		td_writer_close(w);
		return -1;
	}
	for (struct cfsr_record_capture *c = r->o->captures; c; c = c->next)
		if (c->stop && c->stop(c->priv, w) < 0)
			note(r, "capture '%s' could not be stored", c->name);
	if (td_writer_close(w) < 0)
		return -1;
	if (read_back(r, res, &mk) < 0)
		goto out;
	for (i = 0; i < mk.n; i++)
		if (mk.ts[i][0] < 0 || mk.ts[i][1] < 0 || mk.ts[i][2] < 0)
			note(r, "the markers of snapshot %ld are missing from the trace", i);
	if (truth_stream(r, &mk, &fd) < 0)
		goto out;
	ret = td_append_section(r->tmp_path, CFSR_SEC_TRUTH, fd);
	close(fd);
	if (ret == 0 && stat(r->tmp_path, &st) == 0)
		res->file_size = (uint64_t)st.st_size;
out:
	free(mk.ts);
	return ret;
}

/* Move the finished file to its name; never over an existing file without force. */
static int publish(struct cfsr_record *r)
{
	if (r->o->force) {
		if (rename(r->tmp_path, r->o->output) < 0)
			return cfsr_error_errno("cannot write '%s'", r->o->output);
	} else {
		if (link(r->tmp_path, r->o->output) < 0) {
			if (errno == EEXIST)
				return cfsr_error("'%s' exists (it appeared while recording); the "
						  "trace is in '%s'",
						  r->o->output, r->tmp_path);
			return cfsr_error_errno("cannot write '%s'", r->o->output);
		}
		unlink(r->tmp_path);
	}
	free(r->tmp_path);
	r->tmp_path = NULL;
	return 0;
}

/* ---- set-up and the whole run ------------------------------------------------------------- */

static int check_output(struct cfsr_record *r)
{
	const char *slash = strrchr(r->o->output, '/');
	char path[4200];
	mode_t mask;
	int fd;

	if (!r->o->force && access(r->o->output, F_OK) == 0)
		return cfsr_error("'%s' exists; use -f to replace it", r->o->output);
	if (!slash)
		r->dir = strdup(".");
	else if (slash == r->o->output)
		r->dir = strdup("/");
	else
		r->dir = strndup(r->o->output, (size_t)(slash - r->o->output));
	if (!r->dir)
		return cfsr_error("record: out of memory");
	snprintf(path, sizeof(path), "%s/.cfsreplay-record-XXXXXX", r->dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return cfsr_error_errno("cannot write in '%s'", r->dir);
	r->out_fd = fd;
	/* mkostemp() makes it private; a trace is an ordinary file */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0)
		return cfsr_error_errno("cannot write in '%s'", r->dir);
	r->tmp_path = strdup(path);
	if (!r->tmp_path)
		return cfsr_error("record: out of memory");
	return 0;
}

static int check_tracefs(struct cfsr_record *r)
{
	bool mounted = access("/sys/kernel/tracing/trace_marker", F_OK) == 0 ||
		       access("/sys/kernel/debug/tracing/trace_marker", F_OK) == 0;
	const char *dir;

	if (geteuid() != 0)
		return cfsr_error("record needs root: it creates a tracefs instance and reads "
				  "/sys/kernel/debug/sched");
	dir = tracefs_tracing_dir();
	if (!dir || access(dir, W_OK) < 0)
		return cfsr_error("tracefs is not mounted and could not be mounted (mount -t "
				  "tracefs nodev /sys/kernel/tracing)");
	if (!mounted)
		note(r, "tracefs was not mounted: mounted it at '%s'", dir);
	return 0;
}

static void fill_meta(struct cfsr_record *r, const char *debug_how, bool debug_ok)
{
	struct json_object *m = r->meta, *ev = json_object_new_array(), *cmd;
	size_t i;

	json_object_object_add(m, "format", json_object_new_string("cfsr-record/1"));
	json_object_object_add(m, "recorder", json_object_new_string("cfsreplay " CFSR_VERSION));
	rs_machine_meta(m, debug_ok);
	json_object_object_add(m, "sched_debug", json_object_new_string(debug_how));
	for (i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++) {
		char name[96];

		snprintf(name, sizeof(name), "sched:%s", sched_events[i]);
		json_object_array_add(ev, json_object_new_string(name));
	}
	for (i = 0; i < NR_EXTRA; i++) {
		char name[96];

		if (!r->enabled_extra[i])
			continue;
		snprintf(name, sizeof(name), "%s:%s", extra_events[i].system, extra_events[i].name);
		json_object_array_add(ev, json_object_new_string(name));
	}
	json_object_object_add(m, "events", ev);
	json_object_object_add(m, "trace_clock", json_object_new_string(r->clock));
	json_object_object_add(m, "instance", json_object_new_string(r->inst_name));
	json_object_object_add(m, "buffer_kb", json_object_new_int64(r->o->buffer_kb));
	json_object_object_add(m, "page_size", json_object_new_int(r->page_size));
	cmd = NULL;
	if (r->o->argv) {
		cmd = json_object_new_array();
		for (i = 0; r->o->argv[i]; i++)
			json_object_array_add(cmd, json_object_new_string(r->o->argv[i]));
	}
	json_object_object_add(m, "command", cmd);
	json_object_object_add(m, "truth_ms", json_object_new_int64(r->o->truth_ms));
	json_object_object_add(
		m, "truth_tasks",
		json_object_new_string(r->o->all || !r->o->argv ? "all" : "command"));
}

static void fill_result_meta(struct cfsr_record *r, struct cfsr_record_result *res,
			     uint64_t start_ms)
{
	struct json_object *cpus = json_object_new_array(), *res_obj = json_object_new_object();
	int64_t lost = 0;
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "cpu", json_object_new_int(r->cpus[i].cpu));
		json_object_object_add(c, "bytes",
				       json_object_new_int64((int64_t)r->cpus[i].bytes));
		json_object_object_add(c, "overrun", json_object_new_int64(r->cpus[i].overrun));
		json_object_object_add(c, "dropped", json_object_new_int64(r->cpus[i].dropped));
		json_object_array_add(cpus, c);
		lost += (r->cpus[i].overrun > 0 ? r->cpus[i].overrun : 0) +
			(r->cpus[i].dropped > 0 ? r->cpus[i].dropped : 0);
	}
	res->lost_events = (uint64_t)lost;
	json_object_object_add(res_obj, "per_cpu", cpus);
	json_object_object_add(res_obj, "lost_events", json_object_new_int64(lost));
	json_object_object_add(res_obj, "duration_ms",
			       json_object_new_int64((int64_t)(now_ms() - start_ms)));
	json_object_object_add(res_obj, "snapshots", json_object_new_int64(r->snapshots));
	json_object_object_add(
		res_obj, "stopped_by",
		res->stopped_by ? json_object_new_string(strsignal(res->stopped_by)) : NULL);
	if (r->child > 0 && r->child_done) {
		if (WIFEXITED(r->child_status))
			json_object_object_add(res_obj, "command_exit",
					       json_object_new_int(WEXITSTATUS(r->child_status)));
		else if (WIFSIGNALED(r->child_status))
			json_object_object_add(
				res_obj, "command_signal",
				json_object_new_string(strsignal(WTERMSIG(r->child_status))));
	}
	json_object_object_add(r->meta, "recording", res_obj);
	json_object_object_add(r->meta, "initial_state",
			       json_object_new_string("truth snapshot 0 (CFSR_SEC_TRUTH)"));
	json_object_object_add(r->meta, "initial_tasks",
			       json_object_new_int64(r->task_rows_at_start));
	json_object_object_add(r->meta, "initial_cfs_rqs",
			       json_object_new_int64(r->cfs_rqs_at_start));
}

int cfsr_record_run(const struct cfsr_record_opts *o, struct cfsr_record_result *res)
{
	struct sigaction sa, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct cfsr_record r = { 0 };
	struct cfsr_record_capture *c;
	const char *debug_how = "";
	bool debug_ok;
	uint64_t start_ms;
	int i, ret = -1, fd;

	memset(res, 0, sizeof(*res));
	res->cmd_status = -1;
	r.o = o;
	r.out_fd = -1;
	r.marker_fd = -1;
	r.meta = json_object_new_object();
	r.notes = json_object_new_array();
	stop_signal = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);

	if (!r.meta || !r.notes) {
		cfsr_error("record: out of memory");
		goto out;
	}
	if (check_tracefs(&r) < 0 || check_output(&r) < 0)
		goto out;
	debug_ok = rs_debugfs_prepare(&debug_how);
	if (!debug_ok)
		note(&r, "%s: no cfs_rq state or rq clocks will be recorded", debug_how);
	else if (strstr(debug_how, "private"))
		note(&r, "%s", debug_how);
	fd = temp_fd(&r);
	r.truth = fd >= 0 ? fdopen(fd, "w+") : NULL;
	if (!r.truth) {
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (setup_instance(&r) < 0 || open_cpus(&r) < 0)
		goto out_instance;
	fill_meta(&r, debug_how, debug_ok);

	start_ms = now_ms();
	/*
	 * The captures first: the kernel's PELT records give every CPU's
	 * clock from the trace's first event on (loading the BPF programs
	 * and the first snapshot take tens of milliseconds, with events).
	 */
	start_captures(&r);
	if (write_inst(&r, "tracing_on", "1") < 0)
		goto out_instance;
	cfsr_record_marker(&r, "cfsr-record-start");
	if (snapshot(&r, true) < 0)
		goto out_stop;
	if (o->argv && !stop_signal && start_command(&r) < 0)
		goto out_stop;
	if (loop(&r) < 0)
		goto out_stop;
	ret = 0;
out_stop:
	res->stopped_by = stop_signal;
	if (res->stopped_by)
		note(&r, "stopped by %s; writing what was captured", strsignal(res->stopped_by));
	cfsr_record_marker(&r, "cfsr-record-stop");
	end_command(&r);
	tracefs_instance_file_write(r.inst, "tracing_on", "0");
	if (drain(&r, true) < 0)
		ret = -1;
	read_cpu_stats(&r);
	/* the instance goes first: writing the file can take a while */
	close_instance(&r);
	fill_result_meta(&r, res, start_ms);
	if (res->lost_events)
		note(&r,
		     "%" PRIu64 " events were lost (ring buffer overruns); use a larger "
		     "--buffer-kb",
		     res->lost_events);
	json_object_object_add(r.meta, "notes", json_object_get(r.notes));
	/* what was captured is written even when the run itself failed */
	if (finish_file(&r, res) < 0 || publish(&r) < 0)
		ret = -1;
	else if (ret < 0)
		note(&r, "what was captured is in '%s' (%" PRIu64 " events)", o->output,
		     res->events);
	res->snapshots = (uint64_t)r.snapshots;
out_instance:
	close_instance(&r);
out:
	if (r.child > 0 && r.child_done)
		res->cmd_status = r.child_status;
	for (c = o->captures; c; c = c->next)
		if (c->free)
			c->free(c->priv);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	for (i = 0; r.cpus && i < r.nr_cpus; i++)
		close(r.cpus[i].fd);
	for (i = 0; r.cpus && i < r.nr_cpus; i++)
		free(r.cpus[i].stats);
	free(r.cpus);
	free(r.page);
	if (r.truth)
		fclose(r.truth);
	if (r.out_fd >= 0)
		close(r.out_fd);
	if (r.tmp_path) {
		unlink(r.tmp_path);
		free(r.tmp_path);
	}
	free(r.dir);
	json_object_put(r.meta);
	json_object_put(r.notes);
	return ret;
}

char *cfsr_record_pelt_path(const char *trace)
{
	size_t n = strlen(trace);
	char *path;

	if (n > 4 && !strcmp(trace + n - 4, ".dat"))
		n -= 4;
	path = malloc(n + sizeof(".pelt.jsonl.gz"));
	if (path) {
		memcpy(path, trace, n);
		strcpy(path + n, ".pelt.jsonl.gz");
	}
	return path;
}

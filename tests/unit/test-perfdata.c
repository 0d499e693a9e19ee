// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the perf.data reader (formats/perfdata.c).
 *
 * - Probing: both byte orders of the magic, and nothing else.
 * - The recordings in ../shared/traces, when present, are read whole:
 *   samples per event type must equal what `perf script` counted (the
 *   table below), time must never go backwards, and bench/perf.data
 *   (perf record -z) must report its one LOST record.
 * - The same run's trace.dat holds the same events: after the constant
 *   offset between perf's clock and trace.dat's (measured here), every
 *   perf.data event must have its trace.dat twin (type, CPU, pid and
 *   payload); how many trace.dat events perf missed is printed.
 * - Copies of a recording (the shared periodic run, else a bundled
 *   traces/periodic.perf.data) rewritten here as perf would write them
 *   (its records compressed into COMPRESSED and COMPRESSED2 blocks in one
 *   zstd stream; pipe mode; records shuffled inside each FINISHED_ROUND
 *   window) must read as the same event stream.
 * - Truncated and byte-damaged copies of it are refused or read with
 *   their damage reported, never crash.
 * - As root with perf installed: fresh recordings (pipe mode, -z, a
 *   clock chosen with -k, samples with call chains, registers, user stack,
 *   page sizes, cgroup ids) read with perf script's counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static const char *srcdir(void)
{
	const char *d = getenv("CFSR_SRCDIR");

	return d ? d : ".";
}

static void shared_path(char *buf, size_t len, const char *dir, const char *file)
{
	snprintf(buf, len, "%s/../shared/traces/%s/%s", srcdir(), dir, file);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

/*
 * Open through the reader's own ops, as cfsr_trace_open() does once it has
 * probed the file.
 */
static struct cfsr_trace *pd_open(const char *path)
{
	struct cfsr_trace *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->path = strdup(path);
	assert_non_null(t->path);
	t->data_path = t->path;
	t->data_fd = -1;
	t->fmt = &cfsr_format_perfdata;
	if (t->fmt->open(t, path) < 0) {
		assert_null(t->stats.type_counts);
		free(t->path);
		free(t);
		return NULL;
	}
	return t;
}

static void pd_close(struct cfsr_trace *t)
{
	t->fmt->close(t);
	free(t->stats.type_counts);
	free(t->path);
	free(t);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void spit(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Mix one value into an FNV-1a hash. */
static void mix(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 1099511628211ull;
}

/* A digest of an event: time, place, kind and the payload replay uses. */
static void mix_event(uint64_t *h, const struct cfsr_event *ev)
{
	mix(h, ev->ts);
	mix(h, (uint64_t)ev->cpu);
	mix(h, (uint64_t)ev->pid);
	mix(h, (uint64_t)ev->kind);
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		mix(h, (uint64_t)ev->sw.prev_pid);
		mix(h, (uint64_t)ev->sw.next_pid);
		mix(h, ev->sw.prev_state);
		mix(h, ev->sw.preempt);
		break;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		mix(h, (uint64_t)ev->wake.pid);
		mix(h, (uint64_t)ev->wake.target_cpu);
		break;
	case CFSR_EV_EXEC:
		mix(h, strlen(ev->exec.filename));
		break;
	case CFSR_EV_CGROUP_ATTACH:
		mix(h, strlen(ev->cgroup.path));
		break;
	case CFSR_EV_LOST:
		mix(h, (uint64_t)ev->lost.nr);
		break;
	default:
		break;
	}
}

struct summary {
	uint64_t events;
	/* of the stream in order, and of the events in any order */
	uint64_t hash;
	uint64_t set_hash;
	uint64_t backwards;
	uint64_t lost_notices;
	uint64_t lost_events;
	uint64_t bad;
	uint64_t malformed;
	char compression[16];
	/* the cgroups, (task, cgroup) pairs and topology, one line each */
	char cg_text[16384];
	size_t nr_cgroups;
	uint64_t cg_samples;
	uint64_t cg_bad;
	int nr_topo;
	char topo_source[64];
};

/* The cgroups, sample pairs and topology the reader gave, as text lines. */
static void describe_cgroups(const struct cfsr_trace_info *in, struct summary *s)
{
	size_t i, n = 0, size = sizeof(s->cg_text);
	int k;

	for (i = 0; i < in->nr_cgroups && n < size; i++)
		n += (size_t)snprintf(s->cg_text + n, size - n, "cg %" PRIu64 " %s\n",
				      in->cgroups[i].id, in->cgroups[i].path);
	for (i = 0; i < in->nr_task_cgroups && n < size; i++)
		n += (size_t)snprintf(s->cg_text + n, size - n, "task %d %" PRIu64 "\n",
				      in->task_cgroups[i].tid, in->task_cgroups[i].id);
	for (k = 0; k < in->nr_topo && n < size; k++) {
		const struct cfsr_cpu_topo *tp = &in->topo[k];

		n += (size_t)snprintf(s->cg_text + n, size - n, "cpu%d %d %d %d %s %s %s\n", k,
				      tp->core_id, tp->package_id, tp->die_id,
				      tp->thread_siblings ? tp->thread_siblings : "-",
				      tp->core_siblings ? tp->core_siblings : "-",
				      tp->die_siblings ? tp->die_siblings : "-");
	}
	assert_true(n < size);
	s->nr_cgroups = in->nr_cgroups;
	s->cg_samples = in->cgroup_samples;
	s->cg_bad = in->cgroup_bad;
	s->nr_topo = in->nr_topo;
	snprintf(s->topo_source, sizeof(s->topo_source), "%s",
		 in->topo_source ? in->topo_source : "");
}

/* Read a whole file; return false if it did not open. */
static bool summarize(const char *path, struct summary *s)
{
	struct cfsr_trace *t = pd_open(path);
	struct cfsr_event ev;
	uint64_t last = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	s->hash = 1469598103934665603ull;
	if (!t)
		return false;
	while ((ret = t->fmt->next(t, &ev)) > 0) {
		uint64_t one = 1469598103934665603ull;

		s->events++;
		s->backwards += ev.ts < last;
		last = ev.ts;
		mix_event(&s->hash, &ev);
		mix_event(&one, &ev);
		s->set_hash += one;
	}
	assert_true(ret == 0);
	s->lost_notices = t->stats.lost_notices;
	s->lost_events = t->stats.lost_events;
	s->bad = t->stats.bad_pages;
	s->malformed = t->stats.malformed;
	snprintf(s->compression, sizeof(s->compression), "%s", t->info.compression);
	describe_cgroups(&t->info, s);
	pd_close(t);
	return true;
}

/* ---- probe ------------------------------------------------------------------------------------ */

static void test_probe_by_magic(void **state)
{
	static const unsigned char le[16] = "PERFILE2h";
	static const unsigned char be[16] = "2ELIFREP";
	static const unsigned char td[16] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	static const unsigned char v1[16] = "PERFFILE";

	(void)state;
	assert_true(cfsr_format_perfdata.probe(le, sizeof(le)));
	assert_true(cfsr_format_perfdata.probe(be, sizeof(be)));
	assert_false(cfsr_format_perfdata.probe(td, sizeof(td)));
	assert_false(cfsr_format_perfdata.probe(v1, sizeof(v1)));
	assert_false(cfsr_format_perfdata.probe(le, 7));
}

/* ---- the shared recordings against perf script ---------------------------------------------- */

/*
 * Samples per event type, counted by perf 6.1 with
 *   perf script -i DIR/perf.data -F event | sort | uniq -c
 */
static const struct {
	const char *dir;
	const char *event;
	uint64_t n;
} perf_script_counts[] = {
	{ "bench", "sched_migrate_task", 99 },
	{ "bench", "sched_process_exit", 880 },
	{ "bench", "sched_process_fork", 879 },
	{ "bench", "sched_stat_runtime", 877011 },
	{ "bench", "sched_switch", 699492 },
	{ "bench", "sched_wakeup", 433866 },
	{ "bench", "sched_wakeup_new", 879 },
	{ "bench", "sched_waking", 433871 },
	{ "cgroups", "cgroup_attach_task", 8 },
	{ "cgroups", "cgroup_notify_populated", 6 },
	{ "cgroups", "sched_migrate_task", 136 },
	{ "cgroups", "sched_process_exec", 63 },
	{ "cgroups", "sched_process_exit", 80 },
	{ "cgroups", "sched_process_fork", 80 },
	{ "cgroups", "sched_process_free", 76 },
	{ "cgroups", "sched_stat_runtime", 5674 },
	{ "cgroups", "sched_switch", 2890 },
	{ "cgroups", "sched_wakeup", 1102 },
	{ "cgroups", "sched_wakeup_new", 80 },
	{ "cgroups", "sched_waking", 1108 },
	{ "cgroups", "sys_enter_sched_setaffinity", 3 },
	{ "cgroups", "sys_enter_sched_setscheduler", 1 },
	{ "cgroups-bpf", "cgroup_attach_task", 10 },
	{ "cgroups-bpf", "cgroup_notify_populated", 6 },
	{ "cgroups-bpf", "sched_migrate_task", 46 },
	{ "cgroups-bpf", "sched_process_exec", 22 },
	{ "cgroups-bpf", "sched_process_exit", 30 },
	{ "cgroups-bpf", "sched_process_fork", 30 },
	{ "cgroups-bpf", "sched_process_free", 26 },
	{ "cgroups-bpf", "sched_stat_runtime", 6334 },
	{ "cgroups-bpf", "sched_switch", 3624 },
	{ "cgroups-bpf", "sched_wakeup", 806 },
	{ "cgroups-bpf", "sched_wakeup_new", 30 },
	{ "cgroups-bpf", "sched_waking", 814 },
	{ "cgroups-bpf", "sys_enter_sched_setaffinity", 3 },
	{ "cgroups-bpf", "sys_enter_sched_setscheduler", 1 },
	{ "nice", "cgroup_attach_task", 4 },
	{ "nice", "cgroup_notify_populated", 2 },
	{ "nice", "sched_migrate_task", 131 },
	{ "nice", "sched_process_exec", 45 },
	{ "nice", "sched_process_exit", 74 },
	{ "nice", "sched_process_fork", 74 },
	{ "nice", "sched_process_free", 73 },
	{ "nice", "sched_stat_runtime", 6086 },
	{ "nice", "sched_switch", 2580 },
	{ "nice", "sched_wakeup", 1110 },
	{ "nice", "sched_wakeup_new", 74 },
	{ "nice", "sched_waking", 1115 },
	{ "nice", "sys_enter_sched_setaffinity", 3 },
	{ "nice", "sys_enter_sched_setscheduler", 1 },
	{ "nice", "sys_enter_setpriority", 3 },
	{ "periodic", "cgroup_attach_task", 4 },
	{ "periodic", "cgroup_notify_populated", 2 },
	{ "periodic", "sched_migrate_task", 22 },
	{ "periodic", "sched_process_exec", 6 },
	{ "periodic", "sched_process_exit", 7 },
	{ "periodic", "sched_process_fork", 7 },
	{ "periodic", "sched_process_free", 2 },
	{ "periodic", "sched_stat_runtime", 5060 },
	{ "periodic", "sched_switch", 3067 },
	{ "periodic", "sched_wakeup", 1322 },
	{ "periodic", "sched_wakeup_new", 7 },
	{ "periodic", "sched_waking", 1325 },
	{ "periodic", "sys_enter_sched_setaffinity", 7 },
	{ "periodic", "sys_enter_sched_setscheduler", 1 },
	{ "periodic-bpf", "cgroup_attach_task", 4 },
	{ "periodic-bpf", "cgroup_notify_populated", 2 },
	{ "periodic-bpf", "sched_migrate_task", 30 },
	{ "periodic-bpf", "sched_process_exec", 13 },
	{ "periodic-bpf", "sched_process_exit", 21 },
	{ "periodic-bpf", "sched_process_fork", 16 },
	{ "periodic-bpf", "sched_process_free", 13 },
	{ "periodic-bpf", "sched_stat_runtime", 4610 },
	{ "periodic-bpf", "sched_switch", 2925 },
	{ "periodic-bpf", "sched_wakeup", 588 },
	{ "periodic-bpf", "sched_wakeup_new", 16 },
	{ "periodic-bpf", "sched_waking", 600 },
	{ "periodic-bpf", "sys_enter_sched_setaffinity", 7 },
	{ "periodic-bpf", "sys_enter_sched_setscheduler", 1 },
};

static const char *const shared_dirs[] = {
	"bench", "cgroups", "cgroups-bpf", "nice", "periodic", "periodic-bpf",
};

#define NR_SHARED (sizeof(shared_dirs) / sizeof(shared_dirs[0]))

static bool have_shared(void)
{
	char path[4096];

	shared_path(path, sizeof(path), "periodic", "perf.data");
	if (exists(path))
		return true;
	print_message("skipped: no recorded traces in '%s/../shared/traces'\n", srcdir());
	return false;
}

static void check_shared(const char *dir)
{
	char path[4096];
	struct cfsr_trace *t;
	struct cfsr_event ev;
	uint64_t last_ts = 0, backwards = 0, switches = 0, total = 0, sum = 0;
	size_t i;
	int j, ret;

	shared_path(path, sizeof(path), dir, "perf.data");
	if (!exists(path)) {
		print_message("%s: no perf.data, not checked\n", dir);
		return;
	}
	t = pd_open(path);
	assert_non_null(t);
	assert_string_equal(t->info.reader, "perf.data");
	assert_int_equal(t->info.file_version, 2);
	assert_string_equal(t->info.compression, strcmp(dir, "bench") ? "none" : "zstd");
	assert_string_equal(t->info.kernel_release, "6.18.44-fc-v1147");
	assert_string_equal(t->info.clock, "perf");
	assert_int_equal(t->info.nr_cpus, 2);
	assert_true(t->info.preempt_bit_known);
	while ((ret = t->fmt->next(t, &ev)) > 0) {
		backwards += ev.ts < last_ts;
		last_ts = ev.ts;
		total++;
		if (ev.kind == CFSR_EV_LOST)
			continue;
		assert_true(ev.cpu >= 0 && ev.cpu < t->info.nr_cpus);
		switch (ev.kind) {
		case CFSR_EV_SWITCH:
			/* the kernel fires sched_switch in the context of prev */
			assert_int_equal(ev.pid, ev.sw.prev_pid);
			assert_true(ev.sw.prev_prio >= 0 && ev.sw.prev_prio <= 140);
			switches++;
			break;
		case CFSR_EV_WAKEUP:
		case CFSR_EV_WAKING:
		case CFSR_EV_WAKEUP_NEW:
			assert_true(ev.wake.target_cpu >= 0 &&
				    ev.wake.target_cpu < t->info.nr_cpus);
			break;
		case CFSR_EV_FORK:
			assert_true(ev.fork.child_pid != ev.fork.parent_pid);
			break;
		default:
			break;
		}
	}
	assert_int_equal(ret, 0);
	assert_true(switches > 0);
	if (backwards)
		fail_msg("%s: time went backwards %" PRIu64 " times", dir, backwards);

	for (i = 0; i < sizeof(perf_script_counts) / sizeof(perf_script_counts[0]); i++) {
		uint64_t got = 0;

		if (strcmp(perf_script_counts[i].dir, dir))
			continue;
		for (j = 0; j < t->info.nr_types; j++)
			if (!strcmp(t->info.types[j].name, perf_script_counts[i].event))
				got += t->stats.type_counts[j];
		if (got != perf_script_counts[i].n)
			fail_msg("%s: %s: read %" PRIu64 ", perf script counted %" PRIu64, dir,
				 perf_script_counts[i].event, got, perf_script_counts[i].n);
		sum += got;
	}
	/* and nothing that perf script did not see */
	for (j = 0; j < t->info.nr_types; j++)
		sum -= t->stats.type_counts[j];
	assert_int_equal(sum, 0);
	assert_int_equal(t->stats.malformed, 0);
	assert_int_equal(t->stats.bad_pages, 0);
	if (!strcmp(dir, "bench")) {
		/* one PERF_RECORD_LOST of 259 samples; perf's end-of-run summary repeats it */
		assert_int_equal(t->stats.lost_notices, 1);
		assert_int_equal(t->stats.lost_events, 259);
	} else {
		assert_int_equal(t->stats.lost_notices, 0);
	}
	print_message("%s: %" PRIu64 " samples, %" PRIu64 " events delivered, span %.3f s\n", dir,
		      t->stats.records, total,
		      (double)(t->stats.last_ts - t->stats.first_ts) / 1e9);
	pd_close(t);
}

static void test_counts_equal_perf_script(void **state)
{
	size_t i;

	(void)state;
	if (!have_shared())
		skip();
	for (i = 0; i < NR_SHARED; i++)
		check_shared(shared_dirs[i]);
}

/* ---- the same run's trace.dat ------------------------------------------------------------------ */

/* An event reduced to what both files must agree on. */
struct key_event {
	uint64_t ts;
	int cpu;
	int pid;
	int kind;
	int a;
	int b;
	uint64_t c;
	uint64_t state;
	bool used;
};

/* The kinds perf.data and trace.dat both record in these runs. */
static bool comparable(enum cfsr_event_kind kind)
{
	return kind != CFSR_EV_LOST && kind != CFSR_EV_MARKER;
}

static void key_of(const struct cfsr_event *ev, struct key_event *k)
{
	memset(k, 0, sizeof(*k));
	k->ts = ev->ts;
	k->cpu = ev->cpu;
	k->pid = ev->pid;
	k->kind = ev->kind;
	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		k->a = ev->sw.prev_pid;
		k->b = ev->sw.next_pid;
		/* compared apart: see compare_with_tracedat() */
		k->state = ev->sw.prev_state | (uint64_t)ev->sw.preempt << 63;
		break;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		k->a = ev->wake.pid;
		k->b = ev->wake.target_cpu;
		break;
	case CFSR_EV_MIGRATE:
		k->a = ev->migrate.pid;
		k->b = ev->migrate.dest_cpu;
		break;
	case CFSR_EV_FORK:
		k->a = ev->fork.child_pid;
		break;
	case CFSR_EV_EXIT:
	case CFSR_EV_FREE:
		k->a = ev->exit.pid;
		break;
	case CFSR_EV_EXEC:
		k->a = ev->exec.pid;
		break;
	case CFSR_EV_STAT_RUNTIME:
		k->a = ev->runtime.pid;
		k->c = ev->runtime.runtime;
		break;
	case CFSR_EV_PI_SETPRIO:
		k->a = ev->pi.pid;
		k->b = ev->pi.newprio;
		break;
	case CFSR_EV_CGROUP_ATTACH:
	case CFSR_EV_CGROUP_MKDIR:
	case CFSR_EV_CGROUP_RMDIR:
		k->a = ev->cgroup.pid;
		k->c = ev->cgroup.id;
		break;
	default:
		break;
	}
}

static bool same_event(const struct key_event *x, const struct key_event *y)
{
	return x->cpu == y->cpu && x->pid == y->pid && x->kind == y->kind && x->a == y->a &&
	       x->b == y->b && x->c == y->c;
}

static struct key_event *load_keys(struct cfsr_trace *t, size_t *nr)
{
	struct key_event *k = NULL;
	size_t alloc = 0;
	struct cfsr_event ev;

	*nr = 0;
	while (t->fmt->next(t, &ev) > 0) {
		if (!comparable(ev.kind))
			continue;
		assert_int_equal(CFSR_ALLOC_GROW(k, *nr + 1, alloc), 0);
		key_of(&ev, &k[(*nr)++]);
	}
	return k;
}

/* Index of the first event at or after @ts. */
static size_t lower_bound(const struct key_event *k, size_t nr, uint64_t ts)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Offset between the clocks (README: about +29.48 ms), searched within +-5 ms of that. */
#define OFFSET_GUESS 29480000ll
#define OFFSET_SEARCH 5000000ll
/*
 * The two tracers stamp one tracepoint call at slightly different moments,
 * and the clocks wander by some microseconds (up to 50 us seen).
 */
#define MATCH_TOLERANCE 100000ll

static int64_t measure_offset(const struct key_event *p, size_t np, const struct key_event *d,
			      size_t nd)
{
	int64_t *diffs = malloc(np * sizeof(*diffs)), off;
	size_t i, j, n = 0;

	assert_non_null(diffs);
	for (i = 0; i < np; i++) {
		int64_t best = INT64_MAX;

		if (p[i].kind != CFSR_EV_SWITCH)
			continue;
		for (j = lower_bound(d, nd, p[i].ts + OFFSET_GUESS - OFFSET_SEARCH);
		     j < nd && d[j].ts <= p[i].ts + OFFSET_GUESS + OFFSET_SEARCH; j++) {
			int64_t diff = (int64_t)(d[j].ts - p[i].ts);

			if (same_event(&p[i], &d[j]) &&
			    llabs(diff - OFFSET_GUESS) < llabs(best - OFFSET_GUESS))
				best = diff;
		}
		if (best != INT64_MAX)
			diffs[n++] = best;
	}
	assert_true(n > 100);
	qsort(diffs, n, sizeof(*diffs), cmp_i64);
	off = diffs[n / 2];
	free(diffs);
	return off;
}

static void compare_with_tracedat(const char *dir)
{
	char ppath[4096], dpath[4096];
	struct cfsr_trace *pt, *dt;
	struct key_event *p, *d;
	size_t np, nd, i, j, matched = 0, unmatched = 0, missed = 0, in_window = 0, exits = 0;
	size_t states = 0;
	int64_t off, spread = 0;
	uint64_t lo, hi;

	shared_path(ppath, sizeof(ppath), dir, "perf.data");
	shared_path(dpath, sizeof(dpath), dir, "trace.dat");
	if (!exists(ppath) || !exists(dpath))
		return;
	pt = pd_open(ppath);
	dt = cfsr_trace_open(dpath);
	assert_non_null(pt);
	assert_non_null(dt);
	p = load_keys(pt, &np);
	d = load_keys(dt, &nd);
	assert_true(np > 0 && nd > 0);
	off = measure_offset(p, np, d, nd);
	/* the two recordings did not start and stop together: compare where both ran */
	lo = p[0].ts + (uint64_t)off > d[0].ts ? p[0].ts + (uint64_t)off : d[0].ts;
	hi = p[np - 1].ts + (uint64_t)off < d[nd - 1].ts ? p[np - 1].ts + (uint64_t)off :
							   d[nd - 1].ts;

	/* every perf.data event has its twin in trace.dat, some microseconds away */
	for (i = 0; i < np; i++) {
		uint64_t want = p[i].ts + (uint64_t)off;
		size_t best = nd;

		if (want < lo || want > hi)
			continue;
		for (j = lower_bound(d, nd, want - MATCH_TOLERANCE);
		     j < nd && d[j].ts <= want + MATCH_TOLERANCE; j++) {
			if (d[j].used || !same_event(&p[i], &d[j]))
				continue;
			if (best == nd ||
			    llabs((int64_t)(d[j].ts - want)) < llabs((int64_t)(d[best].ts - want)))
				best = j;
		}
		if (best == nd) {
			unmatched++;
			continue;
		}
		d[best].used = true;
		matched++;
		/*
		 * Each tracer reads prev_state itself: for a task that is
		 * exiting, its parent can reap it between the two reads
		 * (EXIT_ZOMBIE, then EXIT_DEAD).
		 */
		states += p[i].state != d[best].state;
		if (llabs((int64_t)(d[best].ts - want)) > spread)
			spread = llabs((int64_t)(d[best].ts - want));
	}
	/* trace.dat events perf did not record, while both were recording */
	for (j = 0; j < nd; j++) {
		if (d[j].ts < lo || d[j].ts > hi)
			continue;
		in_window++;
		missed += !d[j].used;
		exits += d[j].kind == CFSR_EV_EXIT;
	}
	print_message("%s: clock offset %.6f ms (twins within %.1f us); %zu of %zu perf.data "
		      "events matched, %zu with another prev_state; perf missed %zu of %zu "
		      "trace.dat events (%.2f%%)\n",
		      dir, (double)off / 1e6, (double)spread / 1e3, matched, matched + unmatched,
		      states, missed, in_window,
		      in_window ? 100.0 * (double)missed / (double)in_window : 0.0);
	if (off < OFFSET_GUESS - 1000000 || off > OFFSET_GUESS + 1000000)
		fail_msg("%s: clock offset %" PRId64 " ns, far from the recorded ~29.48 ms", dir,
			 off);
	if (unmatched)
		fail_msg("%s: %zu perf.data events have no twin in trace.dat", dir, unmatched);
	if (states > exits)
		fail_msg("%s: prev_state differs in %zu switches, more than the %zu exits", dir,
			 states, exits);
	free(p);
	free(d);
	pd_close(pt);
	cfsr_trace_close(dt);
}

static void test_events_have_tracedat_twins(void **state)
{
	size_t i;

	(void)state;
	if (!have_shared())
		skip();
	for (i = 0; i < NR_SHARED; i++) {
		/* bench's 2.4M events make no better case than the others, only a slower one */
		if (strcmp(shared_dirs[i], "bench"))
			compare_with_tracedat(shared_dirs[i]);
	}
}

/*
 * A seekable, uncompressed recording to rewrite and damage: the shared
 * periodic run, else a bundled one.
 */
static bool sample_file(char *path, size_t len)
{
	shared_path(path, len, "periodic", "perf.data");
	if (exists(path))
		return true;
	snprintf(path, len, "%s/traces/periodic.perf.data", srcdir());
	if (exists(path))
		return true;
	print_message("skipped: no '%s' and no recorded traces in '%s/../shared/traces'\n", path,
		      srcdir());
	return false;
}

/* ---- rewritten copies ------------------------------------------------------------------------- */

/* Little-endian numbers of a buffer, for the rewriters (the recordings are x86). */
static uint64_t le(const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(unsigned char *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

struct buf {
	unsigned char *p;
	size_t len;
	size_t alloc;
};

static void buf_add(struct buf *b, const void *data, size_t len)
{
	assert_int_equal(CFSR_ALLOC_GROW(b->p, b->len + len, b->alloc), 0);
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void buf_num(struct buf *b, uint64_t v, unsigned int n)
{
	unsigned char tmp[8];

	put_le(tmp, v, n);
	buf_add(b, tmp, n);
}

/* The parts of a seekable perf.data file the rewriters need. */
struct layout {
	const unsigned char *file;
	size_t size;
	uint64_t attr_size;
	uint64_t attrs_off;
	uint64_t attrs_size;
	uint64_t data_off;
	uint64_t data_size;
	uint64_t feat[256][2];
	bool has[256];
};

static void read_layout(const unsigned char *f, size_t size, struct layout *l)
{
	uint64_t table;
	int i, k = 0;

	memset(l, 0, sizeof(*l));
	assert_memory_equal(f, "PERFILE2", 8);
	l->file = f;
	l->size = size;
	l->attr_size = le(f + 16, 8);
	l->attrs_off = le(f + 24, 8);
	l->attrs_size = le(f + 32, 8);
	l->data_off = le(f + 40, 8);
	l->data_size = le(f + 48, 8);
	table = l->data_off + l->data_size;
	for (i = 0; i < 256; i++) {
		if (!((le(f + 72 + 8 * (i / 64), 8) >> (i % 64)) & 1))
			continue;
		l->has[i] = true;
		l->feat[i][0] = le(f + table + 16 * k, 8);
		l->feat[i][1] = le(f + table + 16 * k + 8, 8);
		k++;
	}
}

/*
 * Compress @len bytes of records like `perf record -z`: one zstd stream,
 * flushed into a block at every @step bytes (cut anywhere, so records
 * span blocks).  Odd blocks are written as COMPRESSED2 records.
 */
static void compress_records(struct buf *out, ZSTD_CStream *cs, const unsigned char *src,
			     size_t len, size_t step, unsigned int *nr_blocks)
{
	size_t done = 0;

	while (done < len) {
		size_t n = len - done < step ? len - done : step;
		unsigned char block[65536];
		ZSTD_inBuffer in = { src + done, n, 0 };
		ZSTD_outBuffer o = { block, sizeof(block) - 24, 0 };
		bool two = *nr_blocks & 1;
		size_t ret, hdr = two ? 16 : 8, pad;

		while (in.pos < in.size)
			assert_false(ZSTD_isError(ZSTD_compressStream(cs, &o, &in)));
		ret = ZSTD_flushStream(cs, &o);
		assert_int_equal(ret, 0);
		pad = two ? (8 - o.pos % 8) % 8 : 0;
		buf_num(out, two ? 83 : 81, 4);
		buf_num(out, 0, 2);
		buf_num(out, hdr + o.pos + pad, 2);
		if (two)
			buf_num(out, o.pos, 8);
		buf_add(out, block, o.pos);
		buf_add(out, "\0\0\0\0\0\0\0", pad);
		done += n;
		(*nr_blocks)++;
	}
}

/*
 * The data section of @l rewritten: records compressed between
 * FINISHED_ROUND records (which stay outside, as perf writes them), or
 * shuffled within each round.
 */
static void rewrite_data(const struct layout *l, struct buf *out, bool zstd, bool shuffle)
{
	const unsigned char *d = l->file + l->data_off;
	ZSTD_CStream *cs = NULL;
	struct buf round = { NULL, 0, 0 };
	size_t pos = 0, *offs = NULL, nr = 0, alloc = 0;
	unsigned int blocks = 0;

	if (zstd) {
		cs = ZSTD_createCStream();
		assert_non_null(cs);
		assert_false(ZSTD_isError(ZSTD_initCStream(cs, 1)));
	}
	srand(7);
	while (pos <= l->data_size) {
		bool end = pos == l->data_size;
		size_t size = end ? 0 : le(d + pos + 6, 2);
		uint32_t type = end ? 0 : (uint32_t)le(d + pos, 4);

		if (end || type == 68) {
			/* a round ends: write out what it held */
			if (shuffle) {
				size_t i;

				for (i = nr; i > 1; i--) {
					size_t j = (size_t)rand() % i, tmp = offs[i - 1];

					offs[i - 1] = offs[j];
					offs[j] = tmp;
				}
				for (i = 0; i < nr; i++)
					buf_add(out, d + offs[i], le(d + offs[i] + 6, 2));
			} else if (zstd) {
				compress_records(out, cs, round.p, round.len, 20000, &blocks);
			} else {
				buf_add(out, round.p, round.len);
			}
			round.len = 0;
			nr = 0;
			if (end)
				break;
			buf_add(out, d + pos, size);
		} else if (shuffle) {
			assert_int_equal(CFSR_ALLOC_GROW(offs, nr + 1, alloc), 0);
			offs[nr++] = pos;
		} else {
			buf_add(&round, d + pos, size);
		}
		assert_true(size >= 8);
		pos += size;
	}
	if (cs)
		ZSTD_freeCStream(cs);
	free(round.p);
	free(offs);
}

/* A seekable file with a new data section; the feature sections follow it as before. */
static void write_seekable(const struct layout *l, const struct buf *data, const char *path)
{
	uint64_t old_end = l->data_off + l->data_size;
	int64_t delta = (int64_t)data->len - (int64_t)l->data_size;
	struct buf out = { NULL, 0, 0 };
	int i;

	buf_add(&out, l->file, l->data_off);
	put_le(out.p + 48, data->len, 8);
	buf_add(&out, data->p, data->len);
	for (i = 0; i < 256; i++) {
		if (!l->has[i])
			continue;
		buf_num(&out, l->feat[i][0] + (uint64_t)delta, 8);
		buf_num(&out, l->feat[i][1], 8);
		old_end += 16;
	}
	buf_add(&out, l->file + old_end, l->size - old_end);
	spit(path, out.p, out.len);
	free(out.p);
}

/* The same recording in pipe mode: header records, then the data records. */
static void write_pipe(const struct layout *l, const struct buf *data, const char *path)
{
	static const int feats[] = { 4, 7, 13 };
	struct buf out = { NULL, 0, 0 };
	uint64_t i, tsize, tpad;
	size_t k;

	buf_add(&out, "PERFILE2", 8);
	buf_num(&out, 16, 8);
	for (i = 0; i < l->attrs_size / l->attr_size; i++) {
		const unsigned char *e = l->file + l->attrs_off + i * l->attr_size;
		uint64_t asize = le(e + 4, 4);
		uint64_t ids_off = le(e + l->attr_size - 16, 8);
		uint64_t ids_size = le(e + l->attr_size - 8, 8);

		buf_num(&out, 64, 4);
		buf_num(&out, 0, 2);
		buf_num(&out, 8 + asize + ids_size, 2);
		buf_add(&out, e, asize);
		buf_add(&out, l->file + ids_off, ids_size);
	}
	for (k = 0; k < sizeof(feats) / sizeof(feats[0]); k++) {
		const uint64_t *f = l->feat[feats[k]];

		/* OSRELEASE and NRCPUS; CPU_TOPOLOGY where the file has it */
		if (feats[k] == 13 && !l->has[13])
			continue;
		assert_true(l->has[feats[k]]);
		buf_num(&out, 80, 4);
		buf_num(&out, 0, 2);
		buf_num(&out, 16 + f[1], 2);
		buf_num(&out, (uint64_t)feats[k], 8);
		buf_add(&out, l->file + f[0], f[1]);
	}
	/* the tracing data follows its record, padded to 8 bytes; the record says so */
	assert_true(l->has[1]);
	tsize = l->feat[1][1];
	tpad = (8 - tsize % 8) % 8;
	buf_num(&out, 66, 4);
	buf_num(&out, 0, 2);
	buf_num(&out, 12, 2);
	buf_num(&out, tsize + tpad, 4);
	buf_add(&out, l->file + l->feat[1][0], tsize);
	buf_add(&out, "\0\0\0\0\0\0\0", tpad);
	buf_add(&out, data->p, data->len);
	spit(path, out.p, out.len);
	free(out.p);
}

/*
 * Events at the same nanosecond (ticks on two CPUs) keep the file's order,
 * so a copy whose records were moved may order those differently.
 */
static void check_same(const char *what, const struct summary *ref, const struct summary *s,
		       bool moved)
{
	if (s->events != ref->events || s->set_hash != ref->set_hash ||
	    (!moved && s->hash != ref->hash))
		fail_msg("%s: %" PRIu64 " events, digest %" PRIx64 "; original %" PRIu64
			 ", %" PRIx64,
			 what, s->events, s->hash, ref->events, ref->hash);
	assert_int_equal(s->backwards, 0);
	assert_int_equal(s->bad, 0);
	assert_int_equal(s->malformed, 0);
	/* the (task, cgroup) pairs come in the order first seen */
	if (!moved)
		assert_string_equal(s->cg_text, ref->cg_text);
	assert_int_equal(s->nr_cgroups, ref->nr_cgroups);
	assert_int_equal(s->cg_samples, ref->cg_samples);
	assert_string_equal(s->topo_source, ref->topo_source);
}

/*
 * Copies of @src rewritten compressed, in pipe mode (compressed or not) and
 * shuffled within rounds read the same events, cgroups and topology.
 */
static void rewritten_copies(const char *src)
{
	char tmp[] = "/tmp/cfsr-pd-XXXXXX";
	struct summary ref, s;
	struct buf data = { NULL, 0, 0 };
	struct layout l;
	unsigned char *f;
	size_t len;
	int fd;

	f = (unsigned char *)slurp(src, &len);
	read_layout(f, len, &l);
	assert_true(summarize(src, &ref));
	assert_int_equal(ref.backwards, 0);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);

	rewrite_data(&l, &data, true, false);
	write_seekable(&l, &data, tmp);
	assert_true(summarize(tmp, &s));
	check_same("compressed", &ref, &s, false);
	assert_string_equal(s.compression, "zstd");
	write_pipe(&l, &data, tmp);
	assert_true(summarize(tmp, &s));
	check_same("pipe mode, compressed", &ref, &s, false);

	data.len = 0;
	rewrite_data(&l, &data, false, false);
	write_pipe(&l, &data, tmp);
	assert_true(summarize(tmp, &s));
	check_same("pipe mode", &ref, &s, false);
	assert_string_equal(s.compression, "none");

	data.len = 0;
	rewrite_data(&l, &data, false, true);
	assert_int_equal(data.len, l.data_size);
	write_seekable(&l, &data, tmp);
	assert_true(summarize(tmp, &s));
	check_same("shuffled within rounds", &ref, &s, true);

	unlink(tmp);
	free(data.p);
	free(f);
}

static void test_rewritten_copies_read_the_same(void **state)
{
	char src[4096];

	(void)state;
	if (!sample_file(src, sizeof(src)))
		skip();
	rewritten_copies(src);
	/* records of cgroups in compressed blocks, topology in a pipe's feature record */
	snprintf(src, sizeof(src), "%s/traces/perf-cgroups.data", srcdir());
	if (exists(src))
		rewritten_copies(src);
}

/* ---- cgroups and topology ------------------------------------------------------------------------ */

/* A copy of @l's file whose CPU_TOPOLOGY section is said to be @size bytes. */
static void topology_cut(const struct layout *l, uint64_t size, const char *path)
{
	unsigned char *copy = malloc(l->size);
	uint64_t table = l->data_off + l->data_size;
	int i, k = 0;

	assert_non_null(copy);
	memcpy(copy, l->file, l->size);
	for (i = 0; i < 13; i++)
		k += l->has[i];
	put_le(copy + table + 16 * k + 8, size, 8);
	spit(path, copy, l->size);
	free(copy);
}

/* The size of a CPU_TOPOLOGY section up to its die lists (what perf before 5.3 wrote). */
static uint64_t topology_without_dies(const struct layout *l, uint32_t nr_cpus)
{
	const unsigned char *p = l->file + l->feat[13][0];
	uint64_t pos = 0;
	int list;

	for (list = 0; list < 2; list++) {
		uint32_t n = (uint32_t)le(p + pos, 4), i;

		pos += 4;
		for (i = 0; i < n; i++)
			pos += 4 + le(p + pos, 4);
	}
	return pos + 8ull * nr_cpus;
}

/*
 * The bundled --all-cgroups recording (its rewritten copies are read in
 * test_rewritten_copies_read_the_same()): its cgroups and topology, and
 * the topology of an older perf's layout (no die lists) or of a section
 * cut in its per-CPU ids or die lists (left out, the rest read).
 */
/*
 * HEADER_CACHE of the bundled traces/periodic.perf.data: the caches
 * `perf report --header-only -I` prints for it ("L1 Data 48K [0]", ...,
 * "L3 Unified 266240K [0-1]"), and the geometry perf 6.1 stored; a copy
 * whose cache count is beyond the section leaves the caches out, says so,
 * and reads the same events.
 */
static void test_cache_feature(void **state)
{
	static const struct {
		int level;
		const char *type, *size, *map;
	} want[] = {
		{ 1, "Data", "48K", "0" },	    { 1, "Instruction", "32K", "0" },
		{ 1, "Data", "48K", "1" },	    { 1, "Instruction", "32K", "1" },
		{ 2, "Unified", "2048K", "0" },	    { 2, "Unified", "2048K", "1" },
		{ 3, "Unified", "266240K", "0-1" },
	};
	char src[4096], tmp[] = "/tmp/cfsr-pd-XXXXXX";
	const struct cfsr_trace_info *in;
	struct cfsr_trace *t;
	struct summary ref, c;
	struct layout l;
	unsigned char *f;
	size_t len, i;
	int fd;

	(void)state;
	snprintf(src, sizeof(src), "%s/traces/periodic.perf.data", srcdir());
	if (!exists(src)) {
		print_message("skipped: no '%s'\n", src);
		skip();
	}
	t = pd_open(src);
	assert_non_null(t);
	in = &t->info;
	assert_string_equal(in->caches_source, "perf.data CACHE");
	assert_int_equal(in->nr_caches, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < in->nr_caches; i++) {
		assert_int_equal(in->caches[i].level, want[i].level);
		assert_string_equal(in->caches[i].type, want[i].type);
		assert_string_equal(in->caches[i].size, want[i].size);
		assert_string_equal(in->caches[i].shared_cpus, want[i].map);
		assert_int_equal(in->caches[i].line_size, 64);
	}
	/* the L3: 20 ways of 212992 sets of 64-byte lines, 266240K */
	assert_int_equal(in->caches[6].ways, 20);
	assert_int_equal(in->caches[6].sets, 212992);
	assert_int_equal(64ull * 20 * 212992, 266240ull * 1024);
	pd_close(t);

	f = (unsigned char *)slurp(src, &len);
	read_layout(f, len, &l);
	assert_true(l.has[20]);
	assert_true(summarize(src, &ref));
	put_le(f + l.feat[20][0] + 4, 100000, 4);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	spit(tmp, f, len);
	t = pd_open(tmp);
	assert_non_null(t);
	assert_string_equal(t->info.caches_source, "perf.data CACHE (corrupt: left out)");
	assert_int_equal(t->info.nr_caches, 0);
	pd_close(t);
	assert_true(summarize(tmp, &c));
	assert_int_equal(c.events, ref.events);
	assert_true(c.hash == ref.hash);
	unlink(tmp);
	free(f);
}

static void test_cgroups_and_topology(void **state)
{
	char src[4096], tmp[] = "/tmp/cfsr-pd-XXXXXX";
	struct summary ref, c;
	struct layout l;
	unsigned char *f;
	uint64_t cut, base, end;
	size_t len;
	int fd;

	(void)state;
	snprintf(src, sizeof(src), "%s/traces/perf-cgroups.data", srcdir());
	if (!exists(src)) {
		print_message("skipped: no '%s'\n", src);
		skip();
	}
	f = (unsigned char *)slurp(src, &len);
	read_layout(f, len, &l);
	assert_true(l.has[13]);
	assert_true(summarize(src, &ref));
	/* three cgroups, every sample with an id, two CPUs */
	assert_int_equal(ref.nr_cgroups, 3);
	assert_true(ref.cg_samples > 1000);
	assert_int_equal(ref.cg_bad, 0);
	assert_int_equal(ref.nr_topo, 2);
	assert_string_equal(ref.topo_source, "perf.data CPU_TOPOLOGY");
	assert_non_null(strstr(ref.cg_text, "cpu0 0 0 0 0 0-1 0-1\n"));
	assert_non_null(strstr(ref.cg_text, "cpu1 1 0 0 1 0-1 0-1\n"));
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);

	/* perf before 5.3: no die lists, die ids unknown */
	base = topology_without_dies(&l, 2);
	end = l.feat[13][1];
	topology_cut(&l, base, tmp);
	assert_true(summarize(tmp, &c));
	assert_int_equal(c.nr_topo, 2);
	assert_non_null(strstr(c.cg_text, "cpu0 0 0 -1 0 0-1 -\n"));
	assert_non_null(strstr(c.cg_text, "cpu1 1 0 -1 1 0-1 -\n"));
	/* cut in the per-CPU ids, in the die lists, in the die ids: left out */
	for (cut = base - 5; cut < end; cut += (end - cut > 8) ? 7 : 1) {
		if (cut == base)
			continue;
		topology_cut(&l, cut, tmp);
		assert_true(summarize(tmp, &c));
		assert_int_equal(c.nr_topo, 0);
		assert_non_null(strstr(c.topo_source, "corrupt"));
		assert_int_equal(c.nr_cgroups, ref.nr_cgroups);
	}

	unlink(tmp);
	free(f);
}

/* ---- damaged copies ------------------------------------------------------------------------------ */

static void damage(const char *what, const unsigned char *buf, size_t len, bool seekable)
{
	char tmp[] = "/tmp/cfsr-pd-XXXXXX";
	struct summary full, s;
	size_t cut;
	int fd, i;

	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	cfsr_error_set_hook(quiet, NULL);
	spit(tmp, buf, len);
	assert_true(summarize(tmp, &full));
	assert_true(full.events > 0);
	/*
	 * A seekable file keeps its metadata after the data, so a cut one is
	 * refused.  A pipe-mode file can only be read up to the cut, with
	 * its damage reported when the cut falls inside a record.
	 */
	for (cut = 1; cut < len; cut = cut * 3 + 7) {
		spit(tmp, buf, cut);
		if (!summarize(tmp, &s))
			continue;
		if (seekable)
			fail_msg("%s cut to %zu bytes was read (%" PRIu64 " events)", what, cut,
				 s.events);
		if (s.events > full.events + 1)
			fail_msg("%s cut to %zu bytes gave %" PRIu64 " of %" PRIu64 " events", what,
				 cut, s.events, full.events);
	}
	spit(tmp, buf, len - 1);
	if (summarize(tmp, &s)) {
		assert_false(seekable);
		/* the last record is cut: reported, not silently dropped */
		assert_true(s.bad > 0 && s.lost_notices > 0);
	}

	/* random byte damage: refused, or read with no crash */
	srand(4242);
	for (i = 0; i < 60; i++) {
		unsigned char *copy = malloc(len);
		int k;

		assert_non_null(copy);
		memcpy(copy, buf, len);
		for (k = 0; k < 1 + i % 5; k++)
			copy[(size_t)rand() % len] = (unsigned char)rand();
		spit(tmp, copy, len);
		summarize(tmp, &s);
		free(copy);
	}
	cfsr_error_set_hook(NULL, NULL);
	unlink(tmp);
}

static void test_damaged_copies_never_crash(void **state)
{
	char src[4096], tmp[] = "/tmp/cfsr-pd-XXXXXX";
	struct buf data = { NULL, 0, 0 };
	struct layout l;
	unsigned char *f, *copy;
	size_t len, clen;
	int fd;

	(void)state;
	if (!sample_file(src, sizeof(src)))
		skip();
	f = (unsigned char *)slurp(src, &len);
	damage("perf.data", f, len, true);

	read_layout(f, len, &l);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	rewrite_data(&l, &data, true, false);
	write_pipe(&l, &data, tmp);
	copy = (unsigned char *)slurp(tmp, &clen);
	damage("compressed pipe-mode perf.data", copy, clen, false);
	free(copy);
	write_seekable(&l, &data, tmp);
	copy = (unsigned char *)slurp(tmp, &clen);
	damage("compressed perf.data", copy, clen, true);
	free(copy);

	unlink(tmp);
	free(data.p);
	free(f);
}

/* Files that are not recordings of tracepoints, or not perf.data at all. */
static void test_refuse_non_recordings(void **state)
{
	static const unsigned char pipe_only[16] = "PERFILE2\x10";
	static const unsigned char big[16] = "2ELIFREP\0\0\0\0\0\0\0\x10";
	char tmp[] = "/tmp/cfsr-pd-XXXXXX";
	int fd;

	(void)state;
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	cfsr_error_set_hook(quiet, NULL);
	/* a pipe-mode header and nothing after it: no attributes, no formats */
	spit(tmp, pipe_only, sizeof(pipe_only));
	assert_null(pd_open(tmp));
	spit(tmp, big, sizeof(big));
	assert_null(pd_open(tmp));
	spit(tmp, "PERFILE2", 8);
	assert_null(pd_open(tmp));
	cfsr_error_set_hook(NULL, NULL);
	unlink(tmp);
}

/* ---- fresh recordings ----------------------------------------------------------------------------- */

/* Whether the reader counts on @path what perf script counts; differences are printed. */
static bool perf_script_matches(const char *path)
{
	char cmd[8192], name[256];
	struct cfsr_event ev;
	struct cfsr_trace *t;
	unsigned long n;
	uint64_t listed = 0, sum = 0;
	FILE *f;
	int j;

	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' -F event 2>/dev/null | sed 's/^ *[^ :]*://; s/: *$//' | "
		 "sort | uniq -c",
		 path);
	f = popen(cmd, "r");
	assert_non_null(f);
	t = pd_open(path);
	assert_non_null(t);
	while (t->fmt->next(t, &ev) > 0)
		;
	while (fscanf(f, "%lu %255s", &n, name) == 2) {
		uint64_t got = 0;

		for (j = 0; j < t->info.nr_types; j++)
			if (!strcmp(t->info.types[j].name, name))
				got += t->stats.type_counts[j];
		if (got != n) {
			print_message("%s: %s: read %" PRIu64 ", perf script counted %lu\n", path,
				      name, got, n);
			pclose(f);
			pd_close(t);
			return false;
		}
		listed += n;
	}
	pclose(f);
	for (j = 0; j < t->info.nr_types; j++)
		sum += t->stats.type_counts[j];
	print_message("%s: %" PRIu64 " samples (%s, clock %s), as perf script counts\n", path, sum,
		      t->info.compression, t->info.clock);
	pd_close(t);
	return listed == sum && sum > 0;
}

static void test_fresh_recordings(void **state)
{
	static const struct {
		const char *name;
		bool pipe;
		const char *opts;
		const char *clock;
	} runs[] = {
		{ "pipe", true, "", "perf" },
		{ "pipe-zstd", true, "-z", "perf" },
		{ "zstd", false, "-z", "perf" },
		{ "mono", false, "-k mono", "mono" },
		{ "bits", false,
		  "--call-graph fp -d --phys-data --data-page-size --code-page-size -W "
		  "--all-cgroups --user-regs=ax,bx --intr-regs=ax,cx",
		  "perf" },
		{ "stack", false, "--call-graph dwarf,256", "perf" },
	};
	char dir[] = "/tmp/cfsr-pdrec-XXXXXX", path[4096], out[4200], cmd[8192];
	size_t i;

	(void)state;
	if (geteuid() != 0 || system("perf --version >/dev/null 2>&1")) {
		print_message("skipped: recording needs root and perf\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct cfsr_trace *t;

		snprintf(path, sizeof(path), "%s/%s.data", dir, runs[i].name);
		if (runs[i].pipe)
			snprintf(out, sizeof(out), "-o - >'%s'", path);
		else
			snprintf(out, sizeof(out), "-o '%s'", path);
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && perf record -q %s -e sched:sched_switch -e sched:sched_waking "
			 "-e sched:sched_wakeup -e sched:sched_process_exec -a %s -- "
			 "sh -c 'sleep 0.05; ls >/dev/null; sleep 0.1' 2>/dev/null",
			 dir, runs[i].opts, out);
		if (system(cmd) || !exists(path)) {
			print_message("%s: perf record failed here, not checked\n", runs[i].name);
			unlink(path);
			continue;
		}
		if (!perf_script_matches(path))
			fail_msg("%s: counts differ from perf script", runs[i].name);
		t = pd_open(path);
		assert_non_null(t);
		assert_string_equal(t->info.clock, runs[i].clock);
		pd_close(t);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_by_magic),
		cmocka_unit_test(test_refuse_non_recordings),
		cmocka_unit_test(test_counts_equal_perf_script),
		cmocka_unit_test(test_events_have_tracedat_twins),
		cmocka_unit_test(test_rewritten_copies_read_the_same),
		cmocka_unit_test(test_cgroups_and_topology),
		cmocka_unit_test(test_cache_feature),
		cmocka_unit_test(test_damaged_copies_never_crash),
		cmocka_unit_test(test_fresh_recordings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * PELT capture, user side: loads formats/pelt.bpf.c (linked into the
 * binary, see formats/pelt-bpf-obj.S) with libbpf, attaches it to the
 * kernel's bare PELT tracepoints, drains its ring buffer into an unlinked
 * temporary file, and at stop writes the pelt.jsonl(.gz) that
 * formats/truth.c reads (format: ../shared/traces/README.md and
 * docs/PELT-CAPTURE.md).
 *
 * The records are kept raw until stop, for two reasons: the header line,
 * which comes first, holds totals known only at the end; and the clock
 * offset that turns a record's ktime into its trace time is interpolated
 * between calibration points taken every 100 ms, so a record's offset is
 * known only once the point after it is.  Memory grows with the kernel
 * objects (entities, cfs_rqs, cgroups) met, never with the records; the
 * records and the calibration points wait in unlinked temporary files.
 *
 * Clock: records are stamped with bpf_ktime_get_ns(), which is
 * ktime_get_mono_fast_ns() (CLOCK_MONOTONIC).  The trace clock `perf` is
 * local_clock(), the clock of rq->clock.  No BPF helper reads
 * local_clock(), but a perf sample's PERF_SAMPLE_TIME is local_clock():
 * the calibration program (pelt_calib) emits one between two
 * bpf_ktime_get_ns() readings, on every CPU, which brackets the offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <search.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <zlib.h>

#include "error.h"
#include "pelt-bpf.h"
#include "peltcap.h"

/* The BPF object, linked in by formats/pelt-bpf-obj.S. */
extern const unsigned char cfsr_pelt_bpf_obj[];
extern const unsigned char cfsr_pelt_bpf_obj_end[];

#define RINGBUF_BYTES (8U << 20)
/* Calibration runs per CPU and point; points at start, every CALIB_EVERY_NS, at stop. */
#define CALIB_RUNS 8
#define CALIB_EVERY_NS 100000000ULL
/* Pages per CPU of the calibration perf buffers: the kernel wakes readers at half full. */
#define CALIB_PAGES 64
/* Longest line written: a record is about 1 KiB, paths at most 8 * 64 bytes each. */
#define LINE_MAX_LEN 4096

struct tracepoint {
	const char *name; /* kernel tracepoint */
	const char *prog; /* program in pelt.bpf.c */
	bool required;
};

static const struct tracepoint tracepoints[] = {
	{ "pelt_se_tp", "pelt_se", true },
	{ "pelt_cfs_tp", "pelt_cfs", true },
	{ "sched_util_est_se_tp", "util_est_se", false },
	{ "sched_util_est_cfs_tp", "util_est_cfs", false },
	{ "pelt_rt_tp", "pelt_rt", false },
};
#define NR_TRACEPOINTS (sizeof(tracepoints) / sizeof(tracepoints[0]))

/* pelt.jsonl "type" per enum pelt_bpf_type */
static const char *const type_names[] = {
	[PELT_BPF_SE] = "se",	    [PELT_BPF_GSE] = "gse",	  [PELT_BPF_CFS] = "cfs",
	[PELT_BPF_UE_SE] = "ue_se", [PELT_BPF_UE_CFS] = "ue_cfs", [PELT_BPF_RT] = "rt",
};
#define NR_TYPES (PELT_BPF_RT + 1)

/* One calibration run: the local_clock() stamp and the two monotonic readings. */
struct calib_sample {
	uint64_t local;
	uint64_t mono_before;
	uint64_t mono_after;
	unsigned int have; /* bit 0: stamp, bit 1: readings */
};

/*
 * One calibration point: local_clock() - ktime lies in [lo, hi] at ktime
 * @mono, the intersection of the intervals of its runs (all CPUs, a few
 * microseconds apart).  When they do not intersect (per-CPU clocks that
 * disagree), the narrowest interval is taken and @disjoint is set.
 */
struct calib_point {
	uint64_t mono;
	int64_t lo, hi;
	int32_t n;
	int32_t disjoint;
};

/* Summary of all the points, for the header. */
struct calib_summary {
	uint64_t points;
	uint64_t disjoint;
	struct calib_point first, last;
	int64_t width_max; /* widest point interval */
	uint64_t runs;
};

/* A node of the tsearch() trees: kernel address -> small id, or cgroup id -> path. */
struct map_node {
	uint64_t key;
	uint64_t id;
	char *path;
};

struct cfsr_pelt_capture {
	char *out_path;
	int out_fd; /* created at start, so that a bad path fails early */
	struct bpf_object *obj;
	struct bpf_link *links[NR_TRACEPOINTS];
	const char *attached[NR_TRACEPOINTS];
	size_t nr_attached;
	struct ring_buffer *rb;
	struct perf_buffer *pb;
	int calib_fd;
	int nr_cpus;

	FILE *body; /* raw records: u32 length, then the record */
	int write_errno;
	uint64_t body_records;

	struct calib_sample *calib; /* the runs of the point being taken */
	size_t calib_nr; /* slots: CALIB_RUNS * nr_cpus */
	uint64_t calib_base; /* seq of the first run of the point being taken */
	uint64_t calib_runs; /* runs so far: the program numbers them from 0 */
	FILE *points; /* struct calib_point, in time order */
	uint64_t next_point; /* CLOCK_MONOTONIC time of the next point */
	struct calib_summary calib_sum;

	/* written at stop */
	void *objs; /* tsearch tree of struct map_node: kernel address -> obj id */
	uint64_t next_obj;
	void *cgroups; /* cgroup id -> path */
	uint64_t counts[NR_TYPES];
	uint64_t unnamed; /* tg or parent_tg paths that were not known */
	uint64_t out_of_order;
};

/* ---- libbpf messages ------------------------------------------------------------------------- */

/* libbpf's last warning, used as the reason when loading fails. */
static char libbpf_last[256];

static int libbpf_message(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t len;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(libbpf_last, sizeof(libbpf_last), fmt, ap);
	len = strlen(libbpf_last);
	while (len && (libbpf_last[len - 1] == '\n' || libbpf_last[len - 1] == ' '))
		libbpf_last[--len] = '\0';
	return 0;
}

static void set_why(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !why_len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
}

/* ---- ring buffer and calibration samples ----------------------------------------------------- */

static int on_record(void *ctx, void *data, size_t size)
{
	struct cfsr_pelt_capture *cap = ctx;
	uint32_t len = (uint32_t)size;

	if (cap->write_errno)
		return 0;
	if (fwrite(&len, sizeof(len), 1, cap->body) != 1 || fwrite(data, size, 1, cap->body) != 1) {
		cap->write_errno = errno ? errno : EIO;
		return 0;
	}
	cap->body_records++;
	return 0;
}

/* PERF_SAMPLE_TIME | PERF_SAMPLE_RAW: header, u64 time, u32 size, data. */
struct calib_event {
	struct perf_event_header header;
	uint64_t time;
	uint32_t size;
	char data[];
};

static enum bpf_perf_event_ret on_calib(void *ctx, int cpu, struct perf_event_header *event)
{
	struct cfsr_pelt_capture *cap = ctx;
	const struct calib_event *e = (const void *)event;
	struct pelt_bpf_calib c;
	struct calib_sample *s;

	(void)cpu;
	/* the struct is padded after size: the raw data starts at offsetof(data) */
	if (event->type != PERF_RECORD_SAMPLE || event->size < offsetof(struct calib_event, data) ||
	    e->size < sizeof(c) || event->size - offsetof(struct calib_event, data) < e->size)
		return LIBBPF_PERF_EVENT_CONT;
	memcpy(&c, e->data, sizeof(c));
	if (c.seq < cap->calib_base || c.seq - cap->calib_base >= cap->calib_nr)
		return LIBBPF_PERF_EVENT_CONT;
	s = &cap->calib[c.seq - cap->calib_base];
	if (c.step == 0) {
		s->local = e->time;
		s->have |= 1;
	} else {
		s->mono_before = c.mono_before;
		s->mono_after = c.mono_after;
		s->have |= 2;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

static uint64_t mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/*
 * Take one calibration point: run the calibration program CALIB_RUNS times
 * on every online CPU (an offline CPU refuses and is skipped), collect the
 * perf samples, intersect their intervals, and append the point to
 * cap->points.  A point without any sample is not written.
 */
static void calibrate(struct cfsr_pelt_capture *cap)
{
	struct calib_point pt = { .lo = INT64_MIN, .hi = INT64_MAX };
	int64_t best_lo = 0, best_hi = INT64_MAX;
	size_t i;
	int cpu;

	memset(cap->calib, 0, cap->calib_nr * sizeof(*cap->calib));
	cap->calib_base = cap->calib_runs;
	for (cpu = 0; cpu < cap->nr_cpus; cpu++) {
		for (i = 0; i < CALIB_RUNS; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU,
				    .cpu = (uint32_t)cpu);

			if (bpf_prog_test_run_opts(cap->calib_fd, &opts) < 0)
				break;
			cap->calib_runs++;
		}
	}
	perf_buffer__consume(cap->pb);
	for (i = 0; i < cap->calib_nr; i++) {
		const struct calib_sample *s = &cap->calib[i];
		int64_t lo, hi;

		if (s->have != 3 || s->mono_after < s->mono_before)
			continue;
		lo = (int64_t)(s->local - s->mono_after);
		hi = (int64_t)(s->local - s->mono_before);
		if (!pt.n++)
			pt.mono = s->mono_before;
		if (lo > pt.lo)
			pt.lo = lo;
		if (hi < pt.hi)
			pt.hi = hi;
		if (hi - lo < best_hi - best_lo) {
			best_lo = lo;
			best_hi = hi;
		}
	}
	if (!pt.n)
		return;
	if (pt.lo > pt.hi) {
		pt.lo = best_lo;
		pt.hi = best_hi;
		pt.disjoint = 1;
		cap->calib_sum.disjoint++;
	}
	if (fwrite(&pt, sizeof(pt), 1, cap->points) != 1 && !cap->write_errno)
		cap->write_errno = errno ? errno : EIO;
	if (!cap->calib_sum.points)
		cap->calib_sum.first = pt;
	cap->calib_sum.last = pt;
	cap->calib_sum.points++;
	cap->calib_sum.runs += (uint64_t)pt.n;
	if (pt.hi - pt.lo > cap->calib_sum.width_max)
		cap->calib_sum.width_max = pt.hi - pt.lo;
	cap->next_point = mono_now() + CALIB_EVERY_NS;
}

/*
 * Offsets of the records, streamed: the points are read in order as the
 * records' ktime advances (records are in ring-buffer order, nearly sorted
 * by ktime), and the offset at a record is interpolated linearly between
 * the middles of the two points around it.
 */
struct offset_cursor {
	FILE *points;
	struct calib_point prev, next;
	bool have_prev, have_next;
};

static void cursor_start(struct offset_cursor *c, FILE *points)
{
	memset(c, 0, sizeof(*c));
	c->points = points;
	rewind(points);
	c->have_next = fread(&c->next, sizeof(c->next), 1, points) == 1;
}

static int64_t point_mid(const struct calib_point *p)
{
	return p->lo + (p->hi - p->lo) / 2;
}

static int64_t cursor_offset(struct offset_cursor *c, uint64_t ktime)
{
	int64_t a, b;

	while (c->have_next && c->next.mono <= ktime) {
		c->prev = c->next;
		c->have_prev = true;
		c->have_next = fread(&c->next, sizeof(c->next), 1, c->points) == 1;
	}
	if (!c->have_prev)
		return c->have_next ? point_mid(&c->next) : 0;
	if (!c->have_next || c->next.mono == c->prev.mono)
		return point_mid(&c->prev);
	a = point_mid(&c->prev);
	b = point_mid(&c->next);
	/* points are about 100 ms apart and b - a a few µs: the product cannot overflow */
	return a +
	       (b - a) * (int64_t)(ktime - c->prev.mono) / (int64_t)(c->next.mono - c->prev.mono);
}

/* ---- start ----------------------------------------------------------------------------------- */

static void capture_free(struct cfsr_pelt_capture *cap);

struct cfsr_pelt_capture *cfsr_pelt_capture_start(const char *out_path, char *why, size_t why_len)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .object_name = "cfsreplay_pelt");
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.size = sizeof(attr),
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
		.sample_period = 1,
		/*
		 * No wakeup per sample: the samples are consumed right after the
		 * runs, and a wakeup (an irq_work, a self-IPI that exits to the
		 * hypervisor on a VM) inside the bracket widens it by ~10 µs.
		 */
		.wakeup_events = 0,
	};
	struct cfsr_pelt_capture *cap;
	struct bpf_program *prog;
	struct bpf_map *map;
	size_t i;
	int err;

	set_why(why, why_len, "unknown error");
	libbpf_set_print(libbpf_message);
	libbpf_last[0] = '\0';
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		set_why(why, why_len,
			"the kernel has no BTF (/sys/kernel/btf/vmlinux: %s); it needs "
			"CONFIG_DEBUG_INFO_BTF",
			strerror(errno));
		return NULL;
	}
	cap = calloc(1, sizeof(*cap));
	if (!cap) {
		set_why(why, why_len, "out of memory");
		return NULL;
	}
	cap->calib_fd = -1;
	cap->out_fd = -1;
	cap->out_path = strdup(out_path);
	cap->nr_cpus = libbpf_num_possible_cpus();
	if (!cap->out_path || cap->nr_cpus <= 0) {
		set_why(why, why_len, "out of memory");
		goto out_free;
	}
	cap->calib_nr = (size_t)CALIB_RUNS * (size_t)cap->nr_cpus;
	cap->calib = calloc(cap->calib_nr, sizeof(*cap->calib));
	cap->body = tmpfile();
	cap->points = tmpfile();
	if (!cap->calib || !cap->body || !cap->points) {
		set_why(why, why_len, "cannot create a temporary file: %s", strerror(errno));
		goto out_free;
	}

	cap->obj = bpf_object__open_mem(
		cfsr_pelt_bpf_obj, (size_t)(cfsr_pelt_bpf_obj_end - cfsr_pelt_bpf_obj), &open_opts);
	if (!cap->obj) {
		set_why(why, why_len, "cannot open the BPF object: %s", strerror(errno));
		goto out_free;
	}
	/* only what can attach is loaded: a kernel without the util_est tracepoints still works */
	for (i = 0; i < NR_TRACEPOINTS; i++) {
		prog = bpf_object__find_program_by_name(cap->obj, tracepoints[i].prog);
		if (!prog)
			CFSR_BUG("BPF program '%s' missing", tracepoints[i].prog);
		bpf_program__set_autoattach(prog, false);
	}
	map = bpf_object__find_map_by_name(cap->obj, "records");
	if (!map || bpf_map__set_max_entries(map, RINGBUF_BYTES) < 0)
		CFSR_BUG("BPF map 'records' missing");
	err = bpf_object__load(cap->obj);
	if (err) {
		if (err == -EPERM || err == -EACCES)
			set_why(why, why_len,
				"no permission to load BPF programs (needs root, or CAP_BPF and "
				"CAP_PERFMON)");
		else
			set_why(why, why_len, "cannot load the BPF programs: %s%s%s",
				strerror(-err), libbpf_last[0] ? ": " : "", libbpf_last);
		goto out_free;
	}

	prog = bpf_object__find_program_by_name(cap->obj, "pelt_calib");
	map = bpf_object__find_map_by_name(cap->obj, "calib_events");
	if (!prog || !map)
		CFSR_BUG("BPF calibration program or map missing");
	cap->calib_fd = bpf_program__fd(prog);
	cap->pb = perf_buffer__new_raw(bpf_map__fd(map), CALIB_PAGES, &attr, on_calib, cap, NULL);
	if (!cap->pb) {
		set_why(why, why_len, "cannot open the calibration perf events: %s",
			strerror(errno));
		goto out_free;
	}
	map = bpf_object__find_map_by_name(cap->obj, "records");
	cap->rb = ring_buffer__new(bpf_map__fd(map), on_record, cap, NULL);
	if (!cap->rb) {
		set_why(why, why_len, "cannot map the BPF ring buffer: %s", strerror(errno));
		goto out_free;
	}

	cap->out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (cap->out_fd < 0) {
		set_why(why, why_len, "cannot create '%s': %s", out_path, strerror(errno));
		goto out_free;
	}
	calibrate(cap);
	if (!cap->calib_sum.points) {
		set_why(why, why_len, "no clock calibration sample arrived from the kernel");
		goto out_free;
	}

	for (i = 0; i < NR_TRACEPOINTS; i++) {
		prog = bpf_object__find_program_by_name(cap->obj, tracepoints[i].prog);
		cap->links[i] = bpf_program__attach_raw_tracepoint(prog, tracepoints[i].name);
		if (cap->links[i]) {
			cap->attached[cap->nr_attached++] = tracepoints[i].name;
			continue;
		}
		if (tracepoints[i].required) {
			set_why(why, why_len, "cannot attach to the tracepoint '%s': %s",
				tracepoints[i].name,
				errno == ENOENT ? "the kernel has no such tracepoint" :
						  strerror(errno));
			goto out_free;
		}
	}
	set_why(why, why_len, "%s", "");
	return cap;

out_free:
	if (cap->out_fd >= 0)
		unlink(out_path);
	capture_free(cap);
	return NULL;
}

int cfsr_pelt_capture_get_fd(const struct cfsr_pelt_capture *cap)
{
	return ring_buffer__epoll_fd(cap->rb);
}

int cfsr_pelt_capture_poll(struct cfsr_pelt_capture *cap, int timeout_ms)
{
	uint64_t before = cap->body_records;
	int ret = ring_buffer__poll(cap->rb, timeout_ms);

	/* the kernel wakes the reader only at a quarter full: copy what is there */
	if (ret >= 0)
		ret = ring_buffer__consume(cap->rb);
	if (mono_now() >= cap->next_point)
		calibrate(cap);

	if (ret < 0 && ret != -EINTR)
		return cfsr_error("cannot read the BPF ring buffer: %s", strerror(-ret));
	if (cap->write_errno)
		return cfsr_error("cannot write the PELT records to a temporary file: %s",
				  strerror(cap->write_errno));
	return (int)(cap->body_records - before);
}

/* ---- writing --------------------------------------------------------------------------------- */

static int map_cmp(const void *a, const void *b)
{
	const struct map_node *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static void map_node_free(void *p)
{
	struct map_node *n = p;

	free(n->path);
	free(n);
}

/* The node of @key in *@root, added when missing.  Return: NULL when out of memory. */
static struct map_node *map_get(void **root, uint64_t key, bool *added)
{
	struct map_node probe = { .key = key }, *n, **found;

	*added = false;
	found = tfind(&probe, root, map_cmp);
	if (found)
		return *found;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->key = key;
	found = tsearch(n, root, map_cmp);
	if (!found || *found != n) {
		free(n);
		return NULL;
	}
	*added = true;
	return n;
}

/* Small id of the kernel object at @addr, in order of first appearance (from 1). */
static int64_t obj_id(struct cfsr_pelt_capture *cap, uint64_t addr)
{
	bool added;
	struct map_node *n = map_get(&cap->objs, addr, &added);

	if (!n)
		return -1;
	if (added)
		n->id = ++cap->next_obj;
	return (int64_t)n->id;
}

/* A line under construction; an overflow marks it bad rather than cutting it. */
struct line {
	char buf[LINE_MAX_LEN];
	size_t len;
	bool overflow;
};

static void put(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(l->buf) - l->len)
		l->overflow = true;
	else
		l->len += (size_t)n;
}

/* ,"key":"value" with JSON escapes (comm and cgroup names are arbitrary bytes) */
static void put_str(struct line *l, const char *key, const char *s)
{
	const unsigned char *p;

	put(l, ",\"%s\":\"", key);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			put(l, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			put(l, "\\u%04x", *p);
		else
			put(l, "%c", *p);
	}
	put(l, "\"");
}

static void put_i64(struct line *l, const char *key, int64_t v)
{
	put(l, ",\"%s\":%" PRId64, key, v);
}

static void put_avg(struct line *l, const struct pelt_bpf_rec *r)
{
	put_i64(l, "last_update_time", (int64_t)r->last_update_time);
	put_i64(l, "load_sum", (int64_t)r->load_sum);
	put_i64(l, "runnable_sum", (int64_t)r->runnable_sum);
	put_i64(l, "util_sum", r->util_sum);
	put_i64(l, "period_contrib", r->period_contrib);
	put_i64(l, "load_avg", (int64_t)r->load_avg);
	put_i64(l, "runnable_avg", (int64_t)r->runnable_avg);
	put_i64(l, "util_avg", (int64_t)r->util_avg);
	put_i64(l, "util_est", r->util_est);
	put_i64(l, "rq_cpu", r->rq_cpu);
	put_i64(l, "clock", (int64_t)r->clock);
	put_i64(l, "clock_task", (int64_t)r->clock_task);
	put_i64(l, "clock_pelt", (int64_t)r->clock_pelt);
	put_i64(l, "lost_idle_time", (int64_t)r->lost_idle_time);
	put_i64(l, "clock_idle", (int64_t)r->clock_idle);
	put_i64(l, "rq_nr_running", r->rq_nr_running);
}

/* The path of a task group: "/", "/autogroup-N" or the cgroup path; NULL if unknown. */
static const char *tg_path(struct cfsr_pelt_capture *cap, uint64_t cg_id, uint64_t autogroup,
			   bool root, bool is_autogroup, char *buf, size_t len)
{
	struct map_node probe = { .key = cg_id }, **found;

	if (root)
		return "/";
	if (is_autogroup) {
		snprintf(buf, len, "/autogroup-%" PRIu64, autogroup);
		return buf;
	}
	found = tfind(&probe, &cap->cgroups, map_cmp);
	if (found && (*found)->path)
		return (*found)->path;
	cap->unnamed++;
	return NULL;
}

/* ,"cg_id":N,"autogroup":N|"root":1 of a task group, under @prefix */
static void put_group_id(struct line *l, const char *prefix, uint64_t cg_id, uint64_t autogroup,
			 bool root, bool is_autogroup)
{
	char key[32];

	snprintf(key, sizeof(key), "%scg_id", prefix);
	put_i64(l, key, (int64_t)cg_id);
	if (is_autogroup) {
		snprintf(key, sizeof(key), "%sautogroup", prefix);
		put_i64(l, key, (int64_t)autogroup);
	} else if (root) {
		snprintf(key, sizeof(key), "%sroot", prefix);
		put_i64(l, key, 1);
	}
}

static void put_entity(struct line *l, const struct pelt_bpf_rec *r)
{
	put_group_id(l, "parent_", r->parent_cg_id, r->parent_autogroup,
		     r->flags & PELT_BPF_F_PARENT_ROOT, r->flags & PELT_BPF_F_PARENT_AUTOGROUP);
	put_i64(l, "depth", r->depth);
	put_i64(l, "on_rq", r->on_rq);
	put_i64(l, "sched_delayed", r->sched_delayed);
	put_i64(l, "weight", (int64_t)r->weight);
	put_i64(l, "exec_start", (int64_t)r->exec_start);
	put_i64(l, "sum_exec_runtime", (int64_t)r->sum_exec_runtime);
}

/*
 * The EEVDF state, when the kernel has it: u64 members as the kernel holds
 * them, written as signed 64-bit (a vruntime near the kernel's initial
 * -1 ms is a small negative number).
 */
static void put_se_eevdf(struct line *l, const struct pelt_bpf_rec *r)
{
	if (!(r->eevdf & PELT_BPF_EEVDF_SE))
		return;
	put_i64(l, "vruntime", (int64_t)r->vruntime);
	put_i64(l, "deadline", (int64_t)r->deadline);
	put_i64(l, "vlag", r->vlag);
	put_i64(l, "slice", (int64_t)r->slice);
	if (r->eevdf & PELT_BPF_EEVDF_REL_DEADLINE)
		put_i64(l, "rel_deadline", r->rel_deadline);
	put_i64(l, "curr", r->is_curr);
}

static void put_cfs_eevdf(struct line *l, const struct pelt_bpf_rec *r)
{
	if (!(r->eevdf & PELT_BPF_EEVDF_SUMS))
		return;
	put_i64(l, "zero_vruntime", (int64_t)r->cfs_zero_vruntime);
	put_i64(l, "avg_vruntime", r->cfs_avg_vruntime);
	put_i64(l, "avg_load", (int64_t)r->cfs_avg_load);
	put_i64(l, "curr_vruntime", (int64_t)r->cfs_curr_vruntime);
	put_i64(l, "curr_weight", (int64_t)r->cfs_curr_weight);
}

static void put_queued(struct line *l, const struct pelt_bpf_rec *r)
{
	put_i64(l, "nr_queued", r->nr_queued);
	put_i64(l, "h_nr_queued", r->h_nr_queued);
	put_i64(l, "h_nr_runnable", r->h_nr_runnable);
}

/* One record as a pelt.jsonl line, with the keys in the order of the published files. */
static int format_rec(struct cfsr_pelt_capture *cap, const struct pelt_bpf_rec *r, int64_t offset,
		      struct line *l)
{
	bool group = r->flags & PELT_BPF_F_GROUP;
	bool root = r->flags & PELT_BPF_F_ROOT, ag = r->flags & PELT_BPF_F_AUTOGROUP;
	bool proot = r->flags & PELT_BPF_F_PARENT_ROOT;
	bool pag = r->flags & PELT_BPF_F_PARENT_AUTOGROUP;
	char tgbuf[48], ptgbuf[48];
	const char *tg = NULL, *ptg = NULL;
	int64_t obj = -1, parent_obj = -1;

	if (r->type != PELT_BPF_RT) {
		obj = obj_id(cap, r->obj);
		if (obj < 0)
			return -1;
	}
	if (r->type == PELT_BPF_SE || r->type == PELT_BPF_GSE || r->type == PELT_BPF_UE_SE) {
		parent_obj = obj_id(cap, r->parent_obj);
		if (parent_obj < 0)
			return -1;
		ptg = tg_path(cap, r->parent_cg_id, r->parent_autogroup, proot, pag, ptgbuf,
			      sizeof(ptgbuf));
	}
	if (r->type == PELT_BPF_CFS || r->type == PELT_BPF_UE_CFS || group)
		tg = tg_path(cap, r->cg_id, r->autogroup, root, ag, tgbuf, sizeof(tgbuf));

	l->len = 0;
	l->overflow = false;
	put(l, "{\"ts\":%" PRId64, (int64_t)r->ktime + offset);
	put_i64(l, "ktime", (int64_t)r->ktime);
	put(l, ",\"type\":\"%s\"", type_names[r->type]);
	put_i64(l, "cpu", r->cpu);
	switch (r->type) {
	case PELT_BPF_SE:
	case PELT_BPF_GSE:
	case PELT_BPF_UE_SE:
		if (r->type == PELT_BPF_UE_SE && group)
			put_i64(l, "group", 1);
		if (group) {
			put_group_id(l, "", r->cg_id, r->autogroup, root, ag);
			put_i64(l, "level", r->level);
			put_queued(l, r);
		} else {
			put_i64(l, "pid", r->pid);
			put_i64(l, "tid", r->tid);
			put_str(l, "comm", r->comm);
		}
		put_entity(l, r);
		put_avg(l, r);
		put_se_eevdf(l, r);
		put_i64(l, "obj", obj);
		put_i64(l, "parent_obj", parent_obj);
		if (group && tg)
			put_str(l, "tg", tg);
		if (ptg)
			put_str(l, "parent_tg", ptg);
		break;
	case PELT_BPF_CFS:
	case PELT_BPF_UE_CFS:
		put_group_id(l, "", r->cg_id, r->autogroup, root, ag);
		put_i64(l, "level", r->level);
		put_i64(l, "weight", (int64_t)r->weight);
		put_queued(l, r);
		put_i64(l, "h_nr_idle", r->h_nr_idle);
		put_i64(l, "tg_load_avg_contrib", (int64_t)r->tg_load_avg_contrib);
		put_i64(l, "tg_load_avg", r->tg_load_avg);
		put_i64(l, "tg_shares", (int64_t)r->tg_shares);
		put_i64(l, "propagate", r->propagate);
		put_i64(l, "prop_runnable_sum", r->prop_runnable_sum);
		put_i64(l, "removed_nr", r->removed_nr);
		put_i64(l, "removed_load_avg", (int64_t)r->removed_load_avg);
		put_i64(l, "removed_util_avg", (int64_t)r->removed_util_avg);
		put_i64(l, "removed_runnable_avg", (int64_t)r->removed_runnable_avg);
		put_i64(l, "on_list", r->on_list);
		put_avg(l, r);
		put_cfs_eevdf(l, r);
		put_i64(l, "obj", obj);
		if (tg)
			put_str(l, "tg", tg);
		break;
	case PELT_BPF_RT:
		put_avg(l, r);
		break;
	}
	put(l, "}\n");
	return l->overflow ? -1 : 0;
}

/* Remember the path a cgroup record describes. */
static int add_cgroup(struct cfsr_pelt_capture *cap, const struct pelt_bpf_cgroup *c)
{
	char path[PELT_BPF_MAX_LEVEL * (PELT_BPF_NAME_LEN + 1) + 1];
	struct map_node *n;
	size_t len = 0;
	bool added;
	int i, level = c->level;

	if (level < 1 || level > PELT_BPF_MAX_LEVEL)
		return 0; /* deeper than the pieces sent: its records go without a path */
	for (i = level - 1; i >= 0; i--) {
		size_t piece = strnlen(c->names[i], PELT_BPF_NAME_LEN);

		path[len++] = '/';
		memcpy(path + len, c->names[i], piece);
		len += piece;
	}
	path[len] = '\0';
	n = map_get(&cap->cgroups, c->cg_id, &added);
	if (!n)
		return -1;
	free(n->path);
	n->path = strdup(path);
	return n->path ? 0 : -1;
}

static void gz_put_str(gzFile gz, const char *s)
{
	struct line l = { .len = 0 };

	put_str(&l, "", s);
	/* put_str() writes ,"":"...": keep the quoted value only */
	gzwrite(gz, l.buf + 4, (unsigned int)(l.len - 4));
}

struct hdr_walk {
	gzFile gz;
	bool first;
};

static struct hdr_walk *hdr_walk_state;

static void put_cgroup_id(const void *nodep, VISIT which, int depth)
{
	const struct map_node *n = *(const struct map_node *const *)nodep;

	(void)depth;
	if ((which != postorder && which != leaf) || !n->path)
		return;
	gzprintf(hdr_walk_state->gz, "%s\"%" PRIu64 "\":", hdr_walk_state->first ? "" : ",",
		 n->key);
	gz_put_str(hdr_walk_state->gz, n->path);
	hdr_walk_state->first = false;
}

static void write_header(struct cfsr_pelt_capture *cap, gzFile gz, uint64_t sent, uint64_t dropped)
{
	const struct calib_summary *cs = &cap->calib_sum;
	struct hdr_walk walk = { gz, true };
	double span_s = (double)(cs->last.mono - cs->first.mono) / 1e9;
	size_t i;

	gzprintf(gz, "{\"type\":\"hdr\",\"format\":\"pelt-bpf/1\",\"attached\":[");
	for (i = 0; i < cap->nr_attached; i++)
		gzprintf(gz, "%s\"%s\"", i ? "," : "", cap->attached[i]);
	gzprintf(gz,
		 "],\"loader_pid\":%d,\"clock\":{\"trace_clock\":\"perf\","
		 "\"bpf_clock\":\"bpf_ktime_get_ns (CLOCK_MONOTONIC)\","
		 "\"calibration\":{\"points\":%" PRIu64 ",\"runs\":%" PRIu64
		 ",\"disjoint_points\":%" PRIu64 ",\"first_offset_ns\":%" PRId64
		 ",\"last_offset_ns\":%" PRId64 ",\"span_s\":%.3f,\"drift_ppm\":%.3f},"
		 "\"method\":\"perf-sample-interpolated\",\"offset_ns\":%" PRId64
		 ",\"precision_ns\":%" PRId64 ",\"formula\":\"ts = ktime + offset(ktime), linear "
		 "between calibration points; offset_ns is the first\"},\"counts\":{",
		 (int)getpid(), cs->points, cs->runs, cs->disjoint, point_mid(&cs->first),
		 point_mid(&cs->last), span_s,
		 span_s > 0 ?
			 (double)(point_mid(&cs->last) - point_mid(&cs->first)) / span_s / 1e3 :
			 0.0,
		 point_mid(&cs->first), (cs->width_max + 1) / 2);
	for (i = 1; i < NR_TYPES; i++)
		gzprintf(gz, "%s\"%s\":%" PRIu64, i > 1 ? "," : "", type_names[i], cap->counts[i]);
	gzprintf(gz,
		 "},\"kernel_counters\":{\"sent\":%" PRIu64 ",\"dropped\":%" PRIu64
		 "},\"unnamed_groups\":%" PRIu64 ",\"out_of_order\":%" PRIu64 ",\"cgroup_ids\":{",
		 sent, dropped, cap->unnamed, cap->out_of_order);
	hdr_walk_state = &walk;
	gzprintf(gz, "\"1\":\"/\"");
	walk.first = false;
	twalk(cap->cgroups, put_cgroup_id);
	hdr_walk_state = NULL;
	gzprintf(gz, "}}\n");
}

/* Sum a per-CPU counter of the BPF program. */
static uint64_t read_counter(const struct cfsr_pelt_capture *cap, uint32_t which)
{
	struct bpf_map *map = bpf_object__find_map_by_name(cap->obj, "counters");
	uint64_t *vals, sum = 0;
	int i;

	vals = calloc((size_t)cap->nr_cpus, sizeof(*vals));
	if (!map || !vals || bpf_map_lookup_elem(bpf_map__fd(map), &which, vals) < 0) {
		free(vals);
		return 0;
	}
	for (i = 0; i < cap->nr_cpus; i++)
		sum += vals[i];
	free(vals);
	return sum;
}

/*
 * The records are sorted by ktime on the way out through a heap of
 * REORDER_SLOTS records: the ring buffer holds them in the order they were
 * reserved, and a record stamped on one CPU can be reserved after one
 * stamped later on another (by the time the program takes to reach the
 * reservation, about a microsecond).  A record displaced by more than the
 * heap holds stays out of order, and is counted in the header.
 */
#define REORDER_SLOTS 4096

struct reorder {
	struct pelt_bpf_rec *heap;
	size_t nr;
	uint64_t last_ktime;
	struct offset_cursor cursor;
	struct line line;
};

static void heap_swap(struct pelt_bpf_rec *a, struct pelt_bpf_rec *b)
{
	struct pelt_bpf_rec t = *a;

	*a = *b;
	*b = t;
}

static void heap_push(struct reorder *ro, const struct pelt_bpf_rec *r)
{
	size_t i = ro->nr++;

	ro->heap[i] = *r;
	while (i && ro->heap[(i - 1) / 2].ktime > ro->heap[i].ktime) {
		heap_swap(&ro->heap[(i - 1) / 2], &ro->heap[i]);
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct reorder *ro, struct pelt_bpf_rec *out)
{
	size_t i = 0;

	*out = ro->heap[0];
	ro->heap[0] = ro->heap[--ro->nr];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= ro->nr)
			break;
		if (c + 1 < ro->nr && ro->heap[c + 1].ktime < ro->heap[c].ktime)
			c++;
		if (ro->heap[i].ktime <= ro->heap[c].ktime)
			break;
		heap_swap(&ro->heap[i], &ro->heap[c]);
		i = c;
	}
}

/* Write the earliest record of the heap. */
static int emit_one(struct cfsr_pelt_capture *cap, struct reorder *ro, gzFile gz)
{
	struct pelt_bpf_rec r;

	heap_pop(ro, &r);
	if (r.ktime < ro->last_ktime)
		cap->out_of_order++;
	else
		ro->last_ktime = r.ktime;
	if (format_rec(cap, &r, cursor_offset(&ro->cursor, r.ktime), &ro->line) < 0)
		return cfsr_error("PELT capture: record too long, or out of memory");
	cap->counts[r.type]++;
	if (gzwrite(gz, ro->line.buf, (unsigned int)ro->line.len) != (int)ro->line.len)
		return cfsr_error("cannot write '%s'", cap->out_path);
	return 0;
}

/*
 * Read the raw records back.  First pass (@gz NULL): the cgroup names; a
 * cgroup record follows the first record that names the cgroup (it is
 * reserved while that one is being filled), and a renamed cgroup keeps its
 * last name.  Second pass: the lines, sorted.
 */
static int read_body(struct cfsr_pelt_capture *cap, gzFile gz)
{
	union {
		struct pelt_bpf_rec rec;
		struct pelt_bpf_cgroup cg;
	} u;
	struct reorder *ro;
	uint32_t len;
	int ret = 0;

	ro = calloc(1, sizeof(*ro));
	if (ro)
		ro->heap = calloc(REORDER_SLOTS, sizeof(*ro->heap));
	if (!ro || !ro->heap) {
		free(ro);
		return cfsr_error("out of memory");
	}
	rewind(cap->body);
	cursor_start(&ro->cursor, cap->points);
	while (!ret && fread(&len, sizeof(len), 1, cap->body) == 1) {
		memset(&u, 0, sizeof(u));
		if (len > sizeof(u) || len < 16 || fread(&u, len, 1, cap->body) != 1) {
			ret = cfsr_error("PELT capture: temporary file unreadable");
			break;
		}
		if (u.rec.type == PELT_BPF_CGROUP) {
			if (!gz && add_cgroup(cap, &u.cg) < 0)
				ret = cfsr_error("out of memory");
			continue;
		}
		if (!gz || u.rec.type < PELT_BPF_SE || u.rec.type > PELT_BPF_RT)
			continue;
		if (ro->nr == REORDER_SLOTS)
			ret = emit_one(cap, ro, gz);
		heap_push(ro, &u.rec);
	}
	while (!ret && ro->nr)
		ret = emit_one(cap, ro, gz);
	if (!ret && ferror(cap->body))
		ret = cfsr_error_errno("cannot read the PELT capture's temporary file");
	free(ro->heap);
	free(ro);
	return ret;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * The counts are known only after formatting, and the header comes
 * first: format into a second temporary file, then copy.
 */
static int write_output(struct cfsr_pelt_capture *cap, uint64_t sent, uint64_t dropped)
{
	gzFile gz = NULL, lines = NULL;
	FILE *tmp = NULL;
	char buf[65536];
	int fd, n, ret = -1;

	if (read_body(cap, NULL) < 0)
		return -1;
	tmp = tmpfile();
	if (!tmp)
		return cfsr_error_errno("cannot create a temporary file");
	fd = dup(fileno(tmp));
	lines = fd < 0 ? NULL : gzdopen(fd, "wbT");
	if (!lines) {
		if (fd >= 0)
			close(fd);
		cfsr_error_errno("cannot create a temporary file");
		goto out_tmp;
	}
	if (read_body(cap, lines) < 0)
		goto out_lines;
	if (gzclose(lines) != Z_OK) {
		lines = NULL;
		cfsr_error("cannot write the PELT lines to a temporary file");
		goto out_tmp;
	}
	lines = NULL;

	/* gzclose() closes it */
	fd = cap->out_fd;
	cap->out_fd = -1;
	gz = gzdopen(fd, ends_with(cap->out_path, ".gz") ? "wb6" : "wbT");
	if (!gz) {
		close(fd);
		cfsr_error("cannot write '%s'", cap->out_path);
		goto out_tmp;
	}
	write_header(cap, gz, sent, dropped);
	rewind(tmp);
	while ((n = (int)fread(buf, 1, sizeof(buf), tmp)) > 0) {
		if (gzwrite(gz, buf, (unsigned int)n) != n)
			break;
	}
	if (ferror(tmp) || !feof(tmp)) {
		gzclose(gz);
		cfsr_error("cannot write '%s'", cap->out_path);
		goto out_tmp;
	}
	if (gzclose(gz) != Z_OK) {
		cfsr_error("cannot write '%s': %s", cap->out_path, strerror(errno));
		goto out_tmp;
	}
	ret = 0;
	goto out_tmp;

out_lines:
	gzclose(lines);
out_tmp:
	fclose(tmp);
	return ret;
}

/* ---- stop ------------------------------------------------------------------------------------ */

static void capture_free(struct cfsr_pelt_capture *cap)
{
	size_t i;

	for (i = 0; i < NR_TRACEPOINTS; i++)
		bpf_link__destroy(cap->links[i]);
	ring_buffer__free(cap->rb);
	perf_buffer__free(cap->pb);
	bpf_object__close(cap->obj);
	if (cap->body)
		fclose(cap->body);
	if (cap->points)
		fclose(cap->points);
	if (cap->out_fd >= 0)
		close(cap->out_fd);
	tdestroy(cap->objs, map_node_free);
	tdestroy(cap->cgroups, map_node_free);
	free(cap->calib);
	free(cap->out_path);
	free(cap);
}

int cfsr_pelt_capture_stop(struct cfsr_pelt_capture *cap, uint64_t *records, uint64_t *lost)
{
	uint64_t sent, dropped, total = 0;
	size_t i;
	int ret;

	if (records)
		*records = 0;
	if (lost)
		*lost = 0;
	if (!cap)
		return -1;
	for (i = 0; i < NR_TRACEPOINTS; i++) {
		bpf_link__destroy(cap->links[i]);
		cap->links[i] = NULL;
	}
	/* what the programs submitted before they were detached */
	ring_buffer__consume(cap->rb);
	calibrate(cap);
	sent = read_counter(cap, PELT_BPF_SENT);
	dropped = read_counter(cap, PELT_BPF_DROPPED);

	if (cap->write_errno)
		ret = cfsr_error("cannot write the PELT records to a temporary file: %s",
				 strerror(cap->write_errno));
	else
		ret = write_output(cap, sent, dropped);
	for (i = 1; i < NR_TYPES; i++)
		total += cap->counts[i];
	if (records)
		*records = total;
	if (lost)
		*lost = dropped;
	capture_free(cap);
	return ret;
}

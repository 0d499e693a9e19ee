// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the trace.dat reader (formats/tracedat*.c).
 *
 * - sched_switch's prev_state encoding is read from print formats of
 *   several kernel generations; the expected masks are the kernels' own
 *   constants (TASK_STATE_MAX 1024 in v3.10 and 2048 in v4.4,
 *   TASK_REPORT_MAX 0x100 from v4.14 on).
 * - The bundled traces are read whole: records per event type must equal
 *   the counts that `trace-cmd report` gave (traces/<name>.counts, made by
 *   scripts/trace-counts.sh), time must never go backwards, and decoded
 *   fields must be consistent with the kernel's semantics.
 * - Truncated and corrupted copies are refused or read with their damage
 *   reported, never crash.
 * - The writer: a bundled trace rewritten with zlib, zstd and no
 *   compression reads back as the same event stream (zlib files cannot be
 *   made with Debian's trace-cmd, so this is how zlib reading is tested).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "error.h"
#include "formats.h"
#include "tracedat-local.h"
#include "tracedat-write.h"

#define COMMON_FIELDS                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define SWITCH_FIELDS                                                    \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"  \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"      \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"       \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"     \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"      \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"

#define FMT_HEAD \
	"\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
#define FMT_TAIL ", REC->next_comm, REC->next_pid, REC->next_prio\n"

/* v3.10: TASK_STATE_MAX = 1024 */
static const char fmt_v3_10[] =
	"name: sched_switch\nID: 1\nformat:\n" COMMON_FIELDS SWITCH_FIELDS "print fmt: " FMT_HEAD
	"REC->prev_state & (1024-1) ? __print_flags(REC->prev_state & (1024-1), \"|\", { 1, \"S\"} , "
	"{ 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, "
	"{ 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }) : \"R\", REC->prev_state & 1024 ? \"+\" : \"\"" FMT_TAIL;

/* v4.4: TASK_STATE_MAX = 2048 */
static const char fmt_v4_4[] =
	"name: sched_switch\nID: 1\nformat:\n" COMMON_FIELDS SWITCH_FIELDS "print fmt: " FMT_HEAD
	"REC->prev_state & (2048-1) ? __print_flags(REC->prev_state & (2048-1), \"|\", { 1, \"S\"} , "
	"{ 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, "
	"{ 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", "
	"REC->prev_state & 2048 ? \"+\" : \"\"" FMT_TAIL;

/* v6.18: TASK_REPORT_MAX = (TASK_REPORT_IDLE << 1) = 0x100, states 0xff */
static const char fmt_v6_18[] =
	"name: sched_switch\nID: 1\nformat:\n" COMMON_FIELDS SWITCH_FIELDS "print fmt: " FMT_HEAD
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, "
	"{ 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
	"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) "
	"+ 1) << 1) ? \"+\" : \"\"" FMT_TAIL;

/* no preempted marker at all */
static const char fmt_none[] =
	"name: sched_switch\nID: 1\nformat:\n" COMMON_FIELDS SWITCH_FIELDS
	"print fmt: \"prev_pid=%d prev_state=%ld\", REC->prev_pid, REC->prev_state\n";

static void check_masks(const char *fmt, int ret, uint64_t preempt, uint64_t state)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *event;
	uint64_t p, s;

	assert_non_null(tep);
	tep_set_loglevel(TEP_LOG_NONE);
	assert_int_equal(tep_parse_event(tep, fmt, strlen(fmt), "sched"), 0);
	event = tep_find_event_by_name(tep, "sched", "sched_switch");
	assert_non_null(event);
	assert_int_equal(td_switch_state_masks(event, &p, &s), ret);
	assert_int_equal(p, preempt);
	assert_int_equal(s, state);
	tep_free(tep);
}

static void test_state_masks(void **state)
{
	(void)state;
	check_masks(fmt_v3_10, 0, 1024, 1023);
	check_masks(fmt_v4_4, 0, 2048, 2047);
	check_masks(fmt_v6_18, 0, 0x100, 0xff);
	check_masks(fmt_none, -1, 0, 0);
}

/* ---- bundled traces -------------------------------------------------------- */

static const char *srcdir(void)
{
	const char *d = getenv("CFSR_SRCDIR");

	return d ? d : ".";
}

struct count {
	char name[64];
	uint64_t n;
};

static int load_counts(const char *path, struct count *c, int max)
{
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	while (n < max && fscanf(f, "%63s %lu", c[n].name, &c[n].n) == 2)
		n++;
	fclose(f);
	return n;
}

static void read_and_compare(const char *name)
{
	char path[4096], counts_path[4096];
	struct count expect[128];
	struct cfsr_trace *t;
	struct cfsr_event ev;
	uint64_t last_ts = 0, switches = 0;
	int nr, i, j, ret;

	snprintf(path, sizeof(path), "%s/traces/%s.dat", srcdir(), name);
	snprintf(counts_path, sizeof(counts_path), "%s/traces/%s.counts", srcdir(), name);
	t = cfsr_trace_open(path);
	assert_non_null(t);
	assert_true(t->info.nr_cpus > 0);
	assert_true(t->info.preempt_bit_known);
	assert_non_null(t->info.kernel_release);
	while ((ret = cfsr_trace_next(t, &ev)) > 0) {
		assert_true(ev.ts >= last_ts);
		last_ts = ev.ts;
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
		case CFSR_EV_MIGRATE:
			assert_true(ev.migrate.dest_cpu >= 0 &&
				    ev.migrate.dest_cpu < t->info.nr_cpus);
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

	nr = load_counts(counts_path, expect, 128);
	assert_true(nr > 0);
	for (i = 0; i < nr; i++) {
		uint64_t got = 0;

		for (j = 0; j < t->info.nr_types; j++)
			if (!strcmp(t->info.types[j].name, expect[i].name))
				got += t->stats.type_counts[j];
		if (got != expect[i].n)
			fail_msg("%s: %s: read %lu, trace-cmd report counted %lu", name,
				 expect[i].name, (unsigned long)got, (unsigned long)expect[i].n);
	}
	/* and nothing that trace-cmd did not see */
	for (j = 0; j < t->info.nr_types; j++) {
		bool listed = false;

		for (i = 0; i < nr; i++)
			listed |= !strcmp(t->info.types[j].name, expect[i].name);
		if (!listed && t->stats.type_counts[j])
			fail_msg("%s: %s read but not in trace-cmd's counts", name,
				 t->info.types[j].name);
	}
	assert_int_equal(t->stats.bad_pages, 0);
	cfsr_trace_close(t);
}

static void test_periodic(void **state)
{
	(void)state;
	read_and_compare("periodic");
}

static void test_cgroups(void **state)
{
	(void)state;
	read_and_compare("cgroups");
}

static void test_v6(void **state)
{
	(void)state;
	read_and_compare("v6");
}

/* ---- damaged copies ------------------------------------------------------------ */

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

static void spit(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

/* Read a whole trace; return the number of events, or -1 if it did not open. */
static long read_all(const char *path, uint64_t *bad_pages)
{
	struct cfsr_trace *t = cfsr_trace_open(path);
	struct cfsr_event ev;
	long n = 0;

	if (!t)
		return -1;
	while (cfsr_trace_next(t, &ev) > 0)
		n++;
	*bad_pages = t->stats.bad_pages;
	cfsr_trace_close(t);
	return n;
}

static void damage(const char *name)
{
	char src[4096], tmp[] = "/tmp/cfsr-td-XXXXXX";
	uint64_t bad = 0;
	size_t len, cut;
	long full, n1;
	char *buf;
	int fd, i;

	snprintf(src, sizeof(src), "%s/traces/%s.dat", srcdir(), name);
	buf = slurp(src, &len);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	cfsr_error_set_hook(quiet, NULL);

	spit(tmp, buf, len);
	full = read_all(tmp, &bad);
	assert_true(full > 0);
	/*
	 * A truncated file is refused, or, when only trailing metadata that
	 * replay does not use was cut, read whole: never read in part.
	 */
	for (cut = 1; cut < len; cut = cut * 3 + 7) {
		long n;

		spit(tmp, buf, cut);
		n = read_all(tmp, &bad);
		if (n >= 0 && (n != full || bad))
			fail_msg("%s cut to %zu bytes gave %ld of %ld events", name, cut, n, full);
	}
	spit(tmp, buf, len - 1);
	n1 = read_all(tmp, &bad);
	assert_true(n1 == -1 || n1 == full);

	/* random byte damage: refused, or read with no crash */
	srand(4242);
	for (i = 0; i < 40; i++) {
		char *copy = malloc(len);
		int k;

		assert_non_null(copy);
		memcpy(copy, buf, len);
		for (k = 0; k < 1 + i % 5; k++)
			copy[(size_t)rand() % len] = (char)rand();
		spit(tmp, copy, len);
		read_all(tmp, &bad);
		free(copy);
	}
	cfsr_error_set_hook(NULL, NULL);
	unlink(tmp);
	free(buf);
}

static void test_damaged_v7(void **state)
{
	(void)state;
	damage("periodic");
}

static void test_damaged_v6(void **state)
{
	(void)state;
	damage("v6");
}

/* ---- writing: a bundled trace rewritten in every compression reads the same -- */

/* Raw pages of one CPU extent of @l into a new temporary file; return its fd. */
static int extract_cpu(int in, const struct td_layout *l, const struct td_buffer *b,
		       const struct td_extent *e)
{
	char tmp[] = "/tmp/cfsr-cpu-XXXXXX";
	int out = mkstemp(tmp);

	assert_true(out >= 0);
	unlink(tmp);
	if (!b->compressed) {
		char *buf = malloc(e->size ? e->size : 1);

		assert_non_null(buf);
		assert_int_equal(td_pread(in, buf, e->size, e->offset), 0);
		assert_int_equal(write(out, buf, e->size), (ssize_t)e->size);
		free(buf);
	} else {
		unsigned char cnt[4], hdr[8];
		uint64_t off = e->offset + 4;
		uint32_t n, i;

		assert_int_equal(td_pread(in, cnt, 4, e->offset), 0);
		n = (uint32_t)cnt[0] | (uint32_t)cnt[1] << 8 | (uint32_t)cnt[2] << 16 |
		    (uint32_t)cnt[3] << 24;
		for (i = 0; i < n; i++) {
			uint32_t clen, ulen;
			char *src, *dst;

			assert_int_equal(td_pread(in, hdr, 8, off), 0);
			clen = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 |
			       (uint32_t)hdr[3] << 24;
			ulen = (uint32_t)hdr[4] | (uint32_t)hdr[5] << 8 | (uint32_t)hdr[6] << 16 |
			       (uint32_t)hdr[7] << 24;
			src = malloc(clen);
			dst = malloc(ulen);
			assert_non_null(src);
			assert_non_null(dst);
			assert_int_equal(td_pread(in, src, clen, off + 8), 0);
			assert_int_equal(td_decompress(l->compression, src, clen, dst, ulen), 0);
			assert_int_equal(write(out, dst, ulen), (ssize_t)ulen);
			free(src);
			free(dst);
			off += 8 + clen;
		}
	}
	assert_int_equal(lseek(out, 0, SEEK_SET), 0);
	return out;
}

static void copy_section(int in, const struct td_layout *l, struct td_writer *w, uint64_t off,
			 unsigned int id)
{
	unsigned char *buf;
	size_t len;

	assert_int_equal(td_section_load(in, l, off, &buf, &len), 0);
	assert_int_equal(td_writer_section(w, id, buf, len), 0);
	free(buf);
}

/* Rewrite the v7 trace @src as @dst with @compression, through the writer. */
static void rewrite(const char *src, const char *dst, const char *compression)
{
	struct td_layout l;
	struct td_writer *w;
	int in = open(src, O_RDONLY), b, e;

	assert_true(in >= 0);
	assert_int_equal(td_layout_read(src, in, &l), 0);
	assert_int_equal(l.version, 7);
	w = td_writer_create(dst, compression, l.long_size, l.page_size);
	assert_non_null(w);
	copy_section(in, &l, w, l.sec_header_info, TD_SEC_HEADER_INFO);
	if (l.sec_ftrace_events)
		copy_section(in, &l, w, l.sec_ftrace_events, TD_SEC_FTRACE_EVENTS);
	copy_section(in, &l, w, l.sec_event_formats, TD_SEC_EVENT_FORMATS);
	if (l.uname)
		assert_int_equal(td_writer_option(w, TD_OPT_UNAME, l.uname, strlen(l.uname) + 1),
				 0);
	for (b = 0; b < l.nr_buffers; b++) {
		const struct td_buffer *buf = &l.buffers[b];
		int cpus[64], fds[64];

		assert_true(buf->nr_extents <= 64);
		for (e = 0; e < buf->nr_extents; e++) {
			cpus[e] = buf->extents[e].cpu;
			fds[e] = extract_cpu(in, &l, buf, &buf->extents[e]);
		}
		assert_int_equal(
			td_writer_buffer(w, buf->name, buf->clock, buf->nr_extents, cpus, fds), 0);
		for (e = 0; e < buf->nr_extents; e++)
			close(fds[e]);
	}
	assert_int_equal(td_writer_close(w), 0);
	td_layout_release(&l);
	close(in);
}

/* A digest of the whole event stream: every event's time, CPU, kind and pid. */
static void digest(const char *path, uint64_t *n, uint64_t *hash, const char **compression,
		   char *comp_buf, size_t comp_len)
{
	struct cfsr_trace *t = cfsr_trace_open(path);
	struct cfsr_event ev;

	assert_non_null(t);
	*n = 0;
	*hash = 1469598103934665603ull;
	while (cfsr_trace_next(t, &ev) > 0) {
		uint64_t v[4] = { ev.ts, (uint64_t)ev.cpu, (uint64_t)ev.kind, (uint64_t)ev.pid };
		int i;

		for (i = 0; i < 4; i++)
			*hash = (*hash ^ v[i]) * 1099511628211ull;
		(*n)++;
	}
	snprintf(comp_buf, comp_len, "%s", t->info.compression);
	*compression = comp_buf;
	assert_int_equal(t->stats.bad_pages, 0);
	cfsr_trace_close(t);
}

static void check_rewrite(const char *name)
{
	static const char *const algos[] = { "zlib", "zstd", "none" };
	char src[4096], dst[] = "/tmp/cfsr-rw-XXXXXX", c0[16], c1[16];
	const char *comp;
	uint64_t n0, h0, n1, h1;
	size_t i;
	int fd;

	snprintf(src, sizeof(src), "%s/traces/%s.dat", srcdir(), name);
	digest(src, &n0, &h0, &comp, c0, sizeof(c0));
	assert_true(n0 > 0);
	fd = mkstemp(dst);
	assert_true(fd >= 0);
	close(fd);
	for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
		rewrite(src, dst, algos[i]);
		digest(dst, &n1, &h1, &comp, c1, sizeof(c1));
		assert_string_equal(comp, algos[i]);
		if (n1 != n0 || h1 != h0)
			fail_msg("%s rewritten with %s: %lu events, digest %lx; original %lu, %lx",
				 name, algos[i], (unsigned long)n1, (unsigned long)h1,
				 (unsigned long)n0, (unsigned long)h0);
		/* the reference reader must agree (it cannot read zlib here) */
		if (strcmp(algos[i], "zlib") && !system("command -v trace-cmd >/dev/null")) {
			char cmd[8192];

			snprintf(cmd, sizeof(cmd),
				 "'%s/scripts/trace-counts.sh' '%s' 2>/dev/null | "
				 "diff -q - '%s/traces/%s.counts' >/dev/null",
				 srcdir(), dst, srcdir(), name);
			if (system(cmd))
				fail_msg("trace-cmd report counts differ on %s rewritten with %s",
					 name, algos[i]);
		}
	}
	unlink(dst);
}

/* The string an event carries (exec, cgroup, marker), or "" */
static const char *ev_string(const struct cfsr_event *ev)
{
	const char *s = NULL;

	if (ev->kind == CFSR_EV_EXEC)
		s = ev->exec.filename;
	else if (ev->kind == CFSR_EV_MARKER)
		s = ev->marker.text;
	else if (ev->kind == CFSR_EV_CGROUP_ATTACH || ev->kind == CFSR_EV_CGROUP_MKDIR ||
		 ev->kind == CFSR_EV_CGROUP_RMDIR)
		s = ev->cgroup.path;
	return s ? s : "";
}

static void assert_same_event(const struct cfsr_event *a, const struct cfsr_event *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->ts, b->ts);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->pid, b->pid);
	assert_string_equal(ev_string(a), ev_string(b));
}

/*
 * cfsr_trace_peek(): a trace read with looks ahead of every length (up to
 * past the bound, which reads nothing) returns the same events, strings
 * included, as one read straight; each event looked at is the one
 * returned later at its place; an event read stays whole while looks
 * ahead read on (under ASan, a string freed by the reader would show).
 */
static void test_peek(void **state)
{
	char path[4096];
	struct cfsr_trace *a, *b;
	struct cfsr_event ea, eb;
	const struct cfsr_event *p;
	struct cfsr_event ahead[8];
	char ahead_str[8][256];
	size_t n = 0, i, k, want = 0;
	int ra, rb;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/shares.dat", srcdir());
	a = cfsr_trace_open(path);
	b = cfsr_trace_open(path);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(cfsr_trace_peek(b, CFSR_TRACE_AHEAD_MAX, &p), 0);
	for (;;) {
		/* every 7th event, look up to 8 ahead and keep copies */
		if (n % 7 == 0) {
			want = n % 8 + 1;
			for (k = 0; k < want; k++) {
				if (cfsr_trace_peek(b, k, &p) <= 0)
					break;
				ahead[k] = *p;
				snprintf(ahead_str[k], sizeof(ahead_str[k]), "%s", ev_string(p));
			}
			want = k;
		}
		ra = cfsr_trace_next(a, &ea);
		rb = cfsr_trace_next(b, &eb);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		/* an event with a string stays whole while the look ahead reads on */
		if (*ev_string(&eb))
			for (k = 0; k < 1024 && cfsr_trace_peek(b, k, &p) > 0; k++)
				;
		assert_same_event(&ea, &eb);
		if (want) {
			assert_int_equal(ahead[0].kind, eb.kind);
			assert_int_equal(ahead[0].ts, eb.ts);
			assert_string_equal(ahead_str[0], ev_string(&eb));
			for (i = 1; i < want; i++) {
				ahead[i - 1] = ahead[i];
				memcpy(ahead_str[i - 1], ahead_str[i], sizeof(ahead_str[i]));
			}
			want--;
		}
		n++;
	}
	assert_true(n > 1000);
	assert_int_equal(cfsr_trace_peek(b, 0, &p), 0);
	cfsr_trace_close(a);
	cfsr_trace_close(b);
}

static void test_rewrite_uncompressed_source(void **state)
{
	(void)state;
	check_rewrite("cgroups");
}

static void test_rewrite_zstd_source(void **state)
{
	(void)state;
	check_rewrite("periodic");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_masks),
		cmocka_unit_test(test_periodic),
		cmocka_unit_test(test_cgroups),
		cmocka_unit_test(test_v6),
		cmocka_unit_test(test_damaged_v7),
		cmocka_unit_test(test_damaged_v6),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_rewrite_uncompressed_source),
		cmocka_unit_test(test_rewrite_zstd_source),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

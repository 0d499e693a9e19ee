// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader of the kernel-truth files: truth.jsonl (sched_debug and /proc
 * snapshots) and pelt.jsonl (the kernel's PELT tracepoints), plain or
 * gzip-compressed.  See lib/truth.h for the types and their conventions.
 *
 * The file is read through zlib, which passes uncompressed data through
 * unchanged, in blocks; lines are cut from the blocks and parsed one at a
 * time with a json_tokener, so memory depends on the longest line only.
 * Which members go where is described by one table per kind, applied in two
 * passes: every member is first set to "absent", then filled from the line.
 * The JSON object of the last line is kept until the next call, and the
 * strings of the returned item point into it.
 *
 * A malformed line is skipped and counted rather than ending the reading: a
 * comparison loses one row, not the run, and the caller decides whether a
 * non-zero cfsr_truth_skipped() is fatal.  What cannot be skipped is an end
 * of data that was not the end of the file: zlib reports a truncated gzip
 * stream only through gzerror(), which is checked whenever it returns no
 * data, and an uncompressed file cut inside its last line leaves a line
 * without a newline that does not parse.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "alloc.h"
#include "error.h"
#include "tracedat-local.h"
#include "truthfile.h"

/* Compressed or not, the file is read in blocks of this size. */
#define TRUTH_BLOCK (64U * 1024)
/* Longest line accepted; real lines are about 1 KiB. */
#define TRUTH_MAX_LINE (16U << 20)
/* Room for a reason, the path and a line number. */
#define TRUTH_WHY_LEN 256

struct cfsr_truth_reader {
	char *path;
	gzFile gz;
	enum cfsr_truth_format format;
	struct json_tokener *tok;

	/* input block */
	char *in;
	size_t in_len;
	size_t in_pos;

	/* current line, NUL-terminated, without its newline */
	char *buf;
	size_t alloc;
	size_t len;
	int64_t lineno;
	/* the line ended with a newline */
	bool complete;

	/* object of the last item (its strings are lent out), and its line */
	struct json_object *cur;
	int64_t cur_line;
	/* cur is the first line, read by cfsr_truth_open(), not yet returned */
	bool pending;
	bool failed;

	uint64_t skipped;
	char *skip_reason;

	struct cfsr_pelt_hdr hdr;
	char *hdr_format;
	char *hdr_trace_clock;
	struct cfsr_pelt_cgroup *cgroups;
	size_t nr_cgroups;
	size_t alloc_cgroups;
};

/* ---- names ----------------------------------------------------------------------------------- */

static const char *const kind_names[] = {
#define X(kind, name) [kind] = name,
	CFSR_TRUTH_KINDS
#undef X
};

static const char *const pelt_type_names[] = {
#define X(type, name) [type] = name,
	CFSR_PELT_TYPES
#undef X
};

const char *cfsr_truth_kind_name(enum cfsr_truth_kind kind)
{
	if ((unsigned int)kind >= CFSR_TRUTH_NR)
		return "?";
	return kind_names[kind];
}

const char *cfsr_pelt_type_name(enum cfsr_pelt_type type)
{
	if ((unsigned int)type >= CFSR_PELT_NR)
		return "?";
	return pelt_type_names[type];
}

/* The pelt type named @name; CFSR_PELT_OTHER for "other" too, which is no real type. */
static enum cfsr_pelt_type pelt_type_of(const char *name)
{
	int i;

	for (i = 0; i < CFSR_PELT_OTHER; i++) {
		if (!strcmp(name, pelt_type_names[i]))
			return i;
	}
	return CFSR_PELT_OTHER;
}

/* ---- member tables --------------------------------------------------------------------------- */

enum field_type {
	F_I64, /* int64_t; CFSR_TRUTH_NONE when absent */
	F_AVG64, /* uint64_t member of a struct cfsr_sched_avg, with a mask bit */
	F_AVG32, /* uint32_t member of a struct cfsr_sched_avg, with a mask bit */
	F_STR, /* const char *, borrowed from the JSON object; NULL when absent */
	F_COMM, /* char[CFSR_COMM_LEN], copied and truncated; "" when absent */
	F_CHAR, /* first letter of a string; '\0' when absent */
	F_PRESENT, /* bool: the line has the member */
};

/**
 * struct field - where one JSON member goes
 * @key: the member's name in the line
 * @type: what kind of C member receives it
 * @off: offset of the C member in the struct filled
 * @mask_off: for F_AVG*, offset of the unsigned int mask of present members
 * @bit: for F_AVG*, the CFSR_AVG_* bit of the member
 */
struct field {
	const char *key;
	enum field_type type;
	size_t off;
	size_t mask_off;
	unsigned int bit;
};

#define FLD(k, t, st, m)                           \
	{                                          \
		k, t, offsetof(struct st, m), 0, 0 \
	}
#define I64(k, st, m) FLD(k, F_I64, st, m)
#define STR(k, st, m) FLD(k, F_STR, st, m)
#define AVG(k, t, st, m, mask, b)                                                     \
	{                                                                             \
		k, t, offsetof(struct st, m), offsetof(struct st, mask), CFSR_AVG_##b \
	}

/* Later entries with the same destination win: "comm" over "sched_comm" over "stat_comm". */
static const struct field snap_fields[] = {
	I64("seq", cfsr_truth_snap, seq),
	I64("trace_ts_begin", cfsr_truth_snap, trace_ts_begin),
	I64("trace_ts_mid", cfsr_truth_snap, trace_ts_mid),
	I64("trace_ts_end", cfsr_truth_snap, trace_ts_end),
	I64("ktime", cfsr_truth_snap, ktime),
	I64("sched_clk", cfsr_truth_snap, sched_clk),
	I64("cpu_clk", cfsr_truth_snap, cpu_clk),
	I64("jiffies", cfsr_truth_snap, jiffies),
};

#define TASK_AVG(k, t, m, b) AVG(k, t, cfsr_truth_task, avg.m, avg_fields, b)
static const struct field task_fields[] = {
	I64("seq", cfsr_truth_task, seq),
	I64("pid", cfsr_truth_task, pid),
	I64("tid", cfsr_truth_task, tid),
	FLD("stat_comm", F_COMM, cfsr_truth_task, comm),
	FLD("sched_comm", F_COMM, cfsr_truth_task, comm),
	FLD("comm", F_COMM, cfsr_truth_task, comm),
	I64("cpu", cfsr_truth_task, cpu),
	FLD("state", F_CHAR, cfsr_truth_task, state),
	I64("nice", cfsr_truth_task, nice),
	I64("prio", cfsr_truth_task, prio),
	I64("policy", cfsr_truth_task, policy),
	I64("se.load.weight", cfsr_truth_task, weight),
	TASK_AVG("se.avg.last_update_time", F_AVG64, last_update_time, LAST_UPDATE_TIME),
	TASK_AVG("se.avg.load_sum", F_AVG64, load_sum, LOAD_SUM),
	TASK_AVG("se.avg.runnable_sum", F_AVG64, runnable_sum, RUNNABLE_SUM),
	TASK_AVG("se.avg.util_sum", F_AVG32, util_sum, UTIL_SUM),
	TASK_AVG("se.avg.period_contrib", F_AVG32, period_contrib, PERIOD_CONTRIB),
	TASK_AVG("se.avg.load_avg", F_AVG64, load_avg, LOAD_AVG),
	TASK_AVG("se.avg.runnable_avg", F_AVG64, runnable_avg, RUNNABLE_AVG),
	TASK_AVG("se.avg.util_avg", F_AVG64, util_avg, UTIL_AVG),
	TASK_AVG("se.avg.util_est", F_AVG32, util_est, UTIL_EST),
	I64("se.exec_start", cfsr_truth_task, exec_start),
	I64("se.sum_exec_runtime", cfsr_truth_task, sum_exec_runtime),
	I64("se.vruntime", cfsr_truth_task, vruntime),
	I64("se.nr_migrations", cfsr_truth_task, nr_migrations),
	I64("nr_switches", cfsr_truth_task, nr_switches),
	I64("session", cfsr_truth_task, session),
	STR("autogroup", cfsr_truth_task, autogroup),
	I64("autogroup_nice", cfsr_truth_task, autogroup_nice),
	STR("cgroup_cpu", cfsr_truth_task, cgroup_cpu),
	FLD("read_errors", F_PRESENT, cfsr_truth_task, read_errors),
};

#define CFS_AVG(k, t, m, b) AVG(k, t, cfsr_truth_cfs_rq, avg.m, avg_fields, b)
#define CFS_SE_AVG(k, m, b) AVG(k, F_AVG64, cfsr_truth_cfs_rq, se_avg.m, se_avg_fields, b)
static const struct field cfs_rq_fields[] = {
	I64("seq", cfsr_truth_cfs_rq, seq),
	I64("cpu", cfsr_truth_cfs_rq, cpu),
	STR("path", cfsr_truth_cfs_rq, path),
	I64("load", cfsr_truth_cfs_rq, load),
	CFS_AVG("load_avg", F_AVG64, load_avg, LOAD_AVG),
	CFS_AVG("runnable_avg", F_AVG64, runnable_avg, RUNNABLE_AVG),
	CFS_AVG("util_avg", F_AVG64, util_avg, UTIL_AVG),
	CFS_AVG("util_est", F_AVG32, util_est, UTIL_EST),
	I64("removed.load_avg", cfsr_truth_cfs_rq, removed_load_avg),
	I64("removed.util_avg", cfsr_truth_cfs_rq, removed_util_avg),
	I64("removed.runnable_avg", cfsr_truth_cfs_rq, removed_runnable_avg),
	I64("tg_load_avg_contrib", cfsr_truth_cfs_rq, tg_load_avg_contrib),
	I64("tg_load_avg", cfsr_truth_cfs_rq, tg_load_avg),
	I64("nr_queued", cfsr_truth_cfs_rq, nr_queued),
	I64("h_nr_queued", cfsr_truth_cfs_rq, h_nr_queued),
	I64("h_nr_runnable", cfsr_truth_cfs_rq, h_nr_runnable),
	I64("h_nr_idle", cfsr_truth_cfs_rq, h_nr_idle),
	I64("se->load.weight", cfsr_truth_cfs_rq, se_weight),
	CFS_SE_AVG("se->avg.load_avg", load_avg, LOAD_AVG),
	CFS_SE_AVG("se->avg.runnable_avg", runnable_avg, RUNNABLE_AVG),
	CFS_SE_AVG("se->avg.util_avg", util_avg, UTIL_AVG),
	I64("se->exec_start", cfsr_truth_cfs_rq, se_exec_start),
	I64("se->vruntime", cfsr_truth_cfs_rq, se_vruntime),
	I64("se->sum_exec_runtime", cfsr_truth_cfs_rq, se_sum_exec_runtime),
};

static const struct field cpu_fields[] = {
	I64("seq", cfsr_truth_cpu, seq),
	I64("cpu", cfsr_truth_cpu, cpu),
	I64("clock", cfsr_truth_cpu, clock),
	I64("clock_task", cfsr_truth_cpu, clock_task),
	I64("nr_running", cfsr_truth_cpu, nr_running),
	I64("nr_switches", cfsr_truth_cpu, nr_switches),
	I64("curr->pid", cfsr_truth_cpu, curr_pid),
};

static const struct field cgroup_fields[] = {
	I64("seq", cfsr_truth_cgroup, seq),	      I64("version", cfsr_truth_cgroup, version),
	STR("path", cfsr_truth_cgroup, path),	      I64("cpu.shares", cfsr_truth_cgroup, shares),
	I64("cpu.weight", cfsr_truth_cgroup, weight), I64("cpu.idle", cfsr_truth_cgroup, idle),
};

static const struct field other_fields[] = {
	I64("seq", cfsr_truth_other, seq),
	I64("cpu", cfsr_truth_other, cpu),
	STR("kind", cfsr_truth_other, kind),
};

#define REC(k, m) I64(k, cfsr_pelt_rec, m)
#define REC_AVG(k, t, m, b) AVG(k, t, cfsr_pelt_rec, avg.m, avg_fields, b)
static const struct field pelt_fields[] = {
	STR("type", cfsr_pelt_rec, type_name),
	REC("ts", ts),
	REC("ktime", ktime),
	REC("cpu", cpu),
	REC("rq_cpu", rq_cpu),
	REC("clock", clock),
	REC("clock_task", clock_task),
	REC("clock_pelt", clock_pelt),
	REC("lost_idle_time", lost_idle_time),
	REC("rq_nr_running", rq_nr_running),
	REC_AVG("last_update_time", F_AVG64, last_update_time, LAST_UPDATE_TIME),
	REC_AVG("load_sum", F_AVG64, load_sum, LOAD_SUM),
	REC_AVG("runnable_sum", F_AVG64, runnable_sum, RUNNABLE_SUM),
	REC_AVG("util_sum", F_AVG32, util_sum, UTIL_SUM),
	REC_AVG("period_contrib", F_AVG32, period_contrib, PERIOD_CONTRIB),
	REC_AVG("load_avg", F_AVG64, load_avg, LOAD_AVG),
	REC_AVG("runnable_avg", F_AVG64, runnable_avg, RUNNABLE_AVG),
	REC_AVG("util_avg", F_AVG64, util_avg, UTIL_AVG),
	REC_AVG("util_est", F_AVG32, util_est, UTIL_EST),
	REC("obj", obj),
	REC("parent_obj", parent_obj),
	REC("pid", pid),
	REC("tid", tid),
	FLD("comm", F_COMM, cfsr_pelt_rec, comm),
	REC("weight", weight),
	REC("on_rq", on_rq),
	REC("sched_delayed", sched_delayed),
	REC("depth", depth),
	REC("exec_start", exec_start),
	REC("sum_exec_runtime", sum_exec_runtime),
	STR("parent_tg", cfsr_pelt_rec, parent_tg),
	REC("parent_cg_id", parent_cg_id),
	REC("parent_autogroup", parent_autogroup),
	REC("parent_root", parent_root),
	REC("group", group),
	STR("tg", cfsr_pelt_rec, tg),
	REC("cg_id", cg_id),
	REC("autogroup", autogroup),
	REC("root", root),
	REC("level", level),
	REC("nr_queued", nr_queued),
	REC("h_nr_queued", h_nr_queued),
	REC("h_nr_runnable", h_nr_runnable),
	REC("h_nr_idle", h_nr_idle),
	REC("tg_load_avg_contrib", tg_load_avg_contrib),
	REC("tg_load_avg", tg_load_avg),
	REC("tg_shares", tg_shares),
	REC("propagate", propagate),
	REC("prop_runnable_sum", prop_runnable_sum),
	REC("removed_nr", removed_nr),
	REC("removed_load_avg", removed_load_avg),
	REC("removed_util_avg", removed_util_avg),
	REC("removed_runnable_avg", removed_runnable_avg),
	REC("on_list", on_list),
	REC("vruntime", vruntime),
	REC("deadline", deadline),
	REC("vlag", vlag),
	REC("slice", slice),
	REC("rel_deadline", rel_deadline),
	REC("curr", curr),
	REC("zero_vruntime", zero_vruntime),
	REC("avg_vruntime", avg_vruntime),
	REC("avg_load", avg_load),
	REC("curr_vruntime", curr_vruntime),
	REC("curr_weight", curr_weight),
	REC("n", n),
	REC("mono_before", mono_before),
	REC("mono_after", mono_after),
	REC("ok", ok),
	REC("trace_ts", trace_ts),
	REC("prev_pid", prev_pid),
	REC("next_pid", next_pid),
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- JSON values ----------------------------------------------------------------------------- */

/* 2^63 as a double, exactly. */
#define TWO_POW_63 9223372036854775808.0

/*
 * An integer member.  json-c saturates literals beyond the int64 range
 * (strtoll), and keeps those between 2^63 and 2^64 as uint64, which
 * json_object_get_int64() turns into INT64_MAX; both ends are refused, so
 * that no value is silently clamped and none equals CFSR_TRUTH_NONE.  An
 * integral double (5007.0) and a boolean are accepted as integers.
 */
static int json_to_i64(struct json_object *v, int64_t *out)
{
	double d;

	switch (json_object_get_type(v)) {
	case json_type_int:
		*out = json_object_get_int64(v);
		if (*out == INT64_MIN || *out == INT64_MAX)
			return -1;
		return 0;
	case json_type_double:
		d = json_object_get_double(v);
		if (!(d > -TWO_POW_63 && d < TWO_POW_63) || (double)(int64_t)d != d)
			return -1;
		*out = (int64_t)d;
		return 0;
	case json_type_boolean:
		*out = json_object_get_boolean(v) ? 1 : 0;
		return 0;
	default:
		return -1;
	}
}

/* An unsigned member, 0..@max. */
static int json_to_u64(struct json_object *v, uint64_t max, uint64_t *out)
{
	int64_t i;
	double d;

	switch (json_object_get_type(v)) {
	case json_type_int:
		i = json_object_get_int64(v);
		if (i < 0)
			return -1;
		*out = i == INT64_MAX ? json_object_get_uint64(v) : (uint64_t)i;
		break;
	case json_type_double:
		d = json_object_get_double(v);
		if (!(d >= 0 && d < 2 * TWO_POW_63) || (double)(uint64_t)d != d)
			return -1;
		*out = (uint64_t)d;
		break;
	default:
		return -1;
	}
	return *out <= max ? 0 : -1;
}

static void set_default(const struct field *f, void *base)
{
	char *p = (char *)base + f->off;

	switch (f->type) {
	case F_I64:
		*(int64_t *)p = CFSR_TRUTH_NONE;
		break;
	case F_AVG64:
		*(uint64_t *)p = 0;
		break;
	case F_AVG32:
		*(uint32_t *)p = 0;
		break;
	case F_STR:
		*(const char **)p = NULL;
		break;
	case F_COMM:
		p[0] = '\0';
		break;
	case F_CHAR:
		*p = '\0';
		break;
	case F_PRESENT:
		*(bool *)p = false;
		break;
	}
}

/* Store member @v; on a bad value, say why in @why and return -1. */
static int set_value(const struct field *f, struct json_object *v, void *base, char *why,
		     size_t why_len)
{
	char *p = (char *)base + f->off;
	const char *s;
	uint64_t u;
	size_t len;

	switch (f->type) {
	case F_I64:
		if (json_to_i64(v, (int64_t *)p) < 0)
			goto bad_number;
		return 0;
	case F_AVG64:
	case F_AVG32:
		if (json_to_u64(v, f->type == F_AVG32 ? UINT32_MAX : UINT64_MAX, &u) < 0)
			goto bad_number;
		if (f->type == F_AVG32)
			*(uint32_t *)p = (uint32_t)u;
		else
			*(uint64_t *)p = u;
		*(unsigned int *)((char *)base + f->mask_off) |= f->bit;
		return 0;
	case F_PRESENT:
		*(bool *)p = true;
		return 0;
	case F_STR:
	case F_COMM:
	case F_CHAR:
		break;
	}
	if (!json_object_is_type(v, json_type_string)) {
		snprintf(why, why_len, "member '%s' is not a string", f->key);
		return -1;
	}
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	if (f->type == F_STR) {
		*(const char **)p = s;
	} else if (f->type == F_COMM) {
		if (len > CFSR_COMM_LEN - 1)
			len = CFSR_COMM_LEN - 1;
		memcpy(p, s, len);
		p[len] = '\0';
	} else {
		*p = s[0];
	}
	return 0;

bad_number:
	snprintf(why, why_len, "member '%s' is not an integer in range", f->key);
	return -1;
}

/*
 * Fill the struct at @base from @obj.  A member that is missing or null is
 * absent; a member present with an unusable value makes the line malformed.
 * With @obj NULL, every member is set absent.
 */
static int fill(const struct field *fields, size_t nr, struct json_object *obj, void *base,
		char *why, size_t why_len)
{
	struct json_object *v;
	size_t i;

	for (i = 0; i < nr; i++)
		set_default(&fields[i], base);
	for (i = 0; obj && i < nr; i++) {
		if (!json_object_object_get_ex(obj, fields[i].key, &v) || !v)
			continue;
		if (set_value(&fields[i], v, base, why, why_len) < 0)
			return -1;
	}
	return 0;
}

/* ---- reading lines --------------------------------------------------------------------------- */

/* Read the next block.  Return: 1 with data, 0 at the end of the file, -1 on error. */
static int read_block(struct cfsr_truth_reader *r)
{
	const char *msg;
	int n, err;

	n = gzread(r->gz, r->in, TRUTH_BLOCK);
	if (n > 0) {
		r->in_len = (size_t)n;
		r->in_pos = 0;
		return 1;
	}
	/* zlib returns 0, not -1, for a gzip stream that ends early: ask. */
	msg = gzerror(r->gz, &err);
	switch (err) {
	case Z_OK:
	case Z_STREAM_END:
		if (n == 0)
			return 0;
		return cfsr_error("cannot read '%s': read error", r->path);
	case Z_BUF_ERROR:
		return cfsr_error("cannot read '%s': file truncated (gzip data ends early)",
				  r->path);
	case Z_DATA_ERROR:
		return cfsr_error("cannot read '%s': corrupt gzip data (%s)", r->path, msg);
	case Z_MEM_ERROR:
		return cfsr_error("cannot read '%s': out of memory", r->path);
	case Z_ERRNO:
		return cfsr_error_errno("cannot read '%s'", r->path);
	default:
		return cfsr_error("cannot read '%s': %s", r->path, msg);
	}
}

/*
 * Read one line into r->buf (NUL-terminated, newline removed).
 * Return: 1 for a line, 0 at the end of the file, -1 on error.
 */
static int read_line(struct cfsr_truth_reader *r)
{
	size_t len = 0, take, avail;
	const char *p, *nl;
	int ret;

	r->complete = false;
	for (;;) {
		if (r->in_pos == r->in_len) {
			ret = read_block(r);
			if (ret < 0)
				return -1;
			if (ret == 0)
				break;
		}
		p = r->in + r->in_pos;
		avail = r->in_len - r->in_pos;
		nl = memchr(p, '\n', avail);
		take = nl ? (size_t)(nl - p) : avail;
		if (take > TRUTH_MAX_LINE - len)
			return cfsr_error("cannot read '%s': line %" PRId64
					  " is longer than %u bytes",
					  r->path, r->lineno + 1, TRUTH_MAX_LINE);
		if (CFSR_ALLOC_GROW(r->buf, len + take + 1, r->alloc) < 0)
			return cfsr_error("cannot read '%s': out of memory", r->path);
		memcpy(r->buf + len, p, take);
		len += take;
		r->in_pos += take;
		if (nl) {
			r->in_pos++;
			r->complete = true;
			break;
		}
	}
	if (!len && !r->complete)
		return 0;
	r->buf[len] = '\0';
	r->len = len;
	r->lineno++;
	return 1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static bool line_is_blank(const struct cfsr_truth_reader *r)
{
	size_t i;

	for (i = 0; i < r->len; i++) {
		if (!is_space(r->buf[i]))
			return false;
	}
	return true;
}

/* Parse the current line.  Return: an owned JSON object, or NULL with @why set. */
static struct json_object *parse_line(struct cfsr_truth_reader *r, char *why, size_t why_len)
{
	enum json_tokener_error jerr;
	struct json_object *obj;
	size_t end;

	if (memchr(r->buf, '\0', r->len)) {
		snprintf(why, why_len, "NUL byte in line");
		return NULL;
	}
	json_tokener_reset(r->tok);
	obj = json_tokener_parse_ex(r->tok, r->buf, (int)r->len);
	jerr = json_tokener_get_error(r->tok);
	if (!obj) {
		if (jerr == json_tokener_continue)
			snprintf(why, why_len, "incomplete JSON value");
		else if (jerr == json_tokener_success)
			snprintf(why, why_len, "not a JSON object");
		else
			snprintf(why, why_len, "invalid JSON: %s", json_tokener_error_desc(jerr));
		return NULL;
	}
	for (end = json_tokener_get_parse_end(r->tok); end < r->len; end++) {
		if (!is_space(r->buf[end])) {
			snprintf(why, why_len, "text after the JSON object");
			goto out_put;
		}
	}
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(why, why_len, "not a JSON object");
		goto out_put;
	}
	return obj;

out_put:
	json_object_put(obj);
	return NULL;
}

/* The string member @key of @obj, or NULL. */
static const char *get_string(struct json_object *obj, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* ---- decoding -------------------------------------------------------------------------------- */

static int decode_snapshot_line(struct json_object *obj, struct cfsr_truth_item *out, char *why,
				size_t why_len)
{
	const char *kind = get_string(obj, "kind");

	if (!kind) {
		snprintf(why, why_len, "no string member 'kind'");
		return -1;
	}
	if (!strcmp(kind, "snap")) {
		out->kind = CFSR_TRUTH_SNAP;
		return fill(snap_fields, ARRAY_SIZE(snap_fields), obj, &out->snap, why, why_len);
	}
	if (!strcmp(kind, "task")) {
		out->kind = CFSR_TRUTH_TASK;
		return fill(task_fields, ARRAY_SIZE(task_fields), obj, &out->task, why, why_len);
	}
	if (!strcmp(kind, "cfs_rq")) {
		out->kind = CFSR_TRUTH_CFS_RQ;
		if (fill(cfs_rq_fields, ARRAY_SIZE(cfs_rq_fields), obj, &out->cfs_rq, why,
			 why_len) < 0)
			return -1;
		out->cfs_rq.has_se =
			out->cfs_rq.se_weight != CFSR_TRUTH_NONE || out->cfs_rq.se_avg_fields;
		return 0;
	}
	if (!strcmp(kind, "cpu")) {
		out->kind = CFSR_TRUTH_CPU;
		return fill(cpu_fields, ARRAY_SIZE(cpu_fields), obj, &out->cpu, why, why_len);
	}
	if (!strcmp(kind, "cgroup")) {
		out->kind = CFSR_TRUTH_CGROUP;
		return fill(cgroup_fields, ARRAY_SIZE(cgroup_fields), obj, &out->cgroup, why,
			    why_len);
	}
	out->kind = CFSR_TRUTH_OTHER;
	return fill(other_fields, ARRAY_SIZE(other_fields), obj, &out->other, why, why_len);
}

static int decode_pelt_line(struct cfsr_truth_reader *r, struct json_object *obj, bool first,
			    struct cfsr_truth_item *out, char *why, size_t why_len)
{
	const char *type = get_string(obj, "type");
	struct cfsr_pelt_rec *rec = &out->pelt;

	if (!type) {
		snprintf(why, why_len, "no string member 'type'");
		return -1;
	}
	out->kind = CFSR_TRUTH_PELT;
	rec->type = pelt_type_of(type);
	if (rec->type == CFSR_PELT_HDR && !first) {
		snprintf(why, why_len, "header line after line 1");
		return -1;
	}
	if (rec->type == CFSR_PELT_HDR) {
		/* its members (clock, counts, ...) are not a record's; see parse_hdr() */
		fill(pelt_fields, ARRAY_SIZE(pelt_fields), NULL, rec, why, why_len);
		rec->type_name = pelt_type_names[CFSR_PELT_HDR];
		rec->hdr = &r->hdr;
		return 0;
	}
	return fill(pelt_fields, ARRAY_SIZE(pelt_fields), obj, rec, why, why_len);
}

/* Decode r->cur.  Return: 0, or -1 with @why set for a malformed line. */
static int decode(struct cfsr_truth_reader *r, bool first, struct cfsr_truth_item *out, char *why,
		  size_t why_len)
{
	memset(out, 0, sizeof(*out));
	out->line = r->cur_line;
	if (r->format == CFSR_TRUTH_FMT_SNAPSHOTS)
		return decode_snapshot_line(r->cur, out, why, why_len);
	return decode_pelt_line(r, r->cur, first, out, why, why_len);
}

/* ---- the pelt.jsonl header ------------------------------------------------------------------- */

/* Integer member @key of @obj into *@out, left as is when absent. */
static int hdr_int(struct json_object *obj, const char *key, int64_t *out, char *why,
		   size_t why_len)
{
	struct json_object *v;

	if (!obj || !json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	if (json_to_i64(v, out) == 0)
		return 0;
	snprintf(why, why_len, "member '%s' is not an integer in range", key);
	return -1;
}

/* Object member @key of @obj; NULL when absent; -1 when not an object. */
static int hdr_object(struct json_object *obj, const char *key, struct json_object **out, char *why,
		      size_t why_len)
{
	*out = NULL;
	if (!json_object_object_get_ex(obj, key, out) || !*out)
		return 0;
	if (json_object_is_type(*out, json_type_object))
		return 0;
	snprintf(why, why_len, "member '%s' is not an object", key);
	*out = NULL;
	return -1;
}

static int parse_cgroup_ids(struct cfsr_truth_reader *r, struct json_object *map, char *why,
			    size_t why_len)
{
	struct json_object_iterator it = json_object_iter_begin(map);
	struct json_object_iterator end = json_object_iter_end(map);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		struct cfsr_pelt_cgroup *cg;
		unsigned long long id;
		char *endp;

		errno = 0;
		id = strtoull(key, &endp, 10);
		if (!key[0] || *endp || errno || key[0] == '-' || key[0] == '+' || key[0] == ' ') {
			snprintf(why, why_len, "cgroup_ids: '%.64s' is not a cgroup id", key);
			return -1;
		}
		if (!json_object_is_type(v, json_type_string)) {
			snprintf(why, why_len, "cgroup_ids: path of %llu is not a string", id);
			return -1;
		}
		if (CFSR_ALLOC_GROW(r->cgroups, r->nr_cgroups + 1, r->alloc_cgroups) < 0)
			goto out_nomem;
		cg = &r->cgroups[r->nr_cgroups];
		cg->path = strdup(json_object_get_string(v));
		if (!cg->path)
			goto out_nomem;
		cg->id = id;
		r->nr_cgroups++;
	}
	return 0;

out_nomem:
	snprintf(why, why_len, "out of memory");
	return -1;
}

/* Read the header from r->cur.  Return: 0, or -1 with @why set. */
static int parse_hdr(struct cfsr_truth_reader *r, char *why, size_t why_len)
{
	struct cfsr_pelt_hdr *h = &r->hdr;
	struct json_object *clock, *counts, *kc, *ids, *v;
	const char *format;
	int i;

	h->loader_pid = h->offset_ns = h->precision_ns = CFSR_TRUTH_NONE;
	h->sent = h->dropped = CFSR_TRUTH_NONE;
	for (i = 0; i < CFSR_PELT_NR; i++)
		h->counts[i] = CFSR_TRUTH_NONE;

	if (json_object_object_get_ex(r->cur, "format", &v) && v) {
		format = get_string(r->cur, "format");
		if (!format) {
			snprintf(why, why_len, "member 'format' is not a string");
			return -1;
		}
		r->hdr_format = strdup(format);
		if (!r->hdr_format) {
			snprintf(why, why_len, "out of memory");
			return -1;
		}
		h->format = r->hdr_format;
	}
	if (hdr_int(r->cur, "loader_pid", &h->loader_pid, why, why_len) < 0 ||
	    hdr_object(r->cur, "clock", &clock, why, why_len) < 0 ||
	    hdr_int(clock, "offset_ns", &h->offset_ns, why, why_len) < 0 ||
	    hdr_int(clock, "precision_ns", &h->precision_ns, why, why_len) < 0 ||
	    hdr_object(r->cur, "kernel_counters", &kc, why, why_len) < 0 ||
	    hdr_int(kc, "sent", &h->sent, why, why_len) < 0 ||
	    hdr_int(kc, "dropped", &h->dropped, why, why_len) < 0 ||
	    hdr_object(r->cur, "counts", &counts, why, why_len) < 0 ||
	    hdr_object(r->cur, "cgroup_ids", &ids, why, why_len) < 0)
		return -1;
	if (clock && json_object_object_get_ex(clock, "trace_clock", &v) && v) {
		format = get_string(clock, "trace_clock");
		if (!format) {
			snprintf(why, why_len, "member 'trace_clock' is not a string");
			return -1;
		}
		r->hdr_trace_clock = strdup(format);
		if (!r->hdr_trace_clock) {
			snprintf(why, why_len, "out of memory");
			return -1;
		}
		h->trace_clock = r->hdr_trace_clock;
	}
	for (i = 0; counts && i < CFSR_PELT_OTHER; i++) {
		if (hdr_int(counts, pelt_type_names[i], &h->counts[i], why, why_len) < 0)
			return -1;
	}
	if (ids && parse_cgroup_ids(r, ids, why, why_len) < 0)
		return -1;
	h->nr_cgroup_ids = r->nr_cgroups;
	h->cgroup_ids = r->cgroups;
	return 0;
}

/* ---- open, next, close ----------------------------------------------------------------------- */

/* Note a skipped line; the first one's reason is kept for the caller. */
static void skip_line(struct cfsr_truth_reader *r, int64_t line, const char *why)
{
	r->skipped++;
	if (r->skip_reason)
		return;
	if (asprintf(&r->skip_reason, "'%s' line %" PRId64 ": %s", r->path, line, why) < 0)
		r->skip_reason = NULL;
}

/*
 * Read lines up to the next one that parses into an object, into r->cur.
 * Lines that do not parse are skipped, or with @strict an error (the first
 * line, which has to say what the file is).
 * Return: 1, 0 at the end of the file, -1 on error.
 */
static int next_object(struct cfsr_truth_reader *r, bool strict)
{
	char why[TRUTH_WHY_LEN];
	int ret;

	for (;;) {
		ret = read_line(r);
		if (ret <= 0)
			return ret;
		if (line_is_blank(r))
			continue;
		r->cur = parse_line(r, why, sizeof(why));
		r->cur_line = r->lineno;
		if (r->cur)
			return 1;
		if (strict)
			return cfsr_error(
				"cannot read '%s': not a truth.jsonl or pelt.jsonl file (line %" PRId64
				": %s)",
				r->path, r->lineno, why);
		if (!r->complete)
			return cfsr_error("cannot read '%s': line %" PRId64
					  ": file truncated (incomplete last line: %s)",
					  r->path, r->lineno, why);
		skip_line(r, r->lineno, why);
	}
}

/*
 * A trace.dat written by 'cfsreplay record' carries its snapshots as a gzip
 * stream in a section of its own (CFSR_SEC_TRUTH): position @fd there.
 * zlib stops at the end of that stream and ignores the bytes after it.
 */
static int seek_embedded(const char *path, int fd)
{
	static const unsigned char magic[] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};
	unsigned char head[sizeof(magic)];
	struct td_layout l;
	uint64_t off, size;
	bool compressed;
	int ret = -1;

	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(head, magic, sizeof(magic)))
		return 0;
	if (td_layout_read(path, fd, &l) < 0)
		return cfsr_error("cannot read '%s': trace.dat file truncated or corrupt", path);
	if (!l.sec_record_truth)
		cfsr_error(
			"'%s' holds no kernel snapshots (it was not recorded by 'cfsreplay record')",
			path);
	else if (td_section_extent(fd, &l, l.sec_record_truth, &compressed, &off, &size) < 0 ||
		 compressed || lseek(fd, (off_t)off, SEEK_SET) < 0)
		cfsr_error("cannot read '%s': its kernel snapshots section is corrupt", path);
	else
		ret = 0;
	td_layout_release(&l);
	return ret;
}

static int open_fd(const char *path)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cfsr_error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		cfsr_error_errno("cannot stat '%s'", path);
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		cfsr_error("cannot read '%s': is a directory", path);
		goto out_close;
	}
	if (seek_embedded(path, fd) < 0)
		goto out_close;
	return fd;

out_close:
	close(fd);
	return -1;
}

struct cfsr_truth_reader *cfsr_truth_open(const char *path)
{
	struct cfsr_truth_reader *r;
	char why[TRUTH_WHY_LEN];
	struct json_object *v;
	const char *type;
	int fd, ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		goto out_nomem;
	r->path = strdup(path);
	r->in = malloc(TRUTH_BLOCK);
	r->tok = json_tokener_new();
	if (!r->path || !r->in || !r->tok)
		goto out_close_nomem;
	fd = open_fd(path);
	if (fd < 0)
		goto out_close;
	r->gz = gzdopen(fd, "rb");
	if (!r->gz) {
		close(fd);
		goto out_close_nomem;
	}
	gzbuffer(r->gz, TRUTH_BLOCK);

	ret = next_object(r, true);
	if (ret < 0)
		goto out_close;
	if (ret == 0) {
		cfsr_error("cannot read '%s': file is empty", path);
		goto out_close;
	}
	type = get_string(r->cur, "type");
	if (json_object_object_get_ex(r->cur, "kind", &v)) {
		r->format = CFSR_TRUTH_FMT_SNAPSHOTS;
	} else if (type && !strcmp(type, "hdr")) {
		r->format = CFSR_TRUTH_FMT_PELT;
		if (parse_hdr(r, why, sizeof(why)) < 0) {
			cfsr_error("cannot read '%s': line %" PRId64 ": bad pelt.jsonl header: %s",
				   path, r->cur_line, why);
			goto out_close;
		}
	} else {
		cfsr_error(
			"cannot read '%s': not a truth.jsonl or pelt.jsonl file (first object has neither \"kind\" nor \"type\": \"hdr\")",
			path);
		goto out_close;
	}
	r->pending = true;
	return r;

out_close_nomem:
	cfsr_truth_close(r);
out_nomem:
	cfsr_error("cannot open '%s': out of memory", path);
	return NULL;
out_close:
	cfsr_truth_close(r);
	return NULL;
}

int cfsr_truth_next(struct cfsr_truth_reader *r, struct cfsr_truth_item *out)
{
	char why[TRUTH_WHY_LEN];
	bool first;
	int ret;

	if (r->failed)
		return -1;
	first = r->pending;
	if (!r->pending) {
		json_object_put(r->cur);
		r->cur = NULL;
		ret = next_object(r, false);
		if (ret <= 0)
			goto out;
	}
	r->pending = false;
	for (;;) {
		if (decode(r, first, out, why, sizeof(why)) == 0)
			return 1;
		skip_line(r, r->cur_line, why);
		json_object_put(r->cur);
		r->cur = NULL;
		first = false;
		ret = next_object(r, false);
		if (ret <= 0)
			goto out;
	}

out:
	if (ret < 0)
		r->failed = true;
	return ret;
}

void cfsr_truth_close(struct cfsr_truth_reader *r)
{
	size_t i;

	if (!r)
		return;
	if (r->gz)
		gzclose(r->gz);
	json_object_put(r->cur);
	if (r->tok)
		json_tokener_free(r->tok);
	for (i = 0; i < r->nr_cgroups; i++)
		free((char *)r->cgroups[i].path);
	free(r->cgroups);
	free(r->hdr_format);
	free(r->hdr_trace_clock);
	free(r->skip_reason);
	free(r->buf);
	free(r->in);
	free(r->path);
	free(r);
}

enum cfsr_truth_format cfsr_truth_format(const struct cfsr_truth_reader *r)
{
	return r->format;
}

const struct cfsr_pelt_hdr *cfsr_truth_pelt_hdr(const struct cfsr_truth_reader *r)
{
	return r->format == CFSR_TRUTH_FMT_PELT ? &r->hdr : NULL;
}

uint64_t cfsr_truth_skipped(const struct cfsr_truth_reader *r)
{
	return r->skipped;
}

const char *cfsr_truth_skip_reason(const struct cfsr_truth_reader *r)
{
	return r->skip_reason;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's scheduler state, read from procfs, sysfs and debugfs for the
 * recorder: snapshots in the shape of truth.jsonl (kinds snap, task, cpu,
 * cfs_rq, rt_rq, dl_rq; see lib/truth.h and docs/RECORD-FORMAT.md) and the
 * machine's facts for the metadata section.
 *
 * Values the kernel prints as "ms.nnnnnn" (SPLIT_NS() in
 * kernel/sched/debug.c) become integer nanoseconds, as in truth.jsonl;
 * integers stay as printed.  Files that vanish while they are read (a task
 * exits) are not errors: the row says so with "read_errors".
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <json-c/json.h>
#include <zlib.h>

#include "alloc.h"
#include "error.h"
#include "record-local.h"

#define RS_LINE 4096

char *rs_read_file(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, alloc = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (CFSR_ALLOC_GROW(buf, n + 4097, alloc) < 0) {
			free(buf);
			fclose(f);
			return NULL;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A small file's content with its trailing newline and blanks removed; NULL if unreadable. */
static char *read_small(const char *path)
{
	size_t len;
	char *buf = rs_read_file(path, &len);

	if (!buf)
		return NULL;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	buf[len] = '\0';
	return buf;
}

int rs_parse_value(const char *s, int64_t *out)
{
	int64_t ip = 0, frac = 0;
	bool neg = false;
	int digits = 0, fd = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-') {
		neg = true;
		s++;
	}
	while (isdigit((unsigned char)*s) && digits < 18) {
		ip = ip * 10 + (*s++ - '0');
		digits++;
	}
	if (!digits || isdigit((unsigned char)*s))
		return -1;
	if (*s == '.') {
		s++;
		while (isdigit((unsigned char)*s) && fd < 6) {
			frac = frac * 10 + (*s++ - '0');
			fd++;
		}
		if (isdigit((unsigned char)*s) || ip > INT64_MAX / 1000000 - 1)
			return -1;
		while (fd++ < 6)
			frac *= 10;
		ip = ip * 1000000 + frac;
	}
	if (*s && *s != ' ' && *s != '\n')
		return -1;
	*out = neg ? -ip : ip;
	return 0;
}

/* Add "key : value" of one line to @obj; a leading '.' of the key is dropped. */
static void add_key_value(struct json_object *obj, const char *line)
{
	const char *colon = strchr(line, ':');
	char key[128];
	size_t klen;
	int64_t v;

	if (!colon)
		return;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line == '.')
		line++;
	klen = (size_t)(colon - line);
	while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
		klen--;
	if (!klen || klen >= sizeof(key) || rs_parse_value(colon + 1, &v) < 0)
		return;
	memcpy(key, line, klen);
	key[klen] = '\0';
	json_object_object_add(obj, key, json_object_new_int64(v));
}

static int emit(FILE *out, struct json_object *obj)
{
	int ret = fprintf(out, "%s\n", json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN));

	json_object_put(obj);
	return ret < 0 ? -1 : 0;
}

/* ---- tasks ----------------------------------------------------------------------------------- */

/* /proc/PID/task/TID/sched: "comm (tid, #threads: n)", then key : value lines. */
static bool read_task_sched(const char *dir, struct json_object *row)
{
	char path[256], line[RS_LINE];
	bool first = true;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sched", dir);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (first) {
			char *p = strrchr(line, '(');
			int threads;

			first = false;
			if (p && p > line) {
				p[-1] = '\0';
				json_object_object_add(row, "sched_comm",
						       json_object_new_string(line));
				if (sscanf(p + 1, "%*d, #threads: %d", &threads) == 1)
					json_object_object_add(row, "threads",
							       json_object_new_int(threads));
			}
			continue;
		}
		add_key_value(row, line);
	}
	first = !ferror(f);
	fclose(f);
	return first;
}

/* /proc/PID/task/TID/stat: state, ppid, nice, cpu, policy ... after the comm. */
static bool read_task_stat(const char *dir, struct json_object *row)
{
	static const struct {
		int idx;
		const char *key;
	} fields[] = {
		{ 1, "ppid" },	       { 2, "pgrp" },		{ 3, "session" },
		{ 6, "stat_flags" },   { 15, "stat_priority" }, { 16, "nice" },
		{ 17, "num_threads" }, { 36, "cpu" },		{ 37, "rt_priority" },
		{ 38, "stat_policy" },
	};
	char path[256], *buf, *p, *end, *tok, *save = NULL;
	size_t i;
	int idx;

	snprintf(path, sizeof(path), "%s/stat", dir);
	buf = read_small(path);
	if (!buf)
		return false;
	p = strchr(buf, '(');
	end = strrchr(buf, ')');
	if (!p || !end || end < p) {
		free(buf);
		return false;
	}
	*end = '\0';
	json_object_object_add(row, "stat_comm", json_object_new_string(p + 1));
	for (idx = 0, tok = strtok_r(end + 2, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), idx++) {
		if (idx == 0) {
			char st[2] = { tok[0], '\0' };

			json_object_object_add(row, "state", json_object_new_string(st));
			continue;
		}
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (fields[i].idx == idx)
				json_object_object_add(
					row, fields[i].key,
					json_object_new_int64(strtoll(tok, NULL, 10)));
	}
	free(buf);
	return true;
}

/* The cpu controller's cgroup (v1 "N:...cpu...:/path"), and the v2 one ("0::/path"). */
static void read_task_cgroup(const char *dir, struct json_object *row)
{
	char path[256], line[RS_LINE];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *tok, *save;
		size_t n;

		if (!c2)
			continue;
		n = strlen(c2 + 1);
		if (n && c2[n] == '\n')
			c2[n] = '\0';
		*c2 = '\0';
		if (!strcmp(line, "0") && c1[1] == '\0') {
			json_object_object_add(row, "cgroup_v2", json_object_new_string(c2 + 1));
			continue;
		}
		for (tok = strtok_r(c1 + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "cpu"))
				json_object_object_add(row, "cgroup_cpu",
						       json_object_new_string(c2 + 1));
	}
	fclose(f);
}

/* "/autogroup-24 nice 0" of /proc/PID/autogroup. */
static void read_task_autogroup(int pid, struct json_object *row)
{
	char path[64], name[128];
	char *buf;
	int nice;

	snprintf(path, sizeof(path), "/proc/%d/autogroup", pid);
	buf = read_small(path);
	if (!buf)
		return;
	if (sscanf(buf, "%127s nice %d", name, &nice) == 2) {
		json_object_object_add(row, "autogroup", json_object_new_string(name));
		json_object_object_add(row, "autogroup_nice", json_object_new_int(nice));
	}
	free(buf);
}

static void read_task_affinity(const char *dir, struct json_object *row)
{
	char path[256], line[RS_LINE];
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			char *v = line + 18;
			size_t n;

			while (*v == ' ' || *v == '\t')
				v++;
			n = strlen(v);
			if (n && v[n - 1] == '\n')
				v[n - 1] = '\0';
			json_object_object_add(row, "affinity", json_object_new_string(v));
			break;
		}
	}
	fclose(f);
}

static int snapshot_task(FILE *out, long seq, int pid, int tid, bool with_affinity)
{
	struct json_object *row = json_object_new_object();
	const char *comm;
	char dir[64];
	bool ok;

	if (!row)
		return -1;
	snprintf(dir, sizeof(dir), "/proc/%d/task/%d", pid, tid);
	json_object_object_add(row, "seq", json_object_new_int64(seq));
	json_object_object_add(row, "kind", json_object_new_string("task"));
	json_object_object_add(row, "pid", json_object_new_int(pid));
	json_object_object_add(row, "tid", json_object_new_int(tid));
	ok = read_task_sched(dir, row);
	ok = read_task_stat(dir, row) && ok;
	read_task_autogroup(pid, row);
	read_task_cgroup(dir, row);
	if (with_affinity)
		read_task_affinity(dir, row);
	comm = NULL;
	{
		char path[96];
		char *c;

		snprintf(path, sizeof(path), "%s/comm", dir);
		c = read_small(path);
		if (c) {
			json_object_object_add(row, "comm", json_object_new_string(c));
			comm = "";
			free(c);
		}
	}
	if (!ok || !comm)
		json_object_object_add(row, "read_errors", json_object_new_int(1));
	return emit(out, row);
}

/* All threads of process @pid. */
static long snapshot_process(FILE *out, long seq, int pid, bool with_affinity)
{
	char path[64];
	struct dirent *de;
	long rows = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		if (snapshot_task(out, seq, pid, tid, with_affinity) < 0) {
			closedir(d);
			return -1;
		}
		rows++;
	}
	closedir(d);
	return rows;
}

/* @root and its descendants, through /proc/PID/task/TID/children. */
static long snapshot_tree(FILE *out, long seq, int root, bool with_affinity, int depth)
{
	char path[64];
	struct dirent *de;
	long rows, sub;
	DIR *d;

	rows = snapshot_process(out, seq, root, with_affinity);
	if (rows < 0 || depth > 64)
		return rows;
	snprintf(path, sizeof(path), "/proc/%d/task", root);
	d = opendir(path);
	if (!d)
		return rows;
	while ((de = readdir(d))) {
		char cpath[96];
		char *kids, *tok, *save = NULL;
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%d/children", root, tid);
		kids = read_small(cpath);
		if (!kids)
			continue;
		for (tok = strtok_r(kids, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			sub = snapshot_tree(out, seq, atoi(tok), with_affinity, depth + 1);
			if (sub < 0) {
				free(kids);
				closedir(d);
				return -1;
			}
			rows += sub;
		}
		free(kids);
	}
	closedir(d);
	return rows;
}

long rs_snapshot_tasks(FILE *out, long seq, int root, bool with_affinity)
{
	struct dirent *de;
	long rows = 0, n;
	DIR *d;

	if (root > 0)
		return snapshot_tree(out, seq, root, with_affinity, 0);
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		n = snapshot_process(out, seq, pid, with_affinity);
		if (n < 0) {
			closedir(d);
			return -1;
		}
		rows += n;
	}
	closedir(d);
	return rows;
}

/* ---- sched_debug ----------------------------------------------------------------------------- */

static struct json_object *new_row(long seq, const char *kind, int cpu, const char *path)
{
	struct json_object *row = json_object_new_object();

	json_object_object_add(row, "seq", json_object_new_int64(seq));
	json_object_object_add(row, "kind", json_object_new_string(kind));
	json_object_object_add(row, "cpu", json_object_new_int(cpu));
	if (path)
		json_object_object_add(row, "path", json_object_new_string(path));
	return row;
}

static struct json_object *cpu_hierarchies(void);

/*
 * A "cgroup" row per group of each cpu controller hierarchy: its version,
 * path and the files cgroup_walk() reads (cpu.shares, cpu.weight,
 * cpu.idle, ...), as they stand at this snapshot: a write to them shows
 * in no trace event (sched_group_set_shares(), sched_group_set_idle()).
 */
static int cgroup_rows(FILE *rows, long seq)
{
	struct json_object *list = cpu_hierarchies(), *h, *groups, *ver, *row;
	size_t i, j;
	int ret = 0;

	for (i = 0; i < json_object_array_length(list); i++) {
		h = json_object_array_get_idx(list, i);
		if (!json_object_object_get_ex(h, "groups", &groups) ||
		    !json_object_object_get_ex(h, "version", &ver))
			continue;
		for (j = 0; j < json_object_array_length(groups); j++) {
			row = new_row(seq, "cgroup", 0, NULL);
			json_object_object_del(row, "cpu");
			json_object_object_add(row, "version",
					       json_object_new_int(json_object_get_int(ver)));
			json_object_object_foreach(json_object_array_get_idx(groups, j), key, val)
				json_object_object_add(row, key, json_object_get(val));
			if (emit(rows, row) < 0)
				ret = -1;
		}
	}
	json_object_put(list);
	return ret;
}

/*
 * The layout of print_cpu() / print_cfs_rq() in kernel/sched/debug.c:
 * a header of "key : value" lines, "sysctl_sched" with indented values,
 * then per CPU "cpu#N, F MHz", "cfs_rq[N]:PATH", "rt_rq[N]:PATH", "dl_rq[N]:"
 * blocks of indented ".key : value" lines and a "runnable tasks:" table.
 */
int rs_snapshot_debug(FILE *out, long seq, struct json_object **sysctl, long *nr_cfs_rq)
{
	struct json_object *snap = new_row(seq, "snap", 0, NULL), *cur = NULL, *sys = NULL;
	char line[RS_LINE];
	FILE *rows, *f;
	bool in_table = false, in_sysctl = false;
	int ret = 0, c;

	*nr_cfs_rq = 0;
	json_object_object_del(snap, "cpu");
	if (sysctl) {
		sys = json_object_new_object();
		*sysctl = sys;
	}
	/* the snap row must come first: collect the others apart */
	rows = tmpfile();
	if (!rows) {
		json_object_put(snap);
		return -1;
	}
	f = fopen(RS_SCHED_DEBUG, "re");
	if (!f)
		ret = 1;
	while (f && fgets(line, sizeof(line), f)) {
		int cpu;
		char path[RS_LINE];

		if (line[0] != ' ' && line[0] != '\t') {
			in_sysctl = false;
			if (cur && emit(rows, cur) < 0)
				ret = -1;
			cur = NULL;
		}
		if (sscanf(line, "cpu#%d", &cpu) == 1) {
			char *mhz = strchr(line, ',');

			in_table = false;
			cur = new_row(seq, "cpu", cpu, NULL);
			if (mhz) {
				char m[32];

				if (sscanf(mhz + 1, "%31s MHz", m) == 1)
					json_object_object_add(cur, "mhz",
							       json_object_new_string(m));
			}
		} else if (sscanf(line, "cfs_rq[%d]:%4095[^\n]", &cpu, path) == 2) {
			cur = new_row(seq, "cfs_rq", cpu, path);
			++*nr_cfs_rq;
		} else if (sscanf(line, "rt_rq[%d]:%4095[^\n]", &cpu, path) == 2) {
			cur = new_row(seq, "rt_rq", cpu, path);
		} else if (sscanf(line, "dl_rq[%d]:", &cpu) == 1) {
			cur = new_row(seq, "dl_rq", cpu, NULL);
		} else if (!strncmp(line, "runnable tasks:", 15)) {
			in_table = true;
		} else if (!strncmp(line, "sysctl_sched", 12)) {
			in_sysctl = true;
		} else if (cur && !in_table) {
			add_key_value(cur, line);
		} else if (in_sysctl) {
			if (sys)
				add_key_value(sys, line);
		} else if (!in_table && line[0] != ' ') {
			if (!strncmp(line, "sched_clock_stable()", 20))
				memmove(line + 18, line + 20, strlen(line + 20) + 1);
			add_key_value(snap, line);
		}
	}
	if (f)
		fclose(f);
	if (cur && emit(rows, cur) < 0)
		ret = -1;
	if (cgroup_rows(rows, seq) < 0)
		ret = -1;
	if (emit(out, snap) < 0)
		ret = -1;
	rewind(rows);
	while ((c = getc(rows)) != EOF)
		if (putc(c, out) == EOF) {
			ret = -1;
			break;
		}
	fclose(rows);
	return ret;
}

/* ---- debugfs --------------------------------------------------------------------------------- */

bool rs_debugfs_prepare(const char **how)
{
	if (access(RS_SCHED_DEBUG, R_OK) == 0) {
		*how = "debugfs was mounted";
		return true;
	}
	if (access("/sys/kernel/debug/sched", F_OK) == 0) {
		*how = "debugfs is mounted but its sched/debug is not readable";
		return false;
	}
	/* a private mount namespace: the mount is ours alone and ends with us */
	if (unshare(CLONE_NEWNS) < 0) {
		*how = "debugfs is not mounted, and this process may not mount it";
		return false;
	}
	/* source and type are ignored for a propagation change, but must be strings */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) < 0) {
		*how = "debugfs is not mounted, and mounting it failed";
		return false;
	}
	if (access(RS_SCHED_DEBUG, R_OK) < 0) {
		*how = "debugfs mounted in a private mount namespace, but sched/debug is not readable";
		return false;
	}
	*how = "debugfs was not mounted: mounted it in a private mount namespace of the recorder";
	return true;
}

/* ---- machine facts ----------------------------------------------------------------------------- */

/* HZ and a few scheduler options from /proc/config.gz or /boot/config-RELEASE. */
static void config_meta(struct json_object *meta, const char *release)
{
	static const char *const keys[] = {
		"CONFIG_HZ",
		"CONFIG_FAIR_GROUP_SCHED",
		"CONFIG_SCHED_AUTOGROUP",
		"CONFIG_CFS_BANDWIDTH",
		"CONFIG_SMP",
		"CONFIG_NO_HZ_IDLE",
		"CONFIG_NO_HZ_FULL",
		"CONFIG_IRQ_TIME_ACCOUNTING",
		"CONFIG_PARAVIRT_TIME_ACCOUNTING",
		"CONFIG_UCLAMP_TASK",
		"CONFIG_SCHED_DEBUG",
		"CONFIG_PREEMPT_DYNAMIC",
	};
	struct json_object *cfg = json_object_new_object();
	char path[300], line[RS_LINE];
	const char *src = "/proc/config.gz";
	gzFile gz = gzopen(src, "rb");
	int hz = 0;
	size_t i;

	if (!gz) {
		snprintf(path, sizeof(path), "/boot/config-%s", release);
		src = path;
		gz = gzopen(src, "rb");
	}
	while (gz && gzgets(gz, line, sizeof(line))) {
		char *eq = strchr(line, '=');
		size_t n;

		if (!eq || line[0] == '#')
			continue;
		*eq = '\0';
		n = strlen(eq + 1);
		if (n && eq[n] == '\n')
			eq[n] = '\0';
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(line, keys[i]))
				json_object_object_add(cfg, line, json_object_new_string(eq + 1));
		if (!strcmp(line, "CONFIG_HZ"))
			hz = atoi(eq + 1);
	}
	if (gz)
		gzclose(gz);
	json_object_object_add(meta, "hz", hz > 0 ? json_object_new_int(hz) : NULL);
	json_object_object_add(meta, "hz_source",
			       json_object_new_string(hz > 0 ? src : "unknown (no kernel config)"));
	json_object_object_add(meta, "kernel_config", cfg);
}

static void add_file(struct json_object *obj, const char *key, const char *path, bool number)
{
	char *v = read_small(path);
	int64_t n;

	if (!v)
		return;
	if (number && rs_parse_value(v, &n) == 0)
		json_object_object_add(obj, key, json_object_new_int64(n));
	else
		json_object_object_add(obj, key, json_object_new_string(v));
	free(v);
}

/*
 * The caches of CPU directory @base: one object per cache/indexK with its
 * level, type, size, coherency_line_size, number_of_sets,
 * ways_of_associativity and shared_cpu_list (cacheinfo's sysfs files);
 * NULL when the directory has none.
 */
static struct json_object *cpu_caches(const char *base)
{
	struct json_object *a = NULL;
	int k;

	for (k = 0; k < 64; k++) {
		static const struct {
			const char *key, *file;
			bool number;
		} files[] = {
			{ "level", "level", true },
			{ "type", "type", false },
			{ "size", "size", false },
			{ "line_size", "coherency_line_size", true },
			{ "sets", "number_of_sets", true },
			{ "ways", "ways_of_associativity", true },
			{ "shared_cpu_list", "shared_cpu_list", false },
		};
		struct json_object *c;
		char path[192];
		size_t i;

		snprintf(path, sizeof(path), "%s/cache/index%d/level", base, k);
		if (access(path, R_OK) != 0)
			break;
		c = json_object_new_object();
		json_object_object_add(c, "index", json_object_new_int(k));
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/cache/index%d/%s", base, k, files[i].file);
			add_file(c, files[i].key, path, files[i].number);
		}
		if (!a)
			a = json_object_new_array();
		json_object_array_add(a, c);
	}
	return a;
}

/*
 * The scheduling domains of @cpu as debugfs shows them (sched/domains/cpuN/
 * domainM/{name,flags,imbalance_pct,min_interval,max_interval,busy_factor},
 * v5.13+, present while sched_verbose is set or after it was), NULL when
 * unreadable.
 */
static struct json_object *cpu_domains(long cpu, bool debug_ok)
{
	static const char *const numbers[] = { "imbalance_pct", "min_interval", "max_interval",
					       "busy_factor" };
	struct json_object *a = NULL;
	size_t k;
	int m;

	for (m = 0; debug_ok && m < 16; m++) {
		struct json_object *d;
		char path[128];

		snprintf(path, sizeof(path), "/sys/kernel/debug/sched/domains/cpu%ld/domain%d/name",
			 cpu, m);
		if (access(path, R_OK) != 0)
			break;
		d = json_object_new_object();
		json_object_object_add(d, "domain", json_object_new_int(m));
		add_file(d, "name", path, false);
		snprintf(path, sizeof(path),
			 "/sys/kernel/debug/sched/domains/cpu%ld/domain%d/flags", cpu, m);
		add_file(d, "flags", path, false);
		for (k = 0; k < sizeof(numbers) / sizeof(numbers[0]); k++) {
			snprintf(path, sizeof(path),
				 "/sys/kernel/debug/sched/domains/cpu%ld/domain%d/%s", cpu, m,
				 numbers[k]);
			add_file(d, numbers[k], path, true);
		}
		if (!a)
			a = json_object_new_array();
		json_object_array_add(a, d);
	}
	return a;
}

static void cpus_meta(struct json_object *meta, bool debug_ok)
{
	struct json_object *cpus = json_object_new_array();
	long n = sysconf(_SC_NPROCESSORS_CONF), cpu;

	json_object_object_add(meta, "nr_cpus", json_object_new_int64(n));
	json_object_object_add(meta, "nr_cpus_online",
			       json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	for (cpu = 0; cpu < n; cpu++) {
		struct json_object *c = json_object_new_object();
		char path[128], base[64];

		snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu%ld", cpu);
		json_object_object_add(c, "cpu", json_object_new_int64(cpu));
		snprintf(path, sizeof(path), "%s/online", base);
		add_file(c, "online", path, true);
		snprintf(path, sizeof(path), "%s/cpu_capacity", base);
		add_file(c, "capacity", path, true);
		snprintf(path, sizeof(path), "%s/topology/core_id", base);
		add_file(c, "core_id", path, true);
		snprintf(path, sizeof(path), "%s/topology/physical_package_id", base);
		add_file(c, "package_id", path, true);
		snprintf(path, sizeof(path), "%s/topology/die_id", base);
		add_file(c, "die_id", path, true);
		snprintf(path, sizeof(path), "%s/topology/thread_siblings_list", base);
		add_file(c, "thread_siblings", path, false);
		snprintf(path, sizeof(path), "%s/topology/core_siblings_list", base);
		add_file(c, "core_siblings", path, false);
		snprintf(path, sizeof(path), "%s/topology/die_cpus_list", base);
		add_file(c, "die_siblings", path, false);
		snprintf(path, sizeof(path), "%s/cpufreq/cpuinfo_max_freq", base);
		add_file(c, "max_freq_khz", path, true);
		json_object_object_add(c, "caches", cpu_caches(base));
		json_object_object_add(c, "sched_domains", cpu_domains(cpu, debug_ok));
		json_object_array_add(cpus, c);
	}
	json_object_object_add(meta, "cpus", cpus);
}

/* Every file of /sys/kernel/debug/sched that reads as one value; the others listed. */
static void tunables_meta(struct json_object *meta, bool debug_ok)
{
	struct json_object *t = json_object_new_object(), *unreadable = json_object_new_array();
	struct dirent *de;
	DIR *d;

	d = debug_ok ? opendir("/sys/kernel/debug/sched") : NULL;
	while (d && (de = readdir(d))) {
		char path[300];
		char *v;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "debug") ||
		    !strcmp(de->d_name, "verbose"))
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/debug/sched/%s", de->d_name);
		v = read_small(path);
		if (!v || strchr(v, '\n')) {
			json_object_array_add(unreadable, json_object_new_string(de->d_name));
			free(v);
			continue;
		}
		free(v);
		add_file(t, de->d_name, path, true);
	}
	if (d)
		closedir(d);
	json_object_object_add(meta, "sched_debugfs", t);
	json_object_object_add(meta, "sched_debugfs_unreadable", unreadable);

	t = json_object_new_object();
	d = opendir("/proc/sys/kernel");
	while (d && (de = readdir(d))) {
		char path[300];

		if (strncmp(de->d_name, "sched_", 6))
			continue;
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", de->d_name);
		add_file(t, de->d_name, path, true);
	}
	if (d)
		closedir(d);
	json_object_object_add(meta, "sysctl_kernel_sched", t);
}

int rs_parse_sched_features(char *text, struct json_object *names, uint64_t *mask)
{
	char *tok, *save = NULL;
	size_t n = 0;

	*mask = 0;
	for (tok = strtok_r(text, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save), n++) {
		bool off = !strncmp(tok, "NO_", 3);

		if (n >= 64)
			return -1;
		if (!off)
			*mask |= 1ull << n;
		json_object_array_add(names, json_object_new_string(off ? tok + 3 : tok));
	}
	return n ? 0 : -1;
}

/* The feature names of sched/features (debugfs, v5.13+; sched_features before). */
static int feat_names_debugfs(struct json_object *names, bool debug_ok)
{
	static const char *const paths[] = { "/sys/kernel/debug/sched/features",
					     "/sys/kernel/debug/sched_features" };
	char *v = NULL;
	uint64_t mask;
	size_t i;
	int ret;

	for (i = 0; debug_ok && !v && i < sizeof(paths) / sizeof(paths[0]); i++)
		v = read_small(paths[i]);
	if (!v)
		return -1;
	ret = rs_parse_sched_features(v, names, &mask);
	free(v);
	return ret;
}

/*
 * The same names from the kernel's own type information: the enumerators
 * __SCHED_FEAT_<NAME> of the enum that ends in __SCHED_FEAT_NR
 * (kernel/sched/sched.h expands features.h into it), whose values are the
 * bits of sysctl_sched_features.  /sys/kernel/btf/vmlinux is readable
 * where debugfs is locked down.
 */
static int feat_names_btf(struct json_object *names)
{
	static const char prefix[] = "__SCHED_FEAT_";
	const char *by_bit[64] = { NULL };
	struct btf *btf = btf__load_vmlinux_btf();
	__u32 id, nr_types;
	int ret = -1;

	if (!btf)
		return -1;
	nr_types = btf__type_cnt(btf);
	for (id = 1; id < nr_types && ret < 0; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;
		int i, n, nr = -1;

		if (!t || !btf_is_enum(t))
			continue;
		e = btf_enum(t);
		n = btf_vlen(t);
		for (i = 0; i < n; i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), "__SCHED_FEAT_NR"))
				nr = e[i].val;
		if (nr < 0)
			continue;
		if (nr == 0 || nr > 64 || n != nr + 1)
			break;
		for (i = 0; i < n; i++) {
			const char *name = btf__name_by_offset(btf, e[i].name_off);

			if (e[i].val < 0 || e[i].val >= nr || strncmp(name, prefix, strlen(prefix)))
				continue;
			by_bit[e[i].val] = name + strlen(prefix);
		}
		for (i = 0; i < nr && by_bit[i]; i++)
			;
		if (i < nr)
			break;
		for (i = 0; i < nr; i++)
			json_object_array_add(names, json_object_new_string(by_bit[i]));
		ret = 0;
	}
	btf__free(btf);
	return ret;
}

struct json_object *rs_sched_features(bool debug_ok)
{
	struct json_object *o = json_object_new_object(), *names = json_object_new_array();
	const char *source = NULL;

	if (feat_names_debugfs(names, debug_ok) == 0) {
		source = "debugfs sched/features";
	} else {
		json_object_put(names);
		names = json_object_new_array();
		if (feat_names_btf(names) == 0)
			source = "vmlinux BTF (enum __SCHED_FEAT_*)";
	}
	if (!source) {
		json_object_put(names);
		names = NULL;
		json_object_object_add(
			o, "why",
			json_object_new_string("sched/features unreadable and "
					       "no __SCHED_FEAT_NR in the kernel's BTF"));
	}
	json_object_object_add(o, "names", names);
	json_object_object_add(o, "source", source ? json_object_new_string(source) : NULL);
	return o;
}

/* One group directory and, recursively, its children. */
static void cgroup_walk(struct json_object *groups, const char *mnt, const char *rel, int depth)
{
	static const char *const files[] = { "cpu.shares",	 "cpu.weight",
					     "cpu.weight.nice",	 "cpu.idle",
					     "cpu.cfs_quota_us", "cpu.max",
					     "cpu.cfs_period_us" };
	struct json_object *g = json_object_new_object();
	char dir[4096], path[4200];
	struct dirent *de;
	struct stat st;
	size_t i;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
	json_object_object_add(g, "path", json_object_new_string(*rel ? rel : "/"));
	if (stat(dir, &st) == 0)
		json_object_object_add(g, "id", json_object_new_int64((int64_t)st.st_ino));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		add_file(g, files[i], path, true);
	}
	json_object_array_add(groups, g);
	if (depth > 32)
		return;
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char sub[4096];

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name) >= (int)sizeof(sub))
			continue;
		cgroup_walk(groups, mnt, sub, depth + 1);
	}
	if (d)
		closedir(d);
}

/* The cpu controller's hierarchies: v1 with "cpu" among its options, v2 if it has cpu. */
static struct json_object *cpu_hierarchies(void)
{
	struct json_object *list = json_object_new_array();
	char line[RS_LINE];
	FILE *f = fopen("/proc/self/mounts", "re");

	while (f && fgets(line, sizeof(line), f)) {
		char dev[256], mnt[1024], type[64], opts[1024];
		struct json_object *h, *groups;
		char path[1100];
		bool v1cpu = false;
		char *tok, *save = NULL;
		char *ctl;

		if (sscanf(line, "%255s %1023s %63s %1023s", dev, mnt, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup")) {
			for (tok = strtok_r(opts, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				v1cpu |= !strcmp(tok, "cpu");
			if (!v1cpu)
				continue;
		} else if (!strcmp(type, "cgroup2")) {
			snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
			ctl = read_small(path);
			if (!ctl || !strstr(ctl, "cpu")) {
				free(ctl);
				continue;
			}
			free(ctl);
		} else {
			continue;
		}
		h = json_object_new_object();
		json_object_object_add(h, "version", json_object_new_int(v1cpu ? 1 : 2));
		json_object_object_add(h, "mount", json_object_new_string(mnt));
		groups = json_object_new_array();
		cgroup_walk(groups, mnt, "", 0);
		json_object_object_add(h, "groups", groups);
		json_object_array_add(list, h);
	}
	if (f)
		fclose(f);
	return list;
}

static void cgroups_meta(struct json_object *meta)
{
	struct json_object *list = cpu_hierarchies();
	char line[RS_LINE];
	FILE *f;

	/* hierarchy ids, to read the "root" of cgroup events */
	f = fopen("/proc/self/cgroup", "re");
	while (f && fgets(line, sizeof(line), f)) {
		int id;
		char ctls[256];

		if (sscanf(line, "%d:%255[^:]:", &id, ctls) == 2) {
			char *save = NULL, *tok;

			for (tok = strtok_r(ctls, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (!strcmp(tok, "cpu"))
					json_object_object_add(meta, "cgroup_cpu_hierarchy_id",
							       json_object_new_int(id));
		}
	}
	if (f)
		fclose(f);
	json_object_object_add(meta, "cgroup_hierarchies", list);
}

void rs_machine_meta(struct json_object *meta, bool debug_ok)
{
	struct utsname u;

	if (uname(&u) == 0) {
		char all[5 * 65 + 8];

		json_object_object_add(meta, "kernel_release", json_object_new_string(u.release));
		snprintf(all, sizeof(all), "%s %s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version, u.machine);
		json_object_object_add(meta, "uname", json_object_new_string(all));
		config_meta(meta, u.release);
	}
	cpus_meta(meta, debug_ok);
	tunables_meta(meta, debug_ok);
	json_object_object_add(meta, "sched_features", rs_sched_features(debug_ok));
	cgroups_meta(meta);
}

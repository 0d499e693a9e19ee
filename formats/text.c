// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader of scheduler traces printed as text, in the three shapes the
 * usual tools print them:
 *
 * - `trace-cmd report` (trace-cmd 3.1.6): a "cpus=N" line, then one line
 *   per event, "COMM-PID [CPU] SECS.USECS: NAME: PAYLOAD".  With its
 *   plugins (the default) sched_switch and sched_wakeup* are printed as
 *   "prev_comm:prev_pid [prio] S ==> next_comm:next_pid [prio]" and
 *   "comm:pid [prio] CPU:000"; with -N every event is in the kernel's own
 *   "field=value" print format.  Both are read.  Lost events appear as
 *   "CPU:N [N EVENTS DROPPED]".
 * - The kernel's `trace` / `trace_pipe` files: '#' header lines, an
 *   optional TGID column "(  PID)" and an irq-flags column ("d..2.")
 *   between the CPU and the timestamp, the kernel's print formats, print
 *   events shown as "tracing_mark_write: TEXT", and "CPU:N [LOST N
 *   EVENTS]" lines.
 * - `perf script` default output (perf 6.1): "COMM TID [CPU] SECS.USECS:
 *   SYSTEM:NAME: PAYLOAD", the payload in the kernel's print format, and
 *   with --show-lost-events "... SECS.USECS: PERF_RECORD_LOST lost N"
 *   lines, delivered as lost-event notices at their own time.
 *
 * The shape is found from the content (probe, then the first event line);
 * which one it is, and the timestamp precision the text carries (µs, or
 * ns with `trace-cmd report -t` and `perf script --ns`), is the reader
 * name in struct cfsr_trace_info, e.g. "trace-cmd report text (us)".
 * Timestamps are kept as printed: µs become ns with three zero digits.
 *
 * The COMM-PID prefix is split on the last '-' (or, for perf, the last
 * blank) before the PID, so comms with dashes and blanks are read whole;
 * the pid is the header's, which is the record's common_pid.  Payload
 * values are delimited by the next expected " key=", so a comm with
 * blanks is read whole too (unless it contains such a key).
 *
 * Events are decoded into struct cfsr_event as the binary readers decode
 * them (tpdecode.c): same kinds and fields, comms cut to 15 characters,
 * sched_switch's state letters turned back into the kernel's bits (S=1,
 * D=2, T=4, t=8, X=0x10, Z=0x20, P=0x40, I=0x80, R=0) and "+" into the
 * preempted flag.  trace-cmd's sched_switch plugin prints the bits by its
 * own table ("SDTtZXxW" for bits 0-7, libtraceevent 1.7) and no preempted
 * marker; those lines are read by that table, with preempt false, and
 * info.preempt_bit_known is false once such a line has been read.
 *
 * The event-type table is built as names are met (types[] grows with the
 * number of distinct names, at most TX_MAX_TYPES); a type's system is the
 * one perf names, or the one of a decoded event, else "".  Lines that are
 * neither events, headers nor lost-events notices are counted in
 * stats.malformed, as are event lines whose payload does not parse; event
 * lines of types not decoded are counted in stats.unknown.  A timestamp
 * earlier than the previous one is delivered as read (the three tools
 * print in time order; hand-edited or concatenated text may not be).
 *
 * Lines are read one at a time with getline(): memory depends on the
 * longest line and the number of event types, never on the file's length.
 * Text without a CPU count (perf script's) is read once at open for its
 * highest CPU number, so that info.nr_cpus is right before any event.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"

/* lines read at open to find the first event line */
#define TX_PROBE_LINES 256
#define TX_MAX_TYPES 4096
#define TX_MAX_KEYS 8

enum tx_shape {
	TX_TRACECMD,
	TX_FTRACE,
	TX_PERF,
};

/* One event line, split; pointers into the line. */
struct tx_line {
	int pid;
	int cpu;
	uint64_t ts;
	int digits;
	const char *system;
	size_t system_len;
	const char *name;
	size_t name_len;
	/* '-' before the pid (trace-cmd, ftrace) or ' ' (perf) */
	char sep;
	bool flags_column;
	bool tgid_column;
	const char *payload;
};

struct tx_reader;

typedef int (*tx_decode_fn)(struct tx_reader *r, char *payload, struct cfsr_event *ev);

struct tx_handler {
	const char *system;
	const char *name;
	enum cfsr_event_kind kind;
	tx_decode_fn decode;
};

/* a type met in the text: owned strings, referenced by the public table */
struct tx_type {
	char *system;
	char *name;
	const struct tx_handler *h;
};

struct tx_reader {
	FILE *f;
	char *line;
	size_t line_alloc;
	enum tx_shape shape;
	int digits;
	char reader_name[48];
	struct tx_type *types;
	size_t types_alloc;
	struct cfsr_event_type *pub;
	size_t pub_alloc;
	size_t counts_alloc;
	int nr_types;
	int max_cpu;
	int cpus_line;
	bool raw_switch_seen;
	bool plugin_switch_seen;
	/* a lost-events line waits for the next event's timestamp */
	bool lost_pending;
	int lost_cpu;
	int64_t lost_nr;
	/* the count of perf script's last PERF_RECORD_LOST line */
	int64_t perf_lost;
	/* an event decoded and held while its lost notice goes first */
	bool held;
	struct cfsr_event held_ev;
	bool ts_seen;
	uint64_t last_ts;
	/* timestamps earlier than their predecessor */
	uint64_t backwards;
};

/* ---- splitting an event line --------------------------------------------- */

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "SECS.FRAC:" at @p: 1 and the time in ns, the digits of FRAC, the end. */
static int parse_ts(const char *p, uint64_t *ts, int *digits, const char **end)
{
	uint64_t secs = 0, frac = 0;
	int n = 0, i;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p)) {
		if (secs > UINT64_MAX / 10 / 1000000000u)
			return 0;
		secs = secs * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p++ != '.')
		return 0;
	while (isdigit((unsigned char)*p)) {
		if (++n > 9)
			return 0;
		frac = frac * 10 + (uint64_t)(*p++ - '0');
	}
	if (!n || *p != ':')
		return 0;
	for (i = n; i < 9; i++)
		frac *= 10;
	*ts = secs * 1000000000u + frac;
	*digits = n;
	*end = p + 1;
	return 1;
}

/* The part after "[CPU]" of a candidate event line. */
static int parse_tail(const char *bracket, struct tx_line *l)
{
	const char *p = bracket + 1, *q;
	long cpu = 0;

	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p)) {
		cpu = cpu * 10 + (*p++ - '0');
		if (cpu > 1000000)
			return 0;
	}
	if (*p++ != ']' || (*p != ' ' && *p != '\t'))
		return 0;
	p = skip_blanks(p);
	l->flags_column = false;
	if (!parse_ts(p, &l->ts, &l->digits, &q)) {
		/* the irq-flags column, e.g. "d..2." */
		q = p;
		while (*q && *q != ' ' && *q != '\t')
			q++;
		if (q - p > 8)
			return 0;
		p = skip_blanks(q);
		if (!parse_ts(p, &l->ts, &l->digits, &q))
			return 0;
		l->flags_column = true;
	}
	l->cpu = (int)cpu;
	p = skip_blanks(q);
	q = p;
	while (*q && *q != ' ' && *q != '\t')
		q++;
	if (q - p < 2 || q[-1] != ':')
		return 0;
	/* "NAME:" or, from perf, "SYSTEM:NAME:" */
	l->system = NULL;
	l->system_len = 0;
	l->name = p;
	l->name_len = (size_t)(q - 1 - p);
	{
		const char *colon = memchr(p, ':', l->name_len);

		if (colon) {
			l->system = p;
			l->system_len = (size_t)(colon - p);
			l->name = colon + 1;
			l->name_len = (size_t)(q - 1 - l->name);
		}
	}
	if (!l->name_len)
		return 0;
	l->payload = skip_blanks(q);
	return 1;
}

/* The part before "[CPU]": "COMM-PID", "COMM PID", maybe a "(TGID)" column. */
static int parse_head(const char *line, const char *bracket, struct tx_line *l)
{
	const char *e = bracket, *d;
	long pid = 0, mul = 1;

	while (e > line && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	l->tgid_column = false;
	if (e > line && e[-1] == ')') {
		const char *o = e - 1;

		while (o > line && *o != '(')
			o--;
		if (*o != '(')
			return 0;
		e = o;
		while (e > line && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		l->tgid_column = true;
	}
	d = e;
	while (d > line && isdigit((unsigned char)d[-1])) {
		d--;
		pid += (d[0] - '0') * mul;
		mul *= 10;
		if (mul > 10000000000L)
			return 0;
	}
	if (d == e || d == line || (d[-1] != '-' && d[-1] != ' ' && d[-1] != '\t'))
		return 0;
	l->sep = d[-1] == '-' ? '-' : ' ';
	l->pid = (int)pid;
	/*
	 * perf prints a tid of -1 for samples of a task past its exit (the
	 * kernel's perf_event_tid() gives -1 once its pid is gone): a '-'
	 * with a blank before it is a sign, and the task is not known.
	 */
	if (d[-1] == '-' && d - 1 > line && (d[-2] == ' ' || d[-2] == '\t')) {
		l->sep = ' ';
		l->pid = -1;
	}
	return 1;
}

/* Split an event line; 1 when @line has the event-line shape. */
static int parse_event_line(const char *line, struct tx_line *l)
{
	const char *b;

	for (b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		if (parse_tail(b, l) && parse_head(line, b, l))
			return 1;
	}
	return 0;
}

/* ---- payload helpers ----------------------------------------------------- */

/*
 * Find "key=value" pairs in @s for @keys, in that order; a leading '?'
 * marks a key that some kernels do not print.  A value runs to the next
 * key found, so it may hold blanks.  The values are cut in place; a missing
 * optional key gives NULL.  Return 0, or -1 when a required key is missing.
 */
static int kv_split(char *s, const char *const *keys, int n, char **vals)
{
	char *pos[TX_MAX_KEYS];
	char *cur = s;
	int i, last = -1;

	for (i = 0; i < n; i++) {
		bool optional = keys[i][0] == '?';
		const char *k = keys[i] + optional;
		size_t klen = strlen(k);
		char *p = cur;

		pos[i] = NULL;
		vals[i] = NULL;
		for (p = strstr(p, k); p; p = strstr(p + 1, k)) {
			if ((p == s || p[-1] == ' ') && p[klen] == '=')
				break;
		}
		if (!p) {
			if (!optional)
				return -1;
			continue;
		}
		pos[i] = p;
		vals[i] = p + klen + 1;
		cur = vals[i];
	}
	/* cut each value before the next key, and trim its blanks */
	for (i = n - 1; i >= 0; i--) {
		char *end;

		if (!pos[i])
			continue;
		if (last >= 0)
			*pos[last] = '\0';
		end = vals[i] + strlen(vals[i]);
		while (end > vals[i] && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		last = i;
	}
	return 0;
}

/* A decimal integer, optionally followed by blanks and a unit ("[ns]"). */
static int parse_s64(const char *s, int64_t *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (errno || end == s || (*end && *end != ' '))
		return -1;
	return 0;
}

static int parse_int(const char *s, int *v)
{
	int64_t x;

	if (parse_s64(s, &x) < 0 || x < INT32_MIN || x > INT32_MAX)
		return -1;
	*v = (int)x;
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || (*end && *end != ' '))
		return -1;
	return 0;
}

/* Copy a comm, cut to the kernel's 15 characters as the binary readers do. */
static void set_comm(char comm[CFSR_COMM_LEN], const char *s, size_t len)
{
	if (len >= CFSR_COMM_LEN)
		len = CFSR_COMM_LEN - 1;
	memcpy(comm, s, len);
	comm[len] = '\0';
}

/*
 * "COMM:PID [PRIO]" of trace-cmd's plugins, at @s; the comm is what comes
 * before the last ':' before the last " [".  Return the text after "]".
 */
static char *parse_comm_pid_prio(char *s, char comm[CFSR_COMM_LEN], int *pid, int *prio)
{
	char *br = NULL, *p, *colon, *close;

	for (p = strstr(s, " ["); p; p = strstr(p + 1, " ["))
		br = p;
	if (!br)
		return NULL;
	*br = '\0';
	colon = strrchr(s, ':');
	if (!colon || parse_int(colon + 1, pid) < 0)
		return NULL;
	set_comm(comm, s, (size_t)(colon - s));
	close = strchr(br + 2, ']');
	if (!close)
		return NULL;
	*close = '\0';
	if (parse_int(br + 2, prio) < 0)
		return NULL;
	return close + 1;
}

/* ---- decoders --------------------------------------------------------------- */

/* sched_switch prev_state in the kernel's print format: "S", "D|W", "R+". */
static int kernel_state(const char *s, uint64_t *state, bool *preempt)
{
	static const char letters[] = "SDTtXZPI";

	*state = 0;
	*preempt = false;
	if (!*s)
		return -1;
	if (*s == 'R') {
		s++;
	} else {
		for (;;) {
			const char *c = *s ? strchr(letters, *s) : NULL;

			if (!c)
				return -1;
			*state |= 1u << (c - letters);
			s++;
			if (*s != '|')
				break;
			s++;
		}
	}
	if (*s == '+') {
		*preempt = true;
		s++;
	}
	return *s ? -1 : 0;
}

/* The same, as trace-cmd's sched_switch plugin prints it (libtraceevent 1.7). */
static int plugin_state(const char *s, uint64_t *state)
{
	static const char letters[] = "SDTtZXxW";
	const char *c;

	*state = 0;
	if (!strcmp(s, "R"))
		return 0;
	for (;;) {
		c = *s ? strchr(letters, *s) : NULL;
		/* a newer plugin's P and I name the kernel's bits */
		if (*s == 'P')
			*state |= 0x40;
		else if (*s == 'I')
			*state |= 0x80;
		else if (!c)
			return -1;
		else
			*state |= 1u << (c - letters);
		s++;
		if (!*s)
			return 0;
		if (*s != '|')
			return -1;
		s++;
	}
}

static int decode_switch(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const prev_keys[] = { "prev_comm", "prev_pid", "prev_prio",
						 "prev_state" };
	static const char *const next_keys[] = { "next_comm", "next_pid", "next_prio" };
	char *arrow = strstr(payload, " ==> ");
	char *v[TX_MAX_KEYS], *rest;
	char state[16];

	if (!arrow)
		return -1;
	*arrow = '\0';
	if (!strncmp(payload, "prev_comm=", 10)) {
		if (kv_split(payload, prev_keys, 4, v) < 0)
			return -1;
		set_comm(ev->sw.prev_comm, v[0], strlen(v[0]));
		if (parse_int(v[1], &ev->sw.prev_pid) < 0 ||
		    parse_int(v[2], &ev->sw.prev_prio) < 0 ||
		    kernel_state(v[3], &ev->sw.prev_state, &ev->sw.preempt) < 0)
			return -1;
		if (kv_split(arrow + 5, next_keys, 3, v) < 0)
			return -1;
		set_comm(ev->sw.next_comm, v[0], strlen(v[0]));
		if (parse_int(v[1], &ev->sw.next_pid) < 0 || parse_int(v[2], &ev->sw.next_prio) < 0)
			return -1;
		r->raw_switch_seen = true;
		return 0;
	}
	/* the plugin: "prev_comm:prev_pid [prio] S ==> next_comm:next_pid [prio]" */
	rest = parse_comm_pid_prio(payload, ev->sw.prev_comm, &ev->sw.prev_pid, &ev->sw.prev_prio);
	if (!rest || *rest != ' ' || strlen(rest + 1) >= sizeof(state))
		return -1;
	memcpy(state, rest + 1, strlen(rest + 1) + 1);
	if (plugin_state(state, &ev->sw.prev_state) < 0)
		return -1;
	ev->sw.preempt = false;
	rest = parse_comm_pid_prio(arrow + 5, ev->sw.next_comm, &ev->sw.next_pid,
				   &ev->sw.next_prio);
	if (!rest || *skip_blanks(rest))
		return -1;
	r->plugin_switch_seen = true;
	return 0;
}

static int decode_wake(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "comm", "pid", "prio", "?success", "?target_cpu" };
	char *v[TX_MAX_KEYS], *rest;

	(void)r;
	ev->wake.success = -1;
	ev->wake.target_cpu = -1;
	if (!strncmp(payload, "comm=", 5)) {
		if (kv_split(payload, keys, 5, v) < 0)
			return -1;
		set_comm(ev->wake.comm, v[0], strlen(v[0]));
		if (parse_int(v[1], &ev->wake.pid) < 0 || parse_int(v[2], &ev->wake.prio) < 0 ||
		    (v[3] && parse_int(v[3], &ev->wake.success) < 0) ||
		    (v[4] && parse_int(v[4], &ev->wake.target_cpu) < 0))
			return -1;
		return 0;
	}
	/* the plugin: "comm:pid [prio]", then " success=N" and " CPU:NNN" if present */
	rest = parse_comm_pid_prio(payload, ev->wake.comm, &ev->wake.pid, &ev->wake.prio);
	if (!rest)
		return -1;
	for (rest = (char *)skip_blanks(rest); *rest; rest = (char *)skip_blanks(rest)) {
		char *end = strchr(rest, ' ');

		if (end)
			*end = '\0';
		if (!strncmp(rest, "success=", 8)) {
			if (parse_int(rest + 8, &ev->wake.success) < 0)
				return -1;
		} else if (!strncmp(rest, "CPU:", 4)) {
			if (parse_int(rest + 4, &ev->wake.target_cpu) < 0)
				return -1;
		} else {
			return -1;
		}
		if (!end)
			break;
		rest = end + 1;
	}
	return 0;
}

static int decode_migrate(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "comm", "pid", "prio", "orig_cpu", "dest_cpu" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 5, v) < 0)
		return -1;
	set_comm(ev->migrate.comm, v[0], strlen(v[0]));
	if (parse_int(v[1], &ev->migrate.pid) < 0 || parse_int(v[2], &ev->migrate.prio) < 0 ||
	    parse_int(v[3], &ev->migrate.orig_cpu) < 0 ||
	    parse_int(v[4], &ev->migrate.dest_cpu) < 0)
		return -1;
	return 0;
}

static int decode_fork(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "comm", "pid", "child_comm", "child_pid" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 4, v) < 0)
		return -1;
	set_comm(ev->fork.parent_comm, v[0], strlen(v[0]));
	set_comm(ev->fork.child_comm, v[2], strlen(v[2]));
	if (parse_int(v[1], &ev->fork.parent_pid) < 0 || parse_int(v[3], &ev->fork.child_pid) < 0)
		return -1;
	return 0;
}

static int decode_exit(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "comm", "pid", "prio", "?group_dead" };
	char *v[TX_MAX_KEYS];

	(void)r;
	ev->exit.group_dead = -1;
	if (kv_split(payload, keys, 4, v) < 0)
		return -1;
	set_comm(ev->exit.comm, v[0], strlen(v[0]));
	if (parse_int(v[1], &ev->exit.pid) < 0 || parse_int(v[2], &ev->exit.prio) < 0)
		return -1;
	if (v[3]) {
		if (!strcmp(v[3], "true"))
			ev->exit.group_dead = 1;
		else if (!strcmp(v[3], "false"))
			ev->exit.group_dead = 0;
		else if (parse_int(v[3], &ev->exit.group_dead) < 0)
			return -1;
	}
	return 0;
}

static int decode_exec(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "filename", "pid", "old_pid" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 3, v) < 0)
		return -1;
	ev->exec.filename = v[0];
	if (parse_int(v[1], &ev->exec.pid) < 0 || parse_int(v[2], &ev->exec.old_pid) < 0)
		return -1;
	return 0;
}

static int decode_runtime(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "comm", "pid", "runtime", "?vruntime" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 4, v) < 0)
		return -1;
	set_comm(ev->runtime.comm, v[0], strlen(v[0]));
	if (parse_int(v[1], &ev->runtime.pid) < 0 || parse_u64(v[2], &ev->runtime.runtime) < 0)
		return -1;
	return 0;
}

static int decode_freq(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "state", "cpu_id" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 2, v) < 0)
		return -1;
	if (parse_u64(v[0], &ev->freq.khz) < 0 || parse_int(v[1], &ev->freq.cpu) < 0)
		return -1;
	return 0;
}

static int decode_pi(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "?comm", "pid", "oldprio", "newprio" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 4, v) < 0)
		return -1;
	if (parse_int(v[1], &ev->pi.pid) < 0 || parse_int(v[2], &ev->pi.oldprio) < 0 ||
	    parse_int(v[3], &ev->pi.newprio) < 0)
		return -1;
	return 0;
}

static int decode_cgroup(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "root", "id", "level", "path" };
	char *v[TX_MAX_KEYS];

	(void)r;
	ev->cgroup.pid = -1;
	if (kv_split(payload, keys, 4, v) < 0)
		return -1;
	if (parse_int(v[0], &ev->cgroup.root) < 0 || parse_u64(v[1], &ev->cgroup.id) < 0 ||
	    parse_int(v[2], &ev->cgroup.level) < 0)
		return -1;
	ev->cgroup.path = v[3];
	return 0;
}

static int decode_attach(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	static const char *const keys[] = { "dst_root", "dst_id", "dst_level",
					    "dst_path", "pid",	  "?comm" };
	char *v[TX_MAX_KEYS];

	(void)r;
	if (kv_split(payload, keys, 6, v) < 0)
		return -1;
	if (parse_int(v[0], &ev->cgroup.root) < 0 || parse_u64(v[1], &ev->cgroup.id) < 0 ||
	    parse_int(v[2], &ev->cgroup.level) < 0 || parse_int(v[4], &ev->cgroup.pid) < 0)
		return -1;
	ev->cgroup.path = v[3];
	return 0;
}

/* "SYMBOL: TEXT", the print event's "%ps: %s"; the symbol is not part of the text. */
static int decode_print(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	char *sep = strstr(payload, ": ");

	(void)r;
	ev->marker.text = sep ? sep + 2 : payload;
	return 0;
}

/*
 * A syscall entry event's argument "NAME: 0x..." (the kernel prints each as
 * an unsigned long in hex), as the syscall's int: its low 32 bits.
 */
static int syscall_arg(const char *payload, const char *name, int *val)
{
	const char *p = strstr(payload, name);
	unsigned long long v;
	char *end;

	if (!p)
		return -1;
	p += strlen(name);
	if (strncmp(p, ": ", 2))
		return -1;
	p += 2;
	errno = 0;
	v = strtoull(p, &end, 16);
	if (errno || end == p)
		return -1;
	*val = (int)(uint32_t)v;
	return 0;
}

/*
 * The syscall event prints "pid: 0x00000000, len: 0x00000080, user_mask_ptr: 0x...":
 * only the target thread is of use (the mask is in user memory).
 */
static int decode_affinity(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	(void)r;
	if (syscall_arg(payload, "pid", &ev->affinity.pid) < 0 || ev->affinity.pid < 0)
		return -1;
	return 0;
}

/* "which: 0x00000000, who: 0x00000000, niceval: 0x00000005" */
static int decode_setprio(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	(void)r;
	if (syscall_arg(payload, "which", &ev->setprio.which) < 0 ||
	    syscall_arg(payload, "who", &ev->setprio.who) < 0 ||
	    syscall_arg(payload, "niceval", &ev->setprio.niceval) < 0)
		return -1;
	return 0;
}

/* ftrace shows print events as "tracing_mark_write: TEXT", without the name */
static int decode_mark(struct tx_reader *r, char *payload, struct cfsr_event *ev)
{
	(void)r;
	ev->marker.text = payload;
	return 0;
}

static const struct tx_handler handlers[] = {
	{ "cgroup", "cgroup_attach_task", CFSR_EV_CGROUP_ATTACH, decode_attach },
	{ "cgroup", "cgroup_mkdir", CFSR_EV_CGROUP_MKDIR, decode_cgroup },
	{ "cgroup", "cgroup_rmdir", CFSR_EV_CGROUP_RMDIR, decode_cgroup },
	{ "ftrace", "print", CFSR_EV_MARKER, decode_print },
	{ "sched", "sched_migrate_task", CFSR_EV_MIGRATE, decode_migrate },
	{ "sched", "sched_pi_setprio", CFSR_EV_PI_SETPRIO, decode_pi },
	{ "sched", "sched_process_exec", CFSR_EV_EXEC, decode_exec },
	{ "sched", "sched_process_exit", CFSR_EV_EXIT, decode_exit },
	{ "sched", "sched_process_fork", CFSR_EV_FORK, decode_fork },
	{ "sched", "sched_process_free", CFSR_EV_FREE, decode_exit },
	{ "sched", "sched_stat_runtime", CFSR_EV_STAT_RUNTIME, decode_runtime },
	{ "sched", "sched_switch", CFSR_EV_SWITCH, decode_switch },
	{ "sched", "sched_wakeup", CFSR_EV_WAKEUP, decode_wake },
	{ "sched", "sched_wakeup_new", CFSR_EV_WAKEUP_NEW, decode_wake },
	{ "sched", "sched_waking", CFSR_EV_WAKING, decode_wake },
	{ "syscalls", "sys_enter_sched_setaffinity", CFSR_EV_SETAFFINITY, decode_affinity },
	{ "syscalls", "sys_enter_setpriority", CFSR_EV_SETPRIORITY, decode_setprio },
	{ "power", "cpu_frequency", CFSR_EV_CPU_FREQ, decode_freq },
};

static const struct tx_handler mark_handler = { "ftrace", "print", CFSR_EV_MARKER, decode_mark };

static const struct tx_handler *find_handler(const struct tx_line *l)
{
	size_t i;

	if (!l->system && l->name_len == 18 && !memcmp(l->name, "tracing_mark_write", 18))
		return &mark_handler;
	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
		const struct tx_handler *h = &handlers[i];

		if (strlen(h->name) != l->name_len || memcmp(h->name, l->name, l->name_len))
			continue;
		if (l->system && (strlen(h->system) != l->system_len ||
				  memcmp(h->system, l->system, l->system_len)))
			continue;
		return h;
	}
	return NULL;
}

/* ---- the type table ------------------------------------------------------------ */

/* Refresh the facts in t->info that reading can change. */
static void publish(struct cfsr_trace *t, struct tx_reader *r)
{
	t->info.types = r->pub;
	t->info.nr_types = r->nr_types;
	t->info.nr_cpus = r->max_cpu + 1 > r->cpus_line ? r->max_cpu + 1 : r->cpus_line;
	t->info.preempt_bit_known = r->raw_switch_seen && !r->plugin_switch_seen;
}

/* Index of the line's event type, added when new; -1 when the table is full. */
static int find_type(struct cfsr_trace *t, struct tx_reader *r, const struct tx_line *l)
{
	const struct tx_handler *h = find_handler(l);
	const char *name = h ? h->name : l->name;
	size_t name_len = h ? strlen(h->name) : l->name_len;
	struct tx_type *ty;
	int i;

	for (i = r->nr_types - 1; i >= 0; i--) {
		ty = &r->types[i];
		if (strlen(ty->name) == name_len && !memcmp(ty->name, name, name_len) && ty->h == h)
			return i;
	}
	if (r->nr_types >= TX_MAX_TYPES)
		return -1;
	if (CFSR_ALLOC_GROW(r->types, (size_t)r->nr_types + 1, r->types_alloc) < 0 ||
	    CFSR_ALLOC_GROW(r->pub, (size_t)r->nr_types + 1, r->pub_alloc) < 0 ||
	    CFSR_ALLOC_GROW(t->stats.type_counts, (size_t)r->nr_types + 1, r->counts_alloc) < 0)
		return -2;
	ty = &r->types[r->nr_types];
	ty->name = strndup(name, name_len);
	if (h)
		ty->system = strdup(h->system);
	else if (l->system)
		ty->system = strndup(l->system, l->system_len);
	else
		ty->system = strdup("");
	if (!ty->name || !ty->system) {
		free(ty->name);
		free(ty->system);
		ty->name = ty->system = NULL;
		return -2;
	}
	ty->h = h;
	r->pub[r->nr_types].system = ty->system;
	r->pub[r->nr_types].name = ty->name;
	r->pub[r->nr_types].known = h != NULL;
	r->nr_types++;
	publish(t, r);
	return r->nr_types - 1;
}

/* ---- lines that are not events ------------------------------------------------- */

/*
 * Headers and notices: '#' lines (with the "#P:N" CPU count), "cpus=N",
 * trace-cmd's "CPU N is empty", and lost-events lines, "CPU:N [N EVENTS
 * DROPPED]", "CPU:N [EVENTS DROPPED]" and ftrace's "CPU:N [LOST N EVENTS]".
 * Return 1 for a lost-events line, 0 for another known line, -1 otherwise.
 */
static int parse_other(struct tx_reader *r, const char *s)
{
	const char *p;
	char *end;
	long cpu;

	s = skip_blanks(s);
	if (!*s)
		return 0;
	if (*s == '#') {
		p = strstr(s, "#P:");
		if (p) {
			cpu = strtol(p + 3, &end, 10);
			if (end != p + 3 && cpu > 0 && cpu < 1000000 && cpu > r->cpus_line)
				r->cpus_line = (int)cpu;
		}
		return 0;
	}
	if (!strncmp(s, "cpus=", 5)) {
		cpu = strtol(s + 5, &end, 10);
		if (end == s + 5 || *end || cpu <= 0 || cpu >= 1000000)
			return -1;
		r->cpus_line = (int)cpu;
		return 0;
	}
	if (!strncmp(s, "CPU ", 4) && strstr(s, " is empty"))
		return 0;
	if (strncmp(s, "CPU:", 4))
		return -1;
	cpu = strtol(s + 4, &end, 10);
	if (end == s + 4 || cpu < 0 || cpu >= 1000000 || strncmp(end, " [", 2))
		return -1;
	p = end + 2;
	r->lost_cpu = (int)cpu;
	r->lost_nr = -1;
	if (!strcmp(p, "EVENTS DROPPED]"))
		return 1;
	if (!strncmp(p, "LOST ", 5))
		p += 5;
	r->lost_nr = strtoll(p, &end, 10);
	if (end == p || r->lost_nr < 0 ||
	    (strcmp(end, " EVENTS DROPPED]") && strcmp(end, " EVENTS]")))
		return -1;
	if (!r->lost_nr)
		r->lost_nr = -1;
	return 1;
}

/* ---- probe / open / next / close ------------------------------------------------- */

static bool is_text(const unsigned char *head, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = head[i];

		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
			return false;
		if (c == 0x7f)
			return false;
	}
	return true;
}

/*
 * Text (no control bytes) that starts like one of the three shapes: an
 * ftrace header, trace-cmd's "cpus=N" line, or an event line among the
 * complete lines of @head.
 */
static int text_probe(const unsigned char *head, size_t len)
{
	char buf[513];
	char *line, *nl;
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
	struct tx_line l;

	if (!n || !is_text(head, n))
		return 0;
	memcpy(buf, head, n);
	buf[n] = '\0';
	if (!strncmp(buf, "# tracer:", 9) || !strncmp(buf, "cpus=", 5))
		return 1;
	for (line = buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		/* the last line may be cut short, unless the file ends here */
		if (!nl && len >= 512)
			break;
		if (nl)
			*nl = '\0';
		if (parse_event_line(line, &l))
			return 1;
		if (!nl)
			break;
	}
	return 0;
}

/* Read a line into r->line without its end of line; 1, 0 at the end, -1 on error. */
static int read_line(struct tx_reader *r)
{
	ssize_t n;

	errno = 0;
	n = getline(&r->line, &r->line_alloc, r->f);
	if (n < 0)
		return errno && errno != EINVAL ? -1 : ferror(r->f) ? -1 : 0;
	while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
		r->line[--n] = '\0';
	return 1;
}

/*
 * Text without a CPU count ("cpus=N", "#P:N"), such as `perf script`
 * output: find the highest CPU number in one pass over the lines, so that
 * the count is known at open, before the consumers size their per-CPU
 * state.  Reading the whole file first costs time, not memory.
 */
static int count_cpus(struct tx_reader *r)
{
	struct tx_line l;
	int ret;

	while ((ret = read_line(r)) > 0)
		if (parse_event_line(r->line, &l) && l.cpu > r->max_cpu)
			r->max_cpu = l.cpu;
	return ret;
}

static void text_close(struct cfsr_trace *t)
{
	struct tx_reader *r = t->priv;
	int i;

	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	for (i = 0; i < r->nr_types; i++) {
		free(r->types[i].name);
		free(r->types[i].system);
	}
	free(r->types);
	free(r->pub);
	free(r->line);
	free(r);
	t->priv = NULL;
}

static int text_open(struct cfsr_trace *t, const char *path)
{
	const char *data_path = t->data_path ? t->data_path : path;
	static const char *const shape_names[] = {
		[TX_TRACECMD] = "trace-cmd report text",
		[TX_FTRACE] = "ftrace text",
		[TX_PERF] = "perf script text",
	};
	struct tx_reader *r;
	bool header = false, found = false;
	struct tx_line l;
	int i, ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return cfsr_error("cannot open '%s': out of memory", path);
	t->priv = r;
	r->max_cpu = -1;
	r->f = fopen(data_path, "r");
	if (!r->f) {
		cfsr_error_errno("cannot open '%s'", path);
		goto out_close;
	}
	/* the shape and precision, from the first event line */
	for (i = 0; i < TX_PROBE_LINES; i++) {
		ret = read_line(r);
		if (ret < 0) {
			cfsr_error_errno("cannot read '%s'", path);
			goto out_close;
		}
		if (!ret)
			break;
		if (i == 0 && !strncmp(r->line, "cpus=", 5))
			header = true;
		if (parse_event_line(r->line, &l)) {
			found = true;
			break;
		}
		/* headers give the CPU count before any event is read */
		parse_other(r, r->line);
	}
	if (!found) {
		cfsr_error(
			"cannot read '%s': not a trace file (no event line in its first %d lines)",
			path, TX_PROBE_LINES);
		goto out_close;
	}
	if (l.sep == ' ' || l.system)
		r->shape = TX_PERF;
	else if (header)
		r->shape = TX_TRACECMD;
	else
		r->shape = l.flags_column || l.tgid_column ? TX_FTRACE : TX_TRACECMD;
	r->digits = l.digits;
	snprintf(r->reader_name, sizeof(r->reader_name), "%s (%s)", shape_names[r->shape],
		 l.digits == 9 ? "ns" :
		 l.digits == 6 ? "us" :
				 "other");
	if (!r->cpus_line && count_cpus(r) < 0) {
		cfsr_error_errno("cannot read '%s'", path);
		goto out_close;
	}
	if (fseek(r->f, 0, SEEK_SET) < 0) {
		cfsr_error_errno("cannot read '%s'", path);
		goto out_close;
	}
	/* a table to grow: never NULL, as cfsr_trace_close() expects */
	if (CFSR_ALLOC_GROW(t->stats.type_counts, 1, r->counts_alloc) < 0) {
		cfsr_error("cannot open '%s': out of memory", path);
		goto out_close;
	}
	t->info.reader = r->reader_name;
	t->info.file_version = 0;
	t->info.compression = "none";
	t->info.kernel_release = NULL;
	t->info.uname = NULL;
	t->info.clock = NULL;
	t->info.hz = 0;
	t->info.overruns = -1;
	publish(t, r);
	t->info.preempt_bit_known = r->shape != TX_TRACECMD;
	return 0;

out_close:
	text_close(t);
	free(t->stats.type_counts);
	t->stats.type_counts = NULL;
	return -1;
}

/*
 * perf script --show-lost-events: "COMM TID [CPU] SECS.FRAC:
 * PERF_RECORD_LOST lost N" (and PERF_RECORD_LOST_SAMPLES); 1 with the
 * CPU and time in @l and N in r->perf_lost.
 */
static int parse_perf_lost(struct tx_reader *r, const char *line, struct tx_line *l)
{
	const char *p = strstr(line, ": PERF_RECORD_LOST"), *b, *q;
	char *end;
	long long nr;

	if (!p)
		return 0;
	q = strstr(p, " lost ");
	if (!q)
		return 0;
	nr = strtoll(q + 6, &end, 10);
	if (end == q + 6 || *end || nr <= 0)
		return 0;
	/* the timestamp ends at p; the [CPU] column is before it */
	for (b = strchr(line, '['); b && b < p; b = strchr(b + 1, '[')) {
		const char *t = b + 1;
		long cpu = 0;

		while (isdigit((unsigned char)*t) && cpu <= 1000000)
			cpu = cpu * 10 + (*t++ - '0');
		if (t == b + 1 || *t != ']')
			continue;
		t = skip_blanks(t + 1);
		if (!parse_ts(t, &l->ts, &l->digits, &q) || q != p + 1)
			continue;
		l->cpu = (int)cpu;
		r->perf_lost = nr;
		return 1;
	}
	return 0;
}

static void deliver_lost(struct cfsr_trace *t, struct tx_reader *r, uint64_t ts,
			 struct cfsr_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts = ts;
	ev->cpu = r->lost_cpu;
	ev->pid = -1;
	ev->type = -1;
	ev->kind = CFSR_EV_LOST;
	ev->lost.nr = r->lost_nr;
	t->stats.lost_notices++;
	if (r->lost_nr > 0)
		t->stats.lost_events += (uint64_t)r->lost_nr;
	else
		t->stats.lost_unknown++;
	if (r->lost_cpu > r->max_cpu)
		r->max_cpu = r->lost_cpu;
	r->lost_pending = false;
}

static int text_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	struct tx_reader *r = t->priv;

	if (r->held) {
		*ev = r->held_ev;
		r->held = false;
		return 1;
	}
	for (;;) {
		struct tx_line l;
		int ret, idx;

		ret = read_line(r);
		if (ret < 0)
			return cfsr_error_errno("cannot read '%s'", t->path);
		if (!ret) {
			if (r->lost_pending) {
				deliver_lost(t, r, r->last_ts, ev);
				publish(t, r);
				return 1;
			}
			publish(t, r);
			return 0;
		}
		if (!parse_event_line(r->line, &l)) {
			if (parse_perf_lost(r, r->line, &l)) {
				/* a notice at its own time, as the perf.data reader gives it */
				struct cfsr_event *dst = ev;

				if (r->lost_pending) {
					deliver_lost(t, r, r->last_ts, ev);
					dst = &r->held_ev;
					r->held = true;
				}
				r->lost_cpu = l.cpu;
				r->lost_nr = r->perf_lost;
				deliver_lost(t, r, l.ts, dst);
				publish(t, r);
				return 1;
			}
			ret = parse_other(r, r->line);
			if (ret < 0)
				t->stats.malformed++;
			else if (ret > 0)
				r->lost_pending = true;
			continue;
		}

		if (!t->stats.records)
			t->stats.first_ts = l.ts;
		t->stats.records++;
		if (r->ts_seen && l.ts < r->last_ts)
			r->backwards++;
		r->ts_seen = true;
		r->last_ts = l.ts;
		t->stats.last_ts = l.ts;
		if (l.cpu > r->max_cpu)
			r->max_cpu = l.cpu;

		idx = find_type(t, r, &l);
		if (idx == -2)
			return cfsr_error("cannot read '%s': out of memory", t->path);
		if (idx < 0) {
			t->stats.malformed++;
			continue;
		}
		t->stats.type_counts[idx]++;
		if (!r->types[idx].h) {
			t->stats.unknown++;
			continue;
		}
		memset(ev, 0, sizeof(*ev));
		ev->ts = l.ts;
		ev->cpu = l.cpu;
		ev->pid = l.pid;
		ev->kind = r->types[idx].h->kind;
		ev->type = idx;
		/* the payload is cut in place; borrowed strings point into the line */
		if (r->types[idx].h->decode(r, r->line + (l.payload - r->line), ev) < 0) {
			t->stats.malformed++;
			continue;
		}
		if (r->lost_pending) {
			r->held_ev = *ev;
			r->held = true;
			deliver_lost(t, r, l.ts, ev);
		}
		publish(t, r);
		return 1;
	}
}

const struct cfsr_format cfsr_format_text = {
	.name = "text",
	.probe = text_probe,
	.open = text_open,
	.next = text_next,
	.close = text_close,
};

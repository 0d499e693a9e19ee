// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader (trace-cmd file versions 6 and 7, uncompressed or
 * compressed), through libtracecmd and libtraceevent.
 *
 * At open, every event type the file declares is looked up once in a
 * handler table; the fields a handler needs are resolved from the file's
 * own format description, so layouts that differ between kernels (field
 * offsets, sizes, optional fields such as sched_wakeup's "success", the
 * encoding of sched_switch's preempted bit) are read as the file declares
 * them.  Records are then pulled in global time order across CPUs and
 * buffer instances, decoded into struct cfsr_event and freed at once, so
 * memory does not grow with the number of events.  Pages that the ring
 * buffer marked as having lost events produce a CFSR_EV_LOST event before
 * their first record.
 */
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"
#include "tracecmd-local.h"

#define TD_MAX_FIELDS 8

struct td_reader;
struct td_type;

typedef int (*td_decode_fn)(struct td_reader *r, const struct td_type *ty,
			    const struct tep_record *rec, struct cfsr_event *ev);

/*
 * A handler names the fields it reads; a leading '?' marks a field that
 * some kernels lack.  Fields are resolved in this order into td_type.f[].
 */
struct td_handler {
	const char *system;
	const char *name;
	enum cfsr_event_kind kind;
	const char *fields[TD_MAX_FIELDS];
	td_decode_fn decode;
};

struct td_type {
	int id;
	const struct td_handler *h;
	struct tep_format_field *f[TD_MAX_FIELDS];
};

struct td_reader {
	struct tracecmd_input *handle;
	/* handles[0] is the top-level buffer, then the buffer instances */
	struct tracecmd_input **handles;
	int nr_handles;
	struct tep_handle *tep;
	/* sorted by id */
	struct td_type *types;
	struct cfsr_event_type *pub_types;
	int nr_types;
	/* record held back while its lost-events notice is delivered */
	struct tep_record *pending;
	/* sched_switch prev_state: preempted marker and state bits */
	uint64_t preempt_mask;
	uint64_t state_mask;
	/* storage for the borrowed string of the current event */
	char *str;
	size_t str_alloc;
	char *release;
	char *compression;
};

/* ---- reading fields ---------------------------------------------------- */

static int field_num(const struct td_reader *r, const struct tep_record *rec,
		     const struct tep_format_field *f, int64_t *val)
{
	unsigned long long v;

	if (!f || f->size <= 0 || f->size > 8 || f->offset < 0 ||
	    f->offset + f->size > rec->size)
		return -1;
	v = tep_read_number(r->tep, (const char *)rec->data + f->offset, f->size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned int bits = (unsigned int)f->size * 8;
		unsigned long long sign = 1ULL << (bits - 1);

		v &= (1ULL << bits) - 1;
		v = (v ^ sign) - sign;
	}
	*val = (int64_t)v;
	return 0;
}

static int field_int(const struct td_reader *r, const struct tep_record *rec,
		     const struct tep_format_field *f, int *val)
{
	int64_t v;

	if (field_num(r, rec, f, &v) < 0)
		return -1;
	*val = (int)v;
	return 0;
}

/*
 * Locate the bytes of a string field: a fixed array, a __data_loc (or
 * __rel_loc) dynamic string, or a trailing flexible array such as the
 * buffer of ftrace's print event.
 */
static int field_bytes(const struct td_reader *r, const struct tep_record *rec,
		       const struct tep_format_field *f, const char **p, size_t *len)
{
	const char *data = rec->data;

	if (!f || f->offset < 0 || f->offset > rec->size)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;
		unsigned int off, n;

		if (f->size != 4 || f->offset + 4 > rec->size)
			return -1;
		loc = tep_read_number(r->tep, data + f->offset, 4);
		off = loc & 0xffff;
		n = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
		if (off > (unsigned int)rec->size || n > (unsigned int)rec->size - off)
			return -1;
		*p = data + off;
		*len = n;
		return 0;
	}
	if (f->size == 0) {
		*p = data + f->offset;
		*len = (size_t)(rec->size - f->offset);
		return 0;
	}
	if (f->offset + f->size > rec->size)
		return -1;
	*p = data + f->offset;
	*len = (size_t)f->size;
	return 0;
}

static int field_comm(const struct td_reader *r, const struct tep_record *rec,
		      const struct tep_format_field *f, char comm[CFSR_COMM_LEN])
{
	const char *p;
	size_t len;

	comm[0] = '\0';
	if (!f)
		return 0;
	if (field_bytes(r, rec, f, &p, &len) < 0)
		return -1;
	len = strnlen(p, len);
	if (len >= CFSR_COMM_LEN)
		len = CFSR_COMM_LEN - 1;
	memcpy(comm, p, len);
	comm[len] = '\0';
	return 0;
}

/* Copy a string field into the reader's buffer; the event borrows it. */
static int field_str(struct td_reader *r, const struct tep_record *rec,
		     const struct tep_format_field *f, const char **out)
{
	const char *p;
	size_t len;

	if (field_bytes(r, rec, f, &p, &len) < 0)
		return -1;
	len = strnlen(p, len);
	if (CFSR_ALLOC_GROW(r->str, len + 1, r->str_alloc) < 0)
		return -1;
	memcpy(r->str, p, len);
	r->str[len] = '\0';
	*out = r->str;
	return 0;
}

/* ---- decoders ------------------------------------------------------------ */

static int decode_switch(struct td_reader *r, const struct td_type *ty,
			 const struct tep_record *rec, struct cfsr_event *ev)
{
	int64_t state;

	if (field_comm(r, rec, ty->f[0], ev->sw.prev_comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->sw.prev_pid) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->sw.prev_prio) < 0 ||
	    field_num(r, rec, ty->f[3], &state) < 0 ||
	    field_comm(r, rec, ty->f[4], ev->sw.next_comm) < 0 ||
	    field_int(r, rec, ty->f[5], &ev->sw.next_pid) < 0 ||
	    field_int(r, rec, ty->f[6], &ev->sw.next_prio) < 0)
		return -1;
	ev->sw.preempt = r->preempt_mask && ((uint64_t)state & r->preempt_mask);
	ev->sw.prev_state = (uint64_t)state & ~r->preempt_mask;
	if (r->state_mask)
		ev->sw.prev_state &= r->state_mask;
	return 0;
}

static int decode_wake(struct td_reader *r, const struct td_type *ty,
		       const struct tep_record *rec, struct cfsr_event *ev)
{
	ev->wake.success = -1;
	ev->wake.target_cpu = -1;
	if (field_comm(r, rec, ty->f[0], ev->wake.comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->wake.pid) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->wake.prio) < 0)
		return -1;
	if (ty->f[3] && field_int(r, rec, ty->f[3], &ev->wake.success) < 0)
		return -1;
	if (ty->f[4] && field_int(r, rec, ty->f[4], &ev->wake.target_cpu) < 0)
		return -1;
	return 0;
}

static int decode_migrate(struct td_reader *r, const struct td_type *ty,
			  const struct tep_record *rec, struct cfsr_event *ev)
{
	if (field_comm(r, rec, ty->f[0], ev->migrate.comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->migrate.pid) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->migrate.prio) < 0 ||
	    field_int(r, rec, ty->f[3], &ev->migrate.orig_cpu) < 0 ||
	    field_int(r, rec, ty->f[4], &ev->migrate.dest_cpu) < 0)
		return -1;
	return 0;
}

static int decode_fork(struct td_reader *r, const struct td_type *ty,
		       const struct tep_record *rec, struct cfsr_event *ev)
{
	if (field_comm(r, rec, ty->f[0], ev->fork.parent_comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->fork.parent_pid) < 0 ||
	    field_comm(r, rec, ty->f[2], ev->fork.child_comm) < 0 ||
	    field_int(r, rec, ty->f[3], &ev->fork.child_pid) < 0)
		return -1;
	return 0;
}

static int decode_exit(struct td_reader *r, const struct td_type *ty,
		       const struct tep_record *rec, struct cfsr_event *ev)
{
	ev->exit.group_dead = -1;
	if (field_comm(r, rec, ty->f[0], ev->exit.comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->exit.pid) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->exit.prio) < 0)
		return -1;
	if (ty->f[3] && field_int(r, rec, ty->f[3], &ev->exit.group_dead) < 0)
		return -1;
	return 0;
}

static int decode_exec(struct td_reader *r, const struct td_type *ty,
		       const struct tep_record *rec, struct cfsr_event *ev)
{
	if (field_str(r, rec, ty->f[0], &ev->exec.filename) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->exec.pid) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->exec.old_pid) < 0)
		return -1;
	return 0;
}

static int decode_runtime(struct td_reader *r, const struct td_type *ty,
			  const struct tep_record *rec, struct cfsr_event *ev)
{
	int64_t runtime;

	if (field_comm(r, rec, ty->f[0], ev->runtime.comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->runtime.pid) < 0 ||
	    field_num(r, rec, ty->f[2], &runtime) < 0)
		return -1;
	ev->runtime.runtime = (uint64_t)runtime;
	return 0;
}

static int decode_pi(struct td_reader *r, const struct td_type *ty,
		     const struct tep_record *rec, struct cfsr_event *ev)
{
	if (field_int(r, rec, ty->f[0], &ev->pi.pid) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->pi.oldprio) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->pi.newprio) < 0)
		return -1;
	return 0;
}

static int decode_cgroup(struct td_reader *r, const struct td_type *ty,
			 const struct tep_record *rec, struct cfsr_event *ev)
{
	int64_t id;

	ev->cgroup.pid = -1;
	if (field_int(r, rec, ty->f[0], &ev->cgroup.root) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->cgroup.level) < 0 ||
	    field_num(r, rec, ty->f[2], &id) < 0 ||
	    field_str(r, rec, ty->f[3], &ev->cgroup.path) < 0)
		return -1;
	ev->cgroup.id = (uint64_t)id;
	if (ty->f[4] && field_int(r, rec, ty->f[4], &ev->cgroup.pid) < 0)
		return -1;
	return 0;
}

static int decode_print(struct td_reader *r, const struct td_type *ty,
			const struct tep_record *rec, struct cfsr_event *ev)
{
	size_t len;

	if (field_str(r, rec, ty->f[0], &ev->marker.text) < 0)
		return -1;
	/* trace_marker writes usually end in a newline; it is not part of the text */
	len = strlen(r->str);
	while (len && r->str[len - 1] == '\n')
		r->str[--len] = '\0';
	return 0;
}

static const struct td_handler handlers[] = {
	{ "cgroup", "cgroup_attach_task", CFSR_EV_CGROUP_ATTACH,
	  { "dst_root", "dst_level", "dst_id", "dst_path", "pid" }, decode_cgroup },
	{ "cgroup", "cgroup_mkdir", CFSR_EV_CGROUP_MKDIR,
	  { "root", "level", "id", "path" }, decode_cgroup },
	{ "cgroup", "cgroup_rmdir", CFSR_EV_CGROUP_RMDIR,
	  { "root", "level", "id", "path" }, decode_cgroup },
	{ "ftrace", "print", CFSR_EV_MARKER, { "buf" }, decode_print },
	{ "sched", "sched_migrate_task", CFSR_EV_MIGRATE,
	  { "comm", "pid", "prio", "orig_cpu", "dest_cpu" }, decode_migrate },
	{ "sched", "sched_pi_setprio", CFSR_EV_PI_SETPRIO,
	  { "pid", "oldprio", "newprio" }, decode_pi },
	{ "sched", "sched_process_exec", CFSR_EV_EXEC,
	  { "filename", "pid", "old_pid" }, decode_exec },
	{ "sched", "sched_process_exit", CFSR_EV_EXIT,
	  { "comm", "pid", "prio", "?group_dead" }, decode_exit },
	{ "sched", "sched_process_fork", CFSR_EV_FORK,
	  { "parent_comm", "parent_pid", "child_comm", "child_pid" }, decode_fork },
	{ "sched", "sched_process_free", CFSR_EV_FREE,
	  { "comm", "pid", "prio" }, decode_exit },
	{ "sched", "sched_stat_runtime", CFSR_EV_STAT_RUNTIME,
	  { "comm", "pid", "runtime" }, decode_runtime },
	{ "sched", "sched_switch", CFSR_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
	    "next_prio" },
	  decode_switch },
	{ "sched", "sched_wakeup", CFSR_EV_WAKEUP,
	  { "comm", "pid", "prio", "?success", "?target_cpu" }, decode_wake },
	{ "sched", "sched_wakeup_new", CFSR_EV_WAKEUP_NEW,
	  { "comm", "pid", "prio", "?success", "?target_cpu" }, decode_wake },
	{ "sched", "sched_waking", CFSR_EV_WAKING,
	  { "comm", "pid", "prio", "?success", "?target_cpu" }, decode_wake },
};

static const struct td_handler *find_handler(const char *system, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
		if (!strcmp(handlers[i].name, name) && system &&
		    !strcmp(handlers[i].system, system))
			return &handlers[i];
	}
	return NULL;
}

/* ---- sched_switch's prev_state encoding, from the print format ------------ */

/*
 * Evaluate a constant expression of the print format (numbers combined with
 * | & + - << >> *).  Return 0 and the value, or -1 when the expression holds
 * anything else.
 */
static int eval_const(const struct tep_print_arg *a, uint64_t *val)
{
	uint64_t l, rv;
	char *end;

	if (!a)
		return -1;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		errno = 0;
		*val = strtoull(a->atom.atom, &end, 0);
		while (*end == 'U' || *end == 'L' || *end == 'u' || *end == 'l')
			end++;
		return errno || *end ? -1 : 0;
	case TEP_PRINT_TYPE:
		return eval_const(a->typecast.item, val);
	case TEP_PRINT_OP:
		if (!a->op.left || eval_const(a->op.left, &l) < 0 ||
		    eval_const(a->op.right, &rv) < 0)
			return -1;
		if (!strcmp(a->op.op, "|"))
			*val = l | rv;
		else if (!strcmp(a->op.op, "&"))
			*val = l & rv;
		else if (!strcmp(a->op.op, "+"))
			*val = l + rv;
		else if (!strcmp(a->op.op, "-"))
			*val = l - rv;
		else if (!strcmp(a->op.op, "*"))
			*val = l * rv;
		else if (!strcmp(a->op.op, "<<") && rv < 64)
			*val = l << rv;
		else if (!strcmp(a->op.op, ">>") && rv < 64)
			*val = l >> rv;
		else
			return -1;
		return 0;
	default:
		return -1;
	}
}

static bool is_field(const struct tep_print_arg *a, const char *name)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_FIELD && a->field.name && !strcmp(a->field.name, name);
}

/* If @a is "prev_state & CONST", return 0 and CONST. */
static int state_and_mask(const struct tep_print_arg *a, uint64_t *mask)
{
	if (!a || a->type != TEP_PRINT_OP || strcmp(a->op.op, "&"))
		return -1;
	if (is_field(a->op.left, "prev_state"))
		return eval_const(a->op.right, mask);
	if (is_field(a->op.right, "prev_state"))
		return eval_const(a->op.left, mask);
	return -1;
}

/*
 * The kernel prints prev_state as "<flags or R><'+' if preempted>", with
 * two conditionals of the form "prev_state & MASK ? ... : ...": the first
 * selects the state bits, the second the preempted marker ("+").  The masks
 * differ between kernels (TASK_STATE_MAX before v4.14, TASK_REPORT_MAX
 * after), so they are read from the format instead of assumed.
 */
static void find_state_masks(struct td_reader *r, const struct tep_event *event)
{
	const struct tep_print_arg *a;

	for (a = event->print_fmt.args; a; a = a->next) {
		const struct tep_print_arg *res;
		uint64_t mask;

		if (a->type != TEP_PRINT_OP || strcmp(a->op.op, "?"))
			continue;
		if (state_and_mask(a->op.left, &mask) < 0)
			continue;
		res = a->op.right;
		if (res && res->type == TEP_PRINT_OP && !strcmp(res->op.op, ":") &&
		    res->op.left && res->op.left->type == TEP_PRINT_ATOM &&
		    !strcmp(res->op.left->atom.atom, "+"))
			r->preempt_mask = mask;
		else
			r->state_mask = mask;
	}
}

/* ---- file version 6: check the data extents before libtracecmd maps them -- */

/*
 * libtracecmd trusts the CPU data offsets and sizes of a version 6 file and
 * fails badly on a file cut short inside its data.  So, for version 6, walk
 * the headers as documented in trace-cmd.dat.v6(5) and check that every
 * CPU's data lies inside the file.  (Version 7 files end with a section
 * table that libtracecmd checks itself.)
 */
struct v6_walk {
	FILE *f;
	off_t size;
	bool big_endian;
};

static int v6_read(struct v6_walk *w, void *buf, size_t len)
{
	return fread(buf, 1, len, w->f) == len ? 0 : -1;
}

static int v6_num(struct v6_walk *w, unsigned int len, uint64_t *val)
{
	unsigned char b[8];
	unsigned int i;

	if (v6_read(w, b, len) < 0)
		return -1;
	*val = 0;
	for (i = 0; i < len; i++) {
		unsigned int k = w->big_endian ? i : len - 1 - i;

		*val = (*val << 8) | b[k];
	}
	return 0;
}

static int v6_skip(struct v6_walk *w, uint64_t len)
{
	off_t pos = ftello(w->f);

	if (pos < 0 || len > (uint64_t)(w->size - pos))
		return -1;
	return fseeko(w->f, (off_t)len, SEEK_CUR);
}

/* Skip a NUL-terminated string; with @expect, it must equal @expect. */
static int v6_string(struct v6_walk *w, const char *expect)
{
	size_t n = 0;
	int c;

	while ((c = fgetc(w->f)) != EOF && c) {
		if (expect && (expect[n] == '\0' || expect[n] != c))
			return -1;
		n++;
		if (n > 4096)
			return -1;
	}
	if (c == EOF || (expect && expect[n]))
		return -1;
	return 0;
}

/* Skip @count blocks, each preceded by its @lsize-byte length. */
static int v6_blocks(struct v6_walk *w, uint64_t count, unsigned int lsize)
{
	uint64_t len;

	while (count--) {
		if (v6_num(w, lsize, &len) < 0 || v6_skip(w, len) < 0)
			return -1;
	}
	return 0;
}

/* Return 0 when the file's CPU data is complete, -1 when it is cut short or corrupt. */
static int v6_check_extents(const char *path)
{
	struct v6_walk w = { 0 };
	unsigned char head[12];
	uint64_t v, nsys, cpus, id, len, off;
	char sect[10];
	int ret = -1;

	w.f = fopen(path, "rb");
	if (!w.f)
		return -1;
	if (fseeko(w.f, 0, SEEK_END) < 0 || (w.size = ftello(w.f)) < 0 ||
	    fseeko(w.f, 0, SEEK_SET) < 0)
		goto out;
	if (v6_read(&w, head, 10) < 0 || v6_string(&w, "6") < 0 || v6_read(&w, head, 2) < 0)
		goto out;
	w.big_endian = head[0] != 0;
	if (v6_num(&w, 4, &v) < 0 ||                               /* page size */
	    v6_string(&w, "header_page") < 0 || v6_blocks(&w, 1, 8) < 0 ||
	    v6_string(&w, "header_event") < 0 || v6_blocks(&w, 1, 8) < 0 ||
	    v6_num(&w, 4, &v) < 0 || v6_blocks(&w, v, 8) < 0)      /* ftrace formats */
		goto out;
	if (v6_num(&w, 4, &nsys) < 0)
		goto out;
	while (nsys--) {                                           /* event systems */
		if (v6_string(&w, NULL) < 0 || v6_num(&w, 4, &v) < 0 || v6_blocks(&w, v, 8) < 0)
			goto out;
	}
	if (v6_blocks(&w, 1, 4) < 0 || v6_blocks(&w, 1, 4) < 0 ||  /* kallsyms, printk */
	    v6_blocks(&w, 1, 8) < 0 || v6_num(&w, 4, &cpus) < 0)   /* cmdlines, cpus */
		goto out;
	for (;;) {
		if (v6_read(&w, sect, sizeof(sect)) < 0)
			goto out;
		if (memcmp(sect, "options  ", sizeof(sect)))
			break;
		for (;;) {
			if (v6_num(&w, 2, &id) < 0)
				goto out;
			if (!id)
				break;
			if (v6_num(&w, 4, &len) < 0 || v6_skip(&w, len) < 0)
				goto out;
		}
	}
	if (!memcmp(sect, "latency  ", sizeof(sect))) {
		ret = 0;
		goto out;
	}
	if (memcmp(sect, "flyrecord", sizeof(sect)))
		goto out;
	while (cpus--) {
		if (v6_num(&w, 8, &off) < 0 || v6_num(&w, 8, &len) < 0)
			goto out;
		if (off > (uint64_t)w.size || len > (uint64_t)w.size - off)
			goto out;
	}
	ret = 0;
out:
	fclose(w.f);
	return ret;
}

/* The file version is the NUL-terminated string after the 10-byte magic. */
static int file_version_of(const char *path)
{
	char buf[16] = "";
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n <= 10)
		return -1;
	buf[n] = '\0';
	return atoi(buf + 10);
}

/* ---- open / next / close ------------------------------------------------- */

static int tracedat_probe(const unsigned char *head, size_t len)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

static int type_cmp(const void *a, const void *b)
{
	const struct td_type *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int setup_types(struct td_reader *r, struct cfsr_trace *t)
{
	int nr = tep_get_events_count(r->tep);
	int i, j;

	if (nr < 0)
		nr = 0;
	r->types = calloc((size_t)nr + 1, sizeof(*r->types));
	r->pub_types = calloc((size_t)nr + 1, sizeof(*r->pub_types));
	t->stats.type_counts = calloc((size_t)nr + 1, sizeof(*t->stats.type_counts));
	if (!r->types || !r->pub_types || !t->stats.type_counts)
		return -1;
	for (i = 0; i < nr; i++) {
		struct tep_event *event = tep_get_event(r->tep, i);

		if (!event)
			continue;
		r->types[r->nr_types].id = event->id;
		r->types[r->nr_types].h = find_handler(event->system, event->name);
		r->nr_types++;
	}
	qsort(r->types, (size_t)r->nr_types, sizeof(*r->types), type_cmp);
	for (i = 0; i < r->nr_types; i++) {
		struct td_type *ty = &r->types[i];
		struct tep_event *event = tep_find_event(r->tep, ty->id);

		r->pub_types[i].system = event->system;
		r->pub_types[i].name = event->name;
		if (!ty->h)
			continue;
		for (j = 0; j < TD_MAX_FIELDS && ty->h->fields[j]; j++) {
			const char *name = ty->h->fields[j];
			bool optional = name[0] == '?';

			ty->f[j] = tep_find_field(event, name + optional);
			if (!ty->f[j] && !optional) {
				/* a layout we do not know: skip these records as unknown */
				ty->h = NULL;
				break;
			}
		}
		if (ty->h && ty->h->kind == CFSR_EV_SWITCH)
			find_state_masks(r, event);
		r->pub_types[i].known = ty->h != NULL;
	}
	t->info.nr_types = r->nr_types;
	t->info.types = r->pub_types;
	return 0;
}

static int find_type(const struct td_reader *r, int id)
{
	int lo = 0, hi = r->nr_types - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (r->types[mid].id == id)
			return mid;
		if (r->types[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Sum "overrun:", "commit overrun:" and "dropped events:" over all CPUs. */
static int64_t parse_overruns(const char *stats)
{
	static const char *const keys[] = { "overrun:", "commit overrun:", "dropped events:" };
	int64_t total = 0;
	const char *line;
	bool found = false;

	if (!stats)
		return -1;
	for (line = stats; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t k;

		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n = strlen(keys[k]);

			if (!strncmp(line, keys[k], n)) {
				total += strtoll(line + n, NULL, 10);
				found = true;
			}
		}
	}
	return found ? total : -1;
}

/* The kernel release is the third word of the recorded "uname -a" string. */
static char *parse_release(const char *uname)
{
	const char *p = uname;
	size_t len;
	int word;

	if (!p)
		return NULL;
	for (word = 0; word < 2; word++) {
		while (*p && !isspace((unsigned char)*p))
			p++;
		while (*p && isspace((unsigned char)*p))
			p++;
	}
	len = strcspn(p, " \t\n");
	return len ? strndup(p, len) : NULL;
}

static void tracedat_close(struct cfsr_trace *t)
{
	struct td_reader *r = t->priv;
	int i;

	if (!r)
		return;
	if (r->pending)
		tracecmd_free_record(r->pending);
	for (i = 1; i < r->nr_handles; i++)
		tracecmd_close(r->handles[i]);
	if (r->handle)
		tracecmd_close(r->handle);
	free(r->handles);
	free(r->types);
	free(r->pub_types);
	free(r->str);
	free(r->release);
	free(r->compression);
	free(r);
	t->priv = NULL;
}

static int tracedat_open(struct cfsr_trace *t, const char *path)
{
	const char *cname = NULL, *cversion = NULL;
	struct td_reader *r;
	int nr_inst, i;

	r = calloc(1, sizeof(*r));
	if (!r)
		return cfsr_error("cannot open '%s': out of memory", path);
	t->priv = r;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	if (file_version_of(path) == 6 && v6_check_extents(path) < 0) {
		cfsr_error("cannot read '%s': file truncated or corrupt (trace.dat version 6 headers or CPU data incomplete)",
			   path);
		goto out_close;
	}
	r->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
						TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!r->handle) {
		cfsr_error("cannot read '%s': corrupt or truncated trace.dat file", path);
		goto out_close;
	}
	r->tep = tracecmd_get_tep(r->handle);
	if (!r->tep) {
		cfsr_error("cannot read '%s': no event formats in trace.dat file", path);
		goto out_close;
	}

	nr_inst = tracecmd_buffer_instances(r->handle);
	if (nr_inst < 0)
		nr_inst = 0;
	r->handles = calloc((size_t)nr_inst + 1, sizeof(*r->handles));
	if (!r->handles)
		goto out_nomem;
	r->handles[r->nr_handles++] = r->handle;
	for (i = 0; i < nr_inst; i++) {
		struct tracecmd_input *inst = tracecmd_buffer_instance_handle(r->handle, i);

		if (!inst) {
			cfsr_error("cannot read '%s': buffer instance '%s' is corrupt", path,
				   tracecmd_buffer_instance_name(r->handle, i));
			goto out_close;
		}
		r->handles[r->nr_handles++] = inst;
		if (tracecmd_get_tep(inst) != r->tep) {
			cfsr_error("cannot read '%s': buffer instances with their own event formats are not supported",
				   path);
			goto out_close;
		}
	}

	if (setup_types(r, t) < 0)
		goto out_nomem;

	t->info.reader = "trace.dat";
	t->info.file_version = (unsigned int)tracecmd_get_in_file_version(r->handle);
	if (tracecmd_get_file_compress_proto(r->handle, &cname, &cversion) == 0 && cname &&
	    *cname && strcmp(cname, "none"))
		r->compression = strdup(cname);
	else
		r->compression = strdup("none");
	if (!r->compression)
		goto out_nomem;
	t->info.compression = r->compression;
	t->info.uname = tracecmd_get_uname(r->handle);
	r->release = parse_release(t->info.uname);
	t->info.kernel_release = r->release;
	t->info.clock = tracecmd_get_trace_clock(r->handle);
	t->info.nr_cpus = tracecmd_cpus(r->handle);
	for (i = 1; i < r->nr_handles; i++) {
		int n = tracecmd_cpus(r->handles[i]);

		if (n > t->info.nr_cpus)
			t->info.nr_cpus = n;
	}
	t->info.hz = 0;
	t->info.preempt_bit_known = r->preempt_mask != 0;
	t->info.overruns = parse_overruns(tracecmd_get_cpustats(r->handle));
	return 0;

out_nomem:
	cfsr_error("cannot open '%s': out of memory", path);
out_close:
	tracedat_close(t);
	return -1;
}

/* The next record in time order over all buffers, or NULL at the end. */
static struct tep_record *read_next_record(struct td_reader *r)
{
	unsigned long long best_ts = 0;
	int best = -1, cpu, i;

	if (r->nr_handles == 1)
		return tracecmd_read_next_data(r->handle, &cpu);
	for (i = 0; i < r->nr_handles; i++) {
		struct tep_record *rec = tracecmd_peek_next_data(r->handles[i], &cpu);

		if (rec && (best < 0 || rec->ts < best_ts)) {
			best = i;
			best_ts = rec->ts;
		}
	}
	if (best < 0)
		return NULL;
	return tracecmd_read_next_data(r->handles[best], &cpu);
}

static int tracedat_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	struct td_reader *r = t->priv;
	struct tep_record *rec;

	for (;;) {
		const struct td_type *ty;
		int idx, ret;

		if (r->pending) {
			rec = r->pending;
			r->pending = NULL;
		} else {
			rec = read_next_record(r);
			if (!rec)
				return 0;
			if (rec->missed_events) {
				/* deliver the notice first, then this record */
				memset(ev, 0, sizeof(*ev));
				ev->ts = rec->ts;
				ev->cpu = rec->cpu;
				ev->pid = -1;
				ev->type = -1;
				ev->kind = CFSR_EV_LOST;
				ev->lost.nr = rec->missed_events > 0 ? rec->missed_events : -1;
				t->stats.lost_notices++;
				if (rec->missed_events > 0)
					t->stats.lost_events += (uint64_t)rec->missed_events;
				else
					t->stats.lost_unknown++;
				r->pending = rec;
				return 1;
			}
		}

		if (!t->stats.records)
			t->stats.first_ts = rec->ts;
		t->stats.records++;
		t->stats.last_ts = rec->ts;

		idx = find_type(r, tep_data_type(r->tep, rec));
		if (idx < 0) {
			t->stats.unknown++;
			tracecmd_free_record(rec);
			continue;
		}
		t->stats.type_counts[idx]++;
		ty = &r->types[idx];
		if (!ty->h) {
			t->stats.unknown++;
			tracecmd_free_record(rec);
			continue;
		}

		memset(ev, 0, sizeof(*ev));
		ev->ts = rec->ts;
		ev->cpu = rec->cpu;
		ev->pid = tep_data_pid(r->tep, rec);
		ev->kind = ty->h->kind;
		ev->type = idx;
		ret = ty->h->decode(r, ty, rec, ev);
		tracecmd_free_record(rec);
		if (ret < 0) {
			t->stats.malformed++;
			continue;
		}
		return 1;
	}
}

const struct cfsr_format cfsr_format_tracedat = {
	.name = "trace.dat",
	.probe = tracedat_probe,
	.open = tracedat_open,
	.next = tracedat_next,
	.close = tracedat_close,
};

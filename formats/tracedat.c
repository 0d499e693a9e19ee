// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader (trace-cmd file versions 6 and 7, uncompressed or
 * compressed with zstd or zlib), built on libtraceevent.
 *
 * The container is read here (tracedat-layout.c, tracedat-meta.c) rather
 * than through libtracecmd: the libtracecmd of Debian 12 (3.1.6) keeps every
 * chunk it decompresses (memory grows with the trace), cannot decode zlib
 * files, parses all of kallsyms on every open and crashes on some truncated
 * files.  libtraceevent parses the event formats and kbuffer decodes the
 * ring-buffer pages.
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
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"
#include "sandbox.h"
#include "tracedat-local.h"

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

/*
 * One CPU of one buffer instance: its ring-buffer pages, read one at a
 * time (uncompressed files) or one compressed chunk at a time, decoded
 * with libtraceevent's kbuffer.
 */
struct td_stream {
	const struct td_buffer *buf;
	const struct td_extent *ext;
	struct kbuffer *kbuf;
	unsigned int page_size;
	/* uncompressed: offset of the next page within the extent */
	uint64_t pos;
	/* compressed: chunks left, file offset of the next chunk header */
	uint64_t chunks_left;
	uint64_t chunk_off;
	unsigned char *chunk;
	size_t chunk_len;
	size_t chunk_alloc;
	size_t chunk_pos;
	unsigned char *page;
	/* the current event */
	void *data;
	unsigned long long ts;
	int size;
	/* events lost before the current event: 0 none, -1 unknown count */
	long long missed;
	bool done;
};

struct td_reader {
	struct tep_handle *tep;
	char *clock;
	int fd;
	struct td_layout layout;
	struct td_stream *streams;
	int nr_streams;
	/* min-heap of stream indexes ordered by (ts, index) */
	int *heap;
	int heap_len;
	/* sorted by id */
	struct td_type *types;
	struct cfsr_event_type *pub_types;
	int nr_types;
	/* a lost-events notice was delivered for the heap's top event */
	bool lost_delivered;
	/* sched_switch prev_state: preempted marker and state bits */
	uint64_t preempt_mask;
	uint64_t state_mask;
	/* storage for the borrowed string of the current event */
	char *str;
	size_t str_alloc;
	char *release;
	/* pages that failed to decode, reported as lost events */
	uint64_t bad_pages;
	/* size of the commit word in a page header: the kernel's long */
	int commit_size;
	const char *path;
};

/* ---- reading fields ---------------------------------------------------- */

static int field_num(const struct td_reader *r, const struct tep_record *rec,
		     const struct tep_format_field *f, int64_t *val)
{
	unsigned long long v;

	if (!f || f->size <= 0 || f->size > 8 || f->offset < 0 || f->offset + f->size > rec->size)
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

static int decode_wake(struct td_reader *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
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

static int decode_fork(struct td_reader *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
{
	if (field_comm(r, rec, ty->f[0], ev->fork.parent_comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->fork.parent_pid) < 0 ||
	    field_comm(r, rec, ty->f[2], ev->fork.child_comm) < 0 ||
	    field_int(r, rec, ty->f[3], &ev->fork.child_pid) < 0)
		return -1;
	return 0;
}

static int decode_exit(struct td_reader *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
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

static int decode_exec(struct td_reader *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
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

static int decode_pi(struct td_reader *r, const struct td_type *ty, const struct tep_record *rec,
		     struct cfsr_event *ev)
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

static int decode_print(struct td_reader *r, const struct td_type *ty, const struct tep_record *rec,
			struct cfsr_event *ev)
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
	{ "cgroup",
	  "cgroup_attach_task",
	  CFSR_EV_CGROUP_ATTACH,
	  { "dst_root", "dst_level", "dst_id", "dst_path", "pid" },
	  decode_cgroup },
	{ "cgroup",
	  "cgroup_mkdir",
	  CFSR_EV_CGROUP_MKDIR,
	  { "root", "level", "id", "path" },
	  decode_cgroup },
	{ "cgroup",
	  "cgroup_rmdir",
	  CFSR_EV_CGROUP_RMDIR,
	  { "root", "level", "id", "path" },
	  decode_cgroup },
	{ "ftrace", "print", CFSR_EV_MARKER, { "buf" }, decode_print },
	{ "sched",
	  "sched_migrate_task",
	  CFSR_EV_MIGRATE,
	  { "comm", "pid", "prio", "orig_cpu", "dest_cpu" },
	  decode_migrate },
	{ "sched",
	  "sched_pi_setprio",
	  CFSR_EV_PI_SETPRIO,
	  { "pid", "oldprio", "newprio" },
	  decode_pi },
	{ "sched",
	  "sched_process_exec",
	  CFSR_EV_EXEC,
	  { "filename", "pid", "old_pid" },
	  decode_exec },
	{ "sched",
	  "sched_process_exit",
	  CFSR_EV_EXIT,
	  { "comm", "pid", "prio", "?group_dead" },
	  decode_exit },
	{ "sched",
	  "sched_process_fork",
	  CFSR_EV_FORK,
	  { "parent_comm", "parent_pid", "child_comm", "child_pid" },
	  decode_fork },
	{ "sched", "sched_process_free", CFSR_EV_FREE, { "comm", "pid", "prio" }, decode_exit },
	{ "sched",
	  "sched_stat_runtime",
	  CFSR_EV_STAT_RUNTIME,
	  { "comm", "pid", "runtime" },
	  decode_runtime },
	{ "sched",
	  "sched_switch",
	  CFSR_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
	    "next_prio" },
	  decode_switch },
	{ "sched",
	  "sched_wakeup",
	  CFSR_EV_WAKEUP,
	  { "comm", "pid", "prio", "?success", "?target_cpu" },
	  decode_wake },
	{ "sched",
	  "sched_wakeup_new",
	  CFSR_EV_WAKEUP_NEW,
	  { "comm", "pid", "prio", "?success", "?target_cpu" },
	  decode_wake },
	{ "sched",
	  "sched_waking",
	  CFSR_EV_WAKING,
	  { "comm", "pid", "prio", "?success", "?target_cpu" },
	  decode_wake },
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
int td_switch_state_masks(const struct tep_event *event, uint64_t *preempt, uint64_t *state)
{
	const struct tep_print_arg *a;

	*preempt = 0;
	*state = 0;
	for (a = event->print_fmt.args; a; a = a->next) {
		const struct tep_print_arg *res;
		uint64_t mask;

		if (a->type != TEP_PRINT_OP || strcmp(a->op.op, "?"))
			continue;
		if (state_and_mask(a->op.left, &mask) < 0)
			continue;
		res = a->op.right;
		if (res && res->type == TEP_PRINT_OP && !strcmp(res->op.op, ":") && res->op.left &&
		    res->op.left->type == TEP_PRINT_ATOM && !strcmp(res->op.left->atom.atom, "+"))
			*preempt = mask;
		else
			*state = mask;
	}
	return *preempt ? 0 : -1;
}

/* ---- open / next / close ------------------------------------------------- */

static int tracedat_probe(const unsigned char *head, size_t len)
{
	static const unsigned char magic[] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};

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
			td_switch_state_masks(event, &r->preempt_mask, &r->state_mask);
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
	for (line = stats; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
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

/* ---- page streams ---------------------------------------------------------- */

/* Load the next page of @st into its kbuffer; 1 loaded, 0 end, -1 bad data. */
static int stream_next_page(struct td_reader *r, struct td_stream *st)
{
	const char *algo = r->layout.compression;
	unsigned long long commit;
	void *page;

	if (!st->buf->compressed) {
		uint64_t left;
		size_t n;

		if (st->pos >= st->ext->size)
			return 0;
		left = st->ext->size - st->pos;
		n = left < st->page_size ? (size_t)left : st->page_size;
		memset(st->page, 0, st->page_size);
		if (td_pread(r->fd, st->page, n, st->ext->offset + st->pos) < 0)
			return -1;
		st->pos += st->page_size;
		page = st->page;
	} else {
		if (st->chunk_pos + st->page_size > st->chunk_len) {
			unsigned char hdr[8], *raw;
			uint32_t clen, ulen;
			/* the extent's size does not count the 4-byte chunk count before it */
			uint64_t end = st->ext->offset + 4 + st->ext->size;
			int ret;

			if (!st->chunks_left)
				return 0;
			st->chunks_left--;
			if (st->chunk_off + 8 > end || td_pread(r->fd, hdr, 8, st->chunk_off) < 0)
				return -1;
			clen = (uint32_t)tep_read_number(r->tep, hdr, 4);
			ulen = (uint32_t)tep_read_number(r->tep, hdr + 4, 4);
			if (clen > end - st->chunk_off - 8 || !ulen || ulen > (256u << 20))
				return -1;
			if (CFSR_ALLOC_GROW(st->chunk, (size_t)ulen + st->page_size + 64,
					    st->chunk_alloc) < 0)
				return -1;
			raw = malloc(clen ? clen : 1);
			if (!raw)
				return -1;
			ret = td_pread(r->fd, raw, clen, st->chunk_off + 8);
			if (!ret)
				ret = td_decompress(algo, raw, clen, st->chunk, ulen);
			free(raw);
			if (ret < 0)
				return -1;
			/* a chunk not a multiple of the page size ends in a zeroed page */
			memset(st->chunk + ulen, 0, st->page_size + 64);
			st->chunk_len = ulen;
			st->chunk_pos = 0;
			st->chunk_off += 8 + (uint64_t)clen;
		}
		page = st->chunk + st->chunk_pos;
		st->chunk_pos += st->page_size;
	}
	/*
	 * The page header is a u64 timestamp and a "long" commit word whose low
	 * 27 bits are the bytes of event data; the top bits flag lost events.
	 * kbuffer trusts it, so check it fits the page before loading.
	 */
	commit = tep_read_number(r->tep, (const char *)page + 8, r->commit_size);
	if ((commit & ((1ull << 27) - 1)) + 8 + (unsigned int)r->commit_size > st->page_size)
		return -1;
	if (kbuffer_load_subbuffer(st->kbuf, page) < 0)
		return -1;
	return 1;
}

/* Check the event kbuffer now points at; record it in @st if sound. */
static bool stream_take(struct td_reader *r, struct td_stream *st, void *data,
			unsigned long long ts)
{
	int size = kbuffer_event_size(st->kbuf);

	if (size < 0 || kbuffer_curr_offset(st->kbuf) + size > (int)st->page_size)
		return false;
	st->data = data;
	st->size = size;
	st->ts = ts + (unsigned long long)r->layout.ts_offset;
	return true;
}

/*
 * Move @st to its next event, loading pages as needed.  Pages that fail to
 * decode, and the rest of a page whose event runs past its end, are
 * skipped and counted, and the next event carries a lost-events notice.  A
 * corrupt compressed chunk ends the CPU's data.
 */
static void stream_advance(struct td_reader *r, struct td_stream *st, bool first)
{
	bool need_page = first;

	for (;;) {
		unsigned long long ts;
		void *data;
		int ret;

		if (!need_page) {
			data = kbuffer_next_event(st->kbuf, &ts);
			if (data && stream_take(r, st, data, ts))
				return;
			if (data) {
				r->bad_pages++;
				st->missed = -1;
			}
		}
		need_page = false;
		ret = stream_next_page(r, st);
		if (ret == 0) {
			st->done = true;
			return;
		}
		if (ret < 0) {
			r->bad_pages++;
			st->missed = -1;
			if (st->buf->compressed) {
				st->done = true;
				return;
			}
			need_page = true;
			continue;
		}
		if (kbuffer_missed_events(st->kbuf))
			st->missed = kbuffer_missed_events(st->kbuf);
		data = kbuffer_read_event(st->kbuf, &ts);
		if (!data) {
			need_page = true;
			continue;
		}
		if (stream_take(r, st, data, ts))
			return;
		r->bad_pages++;
		st->missed = -1;
		need_page = true;
	}
}

static bool stream_before(const struct td_reader *r, int a, int b)
{
	const struct td_stream *x = &r->streams[a], *y = &r->streams[b];

	return x->ts < y->ts || (x->ts == y->ts && a < b);
}

static void heap_down(struct td_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i, tmp;

		if (l < r->heap_len && stream_before(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->heap_len && stream_before(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = tmp;
		i = m;
	}
}

static int setup_streams(struct td_reader *r)
{
	int b, e, n = 0, i;
	enum kbuffer_long_size lsize;
	enum kbuffer_endian endian;

	for (b = 0; b < r->layout.nr_buffers; b++)
		n += r->layout.buffers[b].nr_extents;
	r->streams = calloc((size_t)n + 1, sizeof(*r->streams));
	r->heap = calloc((size_t)n + 1, sizeof(*r->heap));
	if (!r->streams || !r->heap)
		return -1;
	/* the kernel's long, from the header_page format (not the file's user-space long) */
	r->commit_size = tep_get_header_page_size(r->tep) == 4 ? 4 : 8;
	lsize = r->commit_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8;
	endian = r->layout.big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;
	for (b = 0; b < r->layout.nr_buffers; b++) {
		const struct td_buffer *buf = &r->layout.buffers[b];

		for (e = 0; e < buf->nr_extents; e++) {
			struct td_stream *st = &r->streams[r->nr_streams++];

			st->buf = buf;
			st->ext = &buf->extents[e];
			st->page_size = buf->page_size;
			st->kbuf = kbuffer_alloc(lsize, endian);
			/* zero padding: a damaged last event cannot read past the buffer */
			st->page = calloc(1, (size_t)st->page_size + 64);
			if (!st->kbuf || !st->page)
				return -1;
			if (tep_is_old_format(r->tep))
				kbuffer_set_old_format(st->kbuf);
			if (!st->ext->size) {
				st->done = true;
				continue;
			}
			if (buf->compressed) {
				unsigned char cnt[4];

				if (st->ext->size < 4 ||
				    td_pread(r->fd, cnt, 4, st->ext->offset) < 0)
					return -1;
				st->chunks_left = tep_read_number(r->tep, cnt, 4);
				st->chunk_off = st->ext->offset + 4;
			}
		}
	}
	for (i = 0; i < r->nr_streams; i++) {
		struct td_stream *st = &r->streams[i];

		if (!st->done)
			stream_advance(r, st, true);
		if (!st->done)
			r->heap[r->heap_len++] = i;
	}
	for (i = r->heap_len / 2 - 1; i >= 0; i--)
		heap_down(r, i);
	return 0;
}

/* ---- open / next / close --------------------------------------------------- */

/* Parse the metadata into a throw-away handle: run in the sandbox child. */
static int try_meta_load(void *arg)
{
	struct td_reader *r = arg;
	struct tep_handle *tep = tep_alloc();
	int ret;

	if (!tep)
		return -1;
	ret = td_meta_load(r->path, r->fd, &r->layout, tep);
	tep_free(tep);
	return ret;
}

/* The selected clock of a TRACECLOCK option: "[local] global ..." gives "local". */
static char *parse_clock(const char *opt)
{
	const char *open_br = opt ? strchr(opt, '[') : NULL;
	const char *close_br = open_br ? strchr(open_br, ']') : NULL;

	if (!close_br)
		return NULL;
	return strndup(open_br + 1, (size_t)(close_br - open_br - 1));
}

static void tracedat_close(struct cfsr_trace *t)
{
	struct td_reader *r = t->priv;
	int i;

	if (!r)
		return;
	for (i = 0; i < r->nr_streams; i++) {
		kbuffer_free(r->streams[i].kbuf);
		free(r->streams[i].page);
		free(r->streams[i].chunk);
	}
	free(r->streams);
	free(r->heap);
	if (r->tep)
		tep_free(r->tep);
	td_layout_release(&r->layout);
	if (r->fd >= 0)
		close(r->fd);
	free(r->types);
	free(r->pub_types);
	free(r->str);
	free(r->release);
	free(r->clock);
	free(r);
	t->priv = NULL;
}

static int tracedat_open(struct cfsr_trace *t, const char *path)
{
	struct td_reader *r;
	int nr_cpus = 0, b, e;

	r = calloc(1, sizeof(*r));
	if (!r)
		return cfsr_error("cannot open '%s': out of memory", path);
	t->priv = r;
	r->path = t->path;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		cfsr_error_errno("cannot open '%s'", path);
		goto out_close;
	}
	/* the data layout first: it refuses truncated files before anything maps them */
	if (td_layout_read(path, r->fd, &r->layout) < 0)
		goto out_close;
	if (r->layout.latency) {
		cfsr_error("cannot read '%s': a latency-tracer text trace, not scheduler events",
			   path);
		goto out_close;
	}
	if (r->layout.tsc2nsec) {
		cfsr_error(
			"cannot read '%s': raw TSC timestamps (tsc2nsec) are not supported; record with another clock",
			path);
		goto out_close;
	}
	if (strcmp(r->layout.compression, "none") && strcmp(r->layout.compression, "zstd") &&
	    strcmp(r->layout.compression, "zlib")) {
		cfsr_error(
			"cannot read '%s': compression '%s' is not supported (zstd and zlib are)",
			path, r->layout.compression);
		goto out_close;
	}

	tep_set_loglevel(TEP_LOG_NONE);
	/*
	 * libtraceevent can crash on corrupt formats: parse them in a child
	 * first, and here only if the child succeeded.
	 */
	switch (cfsr_sandbox_try(try_meta_load, r)) {
	case 0:
	case -1: /* no child could be started: go ahead without the net */
		break;
	case 2:
		cfsr_error(
			"cannot read '%s': file corrupt (its event formats crash the format parser)",
			path);
		goto out_close;
	default:
		cfsr_error("cannot read '%s': file truncated or corrupt (event formats)", path);
		goto out_close;
	}
	r->tep = tep_alloc();
	if (!r->tep) {
		cfsr_error("cannot open '%s': out of memory", path);
		goto out_close;
	}
	if (td_meta_load(path, r->fd, &r->layout, r->tep) < 0)
		goto out_close;
	if (tep_get_events_count(r->tep) <= 0) {
		cfsr_error("cannot read '%s': no event formats in trace.dat file", path);
		goto out_close;
	}
	if (setup_types(r, t) < 0 || setup_streams(r) < 0) {
		cfsr_error("cannot read '%s': out of memory or unreadable data", path);
		goto out_close;
	}

	t->info.reader = "trace.dat";
	t->info.file_version = r->layout.version;
	t->info.compression = r->layout.compression;
	t->info.uname = r->layout.uname;
	r->release = parse_release(t->info.uname);
	t->info.kernel_release = r->release;
	/* the top buffer's own clock (v7), else the TRACECLOCK option's choice */
	if (r->layout.nr_buffers && r->layout.buffers[0].clock[0])
		r->clock = strdup(r->layout.buffers[0].clock);
	else
		r->clock = parse_clock(r->layout.trace_clock);
	t->info.clock = r->clock;
	for (b = 0; b < r->layout.nr_buffers; b++)
		for (e = 0; e < r->layout.buffers[b].nr_extents; e++)
			if (r->layout.buffers[b].extents[e].cpu + 1 > nr_cpus)
				nr_cpus = r->layout.buffers[b].extents[e].cpu + 1;
	t->info.nr_cpus = nr_cpus > r->layout.nr_cpus ? nr_cpus : r->layout.nr_cpus;
	t->info.hz = 0;
	t->info.preempt_bit_known = r->preempt_mask != 0;
	t->info.overruns = parse_overruns(r->layout.cpustats);
	return 0;

out_close:
	tracedat_close(t);
	return -1;
}

static int tracedat_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	struct td_reader *r = t->priv;

	while (r->heap_len) {
		int si = r->heap[0];
		struct td_stream *st = &r->streams[si];
		struct tep_record rec;
		const struct td_type *ty;
		int idx, ret;

		if (st->missed && !r->lost_delivered) {
			/* events were lost before this one: say so first */
			memset(ev, 0, sizeof(*ev));
			ev->ts = st->ts;
			ev->cpu = st->ext->cpu;
			ev->pid = -1;
			ev->type = -1;
			ev->kind = CFSR_EV_LOST;
			ev->lost.nr = st->missed > 0 ? st->missed : -1;
			t->stats.lost_notices++;
			if (st->missed > 0)
				t->stats.lost_events += (uint64_t)st->missed;
			else
				t->stats.lost_unknown++;
			r->lost_delivered = true;
			return 1;
		}
		r->lost_delivered = false;
		st->missed = 0;
		if (st->done) {
			/* a CPU whose data ended in a bad page: its notice is out */
			r->heap[0] = r->heap[--r->heap_len];
			heap_down(r, 0);
			continue;
		}

		memset(&rec, 0, sizeof(rec));
		rec.ts = st->ts;
		rec.data = st->data;
		rec.size = st->size;
		rec.cpu = st->ext->cpu;

		if (!t->stats.records)
			t->stats.first_ts = rec.ts;
		t->stats.records++;
		t->stats.last_ts = rec.ts;

		idx = rec.size >= 2 ? find_type(r, tep_data_type(r->tep, &rec)) : -1;
		ty = idx >= 0 ? &r->types[idx] : NULL;
		ret = 0;
		if (idx < 0) {
			t->stats.unknown++;
		} else {
			t->stats.type_counts[idx]++;
			if (!ty->h) {
				t->stats.unknown++;
			} else {
				memset(ev, 0, sizeof(*ev));
				ev->ts = rec.ts;
				ev->cpu = rec.cpu;
				ev->pid = tep_data_pid(r->tep, &rec);
				ev->kind = ty->h->kind;
				ev->type = idx;
				ret = ty->h->decode(r, ty, &rec, ev) < 0 ? -1 : 1;
				if (ret < 0)
					t->stats.malformed++;
			}
		}

		/* move this CPU on and restore the heap order */
		stream_advance(r, st, false);
		if (st->done && !st->missed)
			r->heap[0] = r->heap[--r->heap_len];
		heap_down(r, 0);
		t->stats.bad_pages = r->bad_pages;
		if (ret > 0)
			return 1;
	}
	return 0;
}

const struct cfsr_format cfsr_format_tracedat = {
	.name = "trace.dat",
	.probe = tracedat_probe,
	.open = tracedat_open,
	.next = tracedat_next,
	.close = tracedat_close,
};

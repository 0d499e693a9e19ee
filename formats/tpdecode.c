// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoding scheduler tracepoint records into struct cfsr_event.
 *
 * Shared by the readers whose records are ftrace tracepoint payloads
 * described by libtraceevent formats (trace.dat, perf.data).  At init, every
 * event type the file declares is looked up once in a handler table; the
 * fields a handler needs are resolved from the file's own format
 * description, so layouts that differ between kernels (field offsets,
 * sizes, optional fields such as sched_wakeup's "success", the encoding of
 * sched_switch's preempted bit) are read as the file declares them.  Every
 * field read is checked against the record's size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "alloc.h"
#include "error.h"
#include "tracedat-local.h"

#define TD_MAX_FIELDS 8

typedef int (*td_decode_fn)(struct td_decoder *r, const struct td_type *ty,
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

/* ---- reading fields ---------------------------------------------------- */

static int field_num(const struct td_decoder *r, const struct tep_record *rec,
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

static int field_int(const struct td_decoder *r, const struct tep_record *rec,
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
static int field_bytes(const struct td_decoder *r, const struct tep_record *rec,
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

static int field_comm(const struct td_decoder *r, const struct tep_record *rec,
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
static int field_str(struct td_decoder *r, const struct tep_record *rec,
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

static int decode_switch(struct td_decoder *r, const struct td_type *ty,
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

static int decode_wake(struct td_decoder *r, const struct td_type *ty, const struct tep_record *rec,
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

static int decode_migrate(struct td_decoder *r, const struct td_type *ty,
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

static int decode_fork(struct td_decoder *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
{
	if (field_comm(r, rec, ty->f[0], ev->fork.parent_comm) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->fork.parent_pid) < 0 ||
	    field_comm(r, rec, ty->f[2], ev->fork.child_comm) < 0 ||
	    field_int(r, rec, ty->f[3], &ev->fork.child_pid) < 0)
		return -1;
	return 0;
}

static int decode_exit(struct td_decoder *r, const struct td_type *ty, const struct tep_record *rec,
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

static int decode_exec(struct td_decoder *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
{
	if (field_str(r, rec, ty->f[0], &ev->exec.filename) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->exec.pid) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->exec.old_pid) < 0)
		return -1;
	return 0;
}

static int decode_runtime(struct td_decoder *r, const struct td_type *ty,
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

static int decode_pi(struct td_decoder *r, const struct td_type *ty, const struct tep_record *rec,
		     struct cfsr_event *ev)
{
	if (field_int(r, rec, ty->f[0], &ev->pi.pid) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->pi.oldprio) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->pi.newprio) < 0)
		return -1;
	return 0;
}

static int decode_affinity(struct td_decoder *r, const struct td_type *ty,
			   const struct tep_record *rec, struct cfsr_event *ev)
{
	return field_int(r, rec, ty->f[0], &ev->affinity.pid);
}

static int decode_setprio(struct td_decoder *r, const struct td_type *ty,
			  const struct tep_record *rec, struct cfsr_event *ev)
{
	if (field_int(r, rec, ty->f[0], &ev->setprio.which) < 0 ||
	    field_int(r, rec, ty->f[1], &ev->setprio.who) < 0 ||
	    field_int(r, rec, ty->f[2], &ev->setprio.niceval) < 0)
		return -1;
	return 0;
}

static int decode_freq(struct td_decoder *r, const struct td_type *ty, const struct tep_record *rec,
		       struct cfsr_event *ev)
{
	int64_t khz;

	if (field_num(r, rec, ty->f[0], &khz) < 0 || field_int(r, rec, ty->f[1], &ev->freq.cpu) < 0)
		return -1;
	ev->freq.khz = (uint64_t)khz;
	return 0;
}

static int decode_cgroup(struct td_decoder *r, const struct td_type *ty,
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

static int decode_print(struct td_decoder *r, const struct td_type *ty,
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
	{ "syscalls",
	  "sys_enter_sched_setaffinity",
	  CFSR_EV_SETAFFINITY,
	  { "pid" },
	  decode_affinity },
	{ "syscalls",
	  "sys_enter_setpriority",
	  CFSR_EV_SETPRIORITY,
	  { "which", "who", "niceval" },
	  decode_setprio },
	{ "power", "cpu_frequency", CFSR_EV_CPU_FREQ, { "state", "cpu_id" }, decode_freq },
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

static int type_cmp(const void *a, const void *b)
{
	const struct td_type *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int td_decoder_init(struct td_decoder *d, struct tep_handle *tep)
{
	int nr = tep_get_events_count(tep);
	int i, j;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	if (nr < 0)
		nr = 0;
	d->types = calloc((size_t)nr + 1, sizeof(*d->types));
	d->pub_types = calloc((size_t)nr + 1, sizeof(*d->pub_types));
	if (!d->types || !d->pub_types)
		return -1;
	for (i = 0; i < nr; i++) {
		struct tep_event *event = tep_get_event(tep, i);

		if (!event)
			continue;
		d->types[d->nr_types].id = event->id;
		d->types[d->nr_types].h = find_handler(event->system, event->name);
		d->nr_types++;
	}
	qsort(d->types, (size_t)d->nr_types, sizeof(*d->types), type_cmp);
	for (i = 0; i < d->nr_types; i++) {
		struct td_type *ty = &d->types[i];
		struct tep_event *event = tep_find_event(tep, ty->id);

		d->pub_types[i].system = event->system;
		d->pub_types[i].name = event->name;
		if (!d->common_type) {
			d->common_type = tep_find_common_field(event, "common_type");
			d->common_pid = tep_find_common_field(event, "common_pid");
		}
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
			td_switch_state_masks(event, &d->preempt_mask, &d->state_mask);
		d->pub_types[i].known = ty->h != NULL;
	}
	return 0;
}

int td_decoder_find(const struct td_decoder *d, int id)
{
	int lo = 0, hi = d->nr_types - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (d->types[mid].id == id)
			return mid;
		if (d->types[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int td_decoder_common(const struct td_decoder *d, const struct tep_record *rec, int *type_id,
		      int *pid)
{
	int64_t v;

	if (field_num(d, rec, d->common_type, &v) < 0)
		return -1;
	*type_id = (int)v;
	if (field_num(d, rec, d->common_pid, &v) < 0)
		return -1;
	*pid = (int)v;
	return 0;
}

bool td_decoder_known(const struct td_decoder *d, int idx)
{
	return idx >= 0 && idx < d->nr_types && d->types[idx].h;
}

int td_decoder_decode(struct td_decoder *d, int idx, const struct tep_record *rec,
		      struct cfsr_event *ev)
{
	const struct td_type *ty;

	if (!td_decoder_known(d, idx))
		return 0;
	ty = &d->types[idx];
	ev->kind = ty->h->kind;
	ev->type = idx;
	return ty->h->decode(d, ty, rec, ev) < 0 ? -1 : 1;
}

void td_decoder_release(struct td_decoder *d)
{
	free(d->types);
	free(d->pub_types);
	free(d->str);
	memset(d, 0, sizeof(*d));
}

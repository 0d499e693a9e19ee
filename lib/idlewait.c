// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle while waiting: CPU states from the event stream, and the time during
 * which an idle CPU coexists with an overloaded one (see idlewait.h for the
 * definitions).  No model is involved: only sched_switch, the wakeups,
 * migrations and what the trace says about affinity.
 *
 * State: per task (hash table by pid) where it waits, which CPU it runs on,
 * its affinity; per CPU the running pid and the list of waiting pids.  Time
 * is integrated between consecutive events with the state left by the
 * earlier one.  Kept episodes are a fixed array of the longest N.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "idlewait.h"
#include "pidmap.h"

#define AFFINITY_MARKER "cfsr-affinity "

struct iw_task {
	int pid;
	/* CPU it waits on, -1 none */
	int wait_cpu;
	/* CPU it runs on, -1 none */
	int run_cpu;
	enum cfsr_affinity aff;
	/* allowed CPUs, for CFSR_AFF_MARKER and CFSR_AFF_KTHREAD; else NULL */
	uint64_t *mask;
	char comm[CFSR_COMM_LEN];
};

struct iw_cpu {
	/* running pid: 0 idle, -1 unknown (no sched_switch yet, or lost events) */
	int curr;
	int *waiting;
	size_t nr_waiting;
	size_t alloc_waiting;
	enum cfsr_cpu_state state;
};

struct cfsr_iww {
	struct cfsr_iww_params p;
	int nr_words;

	struct iw_task *tasks;
	size_t nr_tasks;
	size_t alloc_tasks;
	struct cfsr_pidmap map;

	struct iw_cpu *cpu;
	struct cfsr_iww_cpu *cpu_stats;
	bool started;
	uint64_t now;

	/* derived after each event */
	int nr_idle;
	int nr_over;
	int m_allowed;
	int m_maybe;
	/* matching scratch: for each overloaded CPU index, its matched idle CPU */
	int *match_of_idle;
	char *seen;

	bool in_episode;
	struct cfsr_iww_episode ep;
	struct cfsr_iww_episode *top;
	int nr_top;

	struct cfsr_iww_totals tot;
};

/* ---- task table ---------------------------------------------------------- */

static struct iw_task *task_find(const struct cfsr_iww *iw, int pid)
{
	long i = cfsr_pidmap_get(&iw->map, pid);

	return i < 0 ? NULL : &iw->tasks[i];
}

/* The task with @pid, created when new.  NULL on allocation failure. */
static struct iw_task *task_get(struct cfsr_iww *iw, int pid)
{
	struct iw_task *t = task_find(iw, pid);

	if (t)
		return t;
	if (CFSR_ALLOC_GROW(iw->tasks, iw->nr_tasks + 1, iw->alloc_tasks) < 0) {
		cfsr_error("out of memory for %zu tasks", iw->nr_tasks + 1);
		return NULL;
	}
	if (cfsr_pidmap_put(&iw->map, pid, iw->nr_tasks) < 0)
		return NULL;
	t = &iw->tasks[iw->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->wait_cpu = -1;
	t->run_cpu = -1;
	t->aff = CFSR_AFF_ASSUMED;
	return t;
}

/* ---- affinity ------------------------------------------------------------ */

int cfsr_iww_parse_cpulist(const char *s, uint64_t *mask, int nr_words)
{
	long first, last, c;
	char *end;

	memset(mask, 0, (size_t)nr_words * sizeof(*mask));
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return -1;
		first = strtol(s, &end, 10);
		last = first;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			last = strtol(s, &end, 10);
			s = end;
		}
		if (last < first || last >= (long)nr_words * 64)
			return -1;
		for (c = first; c <= last; c++)
			mask[c / 64] |= 1ULL << (c % 64);
		if (*s != ',')
			break;
		s++;
	}
	return (*s == '\0' || isspace((unsigned char)*s)) ? 0 : -1;
}

static int set_mask(struct cfsr_iww *iw, struct iw_task *t, enum cfsr_affinity aff,
		    const uint64_t *mask)
{
	if (!t->mask) {
		t->mask = calloc((size_t)iw->nr_words, sizeof(*t->mask));
		if (!t->mask)
			return cfsr_error("out of memory for an affinity mask");
	}
	memcpy(t->mask, mask, (size_t)iw->nr_words * sizeof(*mask));
	t->aff = aff;
	return 0;
}

/*
 * Per-CPU kernel threads are created bound to one CPU and named "name/N"
 * (kthread_create_on_cpu() in kernel/kthread.c; kworkers "kworker/N:M",
 * unbound ones "kworker/uN:M").  A task whose affinity the trace does not
 * show changing and whose name has this form is taken as bound to CPU N.
 */
int cfsr_kthread_cpu(const char *comm)
{
	static const char *const names[] = { "ksoftirqd/", "migration/",   "cpuhp/",   "kworker/",
					     "rcuc/",	   "idle_inject/", "watchdog/" };
	size_t i, len;
	long cpu;
	char *end;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = strlen(names[i]);
		if (strncmp(comm, names[i], len) || !isdigit((unsigned char)comm[len]))
			continue;
		cpu = strtol(comm + len, &end, 10);
		if (*end != '\0' && *end != ':')
			return -1;
		return cpu > 1 << 20 ? -1 : (int)cpu;
	}
	return -1;
}

static int set_comm(struct cfsr_iww *iw, struct iw_task *t, const char *comm)
{
	uint64_t *mask;
	int cpu, ret;

	if (!comm[0])
		return 0;
	memcpy(t->comm, comm, CFSR_COMM_LEN);
	t->comm[CFSR_COMM_LEN - 1] = '\0';
	if (t->aff != CFSR_AFF_ASSUMED)
		return 0;
	cpu = cfsr_kthread_cpu(t->comm);
	if (cpu < 0 || cpu >= iw->p.nr_cpus)
		return 0;
	mask = calloc((size_t)iw->nr_words, sizeof(*mask));
	if (!mask)
		return cfsr_error("out of memory for an affinity mask");
	mask[cpu / 64] |= 1ULL << (cpu % 64);
	ret = set_mask(iw, t, CFSR_AFF_KTHREAD, mask);
	free(mask);
	return ret;
}

static enum cfsr_allowed task_allowed(const struct iw_task *t, int cpu)
{
	if (!t)
		return CFSR_ALLOWED_YES;
	switch (t->aff) {
	case CFSR_AFF_MARKER:
	case CFSR_AFF_KTHREAD:
		return (t->mask[cpu / 64] >> (cpu % 64)) & 1 ? CFSR_ALLOWED_YES : CFSR_ALLOWED_NO;
	case CFSR_AFF_CHANGED:
		return CFSR_ALLOWED_UNKNOWN;
	default:
		return CFSR_ALLOWED_YES;
	}
}

/* "cfsr-affinity pid=PID cpus=LIST": a recorder states a mask it set. */
static int affinity_marker(struct cfsr_iww *iw, const char *text)
{
	uint64_t *mask;
	struct iw_task *t;
	const char *c;
	char *end;
	long pid;
	int ret = 0;

	if (strncmp(text, AFFINITY_MARKER, strlen(AFFINITY_MARKER)))
		return 0;
	text += strlen(AFFINITY_MARKER);
	c = strstr(text, "cpus=");
	if (strncmp(text, "pid=", 4) || !c) {
		iw->tot.bad_markers++;
		return 0;
	}
	pid = strtol(text + 4, &end, 10);
	if (end == text + 4 || pid <= 0 || pid > 1 << 30) {
		iw->tot.bad_markers++;
		return 0;
	}
	mask = calloc((size_t)iw->nr_words, sizeof(*mask));
	if (!mask)
		return cfsr_error("out of memory for an affinity mask");
	if (cfsr_iww_parse_cpulist(c + 5, mask, iw->nr_words) < 0) {
		iw->tot.bad_markers++;
		goto out;
	}
	t = task_get(iw, (int)pid);
	if (!t) {
		ret = -1;
		goto out;
	}
	ret = set_mask(iw, t, CFSR_AFF_MARKER, mask);
	iw->tot.affinity_markers++;
out:
	free(mask);
	return ret;
}

/* ---- waiting lists ------------------------------------------------------- */

static void unwait(struct cfsr_iww *iw, struct iw_task *t)
{
	struct iw_cpu *c;
	size_t i;

	if (t->wait_cpu < 0)
		return;
	c = &iw->cpu[t->wait_cpu];
	for (i = 0; i < c->nr_waiting; i++) {
		if (c->waiting[i] == t->pid) {
			c->waiting[i] = c->waiting[--c->nr_waiting];
			break;
		}
	}
	t->wait_cpu = -1;
}

static int wait_on(struct cfsr_iww *iw, struct iw_task *t, int cpu)
{
	struct iw_cpu *c = &iw->cpu[cpu];

	if (t->wait_cpu == cpu)
		return 0;
	unwait(iw, t);
	if (CFSR_ALLOC_GROW(c->waiting, c->nr_waiting + 1, c->alloc_waiting) < 0)
		return cfsr_error("out of memory for the tasks waiting on CPU %d", cpu);
	c->waiting[c->nr_waiting++] = t->pid;
	t->wait_cpu = cpu;
	return 0;
}

/* ---- derived state ------------------------------------------------------- */

static enum cfsr_cpu_state cpu_state(const struct iw_cpu *c)
{
	if (c->curr < 0)
		return CFSR_CPU_UNKNOWN;
	if (c->curr == 0)
		return c->nr_waiting ? CFSR_CPU_PENDING : CFSR_CPU_IDLE;
	return c->nr_waiting ? CFSR_CPU_OVERLOADED : CFSR_CPU_BUSY;
}

/* Can overloaded CPU @o give idle CPU @i a task, at strictness @maybe? */
static bool edge(const struct cfsr_iww *iw, int o, int i, bool maybe)
{
	const struct iw_cpu *c = &iw->cpu[o];
	enum cfsr_allowed a;
	size_t k;

	for (k = 0; k < c->nr_waiting; k++) {
		a = task_allowed(task_find(iw, c->waiting[k]), i);
		if (a == CFSR_ALLOWED_YES || (maybe && a == CFSR_ALLOWED_UNKNOWN))
			return true;
	}
	return false;
}

/* Kuhn's augmenting path from overloaded CPU @o; match_of_idle[i] = o or -1. */
static bool augment(struct cfsr_iww *iw, int o, bool maybe)
{
	int i;

	for (i = 0; i < iw->p.nr_cpus; i++) {
		if (iw->cpu[i].state != CFSR_CPU_IDLE || iw->seen[i] || !edge(iw, o, i, maybe))
			continue;
		iw->seen[i] = 1;
		if (iw->match_of_idle[i] < 0 || augment(iw, iw->match_of_idle[i], maybe)) {
			iw->match_of_idle[i] = o;
			return true;
		}
	}
	return false;
}

static int matching(struct cfsr_iww *iw, bool maybe)
{
	int o, n = 0;

	for (o = 0; o < iw->p.nr_cpus; o++)
		iw->match_of_idle[o] = -1;
	for (o = 0; o < iw->p.nr_cpus; o++) {
		if (iw->cpu[o].state != CFSR_CPU_OVERLOADED)
			continue;
		memset(iw->seen, 0, (size_t)iw->p.nr_cpus);
		if (augment(iw, o, maybe))
			n++;
	}
	return n;
}

static void add_ep_pid(struct cfsr_iww_episode *ep, int pid)
{
	int k;

	for (k = 0; k < ep->nr_pids; k++)
		if (ep->pids[k] == pid)
			return;
	if (ep->nr_pids < CFSR_IWW_EP_PIDS)
		ep->pids[ep->nr_pids++] = pid;
}

/* Note the CPUs and waiting tasks of the current state in the episode. */
static void ep_note(struct cfsr_iww *iw)
{
	struct cfsr_iww_episode *ep = &iw->ep;
	size_t k;
	int c;

	for (c = 0; c < iw->p.nr_cpus; c++) {
		if (iw->cpu[c].state == CFSR_CPU_IDLE) {
			if (ep->idle_cpu < 0)
				ep->idle_cpu = c;
		} else if (iw->cpu[c].state == CFSR_CPU_OVERLOADED) {
			if (ep->busy_cpu < 0)
				ep->busy_cpu = c;
			for (k = 0; k < iw->cpu[c].nr_waiting; k++)
				add_ep_pid(ep, iw->cpu[c].waiting[k]);
		} else {
			continue;
		}
		if (c < 64)
			ep->cpus |= 1ULL << c;
	}
}

static bool ep_wanted(const struct cfsr_iww *iw, const struct cfsr_iww_episode *ep)
{
	int k;

	if (iw->p.filter_cpu >= 0 &&
	    (iw->p.filter_cpu >= 64 || !((ep->cpus >> iw->p.filter_cpu) & 1)))
		return false;
	if (iw->p.filter_pid < 0)
		return true;
	for (k = 0; k < ep->nr_pids; k++)
		if (ep->pids[k] == iw->p.filter_pid)
			return true;
	return false;
}

static bool ep_longer(const struct cfsr_iww_episode *a, const struct cfsr_iww_episode *b)
{
	uint64_t da = a->end - a->start, db = b->end - b->start;

	return da > db || (da == db && a->start < b->start);
}

static void ep_close(struct cfsr_iww *iw)
{
	struct cfsr_iww_episode *ep = &iw->ep;
	uint64_t d = ep->end - ep->start;
	int k, worst;

	iw->in_episode = false;
	if (!d)
		return; /* entirely outside the window */
	iw->tot.episodes++;
	if (d > iw->p.balance_interval_ns) {
		iw->tot.long_episodes++;
		iw->tot.long_ns += d;
		iw->tot.long_cpu_ns += ep->cpu_ns;
	} else {
		iw->tot.transient_episodes++;
		iw->tot.transient_ns += d;
		iw->tot.transient_cpu_ns += ep->cpu_ns;
	}
	if (d > iw->tot.longest_ns)
		iw->tot.longest_ns = d;
	if (!iw->p.top_n || !ep_wanted(iw, ep))
		return;
	if (iw->nr_top < iw->p.top_n) {
		iw->top[iw->nr_top++] = *ep;
		return;
	}
	for (worst = 0, k = 1; k < iw->nr_top; k++)
		if (ep_longer(&iw->top[worst], &iw->top[k]))
			worst = k;
	if (ep_longer(ep, &iw->top[worst]))
		iw->top[worst] = *ep;
}

static void ep_open(struct cfsr_iww *iw)
{
	struct cfsr_iww_episode *ep = &iw->ep;

	memset(ep, 0, sizeof(*ep));
	ep->idle_cpu = -1;
	ep->busy_cpu = -1;
	ep->start = iw->now < iw->p.win_start ? iw->p.win_start : iw->now;
	if (ep->start > iw->p.win_end)
		ep->start = iw->p.win_end;
	ep->end = ep->start;
	iw->in_episode = true;
	ep_note(iw);
}

/* Recompute the derived state after an event changed something. */
static void derive(struct cfsr_iww *iw)
{
	bool wasted;
	int c;

	iw->nr_idle = 0;
	iw->nr_over = 0;
	for (c = 0; c < iw->p.nr_cpus; c++) {
		iw->cpu[c].state = cpu_state(&iw->cpu[c]);
		iw->nr_idle += iw->cpu[c].state == CFSR_CPU_IDLE;
		iw->nr_over += iw->cpu[c].state == CFSR_CPU_OVERLOADED;
	}
	wasted = iw->nr_idle && iw->nr_over;
	iw->m_allowed = wasted ? matching(iw, false) : 0;
	iw->m_maybe = wasted ? matching(iw, true) : 0;
	if (wasted && !iw->in_episode)
		ep_open(iw);
	else if (!wasted && iw->in_episode)
		ep_close(iw);
	else if (wasted)
		ep_note(iw);
}

/* Account the time from iw->now to @ts with the current state. */
static void advance(struct cfsr_iww *iw, uint64_t ts)
{
	uint64_t from = iw->now, to = ts, d, m_all;
	int c;

	if (from < iw->p.win_start)
		from = iw->p.win_start;
	if (to > iw->p.win_end)
		to = iw->p.win_end;
	iw->now = ts;
	if (to <= from)
		return;
	d = to - from;
	for (c = 0; c < iw->p.nr_cpus; c++)
		iw->cpu_stats[c].state_ns[iw->cpu[c].state] += d;
	if (!iw->nr_idle || !iw->nr_over)
		return;
	m_all = (uint64_t)(iw->nr_idle < iw->nr_over ? iw->nr_idle : iw->nr_over);
	iw->tot.wall_ns += d;
	iw->tot.cpu_ns += m_all * d;
	iw->tot.allowed_cpu_ns += (uint64_t)iw->m_allowed * d;
	iw->tot.unknown_affinity_cpu_ns += (uint64_t)(iw->m_maybe - iw->m_allowed) * d;
	iw->tot.affinity_bound_cpu_ns += (m_all - (uint64_t)iw->m_maybe) * d;
	iw->ep.end = to;
	iw->ep.cpu_ns += m_all * d;
	iw->ep.allowed_cpu_ns += (uint64_t)iw->m_allowed * d;
	iw->ep.unknown_affinity_cpu_ns += (uint64_t)(iw->m_maybe - iw->m_allowed) * d;
}

/* ---- events -------------------------------------------------------------- */

static bool valid_cpu(const struct cfsr_iww *iw, int cpu)
{
	return cpu >= 0 && cpu < iw->p.nr_cpus;
}

static int on_switch(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	struct iw_cpu *c = &iw->cpu[ev->cpu];
	struct iw_task *prev = NULL, *next = NULL;
	int c2;

	if (!iw->cpu_stats[ev->cpu].first_switch) {
		iw->cpu_stats[ev->cpu].first_switch = ev->ts ? ev->ts : 1;
		for (c2 = 0; c2 < iw->p.nr_cpus; c2++)
			if (!iw->cpu_stats[c2].first_switch)
				break;
		if (c2 == iw->p.nr_cpus)
			iw->tot.known_from = ev->ts;
	} else if (c->curr >= 0 && c->curr != ev->sw.prev_pid) {
		iw->tot.unseen_switch_outs++;
	}
	if (c->curr > 0) {
		struct iw_task *old = task_find(iw, c->curr);

		if (old && old->run_cpu == ev->cpu)
			old->run_cpu = -1;
	}
	if (ev->sw.prev_pid > 0) {
		prev = task_get(iw, ev->sw.prev_pid);
		if (!prev || set_comm(iw, prev, ev->sw.prev_comm) < 0)
			return -1;
		prev->run_cpu = -1;
		/* still runnable: preempted, or it yielded with TASK_RUNNING */
		if (ev->sw.preempt || ev->sw.prev_state == CFSR_TASK_RUNNING) {
			if (wait_on(iw, prev, ev->cpu) < 0)
				return -1;
		} else {
			unwait(iw, prev);
		}
	}
	if (ev->sw.next_pid > 0) {
		next = task_get(iw, ev->sw.next_pid);
		if (!next || set_comm(iw, next, ev->sw.next_comm) < 0)
			return -1;
		if (next->wait_cpu < 0 && iw->tot.known_from == 0)
			; /* CPUs still unknown: nothing could be seen yet */
		else if (next->wait_cpu < 0)
			iw->tot.unseen_waiters++;
		unwait(iw, next);
		next->run_cpu = ev->cpu;
	}
	c->curr = ev->sw.next_pid > 0 ? ev->sw.next_pid : 0;
	return 0;
}

static int on_wakeup(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	struct iw_task *t;

	if (ev->wake.pid <= 0 || ev->wake.success == 0 || !valid_cpu(iw, ev->wake.target_cpu))
		return 0;
	t = task_get(iw, ev->wake.pid);
	if (!t || set_comm(iw, t, ev->wake.comm) < 0)
		return -1;
	/* a task woken while it still runs (ttwu_runnable()) does not wait */
	if (t->run_cpu >= 0)
		return 0;
	return wait_on(iw, t, ev->wake.target_cpu);
}

static int on_migrate(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	struct iw_task *t;

	if (ev->migrate.pid <= 0 || !valid_cpu(iw, ev->migrate.dest_cpu))
		return 0;
	t = task_find(iw, ev->migrate.pid);
	if (!t || t->wait_cpu < 0)
		return 0; /* a sleeping task moved by its wakeup: it waits from sched_wakeup */
	return wait_on(iw, t, ev->migrate.dest_cpu);
}

static int on_fork(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	struct iw_task *parent, *child;
	enum cfsr_affinity aff;

	if (ev->fork.parent_pid <= 0 || ev->fork.child_pid <= 0)
		return 0;
	parent = task_get(iw, ev->fork.parent_pid);
	if (!parent || set_comm(iw, parent, ev->fork.parent_comm) < 0)
		return -1;
	aff = parent->aff;
	child = task_get(iw, ev->fork.child_pid);
	if (!child)
		return -1;
	parent = task_find(iw, ev->fork.parent_pid); /* the table may have moved */
	/* a child inherits its parent's mask (dup_task_struct() copies cpus_mask) */
	if (aff == CFSR_AFF_MARKER && set_mask(iw, child, CFSR_AFF_MARKER, parent->mask) < 0)
		return -1;
	if (aff == CFSR_AFF_CHANGED)
		child->aff = CFSR_AFF_CHANGED;
	return set_comm(iw, child, ev->fork.child_comm);
}

static int on_setaffinity(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	int pid = ev->affinity.pid ? ev->affinity.pid : ev->pid;
	struct iw_task *t;

	iw->tot.affinity_changes++;
	if (pid <= 0)
		return 0;
	t = task_get(iw, pid);
	if (!t)
		return -1;
	t->aff = CFSR_AFF_CHANGED;
	return 0;
}

static int apply(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	struct iw_task *t;

	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		return valid_cpu(iw, ev->cpu) ? on_switch(iw, ev) : 0;
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		return on_wakeup(iw, ev);
	case CFSR_EV_MIGRATE:
		return on_migrate(iw, ev);
	case CFSR_EV_FORK:
		return on_fork(iw, ev);
	case CFSR_EV_EXIT:
		t = task_find(iw, ev->exit.pid);
		if (t)
			unwait(iw, t);
		return 0;
	case CFSR_EV_SETAFFINITY:
		return on_setaffinity(iw, ev);
	case CFSR_EV_MARKER:
		return ev->marker.text ? affinity_marker(iw, ev->marker.text) : 0;
	case CFSR_EV_LOST:
		/* the CPU's switches may be missing: unknown until its next one */
		iw->tot.lost_notices++;
		if (valid_cpu(iw, ev->cpu))
			iw->cpu[ev->cpu].curr = -1;
		return 0;
	default:
		return 0;
	}
}

int cfsr_iww_event(struct cfsr_iww *iw, const struct cfsr_event *ev)
{
	if (!iw->started) {
		iw->started = true;
		iw->now = ev->ts;
		iw->tot.first_ts = ev->ts;
	}
	if (ev->ts < iw->now) {
		iw->tot.out_of_order++;
	} else {
		advance(iw, ev->ts);
		iw->tot.last_ts = ev->ts;
	}
	if (apply(iw, ev) < 0)
		return -1;
	derive(iw);
	return 0;
}

void cfsr_iww_finish(struct cfsr_iww *iw)
{
	if (iw->in_episode) {
		iw->ep.open = true;
		ep_close(iw);
	}
}

/* ---- life cycle and queries ---------------------------------------------- */

struct cfsr_iww *cfsr_iww_new(const struct cfsr_iww_params *p)
{
	struct cfsr_iww *iw;
	int c;

	if (p->nr_cpus <= 0 || p->nr_cpus > 1 << 16 || p->top_n < 0) {
		cfsr_error("idle-while-waiting: bad parameters (%d CPUs)", p->nr_cpus);
		return NULL;
	}
	iw = calloc(1, sizeof(*iw));
	if (!iw)
		goto oom;
	iw->p = *p;
	iw->nr_words = (p->nr_cpus + 63) / 64;
	iw->cpu = calloc((size_t)p->nr_cpus, sizeof(*iw->cpu));
	iw->cpu_stats = calloc((size_t)p->nr_cpus, sizeof(*iw->cpu_stats));
	iw->match_of_idle = calloc((size_t)p->nr_cpus, sizeof(*iw->match_of_idle));
	iw->seen = calloc((size_t)p->nr_cpus, 1);
	iw->top = calloc((size_t)p->top_n + 1, sizeof(*iw->top));
	if (!iw->cpu || !iw->cpu_stats || !iw->match_of_idle || !iw->seen || !iw->top)
		goto oom;
	for (c = 0; c < p->nr_cpus; c++)
		iw->cpu[c].curr = -1;
	return iw;
oom:
	cfsr_iww_free(iw);
	cfsr_error("out of memory for the idle-while-waiting comparator");
	return NULL;
}

void cfsr_iww_free(struct cfsr_iww *iw)
{
	size_t i;
	int c;

	if (!iw)
		return;
	for (i = 0; i < iw->nr_tasks; i++)
		free(iw->tasks[i].mask);
	free(iw->tasks);
	cfsr_pidmap_release(&iw->map);
	if (iw->cpu)
		for (c = 0; c < iw->p.nr_cpus; c++)
			free(iw->cpu[c].waiting);
	free(iw->cpu);
	free(iw->cpu_stats);
	free(iw->match_of_idle);
	free(iw->seen);
	free(iw->top);
	free(iw);
}

const struct cfsr_iww_totals *cfsr_iww_totals(const struct cfsr_iww *iw)
{
	return &iw->tot;
}

const struct cfsr_iww_cpu *cfsr_iww_cpu(const struct cfsr_iww *iw, int cpu)
{
	return valid_cpu(iw, cpu) ? &iw->cpu_stats[cpu] : NULL;
}

static int cmp_episode(const void *a, const void *b)
{
	const struct cfsr_iww_episode *x = a, *y = b;

	if (ep_longer(x, y))
		return -1;
	return ep_longer(y, x) ? 1 : 0;
}

int cfsr_iww_top(struct cfsr_iww *iw, const struct cfsr_iww_episode **eps)
{
	qsort(iw->top, (size_t)iw->nr_top, sizeof(*iw->top), cmp_episode);
	*eps = iw->top;
	return iw->nr_top;
}

enum cfsr_cpu_state cfsr_iww_cpu_now(const struct cfsr_iww *iw, int cpu, int *curr, int *nr_waiting)
{
	if (!valid_cpu(iw, cpu)) {
		*curr = -1;
		*nr_waiting = 0;
		return CFSR_CPU_UNKNOWN;
	}
	*curr = iw->cpu[cpu].curr;
	*nr_waiting = (int)iw->cpu[cpu].nr_waiting;
	return iw->cpu[cpu].state;
}

enum cfsr_allowed cfsr_iww_allowed(const struct cfsr_iww *iw, int pid, int cpu)
{
	if (!valid_cpu(iw, cpu))
		return CFSR_ALLOWED_NO;
	return task_allowed(task_find(iw, pid), cpu);
}

void cfsr_iww_task_where(const struct cfsr_iww *iw, int pid, int *run_cpu, int *wait_cpu)
{
	const struct iw_task *t = task_find(iw, pid);

	*run_cpu = t ? t->run_cpu : -1;
	*wait_cpu = t ? t->wait_cpu : -1;
}

enum cfsr_affinity cfsr_iww_affinity(const struct cfsr_iww *iw, int pid)
{
	const struct iw_task *t = task_find(iw, pid);

	return t ? t->aff : CFSR_AFF_ASSUMED;
}

const char *cfsr_iww_comm(const struct cfsr_iww *iw, int pid)
{
	const struct iw_task *t = task_find(iw, pid);

	return t ? t->comm : "";
}

const char *cfsr_cpu_state_name(enum cfsr_cpu_state s)
{
	static const char *const names[] = { "unknown", "idle", "busy", "overloaded", "pending" };

	return (unsigned int)s < 5 ? names[s] : "?";
}

const char *cfsr_affinity_name(enum cfsr_affinity a)
{
	static const char *const names[] = { "assumed-all", "marker", "per-cpu-kthread",
					     "changed-unknown" };

	return (unsigned int)a < 4 ? names[a] : "?";
}

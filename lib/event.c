// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names of event kinds.  See event.h.
 */
#include "event.h"

static const char *const kind_names[] = {
#define X(kind, name) [kind] = name,
	CFSR_EVENT_KINDS
#undef X
};

const char *cfsr_event_kind_name(enum cfsr_event_kind kind)
{
	if ((unsigned int)kind >= CFSR_EV_NR)
		return "?";
	return kind_names[kind];
}

static int add_pid(int pids[4], int n, int pid)
{
	int i;

	if (pid <= 0)
		return n;
	for (i = 0; i < n; i++)
		if (pids[i] == pid)
			return n;
	pids[n] = pid;
	return n + 1;
}

int cfsr_event_pids(const struct cfsr_event *ev, int pids[4])
{
	int n = add_pid(pids, 0, ev->pid);

	switch (ev->kind) {
	case CFSR_EV_SWITCH:
		n = add_pid(pids, n, ev->sw.prev_pid);
		n = add_pid(pids, n, ev->sw.next_pid);
		break;
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
		n = add_pid(pids, n, ev->wake.pid);
		break;
	case CFSR_EV_MIGRATE:
		n = add_pid(pids, n, ev->migrate.pid);
		break;
	case CFSR_EV_FORK:
		n = add_pid(pids, n, ev->fork.parent_pid);
		n = add_pid(pids, n, ev->fork.child_pid);
		break;
	case CFSR_EV_EXIT:
	case CFSR_EV_FREE:
		n = add_pid(pids, n, ev->exit.pid);
		break;
	case CFSR_EV_EXEC:
		n = add_pid(pids, n, ev->exec.pid);
		n = add_pid(pids, n, ev->exec.old_pid);
		break;
	case CFSR_EV_STAT_RUNTIME:
		n = add_pid(pids, n, ev->runtime.pid);
		break;
	case CFSR_EV_PI_SETPRIO:
		n = add_pid(pids, n, ev->pi.pid);
		break;
	case CFSR_EV_CGROUP_ATTACH:
		n = add_pid(pids, n, ev->cgroup.pid);
		break;
	case CFSR_EV_SETAFFINITY:
		n = add_pid(pids, n, ev->affinity.pid);
		break;
	case CFSR_EV_SETPRIORITY:
		if (ev->setprio.which == 0)
			n = add_pid(pids, n, ev->setprio.who);
		break;
	default:
		break;
	}
	return n;
}

bool cfsr_event_kind_is_sched(enum cfsr_event_kind kind)
{
	switch (kind) {
	case CFSR_EV_SWITCH:
	case CFSR_EV_WAKING:
	case CFSR_EV_WAKEUP:
	case CFSR_EV_WAKEUP_NEW:
	case CFSR_EV_MIGRATE:
	case CFSR_EV_FORK:
	case CFSR_EV_EXIT:
	case CFSR_EV_FREE:
	case CFSR_EV_EXEC:
	case CFSR_EV_STAT_RUNTIME:
	case CFSR_EV_PI_SETPRIO:
		return true;
	default:
		return false;
	}
}

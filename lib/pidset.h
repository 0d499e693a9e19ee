/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A set of pids (open addressing, linear probing).  Memory grows with the
 * number of distinct pids, never with the number of events.
 */
#ifndef CFSR_PIDSET_H
#define CFSR_PIDSET_H

#include <stddef.h>

struct cfsr_pidset {
	int *slots;
	size_t alloc;
	size_t nr;
};

#define CFSR_PIDSET_INIT   \
	{                  \
		NULL, 0, 0 \
	}

/**
 * cfsr_pidset_add() - add a pid
 * @set: the set
 * @pid: any value but -1, which marks free slots
 *
 * Return: 1 if @pid was new, 0 if present, -1 on allocation failure or for @pid == -1.
 */
int cfsr_pidset_add(struct cfsr_pidset *set, int pid);

/* Return: 1 if @pid is in @set, else 0. */
int cfsr_pidset_has(const struct cfsr_pidset *set, int pid);

/* Free the slots; the set is empty and reusable afterwards. */
void cfsr_pidset_release(struct cfsr_pidset *set);

#endif /* CFSR_PIDSET_H */

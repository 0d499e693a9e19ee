/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A map from pid to an index into the caller's array (open addressing,
 * linear probing).  Memory grows with the number of distinct pids only.
 */
#ifndef CFSR_PIDMAP_H
#define CFSR_PIDMAP_H

#include <stddef.h>

struct cfsr_pidmap_slot {
	int pid;
	/* index + 1; 0 marks a free slot */
	size_t idx1;
};

struct cfsr_pidmap {
	struct cfsr_pidmap_slot *slots;
	size_t nr_slots;
	size_t nr;
};

#define CFSR_PIDMAP_INIT   \
	{                  \
		NULL, 0, 0 \
	}

/* Return: the index stored for @pid, or -1 when absent. */
long cfsr_pidmap_get(const struct cfsr_pidmap *map, int pid);

/**
 * cfsr_pidmap_put() - store @idx for a @pid not yet in @map
 * Return: 0, or -1 on allocation failure (after cfsr_error()).
 */
int cfsr_pidmap_put(struct cfsr_pidmap *map, int pid, size_t idx);

/* Free the slots; the map is empty and reusable afterwards. */
void cfsr_pidmap_release(struct cfsr_pidmap *map);

#endif /* CFSR_PIDMAP_H */

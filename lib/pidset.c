// SPDX-License-Identifier: GPL-2.0-only
/*
 * A set of pids.  See pidset.h.
 */
#include <stdint.h>
#include <stdlib.h>

#include "pidset.h"

#define FREE_SLOT (-1)

static size_t slot_of(int pid, size_t alloc)
{
	/* Fibonacci hashing spreads consecutive pids */
	uint32_t h = (uint32_t)pid * 2654435769u;

	return (size_t)h & (alloc - 1);
}

static int grow(struct cfsr_pidset *set)
{
	size_t alloc = set->alloc ? set->alloc * 2 : 64;
	int *slots;
	size_t i;

	if (alloc > SIZE_MAX / sizeof(*slots))
		return -1;
	slots = malloc(alloc * sizeof(*slots));
	if (!slots)
		return -1;
	for (i = 0; i < alloc; i++)
		slots[i] = FREE_SLOT;
	for (i = 0; i < set->alloc; i++) {
		size_t s;

		if (set->slots[i] == FREE_SLOT)
			continue;
		s = slot_of(set->slots[i], alloc);
		while (slots[s] != FREE_SLOT)
			s = (s + 1) & (alloc - 1);
		slots[s] = set->slots[i];
	}
	free(set->slots);
	set->slots = slots;
	set->alloc = alloc;
	return 0;
}

int cfsr_pidset_add(struct cfsr_pidset *set, int pid)
{
	size_t s;

	if (pid == FREE_SLOT)
		return -1;
	/* keep the load factor at most one half */
	if ((set->nr + 1) * 2 > set->alloc && grow(set) < 0)
		return -1;
	s = slot_of(pid, set->alloc);
	while (set->slots[s] != FREE_SLOT) {
		if (set->slots[s] == pid)
			return 0;
		s = (s + 1) & (set->alloc - 1);
	}
	set->slots[s] = pid;
	set->nr++;
	return 1;
}

int cfsr_pidset_has(const struct cfsr_pidset *set, int pid)
{
	size_t s;

	if (!set->alloc || pid == FREE_SLOT)
		return 0;
	s = slot_of(pid, set->alloc);
	while (set->slots[s] != FREE_SLOT) {
		if (set->slots[s] == pid)
			return 1;
		s = (s + 1) & (set->alloc - 1);
	}
	return 0;
}

void cfsr_pidset_release(struct cfsr_pidset *set)
{
	free(set->slots);
	set->slots = NULL;
	set->alloc = 0;
	set->nr = 0;
}

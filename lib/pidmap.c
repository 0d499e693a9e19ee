// SPDX-License-Identifier: GPL-2.0-only
/*
 * pid -> index map for the per-task tables of the comparators.  The table
 * doubles when half full; entries are never removed (pids are few next to
 * events, and a freed pid that comes back reuses its entry).
 */
#include <stdint.h>
#include <stdlib.h>

#include "error.h"
#include "pidmap.h"

static size_t slot_of(int pid, size_t nr_slots)
{
	return ((uint32_t)pid * 2654435761u) & (nr_slots - 1);
}

long cfsr_pidmap_get(const struct cfsr_pidmap *map, int pid)
{
	size_t i;

	if (!map->nr_slots)
		return -1;
	for (i = slot_of(pid, map->nr_slots); map->slots[i].idx1; i = (i + 1) & (map->nr_slots - 1))
		if (map->slots[i].pid == pid)
			return (long)(map->slots[i].idx1 - 1);
	return -1;
}

static void insert(struct cfsr_pidmap_slot *slots, size_t nr_slots, int pid, size_t idx1)
{
	size_t i;

	for (i = slot_of(pid, nr_slots); slots[i].idx1; i = (i + 1) & (nr_slots - 1))
		;
	slots[i].pid = pid;
	slots[i].idx1 = idx1;
}

int cfsr_pidmap_put(struct cfsr_pidmap *map, int pid, size_t idx)
{
	struct cfsr_pidmap_slot *slots;
	size_t i, nr_slots;

	if ((map->nr + 1) * 2 > map->nr_slots) {
		nr_slots = map->nr_slots ? map->nr_slots * 2 : 256;
		if (nr_slots < map->nr_slots)
			return cfsr_error("too many tasks");
		slots = calloc(nr_slots, sizeof(*slots));
		if (!slots)
			return cfsr_error("out of memory for %zu tasks", map->nr + 1);
		for (i = 0; i < map->nr_slots; i++)
			if (map->slots[i].idx1)
				insert(slots, nr_slots, map->slots[i].pid, map->slots[i].idx1);
		free(map->slots);
		map->slots = slots;
		map->nr_slots = nr_slots;
	}
	insert(map->slots, map->nr_slots, pid, idx + 1);
	map->nr++;
	return 0;
}

void cfsr_pidmap_release(struct cfsr_pidmap *map)
{
	free(map->slots);
	map->slots = NULL;
	map->nr_slots = 0;
	map->nr = 0;
}

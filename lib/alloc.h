/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Growing arrays.  Every array that grows goes through CFSR_ALLOC_GROW(),
 * which checks for overflow and keeps the old block when realloc() fails.
 */
#ifndef CFSR_ALLOC_H
#define CFSR_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/**
 * cfsr_alloc_grow() - make room for at least @nr elements
 * @ptr: address of the array pointer
 * @nr: number of elements needed
 * @alloc: address of the current capacity, in elements
 * @size: size of one element
 *
 * New space is zeroed.  On failure *@ptr and *@alloc are unchanged.
 * Return: 0 on success, -1 when the size overflows or memory runs out.
 */
int cfsr_alloc_grow(void **ptr, size_t nr, size_t *alloc, size_t size);

#define CFSR_ALLOC_GROW(ptr, nr, alloc) \
	cfsr_alloc_grow((void **)&(ptr), (nr), &(alloc), sizeof(*(ptr)))

#endif /* CFSR_ALLOC_H */

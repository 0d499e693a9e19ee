/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Clamped arithmetic on PELT signals, shared by lib/pelt.c and lib/group.c.
 *
 * The kernel changes the sums and averages of a cfs_rq with macros that
 * never let an unsigned value wrap (sub_positive(), add_positive()) and
 * with the u32 lower bound of "Relax the sync of *_sum with *_avg".  The
 * macros take the types of their operands; here there is one function per
 * width actually used.
 */
#ifndef CFSR_PELT_LOCAL_H
#define CFSR_PELT_LOCAL_H

#include <stdint.h>

/*
 * Mirrors sub_positive() in kernel/sched/fair.c, v4.15-v6.18: unsigned
 * subtraction that stores 0 instead of wrapping.  The value is converted
 * to the type of the target first (typeof(*ptr) val = _val).
 */
static inline void pelt_sub_positive_u64(uint64_t *ptr, uint64_t val)
{
	uint64_t var = *ptr;
	uint64_t res = var - val;

	if (res > var)
		res = 0;
	*ptr = res;
}

static inline void pelt_sub_positive_u32(uint32_t *ptr, uint32_t val)
{
	uint32_t var = *ptr;
	uint32_t res = var - val;

	if (res > var)
		res = 0;
	*ptr = res;
}

/*
 * Mirrors add_positive() in kernel/sched/fair.c, v4.15-v6.18: a signed
 * value added to an unsigned target, computed in the target's type; a
 * negative value whose result wrapped above the old value stores 0.
 */
static inline void pelt_add_positive_u64(uint64_t *ptr, int64_t val)
{
	uint64_t var = *ptr;
	uint64_t res = var + (uint64_t)val;

	if (val < 0 && res > var)
		res = 0;
	*ptr = res;
}

static inline void pelt_add_positive_u32(uint32_t *ptr, int64_t val)
{
	uint32_t var = *ptr;
	uint32_t res = (uint32_t)((uint64_t)var + (uint64_t)val);

	if (val < 0 && res > var)
		res = 0;
	*ptr = res;
}

/*
 * The lower bound of "Relax the sync of *_sum with *_avg", written in the
 * kernel as max_t(u32, sum, avg * PELT_MIN_DIVIDER): both operands are
 * converted to u32 before the comparison and the result is a u32, so a
 * 64-bit load_sum or runnable_sum above 2^32 (two nice -20 tasks are
 * enough) comes back truncated to its low 32 bits.  Reproduced as is.
 */
static inline uint32_t pelt_max_u32(uint64_t a, uint64_t b)
{
	uint32_t x = (uint32_t)a;
	uint32_t y = (uint32_t)b;

	return x > y ? x : y;
}

#endif /* CFSR_PELT_LOCAL_H */

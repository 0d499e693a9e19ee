/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixed-point operations and scheduler constants shared by the model.
 *
 * The model reproduces the arithmetic of a 64-bit kernel bit for bit, so
 * every operation here has the kernel's widths: "unsigned long" is 64 bits
 * and is written uint64_t, u32 is uint32_t.  The 64x32 multiply-shift used
 * by PELT decay and by the vruntime scaling lives here and nowhere else.
 * Constants keep their kernel names; all of them describe a 64-bit kernel
 * with the 20-bit load resolution (v4.7 and later).
 */
#ifndef CFSR_MATH_H
#define CFSR_MATH_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_FIXEDPOINT_SHIFT 10
#define SCHED_FIXEDPOINT_SCALE (1L << SCHED_FIXEDPOINT_SHIFT)

#define SCHED_CAPACITY_SHIFT SCHED_FIXEDPOINT_SHIFT
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)

/* Internal load resolution of a 64-bit kernel: user weights << 10. */
#define NICE_0_LOAD_SHIFT (SCHED_FIXEDPOINT_SHIFT + SCHED_FIXEDPOINT_SHIFT)
#define NICE_0_LOAD (UINT64_C(1) << NICE_0_LOAD_SHIFT)

/* PELT: half-life in periods, and the limit of 1024 * sum(y^n), y^32 = 1/2. */
#define LOAD_AVG_PERIOD 32
#define LOAD_AVG_MAX 47742
/* LOAD_AVG_MAX * y == LOAD_AVG_MAX - 1024: the smallest PELT divider. */
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)

/**
 * cfsr_mul_u64_u32_shr() - multiply a 64-bit value by a 32-bit one and shift
 * @a: 64-bit multiplicand
 * @mul: 32-bit multiplier
 * @shift: right shift applied to the 96-bit product, 0..63
 *
 * Mirrors mul_u64_u32_shr() of a 64-bit kernel: the product is computed in
 * full width, so no bit of @a is lost, and the result is truncated.
 *
 * Return: the low 64 bits of (@a * @mul) >> @shift.
 */
static inline uint64_t cfsr_mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned int shift)
{
	return (uint64_t)(((unsigned __int128)a * mul) >> shift);
}

/**
 * cfsr_div_u64() - unsigned 64-by-32 division
 * @dividend: 64-bit dividend
 * @divisor: 32-bit divisor, non-zero
 *
 * Mirrors div_u64(): the divisor is a u32, so wider arguments are truncated
 * by the caller's conversion, as in the kernel.
 *
 * Return: @dividend / @divisor, rounded down.
 */
static inline uint64_t cfsr_div_u64(uint64_t dividend, uint32_t divisor)
{
	return dividend / divisor;
}

/**
 * cfsr_asr_s64() - arithmetic right shift of a signed 64-bit value
 * @v: value
 * @shift: 0..63
 *
 * The kernel relies on ">>" of a negative long shifting in sign bits
 * (e.g. "-(long)x >> SCHED_CAPACITY_SHIFT"), which C leaves to the
 * implementation.  This spells it out: the result is @v / 2^@shift
 * rounded towards minus infinity.
 *
 * Return: @v >> @shift with sign extension.
 */
static inline int64_t cfsr_asr_s64(int64_t v, unsigned int shift)
{
	uint64_t u = (uint64_t)v >> shift;

	if (v < 0 && shift)
		u |= ~(~UINT64_C(0) >> shift);
	return (int64_t)u;
}

/**
 * cfsr_scale_load() - user weight to internal load weight
 * @w: weight from the nice table (10-bit resolution)
 *
 * Mirrors scale_load() of a 64-bit kernel, v4.7 and later.
 *
 * Return: @w << SCHED_FIXEDPOINT_SHIFT.
 */
static inline uint64_t cfsr_scale_load(uint64_t w)
{
	return w << SCHED_FIXEDPOINT_SHIFT;
}

/**
 * cfsr_scale_load_down() - internal load weight to user weight
 * @w: internal weight (20-bit resolution), e.g. se->load.weight
 *
 * Mirrors scale_load_down() of a 64-bit kernel since v5.7 ("sched: Avoid
 * scale real weight down to zero", 26cf52229efc, also in stable 4.19.116
 * and later): a non-zero weight never scales down below 2 (MIN_SHARES).
 * Older kernels shifted without the floor; the PELT code selects that
 * through struct cfsr_pelt_params.
 *
 * Return: 0 for 0, else max(2, @w >> SCHED_FIXEDPOINT_SHIFT).
 */
static inline uint64_t cfsr_scale_load_down(uint64_t w)
{
	if (!w)
		return 0;
	w >>= SCHED_FIXEDPOINT_SHIFT;
	return w < 2 ? 2 : w;
}

/**
 * cfsr_scale_load_down_as() - scale_load_down() with or without the floor
 * @floor: the kernel has 26cf52229efc's floor of 2 (v5.7, and the stable
 *         releases that took it)
 * @w: internal weight
 *
 * Return: cfsr_scale_load_down(@w) with @floor, else the plain shift of
 * v4.7-v5.6 (64-bit).
 */
static inline uint64_t cfsr_scale_load_down_as(bool floor, uint64_t w)
{
	return floor ? cfsr_scale_load_down(w) : w >> SCHED_FIXEDPOINT_SHIFT;
}

#endif /* CFSR_MATH_H */

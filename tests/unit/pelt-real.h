/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Real-valued PELT quantities for the unit tests, derived without the
 * code under test and without libm: y = 2^(-1/32) from five Newton
 * square roots of 1/2, and y^e for a real e from whole powers and the
 * square roots of y that the bits of e's fraction select.
 */
#ifndef CFSR_TEST_PELT_REAL_H
#define CFSR_TEST_PELT_REAL_H

static inline long double sqrt_newton(long double x)
{
	long double s = x > 1 ? x : 1;
	int i;

	for (i = 0; i < 200; i++)
		s = (s + x / s) / 2;
	return s;
}

/* y = 2^(-1/32) = sqrt(sqrt(sqrt(sqrt(sqrt(1/2))))). */
static inline long double pelt_y(void)
{
	long double y = 0.5L;
	int i;

	for (i = 0; i < 5; i++)
		y = sqrt_newton(y);
	return y;
}

/* y^e for a real e >= 0. */
static inline long double y_pow(long double e)
{
	long double y = pelt_y(), r = 1, base = y;
	int k;

	for (; e >= 1; e -= 1)
		r *= y;
	for (k = 0; k < 60; k++) {
		e *= 2;
		base = sqrt_newton(base);
		if (e >= 1) {
			r *= base;
			e -= 1;
		}
	}
	return r;
}

#endif /* CFSR_TEST_PELT_REAL_H */

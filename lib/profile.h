/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel model profiles.
 *
 * A profile is the set of kernel behaviours a replay follows, chosen from
 * the traced kernel's release (or --kernel): the PELT arithmetic
 * parameters and the scheduler features the engine switches on.  Kernel
 * versions are chosen at run time through this table, never by #ifdef.
 */
#ifndef CFSR_PROFILE_H
#define CFSR_PROFILE_H

#include <stdbool.h>

#include "pelt.h"

/**
 * struct cfsr_profile - one model version
 * @name: short name shown in output headers, e.g. "v6.16-v6.18"
 * @first: first kernel version covered, as major * 10000 + minor * 100
 * @last: last kernel version covered, same encoding
 * @pelt: PELT arithmetic parameters
 * @eevdf: EEVDF pick (v6.6+) rather than classic CFS
 * @delay_dequeue: DELAY_DEQUEUE (v6.12+): a task that blocks while not
 *                 eligible stays queued until picked or woken
 * @delay_zero: DELAY_ZERO (v6.12+): a delayed task leaves, or is requeued,
 *              with its positive lag dropped
 * @place_lag: PLACE_LAG (v6.6+): an enqueued entity keeps its lag
 * @base_slice_ns: normalized sysctl_sched_base_slice; the kernel multiplies
 *                 it by 1 + ilog2(min(CPUs, 8)) (tunable_scaling = log)
 * @implemented: the engine models this profile fully; others are refused
 */
struct cfsr_profile {
	const char *name;
	int first;
	int last;
	const struct cfsr_pelt_params *pelt;
	bool eevdf;
	bool delay_dequeue;
	bool delay_zero;
	bool place_lag;
	unsigned int base_slice_ns;
	bool implemented;
};

/**
 * cfsr_profile_version() - parse a kernel release ("6.18.44-fc-v1147")
 * @release: as uname -r prints it
 *
 * Return: major * 10000 + minor * 100 + min(sublevel, 99), or -1 if @release
 * does not start with "MAJOR.MINOR".
 */
int cfsr_profile_version(const char *release);

/**
 * cfsr_profile_for() - the profile for a kernel release
 * @release: uname -r of the traced kernel, or a --kernel value ("6.12")
 *
 * Return: a static profile, or NULL when @release cannot be parsed or no
 * profile covers it.
 */
const struct cfsr_profile *cfsr_profile_for(const char *release);

/**
 * cfsr_profile_choose() - the profile a replay uses
 * @trace_release: the release the trace records, or NULL
 * @override: a --kernel value, or NULL
 * @what: the file, for messages
 *
 * Reports through cfsr_error() a release that is unknown, unparsable, or
 * has no implemented model.
 * Return: the profile, or NULL.
 */
const struct cfsr_profile *cfsr_profile_choose(const char *trace_release, const char *override,
					       const char *what);

#endif /* CFSR_PROFILE_H */

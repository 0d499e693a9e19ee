// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel model profiles.  See profile.h.
 */
#include <ctype.h>
#include <stdlib.h>

#include "error.h"
#include "profile.h"

/*
 * Ordered by version.  Only the v6.12+ profiles are implemented; the older
 * ones name what a later model must switch (MODEL.md section 6) so that
 * callers can refuse them clearly.
 */
static const struct cfsr_profile profiles[] = {
	{ "v3.8-v4.0 legacy PELT", 30800, 40099, NULL, false, false, false, false, 0, false },
	{ "v4.1-v4.14", 40100, 41499, NULL, false, false, false, false, 0, false },
	{ "v4.15-v5.6", 41500, 50699, NULL, false, false, false, false, 0, false },
	{ "v5.7-v6.5", 50700, 60599, NULL, false, false, false, false, 0, false },
	{ "v6.6-v6.11 EEVDF", 60600, 61199, NULL, true, false, false, true, 750000, false },
	{ "v6.12-v6.15 EEVDF, delayed dequeue", 61200, 61599, &cfsr_pelt_params_v6_12, true, true,
	  true, true, 700000, true },
	{ "v6.16-v6.18 EEVDF, delayed dequeue", 61600, 61899, &cfsr_pelt_params_modern, true, true,
	  true, true, 700000, true },
};

int cfsr_profile_version(const char *release)
{
	long major, minor, sub = 0;
	char *end;

	if (!release || !isdigit((unsigned char)*release))
		return -1;
	major = strtol(release, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		sub = strtol(end + 1, &end, 10);
	if (major > 99 || minor > 99 || sub < 0)
		return -1;
	return (int)(major * 10000 + minor * 100 + (sub > 99 ? 99 : sub));
}

const struct cfsr_profile *cfsr_profile_for(const char *release)
{
	int v = cfsr_profile_version(release);
	size_t i;

	if (v < 0)
		return NULL;
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (v >= profiles[i].first && v <= profiles[i].last)
			return &profiles[i];
	return NULL;
}

const struct cfsr_profile *cfsr_profile_choose(const char *trace_release, const char *override,
					       const char *what)
{
	const char *release = override ? override : trace_release;
	const struct cfsr_profile *p;

	if (!release) {
		cfsr_error("'%s' does not record its kernel release; give --kernel VERSION", what);
		return NULL;
	}
	p = cfsr_profile_for(release);
	if (!p) {
		cfsr_error("no model for kernel '%s'; models exist for v3.8 to v6.18", release);
		return NULL;
	}
	if (!p->implemented) {
		cfsr_error(
			"the model for kernel '%s' (%s) is not implemented yet; implemented: v6.12-v6.18 (use --kernel to replay with one of them)",
			release, p->name);
		return NULL;
	}
	return p;
}

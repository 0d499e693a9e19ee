// SPDX-License-Identifier: GPL-2.0-only
/*
 * Progress lines on stderr.  See progress.h.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define SHOW_AFTER_NS 1000000000ull
#define REDRAW_NS 200000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cfsr_progress_init(struct cfsr_progress *p, const char *label)
{
	p->label = label;
	p->enabled = isatty(STDERR_FILENO) == 1;
	p->shown = false;
	p->calls = 0;
	p->start_ns = p->enabled ? now_ns() : 0;
	p->last_ns = p->start_ns;
}

void cfsr_progress_update(struct cfsr_progress *p, uint64_t records, uint64_t trace_ns)
{
	uint64_t t;

	/* look at the clock only every 64k events */
	if (!p->enabled || (++p->calls & 0xffff))
		return;
	t = now_ns();
	if (t - p->start_ns < SHOW_AFTER_NS || t - p->last_ns < REDRAW_NS)
		return;
	p->last_ns = t;
	p->shown = true;
	fprintf(stderr, "\r%s: %llu records, %.3f s of trace, %.1f s elapsed\033[K", p->label,
		(unsigned long long)records, (double)trace_ns / 1e9,
		(double)(t - p->start_ns) / 1e9);
	fflush(stderr);
}

void cfsr_progress_done(struct cfsr_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}

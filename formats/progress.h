/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Progress lines on stderr for long reads.
 *
 * Shown only when stderr is a terminal, only once the work has taken more
 * than a second, and redrawn at most five times a second; the line is
 * erased when the work ends.  Never shown when stderr is a pipe or file.
 */
#ifndef CFSR_PROGRESS_H
#define CFSR_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct cfsr_progress {
	const char *label;
	bool enabled;
	bool shown;
	uint64_t start_ns;
	uint64_t last_ns;
	uint64_t calls;
};

/* Start tracking; @label (borrowed) names the work, e.g. the file. */
void cfsr_progress_init(struct cfsr_progress *p, const char *label);

/* Report @records read so far, @trace_ns into the trace. Cheap to call per event. */
void cfsr_progress_update(struct cfsr_progress *p, uint64_t records, uint64_t trace_ns);

/* Erase the progress line, if one was drawn. */
void cfsr_progress_done(struct cfsr_progress *p);

#endif /* CFSR_PROGRESS_H */

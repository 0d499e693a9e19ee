// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clock readings from a kernel-truth file.  See clockfeed.h.
 *
 * A truth.jsonl snapshot's cpu rows are read between its "truth-mid" and
 * "truth-end" markers; the reading's time is taken as the middle of the two.
 */
#include <stdlib.h>

#include "clockfeed.h"
#include "error.h"
#include "truthfile.h"

struct cfsr_clock_feed {
	struct cfsr_truth_reader *r;
	enum cfsr_truth_format format;
	/* current snapshot's reading time (truth.jsonl) */
	int64_t snap_ts;
};

struct cfsr_clock_feed *cfsr_clock_feed_open(const char *path)
{
	struct cfsr_clock_feed *f = calloc(1, sizeof(*f));

	if (!f) {
		cfsr_error("cannot open '%s': out of memory", path);
		return NULL;
	}
	f->r = cfsr_truth_open(path);
	if (!f->r) {
		free(f);
		return NULL;
	}
	f->format = cfsr_truth_format(f->r);
	f->snap_ts = -1;
	return f;
}

int cfsr_clock_feed_next(struct cfsr_clock_feed *f, struct cfsr_clock_reading *out)
{
	struct cfsr_truth_item it;
	int ret;

	while ((ret = cfsr_truth_next(f->r, &it)) > 0) {
		if (it.kind == CFSR_TRUTH_PELT) {
			const struct cfsr_pelt_rec *p = &it.pelt;

			if (p->ts < 0 || p->rq_cpu < 0 || p->clock_pelt < 0 ||
			    p->lost_idle_time < 0 || p->clock_pelt < p->lost_idle_time)
				continue;
			out->cpu = (int)p->rq_cpu;
			out->ts = (uint64_t)p->ts;
			out->clock = (uint64_t)(p->clock_pelt - p->lost_idle_time);
			return 1;
		}
		if (it.kind == CFSR_TRUTH_SNAP) {
			f->snap_ts =
				it.snap.trace_ts_mid >= 0 && it.snap.trace_ts_end >= 0 ?
					it.snap.trace_ts_mid +
						(it.snap.trace_ts_end - it.snap.trace_ts_mid) / 2 :
					-1;
			continue;
		}
		if (it.kind == CFSR_TRUTH_CPU && f->snap_ts >= 0 && it.cpu.cpu >= 0 &&
		    it.cpu.clock_task >= 0) {
			out->cpu = (int)it.cpu.cpu;
			out->ts = (uint64_t)f->snap_ts;
			out->clock = (uint64_t)it.cpu.clock_task;
			return 1;
		}
	}
	return ret;
}

void cfsr_clock_feed_close(struct cfsr_clock_feed *f)
{
	if (!f)
		return;
	cfsr_truth_close(f->r);
	free(f);
}

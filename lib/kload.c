// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's per-CPU loads from its PELT records (see kload.h).
 */
#include <stdlib.h>

#include "error.h"
#include "kload.h"

struct kload_cpu {
	bool known;
	uint64_t ts;
	uint64_t pelt_now;
	struct cfsr_sched_avg avg;
};

struct cfsr_kload {
	int nr_cpus;
	const struct cfsr_pelt_params *params;
	uint64_t records;
	struct kload_cpu *cpu;
};

struct cfsr_kload *cfsr_kload_new(int nr_cpus, const struct cfsr_pelt_params *params)
{
	struct cfsr_kload *kl;

	if (nr_cpus <= 0 || !params) {
		cfsr_error("kernel loads: bad parameters");
		return NULL;
	}
	kl = calloc(1, sizeof(*kl));
	if (!kl || !(kl->cpu = calloc((size_t)nr_cpus, sizeof(*kl->cpu)))) {
		free(kl);
		cfsr_error("kernel loads: out of memory");
		return NULL;
	}
	kl->nr_cpus = nr_cpus;
	kl->params = params;
	return kl;
}

void cfsr_kload_free(struct cfsr_kload *kl)
{
	if (!kl)
		return;
	free(kl->cpu);
	free(kl);
}

void cfsr_kload_record(struct cfsr_kload *kl, int cpu, uint64_t ts, uint64_t pelt_now,
		       const struct cfsr_sched_avg *avg)
{
	struct kload_cpu *k;

	if (cpu < 0 || cpu >= kl->nr_cpus)
		return;
	k = &kl->cpu[cpu];
	k->known = true;
	k->ts = ts;
	k->pelt_now = pelt_now;
	k->avg = *avg;
	kl->records++;
}

bool cfsr_kload_known(const struct cfsr_kload *kl, int cpu)
{
	return cpu >= 0 && cpu < kl->nr_cpus && kl->cpu[cpu].known;
}

uint64_t cfsr_kload_at(const struct cfsr_kload *kl, int cpu, uint64_t ts)
{
	const struct kload_cpu *k;
	struct cfsr_sched_avg a;
	uint64_t now;

	if (!cfsr_kload_known(kl, cpu))
		return 0;
	k = &kl->cpu[cpu];
	a = k->avg;
	now = k->pelt_now + (ts > k->ts ? ts - k->ts : 0);
	/*
	 * __update_load_avg_cfs_rq() with no weight queued (kernel/sched/pelt.c,
	 * v5.13-v6.18): the sums decay, the averages follow when a period ends
	 */
	if (a.last_update_time && now > a.last_update_time)
		cfsr_pelt_update_cfs_rq(kl->params, now, &a, 0, 0, false);
	return a.load_avg;
}

void cfsr_kload_all(const struct cfsr_kload *kl, uint64_t ts, uint64_t *loads)
{
	int c;

	for (c = 0; c < kl->nr_cpus; c++)
		loads[c] = cfsr_kload_at(kl, c, ts);
}

uint64_t cfsr_kload_records(const struct cfsr_kload *kl)
{
	return kl->records;
}

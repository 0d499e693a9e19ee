// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CFS vruntime rules and pick (v3.8-v6.5).  See cfspick.h.
 */
#include <string.h>

#include "cfspick.h"
#include "math.h"
#include "weight.h"

/*
 * Mirrors the normalized defaults of kernel/sched/fair.c, v3.8-v6.5
 * (sysctl_sched_latency 6 ms, sysctl_sched_min_granularity 0.75 ms,
 * sysctl_sched_wakeup_granularity 1 ms), scaled by update_sysctl() with
 * SCHED_TUNABLESCALING_LOG, and sched_nr_latency = DIV_ROUND_UP(latency,
 * min_granularity) as sched_proc_update_handler() keeps it: 8.
 * ALT_PERIOD and BASE_SLICE: 0c2de3f054a5, v5.13 and stable 5.10.36, until
 * EEVDF (v6.6).
 * The features: the SCHED_FEAT() defaults of kernel/sched/features.h, the
 * same for these five in the CFS files read (v5.9, and a copy of the
 * ARCH_CAPACITY era, v3.x-v4.x, its release not pinned).
 */
void cfsr_cfs_tunables_init(struct cfsr_cfs_tunables *tu, const struct cfsr_profile *prof,
			    unsigned int factor)
{
	memset(tu, 0, sizeof(*tu));
	tu->latency = 6000000ull * factor;
	tu->min_granularity = 750000ull * factor;
	tu->wakeup_granularity = 1000000ull * factor;
	tu->nr_latency =
		(unsigned int)((tu->latency + tu->min_granularity - 1) / tu->min_granularity);
	/* 0c2de3f054a5 is v5.13 and stable 5.10.36 */
	tu->alt_period =
		prof->first >= CFSR_KVER(5, 13, 0) ||
		(prof->first >= CFSR_KVER(5, 10, 36) && prof->last <= CFSR_KVER(5, 10, 999));
	tu->delta_mine = prof->last < CFSR_KVER(3, 13, 0);
	tu->start_debit = true;
	tu->gentle = true;
	tu->next_buddy = false;
	tu->last_buddy = true;
	tu->wakeup_preemption = true;
}

/*
 * Mirrors sched_proc_update_handler() in kernel/sched/fair.c, v3.8-v6.5
 * (sched_nr_latency = DIV_ROUND_UP(latency, min_granularity)); the values
 * are those update_sysctl() left, as sched/debug prints them.
 */
void cfsr_cfs_tunables_take(struct cfsr_cfs_tunables *tu, uint64_t latency,
			    uint64_t min_granularity, uint64_t wakeup_granularity)
{
	if (latency)
		tu->latency = latency;
	if (min_granularity)
		tu->min_granularity = min_granularity;
	if (wakeup_granularity)
		tu->wakeup_granularity = wakeup_granularity;
	tu->nr_latency =
		(unsigned int)((tu->latency + tu->min_granularity - 1) / tu->min_granularity);
}

/* fls() of a non-zero 32-bit value: the position of its highest set bit, 1..32. */
static unsigned int fls32(uint32_t x)
{
	unsigned int n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

/* SRR(): shift right and round (kernel/sched/sched.h, v3.8-v3.12). */
static uint64_t srr(uint64_t x, unsigned int y)
{
	return (x + (UINT64_C(1) << (y - 1))) >> y;
}

/*
 * Mirrors calc_delta_mine() in kernel/sched/core.c, v3.8-v3.12, on a
 * 64-bit kernel (SCHED_LOAD_RESOLUTION 0, WMULT_CONST 2^32): delta *
 * weight * inv_weight >> 32, rounded, in two 16-bit halves when delta *
 * weight exceeds 2^32; inv_weight, when not set, WMULT_CONST / weight.
 * The u64 products wrap as the kernel's do; the result is capped at LONG_MAX.
 */
static uint64_t calc_delta_mine(uint64_t delta, uint64_t weight, uint64_t lw_weight,
				uint32_t lw_inv)
{
	uint64_t w = cfsr_scale_load_down(lw_weight), inv = lw_inv, tmp;

	if (!inv)
		inv = w ? (UINT64_C(1) << 32) / w : UINT64_C(1) << 32;
	tmp = delta * cfsr_scale_load_down(weight);
	if (tmp > (UINT64_C(1) << 32))
		tmp = srr(srr(tmp, 16) * inv, 16);
	else
		tmp = srr(tmp * inv, 32);
	return tmp > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : tmp;
}

/*
 * Mirrors __calc_delta() in kernel/sched/fair.c, v3.13-v6.5 (9dbdb1555323;
 * the loops became fls() steps later, same result): fact = weight
 * (scaled down), brought under 32 bits; fact *= lw->inv_weight, brought
 * under 32 bits again, each bit shifted out taken off the final shift of
 * 32; then delta * fact >> shift in full width (mul_u64_u32_shr()).
 */
uint64_t cfsr_cfs_calc_delta(const struct cfsr_cfs_tunables *tu, uint64_t delta, uint64_t weight,
			     uint64_t lw_weight, uint32_t lw_inv)
{
	uint64_t fact = cfsr_scale_load_down(weight);
	unsigned int shift = WMULT_SHIFT, fs;
	uint32_t inv = lw_inv ? lw_inv : cfsr_weight_inv(lw_weight);

	if (tu->delta_mine)
		return calc_delta_mine(delta, weight, lw_weight, lw_inv);
	if (fact >> 32) {
		fs = fls32((uint32_t)(fact >> 32));
		shift -= fs;
		fact >>= fs;
	}
	fact = (uint64_t)(uint32_t)fact * inv;
	if (fact >> 32) {
		fs = fls32((uint32_t)(fact >> 32));
		shift -= fs;
		fact >>= fs;
	}
	return cfsr_mul_u64_u32_shr(delta, (uint32_t)fact, shift);
}

/*
 * Mirrors calc_delta_fair() in kernel/sched/fair.c, v3.8-v6.5: unchanged
 * at NICE_0_LOAD, else __calc_delta(delta, NICE_0_LOAD, &se->load).
 */
uint64_t cfsr_cfs_calc_delta_fair(const struct cfsr_cfs_tunables *tu, uint64_t delta,
				  uint64_t weight, uint32_t inv)
{
	if (cfsr_scale_load_down(weight) == cfsr_scale_load_down(NICE_0_LOAD))
		return delta;
	return cfsr_cfs_calc_delta(tu, delta, NICE_0_LOAD, weight, inv);
}

/*
 * Mirrors sched_slice() in kernel/sched/fair.c for an entity not yet on
 * its cfs_rq, one level: __sched_period(nr_running + 1) -- the latency,
 * or nr * min_granularity beyond sched_nr_latency -- times the entity's
 * weight over the cfs_rq's load with it (__calc_delta() on a copy of the
 * load, whose inv_weight update_load_add() reset).  v5.13-v6.5
 * (ALT_PERIOD, BASE_SLICE): the caller counts the CPU's runnable tasks,
 * and the slice is at least min_granularity.
 * Differs: the group entities above a task's cfs_rq are not walked.
 */
uint64_t cfsr_cfs_sched_slice(const struct cfsr_cfs_tunables *tu, unsigned int nr_running,
			      uint64_t cfs_load, uint64_t weight)
{
	uint64_t nr = (uint64_t)nr_running + 1, slice;

	slice = nr > tu->nr_latency ? nr * tu->min_granularity : tu->latency;
	slice = cfsr_cfs_calc_delta(tu, slice, weight, cfs_load + weight, 0);
	if (tu->alt_period && slice < tu->min_granularity)
		slice = tu->min_granularity;
	return slice;
}

/* max_vruntime() in kernel/sched/fair.c: the later of two vruntimes, wrap-safe. */
static uint64_t max_vruntime(uint64_t max, uint64_t vruntime)
{
	return (int64_t)(vruntime - max) > 0 ? vruntime : max;
}

/*
 * Mirrors place_entity() in kernel/sched/fair.c, v3.8-v6.5: from
 * min_vruntime, a new task one vslice later (START_DEBIT), a waking one
 * sysctl_sched_latency earlier, halved with GENTLE_FAIR_SLEEPERS; then
 * never before the entity's own vruntime.
 * Differs: entity_is_long_sleeper() (v6.3-v6.5: a sleep of more than
 * 2^63 / 1024 ns, about 104 days, takes the floor as is) and the SCHED_IDLE
 * credit of min_granularity (se_is_idle(), v5.15-v6.5) are left out.
 */
uint64_t cfsr_cfs_place(const struct cfsr_cfs_tunables *tu, uint64_t min_vruntime,
			uint64_t vruntime, bool initial, uint64_t vslice)
{
	uint64_t v = min_vruntime, thresh = tu->latency;

	if (initial && tu->start_debit)
		v += vslice;
	if (!initial) {
		if (tu->gentle)
			thresh >>= 1;
		v -= thresh;
	}
	return max_vruntime(vruntime, v);
}

/*
 * Mirrors update_min_vruntime() in kernel/sched/fair.c, v4.13-v6.5: the
 * smaller of curr (if still queued) and the leftmost, never backwards.
 * Differs: before the curr->on_rq test (v3.8-v4.12) a curr being dequeued
 * still counted.
 */
uint64_t cfsr_cfs_min_vruntime(uint64_t min_vruntime, bool curr, uint64_t curr_vruntime, bool left,
			       uint64_t left_vruntime)
{
	uint64_t v = min_vruntime;

	if (curr)
		v = curr_vruntime;
	if (left)
		v = !curr || (int64_t)(left_vruntime - v) < 0 ? left_vruntime : v;
	return max_vruntime(min_vruntime, v);
}

/*
 * Mirrors wakeup_preempt_entity() and wakeup_gran() in
 * kernel/sched/fair.c, v3.8-v6.5: the granularity is
 * sysctl_sched_wakeup_granularity at @se's weight.
 */
int cfsr_cfs_wakeup_preempt(const struct cfsr_cfs_tunables *tu, const struct cfsr_cfs_ent *curr,
			    const struct cfsr_cfs_ent *se)
{
	int64_t vdiff = (int64_t)(curr->vruntime - se->vruntime);
	uint64_t gran;

	if (vdiff <= 0)
		return -1;
	gran = cfsr_cfs_calc_delta_fair(tu, tu->wakeup_granularity, se->weight, se->inv);
	return vdiff > (int64_t)gran ? 1 : 0;
}

/* entity_before(): @a's vruntime is strictly before @b's. */
static bool entity_before(const struct cfsr_cfs_ent *a, const struct cfsr_cfs_ent *b)
{
	return (int64_t)(a->vruntime - b->vruntime) < 0;
}

/* Tree order: by vruntime, an equal key after those queued before it (__enqueue_entity()). */
static bool tree_before(const struct cfsr_cfs_ent *e, size_t a, size_t b)
{
	int64_t d = (int64_t)(e[a].vruntime - e[b].vruntime);

	return d < 0 || (d == 0 && a < b);
}

/* __pick_first_entity(), or __pick_next_entity(@after) when @after >= 0; -1 if none. */
static int tree_next(const struct cfsr_cfs_ent *e, size_t n, int after)
{
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (e[i].curr || (int)i == after)
			continue;
		if (after >= 0 && !tree_before(e, (size_t)after, i))
			continue;
		if (best < 0 || tree_before(e, i, (size_t)best))
			best = (int)i;
	}
	return best;
}

/*
 * Mirrors pick_next_entity() in kernel/sched/fair.c, v3.8-v6.5 (curr
 * passed in from v3.15; before, put_prev_entity() had queued it again
 * after its equals, which picks the same): the leftmost, curr if it is
 * before it; if that is the skip buddy, the one after it (curr if before
 * that one) when not more than a wakeup granularity after the leftmost;
 * then the next buddy, else the last buddy, on the same condition.  The
 * order of the next and last tests changed (last then next until about
 * v5.10, next else last since): both choose next when both qualify.
 */
int cfsr_cfs_pick_next(const struct cfsr_cfs_tunables *tu, const struct cfsr_cfs_ent *ents,
		       size_t n, int skip, int last, int next)
{
	int left = tree_next(ents, n, -1), curr = -1, se, second;
	size_t i;

	for (i = 0; i < n; i++)
		if (ents[i].curr)
			curr = (int)i;
	if (left < 0 || (curr >= 0 && entity_before(&ents[curr], &ents[left])))
		left = curr;
	if (left < 0)
		return -1;
	se = left;
	if (skip >= 0 && skip == se) {
		if (se == curr) {
			second = tree_next(ents, n, -1);
		} else {
			second = tree_next(ents, n, se);
			if (second < 0 || (curr >= 0 && entity_before(&ents[curr], &ents[second])))
				second = curr;
		}
		if (second >= 0 && cfsr_cfs_wakeup_preempt(tu, &ents[second], &ents[left]) < 1)
			se = second;
	}
	if (next >= 0 && cfsr_cfs_wakeup_preempt(tu, &ents[next], &ents[left]) < 1)
		se = next;
	else if (last >= 0 && cfsr_cfs_wakeup_preempt(tu, &ents[last], &ents[left]) < 1)
		se = last;
	return se;
}

void cfsr_cfs_buddies_add(struct cfsr_cfs_buddies *b, int *list, unsigned int *nr, int pid)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (list[i] == pid)
			return;
	if (*nr == CFSR_CFS_MAYBE) {
		b->unknown = true;
		return;
	}
	list[(*nr)++] = pid;
}

static void drop_from(int *list, unsigned int *nr, int pid)
{
	unsigned int i;

	for (i = 0; i < *nr; i++)
		if (list[i] == pid) {
			list[i] = list[--*nr];
			return;
		}
}

void cfsr_cfs_buddies_drop(struct cfsr_cfs_buddies *b, int pid)
{
	drop_from(b->next, &b->nr_next, pid);
	drop_from(b->last, &b->nr_last, pid);
	drop_from(b->skip, &b->nr_skip, pid);
}

/*
 * Indices of the runnable entities a buddy may be: first the entity @set
 * names if it is runnable, else -1 (none), then each one allowed.
 */
static size_t buddy_choices(const struct cfsr_cfs_buddies *b, const struct cfsr_cfs_ent *ents,
			    size_t n, const int *list, unsigned int nr, bool any, int set, int *out)
{
	size_t k = 0, i;
	unsigned int j;

	out[k++] = -1;
	for (i = 0; set && i < n; i++)
		if (ents[i].pid == set)
			out[0] = (int)i;
	for (i = 0; i < n; i++) {
		bool maybe =
			any && (!b->unknown_may || b->unknown_may(b->unknown_data, ents[i].pid));

		for (j = 0; j < nr && !maybe; j++)
			maybe = list[j] == ents[i].pid;
		if (maybe && (int)i != out[0])
			out[k++] = (int)i;
	}
	return k;
}

/* Beyond this many runnable entities an unknown buddy is not enumerated. */
#define ANY_BUDDY_MAX 16

int cfsr_cfs_pick_buddies(const struct cfsr_cfs_tunables *tu, const struct cfsr_cfs_ent *ents,
			  size_t n, const struct cfsr_cfs_buddies *b, int *plain)
{
	int nx[ANY_BUDDY_MAX + 1], ls[ANY_BUDDY_MAX + 1], sk[ANY_BUDDY_MAX + 1];
	size_t nnx, nls, nsk, i, j, k;
	bool any = b && b->unknown;
	int got = -1, p;

	*plain = cfsr_cfs_pick_next(tu, ents, n, -1, -1, -1);
	if (!b || *plain < 0)
		return *plain;
	/* too many to enumerate: a listed buddy may or may not change the pick */
	if (n > ANY_BUDDY_MAX && (any || b->nr_next || b->nr_last || b->nr_skip || b->next_set))
		return -2;
	nnx = buddy_choices(b, ents, n, b->next, b->nr_next, any, b->next_set, nx);
	nls = buddy_choices(b, ents, n, b->last, b->nr_last, any, 0, ls);
	nsk = buddy_choices(b, ents, n, b->skip, b->nr_skip, any, 0, sk);
	for (i = 0; i < nnx; i++)
		for (j = 0; j < nls; j++)
			for (k = 0; k < nsk; k++) {
				p = cfsr_cfs_pick_next(tu, ents, n, sk[k], ls[j], nx[i]);
				if (got >= 0 && p != got)
					return -2;
				got = p;
			}
	return got;
}

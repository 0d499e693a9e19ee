// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's scheduler feature flags.  See schedfeat.h.
 *
 * The orders below are kernel/sched/features.h of the mainline releases,
 * one SCHED_FEAT() line per name, in file order (the bit order: enum
 * __SCHED_FEAT_* in kernel/sched/sched.h counts them from 0).  Changes of
 * the order, by release:
 *   v4.17    the order of v4.17-v5.2: LB_BIAS after DOUBLE_TICK, UTIL_EST
 *            last ("sched/fair: Add util_est on top of PELT")
 *   v5.3     LB_BIAS removed (1c1b8a7b03ef)
 *   v5.5     UTIL_EST_FASTUP last (b8c96361402a): the order of v5.5-v5.11
 *            (FORCE_SD_OVERLAP gone long before, in af85596c74de); stable
 *            5.10.36 appends ALT_PERIOD and BASE_SLICE (0c2de3f054a5, after
 *            UTIL_EST_FASTUP as the 5.12 review patch's hunk does)
 *   v5.12    SIS_AVG_CPU removed ("sched/fair: Remove SIS_AVG_CPU"), then
 *            HRTICK_DL after HRTICK (e0ee463c93c4)
 *   v5.13    ALT_PERIOD, BASE_SLICE at the end (0c2de3f054a5), then
 *            LATENCY_WARN before ALT_PERIOD (c006fac556e4)
 *   v6.0     SIS_UTIL after SIS_PROP (70fb5ccf2ebb)
 *   v6.6     EEVDF: PLACE_LAG, PLACE_DEADLINE_INITIAL, RUN_TO_PARITY first;
 *            GENTLE_FAIR_SLEEPERS, START_DEBIT, LAST_BUDDY, ALT_PERIOD,
 *            BASE_SLICE gone (147f3efaa241, 86bfbb7ce4f6, 63304558ba5d,
 *            5e963f2bd465); HZ_BW at the end (88c56cfeaec4)
 *   v6.7     SIS_PROP removed (984ffb6a4366)
 *   v6.8     UTIL_EST_FASTUP removed
 *   v6.11    HZ_BW removed ("sched: remove HZ_BW feature hedge")
 *   v6.12    PLACE_REL_DEADLINE, PREEMPT_SHORT after PLACE_DEADLINE_INITIAL and
 *            RUN_TO_PARITY, DELAY_DEQUEUE, DELAY_ZERO after CACHE_HOT_BUDDY
 *            (82e9d0456e06, 85e511df3cec, 152e11f6df29, 54a58a787791)
 *   v6.13    DOUBLE_TICK removed ("sched/fair: Remove DOUBLE_TICK")
 *   v6.14    PICK_BUDDY after NEXT_BUDDY (2a77e4be12cb; in 6.12.13 and 6.13.2)
 *   v6.19    NI_RANDOM after LATENCY_WARN (33cf66d88306; in 6.18.5; 6.1.160
 *            and 6.6.120 carry it after LATENCY_WARN too, not at their end:
 *            before ALT_PERIOD and BASE_SLICE, before HZ_BW, as the hunks of
 *            their stable review patches put it; 6.12.65 at its end, after
 *            LATENCY_WARN, the last line of 6.12's file)
 */
#include <string.h>

#include "schedfeat.h"

/* clang-format off */
#define CFS_HEAD "GENTLE_FAIR_SLEEPERS", "START_DEBIT", "NEXT_BUDDY", "LAST_BUDDY", \
	"CACHE_HOT_BUDDY", "WAKEUP_PREEMPTION", "HRTICK"
#define EEVDF_HEAD "PLACE_LAG", "PLACE_DEADLINE_INITIAL", "RUN_TO_PARITY", "NEXT_BUDDY", \
	"CACHE_HOT_BUDDY", "WAKEUP_PREEMPTION", "HRTICK", "HRTICK_DL", "DOUBLE_TICK"
#define REL_HEAD "PLACE_LAG", "PLACE_DEADLINE_INITIAL", "PLACE_REL_DEADLINE", "RUN_TO_PARITY", \
	"PREEMPT_SHORT", "NEXT_BUDDY"
#define DELAY "CACHE_HOT_BUDDY", "DELAY_DEQUEUE", "DELAY_ZERO", "WAKEUP_PREEMPTION", "HRTICK", \
	"HRTICK_DL"
#define MID "NONTASK_CAPACITY", "TTWU_QUEUE"
#define TAIL "WARN_DOUBLE_CLOCK", "RT_PUSH_IPI", "RT_RUNTIME_SHARE", "LB_MIN", \
	"ATTACH_AGE_LOAD", "WA_IDLE", "WA_WEIGHT", "WA_BIAS", "UTIL_EST"
#define REL_TAIL MID, "SIS_UTIL", TAIL, "LATENCY_WARN"

static const char *const v4_17[] = { CFS_HEAD, "DOUBLE_TICK", "LB_BIAS", MID, "SIS_AVG_CPU",
	"SIS_PROP", TAIL };
static const char *const v5_3[] = { CFS_HEAD, "DOUBLE_TICK", MID, "SIS_AVG_CPU", "SIS_PROP", TAIL };
static const char *const v5_5[] = { CFS_HEAD, "DOUBLE_TICK", MID, "SIS_AVG_CPU", "SIS_PROP", TAIL,
	"UTIL_EST_FASTUP" };
static const char *const v5_10_36[] = { CFS_HEAD, "DOUBLE_TICK", MID, "SIS_AVG_CPU", "SIS_PROP",
	TAIL, "UTIL_EST_FASTUP", "ALT_PERIOD", "BASE_SLICE" };
static const char *const v5_12[] = { CFS_HEAD, "HRTICK_DL", "DOUBLE_TICK", MID, "SIS_PROP", TAIL,
	"UTIL_EST_FASTUP" };
static const char *const v5_13[] = { CFS_HEAD, "HRTICK_DL", "DOUBLE_TICK", MID, "SIS_PROP", TAIL,
	"UTIL_EST_FASTUP", "LATENCY_WARN", "ALT_PERIOD", "BASE_SLICE" };
static const char *const v6_0[] = { CFS_HEAD, "HRTICK_DL", "DOUBLE_TICK", MID, "SIS_PROP",
	"SIS_UTIL", TAIL, "UTIL_EST_FASTUP", "LATENCY_WARN", "ALT_PERIOD", "BASE_SLICE" };
static const char *const v6_1_160[] = { CFS_HEAD, "HRTICK_DL", "DOUBLE_TICK", MID, "SIS_PROP",
	"SIS_UTIL", TAIL, "UTIL_EST_FASTUP", "LATENCY_WARN", "NI_RANDOM", "ALT_PERIOD", "BASE_SLICE" };
static const char *const v6_6[] = { EEVDF_HEAD, MID, "SIS_PROP", "SIS_UTIL", TAIL,
	"UTIL_EST_FASTUP", "LATENCY_WARN", "HZ_BW" };
static const char *const v6_6_120[] = { EEVDF_HEAD, MID, "SIS_PROP", "SIS_UTIL", TAIL,
	"UTIL_EST_FASTUP", "LATENCY_WARN", "NI_RANDOM", "HZ_BW" };
static const char *const v6_7[] = { EEVDF_HEAD, MID, "SIS_UTIL", TAIL, "UTIL_EST_FASTUP",
	"LATENCY_WARN", "HZ_BW" };
static const char *const v6_8[] = { EEVDF_HEAD, MID, "SIS_UTIL", TAIL, "LATENCY_WARN", "HZ_BW" };
static const char *const v6_11[] = { EEVDF_HEAD, MID, "SIS_UTIL", TAIL, "LATENCY_WARN" };
static const char *const v6_12[] = { REL_HEAD, DELAY, "DOUBLE_TICK", REL_TAIL };
static const char *const v6_12_13[] = { REL_HEAD, "PICK_BUDDY", DELAY, "DOUBLE_TICK", REL_TAIL };
static const char *const v6_12_65[] = { REL_HEAD, "PICK_BUDDY", DELAY, "DOUBLE_TICK", REL_TAIL,
	"NI_RANDOM" };
static const char *const v6_13[] = { REL_HEAD, DELAY, REL_TAIL };
static const char *const v6_14[] = { REL_HEAD, "PICK_BUDDY", DELAY, REL_TAIL };
static const char *const v6_18_5[] = { REL_HEAD, "PICK_BUDDY", DELAY, REL_TAIL, "NI_RANDOM" };
/* clang-format on */

#define ORDER(from, to, nm, list)                                  \
	{                                                          \
		from, to, nm, list, sizeof(list) / sizeof(list[0]) \
	}

static const struct {
	int first, last;
	const char *range;
	const char *const *names;
	size_t nr;
} orders[] = {
	ORDER(CFSR_KVER(4, 17, 0), CFSR_KVER(5, 2, 999), "v4.17-v5.2", v4_17),
	ORDER(CFSR_KVER(5, 3, 0), CFSR_KVER(5, 4, 999), "v5.3-v5.4", v5_3),
	ORDER(CFSR_KVER(5, 5, 0), CFSR_KVER(5, 10, 35), "v5.5-v5.10.35", v5_5),
	ORDER(CFSR_KVER(5, 10, 36), CFSR_KVER(5, 10, 999), "v5.10.36-v5.10.y", v5_10_36),
	ORDER(CFSR_KVER(5, 11, 0), CFSR_KVER(5, 11, 999), "v5.11", v5_5),
	ORDER(CFSR_KVER(5, 12, 0), CFSR_KVER(5, 12, 999), "v5.12", v5_12),
	ORDER(CFSR_KVER(5, 13, 0), CFSR_KVER(5, 99, 999), "v5.13-v5.19", v5_13),
	ORDER(CFSR_KVER(6, 0, 0), CFSR_KVER(6, 1, 159), "v6.0-v6.1.159", v6_0),
	ORDER(CFSR_KVER(6, 1, 160), CFSR_KVER(6, 1, 999), "v6.1.160-v6.1.y", v6_1_160),
	ORDER(CFSR_KVER(6, 2, 0), CFSR_KVER(6, 5, 999), "v6.2-v6.5", v6_0),
	ORDER(CFSR_KVER(6, 6, 0), CFSR_KVER(6, 6, 119), "v6.6-v6.6.119", v6_6),
	ORDER(CFSR_KVER(6, 6, 120), CFSR_KVER(6, 6, 999), "v6.6.120-v6.6.y", v6_6_120),
	ORDER(CFSR_KVER(6, 7, 0), CFSR_KVER(6, 7, 999), "v6.7", v6_7),
	ORDER(CFSR_KVER(6, 8, 0), CFSR_KVER(6, 10, 999), "v6.8-v6.10", v6_8),
	ORDER(CFSR_KVER(6, 11, 0), CFSR_KVER(6, 11, 999), "v6.11", v6_11),
	ORDER(CFSR_KVER(6, 12, 0), CFSR_KVER(6, 12, 12), "v6.12-v6.12.12", v6_12),
	ORDER(CFSR_KVER(6, 12, 13), CFSR_KVER(6, 12, 64), "v6.12.13-v6.12.64", v6_12_13),
	ORDER(CFSR_KVER(6, 12, 65), CFSR_KVER(6, 12, 999), "v6.12.65-v6.12.y", v6_12_65),
	ORDER(CFSR_KVER(6, 13, 0), CFSR_KVER(6, 13, 1), "v6.13-v6.13.1", v6_13),
	ORDER(CFSR_KVER(6, 13, 2), CFSR_KVER(6, 18, 4), "v6.13.2-v6.18.4", v6_14),
	ORDER(CFSR_KVER(6, 18, 5), CFSR_KVER(6, 18, 999), "v6.18.5-v6.18.y", v6_18_5),
};

const char *const *cfsr_sched_feat_order(const char *release, size_t *nr, const char **range)
{
	int v = cfsr_profile_version(release);
	size_t i;

	for (i = 0; v >= 0 && i < sizeof(orders) / sizeof(orders[0]); i++) {
		if (v < orders[i].first || v > orders[i].last)
			continue;
		*nr = orders[i].nr;
		if (range)
			*range = orders[i].range;
		return orders[i].names;
	}
	*nr = 0;
	return NULL;
}

enum cfsr_feat_source cfsr_sched_feats_decode(struct cfsr_sched_feats *f,
					      const struct cfsr_trace_info *info)
{
	const char *const *names = info->sched_feat_names;
	size_t nr = info->nr_sched_feat_names, i;

	memset(f, 0, sizeof(*f));
	f->source = CFSR_FEAT_UNKNOWN;
	if (!info->has_sched_features) {
		f->why = "the trace does not record sysctl_sched_features";
		return f->source;
	}
	f->mask = info->sched_features;
	if (names && nr && nr <= CFSR_SCHED_FEAT_MAX) {
		f->source = CFSR_FEAT_RECORDED;
		f->order = info->sched_feat_names_source;
	} else {
		names = cfsr_sched_feat_order(info->kernel_release, &nr, &f->order);
		if (!names) {
			f->why = "no features.h order is known for its kernel release";
			return f->source;
		}
		f->source = CFSR_FEAT_TABLE;
	}
	for (i = 0; i < nr; i++)
		f->names[i] = names[i];
	f->nr = nr;
	return f->source;
}

int cfsr_sched_feat_state(const struct cfsr_sched_feats *f, const char *name)
{
	size_t i;

	for (i = 0; f->source != CFSR_FEAT_UNKNOWN && i < f->nr; i++)
		if (f->names[i] && !strcmp(f->names[i], name))
			return (int)((f->mask >> i) & 1);
	return -1;
}

uint64_t cfsr_sched_feat_unnamed(const struct cfsr_sched_feats *f)
{
	if (f->source == CFSR_FEAT_UNKNOWN)
		return f->mask;
	return f->nr >= CFSR_SCHED_FEAT_MAX ? 0 : f->mask >> f->nr << f->nr;
}

size_t cfsr_sched_feats_differ(const struct cfsr_profile *p, const struct cfsr_profile *base,
			       const char **out)
{
	size_t n = 0;

#define DIFFER(nm, field)            \
	if (p->field != base->field) \
		out[n++] = p->field ? nm : "NO_" nm;
	CFSR_ENGINE_FEATS(DIFFER)
#undef DIFFER
	return n;
}

/* Set the bool @flag to @f's state of feature @nm where @f knows it, counting changes in @n. */
static void take_feat(const struct cfsr_sched_feats *f, const char *nm, bool *flag, int *n)
{
	int s = cfsr_sched_feat_state(f, nm);

	if (s >= 0 && (s == 1) != *flag) {
		*flag = s == 1;
		(*n)++;
	}
}

int cfsr_sched_feats_apply(struct cfsr_profile *p, const struct cfsr_profile *base,
			   const struct cfsr_sched_feats *f)
{
	int n = 0;

	*p = *base;
#define APPLY(nm, field) take_feat(f, nm, &p->field, &n);
	CFSR_ENGINE_FEATS(APPLY)
#undef APPLY
	return n;
}

int cfsr_sched_feats_apply_cfs(struct cfsr_cfs_tunables *tu, const struct cfsr_sched_feats *f)
{
	int n = 0;

#define APPLY(nm, field) take_feat(f, nm, &tu->field, &n);
	CFSR_CFS_FEATS(APPLY)
#undef APPLY
	return n;
}

size_t cfsr_sched_feats_engine(const struct cfsr_profile *base, const struct cfsr_sched_feats *f,
			       const char **out)
{
	struct cfsr_cfs_tunables dflt, tu;
	struct cfsr_profile p;
	size_t n;

	cfsr_sched_feats_apply(&p, base, f);
	n = cfsr_sched_feats_differ(&p, base, out);
	if (base->eevdf)
		return n;
	cfsr_cfs_tunables_init(&dflt, base, 1);
	tu = dflt;
	cfsr_sched_feats_apply_cfs(&tu, f);
#define DIFFER(nm, field)           \
	if (tu.field != dflt.field) \
		out[n++] = tu.field ? nm : "NO_" nm;
	CFSR_CFS_FEATS(DIFFER)
#undef DIFFER
	return n;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's scheduler feature flags (sysctl_sched_features).
 *
 * sched/debug prints sysctl_sched_features as a bitmask whose bit i is the
 * i-th SCHED_FEAT() line of that kernel's kernel/sched/features.h; the
 * order changes between releases.  A recording made by `cfsreplay record`
 * carries the names in bit order read from the running kernel; for other
 * recordings this file holds the order of every release v4.17-v6.18 and
 * decodes the bitmask by the traced release.  Where neither applies the
 * features are unknown, and said to be.
 */
#ifndef CFSR_SCHEDFEAT_H
#define CFSR_SCHEDFEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfspick.h"
#include "profile.h"
#include "trace.h"

/* bits of sysctl_sched_features (an unsigned int in the kernel) */
#define CFSR_SCHED_FEAT_MAX 64

/* Where a trace's feature names came from. */
enum cfsr_feat_source {
	/* no bitmask, or neither recorded names nor a table for the release */
	CFSR_FEAT_UNKNOWN,
	/* the names in bit order the recorder read from the running kernel */
	CFSR_FEAT_RECORDED,
	/* the bitmask decoded by the release's features.h order */
	CFSR_FEAT_TABLE,
};

/**
 * struct cfsr_sched_feats - a trace's scheduler features
 * @source: where @names came from
 * @why: for CFSR_FEAT_UNKNOWN, the reason; else NULL (static string)
 * @order: for CFSR_FEAT_TABLE, the releases the order covers ("v6.14-v6.18.4");
 *         for CFSR_FEAT_RECORDED, how the recorder read them
 * @mask: sysctl_sched_features
 * @nr: names known, bits 0 .. @nr - 1
 * @names: feature names by bit, borrowed (the static table or the trace
 *         info's strings, until the trace is closed)
 */
struct cfsr_sched_feats {
	enum cfsr_feat_source source;
	const char *why;
	const char *order;
	uint64_t mask;
	size_t nr;
	const char *names[CFSR_SCHED_FEAT_MAX];
};

/**
 * cfsr_sched_feat_order() - the features.h order of a kernel release
 * @release: uname -r, e.g. "6.18.44-fc-v1272"
 * @nr: set to the number of features
 * @range: if not NULL, set to the releases the order covers (static)
 *
 * Mainline orders, with the stable sublevels that took a feature pinned
 * where they are known (PICK_BUDDY in 6.12.13 and 6.13.2, NI_RANDOM in
 * 6.1.160, 6.6.120, 6.12.65 and 6.18.5); an SMP kernel is assumed (RT_PUSH_IPI is there only with
 * HAVE_RT_PUSH_IPI).
 * Return: the names by bit (static), or NULL for a release outside
 * v4.17-v6.18 or one that does not parse.
 */
const char *const *cfsr_sched_feat_order(const char *release, size_t *nr, const char **range);

/**
 * cfsr_sched_feats_decode() - name the bits of a sysctl_sched_features value
 * @f: filled in
 * @info: the trace's facts: kernel release, the bitmask and recorded names
 *
 * Recorded names win over the release table.  A bitmask with a bit set
 * beyond the names known leaves those bits unnamed (cfsr_sched_feat_unnamed()).
 * Return: @f->source.
 */
enum cfsr_feat_source cfsr_sched_feats_decode(struct cfsr_sched_feats *f,
					      const struct cfsr_trace_info *info);

/**
 * cfsr_sched_feat_state() - whether a feature is on
 * @f: decoded features
 * @name: e.g. "DELAY_DEQUEUE"
 *
 * Return: 1 on, 0 off, -1 unknown (features unknown, or no such name in
 * this kernel's list).
 */
int cfsr_sched_feat_state(const struct cfsr_sched_feats *f, const char *name);

/**
 * cfsr_sched_feat_unnamed() - bits set beyond the names known
 * @f: decoded features
 *
 * Return: the mask of those bits (0 when every set bit has a name).
 */
uint64_t cfsr_sched_feat_unnamed(const struct cfsr_sched_feats *f);

/* The features the replay engine switches on, one list: feature name, profile field. */
#define CFSR_ENGINE_FEATS(X)                                \
	X("PLACE_LAG", place_lag)                           \
	X("PLACE_DEADLINE_INITIAL", place_deadline_initial) \
	X("PLACE_REL_DEADLINE", place_rel_deadline)         \
	X("RUN_TO_PARITY", run_to_parity)                   \
	X("PICK_BUDDY", pick_buddy)                         \
	X("DELAY_DEQUEUE", delay_dequeue)                   \
	X("DELAY_ZERO", delay_zero)                         \
	X("UTIL_EST", util_est)                             \
	X("UTIL_EST_FASTUP", util_est_fastup)

/**
 * cfsr_sched_feats_apply() - a profile with a trace's features in place of its defaults
 * @p: set to a copy of @base whose engine features (CFSR_ENGINE_FEATS) are
 *     those @f knows; one @f does not know keeps the profile's default
 * @base: the release's profile
 * @f: decoded features
 *
 * Return: the number of engine features that differ from @base's defaults.
 */
int cfsr_sched_feats_apply(struct cfsr_profile *p, const struct cfsr_profile *base,
			   const struct cfsr_sched_feats *f);

/**
 * cfsr_sched_feats_apply_cfs() - the CFS rules with a trace's features
 * @tu: changed: each feature of CFSR_CFS_FEATS @f knows is set as @f has
 *      it, one it does not know keeps @tu's value
 * @f: decoded features
 *
 * For a trace recorded on a CFS kernel (v3.8-v6.5) and replayed by its own
 * release's profile: a what-if replay keeps the defaults.
 * Return: the number of features changed.
 */
int cfsr_sched_feats_apply_cfs(struct cfsr_cfs_tunables *tu, const struct cfsr_sched_feats *f);

/**
 * cfsr_sched_feats_differ() - the engine features a profile has otherwise than another
 * @p: e.g. the profile a replay follows (cfsr_replay_profile())
 * @base: e.g. the release's profile
 * @out: set to the names, "NAME" for one on in @p, "NO_NAME" for one off
 *       (static strings); room for CFSR_SCHED_FEAT_MAX
 *
 * Return: how many.
 */
size_t cfsr_sched_feats_differ(const struct cfsr_profile *p, const struct cfsr_profile *base,
			       const char **out);

/**
 * cfsr_sched_feats_engine() - the features a replay of a trace follows otherwise than its defaults
 * @base: the profile of the trace's own release
 * @f: the trace's decoded features
 * @out: as cfsr_sched_feats_differ(): the engine features (CFSR_ENGINE_FEATS)
 *       @f changes, then, for a CFS profile, those of its rules
 *       (CFSR_CFS_FEATS); room for CFSR_SCHED_FEAT_MAX
 *
 * Return: how many.
 */
size_t cfsr_sched_feats_engine(const struct cfsr_profile *base, const struct cfsr_sched_feats *f,
			       const char **out);

#endif /* CFSR_SCHEDFEAT_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests for lib/group.c: the group formulas on values.  How the
 * replay engine applies them through the hierarchy (walks, steady states,
 * moves, blocked load) is tested in test-replay.c.
 *
 * Sources of the expected values:
 * - calc_group_shares() cases worked by hand in the comments, one of them
 *   the example in the kernel's own comment of calc_group_shares()
 *   (shares scale_load(15) over 8 busy CPUs: 1920);
 * - the cgroup v2 conversion DIV_ROUND_CLOSEST(weight * 1024, 100) evaluated
 *   by hand for each weight;
 * - the 1/64 publication threshold and the 1 ms rate limit at their edges;
 * - one propagation step of each sign, every intermediate value computed by
 *   hand in the comments from the kernel's update_tg_cfs_*() steps;
 * - the kernel's own records in ../shared/traces/{cgroups,periodic}-bpf
 *   (skipped with a message when absent): group entity weights recomputed
 *   with calc_group_shares() from the record of the group's cfs_rq, one
 *   propagation from the entity's record before it, and the published
 *   contribution from the previous record; the agreement is printed.
 *   Each formula is taken alone here, on the kernel's own inputs, where
 *   validate measures the engine's whole chain (its clocks, its state and
 *   its timing of each update) against the same records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "error.h"
#include "group.h"
#include "profile.h"
#include "truth.h"
#include "truthfile.h"
#include "weight.h"

#define P (&cfsr_pelt_params_modern)
#define G (&cfsr_group_params_v6_12)

static void quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

/* ---- calc_group_shares() -------------------------------------------------------------------- */

static void test_calc_shares(void **state)
{
	(void)state;
	/*
	 * Shares 1024 (1048576 scaled), one nice-0 task on each of two CPUs,
	 * both cfs_rqs at load_avg 1024 and published: tg_load_avg 2048.
	 * tg_weight = 2048 - 1024 + max(1024, 1024) = 2048;
	 * 1048576 * 1024 / 2048 = 524288, half the shares on each CPU.
	 */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 1048576, 1024, 2048, 1024), 524288);
	/* The other CPU idle (published 0): tg_weight = 1024, all the shares. */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 1048576, 1024, 1024, 1024), 1048576);
	/* Idle CPU: load 0, 0 * shares / 1024 = 0, raised to MIN_SHARES = 2 (unscaled). */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 0, 0, 1024, 0), MIN_SHARES);
	/* The kernel comment's example: scale_load(15) on 8 busy CPUs, 15360 / 8 = 1920. */
	assert_int_equal(cfsr_group_calc_shares(P, 15360, 1048576, 1024, 8192, 1024), 1920);
	/*
	 * scale_load_down() truncates: load.weight 4095 -> 3 (not 4); with
	 * tg_load_avg 100 and no contribution: tg_weight = 103,
	 * 1048576 * 3 / 103 = 3145728 / 103 = 30541 rem 5.
	 */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 4095, 0, 100, 0), 30541);
	/*
	 * scale_load_down() floor: load.weight 1500 -> max(2, 1) = 2; with
	 * nothing published tg_weight = 2 and the result is all the shares.
	 */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 1500, 0, 0, 0), 1048576);
	/* load_avg above the queued weight wins: max(1024, 3000) = 3000; tg_weight 2000 - 2000 + 3000. */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 1048576, 3000, 2000, 2000), 1048576);
	/* ... and 1048576 * 3000 / (6000 - 2000 + 3000) = 449389.7 -> 449389. */
	assert_int_equal(cfsr_group_calc_shares(P, 1048576, 1048576, 3000, 6000, 2000), 449389);
	/* Two groups of 2048 and 256 cpu.shares, each alone on its CPU: their whole shares. */
	assert_int_equal(cfsr_group_calc_shares(P, 2048 * 1024, 1048576, 1024, 1024, 1024),
			 2097152);
	assert_int_equal(cfsr_group_calc_shares(P, 256 * 1024, 1048576, 1024, 1024, 1024), 262144);
}

/* ---- update_tg_load_avg() ---------------------------------------------------------------------- */

static void test_publish_threshold(void **state)
{
	int64_t tg = 5000;
	uint64_t contrib = 640, last = 0;

	(void)state;
	/* contrib 640: threshold 640 / 64 = 10, strict: +10 stays, +11 goes. */
	assert_false(cfsr_group_publish_load(G, &tg, &contrib, &last, 650, 10000000));
	assert_int_equal(tg, 5000);
	assert_int_equal(contrib, 640);
	assert_false(cfsr_group_publish_load(G, &tg, &contrib, &last, 630, 10000000));
	assert_true(cfsr_group_publish_load(G, &tg, &contrib, &last, 651, 10000000));
	assert_int_equal(tg, 5011);
	assert_int_equal(contrib, 651);
	assert_int_equal(last, 10000000);

	/* Rate limit: within 1 ms of the last publication nothing moves, at 1 ms it does. */
	assert_false(cfsr_group_publish_load(G, &tg, &contrib, &last, 100, 10999999));
	assert_int_equal(tg, 5011);
	assert_true(cfsr_group_publish_load(G, &tg, &contrib, &last, 100, 11000000));
	assert_int_equal(tg, 4460); /* 5011 + (100 - 651) */
	assert_int_equal(contrib, 100);

	/* Downwards: contrib 100, threshold 1: -1 stays, -2 goes. */
	assert_false(cfsr_group_publish_load(G, &tg, &contrib, &last, 99, 20000000));
	assert_true(cfsr_group_publish_load(G, &tg, &contrib, &last, 98, 20000000));
	assert_int_equal(tg, 4458);

	/* Without the rate limit (v6.6 and older), the same instant is fine. */
	{
		static const struct cfsr_group_params no_limit = { .name = "test" };
		int64_t tg2 = 0;
		uint64_t c2 = 0, l2 = 5;

		assert_true(cfsr_group_publish_load(&no_limit, &tg2, &c2, &l2, 1, 5));
		assert_int_equal(tg2, 1);
		/* contrib 0 publishes any change, and nothing when there is none. */
		c2 = 0;
		assert_false(cfsr_group_publish_load(&no_limit, &tg2, &c2, &l2, 0, 5));
	}
}

/* ---- propagation -------------------------------------------------------------------------------- */

/*
 * A group entity and its parent cfs_rq, period_contrib 500: divider
 * 46718 + 500 = 47218.  The entity: weight 1024, load_sum 10000,
 * load_avg 1024 * 10000 / 47218 = 216, util 100 (sum 100 * 47218),
 * runnable 150.  The parent: load 800, util 500, runnable 600, each sum
 * avg * 47218.  The group cfs_rq: util 300, runnable 400, load_sum
 * 2000000 with weight 2048 (two nice-0 tasks).
 */
static void propagation_setup(struct cfsr_sched_avg *cfs, struct cfsr_sched_avg *se,
			      struct cfsr_sched_avg *gcfs)
{
	memset(cfs, 0, sizeof(*cfs));
	memset(se, 0, sizeof(*se));
	memset(gcfs, 0, sizeof(*gcfs));
	cfs->period_contrib = 500;
	cfs->load_avg = 800;
	cfs->load_sum = 800 * 47218;
	cfs->util_avg = 500;
	cfs->util_sum = 500 * 47218;
	cfs->runnable_avg = 600;
	cfs->runnable_sum = 600 * 47218;
	se->period_contrib = 500;
	se->load_sum = 10000;
	se->load_avg = 216;
	se->util_avg = 100;
	se->util_sum = 100 * 47218;
	se->runnable_avg = 150;
	se->runnable_sum = 150 * 47218;
	gcfs->util_avg = 300;
	gcfs->runnable_avg = 400;
	gcfs->load_sum = 2000000;
}

static void test_propagate_attach(void **state)
{
	struct cfsr_sched_avg cfs, se, gcfs;
	int64_t prop = 20000;

	(void)state;
	propagation_setup(&cfs, &se, &gcfs);
	cfsr_group_propagate(P, &cfs, &se, NICE_0_LOAD, &gcfs, 2 * NICE_0_LOAD, &prop);

	/* util: +200; se sum 300 * 47218 = 14165400 (+9443600); parent 700, 33052600. */
	assert_int_equal(se.util_avg, 300);
	assert_int_equal(se.util_sum, 14165400);
	assert_int_equal(cfs.util_avg, 700);
	assert_int_equal(cfs.util_sum, 33052600);
	/* runnable: +250; se sum 400 * 47218 = 18887200 (+11804500); parent 850, 40135300. */
	assert_int_equal(se.runnable_avg, 400);
	assert_int_equal(se.runnable_sum, 18887200);
	assert_int_equal(cfs.runnable_avg, 850);
	assert_int_equal(cfs.runnable_sum, 40135300);
	/*
	 * load, added: rs = min(20000 + 10000, 47218) = 30000, above the running
	 * 14165400 >> 10 = 13833; load_sum 1024 * 30000 = 30720000, load_avg
	 * 30720000 / 47218 = 650; parent +434 -> 1234 and +20480000 -> 58254400
	 * (above its bound 1234 * 46718 = 57650012).
	 */
	assert_int_equal(se.load_sum, 30000);
	assert_int_equal(se.load_avg, 650);
	assert_int_equal(cfs.load_avg, 1234);
	assert_int_equal(cfs.load_sum, 58254400);
	assert_int_equal(prop, 0);
}

/*
 * update_tg_cfs_*() of v5.7-v5.16, on propagation_setup() with the
 * parent's sums off their averages (util +1000, runnable +1000, load
 * -5000000), prop_runnable_sum +20000.  By hand:
 * - v5.8-v5.12 (divider 47218): the parent's util_sum and runnable_sum are
 *   rebuilt from their new averages, 700 * 47218 = 33052600 and 850 *
 *   47218 = 40135300; load as test_propagate_attach (se 30000 and 650,
 *   parent 1234) but the parent's load_sum gains 20480000 with no bound:
 *   37774400 - 5000000 + 20480000 = 53254400;
 * - v5.13: the parent's load_sum is 1234 * 47218 = 58267012;
 * - v5.7 (LOAD_AVG_MAX 47742): se util_sum 300 * 47742 = 14322600, parent
 *   700 * 47742 = 33419400; runnable 400 * 47742 = 19096800 and 850 *
 *   47742 = 40580700; load rs min(30000, 47742) = 30000, above 14322600 >>
 *   10 = 13986; load_avg 30720000 / 47742 = 643; parent 800 + 427 = 1227,
 *   load_sum 53254400 again;
 * - v5.17+ for contrast: add_positive of the differences (33052600 + 1000,
 *   40135300 + 1000) and the load bound 1234 * 46718 = 57650012.
 */
static void propagation_setup_off(struct cfsr_sched_avg *cfs, struct cfsr_sched_avg *se,
				  struct cfsr_sched_avg *gcfs)
{
	propagation_setup(cfs, se, gcfs);
	cfs->util_sum += 1000;
	cfs->runnable_sum += 1000;
	cfs->load_sum -= 5000000;
}

static void test_propagate_v5(void **state)
{
	/* params, se util_sum, parent util_sum, se runnable_sum, parent, se load_avg, parent, sum */
	const struct {
		const struct cfsr_pelt_params *pelt;
		uint64_t v[7];
	} want[] = {
		{ &cfsr_pelt_params_v5_8,
		  { 14165400, 33052600, 18887200, 40135300, 650, 1234, 53254400 } },
		{ &cfsr_pelt_params_v5_13,
		  { 14165400, 33052600, 18887200, 40135300, 650, 1234, 58267012 } },
		{ &cfsr_pelt_params_v5_7,
		  { 14322600, 33419400, 19096800, 40580700, 643, 1227, 53254400 } },
		{ P, { 14165400, 33053600, 18887200, 40136300, 650, 1234, 57650012 } },
	};
	struct cfsr_sched_avg cfs, se, gcfs;
	int64_t prop;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		propagation_setup_off(&cfs, &se, &gcfs);
		prop = 20000;
		cfsr_group_propagate(want[i].pelt, &cfs, &se, NICE_0_LOAD, &gcfs, 2 * NICE_0_LOAD,
				     &prop);
		assert_int_equal(se.util_sum, want[i].v[0]);
		assert_int_equal(cfs.util_sum, want[i].v[1]);
		assert_int_equal(se.runnable_sum, want[i].v[2]);
		assert_int_equal(cfs.runnable_sum, want[i].v[3]);
		assert_int_equal(se.load_sum, 30000);
		assert_int_equal(se.load_avg, want[i].v[4]);
		assert_int_equal(cfs.load_avg, want[i].v[5]);
		assert_int_equal(cfs.load_sum, want[i].v[6]);
		assert_int_equal(cfs.util_avg, 700);
		assert_int_equal(cfs.runnable_avg, 850);
	}
}

/*
 * An unchanged load_avg (the entity already at 650): v5.17+ and v5.14-v5.16
 * (83c5e9d573e1) return early, the latter after setting the entity's
 * load_sum to 30000; v5.13 goes on and rebuilds the parent's load_sum
 * from its unchanged load_avg, 800 * 47218 = 37774400; v5.8-v5.12 add a
 * sum difference of 1024 * (30000 - 10000) = 20480000 to 32774400.
 */
static void test_propagate_unchanged_load(void **state)
{
	const struct cfsr_pelt_params *v[] = { P, &cfsr_pelt_params_v5_14, &cfsr_pelt_params_v5_13,
					       &cfsr_pelt_params_v5_8 };
	const uint64_t se_sum[] = { 10000, 30000, 30000, 30000 };
	const uint64_t cfs_sum[] = { 32774400, 32774400, 37774400, 53254400 };
	struct cfsr_sched_avg cfs, se, gcfs;
	int64_t prop;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		propagation_setup_off(&cfs, &se, &gcfs);
		se.load_avg = 650;
		prop = 20000;
		cfsr_group_propagate(v[i], &cfs, &se, NICE_0_LOAD, &gcfs, 2 * NICE_0_LOAD, &prop);
		assert_int_equal(se.load_sum, se_sum[i]);
		assert_int_equal(se.load_avg, 650);
		assert_int_equal(cfs.load_avg, 800);
		assert_int_equal(cfs.load_sum, cfs_sum[i]);
		assert_int_equal(prop, 0);
	}
}

static void test_propagate_detach(void **state)
{
	struct cfsr_sched_avg cfs, se, gcfs;
	int64_t prop = -20000;

	(void)state;
	propagation_setup(&cfs, &se, &gcfs);
	cfsr_group_propagate(P, &cfs, &se, NICE_0_LOAD, &gcfs, 2 * NICE_0_LOAD, &prop);
	/*
	 * load, removed: estimate 2000000 / 2048 = 976, min(10000, 976) = 976,
	 * but the running time 14165400 >> 10 = 13833 is a floor: rs 13833;
	 * load_sum 1024 * 13833 = 14164992, load_avg / 47218 = 299 (+83);
	 * parent 883 and 37774400 + (14164992 - 10240000) = 41699392.
	 */
	assert_int_equal(se.load_sum, 13833);
	assert_int_equal(se.load_avg, 299);
	assert_int_equal(cfs.load_avg, 883);
	assert_int_equal(cfs.load_sum, 41699392);
	assert_int_equal(prop, 0);

	/* Nothing pending: load untouched (util/runnable already equal). */
	cfsr_group_propagate(P, &cfs, &se, NICE_0_LOAD, &gcfs, 2 * NICE_0_LOAD, &prop);
	assert_int_equal(se.load_avg, 299);
	assert_int_equal(cfs.load_avg, 883);
}

/* ---- shares sources ------------------------------------------------------------------------------- */

static void test_shares_sources(void **state)
{
	uint64_t s = 0;

	(void)state;
	/* cpu.weight w -> (w * 1024 + 50) / 100, then << 10. */
	assert_int_equal(cfsr_group_shares_from_v2(100, &s), 0);
	assert_int_equal(s, 1048576); /* 102450 / 100 = 1024 */
	assert_int_equal(cfsr_group_shares_from_v2(1, &s), 0);
	assert_int_equal(s, 10240); /* 1074 / 100 = 10 */
	assert_int_equal(cfsr_group_shares_from_v2(3, &s), 0);
	assert_int_equal(s, 31744); /* 3122 / 100 = 31: 30.72 rounds up */
	assert_int_equal(cfsr_group_shares_from_v2(7, &s), 0);
	assert_int_equal(s, 73728); /* 7218 / 100 = 72 */
	assert_int_equal(cfsr_group_shares_from_v2(50, &s), 0);
	assert_int_equal(s, 524288); /* 51250 / 100 = 512 */
	assert_int_equal(cfsr_group_shares_from_v2(10000, &s), 0);
	assert_int_equal(s, 104857600); /* 102400 */
	cfsr_error_set_hook(quiet, NULL);
	assert_int_equal(cfsr_group_shares_from_v2(0, &s), -1);
	assert_int_equal(cfsr_group_shares_from_v2(10001, &s), -1);
	cfsr_error_set_hook(NULL, NULL);

	/* cpu.shares: << 10, clamped to [2, 2^18] << 10. */
	assert_int_equal(cfsr_group_shares_from_v1(1024), 1048576);
	assert_int_equal(cfsr_group_shares_from_v1(1), 2048);
	assert_int_equal(cfsr_group_shares_from_v1(2), 2048);
	assert_int_equal(cfsr_group_shares_from_v1(300000), 268435456);

	/* Autogroup nice: the nice table, scaled. */
	assert_int_equal(cfsr_group_autogroup_shares(0), 1048576);
	assert_int_equal(cfsr_group_autogroup_shares(19), 15 * 1024);
	assert_int_equal(cfsr_group_autogroup_shares(-20), 88761 * 1024);
	assert_int_equal(cfsr_group_autogroup_shares(20), 0);

	/*
	 * cpu.idle 1: scale_load(WEIGHT_IDLEPRIO) = 3 << 10, what a v1 group's
	 * cpu.shares reads then (scale_load_down(tg->shares) = 3) gives back.
	 */
	assert_int_equal(cfsr_group_idle_shares(), 3072);
	assert_int_equal(cfsr_group_shares_from_v1(3), cfsr_group_idle_shares());
}

/* ---- kernel records ------------------------------------------------------------------------------- */

/* The recorded runs with kernel PELT records. */
static const char *const bpf_runs[] = { "cgroups-bpf", "periodic-bpf" };

/* Opens run @i's pelt.jsonl.gz, or returns NULL when it is absent. */
static struct cfsr_truth_reader *open_run(size_t i)
{
	const char *src = getenv("CFSR_SRCDIR");
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/../shared/traces/%s/pelt.jsonl.gz", src ? src : ".",
		 bpf_runs[i]);
	if (stat(path, &st)) {
		print_message("no '%s'\n", path);
		return NULL;
	}
	return cfsr_truth_open(path);
}

/* Adds counter structs made only of uint64_t members. */
static void add_counts(uint64_t *total, const uint64_t *n, size_t size)
{
	size_t i;

	for (i = 0; i < size / sizeof(uint64_t); i++)
		total[i] += n[i];
}

/*
 * Feeds every record of a group cfs_rq or group entity (level >= 1) of
 * each recorded run to @fn, and calls @done at the end of each run.
 * Return: the number of runs read.
 */
static size_t for_each_group_record(void (*fn)(const struct cfsr_pelt_rec *, void *),
				    void (*done)(const char *, void *), void *data)
{
	struct cfsr_truth_reader *r;
	struct cfsr_truth_item it;
	size_t run, runs = 0;
	int ret;

	for (run = 0; run < sizeof(bpf_runs) / sizeof(bpf_runs[0]); run++) {
		r = open_run(run);
		if (!r)
			continue;
		runs++;
		while ((ret = cfsr_truth_next(r, &it)) == 1)
			if (it.kind == CFSR_TRUTH_PELT && it.pelt.level >= 1 &&
			    (it.pelt.type == CFSR_PELT_CFS || it.pelt.type == CFSR_PELT_GSE))
				fn(&it.pelt, data);
		assert_int_equal(ret, 0);
		cfsr_truth_close(r);
		done(bpf_runs[run], data);
	}
	return runs;
}

struct obj_state {
	int64_t obj;
	bool have_cfs, have_gse;
	struct cfsr_pelt_rec cfs; /* last cfs record of the group's cfs_rq */
	int64_t gse_weight; /* weight of the last gse record */
	bool decided; /* that gse record's chain has a usable cfs record */
	struct cfsr_pelt_rec chain; /* the cfs record of that chain */
};

static struct obj_state *obj_find(struct obj_state **objs, size_t *nr, size_t *alloc, int64_t obj)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*objs)[i].obj == obj)
			return &(*objs)[i];
	assert_int_equal(cfsr_alloc_grow((void **)objs, *nr + 1, alloc, sizeof(**objs)), 0);
	/* Slots are reused from one run to the next. */
	memset(&(*objs)[*nr], 0, sizeof(**objs));
	(*objs)[*nr].obj = obj;
	return &(*objs)[(*nr)++];
}

struct record_counts {
	uint64_t gse, compared, exact, within1, empty, empty_exact, unchanged;
};

/*
 * The weight a group entity will show next: calc_group_shares() on the
 * state of its cfs_rq at the update_cfs_group() that ends the update
 * chain of the entity's current record, as the cfs_rq's record @c of that
 * chain shows it.  @c precedes update_tg_load_avg(), which may publish
 * this CPU's load, but a publication moves tg->load_avg and the
 * contribution by the same amount, and tg_weight subtracts one from the
 * other: it cannot change the result.  An empty cfs_rq keeps the weight
 * (v6.12+).
 */
static void compare_gse(struct record_counts *n, const struct obj_state *o,
			const struct cfsr_pelt_rec *g2)
{
	const struct cfsr_pelt_rec *c = &o->chain;
	uint64_t want;

	if (c->weight == 0) {
		want = (uint64_t)o->gse_weight;
		n->empty++;
	} else {
		want = cfsr_group_calc_shares(P, (uint64_t)c->tg_shares, (uint64_t)c->weight,
					      c->avg.load_avg, c->tg_load_avg,
					      (uint64_t)c->tg_load_avg_contrib);
	}
	n->compared++;
	n->exact += want == (uint64_t)g2->weight;
	if (c->weight == 0)
		n->empty_exact += want == (uint64_t)g2->weight;
	else if (want != (uint64_t)g2->weight && g2->weight == o->gse_weight)
		n->unchanged++;
	n->within1 += llabs((int64_t)want - g2->weight) * 100 <= g2->weight;
}

static void print_record_counts(const char *run, const struct record_counts *n)
{
	print_message("%s: group entity weight vs calc_group_shares(): %llu gse records, %llu "
		      "decided by one record pair (%llu of an empty cfs_rq, %llu of them exact); "
		      "exact %llu (%.2f %%), within 1 %% %llu (%.2f %%); of the others, %llu kept "
		      "the weight of the previous record\n",
		      run, (unsigned long long)n->gse, (unsigned long long)n->compared,
		      (unsigned long long)n->empty, (unsigned long long)n->empty_exact,
		      (unsigned long long)n->exact,
		      n->compared ? 100.0 * n->exact / n->compared : 0.0,
		      (unsigned long long)n->within1,
		      n->compared ? 100.0 * n->within1 / n->compared : 0.0,
		      (unsigned long long)n->unchanged);
}

/*
 * For consecutive group-entity records G1, G2 of one group on one CPU, the
 * weight G2 shows was set by the update_cfs_group() that ended G1's update
 * chain, unless an update that fired no record ran update_cfs_group()
 * again in between.  G1's chain starts with the update of the group's
 * cfs_rq, whose record C (within 100 us before G1, same CPU) gives
 * calc_group_shares() its inputs when nothing was enqueued or dequeued
 * between C and G1 (same nr_queued: C shows load.weight before the
 * enqueue/dequeue accounting, G1 after) or the cfs_rq is empty.
 * Differences remain where G1 came from a pick or put (set_next_entity()
 * and put_prev_entity() update the entity without update_cfs_group(), so
 * G2 keeps G1's weight), where an update without a record (an enqueue or
 * dequeue within the same PELT period) recomputed the weight between G1
 * and G2, or where another CPU published into tg->load_avg in between.
 */
struct records_ctx {
	struct obj_state *objs;
	size_t nr, alloc;
	struct record_counts n, total;
};

static void records_one(const struct cfsr_pelt_rec *p, void *data)
{
	struct records_ctx *x = data;
	struct obj_state *o = obj_find(&x->objs, &x->nr, &x->alloc, p->obj);

	if (p->type == CFSR_PELT_CFS) {
		o->cfs = *p;
		o->cfs.tg = o->cfs.parent_tg = o->cfs.type_name = NULL;
		o->have_cfs = true;
		return;
	}
	x->n.gse++;
	if (o->have_gse && o->decided)
		compare_gse(&x->n, o, p);
	o->decided = o->have_cfs && o->cfs.rq_cpu == p->rq_cpu && p->ts - o->cfs.ts < 100000 &&
		     (o->cfs.nr_queued == p->nr_queued || o->cfs.weight == 0);
	if (o->decided)
		o->chain = o->cfs;
	/* A later record of the same chain (propagation) is not a new chain. */
	o->have_cfs = false;
	o->have_gse = true;
	o->gse_weight = p->weight;
}

static void records_done(const char *run, void *data)
{
	struct records_ctx *x = data;

	print_record_counts(run, &x->n);
	add_counts((uint64_t *)&x->total, (const uint64_t *)&x->n, sizeof(x->n));
	memset(&x->n, 0, sizeof(x->n));
	x->nr = 0;
}

static void test_kernel_records(void **state)
{
	struct records_ctx x = { 0 };
	size_t runs;

	(void)state;
	runs = for_each_group_record(records_one, records_done, &x);
	free(x.objs);
	if (!runs) {
		print_message("skipped: no recorded runs with kernel PELT records\n");
		skip();
	}
	print_record_counts("all", &x.total);
	assert_true(x.total.compared >= 100);
	assert_true(x.total.exact * 100 >= x.total.compared * 90);
}

struct prop_chain {
	int64_t obj;
	bool open; /* a cfs record with propagate = 1, waiting for its gse records */
	struct cfsr_pelt_rec c; /* that record */
	int nr_gse;
	struct cfsr_pelt_rec ga; /* the first gse record after it: aged, not yet propagated */
};

struct prop_counts {
	uint64_t chains, compared, exact, util, runnable, load, skipped_weight;
};

/*
 * One propagation checked against the kernel: @c is the group cfs_rq's
 * record with propagate = 1 (its prop_runnable_sum pending), @ga the group
 * entity's record after its aging in the same chain, @gp its record after
 * propagate_entity_load_avg().  The parent's divider is the entity's (they
 * share a window); the group cfs_rq's load.weight at the propagation is
 * @c's unless a dequeue emptied it in between (@gp's nr_queued 0).
 */
static void check_propagation(struct prop_counts *n, const struct cfsr_pelt_rec *c,
			      const struct cfsr_pelt_rec *ga, const struct cfsr_pelt_rec *gp)
{
	struct cfsr_sched_avg parent = { 0 }, se = ga->avg;
	int64_t prop = c->prop_runnable_sum;
	uint64_t gcfs_weight;
	bool u, rn, l;

	if (gp->nr_queued == c->nr_queued) {
		gcfs_weight = (uint64_t)c->weight;
	} else if (gp->nr_queued == 0) {
		gcfs_weight = 0;
	} else {
		n->skipped_weight++;
		return;
	}
	parent.period_contrib = ga->avg.period_contrib;
	cfsr_group_propagate(P, &parent, &se, (uint64_t)ga->weight, &c->avg, gcfs_weight, &prop);

	u = se.util_avg == gp->avg.util_avg && se.util_sum == gp->avg.util_sum;
	rn = se.runnable_avg == gp->avg.runnable_avg && se.runnable_sum == gp->avg.runnable_sum;
	l = se.load_avg == gp->avg.load_avg && se.load_sum == gp->avg.load_sum;
	n->compared++;
	n->util += u;
	n->runnable += rn;
	n->load += l;
	n->exact += u && rn && l;
}

static void print_prop_counts(const char *run, const struct prop_counts *n)
{
	print_message("%s: propagation vs the kernel: %llu pending propagations recorded, %llu "
		      "with the entity before and after (%llu skipped: cfs_rq weight unknown); "
		      "all exact %llu of %llu (%.2f %%): util %llu, runnable %llu, load %llu\n",
		      run, (unsigned long long)n->chains,
		      (unsigned long long)(n->compared + n->skipped_weight),
		      (unsigned long long)n->skipped_weight, (unsigned long long)n->exact,
		      (unsigned long long)n->compared,
		      n->compared ? 100.0 * n->exact / n->compared : 0.0,
		      (unsigned long long)n->util, (unsigned long long)n->runnable,
		      (unsigned long long)n->load);
}

/*
 * update_tg_cfs_util/runnable/load() against the kernel's records where a
 * chain shows the state before and after a propagation.
 */
struct prop_ctx {
	struct prop_chain *ch;
	size_t nr, alloc;
	struct prop_counts n, total;
};

static void prop_one(const struct cfsr_pelt_rec *p, void *data)
{
	struct prop_ctx *x = data;
	struct prop_chain *o = NULL;
	size_t i;

	for (i = 0; i < x->nr; i++)
		if (x->ch[i].obj == p->obj)
			o = &x->ch[i];
	if (!o) {
		assert_int_equal(CFSR_ALLOC_GROW(x->ch, x->nr + 1, x->alloc), 0);
		o = &x->ch[x->nr++];
		memset(o, 0, sizeof(*o));
		o->obj = p->obj;
	}
	if (p->type == CFSR_PELT_CFS) {
		o->open = p->propagate == 1;
		o->c = *p;
		o->c.tg = o->c.parent_tg = o->c.type_name = NULL;
		o->nr_gse = 0;
		x->n.chains += o->open;
		return;
	}
	if (!o->open || p->rq_cpu != o->c.rq_cpu || p->ts - o->c.ts > 100000) {
		o->open = false;
		return;
	}
	if (++o->nr_gse == 1) {
		o->ga = *p;
		o->ga.tg = o->ga.parent_tg = o->ga.type_name = NULL;
	} else {
		check_propagation(&x->n, &o->c, &o->ga, p);
		o->open = false;
	}
}

static void prop_done(const char *run, void *data)
{
	struct prop_ctx *x = data;

	print_prop_counts(run, &x->n);
	add_counts((uint64_t *)&x->total, (const uint64_t *)&x->n, sizeof(x->n));
	memset(&x->n, 0, sizeof(x->n));
	x->nr = 0;
}

static void test_kernel_propagation(void **state)
{
	struct prop_ctx x = { 0 };
	size_t runs;

	(void)state;
	runs = for_each_group_record(prop_one, prop_done, &x);
	free(x.ch);
	if (!runs) {
		print_message("skipped: no recorded runs with kernel PELT records\n");
		skip();
	}
	print_prop_counts("all", &x.total);
	assert_true(x.total.compared >= 10);
	assert_true(x.total.exact * 100 >= x.total.compared * 90);
}

struct pub_obj {
	int64_t obj;
	bool have;
	struct cfsr_pelt_rec prev; /* the cfs_rq's previous record */
	uint64_t last_pub; /* rq clock of the record before the last observed publication */
};

struct pub_counts {
	uint64_t pairs, exact, exact_no_limit;
};

struct pub_ctx {
	struct pub_obj *objs;
	size_t nr, alloc;
	struct pub_counts n, total;
};

static void print_pub_counts(const char *run, const struct pub_counts *n)
{
	print_message("%s: tg_load_avg_contrib of the next cfs_rq record: %llu pairs, predicted "
		      "%llu (%.2f %%); without the 1 ms rate limit %llu (%.2f %%)\n",
		      run, (unsigned long long)n->pairs, (unsigned long long)n->exact,
		      n->pairs ? 100.0 * n->exact / n->pairs : 0.0,
		      (unsigned long long)n->exact_no_limit,
		      n->pairs ? 100.0 * n->exact_no_limit / n->pairs : 0.0);
}

/*
 * A group cfs_rq record R1 is followed, in the update that fired it, by
 * update_tg_load_avg(); the next record R2 shows the contribution that
 * left behind.  Predicted with cfsr_group_publish_load() from R1's
 * load_avg and contribution, the time being R1's rq clock (the kernel
 * reads sched_clock_cpu() a little later) and the last publication the
 * last record pair whose contribution changed.
 */
static void pub_one(const struct cfsr_pelt_rec *p, void *data)
{
	static const struct cfsr_group_params no_limit = { .name = "no rate limit" };
	struct pub_ctx *x = data;
	struct pub_obj *o = NULL;
	size_t i;

	if (p->type != CFSR_PELT_CFS)
		return;
	for (i = 0; i < x->nr; i++)
		if (x->objs[i].obj == p->obj)
			o = &x->objs[i];
	if (!o) {
		assert_int_equal(CFSR_ALLOC_GROW(x->objs, x->nr + 1, x->alloc), 0);
		o = &x->objs[x->nr++];
		memset(o, 0, sizeof(*o));
		o->obj = p->obj;
	}
	if (o->have) {
		const struct cfsr_pelt_rec *r1 = &o->prev;
		int64_t tg = r1->tg_load_avg;
		uint64_t contrib = (uint64_t)r1->tg_load_avg_contrib, last = o->last_pub;

		cfsr_group_publish_load(G, &tg, &contrib, &last, r1->avg.load_avg,
					(uint64_t)r1->clock);
		x->n.pairs++;
		x->n.exact += contrib == (uint64_t)p->tg_load_avg_contrib;
		contrib = (uint64_t)r1->tg_load_avg_contrib;
		cfsr_group_publish_load(&no_limit, &tg, &contrib, &last, r1->avg.load_avg,
					(uint64_t)r1->clock);
		x->n.exact_no_limit += contrib == (uint64_t)p->tg_load_avg_contrib;
		if (p->tg_load_avg_contrib != r1->tg_load_avg_contrib)
			o->last_pub = (uint64_t)r1->clock;
	}
	o->prev = *p;
	o->prev.tg = o->prev.parent_tg = o->prev.type_name = NULL;
	o->have = true;
}

static void pub_done(const char *run, void *data)
{
	struct pub_ctx *x = data;

	print_pub_counts(run, &x->n);
	add_counts((uint64_t *)&x->total, (const uint64_t *)&x->n, sizeof(x->n));
	memset(&x->n, 0, sizeof(x->n));
	x->nr = 0;
}

/*
 * update_tg_load_avg()'s 1/64 threshold and 1 ms rate limit against the
 * contributions the kernel's records show.  The misses include updates
 * without UPDATE_TG (put_prev_entity(), a delayed dequeue or requeue),
 * which never publish.
 */
static void test_kernel_publication(void **state)
{
	struct pub_ctx x = { 0 };
	size_t runs;

	(void)state;
	runs = for_each_group_record(pub_one, pub_done, &x);
	free(x.objs);
	if (!runs) {
		print_message("skipped: no recorded runs with kernel PELT records\n");
		skip();
	}
	print_pub_counts("all", &x.total);
	assert_true(x.total.pairs >= 100);
	assert_true(x.total.exact * 100 >= x.total.pairs * 90);
	/* The rate limit is part of v6.18: without it fewer contributions come out right. */
	assert_true(x.total.exact > x.total.exact_no_limit);
}

/* Release to behaviour, at the boundaries named in lib/group.h. */
static void test_params_for(void **state)
{
	(void)state;
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 18, 44)), &cfsr_group_params_v6_12);
	/* 66951e4860d3 (an empty group keeps its weight): v6.13 and stable 6.12.11 */
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 13, 0)), &cfsr_group_params_v6_12);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 12, 11)), &cfsr_group_params_v6_12);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 12, 10)), &cfsr_group_params_v6_12_0);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 12, 0)), &cfsr_group_params_v6_12_0);
	assert_false(cfsr_group_params_v6_12_0.keep_empty_weight);
	assert_true(cfsr_group_params_v6_12_0.tg_load_ratelimit &&
		    cfsr_group_params_v6_12_0.reweight_v_fixed);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 11, 0)), &cfsr_group_params_v6_8_9);
	/* the reweight_eevdf() fixes of v6.9 in stable 6.8.9 and 6.6.30 */
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 9, 0)), &cfsr_group_params_v6_8_9);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 8, 9)), &cfsr_group_params_v6_8_9);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 8, 8)), &cfsr_group_params_v6_7);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 7, 0)), &cfsr_group_params_v6_7);
	assert_true(cfsr_group_params_v6_8_9.reweight_v_fixed &&
		    cfsr_group_params_v6_12.reweight_v_fixed);
	assert_false(cfsr_group_params_v6_7.reweight_v_fixed);
	assert_true(cfsr_group_params_v6_8_9.tg_load_ratelimit &&
		    !cfsr_group_params_v6_8_9.keep_empty_weight);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 6, 999)), &cfsr_group_params_v6_6_30);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 6, 30)), &cfsr_group_params_v6_6_30);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 6, 29)), &cfsr_group_params_v6_6_4);
	assert_true(cfsr_group_params_v6_6_30.reweight_v_fixed &&
		    cfsr_group_params_v6_6_30.reweight_eevdf);
	assert_false(cfsr_group_params_v6_6_30.tg_load_ratelimit ||
		     cfsr_group_params_v6_6_30.reweight_unchanged);
	assert_false(cfsr_group_params_v6_6_4.reweight_v_fixed);
	/* eab03c23c2a1 in stable 6.6.4 */
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 6, 4)), &cfsr_group_params_v6_6_4);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(6, 6, 3)), &cfsr_group_params_v6_6);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(5, 17, 0)), &cfsr_group_params_v6_6);
	assert_ptr_equal(cfsr_group_params_for(CFSR_KVER(5, 7, 0)), &cfsr_group_params_v6_6);
	assert_null(cfsr_group_params_for(CFSR_KVER(5, 6, 999)));
	/* 1528c661c24b (rate limit) and eab03c23c2a1 (skip equal weight): v6.7 */
	assert_false(cfsr_group_params_v6_6.tg_load_ratelimit);
	assert_true(cfsr_group_params_v6_7.tg_load_ratelimit);
	assert_true(cfsr_group_params_v6_6.reweight_unchanged);
	assert_false(cfsr_group_params_v6_7.reweight_unchanged);
	assert_false(cfsr_group_params_v6_6_4.reweight_unchanged);
	assert_false(cfsr_group_params_v6_12.reweight_unchanged);
	assert_false(cfsr_group_params_v6_6.reweight_eevdf);
	assert_true(cfsr_group_params_v6_6_4.reweight_eevdf &&
		    cfsr_group_params_v6_7.reweight_eevdf);
	/* 6.6.4-6.6.y: eab03c23c2a1 keyed, the rate limit (1528c661c24b) not */
	assert_false(cfsr_group_params_v6_6_4.tg_load_ratelimit);
	/* Only v6.12+ keep an empty group's weight. */
	assert_false(cfsr_group_params_v6_6.keep_empty_weight);
	assert_false(cfsr_group_params_v6_7.keep_empty_weight);
	assert_true(cfsr_group_params_v6_12.keep_empty_weight);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calc_shares),
		cmocka_unit_test(test_publish_threshold),
		cmocka_unit_test(test_propagate_attach),
		cmocka_unit_test(test_propagate_detach),
		cmocka_unit_test(test_propagate_v5),
		cmocka_unit_test(test_propagate_unchanged_load),
		cmocka_unit_test(test_shares_sources),
		cmocka_unit_test(test_kernel_records),
		cmocka_unit_test(test_kernel_propagation),
		cmocka_unit_test(test_kernel_publication),
		cmocka_unit_test(test_params_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

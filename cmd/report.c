// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay report [options] TRACE: the default command.
 *
 * One pass over the trace feeds three consumers in lib/: the placement
 * audit (which judges an event against the state before it), the
 * idle-while-waiting comparator and the per-CPU load (the replay engine,
 * reached only through lib/cpuload.h).  The report is a summary that fits
 * a 100-column terminal, or with --json one object in the documented
 * schema (docs/cfsreplay-output.5.txt).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "clockfeed.h"
#include "cmds.h"
#include "comparators.h"
#include "error.h"
#include "formats.h"
#include "profile.h"
#include "progress.h"
#include "record.h"
#include "schedfeat.h"
#include "truthfile.h"

#define REPORT_FORMAT_VERSION 8

static const char *const report_usage[] = {
	"usage: cfsreplay report [--json] [--top N] [--cpu CPU] [--pid PID]",
	"                        [--time START,END] [--kernel RELEASE] [--clock FILE]",
	"                        [--pelt FILE] [--perf-cgroups cpu] TRACE",
	"   or: cfsreplay TRACE",
	"",
	"Summarise where the kernel left CPUs idle while tasks waited, and how its",
	"placements compare with the profile's placement rule: trace summary,",
	"per-CPU observed busy time and cfs_rq load, idle-while-waiting totals and",
	"episodes, placement agreement, the pick check (the fair pick against the",
	"task each switch ran) and the largest divergences.",
	"",
	"    --json              print one JSON object (see docs/cfsreplay-output.5.txt)",
	"    --top N             episodes and divergences listed (default 10)",
	"    --cpu CPU           per-CPU rows, episodes and decisions involving CPU",
	"    --pid PID           episodes and decisions involving task PID",
	"    --time START,END    count only trace times in [START, END), in seconds",
	"                        as trace-cmd prints them; either may be empty",
	"    --kernel RELEASE    model profile for RELEASE instead of the trace's",
	"    --clock FILE        take the run queues' clock readings and the tasks' groups",
	"                        from FILE (truth.jsonl or pelt.jsonl(.gz) of the same run)",
	"                        instead of a recorded trace's snapshots; 'none': neither",
	"    --pelt FILE         the kernel's PELT records of the same run (pelt.jsonl(.gz)):",
	"                        lasting imbalance also on the kernel's per-CPU loads;",
	"                        default: TRACE's .pelt.jsonl.gz beside it, if any; 'none'",
	"    --perf-cgroups cpu  take a perf.data's cgroups (--all-cgroups) as the cpu",
	"                        controller's task groups (shares assumed 1024)",
	"    -h, --help          show this help",
	"",
	"Exit status: 0 success, 2 error (unreadable or invalid trace, usage).",
	NULL,
};

struct report_opts {
	bool json;
	int top;
	int cpu;
	int pid;
	uint64_t start;
	uint64_t end;
	const char *kernel;
};

struct report {
	struct cfsr_trace *t;
	const struct cfsr_profile *prof;
	/* what a --kernel without sublevel was taken as (cfsr_profile_series_note()), or NULL */
	const char *series;
	char series_buf[96];
	struct cfsr_comparators c;
	/* lock-step against the kernel records beside the trace, if any */
	bool have_fid;
	/* records lie beside it but could not be used (the error was printed) */
	bool fid_failed;
	struct cfsr_fidelity fid;
	/* the engines took the clock readings and groups of the trace's snapshots or of --clock */
	bool own_clock;
	/* --clock FILE, or NULL */
	const char *clock;
	/* the kernel's PELT records whose per-CPU loads lasting imbalance also takes, or NULL */
	const char *pelt;
	/* @pelt lies beside the trace (not given): a reading error leaves the rest standing */
	bool pelt_beside;
	/* it could not be read (the error was printed) */
	bool pelt_failed;
	struct cfsr_clock_map pelt_map;
	struct cfsr_imb_agree agree;
	/* --perf-cgroups=cpu: a perf.data's cgroups taken as the task groups */
	bool perf_groups;
	struct cfsr_perf_groups pg;
};

static void print_usage(void)
{
	const char *const *u;

	for (u = report_usage; *u; u++)
		puts(*u);
}

/* "SECONDS[.FRACTION]" into ns, exactly; empty means @dflt. */
static int parse_seconds(const char *s, size_t len, uint64_t dflt, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 100000000;
	size_t i = 0;

	if (!len) {
		*ns = dflt;
		return 0;
	}
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > (UINT64_MAX / 1000000000 - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			frac += (uint64_t)(s[i] - '0') * scale;
			scale /= 10;
		}
	}
	if (i != len || (i == 1 && s[0] == '.'))
		return -1;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static int parse_time(const char *arg, struct report_opts *o)
{
	const char *comma = strchr(arg, ',');

	if (!comma || parse_seconds(arg, (size_t)(comma - arg), 0, &o->start) < 0 ||
	    parse_seconds(comma + 1, strlen(comma + 1), UINT64_MAX, &o->end) < 0 ||
	    o->end <= o->start)
		return cfsr_error("report: bad --time '%s': want START,END in seconds, START < END",
				  arg);
	return 0;
}

static int parse_int(const char *opt, const char *arg, int min, int *val)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < min || v > 1 << 22)
		return cfsr_error("report: bad %s '%s'", opt, arg);
	*val = (int)v;
	return 0;
}

/* cfsr_task_groups() callback: the task's group, in the per-CPU load's engine */
static int set_group(void *data, int tid, const char *group)
{
	struct cfsr_comparators *c = data;

	cfsr_pickcheck_groups_known(c->pk);
	return cfsr_cpuload_set_group(c->cl, tid, group);
}

/* A group's tg->shares from the recorder's metadata, in the per-CPU load's engine. */
static int set_shares(void *data, const char *path, uint64_t shares)
{
	struct cfsr_comparators *c = data;

	return cfsr_cpuload_set_shares(c->cl, path, shares);
}

/* cfsr_task_fork_groups() callback */
static int set_fork_group(void *data, int tid, const char *group)
{
	return cfsr_replay_task_set_fork_group(data, tid, group);
}

/* cfsr_task_fork_groups() callback */
static int name_cpu_group(void *data, const char *group)
{
	return cfsr_replay_name_cpu_group(data, group);
}

int cfsr_follow_attaches(struct cfsr_replay *r, const struct cfsr_trace *t, const char *truth)
{
	int i;

	/* a file that declares its events without cgroup_attach_task: the given groups stand */
	for (i = 0; i < t->info.nr_types && strcmp(t->info.types[i].name, "cgroup_attach_task");
	     i++)
		;
	if (t->info.nr_types && i == t->info.nr_types)
		return 0;
	if (truth && cfsr_task_fork_groups(truth, set_fork_group, name_cpu_group, r) < 0)
		return -1;
	cfsr_replay_follow_attaches(r, cfsr_meta_cpu_hierarchy(t));
	return 0;
}

int cfsr_comparators_own_clock(struct cfsr_comparators *c, const struct cfsr_trace *t,
			       const char *given, struct cfsr_own_clock *oc)
{
	const char *src = cfsr_clock_source(t, given);

	memset(oc, 0, sizeof(*oc));
	if (cfsr_meta_group_shares(t, set_shares, c) < 0 ||
	    cfsr_meta_idle(t, cfsr_replay_group_idle_fn, cfsr_replay_task_idle_fn,
			   cfsr_cpuload_engine(c->cl)) < 0)
		return -1;
	/* the groups markers make (lib/cpuload.c) are followed at their attaches too */
	if (!src)
		return cfsr_follow_attaches(cfsr_cpuload_engine(c->cl), t, NULL);
	oc->feed = cfsr_clock_feed_open(src);
	if (!oc->feed)
		return -1;
	cfsr_cpuload_expect_clock(c->cl);
	if (cfsr_task_groups(src, set_group, set_shares, c) < 0 ||
	    cfsr_follow_attaches(cfsr_cpuload_engine(c->cl), t, src) < 0) {
		cfsr_clock_feed_close(oc->feed);
		oc->feed = NULL;
		return -1;
	}
	oc->have = cfsr_clock_feed_next(oc->feed, &oc->rd);
	return oc->have < 0 ? -1 : 1;
}

int cfsr_comparators_clock_until(struct cfsr_comparators *c, struct cfsr_own_clock *oc, uint64_t ts)
{
	struct cfsr_replay *r = cfsr_cpuload_engine(c->cl);
	uint64_t clock;

	if (!oc->feed)
		return 0;
	for (; oc->have > 0 && oc->rd.ts < ts; oc->have = cfsr_clock_feed_next(oc->feed, &oc->rd)) {
		clock = cfsr_replay_reading_clock(r, oc->rd.cpu, oc->rd.clock_task,
						  oc->rd.clock_pelt, oc->rd.lost_idle_time, true);
		/* a snapshot's reading holds at its rq's clock update (formats/clockfeed.c) */
		if (oc->rd.cpu >= 0 && oc->rd.at_update)
			cfsr_replay_clock_update(r, oc->rd.cpu, oc->rd.ts, clock, oc->rd.until);
		else if (oc->rd.cpu >= 0)
			cfsr_cpuload_clock(c->cl, oc->rd.cpu, oc->rd.ts, clock);
		if (cfsr_reading_structure(r, &oc->rd) < 0)
			return -1;
	}
	return oc->have < 0 ? -1 : 0;
}

/* The kernel's PELT records, read along the trace. */
struct kernel_recs {
	struct cfsr_truth_reader *rd;
	struct cfsr_truth_item it;
	int have;
};

/* A record of a CPU's root cfs_rq with the signal kernel loads age. */
static bool root_cfs_record(const struct cfsr_pelt_rec *p)
{
	const unsigned int need = CFSR_AVG_LAST_UPDATE_TIME | CFSR_AVG_LOAD_SUM |
				  CFSR_AVG_PERIOD_CONTRIB | CFSR_AVG_LOAD_AVG;

	return p->type == CFSR_PELT_CFS && (p->root == 1 || p->level == 0) && p->rq_cpu >= 0 &&
	       p->ts >= 0 && (p->clock_pelt >= 0 || p->clock_task >= 0) &&
	       (p->avg_fields & need) == need;
}

/* The next root cfs_rq record, its time put on the trace clock. */
static int next_root_record(const struct report *r, struct kernel_recs *k)
{
	while ((k->have = cfsr_truth_next(k->rd, &k->it)) > 0) {
		if (k->it.kind != CFSR_TRUTH_PELT || !root_cfs_record(&k->it.pelt))
			continue;
		k->it.pelt.ts =
			cfsr_clock_map_pelt_ts(&r->pelt_map, k->it.pelt.ts, k->it.pelt.ktime);
		if (k->it.pelt.ts >= 0)
			break;
	}
	return k->have;
}

/* A reading error: fatal for records given, else the kernel loads are dropped. */
static int kernel_failed(struct report *r, struct kernel_recs *k)
{
	cfsr_truth_close(k->rd);
	k->rd = NULL;
	r->pelt_failed = true;
	return r->pelt_beside ? 0 : -1;
}

/* Give the comparators the records at or before trace time @ts. */
static int kernel_until(struct report *r, struct kernel_recs *k, uint64_t ts)
{
	const struct cfsr_pelt_rec *p = &k->it.pelt;

	if (!k->rd)
		return 0;
	for (; k->have > 0 && (uint64_t)p->ts <= ts; next_root_record(r, k))
		cfsr_kload_record(r->c.kl, (int)p->rq_cpu, (uint64_t)p->ts,
				  (uint64_t)(p->clock_pelt >= 0 ?
						     p->clock_pelt - p->lost_idle_time :
						     p->clock_task),
				  &p->avg);
	return k->have < 0 ? kernel_failed(r, k) : 0;
}

static int open_kernel_recs(struct report *r, struct kernel_recs *k)
{
	memset(k, 0, sizeof(*k));
	if (!r->pelt)
		return 0;
	if (cfsr_clock_map_find(r->pelt, r->t->info.clock, &r->pelt_map) < 0)
		return kernel_failed(r, k);
	k->rd = cfsr_truth_open(r->pelt);
	if (!k->rd)
		return kernel_failed(r, k);
	if (cfsr_truth_format(k->rd) != CFSR_TRUTH_FMT_PELT) {
		cfsr_error("cannot use '%s': not a pelt.jsonl file of kernel PELT records",
			   r->pelt);
		return kernel_failed(r, k);
	}
	return next_root_record(r, k) < 0 ? kernel_failed(r, k) : 0;
}

static int run(struct report *r)
{
	struct cfsr_progress progress;
	struct cfsr_own_clock oc;
	struct kernel_recs kr;
	struct cfsr_event ev;
	int ret;

	ret = cfsr_comparators_own_clock(&r->c, r->t, r->clock, &oc);
	if (ret < 0)
		return -1;
	r->own_clock = ret > 0;
	if (r->perf_groups &&
	    cfsr_perf_groups_begin(&r->pg, &(struct cfsr_replay *){ cfsr_cpuload_engine(r->c.cl) },
				   1, "report", r->t) < 0) {
		cfsr_clock_feed_close(oc.feed);
		return -1;
	}
	if (r->perf_groups)
		cfsr_pickcheck_groups_perf(r->c.pk);
	if (open_kernel_recs(r, &kr) < 0) {
		cfsr_truth_close(kr.rd);
		cfsr_clock_feed_close(oc.feed);
		return -1;
	}
	cfsr_progress_init(&progress, r->t->path);
	while ((ret = cfsr_trace_next(r->t, &ev)) > 0) {
		if (cfsr_comparators_clock_until(&r->c, &oc, ev.ts) < 0 ||
		    kernel_until(r, &kr, ev.ts) < 0 ||
		    cfsr_perf_groups_event(&r->pg, r->t, &ev) < 0 ||
		    cfsr_comparators_event(&r->c, &ev) < 0) {
			ret = -1;
			break;
		}
		cfsr_progress_update(&progress, r->t->stats.records, ev.ts - r->t->stats.first_ts);
	}
	cfsr_progress_done(&progress);
	cfsr_comparators_finish(&r->c);
	cfsr_clock_feed_close(oc.feed);
	cfsr_truth_close(kr.rd);
	if (ret >= 0 && cfsr_comparators_imb_agree(&r->c, &r->agree) < 0)
		ret = -1;
	return ret;
}

/* ---- text ---------------------------------------------------------------- */

static void print_ts(uint64_t ts)
{
	printf("%" PRIu64 ".%06" PRIu64, ts / 1000000000, ts % 1000000000 / 1000);
}

static void print_ms(uint64_t ns)
{
	printf("%10.3f ms", (double)ns / 1e6);
}

/* The episode's waiting tasks, in at most @width columns. */
static void print_tasks(const struct report *r, const struct cfsr_iww_episode *ep, int width)
{
	char item[64];
	int k, len, used = 0;

	for (k = 0; k < ep->nr_pids; k++) {
		const char *comm = cfsr_iww_comm(r->c.iw, ep->pids[k]);
		enum cfsr_affinity a = cfsr_iww_affinity(r->c.iw, ep->pids[k]);

		len = snprintf(item, sizeof(item), "%s%s:%d%s", k ? " " : "", comm[0] ? comm : "?",
			       ep->pids[k],
			       a == CFSR_AFF_ASSUMED ? "" :
			       a == CFSR_AFF_CHANGED ? "(aff?)" :
						       "(pinned)");
		if (used + len > width - 8) {
			printf(" +%d", ep->nr_pids - k);
			return;
		}
		fputs(item, stdout);
		used += len;
	}
}

static const char *episode_class(const struct cfsr_iww_episode *ep)
{
	if (ep->allowed_cpu_ns)
		return "allowed";
	return ep->unknown_affinity_cpu_ns ? "aff-unknown" : "affinity-bound";
}

static void text_iww(struct report *r, const struct report_opts *o)
{
	const struct cfsr_iww_totals *tt = cfsr_iww_totals(r->c.iw);
	const struct cfsr_iww_episode *eps;
	int i, n;

	printf("\nidle while waiting (CPU idle while another has tasks waiting)\n");
	printf("  balance interval %.3f ms%s\n", (double)r->c.balance_ns / 1e6,
	       r->c.hz_assumed ? " (HZ not in the trace: 250 assumed)" : "");
	printf("  wall            ");
	print_ms(tt->wall_ns);
	printf("   some CPU idle while another is overloaded\n  cpu             ");
	print_ms(tt->cpu_ns);
	printf("   integral of min(#idle, #overloaded)\n  allowed         ");
	print_ms(tt->allowed_cpu_ns);
	printf("   ... a waiting task may run on the idle CPU\n  affinity-bound  ");
	print_ms(tt->affinity_bound_cpu_ns);
	printf("   ... affinity forbids it (not a kernel fault)\n  affinity unknown");
	print_ms(tt->unknown_affinity_cpu_ns);
	printf("   ... the task's mask changed, the trace lacks it\n");
	printf("  episodes        %" PRIu64 ": %" PRIu64 " long (%.3f ms), %" PRIu64
	       " transient (%.3f ms); longest %.3f ms\n",
	       tt->episodes, tt->long_episodes, (double)tt->long_ns / 1e6, tt->transient_episodes,
	       (double)tt->transient_ns / 1e6, (double)tt->longest_ns / 1e6);
	n = cfsr_iww_top(r->c.iw, &eps);
	if (!n)
		return;
	printf("  longest episodes%s:\n", o->cpu >= 0 || o->pid >= 0 ? " (filtered)" : "");
	printf("    %-12s %10s %4s %4s  %-14s %s\n", "start", "ms", "idle", "over", "class",
	       "waiting tasks");
	for (i = 0; i < n; i++) {
		printf("    ");
		print_ts(eps[i].start);
		printf(" %10.3f %4d %4d  %-14s ", (double)(eps[i].end - eps[i].start) / 1e6,
		       eps[i].idle_cpu, eps[i].busy_cpu, episode_class(&eps[i]));
		print_tasks(r, &eps[i], eps[i].open ? 30 : 41);
		printf("%s\n", eps[i].open ? " (open at end)" : "");
	}
}

/* Total lasting time over the classes. */
static uint64_t imb_lasting_ns(const struct cfsr_imb_totals *it)
{
	uint64_t ns = 0;
	int k;

	for (k = 0; k < CFSR_IMB_NR_CLASSES; k++)
		ns += it->lasting_ns[k];
	return ns;
}

/* The longest windows; @other names the source of their other loads, or NULL. */
static const char *group_text(const struct report *r, const struct cfsr_imb_window *w, int id,
			      char *buf, size_t size);

static void text_windows(const struct report *r, const struct cfsr_imb_window *w, int n,
			 const char *other)
{
	char pair[32], loads[32], oloads[48], nrs[16], gb[16], gl[16], mig[48];
	int i;

	if (!n)
		return;
	printf("  longest windows:\n");
	printf("    %-12s %10s  %-6s %-11s %-5s %-14s %s", "start", "ms", "B->L", "load B/L",
	       "tasks", "class", "waiting on B (load)");
	if (w[0].group)
		printf("  imbalance");
	printf(other ? "  %s B/L\n" : "\n", other);
	for (i = 0; i < n; i++) {
		if (w[i].group)
			snprintf(pair, sizeof(pair), "%s->%s",
				 group_text(r, &w[i], w[i].busiest, gb, sizeof(gb)),
				 group_text(r, &w[i], w[i].local, gl, sizeof(gl)));
		else
			snprintf(pair, sizeof(pair), "%d->%d", w[i].busiest, w[i].local);
		snprintf(loads, sizeof(loads), "%" PRIu64 "/%" PRIu64, w[i].busiest_load,
			 w[i].local_load);
		snprintf(nrs, sizeof(nrs), "%d/%d", w[i].busiest_nr, w[i].local_nr);
		oloads[0] = 0;
		if (other)
			snprintf(oloads, sizeof(oloads), "  %" PRIu64 "/%" PRIu64,
				 w[i].other_busiest_load, w[i].other_local_load);
		/* between groups: what calculate_imbalance() would move, and how much */
		mig[0] = 0;
		if (w[i].group)
			snprintf(mig, sizeof(mig), "  %s %" PRIu64,
				 cfsr_migration_type_name(w[i].migration), w[i].imbalance);
		printf("    ");
		print_ts(w[i].start);
		printf(" %10.3f  %-6s %-11s %-5s %-14s %.16s:%d (%" PRIu64 ")%s%s\n",
		       (double)(w[i].end - w[i].start) / 1e6, pair, loads, nrs,
		       cfsr_imb_class_name(w[i].class), w[i].comm[0] ? w[i].comm : "?", w[i].task,
		       w[i].task_load, mig, oloads);
	}
}

/* The CPUs of the LLC whose lowest CPU is @first, as a CPU list ("0-1,4"). */
static const char *llc_span_text(const struct cfsr_topo *t, int first, char *buf, size_t size)
{
	size_t len = 0;
	int c = 0, end;

	buf[0] = '\0';
	while (c < t->nr_cpus) {
		if (t->llc[c] != first) {
			c++;
			continue;
		}
		for (end = c; end + 1 < t->nr_cpus && t->llc[end + 1] == first; end++)
			;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, end > c ? "%s%d-%d" : "%s%d",
						len ? "," : "", c, end);
		c = end + 1;
	}
	return buf;
}

/* The lasting windows per domain level, when the topology has several. */
/*
 * The values of the domains the recorder read, where the rules take them
 * instead of sd_init()'s defaults.
 */
static void text_domains(const struct report *r)
{
	const struct cfsr_topo_level *lv;
	int i;

	if (!r->c.topo.domains_recorded) {
		printf("  domains: sd_init()'s defaults (no recorded scheduling domains)\n");
		return;
	}
	for (i = 0; i < r->c.topo.nr_levels; i++) {
		lv = &r->c.topo.levels[i];
		printf("  domains: %s %s: imbalance_pct %u, busy interval %.3f ms, flags%s%s%s%s\n",
		       lv->name, lv->recorded ? "recorded" : "defaults", lv->imbalance_pct,
		       (double)cfsr_topo_busy_interval_ns(&r->c.topo, i, 0, r->c.hz) / 1e6,
		       lv->flags & CFSR_SD_BALANCE_EXEC ? " EXEC" : "",
		       lv->flags & CFSR_SD_BALANCE_FORK ? " FORK" : "",
		       lv->flags & CFSR_SD_BALANCE_WAKE ? " WAKE" : "",
		       lv->flags & CFSR_SD_WAKE_AFFINE ? " WAKE_AFFINE" : "");
	}
}

static void text_imb_levels(const struct report *r, const struct cfsr_imb_totals *it)
{
	int i;

	text_domains(r);
	if (r->c.topo.nr_levels < 2)
		return;
	printf("  by domain level:");
	for (i = 0; i < r->c.topo.nr_levels; i++)
		printf("%s %s %" PRIu64 " windows %.3f ms (imbalance_pct %u)", i ? "," : "",
		       r->c.topo.levels[i].name, it->level_lasting[i],
		       (double)it->level_lasting_ns[i] / 1e6, r->c.topo.levels[i].imbalance_pct);
	printf("\n");
}

/* The windows between groups of CPUs, where a level's groups hold several CPUs. */
static void text_imb_groups(const struct report *r)
{
	const struct cfsr_imb_totals *gt = cfsr_imb_group_totals(r->c.im);
	const struct cfsr_imb_window *w;
	int k, n;

	if (!cfsr_imb_has_groups(r->c.im))
		return;
	printf("  between groups of CPUs (a level's groups: the domains of the level below;\n"
	       "  loads are the groups' avg_load):\n");
	printf("    windows %" PRIu64 ", lasting %" PRIu64
	       " (allowed %.3f ms), beyond any interval %" PRIu64 "\n",
	       gt->windows, gt->lasting, (double)gt->lasting_ns[CFSR_IMB_ALLOWED] / 1e6,
	       gt->beyond_max);
	printf("    by level:");
	for (k = 1; k < r->c.topo.nr_levels; k++)
		printf("%s %s %" PRIu64 " lasting %.3f ms", k > 1 ? "," : "",
		       r->c.topo.levels[k].name, gt->level_lasting[k],
		       (double)gt->level_lasting_ns[k] / 1e6);
	printf("\n");
	n = cfsr_imb_group_top(r->c.im, &w);
	text_windows(r, w, n, NULL);
}

static void text_imb(struct report *r)
{
	const struct cfsr_imb_totals *it = cfsr_imb_totals(r->c.im);
	const struct cfsr_imb_window *w;
	int n;

	if (r->c.topo.domains_recorded)
		printf("\nlasting imbalance (busy CPUs whose loads the balancer would even out, and no\n"
		       "                   migration between them; the recorded domains' imbalance_pct\n"
		       "                   and busy interval per level, below)\n");
	else
		printf("\nlasting imbalance (busy CPUs whose loads the balancer would even out, and no\n"
		       "                   migration between them; imbalance_pct %u, busy interval %.3f "
		       "ms)\n",
		       CFSR_IMBALANCE_PCT, (double)r->c.busy_balance_ns / 1e6);
	printf("  lasting   %6" PRIu64 " windows   longest %.3f ms\n", it->lasting,
	       (double)it->longest_ns / 1e6);
	printf("    allowed        %12.3f ms   a waiting task may move to the lighter CPU\n",
	       (double)it->lasting_ns[CFSR_IMB_ALLOWED] / 1e6);
	printf("    affinity-bound %12.3f ms   affinity forbids it (not a kernel fault)\n",
	       (double)it->lasting_ns[CFSR_IMB_AFF_BOUND] / 1e6);
	printf("    aff-unknown    %12.3f ms   the task's mask changed, the trace lacks it\n",
	       (double)it->lasting_ns[CFSR_IMB_AFF_UNKNOWN] / 1e6);
	printf("  transient %6" PRIu64 " windows %12.3f ms\n", it->windows - it->lasting,
	       (double)it->transient_ns / 1e6);
	printf("  lasting ones ended by: migration %" PRIu64 ", balanced %" PRIu64
	       ", trace end %" PRIu64 "\n",
	       it->ended[CFSR_IMB_MIGRATION], it->ended[CFSR_IMB_BALANCED],
	       it->ended[CFSR_IMB_TRACE_END]);
	printf("  beyond any interval %4" PRIu64
	       " windows %12.3f ms   longer than the longest busy\n"
	       "                                          interval (doubled up to max_interval)\n",
	       it->beyond_max, (double)it->beyond_max_ns / 1e6);
	text_imb_levels(r, it);
	n = cfsr_imb_top(r->c.im, &w);
	text_windows(r, w, n, r->pelt && !r->pelt_failed ? "kernel" : NULL);
	text_imb_groups(r);
}

/* Lasting imbalance on the kernel's per-CPU loads, beside the model's. */
static void text_imb_kernel(const struct report *r)
{
	const struct cfsr_imb_totals *m = cfsr_imb_totals(r->c.im), *k;
	const struct cfsr_imb_window *w;
	int n;

	if (!r->pelt)
		return;
	if (r->pelt_failed) {
		printf("\nlasting imbalance on the kernel's loads: the records %s could not be read\n",
		       r->pelt);
		return;
	}
	k = cfsr_imb_totals(r->c.imk);
	printf("\nlasting imbalance on the kernel's loads (each CPU's root cfs_rq load_avg from its\n"
	       "                   latest PELT record, decayed to the instant; %" PRIu64
	       " records)\n",
	       cfsr_kload_records(r->c.kl));
	printf("  records   %s\n", r->pelt);
	if (!r->c.kernel_from) {
		printf("  no instant had a record of every CPU\n");
		return;
	}
	printf("  from      ");
	print_ts(r->c.kernel_from);
	printf(" (every CPU has a record)\n");
	printf("  %-38s %12s %12s\n", "", "model loads", "kernel loads");
	printf("  %-38s %12" PRIu64 " %12" PRIu64 "\n", "windows", m->windows, k->windows);
	printf("  %-38s %12" PRIu64 " %12" PRIu64 "\n", "  agreeing (same B, L, class, overlap)",
	       r->agree.model, r->agree.kernel);
	printf("  %-38s %12" PRIu64 " %12" PRIu64 "\n", "lasting windows", m->lasting, k->lasting);
	printf("  %-38s %12" PRIu64 " %12" PRIu64 "\n", "  agreeing", r->agree.model_lasting,
	       r->agree.kernel_lasting);
	printf("  %-38s %12.3f %12.3f\n", "lasting ms, allowed",
	       (double)m->lasting_ns[CFSR_IMB_ALLOWED] / 1e6,
	       (double)k->lasting_ns[CFSR_IMB_ALLOWED] / 1e6);
	printf("  %-38s %12.3f %12.3f\n", "lasting ms, all classes",
	       (double)imb_lasting_ns(m) / 1e6, (double)imb_lasting_ns(k) / 1e6);
	if (r->c.kdiff_cpu >= 0) {
		printf("  largest |model - kernel| load of B or L at a window start: %" PRIu64
		       ", CPU %d at ",
		       r->c.kdiff, r->c.kdiff_cpu);
		print_ts(r->c.kdiff_ts);
		printf("\n");
	}
	n = cfsr_imb_top(r->c.imk, &w);
	text_windows(r, w, n, "model");
}

static void text_place(struct report *r)
{
	const struct cfsr_place_totals *pt = cfsr_place_totals(r->c.pl);
	const struct cfsr_place_decision *d;
	char buf[256];
	int k, i, n;

	printf("\nplacement (rule of model %s;\n"
	       "           prefers an idle CPU in the target's LLC; ",
	       r->prof->name);
	if (r->c.topo.llc_known) {
		printf("LLCs");
		for (k = 0; k < r->c.topo.nr_cpus; k++)
			if (r->c.topo.llc[k] == k)
				printf(" [%s]", llc_span_text(&r->c.topo, k, buf, sizeof(buf)));
		printf(")\n");
	} else {
		printf("LLC unknown, all CPUs taken as one LLC)\n");
	}
	if (r->c.topo.domains_recorded)
		printf("  domain flags: the recorded domains' (SD_BALANCE_FORK, _EXEC, _WAKE, "
		       "SD_WAKE_AFFINE)\n");
	printf("  %-10s %8s %9s %13s\n", "", "agrees", "diverges", "cannot judge");
	for (k = 0; k < CFSR_PLACE_NR_KINDS; k++)
		printf("  %-10s %8" PRIu64 " %9" PRIu64 " %13" PRIu64 "\n",
		       cfsr_place_kind_name((enum cfsr_place_kind)k), pt->n[k][CFSR_AGREES],
		       pt->n[k][CFSR_DIVERGES], pt->n[k][CFSR_CANNOT_JUDGE]);
	printf("  %-10s %8" PRIu64 " %9" PRIu64 " %13" PRIu64 "\n", "  stayed",
	       pt->exec_stayed[CFSR_AGREES], pt->exec_stayed[CFSR_DIVERGES],
	       pt->exec_stayed[CFSR_CANNOT_JUDGE]);
	printf("  %6s %6s %6s %6s  %s\n", "wakeup", "fork", "migr.", "exec", "reasons");
	for (k = 0; k < CFSR_NR_REASONS; k++) {
		if (!pt->reasons[0][k] && !pt->reasons[1][k] && !pt->reasons[2][k] &&
		    !pt->reasons[3][k])
			continue;
		printf("  %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "  %s\n",
		       pt->reasons[0][k], pt->reasons[1][k], pt->reasons[2][k], pt->reasons[3][k],
		       cfsr_place_reason_text((enum cfsr_place_reason)k));
	}
	n = cfsr_place_top(r->c.pl, &d);
	if (!n)
		return;
	printf("  largest divergences (time, kind, task, from->to CPU, idle CPU preferred;\n"
	       "  then per CPU: state/nr_running/root cfs_rq load_avg):\n");
	for (i = 0; i < n; i++) {
		printf("    ");
		print_ts(d[i].ts);
		printf(" %-6s %.16s:%d %d->%d idle %d:", cfsr_place_kind_name(d[i].kind), d[i].comm,
		       d[i].pid, d[i].from_cpu, d[i].to_cpu, d[i].preferred_cpu);
		for (k = 0; k < d[i].nr_cpus; k++)
			printf(" %d:%s/%d/%" PRIu64, d[i].cpus[k].cpu,
			       cfsr_cpu_state_name((enum cfsr_cpu_state)d[i].cpus[k].state),
			       d[i].cpus[k].nr_running, d[i].cpus[k].load);
		printf("\n");
	}
}

static void text_fidelity(const struct report *r)
{
	int k;

	if (r->fid_failed)
		printf("\nmodel fidelity: the kernel's PELT records beside the trace could not be\n"
		       "                used (the error is above); the rest of the report stands\n");
	if (!r->have_fid)
		return;
	printf("\nmodel fidelity (lock-step with the kernel's PELT updates, whole trace,\n"
	       "                every field exact; model %s)\n",
	       r->fid.model);
	printf("  records          %s\n", r->fid.pelt);
	for (k = 0; k < CFSR_FID_NR; k++)
		printf("  %-16s %6.2f %% of %llu updates\n", cfsr_fidelity_kind(k),
		       r->fid.compared[k] ?
			       100.0 * (double)r->fid.exact[k] / (double)r->fid.compared[k] :
			       0.0,
		       r->fid.compared[k]);
}

static void text_notes(const struct report *r)
{
	const struct cfsr_iww_totals *tt = cfsr_iww_totals(r->c.iw);
	struct cfsr_cpuload_groups g;

	printf("\nnotes\n");
	cfsr_cpuload_groups(r->c.cl, &g);
	printf("  - load is the model's root cfs_rq load_avg (cpu_load(): blocked load and group\n"
	       "    entities included); a task's load is its task_h_load()\n");
	if (g.marker_moves)
		printf("  - %" PRIu64 " moves of tasks between groups from markers, replayed at\n"
		       "    their markers as sched_move_task()\n",
		       g.marker_moves);
	if (g.attach_moves)
		printf("  - %" PRIu64 " moves of tasks between groups at the cpu controller's\n"
		       "    cgroup_attach_task, replayed as sched_move_task()\n",
		       g.attach_moves);
	if (g.shares_given) {
		const char *path;
		uint64_t shares;
		size_t i;

		printf("  - cpu.shares of %" PRIu64
		       " groups from cfsr-mkdir markers or the recorder's metadata:\n",
		       g.shares_given);
		for (i = 0; (path = cfsr_cpuload_stated_shares(r->c.cl, i, &shares)); i++)
			printf("      %s  shares %" PRIu64 "\n", path,
			       cfsr_scale_load_down(shares));
	}
	if (g.bad_markers)
		printf("  - %" PRIu64 " cfsr-mkdir/cfsr-move markers could not be read\n",
		       g.bad_markers);
	if (!g.groups && g.cgroup_attaches)
		printf("  - group weights unknown: %" PRIu64
		       " cgroup_attach_task events, but no group\n"
		       "    markers or snapshots; every task is taken in the root group\n",
		       g.cgroup_attaches);
	else if (!g.groups)
		printf("  - group weights unknown: the trace names no task group, every task is taken\n"
		       "    in the root group\n");
	if (r->pg.on)
		printf("  - the perf.data's cgroups (%zu named, ids on %" PRIu64
		       " samples) taken as the cpu\n"
		       "    controller's task groups (--perf-cgroups=cpu): %" PRIu64
		       " tasks by their first sample,\n"
		       "    %" PRIu64
		       " moves at a sample; assumed: the cpu controller on perf_event's\n"
		       "    hierarchy and enabled in every cgroup it names, %s shares 1024\n"
		       "    (NICE_0_LOAD: the file holds none), no autogroups\n",
		       r->t->info.nr_cgroups, r->t->info.cgroup_samples, r->pg.tasks,
		       r->pg.sample_moves, g.shares_given ? "the other groups'" : "every group's");
	else if (r->t->info.cgroup_membership)
		printf("  - the perf.data's cgroups (%zu named, ids on %" PRIu64
		       " samples) are the perf_event\n"
		       "    controller's: not taken as task groups, as the file does not say which\n"
		       "    hierarchy holds the cpu controller, nor where it is enabled (info lists them;\n"
		       "    --perf-cgroups=cpu takes them, on the user's word)\n",
		       r->t->info.nr_cgroups, r->t->info.cgroup_samples);
	else if (g.shares_given < g.groups)
		printf("  - %" PRIu64 " of %" PRIu64
		       " task groups have no cpu.shares in the trace: 1024 (the\n"
		       "    default) assumed\n",
		       g.groups - g.shares_given, g.groups);
	if (r->own_clock && r->clock)
		printf("  - the model took the clock readings and task groups of '%s'\n", r->clock);
	else if (r->own_clock)
		printf("  - the model took the clock readings and task groups of the snapshots the\n"
		       "    trace carries\n");
	{
		const struct cfsr_replay_stats *st = cfsr_cpuload_replay_stats(r->c.cl);

		printf("  - PELT clock: %" PRIu64 " task updates; %" PRIu64
		       " clock values estimated from a CPU's\n"
		       "    last anchor, %" PRIu64 " %s\n",
		       st->updates, st->estimated_updates, st->unanchored_updates,
		       r->own_clock ? "before its first reading (not used)" :
				      "on the trace clock before any anchor");
	}
	if (tt->lost_notices)
		printf("  - %" PRIu64 " lost-event notices: states after them are degraded\n",
		       tt->lost_notices);
	if (tt->known_from)
		printf("  - CPU states known from ");
	else
		printf("  - some CPU never switched: its state stays unknown\n");
	if (tt->known_from) {
		print_ts(tt->known_from);
		printf(" (first switch on every CPU)\n");
	}
	printf("  - %" PRIu64 " tasks ran without being seen to wait (runnable when the trace\n"
	       "    began, or their wakeup is missing)\n",
	       tt->unseen_waiters);
	if (tt->unseen_switch_outs)
		printf("  - %" PRIu64 " switches out of a task never switched in: switches are\n"
		       "    missing; an idle CPU with a woken task counts as pending meanwhile\n",
		       tt->unseen_switch_outs);
	if (tt->affinity_changes)
		printf("  - %" PRIu64 " sched_setaffinity() calls; %" PRIu64
		       " masks given by cfsr-affinity markers\n",
		       tt->affinity_changes, tt->affinity_markers);
	else
		printf("  - no affinity change in the trace: tasks are taken as allowed on every\n"
		       "    CPU, per-CPU kthreads (name/N) on theirs\n");
}

/* A vruntime or deadline relative to V, in virtual microseconds. */
static double rel_us(uint64_t v, uint64_t base)
{
	return (double)(int64_t)(v - base) / 1e3;
}

void cfsr_pick_text_header(void)
{
	printf("  %-10s %10s %10s %10s %10s %10s %12s %8s\n", "", "switches", "trivial",
	       "contested", "agrees", "diverges", "cannot judge", "agree");
}

void cfsr_pick_text_counts(const char *label, const struct cfsr_pick_cpu *n)
{
	int pm = cfsr_pick_agree_permille(n->agrees, n->contested);

	printf("  %-10s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
	       " %12" PRIu64,
	       label, n->switches, n->trivial, n->contested, n->agrees, n->diverges, n->cannot);
	if (pm < 0)
		printf("        -\n");
	else
		printf("   %5d.%d%%\n", pm / 10, pm % 10);
}

void cfsr_pick_text_reasons(const struct cfsr_pickcheck *pk, char cls, const char *label)
{
	int k, col = 0, w;
	char item[64];

	for (k = 0; k < CFSR_PR_NR; k++) {
		uint64_t v = cfsr_pickcheck_reason(pk, (enum cfsr_pick_reason)k);

		if (cfsr_pick_reason_class((enum cfsr_pick_reason)k) != cls || !v)
			continue;
		w = snprintf(item, sizeof(item), "%s %" PRIu64,
			     cfsr_pick_reason_key((enum cfsr_pick_reason)k), v);
		if (!col)
			col = printf("%s %s", label, item);
		else if (col + 2 + w > 98)
			col = printf(",\n    %s", item) - 2;
		else
			col += printf(", %s", item);
	}
	if (col)
		printf("\n");
}

/* The engine features the trace's sysctl_sched_features set otherwise than the model's defaults. */
static void text_sched_feats(const struct report *r)
{
	const char *differ[CFSR_SCHED_FEAT_MAX];
	size_t i, col,
		n = cfsr_sched_feats_differ(cfsr_replay_profile(cfsr_cpuload_engine(r->c.cl)),
					    r->prof, differ);

	if (!n)
		return;
	printf("  the trace's sysctl_sched_features, in place of the model's defaults:\n   ");
	for (i = 0, col = 3; i < n; col += strlen(differ[i]) + 1, i++) {
		if (col + strlen(differ[i]) + 1 > 100) {
			printf("\n   ");
			col = 3;
		}
		printf(" %s", differ[i]);
	}
	printf("\n");
}

/* One entity of a divergence: v-V and d-V (EEVDF), or v-min (CFS). */
static void text_pick_ent(const char *comm, const struct cfsr_pick_entity *e, uint64_t base,
			  bool eevdf)
{
	char who[48];

	snprintf(who, sizeof(who), "%.15s:%d", comm, e->pid);
	if (eevdf)
		printf("%-23s v-V %+10.1f  d-V %+10.1f\n", who, rel_us(e->vruntime, base),
		       rel_us(e->deadline, base));
	else
		printf("%-23s v-min %+10.1f\n", who, rel_us(e->vruntime, base));
}

/* A group entity by its group's path, a task by "task" (a divergence's level line). */
static const char *pick_ent_name(const struct cfsr_replay *eng, const struct cfsr_pick_entity *e)
{
	const char *path = e->group ? cfsr_replay_group_path(eng, e->group) : NULL;

	return path ? path : "the task";
}

/* The largest divergences, with the figures of the profile's pick. */
static void text_pick_divs(const struct cfsr_replay *eng, const struct cfsr_pick_div *d, size_t n,
			   bool eevdf)
{
	const char *path;
	char when[48];
	size_t i;

	if (eevdf)
		printf("  largest divergences (v-V, d-V: vruntime and deadline less the average\n"
		       "  vruntime V of the cfs_rq, in virtual us; with task groups, of the entities\n"
		       "  at the level where the picks part)\n");
	else
		printf("  largest divergences (v-min: vruntime less the cfs_rq's min_vruntime,\n"
		       "  in virtual us)\n");
	for (i = 0; i < n; i++) {
		snprintf(when, sizeof(when), "%" PRIu64 ".%06" PRIu64, d[i].ts / 1000000000,
			 d[i].ts % 1000000000 / 1000);
		printf("    %-14s CPU %-3d ran       ", when, d[i].cpu);
		text_pick_ent(d[i].ran_comm, &d[i].ran, d[i].avg_vruntime, eevdf);
		printf("      %-20s preferred ", cfsr_pick_reason_key(d[i].why));
		text_pick_ent(d[i].pref_comm, &d[i].preferred, d[i].avg_vruntime, eevdf);
		path = cfsr_replay_group_path(eng, d[i].level_group);
		if (d[i].level >= 0 && path)
			printf("      level %d, cfs_rq %.24s: ran %.24s, preferred %.24s\n",
			       d[i].level, path, pick_ent_name(eng, &d[i].ran),
			       pick_ent_name(eng, &d[i].preferred));
	}
}

static void text_pick(struct report *r, const struct report_opts *o)
{
	const struct cfsr_pick_div *d;
	struct cfsr_pick_cpu sum;
	char who[48];
	size_t n;
	int c;

	printf("\npick check (rule of model %s:\n", r->prof->name);
	printf("            %s)\n",
	       r->prof->eevdf ? "pick_eevdf(): the eligible task with the earliest deadline" :
				"pick_next_entity(): the leftmost vruntime, or a buddy near it");
	text_sched_feats(r);
	if (cfsr_pickcheck_groups(r->c.pk) == CFSR_PICK_GROUPS_UNKNOWN)
		printf("  task groups not in the trace: every task taken as in the root group;\n"
		       "  under autogroups or cgroups divergences may be the model's\n");
	else if (cfsr_pickcheck_groups(r->c.pk) == CFSR_PICK_GROUPS_ATTACH)
		printf("  task groups from the trace's cgroup attach events (autogroups and\n"
		       "  moves before the trace unseen)\n");
	else if (cfsr_pickcheck_groups(r->c.pk) == CFSR_PICK_GROUPS_MARKERS)
		printf("  task groups from the recorders' markers (autogroups unseen)\n");
	else if (cfsr_pickcheck_groups(r->c.pk) == CFSR_PICK_GROUPS_PERF)
		printf("  task groups from the perf.data's cgroups (--perf-cgroups=cpu; autogroups\n"
		       "  unseen)\n");
	cfsr_pick_text_header();
	for (c = 0; c < r->t->info.nr_cpus; c++) {
		if (o->cpu >= 0 && c != o->cpu)
			continue;
		snprintf(who, sizeof(who), "CPU %d", c);
		cfsr_pick_text_counts(who, cfsr_pickcheck_cpu(r->c.pk, c));
	}
	cfsr_pickcheck_total(r->c.pk, &sum);
	cfsr_pick_text_counts("all", &sum);
	if (sum.groups_contested)
		printf("  through group entities: %" PRIu64 " contested, %" PRIu64
		       " agree (%.1f%%)\n",
		       sum.groups_contested, sum.groups_agrees,
		       100.0 * (double)sum.groups_agrees / (double)sum.groups_contested);
	cfsr_pick_text_reasons(r->c.pk, 'D', "  diverges:");
	cfsr_pick_text_reasons(r->c.pk, 'C', "  cannot judge:");
	n = cfsr_pickcheck_top(r->c.pk, &d);
	if (!n)
		return;
	text_pick_divs(cfsr_cpuload_engine(r->c.cl), d, n, r->prof->eevdf);
}

static void print_text(struct report *r, const struct report_opts *o)
{
	const struct cfsr_trace_info *in = &r->t->info;
	const struct cfsr_iww_totals *tt = cfsr_iww_totals(r->c.iw);
	const struct cfsr_iww_cpu *cs;
	int c;

	printf("trace    %s\n", r->t->path);
	printf("         %s%s%s, kernel %s, %d CPUs, clock %s\n", in->reader,
	       in->compression ? " " : "", in->compression ? in->compression : "",
	       in->kernel_release ? in->kernel_release : "unknown", in->nr_cpus,
	       in->clock ? in->clock : "unknown");
	printf("model    %s%s\n", r->prof->name,
	       cfsr_profile_what_if(in->kernel_release, r->prof) ?
		       " (what-if: not the traced kernel's model)" :
		       "");
	if (r->series)
		printf("         %s\n", r->series);
	printf("span     ");
	print_ts(tt->first_ts);
	printf(" .. ");
	print_ts(tt->last_ts);
	printf(" (%.3f s), %" PRIu64 " events, %" PRIu64 " lost notices\n",
	       (double)(tt->last_ts - tt->first_ts) / 1e9, r->c.events, tt->lost_notices);
	if (o->start || o->end != UINT64_MAX) {
		printf("window   ");
		print_ts(o->start);
		printf(" .. ");
		if (o->end == UINT64_MAX)
			printf("end");
		else
			print_ts(o->end);
		printf("\n");
	}
	printf("\nper CPU, observed ms     %10s %10s %10s %10s %10s  %s\n", "busy", "idle",
	       "overloaded", "pending", "unknown", "cfs_rq load");
	for (c = 0; c < in->nr_cpus; c++) {
		if (o->cpu >= 0 && c != o->cpu)
			continue;
		cs = cfsr_iww_cpu(r->c.iw, c);
		printf("  CPU %-18d %10.3f %10.3f %10.3f %10.3f %10.3f  %12" PRIu64 "\n", c,
		       (double)(cs->state_ns[CFSR_CPU_BUSY] + cs->state_ns[CFSR_CPU_OVERLOADED]) /
			       1e6,
		       (double)cs->state_ns[CFSR_CPU_IDLE] / 1e6,
		       (double)cs->state_ns[CFSR_CPU_OVERLOADED] / 1e6,
		       (double)cs->state_ns[CFSR_CPU_PENDING] / 1e6,
		       (double)cs->state_ns[CFSR_CPU_UNKNOWN] / 1e6, cfsr_cpuload_mean(r->c.cl, c));
	}
	text_iww(r, o);
	text_imb(r);
	text_imb_kernel(r);
	text_place(r);
	text_pick(r, o);
	text_fidelity(r);
	text_notes(r);
}

/* ---- JSON ---------------------------------------------------------------- */

static json_object *u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static json_object *int_or_null(int v)
{
	return v < 0 ? NULL : json_object_new_int(v);
}

static json_object *json_iww(struct report *r)
{
	const struct cfsr_iww_totals *tt = cfsr_iww_totals(r->c.iw);
	const struct cfsr_iww_episode *eps;
	json_object *o = json_object_new_object(), *top = json_object_new_array(), *e, *tasks, *tk;
	int i, k, n;

	json_object_object_add(o, "wall_ns", u64(tt->wall_ns));
	json_object_object_add(o, "cpu_ns", u64(tt->cpu_ns));
	json_object_object_add(o, "allowed_cpu_ns", u64(tt->allowed_cpu_ns));
	json_object_object_add(o, "unknown_affinity_cpu_ns", u64(tt->unknown_affinity_cpu_ns));
	json_object_object_add(o, "affinity_bound_cpu_ns", u64(tt->affinity_bound_cpu_ns));
	json_object_object_add(o, "balance_interval_ns", u64(r->c.balance_ns));
	json_object_object_add(o, "hz_assumed", json_object_new_boolean(r->c.hz_assumed));
	json_object_object_add(o, "episodes", u64(tt->episodes));
	json_object_object_add(o, "long_episodes", u64(tt->long_episodes));
	json_object_object_add(o, "long_ns", u64(tt->long_ns));
	json_object_object_add(o, "long_cpu_ns", u64(tt->long_cpu_ns));
	json_object_object_add(o, "transient_episodes", u64(tt->transient_episodes));
	json_object_object_add(o, "transient_ns", u64(tt->transient_ns));
	json_object_object_add(o, "transient_cpu_ns", u64(tt->transient_cpu_ns));
	json_object_object_add(o, "longest_ns", u64(tt->longest_ns));
	json_object_object_add(o, "known_from_ns", tt->known_from ? u64(tt->known_from) : NULL);
	json_object_object_add(o, "unseen_waiters", u64(tt->unseen_waiters));
	json_object_object_add(o, "unseen_switch_outs", u64(tt->unseen_switch_outs));
	json_object_object_add(o, "lost_notices", u64(tt->lost_notices));
	json_object_object_add(o, "affinity_changes", u64(tt->affinity_changes));
	json_object_object_add(o, "affinity_markers", u64(tt->affinity_markers));
	json_object_object_add(o, "bad_affinity_markers", u64(tt->bad_markers));
	n = cfsr_iww_top(r->c.iw, &eps);
	for (i = 0; i < n; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "start_ns", u64(eps[i].start));
		json_object_object_add(e, "end_ns", u64(eps[i].end));
		json_object_object_add(e, "duration_ns", u64(eps[i].end - eps[i].start));
		json_object_object_add(e, "cpu_ns", u64(eps[i].cpu_ns));
		json_object_object_add(e, "allowed_cpu_ns", u64(eps[i].allowed_cpu_ns));
		json_object_object_add(e, "unknown_affinity_cpu_ns",
				       u64(eps[i].unknown_affinity_cpu_ns));
		json_object_object_add(e, "class", json_object_new_string(episode_class(&eps[i])));
		json_object_object_add(e, "idle_cpu", int_or_null(eps[i].idle_cpu));
		json_object_object_add(e, "overloaded_cpu", int_or_null(eps[i].busy_cpu));
		json_object_object_add(e, "open", json_object_new_boolean(eps[i].open));
		tasks = json_object_new_array();
		for (k = 0; k < eps[i].nr_pids; k++) {
			tk = json_object_new_object();
			json_object_object_add(tk, "pid", json_object_new_int(eps[i].pids[k]));
			json_object_object_add(
				tk, "comm",
				json_object_new_string(cfsr_iww_comm(r->c.iw, eps[i].pids[k])));
			json_object_object_add(
				tk, "affinity",
				json_object_new_string(cfsr_affinity_name(
					cfsr_iww_affinity(r->c.iw, eps[i].pids[k]))));
			json_object_array_add(tasks, tk);
		}
		json_object_object_add(e, "waiting", tasks);
		json_object_array_add(top, e);
	}
	json_object_object_add(o, "top", top);
	return o;
}

/* One window; @other: key prefix of its other loads, or NULL. */
/* The CPUs of the group @id of group window @w's level (the span below it), as a CPU list. */
static const char *group_text(const struct report *r, const struct cfsr_imb_window *w, int id,
			      char *buf, size_t size)
{
	const int *span = r->c.topo.levels[w->level - 1].span;
	size_t len = 0;
	int c, end;

	buf[0] = '\0';
	for (c = 0; c < r->c.topo.nr_cpus; c++) {
		if (span[c] != id)
			continue;
		for (end = c; end + 1 < r->c.topo.nr_cpus && span[end + 1] == id; end++)
			;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, end > c ? "%s%d-%d" : "%s%d",
						len ? "," : "", c, end);
		c = end;
	}
	return buf;
}

static json_object *json_window(const struct report *r, const struct cfsr_imb_window *w,
				const char *other)
{
	json_object *e;
	char key[48];

	e = json_object_new_object();
	json_object_object_add(e, "start_ns", u64(w->start));
	json_object_object_add(e, "end_ns", u64(w->end));
	json_object_object_add(e, "duration_ns", u64(w->end - w->start));
	json_object_object_add(e, "busiest_cpu", json_object_new_int(w->busiest_cpu));
	json_object_object_add(e, "local_cpu", json_object_new_int(w->local));
	if (w->group) {
		char buf[256];

		json_object_object_add(
			e, "busiest_group",
			json_object_new_string(group_text(r, w, w->busiest, buf, sizeof(buf))));
		json_object_object_add(
			e, "local_group",
			json_object_new_string(group_text(r, w, w->local, buf, sizeof(buf))));
		json_object_object_add(
			e, "migration_type",
			json_object_new_string(cfsr_migration_type_name(w->migration)));
		json_object_object_add(e, "imbalance", u64(w->imbalance));
	}
	json_object_object_add(e, "beyond_max_interval",
			       json_object_new_boolean(w->end - w->start > w->max_interval_ns));
	json_object_object_add(e, "busiest_load", u64(w->busiest_load));
	json_object_object_add(e, "local_load", u64(w->local_load));
	json_object_object_add(e, "busiest_nr", json_object_new_int(w->busiest_nr));
	json_object_object_add(e, "local_nr", json_object_new_int(w->local_nr));
	json_object_object_add(e, "task_pid", json_object_new_int(w->task));
	json_object_object_add(e, "task_comm", json_object_new_string(w->comm));
	json_object_object_add(e, "task_load", u64(w->task_load));
	json_object_object_add(e, "class", json_object_new_string(cfsr_imb_class_name(w->class)));
	json_object_object_add(e, "ended_by", json_object_new_string(cfsr_imb_end_name(w->why)));
	json_object_object_add(e, "level", json_object_new_string(r->c.topo.levels[w->level].name));
	if (other) {
		snprintf(key, sizeof(key), "%s_busiest_load", other);
		json_object_object_add(e, key, u64(w->other_busiest_load));
		snprintf(key, sizeof(key), "%s_local_load", other);
		json_object_object_add(e, key, u64(w->other_local_load));
	}
	return e;
}

/* Lasting imbalance of @im; @other: key prefix of its windows' other loads, or NULL. */
/* Where the domain levels' values come from: the recorded domains, or sd_init()'s defaults. */
static const char *domains_source(const struct report *r)
{
	return r->c.topo.domains_recorded ? "recorded" : "defaults";
}

/* A level's window count, its longest busy interval and its windows beyond it (format 6). */
static void json_level_more(const struct report *r, json_object *e,
			    const struct cfsr_imb_totals *it, int k)
{
	json_object_object_add(e, "windows", u64(it->level_windows[k]));
	json_object_object_add(e, "max_busy_balance_interval_ns",
			       u64(cfsr_topo_max_busy_interval_ns(&r->c.topo, k, 0, r->c.hz)));
	json_object_object_add(e, "beyond_max_windows", u64(it->level_beyond_max[k]));
}

/* The windows between groups of CPUs (format 6; their migration type format 7), NULL where no level has such groups. */
static json_object *json_imb_groups(const struct report *r, const struct cfsr_imbalance *im)
{
	const struct cfsr_imb_totals *gt = cfsr_imb_group_totals(im);
	const struct cfsr_imb_window *w;
	json_object *o, *levels, *top, *e;
	int k, i, n;

	if (!cfsr_imb_has_groups(im))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "windows", u64(gt->windows));
	json_object_object_add(o, "lasting_windows", u64(gt->lasting));
	json_object_object_add(o, "allowed_ns", u64(gt->lasting_ns[CFSR_IMB_ALLOWED]));
	json_object_object_add(o, "unknown_affinity_ns", u64(gt->lasting_ns[CFSR_IMB_AFF_UNKNOWN]));
	json_object_object_add(o, "affinity_bound_ns", u64(gt->lasting_ns[CFSR_IMB_AFF_BOUND]));
	json_object_object_add(o, "transient_ns", u64(gt->transient_ns));
	json_object_object_add(o, "longest_ns", u64(gt->longest_ns));
	json_object_object_add(o, "beyond_max_windows", u64(gt->beyond_max));
	json_object_object_add(o, "beyond_max_ns", u64(gt->beyond_max_ns));
	levels = json_object_new_array();
	for (k = 1; k < r->c.topo.nr_levels; k++) {
		e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(r->c.topo.levels[k].name));
		json_object_object_add(e, "lasting_windows", u64(gt->level_lasting[k]));
		json_object_object_add(e, "lasting_ns", u64(gt->level_lasting_ns[k]));
		json_level_more(r, e, gt, k);
		json_object_array_add(levels, e);
	}
	json_object_object_add(o, "levels", levels);
	top = json_object_new_array();
	n = cfsr_imb_group_top(im, &w);
	for (i = 0; i < n; i++)
		json_object_array_add(top, json_window(r, &w[i], NULL));
	json_object_object_add(o, "top", top);
	return o;
}

static json_object *json_imb_of(const struct report *r, const struct cfsr_imbalance *im,
				const char *other)
{
	const struct cfsr_imb_totals *it = cfsr_imb_totals(im);
	const struct cfsr_imb_window *w;
	json_object *o = json_object_new_object(), *top = json_object_new_array(), *e, *ended;
	json_object *levels;
	int i, k, n;

	json_object_object_add(o, "imbalance_pct", json_object_new_int(CFSR_IMBALANCE_PCT));
	json_object_object_add(o, "busy_balance_interval_ns", u64(r->c.busy_balance_ns));
	json_object_object_add(o, "windows", u64(it->windows));
	json_object_object_add(o, "lasting_windows", u64(it->lasting));
	json_object_object_add(o, "allowed_ns", u64(it->lasting_ns[CFSR_IMB_ALLOWED]));
	json_object_object_add(o, "unknown_affinity_ns", u64(it->lasting_ns[CFSR_IMB_AFF_UNKNOWN]));
	json_object_object_add(o, "affinity_bound_ns", u64(it->lasting_ns[CFSR_IMB_AFF_BOUND]));
	json_object_object_add(o, "transient_ns", u64(it->transient_ns));
	json_object_object_add(o, "longest_ns", u64(it->longest_ns));
	json_object_object_add(o, "max_busy_balance_interval_ns",
			       u64(cfsr_balance_interval_ns(2 * r->c.nr_cpus, r->c.hz, true)));
	json_object_object_add(o, "beyond_max_windows", u64(it->beyond_max));
	json_object_object_add(o, "beyond_max_ns", u64(it->beyond_max_ns));
	ended = json_object_new_object();
	for (k = 0; k < CFSR_IMB_NR_ENDS; k++)
		json_object_object_add(ended, cfsr_imb_end_name((enum cfsr_imb_end)k),
				       u64(it->ended[k]));
	json_object_object_add(o, "lasting_ended_by", ended);
	levels = json_object_new_array();
	for (k = 0; k < r->c.topo.nr_levels; k++) {
		const struct cfsr_topo_level *lv = &r->c.topo.levels[k];

		e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(lv->name));
		json_object_object_add(e, "imbalance_pct",
				       json_object_new_int((int)lv->imbalance_pct));
		json_object_object_add(
			e, "busy_balance_interval_ns",
			u64(lv->recorded ? cfsr_topo_busy_interval_ns(&r->c.topo, k, 0, r->c.hz) :
					   r->c.busy_interval_by_weight[lv->weight[0]]));
		json_object_object_add(
			e, "domain",
			json_object_new_string(lv->recorded ? "recorded" : "defaults"));
		json_object_object_add(e, "lasting_windows", u64(it->level_lasting[k]));
		json_object_object_add(e, "lasting_ns", u64(it->level_lasting_ns[k]));
		json_level_more(r, e, it, k);
		json_object_array_add(levels, e);
	}
	json_object_object_add(o, "levels", levels);
	json_object_object_add(o, "domains", json_object_new_string(domains_source(r)));
	n = cfsr_imb_top(im, &w);
	for (i = 0; i < n; i++)
		json_object_array_add(top, json_window(r, &w[i], other));
	json_object_object_add(o, "top", top);
	json_object_object_add(o, "groups", json_imb_groups(r, im));
	return o;
}

static json_object *json_imb(const struct report *r)
{
	return json_imb_of(r, r->c.im, r->pelt && !r->pelt_failed ? "kernel" : NULL);
}

/* Lasting imbalance on the kernel's loads (format 4), NULL without records. */
static json_object *json_imb_kernel(const struct report *r, int top)
{
	const struct cfsr_imb_window *w;
	json_object *o, *a, *d, *first;
	size_t i, n;

	if (!r->pelt || r->pelt_failed)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "pelt_file", json_object_new_string(r->pelt));
	json_object_object_add(o, "records", u64(cfsr_kload_records(r->c.kl)));
	json_object_object_add(o, "from_ns", r->c.kernel_from ? u64(r->c.kernel_from) : NULL);
	json_object_object_add(o, "lasting_imbalance", json_imb_of(r, r->c.imk, "model"));
	/* the first windows, lasting or not: their start loads, the kernel's and the model's */
	first = json_object_new_array();
	n = cfsr_imb_all(r->c.imk, &w);
	for (i = 0; i < n && i < (size_t)top; i++)
		json_object_array_add(first, json_window(r, &w[i], "model"));
	json_object_object_add(o, "first_windows", first);
	a = json_object_new_object();
	json_object_object_add(a, "model_windows", u64(r->agree.model));
	json_object_object_add(a, "kernel_windows", u64(r->agree.kernel));
	json_object_object_add(a, "model_lasting", u64(r->agree.model_lasting));
	json_object_object_add(a, "kernel_lasting", u64(r->agree.kernel_lasting));
	json_object_object_add(o, "agree", a);
	d = NULL;
	if (r->c.kdiff_cpu >= 0) {
		d = json_object_new_object();
		json_object_object_add(d, "load", u64(r->c.kdiff));
		json_object_object_add(d, "cpu", json_object_new_int(r->c.kdiff_cpu));
		json_object_object_add(d, "ts_ns", u64(r->c.kdiff_ts));
	}
	json_object_object_add(o, "max_start_load_diff", d);
	return o;
}

static json_object *json_place(struct report *r)
{
	const struct cfsr_place_totals *pt = cfsr_place_totals(r->c.pl);
	const struct cfsr_place_decision *d;
	json_object *o = json_object_new_object(), *counts = json_object_new_object();
	json_object *reasons = json_object_new_object(), *top = json_object_new_array();
	json_object *kc, *e, *cpus, *c;
	int k, v, i, n;

	json_object_object_add(o, "rule", json_object_new_string(r->prof->name));
	json_object_object_add(o, "domains", json_object_new_string(domains_source(r)));
	json_object_object_add(
		o, "llc",
		json_object_new_string(r->c.topo.llc_known ? "trace-caches" : "all-cpus-assumed"));
	if (r->c.topo.llc_known) {
		char buf[256];

		e = json_object_new_array();
		for (k = 0; k < r->c.topo.nr_cpus; k++)
			if (r->c.topo.llc[k] == k)
				json_object_array_add(e, json_object_new_string(llc_span_text(
								 &r->c.topo, k, buf, sizeof(buf))));
		json_object_object_add(o, "llc_spans", e);
	}
	for (k = 0; k < CFSR_PLACE_NR_KINDS; k++) {
		kc = json_object_new_object();
		for (v = 0; v < CFSR_NR_VERDICTS; v++)
			json_object_object_add(kc, cfsr_verdict_name((enum cfsr_verdict)v),
					       u64(pt->n[k][v]));
		json_object_object_add(counts, cfsr_place_kind_name((enum cfsr_place_kind)k), kc);
	}
	json_object_object_add(o, "counts", counts);
	kc = json_object_new_object();
	for (v = 0; v < CFSR_NR_VERDICTS; v++)
		json_object_object_add(kc, cfsr_verdict_name((enum cfsr_verdict)v),
				       u64(pt->exec_stayed[v]));
	json_object_object_add(o, "exec_stayed", kc);
	for (k = 0; k < CFSR_PLACE_NR_KINDS; k++) {
		kc = json_object_new_object();
		for (v = 0; v < CFSR_NR_REASONS; v++)
			json_object_object_add(kc, cfsr_place_reason_id((enum cfsr_place_reason)v),
					       u64(pt->reasons[k][v]));
		json_object_object_add(reasons, cfsr_place_kind_name((enum cfsr_place_kind)k), kc);
	}
	json_object_object_add(o, "reasons", reasons);
	n = cfsr_place_top(r->c.pl, &d);
	for (i = 0; i < n; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "ts_ns", u64(d[i].ts));
		json_object_object_add(e, "kind",
				       json_object_new_string(cfsr_place_kind_name(d[i].kind)));
		json_object_object_add(e, "pid", json_object_new_int(d[i].pid));
		json_object_object_add(e, "comm", json_object_new_string(d[i].comm));
		json_object_object_add(e, "from_cpu", int_or_null(d[i].from_cpu));
		json_object_object_add(e, "to_cpu", json_object_new_int(d[i].to_cpu));
		json_object_object_add(e, "preferred_cpu", int_or_null(d[i].preferred_cpu));
		json_object_object_add(e, "size", json_object_new_int(d[i].size));
		json_object_object_add(e, "reason",
				       json_object_new_string(cfsr_place_reason_id(d[i].reason)));
		cpus = json_object_new_array();
		for (k = 0; k < d[i].nr_cpus; k++) {
			c = json_object_new_object();
			json_object_object_add(c, "cpu", json_object_new_int(d[i].cpus[k].cpu));
			json_object_object_add(c, "state",
					       json_object_new_string(cfsr_cpu_state_name(
						       (enum cfsr_cpu_state)d[i].cpus[k].state)));
			json_object_object_add(c, "nr_running",
					       json_object_new_int(d[i].cpus[k].nr_running));
			json_object_object_add(c, "load", u64(d[i].cpus[k].load));
			json_object_array_add(cpus, c);
		}
		json_object_object_add(e, "cpus", cpus);
		json_object_array_add(top, e);
	}
	json_object_object_add(o, "top", top);
	return o;
}

/* Where the per-CPU load's engine took the task groups and their shares from. */
static json_object *json_groups(const struct report *r)
{
	json_object *o = json_object_new_object(), *stated = json_object_new_object();
	struct cfsr_cpuload_groups g;
	const char *path;
	uint64_t shares;
	size_t i;

	cfsr_cpuload_groups(r->c.cl, &g);
	json_object_object_add(o, "groups", u64(g.groups));
	json_object_object_add(o, "snapshot_tasks", u64(g.snapshot_tasks));
	json_object_object_add(o, "marker_moves", u64(g.marker_moves));
	json_object_object_add(o, "shares_given", u64(g.shares_given));
	json_object_object_add(o, "bad_markers", u64(g.bad_markers));
	json_object_object_add(o, "cgroup_attaches", u64(g.cgroup_attaches));
	json_object_object_add(
		o, "perf_cgroup_membership",
		r->pg.on ? json_object_new_string(
				   "assumed (--perf-cgroups=cpu): " CFSR_PERF_GROUPS_ASSUMED) :
		r->t->info.cgroup_membership ?
			   json_object_new_string(r->t->info.cgroup_membership) :
			   NULL);
	for (i = 0; (path = cfsr_cpuload_stated_shares(r->c.cl, i, &shares)); i++)
		json_object_object_add(stated, path, u64(cfsr_scale_load_down(shares)));
	json_object_object_add(o, "shares", stated);
	return o;
}

json_object *cfsr_pick_json_counts(const struct cfsr_pick_cpu *n)
{
	json_object *o = json_object_new_object();
	int pm = cfsr_pick_agree_permille(n->agrees, n->contested);

	json_object_object_add(o, "switches", u64(n->switches));
	json_object_object_add(o, "trivial", u64(n->trivial));
	json_object_object_add(o, "contested", u64(n->contested));
	json_object_object_add(o, "agrees", u64(n->agrees));
	json_object_object_add(o, "diverges", u64(n->diverges));
	json_object_object_add(o, "cannot_judge", u64(n->cannot));
	json_object_object_add(o, "agree_permille", pm < 0 ? NULL : json_object_new_int(pm));
	json_object_object_add(o, "groups_contested", u64(n->groups_contested));
	json_object_object_add(o, "groups_agrees", u64(n->groups_agrees));
	return o;
}

static json_object *json_pick_entity(const struct cfsr_replay *eng,
				     const struct cfsr_pick_entity *e, const char *comm)
{
	json_object *o = json_object_new_object();
	const char *path = e->group ? cfsr_replay_group_path(eng, e->group) : NULL;

	json_object_object_add(o, "pid", json_object_new_int(e->pid));
	if (path)
		json_object_object_add(o, "group", json_object_new_string(path));
	json_object_object_add(o, "comm", json_object_new_string(comm));
	json_object_object_add(o, "vruntime", u64(e->vruntime));
	json_object_object_add(o, "deadline", u64(e->deadline));
	json_object_object_add(o, "eligible", json_object_new_boolean(e->eligible));
	return o;
}

static json_object *json_pick(struct report *r, const struct report_opts *op)
{
	const struct cfsr_replay *eng = cfsr_cpuload_engine(r->c.cl);
	static const char *const pick_groups[] = {
		[CFSR_PICK_GROUPS_SNAPSHOTS] = "snapshots",
		[CFSR_PICK_GROUPS_PERF] = "perf-cgroups",
		[CFSR_PICK_GROUPS_MARKERS] = "markers",
		[CFSR_PICK_GROUPS_ATTACH] = "cgroup-attach-events",
		[CFSR_PICK_GROUPS_UNKNOWN] = "unknown-all-root",
	};
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();
	json_object *reasons = json_object_new_object(), *top = json_object_new_array(), *e;
	const struct cfsr_pick_div *d;
	struct cfsr_pick_cpu sum;
	size_t i, n;
	int c, k;

	json_object_object_add(o, "rule", json_object_new_string(r->prof->name));
	json_object_object_add(o, "pick", json_object_new_string(r->prof->eevdf ? "eevdf" : "cfs"));
	json_object_object_add(o, "task_groups",
			       json_object_new_string(pick_groups[cfsr_pickcheck_groups(r->c.pk)]));
	cfsr_pickcheck_total(r->c.pk, &sum);
	json_object_object_add(o, "total", cfsr_pick_json_counts(&sum));
	for (c = 0; c < r->t->info.nr_cpus; c++) {
		if (op->cpu >= 0 && c != op->cpu)
			continue;
		e = cfsr_pick_json_counts(cfsr_pickcheck_cpu(r->c.pk, c));
		json_object_object_add(e, "cpu", json_object_new_int(c));
		json_object_array_add(cpus, e);
	}
	json_object_object_add(o, "cpus", cpus);
	for (k = 0; k < CFSR_PR_NR; k++)
		json_object_object_add(
			reasons, cfsr_pick_reason_key((enum cfsr_pick_reason)k),
			u64(cfsr_pickcheck_reason(r->c.pk, (enum cfsr_pick_reason)k)));
	json_object_object_add(o, "reasons", reasons);
	n = cfsr_pickcheck_top(r->c.pk, &d);
	for (i = 0; i < n; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "ts_ns", u64(d[i].ts));
		json_object_object_add(e, "cpu", json_object_new_int(d[i].cpu));
		json_object_object_add(e, "reason",
				       json_object_new_string(cfsr_pick_reason_key(d[i].why)));
		json_object_object_add(e, "prev_pid", json_object_new_int(d[i].prev_pid));
		json_object_object_add(e, "ran", json_pick_entity(eng, &d[i].ran, d[i].ran_comm));
		json_object_object_add(e, "preferred",
				       json_pick_entity(eng, &d[i].preferred, d[i].pref_comm));
		if (d[i].level >= 0 && cfsr_replay_group_path(eng, d[i].level_group)) {
			json_object_object_add(e, "level", json_object_new_int(d[i].level));
			json_object_object_add(e, "cfs_rq",
					       json_object_new_string(cfsr_replay_group_path(
						       eng, d[i].level_group)));
		}
		json_object_object_add(e, "avg_vruntime", u64(d[i].avg_vruntime));
		json_object_object_add(e, "nr_runnable",
				       json_object_new_int((int)d[i].nr_runnable));
		json_object_object_add(e, "size", u64(d[i].size));
		json_object_array_add(top, e);
	}
	json_object_object_add(o, "top", top);
	return o;
}

static int print_json(struct report *r, const struct report_opts *op)
{
	const struct cfsr_trace_info *in = &r->t->info;
	const struct cfsr_iww_totals *tt = cfsr_iww_totals(r->c.iw);
	json_object *o = json_object_new_object(), *tr = json_object_new_object();
	json_object *w = json_object_new_object(), *cpus = json_object_new_array(), *c;
	const struct cfsr_iww_cpu *cs;
	int i;

	json_object_object_add(o, "format_version", json_object_new_int(REPORT_FORMAT_VERSION));
	json_object_object_add(o, "command", json_object_new_string("report"));
	json_object_object_add(tr, "file", json_object_new_string(r->t->path));
	json_object_object_add(tr, "reader", json_object_new_string(in->reader));
	json_object_object_add(tr, "kernel_release",
			       in->kernel_release ? json_object_new_string(in->kernel_release) :
						    NULL);
	json_object_object_add(tr, "model", json_object_new_string(r->prof->name));
	json_object_object_add(
		tr, "what_if",
		json_object_new_boolean(cfsr_profile_what_if(in->kernel_release, r->prof)));
	json_object_object_add(tr, "nr_cpus", json_object_new_int(in->nr_cpus));
	json_object_object_add(tr, "clock", in->clock ? json_object_new_string(in->clock) : NULL);
	json_object_object_add(tr, "first_ts_ns", u64(tt->first_ts));
	json_object_object_add(tr, "last_ts_ns", u64(tt->last_ts));
	json_object_object_add(tr, "events", u64(r->c.events));
	json_object_object_add(tr, "lost_notices", u64(tt->lost_notices));
	json_object_object_add(o, "trace", tr);
	json_object_object_add(w, "start_ns", op->start ? u64(op->start) : NULL);
	json_object_object_add(w, "end_ns", op->end != UINT64_MAX ? u64(op->end) : NULL);
	json_object_object_add(w, "cpu", int_or_null(op->cpu));
	json_object_object_add(w, "pid", int_or_null(op->pid));
	json_object_object_add(o, "filters", w);
	json_object_object_add(o, "load_kind", json_object_new_string(CFSR_CPULOAD_KIND));
	json_object_object_add(o, "groups", json_groups(r));
	for (i = 0; i < in->nr_cpus; i++) {
		if (op->cpu >= 0 && i != op->cpu)
			continue;
		cs = cfsr_iww_cpu(r->c.iw, i);
		c = json_object_new_object();
		json_object_object_add(c, "cpu", json_object_new_int(i));
		json_object_object_add(
			c, "busy_ns",
			u64(cs->state_ns[CFSR_CPU_BUSY] + cs->state_ns[CFSR_CPU_OVERLOADED]));
		json_object_object_add(c, "idle_ns", u64(cs->state_ns[CFSR_CPU_IDLE]));
		json_object_object_add(c, "overloaded_ns", u64(cs->state_ns[CFSR_CPU_OVERLOADED]));
		json_object_object_add(c, "pending_ns", u64(cs->state_ns[CFSR_CPU_PENDING]));
		json_object_object_add(c, "unknown_ns", u64(cs->state_ns[CFSR_CPU_UNKNOWN]));
		json_object_object_add(c, "load_mean", u64(cfsr_cpuload_mean(r->c.cl, i)));
		json_object_array_add(cpus, c);
	}
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "idle_while_waiting", json_iww(r));
	json_object_object_add(o, "lasting_imbalance", json_imb(r));
	json_object_object_add(o, "kernel_loads", json_imb_kernel(r, op->top));
	json_object_object_add(o, "placement", json_place(r));
	json_object_object_add(o, "pick_check", json_pick(r, op));
	json_object_object_add(o, "fidelity", r->have_fid ? cfsr_fidelity_json(&r->fid) : NULL);
	return cfsr_put_json(o);
}

int cmd_report(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 'n' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "pid", required_argument, NULL, 'p' },
		{ "time", required_argument, NULL, 't' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "clock", required_argument, NULL, 'C' },
		{ "pelt", required_argument, NULL, 'P' },
		{ "perf-cgroups", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .top = 10, .cpu = -1, .pid = -1, .end = UINT64_MAX };
	struct report r = { 0 };
	const char *pelt = NULL;
	char *beside = NULL;
	int c, ret, status = CFSR_EXIT_ERROR;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = true;
			break;
		case 'n':
			if (parse_int("--top", optarg, 0, &o.top) < 0)
				return CFSR_EXIT_ERROR;
			break;
		case 'c':
			if (parse_int("--cpu", optarg, 0, &o.cpu) < 0)
				return CFSR_EXIT_ERROR;
			break;
		case 'p':
			if (parse_int("--pid", optarg, 1, &o.pid) < 0)
				return CFSR_EXIT_ERROR;
			break;
		case 't':
			if (parse_time(optarg, &o) < 0)
				return CFSR_EXIT_ERROR;
			break;
		case 'k':
			o.kernel = optarg;
			break;
		case 'C':
			r.clock = optarg;
			break;
		case 'P':
			pelt = optarg;
			break;
		case 'G':
			if (cfsr_perf_groups_arg("report", optarg) < 0)
				return CFSR_EXIT_ERROR;
			r.perf_groups = true;
			break;
		case 'h':
			print_usage();
			return CFSR_EXIT_OK;
		default:
			cfsr_error("report: unknown option '%s'; see 'cfsreplay report --help'",
				   argv[optind - 1]);
			return CFSR_EXIT_ERROR;
		}
	}
	if (optind + 1 != argc) {
		cfsr_error("report needs one TRACE; see 'cfsreplay report --help'");
		return CFSR_EXIT_ERROR;
	}
	r.t = cfsr_trace_open(argv[optind]);
	if (!r.t)
		return CFSR_EXIT_ERROR;
	if (r.t->info.nr_cpus <= 0) {
		cfsr_error("cannot use '%s': it does not say how many CPUs were traced", r.t->path);
		goto out;
	}
	if (o.cpu >= r.t->info.nr_cpus) {
		cfsr_error("report: --cpu %d: the trace has %d CPUs", o.cpu, r.t->info.nr_cpus);
		goto out;
	}
	r.prof = cfsr_profile_choose(r.t->info.kernel_release, o.kernel, r.t->path);
	r.series = cfsr_profile_series_note(r.t->info.kernel_release, o.kernel, r.series_buf,
					    sizeof(r.series_buf));
	if (!r.prof)
		goto out;
	/* the kernel's PELT records: given, else beside a trace 'cfsreplay record' made */
	if (!pelt) {
		beside = cfsr_record_pelt_path(r.t->path);
		if (!beside) {
			cfsr_error("report: out of memory");
			goto out;
		}
		if (access(beside, R_OK) == 0 && r.prof->pelt) {
			r.pelt = beside;
			r.pelt_beside = true;
		}
	} else if (strcmp(pelt, "none")) {
		r.pelt = pelt;
	}
	/*
	 * the model then takes the clock readings and task groups of the same
	 * records, as validate does, unless the trace or --clock gives them
	 */
	if (r.perf_groups &&
	    cfsr_perf_groups_refuse("report", r.t, cfsr_clock_source(r.t, r.clock)) < 0)
		goto out;
	if (r.pelt && !r.clock && !r.perf_groups && !cfsr_clock_source(r.t, NULL))
		r.clock = r.pelt;
	if (cfsr_comparators_init(&r.c,
				  &(struct cfsr_comparators_params){ .info = &r.t->info,
								     .nr_cpus = r.t->info.nr_cpus,
								     .hz = r.t->info.hz,
								     .prof = r.prof,
								     .top = o.top,
								     .win_start = o.start,
								     .win_end = o.end,
								     .filter_cpu = o.cpu,
								     .filter_pid = o.pid,
								     .kernel_loads = r.pelt != NULL,
								     .peek = cfsr_trace_peek_fn,
								     .peek_ctx = r.t }) < 0)
		goto out;
	if (run(&r) < 0)
		goto out;
	if (!r.c.sched_events) {
		cfsr_error("cannot use '%s': it holds no scheduler events", r.t->path);
		goto out;
	}
	/* a second pass, in lock-step with the kernel's records beside the trace */
	ret = cfsr_fidelity_beside(r.t->path, o.kernel, &r.fid);
	r.have_fid = ret > 0;
	r.fid_failed = ret < 0;
	if (o.json) {
		if (print_json(&r, &o) < 0) {
			cfsr_error("report: cannot format JSON output");
			goto out;
		}
	} else {
		print_text(&r, &o);
	}
	status = CFSR_EXIT_OK;
out:
	cfsr_comparators_release(&r.c);
	cfsr_perf_groups_release(&r.pg);
	free(r.fid.pelt);
	free(beside);
	cfsr_trace_close(r.t);
	return status;
}

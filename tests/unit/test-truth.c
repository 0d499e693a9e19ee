// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the kernel-truth reader (formats/truth.c).
 *
 * - Hand-written lines of every truth.jsonl kind and every pelt.jsonl type,
 *   written plain and gzip-compressed, decode to the values written, with
 *   absent members reported as absent.
 * - Malformed lines are skipped and counted, never fatal and never silent;
 *   unusable files are refused with one message; truncated or corrupt gzip
 *   data and an uncompressed file cut inside its last line end in an error,
 *   never in a quiet end of file.
 * - The recorded files in ../shared/traces, when present, are read whole:
 *   items per kind and type must equal counts taken with plain line reading
 *   and substring matching, pelt.jsonl counts must equal its header's, and
 *   the files' documented invariants (snapshot markers in order, ts = ktime
 *   + offset, records in ktime order, nice-level weights) must hold.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "error.h"
#include "truthfile.h"
#include "weight.h"

#define NONE CFSR_TRUTH_NONE

/* ---- helpers --------------------------------------------------------------------------------- */

static char last_error[1024];
static int nr_errors;

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_error, sizeof(last_error), "%s", msg);
	nr_errors++;
}

static void capture_start(void)
{
	last_error[0] = '\0';
	nr_errors = 0;
	cfsr_error_set_hook(capture, NULL);
}

static void capture_stop(void)
{
	cfsr_error_set_hook(NULL, NULL);
}

/* A new temporary file name, the file created empty. */
static void temp_path(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/cfsr-truth-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

static void write_plain(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void write_gz(const char *path, const void *data, size_t len)
{
	gzFile gz = gzopen(path, "wb");

	assert_non_null(gz);
	if (len)
		assert_int_equal(gzwrite(gz, data, (unsigned int)len), (int)len);
	assert_int_equal(gzclose(gz), Z_OK);
}

static void *read_whole(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	FILE *f;

	assert_int_equal(stat(path, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	*len = (size_t)st.st_size;
	return buf;
}

/* Write @text to a temporary file, compressed or not, and open it. */
static struct cfsr_truth_reader *open_text(char *path, size_t len, const char *text, bool gz)
{
	struct cfsr_truth_reader *r;

	temp_path(path, len);
	if (gz)
		write_gz(path, text, strlen(text));
	else
		write_plain(path, text, strlen(text));
	r = cfsr_truth_open(path);
	assert_non_null(r);
	return r;
}

/* ---- truth.jsonl, by hand -------------------------------------------------------------------- */

static const char truth_text[] =
	"{\"seq\":7,\"kind\":\"snap\",\"ntask\":2,\"trace_ts_begin\":29402380983889,"
	"\"trace_ts_mid\":29402380985802,\"trace_ts_end\":29402381567407,"
	"\"ktime\":29402350797458,\"sched_clk\":29402380996948,\"cpu_clk\":29402351514630,"
	"\"jiffies\":4302242819,\"sched_clock_stable\":1}\n"
	"{\"seq\":7,\"kind\":\"cpu\",\"cpu\":1,\"mhz\":\"2596.132\",\"nr_running\":2,"
	"\"nr_switches\":760135,\"nr_uninterruptible\":-1104,\"curr->pid\":22528,"
	"\"clock\":29402350829501,\"clock_task\":29378075600579}\n"
	"\n"
	"{\"seq\":7,\"kind\":\"cfs_rq\",\"cpu\":1,\"path\":\"/\",\"nr_queued\":1,"
	"\"h_nr_runnable\":2,\"h_nr_queued\":3,\"h_nr_idle\":0,\"load\":1048576,"
	"\"load_avg\":246,\"runnable_avg\":144,\"util_avg\":142,\"util_est\":17,"
	"\"removed.load_avg\":4,\"removed.util_avg\":5,\"removed.runnable_avg\":6,"
	"\"tg_load_avg_contrib\":0,\"tg_load_avg\":0,\"zero_vruntime\":-12}\r\n"
	"{\"seq\":7,\"kind\":\"cfs_rq\",\"cpu\":0,\"path\":\"/autogroup-11\",\"nr_queued\":0,"
	"\"h_nr_runnable\":0,\"h_nr_queued\":0,\"load\":0,\"load_avg\":283,"
	"\"runnable_avg\":139,\"util_avg\":139,\"util_est\":0,\"tg_load_avg_contrib\":1307,"
	"\"tg_load_avg\":2334,\"se->exec_start\":29381307695404,"
	"\"se->vruntime\":486041816899,\"se->sum_exec_runtime\":244674202931,"
	"\"se->load.weight\":588564,\"se->avg.load_avg\":77,\"se->avg.util_avg\":138,"
	"\"se->avg.runnable_avg\":140}\n"
	"{\"seq\":7,\"kind\":\"task\",\"pid\":22528,\"tid\":22529,\"sched_comm\":\"wl0\","
	"\"se.exec_start\":29381465964309,\"se.vruntime\":-2040402,"
	"\"se.sum_exec_runtime\":2517565,\"se.nr_migrations\":1,\"nr_switches\":3,"
	"\"se.load.weight\":1048576,\"se.avg.load_sum\":26568,"
	"\"se.avg.runnable_sum\":11026789,\"se.avg.util_sum\":8153658,"
	"\"se.avg.load_avg\":573,\"se.avg.runnable_avg\":232,\"se.avg.util_avg\":171,"
	"\"se.avg.last_update_time\":29381468334080,\"se.avg.util_est\":2147483916,"
	"\"policy\":0,\"prio\":125,\"stat_comm\":\"wl0-stat\",\"state\":\"R\",\"nice\":5,"
	"\"cpu\":0,\"autogroup\":\"/autogroup-1672\",\"autogroup_nice\":0,"
	"\"cgroup_cpu\":\"/grp/a\",\"comm\":\"a-very-long-thread-name\"}\n"
	"{\"seq\":7,\"kind\":\"task\",\"pid\":30,\"tid\":31,\"stat_comm\":\"gone\","
	"\"read_errors\":[\"sched\"],\"state\":\"X\"}\n"
	"{\"seq\":7,\"kind\":\"rq_task\",\"rq_state\":\">R\",\"comm\":\"pelt_sampler\","
	"\"tid\":22525,\"custom_slice\":false,\"cpu\":0}\n"
	"{\"seq\":7,\"kind\":\"dl_rq\",\"cpu\":1,\"dl_nr_running\":0}";

static void check_truth_items(struct cfsr_truth_reader *r)
{
	struct cfsr_truth_item it;

	assert_int_equal(cfsr_truth_format(r), CFSR_TRUTH_FMT_SNAPSHOTS);
	assert_null(cfsr_truth_pelt_hdr(r));

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_SNAP);
	assert_int_equal(it.line, 1);
	assert_int_equal(it.snap.seq, 7);
	assert_int_equal(it.snap.trace_ts_begin, 29402380983889);
	assert_int_equal(it.snap.trace_ts_mid, 29402380985802);
	assert_int_equal(it.snap.trace_ts_end, 29402381567407);
	assert_int_equal(it.snap.ktime, 29402350797458);
	assert_int_equal(it.snap.sched_clk, 29402380996948);
	assert_int_equal(it.snap.cpu_clk, 29402351514630);
	assert_int_equal(it.snap.jiffies, 4302242819);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_CPU);
	assert_int_equal(it.line, 2);
	assert_int_equal(it.cpu.seq, 7);
	assert_int_equal(it.cpu.cpu, 1);
	assert_int_equal(it.cpu.nr_running, 2);
	assert_int_equal(it.cpu.nr_switches, 760135);
	assert_int_equal(it.cpu.curr_pid, 22528);
	assert_int_equal(it.cpu.clock, 29402350829501);
	assert_int_equal(it.cpu.clock_task, 29378075600579);

	/* line 3 is blank */
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_CFS_RQ);
	assert_int_equal(it.line, 4);
	assert_string_equal(it.cfs_rq.path, "/");
	assert_int_equal(it.cfs_rq.cpu, 1);
	assert_int_equal(it.cfs_rq.load, 1048576);
	assert_int_equal(it.cfs_rq.avg_fields, CFSR_AVG_AVERAGES);
	assert_int_equal(it.cfs_rq.avg.load_avg, 246);
	assert_int_equal(it.cfs_rq.avg.runnable_avg, 144);
	assert_int_equal(it.cfs_rq.avg.util_avg, 142);
	assert_int_equal(it.cfs_rq.avg.util_est, 17);
	assert_int_equal(it.cfs_rq.avg.load_sum, 0);
	assert_int_equal(it.cfs_rq.removed_load_avg, 4);
	assert_int_equal(it.cfs_rq.removed_util_avg, 5);
	assert_int_equal(it.cfs_rq.removed_runnable_avg, 6);
	assert_int_equal(it.cfs_rq.nr_queued, 1);
	assert_int_equal(it.cfs_rq.h_nr_runnable, 2);
	assert_int_equal(it.cfs_rq.h_nr_queued, 3);
	assert_int_equal(it.cfs_rq.h_nr_idle, 0);
	assert_false(it.cfs_rq.has_se);
	assert_true(it.cfs_rq.se_weight == NONE);
	assert_int_equal(it.cfs_rq.se_avg_fields, 0);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_CFS_RQ);
	assert_string_equal(it.cfs_rq.path, "/autogroup-11");
	assert_int_equal(it.cfs_rq.tg_load_avg_contrib, 1307);
	assert_int_equal(it.cfs_rq.tg_load_avg, 2334);
	assert_true(it.cfs_rq.removed_load_avg == NONE);
	assert_true(it.cfs_rq.h_nr_idle == NONE);
	assert_true(it.cfs_rq.has_se);
	assert_int_equal(it.cfs_rq.se_weight, 588564);
	assert_int_equal(it.cfs_rq.se_avg_fields,
			 CFSR_AVG_LOAD_AVG | CFSR_AVG_UTIL_AVG | CFSR_AVG_RUNNABLE_AVG);
	assert_int_equal(it.cfs_rq.se_avg.load_avg, 77);
	assert_int_equal(it.cfs_rq.se_avg.util_avg, 138);
	assert_int_equal(it.cfs_rq.se_avg.runnable_avg, 140);
	assert_int_equal(it.cfs_rq.se_exec_start, 29381307695404);
	assert_int_equal(it.cfs_rq.se_vruntime, 486041816899);
	assert_int_equal(it.cfs_rq.se_sum_exec_runtime, 244674202931);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_TASK);
	assert_int_equal(it.task.seq, 7);
	assert_int_equal(it.task.pid, 22528);
	assert_int_equal(it.task.tid, 22529);
	/* "comm" wins over sched_comm and stat_comm, truncated like the kernel's */
	assert_string_equal(it.task.comm, "a-very-long-thr");
	assert_int_equal(it.task.cpu, 0);
	assert_int_equal(it.task.state, 'R');
	assert_int_equal(it.task.nice, 5);
	assert_int_equal(it.task.prio, 125);
	assert_int_equal(it.task.policy, 0);
	assert_int_equal(it.task.weight, 1048576);
	assert_int_equal(it.task.avg_fields, CFSR_AVG_ALL & ~CFSR_AVG_PERIOD_CONTRIB);
	assert_int_equal(it.task.avg.last_update_time, 29381468334080);
	assert_int_equal(it.task.avg.load_sum, 26568);
	assert_int_equal(it.task.avg.runnable_sum, 11026789);
	assert_int_equal(it.task.avg.util_sum, 8153658);
	assert_int_equal(it.task.avg.period_contrib, 0);
	assert_int_equal(it.task.avg.load_avg, 573);
	assert_int_equal(it.task.avg.runnable_avg, 232);
	assert_int_equal(it.task.avg.util_avg, 171);
	assert_int_equal(it.task.avg.util_est, UTIL_AVG_UNCHANGED | 268);
	assert_int_equal(it.task.exec_start, 29381465964309);
	assert_int_equal(it.task.sum_exec_runtime, 2517565);
	assert_int_equal(it.task.vruntime, -2040402);
	assert_int_equal(it.task.nr_migrations, 1);
	assert_int_equal(it.task.nr_switches, 3);
	assert_string_equal(it.task.autogroup, "/autogroup-1672");
	assert_int_equal(it.task.autogroup_nice, 0);
	assert_string_equal(it.task.cgroup_cpu, "/grp/a");
	assert_false(it.task.read_errors);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_TASK);
	assert_string_equal(it.task.comm, "gone");
	assert_int_equal(it.task.state, 'X');
	assert_true(it.task.read_errors);
	assert_int_equal(it.task.avg_fields, 0);
	assert_true(it.task.weight == NONE);
	assert_true(it.task.vruntime == NONE);
	assert_null(it.task.autogroup);
	assert_null(it.task.cgroup_cpu);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_OTHER);
	assert_string_equal(it.other.kind, "rq_task");
	assert_int_equal(it.other.seq, 7);
	assert_int_equal(it.other.cpu, 0);

	/* the last line has no newline but is complete */
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_OTHER);
	assert_string_equal(it.other.kind, "dl_rq");
	assert_int_equal(it.line, 9);

	assert_int_equal(cfsr_truth_next(r, &it), 0);
	assert_int_equal(cfsr_truth_next(r, &it), 0);
	assert_int_equal(cfsr_truth_skipped(r), 0);
	assert_null(cfsr_truth_skip_reason(r));
}

static void test_truth_kinds(void **state)
{
	struct cfsr_truth_reader *r;
	char path[64];
	int gz;

	(void)state;
	capture_start();
	for (gz = 0; gz <= 1; gz++) {
		r = open_text(path, sizeof(path), truth_text, gz);
		check_truth_items(r);
		cfsr_truth_close(r);
		unlink(path);
	}
	capture_stop();
	assert_int_equal(nr_errors, 0);
}

/* ---- pelt.jsonl, by hand --------------------------------------------------------------------- */

static const char pelt_text[] =
	"{\"type\":\"hdr\",\"format\":\"pelt-bpf/1\",\"attached\":[\"pelt_cfs_tp\"],"
	"\"loader_pid\":2575,\"clock\":{\"trace_clock\":\"local\",\"marker\":{\"n\":50,"
	"\"bracket_ns_median\":5007.0},\"offset_ns\":30369159,\"precision_ns\":1088},"
	"\"counts\":{\"se\":1,\"cfs\":1,\"gse\":1,\"ue_cfs\":1,\"ue_se\":1,\"rt\":1},"
	"\"kernel_counters\":{\"sent\":8,\"dropped\":0},"
	"\"cgroup_ids\":{\"1\":\"/\",\"773\":\"/cfsr07bf_ga\"}}\n"
	"{\"type\":\"sync\",\"n\":3,\"mono_before\":31933926250383,"
	"\"mono_after\":31933926253047,\"ok\":1,\"trace_ts\":31933956620987}\n"
	"{\"ktime\":31933620000000,\"type\":\"sw\",\"cpu\":1,\"prev_pid\":2575,\"next_pid\":0,"
	"\"trace_ts\":31933650370000}\n"
	"{\"ktime\":31933620000100,\"type\":\"sw\",\"cpu\":0,\"prev_pid\":0,\"next_pid\":2575}\n"
	"{\"ts\":31933650393332,\"ktime\":31933620024173,\"type\":\"se\",\"cpu\":0,"
	"\"pid\":2570,\"tid\":2571,\"comm\":\"wl1\",\"parent_cg_id\":1,"
	"\"parent_autogroup\":11,\"depth\":1,\"on_rq\":1,\"sched_delayed\":0,"
	"\"weight\":1048576,\"exec_start\":31904308061396,\"sum_exec_runtime\":4170391,"
	"\"last_update_time\":31904308060160,\"load_sum\":46906,\"runnable_sum\":48033344,"
	"\"util_sum\":47000000,\"period_contrib\":583,\"load_avg\":1006,"
	"\"runnable_avg\":1006,\"util_avg\":985,\"util_est\":0,\"rq_cpu\":0,"
	"\"clock\":31933620020000,\"clock_task\":31904308070000,"
	"\"clock_pelt\":31904308060500,\"lost_idle_time\":77,\"rq_nr_running\":2,"
	"\"obj\":5,\"parent_obj\":2,\"parent_tg\":\"/autogroup-11\"}\n"
	"{\"ts\":31933650393400,\"ktime\":31933620024241,\"type\":\"gse\",\"cpu\":0,"
	"\"cg_id\":1,\"autogroup\":11,\"level\":1,\"nr_queued\":1,\"h_nr_queued\":1,"
	"\"h_nr_runnable\":1,\"parent_cg_id\":1,\"parent_root\":1,\"depth\":0,\"on_rq\":1,"
	"\"sched_delayed\":0,\"weight\":817682,\"exec_start\":1,\"sum_exec_runtime\":2,"
	"\"last_update_time\":31904308060160,\"load_sum\":3,\"runnable_sum\":4,"
	"\"util_sum\":5,\"period_contrib\":6,\"load_avg\":7,\"runnable_avg\":8,"
	"\"util_avg\":9,\"util_est\":10,\"rq_cpu\":0,\"clock\":11,\"clock_task\":12,"
	"\"clock_pelt\":13,\"lost_idle_time\":0,\"rq_nr_running\":2,\"vruntime\":-1048000,"
	"\"deadline\":1750000,\"vlag\":-3000,\"slice\":2800000,\"rel_deadline\":0,"
	"\"curr\":1,\"obj\":2,"
	"\"parent_obj\":1,\"tg\":\"/autogroup-11\",\"parent_tg\":\"/\"}\n"
	"{\"ts\":31933650393500,\"ktime\":31933620024341,\"type\":\"cfs\",\"cpu\":1,"
	"\"cg_id\":773,\"level\":1,\"weight\":2048,\"nr_queued\":2,\"h_nr_queued\":2,"
	"\"h_nr_runnable\":1,\"h_nr_idle\":0,\"tg_load_avg_contrib\":900,"
	"\"tg_load_avg\":1800,\"tg_shares\":1048576,\"propagate\":1,"
	"\"prop_runnable_sum\":-46000,\"removed_nr\":1,\"removed_load_avg\":20,"
	"\"removed_util_avg\":21,\"removed_runnable_avg\":22,\"on_list\":1,"
	"\"last_update_time\":31904308061184,\"load_sum\":1,\"runnable_sum\":2,"
	"\"util_sum\":3,\"period_contrib\":4,\"load_avg\":5,\"runnable_avg\":6,"
	"\"util_avg\":7,\"util_est\":8,\"rq_cpu\":0,\"clock\":9,\"clock_task\":10,"
	"\"clock_pelt\":11,\"lost_idle_time\":12,\"rq_nr_running\":13,"
	"\"zero_vruntime\":123456789,\"avg_vruntime\":-2048,\"avg_load\":2048,"
	"\"curr_vruntime\":5,\"curr_weight\":1048576,\"obj\":3,"
	"\"tg\":\"/cfsr07bf_ga\"}\n"
	"{\"ts\":31933650393600,\"ktime\":31933620024441,\"type\":\"ue_se\",\"cpu\":0,"
	"\"pid\":2570,\"tid\":2570,\"comm\":\"wl0\",\"group\":1,\"parent_cg_id\":1,"
	"\"parent_root\":1,\"weight\":1048576,\"util_est\":2147483948,\"obj\":4}\n"
	"{\"ts\":31933650393700,\"ktime\":31933620024541,\"type\":\"ue_cfs\",\"cpu\":0,"
	"\"cg_id\":1,\"root\":1,\"level\":0,\"util_est\":300,\"obj\":1,\"tg\":\"/\"}\n"
	"{\"ts\":31933650393800,\"ktime\":31933620024641,\"type\":\"rt\",\"cpu\":1,"
	"\"last_update_time\":1024,\"load_sum\":1,\"runnable_sum\":2,\"util_sum\":3,"
	"\"period_contrib\":4,\"load_avg\":5,\"runnable_avg\":6,\"util_avg\":7,"
	"\"util_est\":8,\"rq_cpu\":1,\"clock\":9,\"clock_task\":10,\"clock_pelt\":11,"
	"\"lost_idle_time\":12,\"rq_nr_running\":13}\n"
	"{\"ts\":31933650393900,\"ktime\":31933620024741,\"type\":\"dl\",\"cpu\":1}\n";

static void check_pelt_header(const struct cfsr_pelt_hdr *h)
{
	assert_non_null(h);
	assert_string_equal(h->format, "pelt-bpf/1");
	assert_int_equal(h->loader_pid, 2575);
	assert_int_equal(h->offset_ns, 30369159);
	assert_int_equal(h->precision_ns, 1088);
	assert_int_equal(h->counts[CFSR_PELT_SE], 1);
	assert_int_equal(h->counts[CFSR_PELT_RT], 1);
	assert_true(h->counts[CFSR_PELT_SW] == NONE);
	assert_true(h->counts[CFSR_PELT_HDR] == NONE);
	assert_int_equal(h->sent, 8);
	assert_int_equal(h->dropped, 0);
	assert_int_equal(h->nr_cgroup_ids, 2);
	assert_int_equal(h->cgroup_ids[0].id, 1);
	assert_string_equal(h->cgroup_ids[0].path, "/");
	assert_int_equal(h->cgroup_ids[1].id, 773);
	assert_string_equal(h->cgroup_ids[1].path, "/cfsr07bf_ga");
}

static void check_pelt_items(struct cfsr_truth_reader *r)
{
	struct cfsr_truth_item it;
	const struct cfsr_pelt_rec *p = &it.pelt;

	assert_int_equal(cfsr_truth_format(r), CFSR_TRUTH_FMT_PELT);
	check_pelt_header(cfsr_truth_pelt_hdr(r));

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_PELT);
	assert_int_equal(p->type, CFSR_PELT_HDR);
	assert_ptr_equal(p->hdr, cfsr_truth_pelt_hdr(r));
	assert_string_equal(p->type_name, "hdr");
	assert_true(p->ktime == NONE);
	assert_int_equal(p->avg_fields, 0);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_SYNC);
	assert_null(p->hdr);
	assert_int_equal(p->n, 3);
	assert_int_equal(p->mono_before, 31933926250383);
	assert_int_equal(p->mono_after, 31933926253047);
	assert_int_equal(p->ok, 1);
	assert_int_equal(p->trace_ts, 31933956620987);
	assert_true(p->ktime == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_SW);
	assert_int_equal(p->ktime, 31933620000000);
	assert_int_equal(p->cpu, 1);
	assert_int_equal(p->prev_pid, 2575);
	assert_int_equal(p->next_pid, 0);
	assert_int_equal(p->trace_ts, 31933650370000);
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_SW);
	assert_true(p->trace_ts == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_SE);
	assert_string_equal(p->type_name, "se");
	assert_int_equal(p->ts, 31933650393332);
	assert_int_equal(p->ktime, 31933620024173);
	assert_int_equal(p->cpu, 0);
	assert_int_equal(p->pid, 2570);
	assert_int_equal(p->tid, 2571);
	assert_string_equal(p->comm, "wl1");
	assert_int_equal(p->parent_cg_id, 1);
	assert_int_equal(p->parent_autogroup, 11);
	assert_true(p->parent_root == NONE);
	assert_int_equal(p->depth, 1);
	assert_int_equal(p->on_rq, 1);
	assert_int_equal(p->sched_delayed, 0);
	assert_int_equal(p->weight, 1048576);
	assert_int_equal(p->exec_start, 31904308061396);
	assert_int_equal(p->sum_exec_runtime, 4170391);
	assert_int_equal(p->avg_fields, CFSR_AVG_ALL);
	assert_int_equal(p->avg.last_update_time, 31904308060160);
	assert_int_equal(p->avg.load_sum, 46906);
	assert_int_equal(p->avg.runnable_sum, 48033344);
	assert_int_equal(p->avg.util_sum, 47000000);
	assert_int_equal(p->avg.period_contrib, 583);
	assert_int_equal(p->avg.load_avg, 1006);
	assert_int_equal(p->avg.runnable_avg, 1006);
	assert_int_equal(p->avg.util_avg, 985);
	assert_int_equal(p->avg.util_est, 0);
	assert_int_equal(p->rq_cpu, 0);
	assert_int_equal(p->clock, 31933620020000);
	assert_int_equal(p->clock_task, 31904308070000);
	assert_int_equal(p->clock_pelt, 31904308060500);
	assert_int_equal(p->lost_idle_time, 77);
	assert_int_equal(p->rq_nr_running, 2);
	assert_int_equal(p->obj, 5);
	assert_int_equal(p->parent_obj, 2);
	assert_string_equal(p->parent_tg, "/autogroup-11");
	assert_null(p->tg);
	assert_true(p->level == NONE);
	assert_true(p->tg_load_avg == NONE);
	/* a line without the EEVDF keys */
	assert_true(p->vruntime == NONE && p->vlag == NONE && p->rel_deadline == NONE);
	assert_true(p->zero_vruntime == NONE && p->curr_weight == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_GSE);
	assert_int_equal(p->vruntime, -1048000);
	assert_int_equal(p->deadline, 1750000);
	assert_int_equal(p->vlag, -3000);
	assert_int_equal(p->slice, 2800000);
	assert_int_equal(p->rel_deadline, 0);
	assert_int_equal(p->curr, 1);
	assert_string_equal(p->tg, "/autogroup-11");
	assert_string_equal(p->parent_tg, "/");
	assert_int_equal(p->cg_id, 1);
	assert_int_equal(p->autogroup, 11);
	assert_int_equal(p->level, 1);
	assert_int_equal(p->nr_queued, 1);
	assert_int_equal(p->h_nr_queued, 1);
	assert_int_equal(p->h_nr_runnable, 1);
	assert_int_equal(p->parent_root, 1);
	assert_int_equal(p->weight, 817682);
	assert_int_equal(p->avg.load_sum, 3);
	assert_int_equal(p->avg.util_est, 10);
	assert_int_equal(p->obj, 2);
	assert_int_equal(p->parent_obj, 1);
	assert_true(p->pid == NONE);
	assert_string_equal(p->comm, "");

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_CFS);
	assert_string_equal(p->tg, "/cfsr07bf_ga");
	assert_int_equal(p->cg_id, 773);
	assert_true(p->autogroup == NONE);
	assert_true(p->root == NONE);
	assert_int_equal(p->weight, 2048);
	assert_int_equal(p->h_nr_idle, 0);
	assert_int_equal(p->tg_load_avg_contrib, 900);
	assert_int_equal(p->tg_load_avg, 1800);
	assert_int_equal(p->tg_shares, 1048576);
	assert_int_equal(p->propagate, 1);
	assert_int_equal(p->prop_runnable_sum, -46000);
	assert_int_equal(p->removed_nr, 1);
	assert_int_equal(p->removed_load_avg, 20);
	assert_int_equal(p->removed_util_avg, 21);
	assert_int_equal(p->removed_runnable_avg, 22);
	assert_int_equal(p->on_list, 1);
	assert_int_equal(p->zero_vruntime, 123456789);
	assert_int_equal(p->avg_vruntime, -2048);
	assert_int_equal(p->avg_load, 2048);
	assert_int_equal(p->curr_vruntime, 5);
	assert_int_equal(p->curr_weight, 1048576);
	assert_int_equal(p->avg.last_update_time, 31904308061184);
	assert_int_equal(p->avg.util_avg, 7);
	assert_int_equal(p->lost_idle_time, 12);
	assert_true(p->parent_obj == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_UE_SE);
	assert_int_equal(p->group, 1);
	assert_string_equal(p->comm, "wl0");
	assert_int_equal(p->avg_fields, CFSR_AVG_UTIL_EST);
	assert_int_equal(p->avg.util_est, UTIL_AVG_UNCHANGED | 300);
	assert_true(p->clock == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_UE_CFS);
	assert_int_equal(p->root, 1);
	assert_int_equal(p->level, 0);
	assert_string_equal(p->tg, "/");
	assert_int_equal(p->avg.util_est, 300);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_RT);
	assert_int_equal(p->avg_fields, CFSR_AVG_ALL);
	assert_int_equal(p->avg.last_update_time, 1024);
	assert_int_equal(p->avg.util_est, 8);
	assert_int_equal(p->rq_nr_running, 13);
	assert_true(p->obj == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(p->type, CFSR_PELT_OTHER);
	assert_string_equal(p->type_name, "dl");
	assert_int_equal(p->ktime, 31933620024741);
	assert_int_equal(it.line, 11);

	assert_int_equal(cfsr_truth_next(r, &it), 0);
	assert_int_equal(cfsr_truth_skipped(r), 0);
}

static void test_pelt_types(void **state)
{
	struct cfsr_truth_reader *r;
	char path[64];
	int gz;

	(void)state;
	capture_start();
	for (gz = 0; gz <= 1; gz++) {
		r = open_text(path, sizeof(path), pelt_text, gz);
		check_pelt_items(r);
		cfsr_truth_close(r);
		unlink(path);
	}
	capture_stop();
	assert_int_equal(nr_errors, 0);
	assert_string_equal(cfsr_pelt_type_name(CFSR_PELT_UE_CFS), "ue_cfs");
	assert_string_equal(cfsr_pelt_type_name(CFSR_PELT_NR), "?");
	assert_string_equal(cfsr_truth_kind_name(CFSR_TRUTH_CFS_RQ), "cfs_rq");
	assert_string_equal(cfsr_truth_kind_name((enum cfsr_truth_kind) - 1), "?");
}

/* ---- malformed lines ------------------------------------------------------------------------- */

static const char malformed_truth[] =
	"{\"seq\":1,\"kind\":\"snap\",\"ktime\":5}\n" /* 1 */
	"not json\n" /* 2 */
	"[1,2]\n" /* 3 */
	"{\"seq\":2}\n" /* 4: no kind */
	"{\"kind\":7}\n" /* 5 */
	"{\"kind\":\"task\",\"pid\":\"12\"}\n" /* 6 */
	"{\"kind\":\"task\",\"se.avg.util_sum\":4294967296}\n" /* 7: above u32 */
	"{\"kind\":\"task\",\"se.avg.load_avg\":-1}\n" /* 8 */
	"{\"kind\":\"cpu\",\"clock\":9223372036854775808}\n" /* 9: above int64 */
	"{\"kind\":\"cpu\",\"clock\":-9223372036854775808}\n" /* 10: the absent marker */
	"{\"kind\":\"cpu\",\"clock\":1} x\n" /* 11 */
	"{\"kind\":\"cfs_rq\",\"path\":5}\n" /* 12 */
	"{\"kind\":\"cpu\",\"clock\":5.5}\n" /* 13 */
	"{\"kind\":\"cpu\",\"clock\":{}}\n" /* 14 */
	"{\"kind\":\"task\",\"state\":1}\n" /* 15 */
	"{\"kind\":\"cpu\",\"clock\n" /* 16: cut */
	"{\"seq\":1,\"kind\":\"cpu\",\"clock\":null,\"clock_task\":6.0,"
	"\"nr_running\":true,\"cpu\":1}\n" /* 17 */
	"{\"seq\":1,\"kind\":\"task\",\"se.avg.util_sum\":4294967295,"
	"\"se.avg.load_sum\":18446744073709551615}\n"; /* 18 */

static void test_malformed_lines(void **state)
{
	struct cfsr_truth_reader *r;
	struct cfsr_truth_item it;
	char path[64];

	(void)state;
	capture_start();
	r = open_text(path, sizeof(path), malformed_truth, false);
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_SNAP);
	assert_int_equal(it.snap.ktime, 5);
	assert_true(it.snap.jiffies == NONE);

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.line, 17);
	assert_int_equal(it.kind, CFSR_TRUTH_CPU);
	assert_true(it.cpu.clock == NONE);
	assert_int_equal(it.cpu.clock_task, 6);
	assert_int_equal(it.cpu.nr_running, 1);
	assert_int_equal(cfsr_truth_skipped(r), 15);
	assert_non_null(cfsr_truth_skip_reason(r));
	assert_non_null(strstr(cfsr_truth_skip_reason(r), "line 2: invalid JSON"));
	assert_non_null(strstr(cfsr_truth_skip_reason(r), path));

	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_TASK);
	assert_int_equal(it.task.avg.util_sum, UINT32_MAX);
	assert_true(it.task.avg.load_sum == UINT64_MAX);
	assert_int_equal(it.task.avg_fields, CFSR_AVG_UTIL_SUM | CFSR_AVG_LOAD_SUM);

	assert_int_equal(cfsr_truth_next(r, &it), 0);
	assert_int_equal(cfsr_truth_skipped(r), 15);
	cfsr_truth_close(r);
	unlink(path);

	/* pelt.jsonl: a second header and a line without a type */
	r = open_text(path, sizeof(path),
		      "{\"type\":\"hdr\"}\n{\"type\":\"hdr\"}\n{\"ktime\":1}\n"
		      "{\"type\":\"se\",\"ktime\":2,\"weight\":\"x\"}\n"
		      "{\"type\":\"se\",\"ktime\":3}\n",
		      true);
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.pelt.type, CFSR_PELT_HDR);
	assert_true(it.pelt.hdr->offset_ns == NONE);
	assert_null(it.pelt.hdr->format);
	assert_int_equal(it.pelt.hdr->nr_cgroup_ids, 0);
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.pelt.type, CFSR_PELT_SE);
	assert_int_equal(it.pelt.ktime, 3);
	assert_int_equal(cfsr_truth_skipped(r), 3);
	assert_non_null(strstr(cfsr_truth_skip_reason(r), "line 2: header"));
	assert_int_equal(cfsr_truth_next(r, &it), 0);
	cfsr_truth_close(r);
	unlink(path);

	capture_stop();
	assert_int_equal(nr_errors, 0);
}

/* A line much longer than the reader's block, and a NUL byte inside a line. */
static void test_long_line(void **state)
{
	static const char head[] = "{\"seq\":1,\"kind\":\"task\",\"cgroup_cpu\":\"/";
	static const char tail[] = "\",\"pid\":9}\n{\"seq\":2,\"kind\":\"c\0u\"}\n{\"seq\":3,"
				   "\"kind\":\"cpu\"}\n";
	size_t name = 200000, len = sizeof(head) - 1 + name + sizeof(tail) - 1;
	struct cfsr_truth_reader *r;
	struct cfsr_truth_item it;
	char *text, path[64];

	(void)state;
	text = malloc(len);
	assert_non_null(text);
	memcpy(text, head, sizeof(head) - 1);
	memset(text + sizeof(head) - 1, 'g', name);
	memcpy(text + sizeof(head) - 1 + name, tail, sizeof(tail) - 1);
	temp_path(path, sizeof(path));
	write_gz(path, text, len);
	free(text);

	r = cfsr_truth_open(path);
	assert_non_null(r);
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.kind, CFSR_TRUTH_TASK);
	assert_int_equal(strlen(it.task.cgroup_cpu), name + 1);
	assert_int_equal(it.task.pid, 9);
	assert_int_equal(cfsr_truth_next(r, &it), 1);
	assert_int_equal(it.cpu.seq, 3);
	assert_int_equal(it.line, 3);
	assert_int_equal(cfsr_truth_skipped(r), 1);
	assert_non_null(strstr(cfsr_truth_skip_reason(r), "line 2: NUL byte"));
	assert_int_equal(cfsr_truth_next(r, &it), 0);
	cfsr_truth_close(r);
	unlink(path);
}

/* A line beyond the reader's limit ends the reading instead of growing memory without bound. */
static void test_line_limit(void **state)
{
	size_t len = (17U << 20) + 16;
	char *text, path[64];

	(void)state;
	text = malloc(len);
	assert_non_null(text);
	memset(text, 'a', len);
	memcpy(text, "{\"kind\":\"", 9);
	temp_path(path, sizeof(path));
	write_gz(path, text, len);
	free(text);
	capture_start();
	assert_null(cfsr_truth_open(path));
	capture_stop();
	assert_int_equal(nr_errors, 1);
	assert_non_null(strstr(last_error, "line 1 is longer than 16777216 bytes"));
	unlink(path);
}

/* ---- files that cannot be read --------------------------------------------------------------- */

/* Opening @text (written plain or compressed) fails with a message containing @expect. */
static void check_refused(const char *text, bool gz, const char *expect)
{
	char path[64];

	temp_path(path, sizeof(path));
	if (gz)
		write_gz(path, text, strlen(text));
	else
		write_plain(path, text, strlen(text));
	capture_start();
	assert_null(cfsr_truth_open(path));
	capture_stop();
	assert_int_equal(nr_errors, 1);
	if (!strstr(last_error, expect))
		fail_msg("'%s' does not contain '%s'", last_error, expect);
	assert_non_null(strstr(last_error, path));
	unlink(path);
}

static void test_open_errors(void **state)
{
	static const char bad_hdr[] = "{\"type\":\"hdr\",\"clock\":{\"offset_ns\":\"1\"}}\n";
	static const char bad_ids[] = "{\"type\":\"hdr\",\"cgroup_ids\":{\"x\":\"/\"}}\n";
	char dir[] = "/tmp/cfsr-truth-dir-XXXXXX";

	(void)state;
	capture_start();
	assert_null(cfsr_truth_open("/nonexistent/truth.jsonl"));
	assert_int_equal(nr_errors, 1);
	assert_non_null(strstr(last_error, "cannot open '/nonexistent/truth.jsonl'"));
	assert_non_null(mkdtemp(dir));
	assert_null(cfsr_truth_open(dir));
	assert_non_null(strstr(last_error, "is a directory"));
	rmdir(dir);
	capture_stop();

	check_refused("", false, "file is empty");
	check_refused("", true, "file is empty");
	check_refused("\n  \n\n", false, "file is empty");
	check_refused("hello\n{\"kind\":\"snap\"}\n", false,
		      "not a truth.jsonl or pelt.jsonl file (line 1: invalid JSON");
	check_refused("\n[]\n", true, "(line 2: not a JSON object)");
	check_refused("{\"type\":\"se\",\"ktime\":1}\n", true,
		      "neither \"kind\" nor \"type\": \"hdr\"");
	check_refused("{\"kind\":\"sn", false, "line 1: incomplete JSON value");
	check_refused(bad_hdr, true,
		      "line 1: bad pelt.jsonl header: member 'offset_ns' is not an integer");
	check_refused(bad_ids, false, "'x' is not a cgroup id");
}

/* ---- truncation and corruption --------------------------------------------------------------- */

#define NR_TRUNC_LINES 3000

static char *many_lines(size_t *len)
{
	size_t alloc = NR_TRUNC_LINES * 160, n = 0;
	char *text = malloc(alloc);
	int i;

	assert_non_null(text);
	for (i = 0; i < NR_TRUNC_LINES; i++) {
		/* varied digits so that the data does not compress to nothing */
		n += (size_t)snprintf(text + n, alloc - n,
				      "{\"seq\":%d,\"kind\":\"cpu\",\"cpu\":%d,\"clock\":%lld,"
				      "\"clock_task\":%lld}\n",
				      i, i % 7, 29402350829501LL + 7919LL * i * i,
				      (long long)((i * 2654435761U) % 1000003U));
	}
	*len = n;
	return text;
}

/* Read @path to its end; return the result of the last cfsr_truth_next() and count items. */
static int read_to_end(const char *path, int *items)
{
	struct cfsr_truth_reader *r = cfsr_truth_open(path);
	struct cfsr_truth_item it;
	int ret;

	*items = 0;
	if (!r)
		return -2;
	while ((ret = cfsr_truth_next(r, &it)) == 1)
		(*items)++;
	if (ret < 0)
		assert_int_equal(cfsr_truth_next(r, &it), -1);
	cfsr_truth_close(r);
	return ret;
}

static void test_truncated_gzip(void **state)
{
	size_t text_len, gz_len, cut;
	char path[64], *text, *gz;
	int ret, items, i;

	(void)state;
	text = many_lines(&text_len);
	temp_path(path, sizeof(path));
	write_gz(path, text, text_len);
	gz = read_whole(path, &gz_len);
	assert_true(gz_len > 4096);

	capture_start();
	assert_int_equal(read_to_end(path, &items), 0);
	assert_int_equal(items, NR_TRUNC_LINES);
	assert_int_equal(nr_errors, 0);

	/* cut anywhere, down to one byte short: always an error, never a quiet end */
	for (i = 0; i < 40; i++) {
		cut = i < 30 ? gz_len * (size_t)(i + 1) / 31 : gz_len - (size_t)(i - 29);
		write_plain(path, gz, cut);
		nr_errors = 0;
		ret = read_to_end(path, &items);
		if (ret == 0)
			fail_msg("cut at %zu of %zu bytes: quiet end after %d items", cut, gz_len,
				 items);
		assert_int_equal(nr_errors, 1);
		if (!strstr(last_error, "file truncated (gzip data ends early)"))
			fail_msg("cut at %zu of %zu bytes: '%s'", cut, gz_len, last_error);
		assert_true(items < NR_TRUNC_LINES || i >= 30);
	}

	/* one damaged byte in the compressed data */
	gz[gz_len / 2] ^= 0x5a;
	write_plain(path, gz, gz_len);
	nr_errors = 0;
	assert_true(read_to_end(path, &items) < 0);
	assert_int_equal(nr_errors, 1);
	assert_true(strstr(last_error, "corrupt gzip data") || strstr(last_error, "truncated"));
	capture_stop();

	unlink(path);
	free(gz);
	free(text);
}

static void test_truncated_plain(void **state)
{
	static const char text[] = "{\"seq\":1,\"kind\":\"snap\"}\n"
				   "{\"seq\":1,\"kind\":\"cpu\",\"cl";
	char path[64];
	int items;

	(void)state;
	temp_path(path, sizeof(path));
	write_plain(path, text, sizeof(text) - 1);
	capture_start();
	assert_int_equal(read_to_end(path, &items), -1);
	capture_stop();
	assert_int_equal(items, 1);
	assert_int_equal(nr_errors, 1);
	assert_non_null(strstr(last_error, "line 2: file truncated (incomplete last line"));
	unlink(path);
}

/* ---- the recorded files ---------------------------------------------------------------------- */

static const char *traces_dir(char *buf, size_t len)
{
	const char *src = getenv("CFSR_SRCDIR");

	snprintf(buf, len, "%s/../shared/traces", src ? src : ".");
	return buf;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

#define TAGS_MAX ((int)CFSR_PELT_NR > (int)CFSR_TRUTH_NR ? (int)CFSR_PELT_NR : (int)CFSR_TRUTH_NR)

/* Independent counts: lines read with zlib, and substring matches per tag. */
struct tag_counts {
	uint64_t lines;
	/* indexed by pelt type or truth kind, whichever the file has */
	uint64_t tags[TAGS_MAX];
	char first_line[4096];
};

static void count_lines(const char *path, const char *const *tags, int nr_tags,
			struct tag_counts *c)
{
	static char line[1 << 16];
	gzFile gz = gzopen(path, "rb");
	int i, err;

	assert_non_null(gz);
	memset(c, 0, sizeof(*c));
	while (gzgets(gz, line, sizeof(line))) {
		/* every line of these files is short and ends with a newline */
		assert_true(strlen(line) > 0 && line[strlen(line) - 1] == '\n');
		if (!c->lines)
			snprintf(c->first_line, sizeof(c->first_line), "%s", line);
		c->lines++;
		for (i = 0; i < nr_tags; i++) {
			if (tags[i] && strstr(line, tags[i]))
				c->tags[i]++;
		}
	}
	gzerror(gz, &err);
	assert_int_equal(err, Z_OK);
	gzclose(gz);
}

static const char *const truth_tags[CFSR_TRUTH_NR] = {
	[CFSR_TRUTH_SNAP] = "\"kind\":\"snap\",",
	[CFSR_TRUTH_TASK] = "\"kind\":\"task\",",
	[CFSR_TRUTH_CFS_RQ] = "\"kind\":\"cfs_rq\",",
	[CFSR_TRUTH_CPU] = "\"kind\":\"cpu\",",
};

static void check_truth_file(const char *path)
{
	uint64_t got[CFSR_TRUTH_NR] = { 0 }, total = 0;
	struct cfsr_truth_reader *r;
	struct cfsr_truth_item it;
	struct tag_counts c;
	int64_t seq = NONE;
	int ret, k;

	count_lines(path, truth_tags, CFSR_TRUTH_NR, &c);
	r = cfsr_truth_open(path);
	assert_non_null(r);
	assert_int_equal(cfsr_truth_format(r), CFSR_TRUTH_FMT_SNAPSHOTS);
	while ((ret = cfsr_truth_next(r, &it)) == 1) {
		got[it.kind]++;
		total++;
		switch (it.kind) {
		case CFSR_TRUTH_SNAP:
			/* snapshot numbers grow, and each snapshot's rows follow its line */
			assert_true(seq == NONE || it.snap.seq > seq);
			seq = it.snap.seq;
			assert_true(it.snap.trace_ts_begin <= it.snap.trace_ts_mid);
			assert_true(it.snap.trace_ts_mid <= it.snap.trace_ts_end);
			break;
		case CFSR_TRUTH_TASK:
			assert_int_equal(it.task.seq, seq);
			/* sched prints no period_contrib */
			assert_int_equal(it.task.avg_fields,
					 CFSR_AVG_ALL & ~CFSR_AVG_PERIOD_CONTRIB);
			assert_true(it.task.avg.util_avg <= SCHED_CAPACITY_SCALE);
			assert_true(it.task.state != '\0');
			assert_true(it.task.comm[0] != '\0');
			if (it.task.policy == 0 || it.task.policy == 3)
				assert_int_equal(it.task.weight,
						 cfsr_nice_to_load_weight((int)it.task.nice));
			break;
		case CFSR_TRUTH_CFS_RQ:
			assert_int_equal(it.cfs_rq.seq, seq);
			assert_non_null(it.cfs_rq.path);
			assert_int_equal(it.cfs_rq.avg_fields, CFSR_AVG_AVERAGES);
			/* only group cfs_rqs have an entity */
			assert_int_equal(it.cfs_rq.has_se, strcmp(it.cfs_rq.path, "/") != 0);
			break;
		case CFSR_TRUTH_CPU:
			assert_int_equal(it.cpu.seq, seq);
			assert_true(it.cpu.clock_task <= it.cpu.clock);
			break;
		case CFSR_TRUTH_OTHER:
			assert_int_equal(it.other.seq, seq);
			break;
		default:
			fail_msg("unexpected item kind %d", it.kind);
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(cfsr_truth_skipped(r), 0);
	cfsr_truth_close(r);

	assert_int_equal(total, c.lines);
	for (k = 0; k < CFSR_TRUTH_NR; k++) {
		if (truth_tags[k])
			assert_int_equal(got[k], c.tags[k]);
	}
	assert_int_equal(got[CFSR_TRUTH_OTHER],
			 c.lines - c.tags[CFSR_TRUTH_SNAP] - c.tags[CFSR_TRUTH_TASK] -
				 c.tags[CFSR_TRUTH_CFS_RQ] - c.tags[CFSR_TRUTH_CPU]);
	print_message("%s: %" PRIu64 " lines:", path, total);
	for (k = 0; k < CFSR_TRUTH_PELT; k++)
		print_message(" %" PRIu64 " %s", got[k], cfsr_truth_kind_name(k));
	print_message("\n");
}

static const char *const pelt_tags[CFSR_PELT_NR] = {
#define X(type, name) [type] = "\"type\":\"" name "\",",
	CFSR_PELT_TYPES
#undef X
};

/* Entries of the header's cgroup_ids map, counted by hand: one ':' each. */
static size_t count_cgroup_ids(const char *line)
{
	const char *p = strstr(line, "\"cgroup_ids\":{");
	size_t n = 0;

	assert_non_null(p);
	for (p += strlen("\"cgroup_ids\":{"); *p && *p != '}'; p++)
		n += *p == ':';
	return n;
}

static void check_pelt_file(const char *path)
{
	uint64_t got[CFSR_PELT_NR] = { 0 }, total = 0, records = 0;
	int64_t last_ktime = NONE, last_sw_ktime = NONE;
	const struct cfsr_pelt_hdr *h;
	struct cfsr_truth_reader *r;
	struct cfsr_truth_item it;
	const struct cfsr_pelt_rec *p = &it.pelt;
	struct tag_counts c;
	int ret, t;

	count_lines(path, pelt_tags, CFSR_PELT_NR, &c);
	r = cfsr_truth_open(path);
	assert_non_null(r);
	assert_int_equal(cfsr_truth_format(r), CFSR_TRUTH_FMT_PELT);
	h = cfsr_truth_pelt_hdr(r);
	assert_non_null(h);
	assert_true(h->offset_ns != NONE);
	assert_int_equal(h->nr_cgroup_ids, count_cgroup_ids(c.first_line));
	while ((ret = cfsr_truth_next(r, &it)) == 1) {
		assert_int_equal(it.kind, CFSR_TRUTH_PELT);
		assert_true(p->type != CFSR_PELT_OTHER);
		got[p->type]++;
		total++;
		switch (p->type) {
		case CFSR_PELT_HDR:
			assert_int_equal(it.line, 1);
			break;
		case CFSR_PELT_SYNC:
			assert_true(p->mono_before <= p->mono_after);
			break;
		case CFSR_PELT_SW:
			assert_true(last_sw_ktime == NONE || p->ktime >= last_sw_ktime);
			last_sw_ktime = p->ktime;
			break;
		default:
			records++;
			assert_int_equal(p->ts, p->ktime + h->offset_ns);
			if (last_ktime != NONE && p->ktime < last_ktime)
				fail_msg("%s line %" PRId64 ": ktime %" PRId64 " before %" PRId64,
					 path, it.line, p->ktime, last_ktime);
			last_ktime = p->ktime;
			assert_int_equal(p->avg_fields, CFSR_AVG_ALL);
			assert_true(p->avg.period_contrib < 1024);
			if (p->type == CFSR_PELT_SE) {
				assert_true(p->avg.util_avg <= SCHED_CAPACITY_SCALE);
				assert_true(p->pid != NONE && p->tid != NONE);
			}
			break;
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(cfsr_truth_skipped(r), 0);

	assert_int_equal(total, c.lines);
	for (t = 0; t < CFSR_PELT_OTHER; t++) {
		assert_int_equal(got[t], c.tags[t]);
		/* the recorder's own counts */
		if (t >= CFSR_PELT_SE)
			assert_int_equal(got[t], h->counts[t]);
	}
	assert_int_equal(got[CFSR_PELT_HDR], 1);
	/* the BPF program sent the records and the switches */
	assert_int_equal(h->sent, records + got[CFSR_PELT_SW]);
	print_message("%s: %" PRIu64 " lines:", path, total);
	for (t = CFSR_PELT_SYNC; t < CFSR_PELT_OTHER; t++)
		print_message(" %" PRIu64 " %s", got[t], cfsr_pelt_type_name(t));
	print_message("; offset %" PRId64 " +- %" PRId64 " ns, %zu cgroup ids\n", h->offset_ns,
		      h->precision_ns, h->nr_cgroup_ids);
	cfsr_truth_close(r);
}

static void test_shared_traces(void **state)
{
	static const char *const pelt_names[] = { "pelt.jsonl.gz", "pelt.jsonl" };
	char dir[4096], path[4096 + 512];
	int nr_truth = 0, nr_pelt = 0;
	struct dirent *de;
	size_t i;
	DIR *d;

	(void)state;
	traces_dir(dir, sizeof(dir));
	d = opendir(dir);
	if (!d) {
		print_message("skipped: no recorded traces in '%s'\n", dir);
		skip();
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/truth.jsonl", dir, de->d_name);
		if (is_file(path)) {
			check_truth_file(path);
			nr_truth++;
		}
		for (i = 0; i < sizeof(pelt_names) / sizeof(pelt_names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name, pelt_names[i]);
			if (is_file(path)) {
				check_pelt_file(path);
				nr_pelt++;
			}
		}
	}
	closedir(d);
	if (!nr_truth && !nr_pelt) {
		print_message("skipped: no truth.jsonl or pelt.jsonl under '%s'\n", dir);
		skip();
	}
	print_message("read %d truth.jsonl and %d pelt.jsonl files\n", nr_truth, nr_pelt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truth_kinds),	cmocka_unit_test(test_pelt_types),
		cmocka_unit_test(test_malformed_lines), cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_line_limit),	cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_truncated_gzip),	cmocka_unit_test(test_truncated_plain),
		cmocka_unit_test(test_shared_traces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

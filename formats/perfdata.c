// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data reader: `perf record` files of tracepoints ("PERFILE2", either
 * byte order, seekable or pipe mode, records optionally compressed with
 * zstd by `perf record -z`), built on libtraceevent.
 *
 * The layout is the one tools/perf/Documentation/perf.data-file-format.txt
 * and include/uapi/linux/perf_event.h describe: a header, the event
 * attributes with their sample ids, a data section of records, and
 * feature sections after it.  The HEADER_TRACING_DATA feature (or, in pipe
 * mode, the PERF_RECORD_HEADER_TRACING_DATA record) holds the tracepoint
 * formats with the layout of a trace.dat version 6 metadata block, so they
 * are parsed by td_meta_load() like a trace.dat file's.  Of the other
 * features the reader takes HOSTNAME, OSRELEASE and ARCH (info.uname, in
 * the "Linux HOST RELEASE ARCH" form trace-cmd shows for a trace.dat),
 * NRCPUS, COMPRESSED, CLOCK_DATA (the clock, when -k chose one) and
 * CPU_TOPOLOGY (info.topo, the structure the recorder's metadata gives a
 * trace.dat) and CACHE (info.caches, the caches and the CPUs sharing each,
 * from which the comparators take the LLC spans); the NUMA topology,
 * command line and the rest are skipped, as no consumer uses them.
 *
 * Each PERF_RECORD_SAMPLE is located in its attribute's sample layout
 * (every sample_type bit the kernel can set is stepped over by its size);
 * its RAW payload is the tracepoint record, decoded with fields resolved
 * once per event type from the file's formats, as the trace.dat reader
 * does (the decoders repeat that reader's, which are private to it).
 * PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES become CFSR_EV_LOST
 * notices; a record that does not fit, or a compressed block that does not
 * decompress, ends the readable data with a notice without a count and is
 * counted in stats.bad_pages.  COMM, FORK, EXIT, MMAP and perf's other
 * bookkeeping records carry nothing the scheduler events need: the sched
 * and cgroup tracepoints say the same, with the kernel's own timestamps.
 * Records of types no perf writes are counted as unknown records.
 *
 * Cgroups.  PERF_RECORD_CGROUP (u64 id, path) names a cgroup: perf writes
 * one per cgroup that exists when it starts, the kernel one per cgroup
 * made while it runs (perf_event_cgroup(), from the perf_event
 * controller's css_online).  A sample with PERF_SAMPLE_CGROUP carries the
 * id of the cgroup of the task that was current (perf_prepare_sample():
 * cgroup_id() of current's perf_event css).  Both are of the hierarchy
 * the perf_event controller is bound to: the v2 default hierarchy unless
 * perf_event is mounted on v1.  They are listed in info.cgroups and
 * info.task_cgroups, and not taken as the cpu controller's task groups
 * (see PD_CGROUP_MEMBERSHIP below) unless the user says they are
 * (--perf-cgroups=cpu, cmd/perfgroups.c): for that each sample's id also
 * goes with its event (cfsr_event.cgroup_id).
 *
 * Time order.  perf writes each CPU's ring buffer out in turn, so records
 * are ordered only per CPU; after each pass over the buffers it writes a
 * PERF_RECORD_FINISHED_ROUND.  Every record after the end of round N is
 * later than every record up to the end of round N - 1, so at the end of
 * round N the reader releases, in time order, the buffered events no
 * later than the last timestamp of round N - 1.  At most two rounds are
 * held, decoded (about 110 bytes an event), never the whole file.  A file
 * without rounds (or with a round larger than PD_MAX_QUEUE events) is
 * released oldest first whenever PD_MAX_QUEUE events are waiting, down to
 * half that, so memory stays bounded in any case (about 60 MB).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <zstd.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"
#include "pidmap.h"
#include "topology.h"
#include "tracedat-local.h"

/* ---- the file format ---------------------------------------------------------- */

/* struct perf_file_header; the pipe-mode header is its first 16 bytes */
#define PD_FILE_HEADER_SIZE 104
#define PD_PIPE_HEADER_SIZE 16
/* the size of perf_event_attr's first published version */
#define PD_ATTR_SIZE_VER0 64

/* perf_event_header.type: the kernel's records, then perf's own */
enum {
	PD_REC_LOST = 2,
	PD_REC_COMM = 3,
	PD_REC_EXIT = 4,
	PD_REC_FORK = 7,
	PD_REC_SAMPLE = 9,
	PD_REC_LOST_SAMPLES = 13,
	PD_REC_CGROUP = 19,
	PD_REC_HEADER_ATTR = 64,
	PD_REC_HEADER_TRACING_DATA = 66,
	PD_REC_FINISHED_ROUND = 68,
	PD_REC_AUXTRACE = 71,
	PD_REC_HEADER_FEATURE = 80,
	PD_REC_COMPRESSED = 81,
	/* perf 6.16 on: like COMPRESSED, with the compressed size before the data */
	PD_REC_COMPRESSED2 = 83,
};

/*
 * The record types known to this reader: the kernel's up to
 * PERF_RECORD_AUX_OUTPUT_HW_ID (21) and PERF_RECORD_CALLCHAIN_DEFERRED
 * (22, Linux 6.17), perf's own from PERF_RECORD_HEADER_ATTR up to
 * PERF_RECORD_BPF_METADATA (84, perf 6.16).  Any other type is a record
 * of a later perf or kernel, or damage: it is skipped by its size and
 * counted as an unknown record, never dropped unseen, as it may have
 * been a sample.
 */
#define PD_REC_KERNEL_LAST 22
#define PD_REC_USER_FIRST 64
#define PD_REC_USER_LAST 84

/* perf_event_attr.sample_type */
enum {
	PD_SAMPLE_IP = 1u << 0,
	PD_SAMPLE_TID = 1u << 1,
	PD_SAMPLE_TIME = 1u << 2,
	PD_SAMPLE_ADDR = 1u << 3,
	PD_SAMPLE_READ = 1u << 4,
	PD_SAMPLE_CALLCHAIN = 1u << 5,
	PD_SAMPLE_ID = 1u << 6,
	PD_SAMPLE_CPU = 1u << 7,
	PD_SAMPLE_PERIOD = 1u << 8,
	PD_SAMPLE_STREAM_ID = 1u << 9,
	PD_SAMPLE_RAW = 1u << 10,
	PD_SAMPLE_BRANCH_STACK = 1u << 11,
	PD_SAMPLE_REGS_USER = 1u << 12,
	PD_SAMPLE_STACK_USER = 1u << 13,
	PD_SAMPLE_WEIGHT = 1u << 14,
	PD_SAMPLE_DATA_SRC = 1u << 15,
	PD_SAMPLE_IDENTIFIER = 1u << 16,
	PD_SAMPLE_TRANSACTION = 1u << 17,
	PD_SAMPLE_REGS_INTR = 1u << 18,
	PD_SAMPLE_PHYS_ADDR = 1u << 19,
	PD_SAMPLE_AUX = 1u << 20,
	PD_SAMPLE_CGROUP = 1u << 21,
	PD_SAMPLE_DATA_PAGE_SIZE = 1u << 22,
	PD_SAMPLE_CODE_PAGE_SIZE = 1u << 23,
	PD_SAMPLE_WEIGHT_STRUCT = 1u << 24,
};

/* the fields struct sample_id (the sample_id_all trailer) can hold */
#define PD_SAMPLE_ID_ALL_BITS                                                                  \
	(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | \
	 PD_SAMPLE_IDENTIFIER)

/* perf_event_attr.read_format */
enum {
	PD_FORMAT_TOTAL_TIME_ENABLED = 1u << 0,
	PD_FORMAT_TOTAL_TIME_RUNNING = 1u << 1,
	PD_FORMAT_ID = 1u << 2,
	PD_FORMAT_GROUP = 1u << 3,
	PD_FORMAT_LOST = 1u << 4,
};

/* perf_event_attr.branch_sample_type bits that add to a sample */
#define PD_BRANCH_HW_INDEX (1ull << 17)
#define PD_BRANCH_COUNTERS (1ull << 19)

/* bits of the perf_event_attr flags word, in little-endian bit-field order */
#define PD_ATTR_SAMPLE_ID_ALL 18
#define PD_ATTR_USE_CLOCKID 25

#define PD_TYPE_TRACEPOINT 2

/* feature bits of the file header (HEADER_*) */
enum {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_CACHE = 20,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CLOCK_DATA = 29,
	PD_FEAT_BITS = 256,
};

/*
 * What a file's cgroup ids name, and why they are not taken as the cpu
 * controller's task groups: perf_event's hierarchy is the v2 one unless
 * perf_event is mounted on v1, and nothing in the file says where the cpu
 * controller is.  Where it is on v2 too, a task's cpu group is the nearest
 * of its cgroup and their ancestors that has the cpu controller enabled,
 * which the file does not say either.
 */
#define PD_CGROUP_HIERARCHY \
	"the perf_event controller's (cgroup v2 unless perf_event is mounted on v1)"
#define PD_CGROUP_MEMBERSHIP                                                                     \
	"unknown: the file does not say which hierarchy holds the cpu controller, nor in which " \
	"of these cgroups it is enabled (--perf-cgroups=cpu of signals, report, validate and "   \
	"compare takes them as "                                                                 \
	"the task groups, on the user's word)"

/* HEADER_COMPRESSED.type */
#define PD_COMP_ZSTD 1

/* ---- limits ------------------------------------------------------------------------- */

/*
 * Events waiting for their round to end; see the file comment.  A little
 * under a power of two, the size the queue's array grows to.
 */
#define PD_MAX_QUEUE ((1u << 19) - 16)
/* the file is read through a window this large (a record is at most 64 KiB) */
#define PD_RBUF_SIZE (1u << 20)
/* one compressed record decompresses to at most this much */
#define PD_MAX_DECOMP (64u << 20)
#define PD_DECOMP_STEP (256u << 10)
/* attribute tables, id lists and small feature sections larger than this are corrupt */
#define PD_MAX_META (64u << 20)
/* CPU numbers from a sample at or above this are corrupt */
#define PD_MAX_CPUS 8192

/* What the reader uses of a perf_event_attr. */
struct pd_attr {
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t regs_user;
	uint64_t regs_intr;
	bool sample_id_all;
	bool use_clockid;
	int32_t clockid;
	/* index in the type table of its tracepoint, -1 if none */
	int type_idx;
};

/* A sample id and the attribute it belongs to. */
struct pd_id {
	uint64_t id;
	int attr;
};

/* The fields of a sample, or of a sample_id trailer, that the reader uses. */
struct pd_sample {
	uint64_t id;
	uint64_t time;
	uint32_t tid;
	uint32_t cpu;
	uint64_t cgroup;
	const unsigned char *raw;
	uint32_t raw_size;
	bool has_time;
	bool has_cpu;
	bool has_tid;
	bool has_cgroup;
};

/*
 * A decoded event waiting for its turn.  Samples that are counted but not
 * delivered (unknown types, malformed records) wait too, so that the
 * first and last timestamps follow time order.
 */
struct pd_item {
	struct cfsr_event ev;
	uint64_t seq;
	/* owned copy of the string the event borrows, or NULL */
	char *str;
	/* a sample to count, not to deliver */
	bool skip;
};

struct pd_reader {
	const char *path;
	int fd;
	uint64_t file_size;
	bool big_endian;

	/* the record stream is [data_off, data_end) of the file */
	uint64_t data_off;
	uint64_t data_end;
	/* offset of the next record, and of the current one */
	uint64_t pos;
	uint64_t rec_off;
	/* pipe mode: header records before this offset were read at open */
	uint64_t prescan_end;
	unsigned char *rbuf;
	size_t rbuf_len;
	uint64_t rbuf_off;

	struct pd_attr *attrs;
	size_t nr_attrs;
	size_t attrs_alloc;
	/* sorted by id */
	struct pd_id *ids;
	size_t nr_ids;
	size_t ids_alloc;

	/* the tracing data: where it is, and its formats */
	uint64_t tracing_off;
	uint64_t tracing_len;
	bool has_tracing;
	struct td_layout meta;
	struct tep_handle *tep;
	/* the tracepoint decoders of the file's event types */
	struct td_decoder dec;

	char *release;
	char *hostname;
	char *arch;
	/* "Linux HOSTNAME RELEASE ARCH", as trace-cmd shows a trace.dat's uname */
	char *uname;
	const char *clock;
	int clock_data_id;
	int nr_cpus;
	bool nr_cpus_known;
	/* NRCPUS' first number: CPU_TOPOLOGY has an entry per CPU up to it */
	uint32_t nr_cpus_avail;
	/* the CPU_TOPOLOGY section, kept until NRCPUS is known, then parsed */
	unsigned char *topo_raw;
	size_t topo_raw_len;
	struct cfsr_cpu_topo *topo;
	int nr_topo;
	/* the sibling lists the topology's CPUs point into */
	char **topo_strs;
	size_t nr_topo_strs;
	size_t topo_strs_alloc;
	/* the CACHE section, parsed at the end of the header; its caches (strings in topo_strs) */
	unsigned char *cache_raw;
	size_t cache_raw_len;
	struct cfsr_cpu_cache *caches;
	size_t nr_caches;
	/* HEADER_COMPRESSED's algorithm, 0 when none */
	uint32_t comp_type;

	/* decompressed records of COMPRESSED blocks; a record may span blocks */
	ZSTD_DStream *zds;
	unsigned char *dbuf;
	size_t dbuf_len;
	size_t dbuf_pos;
	size_t dbuf_alloc;
	bool zstd_broken;

	/* min-heap of waiting events by (ts, seq) */
	struct pd_item *heap;
	size_t heap_len;
	size_t heap_alloc;
	uint64_t seq;
	/* latest timestamp read, and at the end of the previous round */
	uint64_t max_ts;
	uint64_t round_max;
	/* waiting events no later than this may go */
	uint64_t limit;
	/* PD_MAX_QUEUE events were waiting: the oldest go, down to half that */
	bool draining;
	bool eof;

	/* events lost per LOST records, and per perf's end-of-run summary */
	uint64_t lost_records;
	uint64_t lost_summary;
	uint64_t bad;
	/* CGROUP records: id -> path, one entry per id (the latest path) */
	struct cfsr_cgroup_name *cgroups;
	size_t nr_cgroups;
	size_t cgroups_alloc;
	/* (tid, cgroup id) pairs of the samples; per tid (task_cg_map) its latest id */
	struct cfsr_task_cgroup *task_cg;
	size_t nr_task_cg;
	size_t task_cg_alloc;
	struct cfsr_pidmap task_cg_map;
	uint64_t *task_last;
	size_t nr_task_last;
	size_t task_last_alloc;
	/* a timestamp was delivered: stats.first_ts is set */
	bool ts_seen;

	/* the delivered event's string */
	char *cur_str;
};

/* ---- numbers in the file's byte order ---------------------------------------------- */

static uint64_t rd_num(const struct pd_reader *r, const unsigned char *p, unsigned int len)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < len; i++)
		v = (v << 8) | p[r->big_endian ? i : len - 1 - i];
	return v;
}

static uint32_t rd32(const struct pd_reader *r, const unsigned char *p)
{
	return (uint32_t)rd_num(r, p, 4);
}

static uint64_t rd64(const struct pd_reader *r, const unsigned char *p)
{
	return rd_num(r, p, 8);
}

static int mem_u64(struct td_mem *m, uint64_t *v)
{
	return td_mem_num(m, 8, v);
}

static int mem_skip(struct td_mem *m, uint64_t len)
{
	return td_mem_bytes(m, len) ? 0 : -1;
}

/* Skip @nr items of @size bytes, refusing counts the data cannot hold. */
static int mem_skip_n(struct td_mem *m, uint64_t nr, uint64_t size)
{
	if (nr > (m->len - m->pos) / size)
		return -1;
	return mem_skip(m, nr * size);
}

/* Tie each attribute to its tracepoint's type, once the types are known. */
static void resolve_attr(struct pd_reader *r, struct pd_attr *a)
{
	a->type_idx = -1;
	if (r->dec.types && a->type == PD_TYPE_TRACEPOINT && a->config <= INT32_MAX)
		a->type_idx = td_decoder_find(&r->dec, (int)a->config);
}

/* ---- attributes and sample ids ------------------------------------------------------- */

static bool attr_flag(const struct pd_reader *r, uint64_t flags, unsigned int bit)
{
	/* bit-fields are allocated from the most significant bit on big-endian machines */
	return r->big_endian ? (flags >> (63 - bit)) & 1 : (flags >> bit) & 1;
}

/* Parse a perf_event_attr of at most @avail bytes; return its size, or -1. */
static int64_t parse_attr(const struct pd_reader *r, const unsigned char *p, size_t avail,
			  struct pd_attr *a)
{
	uint64_t size, flags;

	if (avail < PD_ATTR_SIZE_VER0)
		return -1;
	memset(a, 0, sizeof(*a));
	a->type = rd32(r, p);
	size = rd32(r, p + 4);
	if (!size)
		size = PD_ATTR_SIZE_VER0;
	if (size < PD_ATTR_SIZE_VER0 || size > avail)
		return -1;
	a->config = rd64(r, p + 8);
	a->sample_type = rd64(r, p + 24);
	a->read_format = rd64(r, p + 32);
	flags = rd64(r, p + 40);
	a->sample_id_all = attr_flag(r, flags, PD_ATTR_SAMPLE_ID_ALL);
	a->use_clockid = attr_flag(r, flags, PD_ATTR_USE_CLOCKID);
	if (size >= 80)
		a->branch_sample_type = rd64(r, p + 72);
	if (size >= 96) {
		a->regs_user = rd64(r, p + 80);
		a->clockid = (int32_t)rd32(r, p + 92);
	}
	if (size >= 104)
		a->regs_intr = rd64(r, p + 96);
	a->type_idx = -1;
	return (int64_t)size;
}

static int id_cmp(const void *a, const void *b)
{
	const struct pd_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static const struct pd_attr *find_attr(const struct pd_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nr_ids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id == id)
			return &r->attrs[r->ids[mid].attr];
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Add an attribute with its @nr ids (file byte order at @ids).  An
 * attribute whose ids are all known already is a repeat and is dropped.
 * Return 0, or -1 when out of memory.
 */
static int add_attr(struct pd_reader *r, const struct pd_attr *a, const unsigned char *ids,
		    uint64_t nr)
{
	uint64_t i, known = 0;
	int idx = (int)r->nr_attrs;

	for (i = 0; i < nr; i++)
		known += find_attr(r, rd64(r, ids + 8 * i)) != NULL;
	if (nr && known == nr)
		return 0;
	if (CFSR_ALLOC_GROW(r->attrs, r->nr_attrs + 1, r->attrs_alloc) < 0 ||
	    CFSR_ALLOC_GROW(r->ids, r->nr_ids + nr, r->ids_alloc) < 0)
		return -1;
	r->attrs[r->nr_attrs] = *a;
	resolve_attr(r, &r->attrs[r->nr_attrs]);
	r->nr_attrs++;
	for (i = 0; i < nr; i++) {
		r->ids[r->nr_ids].id = rd64(r, ids + 8 * i);
		r->ids[r->nr_ids].attr = idx;
		r->nr_ids++;
	}
	qsort(r->ids, r->nr_ids, sizeof(*r->ids), id_cmp);
	return 0;
}

/*
 * Every attribute must place the sample id where the first one does, or
 * records cannot be told apart: perf requires the same, and writes
 * PERF_SAMPLE_IDENTIFIER when event layouts differ.
 */
static bool attrs_consistent(const struct pd_reader *r)
{
	size_t i;

	for (i = 1; i < r->nr_attrs; i++) {
		const struct pd_attr *a = &r->attrs[0], *b = &r->attrs[i];

		if (a->sample_type & b->sample_type & PD_SAMPLE_IDENTIFIER)
			continue;
		if (a->sample_type != b->sample_type || a->sample_id_all != b->sample_id_all)
			return false;
	}
	return true;
}

/* The attribute of a PERF_RECORD_SAMPLE, or NULL when its id is unknown. */
static const struct pd_attr *sample_attr(const struct pd_reader *r, const unsigned char *p,
					 size_t len)
{
	const struct pd_attr *a0 = &r->attrs[0];
	uint64_t st = a0->sample_type, off = 8;

	if (r->nr_attrs == 1)
		return a0;
	if (!(st & PD_SAMPLE_IDENTIFIER)) {
		if (!(st & PD_SAMPLE_ID))
			return a0;
		off += 8 * (!!(st & PD_SAMPLE_IP) + !!(st & PD_SAMPLE_TID) +
			    !!(st & PD_SAMPLE_TIME) + !!(st & PD_SAMPLE_ADDR));
	}
	if (off + 8 > len)
		return NULL;
	return find_attr(r, rd64(r, p + off));
}

/* The attribute of another record, through its sample_id trailer; NULL if none. */
static const struct pd_attr *trailer_attr(const struct pd_reader *r, const unsigned char *p,
					  size_t len)
{
	const struct pd_attr *a0 = &r->attrs[0];
	uint64_t st = a0->sample_type, off;

	if (!a0->sample_id_all)
		return NULL;
	if (r->nr_attrs == 1)
		return a0;
	if (st & PD_SAMPLE_IDENTIFIER) {
		off = len - 8;
	} else if (st & PD_SAMPLE_ID) {
		uint64_t after = !!(st & PD_SAMPLE_STREAM_ID) + !!(st & PD_SAMPLE_CPU) + 1;

		if (len < 8 + 8 * after)
			return NULL;
		off = len - 8 * after;
	} else {
		return a0;
	}
	if (len < 16)
		return NULL;
	return find_attr(r, rd64(r, p + off));
}

/* Skip a struct read_format. */
static int skip_read(struct td_mem *m, uint64_t rf)
{
	uint64_t nr, times = !!(rf & PD_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(rf & PD_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);

	if (!(rf & PD_FORMAT_GROUP))
		return mem_skip_n(m, 1 + times + per - 1, 8);
	if (mem_u64(m, &nr) < 0 || mem_skip_n(m, times, 8) < 0)
		return -1;
	return mem_skip_n(m, nr, 8 * per);
}

/* Skip a register dump: the ABI word, then one word per register of @mask. */
static int skip_regs(struct td_mem *m, uint64_t mask)
{
	uint64_t abi;

	if (mem_u64(m, &abi) < 0)
		return -1;
	return abi ? mem_skip_n(m, (uint64_t)__builtin_popcountll(mask), 8) : 0;
}

/*
 * Walk a PERF_RECORD_SAMPLE in the order the kernel writes it
 * (perf_output_sample()), checking each size against the record.
 */
static int parse_sample(const struct pd_reader *r, const struct pd_attr *a, const unsigned char *p,
			size_t len, struct pd_sample *s)
{
	struct td_mem m = { p, len, 8, r->big_endian };
	uint64_t st = a->sample_type, v, nr;

	memset(s, 0, sizeof(*s));
	if ((st & PD_SAMPLE_IDENTIFIER) && mem_u64(&m, &s->id) < 0)
		return -1;
	if ((st & PD_SAMPLE_IP) && mem_skip(&m, 8) < 0)
		return -1;
	if (st & PD_SAMPLE_TID) {
		if (td_mem_num(&m, 4, &v) < 0 || td_mem_num(&m, 4, &v) < 0)
			return -1;
		s->tid = (uint32_t)v;
		s->has_tid = true;
	}
	if (st & PD_SAMPLE_TIME) {
		if (mem_u64(&m, &s->time) < 0)
			return -1;
		s->has_time = true;
	}
	if ((st & PD_SAMPLE_ADDR) && mem_skip(&m, 8) < 0)
		return -1;
	if ((st & PD_SAMPLE_ID) && mem_u64(&m, &s->id) < 0)
		return -1;
	if ((st & PD_SAMPLE_STREAM_ID) && mem_skip(&m, 8) < 0)
		return -1;
	if (st & PD_SAMPLE_CPU) {
		if (td_mem_num(&m, 4, &v) < 0 || mem_skip(&m, 4) < 0)
			return -1;
		s->cpu = (uint32_t)v;
		s->has_cpu = true;
	}
	if ((st & PD_SAMPLE_PERIOD) && mem_skip(&m, 8) < 0)
		return -1;
	if ((st & PD_SAMPLE_READ) && skip_read(&m, a->read_format) < 0)
		return -1;
	if (st & PD_SAMPLE_CALLCHAIN) {
		if (mem_u64(&m, &nr) < 0 || mem_skip_n(&m, nr, 8) < 0)
			return -1;
	}
	if (st & PD_SAMPLE_RAW) {
		if (td_mem_num(&m, 4, &v) < 0)
			return -1;
		s->raw = td_mem_bytes(&m, v);
		if (!s->raw)
			return -1;
		s->raw_size = (uint32_t)v;
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		uint64_t per = 24 + (a->branch_sample_type & PD_BRANCH_COUNTERS ? 8 : 0);

		if (mem_u64(&m, &nr) < 0)
			return -1;
		if ((a->branch_sample_type & PD_BRANCH_HW_INDEX) && mem_skip(&m, 8) < 0)
			return -1;
		if (mem_skip_n(&m, nr, per) < 0)
			return -1;
	}
	if ((st & PD_SAMPLE_REGS_USER) && skip_regs(&m, a->regs_user) < 0)
		return -1;
	if (st & PD_SAMPLE_STACK_USER) {
		if (mem_u64(&m, &v) < 0 || mem_skip(&m, v) < 0)
			return -1;
		if (v && mem_skip(&m, 8) < 0)
			return -1;
	}
	if ((st & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)) && mem_skip(&m, 8) < 0)
		return -1;
	if ((st & PD_SAMPLE_DATA_SRC) && mem_skip(&m, 8) < 0)
		return -1;
	if ((st & PD_SAMPLE_TRANSACTION) && mem_skip(&m, 8) < 0)
		return -1;
	if ((st & PD_SAMPLE_REGS_INTR) && skip_regs(&m, a->regs_intr) < 0)
		return -1;
	if ((st & PD_SAMPLE_PHYS_ADDR) && mem_skip(&m, 8) < 0)
		return -1;
	if (st & PD_SAMPLE_CGROUP) {
		if (mem_u64(&m, &s->cgroup) < 0)
			return -1;
		s->has_cgroup = true;
	}
	if ((st & PD_SAMPLE_DATA_PAGE_SIZE) && mem_skip(&m, 8) < 0)
		return -1;
	if ((st & PD_SAMPLE_CODE_PAGE_SIZE) && mem_skip(&m, 8) < 0)
		return -1;
	if (st & PD_SAMPLE_AUX) {
		if (mem_u64(&m, &v) < 0 || mem_skip(&m, v) < 0)
			return -1;
	}
	return 0;
}

/* Read the sample_id trailer of a record other than a sample. */
static int parse_trailer(const struct pd_reader *r, const struct pd_attr *a, const unsigned char *p,
			 size_t len, size_t body, struct pd_sample *s)
{
	uint64_t st = a ? a->sample_type & PD_SAMPLE_ID_ALL_BITS : 0, v;
	uint64_t n = (uint64_t)__builtin_popcountll(st);
	struct td_mem m = { p, len, 0, r->big_endian };

	memset(s, 0, sizeof(*s));
	if (!a || !a->sample_id_all)
		return 0;
	if (n * 8 > len - body)
		return -1;
	m.pos = len - n * 8;
	if (st & PD_SAMPLE_TID) {
		if (td_mem_num(&m, 4, &v) < 0 || td_mem_num(&m, 4, &v) < 0)
			return -1;
		s->tid = (uint32_t)v;
		s->has_tid = true;
	}
	if (st & PD_SAMPLE_TIME) {
		if (mem_u64(&m, &s->time) < 0)
			return -1;
		s->has_time = true;
	}
	if ((st & PD_SAMPLE_ID) && mem_u64(&m, &s->id) < 0)
		return -1;
	if ((st & PD_SAMPLE_STREAM_ID) && mem_skip(&m, 8) < 0)
		return -1;
	if (st & PD_SAMPLE_CPU) {
		if (td_mem_num(&m, 4, &v) < 0 || mem_skip(&m, 4) < 0)
			return -1;
		s->cpu = (uint32_t)v;
		s->has_cpu = true;
	}
	if ((st & PD_SAMPLE_IDENTIFIER) && mem_u64(&m, &s->id) < 0)
		return -1;
	return 0;
}

/* ---- the waiting events ----------------------------------------------------------- */

static bool item_before(const struct pd_item *x, const struct pd_item *y)
{
	return x->ev.ts < y->ev.ts || (x->ev.ts == y->ev.ts && x->seq < y->seq);
}

static void heap_swap(struct pd_reader *r, size_t i, size_t j)
{
	struct pd_item tmp = r->heap[i];

	r->heap[i] = r->heap[j];
	r->heap[j] = tmp;
}

static void heap_down(struct pd_reader *r, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->heap_len && item_before(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->heap_len && item_before(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		heap_swap(r, i, m);
		i = m;
	}
}

/* Queue an event (taking ownership of @it->str); 0, or -1 out of memory. */
static int queue_item(struct pd_reader *r, struct pd_item *it)
{
	size_t i;

	if (CFSR_ALLOC_GROW(r->heap, r->heap_len + 1, r->heap_alloc) < 0) {
		free(it->str);
		return -1;
	}
	it->seq = r->seq++;
	if (it->ev.ts > r->max_ts)
		r->max_ts = it->ev.ts;
	i = r->heap_len++;
	r->heap[i] = *it;
	while (i && item_before(&r->heap[i], &r->heap[(i - 1) / 2])) {
		heap_swap(r, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return 0;
}

/* Queue a lost-events notice: @nr events, -1 when the count is not known. */
static int queue_lost(struct pd_reader *r, uint64_t ts, int cpu, int64_t nr)
{
	struct pd_item it;

	memset(&it, 0, sizeof(it));
	it.ev.ts = ts;
	it.ev.cpu = cpu;
	it.ev.pid = -1;
	it.ev.type = -1;
	it.ev.kind = CFSR_EV_LOST;
	it.ev.lost.nr = nr;
	return queue_item(r, &it);
}

/* Damaged data: count it, and tell the consumer that events are missing. */
static int queue_damage(struct pd_reader *r)
{
	r->bad++;
	return queue_lost(r, r->max_ts, -1, -1);
}

/* ---- records ---------------------------------------------------------------------------- */

/* The event's string lives in the reader's scratch buffer: give the item its own copy. */
static int own_string(struct pd_item *it)
{
	const char **s = NULL;

	switch (it->ev.kind) {
	case CFSR_EV_EXEC:
		s = &it->ev.exec.filename;
		break;
	case CFSR_EV_CGROUP_ATTACH:
	case CFSR_EV_CGROUP_MKDIR:
	case CFSR_EV_CGROUP_RMDIR:
		s = &it->ev.cgroup.path;
		break;
	case CFSR_EV_MARKER:
		s = &it->ev.marker.text;
		break;
	default:
		return 0;
	}
	if (!*s)
		return 0;
	it->str = strdup(*s);
	if (!it->str)
		return -1;
	*s = it->str;
	return 0;
}

/*
 * A sample's cgroup id for its task: a new (tid, id) pair when the task
 * was not seen in that cgroup before.  Return 0, or -1 when out of memory.
 */
static int note_task_cgroup(struct pd_reader *r, struct cfsr_trace *t, int tid, uint64_t id)
{
	long i = cfsr_pidmap_get(&r->task_cg_map, tid);
	size_t k;

	t->info.cgroup_samples++;
	if (i >= 0 && r->task_last[i] == id)
		return 0;
	if (i < 0) {
		if (CFSR_ALLOC_GROW(r->task_last, r->nr_task_last + 1, r->task_last_alloc) < 0 ||
		    cfsr_pidmap_put(&r->task_cg_map, tid, r->nr_task_last) < 0)
			return -1;
		i = (long)r->nr_task_last++;
	}
	r->task_last[i] = id;
	/* a move back to a cgroup the task was in: rare, the pair is there */
	for (k = 0; k < r->nr_task_cg; k++)
		if (r->task_cg[k].tid == tid && r->task_cg[k].id == id)
			return 0;
	if (CFSR_ALLOC_GROW(r->task_cg, r->nr_task_cg + 1, r->task_cg_alloc) < 0)
		return -1;
	r->task_cg[r->nr_task_cg].tid = tid;
	r->task_cg[r->nr_task_cg].id = id;
	r->nr_task_cg++;
	t->info.task_cgroups = r->task_cg;
	t->info.nr_task_cgroups = r->nr_task_cg;
	return 0;
}

/*
 * PERF_RECORD_CGROUP: u64 id, then the path, NUL-terminated and padded to
 * 8 bytes, then the sample_id trailer.  The id keeps its latest path.
 * Return 0, or -1 when out of memory.
 */
static int handle_cgroup(struct pd_reader *r, struct cfsr_trace *t, const unsigned char *p,
			 size_t len)
{
	const unsigned char *nul = len > 16 ? memchr(p + 16, '\0', len - 16) : NULL;
	uint64_t id;
	char *path;
	size_t i;

	if (!nul) {
		t->info.cgroup_bad++;
		return 0;
	}
	id = rd64(r, p + 8);
	path = strdup((const char *)p + 16);
	if (!path)
		return -1;
	for (i = 0; i < r->nr_cgroups && r->cgroups[i].id != id; i++)
		;
	if (i == r->nr_cgroups) {
		if (CFSR_ALLOC_GROW(r->cgroups, r->nr_cgroups + 1, r->cgroups_alloc) < 0) {
			free(path);
			return -1;
		}
		r->nr_cgroups++;
	} else {
		free((char *)r->cgroups[i].path);
	}
	r->cgroups[i].id = id;
	r->cgroups[i].path = path;
	t->info.cgroup_hierarchy = PD_CGROUP_HIERARCHY;
	t->info.cgroup_membership = PD_CGROUP_MEMBERSHIP;
	t->info.cgroups = r->cgroups;
	t->info.nr_cgroups = r->nr_cgroups;
	return 0;
}

/*
 * Count and decode a sample; queue it.  Return 0, or -1 when out of
 * memory.
 */
static int handle_sample(struct pd_reader *r, struct cfsr_trace *t, const unsigned char *p,
			 size_t len)
{
	const struct pd_attr *a = sample_attr(r, p, len);
	struct tep_record rec;
	struct pd_sample s;
	struct pd_item it;
	int type_id, ret;

	t->stats.records++;
	memset(&it, 0, sizeof(it));
	it.skip = true;
	if (!a || parse_sample(r, a, p, len, &s) < 0) {
		/* no layout to read it by, or too short for it */
		if (a && a->type_idx >= 0)
			t->stats.type_counts[a->type_idx]++;
		t->stats.malformed++;
		return 0;
	}
	it.ev.ts = s.has_time ? s.time : r->max_ts;
	/* the sample's tid, as perf shows it: -1 for a task past its exit */
	if (s.has_cgroup && s.has_tid && note_task_cgroup(r, t, (int)s.tid, s.cgroup) < 0)
		return -1;
	if (s.has_cgroup && s.has_tid)
		it.ev.cgroup_id = s.cgroup;
	if (a->type_idx < 0 || !s.raw) {
		t->stats.unknown++;
		return queue_item(r, &it);
	}
	t->stats.type_counts[a->type_idx]++;
	if (!td_decoder_known(&r->dec, a->type_idx)) {
		t->stats.unknown++;
		return queue_item(r, &it);
	}

	memset(&rec, 0, sizeof(rec));
	rec.ts = it.ev.ts;
	rec.cpu = s.has_cpu ? (int)s.cpu : -1;
	rec.data = (void *)s.raw;
	rec.size = (int)s.raw_size;
	it.ev.cpu = rec.cpu;
	/* the record must be of the attribute's tracepoint, on a CPU the file has */
	ret = -1;
	if (td_decoder_common(&r->dec, &rec, &type_id, &it.ev.pid) == 0 &&
	    (uint64_t)type_id == a->config && s.cpu < PD_MAX_CPUS &&
	    !(r->nr_cpus_known && s.has_cpu && (int)s.cpu >= r->nr_cpus))
		ret = td_decoder_decode(&r->dec, a->type_idx, &rec, &it.ev);
	if (ret <= 0) {
		t->stats.malformed++;
		memset(&it.ev, 0, sizeof(it.ev));
		it.ev.ts = rec.ts;
		return queue_item(r, &it);
	}
	if (s.has_cpu && (int)s.cpu >= t->info.nr_cpus)
		t->info.nr_cpus = (int)s.cpu + 1;
	if (own_string(&it) < 0)
		return -1;
	it.skip = false;
	return queue_item(r, &it);
}

/* PERF_RECORD_LOST (id, count) and PERF_RECORD_LOST_SAMPLES (count). */
static int handle_lost(struct pd_reader *r, const unsigned char *p, size_t len, uint32_t type)
{
	size_t body = type == PD_REC_LOST ? 24 : 16;
	struct pd_sample s;
	uint64_t nr;

	if (len < body)
		return queue_damage(r);
	nr = rd64(r, p + body - 8);
	if (parse_trailer(r, trailer_attr(r, p, len), p, len, body, &s) < 0)
		return queue_damage(r);
	if (type == PD_REC_LOST_SAMPLES && !s.time) {
		/*
		 * perf's own summary at the end of a run, one per event and
		 * CPU, from the kernel's lost-sample counters: the same losses
		 * that LOST records reported while they happened.  Only losses
		 * no LOST record covered are reported, once, at the end.
		 */
		r->lost_summary += nr;
		return 0;
	}
	if (type == PD_REC_LOST)
		r->lost_records += nr;
	if (!nr)
		return 0;
	return queue_lost(r, s.has_time ? s.time : r->max_ts, s.has_cpu ? (int)s.cpu : -1,
			  nr > INT64_MAX ? -1 : (int64_t)nr);
}

/* ---- the record stream ------------------------------------------------------------ */

/* Return @len bytes of the file at @off, within the record stream; NULL past its end. */
static const unsigned char *src_get(struct pd_reader *r, uint64_t off, size_t len)
{
	uint64_t n;

	if (off >= r->rbuf_off && len <= r->rbuf_len && off - r->rbuf_off <= r->rbuf_len - len)
		return r->rbuf + (off - r->rbuf_off);
	if (len > PD_RBUF_SIZE || off > r->data_end || len > r->data_end - off)
		return NULL;
	n = r->data_end - off < PD_RBUF_SIZE ? r->data_end - off : PD_RBUF_SIZE;
	if (td_pread(r->fd, r->rbuf, (size_t)n, off) < 0) {
		r->rbuf_len = 0;
		return NULL;
	}
	r->rbuf_off = off;
	r->rbuf_len = (size_t)n;
	return r->rbuf;
}

/*
 * The next record of the file's stream.  Return 1 with the record in
 * @p/@len (valid until the next call), 0 at the end, -1 when the stream is
 * damaged (a record that does not fit).
 */
static int outer_next(struct pd_reader *r, const unsigned char **p, size_t *len)
{
	const unsigned char *h;
	uint64_t extra = 0;
	uint32_t type;
	uint16_t size;

	if (r->pos >= r->data_end)
		return 0;
	h = src_get(r, r->pos, 8);
	if (!h)
		return -1;
	type = rd32(r, h);
	size = (uint16_t)rd_num(r, h + 6, 2);
	if (size < 8)
		return -1;
	h = src_get(r, r->pos, size);
	if (!h)
		return -1;
	/* two records are followed by data their size does not count */
	if (type == PD_REC_HEADER_TRACING_DATA && size >= 12)
		extra = rd32(r, h + 8);
	else if (type == PD_REC_AUXTRACE && size >= 16)
		extra = rd64(r, h + 8);
	if (extra > r->data_end - r->pos - size)
		return -1;
	r->rec_off = r->pos;
	r->pos += size + extra;
	*p = h;
	*len = size;
	return 1;
}

/* The next complete decompressed record; 1, 0 when none is complete, -1 damaged. */
static int inner_next(struct pd_reader *r, const unsigned char **p, size_t *len)
{
	size_t avail = r->dbuf_len - r->dbuf_pos;
	uint16_t size;

	if (avail < 8)
		return 0;
	size = (uint16_t)rd_num(r, r->dbuf + r->dbuf_pos + 6, 2);
	if (size < 8)
		return -1;
	if (size > avail)
		return 0;
	*p = r->dbuf + r->dbuf_pos;
	*len = size;
	r->dbuf_pos += size;
	return 1;
}

/*
 * Decompress a COMPRESSED block after the unread rest of the previous one.
 * perf compresses all blocks as one zstd stream, flushed at each block, so
 * the stream state carries over.  Return 0, -1 corrupt, -2 out of memory.
 */
static int decompress(struct pd_reader *r, const unsigned char *src, size_t n)
{
	ZSTD_inBuffer in = { src, n, 0 };

	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		if (!r->zds)
			return -2;
		if (ZSTD_isError(ZSTD_initDStream(r->zds)))
			return -1;
	}
	if (r->dbuf_pos) {
		memmove(r->dbuf, r->dbuf + r->dbuf_pos, r->dbuf_len - r->dbuf_pos);
		r->dbuf_len -= r->dbuf_pos;
		r->dbuf_pos = 0;
	}
	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;

		if (r->dbuf_alloc - r->dbuf_len < PD_DECOMP_STEP) {
			if (r->dbuf_len + PD_DECOMP_STEP > PD_MAX_DECOMP)
				return -1;
			if (CFSR_ALLOC_GROW(r->dbuf, r->dbuf_len + PD_DECOMP_STEP, r->dbuf_alloc) <
			    0)
				return -2;
		}
		out.dst = r->dbuf + r->dbuf_len;
		out.size = r->dbuf_alloc - r->dbuf_len;
		out.pos = 0;
		ret = ZSTD_decompressStream(r->zds, &out, &in);
		if (ZSTD_isError(ret))
			return -1;
		r->dbuf_len += out.pos;
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
}

/* A COMPRESSED or COMPRESSED2 record: 0, or -1 when out of memory. */
static int handle_compressed(struct pd_reader *r, struct cfsr_trace *t, const unsigned char *p,
			     size_t len, uint32_t type)
{
	const unsigned char *data = p + 8;
	size_t n = len - 8;
	int ret;

	t->info.compression = "zstd";
	if (r->zstd_broken) {
		/* the stream cannot be resumed after damage; its notice is out */
		r->bad++;
		return 0;
	}
	if (type == PD_REC_COMPRESSED2) {
		uint64_t size = len >= 16 ? rd64(r, p + 8) : UINT64_MAX;

		if (size > len - 16) {
			r->zstd_broken = true;
			return queue_damage(r);
		}
		data = p + 16;
		n = (size_t)size;
	}
	ret = decompress(r, data, n);
	if (ret == -2)
		return -1;
	if (ret < 0) {
		r->zstd_broken = true;
		r->dbuf_len = r->dbuf_pos = 0;
		return queue_damage(r);
	}
	return 0;
}

/*
 * Handle one record.  Return 1 when it queued an event or ended a round,
 * 0 when it did neither, -1 when out of memory.
 */
static int handle_record(struct pd_reader *r, struct cfsr_trace *t, const unsigned char *p,
			 size_t len, bool inner)
{
	uint32_t type = rd32(r, p);
	size_t before = r->heap_len;
	struct pd_attr a;
	int64_t asize;
	int ret = 0;

	switch (type) {
	case PD_REC_SAMPLE:
		ret = handle_sample(r, t, p, len);
		break;
	case PD_REC_LOST:
	case PD_REC_LOST_SAMPLES:
		ret = handle_lost(r, p, len, type);
		break;
	case PD_REC_FINISHED_ROUND:
		/* events up to the end of the previous round can all go now */
		if (r->round_max > r->limit)
			r->limit = r->round_max;
		r->round_max = r->max_ts;
		return 1;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		if (inner)
			r->bad++;
		else
			ret = handle_compressed(r, t, p, len, type);
		break;
	case PD_REC_HEADER_ATTR:
		/* pipe mode; the ones before the first sample were read at open */
		if (inner || r->rec_off < r->prescan_end)
			break;
		asize = parse_attr(r, p + 8, len - 8, &a);
		if (asize >= 0 && add_attr(r, &a, p + 8 + asize, (len - 8 - (size_t)asize) / 8) < 0)
			ret = -1;
		break;
	case PD_REC_CGROUP:
		ret = handle_cgroup(r, t, p, len);
		break;
	default:
		/*
		 * COMM, FORK, EXIT, MMAP and the rest, and perf's own header
		 * records: nothing the scheduler events need.
		 */
		if (!type || (type > PD_REC_KERNEL_LAST && type < PD_REC_USER_FIRST) ||
		    type > PD_REC_USER_LAST) {
			t->stats.records++;
			t->stats.unknown++;
		}
		break;
	}
	if (ret < 0)
		return -1;
	return r->heap_len > before;
}

/* Read records until the window can move: an event queued, a round ended, or the end. */
static int read_more(struct pd_reader *r, struct cfsr_trace *t)
{
	for (;;) {
		const unsigned char *p;
		size_t len;
		bool inner = true;
		int ret;

		ret = inner_next(r, &p, &len);
		if (ret < 0) {
			/* records cannot be found again in the rest of the stream */
			r->zstd_broken = true;
			r->dbuf_len = r->dbuf_pos = 0;
			if (queue_damage(r) < 0)
				return -1;
			return 0;
		}
		if (ret == 0) {
			inner = false;
			ret = outer_next(r, &p, &len);
			if (ret <= 0) {
				/* damaged: the records after it cannot be found */
				if ((ret < 0 || r->dbuf_len > r->dbuf_pos) && queue_damage(r) < 0)
					return -1;
				r->dbuf_len = r->dbuf_pos = 0;
				r->eof = true;
				if (r->lost_summary > r->lost_records &&
				    queue_lost(r, r->max_ts, -1,
					       (int64_t)(r->lost_summary - r->lost_records)) < 0)
					return -1;
				return 0;
			}
		}
		ret = handle_record(r, t, p, len, inner);
		if (ret < 0)
			return -1;
		if (ret > 0)
			return 0;
	}
}

/* ---- header and features ---------------------------------------------------------- */

/* Read @len bytes at @off, which must lie within the file, into a new buffer. */
static unsigned char *load(const struct pd_reader *r, uint64_t off, uint64_t len)
{
	unsigned char *buf;

	if (len > PD_MAX_META || off > r->file_size || len > r->file_size - off)
		return NULL;
	buf = malloc(len ? (size_t)len : 1);
	if (buf && len && td_pread(r->fd, buf, (size_t)len, off) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static const char *clock_name(int32_t clockid)
{
	/* the ftrace names of the same clocks, where there is one */
	switch (clockid) {
	case 0:
		return "realtime";
	case 1:
		return "mono";
	case 4:
		return "mono_raw";
	case 7:
		return "boot";
	case 11:
		return "tai";
	default:
		return "unknown";
	}
}

/* struct perf_header_string: u32 len, then len bytes holding a string; 0 or -1 corrupt. */
static int header_string(const struct pd_reader *r, const unsigned char *p, size_t len, char **out)
{
	uint32_t n;

	if (len < 4)
		return -1;
	n = rd32(r, p);
	if (n > len - 4)
		return -1;
	free(*out);
	*out = strndup((const char *)p + 4, n);
	return *out ? 0 : -1;
}

/* A feature's content, from its section or a HEADER_FEATURE record; 0 or -1 corrupt. */
static int handle_feature(struct pd_reader *r, unsigned int feat, const unsigned char *p,
			  size_t len)
{
	uint32_t n;

	switch (feat) {
	case PD_FEAT_HOSTNAME:
		return header_string(r, p, len, &r->hostname);
	case PD_FEAT_OSRELEASE:
		return header_string(r, p, len, &r->release);
	case PD_FEAT_ARCH:
		return header_string(r, p, len, &r->arch);
	case PD_FEAT_NRCPUS:
		/* u32 CPUs available (the highest possible CPU + 1), u32 online */
		if (len < 8)
			return -1;
		n = rd32(r, p) > rd32(r, p + 4) ? rd32(r, p) : rd32(r, p + 4);
		if (!n || n > PD_MAX_CPUS)
			return -1;
		r->nr_cpus = (int)n;
		r->nr_cpus_known = true;
		r->nr_cpus_avail = rd32(r, p);
		return 0;
	case PD_FEAT_CPU_TOPOLOGY:
		/* read once the CPU count is known (in pipe mode it may come later) */
		free(r->topo_raw);
		r->topo_raw = malloc(len ? len : 1);
		if (!r->topo_raw)
			return -1;
		memcpy(r->topo_raw, p, len);
		r->topo_raw_len = len;
		return 0;
	case PD_FEAT_CACHE:
		/* parsed with the topology, a corrupt one left out */
		free(r->cache_raw);
		r->cache_raw = malloc(len ? len : 1);
		if (!r->cache_raw)
			return -1;
		memcpy(r->cache_raw, p, len);
		r->cache_raw_len = len;
		return 0;
	case PD_FEAT_COMPRESSED:
		/* u32 version, type, level, ratio, mmap_len */
		if (len < 8)
			return -1;
		r->comp_type = rd32(r, p + 4);
		return 0;
	case PD_FEAT_CLOCK_DATA:
		/* u32 version, u32 clockid, u64 wall-clock time, u64 clockid time */
		if (len < 8)
			return -1;
		r->clock_data_id = (int32_t)rd32(r, p + 4);
		return 0;
	default:
		return 0;
	}
}

/* ---- the CPU topology ---------------------------------------------------------------- */

/*
 * A u32 count, then as many struct perf_header_string; the strings are
 * kept in r->topo_strs from index *@first.  Return 0, or -1 when corrupt.
 */
static int topo_strings(struct pd_reader *r, struct td_mem *m, size_t *first, size_t *nr)
{
	uint64_t n, len, i;
	const char *s;

	if (td_mem_num(m, 4, &n) < 0 || n > m->len - m->pos)
		return -1;
	*first = r->nr_topo_strs;
	*nr = (size_t)n;
	for (i = 0; i < n; i++) {
		if (td_mem_num(m, 4, &len) < 0)
			return -1;
		s = td_mem_bytes(m, len);
		if (!s ||
		    CFSR_ALLOC_GROW(r->topo_strs, r->nr_topo_strs + 1, r->topo_strs_alloc) < 0)
			return -1;
		r->topo_strs[r->nr_topo_strs] = strndup(s, (size_t)len);
		if (!r->topo_strs[r->nr_topo_strs])
			return -1;
		r->nr_topo_strs++;
	}
	return 0;
}

/* The list among @nr strings from @first that holds @cpu, or NULL. */
static const char *topo_list_of(const struct pd_reader *r, size_t first, size_t nr, int cpu)
{
	size_t i;

	for (i = first; i < first + nr; i++)
		if (cfsr_cpu_list_has(r->topo_strs[i], cpu))
			return r->topo_strs[i];
	return NULL;
}

/*
 * HEADER_CPU_TOPOLOGY, as perf's write_cpu_topology() lays it out: the
 * distinct core_siblings_list strings (a package's CPUs; perf calls them
 * "sibling sockets"), the distinct thread_siblings_list strings, then per
 * CPU up to NRCPUS' first number u32 core_id and u32 physical_package_id;
 * perf 5.3 on adds the distinct die_cpus_list strings and per CPU u32
 * die_id (only where the machine has die_id files).  Files of older perfs end earlier: what is missing stays
 * unknown.  Return 0, or -1 when the section is corrupt.
 */
static int parse_topology(struct pd_reader *r)
{
	struct td_mem m = { r->topo_raw, r->topo_raw_len, 0, r->big_endian };
	size_t core0, nr_core, thr0, nr_thr, die0 = 0, nr_die = 0;
	uint32_t nr = r->nr_cpus_avail ? r->nr_cpus_avail : (uint32_t)r->nr_cpus;
	bool ids, dies;
	uint64_t v;
	uint32_t c;

	if (!nr || nr > PD_MAX_CPUS || topo_strings(r, &m, &core0, &nr_core) < 0 ||
	    topo_strings(r, &m, &thr0, &nr_thr) < 0)
		return -1;
	ids = m.len - m.pos >= 8ull * nr;
	if (m.pos < m.len && !ids)
		return -1;
	r->topo = calloc(nr, sizeof(*r->topo));
	if (!r->topo)
		return -1;
	r->nr_topo = (int)nr;
	for (c = 0; c < nr; c++) {
		struct cfsr_cpu_topo *tp = &r->topo[c];

		tp->core_id = tp->package_id = tp->die_id = -1;
		if (ids && td_mem_num(&m, 4, &v) == 0)
			tp->core_id = (int32_t)v;
		if (ids && td_mem_num(&m, 4, &v) == 0)
			tp->package_id = (int32_t)v;
		tp->core_siblings = topo_list_of(r, core0, nr_core, (int)c);
		tp->thread_siblings = topo_list_of(r, thr0, nr_thr, (int)c);
	}
	dies = m.pos < m.len;
	if (dies && (topo_strings(r, &m, &die0, &nr_die) < 0 || m.len - m.pos < 4ull * nr))
		return -1;
	for (c = 0; dies && c < nr; c++) {
		if (td_mem_num(&m, 4, &v) < 0)
			return -1;
		r->topo[c].die_id = (int32_t)v;
		r->topo[c].die_siblings = topo_list_of(r, die0, nr_die, (int)c);
	}
	return 0;
}

/*
 * HEADER_CACHE, as perf's write_cache() lays it out (perf 4.10 on): u32
 * version (1), u32 count, then per cache u32 level, line_size, sets and
 * ways and the strings type, size and map (shared_cpu_list), each a u32
 * length and the NUL-padded text; caches shared by several CPUs appear
 * once (build_caches()).  Return 0, or -1 when the section is corrupt.
 */
static int parse_caches(struct pd_reader *r)
{
	struct td_mem m = { r->cache_raw, r->cache_raw_len, 0, r->big_endian };
	uint64_t version, n, v[4];
	size_t first, i;
	int k;

	if (td_mem_num(&m, 4, &version) < 0 || version != 1 || td_mem_num(&m, 4, &n) < 0 ||
	    n > (m.len - m.pos) / 28)
		return -1;
	r->caches = calloc(n ? n : 1, sizeof(*r->caches));
	if (!r->caches)
		return -1;
	for (i = 0; i < n; i++) {
		struct cfsr_cpu_cache *c = &r->caches[i];

		for (k = 0; k < 4; k++)
			if (td_mem_num(&m, 4, &v[k]) < 0)
				return -1;
		/* the three strings, as a count-less run of perf_header_strings */
		first = r->nr_topo_strs;
		for (k = 0; k < 3; k++) {
			uint64_t len;
			const char *s;

			if (td_mem_num(&m, 4, &len) < 0 || !(s = td_mem_bytes(&m, len)) ||
			    CFSR_ALLOC_GROW(r->topo_strs, r->nr_topo_strs + 1, r->topo_strs_alloc) <
				    0)
				return -1;
			r->topo_strs[r->nr_topo_strs] = strndup(s, (size_t)len);
			if (!r->topo_strs[r->nr_topo_strs])
				return -1;
			r->nr_topo_strs++;
		}
		if (v[0] == 0 || v[0] > 16)
			return -1;
		c->level = (int)v[0];
		c->line_size = (uint32_t)v[1];
		c->sets = (uint32_t)v[2];
		c->ways = (uint32_t)v[3];
		c->type = r->topo_strs[first];
		c->size = r->topo_strs[first + 1];
		c->shared_cpus = r->topo_strs[first + 2];
	}
	r->nr_caches = (size_t)n;
	return 0;
}

/*
 * The tracing data begins with "\027\010Dtracing", a version string, the
 * byte order, the size of a long and the page size; the trace.dat v6
 * metadata blocks follow.  Note where they are for td_meta_load().
 */
static int tracing_header(struct pd_reader *r)
{
	static const unsigned char magic[] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};
	unsigned char buf[64];
	size_t n = r->tracing_len < sizeof(buf) ? (size_t)r->tracing_len : sizeof(buf);
	const unsigned char *nul;
	uint64_t page_size;
	struct td_mem m;
	size_t pos;

	if (n < sizeof(magic) + 7 || td_pread(r->fd, buf, n, r->tracing_off) < 0 ||
	    memcmp(buf, magic, sizeof(magic)))
		return -1;
	nul = memchr(buf + sizeof(magic), '\0', n - sizeof(magic));
	if (!nul)
		return -1;
	pos = (size_t)(nul - buf) + 1;
	if (pos + 6 > n)
		return -1;
	r->meta.version = 6;
	r->meta.big_endian = buf[pos] != 0;
	r->meta.long_size = buf[pos + 1];
	if (r->meta.long_size != 4 && r->meta.long_size != 8)
		return -1;
	m.p = buf;
	m.len = n;
	m.pos = pos + 2;
	m.big_endian = r->meta.big_endian;
	if (td_mem_num(&m, 4, &page_size) < 0 || !page_size || page_size > (1u << 20))
		return -1;
	r->meta.page_size = (unsigned int)page_size;
	r->meta.meta_start = r->tracing_off + pos + 6;
	r->meta.meta_end = r->tracing_off + r->tracing_len;
	r->meta.file_size = r->file_size;
	r->meta.nr_cpus = r->nr_cpus;
	snprintf(r->meta.compression, sizeof(r->meta.compression), "none");
	return 0;
}

static int read_file_header(struct pd_reader *r, const unsigned char *h)
{
	uint64_t attr_size = rd64(r, h + 16);
	uint64_t attrs_off = rd64(r, h + 24), attrs_size = rd64(r, h + 32);
	uint64_t data_off = rd64(r, h + 40), data_size = rd64(r, h + 48);
	uint64_t feat_off, nr_feat = 0, i, k;
	uint64_t bitmap[PD_FEAT_BITS / 64];
	unsigned char *attrs, *table;
	int ret = -1, added;

	if (data_off > r->file_size || data_size > r->file_size - data_off)
		return cfsr_error("cannot read '%s': file truncated (data section)", r->path);
	/*
	 * perf record writes the data size and the feature sections when it
	 * ends: a file with records and a size of 0 was not finished.
	 */
	if (!data_size && r->file_size > data_off)
		return cfsr_error(
			"cannot read '%s': file not finished (perf record did not end normally)",
			r->path);
	for (i = 0; i < PD_FEAT_BITS / 64; i++) {
		bitmap[i] = rd64(r, h + 72 + 8 * i);
		nr_feat += (uint64_t)__builtin_popcountll(bitmap[i]);
	}
	feat_off = data_off + data_size;
	table = load(r, feat_off, 16 * nr_feat);
	if (!table)
		return cfsr_error("cannot read '%s': file truncated (feature sections)", r->path);
	for (i = 0, k = 0; i < PD_FEAT_BITS; i++) {
		uint64_t off, size;
		unsigned char *sec;

		if (!((bitmap[i / 64] >> (i % 64)) & 1))
			continue;
		off = rd64(r, table + 16 * k);
		size = rd64(r, table + 16 * k + 8);
		k++;
		if (off > r->file_size || size > r->file_size - off) {
			cfsr_error("cannot read '%s': file truncated or corrupt (feature %lu)",
				   r->path, (unsigned long)i);
			goto out;
		}
		if (i == PD_FEAT_TRACING_DATA) {
			r->tracing_off = off;
			r->tracing_len = size;
			r->has_tracing = true;
			continue;
		}
		if (i != PD_FEAT_HOSTNAME && i != PD_FEAT_OSRELEASE && i != PD_FEAT_ARCH &&
		    i != PD_FEAT_NRCPUS && i != PD_FEAT_COMPRESSED && i != PD_FEAT_CLOCK_DATA &&
		    i != PD_FEAT_CPU_TOPOLOGY && i != PD_FEAT_CACHE)
			continue;
		sec = load(r, off, size);
		if (!sec || handle_feature(r, (unsigned int)i, sec, (size_t)size) < 0) {
			free(sec);
			cfsr_error("cannot read '%s': file corrupt (feature %lu)", r->path,
				   (unsigned long)i);
			goto out;
		}
		free(sec);
	}

	/* attributes: attr_size bytes each, the last 16 of them locating its ids */
	if (attr_size < PD_ATTR_SIZE_VER0 + 16 || attr_size > 4096 || attrs_size % attr_size) {
		cfsr_error("cannot read '%s': file corrupt (attribute size)", r->path);
		goto out;
	}
	attrs = load(r, attrs_off, attrs_size);
	if (!attrs) {
		cfsr_error("cannot read '%s': file truncated or corrupt (attributes)", r->path);
		goto out;
	}
	for (i = 0; i < attrs_size / attr_size; i++) {
		const unsigned char *e = attrs + i * attr_size;
		uint64_t ids_off = rd64(r, e + attr_size - 16);
		uint64_t ids_size = rd64(r, e + attr_size - 8);
		unsigned char *ids;
		struct pd_attr a;

		if (parse_attr(r, e, (size_t)attr_size - 16, &a) < 0 || ids_size % 8) {
			cfsr_error("cannot read '%s': file corrupt (attribute %lu)", r->path,
				   (unsigned long)i);
			break;
		}
		ids = load(r, ids_off, ids_size);
		if (!ids) {
			cfsr_error(
				"cannot read '%s': file truncated or corrupt (ids of attribute %lu)",
				r->path, (unsigned long)i);
			break;
		}
		added = add_attr(r, &a, ids, ids_size / 8);
		free(ids);
		if (added < 0) {
			cfsr_error("cannot open '%s': out of memory", r->path);
			break;
		}
	}
	free(attrs);
	if (i < attrs_size / attr_size)
		goto out;
	r->data_off = data_off;
	r->data_end = data_off + data_size;
	ret = 0;
out:
	free(table);
	return ret;
}

/*
 * Pipe mode: the header records come first in the stream.  Read them up to
 * the first sample (or compressed block), and start the data over.
 */
static int read_pipe_header(struct pd_reader *r)
{
	const unsigned char *p;
	size_t len;
	int ret;

	r->data_off = PD_PIPE_HEADER_SIZE;
	r->data_end = r->file_size;
	r->pos = r->data_off;
	while ((ret = outer_next(r, &p, &len)) > 0) {
		uint32_t type = rd32(r, p);
		struct pd_attr a;
		int64_t asize;

		if (type == PD_REC_SAMPLE || type == PD_REC_COMPRESSED ||
		    type == PD_REC_COMPRESSED2) {
			r->pos = r->rec_off;
			break;
		}
		if (type == PD_REC_HEADER_ATTR) {
			asize = parse_attr(r, p + 8, len - 8, &a);
			if (asize < 0)
				return cfsr_error("cannot read '%s': file corrupt (attribute)",
						  r->path);
			if (add_attr(r, &a, p + 8 + asize, (len - 8 - (size_t)asize) / 8) < 0)
				return cfsr_error("cannot open '%s': out of memory", r->path);
		} else if (type == PD_REC_HEADER_FEATURE && len >= 16) {
			uint64_t feat = rd64(r, p + 8);

			if (feat < PD_FEAT_BITS &&
			    handle_feature(r, (unsigned int)feat, p + 16, len - 16) < 0)
				return cfsr_error("cannot read '%s': file corrupt (feature %lu)",
						  r->path, (unsigned long)feat);
		} else if (type == PD_REC_HEADER_TRACING_DATA && !r->has_tracing) {
			r->tracing_off = r->rec_off + len;
			r->tracing_len = r->pos - r->tracing_off;
			r->has_tracing = true;
		}
	}
	if (ret < 0)
		return cfsr_error("cannot read '%s': file truncated or corrupt (header records)",
				  r->path);
	r->prescan_end = r->pos;
	r->pos = r->data_off;
	r->rbuf_len = 0;
	return 0;
}

/* ---- open / next / close ------------------------------------------------------------- */

static int perfdata_probe(const unsigned char *head, size_t len)
{
	/* the magic is a 64-bit number: its bytes show the byte order */
	return len >= 16 && (!memcmp(head, "PERFILE2", 8) || !memcmp(head, "2ELIFREP", 8));
}

/* Parse the formats into a throw-away handle: run in the sandbox child. */
static void free_items(struct pd_reader *r)
{
	size_t i;

	for (i = 0; i < r->heap_len; i++)
		free(r->heap[i].str);
	free(r->heap);
}

static void perfdata_close(struct cfsr_trace *t)
{
	struct pd_reader *r = t->priv;
	size_t i;

	if (!r)
		return;
	free_items(r);
	free(r->cur_str);
	td_decoder_release(&r->dec);
	free(r->dbuf);
	ZSTD_freeDStream(r->zds);
	free(r->rbuf);
	free(r->attrs);
	free(r->ids);
	if (r->tep)
		tep_free(r->tep);
	for (i = 0; i < r->nr_cgroups; i++)
		free((char *)r->cgroups[i].path);
	free(r->cgroups);
	free(r->task_cg);
	free(r->task_last);
	cfsr_pidmap_release(&r->task_cg_map);
	for (i = 0; i < r->nr_topo_strs; i++)
		free(r->topo_strs[i]);
	free(r->topo_strs);
	free(r->topo);
	free(r->cache_raw);
	free(r->caches);
	free(r->topo_raw);
	free(r->release);
	free(r->hostname);
	free(r->arch);
	free(r->uname);
	if (r->fd >= 0)
		close(r->fd);
	free(r);
	t->priv = NULL;
}

static int perfdata_open(struct cfsr_trace *t, const char *path)
{
	unsigned char h[PD_FILE_HEADER_SIZE];
	struct pd_reader *r;
	struct stat st;
	uint64_t hsize;
	size_t i;

	r = calloc(1, sizeof(*r));
	if (!r)
		return cfsr_error("cannot open '%s': out of memory", path);
	t->priv = r;
	r->path = t->path;
	r->clock_data_id = -1;
	r->fd = open(t->data_path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		cfsr_error_errno("cannot open '%s'", path);
		goto out_close;
	}
	if (fstat(r->fd, &st) < 0) {
		cfsr_error_errno("cannot stat '%s'", path);
		goto out_close;
	}
	r->file_size = (uint64_t)st.st_size;
	r->rbuf = malloc(PD_RBUF_SIZE);
	if (!r->rbuf) {
		cfsr_error("cannot open '%s': out of memory", path);
		goto out_close;
	}
	if (r->file_size < PD_PIPE_HEADER_SIZE || td_pread(r->fd, h, PD_PIPE_HEADER_SIZE, 0) < 0 ||
	    !perfdata_probe(h, PD_PIPE_HEADER_SIZE)) {
		cfsr_error("cannot read '%s': file truncated or not a perf.data file", path);
		goto out_close;
	}
	r->big_endian = h[0] == '2';
	hsize = rd64(r, h + 8);
	if (hsize == PD_PIPE_HEADER_SIZE) {
		if (read_pipe_header(r) < 0)
			goto out_close;
	} else {
		if (hsize < PD_FILE_HEADER_SIZE || hsize > r->file_size ||
		    td_pread(r->fd, h, PD_FILE_HEADER_SIZE, 0) < 0) {
			cfsr_error("cannot read '%s': file truncated or corrupt (header)", path);
			goto out_close;
		}
		if (read_file_header(r, h) < 0)
			goto out_close;
		r->pos = r->data_off;
	}
	if (!r->has_tracing) {
		cfsr_error(
			"cannot read '%s': no tracepoint formats (not a recording of tracepoints)",
			path);
		goto out_close;
	}
	if (!r->nr_attrs) {
		cfsr_error("cannot read '%s': no event attributes", path);
		goto out_close;
	}
	if (!attrs_consistent(r)) {
		cfsr_error(
			"cannot read '%s': events with different sample layouts and no sample identifier",
			path);
		goto out_close;
	}
	if (r->comp_type && r->comp_type != PD_COMP_ZSTD) {
		cfsr_error("cannot read '%s': compression type %u is not supported (zstd is)", path,
			   r->comp_type);
		goto out_close;
	}
	if (tracing_header(r) < 0) {
		cfsr_error("cannot read '%s': file corrupt (tracing data header)", path);
		goto out_close;
	}

	r->tep = td_meta_open(path, r->fd, &r->meta, "the tracing data");
	if (!r->tep)
		goto out_close;
	if (td_decoder_init(&r->dec, r->tep) == 0)
		t->stats.type_counts =
			calloc((size_t)r->dec.nr_types + 1, sizeof(*t->stats.type_counts));
	if (!t->stats.type_counts) {
		cfsr_error("cannot open '%s': out of memory", path);
		goto out_close;
	}
	t->info.nr_types = r->dec.nr_types;
	t->info.types = r->dec.pub_types;
	for (i = 0; i < r->nr_attrs; i++)
		resolve_attr(r, &r->attrs[i]);

	/* the clock: perf's own (local_clock()), unless the recording chose one */
	r->clock = "perf";
	if (r->attrs[0].use_clockid)
		r->clock = clock_name(r->attrs[0].clockid);
	else if (r->clock_data_id >= 0)
		r->clock = clock_name(r->clock_data_id);

	t->info.reader = "perf.data";
	t->info.file_version = 2;
	t->info.compression = r->comp_type ? "zstd" : "none";
	t->info.kernel_release = r->release;
	if (r->hostname && r->release && r->arch &&
	    asprintf(&r->uname, "Linux %s %s %s", r->hostname, r->release, r->arch) < 0)
		r->uname = NULL;
	t->info.uname = r->uname;
	t->info.clock = r->clock;
	t->info.nr_cpus = r->nr_cpus;
	t->info.hz = 0;
	t->info.preempt_bit_known = r->dec.preempt_mask != 0;
	if (r->topo_raw) {
		if (parse_topology(r) == 0) {
			t->info.topo = r->topo;
			t->info.nr_topo = r->nr_topo;
			t->info.topo_source = "perf.data CPU_TOPOLOGY";
		} else {
			t->info.topo_source = "perf.data CPU_TOPOLOGY (corrupt: left out)";
		}
	}
	if (r->cache_raw) {
		if (parse_caches(r) == 0) {
			t->info.caches = r->caches;
			t->info.nr_caches = r->nr_caches;
			t->info.caches_source = "perf.data CACHE";
		} else {
			t->info.caches_source = "perf.data CACHE (corrupt: left out)";
		}
	}
	for (i = 0; i < r->nr_attrs; i++) {
		if (!(r->attrs[i].sample_type & PD_SAMPLE_CGROUP))
			continue;
		t->info.cgroup_ids = true;
		t->info.cgroup_hierarchy = PD_CGROUP_HIERARCHY;
		t->info.cgroup_membership = PD_CGROUP_MEMBERSHIP;
	}
	/* perf reports losses as LOST records, not as ring-buffer statistics */
	t->info.overruns = -1;
	return 0;

out_close:
	perfdata_close(t);
	free(t->stats.type_counts);
	t->stats.type_counts = NULL;
	return -1;
}

static int perfdata_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	struct pd_reader *r = t->priv;

	free(r->cur_str);
	r->cur_str = NULL;
	for (;;) {
		struct pd_item it;

		if (r->heap_len >= PD_MAX_QUEUE)
			r->draining = true;
		else if (r->heap_len <= PD_MAX_QUEUE / 2)
			r->draining = false;
		if (!r->heap_len || !(r->eof || r->draining || r->heap[0].ev.ts <= r->limit)) {
			if (r->eof)
				return 0;
			if (read_more(r, t) < 0)
				return cfsr_error("cannot read '%s': out of memory", t->path);
			continue;
		}
		it = r->heap[0];
		r->heap[0] = r->heap[--r->heap_len];
		heap_down(r, 0);
		t->stats.bad_pages = r->bad;

		if (it.ev.kind == CFSR_EV_LOST && it.ev.type < 0 && !it.skip) {
			t->stats.lost_notices++;
			if (it.ev.lost.nr > 0)
				t->stats.lost_events += (uint64_t)it.ev.lost.nr;
			else
				t->stats.lost_unknown++;
		} else {
			if (!r->ts_seen)
				t->stats.first_ts = it.ev.ts;
			r->ts_seen = true;
			t->stats.last_ts = it.ev.ts;
		}
		if (it.skip)
			continue;
		*ev = it.ev;
		r->cur_str = it.str;
		return 1;
	}
}

const struct cfsr_format cfsr_format_perfdata = {
	.name = "perf.data",
	.probe = perfdata_probe,
	.open = perfdata_open,
	.next = perfdata_next,
	.close = perfdata_close,
};

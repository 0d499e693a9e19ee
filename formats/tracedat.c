// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader (trace-cmd file versions 6 and 7, uncompressed or
 * compressed with zstd or zlib), built on libtraceevent.
 *
 * The container is read here (tracedat-layout.c, tracedat-meta.c) rather
 * than through libtracecmd: the libtracecmd of Debian 12 (3.1.6) keeps every
 * chunk it decompresses (memory grows with the trace), cannot decode zlib
 * files, parses all of kallsyms on every open and crashes on some truncated
 * files.  libtraceevent parses the event formats and kbuffer decodes the
 * ring-buffer pages.
 *
 * At open, every event type the file declares is looked up once in a
 * handler table; the fields a handler needs are resolved from the file's
 * own format description, so layouts that differ between kernels (field
 * offsets, sizes, optional fields such as sched_wakeup's "success", the
 * encoding of sched_switch's preempted bit) are read as the file declares
 * them.  Records are then pulled in global time order across CPUs and
 * buffer instances, decoded into struct cfsr_event and freed at once, so
 * memory does not grow with the number of events.  Pages that the ring
 * buffer marked as having lost events produce a CFSR_EV_LOST event before
 * their first record.
 */
#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <json-c/json.h>

#include "alloc.h"
#include "error.h"
#include "formats.h"
#include "schedfeat.h"
#include "tracedat-local.h"

/*
 * One CPU of one buffer instance: its ring-buffer pages, read one at a
 * time (uncompressed files) or one compressed chunk at a time, decoded
 * with libtraceevent's kbuffer.
 */
struct td_stream {
	const struct td_buffer *buf;
	const struct td_extent *ext;
	struct kbuffer *kbuf;
	unsigned int page_size;
	/* uncompressed: offset of the next page within the extent */
	uint64_t pos;
	/* compressed: chunks left, file offset of the next chunk header */
	uint64_t chunks_left;
	uint64_t chunk_off;
	unsigned char *chunk;
	size_t chunk_len;
	size_t chunk_alloc;
	size_t chunk_pos;
	unsigned char *page;
	/* the current event */
	void *data;
	unsigned long long ts;
	int size;
	/* events lost before the current event: 0 none, -1 unknown count */
	long long missed;
	bool done;
};

struct td_reader {
	struct tep_handle *tep;
	char *clock;
	int fd;
	struct td_layout layout;
	struct td_stream *streams;
	int nr_streams;
	/* min-heap of stream indexes ordered by (ts, index) */
	int *heap;
	int heap_len;
	/* the tracepoint decoders of the file's event types */
	struct td_decoder dec;
	/* a lost-events notice was delivered for the heap's top event */
	bool lost_delivered;
	char *release;
	/* the recorder's metadata section, NUL-terminated, or NULL */
	char *record_meta;
	/* the scheduler feature names it lists by bit, and how they were read */
	char **feat_names;
	size_t nr_feat_names;
	char *feat_source;
	/* the recorder's CPU topology, and the sibling lists it points to */
	struct cfsr_cpu_topo *topo;
	int nr_topo;
	char **topo_strs;
	size_t nr_topo_strs;
	size_t topo_strs_alloc;
	/* its caches, each listed once, and the scheduling domains it read */
	struct cfsr_cpu_cache *caches;
	size_t nr_caches;
	size_t caches_alloc;
	struct cfsr_sched_domain *domains;
	size_t nr_domains;
	size_t domains_alloc;
	/* pages that failed to decode, reported as lost events */
	uint64_t bad_pages;
	/* size of the commit word in a page header: the kernel's long */
	int commit_size;
	const char *path;
};

static void free_feat_names(struct td_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_feat_names; i++)
		free(r->feat_names[i]);
	free(r->feat_names);
	free(r->feat_source);
	r->feat_names = NULL;
	r->nr_feat_names = 0;
	r->feat_source = NULL;
}

/* A SCHED_FEAT() name: upper case, digits and underscores. */
static bool feat_name_ok(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return n && n <= 64 && !s[n];
}

/*
 * sysctl_sched_features from sched/debug's sysctl_sched block and the names
 * by bit the recorder read from the kernel (members "sched_features":
 * {"names": [...], "source": "..."}); names that do not look like
 * SCHED_FEAT() names are dropped all together.
 */
static void load_sched_features(struct td_reader *r, struct json_object *meta,
				struct json_object *sysctl, struct cfsr_trace_info *info)
{
	struct json_object *mask, *feats, *names, *src;
	size_t i, n;

	if (sysctl && json_object_object_get_ex(sysctl, "sysctl_sched_features", &mask) &&
	    json_object_is_type(mask, json_type_int) && json_object_get_int64(mask) >= 0) {
		info->sched_features = (uint64_t)json_object_get_int64(mask);
		info->has_sched_features = true;
	}
	if (!json_object_object_get_ex(meta, "sched_features", &feats) ||
	    !json_object_object_get_ex(feats, "names", &names) ||
	    !json_object_is_type(names, json_type_array))
		return;
	n = json_object_array_length(names);
	if (!n || n > CFSR_SCHED_FEAT_MAX)
		return;
	r->feat_names = calloc(n, sizeof(*r->feat_names));
	if (!r->feat_names)
		return;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(names, i);

		if (!json_object_is_type(e, json_type_string) ||
		    !feat_name_ok(json_object_get_string(e)))
			break;
		r->feat_names[i] = strdup(json_object_get_string(e));
		r->nr_feat_names++;
		if (!r->feat_names[i])
			break;
	}
	if (json_object_object_get_ex(feats, "source", &src) &&
	    json_object_is_type(src, json_type_string))
		r->feat_source = strdup(json_object_get_string(src));
	if (i < n || !r->feat_source) {
		free_feat_names(r);
		return;
	}
	info->sched_feat_names = (const char *const *)r->feat_names;
	info->nr_sched_feat_names = r->nr_feat_names;
	info->sched_feat_names_source = r->feat_source;
}

/* A member of a topology entry: an int, else -1. */
static int topo_int(struct json_object *c, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(c, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int(v);
}

/* A sibling list of a topology entry, kept by the reader; NULL if absent. */
static const char *topo_str(struct td_reader *r, struct json_object *c, const char *key)
{
	struct json_object *v;
	char *s;

	if (!json_object_object_get_ex(c, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	if (CFSR_ALLOC_GROW(r->topo_strs, r->nr_topo_strs + 1, r->topo_strs_alloc) < 0)
		return NULL;
	s = strdup(json_object_get_string(v));
	if (!s)
		return NULL;
	r->topo_strs[r->nr_topo_strs++] = s;
	return s;
}

/* A string member as it stands in the metadata (not kept), NULL if absent. */
static const char *json_str(struct json_object *c, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(c, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * The caches of one CPU's entry ("caches": the recorder's reading of
 * cpuN/cache/indexK), added to r->caches unless listed already (same
 * level, type, size and shared_cpu_list).
 */
static void load_caches(struct td_reader *r, struct json_object *cpu)
{
	struct json_object *caches;
	size_t i, k;

	if (!json_object_object_get_ex(cpu, "caches", &caches) ||
	    !json_object_is_type(caches, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(caches); i++) {
		struct json_object *c = json_object_array_get_idx(caches, i);
		const char *shared = json_str(c, "shared_cpu_list");
		int level = topo_int(c, "level");
		struct cfsr_cpu_cache *cc;

		if (level <= 0 || !shared)
			continue;
		for (k = 0; k < r->nr_caches; k++) {
			cc = &r->caches[k];
			if (cc->level == level && same_str(cc->type, json_str(c, "type")) &&
			    same_str(cc->size, json_str(c, "size")) &&
			    same_str(cc->shared_cpus, shared))
				break;
		}
		if (k < r->nr_caches ||
		    CFSR_ALLOC_GROW(r->caches, r->nr_caches + 1, r->caches_alloc) < 0)
			continue;
		cc = &r->caches[r->nr_caches];
		memset(cc, 0, sizeof(*cc));
		cc->level = level;
		cc->type = topo_str(r, c, "type");
		cc->size = topo_str(r, c, "size");
		cc->shared_cpus = topo_str(r, c, "shared_cpu_list");
		cc->line_size =
			topo_int(c, "line_size") > 0 ? (uint32_t)topo_int(c, "line_size") : 0;
		cc->sets = topo_int(c, "sets") > 0 ? (uint32_t)topo_int(c, "sets") : 0;
		cc->ways = topo_int(c, "ways") > 0 ? (uint32_t)topo_int(c, "ways") : 0;
		if (cc->shared_cpus)
			r->nr_caches++;
	}
}

/* A domain's number, as the recorder read it (newer recordings), 0 when absent or bad. */
static unsigned int domain_uint(struct json_object *d, const char *key)
{
	int v = topo_int(d, key);

	return v > 0 ? (unsigned int)v : 0;
}

/*
 * The scheduling domains of one CPU's entry ("sched_domains": debugfs name
 * and flags, and from this version on imbalance_pct, min_interval,
 * max_interval and busy_factor).
 */
static void load_domains(struct td_reader *r, struct json_object *cpu, int n)
{
	struct json_object *doms;
	size_t i;

	if (!json_object_object_get_ex(cpu, "sched_domains", &doms) ||
	    !json_object_is_type(doms, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(doms); i++) {
		struct json_object *d = json_object_array_get_idx(doms, i);
		struct cfsr_sched_domain *sd;

		if (CFSR_ALLOC_GROW(r->domains, r->nr_domains + 1, r->domains_alloc) < 0)
			return;
		sd = &r->domains[r->nr_domains++];
		sd->cpu = n;
		sd->level = topo_int(d, "domain");
		sd->name = topo_str(r, d, "name");
		sd->flags = topo_str(r, d, "flags");
		sd->imbalance_pct = domain_uint(d, "imbalance_pct");
		sd->min_interval = domain_uint(d, "min_interval");
		sd->max_interval = domain_uint(d, "max_interval");
		sd->busy_factor = domain_uint(d, "busy_factor");
	}
}

/*
 * The topology the recorder read from /sys/devices/system/cpu/cpuN/topology
 * (member "cpus": one object per CPU with its number, core_id, package_id,
 * die_id, thread_siblings, core_siblings and, from this version on,
 * die_siblings), as struct cfsr_cpu_topo; the caches each entry lists
 * (cpuN/cache/indexK), each listed once in info.caches, and the scheduling
 * domains read from debugfs (info.sched_domains).  Older metadata has
 * neither: the LLC is then unknown.
 */
static void load_topology(struct td_reader *r, struct json_object *meta,
			  struct cfsr_trace_info *info)
{
	struct json_object *cpus;
	size_t i, n;

	if (!json_object_object_get_ex(meta, "cpus", &cpus) ||
	    !json_object_is_type(cpus, json_type_array))
		return;
	n = json_object_array_length(cpus);
	if (!n || n > 8192)
		return;
	r->topo = calloc(n, sizeof(*r->topo));
	if (!r->topo)
		return;
	for (i = 0; i < n; i++)
		r->topo[i].core_id = r->topo[i].package_id = r->topo[i].die_id = -1;
	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cpus, i);
		int cpu = topo_int(c, "cpu");
		struct cfsr_cpu_topo *tp;

		if (cpu < 0 || (size_t)cpu >= n || r->topo[cpu].thread_siblings ||
		    r->topo[cpu].core_siblings)
			continue;
		tp = &r->topo[cpu];
		tp->core_id = topo_int(c, "core_id");
		tp->package_id = topo_int(c, "package_id");
		tp->die_id = topo_int(c, "die_id");
		tp->thread_siblings = topo_str(r, c, "thread_siblings");
		tp->core_siblings = topo_str(r, c, "core_siblings");
		tp->die_siblings = topo_str(r, c, "die_siblings");
		if (topo_int(c, "capacity") > 0 && topo_int(c, "capacity") <= 1024)
			tp->capacity = (uint32_t)topo_int(c, "capacity");
		if (topo_int(c, "max_freq_khz") > 0)
			tp->max_freq_khz = (uint64_t)topo_int(c, "max_freq_khz");
		load_caches(r, c);
		load_domains(r, c, cpu);
	}
	r->nr_topo = (int)n;
	info->topo = r->topo;
	info->nr_topo = r->nr_topo;
	info->topo_source = "recorder metadata (sysfs cpu topology)";
	if (r->nr_caches) {
		info->caches = r->caches;
		info->nr_caches = r->nr_caches;
		info->caches_source = "recorder metadata (sysfs cpu caches)";
	}
	info->sched_domains = r->domains;
	info->nr_sched_domains = r->nr_domains;
}

/* A time of sched/debug's sysctl_sched block (ns, after update_sysctl()'s scaling), 0 if absent. */
static uint64_t sysctl_ns(struct json_object *sysctl, const char *key)
{
	struct json_object *v;

	if (!sysctl || !json_object_object_get_ex(sysctl, key, &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) <= 0 ||
	    json_object_get_int64(v) > 1000000000)
		return 0;
	return (uint64_t)json_object_get_int64(v);
}

/* The metadata of 'cfsreplay record' (CFSR_SEC_META), and the HZ it names. */
static void load_record_meta(struct td_reader *r, struct cfsr_trace_info *info)
{
	struct json_object *meta, *hz, *sysctl = NULL, *cfg, *opt;
	unsigned char *buf;
	size_t len;

	info->has_record_truth = r->layout.sec_record_truth != 0;
	if (!r->layout.sec_record_meta)
		return;
	if (td_section_load(r->fd, &r->layout, r->layout.sec_record_meta, &buf, &len) < 0) {
		info->record_meta_bad = true;
		return;
	}
	r->record_meta = malloc(len + 1);
	if (r->record_meta) {
		memcpy(r->record_meta, buf, len);
		r->record_meta[len] = '\0';
	}
	free(buf);
	meta = r->record_meta ? json_tokener_parse(r->record_meta) : NULL;
	if (!meta || !json_object_is_type(meta, json_type_object)) {
		/* the events are still good: flag the metadata, read on */
		info->record_meta_bad = true;
		free(r->record_meta);
		r->record_meta = NULL;
		json_object_put(meta);
		return;
	}
	if (json_object_object_get_ex(meta, "hz", &hz) && json_object_is_type(hz, json_type_int) &&
	    json_object_get_int(hz) > 0 && json_object_get_int(hz) <= 100000)
		info->hz = json_object_get_int(hz);
	/* a kernel configuration read, it says whether the option is set */
	if (json_object_object_get_ex(meta, "kernel_config", &cfg) &&
	    json_object_is_type(cfg, json_type_object) && json_object_object_length(cfg) > 0)
		info->sched_autogroup =
			json_object_object_get_ex(cfg, "CONFIG_SCHED_AUTOGROUP", &opt) &&
					!strcmp(json_object_get_string(opt), "y") ?
				1 :
				-1;
	/* sched/debug's sysctl_sched block: the times after update_sysctl()'s scaling */
	if (!json_object_object_get_ex(meta, "sysctl_sched", &sysctl))
		sysctl = NULL;
	info->base_slice_ns = sysctl_ns(sysctl, "sysctl_sched_base_slice");
	info->latency_ns = sysctl_ns(sysctl, "sysctl_sched_latency");
	info->min_granularity_ns = sysctl_ns(sysctl, "sysctl_sched_min_granularity");
	info->wakeup_granularity_ns = sysctl_ns(sysctl, "sysctl_sched_wakeup_granularity");
	load_sched_features(r, meta, sysctl, info);
	load_topology(r, meta, info);
	json_object_put(meta);
	info->record_meta = r->record_meta;
}

static int tracedat_probe(const unsigned char *head, size_t len)
{
	static const unsigned char magic[] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};

	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

static int64_t parse_overruns(const char *stats)
{
	static const char *const keys[] = { "overrun:", "commit overrun:", "dropped events:" };
	int64_t total = 0;
	const char *line;
	bool found = false;

	if (!stats)
		return -1;
	for (line = stats; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		size_t k;

		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n = strlen(keys[k]);

			if (!strncmp(line, keys[k], n)) {
				total += strtoll(line + n, NULL, 10);
				found = true;
			}
		}
	}
	return found ? total : -1;
}

/* The kernel release is the third word of the recorded "uname -a" string. */
static char *parse_release(const char *uname)
{
	const char *p = uname;
	size_t len;
	int word;

	if (!p)
		return NULL;
	for (word = 0; word < 2; word++) {
		while (*p && !isspace((unsigned char)*p))
			p++;
		while (*p && isspace((unsigned char)*p))
			p++;
	}
	len = strcspn(p, " \t\n");
	return len ? strndup(p, len) : NULL;
}

/* ---- page streams ---------------------------------------------------------- */

/* Load the next page of @st into its kbuffer; 1 loaded, 0 end, -1 bad data. */
static int stream_next_page(struct td_reader *r, struct td_stream *st)
{
	const char *algo = r->layout.compression;
	unsigned long long commit;
	void *page;

	if (!st->buf->compressed) {
		uint64_t left;
		size_t n;

		if (st->pos >= st->ext->size)
			return 0;
		left = st->ext->size - st->pos;
		n = left < st->page_size ? (size_t)left : st->page_size;
		memset(st->page, 0, st->page_size);
		if (td_pread(r->fd, st->page, n, st->ext->offset + st->pos) < 0)
			return -1;
		st->pos += st->page_size;
		page = st->page;
	} else {
		if (st->chunk_pos + st->page_size > st->chunk_len) {
			unsigned char hdr[8], *raw;
			uint32_t clen, ulen;
			/* the extent's size does not count the 4-byte chunk count before it */
			uint64_t end = st->ext->offset + 4 + st->ext->size;
			int ret;

			if (!st->chunks_left)
				return 0;
			st->chunks_left--;
			if (st->chunk_off + 8 > end || td_pread(r->fd, hdr, 8, st->chunk_off) < 0)
				return -1;
			clen = (uint32_t)tep_read_number(r->tep, hdr, 4);
			ulen = (uint32_t)tep_read_number(r->tep, hdr + 4, 4);
			if (clen > end - st->chunk_off - 8 || !ulen || ulen > (256u << 20))
				return -1;
			if (CFSR_ALLOC_GROW(st->chunk, (size_t)ulen + st->page_size + 64,
					    st->chunk_alloc) < 0)
				return -1;
			raw = malloc(clen ? clen : 1);
			if (!raw)
				return -1;
			ret = td_pread(r->fd, raw, clen, st->chunk_off + 8);
			if (!ret)
				ret = td_decompress(algo, raw, clen, st->chunk, ulen);
			free(raw);
			if (ret < 0)
				return -1;
			/* a chunk not a multiple of the page size ends in a zeroed page */
			memset(st->chunk + ulen, 0, st->page_size + 64);
			st->chunk_len = ulen;
			st->chunk_pos = 0;
			st->chunk_off += 8 + (uint64_t)clen;
		}
		page = st->chunk + st->chunk_pos;
		st->chunk_pos += st->page_size;
	}
	/*
	 * The page header is a u64 timestamp and a "long" commit word whose low
	 * 27 bits are the bytes of event data; the top bits flag lost events.
	 * kbuffer trusts it, so check it fits the page before loading.
	 */
	commit = tep_read_number(r->tep, (const char *)page + 8, r->commit_size);
	if ((commit & ((1ull << 27) - 1)) + 8 + (unsigned int)r->commit_size > st->page_size)
		return -1;
	if (kbuffer_load_subbuffer(st->kbuf, page) < 0)
		return -1;
	return 1;
}

/* Check the event kbuffer now points at; record it in @st if sound. */
static bool stream_take(struct td_reader *r, struct td_stream *st, void *data,
			unsigned long long ts)
{
	int size = kbuffer_event_size(st->kbuf);

	if (size < 0 || kbuffer_curr_offset(st->kbuf) + size > (int)st->page_size)
		return false;
	st->data = data;
	st->size = size;
	st->ts = ts + (unsigned long long)r->layout.ts_offset;
	return true;
}

/*
 * Move @st to its next event, loading pages as needed.  Pages that fail to
 * decode, and the rest of a page whose event runs past its end, are
 * skipped and counted, and the next event carries a lost-events notice.  A
 * corrupt compressed chunk ends the CPU's data.
 */
static void stream_advance(struct td_reader *r, struct td_stream *st, bool first)
{
	bool need_page = first;

	for (;;) {
		unsigned long long ts;
		void *data;
		int ret;

		if (!need_page) {
			data = kbuffer_next_event(st->kbuf, &ts);
			if (data && stream_take(r, st, data, ts))
				return;
			if (data) {
				r->bad_pages++;
				st->missed = -1;
			}
		}
		need_page = false;
		ret = stream_next_page(r, st);
		if (ret == 0) {
			st->done = true;
			return;
		}
		if (ret < 0) {
			r->bad_pages++;
			st->missed = -1;
			if (st->buf->compressed) {
				st->done = true;
				return;
			}
			need_page = true;
			continue;
		}
		if (kbuffer_missed_events(st->kbuf))
			st->missed = kbuffer_missed_events(st->kbuf);
		data = kbuffer_read_event(st->kbuf, &ts);
		if (!data) {
			need_page = true;
			continue;
		}
		if (stream_take(r, st, data, ts))
			return;
		r->bad_pages++;
		st->missed = -1;
		need_page = true;
	}
}

static bool stream_before(const struct td_reader *r, int a, int b)
{
	const struct td_stream *x = &r->streams[a], *y = &r->streams[b];

	return x->ts < y->ts || (x->ts == y->ts && a < b);
}

static void heap_down(struct td_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i, tmp;

		if (l < r->heap_len && stream_before(r, r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->heap_len && stream_before(r, r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = tmp;
		i = m;
	}
}

static int setup_streams(struct td_reader *r)
{
	int b, e, n = 0, i;
	enum kbuffer_long_size lsize;
	enum kbuffer_endian endian;

	for (b = 0; b < r->layout.nr_buffers; b++)
		n += r->layout.buffers[b].nr_extents;
	r->streams = calloc((size_t)n + 1, sizeof(*r->streams));
	r->heap = calloc((size_t)n + 1, sizeof(*r->heap));
	if (!r->streams || !r->heap)
		return -1;
	/* the kernel's long, from the header_page format (not the file's user-space long) */
	r->commit_size = tep_get_header_page_size(r->tep) == 4 ? 4 : 8;
	lsize = r->commit_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8;
	endian = r->layout.big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;
	for (b = 0; b < r->layout.nr_buffers; b++) {
		const struct td_buffer *buf = &r->layout.buffers[b];

		for (e = 0; e < buf->nr_extents; e++) {
			struct td_stream *st = &r->streams[r->nr_streams++];

			st->buf = buf;
			st->ext = &buf->extents[e];
			st->page_size = buf->page_size;
			st->kbuf = kbuffer_alloc(lsize, endian);
			/* zero padding: a damaged last event cannot read past the buffer */
			st->page = calloc(1, (size_t)st->page_size + 64);
			if (!st->kbuf || !st->page)
				return -1;
			if (tep_is_old_format(r->tep))
				kbuffer_set_old_format(st->kbuf);
			if (!st->ext->size) {
				st->done = true;
				continue;
			}
			if (buf->compressed) {
				unsigned char cnt[4];

				if (st->ext->size < 4 ||
				    td_pread(r->fd, cnt, 4, st->ext->offset) < 0)
					return -1;
				st->chunks_left = tep_read_number(r->tep, cnt, 4);
				st->chunk_off = st->ext->offset + 4;
			}
		}
	}
	for (i = 0; i < r->nr_streams; i++) {
		struct td_stream *st = &r->streams[i];

		if (!st->done)
			stream_advance(r, st, true);
		if (!st->done)
			r->heap[r->heap_len++] = i;
	}
	for (i = r->heap_len / 2 - 1; i >= 0; i--)
		heap_down(r, i);
	return 0;
}

/* ---- open / next / close --------------------------------------------------- */

/* Parse the metadata into a throw-away handle: run in the sandbox child. */
/* The selected clock of a TRACECLOCK option: "[local] global ..." gives "local". */
static char *parse_clock(const char *opt)
{
	const char *open_br = opt ? strchr(opt, '[') : NULL;
	const char *close_br = open_br ? strchr(open_br, ']') : NULL;

	if (!close_br)
		return NULL;
	return strndup(open_br + 1, (size_t)(close_br - open_br - 1));
}

static void tracedat_close(struct cfsr_trace *t)
{
	struct td_reader *r = t->priv;
	size_t k;
	int i;

	if (!r)
		return;
	for (i = 0; i < r->nr_streams; i++) {
		kbuffer_free(r->streams[i].kbuf);
		free(r->streams[i].page);
		free(r->streams[i].chunk);
	}
	free(r->streams);
	free(r->heap);
	if (r->tep)
		tep_free(r->tep);
	td_layout_release(&r->layout);
	if (r->fd >= 0)
		close(r->fd);
	td_decoder_release(&r->dec);
	free(r->release);
	free(r->clock);
	free(r->record_meta);
	free_feat_names(r);
	for (k = 0; k < r->nr_topo_strs; k++)
		free(r->topo_strs[k]);
	free(r->topo_strs);
	free(r->topo);
	free(r->caches);
	free(r->domains);
	free(r);
	t->priv = NULL;
}

static int tracedat_open(struct cfsr_trace *t, const char *path)
{
	struct td_reader *r;
	int nr_cpus = 0, b, e;

	r = calloc(1, sizeof(*r));
	if (!r)
		return cfsr_error("cannot open '%s': out of memory", path);
	t->priv = r;
	r->path = t->path;
	r->fd = open(t->data_path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		cfsr_error_errno("cannot open '%s'", path);
		goto out_close;
	}
	/* the data layout first: it refuses truncated files before anything maps them */
	if (td_layout_read(path, r->fd, &r->layout) < 0)
		goto out_close;
	if (r->layout.latency) {
		cfsr_error("cannot read '%s': a latency-tracer text trace, not scheduler events",
			   path);
		goto out_close;
	}
	if (r->layout.tsc2nsec) {
		cfsr_error(
			"cannot read '%s': raw TSC timestamps (tsc2nsec) are not supported; record with another clock",
			path);
		goto out_close;
	}
	if (strcmp(r->layout.compression, "none") && strcmp(r->layout.compression, "zstd") &&
	    strcmp(r->layout.compression, "zlib")) {
		cfsr_error(
			"cannot read '%s': compression '%s' is not supported (zstd and zlib are)",
			path, r->layout.compression);
		goto out_close;
	}

	r->tep = td_meta_open(path, r->fd, &r->layout, "trace.dat file");
	if (!r->tep)
		goto out_close;
	if (td_decoder_init(&r->dec, r->tep) == 0)
		t->stats.type_counts =
			calloc((size_t)r->dec.nr_types + 1, sizeof(*t->stats.type_counts));
	if (!t->stats.type_counts || setup_streams(r) < 0) {
		cfsr_error("cannot read '%s': out of memory or unreadable data", path);
		goto out_close;
	}

	t->info.reader = "trace.dat";
	t->info.file_version = r->layout.version;
	t->info.compression = r->layout.compression;
	t->info.uname = r->layout.uname;
	r->release = parse_release(t->info.uname);
	t->info.kernel_release = r->release;
	/* the top buffer's own clock (v7), else the TRACECLOCK option's choice */
	if (r->layout.nr_buffers && r->layout.buffers[0].clock[0])
		r->clock = strdup(r->layout.buffers[0].clock);
	else
		r->clock = parse_clock(r->layout.trace_clock);
	t->info.clock = r->clock;
	for (b = 0; b < r->layout.nr_buffers; b++)
		for (e = 0; e < r->layout.buffers[b].nr_extents; e++)
			if (r->layout.buffers[b].extents[e].cpu + 1 > nr_cpus)
				nr_cpus = r->layout.buffers[b].extents[e].cpu + 1;
	t->info.nr_cpus = nr_cpus > r->layout.nr_cpus ? nr_cpus : r->layout.nr_cpus;
	t->info.hz = 0;
	load_record_meta(r, &t->info);
	t->info.preempt_bit_known = r->dec.preempt_mask != 0;
	t->info.nr_types = r->dec.nr_types;
	t->info.types = r->dec.pub_types;
	t->info.overruns = parse_overruns(r->layout.cpustats);
	return 0;

out_close:
	tracedat_close(t);
	return -1;
}

static int tracedat_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	struct td_reader *r = t->priv;

	while (r->heap_len) {
		int si = r->heap[0];
		struct td_stream *st = &r->streams[si];
		struct tep_record rec;
		int type_id, pid;
		int idx, ret;

		if (st->missed && !r->lost_delivered) {
			/* events were lost before this one: say so first */
			memset(ev, 0, sizeof(*ev));
			ev->ts = st->ts;
			ev->cpu = st->ext->cpu;
			ev->pid = -1;
			ev->type = -1;
			ev->kind = CFSR_EV_LOST;
			ev->lost.nr = st->missed > 0 ? st->missed : -1;
			t->stats.lost_notices++;
			if (st->missed > 0)
				t->stats.lost_events += (uint64_t)st->missed;
			else
				t->stats.lost_unknown++;
			r->lost_delivered = true;
			return 1;
		}
		r->lost_delivered = false;
		st->missed = 0;
		if (st->done) {
			/* a CPU whose data ended in a bad page: its notice is out */
			r->heap[0] = r->heap[--r->heap_len];
			heap_down(r, 0);
			continue;
		}

		memset(&rec, 0, sizeof(rec));
		rec.ts = st->ts;
		rec.data = st->data;
		rec.size = st->size;
		rec.cpu = st->ext->cpu;

		if (!t->stats.records)
			t->stats.first_ts = rec.ts;
		t->stats.records++;
		t->stats.last_ts = rec.ts;

		ret = 0;
		idx = -1;
		if (td_decoder_common(&r->dec, &rec, &type_id, &pid) == 0)
			idx = td_decoder_find(&r->dec, type_id);
		if (idx < 0) {
			t->stats.unknown++;
		} else {
			t->stats.type_counts[idx]++;
			memset(ev, 0, sizeof(*ev));
			ev->ts = rec.ts;
			ev->cpu = rec.cpu;
			ev->pid = pid;
			ret = td_decoder_decode(&r->dec, idx, &rec, ev);
			if (ret == 0)
				t->stats.unknown++;
			else if (ret < 0)
				t->stats.malformed++;
		}

		/* move this CPU on and restore the heap order */
		stream_advance(r, st, false);
		if (st->done && !st->missed)
			r->heap[0] = r->heap[--r->heap_len];
		heap_down(r, 0);
		t->stats.bad_pages = r->bad_pages;
		if (ret > 0)
			return 1;
	}
	return 0;
}

const struct cfsr_format cfsr_format_tracedat = {
	.name = "trace.dat",
	.probe = tracedat_probe,
	.open = tracedat_open,
	.next = tracedat_next,
	.close = tracedat_close,
};

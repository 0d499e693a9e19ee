// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a trace.dat file keeps its ring-buffer pages.
 *
 * Walks the headers of file versions 6 and 7 as trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5) document them, collects every buffer instance's
 * per-CPU data extents and the options that change timestamps, and checks
 * every offset and length against the file size, so that truncated files
 * are refused up front.  It also notes where the event formats are
 * (tracedat-meta.c parses them) and keeps the options cfsreplay reports:
 * uname, trace clock, CPU statistics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "alloc.h"
#include "error.h"
#include "record.h"
#include "tracedat-local.h"

/* Options sections larger than this are taken as corrupt. */
#define MAX_OPTIONS_SIZE (64u << 20)

enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_TSC2NSEC = 14,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_BUFFER_TEXT = 22,
};

/* Keep a copy of an option's string data (not necessarily NUL-terminated). */
static int keep_string(char **dst, const void *data, size_t len, bool append)
{
	size_t old = append && *dst ? strlen(*dst) : 0;
	char *s;

	if (!append) {
		free(*dst);
		*dst = NULL;
	}
	s = realloc(*dst, old + len + 1);
	if (!s)
		return -1;
	memcpy(s + old, data, len);
	s[old + len] = '\0';
	*dst = s;
	return 0;
}

/* Handle an option whose meaning is the same in versions 6 and 7. */
static int common_option(struct td_layout *l, uint64_t id, const unsigned char *data, size_t len)
{
	char num[32];
	size_t n;

	switch (id) {
	case OPT_UNAME:
		return keep_string(&l->uname, data, len, false);
	case OPT_TRACECLOCK:
		return keep_string(&l->trace_clock, data, len, false);
	case OPT_CPUSTAT:
		return keep_string(&l->cpustats, data, len, true);
	case OPT_OFFSET:
		n = len < sizeof(num) - 1 ? len : sizeof(num) - 1;
		memcpy(num, data, n);
		num[n] = '\0';
		l->ts_offset = strtoll(num, NULL, 0);
		return 0;
	case OPT_TSC2NSEC:
		l->tsc2nsec = true;
		return 0;
	default:
		return 0;
	}
}

int td_pread(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int td_decompress(const char *algo, const void *src, size_t src_len, void *dst, size_t dst_len)
{
	if (!strcmp(algo, "zstd")) {
		size_t n = ZSTD_decompress(dst, dst_len, src, src_len);

		return ZSTD_isError(n) || n != dst_len ? -1 : 0;
	}
	if (!strcmp(algo, "zlib")) {
		uLongf n = (uLongf)dst_len;

		if (uncompress(dst, &n, src, (uLong)src_len) != Z_OK || n != dst_len)
			return -1;
		return 0;
	}
	return -1;
}

int td_mem_num(struct td_mem *m, unsigned int len, uint64_t *val)
{
	unsigned int i;

	if (len > m->len - m->pos)
		return -1;
	*val = 0;
	for (i = 0; i < len; i++) {
		unsigned int k = m->big_endian ? i : len - 1 - i;

		*val = (*val << 8) | m->p[m->pos + k];
	}
	m->pos += len;
	return 0;
}

const char *td_mem_str(struct td_mem *m)
{
	const unsigned char *end = memchr(m->p + m->pos, '\0', m->len - m->pos);
	const char *s;

	if (!end)
		return NULL;
	s = (const char *)m->p + m->pos;
	m->pos = (size_t)(end - m->p) + 1;
	return s;
}

const void *td_mem_bytes(struct td_mem *m, uint64_t len)
{
	const void *p;

	if (len > m->len - m->pos)
		return NULL;
	p = m->p + m->pos;
	m->pos += len;
	return p;
}

static int mem_str(struct td_mem *m, const char **s)
{
	*s = td_mem_str(m);
	return *s ? 0 : -1;
}

/* A cursor over the file, for the sequential headers of version 6. */
struct file_cursor {
	int fd;
	uint64_t pos;
	uint64_t size;
	bool big_endian;
};

static int file_read(struct file_cursor *c, void *buf, size_t len)
{
	if (len > c->size - c->pos || td_pread(c->fd, buf, len, c->pos) < 0)
		return -1;
	c->pos += len;
	return 0;
}

static int file_num(struct file_cursor *c, unsigned int len, uint64_t *val)
{
	unsigned char b[8];
	struct td_mem m = { b, len, 0, c->big_endian };

	if (file_read(c, b, len) < 0)
		return -1;
	return td_mem_num(&m, len, val);
}

static int file_skip(struct file_cursor *c, uint64_t len)
{
	if (len > c->size - c->pos)
		return -1;
	c->pos += len;
	return 0;
}

/* Read a NUL-terminated string of at most @max bytes into @buf. */
static int file_str(struct file_cursor *c, char *buf, size_t max)
{
	size_t n;

	for (n = 0; n < max; n++) {
		if (file_read(c, buf + n, 1) < 0)
			return -1;
		if (!buf[n])
			return 0;
	}
	return -1;
}

/* Skip @count blocks, each preceded by its @lsize-byte length. */
static int file_blocks(struct file_cursor *c, uint64_t count, unsigned int lsize)
{
	uint64_t len;

	while (count--) {
		if (file_num(c, lsize, &len) < 0 || file_skip(c, len) < 0)
			return -1;
	}
	return 0;
}

static struct td_buffer *add_buffer(struct td_layout *l, size_t *alloc, const char *name,
				    const char *clock)
{
	struct td_buffer *b;

	if (CFSR_ALLOC_GROW(l->buffers, (size_t)l->nr_buffers + 1, *alloc) < 0)
		return NULL;
	b = &l->buffers[l->nr_buffers];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->clock = strdup(clock ? clock : "");
	if (!b->name || !b->clock) {
		free(b->name);
		free(b->clock);
		return NULL;
	}
	b->page_size = l->page_size;
	l->nr_buffers++;
	return b;
}

static bool extent_ok(const struct td_layout *l, uint64_t off, uint64_t size)
{
	return off <= l->file_size && size <= l->file_size - off;
}

/* Read @cpus (offset, size) pairs at the cursor into @b. */
static int read_extents(struct file_cursor *c, struct td_layout *l, struct td_buffer *b,
			uint64_t cpus)
{
	uint64_t i, off, size;

	if (cpus > 65536)
		return -1;
	b->extents = calloc(cpus ? cpus : 1, sizeof(*b->extents));
	if (!b->extents)
		return -1;
	for (i = 0; i < cpus; i++) {
		if (file_num(c, 8, &off) < 0 || file_num(c, 8, &size) < 0)
			return -1;
		if (size && !extent_ok(l, off, size))
			return -1;
		b->extents[i].cpu = (int)i;
		b->extents[i].offset = off;
		b->extents[i].size = size;
	}
	b->nr_extents = (int)cpus;
	return 0;
}

static int read_v6(struct file_cursor *c, struct td_layout *l)
{
	uint64_t v, nsys, cpus, id, len, inst_off[64];
	char sect[10], name[4096];
	unsigned int nr_inst = 0, i;
	size_t alloc = 0;
	struct td_buffer *b;

	if (file_num(c, 4, &v) < 0)
		return -1;
	l->page_size = (unsigned int)v;
	l->meta_start = c->pos;
	if (file_str(c, name, 12) < 0 || strcmp(name, "header_page") || file_blocks(c, 1, 8) < 0 ||
	    file_str(c, name, 13) < 0 || strcmp(name, "header_event") || file_blocks(c, 1, 8) < 0 ||
	    file_num(c, 4, &v) < 0 || file_blocks(c, v, 8) < 0 || file_num(c, 4, &nsys) < 0)
		return -1;
	while (nsys--) {
		if (file_str(c, name, sizeof(name)) < 0 || file_num(c, 4, &v) < 0 ||
		    file_blocks(c, v, 8) < 0)
			return -1;
	}
	/* kallsyms, printk formats, saved cmdlines, CPU count */
	if (file_blocks(c, 1, 4) < 0 || file_blocks(c, 1, 4) < 0 || file_blocks(c, 1, 8) < 0)
		return -1;
	l->meta_end = c->pos;
	if (file_num(c, 4, &cpus) < 0)
		return -1;
	for (;;) {
		if (file_read(c, sect, sizeof(sect)) < 0)
			return -1;
		if (memcmp(sect, "options  ", sizeof(sect)))
			break;
		for (;;) {
			uint64_t start;

			if (file_num(c, 2, &id) < 0)
				return -1;
			if (id == OPT_DONE)
				break;
			if (file_num(c, 4, &len) < 0)
				return -1;
			start = c->pos;
			if (id == OPT_BUFFER && len >= 8 && nr_inst < 64) {
				if (file_num(c, 8, &inst_off[nr_inst]) < 0)
					return -1;
				nr_inst++;
			} else if (id == OPT_CPUCOUNT && len == 4) {
				if (file_num(c, 4, &cpus) < 0)
					return -1;
			} else if (len < sizeof(name)) {
				if (file_read(c, name, len) < 0 ||
				    common_option(l, id, (unsigned char *)name, len) < 0)
					return -1;
			}
			c->pos = start;
			if (file_skip(c, len) < 0)
				return -1;
		}
	}
	if (!memcmp(sect, "latency  ", sizeof(sect))) {
		l->latency = true;
		return 0;
	}
	if (memcmp(sect, "flyrecord", sizeof(sect)))
		return -1;
	l->nr_cpus = (int)cpus;
	b = add_buffer(l, &alloc, "", NULL);
	if (!b || read_extents(c, l, b, cpus) < 0)
		return -1;
	for (i = 0; i < nr_inst; i++) {
		char fly[10];

		c->pos = inst_off[i];
		if (c->pos > c->size)
			return -1;
		/* an instance's data may repeat the "flyrecord" tag */
		if (file_read(c, fly, sizeof(fly)) < 0)
			return -1;
		if (memcmp(fly, "flyrecord", sizeof(fly)))
			c->pos = inst_off[i];
		b = add_buffer(l, &alloc, "instance", NULL);
		if (!b || read_extents(c, l, b, cpus) < 0)
			return -1;
	}
	return 0;
}

/* Read a v7 section header at @off; return its flags and its data's offset and size. */
static int section_header(struct file_cursor *c, uint64_t off, unsigned int *flags,
			  uint64_t *data_off, uint64_t *size)
{
	uint64_t id, fl, str;

	c->pos = off;
	if (off > c->size || file_num(c, 2, &id) < 0 || file_num(c, 2, &fl) < 0 ||
	    file_num(c, 4, &str) < 0 || file_num(c, 8, size) < 0)
		return -1;
	*flags = (unsigned int)fl;
	*data_off = c->pos;
	return *size <= c->size - c->pos ? 0 : -1;
}

/* Load a whole v7 section, decompressing it if needed. Caller frees *out. */
static int load_section(struct file_cursor *c, const struct td_layout *l, uint64_t off,
			unsigned char **out, size_t *out_len)
{
	uint64_t data_off, size, clen, ulen;
	unsigned char *raw = NULL, *buf;
	unsigned int flags;

	if (section_header(c, off, &flags, &data_off, &size) < 0 || size > MAX_OPTIONS_SIZE)
		return -1;
	if (!(flags & 1)) {
		buf = malloc(size ? size : 1);
		if (!buf || td_pread(c->fd, buf, size, data_off) < 0) {
			free(buf);
			return -1;
		}
		*out = buf;
		*out_len = size;
		return 0;
	}
	if (file_num(c, 4, &clen) < 0 || file_num(c, 4, &ulen) < 0 || clen > size - 8 ||
	    ulen > MAX_OPTIONS_SIZE)
		return -1;
	raw = malloc(clen ? clen : 1);
	buf = malloc(ulen ? ulen : 1);
	if (!raw || !buf || td_pread(c->fd, raw, clen, c->pos) < 0 ||
	    td_decompress(l->compression, raw, clen, buf, ulen) < 0) {
		free(raw);
		free(buf);
		return -1;
	}
	free(raw);
	*out = buf;
	*out_len = ulen;
	return 0;
}

static int parse_buffer_option(struct file_cursor *c, struct td_layout *l, size_t *alloc,
			       struct td_mem *m)
{
	uint64_t sect_off, page_size, cpus, i, cpu, off, size, data_off, sect_size;
	const char *name, *clock;
	unsigned int flags;
	struct td_buffer *b;

	if (td_mem_num(m, 8, &sect_off) < 0 || mem_str(m, &name) < 0 || mem_str(m, &clock) < 0 ||
	    td_mem_num(m, 4, &page_size) < 0 || td_mem_num(m, 4, &cpus) < 0 || cpus > 65536 ||
	    page_size < 64 || page_size > (1u << 24))
		return -1;
	b = add_buffer(l, alloc, name, clock);
	if (!b)
		return -1;
	b->page_size = (unsigned int)page_size;
	b->extents = calloc(cpus ? cpus : 1, sizeof(*b->extents));
	if (!b->extents)
		return -1;
	for (i = 0; i < cpus; i++) {
		if (td_mem_num(m, 4, &cpu) < 0 || td_mem_num(m, 8, &off) < 0 ||
		    td_mem_num(m, 8, &size) < 0)
			return -1;
		if (size && !extent_ok(l, off, size))
			return -1;
		b->extents[i].cpu = (int)cpu;
		b->extents[i].offset = off;
		b->extents[i].size = size;
	}
	b->nr_extents = (int)cpus;
	if (section_header(c, sect_off, &flags, &data_off, &sect_size) < 0)
		return -1;
	b->compressed = flags & 1;
	/* compressed data start with a 4-byte chunk count the extent size leaves out */
	for (i = 0; b->compressed && i < cpus; i++)
		if (b->extents[i].size &&
		    !extent_ok(l, b->extents[i].offset, b->extents[i].size + 4))
			return -1;
	return 0;
}

static int read_v7(struct file_cursor *c, struct td_layout *l)
{
	uint64_t v, opt_off, id, len;
	char ver[64];
	size_t alloc = 0;
	int sections = 0;

	if (file_num(c, 4, &v) < 0 || file_str(c, l->compression, sizeof(l->compression)) < 0 ||
	    file_str(c, ver, sizeof(ver)) < 0 || file_num(c, 8, &opt_off) < 0)
		return -1;
	l->page_size = (unsigned int)v;
	while (opt_off) {
		struct td_mem m = { NULL, 0, 0, l->big_endian };
		unsigned char *buf;
		size_t buf_len;
		bool done = false;
		int ret = 0;

		/* a loop in the chain of options sections is corruption */
		if (++sections > 1024 || load_section(c, l, opt_off, &buf, &buf_len) < 0)
			return -1;
		m.p = buf;
		m.len = buf_len;
		opt_off = 0;
		while (!done && ret == 0) {
			size_t start;

			if (td_mem_num(&m, 2, &id) < 0 || td_mem_num(&m, 4, &len) < 0 ||
			    len > m.len - m.pos) {
				ret = -1;
				break;
			}
			start = m.pos;
			switch (id) {
			case OPT_DONE:
				ret = len >= 8 ? td_mem_num(&m, 8, &opt_off) : -1;
				done = true;
				break;
			case OPT_BUFFER: {
				struct td_mem sub = { m.p + start, len, 0, l->big_endian };

				ret = parse_buffer_option(c, l, &alloc, &sub);
				break;
			}
			case OPT_BUFFER_TEXT:
				l->latency = true;
				break;
			case OPT_HEADER_INFO:
			case OPT_FTRACE_EVENTS:
			case OPT_EVENT_FORMATS: {
				uint64_t off = 0;

				ret = len >= 8 ? td_mem_num(&m, 8, &off) : -1;
				if (id == OPT_HEADER_INFO)
					l->sec_header_info = off;
				else if (id == OPT_FTRACE_EVENTS)
					l->sec_ftrace_events = off;
				else
					l->sec_event_formats = off;
				break;
			}
			case CFSR_SEC_META:
			case CFSR_SEC_TRUTH: {
				uint64_t off = 0;
				uint64_t *dst = id == CFSR_SEC_META ? &l->sec_record_meta :
								      &l->sec_record_truth;

				/* the first options section is the newest: it wins */
				ret = len >= 8 ? td_mem_num(&m, 8, &off) : -1;
				if (!*dst)
					*dst = off;
				break;
			}
			case OPT_CPUCOUNT: {
				uint64_t n = 0;

				ret = len >= 4 ? td_mem_num(&m, 4, &n) : -1;
				l->nr_cpus = (int)n;
				break;
			}
			default:
				ret = common_option(l, id, m.p + start, len);
				break;
			}
			m.pos = start + len;
		}
		free(buf);
		if (ret < 0 || !done)
			return -1;
	}
	return 0;
}

int td_layout_read(const char *path, int fd, struct td_layout *l)
{
	struct file_cursor c = { fd, 0, 0, false };
	unsigned char head[12];
	char ver[8];
	struct stat st;
	int ret;

	memset(l, 0, sizeof(*l));
	strcpy(l->compression, "none");
	if (fstat(fd, &st) < 0)
		return cfsr_error_errno("cannot stat '%s'", path);
	c.size = l->file_size = (uint64_t)st.st_size;
	if (file_read(&c, head, 10) < 0 || file_str(&c, ver, sizeof(ver)) < 0 ||
	    file_read(&c, head, 2) < 0)
		return cfsr_error(
			"cannot read '%s': file truncated or corrupt (incomplete trace.dat header)",
			path);
	l->version = (unsigned int)atoi(ver);
	c.big_endian = l->big_endian = head[0] != 0;
	l->long_size = head[1];
	if (l->version == 6)
		ret = read_v6(&c, l);
	else if (l->version == 7)
		ret = read_v7(&c, l);
	else
		return cfsr_error(
			"cannot read '%s': trace.dat version %s is not supported (6 and 7 are)",
			path, ver);
	if (ret < 0)
		goto out_corrupt;
	if (l->page_size < 64 || l->page_size > (1u << 24))
		goto out_corrupt;
	return 0;

out_corrupt:
	td_layout_release(l);
	return cfsr_error(
		"cannot read '%s': file truncated or corrupt (trace.dat version %u layout)", path,
		l->version);
}

void td_layout_release(struct td_layout *l)
{
	int i;

	for (i = 0; i < l->nr_buffers; i++) {
		free(l->buffers[i].name);
		free(l->buffers[i].clock);
		free(l->buffers[i].extents);
	}
	free(l->buffers);
	l->buffers = NULL;
	l->nr_buffers = 0;
	free(l->uname);
	free(l->trace_clock);
	free(l->cpustats);
	l->uname = l->trace_clock = l->cpustats = NULL;
}

int td_section_load(int fd, const struct td_layout *l, uint64_t off, unsigned char **out,
		    size_t *out_len)
{
	struct file_cursor c = { fd, 0, l->file_size, l->big_endian };

	return load_section(&c, l, off, out, out_len);
}

int td_section_extent(int fd, const struct td_layout *l, uint64_t off, bool *compressed,
		      uint64_t *data_off, uint64_t *size)
{
	struct file_cursor c = { fd, 0, l->file_size, l->big_endian };
	unsigned int flags;

	if (section_header(&c, off, &flags, data_off, size) < 0)
		return -1;
	*compressed = flags & 1;
	return 0;
}

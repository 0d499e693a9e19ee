// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver: writes a small trace.dat (version 7, uncompressed) of any
 * number of CPUs from a list of events, with the header info and the
 * event formats of an existing trace.dat (a recording's), so that tests
 * can give synthetic events a machine the recording machine is not (more
 * CPUs; tests/helpers/meta-set then gives it metadata).
 *
 *   dat-write FORMATS_FROM OUT NR_CPUS EVENTS
 *
 * EVENTS holds one event a line, in time order per CPU:
 *
 *   TS_NS CPU EVENT FIELD=VALUE ...
 *
 * The file also takes FORMATS_FROM's uname (its kernel release).  EVENT
 * an event name of FORMATS_FROM's formats ("sched_switch"), each
 * FIELD one of its format's fields (an integer, or a string for a char
 * array; common_pid too); fields not named are 0.  Each CPU's events go
 * into ring-buffer pages as the kernel's ring buffer writes them (a page
 * header of its first event's time stamp and its commit size; each event
 * a 32-bit header of type_len and a 27-bit time delta, a TIME_EXTEND
 * record where a delta does not fit), with the buffer clock "perf".
 *
 * Exit status: 0, 1 on a bad file or event, 2 usage.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat-local.h"
#include "tracedat-write.h"

#define MAX_CPUS 64
#define PAGE 4096
#define PAGE_HDR 16 /* u64 time stamp, u64 commit (a 64-bit kernel's local_t) */

/* A CPU's pages being written: the current page and the file they go to. */
struct cpu_pages {
	int fd;
	unsigned char page[PAGE];
	size_t used;
	uint64_t last_ts;
	int nr;
};

static void put_le(unsigned char *p, uint64_t v, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static int flush_page(struct cpu_pages *c)
{
	if (!c->used)
		return 0;
	put_le(c->page + 8, c->used - PAGE_HDR, 8);
	memset(c->page + c->used, 0, PAGE - c->used);
	if (write(c->fd, c->page, PAGE) != PAGE)
		return -1;
	c->used = 0;
	return 0;
}

/* Append @len bytes of event data at @ts (len a multiple of 4, at most 112). */
static int put_event(struct cpu_pages *c, uint64_t ts, const unsigned char *data, size_t len)
{
	uint64_t delta;
	size_t need = 4 + len + 8;

	if (c->used && c->used + need > PAGE && flush_page(c) < 0)
		return -1;
	if (!c->used) {
		put_le(c->page, ts, 8);
		c->used = PAGE_HDR;
		c->last_ts = ts;
	}
	delta = ts - c->last_ts;
	if (delta >= (1u << 27)) {
		/* RINGBUF_TYPE_TIME_EXTEND (30): the low 27 bits, then the rest */
		put_le(c->page + c->used, 30 | (delta & ((1u << 27) - 1)) << 5, 4);
		put_le(c->page + c->used + 4, delta >> 27, 4);
		c->used += 8;
		delta = 0;
	}
	put_le(c->page + c->used, (len / 4) | delta << 5, 4);
	memcpy(c->page + c->used + 4, data, len);
	c->used += 4 + len;
	c->last_ts = ts;
	c->nr++;
	return 0;
}

/*
 * The format text of event @name in the EVENT FORMATS section @sec
 * (trace-cmd.dat.v7(5): a count of systems; per system its name, a count
 * of events, each a 64-bit size and the format text).
 */
static const char *find_format(const unsigned char *sec, size_t len, const char *name, size_t *flen)
{
	char key[128];
	size_t off = 4, n, i;
	uint32_t nsys, nev, s;
	uint64_t size;

	snprintf(key, sizeof(key), "name: %s\n", name);
	memcpy(&nsys, sec, 4);
	for (s = 0; s < nsys && off < len; s++) {
		off += strnlen((const char *)sec + off, len - off) + 1;
		memcpy(&nev, sec + off, 4);
		off += 4;
		for (i = 0; i < nev && off + 8 <= len; i++) {
			memcpy(&size, sec + off, 8);
			off += 8;
			n = strlen(key);
			if (size >= n && !memcmp(sec + off, key, n)) {
				*flen = size;
				return (const char *)sec + off;
			}
			off += size;
		}
	}
	return NULL;
}

/* A number after @key ("ID: ", "offset:") in @text, -1 when absent. */
static long number_after(const char *text, size_t len, const char *key)
{
	const char *p = memmem(text, len, key, strlen(key));

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* How a field holds its value. */
enum field_kind { FIELD_NUMBER, FIELD_CHARS, FIELD_DATA_LOC };

/*
 * The offset, size and kind of field @field in format @fmt; -1 when
 * absent.  A declaration reads "field:TYPE NAME;", "field:char NAME[N];"
 * or "field:__data_loc char[] NAME;" (a string stored after the fixed
 * fields, the field holding its length << 16 | its offset), then
 * "\toffset:O;\tsize:S;".
 */
static int field_at(const char *fmt, size_t flen, const char *field, long *offset, long *size,
		    enum field_kind *kind)
{
	const char *p = fmt, *end = fmt + flen, *semi, *stop, *start;
	size_t n = strlen(field);

	while ((p = memmem(p, (size_t)(end - p), "field:", 6))) {
		semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			return -1;
		for (start = semi; start > p + 6 && start[-1] != ' ' && start[-1] != '*'; start--)
			;
		stop = memchr(start, '[', (size_t)(semi - start));
		if (!stop)
			stop = semi;
		if ((size_t)(stop - start) == n && !memcmp(start, field, n)) {
			*offset = number_after(semi, (size_t)(end - semi), "offset:");
			*size = number_after(semi, (size_t)(end - semi), "size:");
			*kind = memmem(p, (size_t)(start - p), "__data_loc", 10) ? FIELD_DATA_LOC :
				stop != semi && memmem(p, (size_t)(stop - p), "char", 4) ?
										   FIELD_CHARS :
										   FIELD_NUMBER;
			return 0;
		}
		p = semi;
	}
	return -1;
}

static int write_line(struct cpu_pages *cpus, int nr_cpus, const unsigned char *sec, size_t len,
		      char *line)
{
	unsigned char data[112];
	char *tok, *save, *eq;
	const char *fmt;
	size_t flen, size = 0;
	long off, sz, id;
	unsigned long long ts;
	int cpu;
	enum field_kind kind;
	size_t fixed, slen;

	tok = strtok_r(line, " \t\n", &save);
	if (!tok || *tok == '#')
		return 0;
	ts = strtoull(tok, NULL, 10);
	tok = strtok_r(NULL, " \t\n", &save);
	cpu = tok ? atoi(tok) : -1;
	tok = strtok_r(NULL, " \t\n", &save);
	if (cpu < 0 || cpu >= nr_cpus || !tok || !(fmt = find_format(sec, len, tok, &flen))) {
		fprintf(stderr, "dat-write: bad CPU or unknown event '%s'\n", tok ? tok : "");
		return -1;
	}
	memset(data, 0, sizeof(data));
	id = number_after(fmt, flen, "ID: ");
	if (field_at(fmt, flen, "common_type", &off, &sz, &kind) < 0 || id < 0)
		return -1;
	put_le(data + off, (uint64_t)id, (size_t)sz);
	/* the record's size: the end of its last field */
	for (const char *p = fmt; (p = memmem(p, flen - (size_t)(p - fmt), "offset:", 7)); p++) {
		long o = strtol(p + 7, NULL, 10);
		long s = number_after(p, flen - (size_t)(p - fmt), "size:");

		if ((size_t)(o + s) > size)
			size = (size_t)(o + s);
	}
	fixed = size;
	if (size > sizeof(data)) {
		fprintf(stderr, "dat-write: a record of %zu bytes, more than %zu\n", size,
			sizeof(data));
		return -1;
	}
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		eq = strchr(tok, '=');
		if (!eq)
			return -1;
		*eq++ = '\0';
		if (field_at(fmt, flen, tok, &off, &sz, &kind) < 0 || off + sz > (long)fixed) {
			fprintf(stderr, "dat-write: no field '%s'\n", tok);
			return -1;
		}
		if (kind == FIELD_CHARS) {
			memcpy(data + off, eq, strnlen(eq, (size_t)sz - 1));
		} else if (kind == FIELD_DATA_LOC) {
			slen = strlen(eq) + 1;
			if (size + slen > sizeof(data))
				return -1;
			memcpy(data + size, eq, slen);
			put_le(data + off, (uint64_t)slen << 16 | size, (size_t)sz);
			size += slen;
		} else {
			put_le(data + off, (uint64_t)strtoll(eq, NULL, 10), (size_t)sz);
		}
	}
	size = (size + 3) & ~(size_t)3;
	return put_event(&cpus[cpu], ts, data, size);
}

/* Each CPU's pages from the event lines of @path, into temporary files; 0 or -1. */
static int write_pages(const char *path, struct cpu_pages *cpus, int nr_cpus,
		       const unsigned char *sec, size_t len)
{
	char line[1024];
	FILE *ev = fopen(path, "r");
	int c, ret = -1;

	if (!ev) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), ev))
		if (write_line(cpus, nr_cpus, sec, len, line) < 0) {
			fprintf(stderr, "dat-write: bad event line: %s", line);
			goto out_close;
		}
	for (c = 0; c < nr_cpus; c++)
		if (flush_page(&cpus[c]) < 0 || lseek(cpus[c].fd, 0, SEEK_SET) < 0)
			goto out_close;
	ret = 0;
out_close:
	fclose(ev);
	return ret;
}

/* The file @out: @l's header info, event formats and uname, and the CPUs' pages. */
static int write_file(const char *out, const struct td_layout *l, const unsigned char *hdr,
		      size_t hlen, const unsigned char *sec, size_t len, int nr_cpus,
		      const int *fds)
{
	struct td_writer *w = td_writer_create(out, "none", l->long_size, l->page_size);
	int c, ids[MAX_CPUS], ret = -1;
	uint32_t n32 = (uint32_t)nr_cpus;

	if (!w)
		return -1;
	for (c = 0; c < nr_cpus; c++)
		ids[c] = c;
	if (!td_writer_section(w, TD_SEC_HEADER_INFO, hdr, hlen) &&
	    !td_writer_section(w, TD_SEC_EVENT_FORMATS, sec, len) &&
	    (!l->uname || !td_writer_option(w, TD_OPT_UNAME, l->uname, strlen(l->uname) + 1)) &&
	    !td_writer_option(w, TD_OPT_TRACECLOCK, "[perf]", 7) &&
	    !td_writer_option(w, TD_OPT_CPUCOUNT, &n32, 4) &&
	    !td_writer_buffer(w, "", "perf", nr_cpus, ids, fds))
		ret = 0;
	if (td_writer_close(w) < 0)
		ret = -1;
	return ret;
}

int main(int argc, char **argv)
{
	struct cpu_pages *cpus = NULL;
	struct td_layout l;
	unsigned char *hdr = NULL, *sec = NULL;
	size_t hlen, len;
	int in, nr_cpus, c, fds[MAX_CPUS], ret = 1;

	if (argc != 5 || (nr_cpus = atoi(argv[3])) < 1 || nr_cpus > MAX_CPUS) {
		fprintf(stderr, "usage: dat-write FORMATS_FROM OUT NR_CPUS EVENTS\n");
		return 2;
	}
	in = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		perror(argv[1]);
		return 1;
	}
	if (td_layout_read(argv[1], in, &l) < 0)
		goto out_close;
	if (l.version != 7 || l.page_size != PAGE) {
		fprintf(stderr, "dat-write: '%s' is not a version 7 trace.dat of 4096-byte pages\n",
			argv[1]);
		goto out_layout;
	}
	if (td_section_load(in, &l, l.sec_header_info, &hdr, &hlen) < 0 ||
	    td_section_load(in, &l, l.sec_event_formats, &sec, &len) < 0)
		goto out_free;
	cpus = calloc((size_t)nr_cpus, sizeof(*cpus));
	if (!cpus)
		goto out_free;
	for (c = 0; c < nr_cpus; c++)
		cpus[c].fd = -1;
	for (c = 0; c < nr_cpus; c++) {
		char tmp[] = "/tmp/cfsr-dat-XXXXXX";

		cpus[c].fd = fds[c] = mkstemp(tmp);
		if (cpus[c].fd < 0)
			goto out_cpus;
		unlink(tmp);
	}
	if (!write_pages(argv[4], cpus, nr_cpus, sec, len) &&
	    !write_file(argv[2], &l, hdr, hlen, sec, len, nr_cpus, fds))
		ret = 0;
out_cpus:
	for (c = 0; c < nr_cpus; c++)
		if (cpus[c].fd >= 0)
			close(cpus[c].fd);
	free(cpus);
out_free:
	free(hdr);
	free(sec);
out_layout:
	td_layout_release(&l);
out_close:
	close(in);
	return ret;
}

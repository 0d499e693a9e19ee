// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event formats of a trace.dat file, parsed with libtraceevent.
 *
 * The metadata blocks sit one after another in a version 6 file and in
 * sections (possibly compressed) in a version 7 file; their content is the
 * same: the ring buffer's page header format, the ftrace event formats and
 * the event formats of each system.  Every length is checked against the
 * block that holds it before it is used.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "error.h"
#include "sandbox.h"
#include "tracedat-local.h"

/* Metadata larger than this is taken as corrupt. */
#define MAX_META_SIZE (256u << 20)

/* Skip a block preceded by its @lsize-byte length. */
static int meta_skip_block(struct td_mem *c, unsigned int lsize)
{
	uint64_t len;

	return td_mem_num(c, lsize, &len) < 0 || !td_mem_bytes(c, len) ? -1 : 0;
}

/*
 * "header_page\0", u64 size, page header format; "header_event\0", u64
 * size, event header format (not needed).
 */
static int parse_header_info(struct td_mem *c, struct tep_handle *tep, int long_size)
{
	const char *tag, *data;
	uint64_t len;
	char *copy;
	int ret;

	tag = td_mem_str(c);
	if (!tag || strcmp(tag, "header_page") || td_mem_num(c, 8, &len) < 0)
		return -1;
	data = td_mem_bytes(c, len);
	if (!data)
		return -1;
	/* the parser takes a writable buffer */
	copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, data, len);
	copy[len] = '\0';
	ret = tep_parse_header_page(tep, copy, len, long_size);
	free(copy);
	if (ret < 0)
		return -1;
	tag = td_mem_str(c);
	if (!tag || strcmp(tag, "header_event"))
		return -1;
	return meta_skip_block(c, 8);
}

/* u32 count, then count × (u64 size, format text) of the @system events. */
static int parse_formats(struct td_mem *c, struct tep_handle *tep, const char *system)
{
	uint64_t count, len;

	if (td_mem_num(c, 4, &count) < 0)
		return -1;
	while (count--) {
		const char *data;

		if (td_mem_num(c, 8, &len) < 0)
			return -1;
		data = td_mem_bytes(c, len);
		if (!data)
			return -1;
		/* a format the parser cannot read only loses that event type */
		tep_parse_event(tep, data, len, system);
	}
	return 0;
}

/* u32 systems, then per system: name, and formats as parse_formats(). */
static int parse_event_systems(struct td_mem *c, struct tep_handle *tep)
{
	uint64_t nsys;

	if (td_mem_num(c, 4, &nsys) < 0)
		return -1;
	while (nsys--) {
		const char *system = td_mem_str(c);

		if (!system || parse_formats(c, tep, system) < 0)
			return -1;
	}
	return 0;
}

static int load_v6(int fd, const struct td_layout *l, struct tep_handle *tep)
{
	struct td_mem c = { NULL, 0, 0, l->big_endian };
	unsigned char *buf;
	uint64_t len;
	int ret = -1;

	if (l->meta_end <= l->meta_start || l->meta_end - l->meta_start > MAX_META_SIZE)
		return -1;
	len = l->meta_end - l->meta_start;
	buf = malloc(len);
	if (!buf)
		return -1;
	if (td_pread(fd, buf, len, l->meta_start) < 0)
		goto out;
	c.p = buf;
	c.len = len;
	if (parse_header_info(&c, tep, (int)l->long_size) < 0 ||
	    parse_formats(&c, tep, "ftrace") < 0 || parse_event_systems(&c, tep) < 0)
		goto out;
	ret = 0;
out:
	free(buf);
	return ret;
}

static int load_v7_section(int fd, const struct td_layout *l, uint64_t off, struct tep_handle *tep,
			   int which)
{
	struct td_mem c = { NULL, 0, 0, l->big_endian };
	unsigned char *buf;
	size_t len;
	int ret;

	if (td_section_load(fd, l, off, &buf, &len) < 0)
		return -1;
	c.p = buf;
	c.len = len;
	if (which == 0)
		ret = parse_header_info(&c, tep, (int)l->long_size);
	else if (which == 1)
		ret = parse_formats(&c, tep, "ftrace");
	else
		ret = parse_event_systems(&c, tep);
	free(buf);
	return ret;
}

int td_meta_load(const char *path, int fd, const struct td_layout *l, struct tep_handle *tep)
{
	int ret;

	tep_set_file_bigendian(tep, l->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)l->long_size);
	tep_set_page_size(tep, (int)l->page_size);
	if (l->nr_cpus > 0)
		tep_set_cpus(tep, l->nr_cpus);

	if (l->version == 6) {
		ret = load_v6(fd, l, tep);
	} else {
		ret = -1;
		if (l->sec_header_info && l->sec_event_formats &&
		    !load_v7_section(fd, l, l->sec_header_info, tep, 0) &&
		    (!l->sec_ftrace_events ||
		     !load_v7_section(fd, l, l->sec_ftrace_events, tep, 1)) &&
		    !load_v7_section(fd, l, l->sec_event_formats, tep, 2))
			ret = 0;
	}
	if (ret < 0)
		return cfsr_error("cannot read '%s': file truncated or corrupt (event formats)",
				  path);
	return 0;
}

struct meta_try {
	const char *path;
	int fd;
	const struct td_layout *l;
};

static int try_meta_load(void *arg)
{
	const struct meta_try *m = arg;
	struct tep_handle *tep = tep_alloc();
	int ret;

	if (!tep)
		return -1;
	ret = td_meta_load(m->path, m->fd, m->l, tep);
	tep_free(tep);
	return ret;
}

struct tep_handle *td_meta_open(const char *path, int fd, const struct td_layout *l,
				const char *where)
{
	struct meta_try m = { path, fd, l };
	struct tep_handle *tep;

	tep_set_loglevel(TEP_LOG_NONE);
	switch (cfsr_sandbox_try(try_meta_load, &m)) {
	case 0:
	case -1: /* no child could be started: go ahead without the net */
		break;
	case 2:
		cfsr_error(
			"cannot read '%s': file corrupt (its event formats crash the format parser)",
			path);
		return NULL;
	default:
		cfsr_error("cannot read '%s': file truncated or corrupt (event formats)", path);
		return NULL;
	}
	tep = tep_alloc();
	if (!tep) {
		cfsr_error("cannot open '%s': out of memory", path);
		return NULL;
	}
	if (td_meta_load(path, fd, l, tep) < 0)
		goto fail;
	if (tep_get_events_count(tep) <= 0) {
		cfsr_error("cannot read '%s': no event formats in %s", path, where);
		goto fail;
	}
	return tep;
fail:
	tep_free(tep);
	return NULL;
}

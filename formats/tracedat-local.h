/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between the trace.dat reader's parts: where a trace.dat file
 * keeps its ring-buffer pages, and how to decompress them.
 */
#ifndef CFSR_TRACEDAT_LOCAL_H
#define CFSR_TRACEDAT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "trace.h"

/* One CPU's ring-buffer data of one buffer instance. */
struct td_extent {
	int cpu;
	uint64_t offset;
	uint64_t size;
};

/* A buffer instance: the top-level buffer ("") or a named one. */
struct td_buffer {
	char *name;
	char *clock;
	unsigned int page_size;
	/* the data are compressed in chunks (version 7) */
	bool compressed;
	int nr_extents;
	struct td_extent *extents;
};

/**
 * struct td_layout - the data layout of a trace.dat file
 * @version: file version, 6 or 7
 * @big_endian: numbers in the file are big endian
 * @long_size: size of "long" on the traced machine (4 or 8)
 * @page_size: ring-buffer page size
 * @compression: algorithm name, "none" when uncompressed
 * @ts_offset: nanoseconds added to every timestamp (OFFSET option)
 * @tsc2nsec: the file holds raw TSC timestamps needing conversion
 * @latency: the file holds a latency (text) trace, not ring-buffer pages
 * @nr_buffers: buffer instances with ring-buffer data
 * @buffers: their data
 * @file_size: size of the file in bytes
 * @meta_start: version 6: offset of the "header_page" block
 * @meta_end: version 6: offset just past the saved command lines
 * @sec_header_info: version 7: offset of the HEADER INFO section, 0 if none
 * @sec_ftrace_events: version 7: offset of the FTRACE EVENT FORMATS section
 * @sec_event_formats: version 7: offset of the EVENT FORMATS section
 * @sec_record_meta: offset of the recorder's metadata section (CFSR_SEC_META), 0 if none
 * @sec_record_truth: offset of the recorder's kernel-truth section (CFSR_SEC_TRUTH), 0 if none
 * @uname: UNAME option (uname -a of the traced machine), or NULL
 * @trace_clock: TRACECLOCK option, or NULL
 * @cpustats: CPUSTAT options, concatenated, or NULL
 * @nr_cpus: CPU count of the traced machine
 */
struct td_layout {
	unsigned int version;
	bool big_endian;
	unsigned int long_size;
	unsigned int page_size;
	char compression[32];
	int64_t ts_offset;
	bool tsc2nsec;
	bool latency;
	int nr_buffers;
	struct td_buffer *buffers;
	uint64_t file_size;
	uint64_t meta_start;
	uint64_t meta_end;
	uint64_t sec_header_info;
	uint64_t sec_ftrace_events;
	uint64_t sec_event_formats;
	uint64_t sec_record_meta;
	uint64_t sec_record_truth;
	char *uname;
	char *trace_clock;
	char *cpustats;
	int nr_cpus;
};

/**
 * td_layout_read() - find the ring-buffer data of a trace.dat file
 * @path: the file (for messages)
 * @fd: open file descriptor of @path
 * @l: filled on success; release with td_layout_release()
 *
 * Every offset and length read from the file is checked against the file
 * size, so that a truncated or corrupt file is reported, not followed.
 * Return: 0, or -1 after cfsr_error().
 */
int td_layout_read(const char *path, int fd, struct td_layout *l);

void td_layout_release(struct td_layout *l);

/**
 * td_section_load() - read a version 7 section's content
 * @fd: the file
 * @l: its layout
 * @off: offset of the section header
 * @out: set to a malloc'ed copy of the content, decompressed; caller frees
 * @out_len: set to its length
 *
 * Return: 0, or -1 when the section is out of the file, too large or corrupt.
 */
int td_section_load(int fd, const struct td_layout *l, uint64_t off, unsigned char **out,
		    size_t *out_len);

/**
 * td_section_extent() - where a version 7 section's content lies
 * @fd: the file
 * @l: its layout
 * @off: offset of the section header
 * @compressed: set when the section is compressed with the file's algorithm
 * @data_off: set to the offset of its content
 * @size: set to its length, checked against the file size
 *
 * Return: 0, or -1 when the header is out of the file.
 */
int td_section_extent(int fd, const struct td_layout *l, uint64_t off, bool *compressed,
		      uint64_t *data_off, uint64_t *size);

struct tep_handle;
struct tep_record;
struct tep_format_field;
struct td_type;

/**
 * struct td_decoder - decodes a file's scheduler tracepoint records
 * @tep: the file's event formats (borrowed)
 * @types: per declared event type, sorted by id (private)
 * @pub_types: the same, as struct cfsr_event_type for cfsr_trace_info
 * @nr_types: their number
 * @preempt_mask: sched_switch prev_state's preempted bit, 0 if unknown
 * @state_mask: its task-state bits, 0 if unknown
 * @common_type: the common_type field of the records
 * @common_pid: the common_pid field
 * @str: storage of the current event's borrowed string
 */
struct td_decoder {
	struct tep_handle *tep;
	struct td_type *types;
	struct cfsr_event_type *pub_types;
	int nr_types;
	uint64_t preempt_mask;
	uint64_t state_mask;
	struct tep_format_field *common_type;
	struct tep_format_field *common_pid;
	char *str;
	size_t str_alloc;
};

/* Resolve the handlers and fields of every event type of @tep; 0, or -1 (no memory). */
int td_decoder_init(struct td_decoder *d, struct tep_handle *tep);

/* Index of the event type with @id, or -1 when the file does not declare it. */
int td_decoder_find(const struct td_decoder *d, int id);

/* The record's event type id and common_pid; 0, or -1 when too short. */
int td_decoder_common(const struct td_decoder *d, const struct tep_record *rec, int *type_id,
		      int *pid);

/* Whether records of type @idx are decoded. */
bool td_decoder_known(const struct td_decoder *d, int idx);

/**
 * td_decoder_decode() - decode one record of type @idx
 * @ev: gets kind, type and payload; the caller sets ts, cpu and pid
 *
 * Return: 1 decoded, 0 a type that is not decoded, -1 a record too short
 * for its format.  A borrowed string in @ev lives until the next call.
 */
int td_decoder_decode(struct td_decoder *d, int idx, const struct tep_record *rec,
		      struct cfsr_event *ev);

void td_decoder_release(struct td_decoder *d);

/**
 * td_meta_load() - parse a trace.dat file's event formats into @tep
 * @path: the file (for messages)
 * @fd: open file descriptor of @path
 * @l: its layout, from td_layout_read()
 * @tep: a fresh handle from tep_alloc()
 *
 * Sets the file's endianness, long and page size, parses the ring-buffer
 * page header format and every ftrace and event format with libtraceevent.
 * Kallsyms, printk formats and saved command lines are not needed and not
 * read.  Return: 0, or -1 after cfsr_error().
 */
int td_meta_load(const char *path, int fd, const struct td_layout *l, struct tep_handle *tep);

/**
 * td_meta_open() - the event formats of a file, parsed without risk
 * @path: the file (for messages)
 * @fd: open file descriptor of @path
 * @l: its layout
 * @where: how messages name the formats' place, e.g. "trace.dat file"
 *
 * libtraceevent can crash on corrupt formats: td_meta_load() runs first in
 * a forked child (cfsr_sandbox_try()), and here only if the child
 * succeeded (or no child could be started).  A file without any event
 * format is refused.
 * Return: a new handle (tep_free() it), or NULL after cfsr_error().
 */
struct tep_handle *td_meta_open(const char *path, int fd, const struct td_layout *l,
				const char *where);

/**
 * td_decompress() - decompress one block of a version 7 file
 * @algo: the file's compression algorithm ("zstd", "zlib")
 * @src: compressed bytes
 * @src_len: their number
 * @dst: output buffer
 * @dst_len: exact expected output size
 *
 * Return: 0, or -1 when the algorithm is unknown or the data is corrupt.
 */
int td_decompress(const char *algo, const void *src, size_t src_len, void *dst, size_t dst_len);

struct tep_event;

/**
 * td_switch_state_masks() - how sched_switch encodes prev_state
 * @event: the sched_switch format, as the file declares it
 * @preempt: set to the bit that marks a preempted (still runnable) task
 * @state: set to the mask of task-state bits, 0 if not found
 *
 * Both are read from the event's print format, where the kernel tests
 * "prev_state & MASK" to print the state letters and the "+" marker.
 * Return: 0, or -1 when the preempted bit cannot be found.
 */
int td_switch_state_masks(const struct tep_event *event, uint64_t *preempt, uint64_t *state);

/* Bytes in memory (a loaded section or block), read with bounds checks. */
struct td_mem {
	const unsigned char *p;
	size_t len;
	size_t pos;
	bool big_endian;
};

/* Read a @len-byte number in the file's byte order; 0, or -1 past the end. */
int td_mem_num(struct td_mem *m, unsigned int len, uint64_t *val);

/* Return the NUL-terminated string at the cursor, or NULL if unterminated. */
const char *td_mem_str(struct td_mem *m);

/* Return the @len bytes at the cursor and move past them, or NULL. */
const void *td_mem_bytes(struct td_mem *m, uint64_t len);

/* Read exactly @len bytes at @off; return 0, or -1 on error or end of file. */
int td_pread(int fd, void *buf, size_t len, uint64_t off);

#endif /* CFSR_TRACEDAT_LOCAL_H */

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

/* Read exactly @len bytes at @off; return 0, or -1 on error or end of file. */
int td_pread(int fd, void *buf, size_t len, uint64_t off);

#endif /* CFSR_TRACEDAT_LOCAL_H */

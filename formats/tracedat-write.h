/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing trace.dat files, version 7, uncompressed or compressed with zlib
 * or zstd, as trace-cmd.dat.v7(5) documents them.
 *
 * The caller supplies the content: metadata sections as the bytes the
 * format defines for them (header info, event formats, ...), options, and
 * each buffer's per-CPU ring-buffer data as raw pages in files.  The
 * writer compresses, lays out, points the options at the sections and
 * finishes the file on close.  Files are little endian.
 */
#ifndef CFSR_TRACEDAT_WRITE_H
#define CFSR_TRACEDAT_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct td_writer;

/* Section ids of trace-cmd.dat.v7(5); the option pointing at each has the same id. */
enum {
	TD_SEC_HEADER_INFO = 16,
	TD_SEC_FTRACE_EVENTS = 17,
	TD_SEC_EVENT_FORMATS = 18,
	TD_SEC_KALLSYMS = 19,
	TD_SEC_PRINTK = 20,
	TD_SEC_CMDLINES = 21,
};

/* Option ids used by callers. */
enum {
	TD_OPT_CPUSTAT = 2,
	TD_OPT_TRACECLOCK = 4,
	TD_OPT_UNAME = 5,
	TD_OPT_CPUCOUNT = 8,
	TD_OPT_VERSION = 9,
};

/**
 * td_writer_create() - start a trace.dat file
 * @path: file to create (truncated if it exists)
 * @compression: "none", "zlib" or "zstd"
 * @long_size: size of a long on the traced machine (4 or 8)
 * @page_size: ring-buffer page size
 *
 * Return: a writer to finish with td_writer_close(), or NULL after cfsr_error().
 */
struct td_writer *td_writer_create(const char *path, const char *compression,
				   unsigned int long_size, unsigned int page_size);

/**
 * td_writer_section() - write a metadata section
 * @w: the writer
 * @id: one of TD_SEC_*; the matching option is added at close
 * @data: the section's content as trace-cmd.dat.v7(5) defines it
 * @len: its length
 *
 * Return: 0, or -1 after cfsr_error().
 */
int td_writer_section(struct td_writer *w, unsigned int id, const void *data, size_t len);

/* Add an option (id, data) to the options written at close; 0 or -1. */
int td_writer_option(struct td_writer *w, unsigned int id, const void *data, size_t len);

/**
 * td_writer_buffer() - write one buffer instance's ring-buffer data
 * @w: the writer
 * @name: instance name, "" for the top-level buffer
 * @clock: its trace clock
 * @nr_cpus: number of CPUs with data
 * @cpus: their CPU ids
 * @fds: per CPU, a file holding its raw pages, read from its current offset to its end
 *
 * Return: 0, or -1 after cfsr_error().
 */
int td_writer_buffer(struct td_writer *w, const char *name, const char *clock, int nr_cpus,
		     const int *cpus, const int *fds);

/**
 * td_writer_close() - write the options and finish the file
 * @w: the writer; freed in any case
 *
 * Return: 0, or -1 after cfsr_error() (the file is then incomplete).
 */
int td_writer_close(struct td_writer *w);

/**
 * td_append_section() - add a section to a finished version 7 file
 * @path: the file, as td_writer_close() left it
 * @id: the section's id, also the id of the option that points at it
 * @src: the section's content: read from its current offset to its end
 *
 * The section is stored uncompressed, whatever the file's compression, so
 * that its content can be a stream of its own (e.g. gzip).  A new options
 * section holding only the pointer to it becomes the first one, and chains
 * on to the file's options; readers that do not know @id skip it.
 *
 * Return: 0, or -1 after cfsr_error().
 */
int td_append_section(const char *path, unsigned int id, int src);

#endif /* CFSR_TRACEDAT_WRITE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace readers behind one interface.
 *
 * cfsr_trace_open() checks the path, reads the first bytes and asks each
 * reader's probe() whether the content is its format; the file name plays
 * no part.  The chosen reader then delivers struct cfsr_event records in
 * global time order through cfsr_trace_next().  Readers stream: their
 * memory depends on CPUs and event types, never on the number of events.
 */
#ifndef CFSR_FORMATS_H
#define CFSR_FORMATS_H

#include <stddef.h>

#include "event.h"
#include "trace.h"

struct cfsr_trace;

/**
 * struct cfsr_format - a reader
 * @name: short name shown by "info"
 * @probe: return 1 when @head (the first @len bytes of the file) is this format
 * @open: open t->data_path (@path names it in messages); set t->priv, fill
 *        t->info and t->stats.type_counts; report failure through
 *        cfsr_error() and return negative
 * @next: decode the next event into @ev: 1 for an event, 0 at the end,
 *        negative (after cfsr_error()) on a read error
 * @close: free everything @open allocated
 */
struct cfsr_format {
	const char *name;
	int (*probe)(const unsigned char *head, size_t len);
	int (*open)(struct cfsr_trace *t, const char *path);
	int (*next)(struct cfsr_trace *t, struct cfsr_event *ev);
	void (*close)(struct cfsr_trace *t);
};

/**
 * struct cfsr_trace - an open trace
 * @fmt: the reader
 * @priv: the reader's state
 * @path: the file name given to cfsr_trace_open(), used in messages
 * @data_path: the file the reader opens: @path, or a decompressed copy
 * @input_compression: "gzip" or "zstd" when @path was a compressed file, else NULL
 * @info: facts from the file's headers
 * @stats: counts kept while reading
 */
struct trace_ahead;

struct cfsr_trace {
	const struct cfsr_format *fmt;
	/* events read ahead by cfsr_trace_peek(), NULL until the first peek */
	struct trace_ahead *ahead;
	void *priv;
	char *path;
	char *data_path;
	const char *input_compression;
	int data_fd;
	struct cfsr_trace_info info;
	struct cfsr_trace_stats stats;
};

extern const struct cfsr_format cfsr_format_tracedat;
extern const struct cfsr_format cfsr_format_perfdata;
extern const struct cfsr_format cfsr_format_text;

/**
 * cfsr_trace_open() - open a trace file of any supported format
 * @path: file to read
 *
 * Reports a missing, unreadable, empty or unrecognised file, a directory,
 * and a truncated or corrupt one through cfsr_error().  Whether the file
 * holds scheduler events is known only once it has been read.
 *
 * Return: an owned trace, to be released with cfsr_trace_close(), or NULL.
 */
struct cfsr_trace *cfsr_trace_open(const char *path);

/**
 * cfsr_trace_next() - read the next event
 * @t: the trace
 * @ev: filled on success; its borrowed strings live until the next call
 *
 * Return: 1 for an event, 0 at the end of the trace, -1 on error.
 */
int cfsr_trace_next(struct cfsr_trace *t, struct cfsr_event *ev);

/* The most events cfsr_trace_peek() reads ahead. */
#define CFSR_TRACE_AHEAD_MAX 4096

/**
 * cfsr_trace_peek() - look at an event ahead of the one read last
 * @t: the trace
 * @i: 0 for the event cfsr_trace_next() returns next, 1 for the one after
 * @ev: set to the event, which lives until the next call of
 *      cfsr_trace_peek() or cfsr_trace_next()
 *
 * The events read ahead (at most CFSR_TRACE_AHEAD_MAX, their strings
 * copied) are returned by cfsr_trace_next() in order, unchanged; a read
 * error met ahead is returned by the cfsr_trace_next() that reaches it.
 * Memory stays bounded: a stream is never read further than the bound.
 *
 * Return: 1 for an event, 0 at the end of the trace or beyond the bound,
 * -1 on an error (out of memory, or the read error met).
 */
int cfsr_trace_peek(struct cfsr_trace *t, size_t i, const struct cfsr_event **ev);

/* cfsr_trace_peek() of @ctx, a trace, for lib/replay.h's cfsr_replay_set_peek(). */
int cfsr_trace_peek_fn(void *ctx, size_t i, const struct cfsr_event **ev);

/* Release a trace; accepts NULL. */
void cfsr_trace_close(struct cfsr_trace *t);

#endif /* CFSR_FORMATS_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Recording scheduler traces from this machine (formats/record.c).
 *
 * The recorder owns one tracefs instance for its whole life: it creates it,
 * enables the scheduler and cgroup events and the perf clock there, reads
 * the per-CPU raw pages while tracing, and removes the instance on every
 * way out.  The top-level buffer and the function tracer are never touched.
 * What it captured is written as a trace.dat (version 7) that trace-cmd
 * reads unchanged, with the machine's metadata and the kernel's own
 * scheduler state in sections of their own (docs/RECORD-FORMAT.md).
 */
#ifndef CFSR_RECORD_H
#define CFSR_RECORD_H

#include <stdbool.h>
#include <stdint.h>

struct td_writer;
struct cfsr_record;

/* Option and section ids of the recorder's own data in a trace.dat. */
enum {
	/* JSON object: machine, tunables, cgroups, recording facts */
	CFSR_SEC_META = 0xcf00,
	/* gzip stream of truth.jsonl lines (snapshot 0 = state at start) */
	CFSR_SEC_TRUTH = 0xcf01,
};

/**
 * struct cfsr_record_capture - a source of data recorded beside the events
 * @name: short name for messages, e.g. "pelt"
 * @priv: the capture's state
 * @start: called after tracing is on, before the command runs; 0 or -1
 * @poll: called from the main loop at least every 100 ms; 0 or -1
 * @stop: called after tracing stopped; stores what it captured in the
 *        trace through td_writer_section() (ids of its own, documented in
 *        docs/RECORD-FORMAT.md); 0 or -1
 * @free: release @priv; called on every path, also when @start was not
 * @next: next capture in the list
 *
 * A capture that fails in @start or @poll is dropped with a note; the
 * recording goes on without it.  The kernel PELT capture (--pelt) plugs in
 * here.
 */
struct cfsr_record_capture {
	const char *name;
	void *priv;
	int (*start)(void *priv, struct cfsr_record *rec);
	int (*poll)(void *priv);
	int (*stop)(void *priv, struct td_writer *w);
	void (*free)(void *priv);
	struct cfsr_record_capture *next;
};

/**
 * struct cfsr_record_opts - what to record
 * @output: trace.dat to write
 * @force: replace @output if it exists
 * @all: sample every task of the machine for --truth, not only the command's
 * @duration_ms: stop after this long; 0: when the command ends or on a signal
 * @truth_ms: take a kernel-truth snapshot this often; 0: only the one at start
 * @buffer_kb: per-CPU ring buffer size of the instance
 * @compression: "none", "zlib" or "zstd"
 * @argv: command to run and trace (NULL-terminated), or NULL
 * @captures: extra captures (list), or NULL
 */
struct cfsr_record_opts {
	const char *output;
	bool force;
	bool all;
	uint64_t duration_ms;
	unsigned int truth_ms;
	unsigned int buffer_kb;
	const char *compression;
	char *const *argv;
	struct cfsr_record_capture *captures;
};

/**
 * struct cfsr_record_result - what a recording got
 * @events: records in the written trace, counted by reading it back
 * @lost_events: events the ring buffer reported lost (overruns and drops)
 * @lost_pages: pages read back that follow lost events
 * @snapshots: kernel-truth snapshots embedded, the one at start included
 * @file_size: bytes written
 * @cmd_status: the command's wait status, -1 without a command
 * @stopped_by: signal that stopped the recording, 0 if none
 */
struct cfsr_record_result {
	uint64_t events;
	uint64_t lost_events;
	uint64_t lost_pages;
	uint64_t snapshots;
	uint64_t file_size;
	int cmd_status;
	int stopped_by;
};

/**
 * cfsr_record_run() - record until the command ends, the time is up or a signal
 * @o: what to record
 * @res: filled with what was recorded
 *
 * SIGINT, SIGTERM and SIGHUP stop the recording; what was captured is still
 * written.  The tracefs instance is removed on every path.  Notes (mounting
 * debugfs, lost events) go to stderr through cfsr_error()'s hook.
 *
 * Return: 0 when the trace was written, -1 after cfsr_error().
 */
int cfsr_record_run(const struct cfsr_record_opts *o, struct cfsr_record_result *res);

/**
 * cfsr_record_marker() - write a marker into the recording's trace
 * @rec: the recording
 * @text: the marker's text
 *
 * For captures that need a common point of time with the trace.
 * Return: 0, or -1 when the write failed.
 */
int cfsr_record_marker(struct cfsr_record *rec, const char *text);

/**
 * cfsr_record_pelt_path() - where the kernel PELT capture of a trace goes
 * @trace: the trace.dat's path
 *
 * "x.dat" gives "x.pelt.jsonl.gz"; a name without ".dat" gets
 * ".pelt.jsonl.gz" appended.  validate looks there for a trace's capture.
 * Return: a malloc()ed path, or NULL when out of memory.
 */
char *cfsr_record_pelt_path(const char *trace);

#endif /* CFSR_RECORD_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading kernel-truth files: truth.jsonl snapshots and pelt.jsonl(.gz)
 * streams of the kernel's own PELT updates.  The data types are in
 * lib/truth.h; this is the reader's interface (formats/truth.c).
 */
#ifndef CFSR_TRUTHFILE_H
#define CFSR_TRUTHFILE_H

#include "truth.h"

struct cfsr_truth_reader;

/**
 * cfsr_truth_open() - open a truth.jsonl or a pelt.jsonl, gzip-compressed or not
 * @path: file to read
 *
 * The format is recognised from the first line, not from the name: an object
 * with "kind" starts a truth.jsonl, one with "type": "hdr" a pelt.jsonl.  A
 * missing, unreadable, empty or unrecognised file is reported through
 * cfsr_error().  Memory depends on the longest line, not on the file length.
 *
 * Return: an owned reader, to be released with cfsr_truth_close(), or NULL.
 */
struct cfsr_truth_reader *cfsr_truth_open(const char *path);

/**
 * cfsr_truth_next() - read the next item
 * @r: the reader
 * @out: filled on success; its borrowed strings live until the next call
 *
 * Lines are delivered in file order; the first item of a pelt.jsonl is its
 * header.  Blank lines are ignored.  A malformed line (not a JSON object, no
 * string "kind"/"type", a member of the wrong JSON type, a number out of
 * range for its member, a second header) is skipped and counted, see
 * cfsr_truth_skipped(); reading goes on.  Errors that end the reading are
 * reported through cfsr_error(): a read error, corrupt or truncated gzip data
 * (never taken for the end of the file), an incomplete last line that does
 * not parse, a line longer than 16 MiB, memory exhaustion.
 *
 * Return: 1 for an item, 0 at the end of the file, -1 on error (later calls
 * return -1 again).
 */
int cfsr_truth_next(struct cfsr_truth_reader *r, struct cfsr_truth_item *out);

/* Release a reader and everything it owns; accepts NULL. */
void cfsr_truth_close(struct cfsr_truth_reader *r);

/* Return: which file @r reads. */
enum cfsr_truth_format cfsr_truth_format(const struct cfsr_truth_reader *r);

/**
 * cfsr_truth_pelt_hdr() - the header of a pelt.jsonl
 * @r: the reader
 *
 * Return: the header, owned by @r until cfsr_truth_close(); NULL for a
 * truth.jsonl.
 */
const struct cfsr_pelt_hdr *cfsr_truth_pelt_hdr(const struct cfsr_truth_reader *r);

/* Return: number of malformed lines skipped so far. */
uint64_t cfsr_truth_skipped(const struct cfsr_truth_reader *r);

/**
 * cfsr_truth_skip_reason() - why the first malformed line was skipped
 * @r: the reader
 *
 * Return: "'<path>' line <n>: <reason>", owned by @r until cfsr_truth_close(),
 * or NULL when no line was skipped.
 */
const char *cfsr_truth_skip_reason(const struct cfsr_truth_reader *r);

/* Return: static name of @kind ("snap", ...), "?" when out of range. */
const char *cfsr_truth_kind_name(enum cfsr_truth_kind kind);

/* Return: static name of @type ("se", ...), "?" when out of range. */
const char *cfsr_pelt_type_name(enum cfsr_pelt_type type);

#endif /* CFSR_TRUTHFILE_H */

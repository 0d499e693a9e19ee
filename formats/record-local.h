/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between the recorder's parts: reading the kernel's scheduler state
 * from procfs, sysfs and debugfs (record-state.c) for the recording loop
 * (record.c).
 */
#ifndef CFSR_RECORD_LOCAL_H
#define CFSR_RECORD_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

/* Where the scheduler's debug file lives. */
#define RS_SCHED_DEBUG "/sys/kernel/debug/sched/debug"

/**
 * rs_read_file() - read a whole file
 * @path: the file
 * @len: set to its length
 *
 * Return: its content, NUL-terminated, to be freed by the caller; NULL when
 * it cannot be read (or no memory).
 */
char *rs_read_file(const char *path, size_t *len);

/**
 * rs_parse_value() - a number as kernel/sched/debug.c prints it
 * @s: the text after the colon
 * @out: set to the value
 *
 * An integer, or "ms.nnnnnn" (SPLIT_NS()), which is ms * 10^6 + nnnnnn
 * nanoseconds; a negative one ("-ms.nnnnnn") is the negation of the whole.
 * Leading blanks and trailing text after a blank, such as " (logarithmic)",
 * are ignored.
 *
 * Return: 0, or -1 when @s is not such a number.
 */
int rs_parse_value(const char *s, int64_t *out);

/**
 * rs_debugfs_prepare() - make /sys/kernel/debug/sched readable if possible
 * @how: set to a static sentence saying what was found or done
 *
 * When debugfs is not mounted, it is mounted in a private mount namespace
 * of this process (so nothing changes for the rest of the machine).  Must
 * be called before any thread is started.
 *
 * Return: true when RS_SCHED_DEBUG can be read.
 */
bool rs_debugfs_prepare(const char **how);

/**
 * rs_snapshot_tasks() - the task rows of one snapshot
 * @out: the rows are appended here, one truth.jsonl line each
 * @seq: snapshot number
 * @root: with @root > 0, only the tasks of @root's process tree; else all
 * @with_affinity: add each task's CPU affinity ("affinity") to its row
 *
 * Return: number of rows, or -1 on a write error.
 */
long rs_snapshot_tasks(FILE *out, long seq, int root, bool with_affinity);

/**
 * rs_snapshot_debug() - the snap, cpu and cfs_rq rows of one snapshot
 * @out: the rows are appended here (snap first)
 * @seq: snapshot number
 * @sysctl: if not NULL, set to a new object with the sysctl_sched values
 * @nr_cfs_rq: set to the number of cfs_rq rows
 *
 * Return: 0, 1 when the debug file cannot be read (a snap row without the
 * header values is still written), -1 on a write error.
 */
int rs_snapshot_debug(FILE *out, long seq, struct json_object **sysctl, long *nr_cfs_rq);

/**
 * rs_machine_meta() - the machine's facts for the metadata section
 * @meta: members are added to this object: kernel, hz, cpus, topology,
 *        capacities, tunables, cgroup hierarchies
 * @debug_ok: RS_SCHED_DEBUG and its directory are readable
 */
void rs_machine_meta(struct json_object *meta, bool debug_ok);

/**
 * rs_parse_sched_features() - the names of a sched/features line
 * @text: the line, "NAME" for a feature on, "NO_NAME" for one off, in bit
 *        order; split in place
 * @names: the names, without NO_, are appended to this array
 * @mask: set to the bits of the features on
 *
 * Return: 0, or -1 when there is no name or more than 64.
 */
int rs_parse_sched_features(char *text, struct json_object *names, uint64_t *mask);

/**
 * rs_sched_features() - the kernel's scheduler feature names in bit order
 * @debug_ok: debugfs may be read
 *
 * From sched/features when it can be read, else from the kernel's BTF
 * (enum __SCHED_FEAT_*).
 * Return: a new object {"names": [...] or null, "source": ... or null, and
 * "why" when there are none}.
 */
struct json_object *rs_sched_features(bool debug_ok);

#endif /* CFSR_RECORD_LOCAL_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PELT capture: the kernel's own PELT updates, recorded with BPF on its
 * bare tracepoints (pelt_se_tp, pelt_cfs_tp, sched_util_est_se_tp,
 * sched_util_est_cfs_tp, pelt_rt_tp) and written as a pelt.jsonl(.gz)
 * that formats/truth.c reads (docs/PELT-CAPTURE.md).
 *
 * The record is placed on the time axis of a trace recorded with the
 * `perf` trace clock (local_clock()): ts = ktime + hdr.clock.offset_ns,
 * where the offset between bpf_ktime_get_ns() and local_clock() is
 * measured in the kernel at start and at stop.
 *
 * Usage:
 *
 *	cap = cfsr_pelt_capture_start("pelt.jsonl.gz", why, sizeof(why));
 *	if (!cap)
 *		note("no PELT capture: %s", why);
 *	while (running)
 *		cfsr_pelt_capture_poll(cap, 100);
 *	cfsr_pelt_capture_stop(cap, &records, &lost);
 *
 * Needs root (CAP_BPF and CAP_PERFMON) and a kernel with BTF.  One
 * capture at a time per process: libbpf's message hook is global.
 */
#ifndef CFSR_PELTCAP_H
#define CFSR_PELTCAP_H

#include <stddef.h>
#include <stdint.h>

struct cfsr_pelt_capture;

/**
 * cfsr_pelt_capture_start() - load and attach the BPF programs
 * @out_path: the pelt.jsonl to write; gzip-compressed when the name ends in
 *            ".gz".  Created (or truncated) here, once the programs are
 *            loaded, so that a bad path fails early; written by
 *            cfsr_pelt_capture_stop().  The caller decides whether an existing
 *            file may be replaced.  Removed again when the start fails later.
 * @why: receives a one-line human reason when the capture cannot start
 *       (no BTF, no permission, a tracepoint missing); may be NULL
 * @why_len: size of @why
 *
 * Records are kept in an unlinked temporary file (in $TMPDIR, else /tmp)
 * until cfsr_pelt_capture_stop(), so memory does not grow with them.
 *
 * Return: an owned capture, released by cfsr_pelt_capture_stop(); NULL with
 * @why set when the kernel does not allow it.  No message is printed.
 */
struct cfsr_pelt_capture *cfsr_pelt_capture_start(const char *out_path, char *why, size_t why_len);

/**
 * cfsr_pelt_capture_poll() - copy what the ring buffer holds
 * @cap: the capture
 * @timeout_ms: how long to wait for records; 0 returns at once, -1 waits
 *
 * Call it often enough that the ring buffer (8 MiB, about 25000 records)
 * does not fill: records that find it full are lost, and counted.  Every
 * 100 ms it also takes a clock-calibration point.
 *
 * Return: records copied (0 on timeout), or -1 with a message through
 * cfsr_error() (a failed write to the temporary file).  Interrupted by a
 * signal, it returns 0.
 */
int cfsr_pelt_capture_poll(struct cfsr_pelt_capture *cap, int timeout_ms);

/**
 * cfsr_pelt_capture_get_fd() - a descriptor that becomes readable with records
 * @cap: the capture
 *
 * For callers that wait in their own poll()/epoll loop; then call
 * cfsr_pelt_capture_poll(cap, 0).  Return: the epoll descriptor (borrowed,
 * valid until cfsr_pelt_capture_stop()).
 */
int cfsr_pelt_capture_get_fd(const struct cfsr_pelt_capture *cap);

/**
 * cfsr_pelt_capture_stop() - detach, calibrate, write the file, release
 * @cap: the capture; freed on every path (NULL is accepted and returns -1)
 * @records: if not NULL, receives the PELT records written
 * @lost: if not NULL, receives the records the kernel could not send
 *        because the ring buffer was full (also in the header's
 *        kernel_counters.dropped)
 *
 * Return: 0, or -1 with a message through cfsr_error() when the file could
 * not be written.
 */
int cfsr_pelt_capture_stop(struct cfsr_pelt_capture *cap, uint64_t *records, uint64_t *lost);

#endif /* CFSR_PELTCAP_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libtracecmd functions that the library exports but its installed header
 * (trace-cmd.h of trace-cmd 3.1) does not declare.  They are part of the
 * library's ABI since trace-cmd 3.0 and are what `trace-cmd report` itself
 * uses to read file metadata and to merge CPUs in time order.
 */
#ifndef CFSR_TRACECMD_LOCAL_H
#define CFSR_TRACECMD_LOCAL_H

#include <trace-cmd/trace-cmd.h>

const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);
struct tep_record *tracecmd_peek_next_data(struct tracecmd_input *handle, int *rec_cpu);
struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle, int *rec_cpu);

#endif /* CFSR_TRACECMD_LOCAL_H */

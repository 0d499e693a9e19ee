/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libtracecmd functions that the library exports but its installed header
 * (trace-cmd.h of trace-cmd 3.1) does not declare.  They are part of the
 * library's ABI since trace-cmd 3.0 and are what `trace-cmd report` itself
 * uses to read file metadata.
 */
#ifndef CFSR_TRACECMD_LOCAL_H
#define CFSR_TRACECMD_LOCAL_H

#include <trace-cmd/trace-cmd.h>

const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);

#endif /* CFSR_TRACECMD_LOCAL_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Choosing a reader by content, and the generic open/next/close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "formats.h"

static const struct cfsr_format *const formats[] = {
	&cfsr_format_tracedat,
	&cfsr_format_perfdata,
};

#define PROBE_LEN 512

static int read_head(const char *path, unsigned char *buf, size_t len, size_t *got)
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cfsr_error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		cfsr_error_errno("cannot stat '%s'", path);
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		cfsr_error("cannot read '%s': is a directory", path);
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		cfsr_error("cannot read '%s': not a regular file", path);
		goto out_close;
	}
	if (st.st_size == 0) {
		cfsr_error("cannot read '%s': file is empty", path);
		goto out_close;
	}
	do {
		n = read(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		cfsr_error_errno("cannot read '%s'", path);
		goto out_close;
	}
	*got = (size_t)n;
	close(fd);
	return 0;

out_close:
	close(fd);
	return -1;
}

struct cfsr_trace *cfsr_trace_open(const char *path)
{
	unsigned char head[PROBE_LEN];
	const struct cfsr_format *fmt = NULL;
	struct cfsr_trace *t;
	size_t got = 0;
	size_t i;

	if (read_head(path, head, sizeof(head), &got) < 0)
		return NULL;
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (formats[i]->probe(head, got)) {
			fmt = formats[i];
			break;
		}
	}
	if (!fmt) {
		cfsr_error("cannot read '%s': not a trace file (unknown format)", path);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		goto out_nomem;
	t->path = strdup(path);
	if (!t->path)
		goto out_free;
	t->fmt = fmt;
	if (fmt->open(t, path) < 0) {
		free(t->path);
		free(t);
		return NULL;
	}
	return t;

out_free:
	free(t);
out_nomem:
	cfsr_error("cannot open '%s': out of memory", path);
	return NULL;
}

int cfsr_trace_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	int ret = t->fmt->next(t, ev);

	return ret < 0 ? -1 : ret;
}

void cfsr_trace_close(struct cfsr_trace *t)
{
	if (!t)
		return;
	t->fmt->close(t);
	free(t->stats.type_counts);
	free(t->path);
	free(t);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Choosing a reader by content, and the generic open/next/close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"
#include "error.h"
#include "formats.h"

static const struct cfsr_format *const formats[] = {
	&cfsr_format_tracedat,
	&cfsr_format_perfdata,
	/* last: readers that check a magic number probe first */
	&cfsr_format_text,
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
	const char *compression;
	char data_path[64];
	struct cfsr_trace *t;
	int data_fd = -1;
	size_t got = 0;
	size_t i;

	if (read_head(path, head, sizeof(head), &got) < 0)
		return NULL;
	compression = cfsr_input_compression(head, got);
	if (compression) {
		/* readers need a seekable file: decompress, then probe the content */
		ssize_t n;

		data_fd = cfsr_input_decompress(path, compression);
		if (data_fd < 0)
			return NULL;
		snprintf(data_path, sizeof(data_path), "/proc/self/fd/%d", data_fd);
		n = pread(data_fd, head, sizeof(head), 0);
		got = n > 0 ? (size_t)n : 0;
		if (!got) {
			close(data_fd);
			cfsr_error("cannot read '%s': decompressed data is empty", path);
			return NULL;
		}
	}
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (formats[i]->probe(head, got)) {
			fmt = formats[i];
			break;
		}
	}
	if (!fmt) {
		cfsr_error("cannot read '%s': not a trace file (unknown format)", path);
		goto out_close;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		goto out_nomem;
	t->path = strdup(path);
	t->data_path = strdup(compression ? data_path : path);
	if (!t->path || !t->data_path)
		goto out_free;
	t->fmt = fmt;
	t->input_compression = compression;
	t->data_fd = data_fd;
	if (fmt->open(t, path) < 0) {
		t->data_fd = -1;
		free(t->data_path);
		free(t->path);
		free(t);
		goto out_close;
	}
	return t;

out_free:
	free(t->data_path);
	free(t->path);
	free(t);
out_nomem:
	cfsr_error("cannot open '%s': out of memory", path);
out_close:
	if (data_fd >= 0)
		close(data_fd);
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
	if (t->data_fd >= 0)
		close(t->data_fd);
	free(t->stats.type_counts);
	free(t->data_path);
	free(t->path);
	free(t);
}

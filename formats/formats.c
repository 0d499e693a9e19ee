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

/* Events read ahead: a ring of @n from @head, then the result @end. */
struct trace_ahead {
	struct cfsr_event *q;
	size_t cap, head, n;
	/* 0 more to read; 1 the end was met, -1 a read error */
	int end;
	/*
	 * the copied strings of the queued events, and of the one returned
	 * last (a look ahead reads on, which would free the reader's own)
	 */
	char **str;
	char *cur;
};

/* The borrowed string an event of @ev's kind carries, or NULL. */
static const char **event_str(struct cfsr_event *ev)
{
	switch (ev->kind) {
	case CFSR_EV_EXEC:
		return &ev->exec.filename;
	case CFSR_EV_CGROUP_ATTACH:
	case CFSR_EV_CGROUP_MKDIR:
	case CFSR_EV_CGROUP_RMDIR:
		return &ev->cgroup.path;
	case CFSR_EV_MARKER:
		return &ev->marker.text;
	default:
		return NULL;
	}
}

/* Read one more event into @a's ring.  Return: 1, 0 at the end, -1. */
static int ahead_fill(struct cfsr_trace *t, struct trace_ahead *a)
{
	struct cfsr_event *q;
	const char **s;
	char **str, *copy = NULL;
	size_t i, slot, cap;
	int ret;

	if (a->end)
		return a->end < 0 ? -1 : 0;
	if (a->n == a->cap) {
		cap = a->cap ? 2 * a->cap : 64;
		q = malloc(cap * sizeof(*q));
		str = malloc(cap * sizeof(*str));
		if (!q || !str) {
			free(q);
			free(str);
			return cfsr_error("reading ahead in '%s': out of memory", t->path);
		}
		for (i = 0; i < a->n; i++) {
			q[i] = a->q[(a->head + i) % a->cap];
			str[i] = a->str[(a->head + i) % a->cap];
		}
		free(a->q);
		free(a->str);
		a->q = q;
		a->str = str;
		a->cap = cap;
		a->head = 0;
	}
	slot = (a->head + a->n) % a->cap;
	ret = t->fmt->next(t, &a->q[slot]);
	if (ret <= 0) {
		a->end = ret < 0 ? -1 : 1;
		return ret < 0 ? -1 : 0;
	}
	s = event_str(&a->q[slot]);
	if (s && *s) {
		copy = strdup(*s);
		if (!copy)
			return cfsr_error("reading ahead in '%s': out of memory", t->path);
		*s = copy;
	}
	a->str[slot] = copy;
	a->n++;
	return 1;
}

/*
 * The string of @ev, just read from the reader, copied: a look ahead
 * while it is replayed reads on, which may free the reader's copy.
 * Return: 1, or -1 when out of memory.
 */
static int keep_str(struct cfsr_trace *t, struct cfsr_event *ev)
{
	const char **s = event_str(ev);
	char *copy;

	if (!s || !*s)
		return 1;
	if (!t->ahead) {
		t->ahead = calloc(1, sizeof(*t->ahead));
		if (!t->ahead)
			return cfsr_error("reading '%s': out of memory", t->path);
	}
	copy = strdup(*s);
	if (!copy)
		return cfsr_error("reading '%s': out of memory", t->path);
	free(t->ahead->cur);
	t->ahead->cur = copy;
	*s = copy;
	return 1;
}

int cfsr_trace_peek(struct cfsr_trace *t, size_t i, const struct cfsr_event **ev)
{
	struct trace_ahead *a = t->ahead;
	int ret;

	if (i >= CFSR_TRACE_AHEAD_MAX)
		return 0;
	if (!a) {
		a = calloc(1, sizeof(*a));
		if (!a)
			return cfsr_error("reading ahead in '%s': out of memory", t->path);
		t->ahead = a;
	}
	while (a->n <= i) {
		ret = ahead_fill(t, a);
		if (ret <= 0)
			return ret;
	}
	*ev = &a->q[(a->head + i) % a->cap];
	return 1;
}

int cfsr_trace_peek_fn(void *ctx, size_t i, const struct cfsr_event **ev)
{
	return cfsr_trace_peek(ctx, i, ev);
}

int cfsr_trace_next(struct cfsr_trace *t, struct cfsr_event *ev)
{
	struct trace_ahead *a = t->ahead;
	int ret;

	if (a && a->n) {
		*ev = a->q[a->head];
		free(a->cur);
		a->cur = a->str[a->head];
		a->head = (a->head + 1) % a->cap;
		a->n--;
		return 1;
	}
	if (a && a->end)
		return a->end < 0 ? -1 : 0;
	ret = t->fmt->next(t, ev);
	if (ret > 0)
		return keep_str(t, ev);
	return ret < 0 ? -1 : ret;
}

/* Release what was read ahead. */
static void ahead_free(struct trace_ahead *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++)
		free(a->str[(a->head + i) % a->cap]);
	free(a->cur);
	free(a->str);
	free(a->q);
	free(a);
}

void cfsr_trace_close(struct cfsr_trace *t)
{
	if (!t)
		return;
	ahead_free(t->ahead);
	t->fmt->close(t);
	if (t->data_fd >= 0)
		close(t->data_fd);
	free(t->stats.type_counts);
	free(t->data_path);
	free(t->path);
	free(t);
}

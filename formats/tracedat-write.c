// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing trace.dat files, version 7.  See tracedat-write.h.
 *
 * Layout: the initial header (magic, version "7", endianness, long size,
 * page size, compression name and version, offset of the first options
 * section), then each section as it is handed in, then one options
 * section written at close, whose offset is patched into the header.
 * Compressed sections carry (compressed size, uncompressed size) before
 * their data; compressed ring-buffer data is a chunk count followed by
 * chunks of up to TD_CHUNK_PAGES pages, each with its two sizes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "alloc.h"
#include "error.h"
#include "tracedat-write.h"

#define TD_CHUNK_PAGES 10

enum {
	OPT_DONE = 0,
	OPT_BUFFER = 3,
	SEC_OPTIONS = 0,
	SEC_FL_COMPRESS = 1,
};

struct td_writer {
	int fd;
	char *path;
	char compression[8];
	unsigned int page_size;
	uint64_t opt_field; /* offset of the header's options-offset field */
	/* options collected until close */
	unsigned char *opts;
	size_t opts_len;
	size_t opts_alloc;
	bool failed;
};

static void put_le(unsigned char *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static int write_all(struct td_writer *w, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->failed = true;
			return cfsr_error_errno("cannot write '%s'", w->path);
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_num(struct td_writer *w, uint64_t v, unsigned int n)
{
	unsigned char b[8];

	put_le(b, v, n);
	return write_all(w, b, n);
}

static int64_t tell(struct td_writer *w)
{
	off_t pos = lseek(w->fd, 0, SEEK_CUR);

	if (pos < 0) {
		w->failed = true;
		return cfsr_error_errno("cannot seek in '%s'", w->path);
	}
	return pos;
}

static bool compressing(const struct td_writer *w)
{
	return strcmp(w->compression, "none") != 0;
}

/* Compress @len bytes into a malloc'ed buffer; return its size, or 0 on failure. */
static size_t compress_block(const struct td_writer *w, const void *src, size_t len,
			     unsigned char **out)
{
	size_t cap, n;

	if (!strcmp(w->compression, "zstd")) {
		cap = ZSTD_compressBound(len);
		*out = malloc(cap ? cap : 1);
		if (!*out)
			return 0;
		n = ZSTD_compress(*out, cap, src, len, 3);
		if (ZSTD_isError(n))
			n = 0;
	} else {
		uLongf zn;

		cap = compressBound((uLong)len);
		*out = malloc(cap ? cap : 1);
		if (!*out)
			return 0;
		zn = (uLongf)cap;
		n = compress2(*out, &zn, src, (uLong)len, Z_BEST_COMPRESSION) == Z_OK ? zn : 0;
	}
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

/* (compressed size, uncompressed size, data) of one block or chunk. */
static int write_compressed(struct td_writer *w, const void *src, size_t len, uint64_t *written)
{
	unsigned char *buf;
	size_t n = compress_block(w, src, len, &buf);
	int ret;

	if (!n || n > UINT32_MAX || len > UINT32_MAX) {
		free(buf);
		w->failed = true;
		return cfsr_error("cannot write '%s': %s compression failed", w->path,
				  w->compression);
	}
	ret = write_num(w, n, 4);
	if (!ret)
		ret = write_num(w, len, 4);
	if (!ret)
		ret = write_all(w, buf, n);
	free(buf);
	*written = 8 + (uint64_t)n;
	return ret;
}

/* Section header with a size to patch; return the offset of the size field. */
static int64_t section_start(struct td_writer *w, unsigned int id, unsigned int flags)
{
	int64_t pos;

	if (write_num(w, id, 2) < 0 || write_num(w, flags, 2) < 0 || write_num(w, 0, 4) < 0)
		return -1;
	pos = tell(w);
	if (pos < 0 || write_num(w, 0, 8) < 0)
		return -1;
	return pos;
}

static int patch(struct td_writer *w, uint64_t off, uint64_t v, unsigned int n)
{
	unsigned char b[8];

	put_le(b, v, n);
	if (pwrite(w->fd, b, n, (off_t)off) != (ssize_t)n) {
		w->failed = true;
		return cfsr_error_errno("cannot write '%s'", w->path);
	}
	return 0;
}

/* A whole section: header, then the (compressed) content. Return its offset. */
static int64_t write_section(struct td_writer *w, unsigned int id, const void *data, size_t len)
{
	int64_t start = tell(w), size_field;
	uint64_t size = len;

	if (start < 0)
		return -1;
	size_field = section_start(w, id, compressing(w) ? SEC_FL_COMPRESS : 0);
	if (size_field < 0)
		return -1;
	if (compressing(w)) {
		if (write_compressed(w, data, len, &size) < 0)
			return -1;
	} else if (write_all(w, data, len) < 0) {
		return -1;
	}
	if (patch(w, (uint64_t)size_field, size, 8) < 0)
		return -1;
	return start;
}

int td_writer_option(struct td_writer *w, unsigned int id, const void *data, size_t len)
{
	size_t need = w->opts_len + 6 + len;

	if (len > UINT32_MAX || CFSR_ALLOC_GROW(w->opts, need, w->opts_alloc) < 0) {
		w->failed = true;
		return cfsr_error("cannot write '%s': out of memory", w->path);
	}
	put_le(w->opts + w->opts_len, id, 2);
	put_le(w->opts + w->opts_len + 2, len, 4);
	if (len)
		memcpy(w->opts + w->opts_len + 6, data, len);
	w->opts_len = need;
	return 0;
}

struct td_writer *td_writer_create(const char *path, const char *compression,
				   unsigned int long_size, unsigned int page_size)
{
	static const unsigned char magic[] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};
	const char *version = "";
	unsigned char hdr[6];
	struct td_writer *w;

	if (strcmp(compression, "none") && strcmp(compression, "zlib") &&
	    strcmp(compression, "zstd")) {
		cfsr_error("cannot write '%s': unknown compression '%s'", path, compression);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w || !(w->path = strdup(path))) {
		free(w);
		cfsr_error("cannot write '%s': out of memory", path);
		return NULL;
	}
	strcpy(w->compression, compression);
	w->page_size = page_size;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		cfsr_error_errno("cannot create '%s'", path);
		free(w->path);
		free(w);
		return NULL;
	}
	if (!strcmp(compression, "zstd"))
		version = ZSTD_versionString();
	else if (!strcmp(compression, "zlib"))
		version = zlibVersion();
	hdr[0] = '7';
	hdr[1] = '\0';
	hdr[2] = 0; /* little endian */
	hdr[3] = (unsigned char)long_size;
	if (write_all(w, magic, sizeof(magic)) < 0 || write_all(w, hdr, 4) < 0 ||
	    write_num(w, page_size, 4) < 0 ||
	    write_all(w, compression, strlen(compression) + 1) < 0 ||
	    write_all(w, version, strlen(version) + 1) < 0)
		goto out_fail;
	w->opt_field = (uint64_t)tell(w);
	if (write_num(w, 0, 8) < 0)
		goto out_fail;
	return w;

out_fail:
	close(w->fd);
	free(w->path);
	free(w);
	return NULL;
}

int td_writer_section(struct td_writer *w, unsigned int id, const void *data, size_t len)
{
	unsigned char off[8];
	int64_t pos = write_section(w, id, data, len);

	if (pos < 0)
		return -1;
	put_le(off, (uint64_t)pos, 8);
	return td_writer_option(w, id, off, 8);
}

/* Copy one CPU's pages from @fd, compressing in chunks; return the bytes written. */
static int copy_cpu(struct td_writer *w, int fd, uint64_t *size)
{
	size_t chunk_len = (size_t)w->page_size * TD_CHUNK_PAGES;
	unsigned char *buf = malloc(chunk_len);
	int64_t count_pos = 0;
	uint64_t chunks = 0;
	int ret = -1;

	*size = 0;
	if (!buf)
		return cfsr_error("cannot write '%s': out of memory", w->path);
	if (compressing(w)) {
		count_pos = tell(w);
		if (count_pos < 0 || write_num(w, 0, 4) < 0)
			goto out;
	}
	for (;;) {
		size_t got = 0;
		ssize_t n;

		while (got < chunk_len) {
			n = read(fd, buf + got, chunk_len - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				cfsr_error_errno("cannot write '%s': reading CPU data", w->path);
				goto out;
			}
			if (n == 0)
				break;
			got += (size_t)n;
		}
		if (!got)
			break;
		/* whole pages only: pad a short tail with zeros */
		if (got % w->page_size) {
			size_t pad = w->page_size - got % w->page_size;

			memset(buf + got, 0, pad);
			got += pad;
		}
		if (compressing(w)) {
			uint64_t written;

			if (write_compressed(w, buf, got, &written) < 0)
				goto out;
			*size += written;
			chunks++;
		} else {
			if (write_all(w, buf, got) < 0)
				goto out;
			*size += got;
		}
	}
	if (compressing(w) && patch(w, (uint64_t)count_pos, chunks, 4) < 0)
		goto out;
	ret = 0;
out:
	free(buf);
	return ret;
}

int td_writer_buffer(struct td_writer *w, const char *name, const char *clock, int nr_cpus,
		     const int *cpus, const int *fds)
{
	size_t nlen = strlen(name) + 1, clen = strlen(clock) + 1;
	size_t opt_len = 8 + nlen + clen + 4 + 4 + (size_t)nr_cpus * 20;
	unsigned char *opt = calloc(1, opt_len), *p;
	int64_t start, size_field, pos, end;
	uint64_t size;
	int i, ret = -1;

	if (!opt)
		return cfsr_error("cannot write '%s': out of memory", w->path);
	start = tell(w);
	if (start < 0)
		goto out;
	size_field = section_start(w, OPT_BUFFER, compressing(w) ? SEC_FL_COMPRESS : 0);
	if (size_field < 0)
		goto out;
	put_le(opt, (uint64_t)start, 8);
	p = opt + 8;
	memcpy(p, name, nlen);
	p += nlen;
	memcpy(p, clock, clen);
	p += clen;
	put_le(p, w->page_size, 4);
	put_le(p + 4, (uint64_t)nr_cpus, 4);
	p += 8;
	for (i = 0; i < nr_cpus; i++) {
		/* CPU data start page aligned */
		pos = tell(w);
		if (pos < 0)
			goto out;
		if (pos % w->page_size) {
			static const unsigned char zero[64];
			size_t pad = w->page_size - (size_t)(pos % w->page_size);

			while (pad) {
				size_t n = pad < sizeof(zero) ? pad : sizeof(zero);

				if (write_all(w, zero, n) < 0)
					goto out;
				pad -= n;
			}
			pos = tell(w);
		}
		if (copy_cpu(w, fds[i], &size) < 0)
			goto out;
		put_le(p, (uint64_t)cpus[i], 4);
		put_le(p + 4, (uint64_t)pos, 8);
		/* a compressed extent's size leaves out its 4-byte chunk count */
		put_le(p + 12, compressing(w) ? size : size, 8);
		p += 20;
	}
	end = tell(w);
	if (end < 0 || patch(w, (uint64_t)size_field, (uint64_t)(end - size_field - 8), 8) < 0)
		goto out;
	ret = td_writer_option(w, OPT_BUFFER, opt, opt_len);
out:
	free(opt);
	return ret;
}

int td_writer_close(struct td_writer *w)
{
	unsigned char done[8] = { 0 };
	int64_t pos;
	int ret = -1;

	if (w->failed)
		goto out;
	if (td_writer_option(w, OPT_DONE, done, sizeof(done)) < 0)
		goto out;
	pos = write_section(w, SEC_OPTIONS, w->opts, w->opts_len);
	if (pos < 0 || patch(w, w->opt_field, (uint64_t)pos, 8) < 0)
		goto out;
	ret = 0;
out:
	if (close(w->fd) < 0 && !ret)
		ret = cfsr_error_errno("cannot write '%s'", w->path);
	free(w->opts);
	free(w->path);
	free(w);
	return ret;
}

/* Offset of the header's options-offset field: after magic, version, endianness, sizes, names. */
static int64_t header_opt_field(int fd, const char *path)
{
	unsigned char buf[256];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	size_t pos = 10, nul = 0;
	int strings = 0;

	if (n < 32 || memcmp(buf + 1, "\x08\x44tracing", 9) || buf[0] != 0x17)
		return cfsr_error("cannot append to '%s': not a trace.dat file", path);
	/* "7\0", endianness, long size, page size, compression name\0, its version\0 */
	for (; pos < (size_t)n && strings < 3; pos++) {
		if (buf[pos])
			continue;
		strings++;
		nul = pos;
		if (strings == 1)
			pos += 6; /* endianness, long size, page size */
	}
	if (strings < 3 || buf[10] != '7' || nul + 9 > (size_t)n)
		return cfsr_error("cannot append to '%s': not a version 7 trace.dat", path);
	return (int64_t)nul + 1;
}

int td_append_section(const char *path, unsigned int id, int src)
{
	struct td_writer w = { .fd = -1, .path = (char *)path, .compression = "none" };
	unsigned char buf[65536], old[8], opts[6 + 8 + 6 + 8];
	int64_t field, sec, size_field, optsec;
	uint64_t size = 0, old_off = 0;
	int i, ret = -1;

	w.fd = open(path, O_RDWR | O_CLOEXEC);
	if (w.fd < 0)
		return cfsr_error_errno("cannot open '%s'", path);
	field = header_opt_field(w.fd, path);
	if (field < 0 || pread(w.fd, old, 8, field) != 8)
		goto out;
	for (i = 7; i >= 0; i--)
		old_off = old_off << 8 | old[i];
	sec = lseek(w.fd, 0, SEEK_END);
	if (sec < 0)
		goto out;
	/* an uncompressed section: its content is the caller's own stream */
	size_field = section_start(&w, id, 0);
	if (size_field < 0)
		goto out;
	for (;;) {
		ssize_t n = read(src, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cfsr_error_errno("cannot append to '%s'", path);
			goto out;
		}
		if (!n)
			break;
		if (write_all(&w, buf, (size_t)n) < 0)
			goto out;
		size += (uint64_t)n;
	}
	if (patch(&w, (uint64_t)size_field, size, 8) < 0)
		goto out;
	/* a new first options section: this section, then on to the old options */
	put_le(opts, id, 2);
	put_le(opts + 2, 8, 4);
	put_le(opts + 6, (uint64_t)sec, 8);
	put_le(opts + 14, OPT_DONE, 2);
	put_le(opts + 16, 8, 4);
	put_le(opts + 20, old_off, 8);
	optsec = tell(&w);
	if (optsec < 0 || section_start(&w, SEC_OPTIONS, 0) < 0 ||
	    write_all(&w, opts, sizeof(opts)) < 0 ||
	    patch(&w, (uint64_t)optsec + 8, sizeof(opts), 8) < 0 ||
	    patch(&w, (uint64_t)field, (uint64_t)optsec, 8) < 0)
		goto out;
	ret = 0;
out:
	if (close(w.fd) < 0 && !ret)
		ret = cfsr_error_errno("cannot write '%s'", path);
	return ret;
}

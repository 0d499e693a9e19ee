// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compressed input files.  See decompress.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "decompress.h"
#include "error.h"

#define CHUNK (256u << 10)

const char *cfsr_input_compression(const unsigned char *head, size_t len)
{
	if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return "gzip";
	if (len >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f && head[3] == 0xfd)
		return "zstd";
	return NULL;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char name[4096];
	int fd;

	snprintf(name, sizeof(name), "%s/cfsreplay-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(name);
	if (fd >= 0)
		unlink(name);
	return fd;
}

static int from_gzip(const char *path, int out, unsigned char *buf)
{
	gzFile gz = gzopen(path, "rb");
	int n, err, ret = -1;

	if (!gz)
		return cfsr_error_errno("cannot read '%s'", path);
	while ((n = gzread(gz, buf, CHUNK)) > 0) {
		if (write_all(out, buf, (size_t)n) < 0) {
			cfsr_error_errno("cannot decompress '%s': writing the temporary copy",
					 path);
			goto out;
		}
	}
	gzerror(gz, &err);
	/* gzread() returns 0 at a stream cut short; zlib calls that a buffer error */
	if (err == Z_BUF_ERROR) {
		cfsr_error("cannot decompress '%s': file truncated (gzip data ends early)", path);
		goto out;
	}
	if (n < 0 || (err != Z_OK && err != Z_STREAM_END)) {
		cfsr_error("cannot decompress '%s': corrupt gzip data", path);
		goto out;
	}
	if (!gzeof(gz)) {
		cfsr_error("cannot decompress '%s': file truncated (gzip data ends early)", path);
		goto out;
	}
	ret = 0;
out:
	gzclose(gz);
	return ret;
}

static int from_zstd(const char *path, int out, unsigned char *buf)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	unsigned char *obuf = malloc(CHUNK);
	FILE *in = fopen(path, "rb");
	size_t n, last = 0;
	int ret = -1;

	if (!ds || !obuf || !in) {
		cfsr_error_errno("cannot read '%s'", path);
		goto out;
	}
	ZSTD_initDStream(ds);
	while ((n = fread(buf, 1, CHUNK, in)) > 0) {
		ZSTD_inBuffer ib = { buf, n, 0 };

		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { obuf, CHUNK, 0 };

			last = ZSTD_decompressStream(ds, &ob, &ib);
			if (ZSTD_isError(last)) {
				cfsr_error("cannot decompress '%s': corrupt zstd data", path);
				goto out;
			}
			if (write_all(out, obuf, ob.pos) < 0) {
				cfsr_error_errno(
					"cannot decompress '%s': writing the temporary copy", path);
				goto out;
			}
		}
	}
	/* a frame still expecting input: the file was cut */
	if (ferror(in) || last != 0) {
		cfsr_error("cannot decompress '%s': file truncated (zstd data ends early)", path);
		goto out;
	}
	ret = 0;
out:
	if (in)
		fclose(in);
	free(obuf);
	ZSTD_freeDStream(ds);
	return ret;
}

int cfsr_input_decompress(const char *path, const char *algo)
{
	unsigned char *buf = malloc(CHUNK);
	int fd = temp_file(), ret;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return cfsr_error_errno("cannot decompress '%s': no temporary file", path);
	}
	ret = !strcmp(algo, "gzip") ? from_gzip(path, fd, buf) : from_zstd(path, fd, buf);
	free(buf);
	if (ret < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compressed input files (.gz, .zst), recognised by content.
 *
 * Every reader needs a seekable file, so a compressed input is decompressed,
 * streaming, into an unlinked temporary file under $TMPDIR (or /tmp): disk
 * use is the decompressed size, memory is a fixed buffer.
 */
#ifndef CFSR_DECOMPRESS_H
#define CFSR_DECOMPRESS_H

#include <stddef.h>

/* "gzip" or "zstd" if @head (the first @len bytes) starts such a stream, else NULL. */
const char *cfsr_input_compression(const unsigned char *head, size_t len);

/**
 * cfsr_input_decompress() - decompress @path into an unlinked temporary file
 * @path: the compressed file
 * @algo: from cfsr_input_compression()
 *
 * Return: a file descriptor open on the decompressed data, or -1 after
 * cfsr_error() (corrupt or truncated stream, no space).
 */
int cfsr_input_decompress(const char *path, const char *algo);

#endif /* CFSR_DECOMPRESS_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver: gives a recorded trace.dat new metadata, the way the
 * recorder appends its sections (td_append_section()): the JSON of FILE
 * becomes the CFSR_SEC_META section that readers take, the old one stays
 * in the file unread.
 *
 *   meta-set TRACE JSON
 *
 * Exit status: 0, 1 when the file could not be written, 2 usage.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "record.h"
#include "tracedat-write.h"

int main(int argc, char **argv)
{
	int fd, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: meta-set TRACE JSON\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	ret = td_append_section(argv[1], CFSR_SEC_META, fd);
	close(fd);
	return ret < 0 ? 1 : 0;
}

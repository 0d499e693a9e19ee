// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver: gives a recorded trace.dat new metadata, the way the
 * recorder appends its sections (td_append_section()): the JSON of FILE
 * becomes the CFSR_SEC_META section that readers take, the old one stays
 * in the file unread; with --truth, a gzip stream of truth.jsonl lines
 * becomes its kernel snapshots (CFSR_SEC_TRUTH) the same way.
 *
 *   meta-set [--truth] TRACE FILE
 *
 * Exit status: 0, 1 when the file could not be written, 2 usage.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "tracedat-write.h"

int main(int argc, char **argv)
{
	int fd, ret, sec = CFSR_SEC_META;

	if (argc == 4 && !strcmp(argv[1], "--truth")) {
		sec = CFSR_SEC_TRUTH;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: meta-set [--truth] TRACE FILE\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	ret = td_append_section(argv[1], sec, fd);
	close(fd);
	return ret < 0 ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay help [COMMAND]: the list of commands, or one command's usage.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmds.h"
#include "error.h"

static const char *const help_usage[] = {
	"usage: cfsreplay help [COMMAND]",
	"",
	"Without COMMAND, list the commands; with it, show the command's usage.",
	"The manual pages (docs/cfsreplay-COMMAND.1.txt) describe each in full.",
	NULL,
};

static void print_usage(const char *const *usage)
{
	for (; *usage; usage++)
		puts(*usage);
}

int cmd_help(int argc, const char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage(help_usage);
			return CFSR_EXIT_OK;
		default:
			cfsr_error("help: unknown option '%s'; see 'cfsreplay help help'",
				   argv[optind - 1]);
			return CFSR_EXIT_ERROR;
		}
	}
	if (optind == argc) {
		cfsr_list_commands();
		return CFSR_EXIT_OK;
	}
	if (optind + 1 != argc) {
		cfsr_error("help takes at most one command; see 'cfsreplay help help'");
		return CFSR_EXIT_ERROR;
	}
	ret = cfsr_command_usage(argv[optind]);
	if (ret < 0) {
		cfsr_error("'%s' is not a cfsreplay command; see 'cfsreplay help'", argv[optind]);
		return CFSR_EXIT_ERROR;
	}
	return ret;
}

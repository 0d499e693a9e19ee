// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfsreplay: main and the command table.
 *
 * "cfsreplay <command> [options]" runs a command; "cfsreplay TRACE" runs
 * the default command on TRACE; "<command> --help" becomes
 * "help <command>".  Only main exits, with the command's status.  main also
 * checks that stdout was written completely.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "cmds.h"
#include "error.h"
#include "replay.h"

enum {
	CMD_DEFAULT = 1 << 0,
};

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	unsigned int flags;
	const char *summary;
};

/* The only list of commands, sorted by name. */
static const struct cmd_struct commands[] = {
	{ "compare", cmd_compare, 0,
	  "two traces of one workload side by side, or one trace under two kernel models" },
	{ "help", cmd_help, 0, "show help for cfsreplay or one of its commands" },
	{ "info", cmd_info, 0, "describe a trace: format, kernel, clock, CPUs, events" },
	{ "report", cmd_report, CMD_DEFAULT,
	  "idle CPUs while tasks wait, and placements against the kernel's rule" },
	{ "record", cmd_record, 0, "record a trace with metadata and kernel snapshots (root)" },
	{ "signals", cmd_signals, 0, "the model's PELT signals, one row per update" },
	{ "validate", cmd_validate, 0, "compare the model with the kernel's own PELT updates" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cmd_struct *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static const struct cmd_struct *default_command(void)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].flags & CMD_DEFAULT)
			return &commands[i];
	return NULL;
}

static void list_commands(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: cfsreplay <command> [options] [TRACE]\n"
		"   or: cfsreplay TRACE            (runs '%s')\n"
		"   or: cfsreplay --help | --version\n\n"
		"commands:\n",
		default_command()->name);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n'cfsreplay help <command>' or 'cfsreplay <command> --help' describes a command.\n"
		"Exit status: 0 success, 1 divergence beyond a requested threshold, 2 error.\n");
}

void cfsr_list_commands(void)
{
	list_commands(stdout);
}

int cfsr_command_usage(const char *name)
{
	const struct cmd_struct *cmd = find_command(name);
	const char *argv[] = { name, "-h", NULL };

	if (!cmd)
		return -1;
	return cmd->fn(2, argv);
}

int cfsr_reading_structure(struct cfsr_replay *r, const struct cfsr_clock_reading *rd)
{
	if (rd->group && cfsr_replay_task_move_group(r, rd->tid, rd->group, rd->ts) < 0)
		return -1;
	if (rd->shares_group &&
	    cfsr_replay_group_set_shares(r, rd->shares_group, rd->shares, rd->ts) < 0)
		return -1;
	return 0;
}

int cfsr_put_json(struct json_object *o)
{
	const char *text = json_object_to_json_string_ext(
		o,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (text)
		puts(text);
	json_object_put(o);
	return text ? 0 : -1;
}

static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		cfsr_error_errno("cannot write to standard output");
		return CFSR_EXIT_ERROR;
	}
	if (fclose(stdout)) {
		cfsr_error_errno("cannot close standard output");
		return CFSR_EXIT_ERROR;
	}
	return status;
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	const char *help_argv[3];
	int status;

	if (argc < 2) {
		/* a usage error: the usage goes to stderr, stdout carries results only */
		list_commands(stderr);
		return finish_stdout(CFSR_EXIT_ERROR);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		cfsr_list_commands();
		return finish_stdout(CFSR_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cfsreplay %s\n", CFSR_VERSION);
		return finish_stdout(CFSR_EXIT_OK);
	}

	cmd = find_command(argv[1]);
	if (!cmd) {
		if (argv[1][0] == '-') {
			cfsr_error("unknown option '%s'; see 'cfsreplay --help'", argv[1]);
			return finish_stdout(CFSR_EXIT_ERROR);
		}
		if (!strchr(argv[1], '/') && !strchr(argv[1], '.')) {
			/* neither a command nor something that looks like a file */
			cfsr_error("'%s' is not a cfsreplay command; see 'cfsreplay --help'",
				   argv[1]);
			return finish_stdout(CFSR_EXIT_ERROR);
		}
		cmd = default_command();
		argv[0] = cmd->name;
		status = cmd->fn(argc, argv);
		return finish_stdout(status);
	}

	if (argc == 3 && !strcmp(argv[2], "--help") && cmd->fn != cmd_help) {
		help_argv[0] = "help";
		help_argv[1] = cmd->name;
		help_argv[2] = NULL;
		return finish_stdout(cmd_help(2, help_argv));
	}
	status = cmd->fn(argc - 1, argv + 1);
	return finish_stdout(status);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The subcommands.  Each lives in cmd/<name>.c and returns an exit status:
 * 0 success, 1 divergence beyond a requested threshold, 2 error or usage.
 */
#ifndef CFSR_CMDS_H
#define CFSR_CMDS_H

#define CFSR_EXIT_OK 0
#define CFSR_EXIT_DIVERGED 1
#define CFSR_EXIT_ERROR 2

int cmd_compare(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_info(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_signals(int argc, const char **argv);
int cmd_validate(int argc, const char **argv);

struct json_object;

/*
 * Print @o on stdout in the one JSON layout of every command's --json
 * (pretty, spaced, slashes unescaped) and release it.  Return 0, or -1
 * when json-c could not render it.
 */
int cfsr_put_json(struct json_object *o);

/* Print the one-line list of commands (help without arguments). */
void cfsr_list_commands(void);

/* Run "<name> -h" for "help <name>"; return its status, or -1 if no such command. */
int cfsr_command_usage(const char *name);

#endif /* CFSR_CMDS_H */

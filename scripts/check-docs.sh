#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every command has a manual page and every long option is documented.
#
# Reads the command table of cmd/cfsreplay.c and the getopt_long option
# tables of cmd/*.c, and checks that:
#   - docs/cfsreplay.1.txt exists, names every command and mentions every
#     "--option" that main itself compares arguments with;
#   - each command <cmd> of the table has docs/cfsreplay-<cmd>.1.txt;
#   - each long option "name" in the option tables of any cmd/<cmd>.c
#     (other than cmd/cfsreplay.c) appears as --name in
#     docs/cfsreplay-<cmd>.1.txt;
#   - each section 1 page has the sections NAME, SYNOPSIS, DESCRIPTION,
#     OPTIONS, EXIT STATUS, EXAMPLES and SEE ALSO.
# The source tree is found from this script's own path, so it runs from any
# directory.  Exit status: 0 when every check passes, 1 otherwise.
#   --tap  print one TAP line per check, then the plan
set -u

tap=0
case "${1:-}" in
--tap) tap=1 ;;
"") ;;
*)
	echo "usage: $0 [--tap]" >&2
	exit 2
	;;
esac

here=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cmd_dir=$here/cmd
doc_dir=$here/docs
main_src=$cmd_dir/cfsreplay.c
sections="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS EXAMPLES SEE_ALSO"

n=0
failed=0

# result OK DESCRIPTION: record one check
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		[ "$tap" -eq 1 ] && echo "ok $n - $2"
	else
		failed=$((failed + 1))
		if [ "$tap" -eq 1 ]; then
			echo "not ok $n - $2"
		else
			echo "check-docs: failed: $2" >&2
		fi
	fi
	return 0
}

# commands: names in the commands[] table of cmd/cfsreplay.c, one a line
commands() {
	awk '/commands\[\][[:blank:]]*=/ { in_table = 1 }
	     in_table { print }
	     in_table && /^[[:blank:]]*};/ { exit }' "$main_src" |
		grep -oE '\{[[:blank:]]*"[^"]+"[[:blank:]]*,[[:blank:]]*cmd_' |
		sed -E 's/^\{[[:blank:]]*"([^"]+)".*/\1/'
}

# long_options FILE: long option names in FILE's getopt_long tables
# (arrays of struct option), one a line, without the leading dashes
long_options() {
	awk '/struct option/ && /\[\]/ { in_table = 1 }
	     in_table { print }
	     in_table && /}[[:blank:]]*;/ { in_table = 0 }' "$1" |
		grep -oE '\{[[:blank:]]*"[^"]+"[[:blank:]]*,' |
		sed -E 's/^\{[[:blank:]]*"([^"]+)".*/\1/'
}

# main_options: "--name" strings that main compares arguments with
main_options() {
	grep -oE 'strcmp\([^,]+,[[:blank:]]*"--[A-Za-z0-9][A-Za-z0-9-]*"\)' "$main_src" |
		sed -E 's/.*"(--[^"]+)".*/\1/' | sort -u
}

# mentions PAGE OPTION: PAGE mentions OPTION (e.g. --json) as a whole word
mentions() {
	grep -qE -e "$2([^A-Za-z0-9_-]|\$)" "$1"
}

# has_section PAGE TITLE: PAGE has the asciidoc section TITLE, either
# underlined with dashes or written "== TITLE"
has_section() {
	awk -v t="$2" '(prev == t && /^-+[[:blank:]]*$/) || $0 == "== " t { found = 1 }
		       { prev = $0 }
		       END { exit !found }' "$1"
}

# check_sections PAGE
check_sections() {
	for s in $sections; do
		title=$(echo "$s" | tr _ ' ')
		has_section "$1" "$title"
		result $? "$(basename "$1") has section $title"
	done
}

if [ ! -r "$main_src" ]; then
	result 1 "cmd/cfsreplay.c is readable"
	cmds=""
else
	cmds=$(commands)
	[ -n "$cmds" ]
	result $? "command table found in cmd/cfsreplay.c"
fi

main_page=$doc_dir/cfsreplay.1.txt
if [ -f "$main_page" ]; then
	result 0 "docs/cfsreplay.1.txt exists"
	check_sections "$main_page"
	for c in $cmds; do
		grep -qE "cfsreplay-$c\\(1\\)" "$main_page"
		result $? "docs/cfsreplay.1.txt refers to cfsreplay-$c(1)"
	done
	if [ -r "$main_src" ]; then
		for o in $(main_options); do
			mentions "$main_page" "$o"
			result $? "docs/cfsreplay.1.txt documents $o"
		done
	fi
else
	result 1 "docs/cfsreplay.1.txt exists"
fi

for c in $cmds; do
	page=$doc_dir/cfsreplay-$c.1.txt
	if [ -f "$page" ]; then
		result 0 "command '$c' has docs/cfsreplay-$c.1.txt"
		check_sections "$page"
	else
		result 1 "command '$c' has docs/cfsreplay-$c.1.txt"
	fi
	[ -f "$cmd_dir/$c.c" ]
	result $? "command '$c' has its source cmd/$c.c"
done

# Long options of every cmd/<name>.c, in the table or not: a command file
# with options needs the page its options are described in.
for src in "$cmd_dir"/*.c; do
	[ -f "$src" ] || continue
	c=$(basename "$src" .c)
	[ "$c" = cfsreplay ] && continue
	page=$doc_dir/cfsreplay-$c.1.txt
	for o in $(long_options "$src"); do
		[ -f "$page" ] && mentions "$page" "--$o"
		result $? "docs/cfsreplay-$c.1.txt documents $c --$o"
	done
done

if [ "$tap" -eq 1 ]; then
	echo "1..$n"
fi
[ "$failed" -eq 0 ]

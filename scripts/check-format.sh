#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Fail if a tracked C file differs from what clang-format (.clang-format)
# makes of it; 'make format' rewrites them.
#   --tap  print one TAP line per file
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
tap=${1:-}
if ! command -v clang-format >/dev/null 2>&1; then
	[ "$tap" = --tap ] && echo "ok 1 - formatting # SKIP clang-format not installed" && echo "1..1"
	exit 0
fi
files=$(git ls-files 'lib/*.[ch]' 'formats/*.[ch]' 'cmd/*.[ch]' 'tests/unit/*.c' 'tests/helpers/*.c' 2>/dev/null ||
	ls lib/*.[ch] formats/*.[ch] cmd/*.[ch] tests/unit/*.c tests/helpers/*.c)
n=0
bad=0
for f in $files; do
	n=$((n + 1))
	if clang-format "$f" | cmp -s - "$f"; then
		[ "$tap" = --tap ] && echo "ok $n - $f is formatted"
	else
		bad=$((bad + 1))
		if [ "$tap" = --tap ]; then
			echo "not ok $n - $f is formatted (run 'make format')"
		else
			echo "$f: not formatted (run 'make format')"
		fi
	fi
done
[ "$tap" = --tap ] && echo "1..$n"
[ "$bad" -eq 0 ]

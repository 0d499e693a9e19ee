#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lib/ and formats/ report errors by return value and never end the process:
# fail if any of their objects references exit() or _exit().  The one
# exception is formats/sandbox.o, whose forked child ends itself with _exit().
# Reads the object list written by the build (libcfsreplay-objs.list).
#   --tap  print the result as one TAP test
set -u
list=${OBJ_LIST:-$(dirname "$0")/../libcfsreplay-objs.list}
bad=""
if [ ! -r "$list" ]; then
	bad="object list '$list' missing (build first)"
else
	for o in $(cat "$list"); do
		pat='(exit|_exit|_Exit)'
		[ "$(basename "$o")" = sandbox.o ] && pat='(exit|_Exit)'
		if nm -u "$o" 2>/dev/null | grep -qwE "$pat"; then
			bad="$bad $(basename "$o")"
		fi
	done
fi
if [ "${1:-}" = "--tap" ]; then
	if [ -z "$bad" ]; then
		echo "ok 1 - lib/ and formats/ never call exit"
	else
		echo "not ok 1 - lib/ and formats/ never call exit: $bad"
	fi
	echo "1..1"
fi
[ -z "$bad" ]

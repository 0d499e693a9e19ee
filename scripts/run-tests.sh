#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test and print one closing line "N passed, M failed".
#
# Unit tests (cmocka, TAP output), CLI tests (tests/cli/t*.sh, TAP) and the
# tree checks (scripts/check-*.sh) all report TAP lines; this script counts
# "ok" and "not ok" over all of them.  A test program that dies without
# reporting a failure (a sanitizer abort, a crash) counts as one failure.
# Environment: CFSREPLAY (binary), UNIT_DIR (unit test binaries),
# VALGRIND (optional command prefix).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
: "${CFSREPLAY:?}" "${UNIT_DIR:?}"
export CFSREPLAY
export CFSR_SRCDIR=$here
VALGRIND=${VALGRIND:-}
# Sanitizer builds: corrupt inputs make the tracing libraries ask for huge
# allocations, which they handle when malloc fails; and libtraceevent leaks
# a few bytes while parsing formats (tests/lsan.supp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run NAME COMMAND...: run one TAP producer and count its results
run() {
	local name=$1 status ok notok skip
	shift
	echo "# --- $name"
	"$@" >"$log" 2>&1
	status=$?
	cat "$log"
	# a skip is "ok ... # SKIP" (TAP), or "not ok ... # SKIP" as cmocka writes it
	skip=$(grep -Ec '^(not )?ok .*# *[Ss][Kk][Ii][Pp]' "$log")
	ok=$(grep -Ec '^ok ' "$log")
	notok=$(grep -E '^not ok ' "$log" | grep -Evc '# *[Ss][Kk][Ii][Pp]')
	ok=$((ok + skip - $(grep -Ec '^ok .*# *[Ss][Kk][Ii][Pp]' "$log")))
	if [ "$status" -ne 0 ] && [ "$notok" -eq 0 ]; then
		echo "not ok - $name exited with status $status"
		notok=1
	fi
	passed=$((passed + ok - skip))
	skipped=$((skipped + skip))
	failed=$((failed + notok))
}

for t in "$UNIT_DIR"/test-*; do
	case "$t" in *.o | *.d) continue ;; esac
	[ -x "$t" ] || continue
	run "unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP $VALGRIND "$t"
done

for t in "$here"/tests/cli/t[0-9]*.sh; do
	[ -e "$t" ] || continue
	run "cli/$(basename "$t")" env VALGRIND="$VALGRIND" bash "$t"
done

for c in check-no-exit check-docs check-format; do
	[ -x "$here/scripts/$c.sh" ] || continue
	run "$c" "$here/scripts/$c.sh" --tap
done

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad input: one error line on stderr naming the file and the problem,
# nothing on stdout, exit status 2, and no crash (a sanitizer or valgrind
# run of this script fails on any report).
. "$(dirname "$0")/lib.sh"

# expect_error FILE PATTERN: info fails cleanly with PATTERN in its one line
expect_error() {
	cfsreplay info "$1" >out 2>err
	status=$?
	[ "$status" -eq 2 ] || { echo "exit status $status"; return 1; }
	[ ! -s out ] || { echo "stdout not empty"; return 1; }
	grep -v '^==' err >err.lines
	[ "$(wc -l <err.lines)" -eq 1 ] || { cat err; return 1; }
	grep -q "'$1'" err.lines || { cat err; return 1; }
	grep -q "$2" err.lines || { cat err; return 1; }
}

test_expect_success 'missing file' 'expect_error nosuch.dat "No such file"'
test_expect_success 'empty file' ': >empty.dat && expect_error empty.dat "empty"'
test_expect_success 'directory' 'mkdir d && expect_error d "directory"'
test_expect_success 'not a trace' 'printf "hello\n" >text.dat && expect_error text.dat "not a trace file"'
test_expect_success 'trace with no scheduler events' \
	"cp '$TRACES/nosched.dat' . && expect_error nosched.dat 'no scheduler events'"

for t in periodic v6 cgroups; do
	size=$(stat -c %s "$TRACES/$t.dat")
	for cut in 16 200 4096 $((size / 3)) $((size / 2)) $((size - 4096)); do
		test_expect_success "$t.dat truncated to $cut bytes" "
			head -c $cut '$TRACES/$t.dat' >cut.dat &&
			expect_error cut.dat 'truncated or corrupt'
		"
	done
done

# A damaged page inside the data: the trace is read, the damage is flagged.
test_expect_success 'a damaged data page is reported as lost events, not fatal' "
	cp '$TRACES/cgroups.dat' damaged.dat &&
	head -c 4096 /dev/zero | tr '\\0' '\\377' | dd of=damaged.dat bs=4096 seek=40 conv=notrunc 2>/dev/null &&
	cfsreplay info damaged.dat >out 2>err &&
	grep -q '^damaged data: *1 pages' out &&
	grep -q '^lost events: *1 notices' out &&
	cfsreplay info --json damaged.dat >d.json &&
	grep -q '\"bad_pages\": 1' d.json
"
test_expect_success 'cut inside the version string' "
	head -c 11 '$TRACES/v6.dat' >h.dat && expect_error h.dat 'incomplete trace.dat header'
"
test_expect_success 'garbage after a valid trace.dat magic' '
	printf "\027\010\104tracing6\0" >bad.dat && head -c 3000 /dev/urandom >>bad.dat &&
	expect_error bad.dat "truncated or corrupt"
'
test_expect_success 'unsupported file version' '
	printf "\027\010\104tracing9\0xxxxxxxxxxxxxxxx" >v9.dat &&
	expect_error v9.dat "version 9 is not supported"
'
test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record's option errors are refused before anything is touched (no root
# needed): exit 2 with one clear line, and no file written.
. "$(dirname "$0")/lib.sh"

# refused ARGS... PATTERN: exit 2, PATTERN on stderr, nothing on stdout, no x.dat
refused() {
	local pattern=${!#}
	set -- "${@:1:$#-1}"
	cfsreplay record -o x.dat "$@" >out 2>err
	test $? -eq 2 && grep -q "$pattern" err && test ! -s out && test ! -e x.dat
}

test_expect_success 'record --help prints the usage' '
	cfsreplay record --help >out && grep -q "^usage: cfsreplay record" out &&
	grep -q -- "--truth\[=MS\]" out && grep -q -- "--no-pelt" out
'
test_expect_success 'record: bad --duration' 'refused --duration 0 "duration takes seconds" &&
	refused --duration abc "duration takes seconds" && refused --duration -1 "duration takes seconds"'
test_expect_success 'record: bad --truth' 'refused --truth=0 "at least 1 ms" &&
	refused --truth=x "truth takes a whole number"'
test_expect_success 'record: bad --buffer-kb' 'refused --buffer-kb 4 "at least 8" &&
	refused --buffer-kb 1e3 "buffer-kb takes a whole number"'
test_expect_success 'record: bad --compression' 'refused --compression lz4 "zstd, zlib or none"'
test_expect_success 'record: unknown option' 'refused --bogus "unknown option"'
test_done

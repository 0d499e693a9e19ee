#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The bundled perf.data: info's per-event-type counts equal perf script's
# (run now when perf is installed, else as recorded in
# traces/periodic.perf.counts), and bad perf.data input is refused clearly.
. "$(dirname "$0")/lib.sh"

f=$TRACES/periodic.perf.data

if command -v perf >/dev/null 2>&1; then
	test_expect_success 'perf script counts the same events' "
		perf script -i '$f' -F event 2>/dev/null | awk '{ sub(/^sched:/, \"\", \$1); sub(/:\$/, \"\", \$1); print \$1 }' |
			sort | uniq -c | awk '{ print \$2, \$1 }' | LC_ALL=C sort >expect &&
		counts_of '$f' >actual && diff -u expect actual
	"
else
	test_skip 'perf script counts the same events' 'perf is not installed'
fi
test_expect_success 'counts equal the recorded perf script counts' "
	counts_of '$f' >actual && diff -u '$TRACES/periodic.perf.counts' actual
"
test_expect_success 'info names the reader' "
	cfsreplay info --json '$f' | grep -q '\"reader\": \"perf.data\"'
"
test_expect_success 'truncated perf.data is refused' "
	head -c 300000 '$f' >cut.data &&
	cfsreplay info cut.data >out 2>err; test \$? -eq 2 && grep -q \"'cut.data'\" err && test ! -s out
"
test_expect_success 'perf.data magic followed by garbage is refused' "
	printf 'PERFILE2' >bad.data && head -c 4000 /dev/urandom >>bad.data &&
	cfsreplay info bad.data >out 2>err; test \$? -eq 2 && test ! -s out
"
test_done

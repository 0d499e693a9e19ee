#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The bundled perf.data: info's per-event-type counts equal perf script's
# (run now when perf is installed, else as recorded in
# traces/periodic.perf.counts), its uname matches perf's header, and bad
# perf.data input is refused clearly.
. "$(dirname "$0")/lib.sh"

f=$TRACES/periodic.perf.data

# check_uname FILE: info's uname is "Linux HOSTNAME RELEASE ARCH" as perf reports them
check_uname() {
	perf report --header-only -i "$1" 2>/dev/null >header &&
	h=$(sed -n 's/^# hostname : //p' header) &&
	r=$(sed -n 's/^# os release : //p' header) &&
	a=$(sed -n 's/^# arch : //p' header) &&
	test -n "$h" && test -n "$r" && test -n "$a" &&
	cfsreplay info --json "$1" | grep -qF "\"uname\": \"Linux $h $r $a\""
}

if command -v perf >/dev/null 2>&1; then
	test_expect_success 'perf script counts the same events' "
		perf script -i '$f' -F event 2>/dev/null | awk '{ sub(/^sched:/, \"\", \$1); sub(/:\$/, \"\", \$1); print \$1 }' |
			sort | uniq -c | awk '{ print \$2, \$1 }' | LC_ALL=C sort >expect &&
		counts_of '$f' >actual && diff -u expect actual
	"
	for f2 in "$f" "$TRACES/small-zstd.pipe.data"; do
		test_expect_success "uname of $(basename "$f2") is perf's hostname, os release, arch" \
			"check_uname '$f2'"
	done
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

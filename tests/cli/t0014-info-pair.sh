#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# info A B: two recordings of one run.  B is made from A's `trace-cmd report`
# text by a script that shifts every timestamp by a known offset and deletes
# known events; info must find that offset and list exactly those events as
# only in A.  Unrelated traces are refused.
. "$(dirname "$0")/lib.sh"

# mangle IN OUT: shift by +1.5 s, drop every third sched_wakeup on CPU 1 and
# every fifth sched_switch on CPU 0; print "type count" of what was dropped
mangle() {
	python3 - "$1" "$2" <<'PY'
import re, sys
line_re = re.compile(r'^(.*?\[(\d+)\]\s+)(\d+)\.(\d{9}):(\s+)(\w+):')
dropped = {}
seen = {}
with open(sys.argv[1]) as f, open(sys.argv[2], 'w') as out:
    for line in f:
        m = line_re.match(line)
        if not m:
            out.write(line)
            continue
        cpu, ev = int(m.group(2)), m.group(6)
        key = (ev, cpu)
        seen[key] = seen.get(key, 0) + 1
        if (ev, cpu) == ('sched_wakeup', 1) and seen[key] % 3 == 0 or \
           (ev, cpu) == ('sched_switch', 0) and seen[key] % 5 == 0:
            dropped[ev] = dropped.get(ev, 0) + 1
            continue
        ns = int(m.group(3)) * 10**9 + int(m.group(4)) + 1500000000
        out.write('%s%d.%09d:%s%s:%s' % (m.group(1), ns // 10**9, ns % 10**9,
                                         m.group(5), ev, line[m.end():]))
for ev, n in sorted(dropped.items()):
    print(ev, n)
PY
}

# only_in OUT: "type onlyA onlyB" for the matched rows of info A B's table
only_in() {
	awk '/^event /{t=1; next} t && NF==5 && $4 != "-" {print $1, $4, $5}' "$1"
}

if command -v trace-cmd >/dev/null 2>&1; then
	test_expect_success 'info A B finds the clock offset and exactly the dropped events' "
		trace-cmd report -t '$TRACES/periodic.dat' >a.txt 2>/dev/null &&
		mangle a.txt b.txt >dropped &&
		test -s dropped &&
		cfsreplay info '$TRACES/periodic.dat' b.txt >out &&
		grep -q '^clock offset B-A: 1500000000 ns' out &&
		only_in out >only &&
		awk '\$2 != 0 || \$3 != 0 {print \$1, \$2}' only >actual &&
		diff -u dropped actual &&
		awk '\$3 != 0 {exit 1}' only
	"
else
	test_skip "info A B on shifted report text" "trace-cmd is not installed"
fi

test_expect_success 'a trace against itself: offset 0, nothing only in one' "
	cfsreplay info '$TRACES/cgroups.dat' '$TRACES/cgroups.dat' >out &&
	grep -q '^clock offset B-A: 0 ns' out &&
	only_in out >only &&
	test -s only &&
	awk '\$2 != 0 || \$3 != 0 {exit 1}' only
"

test_expect_success 'two different runs are refused, exit 2' "
	{ cfsreplay info '$TRACES/periodic.dat' '$TRACES/periodic.perf.data' >out 2>err;
	  test \$? -eq 2; } &&
	grep -q 'not recordings of one run' err &&
	test ! -s out
"

test_expect_success 'info --json takes one trace only' "
	{ cfsreplay info --json '$TRACES/cgroups.dat' '$TRACES/cgroups.dat' >out 2>err;
	  test \$? -eq 2; } &&
	grep -q 'one TRACE' err
"

if [ -f "$SHARED_TRACES/periodic-bpf/perf.data" ]; then
	test_expect_success 'trace.dat and perf.data of one public run: perf lacks wakeups' "
		cfsreplay info '$SHARED_TRACES/periodic-bpf/trace.dat' \
			'$SHARED_TRACES/periodic-bpf/perf.data' >out &&
		only_in out >only &&
		awk '\$1 == \"sched_wakeup\" && \$2 > 100 {ok=1} END {exit !ok}' only
	"
else
	test_skip "info A B on a public run" "no $SHARED_TRACES (a user's clone has none)"
fi

test_done

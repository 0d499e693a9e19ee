#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Text traces: info --json on `trace-cmd report` text (with and without
# plugins, µs and ns) of each bundled trace gives the same per-type event
# counts as on the trace.dat itself, and `perf script` text of the bundled
# perf.data the same as the perf.data file.
. "$(dirname "$0")/lib.sh"

# reader_of FILE: info --json's reader
reader_of() {
	cfsreplay info --json "$1" >info.json &&
	python3 -c 'import json; print(json.load(open("info.json"))["reader"])'
}

if command -v trace-cmd >/dev/null 2>&1; then
	for t in "$TRACES"/*.dat; do
		name=$(basename "$t" .dat)
		[ "$name" = nosched ] && continue
		for opts in "" "-N" "-t" "-N -t"; do
			test_expect_success "info counts of trace-cmd report $opts $name.dat equal the .dat's" "
				counts_of '$t' >expect &&
				trace-cmd report $opts '$t' >trace.txt 2>/dev/null &&
				counts_of trace.txt >actual &&
				diff -u expect actual
			"
		done
	done
	test_expect_success 'the reader names the text format and its precision' "
		trace-cmd report '$TRACES/periodic.dat' >us.txt 2>/dev/null &&
		trace-cmd report -t '$TRACES/periodic.dat' >ns.txt 2>/dev/null &&
		test \"\$(reader_of us.txt)\" = 'trace-cmd report text (us)' &&
		test \"\$(reader_of ns.txt)\" = 'trace-cmd report text (ns)'
	"
else
	test_skip "info on trace-cmd report text" "trace-cmd is not installed"
fi

if command -v perf >/dev/null 2>&1; then
	for opts in "" "--ns"; do
		test_expect_success "info counts of perf script $opts equal the perf.data's" "
			counts_of '$TRACES/periodic.perf.data' >expect &&
			perf script $opts -i '$TRACES/periodic.perf.data' >perf.txt 2>/dev/null &&
			counts_of perf.txt >actual &&
			diff -u expect actual
		"
	done
else
	test_skip "info on perf script text" "perf is not installed"
fi

test_expect_success 'the hand-written ftrace text reads' "
	cfsreplay info --json '$SRC_DIR/tests/unit/fixtures/text/ftrace.txt' >info.json &&
	grep -q '\"reader\": \"ftrace text (us)\"' info.json
"

test_expect_success 'perf script tid -1 (a task past its exit) is no task, not pid 1' "
	printf '%s\\n' \\
		'            sh   500 [000]   100.000001: sched:sched_stat_runtime: comm=sh pid=500 runtime=5 [ns]' \\
		'             :-1    -1 [000]   100.000002: sched:sched_stat_runtime: comm=gone pid=600 runtime=7 [ns]' \\
		>tid.txt &&
	cfsreplay info --json tid.txt >info.json &&
	python3 -c 'import json; d = json.load(open(\"info.json\")); assert d[\"tasks\"] == 2, d[\"tasks\"]; assert d[\"malformed_events\"] == 0'
"

test_expect_success 'perf script --show-lost-events lines are lost-event notices' "
	printf '%s\\n' \\
		'            sh   500 [000]   100.000001: sched:sched_stat_runtime: comm=sh pid=500 runtime=5 [ns]' \\
		'            sh   500 [001]   100.000002: PERF_RECORD_LOST lost 259' \\
		'            sh   500 [000]   100.000003: sched:sched_stat_runtime: comm=sh pid=500 runtime=6 [ns]' \\
		>lost.txt &&
	cfsreplay info --json lost.txt >info.json &&
	python3 -c '
import json
d = json.load(open(\"info.json\"))
assert d[\"lost\"][\"notices\"] == 1 and d[\"lost\"][\"events\"] == 259, d[\"lost\"]
assert d[\"records\"] == 2 and d[\"malformed_events\"] == 0, d
'
"

test_expect_success 'text that is no trace is refused with one line, exit 2' "
	printf '# services\nssh 22/tcp\n' >services.txt &&
	{ cfsreplay info services.txt >out 2>err; test \$? -eq 2; } &&
	test \$(wc -l <err) -eq 1 &&
	test ! -s out
"

test_done

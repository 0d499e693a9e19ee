#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report: the idle-while-waiting totals (wall_ns, cpu_ns, allowed_cpu_ns)
# against scripts/idlewait-check.py, an independent computation over
# `trace-cmd report -N -t` output, within 1 ms; on the bundled traces, on
# the recorded runs beside the checkout, and with a --time window.  The
# wake-ups and forks placed on an idle CPU, or on a busy one while an
# allowed CPU idled, must match the script's counts exactly.
. "$(dirname "$0")/lib.sh"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'idle-while-waiting against trace-cmd report' 'trace-cmd is not installed'
	test_done
fi

for t in periodic cgroups v6; do
	test_expect_success "totals on traces/$t.dat match the independent script" "
		agrees_with_script '$TRACES/$t.dat'
	"
done
test_expect_success 'a --time window matches the script over the same window' "
	agrees_with_script '$TRACES/periodic.dat' 10804000000000 10805000000000
"
test_expect_success 'the periodic trace has waste to find (the check is not vacuous)' "
	cfsreplay report --json '$TRACES/periodic.dat' >got.json &&
	python3 -c '
import json
d = json.load(open(\"got.json\"))[\"idle_while_waiting\"]
assert d[\"wall_ns\"] > 10**7 and d[\"episodes\"] > 10, d
'
"
test_expect_success 'the text rendering of a trace gives the same totals' "
	trace-cmd report -N -t '$TRACES/cgroups.dat' >t.txt 2>/dev/null &&
	cfsreplay report --json '$TRACES/cgroups.dat' >a.json &&
	cfsreplay report --kernel 6.18 --json t.txt >b.json &&
	python3 -c '
import json
a, b = (json.load(open(f))[\"idle_while_waiting\"] for f in (\"a.json\", \"b.json\"))
for k in (\"wall_ns\", \"cpu_ns\", \"allowed_cpu_ns\", \"affinity_changes\", \"episodes\"):
    assert a[k] == b[k], (k, a[k], b[k])
'
"
if [ -f "$SHARED_TRACES/periodic/trace.dat" ]; then
	test_expect_success 'setaffinity calls are read from text too (periodic/trace.dat)' "
		trace-cmd report -N -t '$SHARED_TRACES/periodic/trace.dat' >t.txt 2>/dev/null &&
		calls=\$(grep -c ' sys_enter_sched_setaffinity: ' t.txt) && test \$calls -gt 0 &&
		cfsreplay report --json '$SHARED_TRACES/periodic/trace.dat' >a.json &&
		cfsreplay report --kernel 6.18 --json t.txt >b.json &&
		python3 -c '
import json, sys
a, b = (json.load(open(f))[\"idle_while_waiting\"] for f in (\"a.json\", \"b.json\"))
assert a[\"affinity_changes\"] == b[\"affinity_changes\"] == int(sys.argv[1])
assert a[\"unknown_affinity_cpu_ns\"] == b[\"unknown_affinity_cpu_ns\"] > 0
' \$calls
	"
else
	test_skip 'setaffinity calls from text' "no $SHARED_TRACES/periodic/trace.dat"
fi
# every recorded run beside the checkout; the large ones (bench: 2.4 million
# events, minutes of Python) only when asked for
if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*/trace.dat; do
		t=$(basename "$(dirname "$f")")
		if [ "$(stat -c %s "$f")" -gt 8000000 ] && [ -z "${CFSR_TEST_LARGE:-}" ]; then
			test_skip "totals on $t/trace.dat" "large trace; set CFSR_TEST_LARGE=1 to check it"
			continue
		fi
		test_expect_success "totals on $t/trace.dat match the independent script" "
			agrees_with_script '$f'
		"
	done
else
	test_skip 'totals on the recorded runs' "no $SHARED_TRACES"
fi
test_done

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

CHECK=$SRC_DIR/scripts/idlewait-check.py

# agree TRACE [START_NS END_NS]: the tool's totals equal the script's within 1 ms
agree() {
	if [ -n "$2" ]; then
		python3 "$CHECK" "$1" --start "$2" --end "$3" >want.json &&
		cfsreplay report --json --time "$(python3 -c "print('%d.%09d,%d.%09d' % (divmod($2, 10**9) + divmod($3, 10**9)))")" "$1" >got.json
	else
		python3 "$CHECK" "$1" >want.json && cfsreplay report --json "$1" >got.json
	fi &&
	python3 -c '
import json, sys
want = json.load(open("want.json"))
got = json.load(open("got.json"))["idle_while_waiting"]
for k in ("wall_ns", "cpu_ns", "allowed_cpu_ns"):
    d = abs(got[k] - want[k])
    print("# %s %s: tool %d, script %d, difference %d ns" % (sys.argv[1], k, got[k], want[k], d))
    assert d <= 1000000, k
place = json.load(open("got.json"))["placement"]["reasons"]
for kind in ("wakeup", "fork"):
    for r in ("idle-chosen", "idle-skipped"):
        print("# %s %s %s: tool %d, script %d" % (sys.argv[1], kind, r, place[kind][r],
                                                 want["placement"][kind][r]))
        assert place[kind][r] == want["placement"][kind][r], (kind, r)
assert got["cpu_ns"] >= got["allowed_cpu_ns"]
assert got["cpu_ns"] == got["allowed_cpu_ns"] + got["unknown_affinity_cpu_ns"] + got["affinity_bound_cpu_ns"]
' "$(basename "$(dirname "$1")")/$(basename "$1")"
}

if ! command -v trace-cmd >/dev/null; then
	test_skip 'idle-while-waiting against trace-cmd report' 'trace-cmd is not installed'
	test_done
fi

for t in periodic cgroups v6; do
	test_expect_success "totals on traces/$t.dat match the independent script" "
		agree '$TRACES/$t.dat'
	"
done
test_expect_success 'a --time window matches the script over the same window' "
	agree '$TRACES/periodic.dat' 10804000000000 10805000000000
"
test_expect_success 'the periodic trace has waste to find (the check is not vacuous)' "
	cfsreplay report --json '$TRACES/periodic.dat' >got.json &&
	python3 -c '
import json
d = json.load(open(\"got.json\"))[\"idle_while_waiting\"]
assert d[\"wall_ns\"] > 10**7 and d[\"episodes\"] > 10, d
'
"
for t in periodic nice cgroups periodic-bpf cgroups-bpf; do
	if [ -f "$SHARED_TRACES/$t/trace.dat" ]; then
		test_expect_success "totals on $t/trace.dat match the independent script" "
			agree '$SHARED_TRACES/$t/trace.dat'
		"
	else
		test_skip "totals on $t/trace.dat" "no $SHARED_TRACES/$t/trace.dat"
	fi
done
test_done

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
for t in periodic nice cgroups periodic-bpf cgroups-bpf; do
	if [ -f "$SHARED_TRACES/$t/trace.dat" ]; then
		test_expect_success "totals on $t/trace.dat match the independent script" "
			agrees_with_script '$SHARED_TRACES/$t/trace.dat'
		"
	else
		test_skip "totals on $t/trace.dat" "no $SHARED_TRACES/$t/trace.dat"
	fi
done
test_done

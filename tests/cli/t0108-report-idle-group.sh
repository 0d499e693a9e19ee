#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Idle entities on a real recording (traces/idle-group.dat, made with
# scripts/record-groups.sh idle): /cfsr-g-idle has cpu.idle 1 and a worker
# spinning on CPU 1, /cfsr-g-norm a worker spinning on CPU 0 and a periodic
# one.
#  - validate: the model's h_nr_idle equals the kernel's in every cfs_rq
#    record of the capture beside the trace whose h_nr_queued it has, and
#    hundreds of those records hold idle tasks (the kernel's own counts,
#    read by BPF: an independent truth); the same on traces/perf-groups.dat,
#    whose two SCHED_IDLE spinners count there, and which signals, without
#    kernel records, weighs as the capture's records do (3072, the first
#    snapshot's policy 5);
#  - report: the wake-ups placed on an idle CPU, or on a busy one while an
#    allowed CPU was idle, counting a CPU that runs only the idle group's
#    tasks as idle (sched_idle_cpu(), v5.4+), equal those of
#    scripts/idlewait-check.py --idle-group, an independent computation
#    over trace-cmd report output, over the trace's first 152 ms (after it
#    the trace lost switches the model recovers and the script does not
#    see); a v5.10 model, without idle groups, counts as the script does
#    without --idle-group, and the two differ (the check is not vacuous);
#    idle while waiting keeps its definition (the idle task's CPUs).
. "$(dirname "$0")/lib.sh"

T=$TRACES/idle-group.dat
START=47631623000000
END=47631775000000
WINDOW=47631.623000000,47631.775000000

if ! command -v trace-cmd >/dev/null; then
	test_skip 'idle groups against trace-cmd report' 'trace-cmd is not installed'
	test_done
fi

test_expect_success 'the recording states /cfsr-g-idle idle (cpu.idle 1)' "
	cfsreplay info '$T' >info.txt &&
	grep -q '/cfsr-g-idle (id [0-9]*) cpu.shares 3 cpu.idle 1' info.txt
"

# idle_counts_equal TRACE MIN_COMPARED MIN_IDLE: validate's "idle tasks:"
# line on TRACE (kept in v.txt) compares more than MIN_COMPARED cfs_rq
# records, more than MIN_IDLE of them with idle tasks, h_nr_idle equal in all
idle_counts_equal() {
	cfsreplay validate "$1" >v.txt &&
	grep '^idle tasks:' v.txt >line &&
	python3 - "$2" "$3" <<-\EOF
	import re, sys
	m = re.search(r"(\d+) cfs_rq records .*\((\d+) with idle tasks\), h_nr_idle equal in (\d+)",
	              open("line").read())
	compared, some, equal = map(int, m.groups())
	print("# compared %d, with idle tasks %d, equal %d" % (compared, some, equal))
	assert compared > int(sys.argv[1]) and some > int(sys.argv[2]) and equal == compared
	EOF
}

test_expect_success 'validate: h_nr_idle equals the kernel records'\'' in every compared record' "
	idle_counts_equal '$T' 1000 300
"

test_expect_success 'validate: SCHED_IDLE tasks (perf-groups.dat'\''s spinners) counted as the kernel does' "
	idle_counts_equal '$TRACES/perf-groups.dat' 500 300
"

test_expect_success 'signals, without kernel records: a SCHED_IDLE task of the first snapshot weighs as the capture says' "
	zcat '$TRACES/perf-groups.pelt.jsonl.gz' |
		python3 -c '
import json, sys
w = {json.loads(l)[\"weight\"] for l in sys.stdin
     if json.loads(l).get(\"type\") == \"se\" and json.loads(l).get(\"tid\") == 15526}
print(\" \".join(map(str, sorted(w))))
' >want &&
	cfsreplay signals --format csv --pid 15526 '$TRACES/perf-groups.dat' |
		awk -F, 'NR > 1 && \$3 == \"task\" { print \$7 }' | sort -u >got &&
	cat want got &&
	test \"\$(cat want)\" = \"\$(cat got)\"
"

# placements: report --json's idle-chosen and idle-skipped counts of
# wake-ups and forks against the script's, in the window
placements_equal() {
	python3 - "$@" <<-\EOF
	import json, sys
	want = json.load(open(sys.argv[1]))["placement"]
	got = json.load(open(sys.argv[2]))["placement"]["reasons"]
	for kind in ("wakeup", "fork"):
	    for r in ("idle-chosen", "idle-skipped"):
	        print("# %s %s %s: tool %d, script %d" % (sys.argv[2], kind, r, got[kind][r],
	                                                 want[kind][r]))
	        assert got[kind][r] == want[kind][r], (kind, r)
	EOF
}

test_expect_success 'the script: the idle group'\''s CPU taken as idle changes the counts' "
	python3 '$SRC_DIR/scripts/idlewait-check.py' '$T' --start $START --end $END \
		--idle-group /cfsr-g-idle >want-idle.json &&
	python3 '$SRC_DIR/scripts/idlewait-check.py' '$T' --start $START --end $END \
		>want-plain.json &&
	python3 -c '
import json
a = json.load(open(\"want-idle.json\"))[\"placement\"][\"wakeup\"][\"idle-chosen\"]
b = json.load(open(\"want-plain.json\"))[\"placement\"][\"wakeup\"][\"idle-chosen\"]
print(\"# idle-chosen wake-ups: %d with sched_idle_cpu(), %d without\" % (a, b))
assert a >= b + 20, (a, b)
'
"

test_expect_success 'v6.18 model: placements as the script with sched_idle_cpu()' "
	cfsreplay report --json --time $WINDOW '$T' >got.json &&
	placements_equal want-idle.json got.json
"

test_expect_success 'v5.10 model (no idle groups): placements as the script without' "
	cfsreplay report --kernel 5.10 --json --time $WINDOW '$T' >got510.json &&
	placements_equal want-plain.json got510.json
"

test_expect_success 'idle while waiting keeps the idle task'\''s definition' "
	python3 -c '
import json
want = json.load(open(\"want-idle.json\"))
got = json.load(open(\"got.json\"))[\"idle_while_waiting\"]
for k in (\"wall_ns\", \"cpu_ns\", \"allowed_cpu_ns\"):
    print(\"# %s: tool %d, script %d\" % (k, got[k], want[k]))
    assert abs(got[k] - want[k]) <= 1000000, k
'
"

test_done

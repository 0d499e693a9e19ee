#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A CPU's capacity (arch_scale_cpu_capacity()) in the replay:
# traces/recorded.dat's metadata rewritten (tests/helpers/meta-set) to
# give CPU 1 capacity 512, the recorder's cpu_capacity;
# - info shows the capacities and where they came from;
# - the signals under 4.19 (v4.1-v5.0: accumulate_sum() scales util's
#   contribution by the capacity): the same rows, a task that stays on
#   CPU 1 keeps its clock and load, its util_avg halves (within 2);
# - the signals under the trace's own release (v5.1+: clock_pelt runs at
#   half speed while CPU 1 is busy, back on clock_task when it idles):
#   CPU 1's root cfs_rq's last_update_time as scripts/capacity-ref.py
#   predicts it from the unscaled replay and the trace's events
#   (trace-cmd report): within 2 us (the 1024 ns grid of both) where the
#   trace shows the switch that began the CPU's run, within 100 us where
#   it does not (most runs here: their start is taken from a run-time
#   report, which the engine and the script place apart by up to some
#   64 us);
# - lock-step (the kernel's PELT records of the same run): each record's
#   clock_pelt - lost_idle_time is rq_clock_pelt(), already scaled, and is
#   taken as the CPU's PELT clock, not scaled again: validate's root and
#   group cfs_rq last_update_time equal the kernel's at every record, and
#   no root row of CPU 1 in `signals --clock` falls behind the clock of a
#   record more than 20 us before it (scripts/capacity-ref.py readings;
#   the records' time stamps and the rows' are some us apart) but for a
#   few (at most 1 %);
# - capacity 1024 written out changes nothing.
. "$(dirname "$0")/lib.sh"

METASET=${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set
REF=$SRC_DIR/scripts/capacity-ref.py
REC=$TRACES/recorded.dat
PELT=$TRACES/recorded.pelt.jsonl.gz

# with_capacity OUT CAP1: recorded.dat with CPU 1's capacity CAP1
with_capacity() {
	cp "$REC" "$1" &&
	cfsreplay info --json "$REC" | python3 -c "
import json, sys
m = json.load(sys.stdin)['record_meta']
for c in m['cpus']:
    if c['cpu'] == 1:
        c['capacity'] = int(sys.argv[1])
json.dump(m, open('meta.json', 'w'))" "$2" &&
	"$METASET" "$1" meta.json
}

test_expect_success 'info: the capacities and their source' "
	with_capacity cap.dat 512 &&
	cfsreplay info cap.dat >info.txt &&
	grep -q '^cpu capacity:   cpu0 1024, cpu1 512 (recorder metadata, sysfs cpu_capacity)$' info.txt &&
	grep -q '^freq scale:     1024 (x86: the kernel.s APERF/MPERF scale is not traced)$' info.txt &&
	cfsreplay info '$REC' >info0.txt &&
	grep -q '^cpu capacity:   cpu0 1024, cpu1 1024 (recorder metadata' info0.txt &&
	cfsreplay info --json cap.dat >info.json &&
	python3 -c '
import json
s = json.load(open(\"info.json\"))[\"scale\"]
assert s[\"capacity\"] == [1024, 512], s
assert s[\"capacity_source\"] == \"recorder metadata (sysfs cpu_capacity)\", s
assert s[\"freq_scale_source\"].startswith(\"1024 (x86\"), s
'
"

test_expect_success 'v4.19: util on CPU 1 halves, load and clock stay' "
	cfsreplay signals --kernel 4.19 '$REC' >base-4.19.csv 2>/dev/null &&
	cfsreplay signals --kernel 4.19 cap.dat >cap-4.19.csv 2>/dev/null &&
	python3 '$REF' contrib 1 512 base-4.19.csv cap-4.19.csv >contrib.out &&
	cat contrib.out &&
	read -r _ tasks _ rows _ worst <contrib.out &&
	test \$tasks -ge 3 && test \$rows -ge 50 &&
	! cmp -s base-4.19.csv cap-4.19.csv
"

test_expect_success 'v5.1+: CPU 1 clock_pelt as predicted' "
	cfsreplay signals '$REC' >base.csv 2>/dev/null &&
	cfsreplay signals cap.dat >cap.csv 2>/dev/null &&
	trace-cmd report -t -N '$REC' >report.txt 2>/dev/null &&
	python3 '$REF' clock 1 512 report.txt base.csv cap.csv 2048 >clock.out &&
	cat clock.out &&
	read -r _ rows _ behind _ worst _ over _ unseen _ unseen_worst <clock.out &&
	test \$rows -ge 150 && test \$behind -ge 20 && test \$over -eq 0 &&
	test \$unseen -ge 1000 && test \$unseen_worst -le 100000
"

test_expect_success 'lock-step: a record clock is not scaled again' "
	cfsreplay validate --pelt '$PELT' cap.dat >val.txt 2>/dev/null &&
	python3 -c '
import re, sys
blocks = open(\"val.txt\").read().split(\"updates compared\")
seen = 0
for name, body in zip(blocks, blocks[1:]):
    if not re.search(r\"(root|group) cfs_rq \$\", name.splitlines()[-1]):
        continue
    m = re.search(r\"^last_update_time +(\\d+) +([0-9.]+) \", body, re.M)
    assert m and int(m.group(1)) >= 500 and m.group(2) == \"100.00\", m and m.group(0)
    seen += 1
assert seen == 2, seen
' &&
	cfsreplay signals --clock '$PELT' cap.dat >lock.csv 2>/dev/null &&
	python3 '$REF' readings 1 512 '$PELT' lock.csv 20000 >readings.out &&
	cat readings.out &&
	read -r _ rows _ behind <readings.out &&
	test \$rows -ge 1000 && test \$((behind * 100)) -le \$rows
"

test_expect_success 'capacity 1024 written out: the same signals' "
	with_capacity full.dat 1024 &&
	cfsreplay signals full.dat >full.csv 2>/dev/null &&
	cmp base.csv full.csv
"

test_done

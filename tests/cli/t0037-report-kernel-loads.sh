#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report's lasting imbalance on the kernel's per-CPU loads (the root
# cfs_rq records of a pelt.jsonl).  On a synthetic trace (four spinners on
# CPU 0, one on CPU 1: scripts/imbalance-trace.py) with hand-written
# records, the windows follow by hand: records that give CPU 0 four times
# CPU 1's load make the one window the model's loads make, and agree with
# it; equal loads make none.  On the recorded runs, the kernel loads the
# report gives at its windows' starts are those scripts/kload-ref.py
# computes from the records on its own.
. "$(dirname "$0")/lib.sh"

GEN=$SRC_DIR/scripts/imbalance-trace.py
REF=$SRC_DIR/scripts/kload-ref.py

# records LOAD0 LOAD1 > pelt.jsonl: a root cfs_rq record of each CPU every
# millisecond from 9.999 s to 10.301 s, with load_avg LOAD0 and LOAD1 at
# the record, the PELT clock equal to the trace clock
records() {
	python3 - "$@" <<'PY'
import json, sys
loads = [int(sys.argv[1]), int(sys.argv[2])]
print(json.dumps({"type": "hdr", "format": "pelt-bpf/1"}))
for ms in range(9999, 10302):
    ts = ms * 1000000
    lut = ts - ts % 1024
    pc = (lut >> 10) % 1024
    for cpu in (0, 1):
        print(json.dumps({"type": "cfs", "ts": ts, "ktime": ts, "cpu": cpu, "rq_cpu": cpu,
                          "root": 1, "level": 0, "tg": "/", "clock": ts, "clock_task": ts,
                          "clock_pelt": ts, "lost_idle_time": 0, "last_update_time": lut,
                          "load_sum": loads[cpu] * (47742 - 1024 + pc), "runnable_sum": 0,
                          "util_sum": 0, "period_contrib": pc, "load_avg": loads[cpu],
                          "runnable_avg": 0, "util_avg": 0}))
PY
}

test_expect_success 'four-one, CPU 0 at 4096 and CPU 1 at 1024: the model window, agreeing' "
	python3 '$GEN' four-one >f.txt 2>f.expect &&
	records 4096 1024 >p.jsonl &&
	cfsreplay report --kernel 6.18 --json --pelt p.jsonl f.txt >r.json &&
	python3 - r.json f.expect <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
_, start, end, why, cls = open(sys.argv[2]).read().split()
assert d['format_version'] == 8, d['format_version']
k = d['kernel_loads']
# records are taken up to the last event (10.300011 s): 9.999 s .. 10.300 s, two CPUs
assert k['from_ns'] == 10000000000 and k['records'] == 2 * 302, k
ki, mi = k['lasting_imbalance'], d['lasting_imbalance']
assert ki['lasting_windows'] == mi['lasting_windows'] == 1, (ki, mi)
w = ki['top'][0]
assert (w['start_ns'], w['end_ns'], w['ended_by'], w['class']) == (int(start), int(end), why, cls), w
assert (w['busiest_cpu'], w['local_cpu']) == (0, 1), w
assert ki['allowed_ns'] == int(end) - int(start), ki
assert k['agree']['model_lasting'] == k['agree']['kernel_lasting'] == 1, k
assert k['agree']['model_windows'] >= 1 and k['agree']['kernel_windows'] >= 1, k
# the window opens 10 us after the 10.000 s record: no period ends, the loads are the records'
assert (w['busiest_load'], w['local_load']) == (4096, 1024), w
assert mi['top'][0]['kernel_busiest_load'] == 4096, mi['top'][0]
PY
"

test_expect_success 'four-one with equal kernel loads: no window' "
	python3 '$GEN' four-one >f.txt 2>/dev/null &&
	records 2048 2048 >p.jsonl &&
	cfsreplay report --kernel 6.18 --json --pelt p.jsonl f.txt >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
k = d[\"kernel_loads\"]
assert k[\"lasting_imbalance\"][\"windows\"] == 0 and k[\"first_windows\"] == [], k
assert k[\"agree\"] == {\"model_windows\": 0, \"kernel_windows\": 0, \"model_lasting\": 0,
                       \"kernel_lasting\": 0}, k
assert d[\"lasting_imbalance\"][\"lasting_windows\"] == 1, d[\"lasting_imbalance\"]
'
"

test_expect_success 'no records: no section, format 4 with kernel_loads null' "
	python3 '$GEN' four-one >f.txt 2>/dev/null &&
	cfsreplay report --kernel 6.18 --json f.txt >r.json &&
	python3 -c '
import json
d = json.load(open(\"r.json\"))
assert d[\"kernel_loads\"] is None, d[\"kernel_loads\"]
assert \"kernel_busiest_load\" not in d[\"lasting_imbalance\"][\"top\"][0]
' &&
	cfsreplay report --kernel 6.18 f.txt >r.txt &&
	! grep -q \"on the kernel's loads\" r.txt &&
	cfsreplay report --json --pelt none '$TRACES/recorded.dat' >n.json &&
	python3 -c '
import json
assert json.load(open(\"n.json\"))[\"kernel_loads\"] is None
'
"

test_expect_success 'unreadable records: beside, the rest stands; given, an error' "
	cp '$TRACES/recorded.dat' x.dat &&
	head -c 5000 '$TRACES/recorded.pelt.jsonl.gz' >x.pelt.jsonl.gz &&
	cfsreplay report x.dat >x.out 2>x.err &&
	grep -q \"kernel's loads: the records x.pelt.jsonl.gz could not be read\" x.out &&
	cfsreplay report --json x.dat >x.json 2>/dev/null &&
	python3 -c 'import json; assert json.load(open(\"x.json\"))[\"kernel_loads\"] is None' &&
	{ cfsreplay report --pelt x.pelt.jsonl.gz x.dat >/dev/null 2>g.err; test \$? -eq 2; } &&
	grep -q truncated g.err &&
	{ cfsreplay report --pelt nonexistent.jsonl '$TRACES/recorded.dat' >/dev/null 2>&1;
	  test \$? -eq 2; }
"

# check_ref TRACE PELT [REPORT OPTIONS]: the kernel loads of B and L at the
# starts of the report's first windows on kernel loads, against kload-ref.py
check_ref() {
	local trace=$1 pelt=$2
	shift 2
	cfsreplay report --json --top 20 "$@" "$trace" >r.json &&
	python3 - r.json "$REF" "$pelt" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
k = d['kernel_loads']
assert k and k['pelt_file'] == sys.argv[3], k
ws = k['first_windows']
assert len(ws) == min(20, k['lasting_imbalance']['windows']) and ws, k
assert k['agree']['model_windows'] <= d['lasting_imbalance']['windows'], k
assert k['agree']['kernel_windows'] <= k['lasting_imbalance']['windows'], k
q, want = [], []
for w in ws:
    for c, l in ((w['busiest_cpu'], w['busiest_load']), (w['local_cpu'], w['local_load'])):
        q.append('%d:%d' % (c, w['start_ns']))
        want.append(l)
out = subprocess.run(['python3', sys.argv[2], sys.argv[3]] + q, capture_output=True,
                     text=True, check=True).stdout.split('\n')
for line, l in zip(out, want):
    got = int(line.split()[2])
    assert abs(got - l) <= 1, (line, l)
print(len(want), 'loads agree')
PY
}

test_expect_success 'recorded.dat: the kernel loads at window starts, as the script finds them' "
	check_ref '$TRACES/recorded.dat' '$TRACES/recorded.pelt.jsonl.gz'
"

test_expect_success 'groups-nested.dat: the same' "
	check_ref '$TRACES/groups-nested.dat' '$TRACES/groups-nested.pelt.jsonl.gz'
"

if [ -f "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" ]; then
	test_expect_success 'periodic-bpf: the same with --pelt' "
		check_ref '$SHARED_TRACES/periodic-bpf/trace.dat' \
			'$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz' \
			--pelt '$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz'
	"
	test_expect_success 'cgroups-bpf: the same; the groups come from the records' "
		check_ref '$SHARED_TRACES/cgroups-bpf/trace.dat' \
			'$SHARED_TRACES/cgroups-bpf/pelt.jsonl.gz' \
			--pelt '$SHARED_TRACES/cgroups-bpf/pelt.jsonl.gz' &&
		python3 -c '
import json
assert json.load(open(\"r.json\"))[\"groups\"][\"groups\"] > 0
'
	"
else
	test_skip 'periodic-bpf: the same with --pelt' 'no ../shared/traces'
	test_skip 'cgroups-bpf: the same; the groups come from the records' 'no ../shared/traces'
fi

test_done

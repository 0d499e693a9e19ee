#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals: the exact CSV header, JSON lines with the same keys, filters,
# and rows that agree with the trace (one task, its updates in time order,
# last_update_time on the 1024 ns grid).
. "$(dirname "$0")/lib.sh"

header='ts_ns,cpu,entity,pid,path,comm,load_weight,load_sum,runnable_sum,util_sum,period_contrib,load_avg,runnable_avg,util_avg,util_est,last_update_time,tg_load_avg,tg_load_avg_contrib'

test_expect_success 'CSV header exactly as specified' "
	cfsreplay signals '$TRACES/periodic.dat' >out.csv &&
	test \"\$(head -1 out.csv)\" = '$header' &&
	test \$(wc -l <out.csv) -gt 100
"
test_expect_success '--mark-clock: one more column, clock_exact 0 or 1, the rows otherwise the same' "
	T='$TRACES/eevdf-split' &&
	cfsreplay signals --clock \$T.pelt.jsonl.gz \$T.dat >plain.csv &&
	cfsreplay signals --mark-clock --clock \$T.pelt.jsonl.gz \$T.dat >marked.csv &&
	test \"\$(head -1 marked.csv)\" = '$header,clock_exact' &&
	sed '1d; s/,[01]\$//' marked.csv >stripped.csv && sed 1d plain.csv | cmp - stripped.csv &&
	ones=\$(sed 1d marked.csv | grep -c ',1\$') && zeros=\$(sed 1d marked.csv | grep -c ',0\$') &&
	echo \"# exact \$ones, estimated \$zeros\" &&
	test \$((ones + zeros)) -eq \$(sed 1d plain.csv | wc -l) && test \$ones -gt 0 && test \$zeros -gt 0 &&
	cfsreplay signals --mark-clock --format jsonl --clock \$T.pelt.jsonl.gz \$T.dat >marked.jsonl &&
	python3 -c '
import json, sys
v = [json.loads(l)[\"clock_exact\"] for l in open(\"marked.jsonl\")]
assert set(v) == {0, 1}, set(v)
print(\"# jsonl rows\", len(v))
'
"
test_expect_success 'every row has 18 columns and a grid-aligned last_update_time' "
	cfsreplay signals '$TRACES/cgroups.dat' >out.csv &&
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(\"out.csv\")))
assert rows, \"no rows\"
for r in rows:
    assert len(r) == 18 and None not in r, r
    assert int(r[\"last_update_time\"]) % 1024 == 0, r
    assert int(r[\"period_contrib\"]) < 1024, r
    if r[\"entity\"] == \"task\":
        assert r[\"pid\"] and r[\"path\"] == \"\" and 0 <= int(r[\"util_avg\"]) <= 1024, r
        assert r[\"tg_load_avg\"] == r[\"tg_load_avg_contrib\"] == \"\", r
    elif r[\"path\"] == \"/\":
        assert r[\"entity\"] == \"cfs_rq\" and r[\"tg_load_avg\"] == \"\", r
    else:
        assert r[\"entity\"] == \"cfs_rq\" and r[\"pid\"] == \"\" and r[\"comm\"] == \"\", r
        assert r[\"path\"].startswith(\"/\"), r
'
"
test_expect_success '--pid keeps one task, in time order; jsonl has the same keys' "
	pid=\$(cfsreplay signals --entity task '$TRACES/cgroups.dat' | awk -F, 'NR > 1 { print \$4 }' | sort | uniq -c | sort -rn | awk 'NR==1{print \$2}') &&
	test -n \"\$pid\" &&
	cfsreplay signals --format jsonl --pid \$pid '$TRACES/cgroups.dat' >out.jsonl &&
	python3 -c '
import json, sys
keys = \"$header\".split(\",\")
last = 0
n = 0
for line in open(\"out.jsonl\"):
    o = json.loads(line)
    assert list(o) == keys, list(o)
    assert o[\"pid\"] == int(sys.argv[1])
    assert o[\"ts_ns\"] >= last
    last = o[\"ts_ns\"]
    n += 1
assert n > 10, n
' \$pid
"
test_expect_success '--entity splits the rows of one replay: task rows and cfs_rq rows' "
	cfsreplay signals '$TRACES/periodic.dat' >all.csv &&
	cfsreplay signals --entity task '$TRACES/periodic.dat' >task.csv &&
	cfsreplay signals --entity cfs_rq '$TRACES/periodic.dat' >cfs.csv &&
	test \"\$(tail -n +2 task.csv | cut -d, -f3 | sort -u)\" = task &&
	test \"\$(tail -n +2 cfs.csv | cut -d, -f3 | sort -u)\" = cfs_rq &&
	grep ',task,' all.csv >a && tail -n +2 task.csv >b && diff -u a b &&
	test \$(grep -c ',cfs_rq,' all.csv) -eq \$(( \$(wc -l <cfs.csv) - 1 )) &&
	test \$(grep -c ',cfs_rq,,/,,' cfs.csv) -gt 100
"
test_expect_success 'cfs_rq rows: on the 1024 ns grid, period_contrib its place in the period' "
	cfsreplay signals --entity cfs_rq --format jsonl '$TRACES/periodic.dat' >cfs.jsonl &&
	python3 -c '
import json
n = 0
for line in open(\"cfs.jsonl\"):
    o = json.loads(line)
    assert o[\"pid\"] is None and o[\"comm\"] == \"\", o
    # a cfs_rq's window sits on its clock's grid, as in the kernel records
    lut = o[\"last_update_time\"]
    assert lut % 1024 == 0 and o[\"period_contrib\"] == (lut >> 10) % 1024, o
    if o[\"path\"] == \"/\":
        n += 1
assert n > 100, n
'
"
if [ -f "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" ]; then
	# the autogroups of periodic-bpf all have nice 0: shares NICE_0_LOAD, so
	# calc_group_shares() keeps every group entity weight in [MIN_SHARES, 1048576]
	test_expect_success '--clock pelt.jsonl: tasks in their groups, gse rows, tg columns' "
		cfsreplay signals --clock '$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz' \
			'$SHARED_TRACES/periodic-bpf/trace.dat' >g.csv &&
		python3 -c '
import csv
gse, grq = set(), set()
for r in csv.DictReader(open(\"g.csv\")):
    tg = (r[\"tg_load_avg\"], r[\"tg_load_avg_contrib\"])
    if r[\"entity\"] == \"gse\":
        assert r[\"path\"].startswith(\"/autogroup-\") and tg == (\"\", \"\"), r
        assert 2 <= int(r[\"load_weight\"]) <= 1048576, r
        gse.add(r[\"path\"])
    elif r[\"entity\"] == \"cfs_rq\" and r[\"path\"] != \"/\":
        assert int(tg[0]) >= 0 and int(tg[1]) >= 0, r
        grq.add(r[\"path\"])
    else:
        assert tg == (\"\", \"\"), r
assert gse and gse == grq, (gse, grq)
'
	"
else
	test_skip 'signals --clock on a recorded run' "no $SHARED_TRACES/*-bpf (a user's clone has none)"
fi
# span TRACE: "first last" trace timestamps, from info
span() {
	cfsreplay info --json "$1" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["first_ts"], d["last_ts"])'
}
test_expect_success 'every row is stamped inside the trace (tasks moved unseen too)' "
	bad=0 &&
	for f in periodic.dat cgroups.dat recorded.dat pinned.dat forkburst.dat; do
		set -- \$(span '$TRACES'/\$f) && test \$# -eq 2 &&
		cfsreplay signals '$TRACES'/\$f >s.csv && test \$(wc -l <s.csv) -gt 100 &&
		awk -F, -v lo=\$1 -v hi=\$2 'NR > 1 && (\$1 < lo || \$1 > hi) { bad++ } END { exit bad > 0 }' s.csv ||
		{ echo \"# \$f: a row outside [\$1, \$2]\"; bad=1; }
	done &&
	test \$bad = 0
"
test_expect_success 'stderr says how the clock was aligned and how much was estimated' "
	cfsreplay signals '$TRACES/periodic.dat' >/dev/null 2>err1 &&
	grep -q '^signals: clock anchored by run-time reports only; [0-9]* task and [0-9]* cfs_rq updates; [0-9]* clock values estimated from the last anchor, [0-9]* on the trace clock' err1 &&
	cfsreplay signals '$TRACES/recorded.dat' >/dev/null 2>err2 &&
	grep -q 'readings of .*recorded.dat (its own snapshots)' err2 &&
	grep -q 'before a CPU.s first reading' err2 &&
	cfsreplay signals --clock none '$TRACES/recorded.dat' >/dev/null 2>err3 &&
	grep -q 'run-time reports only' err3
"
test_expect_success '--kernel picks the model; an older one has its own columns' "
	cfsreplay signals --kernel 6.12 '$TRACES/periodic.dat' >a.csv &&
	cfsreplay signals --kernel 6.18 '$TRACES/periodic.dat' >b.csv &&
	test \$(wc -l <a.csv) -eq \$(wc -l <b.csv) &&
	cfsreplay signals --kernel 5.6 '$TRACES/periodic.dat' >c.csv 2>err &&
	head -1 c.csv | grep -q ',runnable_load_avg,' && ! head -1 c.csv | grep -q runnable_avg &&
	cfsreplay signals --kernel linux '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2
"
test_expect_success 'bad --format and --cpu values are usage errors' "
	cfsreplay signals --format xml '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	cfsreplay signals --cpu x '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2
"
if [ -f "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" ]; then
	test_expect_success '--clock takes clock readings from pelt.jsonl and truth.jsonl' "
		cfsreplay signals --clock '$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz' \
			'$SHARED_TRACES/periodic-bpf/trace.dat' | grep -q ',task,' &&
		cfsreplay signals --clock '$SHARED_TRACES/periodic-bpf/truth.jsonl' \
			'$SHARED_TRACES/periodic-bpf/trace.dat' | grep -q ',task,'
	"
	# a CPU whose first run-time report came before its first reading must
	# not start its cfs_rqs on the trace clock (which the kernel's clock then
	# never reaches again): each root's last_update_time keeps to the span of
	# the kernel's own rq clocks on that CPU, and advances over the run
	test_expect_success '--clock: every root cfs_rq on the kernel clock, advancing' "
		cfsreplay signals --entity cfs_rq --clock '$SHARED_TRACES/cgroups-bpf/pelt.jsonl.gz' \
			'$SHARED_TRACES/cgroups-bpf/trace.dat' >roots.csv &&
		python3 - roots.csv '$SHARED_TRACES/cgroups-bpf/pelt.jsonl.gz' <<'PY'
import csv, gzip, json, sys
lo, hi = {}, {}
for line in gzip.open(sys.argv[2], 'rt'):
    r = json.loads(line)
    c, k = r.get('rq_cpu'), r.get('clock_pelt')
    if c is None or k is None or c < 0 or k < 0:
        continue
    lo[c] = min(lo.get(c, k), k)
    hi[c] = max(hi.get(c, k), k)
first, last = {}, {}
for row in csv.DictReader(open(sys.argv[1])):
    if row['path'] != '/':
        continue
    c, lut = int(row['cpu']), int(row['last_update_time'])
    # events after the last record extend the clock a little past it
    assert lo[c] - 2**24 <= lut <= hi[c] + 2**24, (c, lut, lo[c], hi[c])
    first.setdefault(c, lut)
    last[c] = lut
for c in hi:
    assert last[c] - first[c] > (hi[c] - lo[c]) // 2, (c, first[c], last[c])
PY
	"
else
	test_skip '--clock on the recorded runs' "no $SHARED_TRACES"
fi
test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare --kernel A [--kernel B] TRACE: one trace, two models.  One model
# twice differs nowhere.  v6.11 against v6.18 shows what DELAY_DEQUEUE
# changes and nothing else: a delayed task stays queued with its load and
# is neither runnable nor running (v6.12+), so per CPU the root's load_avg
# is higher under v6.18 and its util_avg and runnable_avg are the same;
# per task load_avg never lower.  That holds with every task in the root
# group (--clock none: recorded.dat's own snapshots would put its tasks in
# their autogroups, where a group's shares move between CPUs with its
# load, so one CPU's load can drop).  The sampling instants follow from the
# trace's first and last event (info) and the interval.  Bad use fails
# with exit status 2.
. "$(dirname "$0")/lib.sh"

# span TRACE: "first last" event timestamps, from info
span() {
	cfsreplay info --json "$1" |
		python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["first_ts"], d["last_ts"])'
}

test_expect_success 'one model twice: every difference is zero' "
	cfsreplay compare --kernel 6.18 --kernel 6.18 --json '$TRACES/recorded.dat' >same.json &&
	python3 -c '
import json
d = json.load(open(\"same.json\"))
assert d[\"mode\"] == \"models\" and d[\"format_version\"] == 3
a, b = d[\"models\"]
assert a == b, (a, b)
assert a[\"what_if\"] is False
rows = d[\"tasks\"] + d[\"cpus\"]
assert len(d[\"tasks\"]) > 5 and all(c[\"samples\"] > 1000 for c in d[\"cpus\"])
for r in rows:
    assert r[\"unfit_ns_a\"] == r[\"unfit_ns_b\"], r
    for name, s in r[\"signals\"].items():
        assert s[\"max_abs_diff\"] == 0 and s[\"mean_abs_diff\"] == 0, (r, name)
        assert s[\"mean_a\"] == s[\"mean_b\"], (r, name)
'
"

for f in recorded.dat periodic.dat cgroups.dat forkburst.dat; do
	test_expect_success "$f: v6.11 against v6.18 differs by delayed dequeue alone" "
		cfsreplay compare --kernel 6.11 --json --clock none '$TRACES/$f' >m.json &&
		python3 -c '
import json
d = json.load(open(\"m.json\"))
a, b = d[\"models\"]
assert a[\"model\"] == \"v6.10-v6.11 EEVDF\" and a[\"what_if\"] is True
assert b[\"model\"] == \"v6.18.44-v6.18.y EEVDF, delayed dequeue\" and b[\"what_if\"] is False
assert a[\"stats\"][\"delayed\"] == 0 and b[\"stats\"][\"delayed\"] > 0, (a, b)
# a delayed sleep ends in a pick or a wakeup, or is still delayed at the end
assert b[\"stats\"][\"delayed\"] >= b[\"stats\"][\"delayed_picked\"] + b[\"stats\"][\"delayed_woken\"]
higher = 0
for c in d[\"cpus\"]:
    s = c[\"signals\"]
    assert c[\"samples\"] > 500, c
    # load only: delayed entities count in load, not in runnable or running
    assert s[\"load_avg\"][\"mean_b\"] >= s[\"load_avg\"][\"mean_a\"], c
    higher += s[\"load_avg\"][\"mean_b\"] > s[\"load_avg\"][\"mean_a\"] + 10
    assert s[\"util_avg\"][\"mean_abs_diff\"] < 1 and s[\"runnable_avg\"][\"mean_abs_diff\"] < 1, c
assert higher >= 1, d[\"cpus\"]
for t in d[\"tasks\"]:
    s = t[\"signals\"][\"load_avg\"]
    assert s[\"mean_b\"] >= s[\"mean_a\"] - 0.5, t
'
	"
done

test_expect_success 'samples fall every interval from the first event to the last' "
	set -- \$(span '$TRACES/recorded.dat') && test \$# -eq 2 &&
	cfsreplay compare --kernel 6.9 --interval 2.5 --json '$TRACES/recorded.dat' >i.json &&
	python3 -c '
import json, sys
first, last = int(sys.argv[1]), int(sys.argv[2])
d = json.load(open(\"i.json\"))
want = (last - first) // 2500000
assert d[\"sampling\"][\"interval_ns\"] == 2500000
assert d[\"sampling\"][\"samples\"] == want, (d[\"sampling\"], want)
assert d[\"trace\"][\"first_ts_ns\"] == first and d[\"trace\"][\"last_ts_ns\"] == last
for r in d[\"tasks\"] + d[\"cpus\"]:
    assert r[\"samples\"] <= want
    for k in (\"unfit_ns_a\", \"unfit_ns_b\"):
        assert r[k] % 2500000 == 0 and r[k] <= r[\"samples\"] * 2500000, r
    for s in r[\"signals\"].values():
        if s[\"max_abs_diff\"]:
            assert first < s[\"max_ts_ns\"] <= last, s
            assert abs(s[\"max_a\"] - s[\"max_b\"]) == s[\"max_abs_diff\"], s
' \$1 \$2
"

# a task is read from its creation to its death (task_dead_fair() at the
# switch that ends it, prev_state X), never after: each forked child of
# forkburst.dat has at most one sample per ms of its life, which trace-cmd
# report gives (its sched_wakeup_new to its switch out in state X)
if command -v trace-cmd >/dev/null 2>&1; then
	test_expect_success 'a task is read while it lives: forkburst children' "
		trace-cmd report -t '$TRACES/forkburst.dat' >fb.txt 2>/dev/null &&
		cfsreplay compare --kernel 6.11 --clock none --json '$TRACES/forkburst.dat' >fb.json &&
		python3 - fb.txt fb.json <<'PY'
import json, re, sys
born, died = {}, {}
for line in open(sys.argv[1]):
    m = re.search(r' (\d+)\.(\d{9}): sched_wakeup_new: +\S+:(\d+) ', line)
    if m:
        born.setdefault(int(m.group(3)), int(m.group(1)) * 10**9 + int(m.group(2)))
    m = re.search(r' (\d+)\.(\d{9}): sched_switch: +\S+:(\d+) \[\d+\] X ==>', line)
    if m:
        died[int(m.group(3))] = int(m.group(1)) * 10**9 + int(m.group(2))
rows = [t for t in json.load(open(sys.argv[2]))['tasks'] if t['comm'].startswith('cfsr-child')]
assert len(rows) >= 20, len(rows)
for t in rows:
    life = died[t['pid']] - born[t['pid']]
    assert t['samples'] <= life // 10**6 + 1, (t['pid'], t['samples'], life)
PY
	"
fi

test_expect_success 'text: both models named, what-if marked, 100 columns' "
	cfsreplay compare --kernel 6.11 --top 3 '$TRACES/recorded.dat' >t.txt &&
	grep -q '^model A  v6.10-v6.11 EEVDF (what-if)\$' t.txt &&
	grep -q '^model B  v6.18.44-v6.18.y EEVDF, delayed dequeue\$' t.txt &&
	grep -q 'sleeps delayed' t.txt && grep -q '^tasks, largest mean difference first (3 of ' t.txt &&
	test \$(awk '{ if (length(\$0) > m) m = length(\$0) } END { print m }' t.txt) -le 100
"

if [ -f "$TRACES/recorded.pelt.jsonl.gz" ]; then
	test_expect_success '--clock: readings and groups in both models; one model twice still equal' "
		cfsreplay compare --kernel 6.18 --kernel 6.18 --json \
			--clock '$TRACES/recorded.pelt.jsonl.gz' '$TRACES/recorded.dat' >ck.json &&
		cfsreplay compare --kernel 6.18 --kernel 6.18 --json --clock none '$TRACES/recorded.dat' >nock.json &&
		python3 -c '
import json
d = json.load(open(\"ck.json\"))
n = json.load(open(\"nock.json\"))
for r in d[\"tasks\"] + d[\"cpus\"]:
    for s in r[\"signals\"].values():
        assert s[\"max_abs_diff\"] == 0, r
# the kernel clock and the groups change what the model predicts
assert [c[\"signals\"][\"load_avg\"][\"mean_a\"] for c in d[\"cpus\"]] != \\
       [c[\"signals\"][\"load_avg\"][\"mean_a\"] for c in n[\"cpus\"]]
'
	"
fi

# fails2 CMD...: CMD exits with status 2, nothing on stdout, a reason on stderr
fails2() {
	"$@" >out 2>err
	test $? -eq 2 && test ! -s out && test -s err
}
test_expect_success 'bad use: exit status 2 and a reason' "
	fails2 cfsreplay compare --kernel 6.11 '$TRACES/recorded.dat' '$TRACES/periodic.dat' &&
	grep -q 'one trace' err &&
	fails2 cfsreplay compare --kernel 6.11 --kernel 6.12 --kernel 6.18 '$TRACES/recorded.dat' &&
	grep -q 'at most twice' err &&
	fails2 cfsreplay compare --kernel 6.11 --interval 0 '$TRACES/recorded.dat' &&
	grep -q 'milliseconds' err &&
	fails2 cfsreplay compare --interval 1 '$TRACES/recorded.dat' '$TRACES/recorded.dat' &&
	grep -q 'needs --kernel' err &&
	fails2 cfsreplay compare --clock x.jsonl '$TRACES/recorded.dat' '$TRACES/recorded.dat' &&
	grep -q 'clock needs --kernel' err &&
	fails2 cfsreplay compare --kernel 6.11 --clock nosuch.jsonl '$TRACES/recorded.dat' &&
	fails2 cfsreplay compare --kernel 6.11 '$TRACES/does-not-exist.dat'
"

test_done

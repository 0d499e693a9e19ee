#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report's pick check on synthetic traces whose EEVDF picks follow by hand
# (scripts/pick-trace.py works them out and prints the expected counts and
# divergences): three nice-0 spinners run round-robin on 4 ms ticks, in
# the order the rule gives (every contested pick agrees), with one switch
# to a task whose deadline was later (earlier-deadline), with one to a
# task not eligible (ineligible), and with a switch away from a task whose
# slice RUN_TO_PARITY still protects (run-to-parity).  Filters: --cpu,
# --pid, --time.  On every bundled trace (and the shared ones when
# present) the classes add up to the trace's sched_switch count.
. "$(dirname "$0")/lib.sh"

GEN=$SRC_DIR/scripts/pick-trace.py

# check SCENARIO: report --json's pick_check against the generator's expectation
check() {
	local s=$1
	python3 "$GEN" "$s" >"$s.txt" 2>"$s.expect" &&
	cfsreplay report --kernel 6.18 --json "$s.txt" >"$s.json" &&
	python3 - "$s.json" "$s.expect" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format_version"] == 8, d["format_version"]
p = d["pick_check"]
lines = [l.split() for l in open(sys.argv[2])]
exp = [l for l in lines if l[0] == "expect"][0]
divs = [l for l in lines if l[0] == "div"]
switches, contested, agrees = int(exp[1]), int(exp[2]), int(exp[3])
t = p["total"]
assert p["pick"] == "eevdf" and p["task_groups"] == "unknown-all-root", p
assert (t["switches"], t["contested"], t["agrees"]) == (switches, contested, agrees), t
assert t["diverges"] == len(divs) and t["trivial"] == 0, t
# the first switch of each CPU: its state was unknown
assert t["cannot_judge"] == 2 and p["reasons"]["state-unknown"] == 2, p["reasons"]
assert t["agree_permille"] == (agrees * 2000 + contested) // (2 * contested), t
assert len(p["top"]) == len(divs), p["top"]
for e, w in zip(p["top"], divs):
    got = (e["ts_ns"], e["reason"], e["ran"]["pid"], e["preferred"]["pid"], e["size"],
           e["avg_vruntime"])
    want = (int(w[1]), w[2], int(w[3]), int(w[4]), int(w[5]), int(w[6]))
    assert got == want, (got, want)
    assert p["reasons"][w[2]] == 1, p["reasons"]
    assert e["cpu"] == 0 and e["nr_runnable"] >= 2, e
    assert e["ran"]["eligible"] == (w[2] != "ineligible"), e
PY
}

for s in rr wrong ineligible parity; do
	test_expect_success "$s: the picks EEVDF makes by hand" "check $s"
done

test_expect_success '--cpu 1 counts CPU 1 only; --time clips' "
	python3 '$GEN' wrong >w.txt 2>/dev/null &&
	cfsreplay report --kernel 6.18 --json --cpu 1 w.txt >c1.json &&
	cfsreplay report --kernel 6.18 --json --time 10.006,10.030 w.txt >tw.json &&
	python3 -c '
import json
p = json.load(open(\"c1.json\"))[\"pick_check\"]
assert p[\"total\"][\"switches\"] == 1 and p[\"total\"][\"cannot_judge\"] == 1, p
assert [c[\"cpu\"] for c in p[\"cpus\"]] == [1] and p[\"top\"] == [], p
# ticks at 10.008 .. 10.028: six switches, all after the divergence at 10.004
p = json.load(open(\"tw.json\"))[\"pick_check\"][\"total\"]
assert (p[\"switches\"], p[\"contested\"], p[\"agrees\"]) == (6, 6, 6), p
'
"

test_expect_success '--pid: switches where the task leaves, runs or is preferred' "
	python3 '$GEN' wrong >w.txt 2>/dev/null &&
	n203=\$(grep -c 'sched_switch:.*w203:203' w.txt) &&
	n202=\$(grep -c 'sched_switch:.*w202:202' w.txt) &&
	cfsreplay report --kernel 6.18 --json --pid 203 w.txt >p3.json &&
	cfsreplay report --kernel 6.18 --json --pid 202 w.txt >p2.json &&
	python3 -c '
import json, sys
n203, n202 = int(sys.argv[1]), int(sys.argv[2])
p = json.load(open(\"p3.json\"))[\"pick_check\"]
assert p[\"total\"][\"switches\"] == n203 and len(p[\"top\"]) == 1, (p, n203)
# 202 was preferred at 10.004, where A switched to C: one switch more
p = json.load(open(\"p2.json\"))[\"pick_check\"]
assert p[\"total\"][\"switches\"] == n202 + 1 and len(p[\"top\"]) == 1, (p, n202)
' \$n203 \$n202
"

test_expect_success 'a CFS profile: tasks there from the start, never asleep, have no known vruntime' "
	python3 '$GEN' wrong >w.txt 2>/dev/null &&
	cfsreplay report --kernel 6.1 --json w.txt >cfs.json &&
	python3 -c '
import json
p = json.load(open(\"cfs.json\"))[\"pick_check\"]
assert p[\"pick\"] == \"cfs\" and p[\"total\"][\"contested\"] == 0, p
# the three tasks run from the start and never sleep: no wakeup places them
assert p[\"reasons\"][\"vruntime-unknown\"] == 12 and p[\"total\"][\"cannot_judge\"] == 14, p
assert \"cfs-profile\" not in p[\"reasons\"], p
'
"

test_expect_success 'text: the section, its divergence, within 100 columns' "
	python3 '$GEN' ineligible >i.txt 2>/dev/null &&
	cfsreplay report --kernel 6.18 i.txt >i.out &&
	grep -q '^pick check' i.out &&
	grep -q '^  all  *14  *0  *12  *11  *1  *2  *91.7%' i.out &&
	grep -q '^      ineligible  *preferred w203:203' i.out &&
	test \$(awk '{ if (length(\$0) > m) m = length(\$0) } END { print m }' i.out) -le 100
"

test_expect_success 'cgroups.dat: groups from the markers, picks through group entities judged' "
	cfsreplay report --json --top 20 '$TRACES/cgroups.dat' >cg.json &&
	cfsreplay report --json --kernel 6.1 '$TRACES/cgroups.dat' >cg61.json &&
	cfsreplay report --json '$TRACES/recorded.dat' >rec.json &&
	python3 -c '
import json
p = json.load(open(\"cg.json\"))[\"pick_check\"]
assert p[\"task_groups\"] == \"markers\" and p[\"reasons\"][\"task-groups\"] == 0, p
# a divergence among group entities names its level, the cfs_rq there and the entities
lv = [d for d in p[\"top\"] if \"level\" in d]
assert lv, p[\"top\"]
for d in lv:
    assert d[\"level\"] >= 0 and d[\"cfs_rq\"].startswith(\"/\"), d
# (a pick on a CPU with groups names its level also where two tasks of the root diverge)
assert any(\"group\" in d[\"ran\"] or \"group\" in d[\"preferred\"] or d[\"level\"] > 0
           for d in lv), lv
# CFS profiles: picks through the CFS vruntimes of group entities are judged too
p = json.load(open(\"cg61.json\"))[\"pick_check\"]
assert p[\"reasons\"][\"task-groups\"] == 0, p[\"reasons\"]
assert p[\"total\"][\"groups_contested\"] > 0, p[\"total\"]
p = json.load(open(\"rec.json\"))[\"pick_check\"]
assert p[\"task_groups\"] == \"snapshots\", p[\"task_groups\"]
'
"

test_expect_success '--clock: a missing or foreign file is one error, exit 2' "
	cfsreplay report --clock nosuch.jsonl '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	test \$(wc -l <err) -eq 1 && grep -q nosuch.jsonl err && test ! -s out &&
	cfsreplay report --clock '$TRACES/README.md' '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'not a truth.jsonl' err
"

# adds_up TRACE: the classes add up, every sched_switch of the trace is counted, and the
# text fits 100 columns
adds_up() {
	cfsreplay report --json --top 3 "$1" >a.json &&
	cfsreplay info --json "$1" >ai.json &&
	cfsreplay report --top 3 "$1" >a.out &&
	test "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' a.out)" -le 100 &&
	python3 - a.json ai.json "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["pick_check"]
n = json.load(open(sys.argv[2]))["events"].get("sched_switch", 0)
t = p["total"]
assert t["switches"] == n, (t, n)
assert t["switches"] == t["trivial"] + t["contested"] + t["cannot_judge"], t
assert t["contested"] == t["agrees"] + t["diverges"], t
assert sum(p["reasons"].values()) == t["switches"], p["reasons"]
for k in ("switches", "trivial", "contested", "agrees", "diverges", "cannot_judge"):
    assert sum(c[k] for c in p["cpus"]) == t[k], (k, p["cpus"])
assert len(p["top"]) <= 3
print("# %s: %d switches, %d trivial, %d contested, %s agree, %d cannot judge %s" % (
    sys.argv[3], t["switches"], t["trivial"], t["contested"],
    "-" if t["agree_permille"] is None else "%.1f%%" % (t["agree_permille"] / 10),
    t["cannot_judge"], {k: v for k, v in p["reasons"].items() if v}))
PY
}

for t in "$TRACES"/*.dat; do
	# nosched.dat holds no scheduler events: report refuses it (t0031)
	[ "$(basename "$t")" = nosched.dat ] && continue
	test_expect_success "$(basename "$t"): the classes add up to its switches" "adds_up '$t'"
done

if [ -d "$SHARED_TRACES" ]; then
	for t in "$SHARED_TRACES"/*/trace.dat; do
		d=$(basename "$(dirname "$t")")
		[ "$d" = bench ] && continue
		test_expect_success "shared $d: the classes add up to its switches" "adds_up '$t'"
	done
	test_expect_success 'shared periodic-bpf: attached tasks kept apart without snapshots' "
		cfsreplay report --json '$SHARED_TRACES/periodic-bpf/trace.dat' >pa.json &&
		python3 -c '
import json
p = json.load(open(\"pa.json\"))[\"pick_check\"]
assert p[\"task_groups\"] == \"cgroup-attach-events\" and p[\"reasons\"][\"task-groups\"] > 0, p
'
	"
	# the kernel's records name each task's group as it runs: ga/gb's
	# workers move there from their shell's autogroup after their first
	# records, and a flat pick among tasks of different groups would diverge
	test_expect_success 'shared cgroups-bpf: --clock pelt.jsonl.gz follows the moves its records show' "
		cfsreplay report --json --clock '$SHARED_TRACES/cgroups-bpf/pelt.jsonl.gz' \
			'$SHARED_TRACES/cgroups-bpf/trace.dat' >cp.json &&
		python3 -c '
import json
p = json.load(open(\"cp.json\"))[\"pick_check\"]
t = p[\"total\"]
assert p[\"task_groups\"] == \"snapshots\" and t[\"contested\"] > 500, p
assert p[\"reasons\"][\"task-groups\"] == 0 and t[\"groups_contested\"] > 0, p
# the picks on one cfs_rq, the others made through group entities
flat = t[\"contested\"] - t[\"groups_contested\"]
assert flat > 500 and (t[\"agrees\"] - t[\"groups_agrees\"]) * 1000 >= 950 * flat, t
'
	"
	test_expect_success 'shared periodic-bpf: --clock gives the groups of its snapshots' "
		cfsreplay report --json --clock '$SHARED_TRACES/periodic-bpf/truth.jsonl' \
			'$SHARED_TRACES/periodic-bpf/trace.dat' >pb.json &&
		cfsreplay report --json --clock none '$TRACES/recorded.dat' >rn.json &&
		python3 -c '
import json
p = json.load(open(\"pb.json\"))[\"pick_check\"]
t = p[\"total\"]
assert p[\"task_groups\"] == \"snapshots\" and p[\"reasons\"][\"task-groups\"] == 0, p
assert 0 < t[\"groups_contested\"] < t[\"contested\"], t
assert t[\"switches\"] == t[\"trivial\"] + t[\"contested\"] + t[\"cannot_judge\"], t
p = json.load(open(\"rn.json\"))[\"pick_check\"]
assert p[\"task_groups\"] != \"snapshots\", p[\"task_groups\"]
'
	"
else
	echo "# no $SHARED_TRACES: shared traces skipped"
fi

test_done

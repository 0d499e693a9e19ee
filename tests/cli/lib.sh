# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for CLI tests, in the manner of git's t/test-lib.sh.  A test
# script sources this file, runs test_expect_success 'title' 'commands'
# for each check, and ends with test_done.  Output is TAP.
#
# Each test runs in a fresh scratch directory ($TRASH).  $CFSREPLAY is the
# binary under test; $VALGRIND, when set, prefixes every run of it.
# $TRACES is the bundled trace directory, $SHARED_TRACES the optional
# directory of larger traces beside the checkout (absent in a user's clone).

TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/../.." && pwd)
TRACES=$SRC_DIR/traces
EXPECT=$TEST_DIR/expect
SHARED_TRACES=${SHARED_TRACES:-$SRC_DIR/../shared/traces}
CFSREPLAY=${CFSREPLAY:-$SRC_DIR/cfsreplay}
# the tests' shared Python readers (tracedata.py)
export PYTHONPATH=$TEST_DIR${PYTHONPATH:+:$PYTHONPATH}
VALGRIND=${VALGRIND:-}

test_count=0
test_failed=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/cfsr-test.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT

# cfsreplay ARGS...: run the binary under test (through $VALGRIND if set)
cfsreplay() {
	$VALGRIND "$CFSREPLAY" "$@"
}

# counts_of FILE: "name count" lines of info --json's events map, sorted by
# name in byte order (as scripts/trace-counts.sh sorts)
counts_of() {
	cfsreplay info --json "$1" >info.json &&
	python3 -c '
import json
d = json.load(open("info.json"))
for k in sorted(d["events"], key=lambda s: s.encode()):
    print(k, d["events"][k])
'
}

# group_workers TRACE: from trace-cmd report of a scripts/record-groups.sh
# recording, "window START END" (ns: the last "cfsr-worker" marker, when
# every worker runs, to the first worker's exit) and a "worker PID CPU
# GROUP" line per worker marker
group_workers() {
	trace-cmd report -N -t "$1" 2>/dev/null | python3 -c '
import re, sys
workers, start, end = {}, None, None
for l in sys.stdin:
    m = re.search(r"\s(\d+)\.(\d{9}):", l)
    if not m:
        continue
    t = int(m.group(1)) * 10**9 + int(m.group(2))
    w = re.search(r"cfsr-worker pid=(\d+) cpu=(\d+) group=(\S+)", l)
    if w:
        workers[w.group(1)] = (w.group(2), w.group(3))
        start = t
    x = re.search(r"sched_process_exit: +comm=\S+ pid=(\d+)", l)
    if x and x.group(1) in workers and end is None:
        end = t
assert workers and start and end and start < end, (workers, start, end)
print("window", start, end)
for pid, (cpu, group) in sorted(workers.items()):
    print("worker", pid, cpu, group)
'
}

# perf_cgroup_events PERF_DATA: from `perf script`, one line per record the
# cgroup tests read, times in ns: "cgroup ID PATH" (PERF_RECORD_CGROUP),
# "attach TS ROOT ID PATH PID" (cgroup:cgroup_attach_task) and "switch TS
# CPU PREV_PID NEXT_PID" (sched:sched_switch)
perf_cgroup_events() {
	perf script -i "$1" --show-cgroup-events --ns -F comm,tid,cpu,time,event,trace 2>/dev/null |
	python3 -c '
import re, sys
ts = r"\[(\d+)\]\s+(\d+)\.(\d+):\s+"
for l in sys.stdin:
    m = re.search(r"PERF_RECORD_CGROUP cgroup: (\d+) (\S+)", l)
    if m:
        print("cgroup", m.group(1), m.group(2))
        continue
    m = re.search(ts + r"cgroup:cgroup_attach_task: dst_root=(\d+) dst_id=(\d+) "
                  r"dst_level=\d+ dst_path=(\S+) pid=(\d+)", l)
    if m:
        print("attach", int(m.group(2)) * 10**9 + int(m.group(3)), *m.group(4, 5, 6, 7))
        continue
    m = re.search(ts + r"sched:sched_switch: .*prev_pid=(\d+) .*next_pid=(\d+)", l)
    if m:
        print("switch", int(m.group(2)) * 10**9 + int(m.group(3)), *m.group(1, 4, 5))
'
}

# kernel_delayed_records PELT_JSONL: the number of the kernel's own task
# records (pelt.jsonl.gz) of a delayed task (sched_delayed)
kernel_delayed_records() {
	python3 -c '
import gzip, json, sys
n = 0
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    if r.get("type") == "se" and r.get("ts", -1) >= 0 and r.get("sched_delayed", 0) > 0:
        n += 1
print(n)
' "$1"
}

# agrees_with_script TRACE [START_NS END_NS]: report --json's idle-while-waiting
# totals equal those of scripts/idlewait-check.py (an independent computation
# over trace-cmd report output) within 1 ms, and its idle-chosen and
# idle-skipped counts of wake-ups, forks and exec placements exactly, and
# the number of exec placements (moved and stayed)
agrees_with_script() {
	if [ -n "$2" ]; then
		python3 "$SRC_DIR/scripts/idlewait-check.py" "$1" --start "$2" --end "$3" >want.json &&
		cfsreplay report --json --time "$(python3 -c "print('%d.%09d,%d.%09d' % (divmod($2, 10**9) + divmod($3, 10**9)))")" "$1" >got.json
	else
		python3 "$SRC_DIR/scripts/idlewait-check.py" "$1" >want.json && cfsreplay report --json "$1" >got.json
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
# exec placements: the stopper moves confirmed by an exec and the execs that
# stayed on their CPU, and their idle verdicts
counts = json.load(open("got.json"))["placement"]["counts"]["exec"]
stayed = json.load(open("got.json"))["placement"]["exec_stayed"]
moves, stays = want["placement"]["exec"], want["placement"]["exec-stay"]
print("# %s exec: tool %d (%d stayed), script %d moves, %d stayed" % (
    sys.argv[1], sum(counts.values()), sum(stayed.values()), moves["moves"], stays["execs"]))
assert sum(counts.values()) == moves["moves"] + stays["execs"], counts
assert sum(stayed.values()) == stays["execs"], stayed
for r in ("idle-chosen", "idle-skipped", "fewest-tasks", "load-rule"):
    assert place["exec"][r] == moves[r] + stays[r], ("exec", r, place["exec"][r])
assert got["cpu_ns"] >= got["allowed_cpu_ns"]
assert got["cpu_ns"] == got["allowed_cpu_ns"] + got["unknown_affinity_cpu_ns"] + got["affinity_bound_cpu_ns"]
' "$(basename "$(dirname "$1")")/$(basename "$1")"
}

# meta_rewrite TRACE OUT CODE ARGS...: OUT is TRACE with the recorder's
# metadata changed by the Python CODE (which edits m, the metadata, with
# ARGS in sys.argv[1:]), written by tests/helpers/meta-set
meta_rewrite() {
	local src=$1 out=$2 code=$3
	shift 3
	cp "$src" "$out" &&
	cfsreplay info --json "$src" | python3 -c "
import json, sys
m = json.load(sys.stdin)['record_meta']
$code
json.dump(m, open('meta.json', 'w'))" "$@" &&
	"${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set" "$out" meta.json
}

# tracefs_ready: tracefs is mounted at /sys/kernel/tracing, mounting it
# there when root (as 'cfsreplay record' does through libtracefs, and perf
# needs for sched tracepoints); false when it cannot be.
tracefs_ready() {
	[ -d /sys/kernel/tracing/events ] && return 0
	[ "$(id -u)" -eq 0 ] || return 1
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ]
}

test_expect_success() {
	local title=$1 body=$2 out
	test_count=$((test_count + 1))
	out=$(cd "$TRASH" && eval "$body" 2>&1)
	if [ $? -eq 0 ]; then
		echo "ok $test_count - $title"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $title"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

# test_skip TITLE REASON: count a test as skipped, with the reason
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# need_trace_cmd WHAT: end the script with WHAT skipped where trace-cmd is missing
need_trace_cmd() {
	command -v trace-cmd >/dev/null 2>&1 && return 0
	test_skip "$1" 'trace-cmd not installed'
	test_done
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" -eq 0 ]
	exit $?
}

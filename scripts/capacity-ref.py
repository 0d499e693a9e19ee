#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What a CPU's capacity below 1024 does to the signals on it, predicted
apart from cfsreplay from the same replay at capacity 1024, for
tests/cli/t0077-signals-capacity.sh.

  capacity-ref.py contrib CPU CAP BASE.csv SCALED.csv
  capacity-ref.py clock CPU CAP REPORT BASE.csv SCALED.csv TOL
  capacity-ref.py readings CPU CAP PELT.jsonl.gz SCALED.csv GRACE

BASE.csv and SCALED.csv are `cfsreplay signals` of one trace with every
capacity 1024, and with CPU's capacity CAP.

contrib (v4.1-v5.0: accumulate_sum() scales util's contribution by
scale_cpu, load's not at all, the clock not at all): the two runs have the
same rows; for a task whose rows are all on CPU, every row has the same
last_update_time, period_contrib and load_avg, and util_avg is CAP/1024 of
the unscaled one within 2 (the floors of each piece and of each decay).
Prints "tasks N rows R worst-util W".

clock (v5.1+: update_rq_clock_pelt()): the rows of CPU's root cfs_rq.
While CPU runs a task, clock_pelt falls behind clock_task by
(clock_task - busy start) * (1 - CAP/1024); once it idles clock_pelt is
clock_task again; an idle switch with the root cfs_rq's util_sum at or
above ((47742 - 1024) << 10) - 47742 loses that shortfall for good
(update_idle_rq_clock_pelt()).  Busy and idle come from REPORT
(`trace-cmd report -t -N`): CPU's sched_switch events; an event in the
idle task's context ends a run whose switch out the trace lost; a
run-time report (or another event of a task) begins one whose switch in
it lost, at the report's time less its runtime.  clock_task at an update
is the unscaled row's last_update_time (on the 1024 ns grid); a run seen
to begin at a switch begins at the clock of the unscaled rows at the
switch's time, if any, else at that of the wakeup before it where one came
within 100 us (rq_clock_skip_update()), else the switch's, the trace time
put on the clock by the last row before.  Predicts each scaled row's
last_update_time; prints "rows N behind B worst W over O unseen U
unseen-worst V": N rows outside runs whose start the trace hides, B of
them more than 1 ms behind clock_task, W the largest error in ns, O the
rows off by more than TOL; U rows within such runs, V their largest error.

readings (lock-step, `signals --clock PELT`): a kernel record's clock_pelt
- lost_idle_time is rq_clock_pelt(), already scaled; no later update of
the CPU's root cfs_rq can have a last_update_time below the 1024 ns floor
of the largest such clock among the CPU's records more than GRACE ns
before the row.  Prints "rows N behind B": N root rows of CPU with a
record before them, B of them behind.
"""
import bisect
import csv
import gzip
import json
import re
import sys

FULL = ((47742 - 1024) << 10) - 47742


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def contrib(cpu, cap, base_path, scaled_path):
    base, scaled = rows(base_path), rows(scaled_path)
    assert len(base) == len(scaled), (len(base), len(scaled))
    cpus = {}
    for r in base:
        if r["entity"] == "task":
            cpus.setdefault(r["pid"], set()).add(r["cpu"])
    only = {p for p, c in cpus.items() if c == {cpu}}
    n = worst = 0
    for b, s in zip(base, scaled):
        assert b["ts_ns"] == s["ts_ns"] and b["entity"] == s["entity"], (b, s)
        if b["entity"] != "task" or b["pid"] not in only:
            continue
        for k in ("last_update_time", "period_contrib", "load_avg", "load_sum"):
            assert b[k] == s[k], (k, b, s)
        err = abs(int(s["util_avg"]) - int(b["util_avg"]) * cap / 1024)
        assert err <= 2, (b, s)
        worst = max(worst, err)
        n += 1
    print("tasks", len(only), "rows", n, "worst-util", worst)


def ns(sec, frac):
    return int(sec) * 10**9 + int(frac.ljust(9, "0"))


def cpu_events(report, cpu):
    """CPU's busy/idle evidence, in order: (ts, kind, value, kept wakeup).

    kind "switch": value the next pid; "runtime": a run-time report of a
    task, value its runtime; "idle": an event in the idle task's context;
    "task": one in a task's context."""
    tag = "[%03d]" % int(cpu)
    head = re.compile(r"-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+): (\w+):")
    nxt = re.compile(r"next_pid=(\d+)")
    run = re.compile(r"runtime=(\d+)")
    wk = re.compile(r"target_cpu=0*%d\b" % int(cpu))
    out, wake = [], None
    with open(report) as f:
        for line in f:
            m = head.search(line)
            if not m:
                continue
            t, name, ctx = ns(m.group(3), m.group(4)), m.group(5), int(m.group(1))
            if name in ("sched_wakeup", "sched_wakeup_new") and wk.search(line):
                wake = t
            if tag not in line:
                continue
            if name == "sched_switch":
                kept = wake if wake is not None and t - wake < 100000 else None
                out.append((t, "switch", int(nxt.search(line).group(1)), kept))
                wake = None
            elif name == "sched_stat_runtime" and ctx:
                out.append((t, "runtime", int(run.search(line).group(1)), None))
            else:
                out.append((t, "idle" if ctx == 0 else "task", 0, None))
    return out


def clock(cpu, cap, report, base_path, scaled_path, tol):
    def root(path):
        return [r for r in rows(path)
                if r["cpu"] == cpu and r["entity"] == "cfs_rq" and r["path"] == "/"]

    base, scaled = root(base_path), root(scaled_path)
    util = sorted((int(r["ts_ns"]), int(r["util_sum"])) for r in scaled)
    by_ts = {}
    for r in base:
        by_ts.setdefault(int(r["ts_ns"]), []).append(r)
    # the clock of a switch's own updates, where it made some
    at_switch = {t: int(v[-1]["last_update_time"]) for t, v in by_ts.items()}
    pairs = []
    for r in scaled:
        same = by_ts.get(int(r["ts_ns"]))
        if same:
            pairs.append((same.pop(0), r))
    ev = cpu_events(report, cpu)
    busy, start, lost, offset, k, u = False, 0, 0, None, 0, 0
    rewind = seen = False
    n = behind = worst = over = unseen = unseen_worst = 0

    def saturated(t):
        nonlocal u
        while u < len(util) and util[u][0] <= t:
            u += 1
        return u and util[u - 1][1] >= FULL

    for b, s in pairs:
        ts, task = int(b["ts_ns"]), int(b["last_update_time"])
        # a row at an event's own time is its update: after a run-time
        # report's unseen switch-in, before a switch's change
        while k < len(ev) and (ev[k][0] < ts or (ev[k][0] == ts and ev[k][1] == "runtime")):
            t, kind, val, kept = ev[k]
            k += 1
            if offset is None:
                continue
            at = (kept if kept is not None else t) + offset
            if kind == "switch" and t in at_switch:
                at = at_switch[t]
            if kind == "runtime" and rewind:
                # the first report after an unseen switch-in: it ran since then
                start = min(start, t + offset - val)
                rewind = False
            idle = (kind == "switch" and val == 0) or kind == "idle"
            if busy and idle:
                if saturated(t):
                    lost += (at - start) * (1024 - cap) // 1024
                busy = False
            elif not busy and not idle:
                # a switch-in the trace does not show: from this event, or
                # for a run-time report from when the run it reports began
                start, busy = at - (val if kind == "runtime" else 0), True
                rewind = kind == "task"
                seen = kind == "switch"
        offset = task - ts
        short = (task - start) * (1024 - cap) // 1024 if busy else 0
        want = task - short - lost
        err = abs(int(s["last_update_time"]) - want)
        if busy and not seen:
            # the trace does not show when this run began
            unseen += 1
            unseen_worst = max(unseen_worst, err)
            continue
        n += 1
        behind += short + lost > 1000000
        worst = max(worst, err)
        over += err > tol
    print("rows", n, "behind", behind, "worst", worst, "over", over,
          "unseen", unseen, "unseen-worst", unseen_worst)


def readings(cpu, pelt, scaled_path, grace):
    recs = []
    with gzip.open(pelt, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r.get("rq_cpu") == cpu and "clock_pelt" in r and "ts" in r:
                recs.append((r["ts"], r["clock_pelt"] - r["lost_idle_time"]))
    recs.sort()
    times = [t for t, _ in recs]
    most, high = [], 0
    for _, c in recs:
        high = max(high, c)
        most.append(high - high % 1024)
    n = behind = 0
    for r in rows(scaled_path):
        if r["entity"] != "cfs_rq" or r["path"] != "/" or int(r["cpu"]) != cpu:
            continue
        i = bisect.bisect_left(times, int(r["ts_ns"]) - grace) - 1
        if i < 0:
            continue
        n += 1
        behind += int(r["last_update_time"]) < most[i]
    print("rows", n, "behind", behind)


def main():
    mode, cpu, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "contrib":
        contrib(cpu, cap, sys.argv[4], sys.argv[5])
    elif mode == "clock":
        clock(cpu, cap, sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7]))
    elif mode == "readings":
        readings(int(cpu), sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        sys.exit("usage: capacity-ref.py contrib|clock|readings CPU CAP ...")


if __name__ == "__main__":
    main()

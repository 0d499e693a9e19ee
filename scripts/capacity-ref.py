#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What a CPU's capacity below 1024 does to the signals on it, predicted
apart from cfsreplay from the same replay at capacity 1024, for
tests/cli/t0074-signals-capacity.sh.

  capacity-ref.py contrib CPU CAP BASE.csv SCALED.csv
  capacity-ref.py clock CPU CAP REPORT BASE.csv SCALED.csv TOL

BASE.csv and SCALED.csv are `cfsreplay signals` of one trace with every
capacity 1024, and with CPU's capacity CAP.

contrib (v4.1-v5.0: accumulate_sum() scales util's contribution by
scale_cpu, load's not at all, the clock not at all): the two runs have the
same rows; for a task whose rows are all on CPU, every row has the same
last_update_time, period_contrib and load_avg, and util_avg is CAP/1024 of
the unscaled one within 2 (the floors of each piece and of each decay).
Prints "tasks N rows R worst-util W".

clock (v5.1+: update_rq_clock_pelt()): the rows of CPU's root cfs_rq.
While CPU runs a task (by REPORT, `trace-cmd report -t -N`: its
sched_switch events), clock_pelt falls behind clock_task by
(clock_task - busy start) * (1 - CAP/1024); once it idles clock_pelt is
clock_task again; an idle switch with the root cfs_rq's util_sum at or
above ((47742 - 1024) << 10) - 47742 loses that shortfall for good
(update_idle_rq_clock_pelt()).  clock_task at an update is the unscaled
row's last_update_time (on the 1024 ns grid); a busy period starts at the
clock of its switch: that of the unscaled rows at the switch's time, if
any, else that of the wakeup before it where one came within 100 us
(rq_clock_skip_update()), else the switch's, the trace time put on the
clock by the last row before.  Predicts each scaled row's last_update_time; prints
"rows N behind B worst W over O": B rows more than 1 ms behind clock_task,
W the largest error in ns, O the rows off by more than TOL.
"""
import csv
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


def switches(report, cpu):
    tag = "[%03d]" % int(cpu)
    sw = re.compile(r"\s(\d+)\.(\d+): sched_switch:.*prev_pid=(\d+).*next_pid=(\d+)")
    wk = re.compile(r"\s(\d+)\.(\d+): sched_wakeup(?:_new)?:.*target_cpu=0*%d\b" % int(cpu))
    out, wake = [], None
    with open(report) as f:
        for line in f:
            m = sw.search(line)
            if m and tag in line:
                t = ns(m.group(1), m.group(2))
                kept = wake if wake is not None and t - wake < 100000 else None
                out.append((t, int(m.group(4)), kept))
                wake = None
                continue
            m = wk.search(line)
            if m:
                wake = ns(m.group(1), m.group(2))
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
    sw = switches(report, cpu)
    busy, start, lost, offset, k, u = False, 0, 0, None, 0, 0
    n = behind = worst = over = 0
    for b, s in pairs:
        ts, task = int(b["ts_ns"]), int(b["last_update_time"])
        while k < len(sw) and sw[k][0] < ts:
            t, nxt, kept = sw[k]
            k += 1
            if offset is None:
                continue
            at = (kept if kept is not None else t) + offset
            if t in at_switch:
                at = at_switch[t]
            while u < len(util) and util[u][0] <= t:
                u += 1
            if busy and nxt == 0 and u and util[u - 1][1] >= FULL:
                lost += (at - start) * (1024 - cap) // 1024
            if not busy:
                start = at
            busy = nxt != 0
        offset = task - ts
        short = (task - start) * (1024 - cap) // 1024 if busy else 0
        want = task - short - lost
        err = abs(int(s["last_update_time"]) - want)
        n += 1
        behind += short + lost > 1000000
        worst = max(worst, err)
        over += err > tol
    print("rows", n, "behind", behind, "worst", worst, "over", over)


def main():
    mode, cpu, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "contrib":
        contrib(cpu, cap, sys.argv[4], sys.argv[5])
    elif mode == "clock":
        clock(cpu, cap, sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7]))
    else:
        sys.exit("usage: capacity-ref.py contrib|clock CPU CAP ...")


if __name__ == "__main__":
    main()

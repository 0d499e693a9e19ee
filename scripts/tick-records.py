#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run-time reports that the kernel's PELT records show were not ticks,
counted apart from cfsreplay, for tests/cli/t0078-validate-tick-records.sh.

  tick-records.py REPORT PELT.jsonl.gz HZ

REPORT is `trace-cmd report -t -N` of a trace, PELT.jsonl.gz the kernel's
PELT records of the same run.  A sched_stat_runtime of a task in its own
context is a tick's candidate when no other event of its CPU comes within
50 us after it and it comes half a tick or more after the CPU's last
tick (the nearer ones are reads already).  entity_tick() updates the task
(update_load_avg()), and pelt_se_tp fires when that update crosses a
1024 us period: ((now - last_update_time) >> 10) + period_contrib >= 1024,
with the task's last_update_time and period_contrib from its last record
before the report and now the report's PELT clock (the clock_pelt -
lost_idle_time of the CPU's last record before the report, plus the trace
time since).  A candidate that would cross with no record of the task
within 50 us after it was no tick; every other candidate is one (the
CPU's last tick then).  Prints "candidates N unrecorded U".
"""
import bisect
import gzip
import json
import re
import sys

PATH_NS = 50000
EV = re.compile(r"^\s*(.*?)-(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$")


def events(report):
    out = []
    with open(report) as f:
        for line in f:
            m = EV.match(line)
            if m:
                ts = int(m.group(4)) * 1000000000 + int(m.group(5).ljust(9, "0")[:9])
                out.append((ts, int(m.group(3)), int(m.group(2)), m.group(6), m.group(7)))
    return out


def records(pelt):
    se, clocks = {}, {}
    with gzip.open(pelt, "rt") as f:
        for line in f:
            r = json.loads(line)
            if "ts" not in r:
                continue
            if r.get("rq_cpu") is not None and "clock_pelt" in r:
                clocks.setdefault(r["rq_cpu"], []).append(
                    (r["ts"], r["clock_pelt"] - r["lost_idle_time"]))
            if r.get("type") == "se":
                se.setdefault(r["pid"], []).append(
                    (r["ts"], r["last_update_time"], r["period_contrib"]))
    for v in list(se.values()) + list(clocks.values()):
        v.sort()
    return se, clocks


def main():
    evs = events(sys.argv[1])
    se, clocks = records(sys.argv[2])
    tick = 1000000000 // int(sys.argv[3])
    last_tick, last_report = {}, {}
    cand = unrec = 0
    for i, (ts, cpu, pid, name, rest) in enumerate(evs):
        if name != "sched_stat_runtime":
            continue
        m = re.search(r"pid=(\d+)", rest)
        if not m or int(m.group(1)) != pid or pid <= 0:
            continue
        prev = last_report.get(cpu)
        last_report[cpu] = (pid, ts)
        # a report right after another of the task's: its pick's
        if prev and prev[0] == pid and ts - prev[1] < tick // 2:
            continue
        nxt = next((e for e in evs[i + 1:] if e[1] == cpu), None)
        if nxt and nxt[0] - ts <= PATH_NS:
            # a switch out of the task: its dequeue's or pick's
            if nxt[3] == "sched_switch" and re.search(r"prev_pid=%d " % pid, nxt[4]):
                continue
            # a wakeup onto the CPU: check_preempt_wakeup_fair()'s
            w = re.search(r"pid=(\d+).*target_cpu=0*(\d+)", nxt[4])
            if nxt[3] in ("sched_wakeup", "sched_wakeup_new") and w and \
                    int(w.group(2)) == cpu and int(w.group(1)) != pid:
                continue
        if cpu in last_tick and ts - last_tick[cpu] < tick // 2:
            continue
        cand += 1
        recs = se.get(pid, [])
        j = bisect.bisect_left([r[0] for r in recs], ts)
        recorded = j < len(recs) and recs[j][0] - ts <= PATH_NS
        ck = clocks.get(cpu, [])
        k = bisect.bisect_right([c[0] for c in ck], ts) - 1
        if not recorded and j > 0 and k >= 0:
            _, lut, pc = recs[j - 1]
            now = ck[k][1] + (ts - ck[k][0])
            if now - lut >= 1024 and ((now - lut) >> 10) + pc >= 1024:
                unrec += 1
                if len(sys.argv) > 4:
                    print("U", ts, cpu, pid)
                continue
        last_tick[cpu] = ts
    print("candidates", cand, "unrecorded", unrec)


if __name__ == "__main__":
    main()

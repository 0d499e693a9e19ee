#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The fraction of a workload's time each of its tasks was runnable.

An independent computation, for tests, from `trace-cmd report --raw-ts`
output: it shares no code with cfsreplay.  A task is runnable from a
sched_wakeup or sched_wakeup_new naming it (or a switch into it) until the
sched_switch that takes it off its CPU in a state other than R or R+.
The window runs from SKIP_MS after the "cfsr-start" marker to the
"cfsr-stop" marker.  Prints "window LO HI", then "task PID COMM FRACTION"
for each task whose comm matches PATTERN (a Python regular expression).

usage: runnable-fraction.py TRACE PATTERN [SKIP_MS]
"""
import re
import subprocess
import sys

LINE = re.compile(r"\[(\d+)\]\s*(\d+): (\w+):\s+(.*)")
WAKE = re.compile(r"(\S+):(\d+) \[")
SWITCH = re.compile(r"(\S+):(\d+) \[\d+\] (\S+) ==> (\S+):(\d+) \[")


def main():
    trace, pattern = sys.argv[1], re.compile(sys.argv[2])
    skip = int(sys.argv[3]) * 1000000 if len(sys.argv) > 3 else 0
    out = subprocess.run(["trace-cmd", "report", "--raw-ts", trace], check=True,
                         capture_output=True, text=True).stdout
    since, spans, comm = {}, {}, {}
    start = stop = None
    for line in out.splitlines():
        m = LINE.search(line)
        if not m:
            continue
        ts, ev, rest = int(m.group(2)), m.group(3), m.group(4)
        if ev == "print":
            if "cfsr-start" in rest:
                start = ts
            if "cfsr-stop" in rest:
                stop = ts
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            c, pid = WAKE.search(rest).groups()
            comm[pid] = c
            since.setdefault(pid, ts)
        elif ev == "sched_switch":
            pc, ppid, state, nc, npid = SWITCH.search(rest).groups()
            comm[ppid], comm[npid] = pc, nc
            if npid != "0":
                since.setdefault(npid, ts)
            if ppid != "0" and not state.startswith("R") and ppid in since:
                spans.setdefault(ppid, []).append((since.pop(ppid), ts))
    if start is None or stop is None:
        sys.exit("%s: no cfsr-start/cfsr-stop markers" % trace)
    lo, hi = start + skip, stop
    print("window", lo, hi)
    for pid, iv in sorted(spans.items()):
        if pattern.match(comm[pid]):
            t = sum(max(0, min(b, hi) - max(a, lo)) for a, b in iv)
            print("task", pid, comm[pid], t / (hi - lo))


if __name__ == "__main__":
    main()

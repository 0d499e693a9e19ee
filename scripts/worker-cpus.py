#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where the workers of a controlled workload are, from trace-cmd report alone.

usage: worker-cpus.py TRACE

Reads `trace-cmd report -N TRACE`, takes the workers from the recorder's
"cfsr-task pid=N comm=NAME" markers, and follows each worker's CPU through
sched_switch (prev or next), sched_wakeup/sched_wakeup_new (target_cpu)
and sched_migrate_task (dest_cpu).  Once every worker has a CPU, prints
one line per stretch of time during which the placement did not change:

    START END MS CPU0-WORKERS CPU1-WORKERS ...

(times as trace-cmd prints them, workers comma-separated, "-" for none).
Independent of cfsreplay: it uses neither its readers nor its model.
"""
import re
import subprocess
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = subprocess.run(["trace-cmd", "report", "-N", sys.argv[1]], capture_output=True,
                         text=True, check=True).stdout
    line = re.compile(r"\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s+(.*)")
    workers, where = {}, {}
    nr_cpus = 1
    state, since = None, None
    for text in out.splitlines():
        m = line.search(text)
        if not m:
            continue
        cpu, ts, name, rest = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        nr_cpus = max(nr_cpus, cpu + 1)
        mk = re.search(r"cfsr-task pid=(\d+) comm=(\S+)", rest)
        if mk:
            workers[int(mk.group(1))] = mk.group(2)
            where[int(mk.group(1))] = cpu
        f = dict(re.findall(r"(\w+)=(\S+)", rest))
        if name == "sched_switch":
            for k in ("prev_pid", "next_pid"):
                if int(f[k]) in workers:
                    where[int(f[k])] = cpu
        elif name in ("sched_wakeup", "sched_wakeup_new") and int(f["pid"]) in workers:
            where[int(f["pid"])] = int(f["target_cpu"])
        elif name == "sched_migrate_task" and int(f["pid"]) in workers:
            where[int(f["pid"])] = int(f["dest_cpu"])
        if not workers or len(where) < len(workers):
            continue
        now = tuple(",".join(sorted(workers[p] for p in where if where[p] == c)) or "-"
                    for c in range(nr_cpus))
        if now != state:
            if state is not None:
                print(since, ts, "%.3f" % ((float(ts) - float(since)) * 1e3), *state)
            state, since = now, ts


if __name__ == "__main__":
    main()

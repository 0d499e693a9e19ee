#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The kernel's per-CPU loads at given trace instants, from its PELT records
(pelt.jsonl[.gz]), computed apart from cfsreplay to check `report`'s
lasting imbalance on kernel loads (tests/cli/t0037-report-kernel-loads.sh).

  kload-ref.py PELT CPU:TS [CPU:TS ...]

prints "CPU TS LOAD" per query.  A CPU's load at trace time TS is the
load_avg of its root cfs_rq (records of type "cfs" with root 1 or level 0,
by rq_cpu) from the last such record, in file order, of the records up to
the first one later than TS; aged to TS by decay alone: the PELT clock
then is the record's clock_pelt - lost_idle_time (else clock_task) plus
TS minus the record's ts; load_sum decays by y^p (y^32 = 1/2, in floating
point) over the p periods of 1024 us units completed since
last_update_time, and load_avg is load_sum / (LOAD_AVG_MAX - 1024 +
period_contrib) when a period was completed.  Record times are taken as
they are in the file (the trace's clock).
"""
import gzip
import json
import sys

LOAD_AVG_MAX = 47742
Y = 0.5 ** (1 / 32)


def records(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("type") != "cfs" or not (r.get("root") == 1 or r.get("level") == 0):
                continue
            if r.get("rq_cpu") is None or r.get("ts") is None:
                continue
            yield r


def aged(r, ts):
    clock = r["clock_pelt"] - r.get("lost_idle_time", 0) if r.get("clock_pelt") is not None \
        else r["clock_task"]
    now = clock + max(ts - r["ts"], 0)
    lut, pc = r["last_update_time"], r["period_contrib"]
    if not lut or now <= lut:
        return r["load_avg"]
    units = ((now - lut) >> 10) + pc
    periods, pc = divmod(units, 1024)
    if not periods:
        return r["load_avg"]
    return int(r["load_sum"] * Y ** periods / (LOAD_AVG_MAX - 1024 + pc))


def main():
    queries = [tuple(int(x) for x in q.split(":")) for q in sys.argv[2:]]
    recs = list(records(sys.argv[1]))
    for cpu, ts in queries:
        last = None
        for r in recs:
            if r["ts"] > ts:
                break
            if r["rq_cpu"] == cpu:
                last = r
        print(cpu, ts, aged(last, ts) if last else "none")


if __name__ == "__main__":
    main()

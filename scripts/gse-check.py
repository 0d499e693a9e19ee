#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gse-check.py - group entity weights from the kernel's own PELT capture.

    usage: scripts/gse-check.py PELT.jsonl[.gz] [SIGNALS.csv [START_NS END_NS]]

Independent of cfsreplay's engine: reads the kernel's pelt_cfs_tp records of
each group cfs_rq (the `cfs` lines of a capture written by `cfsreplay record`,
docs/PELT-CAPTURE.md) and computes from each the weight calc_group_shares()
(kernel/sched/fair.c, v4.15-v6.18) gives that cfs_rq's group entity:

    load      = max(scale_load_down(cfs_rq->load.weight), cfs_rq->avg.load_avg)
    tg_weight = tg->load_avg - cfs_rq->tg_load_avg_contrib + load
    shares    = tg->shares * load / tg_weight   (tg->shares when tg_weight is 0)
    clamped to [MIN_SHARES = 2, tg->shares]

tg->load_avg - tg_load_avg_contrib is what the group's other cfs_rqs have
published, which this cfs_rq's own update_tg_load_avg() does not change, so
the value holds from the record to the reweight that follows it in the same
kernel path.  It is checked against the kernel's own group entity records:
a `gse` record shows the weight of the entity's last reweight, which must be
the value of some earlier record of its cfs_rq.

With SIGNALS.csv (`cfsreplay signals --entity gse` output), each model row
of a group entity is paired with the value of the last kernel record of the
same group cfs_rq at most 50 us after the row's trace time (the record
follows the trace event of its path by a few us; no record at all is
"unpaired").  With START_NS and END_NS (trace times), only the kernel
records between them are paired (e.g. while the workload's tasks all run,
without the moves into the groups at its start and the exits at its end).

Pairs off by more than 5 % are listed on stderr.  Prints one JSON object: per group and CPU ("PATH cpuN"), the group's
tg_shares (scaled), the kernel records, their formula values (median,
min, max over records whose load is not 0), how many kernel gse weights
equal an earlier formula value, and with SIGNALS.csv the model rows, how
many were paired, how many equal the paired value, the relative error
(|model - value| / value) 99th percentile and maximum, and the model's
median weight.
"""
import bisect
import csv
import gzip
import json
import sys

MIN_SHARES = 2
NICE_0_LOAD = 1 << 20  # scale_load(1024)
NICE_0_SHIFT = 10     # scale_load_down() on 64-bit: SCHED_FIXEDPOINT_SHIFT
PAIR_NS = 50000


def calc_group_shares(r, weight=None):
    """calc_group_shares() on record r's state, its load.weight replaced by weight"""
    weight = r["weight"] if weight is None else weight
    load = max(weight >> NICE_0_SHIFT, r["load_avg"])
    tg_weight = r["tg_load_avg"] - r["tg_load_avg_contrib"] + load
    shares = r["tg_shares"] * load
    if tg_weight:
        shares //= tg_weight
    return max(MIN_SHARES, min(shares, r["tg_shares"])), load


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else None


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p / 100))] if v else None


def main():
    if len(sys.argv) not in (2, 3, 5):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    op = gzip.open if sys.argv[1].endswith(".gz") else open
    recs = {}       # (path, cpu) -> [(ts, {candidate values}, value as recorded, load)]
    gses = {}       # (path, cpu) -> [(ts, weight)]
    shares = {}     # path -> tg_shares
    children = {}   # (parent path, cpu) -> {child path: its last known weight}
    with op(sys.argv[1], "rt") as f:
        for line in f:
            d = json.loads(line)
            if d["type"] == "cfs" and d.get("level", 0) > 0 and "tg" in d:
                key = (d["tg"], d["rq_cpu"])
                v, load = calc_group_shares(d)
                # the weight at the reweight that follows in the same path:
                # as recorded, or after the enqueue or dequeue of one entity
                # (a nice-0 task, or a child group's entity)
                moved = [NICE_0_LOAD] + list(children.get(key, {}).values())
                ws = {d["weight"]} | {d["weight"] + m for m in moved} | \
                     {d["weight"] - m for m in moved if d["weight"] >= m}
                cands = {calc_group_shares(d, w)[0] for w in ws}
                recs.setdefault(key, []).append((d["ts"], cands, v, load))
                shares[d["tg"]] = d["tg_shares"]
            elif d["type"] == "gse" and "tg" in d:
                key = (d["tg"], d["rq_cpu"])
                gses.setdefault(key, []).append((d["ts"], d["weight"]))
                children.setdefault((d["parent_tg"], d["rq_cpu"]), {})[d["tg"]] = d["weight"]

    out = {}
    for key, rs in recs.items():
        vals = [v for _, _, v, load in rs if load]
        seen, agree, checked = set(), 0, 0
        ri = 0
        for ts, w in gses.get(key, []):
            while ri < len(rs) and rs[ri][0] < ts:
                seen |= rs[ri][1]
                ri += 1
            if seen:
                checked += 1
                agree += w in seen
        out["%s cpu%d" % key] = {
            "tg_shares": shares[key[0]],
            "kernel_records": len(rs),
            "formula_median": median(vals),
            "kernel_gse_checked": checked,
            "kernel_gse_agree": agree,
            "kernel_gse_median": median([w for _, w in gses.get(key, [])]),
        }

    if len(sys.argv) >= 3:
        start, end = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) == 5 else (0, 1 << 63)
        rows = {}
        with open(sys.argv[2]) as f:
            for row in csv.DictReader(f):
                if row["entity"] == "gse":
                    key = (row["path"], int(row["cpu"]))
                    rows.setdefault(key, []).append((int(row["ts_ns"]), int(row["load_weight"])))
        for key, rs in recs.items():
            mr = rows.get(key, [])
            times = [r[0] for r in mr]
            errs, exact, unpaired = [], 0, 0
            for ts, cands, _, _ in rs:
                if not start <= ts <= end:
                    continue
                lo = bisect.bisect_left(times, ts - PAIR_NS)
                hi = bisect.bisect_right(times, ts + PAIR_NS)
                if lo == hi:
                    unpaired += 1
                    continue
                e = min(abs(w - v) / v for _, w in mr[lo:hi] for v in cands)
                if e > 0.05:
                    print("# %s cpu%d at %d: model %s, kernel formula %s" %
                          (key[0], key[1], ts, [w for _, w in mr[lo:hi]], sorted(cands)),
                          file=sys.stderr)
                errs.append(e)
                exact += e == 0
            out["%s cpu%d" % key].update({
                "model_rows": len(mr),
                "model_median": median([w for _, w in mr]),
                "paired": len(errs),
                "unpaired": unpaired,
                "paired_exact": exact,
                "paired_within_1pct": sum(e <= 0.01 for e in errs),
                "paired_err_p95": pct(errs, 95),
                "paired_err_max": max(errs) if errs else None,
            })
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()

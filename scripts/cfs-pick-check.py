#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a report's CFS pick verdicts against scripts/cfs-pick-ref.py.

    cfs-pick-check.py REPORT.json REF.txt MIN_AGREES MIN_DIVERGES

REPORT.json is `cfsreplay report --json --top 100000` under a CFS model,
REF.txt the reference script's lines for the same trace.  Every
divergence the report lists must be one of the script's, with the same
task run, leftmost and vruntime difference; the script judges as many
switches as the report has contested ones plus those a possible buddy
left unjudged (the script has no buddies), and its agreements and
divergences lie between the report's and the report's plus those.
Prints one summary line; exits non-zero on a mismatch.
"""
import json
import sys


def main():
    p = json.load(open(sys.argv[1]))["pick_check"]
    min_agrees, min_diverges = int(sys.argv[3]), int(sys.argv[4])
    assert p["pick"] == "cfs", p["pick"]
    ref = {}
    for line in open(sys.argv[2]):
        _, ts, cpu, ran, left, diff = line.split()
        ref[(int(ts.replace(".", "")), int(cpu))] = (int(ran), int(left), int(diff))
    t, why = p["total"], p["reasons"]
    assert len(p["top"]) == t["diverges"], (len(p["top"]), t)
    for d in p["top"]:
        got = (d["ran"]["pid"], d["preferred"]["pid"], d["size"])
        assert ref.get((d["ts_ns"], d["cpu"])) == got, (d, ref.get((d["ts_ns"], d["cpu"])))
    bu = why["buddy-unknown"]
    agree = sum(1 for v in ref.values() if v[0] == v[1])
    ties = sum(1 for v in ref.values() if v[0] != v[1] and v[2] == 0)
    div = len(ref) - agree - ties
    assert len(ref) == t["contested"] + bu, (len(ref), t, bu)
    assert t["agrees"] <= agree + ties <= t["agrees"] + bu, (agree, ties, t, bu)
    assert t["diverges"] <= div <= t["diverges"] + bu, (div, t, bu)
    assert t["agrees"] >= min_agrees and t["diverges"] >= min_diverges, t
    print("# %s: %d contested, %d agree, %d diverge, %d buddy-unknown; script %d/%d/%d"
          % (sys.argv[1], t["contested"], t["agrees"], t["diverges"], bu, agree, ties, div))


if __name__ == "__main__":
    main()

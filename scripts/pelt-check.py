#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent checks of a pelt.jsonl(.gz) written by the PELT capture.

Used by tests/cli/t0053-pelt-capture.sh; python3 stdlib only, and nothing
here reuses cfsreplay's own reader.

  pelt-check.py lines CAP
      the header's counts equal the lines of each type; kernel_counters.sent
      is at least the number of records; prints the totals
  pelt-check.py keys CAP REFERENCE
      for every kind of record (type; task, autogroup or cgroup entity; under
      the root, an autogroup or a cgroup) present in both files, the keys are the same and in the same
      order, apart from the keys CAP adds (clock_idle, and the EEVDF state
      of docs/PELT-CAPTURE.md)
  pelt-check.py align CAP TRACE SYNCLOG
      the markers "pelt-sync N" in TRACE (read with trace-cmd report -t),
      written between two CLOCK_MONOTONIC readings logged in SYNCLOG, bracket
      trace time - ktime; each record's ts - ktime must lie in the bracket of
      the nearest marker, within the header's precision_ns
  pelt-check.py clocks CAP
      rq->clock is local_clock() at the rq's last clock update, so a record
      of the CPU's own rq never has ts < clock - precision_ns - 500 ns: the
      offset is interpolated linearly between calibration points 100 ms
      apart, and on a virtual machine local_clock() - ktime can leave that
      line by a few hundred ns between them (once 220 ns, where
      precision_ns is about 130 ns)
  pelt-check.py periods CAP
      task "se" records come only when PELT crossed a 1024 us period
      (pelt_se_tp fires from ___update_load_avg() after
      ___update_load_sum() returned non-zero): between consecutive records of
      one task on one rq, period_contrib + dlut/1024 >= 1024 and the new
      period_contrib is that sum mod 1024 (accumulate_sum(), pelt.c)
"""
import bisect
import gzip
import json
import re
import subprocess
import sys

ADDED_KEYS = {
    "clock_idle",
    # EEVDF state (docs/PELT-CAPTURE.md)
    "vruntime", "deadline", "vlag", "slice", "rel_deadline", "curr",
    "zero_vruntime", "avg_vruntime", "avg_load", "curr_vruntime", "curr_weight",
}


def records(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        hdr = json.loads(f.readline())
        if hdr.get("type") != "hdr":
            sys.exit("%s: first line is not a header" % path)
        yield hdr
        for line in f:
            yield json.loads(line)


def kind(r):
    t = r["type"]
    if t in ("se", "ue_se", "gse"):
        # a group entity names its own group by "autogroup" or "cg_id" alone
        if "tg" in r or r.get("group"):
            ent = "ag" if "autogroup" in r else "cg"
        else:
            ent = "task"
        par = "root" if "parent_root" in r else "ag" if "parent_autogroup" in r else "cg"
        return (t, ent, par)
    if t in ("cfs", "ue_cfs"):
        return (t, "root" if "root" in r else "ag" if "autogroup" in r else "cg")
    return (t,)


def cmd_lines(cap):
    it = records(cap)
    hdr = next(it)
    n = {}
    for r in it:
        n[r["type"]] = n.get(r["type"], 0) + 1
    total = sum(n.values())
    for t, c in hdr["counts"].items():
        if n.get(t, 0) != c:
            sys.exit("counts.%s is %d, the file has %d" % (t, c, n.get(t, 0)))
    sent = hdr["kernel_counters"]["sent"]
    if sent < total:
        sys.exit("kernel_counters.sent %d < %d records" % (sent, total))
    print("records %d sent %d dropped %d" % (total, sent, hdr["kernel_counters"]["dropped"]))


def cmd_keys(cap, ref):
    def key_sets(path):
        out = {}
        for r in records(path):
            if r["type"] in ("hdr", "sync", "sw"):
                continue
            out.setdefault(kind(r), [k for k in r if k not in ADDED_KEYS])
        return out

    mine, theirs = key_sets(cap), key_sets(ref)
    common = sorted(set(mine) & set(theirs))
    if not common:
        sys.exit("no kind of record in common")
    for k in common:
        if mine[k] != theirs[k]:
            sys.exit("%s: keys differ:\n  capture   %s\n  reference %s" % (k, mine[k], theirs[k]))
    print("kinds compared: %d (%s)" % (len(common), " ".join("/".join(k) for k in common)))


def cmd_align(cap, trace, log):
    out = subprocess.run(["trace-cmd", "report", "-t", trace], capture_output=True,
                         text=True, check=True).stdout
    marks = {}
    for line in out.splitlines():
        m = re.search(r" (\d+)\.(\d{9}): .*pelt-sync (\d+)\s*$", line)
        if m:
            marks[int(m.group(3))] = int(m.group(1)) * 10**9 + int(m.group(2))
    it = records(cap)
    prec = next(it)["clock"]["precision_ns"]
    pts = sorted((r["ktime"], r["ts"] - r["ktime"]) for r in it)
    kt = [p[0] for p in pts]
    worst, mids, widths = 0, [], []
    for line in open(log):
        n, before, after = map(int, line.split())
        if n not in marks:
            continue
        lo, hi = marks[n] - after, marks[n] - before
        i = min(bisect.bisect_left(kt, before), len(kt) - 1)
        o = pts[i][1]
        worst = max(worst, lo - o, o - hi)
        mids.append(abs(o - (lo + hi) // 2))
        widths.append(hi - lo)
    if len(mids) < 5:
        sys.exit("only %d markers found" % len(mids))
    mids.sort()
    widths.sort()
    print("markers %d: capture offset outside the marker bracket by at most %d ns "
          "(precision %d ns); |capture - bracket middle| median %d ns, max %d ns; "
          "bracket width median %d ns"
          % (len(mids), max(worst, 0), prec, mids[len(mids) // 2], mids[-1],
             widths[len(widths) // 2]))
    if worst > prec:
        sys.exit("capture offset outside a marker bracket by %d ns" % worst)


def cmd_clocks(cap):
    it = records(cap)
    prec = next(it)["clock"]["precision_ns"]
    d = sorted(r["ts"] - r["clock"] for r in it if r["rq_cpu"] == r["cpu"])
    if not d:
        sys.exit("no record of a CPU's own rq")
    print("ts - rq clock over %d records: min %d ns, median %d ns" % (len(d), d[0], d[len(d) // 2]))
    if d[0] < -prec - 500:
        sys.exit("a record precedes its rq's clock by %d ns" % -d[0])


def cmd_periods(cap):
    last = {}
    pairs = bad = 0
    for r in records(cap):
        if r["type"] != "se":
            continue
        key = (r["tid"], r["obj"])
        prev = last.get(key)
        last[key] = r
        if not prev or prev["rq_cpu"] != r["rq_cpu"]:
            continue
        dlut = r["last_update_time"] - prev["last_update_time"]
        if dlut <= 0 or dlut % 1024:
            continue
        s = prev["period_contrib"] + dlut // 1024
        pairs += 1
        if s < 1024 or r["period_contrib"] != s % 1024:
            bad += 1
    if pairs < 100:
        sys.exit("only %d consecutive task record pairs" % pairs)
    print("task record pairs %d, not crossing a period or with another period_contrib: %d"
          % (pairs, bad))
    # a task that leaves its rq and returns has its last_update_time reset (migration)
    if bad * 100 > pairs:
        sys.exit("more than 1 % of pairs inconsistent")


def main():
    cmds = {"lines": (cmd_lines, 1), "keys": (cmd_keys, 2), "align": (cmd_align, 3),
            "clocks": (cmd_clocks, 1), "periods": (cmd_periods, 1)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    fn, _ = cmds[sys.argv[1]]
    fn(*sys.argv[2:])


if __name__ == "__main__":
    main()

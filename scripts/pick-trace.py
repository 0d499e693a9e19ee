#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a synthetic one-CPU scheduler trace, as `trace-cmd report -t` text,
whose EEVDF picks follow by hand (`--kernel 6.18`, the v6.16-v6.18.43
model, on 2 CPUs: base slice 0.7 ms x (1 + ilog2(2)) = 1.4 ms; nice 0:
weight 1024, virtual time = real time); used by
tests/cli/t0035-report-pick.sh.

  pick-trace.py SCENARIO > trace.txt

CPU 1 idles throughout.  On CPU 0, at T0 the idle task switches to
spinner A (pid 201), which nothing showed before: the CPU's state is
unknown, not judged.  A is placed at V = 0: v 0, deadline 1.4 ms.  At
T0+1 ms A reports 1 ms (v 1.0) and forks B (202), a new task placed at V
with half a slice to its first deadline (PLACE_DEADLINE_INITIAL): V =
1.0, B gets v 1.0, d 1.7.  At T0+1.2 ms A reports 0.2 ms (v 1.2) and
forks C (203): V = (1.2 + 1.0) / 2 = 1.1, C gets v 1.1, d 1.8.  A keeps
its slice (RUN_TO_PARITY protects it to its deadline 1.4, the earliest
anyway).  New tasks have a known lag (0), so no pick here is taken for
evidence of a lag from before the trace.  Then every 4 ms a tick: the
running task reports its run time (A 2.8 ms at T0+4, then 4 ms), its
vruntime passes its deadline, which is renewed to v + 1.4, and the trace
switches (prev_state R) to the next task of the scenario's order.  All
values below in ms of virtual time.

  rr      A B C A B C A B C ...  At T0+4: A 4.0 (d 5.4), B 1.0 (d 1.7),
          C 1.1 (d 1.8), V = 6.1 / 3 = 2.033: B and C eligible, B's
          deadline earlier: B.  T0+8: B 5.0 (d 6.4), V = 3.367: C (1.1)
          eligible, A (4.0) not: C.  T0+12: C 5.1 (d 6.5), V = 4.7: A.
          T0+16: A 8.0, V = 6.033: B (d 6.4) before C (d 6.5): B.  The
          cycle repeats 4 ms higher: every pick agrees.
  wrong   A C B A B C A B C ...  T0+4: the trace runs C where B had the
          earlier deadline (1.7 < 1.8): diverges, earlier-deadline, size
          0.1 ms; V 2.033.  T0+8: C 5.1 (d 6.5), V = (4.0 + 1.0 + 5.1) / 3
          = 3.367: B (1.0) the only eligible other: B agrees.  T0+12: B 5.0
          (d 6.4), V = 4.7: A (4.0) eligible, C (5.1) not: A agrees.
          T0+16: A 8.0, V = 6.033: B (5.0, d 6.4) before C (5.1, d 6.5):
          B agrees, and the rr cycle goes on.
  ineligible  A B A C B C A B C A B C ...  T0+8: B 5.0, A 4.0, C 1.1,
          V = 3.367: the trace runs A, 0.633 ms past V: diverges,
          ineligible.  T0+12: A 8.0 (d 9.4), V = (8.0 + 5.0 + 1.1) / 3 =
          4.7: C (1.1) the only eligible: C agrees.  T0+16: C 5.1 (d 6.5),
          V = 6.033: B 5.0 (d 6.4) and C 5.1 (d 6.5, just renewed) both
          eligible, B's earlier: B agrees.  T0+20: B 9.0, V = 7.367: C
          agrees.  T0+24: C 9.1, V = 8.7: A (8.0) agrees, then the rr cycle.
  parity  only to T0+1 ms: right after B's wakeup the trace switches A
          (R) to B.  V = 1.0; A (v 1.0, eligible) still holds the deadline
          1.4 it was switched in with, so RUN_TO_PARITY keeps it (its
          deadline is also earlier than B's 1.7): diverges, run-to-parity,
          size d - v = 0.4 ms.

The script prints on stderr "expect SWITCHES CONTESTED AGREES" and, per
divergence, "div TS_NS REASON RAN PREFERRED SIZE_NS AVG_VRUNTIME_NS".
"""
import sys

T0 = 10_000_000_000
MS = 1_000_000
TICKS = 12
PIDS = {"A": 201, "B": 202, "C": 203}


def line(comm, pid, cpu, ts, text):
    return "%16s-%-7d [%03d] %d.%09d: %s" % (comm, pid, cpu, ts // 10**9, ts % 10**9, text)


def task(name):
    return "w%d:%d [120]" % (PIDS[name], PIDS[name])


def main():
    scen = sys.argv[1] if len(sys.argv) > 1 else "rr"
    order = {
        "rr": "ABC" * 5,
        "wrong": "ACB" + "ABC" * 4,
        "ineligible": "ABAC" + "BCA" * 4,
        "parity": "",
    }[scen][:TICKS + 1]
    out = ["cpus=2"]
    out.append(line("<idle>", 0, 1, T0, "sched_switch:         swapper/1:0 [120] R ==> swapper/1:0 [120]"))
    out.append(line("<idle>", 0, 0, T0, "sched_switch:         swapper/0:0 [120] R ==> " + task("A")))

    def runtime(name, ts, ns):
        pid = PIDS[name]
        out.append(line("w%d" % pid, pid, 0, ts,
                        "sched_stat_runtime:   comm=w%d pid=%d runtime=%d [ns]" % (pid, pid, ns)))

    def wake(name, ts):
        # A forks the task: a new task's lag is 0 (place_entity() with
        # ENQUEUE_INITIAL: deadline half a slice after its vruntime), known
        pid = PIDS[name]
        out.append(line("w201", 201, 0, ts, "sched_process_fork:   comm=w201 pid=201 child_comm=w%d child_pid=%d" % (pid, pid)))
        out.append(line("w201", 201, 0, ts, "sched_wakeup_new:     w%d:%d [120] CPU:000" % (pid, pid)))

    runtime("A", T0 + MS, MS)
    wake("B", T0 + MS)
    if scen == "parity":
        out.append(line("w201", 201, 0, T0 + MS + 1000, "sched_switch:         %s R ==> %s" % (task("A"), task("B"))))
        print("\n".join(out))
        print("expect 3 1 0", file=sys.stderr)
        print("div %d run-to-parity 202 201 400000 1000000" % (T0 + MS + 1000), file=sys.stderr)
        return
    runtime("A", T0 + 1200_000, 200_000)
    wake("C", T0 + 1200_000)
    for k in range(1, TICKS + 1):
        ts = T0 + 4 * MS * k
        prev, nxt = order[k - 1], order[k]
        runtime(prev, ts, 2_800_000 if k == 1 else 4 * MS)
        pid = PIDS[prev]
        out.append(line("w%d" % pid, pid, 0, ts, "sched_switch:         %s R ==> %s" % (task(prev), task(nxt))))
    print("\n".join(out))
    # CPU 1's switch and A's first switch are not judged (state unknown);
    # the TICKS switches of CPU 0 are contested (three runnable tasks)
    divs = {
        "rr": [],
        "wrong": [(T0 + 4 * MS, "earlier-deadline", 203, 202, 100_000, 2_033_333)],
        "ineligible": [(T0 + 8 * MS, "ineligible", 201, 203, 633_334, 3_366_666)],
    }[scen]
    print("expect %d %d %d" % (TICKS + 2, TICKS, TICKS - len(divs)), file=sys.stderr)
    for d in divs:
        print("div %d %s %d %d %d %d" % d, file=sys.stderr)


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a synthetic scheduler trace with two task groups on one CPU, as
`trace-cmd report -t` text, for the CFS pick through group entities
(tests/cli/t0081-report-pick-cfs-groups.sh).

  cfs-group-trace.py > trace.txt

CPU 1 idles throughout.  Markers first make /A (cpu.shares 2048) and /B
(512) and put a1 (301) and a2 (302) in /A, b1 (311) in /B, as the
recorders write them (scripts/workload.py).  On CPU 0, in ms from T0:

   0    a1 switched in (the CPU's state unknown until then)
   0.5  a1 sleeps after 0.5 ms: the CPU idles
   1    a1 wakes and runs; b1 wakes
   2    a2 wakes (a1 ran 1 ms more)
   3    a1 sleeps: /A keeps a2, whose group entity becomes the next buddy
   5    a2 preempted by b1
   7    b1 preempted by a2
   8    a2 preempted by b1
  10    b1 sleeps, a2 runs; b1 wakes at 11
  12    a2 preempted by b1
  13    b1 preempted by a2
  16    a2 sleeps, b1 runs
  20    a1 wakes (b1 ran 4 ms) and preempts b1
  21    a1 sleeps, b1 runs; at 22 b1 sleeps: the CPU idles

Every task is nice 0; each group has tasks on CPU 0 only.  Each wakeup
and switch comes at the time of the run-time report before it (or on an
idle CPU), so every group entity's run time is the one the reports give.  What the CFS
rules make of it is scripts/cfs-group-ref.py's to say, not this script's.
"""

T0 = 10_000_000_000
MS = 1_000_000
NAMES = {301: "a1", 302: "a2", 311: "b1"}


def line(comm, pid, cpu, ts, text):
    return "%16s-%-7d [%03d] %d.%09d: %s" % (comm, pid, cpu, ts // 10**9, ts % 10**9, text)


def who(pid, side):
    name = NAMES[pid] if pid else "swapper/0"
    return "%s_comm=%s %s_pid=%d %s_prio=120" % (side, name, side, pid, side)


def main():
    out = ["cpus=2"]
    mark = 0xffffffff814aa941

    def marker(ts, text):
        out.append(line("python3", 300, 0, ts, "print:                0x%x: %s" % (mark, text)))

    def comm(pid):
        return NAMES.get(pid, "<idle>")

    def runtime(ts, pid, ns):
        out.append(line(comm(pid), pid, 0, ts,
                        "sched_stat_runtime:   comm=%s pid=%d runtime=%d [ns]" % (NAMES[pid], pid, ns)))

    def wake(ts, ctx, pid):
        out.append(line(comm(ctx), ctx, 0, ts,
                        "sched_waking:         comm=%s pid=%d prio=120 target_cpu=000" % (NAMES[pid], pid)))
        out.append(line(comm(ctx), ctx, 0, ts, "sched_wakeup:         %s:%d [120] CPU:000" % (NAMES[pid], pid)))

    def switch(ts, prev, state, nxt):
        # the kernel's own print format: "R+" is a preempted prev
        out.append(line(comm(prev), prev, 0, ts, "sched_switch:         %s prev_state=%s ==> %s"
                        % (who(prev, "prev"), state, who(nxt, "next"))))

    us = 1000
    marker(T0 - 5 * MS, "cfsr-mkdir path=/A shares=2048")
    marker(T0 - 5 * MS + us, "cfsr-mkdir path=/B shares=512")
    marker(T0 - 4 * MS, "cfsr-move pid=301 path=/A")
    marker(T0 - 4 * MS + us, "cfsr-move pid=302 path=/A")
    marker(T0 - 4 * MS + 2 * us, "cfsr-move pid=311 path=/B")
    out.append(line("<idle>", 0, 1, T0, "sched_switch:         prev_comm=swapper/1 prev_pid=0 prev_prio=120 "
                    "prev_state=R ==> next_comm=swapper/1 next_pid=0 next_prio=120"))
    switch(T0, 0, "R", 301)
    runtime(T0 + MS // 2, 301, MS // 2)
    switch(T0 + MS // 2, 301, "S", 0)
    wake(T0 + MS, 0, 301)
    switch(T0 + MS, 0, "R", 301)
    wake(T0 + MS, 301, 311)
    runtime(T0 + 2 * MS, 301, MS)
    wake(T0 + 2 * MS, 301, 302)
    runtime(T0 + 3 * MS, 301, MS)
    switch(T0 + 3 * MS, 301, "S", 302)
    runtime(T0 + 5 * MS, 302, 2 * MS)
    switch(T0 + 5 * MS, 302, "R+", 311)
    runtime(T0 + 7 * MS, 311, 2 * MS)
    switch(T0 + 7 * MS, 311, "R+", 302)
    runtime(T0 + 8 * MS, 302, MS)
    switch(T0 + 8 * MS, 302, "R+", 311)
    runtime(T0 + 10 * MS, 311, 2 * MS)
    switch(T0 + 10 * MS, 311, "S", 302)
    runtime(T0 + 11 * MS, 302, MS)
    wake(T0 + 11 * MS, 302, 311)
    runtime(T0 + 12 * MS, 302, MS)
    switch(T0 + 12 * MS, 302, "R+", 311)
    runtime(T0 + 13 * MS, 311, MS)
    switch(T0 + 13 * MS, 311, "R+", 302)
    runtime(T0 + 16 * MS, 302, 3 * MS)
    switch(T0 + 16 * MS, 302, "S", 311)
    runtime(T0 + 20 * MS, 311, 4 * MS)
    wake(T0 + 20 * MS, 311, 301)
    switch(T0 + 20 * MS, 311, "R+", 301)
    runtime(T0 + 21 * MS, 301, MS)
    switch(T0 + 21 * MS, 301, "S", 311)
    runtime(T0 + 22 * MS, 311, MS)
    switch(T0 + 22 * MS, 311, "S", 0)
    print("\n".join(out))


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a synthetic two-CPU scheduler trace, as `trace-cmd report -t` text,
whose lasting-imbalance windows follow by hand from the balancer's rule
(lib/imbalance.h); used by tests/cli/t0033-report-imbalance.sh.

  imbalance-trace.py SCENARIO > trace.txt

A parent (pid 100) forks N0 nice-0 spinners woken on CPU 0 and N1 on CPU 1
at 10.000 s, then sleeps.  Each CPU runs its spinners round-robin, 4 ms
each, preempted (prev_state R, as trace-cmd's sched_switch plugin prints
it), for 300 ms; every task always runs or waits, so each load_avg stays
at its initial 1024 give or take its PELT ripple, and a CPU's load is
about 1024 per task.

  four-one  N0 = 4, N1 = 1: B = CPU 0 ~4096, L = CPU 1 ~1024, imbalance
            min(B - avg, avg - L) ~1536 >= 1024: one window from the wakeup
            of the CPU 1 spinner (CPU 0 then holds the parent and four
            waiting spinners) to the end of the trace (ended by the trace
            end), class allowed.
  three-two N0 = 3, N1 = 2: imbalance ~512 < 1024, nothing may move: no
            lasting window (a transient one while only the first CPU 1
            spinner is woken).
  migrate   four-one, and at 10.150 s spinner 204 migrates to CPU 1 (then
            three-two): one window, ended by that migration, none after.
  pinned    four-one, with a "cfsr-affinity pid=N cpus=0" marker for each
            CPU 0 spinner as it is woken: the same window, class
            affinity-bound.
The script prints the expected windows on stderr as
"expect START END REASON CLASS" (START and END in ns; END of a window open
at the end is the last event's time) or "expect none".
"""
import sys

T0 = 10_000_000_000
SLICE = 4_000_000
SPAN = 300_000_000


def line(comm, pid, cpu, ts, text):
    return "%16s-%-7d [%03d] %d.%09d: %s" % (comm, pid, cpu, ts // 10**9, ts % 10**9, text)


def main():
    scen = sys.argv[1] if len(sys.argv) > 1 else "four-one"
    n0, n1 = (3, 2) if scen == "three-two" else (4, 1)
    cpu0 = [201 + i for i in range(n0)]
    cpu1 = [211 + i for i in range(n1)]
    out = ["cpus=2"]
    ts = T0
    # both CPUs idle, then the parent runs on CPU 0
    out.append(line("<idle>", 0, 1, ts, "sched_switch:         swapper/1:0 [120] R ==> swapper/1:0 [120]"))
    out.append(line("<idle>", 0, 0, ts, "sched_switch:         swapper/0:0 [120] R ==> gen:100 [120]"))
    start = None
    for pid in cpu0 + cpu1:
        ts += 1000
        out.append(line("gen", 100, 0, ts, "sched_process_fork:   comm=gen pid=100 child_comm=w%d child_pid=%d" % (pid, pid)))
        ts += 1000
        cpu = 0 if pid in cpu0 else 1
        out.append(line("gen", 100, 0, ts, "sched_wakeup_new:     w%d:%d [120] CPU:%03d" % (pid, pid, cpu)))
        # CPU 0 holds the parent and its spinners; CPU 1 now has a task
        if start is None and cpu == 1:
            start = ts
        if scen == "pinned" and cpu == 0:
            ts += 1000
            out.append(line("gen", 100, 0, ts, "tracing_mark_write: cfsr-affinity pid=%d cpus=0" % pid))
    # the parent sleeps; CPU 0 runs its first spinner, CPU 1 its first
    ts += 1000
    out.append(line("gen", 100, 0, ts, "sched_switch:         gen:100 [120] S ==> w%d:%d [120]" % (cpu0[0], cpu0[0])))
    out.append(line("<idle>", 0, 1, ts, "sched_switch:         swapper/1:0 [120] R ==> w%d:%d [120]" % (cpu1[0], cpu1[0])))
    end_ts = ts + SPAN
    mig_ts = T0 + 150_000_000 if scen == "migrate" else None
    cur = {0: 0, 1: 0}
    queues = {0: list(cpu0), 1: list(cpu1)}
    t = ts
    migrated_at = None
    while True:
        t += SLICE
        if t > end_ts:
            break
        if mig_ts is not None and migrated_at is None and t > mig_ts:
            # spinner 204 waits on CPU 0 (not current): move it to CPU 1
            mover = 204
            if queues[0][cur[0]] == mover:
                mover = 203
            out.append(line("w%d" % queues[0][cur[0]], queues[0][cur[0]], 0, mig_ts,
                            "sched_migrate_task:   comm=w%d pid=%d prio=120 orig_cpu=0 dest_cpu=1" % (mover, mover)))
            running0 = queues[0][cur[0]]
            queues[0].remove(mover)
            cur[0] = queues[0].index(running0)
            queues[1].append(mover)
            migrated_at = mig_ts
        for cpu in (0, 1):
            q = queues[cpu]
            if len(q) < 2:
                continue
            prev = q[cur[cpu]]
            cur[cpu] = (cur[cpu] + 1) % len(q)
            nxt = q[cur[cpu]]
            out.append(line("w%d" % prev, prev, cpu, t + cpu,
                            "sched_switch:         w%d:%d [120] R ==> w%d:%d [120]" % (prev, prev, nxt, nxt)))
    last = max(int(l.split("] ")[1].split(":")[0].replace(".", "")) for l in out[1:])
    print("\n".join(out))
    if scen == "three-two":
        print("expect none", file=sys.stderr)
    elif scen == "migrate":
        print("expect %d %d migration allowed" % (start, migrated_at), file=sys.stderr)
    else:
        print("expect %d %d trace-end %s" % (start, last, "affinity-bound" if scen == "pinned" else "allowed"),
              file=sys.stderr)


main()

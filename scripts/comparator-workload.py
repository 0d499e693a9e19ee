#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Controlled workloads whose comparator results are built in (stdlib only).

Used by scripts/record-comparator.sh to make traces/pinned.dat,
traces/unpinned.dat and traces/forkburst.dat.  Markers go to the tracefs
instance's trace_marker given with --marker.

  pinned     3 always-busy workers, each pinned to CPU 0 with
             sched_setaffinity() and announced with the marker
             "cfsr-affinity pid=TID cpus=0": CPU 0 is overloaded (2 tasks
             wait) for the whole run while CPU 1 idles unless something
             else runs.  Idle-while-waiting must be affinity-bound.
  unpinned   the same 3 workers without pinning: both CPUs stay busy, so
             there is no idle CPU while tasks wait, beyond transients.
  forkburst  the parent forks 2 bursts of 12 children, 0.4 s apart; each
             child spins 30 ms and exits.  Every sched_wakeup_new is a fork
             placement to judge.
  shares     cgroup v1 cpu groups of very unequal shares, made under
             /sys/fs/cgroup/cpu and removed at the end: cfsr-heavy
             (cpu.shares 2048) and cfsr-light (cpu.shares 64), each with 2
             always-busy workers (cfsr-heavy0/1, cfsr-light0/1), unpinned.
             4 tasks on 2 CPUs keep both CPUs busy: nothing idles while
             tasks wait beyond transients, and the heavy workers get most of
             the CPU time (the shares, not the task count, decide).

usage: comparator-workload.py SCENARIO --marker PATH [--seconds S]
"""
import argparse
import ctypes
import os
import time

LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_NAME = 15
_marker = None


def marker(text):
    if _marker is not None:
        os.write(_marker, text.encode() + b"\n")


def set_name(name):
    LIBC.prctl(PR_SET_NAME, ctypes.c_char_p(name.encode()), 0, 0, 0)


def spin(seconds):
    end = time.monotonic() + seconds
    x = 0
    while time.monotonic() < end:
        x += 1
    return x


def worker(name, seconds, pin, cgroup=None):
    pid = os.fork()
    if pid:
        return pid
    set_name(name)
    if cgroup is not None:
        with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
            f.write("%d\n" % os.getpid())
        marker("cfsr-move pid=%d path=/%s" % (os.getpid(), os.path.basename(cgroup)))
    if pin is not None:
        os.sched_setaffinity(0, {pin})
        marker("cfsr-affinity pid=%d cpus=%d" % (os.getpid(), pin))
    marker("cfsr-task pid=%d comm=%s" % (os.getpid(), name))
    spin(seconds)
    os._exit(0)


def busy(seconds, pin):
    pids = [worker("cfsr-busy%d" % i, seconds, pin) for i in range(3)]
    for p in pids:
        os.waitpid(p, 0)


CPU_ROOT = "/sys/fs/cgroup/cpu"


def shares(seconds):
    groups = {"heavy": 2048, "light": 64}
    paths = {}
    try:
        for g, sh in groups.items():
            paths[g] = os.path.join(CPU_ROOT, "cfsr-%s-%d" % (g, os.getpid()))
            os.mkdir(paths[g])
            with open(os.path.join(paths[g], "cpu.shares"), "w") as f:
                f.write(str(sh))
            marker("cfsr-mkdir path=/%s shares=%d" % (os.path.basename(paths[g]), sh))
        pids = [worker("cfsr-%s%d" % (g, i), seconds, None, paths[g])
                for i in range(2) for g in groups]
        for p in pids:
            os.waitpid(p, 0)
    finally:
        for path in paths.values():
            try:
                os.rmdir(path)
            except OSError:
                pass


def forkburst():
    for burst in range(2):
        marker("cfsr-burst %d" % burst)
        pids = [worker("cfsr-child%d" % i, 0.03, None) for i in range(12)]
        for p in pids:
            os.waitpid(p, 0)
        time.sleep(0.4)


def main():
    global _marker
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=("pinned", "unpinned", "forkburst", "shares"))
    ap.add_argument("--marker", required=True)
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    _marker = os.open(a.marker, os.O_WRONLY)
    marker("cfsr-start scenario=%s" % a.scenario)
    if a.scenario == "pinned":
        busy(a.seconds, 0)
    elif a.scenario == "unpinned":
        busy(a.seconds, None)
    elif a.scenario == "shares":
        shares(a.seconds)
    else:
        forkburst()
    marker("cfsr-stop scenario=%s" % a.scenario)


if __name__ == "__main__":
    main()

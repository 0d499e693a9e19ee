#!/usr/bin/env python3
"""Workload driver for scripts/record-sample.sh (python3 stdlib only).

It runs a small, deterministic-in-shape scheduler workload while the kernel
trace buffer is recording, and annotates it with ftrace markers so that a
trace reader can find the interesting parts:

    cfsr-start scenario=<name> ...    first line, before any worker exists
    cfsr-task  pid=<pid> comm=<comm> period_us=<p> duty_pct=<d> nice=<n> [cgroup=<path>]
    cfsr-fork  / cfsr-pi / cfsr-mkdir / cfsr-move / cfsr-rmdir ...  (see below)
    cfsr-stop  scenario=<name>        last line, after every worker was reaped

Scenarios (one per bundled trace, see traces/README.md):

  periodic  4 periodic busy/sleep tasks (20/50/80 % duty, 10-16 ms periods,
            one at nice 5), not pinned, ~2 s; one fork+exec(/bin/true) child,
            one fork+_exit child and one PI-futex boost episode.
  cgroups   cgroup v1 cpu controller: groups A (cpu.shares 512), B (2048) and
            B/child (1024) are created *during* the trace; 2 tasks in A, 1 in B,
            1 in B/child; one task moved A -> B/child mid-run; a transient
            group is created and removed mid-run; all groups are removed at the
            end (cgroup_mkdir / cgroup_attach_task / cgroup_rmdir events).
  v6        short mixed workload (~1 s): 3 periodic tasks with other
            parameters, a fork+exec child and a PI episode.

Each worker is a forked process whose comm is set with prctl(PR_SET_NAME)
("cfsr-<name>"). A periodic worker spins for duty*period, then sleeps until
the next period boundary (absolute deadlines, so periods do not drift).

The PI episode: a nice-5 holder takes a PI futex (FUTEX_LOCK_PI protocol,
futex word = owner TID), a nice-0 waiter blocks in FUTEX_LOCK_PI, so the
kernel boosts the holder (sched_pi_setprio 125 -> 120) and de-boosts it on
FUTEX_UNLOCK_PI (sched_pi_setprio back to 125).

Usage: workload.py SCENARIO [--marker PATH] [--cgroup-root DIR] [--seconds S]
(--marker defaults to /sys/kernel/tracing/trace_marker; markers are skipped
silently if it cannot be opened. --cgroup-root is required for "cgroups".)
"""

import argparse
import ctypes
import mmap
import os
import signal
import sys
import time

LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_NAME = 15
SYS_futex = {"x86_64": 202, "aarch64": 98, "riscv64": 98}.get(os.uname().machine, 202)
FUTEX_LOCK_PI = 6
FUTEX_UNLOCK_PI = 7

_marker_fd = None


def marker(text):
    """Write one line to the ftrace marker file (ignored if unavailable)."""
    if _marker_fd is not None:
        try:
            os.write(_marker_fd, text.encode())
        except OSError:
            pass


def set_comm(name):
    LIBC.prctl(PR_SET_NAME, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def periodic_body(period_us, duty_pct, seconds):
    """Busy for duty% of each period, sleep the rest, for `seconds`."""
    period = period_us / 1e6
    busy = period * duty_pct / 100.0
    start = time.monotonic()
    deadline = start
    while deadline - start < seconds:
        spin(busy)
        deadline += period
        delay = deadline - time.monotonic()
        if delay > 0:
            time.sleep(delay)


def start_worker(name, body, nice=0, cgroup=None, extra=""):
    """Fork a worker running body(); return its pid."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            set_comm("cfsr-" + name)
            if nice:
                os.nice(nice)
            if cgroup:
                with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
                    f.write(str(os.getpid()))
            os.write(w, b"x")
            os.close(w)
            body()
        finally:
            os._exit(0)
    os.close(w)
    os.read(r, 1)          # wait until nice/cgroup are applied
    os.close(r)
    cg = " cgroup=" + cgroup if cgroup else ""
    marker("cfsr-task pid=%d comm=cfsr-%s nice=%d%s%s" % (pid, name, nice, cg, extra))
    return pid


def periodic(name, period_us, duty_pct, seconds, nice=0, cgroup=None):
    return start_worker(name, lambda: periodic_body(period_us, duty_pct, seconds),
                        nice=nice, cgroup=cgroup,
                        extra=" period_us=%d duty_pct=%d" % (period_us, duty_pct))


def fork_children():
    """One child that exec()s /bin/true, one that just exits."""
    pid = os.fork()
    if pid == 0:
        try:
            os.execv("/bin/true", ["true"])
        finally:
            os._exit(127)
    marker("cfsr-fork pid=%d action=exec:/bin/true" % pid)
    pid2 = os.fork()
    if pid2 == 0:
        set_comm("cfsr-shortlived")
        spin(0.002)
        os._exit(0)
    marker("cfsr-fork pid=%d action=exit" % pid2)
    return [pid, pid2]


def futex(addr, op):
    res = LIBC.syscall(SYS_futex, ctypes.c_void_p(addr), op, 0, None, None, 0)
    if res != 0:
        err = ctypes.get_errno()
        raise OSError(err, "futex op %d: %s" % (op, os.strerror(err)))


def pi_episode(hold_s=0.005):
    """nice-5 holder owns a PI futex, nice-0 waiter blocks on it."""
    mm = mmap.mmap(-1, 4096, flags=mmap.MAP_SHARED)
    word = ctypes.c_uint32.from_buffer(mm)
    addr = ctypes.addressof(word)
    go_r, go_w = os.pipe()
    held_r, held_w = os.pipe()
    holder = os.fork()
    if holder == 0:
        try:
            set_comm("cfsr-piholder")
            os.nice(5)
            word.value = os.getpid()        # uncontended acquire: word = TID
            os.write(held_w, b"h")
            os.read(go_r, 1)                 # waiter is about to block
            spin(hold_s)                     # waiter blocks -> we get boosted
            futex(addr, FUTEX_UNLOCK_PI)     # de-boost, hand over the lock
        finally:
            os._exit(0)
    os.read(held_r, 1)
    waiter = os.fork()
    if waiter == 0:
        try:
            set_comm("cfsr-piwaiter")
            os.write(go_w, b"g")
            futex(addr, FUTEX_LOCK_PI)       # blocks until holder unlocks
            futex(addr, FUTEX_UNLOCK_PI)
        finally:
            os._exit(0)
    marker("cfsr-pi holder=%d waiter=%d" % (holder, waiter))
    for p in (holder, waiter):
        os.waitpid(p, 0)
    for fd in (go_r, go_w, held_r, held_w):
        os.close(fd)
    del word
    mm.close()


def reap(pids):
    for p in pids:
        try:
            os.waitpid(p, 0)
        except ChildProcessError:
            pass


def scenario_periodic(args):
    s = args.seconds or 2.0
    pids = [
        periodic("p20", 10000, 20, s),
        periodic("p50", 12000, 50, s),
        periodic("p80", 16000, 80, s),
        periodic("p50n5", 14000, 50, s, nice=5),
    ]
    time.sleep(0.3)
    pids += fork_children()
    time.sleep(0.3)
    pi_episode()
    reap(pids)


def scenario_v6(args):
    s = args.seconds or 1.0
    pids = [
        periodic("q30", 8000, 30, s),
        periodic("q60n5", 11000, 60, s, nice=5),
        periodic("q90", 15000, 90, s),
    ]
    time.sleep(0.2)
    pids += fork_children()
    time.sleep(0.2)
    pi_episode()
    reap(pids)


def cg_mkdir(path, shares):
    os.mkdir(path)
    with open(os.path.join(path, "cpu.shares"), "w") as f:
        f.write(str(shares))
    marker("cfsr-mkdir path=%s shares=%d" % (path, shares))


def cg_move(pid, path):
    with open(os.path.join(path, "cgroup.procs"), "w") as f:
        f.write(str(pid))
    marker("cfsr-move pid=%d to=%s" % (pid, path))


def cg_rmdir(path):
    os.rmdir(path)
    marker("cfsr-rmdir path=%s" % path)


def scenario_cgroups(args):
    if not args.cgroup_root:
        sys.exit("workload.py: cgroups scenario needs --cgroup-root")
    s = args.seconds or 2.0
    root = args.cgroup_root
    a = os.path.join(root, "cfsr-A")
    b = os.path.join(root, "cfsr-B")
    bc = os.path.join(b, "child")
    tmp = os.path.join(root, "cfsr-tmp")
    cg_mkdir(a, 512)
    cg_mkdir(b, 2048)
    cg_mkdir(bc, 1024)
    pids = [
        periodic("a1", 10000, 90, s, cgroup=a),
        periodic("a2", 12000, 70, s, cgroup=a),
        periodic("b1", 16000, 90, s, cgroup=b),
        periodic("bc1", 14000, 60, s, cgroup=bc),
    ]
    time.sleep(0.3)
    pids += fork_children()
    time.sleep(0.2)
    cg_mkdir(tmp, 256)                # transient group: mkdir ... rmdir
    time.sleep(0.2)
    cg_move(pids[1], bc)              # a2: A -> B/child mid-run
    pi_episode()
    time.sleep(0.1)
    cg_rmdir(tmp)
    reap(pids)
    cg_rmdir(bc)
    cg_rmdir(b)
    cg_rmdir(a)


SCENARIOS = {"periodic": scenario_periodic, "cgroups": scenario_cgroups,
             "v6": scenario_v6}


def main():
    global _marker_fd
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--marker", default="/sys/kernel/tracing/trace_marker")
    ap.add_argument("--cgroup-root", default=None)
    ap.add_argument("--seconds", type=float, default=None,
                    help="run time of each periodic task (scenario default)")
    args = ap.parse_args()
    try:
        _marker_fd = os.open(args.marker, os.O_WRONLY)
    except OSError:
        _marker_fd = None
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    marker("cfsr-start scenario=%s pid=%d" % (args.scenario, os.getpid()))
    SCENARIOS[args.scenario](args)
    marker("cfsr-stop scenario=%s" % args.scenario)


if __name__ == "__main__":
    main()

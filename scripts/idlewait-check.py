#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Idle-while-waiting totals computed from `trace-cmd report -N -t` output.

An independent implementation, for tests, of the definitions in
docs/COMPARATORS.md: it shares no code with cfsreplay and reads the events
through the reference tool.  It prints one JSON object with wall_ns, cpu_ns
and allowed_cpu_ns (and the episode count and longest episode), and for
wake-ups and forks how many went to an idle CPU ("idle-chosen") or to a
busy one while another allowed CPU was idle ("idle-skipped").  The same
for exec placements: a sched_migrate_task made by a CPU's migration
stopper (the context "migration/N" running there) of the task switched out
runnable for it, which then fires sched_process_exec before it exits or
moves again, its own sched_setaffinity() entry aside; at such a move the
task's CPU counts as idle when nothing but the task waits there (the
kernel judges it without the task); with no idle CPU allowed, whether the
destination had the fewest runnable tasks ("fewest-tasks") or not
("load-rule").  "moves" counts them.  A sched_process_exec that no such
move preceded is sched_exec()'s choice of the task's own CPU, the CPU
that records the event: "exec-stay" counts those ("execs") and judges
them the same way at the exec event (the task must be the one that CPU
runs, a fair task, every CPU's state known), the task's CPU counted
without it.

CPU states: unknown before the CPU's first sched_switch; idle when it runs
pid 0 and nothing waits on it; overloaded when it runs a task and at least
one other waits on it.  A task waits on a CPU from sched_wakeup or
sched_wakeup_new naming it, or from a sched_switch that leaves it runnable
(prev_state R or R+), until it is switched in or migrated (the wait moves
with sched_migrate_task).  Affinity: "cfsr-affinity pid=P cpus=LIST"
markers give masks; sys_enter_sched_setaffinity makes the mask unknown
(not counted as allowed); per-CPU kernel threads ("name/N") are bound to
CPU N; any other task is allowed everywhere.

With --idle-group PATH, the placements also take as idle a CPU that runs
only idle fair work (the kernel's sched_idle_cpu(), v5.4+): every task it
runs or that waits on it, one at least, was put in PATH, a cpu.idle group,
as the trace's cgroup_attach_task events or the recorders' "cfsr-worker
pid=N cpu=C group=PATH" markers say; the
idle-while-waiting totals keep their definition (the idle task's CPUs).

usage: idlewait-check.py TRACE [--start NS] [--end NS] [--idle-group PATH]
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s*(.*)$")
SWITCH = re.compile(r"prev_comm=(.*) prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> "
                    r"next_comm=(.*) next_pid=(\d+) next_prio=(-?\d+)")
WAKE = re.compile(r"comm=(.*) pid=(\d+) prio=(-?\d+)(?: success=(\d+))? target_cpu=(\d+)")
MIGRATE = re.compile(r"comm=(.*) pid=(\d+) prio=(-?\d+) orig_cpu=(\d+) dest_cpu=(\d+)")
FORK = re.compile(r"comm=(.*) pid=(\d+) child_comm=(.*) child_pid=(\d+)")
EXIT = re.compile(r"comm=(.*) pid=(\d+) prio=")
DROPPED = re.compile(r"^CPU:\s*(\d+) \[(\d+|\?+) EVENTS DROPPED\]")
KTHREAD = re.compile(r"^(ksoftirqd|migration|cpuhp|kworker|rcuc|idle_inject|watchdog)/(\d+)(:.*)?$")


def cpulist(text):
    cpus = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


class State:
    def __init__(self, ncpu):
        self.ncpu = ncpu
        self.curr = [-1] * ncpu          # -1 unknown, 0 idle
        self.waiting = [set() for _ in range(ncpu)]
        self.wait_cpu = {}               # pid -> cpu
        self.running = {}                # pid -> cpu
        self.mask = {}                   # pid -> set of cpus, or None (unknown)
        self.comm_seen = set()

    def comm(self, pid, comm):
        if pid in self.mask:
            return
        m = KTHREAD.match(comm)
        if m and int(m.group(2)) < self.ncpu:
            self.mask[pid] = {int(m.group(2))}

    def allowed(self, pid, cpu):
        if pid not in self.mask:
            return True
        m = self.mask[pid]
        return m is not None and cpu in m

    def unwait(self, pid):
        cpu = self.wait_cpu.pop(pid, None)
        if cpu is not None:
            self.waiting[cpu].discard(pid)

    def wait(self, pid, cpu):
        self.unwait(pid)
        self.waiting[cpu].add(pid)
        self.wait_cpu[pid] = cpu

    def sched_idle(self, idle_pids):
        """CPUs whose running (or idle task) and waiting tasks are idle_pids' only."""
        out = []
        for c in range(self.ncpu):
            tasks = self.waiting[c] | ({self.curr[c]} if self.curr[c] > 0 else set())
            if self.curr[c] >= 0 and tasks and tasks <= idle_pids:
                out.append(c)
        return out

    def states(self):
        idle, over = [], []
        for c in range(self.ncpu):
            if self.curr[c] == 0 and not self.waiting[c]:
                idle.append(c)
            elif self.curr[c] > 0 and self.waiting[c]:
                over.append(c)
        return idle, over

    def matching(self, idle, over):
        """Maximum matching idle CPU <-> overloaded CPU with an allowed waiter."""
        edges = {o: [i for i in idle if any(self.allowed(p, i) for p in self.waiting[o])]
                 for o in over}
        match = {}

        def augment(o, seen):
            for i in edges[o]:
                if i in seen:
                    continue
                seen.add(i)
                if i not in match or augment(match[i], seen):
                    match[i] = o
                    return True
            return False
        return sum(1 for o in over if augment(o, set()))


def exec_verdict(st, pid, src, dest, others):
    """sched_exec()'s choice of @dest, the task's CPU @src counted with @others only."""
    idle, _ = st.states()
    if not others:
        idle = set(idle) | {src}
    # runnable tasks per CPU, the task's own CPU without it (and its stopper)
    nr = [(st.curr[c] > 0) + len(st.waiting[c]) for c in range(st.ncpu)]
    nr[src] = len(others)
    if dest in idle:
        return "idle-chosen"
    if any(st.allowed(pid, c) for c in idle):
        return "idle-skipped"
    if nr[dest] <= min(nr[c] for c in range(st.ncpu) if st.allowed(pid, c)):
        return "fewest-tasks"
    return "load-rule"


def main():
    args = sys.argv[1:]
    start, end = 0, 1 << 64
    if "--start" in args:
        i = args.index("--start")
        start = int(args[i + 1])
        del args[i:i + 2]
    if "--end" in args:
        i = args.index("--end")
        end = int(args[i + 1])
        del args[i:i + 2]
    idle_group, idle_pids = None, set()
    if "--idle-group" in args:
        i = args.index("--idle-group")
        idle_group = args[i + 1]
        del args[i:i + 2]
    out = subprocess.run(["trace-cmd", "report", "-N", "-t", args[0]], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    ncpu = int(re.match(r"cpus=(\d+)", out[0]).group(1))
    st = State(ncpu)
    now = None
    tot = {"wall_ns": 0, "cpu_ns": 0, "allowed_cpu_ns": 0}
    episodes, longest, ep_start, ep_end = 0, 0, None, None
    pending_lost = []
    place = {k: {"idle-chosen": 0, "idle-skipped": 0} for k in ("wakeup", "fork")}
    place["exec"] = {"moves": 0, "idle-chosen": 0, "idle-skipped": 0, "fewest-tasks": 0,
                     "load-rule": 0}
    place["exec-stay"] = {"execs": 0, "idle-chosen": 0, "idle-skipped": 0, "fewest-tasks": 0,
                          "load-rule": 0}
    rprev = [0] * ncpu        # the task switched out runnable at the CPU's last switch
    rprio = [-1] * ncpu       # the prio of the task the CPU runs
    exec_wait = {}            # pid -> the verdict of its stopper move, until its exec
    setaff = set()

    def account(ts):
        nonlocal now, episodes, longest, ep_start, ep_end
        if now is None:
            now = ts
        lo, hi = max(now, start), min(ts, end)
        now = max(now, ts)
        idle, over = st.states()
        if hi <= lo or not idle or not over:
            return
        d = hi - lo
        tot["wall_ns"] += d
        tot["cpu_ns"] += min(len(idle), len(over)) * d
        tot["allowed_cpu_ns"] += st.matching(idle, over) * d
        if ep_start is None:
            ep_start = lo
        ep_end = hi

    def close_episode():
        nonlocal episodes, longest, ep_start, ep_end
        idle, over = st.states()
        if ep_start is not None and not (idle and over):
            episodes += 1
            longest = max(longest, ep_end - ep_start)
            ep_start = ep_end = None

    for line in out[1:]:
        m = DROPPED.match(line)
        if m:
            pending_lost.append(int(m.group(1)))
            continue
        m = LINE.match(line)
        if not m:
            continue
        cpu = int(m.group(3))
        ts = int(m.group(4)) * 1000000000 + int(m.group(5))
        name, body = m.group(6), m.group(7)
        account(ts)
        for c in pending_lost:
            if c < ncpu:
                st.curr[c] = -1
        pending_lost = []
        if name == "sched_switch":
            f = SWITCH.match(body)
            prev, state, nxt = int(f.group(2)), f.group(4), int(f.group(6))
            if cpu < ncpu:
                rprev[cpu] = prev if prev > 0 and state.startswith("R") else 0
                rprio[cpu] = int(f.group(7))
                if st.curr[cpu] > 0:
                    if st.running.get(st.curr[cpu]) == cpu:
                        del st.running[st.curr[cpu]]
                if prev > 0:
                    st.comm(prev, f.group(1))
                    st.running.pop(prev, None)
                    if state.startswith("R"):
                        st.wait(prev, cpu)
                    else:
                        st.unwait(prev)
                if nxt > 0:
                    st.comm(nxt, f.group(5))
                    st.unwait(nxt)
                    st.running[nxt] = cpu
                st.curr[cpu] = nxt
        elif name in ("sched_wakeup", "sched_wakeup_new"):
            f = WAKE.match(body)
            pid, target = int(f.group(2)), int(f.group(5))
            if pid > 0 and f.group(4) != "0" and target < ncpu:
                st.comm(pid, f.group(1))
                kind = "fork" if name == "sched_wakeup_new" else "wakeup"
                placed = pid not in st.running and pid not in st.wait_cpu
                if placed and start <= ts < end and int(f.group(3)) >= 100 and -1 not in st.curr:
                    idle, _ = st.states()
                    idle = idle + st.sched_idle(idle_pids)
                    if target in idle:
                        place[kind]["idle-chosen"] += 1
                    elif any(st.allowed(pid, c) for c in idle):
                        place[kind]["idle-skipped"] += 1
                if pid not in st.running:
                    st.wait(pid, target)
        elif name == "sched_migrate_task":
            f = MIGRATE.match(body)
            pid, src, dest = int(f.group(2)), int(f.group(4)), int(f.group(5))
            exec_wait.pop(pid, None)
            if (pid > 0 and src == cpu and src < ncpu and dest < ncpu and
                    re.search(r"(?:^|\s)migration/\d+$", m.group(1)) and
                    st.curr[cpu] == int(m.group(2)) and rprev[cpu] == pid and
                    pid not in setaff):
                verdict = None
                if start <= ts < end and int(f.group(3)) >= 100 and -1 not in st.curr:
                    idle, _ = st.states()
                    verdict = exec_verdict(st, pid, src, dest, st.waiting[src] - {pid})
                exec_wait[pid] = (verdict, start <= ts < end)
            setaff.discard(pid)
            if pid > 0 and dest < ncpu and pid in st.wait_cpu:
                st.wait(pid, dest)
        elif name == "sched_process_exec":
            e = re.search(r"pid=(\d+) old_pid=(\d+)", body)
            pid = int(e.group(2)) if e else -1
            setaff.discard(pid)
            if pid in exec_wait:
                verdict, inside = exec_wait.pop(pid)
                place["exec"]["moves"] += inside
                if verdict:
                    place["exec"][verdict] += 1
            elif start <= ts < end and cpu < ncpu:
                place["exec-stay"]["execs"] += 1
                if (st.curr[cpu] == pid and rprio[cpu] >= 100 and -1 not in st.curr and
                        st.mask.get(pid, set()) is not None):
                    place["exec-stay"][exec_verdict(st, pid, cpu, cpu, st.waiting[cpu])] += 1
        elif name == "sched_process_fork":
            f = FORK.match(body)
            parent, child = int(f.group(2)), int(f.group(4))
            if parent > 0 and child > 0:
                st.comm(parent, f.group(1))
                if parent in st.mask and not KTHREAD.match(f.group(1)):
                    st.mask[child] = st.mask[parent]
                st.comm(child, f.group(3))
        elif name == "sched_process_exit":
            f = EXIT.match(body)
            st.unwait(int(f.group(2)))
            exec_wait.pop(int(f.group(2)), None)
            setaff.discard(int(f.group(2)))
        elif name == "sys_enter_sched_setaffinity":
            pid = int(re.search(r"pid: 0x([0-9a-f]+)", body).group(1), 16) or int(m.group(2))
            st.mask[pid] = None
            setaff.add(pid)
        elif name == "cgroup_attach_task":
            a = re.search(r"dst_path=(\S+) pid=(\d+)", body)
            if a and a.group(1) == idle_group:
                idle_pids.add(int(a.group(2)))
        elif name == "print":
            # "tracing_mark_write: TEXT", or "0xIP: TEXT" when kallsyms cannot name the ip
            text = re.sub(r"^(tracing_mark_write|0x[0-9a-f]+): ", "", body)
            a = re.match(r"cfsr-affinity pid=(\d+) cpus=([0-9,-]+)(\s|$)", text)
            if a:
                st.mask[int(a.group(1))] = cpulist(a.group(2))
            w = re.match(r"cfsr-worker pid=(\d+) cpu=\S+ group=(\S+)", text)
            if w and w.group(2) == idle_group:
                idle_pids.add(int(w.group(1)))
        close_episode()
    tot["episodes"] = episodes + (1 if ep_start is not None else 0)
    if ep_start is not None:
        longest = max(longest, ep_end - ep_start)
    tot["longest_ns"] = longest
    tot["placement"] = place
    json.dump(tot, sys.stdout)
    print()


if __name__ == "__main__":
    main()

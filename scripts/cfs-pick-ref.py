#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""CFS picks of a trace, worked out independently of cfsreplay's C code.

Reads `trace-cmd report -t` output on stdin and replays the CFS vruntime
rules of kernel/sched/fair.c (v5.13-v6.5, 2 CPUs unless --cpus says
otherwise; --no-start-debit and --no-gentle for a kernel with those
features off) over a flat run queue per CPU: update_curr() advances a task's
vruntime by calc_delta_fair() of each sched_stat_runtime (__calc_delta()'s
integer steps, the kernel's weight tables below), update_min_vruntime()
after it and after a sleep, task_fork_fair() (START_DEBIT: one
sched_vslice() after min_vruntime, no earlier than the running task),
place_entity() at a wakeup (no earlier than min_vruntime minus half a
latency), and the min_vruntime renormalisation of a migration.  A task
the trace shows already there has no known vruntime until a wakeup puts
it at that floor (or it was forked by a task alone on its CPU, or with a
known vruntime).

At each sched_switch whose CPU state is known, with two runnable fair
tasks or more, all with known vruntimes, it prints one line:

    pick TS CPU RAN LEFTMOST DIFF

where RAN is the task the kernel ran, LEFTMOST the one with the smallest
vruntime (the first queued among equals; the running task only if
strictly smaller), DIFF RAN's vruntime less LEFTMOST's.  Buddies are not
modelled: a pick cfsreplay leaves unjudged because a buddy could change
it is printed here too.
"""
import re
import sys

# sched_prio_to_weight[] and sched_prio_to_wmult[] (kernel/sched/core.c), nice -20..19
WEIGHT = [88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
          9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
          1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
          110, 87, 70, 56, 45, 36, 29, 23, 18, 15]
WMULT = [48388, 59856, 76040, 92818, 118348, 147320, 184698, 229616, 287308, 360437,
         449829, 563644, 704093, 875809, 1099582, 1376151, 1717300, 2157191, 2708050, 3363326,
         4194304, 5237765, 6557202, 8165337, 10153587, 12820798, 15790321, 19976592, 24970740,
         31350126, 39045157, 49367440, 61356676, 76695844, 95443717, 119304647, 148102320,
         186737708, 238609294, 286331153]
M64 = (1 << 64) - 1


def calc_delta(delta, weight, inv):
    """__calc_delta(delta, weight, lw) with lw's inverse weight @inv."""
    fact, shift = weight, 32
    while fact >> 32:
        fact >>= 1
        shift -= 1
    fact *= inv
    while fact >> 32:
        fact >>= 1
        shift -= 1
    return (delta * fact) >> shift


def signed(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


class Task:
    def __init__(self, pid):
        self.pid, self.prio, self.cpu, self.state = pid, 120, None, "?"
        self.v, self.placed, self.rel, self.guessed = 0, False, False, True
        self.migrated = False
        self.enq_ts = 0

    def weight(self):
        return WEIGHT[self.prio - 100] if 100 <= self.prio < 140 else 1024

    def inv(self):
        return WMULT[self.prio - 100] if 100 <= self.prio < 140 else 4194304

    def fair(self):
        return 100 <= self.prio < 140

    def vdelta(self, delta):
        return delta if self.weight() == 1024 else calc_delta(delta, 1024, self.inv())


def events(stream):
    """The event lines of @stream: (match, CPU, time stamp text, event name, payload)."""
    line_re = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s+(.*)$")
    for line in stream:
        m = line_re.match(line)
        if m:
            yield m, int(m.group(3)), m.group(4), m.group(5), m.group(6)


def main():
    cpus, debit, gentle = 2, True, True
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--cpus":
            cpus = int(args.pop(0))
        elif a == "--no-start-debit":
            debit = False
        elif a == "--no-gentle":
            gentle = False
        else:
            sys.exit("usage: cfs-pick-ref.py [--cpus N] [--no-start-debit] [--no-gentle]")
    factor = 1
    i = min(cpus, 8)
    while i > 1:
        factor, i = factor + 1, i >> 1
    latency, min_gran = 6000000 * factor, 750000 * factor
    tasks, minv = {}, [0] * cpus
    curr = [None] * cpus       # pid running (0 idle), None unknown
    order = [[] for _ in range(cpus)]  # queued and running pids, in order of queueing

    def task(pid):
        if pid not in tasks:
            tasks[pid] = Task(pid)
        return tasks[pid]

    def on(c):
        return [tasks[p] for p in order[c] if tasks[p].fair() and tasks[p].state in "QR"]

    def enqueue(t, c):
        if t.pid in order[c]:
            order[c].remove(t.pid)
        order[c].append(t.pid)

    def leave(t):
        if t.cpu is not None and t.pid in order[t.cpu]:
            order[t.cpu].remove(t.pid)

    def update_min(c):
        cur = [t for t in on(c) if t.state == "R"]
        queued = [t for t in on(c) if t.state == "Q"]
        v = minv[c]
        if cur:
            v = cur[0].v
        if queued:
            left = min(queued, key=lambda t: (signed(t.v - minv[c]),))
            if not cur or signed(left.v - v) < 0:
                v = left.v
        if signed(v - minv[c]) > 0:
            minv[c] = v & M64

    def place(t, c):
        """place_entity(initial 0) after a wakeup, or the start of an unknown task."""
        if t.rel:
            t.v, t.rel = (t.v + minv[c]) & M64, False
        elif not t.placed:
            t.v, t.placed, t.guessed = minv[c], True, True
            return
        floor = (minv[c] - (latency // 2 if gentle else latency)) & M64
        if signed(floor - t.v) > 0:
            t.v, t.guessed = floor, False

    def set_cpu(t, c):
        if t.cpu is not None and t.cpu != c:
            leave(t)
            t.guessed = True
        t.cpu = c

    def vslice(t, c, nr, load):
        n = nr + 1
        period = n * min_gran if n > 8 else latency
        lw = load + t.weight()
        s = calc_delta(period, t.weight(), 0xffffffff // lw)
        return t.vdelta(max(s, min_gran))

    woken = [0] * cpus

    def left_unseen(t):
        t.state = "L"
        leave(t)

    def observe(c, pid, ns):
        """An event in @pid's context: the CPU runs @pid (0: idle)."""
        if curr[c] != pid:
            old = tasks.get(curr[c]) if curr[c] else None
            if old and old.state == "R":
                left_unseen(old)
            curr[c] = 0 if pid == 0 else None
        if pid != 0 or not woken[c]:
            return
        # idle: tasks woken here 20 us ago or more, not seen running, ran unseen
        woken[c] = 0
        for t in list(tasks.values()):
            if t.state != "Q" or t.cpu != c:
                continue
            if t.enq_ts + 20000 > ns:
                woken[c] += 1
            else:
                left_unseen(t)

    seen = ("sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
            "sched_migrate_task", "sched_process_fork", "sched_process_exit",
            "sched_process_free", "sched_process_exec", "sched_stat_runtime",
            "sched_pi_setprio", "print", "tracing_mark_write")
    for m, c, ts, ev, rest in events(sys.stdin):
        ns = int(ts.replace(".", ""))
        if ev != "sched_switch" and (ev in seen or ev.startswith("cgroup_")):
            observe(c, int(m.group(2)), ns)
        if ev == "sched_stat_runtime":
            f = dict(x.split("=", 1) for x in re.findall(r"\b(?:pid|runtime)=\d+", rest))
            t = task(int(f["pid"]))
            if not t.fair():
                continue
            rc = t.cpu if t.cpu is not None and t.state == "R" else c
            if curr[rc] != t.pid and int(m.group(2)) == t.pid:
                # the task runs, its switch is missing: the one running before left unseen
                old = tasks.get(curr[rc]) if curr[rc] else None
                if old and old is not t and old.state == "R":
                    old.state = "L"
                    leave(old)
                if t.state not in "QR":
                    set_cpu(t, rc)
                    if t.state != "L":
                        place(t, rc)
                set_cpu(t, rc)
                t.state = "R"
                enqueue(t, rc)
                curr[rc] = t.pid
            t.v = (t.v + t.vdelta(int(f["runtime"]))) & M64
            if t.cpu is not None:
                update_min(t.cpu)
        elif ev == "sched_process_fork":
            f = dict(re.findall(r"\b(pid|child_pid)=(\d+)", rest))
            parent, child = task(int(f["pid"])), task(int(f["child_pid"]))
            child.__init__(child.pid)
            child.prio = parent.prio
            here = on(c)
            running = [t for t in here if t.state == "R"]
            cur = running[0] if running else None
            slice_ = vslice(child, c, len(here), sum(t.weight() for t in here)) if debit else 0
            start = (minv[c] + slice_) & M64
            v = cur.v if cur else 0
            if signed(start - v) > 0:
                v = start
            child.v, child.rel, child.placed = (v - minv[c]) & M64, True, True
            child.guessed = bool(cur and (cur.guessed or not cur.placed) and len(here) > 1)
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            m2 = re.match(r".*:(\d+) \[(\d+)\] CPU:(\d+)", rest)
            t, prio, tc = task(int(m2.group(1))), int(m2.group(2)), int(m2.group(3))
            if ev == "sched_wakeup_new":
                leave(t)
                t.state, t.cpu, t.migrated = "?", None, False
            elif t.state in "QR":
                continue
            t.prio = prio
            set_cpu(t, tc)
            if not t.fair():
                t.state = "Q"
                continue
            if ev == "sched_wakeup_new":
                if t.rel:
                    t.v, t.rel = (t.v + minv[tc]) & M64, False
                else:
                    here = on(tc)
                    debt = vslice(t, tc, len(here), sum(x.weight() for x in here)) if debit else 0
                    t.v = (minv[tc] + debt) & M64
                    t.placed, t.guessed = True, True
            elif t.migrated:
                place(t, tc)
            else:
                t.enq_ts = ns
                woken[tc] += 1
                if t.state != "L":
                    place(t, tc)
            t.migrated = False
            t.state = "Q"
            enqueue(t, tc)
        elif ev == "sched_migrate_task":
            f = dict(re.findall(r"\b(pid|orig_cpu|dest_cpu)=(\d+)", rest))
            t, src, dst = task(int(f["pid"])), int(f["orig_cpu"]), int(f["dest_cpu"])
            if not t.fair():
                leave(t)
                t.cpu = dst
                continue
            leave(t)
            if t.placed and not t.rel:
                t.v, t.rel = (t.v - minv[src]) & M64, True
            update_min(src)
            t.cpu = dst
            if t.state == "Q":
                t.v, t.rel = (t.v + minv[dst]) & M64, False
                enqueue(t, dst)
            else:
                t.migrated = True
        elif ev == "sched_switch":
            m2 = re.match(r"(.*):(\d+) \[(\d+)\] (\S+) ==> (.*):(\d+) \[(\d+)\]", rest)
            pp, pprio, pstate = int(m2.group(2)), int(m2.group(3)), m2.group(4)
            np_, nprio = int(m2.group(6)), int(m2.group(7))
            sleeps = pstate not in ("R", "R+")
            # the pick, against the state before the switch
            if curr[c] is not None and curr[c] == pp and not (np_ > 0 and nprio < 100):
                here = on(c)
                running = [t for t in here if t.state == "R"]
                prevt = tasks.get(pp) if pp > 0 else None
                clean = all(t.pid == pp for t in running) and not (
                    prevt and prevt.fair() and not running)
                cands = [t for t in here if not (t.pid == pp and sleeps)]
                if clean and np_ > 0 and len(cands) >= 2 and np_ in [t.pid for t in cands] and \
                        not any(t.guessed or not t.placed for t in cands):
                    tree = [t for t in cands if t.state == "Q"]
                    left = None
                    for t in tree:
                        if left is None or signed(t.v - left.v) < 0:
                            left = t
                    cur = [t for t in cands if t.state == "R"]
                    if cur and (left is None or signed(cur[0].v - left.v) < 0):
                        left = cur[0]
                    print("pick %s %d %d %d %d" % (ts, c, np_, left.pid, signed(tasks[np_].v - left.v)))
            # the switch itself
            observe(c, int(m.group(2)), ns)
            if curr[c] and curr[c] != pp and tasks[curr[c]].state == "R":
                # the task running here left without a switch in the trace
                tasks[curr[c]].state = "L"
                leave(tasks[curr[c]])
            if pp > 0:
                t = task(pp)
                t.prio = pprio
                set_cpu(t, c)
                if t.state != "R":
                    t.state = "R"
                    enqueue(t, c)
                if sleeps:
                    t.state = "S"
                    leave(t)
                    update_min(c)
                else:
                    t.state = "Q"
                    enqueue(t, c)
            if np_ > 0:
                t = task(np_)
                t.prio = nprio
                if t.state not in "QR":
                    set_cpu(t, c)
                    if t.fair() and t.state != "L":
                        place(t, c)
                    t.migrated = False
                set_cpu(t, c)
                t.state = "R"
                enqueue(t, c)
            curr[c] = np_


if __name__ == "__main__":
    main()

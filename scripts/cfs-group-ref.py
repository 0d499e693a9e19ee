#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""CFS picks through task groups, worked out independently of cfsreplay's
C code, for a simple case.

Reads trace text as `trace-cmd report -t` prints it (sched_switch in the
plugin's or the kernel's own format) on stdin and replays the CFS rules of
kernel/sched/fair.c (v5.13-v6.5; 2 CPUs unless --cpus says otherwise)
with one level of task groups, as the recorders' markers give them
("cfsr-mkdir path=/G shares=N": the group made then, with its cpu.shares;
"cfsr-move pid=P path=/G" before the task is seen).  The simple case: all
tasks nice 0, and a group's tasks queued on one CPU at a time, so that
calc_group_shares() gives its entity there the whole tg->shares (the
script stops with an error otherwise).  Kept per CPU:

  - update_curr(): a task's sched_stat_runtime advances its vruntime (nice
    0: by the time itself) and its group entity's by __calc_delta() at the
    group's weight; update_min_vruntime() of both cfs_rqs after it;
  - a wakeup enqueues the task on its group's cfs_rq and, if that was
    empty, the group entity on the root, each with place_entity(0): no
    earlier than min_vruntime less half a latency.  A group made in the
    trace has its entity at vruntime 0 at first (far below the root's
    floor, so placed at it) and its cfs_rq's min_vruntime at -2^20; a task
    the trace shows already there starts at its cfs_rq's min_vruntime and
    is not known until a placement moves it to the floor;
  - a sleep dequeues the task and, if its group's cfs_rq empties, the
    group entity (update_min_vruntime() of each); if the group keeps a
    task, its entity becomes the root's next buddy (set_next_buddy() in
    dequeue_task_fair()), until it is picked or dequeued;
  - the pick at a switch (pick_next_task_fair()): at the root,
    pick_next_entity() with its curr (the running task or group entity,
    if still queued): the smallest vruntime (curr only if strictly
    smaller; among equals the one queued first), the next buddy instead if
    wakeup_preempt_entity(buddy, leftmost) < 1; then the same inside the
    group chosen.  Wakeup-preemption buddies, yields and skip buddies are
    not modelled.

At each sched_switch with two runnable fair entities or more at a level
of the pick, all of known vruntime, it prints one line, as
scripts/cfs-pick-ref.py does (scripts/cfs-pick-check.py reads both):

    pick TS CPU RAN PICKED DIFF

RAN is the task the kernel ran, PICKED the task the rule leads to, DIFF
at the first level where their paths part the vruntime of RAN's entity
less that of PICKED's (0 where they do not part).
"""
import importlib.util
import os
import re
import sys

# the integer steps of __calc_delta() and the wrap-safe compare, from the flat replay
_spec = importlib.util.spec_from_file_location(
    "cfs_pick_ref", os.path.join(os.path.dirname(os.path.abspath(__file__)), "cfs-pick-ref.py"))
_flat = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_flat)
M64, signed = _flat.M64, _flat.signed
NICE0 = 1024


def calc_delta(delta, weight, lw_weight):
    """__calc_delta(delta, weight, lw): lw's inverse from __update_inv_weight()."""
    return _flat.calc_delta(delta, weight, 0xFFFFFFFF // lw_weight)


class Ent:
    """A task or a group entity: vruntime, known or not, queued in order."""

    def __init__(self, key):
        self.key, self.v, self.placed, self.known, self.seq = key, 0, False, False, 0


class Rq:
    """A cfs_rq: its min_vruntime and queued entities (curr included)."""

    def __init__(self, minv):
        self.minv, self.queued, self.curr = minv, [], None


def main():
    cpus = 2
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--cpus":
            cpus = int(args.pop(0))
        else:
            sys.exit("usage: cfs-group-ref.py [--cpus N]")
    factor, i = 1, min(cpus, 8)
    while i > 1:
        factor, i = factor + 1, i >> 1
    latency, wakeup_gran = 6000000 * factor, 1000000 * factor
    shares, group_of = {}, {}
    tasks, gses, rqs = {}, {}, {}
    curr = [None] * cpus          # pid running (0 idle), None unknown
    buddy = [None] * cpus         # the root's next buddy: a group entity
    seq = [0]

    def rq(g, c):
        if (g, c) not in rqs:
            rqs[(g, c)] = Rq((-(1 << 20)) & M64 if g != "/" else 0)
        return rqs[(g, c)]

    def task(pid):
        if pid not in tasks:
            tasks[pid] = Ent(pid)
            tasks[pid].cpu, tasks[pid].state = None, "?"
        return tasks[pid]

    def gse(g, c):
        if (g, c) not in gses:
            gses[(g, c)] = Ent("g" + g)
        return gses[(g, c)]

    def weight(e):
        return shares[e.key[1:]] if isinstance(e.key, str) else NICE0

    def vdelta(e, delta):
        w = weight(e)
        return delta if w == NICE0 else calc_delta(delta, NICE0, w)

    def update_min(q):
        v = q.minv
        cur = q.curr if q.curr in q.queued else None
        if cur:
            v = cur.v
        rest = [e for e in q.queued if e is not cur]
        if rest:
            left = min(rest, key=lambda e: (signed(e.v - q.minv), e.seq))
            if not cur or signed(left.v - v) < 0:
                v = left.v
        if signed(v - q.minv) > 0:
            q.minv = v & M64

    def place(e, q, start=None):
        if not e.placed:
            e.v, e.placed, e.known = (q.minv if start is None else start), True, start is not None
        floor = (q.minv - latency // 2) & M64
        if signed(floor - e.v) > 0:
            e.v, e.known = floor, True

    def enqueue(e, q):
        seq[0] += 1
        e.seq = seq[0]
        q.queued.append(e)

    def group_busy(g, c):
        for c2 in range(cpus):
            if c2 != c and (g, c2) in rqs and rqs[(g, c2)].queued:
                sys.exit("group %s has tasks on CPUs %d and %d: its entity weights need PELT"
                         % (g, c, c2))

    def wake(t, c):
        g = group_of.get(t.key, "/")
        t.cpu, t.state = c, "Q"
        if g == "/":
            place(t, rq("/", c))
            enqueue(t, rq("/", c))
            return
        group_busy(g, c)
        q = rq(g, c)
        place(t, q)
        enqueue(t, q)
        ge = gse(g, c)
        if ge not in rq("/", c).queued:
            # a new group's entity starts at 0, far below a long-running root's floor
            place(ge, rq("/", c), (rq("/", c).minv - (1 << 62)) & M64 if g in made else None)
            enqueue(ge, rq("/", c))

    def sleep(t, c):
        g = group_of.get(t.key, "/")
        q = rq(g, c)
        q.queued.remove(t)
        if q.curr is t:
            q.curr = None
        update_min(q)
        t.state = "S"
        if g == "/":
            return
        ge = gse(g, c)
        if q.queued:
            buddy[c] = ge
            return
        root = rq("/", c)
        root.queued.remove(ge)
        if root.curr is ge:
            root.curr = None
        if buddy[c] is ge:
            buddy[c] = None
        update_min(root)

    def preempt_entity(cur, se):
        """wakeup_preempt_entity(cur, se)."""
        vdiff = signed(cur.v - se.v)
        if vdiff <= 0:
            return -1
        return 1 if vdiff > vdelta(se, wakeup_gran) else 0

    def level_pick(q, use_buddy, c):
        """pick_next_entity(q, curr): None if a vruntime is unknown."""
        ents = list(q.queued)
        if len(ents) > 1 and not all(e.known for e in ents):
            return None, 0
        cur = q.curr if q.curr in ents else None
        tree = sorted((e for e in ents if e is not cur), key=lambda e: (signed(e.v - q.minv), e.seq))
        left = tree[0] if tree else None
        if left is None or (cur and signed(cur.v - left.v) < 0):
            left = cur
        se = left
        if use_buddy and buddy[c] in ents and preempt_entity(buddy[c], left) < 1:
            se = buddy[c]
        return se, len(ents)

    made = set()
    for _, c, ts, ev, rest in _flat.events(sys.stdin):
        if ev in ("print", "tracing_mark_write"):
            mk = re.search(r"cfsr-mkdir path=(/\S+) shares=(\d+)", rest)
            if mk:
                if "/" in mk.group(1)[1:]:
                    sys.exit("nested groups are not this script's case")
                shares[mk.group(1)], _ = int(mk.group(2)), made.add(mk.group(1))
            mv = re.search(r"cfsr-move pid=(\d+) path=(/\S+)", rest)
            if mv:
                if int(mv.group(1)) in tasks:
                    sys.exit("a move of a task already seen is not this script's case")
                group_of[int(mv.group(1))] = mv.group(2)
        elif ev == "sched_stat_runtime":
            f = dict(re.findall(r"\b(pid|runtime)=(\d+)", rest))
            t, d = task(int(f["pid"])), int(f["runtime"])
            if t.state != "R":
                continue
            t.v = (t.v + d) & M64
            g = group_of.get(t.key, "/")
            update_min(rq(g, t.cpu))
            if g != "/":
                ge = gse(g, t.cpu)
                ge.v = (ge.v + vdelta(ge, d)) & M64
                update_min(rq("/", t.cpu))
        elif ev == "sched_wakeup":
            m2 = re.match(r".*:(\d+) \[(\d+)\] CPU:(\d+)", rest)
            t = task(int(m2.group(1)))
            if t.state in "QR":
                continue
            wake(t, int(m2.group(3)))
        elif ev == "sched_switch":
            f = re.match(r"prev_comm=.* prev_pid=(\d+) prev_prio=(\d+) prev_state=(\S+) ==> "
                         r"next_comm=.* next_pid=(\d+) next_prio=(\d+)", rest)
            if not f:
                f = re.match(r".*:(\d+) \[(\d+)\] (\S+) ==> .*:(\d+) \[(\d+)\]", rest)
            pp, pstate, np_ = int(f.group(1)), f.group(3), int(f.group(4))
            sleeps = not pstate.startswith("R")
            root = rq("/", c)
            if curr[c] is not None and curr[c] == pp:
                prevt = tasks.get(pp) if pp else None
                if prevt and sleeps:
                    sleep(prevt, c)
                path, diff, judged, ran = [], 0, False, tasks.get(np_)
                q, use_buddy = root, True
                while q is not None and q.queued:
                    se, n = level_pick(q, use_buddy, c)
                    if se is None:
                        judged = False
                        path = []
                        break
                    judged = judged or n > 1
                    # the kernel's entity at this level
                    if ran is not None and ran.state in "QR" and ran.cpu == c:
                        g = group_of.get(ran.key, "/")
                        mine = ran if q is rq(g, c) else gse(g, c) if q is root else None
                        if not path or path[-1] == "same":
                            path.append("same" if mine is se else "part")
                            if mine is not se:
                                diff = signed(mine.v - se.v)
                    q = rq(se.key[1:], c) if isinstance(se.key, str) else None
                    use_buddy = False
                    picked = se
                if judged and ran is not None and ran.state in "QR" and path:
                    print("pick %s %d %d %d %d" % (ts, c, np_, picked.key, diff))
            elif pp and sleeps and tasks.get(pp) and tasks[pp].state in "QR":
                sleep(tasks[pp], c)
            # the switch itself: prev stays queued or has left, next runs
            if pp and not sleeps:
                t = task(pp)
                if t.state != "R":
                    t.cpu, t.state = c, "R"
                    wake(t, c)
                t.state = "Q"
            # put_prev_entity(): no curr on any level until next's are set
            for (_, c2), q2 in rqs.items():
                if c2 == c:
                    q2.curr = None
            if np_:
                t = task(np_)
                if t.state not in "QR":
                    wake(t, c)
                t.state = "R"
                g = group_of.get(np_, "/")
                rq(g, c).curr = t
                if g != "/":
                    root.curr = gse(g, c)
                    if buddy[c] is root.curr:
                        buddy[c] = None
                else:
                    root.curr = t
            else:
                buddy[c] = None
            curr[c] = np_


if __name__ == "__main__":
    main()

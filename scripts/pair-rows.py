#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""pair-rows.py A.txt B.txt A.csv B.csv: signals rows of two recordings of one run, one by one.

A.txt and B.txt are the same run's events as text (trace-cmd report -t,
perf script --ns), cut to the same window and on the same clock; A.csv and
B.csv are `cfsreplay signals --clock PELT` over each.  Events are the same
when their kind, CPU and the pids they name agree within 200 us (as
`cfsreplay info A B` pairs them).  An event that only one file holds, of
a kind the replay engine reads, touches:
  - every task it names, from its time on;
  - the task running on each CPU it acts on (by either file's switches),
    from its time on: the engine places a switch the trace lost by the
    events around it (the task seen running and the one it replaced);
  - every cfs_rq and group entity from its time on, on every CPU (group
    entities' weights follow tg->load_avg, summed over the CPUs).
An entity's rows are compared while untouched, in A's order: the n-th
untouched row of A with the n-th row of B, every column but the time
stamp.  Other tasks' rows are compared also after an event on their CPU
that one file lacks, although the CPU's clock anchors may differ for a
while: their differences are counted, not excluded.  Prints, per entity kind, rows / compared / identical / excluded,
and the events only one file holds.

When the CSVs have signals --mark-clock's clock_exact column, the compared
rows that differ are told apart: made on a clock estimated from the time
stamps in either file (each tracer stamps an event on its own), after an
earlier difference of the same entity (PELT sums carry a difference on;
a new task's first row also after one of a cfs_rq of its CPU, or after
the cfs_rqs were left out: post_init_entity_util_avg() starts its
util_avg from its cfs_rq's; a cfs_rq's also after one of a group entity
queued on it, whose weight its load.weight sums), first differences on a clock both files
marked exact where two CPUs' events under 1 us apart came in the other
order in the two files (REORDER_NS: the row's event and another one, each
paired with its partner in the other file, lie on opposite sides of each
other in A and in B; each tracer stamps an event on its own, so which of
two CPUs' close updates came first is known only from the stamps, and a
group entity's weight, calc_group_shares(), reads tg->load_avg with or
without the other CPU's new contribution), or other first differences on
a clock both files marked exact.
"""
import collections
import csv
import re
import sys

WINDOW_NS = 200000
# two events of different CPUs closer than this may come in either order
REORDER_NS = 1000
EV = re.compile(r'\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d{9}):\s+(?:sched:)?(\w+):(.*)')
# pid=N and its kin, or trace-cmd's comm:pid [prio] of switches and wakeups
PIDS = re.compile(r'\b\w*pid=(\d+)|:(\d+) \[')
# the events the replay engine reads (lib/replay.c cfsr_replay_event()); the
# others (sched_waking, sched_process_free, sched_process_exec) change nothing
USED = ('sched_switch', 'sched_stat_runtime', 'sched_wakeup', 'sched_wakeup_new',
        'sched_migrate_task', 'sched_process_fork', 'sched_process_exit', 'sched_pi_setprio')
# the run queues an event acts on besides its own CPU's
CPUS = re.compile(r'(?:target_cpu=|orig_cpu=|dest_cpu=|CPU:)(\d+)')
COLS = ('load_weight', 'load_sum', 'runnable_sum', 'util_sum', 'period_contrib', 'load_avg',
        'runnable_avg', 'util_avg', 'util_est', 'last_update_time', 'tg_load_avg',
        'tg_load_avg_contrib')


def events(path):
    out = collections.defaultdict(list)
    for line in open(path, errors='replace'):
        m = EV.search(line)
        if not m or not m[4].startswith('sched_'):
            continue
        pids = tuple(int(x or y) for x, y in PIDS.findall(m[5]))
        cpus = {int(m[1])} | {int(c) for c in CPUS.findall(m[5])}
        out[(m[4], int(m[1]), pids)].append((int(m[2]) * 10**9 + int(m[3]), cpus))
    return out


def unmatched(a, b, pairs=None):
    """Events of a key in one list with no partner in the other: (time, kind, cpu, pids, side).

    With @pairs (a list), each pair found is appended as (A time, B time).
    """
    only = []
    for key in set(a) | set(b):
        ta, tb = sorted(a.get(key, [])), sorted(b.get(key, []))
        used = [False] * len(tb)
        j = 0
        for t, cpus in ta:
            while j < len(tb) and tb[j][0] < t - WINDOW_NS:
                j += 1
            k, best = j, None
            while k < len(tb) and tb[k][0] <= t + WINDOW_NS:
                if not used[k] and (best is None or
                                    abs(tb[k][0] - t) < abs(tb[best][0] - t)):
                    best = k
                k += 1
            if best is None:
                only.append((t, key, cpus, 'A'))
            else:
                used[best] = True
                if pairs is not None and key[0] in USED:
                    pairs.append((t, tb[best][0]))
        only += [(t, key, c, 'B') for (t, c), u in zip(tb, used) if not u]
    return sorted(only)


class Order:
    """The paired events the engine reads, to tell two files' orders apart."""

    def __init__(self, pairs):
        self.a = sorted(pairs)
        self.b = sorted((tb, ta) for ta, tb in pairs)

    @staticmethod
    def near(seq, t):
        lo, hi = 0, len(seq)
        while lo < hi:
            mid = (lo + hi) // 2
            if seq[mid][0] < t - REORDER_NS:
                lo = mid + 1
            else:
                hi = mid
        while lo < len(seq) and seq[lo][0] <= t + REORDER_NS:
            yield seq[lo]
            lo += 1

    def flipped(self, ta, tb):
        """Whether an event within REORDER_NS of the row's (at @ta in A, @tb in B), in
        either file, lies on its other side in the other file."""
        for t, other in self.near(self.a, ta):
            if (t, other) != (ta, tb) and t != ta and other != tb and (t < ta) != (other < tb):
                return True
        for t, other in self.near(self.b, tb):
            if (other, t) != (ta, tb) and t != tb and other != ta and (t < tb) != (other < ta):
                return True
        return False


def running(ev):
    """Per CPU, the sorted (time, next pid) of the file's switches."""
    out = collections.defaultdict(list)
    for (kind, cpu, pids), hits in ev.items():
        if kind == 'sched_switch' and pids:
            out[cpu] += [(t, pids[-1]) for t, _ in hits]
    for c in out:
        out[c].sort()
    return out


def running_at(sw, cpu, t):
    """The task a file's switches leave running on @cpu at @t, or 0."""
    seq = sw.get(cpu, [])
    lo, hi = 0, len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if seq[mid][0] <= t:
            lo = mid + 1
        else:
            hi = mid
    return seq[lo - 1][1] if lo else 0


def marked(path):
    """Whether the CSV has --mark-clock's clock_exact column."""
    return 'clock_exact' in (csv.DictReader(open(path)).fieldnames or ())


def rows(path):
    out = collections.defaultdict(list)
    for r in csv.DictReader(open(path)):
        kind = r['entity']
        key = (kind, r['pid']) if kind == 'task' else (kind, r['cpu'], r['path'])
        out[key].append((int(r['ts_ns']), int(r['cpu']), tuple(r[c] for c in COLS),
                         r.get('clock_exact', '1') == '1'))
    return out


def main():
    ea, eb = events(sys.argv[1]), events(sys.argv[2])
    pairs = []
    only = unmatched(ea, eb, pairs)
    order = Order(pairs)
    never = float('inf')
    touch = [o for o in only if o[1][0] in USED]
    group_from = touch[0][0] if touch else never
    pid_from = {}
    sw = (running(ea), running(eb))
    for t, (kind, cpu, pids), cpus, side in touch:
        for p in pids:
            pid_from.setdefault(str(p), t)
        for c in cpus:
            for s in sw:
                p = running_at(s, c, t)
                if p > 0:
                    pid_from.setdefault(str(p), t)
    ra, rb = rows(sys.argv[3]), rows(sys.argv[4])
    tot = collections.Counter()
    cmp = collections.Counter()
    same = collections.Counter()
    first = {}
    why = collections.Counter()
    # per CPU, when its cfs_rqs may first differ (keys sort cfs_rq before task)
    cfs_from = collections.defaultdict(lambda: group_from)
    # per (CPU, cfs_rq path), when a group entity on it first differed
    gse_from = {}
    for key in ra:
        if key[0] != 'gse' or key[2] == '/':
            continue
        la, lb = ra[key], rb.get(key, [])
        for i, row in enumerate(la):
            if row[0] >= group_from:
                break
            if i >= len(lb) or row[2] != lb[i][2]:
                k = (key[1], key[2].rsplit('/', 1)[0] or '/')
                gse_from[k] = min(gse_from.get(k, never), row[0])
                break
    for key in sorted(set(ra) | set(rb)):
        kind = key[0]
        la, lb = ra.get(key, []), rb.get(key, [])
        n = 0
        for ts, cpu, _, _ in la:
            if kind == 'task':
                if ts >= pid_from.get(key[1], never):
                    break
            elif ts >= group_from:
                break
            n += 1
        tot[kind] += len(la)
        cmp[kind] += n
        differed = False
        for i in range(n):
            if i < len(lb) and la[i][2] == lb[i][2]:
                same[kind] += 1
                continue
            if i < len(lb) and not (la[i][3] and lb[i][3]):
                why[kind, 'estimated'] += 1
            elif (differed or (kind == 'task' and i == 0 and cfs_from[la[0][1]] < la[0][0]) or
                  (kind == 'cfs_rq' and gse_from.get(key[1:], never) < la[i][0])):
                why[kind, 'after'] += 1
            elif i < len(lb) and order.flipped(la[i][0], lb[i][0]):
                why[kind, 'reordered'] += 1
            else:
                why[kind, 'exact'] += 1
            differed = True
            if kind == 'cfs_rq':
                cfs_from[la[i][1]] = min(cfs_from[la[i][1]], la[i][0])
            if kind not in first:
                first[kind] = (key, la[i][:3], lb[i][:3] if i < len(lb) else None)
    by = collections.Counter((k[0], side) for t, k, c, side in only)
    print('events only in A: %s' % (dict(sorted((k, n) for (k, s), n in by.items() if s == 'A'))))
    print('events only in B: %s' % (dict(sorted((k, n) for (k, s), n in by.items() if s == 'B'))))
    print('first event only one file holds that the engine reads: %s' %
          (' '.join(map(str, touch[0][:2])) if touch else 'none'))
    for kind in ('task', 'cfs_rq', 'gse'):
        print('%-6s rows %d compared %d identical %d excluded %d' %
              (kind, tot[kind], cmp[kind], same[kind], tot[kind] - cmp[kind]))
    if marked(sys.argv[3]) and marked(sys.argv[4]):
        for kind in ('task', 'cfs_rq', 'gse'):
            print('%-6s differing: on an estimated clock %d, after an earlier difference %d, '
                  'two CPUs\' events under 1 us in the other order %d, '
                  'first on an exact clock %d' % (kind, why[kind, 'estimated'], why[kind, 'after'],
                                                  why[kind, 'reordered'], why[kind, 'exact']))
    for kind, (key, a, b) in first.items():
        print('first difference (%s %s): A %s, B %s' % (kind, key, a, b))


main()

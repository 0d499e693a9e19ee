#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent per-name accounting of a trace, for checking 'cfsreplay compare'.

Usage: compare-ref.py [--cpus N] TRACE.dat

Reads 'trace-cmd report -t TRACE' (text only: no cfsreplay code) and applies
the ACCOUNTING rules of docs/cfsreplay-compare.1.txt: run intervals from
sched_switch, switches inferred from common_pid, wake-ups and their latency
(exact nearest-rank percentiles, and the same values rounded to the
documented histogram buckets), migrations, switches out, the weight-fair
share.  Prints JSON: {"nr_cpus", "span_ns", "busy_ns": [...], "migrations",
"inferred_switches", "latency": {...}, "tasks": {comm: {...}}}.
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s?(.*)$')
DROPPED = re.compile(r'^CPU:\s*(\d+) \[(\d+ )?EVENTS DROPPED\]')
SWITCH = re.compile(r'^\s*(.*):(\d+) \[(-?\d+)\] (\S+) ==> (.*):(\d+) \[(-?\d+)\]\s*$')
WAKEUP = re.compile(r'^\s*(.*):(\d+) \[(-?\d+)\]')
WAKING = re.compile(r'^\s*comm=(.*) pid=(\d+) prio=(-?\d+) target_cpu=')
MIGRATE = re.compile(r'^\s*comm=(.*) pid=(\d+) prio=(-?\d+) orig_cpu=')
RUNTIME = re.compile(r'^\s*comm=(.*) pid=(\d+) runtime=(\d+)')
FORK = re.compile(r'^\s*comm=(.*) pid=(\d+) child_comm=(.*) child_pid=(\d+)')
EXITFREE = re.compile(r'^\s*comm=(.*) pid=(\d+) prio=(-?\d+)')
PI = re.compile(r'^\s*comm=(.*) pid=(\d+) oldprio=(-?\d+) newprio=(-?\d+)')

# sched_prio_to_weight[] of kernel/sched/core.c, typed in from the kernel source
WEIGHTS = [88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
           9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
           1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
           110, 87, 70, 56, 45, 36, 29, 23, 18, 15]
SUB_BITS = 7
# the event types cfsreplay reads (README.md, "Input"); others it skips
KNOWN = {'sched_switch', 'sched_waking', 'sched_wakeup', 'sched_wakeup_new',
         'sched_migrate_task', 'sched_process_fork', 'sched_process_exit',
         'sched_process_free', 'sched_process_exec', 'sched_stat_runtime',
         'sched_pi_setprio', 'cgroup_attach_task', 'cgroup_mkdir', 'cgroup_rmdir', 'print'}


def bucket_upper(v):
    if v < (1 << SUB_BITS):
        return v
    s = v.bit_length() - 1 - SUB_BITS
    return ((v >> s) << s) + (1 << s) - 1


def percentile(sorted_vals, pct):
    rank = max(1, (pct * len(sorted_vals) + 99) // 100)
    return sorted_vals[rank - 1]


def lat_summary(vals):
    vals = sorted(vals)
    out = {'count': len(vals), 'sum_ns': sum(vals), 'max_ns': vals[-1] if vals else 0}
    for p in (50, 90, 99):
        x = percentile(vals, p) if vals else 0
        out['p%d_exact_ns' % p] = x
        out['p%d_ns' % p] = min(bucket_upper(x), out['max_ns'])
    return out


class Task:
    def __init__(self, pid):
        self.pid = pid
        self.name = None
        self.prio = -1
        self.cpu = -1
        self.runnable = False
        self.woken = False
        self.in_ttwu = False
        self.wake_ts = None


class Acct:
    def __init__(self, nr_cpus):
        self.nr_cpus = nr_cpus
        self.tasks = {}
        self.names = {}
        self.cur = {}        # cpu -> pid (0 idle); absent = unknown
        self.cur_start = {}
        self.last = {}       # cpu -> last event ts
        self.busy = {}
        self.first = None
        self.now = None
        self.fair_ts = None
        self.migrations = 0
        self.inferred = 0
        self.unseen = 0
        self.lat_all = []

    def task(self, pid):
        if pid not in self.tasks:
            self.tasks[pid] = Task(pid)
        return self.tasks[pid]

    def sums(self, t):
        if t.name is None:
            self.set_name(t, '?')
        return self.names[t.name]

    def set_name(self, t, comm):
        if not comm or t.name == comm:
            return
        t.name = comm
        n = self.names.setdefault(comm, {
            'nr_tasks': 0, 'runtime_ns': 0, 'stat_runtime_ns': 0, 'fair_ns': 0,
            'wakeups': 0, 'wakeups_unseen': 0, 'lat': [], 'migrations_wakeup': 0, 'migrations_other': 0,
            'switches_voluntary': 0, 'switches_preempted': 0})
        n['nr_tasks'] += 1

    def named(self, pid, comm, prio):
        t = self.task(pid)
        self.set_name(t, comm)
        if prio >= 0:
            t.prio = prio
        return t

    def forget(self, t):
        if t.cpu < 0:
            t.runnable = False
            t.name = None
            t.prio = -1
            t.woken = t.in_ttwu = False
            t.wake_ts = None

    def weight(self, t):
        prio = 120 if t.prio < 0 else t.prio
        return WEIGHTS[prio - 100] if 100 <= prio < 140 else 0

    def fair(self, ts):
        dt = ts - self.fair_ts
        self.fair_ts = ts
        run = [t for t in self.tasks.values() if t.runnable]
        if not dt or not run:
            return
        w = {t.pid: self.weight(t) for t in run}
        W = sum(w.values())
        m = self.nr_cpus
        left = [t for t in run if w[t.pid]]
        while m and left:
            top = max(left, key=lambda t: w[t.pid])
            if w[top.pid] * m < W:
                break
            self.sums(top)['fair_ns'] += dt
            W -= w[top.pid]
            left.remove(top)
            m -= 1
        if m and W:
            for t in left:
                self.sums(t)['fair_ns'] += dt * m * w[t.pid] // W

    def run_end(self, cpu, ts):
        pid = self.cur.get(cpu, -1)
        if pid > 0:
            t = self.task(pid)
            d = max(0, ts - self.cur_start[cpu])
            self.sums(t)['runtime_ns'] += d
            self.busy[cpu] = self.busy.get(cpu, 0) + d
            t.cpu = -1
        self.cur[cpu] = -1

    def run_begin(self, cpu, pid, ts):
        if pid > 0:
            t = self.task(pid)
            if t.cpu >= 0 and t.cpu != cpu:
                self.run_end(t.cpu, self.last[t.cpu])
            n = self.sums(t)
            if t.wake_ts is not None:
                lat = max(0, ts - t.wake_ts)
                n['lat'].append(lat)
                self.lat_all.append(lat)
            t.wake_ts = None
            t.woken = t.in_ttwu = False
            t.cpu = cpu
            t.runnable = True
        self.cur[cpu] = pid
        self.cur_start[cpu] = ts

    def infer(self, cpu, ts, pid, kind, body):
        if self.cur.get(cpu, -1) == pid:
            return
        est = ts
        floor = self.last.get(cpu, self.first)
        if kind == 'sched_stat_runtime':
            m = RUNTIME.match(body)
            if m and int(m.group(2)) == pid and pid > 0:
                est = max(floor, ts - int(m.group(3)))
        old = self.cur.get(cpu, -1)
        if old >= 0:
            self.inferred += 1
        if old > 0:
            self.task(old).runnable = False
        self.run_end(cpu, est)
        self.run_begin(cpu, pid, est)

    def event(self, cpu, ts, pid, kind, body):
        if self.first is None:
            self.first = self.now = self.fair_ts = ts
        ts = max(ts, self.now)
        self.now = ts
        self.fair(ts)
        self.infer(cpu, ts, pid, kind, body)
        if kind == 'sched_switch':
            m = SWITCH.match(body)
            prev, state, nxt = int(m.group(2)), m.group(4), int(m.group(6))
            if prev > 0:
                t = self.named(prev, m.group(1), int(m.group(3)))
                preempted = state.startswith('R')
                n = self.sums(t)
                n['switches_preempted' if preempted else 'switches_voluntary'] += 1
                if not preempted:
                    t.runnable = False
            self.run_end(cpu, ts)
            if nxt > 0:
                self.named(nxt, m.group(5), int(m.group(7)))
            self.run_begin(cpu, nxt, ts)
        elif kind in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
            m = (WAKING if kind == 'sched_waking' else WAKEUP).match(body)
            wpid = int(m.group(2))
            if wpid > 0:
                t = self.named(wpid, m.group(1), int(m.group(3)))
                waking = kind == 'sched_waking'
                if waking or not t.woken:
                    self.sums(t)['wakeups'] += 1
                    t.woken = True
                    if t.wake_ts is not None:
                        self.sums(t)['wakeups_unseen'] += 1
                        self.unseen += 1
                    t.wake_ts = ts if t.cpu < 0 else None
                t.in_ttwu = waking
                if not waking:
                    self.sums(t)
                    t.runnable = True
        elif kind == 'sched_migrate_task':
            m = MIGRATE.match(body)
            self.migrations += 1
            t = self.named(int(m.group(2)), m.group(1), int(m.group(3)))
            self.sums(t)['migrations_wakeup' if t.in_ttwu else 'migrations_other'] += 1
        elif kind == 'sched_stat_runtime':
            m = RUNTIME.match(body)
            t = self.named(int(m.group(2)), m.group(1), -1)
            self.sums(t)['stat_runtime_ns'] += int(m.group(3))
        elif kind == 'sched_process_fork':
            m = FORK.match(body)
            self.named(int(m.group(2)), m.group(1), -1)
            t = self.task(int(m.group(4)))
            self.forget(t)
            self.set_name(t, m.group(3))
        elif kind == 'sched_process_exit':
            m = EXITFREE.match(body)
            self.named(int(m.group(2)), m.group(1), int(m.group(3)))
        elif kind == 'sched_process_free':
            m = EXITFREE.match(body)
            self.forget(self.task(int(m.group(2))))
        elif kind == 'sched_pi_setprio':
            m = PI.match(body)
            self.named(int(m.group(2)), None, int(m.group(4)))
        self.last[cpu] = ts

    def lost(self, cpu):
        self.run_end(cpu, self.last.get(cpu, self.first or 0))

    def finish(self):
        self.fair(self.now)
        for cpu, pid in list(self.cur.items()):
            if pid > 0:
                self.run_end(cpu, self.now)


def main():
    args = sys.argv[1:]
    nr_cpus = None
    if args[:1] == ['--cpus']:
        nr_cpus = int(args[1])
        args = args[2:]
    path = args[0]
    text = subprocess.run(['trace-cmd', 'report', '-t', path], check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, errors='replace').stdout.splitlines()
    if nr_cpus is None:
        m = re.match(r'cpus=(\d+)', text[0]) if text else None
        nr_cpus = int(m.group(1)) if m else 1
    a = Acct(nr_cpus)
    for line in text:
        m = LINE.match(line)
        if not m:
            d = DROPPED.match(line)
            if d:
                a.lost(int(d.group(1)))
            continue
        if m.group(6) not in KNOWN:
            continue
        ts = int(m.group(4)) * 1000000000 + int(m.group(5))
        a.event(int(m.group(3)), ts, int(m.group(2)), m.group(6), m.group(7))
    a.finish()
    tasks = {}
    for comm, n in a.names.items():
        n = dict(n)
        n['latency'] = lat_summary(n.pop('lat'))
        tasks[comm] = n
    json.dump({'nr_cpus': nr_cpus, 'span_ns': a.now - a.first,
               'busy_ns': [a.busy.get(c, 0) for c in range(max(a.last) + 1)],
               'migrations': a.migrations, 'inferred_switches': a.inferred,
               'wakeups_unseen': a.unseen,
               'latency': lat_summary(a.lat_all), 'tasks': tasks}, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()

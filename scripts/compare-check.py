#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check one side of 'cfsreplay compare --json' against scripts/compare-ref.py.

Usage: compare-check.py COMPARE.json SIDE REF.json    (SIDE: 0 for A, 1 for B)

Compares, per name, every count, the run times (switch intervals,
sched_stat_runtime, fair share) and the wake-up latency summary, and per
machine the span, per-CPU busy time, migrations and latency.  Prints the
number of values compared, how many differ, the largest run-time and
latency differences in ns, and the largest relative error of the reported
percentiles against the exact ones.  Exit status 1 when any value differs.
"""
import json
import sys

tool = json.load(open(sys.argv[1]))
side = int(sys.argv[2])
ref = json.load(open(sys.argv[3]))
tr = tool['traces'][side]
key = 'ab'[side]
n = bad = 0
worst = {'runtime_ns': 0, 'latency_ns': 0}
LAT = ('count', 'sum_ns', 'p50_ns', 'p90_ns', 'p99_ns', 'max_ns')
COUNTS = ('nr_tasks', 'runtime_ns', 'stat_runtime_ns', 'fair_ns', 'wakeups', 'wakeups_unseen',
          'migrations_wakeup', 'migrations_other', 'switches_voluntary', 'switches_preempted')


def check(what, x, y, kind=None):
    global n, bad
    n += 1
    if kind and isinstance(x, int) and isinstance(y, int):
        worst[kind] = max(worst[kind], abs(x - y))
    if x != y:
        bad += 1
        if bad <= 20:
            print('differs: %s: cfsreplay %s, reference %s' % (what, x, y))


check('span_ns', tr['span_ns'], ref['span_ns'])
check('busy_ns', [c['busy_ns'] for c in tr['cpus']], ref['busy_ns'])
check('migrations', tr['migrations'], ref['migrations'])
check('inferred_switches', tr['inferred_switches'], ref['inferred_switches'])
check('wakeups_unseen', tr['wakeups_unseen'], ref['wakeups_unseen'])
for k in LAT:
    check('latency ' + k, tr['latency'][k], ref['latency'][k], 'latency_ns')
names = {t['comm']: t[key] for t in tool['tasks'] if t[key]}
check('names', sorted(names), sorted(ref['tasks']))
relerr = 0.0
for comm, r in sorted(ref['tasks'].items()):
    t = names.get(comm)
    if not t:
        continue
    for k in COUNTS:
        check(comm + ' ' + k, t[k], r[k], 'runtime_ns' if k.endswith('_ns') else None)
    for k in LAT:
        check(comm + ' latency ' + k, t['latency'][k], r['latency'][k], 'latency_ns')
    for p in (50, 90, 99):
        exact = r['latency']['p%d_exact_ns' % p]
        if exact:
            relerr = max(relerr, (t['latency']['p%d_ns' % p] - exact) / exact)
print('%d values compared, %d differ; largest difference: run time %d ns, latency %d ns; '
      'percentiles within %.4f of the exact ones'
      % (n, bad, worst['runtime_ns'], worst['latency_ns'], relerr))
sys.exit(1 if bad else 0)

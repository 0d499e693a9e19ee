#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# signals-diff.py A.csv B.csv [--precision NS]
#
# Compare two outputs of `cfsreplay signals` (CSV) made from two files of
# the same events, such as a trace.dat and its `trace-cmd report` text.
#
# Without --precision the rows must be identical.
#
# With --precision NS, B's timestamps carry only NS ns of precision (1000
# for µs text).  Then:
# - the rows are the same updates: same count, and per entity (a task, or
#   a cfs_rq by CPU and path) the same rows in the same order, each with
#   the same CPU, entity, pid and load weight (the engine makes a tick's
#   update once no event of its CPU followed the report for 50 us, so
#   rounded timestamps can move a row among other entities' rows, not
#   among its own);
# - each ts_ns differs by less than NS;
# - load_avg, runnable_avg and util_avg differ by at most 2, except where
#   one side's update fell in another 1024-us PELT period than the other's
#   (last_update_time >> 20): the *_avg values are recomputed only when a
#   period boundary is crossed, so that row and the task's next rows keep
#   the older or newer average until both sides are in one period again.
#   Inside one period a few rounded timestamps change a sum by a few
#   thousand units of LOAD_AVG_MAX (47742), an average by at most 1 or 2.
#   A new task's first row takes its start from its cfs_rq
#   (post_init_entity_util_avg() reads the cfs_rq's util_avg and load_avg),
#   whose updates can fall in other periods on the two sides without a
#   task row showing it: a difference there counts as a split too.
#   load_avg is the task's weight times its load_sum over the divider, so
#   for a weight above nice 0's the same rounding moves it that many times
#   more: its difference is counted in nice-0 units (divided by
#   load_weight / 1048576).
#
# Prints one line of measurements; exits 1 when a check fails.
import csv
import sys

AVGS = ('load_avg', 'runnable_avg', 'util_avg')


def main():
    args = sys.argv[1:]
    precision = None
    if '--precision' in args:
        i = args.index('--precision')
        precision = int(args[i + 1])
        del args[i:i + 2]
    a = list(csv.reader(open(args[0])))
    b = list(csv.reader(open(args[1])))
    if precision is None:
        if a != b:
            for n, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    print('row %d differs:\n  %s\n  %s' % (n, x, y))
                    break
            print('rows: %d and %d, not identical' % (len(a), len(b)))
            return 1
        print('rows: %d, identical' % len(a))
        return 0

    if a[0] != b[0] or len(a) != len(b):
        print('rows: %d and %d' % (len(a), len(b)))
        return 1
    col = {k: i for i, k in enumerate(a[0])}

    def by_entity(rows):
        # rows in order per entity, the entities in one fixed order
        out = {}
        for r in rows:
            key = ((r[col['entity']], r[col['pid']]) if r[col['pid']] else
                   (r[col['entity']], r[col['cpu']], r[col['path']]))
            out.setdefault(key, []).append(r)
        return [r for k in sorted(out) for r in out[k]]

    a = a[:1] + by_entity(a[1:])
    b = b[:1] + by_entity(b[1:])
    dirty = {}
    worst = {'ts': 0, 'lut': 0, 'avg': 0}
    split = bad = 0
    for x, y in zip(a[1:], b[1:]):
        for k in ('cpu', 'entity', 'pid', 'load_weight'):
            if x[col[k]] != y[col[k]]:
                print('different update:\n  %s\n  %s' % (x, y))
                return 1
        dts = abs(int(x[col['ts_ns']]) - int(y[col['ts_ns']]))
        lut = (int(x[col['last_update_time']]), int(y[col['last_update_time']]))
        worst['ts'] = max(worst['ts'], dts)
        worst['lut'] = max(worst['lut'], abs(lut[0] - lut[1]))
        scale = max(1.0, int(x[col['load_weight']]) / 1048576)
        d = max(abs(int(x[col[k]]) - int(y[col[k]])) / (scale if k == 'load_avg' else 1)
                for k in AVGS)
        key = (x[col['entity']], x[col['pid']])
        cross = lut[0] >> 20 != lut[1] >> 20 or key not in dirty
        if cross or dirty.get(key):
            split += d > 0
        else:
            worst['avg'] = max(worst['avg'], d)
            if d > 2:
                bad += 1
                if bad < 4:
                    print('averages differ by %g:\n  %s\n  %s' % (d, x, y))
        dirty[key] = cross or (dirty.get(key, False) and d > 0)
        if dts >= precision:
            print('timestamps differ by %d ns:\n  %s\n  %s' % (dts, x, y))
            return 1
    print('rows: %d; max |dts| %d ns, max |dlast_update_time| %d ns, max |davg| %g '
          'within a period, %d rows after a period split differ'
          % (len(a) - 1, worst['ts'], worst['lut'], worst['avg'], split))
    return 1 if bad else 0


sys.exit(main())

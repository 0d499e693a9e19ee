#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals on the two recordings of one run that hold the same events
# (traces/perf-pair.*: a trace.dat and a perf.data recorded at once, cut
# to the time both cover, as text; scripts/record-perf-pair.sh), with the
# kernel's PELT updates of the run as the clock (--clock):
# - 'cfsreplay info A B' finds no event that one file holds and the other
#   lacks, and scripts/pair-rows.py none either;
# - every task, cfs_rq and group entity has as many rows in both files,
#   but for at most two whose rows first differ on a clock estimated from
#   the time stamps: EEVDF's eligibility there may then differ by the
#   stamps' difference, and a delayed dequeue be made in one file only;
# - the rows are compared one by one by scripts/pair-rows.py: an entity's
#   rows agree in every column until its first row whose clock descends
#   from a time stamp in either file (--mark-clock's clock_exact 0): each
#   tracer stamps an event on its own (perf 254 to 1303 ns before ftrace
#   on this pair), so where the engine estimates a clock from the stamps
#   the two estimates differ, and the PELT sums carry a difference on (a
#   new task's first row also its cfs_rq's: post_init_entity_util_avg()).
#   No entity's first difference is on a clock both files took from
#   kernel values alone (docs/FORMATS.md).
# The perf.data side did not record syscalls:sys_enter_setpriority, which
# the trace.dat side holds twice and the engine replays (set_user_nice()):
# A is the trace.dat side without those two lines, the same events as B.
. "$(dirname "$0")/lib.sh"

A=$TRASH/perf-pair.trace.txt
B=$TRACES/perf-pair.perf.txt.gz
zcat "$TRACES/perf-pair.trace.txt.gz" | grep -v ' sys_enter_setpriority: ' >"$A"
P=$TRACES/perf-pair.pelt.jsonl.gz

test_expect_success 'info A B: the two files hold the same events' "
	cfsreplay info '$A' '$B' >info.txt &&
	python3 - info.txt <<'PY'
import re, sys
rows = [l.split() for l in open(sys.argv[1]) if re.match(r'sched_\w+\s+\d+\s+\d+\s+\d+\s+\d+$', l)]
assert len(rows) >= 8, rows
for name, a, b, only_a, only_b in rows:
    assert a == b and only_a == '0' and only_b == '0', (name, a, b, only_a, only_b)
print('# %d event types, %d events each' % (len(rows), sum(int(r[1]) for r in rows)))
PY
"

test_expect_success 'signals --mark-clock on both files' "
	cfsreplay signals --mark-clock --kernel 6.18 --clock '$P' '$A' >a.csv 2>a.err &&
	cfsreplay signals --mark-clock --kernel 6.18 --clock '$P' '$B' >b.csv 2>b.err &&
	test \$(wc -l <a.csv) -gt 1000
"

test_expect_success 'every entity has as many rows in both files, or first differs on a stamp clock' "
	python3 - a.csv b.csv <<'PY'
import collections, csv, sys
COLS = ('load_weight', 'load_sum', 'runnable_sum', 'util_sum', 'period_contrib', 'last_update_time')
def rows(path):
    c = collections.defaultdict(list)
    for r in csv.DictReader(open(path)):
        c[(r['entity'], r['pid'] if r['entity'] == 'task' else r['cpu'] + r['path'])].append(r)
    return c
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert set(a) == set(b), set(a) ^ set(b)
other = []
for k in a:
    if len(a[k]) == len(b[k]):
        continue
    i = next(i for i, (x, y) in enumerate(zip(a[k], b[k])) if any(x[c] != y[c] for c in COLS))
    # a delayed dequeue made in one file only follows a difference on an estimated clock
    assert '0' in (a[k][i]['clock_exact'], b[k][i]['clock_exact']), (k, i, a[k][i], b[k][i])
    other.append(k)
assert len(other) <= 2, other
print('# %d entities, %d rows; counts differ after a stamp clock: %s' % (len(a), sum(map(len, a.values())), other))
PY
"

test_expect_success 'rows agree until a clock from a time stamp; no first difference on a kernel clock' "
	cp '$A' a.txt && zcat '$B' >b.txt &&
	python3 '$SRC_DIR/scripts/pair-rows.py' a.txt b.txt a.csv b.csv >pair.txt &&
	sed 's/^/# /' pair.txt &&
	grep -qx 'events only in A: {}' pair.txt && grep -qx 'events only in B: {}' pair.txt &&
	for k in task cfs_rq gse; do
		set -- \$(sed -n \"s/^\$k *rows \\([0-9]*\\) compared \\([0-9]*\\) identical \\([0-9]*\\) excluded \\([0-9]*\\)\$/\\1 \\2 \\3 \\4/p\" pair.txt) &&
		test \"\$1\" -gt 0 && test \"\$1\" -eq \"\$2\" && test \"\$4\" -eq 0 &&
		grep -q \"^\$k *differing: .*, first on an exact clock 0\$\" pair.txt || return 1
	done
"

test_done

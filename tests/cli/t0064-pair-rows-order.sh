#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/pair-rows.py tells apart the first differences on a clock both
# files took from kernel values where two CPUs' events under 1 us apart
# came in the other order in the two files (each tracer stamps an event on
# its own; docs/FORMATS.md):
# - on hand-made pairs: a group entity's row that differs at an event of
#   CPU 0 whose neighbour on CPU 1, 0.4 us away, is on its other side in
#   the other file is counted so; the same with the neighbour on the same
#   side, or on the other side but 4 us away in both, is a first
#   difference on an exact clock;
# - on the bundled perf-groups run (a trace.dat and a perf.data recorded
#   at once; scripts/pair-signals.sh, which needs perf and trace-cmd),
#   every first difference on a kernel clock is of that kind or follows
#   one (and some are of that kind): none is left unexplained.
. "$(dirname "$0")/lib.sh"

HEAD='ts_ns,cpu,entity,pid,path,comm,load_weight,load_sum,runnable_sum,util_sum,period_contrib,load_avg,runnable_avg,util_avg,util_est,last_update_time,tg_load_avg,tg_load_avg_contrib,clock_exact'

# pair NAME TA0 TA1 TB0 TB1: events of pid 10 on CPU 0 and pid 20 on CPU 1
# at those ns after 100 s in A and in B, and one gse row at CPU 0's event
# whose weight differs (1000 in A, 1010 in B), on an exact clock in both
pair() {
	local n=$1 f t0 t1 w
	for f in a b; do
		if [ $f = a ]; then t0=$2 t1=$3 w=1000; else t0=$4 t1=$5 w=1010; fi
		printf '%s\n' \
			"a 10 [000] 100.$(printf %09d "$t0"): sched:sched_stat_runtime: comm=a pid=10 runtime=1000 [ns]" \
			"b 20 [001] 100.$(printf %09d "$t1"): sched:sched_stat_runtime: comm=b pid=20 runtime=1000 [ns]" |
			sort -t' ' -k4 >"$n.$f.txt"
		printf '%s\n%s\n' "$HEAD" \
			"$((100000000000 + t0)),0,gse,,/g,,$w,1,1,1,1,1,1,1,0,99,,,1" >"$n.$f.csv"
	done
	python3 "$SRC_DIR/scripts/pair-rows.py" "$n.a.txt" "$n.b.txt" "$n.a.csv" "$n.b.csv" >"$n.out"
}

test_expect_success 'hand-made: CPU 1 0.4 us away, on the other side in B: the other order' "
	pair flip 1000 1400 1300 1100 &&
	grep -q \"^gse *differing: .*in the other order 1, first on an exact clock 0\$\" flip.out &&
	grep -qx 'events only in A: {}' flip.out
"

test_expect_success 'hand-made: the same order, or 4 us apart: first on an exact clock' "
	pair same 1000 1400 1300 1600 &&
	grep -q \"^gse *differing: .*in the other order 0, first on an exact clock 1\$\" same.out &&
	pair far 1000 5000 9000 5100 &&
	grep -q \"^gse *differing: .*in the other order 0, first on an exact clock 1\$\" far.out
"

if command -v perf >/dev/null && command -v trace-cmd >/dev/null; then
	test_expect_success 'perf-groups run: no first difference on a kernel clock left unexplained' "
		PAIR_DIR=\$PWD/cut CFSREPLAY='$CFSREPLAY' bash '$SRC_DIR/scripts/pair-signals.sh' \
			'$TRACES/perf-groups.dat' '$TRACES/perf-groups.perf.data' \
			'$TRACES/perf-groups.pelt.jsonl.gz' >pair.txt 2>&1 &&
		grep 'differing' pair.txt | sed 's/^/# /' &&
		for k in task cfs_rq gse; do
			grep -q \"^\$k *differing: .*, first on an exact clock 0\$\" pair.txt || return 1
		done &&
		grep -q \"differing: .*in the other order [1-9][0-9]*, \" pair.txt
	"
else
	test_skip 'perf-groups run: no first difference on a kernel clock left unexplained' \
		'perf or trace-cmd is not installed'
fi

test_done

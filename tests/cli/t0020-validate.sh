#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# validate --pelt: the model in lock-step with the kernel's own PELT records,
# on the recorded runs beside the checkout that carry them.  The thresholds
# are the fidelity measured when they were set: a regression fails here.
. "$(dirname "$0")/lib.sh"

# min_exact DIR KIND PCT: at least PCT % of KIND updates (task, group cfs_rq) exact in every field
min_exact() {
	cfsreplay validate --pelt "$SHARED_TRACES/$1/pelt.jsonl.gz" "$SHARED_TRACES/$1/trace.dat" >out &&
	pct=$(sed -n "s/^$2 updates compared: [0-9]*, all fields exact: [0-9]* (\([0-9.]*\) %).*/\1/p" out) &&
	echo "# $1: $pct % of $2 updates exact" &&
	awk -v p="$pct" -v m="$3" 'BEGIN { exit !(p >= m) }'
}

test_expect_success 'without --pelt or --truth, a trace with no embedded snapshots is refused' "
	cfsreplay validate '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'holds no kernel snapshots' err && test ! -s out
"
test_expect_success 'a snapshot file is not a PELT record file' "
	printf '{\"seq\":1,\"kind\":\"snap\"}\n' >snap.jsonl &&
	cfsreplay validate --pelt snap.jsonl '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'not a pelt.jsonl' err
"
# min_within1 DIR VALUE PCT: at least PCT % of VALUE (group entity weight, tg_load_avg,
# tg_load_avg_contrib) within 1 % of the kernel's
min_within1() {
	cfsreplay validate --pelt "$SHARED_TRACES/$1/pelt.jsonl.gz" "$SHARED_TRACES/$1/trace.dat" >out &&
	pct=$(awk -v n="$2" 'index($0, n " ") == 1 { print $(NF - 1) }' out) &&
	echo "# $1: $pct % of $2 within 1 %" &&
	awk -v p="$pct" -v m="$3" 'BEGIN { exit !(p >= m) }'
}

if [ -f "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" ]; then
	test_expect_success 'periodic-bpf: task updates exact >= 99.5 %' 'min_exact periodic-bpf task 99.5'
	test_expect_success 'cgroups-bpf: task updates exact >= 99.3 %' 'min_exact cgroups-bpf task 99.3'
	test_expect_success 'periodic-bpf: group cfs_rq updates exact >= 99 %' \
		'min_exact periodic-bpf "group cfs_rq" 99'
	test_expect_success 'cgroups-bpf: group cfs_rq updates exact >= 99 %' \
		'min_exact cgroups-bpf "group cfs_rq" 99'
	test_expect_success 'periodic-bpf: group entity updates exact >= 98.3 %' \
		'min_exact periodic-bpf "group entity" 98.3'
	test_expect_success 'cgroups-bpf: group entity updates exact >= 98.6 %' \
		'min_exact cgroups-bpf "group entity" 98.6'
	test_expect_success 'periodic-bpf: root cfs_rq updates exact >= 96.3 %' \
		'min_exact periodic-bpf "root cfs_rq" 96.3'
	test_expect_success 'cgroups-bpf: root cfs_rq updates exact >= 96.2 %' \
		'min_exact cgroups-bpf "root cfs_rq" 96.2'
	test_expect_success 'periodic-bpf: group entity weights within 1 % >= 97.5 %' \
		'min_within1 periodic-bpf "group entity weight" 97.5'
	test_expect_success 'cgroups-bpf: group entity weights within 1 % >= 99.3 %' \
		'min_within1 cgroups-bpf "group entity weight" 99.3'
	test_expect_success 'periodic-bpf: tg_load_avg within 1 % >= 97 %' \
		'min_within1 periodic-bpf tg_load_avg 97'
	test_expect_success 'cgroups-bpf: tg_load_avg within 1 % >= 99 %' \
		'min_within1 cgroups-bpf tg_load_avg 99'
	test_expect_success 'periodic-bpf: tg_load_avg_contrib within 1 % >= 99.5 %' \
		'min_within1 periodic-bpf tg_load_avg_contrib 99.5'
	test_expect_success 'cgroups-bpf: tg_load_avg_contrib within 1 % >= 99.5 %' \
		'min_within1 cgroups-bpf tg_load_avg_contrib 99.5'
	# each kind lists 3 records, each with at least one field whose model and
	# kernel values differ
	test_expect_success 'periodic-bpf: --diffs lists the first differing records' '
		cfsreplay validate --diffs 3 --pelt "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" \
			"$SHARED_TRACES/periodic-bpf/trace.dat" >diffs &&
		test "$(grep -c "^first differing records" diffs)" = 4 &&
		grep "^  [0-9]*\.[0-9]* [a-z]* [0-9]*.*: load_sum " diffs >lines &&
		test "$(wc -l <lines)" = 12 &&
		awk "{ sub(/^.*: /, \"\"); off = 0; for (i = 1; i <= NF; i++) if (split(\$i, v, \"/\") == 2 && v[1] != v[2]) off = 1;
		       if (!off) exit 1 }" lines
	'
	# the kernel's records say when a task is delayed (sched_delayed): the model
	# must agree on at least 80 % of the records where the kernel's task is delayed
	test_expect_success 'periodic-bpf: delayed dequeue agrees with the kernel records' "
		cfsreplay validate --pelt '$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz' \
			'$SHARED_TRACES/periodic-bpf/trace.dat' >out &&
		k=\$(sed -n 's/.*kernel task delayed: \([0-9]*\);.*/\1/p' out) &&
		d=\$(sed -n 's/.*delayed state differs: \([0-9]*\);.*/\1/p' out) &&
		echo \"# kernel delayed in \$k records, model differs in \$d\" &&
		test \"\$k\" -gt 20 && test \$((d * 5)) -le \"\$k\"
	"
	test_expect_success '--max-error: exit 1 beyond the threshold' "
		cfsreplay validate --max-error 0 --pelt '$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz' \
			'$SHARED_TRACES/periodic-bpf/trace.dat' >out; test \$? -eq 1
	"
else
	test_skip 'validate on the recorded runs' "no $SHARED_TRACES/*-bpf (a user's clone has none)"
fi

# snap_col DIR CLASS SIGNAL COL: column COL (3 exact %, 4 within ±2 %, 7 max) of
# SIGNAL's line in the class whose title starts with CLASS, in validate --truth's
# output for DIR (run once per DIR)
snap_col() {
	[ -s "snap-$1.out" ] ||
		cfsreplay validate --truth "$SHARED_TRACES/$1/truth.jsonl" \
			"$SHARED_TRACES/$1/trace.dat" >"snap-$1.out" || return 1
	awk -v c="$2" -v s="$3" -v col="$4" '
		/^[a-z].*: [0-9]+ rows$/ { on = index($0, c) == 1 }
		on && $1 == s { print $col; exit }' "snap-$1.out"
}

# snap_min DIR CLASS SIGNAL COL MIN: that column is at least MIN
snap_min() {
	v=$(snap_col "$1" "$2" "$3" "$4") && echo "# $1, $2, $3, column $4: $v" &&
	awk -v v="$v" -v m="$5" 'BEGIN { exit !(v != "" && v >= m) }'
}

# snap_max DIR CLASS SIGNAL COL MAX: that column is at most MAX
snap_max() {
	v=$(snap_col "$1" "$2" "$3" "$4") && echo "# $1, $2, $3, column $4: $v" &&
	awk -v v="$v" -v m="$5" 'BEGIN { exit !(v != "" && v <= m) }'
}

S="tasks sleeping"
G="group cfs_rqs, snapshots 500 ms"
if [ -f "$SHARED_TRACES/periodic/truth.jsonl" ]; then
	test_expect_success 'snapshots: both modes are exclusive' "
		cfsreplay validate --truth x --pelt y '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2
	"
	test_expect_success 'snapshots: every cpu row is a clock reading at its own instant' "
		snap_col periodic '$S' load_avg 2 >/dev/null &&
		grep -q '^clock: *430 readings, each at its rq.s clock update;' snap-periodic.out
	"
	# sleeping tasks: util_avg and runnable_avg exact and within 2, load_avg within 2
	test_expect_success 'snapshots, periodic: sleeping util_avg exact >= 77 %, within 2 >= 95 %, max <= 30' "
		snap_min periodic '$S' util_avg 3 77 && snap_min periodic '$S' util_avg 4 95 &&
		snap_max periodic '$S' util_avg 7 30
	"
	test_expect_success 'snapshots, periodic: sleeping runnable_avg exact >= 64 %, within 2 >= 92 %, max <= 30' "
		snap_min periodic '$S' runnable_avg 3 64 && snap_min periodic '$S' runnable_avg 4 92 &&
		snap_max periodic '$S' runnable_avg 7 30
	"
	test_expect_success 'snapshots, periodic: sleeping load_avg within 2 >= 91 %, util_est >= 44 %' "
		snap_min periodic '$S' load_avg 4 91 && snap_min periodic '$S' util_est 4 44 &&
		snap_max periodic '$S' util_est 7 30
	"
	test_expect_success 'snapshots, periodic-bpf: sleeping rows within 2 >= 97 %, max <= 45' "
		for s in load_avg runnable_avg util_avg util_est; do
			snap_min periodic-bpf '$S' \$s 4 97 || return 1
		done &&
		snap_min periodic-bpf '$S' util_avg 3 80 && snap_min periodic-bpf '$S' runnable_avg 3 77 &&
		snap_max periodic-bpf '$S' util_avg 7 30 && snap_max periodic-bpf '$S' runnable_avg 7 30 &&
		snap_max periodic-bpf '$S' load_avg 7 45
	"
	test_expect_success 'snapshots, nice: sleeping util/runnable within 2 >= 98 %, load >= 88 %, max <= 30' "
		snap_min nice '$S' util_avg 4 98 && snap_min nice '$S' runnable_avg 4 99 &&
		snap_max nice '$S' util_avg 7 30 && snap_max nice '$S' runnable_avg 7 30 &&
		snap_min nice '$S' load_avg 4 88 && snap_min nice '$S' util_est 4 89
	"
	# the workers forked in the trace start in their parent's group, moved at their attach
	test_expect_success 'snapshots, cgroups: sleeping util/runnable within 2 >= 92 %, max <= 30' "
		snap_min cgroups '$S' util_avg 4 93 && snap_min cgroups '$S' runnable_avg 4 92 &&
		snap_min cgroups '$S' load_avg 4 88 && snap_min cgroups '$S' util_avg 3 74 &&
		snap_min cgroups '$S' util_est 4 85 &&
		for s in load_avg runnable_avg util_avg util_est; do
			snap_max cgroups '$S' \$s 7 30 || return 1
		done
	"
	test_expect_success 'snapshots, cgroups: the workers move at the cpu hierarchy.s attaches' "
		grep -q '^groups: *4 moves at the cpu controller.s cgroup_attach_task, 4 attaches of other hierarchies;' snap-cgroups.out &&
		grep -q 'compared rows of tasks the model had in another group: 0\$' snap-cgroups.out
	"
	test_expect_success 'snapshots: group cfs_rqs 500 ms in, load_avg within 2 >= 80 % on all four runs' "
		snap_min periodic-bpf '$G' load_avg 4 80 && snap_min cgroups '$G' load_avg 4 82 &&
		snap_min periodic '$G' load_avg 4 84 && snap_min nice '$G' load_avg 4 80
	"
else
	test_skip 'validate --truth on the recorded runs' "no $SHARED_TRACES (a user's clone has none)"
fi
test_done

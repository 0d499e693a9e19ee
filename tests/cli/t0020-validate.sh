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
	test_expect_success 'periodic-bpf: task updates exact >= 99 %' 'min_exact periodic-bpf task 99'
	test_expect_success 'cgroups-bpf: task updates exact >= 98.5 %' 'min_exact cgroups-bpf task 98.5'
	test_expect_success 'periodic-bpf: group cfs_rq updates exact >= 97.5 %' \
		'min_exact periodic-bpf "group cfs_rq" 97.5'
	test_expect_success 'cgroups-bpf: group cfs_rq updates exact >= 97 %' \
		'min_exact cgroups-bpf "group cfs_rq" 97'
	test_expect_success 'periodic-bpf: group entity updates exact >= 92 %' \
		'min_exact periodic-bpf "group entity" 92'
	test_expect_success 'cgroups-bpf: group entity updates exact >= 95 %' \
		'min_exact cgroups-bpf "group entity" 95'
	test_expect_success 'periodic-bpf: root cfs_rq updates exact >= 87 %' \
		'min_exact periodic-bpf "root cfs_rq" 87'
	test_expect_success 'cgroups-bpf: root cfs_rq updates exact >= 91 %' \
		'min_exact cgroups-bpf "root cfs_rq" 91'
	test_expect_success 'periodic-bpf: group entity weights within 1 % >= 96 %' \
		'min_within1 periodic-bpf "group entity weight" 96'
	test_expect_success 'cgroups-bpf: group entity weights within 1 % >= 99 %' \
		'min_within1 cgroups-bpf "group entity weight" 99'
	test_expect_success 'periodic-bpf: tg_load_avg within 1 % >= 95 %' \
		'min_within1 periodic-bpf tg_load_avg 95'
	test_expect_success 'cgroups-bpf: tg_load_avg within 1 % >= 98.5 %' \
		'min_within1 cgroups-bpf tg_load_avg 98.5'
	test_expect_success 'periodic-bpf: tg_load_avg_contrib within 1 % >= 99 %' \
		'min_within1 periodic-bpf tg_load_avg_contrib 99'
	test_expect_success 'cgroups-bpf: tg_load_avg_contrib within 1 % >= 99 %' \
		'min_within1 cgroups-bpf tg_load_avg_contrib 99'
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

# snap_min DIR SIGNAL PCT: sleeping tasks' SIGNAL within ±2 in at least PCT % of rows
snap_min() {
	cfsreplay validate --truth "$SHARED_TRACES/$1/truth.jsonl" "$SHARED_TRACES/$1/trace.dat" >out &&
	pct=$(awk -v s="$2" '/^tasks sleeping/ { on = 1 } /^all tasks/ { on = 0 } on && $1 == s { print $4 }' out) &&
	echo "# $1 $2: $pct % within 2" &&
	awk -v p="$pct" -v m="$3" 'BEGIN { exit !(p >= m) }'
}

if [ -f "$SHARED_TRACES/periodic/truth.jsonl" ]; then
	test_expect_success 'snapshots: both modes are exclusive' "
		cfsreplay validate --truth x --pelt y '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2
	"
	test_expect_success 'snapshots, periodic: sleeping util_avg within 2 on >= 69 %' 'snap_min periodic util_avg 69'
	test_expect_success 'snapshots, periodic-bpf: sleeping util_avg within 2 on >= 63 %' 'snap_min periodic-bpf util_avg 63'
	test_expect_success 'snapshots, periodic-bpf: sleeping load_avg within 2 on >= 47 %' 'snap_min periodic-bpf load_avg 47'
	test_expect_success 'snapshots, nice: sleeping util_avg within 2 on >= 88 %' 'snap_min nice util_avg 88'
	test_expect_success 'snapshots, nice: sleeping util_est within 2 on >= 37 %' 'snap_min nice util_est 37'
else
	test_skip 'validate --truth on the recorded runs' "no $SHARED_TRACES (a user's clone has none)"
fi
test_done

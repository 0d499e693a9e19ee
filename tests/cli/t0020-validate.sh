#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# validate --pelt: the model in lock-step with the kernel's own PELT records,
# on the recorded runs beside the checkout that carry them.  The thresholds
# are the fidelity measured when they were set: a regression fails here.
. "$(dirname "$0")/lib.sh"

# min_exact DIR PCT: at least PCT % of task updates exact in every field
min_exact() {
	cfsreplay validate --pelt "$SHARED_TRACES/$1/pelt.jsonl.gz" "$SHARED_TRACES/$1/trace.dat" >out &&
	pct=$(sed -n 's/.*all fields exact: [0-9]* (\([0-9.]*\) %).*/\1/p' out) &&
	echo "# $1: $pct % of task updates exact" &&
	awk -v p="$pct" -v m="$2" 'BEGIN { exit !(p >= m) }'
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
if [ -f "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" ]; then
	test_expect_success 'periodic-bpf: task updates exact >= 79 %' 'min_exact periodic-bpf 79'
	test_expect_success 'cgroups-bpf: task updates exact >= 91 %' 'min_exact cgroups-bpf 91'
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
	test_expect_success 'snapshots, periodic: sleeping util_avg within 2 on >= 52 %' 'snap_min periodic util_avg 52'
	test_expect_success 'snapshots, periodic-bpf: sleeping util_avg within 2 on >= 60 %' 'snap_min periodic-bpf util_avg 60'
	test_expect_success 'snapshots, nice: sleeping util_est within 2 on >= 38 %' 'snap_min nice util_est 38'
else
	test_skip 'validate --truth on the recorded runs' "no $SHARED_TRACES (a user's clone has none)"
fi
test_done

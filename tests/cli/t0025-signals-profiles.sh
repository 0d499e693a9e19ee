#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals --kernel: each release maps to the profile its version history
# gives (ranges from MODEL.md section 6 and docs/PROFILES.md, written out
# here independently of lib/profile.c).  Releases before v5.7 replay
# under the older models, named on stderr, and their rows have the
# columns of their kernel's signals; v5.7-v6.11
# replay (CFS, then EEVDF without delayed dequeue), labelled what-if on a
# trace of another kernel.
. "$(dirname "$0")/lib.sh"

HEAD_OLD=ts_ns,cpu,entity,pid,path,comm,load_weight
LEGACY=$HEAD_OLD,runnable_avg_sum,avg_period,load_avg_contrib,decay_count,runnable_load_avg,blocked_load_avg,decay_counter,last_update_time
LEGACY_UTIL=$HEAD_OLD,runnable_avg_sum,avg_period,running_avg_sum,load_avg_contrib,util_avg,decay_count,runnable_load_avg,blocked_load_avg,decay_counter,last_update_time
V4=$HEAD_OLD,load_sum,runnable_load_sum,util_sum,period_contrib,load_avg,runnable_load_avg,util_avg,last_update_time
V4_UE=$HEAD_OLD,load_sum,runnable_load_sum,util_sum,period_contrib,load_avg,runnable_load_avg,util_avg,util_est,last_update_time

# older KERNEL PROFILE HEADER: named on stderr, rows under HEADER, and
# report names the profile
older() {
	cfsreplay signals --kernel "$1" "$TRACES/periodic.dat" >out 2>err &&
	grep -qF "model $2: the columns of its generation" err &&
	test "$(head -1 out)" = "$3" &&
	test "$(wc -l <out)" -gt 100 &&
	cfsreplay report --kernel "$1" "$TRACES/periodic.dat" >rep &&
	grep -qF "model    $2 (what-if" rep &&
	! grep -q 'flattened' rep
}

test_expect_success 'legacy PELT releases replay under their profile' "
	older 3.8 'v3.8-v3.12 legacy PELT' '$LEGACY' &&
	older 3.12.74 'v3.8-v3.12 legacy PELT' '$LEGACY' &&
	older 3.13.0 'v3.13-v4.0 legacy PELT' '$LEGACY' &&
	older 3.19.8 'v3.13-v4.0 legacy PELT' '$LEGACY' &&
	older 4.1.52 'v4.1-v4.2 legacy PELT, utilization' '$LEGACY_UTIL'
"
test_expect_success 'v4.3-v5.6 releases replay under their profile' "
	older 4.4.302 'v4.3-v4.6 load_avg/util_avg' '$V4' &&
	older 4.9.219 'v4.7-v4.9.219 load_avg/util_avg' '$V4' &&
	older 4.9.337 'v4.9.220-v4.9.y load_avg/util_avg' '$V4' &&
	older 4.10.17 'v4.10-v4.11 load_avg/util_avg' '$V4' &&
	older 4.11.12 'v4.10-v4.11 load_avg/util_avg' '$V4' &&
	older 4.12.14 'v4.12 load_avg/util_avg' '$V4' &&
	older 4.14.176 'v4.13-v4.14.176 load_avg/util_avg' '$V4' &&
	older 4.14.336 'v4.14.177-v4.14.y load_avg/util_avg' '$V4' &&
	older 4.19.115 'v4.15-v4.19.115 runnable_load_avg' '$V4_UE' &&
	older 4.19.325 'v4.19.116-v4.19.y runnable_load_avg' '$V4_UE' &&
	older 5.0.21 'v4.20-v5.0 runnable_load_avg' '$V4_UE' &&
	older 5.4.32 'v5.1-v5.4.32 runnable_load_avg, clock_pelt' '$V4_UE' &&
	older 5.4.290 'v5.4.33-v5.4.y runnable_load_avg, clock_pelt' '$V4_UE' &&
	older 5.5.17 'v5.5.0-v5.5.17 runnable_load_avg, clock_pelt' '$V4_UE' &&
	older 5.5.19 'v5.5.18-v5.5.y runnable_load_avg, clock_pelt' '$V4_UE' &&
	older 5.6.4 'v5.6.0-v5.6.4 runnable_load_avg, clock_pelt' '$V4_UE' &&
	older 5.6.19 'v5.6.5-v5.6.y runnable_load_avg, clock_pelt' '$V4_UE'
"
test_expect_success 'JSON rows of an older model have its keys' "
	cfsreplay signals --kernel 3.18 --format jsonl '$TRACES/periodic.dat' >j 2>/dev/null &&
	python3 -c '
import json, sys
rows = [json.loads(l) for l in open(\"j\")]
keys = [\"load_avg_contrib\", \"blocked_load_avg\", \"runnable_load_avg\", \"decay_count\"]
sys.exit(not rows or any(k not in r for r in rows for k in keys) or
         any(\"runnable_avg\" in r or \"util_avg\" in r for r in rows))
'
"

# replayed KERNEL PROFILE: report names PROFILE, what-if, and signals gives rows
replayed() {
	cfsreplay report --kernel "$1" "$TRACES/periodic.dat" >out 2>err &&
	grep -qF "model    $2 (what-if" out &&
	test "$(cfsreplay signals --kernel "$1" "$TRACES/periodic.dat" | wc -l)" -gt 100
}
# v5.7.7 carries e21cf43406a1 (stable review 5.7.7-rc1); v5.8 brings
# 95d685935a2e, v5.13 the util_est MSB flag, v5.14 the _sum resyncs;
# 5.15.19 and 5.16.5 carry 98b0d890220d, 5.10.113 and 5.15.36 40f5aa4c5eae;
# 5.10.y takes v5.13-v5.17 fixes at 5.10.36, .44, .46, .51 and .96
test_expect_success 'v5.7-v5.16 releases replay under their profile' "
	replayed 5.7.0 'v5.7.0-v5.7.6 CFS, runnable_avg' &&
	replayed 5.7.6 'v5.7.0-v5.7.6 CFS, runnable_avg' &&
	replayed 5.7.7 'v5.7.7-v5.7.y CFS, runnable_avg' &&
	replayed 5.8.0 'v5.8-v5.10.35 CFS, runnable_avg' &&
	replayed 5.10.35 'v5.8-v5.10.35 CFS, runnable_avg' &&
	replayed 5.10.36 'v5.10.36-v5.10.43 CFS, runnable_avg' &&
	replayed 5.10.44 'v5.10.44-v5.10.45 CFS, runnable_avg' &&
	replayed 5.10.46 'v5.10.46-v5.10.50 CFS, runnable_avg' &&
	replayed 5.10.51 'v5.10.51-v5.10.95 CFS, runnable_avg' &&
	replayed 5.10.96 'v5.10.96-v5.10.112 CFS, runnable_avg' &&
	replayed 5.10.112 'v5.10.96-v5.10.112 CFS, runnable_avg' &&
	replayed 5.10.113 'v5.10.113-v5.10.y CFS, runnable_avg' &&
	replayed 5.10.236 'v5.10.113-v5.10.y CFS, runnable_avg' &&
	replayed 5.11.0 'v5.11-v5.12 CFS, runnable_avg' &&
	replayed 5.12.19 'v5.11-v5.12 CFS, runnable_avg' &&
	replayed 5.13.19 'v5.13 CFS, runnable_avg' &&
	replayed 5.14.0 'v5.14-v5.15.18 CFS, runnable_avg' &&
	replayed 5.15.18 'v5.14-v5.15.18 CFS, runnable_avg' &&
	replayed 5.15.19 'v5.15.19-v5.15.35 CFS, runnable_avg' &&
	replayed 5.15.36 'v5.15.36-v5.15.y CFS, runnable_avg' &&
	replayed 5.16.4 'v5.16.0-v5.16.4 CFS, runnable_avg' &&
	replayed 5.16.20 'v5.16.5-v5.16.y CFS, runnable_avg'
"
test_expect_success 'v5.17-v6.7 releases replay under their profile' "
	replayed 5.17.4 'v5.17.0-v5.17.4 CFS, runnable_avg' &&
	replayed 5.17.15 'v5.17.5-v5.17.y CFS, runnable_avg' &&
	replayed 5.18.0 'v5.18-v5.19 CFS, runnable_avg' &&
	replayed 5.19.17 'v5.18-v5.19 CFS, runnable_avg' &&
	replayed 6.0.19 'v6.0 CFS, runnable_avg' &&
	replayed 6.1.140 'v6.1 CFS, runnable_avg' &&
	replayed 6.5.13 'v6.2-v6.5 CFS, runnable_avg' &&
	replayed 6.6.3 'v6.6.0-v6.6.3 EEVDF' &&
	replayed 6.6.4 'v6.6.4-v6.6.29 EEVDF' &&
	replayed 6.6.29 'v6.6.4-v6.6.29 EEVDF' &&
	replayed 6.6.30 'v6.6.30-v6.6.92 EEVDF' &&
	replayed 6.6.92 'v6.6.30-v6.6.92 EEVDF' &&
	replayed 6.6.93 'v6.6.93-v6.6.y EEVDF' &&
	replayed 6.7.12 'v6.7 EEVDF'
"

# model KERNEL: the report's model line of recorded.dat (a 6.18 trace)
model() {
	cfsreplay report ${1:+--kernel "$1"} "$TRACES/recorded.dat" | sed -n 's/^model    //p'
}
test_expect_success 'v6.8-v6.11 replay, labelled what-if on a 6.18 trace' "
	test \"\$(model 6.8.8)\" = 'v6.8.0-v6.8.8 EEVDF (what-if: not the traced kernel'\\''s model)' &&
	test \"\$(model 6.8.12)\" = 'v6.8.9-v6.9 EEVDF (what-if: not the traced kernel'\\''s model)' &&
	test \"\$(model 6.11.11)\" = 'v6.10-v6.11 EEVDF (what-if: not the traced kernel'\\''s model)' &&
	test \"\$(model)\" = 'v6.18.44-v6.18.y EEVDF, delayed dequeue' &&
	test \"\$(model 6.18.3)\" = 'v6.16-v6.18.43 EEVDF, delayed dequeue (what-if: not the traced kernel'\\''s model)' &&
	cfsreplay report --json --kernel 6.11 '$TRACES/recorded.dat' >r.json &&
	python3 -c 'import json,sys; t=json.load(open(\"r.json\"))[\"trace\"]; sys.exit(not (t[\"what_if\"] is True and t[\"model\"] == \"v6.10-v6.11 EEVDF\"))' &&
	cfsreplay report --json '$TRACES/recorded.dat' >r.json &&
	python3 -c 'import json,sys; sys.exit(json.load(open(\"r.json\"))[\"trace\"][\"what_if\"] is not False)'
"

kernel_delayed=$(kernel_delayed_records "$TRACES/recorded.pelt.jsonl.gz")
echo "# kernel records of delayed tasks in recorded.pelt.jsonl.gz: $kernel_delayed"
test_expect_success 'v6.11 never keeps a sleeping task queued; v6.18 does' "
	test \"$kernel_delayed\" -gt 0 &&
	cfsreplay validate --kernel 6.11 --pelt '$TRACES/recorded.pelt.jsonl.gz' \
		'$TRACES/recorded.dat' >v611 &&
	grep -q '^delayed dequeue: *0 sleeps delayed, 0 completed by a pick, 0 requeued' v611 &&
	grep -q 'kernel v6.10-v6.11 EEVDF (what-if)' v611 &&
	grep -q 'kernel task delayed: $kernel_delayed; delayed state differs: $kernel_delayed;' v611 &&
	cfsreplay validate --pelt '$TRACES/recorded.pelt.jsonl.gz' '$TRACES/recorded.dat' >v618 &&
	n=\$(sed -n 's/^delayed dequeue: *\([0-9]*\) sleeps delayed.*/\1/p' v618) &&
	test \"\$n\" -gt 0 &&
	d=\$(sed -n 's/.*delayed state differs: \([0-9]*\);.*/\1/p' v618) &&
	test \"\$d\" -lt \"$kernel_delayed\"
"
test_expect_success 'the two models give different signals of one trace' "
	cfsreplay signals --kernel 6.11 '$TRACES/recorded.dat' >s611 &&
	cfsreplay signals '$TRACES/recorded.dat' >s618 &&
	test \"\$(head -1 s611)\" = \"\$(head -1 s618)\" &&
	test \$(wc -l <s611) -gt 1000 && ! cmp -s s611 s618
"
test_expect_success 'outside v3.8-v6.18 there is no model' "
	cfsreplay signals --kernel 3.7 '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'no model' err && test ! -s out &&
	cfsreplay signals --kernel 6.19 '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'no model' err
"
test_done

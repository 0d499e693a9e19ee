#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals --kernel: each release maps to the profile its version history
# gives (ranges from MODEL.md section 6 and docs/PROFILES.md, written out
# here independently of lib/profile.c); releases whose engine is not
# implemented (before v5.7) are refused with that profile's name and
# nothing on stdout.  v5.7-v6.11 replay (CFS, then EEVDF without delayed
# dequeue), labelled what-if on a trace of another kernel.
. "$(dirname "$0")/lib.sh"

refused() {
	cfsreplay signals --kernel "$1" "$TRACES/periodic.dat" >out 2>err
	test $? -eq 2 && test ! -s out &&
	grep -qF "($2)" err && grep -q 'not implemented yet' err &&
	grep -q 'arithmetic exists' err
}

test_expect_success 'legacy PELT releases name their profile' "
	refused 3.8 'v3.8-v3.12 legacy PELT' &&
	refused 3.12.74 'v3.8-v3.12 legacy PELT' &&
	refused 3.13.0 'v3.13-v4.0 legacy PELT' &&
	refused 3.19.8 'v3.13-v4.0 legacy PELT' &&
	refused 4.1.52 'v4.1-v4.2 legacy PELT, utilization'
"
test_expect_success 'v4.3-v5.6 releases name their profile' "
	refused 4.4.302 'v4.3-v4.6 load_avg/util_avg' &&
	refused 4.9.337 'v4.7-v4.11 load_avg/util_avg' &&
	refused 4.12.14 'v4.12 load_avg/util_avg' &&
	refused 4.14.336 'v4.13-v4.14 load_avg/util_avg' &&
	refused 4.19.325 'v4.15-v5.6 runnable_load_avg' &&
	refused 5.4.290 'v4.15-v5.6 runnable_load_avg'
"
test_expect_success 'the last v4.15-v5.6 release is still refused' "
	refused 5.6.19 'v4.15-v5.6 runnable_load_avg' &&
	grep -q 'implemented: v5.7-v6.18' err
"

# replayed KERNEL PROFILE: report names PROFILE, what-if, and signals gives rows
replayed() {
	cfsreplay report --kernel "$1" "$TRACES/periodic.dat" >out 2>err &&
	grep -qF "model    $2 (what-if" out &&
	test "$(cfsreplay signals --kernel "$1" "$TRACES/periodic.dat" | wc -l)" -gt 100
}
# v5.7.7 carries e21cf43406a1 (stable review 5.7.7-rc1); v5.8 brings
# 95d685935a2e, v5.13 the util_est MSB flag, v5.14 the _sum resyncs
test_expect_success 'v5.7-v5.16 releases replay under their profile' "
	replayed 5.7.0 'v5.7.0-v5.7.6 CFS, runnable_avg' &&
	replayed 5.7.6 'v5.7.0-v5.7.6 CFS, runnable_avg' &&
	replayed 5.7.7 'v5.7.7-v5.7.y CFS, runnable_avg' &&
	replayed 5.8.0 'v5.8-v5.12 CFS, runnable_avg' &&
	replayed 5.10.236 'v5.8-v5.12 CFS, runnable_avg' &&
	replayed 5.12.19 'v5.8-v5.12 CFS, runnable_avg' &&
	replayed 5.13.19 'v5.13 CFS, runnable_avg' &&
	replayed 5.14.0 'v5.14-v5.16 CFS, runnable_avg' &&
	replayed 5.16.20 'v5.14-v5.16 CFS, runnable_avg'
"
test_expect_success 'v5.17-v6.7 releases replay under their profile' "
	replayed 5.17.15 'v5.17 CFS, runnable_avg' &&
	replayed 5.18.0 'v5.18-v5.19 CFS, runnable_avg' &&
	replayed 5.19.17 'v5.18-v5.19 CFS, runnable_avg' &&
	replayed 6.0.19 'v6.0 CFS, runnable_avg' &&
	replayed 6.1.140 'v6.1 CFS, runnable_avg' &&
	replayed 6.5.13 'v6.2-v6.5 CFS, runnable_avg' &&
	replayed 6.6.93 'v6.6 EEVDF' &&
	replayed 6.7.12 'v6.7 EEVDF'
"

# model KERNEL: the report's model line of recorded.dat (a 6.18 trace)
model() {
	cfsreplay report ${1:+--kernel "$1"} "$TRACES/recorded.dat" | sed -n 's/^model    //p'
}
test_expect_success 'v6.8-v6.11 replay, labelled what-if on a 6.18 trace' "
	test \"\$(model 6.8.12)\" = 'v6.8-v6.9 EEVDF (what-if: not the traced kernel'\\''s model)' &&
	test \"\$(model 6.11.11)\" = 'v6.10-v6.11 EEVDF (what-if: not the traced kernel'\\''s model)' &&
	test \"\$(model)\" = 'v6.16-v6.18 EEVDF, delayed dequeue' &&
	test \"\$(model 6.18.3)\" = 'v6.16-v6.18 EEVDF, delayed dequeue' &&
	cfsreplay report --json --kernel 6.11 '$TRACES/recorded.dat' >r.json &&
	python3 -c 'import json,sys; t=json.load(open(\"r.json\"))[\"trace\"]; sys.exit(not (t[\"what_if\"] is True and t[\"model\"] == \"v6.10-v6.11 EEVDF\"))' &&
	cfsreplay report --json '$TRACES/recorded.dat' >r.json &&
	python3 -c 'import json,sys; sys.exit(json.load(open(\"r.json\"))[\"trace\"][\"what_if\"] is not False)'
"

# the kernel's own delayed task records in recorded.pelt.jsonl.gz
kernel_delayed=$(python3 -c '
import gzip, json, sys
n = 0
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    if r.get("type") == "se" and r.get("ts", -1) >= 0 and r.get("sched_delayed", 0) > 0:
        n += 1
print(n)
' "$TRACES/recorded.pelt.jsonl.gz")
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

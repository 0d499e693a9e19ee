#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# update_blocked_averages() under the older models (v3.8-v5.6), which run
# free of the kernel's values in validate: where the kernel's records of
# traces/recorded.dat show a cfs_rq update after which no event acts on
# its CPU within 50 us, the model makes its own release's pass on that
# CPU (cfsr_replay_blocked_averages()).
#  - the passes are where the trace and the kernel's records put them,
#    whatever the model: the same count under 3.18, 4.1, 4.9, 4.12, 4.19
#    and 5.4, more than none, and at most one per CPU per 50 us cluster of
#    the kernel's cfs_rq records (counted here from the pelt.jsonl with
#    python);
#  - a v5.7+ model takes the kernel's values and keeps its own line.
. "$(dirname "$0")/lib.sh"

REC=$TRACES/recorded.dat

passes() {
	cfsreplay validate --kernel "$1" "$REC" |
		sed -n 's/^blocked-load updates: \([0-9]*\) update_blocked_averages() passes.*/\1/p'
}

test_expect_success 'older models: the kernel'"'"'s passes, the same for every model' '
	for k in 3.18 4.1 4.9 4.12 4.19 5.4; do passes $k; done >n.txt &&
	test $(wc -l <n.txt) -eq 6 && test $(sort -u n.txt | wc -l) -eq 1 &&
	n=$(head -1 n.txt) && test "$n" -gt 0 &&
	gzip -dc "$TRACES/recorded.pelt.jsonl.gz" | python3 -c "
import json, sys
last, clusters = {}, 0
for line in sys.stdin:
    r = json.loads(line)
    if r.get(\"type\") != \"cfs\":
        continue
    c, ts = r[\"rq_cpu\"], r[\"ts\"]
    if c not in last or ts >= last[c] + 50000:
        clusters, last[c] = clusters + 1, ts
print(clusters)" >c.txt &&
	test "$n" -le $(cat c.txt)
'

test_expect_success 'a v5.7+ model publishes at the record, as before' '
	cfsreplay validate --kernel 6.18 "$REC" >v.txt &&
	grep -q "^blocked-load updates: [0-9]* group cfs_rq updates no event followed" v.txt
'

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The PELT clock of each release (cfsr_profile_clock_pelt()): from v5.1
# rq_clock_pelt(), a PELT record's clock_pelt - lost_idle_time; before,
# cfs_rq_clock_task(), its clock_task.  On the machine of
# traces/recorded.dat (capacity 1024, no frequency invariance) the two
# agree in every record (checked here with python), so signals with its
# records as clock readings gives the same rows under 5.0 and 5.4 (one
# arithmetic, v4.15's).  A copy of the records with CPU 1's lost_idle_time
# raised by 1 ms moves only the v5.1+ clock: the rows under 5.0 stay as
# they were, those under 5.4 change.
. "$(dirname "$0")/lib.sh"

REC=$TRACES/recorded.dat
PELT=$TRACES/recorded.pelt.jsonl.gz

test_expect_success 'the records: clock_task = clock_pelt - lost_idle_time' '
	gzip -dc "$PELT" | python3 -c "
import json, sys
n = bad = 0
for line in sys.stdin:
    r = json.loads(line)
    if \"clock_pelt\" not in r:
        continue
    n += 1
    bad += r[\"clock_task\"] != r[\"clock_pelt\"] - r[\"lost_idle_time\"]
assert n > 1000 and bad == 0, (n, bad)"
'

test_expect_success 'the same rows under 5.0 and 5.4 on these records' '
	cfsreplay signals --kernel 5.0 --clock "$PELT" "$REC" >a-5.0 2>/dev/null &&
	cfsreplay signals --kernel 5.4 --clock "$PELT" "$REC" >a-5.4 2>/dev/null &&
	test $(wc -l <a-5.0) -gt 1000 && cmp a-5.0 a-5.4
'

test_expect_success 'lost idle time moves the v5.1+ clock only' '
	gzip -dc "$PELT" | python3 -c "
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get(\"rq_cpu\") == 1 and \"lost_idle_time\" in r:
        r[\"lost_idle_time\"] += 1000000
    sys.stdout.write(json.dumps(r) + \"\\n\")" >lost.pelt.jsonl &&
	cfsreplay signals --kernel 5.0 --clock lost.pelt.jsonl "$REC" >b-5.0 2>/dev/null &&
	cfsreplay signals --kernel 5.4 --clock lost.pelt.jsonl "$REC" >b-5.4 2>/dev/null &&
	cmp a-5.0 b-5.0 && ! cmp -s a-5.4 b-5.4
'

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Lock-step tells a read of a task's run time from a tick by the kernel's
# records: a run-time report no event followed, half a tick or more after
# its CPU's last tick, whose update would have crossed a PELT period of
# the task (so pelt_se_tp would have fired) with no record of the task
# after it, was no tick.  scripts/tick-records.py counts those reports
# from trace-cmd's text and the capture alone; validate's count of them
# ("no tick's record showed", whether taken as reads or as the pick of a
# wakeup's preemption off the ticks' grid) is the same on traces/groups-solo.dat and
# traces/groups-split.dat; the free-running models (no records) count
# none.
. "$(dirname "$0")/lib.sh"

CHECK=$SRC_DIR/scripts/tick-records.py

for t in groups-solo groups-split; do
	test_expect_success "$t: the reads the records show, counted apart" "
		trace-cmd report -t -N '$TRACES/$t.dat' >$t.txt 2>/dev/null &&
		python3 '$CHECK' $t.txt '$TRACES/$t.pelt.jsonl.gz' 250 >$t.ref &&
		read -r _ cand _ want <$t.ref &&
		test \$cand -ge 100 && test \$want -ge 1 &&
		cfsreplay validate --pelt '$TRACES/$t.pelt.jsonl.gz' '$TRACES/$t.dat' >$t.out 2>/dev/null &&
		got=\$(sed -n 's/.* picks off the ticks. grid after a wakeup (\\([0-9]*\\) of these reports no tick.s record showed).*\$/\\1/p' $t.out) &&
		echo \"want \$want got \$got\" &&
		test \"\$got\" = \"\$want\"
	"
done

test_expect_success 'a free-running model takes no reads from records' "
	cfsreplay validate --kernel 5.4 --pelt '$TRACES/groups-split.pelt.jsonl.gz' '$TRACES/groups-split.dat' >old.out 2>/dev/null &&
	grep -q ' (0 of these reports no tick.s record showed)' old.out
"

test_done

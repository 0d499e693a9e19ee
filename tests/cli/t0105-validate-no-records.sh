#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# validate of a trace that carries no kernel records, with none given and
# none beside it: only a trace.dat of 'cfsreplay record' embeds snapshots.
# A perf.data (binary) or a text trace is refused with one line that says
# what is missing and how to give it (--pelt FILE, --truth FILE, the file
# beside the trace), exit 2, never read as a truth.jsonl (which stopped
# at the perf.data's first NUL byte).  With the named file put beside
# it, the same command runs.
. "$(dirname "$0")/lib.sh"

# exits N CMD...: CMD ends with status N (2 is an error; a crash is 128 + signal)
exits() {
	local want=$1
	shift
	"$@"
	test $? -eq "$want"
}

test_expect_success 'a perf.data alone: a clear error naming --pelt and --truth, exit 2' '
	cp "$TRACES/perf-groups.perf.data" run.perf.data &&
	exits 2 cfsreplay validate run.perf.data >out 2>err &&
	test ! -s out && test "$(wc -l <err)" = 1 &&
	grep -q "^cfsreplay: validate: .run.perf.data. is a perf.data, which carries no kernel records of the run" err &&
	grep -q -- "--pelt FILE" err && grep -q -- "--truth FILE" err &&
	grep -q "run.perf.data.pelt.jsonl.gz" err &&
	! grep -q "NUL byte" err
'

test_expect_success 'the same with --truth naming the perf.data itself' '
	exits 2 cfsreplay validate --truth run.perf.data run.perf.data 2>err &&
	grep -q "carries no kernel records of the run" err && ! grep -q "NUL byte" err
'

test_expect_success 'a text trace alone: the same error' '
	cp "$TRACES/perf-pair.trace.txt.gz" run.txt.gz &&
	exits 2 cfsreplay validate run.txt.gz >out 2>err &&
	test ! -s out && test "$(wc -l <err)" = 1 &&
	grep -q "run.txt.gz. is a trace-cmd report text (ns), which carries no kernel records of the run" err
'

test_expect_success 'the records put where the error says: validate runs' '
	cp "$TRACES/perf-groups.pelt.jsonl.gz" run.perf.data.pelt.jsonl.gz &&
	cfsreplay validate run.perf.data >out 2>/dev/null &&
	grep -q "^kernel records: *run.perf.data.pelt.jsonl.gz" out
'

test_done

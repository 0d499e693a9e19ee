#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Exec placements: sched_exec() moves the exec'ing task through the
# migration stopper before sched_process_exec; the report counts those
# moves as "exec", judged by find_idlest_cpu() with the task taken off its
# CPU, not as migrations.  scripts/idlewait-check.py finds them on its own
# from trace-cmd's text (the stopper's sched_migrate_task of the task
# switched out for it, then that task's exec) and judges them the same way.
# A sched_process_exec without such a move is sched_exec()'s choice of the
# task's own CPU: counted as an exec that stayed (placement.exec_stayed),
# judged at the exec event; the script finds and judges those on its own.
. "$(dirname "$0")/lib.sh"

# exec_matches TRACE: report's exec counts are the script's
exec_matches() {
	python3 "$SRC_DIR/scripts/idlewait-check.py" "$1" >want.json &&
	cfsreplay report --json "$1" >got.json &&
	python3 - <<-PY
	import json
	want = json.load(open("want.json"))["placement"]
	moves, stays = want["exec"], want["exec-stay"]
	p = json.load(open("got.json"))["placement"]
	got = p["counts"]["exec"]
	assert sum(got.values()) == moves["moves"] + stays["execs"], (got, want)
	assert moves["moves"] > 0 and stays["execs"] > 0, want
	assert sum(p["exec_stayed"].values()) == stays["execs"], (p["exec_stayed"], stays)
	for r in ("idle-chosen", "idle-skipped", "fewest-tasks", "load-rule"):
	    assert p["reasons"]["exec"][r] == moves[r] + stays[r], (r, p["reasons"]["exec"], want)
	print("# %s: %d exec moves %s, %d stayed %s" % ("$1", moves["moves"], moves,
	                                               stays["execs"], stays))
	PY
}

if ! command -v trace-cmd >/dev/null; then
	test_skip 'exec placements against the independent script' 'trace-cmd not installed'
else
	test_expect_success 'forkburst.dat: exec placements as the script finds them' '
		exec_matches "$TRACES/forkburst.dat"
	'
	test_expect_success 'unpinned.dat: exec placements as the script finds them' '
		exec_matches "$TRACES/unpinned.dat"
	'
fi

test_expect_success 'text: an exec row and an exec column of reasons, within 100 columns' '
	cfsreplay report "$TRACES/forkburst.dat" >r.out &&
	grep -q "^  exec  " r.out &&
	grep -q "^  wakeup   fork  migr.   exec  reasons$" r.out &&
	test $(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" r.out) -le 100
'

test_expect_success 'compare --json: exec beside the other placement kinds' '
	cfsreplay compare --json "$TRACES/forkburst.dat" "$TRACES/unpinned.dat" >c.json &&
	python3 - <<-PY
	import json
	d = json.load(open("c.json"))
	assert d["format_version"] == 6, d["format_version"]
	for t in d["traces"]:
	    assert set(t["comparators"]["placement"]) == {"wakeup", "fork", "migration", "exec"}, t
	PY
'

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals and validate --pelt on the trace.dat and the perf.data of one run,
# with the kernel's PELT updates (pelt.jsonl.gz) as the clock:
# - the shared -bpf runs (pelt.jsonl on the trace.dat's 'local' clock, the
#   perf.data on perf's local_clock()): the shift signals applies to the
#   records' times equals, within 2 us, local_clock() - sched_clock() as
#   the kernel printed it in the same run's sched_debug header (truth.jsonl
#   cpu_clk - sched_clk); validate --pelt on the perf.data is as exact as
#   on the trace.dat (95 % of task updates at least);
# - scripts/pair-signals.sh compares the signals rows one by one, on the
#   two files cut to one window (scripts/pair-rows.py): the events it finds
#   in one file only are exactly those 'cfsreplay info A B' finds, rows
#   touched by them are left out, and of the rows compared at least the
#   measured share is identical (docs/VALIDATION.md);
# - a run recorded now with both tracers and the capture at once (root,
#   perf, BTF, tracefs instances, trace-cmd): the same checks, with the
#   floors measured on runs recorded here (task rows: 84-96 % of those
#   compared identical over three runs, 65 % on one recorded while make
#   check ran other tests beside it; docs/FORMATS.md).
# Skips, with the reason, what it cannot run.
. "$(dirname "$0")/lib.sh"

PAIR="$SRC_DIR/scripts/pair-signals.sh"
PELTCAP=${HELPER_DIR:-$SRC_DIR/tests/helpers}/pelt-capture
export CFSREPLAY PELTCAP

# rows OUT KIND: "rows compared identical excluded" of KIND in pair-signals output OUT
rows() {
	sed -n "s/^$2 *rows \([0-9]*\) compared \([0-9]*\) identical \([0-9]*\) excluded \([0-9]*\)$/\1 \2 \3 \4/p" "$1"
}

# same_only DIR OUT: the events pair-rows.py found in one file only are
# those info A B finds in the cut files, type by type
same_only() {
	cfsreplay info "$1/a.cut.txt" "$1/b.cut.txt" >"$1/info.txt" &&
	python3 - "$1/info.txt" "$2" <<'PY'
import ast, re, sys
info = {}
for line in open(sys.argv[1]):
    m = re.match(r'(sched_\w+)\s+\d+\s+\d+\s+(\d+)\s+(\d+)$', line)
    if m:
        info[m[1]] = (int(m[2]), int(m[3]))
out = open(sys.argv[2]).read()
a = ast.literal_eval(re.search(r'events only in A: (\{.*\})', out)[1])
b = ast.literal_eval(re.search(r'events only in B: (\{.*\})', out)[1])
for k, (na, nb) in info.items():
    print('# %s only in A: info %d, pair-rows %d; only in B: info %d, pair-rows %d' %
          (k, na, a.get(k, 0), nb, b.get(k, 0)))
    assert (na, nb) == (a.get(k, 0), b.get(k, 0)), k
PY
}

# share OUT KIND MIN_COMPARED_PCT MIN_IDENTICAL_PCT: of KIND's rows, at least
# that share compared, and of those at least that share identical
share() {
	echo "# $2: at least $3 % of the rows compared, $4 % of those identical" &&
	set -- $(rows "$1" "$2") "$3" "$4" &&
	echo "# rows $1, compared $2, identical $3, excluded $4" &&
	test "$1" -gt 0 && test "$2" -gt 0 &&
	test $(($2 * 100)) -ge $(($1 * $5)) && test $(($3 * 100)) -ge $(($2 * $6))
}

if [ -d "$SHARED_TRACES/periodic-bpf" ] && command -v trace-cmd >/dev/null &&
	command -v perf >/dev/null; then
	for d in periodic-bpf cgroups-bpf; do
		T=$SHARED_TRACES/$d
		test_expect_success "$d: signals moves the records onto perf.data's clock by cpu_clk - sched_clk" "
			cfsreplay signals --clock '$T/pelt.jsonl.gz' '$T/perf.data' >/dev/null 2>err &&
			got=\$(sed -n 's/.*moved from clock local onto the trace.s perf by \([-+][0-9]*\) ns.*/\1/p' err) &&
			want=\$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    s = json.loads(line)
    if s.get(\"kind\") == \"snap\":
        print(s[\"cpu_clk\"] - s[\"sched_clk\"])
        break
' '$T/truth.jsonl') &&
			echo \"# shift \$got ns, sched_debug header \$want ns\" &&
			test -n \"\$got\" && test \$((got - want)) -le 2000 && test \$((want - got)) -le 2000
		"
		test_expect_success "$d: validate --pelt on perf.data: 95 % of task updates exact" "
			cfsreplay validate --pelt '$T/pelt.jsonl.gz' '$T/perf.data' >out 2>err &&
			grep -q 'moved from clock local onto' err &&
			pct=\$(sed -n 's/^task updates compared: [0-9]*, all fields exact: [0-9]* (\([0-9]*\)\..*/\1/p' out) &&
			echo \"# \$pct %\" && test \"\$pct\" -ge 95
		"
		test_expect_success "$d: signals rows of trace.dat and perf.data, one by one" "
			PAIR_DIR=\$TRASH/$d bash '$PAIR' '$T/trace.dat' '$T/perf.data' '$T/pelt.jsonl.gz' >out &&
			sed 's/^/# /' out | grep -v '^# [a-z_]*  *[0-9]' &&
			same_only \$TRASH/$d out &&
			share out task 25 94
		"
	done
else
	test_skip 'the shared -bpf pairs' "no $SHARED_TRACES/*-bpf, trace-cmd or perf"
fi

why=
[ "$(id -u)" -eq 0 ] || why="needs root"
[ -n "$why" ] || [ -x "$PELTCAP" ] || why="no $PELTCAP (make builds it)"
[ -n "$why" ] || [ -r /sys/kernel/btf/vmlinux ] || why="the kernel has no BTF"
[ -n "$why" ] || { tracefs_ready && [ -d /sys/kernel/tracing/instances ]; } || why="no tracefs instances"
[ -n "$why" ] || command -v perf >/dev/null || why="no perf"
[ -n "$why" ] || command -v trace-cmd >/dev/null || why="no trace-cmd"
if [ -n "$why" ]; then
	test_skip 'a run recorded now with both tracers' "$why"
else
	# the floors: measured on runs recorded here, docs/VALIDATION.md
	test_expect_success 'a run recorded now: signals rows of both files, one by one' "
		PAIR_SECONDS=1 PAIR_DIR=\$TRASH/now bash '$PAIR' --record \$TRASH/run >out 2>err &&
		sed 's/^/# /' out | grep -v '^# [a-z_]*  *[0-9]' &&
		grep -q \"pelt.jsonl.gz' on the trace's clock (perf)\" out &&
		same_only \$TRASH/now out &&
		share out task 50 50
	"
fi
test_done

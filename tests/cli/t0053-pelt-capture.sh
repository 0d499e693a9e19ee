#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The PELT capture (formats/peltcap.c) on this machine's kernel: a short
# workload recorded twice at once, the kernel's PELT updates by the capture
# (tests/helpers/pelt-capture) and the sched events by a tracefs instance of
# our own (trace clock perf, events enabled by hand, saved with trace-cmd
# extract -B).  Then:
#  - the file parses and 'validate --pelt' consumes it unchanged;
#  - its time axis agrees with the trace's: trace_marker writes bracketed by
#    CLOCK_MONOTONIC readings, the rq clocks, and the lock-step exactness of
#    the model, which collapses when the records are shifted by 2 us;
#  - the records carry the same keys as the published pelt.jsonl.gz files
#    and obey the kernel's PELT period arithmetic (scripts/pelt-check.py).
# Skips, with the reason, without root, BTF, tracefs instances or trace-cmd.
. "$(dirname "$0")/lib.sh"

PELTCAP=${HELPER_DIR:-$SRC_DIR/tests/helpers}/pelt-capture
CHECK="python3 $SRC_DIR/scripts/pelt-check.py"
TRACEFS=/sys/kernel/tracing
CPU_CGROUP=/sys/fs/cgroup/cpu

skip_all() {
	test_skip 'PELT capture' "$1"
	test_done
}

# test bodies' output is shown only on failure; fd 3 reaches the TAP stream
exec 3>&1
[ -x "$PELTCAP" ] || skip_all "no $PELTCAP (make builds it)"
test_expect_success 'without permission: a reason, and the skip status' "
	if [ \$(id -u) -eq 0 ] && command -v setpriv >/dev/null; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups '$PELTCAP' -o \"\$TRASH/x.jsonl\" \
			-- true 2>err; test \$? -eq 77 && grep -q 'no PELT capture: no permission' err &&
		test ! -e \"\$TRASH/x.jsonl\"
	else
		'$PELTCAP' -o x.jsonl -- true 2>err; test \$? -eq 77 && grep -q 'no PELT capture' err
	fi
"
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "the kernel has no BTF"
[ -d $TRACEFS/instances ] || skip_all "no tracefs instances at $TRACEFS"
command -v trace-cmd >/dev/null || skip_all "no trace-cmd"

INSTANCE=cfsr-peltcap-$$
I=$TRACEFS/instances/$INSTANCE
CGROOT=$CPU_CGROUP/cfsr-peltcap-$$
cleanup() {
	[ -d "$I" ] && echo 0 >"$I/tracing_on"
	rmdir "$I" 2>/dev/null
	rmdir "$CGROOT" 2>/dev/null
	rm -rf "$TRASH"
}
trap cleanup EXIT

# record DIR SCENARIO [CGROUP_ROOT]: capture and trace the workload into DIR
record() {
	mkdir -p "$TRASH/$1" && cd "$TRASH/$1" &&
	mkdir "$I" &&
	echo perf >"$I/trace_clock" && echo 16384 >"$I/buffer_size_kb" &&
	for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task \
		sched_process_fork sched_process_exit sched_process_free sched_process_exec \
		sched_stat_runtime sched_pi_setprio; do
		echo 1 >"$I/events/sched/$e/enable" || return 1
	done &&
	echo 1 >"$I/tracing_on" &&
	"$PELTCAP" -o pelt.jsonl.gz -m "$I/trace_marker" -l sync.log -- \
		python3 "$SRC_DIR/scripts/workload.py" "$2" --marker "$I/trace_marker" --seconds 2 \
		${3:+--cgroup-root "$3"} >capture.out &&
	echo 0 >"$I/tracing_on" &&
	trace-cmd extract -B "$INSTANCE" -o trace.dat >extract.out 2>&1 &&
	if grep -i 'lost' extract.out; then return 1; fi &&
	cat capture.out | sed 's/^/# /'
	local status=$?
	rmdir "$I" 2>/dev/null
	return $status
}

# exact DIR PELTFILE: percent of task updates exact in every field
exact() {
	cfsreplay validate --pelt "$2" "$TRASH/$1/trace.dat" >"$TRASH/$1/validate.out" &&
	sed -n 's/^task updates .*all fields exact: [0-9]* (\([0-9.]*\) %).*/\1/p' "$TRASH/$1/validate.out"
}

# shifted FILE NS: FILE with every ts moved by NS
shifted() {
	python3 -c '
import gzip, json, sys
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    if "ts" in r:
        r["ts"] += int(sys.argv[2])
    print(json.dumps(r, separators=(",", ":")))
' "$1" "$2"
}

# check DIR WHAT ARGS...: scripts/pelt-check.py WHAT in DIR; its report also
# goes to the TAP stream as a comment (fd 3), its status is the test's
check() {
	local d=$1
	shift
	(cd "$TRASH/$d" && $CHECK "$@" >check.out 2>&1)
	local status=$?
	sed 's/^/# /' "$TRASH/$d/check.out" >&3
	return $status
}

# checks DIR REFERENCE: the checks of one recording
checks() {
	local d=$1 ref=$2 pct early
	# validate is slow on a busy machine: run it once per file, print the numbers
	pct=$(exact "$d" "$TRASH/$d/pelt.jsonl.gz")
	shifted "$TRASH/$d/pelt.jsonl.gz" -2000 >"$TRASH/$d/early.jsonl"
	early=$(exact "$d" "$TRASH/$d/early.jsonl")
	echo "# $d: task updates exact in every field: ${pct:-?} %; with every ts 2 us earlier: ${early:-?} %"
	test_expect_success "$d: header counts match the lines, nothing dropped" "
		check $d lines pelt.jsonl.gz && grep -q 'dropped 0\$' '$TRASH/$d/check.out' &&
		grep -q 'lost 0 ' '$TRASH/$d/capture.out'
	"
	test_expect_success "$d: validate --pelt reads it, in lock-step (>= 45 % exact)" "
		test -n '$pct' && awk -v p='$pct' 'BEGIN { exit !(p >= 45) }'
	"
	test_expect_success "$d: markers bracket the capture's time axis" "
		check $d align pelt.jsonl.gz trace.dat sync.log
	"
	test_expect_success "$d: no record before its rq clock" "check $d clocks pelt.jsonl.gz"
	test_expect_success "$d: task records cross PELT periods as the kernel's do" "
		check $d periods pelt.jsonl.gz
	"
	test_expect_success "$d: shifted 2 us earlier, far fewer updates are exact" "
		test -n '$pct' && test -n '$early' &&
		awk -v p='$pct' -v e='$early' 'BEGIN { exit !(p >= e + 10) }'
	"
	if [ -f "$ref" ]; then
		test_expect_success "$d: the keys of the published pelt.jsonl.gz" "
			check $d keys pelt.jsonl.gz '$ref'
		"
	else
		test_skip "$d: keys of the published files" "no $ref"
	fi
}

if record periodic periodic; then
	test_expect_success 'periodic: recorded' 'true'
	checks periodic "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz"
else
	test_expect_success 'periodic: recorded' 'false'
fi

if [ -d "$CPU_CGROUP" ] && mkdir "$CGROOT" 2>/dev/null; then
	if record cgroups cgroups "$CGROOT"; then
		test_expect_success 'cgroups: recorded, with the cgroup paths' "
			zcat '$TRASH/cgroups/pelt.jsonl.gz' | grep -q '\"tg\":\"/cfsr-peltcap-$$/cfsr-B/child\"'
		"
		checks cgroups "$SHARED_TRACES/cgroups-bpf/pelt.jsonl.gz"
	else
		test_expect_success 'cgroups: recorded' 'false'
	fi
else
	test_skip 'cgroups recording' "no cgroup v1 cpu controller at $CPU_CGROUP"
fi
test_done

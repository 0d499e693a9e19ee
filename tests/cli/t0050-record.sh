#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# record: a real recording on this machine, read back by trace-cmd and by
# our reader (the counts must agree); the recorder stopped by SIGINT and
# SIGTERM, its command killed, its disk full, and no root: after each, the
# recorder's tracefs instance is gone and the top-level tracefs settings are
# as they were found.  Needs root, tracefs and trace-cmd; skipped otherwise.
. "$(dirname "$0")/lib.sh"

T=/sys/kernel/tracing
reason=
if [ "$(id -u)" -ne 0 ]; then
	reason="not root"
elif [ ! -d "$T/instances" ]; then
	reason="no tracefs at $T"
elif ! command -v trace-cmd >/dev/null; then
	reason="trace-cmd not installed"
fi
if [ -n "$reason" ]; then
	for t in 'refuses to overwrite' 'SIGINT' 'SIGTERM' 'command killed' 'disk full' \
		'two cgroups: trace-cmd and our reader agree' 'no root' 'the kernel PELT updates'; do
		test_skip "record: $t" "$reason"
	done
	test_done
fi

# The top-level settings the recorder must never change.
tracefs_state() {
	for f in tracing_on trace_clock buffer_size_kb current_tracer set_event \
		saved_cmdlines_size tracing_cpumask trace_options; do
		printf '%s: ' "$f"
		tr '\n' ' ' <"$T/$f"
		echo
	done
}
tracefs_state >"$TRASH/state.before"

# same_state PID: the recorder PID's instance is gone, the top level unchanged
same_state() {
	test ! -e "$T/instances/cfsreplay-record-$1" &&
	tracefs_state >state.after && diff -u "$TRASH/state.before" state.after
}

# record_bg OUT SIGNAL: record a long sleep, stop the recorder with SIGNAL
# (run directly, not through the cfsreplay function: $! must be the recorder)
record_bg() {
	$VALGRIND "$CFSREPLAY" record -o "$1" --buffer-kb 1024 -- sleep 60 >out 2>err &
	pid=$!
	# the signal handlers are in place before the instance exists
	i=0
	while [ ! -d "$T/instances/cfsreplay-record-$pid" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
	kill -"$2" $pid
	wait $pid
}

test_expect_success 'record: refuses to overwrite an existing file without -f' '
	echo precious >x.dat &&
	{ cfsreplay record -o x.dat --duration 0.2 >out 2>err; test $? -eq 2; } &&
	grep -q "exists; use -f" err && test "$(cat x.dat)" = precious &&
	cfsreplay record -f -o x.dat --duration 0.2 2>err &&
	trace-cmd report x.dat >/dev/null 2>&1
'

test_expect_success 'record: SIGINT stops it, the trace is written, tracefs as found' '
	record_bg int.dat INT && grep -q "stopped by Interrupt" err &&
	trace-cmd report int.dat >/dev/null && same_state $pid
'

test_expect_success 'record: SIGTERM stops it, the trace is written, tracefs as found' '
	record_bg term.dat TERM && grep -q "stopped by Terminated" err &&
	trace-cmd report term.dat >/dev/null && same_state $pid
'

test_expect_success 'record: the command killed with SIGKILL ends the recording cleanly' '
	$VALGRIND "$CFSREPLAY" record -o kill.dat -- sh -c "echo \$\$ >cmd.pid; exec sleep 60" 2>err &
	pid=$! &&
	while [ ! -s cmd.pid ]; do sleep 0.1; done &&
	sleep 0.5 && kill -KILL "$(cat cmd.pid)" && wait $pid &&
	grep -q "killed by Killed" err &&
	sched=$(trace-cmd report kill.dat 2>/dev/null | grep -c "sched_process_exit:.*pid=$(cat cmd.pid) ") &&
	test "$sched" -eq 1 && same_state $pid
'

test_expect_success 'record: a full disk is a clear error, and tracefs is as found' '
	mkdir small &&
	unshare -m sh -c "mount -t tmpfs -o size=64k none small &&
		exec \"$CFSREPLAY\" record -o small/full.dat --buffer-kb 2048 -- sh -c \
			\"echo \\\$PPID >rec.pid; dd if=/dev/zero of=small/filler bs=1k count=60 2>/dev/null;
			  i=0; while [ \\\$i -lt 400 ]; do /bin/true; i=\\\$((i+1)); done\"" >out 2>err
	rc=$? &&
	test $rc -eq 2 && grep -q "No space left on device" err && same_state "$(cat rec.pid)"
'

# Two cpu cgroups with known shares: made before the recording (metadata),
# a third made and removed during it (events), tasks attached during it.
CG=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
if [ -n "$CG" ] && [ -w "$CG/cpu.shares" ]; then
	A=$CG/cfsr-rec-$$-a
	B=$CG/cfsr-rec-$$-b
	cleanup_groups() {
		for g in "$A/tmp" "$A" "$B"; do
			[ -d "$g" ] || continue
			for p in $(cat "$g/cgroup.procs"); do echo "$p" >"$CG/cgroup.procs"; done
			rmdir "$g"
		done
	}
	trap 'cleanup_groups; rm -rf "$TRASH"' EXIT
	mkdir "$A" "$B" && echo 512 >"$A/cpu.shares" && echo 2048 >"$B/cpu.shares"
	cat >"$TRASH/two-groups.sh" <<-EOF
		#!/bin/sh
		spin() { echo \$\$ >"\$1/cgroup.procs"; exec timeout 3 sh -c 'while :; do :; done'; }
		mkdir "$A/tmp" && echo 256 >"$A/tmp/cpu.shares"
		(spin "$A") & (spin "$A") & (spin "$B") &
		sleep 0.5; rmdir "$A/tmp"
		wait
	EOF
	test_expect_success 'record: two cgroups: trace-cmd and our reader agree' '
		cfsreplay record --no-pelt --truth=100 -o cg.dat -- sh two-groups.sh 2>err &&
		"$SRC_DIR/scripts/trace-counts.sh" cg.dat >counts.trace-cmd 2>tc.err &&
		counts_of cg.dat >counts.ours && diff -u counts.trace-cmd counts.ours &&
		trace-cmd report cg.dat >report 2>/dev/null &&
		test ! -s tc.err &&
		grep -q "^cgroup_attach_task [3-9]" counts.ours &&
		test "$(grep -c "cgroup_mkdir: .*cfsr-rec-$$-a/tmp" report)" -eq 1 &&
		test "$(grep -c "cgroup_rmdir: .*cfsr-rec-$$-a/tmp" report)" -eq 1 &&
		python3 -c "
import json, sys
d = json.load(open(\"info.json\"))
m = d[\"record_meta\"]
groups = {g[\"path\"]: g for h in m[\"cgroup_hierarchies\"] for g in h[\"groups\"]}
assert groups[\"/cfsr-rec-$$-a\"][\"cpu.shares\"] == 512, groups
assert groups[\"/cfsr-rec-$$-b\"][\"cpu.shares\"] == 2048, groups
marks = sum(1 for l in open(\"report\") if \": truth-begin \" in l)
assert d[\"embedded_truth\"] and m[\"recording\"][\"snapshots\"] == marks >= 2, (marks, m[\"recording\"])
assert m[\"initial_tasks\"] > 0 and m[\"nr_cpus\"] == $(nproc --all)
" && cfsreplay validate cg.dat >val && grep -q "^kernel snapshots: cg.dat" val
	'
	test_expect_success 'record: report gives its groups the cpu.shares of the metadata' '
		cfsreplay report --json cg.dat >rep.json &&
		python3 -c "
import json
m = json.load(open(\"info.json\"))[\"record_meta\"]
listed = [g for h in m[\"cgroup_hierarchies\"] for g in h[\"groups\"]
          if g[\"path\"] != \"/\" and (g.get(\"cpu.shares\", 0) > 0 or g.get(\"cpu.weight\", 0) > 0)]
g = json.load(open(\"rep.json\"))[\"groups\"]
assert len(listed) >= 2 and g[\"shares_given\"] == len(listed), (g, listed)
"
	'
else
	test_skip 'record: two cgroups: trace-cmd and our reader agree' "no writable cgroup v1 cpu hierarchy"
fi

if [ -r /sys/kernel/btf/vmlinux ]; then
	test_expect_success 'record: the kernel PELT updates beside the trace, read by validate' '
		cfsreplay record -o pelt.dat --duration 0.5 -- sh -c "timeout 0.3 sh -c \"while :; do :; done\"" 2>err &&
		grep -q "wrote .pelt.pelt.jsonl.gz.: [1-9][0-9]* kernel PELT updates, 0 lost" err &&
		cfsreplay validate --pelt pelt.pelt.jsonl.gz pelt.dat >v.out &&
		grep -q "^task updates compared: [1-9]" v.out &&
		cfsreplay validate pelt.dat >v2.out &&
		grep -q "^kernel records: *pelt.pelt.jsonl.gz" v2.out &&
		rm pelt.dat &&
		{ cfsreplay record -o pelt.dat --duration 0.1 2>err; test $? -eq 2; } &&
		grep -q "pelt.pelt.jsonl.gz. exists; use -f" err &&
		cfsreplay record --no-pelt -o pelt.dat --duration 0.1 2>err &&
		! grep -q "PELT updates" err
	'
else
	test_skip "record: the kernel PELT updates" "no kernel BTF (/sys/kernel/btf/vmlinux)"
fi

if id nobody >/dev/null 2>&1; then
	test_expect_success 'record: no root is a clear error' '
		{ setpriv --reuid=nobody --regid=nogroup --clear-groups "$CFSREPLAY" record \
			-o /tmp/never.dat --duration 0.1 2>err; test $? -eq 2; } &&
		grep -q "record needs root" err && test ! -e /tmp/never.dat
	'
else
	test_skip 'record: no root' "no user nobody"
fi

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# perf.data files recorded now, one per perf record option that changes
# what a file holds: pipe mode, zstd records, sample fields (-T,
# --sample-cpu, -R, -c, -d, -W, --phys-data, page sizes, registers, user
# stack, call chains, cgroup ids, read values of a group), a clock chosen
# with -k, a tracepoint mixed with a software event (other sample layout,
# so perf adds sample identifiers).  For each file:
# - info's per-type counts of the sched events equal perf script's;
# - signals on the file is identical to signals on `perf script --ns`
#   text of it: every field the model uses decodes as perf decodes it.
#   Not compared, with a note, when perf lost events (the text has no
#   notices) or printed tid -1 (samples of a task past its exit: the
#   kernel gives perf -1 once the pid is gone, while the record's
#   common_pid, which the file reader uses, still names the task);
# - samples of the non-tracepoint event are counted as unknown.
# With leader sampling (:S) perf script also prints, for each leader
# sample, one made-up sample per group member whose count moved; the
# member here (sched_kthread_stop) does not fire, so there are none.
# Needs root, perf and the sched tracepoints; skips otherwise.  An option
# this machine's perf or kernel refuses is skipped with its reason.
. "$(dirname "$0")/lib.sh"

events=
for e in switch waking wakeup wakeup_new migrate_task process_fork process_exit process_free \
	process_exec stat_runtime; do
	events="$events -e sched:sched_$e"
done
work="sh -c 'for i in 1 2 3 4 5; do sleep 0.01; ls >/dev/null; done'"

# record NAME OPTS: perf record -a with OPTS into NAME.data (pipe mode when OPTS has "-o -")
record() {
	case "$2" in
	*"-o -"*) eval "perf record -q -a $events $2 -- $work" >"$1.data" 2>"$1.err" ;;
	*) eval "perf record -q -a $events $2 -o $1.data -- $work" >/dev/null 2>"$1.err" ;;
	esac && test -s "$1.data"
}

# check NAME: counts, signals and unknown samples against perf script
check() {
	perf script -i "$1.data" -F event 2>/dev/null |
		awk '{ e = $1; sub(/:$/, "", e); sys = e; sub(/:.*/, "", sys); sub(/^[^:]*:/, "", e)
			if (sys == "sched") n[e]++; else other++ }
			END { for (e in n) print e, n[e]; print "other", other + 0 >"other" }' |
		LC_ALL=C sort >expect &&
	test -s expect &&
	counts_of "$1.data" | grep '^sched_' >actual &&
	diff -u expect actual &&
	test "$(python3 -c 'import json; print(json.load(open("info.json"))["unknown_events"])')" \
		= "$(awk '{ print $2 }' other)" &&
	lost=$(python3 -c 'import json; print(json.load(open("info.json"))["lost"]["notices"])') &&
	if [ "$lost" -ne 0 ]; then
		# perf script prints no lost-event notices, the engine sees ours
		echo "# $1: perf lost events ($lost notices): signals not compared" >>lost-notes
		return 0
	fi &&
	cfsreplay signals "$1.data" >bin.csv &&
	release=$(python3 -c 'import json; print(json.load(open("info.json"))["kernel_release"])') &&
	perf script --ns -i "$1.data" -F comm,tid,cpu,time,event,trace >ns.txt 2>/dev/null &&
	grep -v -e ' cpu-clock:' ns.txt >ns-sched.txt &&
	gone=$(grep -c ' -1 \[' ns-sched.txt || true) &&
	if [ "$gone" -ne 0 ]; then
		# the text has no current task for these; the file's records do
		echo "# $1: perf script prints tid -1 on $gone lines: signals not compared" >>lost-notes
		return 0
	fi &&
	cfsreplay signals --kernel "$release" ns-sched.txt >text.csv &&
	python3 "$SRC_DIR/scripts/signals-diff.py" bin.csv text.csv
}

runs=(
	"plain|"
	"pipe|-o -"
	"zstd|-z"
	"pipe-zstd|-z -o -"
	"timestamp-cpu|-T --sample-cpu"
	"raw-period|-R -c 1"
	"period-2|-c 2"
	"callchain|-g"
	"dwarf|--call-graph dwarf,512"
	"addr-weight|-d -W --phys-data --data-page-size --code-page-size"
	"regs|--user-regs=ax,bx --intr-regs=ax,cx"
	"cgroups|--all-cgroups"
	"running-time|--running-time -s"
	"clock-mono|-k mono"
	"clock-raw|-k raw"
	"clock-boot|-k boot"
	"no-inherit|--no-inherit"
	"mixed-layouts|-e cpu-clock"
	"group-read|-e '{sched:sched_switch,sched:sched_kthread_stop}:S'"
)

if [ "$(id -u)" -ne 0 ]; then
	test_skip "fresh perf recordings" "recording needs root"
elif ! command -v perf >/dev/null 2>&1; then
	test_skip "fresh perf recordings" "perf is not installed"
elif ! tracefs_ready || [ ! -d /sys/kernel/tracing/events/sched ]; then
	test_skip "fresh perf recordings" "no sched tracepoints in /sys/kernel/tracing"
else
	for r in "${runs[@]}"; do
		name=${r%%|*}
		opts=${r#*|}
		if (cd "$TRASH" && record "$name" "$opts"); then
			test_expect_success "perf record $opts: counts and signals equal perf script's" \
				"check $name"
		else
			test_skip "perf record $opts" \
				"perf record failed here: $(tr '\n' ' ' <"$TRASH/$name.err" | cut -c1-100)"
		fi
	done
	# TAP comments: the recordings whose signals were not compared
	cat "$TRASH/lost-notes" 2>/dev/null
fi

test_done

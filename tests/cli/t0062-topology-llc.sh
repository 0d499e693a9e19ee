#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The LLC spans a trace carries, and what the comparators make of them:
# - traces/recorded.dat, recorded before caches were stored, says "LLC
#   unknown" and the report judges placements with every CPU in one LLC;
# - the same trace with caches (and debugfs sched domains, which info
#   lists) in its metadata (rewritten by
#   tests/helpers/meta-set): one L3 over both CPUs gives the one-LLC
#   verdicts exactly; an L3 per CPU (two LLCs of one CPU each) leaves no
#   wake-up idle-skipped, since select_idle_sibling() then scans the target
#   alone, while forks (whose only level left spans both CPUs: SMT and MC
#   degenerate) and migrations keep their verdicts, and wake-ups their
#   total;
# - recorded now (root and tracefs): info shows the caches and LLC spans of
#   /sys/devices/system/cpu/cpuN/cache, read here independently;
# - a perf.data recorded now (perf): its HEADER_CACHE, as info shows it,
#   equals the "CPU cache info" lines of perf report --header-only -I.
. "$(dirname "$0")/lib.sh"

REC=$TRACES/recorded.dat

# with_caches TRACE OUT L3_0 L3_1: TRACE with an L2 per CPU and an L3 of
# the given shared_cpu_list on each CPU in its metadata
with_caches() {
	meta_rewrite "$1" "$2" "
l3 = sys.argv[1:3]
# sd_init()'s flags of an MC domain, as debugfs prints them
FLAGS = ('SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC '
         'SD_PREFER_SIBLING')
for c in m['cpus']:
    n = c['cpu']
    c['caches'] = [
        {'index': 0, 'level': 1, 'type': 'Instruction', 'size': '32K', 'shared_cpu_list': '0-1'},
        {'index': 1, 'level': 2, 'type': 'Unified', 'size': '1024K', 'line_size': 64,
         'sets': 1024, 'ways': 16, 'shared_cpu_list': str(n)},
        {'index': 2, 'level': 3, 'type': 'Unified', 'size': '16384K', 'line_size': 64,
         'sets': 16384, 'ways': 16, 'shared_cpu_list': l3[n]}]
    c['sched_domains'] = [{'domain': 0, 'name': 'MC', 'flags': FLAGS}]" "$3" "$4"
}

# placement TRACE: report --json's placement counts and reasons, one per line
placement() {
	cfsreplay report --json "$1" | python3 -c '
import json, sys
p = json.load(sys.stdin)["placement"]
for k, v in sorted(p["counts"].items()):
    for verdict, n in sorted(v.items()):
        print("count", k, verdict, n)
for k, v in sorted(p["reasons"].items()):
    for why, n in sorted(v.items()):
        if n:
            print("reason", k, why, n)
print("llc", p["llc"], " ".join(p.get("llc_spans", [])))'
}

test_expect_success 'recorded.dat: LLC unknown, all CPUs taken as one LLC' "
	cfsreplay info '$REC' >info.txt &&
	grep -q '^llc:            unknown, all CPUs taken as one LLC$' info.txt &&
	! grep -q '^cpu caches:' info.txt &&
	placement '$REC' >one.txt &&
	grep -q '^llc all-cpus-assumed $' one.txt
"

test_expect_success 'one L3 over both CPUs: the one-LLC verdicts' "
	with_caches '$REC' shared.dat 0-1 0-1 &&
	cfsreplay info shared.dat >info.txt &&
	grep -q '^llc:            \[0-1\]$' info.txt &&
	grep -q '^ *L3 Unified *16384K \[0-1\]$' info.txt &&
	test \$(grep -c '^                L2 Unified' info.txt) -eq 2 &&
	grep -q '^sched domains:  cpu0 domain0: MC, SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC SD_PREFER_SIBLING$' info.txt &&
	grep -q '^                cpu1 domain0: MC, SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC SD_PREFER_SIBLING$' info.txt &&
	placement shared.dat >shared.txt &&
	grep -q '^llc trace-caches 0-1$' shared.txt &&
	diff -u <(grep -v '^llc' one.txt) <(grep -v '^llc' shared.txt)
"

# value FILE KEY...: the number of the line 'KEY... N', 0 if absent
value() {
	local f=$1
	shift
	awk -v k="$*" '{ n = $NF; $NF = ""; sub(/ $/, ""); if ($0 == k) v = n } END { print v + 0 }' "$f"
}

test_expect_success 'an L3 per CPU: no wake-up idle-skipped; forks and migrations unchanged' "
	with_caches '$REC' split.dat 0 1 &&
	cfsreplay info --json split.dat >info.json &&
	python3 -c 'import json; assert json.load(open(\"info.json\"))[\"llc\"] == [\"0\", \"1\"]' &&
	placement split.dat >split.txt &&
	grep -q '^llc trace-caches 0 1$' split.txt &&
	test \$(value one.txt reason wakeup idle-skipped) -gt 0 &&
	test \$(value split.txt reason wakeup idle-skipped) -eq 0 &&
	test \$(value split.txt count wakeup diverges) -eq 0 &&
	for v in agrees diverges cannot-judge; do
		test \$(value one.txt count fork \$v) -eq \$(value split.txt count fork \$v) &&
		test \$(value one.txt count migration \$v) -eq \$(value split.txt count migration \$v) ||
		return 1
	done &&
	total() { echo \$(( \$(value \$1 count wakeup agrees) + \$(value \$1 count wakeup diverges) +
		\$(value \$1 count wakeup cannot-judge) )); } &&
	test \$(total one.txt) -eq \$(total split.txt)
"

# sys_caches: every cache of /sys once, 'LEVEL TYPE SIZE [SHARED]', sorted
sys_caches() {
	for d in /sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*; do
		[ -r "$d/level" ] || continue
		echo "L$(cat "$d/level") $(cat "$d/type") $(cat "$d/size") [$(cat "$d/shared_cpu_list")]"
	done | sort -u
}

# sys_llc: per CPU, the shared_cpu_list of its highest-level data or unified cache
sys_llc() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		best=0 span=
		for d in "$c"/cache/index[0-9]*; do
			[ -r "$d/level" ] || continue
			[ "$(cat "$d/type")" = Instruction ] && continue
			if [ "$(cat "$d/level")" -gt "$best" ]; then
				best=$(cat "$d/level") span=$(cat "$d/shared_cpu_list")
			fi
		done
		echo "${c##*cpu} $span"
	done | sort -n
}

# info_caches TRACE: info's cache lines in sys_caches' form
info_caches() {
	cfsreplay info "$1" | awk '/^cpu caches:/ { s = 1; next } s && /^                L/ { print; next } { s = 0 }' |
		sed 's/^ *//; s/  */ /g' | sort -u
}

reason=
if [ "$(id -u)" -ne 0 ]; then
	reason="not root"
elif [ ! -d /sys/kernel/tracing/instances ]; then
	reason="no tracefs"
elif ! ls -d /sys/devices/system/cpu/cpu0/cache/index0 >/dev/null 2>&1; then
	reason="no cache directories in sysfs"
fi
if [ -n "$reason" ]; then
	test_skip 'recorded now: info shows the caches and LLC spans of /sys' "$reason"
else
	test_expect_success 'recorded now: info shows the caches and LLC spans of /sys' "
		cfsreplay record --no-pelt -o now.dat -- sleep 0.05 >/dev/null 2>&1 &&
		sys_caches >want &&
		info_caches now.dat >got &&
		diff -u want got &&
		sys_llc >want-llc &&
		cfsreplay info --json now.dat >now.json &&
		python3 -c '
import json
for c, s in enumerate(json.load(open(\"now.json\"))[\"llc\"]):
    print(c, s)' >got-llc &&
		diff -u want-llc got-llc
	"
fi

if ! command -v perf >/dev/null; then
	test_skip 'perf.data recorded now: HEADER_CACHE as perf report shows it' "perf not installed"
	test_done
fi

test_expect_success 'perf.data recorded now: HEADER_CACHE as perf report shows it' "
	perf record -q -e sched:sched_switch -o now.data -- sleep 0.05 2>/dev/null &&
	perf report -i now.data --header-only -I 2>/dev/null |
		awk '/^# CPU cache info:/ { s = 1; next } s && /^#  L/ { print; next } { s = 0 }' |
		sed 's/^# *//; s/  */ /g' | sort -u >want &&
	test -s want &&
	info_caches now.data >got &&
	diff -u want got &&
	cfsreplay info now.data | grep -q '^cpu caches:     perf.data CACHE$'
"

test_done

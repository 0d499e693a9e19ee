#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The CPU topology of a perf.data (HEADER_CPU_TOPOLOGY with NRCPUS) in the
# structure a recorded trace.dat's metadata gives:
# - on the bundled traces/perf-cgroups.data and perf-cgroups.pipe.data,
#   info --json's topology equals the sysfs topology files read while
#   recording (traces/perf-cgroups.topology, scripts/record-perf-cgroups.sh);
# - recorded now (root, perf and tracefs; skipped otherwise): a perf.data
#   and a `cfsreplay record` trace.dat give the same topology, equal to
#   /sys/devices/system/cpu/cpuN/topology.
. "$(dirname "$0")/lib.sh"

# sys_topology: this machine's topology, in the form of perf-cgroups.topology
sys_topology() {
	bash "$SRC_DIR/scripts/record-perf-cgroups.sh" --topology
}

# topology_of TRACE: info --json's topology, in the same form
topology_of() {
	cfsreplay info --json "$1" >info.json &&
	python3 -c '
import json
t = json.load(open("info.json"))["topology"]
keys = [("core_id", "core_id"), ("physical_package_id", "package_id"), ("die_id", "die_id"),
        ("thread_siblings_list", "thread_siblings"), ("core_siblings_list", "core_siblings"),
        ("die_cpus_list", "die_siblings")]
for c in t["cpus"]:
    print(" ".join(["cpu%d" % c["cpu"]] + ["%s=%s" % (k, c[j]) for k, j in keys if c[j] is not None]))
'
}

for f in perf-cgroups.data perf-cgroups.pipe.data; do
	test_expect_success "$f: the topology sysfs had while recording" "
		topology_of '$TRACES/$f' >got &&
		diff -u '$TRACES/perf-cgroups.topology' got &&
		grep -q '\"source\": \"perf.data CPU_TOPOLOGY\"' info.json
	"
done

reason=
if [ "$(id -u)" -ne 0 ]; then
	reason="not root"
elif ! command -v perf >/dev/null; then
	reason="perf not installed"
elif [ ! -d /sys/kernel/tracing/instances ]; then
	reason="no tracefs"
fi
if [ -n "$reason" ]; then
	test_skip 'recorded now: perf.data and trace.dat give the topology of /sys' "$reason"
	test_done
fi

test_expect_success 'recorded now: perf.data and trace.dat give the topology of /sys' "
	sys_topology >want &&
	perf record -q -a -e sched:sched_switch -o now.data -- sleep 0.05 2>/dev/null &&
	topology_of now.data >got-perf &&
	diff -u want got-perf &&
	cfsreplay record --no-pelt -o now.dat -- sleep 0.05 >/dev/null 2>&1 &&
	topology_of now.dat >got-dat &&
	diff -u want got-dat &&
	cfsreplay info now.data | grep -A1 '^cpu topology:' | tail -1 >line-perf &&
	cfsreplay info now.dat | grep -A1 '^cpu topology:' | tail -1 >line-dat &&
	diff -u line-perf line-dat
"

test_done

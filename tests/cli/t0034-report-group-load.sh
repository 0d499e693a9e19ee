#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# report's per-CPU load is the root cfs_rq's, weighted by the task groups'
# shares, on traces/shares.dat (cpu.shares 2048 and 64, two always-busy
# workers each, groups and shares given by the recorder's markers).
#
# Independent of the tool: scripts/worker-cpus.py follows the workers over
# `trace-cmd report`; the expected loads follow by hand from the shares
# (calc_group_shares(), every worker always runnable, so each entity's
# load_avg is its weight): while one CPU holds a heavy worker and both light
# ones and the other CPU the other heavy one, the heavy group's 2048 split
# evenly gives each CPU a heavy entity of 1024, and the light group's 64
# sits whole on the first CPU: 1024 + 64 against 1024.  A sum of task
# loads would give about 3072 against 1024.
. "$(dirname "$0")/lib.sh"

if ! command -v trace-cmd >/dev/null; then
	test_skip 'group-weighted load on shares.dat' 'trace-cmd is not installed'
	test_done
fi

test_expect_success 'shares.dat: the groups and shares of the markers are taken' "
	moves=\$(trace-cmd report -N '$TRACES/shares.dat' | grep -c 'cfsr-move pid=[0-9]* path=/') &&
	mkdirs=\$(trace-cmd report -N '$TRACES/shares.dat' | grep -c 'cfsr-mkdir path=/[^ ]* shares=') &&
	test \$moves -eq 4 && test \$mkdirs -eq 2 &&
	cfsreplay report --json '$TRACES/shares.dat' >r.json &&
	python3 -c '
import json, sys
g = json.load(open(\"r.json\"))[\"groups\"]
assert g[\"marker_moves\"] == int(sys.argv[1]) and g[\"shares_given\"] == int(sys.argv[2]), g
assert g[\"groups\"] == 2 and g[\"bad_markers\"] == 0, g
' \$moves \$mkdirs &&
	cfsreplay report '$TRACES/shares.dat' >r.txt &&
	grep -q '4 moves of tasks between groups from markers' r.txt && grep -q 'cpu.shares of 2 groups from cfsr-mkdir markers' r.txt &&
	! grep -q 'group weights unknown' r.txt
"

# cgroups.dat's recorder (scripts/workload.py) writes file-system paths
# under the cpu controller's mount, "cfsr-task ... cgroup=P" for a worker's
# first group and "cfsr-move pid=N to=P" for a later move.  Each of those
# moves follows a cgroup_attach_task to a group the cfsr-mkdir markers
# made (the cpu controller's hierarchy): made there, or at the marker.
# The engine holds the groups the tasks use and those made by a
# cgroup_mkdir of that hierarchy once an attach has shown which it is
# (the trace has no metadata naming it): /cfsr-tmp, which no task uses.
test_expect_success 'cgroups.dat: groups, shares and the later move of its markers' "
	tr=\$(trace-cmd report -N '$TRACES/cgroups.dat') &&
	firsts=\$(echo \"\$tr\" | grep -c 'cfsr-task pid=[0-9]* .*cgroup=/sys/fs/cgroup/cpu/') &&
	moves=\$(echo \"\$tr\" | grep -c 'cfsr-move pid=[0-9]* to=/sys/fs/cgroup/cpu/') &&
	mkdirs=\$(echo \"\$tr\" | grep -c 'cfsr-mkdir path=/sys/fs/cgroup/cpu/[^ ]* shares=') &&
	echo \"\$tr\" | grep -o 'cfsr-\(task\|move\) pid=[0-9]* .*\(cgroup\|to\)=/sys/fs/cgroup/cpu/[^ ]*' |
		sed 's/.*=\/sys\/fs\/cgroup\/cpu//' | sort -u >used.txt &&
	used=\$(wc -l <used.txt) &&
	echo \"\$tr\" | awk '/cgroup_attach_task: .*dst_path=\/cfsr-(A|B|B\/child) / && r == \"\" {
			match(\$0, /dst_root=[0-9]+/); r = substr(\$0, RSTART + 9, RLENGTH - 9) }
		r != \"\" && \$0 ~ (\"cgroup_mkdir: +root=\" r \" \") { sub(/.*path=/, \"\"); print }' >late.txt &&
	held=\$(sort -u used.txt late.txt | wc -l) &&
	attaches=\$(echo \"\$tr\" | grep -c 'cgroup_attach_task: .*dst_path=/cfsr-\(A\|B\|B/child\) ') &&
	test \$firsts -eq 4 && test \$moves -eq 1 && test \$mkdirs -eq 4 && test \$used -eq 3 &&
	test \$attaches -eq 5 &&
	cfsreplay report --json '$TRACES/cgroups.dat' >c.json &&
	cfsreplay report '$TRACES/cgroups.dat' >c.txt &&
	at=\$(sed -n 's/^  - \([0-9]*\) moves of tasks between groups at the cpu controller.s\$/\1/p' c.txt) &&
	python3 -c '
import json, sys
firsts, moves, mkdirs, used, attaches, at, held = map(int, sys.argv[1:])
g = json.load(open(\"c.json\"))[\"groups\"]
assert g[\"marker_moves\"] + at == firsts + moves, (g, at)
assert 1 <= at <= attaches and g[\"cgroup_attaches\"] == attaches, (g, at)
assert g[\"shares_given\"] == mkdirs and g[\"groups\"] == held and g[\"bad_markers\"] == 0, g
' \$firsts \$moves \$mkdirs \$used \$attaches \$at \$held
"

test_expect_success 'shares.dat: one heavy and both light workers weigh about one heavy' "
	python3 '$SRC_DIR/scripts/worker-cpus.py' '$TRACES/shares.dat' >w.txt &&
	awk '\$3 > 64 && ((\$4 ~ /heavy/ && \$4 ~ /light0/ && \$4 ~ /light1/ && \$5 ~ /^cfsr-heavy[0-9]\$/) ||
	                  (\$5 ~ /heavy/ && \$5 ~ /light0/ && \$5 ~ /light1/ && \$4 ~ /^cfsr-heavy[0-9]\$/))' w.txt >three.txt &&
	test \$(wc -l <three.txt) -ge 1 &&
	while read -r start end ms cpu0 cpu1; do
		from=\$(python3 -c \"print('%.6f' % (float('\$start') + 0.016))\") &&
		to=\$(python3 -c \"print('%.6f' % (float('\$end') - 0.016))\") &&
		cfsreplay report --json --top 100 --time \$from,\$to '$TRACES/shares.dat' >s.json &&
		python3 -c '
import json, sys
d = json.load(open(\"s.json\"))
b = 0 if \"light\" in sys.argv[1] else 1
load = [c[\"load_mean\"] for c in d[\"cpus\"]]
# by hand 1088 against 1024; other tasks blocked load adds a little
assert 768 <= load[b] <= 1536 and 768 <= load[1 - b] <= 1536, load
assert abs(load[b] - load[1 - b]) <= 256, load
# a light worker weighs at most its group entity (64) seen from the root
for w in d[\"lasting_imbalance\"][\"top\"]:
    if w[\"task_comm\"].startswith(\"cfsr-light\"):
        assert w[\"task_load\"] <= 64, w
' \$cpu0 || return 1
	done <three.txt
"
test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Cgroups of a perf.data recorded with --all-cgroups, on the bundled
# traces/perf-cgroups.data and traces/perf-cgroups.pipe.data (one run, a
# seekable and a pipe-mode session; scripts/record-perf-cgroups.sh):
# - info --json lists the CGROUP records with the id -> path pairs that
#   `perf script --show-cgroup-events` prints, and the (task, cgroup)
#   pairs of the samples that `perf report --sort pid,cgroup` shows
#   (perf 6.1 has no `perf script -F cgroup`); without perf, skipped;
# - what the machine's layout makes of them (perf-cgroups.tasks, written
#   while recording): the worker put in the v1 cpu group /cfsr-pc-a is
#   sampled only in perf's root "/", the one in the root cpu group is
#   sampled in "/" (before it moved itself), then in the v2 groups
#   /cfsr-pc-b and /cfsr-pc-late, in that order: the records
#   name the v2 hierarchy, not the cpu controller's, and membership is
#   left unknown, in info and in report (no task group, a note saying why);
# - a pipe-mode file cut inside the CGROUP record the kernel wrote while
#   recording reads up to the cut with the damage flagged and that group
#   missing; cut inside one of perf's CGROUP records at the start it is
#   refused, as is the seekable file cut in its CGROUP records; a CGROUP
#   record whose path has no end is counted as bad, the rest read.
. "$(dirname "$0")/lib.sh"

seek=$TRACES/perf-cgroups.data
pipe=$TRACES/perf-cgroups.pipe.data
tasks=$TRACES/perf-cgroups.tasks

# refused FILE: exit 2, one line on stderr naming FILE, nothing on stdout
refused() {
	{ cfsreplay info "$1" >out 2>err; test $? -eq 2; } &&
	test ! -s out && test "$(wc -l <err)" -eq 1 && grep -q "'$1'" err
}

# cgroup_records FILE: "offset size" of each PERF_RECORD_CGROUP, and
# "sample OFFSET" before the first sample (seekable or pipe mode)
cgroup_records() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
hsize = struct.unpack_from('<Q', b, 8)[0]
if hsize == 16:
    pos, end = 16, len(b)
else:
    pos, size = struct.unpack_from('<QQ', b, 40)
    end = pos + size
first = True
while pos + 8 <= end:
    typ, _, size = struct.unpack_from('<IHH', b, pos)
    extra = struct.unpack_from('<I', b, pos + 8)[0] if typ == 66 else 0
    if typ == 9 and first:
        print('sample', pos)
        first = False
    if typ == 19:
        print(pos, size)
    pos += size + extra
PY
}

if command -v perf >/dev/null; then
	for f in "$seek" "$pipe"; do
		test_expect_success "$(basename "$f"): CGROUP records and sample pairs as perf shows them" "
			cfsreplay info --json '$f' >info.json &&
			perf script -i '$f' --show-cgroup-events 2>/dev/null |
				sed -n 's/.*PERF_RECORD_CGROUP cgroup: \([0-9]*\) \(.*\)/\1 \2/p' |
				sort -u >want-names &&
			perf report -i '$f' --sort pid,cgroup --stdio -q 2>/dev/null |
				awk 'NF >= 3 { split(\$2, t, \":\"); print t[1], \$NF }' | sort -u >want-pairs &&
			python3 -c '
import json
d = json.load(open(\"info.json\"))[\"cgroups\"]
path = {c[\"id\"]: c[\"path\"] for c in d[\"names\"]}
with open(\"got-names\", \"w\") as f:
    for c in d[\"names\"]:
        print(c[\"id\"], c[\"path\"], file=f)
with open(\"got-pairs\", \"w\") as f:
    for t in d[\"tasks\"]:
        print(t[\"tid\"], path.get(t[\"id\"], \"unknown\"), file=f)
' &&
			sort -u got-names >a && diff -u want-names a &&
			sort -u got-pairs >b && diff -u want-pairs b &&
			test \$(wc -l <want-names) -ge 3 &&
			echo \"# \$(wc -l <a) cgroups, \$(wc -l <b) (task, cgroup) pairs as perf shows them\"
		"
	done
else
	test_skip 'CGROUP records and sample pairs as perf shows them' 'perf is not installed'
fi

test_expect_success 'the records name the v2 hierarchy, not the cpu one: membership unknown' "
	read -r _ a v1a v2a <<<\"\$(grep '^A ' '$tasks')\" &&
	read -r _ b v1b v2b <<<\"\$(grep '^B ' '$tasks')\" &&
	for f in '$seek' '$pipe'; do
		cfsreplay info --json \$f >info.json &&
		python3 -c '
import json, sys
a, v1a, b, v2b = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = json.load(open(\"info.json\"))[\"cgroups\"]
path = {c[\"id\"]: c[\"path\"] for c in d[\"names\"]}
of = lambda tid: [path[t[\"id\"]] for t in d[\"tasks\"] if t[\"tid\"] == tid]
# A is in the v1 cpu group, which perf never names
assert of(a) == [\"/\"], of(a)
assert v1a not in path.values(), v1a
# B, in the root cpu group, is sampled in the root, then in its v2 groups
assert of(b) == [\"/\", \"/cfsr-pc-b\", v2b], of(b)
assert d[\"membership\"] and d[\"membership\"].startswith(\"unknown\"), d[\"membership\"]
assert \"perf_event\" in d[\"hierarchy\"], d[\"hierarchy\"]
assert d[\"sample_ids\"] and d[\"samples\"] > 0 and d[\"bad_records\"] == 0
' \$a \$v1a \$b \$v2b || return 1
		cfsreplay report --json \$f >r.json &&
		python3 -c '
import json
g = json.load(open(\"r.json\"))[\"groups\"]
assert g[\"groups\"] == 0, g
assert g[\"perf_cgroup_membership\"].startswith(\"unknown\"), g
' &&
		cfsreplay report \$f >r.txt &&
		grep -q \"perf.data's cgroups (3 named\" r.txt || return 1
	done
"

test_expect_success 'pipe mode cut inside the CGROUP record written while recording: partial, flagged' "
	cgroup_records '$pipe' >recs &&
	first=\$(awk '\$1 == \"sample\" { print \$2 }' recs) &&
	set -- \$(awk -v s=\$first '\$1 != \"sample\" && \$1 > s { print \$1, \$2; exit }' recs) &&
	test -n \"\$1\" &&
	full=\$(cfsreplay info --json '$pipe' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"records\"])') &&
	for cut in \$((\$1 + 12)) \$((\$1 + 20)) \$((\$1 + \$2 - 1)); do
		head -c \$cut '$pipe' >cut.data &&
		cfsreplay info --json cut.data >info.json &&
		python3 -c '
import json, sys
d = json.load(open(\"info.json\"))
assert d[\"lost\"][\"bad_pages\"] == 1, d[\"lost\"]
assert d[\"lost\"][\"notices_without_count\"] == 1, d[\"lost\"]
assert 0 < d[\"records\"] < int(sys.argv[1]), (d[\"records\"], sys.argv[1])
paths = [c[\"path\"] for c in d[\"cgroups\"][\"names\"]]
assert paths == [\"/\", \"/cfsr-pc-b\"], paths
' \$full || { echo \"cut at \$cut\"; return 1; }
	done
"

test_expect_success 'cut inside a CGROUP record before the samples, or a seekable file cut: refused' "
	cgroup_records '$pipe' >recs &&
	set -- \$(awk '\$1 != \"sample\" { print \$1, \$2; exit }' recs) &&
	head -c \$((\$1 + 20)) '$pipe' >cut.data &&
	refused cut.data && grep -q 'truncated' err &&
	cgroup_records '$seek' >recs &&
	set -- \$(awk '\$1 != \"sample\" { print \$1, \$2; exit }' recs) &&
	head -c \$((\$1 + 20)) '$seek' >cut.data &&
	refused cut.data && grep -q 'truncated' err
"

test_expect_success 'a CGROUP record without the end of its path is counted as bad' "
	cgroup_records '$pipe' >recs &&
	first=\$(awk '\$1 == \"sample\" { print \$2 }' recs) &&
	set -- \$(awk -v s=\$first '\$1 != \"sample\" && \$1 > s { print \$1, \$2; exit }' recs) &&
	cp '$pipe' bad.data && chmod u+w bad.data &&
	python3 -c '
import sys
off, size = int(sys.argv[1]), int(sys.argv[2])
f = open(\"bad.data\", \"r+b\")
f.seek(off + 16)
f.write(b\"x\" * (size - 16))
' \$1 \$2 &&
	cfsreplay info --json bad.data >info.json &&
	python3 -c '
import json
d = json.load(open(\"info.json\"))
assert d[\"cgroups\"][\"bad_records\"] == 1, d[\"cgroups\"]
assert [c[\"path\"] for c in d[\"cgroups\"][\"names\"]] == [\"/\", \"/cfsr-pc-b\"]
assert d[\"lost\"][\"bad_pages\"] == 0
'
"

test_done

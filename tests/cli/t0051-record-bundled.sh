#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The bundled traces/recorded.dat, written by 'cfsreplay record --truth'
# (its counts against trace-cmd's are checked with the other bundled traces
# in t0001 and t0012): the trace times the recorder
# stored for each kernel snapshot are those trace-cmd prints for the
# snapshot's markers (the section is read here by a small independent
# parser of the trace.dat options and gzip); validate and info use what the
# file carries.  Needs no root.
. "$(dirname "$0")/lib.sh"

t=$TRACES/recorded.dat

# truth_of FILE: the embedded truth.jsonl lines, found by walking the v7
# options sections (trace-cmd.dat.v7(5)) to option 0xcf01
truth_of() {
	python3 - "$1" <<-'EOF'
	import struct, sys, zlib
	b = open(sys.argv[1], "rb").read()
	p = b.index(b"\0", 10) + 1 + 6          # version, endianness, long and page size
	p = b.index(b"\0", p) + 1               # compression name
	p = b.index(b"\0", p) + 1               # its version
	off = struct.unpack_from("<Q", b, p)[0]
	while off:
	    sid, flags, _, size = struct.unpack_from("<HHIQ", b, off)
	    assert sid == 0
	    data = b[off + 16:off + 16 + size]
	    if flags & 1:                       # compressed options: not the recorder's
	        import subprocess
	        clen, ulen = struct.unpack_from("<II", data, 0)
	        data = subprocess.run(["zstd", "-dc"], input=data[8:8 + clen],
	                              capture_output=True, check=True).stdout
	    q, off = 0, 0
	    while q < len(data):
	        oid, olen = struct.unpack_from("<HI", data, q)
	        val = data[q + 6:q + 6 + olen]
	        q += 6 + olen
	        if oid == 0xcf01:
	            s = struct.unpack_from("<Q", val)[0]
	            _, sflags, _, ssize = struct.unpack_from("<HHIQ", b, s)
	            assert sflags == 0
	            sys.stdout.write(zlib.decompress(b[s + 16:s + 16 + ssize], 47).decode())
	            sys.exit(0)
	        if oid == 0:
	            off = struct.unpack_from("<Q", val)[0]
	            break
	sys.exit("no option 0xcf01")
	EOF
}

test_expect_success 'recorded.dat: each snapshot carries the trace times of its markers' "
	truth_of '$t' >truth.jsonl &&
	trace-cmd report -t -N '$t' 2>/dev/null |
		sed -n 's/.*\\] *\\([0-9]*\\)\\.\\([0-9]*\\): *print: .*truth-\\(begin\\|mid\\|end\\) \\([0-9]*\\)\$/\\4 \\3 \\1\\2/p' |
		sort -k1,1n -k2,2 >marks &&
	python3 -c '
import json
marks = {}
for line in open(\"marks\"):
    seq, what, ts = line.split()
    marks[(int(seq), what)] = int(ts)
snaps = [json.loads(l) for l in open(\"truth.jsonl\") if \"\\\"kind\\\":\\\"snap\\\"\" in l]
assert len(snaps) == len(marks) // 3 and len(marks) % 3 == 0, (len(snaps), len(marks))
for s in snaps:
    for what in (\"begin\", \"mid\", \"end\"):
        assert s[\"trace_ts_\" + what] == marks[(s[\"seq\"], what)], (s, what)
print(len(snaps))
' >nsnaps && test \$(cat nsnaps) -gt 1
"

test_expect_success 'recorded.dat: snapshot 0 holds every task, with affinity, and the cfs_rqs' "
	truth_of '$t' >truth.jsonl &&
	grep -c '\"seq\":0,\"kind\":\"task\"' truth.jsonl >tasks0 &&
	grep '\"seq\":0,\"kind\":\"task\"' truth.jsonl | grep -vc '\"affinity\"' >noaff ;
	test \$(cat noaff) -eq 0 && test \$(cat tasks0) -gt 10 &&
	cfsreplay info --json '$t' >info.json &&
	python3 -c '
import json
m = json.load(open(\"info.json\"))[\"record_meta\"]
assert m[\"initial_tasks\"] == int(open(\"tasks0\").read()), m[\"initial_tasks\"]
cfs = sum(1 for l in open(\"truth.jsonl\") if l.startswith(\"{\\\"seq\\\":0,\\\"kind\\\":\\\"cfs_rq\\\"\"))
assert m[\"initial_cfs_rqs\"] == cfs > 0, (m[\"initial_cfs_rqs\"], cfs)
'
"

test_expect_success 'recorded.dat: validate reads the embedded snapshots' "
	truth_of '$t' | grep -c '\"kind\":\"snap\"' >n &&
	cfsreplay validate --truth '$t' '$t' >out &&
	grep -q \"^kernel snapshots: .*recorded.dat (\$(cat n) snapshots)\" out &&
	truth_of '$t' >truth.jsonl && cfsreplay validate --truth truth.jsonl '$t' >out2 &&
	diff <(sed 1,2d out) <(sed 1,2d out2)
"

test_expect_success 'recorded.dat: info shows the metadata trace-cmd confirms' "
	cfsreplay info --json '$t' >info.json &&
	trace-cmd report --uname '$t' 2>/dev/null | grep -v '^cpus=' | head -1 | awk '{print \$3}' >uname &&
	trace-cmd report '$t' 2>/dev/null | sed -n 's/^cpus=//p' >cpus &&
	python3 -c '
import json
d = json.load(open(\"info.json\"))
m = d[\"record_meta\"]
assert d[\"embedded_truth\"] is True
assert m[\"kernel_release\"] == open(\"uname\").read().strip()
assert m[\"nr_cpus\"] == int(open(\"cpus\").read())
assert d[\"hz\"] == int(m[\"kernel_config\"][\"CONFIG_HZ\"]) and m[\"hz_source\"] == \"/proc/config.gz\"
assert m[\"trace_clock\"] == d[\"trace_clock\"] == \"perf\"
assert len(m[\"cpus\"]) == m[\"nr_cpus\"] and all(c[\"capacity\"] > 0 for c in m[\"cpus\"])
' && cfsreplay info '$t' >out && grep -q '^topology: *cpu0: capacity' out &&
	grep -q '^initial state: ' out
"

# The capture runs on after tracing stops: its records past the trace's
# last event (counted from trace-cmd's text and the capture itself) are the
# ones validate leaves out.
test_expect_success 'recorded.dat: validate leaves out the records after the last event' "
	command -v trace-cmd >/dev/null || exit 0
	cfsreplay validate '$t' >out &&
	trace-cmd report -t '$t' 2>/dev/null | tail -1 >last &&
	zcat '$TRACES/recorded.pelt.jsonl.gz' >pelt.jsonl &&
	python3 -c '
import json, re
last = re.search(r\" (\\d+)\\.(\\d{9}):\", open(\"last\").read())
last = int(last.group(1)) * 10**9 + int(last.group(2))
kinds = (\"se\", \"gse\", \"cfs\", \"ue_se\", \"ue_cfs\", \"rt\")
n = 0
for line in open(\"pelt.jsonl\"):
    r = json.loads(line)
    n += r.get(\"type\") in kinds and r.get(\"ts\", -1) > last
m = re.search(r\", (\\d+) after its last\", open(\"out\").read())
print(\"# %d records after the last event, validate: %s\" % (n, m and m.group(1)))
assert n > 0 and m and int(m.group(1)) == n
'
"

test_expect_success 'recorded.dat: validate alone runs lock-step with the capture beside it' "
	cfsreplay validate '$t' >out &&
	grep -q '^kernel records: .*recorded.pelt.jsonl.gz' out &&
	zcat '$TRACES/recorded.pelt.jsonl.gz' | grep -c '\"type\":\"se\"' >n &&
	test \$(cat n) -gt 1000 &&
	python3 -c '
import re, sys
t = open(\"out\").read()
m = re.search(r\"^task updates compared: (\\d+), all fields exact: (\\d+)\", t, re.M)
assert m and int(m.group(1)) > 1000, t
# fidelity floor: fails if the model regresses (measured 98.84 %)
assert 100 * int(m.group(2)) / int(m.group(1)) >= 98.6, m.group(0)
# the same for the group entities, roots and group cfs_rqs (measured 93.86,
# 89.32 and 95.79 %), and tg_load_avg_contrib within 1 % (99.54 %)
for kind, floor in ((\"group entity\", 93.6), (\"root cfs_rq\", 89), (\"group cfs_rq\", 95.5)):
    m = re.search(r\"^%s updates compared: (\\d+), all fields exact: (\\d+)\" % kind, t, re.M)
    assert m and 100 * int(m.group(2)) / int(m.group(1)) >= floor, (kind, m and m.group(0))
m = re.search(r\"^tg_load_avg_contrib +\\d+ +[0-9.]+ +([0-9.]+)\", t, re.M)
assert m and float(m.group(1)) >= 98.5, t
'
"

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every format gives the analysis of the binary file it was printed from:
# `signals` on `trace-cmd report -t` text (ns) of each bundled trace.dat,
# and on `perf script --ns` text of the bundled perf.data, is identical to
# signals on the binary file; on µs text it is the same updates with
# timestamps within the text's precision and task averages bounded as
# scripts/signals-diff.py explains (the µs comparison takes task rows: a
# cfs_rq's row sums the rounding of every task queued on it, so its bound
# grows with the number of tasks; the ns comparisons take every row).  Compressed copies and validate read
# the same.  Text carries no kernel release, so --kernel gives the
# binary's.
. "$(dirname "$0")/lib.sh"

sdiff() {
	python3 "$SRC_DIR/scripts/signals-diff.py" "$@"
}

# release FILE: the kernel release info reads from a binary trace
release() {
	cfsreplay info --json "$1" >info.json &&
	python3 -c 'import json; print(json.load(open("info.json"))["kernel_release"])'
}

if command -v trace-cmd >/dev/null 2>&1; then
	for t in periodic cgroups v6; do
		f=$TRACES/$t.dat
		for opts in "-t" "-N -t"; do
			test_expect_success "signals on trace-cmd report $opts of $t.dat equal the .dat's" "
				cfsreplay signals '$f' >bin.csv &&
				trace-cmd report $opts '$f' >ns.txt 2>/dev/null &&
				cfsreplay signals --kernel \$(release '$f') ns.txt >text.csv &&
				sdiff bin.csv text.csv
			"
		done
		test_expect_success "signals on trace-cmd report (us) of $t.dat: same updates, us precision" "
			cfsreplay signals --entity task '$f' >bin.csv &&
			trace-cmd report '$f' >us.txt 2>/dev/null &&
			cfsreplay signals --entity task --kernel \$(release '$f') us.txt >text.csv &&
			sdiff --precision 1000 bin.csv text.csv
		"
	done
	test_expect_success 'signals on a zstd copy of report -t text equal the .dat' "
		trace-cmd report -t '$TRACES/cgroups.dat' >ns.txt 2>/dev/null &&
		zstd -q -c ns.txt >ns.zst &&
		cfsreplay signals '$TRACES/cgroups.dat' >bin.csv &&
		cfsreplay signals --kernel \$(release '$TRACES/cgroups.dat') ns.zst >zst.csv &&
		sdiff bin.csv zst.csv
	"
else
	test_skip "signals on trace-cmd report text" "trace-cmd is not installed"
fi

p=$TRACES/periodic.perf.data
if command -v perf >/dev/null 2>&1; then
	test_expect_success 'signals on perf script --ns text equal the perf.data' "
		cfsreplay signals '$p' >bin.csv &&
		perf script --ns -i '$p' >ns.txt 2>/dev/null &&
		cfsreplay signals --kernel \$(release '$p') ns.txt >text.csv &&
		sdiff bin.csv text.csv
	"
	test_expect_success 'signals on perf script (us) text: same updates, us precision' "
		cfsreplay signals --entity task '$p' >bin.csv &&
		perf script -i '$p' >us.txt 2>/dev/null &&
		cfsreplay signals --entity task --kernel \$(release '$p') us.txt >text.csv &&
		sdiff --precision 1000 bin.csv text.csv
	"
	test_expect_success 'perf script text, which has no CPU count, has the perf.data CPU count' "
		perf script -i '$p' >us.txt 2>/dev/null &&
		cfsreplay info --json us.txt | grep -q '\"nr_cpus\": 2' &&
		cfsreplay info --json '$p' | grep -q '\"nr_cpus\": 2'
	"
else
	test_skip "signals on perf script text" "perf is not installed"
fi

test_expect_success 'signals on a gzip copy of the perf.data equal the perf.data' "
	cfsreplay signals '$p' >bin.csv &&
	gzip -c '$p' >p.gz && cfsreplay signals p.gz >gz.csv &&
	sdiff bin.csv gz.csv
"

if [ -f "$SHARED_TRACES/periodic-bpf/pelt.jsonl.gz" ] && command -v trace-cmd >/dev/null 2>&1; then
	s=$SHARED_TRACES/periodic-bpf
	test_expect_success 'validate --pelt on report text and on a zstd copy equals the .dat' "
		cfsreplay validate --pelt '$s/pelt.jsonl.gz' '$s/trace.dat' | sed 1d >dat.out &&
		trace-cmd report -t '$s/trace.dat' >ns.txt 2>/dev/null &&
		cfsreplay validate --kernel \$(release '$s/trace.dat') --pelt '$s/pelt.jsonl.gz' ns.txt |
			sed 1d >text.out &&
		diff -u dat.out text.out &&
		zstd -q -c '$s/trace.dat' >t.zst &&
		cfsreplay validate --pelt '$s/pelt.jsonl.gz' t.zst | sed 1d >zst.out &&
		diff -u dat.out zst.out
	"
else
	test_skip "validate on text and compressed copies" "no $SHARED_TRACES or no trace-cmd"
fi

test_done

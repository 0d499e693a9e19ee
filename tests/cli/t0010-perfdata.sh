#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# info --json on perf.data files: samples per event type equal what
# `perf script` counts, and the reader, file version, compression, kernel
# release, CPU count and first and last timestamps agree with perf's own
# reading of the file (perf report --header-only, perf script -F time).
# Uses the recordings beside the checkout and the perf tool; skips when
# either is absent.
. "$(dirname "$0")/lib.sh"

json() {
	python3 -c "import json,sys; d=json.load(open('info.json')); print(d$1)"
}

# perf_script FILE OUT: each sample's time and event, as perf script prints them
perf_script() {
	perf script -i "$1" -F time,event --ns 2>/dev/null >"$2" &&
	test -s "$2"
}

# check_counts FILE SCRIPT: perf script counts "sys:name:" per sample
check_counts() {
	perf_script "$1" "$2" &&
	awk '{ e = $2; sub(/^[^:]*:/, "", e); sub(/:$/, "", e); n[e]++ }
		END { for (e in n) print e, n[e] }' "$2" | LC_ALL=C sort >expect &&
	counts_of "$1" >actual &&
	diff -u expect actual
}

# check_facts FILE SCRIPT (the output check_counts left)
check_facts() {
	cfsreplay info --json "$1" >info.json &&
	perf report --header-only -i "$1" 2>/dev/null >header &&
	test "$(json "['reader']")" = perf.data &&
	test "$(json "['file_version']")" = 2 &&
	if grep -q '^# compressed : Zstd' header; then c=zstd; else c=none; fi &&
	test "$(json "['compression']")" = "$c" &&
	test "$(json "['kernel_release']")" = "$(sed -n 's/^# os release : //p' header)" &&
	test "$(json "['nr_cpus']")" = "$(sed -n 's/^# nrcpus avail : //p' header)" &&
	test "$(json "['trace_clock']")" = perf &&
	awk '{ s = $1; gsub(/[:.]/, "", s); if (!first) first = s; last = s }
		END { print first, last }' "$2" >ts &&
	test "$(json "['first_ts']") $(json "['last_ts']")" = "$(cat ts)"
}

if ! command -v perf >/dev/null; then
	test_skip "perf.data counts and facts" "perf is not installed"
elif [ ! -d "$SHARED_TRACES" ]; then
	test_skip "perf.data counts and facts" "no $SHARED_TRACES (a user's clone has none)"
else
	for t in "$SHARED_TRACES"/*/perf.data; do
		name=$(basename "$(dirname "$t")")
		test_expect_success "counts of shared $name/perf.data equal perf script" \
			"check_counts '$t' $name.script"
		test_expect_success "facts of shared $name/perf.data agree with perf's reading" \
			"check_facts '$t' $name.script"
	done
fi

test_done

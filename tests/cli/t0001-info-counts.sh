#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# info --json: per-event-type counts equal what trace-cmd report counts
# (scripts/trace-counts.sh) on every bundled trace, on the same traces
# converted by trace-cmd to other file versions, and on the larger traces
# beside the checkout when they are present.
. "$(dirname "$0")/lib.sh"

check_counts() {
	"$SRC_DIR/scripts/trace-counts.sh" "$1" >expect 2>expect.err &&
	counts_of "$1" >actual &&
	diff -u expect actual
}

for t in "$TRACES"/*.dat; do
	name=$(basename "$t" .dat)
	[ "$name" = nosched ] && continue
	test_expect_success "counts of traces/$name.dat equal trace-cmd report" "check_counts '$t'"
	test_expect_success "traces/$name.counts is current" \
		"'$SRC_DIR/scripts/trace-counts.sh' '$t' >expect && diff -u '$TRACES/$name.counts' expect"
done

# The same trace in every layout trace-cmd can write here.
for conv in "6 none" "7 none" "7 zstd"; do
	set -- $conv
	test_expect_success "counts after trace-cmd convert to v$1 ($2)" "
		trace-cmd convert --file-version $1 --compression $2 -i '$TRACES/periodic.dat' -o conv.dat >/dev/null 2>&1 &&
		check_counts conv.dat &&
		cfsreplay info --json conv.dat >c.json &&
		grep -q '\"file_version\": $1' c.json &&
		grep -q '\"compression\": \"$2\"' c.json
	"
done

if [ -d "$SHARED_TRACES" ]; then
	for t in "$SHARED_TRACES"/*/trace.dat; do
		name=$(basename "$(dirname "$t")")
		test_expect_success "counts of shared $name/trace.dat equal trace-cmd report" \
			"check_counts '$t'"
	done
else
	test_skip "counts of the shared traces" "no $SHARED_TRACES (a user's clone has none)"
fi

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Speed and memory of cfsreplay on real traces (make bench).
#
# For each trace: records, wall time (best of 3), records per second and
# peak resident memory (GNU time's %M).  Memory must not grow with the
# number of events: compare shared periodic/trace.dat (11K events) with
# bench/trace.dat (2.4M events), whose metadata is of the same size.
# Uses the large traces beside the checkout (../shared/traces/bench) when
# present, and trace-cmd to make uncompressed copies of them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
CFSREPLAY=${CFSREPLAY:-$here/cfsreplay}
SHARED=${SHARED_TRACES:-$here/../shared/traces}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench: needs GNU time (/usr/bin/time, Debian package 'time')" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

traces=("$here"/traces/periodic.dat "$here"/traces/cgroups.dat "$here"/traces/v6.dat)
if [ -f "$SHARED/bench/trace.dat" ]; then
	# same kind of metadata (all event formats, full kallsyms), 200x the events
	[ -f "$SHARED/periodic/trace.dat" ] && traces+=("$SHARED/periodic/trace.dat")
	traces+=("$SHARED/bench/trace.dat")
	if command -v trace-cmd >/dev/null; then
		trace-cmd convert --file-version 6 --compression none \
			-i "$SHARED/bench/trace.dat" -o "$tmp/bench-v6.dat" >/dev/null 2>&1 &&
			traces+=("$tmp/bench-v6.dat")
	fi
else
	echo "# no $SHARED/bench/trace.dat: large-trace rows skipped" >&2
fi

printf '%-34s %7s %11s %9s %12s %10s\n' trace "MB" records "seconds" "records/s" "peak RSS"
for t in "${traces[@]}"; do
	records=$("$CFSREPLAY" info --json "$t" | sed -n 's/^ *"records": \([0-9]*\),*/\1/p')
	best=
	rss=0
	for _ in 1 2 3; do
		"$TIME" -f '%e %M' -o "$tmp/t" "$CFSREPLAY" info "$t" >/dev/null
		read -r secs kb <"$tmp/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	size=$(stat -c %s "$t")
	rate=$(awk "BEGIN{ if ($best > 0) printf \"%.0f\", $records / $best; else print \"-\" }")
	printf '%-34s %7.1f %11s %9s %12s %7d KiB\n' "$(basename "$(dirname "$t")")/$(basename "$t")" \
		"$(awk "BEGIN{print $size / 1048576}")" "$records" "$best" "$rate" "$rss"
done

# The commands that replay the model, on the largest trace at hand: wall
# time (best of 2) and peak resident memory.
big=${traces[${#traces[@]}-1]}
[ -f "$SHARED/bench/trace.dat" ] && big=$SHARED/bench/trace.dat
records=$("$CFSREPLAY" info --json "$big" | sed -n 's/^ *"records": \([0-9]*\),*/\1/p')
echo
echo "# commands on $(basename "$(dirname "$big")")/$(basename "$big") ($records records)"
printf '%-40s %9s %12s %10s\n' command seconds records/s "peak RSS"
run() {
	local name=$1 best= rss=0 secs kb
	shift
	for _ in 1 2; do
		"$TIME" -f '%e %M' -o "$tmp/t" "$CFSREPLAY" "$@" >/dev/null 2>&1 || {
			echo "bench: cfsreplay $* failed" >&2
			return 1
		}
		read -r secs kb <"$tmp/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	printf '%-40s %9s %12s %7d KiB\n' "$name" "$best" \
		"$(awk "BEGIN{ if ($best > 0) printf \"%.0f\", $records / $best; else print \"-\" }")" "$rss"
}
run "report" report "$big"
run "report --json" report --json "$big"
run "signals" signals "$big"
run "compare --kernel 6.11 (two engines)" compare --kernel 6.11 "$big"
run "compare TRACE TRACE" compare "$big" "$big"

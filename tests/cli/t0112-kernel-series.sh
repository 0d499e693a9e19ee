#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --kernel MAJOR.MINOR (a series, no sublevel) models the trace's own
# release when the trace is of that series, else the series' first
# release, MAJOR.MINOR.0; the output headers say which was taken.
# traces/periodic.dat (recorded on 6.18.44) is given the release 6.6.100
# (the uname in its header, same length).  The profiles split 6.6.y at
# 6.6.4 and 6.6.93 (docs/PROFILES.md), so:
#  - on the 6.6.100 copy, --kernel 6.6 is 6.6.100: the profile of
#    6.6.93-6.6.y, not a what-if, the same rows as no --kernel and as
#    --kernel 6.6.100;
#  - --kernel 6.6.0 on that copy is the what-if of 6.6.0-6.6.3;
#  - on the 6.18.44 trace, --kernel 6.6 is 6.6.0 (what-if, 6.6.0-6.6.3),
#    the same rows as --kernel 6.6.0, and --kernel 6.18 is 6.18.44.
. "$(dirname "$0")/lib.sh"

# as_release REL: p.dat, periodic.dat as recorded on REL (7 characters, as 6.18.44)
as_release() {
	local off
	off=$(grep -boa '6\.18\.44-fc-v1147' "$TRACES/periodic.dat" | head -1 | cut -d: -f1) &&
	[ -n "$off" ] && [ ${#1} -eq 7 ] && cp "$TRACES/periodic.dat" p.dat &&
	printf '%s' "$1" | dd of=p.dat bs=1 seek="$off" conv=notrunc 2>/dev/null
}

test_expect_success 'the copy says 6.6.100' '
	as_release 6.6.100 &&
	cfsreplay info p.dat | grep -q "^kernel: *6.6.100-fc-v1147"
'

test_expect_success '--kernel 6.6 on a 6.6.100 trace: its own sublevel, not a what-if' '
	cfsreplay report --kernel 6.6 p.dat >r.txt &&
	grep -q "^model    v6.6.93-v6.6.y EEVDF$" r.txt &&
	grep -q "^         --kernel 6.6 taken as 6.6.100, the trace.s own sublevel$" r.txt &&
	! grep -q "what-if" r.txt &&
	cfsreplay report --json --kernel 6.6 p.dat >r.json &&
	python3 -c "import json, sys
t = json.load(open(sys.argv[1]))[\"trace\"]
assert t[\"model\"] == \"v6.6.93-v6.6.y EEVDF\" and not t[\"what_if\"], t" r.json
'

test_expect_success '--kernel 6.6 rows are those of the trace own release' '
	cfsreplay signals --kernel 6.6 p.dat >k.csv 2>k.err &&
	cfsreplay signals p.dat >own.csv 2>/dev/null &&
	cfsreplay signals --kernel 6.6.100 p.dat >full.csv 2>full.err &&
	test -s k.csv && cmp k.csv own.csv && cmp k.csv full.csv &&
	grep -q "^signals: --kernel 6.6 taken as 6.6.100, the trace.s own sublevel (model v6.6.93-v6.6.y EEVDF)$" k.err &&
	! grep -q "^signals: --kernel .* taken as" full.err
'

test_expect_success '--kernel 6.6.0 on the 6.6.100 trace is a what-if, no note' '
	cfsreplay report --kernel 6.6.0 p.dat >z.txt &&
	grep -q "^model    v6.6.0-v6.6.3 EEVDF (what-if" z.txt &&
	! grep -q "^ *--kernel .* taken as" z.txt
'

test_expect_success '--kernel 6.6 on a 6.18 trace: 6.6.0, said in the header' '
	cfsreplay report --kernel 6.6 "$TRACES/periodic.dat" >w.txt &&
	grep -q "^model    v6.6.0-v6.6.3 EEVDF (what-if" w.txt &&
	grep -q "^         --kernel 6.6 taken as 6.6.0, the series. first release$" w.txt &&
	cfsreplay signals --kernel 6.6 "$TRACES/periodic.dat" >a.csv 2>/dev/null &&
	cfsreplay signals --kernel 6.6.0 "$TRACES/periodic.dat" >b.csv 2>/dev/null &&
	test -s a.csv && cmp a.csv b.csv
'

test_expect_success 'compare names what each --kernel was taken as' '
	cfsreplay compare --kernel 6.6 --kernel 6.6.0 p.dat >c.txt &&
	grep -q "^model A  v6.6.93-v6.6.y EEVDF$" c.txt &&
	grep -q "^         --kernel 6.6 taken as 6.6.100, the trace.s own sublevel$" c.txt &&
	grep -q "^model B  v6.6.0-v6.6.3 EEVDF (what-if)$" c.txt &&
	test $(grep -c "^ *--kernel .* taken as" c.txt) -eq 1
'

test_expect_success '--kernel 6.18 on the 6.18.44 trace is 6.18.44' '
	cfsreplay report --kernel 6.18 "$TRACES/periodic.dat" >s.txt &&
	grep -q "^         --kernel 6.18 taken as 6.18.44, the trace.s own sublevel$" s.txt &&
	! grep -q "what-if" s.txt
'

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel's scheduler features of a recorded trace (lib/schedfeat.c):
#  - info decodes traces/recorded.dat's sysctl_sched_features by the 6.18
#    features.h order; the expected names are counted here by hand from
#    the SCHED_FEAT() lines of 6.18.5+;
#  - the same trace with DELAY_DEQUEUE cleared in its metadata (rewritten
#    by tests/helpers/meta-set) replays without delayed sleeps, where the
#    trace as recorded has them; a what-if replay keeps its release's
#    defaults, so it does not change;
#  - recorded names win over the table; names that are not SCHED_FEAT()
#    names, or more than 64 of them, are dropped;
#  - as root, a recording carries the names of the running kernel, the
#    same as the __SCHED_FEAT_ strings of its BTF.
. "$(dirname "$0")/lib.sh"

METASET=${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set
REC=$TRACES/recorded.dat

# features.h of 6.18.5+, one name per SCHED_FEAT() line, in file order
ORDER="PLACE_LAG PLACE_DEADLINE_INITIAL PLACE_REL_DEADLINE RUN_TO_PARITY PREEMPT_SHORT
NEXT_BUDDY PICK_BUDDY CACHE_HOT_BUDDY DELAY_DEQUEUE DELAY_ZERO WAKEUP_PREEMPTION HRTICK
HRTICK_DL NONTASK_CAPACITY TTWU_QUEUE SIS_UTIL WARN_DOUBLE_CLOCK RT_PUSH_IPI RT_RUNTIME_SHARE
LB_MIN ATTACH_AGE_LOAD WA_IDLE WA_WEIGHT WA_BIAS UTIL_EST LATENCY_WARN NI_RANDOM"

# on_off MASK: the names of the set bits, then "--", then the others
on_off() {
	local i=0 on="" off="" n
	for n in $ORDER; do
		if [ $(( ($1 >> i) & 1 )) -eq 1 ]; then on="$on $n"; else off="$off $n"; fi
		i=$((i + 1))
	done
	echo "$on --$off"
}

# info_on_off FILE: the "on:" and "off:" lists of info's text, in the same shape
info_on_off() {
	awk '/^sched features:/ { s = 1; next }
	     s && !/^ / { s = 0 }
	     s && /^  on:/ { w = "on" }
	     s && /^  off:/ { w = "off" }
	     s && /^  (engine|unnamed)/ { w = "" }
	     s && w { for (i = 1; i <= NF; i++) if ($i != "on:" && $i != "off:") l[w] = l[w] " " $i }
	     END { print l["on"] " --" l["off"] }' "$1"
}

# meta_json TRACE EXPR: the trace's metadata with the python EXPR applied to m
meta_json() {
	cfsreplay info --json "$1" | python3 -c "
import json, sys
m = json.load(sys.stdin)['record_meta']
$2
json.dump(m, sys.stdout)"
}

test_expect_success 'info: the recorded bitmask decoded by the 6.18 order' "
	cfsreplay info '$REC' >info.txt &&
	grep -q 'sysctl_sched_features=99674079' info.txt &&
	grep -q '^sched features: decoded by the release table (features.h order of v6.18.5-' info.txt &&
	on_off 99674079 >want && info_on_off info.txt >got && diff -u want got &&
	grep -q '^  engine:       the defaults of model v6.18.44-v6.18.y' info.txt
"

[ -x "$METASET" ] || { test_skip 'rewritten metadata' "no $METASET (make builds it)"; test_done; }

# rewrite NAME EXPR: NAME.dat, the trace with the python EXPR applied to its
# metadata m, and its PELT records beside it as NAME.pelt.jsonl.gz
rewrite() {
	cp "$REC" "$1.dat" && cp "$TRACES/recorded.pelt.jsonl.gz" "$1.pelt.jsonl.gz" &&
	meta_json "$REC" "$2" >"$1.json" && "$METASET" "$1.dat" "$1.json"
}

# the metadata's bitmask with DELAY_DEQUEUE (bit 8 of 6.18.5+) cleared
NODELAY='m["sysctl_sched"]["sysctl_sched_features"] &= ~(1 << 8)'

# delayed FILE: the sleeps validate's replay of FILE delayed
delayed() {
	cfsreplay validate "$@" | sed -n 's/^delayed dequeue: *\([0-9]*\) sleeps delayed.*/\1/p'
}

test_expect_success 'NO_DELAY_DEQUEUE: info says so' '
	rewrite nodelay "$NODELAY" &&
	cfsreplay info nodelay.dat >info.txt &&
	on_off $((99674079 & ~(1 << 8))) >want && info_on_off info.txt >got && diff -u want got &&
	grep -q "^  engine:       model v6.18.44-v6.18.y EEVDF, delayed dequeue with NO_DELAY_DEQUEUE\$" info.txt
'

# json_on_off FILE: info --json's sched_features as "on -- off", and its engine's differences
json_on_off() {
	cfsreplay info --json "$1" | python3 -c '
import json, sys
f = json.load(sys.stdin)["sched_features"]
print("".join(" " + n for n in f["on"]) + " --" + "".join(" " + n for n in f["off"]))
print(f["mask"], f["names_from"], " ".join(f["engine"]["differs_from_defaults"]))'
}

test_expect_success 'info --json: the same features, the mask, the engine' '
	rewrite nodelay "$NODELAY" &&
	{ on_off 99674079 && echo "99674079 release table "; } >want &&
	json_on_off "$REC" >got && diff -u want got &&
	{ on_off $((99674079 & ~(1 << 8))) && echo "$((99674079 & ~(1 << 8))) release table NO_DELAY_DEQUEUE"; } >want &&
	json_on_off nodelay.dat >got && diff -u want got &&
	test "$(cfsreplay info --json "$TRACES/periodic.dat" |
		python3 -c "import json, sys; print(json.load(sys.stdin)[\"sched_features\"])")" = None
'

test_expect_success 'NO_DELAY_DEQUEUE: validate replays no delayed sleep, the trace has them' '
	rewrite nodelay "$NODELAY" &&
	n=$(delayed "$REC") && echo "as recorded: $n delayed" && test "$n" -gt 0 &&
	n=$(delayed nodelay.dat) && echo "NO_DELAY_DEQUEUE: $n delayed" && test "$n" -eq 0 &&
	cfsreplay validate nodelay.dat | grep -q "^sched features:   NO_DELAY_DEQUEUE (" &&
	! cfsreplay validate "$REC" | grep -q "^sched features:" &&
	n=$(delayed --kernel 6.12 nodelay.dat) && echo "what-if 6.12: $n delayed" && test "$n" -gt 0
'

test_expect_success 'NO_DELAY_DEQUEUE: the report'"'"'s pick check says so' '
	rewrite nodelay "$NODELAY" &&
	cfsreplay report nodelay.dat >r.txt && grep -A1 "in place of the model.s defaults:\$" r.txt >got &&
	grep -q "^    NO_DELAY_DEQUEUE\$" got &&
	cfsreplay report "$REC" >r.txt && ! grep -q "in place of the model.s defaults" r.txt
'

test_expect_success 'NO_DELAY_DEQUEUE: signals differ, a what-if replay does not' '
	rewrite nodelay "$NODELAY" &&
	cfsreplay signals "$REC" >a.csv 2>/dev/null && cfsreplay signals nodelay.dat >b.csv 2>err &&
	! cmp -s a.csv b.csv && grep -q "model.s defaults: NO_DELAY_DEQUEUE\$" err &&
	cfsreplay signals --kernel 6.12 "$REC" >a.csv 2>/dev/null &&
	cfsreplay signals --kernel 6.12 nodelay.dat >b.csv 2>/dev/null && cmp a.csv b.csv
'

# the 6.18 names with NEXT_BUDDY (bit 5, off) and DELAY_DEQUEUE (bit 8, on) swapped
SWAPPED=$(echo $ORDER | tr ' ' '\n' | sed 's/^NEXT_BUDDY$/X/; s/^DELAY_DEQUEUE$/NEXT_BUDDY/; s/^X$/DELAY_DEQUEUE/' |
	python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().split()))')

test_expect_success 'recorded names win over the release table' '
	rewrite named "m[\"sched_features\"] = {\"names\": $SWAPPED, \"source\": \"test\"}" &&
	cfsreplay info named.dat >info.txt &&
	grep -q "^sched features: recorded names (test), 27 features" info.txt &&
	grep -q "with NO_DELAY_DEQUEUE\$" info.txt &&
	n=$(delayed named.dat) && test "$n" -eq 0
'

test_expect_success 'names that are no SCHED_FEAT() names are dropped: the table decodes' '
	rewrite badnames "m[\"sched_features\"] = {\"names\": [\"PLACE_LAG\", \"no such\"], \"source\": \"test\"}" &&
	cfsreplay info badnames.dat >info.txt &&
	grep -q "^sched features: decoded by the release table" info.txt &&
	rewrite toomany "m[\"sched_features\"] = {\"names\": [\"F%d\" % i for i in range(65)], \"source\": \"test\"}" &&
	cfsreplay info toomany.dat >info.txt &&
	grep -q "^sched features: decoded by the release table" info.txt
'

test_expect_success 'no bitmask: no features line' '
	rewrite nomask "del m[\"sysctl_sched\"][\"sysctl_sched_features\"]" &&
	cfsreplay info nomask.dat >info.txt && ! grep -q "^sched features" info.txt &&
	test "$(delayed nomask.dat)" = "$(delayed "$REC")"
'

BTF=/sys/kernel/btf/vmlinux
T='record: the running kernel'"'"'s feature names'
if [ "$(id -u)" -ne 0 ]; then
	test_skip "$T" 'needs root'
elif ! [ -r $BTF ] || ! grep -aq __SCHED_FEAT_NR $BTF; then
	test_skip "$T" 'no __SCHED_FEAT_NR in the kernel BTF'
elif ! cfsreplay record --no-pelt -o "$TRASH/r.dat" -- true 2>"$TRASH/record.err"; then
	test_skip "$T" "record fails here: $(tail -1 "$TRASH/record.err")"
else
	test_expect_success "$T" '
		cfsreplay info r.dat >info.txt && cat info.txt &&
		grep -Eq "^sched features: recorded names \((debugfs sched/features|vmlinux BTF)" info.txt &&
		cfsreplay info --json r.dat | python3 -c "
import json, sys
m = json.load(sys.stdin)[\"record_meta\"]
print(\" \".join(m[\"sched_features\"][\"names\"]))" >names &&
		grep -ao "__SCHED_FEAT_[A-Z0-9_]*" $BTF | sed "s/^__SCHED_FEAT_//" | grep -vx NR |
			tr "\n" " " | sed "s/ \$//" >want && echo >>want && diff -u want names
	'
fi

test_done

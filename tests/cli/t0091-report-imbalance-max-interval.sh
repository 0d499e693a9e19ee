#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Lasting imbalance beyond any interval: load_balance() doubles a domain's
# balance_interval while it finds the domain balanced, while it is below
# max_interval, so a busy CPU's interval lies between min_interval x
# busy_factor and (min_interval doubled until not below max_interval) x
# busy_factor; a window longer than the latter outlived every interval the
# balancer could have had.  Worked out by hand:
#  - sd_init() on 2 CPUs: min_interval 2 ms, max_interval 4 ms: 4 ms x 16
#    = 64 ms at HZ 250.  scripts/imbalance-trace.py's four-one window
#    lasts ~300 ms (to the trace end): beyond; three-two has no lasting
#    window;
#  - recorded domains with min_interval 1 ms, max_interval 5 ms,
#    busy_factor 1 (traces/recorded.dat's metadata rewritten): 1 doubled
#    to 2, 4, then 8 (4 is below 5): 8 ms = 2 jiffies; the windows beyond
#    are the lasting ones (> 4 ms) longer than 8 ms.
. "$(dirname "$0")/lib.sh"

GEN=$SRC_DIR/scripts/imbalance-trace.py

test_expect_success 'four-one: the ~300 ms window is beyond the 64 ms bound' '
	python3 "$GEN" four-one >f.txt 2>/dev/null &&
	cfsreplay report --kernel 6.18 --json f.txt >f.json &&
	python3 - <<-PY
	import json
	m = json.load(open("f.json"))["lasting_imbalance"]
	assert m["max_busy_balance_interval_ns"] == 64000000, m
	assert m["levels"][0]["max_busy_balance_interval_ns"] == 64000000, m["levels"]
	assert m["lasting_windows"] == 1 and m["beyond_max_windows"] == 1, m
	w = m["top"][0]
	assert w["duration_ns"] > 290000000 and w["beyond_max_interval"] is True, w
	assert m["beyond_max_ns"] == w["duration_ns"], m
	assert m["groups"] is None, m["groups"]
	PY
'

test_expect_success 'three-two: nothing lasting, nothing beyond' '
	python3 "$GEN" three-two >t.txt 2>/dev/null &&
	cfsreplay report --kernel 6.18 --json t.txt >t.json &&
	python3 - <<-PY
	import json
	m = json.load(open("t.json"))["lasting_imbalance"]
	assert m["lasting_windows"] == 0 and m["beyond_max_windows"] == 0, m
	PY
'

test_expect_success 'recorded min 1 ms, max 5 ms, busy_factor 1: beyond 8 ms' '
	meta_rewrite "$TRACES/recorded.dat" short.dat "
for c in m[\"cpus\"]:
    c[\"caches\"] = [{\"index\": 2, \"level\": 3, \"type\": \"Unified\", \"size\": \"16384K\",
                    \"shared_cpu_list\": \"0-1\"}]
    c[\"sched_domains\"] = [{\"domain\": 0, \"name\": \"MC\", \"flags\": \"SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC\",
                           \"imbalance_pct\": 117, \"min_interval\": 1, \"max_interval\": 5,
                           \"busy_factor\": 1}]" &&
	cfsreplay report --json --top 100000 short.dat >s.json &&
	python3 - <<-PY
	import json
	m = json.load(open("s.json"))["lasting_imbalance"]
	lv = m["levels"][0]
	assert lv["busy_balance_interval_ns"] == 4000000, lv
	assert lv["max_busy_balance_interval_ns"] == 8000000, lv
	top = m["top"]
	assert len(top) == m["lasting_windows"] > 0, m
	assert all(w["duration_ns"] > 4000000 for w in top)
	beyond = [w for w in top if w["duration_ns"] > 8000000]
	print("# lasting %d, beyond 8 ms %d" % (len(top), len(beyond)))
	assert m["beyond_max_windows"] == lv["beyond_max_windows"] == len(beyond), m
	assert [w["beyond_max_interval"] for w in top] == [w["duration_ns"] > 8000000 for w in top]
	PY
'

test_done

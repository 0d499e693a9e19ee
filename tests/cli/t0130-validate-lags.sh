#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The lag a dequeue saves (update_entity_lag()), against the kernel's own:
# - an independent check of traces/perf-groups.dat's kernel PELT capture
#   (6.18.44, HZ=250, every slice 1.4 ms): the vlag of a nice-0 task off
#   its cfs_rq stays within the service of the largest slice plus a tick
#   (1.4 + 4 ms, 6e3c0a4e1ad1), some go past the earlier clamp of
#   max(2 slices, a tick) (4 ms) and some reach 5.4 ms;
# - validate compares the model's saved lag with the kernel's at each such
#   record: the trace's own model (v6.18.44+) has more of them equal than
#   the v6.16-v6.18.43 one, whose clamp is the earlier;
# - --no-eevdf-keys leaves the capture's EEVDF state out of the model
#   (traces/eevdf-split.dat): fewer lags equal, and almost all of those
#   that differ descend from a lag from before the trace;
# - --no-eevdf-keys is lock-step's: with --truth it is refused.
. "$(dirname "$0")/lib.sh"

P=$TRACES/perf-groups.pelt.jsonl.gz

test_expect_success 'perf-groups capture: nice-0 lags within 1.4 + 4 ms, past 4 ms' "
	python3 - '$P' <<-'PY'
	import gzip, json, sys
	lags = []
	for line in gzip.open(sys.argv[1], 'rt'):
	    r = json.loads(line)
	    if r.get('type') == 'se' and r.get('on_rq') == 0 and r.get('weight') == 1048576:
	        assert r['slice'] == 1400000, r
	        lags.append(r['vlag'])
	assert lags, 'no nice-0 task record off its cfs_rq'
	limit = 1400000 + 4000000
	assert all(abs(v) <= limit for v in lags), max(lags)
	past = [v for v in lags if v > 4000000]
	assert len(past) >= 10 and limit in lags, (len(past), max(lags))
	print('# %d lags, %d past 4 ms, %d at 5.4 ms' % (len(lags), len(past), lags.count(limit)))
	PY
"

# lags TRACE [OPTION...]: 'compared equal guessed' of validate's EEVDF lags line
lags() {
	t=$1
	shift
	cfsreplay validate "$@" "$t" | sed -n 's/^EEVDF lags:.* \([0-9][0-9]*\) saved lags.* equal \([0-9]*\) times (\([0-9]*\) of the others descend.*/\1 \2 \3/p'
}

test_expect_success 'validate: the trace own model saves more lags as the kernel did' "
	set -- \$(lags '$TRACES/perf-groups.dat') &&
	test \$# = 3 && n=\$1 own=\$2 &&
	set -- \$(lags '$TRACES/perf-groups.dat' --kernel 6.18.43) &&
	test \$1 = \$n && old=\$2 &&
	echo \"# \$n lags: \$own equal (v6.18.44+), \$old (v6.16-v6.18.43)\" &&
	test \$own -gt \$old && test \$((own * 100)) -ge \$((n * 70))
"

test_expect_success '--no-eevdf-keys: fewer lags equal, the rest from lags before the trace' "
	set -- \$(lags '$TRACES/eevdf-split.dat') && keyed=\$2 &&
	cfsreplay validate --no-eevdf-keys '$TRACES/eevdf-split.dat' >free.txt &&
	grep -q 'not taken (--no-eevdf-keys)' free.txt &&
	! grep -q '^EEVDF state:' free.txt &&
	set -- \$(lags '$TRACES/eevdf-split.dat' --no-eevdf-keys) &&
	n=\$1 free=\$2 guessed=\$3 &&
	echo \"# \$n lags: \$keyed equal with the keys, \$free without (\$guessed of the rest guessed)\" &&
	test \$free -lt \$keyed && test \$(((n - free) * 9)) -le \$((guessed * 10))
"

test_expect_success '--no-eevdf-keys with --truth is refused' "
	{ cfsreplay validate --no-eevdf-keys --truth '$P' '$TRACES/perf-groups.dat' >out.txt 2>err.txt
	  test \$? = 2; } && test ! -s out.txt &&
	grep -q 'no-eevdf-keys' err.txt
"

test_done

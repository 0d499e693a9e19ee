#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The lag a dequeue saves (update_entity_lag()), against the kernel's own
# at each record of an entity off its cfs_rq (traces/eevdf-split.dat,
# whose capture carries the EEVDF state):
# - --no-eevdf-keys leaves the capture's EEVDF state out of the model:
#   fewer lags equal, and almost all of those that differ descend from a
#   lag from before the trace;
# - --no-eevdf-keys is lock-step's: with --truth it is refused.
. "$(dirname "$0")/lib.sh"

P=$TRACES/perf-groups.pelt.jsonl.gz

# lags TRACE [OPTION...]: 'compared equal guessed' of validate's EEVDF lags line
lags() {
	t=$1
	shift
	cfsreplay validate "$@" "$t" | sed -n 's/^EEVDF lags:.* \([0-9][0-9]*\) saved lags.* equal \([0-9]*\) times (\([0-9]*\) of the others descend.*/\1 \2 \3/p'
}

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

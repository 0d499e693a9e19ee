#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# signals --kernel: each release maps to the profile its version history
# gives (ranges from MODEL.md section 6 and docs/PROFILES.md, written out
# here independently of lib/profile.c); releases whose engine is not
# implemented are refused with that profile's name and nothing on stdout.
. "$(dirname "$0")/lib.sh"

refused() {
	cfsreplay signals --kernel "$1" "$TRACES/periodic.dat" >out 2>err
	test $? -eq 2 && test ! -s out &&
	grep -qF "($2)" err && grep -q 'not implemented yet' err &&
	grep -q 'arithmetic exists' err
}

test_expect_success 'legacy PELT releases name their profile' "
	refused 3.8 'v3.8-v3.12 legacy PELT' &&
	refused 3.12.74 'v3.8-v3.12 legacy PELT' &&
	refused 3.13.0 'v3.13-v4.0 legacy PELT' &&
	refused 3.19.8 'v3.13-v4.0 legacy PELT' &&
	refused 4.1.52 'v4.1-v4.2 legacy PELT, utilization'
"
test_expect_success 'v4.3-v5.6 releases name their profile' "
	refused 4.4.302 'v4.3-v4.6 load_avg/util_avg' &&
	refused 4.9.337 'v4.7-v4.11 load_avg/util_avg' &&
	refused 4.12.14 'v4.12 load_avg/util_avg' &&
	refused 4.14.336 'v4.13-v4.14 load_avg/util_avg' &&
	refused 4.19.325 'v4.15-v5.6 runnable_load_avg' &&
	refused 5.4.290 'v4.15-v5.6 runnable_load_avg'
"
test_expect_success 'v5.7-v6.11 releases name their profile' "
	refused 5.10.236 'v5.7-v5.16 CFS, runnable_avg' &&
	refused 5.17.15 'v5.17 CFS, runnable_avg' &&
	refused 6.1.140 'v5.18-v6.1 CFS, runnable_avg' &&
	refused 6.5.13 'v6.2-v6.5 CFS, runnable_avg' &&
	refused 6.6.93 'v6.6-v6.7 EEVDF' &&
	refused 6.8.12 'v6.8-v6.9 EEVDF' &&
	refused 6.11.11 'v6.10-v6.11 EEVDF'
"
test_expect_success 'outside v3.8-v6.18 there is no model' "
	cfsreplay signals --kernel 3.7 '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'no model' err && test ! -s out &&
	cfsreplay signals --kernel 6.19 '$TRACES/periodic.dat' >out 2>err; test \$? -eq 2 &&
	grep -q 'no model' err
"
test_done

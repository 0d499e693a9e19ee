#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The command line: help everywhere, exit statuses, the default command.
. "$(dirname "$0")/lib.sh"

test_expect_success 'no arguments: usage on stderr, exit 2' '
	cfsreplay >out 2>err; test $? -eq 2 && grep -q "usage: cfsreplay" err && test ! -s out
'
test_expect_success '--help lists every command' '
	cfsreplay --help >out && grep -q "^   info" out && grep -q "^   help" out
'
test_expect_success '--version' 'cfsreplay --version | grep -q "^cfsreplay [0-9]"'
test_expect_success 'info --help' 'cfsreplay info --help >out && grep -q "usage: cfsreplay info" out'
test_expect_success 'help info equals info --help' '
	cfsreplay help info >a && cfsreplay info --help >b && diff -u a b
'
test_expect_success 'unknown command: exit 2' '
	cfsreplay frobnicate >out 2>err; test $? -eq 2 && grep -q "not a cfsreplay command" err
'
test_expect_success 'unknown option before the command: exit 2' '
	cfsreplay -x >out 2>err; test $? -eq 2 && grep -q "unknown option .-x." err
'
test_expect_success 'help with an unknown option: exit 2, house style' '
	cfsreplay help --bogus >out 2>err; test $? -eq 2 && grep -q "^cfsreplay: help: unknown option" err
'
test_expect_success 'unknown option: exit 2' '
	cfsreplay info --bogus x.dat >out 2>err; test $? -eq 2 && grep -q "unknown option" err
'
test_expect_success 'info without a trace: exit 2' '
	cfsreplay info >out 2>err; test $? -eq 2 && grep -q "info needs one TRACE" err
'
test_expect_success 'a trace path alone runs the default command, report' "
	cfsreplay '$TRACES/periodic.dat' >a && cfsreplay report '$TRACES/periodic.dat' >b &&
	diff -u b a && grep -q '^idle while waiting' a
"
test_expect_success 'info stays reachable by name' "
	cfsreplay info '$TRACES/periodic.dat' >a && grep -q '^reader:' a
"
test_expect_success 'no progress output when stderr is not a terminal' "
	cfsreplay info '$TRACES/cgroups.dat' >out 2>err && test ! -s err
"
test_expect_success 'a short write to stdout is an error' "
	if [ -w /dev/full ]; then
		cfsreplay info '$TRACES/periodic.dat' >/dev/full 2>err; test \$? -eq 2 && grep -q 'standard output' err
	fi
"
test_done

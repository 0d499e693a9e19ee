#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# info's description of a trace agrees with trace-cmd's own reading of the
# file: kernel release, clock, CPU count, file version, and the first and
# last timestamps.
. "$(dirname "$0")/lib.sh"

json() {
	python3 -c "import json,sys; d=json.load(open('info.json')); print(d$1)"
}

for name in periodic cgroups v6; do
	t=$TRACES/$name.dat
	test_expect_success "$name: kernel release, clock and CPUs as trace-cmd reports them" "
		cfsreplay info --json '$t' >info.json &&
		trace-cmd report --uname '$t' 2>/dev/null | grep -v '^cpus=' | head -1 | awk '{print \$3}' >uname &&
		test \"\$(json \"['kernel_release']\")\" = \"\$(cat uname)\" &&
		test \"\$(json \"['trace_clock']\")\" = perf &&
		trace-cmd report '$t' 2>/dev/null | sed -n 's/^cpus=//p' >cpus &&
		test \"\$(json \"['nr_cpus']\")\" = \"\$(cat cpus)\"
	"
	test_expect_success "$name: file version and compression as trace-cmd dump shows them" "
		cfsreplay info --json '$t' >info.json &&
		trace-cmd dump --summary '$t' 2>/dev/null >dump &&
		v=\$(awk '/\\[Version\\]/{print \$1; exit}' dump) &&
		test \"\$(json \"['file_version']\")\" = \"\$v\" &&
		c=\$(awk '/\\[Compression algorithm\\]/{print \$1; exit}' dump) &&
		test \"\$(json \"['compression']\")\" = \"\${c:-none}\"
	"
	test_expect_success "$name: first and last timestamps match trace-cmd report -t" "
		cfsreplay info --json '$t' >info.json &&
		trace-cmd report -t -N '$t' 2>/dev/null | awk '
			match(\$0, /\\] +[0-9]+\\.[0-9]+: /) {
				s = substr(\$0, RSTART, RLENGTH); gsub(/[]: ]/, \"\", s); sub(/\\./, \"\", s);
				if (!first) first = s; last = s
			}
			END { print first, last }' >ts &&
		test \"\$(json \"['first_ts']\") \$(json \"['last_ts']\")\" = \"\$(cat ts)\"
	"
done
test_done

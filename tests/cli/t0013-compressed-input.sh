#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Compressed input files, recognised by content: gzip and zstd copies of a
# trace read exactly as the trace does; a cut or corrupt stream is refused.
. "$(dirname "$0")/lib.sh"

same_as_plain() {
	cfsreplay info --json "$1" | grep -v '"file"\|"input_compression"' >a &&
	cfsreplay info --json "$2" | grep -v '"file"\|"input_compression"' >b &&
	diff -u a b
}

for t in periodic cgroups v6; do
	test_expect_success "$t.dat gzip-compressed reads as the plain file" "
		gzip -c '$TRACES/$t.dat' >t.gz && same_as_plain '$TRACES/$t.dat' t.gz &&
		cfsreplay info --json t.gz | grep -q '\"input_compression\": \"gzip\"'
	"
	test_expect_success "$t.dat zstd-compressed, under any name, reads as the plain file" "
		zstd -q -c '$TRACES/$t.dat' >t.data && same_as_plain '$TRACES/$t.dat' t.data
	"
done
test_expect_success 'perf.data gzip-compressed reads as the plain file' "
	gzip -c '$TRACES/periodic.perf.data' >p.gz && same_as_plain '$TRACES/periodic.perf.data' p.gz
"
test_expect_success 'cut gzip and zstd streams are refused' "
	gzip -c '$TRACES/cgroups.dat' | head -c 30000 >cut.gz &&
	cfsreplay info cut.gz >out 2>err; test \$? -eq 2 && grep -q 'truncated' err && test ! -s out &&
	zstd -q -c '$TRACES/cgroups.dat' | head -c 30000 >cut.zst &&
	cfsreplay info cut.zst >out 2>err; test \$? -eq 2 && grep -q 'truncated' err
"
test_expect_success 'a gzip stream of garbage is refused' "
	head -c 5000 /dev/urandom | gzip -c >junk.gz &&
	cfsreplay info junk.gz >out 2>err; test \$? -eq 2 && grep -q 'not a trace file' err
"
test_expect_success 'gzip magic followed by garbage is refused' "
	printf '\037\213' >bad.gz && head -c 3000 /dev/urandom >>bad.gz &&
	cfsreplay info bad.gz >out 2>err; test \$? -eq 2 && grep -q \"'bad.gz'\" err
"
test_done

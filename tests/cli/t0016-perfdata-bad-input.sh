#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad perf.data and text input gets one clear error line and exit 2, or a
# result whose damage is flagged; never a crash.
#
# - The bundled seekable perf.data cut in the file header, in the
#   attributes, in a record of the data section and in the feature
#   sections: refused, as the feature sections (with the event formats)
#   come last.  With its header's data size set to 0, as perf leaves a
#   file when it is killed: refused as not finished.
# - The bundled pipe-mode, zstd-compressed perf.data cut in its header
#   records: refused; cut inside a compressed record: read up to the cut,
#   with a lost-events notice without a count and a bad block counted.
# - A perf.data without tracepoints (cpu-clock profile): refused.
# - Record types no perf writes: a copy of the bundled perf.data in which
#   a script rewrites the type field of every 7th sample header to 0x7ffe
#   (sizes unchanged) reads with exactly those records counted as unknown
#   and missing from the per-type counts.
# - Text: random bytes are refused; trace-cmd report text with lines of
#   garbage inserted reads with exactly those lines counted as malformed.
. "$(dirname "$0")/lib.sh"

seek=$TRACES/periodic.perf.data
pipe=$TRACES/small-zstd.pipe.data

# field FILE KEY: a top-level number of info --json
jfield() {
	cfsreplay info --json "$1" >info.json &&
	python3 -c "import json; print(json.load(open('info.json'))['$2'])"
}

# layout FILE: "attrs_off data_off data_size first_sample_off" of a seekable perf.data
layout() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
_, _, _, attrs_off, _, data_off, data_size = struct.unpack_from('<8sQQQQQQ', b)
pos = data_off
while pos < data_off + data_size:
    typ, _, size = struct.unpack_from('<IHH', b, pos)
    if typ == 9:
        break
    pos += size
print(attrs_off, data_off, data_size, pos)
PY
}

# refused FILE: exit 2, one line on stderr naming FILE, nothing on stdout
refused() {
	{ cfsreplay info "$1" >out 2>err; test $? -eq 2; } &&
	test ! -s out && test "$(wc -l <err)" -eq 1 && grep -q "'$1'" err
}

test_expect_success 'seekable perf.data cut in the header, attributes, a record, the features: refused' "
	set -- \$(layout '$seek') &&
	size=\$(stat -c %s '$seek') &&
	for cut in 40 \$((\$1 + 30)) \$((\$4 + 11)) \$((\$2 + \$3 / 2 + 5)) \$((size - 500)) \$((size - 1)); do
		head -c \$cut '$seek' >cut.data &&
		refused cut.data &&
		grep -q 'truncated' err || { echo \"cut at \$cut: \$(cat err)\"; return 1; }
	done
"

test_expect_success 'a perf.data its recorder did not finish (data size 0) is refused as such' "
	cp '$seek' killed.data && chmod u+w killed.data &&
	printf '\\0\\0\\0\\0\\0\\0\\0\\0' | dd of=killed.data bs=1 seek=48 conv=notrunc status=none &&
	refused killed.data && grep -q 'not finished' err
"

test_expect_success 'pipe-mode zstd perf.data reads whole, with zstd named' "
	test \$(jfield '$pipe' records) -gt 1000 &&
	cfsreplay info --json '$pipe' | grep -q '\"compression\": \"zstd\"' &&
	test \$(jfield '$pipe' malformed_events) -eq 0
"

test_expect_success 'pipe-mode perf.data cut in its header records is refused' "
	for cut in 17 100 5000 40000; do
		head -c \$cut '$pipe' >cut.data &&
		refused cut.data || { echo \"cut at \$cut: \$(cat err)\"; return 1; }
	done
"

test_expect_success 'pipe-mode perf.data cut inside a compressed record: partial, flagged' "
	size=\$(stat -c %s '$pipe') &&
	full=\$(jfield '$pipe' records) &&
	for cut in \$((size - 5)) \$((size * 2 / 3)); do
		head -c \$cut '$pipe' >cut.data &&
		cfsreplay info --json cut.data >info.json &&
		python3 -c '
import json, sys
d = json.load(open(\"info.json\"))
full = int(sys.argv[1])
assert d[\"records\"] <= full, (d[\"records\"], full)
assert d[\"lost\"][\"bad_pages\"] >= 1, d[\"lost\"]
assert d[\"lost\"][\"notices_without_count\"] >= 1, d[\"lost\"]
' \$full &&
		cfsreplay info cut.data | grep -q 'notices' || return 1
	done &&
	test \$(jfield cut.data records) -lt \$full
"

test_expect_success 'a perf.data without tracepoints is refused' "
	refused '$TRACES/cpu-clock.perf.data' &&
	grep -q 'no tracepoint formats' err
"

test_expect_success 'unknown record types are counted as unknown, not dropped unseen' "
	cp '$seek' retyped.data && chmod u+w retyped.data &&
	n=\$(python3 - retyped.data <<'PY'
import struct, sys
f = open(sys.argv[1], 'r+b')
b = bytearray(f.read())
_, _, _, _, _, data_off, data_size = struct.unpack_from('<8sQQQQQQ', b)
pos, seen, changed = data_off, 0, 0
while pos < data_off + data_size:
    typ, _, size = struct.unpack_from('<IHH', b, pos)
    if typ == 9:
        seen += 1
        if seen % 7 == 0:
            struct.pack_into('<I', b, pos, 0x7ffe)
            changed += 1
    pos += size
f.seek(0)
f.write(b)
print(changed)
PY
) &&
	test \$n -gt 100 &&
	cfsreplay info --json '$seek' >a.json &&
	cfsreplay info --json retyped.data >b.json &&
	python3 -c '
import json, sys
a, b = json.load(open(\"a.json\")), json.load(open(\"b.json\"))
n = int(sys.argv[1])
assert b[\"records\"] == a[\"records\"], (a[\"records\"], b[\"records\"])
assert b[\"unknown_events\"] == a[\"unknown_events\"] + n, (b[\"unknown_events\"], n)
assert sum(b[\"events\"].values()) == sum(a[\"events\"].values()) - n
' \$n
"

test_expect_success 'random bytes are refused' "
	head -c 4096 /dev/urandom >junk.bin &&
	refused junk.bin
"

if command -v trace-cmd >/dev/null 2>&1; then
	test_expect_success 'garbage lines inside report text are counted as malformed' "
		trace-cmd report '$TRACES/periodic.dat' >good.txt 2>/dev/null &&
		awk 'NR % 100 == 50 { print \"%%% no event here \" NR; n++ } { print }
			END { print n >\"n\" }' good.txt >bad.txt &&
		test \$(cat n) -gt 10 &&
		test \$(jfield good.txt malformed_events) -eq 0 &&
		test \$(jfield bad.txt malformed_events) -eq \$(cat n) &&
		counts_of good.txt >a && counts_of bad.txt >b && diff -u a b
	"
else
	test_skip "garbage lines inside report text" "trace-cmd is not installed"
fi

test_done

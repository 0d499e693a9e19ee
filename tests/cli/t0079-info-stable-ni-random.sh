#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NI_RANDOM in the stable series 6.1.y, 6.6.y and 6.12.y (33cf66d88306,
# from 6.1.160, 6.6.120 and 6.12.65): 6.1.y's and 6.6.y's features.h has it after LATENCY_WARN, before
# ALT_PERIOD and BASE_SLICE (6.1.y) or HZ_BW (6.6.y), so a bitmask's bits
# from there on name other features than in the sublevel before.
# traces/periodic.dat is given each release (the uname in its header,
# same length) and a sysctl_sched_features in its metadata
# (tests/helpers/meta-set); the names are counted here by hand:
#  - 6.1.y up to 6.1.159: LATENCY_WARN is bit 23, ALT_PERIOD 24,
#    BASE_SLICE 25, 26 features; bits 24 and 26 set: ALT_PERIOD on, bit 26
#    unnamed; 6.1.160: NI_RANDOM 24, ALT_PERIOD 25, BASE_SLICE 26, 27
#    features: NI_RANDOM and BASE_SLICE on;
#  - 6.6.y up to 6.6.119: HZ_BW is bit 24, 25 features; bits 24 and 25
#    set: HZ_BW on, bit 25 unnamed; 6.6.120: NI_RANDOM 24, HZ_BW 25, 26
#    features: both on;
#  - 6.12.y from 6.12.13 up to 6.12.64: DELAY_DEQUEUE is bit 8, LATENCY_WARN
#    26, 27 features; bits 8 and 27 set: DELAY_DEQUEUE on, bit 27 unnamed;
#    6.12.65 (6.12.13's order, NI_RANDOM appended after LATENCY_WARN, the
#    last line): NI_RANDOM 27, 28 features: both on.
. "$(dirname "$0")/lib.sh"

METASET=${HELPER_DIR:-$SRC_DIR/tests/helpers}/meta-set

[ -x "$METASET" ] || { test_skip 'stable NI_RANDOM' "no $METASET (make builds it)"; test_done; }

# as_release REL MASK: p-REL.dat, periodic.dat as recorded on REL (7 characters,
# as 6.18.44) with sysctl_sched_features MASK; its info in info-REL.txt
as_release() {
	local off
	off=$(grep -boa '6\.18\.44-fc-v1147' "$TRACES/periodic.dat" | head -1 | cut -d: -f1) &&
	[ -n "$off" ] && [ ${#1} -eq 7 ] && cp "$TRACES/periodic.dat" "p-$1.dat" &&
	printf '%s' "$1" | dd of="p-$1.dat" bs=1 seek="$off" conv=notrunc 2>/dev/null &&
	printf '{"sysctl_sched": {"sysctl_sched_features": %d}}\n' "$2" >"m-$1.json" &&
	"$METASET" "p-$1.dat" "m-$1.json" &&
	cfsreplay info "p-$1.dat" >"info-$1.txt" &&
	grep -q "^kernel: *$1-fc-v1147" "info-$1.txt"
}

# decoded REL ORDER NR ON: info of p-REL.dat decodes by the order of ORDER,
# NR features, with exactly ON on
decoded() {
	grep -q "features.h order of $2), $3 features" "info-$1.txt" &&
	grep -q "^  on: *$4\$" "info-$1.txt"
}

# before_after OLD NEW MASK: under OLD (its order ORDER_OLD, NR_OLD
# features, ON_OLD on) bit UNNAMED of MASK has no name; under NEW (ORDER_NEW,
# NR_NEW, ON_NEW) every bit has one
before_after() {
	as_release "$1" "$3" &&
	decoded "$1" "$ORDER_OLD" "$NR_OLD" "$ON_OLD" &&
	grep -q "^  unnamed bits: $UNNAMED " "info-$1.txt" &&
	as_release "$2" "$3" &&
	decoded "$2" "$ORDER_NEW" "$NR_NEW" "$ON_NEW" &&
	! grep -q "unnamed" "info-$2.txt"
}

test_expect_success '6.1.159 and 6.1.160 name bits 24 and 26 differently' '
	ORDER_OLD=v6.0-v6.1.159 NR_OLD=26 ON_OLD=ALT_PERIOD UNNAMED=26 \
	ORDER_NEW=v6.1.160-v6.1.y NR_NEW=27 ON_NEW="NI_RANDOM BASE_SLICE" \
		before_after 6.1.159 6.1.160 $(( (1 << 24) | (1 << 26) ))
'

test_expect_success '6.6.119 and 6.6.120 name bits 24 and 25 differently' '
	ORDER_OLD=v6.6-v6.6.119 NR_OLD=25 ON_OLD=HZ_BW UNNAMED=25 \
	ORDER_NEW=v6.6.120-v6.6.y NR_NEW=26 ON_NEW="NI_RANDOM HZ_BW" \
		before_after 6.6.119 6.6.120 $(( (1 << 24) | (1 << 25) ))
'

test_expect_success '6.12.64 and 6.12.65 name bit 27 differently' '
	ORDER_OLD=v6.12.13-v6.12.64 NR_OLD=27 ON_OLD=DELAY_DEQUEUE UNNAMED=27 \
	ORDER_NEW=v6.12.65-v6.12.y NR_NEW=28 ON_NEW="DELAY_DEQUEUE NI_RANDOM" \
		before_after 6.12.64 6.12.65 $(( (1 << 27) | (1 << 8) ))
'

test_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make clean removes build products only: in-tree builds put them beside
# the sources, and a clean that matched by name once removed the unit
# test sources (tests/unit/test-*.c).  Outside a git checkout (a release
# tarball) the tree's files are listed less its build products: objects,
# dependency files, archives, lists and executables built here (ELF).
. "$(dirname "$0")/lib.sh"

source_files() {
	find . -type f -not -path './.git/*' -not -name '*.o' -not -name '*.d' \
		-not -name '*.a' -not -name '*.list' | while read -r f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || printf '%s\n' "$f"
	done
}

test_expect_success 'make clean in a copy of the tree keeps every tracked file' "
	cd '$SRC_DIR' && git ls-files >'$TRASH/files' 2>/dev/null || source_files >'$TRASH/files'
	cd '$SRC_DIR' && tar cf - -T '$TRASH/files' | (mkdir '$TRASH/tree' && cd '$TRASH/tree' && tar xf -) &&
	cd '$TRASH/tree' && touch tests/unit/test-x.o lib/x.o cfsreplay &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u SANITIZE make -s clean >/dev/null 2>&1 &&
	while read -r f; do test -e \"\$f\" || { echo \"removed \$f\"; exit 1; }; done <'$TRASH/files' &&
	test ! -e cfsreplay
"
test_done

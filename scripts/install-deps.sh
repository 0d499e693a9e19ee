#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages that building and testing cfsreplay need.
# Idempotent: when every package is present it prints nothing and changes
# nothing.  Needs root (or sudo) only when something is missing.
#
#   scripts/install-deps.sh          install what is missing
#   scripts/install-deps.sh --check  list what is missing, exit 1 if anything is
set -eu

PACKAGES="gcc make pkg-config libc6-dev
libtraceevent-dev libtracefs-dev zlib1g-dev libzstd-dev libjson-c-dev
libbpf-dev clang
libcmocka-dev trace-cmd linux-perf gzip zstd python3 time clang-format"

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	exit 0
fi
if [ "${1:-}" = "--check" ]; then
	echo "missing Debian packages:$missing"
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: not a Debian system; install the equivalents of:$missing" >&2
	exit 1
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps: need root to install:$missing" >&2
		exit 1
	fi
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# A stale package index makes installs fail; refresh it once.
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing

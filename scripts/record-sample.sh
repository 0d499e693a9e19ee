#!/bin/bash
# record-sample.sh - record one of the bundled sample traces (traces/*.dat).
#
#   usage: scripts/record-sample.sh periodic|cgroups|v6|nosched OUTPUT.dat
#
# periodic, cgroups and v6 are recorded with `cfsreplay record --truth`
# (the binary of this tree, built first): scripts/workload.py runs as its
# command and writes its markers into the recording's own trace_marker
# ($CFSREPLAY_TRACE_MARKER).  The traces carry the recorder's metadata and
# kernel snapshots (docs/RECORD-FORMAT.md).  periodic is zstd-compressed,
# cgroups uncompressed (the other v7 reader path; Debian's trace-cmd cannot
# read zlib), v6 is recorded uncompressed and converted with
# `trace-cmd convert --file-version 6` (which drops the recorder's sections).
#
# nosched records only trace_marker writes (ftrace:print): a real trace.dat
# with no scheduler events, for the bad-input tests.  cfsreplay record always
# records the scheduler, so nosched is still made by hand, as below.
#
# Needs root, a mounted tracefs, python3 (stdlib only), trace-cmd for v6 and
# nosched, util-linux unshare/mount, and for "cgroups" a cgroup v1 "cpu"
# hierarchy.
#
# Overridable via environment:
#   CFSR_TRUTH_MS     snapshot period for --truth (default 50)
#   CFSR_BUFFER_KB    per-CPU ring buffer size during recording (8192)
#   CFSR_SECONDS      run time of each workload task (scenario default)
#   PYTHON            interpreter for workload.py (default /usr/bin/python3)
#
# ---- nosched, by hand ----
#
# Why not `trace-cmd record`: on the recording machine `trace-cmd record` /
# `trace-cmd start` fail (they write set_ftrace_filter).  So this script
# enables the events by hand in tracefs (top-level buffer), runs the workload
# (scripts/workload.py) and then saves the ring buffer with
# `trace-cmd extract`.
#
# Details that shape the output file:
#  * Clock: "perf" (falls back to "local" if the kernel lacks it).  It is set
#    on the top-level buffer, because `trace-cmd extract` stores the top-level
#    trace_clock in the file even when extracting an instance (-B).
#  * `trace-cmd extract` has no -e option, so it would store the formats of
#    all ~2300 kernel events (2 MB) and all of /proc/kallsyms (5 MB), which
#    breaks the 1 MiB budget for small test files.  It therefore runs in a
#    private mount namespace (unshare -m) where
#      - tracefs events/ is replaced by a copy holding only header_page,
#        header_event and the formats of the sched, cgroup and ftrace systems
#        (the same set `trace-cmd record -e sched -e cgroup` would store), and
#      - /proc/kallsyms is replaced by the single real line of
#        tracing_mark_write and the following symbol (so trace-cmd report can
#        still name the ip of ftrace print events).
#    The ring-buffer data itself (per_cpu/*/trace_pipe_raw) is read from the
#    real tracefs, untouched.
#  * File version / compression: extract always writes the default version
#    (7 with trace-cmd 3.1.6); `--file-version` is ignored by extract, but
#    `--compression` works.  Version 6 files are produced from the extracted
#    v7 file with `trace-cmd convert --file-version 6 --compression none`.
#    This trace-cmd build only supports zstd (`trace-cmd list -c`), so zlib
#    compressed files cannot be made here.
#
# Overridable via environment:
#   CFSR_COMPRESSION  compression passed to extract: default zstd for
#                     "periodic", none for "cgroups" (zlib, the other codec
#                     trace.dat v7 knows, is not available in this build; an
#                     uncompressed v7 file covers a different reader path
#                     instead); "v6" is always converted to uncompressed v6
#   CFSR_BUFFER_KB    per-CPU ring buffer size during recording (8192)
#   CFSR_SECONDS      run time of each workload task (scenario default)
#   PYTHON            interpreter for workload.py (default /usr/bin/python3)
#
# All tracefs settings touched (tracing_on, trace_clock, buffer_size_kb,
# saved_cmdlines_size, event enables) are saved first and restored on exit,
# the buffer is cleared, and leftover cfsr-* cgroups are removed (EXIT trap).

set -euo pipefail

die() { echo "record-sample.sh: $*" >&2; exit 1; }

usage() {
    echo "usage: $0 periodic|cgroups|v6|nosched OUTPUT.dat" >&2
    exit 2
}

[ $# -eq 2 ] || usage
SCENARIO=$1
OUT=$2
case $SCENARIO in periodic|cgroups|v6|nosched) ;; *) usage ;; esac

[ "$(id -u)" -eq 0 ] || die "must be run as root (writes to tracefs and cgroupfs)"

HERE=$(cd "$(dirname "$0")" && pwd)
WORKLOAD=$HERE/workload.py
[ -f "$WORKLOAD" ] || die "missing $WORKLOAD"

if [ "$SCENARIO" != nosched ]; then
    PYTHON=${PYTHON:-/usr/bin/python3}
    make -C "$HERE/.." -s >/dev/null || die "cannot build cfsreplay"
    CFSR=$HERE/../cfsreplay
    COMP=zstd
    case $SCENARIO in cgroups|v6) COMP=none ;; esac
    WLARGS=
    [ -n "${CFSR_SECONDS:-}" ] && WLARGS="--seconds $CFSR_SECONDS"
    if [ "$SCENARIO" = cgroups ]; then
        CPU_CG=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
        [ -n "$CPU_CG" ] && [ -e "$CPU_CG/cpu.shares" ] ||
            die "no cgroup v1 cpu hierarchy found in /proc/mounts"
        WLARGS="$WLARGS --cgroup-root $CPU_CG"
    fi
    REC=$OUT
    [ "$SCENARIO" = v6 ] && REC=$(mktemp /tmp/cfsr-record.XXXXXX.dat)
    # shellcheck disable=SC2016 # expanded by the command's shell
    "$CFSR" record -f --truth="${CFSR_TRUTH_MS:-50}" --buffer-kb "${CFSR_BUFFER_KB:-8192}" \
        --compression "$COMP" -o "$REC" -- \
        sh -c 'exec "$0" "$1" "$2" --marker "$CFSREPLAY_TRACE_MARKER" $3' \
        "$PYTHON" "$WORKLOAD" "$SCENARIO" "$WLARGS" || die "cfsreplay record failed"
    if [ "$SCENARIO" = v6 ]; then
        trace-cmd convert -i "$REC" --file-version 6 --compression none -o "$OUT" \
            >/dev/null 2>&1 || { rm -f "$REC"; die "trace-cmd convert failed"; }
        rm -f "$REC"
    fi
    echo "wrote $OUT ($(stat -c %s "$OUT") bytes)"
    exit 0
fi

# --- locate tracefs ---------------------------------------------------------
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
    if [ -w "$d/trace_marker" ] && [ -d "$d/events" ]; then T=$d; break; fi
done
[ -n "$T" ] || die "tracefs is not mounted (tried /sys/kernel/tracing and /sys/kernel/debug/tracing); mount it with: mount -t tracefs nodev /sys/kernel/tracing"

# Prefer the system python: a python3 found first in PATH may be a shim (e.g.
# pyenv) that forks/execs dozens of helper processes into the trace.
PYTHON=${PYTHON:-}
if [ -z "$PYTHON" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
for tool in trace-cmd "$PYTHON" unshare mount pgrep; do
    command -v "$tool" >/dev/null || die "$tool not found"
done

EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup
sched/sched_wakeup_new sched/sched_migrate_task sched/sched_process_fork
sched/sched_process_exit sched/sched_process_exec sched/sched_process_free
sched/sched_stat_runtime sched/sched_pi_setprio"
for e in $EVENTS; do
    [ -e "$T/events/$e/enable" ] || die "kernel has no event $e"
done
# cgroup:* except cgroup_rstat_* (optional: kernels without the system work)
CGEVENTS=
[ "$SCENARIO" = nosched ] && EVENTS=
for d in "$T"/events/cgroup/*/; do
    [ "$SCENARIO" = nosched ] && break
    [ -e "$d/enable" ] || continue
    n=$(basename "$d")
    case $n in cgroup_rstat_*) continue ;; esac
    CGEVENTS="$CGEVENTS cgroup/$n"
done
[ -e "$T/events/ftrace/print/format" ] || die "kernel has no ftrace:print event"

CPU_CG=
if [ "$SCENARIO" = cgroups ]; then
    CPU_CG=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
    [ -n "$CPU_CG" ] && [ -e "$CPU_CG/cpu.shares" ] ||
        die "no cgroup v1 cpu hierarchy found in /proc/mounts"
    for g in cfsr-A/child cfsr-A cfsr-B/child cfsr-B cfsr-tmp; do
        [ ! -e "$CPU_CG/$g" ] || die "$CPU_CG/$g already exists; remove it first"
    done
fi

# --- save state, install restore trap -----------------------------------------
WORK=$(mktemp -d /tmp/cfsr-record.XXXXXX)
SAVED_ON=$(cat "$T/tracing_on")
SAVED_CLOCK=$(sed -E 's/.*\[([^]]+)\].*/\1/' "$T/trace_clock")
SAVED_BUF=$(awk '{ if (match($0, /expanded: [0-9]+/)) print substr($0, RSTART+10, RLENGTH-10); else print $1 }' "$T/buffer_size_kb")
SAVED_CMDLINES=$(cat "$T/saved_cmdlines_size")
: > "$WORK/enables"
for e in $EVENTS $CGEVENTS; do
    echo "$e $(cat "$T/events/$e/enable")" >> "$WORK/enables"
done
WL_PID=

restore() {
    set +e
    if [ -n "$WL_PID" ] && kill -0 "$WL_PID" 2>/dev/null; then
        # the workload's children are time-bounded (a few seconds) and exit
        # by themselves; stop them early by parent pid anyway
        for p in $(pgrep -P "$WL_PID"); do kill -TERM "$p" 2>/dev/null; done
        kill -TERM "$WL_PID" 2>/dev/null
        sleep 0.2
    fi
    echo 0 > "$T/tracing_on"
    while read -r e v; do
        # "0*" / "1*" mean mixed state in sub-instances; only 0/1 are writable
        echo "${v%\*}" > "$T/events/$e/enable" 2>/dev/null
    done < "$WORK/enables"
    echo "$SAVED_CLOCK" > "$T/trace_clock"
    echo "$SAVED_BUF" > "$T/buffer_size_kb"
    echo "$SAVED_CMDLINES" > "$T/saved_cmdlines_size"
    : > "$T/trace"                      # clear the buffer
    echo "$SAVED_ON" > "$T/tracing_on"
    if [ -n "$CPU_CG" ]; then
        for g in cfsr-tmp cfsr-B/child cfsr-B cfsr-A; do
            [ -d "$CPU_CG/$g" ] || continue
            for p in $(cat "$CPU_CG/$g/cgroup.procs" 2>/dev/null); do
                echo "$p" > "$CPU_CG/cgroup.procs" 2>/dev/null
            done
            rmdir "$CPU_CG/$g"
        done
    fi
    rm -rf "$WORK"
}
trap restore EXIT
trap 'echo "record-sample.sh: command failed at line $LINENO" >&2' ERR
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# --- configure and record -------------------------------------------------------
echo 0 > "$T/tracing_on"
if grep -qw perf "$T/trace_clock"; then CLOCK=perf; else CLOCK=local; fi
echo "$CLOCK" > "$T/trace_clock"
echo "${CFSR_BUFFER_KB:-8192}" > "$T/buffer_size_kb"
echo 1024 > "$T/saved_cmdlines_size"
: > "$T/trace"
for e in $EVENTS $CGEVENTS; do echo 1 > "$T/events/$e/enable"; done

WL_ARGS=("$SCENARIO" --marker "$T/trace_marker")
[ -n "$CPU_CG" ] && WL_ARGS+=(--cgroup-root "$CPU_CG")
[ -n "${CFSR_SECONDS:-}" ] && WL_ARGS+=(--seconds "$CFSR_SECONDS")

echo 1 > "$T/tracing_on"
sleep 0.05
if [ "$SCENARIO" = nosched ]; then
    for i in 1 2 3 4 5; do echo "cfsr-marker $i" > "$T/trace_marker"; sleep 0.01; done
else
    "$PYTHON" "$WORKLOAD" "${WL_ARGS[@]}" &
    WL_PID=$!
    wait "$WL_PID" || die "workload failed"
    WL_PID=
fi
sleep 0.05
echo 0 > "$T/tracing_on"
for e in $EVENTS $CGEVENTS; do echo 0 > "$T/events/$e/enable"; done

# --- extract with a reduced metadata view ------------------------------------------
V=$WORK/events
mkdir -p "$V"
cat "$T/events/header_page" > "$V/header_page"
cat "$T/events/header_event" > "$V/header_event"
for sys in sched cgroup ftrace; do
    [ -d "$T/events/$sys" ] || continue
    for d in "$T/events/$sys"/*/; do
        [ -e "$d/format" ] || continue
        n=$(basename "$d")
        mkdir -p "$V/$sys/$n"
        cat "$d/format" > "$V/$sys/$n/format"
        if [ -e "$d/id" ]; then cat "$d/id" > "$V/$sys/$n/id"; fi
    done
done
sort /proc/kallsyms | awk 'f == 1 { print; f = 2 } $3 == "tracing_mark_write" && !f { print; f = 1 }' > "$WORK/kallsyms"

case $SCENARIO in cgroups) DEFCOMP=none ;; *) DEFCOMP=zstd ;; esac
COMP=${CFSR_COMPRESSION:-$DEFCOMP}
RAW=$WORK/extract.dat
unshare -m --propagation private sh -c '
    mount --bind "$1" "$2/events" && mount --bind "$3" /proc/kallsyms &&
    exec trace-cmd extract --compression "$4" -o "$5"' \
    sh "$V" "$T" "$WORK/kallsyms" "$COMP" "$RAW" > "$WORK/extract.log" 2>&1 ||
    { cat "$WORK/extract.log" >&2; die "trace-cmd extract failed"; }

if [ "$SCENARIO" = v6 ]; then
    trace-cmd convert -i "$RAW" --file-version 6 --compression none -o "$OUT" \
        > "$WORK/convert.log" 2>&1 ||
        { cat "$WORK/convert.log" >&2; die "trace-cmd convert failed"; }
else
    cp "$RAW" "$OUT"
fi
echo "wrote $OUT ($(stat -c %s "$OUT") bytes, clock $CLOCK, extract compression $COMP)"

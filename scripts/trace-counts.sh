#!/bin/bash
# trace-counts.sh - per-event-type counts of a trace.dat file, computed with
# the independent reference tool only (trace-cmd report), never our own code.
#
#   usage: scripts/trace-counts.sh FILE.dat > FILE.counts
#
# Output: one line "<event_name> <count>" per event type, sorted by event
# name (LC_ALL=C byte order); event names as trace-cmd names them
# (sched_switch, print, cgroup_attach_task, ...).
#
# How it counts: `trace-cmd report -N FILE` (-N: no plugins, so the output
# does not depend on which plugins are installed; event names are the same).
# Every event line looks like
#     [BUFFER: ]COMM-PID [CPU] SECONDS.USECS: EVENT_NAME: payload
# and the event name is taken from the leftmost "[CPU] TIMESTAMP: NAME:"
# match (awk match() is leftmost, so a comm containing ':' or a payload that
# looks like a timestamp cannot confuse it).  Lines without that shape are
# not events: "cpus=N" (header), "version = N", and lost-event notices like
# "CPU:1 [N EVENTS DROPPED]" / "CPU N: ..."; they are ignored, and echoed to
# stderr (prefixed "trace-counts: non-event line:") unless they are the cpus=
# header, so that lost events are never silent.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 FILE.dat" >&2; exit 2; }
[ -r "$1" ] || { echo "trace-counts.sh: cannot read $1" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "trace-counts.sh: trace-cmd not found" >&2; exit 1; }

trace-cmd report -N "$1" 2>/dev/null | LC_ALL=C awk '
    match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: +[^ :]+:/) {
        s = substr($0, RSTART, RLENGTH)
        sub(/^\[[0-9]+\] +[0-9]+\.[0-9]+: +/, "", s)
        sub(/:$/, "", s)
        n[s]++
        next
    }
    /^cpus=[0-9]+$/ { next }
    { print "trace-counts: non-event line: " $0 > "/dev/stderr" }
    END { for (e in n) print e, n[e] }
' | LC_ALL=C sort -k1,1

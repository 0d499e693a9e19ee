# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the recording scripts that make cgroups.
#
# cgroup_remove DIR...: for each cgroup directory that exists, move what
# is left in it to its parent, then remove it (children first: list them
# before their parents).
cgroup_remove() {
	local d p
	for d in "$@"; do
		[ -d "$d" ] || continue
		while read -r p; do echo "$p" >"$(dirname "$d")/cgroup.procs" 2>/dev/null || true; done \
			<"$d/cgroup.procs"
		rmdir "$d" 2>/dev/null || true
	done
}

# cgroup_mounts: set V1 (the cgroup v1 cpu hierarchy's mount) and V2 (a
# cgroup2 mount) from /proc/mounts; die (the caller's) when either is missing.
cgroup_mounts() {
	V1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
	V2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$V1" ] && [ -e "$V1/cpu.shares" ] || die "no cgroup v1 cpu hierarchy in /proc/mounts"
	[ -n "$V2" ] || die "no cgroup2 mount in /proc/mounts"
}

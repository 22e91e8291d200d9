#!/bin/sh
# kernfs.sh COMMAND...: run COMMAND with tracefs, debugfs and a memory cgroup
# hierarchy at their usual places, whatever the host has mounted.  Call it in
# a private mount namespace (unshare -m): what it mounts is that namespace's
# alone, and the host's own mounts are used where they are there.  A fresh
# machine or a chroot may have none of the three; the tests' verdicts must
# not depend on that (wbtop(1) says what it prints when one is missing).
set -u
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing || exit 90
mountpoint -q /sys/kernel/debug || mount -t debugfs nodev /sys/kernel/debug || exit 90
# wbtop takes a cgroup2 mount at /sys/fs/cgroup, or a v1 memory mount there or
# under it (src/cgpath.c).  Where neither is, a v1 memory mount is tried first:
# on a host whose memory controller is bound to v1 it is the only one with
# memory figures; else cgroup2.
if ! [ -e /sys/fs/cgroup/cgroup.controllers ] && ! [ -e /sys/fs/cgroup/memory.stat ] &&
   ! [ -e /sys/fs/cgroup/memory/memory.stat ]; then
	mount -t tmpfs -o size=1m,mode=755 cgroup_root /sys/fs/cgroup || exit 90
	mkdir -p /sys/fs/cgroup/memory
	if ! mount -t cgroup -o memory cgroup /sys/fs/cgroup/memory 2>/dev/null; then
		umount /sys/fs/cgroup
		mount -t cgroup2 nodev /sys/fs/cgroup || exit 90
	fi
fi
# WB_HIDE_DEBUGFS=1: debugfs hidden, as on a host that has none
[ -z "${WB_HIDE_DEBUGFS:-}" ] || mount -t tmpfs -o size=1m nodev /sys/kernel/debug || exit 90
exec "$@"

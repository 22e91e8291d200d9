# tests/lab/guest_lib.sh - what the lab's guest scripts (guest.sh, corpus_guest.sh) share,
# sourced with the results share as $1 and the tag of their log lines as LOG_TAG: the
# environment run.sh wrote, log/run/finish, the kernel's file systems, a modprobe that loads
# from the package's tree in the host's cache (guest_modules), and disk (serial -> /dev/vdX).
OUT=$1
. "$OUT/env"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin DM_DISABLE_UDEV=1 LC_ALL=C
fail=0
log() { echo "$LOG_TAG: $*"; }
run() { "$@" >> "$OUT/setup.log" 2>&1 || { log "FAILED: $*"; fail=1; }; }
finish() {
	sync
	[ $fail = 0 ] && date +%s > "$OUT/done"
	sync
	echo o > /proc/sysrq-trigger
	sleep 10
}
disk() { # serial -> /dev/vdX
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${d##*/}"; return; }
	done
}
# guest_modules MODULE...: load them through the package's tree in the host's cache
guest_modules() {
	printf '#!/bin/sh\nexec /sbin/modprobe -d %s "$@"\n' "$KDIR" > /run/modprobe
	chmod 755 /run/modprobe
	echo /run/modprobe > /proc/sys/kernel/modprobe
	for m in "$@"; do
		/run/modprobe "$m" >> "$OUT/setup.log" 2>&1 || log "modprobe $m failed"
	done
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t debugfs none /sys/kernel/debug
mount -t tracefs none /sys/kernel/tracing
mount -t cgroup2 none /sys/fs/cgroup
log "kernel $(uname -r)"

# Shared helpers for end-to-end tests; source with: . "$E2E_LIB"
set -u
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root ($1)"; }
# need_tool COMMAND PACKAGE: a test that needs COMMAND skips without it, but
# not under CI (CI=true), where tools/deps.sh test has installed everything the
# tests use and a missing tool is a failure of the set-up.
need_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	[ "${CI:-}" = true ] && fail "$1 is missing: tools/deps.sh test must install $2"
	skip "$1 not installed (Debian: $2; sh tools/deps.sh test installs it)"
}
TMP=$(mktemp -d /tmp/wbtop-t.XXXXXX)
CLEANUPS=""
# Register a command to run at exit, last registered first.
on_exit() { CLEANUPS="$*; $CLEANUPS"; }
trap 'eval "$CLEANUPS"; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
# A loop device of SIZE MiB with a filesystem mounted at DIR; sets LOOPDEV to
# the device; its image in DIR's parent's TMP, or in IMGDIR when given as a
# third argument; the filesystem ext4, or FS (ext4 or xfs) when given as a
# fourth (XFS wants 300 MiB or more).  Call it directly, NOT as
# $(make_loop_fs ...): in a subshell its cleanups would be lost and the device
# left behind.
make_loop_fs() {
	size=$1 dir=$2 img="${3:-$TMP}/$(basename "$dir").img" fs=${4:-ext4}
	truncate -s "${size}M" "$img" || return 1
	dev=$(losetup -f --show "$img") || return 1
	on_exit "losetup -d $dev 2>/dev/null"
	case $fs in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null 2>&1 || return 1 ;;
	xfs) mkfs.xfs -q -f "$dev" >/dev/null 2>&1 || return 1 ;;
	*) return 1 ;;
	esac
	mkdir -p "$dir"
	mount "$dev" "$dir" || return 1
	on_exit "umount -l $dir 2>/dev/null"
	LOOPDEV=$dev
}
# A TCP port free on 127.0.0.1 now (the kernel's pick), for a server the test starts.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Tests that make an XFS filesystem need mkfs.xfs (tools/deps.sh test installs it).
need_xfs() { need_tool mkfs.xfs xfsprogs; }

# One host-wide lock for the host's writeback knobs: every test and bench that
# changes them holds it exclusively for its whole run (knob_lock), one that
# only compares them with wbtop's output holds it shared (knob_lock_shared),
# so that no two save and restore each other's values.  It is let go last at
# exit, after the knobs are back (fd 8 may be inherited by what the test
# started, so it is unlocked, not just closed).
KNOB_LOCK=${WB_KNOB_LOCK:-/run/lock/wbtop-knobs.lock}
knob_lock() {
	[ -n "${KNOB_LOCKED:-}" ] && return 0
	if [ "${1:-}" = -s ] && ! [ -w "$(dirname "$KNOB_LOCK")" ]; then
		# not root: nothing of ours can change the knobs without the lock's file
		[ -e "$KNOB_LOCK" ] || return 0
		exec 8<"$KNOB_LOCK" || fail "cannot open $KNOB_LOCK"
	else
		mkdir -p "$(dirname "$KNOB_LOCK")" && exec 8>>"$KNOB_LOCK" || fail "cannot open $KNOB_LOCK"
	fi
	if ! flock -n ${1:--x} 8; then
		# said, so that a test that times out waiting shows who held it (a
		# bench's corpus holds it for minutes: make bench beside make check)
		# (the processes with it open: the holder, and any other waiter)
		echo "knob lock: waiting for $KNOB_LOCK, open in:" $(for _d in /proc/[0-9]*; do
			[ "${_d#/proc/}" != $$ ] && ls -l "$_d/fd" 2>/dev/null | grep -qF "$KNOB_LOCK" &&
				echo "[$(tr '\0' ' ' < "$_d/cmdline" 2>/dev/null | cut -c1-50)]"; done)
		flock ${1:--x} 8 || fail "cannot take $KNOB_LOCK"
	fi
	KNOB_LOCKED=1
	on_exit "flock -u 8"
}
knob_lock_shared() { knob_lock -s; }

# Remember the dirty-limit knobs and put them back at exit, also when the
# test fails.  Takes the knob lock first.  Writing one member of a ratio/bytes pair zeroes the other,
# so what is written back is the member that was in force (non-zero).
save_dirty_knobs() {
	knob_lock
	_vm=/proc/sys/vm
	old_ratio=$(cat $_vm/dirty_ratio) old_bytes=$(cat $_vm/dirty_bytes)
	old_bg_ratio=$(cat $_vm/dirty_background_ratio) old_bg_bytes=$(cat $_vm/dirty_background_bytes)
	on_exit restore_dirty_knobs
}
restore_dirty_knobs() {
	if [ "$old_bytes" != 0 ]; then echo "$old_bytes" > $_vm/dirty_bytes; else echo "$old_ratio" > $_vm/dirty_ratio; fi
	if [ "$old_bg_bytes" != 0 ]; then echo "$old_bg_bytes" > $_vm/dirty_background_bytes
	else echo "$old_bg_ratio" > $_vm/dirty_background_ratio; fi
}

# wait_output FILE ERE [PID]: until FILE (what a wbtop writes, an interval
# flushed whole) has a line matching ERE; what the test drives next then starts
# from what wbtop has done, not from a guess of how long that takes.  Fails if
# PID ends first, or after a minute.
wait_output() {
	_i=0
	while ! grep -qE -- "$2" "$1" 2>/dev/null; do
		[ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && fail "want a line matching '$2' in $1: the process ended first"
		_i=$((_i + 1)); [ $_i -gt 600 ] && fail "want a line matching '$2' in $1: none after 60 s"
		sleep 0.1
	done
}

# A real-time priority for a test's own drivers (writers paced with pv, the
# dd behind them, wbtop recording what they do) where root may set one: a
# driver that a loaded machine starves does what the test did not script.
RT=""
chrt -f 5 true 2>/dev/null && RT="chrt -f 5"

# The test driver of the writeback trace source (tests/probe/wbprobe.c),
# built next to the wbtop under test.
WBPROBE=${WBPROBE:-$(dirname "$WBTOP")/wbprobe}
need_probe() { [ -x "$WBPROBE" ] || fail "no $WBPROBE (make $(dirname "$WBTOP")/wbprobe)"; }

# What wbtop says when the host lets it read only part of the kernel's
# writeback loop (not root, debugfs not mounted): one line, a comment at the
# top of batch text, on stderr for JSON and OpenMetrics (wbtop(1), THE
# KERNEL'S WRITEBACK LOOP).  Tests that are not about the loop pass on any
# host: they take that line out before they compare or look for silence;
# t_kernel_loop holds wbtop to saying nothing of the kind as root.
KLOOP_NOTE_RE='^(wbtop: |# )kernel writeback loop: '
without_kloop_note() { grep -Ev "$KLOOP_NOTE_RE" "$1"; return 0; }
# stderr_clean FILE: FILE is empty but for that line.
stderr_clean() { [ -z "$(without_kloop_note "$1")" ]; }

# tracefs, debugfs and a memory cgroup hierarchy at their usual places
# (tests/e2e/kernfs.sh).  When the host lacks one, the test starts again in a
# private mount namespace that has all three, so the host's mounts stay as
# they were.  Call before anything is set up.
KERNFS="$(dirname "$E2E_LIB")/kernfs.sh"
kernfs_here() {
	mountpoint -q /sys/kernel/tracing && mountpoint -q /sys/kernel/debug &&
		{ [ -e /sys/fs/cgroup/cgroup.controllers ] || [ -e /sys/fs/cgroup/memory.stat ] ||
		  [ -e /sys/fs/cgroup/memory/memory.stat ]; }
}
need_kernfs() {
	kernfs_here && return 0
	[ -z "${WB_KERNFS_NS:-}" ] || fail "tracefs, debugfs or a cgroup hierarchy would not mount"
	rm -rf "$TMP"
	trap - EXIT
	WB_KERNFS_NS=1 exec unshare -m --propagation private sh "$KERNFS" sh "$1"
}

# A tracefs instance of the test's own reading balance_dirty_pages as text
# into FILE (an independent reader of what wbtop reads); sets REF_PID.
start_ref_reader() {
	_ref=/sys/kernel/tracing/instances/wbtest-$$
	mkdir "$_ref" || return 1
	on_exit "rmdir $_ref 2>/dev/null"
	echo 1 > "$_ref/events/writeback/balance_dirty_pages/enable" || return 1
	cat "$_ref/trace_pipe" > "$1" &
	REF_PID=$!
	on_exit "kill $REF_PID 2>/dev/null; wait $REF_PID 2>/dev/null"
}
# Stop it, after what it has buffered is read; its overruns must be none.
stop_ref_reader() {
	sleep 0.5
	kill $REF_PID 2>/dev/null
	wait $REF_PID 2>/dev/null
	awk '/overrun:/ { s += $2 } END { exit s != 0 }' "$_ref"/per_cpu/cpu*/stats ||
		fail "the reference reader lost events"
}

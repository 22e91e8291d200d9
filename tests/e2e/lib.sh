# Shared helpers for end-to-end tests; source with: . "$E2E_LIB"
set -u
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root ($1)"; }
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
# Tests that make an XFS filesystem need mkfs.xfs (tools/deps.sh test installs it).
need_xfs() { command -v mkfs.xfs >/dev/null 2>&1 || skip "mkfs.xfs missing (xfsprogs)"; }

# Remember the dirty-limit knobs and put them back at exit, also when the
# test fails.  Writing one member of a ratio/bytes pair zeroes the other,
# so what is written back is the member that was in force (non-zero).
save_dirty_knobs() {
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

# tracefs and debugfs at their usual places.  When the host has not mounted
# them, the test starts again in a private mount namespace that has, so the
# host's mounts stay as they were.  Call before anything is set up.
need_kernfs() {
	mountpoint -q /sys/kernel/tracing && mountpoint -q /sys/kernel/debug && return 0
	[ -z "${WB_KERNFS_NS:-}" ] || fail "tracefs or debugfs would not mount"
	rm -rf "$TMP"
	trap - EXIT
	WB_KERNFS_NS=1 exec unshare -m --propagation private sh -c '
		mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
		mountpoint -q /sys/kernel/debug || mount -t debugfs nodev /sys/kernel/debug
		exec sh "$0"' "$1"
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

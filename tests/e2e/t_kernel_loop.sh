#!/bin/sh
# The kernel's writeback loop in wbtop itself: three buffered dd writers
# fill three loop filesystems made here (ext4, XFS, ext4: the two of the
# regressions wbtop is for) under vm.dirty_bytes 16 MiB
# (restored on exit).  wbtop -b -P, recording, shows each dd paused on its
# own loop device's BDI, with the pause time a tracefs instance of the
# test's own saw (within 10% over the run, from the recording's JSON); the
# writeback table has the three devices with their thresholds; the replay
# prints what the live run printed (and -P the same pauses).  SIGINT,
# SIGTERM and SIGHUP remove the instance in batch mode and on the screen; a
# wbtop killed with SIGKILL leaves its instance, and the next start removes it;
# without root, the output's first line says what is missing and why.
. "$E2E_LIB"
need_root "makes loop filesystems, sets vm.dirty_bytes and reads tracefs"
need_xfs
need_kernfs "$0"
vm=/proc/sys/vm
inst_dir=/sys/kernel/tracing/instances
save_dirty_knobs
for i in 1 2 3; do
	fs=ext4
	[ $i = 2 ] && fs=xfs
	make_loop_fs 768 "$TMP/i15k$i" "$TMP" $fs || fail "could not make $fs loop filesystem $i"
	eval "dev$i=\$(cat /sys/class/block/$(basename "$LOOPDEV")/dev)"
done
echo $((16 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"
start_ref_reader "$TMP/ref" || fail "could not make the reference tracefs instance"

"$WBTOP" -b -P -d 1 -n 7 -w "$TMP/run.wbrec" > "$TMP/live" 2> "$TMP/err" &
wb=$!
on_exit "kill $wb 2>/dev/null"
wait_output "$TMP/live" '^[0-9:]{8} ' $wb	# its first interval: it is sampling
pids=""
for i in 1 2 3; do
	dd if=/dev/zero of="$TMP/i15k$i/f" bs=1M count=600 2>/dev/null &
	pids="$pids $!"
	on_exit "kill $! 2>/dev/null"
done
sleep 4
kill $pids 2>/dev/null
wait $pids 2>/dev/null
wait $wb || fail "wbtop exited $?: $(cat "$TMP/err")"
grep -v "^wbtop: note: recording" "$TMP/err" | grep -q . && fail "wbtop wrote to stderr: $(cat "$TMP/err")"
stop_ref_reader
grep -q '^# kernel writeback loop' "$TMP/live" && fail "something missing as root: $(head -1 "$TMP/live")"

# -P rows of FILE where task PID (a dd) was paused on device DEV (the
# columns by the header's names)
paused_rows() {
	awk -v pid=$2 -v dev="$3" '$1 == "PID" { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == pid && $col["command"] == "dd" && $col["held_on"] == dev && $col["thr_ms/s"] > 0' "$1"
}
# -P rows of FILE where task PID was paused on a device other than DEV
wrong_rows() {
	awk -v pid=$2 -v dev="$3" '$1 == "PID" { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == pid && $col["thr_ms/s"] > 0 && $col["held_on"] != dev' "$1"
}

# Each dd: shown paused on its own device by -P (PID ... thr_ms/s pauses/s
# rl_kB/s held_on command), its pause time in the recording (JSON tasks,
# ms/s times each interval's dt) within 10% of the reference's, and its
# device in the writeback table with a threshold.
"$WBTOP" -r "$TMP/run.wbrec" --export json > "$TMP/json" || fail "export failed"
i=0
for pid in $pids; do
	i=$((i + 1))
	eval "dev=\$dev$i"
	# -P lists the busiest tasks: on a loaded machine a dd may miss a few
	# tables, but it is never shown held on another device, and the three
	# together are shown paused on theirs
	rows=$(paused_rows "$TMP/live" $pid "$dev" | wc -l)
	shown=$((${shown:-0} + rows))
	wrong_rows "$TMP/live" $pid "$dev" | grep -q . && { grep -E "^ *$pid " "$TMP/live"; fail "dd $i (pid $pid) shown paused on another device than $dev"; }
	got=$(python3 -c '
import json, sys
pid = int(sys.argv[2])
ms = sum((t["throttled_ms"] or 0) * s["dt_s"] for line in open(sys.argv[1]) for s in [json.loads(line)]
         for t in s.get("tasks", []) if t["pid"] == pid and t["bdi"] == sys.argv[3])
print("%.0f" % ms)' "$TMP/json" "$pid" "$dev")
	ref=$(awk -v pid="$pid" '/balance_dirty_pages:/ {
		split($0, a, " \\["); n = split(a[1], t, "-")
		if (t[n] != pid) next
		if (match($0, / pause=-?[0-9]+/)) { v = substr($0, RSTART + 7, RLENGTH - 7); if (v > 0) s += v }
	} END { print s + 0 }' "$TMP/ref")
	echo "dd $i (pid $pid) on $dev: wbtop $got ms, reference $ref ms, shown paused in $rows intervals"
	all_ref=$((${all_ref:-0} + ref))
	[ "$ref" -ge 20 ] || fail "dd $i was hardly throttled ($ref ms): no test"
	awk -v a="$got" -v b="$ref" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.1 * b) }' ||
		fail "dd $i: $got ms is not within 10% of $ref ms"
	name=$(basename "$(readlink -f /sys/dev/block/$dev)")
	awk '$1 == "writeback" { t = 1; next } t && NF == 0 { t = 0 } t && $4 > 0 { print $1 }' "$TMP/live" |
		grep -qx "$name" || fail "no writeback row with a threshold for $name"
	want=ext4
	[ $i = 2 ] && want=xfs
	awk -v n="$name" '$1 == "device" { t = 1; next } t && NF == 0 { t = 0 } t && $1 == n { print $NF }' "$TMP/live" |
		grep -qx "($want)" || fail "$name is not shown as $want in the device table"
done
# the cgroups they ran in (cgroup v1 here: the kernel gives the root's, 1)
cg=$(python3 -c '
import json, sys
print("%.0f" % sum((c["throttled_ms"] or 0) * s["dt_s"] for line in open(sys.argv[1])
                   for s in [json.loads(line)] for c in s.get("cgroups", [])))' "$TMP/json")
echo "cgroups: $cg ms paused in all, the three dd $all_ref ms"
[ "$cg" -ge "$all_ref" ] || fail "the cgroups' pauses ($cg ms) are fewer than the dd's ($all_ref ms)"
[ "$shown" -ge 3 ] || fail "the dd were shown paused on their devices in $shown -P rows only"
grep -q '^kernel dirty_limit [0-9]* KiB' "$TMP/live" || fail "no kernel line with the dirty limit"

# The replay: without -P it prints what the live run printed without its
# process tables (the writeback table and kernel line included); with -P
# (the recording keeps the busiest processes) each dd paused on its device.
"$WBTOP" -r "$TMP/run.wbrec" -b > "$TMP/replay" 2> "$TMP/err" || fail "replay failed: $(cat "$TMP/err")"
awk '/^procs [0-9]+ tasks:/ { skip = 1; next } skip && NF == 0 { skip = 0; next } !skip' "$TMP/live" > "$TMP/live.plain"
diff -u "$TMP/live.plain" "$TMP/replay" > "$TMP/diff" || { head -40 "$TMP/diff"; fail "the replay differs from the live output"; }
"$WBTOP" -r "$TMP/run.wbrec" -b -P > "$TMP/replay.P" 2> "$TMP/err" || fail "replay -P failed: $(cat "$TMP/err")"
i=0
for pid in $pids; do
	i=$((i + 1))
	eval "dev=\$dev$i"
	replayed=$((${replayed:-0} + $(paused_rows "$TMP/replay.P" $pid "$dev" | wc -l)))
	wrong_rows "$TMP/replay.P" $pid "$dev" | grep -q . && fail "the replay shows dd $i paused on another device"
done
[ "$replayed" -ge 3 ] || fail "the replay shows the dd paused on their devices in $replayed rows only"

# kill -9 leaves the instance; the next start removes it.
"$WBTOP" -b -q -d 1 > /dev/null 2>&1 &
wb=$!
for i in $(seq 600); do [ -d "$inst_dir/wbtop-$wb" ] && break; sleep 0.1; done
[ -d "$inst_dir/wbtop-$wb" ] || fail "no instance wbtop-$wb"
kill -9 $wb
wait $wb 2>/dev/null
[ -d "$inst_dir/wbtop-$wb" ] || fail "kill -9 should have left wbtop-$wb (the test is wrong)"
on_exit "rmdir $inst_dir/wbtop-$wb 2>/dev/null"
"$WBTOP" -b -d 0.2 -n 1 > /dev/null 2>&1 &
next=$!
wait $next || fail "the next wbtop failed"
[ -d "$inst_dir/wbtop-$wb" ] && fail "the next start left the stale wbtop-$wb"
[ -d "$inst_dir/wbtop-$next" ] && fail "the next wbtop left its own instance"

# SIGINT, SIGTERM and SIGHUP end batch mode and the screen with the
# instance removed.
for sig in INT TERM HUP; do
	"$WBTOP" -b -d 1 > /dev/null 2>&1 &
	wb=$!
	for i in $(seq 600); do [ -d "$inst_dir/wbtop-$wb" ] && break; sleep 0.1; done
	kill -$sig $wb
	wait $wb || fail "batch wbtop exited $? on SIG$sig"
	[ -d "$inst_dir/wbtop-$wb" ] && fail "batch SIG$sig left wbtop-$wb"
	tmux new-session -d -s "i15-kloop-$$" -x 100 -y 30 "echo \$\$ > $TMP/scr.pid; exec $WBTOP -d 1"
	on_exit "tmux kill-session -t i15-kloop-$$ 2>/dev/null"
	for i in $(seq 600); do [ -s "$TMP/scr.pid" ] && [ -d "$inst_dir/wbtop-$(cat "$TMP/scr.pid")" ] && break; sleep 0.1; done
	wb=$(cat "$TMP/scr.pid")
	rm -f "$TMP/scr.pid"
	[ -d "$inst_dir/wbtop-$wb" ] || fail "no instance for the screen's wbtop"
	kill -$sig $wb
	for i in $(seq 600); do kill -0 $wb 2>/dev/null || break; sleep 0.1; done
	[ -d "$inst_dir/wbtop-$wb" ] && fail "screen SIG$sig left wbtop-$wb"
	tmux kill-session -t "i15-kloop-$$" 2>/dev/null
done
echo "instance removed on SIGINT, SIGTERM, SIGHUP in batch mode and on the screen"

# Not root: one line, first, saying what and why; the run goes on.
chmod 755 "$TMP"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$WBTOP" -b -d 0.2 -n 1 \
	> "$TMP/nr" 2> "$TMP/err" || fail "as nobody wbtop exited $?: $(cat "$TMP/err")"
head -1 "$TMP/nr" | grep -q '^# kernel writeback loop: throttling: not root: .*; per-device limits: not root' ||
	fail "as nobody the first line is not the reason: $(head -1 "$TMP/nr")"
echo "as nobody: $(head -1 "$TMP/nr")"
restore_dirty_knobs
exit 0

#!/bin/sh
# Events the ring buffer loses are counted, not hidden: with the probe's
# instance shrunk to one page a CPU and two buffered writers throttled
# under vm.dirty_bytes 4 MiB (restored on exit), reads every 3 s cannot
# keep up.  The probe must go on, count lost events, and the count must be
# what the kernel's per-CPU stats say it overwrote.
. "$E2E_LIB"
need_root "makes a loop filesystem, sets vm.dirty_bytes and reads tracefs"
need_kernfs "$0"
need_probe
vm=/proc/sys/vm
save_dirty_knobs
make_loop_fs 1024 "$TMP/i15l" || fail "could not make a loop filesystem"
echo $((4 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"
"$WBPROBE" -d 3 -n 3 > "$TMP/probe" 2> "$TMP/probe.err" &
probe=$!
on_exit "kill $probe 2>/dev/null; wait $probe 2>/dev/null"
for i in $(seq 1200); do grep -q '^instance ' "$TMP/probe" && break; sleep 0.05; done
inst=$(sed -n 's/^instance //p' "$TMP/probe")
[ -n "$inst" ] || fail "the probe did not start: $(cat "$TMP/probe.err")"
d=/sys/kernel/tracing/instances/$inst
echo 4 > "$d/buffer_size_kb" || fail "cannot shrink $d"
for i in 1 2; do
	dd if=/dev/zero of="$TMP/i15l/f$i" bs=64k count=6000 2>/dev/null &
	on_exit "kill $! 2>/dev/null"
done
# the kernel's count just before the probe's last read (3 s intervals)
sleep 8.5
kernel=$(awk '/^overrun:/ { s += $2 } /^dropped events:/ { s += $3 } END { print s + 0 }' "$d"/per_cpu/cpu*/stats)
wait $probe || fail "the probe exited $?: $(cat "$TMP/probe.err")"
lost=$(awk '$1 == "interval" { for (i = 2; i <= NF; i++) if ($i ~ /^lost=/) { sub(/^lost=/, "", $i); s += $i } } END { print s + 0 }' "$TMP/probe")
events=$(awk '$1 == "interval" { for (i = 2; i <= NF; i++) if ($i ~ /^events=/) { sub(/^events=/, "", $i); s += $i } } END { print s + 0 }' "$TMP/probe")
echo "decoded $events events, counted $lost lost; the kernel said $kernel overwritten before the last read"
[ "$kernel" -gt 0 ] || fail "the ring did not overflow: no test"
[ "$lost" -ge "$kernel" ] || fail "lost events $lost fewer than the kernel's $kernel"
[ "$(grep -c '^interval' "$TMP/probe")" -eq 3 ] || fail "the probe did not go on for 3 intervals"
restore_dirty_knobs
exit 0

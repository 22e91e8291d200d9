#!/bin/sh
# A real workload: 64 MiB written with O_DIRECT and 64 MiB buffered with
# fsync to a file on a fresh ext4 loop device.  The write throughput wbtop
# reports for that device, summed over the intervals, is 128 MiB within 2%.
. "$E2E_LIB"
need_root "makes a loop device and a filesystem"
make_loop_fs 256 "$TMP/mnt" || fail "could not make a loop filesystem"
name=$(basename "$LOOPDEV")
sync
"$WBTOP" -b -a -d 1 -n 8 --devices "^$name\$" > "$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 1.5
dd if=/dev/zero of="$TMP/mnt/direct" bs=1M count=64 oflag=direct 2>/dev/null || fail "dd direct"
dd if=/dev/zero of="$TMP/mnt/buffered" bs=1M count=64 conv=fsync 2>/dev/null || fail "dd buffered"
wait $pid || fail "wbtop exited $?: $(cat "$TMP/err")"
# Sum the wkB/s column (interval 1 s) of the device's lines.
total=$(awk -v dev="$name" '
	$1 == "device" { for (i = 1; i <= NF; i++) if ($i == "wkB/s") col = i }
	$1 == "writeback" { col = 0 }	# the kernel loop table lists the device again
	$1 == dev && col { sum += $col; n++ }
	END { printf "%.0f %d\n", sum, n }' "$TMP/out")
sum=${total% *} lines=${total#* }
[ "$lines" -eq 8 ] || { cat "$TMP/out"; fail "expected 8 intervals of $name, got $lines"; }
want=131072
echo "wbtop saw $sum KiB written to $name; dd wrote $want KiB"
awk -v got="$sum" -v want="$want" 'BEGIN { d = (got - want) / want; if (d < 0) d = -d; exit !(d <= 0.02) }' ||
	{ cat "$TMP/out"; fail "written $sum KiB is not within 2% of $want KiB"; }

#!/bin/sh
# A real workload: 64 MiB written with O_DIRECT and 64 MiB buffered with
# fsync to a file on a fresh ext4 loop device.  The write throughput wbtop
# reports for that device, times each interval's length, summed over the
# intervals, is 128 MiB within 2%.  (The lengths from the JSON output: a loaded
# machine makes an interval of -d 1 last 0.97 or 1.03 s, and a rate summed as if
# each were a second was 3 % off in a five-run series beside builds.)
. "$E2E_LIB"
need_root "makes a loop device and a filesystem"
make_loop_fs 256 "$TMP/mnt" || fail "could not make a loop filesystem"
name=$(basename "$LOOPDEV")
sync
# The writes start once wbtop has its first interval and it stops two
# intervals after they are on the disk (SIGINT ends it cleanly): no write falls
# outside what it reports, however long a loaded machine takes.
"$WBTOP" -b -a -d 1 -n 600 --devices "^$name\$" --format json > "$TMP/out" 2>"$TMP/err" &
pid=$!
on_exit "kill $pid 2>/dev/null"
wait_output "$TMP/out" '^[{]' $pid
dd if=/dev/zero of="$TMP/mnt/direct" bs=1M count=64 oflag=direct 2>/dev/null || fail "dd direct"
dd if=/dev/zero of="$TMP/mnt/buffered" bs=1M count=64 conv=fsync 2>/dev/null || fail "dd buffered"
done_at=$(grep -c '^[{]' "$TMP/out")
while [ "$(grep -c '^[{]' "$TMP/out")" -lt $((done_at + 2)) ]; do
	kill -0 $pid 2>/dev/null || fail "wbtop ended before the writes were reported: $(cat "$TMP/err")"
	sleep 0.1
done
kill -INT $pid
wait $pid || fail "wbtop exited $? on SIGINT: $(cat "$TMP/err")"
# Sum each interval's write rate of the device times its length.
total=$(python3 - "$TMP/out" "$name" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
got = [d["wkb_s"] * r["dt_s"] for r in rows for d in r["devices"] if d["name"] == sys.argv[2]]
print("%.0f %d %d" % (sum(got), len(got), len(rows)))
PY
) || fail "reading the JSON output"
set -- $total
sum=$1 lines=$2 intervals=$3
[ "$lines" -eq "$intervals" ] && [ "$lines" -ge 3 ] ||
	{ cat "$TMP/out"; fail "want $name in each of the $intervals intervals (3 or more), got $lines"; }
want=131072
echo "wbtop saw $sum KiB written to $name; dd wrote $want KiB"
awk -v got="$sum" -v want="$want" 'BEGIN { d = (got - want) / want; if (d < 0) d = -d; exit !(d <= 0.02) }' ||
	{ cat "$TMP/out"; fail "written $sum KiB is not within 2% of $want KiB"; }

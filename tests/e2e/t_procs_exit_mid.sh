#!/bin/sh
# -P: a writer that starts after one sample and exits before the next (an
# O_DIRECT dd of 64 MiB, run between two process tables of 3 s intervals)
# still has its writes counted, on its own row marked exited, and they add
# up to what its loop device was written in the same intervals.  Were it to
# outlive the interval on a loaded machine, its rows together must still
# add up, and its last one be marked exited.
. "$E2E_LIB"
. "$(dirname "$E2E_LIB")/procs_lib.sh"
need_root "makes a loop filesystem"
make_loop_fs 256 "$TMP/m" || fail "could not make a loop filesystem"
loop=$(basename "$LOOPDEV")
"$WBTOP" -b -P -d 3 -n 1000 > "$TMP/out" 2> "$TMP/err" &
wb=$!
on_exit "kill $wb 2>/dev/null; wait $wb 2>/dev/null"
procs_wait_tables "$TMP/out" 1 $wb
start=$(procs_tables "$TMP/out")
dd if=/dev/zero of="$TMP/m/G" bs=1M count=64 oflag=direct 2>/dev/null &
dd=$!
wait $dd || fail "dd failed"
end=$(procs_tables "$TMP/out")
procs_wait_tables "$TMP/out" $((end + 1)) $wb
kill -INT $wb
wait $wb
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 130 ] || fail "wbtop exited $rc: $(cat "$TMP/err")"
stderr_clean "$TMP/err" || fail "wbtop wrote to stderr: $(cat "$TMP/err")"

procs_rows "$TMP/out" > "$TMP/rows"
awk -v dd=$dd '$2 == dd' "$TMP/rows" > "$TMP/dd"
[ -s "$TMP/dd" ] || { cat "$TMP/out"; fail "no row of the dd (pid $dd)"; }
last=$(tail -1 "$TMP/dd")
echo "$last" | grep -q '^[0-9]* [0-9]* X .*(exited) dd' || { cat "$TMP/dd"; fail "the dd's last row is not marked exited"; }
procs_check_sums "$TMP/out"
procs_dev_wkbs "$TMP/out" "$loop" > "$TMP/dev"
awk 'NR == FNR { dd[$1] += $4; next } ($1 in dd) { d += $2 } END {
	for (t in dd) s += dd[t]
	printf "dd %.0f, %s %.0f (kB/s, summed over its intervals)\n", s, "loop", d
	if (s <= 0 || s < 0.9 * d || s > 1.02 * d) exit 1 }' "$TMP/dd" "$TMP/dev" ||
	{ cat "$TMP/out"; fail "the dd's rows do not add up to what its device was written"; }
echo "dd: $(wc -l < "$TMP/dd") row(s); started after table $start, done by table $end"
exit 0

#!/bin/sh
# -P charges no task for the children it reaps: the issue's script, a shell
# that runs an O_DIRECT dd on a loop filesystem and waits for it, never shows
# the shell writing (/proc/PID/io adds a reaped child's counters to its
# parent's); the dd shows its own writes, on its own row, marked exited in
# the interval it ended, on the loop device; every table's rows add up to
# its total and no share is above 100.  The dd's rows add up to what the
# loop device was written in the same intervals (same dt, whatever the load).
. "$E2E_LIB"
. "$(dirname "$E2E_LIB")/procs_lib.sh"
need_root "makes a loop filesystem"
make_loop_fs 512 "$TMP/m" || fail "could not make a loop filesystem"
loop=$(basename "$LOOPDEV")
"$WBTOP" -b -P -d 1 -n 1000 > "$TMP/out" 2> "$TMP/err" &
wb=$!
on_exit "kill $wb 2>/dev/null; wait $wb 2>/dev/null"
procs_wait_tables "$TMP/out" 1 $wb
# the issue's script, telling its pid and the dd's through a pipe (a file
# would be the shell's own write; other tests may run dd too)
sh -c "echo \$\$; sleep 1.5; dd if=/dev/zero of=$TMP/m/F bs=1M count=300 oflag=direct 2>/dev/null & echo \$!; wait; sleep 3" |
	{ read -r a; read -r b; echo "$a $b" > "$TMP/pids"; cat > /dev/null; }
read -r sh dd < "$TMP/pids"
# the interval in which the shell ended, and one more
procs_wait_tables "$TMP/out" $(($(procs_tables "$TMP/out") + 2)) $wb
kill -INT $wb
wait $wb
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 130 ] || fail "wbtop exited $rc: $(cat "$TMP/err")"
stderr_clean "$TMP/err" || fail "wbtop wrote to stderr: $(cat "$TMP/err")"

procs_rows "$TMP/out" > "$TMP/rows"
# fields: table pid state wkB/s share kind dev command...
awk -v sh=$sh '$2 == sh && $4 != "-" && $4 + 0 > 0' "$TMP/rows" > "$TMP/shell"
[ -s "$TMP/shell" ] && { cat "$TMP/out"; fail "the shell (pid $sh) shown writing: $(cat "$TMP/shell")"; }
awk -v dd=$dd '$2 == dd' "$TMP/rows" > "$TMP/dd"
[ -s "$TMP/dd" ] || { cat "$TMP/out"; fail "no row of the dd"; }
grep -q "^[0-9]* [0-9]* X .*(exited) dd" "$TMP/dd" || { cat "$TMP/dd"; fail "the dd's last row is not marked exited"; }
# where it was seen alive and writing, its device
alive=$(awk '$3 != "X" && $4 != "-" && $4 + 0 > 0' "$TMP/dd" | wc -l)
ondev=$(awk -v dev="$loop" '$3 != "X" && $4 != "-" && $4 + 0 > 0 && $7 == dev' "$TMP/dd" | wc -l)
[ "$ondev" -eq "$alive" ] || { cat "$TMP/dd"; fail "dev is not $loop in every row of the dd alive and writing"; }
procs_check_sums "$TMP/out"
# its writes against the device's, table by table (the same intervals)
procs_dev_wkbs "$TMP/out" "$loop" > "$TMP/dev"
awk 'NR == FNR { dd[$1] += $4; next } ($1 in dd) { d += $2 } END {
	for (t in dd) s += dd[t]
	printf "dd wrote %.0f kB/s-intervals, %s %.0f\n", s, "loop", d
	if (s < 0.9 * d || s > 1.02 * d) exit 1 }' "$TMP/dd" "$TMP/dev" ||
	{ cat "$TMP/out"; fail "the dd's rows do not add up to what its device was written"; }
echo "dd: $(wc -l < "$TMP/dd") rows, $alive alive on $loop; the shell never writing"
exit 0

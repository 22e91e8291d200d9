#!/bin/sh
# -P, the process table: a buffered dd on a loop-device filesystem, under
# dirty limits set low (4 MiB, background 1 MiB), is the top writer, is
# seen throttled in balance_dirty_pages (paused on its device's BDI, from
# the writeback trace; with --no-kernel-trace guessed from its wchan and
# labelled a guess), and the flush worker of that loop device shows up
# attributed to it.  The dirty knobs are restored on exit.
. "$E2E_LIB"
need_root "makes a loop filesystem and sets vm.dirty_bytes"
vm=/proc/sys/vm
save_dirty_knobs
make_loop_fs 2048 "$TMP/mnt" || fail "could not make a loop filesystem"
loop=$(basename "$LOOPDEV")
echo $((4 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"
echo $((1024 * 1024)) > $vm/dirty_background_bytes || fail "could not set vm.dirty_background_bytes"

dd if=/dev/zero of="$TMP/mnt/big" bs=1M count=1800 2>/dev/null &
ddpid=$!
on_exit "kill $ddpid 2>/dev/null; wait $ddpid 2>/dev/null"
sleep 0.5
"$WBTOP" -b -P -d 1 -n 8 > "$TMP/out" 2> "$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
[ -s "$TMP/err" ] && fail "wbtop wrote to stderr: $(cat "$TMP/err")"

# The rows of the process tables, as "table row PID S wkB/s ... command"
# with the columns found by the header's names (with the writeback trace
# there are four more before the command; of the command, its first word).
awk '/^procs [0-9]+ tasks:/ { t++; row = 0; inproc = 1; next }
     inproc && $1 == "PID" { for (i = 1; i <= NF; i++) col[$i] = i; next }
     inproc && NF == 0 { inproc = 0; next }
     inproc { print t, ++row, $1, $2, $3, $col["kind"], $col["dev"], $col["thr"], $col["wait"], $col["command"] }' "$TMP/out" > "$TMP/rows"
tables=$(grep -c '^procs [0-9]* tasks:' "$TMP/out")
[ "$tables" -eq 8 ] || { cat "$TMP/out"; fail "expected 8 process tables, got $tables"; }
# fields now: table row PID S wkB/s kind dev thr wait command
top=$(awk -v pid=$ddpid '$2 == 1 && $3 == pid && $10 == "dd"' "$TMP/rows" | wc -l)
thr=$(awk -v pid=$ddpid '$3 == pid && $8 == "yes"' "$TMP/rows" | wc -l)
flush=$(awk -v dev="$loop" '$6 == "flusher" && $7 == dev' "$TMP/rows" | wc -l)
summary=$(grep -c '^procs .* [1-9][0-9]* throttled' "$TMP/out")
echo "dd top writer in $top of 8 intervals, throttled in $thr, flush worker of $loop in $flush, throttled in summary $summary"
[ "$top" -ge 5 ] || { cat "$TMP/out"; fail "dd (pid $ddpid) is not the top writer in most intervals"; }
[ "$thr" -ge 1 ] || { cat "$TMP/out"; fail "dd never marked throttled in balance_dirty_pages"; }
[ "$summary" -ge 1 ] || { cat "$TMP/out"; fail "no summary line counts a throttled task"; }
[ "$flush" -ge 1 ] || { cat "$TMP/out"; fail "no flush worker attributed to $loop"; }

# The trace's figures: dd paused on its loop device's BDI, and the summary
# does not call its count a guess.
bdi=$(cat /sys/class/block/$loop/dev)
held=$(awk -v pid=$ddpid -v bdi="$bdi" '$1 == "PID" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == pid && $col["held_on"] == bdi && $col["thr_ms/s"] > 0' "$TMP/out" | wc -l)
[ "$held" -ge 1 ] || { cat "$TMP/out"; fail "dd never shown paused (thr_ms/s) on $bdi"; }
grep -q 'a guess from wchan' "$TMP/out" && fail "with the trace the throttled count is called a guess"
# Without it, the wchan guess, labelled so (a new dd: the first may be done).
kill $ddpid 2>/dev/null
wait $ddpid 2>/dev/null
rm -f "$TMP/mnt/big"
dd if=/dev/zero of="$TMP/mnt/big" bs=1M count=1800 2>/dev/null &
ddpid=$!
on_exit "kill $ddpid 2>/dev/null; wait $ddpid 2>/dev/null"
sleep 0.5
# The guess looks at the dd's wchan at each sample's instant: a loaded machine
# may keep it runnable then, so up to five runs of 6 intervals, each a real look.
tries=0 guess=0
while [ $tries -lt 5 ] && [ "$guess" -eq 0 ]; do
	tries=$((tries + 1))
	"$WBTOP" -b -P --no-kernel-trace -d 1 -n 6 > "$TMP/guess" 2> "$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
	grep -q 'thr_ms/s' "$TMP/guess" && fail "--no-kernel-trace still shows the trace's columns"
	grep -q '^procs .* throttled (a guess from wchan)' "$TMP/guess" || { cat "$TMP/guess"; fail "the guess is not labelled"; }
	guess=$(awk -v pid=$ddpid '$1 == pid && $9 == "yes" && $10 == "dirty-limit"' "$TMP/guess" | wc -l)
done
[ "$guess" -ge 1 ] || { cat "$TMP/guess"; fail "dd never guessed throttled from its wchan in 5 runs of 6 intervals"; }
echo "paused on $bdi in $held intervals; guessed from wchan in $guess of 6 without the trace (run $tries)"

# The knobs come back as they were.
kill $ddpid 2>/dev/null
restore_dirty_knobs
[ "$(cat $vm/dirty_ratio) $(cat $vm/dirty_bytes) $(cat $vm/dirty_background_ratio) $(cat $vm/dirty_background_bytes)" = \
  "$old_ratio $old_bytes $old_bg_ratio $old_bg_bytes" ] || fail "dirty knobs not restored"
exit 0

#!/bin/sh
# -P, the process table: a buffered dd on a loop-device filesystem, under
# dirty limits set low (4 MiB, background 1 MiB), is the top writer, is
# seen throttled in balance_dirty_pages, and the flush worker of that loop
# device shows up attributed to it.  The dirty knobs are restored on exit.
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

# The rows of the process tables: PID S wkB/s cwkB/s share% cpu% kind dev thr wait wchan command
awk '/^procs [0-9]+ tasks:/ { t++; row = 0; inproc = 1; next }
     inproc && $1 == "PID" { next }
     inproc && NF == 0 { inproc = 0; next }
     inproc { print t, ++row, $0 }' "$TMP/out" > "$TMP/rows"
tables=$(grep -c '^procs [0-9]* tasks:' "$TMP/out")
[ "$tables" -eq 8 ] || { cat "$TMP/out"; fail "expected 8 process tables, got $tables"; }
# fields now: table row PID S wkB/s cwkB/s share% cpu% kind dev thr wait wchan command
top=$(awk -v pid=$ddpid '$2 == 1 && $3 == pid && $14 == "dd"' "$TMP/rows" | wc -l)
thr=$(awk -v pid=$ddpid '$3 == pid && $11 == "yes" && $12 == "dirty-limit"' "$TMP/rows" | wc -l)
flush=$(awk -v dev="$loop" '$9 == "flusher" && $10 == dev' "$TMP/rows" | wc -l)
summary=$(grep -c '^procs .* [1-9][0-9]* throttled' "$TMP/out")
echo "dd top writer in $top of 8 intervals, throttled in $thr, flush worker of $loop in $flush, throttled in summary $summary"
[ "$top" -ge 5 ] || { cat "$TMP/out"; fail "dd (pid $ddpid) is not the top writer in most intervals"; }
[ "$thr" -ge 1 ] || { cat "$TMP/out"; fail "dd never marked throttled in balance_dirty_pages"; }
[ "$summary" -ge 1 ] || { cat "$TMP/out"; fail "no summary line counts a throttled task"; }
[ "$flush" -ge 1 ] || { cat "$TMP/out"; fail "no flush worker attributed to $loop"; }

# The knobs come back as they were.
kill $ddpid 2>/dev/null
restore_dirty_knobs
[ "$(cat $vm/dirty_ratio) $(cat $vm/dirty_bytes) $(cat $vm/dirty_background_ratio) $(cat $vm/dirty_background_bytes)" = \
  "$old_ratio $old_bytes $old_bg_ratio $old_bg_bytes" ] || fail "dirty knobs not restored"
exit 0

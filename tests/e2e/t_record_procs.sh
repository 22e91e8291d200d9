#!/bin/sh
# Processes in recordings: a buffered dd on a loop-device filesystem (dirty
# limits set low, 4 MiB and 1 MiB, so it keeps writing for the whole run)
# recorded with -b -P -w, then replayed with -r -b -P: dd is the top writer
# of the replayed process tables as it was live, and a replay without -P
# prints exactly what the recording printed without processes.  The dirty
# knobs are restored on exit.
. "$E2E_LIB"
need_root "makes a loop filesystem and sets vm.dirty_bytes"
vm=/proc/sys/vm
save_dirty_knobs
make_loop_fs 2048 "$TMP/mnt" || fail "could not make a loop filesystem"
echo $((4 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"
echo $((1024 * 1024)) > $vm/dirty_background_bytes || fail "could not set vm.dirty_background_bytes"

dd if=/dev/zero of="$TMP/mnt/big" bs=1M count=1800 2>/dev/null &
ddpid=$!
on_exit "kill $ddpid 2>/dev/null; wait $ddpid 2>/dev/null"
sleep 0.5
rec=$TMP/procs.wbrec
"$WBTOP" -b -P -w "$rec" -d 1 -n 5 > "$TMP/live" 2> "$TMP/live.err" || fail "recording exited $?: $(cat "$TMP/live.err")"
# the one note allowed: the recording lives on a device wbtop watches
grep -v "^wbtop: note: recording .* is on .*, a device wbtop watches" "$TMP/live.err" >"$TMP/live.err2"
stderr_clean "$TMP/live.err2" || fail "recording wrote to stderr: $(cat "$TMP/live.err2")"
kill $ddpid 2>/dev/null

"$WBTOP" -r "$rec" -b -P > "$TMP/replay" 2> "$TMP/replay.err" || fail "replay -P exited $?: $(cat "$TMP/replay.err")"
[ -s "$TMP/replay.err" ] && fail "replay -P wrote to stderr: $(cat "$TMP/replay.err")"

# The first row of each process table: table PID S wkB/s ... command (its
# first word: live, the command is the whole command line)
first_rows() {
	awk '/^procs [0-9]+ tasks:/ { t++; row = 0; inproc = 1; next }
	     inproc && $1 == "PID" { for (i = 1; i <= NF; i++) if ($i == "command") cmd = i; next }
	     inproc && NF == 0 { inproc = 0; next }
	     inproc && ++row == 1 { line = t; for (i = 1; i <= cmd; i++) line = line " " $i; print line }' "$1"
}
first_rows "$TMP/replay" > "$TMP/rows"
tables=$(grep -c '^procs [0-9]* tasks:' "$TMP/replay")
[ "$tables" -eq 5 ] || { cat "$TMP/replay"; fail "expected 5 replayed process tables, got $tables"; }
# fields: table PID S wkB/s cwkB/s share% cpu% kind dev thr wait wchan command
top=$(awk -v pid=$ddpid '$2 == pid && $NF == "dd" && $4 + 0 > 0' "$TMP/rows" | wc -l)
livetop=$(first_rows "$TMP/live" | awk -v pid=$ddpid '$2 == pid && $NF == "dd"' | wc -l)
echo "dd top writer in $top of 5 replayed intervals ($livetop of 5 live)"
[ "$top" -ge 3 ] || { cat "$TMP/replay"; fail "dd (pid $ddpid) is not the top writer of the replay"; }
[ "$top" -ge "$livetop" ] || { cat "$TMP/live" "$TMP/replay"; fail "dd tops fewer replayed intervals than live ones"; }

# Without -P the replay is the live text without its process tables.
"$WBTOP" -r "$rec" -b > "$TMP/plain" 2> "$TMP/plain.err" || fail "replay exited $?: $(cat "$TMP/plain.err")"
grep -q '^procs ' "$TMP/plain" && fail "replay without -P printed processes"
without_kloop_note "$TMP/live" |
	awk '/^procs [0-9]+ tasks:/ { skip = 1; next } skip && NF == 0 { skip = 0; next } !skip' > "$TMP/live.plain"
diff -u "$TMP/live.plain" "$TMP/plain" > "$TMP/diff" || { cat "$TMP/diff"; fail "replay without -P differs from the live text"; }
exit 0

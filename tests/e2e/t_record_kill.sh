#!/bin/sh
# A recorder killed with SIGKILL loses nothing it had written: the file
# replays every interval the live output showed before the kill; and
# SIGTERM closes the file cleanly (no -wal left).
. "$E2E_LIB"
rec=$TMP/kill.wbrec
"$WBTOP" -b -w "$rec" -d 0.05 >"$TMP/live.txt" 2>"$TMP/live.err" &
pid=$!
on_exit "kill -9 $pid 2>/dev/null"
sleep 2
kill -9 $pid
wait $pid 2>/dev/null
[ -f "$rec" ] || fail "no recording"
# live printed K full intervals (the last may be cut); each sample is
# committed before it is printed, so the replay holds at least those
k=$(grep -c '^time ' "$TMP/live.txt")
[ "$k" -ge 5 ] || fail "only $k intervals in 2 s"
"$WBTOP" -r "$rec" -b >"$TMP/replay.txt" 2>"$TMP/replay.err" || fail "replay after kill -9 exited $?: $(cat "$TMP/replay.err")"
n=$(grep -c '^time ' "$TMP/replay.txt")
[ "$n" -ge $((k - 1)) ] || fail "replay has $n intervals, live printed $k"
# compare the first k-1 intervals line by line
without_kloop_note "$TMP/live.txt" |
	awk -v k=$((k - 1)) '/^time /{n++} n > k {exit} {print}' >"$TMP/live.head"
awk -v k=$((k - 1)) '/^time /{n++} n > k {exit} {print}' "$TMP/replay.txt" >"$TMP/replay.head"
diff -u "$TMP/live.head" "$TMP/replay.head" || fail "replay differs from the live output"

# Killed many times over, at random moments (start-up included): every
# file replays, or is refused with one clear line if the kill came before
# its first sample; never a crash.
i=0 replayed=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	r=$TMP/many$i.wbrec
	"$WBTOP" -b -q -w "$r" -d 0.02 &
	pid=$!
	sleep "0.$(( (i * 7919) % 6 ))$(( i % 10 ))"
	kill -9 $pid
	wait $pid 2>/dev/null
	[ -e "$r" ] || continue
	"$WBTOP" -r "$r" -b >/dev/null 2>"$TMP/many.err"
	rc=$?
	if [ $rc -eq 0 ]; then
		replayed=$((replayed + 1))
	elif [ $rc -ne 1 ] || [ "$(wc -l <"$TMP/many.err")" -ne 1 ]; then
		fail "kill $i: replay exit $rc: $(cat "$TMP/many.err")"
	fi
done
[ $replayed -ge 15 ] || fail "only $replayed of 20 killed recordings replay"
echo "20 recorders killed at random moments: $replayed replay, the rest refused cleanly"

# SIGTERM: a clean close
rec2=$TMP/term.wbrec
"$WBTOP" -b -q -w "$rec2" -d 0.05 &
pid=$!
on_exit "kill -9 $pid 2>/dev/null"
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 0 ] || fail "SIGTERM: exit status $rc"
[ -f "$rec2-wal" ] && fail "SIGTERM left a -wal file"
"$WBTOP" -r "$rec2" --export json >/dev/null || fail "a recording closed by SIGTERM does not replay"
exit 0

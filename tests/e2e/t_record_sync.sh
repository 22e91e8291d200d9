#!/bin/sh
# The recorder's own flushes (--rec-sync): made durable after every sample
# it fsyncs at least twice a sample; by default (every 5 s of samples) a few
# times in all for a 3 s run; a copy of the main file taken mid-run lags by
# at most that period; a recording on a watched device says so on stderr,
# one on tmpfs says nothing; -P labels wbtop's own row.
. "$E2E_LIB"
need_tool strace strace
fsyncs() { grep -c 'sync(' "$1"; }

# strace: the plain build (LeakSanitizer does not run under ptrace).
# fsyncs of a run of N samples at 0.1 s under POLICY
run_fsyncs() { # policy n
	rm -f "$TMP/s.wbrec"
	strace -f -qq -e trace=fsync,fdatasync -o "$TMP/st" \
		"$WBTOP_PLAIN" -b -q -w "$TMP/s.wbrec" -d 0.1 -n "$2" --rec-sync "$1" || fail "recording ($1, $2) failed"
	l=$("$WBTOP" -r "$TMP/s.wbrec" --export csv | wc -l)
	[ "$l" = $(($2 + 1)) ] || fail "recording ($1, $2) replays $l lines"
	fsyncs "$TMP/st"
}
s10=$(run_fsyncs sample 10) s40=$(run_fsyncs sample 40)
d10=$(run_fsyncs 5 10) d40=$(run_fsyncs 5 40)
echo "fsyncs: --rec-sync sample 10 samples $s10, 40 samples $s40; default (5 s) $d10, $d40"
# after every sample: at least two more per sample (WAL and main file)
[ $((s40 - s10)) -ge 60 ] || fail "--rec-sync sample: 30 more samples, only $((s40 - s10)) more fsyncs"
# every 5 s of samples: 4 s of samples cost no fsync past the first sample's
[ "$d40" = "$d10" ] || fail "default policy: 30 more samples within 5 s cost $((d40 - d10)) fsyncs"
[ "$d40" -lt "$s10" ] || fail "default policy ($d40) flushes no less than --rec-sync sample ($s10)"

# The main file alone, copied mid-run, holds what the last checkpoint
# copied: with --rec-sync 1 at 0.1 s samples, copies from about 3.5 s on
# hold at least two seconds of samples, and the whole recording holds more.
# A copy that caught a checkpoint half way may be refused as damaged (one
# line, exit 1: take another); never a crash, never a wrong figure.
"$WBTOP" -b -q -w "$TMP/grow.wbrec" -d 0.1 --rec-sync 1 &
pid=$!
on_exit "kill -9 $pid 2>/dev/null"
sleep 3.5
for i in 1 2 3 4 5; do
	cp "$TMP/grow.wbrec" "$TMP/copy$i.wbrec"
	sleep 0.23
done
kill -TERM $pid
wait $pid
f=$("$WBTOP" -r "$TMP/grow.wbrec" --export csv | wc -l)
best=0
for i in 1 2 3 4 5; do
	"$WBTOP" -r "$TMP/copy$i.wbrec" --export csv >"$TMP/c.csv" 2>"$TMP/c.err"
	rc=$?
	case $rc in
	0) c=$(wc -l <"$TMP/c.csv"); [ "$c" -gt "$best" ] && best=$c ;;
	1) [ "$(wc -l <"$TMP/c.err")" -eq 1 ] && grep -q "copy$i.wbrec: " "$TMP/c.err" ||
		fail "copy $i refused without one line naming it: $(cat "$TMP/c.err")" ;;
	*) fail "copy $i: exit $rc" ;;
	esac
done
echo "copies from 3.5 s: at most $best lines, whole recording $f"
[ "$best" -ge 15 ] || fail "copies from 3.5 s with --rec-sync 1 hold at most $best lines"
[ "$f" -gt "$best" ] || fail "the whole recording ($f lines) holds no more than a copy ($best)"

"$WBTOP" -b -n 1 -d 0.1 -w "$TMP/q.wbrec" --rec-sync 0.5 >/dev/null 2>"$TMP/err" || fail "--rec-sync 0.5 refused"
"$WBTOP" -b -n 1 --rec-sync 5 >/dev/null 2>"$TMP/err" && fail "--rec-sync without -w accepted"
grep -q -- '--rec-sync' "$TMP/err" || fail "no message naming --rec-sync: $(cat "$TMP/err")"

# wbtop's own writes are labelled as its own in -P, live and in the replay
# (the recording says which pid wrote it).
"$WBTOP" -b -P -d 0.3 -n 3 -w "$TMP/self.wbrec" >"$TMP/self.txt" 2>/dev/null || fail "-P -w failed"
grep -q '(this wbtop) .*wbtop' "$TMP/self.txt" || fail "-P: wbtop's own row not labelled: $(grep -A12 '^procs' "$TMP/self.txt" | head -14)"
"$WBTOP" -r "$TMP/self.wbrec" -b -P >"$TMP/self-replay.txt" || fail "replay -P failed"
grep -q '(this wbtop) wbtop' "$TMP/self-replay.txt" || fail "replay -P: wbtop's own row not labelled"
[ "$(grep -c '(this wbtop)' "$TMP/self-replay.txt")" -le 3 ] || fail "more than one row a block labelled as wbtop's own"

# Which device the recording lives on, when wbtop watches it.
need_root "loop devices"
make_loop_fs 32 "$TMP/m" || fail "cannot make a loop filesystem"
"$WBTOP" -b -n 1 -d 0.1 -w "$TMP/m/r.wbrec" >/dev/null 2>"$TMP/note" || fail "recording on the loop fs failed"
grep -q "is on $(basename "$LOOPDEV"), a device wbtop watches" "$TMP/note" ||
	fail "no note that the recording is on $LOOPDEV: $(cat "$TMP/note")"
# ... and on the screen's status line
. "$(dirname "$E2E_LIB")/screen_lib.sh"
scr_setup_live
scr_start_live 160 30 -- -w "$TMP/m/screen.wbrec"
scr_wait "is on $(basename "$LOOPDEV"), a device wbtop watches" 10 || fail "no note on the screen: $(scr_cap)"
scr_quit
if [ -d /dev/shm ]; then
	"$WBTOP" -b -n 1 -d 0.1 -w "/dev/shm/wbtop-sync-$$.wbrec" >/dev/null 2>"$TMP/note2"
	rm -f "/dev/shm/wbtop-sync-$$.wbrec"
	[ -s "$TMP/note2" ] && fail "a note for a recording on tmpfs: $(cat "$TMP/note2")"
fi
exit 0

#!/bin/sh
# Disk full: the recording stops with a clear message, the live output
# goes on, and the file replays up to its last completed sample.
. "$E2E_LIB"
need_root "mounts a small tmpfs"
mkdir -p "$TMP/full"
mount -t tmpfs -o size=160k tmpfs "$TMP/full" || skip "cannot mount tmpfs"
on_exit "umount -l $TMP/full"
rec=$TMP/full/r.wbrec
"$WBTOP" -b -a -w "$rec" -d 0.01 -n 400 >"$TMP/live.txt" 2>"$TMP/live.err"
rc=$?
# the view went on to the end, and exit status 1 tells scripts the recording is short
[ $rc -eq 1 ] || fail "exit status $rc, want 1"
grep -q "^wbtop: $rec: disk full: recording stopped after [0-9]* samples$" "$TMP/live.err" ||
	fail "no clear message: $(cat "$TMP/live.err")"
[ "$(wc -l <"$TMP/live.err")" -eq 1 ] || fail "more than one message: $(cat "$TMP/live.err")"
[ "$(grep -c '^time ' "$TMP/live.txt")" -eq 400 ] || fail "the live output stopped with the recording"
kept=$(sed 's/.*stopped after \([0-9]*\) samples/\1/' "$TMP/live.err")
[ "$kept" -ge 2 ] || fail "only $kept samples fitted"
# replay where it lies (the disk still full), then a copy of it
"$WBTOP" -r "$rec" --export json >"$TMP/x.json" 2>"$TMP/x.err" || fail "replay on the full disk: $(cat "$TMP/x.err")"
n=$(wc -l <"$TMP/x.json")
[ "$n" -ge $((kept - 1)) ] || fail "replayed $n intervals of $kept samples"
cp "$rec" "$TMP/copy.wbrec"
"$WBTOP" -r "$TMP/copy.wbrec" -b >/dev/null 2>"$TMP/c.err" || fail "copy: $(cat "$TMP/c.err")"
# with -q, recording is all there is to do: wbtop stops when it fails
rm -f "$rec"
"$WBTOP" -b -q -a -w "$rec" -d 0.01 -n 100000 >/dev/null 2>&1
[ $? -eq 1 ] || fail "-q: exit status not 1 after the recording stopped"
exit 0

#!/bin/sh
# Faults a production run meets: bad options, a garbage /proc file, the
# reader of the output going away, a loop device detached and its
# filesystem unmounted mid-run.  Each gets a clear message or is carried on
# through; none crashes.
. "$E2E_LIB"

# Bad options: one line naming the option, exit 2.
check_bad() { # expected-substring, args...
	want=$1; shift
	"$WBTOP" "$@" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	[ $rc -eq 2 ] || fail "wbtop $*: exit $rc, want 2"
	[ "$(wc -l < "$TMP/e")" -eq 1 ] || fail "wbtop $*: want one error line, got: $(cat "$TMP/e")"
	grep -q -- "$want" "$TMP/e" || fail "wbtop $*: message does not name $want: $(cat "$TMP/e")"
}
check_bad "-d 'abc'" -b -d abc
check_bad "-d '0'" -b -d 0
check_bad "-n '0'" -b -n 0
check_bad "--devices '('" -b -n 1 --devices '('
check_bad "--format 'xml'" -b --format xml
check_bad "--dip '150'" -b --dip 150
check_bad "--format 'csv'" -b --format csv
check_bad "use them with -r FILE" -b --begin 10:00

# --export honours -o.
"$WBTOP" -b -q -w "$TMP/e.db" -n 3 -d 0.1 || fail "could not record"
"$WBTOP" -r "$TMP/e.db" --export csv -o "$TMP/e.csv" >"$TMP/o" || fail "--export -o failed"
[ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e.csv")" -eq 4 ] || fail "--export -o: header and 3 rows expected in the file"
check_bad "unexpected argument 'foo'" -b foo
"$WBTOP" --no-such-option >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option: exit not 2"

# An output file that cannot be created: named, exit 1.
"$WBTOP" -b -n 1 -o /nonexistent/dir/out 2>"$TMP/e"; rc=$?
[ $rc -eq 1 ] && grep -q '/nonexistent/dir/out' "$TMP/e" || fail "-o to a missing directory: exit $rc, $(cat "$TMP/e")"

# The reader goes away: wbtop ends quietly and at once, status 0.
start=$(date +%s)
"$WBTOP" -b -a -d 0.1 2>"$TMP/e" | head -1 >/dev/null
rc=$?
[ -s "$TMP/e" ] && fail "EPIPE: wbtop complained: $(cat "$TMP/e")"
[ $(( $(date +%s) - start )) -lt 10 ] || fail "EPIPE: wbtop did not stop"

need_root "the rest mounts fixtures and loop devices"

# A /proc file that is not what it should be: one line naming it, exit 1.
echo "garbage" > "$TMP/vmstat"
unshare -m --propagation private sh -c "mount --bind $TMP/vmstat /proc/vmstat && exec \"$WBTOP\" -b -n 1" \
	>/dev/null 2>"$TMP/e"
rc=$?
[ $rc -eq 1 ] && grep -q '/proc/vmstat' "$TMP/e" || fail "garbage /proc/vmstat: exit $rc, $(cat "$TMP/e")"

# A recording target on a read-only filesystem: one line naming it, exit 1.
mkdir -p "$TMP/ro"
mount -t tmpfs -o ro,size=1m tmpfs "$TMP/ro" || fail "could not mount a read-only tmpfs"
on_exit "umount -l $TMP/ro 2>/dev/null"
"$WBTOP" -b -w "$TMP/ro/r.db" -n 1 -d 0.1 >/dev/null 2>"$TMP/e"; rc=$?
[ $rc -eq 1 ] && grep -q "$TMP/ro/r.db: Read-only file system" "$TMP/e" ||
	fail "read-only target: exit $rc, $(cat "$TMP/e")"

# A device that vanishes mid-run: unmounted and detached while wbtop
# watches it (as -a shows it each interval).  wbtop carries on.
make_loop_fs 64 "$TMP/mnt" || fail "could not make a loop filesystem"
name=$(basename "$LOOPDEV")
"$WBTOP" -b -a -d 0.2 -n 40 >"$TMP/out" 2>"$TMP/err" &
pid=$!
# the device goes once wbtop has shown it with its mount point (each interval
# is flushed whole), however long a loaded machine takes to get there
for i in $(seq 600); do
	grep -q "^$name .*$TMP/mnt" "$TMP/out" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
grep -q "^$name .*$TMP/mnt" "$TMP/out" || fail "$name was never shown with its mount point: $(cat "$TMP/out" "$TMP/err")"
shown=$(grep -c '^time' "$TMP/out")
[ "$shown" -lt 40 ] || fail "wbtop ended before the device went away (want it gone within 40 intervals)"
dd if=/dev/zero of="$TMP/mnt/f" bs=1M count=8 oflag=direct 2>/dev/null
umount "$TMP/mnt" && losetup -d "$LOOPDEV" || fail "could not unmount and detach"
wait $pid; rc=$?
[ $rc -eq 0 ] || fail "wbtop exited $rc when $name went away: $(cat "$TMP/err")"
[ "$(grep -c '^time' "$TMP/out")" -eq 40 ] || fail "want 40 intervals after the device went away, got $(grep -c '^time' "$TMP/out")"
echo "40 intervals printed while $name was unmounted and detached"

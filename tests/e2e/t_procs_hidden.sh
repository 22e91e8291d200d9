#!/bin/sh
# -P without root: other users' /proc/PID/io is unreadable.  wbtop counts
# the tasks it cannot see into and labels them "hidden", never shows them
# as writing 0, and exits cleanly.
. "$E2E_LIB"
need_root "switches to an unprivileged user"
need_tool setpriv util-linux
chmod 755 "$TMP"
# A root writer the unprivileged wbtop cannot measure.
dd if=/dev/zero of="$TMP/f" bs=64k count=100000 oflag=dsync 2>/dev/null &
ddpid=$!
on_exit "kill $ddpid 2>/dev/null; wait $ddpid 2>/dev/null"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$WBTOP" -b -P -d 0.5 -n 3 > "$TMP/out" 2> "$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
[ -s "$TMP/err" ] && fail "wbtop wrote to stderr: $(cat "$TMP/err")"
grep -q '^procs [0-9]* tasks:.* [1-9][0-9]* hidden (/proc/PID/io unreadable: not root)' "$TMP/out" ||
	{ cat "$TMP/out"; fail "no count of hidden tasks"; }
# The root dd is absent or labelled, never given figures.
awk -v pid=$ddpid '$1 == pid && ($3 != "hidden" || $4 != "hidden")' "$TMP/out" | grep -q . &&
	{ cat "$TMP/out"; fail "root's dd shown with write figures to an unprivileged user"; }
# A D-state task whose wchan is unreadable is marked "?", not "not throttled".
awk -v pid=$ddpid '$1 == pid && $2 == "D" && $9 != "?"' "$TMP/out" | grep -q . &&
	{ cat "$TMP/out"; fail "an unreadable wait was not labelled unknown"; }
exit 0

#!/bin/sh
# What the status line has to say at start-up is said in turn, none of it
# lost to what comes a moment later: --set's result first, for its few
# seconds, then the note that the kernel's writeback loop is only partly
# readable (debugfs hidden in the pane's namespace: "per-device limits"),
# for its own few seconds; a key dismisses the message showing and the
# hints come back.  On fixture copies of /proc/sys/vm/dirty_* only.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
scr_scenario <<'EOF2'
dev fixa 240 0
at 0 fixa w=20480 util=60
at 0 sys dirty=204800 wb=40960 dirtied=20480 written=20480 thresh=auto bg=auto
EOF2
note="kernel writeback loop: per-device limits: debugfs is not mounted at /sys/kernel/debug"
set_ok="vm.dirty_ratio 20 -> 30: ok (--set)"
last_row() { sed -n 24p "$TMP/pane"; }

SCR_NO_DEBUGFS=1
scr_start 140 24 -- -d 0.3 --set vm.dirty_ratio=30
SCR_NO_DEBUGFS=
scr_wait "$set_ok" 10
t0=$(date +%s)
scr_wait "fixa" 5
# The kernel loop starts after the first frame and has its note by now; the
# answer to --set is still on the line, not replaced by it.
sleep 2
scr_cap >/dev/null
last_row | grep -qF -- "$set_ok" || { scr_show; fail "--set's result left the line after 2 s"; }
grep -qF -- "$note" "$TMP/pane" && { scr_show; fail "the kernel loop's note showed over --set's result"; }
# Then the note has its turn.
scr_wait "$note" 8
last_row | grep -qF -- "$note" || { scr_show; fail "the note is not on the status line"; }
grep -qF -- "$set_ok" "$TMP/pane" && { scr_show; fail "--set's result and the note at once"; }
t1=$(date +%s)
[ $((t1 - t0)) -ge 3 ] || fail "the note came after $((t1 - t0)) s: --set's result was cut short"
# A key answers it; the hints are back.
scr_keys Down
end=$(( $(date +%s) + 3 ))
while :; do
	scr_cap >/dev/null
	last_row | grep -q '^h help' && break
	[ "$(date +%s)" -gt "$end" ] && { scr_show; fail "the hints did not come back after a key"; }
	sleep 0.1
done
grep -qF -- "$note" "$TMP/pane" && { scr_show; fail "the note stayed after a key"; }
[ "$(cat "$FX/vm/dirty_ratio")" = 30 ] || fail "--set not written: $(cat "$FX/vm/dirty_ratio")"
scr_quit
echo "start-up messages in turn: --set's result, then the kernel loop's note; a key brings the hints back"

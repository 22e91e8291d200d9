#!/bin/sh
# --set with the screen: the knob is written before the first sample, the
# write shows on the status line and goes into the recording as an event
# with its reason; --restore-on-exit's write is an event too, and the
# recording ends with the knob put back, so a replay shows what the host
# was left with.  On fixture copies of /proc/sys/vm/dirty_* only.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
scr_scenario <<'EOF2'
dev fixa 240 0
at 0 fixa w=20480 util=60
at 0 sys dirty=204800 wb=40960 dirtied=20480 written=20480 thresh=auto bg=auto
EOF2
knob() { cat "$FX/vm/$1"; }

scr_start 100 24 -- -d 0.3 --set vm.dirty_ratio=30 --restore-on-exit -w "$TMP/s.db"
scr_wait "vm.dirty_ratio 20 -> 30: ok (--set)" 10
[ "$(knob dirty_ratio)" = 30 ] || fail "--set not written: $(knob dirty_ratio)"
scr_wait "fixa" 5
sleep 1
scr_quit
[ "$(knob dirty_ratio)" = 20 ] || fail "--restore-on-exit did not put dirty_ratio back: $(knob dirty_ratio)"

"$WBTOP" -r "$TMP/s.db" -b >"$TMP/replay" 2>"$TMP/replay.err" || { cat "$TMP/replay.err"; fail "batch replay failed"; }
grep -qF "knob vm.dirty_ratio 20 -> 30: ok, --set" "$TMP/replay" || { cat "$TMP/replay"; fail "replay lacks the --set event"; }
grep -qF "knob vm.dirty_ratio 30 -> 20: ok, --restore-on-exit" "$TMP/replay" ||
	{ cat "$TMP/replay"; fail "replay lacks the --restore-on-exit event"; }
"$WBTOP" -r "$TMP/s.db" --export json >"$TMP/json" || fail "export failed"
tail -1 "$TMP/json" | grep -q '"vm.dirty_ratio":20' || fail "the recording does not end with the knob restored"

# the screen's replay words wbtop's own write as it was made
scr_start 100 24 -- -r "$TMP/s.db"
scr_wait "speed 1x" 10
scr_keys Space
scr_wait "PAUSED" 3
scr_keys t C-u s t a r t Enter
scr_wait_re "sample 1/" 5
scr_keys "}"
scr_wait "vm.dirty_ratio 20 -> 30: ok (--set)" 5
scr_keys "}"
scr_wait "vm.dirty_ratio 30 -> 20: ok (--restore-on-exit)" 5
grep -q "outside wbtop" "$TMP/pane" && { scr_show; fail "the replay calls wbtop's write an outside change"; }
scr_quit

# --set that is refused ends before the screen opens, exit 2, one line
scr_start 100 24 -- -d 0.3 --set vm.dirty_ratio=101
scr_ended "refused --set" 2
grep -q "^wbtop: --set 'vm.dirty_ratio=101'" "$TMP/stderr" || { cat "$TMP/stderr"; fail "no message for the refused --set"; }
echo "the screen with --set: written first, on the status line, recorded; restore recorded and replayed"

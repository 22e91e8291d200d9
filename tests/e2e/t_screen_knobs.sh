#!/bin/sh
# The knob panel (e) on fixture copies of /proc/sys/vm/dirty_* (the host's
# knobs are never touched): set dirty_ratio to 10 from the screen, see
# control's explanation first, then the new value, the new effective
# limit and the change marked on the graph; undo it; revert several
# changes at once (and say each one); a refused value writes nothing; --read-only shows the
# knobs read-only with the reason.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

# thresh/bg "auto": the driver derives nr_dirty_threshold from the fixture
# knobs as the kernel would (ratio of 4000000 KiB), so the limit follows.
scr_scenario <<'EOF'
dev fixa 240 0
at 0 fixa w=20480 util=60
at 0 sys dirty=204800 wb=40960 dirtied=20480 written=20480 thresh=auto bg=auto
EOF
knob() { cat "$FX/vm/$1"; }

scr_start 80 24 -- -d 0.5
scr_wait "fixa" 10
scr_wait "dirty: ratio *20% bytes 0 =781M" 3

# --- the panel: the knobs with their values; dirty_ratio selected
scr_keys e
scr_wait "writeback knobs" 3
scr_wait_re ">vm.dirty_ratio +\* +20%" 3
scr_wait "vm.dirty_ratio: hard limit" 3

# --- a value that is refused: explained, nothing written
scr_keys Enter C-u 1 0 1
scr_wait "out of range" 3
scr_keys Enter
scr_wait "out of range" 3
[ "$(knob dirty_ratio)" = 20 ] || fail "a refused value was written"

# --- dirty_ratio 10: the explanation before, the event after
scr_keys Enter C-u 1 0
scr_wait "new value" 3
scr_wait_re "-> vm.dirty_ratio 20% -> 10%: hard limit ~781(\.[0-9])?M -> ~39[01](\.[0-9])?M" 3
[ "$(knob dirty_ratio)" = 20 ] || fail "written before Enter"
scr_keys Enter
scr_wait "vm.dirty_ratio 20 -> 10: ok" 3
[ "$(knob dirty_ratio)" = 10 ] || fail "dirty_ratio not written: $(knob dirty_ratio)"
scr_wait_re ">vm.dirty_ratio +\* +10% +20%" 3
scr_wait "(1 change)" 3
# the effective limit follows (the knob rows above the panel)
scr_wait "dirty: ratio *10% bytes 0 =391M" 5
scr_wait "limit 391M" 3

# --- back on the main screen: the change is marked on the graph's mark row
scr_keys Escape
scr_wait "DEVICE" 3
scr_wait_mark "*" 3

# --- u undoes it (from the main screen too)
scr_keys u
scr_wait "vm.dirty_ratio 10 -> 20: ok" 3
[ "$(knob dirty_ratio)" = 20 ] || fail "undo did not restore dirty_ratio: $(knob dirty_ratio)"
scr_wait "dirty: ratio *20% bytes 0 =781M" 5

# --- two changes, U reverts both
scr_keys e
scr_wait "writeback knobs" 3
scr_keys Enter C-u 1 5 Enter
scr_wait "vm.dirty_ratio 20 -> 15: ok" 3
scr_keys Down Enter C-u 5 Enter
scr_wait "vm.dirty_background_ratio 10 -> 5: ok" 3
scr_wait "(2 changes)" 3
scr_keys U
scr_wait "(0 changes)" 3
[ "$(knob dirty_ratio)" = 20 ] && [ "$(knob dirty_background_ratio)" = 10 ] ||
	fail "U: not reverted: $(knob dirty_ratio) $(knob dirty_background_ratio)"
# U says every knob it put back, whole: wider than 80 columns, the
# message takes the row above the status line too
scr_cap >/dev/null
tail -2 "$TMP/pane" | tr '\n' ' ' | grep -qF "revert, 2 writes: vm.dirty_ratio 15 -> 20, vm.dirty_background_ratio 5 -> 10: all ok" ||
	{ scr_show; fail "U does not report both knobs reverted"; }
scr_keys Escape
scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }

# --- --revert-after: a change not confirmed is undone; c keeps one
scr_start 80 24 -- -d 0.5 --revert-after 2
scr_wait "fixa" 10
scr_keys e
scr_wait "writeback knobs" 3
scr_keys Enter C-u 1 2 Enter
scr_wait "vm.dirty_ratio 20 -> 12: ok" 3
scr_wait "c confirms, else revert in" 3
scr_wait "unconfirmed change reverted" 5
[ "$(knob dirty_ratio)" = 20 ] || fail "--revert-after: not reverted: $(knob dirty_ratio)"
scr_keys Enter C-u 1 2 Enter
scr_wait "vm.dirty_ratio 20 -> 12: ok" 3
scr_keys c
scr_wait "knob changes confirmed" 3
sleep 3
[ "$(knob dirty_ratio)" = 12 ] || fail "--revert-after: a confirmed change was reverted"
scr_cap | grep -q "revert in" && { scr_show; fail "the countdown stayed after c"; }
scr_keys U
scr_wait "(0 changes)" 3
[ "$(knob dirty_ratio)" = 20 ] || fail "U after confirm: $(knob dirty_ratio)"
scr_keys Escape
scr_quit

# --- --read-only: the panel says so, Enter writes nothing
scr_start 80 24 -- -d 0.5 --read-only
scr_wait "fixa" 10
scr_keys e
scr_wait "read-only: --read-only" 3
scr_keys Enter
scr_wait "knobs are read-only: --read-only" 3
scr_cap | grep -qF "new value" && { scr_show; fail "--read-only: an edit prompt opened"; }
scr_keys u
scr_wait "nothing to undo" 3
[ "$(knob dirty_ratio)" = 20 ] || fail "--read-only: written"
scr_keys Escape
scr_quit
echo "ok"

#!/bin/sh
# '!' shows only the devices that dipped in the last minute: before any dip
# the table says none did; once fixa drops to 30% it is the only row, and it
# stays after its drop has become the new level (it dipped lately); '!'
# again shows every busy device.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario <<'EOF2'
dev fixa 240 0
dev fixb 240 16
dev fixc 240 32
at 0 fixa w=20480 util=60
at 0 fixb w=8192 util=30
at 0 fixc w=4096 util=20
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
at 8 fixa w=6144
EOF2
scr_start 80 24 LANG=C.UTF-8 -- -d 0.5

scr_wait "fixc" 10
scr_keys !
scr_wait "no device dipped in the last minute" 3
scr_cap >/dev/null
grep -qF "!dipped" "$TMP/pane" || { scr_show; fail "the status line does not say '!dipped'"; }
for d in fixa fixb fixc; do
	grep -q " $d " "$TMP/pane" && { scr_show; fail "$d shown before any dip"; }
done

# the drop at 8 s: fixa, and only fixa
scr_wait "!fixa" 15
scr_cap >/dev/null
grep -qF "DEVICE 1/1" "$TMP/pane" || { scr_show; fail "not one row of one"; }
grep -qE "fix[bc]" "$TMP/pane" && { scr_show; fail "a device that kept its rate is shown"; }

# the drop becomes the new level (no mark after about 7.5 s: 15 of the 24 intervals of the
# level window, doc/dips.md): fixa stays, it dipped lately
sleep 9
scr_cap >/dev/null
grep -q "^!fixa" "$TMP/pane" && { scr_show; fail "fixa still marked long after the drop"; }
grep -q "^ fixa" "$TMP/pane" || { scr_show; fail "fixa left although it dipped seconds ago"; }

# '!' again: every busy device
scr_keys !
scr_wait "fixc" 3
scr_cap >/dev/null
grep -q " fixb " "$TMP/pane" || { scr_show; fail "fixb not back"; }
grep -qF "!dipped" "$TMP/pane" && { scr_show; fail "'!dipped' still on the status line"; }

scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"

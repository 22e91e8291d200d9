#!/bin/sh
# A dip stands out: a device writes steadily for 8 s, then drops to 30%.
# The dipping row gets the '!' marker and the dip colour, the top line
# says !DIP, the graph marks the interval with '^' (marks that show
# without colour too), and the device's detail page says it dipped.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario <<'EOF'
dev fixa 240 0
dev fixb 240 16
at 0 fixa w=20480 util=60
at 0 fixb w=8192 util=30
at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672
at 8 fixa w=6144
EOF
scr_start 80 24 LANG=C.UTF-8 TERM=xterm-256color -- -d 0.5

scr_wait "fixb" 10
# Select fixb, so fixa's row shows its own colours.
scr_keys Down
# Before the drop: no mark on fixa's row.
sleep 3
scr_cap >/dev/null
grep -q "^!fixa" "$TMP/pane" && { scr_show; fail "fixa marked before it dropped"; }

# After the drop (at 8 s): the row, the top line and the graph.
scr_wait "!fixa" 15
scr_cap >/dev/null
grep -qF "!DIP" "$TMP/pane" || { scr_show; fail "no !DIP on the top line"; }
# The row is drawn in the dip colour (red: SGR 31, or 91 bright).
sleep 0.2
$SCR_TMUX capture-pane -p -e >"$TMP/pane.e"
grep -a "fixa" "$TMP/pane.e" | head -1 | grep -qaE $(printf '\033')'\[([0-9;]*;)?(31|91)(;[0-9;]*)?m' ||
	{ cat -v "$TMP/pane.e"; fail "the dipping row is not red"; }
# the system line may dip an interval after the device (a drop split by an interval's edge
# is a pacing tick's fall in the first): wait for the mark row itself, not the legend's '^'
scr_wait_mark "^" 5
# The '^' marks sit on the graph's mark row, under the newest columns.
tail -2 "$TMP/pane" | head -1 | grep -qE '\^ *[^ ]*$|\^+─*$' ||
	{ scr_show; fail "no dip mark under the newest columns of the graph"; }
# fixb kept its rate: not marked.
grep -q "^!fixb" "$TMP/pane" && { scr_show; fail "fixb marked although it kept its rate"; }

# Selected, a dipping row keeps a red background (by name, fixa is first;
# Home also shows that tmux's Home works under TERM=xterm-256color).
scr_keys N Home
sleep 0.3
$SCR_TMUX capture-pane -p -e >"$TMP/pane.e"
if grep -qa "!fixa" "$TMP/pane.e"; then
	grep -a "fixa" "$TMP/pane.e" | head -1 | grep -qaE $(printf '\033')'\[([0-9;]*;)?41(;[0-9;]*)?m' ||
		{ cat -v "$TMP/pane.e"; fail "the selected dipping row lost its red"; }
fi

# The detail page of fixa says so while it dips.
scr_keys Enter
scr_wait "kernel fixa" 3
scr_cap >/dev/null
grep -qE "write rate dipped|\^" "$TMP/pane" || { scr_show; fail "the detail page does not show the dip"; }
scr_keys Escape
scr_wait "DEVICE" 3

# The marks stay in the graph after the dip has passed.  A drop that lasts is
# the new level once it fills more than 60 % of the level window (q 0.6 of 24
# busy intervals, doc/dips.md): 15 intervals, 7.5 s at -d 0.5, counted from
# the drop.
sleep 9
scr_cap >/dev/null
grep -q "^!fixa" "$TMP/pane" && { scr_show; fail "fixa still marked long after the drop (the new level is normal now)"; }
tail -2 "$TMP/pane" | head -1 | grep -qF "^" || { scr_show; fail "the dip marks left the graph"; }

scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"

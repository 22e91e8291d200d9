#!/bin/sh
# Twelve devices dip at once on an 80-column screen: the status line names
# as many as fit, with their causes, and says how many it leaves out
# ("+N more"), so that named and counted make twelve; '!' lists all twelve.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

{
	k=0
	for d in 01 02 03 04 05 06 07 08 09 10 11 12; do
		echo "dev dd$d 240 $((k * 16))"
		k=$((k + 1))
	done
	for d in 01 02 03 04 05 06 07 08 09 10 11 12; do
		echo "at 0 dd$d w=8192 util=30"
		echo "at 8 dd$d w=2048"
	done
	echo "at 0 sys dirty=102400 wb=20480 dirtied=28672 written=28672"
} | scr_scenario
scr_start 80 24 LANG=C.UTF-8 -- -d 0.5

scr_wait "DEVICE 1/12" 10
scr_wait "more" 15
scr_cap >/dev/null
status=$(tail -1 "$TMP/pane")
named=$(printf '%s\n' "$status" | grep -oE "dd[0-9][0-9]( -[0-9]+%)?: " | wc -l)
more=$(printf '%s\n' "$status" | sed -n 's/.*+\([0-9][0-9]*\) more.*/\1/p')
[ -n "$more" ] && [ "$named" -ge 1 ] || { scr_show; fail "no '+N more' after the names: $status"; }
[ $((named + more)) -eq 12 ] || { scr_show; fail "$named named and $more more, not 12: $status"; }
[ "$(wc -L <"$TMP/pane")" -le 80 ] || { scr_show; fail "a line is wider than the terminal"; }

scr_keys !
scr_wait "DEVICE 1/12" 3

scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"

#!/bin/sh
# A large terminal (200x60) and many devices (150, 15 of them idle): the
# extra iostat columns appear, the table fills the height, sorting holds
# across pages, and PgDn/End/Home/a scroll through all of them.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

{
	i=0
	while [ $i -lt 150 ]; do
		n=$(printf 'fx%03d' $i)
		echo "dev $n 240 $((i * 16))"
		# every tenth device idle; the others write (i+1) * 64 KiB/s
		[ $((i % 10)) -eq 9 ] || echo "at 0 $n w=$(( (i + 1) * 64 )) util=$(( i % 90 + 5 ))"
		i=$((i + 1))
	done
	echo "at 0 sys dirty=1048576 wb=65536 dirtied=40000 written=40000"
} | scr_scenario
scr_start 200 60 TERM=xterm LANG=C.UTF-8 -- -d 0.5

scr_wait "DEVICE 1/135" 10
scr_wait_re "^ fx148 " 5
scr_cap >/dev/null
for col in "r/s" "w/s" "rMB/s" "wMB/s" "rrqm/s" "wrqm/s" "await" "r_await" "w_await" "aqu-sz" "util" "wareq-sz"; do
	grep -qF -- "$col" "$TMP/pane" || { scr_show; fail "200 columns: no $col column"; }
done
[ "$(wc -L <"$TMP/pane")" -le 200 ] || { scr_show; fail "a line is wider than 200"; }
# The biggest writer on top (fx149 is idle: fx148 writes 9.3 MB/s).
[ "$(sed -n 9p "$TMP/pane" | cut -c2-6)" = fx148 ] || { scr_show; fail "fx148 is not the first row"; }
# The table uses the height: ~36 device rows, and a tall graph below.
rows=$(grep -c '^[ !]fx[0-9]' "$TMP/pane")
[ "$rows" -ge 30 ] || { scr_show; fail "only $rows device rows at 60 lines"; }
grep -qF "system writes (bo)" "$TMP/pane" || { scr_show; fail "no graph"; }
[ "$(sed -n 60p "$TMP/pane" | cut -c1-6)" = "h help" ] || { scr_show; fail "the status line is not the last row"; }

# Page down twice: rows further down the order, still sorted.
scr_keys NPage NPage
scr_wait_re "DEVICE [0-9]+/135" 3
sleep 0.3
scr_cap >/dev/null
first=$(sed -n 9p "$TMP/pane" | cut -c2-6)
[ "$first" != fx148 ] || { scr_show; fail "PgDn did not scroll"; }
# End: the last row is the smallest writer, fx000.
scr_keys End
scr_wait "DEVICE 135/135" 3
scr_wait_re "^ fx000 " 3
scr_keys Home
scr_wait "DEVICE 1/135" 3
# All devices, idle ones too.
scr_keys a
scr_wait "DEVICE 1/150" 3
scr_keys End
scr_wait "DEVICE 150/150" 3
scr_keys a Home
scr_wait "DEVICE 1/135" 3

# The detail page at this size: both graphs, taller.
scr_keys Enter
scr_wait "kernel fx148" 3
scr_cap >/dev/null
grep -qF "await (ms)" "$TMP/pane" || { scr_show; fail "detail: no await graph"; }
scr_keys Escape

scr_quit
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
echo "ok"

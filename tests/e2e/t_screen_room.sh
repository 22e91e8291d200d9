#!/bin/sh
# The room on the screen.  Three loop filesystems mounted under one long
# directory (the test's own) write at fixture rates, without flushes or
# discards: at 80x24 the f/s and d/s columns, zero on every device, give
# way before the names are cut, and each name keeps what tells the devices
# apart (m1, m2, m3: the mount point's tail); at 200x50 the graph takes the
# rows the table does not need, no blank rows between them.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup
base=$TMP/a-long-directory-name-i19
mkdir -p "$base"
for i in 1 2 3; do
	make_loop_fs 32 "$base/m$i" || skip "no loop device available"
	eval "dev$i=\${LOOPDEV#/dev/} mm$i=\$(cat /sys/class/block/\${LOOPDEV#/dev/}/dev)"
done
{
	for i in 1 2 3; do
		eval "n=\$dev$i mm=\$mm$i"
		echo "dev $n ${mm%:*} ${mm#*:}"
		echo "at 0 $n w=$((i * 4096)) util=$((i * 10))"
	done
	echo "at 0 sys dirty=204800 wb=40960 dirtied=12288 written=12288"
} | scr_scenario

scr_start 80 24 LANG=C.UTF-8 -- -d 0.5
scr_wait "$dev1" 10
sleep 1
scr_cap >/dev/null
grep -qE 'DEVICE.* f/s|DEVICE.* d/s' "$TMP/pane" && { scr_show; fail "80x24: f/s or d/s shown, zero on every device"; }
for i in 1 2 3; do
	eval "n=\$dev$i"
	grep -qE "^ $n [^ ]*m$i " "$TMP/pane" || { scr_show; fail "80x24: $n's name does not show m$i"; }
done
scr_quit

scr_start 200 50 LANG=C.UTF-8 -- -d 0.5
scr_wait "$dev1" 10
sleep 1
scr_cap >/dev/null
last=$(grep -nE "^ ($dev1|$dev2|$dev3) " "$TMP/pane" | tail -1 | cut -d: -f1)
rule=$(grep -n "system writes (bo)" "$TMP/pane" | cut -d: -f1)
[ -n "$last" ] && [ -n "$rule" ] || { scr_show; fail "200x50: no table or no graph"; }
[ $((rule - last)) -le 2 ] || { scr_show; fail "200x50: $((rule - last - 1)) blank rows between the table and the graph"; }
# the graph has the rest: from the rule to the status line
[ $((50 - rule)) -ge 30 ] || { scr_show; fail "200x50: the graph has $((50 - rule)) rows"; }
scr_quit
echo "80x24: names keep m1/m2/m3, no zero f/s d/s; 200x50: graph of $((50 - rule)) rows right under the table"

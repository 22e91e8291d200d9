#!/bin/sh
# Scale: 5000 devices, all writing.  The screen comes up, stays responsive
# (keys answered between samples at -d 0.5), scrolls from the first to the
# last device, and wbtop's CPU use stays modest.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

{
	i=0
	while [ $i -lt 5000 ]; do
		n=$(printf 'sc%04d' $i)
		echo "dev $n 253 $i"
		echo "at 0 $n w=$(( (i % 97 + 1) * 64 )) util=$(( i % 90 + 5 ))"
		i=$((i + 1))
	done
	echo "at 0 sys dirty=1048576 wb=65536 dirtied=40000 written=40000"
} | scr_scenario
scr_start 120 40 TERM=xterm LANG=C.UTF-8 -- -d 0.5

scr_wait "DEVICE 1/5000" 20
scr_keys End
scr_wait "DEVICE 5000/5000" 5
scr_keys Home
scr_wait "DEVICE 1/5000" 5
scr_keys NPage NPage NPage
scr_wait_re "DEVICE [0-9]+/5000" 5
pid=$(scr_pid)
sleep 5
# CPU seconds over the whole run so far (utime + stime, in clock ticks)
ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
hz=$(getconf CLK_TCK)
elapsed=$(awk -v hz="$hz" -v st="$(awk '{print $22}' "/proc/$pid/stat")" \
	'{ print $1 - st / hz }' /proc/uptime)
echo "wbtop used $ticks ticks of CPU in ${elapsed}s with 5000 devices on the screen"
awk -v t="$ticks" -v hz="$hz" -v e="$elapsed" 'BEGIN { exit !(t / hz < 0.5 * e) }' ||
	fail "more than half a CPU with 5000 devices"
scr_quit
echo "ok"

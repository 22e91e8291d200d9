#!/bin/sh
# A device that vanishes while another appears, the count of devices the same:
# the new one has no rate in its first interval and its own rate after, never
# one from the vanished device's counters.  The live source numbers each list
# of devices and pairs a device with its last sample by place while the list
# is the same (snapshot.h, devs_serial): a list that changed must get a new
# number, or the new device would be paired with the old one's counters.
. "$E2E_LIB"
need_root "it bind-mounts a fixture /proc/diskstats in a private mount namespace"

fx="$TMP/diskstats"
# loop3 and loop5 write 16 sectors a second; loop6 comes in loop5's place
# with counters far above loop5's (a rate from loop5's would be about 500 MB/s)
line() {	# major minor name writes sectors
	printf '%4d %7d %s 0 0 0 0 %d 0 %d 0 0 1 2\n' "$1" "$2" "$3" "$4" "$5"
}
{ line 7 3 loop3 1 16; line 7 5 loop5 1 16; } >"$fx"
cat >"$TMP/run.sh" <<EOS
mount --bind "$fx" /proc/diskstats || exit 90
(
	for k in 2 3; do
		sleep 1
		{ printf '%4d %7d %s 0 0 0 0 %d 0 %d 0 0 1 2\n' 7 3 loop3 \$k \$((k * 16))
		  printf '%4d %7d %s 0 0 0 0 %d 0 %d 0 0 1 2\n' 7 5 loop5 \$k \$((k * 16)); } >"$fx"
	done
	for k in 4 5 6 7 8; do
		sleep 1
		{ printf '%4d %7d %s 0 0 0 0 %d 0 %d 0 0 1 2\n' 7 3 loop3 \$k \$((k * 16))
		  printf '%4d %7d %s 0 0 0 0 %d 0 %d 0 0 1 2\n' 7 6 loop6 \$((1000000 + k)) \$((1000000000 + k * 16)); } >"$fx"
	done
) &
sleep 0.5
"$WBTOP" -b -a -d 1 -n 7 >"$TMP/out" 2>"$TMP/err"
echo \$? >"$TMP/rc"
wait
EOS
unshare -m --propagation private sh "$TMP/run.sh"
rc=$(cat "$TMP/rc")
[ "$rc" = 0 ] || { head -30 "$TMP/err"; fail "exit $rc"; }
[ -s "$TMP/err" ] && { head -30 "$TMP/err"; fail "wbtop wrote to stderr"; }
grep -q '^loop6 ' "$TMP/out" || { cat "$TMP/out"; fail "loop6 never shown"; }
# the device table's lines only (from its header to the next table)
awk '/^device / { dev = 1; next } /^($|time |writeback |kernel |cgroup )/ { dev = 0 } dev' "$TMP/out" >"$TMP/devs"
# every loop6 line: wkB/s (the 5th column) at most its own 8 kB/s, give or take timing
bad=$(awk '$1 == "loop6" && $5 + 0 > 100 { print }' "$TMP/devs")
[ -z "$bad" ] || { cat "$TMP/out"; fail "loop6 got a rate from loop5's counters: $bad"; }
# and it does write: its own rate shows after its first interval
awk '$1 == "loop6" && $5 + 0 >= 4 && $5 + 0 <= 12 { found = 1 } END { exit !found }' "$TMP/devs" ||
	{ cat "$TMP/out"; fail "loop6 never showed its own 8 kB/s"; }
awk '$1 == "loop3" && $5 + 0 > 100 { bad = 1 } END { exit bad }' "$TMP/devs" ||
	{ cat "$TMP/out"; fail "loop3's rate went wrong across the change"; }
# the kernel loop's table follows the new device too (its row is read by major:minor from the
# list of this sample, not the last one's), where this kernel has loop6's bdi in debugfs
if [ -r /sys/kernel/debug/bdi/7:6/stats ]; then
	awk '/^writeback / { wb = 1; next } /^(kernel |cgroup |time )/ { wb = 0 } wb' "$TMP/out" >"$TMP/wb"
	tail -3 "$TMP/wb" | grep -q '^loop6 ' ||
		{ cat "$TMP/out"; fail "the writeback table has no row of loop6 after the change"; }
else
	echo "note: no debugfs bdi of 7:6 here: the writeback table is not checked"
fi
echo "ok: loop6 paired with nothing of loop5's, its own rate after"

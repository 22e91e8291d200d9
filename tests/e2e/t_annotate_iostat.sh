#!/bin/sh
# The man page's promise, as the issue ran it: iostat -x output grepped for
# one device and piped into --annotate - is read (sysstat 12's 22-value -x
# layout, in kB/s and in MB/s), every line comes back, and the interval in
# which the writer is slowed from 8 MiB/s to 1 MiB/s is marked in both, in
# the same intervals: the MB/s log is made from the kB/s one, and the
# detector judges both at 0.01 MiB/s (doc/annotate.md).
. "$E2E_LIB"
need_root "makes a loop filesystem"
need_tool iostat sysstat
need_tool pv pv
make_loop_fs 300 "$TMP/mnt-i19ann" || fail "could not make a loop filesystem"
dev=${LOOPDEV#/dev/}
# O_DIRECT: the device sees the writer's pace, not writeback's bursts
$RT pv -q -L 8m /dev/zero | $RT dd of="$TMP/mnt-i19ann/f" bs=64k oflag=direct iflag=fullblock count=4000 2>/dev/null &
sleep 1
pvpid=$(pgrep -P $$ -x pv | head -1)
[ -n "$pvpid" ] || fail "the writer did not start"
on_exit "kill $pvpid 2>/dev/null"
$RT iostat -dxk 1 10 >"$TMP/k.log" &
kpid=$!
sleep 5.5
pv -R "$pvpid" -L 1m
sleep 1.5
pv -R "$pvpid" -L 8m
wait $kpid
kill "$pvpid" 2>/dev/null
# The MB/s log is the kB/s one as iostat -m prints the same counts: the three rate
# columns at two decimals of MiB, halves up (from the kB/s log's own hundredths, in
# integers), the rest as it is.  Never a second iostat: two processes' intervals are
# not the same (doc/annotate.md, the resolution of iostat logs).
awk '$1 == "Device" { sub(/rkB\/s/, "rMB/s"); sub(/wkB\/s/, "wMB/s"); sub(/dkB\/s/, "dMB/s"); print; next }
NF == 23 {
	for (i = 3; i <= 15; i += 6) {
		split($i, p, "."); h = p[1] * 100 + substr(p[2] "00", 1, 2)
		$i = sprintf("%.2f", int((h + 512) / 1024) / 100)
	}
	print; next
}
{ print }' "$TMP/k.log" >"$TMP/m.log"
for u in k m; do
	grep "^$dev " "$TMP/$u.log" >"$TMP/$u.in"
	[ "$(awk '{ print NF - 1 }' "$TMP/$u.in" | sort -u)" = 22 ] || fail "iostat -dx$u: not the 22-value layout"
	"$WBTOP" --annotate - <"$TMP/$u.in" >"$TMP/$u.out" 2>"$TMP/$u.err" ||
		fail "iostat -dx$u | grep $dev refused: $(cat "$TMP/$u.err")"
	[ "$(wc -l <"$TMP/$u.out")" = "$(wc -l <"$TMP/$u.in")" ] || fail "-dx$u: lines lost"
	grep -q '<<<<<$' "$TMP/$u.out" || { cat "$TMP/$u.out"; fail "-dx$u: the slowed interval is not marked"; }
done
# the same intervals marked in kB/s and in MB/s
[ "$(grep -n '<<<<<' "$TMP/k.out" | cut -d: -f1)" = "$(grep -n '<<<<<' "$TMP/m.out" | cut -d: -f1)" ] ||
	{ paste "$TMP/k.out" "$TMP/m.out"; fail "-dxk and -dxm marked differently: want the same lines, got $(grep -n '<<<<<' "$TMP/k.out" | cut -d: -f1 | tr '\n' ' ')in kB/s and $(grep -n '<<<<<' "$TMP/m.out" | cut -d: -f1 | tr '\n' ' ')in MB/s"; }
echo "iostat -dxk and -dxm grepped for $dev: read, the slowed interval marked in both"

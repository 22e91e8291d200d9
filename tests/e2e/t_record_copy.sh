#!/bin/sh
# A recording copied away mid-write, main file only (the -wal file left
# behind, as a power cut or a careless scp would), replays up to its last
# completed sample: each copy replays, and what it replays is a prefix of
# the full recording (with --rec-sync sample: the main file is brought up
# to date after every sample; the default lags by up to 5 s).
. "$E2E_LIB"
rec=$TMP/grow.wbrec
"$WBTOP" -b -q -w "$rec" -d 0.02 --rec-sync sample &
pid=$!
on_exit "kill -9 $pid 2>/dev/null"
sleep 0.5
i=0
while [ $i -lt 30 ]; do
	cp "$rec" "$TMP/copy$i.wbrec" || fail "cp failed"
	i=$((i + 1))
	sleep 0.07
done
# follow mode readers see the live file grow meanwhile
"$WBTOP" -r "$rec" --export json >"$TMP/live-read.json" || fail "reading the file being written failed"
kill -TERM $pid
wait $pid
"$WBTOP" -r "$rec" --export csv >"$TMP/full.csv" || fail "the full recording does not replay"
i=0
while [ $i -lt 30 ]; do
	c=$TMP/copy$i.wbrec
	[ -f "$c-wal" ] && fail "a -wal file came along"
	"$WBTOP" -r "$c" --export csv >"$TMP/c.csv" 2>"$TMP/c.err" || fail "copy $i does not replay: $(cat "$TMP/c.err")"
	n=$(wc -l <"$TMP/c.csv")
	[ "$n" -ge 2 ] || fail "copy $i holds no interval"
	head -n "$n" "$TMP/full.csv" | cmp -s - "$TMP/c.csv" || fail "copy $i is not a prefix of the recording"
	i=$((i + 1))
done
exit 0

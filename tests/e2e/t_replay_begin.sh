#!/bin/sh
# --begin shows part of a recording, not a different one: the detector is fed the samples
# before TIME (the replay's lead, snapshot.h) and shows them to nobody, so each interval
# from TIME on has the marks and depths of the whole replay, both the recorded marks and
# the detector's own (--dip).  Without the lead a depth after --begin came from a level
# learnt on fewer samples (t_record failed once this way, on a host whose disk dipped).
# One of the lab's committed recordings (tests/dips/corpus), cut at several points.
# e2e: beside (fixed files, no timing)
. "$E2E_LIB"
root=$(cd "$(dirname "$E2E_LIB")/../.." && pwd)
rec=$root/tests/dips/corpus/bus16/6.1.0-47-amd64/thread40_d1.db
[ -f "$rec" ] || fail "no recording at $rec"
for dip in "" 10; do
	set -- ${dip:+--dip "$dip"}
	"$WBTOP" -r "$rec" --export json "$@" >"$TMP/all.json" || fail "export $* exited $?"
	n=$(wc -l <"$TMP/all.json")
	[ "$n" -ge 60 ] || fail "the recording has $n intervals, want 60 or more"
	depths=$(grep -c '"dip_depth_pct":[0-9]' "$TMP/all.json")
	[ "$depths" -ge 5 ] || fail "only $depths intervals with a depth ${dip:+at --dip $dip}: nothing to compare"
	for k in 5 $((n / 3)) $((n / 2)) $((n - 3)); do
		t=$(sed -n "${k}p" "$TMP/all.json" |
			python3 -c 'import json, sys; print("%d.%09d" % divmod(json.load(sys.stdin)["wall_ns"], 10**9))')
		"$WBTOP" -r "$rec" --export json --begin "$t" "$@" >"$TMP/b.json" || fail "--begin $t $* exited $?"
		sed -n "$((k + 1)),\$p" "$TMP/all.json" >"$TMP/want.json"
		cmp -s "$TMP/want.json" "$TMP/b.json" ||
			fail "--begin at interval $k ${dip:+--dip $dip }changed the figures after it: $(cmp "$TMP/want.json" "$TMP/b.json")"
		"$WBTOP" -r "$rec" --export csv --begin "$t" "$@" | sed 1d >"$TMP/b.csv" || fail "csv --begin $t exited $?"
		"$WBTOP" -r "$rec" --export csv "$@" | sed "1,$((k + 1))d" >"$TMP/want.csv"
		cmp -s "$TMP/want.csv" "$TMP/b.csv" || fail "csv --begin at interval $k changed the rows after it"
	done
	echo "--dip ${dip:-recorded}: $n intervals, $depths with a depth; cut at 4 points, the same after each"
done
# the batch text of the part is the tail of the whole one's
"$WBTOP" -r "$rec" -b -a >"$TMP/all.txt" || fail "-r -b exited $?"
t=$(sed -n 20p "$TMP/all.json" | python3 -c 'import json, sys; print("%d.%09d" % divmod(json.load(sys.stdin)["wall_ns"], 10**9))')
"$WBTOP" -r "$rec" -b -a --begin "$t" >"$TMP/part.txt" || fail "-r -b --begin exited $?"
grep '^# dip' "$TMP/part.txt" >"$TMP/part.dips"
grep '^# dip' "$TMP/all.txt" | tail -n "$(wc -l <"$TMP/part.dips")" >"$TMP/all.dips"
[ -s "$TMP/part.dips" ] || fail "no dip lines after interval 20"
diff -u "$TMP/all.dips" "$TMP/part.dips" || fail "batch text: the dips after --begin differ"
exit 0

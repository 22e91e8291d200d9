#!/bin/sh
# Batch text times: whole seconds at whole-second intervals (as before),
# fractions when the interval has them, so no two blocks at -d 0.5 share a
# time, also when such a recording is replayed; -t (--iso) adds the date
# and the zone, as iostat -t users expect.
. "$E2E_LIB"
stamps() { awk '$1 == "time" { getline; print $1 }' "$1"; }

"$WBTOP" -b -d 0.5 -n 4 -w "$TMP/half.db" >"$TMP/half" || fail "-d 0.5 failed"
stamps "$TMP/half" >"$TMP/t"
[ "$(wc -l <"$TMP/t")" -eq 4 ] || { cat "$TMP/half"; fail "want 4 blocks"; }
grep -qvE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]$' "$TMP/t" && { cat "$TMP/t"; fail "-d 0.5: want HH:MM:SS.f"; }
[ "$(sort -u "$TMP/t" | wc -l)" -eq 4 ] || { cat "$TMP/t"; fail "-d 0.5: two blocks share a time"; }
# the header's time column is as wide as the times
awk '$1 == "time" { h = index($0, " r ") } END { exit !(h == 13) }' "$TMP/half" ||
	{ head -2 "$TMP/half"; fail "the header is not aligned with HH:MM:SS.f"; }

"$WBTOP" -r "$TMP/half.db" -b >"$TMP/replay" || fail "replay failed"
stamps "$TMP/replay" >"$TMP/rt"
grep -qvE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]$' "$TMP/rt" && { cat "$TMP/rt"; fail "replay of -d 0.5: want HH:MM:SS.f"; }
[ "$(sort -u "$TMP/rt" | wc -l)" -eq "$(wc -l <"$TMP/rt")" ] || { cat "$TMP/rt"; fail "replay: two blocks share a time"; }

"$WBTOP" -b -d 0.25 -n 2 >"$TMP/q" || fail "-d 0.25 failed"
stamps "$TMP/q" | grep -qvE '^[0-9:]{8}\.[0-9]{2}$' && { cat "$TMP/q"; fail "-d 0.25: want two decimals"; }

"$WBTOP" -b -d 1 -n 1 >"$TMP/one" || fail "-d 1 failed"
stamps "$TMP/one" | grep -qxE '[0-9]{2}:[0-9]{2}:[0-9]{2}' || { cat "$TMP/one"; fail "-d 1: want HH:MM:SS"; }
grep -m1 "^time" "$TMP/one" | grep -q "^time       r " || { cat "$TMP/one"; fail "-d 1: the header changed"; }

TZ=UTC "$WBTOP" -b -t -d 0.5 -n 1 >"$TMP/iso" || fail "-t failed"
stamps "$TMP/iso" | grep -qxE '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]\+0000' ||
	{ cat "$TMP/iso"; fail "-t: want YYYY-MM-DDTHH:MM:SS.f+0000"; }
"$WBTOP" -b --iso -n 1 >"$TMP/iso2" || fail "--iso failed"
stamps "$TMP/iso2" | grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{4}$' || { cat "$TMP/iso2"; fail "--iso"; }
echo "times: HH:MM:SS at -d 1, HH:MM:SS.f at -d 0.5 (live and replayed), ISO 8601 with -t"

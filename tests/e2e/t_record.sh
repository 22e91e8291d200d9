#!/bin/sh
# Record a live batch session with -w, replay it with -r -b (the same text,
# byte for byte), export it as CSV and JSON Lines (fixed columns, valid
# JSON), restrict it with --begin/--end, and compare it with itself.
. "$E2E_LIB"
rec=$TMP/run.wbrec
"$WBTOP" -b -w "$rec" -d 0.2 -n 8 >"$TMP/live.txt" 2>"$TMP/live.err" || fail "recording exited $?: $(cat "$TMP/live.err")"
# the one note allowed: the recording lives on a device wbtop watches
grep -v "^wbtop: note: recording .* is on .*, a device wbtop watches" "$TMP/live.err" >"$TMP/live.err2"
stderr_clean "$TMP/live.err2" || fail "recording printed errors: $(cat "$TMP/live.err2")"
[ -f "$rec-wal" ] && fail "a closed recording left a -wal file"
"$WBTOP" -r "$rec" -b >"$TMP/replay.txt" 2>"$TMP/replay.err" || fail "replay exited $?: $(cat "$TMP/replay.err")"
# what the live run could not read of the kernel loop is said in the live text only
without_kloop_note "$TMP/live.txt" >"$TMP/live.seen"
diff -u "$TMP/live.seen" "$TMP/replay.txt" || fail "replay -b differs from what live -b printed"

# JSON Lines: live -b --format json prints what --export json gives later
"$WBTOP" -b --format json -w "$TMP/j.wbrec" -d 0.2 -n 5 >"$TMP/live.json" 2>"$TMP/j.err" || fail "json recording: $(cat "$TMP/j.err")"
"$WBTOP" -r "$TMP/j.wbrec" --export json >"$TMP/replay.json" || fail "json export failed"
diff -u "$TMP/live.json" "$TMP/replay.json" || fail "--export json differs from live -b --format json"

# -q records without printing anything
"$WBTOP" -b -q -w "$TMP/quiet.wbrec" -d 0.1 -n 3 >"$TMP/q.out" 2>&1 || fail "-q recording failed"
[ -s "$TMP/q.out" ] && fail "-q printed: $(cat "$TMP/q.out")"
"$WBTOP" -r "$TMP/quiet.wbrec" --export json | wc -l | grep -qx 3 || fail "-q recording does not hold 4 samples"

# an existing file is never overwritten
"$WBTOP" -b -q -w "$rec" -n 1 2>"$TMP/exists.err" && fail "overwrote an existing recording"
grep -q "^wbtop: $rec: file exists" "$TMP/exists.err" || fail "no clear message: $(cat "$TMP/exists.err")"
# a directory is said to be one, with exit 1 and one line
mkdir "$TMP/adir"
"$WBTOP" -b -q -w "$TMP/adir" -n 1 2>"$TMP/dir.err"
rc=$?
[ "$rc" = 1 ] || fail "-w DIR: exit $rc, want 1"
[ "$(cat "$TMP/dir.err")" = "wbtop: $TMP/adir: is a directory: give the recording's file name" ] ||
	fail "-w DIR: $(cat "$TMP/dir.err")"

# CSV: one header, one row per interval, the same number of cells on each
"$WBTOP" -r "$rec" --export csv >"$TMP/x.csv" || fail "csv export failed"
head -1 "$TMP/x.csv" | grep -q '^time,wall_ns,dt_s,status,r,b,swpd_kb,' || fail "csv header: $(head -1 "$TMP/x.csv")"
head -1 "$TMP/x.csv" | grep -q ',w_s@[^,]*,' || fail "csv has no device columns"
[ "$(wc -l <"$TMP/x.csv")" -eq 9 ] || fail "csv has $(wc -l <"$TMP/x.csv") lines, want 1 + 8"
awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$TMP/x.csv" || fail "csv rows of different widths"

# JSON Lines: every line a JSON object with the documented keys
"$WBTOP" -r "$rec" --export json >"$TMP/x.json" || fail "json export failed"
[ "$(wc -l <"$TMP/x.json")" -eq 8 ] || fail "json has $(wc -l <"$TMP/x.json") lines, want 8"
python3 - "$TMP/x.json" <<'PY' || fail "json lines do not parse or lack keys"
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    for k in ("schema", "time", "wall_ns", "dt_s", "status", "sys", "knobs", "dip", "devices", "events"):
        assert k in o, k
    assert o["schema"] == 1 and o["status"] == "ok"
    assert "bo_kbps" in o["sys"] and "vm.dirty_ratio" in o["knobs"]
    for d in o["devices"]:
        assert d["key"] and d["name"] and "wkb_s" in d, d
PY

# --begin / --end: seconds since the epoch of the 3rd and 6th samples
t3=$(sed -n 3p "$TMP/x.json" | python3 -c 'import json,sys; t = json.load(sys.stdin)["wall_ns"]; print("%d.%09d" % divmod(t, 10**9))')
"$WBTOP" -r "$rec" --export json --begin "$t3" >"$TMP/b.json" || fail "--begin failed"
# from the 3rd interval (4th sample) on, with the 4th sample as baseline
[ "$(wc -l <"$TMP/b.json")" -eq 5 ] || fail "--begin: $(wc -l <"$TMP/b.json") intervals, want 5"
sed -n '4,$p' "$TMP/x.json" >"$TMP/x4.json"
cmp -s "$TMP/x4.json" "$TMP/b.json" || fail "--begin changed the figures: $(cmp "$TMP/x4.json" "$TMP/b.json")"
"$WBTOP" -r "$rec" -b --begin "$t3" --end "$t3" >/dev/null || fail "-b --begin --end failed"
"$WBTOP" -r "$rec" -b --begin 'not a time' 2>"$TMP/t.err" && fail "a bad --begin was accepted"
grep -q "^wbtop: --begin 'not a time': not a time" "$TMP/t.err" || fail "bad --begin: $(cat "$TMP/t.err")"

# compare: a recording with itself changes by +0.0% everywhere
"$WBTOP" --compare "$rec" "$rec" >"$TMP/cmp.txt" || fail "compare failed"
grep -q '^TOTAL (vmstat bo) ' "$TMP/cmp.txt" || fail "no TOTAL block: $(cat "$TMP/cmp.txt")"
grep -q '^  mean MB/s ' "$TMP/cmp.txt" || fail "no mean row"
# every figure row ends in its change: +0.0% (or - where A is 0 and B is not, impossible here)
if grep -E '^  (duration|intervals|mean|min|p5|cv|dips)' "$TMP/cmp.txt" | grep -qv '+0.0%$'; then
	fail "self-compare shows a change: $(cat "$TMP/cmp.txt")"
fi
exit 0

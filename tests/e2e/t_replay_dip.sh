#!/bin/sh
# Recorded versus re-judged dip marks: one rule for every sink.  A session
# on fixture data with a dip (a device drops to 30% for a moment) is
# recorded at the default sensitivity.  Replayed without --dip, batch text
# and the JSON export show the recorded marks; with --dip they are judged
# again, the same way in batch text, the export and on the screen: at the
# recording's own sensitivity they are the recorded ones, at --dip 80 (a
# 70% drop is no longer enough) there are none.
. "$E2E_LIB"
. "$(dirname "$0")/screen_lib.sh"
scr_setup

scr_scenario_dip
rec=$TMP/dip.db
scr_fixture_run -b -q -w "$rec" -d 0.2 -n 40 || fail "recording exited $?: $(cat "$TMP/fx.err")"

# The marks of a batch replay as "interval device" lines (interval counted
# from 1, "sys" for the system line), and of a JSON export the same way.
batch_marks() {
	"$WBTOP" -r "$rec" -b -a "$@" >"$TMP/b.out" || fail "-r -b $* exited $?"
	awk '/^time / { k++ } /<<<<<$/ { print k, ($1 ~ /^[0-9][0-9]:/ ? "sys" : $1) }' "$TMP/b.out"
}
json_marks() {
	"$WBTOP" -r "$rec" --export json "$@" >"$TMP/j.out" || fail "--export json $* exited $?"
	python3 - "$TMP/j.out" <<'PY'
import json, sys
for k, line in enumerate(open(sys.argv[1]), 1):
    o = json.loads(line)
    if o["dip"]:
        print(k, "sys")
    for d in o["devices"]:
        if d["dip"]:
            print(k, d["name"])
PY
}

batch_marks >"$TMP/rec.b"
json_marks >"$TMP/rec.j"
grep -q " fixa$" "$TMP/rec.b" || { cat "$TMP/b.out"; fail "no dip of fixa recorded"; }
diff -u "$TMP/rec.b" "$TMP/rec.j" || fail "batch replay and export disagree on the recorded marks"

# Each mark's cause is recorded with it (the dips table), and the batch replay, the JSON
# and CSV exports give the recorded one.
python3 - "$rec" >"$TMP/rec.c" <<'PY' || fail "the recording's dips table has no causes"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT s.seq, d.name, p.cause FROM dips p JOIN samples s ON s.seq = p.seq"
                  " LEFT JOIN devices d ON d.id = p.device_id ORDER BY p.rowid").fetchall()
assert rows and all(r[2] for r in rows), rows
for seq, name, cause in rows:
    print(name or "bo", cause)
PY
"$WBTOP" -r "$rec" -b -a | sed -n 's/^# dip \([^:]*\): \([^,]*\), \([0-9]*\)% below the level$/\1 \2 \3/p' >"$TMP/b.cd"
sed 's/ [0-9]*$//' "$TMP/b.cd" >"$TMP/b.c"
"$WBTOP" -r "$rec" --export json | python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if o["dip"]:
        print("bo", o["dip_cause"], "%.0f" % o["dip_depth_pct"])
    for d in o["devices"]:
        if d["dip"]:
            print(d["name"], d["cause"], "%.0f" % d["dip_depth_pct"])' >"$TMP/j.cd"
sed 's/ [0-9]*$//' "$TMP/j.cd" >"$TMP/j.c"
"$WBTOP" -r "$rec" --export csv | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
head = rows[0]
for r in rows[1:]:
    v = dict(zip(head, r))
    if v["dip"] == "1":
        print("bo", v["dip_cause"], "%.0f" % float(v["dip_depth_pct"]))
    for k in head:
        if k.startswith("dip@") and v[k] == "1":
            print(v["name@" + k[4:]].split()[0], v["cause@" + k[4:]],
                  "%.0f" % float(v["dip_depth_pct@" + k[4:]]))' >"$TMP/c.cd"
sed 's/ [0-9]*$//' "$TMP/c.cd" >"$TMP/c.c"
diff -u "$TMP/rec.c" "$TMP/b.c" || fail "batch replay's causes are not the recorded ones"
diff -u "$TMP/rec.c" "$TMP/j.c" || fail "the JSON export's causes are not the recorded ones"
diff -u "$TMP/rec.c" "$TMP/c.c" || fail "the CSV export's causes are not the recorded ones"
# each mark's depth, the same in batch text, JSON and CSV
awk '{ print $1, $NF }' "$TMP/b.cd" >"$TMP/b.d"
awk '{ print $1, $NF }' "$TMP/j.cd" >"$TMP/j.d"
awk '{ print $1, $NF }' "$TMP/c.cd" >"$TMP/c.d"
[ -s "$TMP/b.d" ] || fail "no mark's depth in the batch replay"
diff -u "$TMP/b.d" "$TMP/j.d" || fail "the marks' depths differ between batch text and JSON"
diff -u "$TMP/b.d" "$TMP/c.d" || fail "the marks' depths differ between batch text and CSV"

# Re-judged at the recording's own sensitivity (the default, --dip 10), from its first sample: the
# same marks.  At --dip 80: none, in batch text and the export alike.
batch_marks --dip 10 >"$TMP/d10.b"
json_marks --dip 10 >"$TMP/d10.j"
diff -u "$TMP/rec.b" "$TMP/d10.b" || fail "--dip 10 (the default) re-judged the recording differently"
diff -u "$TMP/d10.b" "$TMP/d10.j" || fail "--dip 10: batch replay and export disagree"
batch_marks --dip 80 >"$TMP/d80.b"
json_marks --dip 80 >"$TMP/d80.j"
[ -s "$TMP/d80.b" ] && { cat "$TMP/d80.b"; fail "--dip 80: batch replay still shows the recorded marks"; }
[ -s "$TMP/d80.j" ] && { cat "$TMP/d80.j"; fail "--dip 80: the export still shows the recorded marks"; }
# fixa's first marked interval (the system line may be marked from the interval before: at
# 0.2 s intervals a pacing tick is half the level, and fixa's first, partial interval of the
# drop, 25 % low, is within one; the system line's fall is judged as a whole)
first=$(awk '$2 == "fixa" { print $1; exit }' "$TMP/rec.b")
echo "recorded dips: $(tr '\n' ';' <"$TMP/rec.b"); --dip 80: none"

# The screen follows the same rule: at fixa's recorded dip (interval $first,
# shown as sample $first + 1), marked without --dip, not with --dip 80.
pos=$((first + 1))
for dip in "" 80; do
	scr_start 100 30 LANG=C.UTF-8 -- -r "$rec" ${dip:+--dip $dip}
	scr_wait "speed 1x" 10
	scr_keys Space
	scr_wait "PAUSED" 3
	scr_keys t C-u start Enter
	scr_wait_re "sample 1/41( |$)" 5
	i=1
	while [ $i -lt $pos ]; do scr_keys .; i=$((i + 1)); done
	scr_wait_re "sample $pos/41( |$)" 5
	scr_cap >/dev/null
	if [ -z "$dip" ]; then
		grep -q "^!fixa" "$TMP/pane" || { scr_show; fail "the screen does not mark the recorded dip"; }
		# the status line gives the recorded cause, and the depth the batch text gives
		want=$(awk '$1 == "fixa" { print; exit }' "$TMP/rec.c" | cut -d' ' -f2-)
		deep=$(awk '$1 == "fixa" { print $2; exit }' "$TMP/b.d")
		tail -n 1 "$TMP/pane" | grep -qE "^dip (bo -[0-9]+%: [^,]*, )?fixa -$deep%: $want" ||
			{ scr_show; fail "the status line does not give the recorded cause and depth (-$deep%: $want)"; }
	else
		grep -q "^!fixa" "$TMP/pane" && { scr_show; fail "--dip 80: the screen shows the recorded dip"; }
		grep -qF "!DIP" "$TMP/pane" && { scr_show; fail "--dip 80: the top line says DIP"; }
	fi
	scr_quit
done
[ -s "$TMP/stderr" ] && { cat "$TMP/stderr"; fail "wbtop wrote to stderr"; }
exit 0

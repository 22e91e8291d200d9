#!/bin/sh
# --sweep vm.dirty_background_ratio over two values around three dd on
# three loop filesystems made here, ext4, XFS and ext4 (the shape of the 2007
# experiment): two runs recorded (each under its value, with the command and
# case in the recording), the knob back as found, the table printed with a
# block per filesystem (the XFS one named so), and the SVG of both runs; a failing command and a SIGINT also
# leave the knob as found (and no process of the command behind); bad input
# runs nothing.
. "$E2E_LIB"
need_root "makes loop filesystems and sets vm.dirty_background_ratio"
need_xfs
save_dirty_knobs	# whatever happens to wbtop, the test puts them back
devs=""
for i in 1 2 3; do
	# the second XFS (as in the threads), large enough for mkfs.xfs
	if [ $i = 2 ]; then make_loop_fs 320 "$TMP/i17-sw$i" "$TMP" xfs; else make_loop_fs 96 "$TMP/i17-sw$i"; fi ||
		fail "could not make loop filesystem $i"
	devs="$devs $(basename "$LOOPDEV")"
done
vm=/proc/sys/vm
knobs() { echo "$(cat $vm/dirty_background_ratio) $(cat $vm/dirty_background_bytes)"; }
before=$(knobs)
cmd="for i in 1 2 3; do dd if=/dev/zero of=$TMP/i17-sw\$i/f bs=1M count=24 conv=fsync 2>/dev/null & done; wait; echo ran-\$\$"

"$WBTOP" --sweep vm.dirty_background_ratio=5,15 -d 0.2 --sweep-dir "$TMP/sw" --width 80 -P \
	--devices "^$TMP/i17-sw" --plot "$TMP/sw.svg" -- sh -c "$cmd" >"$TMP/out" 2>"$TMP/err" ||
	fail "sweep failed: $(cat "$TMP/err")"
cat "$TMP/err" "$TMP/out"
[ "$(knobs)" = "$before" ] || fail "knobs $(knobs) after the sweep, $before before"
for v in 5 15; do
	rec="$TMP/sw/vm.dirty_background_ratio=$v.wbrec"
	[ -s "$rec" ] || fail "no recording $rec"
	# the knob was in force through the run, and the run is described
	"$WBTOP" -r "$rec" --export json >"$TMP/$v.json" || fail "export of $rec"
	python3 - "$TMP/$v.json" "$v" "$rec" "$cmd" <<'PY' || fail "recording of $v is wrong"
import json, sqlite3, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) >= 1, "no intervals"
vals = {r["knobs"]["vm.dirty_background_ratio"] for r in rows}
assert vals == {int(sys.argv[2])}, "dirty_background_ratio during the run: %s" % vals
meta = dict(sqlite3.connect("file:%s?mode=ro" % sys.argv[3], uri=True).execute("SELECT key, value FROM meta"))
assert meta["case"] == "vm.dirty_background_ratio=" + sys.argv[2], meta
assert meta["sweep"] == "vm.dirty_background_ratio=" + sys.argv[2], meta
assert meta["command"] == "sh -c '" + sys.argv[4] + "'", meta["command"]
assert meta["exit_status"] == "0" and float(meta["wall_s"]) > 0, meta
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[3], uri=True)
assert db.execute("SELECT count(*) FROM procs").fetchone()[0] > 0, "-P: no processes recorded"
PY
done
grep -q "restored vm.dirty_background" "$TMP/err" || fail "no restore reported"
# the command's output is on stderr: stdout holds the table only
[ "$(grep -c '^ran-' "$TMP/err")" -eq 2 ] && ! grep -q '^ran-' "$TMP/out" || fail "the command's output went to stdout"
grep -Eq '^\* vm.dirty_background_ratio +5% +15%$' "$TMP/out" || fail "no knob line in the table"
for dev in $devs; do
	# each filesystem's mean, minimum and cv under each value
	awk -v dev="$dev" '$1 == dev { on = 1; next } on && /^$/ { on = 0 }
		on && ($1 == "mean" || $1 == "min" || $1 == "cv") && $(NF-2) ~ /^[0-9.]+$/ && $(NF-1) ~ /^[0-9.]+$/ { n++ }
		END { exit n != 3 }' "$TMP/out" || fail "no mean, min and cv for $dev"
done
[ "$(grep -c '^loop' "$TMP/out")" -eq 3 ] || fail "--devices: not the three filesystems alone"
set -- $devs
grep -Eq "^$2 .*\(xfs\)" "$TMP/out" || fail "the block of $2 does not say xfs: $(grep "^$2 " "$TMP/out")"
grep -q '^TOTAL (the devices shown)' "$TMP/out" || fail "no TOTAL block"
[ "$(grep -c '<g class="run">' "$TMP/sw.svg")" -eq 2 ] || fail "the SVG does not hold both runs"
for dev in $devs; do grep -q ">$dev " "$TMP/sw.svg" || fail "$dev is not in the SVG's legend"; done
awk 'length > 80 { bad = 1 } END { exit bad }' "$TMP/out" || fail "a line over 80 columns"

# --repeat: one value run twice, the first run against the second.
"$WBTOP" --sweep vm.dirty_background_ratio=5 --repeat 2 -d 0.2 --sweep-dir "$TMP/rep" \
	-- sh -c "$cmd" >"$TMP/out" 2>"$TMP/err" || fail "sweep --repeat failed: $(cat "$TMP/err")"
for n in 1 2; do
	[ -s "$TMP/rep/vm.dirty_background_ratio=5,run=$n.wbrec" ] || fail "no recording of run $n: $(ls "$TMP/rep")"
done
grep -q '^A: vm.dirty_background_ratio=5  ' "$TMP/out" && grep -q '^B: vm.dirty_background_ratio=5  ' "$TMP/out" ||
	fail "--repeat: $(head -5 "$TMP/out")"
[ "$(knobs)" = "$before" ] || fail "knobs $(knobs) after --repeat, $before before"

# Two knobs: the cross product, the first knob varying slowest, each case
# compared with the first.
expire=$(cat $vm/dirty_expire_centisecs)
on_exit "echo $expire > $vm/dirty_expire_centisecs"
e2=$((expire + 100))
"$WBTOP" --sweep vm.dirty_background_ratio=5,15 --sweep "dirty_expire_centisecs=$expire,$e2" -d 0.2 \
	--sweep-dir "$TMP/x" -- sleep 0.3 >"$TMP/out" 2>"$TMP/err" || fail "two knobs: $(cat "$TMP/err")"
for c in "5,vm.dirty_expire_centisecs=$expire" "5,vm.dirty_expire_centisecs=$e2" \
	"15,vm.dirty_expire_centisecs=$expire" "15,vm.dirty_expire_centisecs=$e2"; do
	[ -s "$TMP/x/vm.dirty_background_ratio=$c.wbrec" ] || fail "no run $c: $(ls "$TMP/x")"
done
[ "$(grep -c "^A: vm.dirty_background_ratio=5,vm.dirty_expire_centisecs=$expire " "$TMP/out")" -eq 3 ] ||
	fail "two knobs: not three tables against the first case"
[ "$(knobs)" = "$before" ] && [ "$(cat $vm/dirty_expire_centisecs)" = "$expire" ] ||
	fail "knobs $(knobs) $(cat $vm/dirty_expire_centisecs) after two knobs"

# A failing command stops the sweep after its run; the knob is put back.
"$WBTOP" --sweep dirty_background_ratio=5,15 -d 0.2 --sweep-dir "$TMP/fail" -- sh -c 'exit 3' \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || fail "failing command: exit $rc, want 1: $(cat "$TMP/err")"
grep -q "case vm.dirty_background_ratio=5: the command exited with status 3; stopping" "$TMP/err" ||
	fail "failing command: $(cat "$TMP/err")"
[ "$(knobs)" = "$before" ] || fail "knobs $(knobs) after a failing command, $before before"
[ ! -e "$TMP/fail/vm.dirty_background_ratio=15.wbrec" ] || fail "the sweep went on after a failure"

# SIGINT in the middle of a run: the command's group is stopped, the knob put back.
# The commands' sleeps are this test's own (its pid in them): another test running
# the same sweep at the same time must not be taken for it, or the signal can come
# before this wbtop has its handlers (a background job starts with SIGINT ignored).
# interrupt_sweep SIG STATUS DIR MARK COMMAND: a sweep into DIR running COMMAND (whose
# sleeps are "sleep MARK") is sent SIG during its first run; it exits STATUS, the knob
# is back and the command's group gone.
interrupt_sweep() {
	sig=$1 want=$2 dir=$3 mark=$4
	"$WBTOP" --sweep vm.dirty_background_ratio=5,15 -d 0.2 --sweep-dir "$dir" \
		-- sh -c "$5" >/dev/null 2>"$TMP/err.$sig" &
	pid=$!
	on_exit "kill $pid 2>/dev/null"
	i=0
	while [ "$(cat $vm/dirty_background_ratio)" != 5 ] || ! pgrep -f "sleep $mark" >/dev/null; do
		i=$((i + 1)); [ $i -lt 100 ] || fail "the $sig run did not start: $(cat "$TMP/err.$sig")"
		sleep 0.1
	done
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$want" ] || fail "$sig: exit $rc, want $want: $(cat "$TMP/err.$sig")"
	[ "$(knobs)" = "$before" ] || fail "knobs $(knobs) after $sig, $before before"
	sleep 0.2
	pgrep -f "sleep $mark" >/dev/null && fail "the command outlived the $sig"
}
S1="47.$$1" S2="47.$$2"
interrupt_sweep INT 130 "$TMP/int" "$S1" "sleep $S1; sleep $S1"
interrupt_sweep TERM 143 "$TMP/term" "$S2" "sleep $S2"
python3 -c 'import sqlite3, sys
m = dict(sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True).execute("SELECT key, value FROM meta"))
assert m["exit_status"] == "interrupted" and m["state"] == "closed", m' \
	"$TMP/int/vm.dirty_background_ratio=5.wbrec" || fail "the interrupted run's recording"

# Bad input: one line naming it, exit 2, nothing run or written.
for bad in "vm.dirty_background_ratio=5,abc" "vm.no_such_knob=1,2" "vm.dirty_background_ratio=5" \
	"vm.dirty_background_ratio=5,,7" "vm.dirty_background_ratio=5,200"; do
	"$WBTOP" --sweep "$bad" --sweep-dir "$TMP/bad" -- true 2>"$TMP/err" >/dev/null
	rc=$?
	[ $rc -eq 2 ] || fail "--sweep '$bad': exit $rc, want 2"
	# one error line (after warnings about valid values, if the host's knobs call for them)
	[ "$(grep -vc '^wbtop: warning: ' "$TMP/err")" -eq 1 ] && tail -n 1 "$TMP/err" | grep -q "^wbtop: --sweep '" ||
		fail "--sweep '$bad': $(cat "$TMP/err")"
	[ ! -e "$TMP/bad" ] || fail "--sweep '$bad' made its directory"
done
"$WBTOP" --sweep vm.dirty_background_ratio=5,15 2>"$TMP/err"; [ $? -eq 2 ] || fail "no command: not exit 2"
grep -q "needs the command to run after --" "$TMP/err" || fail "no command: $(cat "$TMP/err")"
"$WBTOP" -r "$TMP/sw/vm.dirty_background_ratio=5.wbrec" --sweep vm.dirty_background_ratio=5,15 -- true \
	2>"$TMP/err"; [ $? -eq 2 ] || fail "a replay was allowed to sweep"
# an existing recording is never overwritten: refused before anything runs
"$WBTOP" --sweep vm.dirty_background_ratio=5,15 --sweep-dir "$TMP/sw" -- true 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "exists" "$TMP/err" || fail "an existing recording: $(cat "$TMP/err")"
[ "$(knobs)" = "$before" ] || fail "knobs $(knobs) at the end, $before before"
exit 0

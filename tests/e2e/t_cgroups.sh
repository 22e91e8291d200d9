#!/bin/sh
# The per-cgroup view on two memory cgroups made here (cgroup v2 with the
# memory controller enabled in the root's subtree_control if it is not, or
# the v1 memory hierarchy; removed on every exit), each with one buffered
# writer (pv) into a file on an ext4 loop filesystem of its own: one writes
# fast to a device held to 16 MiB of dirty pages (its BDI's strict_limit and
# max_bytes, restored on exit) and is throttled, the other writes 256 KiB/s
# and, the system being far below its limit, is not.  The host's vm.dirty_*
# knobs are not touched: the device's own limit throttles (a global knob
# that tests running at the same time save and restore can be left changed).  wbtop -b must show
# both cgroups by path in its cgroup table; their file_dirty must match
# memory.stat as the test reads it in the same interval; the fast one's
# throttled ms/s must be > 0 and sum to the pauses an independent reader of
# balance_dirty_pages saw for its writer (within 10%), the slow one's ~0;
# JSON names them by path, and the slow one, removed while wbtop runs, as
# gone from then on; a replay of the recording prints the same
# cgroup table, its OpenMetrics (valid) and CSV export have both cgroups by
# path with the fast one throttled; the screen's cgroup view (key C) shows
# both, live and on the replay.
. "$E2E_LIB"
need_root "makes cgroups and loop filesystems, sets BDI limits and reads tracefs"
need_kernfs "$0"
need_tool pv pv
. "$(dirname "$0")/screen_lib.sh"
scr_setup_live

if [ -e /sys/fs/cgroup/cgroup.controllers ]; then
	cgroot=/sys/fs/cgroup
	if ! grep -qw memory $cgroot/cgroup.subtree_control; then
		echo +memory > $cgroot/cgroup.subtree_control || skip "cannot enable the memory controller"
		on_exit "echo -memory > $cgroot/cgroup.subtree_control 2>/dev/null"
	fi
	memfile=file_dirty
elif [ -e /sys/fs/cgroup/memory/memory.stat ]; then
	cgroot=/sys/fs/cgroup/memory
	memfile=dirty
else
	skip "no memory cgroup hierarchy under /sys/fs/cgroup"
fi
fast=wbtop-i15b-fast-$$ slow=wbtop-i15b-slow-$$
mkdir $cgroot/$fast $cgroot/$slow || fail "could not make the cgroups under $cgroot"
on_exit "rmdir $cgroot/$fast $cgroot/$slow 2>/dev/null"
ino_fast=$(stat -c %i $cgroot/$fast) ino_slow=$(stat -c %i $cgroot/$slow)

make_loop_fs 1536 "$TMP/i15b_fast" || fail "could not make a loop filesystem"
bdi=/sys/class/bdi/$(cat /sys/class/block/$(basename "$LOOPDEV")/dev)
make_loop_fs 256 "$TMP/i15b_slow" || fail "could not make a second loop filesystem"
[ -w $bdi/strict_limit ] && [ -w $bdi/max_bytes ] || skip "no strict_limit or max_bytes in $bdi (kernel 6.2+)"
old_max_ratio=$(cat $bdi/max_ratio) old_strict=$(cat $bdi/strict_limit)
on_exit "echo $old_max_ratio > $bdi/max_ratio; echo $old_strict > $bdi/strict_limit"
echo 1 > $bdi/strict_limit && echo $((16 * 1024 * 1024)) > $bdi/max_bytes ||
	fail "could not limit $bdi"

# The test's own reading of both cgroups' memory.stat every 10 ms, with the time.
python3 -c '
import sys, time
files = [sys.argv[1] + "/" + c + "/memory.stat" for c in sys.argv[3:]]
while True:
    row = ["%.6f" % time.time()]
    for f in files:
        try:
            with open(f) as fh:
                v = [l.split()[1] for l in fh if l.split()[0] == sys.argv[2]]
        except OSError:
            v = []	# removed (the slow one, near the end)
        row.append(str(int(v[0]) // 1024 if v else -1))
    print(" ".join(row), flush=True)
    time.sleep(0.01)
' $cgroot $memfile $fast $slow > "$TMP/memstat" &
sampler=$!
on_exit "kill $sampler 2>/dev/null"
start_ref_reader "$TMP/ref" || fail "could not make the reference tracefs instance"

scr_start_live 160 40 -- -d 1
on_exit scr_stop
# The two batch runs go on until the test has done what it drives (they end
# on SIGINT, two intervals after the slow cgroup is removed), however long a
# loaded machine takes over it; the writers start after their first interval.
"$WBTOP" -b -d 1 -n 600 --format json > "$TMP/json" 2> "$TMP/json.err" &
wb_json=$!
"$WBTOP" -b -d 1 -n 600 -w "$TMP/rec.db" > "$TMP/live" 2> "$TMP/live.err" &
wb_text=$!
on_exit "kill $wb_json $wb_text 2>/dev/null"
wait_output "$TMP/live" '^[0-9:]{8} ' $wb_text
wait_output "$TMP/json" '^[{]' $wb_json
# each writer joins its cgroup, then becomes pv (the same pid)
sh -c 'echo $$ > "$1/cgroup.procs" && exec pv -q -L 150m /dev/zero > "$2"' sh \
	$cgroot/$fast "$TMP/i15b_fast/f" &
w_fast=$!
sh -c 'echo $$ > "$1/cgroup.procs" && exec pv -q -L 256k /dev/zero > "$2"' sh \
	$cgroot/$slow "$TMP/i15b_slow/f" &
w_slow=$!
on_exit "kill $w_fast $w_slow 2>/dev/null; wait $w_fast $w_slow 2>/dev/null"
sleep 3
# the screen's cgroup view: both by path, the fast one throttled
scr_keys C
scr_wait "/$fast" 5
scr_wait "/$slow" 5
scr_thr_now() {	# whether the pane's row of cgroup path $1 shows THR_MS > 0
	awk -v p="$1" '$NF == p && $(NF - 2) != "-" && $(NF - 2) > 0 { ok = 1 } END { exit !ok }' "$TMP/pane"
}
scr_thr_row() {	# wait until it does
	end=$(( $(date +%s) + 5 * SCR_WAIT_SCALE ))
	until scr_thr_now "$1"; do
		[ "$(date +%s)" -gt "$end" ] && { scr_show; fail "the screen never showed $1 throttled"; }
		sleep 0.2
		scr_cap >/dev/null
	done
}
scr_thr_row "/$fast"
grep "/$fast\$" "$TMP/pane"
scr_keys C	# back to the main screen, where q quits
scr_wait "system writes" 3
scr_quit
sleep 2
kill $w_fast $w_slow 2>/dev/null
wait $w_fast $w_slow 2>/dev/null
# the slow cgroup removed while wbtop runs: it keeps its inode and path, marked gone
rmdir $cgroot/$slow || fail "could not remove $cgroot/$slow"
n_json=$(grep -c '^[{]' "$TMP/json") n_text=$(grep -cE '^[0-9:]{8} ' "$TMP/live")
while [ "$(grep -c '^[{]' "$TMP/json")" -lt $((n_json + 2)) ] ||
      [ "$(grep -cE '^[0-9:]{8} ' "$TMP/live")" -lt $((n_text + 2)) ]; do
	kill -0 $wb_json 2>/dev/null && kill -0 $wb_text 2>/dev/null || break
	sleep 0.1
done
kill -INT $wb_json $wb_text
wait $wb_json || fail "wbtop --format json exited $?: $(cat "$TMP/json.err")"
wait $wb_text || fail "wbtop -b exited $?: $(cat "$TMP/live.err")"
stop_ref_reader
kill $sampler 2>/dev/null

# --- batch text: both cgroups by path; the fast one throttled, the slow one not
cgtable() {	# the rows of the cgroup tables of text FILE, as "thr_ms path"
	awk '$1 == "cgroup" { for (i = 1; i <= NF; i++) col[$i] = i; t = 1; next }
	     t && NF == 0 { t = 0 } t { print $(col["thr_ms"]), $NF }' "$1"
}
cgtable "$TMP/live" > "$TMP/rows"
grep -q " /$fast\$" "$TMP/rows" || { cat "$TMP/live"; fail "no cgroup row for /$fast"; }
grep -q " /$slow\$" "$TMP/rows" || { cat "$TMP/live"; fail "no cgroup row for /$slow"; }
awk -v p="/$fast" '$2 == p && $1 != "-" && $1 > 0 { n++ } END { exit !(n >= 2) }' "$TMP/rows" ||
	{ cat "$TMP/rows"; fail "the fast cgroup is not shown throttled in two intervals"; }

# --- JSON: paths, throttling against the reference reader, file_dirty against memory.stat
ref_ms() {	# the pauses the reference reader saw for pid $1, ms
	awk -v pid="$1" '/balance_dirty_pages:/ {
		split($0, a, " \\["); n = split(a[1], t, "-")
		if (t[n] != pid) next
		if (match($0, / pause=-?[0-9]+/)) { v = substr($0, RSTART + 7, RLENGTH - 7); if (v > 0) s += v }
	} END { print s + 0 }' "$TMP/ref"
}
python3 - "$TMP/json" "$TMP/memstat" "$ino_fast" "$ino_slow" "/$fast" "/$slow" "$(ref_ms $w_fast)" \
	"$(ref_ms $w_slow)" <<'EOF' ||
import json, sys
jf, mf, ino_f, ino_s, path_f, path_s, ref_ms, ref_slow = sys.argv[1:]
ino = {int(ino_f): (path_f, 1), int(ino_s): (path_s, 2)}
ref = [[float(x) for x in l.split()] for l in open(mf) if len(l.split()) == 3]
thr = {path_f: 0.0, path_s: 0.0}
gone = []
checked = matched = dirty_seen = 0
bad = []
for line in open(jf):
    s = json.loads(line)
    t = s["wall_ns"] / 1e9
    for c in s.get("cgroups", []):
        if c["ino"] not in ino:
            continue
        path, col = ino[c["ino"]]
        if c["path"] != path:
            sys.exit("cgroup %d has path %r in JSON, not %r" % (c["ino"], c["path"], path))
        if path == path_s:
            gone.append(c["gone"])
        thr[path] += (c["task_throttled_ms"] or 0) * s["dt_s"]
        if c["file_dirty_kb"] is None:
            continue
        win = [r[col] for r in ref if t - 0.05 <= r[0] <= t + 0.3 and r[col] >= 0]
        if len(win) < 2:
            continue
        checked += 1
        lo, hi, got = min(win), max(win), c["file_dirty_kb"]
        dirty_seen += got > 0 and path == path_f
        if lo - 0.1 * lo - 256 <= got <= hi + 0.1 * hi + 256:
            matched += 1
        else:
            bad.append("%s at %.2f: %d KiB, memory.stat %d..%d" % (path, t, got, lo, hi))
ref_ms, ref_slow = float(ref_ms), float(ref_slow)
print("throttled: fast %.0f ms (reference %.0f ms), slow %.0f ms (reference %.0f ms); "
      "file_dirty %d/%d within memory.stat, fast dirty in %d"
      % (thr[path_f], ref_ms, thr[path_s], ref_slow, matched, checked, dirty_seen))
for b in bad:
    print("  " + b)
if ref_ms < 20:
    sys.exit("the fast writer was hardly throttled (%.0f ms): no test" % ref_ms)
if abs(thr[path_f] - ref_ms) > 0.1 * ref_ms:
    sys.exit("the fast cgroup's throttled time is not within 10% of the reference")
# the slow writer is far below its device's limit; the system's, which other
# work on the machine can push it over, may hold it a little: what it shows
# is what the kernel did, and much less than the fast one's
if abs(thr[path_s] - ref_slow) > max(10.0, 0.1 * ref_slow) or thr[path_s] > 0.1 * thr[path_f]:
    sys.exit("the slow cgroup shows throttling it did not have")
if checked < 8 or matched < 0.8 * checked or dirty_seen < 3:
    sys.exit("file_dirty does not follow memory.stat")
# gone: false while it was there, then true to the end
print("the removed cgroup: gone %s" % "".join("1" if g else "0" for g in gone))
if not gone or gone[0] or not gone[-1] or gone != sorted(gone):
    sys.exit("the removed cgroup is not marked gone")
EOF
	fail "the JSON cgroups do not hold"

# --- the replay prints the same cgroup tables as the live run
"$WBTOP" -r "$TMP/rec.db" -b > "$TMP/replay" 2> "$TMP/replay.err" || fail "replay: $(cat "$TMP/replay.err")"
cgsections() { awk '$1 == "cgroup" { t = 1 } t && NF == 0 { t = 0 } t' "$1"; }
cgsections "$TMP/live" > "$TMP/live.cg"
cgsections "$TMP/replay" > "$TMP/replay.cg"
[ -s "$TMP/live.cg" ] || fail "no cgroup table live"
diff -u "$TMP/live.cg" "$TMP/replay.cg" || fail "the replay's cgroup tables differ from the live run's"
echo "live and replay: $(grep -c '^cgroup' "$TMP/live.cg") cgroup tables, the same"

# --- OpenMetrics of the replay: valid, cgroup="path" labels, the fast one throttled
"$WBTOP" -r "$TMP/rec.db" -b --format openmetrics > "$TMP/om" 2> "$TMP/om.err" || fail "openmetrics: $(cat "$TMP/om.err")"
python3 "$(dirname "$0")/om_check.py" --stream "$TMP/om" || fail "the OpenMetrics text is not valid"
grep -q "^wbtop_cgroup_file_dirty_bytes{cgroup=\"/$slow\",ino=\"$ino_slow\"} " "$TMP/om" ||
	fail "no file_dirty sample of /$slow in OpenMetrics"
awk -v s="wbtop_cgroup_throttled_ratio{cgroup=\"/$fast\",ino=\"$ino_fast\"}" '$1 == s && $2 > 0 { n++ }
	END { exit !(n >= 2) }' "$TMP/om" || fail "OpenMetrics does not show /$fast throttled"

# --- CSV export: a block of columns per cgroup path, the same throttled time as JSON's
"$WBTOP" -r "$TMP/rec.db" --export csv > "$TMP/csv" 2> "$TMP/csv.err" || fail "csv: $(cat "$TMP/csv.err")"
python3 - "$TMP/csv" "/$fast" "/$slow" <<'EOF' || fail "the CSV export's cgroup columns do not hold"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[0], rows[1:]
col = {h: i for i, h in enumerate(head)}
for p in sys.argv[2:]:
    for k in ("file_dirty_kb", "task_throttled_ms", "wb_dirty_kb"):
        if k + "@cg:" + p not in col:
            sys.exit("no column %s@cg:%s" % (k, p))
if any(len(r) != len(head) for r in body):
    sys.exit("rows and header differ in width")
thr = sum(float(r[col["task_throttled_ms@cg:" + sys.argv[2]]] or 0) * float(r[col["dt_s"]]) for r in body)
print("csv: %d rows, the fast cgroup throttled %.0f ms" % (len(body), thr))
if thr <= 0:
    sys.exit("no throttled time for the fast cgroup")
EOF

# --- the replay's screen: the same view, stepped to a throttled interval
scr_start_live 160 40 -- -r "$TMP/rec.db"
scr_wait "wbtop" 5
scr_keys C
scr_wait "/$slow" 5
until scr_thr_now "/$fast"; do
	n=$(( ${n:-0} + 1 ))
	[ $n -le 10 ] || { scr_show; fail "the replay's cgroup view never showed /$fast throttled"; }
	scr_keys .
	sleep 0.3
	scr_cap >/dev/null
done
grep "/$fast\$" "$TMP/pane"
scr_keys q	# q on a page: back to the main screen
scr_wait "system writes" 3
scr_quit

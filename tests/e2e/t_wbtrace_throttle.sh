#!/bin/sh
# The writeback trace source against an independent reader of the same
# tracepoint.  Two ext4 loop filesystems made here, vm.dirty_bytes 16 MiB
# (restored on exit): a buffered dd on the first is throttled by the kernel,
# and the pause time the source sums for it over 5 s must equal, within 10%,
# the sum of "pause" in balance_dirty_pages events that a tracefs instance of
# the test's own saw; a direct-I/O dd on the second dirties no page cache and
# must show no throttled time.  The per-device figures the source reads from
# debugfs (dirty, threshold, bandwidth) must match what the test reads from
# the same files in the same interval.
. "$E2E_LIB"
need_root "makes loop filesystems, sets vm.dirty_bytes and reads tracefs"
need_kernfs "$0"
need_probe
vm=/proc/sys/vm
save_dirty_knobs
make_loop_fs 1536 "$TMP/i15a" || fail "could not make a loop filesystem"
dev_a=$(basename "$LOOPDEV")
make_loop_fs 512 "$TMP/i15b" || fail "could not make a second loop filesystem"
dev_b=$(basename "$LOOPDEV")
bdi_a=$(cat /sys/class/block/$dev_a/dev)
echo $((16 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"

start_ref_reader "$TMP/ref" || fail "could not make the reference tracefs instance"
"$WBPROBE" -d 1 -D > "$TMP/probe" 2> "$TMP/probe.err" &
probe=$!
on_exit "kill $probe 2>/dev/null; wait $probe 2>/dev/null"
for i in $(seq 600); do grep -q '^instance ' "$TMP/probe" && break; sleep 0.1; done
grep -q '^instance ' "$TMP/probe" || fail "the probe did not start: $(cat "$TMP/probe.err")"

# The test's own reading of the device's debugfs stats and its root wb
# domain, every 10 ms with the time, to compare with the probe's readings.
python3 -c '
import sys, time
d = "/sys/kernel/debug/bdi/" + sys.argv[1]
while True:
    with open(d + "/stats") as f: st = f.read()
    with open(d + "/wb_stats") as f: wb = f.read()
    root = ""
    for blk in wb.split("\n\n"):
        if blk.split()[:2] == ["WbCgIno:", "1"]: root = blk
    print("%.6f %s %s" % (time.time(), " ".join(st.split()), " ".join(root.split())), flush=True)
    time.sleep(0.01)
' "$bdi_a" > "$TMP/dbg" &
sampler=$!
on_exit "kill $sampler 2>/dev/null"

dd if=/dev/zero of="$TMP/i15a/f" bs=1M count=1400 2>/dev/null &
dd_thr=$!
dd if=/dev/zero of="$TMP/i15b/f" bs=1M count=400 oflag=direct 2>/dev/null &
dd_direct=$!
on_exit "kill $dd_thr $dd_direct 2>/dev/null"
sleep 5
kill $dd_thr $dd_direct 2>/dev/null
wait $dd_thr $dd_direct 2>/dev/null
sleep 2.5	# two more intervals: the probe reads what was left in its ring
kill -TERM $probe
wait $probe || fail "the probe exited $?: $(cat "$TMP/probe.err")"
kill $sampler 2>/dev/null
stop_ref_reader
inst=$(sed -n 's/^instance //p' "$TMP/probe")
[ -e /sys/kernel/tracing/instances/$inst ] && fail "instance $inst left behind after SIGTERM"

# Pause sums: trace_pipe lines are "comm-PID [cpu] ...: balance_dirty_pages: ... pause=N ..."
ref_ms() {
	awk -v pid="$1" '/balance_dirty_pages:/ {
		split($0, a, " \\["); n = split(a[1], t, "-")
		if (t[n] != pid) next
		if (match($0, / pause=-?[0-9]+/)) { v = substr($0, RSTART + 7, RLENGTH - 7); if (v > 0) s += v }
	} END { print s + 0 }' "$TMP/ref"
}
probe_ms() {
	awk -v pid="$1" '$1 == "task" && $2 == "pid=" pid {
		for (i = 3; i <= NF; i++) if ($i ~ /^paused_ms=/) { sub(/^paused_ms=/, "", $i); s += $i }
	} END { print s + 0 }' "$TMP/probe"
}
lost=$(awk '$1 == "interval" { for (i = 2; i <= NF; i++) if ($i ~ /^lost=/) { sub(/^lost=/, "", $i); s += $i } } END { print s + 0 }' "$TMP/probe")
ref_thr=$(ref_ms $dd_thr) got_thr=$(probe_ms $dd_thr)
ref_dir=$(ref_ms $dd_direct) got_dir=$(probe_ms $dd_direct)
echo "throttled dd: probe $got_thr ms, reference $ref_thr ms; direct dd: probe $got_dir ms, reference $ref_dir ms; lost $lost"
[ "$lost" -eq 0 ] || fail "the probe lost $lost events"
[ "$ref_thr" -ge 20 ] || { tail -5 "$TMP/ref"; fail "the buffered dd was hardly throttled ($ref_thr ms): no test"; }
awk -v a="$got_thr" -v b="$ref_thr" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.1 * b) }' ||
	fail "throttled time $got_thr ms is not within 10% of the reference $ref_thr ms"
[ "$got_dir" -eq 0 ] && [ "$ref_dir" -eq 0 ] || fail "the direct-I/O writer shows throttling ($got_dir ms, reference $ref_dir ms)"
grep -q "^task pid=$dd_thr .* bdi=$bdi_a " "$TMP/probe" || fail "dd not shown throttled on its BDI $bdi_a"

# debugfs: each probe reading of the device (from t0 to t) must lie within
# what the test read from the same files from 0.03 s before to 0.03 s after
# it (the kernel's figures move on a millisecond scale under a writer),
# give or take 10% for the threshold and the bandwidth estimate (the root
# domain's in wb_stats: the stats file prints 0 while the device has
# nothing dirty; absent from the probe once no domain is active, at least
# two readings have them), and 10% of the dirty threshold for dirty and writeback:
# the right device, the right fields, the right units.  Dirty and writeback
# may miss in a quarter of the readings at most, at least once (a burst
# between two of the test's reads: on a loaded machine two of eight were
# seen); a wrong field or unit misses in nearly all.
awk -v bdi="$bdi_a" '
	FNR == NR { t[NR] = $1; for (i = 2; i < NF; i++) if ($i ~ /:$/) { k = $i; sub(/:$/, "", k); v[NR, k] = $(i + 1) } n = NR; next }
	$1 == "debugfs" && $2 == "bdi=" bdi {
		split("", p)
		for (i = 3; i <= NF; i++) { split($i, kv, "="); p[kv[1]] = kv[2] }
		w = 0
		for (j = 1; j <= n; j++) if (t[j] >= p["t0"] - 0.03 && t[j] <= p["t"] + 0.03) win[++w] = j
		if (w < 2) next
		m++
		thr = v[win[1], "DirtyThresh"]
		check("bdi_thresh_kb", "BdiDirtyThresh", 0.1, 0)
		check("wb_bw_kbps", "WbWriteBandwidth", 0.1, 0)
		# one burst moves both at once (dirty pages go to writeback): a reading misses once
		ok_dirty = check("reclaimable_kb", "BdiReclaimable", 0, 0.1 * thr)
		ok_wb = check("writeback_kb", "BdiWriteback", 0, 0.1 * thr)
		if (!ok_dirty || !ok_wb) soft++
		printf "%s%s\n", p["t"], line; line = ""
	}
	function check(pk, dk, rel, abs,   j, lo, hi, x) {
		# the threshold and bandwidth are absent once no domain is active
		# (the device idle after the writer): nothing to compare
		if (!(pk in p)) { line = line sprintf(" %s absent", dk); return 1 }
		if (rel) have[dk]++
		lo = hi = v[win[1], dk]
		for (j = 2; j <= w; j++) { x = v[win[j], dk]; if (x < lo) lo = x; if (x > hi) hi = x }
		line = line sprintf(" %s %s in [%s, %s]", dk, p[pk], lo, hi)
		if (p[pk] >= lo - rel * lo - abs - 64 && p[pk] <= hi + rel * hi + abs + 64)
			return 1
		if (rel) bad = bad " " dk
		return 0
	}
	END {
		print m + 0, "readings compared,", soft + 0, "with dirty/writeback misses"
		if (soft > 1 && soft * 4 > m) bad = bad " dirty/writeback"
		if (bad != "") { print "mismatch:" bad; exit 1 }
		if (m < 3 || have["BdiDirtyThresh"] < 2 || have["WbWriteBandwidth"] < 2) {
			print "too few readings with the threshold and bandwidth"; exit 1 }
	}
' "$TMP/dbg" "$TMP/probe" > "$TMP/cmp" || { cat "$TMP/cmp"; fail "debugfs figures do not match the test's own reading"; }
tail -1 "$TMP/cmp"

restore_dirty_knobs
exit 0

#!/bin/sh
# wbtop -b --format openmetrics on this machine: every exposition passes a
# strict OpenMetrics parser (tests/e2e/om_check.py; promtool too when it is
# installed), -n 1 gives one exposition of the counters (no baseline sample
# needed), -n 3 three; the knob values are the files' under /proc/sys/vm,
# and each device's counters are its /proc/diskstats fields in base units,
# read between two looks at the file.
. "$E2E_LIB"
knob_lock_shared	# the knobs it compares stay as they are meanwhile
CHECK="python3 $(dirname "$E2E_LIB")/om_check.py"

"$WBTOP" -b --format openmetrics -n 1 >"$TMP/first.om" 2>"$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
stderr_clean "$TMP/err" || fail "wbtop wrote to stderr: $(cat "$TMP/err")"
$CHECK --count 1 "$TMP/first.om" || fail "-n 1: not one valid exposition"

# --- a stream: one exposition per interval, each complete
"$WBTOP" -b --format openmetrics -n 3 -d 0.2 >"$TMP/stream.om" 2>"$TMP/err" || fail "wbtop -n 3 exited $?: $(cat "$TMP/err")"
$CHECK --count 3 "$TMP/stream.om" || fail "-n 3: not three valid expositions"

# --- counters against /proc/diskstats read just before and just after
vm() { for k in /proc/sys/vm/dirty*; do echo "wbtop_vm_${k##*/} $(cat "$k")"; done; }
cp /proc/diskstats "$TMP/ds.before"
vm >"$TMP/vm.before"
"$WBTOP" -b --format openmetrics -n 1 >"$TMP/one.om" 2>"$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
cp /proc/diskstats "$TMP/ds.after"
vm >"$TMP/vm.after"
$CHECK --dump "$TMP/one.om" >"$TMP/dump" || fail "--dump"
python3 - "$TMP" <<'EOF' || fail "device counters do not match /proc/diskstats"
import json, sys
tmp = sys.argv[1]
def diskstats(path):
    devs = {}
    for line in open(path):
        f = line.split()
        devs[f[2]] = [int(x) for x in f[3:]]
    return devs
lo, hi = diskstats(tmp + "/ds.before"), diskstats(tmp + "/ds.after")
# metric -> (diskstats field index, factor)
want = {
    "wbtop_device_reads_completed_total": (0, 1), "wbtop_device_read_bytes_total": (2, 512),
    "wbtop_device_read_time_seconds_total": (3, 0.001),
    "wbtop_device_writes_completed_total": (4, 1), "wbtop_device_written_bytes_total": (6, 512),
    "wbtop_device_write_time_seconds_total": (7, 0.001), "wbtop_device_io_time_seconds_total": (9, 0.001),
}
seen = {}
bad = 0
for line in open(tmp + "/dump"):
    s = json.loads(line)
    if s["name"] not in want:
        continue
    dev = s["labels"]["device"]
    seen.setdefault(s["name"], []).append(dev)
    if dev not in lo or dev not in hi:
        continue            # came or went during the run
    i, k = want[s["name"]]
    if not (lo[dev][i] * k - 1e-9 <= s["value"] <= hi[dev][i] * k + 1e-9):
        print(f"{s['name']} {dev}: {s['value']} not within [{lo[dev][i] * k}, {hi[dev][i] * k}]")
        bad += 1
    if s["type"] != "counter":
        print(f"{s['name']}: type {s['type']}, want counter")
        bad += 1
both = set(lo) & set(hi)
for name in want:
    devs = seen.get(name, [])
    if len(devs) != len(set(devs)):
        print(f"{name}: a device twice")
        bad += 1
    if not both <= set(devs):
        print(f"{name}: missing devices {sorted(both - set(devs))}")
        bad += 1
print(f"checked {len(both)} devices")
sys.exit(1 if bad else 0)
EOF

# --- system figures and knobs
get() { $CHECK --get "$@" "$TMP/one.om" || fail "--get $*"; }
# each knob as the file read before or after the run (a test may change one)
for k in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes dirtytime_expire_seconds \
	 dirty_expire_centisecs dirty_writeback_centisecs; do
	case $k in
	*_centisecs) m=wbtop_vm_${k%_centisecs}_seconds; v=$(get "$m" | awk '{ printf "%d", $1 * 100 + 0.5 }') ;;
	*) m=wbtop_vm_$k; v=$(get "$m") ;;
	esac
	grep -qx "wbtop_vm_$k $v" "$TMP/vm.before" "$TMP/vm.after" ||
		fail "$m $(get "$m") does not match /proc/sys/vm/$k: $(grep "_$k " "$TMP/vm.before")"
done
[ "$(get wbtop_page_size_bytes)" = "$(getconf PAGESIZE)" ] || fail "page size"
for m in wbtop_dirty_bytes wbtop_writeback_bytes wbtop_nr_dirty_pages wbtop_nr_writeback_pages \
	 wbtop_dirty_threshold_bytes wbtop_dirty_background_threshold_bytes wbtop_dirtied_pages_total \
	 wbtop_written_pages_total wbtop_write_dip wbtop_sample_timestamp_seconds; do
	get "$m" >/dev/null
done
now=$(date +%s)
awk -v t="$(get wbtop_sample_timestamp_seconds)" -v now="$now" 'BEGIN { d = now - t; exit !(d > -5 && d < 60) }' ||
	fail "wbtop_sample_timestamp_seconds is not now"

# --- promtool parses it (it lints the 0.0.4 format: the only complaint
# allowed is the HELP it cannot see on OpenMetrics counters); without it (not
# under CI, where tools/deps.sh test installs it) the rest has passed
if ! command -v promtool >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && fail "promtool is missing: tools/deps.sh test must install prometheus"
	echo "promtool not installed (Debian: prometheus): not linted"
else
	promtool check metrics <"$TMP/one.om" >"$TMP/lint" 2>&1
	rc=$?
	[ $rc = 0 ] || [ $rc = 3 ] || fail "promtool check metrics: exit $rc: $(cat "$TMP/lint")"
	grep -v '_total no help text$' "$TMP/lint" | grep . && fail "promtool complains"
	echo "promtool: parsed"
fi
exit 0

#!/bin/sh
# The exporter against the real thing (issue 33): a Prometheus server
# (Debian's) scrapes wbtop --listen every second while a buffered dd is
# throttled on an ext4 loop filesystem (vm.dirty_bytes 16 MiB, restored on
# exit).  Through Prometheus' HTTP API, increase() of the device's
# throttled-seconds counter over the window, at an explicit evaluation time,
# must agree within 5% with the pauses an independent tracefs reader saw the
# dd take in the same window, and increase() of its written-bytes counter
# within 5% with what iostat says the device wrote (kB_wrtn, read before and
# after).  The window starts and ends with the device idle, so what either
# side counts is the whole of the run.  Every scrape succeeded (up = 1 at
# every evaluation) and the command row names dd.
. "$E2E_LIB"
need_root "makes a loop filesystem, sets vm.dirty_bytes and reads tracefs"
need_kernfs "$0"
need_tool prometheus prometheus
need_tool iostat sysstat
need_tool curl curl
vm=/proc/sys/vm
save_dirty_knobs
make_loop_fs 1536 "$TMP/exp" || fail "could not make a loop filesystem"
dev=$(basename "$LOOPDEV")
echo $((16 * 1024 * 1024)) > $vm/dirty_bytes || fail "could not set vm.dirty_bytes"

W=$(free_port)
"$WBTOP" --listen "127.0.0.1:$W" -d 1 >"$TMP/wbtop.out" 2>"$TMP/wbtop.err" &
wb=$!
on_exit "kill $wb 2>/dev/null; wait $wb 2>/dev/null"
P=$(free_port)
cat >"$TMP/prom.yml" <<EOF2
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: wbtop
    static_configs:
      - targets: ['127.0.0.1:$W']
EOF2
prometheus --config.file="$TMP/prom.yml" --storage.tsdb.path="$TMP/tsdb" --web.listen-address="127.0.0.1:$P" \
	>"$TMP/prom.log" 2>&1 &
prom=$!
on_exit "kill $prom 2>/dev/null; wait $prom 2>/dev/null"
api=http://127.0.0.1:$P/api/v1
# query EXPR [TIME]: the first value of an instant query, "" when none
query() {
	curl -s --get --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} "$api/query" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")'
}
i=0
until [ "$(query 'up{job="wbtop"}' 2>/dev/null)" = 1 ]; do
	i=$((i + 1)); [ $i -lt 600 ] || fail "Prometheus never scraped wbtop: $(tail -5 "$TMP/prom.log"; cat "$TMP/wbtop.err")"
	sleep 0.1
done
sleep 1
wrtn() { iostat -d -k "$dev" | awk -v d="$dev" '$1 == d { print $7 }'; }
start_ref_reader "$TMP/ref" || fail "could not make the reference tracefs instance"
t0=$(date +%s.%N)
w0=$(wrtn)
sleep 1
dd if=/dev/zero of="$TMP/exp/f" bs=1M count=1300 2>/dev/null &
dd=$!
on_exit "kill $dd 2>/dev/null"
sleep 6
kill $dd 2>/dev/null
wait $dd 2>/dev/null
sync -f "$TMP/exp/f"
sleep 3	# the device idle again: the last writes are in, and scraped
t1=$(date +%s.%N)
w1=$(wrtn)
stop_ref_reader
sleep 2	# Prometheus has scraped past t1
ref_ms=$(awk -v pid="$dd" '/balance_dirty_pages:/ {
	split($0, a, " \\["); n = split(a[1], t, "-")
	if (t[n] != pid) next
	if (match($0, / pause=-?[0-9]+/)) { v = substr($0, RSTART + 7, RLENGTH - 7); if (v > 0) s += v }
} END { print s + 0 }' "$TMP/ref")
[ "$ref_ms" -ge 200 ] || fail "dd was hardly throttled ($ref_ms ms): no test"
# increase() at explicit times: evaluated at the last scrape in the window, over a range that
# starts at the first one (in ms), so that Prometheus has nothing to extrapolate and its answer
# is the counter's own difference.
python3 - "$api" "$dev" "$t0" "$t1" "$ref_ms" "$((w1 - w0))" <<'PY' || fail "Prometheus and the independent readings disagree"
import json, sys, urllib.parse, urllib.request
api, dev, t0, t1, ref_ms, kib = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
def query(expr, at):
    q = urllib.parse.urlencode({"query": expr, "time": "%.3f" % at})
    r = json.load(urllib.request.urlopen(api + "/query?" + q, timeout=10))
    assert r["status"] == "success", r
    return r["data"]["result"]
span = int(t1 - t0) + 2
raw = query('wbtop_device_written_bytes_total{device="%s"}[%ds]' % (dev, span), t1)
assert raw, "no series for %s" % dev
ts = [float(v[0]) for v in raw[0]["values"] if t0 <= float(v[0]) <= t1]
first, last = ts[0], ts[-1]
rng = "%dms" % round((last - first) * 1000)
def one(expr):
    r = query(expr, last)
    return float(r[0]["value"][1]) if r else None
thr = one('increase(wbtop_device_throttled_seconds_total{device="%s"}[%s])' % (dev, rng))
wr = one('increase(wbtop_device_written_bytes_total{device="%s"}[%s])' % (dev, rng))
comm = one('increase(wbtop_command_throttled_seconds_total{comm="dd"}[%s])' % rng)
ups = one('min_over_time(up{job="wbtop"}[%s])' % rng)
n = one('count_over_time(up{job="wbtop"}[%s])' % rng)
print("window %.3f s to %.3f s (%s, %d scrapes, min up %s)" % (first, last, rng, n, ups))
ok = ups == 1
for what, got, want in (("throttled seconds", thr, ref_ms / 1000), ("written bytes", wr, kib * 1024),
                        ("throttled seconds of comm dd", comm, ref_ms / 1000)):
    d = abs(got - want) / want if got is not None else 1
    print("%s: Prometheus increase() %s, independent %.3f, off by %.2f%%" % (what, got, want, 100 * d))
    ok &= d <= 0.05
sys.exit(0 if ok else 1)
PY
kill -TERM $wb; wait $wb || fail "wbtop exited $?: $(cat "$TMP/wbtop.err")"
grep -v '^wbtop: serving\|^wbtop: kernel writeback loop:' "$TMP/wbtop.err" | grep . && fail "wbtop said: $(cat "$TMP/wbtop.err")"
restore_dirty_knobs
exit 0

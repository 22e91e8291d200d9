#!/bin/sh
# The real consumer: node_exporter's textfile collector reads the file
# "wbtop -b --format openmetrics -n 1 -o DIR/wbtop.prom" writes, without a
# scrape error, and serves every wbtop series with the same values (the
# gauges with their HELP; the counters, which its 0.0.4 parser sees as
# untyped, under their _total names).
. "$E2E_LIB"
command -v node_exporter >/dev/null 2>&1 || need_tool prometheus-node-exporter prometheus-node-exporter
NE=$(command -v prometheus-node-exporter || command -v node_exporter)
CHECK="python3 $(dirname "$E2E_LIB")/om_check.py"
dir=$TMP/textfile
mkdir -p "$dir"
"$WBTOP" -b --format openmetrics -n 1 -o "$dir/wbtop.prom" 2>"$TMP/err" || fail "wbtop exited $?: $(cat "$TMP/err")"
$CHECK "$dir/wbtop.prom" || fail "not a valid exposition"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NE" --collector.disable-defaults --collector.textfile --collector.textfile.directory="$dir" \
	--web.listen-address="127.0.0.1:$port" >"$TMP/ne.log" 2>&1 &
ne=$!
on_exit "kill $ne 2>/dev/null"

python3 - "$port" "$dir/wbtop.prom" <<'EOF' || { cat "$TMP/ne.log" | tail -5; fail "node_exporter did not serve wbtop's metrics"; }
import re, sys, time, urllib.request
port, prom = sys.argv[1], sys.argv[2]
body = None
for _ in range(100):
    try:
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
        break
    except OSError:
        time.sleep(0.1)
if body is None:
    sys.exit("node_exporter never answered")
served = {}
for line in body.splitlines():
    if line and not line.startswith("#"):
        name_labels, value = line.rsplit(" ", 1)
        served[name_labels] = float(value)
if served.get("node_textfile_scrape_error") != 0:
    sys.exit(f"node_textfile_scrape_error = {served.get('node_textfile_scrape_error')}")
want = {}
for line in open(prom):
    if line.startswith("#"):
        continue
    name_labels, value = line.rstrip("\n").rsplit(" ", 1)
    want[name_labels] = float(value)
def norm(series):
    # node_exporter sorts labels and gives every series of a family the
    # same names (an empty value is no label): compare sets, not text
    m = re.match(r"([^{]+)(?:\{(.*)\})?$", series)
    pairs = re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or "")
    labels = tuple(sorted(p for p in pairs if p[1] != ""))
    return (m.group(1), labels)
got = {norm(k): v for k, v in served.items()}
missing = [k for k in want if norm(k) not in got]
wrong = [k for k in want if norm(k) in got and got[norm(k)] != want[k]]
if missing or wrong:
    sys.exit(f"missing {missing[:5]}, wrong {wrong[:5]} (of {len(want)})")
if "# HELP wbtop_dirty_bytes Dirty in /proc/meminfo" not in body:
    sys.exit("the HELP of a gauge was lost")
print(f"node_exporter serves all {len(want)} wbtop series")
EOF
exit 0

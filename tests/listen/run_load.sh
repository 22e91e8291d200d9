#!/bin/sh
# The load test of wbtop --listen at its full size (tests/listen/load.py): 50
# scrapers at once, 1000 requests each, a new connection each, half of them
# asking for OpenMetrics, against the plain binary ($WBTOP_PLAIN, else the
# wbtop at the top of the tree) serving 10 loop devices it makes for the run;
# prints its table (requests, failures, requests/s, latency p50/p99/max, RSS
# start/max/end, CPU per request, the largest gap between samples).  Builds
# nothing.  Needs root (losetup).  Arguments go to load.py (e.g. -n 100).
# Exit status: load.py's (0 pass, 1 a finding, 2 a set-up error); 77 when not
# root or without python3.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=${WBTOP_PLAIN:-$top/wbtop}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: run_load needs python3"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: run_load needs root (loop devices)"; exit 77; }
[ -x "$bin" ] || { echo "run_load: no executable $bin (make wbtop first)" >&2; exit 2; }
exec python3 "$here/load.py" --scrapers 50 --requests 1000 "$@" "$bin"

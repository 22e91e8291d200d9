#!/bin/sh
# The exporter's cost (issue 33): CPU per sample and per scrape of
# `wbtop --listen` at 10 and 2000 busy fixture devices, next to the sample
# alone (`wbtop -b -q`), in callgrind instructions and native CPU
# microseconds, with each dialect's page size and wbtop's peak RSS.  The
# fixtures live in private mount namespaces (root); about 3 minutes on the
# 2-core machine (the choice of sample and scrape counts is explained in
# exporter_cost.py).  make bench calls it: sh bench/exporter_bench.sh ROOT
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
wbtop=${WBTOP:-$root/wbtop}
command -v valgrind >/dev/null 2>&1 || { echo "SKIP exporter cost: valgrind is not installed"; exit 0; }
[ -x "$wbtop" ] || { echo "exporter cost: no $wbtop (make wbtop)"; exit 1; }
"$wbtop" --help 2>&1 | grep -q -e '--listen' || { echo "SKIP exporter cost: wbtop has no --listen"; exit 0; }
exec python3 "$root/bench/exporter_cost.py" "$wbtop"

#!/bin/sh
# The screen's cost (issue 18): instructions per frame at 120x40 from 100 to
# 10000 busy fixture devices, next to the headless sample, and the time to
# the first frame.  make bench calls it; run from the top of the tree.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
command -v valgrind >/dev/null 2>&1 || { echo "SKIP screen cost: valgrind is not installed"; exit 0; }
python3 "$root/bench/screen_cost.py" "$root/wbtop"

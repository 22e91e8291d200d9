#!/bin/sh
# The dip detector's cost an interval (doc/dips.md), in steady state: one group of busy
# devices, as the live device table feeds it, at 100, 2000 and 10000 devices: instructions an
# interval and a device (callgrind, the measured intervals only).  Run from the top of the
# tree: sh bench/detect_bench.sh  (make bench calls it).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
out=${BUILD:-build}/bench
mkdir -p "$out"
tmp=$(mktemp -d /tmp/wbtop-detectbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x "$out/detect_bench" ] || make -s "$out/detect_bench" || { echo "detect_bench: build failed"; exit 1; }
command -v valgrind >/dev/null 2>&1 || { echo "  valgrind not installed: no instruction counts"; exit 0; }
steps=20
echo "detector per interval (detect_group_feed_reqs; devices +-5 %, one in 97 halved; after 150 intervals)"
for ndev in 100 2000 10000; do
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		--toggle-collect=detect_bench_measured "$out/detect_bench" $ndev 150 $steps \
		>"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
	[ -n "$ir" ] || ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
	echo "  $ndev devices: $((ir / steps)) instructions/interval ($((ir / steps / ndev)) per device); $(cat "$tmp/out")"
done

#!/bin/sh
# Recording costs (issue 5, doc/recording.md): bytes per sample and per
# active device-sample for 100 and 2000 busy devices, what an idle device
# costs, the time to open a 24 h recording and jump to its middle, and the
# recorder's instructions per sample (callgrind).  Run from the top of the
# tree: sh bench/rec_bench.sh  (make bench calls it).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
out=${BUILD:-build}/bench
mkdir -p "$out"
tmp=$(mktemp -d /tmp/wbtop-recbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The recording modules and what they use, optimised as in ./wbtop.
srcs="bench/rec_bench.c $(ls src/rec_*.c)
      src/snapshot.c src/ident.c src/knob.c src/derive.c src/source.c"
# shellcheck disable=SC2086
cc -std=c11 -D_GNU_SOURCE -O2 -g -Iinclude $(pkg-config --cflags sqlite3 blkid) -o "$out/rec_bench" \
	$srcs $(pkg-config --libs sqlite3 blkid) -lm || { echo "rec_bench: build failed"; exit 1; }
b=$out/rec_bench

echo "recording size (closed file; synthetic busy disks: reads, writes, flushes, queue)"
"$b" size 100 100 3600 "$tmp/s100.wbrec" || exit 1
"$b" size 2000 2000 300 "$tmp/s2000.wbrec" || exit 1
"$b" size 2000 100 4096 "$tmp/mixed.wbrec" || exit 1
"$b" size 2000 0 4096 "$tmp/idle.wbrec" || exit 1
echo "  for comparison, per active device-sample: sadc ~80, nmon ~45, atop (zlib) ~15; target <= 20"

echo "seeking"
"$b" day 100 "$tmp/day.wbrec" || exit 1
"$b" seek "$tmp/day.wbrec" || exit 1
"$b" seek "$tmp/day.wbrec" || exit 1

echo "recorder cost per sample (rec_writer_append: encode, one transaction, checkpoint)"
n=200
for ndev in 100 2000; do
	if command -v valgrind >/dev/null 2>&1; then
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
			--toggle-collect=rec_writer_append "$b" append $ndev $n "$tmp/cg.wbrec" \
			>/dev/null 2>"$tmp/cg.err" || { cat "$tmp/cg.err"; exit 1; }
		ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
		[ -n "$ir" ] || ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
		echo "  $ndev busy devices: $((ir / n)) instructions/sample ($((ir / n / ndev)) per device)"
		rm -f "$tmp/cg.wbrec"
	else
		echo "  (valgrind not installed: no instruction counts)"
	fi
done
start=$(date +%s%N)
"$b" append 100 200 "$tmp/wall.wbrec" || exit 1
end=$(date +%s%N)
echo "  100 busy devices, wall time with the per-sample checkpoint and its fsyncs: $(( (end - start) / 200000 )) us/sample"

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
# Built by make (make bench) from the program's own objects.
[ -x "$out/rec_bench" ] || make -s "$out/rec_bench" || { echo "rec_bench: build failed"; exit 1; }
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
echo "the recorder's own I/O per sample (1 s samples, 60 of them; what lands on the recording's device)"
echo "  --rec-sync     devices   bytes written   to storage   fsyncs/sample"
for ndev in 100 2000; do
	for pol in sample:0 5:5000 close:-1; do
		name=${pol%%:*} ms=${pol#*:}
		rm -f "$tmp/io.wbrec"
		if command -v strace >/dev/null 2>&1; then
			io=$(strace -f -qq -e trace=fsync,fdatasync -o "$tmp/st" "$b" append $ndev 60 "$tmp/io.wbrec" "$ms") || exit 1
			fs=$(grep -c 'sync(' "$tmp/st")
			fs=$(awk -v n="$fs" 'BEGIN { printf "%.2f", n / 60 }')
		else
			io=$("$b" append $ndev 60 "$tmp/io.wbrec" "$ms") || exit 1
			fs="(no strace)"
		fi
		set -- $io
		printf "  %-10s %10s %15s %12s %15s\n" "$name" $ndev "$1" "$2" "$fs"
	done
done
echo "  (bytes written: handed to write(); to storage: /proc/self/io write_bytes;"
echo "   fsyncs include those of opening and closing the file, spread over the 60)"
start=$(date +%s%N)
"$b" append 100 200 "$tmp/wall.wbrec" || exit 1
end=$(date +%s%N)
echo "  100 busy devices, wall time with the per-sample checkpoint and its fsyncs: $(( (end - start) / 200000 )) us/sample"

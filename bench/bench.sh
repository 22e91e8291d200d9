#!/bin/sh
# make bench: the cost figures the issues ask for.  Instruction counts come
# from callgrind (repeatable on these shared machines); CPU microseconds are
# native and noisier.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
echo "== cost of one sample (steady state)"
python3 "$here/sample_cost.py" "$root/wbtop" || exit 1
for b in "$here"/*_bench.sh; do
	[ -f "$b" ] || continue
	echo
	echo "== $(basename "$b" .sh)"
	sh "$b" "$root" || exit 1
done
